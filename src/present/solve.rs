//! The printer of `solve` ([`crate::analysis::solve::SolveOutput`]): JSON, or each start's
//! value in words, the positions reachable, and the principal variation as a table.

use crate::analysis::solve::SolveOutput;
use crate::present::{Format, Out};

/// The most moves of a principal variation a table shows (the JSON holds them all).
const PV_SHOWN: usize = 40;

/// Prints a solution.
pub fn print(out: &mut Out, s: &SolveOutput) {
    if out.format == Format::Json {
        out.json(s);
        return;
    }
    let heading = format!("{} · {} ({})", s.name, s.interpretation, s.title);
    if out.format == Format::Markdown {
        out.para(&format!("# {heading}"));
    } else {
        out.line(&heading);
    }
    out.para(&format!("Solved exactly: `{}`", s.command));
    if let Some(cap) = &s.cap {
        out.para(&format!("Cap: {cap}."));
    }
    for start in &s.starts {
        let who = match start.starter {
            Some(seat) => format!("Seat {seat} begins (the lot)"),
            None if s.from_position.is_some() => "From the position given".to_owned(),
            None => "From the start".to_owned(),
        };
        let title = format!("{who}: {}", start.position);
        if out.format == Format::Markdown {
            out.para(&format!("## {title}"));
        } else {
            out.line("");
            out.line(&title);
        }
        out.para(&format!(
            "{}. {}. {} positions reachable.{}",
            capitalised(&start.says),
            capitalised(&start.margin_says),
            start.states,
            match start.within_cap {
                Some(true) => " Best play ends within the cap.",
                Some(false) if start.value == "endless" => {
                    " Under the engine's cap such play is stopped: a draw by cap."
                }
                Some(false) => " Best play does not end within the cap: under it, a draw by cap.",
                None => "",
            }
        ));
        if start.principal_variation.is_empty() {
            continue;
        }
        let rows: Vec<Vec<String>> = start
            .principal_variation
            .iter()
            .take(PV_SHOWN)
            .map(row)
            .collect();
        out.para(if start.value == "endless" {
            "A line of best play, until a position recurs:"
        } else {
            "Principal variation (the first value-keeping move in legal-move order):"
        });
        out.table(&HEADS, rows);
        if start.principal_variation.len() > PV_SHOWN {
            out.para(&format!(
                "… {} moves more (`--format json` lists them all).",
                start.principal_variation.len() - PV_SHOWN
            ));
        }
        if let Some(after) = start.cycle_after_ply {
            let at = if after == 0 {
                "at the position solved".to_owned()
            } else {
                format!("after ply {after}")
            };
            out.para(&format!(
                "The shortest cycle of best play through a position of this line starts {at}: \
                 {} plies round, every position on it one from which neither seat can force a \
                 win or an end, back to where it started:",
                start.cycle.len()
            ));
            let rows: Vec<Vec<String>> = start.cycle.iter().map(row).collect();
            out.table(&HEADS, rows);
        }
    }
    if let Some(r) = &s.rating {
        rating(out, r);
    }
}

/// The agents against perfect play, as a table with a word on what was rated.
pub(crate) fn rating(out: &mut Out, r: &crate::analysis::solve::Rating) {
    let pct = |rate: &crate::stats::Rate| {
        format!(
            "{:.1} % [{:.1}–{:.1} %]",
            rate.value * 100.0,
            rate.lo * 100.0,
            rate.hi * 100.0
        )
    };
    let heading = "Agents against perfect play";
    if out.format == Format::Markdown {
        out.para(&format!("## {heading}"));
    } else {
        out.line("");
        out.line(heading);
    }
    out.para(&format!(
        "Rated on {} positions: {}. A move keeps the value where a won position stays won \
         and one neither seat can win is not lost. {} of the positions are decisive (some \
         move keeps the value, some does not); there a random choice keeps it {:.1} % of the \
         time on average. Shares with 95 % Wilson intervals.",
        r.positions,
        r.positions_from,
        r.decisive,
        r.agents.first().map_or(0.0, |a| a.decisive_chance * 100.0)
    ));
    let rows: Vec<Vec<String>> = r
        .agents
        .iter()
        .map(|a| {
            vec![
                a.agent.clone(),
                format!("{} of {}", a.decisive_kept, r.decisive),
                pct(&a.decisive_share),
                pct(&a.share),
            ]
        })
        .collect();
    out.table(
        &[
            "agent",
            "decisive positions kept",
            "share kept (decisive)",
            "share kept (all)",
        ],
        rows,
    );
}

/// The columns of a line of play.
const HEADS: [&str; 4] = ["ply", "move", "rules it set off", "position after it"];

/// A move of a line of play, as a row: the rules it applied by the ids `explain` gives them
/// (`explain --position` shows each with its words).
fn row(m: &crate::analysis::solve::PvMove) -> Vec<String> {
    vec![
        m.ply.to_string(),
        m.mv.clone(),
        m.rules.join(", "),
        m.position.clone(),
    ]
}

/// `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
