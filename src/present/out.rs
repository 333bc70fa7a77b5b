//! Buffered output with styles, tables and JSON, honouring `--format`, `--color` and
//! `--width`.
//!
//! It owns the layout of tables. Off a terminal and without `--width`, a table is drawn with
//! whole lines, as it always was, so that pipes and files get unwrapped text. Given a width
//! (`--width N`, or at a terminal `COLUMNS` or the terminal's own width), a table is laid out
//! to fit it, in three steps: as is if it fits; else with cells wrapped at spaces only, no
//! column narrower than its longest token (a word, an id, a number, an interval such as
//! `[41.7–55.4 %]`); else, when even that is too wide, vertically, one record per block of
//! `column: value` lines. The layout is computed here rather than by comfy-table's dynamic
//! arrangement, because comfy-table splits a word that does not fit its column and cannot
//! tell us that the table is too wide to fit; comfy-table only draws the pre-wrapped cells.

use std::io::Write;

use anstyle::{AnsiColor, Style};
use comfy_table::{ContentArrangement, Table};
use unicode_width::UnicodeWidthStr;

use super::Format;

/// The narrowest width a table can be asked for: a boxed column needs four columns of
/// borders, and a vertical record needs room for its keys and some text.
pub const MIN_WIDTH: usize = 20;
/// The widest: beyond this no terminal is meant, and `--width 0` asks for no wrapping.
pub const MAX_WIDTH: usize = 1000;

/// Styles used in text output.
pub mod style {
    use super::*;
    /// Headings.
    pub const HEAD: Style = Style::new().bold();
    /// Ids.
    pub const ID: Style = AnsiColor::Cyan.on_default();
    /// Quotes of sources.
    pub const QUOTE: Style = AnsiColor::Green.on_default();
    /// Chosen options.
    pub const CHOSEN: Style = AnsiColor::Yellow.on_default().bold();
    /// Secondary text.
    pub const DIM: Style = Style::new().dimmed();
    /// Problems.
    pub const ERR: Style = AnsiColor::Red.on_default().bold();
}

/// The output buffer of one command.
pub struct Out {
    /// Requested format.
    pub format: Format,
    /// The width tables are laid out to; `None` for no wrapping.
    width: Option<usize>,
    buf: String,
    /// Whether `flush` drops the text: the output of a command run only for its games (a
    /// plan's tasks, a unit's blocks).
    discard: bool,
}

impl Out {
    /// A new buffer whose tables are laid out to `width` (`None`: unwrapped, whole lines;
    /// the command line decides it from `--width` and the terminal).
    pub fn new(format: Format, width: Option<usize>) -> Self {
        Out {
            format,
            width: width.map(|w| w.clamp(MIN_WIDTH, MAX_WIDTH)),
            buf: String::new(),
            discard: false,
        }
    }

    /// A buffer whose flushes write nothing.
    pub fn discard(format: Format) -> Self {
        Out {
            discard: true,
            ..Out::new(format, None)
        }
    }

    /// The width tables and paragraphs are laid out to, `None` for no wrapping.
    pub fn width(&self) -> Option<usize> {
        self.width
    }

    /// Appends text as is.
    pub fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    /// Appends a line.
    pub fn line(&mut self, s: &str) {
        self.buf.push_str(s);
        self.buf.push('\n');
    }

    /// Appends a line that stands alone: in Markdown a paragraph of its own (a blank line
    /// after it, and before it when it follows a table), elsewhere a line.
    pub fn para(&mut self, s: &str) {
        if self.format == Format::Markdown {
            if self.buf.ends_with("|\n") {
                self.buf.push('\n');
            }
            self.line(s);
            self.buf.push('\n');
        } else {
            self.line(s);
        }
    }

    /// Appends styled text (the style is removed later when colour is off).
    pub fn styled(&mut self, st: Style, s: &str) {
        self.buf.push_str(&format!("{st}{s}{st:#}"));
    }

    /// Appends pretty JSON.
    pub fn json<T: serde::Serialize>(&mut self, v: &T) {
        self.buf
            .push_str(&serde_json::to_string_pretty(v).expect("output types serialise"));
        self.buf.push('\n');
    }

    /// Appends a table: text in table format, GitHub Markdown otherwise.
    pub fn table(&mut self, header: &[&str], rows: Vec<Vec<String>>) {
        self.table_sparing(header, rows, &[]);
    }

