//! How one liveness property's product graph is searched: by the index graph (a parallel
//! breadth-first search that records the graph, then components on indices), on the fly (a
//! sequential depth-first search that keeps one index per state), or the first when it fits.

use std::fmt;
use std::str::FromStr;

/// The algorithm of a liveness check ([`crate::Options::liveness_search`]). Every choice gives
/// the same verdicts; they differ in threads and memory (the README's liveness section). The
/// default is `Auto`: the index graph, faster on 1 thread and on 2 where both were measured
/// (BENCHMARKS.md), unless its memory cap sends the search on the fly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LivenessSearch {
    /// The index graph when it fits its memory cap, else on the fly (the default).
    #[default]
    Auto,
    /// Always the index graph: phase 1 on all of the property's threads; a graph over its cap
    /// is an error of that property, not a fallback.
    IndexGraph,
    /// Always the on-the-fly search: one thread per property, one index per product state.
    OnTheFly,
}

impl LivenessSearch {
    /// Every choice, in the order of [`LivenessSearch::NAMES`].
    pub const ALL: [LivenessSearch; 3] = [
        LivenessSearch::Auto,
        LivenessSearch::IndexGraph,
        LivenessSearch::OnTheFly,
    ];
    /// Their names, as [`LivenessSearch::name`] gives them and [`FromStr`] reads them.
    pub const NAMES: [&'static str; 3] = ["auto", "index-graph", "on-the-fly"];

    /// The choice's name: `auto`, `index-graph` or `on-the-fly`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for LivenessSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for LivenessSearch {
    type Err = String;

    /// A choice by its [`name`](LivenessSearch::name); any other text is an error that lists
    /// them.
    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| {
                format!(
                    "no liveness search `{text}` (one of: {})",
                    Self::NAMES.join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_others_are_errors() {
        for search in LivenessSearch::ALL {
            assert_eq!(search.name().parse::<LivenessSearch>(), Ok(search));
        }
        assert!("graph"
            .parse::<LivenessSearch>()
            .unwrap_err()
            .contains("on-the-fly"));
    }
}
