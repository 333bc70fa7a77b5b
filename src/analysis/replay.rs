//! `ludotrace replay GAME -i READING FILE.jsonl`: Ludii's recorded games replayed through a
//! reading, decision by decision (the work is `crate::ludii::replay`, reached through the
//! registry's adapter for the reading's family; this module reads the file, finds the
//! adapter and returns the report).

use std::path::Path;

use crate::analysis::{Error, game_of, interpretation_of};
use crate::bind;
use crate::corpus::Corpus;
use crate::ludii::replay::{self, Report};

/// Replays a trace file through a reading.
///
/// # Errors
/// [`Error::Trace`] for a file that cannot be read, a malformed line, a file without a
/// playout, or a trace that cannot belong to the reading; the usual errors for an unknown game
/// or reading.
pub fn replay(
    corpus: &Corpus,
    game: &str,
    interpretation: &str,
    file: &Path,
) -> Result<Report, Error> {
    let g = game_of(corpus, game)?;
    let interp = interpretation_of(g, interpretation)?;
    let trace_error = |line: Option<usize>, message: String| Error::Trace {
        file: file.display().to_string(),
        line,
        message,
    };
    let text = std::fs::read_to_string(file).map_err(|e| trace_error(None, e.to_string()))?;
    let playouts = replay::parse(&text).map_err(|e| trace_error(e.line, e.message))?;
    let bound = bind::bind(g, interp, &serde_json::Map::new())?;
    let report = bound
        .engine
        .ludii_replay(&g.id, &interp.id, &playouts)
        .ok_or_else(|| {
            // The games whose family has a Ludii adapter in the registry.
            let traced: Vec<&str> = corpus
                .games
                .iter()
                .filter(|other| {
                    other.interpretations.first().is_some_and(|i| {
                        bind::bind(other, i, &serde_json::Map::new())
                            .is_ok_and(|b| b.engine.ludii_replay("", "", &[]).is_some())
                    })
                })
                .map(|other| other.id.as_str())
                .collect();
            trace_error(
                None,
                format!(
                    "Ludii 1.0.8 has no {} and records no traces of it; `replay` reads \
                     traces of the games whose family has a Ludii adapter: {}",
                    g.name,
                    traced.join(", ")
                ),
            )
        })?
        .map_err(|e| trace_error(e.line, e.message))?;
    Ok(report)
}
