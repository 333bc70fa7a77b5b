//! The bit-board geometry: the steps of all pieces in one direction as one shift and a mask,
//! whether a seat can step or has a target, jumps, and the walls (a barrier between the two
//! sides, and whether a seat can keep it).
//!
//! Invariant: bit `BITS − 1` of a board word is never a cell, so it serves as the "off the
//! board" bit; cells beyond the board are never set.

use super::*;

impl Custodial {
    #[inline]
    pub(super) fn shift(&self, bits: u128, d: usize) -> u128 {
        match d {
            0 => (bits << self.n) & self.full,
            1 => (bits << 1) & self.not_left,
            2 => bits >> self.n,
            _ => (bits >> 1) & self.not_right,
        }
    }

    #[inline]
    pub(super) fn empty(&self, s: &CustodialState) -> u128 {
        self.full & !(s.pieces[0] | s.pieces[1])
    }

    /// Whether `seat`'s placing decision is a pair (`placing: pair`, two pieces in hand, none
    /// placed yet this turn, and two cells to place on; a side has at most half the cells
    /// but the middle, so there always are).
    #[inline]
    pub(super) fn pairs(&self, s: &CustodialState, seat: usize, cells: usize) -> bool {
        self.p.placing == Placing::Pair && s.hand[seat] >= 2 && s.placed == 0 && cells >= 2
    }

    /// Whether a seat has a move: a piece with an empty neighbour, or, under `step: jump`,
    /// a piece next to a piece with an empty cell beyond.
    #[inline]
    pub(super) fn can_step(&self, pieces: &[u128; 2], seat: usize) -> bool {
        if self.p.step != Step::Jump {
            return if self.narrow {
                self.has_target::<u64>(pieces, seat)
            } else {
                self.has_target::<u128>(pieces, seat)
            };
        }
        let empty = self.full & !(pieces[0] | pieces[1]);
        (0..4).any(|d| self.shift(pieces[seat], d) & empty != 0)
            || (0..4).any(|d| self.jumps(pieces, seat, d) != 0)
    }

    /// The steps (and, under `step: jump`, the jumps) `seat`'s pieces on the board could
    /// make: each piece's empty neighbours, counted per direction.
    pub(super) fn mobility(&self, s: &CustodialState, seat: usize) -> u32 {
        // Without jumps the count is the four step targets' sizes, which the narrow board
        // works out in one 64-bit word each rather than by 128-bit shifts (the search's
        // leaves call this for both seats: the evaluation was a quarter of Seega's search).
        if self.p.step != Step::Jump {
            return if self.narrow {
                self.step_count::<u64>(&s.pieces, seat)
            } else {
                self.step_count::<u128>(&s.pieces, seat)
            };
        }
        let empty = self.empty(s);
        (0..4)
            .map(|d| {
                let steps = (self.shift(s.pieces[seat], d) & empty).count_ones();
                let jumps = if self.p.step == Step::Jump {
                    self.jumps(&s.pieces, seat, d).count_ones()
                } else {
                    0
                };
                steps + jumps
            })
            .sum()
    }

    /// The one-cell steps `seat`'s pieces could make: the four step targets' sizes.
    #[inline(always)]
    fn step_count<B: Bits>(&self, pieces: &[u128; 2], seat: usize) -> u32 {
        let own = B::of(pieces[seat]);
        let empty = B::of(self.full) & !(own | B::of(pieces[1 - seat]));
        let [a, b, c, d] = self.targets(own, empty);
        a.ones() + b.ones() + c.ones() + d.ones()
    }

    /// Whether a piece of `seat` has an empty neighbour: the four step targets at once.
    #[inline(always)]
    fn has_target<B: Bits>(&self, pieces: &[u128; 2], seat: usize) -> bool {
        let own = B::of(pieces[seat]);
        let empty = B::of(self.full) & !(own | B::of(pieces[1 - seat]));
        let [a, b, c, d] = self.targets(own, empty);
        (a | b | c | d) != B::ZERO
    }

    /// The landing cells of `seat`'s jumps in direction `d`: over an adjacent piece of either
    /// side to the empty cell beyond it.
    #[inline]
    fn jumps(&self, pieces: &[u128; 2], seat: usize, d: usize) -> u128 {
        let occupied = pieces[0] | pieces[1];
        self.shift(self.shift(pieces[seat], d) & occupied, d) & self.full & !occupied
    }

    /// Whether the two sides are walled off from each other (`stall: barrier`): no empty cell
    /// is reached by both, a side reaching every empty cell joined to one of its pieces
    /// through empty cells and its own pieces (and by jumps, under `step: jump`). The reach
    /// of a side counts its own pieces as passable because they may move away: the test
    /// errs towards "not walled off", never the other way.
    fn walled_off(&self, pieces: &[u128; 2]) -> bool {
        let occupied = pieces[0] | pieces[1];
        let empty = self.full & !occupied;
        let reach = |seat: usize| {
            let open = pieces[seat] | empty;
            let mut r = pieces[seat];
            loop {
                let mut grown = r;
                for d in 0..4 {
                    grown |= self.shift(r, d) & open;
                    if self.p.step == Step::Jump {
                        grown |= self.shift(self.shift(r, d) & occupied, d) & empty;
                    }
                }
                if grown == r {
                    return r & empty;
                }
                r = grown;
            }
        };
        reach(0) & reach(1) == 0
    }

