//! `ludotrace diff`: does reading B change the game, compared with reading A?
//!
//! The rules side lists the choices on which the two readings differ, each option with its
//! words, its provenance class in its reading and the parameters it sets. The outcome side
//! plays both arms by seeded random play on independent streams (so a reading diffed with
//! itself is an honest A/A test) and gives, for each metric, both values, the difference
//! B − A with its 95 % interval, the p-value Holm-adjusted across every metric of the
//! command, and a verdict. Rates are compared by Newcombe's interval and the outcome-table
//! test of [`crate::stats::compare`]; lengths by a seeded bootstrap interval and
//! Mann–Whitney's test.
//!
//! The result (JSON schema_version 1) is a pure function of the corpus, the game, the two
//! readings and their overrides, the seed, the number of games, the ply limit and the
//! ludotrace version, at any thread count.

use std::collections::BTreeMap;
use std::ops::Range;

use indicatif::ProgressBar;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::agents::Lineup;
use crate::analysis::Error;
use crate::analysis::header::{Header, Played};
use crate::analysis::limits;
use crate::analysis::play::{
    check_numbers, check_quiet, check_rotation, check_seated, corpus_hash, play_reading, pool,
};
use crate::analysis::reproduce::Reproduce;
use crate::bind::{self, Bound};
use crate::collate::{WordRun, word_runs};
use crate::corpus::{CorpusFiles, Game, Interpretation};
use crate::exec::{Exec, Task};
use crate::rng;
use crate::sim::{RunSpec, Tally};
use crate::stats::compare::{
    Statistic, bootstrap_interval, holm, mann_whitney, newcombe_difference, outcome_test,
};
use crate::stats::round;

/// The significance level of a verdict, after Holm's correction.
pub const ALPHA: f64 = 0.05;
/// Bootstrap rounds for the interval of a difference of lengths.
pub const BOOTSTRAP_REPLICATES: u32 = 2000;
/// The most games an arm of a diff may play: the length tests hold every game's length in
/// memory (four bytes a game, an arm), far more than a difference needs to show.
pub const MAX_DIFF_GAMES: u64 = 10_000_000;
/// `--precision`'s default: the half-width of the interval of the difference in the first
/// mover's win rate that `--games auto` plays to.
pub const DEFAULT_PRECISION: f64 = 0.01;
/// The finest `--precision`: about two million games an arm where the rates are near one
/// half.
pub const MIN_PRECISION: f64 = 0.001;
/// The coarsest `--precision`.
pub const MAX_PRECISION: f64 = 0.5;
/// The fewest games `--games auto` plays first, before it has rates to plan by.
pub const AUTO_FIRST_GAMES: u64 = 100;

/// How many games an arm of a diff plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DiffGames {
    /// This many.
    Count(u64),
    /// As many as it takes for the 95 % interval of the difference in the first mover's win
    /// rate (of every comparison) to have at most this half-width.
    Auto {
        /// The half-width.
        precision: f64,
    },
}

/// What the user asked `diff` for.
#[derive(Debug, Clone)]
pub struct DiffArgs {
    /// Game id.
    pub game: String,
    /// Reading A (the base).
    pub a: String,
    /// Reading B; `None` with `against`: every other reading of the game.
    pub b: Option<String>,
    /// Compare every other reading of the game with A, in one table (`--against A`).
    pub against: bool,
    /// Games per arm.
    pub games: DiffGames,
    /// Who plays which seat (in both arms).
    pub lineup: Lineup,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Plies with no change in any seat's material after which a game of a reading without
    /// an engine cap is stopped, censored (`0`: never).
    pub max_quiet: u32,
    /// `PARAM=VALUE` overrides of both arms.
    pub set: Vec<String>,
    /// Overrides of arm A only.
    pub set_a: Vec<String>,
    /// Overrides of arm B only.
    pub set_b: Vec<String>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
}

