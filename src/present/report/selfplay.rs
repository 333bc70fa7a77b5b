//! The report's section on how each reading plays under self-play (`assess`): every reading
//! at random and `fair` play with the criteria met, a figure of the skilled arm's metrics,
//! then, for the source-named reading, the `strong` arm beside the `fair` one and each open
//! point switched alone under `fair`.
//!
//! The two last parts cost far more for some games than for others (a reading whose skilled
//! games run to thousands of turns, one whose players shuffle until the quiet limit stops
//! them), so the report plays each only where it fits a budget stated in decisions searched,
//! a unit no machine changes, known from the `fair` arm before the part is played. Where a
//! part does not fit, the report says so with its size and the command that plays it: the
//! report stays byte for byte the same on any machine, and nothing is silently left out.

use std::fmt::Write as _;

use super::{Figure, SEED, hidden, section};
use crate::analysis::Error;
use crate::analysis::assess::{
    AssessArgs, Assessment, Criteria, DEFAULT_MAX_QUIET, Earlier, METRICS, Metric, assess_from,
    point_switches,
};
use crate::corpus::{Corpus, CorpusFiles, Game};
use crate::exec::Exec;
use crate::present::Format;
use crate::present::charts;
use crate::present::out::Out;

/// Games of each reading at each strength: enough for a reading that ends every game to
/// meet "finished at least 95 %" (100 of 100 gives a Wilson interval from 96.3 %). A report
/// asked for fewer outcome games (`-n`, a quick look) plays that many here too.
pub const ASSESS_GAMES: u64 = 100;
/// The strengths every reading is played at: random play beside the `fair` level.
pub const ASSESS_AGENTS: &str = "random,fair";
/// The skilled strength of the open points' switches, and the one the figure draws.
pub const SKILLED: &str = "fair";
/// The stronger level, played for the source-named reading beside `fair`.
pub const STRONG: &str = "strong";
/// The `strong` arm is played when the source-named reading's `fair` games made at most
/// this many decisions: a `strong` search may visit four times the nodes of a `fair` one
/// (8 000 against 2 000), and its games may be longer; Um el Banât's `davies` (some 344 000
/// `fair` decisions) took 664 s of CPU under `strong`, more than the whole report's budget.
pub const STRONG_BUDGET: u64 = 40_000;
/// The open points are switched when (options switched) × (decisions of the `fair` games)
/// is at most this: each option is another `fair` arm of about the reading's length.
pub const POINTS_BUDGET: u64 = 1_000_000;

/// The section's title (the site's game pages show the section under it).
pub const SELFPLAY_TITLE: &str = "How each reading plays under self-play (criteria met)";

