//! The takings: which counts and rows the last counter may take, how far the chain runs back
//! along the sowing, the capture choices a move may carry, and the one implementation of a
//! move's sowing and captures ([`Sowing::sow_and_take`]) used for play and for looking ahead.

use super::*;

impl Sowing {
    #[inline]
    fn captures(&self, count: u16) -> bool {
        let word = usize::from(count >> 6);
        word < 2 && self.capture_words[word] >> (count & 63) & 1 == 1
    }

    #[inline]
    fn row_ok(&self, rows: Rows, house: usize, mover: usize) -> bool {
        let owner = usize::from(self.row[house]);
        match rows {
            Rows::Opponent => owner != mover,
            Rows::Own => owner == mover,
            Rows::Any => true,
        }
    }

    /// The house the chain examines after `h`, going back along the sowing that ended at
    /// `last` and whose last lap started at `origin`; `None` where the chain must stop: at the
    /// origin under `chain_origin: stop`, or, under `take`, when it would come round to the
    /// last house again. Under `take`, an origin the lap passed over (`skip_origin`) is passed
    /// over by the chain too.
    #[inline]
    fn chain_prev(
        &self,
        h: usize,
        last: usize,
        (origin, lapped): (usize, bool),
        dir: Dir,
    ) -> Option<usize> {
        let mut x = self.prev(h, dir);
        match self.p.chain_origin {
            ChainOrigin::Stop => (x != origin).then_some(x),
            ChainOrigin::Take => {
                if x == origin && lapped && self.p.skip_origin {
                    x = self.prev(x, dir);
                }
                (x != last).then_some(x)
            }
        }
    }

    /// How many houses the last counter and the chain may take, from `last` back toward
    /// `origin` (never examined under `chain_origin: stop`), and the house where the chain
    /// stopped only because of its row.
    #[inline]
    pub(super) fn capture_run(
        &self,
        count: impl Fn(usize) -> u16,
        (origin, lapped): (usize, bool),
        last: usize,
        dir: Dir,
        mover: usize,
    ) -> (u8, Option<usize>) {
        if self.capture_mask == 0 {
            // No count captures (Um el Banât): nothing to read.
            return (0, None);
        }
        if !self.row_ok(self.p.capture_rows, last, mover) || !self.captures(count(last)) {
            return (0, None);
        }
        if self.p.chain == Chain::None {
            return (1, None);
        }
        let mut len = 1u8;
        let mut h = last;
        loop {
            h = match self.chain_prev(h, last, (origin, lapped), dir) {
                Some(x) => x,
                None => return (len, None),
            };
            if !self.captures(count(h)) {
                return (len, None);
            }
            if !self.row_ok(self.p.chain_rows, h, mover) {
                return (len, Some(h));
            }
            len += 1;
            if self.p.chain == Chain::Previous {
                return (len, None);
            }
        }
    }

    /// Sows and captures on `pos` for `mover`; the one implementation of a move, used for
    /// play and (with [`NoEvents`]) for looking ahead.
    pub(super) fn sow_and_take(
        &self,
        pos: &mut Pos,
        mover: usize,
        (house, dir, take): (usize, Dir, u8),
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        let (house, last, lapped) = match self.sow_all(pos, mover, house, dir, events) {
            Landing::Stop {
                origin,
                last,
                lapped,
            } => (origin, last, lapped),
            other => return other,
        };
        let Pos { board, store, .. } = pos;
        let (len, row_stop) = self.capture_run(|h| board[h], (house, lapped), last, dir, mover);
        if len == 0 {
            // Nothing to take (most sowings): no capture, no event.
            return Landing::Stop {
                origin: house,
                last,
                lapped,
            };
        }
        let back = |h: usize| self.chain_prev(h, last, (house, lapped), dir).unwrap_or(h);
        let take = if take == TAKE_ALL { len } else { take.min(len) };
        if len > 0 && take == 0 {
            events.emit(SowingEvent::CaptureDeclined { house: last as u8 });
        }
        let mut h = last;
        for i in 0..take {
            let counters = board[h];
            if counters == 0 {
                // Emptied already, as an earlier house's opposite: nothing to take here.
                h = back(h);
                continue;
            }
            board[h] = 0;
            store[mover] += u32::from(counters);
            if i == 0 {
                events.emit(SowingEvent::Capture {
                    house: h as u8,
                    counters,
                });
            } else {
                events.emit(SowingEvent::Chain {
                    house: h as u8,
                    counters,
                });
                if usize::from(self.row[h]) == mover {
                    events.emit(SowingEvent::ChainOwnRow { house: h as u8 });
                }
                if h == house {
                    events.emit(SowingEvent::ChainOrigin { house: h as u8 });
                }
            }
            // The house directly opposite goes too, where the reading says so (Ludii's
            // "OppositePitTwoRows"); taken in order, so a house already emptied gives nothing.
            if self.p.opposite == Opposite::Every || (self.p.opposite == Opposite::Last && i == 0) {
                let o = self.r - 1 - h;
                if board[o] > 0 {
                    let counters = std::mem::take(&mut board[o]);
                    store[mover] += u32::from(counters);
                    events.emit(SowingEvent::OppositeTaken {
                        house: o as u8,
                        counters,
                    });
                }
            }
            h = back(h);
        }
        if take > 0 && take < len {
            events.emit(SowingEvent::ChainStopped {
                taken: take,
                available: len,
            });
        }
        if take == len
            && let Some(stop) = row_stop
        {
            events.emit(SowingEvent::ChainRowStop { house: stop as u8 });
        }
        Landing::Stop {
            origin: house,
            last,
            lapped,
        }
    }

    /// The houses `take` may be for a sowing whose last counter and chain may take `len`.
    pub(super) fn takes(&self, len: u8, mut push: impl FnMut(u8)) {
        if len == 0 {
            // Nothing to take: the move is just the sowing.
            push(TAKE_ALL);
            return;
        }
        if self.p.capture_last == Compulsion::Optional {
            push(0);
        }
        if self.p.chain == Chain::None || len == 1 {
            push(1);
            return;
        }
        match self.p.chain_take {
            ChainTake::Compulsory => push(len),
            ChainTake::OptionalAll => {
                push(1);
                push(len);
            }
            ChainTake::OptionalEach => (1..=len).for_each(push),
        }
    }
}
