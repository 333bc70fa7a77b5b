//! The legal moves and random play's choice: the steps of a seat (all of them, or those of
//! the piece that must move again), the opening a blocked opponent may require, and the
//! `k`-th move found from the step-target masks without listing them.
//!
//! Invariant: the move random play chooses is exactly `legal_moves(state)[pick(n)]`.

use super::*;

impl Custodial {
    /// The `k`-th legal move of a placement or of a plain normal decision, found by counting.
    #[inline(always)]
    pub(super) fn choose_fast<B: Bits>(
        &self,
        s: &CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
    ) -> (CustodialMove, usize) {
        let empty = B::of(self.empty(s));
        if s.hand[seat] > 0 {
            let cells = empty & B::of(self.placeable);
            let n = cells.ones() as usize;
            if self.pairs(s, seat, n) {
                // The k-th pair in the list's order: by lower cell, then higher.
                let total = n * (n - 1) / 2;
                let mut k = pick(total);
                let mut i = 0;
                while k >= n - 1 - i {
                    k -= n - 1 - i;
                    i += 1;
                }
                let a = nth_cell(cells, i as u32);
                let b = nth_cell(cells, (i + 1 + k) as u32);
                return (CustodialMove::PlacePair(a, b), total);
            }
            let k = pick(n) as u32;
            return (CustodialMove::Place(nth_cell(cells, k)), n);
        }
        let t = self.targets(B::of(s.pieces[seat]), empty);
        let counts = t.map(Bits::ones);
        let total = counts.iter().sum::<u32>() as usize;
        if total == 0 {
            let _ = pick(1);
            return (CustodialMove::Pass, 1);
        }
        let mut k = pick(total) as u32;
        let n = self.n as u8;
        for d in 0..4 {
            if k < counts[d] {
                let to = nth_cell(t[d], k);
                let from = to.wrapping_add([n.wrapping_neg(), u8::MAX, n, 1][d]);
                return (CustodialMove::Step { from, to }, total);
            }
            k -= counts[d];
        }
        unreachable!("k is below the total")
    }

    /// Every step of `seat`'s pieces (or of the one piece on `only`), by direction then cell
    /// (under `step: jump`, the one-cell steps, then the jumps by direction then cell).
    pub(super) fn steps(
        &self,
        s: &CustodialState,
        seat: usize,
        only: u128,
        out: &mut Vec<CustodialMove>,
    ) {
        let own = s.pieces[seat] & only;
        let empty = self.empty(s);
        match self.p.step {
            Step::One | Step::Jump => {
                // One shift per direction; the piece that steps is the target minus the
                // direction's offset.
                let n = self.n as u8;
                let mut push = |targets: u128, from: fn(u8, u8) -> u8| {
                    let mut bits = targets;
                    while bits != 0 {
                        let to = bits.trailing_zeros() as u8;
                        bits &= bits - 1;
                        out.push(CustodialMove::Step {
                            from: from(to, n),
                            to,
                        });
                    }
                };
                push((own << self.n) & empty, |to, n| to - n);
                push((own << 1) & self.not_left & empty, |to, _| to - 1);
                push((own >> self.n) & empty, |to, n| to + n);
                push((own >> 1) & self.not_right & empty, |to, _| to + 1);
                if self.p.step == Step::Jump {
                    // Jumps, after every one-cell step: over a piece of either side to
                    // the empty cell beyond; the jumper stands two cells back.
                    let occupied = s.pieces[0] | s.pieces[1];
                    for d in 0..4 {
                        let mut bits = self.shift(self.shift(own, d) & occupied, d) & empty;
                        while bits != 0 {
                            let to = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let back = self.nbr[to][(d + 2) % 4];
                            out.push(CustodialMove::Step {
                                from: self.nbr[usize::from(back)][(d + 2) % 4],
                                to: to as u8,
                            });
                        }
                    }
                }
            }
            Step::Rook => {
                for from in bit_indices(own) {
                    for d in 0..4 {
                        let mut c = self.nbr[from][d];
                        while c != NONE && empty >> c & 1 == 1 {
                            out.push(CustodialMove::Step {
                                from: from as u8,
                                to: c,
                            });
                            c = self.nbr[usize::from(c)][d];
                        }
                    }
                }
            }
        }
    }

    /// The moves of a normal movement decision, before the opening rule.
    #[inline]
    pub(super) fn movement_moves(
        &self,
        s: &CustodialState,
        seat: usize,
        out: &mut Vec<CustodialMove>,
    ) {
        self.steps(s, seat, u128::MAX, out);
        if self.p.compulsory_capture {
            let capturing = |mv: &CustodialMove| match *mv {
                CustodialMove::Step { from, to } => self.eats_by(&s.pieces, seat, from, to),
                _ => false,
            };
            if out.iter().any(capturing) {
                out.retain(capturing);
            }
        }
    }

    /// Whether a move of `seat` gives the blocked opponent a step.
    #[inline]
    pub(super) fn opens(&self, s: &CustodialState, seat: usize, mv: CustodialMove) -> bool {
        match mv {
            CustodialMove::Step { from, to } => {
                self.can_step(&self.after_step(s, seat, from, to), 1 - seat)
            }
            _ => false,
        }
    }

    /// The decision after a capture under `step: one` and single captures: the capturing
    /// piece's steps to empty neighbours on which it encloses an enemy (any enemy under the
    /// loose test, an edible one otherwise), listed north, east, south, west as `steps` lists
    /// them; a pass when there is none.
    #[inline(always)]
    pub(super) fn choose_continuation<B: Bits>(
        &self,
        s: &CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
    ) -> (CustodialMove, usize) {
        let from = s.cont;
        let own = B::of(s.pieces[seat]);
        let enemy = if self.loose {
            s.pieces[1 - seat]
        } else {
            self.edible(s.pieces[1 - seat])
        };
        let empty = B::of(self.full) & !(own | B::of(s.pieces[1 - seat]));
        // (`own` holds the piece itself, on `from`: never a far cell of its neighbours.)
        let ok = self.flank_set(own, B::of(enemy))
            & empty
            & B::of(self.nbrs[usize::from(from) & (SLOTS - 1)]);
        let n = ok.ones() as usize;
        if n == 0 {
            let _ = pick(1);
            return (CustodialMove::Pass, 1);
        }
        let mut k = pick(n);
        for &to in &self.nbr[usize::from(from)] {
            if to != NONE && ok.wide() >> to & 1 == 1 {
                if k == 0 {
                    return (CustodialMove::Step { from, to }, n);
                }
                k -= 1;
            }
        }
        unreachable!("k is below the count")
    }
}
