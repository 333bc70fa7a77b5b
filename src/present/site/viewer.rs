//! The step-through viewer: one explained game (and with `--against`, the same game under a
//! second reading) as one HTML page that works from the file system: its data a literal in
//! the page (each position stored as the sites that changed since the step before), drawn
//! by the inline script `viewer.js` as an SVG board beside the rules each step applied and
//! the words they rest on. Nothing is fetched.
//!
//! Each quote links to its place in the source text: on the site, to its mark on the game's
//! page (`../<game>.html#q-N`); in a page that stands alone, to the same texts, which the
//! page then carries below the viewer.

use serde_json::{Value, json};

use crate::analysis::Error;
use crate::analysis::explain::{self, ExplainArgs, ExplainOutput, Explanation, Position, Rule};
use crate::corpus::Corpus;
use crate::present::html::escape;
use crate::present::report::{self, File};
use crate::present::show::class_tag;

const SCRIPT: &str = include_str!("viewer.js");

/// The viewer's own style, after the reports' and the site's.
const CSS: &str = "body{max-width:72rem}.controls,.meta,.notes,.tag,nav{font-family:Helvetica,\
Arial,sans-serif}h4{margin:.6rem 0 .2rem}.meta,.notes{color:#555;font-size:.9em}\
.controls{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0}\
.controls button{font-size:1rem;padding:.35rem .7rem;min-height:2.5rem}\
.controls input{flex:1 1 10rem;min-height:2.5rem}\
.body{display:flex;flex-wrap:wrap;gap:1.2rem}.board{flex:1 1 18rem;max-width:34rem}\
.board svg{width:100%;height:auto}.applies{flex:1 1 20rem}\
svg text.site{font:10px Helvetica,Arial,sans-serif;fill:#555}\
svg text.held{font:bold 16px Helvetica,Arial,sans-serif;fill:#111}\
ul.rules{list-style:none;padding-left:0;margin:0}li.rule{border-left:3px solid #ccd;\
padding:.1rem .6rem;margin:.4rem 0}li.rule p{margin:.2rem 0}\
blockquote{margin:.3rem 0 .3rem .8rem;font-style:italic}.tag{font-size:.8em;color:#345}\
.tag-interpolated{color:#8a2a0a}.tag-borrowed{color:#6a4a00}.gap{background:#fff1e6;\
border-left:3px solid #d35400;padding:.3rem .6rem;font-family:Helvetica,Arial,sans-serif;\
font-size:.9em}li.taken{font-weight:bold}.parting{background:#eef4ff;padding:.5rem 1rem}\
.result{font-weight:bold}mark{background:#fff3a8}mark a{color:inherit;text-decoration:none}\
:target{background:#eef4ff}.pb,.fig,.el{font-size:.75em;color:#666}\
button:focus,input:focus,a:focus{outline:3px solid #1a5fb4;outline-offset:2px}\
code,blockquote,.parting,h1,h2{overflow-wrap:anywhere}code.position{user-select:all}";

/// The viewer as a page that stands alone, the game's source texts below it.
pub fn page(corpus: &Corpus, e: &ExplainOutput) -> String {
    let game = corpus.game(&e.explained.game);
    let marks = game
        .map(|g| super::texts::quote_marks(corpus, g))
        .unwrap_or_default();
    let texts = game.map_or(String::new(), |g| super::texts::game_texts_html(corpus, g));
    let body = viewer_body(e);
    html(
        &format!(
            "{} · {}: one game explained",
            e.explained.name, e.explained.interpretation
        ),
        &format!(
            "{body}<h2 id=\"sources\">The sources</h2>\n<p class=\"meta\">Verbatim, as the \
             witnesses give them; every quoted span is marked.</p>\n{texts}"
        ),
        &data(e, &|owner, k| {
            marks.get(&(owner.to_owned(), k)).map(|id| format!("#{id}"))
        }),
    )
}

