//! `ludotrace assess`: how each reading plays under self-play, by the metrics of Ludii's
//! Evaluation module and Browne's criteria, each with its 95 % interval, at several agent
//! strengths, and a verdict per reading on stated criteria.
//!
//! Each reading is played once per strength (`--agents`, each agent at every seat) on the
//! reading's own streams, the very games `run -i R --agents A` plays, with every game
//! measured ([`sim::GameMetrics`]). Rates come with Wilson intervals, lengths with the
//! censoring-aware Kaplan–Meier median, per-game measures with Student's t interval of their
//! mean. A metric that cannot inform a reading (an evaluation that never moved, a board full
//! from the start) carries the reason instead of a number. A criterion is *met* when the
//! whole interval satisfies it, *failed* when none of it does, *uncertain* when it
//! straddles the threshold; readings are ordered by criteria met, never by a composite
//! score. A metric whose intervals at two skilled strengths do not overlap is
//! *agent-sensitive*. These figures describe how agents play a reading, not how likely the
//! reading is historically.

use indicatif::ProgressBar;
use schemars::JsonSchema;
use serde::Serialize;

use crate::agents::{Agent, Lineup};
use crate::analysis::Error;
use crate::analysis::header::{Header, Played};
use crate::analysis::play::{Seats, check_numbers, check_quiet, corpus_hash, play_reading, pool};
use crate::analysis::reproduce::Reproduce;
use crate::corpus::{Choice, Corpus, CorpusFiles, Game, Interpretation};
use crate::exec::{Exec, Task};
use crate::sim::{RunSpec, Tally};

mod criteria;
mod figures;

pub use criteria::{Criteria, Criterion, DEFAULT_CRITERIA, Rule, Verdict};
use figures::apart;
pub use figures::{Figure, METRICS, Metric, figure_words, figures};

/// The strengths `assess` plays when none are given: random play beside two skilled levels.
pub const DEFAULT_AGENTS: &str = "random,fair,strong";

/// The quiet limit `assess` plays to by default: skilled players of some readings shuffle
/// pieces for ever, and a search at every ply of a game that will not end is the dearest
/// thing the tool can do. A limit of the experiment: the games it stops are censored.
pub const DEFAULT_MAX_QUIET: u32 = 2000;

/// The games `assess` plays of each reading at each strength by default.
pub const DEFAULT_GAMES: u64 = 100;

/// What the user asked `assess` for.
#[derive(Debug, Clone)]
pub struct AssessArgs {
    /// Game id.
    pub game: String,
    /// The readings (none: the game's first, unless `all`).
    pub interpretations: Vec<String>,
    /// Every reading of the game.
    pub all: bool,
    /// The strengths, comma-separated: each agent plays every seat of its own games.
    pub agents: String,
    /// Games per reading and strength.
    pub games: u64,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Quiet limit (0: none).
    pub max_quiet: u32,
    /// `--set` overrides, applied to every reading.
    pub set: Vec<String>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The criteria.
    pub criteria: Criteria,
    /// Switch each open point one option at a time into each reading, under each skilled
    /// strength, and name the points whose options move it across a criterion.
    pub by_point: bool,
    /// With `by_point`, only these open points (a choice's id, or a register point it
    /// addresses, such as `UB-18`); none: every one.
    pub points: Vec<String>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
}

/// `assess --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Assessment {
    /// What was played (`games`: games per reading and strength; `lineup`: the strengths;
    /// `agents`: the seats of the first strength's games).
    #[serde(flatten)]
    pub header: Header,
    /// The strengths, as given: each agent at every seat of its games.
    pub strengths: Vec<String>,
    /// The criteria applied.
    pub criteria: Criteria,
    /// The readings, by criteria met (at the strongest skilled strength, then the next),
    /// then in the corpus's order.
    pub readings: Vec<ReadingAssessment>,
    /// With `--by-point`: each open point of each reading switched one option at a time,
    /// under each skilled strength: by reading in the order given (`-i`, or the corpus's),
    /// then by strength, then in the ruleset's order of choices. Absent without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_point: Option<Vec<PointEffect>>,
}

