//! The adapter between Ludii and the engines: Ludii's site numbering, its compact move
//! descriptors and its end names on one side, the engines' own positions and moves on the
//! other. The engines never know of Ludii; everything that translates a Ludii trace (the
//! format of `tests/data/ludii-traces/TRACES.md`) into engine terms lives here, and the
//! trace replays use it to play a recorded Ludii game through an engine.
//!
//! # Sowing games
//!
//! The sowing engine stores its board in circuit order: seat 0's row is houses `0..n` from
//! that player's left, seat 1's row `n..2n` from *his* left, anticlockwise is +1. Ludii
//! numbers the same board row by row: sites `0..n` are P1's (seat 0's) row from left to right,
//! sites `n..2n` P2's row in the same left-to-right order *as P1 sees it*, so site `n` is above
//! site 0:
//!
//! ```text
//!   Ludii sites (n = 5)          engine houses
//!   5  6  7  8  9                9  8  7  6  5
//!   0  1  2  3  4                0  1  2  3  4
//! ```
//!
//! Ludii's `TrackCCW` (0 → 1 → … → n−1 → 2n−1 → … → n → 0) is the engine's
//! [`Dir::Ccw`], `TrackCW` its [`Dir::Cw`]. House `h < n` is site `h`; house `h ≥ n` is site
//! `3n − 1 − h`. Ludii's hands (captured seeds) are the engine's stores.
//!
//! # Custodial games (Seega)
//!
//! Ludii numbers Seega's `n × n` board `n·row + col`, row 0 at the bottom, exactly as the
//! custodial engine does, so a site is a cell. The hands are the extra sites `n²` (P1) and
//! `n² + 1` (P2): a placement is `Move:H>t` from the mover's hand site, a step `Move:a>b`.
//!
//! # Stick races (Sijat El Taba)
//!
//! Ludii numbers Sijat's board `cols·row + col`, row 0 at the bottom, as the stick-race engine
//! does, so a site is a house. Its throw (pips 0→6, 1→1, 2→2, 3→4) is the engine's chance
//! outcome ([`stick_throw_outcome`]). A banked tâba is `Pass:tab`, a release `Select:s>s`, a
//! move `Move:a>b` or, landing on an enemy, `Remove+Move:a>b`; a move with the banked tâbas
//! added carries the tag `:tabcap`; a forced pass is `Pass`.

pub mod replay;

use crate::games::custodial::{Custodial, CustodialMove, CustodialState};
use crate::games::sowing::{Dir, Sowing, SowingMove, SowingState};
use crate::games::stick_race::{OFF, StickMove, StickRace, StickRaceState, THROWS};
use crate::games::{EndReason, Seat};

/// The engine house (circuit index) of a Ludii site of a two-row board of `holes` a row, or
/// `None` if there is no such site (hand sites included).
pub fn sowing_site_to_house(holes: usize, site: usize) -> Option<usize> {
    if site < holes {
        Some(site)
    } else if site < 2 * holes {
        Some(3 * holes - 1 - site)
    } else {
        None
    }
}

/// The Ludii site of an engine house (circuit index) of a two-row board of `holes` a row, or
/// `None` if there is no such house. The inverse of [`sowing_site_to_house`].
pub fn sowing_house_to_site(holes: usize, house: usize) -> Option<usize> {
    // The mapping is an involution on 0..2n.
    sowing_site_to_house(holes, house)
}

/// Ludii's track name for a sowing direction.
fn track_name(dir: Dir) -> &'static str {
    match dir {
        Dir::Cw => "TrackCW",
        Dir::Ccw => "TrackCCW",
    }
}

/// Ludii 1.0.8's compact descriptor of a sowing move (`Select:7>7:TrackCW`, `Pass`).
///
/// The capture choice (`take`) and the left-hole quirk flag are not part of it: under
/// compulsory capture Ludii's move is only the selected hole and its track, and the quirk
/// move is, to Ludii, a second copy of the centre move.
///
/// # Panics
/// If the move's house is not on a board of `holes` a row (a caller's bug).
pub fn sowing_descriptor(holes: usize, mv: SowingMove) -> String {
    match mv {
        SowingMove::Pass => "Pass".to_owned(),
        SowingMove::Sow { house, dir, .. } => {
            let site = sowing_house_to_site(holes, usize::from(house))
                .unwrap_or_else(|| panic!("house {house} is not on a board of {holes} a row"));
            format!("Select:{site}>{site}:{}", track_name(dir))
        }
        // Not in the Ludii 1.0.8 games: their own words, so that a comparison fails loudly.
        other => format!("(not a Ludii 1.0.8 move: {other})"),
    }
}

