//! ludotrace: a corpus and toolkit for traditional board games as their historical sources
//! describe them. See ARCHITECTURE.md for the code map.

pub mod agents;
pub mod bind;
pub mod charts;
pub mod cite;
pub mod cli;
pub mod collate;
pub mod corpus;
pub mod family;
pub mod flags;
pub mod games;
#[cfg(feature = "kernels")]
pub mod kernels;
pub mod ludii;
pub mod registry;
pub mod rng;
pub mod sensitivity;
pub mod sim;
pub mod stats;
pub mod store;
