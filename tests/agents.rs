//! The skilled agents (`ludotrace::agents`): specs parsed and refused, games reproducible,
//! random agents playing `run`'s very games, and greedy and MCTS players beating random ones
//! at fixed seeds. `--nocapture` prints the win rates and MCTS iterations per second.
//!
//! Run with `cargo test --locked --release --test tests -- agents`.

use std::time::Instant;

use ludotrace::agents::{self, Agent, FORMS, Level, search};
use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::custodial::CustodialSetup;
use ludotrace::games::{Result_, Rules, Status};
use ludotrace::registry::{
    CustodialFamily, EngineVisitor, GameFamily, SowingFamily, StickRaceFamily,
};
use ludotrace::rng;
use ludotrace::sim::{self, Coverage, DEFAULT_MAX_PLIES, GameEnd, RunSpec};
use ludotrace::stats::wilson;

use crate::util::with_engine;

/// The readings the tests play, one or more of each family.
const READINGS: [(&str, &str); 5] = [
    ("um-el-bagara", "davies"),
    ("um-el-banat", "davies"),
    ("seega", "davies"),
    ("sijat-el-taba", "davies"),
    ("lib-el-merafib", "davies"),
];

/// The engine of one family's reading, for a closure.
fn engine<F: GameFamily, T>(game: &str, reading: &str, f: impl FnOnce(&F::Rules) -> T) -> T {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let g = corpus.game(game).expect("game");
    let interp = g.interpretation(reading).expect("reading");
    let bound = bind(g, interp, &serde_json::Map::new()).expect("binds");
    f(bound.engine.get::<F>().expect("the reading's family"))
}

