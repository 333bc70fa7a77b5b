//! `ludotrace explain GAME -i READING`: one seeded game, move by move, with the rule behind
//! every move and every event: the clause, the option taken at an open point (and the
//! others), the reading's own setting or the engine's default that set the parameters the
//! engine consulted, the words each rests on with their place in the source, and its class
//! for the reading. Where no words of the reading's basis decide a rule application, the
//! application carries the gap (`uncovered` or `borrowed`, the place that is silent), as
//! `run` counts it. With `--against B`, the same game under a second reading
//! ([`against`]).
//!
//! The game is game `K` of `ludotrace run GAME -i READING --seed S` (the same generator,
//! the same agents at the same seats): the engine is traced step by step
//! ([`crate::sim::trace_with`]), which `tests/runner_shortcuts.rs` holds equal to `run`'s
//! loop. What a move applies is the engine's [`crate::games::Rules::move_params`], what an
//! event applies its kind's [`crate::games::EventKind::params`]; this module only maps
//! those parameters to the corpus ([`rules`]).

pub mod against;
pub mod rules;

use schemars::JsonSchema;
use serde::Serialize;

use crate::agents::Lineup;
use crate::analysis::header::{Header, Played};
use crate::analysis::{Error, game_of, interpretation_of};
use crate::bind::{self, Bound};
use crate::corpus::{Corpus, Game, Interpretation};
use crate::games::position::PositionError;
use crate::games::view::BoardView;
use crate::games::{Event, EventKind, Rules};
use crate::registry::{EngineVisitor, GameFamily};
use crate::rng::reading_key;
use crate::sim::{GameEnd, Timeout, playthrough::end_lines, trace_with};

pub use against::{Against, ChoiceApart, Parting};
pub use rules::{Gap, OpenPoint, OptionShown, Quote, Rule};

/// What the user asked `explain` for.
#[derive(Debug, Clone)]
pub struct ExplainArgs {
    /// Game id.
    pub game: String,
    /// The reading.
    pub interpretation: String,
    /// `--set PARAM=VALUE` overrides.
    pub set: Vec<String>,
    /// Run seed.
    pub seed: u64,
    /// The game's index in the run.
    pub index: u64,
    /// Games in the run (the index must be below it).
    pub games: u64,
    /// Who plays.
    pub lineup: Lineup,
    /// The run's ply limit.
    pub max_plies: u32,
    /// The plies shown, first and last (all when `None`).
    pub plies: Option<(u32, u32)>,
    /// A second reading to play the same game under.
    pub against: Option<String>,
    /// A position to start from, in the position notation, instead of the start.
    pub position: Option<String>,
    /// BLAKE3 of the corpus files, for the output's header.
    pub corpus_hash: String,
}

/// `explain --format json`: one game explained, and with `--against`, the same game under a
/// second reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExplainOutput {
    /// What was played: the run's game, seed, games, ply limit and agents, the corpus and
    /// ludotrace's version, as every played output opens.
    #[serde(flatten)]
    pub header: Header,
    /// The command that writes this explanation again.
    pub command: String,
    /// The run whose game it is: `ludotrace run …`, of which this is game `index` (with
    /// `from_position`, the run whose game `index` gives the generator and the players).
    pub same_game_as: String,
    /// The position the game starts from (`--position`), as given: then the game is not one
    /// `run` plays, only its generator and players are game `index`'s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_position: Option<String>,
    /// The game explained.
    pub explained: Explanation,
    /// With `--against`: the same game under the second reading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<Against>,
}

/// One reading's game, step by step.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Explanation {
    /// Game id.
    pub game: String,
    /// The game's name.
    pub name: String,
    /// The reading.
    pub interpretation: String,
    /// The reading's title.
    pub title: String,
    /// The overrides (`--set`), as given.
    pub overrides: serde_json::Map<String, serde_json::Value>,
    /// Run seed.
    pub seed: u64,
    /// The game's index in the run.
    pub index: u64,
    /// Who plays each seat, `seat 1: random`.
    pub seating: Vec<String>,
    /// The run's ply limit (readings with an engine cap play to their cap instead).
    pub max_plies: u32,
    /// The plies shown, first and last.
    pub shown: (u32, u32),
    /// Decisions in the whole game.
    pub plies: u32,
    /// The board's sites, row by row, top first, by name (the same for every step).
    pub layout: Vec<Vec<String>>,
    /// The position before anything happens.
    pub start: Position,
    /// The steps shown, in order.
    pub steps: Vec<Step>,
    /// Every rule the steps apply, each once, in the order first met.
    pub rules: Vec<Rule>,
    /// How the game ended, in words (the result line and any places).
    pub result: Vec<String>,
    /// How the game ended: `win`, `draw`, `unfinished` or a timeout's reason
    /// (`timeout-ply-limit`, `timeout-search-limit`, `timeout-cycle`, `timeout-endless`).
    pub end: String,
    /// Where a game that did not finish rests on a rule no words decide (an end rule, a cap
    /// or a repetition rule that is interpolated or borrowed): the gaps, as for a step, as
    /// `run` counts a timeout.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub end_gaps: Vec<Gap>,
}

