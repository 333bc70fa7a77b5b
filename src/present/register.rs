//! The register of open points as people read it: `point` (one point, its readings and who
//! takes each) and `show GAME --readings` (the matrix of points × readings of one game).
//!
//! Both are views of what the loader computed: which option or clause names each register
//! reading (`register:`), which readings a ruleset declines, and the class of every chosen
//! option against its reading's basis. Nothing here decides a class.

use schemars::JsonSchema;
use serde::Serialize;

use crate::analysis::Error;
use crate::analysis::OUTPUT_SCHEMA_VERSION;
use crate::corpus::{Classed, Corpus, Game, Impact, Point, PointStatus};
use crate::present::Format;
use crate::present::out::{Out, style};
use crate::present::show::class_tag;

/// `point --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PointOutput {
    /// Always 1.
    pub schema_version: u32,
    /// The point.
    pub point: PointView,
}

/// A point with who takes each of its readings.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PointView {
    /// Id.
    pub id: String,
    /// The game it belongs to (`null` for points shared by several games).
    pub game: Option<String>,
    /// `open`, `settled`, `departed` or `encoding`.
    pub status: PointStatus,
    /// Title.
    pub title: String,
    /// Expected effect of its readings.
    pub impact: Option<Impact>,
    /// Why that impact.
    pub impact_note: Option<String>,
    /// The point in the corpus' words.
    pub says: String,
    /// The source words it turns on.
    pub cites: Vec<crate::present::show::ShowCite>,
    /// Related points.
    pub see: Vec<String>,
    /// The register point this encoding note is.
    pub same_as: Option<String>,
    /// The clauses and choices that address it, as `game/clause:<id>` or `game/choice:<id>`.
    pub addressed_by: Vec<String>,
    /// Its readings (those of `same_as` when it has none of its own).
    pub readings: Vec<ReadingView>,
}

/// A reading of a point.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReadingView {
    /// Id (`UB-07a`).
    pub id: String,
    /// In words.
    pub says: String,
    /// Who proposes it (empty: the register only).
    pub by: Vec<String>,
    /// The options and clauses that take it, with the interpretations choosing them.
    pub taken: Vec<Taker>,
    /// The rulesets that decline it, with the reason.
    pub declined: Vec<DeclinedBy>,
}

/// An option or clause that takes a reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Taker {
    /// Game id.
    pub game: String,
    /// `choice <id> = <option>` or `clause <id>`.
    pub by: String,
    /// The interpretations taking it (a clause: all of the game's), each with its class.
    pub interpretations: Vec<TakenIn>,
}

/// An interpretation taking an option or clause.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TakenIn {
    /// Interpretation id.
    pub id: String,
    /// The class of the option or clause for it.
    pub class: Option<Classed>,
}

/// A ruleset declining a reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeclinedBy {
    /// Game id.
    pub game: String,
    /// Why.
    pub why: String,
}

/// Who takes reading `id` in game `g`: options and clauses naming it.
fn takers(g: &Game, id: &str) -> Vec<Taker> {
    let mut out = Vec::new();
    for c in &g.clauses {
        if c.register.iter().any(|r| r == id) {
            out.push(Taker {
                game: g.id.clone(),
                by: format!("clause {}", c.id),
                interpretations: g
                    .interpretations
                    .iter()
                    .map(|i| TakenIn {
                        id: i.id.clone(),
                        class: i.provenance.clause(&c.id).cloned(),
                    })
                    .collect(),
            });
        }
    }
    for ch in &g.choices {
        for o in ch
            .options
            .iter()
            .filter(|o| o.register.iter().any(|r| r == id))
        {
            out.push(Taker {
                game: g.id.clone(),
                by: format!("choice {} = {}", ch.id, o.id),
                interpretations: g
                    .interpretations
                    .iter()
                    .filter(|i| i.chosen(&ch.id) == Some(o.id.as_str()))
                    .map(|i| TakenIn {
                        id: i.id.clone(),
                        class: i.provenance.choice(&ch.id).cloned(),
                    })
                    .collect(),
            });
        }
    }
    out
}