    /// [`Out::table`], leaving out the columns `spare` lists, in that order, when the width
    /// cannot hold them all (the printer knows which of its columns matter least).
    pub fn table_sparing(&mut self, header: &[&str], rows: Vec<Vec<String>>, spare: &[usize]) {
        if self.format == Format::Markdown {
            // A table right after another would read as its rows: a blank line parts them.
            if self.buf.ends_with("|\n") {
                self.buf.push('\n');
            }
            self.line(&format!("| {} |", header.join(" | ")));
            self.line(&format!(
                "|{}|",
                header.iter().map(|_| "---").collect::<Vec<_>>().join("|")
            ));
            for r in rows {
                let cells: Vec<String> = r
                    .iter()
                    .map(|c| c.replace('|', "\\|").replace('\n', " "))
                    .collect();
                self.line(&format!("| {} |", cells.join(" | ")));
            }
            return;
        }
        let text = layout(header, &rows, self.width, spare);
        self.raw(&text);
    }

    /// Takes what was written, styles removed (for a command's output written into another's,
    /// as `report` does).
    pub fn take(&mut self) -> String {
        anstream::adapter::strip_str(&std::mem::take(&mut self.buf)).to_string()
    }

    /// Writes the buffer to stdout (through anstream, which strips styles when colour is
    /// off). A closed pipe (`| head`) is not an error.
    pub fn flush(&mut self) -> std::io::Result<()> {
        if self.discard {
            self.buf.clear();
            return Ok(());
        }
        let mut stdout = anstream::stdout().lock();
        let r = stdout
            .write_all(self.buf.as_bytes())
            .and_then(|_| stdout.flush());
        self.buf.clear();
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r,
        }
    }
}

/// A table as text, laid out to `width` (see the module documentation); ends with a newline.
/// `spare` lists the columns that may be left out to keep a grid, the first to go first.
fn layout(header: &[&str], rows: &[Vec<String>], width: Option<usize>, spare: &[usize]) -> String {
    let Some(width) = width else {
        return boxed(header, rows, false);
    };
    let columns = header.len();
    let header_cells: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    // Per column: the width that shows every cell on one line, and the least width that
    // splits no token, with ids whole and with ids broken after their hyphens.
    let mut natural = vec![0; columns];
    let mut least = [vec![0; columns], vec![0; columns]];
    for row in std::iter::once(&header_cells).chain(rows) {
        for (c, cell) in row.iter().enumerate().take(columns) {
            natural[c] =
                natural[c].max(cell.lines().map(UnicodeWidthStr::width).max().unwrap_or(0));
            for (hyphens, least) in [false, true].into_iter().zip(&mut least) {
                least[c] = least[c].max(longest_token(cell, hyphens));
            }
        }
    }
    // `│ a ┆ b │`: one border or separator per column plus one, and a space each side.
    let borders = |n: usize| 3 * n + 1;
    if natural.iter().sum::<usize>() + borders(columns) <= width {
        return boxed(header, rows, false);
    }
    let least_whole = least[0].clone();
    let fits = |kept: &[usize], hyphens: bool| {
        kept.iter()
            .map(|&c| least[usize::from(hyphens)][c])
            .sum::<usize>()
            + borders(kept.len())
            <= width
    };
    // Fewer columns rather than cards, as long as at least half of them (and two) stay.
    let keep_at_least = 2.max(columns.div_ceil(2));
    let spare: Vec<usize> = spare.iter().copied().filter(|&c| c < columns).collect();
    for left_out in 0..=spare.len() {
        let kept: Vec<usize> = (0..columns)
            .filter(|c| !spare[..left_out].contains(c))
            .collect();
        if kept.len() < keep_at_least {
            break;
        }
        for hyphens in [false, true] {
            if !fits(&kept, hyphens) {
                continue;
            }
            let least: Vec<usize> = kept
                .iter()
                .map(|&c| least[usize::from(hyphens)][c])
                .collect();
            let natural: Vec<usize> = kept.iter().map(|&c| natural[c]).collect();
            let room = width - borders(kept.len());
            // The key column's ids are broken only if they must be; the room left is
            // shared as usual.
            let widths = if hyphens {
                let whole: Vec<usize> = kept.iter().map(|&c| least_whole[c]).collect();
                share(&unbroken(&least, &whole, room), &natural, room)
            } else {
                share(&least, &natural, room)
            };
            let wrap_row = |row: &[String]| -> Vec<String> {
                kept.iter()
                    .zip(&widths)
                    .map(|(&c, &w)| {
                        wrap(row.get(c).map_or("", String::as_str), w, hyphens).join("\n")
                    })
                    .collect()
            };
            let head = wrap_row(&header_cells);
            let body: Vec<Vec<String>> = rows.iter().map(|r| wrap_row(r)).collect();
            // Once a row spans several lines, rules between rows show where each record ends.
            let ruled = body.iter().flatten().any(|cell| cell.contains('\n'));
            let head: Vec<&str> = head.iter().map(String::as_str).collect();
            let mut text = boxed(&head, &body, ruled);
            if left_out > 0 {
                text.push_str(&left_out_note(header, &spare[..left_out], width));
            }
            return text;
        }
    }
    vertical(header, rows, width)
}

