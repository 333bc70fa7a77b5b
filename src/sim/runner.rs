//! A run: its games cut into blocks whose length depends only on the number of games
//! ([`block_len`]), played in parallel on the current rayon pool, taken from or handed to a
//! store block by block ([`Blocks`]), and folded into one [`Tally`] in game order.
//!
//! Invariant: the total is the same at any thread count and whoever played each block, since
//! blocks are folded in the order of their games and every aggregate is an integer sum.

use rayon::prelude::*;

use super::metrics::{GameObserver, MetricTally};
use super::playout::playout;
use super::record::{GameEnd, GameRecord};
use super::tally::{Counter, Coverage, MAX_KINDS, Tally};
use super::{GamesError, RunSpec, check_games};
use crate::agents::Lineup;
use crate::games::{Event, EventKind, Rules};
use crate::rng::run_rng;

/// The most games per block: the unit of parallel work and of progress reports.
pub const BLOCK: u64 = 256;

/// Blocks a run is cut into at least, where it has games enough: a run of a few hundred long
/// games (Um el Banât's run to thousands of plies) still gives every worker work to the end.
pub const MIN_BLOCKS: u64 = 64;

/// Games per block in a run of `games`: [`BLOCK`], or fewer so that the run makes at least
/// [`MIN_BLOCKS`] blocks. It depends on nothing but the number of games.
pub fn block_len(games: u64) -> u64 {
    games.div_ceil(MIN_BLOCKS).clamp(1, BLOCK)
}

/// Runs `spec.games` random games, in parallel on the current rayon pool: [`run_games`] of
/// them all at random.
///
/// # Errors
/// [`GamesError`] if `spec.games` exceeds [`MAX_GAMES`] (the command line refuses it first,
/// by the same [`check_games`]).
pub fn run<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    coverage: &Coverage,
    progress: &(dyn Fn(u64) + Sync),
    records: &mut dyn FnMut(&[GameRecord]),
) -> Result<Tally, GamesError> {
    run_games(
        rules,
        spec,
        &Lineup::random(),
        coverage,
        0..spec.games,
        progress,
        records,
    )
}

/// Plays games `games` of a run (of `spec.games`, the lineup's agents at the seats), in
/// parallel on the current rayon pool, calling
/// `progress(games_done_in_block)` as blocks finish and, when `spec.keep_records` is set,
/// `records(block)` with each block's records in game order: [`run_blocks`], every block
/// played.
///
/// # Errors
/// [`GamesError`] if `games` ends past [`MAX_GAMES`] (the command line refuses it first, by
/// the same [`check_games`]).
pub fn run_games<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    lineup: &Lineup,
    coverage: &Coverage,
    games: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
    records: &mut dyn FnMut(&[GameRecord]),
) -> Result<Tally, GamesError> {
    run_blocks(
        rules,
        spec,
        lineup,
        coverage,
        games,
        progress,
        &mut Blocks {
            records,
            ..Blocks::default()
        },
    )
}

/// The blocks games `games` of a run are played in, in order: consecutive ranges of
/// [`block_len`] games (the last one shorter). They depend on nothing but the range, which
/// is what lets a store, a plan's units and a shard name a block by its range.
pub fn block_ranges(games: std::ops::Range<u64>) -> impl Iterator<Item = std::ops::Range<u64>> {
    let count = games.end.saturating_sub(games.start);
    let len = block_len(count);
    (0..count.div_ceil(len))
        .map(move |b| games.start + b * len..(games.start + (b + 1) * len).min(games.end))
}

/// What a run does with each block besides playing it: where a block's tally may come from,
/// and who is told of each one played. The default plays every block and tells no one.
pub struct Blocks<'a> {
    /// Asked on the calling thread, in order, before a block is played: [`Block::Have`]
    /// gives its tally from elsewhere (a store; with `spec.keep_records`, its records
    /// included), [`Block::Skip`] leaves it out of the total (a unit of work computes only
    /// its own blocks; a store skips the blocks after one whose tally had holds their games
    /// as well, a row of consecutive blocks).
    /// `like` is an empty tally of the run, the shape a block's must have.
    pub source: &'a mut dyn FnMut(std::ops::Range<u64>, &Tally) -> Block,
    /// Called with each block played here (records included) as soon as it is played, on
    /// the worker that played it, in no fixed order: a store keeps it at once, so a run
    /// killed midway loses only the blocks in play.
    pub played: &'a (dyn Fn(std::ops::Range<u64>, &Tally) + Sync),
    /// Each block's records in game order (played or had), when `spec.keep_records` is set.
    pub records: &'a mut dyn FnMut(&[GameRecord]),
}

impl Default for Blocks<'_> {
    fn default() -> Self {
        // Leaked no-ops cost nothing: zero-sized closures.
        Blocks {
            source: Box::leak(Box::new(|_, _: &Tally| Block::Play)),
            played: &|_, _: &Tally| {},
            records: Box::leak(Box::new(|_: &[GameRecord]| {})),
        }
    }
}

/// Where one block's tally comes from.
#[derive(Debug)]
pub enum Block {
    /// Play it.
    Play,
    /// Take this tally (the block's, played before).
    Have(Box<Tally>),
    /// Leave it out.
    Skip,
}

