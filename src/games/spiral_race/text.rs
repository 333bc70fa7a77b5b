//! The spiral race drawn: the hollows from the village to the well in rows, each with the
//! pieces on it, and what each move applies.

use super::*;

/// Hollows a row of the picture: the spiral unrolled, village first, ten to a row.
const PER_ROW: usize = 10;

impl SpiralRace {
    /// The board as a picture: the spiral unrolled into rows of ten hollows, the village
    /// (hollow 0) first and the well last, each hollow the pieces on it (`1` to `4` a
    /// seat's mother, `H` the hyena), marked where a piece is on its way back; beside it
    /// who waits in the village, who is home or eaten, the banks, the hyena's master and
    /// the throw in hand.
    pub fn board_view(&self, s: &SpiralRaceState) -> view::BoardView {
        let hollows = usize::from(self.len) + 1;
        let mut text = vec![String::new(); hollows];
        let mut seat: Vec<Option<u8>> = vec![None; hollows];
        let mut back = vec![false; hollows];
        let mut place = |p: &Piece, label: char, owner: u8| {
            let at = match p.leg {
                Leg::Out | Leg::Back => usize::from(p.pos),
                Leg::Well => usize::from(self.len),
                Leg::Village | Leg::Home | Leg::Eaten => return,
            };
            text[at].push(label);
            seat[at] = Some(owner);
            back[at] |= p.leg == Leg::Back;
        };
        for (i, m) in s.mothers[..self.players].iter().enumerate() {
            place(m, char::from(b'1' + i as u8), i as u8);
        }
        if s.hyena_player != NONE {
            place(&s.hyena, 'H', s.hyena_player);
        }
        let rows = (0..hollows.div_ceil(PER_ROW))
            .map(|r| {
                (r * PER_ROW..(r + 1) * PER_ROW)
                    .map(|h| {
                        if h >= hollows {
                            return view::SiteView::default();
                        }
                        let name = match h {
                            0 => "V".to_owned(),
                            h if h == hollows - 1 => "W".to_owned(),
                            h => h.to_string(),
                        };
                        view::SiteView::new(name, text[h].clone(), seat[h], back[h])
                    })
                    .collect()
            })
            .collect();
        let who = |leg: Leg| {
            let seats: Vec<String> = (0..self.players)
                .filter(|&i| s.mothers[i].leg == leg)
                .map(|i| (i + 1).to_string())
                .collect();
            if seats.is_empty() {
                "-".to_owned()
            } else {
                seats.join(",")
            }
        };
        let banks: Vec<String> = s.bank[..self.players].iter().map(u32::to_string).collect();
        let mut notes = vec![
            ("village".to_owned(), who(Leg::Village)),
            ("home".to_owned(), who(Leg::Home)),
            ("eaten".to_owned(), who(Leg::Eaten)),
            ("bank".to_owned(), banks.join("-")),
            (
                "hyena".to_owned(),
                match s.hyena_player {
                    NONE => "-".to_owned(),
                    p => format!("seat {}", p + 1),
                },
            ),
        ];
        if s.phase == Phase::Decide {
            notes.push(("throw".to_owned(), s.throw.to_string()));
        }
        view::BoardView { rows, notes }
    }

    /// The parameters a move of this kind applies (see [`crate::games::Rules::move_params`]).
    pub fn move_rule(mv: SpiralMove) -> &'static [&'static str] {
        match mv {
            SpiralMove::Leave => &["leave"],
            SpiralMove::Bank => &["out_credit", "well_banking"],
            SpiralMove::Step { .. } => &["overshoot", "village_exact", "must_move"],
            SpiralMove::Credit { .. } => &["out_credit", "hyena_credit_step"],
            SpiralMove::Pay { .. } => &["well_cost", "well_pay", "hyena_release_cost"],
            SpiralMove::Keep | SpiralMove::Kept { .. } => &["well_banking"],
            SpiralMove::Exit { .. } => &["well_exit"],
            SpiralMove::Pass => &["must_move"],
        }
    }
}
