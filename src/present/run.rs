//! The printers of `run`'s result ([`crate::analysis::play::Run`]): JSON (one row, or every
//! row with the options refused), the table and Markdown views (every reading, one reading in
//! full, or every option alone), CSV rows written block by block as the games finish, and
//! the footer every command that plays prints (the corpus and the command that reproduces
//! the numbers).

use indexmap::IndexMap;

use crate::agents::Lineup;
use crate::analysis::OUTPUT_SCHEMA_VERSION;
use crate::analysis::play::{
    AgentResult, GameRows, Run, RunAllOutput, RunArgs, RunOutput, Seats, Variant, command_line,
    games_played, kind_names,
};
use crate::bind::Bound;
use crate::present::Format;
use crate::present::out::{Out, style};
use crate::registry::{EngineVisitor, GameFamily};
use crate::sim::{Coverage, GameEnd, GameRecord};
use crate::stats::{Rate, Summary};

/// Prints a run's result in the output's format (CSV rows were written as the games were
/// played, by [`CsvRows`]).
pub fn print(out: &mut Out, run: &Run, args: &RunArgs) {
    let outputs: Vec<&RunOutput> = run.rows.iter().map(|r| &r.output).collect();
    match out.format {
        Format::Json if args.all || args.each_option => out.json(&RunAllOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            runs: outputs,
            refused: run.refused.clone(),
        }),
        Format::Json => out.json(outputs[0]),
        Format::Csv => {}
        // (`check_format` refuses csv with `--each-option`.)
        _ if args.each_option => each_option_table(out, run, args),
        _ => table(out, run, args),
    }
}

fn pct(r: &Rate) -> (String, String) {
    (
        format!("{:.1} %", r.value * 100.0),
        format!("{:.1}–{:.1} %", r.lo * 100.0, r.hi * 100.0),
    )
}

fn lengths(s: &Summary) -> String {
    format!(
        "mean {:.1} [95 % CI {:.1}–{:.1}] (sd {:.1}), median {}, min {}, p10 {}, p90 {}, max {}",
        s.mean, s.mean_ci[0], s.mean_ci[1], s.sd, s.median, s.min, s.p10, s.p90, s.max
    )
}

