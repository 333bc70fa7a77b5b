//! The rules engines: one per family, each a pure function of typed parameters.
//!
//! An engine is a [`Rules`] value built once from a family's parameter struct (checked there,
//! so an impossible combination is an error before any game starts) and a state it plays on:
//! legal moves into a caller's buffer, apply a move, status (a seat to move, a chance step,
//! or over with an [`Outcome`]). Every state change a rule causes is reported to an
//! [`EventSink`] as a typed event; each event kind names the parameters that decided it, which
//! is how the simulator finds the rules that fired on an interpolation.
//!
//! Architecture Invariant: nothing here knows of files, YAML, JSON, terminals, interpretation
//! ids or random generators. Chance is a [`Status::Chance`] step whose outcomes the caller
//! picks.

pub(crate) mod bits;
pub mod core;
pub mod custodial;
pub mod position;
pub mod sowing;
pub mod spiral_race;
pub mod stick_race;
pub mod view;

/// Declares a family's event kinds once: the enum, its dense index, its stable names and the
/// parameters that decide each kind.
macro_rules! event_kinds {
    (
        $(#[$meta:meta])* pub enum $enum:ident;
        endless = [$($endless:literal),*];
        $( $(#[doc = $doc:literal])* $kind:ident = $name:literal [$($param:literal),*]
            $(in [$($context:literal),*])?, )*
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $enum { $( $(#[doc = $doc])* $kind, )* }

        impl EventKind for $enum {
            // At most 128: the simulator notes the kinds a game met in a `u128`.
            const COUNT: usize = {
                let n = [$($enum::$kind),*].len();
                assert!(n <= 128, "an event kind enum may have at most 128 kinds");
                n
            };
            const ALL: &'static [Self] = &[$($enum::$kind),*];
            const ENDLESS_PARAMS: &'static [&'static str] = &[$($endless),*];
            #[inline]
            fn index(self) -> usize { self as usize }
            fn name(self) -> &'static str {
                match self { $($enum::$kind => $name,)* }
            }
            fn params(self) -> &'static [&'static str] {
                match self { $($enum::$kind => &[$($param),*],)* }
            }
            fn context(self) -> &'static [&'static str] {
                match self { $($enum::$kind => &[$($($context),*)?],)* }
            }
        }
    };
}

pub(crate) use event_kinds;

use std::fmt;

/// A seat at the board: 0 is the first seat (Davies' A, Ludii's P1), 1 the second.
pub type Seat = usize;

/// The most sites a board may report as occupied ([`Rules::occupied`]): a spiral of 250
/// steps has 251 hollows.
pub const MAX_SITES: usize = 256;

/// A set of board sites, bit `i` of word `i / 128` for site `i`.
pub type Sites = [u128; 2];

/// What happens next in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The seat must choose one of the legal moves.
    ToMove(Seat),
    /// A chance step: the caller picks one of [`Rules::chance_outcomes`] with its weight.
    Chance,
    /// The game is over; [`Rules::outcome`] says how.
    Over,
}

/// Who won, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result_ {
    /// One seat (or, in games with several winners, several) won: bit i is seat i.
    Win(u8),
    /// Nobody won.
    Draw,
    /// The rules cannot finish the game (e.g. a sowing that would go round for ever): the
    /// runner counts it as a timeout, never as a draw.
    Unfinished,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// The game's own end rule.
    Natural,
    /// An engine's implicit all-pass draw (Ludii: the last moves of all players were passes).
    AllPassDraw,
    /// A position recurred (a repetition rule).
    Repetition,
    /// An engine's turn cap.
    TurnCap,
    /// An engine's move cap.
    MoveCap,
    /// A move that can never end (a relay that cycles) was detected.
    Cycle,
    /// No end of the game can be reached any more under the reading's rules (the engine
    /// proved it: for instance the hyena can no longer arrive home exactly).
    Endless,
    /// The engine's own search inside a forced stretch (a relay within one move, stages that
    /// end before any decision) reached its bound without finding a cycle: nothing is
    /// proved, and the game is stopped unfinished as if by a limit (censored).
    SearchLimit,
}

impl EndReason {
    /// Every end reason.
    pub const ALL: [EndReason; 8] = [
        EndReason::Natural,
        EndReason::AllPassDraw,
        EndReason::Repetition,
        EndReason::TurnCap,
        EndReason::MoveCap,
        EndReason::Cycle,
        EndReason::Endless,
        EndReason::SearchLimit,
    ];

