//! The cost of the skilled players' decisions, one reading per engine family: MCTS iterations
//! and alpha-beta and expectimax nodes per second (and a greedy decision's cost) on one core. The figures of BENCHMARKS.md,
//! "Skilled players". Run with `cargo bench --bench agents`.
//!
//! Each reading's positions are fixed before timing: the first [`PER_GAME`] decisions with a
//! choice (two legal moves or more; a lone move is played without search) of random games
//! `0, 1, 2, …` (seed 1, the reading's key, generators from [`rng::game_rng`], every draw as
//! `ludotrace run` makes it) until [`POSITIONS`] are gathered (where choices are rare, as in
//! Li'b el-Merafib's end game, they come from late in the games). A sample times
//! [`agents::choose`] once at every position, each with the game's generator rebuilt at its
//! place there, so every sample makes the same choices. The counter is MCTS iterations
//! (alpha-beta and expectimax: the positions searched; greedy: decisions), so divan's
//! items/s is iterations/s (nodes/s); decisions/s is that over the iterations (nodes).

use ludotrace::agents::{self, Agent};
use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::{NoEvents, Rules, Status};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::rng;
use ludotrace::sim::DEFAULT_MAX_PLIES;
use rand::rngs::ChaCha8Rng;

/// Positions timed per reading.
const POSITIONS: usize = 24;

/// The most positions taken from one game.
const PER_GAME: usize = 6;

/// The most games searched for positions (a reading whose decisions are nearly all forced
/// needs many).
const MAX_GAMES: u64 = 1000;

/// The run seed of the games the positions come from.
const SEED: u64 = 1;

/// One reading per engine family.
const READINGS: &[&str] = &[
    "um-el-bagara/davies",
    "um-el-banat/davies",
    "seega/davies",
    "sijat-el-taba/davies",
    "lib-el-merafib/davies",
];

/// The MCTS agents timed at every reading: full rollouts, and rollouts cut after 40 plies.
const MCTS: &[&str] = &["mcts:300", "mcts:300:40"];

/// The search agents timed at every reading: the levels `fair` and `strong`, and expectimax.
const SEARCH: &[&str] = &["ab:6:2000", "ab:8:8000", "ex:3:8000"];

fn main() {
    divan::main();
}

/// Every reading with every MCTS agent, as `game/reading agent`.
fn mcts_cases() -> Vec<String> {
    READINGS
        .iter()
        .flat_map(|r| MCTS.iter().map(move |a| format!("{r} {a}")))
        .collect()
}

/// A greedy decision at each position (microseconds a sample: divan's own sample counts).
#[divan::bench(args = READINGS)]
fn greedy(bencher: divan::Bencher, reading: &str) {
    decisions(bencher, reading, Agent::Greedy);
}

/// An MCTS decision at each position (up to seconds a sample: ten samples).
#[divan::bench(args = mcts_cases(), sample_count = 10)]
fn mcts(bencher: divan::Bencher, case: &str) {
    let (reading, agent) = case.split_once(' ').expect("reading agent");
    decisions(bencher, reading, agent.parse().expect("agent"));
}

/// Every reading with every search agent, as `game/reading agent`.
fn search_cases() -> Vec<String> {
    READINGS
        .iter()
        .flat_map(|r| SEARCH.iter().map(move |a| format!("{r} {a}")))
        .collect()
}

/// An alpha-beta or expectimax decision at each position; the counter is the positions the
/// searches visit (the same every sample: a search counts nodes, never time), so divan's
/// items/s is nodes/s.
#[divan::bench(args = search_cases(), sample_count = 10)]
fn search(bencher: divan::Bencher, case: &str) {
    let (reading, agent) = case.split_once(' ').expect("reading agent");
    decisions(bencher, reading, agent.parse().expect("agent"));
}

