//! The printers of `diff`'s result ([`crate::analysis::diff::Diff`]): JSON (one comparison,
//! or every comparison against a base), and the table and Markdown views, each comparison's
//! rules and metrics, then the corpus and the command that reproduces them.

use crate::analysis::diff::{
    Diff, DiffAgainstOutput, DiffArgs, DiffOutput, Metric, Side, command_line,
};
use crate::analysis::play::games_played;
use crate::collate::word_diff_text;
use crate::corpus::Game;
use crate::present::Format;
use crate::present::out::{Out, style};
use crate::present::run::footer;

/// Prints a diff's result in the output's format.
pub fn print(out: &mut Out, d: &Diff, args: &DiffArgs) {
    let comparisons = &d.comparisons;
    match (out.format, args.against) {
        (Format::Json, false) => out.json(&comparisons[0]),
        (Format::Json, true) => out.json(&DiffAgainstOutput {
            // Every comparison was played with the same game, corpus, seed, games and lineup.
            header: comparisons[0].header.clone(),
            base: comparisons[0].a.clone(),
            auto: d.auto,
            comparisons: comparisons.clone(),
        }),
        _ => render(out, d.game, comparisons, args),
    }
}

/// The table and Markdown views: each comparison, then the corpus and the command that
/// reproduces them.
fn render(out: &mut Out, game: &Game, comparisons: &[DiffOutput], args: &DiffArgs) {
    for d in comparisons {
        let games = games_played(d.header.games, &args.lineup, " each");
        comparison(out, game, d, comparisons.len(), &games);
    }
    if let Some(auto) = comparisons[0].auto {
        let of = if comparisons.len() > 1 {
            " (the widest of the comparisons)"
        } else {
            ""
        };
        out.para(&if auto.reached {
            format!(
                "games: {} a reading, chosen by --games auto: the difference in the first \
                 mover's win rate is known to ±{:.4}{of} (asked ±{}); `-n {}` plays the same \
                 games",
                comparisons[0].header.games,
                auto.half_width,
                auto.precision,
                comparisons[0].header.games
            )
        } else {
            format!(
                "games: {} a reading, the most a diff plays: the difference in the first \
                 mover's win rate is known to ±{:.4}{of} only (asked ±{})",
                comparisons[0].header.games, auto.half_width, auto.precision
            )
        });
    }
    footer(
        out,
        &comparisons[0].header.corpus_hash,
        &command_line(args),
        args.corpus.as_deref(),
    );
}

/// One comparison's tables (`of`: how many the command made, for the title's note on
/// Holm's correction).
fn comparison(out: &mut Out, game: &Game, d: &DiffOutput, of: usize, games: &str) {
    let mut title = format!(
        "{} · {} (B) against {} (A) · {games} · seed {}",
        game.name, d.b, d.a, d.header.seed
    );
    if of > 1 {
        title.push_str(&format!(" · p corrected across all {of} comparisons"));
    }
    let md = out.format == Format::Markdown;
    if md {
        out.para(&format!("**{title}**"));
    } else {
        out.styled(style::HEAD, &title);
        out.line("");
    }
    for (arm, o) in [("A", &d.overrides.a), ("B", &d.overrides.b)] {
        if !o.is_empty() {
            let list: Vec<String> = o.iter().map(|(k, v)| format!("{k}={v}")).collect();
            out.para(&format!("overrides of {arm}: {}", list.join(", ")));
        }
    }
    if d.rules.is_empty() {
        out.para("rules: the two readings take the same option of every choice");
    } else {
        let rows = d
            .rules
            .iter()
            .map(|r| {
                let side = |s: &Side| format!("{} ({})", s.option, s.class);
                vec![
                    r.choice.clone(),
                    side(&r.a),
                    side(&r.b),
                    word_diff_text(&r.words),
                ]
            })
            .collect();
        out.table(
            &[
                "choice",
                "A",
                "B",
                "what the options say, A to B word by word",
            ],
            rows,
        );
        out.para("[-…-]: A's option only; {+…+}: B's option only");
    }
    let shown = |m: &Metric| {
        if is_rate(&m.metric) {
            (
                format!("{:.1} %", 100.0 * m.a),
                format!("{:.1} %", 100.0 * m.b),
                format!(
                    "{:+.1} [{:+.1}, {:+.1}] pts",
                    100.0 * m.difference.value,
                    100.0 * m.difference.lo,
                    100.0 * m.difference.hi
                ),
            )
        } else {
            (
                format!("{:.1}", m.a),
                format!("{:.1}", m.b),
                format!(
                    "{:+.1} [{:+.1}, {:+.1}]",
                    m.difference.value, m.difference.lo, m.difference.hi
                ),
            )
        }
    };
    let rows = d
        .metrics
        .iter()
        .map(|m| {
            let (a, b, diff) = shown(m);
            let mut verdict = if m.verdict == "differs" {
                m.verdict.clone()
            } else {
                format!("{} at n = {}", m.verdict, d.header.games)
            };
            if m.limit_sensitive {
                verdict.push_str(" (limit-sensitive)");
            }
            vec![
                m.metric.clone(),
                a,
                b,
                diff,
                format_p(m.p_adjusted),
                verdict,
            ]
        })
        .collect();
    out.table(
        &["metric", "A", "B", "B − A [95 % CI]", "p (Holm)", "verdict"],
        rows,
    );
    if let Some(words) = limit_words(d) {
        out.para(&words);
    }
}

