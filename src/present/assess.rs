//! The printers of `assess`'s result ([`crate::analysis::assess::Assessment`]): JSON, and a
//! table (or Markdown): the criteria, each reading's verdicts at every strength, a
//! reading × metric table per strength with every figure's 95 % interval (a criterion's
//! metric marked met ✓, failed ✗ or uncertain ?), the figures that cannot inform a reading
//! with the reason, each reading in plain words, then the footer that reproduces it.

use crate::analysis::assess::{
    AssessArgs, Assessment, METRICS, Metric, PointEffect, Verdict, command_line, figure_words,
};
use crate::present::Format;
use crate::present::out::{Out, style};
use crate::present::run::footer;

/// The mark a criterion's verdict puts beside its figure.
fn mark(v: Verdict) -> &'static str {
    match v {
        Verdict::Met => " ✓",
        Verdict::Failed => " ✗",
        Verdict::Uncertain => " ?",
        Verdict::Unknown => "",
    }
}

/// The criteria in words: `finished at least 95 %; draws at most 20 %`.
pub fn criteria_words(a: &Assessment) -> String {
    a.criteria
        .list
        .iter()
        .map(|c| format!("{} {}", c.metric.name(), c.rule.words(c.metric.is_share())))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Prints an assessment in the output's format.
pub fn print(out: &mut Out, a: &Assessment, args: &AssessArgs, title: &str) {
    if out.format == Format::Json {
        out.json(a);
        return;
    }
    let md = out.format == Format::Markdown;
    let h = &a.header;
    let mut head = format!(
        "{title} · {} reading(s) × {} strength(s) · {} games each · seed {} · ply limit {}",
        a.readings.len(),
        a.strengths.len(),
        h.games,
        h.seed,
        h.max_plies
    );
    if h.max_quiet > 0 {
        head.push_str(&format!(" · quiet limit {}", h.max_quiet));
    }
    if md {
        out.para(&format!("**{head}**"));
    } else {
        out.styled(style::HEAD, &head);
        out.line("");
    }
    body(out, a);
    if let Some(points) = &a.by_point {
        by_point(out, a, points);
    }
    footer(
        out,
        &h.corpus_hash,
        &command_line(a, args),
        args.corpus.as_deref(),
    );
}

/// Everything but the heading and the footer: what a report's section shows.
pub fn body(out: &mut Out, a: &Assessment) {
    let md = out.format == Format::Markdown;
    let from = a
        .criteria
        .file
        .as_deref()
        .map_or_else(|| "the defaults".to_owned(), |f| format!("`{f}`"));
    out.para(&format!(
        "Criteria ({from}): {}. A criterion is met (✓) when the whole 95 % interval satisfies \
         it, failed (✗) when none of it does, uncertain (?) when the interval straddles the \
         threshold.",
        criteria_words(a)
    ));
    // The verdicts, readings in the order they rank.
    let mut header: Vec<String> = vec!["reading".to_owned()];
    header.extend(a.strengths.iter().map(|s| format!("{s}: met / failed / ?")));
    header.push("agent-sensitive".to_owned());
    let rows = a
        .readings
        .iter()
        .map(|r| {
            let mut row = vec![r.interpretation.clone()];
            row.extend(
                r.arms
                    .iter()
                    .map(|arm| format!("{} / {} / {}", arm.met, arm.failed, arm.uncertain)),
            );
            row.push(if r.agent_sensitive.is_empty() {
                "none".to_owned()
            } else {
                r.agent_sensitive
                    .iter()
                    .map(|m| m.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            row
        })
        .collect();
    let refs: Vec<&str> = header.iter().map(String::as_str).collect();
    out.table(&refs, rows);
    let skilled = a.strengths.iter().filter(|s| *s != "random").count();
    out.para(&format!(
        "Readings are ordered by criteria met at the last skilled strength listed, \
         never by a combined score. Agent-sensitive: the metric's 95 % intervals at two \
         skilled strengths do not overlap, so the reading's figure depends on how well it is \
         played{}.",
        if skilled < 2 {
            " (fewer than two skilled strengths were played: none can be marked)"
        } else {
            ""
        }
    ));
    for (k, strength) in a.strengths.iter().enumerate() {
        let head = format!("Played by `{strength}` at every seat");
        if md {
            out.para(&format!("**{head}**"));
        } else {
            out.styled(style::HEAD, &head);
            out.line("");
        }
        let mut header: Vec<String> = vec!["metric".to_owned()];
        header.extend(a.readings.iter().map(|r| r.interpretation.clone()));
        let rows = METRICS
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let mut row = vec![m.name().to_owned()];
                for r in &a.readings {
                    let arm = &r.arms[k];
                    let f = &arm.figures[i];
                    let mut cell = figure_words(f);
                    if let Some(c) = a.criteria.list.iter().position(|c| c.metric == m) {
                        cell.push_str(mark(arm.verdicts[c]));
                    }
                    row.push(cell);
                }
                row
            })
            .collect();
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        out.table(&refs, rows);
    }
    // Every figure that is no number, once per reason.
    let mut notes: Vec<(String, Vec<String>)> = Vec::new();
    for r in &a.readings {
        for arm in &r.arms {
            for f in arm.figures.iter().filter(|f| f.note.is_some()) {
                let note = format!(
                    "{}: {}",
                    f.metric.name(),
                    f.note.as_deref().unwrap_or_default()
                );
                let at = format!("{} by {}", r.interpretation, arm.agent);
                match notes.iter_mut().find(|(n, _)| *n == note) {
                    Some((_, places)) => places.push(at),
                    None => notes.push((note, vec![at])),
                }
            }
        }
    }
    if !notes.is_empty() {
        out.para("— no figure:");
        for (note, places) in notes {
            out.line(&format!("- {note} ({})", places.join(", ")));
        }
        out.line("");
    }
    out.para(&format!(
        "Intervals: Wilson for shares of games; Kaplan–Meier for median lengths (games a \
         limit stopped are censored; `…`: a bound no finished game reached); Student's t \
         interval of the mean for per-game measures ({}). These describe how the agents play \
         each reading, not how likely it is historically.",
        per_game_names()
    ));
    if md {
        for r in &a.readings {
            out.para(&format!("- `{}`: {}", r.interpretation, r.summary));
        }
    } else {
        for r in &a.readings {
            out.styled(style::ID, &r.interpretation);
            out.line(&format!(": {}", r.summary));
        }
        out.line("");
    }
}

fn per_game_names() -> String {
    METRICS
        .iter()
        .filter(|m| {
            !matches!(
                m,
                Metric::Finished
                    | Metric::Censored
                    | Metric::Endless
                    | Metric::Draws
                    | Metric::FirstMoverAdvantage
                    | Metric::SeatImbalance
                    | Metric::MedianPlies
                    | Metric::MedianTurns
            )
        })
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which open point moves each reading across a criterion: a paragraph per point that does,
/// every option's figure with its verdict; then how many points moved none, and the options
/// the engine refused.
pub fn by_point(out: &mut Out, a: &Assessment, points: &[PointEffect]) {
    let md = out.format == Format::Markdown;
    let head = "Which open point decides a criterion (each switched alone into the reading)";
    if md {
        out.para(&format!("**{head}**"));
    } else {
        out.styled(style::HEAD, head);
        out.line("");
    }
    let mut quiet = 0;
    for p in points {
        if p.moves.is_empty() {
            quiet += 1;
            continue;
        }
        let at = if p.addresses.is_empty() {
            String::new()
        } else {
            format!(" ({})", p.addresses.join(", "))
        };
        for m in &p.moves {
            let c = &a.criteria.list[m.criterion];
            let figures: Vec<String> = p
                .options
                .iter()
                .filter(|o| o.refused.is_none())
                .map(|o| {
                    let f = &o.figures[m.criterion];
                    format!(
                        "`{}`{} {}{}",
                        o.option,
                        if o.taken { " (taken)" } else { "" },
                        figure_words(f),
                        mark(o.verdicts[m.criterion])
                    )
                })
                .collect();
            let verb = if m.how == "decides" {
                "depends on"
            } else {
                "may depend on"
            };
            out.para(&format!(
                "Whether `{}` played by `{}` meets {} {} {verb} `{}`{at}: {}.",
                p.interpretation,
                p.agent,
                c.metric.name(),
                c.rule.words(c.metric.is_share()),
                p.choice,
                figures.join(", ")
            ));
        }
    }
    let games = a.header.games;
    out.para(&format!(
        "Of the {} point(s) switched, {quiet} moved no criterion at {games} games an option: \
         no option met or failed a criterion that another failed, met or left uncertain.",
        points.len()
    ));
    let refused: Vec<String> = points
        .iter()
        .flat_map(|p| {
            p.options.iter().filter_map(move |o| {
                o.refused.as_ref().map(|why| {
                    format!(
                        "{} with {}={} ({}): {why}",
                        p.interpretation, p.choice, o.option, p.agent
                    )
                })
            })
        })
        .collect();
    if !refused.is_empty() {
        out.para("Options the engine cannot play in the reading:");
        for r in refused {
            out.line(&format!("- {r}"));
        }
        out.line("");
    }
}