fn view(corpus: &Corpus, p: &Point) -> PointView {
    let addressed_by = corpus
        .games
        .iter()
        .flat_map(|g| {
            g.clauses
                .iter()
                .filter(|c| c.addresses.contains(&p.id))
                .map(move |c| format!("{}/clause:{}", g.id, c.id))
                .chain(
                    g.choices
                        .iter()
                        .filter(|c| c.addresses.contains(&p.id))
                        .map(move |c| format!("{}/choice:{}", g.id, c.id)),
                )
        })
        .collect();
    let readings = p
        .effective_readings(corpus)
        .iter()
        .map(|r| ReadingView {
            id: r.id.clone(),
            says: r.says.clone(),
            by: r.by.clone(),
            taken: corpus.games.iter().flat_map(|g| takers(g, &r.id)).collect(),
            declined: corpus
                .games
                .iter()
                .flat_map(|g| {
                    g.declined
                        .iter()
                        .filter(|d| d.reading == r.id)
                        .map(|d| DeclinedBy {
                            game: g.id.clone(),
                            why: d.why.clone(),
                        })
                })
                .collect(),
        })
        .collect();
    PointView {
        id: p.id.clone(),
        game: p.game.clone(),
        status: p.status,
        title: p.title.clone(),
        impact: p.impact,
        impact_note: p.impact_note.clone(),
        says: p.says.clone(),
        cites: crate::present::show::show_cites(corpus, &p.cites),
        see: p.see.clone(),
        same_as: p.same_as.clone(),
        addressed_by,
        readings,
    }
}

/// Looks a point up as a person types it, suggesting near ids.
pub(crate) fn point_of<'c>(corpus: &'c Corpus, id: &str) -> Result<&'c Point, Error> {
    corpus.point(id).ok_or_else(|| {
        let ids: Vec<&String> = corpus.points.keys().collect();
        let near = crate::corpus::closest(&id.to_uppercase(), &ids, |k| vec![(*k).clone()]);
        Error::UnknownPoint {
            id: id.to_owned(),
            hint: crate::analysis::did_you_mean(near.iter().map(|k| k.as_str())),
        }
    })
}

/// `point ID`.
pub fn point(out: &mut Out, corpus: &Corpus, p: &Point) {
    let v = view(corpus, p);
    match out.format {
        Format::Json => out.json(&PointOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            point: v,
        }),
        Format::Markdown => point_markdown(out, &v),
        Format::Table | Format::Csv | Format::Html => point_text(out, &v),
    }
}

pub(crate) fn impact_text(i: Option<Impact>) -> &'static str {
    match i {
        Some(Impact::High) => "high",
        Some(Impact::MediumHigh) => "medium–high",
        Some(Impact::Medium) => "medium",
        Some(Impact::LowMedium) => "low–medium",
        Some(Impact::Low) => "low",
        Some(Impact::Unknown) => "unknown",
        None => "—",
    }
}

fn status_text(s: PointStatus) -> &'static str {
    match s {
        PointStatus::Open => "open",
        PointStatus::Settled => "settled by the text",
        PointStatus::Departed => "clear in the source, departed from by an encoding",
        PointStatus::Encoding => "an encoding's decision",
    }
}