/// Times `agent`'s decisions at the reading's positions.
fn decisions(bencher: divan::Bencher, reading: &str, agent: Agent) {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let (game, interp) = reading.split_once('/').expect("game/reading");
    let game = corpus.game(game).expect("game");
    let interp = game.interpretation(interp).expect("reading");
    let bound = bind(game, interp, &serde_json::Map::new()).expect("binds");
    bound.engine.visit(Bench {
        bencher,
        agent,
        key: rng::reading_key(&game.id, &interp.id),
    });
}

/// One reading and agent's benchmark, for any family.
struct Bench<'a, 'b> {
    bencher: divan::Bencher<'a, 'b>,
    agent: Agent,
    key: u64,
}

impl EngineVisitor for Bench<'_, '_> {
    type Output = ();
    fn visit<F: GameFamily>(self, rules: &F::Rules) {
        let positions = positions(rules, self.key);
        let agent = self.agent;
        let items = match agent {
            Agent::Mcts { iterations, .. } => u64::from(iterations) * positions.len() as u64,
            // The nodes the searches visit, found once (they are the same every time).
            Agent::AlphaBeta { .. } | Agent::Expectimax { .. } => positions
                .iter()
                .map(|p| {
                    agents::decide(&agent, rules, &p.state, &p.legal, &mut p.rng(self.key)).work
                })
                .sum(),
            _ => positions.len() as u64,
        };
        self.bencher
            .counter(divan::counter::ItemsCount::new(items))
            .with_inputs(|| {
                positions
                    .iter()
                    .map(|p| p.rng(self.key))
                    .collect::<Vec<_>>()
            })
            .bench_local_refs(|rngs| {
                let mut sum = 0;
                for (p, rng) in positions.iter().zip(rngs.iter_mut()) {
                    sum += agents::choose(&agent, rules, &p.state, &p.legal, rng);
                }
                sum
            });
    }
}

/// A position with a choice: the state, its legal moves, and where the game's generator was
/// (its game and word position; the generator itself is not `Clone`).
struct Position<R: Rules> {
    state: R::State,
    legal: Vec<R::Move>,
    index: u64,
    word_pos: u128,
}

impl<R: Rules> Position<R> {
    /// The game's generator as it was at the position.
    fn rng(&self, key: u64) -> ChaCha8Rng {
        let mut rng = rng::game_rng(SEED, key, self.index);
        rng.set_word_pos(self.word_pos);
        rng
    }
}

/// The first [`PER_GAME`] positions with a choice of random games `0, 1, 2, …` of the
/// reading, until [`POSITIONS`] are gathered.
fn positions<R: Rules>(rules: &R, key: u64) -> Vec<Position<R>> {
    let mut out = Vec::new();
    let mut state = rules.initial();
    let mut legal = Vec::new();
    let capped = rules.has_cap();
    for index in 0..MAX_GAMES {
        let mut rng = rng::game_rng(SEED, key, index);
        rules.reset(&mut state, &mut NoEvents);
        let mut taken = 0;
        while taken < PER_GAME && out.len() < POSITIONS {
            match rules.status(&state) {
                Status::Over => break,
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&state), &mut rng);
                    rules.apply_chance(&mut state, k, &mut NoEvents);
                }
                Status::ToMove(_) => {
                    if !capped && rules.plies(&state) >= DEFAULT_MAX_PLIES {
                        break;
                    }
                    rules.legal_moves(&state, &mut legal);
                    if legal.len() >= 2 {
                        out.push(Position {
                            state: state.clone(),
                            legal: legal.clone(),
                            index,
                            word_pos: rng.get_word_pos(),
                        });
                        taken += 1;
                    }
                    let i = agents::choose(&Agent::Random, rules, &state, &legal, &mut rng);
                    rules.apply(&mut state, legal[i], &mut NoEvents);
                }
            }
        }
        if out.len() == POSITIONS {
            return out;
        }
    }
    panic!("fewer than {POSITIONS} positions with a choice in {MAX_GAMES} games");
}
