//! `ludotrace flags [GAME]`: what a game's sources leave open or dispute ([`crate::analysis::flags::found`]):
//! from the corpus, its open points with who proposes each option, the register readings it
//! declines, the places where two sources support different options, and what each reading
//! borrows or interpolates, and its engine artefacts; from seeded play of every reading, how
//! often each uncovered or borrowed situation arises, how often each rule and each engine
//! artefact fires, and how much each option, switched in alone, and each engine artefact,
//! switched off, changes the outcome; with `--global`, each open point's share of the
//! variance of the outcome over the whole option space ([`crate::analysis::global`]).
//!
//! The result (JSON schema_version 1) is a pure function of the corpus, the games, seed, ply
//! limit, agents and overrides, and the ludotrace version, at any thread count.

pub mod found;

use std::collections::BTreeMap;

use indicatif::ProgressBar;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::agents::Lineup;
use crate::analysis::Error;
use crate::analysis::header::{Header, Played};
use crate::analysis::play::{
    check_numbers, check_quiet, check_rotation, check_seated, corpus_hash, play_reading, pool,
};
use crate::analysis::reproduce::Reproduce;
use crate::bind::{self, Bound};
use crate::corpus::{Corpus, CorpusFiles, Game};
use crate::exec::{Exec, Task};

use crate::analysis::diff::{Metric, arm_key, attach_raised, finish, raw_metrics};
use crate::analysis::flags::found::{
    Artefact, Effect, Flag, FlagKind, artefact_frequency, corpus_flags, engine_artefacts,
    play_flags,
};
use crate::analysis::global::{GlobalDesign, GlobalIndex, GlobalPlay, check_design, global};
use crate::analysis::limits;
use crate::rng;
use crate::sim::{self, RunSpec, Tally};
use crate::stats::Rate;
use crate::stats::compare::holm;

/// What the user asked `flags` for.
#[derive(Debug, Clone)]
pub struct FlagsArgs {
    /// One game, or every game.
    pub game: Option<String>,
    /// Games per reading.
    pub games: u64,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Plies with no change in any seat's material after which a game of a reading without
    /// an engine cap is stopped, censored (`0`: never).
    pub max_quiet: u32,
    /// Who plays which seat.
    pub lineup: Lineup,
    /// `PARAM=VALUE` overrides of every reading.
    pub set: Vec<String>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
    /// `--global --design N`: the readings of the global design, when asked for.
    pub global: Option<u64>,
    /// `--global-games N`: games per reading of the global design (`games` when not given):
    /// a design plays hundreds of readings, each needing fewer games than a comparison.
    pub global_games: Option<u64>,
}

/// `flags GAME --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlagsOutput {
    /// What was played, with which corpus and seed, by whom (the fields every played
    /// output opens with).
    #[serde(flatten)]
    pub header: Header,
    /// `--set` overrides of every reading, as given.
    pub overrides: Vec<String>,
    /// The flags, by kind: `choice`, `declined`, `source-conflict`, `witness-variant`,
    /// `borrowing`, `interpolation`, `engine-artefact`, `uncovered`, `rule-activity`.
    pub flags: Vec<Flag>,
    /// How much each open point's resolution changes the game.
    pub sensitivity: Sensitivity,
}

/// How much each open point's resolution changes the game.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Sensitivity {
    /// From each base reading (the game's source-named reading, its first, and `ludii`),
    /// each option the reading does not take switched in alone, against the reading as it
    /// stands: the outcome metrics of a `diff` of the two, Holm-corrected across every
    /// comparison of the game. Ranked by the choices' largest change (see `ranking`).
    pub one_at_a_time: Vec<OneAtATime>,
    /// The choices, largest effect first: each choice's largest absolute change in an
    /// outcome rate over its options and base readings.
    pub ranking: Vec<Ranked>,
    /// Each engine artefact switched off in each reading that carries it (each other option
    /// of its choice in turn, or the family's default for a parameter the reading sets
    /// itself), against the reading as it stands; Holm-corrected across the game's
    /// artefacts.
    pub engine_artefacts: Vec<SwitchedOff>,
    /// With `--global`: every open point's share of the variance of each outcome over the
    /// game's option space (first-order and total indices), by choice and metric; `null`
    /// when not asked for.
    pub global: Option<Vec<GlobalIndex>>,
    /// With `--global`: the design and what was played; `null` when not asked for.
    pub global_design: Option<GlobalDesign>,
    /// Comparisons (one at a time and artefacts switched off) left out of the figures above
    /// because the combination they would play can never end (each listed as a
    /// `cannot-end` flag).
    pub cannot_end_left_out: u64,
}

