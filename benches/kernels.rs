//! The engines against their hand-written kernels (`ludotrace::kernels`), in one run: for
//! each kernel's reading, the same block of games played by the kernel and by the engine,
//! interleaved round by round, and the medians compared. Run with
//! `cargo bench --features kernels --bench kernels` (after `--`: a number of rounds, default
//! 11, and words that pick the readings whose names contain them, as `bagara`).
//!
//! The engine is measured exactly as `benches/playouts.rs` measures it: `sim::block` on the
//! calling thread (a seeded generator per game, event counting, the uncovered-rule table of
//! its `Coverage`, the tallies), corpus loading outside the timing. The kernel plays the same
//! games from the same draws (`tests/kernels.rs` holds them equal; the bench checks its own
//! block's wins and plies too) with nothing else. Interleaving the rounds makes both meet
//! the same machine: on a shared machine a sample's speed drifts, and a ratio of medians
//! taken minutes apart can be off by much more than the effect measured.
//!
//! Even so, the kernels' wall times move with code layout: two builds of the same Um
//! el-Bagara kernel, executing the very same instructions, ran at 290 000 and 630 000
//! playouts/s on the same loaded machine. Instruction counts are the repeatable figure:
//! `valgrind --tool=callgrind --toggle-collect='ludotrace::kernels::seega::tally' BENCH seega 1`
//! (or `--toggle-collect='ludotrace::sim::block*'` for the engine) counts what one reading's
//! kernel (or engine) executes over two blocks of games (the check and one sample), where
//! BENCH is the binary `cargo bench --features kernels --bench kernels --no-run` names.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::Rules;
use ludotrace::kernels::{self, bagara, seega};
use ludotrace::registry::{CustodialFamily, GameFamily, SowingFamily};
use ludotrace::rng;
use ludotrace::sim::{self, Coverage, DEFAULT_MAX_PLIES, RunSpec};

/// Games per sample: `benches/playouts.rs`' block for these readings.
const GAMES: u64 = 2000;
/// The run's seed, as in `benches/playouts.rs`.
const SEED: u64 = 1;

/// One reading's figures.
struct Row {
    reading: String,
    kernel: Vec<Duration>,
    engine: Vec<Duration>,
    plies: u64,
}

fn median(xs: &[Duration]) -> Duration {
    let mut v = xs.to_vec();
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

/// Times `rounds` interleaved samples of the kernel and the engine on games `0..GAMES`,
/// alternating which goes first.
fn measure<F: GameFamily>(
    game: &str,
    reading: &str,
    rounds: usize,
    kernel: fn(u64, u64, std::ops::Range<u64>) -> kernels::Tally,
) -> Row
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
        seed: SEED,
        key: rng::reading_key(game, reading),
        max_plies: DEFAULT_MAX_PLIES,
        max_quiet: 0,
        keep_records: false,
        metrics: false,
    };
    // The same games, counted both ways (a warm-up too).
    let k = kernel(SEED, spec.key, 0..GAMES);
    let e = sim::block(rules, &spec, &coverage, 0..GAMES);
    assert_eq!(
        (k.wins.to_vec(), k.draws, k.plies),
        (e.wins.clone(), e.draws, e.decisions),
        "{game}/{reading}: the kernel and the engine played different games"
    );
    let time_kernel = || {
        let t = Instant::now();
        black_box(kernel(SEED, black_box(spec.key), 0..GAMES));
        t.elapsed()
    };
    let time_engine = || {
        let t = Instant::now();
        black_box(sim::block(rules, black_box(&spec), &coverage, 0..GAMES));
        t.elapsed()
    };
    let mut row = Row {
        reading: format!("{game} / {reading}"),
        kernel: Vec::new(),
        engine: Vec::new(),
        plies: k.plies,
    };
    for round in 0..rounds {
        if round % 2 == 0 {
            row.kernel.push(time_kernel());
            row.engine.push(time_engine());
        } else {
            row.engine.push(time_engine());
            row.kernel.push(time_kernel());
        }
    }
    row
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number is the count of rounds, other words
    // filter the readings.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let rounds = args
        .iter()
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(11)
        .max(1);
    let words: Vec<&String> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .collect();
    let wanted = |game: &str| words.is_empty() || words.iter().any(|w| game.contains(w.as_str()));
    let mut rows = Vec::new();
    if wanted(bagara::GAME) {
        rows.push(measure::<SowingFamily>(
            bagara::GAME,
            bagara::READING,
            rounds,
            bagara::tally,
        ));
    }
    if wanted(seega::GAME) {
        rows.push(measure::<CustodialFamily>(
            seega::GAME,
            seega::READING,
            rounds,
            seega::tally,
        ));
    }
    println!("{GAMES} games a sample, {rounds} interleaved samples each, medians; one thread\n");
    println!(
        "| reading | mean plies | kernel playouts/s | engine playouts/s | engine / kernel | kernel ns/decision | engine ns/decision |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for row in &rows {
        let (k, e) = (median(&row.kernel), median(&row.engine));
        let rate = |d: Duration| GAMES as f64 / d.as_secs_f64();
        let per_decision = |d: Duration| d.as_secs_f64() * 1e9 / row.plies as f64;
        println!(
            "| {} | {:.0} | {:.0} | {:.0} | {:.1} % | {:.1} | {:.1} |",
            row.reading,
            row.plies as f64 / GAMES as f64,
            rate(k),
            rate(e),
            100.0 * k.as_secs_f64() / e.as_secs_f64(),
            per_decision(k),
            per_decision(e),
        );
    }
}
