//! The corpus: sources and rulesets, parsed, checked and typed.
//!
//! `raw` holds the YAML formats as written; `load` parses and validates them into the types of
//! `model`, reporting every problem as a [`diag::Diagnostic`] with file, line and column.
//! Nothing outside this module sees a raw type.

mod csl;
pub mod diag;
pub mod files;
pub mod load;
pub mod model;
pub mod provenance;
mod raw;
pub mod text;

pub use diag::{Diagnostic, Place};
pub use files::{CorpusFiles, Origin};
pub use load::{Loaded, load};
pub use model::*;

/// The JSON Schemas of the published corpus formats: a source file, a ruleset and a file
/// of the register of open points.
pub fn schemas() -> [(&'static str, schemars::Schema); 3] {
    [
        ("source", schemars::schema_for!(raw::SourceFile)),
        ("ruleset", schemars::schema_for!(raw::RulesetFile)),
        ("register", schemars::schema_for!(raw::RegisterFile)),
    ]
}