fn table(out: &mut Out, run: &Run, args: &RunArgs) {
    let game = run.game;
    let outputs: Vec<&RunOutput> = run.rows.iter().map(|r| &r.output).collect();
    let outputs = &outputs[..];
    if outputs.len() > 1 {
        title(
            out,
            &format!(
                "{} · every reading · {} · seed {}",
                game.name,
                games_played(args.games, &args.lineup, " each"),
                args.seed
            ),
        );
        let seats = max_seats(outputs);
        let rows = outputs
            .iter()
            .map(|o| {
                let cell = |k: &str| rate_cell(&o.results.rates, k);
                let mut row = vec![o.interpretation.clone()];
                row.extend((1..=seats).map(|s| cell(&format!("p{s}"))));
                let order = |k: &str| {
                    o.results.by_order.rates.get(k).map_or_else(
                        || "–".to_owned(),
                        |r| format!("{} [{}]", pct(r).0, pct(r).1),
                    )
                };
                row.extend([
                    order("first"),
                    order("second"),
                    cell("draw"),
                    cell("timeout"),
                    o.results.capped.to_string(),
                    o.plies.km.as_ref().map_or_else(|| "–".to_owned(), km_cell),
                    format!("{:.2}", o.branching),
                ]);
                row.extend(agent_cells(o));
                row
            })
            .collect();
        let seat_heads = seat_heads(seats);
        let agent_heads = agent_heads(outputs);
        let mut heads = vec!["reading"];
        heads.extend(seat_heads.iter().map(String::as_str));
        heads.extend([
            "first mover wins",
            "second mover wins",
            "draws",
            "timeouts",
            "capped",
            "median plies [95 % CI]",
            "branching",
        ]);
        heads.extend(agent_heads.iter().map(String::as_str));
        // Too narrow for every column: the agents' columns go first, then the movers' rates
        // (the seats' say who wins), branching, timeouts, caps and lengths; the seats' rates
        // and the draws stay.
        let s = seats;
        let mut spare: Vec<usize> = (s + 8..heads.len()).rev().collect();
        spare.extend([s + 1, s + 2, s + 7, s + 4, s + 5, s + 6]);
        out.table_sparing(&heads, rows, &spare);
        if let Some(words) = unfinished_words(outputs) {
            out.para(&words);
        }
        if !args.lineup.is_random() {
            out.para(&finishes_words(outputs, &args.lineup));
        }
        for o in outputs {
            not_finishing(out, o, &args.lineup);
        }
    } else {
        let interp = run.rows[0].variant.interp;
        let o = &outputs[0];
        title(
            out,
            &format!(
                "{} · {} ({}) · {} · seed {}",
                game.name,
                interp.id,
                interp.title,
                games_played(o.header.games, &args.lineup, ""),
                o.header.seed
            ),
        );
        if !o.overrides.is_empty() {
            let list: Vec<String> = o
                .overrides
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            out.para(&format!("overrides: {}", list.join(", ")));
        }
        let r = &o.results;
        let row = |label: &str, count: u64, key: &str| {
            let (v, ci) = pct(&r.rates[key]);
            vec![label.to_owned(), count.to_string(), v, ci]
        };
        let mut rows: Vec<Vec<String>> = r
            .wins
            .iter()
            .enumerate()
            .map(|(seat, &wins)| {
                row(
                    &format!("seat {} wins", seat + 1),
                    wins,
                    &format!("p{}", seat + 1),
                )
            })
            .collect();
        for (&wins, (name, rate)) in r.by_order.wins.iter().zip(&r.by_order.rates) {
            let (v, ci) = pct(rate);
            rows.push(vec![format!("{name} mover wins"), wins.to_string(), v, ci]);
        }
        rows.push(row("draws", r.draws, "draw"));
        rows.push(row("timeouts", r.timeouts, "timeout"));
        out.table(&["outcome", "games", "rate", "95 % CI (Wilson)"], rows);
        let firsts: Vec<String> = r
            .by_order
            .first_moves
            .iter()
            .enumerate()
            .map(|(seat, n)| format!("seat {} in {n}", seat + 1))
            .collect();
        out.para(&format!("moved first: {}", firsts.join(", ")));
        agent_table(out, &r.by_agent);
        let ends: Vec<String> = run.rows[0]
            .tally
            .ends
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        out.para(&format!(
            "games ended: {} · capped by the engine: {}",
            if ends.is_empty() {
                "none".to_owned()
            } else {
                ends.join(", ")
            },
            r.capped
        ));
        if !r.timeouts_by_reason.is_empty() {
            let why: Vec<String> = r
                .timeouts_by_reason
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            out.para(&format!("timeouts by reason: {}", why.join(", ")));
        }
        if !r.ranks.is_empty() {
            let rows = r
                .ranks
                .iter()
                .enumerate()
                .map(|(seat, counts)| {
                    let mut row = vec![format!("seat {}", seat + 1)];
                    row.extend(counts.iter().map(u64::to_string));
                    row
                })
                .collect();
            let places = r.ranks.iter().map(Vec::len).max().unwrap_or(0);
            let mut head = vec!["ranks".to_owned()];
            head.extend((1..=places).map(|k| format!("place {k}")));
            let head: Vec<&str> = head.iter().map(String::as_str).collect();
            out.table(&head, rows);
        }
        if let Some(words) = censoring_words(o) {
            out.para(&words);
        }
        // A reading that does not finish is told in full by `not_finishing`.
        if !args.lineup.is_random() && o.finishing.is_none() {
            out.para(&finishes_words(outputs, &args.lineup));
        }
        not_finishing(out, o, &args.lineup);
        finished_table(out, o);
        out.para(&format!("plies: {}", lengths(&o.plies)));
        if let Some(km) = &o.plies.km
            && km.censored + km.endless > 0
        {
            out.para(&format!(
                "plies, counting the unfinished games as longer than any finished one \
                 (Kaplan–Meier): {}",
                km_words(km)
            ));
        }
        out.para(&format!(
            "passes per game: mean {:.2} · legal moves per decision: {:.2}",
            o.passes.mean, o.branching
        ));
        if !o.events.is_empty() {
            let rows = o
                .events
                .iter()
                .map(|(name, e)| {
                    vec![
                        name.clone(),
                        e.games.to_string(),
                        format!("{:.2}", e.per_game),
                    ]
                })
                .collect();
            out.table(&["event", "games", "per game"], rows);
        }
    }
    let interp = if outputs.len() > 1 {
        None
    } else {
        Some(outputs[0].interpretation.as_str())
    };
    footer(
        out,
        &outputs[0].header.corpus_hash,
        &command_line(&game.id, interp, args),
        args.corpus.as_deref(),
    );
}

