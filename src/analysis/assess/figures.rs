//! What `assess` reports of a reading: the metrics ([`Metric`]), each one's [`Figure`] from a
//! measured tally (a share of games with its Wilson interval, a Kaplan–Meier median, a
//! per-game mean with Student's t interval, or the reason it has none), and a figure in words.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::{MEASURES, Measure, Tally};
use crate::stats::{Histogram, round, wilson};

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

pub(super) fn fmt_num(x: f64) -> String {
    let r = round(x, 2);
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r}")
    }
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

    pub(super) fn none(metric: Metric, n: u64, why: &str) -> Self {
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
pub(super) fn apart(a: &Figure, b: &Figure) -> bool {
    match (a.lo, a.hi, b.lo, b.hi) {
        (Some(alo), ahi, Some(blo), bhi) if a.note.is_none() && b.note.is_none() => {
            let ahi = ahi.unwrap_or(f64::INFINITY);
            let bhi = bhi.unwrap_or(f64::INFINITY);
            ahi < blo || bhi < alo
        }
        _ => false,
    }
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
