//! Runs the unit tests inside the chess engine's time management (`examples/chess/time.rs`):
//! example targets' own `#[test]`s are not run by `cargo test`, integration tests are.

#[allow(dead_code)]
#[path = "../examples/chess/time.rs"]
mod time;
