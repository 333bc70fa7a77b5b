//! Flags: every point a game's sources leave open or dispute, found from the corpus's
//! structure (never from lists written in the code).
//!
//! - **choice**: an open point, each option with who proposes it and the class it has in each
//!   reading that takes it;
//! - **declined**: a register reading no option or clause of the ruleset offers, with why;
//! - **source-conflict**: two sources whose words support different options of one choice
//!   (a source whose words support both options is ambiguous there, not in conflict), both
//!   sides quoted verbatim; an encoding named by an option counts as its words, which are code;
//! - **witness-variant**: two witnesses of a cited passage that differ inside a quoted span
//!   (most are spelling; the quote and both readings are given);
//! - **borrowing** and **interpolation**: a clause or a chosen option that rests, in some
//!   reading, only on another source's words than the reading's basis, or on nobody's words,
//!   with the readings concerned and who supplied it;
//! - **engine-artefact** ([`engine_artefacts`]): what a reading does because an engine does
//!   it: an option marked `engine:` (the loader allows no source's words under it), or a
//!   parameter that a reading following an encoding sets outside its choices; with the ways
//!   to switch it off (each other option, or the family's default), which the command plays.
//!
//! From play ([`play_flags`], given each reading's tally of seeded games):
//! - **uncovered**: each `uncovered:` and `borrowed:` place (an event decided by a parameter
//!   that is interpolated, or borrowed, in the reading), with the share of games it occurs
//!   in and its rate per game, each with its 95 % interval, per reading;
//! - **rule-activity**: each rule (event kind) that fired in some reading, the same figures
//!   per reading, so that a reader sees whether an open point is live or nearly dead in play;
//! - an engine artefact's frequency ([`artefact_frequency`]): the events its parameters
//!   decide, in the readings that carry it.
//!
//! Each flag is data ([`Flag`]); the command line renders it.

use schemars::JsonSchema;
use serde::Serialize;

use crate::collate::collate_within;
use crate::corpus::provenance::label;
use crate::corpus::{Cite, Class, Classed, Corpus, Game, Interpretation, ParamOrigin};
use crate::sim::{Tally, per_game};
use crate::stats::{Rate, round, wilson};

/// What a flag is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FlagKind {
    /// An open point of the ruleset.
    Choice,
    /// A register reading the ruleset does not offer.
    Declined,
    /// Two sources supporting different options of one choice.
    SourceConflict,
    /// Two witnesses of a passage that differ inside a quoted span.
    WitnessVariant,
    /// An item a reading takes from another source than its basis.
    Borrowing,
    /// An item a reading takes from nobody's words.
    Interpolation,
    /// What a reading does because an engine does it, not because a source says it.
    EngineArtefact,
    /// An event decided by an interpolated or borrowed parameter, as met in play.
    Uncovered,
    /// A rule as it fires in play.
    RuleActivity,
    /// A reading that takes another option than the one its basis's words ground, with the
    /// editors' reason.
    Departure,
    /// A combination of options under which no game can ever end (the family's static check
    /// over its parameters), with the reason: refused, and left out of the sensitivity
    /// figures.
    CannotEnd,
    /// A reading whose players do not finish it (fewer than 95 % of its games end under
    /// the run's players and limits), with how its other games stopped and the open points
    /// and clauses that decide whether such a game can end.
    DoesNotFinish,
}

impl FlagKind {
    /// Its name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            FlagKind::Choice => "choice",
            FlagKind::Declined => "declined",
            FlagKind::SourceConflict => "source-conflict",
            FlagKind::WitnessVariant => "witness-variant",
            FlagKind::Borrowing => "borrowing",
            FlagKind::Interpolation => "interpolation",
            FlagKind::EngineArtefact => "engine-artefact",
            FlagKind::Uncovered => "uncovered",
            FlagKind::RuleActivity => "rule-activity",
            FlagKind::Departure => "departure",
            FlagKind::CannotEnd => "cannot-end",
            FlagKind::DoesNotFinish => "does-not-finish",
        }
    }
}

/// A quote a flag rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Quote {
    /// The anchor (`davies-1925#um-el-banat`, `DLP.Evidence.703`).
    pub at: String,
    /// The source as a reader names it (`Davies`, `DLP`, `Ludii 1.3.12`).
    pub source: String,
    /// The words, verbatim.
    pub quote: String,
}