/// The unfinished games of a table of readings, in words: for each reading with any, how
/// many the run's limit stopped (censored) and how many can never end. `None` when every game
/// of every reading finished.
fn unfinished_words(outputs: &[&RunOutput]) -> Option<String> {
    let each: Vec<String> = outputs
        .iter()
        .filter(|o| o.results.censored + o.results.endless > 0)
        .map(|o| {
            let r = &o.results;
            let mut what = Vec::new();
            if r.censored > 0 {
                what.push(format!("{} censored", r.censored));
            }
            if r.endless > 0 {
                what.push(format!("{} endless", r.endless));
            }
            format!("{} {}", o.interpretation, what.join(" and "))
        })
        .collect();
    if each.is_empty() {
        return None;
    }
    let mut text = format!("Unfinished games (the timeouts): {}.", each.join("; "));
    if outputs.iter().any(|o| o.results.censored > 0) {
        text.push_str(&format!(
            " A censored game was stopped by a limit (the run's {} plies{}, or an engine's \
             search that reached its bound with no cycle found): its outcome is unknown, and \
             it is neither a draw nor a loss; `run GAME -i READING` gives a \
             reading's outcomes among its finished games, with the bounds the censored ones \
             leave.",
            outputs[0].header.max_plies,
            match outputs[0].header.max_quiet {
                0 => String::new(),
                q => format!(", its quiet limit of {q} plies with no change of material"),
            }
        ));
    }
    if outputs.iter().any(|o| o.results.endless > 0) {
        text.push_str(
            " An endless game was proved in play never to end under its reading's rules.",
        );
    }
    Some(text)
}

/// Whether skilled players finish each reading: the share of games that ended, with its
/// interval, against [`FINISHES`](crate::analysis::finish::FINISHES).
fn finishes_words(outputs: &[&RunOutput], lineup: &Lineup) -> String {
    let each: Vec<String> = outputs
        .iter()
        .map(|o| {
            let s = &o.results.finished_rates.share;
            // Below 95 % with an interval that reaches it, more games could tell otherwise.
            let verdict = if s.value >= crate::analysis::finish::FINISHES {
                "finishes"
            } else if s.hi < crate::analysis::finish::FINISHES {
                "does not finish"
            } else {
                "may not finish"
            };
            let (v, ci) = pct(s);
            let capped = match o.results.capped {
                0 => String::new(),
                n => format!(", {n} of them at the engine's cap"),
            };
            format!(
                "{} {verdict} ({v} of games ended [{ci}]{capped})",
                o.interpretation
            )
        })
        .collect();
    format!(
        "With {lineup} at the seats, a reading finishes when at least {:.0} % of its games end: {}.",
        crate::analysis::finish::FINISHES * 100.0,
        each.join("; ")
    )
}

