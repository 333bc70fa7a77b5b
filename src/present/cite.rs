//! Citations of a game's sources: BibTeX, CSL-JSON and plain text.
//!
//! The bibliographic data is kept in CSL-JSON field names in `sources/`, so each export is a
//! mapping. A game's citation list is its primary work with the passage's pages, the DLP
//! evidence records and the encodings its ruleset rests on, and the ludotrace ruleset itself
//! (with the corpus hash); [`tool`] is the program and corpus as a whole. BibTeX is written
//! by the `biblatex` crate, which escapes what LaTeX would read as commands, in the classic
//! entry types (`@article`, `@book`, `@misc`). Where a fact is not known the entry says so
//! ("not recorded") rather than guessing.

use serde_json::{Value, json};

use crate::corpus::{Corpus, CslItem, Game};

/// A citation style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// BibTeX entries.
    Bibtex,
    /// CSL-JSON items (an array).
    CslJson,
    /// Plain author-date text, one reference per line.
    Text,
}

/// One reference with its CSL item and a citation key.
#[derive(Debug, Clone)]
pub struct Reference {
    /// Citation key.
    pub key: String,
    /// CSL item.
    pub csl: Value,
    /// The part cited (pages of the passage), if any.
    pub locator: Option<String>,
}

/// The references of a game, primary source first; `corpus_hash` identifies the corpus the
/// ruleset is read from.
pub fn references(corpus: &Corpus, game: &Game, corpus_hash: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut works_done = Vec::new();
    for anchor in &game.sources {
        if let Some(p) = corpus.passages.get(anchor) {
            if works_done.contains(&p.work) {
                continue;
            }
            works_done.push(p.work.clone());
            if let Some(csl) = corpus.work(&p.work).and_then(|w| w.csl.as_ref()) {
                out.push(Reference {
                    key: p.work.replace('-', ""),
                    csl: csl_json(&p.work, csl),
                    locator: Some(p.page.clone()),
                });
            }
        } else if let Some(e) = corpus.evidence.get(anchor) {
            // The page it was read on: the first of its witnesses with a web address.
            let page = e
                .witnesses
                .iter()
                .filter_map(|w| corpus.witnesses.get(w))
                .find(|w| w.url.is_some());
            let mut csl = json!({
                "id": e.id,
                "type": "webpage",
                "author": [{ "literal": "Digital Ludeme Project" }],
                "title": format!("{}: {} ({})", e.id, e.game_name, e.record_type),
                "container-title": "Ludii Portal",
                "note": format!(
                    "Evidence record of the Digital Ludeme Project (Maastricht University, ERC \
                     Consolidator Grant 771292), quoting {} Confidence {}. Date of publication \
                     not recorded.{}",
                    e.content_citation.trim_end_matches('.').to_owned() + ".",
                    e.confidence,
                    if page.is_some() {
                        ""
                    } else {
                        " Web address of its page not recorded."
                    }
                ),
            });
            if let Some(w) = page {
                csl["URL"] = json!(w.url);
                if let Some(a) = &w.accessed {
                    csl["accessed"] = date_parts(a);
                }
            }
            out.push(Reference {
                key: e.id.replace('.', "-").to_lowercase(),
                csl,
                locator: None,
            });
        } else if let Some(e) = corpus.encodings.get(anchor) {
            let mut item = json!({
                "id": e.id,
                "type": "software",
                "title": format!("{} ({}{})", e.path.rsplit('/').next().unwrap_or(&e.path), e.system, e.ruleset.as_ref().map_or(String::new(), |r| format!(", ruleset {r}"))),
                "version": e.version,
                // The repository holds the file; it is not its author or publisher (a
                // style that puts a publisher where no author is would misattribute it).
                "archive": e.repository,
                "URL": format!("https://github.com/{}/blob/{}/{}", e.repository, e.commit, e.path.replace(' ', "%20")),
                "note": format!(
                    "{} {} at commit {}.{}",
                    e.repository,
                    e.path,
                    e.commit,
                    if e.credit.is_some() { "" } else { " Author not recorded." }
                ),
            });
            if let Some(credit) = &e.credit {
                item["author"] = json!([{ "literal": credit }]);
            }
            out.push(Reference {
                key: e.id.replace(['#', '.'], "-"),
                csl: item,
                locator: None,
            });
        }
    }
    out.push(Reference {
        key: format!("ludotrace-{}", game.id),
        csl: json!({
            "id": format!("ludotrace-{}", game.id),
            "type": "dataset",
            "author": [{ "literal": "The ludotrace editors" }],
            "title": format!("{}: source-annotated ruleset", game.name),
            "container-title": "ludotrace corpus",
            "version": env!("CARGO_PKG_VERSION"),
            "issued": { "date-parts": [[RELEASE_YEAR]] },
            "note": format!("File {}, corpus BLAKE3 {corpus_hash}.", game.file),
        }),
        locator: None,
    });
    out
}

