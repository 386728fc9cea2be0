//! The hand-written table's pages (`searchcache_bench::pages`): asked for 4 KiB pages, its
//! memory carries the kernel's `nh` flag (`MADV_NOHUGEPAGE`) and gets no huge page; asked for
//! huge pages, it carries `hg` (`MADV_HUGEPAGE`). The flags are the kernel's record of the
//! advice (`VmFlags` in `/proc/self/smaps`), so a dropped call fails this in every THP mode;
//! how many huge pages the kernel then grants is printed, not asserted (a fragmented machine
//! may grant none, as the crate's own test allows; `dense` prints the count after every fill).
//! One test in this file, so that no other test's memory moves the process's counts.

use searchcache::Pack64;
use searchcache_bench::handwritten::Stockfish10;
use searchcache_bench::memory::huge_page_bytes;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Depth(u8);

impl Pack64 for Depth {
    const BITS: u32 = 8;
    fn pack(self) -> u64 {
        self.0.into()
    }
    fn unpack(bits: u64) -> Self {
        Depth(bits as u8)
    }
}

/// Bytes of this process's mappings whose `VmFlags` include `flag` (`/proc/self/smaps`).
fn flagged_bytes(flag: &str) -> usize {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut size_kib = 0;
    let mut total = 0;
    for line in smaps.lines() {
        if let Some(rest) = line.strip_prefix("Size:") {
            size_kib = rest
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<usize>()
                .unwrap();
        } else if let Some(flags) = line.strip_prefix("VmFlags:") {
            if flags.split_whitespace().any(|f| f == flag) {
                total += size_kib << 10;
            }
        }
    }
    total
}

#[test]
fn each_table_carries_its_advice_and_works() {
    const BYTES: usize = 32 << 20;
    // Every advised page is whole and inside the table, so all but its two edge pages count.
    const ADVISED_AT_LEAST: usize = BYTES - 2 * 4096;
    let linux = cfg!(target_os = "linux");
    let (nh, hg, huge_before) = if linux {
        (flagged_bytes("nh"), flagged_bytes("hg"), huge_page_bytes())
    } else {
        (0, 0, None)
    };
    let small = Stockfish10::<Depth>::new(BYTES, false).unwrap();
    if linux {
        assert!(
            flagged_bytes("nh") >= nh + ADVISED_AT_LEAST,
            "no MADV_NOHUGEPAGE"
        );
        assert_eq!(
            huge_page_bytes(),
            huge_before,
            "the 4 KiB table got huge pages"
        );
    }
    let huge = Stockfish10::<Depth>::new(BYTES, true).unwrap();
    if linux {
        assert!(
            flagged_bytes("hg") >= hg + ADVISED_AT_LEAST,
            "no MADV_HUGEPAGE"
        );
        let granted = huge_page_bytes().unwrap() - huge_before.unwrap();
        eprintln!("32 MiB hand-written table, MADV_HUGEPAGE: {granted} bytes on huge pages");
    }
    for table in [&small, &huge] {
        assert_eq!(table.capacity(), 3 * (BYTES / 32));
        table.store(0xDEAD_BEEF, Depth(7));
        assert_eq!(table.probe(0xDEAD_BEEF), Some(Depth(7)));
    }
}
