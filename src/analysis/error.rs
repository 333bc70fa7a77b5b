//! The errors a request can meet, with the message the user sees, and the lookups of a game
//! and a reading by what the user typed (the one lookup of every command).

use crate::corpus::{self, Corpus, Diagnostic, Lookup};

/// Everything that can stop a command, with the message the user sees.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The corpus directory is unusable.
    #[error(transparent)]
    Files(#[from] corpus::files::FilesError),
    /// The corpus directory named by `LUDOTRACE_CORPUS` is unusable.
    #[error(
        "the environment variable LUDOTRACE_CORPUS names a corpus that cannot be used: {0} (unset LUDOTRACE_CORPUS to use the built-in corpus)"
    )]
    EnvFiles(corpus::files::FilesError),
    /// The corpus has problems.
    #[error("the corpus{origin} has {} problem(s), listed above; `ludotrace check` lists them with a summary", problems.len())]
    Corpus {
        /// The problems.
        problems: Vec<Diagnostic>,
        /// Where the corpus came from, when that is easy to forget (` in DIR, named by
        /// LUDOTRACE_CORPUS`), else empty.
        origin: String,
    },
    /// No such point of the register.
    #[error(
        "no point `{id}` in the register{hint}; `ludotrace point` lists them (ids like UB-07, BG-S01, ENC-3.1, G-4)"
    )]
    UnknownPoint {
        /// What was asked for.
        id: String,
        /// A did-you-mean, or empty.
        hint: String,
    },
    /// No such game.
    #[error("unknown game `{id}`{hint}; the games are: {valid}")]
    UnknownGame {
        /// What was asked for.
        id: String,
        /// ` (did you mean …?)` when a game is spelled nearly so, else empty.
        hint: String,
        /// The valid ids.
        valid: String,
    },
    /// A name that begins several games' names.
    #[error("`{id}` could be any of these games: {candidates}; give more of the name")]
    AmbiguousGame {
        /// What was asked for.
        id: String,
        /// The games it could be, with their names.
        candidates: String,
    },
    /// No such interpretation.
    #[error("game `{game}` has no interpretation `{id}`{hint}; its interpretations are: {valid}")]
    UnknownInterpretation {
        /// The game.
        game: String,
        /// What was asked for.
        id: String,
        /// ` (did you mean …?)` when a reading is spelled nearly so, else empty.
        hint: String,
        /// The valid ids.
        valid: String,
    },
    /// No such source id.
    #[error(
        "no source, passage, evidence record, encoding or witness `{id}`; source files are: {valid} (run `ludotrace sources` for every id)"
    )]
    UnknownSource {
        /// What was asked for.
        id: String,
        /// The source file ids.
        valid: String,
    },
    /// Not a passage.
    #[error("`{id}` is not a passage; passages are: {valid}")]
    UnknownPassage {
        /// What was asked for.
        id: String,
        /// The passages.
        valid: String,
    },
    /// A reading cannot be bound to its engine.
    #[error(transparent)]
    Bind(#[from] crate::bind::BindError),
    /// A bad option value.
    #[error("{0}")]
    Usage(String),
    /// A file the user gave that cannot be read as what it should be (its place and what
    /// was expected are in the message).
    #[error("{0}")]
    Input(String),
    /// A `--format` given to a command that does not produce that format.
    #[error("`{command}` does not produce {format} output; {valid}")]
    FormatNotProduced {
        /// The command.
        command: &'static str,
        /// The format asked for.
        format: &'static str,
        /// What it produces instead.
        valid: String,
    },
    /// A trace file that cannot be read or replayed.
    #[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Trace {
        /// The file.
        file: String,
        /// The line, where one is at fault.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// Output failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

impl From<crate::exec::ExecError> for Error {
    fn from(e: crate::exec::ExecError) -> Self {
        Error::Usage(e.0)
    }
}

impl Error {
    /// The process exit code: 2 for usage and input errors.
    pub fn exit_code(&self) -> i32 {
        2
    }
}

/// ` (did you mean `a` or `b`?)`, or nothing when no candidate is near.
pub fn did_you_mean<'a>(near: impl IntoIterator<Item = &'a str>) -> String {
    let near: Vec<String> = near.into_iter().map(|n| format!("`{n}`")).collect();
    if near.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", near.join(" or "))
    }
}

/// A reading of a game by its id, in any case: the one lookup of every command.
pub fn interpretation_of<'g>(
    g: &'g corpus::Game,
    id: &str,
) -> Result<&'g corpus::Interpretation, Error> {
    let near = match g.find_interpretation(id) {
        Lookup::Found(i) => return Ok(i),
        Lookup::NotFound { suggestions } => suggestions,
        Lookup::Ambiguous(_) => Vec::new(),
    };
    Err(Error::UnknownInterpretation {
        game: g.id.clone(),
        id: id.to_owned(),
        hint: did_you_mean(near.iter().map(|i| i.id.as_str())),
        valid: g
            .interpretations
            .iter()
            .map(|i| i.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// A game by its id, name or another name (any case, accents aside) or an unambiguous
/// prefix of one: the one lookup of every command.
pub fn game_of<'c>(corpus: &'c Corpus, id: &str) -> Result<&'c corpus::Game, Error> {
    match corpus.find_game(id) {
        Lookup::Found(g) => Ok(g),
        Lookup::Ambiguous(games) => Err(Error::AmbiguousGame {
            id: id.to_owned(),
            candidates: games
                .iter()
                .map(|g| format!("{} ({})", g.id, g.name))
                .collect::<Vec<_>>()
                .join(", "),
        }),
        Lookup::NotFound { suggestions } => Err(Error::UnknownGame {
            id: id.to_owned(),
            hint: did_you_mean(suggestions.iter().map(|g| g.id.as_str())),
            valid: corpus
                .games
                .iter()
                .map(|g| g.id.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}
