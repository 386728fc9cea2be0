//! The hand-written table's pages (`searchcache_bench::pages`): asked for 4 KiB pages, it gets
//! no huge page (a dropped `MADV_NOHUGEPAGE` fails this only where THP is `always`); asked for
//! huge pages, it reports what the kernel granted, not asserted (a fragmented machine may grant
//! none, as the crate's own test allows; `dense` prints the count after every fill). One test
//! in this file, so that no other test's memory moves the process's count.

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

#[test]
fn small_pages_get_no_huge_page_and_both_tables_work() {
    const BYTES: usize = 32 << 20;
    let before = huge_page_bytes();
    let small = Stockfish10::<Depth>::new(BYTES, false);
    let after_small = huge_page_bytes();
    let huge = Stockfish10::<Depth>::new(BYTES, true);
    let after_huge = huge_page_bytes();
    if cfg!(target_os = "linux") {
        assert_eq!(
            after_small, before,
            "MADV_NOHUGEPAGE was ignored: the 4 KiB table got huge pages"
        );
        let granted = after_huge.unwrap() - after_small.unwrap();
        eprintln!("32 MiB hand-written table, MADV_HUGEPAGE: {granted} bytes on huge pages");
    }
    for table in [&small, &huge] {
        assert_eq!(table.capacity(), 3 * (BYTES / 32));
        table.store(0xDEAD_BEEF, Depth(7));
        assert_eq!(table.probe(0xDEAD_BEEF), Some(Depth(7)));
    }
}
