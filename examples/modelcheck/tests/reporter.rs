//! What the library tells its caller, and in which words: a recording [`Reporter`] sees every
//! level, every checkpoint written and a failed write, and errors carry numbers, not flags.

use modelcheck::models::two_phase::TwoPhase;
use modelcheck::{
    check, check_with_checkpoints, CheckpointWritten, Checkpoints, Mode, Options, Progress,
    Reporter, Schedule, Verdict, Warning,
};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One event, as the reporter saw it.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Level(Progress),
    Written {
        depth: usize,
        states: u64,
        path: PathBuf,
        part: bool,
    },
    NotWritten {
        depth: usize,
        part: bool,
        error: String,
    },
}

/// Records every event; at level `remove_at`, removes the directory `remove` (so that the
/// checkpoint of that level cannot be written).
#[derive(Default)]
struct Recorder {
    events: Mutex<Vec<Event>>,
    remove_at: Option<(usize, PathBuf)>,
}

impl Reporter for Recorder {
    fn level(&self, progress: &Progress) {
        self.events.lock().unwrap().push(Event::Level(*progress));
        if let Some((depth, dir)) = &self.remove_at {
            if progress.depth == *depth {
                std::fs::remove_dir_all(dir).expect("the scratch directory goes");
            }
        }
    }

    fn checkpoint_written(&self, w: &CheckpointWritten<'_>) {
        self.events.lock().unwrap().push(Event::Written {
            depth: w.depth,
            states: w.states,
            path: w.path.to_path_buf(),
            part: w.part.is_some(),
        });
    }

    fn warning(&self, warning: &Warning<'_>) {
        let Warning::CheckpointNotWritten { depth, part, error } = *warning else {
            panic!("an unexpected warning: {warning:?}");
        };
        let error = error.to_string();
        self.events
            .lock()
            .unwrap()
            .push(Event::NotWritten { depth, part, error });
    }
}

impl Recorder {
    fn levels(&self) -> Vec<Progress> {
        let events = self.events.lock().unwrap();
        events
            .iter()
            .filter_map(|e| match e {
                Event::Level(p) => Some(*p),
                _ => None,
            })
            .collect()
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("modelcheck-reporter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn every_level_is_reported_once_in_order_with_its_counts() {
    for (threads, schedule) in [
        (1, Schedule::Chunks),
        (2, Schedule::Chunks),
        (2, Schedule::Steal),
    ] {
        let recorder = Arc::new(Recorder::default());
        let options = Options {
            threads,
            schedule,
            reporter: Some(recorder.clone()),
            ..Options::default()
        };
        let report = check(&TwoPhase::new(5).unwrap(), &options);
        assert!(matches!(report.verdict, Verdict::Complete));
        let levels = recorder.levels();
        let depths: Vec<usize> = levels.iter().map(|p| p.depth).collect();
        assert_eq!(depths, (1..=report.stats.depth).collect::<Vec<_>>());
        let mut states = 1; // 2PC has one initial state
        let mut elapsed = Duration::ZERO;
        for p in &levels {
            assert!(p.new_states > 0, "{p:?}");
            states += p.new_states;
            assert_eq!(p.states, states, "{p:?}");
            assert!(p.elapsed >= elapsed, "{p:?}");
            elapsed = p.elapsed;
        }
        assert_eq!(states, report.stats.states);
        assert_eq!(report.stats.states, 8_832);
    }
}

#[test]
fn every_checkpoint_written_is_reported_and_a_failed_one_is_a_warning() {
    let dir = scratch("written");
    let path = dir.join("2pc5.ckpt");
    let recorder = Arc::new(Recorder::default());
    let options = Options {
        threads: 2,
        reporter: Some(recorder.clone()),
        ..Options::default()
    };
    let checkpoints = Checkpoints {
        save_to: Some(path.clone()),
        every: Duration::ZERO,
        resume_from: None,
    };
    let report = check_with_checkpoints(&TwoPhase::new(5).unwrap(), &options, &checkpoints)
        .expect("the checkpoint is writable");
    let saved = report.checkpoints.expect("checkpoints were asked for");
    let events = recorder.events.lock().unwrap().clone();
    let written: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::Written { .. }))
        .collect();
    assert_eq!(written.len() as u32, saved.written);
    assert!(saved.written > 0);
    // Each checkpoint follows its level's report, at that level, with that level's count.
    for pair in events.windows(2) {
        if let Event::Written {
            depth,
            states,
            path: p,
            part,
        } = &pair[1]
        {
            let Event::Level(level) = &pair[0] else {
                panic!("a checkpoint without its level before it: {pair:?}");
            };
            assert_eq!((*depth, *states), (level.depth, level.states));
            assert_eq!((p, *part), (&path, false));
        }
    }
    assert!(!events.iter().any(|e| matches!(e, Event::NotWritten { .. })));