/// The year of this version of ludotrace and its corpus, for citations.
pub const RELEASE_YEAR: i32 = 2026;

/// The program and its corpus as one reference (`cite --tool`).
pub fn tool(corpus_hash: &str) -> Reference {
    Reference {
        key: "ludotrace".to_owned(),
        csl: json!({
            "id": "ludotrace",
            "type": "software",
            "author": [{ "literal": "The ludotrace authors" }],
            "title": "ludotrace: a corpus and toolkit for traditional board games as their historical sources describe them",
            "version": env!("CARGO_PKG_VERSION"),
            "issued": { "date-parts": [[RELEASE_YEAR]] },
            "note": format!(
                "Licensed MIT OR Apache-2.0 (the quoted texts excepted: see LICENSE). Corpus \
                 BLAKE3 {corpus_hash}. Web address not recorded."
            ),
        }),
        locator: None,
    }
}

/// `YYYY-MM-DD` as CSL date parts.
fn date_parts(iso: &str) -> Value {
    let parts: Vec<i64> = iso.split('-').filter_map(|p| p.parse().ok()).collect();
    json!({ "date-parts": [parts] })
}

fn csl_json(id: &str, item: &CslItem) -> Value {
    let mut v = serde_json::to_value(item).expect("CSL items serialise");
    v["id"] = json!(id);
    v
}

/// Renders references in a style; text in the CSL style [`DEFAULT_CSL`].
pub fn render(refs: &[Reference], style: Style) -> String {
    match style {
        Style::CslJson => {
            let items: Vec<&Value> = refs.iter().map(|r| &r.csl).collect();
            serde_json::to_string_pretty(&items).expect("JSON values serialise") + "\n"
        }
        Style::Bibtex => refs.iter().map(bibtex).collect::<Vec<_>>().join("\n"),
        Style::Text => text(
            refs,
            &csl_style(DEFAULT_CSL).expect("the default style is archived"),
        ),
    }
}

/// The Citation Style Language style of the text bibliography, unless another is asked for:
/// APA (7th edition), whose in-text citations carry the pages (`(Davies, 1925, pp.
/// 143–144)`) and whose references say "n.d." where no date is known.
pub const DEFAULT_CSL: &str = "apa";

/// A style of the CSL styles hayagriva carries, by name.
///
/// # Errors
/// A name it does not carry, with every name it does.
pub fn csl_style(name: &str) -> Result<hayagriva::citationberg::IndependentStyle, UnknownStyle> {
    use hayagriva::archive::ArchivedStyle;
    use hayagriva::citationberg::Style as Csl;
    match ArchivedStyle::by_name(name).map(ArchivedStyle::get) {
        Some(Csl::Independent(style)) => Ok(style),
        // A dependent style names its parent; none of the archive's is, but say so if met.
        _ => Err(UnknownStyle(name.to_owned())),
    }
}

/// A CSL style name hayagriva does not carry.
#[derive(Debug, thiserror::Error)]
#[error("--csl {0}: no such style; the styles are {names}", names = csl_names().join(", "))]
pub struct UnknownStyle(pub String);