/// `diff --format json`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiffOutput {
    /// What was played, with which corpus and seed, by whom (the fields every played
    /// output opens with).
    #[serde(flatten)]
    pub header: Header,
    /// Reading A (the base).
    pub a: String,
    /// Reading B (compared with A).
    pub b: String,
    /// Each arm's overrides, parameter → value (`--set` and its own `--set-a`/`--set-b`).
    pub overrides: ArmOverrides,
    /// How `--games auto` chose `games` (absent when the games were given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto: Option<AutoGames>,
    /// The choices on which A and B take different options.
    pub rules: Vec<RuleDifference>,
    /// The outcome metrics, in a fixed order: seats' and first mover's wins, draws,
    /// timeouts, lengths, then events.
    pub metrics: Vec<Metric>,
    /// Each arm's games stopped by the run's ply limit (censored: outcome unknown). Where
    /// either is above 0, every metric was computed again at raised limits
    /// (`at_raised_limits`).
    pub censored: ArmCensored,
}

/// Each arm's censored games.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct ArmCensored {
    /// Arm A's.
    pub a: u64,
    /// Arm B's.
    pub b: u64,
}

/// `diff GAME --against A --format json`: every other reading of the game against A, with
/// one Holm correction across every metric of every comparison.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiffAgainstOutput {
    /// What was played, with which corpus and seed, by whom (the fields every played
    /// output opens with).
    #[serde(flatten)]
    pub header: Header,
    /// The reading every other is compared with.
    pub base: String,
    /// How `--games auto` chose `games` (absent when the games were given; in each
    /// comparison its own half-width, here the widest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auto: Option<AutoGames>,
    /// One diff per other reading, in the ruleset's order (`p_adjusted` corrected across
    /// all of them).
    pub comparisons: Vec<DiffOutput>,
}

/// What `--games auto` aimed at and reached.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct AutoGames {
    /// The half-width asked for (`--precision`).
    pub precision: f64,
    /// The half-width reached at `games`: of this comparison's interval of the difference in
    /// the first mover's win rate (of `--against`'s whole output: the widest of them).
    pub half_width: f64,
    /// Whether the precision was reached in every comparison (not, only if the games reached
    /// the most a diff plays).
    pub reached: bool,
}

/// Each arm's overrides.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ArmOverrides {
    /// Arm A's.
    pub a: BTreeMap<String, Value>,
    /// Arm B's.
    pub b: BTreeMap<String, Value>,
}

/// A choice on which the readings differ.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RuleDifference {
    /// Choice id.
    pub choice: String,
    /// The question it answers.
    pub question: String,
    /// A's option.
    pub a: Side,
    /// B's option.
    pub b: Side,
    /// The two options' words, A's to B's, word by word.
    pub words: Vec<WordRun>,
}

/// One reading's option of a choice.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Side {
    /// Option id.
    pub option: String,
    /// In words.
    pub says: String,
    /// Its provenance class in that reading: `grounded`, `borrowed` or `interpolated`.
    pub class: String,
    /// The parameters it sets, parameter → value.
    pub sets: BTreeMap<String, Value>,
}

/// One outcome metric under both readings.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Metric {
    /// `p1_win` … (every seat the game has), `first_mover_win`, `draw`, `timeout`,
    /// `agent_win:<agent>` (where two or more different agents played: the share of the
    /// seats the agent held, over the games, that won), `plies_mean`, `plies_median`, `turns_mean`, or
    /// `event:<name>` (the share of games in which the event occurred).
    pub metric: String,
    /// The value under A (a rate from 0 to 1, or a length in plies or turns).
    pub a: f64,
    /// The value under B.
    pub b: f64,
    /// B − A with its 95 % interval (Newcombe's for rates, a seeded percentile bootstrap for
    /// lengths).
    pub difference: Difference,
    /// The p-value (an outcome-table test for rates, Mann–Whitney for lengths) after Holm's
    /// correction across every metric of the command.
    pub p_adjusted: f64,
    /// `differs` (adjusted p below 0.05) or `no difference detected` (at the games played).
    pub verdict: String,
    /// Whether the verdict changes when the run's ply limit is raised (see
    /// `at_raised_limits`): then it measures where the limit sits, not the rules, and is not
    /// a rule effect. Always false when no game of either arm was censored.
    pub limit_sensitive: bool,
    /// The same metric with both arms played again at raised limits (twice and four times
    /// the run's), where either arm had games stopped by the limit (censored); absent
    /// otherwise. Each game's own stream makes the replay exact: the games that finished
    /// play out the same, the censored ones go on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub at_raised_limits: Vec<AtLimit>,
}

