//! `setoption name <name> [value <value>]`: the engine's UCI options (listed by `uci`). Names
//! are matched without regard to case; a bad value is an error answer and changes nothing.

use crate::memory::table_budget;
use crate::text::{parse_bool, parse_in_range, truncate};
use crate::tt::{TableConfig, TtLayout};
use crate::uci::{
    Engine, Reply, MAX_CONTEMPT, MAX_EVAL_HASH_MIB, MAX_HASH_MIB, MAX_MULTIPV, MAX_OVERHEAD_MS,
    MAX_THREADS,
};
use searchcache::Slots;
use std::sync::Arc;

impl Engine {
    pub(crate) fn set_option(&mut self, args: &[&str]) -> Reply {
        let value_at = args.iter().position(|&a| a.eq_ignore_ascii_case("value"));
        let (name, value) = match (args.first(), value_at) {
            (Some(n), Some(v)) if n.eq_ignore_ascii_case("name") => {
                (args[1..v].join(" "), args[v + 1..].join(" "))
            }
            (Some(n), None) if n.eq_ignore_ascii_case("name") => {
                (args[1..].join(" "), String::new())
            }
            _ => return Err("expected 'setoption name <name> [value <value>]'".into()),
        };
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "hash" => {
                let mib = parse_in_range(&value, 0, MAX_HASH_MIB, "Hash")?;
                self.check_memory(mib)?;
                self.reconfigure_table(&format!("Hash {mib}"), |c| TableConfig { mib, ..c })
            }
            "evalhash" => self.set_eval_hash(&value),
            "threads" => {
                self.finish_search(true);
                self.threads = parse_in_range(&value, 1, MAX_THREADS, "Threads")?;
                Ok(())
            }
            "multipv" => {
                self.finish_search(true);
                self.multipv = parse_in_range(&value, 1, MAX_MULTIPV, "MultiPV")?;
                Ok(())
            }
            "uci_chess960" => {
                self.finish_search(true);
                self.chess960 = parse_bool(&value, "UCI_Chess960")?;
                Ok(())
            }
            "contempt" => {
                self.finish_search(true);
                self.contempt = parse_in_range(&value, -MAX_CONTEMPT, MAX_CONTEMPT, "Contempt")?;
                Ok(())
            }
            "clear hash" => {
                self.clear_table();
                self.evals.clear();
                Ok(())
            }
            // The GUI says whether it will send `go ponder`; either way there is nothing to set.
            "ponder" => parse_bool(&value, "Ponder").map(|_| ()),
            "move overhead" => {
                self.overhead_ms =
                    parse_in_range(&value, 0, MAX_OVERHEAD_MS as usize, "Move Overhead")? as u64;
                Ok(())
            }
            "ttslots" => {
                let slots = match value.to_ascii_lowercase().as_str() {
                    "bucket" => Slots::Bucket,
                    "single" => Slots::Single,
                    "half" => Slots::Half,
                    _ => {
                        return Err(format!(
                            "TTSlots must be Bucket, Half or Single, not '{}'",
                            truncate(&value)
                        ))
                    }
                };
                self.reconfigure_table("TTSlots", |c| TableConfig { slots, ..c })
            }
            "ttlayout" => {
                let layout = match value.to_ascii_lowercase().as_str() {
                    "wide" => TtLayout::Wide,
                    "dense" => TtLayout::Dense,
                    "cluster" => TtLayout::Cluster,
                    _ => {
                        return Err(format!(
                            "TTLayout must be Wide, Dense or Cluster, not '{}'",
                            truncate(&value)
                        ))
                    }
                };
                self.reconfigure_table("TTLayout", |c| TableConfig { layout, ..c })
            }
            "ttrefresh" => {
                let on = parse_bool(&value, "TTRefresh")?;
                self.table_mut()?.refresh = on;
                Ok(())
            }
            "ttprefetch" => {
                let on = parse_bool(&value, "TTPrefetch")?;
                self.table_mut()?.prefetch = on;
                Ok(())
            }
            "hugepages" => {
                let huge_pages = parse_bool(&value, "HugePages")?;
                self.reconfigure_table("HugePages", |c| TableConfig { huge_pages, ..c })
            }
            _ => Err(format!("unknown option '{}'", truncate(&name))),
        }
    }
}

