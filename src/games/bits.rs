//! The bit-set tricks the engines share, written once: the board-set abstraction over `u64`
//! and `u128` ([`Bits`]), the `k`-th set bit of a mask found without a data-dependent branch
//! (the move random play draws is the `k`-th of a mask of legal targets, and where it lies is
//! data no branch predictor learns), and a set's bits as indices.
//!
//! Every select here has the same contract: the set holds more than `k` bits, and the answer
//! is the index of its `k`-th set bit counting from the lowest (from 0). They differ only in
//! the width they are made for and in how they avoid the branch: [`nth_set_bit`] for a `u32`
//! of houses (two halvings, then a byte table), [`nth_cell`] for any [`Bits`] width (a
//! binary search on popcounts), and [`nth_bit_sparse`] and [`nth_bit_wide`] for the sparse
//! step-target masks of a board (peeling the lowest bits), which fall back on [`nth_cell`].
//! Each is inlined into its engine's hot loop: they are `#[inline]` or `#[inline(always)]`
//! because a call across modules could otherwise land in another codegen unit.

use std::hint::select_unpredictable;

/// A bit board type: `u64` for boards up to 8 × 8 (half the work of `u128` per operation),
/// `u128` beyond. The state always stores `u128`; the hot paths load it as `B` (a free
/// truncation on narrow boards) and store it back.
pub(crate) trait Bits:
    Copy
    + PartialEq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<usize, Output = Self>
    + std::ops::Shr<usize, Output = Self>
    + std::ops::Sub<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// Width in bits; bit `BITS − 1` is never a cell (the boards are odd-sided: at most 49
    /// cells in 64 bits, 121 in 128), so it serves as an always-empty "off the board" bit.
    const BITS: usize;
    fn of(wide: u128) -> Self;
    fn wide(self) -> u128;
    fn ones(self) -> u32;
    /// The board without its lowest set bit (0 stays 0).
    fn clear_lowest(self) -> Self;
    /// The lowest set bit alone (0 stays 0).
    fn lowest(self) -> Self;
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn of(wide: u128) -> Self {
                wide as $t
            }
            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
        }
    };
}
bits!(u64);
bits!(u128);

