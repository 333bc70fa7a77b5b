//! Um el-Bagara as Ludii 1.0.8 plays it (`um-el-bagara` / `ludii-1.0.8`), by hand.
//!
//! The reading: two rows of five houses, five counters each; seat 0 moves first; a house of
//! two or more may be sown, the two left houses of a row clockwise, the two right ones
//! anticlockwise, the middle one either way; sowing refills the emptied origin on laps; the
//! last counter takes an opponent's house it makes two or four, and the chain takes back
//! along the sowing while the houses are the opponent's and hold two or four; a player with
//! no house to sow makes a forced pass; the game ends right after the second of two
//! consecutive passes, each seat scoring its takings plus the counters left in its row (more
//! wins, equal is a draw); a game still going at turn 2500 is a draw at the turn cap
//! (Ludii's engine cap; the move cap, 10 000, is never reached first).
//!
//! The engine's layout is kept, so moves and houses compare one to one: houses `0..5` are
//! seat 0's from his left, `5..10` seat 1's from his left, anticlockwise is +1 round the
//! circuit. The tricks, and what each saves:
//!
//! - **Packed board.** The ten houses are 6-bit lanes of one `u64` (50 counters in all, so a
//!   lane never exceeds 50 and never carries into the next). The sowable houses of a seat
//!   are found for all five at once (a lane holds two or more when its bits 1–5 are not all
//!   zero: one add per board, [`sowable`]), with no branch per house.
//! - **Move list by table.** The legal moves of a seat depend only on which of its five
//!   houses are sowable: [`MOVES`] gives, for each of the 32 patterns, the number of moves
//!   and the moves themselves in the engine's list order (Ludii's: every clockwise sowing
//!   from the first player's left, then every anticlockwise one, `move_order: by-direction`),
//!   packed four bits a move, so the k-th move is a shift and a mask.
//! - **Table-driven sowing.** A sowing of `c` counters from a given house and direction adds
//!   a fixed pattern to the board (one counter per house per whole lap, one more to the
//!   first `c mod 10` houses): [`SOW`] holds that pattern as a packed word for every move
//!   and count, and [`LAST`] the house of the last counter, so a sowing of any length is a
//!   subtraction and an addition, with no loop over counters.
//! - **Turns are plies.** Seats alternate at every decision (there is no extra move in this
//!   reading), so the turn cap is a ply count.
//!
//! Only the capture chain loops (at most five houses, and most sowings take nothing).

use std::ops::Range;

use rand::rngs::ChaCha8Rng;

use super::{Game, Tally, draw, outcome};
use crate::games::{EndReason, Result_};

/// The game id.
pub const GAME: &str = "um-el-bagara";
/// The reading id.
pub const READING: &str = "ludii-1.0.8";
/// Houses round the circuit.
const HOUSES: usize = 10;
/// Houses in a row.
const ROW: usize = 5;
/// The turn cap (Ludii's 1 250 turns × 2 players); each decision is a turn.
const TURN_CAP: u32 = 2500;

/// A lane's bits 0–4 in every house.
const LOW5: u64 = lanes(31);
/// A lane's bit 5 in every house.
const HIGH: u64 = lanes(32);
/// Bit 5 of the lanes of one row (houses 0–4).
const ROW_HIGH: u64 = ((1 << 30) - 1) & HIGH;
/// Gathers bit 5 of lanes 0–4 into bits 30–34: lane j's bit (at 5 + 6j) is shifted by
/// 25 − 5j. The other products land at 30 + 6i − 5j, all distinct and outside 30–34 for
/// i ≠ j, so no carry reaches the result.
const GATHER: u64 = 1 << 25 | 1 << 20 | 1 << 15 | 1 << 10 | 1 << 5;

/// `v` in every lane.
const fn lanes(v: u64) -> u64 {
    let mut out = 0;
    let mut h = 0;
    while h < HOUSES {
        out |= v << (6 * h);
        h += 1;
    }
    out
}

/// The start: five counters in every house.
const START: u64 = lanes(5);

/// The moves, by global index: seat 0's six in list order, then seat 1's. Each is a house
/// and a direction (+1 anticlockwise, −1 clockwise). Seat 0: clockwise from houses a1, a2,
/// a3, then anticlockwise from a3, a4, a5. Seat 1's houses run from *his* left, the first
/// player's right, so across the board from the first player's left his clockwise sowings
/// are b3, b2, b1 and his anticlockwise ones b5, b4, b3.
const MOVE_HOUSE: [usize; 12] = [0, 1, 2, 2, 3, 4, 7, 6, 5, 9, 8, 7];
const MOVE_CCW: [bool; 12] = [
    false, false, false, true, true, true, false, false, false, true, true, true,
];

/// The house one step on from `h`.
const fn step(h: usize, ccw: bool) -> usize {
    if ccw {
        (h + 1) % HOUSES
    } else {
        (h + HOUSES - 1) % HOUSES
    }
}