/// An engine artefact switched off in a reading that carries it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SwitchedOff {
    /// The artefact's flag id (`choice:ID=OPTION`, `set:PARAM`).
    pub artefact: String,
    /// The reading that carries it.
    pub reading: String,
    /// What replaces it: another option of its choice, or `default`.
    pub to: String,
    /// The parameters that sets.
    pub sets: BTreeMap<String, Value>,
    /// Why the engine cannot play it in the reading (then no metrics).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Whether it is refused because no game of it can ever end (the family's static
    /// check; `refused` gives the reason, and a `cannot-end` flag lists it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cannot_end: bool,
    /// As in `one_at_a_time`: the reading (`a`) against it switched off (`b`).
    pub metrics: Vec<Metric>,
    /// The `diff` command that plays the same two arms.
    pub reproduce: String,
}

/// One option switched alone into a base reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OneAtATime {
    /// The base reading.
    pub base: String,
    /// Choice id.
    pub choice: String,
    /// The option switched in.
    pub option: String,
    /// The parameters it sets.
    pub sets: BTreeMap<String, Value>,
    /// Why the engine cannot play it in the base reading (then no metrics).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Whether it is refused because no game of it can ever end (the family's static
    /// check; `refused` gives the reason, and a `cannot-end` flag lists it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cannot_end: bool,
    /// `p1_win` …, `first_mover_win`, `draw`, `timeout`, `plies_mean`: under the base
    /// reading (`a`) and with the option (`b`), as in `diff`.
    pub metrics: Vec<Metric>,
    /// The `diff` command that plays the same two arms.
    pub reproduce: String,
}

/// A choice's place in the ranking.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Ranked {
    /// Choice id.
    pub choice: String,
    /// Its largest change, where any option could be played.
    pub effect: Option<Effect>,
}

/// The metrics a one-at-a-time comparison keeps of a diff's.
fn kept(metric: &str) -> bool {
    (metric.starts_with('p') && metric.ends_with("_win"))
        || matches!(
            metric,
            "first_mover_win" | "draw" | "timeout" | "plies_mean"
        )
}

/// `flags --format json` (every game).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlagsAllOutput<'a> {
    /// Always 1.
    pub schema_version: u32,
    /// One report per game, in the corpus's order.
    pub reports: Vec<&'a FlagsOutput>,
}

