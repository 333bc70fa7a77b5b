//! The houses as bit masks, found without a branch per house (whether a house holds enough is
//! data no branch predictor learns): SWAR on `u64` words and, on x86-64, SSE2 compares, over
//! the counts, the daughters' marks and the owners; and the questions play asks of them
//! (which houses a seat may sow, whether anyone can move).
//!
//! Invariant: a house's count is below 0x8000 (the compares read 16-bit lanes as signed), and
//! the slots beyond the circuit hold nothing and have no owner, so the masks over all 16 or 32
//! slots are masks over the circuit.

use super::*;

// Masks of houses eight slots at a time, in a `u64` (SWAR): no branch per house, where a test
// per house mispredicts. Bytes are the slots of `owner` and `mark`, 16-bit lanes those of
// `board`.
const BYTES_1: u64 = 0x0101_0101_0101_0101;

const BYTES_7F: u64 = 0x7F7F_7F7F_7F7F_7F7F;

const BYTES_80: u64 = 0x8080_8080_8080_8080;

const LANES_1: u64 = 0x0001_0001_0001_0001;

const LANES_8000: u64 = 0x8000_8000_8000_8000;

/// Bit `i` set where byte `i` of `w` is 0. (`(w & 0x7F) + 0x7F` sets a byte's top bit if
/// its low bits are not all 0, and never carries out of the byte.)
#[inline]
fn zero_bytes(w: u64) -> u32 {
    let tops = !(((w & BYTES_7F) + BYTES_7F) | w) & BYTES_80;
    // Byte i (0 or 1) times 2^(7 - i) lands, for every i, in bit 56 + i; no other product
    // reaches bit 56, nor carries into it.
    ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Bit `i` set where 16-bit lane `i` of `w` is at least `min` (lanes below 0x8000, as a
/// house's counters are): each lane, its top bit set, less `min` keeps the top bit exactly
/// then, and never borrows from the next lane.
#[inline]
fn lanes_at_least(w: u64, min: u16) -> u32 {
    let tops = ((w | LANES_8000) - u64::from(min) * LANES_1) & LANES_8000;
    // As in `zero_bytes`: lane i's bit times 2^(3 - i) lands in bit 48 + i.
    ((tops >> 15).wrapping_mul(0x0001_0002_0004_0008) >> 48) as u32
}

/// Bit `i` set where `houses[i]` is at least `min` (at least 1; counts below 0x8000, as a
/// house's are): two vector compares and one mask extraction on x86-64, whose SSE2 every
/// such processor has.
#[cfg(target_arch = "x86_64")]
#[inline]
fn at_least_16(houses: &[u16; 16], min: u16) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpgt_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
        _mm_set1_epi16,
    };
    // SAFETY: these intrinsics only need SSE2, which the x86-64 baseline includes: every
    // x86-64 processor has it, and the compiler enables it for every x86-64 target. The
    // loads read sixteen bytes inside `houses`, unaligned loads being allowed any address.
    unsafe {
        // One unaligned load of eight houses (in bounds: `k + 8 <= 16`).
        let lanes = |k: usize| _mm_loadu_si128(houses[k..k + 8].as_ptr().cast::<__m128i>());
        let floor = _mm_set1_epi16(min as i16 - 1);
        let lo = _mm_cmpgt_epi16(lanes(0), floor);
        let hi = _mm_cmpgt_epi16(lanes(8), floor);
        // Packing the all-ones or all-zeros lanes to bytes keeps them so; one bit per byte.
        _mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u32
    }
}

/// Bit `i` set where `houses[i]` is at least `min`: four houses to a word elsewhere.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn at_least_16(houses: &[u16; 16], min: u16) -> u32 {
    at_least_16_words(houses, min)
}

/// [`at_least_16`] four houses to a `u64` word, in any processor's integer registers.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn at_least_16_words(houses: &[u16; 16], min: u16) -> u32 {
    let mut mask = 0u32;
    for (k, four) in houses.chunks_exact(4).enumerate() {
        let w = four
            .iter()
            .rev()
            .fold(0u64, |w, &c| (w << 16) | u64::from(c));
        mask |= lanes_at_least(w, min) << (4 * k);
    }
    mask
}

