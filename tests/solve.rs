//! Exact values (`solve`): the solver against a plain minimax written here on tiny settings,
//! symmetric positions against their mirror, and the built-in readings.

use ludotrace::games::{NoEvents, Rules, Status};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::solve::{Graph, Value};

use crate::util::readings;

/// Binds a reading with overrides and hands its engine to `visitor`.
fn with_set<V: EngineVisitor>(game: &str, reading: &str, set: &[&str], visitor: V) -> V::Output {
    let corpus = ludotrace::corpus::load(&ludotrace::corpus::CorpusFiles::embedded())
        .corpus
        .expect("corpus loads");
    let g = corpus.game(game).expect("game");
    let interp = g.interpretation(reading).expect("reading");
    let set: Vec<String> = set.iter().map(|s| (*s).to_owned()).collect();
    let overrides = ludotrace::bind::parse_overrides(&set).expect("overrides");
    let bound = ludotrace::bind::bind(g, interp, &overrides).expect("binds");
    bound.engine.visit(visitor)
}

/// The forced result within `depth` plies, found by trying every line: `Some((winner,
/// plies))` where one seat wins however the other plays within the horizon (the winner
/// hastening, the loser delaying), `None` where no seat can force a win within it.
fn minimax<R: Rules>(rules: &R, s: &R::State, depth: u32) -> Option<(usize, u32)> {
    match rules.status(s) {
        Status::Over => {
            let o = rules.outcome(s)?;
            match o.result {
                ludotrace::games::Result_::Win(mask) if mask.count_ones() == 1 => {
                    Some((mask.trailing_zeros() as usize, 0))
                }
                _ => None,
            }
        }
        Status::Chance => panic!("a chance step in a deterministic game"),
        Status::ToMove(seat) => {
            if depth == 0 {
                return None;
            }
            let mut moves = Vec::new();
            rules.legal_moves(s, &mut moves);
            let mut best_win: Option<u32> = None;
            let mut all_lose = true;
            let mut slowest = 0;
            for mv in moves {
                let mut next = s.clone();
                rules.apply(&mut next, mv, &mut NoEvents);
                match minimax(rules, &next, depth - 1) {
                    Some((w, p)) if w == seat => {
                        best_win = Some(best_win.map_or(p, |b: u32| b.min(p)));
                    }
                    Some((_, p)) => slowest = slowest.max(p),
                    None => all_lose = false,
                }
            }
            match best_win {
                Some(p) => Some((seat, p + 1)),
                None if all_lose => Some((1 - seat, slowest + 1)),
                None => None,
            }
        }
    }
}

/// The score margin (seat 1's score less seat 2's) where every line from `s` ends within
/// `depth` plies: the mover's best (seat 1 the highest, seat 2 the lowest); `None` where some
/// line does not end within the horizon.
fn margin_minimax<R: Rules>(rules: &R, s: &R::State, depth: u32) -> Option<i64> {
    match rules.status(s) {
        Status::Over => rules
            .outcome(s)
            .map(|o| i64::from(o.scores[0]) - i64::from(o.scores[1])),
        Status::Chance => panic!("a chance step in a deterministic game"),
        Status::ToMove(seat) => {
            if depth == 0 {
                return None;
            }
            let mut moves = Vec::new();
            rules.legal_moves(s, &mut moves);
            let mut best: Option<i64> = None;
            for mv in moves {
                let mut next = s.clone();
                rules.apply(&mut next, mv, &mut NoEvents);
                let m = margin_minimax(rules, &next, depth - 1)?;
                best = Some(match best {
                    None => m,
                    Some(b) if seat == 0 => b.max(m),
                    Some(b) => b.min(m),
                });
            }
            best
        }
    }
}

/// Every position of the graph solved, checked against the plain minimax to `depth`: a win
/// the solver finds within the horizon, minimax finds the same; one minimax finds, the
/// solver finds the same; and no position is a win for both.
struct AgainstMinimax {
    depth: u32,
}

