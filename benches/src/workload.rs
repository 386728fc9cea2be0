//! The operation mixes: this crate's own (probe-only, probe-heavy, store-heavy) and
//! conc-map-bench's (read-heavy, exchange, rapid-grow), adapted to a lossy cache.
//!
//! An exact map reads, inserts, removes and updates. `SearchCache` has no remove: for it every
//! write (insert, update or remove) is a `store`, which does the same memory work (find the
//! bucket, write an entry). Hit rates are reported next to throughput because a lossy cache and
//! an exact map answer the same read differently.

use std::fmt;

/// One operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Look a key up (a probe).
    Read,
    /// Insert a key (a store).
    Insert,
    /// Remove a key (a store for the cache, which cannot remove).
    Remove,
    /// Overwrite a key's value (a store).
    Update,
}

/// What the keys of a workload are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// Uniform over a universe the size of the cache's capacity, inserted before the run.
    Universe,
    /// conc-map-bench's rapid grow: the structure starts empty, inserts take fresh keys, the
    /// other operations pick one of the keys this thread inserted so far.
    Fresh,
}

/// A named mix of operations, in percent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    /// Short name, as on the command line.
    pub name: &'static str,
    /// Percent of reads, inserts, removes, updates (they sum to 100).
    pub mix: [u8; 4],
    /// Where keys come from.
    pub keys: Keys,
}

/// Every workload, in the order the matrix runs them (rapid-grow last: it empties the table).
pub const ALL: [Workload; 6] = [
    Workload {
        name: "probe-only",
        mix: [100, 0, 0, 0],
        keys: Keys::Universe,
    },
    Workload {
        name: "probe-heavy",
        mix: [90, 10, 0, 0],
        keys: Keys::Universe,
    },
    Workload {
        name: "read-heavy",
        mix: [98, 1, 1, 0],
        keys: Keys::Universe,
    },
    Workload {
        name: "store-heavy",
        mix: [50, 50, 0, 0],
        keys: Keys::Universe,
    },
    Workload {
        name: "exchange",
        mix: [10, 40, 40, 10],
        keys: Keys::Universe,
    },
    Workload {
        name: "rapid-grow",
        mix: [5, 80, 5, 10],
        keys: Keys::Fresh,
    },
];

impl Workload {
    /// The workload called `name`.
    pub fn named(name: &str) -> Option<Workload> {
        ALL.iter().copied().find(|w| w.name == name)
    }

    /// A table of 100 operations in the mix's proportions, indexed by a random percent.
    pub fn op_table(&self) -> [Op; 100] {
        let mut table = [Op::Read; 100];
        let ops = [Op::Read, Op::Insert, Op::Remove, Op::Update];
        let mut at = 0;
        for (op, &percent) in ops.iter().zip(&self.mix) {
            for slot in &mut table[at..at + percent as usize] {
                *slot = *op;
            }
            at += percent as usize;
        }
        assert_eq!(at, 100, "{}: the mix must sum to 100", self.name);
        table
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, i, d, u] = self.mix;
        write!(
            f,
            "{} ({r}% read, {i}% insert, {d}% remove, {u}% update)",
            self.name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_the_mix() {
        for w in ALL {
            let table = w.op_table();
            let count = |op| table.iter().filter(|&&o| o == op).count() as u8;
            assert_eq!(
                [
                    count(Op::Read),
                    count(Op::Insert),
                    count(Op::Remove),
                    count(Op::Update)
                ],
                w.mix
            );
        }
    }
}
