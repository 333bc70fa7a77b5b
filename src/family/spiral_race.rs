//! The spiral-race family's parameters: Li'b el-Merafib, the hyena game, as Davies and its
//! later readers describe it.
//!
//! Each player's "mother" walks a spiral of hollows from the village to the well at its
//! centre, pays tâbas there to drink, wash and come away, and walks back; the first home lets
//! loose the hyena, which pays to leave the village, runs to the well at double rates, pays to
//! drink, and on its way back eats the women it overtakes. Moves come from the same three
//! casting sticks as Sijat El Taba (1, 2, 4, 6 with chances 3/8, 3/8, 1/8, 1/8): a player
//! throws until a yômên stops him, and tâbas are banked to his credit. Every open point of the
//! sources (the spiral's length, what the releasing tâba does, every tâba cost, banking at the
//! well, exact arrivals, what "overtakes" eats, who controls the hyena, what ends the game and
//! who wins) is one parameter here.
//!
//! The hollows are numbered along the spiral: 0 is the village, `track_len` the well. A
//! mother going out counts up; coming back she counts down.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::family_params;
pub use super::{Cap, CapOutcome, Starter};

family_params! {
    /// Every parameter of a spiral race, fully resolved for one interpretation.
    pub struct SpiralRaceParams / SpiralRaceSets {
        rule {
            /// Steps from the village to the well along the spiral, 3 to 250 (Davies: "a random
            /// number of hollows"; Ludii's spiral: 82).
            track_len: u16,
            /// Players, each with one mother: 2 to 8 (Davies' figure: four).
            players: u8,
            /// Who throws first: `first-seat` (seat 1, then in seat order) or `lot` (a chance
            /// step choosing the first seat, the others following in seat order).
            starter: Starter,
            /// Whether the yômên (a throw of 2) that ends a turn is itself played (`true`), or
            /// only stops the player (`false`).
            yomen_played: bool,
            /// What the tâba that lets a mother leave the village does: `step` (she moves one
            /// hollow onto the track: Ludii), `release` (she may move on the next 2, 4 or 6) or
            /// `release-and-bank` (she may move on, and the tâba is also banked).
            leave: Leave,
            /// A throw that would take a mother past the well: `forfeit` (she cannot use it),
            /// `bounce` (she counts back from the well by the excess) or `stop` (she stops at
            /// the well).
            overshoot: MotherOvershoot,
            /// Where banked tâbas may move a mother one hollow on her way out: `last-hollow`
            /// (only from the hollow next to the well, into it; then it is her only move),
            /// `any-hollow` (from anywhere, one hollow each, in place of the throw) or
            /// `last-hollow-optional` (only into the well, as one move among others: her player
            /// may bank a tâba thrown there, or let the throw go, and keep the credit) or
            /// `any-time` (from anywhere, one hollow for each credit, spent beside the throw,
            /// which stays in hand: several may be spent before it is used). A credit
            /// step spends a credit, never a tâba thrown with it: that tâba is banked first; a
            /// 2, 4 or 6 gives way to the step.
            out_credit: OutCredit,
            /// Tâbas a mother pays at the well (Davies: two to drink, one to wash her clothes and
            /// two to come away with: five; Ludii: four). 0 is nothing to pay: she is paid up
            /// as she arrives and leaves as `well_exit` says (refused with `with-last`, which
            /// leaves with the last tâba paid).
            well_cost: u8,
            /// How tâbas are paid at the well (and for the hyena's release): `each-throw` (one
            /// per throw: a thrown tâba pays itself; a 2, 4 or 6 spends one banked tâba, and the
            /// throw is lost: Ludii) or `at-once` (banked tâbas are paid as soon as they are
            /// needed and thrown ones as they come; a 2, 4 or 6 is left for `well_banking`).
            well_pay: WellPay,
            /// When a mother (or the hyena) who has paid leaves the well: `next-throw` (any throw
            /// moves her one hollow out: Ludii), `with-last` (the last tâba paid moves her one
            /// hollow out), `released` (she moves on the next 2, 4 or 6, by its value) or
            /// `two-last` (the two last tâbas paid, "to come away with", move her one hollow
            /// each: she leaves two hollows out once she has paid).
            well_exit: WellExit,
            /// A 2, 4 or 6 thrown while a mother waits at the well (`well_pay: at-once` only):
            /// `lost`, `separate` (each is banked as a move of its own, played on her way back
            /// when her player chooses), `added` (all are added to her first move away, the
            /// first 2, 4 or 6 thrown for her; if that move would pass an exact village, it is
            /// lost and the scores with it), `one-a-turn` (as `separate`, but at most one kept
            /// score is played in a turn) or `hyena` (as `separate`, and those still kept when
            /// her player's mother comes home and he moves the hyena are the hyena's, each
            /// moving him double its value, out or back, as one of his moves).
            well_banking: WellBanking,
            /// A tâba on the way back: `bank` (credited as on the way out; a banked tâba may
            /// then complete the last hollow into the village, as one move among others, where
            /// on the way out it is her only one) or `move-or-bank` (it moves her one hollow,
            /// or is banked; banked tâbas are no use on the way back: Ludii).
            return_taba: ReturnTaba,
            /// Whether a mother must reach the village exactly (`true`) or any throw that
            /// reaches or passes it brings her home (`false`). The hyena comes home the same
            /// way.
            village_exact: bool,
            /// Who moves the hyena: `first-home` (the player whose mother came home first; the
            /// others whose mothers come home wait) or `every-home` (every player whose mother
            /// is home, on his own throws, with his own tâbas: Ludii).
            controller: Controller,
            /// Tâbas the hyena pays to leave the village (Davies: two; Ludii: none). They are
            /// paid as at the well (`well_pay`), from the controller's bank too; with none, he
            /// is out as he is let loose.
            hyena_release_cost: u8,
            /// A tâba thrown for the hyena: `bank` (credited; it never moves him) or
            /// `double-or-bank` (it moves him two hollows, or is banked, on his way out; on his
            /// way back it moves him two).
            hyena_taba: HyenaTaba,
            /// Hollows a banked tâba moves the hyena, in place of the throw, out or back: 0
            /// (credits never move him), 1 (Ludii) or 2. A tâba thrown with the step is banked
            /// where it would be (`hyena_taba`), and otherwise gives way like a 2, 4 or 6.
            hyena_credit_step: u8,
            /// Whether the hyena must reach the well exactly (`true`) or any throw that reaches
            /// or passes it stops him there (`false`).
            hyena_exact: bool,
            /// Tâbas the hyena pays at the well (Davies: ten to drink and come away; Ludii:
            /// nine, then any throw). 0 is nothing to pay, as for `well_cost` (and refused
            /// with `with-last` likewise).
            hyena_well_cost: u8,
            /// What the hyena eats on his way back: `passed` (the women on the hollows he
            /// passes), `landed` (those on the hollow he lands on), `both`, or `sweep` (those on
            /// the hollow he starts from and the hollows he passes, not the one he lands on:
            /// Ludii).
            eats: Eats,
            /// Whether the women still on their way out are eaten too (`true`: Ludii), or only
            /// those he overtakes on their way home (`false`).
            eats_outbound: bool,
            /// What ends the game: `all-home` (every woman not eaten is home, with the hyena
            /// loose: Ludii), `hyena-home` (the hyena is back in the village) or `first-eaten`
            /// (the first woman is eaten, or else the hyena comes home).
            end: End,
            /// Who wins: `survivors` (every player whose mother was not eaten: Ludii),
            /// `hyena` (the hyena's player alone, the first home), `hyena-if-eats` (the
            /// hyena's player if he has eaten a woman, else the survivors) or `ranking` (no one
            /// alone: the game is a ranking, reported as a draw with its places). Under every
            /// value a finished game also ranks the players by Davies' degrees of defeat: the
            /// mothers home in the order they came, then those still on the way, then the
            /// eaten, the later eaten above the earlier.
            winner: Winner,
            /// Whether a player must use a throw he can use (`true`) or may let it go
            /// (`false`).
            must_move: bool,
            /// What pays the hyena's costs (his release and the well): `credit` (his player's
            /// credit, the tâbas left over from his mother's journey included) or `fresh` (only
            /// tâbas thrown after his player's mother is home: what was left of her credit is
            /// set aside as she arrives and pays nothing for him, nor moves him).
            hyena_purse: HyenaPurse,
            /// Whether the credit a mother spends to step into the well counts as the first
            /// tâba of her cost there (`true`: she pays one fewer after arriving, as if it were
            /// paid on the way in) or is only her step (`false`). A mother landing in the well on
            /// a throw pays the whole `well_cost` either way.
            credit_entry_pays: bool,
            /// Whether the hyena, home again with women still on their way, sets off once more
            /// (`true`: he is let loose again in the village, paying his release again, and goes
            /// round as before) or stays home (`false`). Only under `end: all-home`, the one end
            /// that does not stop at his coming home.
            hyena_again: bool,
            /// Whether the women waiting at the well are eaten once the hyena has drunk there
            /// (`true`: as soon as he has paid all he owes at the well) or are always safe there
            /// (`false`: he moves away from them).
            eats_at_well: bool,
            /// Whether a mother blocks the others (`true`: none may land on a hollow of the
            /// track where another mother stands, out or back; the village and the well hold
            /// any number) or any number share a hollow (`false`).
            mothers_block: bool,
            /// Whether the hyena's player may mark down the 2s, 4s and 6s thrown while the
            /// hyena pays at the well, as a mother's may (`true`: each is a move of his own on
            /// his way back, at double rates, played when his player chooses; `well_pay:
            /// at-once` only), or nothing is kept for him (`false`).
            hyena_keeps: bool,
        }
        engine {
            /// A limit on game length as an engine imposes it (see the sowing family):
            /// `moves` (required) and optionally `turns`, and what a capped game scores as.
            /// Default: no cap.
            cap: Option<Cap> = None,
            /// Ludii's end test (`end: all-home`) looks only at where the mothers stand, so a
            /// mother who never left the village counts as home (Ludii's encoding: the game
            /// ends at once if the first home finds every other mother still in the village).
            /// Default: `false`.
            ludii_unleft_home: bool = false,
            /// Ludii makes one move per throw, so a credit step (a mother's automatic step into
            /// the well, the hyena's step of one) uses the throw in hand up: a tâba thrown with
            /// it is lost (`true`: Ludii as it executes) instead of being marked down to the
            /// player's credit as every other tâba that does not move the piece (`false`).
            /// Default: `false`.
            ludii_credit_drops_taba: bool = false,
            /// Whether a mother one hollow from the village with a credit must spend it to
            /// come home (`true`: as she must one hollow from the well under `out_credit:
            /// last-hollow`, the step is then her only move) or may use her throw otherwise and
            /// keep the credit (`false`). Only under `return_taba: bank`, where a credit has
            /// that use. No source says; the engine played it optional. Default: `false`.
            return_credit_forced: bool = false,
        }
    }
}