impl Explanation {
    /// Which plies are shown, in words: `plies 1 to 24 of 31 shown`, or, for a game over at the
    /// position it starts from, that none is played.
    pub fn shown_text(&self) -> String {
        let (a, b) = self.shown;
        if self.plies < a {
            "no ply is played: the game is over at the position it starts from".to_owned()
        } else {
            format!("plies {a} to {b} of {} shown", self.plies)
        }
    }
}

/// A position: the board as drawn and the one-line text the playthroughs write.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Position {
    /// What each site holds, row by row as in the layout (empty: nothing).
    pub sites: Vec<Vec<String>>,
    /// Whose each site or its contents is (seat number from 1), row by row; 0 for nobody.
    pub seats: Vec<Vec<u8>>,
    /// The sites the rules mark (a daughter's house, a counter not yet released), by name.
    pub marked: Vec<String>,
    /// What lies beside the board: `name value` pairs (`taken` `3-5`).
    pub notes: Vec<(String, String)>,
    /// The position in the playthroughs' one-line notation.
    pub text: String,
    /// The position in the position notation, which `--position` reads back.
    pub notation: String,
}

impl Position {
    fn new(view: &BoardView, text: String, notation: String) -> Self {
        Position {
            sites: view
                .rows
                .iter()
                .map(|r| r.iter().map(|s| s.text.clone()).collect())
                .collect(),
            seats: view
                .rows
                .iter()
                .map(|r| r.iter().map(|s| s.seat.map_or(0, |s| s + 1)).collect())
                .collect(),
            marked: view
                .rows
                .iter()
                .flatten()
                .filter(|s| s.marked)
                .map(|s| s.name.clone())
                .collect(),
            notes: view.notes.clone(),
            text,
            notation,
        }
    }

    /// The board as a view again, with the layout's names (for the text diagram).
    pub fn view(&self, layout: &[Vec<String>]) -> BoardView {
        BoardView {
            rows: layout
                .iter()
                .zip(&self.sites)
                .zip(&self.seats)
                .map(|((names, texts), seats)| {
                    names
                        .iter()
                        .zip(texts)
                        .zip(seats)
                        .map(|((name, text), &seat)| {
                            crate::games::view::SiteView::new(
                                name.clone(),
                                text.clone(),
                                seat.checked_sub(1),
                                !name.is_empty() && self.marked.contains(name),
                            )
                        })
                        .collect()
                })
                .collect(),
            notes: self.notes.clone(),
        }
    }
}

/// One step of the game: the start's own events, a chance outcome, or a decision.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Step {
    /// `start` (rules that fire before anything is decided), `chance` (a lot, a throw) or
    /// `move` (a seat's decision).
    pub kind: String,
    /// The decision's number from 1 (`ply N`); for a chance step, the number of the
    /// decision it comes before.
    pub ply: u32,
    /// The seat that decided, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u32>,
    /// The move, in the game's notation.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// The number of legal moves the seat chose from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<usize>,
    /// The chance outcome's index among the engine's outcomes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<usize>,
    /// The chance outcome in words (`the sticks fall 4 (rabî')`, `the lot`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// What the step applied, in order: the move's own rule, then each event.
    pub applies: Vec<Application>,
    /// The position after the step.
    pub after: Position,
    /// With `--against`: whether the second reading's step replays the first reading's
    /// (its move or chance outcome), rather than its own agent's or generator's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replayed: Option<bool>,
}

