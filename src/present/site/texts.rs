//! The source texts on a game's page: each witness of a passage, an evidence record's rules
//! or an encoding's metadata as runs of continuous text, every quote found in them with the
//! loader's own folding (`corpus::text::find`) and marked, each stretch linked to what quotes
//! it. Kept apart from the page's layout so that each file stays readable.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Range;

use crate::corpus::{self, Cite, Corpus};
use crate::present::html::escape;

/// Who quotes: a clause, a remark, a choice's question, an option or a register point, by
/// its element id on the page.
pub(super) struct Quote<'a> {
    pub(super) cite: &'a Cite,
    /// The element that quotes it.
    pub(super) owner: String,
    /// What quotes it, in words (`clause board`, `option origin: skip`).
    pub(super) label: String,
    /// `q-N`: the id of its first marked occurrence.
    pub(super) id: String,
}

/// A text shown on the page: one witness of a passage, an evidence record's rules, an
/// encoding's metadata. Runs are continuous text (a quote falls inside one), each piece with
/// the page break or figure before it.
pub(super) struct Block<'a> {
    pub(super) anchor: &'a str,
    /// The witness label quotes restrict themselves to (`rules`, `metadata` for records and
    /// encodings).
    pub(super) witness: &'a str,
    pub(super) title: String,
    pub(super) runs: Vec<Vec<Piece<'a>>>,
}

pub(super) struct Piece<'a> {
    pub(super) page: Option<u32>,
    pub(super) figure: Option<&'a str>,
    pub(super) label: Option<&'a str>,
    pub(super) text: &'a str,
}

/// Where each quote is marked: `(quote index, block, run, range)`, the first occurrence in
/// each block that has it.
type Found = Vec<(usize, usize, usize, Range<usize>)>;

pub(super) fn blocks<'a>(corpus: &'a Corpus, anchor: &'a str) -> Vec<Block<'a>> {
    if let Some(p) = corpus.passages.get(anchor) {
        return p
            .readings
            .iter()
            .map(|r| {
                let mut runs: Vec<Vec<Piece>> = Vec::new();
                for (i, s) in r.segments.iter().enumerate() {
                    let piece = Piece {
                        page: s.page,
                        figure: s.figure.as_deref(),
                        label: None,
                        text: &s.text,
                    };
                    match runs.last_mut() {
                        Some(run) if i > 0 && !s.after_elision => run.push(piece),
                        _ => runs.push(vec![piece]),
                    }
                }
                let title = corpus
                    .witnesses
                    .get(&r.witness)
                    .map_or_else(|| r.witness.clone(), |w| format!("{} ({})", w.title, w.id));
                Block {
                    anchor,
                    witness: &r.witness,
                    title,
                    runs,
                }
            })
            .collect();
    }
    if let Some(e) = corpus.evidence.get(anchor) {
        return vec![Block {
            anchor,
            witness: "rules",
            title: format!("the DLP's paraphrase of the rules ({})", e.source),
            runs: vec![vec![Piece {
                page: None,
                figure: None,
                label: None,
                text: &e.rules,
            }]],
        }];
    }
    if let Some(e) = corpus.encodings.get(anchor) {
        return vec![Block {
            anchor,
            witness: "metadata",
            title: format!("the encoding's metadata ({} {})", e.system, e.version),
            runs: e
                .texts
                .iter()
                .map(|(field, _, text)| {
                    vec![Piece {
                        page: None,
                        figure: None,
                        label: Some(field),
                        text,
                    }]
                })
                .collect(),
        }];
    }
    Vec::new()
}

/// A run's text as the loader compares it: the pieces joined by a space.
fn run_text(run: &[Piece]) -> (String, Vec<usize>) {
    let mut text = String::new();
    let mut starts = Vec::new();
    for (i, p) in run.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        starts.push(text.len());
        text.push_str(p.text);
    }
    (text, starts)
}

/// Finds each quote in the blocks of its anchor (the witness it names, or all), first
/// occurrence per block.
pub(super) fn find_quotes(blocks: &[Block], quotes: &[Quote]) -> Found {
    let mut found = Vec::new();
    for (qi, q) in quotes.iter().enumerate() {
        for (bi, b) in blocks.iter().enumerate() {
            if b.anchor != q.cite.at || q.cite.witness.as_ref().is_some_and(|w| w != b.witness) {
                continue;
            }
            for (ri, run) in b.runs.iter().enumerate() {
                if let Some(r) = corpus::text::find(&run_text(run).0, &q.cite.quote) {
                    found.push((qi, bi, ri, r));
                    break;
                }
            }
        }
    }
    found
}

