//! How much memory the engine may give its table: the least of what the kernel says is
//! available (`MemAvailable`, plus what the current table already holds, since a new `Hash`
//! replaces it) and the memory limit of every cgroup the process is in (v2 `memory.max`, v1
//! `memory.limit_in_bytes`, up to the hierarchy's root). A container sees the host's
//! `MemTotal`: a table sized by it would be killed by the cgroup's OOM killer instead of refused.
//!
//! An estimate: other processes may take memory afterwards, and page cache counts as available.
//! The parsing is separate from the reading, so tests can give any texts.

use std::path::{Path, PathBuf};

/// A table may take at most this share of the usable memory (1/16 is kept for the engine's
/// threads, its stacks and everything else in the process).
const TABLE_SHARE_NUM: u64 = 15;
const TABLE_SHARE_DEN: u64 = 16;
/// A cgroup limit at or above this is "no limit" (v1 writes 2^63 rounded down to a page).
const UNLIMITED: u64 = 1 << 62;

/// The texts the limit is read from: `/proc/meminfo` and each cgroup limit file found.
#[derive(Clone, Debug, Default)]
pub struct MemoryTexts {
    /// `/proc/meminfo`, if readable.
    pub meminfo: Option<String>,
    /// The contents of every `memory.max` (v2) and `memory.limit_in_bytes` (v1) of the
    /// process's cgroups and their ancestors (`max` or a number of bytes).
    pub cgroup_limits: Vec<String>,
}

impl MemoryTexts {
    /// Reads this process's texts (Linux; elsewhere nothing is found and nothing is refused).
    pub fn read() -> Self {
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let cgroup_limits = limit_files(&own)
            .iter()
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .collect();
        MemoryTexts {
            meminfo: std::fs::read_to_string("/proc/meminfo").ok(),
            cgroup_limits,
        }
    }
}

/// The cgroup limit files to read, from `/proc/self/cgroup`'s text: each controller's path and
/// its ancestors under `/sys/fs/cgroup` (v2: the `0::` line; v1: the `memory` controller's
/// mount), and the mount roots themselves (a container's own cgroup is usually mounted there).
fn limit_files(proc_self_cgroup: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut add_chain = |mount: &Path, relative: &str, file: &str| {
        let mut dir = mount.join(relative.trim_start_matches('/'));
        loop {
            files.push(dir.join(file));
            if dir == mount || !dir.pop() {
                break;
            }
        }
    };
    let v2 = Path::new("/sys/fs/cgroup");
    let v1 = Path::new("/sys/fs/cgroup/memory");
    add_chain(v2, "", "memory.max");
    add_chain(v1, "", "memory.limit_in_bytes");
    for line in proc_self_cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = match (fields.next(), fields.next(), fields.next()) {
            (Some(id), Some(controllers), Some(path)) => (id, controllers, path),
            _ => continue,
        };
        if controllers.is_empty() {
            add_chain(v2, path, "memory.max");
        } else if controllers.split(',').any(|c| c == "memory") {
            add_chain(v1, path, "memory.limit_in_bytes");
        }
    }
    files.sort();
    files.dedup();
    files
}

/// A `/proc/meminfo` field in bytes (`MemAvailable:   24201944 kB`).
fn meminfo_bytes(meminfo: &str, key: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.split(':').next() == Some(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The bytes a table may take, or `None` when nothing says (no meminfo, no cgroup limit): the
/// least of `MemAvailable` (`MemTotal` on kernels without it) plus `current_table_bytes`, and
/// every cgroup limit below 2^62 (above is "no limit"); of that, 15/16.
pub fn table_budget(texts: &MemoryTexts, current_table_bytes: u64) -> Option<u64> {
    let meminfo = texts.meminfo.as_deref().unwrap_or("");
    let available = meminfo_bytes(meminfo, "MemAvailable")
        .or_else(|| meminfo_bytes(meminfo, "MemTotal"))
        .map(|bytes| bytes.saturating_add(current_table_bytes));
    let cgroup = texts
        .cgroup_limits
        .iter()
        .filter_map(|text| text.trim().parse::<u64>().ok())
        .filter(|&limit| limit < UNLIMITED)
        .min();
    let usable = match (available, cgroup) {
        (Some(a), Some(c)) => a.min(c),
        (a, c) => a.or(c)?,
    };
    Some(usable / TABLE_SHARE_DEN * TABLE_SHARE_NUM)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    fn texts(available_kib: Option<u64>, limits: &[&str]) -> MemoryTexts {
        let mut meminfo = "MemTotal:       24683584 kB\nMemFree:        16757580 kB\n".to_string();
        if let Some(kib) = available_kib {
            meminfo += &format!("MemAvailable:   {kib} kB\n");
        }
        MemoryTexts {
            meminfo: Some(meminfo),
            cgroup_limits: limits.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn the_budget_is_the_least_of_available_memory_and_every_cgroup_limit() {
        // MemAvailable 8 GiB, no cgroup limit ("max", v1's 2^63 − 4096).
        let t = texts(Some(8 << 20), &["max\n", "9223372036854771712\n"]);
        assert_eq!(table_budget(&t, 0), Some(8 * GIB / 16 * 15));
        // The current table is given back when a new one replaces it.
        assert_eq!(table_budget(&t, GIB), Some(9 * GIB / 16 * 15));
        // A container's limit of 2 GiB (v2), under a parent's 4 GiB: 2 GiB.
        let t = texts(Some(8 << 20), &["4294967296\n", "2147483648\n", "max\n"]);
        assert_eq!(table_budget(&t, 0), Some(2 * GIB / 16 * 15));
        // MemTotal (23.5 GiB) when the kernel has no MemAvailable.
        let t = texts(None, &[]);
        assert_eq!(table_budget(&t, 0), Some(24683584 * 1024 / 16 * 15));
        // Nothing readable: no budget, nothing refused.
        assert_eq!(table_budget(&MemoryTexts::default(), 0), None);
        let only_cgroup = MemoryTexts {
            meminfo: None,
            cgroup_limits: vec!["garbage".into(), "1073741824".into()],
        };
        assert_eq!(table_budget(&only_cgroup, 0), Some(GIB / 16 * 15));
    }

    #[test]
    fn limit_files_cover_both_hierarchies_and_every_ancestor() {
        let files = limit_files("12:memory:/a/b\n5:cpu:/x\n0::/c/d\nnonsense\n");
        for expected in [
            "/sys/fs/cgroup/memory.max",
            "/sys/fs/cgroup/c/memory.max",
            "/sys/fs/cgroup/c/d/memory.max",
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/a/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/a/b/memory.limit_in_bytes",
        ] {
            assert!(
                files.contains(&PathBuf::from(expected)),
                "{expected}: {files:?}"
            );
        }
        assert!(!files.iter().any(|f| f.to_string_lossy().contains("/x")));
        assert_eq!(limit_files("").len(), 2);
    }
}