impl Step {
    /// The step's heading, as the printers write it: `Ply 3 · seat 1 plays a2 cw (one of 5
    /// legal moves)`, `Chance before ply 1: the lot`.
    pub fn title(&self) -> String {
        let replayed = match self.replayed {
            Some(true) => " [replayed]",
            Some(false) if self.kind != "start" => " [its own]",
            _ => "",
        };
        match self.kind.as_str() {
            "start" => "Before any decision".to_owned(),
            "chance" => format!(
                "Chance before ply {}: {}{replayed}",
                self.ply,
                self.outcome.as_deref().unwrap_or("")
            ),
            _ => format!(
                "Ply {} · seat {} plays {} ({}){replayed}",
                self.ply,
                self.seat.unwrap_or(0),
                self.mv.as_deref().unwrap_or("?"),
                match self.legal {
                    Some(1) => "its only legal move".to_owned(),
                    Some(n) => format!("one of {n} legal moves"),
                    None => String::new(),
                }
            ),
        }
    }
}

/// One rule application: a move made, or an event the rules reported.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Application {
    /// `move`, or the event's kind (`capture`, `relay`, `lot`, …).
    pub kind: String,
    /// What happened, in the game's notation.
    pub what: String,
    /// The parameters that decided it (none where no parameter does: then `rules` is the
    /// clause that states the rule, and nothing about it can be uncovered).
    pub params: Vec<String>,
    /// The rules (ids into the explanation's `rules`) that set them, in order.
    pub rules: Vec<String>,
    /// Where no words of the reading's basis decide it: the silent or borrowed places.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// One reading bound, with its corpus entries.
pub(super) struct Reading<'c> {
    pub game: &'c Game,
    pub interp: &'c Interpretation,
    pub bound: Bound,
}

/// Explains one game.
///
/// # Errors
/// An unknown game or reading, an override the family refuses, a game index beyond the
/// run, a ply range outside the game.
pub fn explain(corpus: &Corpus, args: &ExplainArgs) -> Result<ExplainOutput, Error> {
    let game = game_of(corpus, &args.game)?;
    let interp = interpretation_of(game, &args.interpretation)?;
    if args.index >= args.games {
        return Err(Error::Usage(format!(
            "--game {}: the run has {} game(s) (-n {}), numbered 0 to {}; give an index below \
             -n, or raise -n",
            args.index,
            args.games,
            args.games,
            args.games.saturating_sub(1)
        )));
    }
    if let Some((a, b)) = args.plies
        && (a == 0 || b < a)
    {
        return Err(Error::Usage(format!(
            "--plies {a}..{b}: plies are numbered from 1, and the range's end must not come \
             before its start (e.g. --plies 1..40)"
        )));
    }
    let overrides = bind::parse_overrides(&args.set)?;
    let bound = bind::bind(game, interp, &overrides)?;
    crate::analysis::play::check_seated(&args.lineup, &bound)?;
    crate::analysis::perfect::check_perfect(
        &args.lineup,
        &bound,
        &interp.id,
        args.position.as_deref(),
    )?;
    let reading = Reading {
        game,
        interp,
        bound,
    };
    let (explained, trace) = explain_reading(corpus, &reading, args, None)?;
    let against = match &args.against {
        None => None,
        Some(b) => {
            let other = interpretation_of(game, b)?;
            let bound = bind::bind(game, other, &overrides)?;
            crate::analysis::play::check_seated(&args.lineup, &bound)?;
            crate::analysis::perfect::check_perfect(
                &args.lineup,
                &bound,
                &other.id,
                args.position.as_deref(),
            )?;
            let b = Reading {
                game,
                interp: other,
                bound,
            };
            Some(against::against(corpus, &reading, &b, args, &trace)?)
        }
    };
    let seats = reading.bound.engine.visit(SeatsOf);
    Ok(ExplainOutput {
        header: Header::new(
            Played {
                game: &game.id,
                corpus_hash: &args.corpus_hash,
                seed: args.seed,
                games: args.games,
                max_plies: args.max_plies,
                max_quiet: 0,
            },
            &args.lineup,
            seats,
        ),
        command: command(args, &game.id, &interp.id),
        same_game_as: run_command(args, &game.id, &interp.id),
        from_position: args.position.clone(),
        explained,
        against,
    })
}

/// The `explain` command that writes this explanation again.
fn command(args: &ExplainArgs, game: &str, reading: &str) -> String {
    let mut c = format!("ludotrace explain {game} -i {reading}");
    if let Some(b) = &args.against {
        c.push_str(&format!(" --against {b}"));
    }
    c.push_str(&run_options(args));
    c.push_str(&format!(" --game {}", args.index));
    if let Some(p) = &args.position {
        c.push_str(&format!(
            " --position '{}'",
            p.split_whitespace().collect::<Vec<_>>().join(" ")
        ));
    }
    if let Some((a, b)) = args.plies {
        c.push_str(&format!(" --plies {a}..{b}"));
    }
    c
}

