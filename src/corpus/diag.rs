//! Diagnostics: problems found in corpus files, each with a place and a stable code.
//!
//! Loading never stops at the first problem: every check runs and reports into a
//! [`Diagnostics`] list, so `ludotrace check` can show an editor everything at once.

use std::fmt;

use serde::Serialize;

/// Where in which file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
pub struct Place {
    /// Path relative to the corpus root (`rulesets/um-el-bagara.yaml`).
    pub file: String,
    /// 1-based line; 0 when the problem concerns the whole file.
    pub line: usize,
    /// 1-based column; 0 when the problem concerns the whole file.
    pub column: usize,
}

impl Place {
    /// A place in a file.
    pub fn new(file: &str, line: usize, column: usize) -> Self {
        Place {
            file: file.to_owned(),
            line,
            column,
        }
    }

    /// The file as a whole.
    pub fn file(file: &str) -> Self {
        Place::new(file, 0, 0)
    }

    /// The place of a spanned YAML value.
    pub fn at(file: &str, loc: &serde_saphyr::Location) -> Self {
        Place::new(file, loc.line() as usize, loc.column() as usize)
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        }
    }
}

/// One problem.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Diagnostic {
    /// Where it is.
    #[serde(flatten)]
    pub place: Place,
    /// Stable code (see ARCHITECTURE.md, "Diagnostic codes").
    pub code: &'static str,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error[{}]: {}", self.place, self.code, self.message)
    }
}

/// A list of diagnostics, filled in by every check.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Records a problem.
    pub fn push(&mut self, place: Place, code: &'static str, message: impl Into<String>) {
        self.list.push(Diagnostic {
            place,
            code,
            message: message.into(),
        });
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The problems in file, line and column order (stable for tests and diffs).
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.list
            .sort_by(|a, b| a.place.cmp(&b.place).then(a.code.cmp(b.code)));
        self.list
    }
}
