//! The corpus.
pub mod raw;
