//! The built-in models, and how the command line names them.

pub mod abd;
pub mod buggy_lock;
mod locks;
pub mod network;
pub mod paxos;
pub mod peterson;
pub mod philosophers;
pub mod puzzle;
mod symmetry;
pub mod tas;
pub mod ticket;
pub mod two_phase;

use crate::model::Model;
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use locks::{
    critical_reachable, mutual_exclusion, no_starvation, MAX_LOCK_PROCESSES, NO_STARVATION,
};
pub use symmetry::permutations_of;

/// A model's command-line name, default size, and what it is: the `--help` text.
pub const CATALOGUE: &[(&str, usize, &str)] = &[
    (
        "2pc",
        3,
        "two-phase commit, N resource managers (1..=15), exactly the TLA+ TwoPhase spec;\n\
         invariant TPConsistent. N=3: 288 states, 1,145 transitions; N=8: 1,745,408 states.",
    ),
    (
        "philosophers",
        5,
        "dining philosophers, N in a ring (2..=32); take left, take right, release.\n\
         Deadlocks when all hold their left fork: found with a shortest trace of N steps.",
    ),
    (
        "ordered-philosophers",
        5,
        "dining philosophers, N in a ring (2..=32), the last taking its right fork first:\n\
         no deadlock, but a philosopher can starve under weak fairness (Eats(pi) fails).",
    ),
    (
        "puzzle",
        3,
        "sliding-tile puzzle on an N x N board (2..=4) from the goal; N=3 is the 8-puzzle:\n\
         181,440 states, 483,840 transitions, depth 31. No invariant, no deadlock.",
    ),
    (
        "peterson",
        2,
        "Peterson's mutual exclusion for N processes (2..=8), the filter lock; invariant\n\
         MutualExclusion holds, no deadlock.",
    ),
    (
        "ticket",
        3,
        "ticket lock (bakery-style take-a-number) for N processes (2..=8), counters mod N+1;\n\
         invariant MutualExclusion holds, no deadlock.",
    ),
    (
        "tas",
        2,
        "test-and-set spinlock for N processes (2..=8): a process spins on test-and-set until\n\
         it wins; MutualExclusion holds, NoStarvation fails (a process can lose every race).",
    ),
    (
        "buggy",
        2,
        "a broken test-then-set lock for N processes (2..=8): two processes both see the\n\
         flag clear and both enter. MutualExclusion is violated after 4 steps.",
    ),
    (
        "paxos",
        2,
        "single-decree Paxos, 3 servers and N clients (1..=8), an unordered lossless network;\n\
         invariant Agreement; a pre-empted proposal waits forever (no deadlock error).\n\
         N=1: 259 states; N=2: 390,021 states, 2,008,484 transitions; N=3: over 12.5 M.",
    ),
    (
        "abd",
        2,
        "the ABD linearizable register, 3 replicas and N clients (1..=8) of one operation\n\
         each (even ones write, odd ones read), majority quorums, reads write back; invariant\n\
         Linearizable. N=1: 264 states; N=2: 156,709 states, 859,881 transitions; N=3: over 4.4 M.",
    ),
];

/// Something to do with a model whose type is only known once the command line is parsed.
pub trait WithModel {
    /// What the visit returns.
    type Output;
    /// Runs with the chosen model. Every built-in model's states are serde types (for
    /// checkpoints, and for states sent between processes).
    fn visit<M: Model>(self, model: M) -> Self::Output
    where
        M::State: Serialize + DeserializeOwned;
}

/// Builds the model `name` of size `n` and hands it to `f`; an unknown name or a size out of
/// range is an error message.
pub fn with_model<F: WithModel>(name: &str, n: usize, f: F) -> Result<F::Output, String> {
    Ok(match name {
        "2pc" => f.visit(two_phase::TwoPhase::new(n)?),
        "philosophers" => f.visit(philosophers::Philosophers::new(n)?),
        "ordered-philosophers" => f.visit(philosophers::Philosophers::ordered(n)?),
        "puzzle" => f.visit(puzzle::Puzzle::new(n)?),
        "peterson" => f.visit(peterson::Peterson::new(n)?),
        "ticket" => f.visit(ticket::Ticket::new(n)?),
        "tas" => f.visit(tas::Tas::new(n)?),
        "buggy" => f.visit(buggy_lock::BuggyLock::new(n)?),
        "paxos" => f.visit(paxos::Paxos::new(n)?),
        "abd" => f.visit(abd::Abd::new(n)?),
        _ => return Err(format!("unknown model `{name}`")),
    })
}
