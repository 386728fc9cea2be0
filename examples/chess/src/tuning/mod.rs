//! Texel tuning of the evaluation's weights (`examples/texel.rs` drives it): [`selfplay`] plays
//! the games whose positions are the data, [`params`] lays every weight out in one flat vector,
//! [`features`] records each weight's coefficient in a position, and [`tuner`] fits the weights
//! and writes `src/weights.rs`. The engine itself uses none of this.

pub mod features;
pub mod params;
pub mod selfplay;
pub mod tuner;