/// Plays games `games` of a run (of `spec.games`, the lineup's agents at the seats) block
/// by block ([`block_ranges`]), in parallel on the current rayon pool, taking blocks from and
/// reporting them to `blocks`, and calling `progress(games)` as blocks finish or are had.
///
/// Blocks are played a window at a time (a few per worker) and folded into the total in
/// order as each window finishes, so memory does not grow with the number of games, and the
/// total is the same at any thread count (every aggregate is an integer sum, and blocks are
/// folded in the order of their games whoever played them). For the same reason games
/// `0..a` and `a..b` merged ([`Tally::merge`]) are games `0..b`.
///
/// # Errors
/// [`GamesError`] if `games` ends past [`MAX_GAMES`] (the command line refuses it first, by
/// the same [`check_games`]).
pub fn run_blocks<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    lineup: &Lineup,
    coverage: &Coverage,
    games: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
    blocks: &mut Blocks,
) -> Result<Tally, GamesError> {
    // Games `games` lie in a run of `games.end` games (an empty range at the start, in a run
    // of one): that run must be one the rule allows.
    check_games(games.end.max(1))?;
    let kinds = <<R::Event as Event>::Kind as EventKind>::COUNT;
    let ranges: Vec<std::ops::Range<u64>> = block_ranges(games).collect();
    // Enough blocks per worker that the wait for a window's slowest block costs little (a
    // worker idles while the others finish the window: about half a block each, so 1/32 of
    // the window's work); at most 128 in flight bound the memory (each block's length
    // histograms grow with its longest game).
    let window = 16 * rayon::current_num_threads().clamp(1, 8);
    let mut total = Tally::new(kinds, coverage.places.len(), rules.seats(), lineup);
    if spec.metrics {
        total.metrics = MetricTally::measured();
    }
    for chunk in ranges.chunks(window) {
        let mut like = Tally::new(kinds, coverage.places.len(), rules.seats(), lineup);
        if spec.metrics {
            // The run's shape says its blocks carry measures (`SavedTally::into_tally`).
            like.metrics = MetricTally::measured();
        }
        let sources: Vec<Block> = chunk
            .iter()
            .map(|r| (blocks.source)(r.clone(), &like))
            .collect();
        let played = blocks.played;
        let tallies: Vec<Option<Tally>> = chunk
            .par_iter()
            .zip(sources)
            .map(|(range, source)| {
                let t = match source {
                    Block::Skip => return None,
                    Block::Have(t) => *t,
                    Block::Play => {
                        let t = block_of(rules, spec, lineup, coverage, range.clone());
                        played(range.clone(), &t);
                        t
                    }
                };
                // A tally had may hold the games of the blocks after it too (a store's row),
                // which are then skipped: progress counts its games.
                progress(t.games);
                Some(t)
            })
            .collect();
        for mut t in tallies.into_iter().flatten() {
            (blocks.records)(&t.records);
            t.records = Vec::new();
            total.merge(t);
        }
    }
    Ok(total)
}

/// Plays games `range` of a random run on the calling thread (what [`run`] does per block;
/// also what a one-core benchmark measures).
pub fn block<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    coverage: &Coverage,
    range: std::ops::Range<u64>,
) -> Tally {
    block_of(rules, spec, &Lineup::random(), coverage, range)
}

/// [`block`] with `lineup`'s agents at the seats. A lineup of random agents only is played
/// by random play's own loop: the same games, faster.
pub fn block_of<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    lineup: &Lineup,
    coverage: &Coverage,
    range: std::ops::Range<u64>,
) -> Tally {
    let kinds = <<R::Event as Event>::Kind as EventKind>::COUNT;
    let mut tally = Tally::new(kinds, coverage.places.len(), rules.seats(), lineup);
    let random = lineup.is_random();
    let mut scratch = vec![0u64; coverage.places.len()];
    let covered: Vec<usize> = (0..kinds)
        .filter(|&k| !coverage.by_kind[k].is_empty())
        .collect();
    let mut state = rules.initial();
    let mut moves = Vec::with_capacity(64);
    let mut counts = [0u32; MAX_KINDS];
    // Per event kind, games in which it occurred and occurrences, in two plain arrays (the
    // tally's pairs are folded in at the end of the block): the per-game loop over every
    // kind then compiles to vector adds.
    let mut in_games = vec![0u64; kinds];
    let mut occurrences = vec![0u64; kinds];
    let mut squares = vec![0u64; kinds];
    let mut rng = run_rng(spec.seed, spec.key);
    let mut observer = spec
        .metrics
        .then(|| GameObserver::new(rules.seats(), rules.board_sites()));
    for index in range {
        // `counts` is all zero here: the end of each game clears what it used.
        let mut sink = Counter::new(&mut counts);
        rules.reset(&mut state, &mut sink);
        rng.set_stream(index);
        let played = playout(
            rules,
            &mut state,
            &mut moves,
            &mut rng,
            (spec.max_plies, spec.max_quiet),
            &mut sink,
            (!random || observer.is_some()).then_some((lineup, index)),
            observer.as_mut(),
        );
        let seen = sink.seen;
        tally.add(&played, &counts[..kinds], coverage, &covered, &mut scratch);
        tally.add_agents(&played, lineup, index);
        if matches!(played.end, GameEnd::Timeout(why) if why.by_run_limit()) {
            tally.censored_games.push(index);
        }
        if spec.keep_records {
            tally.records.push(GameRecord {
                index,
                end: played.end,
                plies: played.plies,
                turns: played.turns,
                passes: played.passes,
                first_mover: played.first,
                events: counts[..kinds].to_vec(),
                flags: scratch.clone(),
            });
        }
        let mut kinds_seen = seen;
        while kinds_seen != 0 {
            let k = kinds_seen.trailing_zeros() as usize;
            kinds_seen &= kinds_seen - 1;
            in_games[k] += 1;
            let c = u64::from(std::mem::take(&mut counts[k]));
            occurrences[k] += c;
            squares[k] += c * c;
        }
    }
    for ((e, g), o) in tally.events.iter_mut().zip(in_games).zip(occurrences) {
        e.0 += g;
        e.1 += o;
    }
    for (e, q) in tally.event_squares.iter_mut().zip(squares) {
        *e += q;
    }
    tally
}
