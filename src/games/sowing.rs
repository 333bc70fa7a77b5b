//! The sowing engine: two-row mancala, played from [`SowingParams`].
//!
//! The board is one closed circuit of `2 × holes` houses, stored in circuit order: seat 0's
//! row is houses `0..n`, from that player's left to his right, and seat 1's row is `n..2n`,
//! likewise from *his* left. Anticlockwise (seen from above, seat 0 nearest) is +1 round the
//! circuit, clockwise −1, so "toward the player's left" is clockwise for both seats and the
//! two rows are symmetric. (Ludii numbers the same board differently; the mapping lives in
//! `crate::ludii`, outside the engine.)
//!
//! The parameters are resolved once, in [`Sowing::new`], into tables (which houses may be
//! sown which way, in list order; a bit mask of capture counts; the caps), so the playout
//! loop only indexes arrays and never allocates: the state is a fixed array plus one vector
//! (the position history, used only by a repetition rule) that [`Rules::reset`] reuses.
//!
//! A move may carry the capture decision when the reading makes a capture optional: the
//! player chooses how many houses to take as part of the move, so every choice the rules
//! allow is a distinct legal move. Where captures are compulsory a move is just a house and a
//! direction.

use std::fmt;

use super::{
    EndReason, Event, EventKind, EventSink, NoEvents, Outcome, Result_, Rules, Seat, Status,
};
use crate::family::sowing::{
    Chain, ChainTake, Compulsion, Direction, End, EndCheck, Remaining, Repetition, Rows,
    SowingParams, Starter, Tie,
};

/// The most houses in a row.
pub const MAX_HOLES: usize = 16;
const RING: usize = 2 * MAX_HOLES;
/// `take` of a move whose captures are all compulsory: whatever the rules take.
const TAKE_ALL: u8 = u8::MAX;
const NO_SEAT: u8 = 2;

/// A sowing direction round the circuit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Clockwise: toward the mover's left along his own row.
    Cw,
    /// Anticlockwise: toward the mover's right along his own row.
    Ccw,
}

impl Dir {
    /// The short name used in move notation.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Cw => "cw",
            Dir::Ccw => "ccw",
        }
    }
}

/// A decision in a sowing game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SowingMove {
    /// A forced pass: the player has no house he may sow.
    Pass,
    /// Sow the counters of `house` (a circuit index) in `dir`.
    Sow {
        /// The house, as a circuit index (`seat × holes + position from his left`).
        house: u8,
        /// The direction.
        dir: Dir,
        /// How many houses the player takes, where the reading lets him choose; `u8::MAX`
        /// where the rules decide.
        take: u8,
        /// Listed by Ludii 1.0.8's left-hole defect in place of the seat's left house.
        quirk: bool,
    },
}

impl SowingMove {
    /// A sowing whose captures the rules decide.
    pub fn sow(house: usize, dir: Dir) -> Self {
        SowingMove::Sow {
            house: house as u8,
            dir,
            take: TAKE_ALL,
            quirk: false,
        }
    }
}

/// The name of a house: `a1`…`aN` are seat 0's houses from his left, `b1`…`bN` seat 1's.
pub fn house_name(house: usize, holes: usize) -> String {
    let seat = if house < holes { 'a' } else { 'b' };
    format!("{seat}{}", house % holes + 1)
}

/// Displays a move given the board size (moves do not know it).
pub struct MoveDisplay {
    mv: SowingMove,
    holes: usize,
}

impl fmt::Display for MoveDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            SowingMove::Pass => f.write_str("pass"),
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } => {
                write!(
                    f,
                    "{} {}",
                    house_name(house as usize, self.holes),
                    dir.name()
                )?;
                if take != TAKE_ALL {
                    write!(f, " take {take}")?;
                }
                if quirk {
                    f.write_str(" (left-hole quirk)")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SowingMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without the board size, houses are shown as circuit indices.
        match *self {
            SowingMove::Pass => f.write_str("pass"),
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } => {
                write!(f, "#{house} {}", dir.name())?;
                if take != TAKE_ALL {
                    write!(f, " take {take}")?;
                }
                if quirk {
                    f.write_str(" (left-hole quirk)")?;
                }
                Ok(())
            }
        }
    }
}

macro_rules! event_kinds {
    ($( $(#[doc = $doc:literal])* $kind:ident = $name:literal [$($param:literal),*], )*) => {
        /// The kinds of sowing event.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum SowingEventKind { $( $(#[doc = $doc])* $kind, )* }

        impl EventKind for SowingEventKind {
            const COUNT: usize = [$(SowingEventKind::$kind),*].len();
            const ALL: &'static [Self] = &[$(SowingEventKind::$kind),*];
            const ENDLESS_PARAMS: &'static [&'static str] = &["repetition"];
            fn index(self) -> usize { self as usize }
            fn name(self) -> &'static str {
                match self { $(SowingEventKind::$kind => $name,)* }
            }
            fn params(self) -> &'static [&'static str] {
                match self { $(SowingEventKind::$kind => &[$($param),*],)* }
            }
        }
    };
}