fn spec(text: &str) -> Agent {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn agents_parse_the_valid_forms() {
    assert_eq!(spec("random"), Agent::Random);
    assert_eq!(spec("greedy"), Agent::Greedy);
    assert_eq!(
        spec("mcts:300"),
        Agent::Mcts {
            iterations: 300,
            depth: None
        }
    );
    assert_eq!(
        spec("mcts:1000000:40"),
        Agent::Mcts {
            iterations: 1_000_000,
            depth: Some(40)
        }
    );
    assert_eq!(spec("mcts:1").to_string(), "mcts:1");
    for text in ["random", "greedy", "mcts:7", "mcts:300:12"] {
        assert_eq!(spec(text).to_string(), text, "round trip");
    }
}

#[test]
fn agents_refuse_anything_else_naming_the_valid_forms() {
    for bad in [
        "mcts:0",
        "mcts:x",
        "foo",
        "",
        "mcts",
        "mcts:",
        "mcts:1000001",
        "mcts:-3",
        "mcts:10:0",
        "mcts:10:y",
        "mcts:10:5:1",
        "Random",
        "greedy:3",
    ] {
        let err = bad.parse::<Agent>().expect_err(bad).to_string();
        assert!(err.contains(FORMS), "{bad:?}: {err}");
        assert!(err.contains(&format!("{bad:?}")), "{bad:?} named: {err}");
    }
    let err = "mcts:0".parse::<Agent>().unwrap_err().to_string();
    assert!(err.contains("1 to 1000000"), "{err}");
    let err = "mcts:x".parse::<Agent>().unwrap_err().to_string();
    assert!(err.contains("not a number"), "{err}");
    let err = "foo".parse::<Agent>().unwrap_err().to_string();
    assert!(err.contains("unknown agent"), "{err}");
}

/// Random agents at every seat play exactly the games `run` plays (same seed, reading key
/// and index), each reading of each family.
struct SameAsRun {
    key: u64,
}

impl EngineVisitor for SameAsRun {
    type Output = ();
    fn visit<F: GameFamily>(self, rules: &F::Rules) {
        const GAMES: u64 = 40;
        let spec = RunSpec {
            games: GAMES,
            seed: 11,
            key: self.key,
            max_plies: DEFAULT_MAX_PLIES,
            max_quiet: 0,
            keep_records: true,
            metrics: false,
        };
        let tally = sim::block(rules, &spec, &Coverage::new::<F::Rules>(|_| None), 0..GAMES);
        for r in &tally.records {
            let (end, plies) = sim::play_game(
                rules,
                &[Agent::Random],
                11,
                self.key,
                r.index,
                DEFAULT_MAX_PLIES,
            );
            assert_eq!((end, plies), (r.end, r.plies), "game {}", r.index);
        }
    }
}

#[test]
fn agents_random_plays_runs_games() {
    for (game, reading) in READINGS {
        let key = rng::reading_key(game, reading);
        with_engine(game, reading, SameAsRun { key });
    }
}

/// At the start of every reading no seat leads on material.
struct EvenStart;

impl EngineVisitor for EvenStart {
    type Output = Vec<i64>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Vec<i64> {
        let s = rules.initial();
        (0..rules.seats())
            .map(|seat| rules.material(&s, seat))
            .collect()
    }
}

#[test]
fn agents_material_is_even_at_the_start() {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    for g in &corpus.games {
        for interp in &g.interpretations {
            let bound = bind(g, interp, &serde_json::Map::new()).expect("binds");
            let m = bound.engine.visit(EvenStart);
            assert!(m.len() >= 2, "{}/{}", g.id, interp.id);
            assert!(
                m.iter().all(|&x| x == m[0]),
                "{}/{}: {m:?}",
                g.id,
                interp.id
            );
        }
    }
}

/// Material moves during play: some game of random play changes some seat's material.
struct MaterialMoves;

impl EngineVisitor for MaterialMoves {
    type Output = bool;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> bool {
        let mut rng = rng::game_rng(3, 0, 0);
        let mut s = rules.initial();
        let start: Vec<i64> = (0..rules.seats()).map(|x| rules.material(&s, x)).collect();
        let mut legal = Vec::new();
        for _ in 0..2000 {
            match rules.status(&s) {
                Status::Over => break,
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                    rules.apply_chance(&mut s, k, &mut Vec::new());
                }
                Status::ToMove(_) => {
                    rules.legal_moves(&s, &mut legal);
                    let i = agents::choose(&Agent::Random, rules, &s, &legal, &mut rng);
                    rules.apply(&mut s, legal[i], &mut Vec::new());
                }
            }
            if (0..rules.seats()).any(|x| rules.material(&s, x) != start[x]) {
                return true;
            }
        }
        false
    }
}

#[test]
fn agents_material_changes_in_play() {
    for (game, reading) in READINGS {
        assert!(
            with_engine(game, reading, MaterialMoves),
            "{game}/{reading}: material never moved"
        );
    }
}

/// The same seed and index give the same game; other indices give other games.
fn reproducible<R: Rules>(rules: &R, agents: &[Agent], key: u64) {
    let games: Vec<(GameEnd, u32)> = (0..4)
        .map(|i| sim::play_game(rules, agents, 5, key, i, DEFAULT_MAX_PLIES))
        .collect();
    let again: Vec<(GameEnd, u32)> = (0..4)
        .map(|i| sim::play_game(rules, agents, 5, key, i, DEFAULT_MAX_PLIES))
        .collect();
    assert_eq!(games, again, "{agents:?}");
    assert!(
        games.iter().any(|g| g.1 != games[0].1),
        "{agents:?}: four games of the same length {games:?}"
    );
}

#[test]
fn agents_games_are_reproducible() {
    let key = rng::reading_key("um-el-bagara", "davies");
    engine::<SowingFamily, _>("um-el-bagara", "davies", |rules| {
        reproducible(rules, &[spec("mcts:50"), Agent::Random], key);
        reproducible(rules, &[Agent::Greedy, spec("mcts:30:8")], key);
        reproducible(rules, &[Agent::Greedy, Agent::Random], key);
    });
    let key = rng::reading_key("sijat-el-taba", "davies");
    with_engine("sijat-el-taba", "davies", Reproducible { key });
    let key = rng::reading_key("lib-el-merafib", "davies");
    with_engine("lib-el-merafib", "davies", Reproducible { key });
}