/// One open point switched one option at a time into one reading under one strength: every
/// option's figures and verdicts (the reading's own first), and the criteria its options
/// take across.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct PointEffect {
    /// The reading switched from.
    pub interpretation: String,
    /// The agent at every seat.
    pub agent: String,
    /// The choice (the open point as the ruleset names it).
    pub choice: String,
    /// The register's points it addresses.
    pub addresses: Vec<String>,
    /// Every option: the one the reading takes first (absent where it leaves the point
    /// open), then the others in the ruleset's order.
    pub options: Vec<OptionArm>,
    /// The criteria whose verdict the options move: one option meets it and another fails
    /// it (`decides`), or one meets or fails it and another is uncertain (`may_move`).
    pub moves: Vec<Moved>,
}

/// One option of a point, played.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OptionArm {
    /// The option.
    pub option: String,
    /// Whether the reading takes it.
    pub taken: bool,
    /// Who proposes it.
    pub by: Vec<String>,
    /// Why the engine cannot play the reading with it switched in, where it cannot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// The criteria's figures, in the criteria's order (empty where refused).
    pub figures: Vec<Figure>,
    /// Their verdicts, likewise.
    pub verdicts: Vec<Verdict>,
    /// The command that plays it.
    pub reproduce: String,
}

/// A criterion the options of a point move.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Moved {
    /// The criterion's place in the criteria.
    pub criterion: usize,
    /// `decides` (met by one option, failed by another) or `may-move` (met or failed by one,
    /// uncertain under another).
    pub how: String,
    /// The options that meet it.
    pub met: Vec<String>,
    /// The options that fail it.
    pub failed: Vec<String>,
    /// The options under which it is uncertain.
    pub uncertain: Vec<String>,
}

/// One reading, at every strength.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReadingAssessment {
    /// Interpretation id.
    pub interpretation: String,
    /// By strength, in the order given.
    pub arms: Vec<Arm>,
    /// The metrics whose 95 % intervals at two skilled strengths (random play apart) do
    /// not overlap: the reading's figure depends on how well it is played.
    pub agent_sensitive: Vec<Metric>,
    /// The reading in plain words, from its figures at the strongest skilled strength.
    pub summary: String,
}

/// One reading at one strength.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Arm {
    /// The agent at every seat.
    pub agent: String,
    /// Games played.
    pub games: u64,
    /// Decisions made in all its games, each a search for a skilled agent: what the arm
    /// cost to play, in a unit no machine changes.
    pub decisions: u64,
    /// Every metric, in [`METRICS`] order.
    pub figures: Vec<Figure>,
    /// Each criterion's verdict, in the criteria's order.
    pub verdicts: Vec<Verdict>,
    /// Criteria met, failed and uncertain (unknown is the rest).
    pub met: usize,
    /// Criteria failed.
    pub failed: usize,
    /// Criteria uncertain.
    pub uncertain: usize,
}

/// Plays and measures the readings.
///
/// # Errors
/// Unknown game, reading or agent, bad overrides, out-of-range numbers.
pub fn assess(
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &AssessArgs,
    bar: &ProgressBar,
) -> Result<Assessment, Error> {
    assess_from(exec, corpus, files, args, bar, None)
}

/// An assessment already made, whose arms a later one may take rather than play again.
#[derive(Debug, Clone, Copy)]
pub struct Earlier<'a> {
    /// What it found.
    pub assessment: &'a Assessment,
    /// What it was asked.
    pub args: &'a AssessArgs,
}

