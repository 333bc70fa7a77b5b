//! The analyses: what a command computes, as library functions with typed results. Playing a
//! game's readings ([`play`]), comparing two readings ([`diff`]), what the sources leave open
//! and how much each open point moves the outcome ([`flags`], one option at a time, and
//! [`global`], the variance over the whole option space). Each plays through the executor
//! ([`crate::exec`]) and returns data; printing is [`crate::present`]'s.

pub mod assess;
pub mod diff;
pub mod error;
pub mod explain;
pub mod finish;
pub mod flags;
pub mod global;
pub mod header;
pub mod ladder;
pub mod limits;
pub mod perfect;
pub mod play;
pub mod replay;
pub mod reproduce;
pub mod solve;

pub use error::{Error, did_you_mean, game_of, interpretation_of};

/// Version of every JSON output of this build.
pub const OUTPUT_SCHEMA_VERSION: u32 = 1;

#[cfg(test)]
mod tests;