impl Engine {
    /// Rebuilds the table with `change` applied to its configuration; on failure the old table
    /// stays and the error names `what`.
    fn reconfigure_table(
        &mut self,
        what: &str,
        change: impl FnOnce(TableConfig) -> TableConfig,
    ) -> Reply {
        let table = self.table_mut()?;
        let config = change(table.config());
        table
            .reconfigure(config)
            .map_err(|e| format!("{what}: {e}; keeping the old table"))?;
        self.prepare_table(false);
        Ok(())
    }

    /// `EvalHash`: the evaluation cache's size between searches; on failure the old cache stays.
    fn set_eval_hash(&mut self, value: &str) -> Reply {
        let mib = parse_in_range(value, 0, MAX_EVAL_HASH_MIB, "EvalHash")?;
        self.finish_search(true);
        Arc::get_mut(&mut self.evals)
            .ok_or("the evaluation cache is still in use")?
            .resize(mib)
            .map_err(|e| format!("EvalHash {mib}: {e}; keeping the old cache"))
    }

    /// Refuses a table larger than the process may use ([`table_budget`]: available memory and
    /// cgroup limits). With overcommit the kernel would grant such a mapping lazily, and
    /// committing its pages would then end in the OOM killer rather than an error.
    fn check_memory(&self, mib: usize) -> Reply {
        let current = (self.tt.config().mib as u64) << 20;
        let Some(budget) = table_budget(&(self.memory)(), current) else {
            return Ok(());
        };
        if (mib as u64).saturating_mul(1 << 20) > budget {
            return Err(format!(
                "Hash {mib} MiB exceeds the memory this process may use ({} MiB: available \
                 memory and cgroup limits); keeping the old table",
                budget >> 20
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::memory::MemoryTexts;
    use crate::tt::{Bound, TtEntry};
    use crate::uci::Engine;

    /// An engine whose process may use 512 MiB by MemAvailable, or 256 MiB by a cgroup limit.
    fn engine(memory: fn() -> MemoryTexts) -> Engine {
        let mut engine = Engine::new().unwrap();
        engine.memory = memory;
        engine
    }

    fn available_512_mib() -> MemoryTexts {
        MemoryTexts {
            meminfo: Some("MemTotal: 25165824 kB\nMemAvailable: 524288 kB\n".into()),
            cgroup_limits: vec!["max".into()],
        }
    }

    fn cgroup_256_mib() -> MemoryTexts {
        MemoryTexts {
            meminfo: Some("MemTotal: 25165824 kB\nMemAvailable: 20971520 kB\n".into()),
            cgroup_limits: vec!["9223372036854771712".into(), "268435456\n".into()],
        }
    }

    fn set_hash(engine: &mut Engine, mib: usize) -> Result<(), String> {
        engine.set_option(&["name", "Hash", "value", &mib.to_string()])
    }

    const ENTRY: TtEntry = TtEntry {
        mv: None,
        score: 17,
        eval: 3,
        depth: 9,
        bound: Bound::Exact,
    };

    #[test]
    fn a_hash_above_what_the_process_may_use_is_refused_and_the_old_table_kept() {
        // (512 + 16 MiB of the current table) · 15/16 = 495 MiB; 256 · 15/16 = 240 MiB.
        for (memory, refused, accepted) in [
            (available_512_mib as fn() -> MemoryTexts, 496, 495),
            (cgroup_256_mib, 241, 240),
        ] {
            let mut engine = engine(memory);
            engine.tt.store(42, ENTRY);
            let refusal = set_hash(&mut engine, refused).unwrap_err();
            assert!(refusal.contains("keeping the old table"), "{refusal}");
            assert_eq!(engine.tt.config().mib, 16, "the old table is kept…");
            assert_eq!(engine.tt.probe(42), Some(ENTRY), "…with its entries");
            assert_eq!(set_hash(&mut engine, accepted), Ok(()));
            assert_eq!(engine.tt.config().mib, accepted);
        }
    }

    #[test]
    fn isready_is_answered_while_a_large_table_is_prepared() {
        let mut engine = engine(MemoryTexts::default);
        assert!(engine.handle("setoption name Hash value 512"));
        // The UCI thread is back, free to answer `isready`, while a thread of its own commits
        // the table's pages (512 MiB take a tenth of a second at the very least).
        assert!(engine.is_preparing_table());
        assert!(engine.handle("isready"));
        assert!(engine.handle("ucinewgame"));
        assert!(engine.is_preparing_table());
        // A change of the table waits for the preparation.
        assert_eq!(set_hash(&mut engine, 16), Ok(()));
        assert!(!engine.is_preparing_table());
        assert_eq!(engine.tt.config().mib, 16);
    }
}