/// Adds to each metric its values and verdicts at the raised limits (`at`: a limit and the
/// metrics computed with both arms played to it), matched by name, and marks the metrics
/// whose verdict changes as limit-sensitive.
pub(crate) fn attach_raised(metrics: &mut [Metric], at: &[(u32, Vec<Metric>)]) {
    for m in metrics.iter_mut() {
        for (limit, raised) in at {
            if let Some(r) = raised.iter().find(|r| r.metric == m.metric) {
                m.limit_sensitive |= r.verdict != m.verdict;
                m.at_raised_limits.push(AtLimit {
                    max_plies: *limit,
                    a: r.a,
                    b: r.b,
                    difference: r.difference.clone(),
                    p_adjusted: r.p_adjusted,
                    verdict: r.verdict.clone(),
                });
            }
        }
    }
}

/// A metric's verdict at a raised limit.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AtLimit {
    /// The raised `--max-plies`.
    pub max_plies: u32,
    /// The value under A at this limit.
    pub a: f64,
    /// The value under B.
    pub b: f64,
    /// B − A with its 95 % interval.
    pub difference: Difference,
    /// The p-value after Holm's correction across every metric of the command at this
    /// limit.
    pub p_adjusted: f64,
    /// `differs` or `no difference detected`, as at the run's limit.
    pub verdict: String,
}

/// A difference with its interval.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Difference {
    /// B − A.
    pub value: f64,
    /// The interval's lower bound.
    pub lo: f64,
    /// The interval's upper bound.
    pub hi: f64,
}

/// What `diff` computed: each comparison of B against A, the games each arm played, and
/// under `--games auto` the widest comparison's precision.
#[derive(Debug)]
pub struct Diff<'c> {
    /// The game.
    pub game: &'c Game,
    /// One comparison per reading B, in the order asked.
    pub comparisons: Vec<DiffOutput>,
    /// Games per arm.
    pub games: u64,
    /// `--games auto`'s outcome across every comparison (the widest half-width).
    pub auto: Option<AutoGames>,
    /// BLAKE3 of the corpus files.
    pub hash: String,
}

/// The key of arm `arm` (`a` or `b`) of a diff of `reading`: its own streams, so that the
/// two arms never share games, even when they are the same reading.
pub fn arm_key(game: &str, reading: &str, arm: &str) -> u64 {
    rng::reading_key(game, &format!("{reading}#diff-{arm}"))
}

