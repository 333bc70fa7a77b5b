//! ludotrace: a corpus and toolkit for traditional board games as their historical sources
//! describe them. See ARCHITECTURE.md for the code map.

pub mod agents;
pub mod analysis;
pub mod bind;
pub mod cli;
pub mod collate;
pub mod corpus;
pub mod exec;
pub mod family;
pub mod games;
#[cfg(feature = "kernels")]
pub mod kernels;
pub mod ludii;
pub mod present;
pub mod registry;
pub mod rng;
pub mod sensitivity;
pub mod sim;
pub mod solve;
pub mod stats;