/// What the unfinished games are, in words: how many the run's limit stopped (censored)
/// and how many can never end. `None` when every game finished.
pub(crate) fn censoring_words(o: &RunOutput) -> Option<String> {
    let r = &o.results;
    let n = o.header.games;
    let mut parts = Vec::new();
    if r.censored > 0 {
        let searched = r
            .timeouts_by_reason
            .get("search-limit")
            .copied()
            .unwrap_or(0);
        let quiet = r
            .timeouts_by_reason
            .get("quiet-limit")
            .copied()
            .unwrap_or(0);
        let by_limit = r.censored - searched - quiet;
        let mut stopped = Vec::new();
        if by_limit > 0 {
            stopped.push(format!(
                "{by_limit} at the run's limit of {} plies",
                o.header.max_plies
            ));
        }
        if quiet > 0 {
            stopped.push(format!(
                "{quiet} at its quiet limit ({} plies with no change of material)",
                o.header.max_quiet
            ));
        }
        if searched > 0 {
            stopped.push(format!(
                "{searched} where an engine's search (a relay, idle stages) reached its bound \
                 with no cycle found"
            ));
        }
        parts.push(format!(
            "censored: {} of {n} games stopped unfinished, {}: their outcome unknown \
             (neither draws nor losses) and their length more than where they stopped",
            r.censored,
            stopped.join(", ")
        ));
    }
    if r.endless > 0 {
        parts.push(format!(
            "endless: {} of {n} games proved in play never to end under the reading's rules",
            r.endless
        ));
    }
    (!parts.is_empty()).then(|| format!("{}.", parts.join("; ")))
}

/// Where a reading does not finish under the run's players: how its other games stopped and
/// what decides whether such a game can end, and, where play stalled at the ply limit with
/// no quiet limit set, how to stop such games sooner.
fn not_finishing(out: &mut Out, o: &RunOutput, lineup: &Lineup) {
    let Some(f) = &o.finishing else {
        return;
    };
    let h = &o.header;
    out.para(&f.words(&lineup.to_string(), (h.max_plies, h.max_quiet)));
    if h.max_quiet == 0 && f.stalled > 0 {
        out.para(&format!(
            "`--max-quiet 2000` would stop such games after 2 000 plies with nothing taken \
             (censored like these), rather than play each on to {} plies.",
            h.max_plies
        ));
    }
}

/// The outcomes among the finished games, with the bounds the censored games leave: a table
/// (nothing when every game finished).
fn finished_table(out: &mut Out, o: &RunOutput) {
    let r = &o.results;
    if r.censored + r.endless == 0 {
        return;
    }
    let f = &r.finished_rates;
    if f.games == 0 {
        out.para("No game finished: no outcome can be given.");
        return;
    }
    let rows = f
        .rates
        .iter()
        .map(|(key, x)| {
            let name = match key.strip_prefix('p') {
                Some(seat) => format!("seat {seat} wins"),
                None => "draws".to_owned(),
            };
            vec![
                name,
                format!("{:.1} %", x.value * 100.0),
                format!("{:.1}–{:.1} %", x.lo * 100.0, x.hi * 100.0),
                format!(
                    "{:.1}–{:.1} %",
                    x.if_censored[0] * 100.0,
                    x.if_censored[1] * 100.0
                ),
            ]
        })
        .collect();
    let head = format!("of the {} finished games", f.games);
    out.table(
        &[
            &head,
            "rate",
            "95 % CI (Wilson)",
            "bounds over the censored",
        ],
        rows,
    );
}

/// The censoring-aware median length with its interval, for a table cell: "not reached"
/// where fewer than half the games finished, `…` for an upper bound beyond every finished
/// game.
fn km_cell(km: &crate::stats::survival::Km) -> String {
    match km.median.plies {
        None => "not reached".to_owned(),
        Some(v) => {
            let lo = km.median.lo.unwrap_or(v);
            let hi = km
                .median
                .hi
                .map_or_else(|| "…".to_owned(), |h| h.to_string());
            format!("{v} [{lo}–{hi}]")
        }
    }
}

/// A censoring-aware summary of lengths in words: the median and quartiles with their
/// intervals, "not reached" where too few games finished to place them.
pub(crate) fn km_words(km: &crate::stats::survival::Km) -> String {
    let q = |name: &str, share: &str, k: &crate::stats::survival::KmQuantile| match k.plies {
        None => format!("{name} not reached (fewer than {share} of the games finished)"),
        Some(v) => {
            let lo = k.lo.map_or(v, |l| l);
            match k.hi {
                Some(hi) => format!("{name} {v} [95 % CI {lo}–{hi}]"),
                None => format!(
                    "{name} {v} [95 % CI from {lo}, its upper bound beyond every finished game]"
                ),
            }
        }
    };
    format!(
        "{}, {}, {}",
        q("median", "half", &km.median),
        q("25th percentile", "a quarter", &km.q25),
        q("75th percentile", "three quarters", &km.q75)
    )
}

