//! The entry point, [`check`], and what a run reports: [`Report`], with [`Saved`] when the run
//! wrote checkpoints.

use crate::bfs::{self, Options, Outcome, Stats, Verdict};
use crate::model::Model;
use crate::sometimes::{SometimesReport, SometimesVerdict};
use crate::visited::{Storage, Visited};
use std::path::PathBuf;

/// What a run found, and what its visited storage can say about the states it may have missed.
pub struct Report<M: Model> {
    /// What was counted.
    pub stats: Stats,
    /// How the search ended.
    pub verdict: Verdict<M>,
    /// The visited storage after the run; `None` when it could not be built (then `verdict` is
    /// [`Verdict::Error`] and nothing was searched).
    pub storage: Option<Storage>,
    /// What the checkpoints came to, when the run saved them
    /// ([`check_with_checkpoints`](crate::check_with_checkpoints) with `save_to`).
    pub checkpoints: Option<Saved>,
    /// The model's `sometimes` properties, in its order, each with its verdict; empty for a
    /// run that checks none (a distributed run, a run that could not start).
    pub sometimes: Vec<SometimesReport<M>>,
}

impl<M: Model> Report<M> {
    /// Whether a `sometimes` property is vacuous or its example could not be replayed: a
    /// failure of the run, as a counterexample is.
    pub fn sometimes_failed(&self) -> bool {
        self.sometimes.iter().any(|s| {
            matches!(
                s.verdict,
                SometimesVerdict::Vacuous | SometimesVerdict::Error(_)
            )
        })
    }
}

/// `sometimes` verdicts of a search whose storage is `partial`: none is vacuous, since the
/// storage may have missed the states that satisfy it.
pub(crate) fn settle<M: Model>(
    mut sometimes: Vec<SometimesReport<M>>,
    partial: bool,
) -> Vec<SometimesReport<M>> {
    if partial {
        for s in &mut sometimes {
            if matches!(s.verdict, SometimesVerdict::Vacuous) {
                s.verdict = SometimesVerdict::NotFound;
            }
        }
    }
    sometimes
}

/// What the checkpoints of a run came to.
#[derive(Clone, Debug, Default)]
pub struct Saved {
    /// Where they were written.
    pub path: Option<PathBuf>,
    /// Checkpoints written.
    pub written: u32,
    /// The deepest level saved, if any checkpoint was written.
    pub depth: Option<usize>,
    /// The last error writing one (the previous checkpoint, if any, is left whole).
    pub last_error: Option<String>,
}

/// Checks `model` as `options` say: a breadth-first search of every reachable state that stops
/// at the first (shallowest) invariant violation or deadlock, a full visited storage,
/// `options.max_depth`, or `options.stop`. A counterexample in the report has been replayed
/// against the model. [`Storage::partial`] says whether "no error" covers every reachable
/// state.
pub fn check<M: Model>(model: &M, options: &Options) -> Report<M> {
    let storage = (options.memory_bytes, options.grow);
    let visited = match Visited::<M::State>::for_run(options.mode, storage, options.hashes) {
        Ok(visited) => visited,
        Err(e) => {
            return Report {
                stats: Stats::default(),
                verdict: Verdict::Error(e),
                storage: None,
                checkpoints: None,
                sometimes: Vec::new(),
            }
        }
    };
    let Outcome {
        stats,
        verdict,
        sometimes,
    } = bfs::search(model, &visited, options, None, None);
    let storage = visited.storage(stats.transitions);
    Report {
        stats,
        verdict,
        sometimes: settle(sometimes, storage.partial()),
        storage: Some(storage),
        checkpoints: None,
    }
}