/// The viewer as a page of the site, in a folder beside the game pages: its quotes link to
/// their marks on the game's page.
pub(crate) fn site_page(corpus: &Corpus, e: &ExplainOutput, up: &str) -> String {
    let game = &e.explained.game;
    let marks = corpus
        .game(game)
        .map(|g| super::texts::quote_marks(corpus, g))
        .unwrap_or_default();
    let link = |owner: &str, k: usize| {
        marks
            .get(&(owner.to_owned(), k))
            .map(|id| format!("{up}{game}.html#{id}"))
    };
    let nav = format!(
        "<nav><a href=\"{up}index.html\">ludotrace</a> › <a href=\"{up}{game}.html\">{}</a> › a \
         sample game</nav>\n",
        escape(&e.explained.name)
    );
    html(
        &format!(
            "{} · {}: one game explained",
            e.explained.name, e.explained.interpretation
        ),
        &format!("{nav}{}", viewer_body(e)),
        &data(e, &link),
    )
}

/// The page around the viewers.
fn html(title: &str, body: &str, data: &Value) -> String {
    // No `<` or `&` in the script, so that the page is well-formed XML (and `</` cannot end
    // the script early): JSON spells them `\u003c` and `\u0026` in its strings.
    let data = data
        .to_string()
        .replace('<', "\\u003c")
        .replace('&', "\\u0026");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
         <title>{}</title>\n<style>{}{}{CSS}</style>\n</head>\n<body>\n{body}\
         <script>var GAMES = {data};\n{SCRIPT}</script>\n</body>\n</html>\n",
        escape(title),
        crate::present::report::CSS,
        super::SITE_CSS
    )
}

/// The heading, the command, the parting (with `--against`) and the viewers' place.
fn viewer_body(e: &ExplainOutput) -> String {
    let x = &e.explained;
    let mut b = format!(
        "<h1>{} · {}: one game, move by move</h1>\n<p class=\"meta\">Game {} of <code>{}</code>, \
         the same game that <code>run</code> plays as its game {}. {}. This page again: \
         <code>{}</code>. Step with the buttons, the slider, or the arrow keys (Home and End \
         for the first and last step); each step lists the rules it applied, the words they \
         rest on and, where a reading takes an option at an open point, the other \
         options.</p>\n",
        escape(&x.name),
        escape(&x.interpretation),
        x.index,
        escape(&e.same_game_as),
        x.index,
        escape(&x.seating.join(", ")),
        escape(&e.command)
    );
    if let Some(a) = &e.against {
        let y = &a.explained;
        b.push_str("<div class=\"parting\">\n");
        match &a.parting {
            None => b.push_str(&format!(
                "<p>{} replays the whole of {}'s game: the readings never part in it.</p>\n",
                escape(&y.interpretation),
                escape(&x.interpretation)
            )),
            Some(p) => {
                b.push_str(&format!(
                    "<p><strong>The games part at ply {}</strong> ({}). {}: {}. {}: {}.</p>\n",
                    p.ply,
                    escape(&p.how),
                    escape(&x.interpretation),
                    escape(&p.first),
                    escape(&y.interpretation),
                    escape(&p.second)
                ));
                b.push_str(if p.at_this_ply {
                    "<p>The open points that part them there:</p>\n<ul>\n"
                } else {
                    "<p>No open point the two answer differently is consulted at that ply \
                     itself; they answer these differently:</p>\n<ul>\n"
                });
                for c in &p.choices {
                    b.push_str(&format!(
                        "<li><strong>{}</strong>{}: {} takes {}, {} takes {}</li>\n",
                        escape(&c.choice),
                        if c.question.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", escape(&c.question))
                        },
                        escape(&x.interpretation),
                        escape(&c.first),
                        escape(&y.interpretation),
                        escape(&c.second)
                    ));
                }
                b.push_str(&format!(
                    "</ul>\n<p><button type=\"button\" data-ply=\"{}\">Show ply {} in both \
                     games</button></p>\n",
                    p.ply, p.ply
                ));
            }
        }
        b.push_str("</div>\n");
    }
    b.push_str("<div id=\"viewers\"></div>\n");
    b
}

/// The games as the script reads them.
fn data(e: &ExplainOutput, link: &dyn Fn(&str, usize) -> Option<String>) -> Value {
    let mut games = vec![game_data(&e.explained, link)];
    if let Some(a) = &e.against {
        games.push(game_data(&a.explained, link));
    }
    Value::Array(games)
}