/// The heads of the by-agent columns of a table of runs (none for one agent).
fn agent_heads(outputs: &[&RunOutput]) -> Vec<String> {
    outputs[0]
        .results
        .by_agent
        .keys()
        .map(|a| format!("{a} win rate"))
        .collect()
}

/// A run's by-agent cells: each agent's win rate with its interval.
fn agent_cells(o: &RunOutput) -> impl Iterator<Item = String> + '_ {
    o.results.by_agent.values().map(|a| {
        let (v, ci) = pct(&a.rate);
        format!("{v} [{ci}]")
    })
}

/// The by-agent table of a run of several agents (nothing for one).
fn agent_table(out: &mut Out, by_agent: &IndexMap<String, AgentResult>) {
    let Some(seats) = by_agent.values().map(|a| a.seats.len()).max() else {
        return;
    };
    let cell = |r: Option<&Rate>| {
        r.map_or_else(
            || "–".to_owned(),
            |r| {
                let (v, ci) = pct(r);
                format!("{v} [{ci}]")
            },
        )
    };
    let rows = by_agent
        .iter()
        .map(|(name, a)| {
            let mut row = vec![
                name.clone(),
                a.games.to_string(),
                a.seat_games.to_string(),
                a.wins.to_string(),
                cell(Some(&a.rate)),
                a.first_moves.to_string(),
                cell(a.first_mover_rate.as_ref()),
            ];
            row.extend(
                a.seats
                    .iter()
                    .map(|s| format!("{} in {}", cell(s.rate.as_ref()), s.games)),
            );
            row
        })
        .collect();
    let mut heads = vec![
        "agent".to_owned(),
        "games".to_owned(),
        "seats held".to_owned(),
        "seats won".to_owned(),
        "win rate [95 % CI]".to_owned(),
        "moved first".to_owned(),
        "win rate moving first".to_owned(),
    ];
    heads.extend((1..=seats).map(|s| format!("win rate at seat {s}")));
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    out.table(&heads, rows);
}

/// A table's title: bold, a paragraph of its own, in Markdown; a styled line and a blank
/// one elsewhere.
fn title(out: &mut Out, text: &str) {
    if out.format == Format::Markdown {
        out.para(&format!("**{text}**"));
    } else {
        out.styled(style::HEAD, text);
        out.line("");
    }
}

/// The lines under a run's table: the corpus with its hash, and the command that reproduces
/// the run (in Markdown, paragraphs of their own).
pub(crate) fn footer(out: &mut Out, hash: &str, reproduce: &str, corpus: Option<&std::path::Path>) {
    let corpus = format!(
        "{} (blake3 {hash})",
        corpus.map_or_else(|| "built-in".to_owned(), |dir| dir.display().to_string())
    );
    if out.format == Format::Markdown {
        out.para(&format!("corpus: {corpus}"));
        out.para(&format!("reproduce: `{reproduce}`"));
    } else {
        out.styled(style::DIM, "corpus: ");
        out.line(&corpus);
        out.styled(style::DIM, "reproduce: ");
        out.line(reproduce);
    }
}

/// The most seats among runs (readings of one game, or its options, may seat different
/// numbers of players): the table's seat columns.
fn max_seats(outputs: &[&RunOutput]) -> usize {
    outputs
        .iter()
        .map(|o| o.results.wins.len())
        .max()
        .unwrap_or(2)
}

/// A rate with its interval in one cell, or `–` where the run has no such rate.
fn rate_cell(rates: &IndexMap<String, Rate>, key: &str) -> String {
    match rates.get(key) {
        Some(rate) => {
            let (v, ci) = pct(rate);
            format!("{v} [{ci}]")
        }
        None => "–".to_owned(),
    }
}

/// The headings of the per-seat win columns (the first with its interval's name).
fn seat_heads(seats: usize) -> Vec<String> {
    (1..=seats)
        .map(|s| {
            if s == 1 {
                "seat 1 wins [95 % CI]".to_owned()
            } else {
                format!("seat {s} wins")
            }
        })
        .collect()
}

