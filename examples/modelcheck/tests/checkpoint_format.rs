//! The checkpoint format through the library: a checkpoint of this format resumes to the
//! counts of an uninterrupted run, and one of the older bincode format (a file the checker
//! before the move to postcard wrote) is refused with a message that says it is older.

use modelcheck::models::two_phase::TwoPhase;
use modelcheck::CHECKPOINT_FORMAT_VERSION as FORMAT_VERSION;
use modelcheck::{
    check_with_checkpoints, CheckpointError, Checkpoints, Mismatch, Mode, Options, Verdict,
};
use std::path::PathBuf;
use std::time::Duration;

/// `modelcheck 2pc 3 --threads 1 --exact --checkpoint FILE --checkpoint-every 0 --max-depth 3`
/// with the checker of commit a9a8494 (format version 2, bincode).
fn old_checkpoint() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/2pc3-exact-depth3-format2.mcheckpt")
}

// The fixture is of an older format than this checker's.
const _: () = assert!(FORMAT_VERSION > 2);

fn options() -> Options {
    Options {
        threads: 1,
        mode: Mode::Exact,
        ..Options::default()
    }
}

#[test]
fn a_checkpoint_of_the_older_bincode_format_is_refused_as_older() {
    let path = old_checkpoint();
    let bytes = std::fs::read(&path).expect("the fixture");
    assert_eq!(&bytes[..8], b"mcheckpt");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
    let checkpoints = Checkpoints {
        resume_from: Some(path),
        ..Checkpoints::default()
    };
    let model = TwoPhase::new(3).unwrap();
    match check_with_checkpoints(&model, &options(), &checkpoints) {
        Err(CheckpointError::Unreadable(why)) => {
            assert!(why.contains("version 2 is an older format"), "{why}");
            assert!(
                why.contains(&format!("reads version {FORMAT_VERSION}")),
                "{why}"
            );
        }
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(report) => panic!("resumed: {} states", report.stats.states),
    }
}

#[test]
fn a_checkpoint_of_this_format_resumes_to_the_whole_run_in_every_mode() {
    let model = TwoPhase::new(3).unwrap();
    for mode in [Mode::Fp64, Mode::Fp32, Mode::Bitstate, Mode::Exact] {
        let path = std::env::temp_dir().join(format!(
            "modelcheck-format-{}-{mode:?}.mcheckpt",
            std::process::id()
        ));
        let options = Options {
            mode,
            memory_bytes: 1 << 20,
            ..options()
        };
        let save = Checkpoints {
            save_to: Some(path.clone()),
            every: Duration::ZERO,
            resume_from: None,
        };
        let stopped = Options {
            max_depth: Some(3),
            ..options.clone()
        };
        let first = check_with_checkpoints(&model, &stopped, &save).expect("saved");
        assert!(matches!(first.verdict, Verdict::DepthLimit));
        let bytes = std::fs::read(&path).expect("written");
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            FORMAT_VERSION
        );
        let resume = Checkpoints {
            resume_from: Some(path.clone()),
            ..Checkpoints::default()
        };
        let resumed = check_with_checkpoints(&model, &options, &resume).expect("resumed");
        let whole = check_with_checkpoints(&model, &options, &Checkpoints::default()).unwrap();
        assert_eq!(resumed.stats.resumed_from, Some(3), "{mode:?}");
        assert_eq!(
            (
                resumed.stats.states,
                resumed.stats.transitions,
                resumed.stats.depth
            ),
            (
                whole.stats.states,
                whole.stats.transitions,
                whole.stats.depth
            ),
            "{mode:?}"
        );
        if mode == Mode::Exact {
            assert_eq!((whole.stats.states, whole.stats.transitions), (288, 1_145));
        }
        let _ = std::fs::remove_file(&path);
    }
}

/// A checkpoint resumed with other options is refused in numbers, naming no flag: the binary
/// says which of its flags differs.
#[test]
fn a_mismatch_says_what_differs_in_numbers() {
    let model = TwoPhase::new(3).unwrap();
    let path = std::env::temp_dir().join(format!(
        "modelcheck-mismatch-{}.mcheckpt",
        std::process::id()
    ));
    let saved = Options {
        memory_bytes: 1 << 20,
        ..options()
    };
    let save = Checkpoints {
        save_to: Some(path.clone()),
        every: Duration::ZERO,
        ..Checkpoints::default()
    };
    check_with_checkpoints(&model, &saved, &save).expect("a checkpointed run");
    let resume = Checkpoints {
        resume_from: Some(path.clone()),
        ..Checkpoints::default()
    };
    let wanted = [
        (
            Options {
                memory_bytes: 2 << 20,
                ..options()
            },
            Mismatch::Memory {
                saved: 1 << 20,
                wanted: 2 << 20,
            },
        ),
        (
            Options {
                deadlock: false,
                ..saved.clone()
            },
            Mismatch::Deadlock {
                saved: true,
                wanted: false,
            },
        ),
        (
            Options {
                mode: Mode::Fp64,
                ..saved.clone()
            },
            Mismatch::Mode {
                saved: "exact".into(),
                wanted: Mode::Fp64,
            },
        ),
    ];
    for (options, expected) in wanted {
        match check_with_checkpoints(&model, &options, &resume) {
            Err(error @ CheckpointError::Mismatch { .. }) => {
                let CheckpointError::Mismatch { why, .. } = &error else {
                    unreachable!()
                };
                assert_eq!(*why, expected);
                assert!(!error.to_string().contains("--"), "{error}");
            }
            Err(other) => panic!("refused for another reason: {other}"),
            Ok(report) => panic!("resumed: {} states", report.stats.states),
        }
    }
    let _ = std::fs::remove_file(&path);
}
