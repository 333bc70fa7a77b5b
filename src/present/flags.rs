//! The printers of `flags`' result ([`crate::analysis::flags::Flags`]): JSON (one game's
//! report, or every game's), and the table and Markdown views: each game's flags kind by
//! kind, the one-at-a-time sensitivity, the engine artefacts switched off and the global
//! design's variance shares, then the corpus and the command that reproduces them.

use crate::analysis::OUTPUT_SCHEMA_VERSION;
use crate::analysis::flags::found::{Effect, FlagKind};
use crate::analysis::flags::{Flags, FlagsAllOutput, FlagsArgs, FlagsOutput, command_line};
use crate::analysis::global::{GlobalDesign, GlobalIndex, Leader, leader};
use crate::corpus::Game;
use crate::present::Format;
use crate::present::out::{Out, style};
use crate::present::run::footer;

/// Prints a `flags` result in the output's format.
pub fn print(out: &mut Out, f: &Flags, args: &FlagsArgs) {
    match (out.format, &args.game) {
        (Format::Json, Some(_)) => out.json(&f.reports[0]),
        (Format::Json, None) => out.json(&FlagsAllOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            reports: f.reports.iter().collect(),
        }),
        _ => {
            for (g, r) in f.games.iter().zip(&f.reports) {
                render(out, g, r);
            }
            footer(out, &f.hash, &command_line(args), args.corpus.as_deref());
        }
    }
}

