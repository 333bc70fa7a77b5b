//! `flags --global`: every open point's share of the variance of the outcome over a game's
//! whole option space ([`crate::sensitivity`]), from readings sampled by a seeded design and
//! played like any other.
//!
//! A sampled reading is the game's first reading with every open point switched to the
//! sampled option ([`Game::switch_sets`], as `--choose` does), played on the streams of its
//! place in the design (seeded from the run seed and `global:A12`, `global:AB12.3` …), so
//! that every observation's noise is its own, at any thread count. Only the open points
//! with two options or more are varied.

use schemars::JsonSchema;
use serde::Serialize;

use crate::agents::Lineup;
use crate::analysis::Error;
use crate::analysis::play::{merge_options, play_reading};
use crate::bind;
use crate::corpus::{Choice, ChoiceOption, Game};
use crate::exec::{Exec, Task};
use std::collections::BTreeMap;

use crate::rng;
use crate::sensitivity::{Design, Indices, Observed, Slot, heterogeneity, indices, variance};
use crate::sim::{RunSpec, Tally};
use crate::stats::Rate;

/// The readings a design may ask for, at most.
pub const MAX_DESIGN: u64 = 100_000;

/// The fewest rows a design may have: fewer give no usable interval.
pub const MIN_ROWS: u64 = 8;

/// Bootstrap resamples of the rows behind each interval.
pub const RESAMPLES: usize = 1000;

/// The outcomes whose variance is shared out.
pub const METRICS: [&str; 3] = ["first_mover_win", "draw_or_timeout", "plies_mean"];

/// A combination of the global design under which no game can ever end.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CannotEndCombination {
    /// The options, as `CHOICE=OPTION` separated by spaces.
    pub combination: String,
    /// Which parameters, why, and what would make it finishable.
    pub reason: String,
}

/// How a global analysis was made: the design and what was played.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GlobalDesign {
    /// `saltelli`: samples A and B of `rows` readings each and, for each open point, A with
    /// that point's option taken from B; each column balanced over its options.
    pub design: String,
    /// `--design`: the readings asked for.
    pub asked: u64,
    /// Rows of A and B: `asked / (open points + 2)`, rounded down.
    pub rows: u64,
    /// The open points varied (those with two options or more), in the ruleset's order.
    pub factors: Vec<String>,
    /// The readings the design plays: A and B in full, and each `AB_i` row that is not the
    /// same combination as A's (whose result stands for it). Each on its own games, so that
    /// their noises are independent: a combination drawn twice is played twice.
    pub readings: u64,
    /// Readings the engine refused (skipped; rows that need one are left out of an index,
    /// and each index says how many rows it used).
    pub refused: u64,
    /// Distinct combinations among them.
    pub refused_combinations: u64,
    /// One refused combination with the engine's reason, as an example (absent when none
    /// was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_example: Option<String>,
    /// Readings among the refused that were refused because no game of their combination
    /// can ever end (the family's static check): left out like every refused reading.
    pub cannot_end: u64,
    /// Each distinct combination among them, with the reason (listed as `cannot-end`
    /// flags).
    pub cannot_end_combinations: Vec<CannotEndCombination>,
    /// Games of each slot of the design played (a combination that recurs is played again,
    /// on its slot's own streams).
    pub games_per_reading: u64,
    /// Games played in all.
    pub games: u64,
    /// Bootstrap resamples behind each interval.
    pub resamples: usize,
    /// The frame every sampled reading is built on: the game's first reading.
    pub frame: String,
    /// How each outcome varies over the combinations played: where it does not vary
    /// beyond sampling noise, there is nothing to share out and no index is given.
    pub outcomes: Vec<GlobalOutcome>,
}

