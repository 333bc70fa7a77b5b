//! Tables that fit: `--width N` lays every table out to N columns, wrapping cells at spaces,
//! then also after the hyphens and slashes of ids and paths, then (for the tables that name
//! columns they can spare) leaving columns out with a note under the table, and switching to
//! the vertical layout (one `─[ n ]` block of `column: value` lines per record) only when
//! even that is too wide.
//!
//! Two kinds of test. The golden files under tests/golden/tables/ hold the whole stdout of a
//! few commands at 80 columns, compared byte for byte; after an intended change (a new
//! column, a rule that changes the statistics), regenerate them with
//! `LUDOTRACE_BLESS=1 cargo test --locked tables::` and review the diff in version control.
//! The generic checks hold for any table, whatever its columns: at several widths, every
//! table line fits, reading the wrapped table back (joining each cell's lines with spaces)
//! gives exactly the cells of the unwrapped table, less the columns its note names (so no
//! token was split except after a hyphen or slash, and nothing was lost or moved; only a
//! token wider than the whole width may be cut), short bracketed intervals stay on one line, and the text around the tables is
//! untouched.

use unicode_width::UnicodeWidthStr;

use crate::util::{bin, golden, ok, root, run};

/// The width of the golden files.
const GOLDEN_WIDTH: &str = "80";

/// The commands whose tables are committed: (file name, arguments).
const GOLDEN: &[(&str, &[&str])] = &[
    ("list", &["list"]),
    (
        "show-um-el-bagara-ludii-1.0.8",
        &["show", "um-el-bagara", "-i", "ludii-1.0.8"],
    ),
    (
        "run-um-el-bagara-ludii-1.0.8",
        &[
            "run",
            "um-el-bagara",
            "-i",
            "ludii-1.0.8",
            "-n",
            "200",
            "--seed",
            "1",
        ],
    ),
    (
        "run-sijat-el-taba-all",
        &["run", "sijat-el-taba", "--all-interpretations", "-n", "50"],
    ),
];

/// More commands for the generic checks: tables that wrap inside their boxes, and long ones.
const MORE: &[&[&str]] = &[
    &["collate", "davies-1925#um-el-banat"],
    &["sources"],
    &["run", "seega", "--all-interpretations", "-n", "20"],
    &["show", "lib-el-merafib", "-i", "davies"],
    &["show", "seega", "--readings"],
    &["run", "seega", "-n", "10", "--each-option"],
];

/// Every kind of table a command prints about a game: each must stay a grid (perhaps with
/// fewer columns and a note) at the widths of common terminals, not turn into cards.
const GRIDS: &[&[&str]] = &[
    &["show", "seega", "--readings"],
    &["show", "seega", "-i", "davies"],
    &["run", "seega", "--all-interpretations", "-n", "20"],
    &["run", "lib-el-merafib", "--all-interpretations", "-n", "20"],
    &["run", "seega", "-n", "10", "--each-option"],
    &["diff", "seega", "davies", "ludii", "-n", "50"],
    &["flags", "seega", "-n", "10"],
    &["sources"],
    &["point"],
];

/// The widths of the generic checks: vertical and stacked layouts, wrapped boxes, whole rows.
const WIDTHS: &[usize] = &[50, 80, 100, 120];

/// A bracketed group at most this wide must stay on one line (as in src/present/out.rs).
const GROUP: usize = 24;

/// How the note under a table that left columns out begins (src/present/out.rs).
const LEFT_OUT: &str = "Columns left out to fit";