/// One game's flags, kind by kind.
fn render(out: &mut Out, game: &Game, report: &FlagsOutput) {
    let flags = &report.flags;
    let md = out.format == Format::Markdown;
    let count = |k: FlagKind| flags.iter().filter(|f| f.kind == k).count();
    let title = format!(
        "{} · {} open points, {} declined register readings, {} source conflicts, {} \
         witness variants, {} borrowed and {} interpolated items, {} engine artefacts, {} \
         departures of a reading from its basis",
        game.name,
        count(FlagKind::Choice),
        count(FlagKind::Declined),
        count(FlagKind::SourceConflict),
        count(FlagKind::WitnessVariant),
        count(FlagKind::Borrowing),
        count(FlagKind::Interpolation),
        count(FlagKind::EngineArtefact),
        count(FlagKind::Departure),
    );
    if md {
        out.para(&format!("**{title}**"));
    } else {
        out.styled(style::HEAD, &title);
        out.line("");
    }
    let of = |k: FlagKind| flags.iter().filter(move |f| f.kind == k);
    let rows: Vec<Vec<String>> = of(FlagKind::Choice)
        .map(|f| {
            let options: Vec<String> = f
                .options
                .iter()
                .map(|o| {
                    let taken: Vec<String> = o
                        .taken_by
                        .iter()
                        .map(|t| format!("{} ({})", t.reading, t.class.as_str()))
                        .collect();
                    format!(
                        "{}: by {}{}",
                        o.id,
                        if o.by.is_empty() {
                            "nobody named".to_owned()
                        } else {
                            o.by.join("; ")
                        },
                        if taken.is_empty() {
                            String::new()
                        } else {
                            format!(" · taken by {}", taken.join(", "))
                        }
                    )
                })
                .collect();
            // One option a line: in a Markdown cell, a line break is `<br>`.
            let sep = if md { "<br>" } else { "\n" };
            vec![f.id.clone(), f.title.clone(), options.join(sep)]
        })
        .collect();
    if !rows.is_empty() {
        out.table(
            &["open point", "question", "options: proposed by · taken by"],
            rows,
        );
    }
    let rows: Vec<Vec<String>> = of(FlagKind::SourceConflict)
        .map(|f| vec![f.title.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(&["source conflict", "the words on each side"], rows);
    }
    let rows: Vec<Vec<String>> = of(FlagKind::WitnessVariant)
        .map(|f| vec![f.title.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(&["witness variant in a quoted span", "in context"], rows);
    }
    for (kind, head, whom) in [
        (FlagKind::Borrowing, "borrowed item", "readings · from"),
        (
            FlagKind::Interpolation,
            "interpolated item",
            "readings · added by",
        ),
    ] {
        let rows: Vec<Vec<String>> = of(kind)
            .map(|f| {
                let (item, rest) = f.title.split_once(": ").unwrap_or((&f.title, ""));
                vec![item.to_owned(), rest.to_owned()]
            })
            .collect();
        if !rows.is_empty() {
            out.table(&[head, whom], rows);
        }
    }
    let rows: Vec<Vec<String>> = of(FlagKind::Departure)
        .map(|f| vec![f.title.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(&["departure from the basis", "why"], rows);
    }
    let rows: Vec<Vec<String>> = of(FlagKind::Declined)
        .map(|f| vec![f.id.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(&["declined register reading", "why"], rows);
    }
    // From play: a column per reading, the share of games with its interval and the rate
    // per game.
    let readings: Vec<&str> = game.interpretations.iter().map(|i| i.id.as_str()).collect();
    for (kind, head) in [
        (
            FlagKind::Uncovered,
            "met in play (uncovered: interpolated, borrowed: borrowed)",
        ),
        (FlagKind::RuleActivity, "rule"),
    ] {
        let rows: Vec<Vec<String>> = of(kind)
            .map(|f| {
                let mut row = vec![f.id.clone()];
                let freq = f.frequency.as_ref();
                row.extend(readings.iter().map(|r| {
                    freq.and_then(|q| q.by_reading.iter().find(|b| b.reading == *r))
                        .map_or_else(
                            || "–".to_owned(),
                            |b| {
                                format!(
                                    "{:.1} % [{:.1}–{:.1}] · {:.2}/game",
                                    100.0 * b.share.value,
                                    100.0 * b.share.lo,
                                    100.0 * b.share.hi,
                                    b.per_game.value
                                )
                            },
                        )
                }));
                row
            })
            .collect();
        if !rows.is_empty() {
            let mut heads = vec![head.to_owned()];
            heads.extend(
                readings
                    .iter()
                    .map(|r| format!("{r}: games [95 % CI] · per game")),
            );
            let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
            // Too narrow for every reading: the last readings' columns go, with a note.
            let spare: Vec<usize> = (1..heads.len()).rev().collect();
            out.table_sparing(&heads, rows, &spare);
        }
    }
    let rows: Vec<Vec<String>> = of(FlagKind::EngineArtefact)
        .map(|f| {
            let fires: Vec<String> = f
                .frequency
                .iter()
                .flat_map(|q| &q.by_reading)
                .map(|b| {
                    format!(
                        "{} {}: {:.1} % [{:.1}–{:.1}]",
                        b.reading,
                        b.event.as_deref().unwrap_or("?"),
                        100.0 * b.share.value,
                        100.0 * b.share.lo,
                        100.0 * b.share.hi
                    )
                })
                .collect();
            let sep = if md { "<br>" } else { "\n" };
            vec![
                f.title.clone(),
                if f.readings.is_empty() {
                    "no reading".to_owned()
                } else if fires.is_empty() {
                    format!("{} · no event records it", f.readings.join(", "))
                } else {
                    fires.join(sep)
                },
                f.effect.as_ref().map_or_else(
                    || "not measured".to_owned(),
                    |e| {
                        let (change, verdict) = effect_words(e, report.header.games);
                        format!(
                            "{} to {} in {}: {change}, {verdict}",
                            e.metric, e.option, e.base
                        )
                    },
                ),
            ]
        })
        .collect();
    if !rows.is_empty() {
        out.table(
            &[
                "engine artefact: what the engine does",
                "fires: reading, event, games [95 % CI]",
                "switched off: largest change [95 % CI]",
            ],
            rows,
        );
    }
    let rows: Vec<Vec<String>> = report
        .sensitivity
        .ranking
        .iter()
        .filter_map(|r| {
            let e = r.effect.as_ref()?;
            let (change, verdict) = effect_words(e, report.header.games);
            Some(vec![
                r.choice.clone(),
                format!("{} into {}", e.option, e.base),
                e.metric.clone(),
                change,
                if e.p_adjusted < 0.0001 {
                    "< 0.0001".to_owned()
                } else {
                    format!("{:.4}", e.p_adjusted)
                },
                verdict,
            ])
        })
        .collect();
    if !rows.is_empty() {
        out.table(
            &[
                "open point, by effect",
                "largest: option into reading",
                "metric",
                "change [95 % CI]",
                "p (Holm)",
                "verdict",
            ],
            rows,
        );
    }
    limit_sensitive(out, report);
    if let (Some(ix), Some(d)) = (
        &report.sensitivity.global,
        &report.sensitivity.global_design,
    ) {
        render_global(out, ix, d);
    }
    let refused = report
        .sensitivity
        .one_at_a_time
        .iter()
        .filter(|o| o.refused.is_some() && !o.cannot_end)
        .count();
    if refused > 0 {
        out.para(&format!(
            "{refused} option(s) the engine cannot play in a base reading (`refused` in JSON)"
        ));
    }
    let rows: Vec<Vec<String>> = of(FlagKind::CannotEnd)
        .map(|f| vec![f.title.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(
            &["cannot end: combination", "why, and what would end it"],
            rows,
        );
    }
    let rows: Vec<Vec<String>> = of(FlagKind::DoesNotFinish)
        .map(|f| vec![f.title.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(
            &[
                "does not finish: reading",
                "how its games stopped, and what decides whether they can end",
            ],
            rows,
        );
    }
    let left_out = report.sensitivity.cannot_end_left_out;
    if left_out > 0 {
        out.para(&format!(
            "{left_out} comparison(s) left out of the sensitivity figures: the combination \
             they would play can never end (`cannot-end` flags; `cannot_end` in JSON)"
        ));
    }
    out.para(&format!(
        "play: {} {} a reading, seed {}, ply limit {}",
        report.header.games,
        if report.header.lineup == ["random"] {
            "random games".to_owned()
        } else {
            format!("games of {}", report.header.lineup.join(","))
        },
        report.header.seed,
        report.header.max_plies
    ));
    if !md {
        out.line("");
    }
}

/// The comparisons whose games the run's limit stopped: how many were checked at raised
/// limits, and the verdicts that moved, apart from the rule effects.
fn limit_sensitive(out: &mut Out, report: &FlagsOutput) {
    let s = &report.sensitivity;
    let rows: Vec<(String, &[crate::analysis::diff::Metric])> = s
        .one_at_a_time
        .iter()
        .map(|o| (format!("{} into {}", o.option, o.base), &o.metrics[..]))
        .chain(s.engine_artefacts.iter().map(|a| {
            (
                format!("{} off in {} ({})", a.artefact, a.reading, a.to),
                &a.metrics[..],
            )
        }))
        .collect();
    let checked = rows
        .iter()
        .filter(|(_, m)| m.iter().any(|m| !m.at_raised_limits.is_empty()))
        .count();
    if checked == 0 {
        return;
    }
    let limit = report.header.max_plies;
    let moved: Vec<Vec<String>> = rows
        .iter()
        .flat_map(|(what, metrics)| {
            metrics.iter().filter(|m| m.limit_sensitive).map(move |m| {
                let mut at = vec![format!("{} at {limit}", m.verdict)];
                at.extend(
                    m.at_raised_limits
                        .iter()
                        .map(|r| format!("{} at {}", r.verdict, r.max_plies)),
                );
                vec![what.clone(), m.metric.clone(), at.join("; ")]
            })
        })
        .collect();
    out.para(&format!(
        "censored games: in {checked} comparison(s) the ply limit of {limit} stopped games, so \
         those games were played again with the limit raised (the same games, played further). \
         {}",
        if moved.is_empty() {
            "No verdict changed.".to_owned()
        } else {
            format!(
                "{} verdict(s) changed with the limit: they rest on where the limit sits, not \
                 on the rules alone, and are left out of the effects above.",
                moved.len()
            )
        }
    ));
    if !moved.is_empty() {
        out.table(
            &[
                "limit-sensitive: option into reading",
                "metric",
                "verdicts by limit",
            ],
            moved,
        );
    }
}

/// An effect's change in points with its interval, and its verdict, which says at what n
/// no difference was detected.
fn effect_words(e: &Effect, games: u64) -> (String, String) {
    (
        format!(
            "{:+.1} [{:+.1}, {:+.1}] pts",
            100.0 * e.difference.value,
            100.0 * e.difference.lo,
            100.0 * e.difference.hi
        ),
        if e.verdict == "differs" {
            e.verdict.clone()
        } else {
            format!("{} at n = {games}", e.verdict)
        },
    )
}

/// What a global analysis can say of the open point that leads an outcome (`what`: "who
/// wins"), in words a headline may quote: a share only when its interval ranks it, with the
/// interval; otherwise that the design is too small, and the design that would do.
pub fn leader_words(leader: &Leader, what: &str) -> String {
    match leader {
        Leader::Flat => format!("{what} does not vary beyond noise over the option space"),
        Leader::Ranked { choice, total } => format!(
            "most of {what} over the option space: {choice} (total index {:.2} [{:.2}, \
             {:.2}], apart from every other open point's)",
            total.value, total.lo, total.hi
        ),
        Leader::Unresolved {
            rows,
            needed: Some((n, design)),
        } => format!(
            "which open point decides {what} over the option space: not resolved at this \
             design size ({rows} rows; about {n} rows, --design {design}, would part the \
             largest total index's interval from the others' if they narrow as 1/√rows)"
        ),
        Leader::Unresolved { rows, needed: None } => format!(
            "which open point decides {what} over the option space: not resolved at this \
             design size ({rows} rows; two open points' total indices are estimated equal, \
             so no size can be promised)"
        ),
    }
}

/// The global indices: a row per open point, largest total index first, a column per
/// outcome; then what was played.
fn render_global(out: &mut Out, ix: &[GlobalIndex], d: &GlobalDesign) {
    let cell = |r: &crate::stats::Rate| format!("{:.2} [{:.2}, {:.2}]", r.value, r.lo, r.hi);
    let largest = |c: &str| {
        ix.iter()
            .filter(|x| x.choice == c)
            .map(|x| x.total.value)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut choices: Vec<&str> = d.factors.iter().map(String::as_str).collect();
    choices.sort_by(|x, y| largest(y).total_cmp(&largest(x)));
    let rows: Vec<Vec<String>> = choices
        .iter()
        .map(|c| {
            let mut row = vec![(*c).to_owned()];
            for m in crate::analysis::global::METRICS {
                row.push(
                    ix.iter()
                        .find(|x| x.choice == *c && x.metric == m)
                        .map_or_else(
                            || "–".to_owned(),
                            |x| format!("{} · {}", cell(&x.first_order), cell(&x.total)),
                        ),
                );
            }
            row
        })
        .collect();
    out.table(
        &[
            "open point, all together",
            "first mover wins: first-order · total [95 % CI]",
            "draw or timeout: first-order · total",
            "mean length: first-order · total",
        ],
        rows,
    );
    let flat: Vec<String> = d
        .outcomes
        .iter()
        .filter(|o| !o.varies)
        .map(|o| {
            format!(
                "{} (Q = {:.1}, df {}, p = {:.3}; variance less noise {:.2e} [{:.2e}, {:.2e}])",
                o.metric, o.q, o.df, o.p, o.variance.value, o.variance.lo, o.variance.hi
            )
        })
        .collect();
    // A flat outcome is said with its test just below.
    let lead = leader(ix, d, "first_mover_win");
    if lead != Leader::Flat {
        out.para(&leader_words(&lead, "who wins"));
    }
    if !flat.is_empty() {
        out.para(&format!(
            "no index where the outcome does not vary beyond sampling noise over the option \
             space, or its variance is not told from zero: {}",
            flat.join(", ")
        ));
    }
    out.para(&format!(
        "global: a Saltelli design of {} rows over {} open points, {} readings played, {} \
         games each ({} games; {} readings refused by the engine, {} combinations{}{}); \
         intervals from {} bootstrap resamples of the rows; each sampled reading is {} with \
         every open point switched",
        d.rows,
        d.factors.len(),
        d.readings - d.refused,
        d.games_per_reading,
        d.games,
        d.refused,
        d.refused_combinations,
        d.refused_example
            .as_ref()
            .map_or_else(String::new, |e| format!(", e.g. {e}")),
        if d.cannot_end > 0 {
            format!(
                "; {} of them left out because their combination can never end, {} \
                 combinations",
                d.cannot_end,
                d.cannot_end_combinations.len()
            )
        } else {
            String::new()
        },
        d.resamples,
        d.frame
    ));
}
