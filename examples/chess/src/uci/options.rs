//! `setoption name <name> [value <value>]`: the engine's UCI options (listed by `uci`). Names
//! are matched without regard to case; a bad value is an error answer and changes nothing.

use crate::text::{parse_bool, parse_in_range, truncate};
use crate::tt::TableConfig;
use crate::uci::{
    Engine, Reply, MAX_CONTEMPT, MAX_HASH_MIB, MAX_MULTIPV, MAX_OVERHEAD_MS, MAX_THREADS,
};
use searchcache::Slots;

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
                check_physical_memory(mib)?;
                self.reconfigure_table(&format!("Hash {mib}"), |c| TableConfig { mib, ..c })
            }
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
                self.finish_search(true);
                self.tt.clear();
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
                    _ => {
                        return Err(format!(
                            "TTSlots must be Bucket or Single, not '{}'",
                            truncate(&value)
                        ))
                    }
                };
                self.reconfigure_table("TTSlots", |c| TableConfig { slots, ..c })
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
            .map_err(|e| format!("{what}: {e}; keeping the old table"))
    }
}

/// Refuses a table larger than the machine's memory. With overcommit the kernel may grant such
/// a mapping lazily, and the first `Clear Hash` would then touch every page of it.
fn check_physical_memory(mib: usize) -> Reply {
    let total_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        });
    match total_kib {
        Some(kib) if mib.saturating_mul(1024) > kib => Err(format!(
            "Hash {mib} MiB exceeds this machine's memory ({} MiB); keeping the old table",
            kib / 1024
        )),
        _ => Ok(()),
    }
}
