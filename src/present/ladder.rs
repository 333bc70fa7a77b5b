//! The printers of `ladder`'s result ([`crate::analysis::ladder::Ladder`]): JSON, and a
//! table (or Markdown) of the pairings, each with its games, outcomes, the first agent's
//! score with its 95 % interval and the verdict, then the footer that reproduces it.

use crate::analysis::ladder::{Ladder, LadderArgs, STRONGER_ABOVE, WEAKER_BELOW, command_line};
use crate::present::Format;
use crate::present::out::{Out, style};
use crate::present::run::footer;

/// Prints a ladder in the output's format.
pub fn print(out: &mut Out, ladder: &Ladder, args: &LadderArgs, title: &str) {
    if out.format == Format::Json {
        out.json(ladder);
        return;
    }
    let h = &ladder.header;
    let head = format!(
        "{title} · {} · {} games a pairing, seats rotating · seed {} · ply limit {}",
        ladder.interpretation, h.games, h.seed, h.max_plies
    );
    if out.format == Format::Markdown {
        out.para(&format!("**{head}**"));
    } else {
        out.styled(style::HEAD, &head);
        out.line("");
    }
    let rows = ladder
        .pairings
        .iter()
        .map(|p| {
            vec![
                format!("{} vs {}", p.first, p.second),
                p.games.to_string(),
                p.first_wins.to_string(),
                p.second_wins.to_string(),
                p.draws.to_string(),
                p.censored.to_string(),
                p.endless.to_string(),
                p.score.as_ref().map_or_else(
                    || "–".to_owned(),
                    |s| {
                        format!(
                            "{:.1} % [{:.1}–{:.1} %]",
                            s.value * 100.0,
                            s.lo * 100.0,
                            s.hi * 100.0
                        )
                    },
                ),
                p.verdict.clone(),
            ]
        })
        .collect();
    out.table(
        &[
            "pairing",
            "games",
            "first wins",
            "second wins",
            "draws",
            "censored",
            "endless",
            "first's score [95 % CI]",
            "verdict",
        ],
        rows,
    );
    let note = format!(
        "score: (wins + ½ draws) / finished games; censored games (stopped by the ply limit or \
         a search bound) and endless games are left out; stronger: the interval above {:.0} %, weaker: below {:.0} %.",
        STRONGER_ABOVE * 100.0,
        WEAKER_BELOW * 100.0
    );
    out.para(&note);
    footer(
        out,
        &h.corpus_hash,
        &command_line(ladder, args),
        args.corpus.as_deref(),
    );
}