/// Runs `diff`.
///
/// # Errors
/// Bad numbers, an unknown game or reading (listing the valid ones), bad overrides.
pub fn diff<'c>(
    exec: &Exec,
    corpus: &'c crate::corpus::Corpus,
    files: &CorpusFiles,
    args: &DiffArgs,
    bar: &ProgressBar,
) -> Result<Diff<'c>, Error> {
    match args.games {
        DiffGames::Count(n) => {
            if !(1..=MAX_DIFF_GAMES).contains(&n) {
                return Err(Error::Usage(format!(
                    "--games must be 1 to {MAX_DIFF_GAMES} for diff (its length tests keep \
                     every game's length), not {n}"
                )));
            }
            check_numbers(n, args.max_plies, args.threads)?;
            check_quiet(args.max_quiet)?;
            check_rotation(n, &args.lineup, MAX_DIFF_GAMES)?;
        }
        DiffGames::Auto { precision } => {
            check_numbers(1, args.max_plies, args.threads)?;
            check_quiet(args.max_quiet)?;
            if !(MIN_PRECISION..=MAX_PRECISION).contains(&precision) {
                return Err(Error::Usage(format!(
                    "--precision must be {MIN_PRECISION} to {MAX_PRECISION} (the half-width \
                     of the interval of a difference of two rates), not {precision}"
                )));
            }
        }
    }
    let game = crate::analysis::game_of(corpus, &args.game)?;
    let ia = crate::analysis::interpretation_of(game, &args.a)?;
    let others: Vec<&Interpretation> = match &args.b {
        Some(b) => vec![crate::analysis::interpretation_of(game, b)?],
        None => game
            .interpretations
            .iter()
            .filter(|i| i.id != ia.id)
            .collect(),
    };
    if others.is_empty() {
        return Err(Error::Usage(format!(
            "game `{}` has no reading but `{}` to compare with it",
            game.id, ia.id
        )));
    }
    // An arm's own overrides (`--set-a`, `--set-b`) take precedence over `--set`, which
    // both arms share; an error in one names its flag.
    let shared = bind::parse_overrides(&args.set)?;
    let arm = |interp: &Interpretation, flag: &str, own: &[String]| -> Result<Bound, Error> {
        let mut overrides = shared.clone();
        let own = bind::parse_overrides(own).map_err(|e| Error::Usage(format!("{flag}: {e}")))?;
        overrides.extend(own);
        bind::bind(game, interp, &overrides).map_err(|e| Error::Usage(format!("{flag}: {e}")))
    };
    let ba = arm(ia, "reading A", &args.set_a)?;
    let bound: Vec<Bound> = others
        .iter()
        .map(|i| arm(i, &format!("reading {}", i.id), &args.set_b))
        .collect::<Result<_, _>>()?;
    for (i, b) in std::iter::once(ia)
        .zip([&ba])
        .chain(others.iter().copied().zip(&bound))
    {
        check_seated(&args.lineup, b)?;
        crate::analysis::perfect::check_perfect(&args.lineup, b, &i.id, None)?;
    }
    let pool = pool(args.threads)?;
    let arms = 1 + others.len() as u64;
    // Plays games `range` of an arm; merged with the arm's earlier games, they are the
    // games `0..range.end` (`sim::run_games`).
    let play_to = |interp: &Interpretation,
                   b: &Bound,
                   tag: &str,
                   games: Range<u64>,
                   max_plies: u32|
     -> Tally {
        let spec = RunSpec {
            games: games.end,
            seed: args.seed,
            key: arm_key(&game.id, &interp.id, tag),
            max_plies,
            max_quiet: limits::quiet_at((args.max_plies, args.max_quiet), max_plies),
            keep_records: false,
            metrics: false,
        };
        let task = Task {
            game: &game.id,
            reading: &interp.id,
            bound: b,
            spec: &spec,
            lineup: &args.lineup,
        };
        play_reading(exec, &task, games, &pool, bar)
    };
    let play = |interp: &Interpretation, b: &Bound, tag: &str, games: Range<u64>| {
        play_to(interp, b, tag, games, args.max_plies)
    };
    // A is played once; each B on its own streams. `--games auto` plays on in rounds until
    // every comparison's first-mover difference is known to the precision.
    let mut n = match args.games {
        DiffGames::Count(n) => n,
        DiffGames::Auto { precision } => first_round(precision, &args.lineup),
    };
    let mut done = 0;
    let mut ta: Option<Tally> = None;
    let mut tallies: Vec<Tally> = Vec::new();
    let auto = loop {
        bar.inc_length(arms * (n - done));
        let more = |t: Option<Tally>, interp, b, tag| {
            let new = play(interp, b, tag, done..n);
            match t {
                Some(mut t) => {
                    t.merge(new);
                    t
                }
                None => new,
            }
        };
        ta = Some(more(ta.take(), ia, &ba, "a"));
        let old = std::mem::take(&mut tallies);
        let mut old = old.into_iter();
        tallies = others
            .iter()
            .zip(&bound)
            .map(|(i, b)| more(old.next(), i, b, "b"))
            .collect();
        done = n;
        let DiffGames::Auto { precision } = args.games else {
            break None;
        };
        let a = ta.as_ref().expect("played");
        let half_width = tallies
            .iter()
            .map(|b| first_mover_half_width(a, b))
            .fold(0.0, f64::max);
        let reached = half_width <= precision;
        if reached || n >= MAX_DIFF_GAMES {
            break Some((precision, half_width, reached));
        }
        n = next_round(n, half_width, precision, &args.lineup);
    };
    let ta = ta.expect("played");
    // Where the limit stopped games of an arm, those games are played again at each raised
    // limit (the others would play out the very same).
    let mut raised: Vec<(u32, Vec<Vec<Metric>>)> = Vec::new();
    if tallies.iter().any(|tb| limits::censored(&[&ta, tb])) {
        for limit in limits::raised(args.max_plies) {
            let again = |t: &Tally, interp: &Interpretation, b: &Bound, tag: &str| {
                bar.inc_length(2 * t.censored_by_limit());
                exec.beyond_plan(|| {
                    limits::raise(t, (args.max_plies, limit), &|games, max_plies| {
                        play_to(interp, b, tag, games, max_plies)
                    })
                })
            };
            let ta_m = again(&ta, ia, &ba, "a");
            let tbs: Vec<Tally> = others
                .iter()
                .zip(&bound)
                .zip(&tallies)
                .map(|((i, b), t)| again(t, i, b, "b"))
                .collect();
            let raws: Vec<Vec<Raw>> = tbs
                .iter()
                .map(|tb| raw_metrics(&ta_m, tb, &args.lineup, args.seed, &|_| true))
                .collect();
            let mut adjusted =
                holm(&raws.iter().flatten().map(|r| r.p).collect::<Vec<_>>()).into_iter();
            let finished = raws
                .into_iter()
                .map(|raw| {
                    raw.into_iter()
                        .map(|r| finish(r, adjusted.next().unwrap_or(1.0)))
                        .collect()
                })
                .collect();
            raised.push((limit, finished));
        }
    }
    bar.finish_and_clear();
    // Each comparison's own half-width; the command's is the widest.
    let auto_of = |tb: Option<&Tally>| {
        auto.map(|(precision, widest, reached)| AutoGames {
            precision,
            half_width: round(tb.map_or(widest, |tb| first_mover_half_width(&ta, tb)), 6),
            reached,
        })
    };
    // One Holm correction across every metric of the command.
    let raws: Vec<Vec<Raw>> = tallies
        .iter()
        .map(|tb| raw_metrics(&ta, tb, &args.lineup, args.seed, &|_| true))
        .collect();
    let mut adjusted = holm(&raws.iter().flatten().map(|r| r.p).collect::<Vec<_>>()).into_iter();
    let hash = corpus_hash(files);
    let mut comparisons: Vec<DiffOutput> = others
        .iter()
        .zip(&bound)
        .zip(raws)
        .zip(&tallies)
        .map(|(((ib, bb), raw), tb)| DiffOutput {
            header: Header::new(
                Played {
                    game: &game.id,
                    corpus_hash: &hash,
                    seed: args.seed,
                    games: n,
                    max_plies: args.max_plies,
                    max_quiet: args.max_quiet,
                },
                &args.lineup,
                ta.wins.len().max(tb.wins.len()),
            ),
            a: ia.id.clone(),
            b: ib.id.clone(),
            overrides: ArmOverrides {
                a: ba.overrides.clone().into_iter().collect(),
                b: bb.overrides.clone().into_iter().collect(),
            },
            auto: auto_of(Some(tb)),
            rules: rule_differences(game, ia, ib),
            metrics: raw
                .into_iter()
                .map(|r| finish(r, adjusted.next().unwrap_or(1.0)))
                .collect(),
            censored: ArmCensored {
                a: ta.censored(),
                b: tb.censored(),
            },
        })
        .collect();
    for (k, c) in comparisons.iter_mut().enumerate() {
        let at: Vec<(u32, Vec<Metric>)> = raised
            .iter_mut()
            .map(|(limit, per)| (*limit, std::mem::take(&mut per[k])))
            .collect();
        attach_raised(&mut c.metrics, &at);
    }
    Ok(Diff {
        game,
        comparisons,
        games: n,
        auto: auto_of(None),
        hash,
    })
}

