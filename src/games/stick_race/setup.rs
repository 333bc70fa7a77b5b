//! The engine built from its parameters ([`StickRace::new`]: the checks, the tracks laid out
//! over the houses, the tables of positions and masks), and positions: a set-up read from
//! rows, and the starting houses.

use super::board::houses_of;
use super::*;

/// A position to start from, for tests and worked examples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StickSetup<'a> {
    /// The rows from the top down: `x` an active counter of seat 1, `X` one not yet
    /// released, `o` / `O` the same for seat 2, `.` empty.
    pub rows: &'a [&'a str],
    /// Banked tâbas.
    pub bank: [u32; 2],
    /// Counters eaten so far by each seat.
    pub score: [u32; 2],
    /// Who is to throw (or to use `throw`).
    pub to_move: Seat,
    /// A throw in hand, to be used by `to_move`; `None` if he is about to throw.
    pub throw: Option<u8>,
}

/// A position that [`StickRace::setup`] cannot build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rows do not make the board.
    #[error("the setup needs {rows} rows of {cols} houses (x, X, o, O or .)")]
    Shape {
        /// Rows.
        rows: usize,
        /// Houses a row.
        cols: usize,
    },
    /// More counters than a seat has.
    #[error("seat {seat} has {count} counters on the board, more than its {max}")]
    TooMany {
        /// The seat (1-based).
        seat: usize,
        /// Its counters.
        count: usize,
        /// The most it has.
        max: u8,
    },
    /// Not a throw.
    #[error("throw {0}: the sticks score 1, 2, 4 or 6")]
    Throw(u8),
    /// A counter on a house that is not on its side's track (separate lanes).
    #[error("seat {seat} has a counter on {house}, which is not on its track")]
    OffTrack {
        /// The seat (1-based).
        seat: usize,
        /// The house's name.
        house: String,
    },
}

/// Each seat's track, as houses in order (see the module docs).
fn tracks(kind: Track, rows: usize, cols: usize) -> [Vec<u8>; 2] {
    let house = |r: usize, c: usize| (r * cols + c) as u8;
    // A boustrophedon over `n` rows from the bottom (seat 1) or the top (seat 2): the first
    // row runs east for seat 1 and west for seat 2, each next row back the other way, so that
    // in every row both armies run the same way.
    let snake = |seat: usize, n: usize| -> Vec<u8> {
        let mut out = Vec::with_capacity(n * cols);
        for k in 0..n {
            let r = if seat == 0 { k } else { rows - 1 - k };
            let east = (k % 2 == 0) == (seat == 0);
            for i in 0..cols {
                out.push(house(r, if east { i } else { cols - 1 - i }));
            }
        }
        out
    };
    match kind {
        Track::Boustrophedon => [snake(0, rows), snake(1, rows)],
        Track::Lanes => [snake(0, rows / 2), snake(1, rows / 2)],
        Track::Circuit => {
            // Seat 1's half lap: its nearest row eastward, then up the right half of the
            // middle rows in a snake that ends beside the top right corner. The other half
            // lap is its turn through half a circle (house n ↔ houses − 1 − n): the top row
            // westward and down the left half to beside the bottom left corner, closing the
            // ring. Seat 2 runs the same ring from half a lap on, starting along its own
            // nearest row: both go the same way round, and neither is nearer the other.
            let half = cols / 2;
            let mut first: Vec<u8> = (0..cols).map(|c| house(0, c)).collect();
            for r in 1..rows - 1 {
                for i in 0..half {
                    let c = if r % 2 == 1 { cols - 1 - i } else { half + i };
                    first.push(house(r, c));
                }
            }
            let last = (rows * cols - 1) as u8;
            let ring: Vec<u8> = first
                .iter()
                .copied()
                .chain(first.iter().map(|&h| last - h))
                .collect();
            let n = ring.len();
            let seat2 = (0..n).map(|i| ring[(i + n / 2) % n]).collect();
            [ring, seat2]
        }
    }
}