/// The CSL styles hayagriva carries, each by its names (`american-psychological-association
/// (apa)`): any of them is taken.
pub fn csl_names() -> Vec<String> {
    hayagriva::archive::ArchivedStyle::all()
        .iter()
        .filter_map(|s| {
            let (first, others) = s.names().split_first()?;
            Some(if others.is_empty() {
                (*first).to_owned()
            } else {
                format!("{first} ({})", others.join(", "))
            })
        })
        .collect()
}

/// One reference as a CSL style renders it: the bibliography entry and the in-text
/// citation (with the pages cited, where the reference has them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cited {
    /// The reference's CSL id.
    pub id: String,
    /// Its bibliography entry.
    pub entry: String,
    /// Its in-text citation, e.g. `(Davies, 1925, pp. 143–144)`.
    pub in_text: String,
}

/// The references as `style` renders them, in the style's bibliography order.
pub fn cite(refs: &[Reference], style: &hayagriva::citationberg::IndependentStyle) -> Vec<Cited> {
    use hayagriva::citationberg::json::Item;
    use hayagriva::citationberg::taxonomy::Locator;
    use hayagriva::{
        BibliographyDriver, BibliographyRequest, BufWriteFormat, CitationItem, CitationRequest,
        LocatorPayload, SpecificLocator,
    };
    let locales = hayagriva::archive::locales();
    let items: Vec<Item> = refs
        .iter()
        .map(|r| serde_json::from_value(r.csl.clone()).expect("a CSL item is a JSON object"))
        .collect();
    let mut driver = BibliographyDriver::new();
    for (r, item) in refs.iter().zip(&items) {
        let at = r
            .locator
            .as_deref()
            .map(|p| SpecificLocator(Locator::Page, LocatorPayload::Str(p)));
        driver.citation(CitationRequest::from_items(
            vec![CitationItem::with_locator(item, at)],
            style,
            &locales,
        ));
    }
    let done = driver.finish(BibliographyRequest::new(style, None, &locales));
    let plain = |e: &hayagriva::ElemChildren| {
        let mut s = String::new();
        e.write_buf(&mut s, BufWriteFormat::Plain)
            .expect("a string takes the text");
        s.trim().to_owned()
    };
    let in_text: Vec<(String, String)> = refs
        .iter()
        .zip(&done.citations)
        .map(|(r, c)| {
            (
                s(&r.csl, "id").unwrap_or_default().to_owned(),
                plain(&c.citation),
            )
        })
        .collect();
    let entries: Vec<(String, String)> = done
        .bibliography
        .map(|b| {
            b.items
                .iter()
                .map(|i| (i.key.clone(), plain(&i.content)))
                .collect()
        })
        .unwrap_or_default();
    // A style without a bibliography gives the citations alone, in the references' order.
    let order: Vec<String> = if entries.is_empty() {
        in_text.iter().map(|(id, _)| id.clone()).collect()
    } else {
        entries.iter().map(|(id, _)| id.clone()).collect()
    };
    order
        .into_iter()
        .map(|id| Cited {
            entry: entries
                .iter()
                .find(|(k, _)| *k == id)
                .map(|(_, e)| e.clone())
                .unwrap_or_default(),
            in_text: in_text
                .iter()
                .find(|(k, _)| *k == id)
                .map(|(_, c)| c.clone())
                .unwrap_or_default(),
            id,
        })
        .collect()
}

/// The text bibliography: each reference as `style` renders it, a line each, followed by
/// its in-text citation and what its record notes (the CSL styles print no notes, and the
/// notes say what is not known).
pub fn text(refs: &[Reference], style: &hayagriva::citationberg::IndependentStyle) -> String {
    let mut out = String::new();
    for c in cite(refs, style) {
        let mut line = c.entry.clone();
        if !c.in_text.is_empty() {
            line.push_str(&format!(" [In the text: {}.]", c.in_text));
        }
        if let Some(note) = refs
            .iter()
            .find(|r| s(&r.csl, "id") == Some(c.id.as_str()))
            .and_then(|r| s(&r.csl, "note"))
        {
            line.push_str(&format!(" [Note: {}]", note.trim()));
        }
        out.push_str(line.trim());
        out.push('\n');
    }
    out
}