impl Earlier<'_> {
    /// The arm of `reading` at `agent`, when it was played with the numbers `args` asks
    /// for: the same games (seed, count, limits, overrides) judged by the same criteria, so
    /// the very arm `args` would play.
    fn arm(&self, args: &AssessArgs, reading: &str, agent: &str) -> Option<Arm> {
        let e = self.args;
        let same = e.game == args.game
            && e.seed == args.seed
            && e.games == args.games
            && e.max_plies == args.max_plies
            && e.max_quiet == args.max_quiet
            && e.set == args.set
            && e.criteria.list == args.criteria.list;
        if !same {
            return None;
        }
        let r = self
            .assessment
            .readings
            .iter()
            .find(|r| r.interpretation == reading)?;
        let k = self.assessment.strengths.iter().position(|s| s == agent)?;
        r.arms.get(k).cloned()
    }
}

/// [`assess`], taking each arm `earlier` played with the same numbers from it instead of
/// playing it again (a report asks for the same reading at the same strength in several
/// sections). The result is the one [`assess`] gives, byte for byte.
///
/// # Errors
/// As [`assess`].
pub fn assess_from(
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &AssessArgs,
    bar: &ProgressBar,
    earlier: Option<Earlier>,
) -> Result<Assessment, Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    check_quiet(args.max_quiet)?;
    let agents = parse_agents(&args.agents)?;
    let game: &Game = crate::analysis::game_of(corpus, &args.game)?;
    let readings: Vec<&Interpretation> = if args.all {
        game.interpretations.iter().collect()
    } else if args.interpretations.is_empty() {
        game.interpretations.iter().take(1).collect()
    } else {
        args.interpretations
            .iter()
            .map(|id| crate::analysis::interpretation_of(game, id))
            .collect::<Result<_, _>>()?
    };
    let set = crate::bind::parse_overrides(&args.set)?;
    let bound = readings
        .iter()
        .map(|interp| crate::bind::bind(game, interp, &set))
        .collect::<Result<Vec<_>, _>>()?;
    let lineups: Vec<Lineup> = agents
        .iter()
        .map(|a| Lineup::new(vec![*a], false).map_err(|e| Error::Usage(e.to_string())))
        .collect::<Result<_, _>>()?;
    for (interp, b) in readings.iter().zip(&bound) {
        for lineup in &lineups {
            crate::analysis::perfect::check_perfect(lineup, b, &interp.id, None)?;
        }
    }
    let pool = pool(args.threads)?;
    bar.inc_length(args.games * (readings.len() * agents.len()) as u64);
    let hash = corpus_hash(files);
    let mut out = Vec::new();
    let rows = readings.len() * agents.len();
    let mut k = 0;
    let mut seats_first = 2;
    for (r, (interp, b)) in readings.iter().zip(&bound).enumerate() {
        let seats = b.engine.visit(Seats);
        if r == 0 {
            seats_first = seats;
        }
        let mut arms = Vec::new();
        for (agent, lineup) in agents.iter().zip(&lineups) {
            k += 1;
            if let Some(a) = earlier.and_then(|e| e.arm(args, &interp.id, &agent.to_string())) {
                bar.inc(args.games);
                arms.push(a);
                continue;
            }
            bar.set_prefix(format!("{k} of {rows}: {} by {agent}", interp.id));
            let spec = RunSpec {
                games: args.games,
                seed: args.seed,
                key: crate::rng::reading_key(&game.id, &interp.id),
                max_plies: args.max_plies,
                max_quiet: args.max_quiet,
                keep_records: false,
                metrics: true,
            };
            let task = Task {
                game: &game.id,
                reading: &interp.id,
                bound: b,
                spec: &spec,
                lineup,
            };
            let tally = play_reading(exec, &task, 0..args.games, &pool, bar);
            arms.push(arm(agent, &tally, seats, &args.criteria));
        }
        out.push(reading_assessment(
            &interp.id,
            arms,
            &agents,
            &args.criteria,
        ));
    }
    let by_point = if args.by_point {
        Some(by_point(
            exec,
            game,
            &readings,
            &agents,
            &set,
            &out,
            args,
            (&pool, bar),
        )?)
    } else {
        None
    };
    bar.finish_and_clear();
    order(&mut out, &agents);
    let all = Lineup::new(agents.clone(), false).map_err(|e| Error::Usage(e.to_string()))?;
    let mut header = Header::new(
        Played {
            game: &game.id,
            corpus_hash: &hash,
            seed: args.seed,
            games: args.games,
            max_plies: args.max_plies,
            max_quiet: args.max_quiet,
        },
        &lineups[0],
        seats_first,
    );
    header.lineup = all.agents().iter().map(ToString::to_string).collect();
    Ok(Assessment {
        header,
        strengths: agents.iter().map(ToString::to_string).collect(),
        criteria: args.criteria.clone(),
        readings: out,
        by_point,
    })
}