/// [`lanes_at_least`] over the eight lanes of two words, `lo`'s then `hi`'s, with one
/// multiply: lane i's top bit goes to bit 16i (`lo`) or 16i + 4 (`hi`), and times
/// 2^(48 − 15i) each lands in bit 48 + i or 52 + i. Every other product of a lane bit and a
/// term of the multiplier lands above bit 63 or below bit 48, each in a bit of its own (at
/// 33 + i or 37 + i, 18 + i or 22 + i, 3 or 7), so nothing carries into the result.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn lanes8_at_least(lo: u64, hi: u64, min: u16) -> u32 {
    let sub = u64::from(min) * LANES_1;
    let tops = ((((lo | LANES_8000) - sub) & LANES_8000) >> 15)
        | ((((hi | LANES_8000) - sub) & LANES_8000) >> 11);
    let gather = (1u64 << 48) | (1 << 33) | (1 << 18) | (1 << 3);
    ((tops.wrapping_mul(gather) >> 48) & 0xFF) as u32
}

/// Slots `8k..8k + 8` of a byte array, as a `u64`.
#[inline]
fn byte_word(a: &[u8; RING], k: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&a[8 * k..8 * k + 8]);
    u64::from_le_bytes(w)
}

/// Slots `4k..4k + 4` of the board, as a `u64`.
#[inline]
fn lane_word(b: &[u16; RING], k: usize) -> u64 {
    b[4 * k..4 * k + 4]
        .iter()
        .rev()
        .fold(0u64, |w, &c| (w << 16) | u64::from(c))
}

/// Of sixteen slots (`board` and `marks` alike), the ordinary houses (unmarked) that hold any
/// counter and those that hold at least `min`, as bit masks: on x86-64 one byte compare and
/// mask extraction for the marks, and [`at_least_16`] for the counts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn half_masks(board: &[u16; 16], marks: &[u8; 16], min: u16) -> (u32, u32) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmpgt_epi16, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_packs_epi16, _mm_set1_epi16, _mm_setzero_si128,
    };
    // SAFETY: SSE2 only (the x86-64 baseline, as in `at_least_16`); the unaligned loads read
    // the sixteen bytes of `marks` and the 32 of `board`, which the references make valid
    // to read.
    unsafe {
        let ordinary = _mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_loadu_si128(marks.as_ptr().cast()),
            _mm_setzero_si128(),
        )) as u32;
        let lo = _mm_loadu_si128(board.as_ptr().cast::<__m128i>());
        let hi = _mm_loadu_si128(board.as_ptr().add(8).cast::<__m128i>());
        // As `at_least_16`, on the two loaded halves: counts are below 0x8000, so a signed
        // compare with `min - 1` is `>= min`.
        let at_least = |min: u16| {
            let floor = _mm_set1_epi16(min as i16 - 1);
            _mm_movemask_epi8(_mm_packs_epi16(
                _mm_cmpgt_epi16(lo, floor),
                _mm_cmpgt_epi16(hi, floor),
            )) as u32
        };
        let any = at_least(1);
        let held = if min == 1 { any } else { at_least(min) };
        debug_assert_eq!(
            (any, held),
            (at_least_16(board, 1), at_least_16(board, min))
        );
        (ordinary & any, ordinary & held)
    }
}

/// [`half_masks`] eight slots to a word elsewhere, with one multiply for each eight houses'
/// counts ([`lanes8_at_least`]).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn half_masks(board: &[u16; 16], marks: &[u8; 16], min: u16) -> (u32, u32) {
    let word = |k: usize| {
        board[4 * k..4 * k + 4]
            .iter()
            .rev()
            .fold(0u64, |w, &c| (w << 16) | u64::from(c))
    };
    let (mut occupied, mut enough) = (0u32, 0u32);
    for k in 0..2 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&marks[8 * k..8 * k + 8]);
        let ordinary = zero_bytes(u64::from_le_bytes(w));
        let (lo, hi) = (word(2 * k), word(2 * k + 1));
        let any = lanes8_at_least(lo, hi, 1);
        let held = if min == 1 {
            any
        } else {
            lanes8_at_least(lo, hi, min)
        };
        occupied |= (ordinary & any) << (8 * k);
        enough |= (ordinary & held) << (8 * k);
    }
    (occupied, enough)
}

impl Sowing {
    #[inline]
    pub(super) fn can_move(&self, pos: &Pos, seat: usize) -> bool {
        let min = u16::from(self.p.min_sow);
        if self.dynamic {
            return self.sowable(pos, seat) != 0;
        }
        self.held(&pos.board, min) & self.cand_mask[seat] != 0
    }

    /// Whether neither seat can sow.
    #[inline]
    pub(super) fn no_moves(&self, pos: &Pos) -> bool {
        if self.dynamic {
            return !self.can_move(pos, 0) && !self.can_move(pos, 1);
        }
        let min = u16::from(self.p.min_sow);
        self.held(&pos.board, min) & (self.cand_mask[0] | self.cand_mask[1]) == 0
    }