impl EngineVisitor for AgainstMinimax {
    type Output = (usize, usize);
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> (usize, usize) {
        let mut start = rules.initial();
        if rules.status(&start) == Status::Chance {
            rules.apply_chance(&mut start, 0, &mut NoEvents);
        }
        let g = Graph::build(rules, &start, 200_000).expect("a tiny game solves");
        let sol = g.solve();
        let mut wins = 0;
        let mut margins = 0;
        for i in 0..g.len() as u32 {
            // Every position of a small graph, one in eleven of a larger one.
            if g.len() > 3000 && i % 11 != 0 {
                continue;
            }
            let s = rules.parse_position(g.key(i)).expect("a key reads back");
            let brute = minimax(rules, &s, self.depth);
            if let Some(m) = margin_minimax(rules, &s, self.depth.min(7)) {
                assert_eq!(sol.margin(i), Ok(m), "the margin of {}", g.key(i));
                margins += 1;
            }
            let exact = match sol.value(i) {
                Value::Win { seat, plies } => Some((seat, plies)),
                _ => None,
            };
            match (exact, brute) {
                (Some((w, p)), _) if p <= self.depth => {
                    assert_eq!(brute, Some((w, p)), "{}", g.key(i));
                    wins += 1;
                }
                (Some(_), None) => {}
                (_, Some(b)) => panic!("{}: minimax finds {b:?}, the solver {exact:?}", g.key(i)),
                (None, None) => {}
            }
        }
        assert!(margins > 0, "no margin checked");
        (g.len(), wins)
    }
}

#[test]
fn the_solver_agrees_with_a_plain_minimax_on_tiny_boards() {
    for (game, reading, set) in [
        ("um-el-tuweisat", "ludii", &["holes=2", "counters=2"][..]),
        ("um-el-tuweisat", "davies", &["holes=2", "counters=2"][..]),
        (
            "um-el-tuweisat",
            "ludii-1.0.8",
            &["holes=2", "counters=2"][..],
        ),
        ("um-el-bagara", "ludii", &["holes=2", "counters=2"][..]),
        ("um-el-tuweisat", "dlp", &["holes=3", "counters=2"][..]),
        ("seega", "davies", &["size=3", "pieces=2"][..]),
        ("seega", "ludii", &["size=3", "pieces=3"][..]),
    ] {
        let (states, wins) = with_set(game, reading, set, AgainstMinimax { depth: 9 });
        eprintln!("{game} {reading} {set:?}: {states} positions, {wins} wins checked");
        assert!(states > 10, "{game} {reading}: too small a test");
    }
}

/// Um el Tuweisat's readings solved from the start (for each starter where the lot decides
/// it): Ludii 1.0.8's left-hole defect gives the first mover a forced win; under every other
/// reading neither seat can force a win or any end (no reading has a repetition rule).
#[test]
fn um_el_tuweisat_is_solved_under_every_reading() {
    struct Solve;
    impl EngineVisitor for Solve {
        type Output = Vec<(usize, Value)>;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> Vec<(usize, Value)> {
            let start = rules.initial();
            let starts: Vec<<F::Rules as Rules>::State> = match rules.status(&start) {
                Status::Chance => (0..rules.chance_outcomes(&start).len())
                    .map(|k| {
                        let mut s = start.clone();
                        rules.apply_chance(&mut s, k, &mut NoEvents);
                        s
                    })
                    .collect(),
                _ => vec![start],
            };
            starts
                .iter()
                .map(|s| {
                    let g = Graph::build(rules, s, 1_000_000).expect("solves");
                    (g.len(), g.solve().value(0))
                })
                .collect()
        }
    }
    for (game, reading) in readings() {
        if game != "um-el-tuweisat" {
            continue;
        }
        let solved = crate::util::with_engine(&game, &reading, Solve);
        for (states, value) in solved {
            let want = if reading == "ludii-1.0.8" {
                Value::Win { seat: 0, plies: 17 }
            } else {
                Value::Endless
            };
            assert_eq!(value, want, "{reading}: {states} positions");
        }
    }
}