/// The board in Ludii site order (Ludii's `count`).
pub fn sowing_counts(rules: &Sowing, state: &SowingState) -> Vec<u16> {
    let n = rules.holes();
    (0..2 * n)
        .map(|site| {
            state.house(sowing_site_to_house(n, site).expect("every board site has a house"))
        })
        .collect()
}

/// The seeds in each player's hand (Ludii's `hand`, P1 first): the engine's stores.
pub fn sowing_hands(state: &SowingState) -> [u32; 2] {
    state.stores()
}

/// Ludii 1.0.8's compact descriptor of a Seega move by `seat` (`Move:25>9`, `Move:13>12`,
/// `Pass`).
pub fn custodial_descriptor(size: usize, seat: Seat, mv: CustodialMove) -> String {
    match mv {
        CustodialMove::Pass => "Pass".to_owned(),
        CustodialMove::Place(to) => format!("Move:{}>{to}", size * size + seat),
        CustodialMove::Step { from, to } => format!("Move:{from}>{to}"),
        // Ludii places one piece a decision; a pair, which it never plays, is shown as both.
        CustodialMove::PlacePair(a, b) => {
            format!("Move:{h}>{a}+Move:{h}>{b}", h = size * size + seat)
        }
    }
}

/// Who occupies each site (Ludii's `who`: 0 empty, 1 P1, 2 P2).
pub fn custodial_who(rules: &Custodial, state: &CustodialState) -> Vec<u8> {
    let n = rules.size();
    (0..n * n)
        .map(|c| state.who(c).map_or(0, |seat| seat as u8 + 1))
        .collect()
}

/// Ludii 1.0.8's compact descriptor of a Sijat move in `state` (before the move): `Pass:tab`,
/// `Select:0>0`, `Move:16>14`, `Remove+Move:39>37`, `Remove+Move:16>15:tabcap`, `Pass`.
/// `None` for a move Ludii has no descriptor for (a release by a banked tâba, one that moves
/// the counter, bearing off: rules no Ludii reading uses).
pub fn stick_descriptor(state: &StickRaceState, mv: StickMove) -> Option<String> {
    match mv {
        StickMove::Bank => Some("Pass:tab".to_owned()),
        StickMove::Pass => Some("Pass".to_owned()),
        StickMove::Release { from, to } if from == to => Some(format!("Select:{from}>{from}")),
        StickMove::Release { .. } | StickMove::CreditRelease { .. } => None,
        StickMove::Move {
            from,
            to,
            with_credit,
            ..
        } => {
            if to == OFF {
                return None;
            }
            let eats = state.who(usize::from(to)).is_some();
            let kind = if eats { "Remove+Move" } else { "Move" };
            let tag = if with_credit { ":tabcap" } else { "" };
            Some(format!("{kind}:{from}>{to}{tag}"))
        }
    }
}

/// The engine's chance outcome for a Ludii throw value (1, 2, 4 or 6).
pub fn stick_throw_outcome(throw: u8) -> Option<usize> {
    THROWS.iter().position(|&t| t == throw)
}

/// Who occupies each site (Ludii's `who`: 0 empty, 1 P1, 2 P2) and each site's `state`
/// (1 for a released counter).
pub fn stick_sites(rules: &StickRace, state: &StickRaceState) -> (Vec<u8>, Vec<u8>) {
    let houses = rules.rows() * rules.cols();
    let who = (0..houses)
        .map(|h| state.who(h).map_or(0, |seat| seat as u8 + 1))
        .collect();
    let active = (0..houses).map(|h| u8::from(state.is_active(h))).collect();
    (who, active)
}

