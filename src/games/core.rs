//! The bookkeeping every engine shares, written once: the clock (plies, turns, the run of
//! passes, who moved first), the engine cap checked against it, the opening lot and the
//! all-pass rule.
//!
//! Each engine keeps one [`Clock`] in its state and one [`Limit`] built from its `cap`
//! parameter by [`Limit::new`], the only place a cap is validated: a cap must bound the game
//! (only a move count does: a turn can hold any number of decisions, as when sticks are thrown
//! on or a lone seat plays on), and no cap may exceed [`Cap::MAX`]. So a capped game always
//! ends, and the runner may leave it to its cap.

use crate::family::Cap;

use super::{EndReason, Seat};

/// No seat yet.
const NONE: u8 = u8::MAX;

/// Plies, turns, the run of passes and the first mover of one game.
///
/// A *ply* is any decision a seat makes (a forced pass, a distribution step, a credit step
/// and a banked score included; chance steps are not plies). A *turn* is a run of consecutive
/// plies by the same seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    plies: u32,
    turns: u32,
    last: u8,
    first: u8,
    passes: u8,
}

impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock {
    /// A clock before the first decision.
    pub const fn new() -> Self {
        Clock {
            plies: 0,
            turns: 0,
            last: NONE,
            first: NONE,
            passes: 0,
        }
    }

    /// A decision of `seat` in play: one ply, a new turn when the seat changes, and the first
    /// mover if nobody has moved in play yet.
    #[inline]
    pub fn tick(&mut self, seat: u8) {
        self.setup_tick(seat);
        if self.first == NONE {
            self.first = seat;
        }
    }

    /// A decision of `seat` before play (a distribution, the choice to turn the board): a ply
    /// and a turn like any other, but it does not make `seat` the first mover.
    #[inline]
    pub fn setup_tick(&mut self, seat: u8) {
        self.plies += 1;
        if self.last != seat {
            self.turns += 1;
            self.last = seat;
        }
    }

    /// `plies` more decisions (an even number), each a turn of the two seats in
    /// alternation, the next by the seat that did not make the last: a forced stretch
    /// counted at once. The last mover and the first are as they were.
    #[inline]
    pub fn alternate(&mut self, plies: u32) {
        debug_assert!(
            plies.is_multiple_of(2),
            "an odd stretch changes the last mover"
        );
        self.plies += plies;
        self.turns += plies;
    }

    /// The decision just counted was a pass.
    #[inline]
    pub fn pass(&mut self) {
        self.passes = self.passes.saturating_add(1);
    }

    /// The run of passes is broken (a move, a new board).
    #[inline]
    pub fn clear_passes(&mut self) {
        self.passes = 0;
    }

    /// The clock as its parts: plies, turns, the last seat to decide, the first mover of
    /// play and the passes in a row (the position notation writes them).
    pub fn parts(&self) -> (u32, u32, Option<Seat>, Option<Seat>, u8) {
        let seat = |s: u8| (s != NONE).then_some(usize::from(s));
        (
            self.plies,
            self.turns,
            seat(self.last),
            seat(self.first),
            self.passes,
        )
    }

    /// A clock from its parts ([`Clock::parts`]): a position read from its notation.
    pub fn from_parts(
        plies: u32,
        turns: u32,
        last: Option<u8>,
        first: Option<u8>,
        passes: u8,
    ) -> Self {
        Clock {
            plies,
            turns,
            last: last.unwrap_or(NONE),
            first: first.unwrap_or(NONE),
            passes,
        }
    }

    /// Decisions so far.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Turns so far.
    #[inline]
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Consecutive passes up to now.
    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The seat that made the first decision of play, once one has.
    pub fn first_mover(&self) -> Option<Seat> {
        (self.first != NONE).then_some(usize::from(self.first))
    }

    /// Whether every one of `seats` players passed in a row: the all-pass rule (Ludii's
    /// implicit draw when the last moves of all players were passes).
    #[inline]
    pub fn all_passed(&self, seats: usize) -> bool {
        usize::from(self.passes) >= seats
    }
}

/// A cap that does not bound the game, or bounds it beyond reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CapError {
    /// A limit of zero.
    #[error("cap: a cap of 0 {0} would end the game before it starts; give 1 to {max}", max = Cap::MAX)]
    Zero(&'static str),
    /// A limit above [`Cap::MAX`].
    #[error("cap: {value} {what} is above the largest cap, {max}", max = Cap::MAX)]
    TooLarge {
        /// `turns` or `moves`.
        what: &'static str,
        /// The value given.
        value: u32,
    },
}

