//! The sources' views: `sources` (the source files, passages, evidence records, encodings
//! and witnesses, or one of them), `collate` (a passage's witnesses compared word by word)
//! and `check` (every problem of the corpus), in table, JSON and Markdown form, with their
//! published JSON shapes.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::analysis::{Error, OUTPUT_SCHEMA_VERSION};
use crate::corpus::{self, Corpus, Loaded, Passage};
use crate::present::Format;
use crate::present::out::{Out, style};

/// `sources --format json` (one item).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SourcesOutput {
    /// Always 1.
    pub schema_version: u32,
    /// Every citable id with what it is.
    pub items: Vec<SourceItem>,
}

/// A citable item.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SourceItem {
    /// Id or anchor.
    pub id: String,
    /// `work`, `passage`, `evidence`, `encoding` or `witness`.
    pub kind: String,
    /// Game id, where it is about one game.
    pub game: Option<String>,
    /// Short description.
    pub title: String,
    /// Fields and texts.
    pub fields: serde_json::Map<String, Value>,
}

fn all_items(corpus: &Corpus) -> Vec<SourceItem> {
    let mut items = Vec::new();
    for w in &corpus.works {
        let mut fields = serde_json::Map::new();
        fields.insert("file".into(), Value::String(w.file.clone()));
        if let Some(csl) = &w.csl {
            fields.insert(
                "csl".into(),
                serde_json::to_value(csl).expect("CSL serialises"),
            );
        }
        items.push(SourceItem {
            id: w.id.clone(),
            kind: "source".into(),
            game: None,
            title: w.title.clone(),
            fields,
        });
    }
    for p in corpus.passages.values() {
        let mut fields = serde_json::Map::new();
        fields.insert("heading".into(), Value::String(p.heading.clone()));
        fields.insert("page".into(), Value::String(p.page.clone()));
        let readings: Vec<Value> = p
            .readings
            .iter()
            .map(|r| {
                serde_json::json!({
                    "witness": r.witness,
                    "segments": r.segments.iter().map(|s| serde_json::json!({
                        "page": s.page, "figure": s.figure, "after_elision": s.after_elision, "text": s.text
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        fields.insert("readings".into(), Value::Array(readings));
        items.push(SourceItem {
            id: p.anchor.clone(),
            kind: "passage".into(),
            game: Some(p.game.clone()),
            title: format!(
                "{}, p. {} ({} witness{})",
                p.heading,
                p.page,
                p.readings.len(),
                if p.readings.len() == 1 { "" } else { "es" }
            ),
            fields,
        });
    }
    for e in corpus.evidence.values() {
        let fields = serde_json::json!({
            "type": e.record_type, "game_name": e.game_name, "location": e.location, "date": e.date,
            "confidence": e.confidence, "ages": e.ages, "source": e.source, "rules": e.rules,
            "content": { "passage": e.content_passage, "witness": e.content_witness, "citation": e.content_citation },
            "witnesses": e.witnesses,
        });
        items.push(SourceItem {
            id: e.id.clone(),
            kind: "evidence".into(),
            game: Some(e.game.clone()),
            title: format!(
                "{} ({}), quoting {}",
                e.game_name, e.record_type, e.content_citation
            ),
            fields: fields.as_object().cloned().unwrap_or_default(),
        });
    }
    for e in corpus.encodings.values() {
        let fields = serde_json::json!({
            "system": e.system, "version": e.version, "repository": e.repository, "path": e.path,
            "commit": e.commit, "system_id": e.system_id, "credit": e.credit.as_ref().map(crate::corpus::CslName::display), "cites": e.cites,
            "ruleset": e.ruleset, "note": e.note,
            "texts": e.texts.iter().map(|(f, w, t)| serde_json::json!({"field": f, "witness": w, "text": t})).collect::<Vec<_>>(),
        });
        items.push(SourceItem {
            id: e.id.clone(),
            kind: "encoding".into(),
            game: Some(e.game.clone()),
            title: format!("{} {}: {}", e.system, e.version, e.path),
            fields: fields.as_object().cloned().unwrap_or_default(),
        });
    }
    for w in corpus.witnesses.values() {
        let fields = serde_json::json!({ "file": w.file, "origin": w.origin });
        items.push(SourceItem {
            id: w.id.clone(),
            kind: "witness".into(),
            game: None,
            title: w.title.clone(),
            fields: fields.as_object().cloned().unwrap_or_default(),
        });
    }
    items
}

pub fn sources(out: &mut Out, corpus: &Corpus, id: Option<&str>) -> Result<(), Error> {
    let items = all_items(corpus);
    let Some(id) = id else {
        if out.format == Format::Json {
            out.json(&SourcesOutput {
                schema_version: OUTPUT_SCHEMA_VERSION,
                items,
            });
            return Ok(());
        }
        let rows = items
            .iter()
            .map(|i| {
                vec![
                    i.id.clone(),
                    i.kind.clone(),
                    i.game.clone().unwrap_or_default(),
                    i.title.clone(),
                ]
            })
            .collect();
        out.table(&["id", "kind", "game", "what"], rows);
        return Ok(());
    };
    // A source file id shows the file and everything in it.
    let selected: Vec<SourceItem> = if let Some(w) = corpus.work(id) {
        items
            .into_iter()
            .filter(|i| {
                i.id == w.id
                    || (i.kind == "passage" && i.id.starts_with(&format!("{}#", w.id)))
                    || (w.kind == corpus::SourceKind::Evidence && i.kind == "evidence")
                    || (w.kind == corpus::SourceKind::Encodings && i.kind == "encoding")
            })
            .collect()
    } else {
        items.into_iter().filter(|i| i.id == id).collect()
    };
    if selected.is_empty() {
        return Err(Error::UnknownSource {
            id: id.to_owned(),
            valid: corpus
                .works
                .iter()
                .map(|w| w.id.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    match out.format {
        Format::Json => out.json(&SourcesOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            items: selected,
        }),
        _ => {
            let md = out.format == Format::Markdown;
            for item in &selected {
                if md {
                    out.line(&format!("## `{}` ({})", item.id, item.kind));
                } else {
                    out.styled(style::HEAD, &item.id);
                    out.line(&format!("  [{}]", item.kind));
                }
                out.line(&item.title);
                if item.kind == "passage" {
                    if let Some(p) = corpus.passages.get(&item.id) {
                        passage_text(out, corpus, p, md);
                    }
                } else {
                    for (k, v) in &item.fields {
                        if v.is_null() {
                            continue;
                        }
                        let text = match v {
                            Value::String(s) => s.clone(),
                            Value::Array(a) if a.iter().all(Value::is_string) => a
                                .iter()
                                .filter_map(Value::as_str)
                                .collect::<Vec<_>>()
                                .join(", "),
                            v => serde_json::to_string(v).unwrap_or_default(),
                        };
                        if md {
                            out.line(&format!("- **{k}**: {text}"));
                        } else {
                            out.line(&format!("  {k}: {text}"));
                        }
                    }
                }
                out.line("");
            }
        }
    }
    Ok(())
}

fn passage_text(out: &mut Out, corpus: &Corpus, p: &Passage, md: bool) {
    for r in &p.readings {
        let witness = corpus
            .witnesses
            .get(&r.witness)
            .map_or(r.witness.clone(), |w| format!("{} — {}", w.id, w.title));
        out.line("");
        if md {
            out.line(&format!("### Witness {witness}"));
            out.line("");
        } else {
            out.styled(style::HEAD, &format!("  Witness {witness}"));
            out.raw("\n");
        }
        let mut text = String::new();
        for s in &r.segments {
            if s.after_elision {
                text.push_str(" […] ");
            }
            if let Some(f) = &s.figure {
                text.push_str(&format!(" ⟨{f}⟩ "));
            }
            if let Some(pg) = s.page {
                text.push_str(&format!(" [p. {pg}] "));
            }
            text.push_str(s.text.trim());
            text.push(' ');
        }
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if md {
            out.line(&format!("> {text}"));
        } else {
            out.styled(style::QUOTE, &format!("  {text}"));
            out.raw("\n");
        }
    }
}

/// `collate --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CollateOutput {
    /// Always 1.
    pub schema_version: u32,
    /// Passage anchor.
    pub passage: String,
    /// The base witness (the first reading).
    pub base: String,
    /// One comparison per other witness.
    pub comparisons: Vec<Comparison>,
}

/// The base against one other witness.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Comparison {
    /// The other witness.
    pub witness: String,
    /// Differences in text order.
    pub variants: Vec<crate::collate::Variant>,
}

pub fn collate(out: &mut Out, p: &Passage) {
    let base = &p.readings[0];
    let data = CollateOutput {
        schema_version: OUTPUT_SCHEMA_VERSION,
        passage: p.anchor.clone(),
        base: base.witness.clone(),
        comparisons: p.readings[1..]
            .iter()
            .map(|r| Comparison {
                witness: r.witness.clone(),
                variants: crate::collate::collate(&base.plain_text(), &r.plain_text(), 3),
            })
            .collect(),
    };
    if out.format == Format::Json {
        out.json(&data);
        return;
    }
    if data.comparisons.is_empty() {
        out.line(&format!(
            "{} has one witness ({}): nothing to collate.",
            p.anchor, base.witness
        ));
        return;
    }
    for c in &data.comparisons {
        out.line(&format!(
            "{}: {} against {} — {} difference(s)",
            p.anchor,
            data.base,
            c.witness,
            c.variants.len()
        ));
        let rows = c
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                vec![
                    (i + 1).to_string(),
                    format!("{} … {}", v.before, v.after),
                    if v.base.is_empty() {
                        "(omits)".into()
                    } else {
                        v.base.clone()
                    },
                    if v.other.is_empty() {
                        "(omits)".into()
                    } else {
                        v.other.clone()
                    },
                ]
            })
            .collect();
        let base_head = data.base.clone();
        let other_head = c.witness.clone();
        out.table(&["#", "context", &base_head, &other_head], rows);
    }
}

/// `check --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CheckOutput {
    /// Always 1.
    pub schema_version: u32,
    /// No problems.
    pub ok: bool,
    /// What was checked.
    pub stats: corpus::load::LoadStats,
    /// Every problem.
    pub diagnostics: Vec<corpus::Diagnostic>,
    /// Follow-on problems left out: references into a source file that could not be parsed,
    /// which look undefined until it parses.
    pub suppressed: usize,
}

/// Renders `check`; with `quiet`, only the problems (no summary line).
pub fn check(out: &mut Out, loaded: &Loaded, quiet: bool) -> i32 {
    let ok = loaded.diagnostics.is_empty();
    let s = loaded.stats;
    match out.format {
        Format::Json => out.json(&CheckOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            ok,
            stats: s,
            diagnostics: loaded.diagnostics.clone(),
            suppressed: loaded.suppressed,
        }),
        _ => {
            for d in &loaded.diagnostics {
                out.raw(&format!("{}: ", d.place));
                out.styled(style::ERR, &format!("error[{}]", d.code));
                out.line(&format!(": {}", d.message));
            }
            if quiet {
                return if ok { 0 } else { 1 };
            }
            let summary = format!(
                "{} file(s), {} passage(s) and records, {} witness text(s), {} quote(s), {} interpretation(s) checked: ",
                s.files, s.passages, s.witness_texts, s.quotes, s.interpretations
            );
            out.raw(&summary);
            if ok {
                out.line("no problems");
            } else {
                out.styled(
                    style::ERR,
                    &format!("{} problem(s)", loaded.diagnostics.len()),
                );
                if loaded.suppressed > 0 {
                    out.raw(&format!(
                        " ({} more about references into the unparsable file(s) left out until they parse)",
                        loaded.suppressed
                    ));
                }
                out.raw("\n");
            }
        }
    }
    if ok { 0 } else { 1 }
}
