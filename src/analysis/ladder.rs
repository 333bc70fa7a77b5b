//! `ludotrace ladder`: agents measured against each other in one reading of a game. Each
//! adjacent pair of the list of levels (with `all_pairs`, every pair) plays its games with
//! the two agents rotating over the seats game by game (`--swap`), through the same executor
//! path `run` plays (the store included), and the first agent's score comes with its Wilson
//! 95 % interval and a verdict.
//!
//! A game stopped by the run's ply limit (or an engine's search bound) is *censored*: it is
//! neither a draw nor a loss, and is left out of the score; so is a game the rules proved
//! endless. Each pairing draws from its own streams (the reading's key with
//! `#ladder/FIRST/SECOND`), so pairings are independent of each other and of `run`'s games,
//! and every game of a pairing is a pure function of the seed.

use indicatif::ProgressBar;
use schemars::JsonSchema;
use serde::Serialize;

use crate::agents::{Agent, Lineup};
use crate::analysis::Error;
use crate::analysis::header::{Header, Played};
use crate::analysis::play::{
    Seats, check_numbers, check_rotation, corpus_hash, play_reading, pool,
};
use crate::analysis::reproduce::Reproduce;
use crate::corpus::{Corpus, CorpusFiles, Game, Interpretation};
use crate::exec::{Exec, Task};
use crate::rng;
use crate::sim::{self, RunSpec, Tally};
use crate::stats::{Rate, round, wilson};

/// The levels a ladder climbs when none are given.
pub const DEFAULT_LEVELS: &str = "weak,fair,strong";

/// A score whose 95 % interval lies wholly above this is "stronger".
pub const STRONGER_ABOVE: f64 = 0.55;
/// A score whose 95 % interval lies wholly below this is "weaker".
pub const WEAKER_BELOW: f64 = 0.45;

/// What the user asked `ladder` for.
#[derive(Debug, Clone)]
pub struct LadderArgs {
    /// Game id.
    pub game: String,
    /// The reading (default: the game's first).
    pub interpretation: Option<String>,
    /// The agents, comma-separated, weakest first (levels or any agent spec).
    pub levels: String,
    /// Every pair of the list, not only adjacent ones.
    pub all_pairs: bool,
    /// Games per pairing.
    pub games: u64,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
}

/// `ladder --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Ladder {
    /// What was played (`games`: games per pairing; `lineup`: the levels as given, each
    /// pairing rotating its two agents over the seats; `agents`: the seats of the first
    /// pairing's game 0).
    #[serde(flatten)]
    pub header: Header,
    /// Interpretation id.
    pub interpretation: String,
    /// The agents, weakest first, as given.
    pub levels: Vec<String>,
    /// Whether every pair of levels played (`--all-pairs`), not only adjacent ones. Absent
    /// when not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub all_pairs: bool,
    /// The pairings, in the order played.
    pub pairings: Vec<Pairing>,
}

/// One pairing of a ladder: `first` against `second`, seats rotating game by game.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Pairing {
    /// The first agent (the lower of the two in the list).
    pub first: String,
    /// The second agent.
    pub second: String,
    /// Games played: `first_wins + second_wins + draws + censored + endless`.
    pub games: u64,
    /// Games won by the first agent.
    pub first_wins: u64,
    /// Games won by the second agent.
    pub second_wins: u64,
    /// Drawn games (games an engine cap stopped and scored as draws included).
    pub draws: u64,
    /// Games stopped by the run's ply limit (`--max-plies`): their outcome is unknown, and
    /// they are never counted as draws.
    pub censored: u64,
    /// Games the rules proved could never end (a forced cycle, or no end reachable).
    pub endless: u64,
    /// Games with an outcome: `first_wins + second_wins + draws`.
    pub finished: u64,
    /// The first agent's score over the finished games, (wins + ½ draws) / finished, with
    /// the Wilson 95 % interval of `2·first_wins + draws` half-points in `2·finished`
    /// (treating the two halves of a draw as independent makes the interval a little narrow
    /// where draws are many). Absent when no game finished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Rate>,
    /// `stronger` (the interval's lower bound above 55 %), `weaker` (its upper bound below
    /// 45 %), or `not separated at n = N` (N the games played).
    pub verdict: String,
}