/// Runs `flags` for one game, or for every game.
///
/// # Errors
/// An unknown game (listing the valid ones), bad numbers or overrides, a lineup that does
/// not fit.
pub fn flags<'c>(
    exec: &Exec,
    corpus: &'c Corpus,
    files: &CorpusFiles,
    args: &FlagsArgs,
    bar: &ProgressBar,
) -> Result<Flags<'c>, Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    check_quiet(args.max_quiet)?;
    check_rotation(args.games, &args.lineup, sim::MAX_GAMES)?;
    if let Some(n) = args.global_games {
        if let Err(e) = sim::check_games(n) {
            return Err(Error::Usage(format!(
                "--global-games must be 1 to {}, not {}",
                sim::MAX_GAMES,
                e.given
            )));
        }
        check_rotation(n, &args.lineup, sim::MAX_GAMES)?;
    }
    let games: Vec<&Game> = match &args.game {
        Some(id) => vec![crate::analysis::game_of(corpus, id)?],
        None => corpus.games.iter().collect(),
    };
    if let Some(n) = args.global {
        for g in &games {
            check_design(g, n)?;
        }
    }
    let overrides = bind::parse_overrides(&args.set)?;
    // Every reading of every game bound first, so that a bad override stops the command
    // before any game is played.
    let mut bound: Vec<Vec<Bound>> = Vec::new();
    for g in &games {
        let mut of_game = Vec::new();
        for interp in &g.interpretations {
            let b = bind::bind(g, interp, &overrides)
                .map_err(|e| Error::Usage(format!("{} reading {}: {e}", g.id, interp.id)))?;
            check_seated(&args.lineup, &b)?;
            crate::analysis::perfect::check_perfect(
                &args.lineup,
                &b,
                &format!("{} / {}", g.id, interp.id),
                None,
            )?;
            of_game.push(b);
        }
        bound.push(of_game);
    }
    let pool = pool(args.threads)?;
    let readings: u64 = bound.iter().map(|b| b.len() as u64).sum();
    bar.inc_length(readings * args.games);
    let hash = corpus_hash(files);
    let mut reports = Vec::new();
    for (g, of_game) in games.iter().zip(&bound) {
        let tallies: Vec<Tally> = g
            .interpretations
            .iter()
            .zip(of_game)
            .map(|(interp, b)| {
                let key = rng::reading_key(&g.id, &interp.id);
                arm(exec, args, (g, interp), b, key, &pool, bar)
            })
            .collect();
        let named: Vec<(&str, &Tally)> = g
            .interpretations
            .iter()
            .map(|i| i.id.as_str())
            .zip(&tallies)
            .collect();
        let mut flags = corpus_flags(corpus, g);
        let mut arms = Arms::new(exec, g, args, &overrides, &pool, bar);
        let mut sensitivity = one_at_a_time(&mut arms)?;
        let mut artefacts = engine_artefacts(corpus, g);
        sensitivity.engine_artefacts = switched_off(&mut arms, &mut artefacts, &named)?;
        if let Some(n) = args.global {
            let (design, indices) = global(
                exec,
                g,
                &GlobalPlay {
                    games: args.global_games.unwrap_or(args.games),
                    seed: args.seed,
                    max_plies: args.max_plies,
                    max_quiet: args.max_quiet,
                    lineup: &args.lineup,
                },
                n,
                &overrides,
                &pool,
                bar,
            )?;
            sensitivity.global = Some(indices);
            sensitivity.global_design = Some(design);
        }
        flags.extend(artefacts.into_iter().map(|a| a.flag));
        flags.extend(cannot_end_flags(&mut sensitivity));
        flags.extend(play_flags(&named));
        flags.extend(unfinished_flags(&arms, &tallies));
        for f in flags.iter_mut().filter(|f| f.kind == FlagKind::Choice) {
            f.effect = sensitivity
                .ranking
                .iter()
                .find(|r| r.choice == f.id)
                .and_then(|r| r.effect.clone());
        }
        reports.push(FlagsOutput {
            header: Header::new(
                Played {
                    game: &g.id,
                    corpus_hash: &hash,
                    seed: args.seed,
                    games: args.games,
                    max_plies: args.max_plies,
                    max_quiet: args.max_quiet,
                },
                &args.lineup,
                tallies.first().map_or(2, |t| t.wins.len()),
            ),
            overrides: args.set.clone(),
            flags,
            sensitivity,
        });
    }
    bar.finish_and_clear();
    Ok(Flags {
        games,
        reports,
        hash,
    })
}