    // The directory goes at level 3: that checkpoint fails, the search goes on to the end.
    let dir = scratch("not-written");
    let recorder = Arc::new(Recorder {
        remove_at: Some((3, dir.clone())),
        ..Recorder::default()
    });
    let options = Options {
        threads: 1,
        reporter: Some(recorder.clone()),
        ..Options::default()
    };
    let checkpoints = Checkpoints {
        save_to: Some(dir.join("2pc5.ckpt")),
        ..checkpoints
    };
    let report = check_with_checkpoints(&TwoPhase::new(5).unwrap(), &options, &checkpoints)
        .expect("the checkpoint is writable at the start");
    assert_eq!(report.stats.states, 8_832);
    let saved = report.checkpoints.expect("checkpoints were asked for");
    assert_eq!(saved.depth, Some(2), "{saved:?}");
    let last_error = saved.last_error.expect("a write failed");
    let events = recorder.events.lock().unwrap().clone();
    let warnings: Vec<(usize, bool, &str)> = events
        .iter()
        .filter_map(|e| match e {
            Event::NotWritten { depth, part, error } => Some((*depth, *part, error.as_str())),
            _ => None,
        })
        .collect();
    // Every level from 3 on failed, each said once, the last one kept in the report.
    let depths: Vec<usize> = warnings.iter().map(|w| w.0).collect();
    assert_eq!(depths, (3..=report.stats.depth).collect::<Vec<_>>());
    assert!(
        warnings.iter().all(|w| !w.1 && w.2.contains("2pc5.ckpt")),
        "{warnings:?}"
    );
    assert_eq!(warnings.last().map(|w| w.2), Some(last_error.as_str()));
}

#[test]
fn a_full_table_says_its_numbers_and_names_no_flag() {
    for mode in [Mode::Fp64, Mode::Fp32, Mode::Exact] {
        let options = Options {
            mode,
            memory_bytes: 1 << 10,
            threads: 1,
            ..Options::default()
        };
        let report = check(&TwoPhase::new(6).unwrap(), &options);
        let Verdict::Full(full) = &report.verdict else {
            panic!("{mode:?}: not full");
        };
        assert_eq!(full.mode, mode);
        assert_eq!(full.memory_bytes, 1 << 10);
        // Full by level 3: 16 times the table, no estimate.
        assert!(full.filled_in_first_levels(), "{full:?}");
        assert_eq!(full.bytes_needed(), 16 << 10);
        assert_eq!(full.level, report.stats.depth + 1);
        assert_eq!(full.states, report.stats.states);
        let text = full.to_string();
        assert!(!text.contains("--"), "{text}");
        assert!(
            text.contains("1024 bytes") && text.contains("16384 bytes"),
            "{text}"
        );
    }
}

#[test]
fn modes_and_schedules_read_back_their_names() {
    for mode in Mode::ALL {
        assert_eq!(mode.name().parse::<Mode>(), Ok(mode));
        assert_eq!(mode.to_string(), mode.name());
    }
    for schedule in Schedule::ALL {
        assert_eq!(schedule.name().parse::<Schedule>(), Ok(schedule));
        assert_eq!(schedule.to_string(), schedule.name());
    }
    let e = "fp16".parse::<Mode>().unwrap_err();
    assert!(e.contains("fp64, fp32, bitstate, exact"), "{e}");
    let e = "greedy".parse::<Schedule>().unwrap_err();
    assert!(e.contains("chunks, steal"), "{e}");
}
