//! `ludotrace assess`: how each reading plays under self-play, by the metrics of Ludii's
//! Evaluation module and Browne's criteria, each with its 95 % interval, at several agent
//! strengths, and a verdict per reading on stated criteria.
//!
//! Each reading is played once per strength (`--agents`, each agent at every seat) on the
//! reading's own streams, the very games `run -i R --agents A` plays, with every game
//! measured ([`sim::GameMetrics`]). Rates come with Wilson intervals, lengths with the
//! censoring-aware Kaplan–Meier median, per-game measures with Student's t interval of their
//! mean. A metric that cannot inform a reading (an evaluation that never moved, a board full
//! from the start) carries the reason instead of a number. A criterion is *met* when the
//! whole interval satisfies it, *failed* when none of it does, *uncertain* when it
//! straddles the threshold; readings are ordered by criteria met, never by a composite
//! score. A metric whose intervals at two skilled strengths do not overlap is
//! *agent-sensitive*. These figures describe how agents play a reading, not how likely the
//! reading is historically.

use indicatif::ProgressBar;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::agents::{Agent, Lineup};
use crate::analysis::Error;
use crate::analysis::header::{Header, Played};
use crate::analysis::play::{Seats, check_numbers, check_quiet, corpus_hash, play_reading, pool};
use crate::analysis::reproduce::Reproduce;
use crate::corpus::{Choice, Corpus, CorpusFiles, Game, Interpretation};
use crate::exec::{Exec, Task};
use crate::sim::{MEASURES, Measure, RunSpec, Tally};
use crate::stats::{Histogram, round, wilson};

/// The strengths `assess` plays when none are given: random play beside two skilled levels.
pub const DEFAULT_AGENTS: &str = "random,fair,strong";

/// The quiet limit `assess` plays to by default: skilled players of some readings shuffle
/// pieces for ever, and a search at every ply of a game that will not end is the dearest
/// thing the tool can do. A limit of the experiment: the games it stops are censored.
pub const DEFAULT_MAX_QUIET: u32 = 2000;

/// The games `assess` plays of each reading at each strength by default.
pub const DEFAULT_GAMES: u64 = 100;

/// The criteria applied when no file is given, as a criteria file states them.
pub const DEFAULT_CRITERIA: &str = "\
# ludotrace assess: the default criteria (see guide/assess.md).
criteria:
  - metric: finished
    at_least: 0.95
  - metric: first-mover-advantage
    within: 0.10
  - metric: draws
    at_most: 0.20
  - metric: median-turns
    between: [10, 1000]
";

/// What `assess` reports of a reading: each metric's name, what it is, and its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Games that ended (by a rule of the reading or an engine cap).
    Finished,
    /// Games a limit of the experiment stopped (their outcome unknown).
    Censored,
    /// Games the rules proved could never end.
    Endless,
    /// Games drawn.
    Draws,
    /// The first mover's share of the games someone won, less the average seat's share
    /// (1/seats where each game has one winner).
    FirstMoverAdvantage,
    /// The largest share of the games someone won that one seat took, less the average
    /// seat's share.
    SeatImbalance,
    /// The median length in plies (Kaplan–Meier: games stopped by a limit are censored).
    MedianPlies,
    /// The median length in turns, likewise.
    MedianTurns,
    /// The share of decisions with more than one legal move.
    DecisionShare,
    /// The mean number of legal moves at a decision.
    Branching,
    /// The share of decisions after which the set of leading seats changed.
    LeadChanges,
    /// The share of decisions after which the eventual winner was behind.
    Drama,
    /// The share of the game played before the winner's lead first exceeded the largest
    /// any other seat ever held.
    Decisiveness,
    /// The variance of each seat's lead, as a share of the square of the largest lead or
    /// deficit any seat had.
    Stability,
    /// The share of positions after a decision met before in the game.
    Repetition,
    /// The share of the board's sites ever occupied.
    Coverage,
}

/// Every metric, in the order printed.
pub const METRICS: [Metric; 16] = [
    Metric::Finished,
    Metric::Censored,
    Metric::Endless,
    Metric::Draws,
    Metric::FirstMoverAdvantage,
    Metric::SeatImbalance,
    Metric::MedianPlies,
    Metric::MedianTurns,
    Metric::DecisionShare,
    Metric::Branching,
    Metric::LeadChanges,
    Metric::Drama,
    Metric::Decisiveness,
    Metric::Stability,
    Metric::Repetition,
    Metric::Coverage,
];

impl Metric {
    /// Its name, as the criteria files and the outputs spell it.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Finished => "finished",
            Metric::Censored => "censored",
            Metric::Endless => "endless",
            Metric::Draws => "draws",
            Metric::FirstMoverAdvantage => "first-mover-advantage",
            Metric::SeatImbalance => "seat-imbalance",
            Metric::MedianPlies => "median-plies",
            Metric::MedianTurns => "median-turns",
            Metric::DecisionShare => "decision-share",
            Metric::Branching => "branching",
            Metric::LeadChanges => "lead-changes",
            Metric::Drama => "drama",
            Metric::Decisiveness => "decisiveness",
            Metric::Stability => "stability",
            Metric::Repetition => "repetition",
            Metric::Coverage => "coverage",
        }
    }

    /// The values it can take: shares lie in `[0, 1]`, advantages in `[-1, 1]`, lengths and
    /// branching from 0 up.
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Metric::FirstMoverAdvantage | Metric::SeatImbalance => (-1.0, 1.0),
            Metric::MedianPlies | Metric::MedianTurns | Metric::Branching => (0.0, f64::INFINITY),
            _ => (0.0, 1.0),
        }
    }

    /// Whether it is a share or an advantage (printed as a percentage), rather than a count.
    pub fn is_share(self) -> bool {
        !matches!(
            self,
            Metric::MedianPlies | Metric::MedianTurns | Metric::Branching
        )
    }

    /// The game measure behind it, for the per-game ones.
    fn measure(self) -> Option<Measure> {
        Some(match self {
            Metric::DecisionShare => Measure::DecisionShare,
            Metric::Branching => Measure::Branching,
            Metric::LeadChanges => Measure::LeadChanges,
            Metric::Drama => Measure::Drama,
            Metric::Decisiveness => Measure::Decisiveness,
            Metric::Stability => Measure::Stability,
            Metric::Repetition => Measure::Repetition,
            Metric::Coverage => Measure::Coverage,
            _ => return None,
        })
    }

    /// Every name, for messages that list them.
    pub fn names() -> String {
        METRICS
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

const _: () = assert!(MEASURES.len() == 8);

/// One criterion: a metric and the values that satisfy it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "RawCriterion")]
pub struct Criterion {
    /// The metric.
    pub metric: Metric,
    /// What satisfies it.
    #[serde(flatten)]
    pub rule: Rule,
}

/// The values that satisfy a criterion.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The value is at least this.
    AtLeast(f64),
    /// The value is at most this.
    AtMost(f64),
    /// The value lies within this distance of nothing (`-w` to `w`).
    Within(f64),
    /// The value lies between these two, both included.
    Between([f64; 2]),
}