/// One flag.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Flag {
    /// What it is.
    pub kind: FlagKind,
    /// Its id: the choice's, the declined register reading's, `CHOICE:SOURCE/SOURCE` for a
    /// conflict, `clause:ID` or `choice:ID=OPTION` for a borrowing or an interpolation.
    pub id: String,
    /// One line.
    pub title: String,
    /// In words.
    pub text: String,
    /// The quotes involved.
    pub cites: Vec<Quote>,
    /// The readings concerned (for a choice, every reading that takes one of its options).
    pub readings: Vec<String>,
    /// A choice's options.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<FlagOption>,
    /// How often it arises in play, per reading (`uncovered`, `rule-activity`); `null` for
    /// what the corpus alone decides.
    pub frequency: Option<Frequency>,
    /// For a choice: the largest change in an outcome rate that switching one of its options
    /// alone into a base reading makes (`null` where none was measured).
    pub effect: Option<Effect>,
    /// For `does-not-finish`: the reading's finished share, how its other games stopped, and
    /// what in the reading decides whether such a game can end. Absent for other kinds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finishing: Option<crate::analysis::finish::Finishing>,
}

/// The largest change an open point's options make, one at a time.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Effect {
    /// The reading the option was switched into.
    pub base: String,
    /// The option.
    pub option: String,
    /// The outcome metric that changed most (`p1_win` …, `first_mover_win`, `draw`,
    /// `timeout`).
    pub metric: String,
    /// The change (option − base) with its 95 % interval.
    pub difference: Rate,
    /// Its p-value after Holm's correction across every comparison of the game.
    pub p_adjusted: f64,
    /// `differs` or `no difference detected`.
    pub verdict: String,
}

/// How often a flagged situation arises in seeded play.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Frequency {
    /// Games played per reading.
    pub games: u64,
    /// Per reading that can meet it, in the ruleset's order.
    pub by_reading: Vec<ReadingFrequency>,
}

/// How often a situation arises under one reading.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReadingFrequency {
    /// Reading id.
    pub reading: String,
    /// Games in which it occurred at least once.
    pub games_with: u64,
    /// `games_with / games`, with its Wilson 95 % interval.
    pub share: Rate,
    /// Occurrences per game, with the 95 % interval of the mean (± 1.96 sd/√n).
    pub per_game: Rate,
    /// For an engine artefact, the event kind counted (an artefact decides several kinds,
    /// each listed apart). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
}

/// An option of a flagged choice.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FlagOption {
    /// Option id.
    pub id: String,
    /// In words.
    pub says: String,
    /// Who proposes it.
    pub by: Vec<String>,
    /// The readings that take it, each with the option's class there.
    pub taken_by: Vec<TakenBy>,
}

/// A reading that takes an option, and the option's class in it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TakenBy {
    /// Reading id.
    pub reading: String,
    /// `grounded`, `borrowed` or `interpolated`.
    pub class: Class,
}

/// Every flag of a game that the corpus alone decides, in the order: choices, declined
/// readings, source conflicts, borrowings, interpolations.
pub fn corpus_flags(corpus: &Corpus, game: &Game) -> Vec<Flag> {
    let quote = |c: &Cite| Quote {
        at: c.at.clone(),
        source: label(corpus, game, &c.at),
        quote: c.quote.clone(),
    };
    let mut flags = Vec::new();
    for choice in &game.choices {
        let options: Vec<FlagOption> = choice
            .options
            .iter()
            .map(|o| FlagOption {
                id: o.id.clone(),
                says: o.says.clone(),
                by: o.by.clone(),
                taken_by: game
                    .interpretations
                    .iter()
                    .filter_map(|i| {
                        let (_, _, classed) = i
                            .provenance
                            .choices
                            .iter()
                            .find(|(c, opt, _)| *c == choice.id && *opt == o.id)?;
                        Some(TakenBy {
                            reading: i.id.clone(),
                            class: classed.class,
                        })
                    })
                    .collect(),
            })
            .collect();
        flags.push(Flag {
            kind: FlagKind::Choice,
            id: choice.id.clone(),
            title: first_sentence(&choice.question),
            text: choice.question.clone(),
            cites: choice
                .cites
                .iter()
                .chain(choice.options.iter().flat_map(|o| &o.cites))
                .map(quote)
                .collect(),
            readings: options
                .iter()
                .flat_map(|o| o.taken_by.iter().map(|t| t.reading.clone()))
                .collect(),
            options,
            frequency: None,
            effect: None,
            finishing: None,
        });
    }
    for d in &game.declined {
        flags.push(Flag {
            kind: FlagKind::Declined,
            id: d.reading.clone(),
            title: format!("register reading {} is not offered", d.reading),
            text: d.why.clone(),
            cites: Vec::new(),
            readings: Vec::new(),
            options: Vec::new(),
            frequency: None,
            effect: None,
            finishing: None,
        });
    }
    flags.extend(conflicts(corpus, game));
    flags.extend(witness_variants(corpus, game));
    for class in [Class::Borrowed, Class::Interpolated] {
        flags.extend(rested_on(corpus, game, class));
    }
    flags.extend(departures(corpus, game));
    flags
}

