//! Positions: a set-up given house by house and checked into a state, the start of a (new)
//! game, and the distribution that sets the counters out where the reading has one (the
//! distributor's moves and how many there are, which random play counts without listing).

use super::*;

/// A position given house by house, checked by [`Sowing::setup`] into a playable state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SowingSetup {
    /// Each seat's houses, from that player's left.
    pub rows: [Vec<u16>; 2],
    /// Counters each seat has taken.
    pub stores: [u32; 2],
    /// Who moves.
    pub to_move: Seat,
    /// Daughters: (house as a circuit index, the seat whose daughter it is).
    pub daughters: Vec<(usize, Seat)>,
}

/// Why a setup is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A row of the wrong length.
    #[error("seat {seat}'s row has {got} houses; this game has {expected}")]
    RowLength {
        /// The seat (1-based).
        seat: usize,
        /// Houses given.
        got: usize,
        /// Houses expected.
        expected: usize,
    },
    /// No such seat.
    #[error("to_move = {0}: seats are 0 and 1")]
    Seat(usize),
    /// A daughter in a house that does not exist, or of a seat that does not.
    #[error("daughter ({house}, {seat}): houses are 0 to {last}, seats 0 and 1")]
    Daughter {
        /// The house given.
        house: usize,
        /// The seat given.
        seat: usize,
        /// The last house.
        last: usize,
    },
}

impl Sowing {
    /// Checks a setup into a position (which may already be over, if nobody can move).
    ///
    /// # Errors
    /// [`SetupError`] for rows of the wrong length or a seat that does not exist.
    pub fn setup(&self, setup: &SowingSetup) -> Result<SowingState, SetupError> {
        self.setup_with_events(setup, &mut NoEvents)
    }

