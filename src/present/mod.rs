//! Presentation: every way a result reaches a reader. Printers of the analyses' typed results
//! in table, JSON, Markdown and CSV form ([`out`] buffers and lays out tables), the corpus
//! views (`list`, `show`, `sources`, `collate`, `check`, the register), a reading as a rule
//! book ([`rulebook`]), citations ([`cite`]), figures ([`charts`]), the report that composes
//! analysis results into a citable page ([`report`]), the static site ([`site`]) and the list
//! of published JSON shapes ([`schema`]).
//!
//! **Architecture Invariant:** nothing here decides a number: a printer formats what an
//! analysis returned, and a report or site page composes those results.

pub mod assess;
pub mod charts;
pub mod cite;
pub mod diff;
pub mod explain;
pub mod flags;
pub mod html;
pub mod ladder;
pub mod out;
pub mod register;
pub mod replay;
pub mod report;
pub mod rulebook;
pub mod run;
pub mod schema;
pub mod show;
pub mod site;
pub mod solve;
pub mod sources;
pub mod store;

pub use out::Out;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Human-readable text and tables.
    Table,
    /// JSON with a `schema_version` (see `ludotrace schema`).
    Json,
    /// Markdown.
    Markdown,
    /// Comma-separated values, one row per game (`run`).
    Csv,
    /// A self-contained HTML page (`explain`'s step-through viewer).
    Html,
}