/// The bits below `n` (all of them for n ≥ 128).
#[inline]
pub(crate) fn below(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The indices of a bit set's bits, lowest first.
#[inline]
pub(crate) fn bit_indices(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The index of the `k`-th set bit of `m` (from 0, lowest first), `k < m.count_ones()`: two
/// halving steps with no branch on data (where the k-th candidate lies is data no branch
/// predictor learns), then a table for the byte it lies in. A mask of 16 bits or fewer (a
/// board of at most 16 houses: the branch goes one way for a whole run) needs only the
/// second.
#[inline]
pub(crate) fn nth_set_bit(m: u32, k: u32) -> usize {
    /// One halving: which half of the low `2 * width` bits holds the `k`-th set bit.
    #[inline(always)]
    fn halve((m, k, at): (u32, u32, u32), width: u32) -> (u32, u32, u32) {
        let low = (m & ((1 << width) - 1)).count_ones();
        let up = u32::from(k >= low);
        (m >> (width * up), k - low * up, at + width * up)
    }
    let mut mka = (m, k, 0);
    if m >> 16 != 0 {
        mka = halve(mka, 16);
    }
    let (m, k, at) = halve(mka, 8);
    at as usize + usize::from(NTH_IN_BYTE[(m & 0xFF) as usize][(k & 7) as usize])
}

/// `NTH_IN_BYTE[b][k]`: the index of the `k`-th set bit of the byte `b` (0 where it has
/// fewer than `k + 1`).
pub(crate) static NTH_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The `k`-th set bit of a step-target mask, alone: such masks are sparse, so the first four
/// set bits are peeled at once and one is picked (no data-dependent branch), or the next four
/// for a `k` from 4 to 7; a larger `k` (rare) takes the general search.
#[inline(always)]
pub(crate) fn nth_bit_sparse<B: Bits>(x: B, k: u32) -> B {
    if k >= 4 {
        if k >= 8 {
            return B::ONE << usize::from(nth_cell(x, k));
        }
        // Four more peeled (the larger boards' denser masks).
        let x4 = x
            .clear_lowest()
            .clear_lowest()
            .clear_lowest()
            .clear_lowest();
        let x5 = x4.clear_lowest();
        let x6 = x5.clear_lowest();
        let x7 = x6.clear_lowest();
        return pick4([k >= 5, k >= 6, k >= 7], [x4, x5, x6, x7]).lowest();
    }
    let x1 = x.clear_lowest();
    let x2 = x1.clear_lowest();
    let x3 = x2.clear_lowest();
    pick4([k >= 1, k >= 2, k >= 3], [x, x1, x2, x3]).lowest()
}

/// The `k`-th set bit of a 128-bit step-target mask, alone and as a cell: the word holding it
/// is chosen first, then the bit within it as on a 64-bit board (a 9 × 9 board's masks are
/// dense enough that `k` is often past the first four bits, and the general search costs
/// twice as much on 128 bits as on 64).
#[inline(always)]
pub(crate) fn nth_bit_wide(x: u128, k: u32) -> (u128, u8) {
    let lo = x as u64;
    let c = lo.count_ones();
    let high = k >= c;
    let word = select_unpredictable(high, (x >> 64) as u64, lo);
    let bit = nth_bit_sparse(word, k - select_unpredictable(high, c, 0));
    let cell = bit.trailing_zeros() as u8 + select_unpredictable(high, 64, 0);
    let wide = select_unpredictable(high, u128::from(bit) << 64, u128::from(bit));
    (wide, cell)
}

/// The value of four chosen by thresholds passed in order (`ge[i]` implies `ge[i - 1]`): the
/// last whose threshold is passed, by conditional moves rather than a branch or an indexed
/// table (see [`std::hint::select_unpredictable`]).
#[inline(always)]
pub(crate) fn pick4<T>(ge: [bool; 3], v: [T; 4]) -> T {
    let [a, b, c, d] = v;
    let ab = select_unpredictable(ge[0], b, a);
    let abc = select_unpredictable(ge[1], c, ab);
    select_unpredictable(ge[2], d, abc)
}

/// The cell of the `k`-th set bit (from the lowest) of a board with more than `k` bits: a
/// binary search on the popcounts of halves, without a data-dependent branch (a loop over
/// the lower bits mispredicts its exit at every random pick).
#[inline(always)]
pub(crate) fn nth_cell<B: Bits>(bits: B, k: u32) -> u8 {
    let (mut x, mut k, mut pos) = (bits, k, 0usize);
    let mut width = B::BITS / 2;
    while width > 0 {
        let low = x & ((B::ONE << width) - B::ONE);
        let c = low.ones();
        let up = usize::from(k >= c);
        k -= c * up as u32;
        x = x >> (width * up);
        pos += width * up;
        width /= 2;
    }
    pos as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain answer: the `k`-th set bit of `m`, counted one by one.
    fn plain(m: u128, k: u32) -> usize {
        (0..128)
            .filter(|&i| m >> i & 1 == 1)
            .nth(k as usize)
            .unwrap()
    }

    proptest! {
        /// The k-th set bit, found by halving and a byte table, is the plain count's, on
        /// masks of 16 bits or fewer (one halving) as on wider ones.
        #[test]
        fn nth_set_bit_counts(m in prop_oneof![any::<u32>(), 1u32..0x1_0000], k in any::<u32>()) {
            prop_assume!(m != 0);
            let k = k % m.count_ones();
            let plain = plain(u128::from(m), k);
            prop_assert_eq!(nth_set_bit(m, k), plain);
        }

        /// The board selects agree with the plain count at both widths, on sparse masks (the
        /// peeled path) as on dense ones (the general search).
        #[test]
        fn board_selects_count(
            m in prop_oneof![any::<u128>(), (any::<u128>(), any::<u128>()).prop_map(|(a, b)| a & b & (a >> 7))],
            k in any::<u32>(),
        ) {
            prop_assume!(m != 0);
            let k = k % m.count_ones();
            let want = plain(m, k);
            prop_assert_eq!(usize::from(nth_cell(m, k)), want);
            prop_assert_eq!(nth_bit_wide(m, k), (1u128 << want, want as u8));
            let low = m as u64;
            if low != 0 {
                let k = k % low.count_ones();
                let want = plain(u128::from(low), k);
                prop_assert_eq!(usize::from(nth_cell(low, k)), want);
                prop_assert_eq!(nth_bit_sparse(low, k), 1u64 << want);
            }
        }

        /// A set's indices are its bits, lowest first.
        #[test]
        fn bit_indices_list_the_bits(m in any::<u128>()) {
            let want: Vec<usize> = (0..128).filter(|&i| m >> i & 1 == 1).collect();
            prop_assert_eq!(bit_indices(m).collect::<Vec<_>>(), want);
        }
    }
}