event_kinds! {
    /// A lot decided who begins.
    Lot = "lot" ["starter"],
    /// The last counter fell into an occupied house and its counters were sown on.
    Relay = "relay" ["relay"],
    /// A relay was found to cycle for ever; the game cannot end.
    RelayCycle = "relay-cycle" ["relay"],
    /// A sowing went round the circuit past (or into) the house it started from.
    Lap = "lap" ["skip_origin"],
    /// The last counter took a house.
    Capture = "capture" ["capture_counts", "capture_rows", "capture_last"],
    /// The player declined a capture the last counter allowed.
    CaptureDeclined = "capture-declined" ["capture_last"],
    /// The chain took one more house, back along the sowing.
    Chain = "chain" ["chain", "chain_take"],
    /// The chain took a house in the mover's own row.
    ChainOwnRow = "chain-own-row" ["chain_rows"],
    /// The chain stopped at a house that held a capture count but lay in a row it may not
    /// take from.
    ChainRowStop = "chain-row-stop" ["chain_rows"],
    /// The player stopped the chain before its end.
    ChainStopped = "chain-stopped" ["chain_take"],
    /// A player who could not move passed.
    ForcedPass = "forced-pass" ["end", "end_check"],
    /// A player had to choose a move that gives his blocked opponent a move.
    Feed = "feed" ["end"],
    /// The game ended because a player could not move.
    EndBlocked = "end-blocked" ["end"],
    /// The game ended because a row was empty.
    RowEmpty = "row-empty" ["end"],
    /// The game ended because neither player could move.
    EndNoMoves = "end-no-moves" ["end", "end_check"],
    /// Counters left in a row at the end were counted (or not) for its owner.
    Remaining = "remaining" ["remaining"],
    /// The totals were equal.
    Tie = "tie" ["tie"],
    /// The game was played again from the start after a tie.
    Replay = "replay" ["tie"],
    /// A tie at the start position itself: replaying would repeat it for ever.
    ReplayCycle = "replay-cycle" ["tie"],
    /// A position recurred and ended the game.
    Repetition = "repetition" ["repetition"],
    /// An engine's implicit all-pass draw ended the game.
    AllPassDraw = "all-pass-draw" ["all_pass_draw"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// A move listed by Ludii 1.0.8's left-hole defect was played.
    LeftHoleQuirk = "left-hole-quirk" ["ludii_left_hole_quirk"],
}

/// A sowing event with its data. Houses are circuit indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SowingEvent {
    /// The lot chose `seat` to begin.
    Lot {
        /// Who begins.
        seat: Seat,
    },
    /// The relay picked up `counters` from `house` and sowed on.
    Relay {
        /// The house.
        house: u8,
        /// Counters picked up.
        counters: u16,
    },
    /// A relay cycles for ever.
    RelayCycle,
    /// A sowing of `counters` went round the circuit.
    Lap {
        /// Counters sown.
        counters: u16,
    },
    /// The last counter took `counters` from `house`.
    Capture {
        /// The house.
        house: u8,
        /// Counters taken.
        counters: u16,
    },
    /// The player declined to take `house`.
    CaptureDeclined {
        /// The house.
        house: u8,
    },
    /// The chain took `counters` from `house`.
    Chain {
        /// The house.
        house: u8,
        /// Counters taken.
        counters: u16,
    },
    /// The chain took a house of the mover's own row.
    ChainOwnRow {
        /// The house.
        house: u8,
    },
    /// The chain stopped before `house` only because of its row.
    ChainRowStop {
        /// The house.
        house: u8,
    },
    /// The player took `taken` of `available` houses.
    ChainStopped {
        /// Houses taken.
        taken: u8,
        /// Houses the rules allowed.
        available: u8,
    },
    /// `seat` passed.
    ForcedPass {
        /// Who passed.
        seat: Seat,
    },
    /// `seat` had to feed his opponent.
    Feed {
        /// Who fed.
        seat: Seat,
    },
    /// The game ended because `seat` could not move.
    EndBlocked {
        /// The blocked player.
        seat: Seat,
    },
    /// Neither player could move.
    EndNoMoves,
    /// The game ended because `seat`'s row was empty.
    RowEmpty {
        /// Whose row.
        seat: Seat,
    },
    /// `counters` were left in `seat`'s row at the end.
    Remaining {
        /// Whose row.
        seat: Seat,
        /// How many.
        counters: u32,
        /// Whether they counted for him.
        counted: bool,
    },
    /// Both totals were `score`.
    Tie {
        /// The equal total.
        score: u32,
    },
    /// The game starts again.
    Replay,
    /// The replayed game would tie again at once, for ever.
    ReplayCycle,
    /// A position recurred.
    Repetition,
    /// The implicit all-pass draw.
    AllPassDraw,
    /// The cap was reached after `plies` decisions in turn `turns`.
    CapReached {
        /// Turn number.
        turns: u32,
        /// Decisions.
        plies: u32,
    },
    /// A quirk-listed move was played.
    LeftHoleQuirk,
}

