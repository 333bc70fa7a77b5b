//! Citations of a game's sources: BibTeX, CSL-JSON and plain text.
//!
//! The bibliographic data is kept in CSL-JSON field names in `sources/`, so each export is a
//! mapping. A game's citation list is its primary work with the passage's pages, the DLP
//! evidence records and the encodings its ruleset rests on, and the ludotrace ruleset itself
//! (with the corpus hash); [`tool`] is the program and corpus as a whole. Every work has one
//! key, its corpus id ([`key`]), the same in BibTeX, in CSL-JSON and in the text. People are
//! family and given names, bodies (the Digital Ludeme Project, the ludotrace authors) one
//! literal name; a work without an author is cited in the text by its short title. BibTeX is
//! written by the `biblatex` crate, which escapes what LaTeX would read as commands, in the
//! classic entry types (`@article`, `@book`, `@misc`). Where a fact is not known the entry
//! says so ("not recorded") rather than guessing.

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
    /// Citation key, also the CSL item's `id`.
    pub key: String,
    /// CSL item.
    pub csl: Value,
    /// The part cited (pages of the passage), if any.
    pub locator: Option<String>,
}

/// The citation key of a work from its corpus id: the id itself (`davies-1925`,
/// `DLP.Evidence.869`), with an encoding's `#` written `:` (`ludii-1.0.8:seega`), since TeX
/// reads `#` in `\cite{...}` as a macro parameter.
pub fn key(id: &str) -> String {
    id.replace('#', ":")
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
                    key: key(&p.work),
                    csl: csl_json(&key(&p.work), csl),
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
                "id": key(&e.id),
                "type": "webpage",
                "author": [{ "literal": "Digital Ludeme Project" }],
                // The record id in words: a style that puts titles in title case would
                // otherwise lower the capitals after its dots ("Dlp.evidence.869").
                "title": format!("{}: {} ({})", e.id.replace('.', " "), e.game_name, e.record_type),
                "container-title": "Ludii Portal",
                "note": format!(
                    "Evidence record {} of the Digital Ludeme Project (Maastricht University, \
                     ERC Consolidator Grant 771292), quoting {} Confidence {}. Date of \
                     publication not recorded.{}",
                    e.id,
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
                key: key(&e.id),
                csl,
                locator: None,
            });
        } else if let Some(e) = corpus.encodings.get(anchor) {
            let file = e.path.rsplit('/').next().unwrap_or(&e.path);
            let mut item = json!({
                "id": key(&e.id),
                "type": "software",
                "title": format!("{file} ({}{})", e.system, e.ruleset.as_ref().map_or(String::new(), |r| format!(", ruleset {r}"))),
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
            match &e.credit {
                Some(name) => item["author"] = json!([name]),
                // Cited in the text by the file's name, not by the whole title.
                None => item["title-short"] = json!(file),
            }
            out.push(Reference {
                key: key(&e.id),
                csl: item,
                locator: None,
            });
        }
    }
    let id = format!("ludotrace-{}", game.id);
    out.push(Reference {
        key: id.clone(),
        csl: json!({
            "id": id,
            "type": "dataset",
            "author": [{ "literal": "The ludotrace editors" }],
            "title": format!("{}: source-annotated ruleset", game.name),
            "container-title": "ludotrace corpus",
            "version": env!("CARGO_PKG_VERSION"),
            "issued": release_date(),
            "URL": REPOSITORY,
            "note": format!("File {}, corpus BLAKE3 {corpus_hash}.", game.file),
        }),
        locator: None,
    });
    out
}

/// The release date of this version of ludotrace and its corpus (year, month, day), for
/// citations; CITATION.cff's `date-released` says the same.
pub const RELEASE_DATE: (i32, u32, u32) = (2026, 11, 29);

/// Where ludotrace is published: Cargo.toml's `repository`.
pub const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

fn release_date() -> Value {
    let (y, m, d) = RELEASE_DATE;
    json!({ "date-parts": [[y, m, d]] })
}