/// What the games the run's limit stopped do to the verdicts, in words (nothing when no
/// game was censored).
pub(crate) fn limit_words(d: &DiffOutput) -> Option<String> {
    let c = d.censored;
    if c.a + c.b == 0 {
        return None;
    }
    let n = d.header.games;
    let limits: Vec<String> = d
        .metrics
        .iter()
        .flat_map(|m| m.at_raised_limits.iter().map(|r| r.max_plies))
        .fold(Vec::new(), |mut v, l| {
            if !v.contains(&l) {
                v.push(l);
            }
            v
        })
        .iter()
        .map(u32::to_string)
        .collect();
    let mut text = format!(
        "censored: {} of A's {n} games and {} of B's stopped at the limit of {} plies, their \
         outcome unknown. ",
        c.a, c.b, d.header.max_plies
    );
    if limits.is_empty() {
        text.push_str(
            "The limit is the largest there is, so no verdict could be checked at a higher one.",
        );
        return Some(text);
    }
    let moved: Vec<String> = d
        .metrics
        .iter()
        .filter(|m| m.limit_sensitive)
        .map(|m| {
            let at: Vec<String> = m
                .at_raised_limits
                .iter()
                .map(|r| format!("{} at {}", r.verdict, r.max_plies))
                .collect();
            format!(
                "{} ({} at {}; {})",
                m.metric,
                m.verdict,
                d.header.max_plies,
                at.join(", ")
            )
        })
        .collect();
    text.push_str(&format!(
        "The censored games played again with the limit raised to {} plies (the same games, \
         played further): ",
        limits.join(" and ")
    ));
    if moved.is_empty() {
        text.push_str("no verdict changes.");
    } else {
        text.push_str(&format!(
            "{} verdict{} change{} with the limit, so {} on where the limit sits, not on the \
             rules alone, and {} not counted as a rule effect: {}.",
            moved.len(),
            if moved.len() == 1 { "" } else { "s" },
            if moved.len() == 1 { "s" } else { "" },
            if moved.len() == 1 {
                "it rests"
            } else {
                "they rest"
            },
            if moved.len() == 1 { "is" } else { "are" },
            moved.join("; ")
        ));
    }
    Some(text)
}

/// Whether a metric is a rate (shown in percent): every one but the lengths.
fn is_rate(metric: &str) -> bool {
    !matches!(metric, "plies_mean" | "plies_median" | "turns_mean")
}

/// A p-value as a table shows it.
fn format_p(p: f64) -> String {
    if p < 0.0001 {
        "< 0.0001".to_owned()
    } else {
        format!("{p:.4}")
    }
}