/// The section [`SELFPLAY_TITLE`], its figure, and what it finds in words for the index
/// ([`finding`]).
///
/// # Errors
/// As `assess`.
pub(super) fn selfplay(
    doc: &mut String,
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    g: &Game,
    (games, threads): (u64, Option<usize>),
    dir: Option<&std::path::Path>,
) -> Result<Option<(Figure, Option<String>)>, Error> {
    let games = games.min(ASSESS_GAMES);
    let Some(primary) = g.interpretations.first() else {
        return Ok(None);
    };
    let base = AssessArgs {
        game: g.id.clone(),
        interpretations: Vec::new(),
        all: true,
        agents: ASSESS_AGENTS.to_owned(),
        games,
        seed: SEED,
        max_plies: crate::sim::DEFAULT_MAX_PLIES,
        max_quiet: DEFAULT_MAX_QUIET,
        set: Vec::new(),
        threads,
        criteria: Criteria::defaults(),
        by_point: false,
        points: Vec::new(),
        corpus: dir.map(std::path::Path::to_path_buf),
    };
    let all = assess_from(exec, corpus, files, &base, &hidden(), None)?;
    let earlier = Earlier {
        assessment: &all,
        args: &base,
    };
    let mut o = Out::new(Format::Markdown, None);
    o.para(&format!(
        "Random play says what the rules allow; it does not say whether players who try to \
         win ever finish, nor how the game plays. Here each reading is played {games} \
         games by random players and by `{SKILLED}` players (alpha-beta search, `{}`) at every \
         seat, and measured as the Digital Ludeme Project measures its reconstructions \
         (completion, balance, drawishness, duration, decision moves, branching, lead \
         changes, drama, decisiveness, stability, repetition, board coverage; the guide's \
         page on `assess` defines each and says where it differs from Ludii's). A game in \
         which no seat's material changes for {DEFAULT_MAX_QUIET} plies is stopped and \
         counted as censored, like one at the ply limit: its outcome is unknown, never a \
         draw. Each reading is judged on stated criteria, met only where the whole 95 % \
         interval meets them; the figures describe how agents play a reading, not how \
         likely it is historically.",
        crate::agents::Level::Fair.agent()
    ));
    crate::present::assess::print(&mut o, &all, &base, &g.name);
    let figure = metrics_figure(g, &all, &base);
    let found = finding(&all);
    section(doc, SELFPLAY_TITLE, &quiet_line(&base), &o.take());
    figure.cite(doc);
    let fair = all
        .readings
        .iter()
        .find(|r| r.interpretation == primary.id)
        .and_then(|r| r.arms.iter().find(|a| a.agent == SKILLED))
        .map_or(0, |a| a.decisions);

    // The source-named reading under `strong`, beside its `fair` arm (taken, not played
    // again).
    let strong = AssessArgs {
        all: false,
        interpretations: vec![primary.id.clone()],
        agents: format!("{SKILLED},{STRONG}"),
        ..base.clone()
    };
    let _ = writeln!(
        doc,
        "### `{}` under `{STRONG}` play\n\n`{}`\n",
        primary.id,
        quiet_line(&strong)
    );
    if fair <= STRONG_BUDGET {
        let a = assess_from(exec, corpus, files, &strong, &hidden(), Some(earlier))?;
        let mut o = Out::new(Format::Markdown, None);
        crate::present::assess::print(&mut o, &a, &strong, &g.name);
        doc.push_str(&o.take());
        doc.push('\n');
    } else {
        let _ = writeln!(
            doc,
            "Not played in this report: `{}`'s {games} games under `{SKILLED}` made {} \
             decisions, beyond the {} the report allows for a `{STRONG}` arm (a `{STRONG}` search \
             may visit four times the positions of a `{SKILLED}` one, in games that may be \
             longer). The command above plays it.\n",
            primary.id,
            thousands(fair),
            thousands(STRONG_BUDGET)
        );
    }

    // Each open point switched alone into the source-named reading under `fair`.
    let points = AssessArgs {
        all: false,
        interpretations: vec![primary.id.clone()],
        agents: SKILLED.to_owned(),
        by_point: true,
        ..base.clone()
    };
    let _ = writeln!(
        doc,
        "### Which open point moves `{}` across a criterion\n\n`{}`\n",
        primary.id,
        quiet_line(&points)
    );
    let switches = point_switches(g, primary) as u64;
    let size = switches.saturating_mul(fair);
    if size <= POINTS_BUDGET {
        let a = assess_from(exec, corpus, files, &points, &hidden(), Some(earlier))?;
        let mut o = Out::new(Format::Markdown, None);
        crate::present::assess::print(&mut o, &a, &points, &g.name);
        doc.push_str(&o.take());
        doc.push('\n');
    } else {
        let _ = writeln!(
            doc,
            "Not played in this report: switching each of the {switches} options `{}` does not \
             take, one at a time, means {switches} more arms of {games} `{SKILLED}` \
             games; at the {} decisions of its own `{SKILLED}` games that is about {} \
             decisions searched, beyond the {} the report allows. The command above plays it \
             (through `plan`, `work` and `merge` on as many machines as there are).\n",
            primary.id,
            thousands(fair),
            thousands(size),
            thousands(POINTS_BUDGET)
        );
    }
    Ok(Some((figure, found)))
}

/// What the section finds, in the words of the index's line: the readings whose `fair` arm
/// meets every criterion, or, where none does, the most criteria any meets, by which
/// readings, and whether the others were failed or are uncertain (an interval that straddles
/// a threshold is not a failure). `None` where there is no `fair` arm or no criterion.
fn finding(a: &Assessment) -> Option<String> {
    let k = a.strengths.iter().position(|s| s == SKILLED)?;
    let arms: Vec<Counts> = a
        .readings
        .iter()
        .map(|r| {
            let arm = &r.arms[k];
            Counts {
                reading: &r.interpretation,
                met: arm.met,
                failed: arm.failed,
                uncertain: arm.uncertain,
            }
        })
        .collect();
    criteria_words(&arms)
}

/// A reading's verdicts on the criteria at one strength, counted.
struct Counts<'a> {
    reading: &'a str,
    met: usize,
    failed: usize,
    uncertain: usize,
}