/// The tâba that lets a mother leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Leave {
    /// She moves one hollow.
    Step,
    /// She is free to move.
    Release,
    /// She is free to move, and the tâba is banked.
    ReleaseAndBank,
}

/// A throw past the well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MotherOvershoot {
    /// It cannot be used.
    Forfeit,
    /// She counts back by the excess.
    Bounce,
    /// She stops at the well.
    Stop,
}

/// Where credits move a mother on her way out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OutCredit {
    /// From the hollow next to the well.
    LastHollow,
    /// Anywhere.
    AnyHollow,
    /// From the hollow next to the well, as her player chooses.
    LastHollowOptional,
    /// Anywhere, any number, the throw kept in hand.
    AnyTime,
}

/// How tâbas are paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WellPay {
    /// One per throw.
    EachThrow,
    /// As soon as they are needed.
    AtOnce,
}

/// Leaving the well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WellExit {
    /// Any throw moves one hollow out.
    NextThrow,
    /// The last tâba paid moves one hollow out.
    WithLast,
    /// The next 2, 4 or 6 moves its value.
    Released,
    /// The last two tâbas paid move one hollow out each (two in all; one where one is paid).
    TwoLast,
}

/// Scores thrown while waiting at the well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WellBanking {
    /// Lost.
    Lost,
    /// Each a later move.
    Separate,
    /// Added to the first move away.
    Added,
    /// Each a later move, at most one a turn.
    OneATurn,
    /// Each a later move; those left when her player becomes the hyena are his, at double
    /// rates.
    Hyena,
}