/// `--each-option`'s table: the reading as it stands, then one row per option switched in
/// alone, with the register readings each option is and why games did not end.
fn each_option_table(out: &mut Out, run: &Run, args: &RunArgs) {
    let game = run.game;
    let variants: Vec<&Variant> = run.rows.iter().map(|r| &r.variant).collect();
    let outputs: Vec<&RunOutput> = run.rows.iter().map(|r| &r.output).collect();
    let (variants, outputs, refused) = (&variants[..], &outputs[..], &run.refused[..]);
    let interp = variants[0].interp;
    let head = format!(
        "{} · {} with each option it does not take switched in alone · {} · seed {}",
        game.name,
        interp.id,
        games_played(args.games, &args.lineup, " each (the same games)"),
        args.seed
    );
    title(out, &head);
    let seats = max_seats(outputs);
    let rows = variants
        .iter()
        .zip(outputs)
        .map(|(v, o)| {
            let cell = |k: &str| rate_cell(&o.results.rates, k);
            let register: Vec<&str> = v
                .choose
                .iter()
                .flat_map(|(_, o)| o.register.iter().map(String::as_str))
                .collect();
            let mut row = vec![v.label(), register.join(" ")];
            row.extend((1..=seats).map(|s| cell(&format!("p{s}"))));
            let reasons: Vec<String> = o
                .results
                .timeouts_by_reason
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            row.extend([
                cell("draw"),
                cell("timeout"),
                reasons.join(", "),
                format!(
                    "{:.1} [{:.1}–{:.1}]",
                    o.plies.mean, o.plies.mean_ci[0], o.plies.mean_ci[1]
                ),
            ]);
            row.extend(agent_cells(o));
            row
        })
        .collect();
    let seat_heads = seat_heads(seats);
    let agent_heads = agent_heads(outputs);
    let mut heads = vec!["option switched in", "register"];
    heads.extend(seat_heads.iter().map(String::as_str));
    heads.extend([
        "draws",
        "timeouts",
        "timeouts by reason",
        "mean plies [95 % CI]",
    ]);
    heads.extend(agent_heads.iter().map(String::as_str));
    // Too narrow for every column: the agents' go first, then the timeouts (by reason, then
    // their rate), the register's ids and the lengths; the options and who wins stay.
    let s = seats;
    let mut spare: Vec<usize> = (s + 6..heads.len()).rev().collect();
    spare.extend([s + 4, s + 3, 1, s + 5]);
    out.table_sparing(&heads, rows, &spare);
    for r in refused {
        let label: Vec<String> = r.choose.iter().map(|(c, o)| format!("{c}={o}")).collect();
        out.para(&format!("refused: {}: {}", label.join(" "), r.reason));
    }
    if !game.declined.is_empty() {
        let rows = game
            .declined
            .iter()
            .map(|d| vec![d.reading.clone(), d.why.clone()])
            .collect();
        out.para(&format!(
            "Register readings no option offers ({}; `ludotrace point ID` gives each):",
            game.declined.len()
        ));
        out.table(&["declined reading", "why"], rows);
    }
    let endless: Vec<String> = variants
        .iter()
        .zip(outputs)
        .filter(|(_, o)| o.results.timeouts == o.header.games)
        .map(|(v, _)| v.label())
        .collect();
    if !endless.is_empty() {
        out.para(&format!(
            "no game ended under: {} (each a finding about the combination)",
            endless.join(", ")
        ));
    }
    footer(
        out,
        &outputs[0].header.corpus_hash,
        &command_line(&game.id, Some(&interp.id), args),
        args.corpus.as_deref(),
    );
}

/// The CSV view: one row per game, written block by block as the games finish.
pub struct CsvRows<'o> {
    out: &'o mut Out,
    seats: usize,
}

impl<'o> CsvRows<'o> {
    /// A writer of rows to `out`.
    pub fn new(out: &'o mut Out) -> Self {
        CsvRows { out, seats: 2 }
    }
}