/// Every departure of a reading from its basis: where it takes another option than those its
/// basis's words ground, with the reason the ruleset gives.
fn departures(corpus: &Corpus, game: &Game) -> Vec<Flag> {
    let mut flags = Vec::new();
    for interp in &game.interpretations {
        for d in &interp.departs {
            let Some(choice) = game.choice(&d.choice) else {
                continue;
            };
            let cites = choice
                .options
                .iter()
                .filter(|o| d.grounded.contains(&o.id))
                .flat_map(|o| &o.cites)
                .filter(|c| c.says())
                .map(|c| Quote {
                    at: c.at.clone(),
                    source: label(corpus, game, &c.at),
                    quote: c.quote.clone(),
                })
                .collect();
            flags.push(Flag {
                kind: FlagKind::Departure,
                id: format!("{}:{}", interp.id, d.choice),
                title: format!(
                    "{} takes {}={} over {}, which its basis grounds",
                    interp.id,
                    d.choice,
                    d.takes,
                    d.grounded.join(", ")
                ),
                text: d.why.clone(),
                cites,
                readings: vec![interp.id.clone()],
                options: Vec::new(),
                frequency: None,
                effect: None,
                finishing: None,
            });
        }
    }
    flags
}

/// The flags of play: from each reading's tally of the same number of seeded games, every
/// `uncovered:`/`borrowed:` place met in some reading, then every rule (event kind) that
/// fired in some reading, each with its frequency per reading.
pub fn play_flags(tallies: &[(&str, &Tally)]) -> Vec<Flag> {
    let frequency = reading_frequency;
    let games = tallies.first().map_or(0, |(_, t)| t.games);
    let mut flags = Vec::new();
    // The flagged places, in the order first met; each reading that has the place counts.
    let mut places: Vec<&str> = Vec::new();
    for (_, t) in tallies {
        for (name, &(with, _)) in t.place_names.iter().zip(&t.uncovered) {
            if with > 0 && !places.contains(&name.as_str()) {
                places.push(name);
            }
        }
    }
    for place in places {
        let by_reading: Vec<ReadingFrequency> = tallies
            .iter()
            .filter_map(|(reading, t)| {
                let i = t.place_names.iter().position(|p| p == place)?;
                Some(frequency(
                    reading,
                    t,
                    t.uncovered[i],
                    t.uncovered_squares[i],
                ))
            })
            .collect();
        let met: Vec<String> = by_reading
            .iter()
            .filter(|f| f.games_with > 0)
            .map(|f| format!("{} {:.1} %", f.reading, 100.0 * f.share.value))
            .collect();
        let (how, what) = match place.split_once(':') {
            Some(("borrowed", p)) => ("borrowed", p),
            Some((_, p)) => ("interpolated", p),
            None => ("interpolated", place),
        };
        flags.push(Flag {
            kind: FlagKind::Uncovered,
            id: place.to_owned(),
            title: format!("{place}: met in {}", met.join(", ")),
            text: format!(
                "An event decided at `{what}` by a parameter that is {how} in the reading: in \
                 these games the reading rests there on {}.",
                if how == "borrowed" {
                    "another source's words than its basis"
                } else {
                    "nobody's words"
                }
            ),
            cites: Vec::new(),
            readings: by_reading.iter().map(|f| f.reading.clone()).collect(),
            options: Vec::new(),
            frequency: Some(Frequency { games, by_reading }),
            effect: None,
            finishing: None,
        });
    }
    // Rules: the family's event kinds (every reading of a game has the same), those that
    // fired somewhere.
    let Some((_, first)) = tallies.first() else {
        return flags;
    };
    for (k, kind) in first.kind_names.iter().enumerate() {
        if tallies.iter().all(|(_, t)| t.events[k].0 == 0) {
            continue;
        }
        let by_reading: Vec<ReadingFrequency> = tallies
            .iter()
            .map(|(reading, t)| frequency(reading, t, t.events[k], t.event_squares[k]))
            .collect();
        let live: Vec<String> = by_reading
            .iter()
            .map(|f| format!("{} {:.1} %", f.reading, 100.0 * f.share.value))
            .collect();
        flags.push(Flag {
            kind: FlagKind::RuleActivity,
            id: kind.clone(),
            title: format!("{kind}: in {} of games", live.join(", ")),
            text: format!("How often the rule `{kind}` fires in play, per reading."),
            cites: Vec::new(),
            readings: by_reading.iter().map(|f| f.reading.clone()).collect(),
            options: Vec::new(),
            frequency: Some(Frequency { games, by_reading }),
            effect: None,
            finishing: None,
        });
    }
    flags
}