/// Each open point of each reading switched one option at a time, under each skilled
/// strength: the options' criteria figures and verdicts, on the reading's own streams (the
/// same games as the reading's, as `run --each-option` plays them).
#[allow(clippy::too_many_arguments)]
fn by_point(
    exec: &Exec,
    game: &Game,
    readings: &[&Interpretation],
    agents: &[Agent],
    set: &serde_json::Map<String, serde_json::Value>,
    played: &[ReadingAssessment],
    args: &AssessArgs,
    (pool, bar): (&rayon::ThreadPool, &ProgressBar),
) -> Result<Vec<PointEffect>, Error> {
    let choices = chosen_points(game, &args.points)?;
    let skilled = skilled(agents);
    if skilled.is_empty() {
        return Err(Error::Usage(format!(
            "--by-point switches each open point under skilled play: list a skilled strength \
             in --agents (for instance random,fair), not only {}",
            args.agents
        )));
    }
    let switches: usize = readings.iter().map(|r| switches(&choices, r)).sum();
    bar.inc_length(args.games * (switches * skilled.len()) as u64);
    let pick = |list: &[Verdict], v: Verdict, names: &[String]| -> Vec<String> {
        list.iter()
            .zip(names)
            .filter(|(x, _)| **x == v)
            .map(|(_, n)| n.clone())
            .collect()
    };
    let mut out = Vec::new();
    for (interp, assessed) in readings.iter().zip(played) {
        let seats_key = crate::rng::reading_key(&game.id, &interp.id);
        for &k in &skilled {
            let agent = &agents[k];
            let lineup =
                Lineup::new(vec![*agent], false).map_err(|e| Error::Usage(e.to_string()))?;
            let base = &assessed.arms[k];
            for &choice in &choices {
                let taken = interp
                    .choose
                    .iter()
                    .find(|(c, _)| *c == choice.id)
                    .map(|(_, o)| o.as_str());
                let mut options = Vec::new();
                if let Some(t) = taken {
                    let option = choice.options.iter().find(|o| o.id == t);
                    options.push(OptionArm {
                        option: t.to_owned(),
                        taken: true,
                        by: option.map(|o| o.by.clone()).unwrap_or_default(),
                        refused: None,
                        figures: criteria_figures(&base.figures, &args.criteria),
                        verdicts: base.verdicts.clone(),
                        reproduce: switch_line(args, &interp.id, agent, None),
                    });
                }
                for option in choice
                    .options
                    .iter()
                    .filter(|o| Some(o.id.as_str()) != taken)
                {
                    bar.set_prefix(format!(
                        "{} by {agent}: {}={}",
                        interp.id, choice.id, option.id
                    ));
                    let choose = vec![(choice, option)];
                    let reproduce = switch_line(
                        args,
                        &interp.id,
                        agent,
                        Some(&format!("{}={}", choice.id, option.id)),
                    );
                    // An option that sets a parameter `--set` sets too, or that the engine
                    // cannot play in this reading, is a row of its own (as under `run
                    // --each-option`), not the command's failure.
                    let bound = crate::analysis::play::merge_options(game, interp, set, &choose)
                        .and_then(|overrides| {
                            crate::analysis::play::Variant {
                                interp,
                                choose,
                                overrides,
                            }
                            .bind(game)
                            .map_err(Error::from)
                        });
                    let b = match bound {
                        Ok(b) => b,
                        Err(e) => {
                            bar.inc(args.games);
                            options.push(OptionArm {
                                option: option.id.clone(),
                                taken: false,
                                by: option.by.clone(),
                                refused: Some(e.to_string()),
                                figures: Vec::new(),
                                verdicts: Vec::new(),
                                reproduce,
                            });
                            continue;
                        }
                    };
                    let seats = b.engine.visit(Seats);
                    let spec = RunSpec {
                        games: args.games,
                        seed: args.seed,
                        key: seats_key,
                        max_plies: args.max_plies,
                        max_quiet: args.max_quiet,
                        keep_records: false,
                        metrics: true,
                    };
                    let task = Task {
                        game: &game.id,
                        reading: &interp.id,
                        bound: &b,
                        spec: &spec,
                        lineup: &lineup,
                    };
                    let tally = play_reading(exec, &task, 0..args.games, pool, bar);
                    let a = arm(agent, &tally, seats, &args.criteria);
                    options.push(OptionArm {
                        option: option.id.clone(),
                        taken: false,
                        by: option.by.clone(),
                        refused: None,
                        figures: criteria_figures(&a.figures, &args.criteria),
                        verdicts: a.verdicts,
                        reproduce,
                    });
                }
                let names: Vec<String> = options.iter().map(|o| o.option.clone()).collect();
                let mut moves = Vec::new();
                for c in 0..args.criteria.list.len() {
                    let verdicts: Vec<Verdict> = options
                        .iter()
                        .map(|o| o.verdicts.get(c).copied().unwrap_or(Verdict::Unknown))
                        .collect();
                    let met = pick(&verdicts, Verdict::Met, &names);
                    let failed = pick(&verdicts, Verdict::Failed, &names);
                    let uncertain = pick(&verdicts, Verdict::Uncertain, &names);
                    let how = if !met.is_empty() && !failed.is_empty() {
                        "decides"
                    } else if (!met.is_empty() || !failed.is_empty()) && !uncertain.is_empty() {
                        "may-move"
                    } else {
                        continue;
                    };
                    moves.push(Moved {
                        criterion: c,
                        how: how.to_owned(),
                        met,
                        failed,
                        uncertain,
                    });
                }
                out.push(PointEffect {
                    interpretation: interp.id.clone(),
                    agent: agent.to_string(),
                    choice: choice.id.clone(),
                    addresses: choice.addresses.clone(),
                    options,
                    moves,
                });
            }
        }
    }
    Ok(out)
}