impl Event for SowingEvent {
    type Kind = SowingEventKind;
    fn kind(&self) -> SowingEventKind {
        use SowingEventKind as K;
        match self {
            SowingEvent::Lot { .. } => K::Lot,
            SowingEvent::Relay { .. } => K::Relay,
            SowingEvent::RelayCycle => K::RelayCycle,
            SowingEvent::Lap { .. } => K::Lap,
            SowingEvent::Capture { .. } => K::Capture,
            SowingEvent::CaptureDeclined { .. } => K::CaptureDeclined,
            SowingEvent::Chain { .. } => K::Chain,
            SowingEvent::ChainOwnRow { .. } => K::ChainOwnRow,
            SowingEvent::ChainRowStop { .. } => K::ChainRowStop,
            SowingEvent::ChainStopped { .. } => K::ChainStopped,
            SowingEvent::ForcedPass { .. } => K::ForcedPass,
            SowingEvent::Feed { .. } => K::Feed,
            SowingEvent::EndBlocked { .. } => K::EndBlocked,
            SowingEvent::RowEmpty { .. } => K::RowEmpty,
            SowingEvent::EndNoMoves => K::EndNoMoves,
            SowingEvent::Remaining { .. } => K::Remaining,
            SowingEvent::Tie { .. } => K::Tie,
            SowingEvent::Replay => K::Replay,
            SowingEvent::ReplayCycle => K::ReplayCycle,
            SowingEvent::Repetition => K::Repetition,
            SowingEvent::AllPassDraw => K::AllPassDraw,
            SowingEvent::CapReached { .. } => K::CapReached,
            SowingEvent::LeftHoleQuirk => K::LeftHoleQuirk,
        }
    }
}

impl fmt::Display for SowingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.kind().name();
        match *self {
            SowingEvent::Lot { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::Lap { counters } => write!(f, "{name} counters={counters}"),
            SowingEvent::Capture { house, counters }
            | SowingEvent::Chain { house, counters }
            | SowingEvent::Relay { house, counters } => {
                write!(f, "{name} house=#{house} counters={counters}")
            }
            SowingEvent::CaptureDeclined { house }
            | SowingEvent::ChainOwnRow { house }
            | SowingEvent::ChainRowStop { house } => write!(f, "{name} house=#{house}"),
            SowingEvent::ChainStopped { taken, available } => {
                write!(f, "{name} taken={taken} of={available}")
            }
            SowingEvent::ForcedPass { seat }
            | SowingEvent::Feed { seat }
            | SowingEvent::EndBlocked { seat }
            | SowingEvent::RowEmpty { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::Remaining {
                seat,
                counters,
                counted,
            } => write!(
                f,
                "{name} seat={} counters={counters} counted={counted}",
                seat + 1
            ),
            SowingEvent::Tie { score } => write!(f, "{name} score={score}"),
            SowingEvent::CapReached { turns, plies } => {
                write!(f, "{name} turn={turns} plies={plies}")
            }
            SowingEvent::Replay
            | SowingEvent::EndNoMoves
            | SowingEvent::ReplayCycle
            | SowingEvent::RelayCycle
            | SowingEvent::Repetition
            | SowingEvent::AllPassDraw
            | SowingEvent::LeftHoleQuirk => f.write_str(name),
        }
    }
}

/// Parameters that cannot be played together, or out of the engine's range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SowingError {
    /// Board size.
    #[error("holes = {0}: the sowing engine plays rows of 1 to {MAX_HOLES} houses")]
    Holes(u8),
    /// Counters per house.
    #[error("counters = {0}: the sowing engine plays 0 to 64 counters a house")]
    Counters(u8),
    /// Minimum to sow.
    #[error("min_sow = 0: a house must hold at least 1 counter to be sown")]
    MinSow,
    /// Capture count out of range.
    #[error("capture_counts contains {0}: counts must be 1 to 127")]
    CaptureCount(u8),
    /// The all-passed end test needs the neither-can-move end.
    #[error(
        "end_check = all-passed tests \"neither player can move\" once both have passed; it needs end = neither-can-move, not {0}"
    )]
    EndCheck(String),
    /// The quirk needs a second house.
    #[error("ludii_left_hole_quirk needs at least 2 houses a row")]
    Quirk,
    /// A cap without a limit.
    #[error("cap needs `turns` or `moves`, each at least 1")]
    Cap,
}

/// One house on round the circuit of `r` houses.
#[inline]
fn step(h: usize, dir: Dir, r: usize) -> usize {
    match dir {
        Dir::Ccw => {
            if h + 1 == r {
                0
            } else {
                h + 1
            }
        }
        Dir::Cw => {
            if h == 0 {
                r - 1
            } else {
                h - 1
            }
        }
    }
}

/// A position given house by house, checked by [`Sowing::setup`] into a playable state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SowingSetup {
    /// Each seat's houses, from that player's left.
    pub rows: [Vec<u16>; 2],
    /// Counters each seat has taken.
    pub stores: [u32; 2],
    /// Who moves.
    pub to_move: Seat,
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Lot,
    Play,
    Over,
}

/// A position of a sowing game.
#[derive(Debug, Clone)]
pub struct SowingState {
    board: [u16; RING],
    store: [u32; 2],
    mover: u8,
    phase: Phase,
    plies: u32,
    turns: u32,
    last_mover: u8,
    passes: u8,
    must_feed: bool,
    outcome: Option<Outcome>,
    history: Vec<([u16; RING], u8)>,
    /// Plies made when the current game (re)started: a replayed game that ends again
    /// before any decision would replay for ever.
    game_start: u32,
}

impl SowingState {
    /// Counters in a house (circuit index).
    pub fn house(&self, house: usize) -> u16 {
        self.board[house]
    }