impl Rule {
    /// The range of values that satisfy it.
    fn range(self) -> (f64, f64) {
        match self {
            Rule::AtLeast(t) => (t, f64::INFINITY),
            Rule::AtMost(t) => (f64::NEG_INFINITY, t),
            Rule::Within(w) => (-w, w),
            Rule::Between([a, b]) => (a, b),
        }
    }

    /// In words: `at least 95 %`, `within ±10 points`, `between 10 and 1000`.
    pub fn words(self, share: bool) -> String {
        let v = |x: f64| {
            if share {
                format!("{} %", fmt_num(x * 100.0))
            } else {
                fmt_num(x)
            }
        };
        match self {
            Rule::AtLeast(t) => format!("at least {}", v(t)),
            Rule::AtMost(t) => format!("at most {}", v(t)),
            Rule::Within(w) if share => format!("within ±{} points", fmt_num(w * 100.0)),
            Rule::Within(w) => format!("within ±{}", fmt_num(w)),
            Rule::Between([a, b]) => format!("between {} and {}", v(a), v(b)),
        }
    }
}

fn fmt_num(x: f64) -> String {
    let r = round(x, 2);
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r}")
    }
}

impl Criterion {
    /// The verdict on a figure: met where its whole interval satisfies the rule, failed
    /// where none of it does, uncertain where it straddles; unknown without a figure.
    pub fn judge(&self, f: &Figure) -> Verdict {
        let (Some(lo), Some(hi)) = (f.lo, f.hi.or(f.value.map(|_| f64::INFINITY))) else {
            return Verdict::Unknown;
        };
        if f.value.is_none() || f.note.is_some() {
            return Verdict::Unknown;
        }
        let (a, b) = self.rule.range();
        if lo >= a && hi <= b {
            Verdict::Met
        } else if hi < a || lo > b {
            Verdict::Failed
        } else {
            Verdict::Uncertain
        }
    }
}

/// A criterion's verdict on one reading at one strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The whole interval satisfies it.
    Met,
    /// No part of the interval does.
    Failed,
    /// The interval straddles its threshold: more games may decide it.
    Uncertain,
    /// The metric has no figure (it cannot inform this reading, or no game gave one).
    Unknown,
}

impl Verdict {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::Failed => "failed",
            Verdict::Uncertain => "uncertain",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A criteria file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CriteriaFile {
    criteria: Vec<Criterion>,
}

/// One criterion as written: a metric and exactly one rule. Checked as it is read
/// ([`Criterion`]'s `try_from`), so that a bad one is reported at its place in the file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawCriterion {
    metric: Metric,
    #[serde(default)]
    at_least: Option<f64>,
    #[serde(default)]
    at_most: Option<f64>,
    #[serde(default)]
    within: Option<f64>,
    #[serde(default)]
    between: Option<[f64; 2]>,
}

impl TryFrom<RawCriterion> for Criterion {
    type Error = String;

    fn try_from(c: RawCriterion) -> Result<Self, String> {
        let name = c.metric.name();
        let rules: Vec<Rule> = [
            c.at_least.map(Rule::AtLeast),
            c.at_most.map(Rule::AtMost),
            c.within.map(Rule::Within),
            c.between.map(Rule::Between),
        ]
        .into_iter()
        .flatten()
        .collect();
        let rule = match rules.as_slice() {
            [r] => *r,
            [] => {
                return Err(format!(
                    "the criterion on {name} has no rule: give one of at_least, at_most, \
                     within or between"
                ));
            }
            _ => {
                return Err(format!(
                    "the criterion on {name} has two rules: give one of at_least, at_most, \
                     within or between"
                ));
            }
        };
        let (lo, hi) = c.metric.bounds();
        let fits = |x: f64| x.is_finite() && x >= lo && x <= hi;
        let possible = match rule {
            Rule::AtLeast(t) | Rule::AtMost(t) => fits(t),
            Rule::Within(w) => w >= 0.0 && fits(w),
            Rule::Between([x, y]) => fits(x) && fits(y) && x <= y,
        };
        if !possible {
            let range = if hi.is_infinite() {
                format!("{lo} or more")
            } else {
                format!("{lo} to {hi}")
            };
            return Err(format!(
                "an impossible threshold for {name}, which takes values from {range}{}",
                match rule {
                    Rule::Between(_) => " (`between` gives the smaller bound first)",
                    Rule::Within(_) => " (`within` is a distance, 0 or more)",
                    _ => "",
                }
            ));
        }
        Ok(Criterion {
            metric: c.metric,
            rule,
        })
    }
}