/// How often something occurred under one reading: `counts` (games with it, occurrences)
/// and the sum of squared occurrences per game, from the reading's tally.
/// A `does-not-finish` flag: a reading whose players, `players` as the run names them, end
/// fewer than 95 % of its games under the run's `limits` (`--max-plies`, `--max-quiet`).
/// `t` is the reading's tally, of which `f` was made.
pub fn does_not_finish(
    f: crate::analysis::finish::Finishing,
    t: &Tally,
    players: &str,
    limits: (u32, u32),
) -> Flag {
    let unfinished = t.games - t.finished();
    let frequency = Frequency {
        games: t.games,
        // A game is unfinished once or not at all: its count per game is 0 or 1.
        by_reading: vec![reading_frequency(
            &f.reading,
            t,
            (unfinished, unfinished),
            unfinished,
        )],
    };
    Flag {
        kind: FlagKind::DoesNotFinish,
        id: format!("does-not-finish:{}", f.reading),
        title: format!(
            "{} {} with {players}: {:.1} % of games ended [{:.1}–{:.1} %]",
            f.reading,
            if f.settled() {
                "does not finish"
            } else {
                "may not finish"
            },
            100.0 * f.finished.value,
            100.0 * f.finished.lo,
            100.0 * f.finished.hi
        ),
        text: f.words(players, limits),
        cites: Vec::new(),
        readings: vec![f.reading.clone()],
        options: Vec::new(),
        frequency: Some(frequency),
        effect: None,
        finishing: Some(f),
    }
}

fn reading_frequency(
    reading: &str,
    t: &Tally,
    counts: (u64, u64),
    squares: u64,
) -> ReadingFrequency {
    let rounded = |r: Rate| Rate {
        value: round(r.value, 4),
        lo: round(r.lo, 4),
        hi: round(r.hi, 4),
    };
    let (mean, lo, hi) = per_game(counts.1, squares, t.games);
    ReadingFrequency {
        reading: reading.to_owned(),
        games_with: counts.0,
        share: rounded(wilson(counts.0, t.games)),
        per_game: rounded(Rate {
            value: mean,
            lo,
            hi,
        }),
        event: None,
    }
}

/// An engine artefact of a game: what some readings do because an engine does it. Found
/// from the corpus: an option marked `engine:` (its carriers are the readings that take it),
/// or a parameter that a reading proposed by an encoding sets outside its choices (the
/// encoding's engine as it executes).
#[derive(Debug, Clone)]
pub struct Artefact {
    /// The flag (kind `engine-artefact`; frequency and effect left to play).
    pub flag: Flag,
    /// The parameters it sets: the events it decides are those these parameters decide.
    pub params: Vec<String>,
    /// The ways to switch it off in a reading that carries it, each played against it.
    pub offs: Vec<Off>,
}

/// One way to switch an engine artefact off.
#[derive(Debug, Clone)]
pub enum Off {
    /// Another option of the artefact's choice switched in ([`Game::switch_sets`]).
    Option {
        /// Choice id.
        choice: String,
        /// Option id.
        option: String,
    },
    /// The family's default for a parameter the reading sets itself.
    Default {
        /// The parameter and its default.
        sets: Vec<(String, serde_json::Value)>,
    },
}

