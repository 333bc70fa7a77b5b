//! The progress bar of a command that plays: on stderr when it is a terminal, hidden under
//! `--quiet` or in a pipe. It reads `2 of 6: dlp [====>   ] 1 200 of 3 600 games
//! (1 111 games/s, 2s left)`: the reading being played (set by the analysis as its prefix),
//! and the games done and to do over the whole command, which is what the bar counts. Counts
//! and rates are written here, rounded for a person to read, rather than by indicatif's
//! `{per_sec}` (four decimals) and `{human_pos}` (commas).

use std::fmt::Write as _;

/// A bar for a command that plays games (its length grows as the analysis adds work);
/// `named` shows the analysis's prefix, the reading being played, before it.
pub(super) fn bar(quiet: bool, named: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(if named {
            "{prefix} [{bar:30}] {done} of {total} games ({rate}, {left} left)"
        } else {
            "[{bar:30}] {done} of {total} games ({rate}, {left} left)"
        })
        .expect("template is valid")
        .with_key(
            "done",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&grouped(s.pos()));
            },
        )
        .with_key(
            "total",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&grouped(s.len().unwrap_or(0)));
            },
        )
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(s.per_sec()));
            },
        )
        .with_key(
            "left",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                // Before the first games finish there is no rate to reckon the rest by.
                let _ = if s.pos() == 0 {
                    w.write_str("…")
                } else {
                    write!(w, "{:#}", indicatif::HumanDuration(s.eta()))
                };
            },
        )
        .progress_chars("=> "),
    );
    bar
}

/// A count with its thousands set apart by spaces: `1 111`, `250 000`.
pub(super) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(d);
    }
    out
}

/// Games per second as a person reads a rate: one decimal under ten (`4.2 games/s`),
/// whole games above, grouped (`1 111 games/s`); nothing measured yet reads `… games/s`.
pub(super) fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return "… games/s".to_owned();
    }
    let mut s = String::new();
    if per_sec < 9.95 {
        let _ = write!(s, "{per_sec:.1} games/s");
    } else {
        let _ = write!(s, "{} games/s", grouped(per_sec.round() as u64));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{grouped, rate};

    #[test]
    fn rates_and_counts_are_rounded_and_grouped_for_reading() {
        assert_eq!(rate(1111.0993), "1 111 games/s");
        assert_eq!(rate(4.2371), "4.2 games/s");
        assert_eq!(rate(9.96), "10 games/s");
        assert_eq!(rate(250_000.4), "250 000 games/s");
        assert_eq!(rate(0.0), "… games/s");
        assert_eq!(rate(f64::NAN), "… games/s");
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1 000");
        assert_eq!(grouped(1_234_567), "1 234 567");
    }
}