/// The line under a table that had to leave columns out: which, and how to see them.
fn left_out_note(header: &[&str], left_out: &[usize], width: usize) -> String {
    let mut names: Vec<usize> = left_out.to_vec();
    names.sort_unstable();
    let names: Vec<String> = names
        .iter()
        .map(|&c| format!("`{}`", header[c].replace('\n', " ")))
        .collect();
    let note = format!(
        "{LEFT_OUT} {width} columns: {} (`--width 0` shows every column).",
        names.join(", ")
    );
    let mut text = wrap(&note, width, false).join("\n");
    text.push('\n');
    text
}

/// How the note under a table that left columns out begins (the tests read it back).
pub const LEFT_OUT: &str = "Columns left out to fit";

/// Draws a table without wrapping anything (cells may hold line breaks); `ruled` draws a
/// rule between rows.
fn boxed(header: &[&str], rows: &[Vec<String>], ruled: bool) -> String {
    let mut t = Table::new();
    t.load_style(if ruled {
        comfy_table::presets::UTF8_FULL
    } else {
        comfy_table::presets::UTF8_FULL_CONDENSED
    });
    // The layout is ours: comfy-table neither wraps nor styles for the terminal.
    t.force_no_tty();
    t.set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(header.to_vec());
    for r in rows {
        t.add_row(r.clone());
    }
    let mut text = t.to_string();
    text.push('\n');
    text
}

/// The vertical layout: one block per record, headed `─[ n ]─…`, of `column: value` lines
/// with values wrapped at spaces, and a closing rule. Values start in one column when the
/// keys leave room for them (half the width at most, and the longest token fits after
/// them); otherwise each value goes under its key, indented.
fn vertical(header: &[&str], rows: &[Vec<String>], width: usize) -> String {
    const UNDER: usize = 2;
    let key_width = header.iter().map(|h| h.width() + 1).max().unwrap_or(0);
    let longest = rows
        .iter()
        .flatten()
        .map(|c| longest_token(c, false))
        .max()
        .unwrap_or(0);
    let beside = key_width < width / 2 && key_width + 1 + longest <= width;
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for row in rows {
        let mut lines = Vec::new();
        for (c, key) in header.iter().enumerate() {
            let value = row.get(c).map(String::as_str).unwrap_or("");
            let key = format!("{key}:");
            if beside {
                let indent = key_width + 1;
                let wrapped = wrap(value, width - indent, false);
                let mut first = key.clone();
                for (i, piece) in wrapped.iter().enumerate() {
                    if i == 0 {
                        first.push_str(&" ".repeat(indent - key.width()));
                        first.push_str(piece);
                        lines.push(std::mem::take(&mut first));
                    } else {
                        lines.push(format!("{}{piece}", " ".repeat(indent)));
                    }
                }
                if wrapped.is_empty() {
                    lines.push(key);
                }
            } else {
                lines.push(key);
                for piece in wrap(value, width.saturating_sub(UNDER).max(1), false) {
                    lines.push(format!("{}{piece}", " ".repeat(UNDER)));
                }
            }
        }
        blocks.push(lines);
    }
    let rule = blocks
        .iter()
        .flatten()
        .map(|l| l.width())
        .max()
        .unwrap_or(0)
        .max(header.iter().map(|h| h.width()).max().unwrap_or(0))
        .min(width);
    let mut text = String::new();
    for (i, lines) in blocks.iter().enumerate() {
        let label = format!("─[ {} ]", i + 1);
        text.push_str(&label);
        text.push_str(&"─".repeat(rule.saturating_sub(label.width())));
        text.push('\n');
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    text.push_str(&"─".repeat(rule.max(1)));
    text.push('\n');
    text
}

/// A bracketed group (an interval such as `[41.7–55.4 %]`) is kept on one line when it is
/// at most this wide; a longer one is text and breaks at its spaces.
const GROUP: usize = 24;

/// The unbreakable pieces of one line of a cell: the words between spaces, except that a
/// short bracketed group stays whole and a `%` stays with its number. With `hyphens`, an id
/// or a path may also break after a hyphen or a slash between two letters or digits
/// (`ludii-1.0.8-` `sebawee`): such a piece is glued to the one before it (`true`), with no
/// space between.
fn tokens(line: &str, hyphens: bool) -> Vec<(String, bool)> {
    let mut out: Vec<String> = Vec::new();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        match out.last_mut() {
            Some(last)
                if word == "%"
                    || (last.matches('[').count() > last.matches(']').count()
                        && last.width() + 1 + word.width() <= GROUP) =>
            {
                last.push(' ');
                last.push_str(word);
            }
            _ => out.push(word.to_owned()),
        }
    }
    let mut pieces = Vec::new();
    for token in out {
        if !hyphens || token.contains('[') {
            pieces.push((token, false));
            continue;
        }
        let chars: Vec<(usize, char)> = token.char_indices().collect();
        let mut start = 0;
        for k in 1..chars.len().saturating_sub(1) {
            let (i, ch) = chars[k];
            if (ch == '-' || ch == '/')
                && chars[k - 1].1.is_alphanumeric()
                && chars[k + 1].1.is_alphanumeric()
            {
                pieces.push((token[start..=i].to_owned(), start > 0));
                start = i + 1;
            }
        }
        pieces.push((token[start..].to_owned(), start > 0));
    }
    pieces
}

