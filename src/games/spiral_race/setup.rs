//! The engine built from its parameters ([`SpiralRace::new`]: the checks, and the tables of
//! which distances can still be covered, and with how few credits, that the endless test
//! reads), and positions built for tests and worked examples.

use super::*;
use crate::family::spiral_race::{hyena_moves, reachable};

/// For each distance up to `len`, the fewest moves of `credit` hollows among moves adding up
/// to it exactly, the other `steps` costing nothing (`u32::MAX` where none do).
fn fewest_credits(len: u16, steps: &[u16], credit: u16) -> Vec<u32> {
    let mut best = vec![u32::MAX; usize::from(len) + 1];
    best[0] = 0;
    let moves = steps.iter().map(|&k| (k, 0)).chain([(credit, 1)]);
    for d in 1..best.len() {
        for (k, cost) in moves.clone() {
            let k = usize::from(k);
            if k == 0 || k > d || best[d - k] == u32::MAX {
                continue;
            }
            best[d] = best[d].min(best[d - k] + cost);
        }
    }
    best
}

impl SpiralRace {
    /// Resolves the parameters.
    ///
    /// # Errors
    /// [`SpiralRaceError`] for a track, player count or combination the engine cannot play.
    pub fn new(p: &SpiralRaceParams) -> Result<Self, SpiralRaceError> {
        if !(3..=250).contains(&p.track_len) {
            return Err(SpiralRaceError::Track(p.track_len));
        }
        if !(2..=MAX_PLAYERS).contains(&usize::from(p.players)) {
            return Err(SpiralRaceError::Players(p.players));
        }
        if p.hyena_credit_step > 2 {
            return Err(SpiralRaceError::CreditStep(p.hyena_credit_step));
        }
        if p.well_pay == WellPay::EachThrow && p.well_banking != WellBanking::Lost {
            return Err(SpiralRaceError::Banking(match p.well_banking {
                WellBanking::Separate => "separate",
                WellBanking::OneATurn => "one-a-turn",
                WellBanking::Hyena => "hyena",
                _ => "added",
            }));
        }
        if p.hyena_keeps && p.well_pay == WellPay::EachThrow {
            return Err(SpiralRaceError::HyenaKeeps);
        }
        if p.hyena_again && p.end != End::AllHome {
            return Err(SpiralRaceError::AgainWithEnd(match p.end {
                End::HyenaHome => "hyena-home",
                _ => "first-eaten",
            }));
        }
        let limit = Limit::new(p.cap)?;
        // A cost of 0 is nothing to pay: the piece is paid up as it arrives (`settle`), and
        // leaves as `well_exit` says. Only `with-last` needs a tâba to leave with. The
        // release cost is not a well's: the hyena leaves the village on his next move.
        if matches!(p.well_exit, WellExit::WithLast | WellExit::TwoLast) {
            if p.well_cost == 0 {
                return Err(SpiralRaceError::ZeroCostWithLast("well_cost"));
            }
            if p.hyena_well_cost == 0 {
                return Err(SpiralRaceError::ZeroCostWithLast("hyena_well_cost"));
            }
        }
        // The hyena's possible moves, for proving that he can never come home: every throw
        // that is played moves him double; a tâba moves him two where it is a move; a credit
        // step counts as always possible (so a proof never rests on his running out of them).
        // The family's static check (`cannot_end`) reads the same lists.
        let (throws, back) = hyena_moves(p);
        Ok(SpiralRace {
            p: p.clone(),
            len: p.track_len,
            players: usize::from(p.players),
            limit,
            home_reach: reachable(p.track_len, &back, p.village_exact),
            well_reach: reachable(p.track_len, &back, p.hyena_exact),
            home_credits: fewest_credits(p.track_len, &throws, u16::from(p.hyena_credit_step)),
            hyena_steps: back,
        })
    }

    /// Builds a position for tests and worked examples: each mother and the hyena where the
    /// closure puts them, banks, who is to move and the throw in hand.
    pub fn position(
        &self,
        mothers: &[Piece],
        hyena: Option<(Seat, Piece)>,
        bank: &[u32],
        to_move: Seat,
        throw: Option<u8>,
    ) -> SpiralRaceState {
        let mut s = self.initial();
        for (seat, m) in mothers.iter().enumerate().take(self.players) {
            s.mothers[seat] = *m;
            s.left[seat] = m.leg != Leg::Village;
        }
        if let Some((seat, h)) = hyena {
            s.hyena_player = seat as u8;
            s.hyena = h;
        }
        for (seat, &b) in bank.iter().enumerate().take(self.players) {
            s.bank[seat] = b;
        }
        s.eaten = s.mothers[..self.players]
            .iter()
            .filter(|m| m.leg == Leg::Eaten)
            .count() as u8;
        s.mover = to_move as u8;
        match throw {
            Some(t) => {
                s.throw = t;
                s.phase = Phase::Decide;
            }
            None => s.phase = Phase::Throw,
        }
        self.end_tests(&mut s, &mut NoEvents);
        s
    }
}
