//! The table-operation recorder (cargo feature `trace`), in a process of its own: once started it
//! records every operation of the process.
#![cfg(feature = "trace")]

use chess::trace::{drain, record, start, Op};

/// Nothing is recorded before `start`; after it, every operation, in order, 10 bytes each.
#[test]
fn records_only_once_started() {
    record(Op::Probe, 1, 0);
    let mut bytes = Vec::new();
    assert_eq!(drain(&mut bytes).unwrap(), 0);
    start();
    record(Op::Store, 0x0102, -3);
    record(Op::Clear, 0, 0);
    assert_eq!(drain(&mut bytes).unwrap(), 2);
    assert_eq!(bytes.len(), 20);
    assert_eq!(&bytes[..4], &[1, (-3i8) as u8, 2, 1]);
    assert_eq!(bytes[10], 3);
}