/// The criteria of a verdict, read from a file or the defaults ([`DEFAULT_CRITERIA`]).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Criteria {
    /// The file they were read from, as given; absent for the defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The criteria, in the file's order.
    pub list: Vec<Criterion>,
}

impl Criteria {
    /// The defaults.
    pub fn defaults() -> Self {
        Criteria {
            file: None,
            ..Self::parse("default", DEFAULT_CRITERIA).expect("the default criteria parse")
        }
    }

    /// Reads a criteria file's text (`path` names it in messages).
    ///
    /// # Errors
    /// [`Error::Input`] naming the file, the line and column, and what was expected: bad
    /// YAML, an unknown key or metric (the valid names listed), a criterion with no rule
    /// or with two, a threshold the metric can never take.
    pub fn parse(path: &str, text: &str) -> Result<Self, Error> {
        let mut diags = crate::corpus::diag::Diagnostics::default();
        let Some(file) = crate::corpus::load::parse_yaml::<CriteriaFile>(path, text, &mut diags)
        else {
            // The loader's codes name what a corpus file does wrong; a criteria file's own
            // checks get their own.
            let list: Vec<String> = diags
                .into_sorted()
                .into_iter()
                .map(|mut d| {
                    if d.message.starts_with("unknown variant") {
                        d.code = "unknown-metric";
                        d.message = d.message.replacen("unknown variant", "unknown metric", 1);
                    } else if d.message.starts_with("an impossible threshold") {
                        d.code = "impossible-threshold";
                    } else if d.message.starts_with("the criterion on") {
                        d.code = "criterion-rule";
                    }
                    d.to_string()
                })
                .collect();
            return Err(Error::Input(list.join("\n")));
        };
        if file.criteria.is_empty() {
            return Err(Error::Input(format!(
                "{path}: `criteria` lists no criterion: give at least one, each a `metric` \
                 ({}) with one of at_least, at_most, within or between",
                Metric::names()
            )));
        }
        let list = file.criteria;
        Ok(Criteria {
            file: Some(path.to_owned()),
            list,
        })
    }
}

/// What the user asked `assess` for.
#[derive(Debug, Clone)]
pub struct AssessArgs {
    /// Game id.
    pub game: String,
    /// The readings (none: the game's first, unless `all`).
    pub interpretations: Vec<String>,
    /// Every reading of the game.
    pub all: bool,
    /// The strengths, comma-separated: each agent plays every seat of its own games.
    pub agents: String,
    /// Games per reading and strength.
    pub games: u64,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Quiet limit (0: none).
    pub max_quiet: u32,
    /// `--set` overrides, applied to every reading.
    pub set: Vec<String>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The criteria.
    pub criteria: Criteria,
    /// Switch each open point one option at a time into each reading, under each skilled
    /// strength, and name the points whose options move it across a criterion.
    pub by_point: bool,
    /// With `by_point`, only these open points (a choice's id, or a register point it
    /// addresses, such as `UB-18`); none: every one.
    pub points: Vec<String>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
}

/// `assess --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Assessment {
    /// What was played (`games`: games per reading and strength; `lineup`: the strengths;
    /// `agents`: the seats of the first strength's games).
    #[serde(flatten)]
    pub header: Header,
    /// The strengths, as given: each agent at every seat of its games.
    pub strengths: Vec<String>,
    /// The criteria applied.
    pub criteria: Criteria,
    /// The readings, by criteria met (at the strongest skilled strength, then the next),
    /// then in the corpus's order.
    pub readings: Vec<ReadingAssessment>,
    /// With `--by-point`: each open point of each reading switched one option at a time,
    /// under each skilled strength: by reading in the order given (`-i`, or the corpus's),
    /// then by strength, then in the ruleset's order of choices. Absent without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_point: Option<Vec<PointEffect>>,
}

/// One open point switched one option at a time into one reading under one strength: every
/// option's figures and verdicts (the reading's own first), and the criteria its options
/// take across.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PointEffect {
    /// The reading switched from.
    pub interpretation: String,
    /// The agent at every seat.
    pub agent: String,
    /// The choice (the open point as the ruleset names it).
    pub choice: String,
    /// The register's points it addresses.
    pub addresses: Vec<String>,
    /// Every option: the one the reading takes first (absent where it leaves the point
    /// open), then the others in the ruleset's order.
    pub options: Vec<OptionArm>,
    /// The criteria whose verdict the options move: one option meets it and another fails
    /// it (`decides`), or one meets or fails it and another is uncertain (`may_move`).
    pub moves: Vec<Moved>,
}

/// One option of a point, played.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OptionArm {
    /// The option.
    pub option: String,
    /// Whether the reading takes it.
    pub taken: bool,
    /// Who proposes it.
    pub by: Vec<String>,
    /// Why the engine cannot play the reading with it switched in, where it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The criteria's figures, in the criteria's order (empty where refused).
    pub figures: Vec<Figure>,
    /// Their verdicts, likewise.
    pub verdicts: Vec<Verdict>,
    /// The command that plays it.
    pub reproduce: String,
}

/// A criterion the options of a point move.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Moved {
    /// The criterion's place in the criteria.
    pub criterion: usize,
    /// `decides` (met by one option, failed by another) or `may-move` (met or failed by one,
    /// uncertain under another).
    pub how: String,
    /// The options that meet it.
    pub met: Vec<String>,
    /// The options that fail it.
    pub failed: Vec<String>,
    /// The options under which it is uncertain.
    pub uncertain: Vec<String>,
}

/// One reading, at every strength.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReadingAssessment {
    /// Interpretation id.
    pub interpretation: String,
    /// By strength, in the order given.
    pub arms: Vec<Arm>,
    /// The metrics whose 95 % intervals at two skilled strengths (random play apart) do
    /// not overlap: the reading's figure depends on how well it is played.
    pub agent_sensitive: Vec<Metric>,
    /// The reading in plain words, from its figures at the strongest skilled strength.
    pub summary: String,
}