    /// A stable name, as Ludii's traces spell the same ends where they have them.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Natural => "natural",
            EndReason::AllPassDraw => "all-pass-draw",
            EndReason::Repetition => "repetition",
            EndReason::TurnCap => "turn-cap",
            EndReason::MoveCap => "move-cap",
            EndReason::Cycle => "cycle",
            EndReason::Endless => "endless",
            EndReason::SearchLimit => "search-limit",
        }
    }

    /// Whether an engine cap ended the game.
    pub fn capped(self) -> bool {
        matches!(self, EndReason::TurnCap | EndReason::MoveCap)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Win or draw.
    pub result: Result_,
    /// Why it ended.
    pub end: EndReason,
    /// Final scores, where the game scores (counters taken, captures); zero otherwise.
    pub scores: [u32; 2],
    /// Each seat's place where the game ranks its players (1 the best; equal places share a
    /// number), [`Outcome::UNRANKED`] where it does not.
    pub ranks: [u8; 8],
}

impl Outcome {
    /// The ranks of a game that ranks nobody.
    pub const UNRANKED: [u8; 8] = [0; 8];

    /// Whether the game ranked its players.
    pub fn is_ranked(&self) -> bool {
        self.ranks[0] != 0
    }

    /// Whether the seat is among the winners.
    pub fn won(&self, seat: Seat) -> bool {
        matches!(self.result, Result_::Win(mask) if mask & (1 << seat) != 0)
    }
}

/// The kinds of event a family emits: a dense index for counting without allocation, a
/// stable name for output, and the parameters whose values decided the event.
pub trait EventKind: Copy + fmt::Debug + 'static {
    /// Number of kinds (at most 128).
    const COUNT: usize;
    /// Every kind, in index order.
    const ALL: &'static [Self];
    /// The dense index, `0..COUNT`.
    fn index(self) -> usize;
    /// A stable kebab-case name.
    fn name(self) -> &'static str;
    /// The family parameters that decided that this event happened the way it did. When a
    /// parameter's value rests on an interpolation, the event is *uncovered*.
    fn params(self) -> &'static [&'static str];
    /// For a kind no parameter decides (a counter eaten whatever the rule that ate it, a
    /// mother at the well), the parameters of the rule it applies (`Capture = "capture" []
    /// in ["capture_line"]`): the clause that sets them, or leaves their open point open,
    /// states the rule (`explain` names it), but their values play no part in the event,
    /// which is never uncovered or borrowed on their account.
    fn context(self) -> &'static [&'static str];
    /// The parameters that decide whether a game can go on for ever (a repetition rule, a
    /// cap): a timeout at the run's ply limit is uncovered when one of them is interpolated.
    const ENDLESS_PARAMS: &'static [&'static str];
}

/// An event with its data.
pub trait Event: Copy + fmt::Debug + fmt::Display {
    /// Its kind.
    type Kind: EventKind;
    /// Its kind.
    fn kind(&self) -> Self::Kind;
}

/// Where an engine reports events.
pub trait EventSink<E> {
    /// One event.
    fn emit(&mut self, event: E);
    /// The events of `cycle`, in order, `times` over: a stretch of forced plies
    /// ([`Rules::forced_plies`]) reported at once. A sink that only counts may add them up.
    fn emit_cycle(&mut self, cycle: &[E], times: u32)
    where
        E: Copy,
    {
        for _ in 0..times {
            for &event in cycle {
                self.emit(event);
            }
        }
    }
}

/// Discards events.
pub struct NoEvents;

impl<E> EventSink<E> for NoEvents {
    #[inline]
    fn emit(&mut self, _: E) {}
}

impl<E> EventSink<E> for Vec<E> {
    fn emit(&mut self, event: E) {
        self.push(event);
    }
}

/// Where an engine's move generation writes: a list, or (to ask only whether there is a
/// move, without allocating) a count.
pub(crate) trait MoveSink<M> {
    fn push(&mut self, mv: M);
}

impl<M> MoveSink<M> for Vec<M> {
    #[inline]
    fn push(&mut self, mv: M) {
        Vec::push(self, mv);
    }
}

/// Counts moves without keeping them.
pub(crate) struct Count(pub usize);

impl<M> MoveSink<M> for Count {
    #[inline]
    fn push(&mut self, _: M) {
        self.0 += 1;
    }
}

/// A rules engine.
pub trait Rules: Sync {
    /// A position with everything needed to go on (board, who moves, counters of plies).
    type State: Clone + Send + fmt::Debug;
    /// A decision.
    type Move: Copy + PartialEq + fmt::Debug + fmt::Display + Send;
    /// What the rules report.
    type Event: Event;