impl Off {
    /// What replaces the artefact: the option's id, or `default`.
    pub fn to(&self) -> &str {
        match self {
            Off::Option { option, .. } => option,
            Off::Default { .. } => "default",
        }
    }

    /// The parameters switching it off sets in `reading`.
    pub fn sets(&self, game: &Game, reading: &Interpretation) -> Vec<(String, serde_json::Value)> {
        match self {
            Off::Option { choice, option } => game
                .choices
                .iter()
                .find(|c| c.id == *choice)
                .and_then(|c| Some((c, c.options.iter().find(|o| o.id == *option)?)))
                .map(|(c, o)| game.switch_sets(reading, c, o))
                .unwrap_or_default(),
            Off::Default { sets } => sets.clone(),
        }
    }
}

/// The engine artefacts of a game: first the options marked `engine:`, in the ruleset's
/// order, then the parameters readings set outside their choices, by parameter.
pub fn engine_artefacts(corpus: &Corpus, game: &Game) -> Vec<Artefact> {
    let mut out = Vec::new();
    for choice in &game.choices {
        for o in &choice.options {
            let Some(engine) = &o.engine else {
                continue;
            };
            let offs: Vec<Off> = choice
                .options
                .iter()
                .filter(|x| x.engine.is_none())
                .map(|x| Off::Option {
                    choice: choice.id.clone(),
                    option: x.id.clone(),
                })
                .collect();
            let readings = readings_taking(game, &choice.id, std::slice::from_ref(&o.id));
            let alternatives: Vec<&str> = offs.iter().map(Off::to).collect();
            out.push(Artefact {
                flag: Flag {
                    kind: FlagKind::EngineArtefact,
                    id: format!("choice:{}={}", choice.id, o.id),
                    title: format!("{} = {}: {engine}", choice.id, o.id),
                    text: format!(
                        "{} Carried by {}; switched off, `{}` takes in turn {}.",
                        o.says.trim(),
                        if readings.is_empty() {
                            "no reading".to_owned()
                        } else {
                            readings.join(", ")
                        },
                        choice.id,
                        if alternatives.is_empty() {
                            "no other option".to_owned()
                        } else {
                            alternatives.join(", ")
                        }
                    ),
                    cites: o
                        .cites
                        .iter()
                        .map(|c| Quote {
                            at: c.at.clone(),
                            source: label(corpus, game, &c.at),
                            quote: c.quote.clone(),
                        })
                        .collect(),
                    readings,
                    options: Vec::new(),
                    frequency: None,
                    effect: None,
                    finishing: None,
                },
                params: o.sets.iter().map(|(k, _)| k.clone()).collect(),
                offs,
            });
        }
    }
    // Parameters set by a reading itself, where the reading follows an encoding: grouped by
    // parameter and value, in the order first met.
    let defaults = game.family.engine_defaults();
    let mut own: Vec<(String, serde_json::Value, Vec<String>, Vec<String>)> = Vec::new();
    for interp in &game.interpretations {
        let engines: Vec<String> = interp
            .by
            .iter()
            .filter(|b| corpus.encodings.contains_key(b.as_str()))
            .map(|b| label(corpus, game, b))
            .collect();
        if engines.is_empty() {
            continue;
        }
        for p in &interp.params {
            if !matches!(p.origin, ParamOrigin::Interpretation(_))
                || defaults.get(&p.name) == Some(&p.value)
            {
                continue;
            }
            match own
                .iter_mut()
                .find(|(n, v, _, _)| *n == p.name && *v == p.value)
            {
                Some((_, _, readings, by)) => {
                    readings.push(interp.id.clone());
                    for e in engines.iter() {
                        if !by.contains(e) {
                            by.push(e.clone());
                        }
                    }
                }
                None => own.push((
                    p.name.clone(),
                    p.value.clone(),
                    vec![interp.id.clone()],
                    engines.clone(),
                )),
            }
        }
    }
    for (name, value, readings, engines) in &own {
        let values = own.iter().filter(|(n, ..)| n == name).count();
        let id = if values == 1 {
            format!("set:{name}")
        } else {
            format!("set:{name}={value}")
        };
        let offs: Vec<Off> = defaults
            .get(name)
            .map(|d| Off::Default {
                sets: vec![(name.clone(), d.clone())],
            })
            .into_iter()
            .collect();
        out.push(Artefact {
            flag: Flag {
                kind: FlagKind::EngineArtefact,
                id,
                title: format!("{name} = {value}: set by {} itself", readings.join(", ")),
                text: format!(
                    "The reading sets `{name}` to {value} outside its choices, as its encoding's \
                     engine ({}) executes it; no source states it. {}",
                    engines.join(", "),
                    match defaults.get(name) {
                        Some(d) => format!("Switched off, it takes the family's default, {d}."),
                        None => "It has no default to switch to.".to_owned(),
                    }
                ),
                cites: Vec::new(),
                readings: readings.clone(),
                options: Vec::new(),
                frequency: None,
                effect: None,
                finishing: None,
            },
            params: vec![name.clone()],
            offs,
        });
    }
    out
}