fn takers_line(t: &Taker) -> String {
    let who = if t.interpretations.is_empty() {
        "no reading takes it".to_owned()
    } else {
        t.interpretations
            .iter()
            .map(|i| match &i.class {
                Some(k) => format!("{} [{}]", i.id, class_tag(k)),
                None => i.id.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!("{}: {} — {}", t.game, t.by, who)
}

fn point_text(out: &mut Out, v: &PointView) {
    out.styled(style::HEAD, &v.id);
    out.line(&format!(" {}", v.title));
    out.line(&format!(
        "  {}{}; impact {}",
        v.game
            .as_deref()
            .map_or("shared by several games; ".to_owned(), |g| format!("{g}; ")),
        status_text(v.status),
        impact_text(v.impact)
    ));
    if let Some(n) = &v.impact_note {
        out.line(&format!("  {}", n.trim()));
    }
    out.line("");
    out.line(v.says.trim());
    for c in &v.cites {
        out.raw("    ");
        out.styled(style::QUOTE, &format!("«{}»", c.quote.trim()));
        out.styled(style::DIM, &format!(" — {} ({})", c.at, c.locator));
        out.raw("\n");
    }
    if let Some(s) = &v.same_as {
        out.line(&format!(
            "  the same point as {s}: its readings stand for this one"
        ));
    }
    if !v.see.is_empty() {
        out.line(&format!("  see {}", v.see.join(", ")));
    }
    if !v.addressed_by.is_empty() {
        out.styled(
            style::DIM,
            &format!("  addressed by {}", v.addressed_by.join(", ")),
        );
        out.raw("\n");
    }
    if v.readings.is_empty() {
        return;
    }
    out.raw("\n");
    out.styled(style::HEAD, "READINGS");
    out.raw("\n");
    for r in &v.readings {
        out.styled(style::ID, &r.id);
        out.line(&format!(": {}", r.says.trim()));
        out.styled(
            style::DIM,
            &format!(
                "    proposed by: {}",
                if r.by.is_empty() {
                    "the register".to_owned()
                } else {
                    r.by.join("; ")
                }
            ),
        );
        out.raw("\n");
        for t in &r.taken {
            out.line(&format!("    taken by {}", takers_line(t)));
        }
        for d in &r.declined {
            out.line(&format!("    declined by {}: {}", d.game, d.why.trim()));
        }
        if r.taken.is_empty() && r.declined.is_empty() {
            out.line("    not offered by any ruleset");
        }
    }
}

fn point_markdown(out: &mut Out, v: &PointView) {
    out.line(&format!("# {} {}", v.id, v.title));
    out.line("");
    out.line(&format!(
        "{}{}; impact {}.",
        v.game
            .as_deref()
            .map_or("Shared by several games; ".to_owned(), |g| format!(
                "Game `{g}`; "
            )),
        status_text(v.status),
        impact_text(v.impact)
    ));
    out.line("");
    out.line(v.says.trim());
    for c in &v.cites {
        out.line("");
        out.line(&format!(
            "> {} — `{}` ({})",
            c.quote.trim(),
            c.at,
            c.locator
        ));
    }
    if !v.readings.is_empty() {
        out.line("");
        out.line("## Readings");
        for r in &v.readings {
            out.line("");
            out.line(&format!(
                "- `{}`: {} *Proposed by* {}.",
                r.id,
                r.says.trim(),
                if r.by.is_empty() {
                    "the register".to_owned()
                } else {
                    r.by.join("; ")
                }
            ));
            for t in &r.taken {
                out.line(&format!("  - taken by {}", takers_line(t)));
            }
            for d in &r.declined {
                out.line(&format!("  - declined by `{}`: {}", d.game, d.why.trim()));
            }
        }
    }
}

/// `point` without an id: every point (of one game, or all), one row each.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PointsOutput {
    /// Always 1.
    pub schema_version: u32,
    /// The points.
    pub points: Vec<PointView>,
}

/// `point` without an id: the register as a table.
pub fn points(out: &mut Out, corpus: &Corpus, game: Option<&Game>) {
    let selected: Vec<&Point> = corpus
        .points
        .values()
        .filter(|p| {
            game.is_none_or(|g| {
                p.game.as_deref() == Some(g.id.as_str())
                    || g.clauses.iter().any(|c| c.addresses.contains(&p.id))
                    || g.choices.iter().any(|c| c.addresses.contains(&p.id))
            })
        })
        .collect();
    if out.format == Format::Json {
        out.json(&PointsOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            points: selected.iter().map(|p| view(corpus, p)).collect(),
        });
        return;
    }
    let rows = selected
        .iter()
        .map(|p| {
            vec![
                p.id.clone(),
                p.game.clone().unwrap_or_else(|| "(shared)".to_owned()),
                match p.status {
                    PointStatus::Open => "open",
                    PointStatus::Settled => "settled",
                    PointStatus::Departed => "departed",
                    PointStatus::Encoding => "encoding",
                }
                .to_owned(),
                impact_text(p.impact).to_owned(),
                p.effective_readings(corpus).len().to_string(),
                p.title.clone(),
            ]
        })
        .collect();
    out.table(
        &["point", "game", "status", "impact", "readings", "title"],
        rows,
    );
}

/// `show GAME --readings --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReadingsOutput {
    /// Always 1.
    pub schema_version: u32,
    /// Game id.
    pub game: String,
    /// The interpretations, in the ruleset's order (the matrix's columns).
    pub interpretations: Vec<String>,
    /// The points the ruleset addresses that have readings (the matrix's rows).
    pub points: Vec<MatrixRow>,
}

/// A row of the matrix.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MatrixRow {
    /// Point id.
    pub point: String,
    /// Title.
    pub title: String,
    /// Impact.
    pub impact: Option<Impact>,
    /// One cell per interpretation, in column order.
    pub cells: Vec<Cell>,
    /// Readings of the point the ruleset declines.
    pub declined: Vec<String>,
}

/// What one interpretation takes for one point.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cell {
    /// Interpretation id.
    pub interpretation: String,
    /// The options and clauses deciding the point for it.
    pub takes: Vec<CellItem>,
}

/// An option or clause in a cell.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CellItem {
    /// `choice <id> = <option>` or `clause <id>`.
    pub by: String,
    /// The option id, or the clause id.
    pub name: String,
    /// The register readings of this point it is (letters as full ids).
    pub readings: Vec<String>,
    /// Its class for the interpretation.
    pub class: Option<Classed>,
}