struct Reproducible {
    key: u64,
}

impl EngineVisitor for Reproducible {
    type Output = ();
    fn visit<F: GameFamily>(self, rules: &F::Rules) {
        reproducible(rules, &[spec("mcts:20"), Agent::Greedy], self.key);
    }
}

/// Wins, draws and other ends of seat 0 over `games` games of `agents`.
fn record<R: Rules>(rules: &R, agents: &[Agent], key: u64, games: u64) -> (u64, u64, u64) {
    let (mut wins, mut draws, mut other) = (0, 0, 0);
    for i in 0..games {
        match sim::play_game(rules, agents, 2026, key, i, DEFAULT_MAX_PLIES).0 {
            GameEnd::Over(o) if o.won(0) => wins += 1,
            GameEnd::Over(o) if o.result == ludotrace::games::Result_::Draw => draws += 1,
            _ => other += 1,
        }
    }
    (wins, draws, other)
}

/// `agents[0]` (seat 0) wins at least `min` of `games` games, and far from chance: the
/// lower bound of the Wilson 95 % interval of its win rate is above one half. The rate and
/// its interval are printed.
fn wins_at_least<R: Rules>(name: &str, rules: &R, agents: &[Agent], games: u64, min: u64) {
    let key = rng::reading_key(
        name.split('/').next().unwrap(),
        name.split('/').nth(1).unwrap(),
    );
    let t = Instant::now();
    let (wins, draws, other) = record(rules, agents, key, games);
    let rate = wilson(wins, games);
    println!(
        "{name}: {} vs {}: seat 0 won {wins}/{games} ({:.0} %, 95 % CI {:.0}–{:.0} %), {draws} \
         draws, {other} lost or unfinished, {:.1} s",
        agents[0],
        agents[1],
        100.0 * rate.value,
        100.0 * rate.lo,
        100.0 * rate.hi,
        t.elapsed().as_secs_f64()
    );
    assert!(
        wins >= min && rate.lo > 0.5,
        "{name}: {} won {wins} of {games} against {} (95 % CI {:.3}–{:.3})",
        agents[0],
        agents[1],
        rate.lo,
        rate.hi
    );
}

#[test]
fn agents_mcts_beats_random_at_um_el_bagara() {
    engine::<SowingFamily, _>("um-el-bagara", "davies", |rules| {
        wins_at_least(
            "um-el-bagara/davies",
            rules,
            &[spec("mcts:300"), Agent::Random],
            40,
            28,
        );
    });
}

#[test]
fn agents_greedy_beats_random_at_um_el_bagara() {
    engine::<SowingFamily, _>("um-el-bagara", "davies", |rules| {
        wins_at_least(
            "um-el-bagara/davies",
            rules,
            &[Agent::Greedy, Agent::Random],
            40,
            28,
        );
    });
}

/// Greedy looks one ply ahead on the custodial evaluation (pieces, then mobility): with
/// mobility it rarely meets a tie, so the generator no longer shuffles its quiet moves and
/// some games wander to the limit; it still wins 31 of these 40 (on pieces alone, 36).
#[test]
fn agents_greedy_beats_random_at_seega() {
    engine::<CustodialFamily, _>("seega", "davies", |rules| {
        wins_at_least(
            "seega/davies",
            rules,
            &[Agent::Greedy, Agent::Random],
            40,
            30,
        );
    });
}

/// Seega under Davies ends only when a side has lost every piece: MCTS with cut rollouts
/// must finish its games, not merely lead (a cut rollout scored as a win, by the sign of the
/// lead alone, left 97 games in 100 unfinished at 1000 plies, MCTS far ahead).
#[test]
fn agents_mcts_beats_random_at_seega() {
    engine::<CustodialFamily, _>("seega", "davies", |rules| {
        wins_at_least(
            "seega/davies",
            rules,
            &[spec("mcts:300:40"), Agent::Random],
            30,
            28,
        );
    });
}