/// One game's data: its rules once, each kind of rule application once (its rules and gaps),
/// its start in full, and each step short: its kind, ply, seat, move, legal moves, chance
/// outcome, its applications as (kind of application, text), and the sites that changed.
fn game_data(x: &Explanation, link: &dyn Fn(&str, usize) -> Option<String>) -> Value {
    let rules: Vec<Value> = x.rules.iter().map(|r| rule_data(r, link)).collect();
    let index = |id: &str| x.rules.iter().position(|r| r.id == id).unwrap_or(0);
    let mut gaps: Vec<String> = Vec::new();
    let mut kinds: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let mut prev = &x.start;
    let steps: Vec<Value> = x
        .steps
        .iter()
        .map(|s| {
            let p = &s.after;
            let mut d = Vec::new();
            for (r, (row, seats)) in p.sites.iter().zip(&p.seats).enumerate() {
                for (c, (text, seat)) in row.iter().zip(seats).enumerate() {
                    if prev.sites[r][c] != *text || prev.seats[r][c] != *seat {
                        d.push(json!([r, c, text, seat]));
                    }
                }
            }
            let apps: Vec<Value> = s
                .applies
                .iter()
                .map(|a| {
                    let rules: Vec<usize> = a.rules.iter().map(|id| index(id)).collect();
                    let gap_ids: Vec<usize> = a
                        .gaps
                        .iter()
                        .map(|g| {
                            let text = g.sentence();
                            match gaps.iter().position(|t| *t == text) {
                                Some(i) => i,
                                None => {
                                    gaps.push(text);
                                    gaps.len() - 1
                                }
                            }
                        })
                        .collect();
                    let kind = (rules, gap_ids);
                    let k = match kinds.iter().position(|x| *x == kind) {
                        Some(k) => k,
                        None => {
                            kinds.push(kind);
                            kinds.len() - 1
                        }
                    };
                    let what = if a.kind == "move" {
                        format!("move {}", a.what)
                    } else {
                        a.what.clone()
                    };
                    json!([k, what])
                })
                .collect();
            let mut o = serde_json::Map::new();
            o.insert("k".into(), json!(&s.kind[..1]));
            o.insert("p".into(), json!(s.ply));
            if let Some(seat) = s.seat {
                o.insert("s".into(), json!(seat));
            }
            if let Some(m) = &s.mv {
                o.insert("m".into(), json!(m));
            }
            if let Some(l) = s.legal {
                o.insert("l".into(), json!(l));
            }
            if let Some(c) = &s.outcome {
                o.insert("c".into(), json!(c));
            }
            if let Some(r) = s.replayed {
                o.insert("r".into(), json!(u8::from(r)));
            }
            o.insert("a".into(), Value::Array(apps));
            if !d.is_empty() {
                o.insert("d".into(), Value::Array(d));
            }
            if p.marked != prev.marked {
                o.insert("mk".into(), json!(p.marked));
            }
            if p.notes != prev.notes {
                o.insert("n".into(), json!(p.notes));
            }
            o.insert("x".into(), json!(p.notation));
            prev = p;
            Value::Object(o)
        })
        .collect();
    let mut result = x.result.clone();
    result.extend(x.end_gaps.iter().map(|g| g.sentence()));
    let mut sub = format!(
        "{}. {}.",
        x.seating.join(", "),
        capitalised(&x.shown_text())
    );
    if x.shown.1 < x.plies {
        sub.push_str(&format!(
            " The game goes on to ply {}: `ludotrace explain {} -i {} --plies {}..` shows the \
             rest.",
            x.plies,
            x.game,
            x.interpretation,
            x.shown.1 + 1
        ));
    }
    json!({
        "reading": x.interpretation,
        "title": format!("{} · {} ({})", x.name, x.interpretation, x.title),
        "sub": sub,
        "startTitle": if x.shown.0 <= 1 { "the start" } else { "before the plies shown" },
        "layout": x.layout,
        "start": position_data(&x.start),
        "steps": steps,
        "rules": rules,
        "gaps": gaps,
        "kinds": kinds.iter().map(|(r, g)| json!([r, g])).collect::<Vec<_>>(),
        "result": result,
        "complete": x.shown.1 >= x.plies,
    })
}

/// `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn position_data(p: &Position) -> Value {
    json!({ "s": p.sites, "o": p.seats, "m": p.marked, "n": p.notes, "x": p.notation })
}