impl StickRace {
    /// Resolves the parameters.
    ///
    /// # Errors
    /// [`StickRaceError`] for a board, counter count or combination the engine cannot play.
    pub fn new(p: &StickRaceParams) -> Result<Self, StickRaceError> {
        let (rows, cols) = (usize::from(p.rows), usize::from(p.cols));
        if !(2..=8).contains(&rows) || !(2..=16).contains(&cols) || rows * cols > MAX_HOUSES {
            return Err(StickRaceError::Board {
                rows: p.rows,
                cols: p.cols,
            });
        }
        if !(1..=crate::family::Cap::MAX).contains(&p.agreed_turns) {
            return Err(StickRaceError::AgreedTurns(p.agreed_turns));
        }
        if p.pieces == 0 || p.pieces > p.cols {
            return Err(StickRaceError::Pieces {
                pieces: p.pieces,
                cols: p.cols,
            });
        }
        if p.track == Track::Circuit && (rows % 2 == 1 || cols % 2 == 1) {
            return Err(StickRaceError::Circuit {
                rows: p.rows,
                cols: p.cols,
            });
        }
        let limit = Limit::new(p.cap)?;
        let houses = rows * cols;
        let track = tracks(p.track, rows, cols);
        let len = track[0].len();
        let mut index = [vec![OFF; houses], vec![OFF; houses]];
        for seat in 0..2 {
            for (i, &h) in track[seat].iter().enumerate() {
                index[seat][usize::from(h)] = i as u8;
            }
        }
        let stretch = |seat: usize| {
            track[seat][len - cols..]
                .iter()
                .fold(0u128, |set, &h| set | 1u128 << h)
        };
        let last_row = [stretch(0), stretch(1)];
        let apart = index[1]
            .iter()
            .zip(&index[0])
            .all(|(&a, &b)| a == OFF || b == OFF);
        Ok(StickRace {
            p: p.clone(),
            rows,
            cols,
            len,
            track,
            index,
            last_row,
            apart,
            below: Box::new(std::array::from_fn(below)),
            counted: p.release == Release::Fresh
                && !p.release_moves
                && p.capture == Capture::Landing
                && p.overshoot == Overshoot::Illegal
                && p.must_move
                && p.credits != Credits::Spare
                && p.credits != Credits::AnyMove
                && !p.stack,
            limit,
        })
    }

    /// The starting houses of a seat, as track indices.
    #[inline]
    pub(super) fn start_indices(&self) -> impl Iterator<Item = usize> + '_ {
        let n = usize::from(self.p.pieces);
        let cols = self.cols;
        let (low, high) = match self.p.start {
            Start::SplitEnds => (n.div_ceil(2), n / 2),
            Start::Together => (n, 0),
        };
        (0..low).chain(cols - high..cols)
    }

    /// Builds a position from a setup. The position is then settled as after any decision
    /// (so a finished game is over).
    ///
    /// # Errors
    /// [`SetupError`] for rows that do not make the board, too many counters, a counter off
    /// its side's track, or a throw the sticks cannot make.
    pub fn setup(&self, setup: &StickSetup) -> Result<StickRaceState, SetupError> {
        let shape = SetupError::Shape {
            rows: self.rows,
            cols: self.cols,
        };
        if setup.rows.len() != self.rows
            || setup.rows.iter().any(|r| r.chars().count() != self.cols)
        {
            return Err(shape);
        }
        let mut s = self.initial();
        s.pieces = [0; 2];
        s.active = [0; 2];
        for (i, row) in setup.rows.iter().enumerate() {
            let r = self.rows - 1 - i;
            for (col, ch) in row.chars().enumerate() {
                let bit = 1u128 << (r * self.cols + col);
                match ch {
                    'x' | 'X' => s.pieces[0] |= bit,
                    'o' | 'O' => s.pieces[1] |= bit,
                    '*' => {
                        s.pieces[0] |= bit;
                        s.pieces[1] |= bit;
                        s.active[0] |= bit;
                        s.active[1] |= bit;
                    }
                    '.' => {}
                    _ => return Err(shape),
                }
                match ch {
                    'x' => s.active[0] |= bit,
                    'o' => s.active[1] |= bit,
                    _ => {}
                }
            }
        }
        for seat in 0..2 {
            let count = s.pieces(seat) as usize;
            if count > usize::from(self.p.pieces) {
                return Err(SetupError::TooMany {
                    seat: seat + 1,
                    count,
                    max: self.p.pieces,
                });
            }
            if let Some(h) =
                houses_of(s.pieces[seat]).find(|&h| self.index[seat][usize::from(h)] == OFF)
            {
                return Err(SetupError::OffTrack {
                    seat: seat + 1,
                    house: house_name(usize::from(h), self.cols),
                });
            }
        }
        s.bank = setup.bank;
        s.score = setup.score;
        s.mover = setup.to_move as u8;
        match setup.throw {
            None => s.phase = Phase::Throw,
            Some(t) if THROWS.contains(&t) => {
                s.phase = Phase::Decide;
                s.throw = t;
            }
            Some(t) => return Err(SetupError::Throw(t)),
        }
        self.sync_order(&mut s);
        self.end_tests(&mut s, &mut NoEvents);
        Ok(s)
    }
}