/// The options `--by-point` switches into `reading` at `choices`: every option but the one
/// it takes.
fn switches(choices: &[&Choice], reading: &Interpretation) -> usize {
    choices
        .iter()
        .map(|c| {
            let taken = reading.choose.iter().any(|(id, _)| *id == c.id);
            c.options.len() - usize::from(taken)
        })
        .sum()
}

/// The options `--by-point` switches into `reading` at every open point of `game` (each
/// played at each skilled strength): the size of the design, known before it is played.
pub fn point_switches(game: &Game, reading: &Interpretation) -> usize {
    switches(&game.choices.iter().collect::<Vec<_>>(), reading)
}

/// The choices `--point` names (by id, or by a register point they address), in the
/// ruleset's order; every choice where it names none.
///
/// # Errors
/// [`Error::Usage`] for a name that is no choice of the game and no point one addresses,
/// listing the choices.
fn chosen_points<'g>(game: &'g Game, names: &[String]) -> Result<Vec<&'g Choice>, Error> {
    if names.is_empty() {
        return Ok(game.choices.iter().collect());
    }
    for name in names {
        let known = game
            .choices
            .iter()
            .any(|c| c.id == *name || c.addresses.iter().any(|a| a == name));
        if !known {
            let ids: Vec<&str> = game.choices.iter().map(|c| c.id.as_str()).collect();
            return Err(Error::Usage(format!(
                "--point {name}: {} has no open point of that name; give a choice ({}) or a \
                 register point one of them addresses (`ludotrace show {} --readings` lists them)",
                game.id,
                ids.join(", "),
                game.id
            )));
        }
    }
    Ok(game
        .choices
        .iter()
        .filter(|c| {
            names
                .iter()
                .any(|n| c.id == *n || c.addresses.iter().any(|a| a == n))
        })
        .collect())
}

