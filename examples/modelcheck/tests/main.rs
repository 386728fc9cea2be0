//! The library's integration tests in one binary, each file of this folder a module: one link
//! instead of sixteen, for CI's time. One file's tests: `cargo test --release -p modelcheck
//! --test modelcheck_tests FILE::`.

mod actor_models;
mod checkpoint_format;
mod cluster_bounds;
mod coverage;
mod distributed;
mod encoded;
mod growing;
mod hash_and_clone_counts;
mod liveness_graphs;
mod liveness_models;
mod own_model;
mod reporter;
mod sent_filter;
mod simulate;
mod sometimes_symmetry;
mod successors_reusing;
