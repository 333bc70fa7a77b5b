//! The corpus's own views: `list` (the games and their readings) and `show` (a game's rules
//! with the words they rest on, its open points, a reading's classes and parameters), in
//! table, JSON and Markdown form, with their published JSON shapes.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::analysis::OUTPUT_SCHEMA_VERSION;
use crate::corpus::{
    Cite, Class, Classed, Corpus, Game, Interpretation, ParamOrigin, ProvenanceSummary, Remark,
    RemarkKind,
};
use crate::family::{ParamKind, doc_line};
use crate::present::Format;
use crate::present::out::{Out, style};

/// `list --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListOutput {
    /// Always 1.
    pub schema_version: u32,
    /// The games with rulesets.
    pub games: Vec<ListGame>,
}

/// A game in `list`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListGame {
    /// Game id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Engine family.
    pub family: String,
    /// Its interpretations.
    pub interpretations: Vec<ListInterpretation>,
}

/// An interpretation in `list`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListInterpretation {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// The sources it reads.
    pub basis: Vec<String>,
    /// Its clauses, chosen options and own rule settings, counted by class against the basis.
    pub provenance: ProvenanceSummary,
}

pub fn list(out: &mut Out, corpus: &Corpus) {
    let data = ListOutput {
        schema_version: OUTPUT_SCHEMA_VERSION,
        games: corpus
            .games
            .iter()
            .map(|g| ListGame {
                id: g.id.clone(),
                name: g.name.clone(),
                family: g.family.id().to_owned(),
                interpretations: g
                    .interpretations
                    .iter()
                    .map(|i| ListInterpretation {
                        id: i.id.clone(),
                        title: i.title.clone(),
                        basis: i.basis.clone(),
                        provenance: i.provenance.summary(),
                    })
                    .collect(),
            })
            .collect(),
    };
    if out.format == Format::Json {
        out.json(&data);
        return;
    }
    let rows = corpus
        .games
        .iter()
        .map(|g| {
            vec![
                g.id.clone(),
                g.name.clone(),
                g.family.id().to_owned(),
                g.clauses.len().to_string(),
                g.choices.len().to_string(),
                g.interpretations
                    .iter()
                    .map(|i| i.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ]
        })
        .collect();
    out.table(
        &[
            "game",
            "name",
            "family",
            "clauses",
            "open points",
            "interpretations",
        ],
        rows,
    );
    out.line("");
    // Where each reading's rules come from, against the sources it reads (its basis).
    if out.format == Format::Markdown {
        out.line("## Provenance");
    } else {
        out.styled(style::HEAD, "PROVENANCE");
        out.raw("\n");
    }
    out.line("");
    let rows = data
        .games
        .iter()
        .flat_map(|g| {
            g.interpretations.iter().map(move |i| {
                let s = &i.provenance;
                vec![
                    g.id.clone(),
                    i.id.clone(),
                    i.basis.join(", "),
                    s.grounded.to_string(),
                    s.borrowed_text(),
                    s.interpolated.to_string(),
                ]
            })
        })
        .collect();
    out.table(
        &[
            "game",
            "reading",
            "basis",
            "grounded",
            "borrowed (from)",
            "interpolated",
        ],
        rows,
    );
}

/// A class as a short tag: `grounded: Davies`, `borrowed: DLP`, `interpolated: <who>`.
pub(crate) fn class_tag(k: &Classed) -> String {
    match k.class {
        Class::Grounded | Class::Borrowed => {
            format!("{}: {}", k.class.as_str(), k.sources.join(", "))
        }
        Class::Interpolated if k.by.is_empty() => "interpolated".to_owned(),
        Class::Interpolated => format!("interpolated: {}", short_by(&k.by)),
    }
}

/// Who interpolated, short: anchors as they are, `reading: X, and why` cut to X.
fn short_by(by: &[String]) -> String {
    by.iter()
        .map(|b| match b.strip_prefix("reading:") {
            Some(r) => {
                let r = r.trim();
                let cut = r.find([',', '(', ':', ';']).unwrap_or(r.len());
                r[..cut].trim().to_owned()
            }
            None => b.clone(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `show --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowOutput {
    /// Always 1.
    pub schema_version: u32,
    /// Game id.
    pub game: String,
    /// Name.
    pub name: String,
    /// Other names.
    pub aliases: Vec<String>,
    /// Who played it.
    pub people: String,
    /// Year observed.
    pub observed: i32,
    /// Family.
    pub family: String,
    /// Source anchors.
    pub sources: Vec<String>,
    /// Clauses.
    pub rules: Vec<ShowClause>,
    /// What the sources say about the game beyond its rules, in the ruleset's order.
    pub remarks: Vec<ShowRemark>,
    /// Open points.
    pub choices: Vec<ShowChoice>,
    /// The interpretation shown, if one was asked for.
    pub interpretation: Option<ShowInterpretation>,
    /// Register readings of the points addressed that no option or clause offers.
    pub declined: Vec<ShowDeclined>,
}

/// A quote with where it stands.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowCite {
    /// Anchor.
    pub at: String,
    /// Quote.
    pub quote: String,
    /// Page (for passages), or the anchor's kind.
    pub locator: String,
    /// What the quote is when it grounds nothing: a term, a deferral (and to what), or the
    /// question's own words. Absent for words that say what the item says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A clause in `show`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowClause {
    /// Id.
    pub id: String,
    /// The rule.
    pub says: String,
    /// Quotes.
    pub cites: Vec<ShowCite>,
    /// Interpolated by.
    pub by: Vec<String>,
    /// Parameters fixed.
    pub sets: serde_json::Map<String, Value>,
    /// Choices left open.
    pub open: Vec<String>,
    /// Register points settled.
    pub addresses: Vec<String>,
    /// Register readings it takes.
    pub register: Vec<String>,
    /// Its class for the interpretation shown (`null` without `-i`).
    pub class: Option<Classed>,
}

/// A remark in `show`: what a source says about the game beyond its rules.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowRemark {
    /// Id.
    pub id: String,
    /// What it is about.
    pub kind: RemarkKind,
    /// What the quoted words say, in the editors' words.
    pub says: String,
    /// Quotes.
    pub cites: Vec<ShowCite>,
}

/// A choice in `show`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowChoice {
    /// Id.
    pub id: String,
    /// Question.
    pub question: String,
    /// Quotes.
    pub cites: Vec<ShowCite>,
    /// Register points.
    pub addresses: Vec<String>,
    /// Options.
    pub options: Vec<ShowOption>,
    /// The option the shown interpretation takes (`null` if none, or no interpretation shown).
    pub chosen: Option<String>,
    /// The class of the chosen option for the interpretation shown.
    pub class: Option<Classed>,
}

/// An option in `show`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowOption {
    /// Id.
    pub id: String,
    /// In words.
    pub says: String,
    /// Proponents.
    pub by: Vec<String>,
    /// Quotes.
    pub cites: Vec<ShowCite>,
    /// Parameters.
    pub sets: serde_json::Map<String, Value>,
    /// The register readings it is.
    pub register: Vec<String>,
    /// The engine whose own behaviour the option is (an engine artefact, which no source
    /// states). Absent for the options sources or readers propose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// A register reading the ruleset does not offer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowDeclined {
    /// Reading id (`UB-18a`).
    pub reading: String,
    /// The reading in words.
    pub says: String,
    /// Why it is not offered.
    pub why: String,
}

/// The interpretation in `show -i`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowInterpretation {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Description.
    pub about: Option<String>,
    /// What it extends.
    pub extends: Option<String>,
    /// Proponents.
    pub by: Vec<String>,
    /// Every parameter.
    pub params: Vec<ShowParam>,
    /// The sources it reads.
    pub basis: Vec<String>,
    /// Its clauses, chosen options and own rule settings, counted by class.
    pub provenance: ProvenanceSummary,
    /// Where it takes another option than the one its basis's words ground, and why.
    /// Absent when it takes them all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub departs: Vec<crate::corpus::Departure>,
}

/// A resolved parameter.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowParam {
    /// Name.
    pub name: String,
    /// `rule` or `engine`.
    pub kind: String,
    /// Value.
    pub value: Value,
    /// Where it is set: `clause <id>`, `choice <id> = <option>`, `interpretation <id>` or `default`.
    pub set_by: String,
    /// Whether this is the family default (not set by the reading).
    pub default: bool,
    /// What the parameter means and which values it takes (the family's documentation of it).
    pub meaning: String,
    /// For a rule parameter the reading sets itself: its class.
    pub class: Option<Classed>,
}

pub(crate) fn show_cites(corpus: &Corpus, cites: &[Cite]) -> Vec<ShowCite> {
    cites
        .iter()
        .map(|c| ShowCite {
            at: c.at.clone(),
            quote: c.quote.clone(),
            locator: corpus.locator(c),
            note: c.role.note(),
        })
        .collect()
}

fn sets_map(sets: &[(String, Value)]) -> serde_json::Map<String, Value> {
    sets.iter().cloned().collect()
}

pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".to_owned(),
        v => v.to_string(),
    }
}

pub fn show(out: &mut Out, corpus: &Corpus, g: &Game, interp: Option<&Interpretation>) {
    let data = output(corpus, g, interp);
    match out.format {
        Format::Json => out.json(&data),
        Format::Markdown => show_markdown(out, &data),
        Format::Table | Format::Csv | Format::Html => show_text(out, &data),
    }
}

/// What `show` shows, as data: the JSON view, and what every other view of a game's rules
/// (the text, the Markdown, a reading's rule book) is printed from.
pub(crate) fn output(corpus: &Corpus, g: &Game, interp: Option<&Interpretation>) -> ShowOutput {
    ShowOutput {
        schema_version: OUTPUT_SCHEMA_VERSION,
        game: g.id.clone(),
        name: g.name.clone(),
        aliases: g.aliases.clone(),
        people: g.people.clone(),
        observed: g.observed,
        family: g.family.id().to_owned(),
        sources: g.sources.clone(),
        rules: g
            .clauses
            .iter()
            .map(|c| ShowClause {
                id: c.id.clone(),
                says: c.says.clone(),
                cites: show_cites(corpus, &c.cites),
                by: c.by.clone(),
                sets: sets_map(&c.sets),
                open: c.open.clone(),
                addresses: c.addresses.clone(),
                register: c.register.clone(),
                class: interp.and_then(|i| i.provenance.clause(&c.id).cloned()),
            })
            .collect(),
        remarks: show_remarks(corpus, &g.remarks),
        choices: g
            .choices
            .iter()
            .map(|c| ShowChoice {
                id: c.id.clone(),
                question: c.question.clone(),
                cites: show_cites(corpus, &c.cites),
                addresses: c.addresses.clone(),
                options: c
                    .options
                    .iter()
                    .map(|o| ShowOption {
                        id: o.id.clone(),
                        says: o.says.clone(),
                        by: o.by.clone(),
                        cites: show_cites(corpus, &o.cites),
                        sets: sets_map(&o.sets),
                        register: o.register.clone(),
                        engine: o.engine.clone(),
                    })
                    .collect(),
                chosen: interp.and_then(|i| i.chosen(&c.id)).map(str::to_owned),
                class: interp.and_then(|i| i.provenance.choice(&c.id).cloned()),
            })
            .collect(),
        interpretation: interp.map(|i| ShowInterpretation {
            id: i.id.clone(),
            title: i.title.clone(),
            about: i.about.clone(),
            extends: i.extends.clone(),
            by: i.by.clone(),
            params: i
                .params
                .iter()
                .map(|p| ShowParam {
                    name: p.name.clone(),
                    kind: match p.kind {
                        ParamKind::Rule => "rule",
                        ParamKind::Engine => "engine",
                    }
                    .to_owned(),
                    value: p.value.clone(),
                    set_by: p.origin.to_string(),
                    default: p.origin == ParamOrigin::Default,
                    meaning: g
                        .family
                        .params()
                        .iter()
                        .find(|info| info.name == p.name)
                        .map(|info| doc_line(info.doc))
                        .unwrap_or_default(),
                    class: match p.origin {
                        ParamOrigin::Interpretation(_) => i.provenance.setting(&p.name).cloned(),
                        _ => None,
                    },
                })
                .collect(),
            basis: i.basis.clone(),
            provenance: i.provenance.summary(),
            departs: i.departs.clone(),
        }),
        declined: g
            .declined
            .iter()
            .map(|d| ShowDeclined {
                reading: d.reading.clone(),
                says: corpus
                    .point_reading(&d.reading)
                    .map(|(_, r)| r.says.clone())
                    .unwrap_or_default(),
                why: d.why.clone(),
            })
            .collect(),
    }
}

fn show_text(out: &mut Out, d: &ShowOutput) {
    out.styled(style::HEAD, &d.name);
    if !d.aliases.is_empty() {
        out.raw(&format!(" ({})", d.aliases.join(", ")));
    }
    out.line(&format!("  [{}, {} family]", d.game, d.family));
    out.line(&format!("{}; observed {}", d.people, d.observed));
    out.line(&format!("Sources: {}", d.sources.join(", ")));
    if let Some(i) = &d.interpretation {
        out.raw("\nInterpretation ");
        out.styled(style::CHOSEN, &i.id);
        out.line(&format!(": {}", i.title));
        if let Some(a) = &i.about {
            out.line(&format!("  {}", a.trim()));
        }
        if let Some(e) = &i.extends {
            out.line(&format!("  extends {e}"));
        }
        if !i.by.is_empty() {
            out.line(&format!("  follows: {}", i.by.join("; ")));
        }
        out.line(&format!("  basis: {}", i.basis.join(", ")));
        out.raw("  provenance: ");
        out.styled(style::CHOSEN, &i.provenance.to_string());
        out.line(" (clauses, chosen options and own rule settings, against the basis)");
        for d in &i.departs {
            out.line(&format!(
                "  departs from its basis at {}: takes {} over {} ({})",
                d.choice,
                d.takes,
                d.grounded.join(", "),
                d.why
            ));
        }
    }
    out.raw("\n");
    out.styled(style::HEAD, "RULES");
    out.raw("\n");
    for c in &d.rules {
        out.raw("[");
        out.styled(style::ID, &c.id);
        out.raw("] ");
        if let Some(k) = &c.class {
            class_text(out, k);
            out.raw(" ");
        }
        out.line(c.says.trim());
        cites_text(out, &c.cites, "    ");
        if !c.by.is_empty() {
            // A clause with quotes names in `by:` who also states or plays it; only one
            // without any is an interpolation.
            let label = if c.cites.is_empty() {
                "interpolated by"
            } else {
                "also by"
            };
            out.styled(style::DIM, &format!("    {label}: {}", c.by.join("; ")));
            out.raw("\n");
        }
        if !c.sets.is_empty() {
            out.styled(style::DIM, &format!("    sets {}", map_text(&c.sets)));
            out.raw("\n");
        }
        for o in &c.open {
            let chosen = d
                .choices
                .iter()
                .find(|ch| &ch.id == o)
                .and_then(|ch| ch.chosen.clone());
            out.raw(&format!("    open: {o}"));
            if let Some(ch) = chosen {
                out.raw(" → ");
                out.styled(style::CHOSEN, &ch);
            }
            out.raw("\n");
        }
        if !c.addresses.is_empty() {
            out.styled(
                style::DIM,
                &format!("    addresses {}", c.addresses.join(", ")),
            );
            out.raw("\n");
        }
        if !c.register.is_empty() {
            out.styled(
                style::DIM,
                &format!("    takes register reading {}", c.register.join(", ")),
            );
            out.raw("\n");
        }
    }
    remarks_text(out, &d.remarks);
    out.raw("\n");
    out.styled(style::HEAD, "OPEN POINTS");
    out.raw("\n");
    for c in &d.choices {
        out.raw("? ");
        out.styled(style::ID, &c.id);
        if !c.addresses.is_empty() {
            out.raw(&format!(" ({})", c.addresses.join(", ")));
        }
        out.line(&format!(" {}", c.question.trim()));
        cites_text(out, &c.cites, "    ");
        for o in &c.options {
            let chosen = c.chosen.as_deref() == Some(o.id.as_str());
            out.raw(if chosen { "  ▶ " } else { "  • " });
            if chosen {
                out.styled(style::CHOSEN, &o.id);
            } else {
                out.styled(style::ID, &o.id);
            }
            if chosen && let Some(k) = &c.class {
                out.raw(" ");
                class_text(out, k);
            }
            out.line(&format!(": {}", o.says.trim()));
            out.styled(style::DIM, &format!("      by: {}", o.by.join("; ")));
            out.raw("\n");
            if let Some(e) = &o.engine {
                out.styled(
                    style::DIM,
                    &format!("      engine behaviour, no source's words: {e}"),
                );
                out.raw("\n");
            }
            if !o.register.is_empty() {
                out.styled(
                    style::DIM,
                    &format!("      register reading {}", o.register.join(", ")),
                );
                out.raw("\n");
            }
            cites_text(out, &o.cites, "      ");
            if !o.sets.is_empty() {
                out.styled(style::DIM, &format!("      sets {}", map_text(&o.sets)));
                out.raw("\n");
            }
        }
        if d.interpretation.is_some() && c.chosen.is_none() {
            out.styled(
                style::DIM,
                "    (not chosen by this interpretation: family defaults apply)",
            );
            out.raw("\n");
        }
    }
    if let Some(i) = &d.interpretation {
        out.raw("\n");
        out.styled(style::HEAD, &format!("PARAMETERS of {}", i.id));
        out.raw("\n");
        let rows = i
            .params
            .iter()
            .map(|p| {
                vec![
                    p.name.clone(),
                    value_text(&p.value),
                    p.kind.clone(),
                    if p.default {
                        "default".to_owned()
                    } else {
                        p.set_by.clone()
                    },
                    short_meaning(&p.meaning),
                ]
            })
            .collect();
        out.table(&["parameter", "value", "kind", "set by", "meaning"], rows);
        for p in i.params.iter().filter(|p| p.class.is_some()) {
            if let Some(k) = &p.class {
                out.raw(&format!("  {} (set by the reading itself) ", p.name));
                class_text(out, k);
                out.raw("\n");
            }
        }
        out.raw("\n");
        out.styled(
            style::HEAD,
            &format!("WHAT EACH PARAMETER OF {} MEANS", i.id),
        );
        out.raw("\n");
        for p in &i.params {
            out.styled(style::ID, &p.name);
            out.line(&format!(" = {}", value_text(&p.value)));
            out.line(&format!("    {}", p.meaning.replace('`', "")));
        }
    }
    if !d.declined.is_empty() {
        out.raw("\n");
        out.styled(style::HEAD, "REGISTER READINGS NOT OFFERED");
        out.raw("\n");
        for x in &d.declined {
            out.styled(style::ID, &x.reading);
            out.line(&format!(": {}", x.says.trim()));
            out.styled(style::DIM, &format!("    declined: {}", x.why.trim()));
            out.raw("\n");
        }
    }
}

/// A class in brackets, coloured by kind.
fn class_text(out: &mut Out, k: &Classed) {
    let st = match k.class {
        Class::Grounded => style::DIM,
        Class::Borrowed | Class::Interpolated => style::CHOSEN,
    };
    out.styled(st, &format!("[{}]", class_tag(k)));
}

/// A parameter's meaning for a table cell: the first sentence of its documentation, code
/// marks dropped, at most [`MEANING_WIDTH`] characters cut at a word. The full text is below the
/// table and in the JSON view.
fn short_meaning(doc: &str) -> String {
    // The first ". " outside a code span (`1. 2` never occurs, but `a.b` values might).
    let mut in_code = false;
    let mut end = doc.len();
    for (i, c) in doc.char_indices() {
        match c {
            '`' => in_code = !in_code,
            '.' if !in_code && doc[i + 1..].starts_with(' ') => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let sentence = doc[..end].trim_end_matches('.').replace('`', "");
    if sentence.chars().count() <= MEANING_WIDTH {
        return sentence;
    }
    let mut cut = String::new();
    for word in sentence.split_whitespace() {
        if cut.chars().count() + 1 + word.chars().count() > MEANING_WIDTH - 1 {
            break;
        }
        if !cut.is_empty() {
            cut.push(' ');
        }
        cut.push_str(word);
    }
    cut.push('…');
    cut
}

/// The widest a meaning may be in the parameter table.
const MEANING_WIDTH: usize = 48;

fn map_text(m: &serde_json::Map<String, Value>) -> String {
    m.iter()
        .map(|(k, v)| format!("{k} = {}", value_text(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A quote's note in Markdown, after its locator.
fn note_md(q: &ShowCite) -> String {
    q.note
        .as_ref()
        .map_or(String::new(), |n| format!(" *[{n}]*"))
}

fn cites_text(out: &mut Out, cites: &[ShowCite], indent: &str) {
    for c in cites {
        out.raw(indent);
        out.styled(style::QUOTE, &format!("«{}»", c.quote.trim()));
        out.styled(style::DIM, &format!(" — {} ({})", c.at, c.locator));
        if let Some(note) = &c.note {
            out.styled(style::DIM, &format!(" [{note}]"));
        }
        out.raw("\n");
    }
}

/// The Markdown view. The command line prints a reading in Markdown as a rule book instead
/// (`present::rulebook`); the reading's parts here are for the library's callers.
fn show_markdown(out: &mut Out, d: &ShowOutput) {
    out.line(&format!("# {}", d.name));
    out.line("");
    if !d.aliases.is_empty() {
        out.line(&format!("*{}*  ", d.aliases.join(", ")));
    }
    out.line(&format!(
        "Game `{}`, {} family. {}; observed {}.",
        d.game, d.family, d.people, d.observed
    ));
    out.line("");
    out.line(&format!(
        "Sources: {}",
        d.sources
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if let Some(i) = &d.interpretation {
        out.line("");
        out.line(&format!("**Interpretation `{}`**: {}", i.id, i.title));
        if let Some(a) = &i.about {
            out.line("");
            out.line(a.trim());
        }
        out.line("");
        out.line(&format!(
            "Basis: {}. Provenance: {} (clauses, chosen options and own rule settings, against the basis).",
            i.basis.iter().map(|b| format!("`{b}`")).collect::<Vec<_>>().join(", "),
            i.provenance
        ));
        for d in &i.departs {
            out.line("");
            out.line(&format!(
                "Departs from its basis at `{}`: takes `{}` over `{}`. {}",
                d.choice,
                d.takes,
                d.grounded.join("`, `"),
                d.why
            ));
        }
    }
    out.line("");
    out.line("## Rules");
    out.line("");
    for c in &d.rules {
        let class = c
            .class
            .as_ref()
            .map_or(String::new(), |k| format!(" *[{}]*", class_tag(k)));
        out.line(&format!("- **{}**{class}: {}", c.id, c.says.trim()));
        for q in &c.cites {
            out.line(&format!(
                "  - > {} — `{}` ({}){}",
                q.quote.trim(),
                q.at,
                q.locator,
                note_md(q)
            ));
        }
        if !c.by.is_empty() {
            let label = if c.cites.is_empty() {
                "interpolated by"
            } else {
                "also by"
            };
            out.line(&format!("  - *{label}* {}", c.by.join("; ")));
        }
        if !c.sets.is_empty() {
            out.line(&format!("  - sets `{}`", map_text(&c.sets)));
        }
        for o in &c.open {
            out.line(&format!("  - open point: `{o}`"));
        }
    }
    remarks_markdown(out, &d.remarks);
    out.line("");
    out.line("## Open points");
    for c in &d.choices {
        out.line("");
        let addr = if c.addresses.is_empty() {
            String::new()
        } else {
            format!(" ({})", c.addresses.join(", "))
        };
        out.line(&format!("### `{}`{addr}", c.id));
        out.line("");
        out.line(c.question.trim());
        out.line("");
        for q in &c.cites {
            out.line(&format!(
                "> {} — `{}` ({}){}",
                q.quote.trim(),
                q.at,
                q.locator,
                note_md(q)
            ));
            out.line("");
        }
        for o in &c.options {
            let mark = if c.chosen.as_deref() == Some(o.id.as_str()) {
                match &c.class {
                    Some(k) => format!(" **(chosen)** *[{}]*", class_tag(k)),
                    None => " **(chosen)**".to_owned(),
                }
            } else {
                String::new()
            };
            out.line(&format!(
                "- `{}`{mark}: {} *By* {}.{}",
                o.id,
                o.says.trim(),
                o.by.join("; "),
                o.engine.as_ref().map_or_else(String::new, |e| format!(
                    " *Engine behaviour, no source's words:* {e}."
                ))
            ));
        }
    }
    if let Some(i) = &d.interpretation {
        out.line("");
        out.line(&format!("## Parameters of `{}`", i.id));
        out.line("");
        let rows = i
            .params
            .iter()
            .map(|p| {
                vec![
                    format!("`{}`", p.name),
                    value_text(&p.value),
                    p.kind.clone(),
                    if p.default {
                        "default".into()
                    } else {
                        p.set_by.clone()
                    },
                    p.meaning.clone(),
                ]
            })
            .collect();
        out.table(&["parameter", "value", "kind", "set by", "meaning"], rows);
    }
    if !d.declined.is_empty() {
        out.line("");
        out.line("## Register readings not offered");
        out.line("");
        for x in &d.declined {
            out.line(&format!(
                "- `{}`: {} *Declined:* {}",
                x.reading,
                x.says.trim(),
                x.why.trim()
            ));
        }
    }
}

/// The remarks of a game as `show` gives them.
pub(crate) fn show_remarks(corpus: &Corpus, remarks: &[Remark]) -> Vec<ShowRemark> {
    remarks
        .iter()
        .map(|r| ShowRemark {
            id: r.id.clone(),
            kind: r.kind,
            says: r.says.clone(),
            cites: show_cites(corpus, &r.cites),
        })
        .collect()
}

/// The section after the rules: what the sources say beyond them, each remark with its kind
/// and its quotes. Nothing when the game has none.
fn remarks_text(out: &mut Out, remarks: &[ShowRemark]) {
    if remarks.is_empty() {
        return;
    }
    out.raw("\n");
    out.styled(style::HEAD, "REMARKS");
    out.line(": what the sources say beyond the rules");
    for r in remarks {
        out.raw("[");
        out.styled(style::ID, &r.id);
        out.raw("] ");
        out.styled(style::DIM, &format!("({})", r.kind.as_str()));
        out.line(&format!(" {}", r.says.trim()));
        cites_text(out, &r.cites, "    ");
    }
}

/// [`remarks_text`] in Markdown.
fn remarks_markdown(out: &mut Out, remarks: &[ShowRemark]) {
    if remarks.is_empty() {
        return;
    }
    out.line("");
    out.line("## Remarks: what the sources say beyond the rules");
    out.line("");
    for r in remarks {
        out.line(&format!(
            "- **{}** (*{}*): {}",
            r.id,
            r.kind.as_str(),
            r.says.trim()
        ));
        for q in &r.cites {
            out.line(&format!(
                "  - > {} — `{}` ({})",
                q.quote.trim(),
                q.at,
                q.locator
            ));
        }
    }
}