/// A rule as the script shows it, each quote with its link where it is marked.
fn rule_data(r: &Rule, link: &dyn Fn(&str, usize) -> Option<String>) -> Value {
    // The element of the game page that quotes it.
    let owner = match (r.kind.as_str(), r.id.split_once(':')) {
        ("clause", Some((_, id))) => Some(format!("clause-{}", super::html_id(id))),
        ("option", Some((_, co))) => co
            .split_once('=')
            .map(|(c, o)| format!("option-{}-{}", super::html_id(c), super::html_id(o))),
        _ => None,
    };
    let cites: Vec<Value> = r
        .cites
        .iter()
        .enumerate()
        .map(|(k, q)| {
            json!({
                "q": q.quote,
                "loc": q.locator,
                "href": owner.as_deref().and_then(|o| link(o, k)),
                "note": q.note,
            })
        })
        .collect();
    let sets: Vec<String> = r.params.iter().map(|(p, v)| format!("{p} = {v}")).collect();
    let tag = r
        .class
        .as_ref()
        .map_or_else(|| "engine default".to_owned(), class_tag);
    let cls = r.class.as_ref().map_or("default", |c| c.class.as_str());
    let point = r.choice.as_ref().map(|c| {
        json!({
            "id": c.id,
            "question": c.question,
            "taken": c.taken,
            "options": c.options.iter().map(|o| json!([o.id, o.says, o.by.join("; ")])).collect::<Vec<_>>(),
        })
    });
    json!({
        "id": r.id,
        "tag": tag,
        "cls": cls,
        "says": r.says,
        "sets": sets.join(", "),
        "cites": cites,
        "point": point,
    })
}

/// The largest page a sample game may make: a longer game is shown up to the ply that fits,
/// with the command that shows the rest.
pub const SAMPLE_BYTES: usize = 1_000_000;

/// Where a sample game's viewer is, in the site.
pub(super) fn sample_name(game: &str, reading: &str, against: Option<&str>) -> String {
    match against {
        None => format!("explain/{game}-{reading}.html"),
        Some(b) => format!("explain/{game}-{reading}-against-{b}.html"),
    }
}

/// The sample games' viewers: game 0 of the report's run of each reading (`explain GAME -i R
/// --seed 1`; game 0 is the same game whatever the run's number of games, so the samples are
/// named as of the report's default run, [`report::RUN_GAMES`], and do not depend on `-n`),
/// and the primary reading's game under each other reading (`--against`), each page within
/// [`SAMPLE_BYTES`].
pub fn samples(corpus: &Corpus, hash: &str) -> Result<Vec<File>, Error> {
    let mut out = Vec::new();
    for g in &corpus.games {
        let Some(primary) = g.interpretations.first() else {
            continue;
        };
        let mut wanted: Vec<(&str, Option<&str>)> = g
            .interpretations
            .iter()
            .map(|i| (i.id.as_str(), None))
            .collect();
        wanted.extend(
            g.interpretations
                .iter()
                .skip(1)
                .map(|i| (primary.id.as_str(), Some(i.id.as_str()))),
        );
        for (reading, against) in wanted {
            let mut args = ExplainArgs {
                game: g.id.clone(),
                interpretation: reading.to_owned(),
                set: Vec::new(),
                seed: report::SEED,
                index: 0,
                games: report::RUN_GAMES,
                lineup: crate::agents::Lineup::random(),
                max_plies: crate::sim::DEFAULT_MAX_PLIES,
                plies: None,
                against: against.map(str::to_owned),
                position: None,
                corpus_hash: hash.to_owned(),
            };
            let mut page = String::new();
            // A long game is cut where it fits: the size grows with the plies shown.
            for _ in 0..8 {
                let e = explain::explain(corpus, &args)?;
                page = site_page(corpus, &e, "../");
                if page.len() <= SAMPLE_BYTES {
                    break;
                }
                let plies = args.plies.map_or(e.explained.plies, |(_, b)| b);
                let keep = (u64::from(plies) * SAMPLE_BYTES as u64 * 9 / 10 / page.len() as u64)
                    .max(1) as u32;
                args.plies = Some((1, keep));
            }
            out.push(File {
                name: sample_name(&g.id, reading, against),
                text: page,
            });
        }
    }
    Ok(out)
}