/// The display width of a cell's widest token: the narrowest its column can be without
/// splitting one.
fn longest_token(cell: &str, hyphens: bool) -> usize {
    cell.lines()
        .flat_map(|l| tokens(l, hyphens))
        .map(|(t, _)| t.width())
        .max()
        .unwrap_or(0)
}

/// Wraps a cell to `width` columns at spaces (and, with `hyphens`, after the hyphens of
/// ids). Lines that fit are kept as they are; a token wider than `width` (only possible when
/// the whole width is narrower than it) is cut, as the terminal would cut it anyway.
pub(crate) fn wrap(cell: &str, width: usize, hyphens: bool) -> Vec<String> {
    let mut out = Vec::new();
    for line in cell.lines() {
        if line.width() <= width {
            out.push(line.to_owned());
            continue;
        }
        let mut current = String::new();
        for (token, glued) in tokens(line, hyphens) {
            let gap = usize::from(!glued);
            if !current.is_empty() && current.width() + gap + token.width() <= width {
                if !glued {
                    current.push(' ');
                }
                current.push_str(&token);
                continue;
            }
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            let mut token = token.as_str();
            while token.width() > width {
                let (head, tail) = cut(token, width);
                out.push(head.to_owned());
                token = tail;
            }
            current.push_str(token);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// Splits `s` after the most characters that fit in `width` columns (at least one, so that
/// a character wider than the width still makes progress).
fn cut(s: &str, width: usize) -> (&str, &str) {
    let mut used = 0;
    let mut end = 0;
    for (i, ch) in s.char_indices() {
        let w = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
        if used + w > width && i > 0 {
            break;
        }
        used += w;
        end = i + ch.len_utf8();
    }
    s.split_at(end)
}

/// Column widths from `least` (ids broken after hyphens) within `room`: the first column, a
/// table's key, keeps its ids whole (`whole`) if there is room for that.
fn unbroken(least: &[usize], whole: &[usize], room: usize) -> Vec<usize> {
    let mut widths = least.to_vec();
    let spare = room.saturating_sub(least.iter().sum());
    if let (Some(w), Some(&l), Some(&h)) = (widths.first_mut(), least.first(), whole.first())
        && h.saturating_sub(l) <= spare
    {
        *w = h.max(l);
    }
    widths
}

/// Column widths for `room` columns of content: every column gets its least width, then
/// the spare columns go first to the columns that need little to show their cells whole
/// (so that short headers and values stay on one line), and what is left is shared
/// evenly among the rest, the earlier columns taking the odd ones.
fn share(least: &[usize], natural: &[usize], room: usize) -> Vec<usize> {
    let mut widths = least.to_vec();
    let mut spare = room.saturating_sub(least.iter().sum());
    let mut open: Vec<usize> = (0..least.len())
        .filter(|&c| natural[c] > least[c])
        .collect();
    while !open.is_empty() && spare > 0 {
        let fair = spare / open.len();
        let (whole, rest): (Vec<usize>, Vec<usize>) =
            open.iter().partition(|&&c| natural[c] - widths[c] <= fair);
        if whole.is_empty() {
            let mut odd = spare % open.len();
            for &c in &open {
                widths[c] += fair + usize::from(odd > 0);
                odd = odd.saturating_sub(1);
            }
            break;
        }
        for c in whole {
            spare -= natural[c] - widths[c];
            widths[c] = natural[c];
        }
        open = rest;
    }
    widths
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str, hyphens: bool) -> Vec<String> {
        tokens(line, hyphens).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn intervals_and_percent_signs_stay_with_their_numbers() {
        assert_eq!(
            words("32.0 % [20.8–45.8 %] x", true),
            ["32.0 %", "[20.8–45.8 %]", "x"]
        );
        // A long bracketed text is text: it breaks at its spaces.
        assert_eq!(
            words("[a long aside that runs on and on]", false),
            ["[a long aside that runs", "on", "and", "on]"]
        );
        assert_eq!(longest_token("davies, ludii-1.0.8-sebawee", false), 19);
    }

    #[test]
    fn ids_break_after_their_hyphens_only_when_asked() {
        assert_eq!(
            tokens("ludii-1.0.8-sebawee -5", true),
            [
                ("ludii-".to_owned(), false),
                ("1.0.8-".to_owned(), true),
                ("sebawee".to_owned(), true),
                ("-5".to_owned(), false)
            ]
        );
        assert_eq!(longest_token("davies, ludii-1.0.8-sebawee", true), 7);
        assert_eq!(
            wrap("b while-capturing G", 10, true),
            ["b while-", "capturing", "G"]
        );
        assert_eq!(
            wrap("ludii-1.0.8-sebawee", 13, true),
            ["ludii-1.0.8-", "sebawee"]
        );
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_cuts_only_what_cannot_fit() {
        assert_eq!(
            wrap("seat 1 wins [95 % CI]", 12, false),
            ["seat 1 wins", "[95 % CI]"]
        );
        assert_eq!(wrap("fits as is", 10, false), ["fits as is"]);
        assert_eq!(wrap("one\ntwo three", 5, false), ["one", "two", "three"]);
        assert_eq!(wrap("abcdefgh ij", 3, false), ["abc", "def", "gh", "ij"]);
        assert!(wrap("", 5, false).is_empty());
    }

    #[test]
    fn the_key_column_keeps_its_ids_whole_when_it_can() {
        // 8 to spare: the key column takes its 6.
        assert_eq!(
            unbroken(&[8, 8, 9, 15], &[14, 10, 11, 20], 48),
            vec![14, 8, 9, 15]
        );
        // Nothing to spare: everything stays broken.
        assert_eq!(unbroken(&[8, 8], &[14, 10], 16), vec![8, 8]);
    }

    #[test]
    fn spare_columns_go_first_to_the_cells_that_need_little() {
        // The short header is shown whole, the long column takes the rest.
        assert_eq!(share(&[6, 10], &[11, 70], 40), vec![11, 29]);
        // Nobody can be satisfied: an even split, the odd column to the first.
        assert_eq!(share(&[5, 5], &[50, 50], 15), vec![8, 7]);
        assert_eq!(share(&[3, 4], &[3, 4], 20), vec![3, 4]);
    }

    #[test]
    fn a_table_too_wide_for_its_tokens_turns_vertical() {
        let rows = vec![vec![
            "alphabetagamma".to_owned(),
            "1.5 [1.0, 2.0]".to_owned(),
        ]];
        let text = layout(&["id", "mean"], &rows, Some(24), &[1]);
        assert_eq!(
            text,
            "─[ 1 ]──────────────\nid:   alphabetagamma\nmean: 1.5 [1.0, 2.0]\n────────────────────\n"
        );
        let wide = layout(&["id", "mean"], &rows, Some(80), &[1]);
        assert_eq!(wide, layout(&["id", "mean"], &rows, None, &[1]));
    }

    #[test]
    fn a_wide_table_leaves_out_its_spare_columns_before_turning_vertical() {
        let header = ["reading", "a", "b", "c", "d"];
        let rows = vec![vec![
            "ludii-1.0.8".to_owned(),
            "[10.0–20.0 %]".to_owned(),
            "[30.0–40.0 %]".to_owned(),
            "[50.0–60.0 %]".to_owned(),
            "[70.0–80.0 %]".to_owned(),
        ]];
        // 7 + 4 × 13 + 16 = 75 columns (ids broken at hyphens); at 60 one goes, the one named first.
        let text = layout(&header, &rows, Some(60), &[2, 4]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with('┌'), "{text}");
        assert!(lines.iter().all(|l| l.width() <= 60), "{text}");
        assert!(!text.contains("[30.0–40.0 %]"), "{text}");
        // The note, wrapped to the width too.
        assert_eq!(
            lines[lines.len() - 2..].join(" "),
            "Columns left out to fit 60 columns: `b` (`--width 0` shows every column)."
        );
        // Fewer than half the columns would be left: cards instead.
        assert!(layout(&header, &rows, Some(40), &[1, 2, 3, 4]).starts_with("─[ 1 ]"));
    }
}