/// The games `--games auto` plays first: a quarter of what the precision would take were
/// both first-mover rates one half (the worst case), at least [`AUTO_FIRST_GAMES`], in whole
/// rotations.
pub(crate) fn first_round(precision: f64, lineup: &Lineup) -> u64 {
    let worst = Z95 * Z95 * 0.5 / (precision * precision);
    whole_rotations(((worst / 4.0).ceil() as u64).max(AUTO_FIRST_GAMES), lineup)
}

/// The games of the next round of `--games auto`: the interval's half-width shrinks as
/// 1/√n, so n grows by the square of how far it is from the precision (and a twentieth
/// more, so that a round seldom falls just short), by at least a tenth, within the bound.
pub(crate) fn next_round(n: u64, half_width: f64, precision: f64, lineup: &Lineup) -> u64 {
    let ratio = crate::stats::portable::sq(half_width / precision) * 1.05;
    let next = ((n as f64) * ratio).ceil().min(MAX_DIFF_GAMES as f64) as u64;
    let next = next.max(n + n.div_ceil(10));
    whole_rotations(next, lineup).min(MAX_DIFF_GAMES / lineup.rotation() * lineup.rotation())
}

/// `n` rounded up to a whole number of the lineup's rotations.
fn whole_rotations(n: u64, lineup: &Lineup) -> u64 {
    n.div_ceil(lineup.rotation()) * lineup.rotation()
}

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The half-width of the interval of the difference in the first mover's win rate.
fn first_mover_half_width(a: &Tally, b: &Tally) -> f64 {
    let first = |t: &Tally| t.order_wins.first().copied().unwrap_or(0);
    newcombe_difference(first(b), b.games, first(a), a.games).map_or(1.0, |d| (d.hi - d.lo) / 2.0)
}