/// How often an engine artefact fires: per reading that carries it, each event kind decided
/// by one of its parameters that occurred in some carrier; where none did, every such kind,
/// at zero (measured, with its interval). Empty when the engine records no event of it.
pub fn artefact_frequency(artefact: &Artefact, tallies: &[(&str, &Tally)]) -> Frequency {
    let games = tallies.first().map_or(0, |(_, t)| t.games);
    let carriers: Vec<&(&str, &Tally)> = tallies
        .iter()
        .filter(|(r, _)| artefact.flag.readings.iter().any(|x| x == r))
        .collect();
    let decided = |t: &Tally, k: usize| {
        t.kind_params
            .get(k)
            .is_some_and(|ps| ps.iter().any(|p| artefact.params.iter().any(|a| a == p)))
    };
    let fired = |k: usize| carriers.iter().any(|(_, t)| t.events[k].0 > 0);
    let any_fired = carriers
        .first()
        .is_some_and(|(_, t)| (0..t.kind_names.len()).any(|k| decided(t, k) && fired(k)));
    let mut by_reading = Vec::new();
    for (reading, t) in &carriers {
        for (k, kind) in t.kind_names.iter().enumerate() {
            if decided(t, k) && (fired(k) || !any_fired) {
                let mut f = reading_frequency(reading, t, t.events[k], t.event_squares[k]);
                f.event = Some(kind.clone());
                by_reading.push(f);
            }
        }
    }
    Frequency { games, by_reading }
}