/// The `run` whose game `index` this is.
fn run_command(args: &ExplainArgs, game: &str, reading: &str) -> String {
    format!("ludotrace run {game} -i {reading}{}", run_options(args))
}

/// The options `run` and `explain` share, as given where they matter.
fn run_options(args: &ExplainArgs) -> String {
    let mut c = format!(" -n {} --seed {}", args.games, args.seed);
    if args.max_plies != crate::sim::DEFAULT_MAX_PLIES {
        c.push_str(&format!(" --max-plies {}", args.max_plies));
    }
    if !args.lineup.is_random() {
        let names: Vec<String> = args
            .lineup
            .agents()
            .iter()
            .map(ToString::to_string)
            .collect();
        c.push_str(&format!(" --agents {}", names.join(",")));
    }
    if args.lineup.swap() {
        c.push_str(" --swap");
    }
    for s in &args.set {
        c.push_str(&format!(" --set '{s}'"));
    }
    c
}

/// What a traced game was, step by step, with nothing mapped to the corpus yet: what
/// `--against` replays.
#[derive(Debug, Clone, Default)]
pub(super) struct Trace {
    /// Each step: the chance outcome, or the move's text.
    pub steps: Vec<RawStep>,
    /// How the game ended.
    pub end: Option<GameEnd>,
    /// Decisions in the game (those before a starting position included).
    pub plies: u32,
    /// Decisions made before the game's first position: 0, or a starting position's.
    pub start_ply: u32,
}

impl Trace {
    /// A trace that holds only the position before anything happens: the start, or `from`.
    pub(super) fn starting<R: Rules>(rules: &R, from: Option<&R::State>) -> Self {
        let start = from.cloned().unwrap_or_else(|| rules.initial());
        let start_ply = rules.plies(&start);
        Trace {
            steps: vec![RawStep {
                kind: StepKind::Start,
                ply: 0,
                seat: None,
                legal: 0,
                applies: Vec::new(),
                view: rules.board(&start),
                text: rules.state_text(&start),
                notation: rules.position_text(&start),
                replayed: None,
                chance_text: String::new(),
            }],
            end: None,
            plies: start_ply,
            start_ply,
        }
    }
}

/// One traced step.
#[derive(Debug, Clone)]
pub(super) struct RawStep {
    pub kind: StepKind,
    pub ply: u32,
    pub seat: Option<usize>,
    pub legal: usize,
    /// What the step applied: the move, then each event, as (kind, text, deciding
    /// parameters, parameters of the rule that do not decide it: [`EventKind::context`]).
    pub applies: Vec<Applied>,
    pub view: BoardView,
    pub text: String,
    pub notation: String,
    pub replayed: Option<bool>,
    /// A chance step's outcome in words.
    pub chance_text: String,
}

/// One rule application as traced: (kind, text, deciding parameters, the rule's other
/// parameters).
pub(super) type Applied = (
    &'static str,
    String,
    &'static [&'static str],
    &'static [&'static str],
);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StepKind {
    Start,
    Chance(usize),
    Move,
}

impl RawStep {
    /// The move's text, for a decision.
    pub fn move_text(&self) -> Option<&str> {
        (self.kind == StepKind::Move)
            .then(|| self.applies.first().map(|(_, t, _, _)| t.as_str()))
            .flatten()
    }
}

/// Traces a reading's game and explains it; also returns the trace (for `--against`).
fn explain_reading(
    corpus: &Corpus,
    r: &Reading,
    args: &ExplainArgs,
    script: Option<&Trace>,
) -> Result<(Explanation, Trace), Error> {
    let trace = trace_reading(r, args, script)?;
    // The plies a game has: from the first after its starting position to its last.
    let lowest = trace.start_ply + 1;
    let highest = trace.plies.max(lowest);
    let (first, last) = args.plies.unwrap_or((lowest, highest));
    if first > highest || first < lowest {
        let game = match args.position {
            Some(_) => "the game from the position given".to_owned(),
            None => format!("game {} of {} / {}", args.index, r.game.id, r.interp.id),
        };
        return Err(Error::Usage(format!(
            "--plies {first}..{}: {game} has plies {lowest} to {}; give a range within \
             {lowest}..{highest}",
            // An open range (`900..`) as given.
            if last == u32::MAX {
                String::new()
            } else {
                last.to_string()
            },
            trace.plies
        )));
    }
    let last = last.min(highest);
    Ok((explanation(corpus, r, args, &trace, (first, last)), trace))
}