/// How one outcome varies over a game's option space.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GlobalOutcome {
    /// `first_mover_win`, `draw_or_timeout` or `plies_mean`.
    pub metric: String,
    /// Its mean over the A and B readings.
    pub mean: f64,
    /// Its variance over them, the sampling noise taken out, with a bootstrap 95 % interval
    /// over the rows (the denominator of every index).
    pub variance: Rate,
    /// The mean sampling variance of one reading's value (from its games).
    pub noise: f64,
    /// Cochran's Q over the slots played: does the outcome vary beyond the noise?
    pub q: f64,
    /// Its degrees of freedom (slots played − 1).
    pub df: f64,
    /// Its p-value.
    pub p: f64,
    /// `p < 0.05` and the variance's interval above zero: indices are given only then.
    pub varies: bool,
}

/// One open point's share of the variance of one outcome.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GlobalIndex {
    /// Choice id.
    pub choice: String,
    /// `first_mover_win`, `draw_or_timeout` (draws and timeouts, endless games included) or
    /// `plies_mean`.
    pub metric: String,
    /// First-order index: the share of the variance the point explains alone, with its
    /// bootstrap 95 % interval.
    pub first_order: Rate,
    /// Total index: its share with every interaction it takes part in (well above the first
    /// order: the point matters together with others).
    pub total: Rate,
    /// Rows of the design behind it.
    pub rows: usize,
}

/// The factors of a game: its choices with two options or more.
fn factors(game: &Game) -> Vec<&Choice> {
    game.choices
        .iter()
        .filter(|c| c.options.len() > 1)
        .collect()
}

/// The readings of a design of `rows` rows for `game`: `rows` × (its open points with two
/// options or more + 2).
pub fn design_of(game: &Game, rows: u64) -> u64 {
    rows * (factors(game).len() as u64 + 2)
}

/// Refuses a `--design` a game cannot use, before anything is played.
///
/// # Errors
/// A design outside 1 to [`MAX_DESIGN`], or too small for the game's open points.
pub fn check_design(game: &Game, design: u64) -> Result<(), Error> {
    let k = factors(game).len() as u64;
    let least = MIN_ROWS * (k + 2);
    // (A game with so many open points that even the least design is over the bound gets an
    // empty range: refused whatever is given, with the bound in the message.)
    if !(least..=MAX_DESIGN).contains(&design) {
        return Err(Error::Usage(format!(
            "--design {design}: {} has {k} open point{} with two options or more, so a design \
             needs {MIN_ROWS} rows of {} readings: give {least} to {MAX_DESIGN}",
            game.id,
            if k == 1 { "" } else { "s" },
            k + 2
        )));
    }
    Ok(())
}

/// The observed value of an outcome in a tally, with its sampling variance.
fn observe(t: &Tally, metric: &str) -> Observed {
    let g = t.games.max(1) as f64;
    // The noise of a rate from the rate shrunk by half a game (k + ½)/(g + 1), so that a
    // rate of 0 or 1 still carries the noise a few games have.
    let rate = |k: u64| {
        let shrunk = (k as f64 + 0.5) / (g + 1.0);
        Observed {
            value: k as f64 / g,
            noise: if t.games > 1 {
                shrunk * (1.0 - shrunk) / (g - 1.0)
            } else {
                0.0
            },
        }
    };
    match metric {
        "first_mover_win" => rate(t.order_wins.first().copied().unwrap_or(0)),
        "draw_or_timeout" => rate(t.draws + t.timeouts),
        _ => {
            let s = t.plies.summary();
            Observed {
                value: s.mean,
                noise: s.sd * s.sd / g,
            }
        }
    }
}

/// How a global design's readings are played: the games of each slot, the run seed, the
/// ply limit and the players.
#[derive(Debug, Clone, Copy)]
pub struct GlobalPlay<'a> {
    /// Games a slot.
    pub games: u64,
    /// Run seed (the design's own draw is seeded from it too).
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Plies with no change in any seat's material after which a game of a reading without
    /// an engine cap is stopped, censored (`0`: never).
    pub max_quiet: u32,
    /// Who plays.
    pub lineup: &'a Lineup,
}

