//! How moves, events and boards are written: the house names (`a1`…`aN`, `b1`…`bN`), a move
//! with or without the board size, an event by circuit index or by house name, and the board
//! as one line.
//!
//! Each text is written once: a move's words and an event's are one match each, whatever
//! names the houses ([`MoveDisplay`] and `EventDisplay`, of which the `Display` forms are the
//! case without the board size).

use super::*;

/// The name of a house: `a1`…`aN` are seat 0's houses from his left, `b1`…`bN` seat 1's.
pub fn house_name(house: usize, holes: usize) -> String {
    let seat = if house < holes { 'a' } else { 'b' };
    format!("{seat}{}", house % holes + 1)
}

/// A house as a text names it: by its name where the board size is known (`a3`), else by
/// its circuit index (`#2`).
#[derive(Clone, Copy)]
struct HouseLabel {
    house: u8,
    holes: Option<usize>,
}

impl fmt::Display for HouseLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.holes {
            Some(holes) => f.write_str(&house_name(usize::from(self.house), holes)),
            None => write!(f, "#{}", self.house),
        }
    }
}

/// Displays a move given the board size (moves do not know it).
pub struct MoveDisplay {
    mv: SowingMove,
    /// The board size, or `None` where it is not known (houses shown as circuit indices).
    holes: Option<usize>,
}

impl fmt::Display for MoveDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let house = |house: u8| HouseLabel {
            house,
            holes: self.holes,
        };
        match self.mv {
            SowingMove::Pass => f.write_str("pass"),
            SowingMove::Gift { house: h } => write!(f, "gift from {}", house(h)),
            SowingMove::Distribute { house: h, count } => {
                write!(f, "put {count} in {}", house(h))
            }
            SowingMove::Keep => f.write_str("keep the board"),
            SowingMove::Turn => f.write_str("turn the board"),
            // "distribute in the conventional-four manner".
            SowingMove::Manner { manner } => match MANNERS.get(usize::from(manner)) {
                Some(m) => write!(f, "distribute in the {} manner", kebab_name(m)),
                None => write!(f, "distribute in manner #{manner}"),
            },
            SowingMove::PlaceExtra { downstream: true } => f.write_str("extra houses downstream"),
            SowingMove::PlaceExtra { downstream: false } => f.write_str("extra houses upstream"),
            SowingMove::Sow {
                house: h,
                dir,
                take,
                quirk,
            } => {
                write!(f, "{} {}", house(h), dir.name())?;
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
        MoveDisplay {
            mv: *self,
            holes: None,
        }
        .fmt(f)
    }
}

/// Displays an event given the board size: the events that name a house where a move was
/// sown, taken or marked name it (`capture a4 (3)`); without it, and for every other event,
/// the fields are written `key=value`, houses as circuit indices (`capture house=#3
/// counters=3`).
pub(super) struct EventDisplay {
    pub(super) event: SowingEvent,
    pub(super) holes: Option<usize>,
}

impl fmt::Display for SowingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        EventDisplay {
            event: *self,
            holes: None,
        }
        .fmt(f)
    }
}

impl fmt::Display for EventDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.event.kind().name();
        let named = |house: u8| {
            self.holes
                .map(|holes| house_name(usize::from(house), holes))
        };
        match self.event {
            SowingEvent::Capture { house, counters }
            | SowingEvent::Chain { house, counters }
            | SowingEvent::Peck { house, counters }
            | SowingEvent::Relay { house, counters } => match named(house) {
                Some(house) => write!(f, "{name} {house} ({counters})"),
                None => write!(f, "{name} house=#{house} counters={counters}"),
            },
            SowingEvent::Daughter { house }
            | SowingEvent::DaughterLost { house }
            | SowingEvent::Drink { house }
            | SowingEvent::OwnCountStop { house }
            | SowingEvent::CaptureDeclined { house }
            | SowingEvent::ChainOwnRow { house }
            | SowingEvent::ChainRowStop { house }
            | SowingEvent::ChainOrigin { house } => match named(house) {
                Some(house) => write!(f, "{name} {house}"),
                None => write!(f, "{name} house=#{house}"),
            },
            SowingEvent::Lot { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::Lap { counters } => write!(f, "{name} counters={counters}"),
            SowingEvent::Reckoning { holdings, houses } => write!(
                f,
                "{name} holdings={}-{} houses={}-{}",
                holdings[0], holdings[1], houses[0], houses[1]
            ),
            SowingEvent::BorrowThree { seat }
            | SowingEvent::BorrowBackOne { seat }
            | SowingEvent::BorrowBackTwo { seat }
            | SowingEvent::StageStarter { seat }
            | SowingEvent::Distributed { seat }
            | SowingEvent::BoardTurned { seat }
            | SowingEvent::NextDistributor { seat }
            | SowingEvent::DrivenOff { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::OppositeTaken { house, counters } => {
                write!(f, "{name} house=#{house} counters={counters}")
            }
            SowingEvent::Gift { seat, house } => {
                write!(f, "{name} seat={} house=#{house}", seat + 1)
            }
            SowingEvent::BoardScored { seat, points } => {
                write!(f, "{name} seat={} points={points}", seat + 1)
            }
            SowingEvent::DebtRepaid { seat, counters } => {
                write!(f, "{name} seat={} counters={counters}", seat + 1)
            }
            SowingEvent::ExtraHouses { seat, houses } => {
                write!(f, "{name} seat={} houses={houses}", seat + 1)
            }
            SowingEvent::StageEnd | SowingEvent::ExactFours => f.write_str(name),
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
            SowingEvent::CapReached { turns, plies } | SowingEvent::MoveLimit { turns, plies } => {
                write!(f, "{name} turn={turns} plies={plies}")
            }
            SowingEvent::TargetPassed { seat, points } => {
                write!(f, "{name} seat={} points={points}", seat + 1)
            }
            SowingEvent::Manner { manner } => match MANNERS.get(usize::from(manner)) {
                Some(m) => write!(f, "{name} manner={}", kebab_name(m)),
                None => write!(f, "{name} manner=#{manner}"),
            },
            SowingEvent::NoCapture | SowingEvent::Endless => f.write_str(name),
            SowingEvent::RelayCycle { sowings } => write!(f, "{name} sowings={sowings}"),
            SowingEvent::StageCycle { stages } => write!(f, "{name} stages={stages}"),
            SowingEvent::Replay
            | SowingEvent::EndNoMoves
            | SowingEvent::ReplayCycle
            | SowingEvent::RelayUnresolved
            | SowingEvent::IdleStagesUnresolved
            | SowingEvent::Repetition
            | SowingEvent::AllPassDraw
            | SowingEvent::LeftHoleQuirk => f.write_str(name),
            SowingEvent::EmptyDaughterStop { house } | SowingEvent::RelayCapped { house } => {
                write!(f, "{name} house=#{house}")
            }
            SowingEvent::RelayStandstill
            | SowingEvent::StageRepetition
            | SowingEvent::StageEndless => f.write_str(name),
            SowingEvent::UnhousedKept { seat, counters } => {
                write!(f, "{name} seat={} counters={counters}", seat + 1)
            }
            SowingEvent::GainerBorrowing { seat } | SowingEvent::ExtraHousesChosen { seat } => {
                write!(f, "{name} seat={}", seat + 1)
            }
        }
    }
}

