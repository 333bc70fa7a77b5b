//! The custodial captures: the pieces a piece on a cell encloses against a friend (by
//! per-cell tables, one AND a direction), the sandwich, the line captures, and the tests that
//! read them without capturing (whether a step would capture, Ludii 1.0.8's loose test for
//! the move after a capture, whether a piece stands between two enemies).

use super::*;

impl Custodial {
    /// The enemy pieces a piece of `seat` standing on `at` encloses, as a bit board; with
    /// `events`, reports each direction's line and the middle cell's safety.
    #[inline]
    pub(super) fn enclosed(
        &self,
        pieces: &[u128; 2],
        seat: usize,
        at: usize,
        events: Option<&mut dyn FnMut(CustodialEvent)>,
    ) -> u128 {
        let own = pieces[seat];
        let enemy = pieces[1 - seat];
        let mut out = 0u128;
        let mut report = events;
        for d in 0..4 {
            let mut c = self.nbr[at][d];
            let mut line = 0u128;
            while c != NONE && enemy >> c & 1 == 1 {
                line |= 1 << c;
                c = self.nbr[usize::from(c)][d];
                if self.p.capture_line == CaptureLine::Single {
                    break;
                }
            }
            if line == 0 || c == NONE || own >> c & 1 == 0 {
                continue;
            }
            let centre = 1u128 << self.centre;
            if line & centre != 0 {
                if let Some(f) = report.as_mut() {
                    f(if self.p.centre_safe {
                        CustodialEvent::CentreSafe
                    } else {
                        CustodialEvent::CentreTaken
                    });
                }
                if self.p.centre_safe {
                    line &= !centre;
                }
            }
            if line.count_ones() > 1
                && let Some(f) = report.as_mut()
            {
                f(CustodialEvent::LineCapture {
                    pieces: line.count_ones() as u8,
                });
            }
            out |= line;
        }
        out
    }

    /// The single enemy pieces among `enemy` that a piece on `at` encloses against `own`:
    /// each direction's neighbour (where the cell beyond is on the board) if it is an enemy
    /// and the shifted `own` has the far cell's piece on it; four shifts and ANDs, no branch.
    /// (`own` may or may not hold the piece's own cell and the cell a step came from: neither
    /// is ever a far cell of `at`.)
    #[inline(always)]
    fn enclosed_single<B: Bits>(&self, own: B, enemy: B, at: usize) -> B {
        let m = &self.capm[at & (SLOTS - 1)];
        let n = self.shift_n();
        enemy
            & (((own >> n) & B::of(m[0]))
                | ((own >> 1) & B::of(m[1]))
                | ((own << n) & B::of(m[2]))
                | ((own << 1) & B::of(m[3])))
    }

    /// Whether a piece on `at` encloses any single piece of `enemy` against `own`.
    #[inline(always)]
    pub(super) fn encloses_any<B: Bits>(&self, own: B, enemy: B, at: usize) -> bool {
        self.enclosed_single(own, enemy, at) != B::ZERO
    }

    /// Every cell on which a piece of `own` would enclose a single piece of `enemy` (an enemy
    /// next to it on a rank or file with a piece of `own` just beyond), for the whole board
    /// at once: an enemy with `own` behind it, shifted back one cell, per direction. Bits
    /// off the board may be set: callers AND with cells of the board. (A cell that `own`
    /// occupies is listed as if its piece were elsewhere; no caller asks about such a cell
    /// except as the piece that moves, which is never its own far cell.)
    #[inline(always)]
    pub(super) fn flank_set<B: Bits>(&self, own: B, enemy: B) -> B {
        let n = self.shift_n();
        let inner = B::of(self.inner);
        ((enemy & (own >> n)) >> n)
            | ((enemy & (own << n)) << n)
            | ((enemy & (own >> 1) & inner) >> 1)
            | ((enemy & (own << 1) & inner) << 1)
    }