/// `SOW[m][c]`: what a sowing of `c` counters by move `m` adds to the board (the origin's
/// own counters are subtracted apart). `LAST[m][c]`: where its last counter falls.
static SOW: [[u64; 64]; 12] = sow_table().0;
static LAST: [[u8; 64]; 12] = sow_table().1;

const fn sow_table() -> ([[u64; 64]; 12], [[u8; 64]; 12]) {
    let mut add = [[0u64; 64]; 12];
    let mut last = [[0u8; 64]; 12];
    let mut m = 0;
    while m < 12 {
        let mut c = 1;
        while c < 64 {
            // One counter into each following house, the origin included on later laps.
            let mut h = MOVE_HOUSE[m];
            let mut i = 0;
            let mut board = 0u64;
            while i < c {
                h = step(h, MOVE_CCW[m]);
                board += 1 << (6 * h);
                i += 1;
            }
            add[m][c] = board;
            last[m][c] = h as u8;
            c += 1;
        }
        m += 1;
    }
    (add, last)
}

/// `MOVES[seat][pattern]`: for the pattern of the seat's sowable houses (bit j: his house j
/// from his left), the number of legal moves (bits 0–3) and the global move indices in list
/// order, four bits each from bit 4.
static MOVES: [[u32; 32]; 2] = move_table();

const fn move_table() -> [[u32; 32]; 2] {
    let mut out = [[0u32; 32]; 2];
    let mut seat = 0;
    while seat < 2 {
        let mut pattern = 0;
        while pattern < 32 {
            let mut n = 0u32;
            let mut list = 0u32;
            let mut i = 0;
            while i < 6 {
                let m = 6 * seat + i;
                if pattern >> (MOVE_HOUSE[m] - ROW * seat) & 1 == 1 {
                    list |= (m as u32) << (4 * n);
                    n += 1;
                }
                i += 1;
            }
            out[seat][pattern] = n | list << 4;
            pattern += 1;
        }
        seat += 1;
    }
    out
}

/// Counters in house `h`.
#[inline(always)]
fn lane(board: u64, h: usize) -> u32 {
    (board >> (6 * h)) as u32 & 63
}

/// The pattern of `seat`'s houses holding two counters or more (bit j: his house j).
#[inline(always)]
fn sowable(board: u64, seat: usize) -> usize {
    // Bits 1–5 of each lane moved down to 0–4 (at most 25) plus 31 set bit 5 exactly when
    // they are not all zero, without carrying out of the lane.
    let two_plus = ((board >> 1) & LOW5).wrapping_add(LOW5) & HIGH;
    let row = (two_plus >> (30 * seat)) & ROW_HIGH;
    (row.wrapping_mul(GATHER) >> 30) as usize & 31
}

/// Plays one game from its generator.
#[inline]
pub fn playout(rng: &mut ChaCha8Rng) -> Game {
    let mut board = START;
    let mut store = [0u32; 2];
    let mut seat = 0usize;
    let mut plies = 0u32;
    let mut passes = 0u32;
    let mut run = 0u32;
    loop {
        let moves = MOVES[seat][sowable(board, seat)];
        let n = moves & 15;
        plies += 1;
        if n == 0 {
            // A forced pass is the one legal move: the engine still draws for it.
            draw(rng, 1);
            passes += 1;
            run += 1;
        } else {
            let k = draw(rng, n);
            run = 0;
            let m = (moves >> (4 + 4 * k)) as usize & 15;
            let origin = MOVE_HOUSE[m];
            let c = lane(board, origin) as usize;
            board = board - ((c as u64) << (6 * origin)) + SOW[m][c];
            let mut h = usize::from(LAST[m][c]);
            // The last counter, then the chain back along the sowing, take the opponent's
            // houses of two or four (the chain leaves his row before it could reach the
            // origin, which is the mover's).
            while h / ROW != seat {
                let count = lane(board, h);
                if 0b10100u64 >> count & 1 == 0 {
                    break;
                }
                store[seat] += count;
                board &= !(63 << (6 * h));
                h = step(h, !MOVE_CCW[m]);
            }
        }
        seat ^= 1;
        if run >= 2 {
            // Both passed: each seat adds the counters left in its row.
            let mut scores = store;
            for h in 0..HOUSES {
                scores[h / ROW] += lane(board, h);
            }
            let result = match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Result_::Win(1),
                std::cmp::Ordering::Less => Result_::Win(2),
                std::cmp::Ordering::Equal => Result_::Draw,
            };
            return Game {
                outcome: outcome(result, EndReason::Natural, scores),
                plies,
                turns: plies,
                passes,
            };
        }
        if plies >= TURN_CAP {
            return Game {
                outcome: outcome(Result_::Draw, EndReason::TurnCap, store),
                plies,
                turns: plies,
                passes,
            };
        }
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
