//! The printers of `ludotrace store`, `store export` and `store prune`: what the results
//! store holds, every run's results as tidy CSV (one row per run and metric, with its
//! interval) or JSON, and what a prune removed.

use crate::exec::housekeeping::{PruneReport, StoreExport, StoreSummary};
use crate::present::{Format, Out};

/// A size in bytes as people read it (kB, MB, GB: powers of 1000, as `du --si`).
fn size(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", b / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", b / 1e6),
        _ => format!("{:.2} GB", b / 1e9),
    }
}

/// Prints what the store holds.
pub fn summary(out: &mut Out, s: &StoreSummary) {
    if out.format == Format::Json {
        out.json(s);
        return;
    }
    out.para(&format!(
        "Results store {}{}",
        s.path,
        if s.read_only { " (read-only)" } else { "" }
    ));
    let per_game = if s.games > 0 {
        format!(
            " ({:.0} bytes a game, {:.1} games a row)",
            s.bytes as f64 / s.games as f64,
            s.games as f64 / s.rows.max(1) as f64
        )
    } else {
        String::new()
    };
    out.para(&format!(
        "{} on disk{per_game} · schema version {}",
        size(s.bytes),
        s.store_schema_version
    ));
    out.para(&format!(
        "{} games in {} rows of {} tasks · {} runs{}",
        s.games,
        s.rows,
        s.tasks,
        s.runs,
        if s.game_rows > 0 {
            format!(" · {} game rows (--store-games)", s.game_rows)
        } else {
            String::new()
        }
    ));
    if let (Some(oldest), Some(newest)) = (&s.oldest, &s.newest) {
        out.para(&format!(
            "oldest row written {oldest} · a run last asked for {newest}"
        ));
    }
    for (title, groups) in [("command", &s.by_command), ("game", &s.by_game)] {
        if groups.is_empty() {
            continue;
        }
        let rows = groups
            .iter()
            .map(|g| {
                vec![
                    g.name.clone(),
                    g.runs.to_string(),
                    g.games.to_string(),
                    g.first.clone(),
                    g.last.clone(),
                ]
            })
            .collect();
        out.table(
            &[title, "runs", "games asked", "first asked", "last asked"],
            rows,
        );
    }
}

/// A CSV field, quoted where it must be (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// Prints every run's results: tidy CSV (one row per run and metric), or JSON.
pub fn export(out: &mut Out, e: &StoreExport) {
    if out.format == Format::Json {
        out.json(e);
        return;
    }
    out.line(
        "run,game,reading,overrides,seed,stream,max_plies,agents,corpus_hash,ludotrace,command,\
         first_game,end_game,games,complete,created,metric,estimate,lo,hi",
    );
    for r in &e.results {
        let head = [
            r.run.to_string(),
            field(&r.game),
            field(&r.reading),
            field(&r.overrides),
            r.seed.to_string(),
            r.stream.clone(),
            r.max_plies.to_string(),
            field(&r.agents),
            r.corpus_hash.clone(),
            field(&r.ludotrace),
            r.command.clone(),
            r.first_game.to_string(),
            r.end_game.to_string(),
            r.games.to_string(),
            u8::from(r.complete).to_string(),
            r.created.clone(),
        ]
        .join(",");
        for m in &r.metrics {
            out.line(&format!(
                "{head},{},{},{},{}",
                m.metric, m.estimate, m.lo, m.hi
            ));
        }
    }
}

/// Prints what a prune removed.
pub fn prune(out: &mut Out, p: &PruneReport) {
    if out.format == Format::Json {
        out.json(p);
        return;
    }
    out.para(&format!(
        "removed {} runs, {} rows ({} games{}) and {} tasks; {} on disk, was {}",
        p.runs,
        p.rows,
        p.games,
        if p.game_rows > 0 {
            format!(", {} game rows", p.game_rows)
        } else {
            String::new()
        },
        p.tasks,
        size(p.bytes_after),
        size(p.bytes_before)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(size(999), "999 B");
        assert_eq!(size(10_500_000), "10.5 MB");
        assert_eq!(size(736_000_000), "736.0 MB");
        assert_eq!(size(5_000_000_000), "5.00 GB");
    }

    #[test]
    fn a_csv_field_is_quoted_only_where_it_must_be() {
        assert_eq!(field("davies"), "davies");
        assert_eq!(field("{\"a\":1,\"b\":2}"), "\"{\"\"a\"\":1,\"\"b\"\":2}\"");
    }
}