/// Traces a reading's game: from the start or `--position`, replaying `script` where given.
pub(super) fn trace_reading(
    r: &Reading,
    args: &ExplainArgs,
    script: Option<&Trace>,
) -> Result<Trace, Error> {
    r.bound
        .engine
        .visit(Tracer {
            lineup: &args.lineup,
            values: &r.bound.values,
            shown: args.plies,
            position: args.position.as_deref(),
            seed: args.seed,
            key: reading_key(&r.game.id, &r.interp.id),
            index: args.index,
            max_plies: args.max_plies,
            script,
        })
        .map_err(|e| {
            Error::Usage(format!(
                "--position under {} / {}: {e} (see guide/explain.md for the notation)",
                r.game.id, r.interp.id
            ))
        })
}

/// The explanation of a traced game, for the plies `shown`.
pub(super) fn explanation(
    corpus: &Corpus,
    r: &Reading,
    args: &ExplainArgs,
    trace: &Trace,
    shown: (u32, u32),
) -> Explanation {
    let mut book = rules::RuleBook::new(corpus, r.game, r.interp, &r.bound);
    let start = trace
        .steps
        .first()
        .map(|s| &s.view)
        .cloned()
        .unwrap_or_default();
    let layout: Vec<Vec<String>> = start
        .rows
        .iter()
        .map(|row| row.iter().map(|s| s.name.clone()).collect())
        .collect();
    let mut steps = Vec::new();
    let mut first_position = None;
    for s in trace.steps.iter().skip(1) {
        // A chance step shows with the decision it comes before.
        if s.ply < shown.0 || s.ply > shown.1 {
            if s.ply < shown.0 {
                first_position = Some(Position::new(&s.view, s.text.clone(), s.notation.clone()));
            }
            continue;
        }
        let applies = s
            .applies
            .iter()
            .map(|(kind, what, params, context)| {
                let (rules, gaps) = book.apply(params, context);
                Application {
                    kind: (*kind).to_owned(),
                    what: what.clone(),
                    params: params.iter().map(|p| (*p).to_owned()).collect(),
                    rules,
                    gaps,
                }
            })
            .collect();
        steps.push(Step {
            kind: match s.kind {
                StepKind::Start => "start",
                StepKind::Chance(_) => "chance",
                StepKind::Move => "move",
            }
            .to_owned(),
            ply: s.ply,
            seat: s.seat.map(|x| x as u32 + 1),
            mv: s.move_text().map(str::to_owned),
            legal: (s.kind == StepKind::Move).then_some(s.legal),
            chance: match s.kind {
                StepKind::Chance(k) => Some(k),
                _ => None,
            },
            outcome: matches!(s.kind, StepKind::Chance(_)).then(|| s.chance_text.clone()),
            applies,
            after: Position::new(&s.view, s.text.clone(), s.notation.clone()),
            replayed: s.replayed,
        });
    }
    let start_position = trace.steps.first().map_or_else(
        || Position::new(&BoardView::default(), String::new(), String::new()),
        |s| Position::new(&s.view, s.text.clone(), s.notation.clone()),
    );
    let end = trace.end.unwrap_or(GameEnd::Timeout(Timeout::PlyLimit));
    let seats = r.bound.engine.visit(SeatsOf);
    // A game that did not finish rests on the rules that could have ended it, as `run`
    // counts a timeout.
    let end_gaps = match end {
        GameEnd::Timeout(_) => {
            let (_, gaps) = book.apply(r.bound.engine.visit(EndlessParams), &[]);
            gaps
        }
        GameEnd::Over(_) => Vec::new(),
    };
    Explanation {
        game: r.game.id.clone(),
        name: r.game.name.clone(),
        interpretation: r.interp.id.clone(),
        title: r.interp.title.clone(),
        overrides: r.bound.overrides.clone(),
        seed: args.seed,
        index: args.index,
        seating: (0..seats)
            .map(|s| format!("seat {}: {}", s + 1, args.lineup.agent(args.index, s)))
            .collect(),
        max_plies: args.max_plies,
        shown,
        plies: trace.plies,
        layout,
        start: first_position.unwrap_or(start_position),
        steps,
        rules: book.rules,
        result: end_lines(&end, seats, args.max_plies),
        end: end_name(&end),
        end_gaps,
    }
}

