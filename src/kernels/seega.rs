//! Seega 5×5 as Ludii 1.0.8 plays it (`seega` / `ludii-1.0.8`), by hand.
//!
//! The reading: twelve dogs each, placed two a turn (one decision a dog) on any empty cell
//! but the middle, seat 0 first; once all are placed seat 0 moves first. A move is a step to
//! an orthogonally adjacent empty cell; it eats every single enemy dog it encloses against a
//! friend, except one on the middle cell. After a capture Ludii's loose test (TRACES.md §6)
//! grants the mover another decision when some enemy not on the middle cell, around a cell
//! next to the landing cell (or the landing cell itself at the edge), stands between it and a
//! friend, or when the opponent has no step, both judged before the eaten dogs are removed;
//! in that decision only the dog that moved may step, and only to an empty neighbour next to
//! an enemy with a friend behind (the middle cell not excepted), else it is a forced pass. A
//! player with no step passes. The game ends when the seat to move next has lost its last dog
//! (the capturer first makes his extra decision, if granted), as a draw after two passes in a
//! row (Ludii's all-pass draw), or as a draw at Ludii's caps: turn 2500 or decision 10 000.
//!
//! The engine's cell numbering is kept (`5·row + col`, row 0 at the bottom), so moves compare
//! one to one. The tricks, and what each saves:
//!
//! - **Bit boards in a `u32`.** Each side's dogs are one word; the steps of all dogs in one
//!   direction are a shift and a mask; the four directions are listed north, east, south,
//!   west, each by ascending target cell, as the engine lists them.
//! - **The k-th move without a list.** The direction holding the k-th step comes from the
//!   prefix sums of the four popcounts (three compares, no branch), and its target from a
//!   branch-free select ([`nth_bit`]: popcounts of the low bytes pick the byte, a 256-entry
//!   table the bit in it). A random pick is data no branch predictor learns.
//! - **Captures by shifts.** "An enemy next to `to` with a friend behind" is, for all four
//!   directions at once, a few shifts and ANDs of the landing bit and the mover's board
//!   ([`enclosed`]), without a table, a bounds check or a branch per direction.
//! - **The placing is a count-down.** Nothing is eaten while placing, so the i-th placement
//!   always has 24 − i empty cells to choose from; the 24 placements are a straight loop.
//!
//! The game's state is a handful of registers: two words, two counts of dogs eaten, the seat,
//! the dog that must move again, and the clock.

use std::ops::Range;

use rand::rngs::ChaCha8Rng;

use super::{Game, Tally, draw, outcome};
use crate::games::bits::NTH_IN_BYTE;
use crate::games::{EndReason, Result_};

/// The game id.
pub const GAME: &str = "seega";
/// The reading id.
pub const READING: &str = "ludii-1.0.8";
/// The board side.
const SIZE: usize = 5;
/// Cells.
const CELLS: usize = SIZE * SIZE;
/// Every cell.
const FULL: u32 = (1 << CELLS) - 1;
/// The middle cell's bit.
const CENTRE: u32 = 1 << (CELLS / 2);
/// Cells not in the left column, and not in the right one (masks for east and west steps).
const NOT_LEFT: u32 = FULL & !column(0);
const NOT_RIGHT: u32 = FULL & !column(SIZE - 1);
/// Dogs each side places.
const DOGS: u32 = 12;
/// Ludii's caps: turns (1 250 × 2 players) and decisions.
const TURN_CAP: u32 = 2500;
const MOVE_CAP: u32 = 10_000;
/// No dog must move again.
const NONE: usize = 32;

const fn column(col: usize) -> u32 {
    let mut out = 0;
    let mut row = 0;
    while row < SIZE {
        out |= 1 << (row * SIZE + col);
        row += 1;
    }
    out
}

/// The neighbour of `cell` in direction `d` (north, east, south, west), or `None`.
const fn neighbour(cell: usize, d: usize) -> Option<usize> {
    let (row, col) = (cell / SIZE, cell % SIZE);
    match d {
        0 if row + 1 < SIZE => Some(cell + SIZE),
        1 if col + 1 < SIZE => Some(cell + 1),
        2 if row > 0 => Some(cell - SIZE),
        3 if col > 0 => Some(cell - 1),
        _ => None,
    }
}

