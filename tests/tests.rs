//! ludotrace's integration tests: one binary, one module per feature.

/// Shared helpers: the binary, temporary corpora.
mod util;

/// Every class of bad corpus input, from data-driven fixtures.
mod bad_input;
/// The commands as a user runs them.
mod cli;
/// The built-in corpus: clean, witnessed, complete for the games it has.
mod corpus_content;