/// The choices on which two readings take different options.
pub(crate) fn rule_differences(
    game: &Game,
    a: &Interpretation,
    b: &Interpretation,
) -> Vec<RuleDifference> {
    let taken = |i: &Interpretation, choice: &str| {
        i.choose
            .iter()
            .find(|(c, _)| c == choice)
            .map(|(_, o)| o.clone())
    };
    let side = |i: &Interpretation, choice: &crate::corpus::Choice, option: &str| {
        let o = choice.options.iter().find(|o| o.id == option);
        Side {
            option: option.to_owned(),
            says: o.map(|o| o.says.clone()).unwrap_or_default(),
            class: i
                .provenance
                .choice(&choice.id)
                .map_or("", |k| k.class.as_str())
                .to_owned(),
            sets: o
                .map(|o| o.sets.iter().cloned().collect())
                .unwrap_or_default(),
        }
    };
    game.choices
        .iter()
        .filter_map(|choice| {
            let (oa, ob) = (taken(a, &choice.id)?, taken(b, &choice.id)?);
            (oa != ob).then(|| {
                let (a, b) = (side(a, choice, &oa), side(b, choice, &ob));
                RuleDifference {
                    choice: choice.id.clone(),
                    question: choice.question.clone(),
                    words: word_runs(&a.says, &b.says),
                    a,
                    b,
                }
            })
        })
        .collect()
}

/// A metric before Holm's correction.
pub(crate) struct Raw {
    pub(crate) name: String,
    a: f64,
    b: f64,
    difference: Difference,
    pub(crate) p: f64,
}