impl Sowing {
    /// A move displayed with house names (`a3 cw`).
    pub fn display(&self, mv: SowingMove) -> MoveDisplay {
        MoveDisplay {
            mv,
            holes: Some(self.n),
        }
    }

    /// The board as text, seat 1's row on top as seat 0 sees it (his right to his left),
    /// seat 0's row below from his left, then the stores.
    pub fn board_text(&self, s: &SowingState) -> String {
        let n = self.n;
        let top: Vec<String> = (n..2 * n)
            .rev()
            .map(|h| s.pos.board[h].to_string())
            .collect();
        let bottom: Vec<String> = (0..n).map(|h| s.pos.board[h].to_string()).collect();
        format!(
            "b{n}..b1: {} | a1..a{n}: {} | taken {}-{}",
            top.join(" "),
            bottom.join(" "),
            s.pos.store[0],
            s.pos.store[1]
        )
    }
}

impl Sowing {
    /// The board as a picture: seat 1's row on top from his left as seat 0 sees it (`bN` to
    /// `b1`), seat 0's row below from his left, each house its count, its owner and whether
    /// it is a daughter's; beside it the takings, the counters in hand while a board is
    /// distributed, and the points across boards.
    pub fn board_view(&self, s: &SowingState) -> view::BoardView {
        let n = self.n;
        let site = |h: usize| {
            let count = s.pos.board[h];
            view::SiteView::new(
                house_name(h, n),
                if count == 0 {
                    String::new()
                } else {
                    count.to_string()
                },
                (s.pos.owner[h] != NO_SEAT).then_some(s.pos.owner[h]),
                s.pos.mark[h] != 0,
            )
        };
        let mut notes = vec![(
            "taken".to_owned(),
            format!("{}-{}", s.pos.store[0], s.pos.store[1]),
        )];
        if s.hand > 0 {
            notes.push(("in hand".to_owned(), s.hand.to_string()));
        }
        if self.p.rounds == Rounds::Points {
            notes.push((
                "points".to_owned(),
                format!("{}-{}", s.points[0], s.points[1]),
            ));
        }
        if s.pos.discarded > 0 {
            notes.push(("out of play".to_owned(), s.pos.discarded.to_string()));
        }
        view::BoardView {
            rows: vec![
                (n..2 * n).rev().map(site).collect(),
                (0..n).map(site).collect(),
            ],
            notes,
        }
    }

    /// The parameters a move of this kind applies (see [`crate::games::Rules::move_params`]).
    pub fn move_rule(mv: SowingMove) -> &'static [&'static str] {
        match mv {
            SowingMove::Pass => &["end", "end_check"],
            // What a lap does (`skip_origin`) is the `lap` event's rule.
            SowingMove::Sow { quirk: true, .. } => {
                &["direction", "min_sow", "sow_from", "ludii_left_hole_quirk"]
            }
            SowingMove::Sow { take, .. } if take != u8::MAX => &[
                "direction",
                "min_sow",
                "sow_from",
                "capture_last",
                "chain_take",
            ],
            SowingMove::Sow { .. } => &["direction", "min_sow", "sow_from"],
            SowingMove::Gift { .. } => &["gift"],
            SowingMove::Distribute { .. } | SowingMove::Manner { .. } => {
                &["distribution", "correspond"]
            }
            SowingMove::Keep | SowingMove::Turn => &["turn_board", "board_turn"],
            SowingMove::PlaceExtra { .. } => &["extra_houses"],
        }
    }
}