    /// Counters each seat has taken.
    pub fn stores(&self) -> [u32; 2] {
        self.store
    }

    /// Counters on the board and in the stores together.
    pub fn total(&self) -> u32 {
        self.board.iter().map(|&c| u32::from(c)).sum::<u32>() + self.store[0] + self.store[1]
    }

    /// Who is to move (once the game is over: who would have moved next).
    pub fn mover(&self) -> Seat {
        self.mover as Seat
    }
}

#[derive(Debug, Clone, Copy)]
struct Cand {
    house: u8,
    dir: Dir,
    quirk: bool,
}

/// A sowing game's rules, resolved from its parameters.
#[derive(Debug, Clone)]
pub struct Sowing {
    p: SowingParams,
    n: usize,
    r: usize,
    capture_mask: u128,
    cands: [[Cand; RING]; 2],
    ncands: [usize; 2],
    optional_take: bool,
    cap_turns: u32,
    cap_moves: u32,
    /// `order[dir][origin][k]`: the k-th house a sowing from `origin` fills (one lap).
    order: Box<[[[u8; RING]; RING]; 2]>,
    /// `rank[dir][origin][house]`: the inverse of `order`; `NOT_SOWN` for a skipped origin
    /// and for array slots beyond the circuit.
    rank: Box<[[[i16; RING]; RING]; 2]>,
    /// Per seat, the candidate sowings as moves, in list order (compulsory captures).
    cand_moves: [[SowingMove; RING]; 2],
}

/// `rank` of a house a sowing never fills. Ranks are `i16`, the width of the board, so that
/// sowing a whole window is one vector compare-and-add (SSE2 compares signed 16-bit lanes).
const NOT_SOWN: i16 = i16::MAX;

