//! The source texts on a game's page: each witness of a passage, an evidence record's rules
//! or an encoding's metadata as runs of continuous text, every quote found in them with the
//! loader's own folding (`corpus::text::find`) and marked, each stretch linked to what quotes
//! it. Kept apart from the page's layout so that each file stays readable.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::ops::Range;

use std::collections::HashMap;

use super::{html_id, pages_of, points_of, work_short};
use crate::corpus::{self, Cite, Corpus, Game, Point};
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
pub(super) type Found = Vec<(usize, usize, usize, Range<usize>)>;

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

/// What a game page quotes and shows: every quote on it with its owner, in page order; the
/// texts shown (the game's sources, then anything else its quotes cite) and their blocks;
/// and where each quote is marked in them.
pub(super) fn page_texts<'c>(
    corpus: &'c Corpus,
    g: &'c Game,
    points: &[&'c Point],
) -> (Vec<Quote<'c>>, Vec<&'c str>, Vec<Block<'c>>, Found) {
    let mut quotes: Vec<Quote> = Vec::new();
    fn add<'a>(cites: &'a [Cite], owner: String, label: String, quotes: &mut Vec<Quote<'a>>) {
        for c in cites {
            let id = format!("q-{}", quotes.len() + 1);
            quotes.push(Quote {
                cite: c,
                owner: owner.clone(),
                label: label.clone(),
                id,
            });
        }
    }
    for c in &g.clauses {
        let owner = format!("clause-{}", html_id(&c.id));
        add(&c.cites, owner, format!("clause {}", c.id), &mut quotes);
    }
    for r in &g.remarks {
        let owner = format!("remark-{}", html_id(&r.id));
        add(&r.cites, owner, format!("remark {}", r.id), &mut quotes);
    }
    for ch in &g.choices {
        let owner = format!("choice-{}", html_id(&ch.id));
        add(
            &ch.cites,
            owner,
            format!("open point {}", ch.id),
            &mut quotes,
        );
        for o in &ch.options {
            let owner = format!("option-{}-{}", html_id(&ch.id), html_id(&o.id));
            let label = format!("option {}: {}", ch.id, o.id);
            add(&o.cites, owner, label, &mut quotes);
        }
    }
    for p in points {
        let label = format!("register point {}", p.id);
        add(&p.cites, html_id(&p.id), label, &mut quotes);
    }
    // The texts: the game's sources, then anything else its quotes cite.
    let mut anchors: Vec<&str> = Vec::new();
    for a in g
        .sources
        .iter()
        .map(String::as_str)
        .chain(quotes.iter().map(|q| q.cite.at.as_str()))
    {
        if !anchors.contains(&a) {
            anchors.push(a);
        }
    }
    let all_blocks: Vec<Block> = anchors.iter().flat_map(|a| blocks(corpus, a)).collect();
    let found = find_quotes(&all_blocks, &quotes);

    (quotes, anchors, all_blocks, found)
}

