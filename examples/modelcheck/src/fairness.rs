//! Which infinite behaviours count for a liveness property: all of them, or only those that are
//! weakly fair to every process of the model ([`crate::Model::process_of`]).

use std::fmt;
use std::str::FromStr;

/// The most processes a model may declare for fairness: a state's enabled processes are one
/// 64-bit mask.
pub const MAX_PROCESSES: usize = 64;

/// The fairness a liveness check assumes of infinite behaviours. Finite maximal behaviours (to
/// a state without successors) count under both. Strong fairness is not offered yet: it needs
/// a recursive decomposition of each component, where weak fairness needs one test per
/// component.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Fairness {
    /// Weak fairness per process (the default): a behaviour in which some process is enabled
    /// in every state from some point on but never moves again is not a counterexample.
    #[default]
    Weak,
    /// No fairness: every infinite behaviour counts.
    None,
}

impl Fairness {
    /// Every fairness, in the order of [`Fairness::NAMES`].
    pub const ALL: [Fairness; 2] = [Fairness::Weak, Fairness::None];
    /// Their names, as [`Fairness::name`] gives them and [`FromStr`] reads them.
    pub const NAMES: [&'static str; 2] = ["weak", "none"];

    /// The bits of the processes this fairness asks every cycle to serve, of a model with
    /// `processes` of them (at most [`MAX_PROCESSES`]): all of them under weak fairness, none
    /// without fairness.
    pub fn mask(self, processes: usize) -> u64 {
        match (self, processes) {
            (Fairness::None, _) | (_, 0) => 0,
            (Fairness::Weak, MAX_PROCESSES..) => u64::MAX,
            (Fairness::Weak, k) => (1 << k) - 1,
        }
    }

    /// The fairness's name: `weak` or `none`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for Fairness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Fairness {
    type Err = String;

    /// A fairness by its [`name`](Fairness::name); any other text is an error that lists them.
    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| format!("no fairness `{text}` (one of: {})", Self::NAMES.join(", ")))
    }
}