/// Plays a game's global design and estimates every open point's indices for each outcome.
///
/// # Errors
/// The frame reading cannot be bound (a bad override).
pub fn global(
    exec: &Exec,
    game: &Game,
    play: &GlobalPlay,
    design_size: u64,
    overrides: &serde_json::Map<String, serde_json::Value>,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Result<(GlobalDesign, Vec<GlobalIndex>), Error> {
    let frame = game
        .interpretations
        .first()
        .ok_or_else(|| Error::Usage(format!("{} has no reading", game.id)))?;
    let factors = factors(game);
    let levels: Vec<usize> = factors.iter().map(|c| c.options.len()).collect();
    let rows = design_size / (factors.len() as u64 + 2);
    let design = Design::new(
        &levels,
        rows as usize,
        play.seed ^ rng::reading_key(&game.id, "global"),
    );
    let slots = design.slots();
    let games = play.games;
    bar.inc_length(slots.len() as u64 * games);
    // Binding a combination is cheap, its refusal worth counting once.
    let mut refusals: BTreeMap<Vec<usize>, String> = BTreeMap::new();
    // Those that cannot end, by combination: (label, reason), and their slots.
    let mut endless: BTreeMap<Vec<usize>, (String, String)> = BTreeMap::new();
    let mut endless_slots = 0u64;
    let mut played: BTreeMap<Slot, Tally> = BTreeMap::new();
    for &slot in &slots {
        let combination = design.at(slot);
        let pairs: Vec<(&Choice, &ChoiceOption)> = factors
            .iter()
            .zip(&combination)
            .map(|(c, &l)| (*c, &c.options[l]))
            .collect();
        let bound = merge_options(game, frame, overrides, &pairs)
            .map_err(|e| (e.to_string(), None))
            .and_then(|m| {
                bind::bind(game, frame, &m).map_err(|e| match &e {
                    bind::BindError::CannotEnd { reason, .. } => {
                        (e.to_string(), Some(reason.clone()))
                    }
                    _ => (e.to_string(), None),
                })
            });
        match bound {
            Err((why, cannot_end)) => {
                let label: Vec<String> = pairs
                    .iter()
                    .map(|(c, o)| format!("{}={}", c.id, o.id))
                    .collect();
                if let Some(reason) = cannot_end {
                    endless_slots += 1;
                    endless
                        .entry(combination.clone())
                        .or_insert_with(|| (label.join(" "), reason));
                }
                refusals
                    .entry(combination)
                    .or_insert_with(|| format!("{}: {why}", label.join(" ")));
                bar.inc(games);
            }
            Ok(b) => {
                let spec = RunSpec {
                    games,
                    seed: play.seed,
                    key: rng::reading_key(&game.id, &format!("global:{slot}")),
                    max_plies: play.max_plies,
                    max_quiet: play.max_quiet,
                    keep_records: false,
                    metrics: false,
                };
                let task = Task {
                    game: &game.id,
                    reading: &frame.id,
                    bound: &b,
                    spec: &spec,
                    lineup: play.lineup,
                };
                let t = play_reading(exec, &task, 0..games, pool, bar);
                played.insert(slot, t);
            }
        }
    }
    let mut out = Vec::new();
    let mut outcomes = Vec::new();
    for metric in METRICS {
        // Observed once a slot: the resamples below ask for each slot thousands of times,
        // and a length's summary reads a histogram as long as the ply limit.
        let observed: BTreeMap<Slot, Observed> = played
            .iter()
            .map(|(slot, t)| (*slot, observe(t, metric)))
            .collect();
        let obs = |slot: Slot| observed.get(&slot).copied();
        let seed = play.seed ^ rng::reading_key(&game.id, metric);
        let seen: Vec<Observed> = observed.values().copied().collect();
        let (Some((q, df, p)), Some((mean, var, noise))) = (
            heterogeneity(&seen),
            variance(&design, &obs, RESAMPLES, seed),
        ) else {
            continue;
        };
        // Varies: beyond the noise over every reading played, and with a variance over the
        // A and B readings (the indices' denominator) whose interval is above zero; else an
        // index would divide by noise.
        let varies = p < 0.05 && var.lo > 0.0;
        let r6 = |x: f64| (x * 1e6).round() / 1e6;
        outcomes.push(GlobalOutcome {
            metric: metric.to_owned(),
            mean: r6(mean),
            variance: Rate {
                value: r6(var.value),
                lo: r6(var.lo),
                hi: r6(var.hi),
            },
            noise: r6(noise),
            q: r6(q),
            df,
            p: r6(p),
            varies,
        });
        if !varies {
            continue;
        }
        let ix: Vec<Option<Indices>> = indices(&design, &obs, RESAMPLES, seed);
        for (c, x) in factors.iter().zip(ix) {
            if let Some(x) = x {
                out.push(GlobalIndex {
                    choice: c.id.clone(),
                    metric: metric.to_owned(),
                    first_order: x.first_order,
                    total: x.total,
                    rows: x.rows,
                });
            }
        }
    }
    let refused_slots = (slots.len() - played.len()) as u64;
    Ok((
        GlobalDesign {
            design: "saltelli".to_owned(),
            asked: design_size,
            rows,
            factors: factors.iter().map(|c| c.id.clone()).collect(),
            readings: slots.len() as u64,
            refused: refused_slots,
            refused_combinations: refusals.len() as u64,
            refused_example: refusals.into_values().next(),
            cannot_end: endless_slots,
            cannot_end_combinations: endless
                .into_values()
                .map(|(combination, reason)| CannotEndCombination {
                    combination,
                    reason,
                })
                .collect(),
            games_per_reading: games,
            games: played.len() as u64 * games,
            resamples: RESAMPLES,
            frame: frame.id.clone(),
            outcomes,
        },
        out,
    ))
}

/// What a global analysis can say of which open point accounts for most of an outcome's
/// variance: a headline states a share only when the intervals rank it.
#[derive(Debug, Clone, PartialEq)]
pub enum Leader {
    /// The outcome does not vary beyond sampling noise over the option space (or no index
    /// could be estimated): there is nothing to share out.
    Flat,
    /// One open point's total index lies above every other's, their 95 % intervals apart.
    Ranked {
        /// Its choice id.
        choice: String,
        /// Its total index, with the interval.
        total: Rate,
    },
    /// The largest total index's interval overlaps another's: not resolved at this design
    /// size.
    Unresolved {
        /// Rows of the design that was played.
        rows: u64,
        /// The rows that would part the intervals if they narrow as 1/√rows (an estimate
        /// from these intervals), with the `--design` that asks for them; none when two
        /// estimates are equal, so that no size can be promised.
        needed: Option<(u64, u64)>,
    },
}

/// Which open point leads `metric` over the option space, and whether the intervals can say
/// so. The point with the largest total index leads when its interval's lower end is above
/// every other point's upper end (a lone open point leads when the outcome varies at all).
/// Otherwise the design is too small: the rows that would part the intervals are estimated
/// from the widths seen, scaled by 1/√rows, the rate at which a bootstrap interval of a mean
/// over rows narrows.
pub fn leader(ix: &[GlobalIndex], design: &GlobalDesign, metric: &str) -> Leader {
    let varies = design
        .outcomes
        .iter()
        .any(|o| o.metric == metric && o.varies);
    let mut of_metric: Vec<&GlobalIndex> = ix.iter().filter(|i| i.metric == metric).collect();
    if !varies || of_metric.is_empty() {
        return Leader::Flat;
    }
    of_metric.sort_by(|a, b| b.total.value.total_cmp(&a.total.value));
    let top = of_metric[0];
    let rivals = &of_metric[1..];
    if rivals.iter().all(|r| top.total.lo > r.total.hi) {
        return Leader::Ranked {
            choice: top.choice.clone(),
            total: top.total,
        };
    }
    // Each rival's gap to the top, against the two half-intervals that now bridge it.
    let mut factor: f64 = 1.0;
    let mut possible = true;
    for r in rivals.iter().filter(|r| top.total.lo <= r.total.hi) {
        let gap = top.total.value - r.total.value;
        let bridge = (top.total.value - top.total.lo) + (r.total.hi - r.total.value);
        if gap <= 0.0 {
            possible = false;
            break;
        }
        // A plain product: the platform's powers are kept out of results (tests/tidy.rs).
        let ratio = bridge / gap;
        factor = factor.max(ratio * ratio);
    }
    let needed = possible.then(|| {
        let rows = (design.rows as f64 * factor).ceil() as u64;
        (rows, rows * (design.factors.len() as u64 + 2))
    });
    Leader::Unresolved {
        rows: design.rows,
        needed,
    }
}

#[cfg(test)]
mod leader_tests {
    use super::*;

    fn design(rows: u64, factors: &[&str], varies: bool) -> GlobalDesign {
        GlobalDesign {
            design: "saltelli".to_owned(),
            asked: rows * (factors.len() as u64 + 2),
            rows,
            factors: factors.iter().map(|s| (*s).to_owned()).collect(),
            readings: 0,
            refused: 0,
            refused_combinations: 0,
            refused_example: None,
            cannot_end: 0,
            cannot_end_combinations: Vec::new(),
            games_per_reading: 40,
            games: 0,
            resamples: RESAMPLES,
            frame: "frame".to_owned(),
            outcomes: vec![GlobalOutcome {
                metric: "first_mover_win".to_owned(),
                mean: 0.5,
                variance: Rate {
                    value: 0.01,
                    lo: 0.005,
                    hi: 0.02,
                },
                noise: 0.001,
                q: 100.0,
                df: 10.0,
                p: if varies { 0.001 } else { 0.5 },
                varies,
            }],
        }
    }

    fn index(choice: &str, value: f64, lo: f64, hi: f64) -> GlobalIndex {
        let r = Rate { value, lo, hi };
        GlobalIndex {
            choice: choice.to_owned(),
            metric: "first_mover_win".to_owned(),
            first_order: r,
            total: r,
            rows: 48,
        }
    }

    #[test]
    fn a_share_leads_only_when_its_interval_clears_every_other() {
        let d = design(48, &["a", "b", "c"], true);
        let apart = [
            index("a", 0.8, 0.6, 1.0),
            index("b", 0.2, 0.0, 0.4),
            index("c", 0.1, 0.0, 0.3),
        ];
        assert_eq!(
            leader(&apart, &d, "first_mover_win"),
            Leader::Ranked {
                choice: "a".to_owned(),
                total: apart[0].total
            }
        );
        // The case: 0.93 with an interval of 0.3–1.6 beside a rival up to 0.5.
        let wide = [index("a", 0.93, 0.3, 1.6), index("b", 0.2, 0.0, 0.5)];
        // Gap 0.73, bridged by 0.63 + 0.3 = 0.93: (0.93 / 0.73)² × 48 rows = 77.9 → 78.
        assert_eq!(
            leader(&wide, &d, "first_mover_win"),
            Leader::Unresolved {
                rows: 48,
                needed: Some((78, 78 * 5))
            }
        );
    }

    #[test]
    fn equal_estimates_promise_no_size_and_a_flat_outcome_leads_nothing() {
        let d = design(48, &["a", "b"], true);
        let tied = [index("a", 0.5, 0.2, 0.8), index("b", 0.5, 0.1, 0.7)];
        assert_eq!(
            leader(&tied, &d, "first_mover_win"),
            Leader::Unresolved {
                rows: 48,
                needed: None
            }
        );
        let flat = design(48, &["a", "b"], false);
        assert_eq!(leader(&tied, &flat, "first_mover_win"), Leader::Flat);
        assert_eq!(leader(&[], &d, "first_mover_win"), Leader::Flat);
        // A lone open point leads when the outcome varies.
        let lone = design(48, &["a"], true);
        assert!(matches!(
            leader(&[index("a", 0.9, 0.2, 1.4)], &lone, "first_mover_win"),
            Leader::Ranked { .. }
        ));
    }
}
