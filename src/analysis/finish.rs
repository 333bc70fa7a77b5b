//! Whether the players finish a reading, and where they do not, what keeps play going.
//!
//! A reading *finishes* under a lineup when at least [`FINISHES`] of its games end (won,
//! drawn, or scored at an engine's cap): not censored by a limit of the run, not proved never
//! to end. Where it does not, [`Finishing`] says how the other games stopped (at the ply
//! limit, at the quiet limit, in a proved cycle or endless position), how many of those
//! stopped had gone on with nothing taken (the tally's `stalled`), and what in the reading
//! decides whether such a game can end: the family's parameters that decide whether play can
//! go on for ever (`EventKind::ENDLESS_PARAMS`: a repetition rule, a cap, what a blocked
//! player does), each traced to the open point, clause or setting of the reading that sets
//! it, with the open point's other options. `run` prints it beside each reading that does not
//! finish, and `flags` and the reports make it a `does-not-finish` flag.
//!
//! It reads a tally that was played already: it plays nothing itself.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;

use crate::corpus::{Class, Game, Interpretation, ParamOrigin};
use crate::games::{Event, EventKind, Rules};
use crate::registry::{FamilyVisitor, GameFamily};
use crate::sim::Tally;
use crate::stats::{Rate, round, wilson};

/// The share of games that must end for a reading to *finish* under a lineup (issue 37: a
/// reading finishes when `strong` self-play ends at least 95 % of 100 seeded games).
pub const FINISHES: f64 = 0.95;

/// A share with its Wilson 95 % interval, rounded as every published rate is.
fn rate_of(k: u64, n: u64) -> Rate {
    let r = wilson(k, n);
    Rate {
        value: round(r.value, 4),
        lo: round(r.lo, 4),
        hi: round(r.hi, 4),
    }
}

/// Whether a reading finishes under the players of a run, and what keeps its unfinished
/// games going.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Finishing {
    /// Reading id.
    pub reading: String,
    /// Games played.
    pub games: u64,
    /// The share of games that ended (won, drawn, or scored at an engine cap), with its
    /// Wilson 95 % interval.
    pub finished: Rate,
    /// Whether the reading finishes: `finished` at least 0.95.
    pub finishes: bool,
    /// Of the games that ended, those an engine's own cap ended (scored as that engine
    /// scores them): ended by the reading's cap, not by play.
    pub capped: u64,
    /// The games that did not end, by why, in the order met: `ply-limit`, `quiet-limit` and
    /// `search-limit` (censored: stopped by a limit, their outcome unknown), `cycle` and
    /// `endless` (proved never to end).
    pub unfinished: IndexMap<String, u64>,
    /// Of the games a limit of the run stopped, those in which no seat's material had
    /// changed over at least the last half of their plies: play going on with nothing
    /// taken.
    pub stalled: u64,
    /// What in the reading decides whether a game that goes on can end: each open point,
    /// clause or setting that sets one of the family's parameters of that kind.
    pub behind: Vec<Behind>,
}

/// An open point, clause or setting of a reading that decides whether play can go on for ever.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Behind {
    /// `choice` (an open point's option), `clause`, `reading` (the reading's own setting) or
    /// `set` (an override of the run).
    pub from: String,
    /// The choice's, clause's or reading's id, or the parameter set.
    pub id: String,
    /// For a choice: the option the reading takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    /// The family parameters it sets that decide whether play can go on for ever.
    pub params: Vec<String>,
    /// What it rests on in the reading: `grounded`, `borrowed` or `interpolated` (absent for
    /// an override).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    /// Who it rests on: the sources quoted (grounded, borrowed) or who added it
    /// (interpolated).
    pub by: Vec<String>,
    /// For a choice: its other options, with who proposes each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<OtherOption>,
}

/// Another option of an open point behind a reading's unfinished games.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OtherOption {
    /// Option id.
    pub id: String,
    /// Who proposes it.
    pub by: Vec<String>,
    /// Where it was played, switched in alone under the same players and limits (`flags`):
    /// the share of its games that ended, with its Wilson 95 % interval. Absent where not
    /// played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished: Option<Rate>,
}