/// A `does-not-finish` flag for each reading whose players end fewer than 95 % of its
/// games. For a base reading of the one-at-a-time comparisons, each other option of an open
/// point behind its unfinished games carries the share of games that ended with it switched
/// in alone (the same players, limits and games): the options measured to end such games.
fn unfinished_flags(arms: &Arms, tallies: &[Tally]) -> Vec<Flag> {
    let game = arms.game;
    let players = arms.args.lineup.to_string();
    let limits = (arms.args.max_plies, arms.args.max_quiet);
    let mut out = Vec::new();
    for (reading, t) in game.interpretations.iter().zip(tallies) {
        let mut f = crate::analysis::finish::finishing(game, reading, arms.overrides, t);
        if f.finishes {
            continue;
        }
        for b in f.behind.iter_mut().filter(|b| b.from == "choice") {
            let Some(choice) = game.choice(&b.id) else {
                continue;
            };
            for other in &mut b.others {
                let Some(option) = choice.options.iter().find(|o| o.id == other.id) else {
                    continue;
                };
                let sets = game.switch_sets(reading, choice, option);
                let key = (
                    format!("{}#b", reading.id),
                    serde_json::to_string(&sets).unwrap_or_default(),
                );
                if let Some(played) = arms.played.get(&key) {
                    other.finished = Some(crate::analysis::play::rate_of(
                        played.finished(),
                        played.games,
                    ));
                }
            }
        }
        out.push(found::does_not_finish(f, t, &players, limits));
    }
    out
}

/// What `flags` found: a report per game asked for.
#[derive(Debug)]
pub struct Flags<'c> {
    /// The games, in the order of the reports.
    pub games: Vec<&'c Game>,
    /// A report per game.
    pub reports: Vec<FlagsOutput>,
    /// BLAKE3 of the corpus files.
    pub hash: String,
}

/// The base readings of the one-at-a-time comparisons: the game's first (its source-named
/// reading) and `ludii`, where it has one.
fn bases(game: &Game) -> Vec<&crate::corpus::Interpretation> {
    let mut out: Vec<&crate::corpus::Interpretation> =
        game.interpretations.iter().take(1).collect();
    if let Some(l) = game.interpretation("ludii")
        && out.iter().all(|i| i.id != "ludii")
    {
        out.push(l);
    }
    out
}

