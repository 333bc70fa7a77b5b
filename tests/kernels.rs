//! The hand-written kernels (`ludotrace::kernels`, feature `kernels`) play the very same games
//! as the engines: game by game (outcome, scores, plies, turns, passes) and in the run's
//! statistics (wins per seat, draws, timeouts, capped games, plies), over thousands of games
//! of two seeds, the engine played by `sim::block` exactly as `ludotrace run` plays it.
//!
//! Run with `cargo test --locked --features kernels --test tests kernels`.

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::Rules;
use ludotrace::kernels::{self, Game};
use ludotrace::registry::{CustodialFamily, GameFamily, SowingFamily};
use ludotrace::rng;
use ludotrace::sim::{self, Coverage, DEFAULT_MAX_PLIES, GameEnd, RunSpec};
use ludotrace::stats::Histogram;

/// Games per seed.
const GAMES: u64 = 5000;
/// The seeds: the command line's default and an arbitrary one.
const SEEDS: [u64; 2] = [1, 0x5eed_2026_1123];

/// The engine's tally of games `0..GAMES` of a run of `game`/`reading`, with its records.
fn engine<F: GameFamily>(game: &str, reading: &str, seed: u64) -> sim::Tally
where
    F::Rules: Rules,
{
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let g = corpus.game(game).expect("game");
    let interp = g.interpretation(reading).expect("reading");
    let bound = bind(g, interp, &serde_json::Map::new()).expect("binds");
    let rules = bound.engine.get::<F>().expect("the reading's family");
    let coverage = Coverage::new::<F::Rules>(|p| bound.flag(p));
    let spec = RunSpec {
        games: GAMES,
        seed,
        key: rng::reading_key(game, reading),
        max_plies: DEFAULT_MAX_PLIES,
        max_quiet: 0,
        keep_records: true,
        metrics: false,
    };
    sim::block(rules, &spec, &coverage, 0..GAMES)
}

/// Checks a kernel's games against the engine's, one by one and in total.
fn same_games(
    name: &str,
    seed: u64,
    engine: &sim::Tally,
    play: impl Fn(u64, u64, std::ops::Range<u64>, &mut dyn FnMut(u64, Game)),
    key: u64,
) {
    let mut games = Vec::new();
    play(seed, key, 0..GAMES, &mut |i, g| games.push((i, g)));
    assert_eq!(games.len(), engine.records.len(), "{name}: games played");
    let mut tally = kernels::Tally::default();
    let mut plies = Histogram::default();
    for ((i, g), r) in games.iter().zip(&engine.records) {
        assert_eq!(*i, r.index, "{name}: game order");
        let engine_game = match r.end {
            GameEnd::Over(outcome) => Game {
                outcome,
                plies: r.plies,
                turns: r.turns,
                passes: r.passes,
            },
            GameEnd::Timeout(why) => panic!("{name} seed {seed} game {i}: engine timeout {why:?}"),
        };
        assert_eq!(*g, engine_game, "{name} seed {seed} game {i}");
        assert_eq!(
            r.first_mover,
            Some(0),
            "{name} seed {seed} game {i}: first mover"
        );
        tally.add(g);
        plies.add(g.plies);
    }
    assert_eq!(tally.games, engine.games, "{name}: games");
    assert_eq!(
        tally.wins.to_vec(),
        engine.wins,
        "{name} seed {seed}: wins per seat"
    );
    assert_eq!(tally.draws, engine.draws, "{name} seed {seed}: draws");
    assert_eq!(engine.timeouts, 0, "{name} seed {seed}: timeouts");
    assert_eq!(
        tally.capped, engine.capped,
        "{name} seed {seed}: capped games"
    );
    assert_eq!(
        tally.plies, engine.decisions,
        "{name} seed {seed}: total plies"
    );
    assert_eq!(plies, engine.plies, "{name} seed {seed}: plies per game");
    // The games are varied enough to mean something: both seats win some.
    assert!(tally.wins.iter().all(|&w| w > 0), "{name}: {tally:?}");
}

#[test]
fn kernels_bagara_plays_the_engines_games() {
    use kernels::bagara::{GAME, READING, play};
    let key = rng::reading_key(GAME, READING);
    for seed in SEEDS {
        let engine = engine::<SowingFamily>(GAME, READING, seed);
        same_games(GAME, seed, &engine, |s, k, r, f| play(s, k, r, f), key);
    }
}

#[test]
fn kernels_seega_plays_the_engines_games() {
    use kernels::seega::{GAME, READING, play};
    let key = rng::reading_key(GAME, READING);
    for seed in SEEDS {
        let engine = engine::<CustodialFamily>(GAME, READING, seed);
        same_games(GAME, seed, &engine, |s, k, r, f| play(s, k, r, f), key);
    }
}

#[test]
fn kernels_tally_counts_the_games_played() {
    use kernels::bagara;
    let key = rng::reading_key(bagara::GAME, bagara::READING);
    let mut by_game = kernels::Tally::default();
    bagara::play(7, key, 0..300, |_, g| by_game.add(&g));
    assert_eq!(bagara::tally(7, key, 0..300), by_game);
    assert_eq!(by_game.games, 300);
    assert_eq!(
        by_game.wins[0] + by_game.wins[1] + by_game.draws,
        by_game.games
    );
}