    /// The position before anything happens (which may be a chance step). Events of the
    /// start itself (a game over before any move) are discarded: [`Rules::reset`] reports them.
    fn initial(&self) -> Self::State;
    /// Puts `state` back to [`Rules::initial`], reusing its allocations, and reports the
    /// events of the start (rules that fire before any move).
    fn reset(&self, state: &mut Self::State, events: &mut impl EventSink<Self::Event>);
    /// What happens next.
    fn status(&self, state: &Self::State) -> Status;
    /// The legal moves, in a stable order (duplicates kept where the rules list a move twice),
    /// into `out`, which is cleared first.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);
    /// Plays a move. The move must be one of [`Rules::legal_moves`]; anything else is a bug in
    /// the caller and may leave the state inconsistent (use [`Rules::play`] to check).
    fn apply(
        &self,
        state: &mut Self::State,
        mv: Self::Move,
        events: &mut impl EventSink<Self::Event>,
    );
    /// The weights of the outcomes of the pending chance step (empty if none is pending).
    fn chance_outcomes(&self, state: &Self::State) -> &'static [u32];
    /// Resolves the pending chance step with outcome `k` (an index into the weights).
    fn apply_chance(
        &self,
        state: &mut Self::State,
        k: usize,
        events: &mut impl EventSink<Self::Event>,
    );
    /// How the game ended, once it is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// The game's clock: plies, turns, passes and the first mover ([`core::Clock`]).
    fn clock<'s>(&self, state: &'s Self::State) -> &'s core::Clock;
    /// The engine's validated cap ([`core::Limit`]).
    fn limit(&self) -> core::Limit;
    /// Decisions made so far (forced passes included).
    fn plies(&self, state: &Self::State) -> u32 {
        self.clock(state).plies()
    }
    /// Turns so far: runs of consecutive decisions by the same seat.
    fn turns(&self, state: &Self::State) -> u32 {
        self.clock(state).turns()
    }
    /// The seat that made the first decision of play (after any lot and distribution).
    fn first_mover(&self, state: &Self::State) -> Option<Seat> {
        self.clock(state).first_mover()
    }
    /// Whether the engine itself caps the game (then the runner must not stop it early: the
    /// cap, validated by [`core::Limit::new`], ends it).
    fn has_cap(&self) -> bool {
        self.limit().is_on()
    }
    /// The number of seats (players), at most 8.
    fn seats(&self) -> usize {
        2
    }
    /// Whether a move is a pass.
    fn is_pass(&self, mv: Self::Move) -> bool;
    /// The seat's standing on the board, as the greedy player (`crate::agents`) counts it:
    /// greedy plays the move after which its own material exceeds the best opponent's by the
    /// most. Each engine says what it counts (counters taken, pieces kept, progress along a
    /// track and captures); it need not decide the game, only rank positions along the way.
    fn material(&self, state: &Self::State, seat: Seat) -> i64;
    /// The seat's standing as every search agent (`crate::agents`: greedy, the rollouts of
    /// MCTS cut at a depth, alpha-beta and expectimax) scores a position it does not search
    /// further: one evaluation a family, in the units of [`Rules::material`] scaled as the
    /// engine says. The default is the material itself (sowing: counters taken and points;
    /// the races: distance run and counters eaten); the custodial family adds mobility.
    /// Like the material it ranks positions along the way and never decides a game.
    fn evaluate(&self, state: &Self::State, seat: Seat) -> i64 {
        self.material(state, seat)
    }
    /// A cheap hash of what decides the position's play (the board, the mover, the phase,
    /// the clock), for the alpha-beta agent's table of best moves; `None` (the default)
    /// where the engine offers none, and the search then orders moves without it. Two
    /// states with one key may still differ in their history (a repetition set, a stall
    /// count): the table only orders moves, it never stands for a value, so a key need not
    /// be exact, only cheap and deterministic.
    fn key(&self, _state: &Self::State) -> Option<u64> {
        None
    }
    /// A hash of the position as a player sees it, without the clock (the board, hands,
    /// stores, the mover and the phase): two states with one position key are the same
    /// position met again, which is what the positional-repetition measure of self-play
    /// (`crate::sim`'s game metrics) counts. `None` (the default) where the engine offers
    /// none, and the measure is then not taken.
    fn position_key(&self, _state: &Self::State) -> Option<u64> {
        None
    }
    /// The board's sites (houses, cells, hollows), at most [`MAX_SITES`]; 0 (the default)
    /// where the engine does not say which sites are occupied, and board coverage is then
    /// not measured.
    fn board_sites(&self) -> usize {
        0
    }
    /// The sites that hold a piece or a counter now, as bits `0..board_sites()` of
    /// [`Sites`].
    fn occupied(&self, _state: &Self::State) -> Sites {
        [0; 2]
    }
    /// Uniform random play's decision: calls `pick(n)` once with the number of legal moves
    /// and returns the move at the index it gives, in [`Rules::legal_moves`]' order, with `n`.
    /// `buf` is scratch space. An engine may override this to find the move without listing
    /// them all; the result must be exactly `legal_moves(state)[pick(n)]`.
    fn choose(
        &self,
        state: &Self::State,
        buf: &mut Vec<Self::Move>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (Self::Move, usize) {
        self.legal_moves(state, buf);
        let n = buf.len();
        (buf[pick(n)], n)
    }

    /// One decision of uniform random play, [`Rules::choose`] then [`Rules::apply`]: returns
    /// the number of legal moves and whether the move played was a pass. An engine may fuse
    /// the two for its common case; the state and events must be exactly those of the pair.
    fn play_random(
        &self,
        state: &mut Self::State,
        buf: &mut Vec<Self::Move>,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<Self::Event>,
    ) -> (usize, bool) {
        let (mv, n) = self.choose(state, buf, pick);
        let pass = self.is_pass(mv);
        self.apply(state, mv, events);
        (n, pass)
    }

    /// Uniform random play's forced stretch, after a decision that had one legal move: the
    /// decisions that follow, where the engine can tell them in closed form, played at once
    /// (at most `budget` of them); returns how many. Each must be a decision among one legal
    /// move, not a pass, and the state and events (in order, through
    /// [`EventSink::emit_cycle`]) exactly those of playing them one by one; the runner
    /// counts each as such a decision and skips the one random word that `pick(1)` would
    /// have drawn for it. The default finds none.
    fn forced_plies(
        &self,
        _state: &mut Self::State,
        _budget: u32,
        _events: &mut impl EventSink<Self::Event>,
    ) -> u32 {
        0
    }
    /// A move in the game's notation, for logs and playthroughs.
    fn move_text(&self, mv: Self::Move) -> String {
        mv.to_string()
    }
    /// An event in the game's notation.
    fn event_text(&self, event: &Self::Event) -> String {
        event.to_string()
    }
    /// A position as one line of text.
    fn state_text(&self, state: &Self::State) -> String;
    /// What outcome `k` of the pending chance step is, in words (`the lot`, `the sticks
    /// fall 4 (rabî')`), for `explain`: asked before the outcome is applied.
    fn chance_text(&self, state: &Self::State, k: usize) -> String;
    /// A position as a picture: the board's sites in rows with what each holds, and what
    /// lies beside the board (`explain`'s diagram and viewer).
    fn board(&self, state: &Self::State) -> view::BoardView;
    /// The position in the position notation ([`position`]): one line of `field=value`
    /// words that [`Rules::parse_position`] reads back into a state that plays on as this
    /// one does.
    fn position_text(&self, state: &Self::State) -> String;
    /// Reads a position written in the notation, checks it against the rules (board size,
    /// counters, seats) and settles it as the engine settles a position after a move (a
    /// position in which nobody can move is over).
    ///
    /// # Errors
    /// [`position::PositionError`], naming the column, the field and the form expected.
    fn parse_position(&self, text: &str) -> Result<Self::State, position::PositionError>;
    /// The fields of the engine's notation, with their forms (the guide and the errors list
    /// them); the clock's ([`position::CLOCK_FIELDS`]) come on top.
    fn position_fields(&self) -> &'static [position::FieldSpec];
    /// Whether a position, its notation without the clock, decides everything that follows
    /// (what `crate::solve` needs of a key): `Err` names the rule that also reads the
    /// positions met before or the clock (a repetition rule, a limit on moves).
    ///
    /// # Errors
    /// The reason, for the user.
    fn position_decides(&self) -> Result<(), String>;
    /// The family parameters that decide which moves of this kind are legal and what the
    /// move does before any event (a sowing's direction and the houses it may start from, a
    /// step's length, a pass's rule): the rule a move applies, as [`EventKind::params`] is
    /// the rule an event applies. Never empty: every move rests on some rule.
    fn move_params(&self, mv: Self::Move) -> &'static [&'static str];

    /// Plays a move after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] if the move is not among the legal moves.
    fn play(
        &self,
        state: &mut Self::State,
        mv: Self::Move,
        events: &mut impl EventSink<Self::Event>,
    ) -> Result<(), IllegalMove> {
        let mut legal = Vec::new();
        self.legal_moves(state, &mut legal);
        if !matches!(self.status(state), Status::ToMove(_)) || !legal.contains(&mv) {
            return Err(IllegalMove {
                mv: mv.to_string(),
                legal: legal.iter().map(ToString::to_string).collect(),
            });
        }
        self.apply(state, mv, events);
        Ok(())
    }
}

/// A move that the position does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}; the legal moves are: {}", if legal.is_empty() { "none".to_owned() } else { legal.join(", ") })]
pub struct IllegalMove {
    /// The move, as displayed.
    pub mv: String,
    /// The legal moves, as displayed.
    pub legal: Vec<String>,
}