/// `ludotrace solve` as a user runs it: the value and its principal variation, which replays
/// through the engine to the end it promises; a value per starter where the lot decides;
/// refusals with the reason.
#[test]
fn solve_gives_the_value_and_refuses_what_it_cannot_solve() {
    use crate::util::{fails, json, ok};
    let v = json(&[
        "solve",
        "um-el-tuweisat",
        "-i",
        "ludii-1.0.8",
        "--format",
        "json",
    ]);
    let start = &v["starts"][0];
    assert_eq!(start["value"], "win");
    assert_eq!(start["seat"], 1);
    assert_eq!(start["plies"], 17);
    assert_eq!(start["within_cap"], true);
    let pv = start["principal_variation"].as_array().unwrap();
    assert_eq!(pv.len(), 17, "a win's line runs to the end");
    // The line replays: each position is the one its move leads to, and the last is over.
    struct Replay(Vec<String>, Vec<String>);
    impl EngineVisitor for Replay {
        type Output = bool;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> bool {
            let mut s = rules.initial();
            for (mv, after) in self.0.iter().zip(&self.1) {
                let mut legal = Vec::new();
                rules.legal_moves(&s, &mut legal);
                let m = *legal
                    .iter()
                    .find(|m| rules.move_text(**m) == *mv)
                    .expect("a legal move");
                rules.apply(&mut s, m, &mut NoEvents);
                assert_eq!(ludotrace::solve::key(rules, &s), *after);
            }
            rules.status(&s) == Status::Over && rules.outcome(&s).is_some_and(|o| o.won(0))
        }
    }
    let moves = pv
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    let after = pv
        .iter()
        .map(|m| m["position"].as_str().unwrap().to_owned())
        .collect();
    assert!(crate::util::with_engine(
        "um-el-tuweisat",
        "ludii-1.0.8",
        Replay(moves, after)
    ));

    // The lot decides who begins: a value per starter.
    let v = json(&[
        "solve",
        "um-el-tuweisat",
        "-i",
        "davies",
        "--set",
        "holes=2",
        "--format",
        "json",
    ]);
    let starters: Vec<u64> = v["starts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["starter"].as_u64().unwrap())
        .collect();
    assert_eq!(starters, vec![1, 2]);

    // A position given in the notation.
    let t = ok(&[
        "solve",
        "um-el-tuweisat",
        "-i",
        "ludii",
        "--position",
        "rows=0,2,1/3,0,0 to-move=1 taken=6,6",
    ]);
    assert!(t.contains("From the position given"), "{t}");

    // Refusals, each with its reason.
    let e = fails(&["solve", "sijat-el-taba"]);
    assert!(e.contains("is not solved") && e.contains("chance"), "{e}");
    let e = fails(&["solve", "um-el-tuweisat", "--max-states", "500"]);
    assert!(
        e.contains("more than 500 positions") && e.contains("--max-states"),
        "{e}"
    );
    let e = fails(&["solve", "um-el-tuweisat", "--set", "repetition=draw"]);
    assert!(e.contains("repetition rule"), "{e}");
    let e = fails(&["solve", "um-el-tuweisat", "--position", "rows=1 to-move=1"]);
    assert!(e.contains("--position: column 6, field rows"), "{e}");
}

/// A sowing position with the seats swapped: each row to the other seat, the takings
/// swapped, the other seat to move.
fn mirror(key: &str) -> String {
    key.split(' ')
        .map(|w| {
            if let Some(rows) = w.strip_prefix("rows=") {
                let (a, b) = rows.split_once('/').unwrap();
                format!("rows={b}/{a}")
            } else if let Some(t) = w.strip_prefix("taken=") {
                let (a, b) = t.split_once(',').unwrap();
                format!("taken={b},{a}")
            } else if let Some(s) = w.strip_prefix("to-move=") {
                format!("to-move={}", if s == "1" { 2 } else { 1 })
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Under a reading that treats both seats alike, a position and its mirror have mirrored
/// values: the other seat wins, in as many plies, by the opposite margin.
#[test]
fn mirrored_positions_have_mirrored_values() {
    struct Mirror;
    impl EngineVisitor for Mirror {
        type Output = usize;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
            let g = Graph::build(rules, &rules.initial(), 100_000).unwrap();
            let sol = g.solve();
            let mut checked = 0;
            for i in 0..g.len() as u32 {
                let m = mirror(g.key(i));
                let s = rules.parse_position(&m).expect("the mirror reads");
                let h = Graph::build(rules, &s, 100_000).unwrap();
                let hs = h.solve();
                let want = match sol.value(i) {
                    Value::Win { seat, plies } => Value::Win {
                        seat: 1 - seat,
                        plies,
                    },
                    Value::Draw { seat, plies } => Value::Draw {
                        seat: 1 - seat,
                        plies,
                    },
                    v => v,
                };
                // (Which seat is named first for a forced draw may differ: both may force it.)
                if !matches!(want, Value::Draw { .. }) {
                    assert_eq!(hs.value(0), want, "{} and its mirror {m}", g.key(i));
                }
                let flip = |r: Result<i64, (Option<i64>, Option<i64>)>| match r {
                    Ok(m) => Ok(-m),
                    Err((a, b)) => Err((b.map(|x| -x), a.map(|x| -x))),
                };
                assert_eq!(hs.margin(0), flip(sol.margin(i)), "{}", g.key(i));
                checked += 1;
            }
            checked
        }
    }
    for reading in ["ludii", "davies"] {
        let n = with_set(
            "um-el-tuweisat",
            reading,
            &["holes=2", "counters=2", "starter=first-seat"],
            Mirror,
        );
        assert!(n > 10, "{reading}: {n}");
    }
}

/// `perfect` keeps a forced win: under Ludii 1.0.8's reading of Um el Tuweisat the first
/// mover wins in 17 plies with best play, so `perfect` at seat 1 wins every game against any
/// play, within 17 plies (the loser can only hasten its loss); at seat 2 it can only lose.
#[test]
fn perfect_play_wins_a_forced_win_within_its_length() {
    let out = crate::util::json(&[
        "--no-store",
        "run",
        "um-el-tuweisat",
        "-i",
        "ludii-1.0.8",
        "--agents",
        "perfect,random",
        "-n",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(out["results"]["wins"][0], 300, "{}", out["results"]);
    assert!(
        out["plies"]["max"].as_f64().expect("plies max") <= 17.0,
        "{}",
        out["plies"]
    );
    // Perfect against perfect: the principal variation, every game alike.
    let out = crate::util::json(&[
        "--no-store",
        "run",
        "um-el-tuweisat",
        "-i",
        "ludii-1.0.8",
        "--agents",
        "perfect",
        "-n",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(out["results"]["wins"][0], 20);
    assert_eq!(out["plies"]["min"], out["plies"]["max"]);
    assert_eq!(out["plies"]["max"].as_f64(), Some(17.0));
}

/// The table `perfect` plays by: at every position of a small reading, its move keeps the
/// value, and at least one move does; a move the table calls value-keeping leads where the
/// mover's value (win, neither, loss) is the position's.
#[test]
fn the_perfect_move_is_always_a_value_keeping_move() {
    struct Check;
    impl EngineVisitor for Check {
        type Output = usize;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
            let table = ludotrace::solve::Table::of_start(rules, 1_000_000).expect("solves");
            let start = rules.initial();
            let mut checked = 0;
            let mut legal = Vec::new();
            // Every position reachable: walk the table's graph from the start.
            let mut seen = std::collections::HashSet::new();
            let mut stack: Vec<_> = ludotrace::solve::starts(rules, &start)
                .into_iter()
                .map(|(_, s)| s)
                .collect();
            while let Some(s) = stack.pop() {
                if !seen.insert(ludotrace::solve::key(rules, &s)) {
                    continue;
                }
                let Status::ToMove(seat) = rules.status(&s) else {
                    continue;
                };
                rules.legal_moves(&s, &mut legal);
                let keeping = table.keeping(rules, &s).unwrap_or_else(|| {
                    panic!(
                        "not held: {} (from {})",
                        ludotrace::solve::key(rules, &s),
                        rules.position_text(&s)
                    )
                });
                let best = table.best_move(rules, &s).unwrap_or_else(|| {
                    panic!(
                        "no best move at {} ({:?})",
                        ludotrace::solve::key(rules, &s),
                        table.value(rules, &s)
                    )
                });
                assert_eq!(keeping.len(), legal.len());
                assert!(keeping[best], "{}", ludotrace::solve::key(rules, &s));
                // A position the table holds as over (the engine's proof that no end can be
                // reached, which play makes later) keeps its value whatever is played.
                let class = |v: Value| match v {
                    Value::Win { seat: w, .. } if w == seat => 2,
                    Value::Win { .. } => 0,
                    _ => 1,
                };
                let here = table.value(rules, &s).expect("held");
                if here == Value::Unfinished {
                    // Held as over: every move keeps it, and what follows is not listed.
                    assert!(keeping.iter().all(|&k| k) && best == 0);
                    continue;
                }
                let here = class(here);
                for (k, &mv) in legal.iter().enumerate() {
                    let mut next = s.clone();
                    rules.apply(&mut next, mv, &mut NoEvents);
                    let there = class(table.value(rules, &next).expect("held"));
                    assert!(there <= here, "a move better than the value");
                    assert_eq!(keeping[k], there == here);
                    stack.push(next);
                }
                checked += 1;
            }
            checked
        }
    }
    for (game, reading, set) in [
        ("um-el-tuweisat", "ludii-1.0.8", &[][..]),
        ("um-el-tuweisat", "davies", &["holes=2", "counters=3"][..]),
        ("seega", "davies", &["size=3", "pieces=2"][..]),
    ] {
        let n = with_set(game, reading, set, Check);
        assert!(n > 20, "{game} {reading}: {n} positions");
    }
}

/// `perfect` where the reading is not solved: refused with the reason, exit 2.
#[test]
fn perfect_is_refused_where_the_reading_is_not_solved() {
    for (args, words) in [
        (
            &["run", "sijat-el-taba", "--agents", "perfect", "-n", "10"][..],
            "a chance step",
        ),
        (
            &[
                "run",
                "um-el-tuweisat",
                "--set",
                "repetition=draw",
                "--agents",
                "perfect,random",
                "-n",
                "10",
            ][..],
            "repetition",
        ),
        (
            &["explain", "lib-el-merafib", "--agents", "perfect"][..],
            "a chance step",
        ),
    ] {
        let mut full = vec!["--no-store"];
        full.extend_from_slice(args);
        let err = crate::util::fails(&full);
        assert!(
            err.contains("--agents perfect")
                && err.contains("is not solved")
                && err.contains(words),
            "{args:?}: {err}"
        );
    }
}

/// `solve --rate`: the agents against perfect play, the same at any thread count; perfect
/// play keeps every value; a bad list or no positions refused.
#[test]
fn agents_are_rated_against_perfect_play_whatever_the_threads() {
    let rate = |threads: &str| {
        crate::util::json(&[
            "solve",
            "um-el-tuweisat",
            "-i",
            "davies",
            "--set",
            "counters=2",
            "--rate",
            "random,greedy,mcts:20,weak,perfect",
            "--positions",
            "150",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let one = rate("1");
    assert_eq!(one, rate("2"), "the rating depends on the threads");
    let r = &one["rating"];
    let positions = r["positions"].as_u64().expect("positions");
    let decisive = r["decisive"].as_u64().expect("decisive");
    assert_eq!(positions, 150);
    assert!(decisive > 10 && decisive <= positions, "{r}");
    let agents = r["agents"].as_array().expect("agents");
    assert_eq!(agents.len(), 5);
    for a in agents {
        let kept = a["decisive_kept"].as_u64().expect("kept");
        assert!(kept <= decisive && a["kept"].as_u64().expect("kept") <= positions);
    }
    let perfect = &agents[4];
    assert_eq!(perfect["agent"], "perfect");
    assert_eq!(perfect["decisive_kept"].as_u64(), Some(decisive));
    assert_eq!(perfect["kept"].as_u64(), Some(positions));
    // Random play keeps the value about as often as a random move does on average.
    let random = agents[0]["decisive_share"]["value"]
        .as_f64()
        .expect("share");
    let chance = agents[0]["decisive_chance"].as_f64().expect("chance");
    assert!(
        (random - chance).abs() < 0.2,
        "random {random}, chance {chance}"
    );

    let err = crate::util::fails(&["solve", "um-el-tuweisat", "--rate", "greedy,wizard"]);
    assert!(
        err.contains("--rate") && err.contains("valid forms"),
        "{err}"
    );
    let err = crate::util::fails(&["solve", "um-el-tuweisat", "--rate", "--positions", "0"]);
    assert!(err.contains("--positions"), "{err}");
}

/// Every command that seats agents seats `perfect` where the reading is solved.
#[test]
fn perfect_is_seated_by_every_command_that_seats_agents() {
    for args in [
        &[
            "diff",
            "um-el-tuweisat",
            "ludii-1.0.8",
            "ludii",
            "--agents",
            "perfect,random",
            "-n",
            "20",
        ][..],
        &[
            "ladder",
            "um-el-tuweisat",
            "-i",
            "ludii-1.0.8",
            "--levels",
            "random,perfect",
            "-n",
            "20",
        ][..],
        &[
            "assess",
            "um-el-tuweisat",
            "-i",
            "ludii-1.0.8",
            "--agents",
            "perfect",
            "-n",
            "10",
        ][..],
        &[
            "explain",
            "um-el-tuweisat",
            "-i",
            "ludii-1.0.8",
            "--agents",
            "perfect,random",
        ][..],
    ] {
        let mut full = vec!["--no-store"];
        full.extend_from_slice(args);
        let out = crate::util::ok(&full);
        assert!(out.contains("perfect"), "{args:?}: {out}");
    }
}

/// An endless value's cycle: replayed through the engine from where it starts on the
/// principal variation, its moves bring play back to that position, and it is no longer than
/// the round the principal variation itself closes.
#[test]
fn an_endless_value_comes_with_a_cycle_that_replays() {
    struct Replay(Vec<String>, String);
    impl EngineVisitor for Replay {
        type Output = String;
        fn visit<F: GameFamily>(self, rules: &F::Rules) -> String {
            let mut s = rules.parse_position(&self.1).expect("reads back");
            let mut legal = Vec::new();
            for text in &self.0 {
                rules.legal_moves(&s, &mut legal);
                let mv = *legal
                    .iter()
                    .find(|m| rules.move_text(**m) == *text)
                    .unwrap_or_else(|| panic!("{text} is not legal at {}", self.1));
                rules.apply(&mut s, mv, &mut NoEvents);
            }
            ludotrace::solve::key(rules, &s)
        }
    }
    for reading in ["ludii", "davies"] {
        let out =
            crate::util::json(&["solve", "um-el-tuweisat", "-i", reading, "--format", "json"]);
        let start = &out["starts"][0];
        assert_eq!(start["value"], "endless");
        let after = start["cycle_after_ply"].as_u64().expect("a cycle") as usize;
        let pv = start["principal_variation"].as_array().expect("pv");
        let from = if after == 0 {
            start["position"].as_str().expect("position").to_owned()
        } else {
            pv[after - 1]["position"]
                .as_str()
                .expect("position")
                .to_owned()
        };
        let cycle: Vec<String> = start["cycle"]
            .as_array()
            .expect("cycle")
            .iter()
            .map(|m| m["move"].as_str().expect("move").to_owned())
            .collect();
        assert!(!cycle.is_empty());
        let back = crate::util::with_engine(
            "um-el-tuweisat",
            reading,
            Replay(cycle.clone(), from.clone()),
        );
        assert_eq!(back, from, "{reading}: the cycle does not come back");
        // The principal variation closes a round of its own: the cycle is no longer.
        let keys: Vec<&str> = std::iter::once(&start["position"])
            .chain(pv.iter().map(|m| &m["position"]))
            .map(|p| p.as_str().expect("p"))
            .collect();
        let last = keys.last().expect("a line");
        let first = keys.iter().position(|k| k == last).expect("recurs");
        assert!(
            cycle.len() <= keys.len() - 1 - first,
            "{reading}: {} plies",
            cycle.len()
        );
    }
}