impl Pairing {
    /// The pairing of `first` against `second` from their tally (the two agents' places in
    /// the lineup, in this order).
    fn of(first: &Agent, second: &Agent, tally: &Tally) -> Self {
        let wins = |k: usize| tally.agents.get(k).map_or(0, |a| a.seat_wins_total());
        let censored = tally.censored();
        let endless = tally.endless();
        let (first_wins, second_wins) = (wins(0), wins(1));
        let finished = first_wins + second_wins + tally.draws;
        let score = (finished > 0).then(|| {
            let r = wilson(2 * first_wins + tally.draws, 2 * finished);
            Rate {
                value: round(r.value, 4),
                lo: round(r.lo, 4),
                hi: round(r.hi, 4),
            }
        });
        Pairing {
            first: first.to_string(),
            second: second.to_string(),
            games: tally.games,
            first_wins,
            second_wins,
            draws: tally.draws,
            censored,
            endless,
            finished,
            verdict: verdict(score.as_ref(), tally.games),
            score,
        }
    }
}

/// The verdict on a first agent's score over `games` games.
pub fn verdict(score: Option<&Rate>, games: u64) -> String {
    match score {
        Some(s) if s.lo > STRONGER_ABOVE => "stronger".to_owned(),
        Some(s) if s.hi < WEAKER_BELOW => "weaker".to_owned(),
        _ => format!("not separated at n = {games}"),
    }
}