impl Finishing {
    /// Whether the interval of the finished share lies on one side of 95 %: the verdict
    /// `finishes` would stand with more games.
    pub fn settled(&self) -> bool {
        self.finished.lo >= FINISHES || self.finished.hi < FINISHES
    }

    /// In words, for a reader: how many games ended under `players` (as `ludotrace run`
    /// names them), how the others stopped (at the run's `limits`: `--max-plies`,
    /// `--max-quiet`), whether play had stalled, and what decides whether such a game can
    /// end.
    pub fn words(&self, players: &str, (max_plies, max_quiet): (u32, u32)) -> String {
        let pct = |r: &Rate| {
            (
                format!("{:.1} %", 100.0 * r.value),
                format!("{:.1}–{:.1} %", 100.0 * r.lo, 100.0 * r.hi),
            )
        };
        let (v, ci) = pct(&self.finished);
        let capped = match self.capped {
            0 => String::new(),
            n => format!(" ({n} of them at the engine's cap)"),
        };
        let mut text = format!(
            "With {players} at the seats, {v} of the {} games of `{}` ended [{ci}]{capped}{}",
            self.games,
            self.reading,
            if self.finishes {
                ": it finishes (at least 95 % must end)."
            } else if self.settled() {
                ", fewer than the 95 % a reading needs to finish."
            } else {
                ", below the 95 % a reading needs to finish, though its interval reaches 95 %: \
                 at this number of games that is not settled."
            }
        );
        if self.unfinished.is_empty() {
            return text;
        }
        let how: Vec<String> = self
            .unfinished
            .iter()
            .map(|(why, &n)| match why.as_str() {
                "ply-limit" => {
                    format!(
                        "{n} {} still going at the run's limit of {max_plies} plies",
                        were(n)
                    )
                }
                "quiet-limit" => format!(
                    "{n} {} stopped after {max_quiet} plies with no change of material (the \
                     run's quiet limit)",
                    were(n)
                ),
                "search-limit" => format!(
                    "{n} {} stopped by an engine's search reaching its bound with no cycle found",
                    were(n)
                ),
                "cycle" => format!("{n} {} proved to cycle for ever (a forced cycle)", were(n)),
                "endless" => format!(
                    "{n} {} proved never to end (no position they could reach would end them)",
                    were(n)
                ),
                other => format!("{n} ended as {other}"),
            })
            .collect();
        text.push_str(&format!(" Of the others, {}.", how.join("; ")));
        if self.stalled > 0 {
            text.push_str(&format!(
                " In {} of those stopped by a limit, no seat's material had changed over at \
                 least the last half of the game: play went on with nothing taken. A stopped \
                 game is censored, not endless: nothing proves it could not have ended.",
                self.stalled
            ));
        }
        if !self.behind.is_empty() {
            let each: Vec<String> = self.behind.iter().map(Behind::words).collect();
            text.push_str(&format!(
                " Whether such a game can end rests on {}.",
                each.join("; ")
            ));
        }
        text
    }
}