/// An engine's validated cap on game length, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    turns: u32,
    moves: u32,
    on: bool,
}

impl Limit {
    /// Validates a reading's cap.
    ///
    /// # Errors
    /// [`CapError`] for a limit of 0, or one above [`Cap::MAX`].
    pub fn new(cap: Option<Cap>) -> Result<Self, CapError> {
        let Some(cap) = cap else {
            return Ok(Limit {
                turns: u32::MAX,
                moves: u32::MAX,
                on: false,
            });
        };
        let check = |what: &'static str, value: u32| match value {
            0 => Err(CapError::Zero(what)),
            v if v > Cap::MAX => Err(CapError::TooLarge { what, value }),
            v => Ok(v),
        };
        let moves = check("moves", cap.moves)?;
        let turns = match cap.turns {
            Some(t) => check("turns", t)?,
            None => u32::MAX,
        };
        Ok(Limit {
            turns,
            moves,
            on: true,
        })
    }

    /// Whether there is a cap.
    #[inline]
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// The move cap, if there is a cap.
    pub fn moves(&self) -> Option<u32> {
        self.on.then_some(self.moves)
    }

    /// The turn cap, if there is one.
    pub fn turns(&self) -> Option<u32> {
        (self.on && self.turns != u32::MAX).then_some(self.turns)
    }

    /// How many more plies, each a new turn, the clock can take before the cap is
    /// [`reached`](Limit::reached) (the ply that reaches it not counted): `u32::MAX` less
    /// one without a cap.
    pub fn room(&self, clock: &Clock) -> u32 {
        let turns = self.turns.saturating_sub(clock.turns);
        let plies = self.moves.saturating_sub(clock.plies);
        turns.min(plies).saturating_sub(1)
    }

    /// Which cap the clock has reached, if any (the turn cap is reported first, as Ludii
    /// checks it first).
    #[inline]
    pub fn reached(&self, clock: &Clock) -> Option<EndReason> {
        if clock.turns >= self.turns {
            Some(EndReason::TurnCap)
        } else if clock.plies >= self.moves {
            Some(EndReason::MoveCap)
        } else {
            None
        }
    }
}

/// Mixes `word` into the hash `h`: a multiply-rotate step (as rustc's Fx hasher), for the
/// engines' [`Rules::key`](super::Rules::key). Deterministic on every platform.
#[inline]
pub fn mix(h: u64, word: u64) -> u64 {
    (h.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// A parameter value's name as the rulesets spell it (`NeitherCanMove` → `neither-can-move`),
/// for engine error messages; the engines read no serialisation format.
pub fn kebab_name(value: &impl std::fmt::Debug) -> String {
    let mut out = String::new();
    for (i, c) in format!("{value:?}").chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The chances of an opening lot among `seats` players (equal weights), as a static table.
pub fn lot_weights(seats: usize) -> &'static [u32] {
    const ONES: [u32; 8] = [1; 8];
    &ONES[..seats.min(8)]
}

/// The three casting sticks of the stick games (Sijat El Taba, the hyena game): the count of
/// flat sides up gives a tâba (1), a yômên (2), 4 or 6 (all three round), with chances 3, 3, 1
/// and 1 in eight. Only a yômên ends a turn: every other throw is followed by another.
pub mod sticks {
    /// The throws, indexed by chance outcome.
    pub const THROWS: [u8; 4] = [1, 2, 4, 6];
    /// The chances of [`THROWS`], in eighths: C(3, k) for k flat sides up.
    pub const WEIGHTS: [u32; 4] = [3, 3, 1, 1];
    /// The tâba.
    pub const TABA: u8 = 1;
    /// The yômên, which ends a turn.
    pub const YOMEN: u8 = 2;

    /// What a cast gives the thrower.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Cast {
        /// A yômên that is not played: the turn ends at once.
        Stops,
        /// A throw to use (or lose) in a decision.
        Play(u8),
    }

    /// The cast of chance outcome `k`, where `yomen_played` says whether the yômên that ends
    /// a turn is itself played.
    #[inline]
    pub fn cast(k: usize, yomen_played: bool) -> Cast {
        match THROWS[k] {
            YOMEN if !yomen_played => Cast::Stops,
            throw => Cast::Play(throw),
        }
    }

    /// Whether the thrower throws again after `throw`.
    #[inline]
    pub fn throws_on(throw: u8) -> bool {
        throw != YOMEN
    }
}
