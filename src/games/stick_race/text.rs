//! How houses, throws, moves, events and the board are written: the house names (`a1`), the
//! throws' names, a move or an event with houses named or as indices (`#12`), and the board
//! as rows.
//!
//! Each text is written once: a move's words and an event's are one match each, whatever
//! names the houses (`MoveText` and `EventDisplay`, of which the `Display` forms are the case
//! without the board's width).

use super::*;

/// The name of a throw.
pub fn throw_name(throw: u8) -> &'static str {
    match throw {
        1 => "tâba",
        2 => "yômên",
        4 => "rabî'",
        6 => "séta",
        _ => "?",
    }
}

/// A house's name: column letter and row number from the bottom left (`a1`).
pub fn house_name(house: usize, cols: usize) -> String {
    let col = (b'a' + (house % cols) as u8) as char;
    format!("{col}{}", house / cols + 1)
}

/// Reads a house name (`c3`) on a board `cols` houses wide (the row is not bounded here).
pub fn parse_house(text: &str, cols: usize) -> Option<usize> {
    let mut chars = text.chars();
    let col = (chars.next()? as usize).checked_sub('a' as usize)?;
    let row = chars.as_str();
    if row.is_empty() || !row.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = row.parse().ok()?;
    (col < cols && row >= 1).then(|| (row - 1) * cols + col)
}

/// A house as a text names it: by its name where the board's width is known (`c3`, or `off`
/// for a counter borne off), else by its index (`#12`).
#[derive(Clone, Copy)]
struct HouseLabel {
    house: u8,
    cols: Option<usize>,
}

impl fmt::Display for HouseLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cols {
            Some(_) if self.house == OFF => f.write_str("off"),
            Some(cols) => f.write_str(&house_name(usize::from(self.house), cols)),
            None => write!(f, "#{}", self.house),
        }
    }
}

/// A move written with its houses named (`cols` known) or as indices.
pub(super) struct MoveText {
    pub(super) mv: StickMove,
    pub(super) cols: Option<usize>,
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let house = |house: u8| HouseLabel {
            house,
            cols: self.cols,
        };
        match self.mv {
            StickMove::Bank => f.write_str("bank"),
            StickMove::Release { from, to } if from == to => write!(f, "release {}", house(from)),
            StickMove::Release { from, to } => {
                write!(f, "release {}-{}", house(from), house(to))
            }
            StickMove::CreditRelease { from, to } if from == to => {
                write!(f, "credit-release {}", house(from))
            }
            StickMove::CreditRelease { from, to } => {
                write!(f, "credit-release {}-{}", house(from), house(to))
            }
            StickMove::Move {
                from,
                to,
                spent,
                with_credit,
            } => {
                if to == OFF {
                    write!(f, "{}-off", house(from))?;
                } else {
                    write!(f, "{}-{}", house(from), house(to))?;
                }
                if with_credit {
                    // With house names the credit is spelt out.
                    if self.cols.is_some() {
                        write!(f, " +{spent} credit")?;
                    } else {
                        write!(f, "+{spent}")?;
                    }
                }
                Ok(())
            }
            StickMove::Pass => f.write_str("pass"),
        }
    }
}

impl fmt::Display for StickMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without the board's width, houses are shown as indices.
        MoveText {
            mv: *self,
            cols: None,
        }
        .fmt(f)
    }
}

/// An event written given the board's width: the events about one house name it (`capture
/// c3`); without it, and for every other event, the fields are written `key=value`, houses as
/// indices (`capture house=#12`).
pub(super) struct EventDisplay {
    pub(super) event: StickRaceEvent,
    pub(super) cols: Option<usize>,
}

impl fmt::Display for StickRaceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        EventDisplay {
            event: *self,
            cols: None,
        }
        .fmt(f)
    }
}

