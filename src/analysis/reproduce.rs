//! The one builder of reproduce lines: the command, with every option that decides a result
//! spelled out, that prints the same numbers again. Every word that comes from the user or
//! the corpus (a game or reading id, a directory, an override) is quoted for a POSIX shell by
//! `shell-words`, so a line pasted into a shell runs as printed.

use std::path::Path;

use crate::agents::Lineup;

/// A command line under construction: `ludotrace [--corpus DIR] COMMAND …`.
#[derive(Debug, Clone)]
pub struct Reproduce {
    words: Vec<String>,
}

impl Reproduce {
    /// `ludotrace`, with `--corpus DIR` when the command read a corpus directory (the
    /// built-in corpus needs none), then the subcommand.
    pub fn new(command: &str, corpus: Option<&Path>) -> Self {
        let mut r = Reproduce {
            words: vec!["ludotrace".to_owned()],
        };
        if let Some(dir) = corpus {
            r.words.push("--corpus".to_owned());
            r.words.push(quote(&dir.display().to_string()));
        }
        r.words.push(command.to_owned());
        r
    }

    /// A positional word (an id), quoted where the shell needs it.
    pub fn word(&mut self, word: &str) -> &mut Self {
        self.words.push(quote(word));
        self
    }

    /// An option and its value, the value quoted where the shell needs it.
    pub fn option(&mut self, flag: &str, value: impl std::fmt::Display) -> &mut Self {
        self.words.push(flag.to_owned());
        self.words.push(quote(&value.to_string()));
        self
    }

    /// An option without a value.
    pub fn switch(&mut self, flag: &str) -> &mut Self {
        self.words.push(flag.to_owned());
        self
    }

    /// `--max-plies`, and `--max-quiet` where one is set.
    pub fn limits(&mut self, max_plies: u32, max_quiet: u32) -> &mut Self {
        self.option("--max-plies", max_plies);
        if max_quiet > 0 {
            self.option("--max-quiet", max_quiet);
        }
        self
    }

    /// `--agents` and `--swap`, where they differ from random play.
    pub fn lineup(&mut self, lineup: &Lineup) -> &mut Self {
        if !lineup.is_random() || lineup.agents().len() > 1 {
            self.option("--agents", lineup);
        }
        if lineup.swap() {
            self.switch("--swap");
        }
        self
    }

    /// The line.
    pub fn line(&self) -> String {
        self.words.join(" ")
    }
}

/// Quotes a word for a POSIX shell where it needs it.
pub fn quote(word: &str) -> String {
    shell_words::quote(word).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_where_the_shell_needs_it() {
        let mut r = Reproduce::new("run", Some(Path::new("my corpus")));
        r.word("seega")
            .option("-i", "ludii-1.0.8")
            .option("--set", "capture_counts=[2]")
            .switch("--each-option");
        assert_eq!(
            r.line(),
            "ludotrace --corpus 'my corpus' run seega -i ludii-1.0.8 --set 'capture_counts=[2]' --each-option"
        );
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn random_play_adds_no_agents() {
        let mut r = Reproduce::new("diff", None);
        r.lineup(&Lineup::random());
        assert_eq!(r.line(), "ludotrace diff");
        let mut r = Reproduce::new("diff", None);
        r.lineup(&Lineup::parse("mcts:100,random", true).unwrap());
        assert_eq!(r.line(), "ludotrace diff --agents mcts:100,random --swap");
    }
}