    /// Eats the single enemy pieces a piece of `seat` on `at` encloses, reporting them; also
    /// whether Ludii 1.0.8's loose test grants another decision (read before the removal).
    #[inline(always)]
    pub(super) fn eat_single<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        at: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (u32, bool) {
        let enemy = B::of(s.pieces[1 - seat]);
        let hits = self.enclosed_single(B::of(s.pieces[seat]), enemy, at);
        if hits == B::ZERO {
            return (0, false);
        }
        let mut eaten = hits.wide();
        let centre = 1u128 << self.centre;
        if eaten & centre != 0 {
            if self.p.centre_safe {
                events.emit(CustodialEvent::CentreSafe);
                eaten &= !centre;
            } else {
                events.emit(CustodialEvent::CentreTaken);
            }
        }
        if eaten == 0 {
            return (0, false);
        }
        let grant = self.loose
            && (self.loose_flank::<B>(&s.pieces, seat, at) || !self.can_step(&s.pieces, 1 - seat));
        for c in bit_indices(eaten) {
            events.emit(CustodialEvent::Capture { cell: c as u8 });
        }
        s.pieces[1 - seat] &= !eaten;
        let n = eaten.count_ones();
        s.taken[seat] += n as u8;
        (n, grant)
    }

    /// Whether a piece of `seat` moving to `to` would eat (the cell it leaves never matters:
    /// it lies behind the piece, across empty cells).
    #[inline]
    pub(super) fn captures_at(&self, pieces: &[u128; 2], seat: usize, to: usize) -> bool {
        if self.narrow {
            self.captures_at_in::<u64>(pieces, seat, to)
        } else {
            self.captures_at_in::<u128>(pieces, seat, to)
        }
    }

    /// [`Custodial::captures_at`] on the bit board `B`.
    #[inline(always)]
    pub(super) fn captures_at_in<B: Bits>(
        &self,
        pieces: &[u128; 2],
        seat: usize,
        to: usize,
    ) -> bool {
        if self.p.capture_line == CaptureLine::Single {
            let enemy = self.edible(pieces[1 - seat]);
            return self.encloses_any::<B>(B::of(pieces[seat]), B::of(enemy), to);
        }
        self.enclosed(pieces, seat, to, None) != 0
    }

    /// The pieces of an enemy board that can be eaten (all but one on the middle cell, under
    /// `centre_safe`).
    #[inline(always)]
    pub(super) fn edible(&self, enemy: u128) -> u128 {
        // (The mask is `sandwich_cells`: the board less the middle cell under `centre_safe`.)
        enemy & self.sandwich_cells
    }

    /// Whether the piece of `seat` on `at` has a step that eats.
    pub(super) fn can_capture_from(&self, pieces: &[u128; 2], seat: usize, at: usize) -> bool {
        let empty = self.full & !(pieces[0] | pieces[1]);
        if self.p.step == Step::One && self.p.capture_line == CaptureLine::Single {
            // An empty neighbour on which the piece would enclose an edible enemy.
            let (own, enemy) = (pieces[seat], self.edible(pieces[1 - seat]));
            let nbrs = self.nbrs[at & (SLOTS - 1)] & empty;
            return if self.narrow {
                B64::of(nbrs) & self.flank_set(B64::of(own), B64::of(enemy)) != 0
            } else {
                nbrs & self.flank_set(own, enemy) != 0
            };
        }
        (0..4).any(|d| {
            let mut c = self.nbr[at][d];
            while c != NONE && empty >> c & 1 == 1 {
                if self.captures_at(pieces, seat, usize::from(c)) {
                    return true;
                }
                if self.p.step != Step::Rook {
                    break;
                }
                c = self.nbr[usize::from(c)][d];
            }
            // Under `step: jump`, over a neighbouring piece to the empty cell beyond.
            let (over, to) = (self.nbr[at][d], self.far[at & (SLOTS - 1)][d]);
            self.p.step == Step::Jump
                && over != NONE
                && to != 127
                && empty >> to & 1 == 1
                && (pieces[0] | pieces[1]) >> over & 1 == 1
                && self.eats_by(pieces, seat, at as u8, to)
        })
    }

    /// Whether a move of `seat` from `from` to `to` eats, judged with the piece moved: a
    /// jump's landing must not count the cell it left, two cells back, as a friend.
    #[inline]
    pub(super) fn eats_by(&self, pieces: &[u128; 2], seat: usize, from: u8, to: u8) -> bool {
        let mut after = *pieces;
        after[seat] ^= (1 << from) | (1 << to);
        self.captures_at(&after, seat, usize::from(to))
    }