/// The text with every BLAKE3 hash (64 hex digits after `blake3 `) replaced by `<hash>`.
fn mask_hash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("blake3 ") {
        let (head, tail) = rest.split_at(i + "blake3 ".len());
        out.push_str(head);
        let hex = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex == 64 {
            out.push_str("<hash>");
            rest = &tail[64..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn tables_at_80_columns_match_their_golden_files() {
    let mut failures = Vec::new();
    for (name, args) in GOLDEN {
        let mut full = args.to_vec();
        full.extend(["--width", GOLDEN_WIDTH]);
        // The corpus hash changes with any edit of the corpus; the layout does not.
        let text = mask_hash(&ok(&full));
        let path = root()
            .join("tests/golden/tables")
            .join(format!("{name}.txt"));
        failures.extend(
            golden(&path, &text, "tables::")
                .map(|f| format!("ludotrace {} --width {GOLDEN_WIDTH}: {f}", args.join(" "))),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn wrapped_tables_fit_and_keep_every_token_whole() {
    let commands = GOLDEN.iter().map(|(_, a)| *a).chain(MORE.iter().copied());
    for args in commands {
        let mut whole = args.to_vec();
        whole.extend(["--width", "0"]);
        let whole = ok(&whole);
        // Without --width, piped output is the unwrapped one.
        assert_eq!(
            whole,
            ok(args),
            "{args:?}: --width 0 differs from the default"
        );
        let reference = parse(&whole, None);
        let tables = reference.iter().filter(|s| s.is_table()).count();
        assert!(tables > 0, "{args:?}: no table in\n{whole}");
        for &width in WIDTHS {
            let mut full = args.to_vec();
            let w = width.to_string();
            full.extend(["--width", &w]);
            let text = ok(&full);
            let what = format!("ludotrace {} --width {width}", args.join(" "));
            let wrapped = parse(&text, Some(&reference));
            assert_eq!(
                wrapped.len(),
                reference.len(),
                "{what}: not the same text and tables as unwrapped:\n{text}"
            );
            for (got, want) in wrapped.iter().zip(&reference) {
                match (got, want) {
                    (Segment::Text(a), Segment::Text(b)) => {
                        assert_eq!(a, b, "{what}: text around the tables changed")
                    }
                    (Segment::Table(got), Segment::Table(want)) => {
                        check_table(&what, width, got, want)
                    }
                    _ => panic!("{what}: a table where text was, or text where a table was"),
                }
            }
        }
    }
}

/// One wrapped table against its unwrapped original.
fn check_table(what: &str, width: usize, got: &Parsed, want: &Parsed) {
    for line in &got.lines {
        assert!(
            line.width() <= width,
            "{what}: a line of {} columns:\n{line}",
            line.width()
        );
    }
    // A token wider than the width less the vertical layout's indent cannot be kept whole
    // (it is cut); then only the characters are compared.
    let longest = want
        .rows
        .iter()
        .flatten()
        .flat_map(|c| c.iter().flat_map(|p| p.split_whitespace()))
        .map(UnicodeWidthStr::width)
        .max()
        .unwrap_or(0);
    let whole = longest + 2 <= width;
    let joined = |cell: &[String]| {
        let text = normal(&glue(cell));
        if whole { text } else { text.replace(' ', "") }
    };
    let expect = |row: &[Vec<String>]| row.iter().map(|c| joined(c)).collect::<Vec<_>>();
    // The columns the note under the table names are left out of the reference.
    let kept: Vec<usize> = (0..want.header.len())
        .filter(|&c| !got.left_out.contains(&normal(&want.header[c].join(" "))))
        .collect();
    assert_eq!(
        kept.len() + got.left_out.len(),
        want.header.len(),
        "{what}: the note names columns the table does not have: {:?}",
        got.left_out
    );
    let want_rows: Vec<Vec<Vec<String>>> = want
        .rows
        .iter()
        .map(|r| kept.iter().map(|&c| r[c].clone()).collect())
        .collect();
    let want_header: Vec<Vec<String>> = kept.iter().map(|&c| want.header[c].clone()).collect();
    assert_eq!(
        expect(&got.header),
        expect(&want_header),
        "{what}: the header read back differs"
    );
    assert_eq!(
        got.rows.len(),
        want_rows.len(),
        "{what}: not the same number of rows:\n{}",
        got.lines.join("\n")
    );
    for (g, w) in got.rows.iter().zip(&want_rows) {
        assert_eq!(
            expect(g),
            expect(w),
            "{what}: a row read back differs (a token split or moved):\n{}",
            got.lines.join("\n")
        );
        for (pieces, original) in g.iter().zip(w).filter(|_| whole) {
            for group in groups(&original.join(" ")) {
                assert!(
                    pieces.iter().any(|p| p.contains(&group)),
                    "{what}: `{group}` is split across lines: {pieces:?}"
                );
            }
        }
    }
}

/// A cell's lines as one text: a line that ends in a hyphen or slash after a letter or digit
/// (an id or path broken there) runs on into the next, the others are parted by a space.
fn glue(pieces: &[String]) -> String {
    let mut text = String::new();
    for p in pieces {
        let broken = {
            let mut end = text.chars().rev();
            matches!(end.next(), Some('-' | '/')) && end.next().is_some_and(char::is_alphanumeric)
        };
        if !text.is_empty() && !broken {
            text.push(' ');
        }
        text.push_str(p);
    }
    text
}

/// Runs of whitespace as one space, trimmed.
fn normal(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The short bracketed groups of a text (`[41.7–55.4 %]`).
fn groups(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        let group = &rest[open..open + close + 1];
        if group.width() <= GROUP {
            out.push(group.to_owned());
        }
        rest = &rest[open + close + 1..];
    }
    out
}

/// A command's output: its tables and the lines of text between them.
#[derive(Debug)]
enum Segment {
    Text(String),
    Table(Parsed),
}

impl Segment {
    fn is_table(&self) -> bool {
        matches!(self, Segment::Table(_))
    }
}

/// A table read back: each cell as the pieces it was drawn on (one per line).
#[derive(Debug)]
struct Parsed {
    header: Vec<Vec<String>>,
    rows: Vec<Vec<Vec<String>>>,
    lines: Vec<String>,
    /// The columns the note under the table says were left out.
    left_out: Vec<String>,
}

/// Reads a command's output. A boxed table runs from `┌` to `└`; a vertical one from its
/// first `─[ 1 ]` to its closing rule. Reading a vertical table needs the column names,
/// which `reference` (the unwrapped output) gives, table by table.
fn parse(text: &str, reference: Option<&[Segment]>) -> Vec<Segment> {
    let mut heads = reference.into_iter().flatten().filter_map(|s| match s {
        Segment::Table(t) => Some(t),
        Segment::Text(_) => None,
    });
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with('┌') {
            let end = (i..lines.len())
                .find(|&j| lines[j].starts_with('└'))
                .unwrap_or_else(|| panic!("an unclosed table:\n{text}"));
            let want = heads.next();
            let mut table = boxed(&lines[i..=end], want.map(|t| t.rows.len()));
            i = end + 1;
            if let Some(first) = lines.get(i).and_then(|l| l.strip_prefix(LEFT_OUT)) {
                // The note is wrapped to the width: its lines run to the way to see them.
                let mut note = first.to_owned();
                while !note.ends_with("shows every column).") && i + 1 < lines.len() {
                    i += 1;
                    note.push(' ');
                    note.push_str(lines[i]);
                }
                let note = note.as_str();
                // The names, in backticks, before the way to see them.
                let names = note.split(" (`--width").next().unwrap_or(note);
                table.left_out = names.split('`').skip(1).step_by(2).map(normal).collect();
                assert!(
                    !table.left_out.is_empty(),
                    "a note naming no column: {note}"
                );
                i += 1;
            }
            out.push(Segment::Table(table));
        } else if line.starts_with("─[ ") {
            let want = heads
                .next()
                .unwrap_or_else(|| panic!("a vertical table without a reference:\n{text}"));
            let end = (i..lines.len())
                .find(|&j| !lines[j].is_empty() && lines[j].chars().all(|c| c == '─'))
                .unwrap_or_else(|| panic!("a vertical table without its closing rule:\n{text}"));
            out.push(Segment::Table(vertical(&lines[i..=end], want)));
            i = end + 1;
        } else {
            out.push(Segment::Text(line.to_owned()));
            i += 1;
        }
    }
    out
}

/// Reads a boxed table. Rows are told apart by the rules between them when there are any;
/// without rules each line is a row, unless the reference has a single row.
fn boxed(lines: &[&str], rows_expected: Option<usize>) -> Parsed {
    let cells = |line: &str| -> Vec<String> {
        let inner = line
            .strip_prefix('│')
            .and_then(|l| l.strip_suffix('│'))
            .unwrap_or_else(|| panic!("not a table line: {line}"));
        inner.split('┆').map(|c| c.trim().to_owned()).collect()
    };
    // Appends one drawn line to a row of pieces.
    let add = |row: &mut Vec<Vec<String>>, line: &str| {
        let cs = cells(line);
        if row.is_empty() {
            row.resize(cs.len(), Vec::new());
        }
        assert_eq!(row.len(), cs.len(), "ragged table line: {line}");
        for (pieces, c) in row.iter_mut().zip(cs) {
            if !c.is_empty() {
                pieces.push(c);
            }
        }
    };
    let ruled = lines.iter().any(|l| l.starts_with('├'));
    let body_start = lines
        .iter()
        .position(|l| l.starts_with('╞'))
        .expect("a table with a header");
    let mut header = Vec::new();
    for line in &lines[1..body_start] {
        add(&mut header, line);
    }
    let body = &lines[body_start + 1..lines.len() - 1];
    let mut rows: Vec<Vec<Vec<String>>> = Vec::new();
    let mut current = Vec::new();
    let one_row = !ruled && rows_expected == Some(1);
    for line in body {
        if line.starts_with('├') {
            rows.push(std::mem::take(&mut current));
            continue;
        }
        add(&mut current, line);
        if !ruled && !one_row {
            rows.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        rows.push(current);
    }
    Parsed {
        header: header.into_iter().map(|h| vec![glue(&h)]).collect(),
        rows,
        lines: lines.iter().map(|l| l.to_string()).collect(),
        left_out: Vec::new(),
    }
}

/// Reads a vertical table: blocks headed `─[ n ]`, numbered from 1, each with one
/// `column:` line per column of `want`, in order, and its value's continuation lines
/// (indented) after it.
fn vertical(lines: &[&str], want: &Parsed) -> Parsed {
    let names: Vec<String> = want.header.iter().map(|h| normal(&h.join(" "))).collect();
    let mut rows = Vec::new();
    let mut i = 0;
    while i + 1 < lines.len() {
        let label = format!("─[ {} ]", rows.len() + 1);
        assert!(
            lines[i].starts_with(&label),
            "expected the block {label}, found: {}",
            lines[i]
        );
        i += 1;
        let mut row = Vec::new();
        for name in &names {
            let key = format!("{name}:");
            let first = lines[i]
                .strip_prefix(&key)
                .unwrap_or_else(|| panic!("expected `{key}`, found: {}", lines[i]));
            let mut pieces: Vec<String> = Vec::new();
            if !first.trim().is_empty() {
                pieces.push(first.trim().to_owned());
            }
            i += 1;
            while i < lines.len() && lines[i].starts_with(' ') {
                pieces.push(lines[i].trim().to_owned());
                i += 1;
            }
            row.push(pieces);
        }
        rows.push(row);
    }
    Parsed {
        header: names.into_iter().map(|n| vec![n]).collect(),
        rows,
        lines: lines.iter().map(|l| l.to_string()).collect(),
        left_out: Vec::new(),
    }
}

#[test]
fn tables_keep_a_grid_at_100_and_120_columns() {
    let mut cards = Vec::new();
    for args in GRIDS {
        for width in ["100", "120"] {
            let mut full = args.to_vec();
            full.extend(["--no-store", "--width", width]);
            let text = ok(&full);
            let what = format!("ludotrace {}", full.join(" "));
            assert!(text.contains('┌'), "{what}: no table:\n{text}");
            if text.lines().any(|l| l.starts_with("─[ ")) {
                cards.push(format!("{what}:\n{text}"));
            }
            let limit: usize = width.parse().unwrap();
            for line in text.lines().filter(|l| l.starts_with(['┌', '│', '└'])) {
                assert!(
                    line.width() <= limit,
                    "{what}: a line of {}:\n{line}",
                    line.width()
                );
            }
        }
    }
    assert!(
        cards.is_empty(),
        "cards instead of a grid:\n{}",
        cards.join("\n")
    );
    // The note says what was left out and how to see it.
    let text = ok(&[
        "run",
        "seega",
        "--all-interpretations",
        "-n",
        "20",
        "--no-store",
        "--width",
        "100",
    ]);
    let flat = text.replace('\n', " ");
    assert!(
        flat.contains(
            "Columns left out to fit 100 columns: `first mover wins`, `second mover wins`"
        ) && flat.contains("(`--width 0` shows every column)"),
        "{text}"
    );
}

#[test]
fn width_is_bounded() {
    for bad in ["19", "1", "1001", "1000000000000", "-3", "eighty", ""] {
        let (code, out, err) = run(bin().args(["list", &format!("--width={bad}")]));
        assert_eq!(code, 2, "--width {bad:?} was accepted: {out}");
        assert!(
            err.contains("--width") && err.contains("0 (no wrapping) or a width from 20 to 1000"),
            "--width {bad:?}: {err}"
        );
    }
    // The bounds themselves are widths; a width before the subcommand counts the same.
    let narrow = ok(&["--width", "20", "list"]);
    assert!(narrow.lines().all(|l| l.width() <= 20), "{narrow}");
    assert_eq!(ok(&["list", "--width", "1000"]), ok(&["list"]));
}

#[test]
fn piped_output_ignores_columns_and_markdown_is_never_wrapped() {
    let whole = ok(&["list"]);
    let (code, with_columns, _) = run(bin().env("COLUMNS", "40").arg("list"));
    assert_eq!(code, 0);
    assert_eq!(with_columns, whole, "COLUMNS applied to piped output");
    // An explicit width applies to piped output.
    assert_ne!(ok(&["list", "--width", "80"]), whole);
    assert_eq!(
        ok(&["list", "--format", "markdown", "--width", "40"]),
        ok(&["list", "--format", "markdown"])
    );
}