/// One reading at one strength.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Arm {
    /// The agent at every seat.
    pub agent: String,
    /// Games played.
    pub games: u64,
    /// Every metric, in [`METRICS`] order.
    pub figures: Vec<Figure>,
    /// Each criterion's verdict, in the criteria's order.
    pub verdicts: Vec<Verdict>,
    /// Criteria met, failed and uncertain (unknown is the rest).
    pub met: usize,
    /// Criteria failed.
    pub failed: usize,
    /// Criteria uncertain.
    pub uncertain: usize,
}

/// One metric's figure.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Figure {
    /// The metric.
    pub metric: Metric,
    /// Its value; absent where it cannot inform the reading or no game gave one.
    pub value: Option<f64>,
    /// Lower bound of the 95 % interval.
    pub lo: Option<f64>,
    /// Upper bound of the 95 % interval; absent where it lies beyond every game seen (a
    /// median length whose bound no finished game reached).
    pub hi: Option<f64>,
    /// The games it rests on.
    pub n: u64,
    /// Why there is no figure, or why it says nothing of the reading.
    pub note: Option<String>,
}

impl Figure {
    fn rate(metric: Metric, k: u64, n: u64, shift: f64) -> Self {
        if n == 0 {
            return Self::none(metric, 0, "no game to count");
        }
        let r = wilson(k, n);
        Figure {
            metric,
            value: Some(round(r.value - shift, 4)),
            lo: Some(round(r.lo - shift, 4)),
            hi: Some(round(r.hi - shift, 4)),
            n,
            note: None,
        }
    }

    fn none(metric: Metric, n: u64, why: &str) -> Self {
        Figure {
            metric,
            value: None,
            lo: None,
            hi: None,
            n,
            note: Some(why.to_owned()),
        }
    }
}

/// Every metric's figure from a tally of `seats` seats played with `RunSpec::metrics` (the
/// length in turns needs the censored games' turns, which only a measured tally keeps).
pub fn figures(t: &Tally, seats: usize) -> Vec<Figure> {
    let decided = t.finished() - t.draws;
    // The average seat's share of the games won: 1/seats where each game has one winner
    // (more where a game has several, as the hyena game's may).
    let fair = if decided == 0 {
        0.0
    } else {
        t.wins.iter().sum::<u64>() as f64 / (seats as f64 * decided as f64)
    };
    METRICS
        .iter()
        .map(|&m| match m {
            Metric::Finished => Figure::rate(m, t.finished(), t.games, 0.0),
            Metric::Censored => Figure::rate(m, t.censored(), t.games, 0.0),
            Metric::Endless => Figure::rate(m, t.endless(), t.games, 0.0),
            Metric::Draws => Figure::rate(m, t.draws, t.games, 0.0),
            Metric::FirstMoverAdvantage => {
                if decided == 0 {
                    Figure::none(m, 0, "no game was won")
                } else {
                    let first = t.order_wins.first().copied().unwrap_or(0);
                    Figure::rate(m, first.min(decided), decided, fair)
                }
            }
            Metric::SeatImbalance => {
                if decided == 0 {
                    Figure::none(m, 0, "no game was won")
                } else {
                    let top = t.wins.iter().copied().max().unwrap_or(0);
                    Figure::rate(m, top.min(decided), decided, fair)
                }
            }
            Metric::MedianPlies => median(m, &t.finished_plies(), &t.censored_plies, t.endless()),
            Metric::MedianTurns => {
                let mut finished = t.turns.clone();
                finished.remove(&t.metrics.censored_turns);
                finished.remove(&t.metrics.endless_turns);
                median(
                    m,
                    &finished,
                    &t.metrics.censored_turns,
                    t.metrics.endless_turns.n(),
                )
            }
            _ => per_game(t, m),
        })
        .collect()
}

fn median(m: Metric, finished: &Histogram, censored: &Histogram, endless: u64) -> Figure {
    let km = crate::stats::survival::km(finished, censored, endless);
    let n = finished.n() + censored.n() + endless;
    match km.median.plies {
        Some(v) => Figure {
            metric: m,
            value: Some(f64::from(v)),
            lo: km.median.lo.map(f64::from),
            hi: km.median.hi.map(f64::from),
            n,
            note: None,
        },
        None => Figure::none(m, n, "fewer than half the games ended"),
    }
}

fn per_game(t: &Tally, m: Metric) -> Figure {
    let measure = m.measure().expect("a per-game metric");
    let sums = t.metrics.moments(measure);
    if measure.uses_evaluation() && t.metrics.games > 0 && t.metrics.evaluation_moved == 0 {
        return Figure::none(
            m,
            sums.n,
            "the family's evaluation never moved in these games: it cannot tell who leads",
        );
    }
    if measure == Measure::Coverage
        && t.metrics.games > 0
        && t.metrics.covered_at_start == t.metrics.games
    {
        return Figure::none(m, sums.n, "every site is occupied from the start");
    }
    match sums.mean(m.bounds()) {
        Some((mean, lo, hi)) => Figure {
            metric: m,
            value: Some(round(mean, 4)),
            lo: lo.map(|x| round(x, 4)),
            hi: hi.map(|x| round(x, 4)),
            n: sums.n,
            note: None,
        },
        None => Figure::none(
            m,
            0,
            match measure {
                Measure::Drama | Measure::Decisiveness => "no game had one winner",
                Measure::Repetition => "the engine gives no position key",
                Measure::Coverage => "the engine does not say which sites are occupied",
                _ => "no game made a decision",
            },
        ),
    }
}

/// Whether two figures' intervals are apart (neither reaches the other).
fn apart(a: &Figure, b: &Figure) -> bool {
    match (a.lo, a.hi, b.lo, b.hi) {
        (Some(alo), ahi, Some(blo), bhi) if a.note.is_none() && b.note.is_none() => {
            let ahi = ahi.unwrap_or(f64::INFINITY);
            let bhi = bhi.unwrap_or(f64::INFINITY);
            ahi < blo || bhi < alo
        }
        _ => false,
    }
}