    /// The barrier of `stall: barrier`: the sides are walled off, and neither is made to open
    /// its wall: each has no move at all, or a move after which they are still walled off
    /// (so a side whose every move opens the wall, as a first mover who must step into the
    /// middle from beside an enemy, plays on). No move eats while the sides are walled off:
    /// a landing next to an enemy would be reached by both.
    #[inline]
    pub(super) fn barrier(&self, pieces: &[u128; 2]) -> bool {
        self.walled_off(pieces) && (0..2).all(|seat| self.can_keep_wall(pieces, seat))
    }

    /// Whether `seat` has no move, or a move that keeps the sides walled off.
    fn can_keep_wall(&self, pieces: &[u128; 2], seat: usize) -> bool {
        let occupied = pieces[0] | pieces[1];
        let mut moves = false;
        for from in bit_indices(pieces[seat]) {
            let keeps = |to: u8| {
                let mut after = *pieces;
                after[seat] ^= (1 << from) | (1 << to);
                self.walled_off(&after)
            };
            for d in 0..4 {
                let mut c = self.nbr[from][d];
                while c != NONE && occupied >> c & 1 == 0 {
                    moves = true;
                    if keeps(c) {
                        return true;
                    }
                    if self.p.step != Step::Rook {
                        break;
                    }
                    c = self.nbr[usize::from(c)][d];
                }
                let (over, to) = (self.nbr[from][d], self.far[from & (SLOTS - 1)][d]);
                if self.p.step == Step::Jump
                    && over != NONE
                    && occupied >> over & 1 == 1
                    && to != 127
                    && occupied >> to & 1 == 0
                {
                    moves = true;
                    if keeps(to) {
                        return true;
                    }
                }
            }
        }
        !moves
    }

    /// The board side as a shift of a whole bit board by a row: masked to below 64, which it
    /// is, so that a 128-bit shift needs no test of whether it crosses the middle word.
    #[inline(always)]
    pub(super) fn shift_n(&self) -> usize {
        self.n & 63
    }

    /// The targets of one-cell steps of `own` into `empty`, north, east, south, west.
    #[inline(always)]
    pub(super) fn targets<B: Bits>(&self, own: B, empty: B) -> [B; 4] {
        let n = self.shift_n();
        [
            (own << n) & empty,
            (own << 1) & B::of(self.not_left) & empty,
            (own >> n) & empty,
            (own >> 1) & B::of(self.not_right) & empty,
        ]
    }
}

#[cfg(test)]
mod tests {
    //! The step counts of the evaluation against the whole-board shifts they replace.

    use super::*;
    use crate::games::{NoEvents, Rules, Status};

    /// Davies' Seega (placing two a turn, one-cell steps, a blocked player passes) on a board
    /// of `size` cells a side with `pieces` each, stepping by `step`.
    fn engine(size: u8, pieces: u8, step: Step) -> Custodial {
        Custodial::new(&CustodialParams {
            size,
            pieces,
            per_turn: 2,
            starter: Starter::Lot,
            first_mover: FirstMover::FirstPlacer,
            first_blocked: FirstBlocked::AsBlocked,
            step,
            sandwich: Sandwich::Safe,
            capture_line: CaptureLine::Single,
            compulsory_capture: false,
            continuation: Continuation::None,
            placement_capture: false,
            centre_safe: false,
            blocked: Blocked::Pass,
            stall: Stall::None,
            stall_plies: 0,
            stall_result: StallResult::Draw,
            voluntary_pass: false,
            cap: None,
            all_pass_draw: false,
            ludii_loose_continuation: false,
            placing: Placing::Each,
        })
        .unwrap()
    }

    /// The steps counted one direction at a time by the 128-bit shifts, as `mobility` counts
    /// them under `step: jump`.
    fn by_shifts(r: &Custodial, s: &CustodialState, seat: usize) -> u32 {
        let empty = r.empty(s);
        (0..4)
            .map(|d| (r.shift(s.pieces[seat], d) & empty).count_ones())
            .sum()
    }

    /// Along seeded games on the narrow board (5 and 7 cells a side) and the wide one (9), at
    /// every position, for both seats: the step count is the shifts' count.
    #[test]
    fn the_step_count_is_the_shifts_count_on_narrow_and_wide_boards() {
        for (size, pieces, step, narrow) in [
            (5, 12, Step::One, true),
            (7, 24, Step::One, true),
            (9, 40, Step::One, false),
            (5, 12, Step::Rook, true),
            (9, 40, Step::Rook, false),
        ] {
            let r = engine(size, pieces, step);
            assert_eq!(r.narrow, narrow, "{size}: narrow");
            let mut compared = 0;
            for game in 0..4u64 {
                let mut s = r.initial();
                let mut legal = Vec::new();
                let mut pick = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for _ in 0..400 {
                    for seat in 0..2 {
                        assert_eq!(
                            r.mobility(&s, seat),
                            by_shifts(&r, &s, seat),
                            "{size} {step:?}: {}",
                            r.state_text(&s)
                        );
                        compared += 1;
                    }
                    match r.status(&s) {
                        Status::Over => break,
                        Status::Chance => {
                            let k = r.chance_outcomes(&s).iter().position(|&w| w > 0).unwrap();
                            r.apply_chance(&mut s, k, &mut NoEvents);
                        }
                        Status::ToMove(_) => {
                            r.legal_moves(&s, &mut legal);
                            pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                            let mv = legal[(pick >> 33) as usize % legal.len()];
                            r.apply(&mut s, mv, &mut NoEvents);
                        }
                    }
                }
            }
            assert!(compared > 400, "{size} {step:?}: {compared} positions");
        }
    }
}