impl GameRows for CsvRows<'_> {
    /// Writes the header (the event columns are those of the game's family).
    fn begin(&mut self, bound: &[Bound]) {
        let out = &mut *self.out;
        let kinds: Vec<&str> = bound
            .first()
            .map(|b| b.engine.visit(KindNames))
            .unwrap_or_default();
        let mut header = vec![
            "game",
            "interpretation",
            "index",
            "result",
            "winner",
            "end",
            "plies",
            "turns",
            "passes",
            "score1",
            "score2",
        ];
        header.extend(kinds);
        // Added after the event columns, so that every column kept its place.
        header.push("first_mover");
        // A reading's flagged places differ from another's, so each is one column of
        // `place=count` pairs (`;`-separated) rather than a column per place.
        header.push("uncovered");
        header.push("borrowed");
        // Who played each seat in the game, `;`-separated by seat.
        header.push("agents");
        out.line(&header.join(","));
        let seats = bound
            .iter()
            .map(|b| b.engine.visit(Seats))
            .max()
            .unwrap_or(2);
        self.seats = seats;
    }

    fn games(
        &mut self,
        game: &str,
        interp: &str,
        bound: &Bound,
        lineup: &Lineup,
        records: &[GameRecord],
    ) -> std::io::Result<()> {
        let places = bound.engine.visit(FlagPlaces { bound });
        csv_rows(self.seats, self.out, game, interp, &places, lineup, records);
        self.out.flush()
    }
}

/// One block's games as CSV rows.
fn csv_rows(
    seats: usize,
    out: &mut Out,
    game: &str,
    interp: &str,
    places: &[String],
    lineup: &Lineup,
    records: &[GameRecord],
) {
    for rec in records {
        let (result, winner, end, scores) = match rec.end {
            GameEnd::Timeout(why) => ("timeout", String::new(), why.name(), [0, 0]),
            GameEnd::Over(o) => {
                let winners: Vec<String> = (0..seats)
                    .filter(|&s| o.won(s))
                    .map(|s| (s + 1).to_string())
                    .collect();
                let result = if winners.is_empty() { "draw" } else { "win" };
                (result, winners.join(" "), o.end.name(), o.scores)
            }
        };
        let mut row = vec![
            game.to_owned(),
            interp.to_owned(),
            rec.index.to_string(),
            result.to_owned(),
            winner,
            end.to_owned(),
            rec.plies.to_string(),
            rec.turns.to_string(),
            rec.passes.to_string(),
            scores[0].to_string(),
            scores[1].to_string(),
        ];
        row.extend(rec.events.iter().map(u32::to_string));
        row.push(
            rec.first_mover
                .map(|s| (s + 1).to_string())
                .unwrap_or_default(),
        );
        for prefix in ["uncovered:", "borrowed:"] {
            let pairs: Vec<String> = places
                .iter()
                .zip(&rec.flags)
                .filter(|(_, n)| **n > 0)
                .filter_map(|(p, n)| p.strip_prefix(prefix).map(|p| format!("{p}={n}")))
                .collect();
            row.push(pairs.join(";"));
        }
        let agents: Vec<String> = (0..seats)
            .map(|seat| lineup.agent(rec.index, seat).to_string())
            .collect();
        row.push(agents.join(";"));
        out.line(&row.join(","));
    }
}

/// The flagged places of a bound reading (`uncovered:<place>`, `borrowed:<place>`), in the
/// order of its [`Coverage`]: the names of a [`GameRecord`]'s `flags`.
struct FlagPlaces<'a> {
    bound: &'a Bound,
}

impl EngineVisitor for FlagPlaces<'_> {
    type Output = Vec<String>;
    fn visit<F: GameFamily>(self, _: &F::Rules) -> Self::Output {
        Coverage::new::<F::Rules>(|p| self.bound.flag(p)).places
    }
}

/// An engine's event kind names.
struct KindNames;

impl EngineVisitor for KindNames {
    type Output = Vec<&'static str>;
    fn visit<F: GameFamily>(self, _: &F::Rules) -> Self::Output {
        kind_names::<F::Rules>().collect()
    }
}