impl Sowing {
    /// Resolves the parameters into tables.
    ///
    /// # Errors
    /// [`SowingError`] for parameters the engine cannot play or that contradict each other.
    pub fn new(p: &SowingParams) -> Result<Self, SowingError> {
        if p.holes == 0 || usize::from(p.holes) > MAX_HOLES {
            return Err(SowingError::Holes(p.holes));
        }
        if p.counters > 64 {
            return Err(SowingError::Counters(p.counters));
        }
        if p.min_sow == 0 {
            return Err(SowingError::MinSow);
        }
        let mut capture_mask = 0u128;
        for &c in &p.capture_counts {
            if c == 0 || c >= 128 {
                return Err(SowingError::CaptureCount(c));
            }
            capture_mask |= 1u128 << c;
        }
        if p.end_check == EndCheck::AllPassed && p.end != End::NeitherCanMove {
            let end = serde_json::to_value(p.end).expect("enums serialise");
            return Err(SowingError::EndCheck(
                end.as_str().unwrap_or_default().to_owned(),
            ));
        }
        if p.ludii_left_hole_quirk && p.holes < 2 {
            return Err(SowingError::Quirk);
        }
        let (cap_turns, cap_moves) = match p.cap {
            None => (u32::MAX, u32::MAX),
            Some(cap) => {
                if cap.turns.unwrap_or(0) == 0 && cap.moves.unwrap_or(0) == 0
                    || cap.turns == Some(0)
                    || cap.moves == Some(0)
                {
                    return Err(SowingError::Cap);
                }
                (cap.turns.unwrap_or(u32::MAX), cap.moves.unwrap_or(u32::MAX))
            }
        };
        let n = usize::from(p.holes);
        let mut cands = [[Cand {
            house: 0,
            dir: Dir::Cw,
            quirk: false,
        }; RING]; 2];
        let mut ncands = [0; 2];
        for seat in 0..2 {
            for j in 0..n {
                let dirs: &[Dir] = match p.direction {
                    Direction::Clockwise => &[Dir::Cw],
                    Direction::Anticlockwise => &[Dir::Ccw],
                    Direction::Either => &[Dir::Cw, Dir::Ccw],
                    Direction::Outward => {
                        // Left of the middle sows toward the left, right of it toward the
                        // right; an odd row's middle house either way.
                        if n % 2 == 1 && j == n / 2 {
                            &[Dir::Cw, Dir::Ccw]
                        } else if 2 * j < n {
                            &[Dir::Cw]
                        } else {
                            &[Dir::Ccw]
                        }
                    }
                };
                for &dir in dirs {
                    // Ludii 1.0.8 reads seat 0's map value 0 (its left house) as missing and
                    // falls back to the key, 1: the move is listed, but from the next house.
                    let quirk = p.ludii_left_hole_quirk && seat == 0 && j == 0;
                    let house = seat * n + if quirk { 1 } else { j };
                    cands[seat][ncands[seat]] = Cand {
                        house: house as u8,
                        dir,
                        quirk,
                    };
                    ncands[seat] += 1;
                }
            }
        }
        let r = 2 * n;
        let mut order = Box::new([[[0u8; RING]; RING]; 2]);
        let mut rank = Box::new([[[NOT_SOWN; RING]; RING]; 2]);
        for (d, dir) in [Dir::Cw, Dir::Ccw].into_iter().enumerate() {
            for origin in 0..r {
                let mut h = origin;
                let mut k = 0;
                while k < r - usize::from(p.skip_origin) {
                    h = step(h, dir, r);
                    if h == origin && p.skip_origin {
                        h = step(h, dir, r);
                    }
                    order[d][origin][k] = h as u8;
                    rank[d][origin][h] = k as i16;
                    k += 1;
                }
            }
        }
        let mut cand_moves = [[SowingMove::Pass; RING]; 2];
        for seat in 0..2 {
            for (m, c) in cand_moves[seat]
                .iter_mut()
                .zip(&cands[seat][..ncands[seat]])
            {
                *m = SowingMove::Sow {
                    house: c.house,
                    dir: c.dir,
                    take: TAKE_ALL,
                    quirk: c.quirk,
                };
            }
        }
        let optional_take = p.capture_last == Compulsion::Optional
            || (p.chain == Chain::Backward && p.chain_take != ChainTake::Compulsory);
        Ok(Sowing {
            p: p.clone(),
            n,
            r: 2 * n,
            capture_mask,
            cands,
            ncands,
            optional_take,
            cap_turns,
            cap_moves,
            order,
            rank,
            cand_moves,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &SowingParams {
        &self.p
    }

    /// Houses in a row.
    pub fn holes(&self) -> usize {
        self.n
    }

    /// A move displayed with house names (`a3 cw`).
    pub fn display(&self, mv: SowingMove) -> MoveDisplay {
        MoveDisplay { mv, holes: self.n }
    }

    /// Checks a setup into a position (which may already be over, if nobody can move).
    ///
    /// # Errors
    /// [`SetupError`] for rows of the wrong length or a seat that does not exist.
    pub fn setup(&self, setup: &SowingSetup) -> Result<SowingState, SetupError> {
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
        state.board = [0; RING];
        for (seat, row) in setup.rows.iter().enumerate() {
            state.board[seat * self.n..(seat + 1) * self.n].copy_from_slice(row);
        }
        state.store = setup.stores;
        state.mover = setup.to_move as u8;
        state.phase = Phase::Play;
        // A set-up position is not the start of a game: a tie here replays from the start.
        state.game_start = u32::MAX;
        self.settle(&mut state, &mut NoEvents);
        Ok(state)
    }

    /// The board as text, seat 1's row on top as seat 0 sees it (his right to his left),
    /// seat 0's row below from his left, then the stores.
    pub fn board_text(&self, s: &SowingState) -> String {
        let n = self.n;
        let top: Vec<String> = (n..2 * n).rev().map(|h| s.board[h].to_string()).collect();
        let bottom: Vec<String> = (0..n).map(|h| s.board[h].to_string()).collect();
        format!(
            "b{n}..b1: {} | a1..a{n}: {} | taken {}-{}",
            top.join(" "),
            bottom.join(" "),
            s.store[0],
            s.store[1]
        )
    }

    #[inline]
    fn prev(&self, h: usize, dir: Dir) -> usize {
        step(
            h,
            match dir {
                Dir::Cw => Dir::Ccw,
                Dir::Ccw => Dir::Cw,
            },
            self.r,
        )
    }

    #[inline]
    fn captures(&self, count: u16) -> bool {
        count < 128 && self.capture_mask >> count & 1 == 1
    }

    #[inline]
    fn row_ok(&self, rows: Rows, house: usize, mover: usize) -> bool {
        let owner = house / self.n;
        match rows {
            Rows::Opponent => owner != mover,
            Rows::Own => owner == mover,
            Rows::Any => true,
        }
    }

    #[inline]
    fn can_move(&self, board: &[u16; RING], seat: usize) -> bool {
        let min = u16::from(self.p.min_sow);
        self.cands[seat][..self.ncands[seat]]
            .iter()
            .any(|c| board[c.house as usize] >= min)
    }

    /// Sows `house` in `dir` on `board`: returns the last house. Emits a lap event.
    #[inline]
    fn sow_counters(
        &self,
        board: &mut [u16; RING],
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> usize {
        let counters = board[house];
        board[house] = 0;
        if usize::from(counters) >= self.r {
            events.emit(SowingEvent::Lap { counters });
        }
        // Every house gets one counter per whole lap, and the first `rem` houses in sowing
        // order one more: computed for all slots at once from the rank table, without a
        // branch per counter (a sowing's length is data no branch predictor can learn).
        let d = dir as usize;
        let rank = &self.rank[d][house];
        let lap = self.r - usize::from(self.p.skip_origin);
        let mut rem = usize::from(counters);
        let mut laps = 0u16;
        while rem >= lap {
            rem -= lap;
            laps += 1;
        }
        // On a local copy, so the compiler sees two plain arrays and vectorises.
        let mut b = *board;
        let rank: [i16; RING] = *rank;
        if laps > 0 {
            for i in 0..RING {
                b[i] = b[i].wrapping_add(laps & ((rank[i] != NOT_SOWN) as u16).wrapping_neg());
            }
        }
        let below = rem as i16;
        for i in 0..RING {
            b[i] = b[i].wrapping_add((rank[i] < below) as u16);
        }
        *board = b;
        let last = if rem > 0 { rem - 1 } else { lap - 1 };
        usize::from(self.order[d][house][last])
    }

    /// How many houses the last counter and the chain may take, from `last` back toward
    /// `origin` (never examined), and the house where the chain stopped only because of its
    /// row.
    #[inline]
    fn capture_run(
        &self,
        board: &[u16; RING],
        origin: usize,
        last: usize,
        dir: Dir,
        mover: usize,
    ) -> (u8, Option<usize>) {
        if !self.row_ok(self.p.capture_rows, last, mover) || !self.captures(board[last]) {
            return (0, None);
        }
        if self.p.chain == Chain::None {
            return (1, None);
        }
        let mut len = 1u8;
        let mut h = last;
        loop {
            h = self.prev(h, dir);
            if h == origin || !self.captures(board[h]) {
                return (len, None);
            }
            if !self.row_ok(self.p.chain_rows, h, mover) {
                return (len, Some(h));
            }
            len += 1;
        }
    }

    /// Sows from `house`, relaying if the reading does: returns the origin of the last lap
    /// and the house of the last counter, or `None` if the relay can never end (the board is
    /// then left where the cycle was found).
    fn sow_all(
        &self,
        board: &mut [u16; RING],
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Option<(usize, usize)> {
        let mut origin = house;
        let mut last = self.sow_counters(board, origin, dir, events);
        if !self.p.relay {
            return Some((origin, last));
        }
        // Brent's cycle detection on (board, house) once a relay has gone on for long: the
        // counters are finite, so a relay either stops or revisits a position.
        let mut laps = 0u32;
        let mut saved = (*board, last);
        let (mut power, mut lam) = (1u32, 0u32);
        while board[last] > 1 {
            events.emit(SowingEvent::Relay {
                house: last as u8,
                counters: board[last],
            });
            origin = last;
            last = self.sow_counters(board, origin, dir, events);
            laps += 1;
            if laps >= 64 {
                if (*board, last) == saved {
                    events.emit(SowingEvent::RelayCycle);
                    return None;
                }
                lam += 1;
                if lam == power {
                    saved = (*board, last);
                    power *= 2;
                    lam = 0;
                }
            }
        }
        Some((origin, last))
    }

    /// Sows and captures on `board`/`store` for `mover`; the one implementation of a move,
    /// used for play and (with [`NoEvents`]) for looking ahead. Returns `false` if the
    /// sowing can never end.
    fn sow_and_take(
        &self,
        board: &mut [u16; RING],
        store: &mut [u32; 2],
        mover: usize,
        (house, dir, take): (usize, Dir, u8),
        events: &mut impl EventSink<SowingEvent>,
    ) -> bool {
        let Some((house, last)) = self.sow_all(board, house, dir, events) else {
            return false;
        };
        let (len, row_stop) = self.capture_run(board, house, last, dir, mover);
        let take = if take == TAKE_ALL { len } else { take.min(len) };
        if len > 0 && take == 0 {
            events.emit(SowingEvent::CaptureDeclined { house: last as u8 });
        }
        let mut h = last;
        for i in 0..take {
            let counters = board[h];
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
                if h / self.n == mover {
                    events.emit(SowingEvent::ChainOwnRow { house: h as u8 });
                }
            }
            h = self.prev(h, dir);
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
        true
    }

    /// The houses `take` may be for a sowing whose last counter and chain may take `len`.
    fn takes(&self, len: u8, mut push: impl FnMut(u8)) {
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

    /// Whether `feeder` has a move after which `seat` can move.
    #[cold]
    fn has_feeding_move(&self, s: &SowingState, feeder: usize) -> bool {
        let mut found = false;
        self.each_candidate(&s.board, feeder, |mv| {
            found = found || self.feeds(s, feeder, mv);
        });
        found
    }

    fn feeds(&self, s: &SowingState, feeder: usize, mv: SowingMove) -> bool {
        let SowingMove::Sow {
            house, dir, take, ..
        } = mv
        else {
            return false;
        };
        let mut board = s.board;
        let mut store = s.store;
        self.sow_and_take(
            &mut board,
            &mut store,
            feeder,
            (house as usize, dir, take),
            &mut NoEvents,
        ) && self.can_move(&board, 1 - feeder)
    }

    /// Every sowing the seat may make on `board`, capture choices included, in list order.
    fn candidate_moves(&self, board: &[u16; RING], seat: usize, out: &mut Vec<SowingMove>) {
        let min = u16::from(self.p.min_sow);
        let cands = &self.cands[seat][..self.ncands[seat]];
        if !self.optional_take {
            // Branch-free: write every candidate, advance past the eligible ones. Whether a
            // house may be sown is data the branch predictor cannot learn.
            let mut buf = [SowingMove::Pass; RING];
            let mut k = 0;
            for (c, &mv) in cands.iter().zip(&self.cand_moves[seat]) {
                buf[k] = mv;
                k += usize::from(board[c.house as usize] >= min);
            }
            // A fixed-size copy and a truncation: no length-dependent copy loop.
            let start = out.len();
            out.extend_from_slice(&buf);
            out.truncate(start + k);
            return;
        }
        self.each_candidate(board, seat, |mv| out.push(mv));
    }

    /// Calls `f` with every sowing the seat may make on `board`, capture choices included,
    /// in list order, without allocating.
    fn each_candidate(&self, board: &[u16; RING], seat: usize, mut f: impl FnMut(SowingMove)) {
        let min = u16::from(self.p.min_sow);
        for c in &self.cands[seat][..self.ncands[seat]] {
            let house = c.house as usize;
            if board[house] < min {
                continue;
            }
            if !self.optional_take {
                f(SowingMove::Sow {
                    house: c.house,
                    dir: c.dir,
                    take: TAKE_ALL,
                    quirk: c.quirk,
                });
                continue;
            }
            let mut b = *board;
            let len = match self.sow_all(&mut b, house, c.dir, &mut NoEvents) {
                Some((origin, last)) => self.capture_run(&b, origin, last, c.dir, seat).0,
                None => 0,
            };
            self.takes(len, |take| {
                f(SowingMove::Sow {
                    house: c.house,
                    dir: c.dir,
                    take,
                    quirk: c.quirk,
                });
            });
        }
    }

    /// Applies the end rules after a decision (or at the start): the game's own end rule,
    /// then the engine's all-pass draw, then its caps, then a repetition rule: Ludii's order
    /// (TRACES.md §3.5).
    fn settle(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        if s.phase != Phase::Play {
            return;
        }
        let next = s.mover as usize;
        let other = 1 - next;
        let no_moves = |s: &SowingState| !self.can_move(&s.board, 0) && !self.can_move(&s.board, 1);
        let ended = match self.p.end_check {
            EndCheck::AllPassed => s.passes >= 2,
            EndCheck::Immediate => match self.p.end {
                End::NeitherCanMove => no_moves(s),
                End::MoverBlocked => {
                    let blocked = !self.can_move(&s.board, next);
                    if blocked {
                        events.emit(SowingEvent::EndBlocked { seat: next });
                    }
                    blocked
                }
                End::OpponentFeeds => {
                    // Whoever can move while his opponent cannot must feed him, on his own
                    // turn; a blocked player to move passes so that his opponent can feed.
                    // The game ends when the blocked player cannot be fed.
                    s.must_feed = false;
                    let (blocked, feeder) = if !self.can_move(&s.board, next) {
                        (Some(next), other)
                    } else if !self.can_move(&s.board, other) {
                        (Some(other), next)
                    } else {
                        (None, next)
                    };
                    match blocked {
                        Some(seat) if !self.has_feeding_move(s, feeder) => {
                            events.emit(SowingEvent::EndBlocked { seat });
                            true
                        }
                        Some(_) => {
                            s.must_feed = feeder == next;
                            false
                        }
                        None => false,
                    }
                }
                End::RowEmpty => {
                    let empty = (0..2).find(|&seat| {
                        s.board[seat * self.n..(seat + 1) * self.n]
                            .iter()
                            .all(|&c| c == 0)
                    });
                    if let Some(seat) = empty {
                        events.emit(SowingEvent::RowEmpty { seat });
                        true
                    } else {
                        // Rows that hold only unsowable counters can never empty.
                        no_moves(s)
                    }
                }
            },
        };
        if ended {
            if self.p.end_check == EndCheck::AllPassed
                || matches!(self.p.end, End::NeitherCanMove | End::RowEmpty) && no_moves(s)
            {
                events.emit(SowingEvent::EndNoMoves);
            }
            self.finish(s, events);
            return;
        }
        if s.plies > 0 {
            if self.p.all_pass_draw && s.passes >= 2 {
                events.emit(SowingEvent::AllPassDraw);
                self.over(s, Result_::Draw, EndReason::AllPassDraw);
                return;
            }
            if s.turns >= self.cap_turns || s.plies >= self.cap_moves {
                events.emit(SowingEvent::CapReached {
                    turns: s.turns,
                    plies: s.plies,
                });
                let reason = if s.turns >= self.cap_turns {
                    EndReason::TurnCap
                } else {
                    EndReason::MoveCap
                };
                self.over(s, Result_::Draw, reason);
                return;
            }
        }
        if self.p.repetition == Repetition::Draw {
            // The exact position (houses and player to move), the start included.
            let position = (s.board, s.mover);
            if s.history.contains(&position) {
                events.emit(SowingEvent::Repetition);
                self.over(s, Result_::Draw, EndReason::Repetition);
            } else {
                s.history.push(position);
            }
        }
    }

    fn over(&self, s: &mut SowingState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result,
            end,
            scores: s.store,
        });
    }

    /// Scores a game whose own end rule fired.
    #[cold]
    fn finish(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        let mut scores = s.store;
        for (seat, score) in scores.iter_mut().enumerate() {
            let left: u32 = s.board[seat * self.n..(seat + 1) * self.n]
                .iter()
                .map(|&c| u32::from(c))
                .sum();
            if left > 0 {
                let counted = self.p.remaining == Remaining::Owner;
                events.emit(SowingEvent::Remaining {
                    seat,
                    counters: left,
                    counted,
                });
                if counted {
                    *score += left;
                }
            }
        }
        let result = if scores[0] == scores[1] {
            events.emit(SowingEvent::Tie { score: scores[0] });
            if self.p.tie == Tie::Replay && s.plies == s.game_start {
                // Nobody has decided anything since the start: the replay would end the
                // same way, for ever.
                events.emit(SowingEvent::ReplayCycle);
                self.over(s, Result_::Unfinished, EndReason::Cycle);
                return;
            }
            if self.p.tie == Tie::Replay {
                events.emit(SowingEvent::Replay);
                self.restart(s);
                self.settle(s, events);
                return;
            }
            Result_::Draw
        } else if scores[0] > scores[1] {
            Result_::Win(1)
        } else {
            Result_::Win(2)
        };
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result,
            end: EndReason::Natural,
            scores,
        });
    }

    /// Sets up the board for a (new) game, keeping the ply and turn counts.
    fn restart(&self, s: &mut SowingState) {
        s.board = [0; RING];
        s.board[..self.r].fill(u16::from(self.p.counters));
        s.store = [0; 2];
        s.passes = 0;
        s.must_feed = false;
        s.outcome = None;
        s.history.clear();
        s.game_start = s.plies;
        match self.p.starter {
            Starter::FirstSeat => {
                s.mover = 0;
                s.phase = Phase::Play;
            }
            Starter::Lot => {
                s.mover = 0;
                s.phase = Phase::Lot;
            }
        }
    }
}

impl Rules for Sowing {
    type State = SowingState;
    type Move = SowingMove;
    type Event = SowingEvent;

    fn initial(&self) -> SowingState {
        let mut s = SowingState {
            board: [0; RING],
            store: [0; 2],
            mover: 0,
            phase: Phase::Play,
            plies: 0,
            turns: 0,
            last_mover: NO_SEAT,
            passes: 0,
            must_feed: false,
            outcome: None,
            history: Vec::new(),
            game_start: 0,
        };
        self.reset(&mut s, &mut NoEvents);
        s
    }

    fn reset(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        s.plies = 0;
        s.turns = 0;
        s.last_mover = NO_SEAT;
        self.restart(s);
        self.settle(s, events);
    }

    fn status(&self, s: &SowingState) -> Status {
        match s.phase {
            Phase::Lot => Status::Chance,
            Phase::Play => Status::ToMove(s.mover as usize),
            Phase::Over => Status::Over,
        }
    }

    fn legal_moves(&self, s: &SowingState, out: &mut Vec<SowingMove>) {
        out.clear();
        if s.phase != Phase::Play {
            return;
        }
        let seat = s.mover as usize;
        self.candidate_moves(&s.board, seat, out);
        if s.must_feed {
            out.retain(|&mv| self.feeds(s, seat, mv));
        }
        if out.is_empty() {
            out.push(SowingMove::Pass);
        }
    }

    fn apply(&self, s: &mut SowingState, mv: SowingMove, events: &mut impl EventSink<SowingEvent>) {
        debug_assert_eq!(s.phase, Phase::Play);
        let seat = s.mover as usize;
        s.plies += 1;
        if s.last_mover != s.mover {
            s.turns += 1;
            s.last_mover = s.mover;
        }
        match mv {
            SowingMove::Pass => {
                s.passes += 1;
                events.emit(SowingEvent::ForcedPass { seat });
            }
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } => {
                if s.must_feed {
                    events.emit(SowingEvent::Feed { seat });
                }
                if quirk {
                    events.emit(SowingEvent::LeftHoleQuirk);
                }
                s.passes = 0;
                s.must_feed = false;
                let before = s.store[seat];
                let ends = self.sow_and_take(
                    &mut s.board,
                    &mut s.store,
                    seat,
                    (house as usize, dir, take),
                    events,
                );
                if !ends {
                    s.mover = 1 - s.mover;
                    self.over(s, Result_::Unfinished, EndReason::Cycle);
                    return;
                }
                if s.store[seat] != before {
                    // Counters only leave the board, so no earlier position can recur.
                    s.history.clear();
                }
            }
        }
        s.mover = 1 - s.mover;
        self.settle(s, events);
    }

    fn chance_outcomes(&self, s: &SowingState) -> &'static [u32] {
        if s.phase == Phase::Lot { &[1, 1] } else { &[] }
    }

