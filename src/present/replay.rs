//! The printer of a replay's report ([`crate::ludii::replay::Report`]): JSON, or what was
//! checked and each playout's first divergence.

use std::path::Path;

use crate::ludii::replay::Report;
use crate::present::{Format, Out};

/// Prints the report of replaying `file`.
pub fn print(out: &mut Out, r: &Report, file: &Path) {
    if out.format == Format::Json {
        out.json(r);
        return;
    }
    out.line(&format!(
        "Replay of {} · {} / {}",
        file.display(),
        r.game,
        r.interpretation
    ));
    // What was checked, not what the file holds: a playout is replayed up to its first
    // divergence only.
    out.line(&format!(
        "{} playout(s) and {} of {} decisions checked · {} playout(s) diverge",
        r.playouts, r.decisions_checked, r.decisions, r.divergences
    ));
    if r.divergences == 0 {
        let how = if r.legal_order_checked {
            "in Ludii's order, duplicates included"
        } else {
            "as a multiset, duplicates included"
        };
        out.line(&format!(
            "every decision matches: the mover, Ludii's legal moves ({how}), the position after \
             the move and whether the game ends; and every result"
        ));
        return;
    }
    for d in &r.first_divergences {
        let step = d
            .step
            .map_or_else(|| "the result".to_owned(), |s| format!("step {s}"));
        out.line("");
        out.line(&format!(
            "playout {} (line {}), {step}: {} differs",
            d.playout, d.line, d.what
        ));
        out.line(&format!("  Ludii: {}", d.expected));
        out.line(&format!("  ours:  {}", d.actual));
        if !d.context.is_empty() {
            out.line(&format!("  {}", d.context));
        }
    }
}