/// `show GAME --readings`.
pub fn matrix(out: &mut Out, corpus: &Corpus, g: &Game) {
    let mut ids: Vec<&String> = Vec::new();
    for a in g
        .clauses
        .iter()
        .flat_map(|c| c.addresses.iter())
        .chain(g.choices.iter().flat_map(|c| c.addresses.iter()))
    {
        if !ids.contains(&a) {
            ids.push(a);
        }
    }
    // Register order, not the ruleset's: a reader follows the register's numbering. The
    // game's own points first, then the points it shares with other games.
    let mut points: Vec<&Point> = corpus
        .points
        .values()
        .filter(|p| ids.contains(&&p.id) && !p.effective_readings(corpus).is_empty())
        .collect();
    points.sort_by_key(|p| p.game.as_deref() != Some(g.id.as_str()));
    let rows: Vec<MatrixRow> = points
        .into_iter()
        .map(|p| {
            let own: Vec<&str> = p
                .effective_readings(corpus)
                .iter()
                .map(|r| r.id.as_str())
                .collect();
            let of_point = |regs: &[String]| -> Vec<String> {
                regs.iter()
                    .filter(|r| own.contains(&r.as_str()))
                    .cloned()
                    .collect()
            };
            let cells = g
                .interpretations
                .iter()
                .map(|i| {
                    let mut takes = Vec::new();
                    // An encoding's note that is a register point is decided where either
                    // id is addressed.
                    let here = |a: &Vec<String>| {
                        a.contains(&p.id) || p.same_as.as_ref().is_some_and(|s| a.contains(s))
                    };
                    for c in g.clauses.iter().filter(|c| here(&c.addresses)) {
                        takes.push(CellItem {
                            by: format!("clause {}", c.id),
                            name: c.id.clone(),
                            readings: of_point(&c.register),
                            class: i.provenance.clause(&c.id).cloned(),
                        });
                    }
                    for ch in g.choices.iter().filter(|c| here(&c.addresses)) {
                        if let Some(o) = i
                            .chosen(&ch.id)
                            .and_then(|o| ch.options.iter().find(|x| x.id == o))
                        {
                            takes.push(CellItem {
                                by: format!("choice {} = {}", ch.id, o.id),
                                name: o.id.clone(),
                                readings: of_point(&o.register),
                                class: i.provenance.choice(&ch.id).cloned(),
                            });
                        }
                    }
                    // A clause that only states the point (takes none of its readings) does
                    // not decide it when a choice does.
                    if takes.iter().any(|t| !t.readings.is_empty()) {
                        takes.retain(|t| !t.readings.is_empty());
                    }
                    Cell {
                        interpretation: i.id.clone(),
                        takes,
                    }
                })
                .collect();
            MatrixRow {
                point: p.id.clone(),
                title: p.title.clone(),
                impact: p.impact,
                cells,
                declined: g
                    .declined
                    .iter()
                    .filter(|d| own.contains(&d.reading.as_str()))
                    .map(|d| d.reading.clone())
                    .collect(),
            }
        })
        .collect();
    let data = ReadingsOutput {
        schema_version: OUTPUT_SCHEMA_VERSION,
        game: g.id.clone(),
        interpretations: g.interpretations.iter().map(|i| i.id.clone()).collect(),
        points: rows,
    };
    if out.format == Format::Json {
        out.json(&data);
        return;
    }
    let md = out.format == Format::Markdown;
    if md {
        out.line(&format!("# {}: who reads each open point how", g.name));
        out.line("");
    } else {
        out.styled(
            style::HEAD,
            &format!("{}: who reads each open point how", g.name),
        );
        out.raw("\n\n");
    }
    let mut header: Vec<&str> = vec!["point"];
    header.extend(data.interpretations.iter().map(String::as_str));
    header.push("declined");
    let rows = data
        .points
        .iter()
        .map(|r| {
            let mut row = vec![r.point.clone()];
            for c in &r.cells {
                row.push(cell_text(c));
            }
            // A reading id is its point's id and one letter.
            row.push(
                r.declined
                    .iter()
                    .map(|d| &d[d.len().saturating_sub(1)..])
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            row
        })
        .collect();
    out.table(&header, rows);
    out.line("");
    out.line(
        "Each cell: the register reading(s) taken (a, b …), the option or clause, and its class for that reading: G grounded in the reading's basis, B borrowed from another source, I interpolated. `ludotrace point ID` shows a point's readings and who proposes each.",
    );
}

fn cell_text(c: &Cell) -> String {
    if c.takes.is_empty() {
        return "—".to_owned();
    }
    c.takes
        .iter()
        .map(|t| {
            let letters: Vec<&str> = t
                .readings
                .iter()
                .map(|r| &r[r.len().saturating_sub(1)..])
                .collect();
            let class = match t.class.as_ref().map(|k| k.class) {
                Some(crate::corpus::Class::Grounded) => "G",
                Some(crate::corpus::Class::Borrowed) => "B",
                Some(crate::corpus::Class::Interpolated) => "I",
                None => "?",
            };
            if letters.is_empty() {
                format!("{} {class}", t.name)
            } else {
                format!("{} {} {class}", letters.join(""), t.name)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}