/// The agents of a `--levels` list.
///
/// # Errors
/// [`Error::Usage`] for a spec that is no agent (with the agent parser's suggestion), fewer
/// than two agents, or one given twice.
pub fn parse_levels(list: &str) -> Result<Vec<Agent>, Error> {
    let agents = list
        .split(',')
        .map(|s| {
            s.parse::<Agent>()
                .map_err(|e| Error::Usage(format!("--levels: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if agents.len() < 2 {
        return Err(Error::Usage(format!(
            "--levels {list}: a ladder needs two or more agents, comma-separated, weakest \
             first (for instance weak,fair,strong)"
        )));
    }
    for (i, a) in agents.iter().enumerate() {
        if agents[..i].contains(a) {
            return Err(Error::Usage(format!(
                "--levels {list}: {a} is listed twice; list each agent once"
            )));
        }
    }
    if agents.len() > crate::agents::MAX_LINEUP {
        return Err(Error::Usage(format!(
            "--levels {list}: give 2 to {} agents, not {}",
            crate::agents::MAX_LINEUP,
            agents.len()
        )));
    }
    Ok(agents)
}

/// The pairs of places in a list of `k` levels a ladder plays: adjacent ones, or all.
pub fn pairs(k: usize, all: bool) -> Vec<(usize, usize)> {
    if all {
        (0..k)
            .flat_map(|i| (i + 1..k).map(move |j| (i, j)))
            .collect()
    } else {
        (1..k).map(|j| (j - 1, j)).collect()
    }
}

/// Plays the ladder.
///
/// # Errors
/// Unknown game or reading, bad levels, a number of games that is not a whole number of
/// rotations, a reading that does not seat two, out-of-range numbers.
pub fn ladder(
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &LadderArgs,
    bar: &ProgressBar,
) -> Result<Ladder, Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    let agents = parse_levels(&args.levels)?;
    let all = Lineup::new(agents.clone(), true).map_err(|e| Error::Usage(e.to_string()))?;
    let pairings: Vec<(usize, usize)> = pairs(agents.len(), args.all_pairs);
    let lineups = pairings
        .iter()
        .map(|&(i, j)| {
            Lineup::new(vec![agents[i], agents[j]], true).map_err(|e| Error::Usage(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_rotation(args.games, &lineups[0], sim::MAX_GAMES)?;
    let game: &Game = crate::analysis::game_of(corpus, &args.game)?;
    let interp: &Interpretation = match &args.interpretation {
        Some(id) => crate::analysis::interpretation_of(game, id)?,
        None => &game.interpretations[0],
    };
    let bound = crate::bind::bind(game, interp, &serde_json::Map::new())?;
    let seats = bound.engine.visit(Seats);
    if seats != 2 {
        return Err(Error::Usage(format!(
            "{} under {} seats {seats} players: a ladder pairs two agents, one seat each, so \
             it plays two-player readings only",
            game.id, interp.id
        )));
    }
    crate::analysis::perfect::check_perfect(&all, &bound, &interp.id, None)?;
    let pool = pool(args.threads)?;
    bar.inc_length(args.games * pairings.len() as u64);
    let hash = corpus_hash(files);
    let mut out = Vec::new();
    for (k, (&(i, j), lineup)) in pairings.iter().zip(&lineups).enumerate() {
        let (a, b) = (&agents[i], &agents[j]);
        bar.set_prefix(format!("{} of {}: {a} against {b}", k + 1, pairings.len()));
        let spec = RunSpec {
            games: args.games,
            seed: args.seed,
            key: stream_key(&game.id, &interp.id, a, b),
            max_plies: args.max_plies,
            max_quiet: 0,
            keep_records: false,
            metrics: false,
        };
        let task = Task {
            game: &game.id,
            reading: &interp.id,
            bound: &bound,
            spec: &spec,
            lineup,
        };
        let tally = play_reading(exec, &task, 0..args.games, &pool, bar);
        out.push(Pairing::of(a, b, &tally));
    }
    bar.finish_and_clear();
    Ok(Ladder {
        header: Header::new(
            Played {
                game: &game.id,
                corpus_hash: &hash,
                seed: args.seed,
                games: args.games,
                max_plies: args.max_plies,
                max_quiet: 0,
            },
            &all,
            seats,
        ),
        interpretation: interp.id.clone(),
        levels: agents.iter().map(ToString::to_string).collect(),
        all_pairs: args.all_pairs,
        pairings: out,
    })
}

/// The streams' key of a pairing: its own, so that pairings are independent of each other
/// and of `run`'s games of the reading.
pub fn stream_key(game: &str, reading: &str, first: &Agent, second: &Agent) -> u64 {
    rng::reading_key(game, &format!("{reading}#ladder/{first}/{second}"))
}

/// The command that reproduces a ladder.
pub fn command_line(ladder: &Ladder, args: &LadderArgs) -> String {
    let mut r = Reproduce::new("ladder", args.corpus.as_deref());
    r.word(&ladder.header.game)
        .option("-i", &ladder.interpretation)
        .option("--levels", ladder.levels.join(","))
        .option("-n", args.games)
        .option("--seed", args.seed)
        .option("--max-plies", args.max_plies);
    if args.all_pairs {
        r.switch("--all-pairs");
    }
    r.line()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_pairs_and_all_pairs() {
        assert_eq!(pairs(3, false), vec![(0, 1), (1, 2)]);
        assert_eq!(pairs(3, true), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs(2, true), vec![(0, 1)]);
    }

    #[test]
    fn verdicts_at_the_bounds() {
        let r = |lo, hi| Rate { value: 0.5, lo, hi };
        assert_eq!(verdict(Some(&r(0.56, 0.7)), 100), "stronger");
        assert_eq!(
            verdict(Some(&r(0.55, 0.7)), 100),
            "not separated at n = 100"
        );
        assert_eq!(verdict(Some(&r(0.3, 0.44)), 100), "weaker");
        assert_eq!(verdict(None, 40), "not separated at n = 40");
    }

    #[test]
    fn levels_are_checked() {
        assert_eq!(parse_levels("weak,fair").unwrap().len(), 2);
        let msg = |l: &str| parse_levels(l).unwrap_err().to_string();
        assert!(
            msg("weak").contains("two or more agents"),
            "{}",
            msg("weak")
        );
        assert!(msg("weak,weak").contains("listed twice"));
        assert!(msg("weak,strnog").contains("did you mean strong"));
    }

    #[test]
    fn score_counts_half_draws_and_leaves_out_censored_games() {
        // 6 wins, 2 losses, 2 draws, 3 censored, 1 endless: score (6 + 1) / 10 = 0.7, from
        // 14 half-points of 20.
        let mut t = Tally {
            games: 14,
            draws: 2,
            timeouts: 4,
            timeouts_by_reason: vec![("ply-limit", 3), ("cycle", 1)],
            ..Tally::default()
        };
        // The unfinished games' lengths, as a tally keeps them.
        t.censored_plies.add_n(500, 3);
        t.endless_plies.add_n(40, 1);
        t.agents = vec![
            crate::sim::AgentTally {
                seat_wins: vec![3, 3],
                ..Default::default()
            },
            crate::sim::AgentTally {
                seat_wins: vec![1, 1],
                ..Default::default()
            },
        ];
        let p = Pairing::of(&Agent::Greedy, &Agent::Random, &t);
        assert_eq!((p.first_wins, p.second_wins, p.draws), (6, 2, 2));
        assert_eq!((p.censored, p.endless, p.finished), (3, 1, 10));
        let s = p.score.unwrap();
        assert_eq!(s.value, 0.7);
        let w = wilson(14, 20);
        assert_eq!(s.lo, round(w.lo, 4));
        assert_eq!(p.first, "greedy");
    }
}