/// Plays and measures the readings.
///
/// # Errors
/// Unknown game, reading or agent, bad overrides, out-of-range numbers.
pub fn assess(
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &AssessArgs,
    bar: &ProgressBar,
) -> Result<Assessment, Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    check_quiet(args.max_quiet)?;
    let agents = parse_agents(&args.agents)?;
    let game: &Game = crate::analysis::game_of(corpus, &args.game)?;
    let readings: Vec<&Interpretation> = if args.all {
        game.interpretations.iter().collect()
    } else if args.interpretations.is_empty() {
        game.interpretations.iter().take(1).collect()
    } else {
        args.interpretations
            .iter()
            .map(|id| crate::analysis::interpretation_of(game, id))
            .collect::<Result<_, _>>()?
    };
    let set = crate::bind::parse_overrides(&args.set)?;
    let bound = readings
        .iter()
        .map(|interp| crate::bind::bind(game, interp, &set))
        .collect::<Result<Vec<_>, _>>()?;
    let lineups: Vec<Lineup> = agents
        .iter()
        .map(|a| Lineup::new(vec![*a], false).map_err(|e| Error::Usage(e.to_string())))
        .collect::<Result<_, _>>()?;
    let pool = pool(args.threads)?;
    bar.inc_length(args.games * (readings.len() * agents.len()) as u64);
    let hash = corpus_hash(files);
    let mut out = Vec::new();
    let rows = readings.len() * agents.len();
    let mut k = 0;
    let mut seats_first = 2;
    for (r, (interp, b)) in readings.iter().zip(&bound).enumerate() {
        let seats = b.engine.visit(Seats);
        if r == 0 {
            seats_first = seats;
        }
        let mut arms = Vec::new();
        for (agent, lineup) in agents.iter().zip(&lineups) {
            k += 1;
            bar.set_prefix(format!("{k} of {rows}: {} by {agent}", interp.id));
            let spec = RunSpec {
                games: args.games,
                seed: args.seed,
                key: crate::rng::reading_key(&game.id, &interp.id),
                max_plies: args.max_plies,
                max_quiet: args.max_quiet,
                keep_records: false,
                metrics: true,
            };
            let task = Task {
                game: &game.id,
                reading: &interp.id,
                bound: b,
                spec: &spec,
                lineup,
            };
            let tally = play_reading(exec, &task, 0..args.games, &pool, bar);
            arms.push(arm(agent, &tally, seats, &args.criteria));
        }
        out.push(reading_assessment(
            &interp.id,
            arms,
            &agents,
            &args.criteria,
        ));
    }
    let by_point = if args.by_point {
        Some(by_point(
            exec,
            game,
            &readings,
            &agents,
            &set,
            &out,
            args,
            (&pool, bar),
        )?)
    } else {
        None
    };
    bar.finish_and_clear();
    order(&mut out, &agents);
    let all = Lineup::new(agents.clone(), false).map_err(|e| Error::Usage(e.to_string()))?;
    let mut header = Header::new(
        Played {
            game: &game.id,
            corpus_hash: &hash,
            seed: args.seed,
            games: args.games,
            max_plies: args.max_plies,
            max_quiet: args.max_quiet,
        },
        &lineups[0],
        seats_first,
    );
    header.lineup = all.agents().iter().map(ToString::to_string).collect();
    Ok(Assessment {
        header,
        strengths: agents.iter().map(ToString::to_string).collect(),
        criteria: args.criteria.clone(),
        readings: out,
        by_point,
    })
}

