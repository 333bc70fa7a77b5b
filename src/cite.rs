//! Citations of a game's sources: BibTeX, CSL-JSON and plain text.
//!
//! The bibliographic data is kept in CSL-JSON field names in `sources/`, so each export is a
//! mechanical mapping. A game's citation list is its primary work with the passage's pages,
//! the DLP evidence records and the encodings its ruleset rests on, and the ludotrace
//! ruleset itself.

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

/// The references of a game, primary source first.
pub fn references(corpus: &Corpus, game: &Game) -> Vec<Reference> {
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
            out.push(Reference {
                key: e.id.replace('.', "-").to_lowercase(),
                csl: json!({
                    "id": e.id,
                    "type": "webpage",
                    "title": format!("{}: {} ({})", e.id, e.game_name, e.record_type),
                    "container-title": "Ludii Portal, Digital Ludeme Project",
                    "note": format!("Evidence record, quoting {} Confidence {}", e.content_citation.trim_end_matches('.').to_owned() + ".", e.confidence),
                }),
                locator: None,
            });
        } else if let Some(e) = corpus.encodings.get(anchor) {
            let mut item = json!({
                "id": e.id,
                "type": "software",
                "title": format!("{} ({}{})", e.path.rsplit('/').next().unwrap_or(&e.path), e.system, e.ruleset.as_ref().map_or(String::new(), |r| format!(", ruleset {r}"))),
                "version": e.version,
                "publisher": e.repository,
                "note": format!("{} {} at commit {}", e.repository, e.path, e.commit),
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
            "title": format!("{}: source-annotated ruleset", game.name),
            "container-title": "ludotrace corpus",
            "version": env!("CARGO_PKG_VERSION"),
            "note": format!("file {}", game.file),
        }),
        locator: None,
    });
    out
}

fn csl_json(id: &str, item: &CslItem) -> Value {
    let mut v = serde_json::to_value(item).expect("CSL items serialise");
    v["id"] = json!(id);
    v
}

/// Renders references in a style.
pub fn render(refs: &[Reference], style: Style) -> String {
    match style {
        Style::CslJson => {
            let items: Vec<&Value> = refs.iter().map(|r| &r.csl).collect();
            serde_json::to_string_pretty(&items).expect("JSON values serialise") + "\n"
        }
        Style::Bibtex => refs.iter().map(bibtex).collect::<Vec<_>>().join("\n"),
        Style::Text => refs.iter().map(|r| text(r) + "\n").collect(),
    }
}

fn s<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn authors(v: &Value) -> Vec<String> {
    v.get("author")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|n| match (s(n, "family"), s(n, "given"), s(n, "literal")) {
                    (Some(f), Some(g), _) => format!("{f}, {g}"),
                    (Some(f), None, _) => f.to_owned(),
                    (None, _, Some(l)) => l.to_owned(),
                    _ => String::new(),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn year(v: &Value) -> Option<i64> {
    v.get("issued")?.get("date-parts")?.get(0)?.get(0)?.as_i64()
}

fn bibtex(r: &Reference) -> String {
    let v = &r.csl;
    let kind = match s(v, "type") {
        Some("article-journal") => "article",
        Some("book") => "book",
        Some("software") => "software",
        _ => "misc",
    };
    let mut fields: Vec<(&str, String)> = Vec::new();
    let a = authors(v);
    if !a.is_empty() {
        fields.push(("author", a.join(" and ")));
    }
    if let Some(t) = s(v, "title") {
        fields.push(("title", format!("{{{t}}}")));
    }
    if let Some(j) = s(v, "container-title") {
        fields.push((
            if kind == "article" {
                "journal"
            } else {
                "howpublished"
            },
            j.to_owned(),
        ));
    }
    if let Some(x) = s(v, "volume") {
        fields.push(("volume", x.to_owned()));
    }
    if let Some(y) = year(v) {
        fields.push(("year", y.to_string()));
    }
    if let Some(p) = s(v, "page") {
        fields.push(("pages", p.replace('–', "--")));
    }
    if let Some(p) = s(v, "publisher") {
        fields.push(("publisher", p.to_owned()));
    }
    if let Some(p) = s(v, "publisher-place") {
        fields.push(("address", p.to_owned()));
    }
    if let Some(p) = s(v, "version") {
        fields.push(("version", p.to_owned()));
    }
    let mut note = s(v, "note").map(str::to_owned);
    if let Some(loc) = &r.locator {
        let cited = format!("Game described on pp. {}", loc.replace('–', "--"));
        note = Some(match note {
            Some(n) if n.ends_with('.') => format!("{n} {cited}"),
            Some(n) => format!("{n}. {cited}"),
            None => cited,
        });
    }
    if let Some(n) = note {
        fields.push(("note", n));
    }
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("  {k} = {{{v}}}"))
        .collect();
    format!("@{kind}{{{},\n{}\n}}\n", r.key, body.join(",\n"))
}

/// Appends `part` as a sentence: a full stop unless it already ends with one.
fn sentence(out: &mut String, part: &str) {
    let part = part.trim();
    if part.is_empty() {
        return;
    }
    out.push_str(part);
    if !part.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    out.push(' ');
}

fn text(r: &Reference) -> String {
    let v = &r.csl;
    let mut out = String::new();
    let a = authors(v);
    if !a.is_empty() {
        sentence(&mut out, &a.join(", "));
    }
    if let Some(y) = year(v) {
        sentence(&mut out, &y.to_string());
    }
    let title = s(v, "title").unwrap_or("");
    match s(v, "type") {
        Some("article-journal") => out.push_str(&format!("\"{title}.\" ")),
        _ => sentence(&mut out, title),
    }
    if let Some(c) = s(v, "container-title") {
        let mut part = c.to_owned();
        if let Some(vol) = s(v, "volume") {
            part.push_str(&format!(" {vol}"));
        }
        if let Some(p) = s(v, "page") {
            part.push_str(&format!(": {p}"));
        }
        sentence(&mut out, &part);
    }
    match (s(v, "publisher-place"), s(v, "publisher")) {
        (Some(place), Some(p)) => sentence(&mut out, &format!("{place}: {p}")),
        (None, Some(p)) => sentence(&mut out, p),
        (Some(place), None) => sentence(&mut out, place),
        (None, None) => {}
    }
    if let Some(ver) = s(v, "version") {
        sentence(&mut out, &format!("Version {ver}"));
    }
    if let Some(n) = s(v, "note") {
        sentence(&mut out, n);
    }
    if let Some(loc) = &r.locator {
        out.push_str(&format!("[The game: pp. {loc}.]"));
    }
    out.trim_end().to_owned()
}