/// `NEAR[cell][d]`: the bit of the neighbour in direction `d`, 0 off the board.
static NEAR: [[u32; 4]; CELLS] = rings().0;
/// `AHEAD[cell][d]`: the neighbour in direction `d`, or the cell itself at the edge (the
/// cells around which Ludii's loose test looks).
static AHEAD: [[u8; 4]; CELLS] = rings().1;

const fn rings() -> ([[u32; 4]; CELLS], [[u8; 4]; CELLS]) {
    let mut near = [[0u32; 4]; CELLS];
    let mut ahead = [[0u8; 4]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut d = 0;
        while d < 4 {
            ahead[c][d] = c as u8;
            if let Some(x) = neighbour(c, d) {
                near[c][d] = 1 << x;
                ahead[c][d] = x as u8;
            }
            d += 1;
        }
        c += 1;
    }
    (near, ahead)
}

/// Where the dog that steps stands, relative to its target, by direction (north, east,
/// south, west).
static BACK: [i8; 4] = [-(SIZE as i8), -1, SIZE as i8, 1];

/// The position of the `k`-th set bit (from the lowest) of `x`, which has more than `k`:
/// the popcounts of the low one, two and three bytes say which byte holds it (three compares,
/// no branch), and the engines' byte table ([`NTH_IN_BYTE`]) the bit within that byte.
#[inline(always)]
fn nth_bit(x: u32, k: u32) -> usize {
    let c1 = (x & 0xff).count_ones();
    let c2 = (x & 0xffff).count_ones();
    let c3 = (x & 0xff_ffff).count_ones();
    let byte = usize::from(k >= c1) + usize::from(k >= c2) + usize::from(k >= c3);
    let below = [0, c1, c2, c3][byte];
    let bits = (x >> (8 * byte)) as usize & 0xff;
    8 * byte + usize::from(NTH_IN_BYTE[bits][(k - below) as usize & 7])
}

/// The single enemy dogs a dog of `own` standing on `at` encloses (the middle one included),
/// by whole-board shifts: north of `at` an enemy is enclosed when it is also south of one of
/// `own`'s dogs (`own >> 5` marks the cells just south of them), and likewise in the other
/// three directions, the column masks keeping east and west within a row. Some twenty
/// register operations, no table load and no branch.
#[inline(always)]
fn enclosed(own: u32, enemy: u32, at: usize) -> u32 {
    let b = 1u32 << at;
    let north = (b << SIZE) & (own >> SIZE);
    let east = (b << 1) & NOT_LEFT & (own >> 1) & NOT_RIGHT;
    let south = (b >> SIZE) & (own << SIZE);
    let west = (b >> 1) & NOT_RIGHT & (own << 1) & NOT_LEFT;
    (north | east | south | west) & enemy
}

/// Whether `own` has a step into an empty cell.
#[inline(always)]
fn can_step(own: u32, empty: u32) -> bool {
    ((own << SIZE) | ((own << 1) & NOT_LEFT) | (own >> SIZE) | ((own >> 1) & NOT_RIGHT)) & empty
        != 0
}

/// Ludii 1.0.8's test for the move after a capture by the dog now on `at`, read before the
/// eaten dogs are removed: around some cell next to `at` (or `at` itself at the edge) an
/// enemy not on the middle cell is enclosed against a friend; or the opponent has no step.
#[cold]
fn loose_grant(own: u32, enemy: u32, at: usize) -> bool {
    let flank = AHEAD[at]
        .iter()
        .any(|&sq| enclosed(own, enemy & !CENTRE, usize::from(sq)) != 0);
    flank || !can_step(enemy, FULL & !(own | enemy))
}