impl fmt::Display for EventDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.event.kind().name();
        match self.event {
            StickRaceEvent::Lot { seat }
            | StickRaceEvent::Banked { seat }
            | StickRaceEvent::YomenStops { seat }
            | StickRaceEvent::Declined { seat }
            | StickRaceEvent::Annihilation { seat } => write!(f, "{name} seat={}", seat + 1),
            StickRaceEvent::Released { house }
            | StickRaceEvent::CreditRelease { house }
            | StickRaceEvent::Capture { house }
            | StickRaceEvent::LandingCapture { house }
            | StickRaceEvent::OvertakingCapture { house }
            | StickRaceEvent::OvertakenSpared { house }
            | StickRaceEvent::PassedOver { house }
            | StickRaceEvent::StoppedAtEnd { house }
            | StickRaceEvent::SharedHouse { house }
            | StickRaceEvent::WentRound { house }
            | StickRaceEvent::BorneOff { house } => match self.cols {
                Some(cols) => write!(f, "{name} {}", house_name(usize::from(house), cols)),
                None => write!(f, "{name} house=#{house}"),
            },
            StickRaceEvent::CreditCapture { spent } | StickRaceEvent::CreditMove { spent } => {
                write!(f, "{name} spent={spent}")
            }
            StickRaceEvent::UnusableThrow { seat, throw }
            | StickRaceEvent::ThrowBanked { seat, throw } => {
                write!(f, "{name} seat={} throw={throw}", seat + 1)
            }
            StickRaceEvent::CapReached { turns, plies } => {
                write!(f, "{name} turns={turns} plies={plies}")
            }
            StickRaceEvent::AgreedTime { turns } => write!(f, "{name} turns={turns}"),
            StickRaceEvent::EmptyCredit
            | StickRaceEvent::FinalRows
            | StickRaceEvent::EqualCaptures
            | StickRaceEvent::CoursesRun
            | StickRaceEvent::Standstill
            | StickRaceEvent::Endless => f.write_str(name),
        }
    }
}

impl StickRace {
    /// The board as text: rows from the top, `x`/`X` seat 1 (released / not), `o`/`O` seat 2,
    /// `*` a counter of each side on one house, `.` empty.
    pub fn board_text(&self, s: &StickRaceState) -> String {
        let mut out = String::new();
        for r in (0..self.rows).rev() {
            if r + 1 != self.rows {
                out.push('/');
            }
            for col in 0..self.cols {
                let h = r * self.cols + col;
                out.push(match (s.has(0, h), s.has(1, h)) {
                    (true, true) => '*',
                    (true, false) if s.is_active_of(0, h) => 'x',
                    (true, false) => 'X',
                    (false, true) if s.is_active_of(1, h) => 'o',
                    (false, true) => 'O',
                    (false, false) => '.',
                });
            }
        }
        out
    }
}

impl StickRace {
    /// The board as a picture: the last row on top, each house its counters (`x` a released
    /// counter of the first seat, `X` one not yet released, `o` and `O` the second seat's,
    /// as [`StickRace::board_text`] writes them; a number after them where several stand
    /// together), marked while not yet released; beside it the banks, the counters eaten
    /// and the throw in hand.
    pub fn board_view(&self, s: &StickRaceState) -> view::BoardView {
        let rows = (0..self.rows)
            .rev()
            .map(|r| {
                (0..self.cols)
                    .map(|col| {
                        let h = r * self.cols + col;
                        let mut text = String::new();
                        let mut seat = None;
                        let mut marked = false;
                        for (side, (active, waiting)) in
                            [('x', 'X'), ('o', 'O')].into_iter().enumerate()
                        {
                            let n = s.count(side, h);
                            if n == 0 {
                                continue;
                            }
                            let waits = s.is_waiting(side, h);
                            marked |= waits;
                            seat = Some(side as u8);
                            text.push(if waits { waiting } else { active });
                            if n > 1 {
                                text.push_str(&n.to_string());
                            }
                        }
                        view::SiteView::new(house_name(h, self.cols), text, seat, marked)
                    })
                    .collect()
            })
            .collect();
        let mut notes = vec![
            ("bank".to_owned(), format!("{}-{}", s.bank[0], s.bank[1])),
            ("eaten".to_owned(), format!("{}-{}", s.score[0], s.score[1])),
        ];
        if s.home != [0, 0] {
            notes.push((
                "borne off".to_owned(),
                format!("{}-{}", s.home[0], s.home[1]),
            ));
        }
        if s.phase == Phase::Decide {
            notes.push(("throw".to_owned(), s.throw.to_string()));
        }
        view::BoardView { rows, notes }
    }

    /// The parameters a move of this kind applies (see [`crate::games::Rules::move_params`]).
    pub fn move_rule(mv: StickMove) -> &'static [&'static str] {
        match mv {
            StickMove::Bank => &["release", "credits"],
            StickMove::Release { .. } => &["release", "release_moves"],
            StickMove::CreditRelease { .. } => &["release", "credits"],
            StickMove::Move {
                spent: 0,
                with_credit: false,
                ..
            } => &["track", "capture", "overshoot"],
            StickMove::Move { .. } => &["track", "capture", "overshoot", "credits"],
            StickMove::Pass => &["must_move", "unusable"],
        }
    }
}