    /// The houses that hold at least `min`, as a bit mask: four houses to a word, the words
    /// that cover the circuit only (slots beyond it hold nothing).
    #[inline]
    pub(super) fn held(&self, board: &[u16; RING], min: u16) -> u32 {
        let (halves, _) = board.as_chunks::<{ RING / 2 }>();
        let mut mask = at_least_16(&halves[0], min);
        if self.r > RING / 2 {
            mask |= at_least_16(&halves[1], min) << (RING / 2);
        }
        mask
    }

    /// The houses `seat` may sow (dynamic games), as a bit mask of circuit indices: he owns
    /// them, they are no daughters, they hold enough, and under `sow_from: own-row` they lie
    /// in his row. Computed for all 32 slots at once, branch-free (slots beyond the circuit
    /// have no owner), instead of a test and a branch per house.
    #[inline]
    pub(super) fn sowable(&self, pos: &Pos, seat: usize) -> u32 {
        let mask = self.houses(pos, Some(seat), u16::from(self.p.min_sow));
        if self.p.sow_from == SowFrom::Owns {
            mask
        } else {
            mask & self.row_mask(seat)
        }
    }

    /// The houses that are no daughters, hold at least `min` and, if `owner` is given, are
    /// his, as a bit mask. Over the first 16 slots when the circuit fits in them, else over
    /// all 32 (slots beyond the circuit hold nothing and have no owner).
    #[inline]
    pub(super) fn houses(&self, pos: &Pos, owner: Option<usize>, min: u16) -> u32 {
        if !self.dynamic {
            // Static games mark no house and each seat owns his row (`restart`).
            debug_assert!(pos.mark == [0; RING] && pos.owner == self.row);
            let held = self.held(&pos.board, min);
            return owner.map_or(held, |seat| held & self.row_mask(seat));
        }
        let chunks = if self.r <= RING / 2 { 2 } else { 4 };
        let mut mask = 0u32;
        for k in 0..chunks {
            let mut bytes = zero_bytes(byte_word(&pos.mark, k));
            if let Some(o) = owner {
                bytes &= zero_bytes(byte_word(&pos.owner, k) ^ (o as u64 * BYTES_1));
            }
            let lanes = lanes_at_least(lane_word(&pos.board, 2 * k), min)
                | lanes_at_least(lane_word(&pos.board, 2 * k + 1), min) << 4;
            mask |= (bytes & lanes) << (8 * k);
        }
        mask
    }

    /// A dynamic game's house masks, found together in one pass over the board (the marks
    /// and counters read once, where [`Sowing::houses`] for each question reads them again):
    /// the ordinary houses that hold any counter, and the houses each seat may sow
    /// ([`Sowing::sowable`]), given the houses each owns.
    #[inline(always)]
    pub(super) fn dynamic_masks(&self, pos: &Pos, owned: [u32; 2]) -> (u32, [u32; 2]) {
        let min = u16::from(self.p.min_sow);
        let (board, _) = pos.board.as_chunks::<{ RING / 2 }>();
        let (marks, _) = pos.mark.as_chunks::<{ RING / 2 }>();
        let (mut occupied, mut enough) = half_masks(&board[0], &marks[0], min);
        if self.r > RING / 2 {
            let (o, e) = half_masks(&board[1], &marks[1], min);
            occupied |= o << (RING / 2);
            enough |= e << (RING / 2);
        }
        let sowable = [
            enough & owned[0] & self.sow_rows[0],
            enough & owned[1] & self.sow_rows[1],
        ];
        (occupied, sowable)
    }

    /// The houses each seat owns, as bit masks.
    #[inline]
    pub(super) fn owner_masks(&self, pos: &Pos) -> [u32; 2] {
        let mut owned = [0u32; 2];
        for k in 0..RING / 8 {
            let w = byte_word(&pos.owner, k);
            owned[0] |= zero_bytes(w) << (8 * k);
            owned[1] |= zero_bytes(w ^ BYTES_1) << (8 * k);
        }
        owned
    }

    /// The houses of `seat`'s row, as a bit mask.
    #[inline]
    pub(super) fn row_mask(&self, seat: usize) -> u32 {
        self.row_masks[seat]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The vector and the word forms of the held-house mask agree with a plain compare.
        #[test]
        fn held_masks_agree(
            houses in prop::array::uniform16(prop_oneof![0u16..8, 0u16..0x8000]),
            min in prop_oneof![1u16..8, 1u16..0x8000],
        ) {
            let plain = houses
                .iter()
                .enumerate()
                .fold(0u32, |m, (i, &c)| m | u32::from(c >= min) << i);
            prop_assert_eq!(at_least_16(&houses, min), plain);
            prop_assert_eq!(at_least_16_words(&houses, min), plain);
        }
    }
}