    fn apply_chance(
        &self,
        s: &mut SowingState,
        k: usize,
        events: &mut impl EventSink<SowingEvent>,
    ) {
        debug_assert_eq!(s.phase, Phase::Lot);
        events.emit(SowingEvent::Lot { seat: k });
        s.mover = k as u8;
        s.phase = Phase::Play;
        self.settle(s, events);
    }

    fn outcome(&self, s: &SowingState) -> Option<Outcome> {
        s.outcome
    }

    fn plies(&self, s: &SowingState) -> u32 {
        s.plies
    }

    fn turns(&self, s: &SowingState) -> u32 {
        s.turns
    }

    fn has_cap(&self) -> bool {
        self.p.cap.is_some()
    }

    fn is_pass(&self, mv: SowingMove) -> bool {
        mv == SowingMove::Pass
    }

    fn move_text(&self, mv: SowingMove) -> String {
        self.display(mv).to_string()
    }

    fn event_text(&self, event: &SowingEvent) -> String {
        // The Display form names houses by circuit index; here they get their names.
        let name = |h: u8| house_name(usize::from(h), self.n);
        let kind = event.kind().name();
        match *event {
            SowingEvent::Capture { house, counters }
            | SowingEvent::Chain { house, counters }
            | SowingEvent::Relay { house, counters } => {
                format!("{kind} {} ({counters})", name(house))
            }
            SowingEvent::CaptureDeclined { house }
            | SowingEvent::ChainOwnRow { house }
            | SowingEvent::ChainRowStop { house } => format!("{kind} {}", name(house)),
            _ => event.to_string(),
        }
    }

    fn state_text(&self, s: &SowingState) -> String {
        self.board_text(s)
    }
}