/// The sources whose words support an option: its quotes' sources, and encodings it names
/// in `by:` (their words are code), as labels, each once. A term, a deferral or the
/// question's own words support nothing.
fn supporters(corpus: &Corpus, game: &Game, cites: &[Cite], by: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let anchors = cites
        .iter()
        .filter(|c| c.says())
        .map(|c| c.at.as_str())
        .chain(
            by.iter()
                .map(String::as_str)
                .filter(|b| corpus.encodings.contains_key(*b)),
        );
    for a in anchors {
        let l = label(corpus, game, a);
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// Source conflicts: for each choice, each pair of sources where one supports an option the
/// other does not, and the other an option the first does not.
fn conflicts(corpus: &Corpus, game: &Game) -> Vec<Flag> {
    let mut flags = Vec::new();
    for choice in &game.choices {
        let support: Vec<Vec<String>> = choice
            .options
            .iter()
            .map(|o| supporters(corpus, game, &o.cites, &o.by))
            .collect();
        let mut sources: Vec<&String> = support.iter().flatten().collect();
        sources.sort();
        sources.dedup();
        for (i, x) in sources.iter().enumerate() {
            for y in &sources[i + 1..] {
                // The options each supports and the other does not.
                let only = |s: &str, t: &str| -> Vec<usize> {
                    (0..support.len())
                        .filter(|&k| {
                            support[k].iter().any(|v| v == s) && !support[k].iter().any(|v| v == t)
                        })
                        .collect()
                };
                let (ox, oy) = (only(x, y), only(y, x));
                if ox.is_empty() || oy.is_empty() {
                    continue;
                }
                let side = |s: &str, opts: &[usize]| -> (Vec<String>, Vec<Quote>) {
                    let ids = opts.iter().map(|&k| choice.options[k].id.clone()).collect();
                    let quotes = opts
                        .iter()
                        .flat_map(|&k| &choice.options[k].cites)
                        .filter(|c| c.says() && label(corpus, game, &c.at) == s)
                        .map(|c| Quote {
                            at: c.at.clone(),
                            source: s.to_owned(),
                            quote: c.quote.clone(),
                        })
                        .collect();
                    (ids, quotes)
                };
                let (ix, qx) = side(x, &ox);
                let (iy, qy) = side(y, &oy);
                let words = |s: &str, q: &[Quote]| {
                    if q.is_empty() {
                        format!("{s} (its encoding, which is code)")
                    } else {
                        let said: Vec<String> = q
                            .iter()
                            .map(|q| format!("\u{ab}{}\u{bb}", q.quote))
                            .collect();
                        format!("{s}: {}", said.join(" … "))
                    }
                };
                flags.push(Flag {
                    kind: FlagKind::SourceConflict,
                    id: format!("{}:{x}/{y}", choice.id),
                    title: format!(
                        "{}: {x} supports {}, {y} supports {}",
                        choice.id,
                        ix.join(", "),
                        iy.join(", ")
                    ),
                    text: format!("{} against {}", words(x, &qx), words(y, &qy)),
                    cites: qx.into_iter().chain(qy).collect(),
                    readings: readings_taking(game, &choice.id, &ix)
                        .into_iter()
                        .chain(readings_taking(game, &choice.id, &iy))
                        .collect(),
                    options: Vec::new(),
                    frequency: None,
                    effect: None,
                    finishing: None,
                });
            }
        }
    }
    flags
}

/// Witness variants: where two witnesses of a cited passage differ inside a span the game
/// quotes (most are spelling; each is listed once, with the quotes it falls in).
fn witness_variants(corpus: &Corpus, game: &Game) -> Vec<Flag> {
    let cites = game
        .clauses
        .iter()
        .flat_map(|c| &c.cites)
        .chain(game.choices.iter().flat_map(|c| {
            c.cites
                .iter()
                .chain(c.options.iter().flat_map(|o| &o.cites))
        }));
    let mut flags: Vec<Flag> = Vec::new();
    for cite in cites {
        let Some(p) = corpus.passages.get(&cite.at) else {
            continue;
        };
        if p.readings.len() < 2 {
            continue;
        }
        // The quote's own witness, or the passage's first.
        let base = cite
            .witness
            .as_ref()
            .and_then(|w| p.readings.iter().find(|r| &r.witness == w))
            .unwrap_or(&p.readings[0]);
        let base_text = base.plain_text();
        for other in p.readings.iter().filter(|r| r.witness != base.witness) {
            for v in collate_within(&base_text, &other.plain_text(), &cite.quote, 3) {
                let id = format!(
                    "{}:{}/{}:{}→{}",
                    p.anchor, base.witness, other.witness, v.base, v.other
                );
                let quote = Quote {
                    at: cite.at.clone(),
                    source: label(corpus, game, &cite.at),
                    quote: cite.quote.clone(),
                };
                match flags.iter_mut().find(|f| f.id == id) {
                    Some(f) => {
                        if !f.cites.contains(&quote) {
                            f.cites.push(quote);
                        }
                    }
                    None => flags.push(Flag {
                        kind: FlagKind::WitnessVariant,
                        title: format!(
                            "{}: {} «{}», {} «{}»",
                            p.anchor, base.witness, v.base, other.witness, v.other
                        ),
                        text: format!("… {} [{} → {}] {} …", v.before, v.base, v.other, v.after),
                        id,
                        cites: vec![quote],
                        readings: Vec::new(),
                        options: Vec::new(),
                        frequency: None,
                        effect: None,
                        finishing: None,
                    }),
                }
            }
        }
    }
    flags
}

/// The readings that take one of `options` at `choice`.
fn readings_taking(game: &Game, choice: &str, options: &[String]) -> Vec<String> {
    game.interpretations
        .iter()
        .filter(|i| {
            i.choose
                .iter()
                .any(|(c, o)| c == choice && options.contains(o))
        })
        .map(|i| i.id.clone())
        .collect()
}

/// An item some readings borrow or interpolate: its id, words and quotes, the readings, and
/// the sources (borrowed) or the people (interpolated) it comes from.
struct Rested {
    id: String,
    says: String,
    cites: Vec<Quote>,
    readings: Vec<String>,
    from: Vec<String>,
}

/// The clauses and chosen options that rest, in some reading, on `class` (borrowed or
/// interpolated): one flag an item, naming the readings and who supplied it.
fn rested_on(corpus: &Corpus, game: &Game, class: Class) -> Vec<Flag> {
    let kind = match class {
        Class::Borrowed => FlagKind::Borrowing,
        _ => FlagKind::Interpolation,
    };
    let quote = |c: &Cite| Quote {
        at: c.at.clone(),
        source: label(corpus, game, &c.at),
        quote: c.quote.clone(),
    };
    let mut items: Vec<Rested> = Vec::new();
    let mut note = |id: String, says: &str, cites: Vec<Quote>, reading: &str, k: &Classed| {
        let from = if class == Class::Borrowed {
            k.sources.clone()
        } else {
            k.by.clone()
        };
        match items.iter_mut().find(|it| it.id == id) {
            Some(it) => {
                it.readings.push(reading.to_owned());
                for f in from {
                    if !it.from.contains(&f) {
                        it.from.push(f);
                    }
                }
            }
            None => items.push(Rested {
                id,
                says: says.to_owned(),
                cites,
                readings: vec![reading.to_owned()],
                from,
            }),
        }
    };
    for interp in &game.interpretations {
        for (clause, k) in &interp.provenance.clauses {
            if k.class != class {
                continue;
            }
            let Some(c) = game.clauses.iter().find(|c| &c.id == clause) else {
                continue;
            };
            note(
                format!("clause:{clause}"),
                &c.says,
                c.cites.iter().map(quote).collect(),
                &interp.id,
                k,
            );
        }
        for (choice, option, k) in &interp.provenance.choices {
            if k.class != class {
                continue;
            }
            let Some(o) = game
                .choice(choice)
                .and_then(|c| c.options.iter().find(|o| &o.id == option))
            else {
                continue;
            };
            note(
                format!("choice:{choice}={option}"),
                &o.says,
                o.cites.iter().map(quote).collect(),
                &interp.id,
                k,
            );
        }
    }
    items
        .into_iter()
        .map(
            |Rested {
                 id,
                 says,
                 cites,
                 readings,
                 from,
             }| Flag {
                kind,
                title: match class {
                    Class::Borrowed => format!(
                        "{id}: {} take it from {}",
                        readings.join(", "),
                        from.join(", ")
                    ),
                    _ => format!(
                        "{id}: {} take it from nobody's words (added by {})",
                        readings.join(", "),
                        if from.is_empty() {
                            "nobody named".to_owned()
                        } else {
                            from.join("; ")
                        }
                    ),
                },
                id,
                text: says,
                cites,
                readings,
                options: Vec::new(),
                frequency: None,
                effect: None,
                finishing: None,
            },
        )
        .collect()
}

/// A question's title: its first sentence that asks (ends in `?`), else its first sentence
/// (a `.` or `?` that ends a word: not the points of `1.0.8` or of `Fig. 3`'s abbreviation
/// followed by a digit).
fn first_sentence(text: &str) -> String {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut sentences = Vec::new();
    let mut start = 0;
    for (i, c) in t.char_indices() {
        let after = &t[i + c.len_utf8()..];
        let next = after.chars().nth(1);
        let ends_word = after.chars().next().is_none_or(|n| n == ' ');
        let abbreviation = c == '.' && next.is_some_and(|n| n.is_ascii_digit());
        if (c == '?' || c == '.') && ends_word && !abbreviation {
            sentences.push(t[start..i + 1].trim().to_owned());
            start = i + 1;
        }
    }
    if start < t.len() {
        sentences.push(t[start..].trim().to_owned());
    }
    sentences
        .iter()
        .find(|s| s.ends_with('?'))
        .or(sentences.first())
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentence_stops_at_the_question() {
        assert_eq!(
            first_sentence("Who begins?  Davies says\nnothing."),
            "Who begins?"
        );
        assert_eq!(
            first_sentence("A reset leaves houses over. Where do they lie (Fig. 3)? Davies: so."),
            "Where do they lie (Fig. 3)?"
        );
        assert_eq!(first_sentence("no stop"), "no stop");
        assert_eq!(first_sentence("Où va la tâba? Là."), "Où va la tâba?");
        assert_eq!(
            first_sentence("As Ludii 1.0.8 does. More."),
            "As Ludii 1.0.8 does."
        );
    }
}