/// Plays one game from its generator.
#[inline]
pub fn playout(rng: &mut ChaCha8Rng) -> Game {
    let mut pieces = [0u32; 2];
    // The placing: seat 0 places two, then seat 1 two, and so on; the i-th placement has
    // 24 − i cells to choose from (the board less the middle and the dogs placed).
    for i in 0..2 * DOGS {
        let free = FULL & !CENTRE & !(pieces[0] | pieces[1]);
        let k = draw(rng, 2 * DOGS - i);
        pieces[(i / 2 % 2) as usize] |= 1 << nth_bit(free, k);
    }
    let mut plies = 2 * DOGS;
    // Seat 1 placed last and seat 0 moves first: the first movement decision starts turn 13.
    let mut turns = DOGS + 1;
    let mut taken = [0u32; 2];
    let mut passes = 0u32;
    let mut run = 0u32;
    let mut seat = 0usize;
    let mut cont = NONE;
    loop {
        plies += 1;
        let own = pieces[seat];
        let enemy = pieces[1 - seat];
        let empty = FULL & !(own | enemy);
        // The step chosen (from, to, direction), or none: a forced pass.
        let chosen = if cont == NONE {
            let t = [
                (own << SIZE) & empty,
                (own << 1) & NOT_LEFT & empty,
                (own >> SIZE) & empty,
                (own >> 1) & NOT_RIGHT & empty,
            ];
            let c0 = t[0].count_ones();
            let c1 = c0 + t[1].count_ones();
            let c2 = c1 + t[2].count_ones();
            let total = c2 + t[3].count_ones();
            if total == 0 {
                None
            } else {
                let k = draw(rng, total);
                let d = usize::from(k >= c0) + usize::from(k >= c1) + usize::from(k >= c2);
                let to = nth_bit(t[d], k - [0, c0, c1, c2][d]);
                // The dog stands one cell back from its target.
                let from = to.wrapping_add_signed(isize::from(BACK[d]));
                Some((from, to))
            }
        } else {
            // The dog that ate, north, east, south, west: an empty neighbour next to an
            // enemy with a friend behind.
            let mut targets = [0usize; 4];
            let mut n = 0;
            for &near in &NEAR[cont] {
                if near & empty != 0 {
                    let to = near.trailing_zeros() as usize;
                    targets[n] = to;
                    n += usize::from(enclosed(own, enemy, to) != 0);
                }
            }
            if n == 0 {
                None
            } else {
                Some((cont, targets[draw(rng, n as u32) as usize]))
            }
        };
        let again = match chosen {
            None => {
                draw(rng, 1);
                passes += 1;
                run += 1;
                cont = NONE;
                false
            }
            Some((from, to)) => {
                run = 0;
                let moved = own ^ (1 << from) ^ (1 << to);
                pieces[seat] = moved;
                let eaten = enclosed(moved, enemy, to) & !CENTRE;
                if eaten == 0 {
                    cont = NONE;
                    false
                } else {
                    let grant = loose_grant(moved, enemy, to);
                    pieces[1 - seat] = enemy & !eaten;
                    taken[seat] += eaten.count_ones();
                    cont = if grant { to } else { NONE };
                    grant
                }
            }
        };
        let mover = seat;
        if !again {
            seat ^= 1;
        }
        // The end tests in Ludii's order. A mover never loses dogs on his own decision (no
        // sandwich suicide here), so only the opponent's loss is tested; it ends the game
        // once he is the one to move (after the capturer's extra decision, if granted).
        let end = if taken[mover] == DOGS && seat != mover {
            Some((Result_::Win(1 << mover), EndReason::Natural))
        } else if run >= 2 {
            Some((Result_::Draw, EndReason::AllPassDraw))
        } else if plies >= TURN_CAP {
            // Turns never outnumber plies, so below 2500 plies neither cap can fire: one
            // compare in the common case.
            if turns >= TURN_CAP {
                Some((Result_::Draw, EndReason::TurnCap))
            } else if plies >= MOVE_CAP {
                Some((Result_::Draw, EndReason::MoveCap))
            } else {
                None
            }
        } else {
            None
        };
        if let Some((result, end)) = end {
            return Game {
                outcome: outcome(result, end, taken),
                plies,
                turns,
                passes,
            };
        }
        // The next decision starts a turn when the seat changes.
        turns += u32::from(!again);
    }
}

/// Plays games `range` of the run (`seed`, `key`), calling `each(index, game)` in order.
pub fn play(seed: u64, key: u64, range: Range<u64>, each: impl FnMut(u64, Game)) {
    super::play_games(playout, seed, key, range, each);
}

/// Plays games `range` of the run (`seed`, `key`) and counts them.
pub fn tally(seed: u64, key: u64, range: Range<u64>) -> Tally {
    super::tally_games(playout, seed, key, range)
}