fn s<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn year(v: &Value) -> Option<i64> {
    v.get("issued")?.get("date-parts")?.get(0)?.get(0)?.as_i64()
}

fn bibtex(r: &Reference) -> String {
    use biblatex::{Chunk, Entry, EntryType, Spanned};
    let v = &r.csl;
    let (kind, classic) = match s(v, "type") {
        Some("article-journal") => (EntryType::Article, "article"),
        Some("book") => (EntryType::Book, "book"),
        _ => (EntryType::Misc, "misc"),
    };
    let mut entry = Entry::new(r.key.clone(), kind);
    // A normal chunk is escaped by the crate; a verbatim one is braced, so that BibTeX keeps
    // its capitals and does not read a body's name as a person's.
    let normal = |t: &str| vec![Spanned::zero(Chunk::Normal(t.to_owned()))];
    let braced = |t: &str| vec![Spanned::zero(Chunk::Verbatim(t.to_owned()))];
    let names: Vec<Vec<Spanned<Chunk>>> = v
        .get("author")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|n| match (s(n, "family"), s(n, "given"), s(n, "literal")) {
                    (Some(f), Some(g), _) => Some(normal(&format!("{f}, {g}"))),
                    (Some(f), None, _) => Some(normal(f)),
                    (None, _, Some(l)) => Some(braced(l)),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    if !names.is_empty() {
        let mut chunks = Vec::new();
        for (k, n) in names.into_iter().enumerate() {
            if k > 0 {
                chunks.push(Spanned::zero(Chunk::Normal(" and ".to_owned())));
            }
            chunks.extend(n);
        }
        entry.set("author", chunks);
    }
    if let Some(t) = s(v, "title") {
        entry.set("title", braced(t));
    }
    if let Some(j) = s(v, "container-title") {
        let field = match classic {
            "article" => "journal",
            "book" => "series",
            _ => "howpublished",
        };
        entry.set(field, normal(j));
    }
    for (csl, field) in [
        ("volume", "volume"),
        ("publisher", "publisher"),
        ("publisher-place", "address"),
    ] {
        if let Some(x) = s(v, csl) {
            // In a @misc the publisher (an encoding's repository) goes into the note.
            if classic == "misc" && csl == "publisher" {
                continue;
            }
            entry.set(field, normal(x));
        }
    }
    if let Some(y) = year(v) {
        entry.set("year", normal(&y.to_string()));
    }
    if let Some(p) = s(v, "page") {
        entry.set("pages", normal(&p.replace('–', "--")));
    }
    if let Some(u) = s(v, "URL") {
        entry.set("url", normal(u));
    }
    let mut note = String::new();
    if let Some(ver) = s(v, "version") {
        note.push_str(&format!("Version {ver}. "));
    }
    if let Some(n) = s(v, "number-of-volumes") {
        note.push_str(&format!("In {n} volumes. "));
    }
    if let Some(n) = s(v, "note") {
        note.push_str(n.trim());
        if !n.trim().ends_with('.') {
            note.push('.');
        }
        note.push(' ');
    }
    if let Some(a) = v.get("accessed").and_then(|a| a.get("date-parts")?.get(0)) {
        let parts: Vec<String> = a
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_i64)
            .map(|x| format!("{x:02}"))
            .collect();
        note.push_str(&format!("Accessed {}. ", parts.join("-")));
    }
    if let Some(loc) = &r.locator {
        note.push_str(&format!(
            "Game described on {}.",
            pages(loc).replace('–', "--")
        ));
    }
    let note = note.trim();
    if !note.is_empty() {
        entry.set("note", normal(note));
    }
    entry
        .to_bibtex_string()
        .map(|b| b + "\n")
        .unwrap_or_else(|e| format!("% {}: {e}\n", r.key))
}

/// `pp. 143–144`, or `p. 346` for one page.
fn pages(loc: &str) -> String {
    if loc.contains(['–', '-']) {
        format!("pp. {loc}")
    } else {
        format!("p. {loc}")
    }
}