/// Ludii's name (as the traces spell it) for why a game ended, where Ludii has one.
pub fn end_name(end: EndReason) -> Option<&'static str> {
    match end {
        EndReason::Natural => Some("natural"),
        EndReason::AllPassDraw => Some("allPassDraw"),
        EndReason::TurnCap => Some("turnLimit"),
        EndReason::MoveCap => Some("moveLimit"),
        EndReason::Repetition | EndReason::Cycle | EndReason::Endless | EndReason::SearchLimit => {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_hole_board_matches_the_traces_diagram() {
        // TRACES.md §4: P2's row 5..9 above P1's 0..4, site 5 above site 0.
        let houses: Vec<usize> = (0..10)
            .map(|s| sowing_site_to_house(5, s).unwrap())
            .collect();
        assert_eq!(houses, [0, 1, 2, 3, 4, 9, 8, 7, 6, 5]);
        assert_eq!(sowing_site_to_house(5, 10), None);
        assert_eq!(sowing_house_to_site(5, 10), None);
    }

    #[test]
    fn anticlockwise_circuit_is_ludii_track_ccw() {
        // TrackCCW 0→1→2→3→4→9→8→7→6→5→0 is the engine's +1 round the circuit.
        let track = [0, 1, 2, 3, 4, 9, 8, 7, 6, 5];
        for (i, &site) in track.iter().enumerate() {
            assert_eq!(sowing_site_to_house(5, site), Some(i));
        }
        // Um el Tuweisat, TrackCCW 0→1→2→5→4→3.
        for (i, &site) in [0, 1, 2, 5, 4, 3].iter().enumerate() {
            assert_eq!(sowing_house_to_site(3, i), Some(site));
        }
    }

    #[test]
    fn mapping_is_a_bijection_for_every_size() {
        for holes in 1..=16 {
            for site in 0..2 * holes {
                let house = sowing_site_to_house(holes, site).unwrap();
                assert!(house < 2 * holes);
                assert_eq!(sowing_house_to_site(holes, house), Some(site));
                // Each row stays its seat's row.
                assert_eq!(site < holes, house < holes);
            }
        }
    }

    #[test]
    fn left_houses_are_ludii_left_holes() {
        // Each seat's left house: P1 site 0, P2 site 2n−1 (he faces P1).
        assert_eq!(sowing_house_to_site(5, 0), Some(0));
        assert_eq!(sowing_house_to_site(5, 5), Some(9));
        assert_eq!(sowing_house_to_site(3, 3), Some(5));
    }

    #[test]
    fn sowing_descriptors_name_ludii_sites_and_tracks() {
        // Every house of both boards in both directions: its Ludii site, selected, and the
        // track (TRACES.md §2.3).
        for holes in [3, 5] {
            for house in 0..2 * holes {
                let site = sowing_house_to_site(holes, house).unwrap();
                for (dir, track) in [(Dir::Cw, "TrackCW"), (Dir::Ccw, "TrackCCW")] {
                    assert_eq!(
                        sowing_descriptor(holes, SowingMove::sow(house, dir)),
                        format!("Select:{site}>{site}:{track}")
                    );
                }
            }
        }
        assert_eq!(
            sowing_descriptor(5, SowingMove::sow(5, Dir::Cw)),
            "Select:9>9:TrackCW"
        );
        assert_eq!(
            sowing_descriptor(5, SowingMove::sow(7, Dir::Ccw)),
            "Select:7>7:TrackCCW"
        );
        assert_eq!(sowing_descriptor(5, SowingMove::Pass), "Pass");
        // The quirk flag and the take do not show: the quirk's copy is the centre move's twin.
        let quirk = SowingMove::Sow {
            house: 1,
            dir: Dir::Cw,
            take: u8::MAX,
            quirk: true,
        };
        assert_eq!(sowing_descriptor(3, quirk), "Select:1>1:TrackCW");
    }

    #[test]
    fn custodial_descriptors_place_from_the_movers_hand_site() {
        // On 5×5 the hands are sites 25 (P1) and 26 (P2).
        assert_eq!(
            custodial_descriptor(5, 0, CustodialMove::Place(9)),
            "Move:25>9"
        );
        assert_eq!(
            custodial_descriptor(5, 1, CustodialMove::Place(9)),
            "Move:26>9"
        );
        assert_eq!(
            custodial_descriptor(7, 1, CustodialMove::Place(0)),
            "Move:50>0"
        );
        assert_eq!(
            custodial_descriptor(5, 1, CustodialMove::Step { from: 13, to: 12 }),
            "Move:13>12"
        );
        assert_eq!(custodial_descriptor(5, 0, CustodialMove::Pass), "Pass");
    }

    #[test]
    fn end_names_are_the_traces_names() {
        assert_eq!(end_name(EndReason::Natural), Some("natural"));
        assert_eq!(end_name(EndReason::AllPassDraw), Some("allPassDraw"));
        assert_eq!(end_name(EndReason::TurnCap), Some("turnLimit"));
        assert_eq!(end_name(EndReason::MoveCap), Some("moveLimit"));
        // Ludii 1.0.8 has no repetition rule: no name, so a trace cannot claim one.
        assert_eq!(end_name(EndReason::Repetition), None);
        assert_eq!(end_name(EndReason::Cycle), None);
    }
}