/// [`finding`]'s words from the counts of each reading (in reading order).
fn criteria_words(arms: &[Counts]) -> Option<String> {
    let total = arms.first().map(|c| c.met + c.failed + c.uncertain)?;
    if total == 0 {
        return None;
    }
    let every: Vec<&str> = arms
        .iter()
        .filter(|c| c.met == total)
        .map(|c| c.reading)
        .collect();
    if !every.is_empty() {
        return Some(format!(
            "every self-play criterion under `{SKILLED}` met by {} ({} of {} reading(s))",
            and_list(&every),
            every.len(),
            arms.len()
        ));
    }
    let most = arms.iter().map(|c| c.met).max().unwrap_or(0);
    // The readings that meet the most, grouped by how the rest went, in reading order.
    let mut groups: Vec<((usize, usize), Vec<&str>)> = Vec::new();
    for c in arms.iter().filter(|c| c.met == most) {
        let rest = (c.failed, c.uncertain);
        match groups.iter_mut().find(|(g, _)| *g == rest) {
            Some((_, readings)) => readings.push(c.reading),
            None => groups.push((rest, vec![c.reading])),
        }
    }
    let groups: Vec<String> = groups
        .iter()
        .map(|&((failed, uncertain), ref readings)| {
            let rest = match (failed, uncertain) {
                (0, u) => format!("{u} uncertain"),
                (f, 0) => format!("{f} failed"),
                (f, u) => format!("{f} failed and {u} uncertain"),
            };
            format!("{} with {rest}", and_list(readings))
        })
        .collect();
    Some(format!(
        "no reading meets every self-play criterion under `{SKILLED}` (at most {most} of \
         {total}: {})",
        groups.join("; ")
    ))
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// An assessment's command line as the report prints it: the report's seed is said once,
/// at its head, and the format is Markdown.
fn quiet_line(args: &AssessArgs) -> String {
    let mut r = crate::analysis::reproduce::Reproduce::new("assess", args.corpus.as_deref());
    r.word(&args.game);
    if args.all {
        r.switch("--all-interpretations");
    }
    for id in &args.interpretations {
        r.option("-i", id);
    }
    r.option("--agents", &args.agents).option("-n", args.games);
    if args.by_point {
        r.switch("--by-point");
    }
    r.option("--format", "markdown");
    r.line()
}

/// `1 234 567`: a count, its thousands apart.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The metrics that are shares of games or decisions (0 to 100 %), drawn for every reading
/// at the skilled strength.
const DRAWN: [Metric; 8] = [
    Metric::Finished,
    Metric::Draws,
    Metric::DecisionShare,
    Metric::LeadChanges,
    Metric::Drama,
    Metric::Decisiveness,
    Metric::Repetition,
    Metric::Coverage,
];

/// Readings × metrics at `fair`: a row per metric, a bar per reading, each with its 95 %
/// interval.
fn metrics_figure(g: &Game, a: &Assessment, args: &AssessArgs) -> Figure {
    let k = a.strengths.iter().position(|s| s == SKILLED).unwrap_or(0);
    let rows = DRAWN
        .iter()
        .map(|&m| {
            let i = METRICS
                .iter()
                .position(|&x| x == m)
                .expect("a drawn metric is a metric");
            let bars: Vec<Option<charts::Interval>> = a
                .readings
                .iter()
                .map(|r| {
                    let f = &r.arms[k].figures[i];
                    match (f.value, f.lo, f.hi) {
                        (Some(v), Some(lo), Some(hi)) => Some(charts::Interval {
                            value: 100.0 * v,
                            lo: 100.0 * lo,
                            hi: 100.0 * hi,
                        }),
                        _ => None,
                    }
                })
                .collect();
            let missing = bars
                .iter()
                .all(Option::is_none)
                .then(|| "no figure (see the table)".to_owned());
            charts::Row {
                label: m.name().to_owned(),
                bars,
                missing,
            }
        })
        .collect();
    Figure {
        name: format!("{}-selfplay.svg", g.id),
        alt: format!(
            "{}: each reading's self-play metrics under {SKILLED} play, with 95 % intervals",
            g.name
        ),
        caption: format!(
            "How each reading of {} plays when `{SKILLED}` players hold every seat \
             ({} games a reading): the share of games finished and drawn, and the \
             per-game shares of decisions with a choice, lead changes, drama, decisiveness, \
             repeated positions and board coverage, each bar with its 95 % interval; a metric \
             with no bar for a reading has none to give (the table says why). From `{}`.",
            g.name,
            args.games,
            quiet_line(args)
        ),
        svg: charts::bars(&charts::Bars {
            title: format!("{}: self-play under {SKILLED} (95 % intervals)", g.name),
            axis: "% of games, or of decisions or the game (per-game means)".to_owned(),
            series: a
                .readings
                .iter()
                .map(|r| r.interpretation.clone())
                .collect(),
            rows,
            range: Some((0.0, 100.0)),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{Counts, criteria_words, thousands};

    fn counts(reading: &str, met: usize, failed: usize, uncertain: usize) -> Counts<'_> {
        Counts {
            reading,
            met,
            failed,
            uncertain,
        }
    }

    #[test]
    fn the_index_says_who_meets_every_criterion_or_the_most_and_how_the_rest_went() {
        assert_eq!(
            criteria_words(&[
                counts("a", 4, 0, 0),
                counts("b", 3, 1, 0),
                counts("c", 4, 0, 0)
            ])
            .unwrap(),
            "every self-play criterion under `fair` met by a and c (2 of 3 reading(s))"
        );
        assert_eq!(
            criteria_words(&[
                counts("a", 3, 0, 1),
                counts("b", 3, 1, 0),
                counts("c", 2, 2, 0),
                counts("d", 3, 0, 1),
                counts("e", 3, 0, 1),
            ])
            .unwrap(),
            "no reading meets every self-play criterion under `fair` (at most 3 of 4: a, d and \
             e with 1 uncertain; b with 1 failed)"
        );
        assert_eq!(
            criteria_words(&[counts("a", 1, 2, 1)]).unwrap(),
            "no reading meets every self-play criterion under `fair` (at most 1 of 4: a with 2 \
             failed and 1 uncertain)"
        );
        assert_eq!(criteria_words(&[]), None);
        assert_eq!(criteria_words(&[counts("a", 0, 0, 0)]), None);
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1 000");
        assert_eq!(thousands(343_921), "343 921");
        assert_eq!(thousands(11_349_393), "11 349 393");
    }
}