/// The figures of the criteria's metrics, in the criteria's order.
fn criteria_figures(figures: &[Figure], criteria: &Criteria) -> Vec<Figure> {
    criteria
        .list
        .iter()
        .map(|c| {
            figures
                .iter()
                .find(|f| f.metric == c.metric)
                .expect("every metric has a figure")
                .clone()
        })
        .collect()
}

/// The `run` that plays one option's games: the reading under the agent, with the option
/// switched in.
fn switch_line(args: &AssessArgs, reading: &str, agent: &Agent, choose: Option<&str>) -> String {
    let mut r = Reproduce::new("run", args.corpus.as_deref());
    r.word(&args.game)
        .option("-i", reading)
        .option("--agents", agent)
        .option("-n", args.games)
        .option("--seed", args.seed);
    r.limits(args.max_plies, args.max_quiet);
    for s in &args.set {
        r.option("--set", s);
    }
    if let Some(c) = choose {
        r.option("--choose", c);
    }
    r.line()
}

/// The strengths of an `--agents` list: one to [`crate::agents::MAX_LINEUP`] agents, each
/// once.
///
/// # Errors
/// [`Error::Usage`] for a spec that is no agent (with the agent parser's suggestion), an
/// agent given twice, or too many.
pub fn parse_agents(list: &str) -> Result<Vec<Agent>, Error> {
    let agents = list
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<Agent>()
                .map_err(|e| Error::Usage(format!("--agents: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (i, a) in agents.iter().enumerate() {
        if agents[..i].contains(a) {
            return Err(Error::Usage(format!(
                "--agents {list}: {a} is listed twice; list each strength once"
            )));
        }
    }
    if agents.len() > crate::agents::MAX_LINEUP {
        return Err(Error::Usage(format!(
            "--agents {list}: give 1 to {} strengths, not {}",
            crate::agents::MAX_LINEUP,
            agents.len()
        )));
    }
    Ok(agents)
}

/// One strength's figures and verdicts.
pub fn arm(agent: &Agent, tally: &Tally, seats: usize, criteria: &Criteria) -> Arm {
    let figures = figures(tally, seats);
    let verdicts: Vec<Verdict> = criteria
        .list
        .iter()
        .map(|c| {
            let f = figures
                .iter()
                .find(|f| f.metric == c.metric)
                .expect("every metric has a figure");
            c.judge(f)
        })
        .collect();
    let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
    Arm {
        agent: agent.to_string(),
        games: tally.games,
        decisions: tally.decisions,
        met: count(Verdict::Met),
        failed: count(Verdict::Failed),
        uncertain: count(Verdict::Uncertain),
        figures,
        verdicts,
    }
}

/// The skilled strengths' indices (random play apart), weakest first as given.
fn skilled(agents: &[Agent]) -> Vec<usize> {
    agents
        .iter()
        .enumerate()
        .filter(|(_, a)| !matches!(a, Agent::Random))
        .map(|(i, _)| i)
        .collect()
}

fn reading_assessment(
    id: &str,
    arms: Vec<Arm>,
    agents: &[Agent],
    criteria: &Criteria,
) -> ReadingAssessment {
    let skilled = skilled(agents);
    let agent_sensitive = METRICS
        .iter()
        .enumerate()
        .filter(|&(i, _)| {
            skilled.iter().enumerate().any(|(x, &a)| {
                skilled[x + 1..]
                    .iter()
                    .any(|&b| apart(&arms[a].figures[i], &arms[b].figures[i]))
            })
        })
        .map(|(_, &m)| m)
        .collect();
    let main = skilled.last().copied().unwrap_or(arms.len() - 1);
    let summary = summary(id, &arms[main], criteria);
    ReadingAssessment {
        interpretation: id.to_owned(),
        arms,
        agent_sensitive,
        summary,
    }
}

/// Orders readings by criteria met at the strongest skilled strength, then fewer failed,
/// then the next strength down; ties keep the corpus's order.
fn order(out: &mut [ReadingAssessment], agents: &[Agent]) {
    let mut keys: Vec<usize> = skilled(agents);
    keys.reverse();
    if keys.is_empty() {
        keys = (0..agents.len()).rev().collect();
    }
    out.sort_by(|a, b| {
        for &k in &keys {
            let (x, y) = (&a.arms[k], &b.arms[k]);
            let o = y.met.cmp(&x.met).then(x.failed.cmp(&y.failed));
            if o.is_ne() {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
}

/// The reading in plain words, from one arm's figures: how often its games end, the first
/// mover's edge, draws, the median length, and the criteria met.
fn summary(id: &str, arm: &Arm, criteria: &Criteria) -> String {
    let get = |m: Metric| {
        arm.figures
            .iter()
            .find(|f| f.metric == m)
            .expect("every metric")
    };
    let finished = get(Metric::Finished);
    let mut parts = vec![format!(
        "Played by `{}` at every seat, `{id}` ends {} of its games",
        arm.agent,
        figure_words(finished)
    )];
    let fma = get(Metric::FirstMoverAdvantage);
    match (fma.lo, fma.hi) {
        (Some(lo), Some(_)) if lo > 0.0 => parts.push(format!(
            "the first mover wins more than a fair share of the games won ({})",
            figure_words(fma)
        )),
        (Some(_), Some(hi)) if hi < 0.0 => parts.push(format!(
            "the first mover wins less than a fair share of the games won ({})",
            figure_words(fma)
        )),
        (Some(_), Some(_)) => parts.push(format!(
            "no edge for the first mover is shown at n = {} won games ({})",
            fma.n,
            figure_words(fma)
        )),
        _ => {}
    }
    let draws = get(Metric::Draws);
    if draws.value.is_some_and(|v| v > 0.0) {
        parts.push(format!("{} are drawn", figure_words(draws)));
    }
    let turns = get(Metric::MedianTurns);
    if turns.value.is_some() {
        parts.push(format!(
            "the median game lasts {} turns",
            figure_words(turns)
        ));
    }
    let mut s = parts.join("; ");
    s.push_str(&format!(
        ". It meets {} of {} criteria",
        arm.met,
        criteria.list.len()
    ));
    let mut more = Vec::new();
    if arm.failed > 0 {
        more.push(format!("fails {}", arm.failed));
    }
    if arm.uncertain > 0 {
        more.push(format!(
            "{} uncertain (the interval straddles the threshold)",
            arm.uncertain
        ));
    }
    if !more.is_empty() {
        s.push_str(&format!(", {}", more.join(", ")));
    }
    s.push('.');
    s
}

/// The command that reproduces an assessment.
pub fn command_line(a: &Assessment, args: &AssessArgs) -> String {
    let mut r = Reproduce::new("assess", args.corpus.as_deref());
    r.word(&a.header.game);
    if args.all {
        r.switch("--all-interpretations");
    } else {
        for id in &args.interpretations {
            r.option("-i", id);
        }
    }
    r.option("--agents", a.strengths.join(","))
        .option("-n", args.games)
        .option("--seed", args.seed);
    r.limits(args.max_plies, args.max_quiet);
    for s in &args.set {
        r.option("--set", s);
    }
    if let Some(f) = &args.criteria.file {
        r.option("--criteria", f);
    }
    if args.by_point {
        r.switch("--by-point");
        for p in &args.points {
            r.option("--point", p);
        }
    }
    r.line()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(metric: Metric, v: f64, lo: f64, hi: f64) -> Figure {
        Figure {
            metric,
            value: Some(v),
            lo: Some(lo),
            hi: Some(hi),
            n: 100,
            note: None,
        }
    }

    #[test]
    fn a_criterion_is_met_failed_or_uncertain_by_its_interval() {
        let c = Criterion {
            metric: Metric::Finished,
            rule: Rule::AtLeast(0.95),
        };
        assert_eq!(
            c.judge(&fig(Metric::Finished, 0.99, 0.96, 1.0)),
            Verdict::Met
        );
        assert_eq!(
            c.judge(&fig(Metric::Finished, 0.8, 0.7, 0.9)),
            Verdict::Failed
        );
        assert_eq!(
            c.judge(&fig(Metric::Finished, 0.96, 0.9, 0.99)),
            Verdict::Uncertain
        );
        let w = Criterion {
            metric: Metric::FirstMoverAdvantage,
            rule: Rule::Within(0.1),
        };
        assert_eq!(w.judge(&fig(w.metric, 0.0, -0.05, 0.05)), Verdict::Met);
        assert_eq!(w.judge(&fig(w.metric, -0.2, -0.3, -0.15)), Verdict::Failed);
        assert_eq!(w.judge(&fig(w.metric, 0.08, 0.0, 0.16)), Verdict::Uncertain);
        let b = Criterion {
            metric: Metric::MedianTurns,
            rule: Rule::Between([10.0, 1000.0]),
        };
        // A median whose upper bound no finished game reached is open above.
        let open = Figure {
            hi: None,
            ..fig(b.metric, 900.0, 800.0, 0.0)
        };
        assert_eq!(b.judge(&open), Verdict::Uncertain);
        assert_eq!(
            b.judge(&Figure::none(
                b.metric,
                10,
                "fewer than half the games ended"
            )),
            Verdict::Unknown
        );
    }

    #[test]
    fn the_default_criteria_parse_and_bad_files_name_what_is_wrong() {
        let d = Criteria::defaults();
        assert_eq!(d.list.len(), 4);
        assert_eq!(d.list[0].rule, Rule::AtLeast(0.95));
        let err = |text: &str| match Criteria::parse("c.yaml", text) {
            Err(Error::Input(m)) => m,
            other => panic!("{other:?}"),
        };
        let m = err("criteria:\n  - metric: fun\n    at_least: 0.5\n");
        assert!(m.starts_with("c.yaml:2:"), "{m}");
        assert!(m.contains("finished") && m.contains("coverage"), "{m}");
        let m = err("criteria:\n  - metric: draws\n    at_most: 1.5\n");
        assert!(
            m.contains("impossible threshold") && m.contains("0 to 1"),
            "{m}"
        );
        let m = err("criteria:\n  - metric: draws\n");
        assert!(m.contains("no rule"), "{m}");
        let m = err("criteria:\n  - metric: draws\n    at_most: 0.1\n    at_least: 0.0\n");
        assert!(m.contains("two rules"), "{m}");
        let m = err("criteria:\n  - metric: median-turns\n    between: [100, 10]\n");
        assert!(m.contains("smaller bound first"), "{m}");
        let m = err("criteria: [\n");
        assert!(m.starts_with("c.yaml:") && m.contains("yaml-syntax"), "{m}");
        let m = err("criteria:\n  - metric: draws\n    at_mots: 0.1\n");
        assert!(m.contains("unknown-key") && m.contains("c.yaml:3:"), "{m}");
    }

    #[test]
    fn apart_intervals_make_a_metric_agent_sensitive() {
        let a = fig(Metric::Drama, 0.1, 0.05, 0.15);
        let b = fig(Metric::Drama, 0.3, 0.2, 0.4);
        let c = fig(Metric::Drama, 0.14, 0.1, 0.2);
        assert!(apart(&a, &b));
        assert!(!apart(&a, &c));
        assert!(!apart(&a, &Figure::none(Metric::Drama, 0, "x")));
    }
}