/// Each open point of each reading switched one option at a time, under each skilled
/// strength: the options' criteria figures and verdicts, on the reading's own streams (the
/// same games as the reading's, as `run --each-option` plays them).
#[allow(clippy::too_many_arguments)]
fn by_point(
    exec: &Exec,
    game: &Game,
    readings: &[&Interpretation],
    agents: &[Agent],
    set: &serde_json::Map<String, serde_json::Value>,
    played: &[ReadingAssessment],
    args: &AssessArgs,
    (pool, bar): (&rayon::ThreadPool, &ProgressBar),
) -> Result<Vec<PointEffect>, Error> {
    let choices = chosen_points(game, &args.points)?;
    let skilled = skilled(agents);
    if skilled.is_empty() {
        return Err(Error::Usage(format!(
            "--by-point switches each open point under skilled play: list a skilled strength \
             in --agents (for instance random,fair), not only {}",
            args.agents
        )));
    }
    let switches: usize = readings
        .iter()
        .map(|r| {
            choices
                .iter()
                .map(|c| {
                    let taken = r.choose.iter().any(|(id, _)| *id == c.id);
                    c.options.len() - usize::from(taken)
                })
                .sum::<usize>()
        })
        .sum();
    bar.inc_length(args.games * (switches * skilled.len()) as u64);
    let pick = |list: &[Verdict], v: Verdict, names: &[String]| -> Vec<String> {
        list.iter()
            .zip(names)
            .filter(|(x, _)| **x == v)
            .map(|(_, n)| n.clone())
            .collect()
    };
    let mut out = Vec::new();
    for (interp, assessed) in readings.iter().zip(played) {
        let seats_key = crate::rng::reading_key(&game.id, &interp.id);
        for &k in &skilled {
            let agent = &agents[k];
            let lineup =
                Lineup::new(vec![*agent], false).map_err(|e| Error::Usage(e.to_string()))?;
            let base = &assessed.arms[k];
            for &choice in &choices {
                let taken = interp
                    .choose
                    .iter()
                    .find(|(c, _)| *c == choice.id)
                    .map(|(_, o)| o.as_str());
                let mut options = Vec::new();
                if let Some(t) = taken {
                    let option = choice.options.iter().find(|o| o.id == t);
                    options.push(OptionArm {
                        option: t.to_owned(),
                        taken: true,
                        by: option.map(|o| o.by.clone()).unwrap_or_default(),
                        refused: None,
                        figures: criteria_figures(&base.figures, &args.criteria),
                        verdicts: base.verdicts.clone(),
                        reproduce: switch_line(args, &interp.id, agent, None),
                    });
                }
                for option in choice
                    .options
                    .iter()
                    .filter(|o| Some(o.id.as_str()) != taken)
                {
                    bar.set_prefix(format!(
                        "{} by {agent}: {}={}",
                        interp.id, choice.id, option.id
                    ));
                    let choose = vec![(choice, option)];
                    let reproduce = switch_line(
                        args,
                        &interp.id,
                        agent,
                        Some(&format!("{}={}", choice.id, option.id)),
                    );
                    // An option that sets a parameter `--set` sets too, or that the engine
                    // cannot play in this reading, is a row of its own (as under `run
                    // --each-option`), not the command's failure.
                    let bound = crate::analysis::play::merge_options(game, interp, set, &choose)
                        .and_then(|overrides| {
                            crate::analysis::play::Variant {
                                interp,
                                choose,
                                overrides,
                            }
                            .bind(game)
                            .map_err(Error::from)
                        });
                    let b = match bound {
                        Ok(b) => b,
                        Err(e) => {
                            bar.inc(args.games);
                            options.push(OptionArm {
                                option: option.id.clone(),
                                taken: false,
                                by: option.by.clone(),
                                refused: Some(e.to_string()),
                                figures: Vec::new(),
                                verdicts: Vec::new(),
                                reproduce,
                            });
                            continue;
                        }
                    };
                    let seats = b.engine.visit(Seats);
                    let spec = RunSpec {
                        games: args.games,
                        seed: args.seed,
                        key: seats_key,
                        max_plies: args.max_plies,
                        max_quiet: args.max_quiet,
                        keep_records: false,
                        metrics: true,
                    };
                    let task = Task {
                        game: &game.id,
                        reading: &interp.id,
                        bound: &b,
                        spec: &spec,
                        lineup: &lineup,
                    };
                    let tally = play_reading(exec, &task, 0..args.games, pool, bar);
                    let a = arm(agent, &tally, seats, &args.criteria);
                    options.push(OptionArm {
                        option: option.id.clone(),
                        taken: false,
                        by: option.by.clone(),
                        refused: None,
                        figures: criteria_figures(&a.figures, &args.criteria),
                        verdicts: a.verdicts,
                        reproduce,
                    });
                }
                let names: Vec<String> = options.iter().map(|o| o.option.clone()).collect();
                let mut moves = Vec::new();
                for c in 0..args.criteria.list.len() {
                    let verdicts: Vec<Verdict> = options
                        .iter()
                        .map(|o| o.verdicts.get(c).copied().unwrap_or(Verdict::Unknown))
                        .collect();
                    let met = pick(&verdicts, Verdict::Met, &names);
                    let failed = pick(&verdicts, Verdict::Failed, &names);
                    let uncertain = pick(&verdicts, Verdict::Uncertain, &names);
                    let how = if !met.is_empty() && !failed.is_empty() {
                        "decides"
                    } else if (!met.is_empty() || !failed.is_empty()) && !uncertain.is_empty() {
                        "may-move"
                    } else {
                        continue;
                    };
                    moves.push(Moved {
                        criterion: c,
                        how: how.to_owned(),
                        met,
                        failed,
                        uncertain,
                    });
                }
                out.push(PointEffect {
                    interpretation: interp.id.clone(),
                    agent: agent.to_string(),
                    choice: choice.id.clone(),
                    addresses: choice.addresses.clone(),
                    options,
                    moves,
                });
            }
        }
    }
    Ok(out)
}

/// The choices `--point` names (by id, or by a register point they address), in the
/// ruleset's order; every choice where it names none.
///
/// # Errors
/// [`Error::Usage`] for a name that is no choice of the game and no point one addresses,
/// listing the choices.
fn chosen_points<'g>(game: &'g Game, names: &[String]) -> Result<Vec<&'g Choice>, Error> {
    if names.is_empty() {
        return Ok(game.choices.iter().collect());
    }
    for name in names {
        let known = game
            .choices
            .iter()
            .any(|c| c.id == *name || c.addresses.iter().any(|a| a == name));
        if !known {
            let ids: Vec<&str> = game.choices.iter().map(|c| c.id.as_str()).collect();
            return Err(Error::Usage(format!(
                "--point {name}: {} has no open point of that name; give a choice ({}) or a \
                 register point one of them addresses (`ludotrace show {} --readings` lists them)",
                game.id,
                ids.join(", "),
                game.id
            )));
        }
    }
    Ok(game
        .choices
        .iter()
        .filter(|c| {
            names
                .iter()
                .any(|n| c.id == *n || c.addresses.iter().any(|a| a == n))
        })
        .collect())
}

/// The figures of the criteria's metrics, in the criteria's order.
fn criteria_figures(figures: &[Figure], criteria: &Criteria) -> Vec<Figure> {
    criteria
        .list
        .iter()
        .map(|c| {
            figures
                .iter()
                .find(|f| f.metric == c.metric)
                .expect("every metric has a figure")
                .clone()
        })
        .collect()
}

/// The `run` that plays one option's games: the reading under the agent, with the option
/// switched in.
fn switch_line(args: &AssessArgs, reading: &str, agent: &Agent, choose: Option<&str>) -> String {
    let mut r = Reproduce::new("run", args.corpus.as_deref());
    r.word(&args.game)
        .option("-i", reading)
        .option("--agents", agent)
        .option("-n", args.games)
        .option("--seed", args.seed);
    r.limits(args.max_plies, args.max_quiet);
    for s in &args.set {
        r.option("--set", s);
    }
    if let Some(c) = choose {
        r.option("--choose", c);
    }
    r.line()
}