/// The program and its corpus as one reference (`cite --tool`): its authors as a body, its
/// version, release date and repository.
pub fn tool(corpus_hash: &str) -> Reference {
    Reference {
        key: "ludotrace".to_owned(),
        csl: json!({
            "id": "ludotrace",
            "type": "software",
            "author": [{ "literal": "The ludotrace authors" }],
            "title": "ludotrace: a corpus and toolkit for traditional board games as their historical sources describe them",
            "version": env!("CARGO_PKG_VERSION"),
            "issued": release_date(),
            "URL": REPOSITORY,
            "note": format!(
                "Licensed MIT OR Apache-2.0 (the quoted texts excepted: see LICENSE). Corpus \
                 BLAKE3 {corpus_hash}."
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
    // A work without an author is cited in the text by its title: a short one, unless the
    // data gives its own.
    if item.author.is_empty() && item.title_short.is_none() {
        v["title-short"] = json!(short_title(&item.title));
    }
    v
}

/// A title's main part, before a colon or a parenthesis: `Seega.lud (Ludii, ...)` is cited
/// as `Seega.lud`, `Games of the Sudan: a survey` as `Games of the Sudan`.
fn short_title(title: &str) -> String {
    title
        .split([':', '('])
        .next()
        .unwrap_or(title)
        .trim()
        .to_owned()
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
///
/// Works of one author and year are told apart by a letter after the year (`1925a`,
/// `n.d.-b`). The processor gives the letters in the order the works are first cited, and
/// the style orders its bibliography by title: so the works are rendered once to learn that
/// order and again cited in it, which makes the letters run a, b, c down the bibliography
/// and each in-text citation carry its entry's letter.
pub fn cite(refs: &[Reference], style: &hayagriva::citationberg::IndependentStyle) -> Vec<Cited> {
    let first = render_once(refs, style);
    let ordered: Vec<Reference> = first
        .iter()
        .filter_map(|c| refs.iter().find(|r| r.key == c.id).cloned())
        .collect();
    if ordered.len() != refs.len() || ordered.iter().zip(refs).all(|(a, b)| a.key == b.key) {
        return first;
    }
    render_once(&ordered, style)
}

fn render_once(
    refs: &[Reference],
    style: &hayagriva::citationberg::IndependentStyle,
) -> Vec<Cited> {
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
    // The processor prints a locator as given: its pages are written here as the style
    // writes a range (Chicago's 138–39, APA's 138–139), with an en dash.
    let format = style.settings.page_range_format.unwrap_or_default();
    let locators: Vec<Option<String>> = refs
        .iter()
        .map(|r| {
            r.locator
                .as_deref()
                .map(|p| match p.split_once(['–', '-']) {
                    Some((a, b)) => {
                        let mut out = String::new();
                        match format.format(&mut out, a, b, Some("–")) {
                            Ok(()) => out,
                            Err(_) => p.to_owned(),
                        }
                    }
                    None => p.to_owned(),
                })
        })
        .collect();
    let mut driver = BibliographyDriver::new();
    for (item, at) in items.iter().zip(&locators) {
        let at = at
            .as_deref()
            .map(|p| SpecificLocator(Locator::Page, LocatorPayload::Str(p)));
        driver.citation(CitationRequest::from_items(
            vec![CitationItem::with_locator(item, at)],
            style,
            &locales,
        ));
    }
    let done = driver.finish(BibliographyRequest::new(style, None, &locales));
    let names: Vec<(String, String)> = refs
        .iter()
        .filter_map(|r| s(&r.csl, "title"))
        .flat_map(particles)
        .collect();
    let plain = |e: &hayagriva::ElemChildren| {
        let mut s = String::new();
        e.write_buf(&mut s, BufWriteFormat::Plain)
            .expect("a string takes the text");
        let mut t = tidy(s.trim());
        for (raised, written) in &names {
            t = t.replace(raised, written);
        }
        t
    };
    let in_text: Vec<(String, String)> = refs
        .iter()
        .zip(&done.citations)
        .map(|(r, c)| (r.key.clone(), plain(&c.citation)))
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

/// The particles of the names in a title (`Um el Tuweisat`, `Li'b al-'Aqil`), each as a
/// title-case style raises it after the word before it (`Um El`) and as the title writes it
/// (`Um el`): a style's title case keeps a name's own capitals (CMOS 17 §8.159), which the
/// processor cannot tell from other words.
fn particles(title: &str) -> Vec<(String, String)> {
    const PARTICLES: &[&str] = &[
        "el", "al", "ed", "es", "ul", "bin", "ibn", "abu", "de", "del", "della", "di", "da", "du",
        "van", "von", "der", "den", "le", "la",
    ];
    let words: Vec<&str> = title.split(' ').collect();
    words
        .windows(2)
        .filter(|w| {
            let head = w[1].split('-').next().unwrap_or(w[1]);
            w[0].starts_with(char::is_uppercase) && PARTICLES.contains(&head)
        })
        .map(|w| {
            let mut raised = w[1].chars();
            let first = raised.next().map(|c| c.to_uppercase().to_string());
            (
                format!("{} {}{}", w[0], first.unwrap_or_default(), raised.as_str()),
                format!("{} {}", w[0], w[1]),
            )
        })
        .collect()
}

/// What the archived styles render that their own specifications do not: APA's
/// "Retrieved" before a web address with no access date (the style's "Retrieved DATE, from"
/// lost its date and "from" but kept the word; APA 7 gives the bare address then), and a
/// doubled full stop where a field that ends in one meets the style's own.
fn tidy(text: &str) -> String {
    // (And Chicago's space before the colon of a volume without an issue: `8 : 137–52`.)
    // (And ludotrace's own name, which is written lower-case, raised by a title case.)
    let t = text
        .replace("Retrieved http", "http")
        .replace(" : ", ": ")
        .replace("Ludotrace", "ludotrace");
    let chars: Vec<char> = t.chars().collect();
    // A full stop right after another is dropped, unless it is part of an ellipsis.
    (0..chars.len())
        .filter(|&i| {
            !(chars[i] == '.'
                && i > 0
                && chars[i - 1] == '.'
                && chars.get(i + 1) != Some(&'.')
                && (i < 2 || chars[i - 2] != '.'))
        })
        .map(|i| chars[i])
        .collect()
}

/// The text bibliography: each reference as `style` renders it, a line each, followed by
/// its citation key, its in-text citation (or, in a note style, its note) and what its
/// record notes (the CSL styles print no notes, and the notes say what is not known).
pub fn text(refs: &[Reference], style: &hayagriva::citationberg::IndependentStyle) -> String {
    use hayagriva::citationberg::StyleClass;
    let cited_as = match style.settings.class {
        StyleClass::Note => "In a note",
        StyleClass::InText => "In the text",
    };
    let mut out = String::new();
    for c in cite(refs, style) {
        let mut line = c.entry.clone();
        line.push_str(&format!(" [Key: {}]", c.id));
        if !c.in_text.is_empty() {
            line.push_str(&format!(" [{cited_as}: {}]", sentence(&c.in_text)));
        }
        if let Some(note) = refs
            .iter()
            .find(|r| r.key == c.id)
            .and_then(|r| s(&r.csl, "note"))
        {
            line.push_str(&format!(" [Note: {}]", sentence(note.trim())));
        }
        out.push_str(line.trim());
        out.push('\n');
    }
    out
}

/// Text ending in one full stop, whether it had one or not.
fn sentence(t: &str) -> String {
    if t.ends_with('.') {
        t.to_owned()
    } else {
        format!("{t}.")
    }
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
    // Classic BibTeX's types for the CSL types that have one; the others (a web page, a
    // program, a data set) are @misc, which every BibTeX style reads.
    let (kind, classic) = match s(v, "type") {
        Some("article-journal" | "article-magazine" | "article-newspaper") => {
            (EntryType::Article, "article")
        }
        Some("book") => (EntryType::Book, "book"),
        Some("chapter") => (EntryType::InCollection, "incollection"),
        Some("paper-conference") => (EntryType::InProceedings, "inproceedings"),
        Some("report") => (EntryType::TechReport, "techreport"),
        Some("thesis") => (EntryType::PhdThesis, "phdthesis"),
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
            "incollection" | "inproceedings" => "booktitle",
            _ => "howpublished",
        };
        entry.set(field, normal(j));
    }
    let publisher = match classic {
        "techreport" => "institution",
        "phdthesis" => "school",
        _ => "publisher",
    };
    for (csl, field) in [
        ("volume", "volume"),
        ("issue", "number"),
        ("publisher", publisher),
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
        entry.set("pages", normal(&p.replace(['–', '-'], "--")));
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