    /// [`Sowing::setup`], reporting the rules that fire at once (a stage already complete,
    /// say).
    ///
    /// # Errors
    /// As [`Sowing::setup`].
    pub fn setup_with_events(
        &self,
        setup: &SowingSetup,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Result<SowingState, SetupError> {
        self.setup_in_stage(setup, None, events)
    }

    /// [`Sowing::setup_with_events`] for a position within a stage that began with `stake`
    /// counters for each seat (on the board and in hand; by default, the first stage's), which
    /// decides who gained in it when it is reckoned.
    ///
    /// # Errors
    /// As [`Sowing::setup`].
    pub fn setup_in_stage(
        &self,
        setup: &SowingSetup,
        stake: Option<[u32; 2]>,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Result<SowingState, SetupError> {
        for &(house, seat) in &setup.daughters {
            if house >= self.r || seat > 1 {
                return Err(SetupError::Daughter {
                    house,
                    seat,
                    last: self.r - 1,
                });
            }
        }
        for (seat, row) in setup.rows.iter().enumerate() {
            if row.len() != self.n {
                return Err(SetupError::RowLength {
                    seat: seat + 1,
                    got: row.len(),
                    expected: self.n,
                });
            }
        }
        if setup.to_move > 1 {
            return Err(SetupError::Seat(setup.to_move));
        }
        let mut state = self.initial();
        state.pos.board = [0; RING];
        for (seat, row) in setup.rows.iter().enumerate() {
            state.pos.board[seat * self.n..(seat + 1) * self.n].copy_from_slice(row);
        }
        state.pos.store = setup.stores;
        state.hand = 0;
        for &(house, seat) in &setup.daughters {
            state.pos.mark[house] = seat as u8 + 1;
        }
        state.mover = setup.to_move as u8;
        if let Some(stake) = stake {
            state.stake = stake;
        }
        state.phase = Phase::Play;
        // A set-up position is not the start of a game: a tie here replays from the start.
        state.game_start = u32::MAX;
        self.settle(&mut state, events);
        Ok(state)
    }

    /// The house that corresponds to `h` for a distribution.
    fn partner(&self, h: usize) -> usize {
        match self.p.correspond {
            Correspond::Opposite => self.r - 1 - h,
            Correspond::Rotated => (h + self.n) % self.r,
        }
    }

    /// Whether the distribution in `manner` may put counters into house `h`, given the
    /// board so far.
    fn distributable(&self, h: usize, manner: Distribution, b: &[u16; RING]) -> bool {
        // `h % n` without a division: `h` is below `2n`.
        let j = if h >= self.n { h - self.n } else { h };
        match manner {
            Distribution::Even | Distribution::HalfAndHalf | Distribution::LaneManners => false,
            Distribution::Corresponding | Distribution::AllHouses | Distribution::Free => true,
            Distribution::ConventionalFour => self.n < 3 || (j != 0 && j != self.n - 1),
            Distribution::OneASide => {
                // The first house he fills chooses the pair: then only it and its partner.
                match (0..self.r).find(|&x| b[x] > 0) {
                    None => true,
                    Some(a) => h == a || h == self.partner(a),
                }
            }
        }
    }

    /// The distributor's choices: under `lane-manners` first the manner, then any count into
    /// any house the manner allows, as long as the counters left can still complete it
    /// (every occupied house an occupied partner; under `all-houses`, every house filled).
    pub(super) fn distribution_moves(&self, s: &SowingState, out: &mut Vec<SowingMove>) {
        let b = &s.pos.board;
        if s.manner == Distribution::LaneManners {
            out.extend((0..MANNERS.len() as u8).map(|manner| SowingMove::Manner { manner }));
            return;
        }
        if s.manner == Distribution::HalfAndHalf {
            // "About half into beyt A and the remainder in beyt a": A is the distributor's
            // first house; he puts between three eighths and five eighths of the counters
            // there (he does not count), and the rest into its corresponding house.
            let a = usize::from(s.distributor) * self.n;
            let total = s.hand + b.iter().map(|&c| u32::from(c)).sum::<u32>();
            if b[a] == 0 {
                let (lo, hi) = (
                    (3 * total).div_ceil(8).max(1),
                    (5 * total / 8).min(s.hand - 1),
                );
                for k in lo..=hi.min(255) {
                    out.push(SowingMove::Distribute {
                        house: a as u8,
                        count: k as u8,
                    });
                }
            } else if s.hand > 0 {
                out.push(SowingMove::Distribute {
                    house: self.partner(a) as u8,
                    count: s.hand.min(255) as u8,
                });
            }
            return;
        }
        for (h, &most) in self.distribution_counts(s).iter().enumerate() {
            out.extend((1..=most).map(|k| SowingMove::Distribute {
                house: h as u8,
                count: k,
            }));
        }
    }

    /// Under the manners that put any count into any allowed house: for each house, the
    /// largest count the distributor may put there now (0 where he may put none). The moves
    /// are `1..=most` into each house in circuit order ([`Sowing::distribution_moves`]), so
    /// random play picks the k-th of them from these counts without listing them.
    pub(super) fn distribution_counts(&self, s: &SowingState) -> [u8; RING] {
        let b = &s.pos.board;
        let mut counts = [0u8; RING];
        // Houses that still need a counter for the distribution to be complete: unmatched
        // occupied houses' partners, or under `all-houses` every empty house; none under
        // `free`. Found once for the board; one counter more in a house changes the count
        // only through that house and its partner (`partner` pairs distinct houses).
        let needed = match s.manner {
            Distribution::Free => 0,
            Distribution::AllHouses => (0..self.r).filter(|&h| b[h] == 0).count() as u32,
            _ => (0..self.r)
                .filter(|&h| b[h] > 0 && b[self.partner(h)] == 0)
                .count() as u32,
        };
        for h in 0..self.r {
            if !self.distributable(h, s.manner, b) {
                continue;
            }
            // What is still needed once `h` holds one counter more.
            let after = match s.manner {
                Distribution::Free => 0,
                Distribution::AllHouses => needed - u32::from(b[h] == 0),
                _ if b[h] > 0 => needed,
                // `h` becomes occupied: it is unmatched if its partner is empty, and it
                // matches its partner otherwise.
                _ if b[self.partner(h)] == 0 => needed + 1,
                _ => needed - 1,
            };
            // Every count that leaves enough counters to complete the distribution.
            let Some(most) = s.hand.checked_sub(after) else {
                continue;
            };
            counts[h] = most.min(255) as u8;
        }
        counts
    }

    /// Sets up the board for a (new) game, keeping the ply and turn counts.
    pub(super) fn restart(&self, s: &mut SowingState) {
        s.pos.board = [0; RING];
        s.pos.board[..self.r].fill(u16::from(self.p.counters));
        s.pos.store = [0; 2];
        s.pos.mark = [0; RING];
        // Each seat owns his row: the row table, `NO_SEAT` beyond the circuit.
        s.pos.owner = self.row;
        s.owned = [self.row_mask(0), self.row_mask(1)];
        s.sowable = [0; 2];
        s.pos.discarded = 0;
        s.debt = [0; 2];
        s.idle_stages.clear();
        s.stages = 0;
        s.stake = [self.n as u32 * u32::from(self.p.counters); 2];
        s.placing = None;
        s.tied = false;
        s.points = [0; 2];
        s.hand = 0;
        s.distributor = 0;
        s.manner = self.p.distribution;
        s.clock.clear_passes();
        s.must_feed = false;
        s.outcome = None;
        s.history.clear();
        s.game_start = s.clock.plies();
        let distributed = self.p.distribution != Distribution::Even;
        if distributed {
            // The counters start in the distributor's hand.
            s.pos.board = [0; RING];
            s.hand = self.r as u32 * u32::from(self.p.counters);
        }
        s.mover = 0;
        s.phase = match (self.p.starter, distributed) {
            (Starter::Lot, _) => Phase::Lot,
            (Starter::FirstSeat, false) => Phase::Play,
            (Starter::FirstSeat, true) => Phase::Distribute,
        };
    }
}
