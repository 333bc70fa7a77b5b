//! The engine built from its parameters ([`Custodial::new`]: the checks, the per-cell
//! neighbour and capture tables padded to `SLOTS` entries so that the hot paths index them
//! without a bounds check), and positions: a set-up read from rows of `x`, `o` and `.`, and
//! the start of the placing.

use super::*;

/// A per-cell table padded to [`SLOTS`] entries.
fn slots<T: Copy + Default>(cells: impl Iterator<Item = T>) -> Box<[T; SLOTS]> {
    let mut out = Box::new([T::default(); SLOTS]);
    for (slot, value) in out.iter_mut().zip(cells) {
        *slot = value;
    }
    out
}

/// A position to start from, for tests and worked examples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustodialSetup<'a> {
    /// The rows from the top down: `x` a piece of seat 1, `o` of seat 2, `.` empty.
    pub rows: &'a [&'a str],
    /// Pieces still in hand.
    pub hands: [u8; 2],
    /// Who moves.
    pub to_move: Seat,
}

/// A position that [`Custodial::setup`] cannot build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rows do not make the board.
    #[error("the setup needs {size} rows of {size} cells (x, o or .)")]
    Shape {
        /// The board side.
        size: usize,
    },
    /// More pieces than a seat has.
    #[error("seat {seat} has {count} pieces on the board and in hand, more than its {max}")]
    TooMany {
        /// The seat (1-based).
        seat: usize,
        /// Its pieces.
        count: usize,
        /// The most it has.
        max: u8,
    },
}

impl Custodial {
    /// Resolves the parameters.
    ///
    /// # Errors
    /// [`CustodialError`] for a board, piece count or combination the engine cannot play.
    pub fn new(p: &CustodialParams) -> Result<Self, CustodialError> {
        let n = usize::from(p.size);
        if !(3..=MAX_SIZE).contains(&n) || n % 2 == 0 {
            return Err(CustodialError::Size(p.size));
        }
        let cells = n * n;
        let max = ((cells - 1) / 2) as u8;
        if p.pieces == 0 || p.pieces > max {
            return Err(CustodialError::Pieces {
                pieces: p.pieces,
                size: p.size,
                max,
            });
        }
        if p.per_turn == 0 {
            return Err(CustodialError::PerTurn);
        }
        if p.stall == Stall::NoCapture && p.stall_plies == 0 {
            return Err(CustodialError::StallPlies);
        }
        // The loose test is Ludii's test for its while-capturing rule, and it decides the move
        // after a capture in place of `continuation` (so it can be switched into a reading
        // whose continuation is another); steps other than one and capture lines are cases it
        // was never made for.
        if p.ludii_loose_continuation
            && (p.step != Step::One || p.capture_line != CaptureLine::Single)
        {
            return Err(CustodialError::Loose);
        }
        if p.placing == Placing::Pair && p.per_turn != 2 {
            return Err(CustodialError::Pair(p.per_turn));
        }
        let limit = Limit::new(p.cap)?;
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut left = 0u128;
        for row in 0..n {
            left |= 1 << (row * n);
        }
        let right = left << (n - 1);
        let nbr: Vec<[u8; 4]> = (0..cells)
            .map(|c| {
                let (row, col) = (c / n, c % n);
                let at = |ok: bool, cell: usize| if ok { cell as u8 } else { NONE };
                [
                    at(row + 1 < n, c + n),
                    at(col + 1 < n, c + 1),
                    at(row > 0, c.wrapping_sub(n)),
                    at(col > 0, c.wrapping_sub(1)),
                ]
            })
            .collect();
        let centre = cells / 2;
        let bit = |c: u8| if c == NONE { 0 } else { 1u128 << c };
        let beyond = |c: usize, d: usize| {
            let x = nbr[c][d];
            if x == NONE {
                NONE
            } else {
                nbr[usize::from(x)][d]
            }
        };
        let capm = slots((0..cells).map(|c| {
            std::array::from_fn(|d| {
                if beyond(c, d) == NONE {
                    0
                } else {
                    bit(nbr[c][d])
                }
            })
        }));
        let pair = slots((0..cells).map(|c| {
            let near = nbr[c];
            std::array::from_fn(|h| {
                let (a, b) = (near[h], near[h + 2]);
                if a == NONE || b == NONE {
                    1u128 << c
                } else {
                    bit(a) | bit(b)
                }
            })
        }));
        let around = slots((0..cells).map(|c| {
            nbr[c]
                .iter()
                .map(|&x| if x == NONE { 1u128 << c } else { bit(x) })
                .fold(0, |a, b| a | b)
        }));
        let nbrs = slots((0..cells).map(|c| nbr[c].iter().map(|&x| bit(x)).fold(0, |a, b| a | b)));
        let far = slots((0..cells).map(|c| {
            std::array::from_fn(|d| {
                let x = nbr[c][d];
                if x == NONE {
                    127
                } else {
                    nbr[usize::from(x)][d].min(127)
                }
            })
        }));
        Ok(Custodial {
            p: p.clone(),
            n,
            centre,
            full,
            not_left: full & !left,
            not_right: full & !right,
            nbr,
            capm,
            pair,
            around,
            nbrs,
            inner: full & !left & !right,
            sandwich_cells: if p.centre_safe {
                full & !(1u128 << centre)
            } else {
                full
            },
            back: [64, 128].map(|w| [n as u32, 1, w - n as u32, w - 1]),
            step_mask: [
                u64::MAX,
                (full & !left) as u64,
                u64::MAX,
                (full & !right) as u64,
            ],
            far,
            narrow: cells <= 64,
            blocked_passes: matches!(p.blocked, Blocked::Pass | Blocked::OpponentOpens),
            fused: p.step == Step::One
                && !p.compulsory_capture
                && !p.voluntary_pass
                && p.capture_line == CaptureLine::Single
                && p.sandwich == Sandwich::Safe
                && p.stall == Stall::None
                && matches!(p.blocked, Blocked::Pass | Blocked::OpponentOpens),
            bit: slots((0..cells).map(|c| 1u128 << c)),
            plain_steps: p.step == Step::One && !p.compulsory_capture && !p.voluntary_pass,
            placeable: full & !(1u128 << centre),
            limit,
            cap_plies: p
                .cap
                .map_or(u32::MAX, |c| c.moves.min(c.turns.unwrap_or(u32::MAX))),
            loose: p.ludii_loose_continuation,
            lone_is_endless: matches!(p.stall, Stall::None | Stall::Barrier)
                && p.cap.is_none()
                && !(p.all_pass_draw && p.voluntary_pass),
        })
    }

