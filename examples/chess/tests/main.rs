//! The chess package's integration tests in one binary, each file of this folder a module
//! (`engine` drives the built binary for the UCI tests): one link instead of thirteen, for
//! CI's time. One file's tests: `cargo test --release -p chess --test chess_tests FILE::`.

mod engine;

mod chess960;
mod cli;
mod clock;
mod draws;
mod evalcache;
mod gui;
mod info;
mod mate;
mod movetime;
mod perft;
mod trace;
mod tt;
mod uci;