#[test]
fn agents_mcts_beats_random_at_sijat_el_taba() {
    engine::<StickRaceFamily, _>("sijat-el-taba", "davies", |rules| {
        wins_at_least(
            "sijat-el-taba/davies",
            rules,
            &[spec("mcts:300:20"), Agent::Random],
            30,
            22,
        );
    });
}

/// Along random games, greedy's choice has the best material lead for the mover of all the
/// legal moves (in readings where no chance step follows a move), found here by brute force.
fn greedy_takes_the_best<R: Rules>(rules: &R, key: u64) {
    let mut checked = 0;
    for game in 0..20 {
        let mut rng = rng::game_rng(9, key, game);
        let mut s = rules.initial();
        let mut legal = Vec::new();
        while rules.status(&s) != Status::Over && rules.plies(&s) < 300 {
            match rules.status(&s) {
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                    rules.apply_chance(&mut s, k, &mut Vec::new());
                }
                Status::ToMove(seat) => {
                    rules.legal_moves(&s, &mut legal);
                    let leads: Vec<i64> = legal
                        .iter()
                        .map(|&mv| {
                            let mut next = s.clone();
                            rules.apply(&mut next, mv, &mut Vec::new());
                            assert_ne!(rules.status(&next), Status::Chance);
                            agents::lead(rules, &next, seat)
                        })
                        .collect();
                    let g = agents::choose(&Agent::Greedy, rules, &s, &legal, &mut rng);
                    assert_eq!(
                        leads[g],
                        *leads.iter().max().unwrap(),
                        "{}: {leads:?}",
                        rules.state_text(&s)
                    );
                    checked += usize::from(leads.iter().any(|&l| l != leads[0]));
                    let r = agents::choose(&Agent::Random, rules, &s, &legal, &mut rng);
                    rules.apply(&mut s, legal[r], &mut Vec::new());
                }
                Status::Over => unreachable!(),
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} decisions where the moves differ"
    );
}

#[test]
fn agents_greedy_takes_the_best_lead() {
    engine::<SowingFamily, _>("um-el-bagara", "davies", |rules| {
        greedy_takes_the_best(rules, rng::reading_key("um-el-bagara", "davies"));
    });
    engine::<CustodialFamily, _>("seega", "davies", |rules| {
        greedy_takes_the_best(rules, rng::reading_key("seega", "davies"));
    });
}

/// One game of greedy against a small MCTS, and one the other way round, at every reading:
/// every engine's moves, chance steps and ends go through the agents without a panic, and
/// the games end or time out within the limit.
struct Plays {
    key: u64,
}

impl EngineVisitor for Plays {
    type Output = Vec<u32>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Vec<u32> {
        let orders = [
            [Agent::Greedy, spec("mcts:3:6")],
            [spec("mcts:2"), Agent::Greedy],
        ];
        orders
            .iter()
            .map(|players| {
                let (end, plies) = sim::play_game(rules, players, 1, self.key, 0, 1500);
                if rules.has_cap() {
                    // The engine's cap ends the game, never the run's limit.
                    assert_ne!(end, GameEnd::Timeout(sim::Timeout::PlyLimit));
                } else {
                    assert!(plies <= 1500, "{plies}");
                }
                plies
            })
            .collect()
    }
}

#[test]
fn agents_play_every_reading() {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let mut played = 0;
    for g in &corpus.games {
        for interp in &g.interpretations {
            let bound = bind(g, interp, &serde_json::Map::new()).expect("binds");
            let key = rng::reading_key(&g.id, &interp.id);
            let plies = bound.engine.visit(Plays { key });
            assert!(plies.iter().all(|&p| p > 0), "{}/{}", g.id, interp.id);
            played += 1;
        }
    }
    assert!(played >= 20, "{played} readings");
}