    /// A position built from rows of `x`, `o` and `.`, in the movement phase unless a hand
    /// holds pieces. The position is then settled as after any decision (so a seat left with
    /// no pieces has lost, and a blocked seat to move is dealt with by the reading).
    ///
    /// # Errors
    /// [`SetupError`] for rows that do not make the board, or more pieces than a seat has.
    pub fn setup(&self, setup: &CustodialSetup) -> Result<CustodialState, SetupError> {
        let mut s = self.initial();
        if setup.rows.len() != self.n || setup.rows.iter().any(|r| r.chars().count() != self.n) {
            return Err(SetupError::Shape { size: self.n });
        }
        s.pieces = [0; 2];
        for (i, row) in setup.rows.iter().enumerate() {
            let r = self.n - 1 - i;
            for (col, ch) in row.chars().enumerate() {
                let bit = 1u128 << (r * self.n + col);
                match ch {
                    'x' => s.pieces[0] |= bit,
                    'o' => s.pieces[1] |= bit,
                    '.' => {}
                    _ => return Err(SetupError::Shape { size: self.n }),
                }
            }
        }
        s.hand = setup.hands;
        for seat in 0..2 {
            let count = s.pieces(seat) as usize;
            if count > usize::from(self.p.pieces) {
                return Err(SetupError::TooMany {
                    seat: seat + 1,
                    count,
                    max: self.p.pieces,
                });
            }
            // The pieces missing were eaten by the other seat.
            s.taken[1 - seat] = self.p.pieces - count as u8;
        }
        s.phase = Phase::Play;
        s.mover = setup.to_move as u8;
        s.first_move = false;
        // Settled as if the other seat had just moved.
        self.after_decision(&mut s, 1 - setup.to_move, &mut NoEvents);
        self.settle(&mut s);
        Ok(s)
    }

    /// Clears the board and hands for a (new) placement.
    #[inline]
    pub(super) fn start_placement(&self, s: &mut CustodialState) {
        s.pieces = [0; 2];
        s.hand = [self.p.pieces; 2];
        s.taken = [0; 2];
        s.lost = [0; 2];
        s.mover = s.first_placer;
        s.placed = 0;
        s.cont = NONE;
        s.must_open = false;
        s.first_move = false;
        s.clock.clear_passes();
        s.quiet = 0;
        s.seen.clear();
    }
}