/// One run with its quotes marked. Where quotes overlap, each stretch of text is one `<mark>`
/// naming every quote over it (`data-q`) and linking to the innermost one's owner; a quote's
/// id is on its first stretch (or on an empty span there, when two begin together).
pub(super) fn render_run(
    b: &mut String,
    run: &[Piece],
    marks: &[(usize, Range<usize>)],
    quotes: &[Quote],
    ids: &mut BTreeSet<String>,
) {
    let (text, starts) = run_text(run);
    // An encoding's metadata is quoted from a string of its file, with `\"` for `"`.
    let metadata = run.iter().any(|p| p.label.is_some());
    let mut cuts: BTreeSet<usize> = starts.iter().copied().collect();
    cuts.insert(text.len());
    for (_, r) in marks {
        cuts.insert(r.start);
        cuts.insert(r.end);
    }
    let cuts: Vec<usize> = cuts.into_iter().collect();
    for w in cuts.windows(2) {
        let (from, to) = (w[0], w[1]);
        if let Some(pi) = starts.iter().position(|&s| s == from) {
            let p = &run[pi];
            if let Some(l) = p.label {
                let _ = write!(b, "<span class=\"fig\">{}:</span> ", escape(l));
            }
            if let Some(f) = p.figure {
                let _ = write!(b, "<span class=\"fig\">[{}]</span> ", escape(f));
            }
            if let Some(pg) = p.page {
                let _ = write!(b, "<span class=\"pb\">[p. {pg}]</span> ");
            }
        }
        let over: Vec<&(usize, Range<usize>)> = marks
            .iter()
            .filter(|(_, r)| r.start <= from && to <= r.end)
            .collect();
        let piece = escape(&shown(&text, from..to, metadata));
        if over.is_empty() {
            b.push_str(&piece);
            continue;
        }
        // Innermost: the latest to begin, then the shortest.
        let inner = over
            .iter()
            .max_by_key(|(qi, r)| (r.start, std::cmp::Reverse(r.end), std::cmp::Reverse(*qi)))
            .map(|(qi, _)| *qi)
            .unwrap_or(over[0].0);
        let mut beginning: Vec<String> = Vec::new();
        for (qi, r) in &over {
            if r.start == from {
                let id = &quotes[*qi].id;
                let mut id = id.clone();
                let mut k = 2;
                while ids.contains(&id) {
                    id = format!("{}-{k}", quotes[*qi].id);
                    k += 1;
                }
                ids.insert(id.clone());
                beginning.push(id);
            }
        }
        let mark_id = beginning.pop();
        for id in &beginning {
            let _ = write!(b, "<span id=\"{id}\"></span>");
        }
        let data: Vec<&str> = over.iter().map(|(qi, _)| quotes[*qi].id.as_str()).collect();
        let mut by: Vec<&str> = Vec::new();
        for (qi, _) in &over {
            if !by.contains(&quotes[*qi].label.as_str()) {
                by.push(&quotes[*qi].label);
            }
        }
        let _ = write!(
            b,
            "<mark{} data-q=\"{}\" title=\"quoted by {}\"><a href=\"#{}\">{piece}</a></mark>",
            mark_id.map_or(String::new(), |id| format!(" id=\"{id}\"")),
            data.join(" "),
            escape(&by.join("; ")),
            quotes[inner].owner
        );
    }
}

/// The text of `range` as a reader sees it: in an encoding's metadata (`metadata`), a `\"`
/// is the string's escape of a quotation mark, shown as `"`.
fn shown(text: &str, range: Range<usize>, metadata: bool) -> String {
    let piece = &text[range.clone()];
    if !metadata || !piece.contains('\\') {
        return piece.to_owned();
    }
    let mut out = String::with_capacity(piece.len());
    for (i, c) in piece.char_indices() {
        if c == '\\' && text[range.start + i + 1..].starts_with('"') {
            continue;
        }
        out.push(c);
    }
    out
}