/// The strengths of an `--agents` list: one to [`crate::agents::MAX_LINEUP`] agents, each
/// once.
///
/// # Errors
/// [`Error::Usage`] for a spec that is no agent (with the agent parser's suggestion), an
/// agent given twice, or too many.
pub fn parse_agents(list: &str) -> Result<Vec<Agent>, Error> {
    let agents = list
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<Agent>()
                .map_err(|e| Error::Usage(format!("--agents: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (i, a) in agents.iter().enumerate() {
        if agents[..i].contains(a) {
            return Err(Error::Usage(format!(
                "--agents {list}: {a} is listed twice; list each strength once"
            )));
        }
    }
    if agents.len() > crate::agents::MAX_LINEUP {
        return Err(Error::Usage(format!(
            "--agents {list}: give 1 to {} strengths, not {}",
            crate::agents::MAX_LINEUP,
            agents.len()
        )));
    }
    Ok(agents)
}

/// One strength's figures and verdicts.
pub fn arm(agent: &Agent, tally: &Tally, seats: usize, criteria: &Criteria) -> Arm {
    let figures = figures(tally, seats);
    let verdicts: Vec<Verdict> = criteria
        .list
        .iter()
        .map(|c| {
            let f = figures
                .iter()
                .find(|f| f.metric == c.metric)
                .expect("every metric has a figure");
            c.judge(f)
        })
        .collect();
    let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
    Arm {
        agent: agent.to_string(),
        games: tally.games,
        met: count(Verdict::Met),
        failed: count(Verdict::Failed),
        uncertain: count(Verdict::Uncertain),
        figures,
        verdicts,
    }
}

/// The skilled strengths' indices (random play apart), weakest first as given.
fn skilled(agents: &[Agent]) -> Vec<usize> {
    agents
        .iter()
        .enumerate()
        .filter(|(_, a)| !matches!(a, Agent::Random))
        .map(|(i, _)| i)
        .collect()
}

fn reading_assessment(
    id: &str,
    arms: Vec<Arm>,
    agents: &[Agent],
    criteria: &Criteria,
) -> ReadingAssessment {
    let skilled = skilled(agents);
    let agent_sensitive = METRICS
        .iter()
        .enumerate()
        .filter(|&(i, _)| {
            skilled.iter().enumerate().any(|(x, &a)| {
                skilled[x + 1..]
                    .iter()
                    .any(|&b| apart(&arms[a].figures[i], &arms[b].figures[i]))
            })
        })
        .map(|(_, &m)| m)
        .collect();
    let main = skilled.last().copied().unwrap_or(arms.len() - 1);
    let summary = summary(id, &arms[main], criteria);
    ReadingAssessment {
        interpretation: id.to_owned(),
        arms,
        agent_sensitive,
        summary,
    }
}

/// Orders readings by criteria met at the strongest skilled strength, then fewer failed,
/// then the next strength down; ties keep the corpus's order.
fn order(out: &mut [ReadingAssessment], agents: &[Agent]) {
    let mut keys: Vec<usize> = skilled(agents);
    keys.reverse();
    if keys.is_empty() {
        keys = (0..agents.len()).rev().collect();
    }
    out.sort_by(|a, b| {
        for &k in &keys {
            let (x, y) = (&a.arms[k], &b.arms[k]);
            let o = y.met.cmp(&x.met).then(x.failed.cmp(&y.failed));
            if o.is_ne() {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
}

/// A figure in words: `96.0 % [90.1–99.2 %]` (a share), `6.1 points [-3.8, 15.5]` (an advantage:
/// a comma, since its bounds may be negative), `48 [44–52]` (a length or a count); `…` for
/// a bound no finished game reached, `—` for no figure.
pub fn figure_words(f: &Figure) -> String {
    let Some(v) = f.value else {
        return "—".to_owned();
    };
    let bound = |x: Option<f64>, fmt: &dyn Fn(f64) -> String| x.map_or("…".to_owned(), fmt);
    let p = |x: f64| format!("{:.1}", x * 100.0);
    match f.metric {
        Metric::FirstMoverAdvantage | Metric::SeatImbalance => {
            format!("{} points [{}, {}]", p(v), bound(f.lo, &p), bound(f.hi, &p))
        }
        m if m.is_share() => format!("{} % [{}–{} %]", p(v), bound(f.lo, &p), bound(f.hi, &p)),
        Metric::Branching => {
            let n = |x: f64| format!("{x:.2}");
            format!("{} [{}–{}]", n(v), bound(f.lo, &n), bound(f.hi, &n))
        }
        _ => format!(
            "{} [{}–{}]",
            fmt_num(v),
            bound(f.lo, &fmt_num),
            bound(f.hi, &fmt_num)
        ),
    }
}

/// The reading in plain words, from one arm's figures: how often its games end, the first
/// mover's edge, draws, the median length, and the criteria met.
fn summary(id: &str, arm: &Arm, criteria: &Criteria) -> String {
    let get = |m: Metric| {
        arm.figures
            .iter()
            .find(|f| f.metric == m)
            .expect("every metric")
    };
    let finished = get(Metric::Finished);
    let mut parts = vec![format!(
        "Played by `{}` at every seat, `{id}` ends {} of its games",
        arm.agent,
        figure_words(finished)
    )];
    let fma = get(Metric::FirstMoverAdvantage);
    match (fma.lo, fma.hi) {
        (Some(lo), Some(_)) if lo > 0.0 => parts.push(format!(
            "the first mover wins more than a fair share of the games won ({})",
            figure_words(fma)
        )),
        (Some(_), Some(hi)) if hi < 0.0 => parts.push(format!(
            "the first mover wins less than a fair share of the games won ({})",
            figure_words(fma)
        )),
        (Some(_), Some(_)) => parts.push(format!(
            "no edge for the first mover is shown at n = {} won games ({})",
            fma.n,
            figure_words(fma)
        )),
        _ => {}
    }
    let draws = get(Metric::Draws);
    if draws.value.is_some_and(|v| v > 0.0) {
        parts.push(format!("{} are drawn", figure_words(draws)));
    }
    let turns = get(Metric::MedianTurns);
    if turns.value.is_some() {
        parts.push(format!(
            "the median game lasts {} turns",
            figure_words(turns)
        ));
    }
    let mut s = parts.join("; ");
    s.push_str(&format!(
        ". It meets {} of {} criteria",
        arm.met,
        criteria.list.len()
    ));
    let mut more = Vec::new();
    if arm.failed > 0 {
        more.push(format!("fails {}", arm.failed));
    }
    if arm.uncertain > 0 {
        more.push(format!(
            "{} uncertain (the interval straddles the threshold)",
            arm.uncertain
        ));
    }
    if !more.is_empty() {
        s.push_str(&format!(", {}", more.join(", ")));
    }
    s.push('.');
    s
}

/// The command that reproduces an assessment.
pub fn command_line(a: &Assessment, args: &AssessArgs) -> String {
    let mut r = Reproduce::new("assess", args.corpus.as_deref());
    r.word(&a.header.game);
    if args.all {
        r.switch("--all-interpretations");
    } else {
        for id in &args.interpretations {
            r.option("-i", id);
        }
    }
    r.option("--agents", a.strengths.join(","))
        .option("-n", args.games)
        .option("--seed", args.seed);
    r.limits(args.max_plies, args.max_quiet);
    for s in &args.set {
        r.option("--set", s);
    }
    if let Some(f) = &args.criteria.file {
        r.option("--criteria", f);
    }
    if args.by_point {
        r.switch("--by-point");
        for p in &args.points {
            r.option("--point", p);
        }
    }
    r.line()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(metric: Metric, v: f64, lo: f64, hi: f64) -> Figure {
        Figure {
            metric,
            value: Some(v),
            lo: Some(lo),
            hi: Some(hi),
            n: 100,
            note: None,
        }
    }

    #[test]
    fn a_criterion_is_met_failed_or_uncertain_by_its_interval() {
        let c = Criterion {
            metric: Metric::Finished,
            rule: Rule::AtLeast(0.95),
        };
        assert_eq!(
            c.judge(&fig(Metric::Finished, 0.99, 0.96, 1.0)),
            Verdict::Met
        );
        assert_eq!(
            c.judge(&fig(Metric::Finished, 0.8, 0.7, 0.9)),
            Verdict::Failed
        );
        assert_eq!(
            c.judge(&fig(Metric::Finished, 0.96, 0.9, 0.99)),
            Verdict::Uncertain
        );
        let w = Criterion {
            metric: Metric::FirstMoverAdvantage,
            rule: Rule::Within(0.1),
        };
        assert_eq!(w.judge(&fig(w.metric, 0.0, -0.05, 0.05)), Verdict::Met);
        assert_eq!(w.judge(&fig(w.metric, -0.2, -0.3, -0.15)), Verdict::Failed);
        assert_eq!(w.judge(&fig(w.metric, 0.08, 0.0, 0.16)), Verdict::Uncertain);
        let b = Criterion {
            metric: Metric::MedianTurns,
            rule: Rule::Between([10.0, 1000.0]),
        };
        // A median whose upper bound no finished game reached is open above.
        let open = Figure {
            hi: None,
            ..fig(b.metric, 900.0, 800.0, 0.0)
        };
        assert_eq!(b.judge(&open), Verdict::Uncertain);
        assert_eq!(
            b.judge(&Figure::none(
                b.metric,
                10,
                "fewer than half the games ended"
            )),
            Verdict::Unknown
        );
    }

    #[test]
    fn the_default_criteria_parse_and_bad_files_name_what_is_wrong() {
        let d = Criteria::defaults();
        assert_eq!(d.list.len(), 4);
        assert_eq!(d.list[0].rule, Rule::AtLeast(0.95));
        let err = |text: &str| match Criteria::parse("c.yaml", text) {
            Err(Error::Input(m)) => m,
            other => panic!("{other:?}"),
        };
        let m = err("criteria:\n  - metric: fun\n    at_least: 0.5\n");
        assert!(m.starts_with("c.yaml:2:"), "{m}");
        assert!(m.contains("finished") && m.contains("coverage"), "{m}");
        let m = err("criteria:\n  - metric: draws\n    at_most: 1.5\n");
        assert!(
            m.contains("impossible threshold") && m.contains("0 to 1"),
            "{m}"
        );
        let m = err("criteria:\n  - metric: draws\n");
        assert!(m.contains("no rule"), "{m}");
        let m = err("criteria:\n  - metric: draws\n    at_most: 0.1\n    at_least: 0.0\n");
        assert!(m.contains("two rules"), "{m}");
        let m = err("criteria:\n  - metric: median-turns\n    between: [100, 10]\n");
        assert!(m.contains("smaller bound first"), "{m}");
        let m = err("criteria: [\n");
        assert!(m.starts_with("c.yaml:") && m.contains("yaml-syntax"), "{m}");
        let m = err("criteria:\n  - metric: draws\n    at_mots: 0.1\n");
        assert!(m.contains("unknown-key") && m.contains("c.yaml:3:"), "{m}");
    }

    #[test]
    fn apart_intervals_make_a_metric_agent_sensitive() {
        let a = fig(Metric::Drama, 0.1, 0.05, 0.15);
        let b = fig(Metric::Drama, 0.3, 0.2, 0.4);
        let c = fig(Metric::Drama, 0.14, 0.1, 0.2);
        assert!(apart(&a, &b));
        assert!(!apart(&a, &c));
        assert!(!apart(&a, &Figure::none(Metric::Drama, 0, "x")));
    }
}