impl Behind {
    /// In words: where the reading takes it from, what that rests on, and the other options.
    fn words(&self) -> String {
        let rests = match (self.class, self.by.is_empty()) {
            (Some(Class::Interpolated), _) => {
                "interpolated: no source of the reading says it".to_owned()
            }
            (Some(Class::Borrowed), false) => format!("borrowed from {}", self.by.join(", ")),
            (Some(Class::Borrowed), true) => "borrowed".to_owned(),
            (Some(Class::Grounded), false) => format!("grounded in {}", self.by.join(", ")),
            (Some(Class::Grounded), true) => "grounded".to_owned(),
            (None, _) => "set for this run".to_owned(),
        };
        let what = match (self.from.as_str(), &self.option) {
            ("choice", Some(o)) => format!("the open point `{}`, taken as `{o}`", self.id),
            ("clause", _) => format!("the clause `{}`", self.id),
            ("reading", _) => format!("the reading `{}`'s own setting", self.id),
            _ => format!("`--set {}`", self.id),
        };
        let mut out = format!("{what} ({rests})");
        if !self.others.is_empty() {
            let others: Vec<String> = self
                .others
                .iter()
                .map(|o| match &o.finished {
                    Some(r) => format!(
                        "`{}` (switched in alone: {:.1} % of games ended [{:.1}–{:.1} %])",
                        o.id,
                        100.0 * r.value,
                        100.0 * r.lo,
                        100.0 * r.hi
                    ),
                    None => format!("`{}`", o.id),
                })
                .collect();
            out.push_str(&format!(", whose other options are {}", others.join(", ")));
        }
        out
    }
}

/// `was` or `were`, agreeing with a count.
fn were(n: u64) -> &'static str {
    if n == 1 { "was" } else { "were" }
}

/// The family parameters that decide whether a game can go on for ever.
struct EndlessParams;

impl FamilyVisitor for EndlessParams {
    type Output = &'static [&'static str];

    fn visit<F: GameFamily>(self) -> Self::Output {
        <<<F::Rules as Rules>::Event as Event>::Kind as EventKind>::ENDLESS_PARAMS
    }
}

/// Whether `reading` (with the run's `overrides`) finishes, from its tally `t`.
pub fn finishing(
    game: &Game,
    reading: &Interpretation,
    overrides: &serde_json::Map<String, serde_json::Value>,
    t: &Tally,
) -> Finishing {
    let finished = rate_of(t.finished(), t.games);
    let mut unfinished = IndexMap::new();
    for &(why, n) in &t.timeouts_by_reason {
        if n > 0 {
            unfinished.insert(why.to_owned(), n);
        }
    }
    Finishing {
        reading: reading.id.clone(),
        games: t.games,
        finishes: t.games > 0 && (t.finished() as f64) >= FINISHES * t.games as f64,
        finished,
        capped: t.capped,
        unfinished,
        stalled: t.stalled,
        behind: behind(game, reading, overrides),
    }
}