/// The texts of a game page, every quote marked (its id `q-N` on its first mark), each mark
/// linking to what quotes it.
pub(super) fn texts_html(
    corpus: &Corpus,
    anchors: &[&str],
    quotes: &[Quote],
    found: &Found,
    ids: &mut BTreeSet<String>,
) -> String {
    let mut b = String::new();
    let mut bi = 0;
    for a in anchors {
        let bl = blocks(corpus, a);
        if bl.is_empty() {
            continue;
        }
        let heading = if let Some(p) = corpus.passages.get(*a) {
            format!(
                "{}, {}: {} ({})",
                work_short(corpus, &p.work),
                escape(&p.heading),
                escape(a),
                escape(&pages_of(&p.page))
            )
        } else if let Some(e) = corpus.evidence.get(*a) {
            format!(
                "{}: {} ({}{})",
                escape(&e.id),
                escape(&e.game_name),
                escape(&e.date),
                e.location
                    .as_ref()
                    .map_or(String::new(), |l| format!(", {}", escape(l)))
            )
        } else if let Some(e) = corpus.encodings.get(*a) {
            format!(
                "{}: {} {} ({}, {})",
                escape(&e.id),
                escape(&e.system),
                escape(&e.version),
                escape(&e.path),
                escape(&e.commit)
            )
        } else {
            escape(a)
        };
        let _ = writeln!(
            b,
            "<section id=\"text-{}\">\n<h3>{heading}</h3>",
            html_id(a)
        );
        for block in &bl {
            let _ = write!(b, "<h4>Witness: {}", escape(&block.title));
            if let Some(w) = corpus.witnesses.get(block.witness)
                && let Some(url) = &w.url
            {
                let _ = write!(
                    b,
                    " <a href=\"{}\">{}</a>{}",
                    escape(url),
                    escape(url),
                    w.accessed
                        .as_ref()
                        .map_or(String::new(), |d| format!(", accessed {}", escape(d)))
                );
            }
            b.push_str("</h4>\n");
            if block
                .runs
                .iter()
                .all(|r| r.iter().all(|p| p.text.trim().is_empty()))
            {
                b.push_str(
                    "<p class=\"meta\">No text of this witness is recorded in the corpus.</p>\n",
                );
                bi += 1;
                continue;
            }
            b.push_str("<blockquote class=\"text\">");
            for (ri, run) in block.runs.iter().enumerate() {
                if ri > 0 {
                    b.push_str(if block.witness == "metadata" {
                        "<br />\n"
                    } else {
                        " <span class=\"el\">[…]</span> "
                    });
                }
                let marks: Vec<(usize, Range<usize>)> = found
                    .iter()
                    .filter(|(_, fb, fr, _)| *fb == bi && *fr == ri)
                    .map(|(qi, _, _, r)| (*qi, r.clone()))
                    .collect();
                render_run(&mut b, run, &marks, quotes, ids);
            }
            b.push_str("</blockquote>\n");
            bi += 1;
        }
        b.push_str("</section>\n");
    }
    b
}

/// Where each quote of a game stands on its page: for the element that quotes it (`clause-…`,
/// `choice-…`, `option-…-…`) and the quote's place among that element's quotes, the id of its
/// mark in the texts (`q-N`), for quotes that are marked.
pub(super) fn quote_marks(corpus: &Corpus, g: &Game) -> HashMap<(String, usize), String> {
    let points = points_of(corpus, g);
    let (quotes, _, _, found) = page_texts(corpus, g, &points);
    let mut out = HashMap::new();
    let mut nth: HashMap<&str, usize> = HashMap::new();
    for (qi, q) in quotes.iter().enumerate() {
        let k = nth.entry(q.owner.as_str()).or_insert(0);
        if found.iter().any(|(f, ..)| *f == qi) {
            out.insert((q.owner.clone(), *k), q.id.clone());
        }
        *k += 1;
    }
    out
}

/// A game's source texts as its page shows them, every quote marked with the page's ids
/// (`q-N`), then what quotes them (each clause, remark, open point, option and register
/// point, by the page's element ids), each linking to its quotes in the texts: the sources
/// of a page that stands alone (`explain --format html`).
pub(super) fn game_texts_html(corpus: &Corpus, g: &Game) -> String {
    let points = points_of(corpus, g);
    let (quotes, anchors, _, found) = page_texts(corpus, g, &points);
    let mut b = texts_html(corpus, &anchors, &quotes, &found, &mut BTreeSet::new());
    b.push_str("<h2 id=\"quoted-by\">What quotes them</h2>\n<ul>\n");
    let mut owners: Vec<&str> = Vec::new();
    for q in &quotes {
        if !owners.contains(&q.owner.as_str()) {
            owners.push(&q.owner);
        }
    }
    for owner in owners {
        let mine: Vec<(usize, &Quote)> = quotes
            .iter()
            .enumerate()
            .filter(|(_, q)| q.owner == owner)
            .collect();
        let links: Vec<String> = mine
            .iter()
            .map(|(qi, q)| {
                if found.iter().any(|(f, ..)| f == qi) {
                    format!("<a href=\"#{}\">“{}”</a>", q.id, escape(&q.cite.quote))
                } else {
                    format!("“{}”", escape(&q.cite.quote))
                }
            })
            .collect();
        let _ = writeln!(
            b,
            "<li id=\"{owner}\"><strong>{}</strong>: {}</li>",
            escape(&mine[0].1.label),
            links.join(" · ")
        );
    }
    b.push_str("</ul>\n");
    b
}