/// A tâba on the way back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReturnTaba {
    /// Banked; credits complete the last hollow.
    Bank,
    /// One hollow, or banked.
    MoveOrBank,
}

/// Who moves the hyena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Controller {
    /// The first home.
    FirstHome,
    /// Everyone home.
    EveryHome,
}

/// A tâba thrown for the hyena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HyenaTaba {
    /// Banked.
    Bank,
    /// Two hollows, or banked on the way out.
    DoubleOrBank,
}

/// What the hyena eats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Eats {
    /// The women passed.
    Passed,
    /// The women landed on.
    Landed,
    /// Both.
    Both,
    /// The starting hollow and those passed.
    Sweep,
}

/// What ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Every surviving woman home.
    AllHome,
    /// The hyena home.
    HyenaHome,
    /// The first woman eaten.
    FirstEaten,
}

/// Who wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Winner {
    /// Every survivor.
    Survivors,
    /// The hyena's player.
    Hyena,
    /// The hyena's player if he has eaten.
    HyenaIfEats,
    /// No single winner: the places alone.
    Ranking,
}

/// What pays the hyena's costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HyenaPurse {
    /// His player's credit, his mother's left-over tâbas included.
    Credit,
    /// Only tâbas thrown after his player's mother is home.
    Fresh,
}