/// Plays one arm of a comparison: games `0..n` of `key`, to the run's limit.
fn arm(
    exec: &Exec,
    args: &FlagsArgs,
    (game, reading): (&Game, &crate::corpus::Interpretation),
    b: &Bound,
    key: u64,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Tally {
    arm_to(
        exec,
        args,
        (game, reading),
        b,
        (key, 0..args.games, args.max_plies),
        pool,
        bar,
    )
}

/// Plays games `games` of one arm of a comparison to a given limit (the run's, or a raised
/// one).
fn arm_to(
    exec: &Exec,
    args: &FlagsArgs,
    (game, reading): (&Game, &crate::corpus::Interpretation),
    b: &Bound,
    (key, games, max_plies): (u64, std::ops::Range<u64>, u32),
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Tally {
    let spec = RunSpec {
        games: args.games,
        seed: args.seed,
        key,
        max_plies,
        max_quiet: limits::quiet_at((args.max_plies, args.max_quiet), max_plies),
        keep_records: false,
        metrics: false,
    };
    let task = Task {
        game: &game.id,
        reading: &reading.id,
        bound: b,
        spec: &spec,
        lineup: &args.lineup,
    };
    play_reading(exec, &task, games, pool, bar)
}

/// The arms of a game's comparisons, each played once: a reading as it stands (the `a` arm
/// of `diff R R`, on its streams) and a reading with parameters switched (the `b` arm).
struct Arms<'a> {
    exec: &'a Exec,
    game: &'a Game,
    args: &'a FlagsArgs,
    overrides: &'a serde_json::Map<String, Value>,
    pool: &'a rayon::ThreadPool,
    bar: &'a indicatif::ProgressBar,
    played: BTreeMap<(String, String), Tally>,
}

/// One comparison before Holm's correction: a reading against it with `sets` switched in.
pub(crate) struct Compared {
    pub(crate) base: String,
    pub(crate) sets: Vec<(String, Value)>,
    pub(crate) refused: Option<String>,
    /// Whether `refused` is the family's static check: no game of it can ever end.
    pub(crate) cannot_end: bool,
    pub(crate) raw: Vec<crate::analysis::diff::Raw>,
    /// Where either arm had censored games: the same metrics with both arms played to each
    /// raised limit.
    pub(crate) raised: Vec<(u32, Vec<crate::analysis::diff::Raw>)>,
}

impl<'a> Arms<'a> {
    fn new(
        exec: &'a Exec,
        game: &'a Game,
        args: &'a FlagsArgs,
        overrides: &'a serde_json::Map<String, Value>,
        pool: &'a rayon::ThreadPool,
        bar: &'a indicatif::ProgressBar,
    ) -> Self {
        Arms {
            exec,
            game,
            args,
            overrides,
            pool,
            bar,
            played: BTreeMap::new(),
        }
    }

    /// Plays the reading with `sets` switched in on the streams of `diff`'s arm `arm_name`
    /// (`a`, the reading as it stands; `b`, switched), unless played already; returns its
    /// key in `played`, or why the engine refuses it (and whether because it cannot end).
    fn play(
        &mut self,
        reading: &crate::corpus::Interpretation,
        arm_name: &str,
        sets: &[(String, Value)],
    ) -> Result<(String, String), (String, bool)> {
        self.play_to(reading, arm_name, sets, self.args.max_plies)
    }

    /// [`Arms::play`] to a given limit. Above the run's, only the games its limit stopped
    /// are played again ([`limits::raise`]): the others would play out the very same.
    fn play_to(
        &mut self,
        reading: &crate::corpus::Interpretation,
        arm_name: &str,
        sets: &[(String, Value)],
        max_plies: u32,
    ) -> Result<(String, String), (String, bool)> {
        let base = (
            format!("{}#{arm_name}", reading.id),
            serde_json::to_string(sets).unwrap_or_default(),
        );
        let (key, at_run) = if max_plies == self.args.max_plies {
            (base, None)
        } else {
            let at = self.play_to(reading, arm_name, sets, self.args.max_plies)?;
            if self.played[&at].censored_by_limit() == 0 {
                return Ok(at);
            }
            ((format!("{}@{max_plies}", at.0), at.1.clone()), Some(at))
        };
        if self.played.contains_key(&key) {
            return Ok(key);
        }
        let mut merged = self.overrides.clone();
        for (k, v) in sets {
            if merged.contains_key(k) {
                return Err((
                    format!("`{k}` is set by --set too: the comparison would not switch it"),
                    false,
                ));
            }
            merged.insert(k.clone(), v.clone());
        }
        let b = bind::bind(self.game, reading, &merged).map_err(|e| match e {
            // The reading is named by the row: the reason alone.
            bind::BindError::CannotEnd { reason, .. } => (reason, true),
            e => (e.to_string(), false),
        })?;
        let key_of_arm = arm_key(&self.game.id, &reading.id, arm_name);
        let play = |games, max_plies| {
            arm_to(
                self.exec,
                self.args,
                (self.game, reading),
                &b,
                (key_of_arm, games, max_plies),
                self.pool,
                self.bar,
            )
        };
        let t = match at_run {
            None => {
                self.bar.inc_length(self.args.games);
                play(0..self.args.games, max_plies)
            }
            Some(at) => {
                let at_run = &self.played[&at];
                self.bar.inc_length(2 * at_run.censored_by_limit());
                self.exec
                    .beyond_plan(|| limits::raise(at_run, (self.args.max_plies, max_plies), &play))
            }
        };
        self.played.insert(key.clone(), t);
        Ok(key)
    }

    /// A reading against it with `sets` switched in: the kept metrics of the two arms.
    fn compare(
        &mut self,
        reading: &crate::corpus::Interpretation,
        sets: &[(String, Value)],
    ) -> Result<Compared, Error> {
        let game = self.game;
        let a = self
            .play(reading, "a", &[])
            .map_err(|(e, _)| Error::Usage(format!("{} reading {}: {e}", game.id, reading.id)))?;
        let metrics = |arms: &Self, a: &(String, String), b: &(String, String)| {
            raw_metrics(
                &arms.played[a],
                &arms.played[b],
                &arms.args.lineup,
                arms.args.seed,
                &kept,
            )
            .into_iter()
            .filter(|r| kept(&r.name))
            .collect::<Vec<_>>()
        };
        let (refused, cannot_end, raw, raised) = match self.play(reading, "b", sets) {
            Err((why, cannot_end)) => (Some(why), cannot_end, Vec::new(), Vec::new()),
            Ok(b) => {
                let raw = metrics(self, &a, &b);
                let mut raised = Vec::new();
                if limits::censored(&[&self.played[&a], &self.played[&b]]) {
                    for limit in limits::raised(self.args.max_plies) {
                        let at = |arms: &mut Self, name, sets| {
                            arms.play_to(reading, name, sets, limit).map_err(|(e, _)| {
                                Error::Usage(format!("{} reading {}: {e}", game.id, reading.id))
                            })
                        };
                        let a = at(self, "a", &[])?;
                        let b = at(self, "b", sets)?;
                        raised.push((limit, metrics(self, &a, &b)));
                    }
                }
                (None, false, raw, raised)
            }
        };
        Ok(Compared {
            base: reading.id.clone(),
            sets: sets.to_vec(),
            refused,
            cannot_end,
            raw,
            raised,
        })
    }
}

/// Holm-corrects a family of comparisons and finishes each: its metrics and the `diff`
/// command that plays the same two arms.
pub(crate) fn finish_all(
    game: &Game,
    args: &FlagsArgs,
    rows: Vec<Compared>,
) -> Vec<(Compared, Vec<Metric>, String)> {
    let ps: Vec<f64> = rows
        .iter()
        .flat_map(|r| r.raw.iter().map(|m| m.p))
        .collect();
    let mut adjusted = holm(&ps).into_iter();
    // Each raised limit's metrics Holm-corrected across the comparisons checked at it.
    let limits: Vec<u32> = rows
        .iter()
        .flat_map(|r| r.raised.iter().map(|(l, _)| *l))
        .fold(Vec::new(), |mut v, l| {
            if !v.contains(&l) {
                v.push(l);
            }
            v
        });
    let mut raised_adjusted: Vec<std::vec::IntoIter<f64>> = limits
        .iter()
        .map(|&l| {
            let ps: Vec<f64> = rows
                .iter()
                .flat_map(|r| r.raised.iter().filter(move |(x, _)| *x == l))
                .flat_map(|(_, raw)| raw.iter().map(|m| m.p))
                .collect();
            holm(&ps).into_iter()
        })
        .collect();
    rows.into_iter()
        .map(|mut r| {
            // The `diff` of this arm against its base, on the very games compared here.
            let mut cmd = Reproduce::new("diff", args.corpus.as_deref());
            cmd.word(&game.id)
                .word(&r.base)
                .word(&r.base)
                .option("-n", args.games)
                .option("--seed", args.seed)
                .limits(args.max_plies, args.max_quiet)
                .lineup(&args.lineup);
            for s in &args.set {
                cmd.option("--set", s);
            }
            for (k, v) in &r.sets {
                cmd.option("--set-b", format!("{k}={v}"));
            }
            let cmd = cmd.line();
            let mut metrics: Vec<Metric> = std::mem::take(&mut r.raw)
                .into_iter()
                .map(|m| finish(m, adjusted.next().unwrap_or(1.0)))
                .collect();
            let at: Vec<(u32, Vec<Metric>)> = std::mem::take(&mut r.raised)
                .into_iter()
                .map(|(limit, raw)| {
                    let k = limits.iter().position(|&l| l == limit).expect("listed");
                    let ps = &mut raised_adjusted[k];
                    let finished = raw
                        .into_iter()
                        .map(|m| finish(m, ps.next().unwrap_or(1.0)))
                        .collect();
                    (limit, finished)
                })
                .collect();
            attach_raised(&mut metrics, &at);
            (r, metrics, cmd)
        })
        .collect()
}

/// The largest change in an outcome rate (the mean length aside) among comparisons, each
/// given as (base reading, what was switched in, its metrics).
pub(crate) fn largest<'m>(
    rows: impl Iterator<Item = (&'m str, &'m str, &'m [Metric])>,
) -> Option<Effect> {
    rows.flat_map(|(base, to, metrics)| {
        // A verdict that moves with the limit is not a rule effect.
        metrics
            .iter()
            .filter(|m| m.metric != "plies_mean" && !m.limit_sensitive)
            .map(move |m| (base, to, m))
    })
    .max_by(|(_, _, x), (_, _, y)| {
        x.difference
            .value
            .abs()
            .total_cmp(&y.difference.value.abs())
    })
    .map(|(base, to, m)| Effect {
        base: base.to_owned(),
        option: to.to_owned(),
        metric: m.metric.clone(),
        difference: Rate {
            value: m.difference.value,
            lo: m.difference.lo,
            hi: m.difference.hi,
        },
        p_adjusted: m.p_adjusted,
        verdict: m.verdict.clone(),
    })
}

/// The one-at-a-time sensitivity of a game: from each base reading, each option it does not
/// take switched in alone, played on the arms of `diff BASE BASE --set-b …` (the base on
/// arm A's streams, the option on arm B's), every kept metric Holm-corrected across the
/// game's comparisons, and the choices ranked by their largest change in a rate.
fn one_at_a_time(arms: &mut Arms) -> Result<Sensitivity, Error> {
    let game = arms.game;
    let mut rows: Vec<(&str, &str, Compared)> = Vec::new();
    for base in bases(game) {
        for choice in &game.choices {
            let taken = base.chosen(&choice.id);
            for option in choice
                .options
                .iter()
                .filter(|o| Some(o.id.as_str()) != taken)
            {
                let sets = game.switch_sets(base, choice, option);
                let c = arms.compare(base, &sets)?;
                rows.push((&choice.id, &option.id, c));
            }
        }
    }
    let (ids, compared): (Vec<(&str, &str)>, Vec<Compared>) =
        rows.into_iter().map(|(c, o, r)| ((c, o), r)).unzip();
    let one_at_a_time: Vec<OneAtATime> = ids
        .into_iter()
        .zip(finish_all(game, arms.args, compared))
        .map(|((choice, option), (r, metrics, reproduce))| OneAtATime {
            base: r.base,
            choice: choice.to_owned(),
            option: option.to_owned(),
            sets: r.sets.into_iter().collect(),
            refused: r.refused,
            cannot_end: r.cannot_end,
            metrics,
            reproduce,
        })
        .collect();
    let mut ranking: Vec<Ranked> = game
        .choices
        .iter()
        .map(|c| Ranked {
            choice: c.id.clone(),
            effect: largest(
                one_at_a_time
                    .iter()
                    .filter(|o| o.choice == c.id)
                    .map(|o| (o.base.as_str(), o.option.as_str(), &o.metrics[..])),
            ),
        })
        .collect();
    // Largest first; choices never measured last, in the ruleset's order (a stable sort).
    ranking.sort_by(|x, y| {
        let size = |r: &Ranked| r.effect.as_ref().map(|e| e.difference.value.abs());
        size(y)
            .partial_cmp(&size(x))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(Sensitivity {
        one_at_a_time,
        ranking,
        engine_artefacts: Vec::new(),
        global: None,
        global_design: None,
        cannot_end_left_out: 0,
    })
}

/// Each engine artefact switched off in each reading that carries it, in every way the
/// corpus offers (each other option of its choice, or the family's default), Holm-corrected
/// across the game's artefacts; each artefact's flag gets its frequency (from the readings'
/// tallies) and its largest change.
fn switched_off(
    arms: &mut Arms,
    artefacts: &mut [Artefact],
    tallies: &[(&str, &Tally)],
) -> Result<Vec<SwitchedOff>, Error> {
    let game = arms.game;
    let mut ids: Vec<(usize, String)> = Vec::new();
    let mut compared = Vec::new();
    for (i, a) in artefacts.iter().enumerate() {
        for reading in &a.flag.readings {
            let Some(interp) = game.interpretation(reading) else {
                continue;
            };
            for off in &a.offs {
                compared.push(arms.compare(interp, &off.sets(game, interp))?);
                ids.push((i, off.to().to_owned()));
            }
        }
    }
    let rows: Vec<SwitchedOff> = ids
        .into_iter()
        .zip(finish_all(game, arms.args, compared))
        .map(|((i, to), (r, metrics, reproduce))| SwitchedOff {
            artefact: artefacts[i].flag.id.clone(),
            reading: r.base,
            to,
            sets: r.sets.into_iter().collect(),
            refused: r.refused,
            cannot_end: r.cannot_end,
            metrics,
            reproduce,
        })
        .collect();
    for a in artefacts.iter_mut() {
        a.flag.frequency = Some(artefact_frequency(a, tallies));
        a.flag.effect = largest(
            rows.iter()
                .filter(|r| r.artefact == a.flag.id)
                .map(|r| (r.reading.as_str(), r.to.as_str(), &r.metrics[..])),
        );
    }
    Ok(rows)
}

/// A `cannot-end` flag for each combination the comparisons (one at a time, artefacts
/// switched off) or the global design left out because no game of it can ever end, and the
/// count of comparisons left out in `sensitivity`. One flag per combination and reason, with
/// every base reading it was met in.
fn cannot_end_flags(sensitivity: &mut Sensitivity) -> Vec<Flag> {
    // (switched in, reason) → readings
    let mut found: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut left_out = 0;
    let sets_words = |sets: &BTreeMap<String, Value>| {
        sets.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let rows = sensitivity
        .one_at_a_time
        .iter()
        .map(|o| {
            (
                o.cannot_end,
                format!("{}={}", o.choice, o.option),
                &o.base,
                &o.refused,
            )
        })
        .chain(sensitivity.engine_artefacts.iter().map(|a| {
            (
                a.cannot_end,
                format!("{} off ({})", a.artefact, sets_words(&a.sets)),
                &a.reading,
                &a.refused,
            )
        }));
    for (cannot_end, what, base, why) in rows {
        if !cannot_end {
            continue;
        }
        left_out += 1;
        let readings = found
            .entry((what, why.clone().unwrap_or_default()))
            .or_default();
        if !readings.contains(base) {
            readings.push(base.clone());
        }
    }
    sensitivity.cannot_end_left_out = left_out;
    let mut flags: Vec<Flag> = found
        .into_iter()
        .map(|((what, why), readings)| Flag {
            kind: FlagKind::CannotEnd,
            id: format!("cannot-end:{what}"),
            title: format!("{what} in {}: no game can end", readings.join(", ")),
            text: why,
            cites: Vec::new(),
            readings,
            options: Vec::new(),
            frequency: None,
            effect: None,
            finishing: None,
        })
        .collect();
    if let Some(d) = &sensitivity.global_design {
        for c in &d.cannot_end_combinations {
            flags.push(Flag {
                kind: FlagKind::CannotEnd,
                id: format!("cannot-end:global:{}", c.combination),
                title: format!("{} in the global design: no game can end", c.combination),
                text: c.reason.clone(),
                cites: Vec::new(),
                readings: vec![d.frame.clone()],
                options: Vec::new(),
                frequency: None,
                effect: None,
                finishing: None,
            });
        }
    }
    flags
}

/// The command that reproduces a `flags` output.
pub fn command_line(args: &FlagsArgs) -> String {
    let mut r = Reproduce::new("flags", args.corpus.as_deref());
    if let Some(g) = &args.game {
        r.word(g);
    }
    r.option("-n", args.games)
        .option("--seed", args.seed)
        .limits(args.max_plies, args.max_quiet)
        .lineup(&args.lineup);
    for s in &args.set {
        r.option("--set", s);
    }
    if let Some(n) = args.global {
        r.switch("--global").option("--design", n);
    }
    if let Some(n) = args.global_games {
        r.option("--global-games", n);
    }
    r.line()
}