/// The open points, clauses and settings of `reading` that set a parameter deciding whether
/// play can go on for ever, in the family's order of those parameters, each once.
fn behind(
    game: &Game,
    reading: &Interpretation,
    overrides: &serde_json::Map<String, serde_json::Value>,
) -> Vec<Behind> {
    let mut out: Vec<Behind> = Vec::new();
    let prov = &reading.provenance;
    for &param in game.family.visit(EndlessParams) {
        let (from, id, option, classed) = if overrides.contains_key(param) {
            ("set", param.to_owned(), None, None)
        } else {
            let Some(p) = reading.params.iter().find(|p| p.name == param) else {
                continue;
            };
            match &p.origin {
                ParamOrigin::Option { choice, option } => (
                    "choice",
                    choice.clone(),
                    Some(option.clone()),
                    prov.choice(choice),
                ),
                ParamOrigin::Clause(id) => ("clause", id.clone(), None, prov.clause(id)),
                ParamOrigin::Interpretation(id) => {
                    let id = if id.is_empty() { &reading.id } else { id };
                    ("reading", id.clone(), None, prov.setting(param))
                }
                // A default is the absence of an engine behaviour, set by nobody.
                ParamOrigin::Default => continue,
            }
        };
        if let Some(b) = out.iter_mut().find(|b| b.from == from && b.id == id) {
            b.params.push(param.to_owned());
            continue;
        }
        let others = match (from, &option) {
            ("choice", Some(taken)) => game
                .choice(&id)
                .map(|c| {
                    c.options
                        .iter()
                        .filter(|o| o.id != *taken)
                        .map(|o| OtherOption {
                            id: o.id.clone(),
                            by: o.by.clone(),
                            finished: None,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        out.push(Behind {
            from: from.to_owned(),
            id,
            option,
            params: vec![param.to_owned()],
            class: classed.map(|c| c.class),
            by: classed.map_or_else(Vec::new, |c| {
                if c.class == Class::Interpolated {
                    c.by.clone()
                } else {
                    c.sources.clone()
                }
            }),
            others,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;

    fn seega() -> Corpus {
        crate::corpus::load(&crate::corpus::CorpusFiles::embedded())
            .corpus
            .expect("the built-in corpus loads")
    }

    #[test]
    fn seega_davies_rests_its_endless_play_on_the_stall_point_taken_from_nobody() {
        let corpus = seega();
        let game = corpus.game("seega").expect("seega");
        let davies = game.interpretation("davies").expect("davies");
        let b = behind(game, davies, &serde_json::Map::new());
        let stall = b
            .iter()
            .find(|b| b.from == "choice" && b.id == "stall")
            .expect("the stall point decides whether a game can go on for ever");
        assert_eq!(stall.option.as_deref(), Some("none"));
        assert_eq!(stall.class, Some(Class::Interpolated));
        assert!(stall.params.contains(&"stall".to_owned()));
        let others: Vec<&str> = stall.others.iter().map(|o| o.id.as_str()).collect();
        assert!(others.contains(&"count-after-quiet") && !others.contains(&"none"));
        // Each open point once, however many of its parameters are listed.
        let mut ids: Vec<(&str, &str)> =
            b.iter().map(|b| (b.from.as_str(), b.id.as_str())).collect();
        ids.dedup();
        assert_eq!(ids.len(), b.len());
    }

    #[test]
    fn an_override_is_named_as_the_run_set_it() {
        let corpus = seega();
        let game = corpus.game("seega").expect("seega");
        let davies = game.interpretation("davies").expect("davies");
        let mut set = serde_json::Map::new();
        set.insert("stall".to_owned(), serde_json::json!("repetition"));
        let b = behind(game, davies, &set);
        assert!(
            b.iter()
                .any(|b| b.from == "set" && b.id == "stall" && b.class.is_none())
        );
    }

    #[test]
    fn a_reading_finishes_at_ninety_five_in_a_hundred_games_ended() {
        let corpus = seega();
        let game = corpus.game("seega").expect("seega");
        let davies = game.interpretation("davies").expect("davies");
        let tally = |ended: u64, stopped: u64| {
            let mut t = Tally {
                games: ended + stopped,
                draws: ended,
                timeouts: stopped,
                stalled: stopped,
                ..Tally::default()
            };
            t.timeouts_by_reason.push(("quiet-limit", stopped));
            for _ in 0..stopped {
                t.censored_plies.add(3000);
            }
            t
        };
        let f = finishing(game, davies, &serde_json::Map::new(), &tally(95, 5));
        assert!(f.finishes);
        assert_eq!(f.unfinished.get("quiet-limit"), Some(&5));
        let f = finishing(game, davies, &serde_json::Map::new(), &tally(94, 6));
        assert!(!f.finishes);
        assert_eq!((f.stalled, f.finished.value), (6, 0.94));
        // 94 of 100 [87.5–97.2 %]: below 95 %, but the interval reaches it.
        assert!(!f.settled());
        let words = f.words("fair", (200_000, 2_000));
        assert!(words.contains("not settled"), "{words}");
        assert!(words.contains("6 were stopped after 2000 plies"), "{words}");
        assert!(
            words.contains("the open point `stall`, taken as `none`"),
            "{words}"
        );
        let f = finishing(game, davies, &serde_json::Map::new(), &tally(60, 40));
        assert!(f.settled() && !f.finishes);
        let words = f.words("fair", (200_000, 2_000));
        assert!(words.contains("fewer than the 95 %"), "{words}");
        let f = finishing(game, davies, &serde_json::Map::new(), &tally(99, 1));
        assert!(f.finishes);
        let words = f.words("fair", (200_000, 2_000));
        assert!(
            words.contains("it finishes") && words.contains("1 was stopped"),
            "{words}"
        );
    }
}
