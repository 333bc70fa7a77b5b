//! How cells, moves, events and the board are written: the cell names (`a1`, as in chess),
//! a move or an event with cells named or as indices (`#12`), and the board as rows.
//!
//! Each text is written once: a move's words and an event's are one match each, whatever
//! names the cells (`MoveText` and `EventDisplay`, of which the `Display` forms are the case
//! without the board size).

use super::*;

/// A cell's name: column letter and row number from the bottom left (`a1`), as in chess.
pub fn cell_name(cell: usize, size: usize) -> String {
    let col = (b'a' + (cell % size) as u8) as char;
    format!("{col}{}", cell / size + 1)
}

/// Reads a cell name (`c3`) on a board of the given side.
pub fn parse_cell(text: &str, size: usize) -> Option<u8> {
    let mut chars = text.chars();
    let col = chars.next()?;
    let row: usize = chars.as_str().parse().ok()?;
    let col = (col as usize).checked_sub('a' as usize)?;
    (col < size && (1..=size).contains(&row)).then(|| ((row - 1) * size + col) as u8)
}

/// A cell as a text names it: by its name where the board size is known (`c3`), else by its
/// index (`#12`).
#[derive(Clone, Copy)]
struct CellLabel {
    cell: u8,
    size: Option<usize>,
}

impl fmt::Display for CellLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.size {
            Some(size) => f.write_str(&cell_name(usize::from(self.cell), size)),
            None => write!(f, "#{}", self.cell),
        }
    }
}

/// A move written with its cells named (`size` known) or as indices.
struct MoveText {
    mv: CustodialMove,
    size: Option<usize>,
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |cell: u8| CellLabel {
            cell,
            size: self.size,
        };
        match self.mv {
            CustodialMove::Pass => f.write_str("pass"),
            CustodialMove::Place(c) => write!(f, "place {}", cell(c)),
            CustodialMove::Step { from, to } => write!(f, "{}-{}", cell(from), cell(to)),
            CustodialMove::PlacePair(a, b) => write!(f, "place {}+{}", cell(a), cell(b)),
        }
    }
}

impl fmt::Display for CustodialMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without the board size, cells are shown as indices.
        MoveText {
            mv: *self,
            size: None,
        }
        .fmt(f)
    }
}

/// An event written given the board size: the events about one cell name it (`capture
/// c3`); without it, and for every other event, the fields are written `key=value`, cells as
/// indices (`capture cell=#12`).
pub(super) struct EventDisplay {
    pub(super) event: CustodialEvent,
    pub(super) size: Option<usize>,
}

impl fmt::Display for CustodialEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        EventDisplay {
            event: *self,
            size: None,
        }
        .fmt(f)
    }
}

impl fmt::Display for EventDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.event.kind().name();
        match self.event {
            CustodialEvent::Capture { cell }
            | CustodialEvent::Suicide { cell }
            | CustodialEvent::SandwichSafe { cell }
            | CustodialEvent::PlacementCapture { cell }
            | CustodialEvent::PlacementFlank { cell }
            | CustodialEvent::Continuation { cell }
            | CustodialEvent::LooseContinuation { cell }
            | CustodialEvent::ContinuationForgone { cell }
            | CustodialEvent::Jump { over: cell } => match self.size {
                Some(size) => write!(f, "{name} {}", cell_name(usize::from(cell), size)),
                None => write!(f, "{name} cell=#{cell}"),
            },
            CustodialEvent::Lot { seat }
            | CustodialEvent::ForcedPass { seat }
            | CustodialEvent::Opening { seat }
            | CustodialEvent::NoOpening { seat }
            | CustodialEvent::BlockedLoss { seat }
            | CustodialEvent::FirstBlocked { seat }
            | CustodialEvent::VoluntaryPass { seat }
            | CustodialEvent::TotalCapture { seat } => write!(f, "{name} seat={}", seat + 1),
            CustodialEvent::BlockedCount { seat, pieces } => write!(
                f,
                "{name} seat={} pieces={}-{}",
                seat + 1,
                pieces[0],
                pieces[1]
            ),
            CustodialEvent::StallEnd { pieces } => {
                write!(f, "{name} pieces={}-{}", pieces[0], pieces[1])
            }
            CustodialEvent::LineCapture { pieces } => write!(f, "{name} pieces={pieces}"),
            CustodialEvent::LongStep { cells } => write!(f, "{name} cells={cells}"),
            CustodialEvent::CapReached { turns, plies } => {
                write!(f, "{name} turn={turns} plies={plies}")
            }
            CustodialEvent::CentreSafe
            | CustodialEvent::CentreTaken
            | CustodialEvent::EmptyContinuation
            | CustodialEvent::PlacementRedone
            | CustodialEvent::CaptureForced
            | CustodialEvent::AllPassDraw
            | CustodialEvent::LonePieces => f.write_str(name),
        }
    }
}

impl Custodial {
    /// A move in notation with cell names (`place c3`, `b3-c3`).
    pub fn display(&self, mv: CustodialMove) -> String {
        MoveText {
            mv,
            size: Some(self.n),
        }
        .to_string()
    }

    /// The board as text: rows from the top, `x` seat 1, `o` seat 2, `.` empty.
    pub fn board_text(&self, s: &CustodialState) -> String {
        let mut out = String::new();
        for r in (0..self.n).rev() {
            if r + 1 != self.n {
                out.push('/');
            }
            for col in 0..self.n {
                out.push(match s.who(r * self.n + col) {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => '.',
                });
            }
        }
        out
    }
}

impl Custodial {
    /// The board as a picture: the last row on top, each cell its piece (`x` the first
    /// seat's, `o` the second's, as [`Custodial::board_text`] writes them), the pieces in
    /// hand and those eaten beside it.
    pub fn board_view(&self, s: &CustodialState) -> view::BoardView {
        let rows = (0..self.n)
            .rev()
            .map(|r| {
                (0..self.n)
                    .map(|col| {
                        let cell = r * self.n + col;
                        let who = s.who(cell);
                        let text = match who {
                            Some(0) => "x",
                            Some(_) => "o",
                            None => "",
                        };
                        view::SiteView::new(
                            cell_name(cell, self.n),
                            text.to_owned(),
                            who.map(|w| w as u8),
                            false,
                        )
                    })
                    .collect()
            })
            .collect();
        view::BoardView {
            rows,
            notes: vec![
                ("hands".to_owned(), format!("{}-{}", s.hand[0], s.hand[1])),
                ("eaten".to_owned(), format!("{}-{}", s.taken[0], s.taken[1])),
            ],
        }
    }

    /// The parameters a move of this kind applies (see [`crate::games::Rules::move_params`]).
    pub fn move_rule(mv: CustodialMove) -> &'static [&'static str] {
        match mv {
            CustodialMove::Pass => &["blocked", "voluntary_pass"],
            CustodialMove::Place(_) | CustodialMove::PlacePair(..) => &["per_turn", "placing"],
            CustodialMove::Step { .. } => &["step", "compulsory_capture"],
        }
    }
}