    /// Ludii 1.0.8's same-turn test for a step to `to`: an enemy next to it, in some
    /// direction, with a friend behind (the middle cell not excepted).
    #[inline]
    pub(super) fn loose_target(&self, pieces: &[u128; 2], seat: usize, to: usize) -> bool {
        if self.narrow {
            self.encloses_any::<u64>(B64::of(pieces[seat]), B64::of(pieces[1 - seat]), to)
        } else {
            self.encloses_any::<u128>(pieces[seat], pieces[1 - seat], to)
        }
    }

    /// Ludii 1.0.8's F test ("FlankFromOrthogonalStep"), before the eaten pieces are removed:
    /// from any neighbour of `at` (or from `at` itself, standing in for a neighbour off the
    /// board), a piece would enclose an enemy not on the middle cell.
    #[inline(always)]
    fn loose_flank<B: Bits>(&self, pieces: &[u128; 2], seat: usize, at: usize) -> bool {
        let own = B::of(pieces[seat]);
        let enemy = B::of(pieces[1 - seat] & !(1u128 << self.centre));
        self.flank_set(own, enemy) & B::of(self.around[at & (SLOTS - 1)]) != B::ZERO
    }

    /// The pieces after a step (captures and suicide included), without events.
    #[inline]
    pub(super) fn after_step(
        &self,
        s: &CustodialState,
        seat: usize,
        from: u8,
        to: u8,
    ) -> [u128; 2] {
        let mut pieces = s.pieces;
        pieces[seat] ^= (1 << from) | (1 << to);
        let eaten = self.enclosed(&pieces, seat, usize::from(to), None);
        pieces[1 - seat] &= !eaten;
        if self.p.sandwich == Sandwich::Suicide
            && self.flanked::<u128>(&pieces, seat, usize::from(to))
        {
            pieces[seat] &= !(1 << to);
        }
        pieces
    }

    /// Whether the piece of `seat` on `at` stands between two enemies on a rank or file.
    #[inline(always)]
    pub(super) fn flanked<B: Bits>(&self, pieces: &[u128; 2], seat: usize, at: usize) -> bool {
        if self.p.centre_safe && at == self.centre {
            return false;
        }
        self.between::<B>(B::of(pieces[1 - seat]), at)
    }

    /// Every cell with enemies on both sides along a rank or file, as [`Custodial::between`]
    /// finds them, for the whole board (bits off the board may be set).
    #[inline(always)]
    pub(super) fn between_set<B: Bits>(&self, enemy: B) -> B {
        let n = self.shift_n();
        ((enemy << n) & (enemy >> n)) | ((enemy << 1) & (enemy >> 1) & B::of(self.inner))
    }

    /// Whether the cell `at`, which `enemy` does not hold, has enemies on both sides along a
    /// rank or file (see `pair`).
    #[inline(always)]
    pub(super) fn between<B: Bits>(&self, enemy: B, at: usize) -> bool {
        let [v, h] = self.pair[at & (SLOTS - 1)].map(B::of);
        ((enemy & v) == v) | ((enemy & h) == h)
    }

    /// Eats what a piece of `seat` on `at` encloses, reporting each piece.
    pub(super) fn eat(
        &self,
        s: &mut CustodialState,
        seat: usize,
        at: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> u32 {
        // Most steps enclose nothing, not even a piece on the middle cell: nothing to report.
        if self.p.capture_line == CaptureLine::Single
            && self.enclosed_single(s.pieces[seat], s.pieces[1 - seat], at) == 0u128
        {
            return 0;
        }
        let eaten = self.enclosed(&s.pieces, seat, at, Some(&mut |e| events.emit(e)));
        for c in bit_indices(eaten) {
            events.emit(CustodialEvent::Capture { cell: c as u8 });
        }
        s.pieces[1 - seat] &= !eaten;
        let n = eaten.count_ones();
        s.taken[seat] += n as u8;
        n
    }
}