/// MCTS iterations per second on the first decision of a game (printed, not asserted).
struct Speed {
    name: &'static str,
    agent: Agent,
}

impl EngineVisitor for Speed {
    type Output = ();
    fn visit<F: GameFamily>(self, rules: &F::Rules) {
        let Agent::Mcts { iterations, .. } = self.agent else {
            unreachable!()
        };
        let mut rng = rng::game_rng(1, 0, 0);
        let mut s = rules.initial();
        let mut legal = Vec::new();
        // The first decision with a choice.
        loop {
            match rules.status(&s) {
                Status::Over => return,
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                    rules.apply_chance(&mut s, k, &mut Vec::new());
                }
                Status::ToMove(_) => {
                    rules.legal_moves(&s, &mut legal);
                    if legal.len() > 1 {
                        break;
                    }
                    rules.apply(&mut s, legal[0], &mut Vec::new());
                }
            }
        }
        let t = Instant::now();
        let mut decisions = 0;
        while t.elapsed().as_secs_f64() < 0.3 {
            agents::choose(&self.agent, rules, &s, &legal, &mut rng);
            decisions += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{}: {}: {:.0} iterations/s",
            self.name,
            self.agent,
            f64::from(iterations) * f64::from(decisions) / secs
        );
    }
}

#[test]
fn agents_mcts_iterations_per_second() {
    for (game, reading) in READINGS {
        for agent in ["mcts:200", "mcts:200:20"] {
            with_engine(
                game,
                reading,
                Speed {
                    name: game,
                    agent: spec(agent),
                },
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Alpha-beta and expectimax
// ---------------------------------------------------------------------------------------------

/// The value of a finished game for `root`, `depth` decisions before the horizon, as the
/// search defines it.
fn plain_end<R: Rules>(rules: &R, s: &R::State, root: usize, depth: u32) -> f64 {
    match rules.outcome(s).map(|o| o.result) {
        Some(Result_::Win(mask)) if mask & (1 << root) != 0 => search::WIN + f64::from(depth),
        Some(Result_::Win(_)) => -(search::WIN + f64::from(depth)),
        _ => 0.0,
    }
}

/// A position's value for `root` by plain expectiminimax, every move searched, the others
/// minimising, chance steps by the mean over their weights (a chance step straight after
/// another costs a ply), positions at the horizon scored on the lead.
fn plain<R: Rules>(rules: &R, s: &R::State, root: usize, depth: u32, after_chance: bool) -> f64 {
    let leaf = |s: &R::State| match rules.status(s) {
        Status::Over => plain_end(rules, s, root, 0),
        _ => agents::lead(rules, s, root) as f64,
    };
    match rules.status(s) {
        Status::Over => plain_end(rules, s, root, depth),
        Status::Chance => {
            let depth = match (after_chance, depth) {
                (true, 0) => return leaf(s),
                (true, d) => d - 1,
                (false, d) => d,
            };
            let (mut sum, mut total) = (0.0, 0u64);
            for (k, &w) in rules.chance_outcomes(s).iter().enumerate() {
                if w == 0 {
                    continue;
                }
                let mut next = s.clone();
                rules.apply_chance(&mut next, k, &mut Vec::new());
                sum += f64::from(w) * plain(rules, &next, root, depth, true);
                total += u64::from(w);
            }
            sum / total as f64
        }
        Status::ToMove(seat) => {
            if depth == 0 {
                return leaf(s);
            }
            let mut legal = Vec::new();
            rules.legal_moves(s, &mut legal);
            let values = legal.iter().map(|&mv| {
                let mut next = s.clone();
                rules.apply(&mut next, mv, &mut Vec::new());
                plain(rules, &next, root, depth - 1, false)
            });
            if seat == root {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
    }
}

/// Positions with a choice from random games of a reading (seed 3): up to `count`, a few a
/// game, spread along the games.
fn positions<R: Rules>(rules: &R, count: usize) -> Vec<R::State> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for game in 0..50 {
        let mut rng = rng::game_rng(3, 0, game);
        let mut s = rules.initial();
        let mut decisions = 0u32;
        while rules.status(&s) != Status::Over && decisions < 400 && out.len() < count {
            match rules.status(&s) {
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                    rules.apply_chance(&mut s, k, &mut Vec::new());
                }
                Status::ToMove(_) => {
                    rules.legal_moves(&s, &mut legal);
                    if legal.len() > 1 && decisions % 17 == 5 {
                        out.push(s.clone());
                    }
                    let i = agents::choose(&Agent::Random, rules, &s, &legal, &mut rng);
                    rules.apply(&mut s, legal[i], &mut Vec::new());
                    decisions += 1;
                }
                Status::Over => unreachable!(),
            }
        }
        if out.len() >= count {
            break;
        }
    }
    out
}

/// At every position and depth, alpha-beta (ordered, and in legal-move order without the
/// table) and expectimax find plain expectiminimax's value, and play a move that has it.
struct SameAsMinimax {
    depths: u32,
}

impl EngineVisitor for SameAsMinimax {
    type Output = usize;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
        let mut checked = 0;
        let mut legal = Vec::new();
        for s in positions(rules, 8) {
            let Status::ToMove(root) = rules.status(&s) else {
                unreachable!()
            };
            rules.legal_moves(&s, &mut legal);
            for depth in 1..=self.depths {
                let values: Vec<f64> = legal
                    .iter()
                    .map(|&mv| {
                        let mut next = s.clone();
                        rules.apply(&mut next, mv, &mut Vec::new());
                        plain(rules, &next, root, depth - 1, false)
                    })
                    .collect();
                let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                for (name, searcher) in [
                    ("ab", search::Searcher::new(rules, root, true)),
                    (
                        "ab unordered",
                        search::Searcher::new(rules, root, true).unordered(),
                    ),
                    ("ex", search::Searcher::new(rules, root, false)),
                ] {
                    let mut searcher = searcher;
                    let mut rng = rng::game_rng(4, 0, u64::from(depth));
                    let (index, value) = searcher.decide(&s, &legal, depth, None, &mut rng);
                    assert_eq!(
                        (values[index], value),
                        (best, best),
                        "{name} at depth {depth}: {} played {index} (values {values:?})",
                        rules.state_text(&s)
                    );
                }
                checked += 1;
            }
        }
        checked
    }
}

#[test]
fn agents_alpha_beta_and_expectimax_equal_plain_minimax() {
    for (game, reading, depths) in [
        ("um-el-bagara", "davies", 3),
        ("seega", "davies", 3),
        ("sijat-el-taba", "davies", 2),
        ("lib-el-merafib", "davies", 2),
    ] {
        let checked = with_engine(game, reading, SameAsMinimax { depths });
        assert!(checked >= 8, "{game}/{reading}: {checked} positions");
    }
}

/// Seega under Davies, `x` (seat 1) to move, `o`'s last piece beside an `x` on the second
/// row: the `x` of the top row stepping down beside it takes it and wins, the one move that
/// does. Alpha-beta and expectimax take it at every depth, and so does every level.
#[test]
fn agents_search_takes_the_winning_capture() {
    engine::<CustodialFamily, _>("seega", "davies", |rules| {
        let s = rules
            .setup(&CustodialSetup {
                rows: &["..x..", "xo...", ".....", ".....", "....."],
                hands: [0, 0],
                to_move: 0,
            })
            .unwrap();
        let mut legal = Vec::new();
        rules.legal_moves(&s, &mut legal);
        let wins: Vec<usize> = (0..legal.len())
            .filter(|&i| {
                let mut next = s.clone();
                rules.apply(&mut next, legal[i], &mut Vec::new());
                rules.outcome(&next).is_some_and(|o| o.won(0))
            })
            .collect();
        assert_eq!(wins.len(), 1, "{legal:?}");
        let mut rng = rng::game_rng(1, 0, 0);
        for text in [
            "ab:1", "ab:3", "ex:2", "ab:5:50", "weak", "fair", "strong", "greedy",
        ] {
            let i = agents::choose(&spec(text), rules, &s, &legal, &mut rng);
            assert_eq!(i, wins[0], "{text} played {}", rules.display(legal[i]));
        }
    });
}

/// Seega under Davies, `x`'s last piece on the bottom row, second cell, an `o` above it and
/// one two cells to its right, `x` to move: stepping right loses it (the `o` above steps
/// down behind it and takes it between two), stepping left is safe. Two plies deep every
/// search sees the loss and avoids it.
#[test]
fn agents_search_avoids_the_losing_step() {
    engine::<CustodialFamily, _>("seega", "davies", |rules| {
        let s = rules
            .setup(&CustodialSetup {
                rows: &[".....", ".....", ".....", ".o...", ".x.o."],
                hands: [0, 0],
                to_move: 0,
            })
            .unwrap();
        let mut legal = Vec::new();
        rules.legal_moves(&s, &mut legal);
        let names: Vec<String> = legal.iter().map(|&m| rules.display(m)).collect();
        let mut rng = rng::game_rng(1, 0, 0);
        for text in ["ab:2", "ab:4", "ex:2", "fair", "strong"] {
            let i = agents::choose(&spec(text), rules, &s, &legal, &mut rng);
            let mut next = s.clone();
            rules.apply(&mut next, legal[i], &mut Vec::new());
            let mut replies = Vec::new();
            rules.legal_moves(&next, &mut replies);
            for &r in &replies {
                let mut after = next.clone();
                rules.apply(&mut after, r, &mut Vec::new());
                assert!(
                    !rules.outcome(&after).is_some_and(|o| o.won(1)),
                    "{text} played {} of {names:?}, and {} wins for o",
                    names[i],
                    rules.display(r)
                );
            }
        }
    });
}

/// The moves of one seeded game of `agents` (seat by seat), its first `plies` decisions, by
/// [`agents::choose`] with the game's generator.
fn moves_of<R: Rules>(rules: &R, agents: &[Agent], plies: u32) -> Vec<String> {
    let mut rng = rng::game_rng(1, 7, 0);
    let mut s = rules.initial();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    while rules.status(&s) != Status::Over && rules.plies(&s) < plies {
        match rules.status(&s) {
            Status::Chance => {
                let k = rng::sample(rules.chance_outcomes(&s), &mut rng);
                rules.apply_chance(&mut s, k, &mut Vec::new());
            }
            Status::ToMove(seat) => {
                rules.legal_moves(&s, &mut legal);
                let i = agents::choose(&agents[seat % agents.len()], rules, &s, &legal, &mut rng);
                out.push(rules.move_text(legal[i]));
                rules.apply(&mut s, legal[i], &mut Vec::new());
            }
            Status::Over => unreachable!(),
        }
    }
    out
}

/// An agent never reads whether the engine has a cap: Seega under Davies, and the same with
/// a cap of 20 000 moves added (`--set`), which neither the first 60 decisions nor their
/// searches' rollouts (at most 10 000 plies from where they start) reach, play the same
/// moves. (Rollouts that ran on to a cap where one existed, and were cut and scored on
/// material where none did, made them differ.)
#[test]
fn agents_choose_alike_with_or_without_an_unreached_cap() {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let g = corpus.game("seega").expect("game");
    let interp = g.interpretation("davies").expect("reading");
    let plain = bind(g, interp, &serde_json::Map::new()).expect("binds");
    let mut set = serde_json::Map::new();
    set.insert(
        "cap".to_owned(),
        serde_json::json!({ "moves": 20000, "outcome": "draw" }),
    );
    let capped = bind(g, interp, &set).expect("binds with a cap");
    let plain = plain.engine.get::<CustodialFamily>().expect("custodial");
    let capped = capped.engine.get::<CustodialFamily>().expect("custodial");
    assert!(!plain.has_cap() && capped.has_cap());
    for lineup in [
        [spec("mcts:3"), spec("ab:2")],
        [spec("mcts:8:30"), spec("fair")],
    ] {
        let a = moves_of(plain, &lineup, 60);
        let b = moves_of(capped, &lineup, 60);
        assert!(a.len() >= 40, "{} moves", a.len());
        assert_eq!(a, b, "{lineup:?}");
    }
}

#[test]
fn agents_parse_the_search_forms_and_levels() {
    assert_eq!(
        spec("ab:3"),
        Agent::AlphaBeta {
            depth: 3,
            nodes: None
        }
    );
    assert_eq!(
        spec("ex:2:500"),
        Agent::Expectimax {
            depth: 2,
            nodes: Some(500)
        }
    );
    assert_eq!(spec("strong"), Agent::Level(Level::Strong));
    for text in [
        "ab:1",
        "ab:40",
        "ab:6:100000000",
        "ex:3",
        "ex:4:1",
        "weak",
        "fair",
        "strong",
    ] {
        assert_eq!(spec(text).to_string(), text, "round trip");
    }
    for level in Level::ALL {
        let agent = level.agent();
        assert_eq!(spec(&agent.to_string()), agent);
        assert!(
            FORMS.contains(&format!("{} ({agent})", level.name())),
            "{FORMS}"
        );
    }
    // Each level is the stronger of the two around it.
    assert!(matches!(
        Level::Weak.agent(),
        Agent::AlphaBeta { depth: 2, .. }
    ));
}

#[test]
fn agents_refuse_bad_depths_and_budgets_naming_the_range() {
    for (bad, says) in [
        ("ab:0", "the depth must be 1 to 40, not 0"),
        ("ab:-2", "the depth must be 1 to 40, not -2"),
        ("ab:41", "the depth must be 1 to 40, not 41"),
        ("ab:99999999999999999999", "the depth must be 1 to 40"),
        ("ex:3:0", "the node budget must be 1 to 100000000, not 0"),
        ("ab:3:100000001", "the node budget must be 1 to 100000000"),
        ("ab", "ab needs its depth, ab:DEPTH"),
        ("ex:x", "the depth \"x\" is not a number (give 1 to 40)"),
        ("ab:2:3:4", "too many parts"),
        ("strong:3", "strong takes no parameters"),
        ("mcts:-3", "the iterations must be 1 to 1000000, not -3"),
        ("stong", "unknown agent; did you mean strong?"),
        ("alphabeta", "unknown agent; did you mean ab:DEPTH?"),
        ("Expectimax", "unknown agent; did you mean ex:DEPTH?"),
        ("rnadom", "unknown agent; did you mean random?"),
        ("weka", "unknown agent; did you mean weak?"),
    ] {
        let err = bad.parse::<Agent>().expect_err(bad).to_string();
        assert!(err.contains(says), "{bad:?}: {err}");
        assert!(err.contains(FORMS), "{bad:?}: {err}");
        assert!(err.contains(&format!("{bad:?}")), "{bad:?}: {err}");
    }
    let err = "zzzz".parse::<Agent>().unwrap_err().to_string();
    assert!(!err.contains("did you mean"), "{err}");
}

/// Alpha-beta's games are functions of the seed: the same game twice, another game at
/// another index.
#[test]
fn agents_search_games_are_reproducible() {
    let key = rng::reading_key("um-el-bagara", "davies");
    engine::<SowingFamily, _>("um-el-bagara", "davies", |rules| {
        reproducible(rules, &[spec("ab:3:2000"), spec("mcts:20:10")], key);
    });
    let key = rng::reading_key("sijat-el-taba", "davies");
    engine::<StickRaceFamily, _>("sijat-el-taba", "davies", |rules| {
        reproducible(rules, &[spec("ex:2:500"), Agent::Random], key);
    });
}
