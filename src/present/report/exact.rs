//! The report's section on exact values (`solve`), in the reports of games with a reading
//! solved: each reading's value from the start per starter (or why it is not solved), then
//! the first reading solved in full, with the agents rated against perfect play, under the
//! command that prints it. A game none of whose readings is solved has no such section.
//!
//! The report solves within [`REPORT_STATES`] positions, not `solve`'s default: a reading
//! that does not fit is refused after a few seconds with the count reached, and the report
//! says so with the command that tries harder. Nothing here depends on the machine: values
//! and counts are exact, and the rating's positions and choices come from the seed.

use std::fmt::Write as _;

use super::{SEED, section};
use crate::analysis::Error;
use crate::analysis::reproduce::Reproduce;
use crate::analysis::solve::{
    DEFAULT_POSITIONS, DEFAULT_RATED, SolveArgs, SolveOutput, Solved, attempt,
};
use crate::corpus::{Corpus, Game};
use crate::present::Format;
use crate::present::out::Out;

/// The most positions the report lists for a reading: Um el Tuweisat's readings have at most
/// 150 000; the larger games pass it within seconds.
pub const REPORT_STATES: usize = 300_000;

/// The section's title.
pub const EXACT_TITLE: &str = "Exact values under perfect play";

/// The section [`EXACT_TITLE`]; what it finds in words for the index, where a reading is
/// solved.
///
/// # Errors
/// As `solve` (an unknown reading cannot occur: the game's own are solved).
pub(super) fn exact(
    doc: &mut String,
    corpus: &Corpus,
    g: &Game,
    (hash, threads, dir): (&str, Option<usize>, Option<&std::path::Path>),
) -> Result<Option<String>, Error> {
    let args = |reading: &str, rate: bool| SolveArgs {
        game: g.id.clone(),
        interpretation: reading.to_owned(),
        set: Vec::new(),
        position: None,
        max_states: REPORT_STATES,
        rate: rate.then(|| {
            DEFAULT_RATED
                .split(',')
                .map(|a| a.parse().expect("the default agents parse"))
                .collect()
        }),
        positions: DEFAULT_POSITIONS,
        seed: SEED,
        threads,
        corpus_hash: hash.to_owned(),
    };
    let command = |reading: &str, rate: bool| {
        let mut c = Reproduce::new("solve", dir);
        c.word(&g.id)
            .option("-i", reading)
            .option("--max-states", REPORT_STATES);
        if rate {
            c.switch("--rate");
        }
        c.option("--format", "markdown").line()
    };
    let mut rows = Vec::new();
    let mut solved: Vec<(SolveOutput, String)> = Vec::new();
    for interp in &g.interpretations {
        match attempt(corpus, &args(&interp.id, false))? {
            Ok(s) => {
                rows.push(vec![
                    format!("`{}`", interp.id),
                    value_words(&s),
                    margin_words(&s),
                    per_starter(&s, |st| st.states.to_string()),
                ]);
                solved.push((s, interp.id.clone()));
            }
            Err(n) => {
                rows.push(vec![
                    format!("`{}`", interp.id),
                    format!("not solved: {}", n.reason()),
                    String::new(),
                    String::new(),
                ]);
            }
        }
    }
    let mut o = Out::new(Format::Markdown, None);
    o.para(&format!(
        "Simulation estimates; where a reading's positions are few enough, its value is \
         exact. `solve` lists every position reachable from the start (up to {REPORT_STATES} \
         here) and solves the game backwards from its ends: a win for one seat with the plies \
         to the end when both play their best, a drawn end a seat can force, or *endless*: \
         neither seat can force a win nor any end, a draw held by play that goes round. \
         The score margin is seat 1's score less seat 2's under best play for the margin. \
         Where the lot decides who begins, each starter is solved (\"seat 1 begins\" / \"seat \
         2 begins\"). Each row is made by `{}` with its reading.",
        command("READING", false)
    ));
    o.table(
        &[
            "reading",
            "value from the start",
            "score margin",
            "positions",
        ],
        rows,
    );
    // Only a game with a reading solved has the section: its head is the command that solves
    // that reading and rates the agents, and what the command prints follows the table.
    let Some((first, reading)) = solved.first() else {
        return Ok(None);
    };
    let rated = match attempt(corpus, &args(reading, true))? {
        Ok(r) => r,
        Err(n) => return Err(Error::Usage(n.to_string())),
    };
    o.para(&format!(
        "Below, `{reading}` in full, with the agents rated against perfect play: at each \
         position, an agent's move keeps the solved value or it does not. This is what \
         \"strong\" means here: the share of decisive positions where the agent keeps the \
         value."
    ));
    crate::present::solve::print(&mut o, &rated);
    let found = format!("exact value under `{reading}`: {}", value_words(first));
    let mut body = o.take();
    let _ = writeln!(body);
    section(doc, EXACT_TITLE, &command(reading, true), &body);
    Ok(Some(found))
}

/// A solved start's value in a few words, with what an engine cap makes of it.
fn start_words(st: &Solved) -> String {
    let cap = match st.within_cap {
        Some(true) => ", within the engine's cap",
        Some(false) => "; under the engine's cap, a draw by cap",
        None => "",
    };
    let plies = st.plies.unwrap_or(0);
    let seat = st.seat.unwrap_or(0);
    match st.value.as_str() {
        "win" => format!("seat {seat} wins in {plies} plies{cap}"),
        "draw" => format!("seat {seat} can force a drawn end within {plies} plies{cap}"),
        "endless" => format!("endless: neither seat can force a win or any end{cap}"),
        _ => "over at once, without a result".to_owned(),
    }
}

/// Each start's value, per starter where the lot decides (once, where every starter's is
/// the same).
fn value_words(s: &SolveOutput) -> String {
    per_starter(s, start_words)
}

/// `words` of each start: one for all where they agree, else each under its starter.
fn per_starter(s: &SolveOutput, words: impl Fn(&Solved) -> String) -> String {
    let all: Vec<String> = s.starts.iter().map(&words).collect();
    if all.len() > 1 && all.iter().all(|w| *w == all[0]) {
        return format!("either seat begins: {}", all[0]);
    }
    s.starts
        .iter()
        .zip(all)
        .map(|(st, w)| match st.starter {
            Some(seat) => format!("seat {seat} begins: {w}"),
            None => w,
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Each start's score margin, in a few words.
fn margin_words(s: &SolveOutput) -> String {
    let signed = |m: i64| {
        if m > 0 {
            format!("+{m}")
        } else {
            m.to_string()
        }
    };
    per_starter(s, |st| {
        match (st.margin, st.margin_at_least, st.margin_at_most) {
            (Some(m), _, _) => signed(m),
            (None, None, None) => "none forced".to_owned(),
            (None, a, b) => format!(
                "seat 1 can force an end at {}, seat 2 one at {}",
                a.map_or("none".to_owned(), |m| format!("≥ {}", signed(m))),
                b.map_or("none".to_owned(), |m| format!("≤ {}", signed(m)))
            ),
        }
    })
}