/// Every metric of two tallies that `keep` keeps (by name), before Holm's correction. (The
/// lengths' bootstrap is the costly part: a metric not kept is not computed.)
pub(crate) fn raw_metrics(
    a: &Tally,
    b: &Tally,
    lineup: &Lineup,
    seed: u64,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<Raw> {
    let (na, nb) = (a.games, b.games);
    let mut raw = Vec::new();
    // A rate: ka of na games under A, kb of nb under B.
    let rate_of = |name: String, ka: u64, na: u64, kb: u64, nb: u64| {
        let d = newcombe_difference(kb, nb, ka, na);
        let table = [vec![ka, na - ka], vec![kb, nb - kb]];
        // One outcome column only (nobody won, in either arm): no evidence of a difference.
        let p = outcome_test(&table, seed).map_or(1.0, |t| t.result.p);
        Raw {
            name,
            a: ka as f64 / na as f64,
            b: kb as f64 / nb as f64,
            difference: d.map_or(
                Difference {
                    value: 0.0,
                    lo: 0.0,
                    hi: 0.0,
                },
                |d| Difference {
                    value: d.value,
                    lo: d.lo,
                    hi: d.hi,
                },
            ),
            p,
        }
    };
    let rate = |name: String, ka: u64, kb: u64| rate_of(name, ka, na, kb, nb);
    let seats = a.wins.len().max(b.wins.len());
    let win = |t: &Tally, s: usize| t.wins.get(s).copied().unwrap_or(0);
    for s in 0..seats {
        raw.push(rate(format!("p{}_win", s + 1), win(a, s), win(b, s)));
    }
    let first = |t: &Tally| t.order_wins.first().copied().unwrap_or(0);
    raw.push(rate("first_mover_win".to_owned(), first(a), first(b)));
    raw.push(rate("draw".to_owned(), a.draws, b.draws));
    raw.push(rate("timeout".to_owned(), a.timeouts, b.timeouts));
    // Each agent's share of the seats it held that won (where several agents played).
    for ((agent, ta), tb) in lineup.distinct().iter().zip(&a.agents).zip(&b.agents) {
        raw.push(rate_of(
            format!("agent_win:{agent}"),
            ta.seat_wins_total(),
            ta.seat_games_total(),
            tb.seat_wins_total(),
            tb.seat_games_total(),
        ));
    }
    let fixed = raw.len();
    // The game's events that occurred in either arm, in the family's order (both arms are
    // one game, so one family). The provenance flags a run also counts (`uncovered:`,
    // `borrowed:`) say what a reading rests on, not what happened in its games: not compared.
    fn kinds(t: &Tally) -> Vec<(&str, u64)> {
        t.kind_names
            .iter()
            .zip(&t.events)
            .map(|(n, &(games, _))| (n.as_str(), games))
            .collect()
    }
    let (ka, kb) = (kinds(a), kinds(b));
    let games_with =
        |k: &[(&str, u64)], name: &str| k.iter().find(|(n, _)| *n == name).map_or(0, |&(_, g)| g);
    let names: Vec<&str> = ka
        .iter()
        .chain(&kb)
        .filter(|(_, games)| *games > 0)
        .map(|&(n, _)| n)
        .collect();
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if seen.insert(name) && keep(&format!("event:{name}")) {
            raw.push(rate(
                format!("event:{name}"),
                games_with(&ka, name),
                games_with(&kb, name),
            ));
        }
    }
    let events = raw.split_off(fixed);
    // Lengths: a bootstrap interval of B − A and Mann–Whitney's test.
    let (pa, pb) = (a.plies.values(), b.plies.values());
    let (ua, ub) = (a.turns.values(), b.turns.values());
    let mut length = |name: &str, sa: &[u32], sb: &[u32], stat: Statistic| {
        if !keep(name) {
            return;
        }
        let value = |s: &[u32]| match stat {
            Statistic::Mean => s.iter().map(|&v| f64::from(v)).sum::<f64>() / s.len() as f64,
            Statistic::Median => median(s),
        };
        let d = bootstrap_interval(sb, sa, stat, BOOTSTRAP_REPLICATES, seed);
        raw.push(Raw {
            name: name.to_owned(),
            a: value(sa),
            b: value(sb),
            difference: d.map_or(
                Difference {
                    value: 0.0,
                    lo: 0.0,
                    hi: 0.0,
                },
                |d| Difference {
                    value: d.value,
                    lo: d.lo,
                    hi: d.hi,
                },
            ),
            p: mann_whitney(sa, sb).map_or(1.0, |t| t.p),
        });
    };
    length("plies_mean", &pa, &pb, Statistic::Mean);
    length("plies_median", &pa, &pb, Statistic::Median);
    length("turns_mean", &ua, &ub, Statistic::Mean);
    raw.extend(events);
    raw
}

/// A metric with its Holm-adjusted p-value `p` and the verdict it gives.
pub(crate) fn finish(r: Raw, p: f64) -> Metric {
    Metric {
        metric: r.name,
        a: round(r.a, 6),
        b: round(r.b, 6),
        difference: Difference {
            value: round(r.difference.value, 6),
            lo: round(r.difference.lo, 6),
            hi: round(r.difference.hi, 6),
        },
        p_adjusted: round(p, 6),
        verdict: if p < ALPHA {
            "differs".to_owned()
        } else {
            "no difference detected".to_owned()
        },
        limit_sensitive: false,
        at_raised_limits: Vec::new(),
    }
}

/// The median of an ascending sample (the mean of the two middle values of an even one).
fn median(s: &[u32]) -> f64 {
    match s.len() {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(s[n / 2]),
        n => (f64::from(s[n / 2 - 1]) + f64::from(s[n / 2])) / 2.0,
    }
}

/// The command that reproduces a diff, every number that decides it spelled out.
pub fn command_line(args: &DiffArgs) -> String {
    let mut r = Reproduce::new("diff", args.corpus.as_deref());
    r.word(&args.game);
    if args.against {
        r.option("--against", &args.a);
    } else {
        r.word(&args.a);
        if let Some(b) = &args.b {
            r.word(b);
        }
    }
    match args.games {
        DiffGames::Count(n) => r.option("-n", n),
        DiffGames::Auto { precision } => {
            r.option("--games", "auto").option("--precision", precision)
        }
    };
    r.option("--seed", args.seed)
        .limits(args.max_plies, args.max_quiet)
        .lineup(&args.lineup);
    for (flag, list) in [
        ("--set", &args.set),
        ("--set-a", &args.set_a),
        ("--set-b", &args.set_b),
    ] {
        for s in list {
            r.option(flag, s);
        }
    }
    r.line()
}