/// The lengths in hollows of the hyena's moves under `p`: first those of his throws (every
/// throw played moves him double: 8 and 12 for a 4 and a 6, 4 for a yômên where it is
/// played, 2 for a tâba where it moves him), then the same with his credit step added
/// (0 where credits never move him). The engine's proof that he can never come home
/// (`never-home`) and the static check [`cannot_end`] both read them here.
pub fn hyena_moves(p: &SpiralRaceParams) -> (Vec<u16>, Vec<u16>) {
    let mut throws = vec![8, 12];
    if p.yomen_played {
        throws.push(4);
    }
    if p.hyena_taba == HyenaTaba::DoubleOrBank {
        throws.push(2);
    }
    let mut any = throws.clone();
    any.push(u16::from(p.hyena_credit_step));
    (throws, any)
}

/// For each distance `0..=len`, whether moves of `steps` (zeros ignored) can cover it:
/// exactly where `exact`, otherwise always (a move that reaches or passes the end stops
/// there).
pub fn reachable(len: u16, steps: &[u16], exact: bool) -> Vec<bool> {
    let mut reach = vec![!exact; usize::from(len) + 1];
    reach[0] = true;
    for d in 1..reach.len() {
        reach[d] = reach[d]
            || steps
                .iter()
                .any(|&k| k > 0 && usize::from(k) <= d && reach[d - usize::from(k)]);
    }
    reach
}

/// The hollow the hyena starts his way home from, once he has paid at the well: the well
/// itself where he is released by a throw, the next hollow where the last tâba or the next
/// throw takes him out, or as many hollows out as the two last tâbas paid move him.
pub fn hyena_from_well(p: &SpiralRaceParams) -> u16 {
    match p.well_exit {
        WellExit::Released => p.track_len,
        WellExit::WithLast | WellExit::NextThrow => p.track_len.saturating_sub(1),
        WellExit::TwoLast => p
            .track_len
            .saturating_sub(u16::from(p.hyena_well_cost.min(2))),
    }
}

/// The static "cannot end" check of the spiral-race family
/// ([`super::FamilyParams::cannot_end`]): where the game ends only when the hyena comes
/// home (`end: hyena-home`) and no cap ends it, whether his moves can ever bring him home
/// from the village where he is let loose: out to the well (exactly, under `hyena_exact`),
/// then back from where he leaves it to the village (exactly, under `village_exact`). Every
/// move of his is one of [`hyena_moves`] (his credit step counted as always available, so
/// the proof never rests on his running out of credit); a distance that no sum of them
/// makes cannot be covered exactly. Where every move is a multiple of one number (their
/// greatest common divisor) and the distance is not, the reason says so. Nothing else ends
/// such a game: before the hyena is loose nobody is eaten, and once he is loose his player
/// always has him to move. `None` where he can come home, or under another end (`all-home`
/// is always reachable; under `first-eaten` a woman can be eaten).
pub fn cannot_end(p: &SpiralRaceParams) -> Option<String> {
    if p.end != End::HyenaHome || p.cap.is_some() || !(3..=250).contains(&p.track_len) {
        return None;
    }
    let (_, moves) = hyena_moves(p);
    let steps: Vec<u16> = moves.iter().copied().filter(|&k| k > 0).collect();
    let mut listed: Vec<u16> = steps.clone();
    listed.sort_unstable();
    listed.dedup();
    let mut words = listed
        .iter()
        .map(u16::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(comma) = words.rfind(", ") {
        words.replace_range(comma..comma + 2, " or ");
    }
    let gcd = listed.iter().fold(0u16, |a, &b| gcd(a, b));
    let why = |distance: u16| {
        if gcd > 1 && !distance.is_multiple_of(gcd) {
            format!("{distance} is not a multiple of {gcd}, as every one of his moves is")
        } else {
            format!("no sum of his moves makes {distance}")
        }
    };
    let len = p.track_len;
    let out = reachable(len, &steps, p.hyena_exact)[usize::from(len)];
    if !out {
        return Some(format!(
            "end: hyena-home can never be met: the hyena moves {words} hollows at a time, and \
             with hyena_exact: true he must land exactly in the well, {len} hollows from the \
             village: {}; every game would run to the ply limit. hyena_exact: false, a \
             track_len his moves can cover, another end (all-home, first-eaten) or a cap \
             would make it finishable",
            why(len)
        ));
    }
    let from = hyena_from_well(p);
    if !reachable(len, &steps, p.village_exact)[usize::from(from)] {
        return Some(format!(
            "end: hyena-home can never be met: the hyena moves {words} hollows at a time, and \
             with village_exact: true he must land exactly on the village from hollow {from}, \
             where he leaves the well: {}; every game would run to the ply limit. \
             village_exact: false, a track_len or well_exit that puts him at a distance his \
             moves can cover, another end (all-home, first-eaten) or a cap would make it \
             finishable",
            why(from)
        ));
    }
    None
}

/// The greatest common divisor (`gcd(0, b) = b`).
fn gcd(a: u16, b: u16) -> u16 {
    if b == 0 { a } else { gcd(b, a % b) }
}