/// The end's name in the JSON.
fn end_name(end: &GameEnd) -> String {
    match end {
        GameEnd::Over(o) => match o.result {
            crate::games::Result_::Win(_) => "win",
            crate::games::Result_::Draw => "draw",
            crate::games::Result_::Unfinished => "unfinished",
        }
        .to_owned(),
        GameEnd::Timeout(t) => format!(
            "timeout-{}",
            match t {
                Timeout::PlyLimit => "ply-limit",
                Timeout::QuietLimit => "quiet-limit",
                Timeout::SearchLimit => "search-limit",
                Timeout::Cycle => "cycle",
                Timeout::Endless => "endless",
            }
        ),
    }
}

/// The engine's seats.
struct SeatsOf;

impl EngineVisitor for SeatsOf {
    type Output = usize;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
        rules.seats()
    }
}

/// The parameters that decide whether a game of the engine's family can go on for ever.
struct EndlessParams;

impl EngineVisitor for EndlessParams {
    type Output = &'static [&'static str];
    fn visit<F: GameFamily>(self, _: &F::Rules) -> &'static [&'static str] {
        <<F::Rules as Rules>::Event as Event>::Kind::ENDLESS_PARAMS
    }
}

/// Traces one game of any family into [`Trace`]: with `script`, the steps of another
/// reading's game are replayed while they can be ([`against`]).
struct Tracer<'a> {
    lineup: &'a Lineup,
    /// The reading's parameter values, which name its solved table for `perfect`.
    values: &'a serde_json::Map<String, serde_json::Value>,
    /// The plies shown (`--plies`), where given: only their steps are drawn.
    shown: Option<(u32, u32)>,
    /// A starting position, in the notation.
    position: Option<&'a str>,
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
    script: Option<&'a Trace>,
}

impl EngineVisitor for Tracer<'_> {
    type Output = Result<Trace, PositionError>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Result<Trace, PositionError> {
        let from = self
            .position
            .map(|text| rules.parse_position(text))
            .transpose()?;
        let lineup =
            crate::analysis::perfect::seated(self.lineup, rules, self.values, from.as_ref());
        let lineup = lineup.as_ref();
        if let Some(script) = self.script {
            return Ok(against::replay(
                rules,
                lineup,
                (self.seed, self.key, self.index),
                (self.max_plies, self.shown),
                from,
                script,
            ));
        }
        let mut t = Trace::starting(rules, from.as_ref());
        let mut ply = t.start_ply;
        let end = trace_with(
            rules,
            Some(lineup),
            from,
            self.seed,
            self.key,
            self.index,
            self.max_plies,
            |step| {
                t.steps
                    .push(raw_step(rules, &step, &mut ply, None, self.shown));
            },
        );
        t.end = Some(end);
        t.plies = ply;
        Ok(t)
    }
}

/// A traced step as [`RawStep`]. `ply` counts decisions; a chance step and the start's
/// events belong to the decision that follows them. Outside the plies `shown` (and the step
/// just before them, the position they start from) the board and the notation are left
/// empty: no output shows them, and a long game explained in part would otherwise build
/// them for every step.
pub(super) fn raw_step<R: Rules>(
    rules: &R,
    step: &crate::sim::TraceStep<'_, R>,
    ply: &mut u32,
    replayed: Option<bool>,
    shown: Option<(u32, u32)>,
) -> RawStep {
    let kind = match (step.seat, step.chance) {
        (_, Some(k)) => StepKind::Chance(k),
        (None, None) => StepKind::Start,
        (Some(_), None) => StepKind::Move,
    };
    let mut applies: Vec<Applied> = Vec::with_capacity(step.events.len() + 1);
    if kind == StepKind::Move {
        *ply += 1;
        let mv = step.legal[step.chosen];
        applies.push(("move", rules.move_text(mv), rules.move_params(mv), &[]));
    }
    for e in step.events {
        let k = e.kind();
        applies.push((k.name(), rules.event_text(e), k.params(), k.context()));
    }
    let number = if kind == StepKind::Move {
        *ply
    } else {
        *ply + 1
    };
    let drawn = shown.is_none_or(|(a, b)| number + 1 >= a && number <= b);
    RawStep {
        kind,
        ply: number,
        seat: step.seat,
        legal: step.legal.len(),
        applies,
        view: if drawn {
            rules.board(step.state)
        } else {
            BoardView::default()
        },
        // The state's text stays for every step: `--against` compares the two games by it.
        text: rules.state_text(step.state),
        notation: if drawn {
            rules.position_text(step.state)
        } else {
            String::new()
        },
        replayed,
        chance_text: step.chance_text.clone(),
    }
}
