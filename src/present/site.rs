//! `ludotrace site [--out DIR] [-n GAMES]`: a static site to browse the corpus, from a USB
//! stick as well as from a server.
//!
//! `index.html` lists the games and holds a search box (plain script, its data a literal in
//! the page, driven by `?q=` or `#q=` too); a page per game shows each source text with every
//! quoted span marked and linked to the clause, remark, option or register point that quotes
//! it (and back), the rules clause by clause, what the sources say beyond the rules (the
//! remarks), the open points with their options and proponents, the readings matrix, the
//! register points (their ids are the anchors), and the results and figures of the game's
//! report. The reports themselves are [`crate::present::report::make`]'s files,
//! written into `reports/`, so the site's numbers are the report's. Pages make no outside
//! request (style and script inline, figures local) and depend on nothing but the corpus,
//! ludotrace and `-n`: no time, no path of the machine (unless `--corpus` names one: the
//! reports print the commands that made them), no thread count.
//!
//! A directory ludotrace made holds `.ludotrace-site`, the list of the files it wrote; a new
//! run replaces them and removes those it no longer makes. A non-empty directory without that
//! file is refused unless `--force` is given, so that `--out ~` cannot litter a home.

use crate::exec::Exec;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::analysis::Error;
use crate::corpus::{self, Corpus, CorpusFiles, Game, Point, PointStatus};
use crate::present::Format;
use crate::present::html::escape;
use crate::present::out::Out;
use crate::present::report::{self, File, ReportArgs};

mod texts;
pub mod viewer;
use texts::{Quote, page_texts, texts_html};
use viewer::sample_name;
pub use viewer::samples;

/// The file that marks a directory as a site ludotrace wrote, listing its files.
pub const MARKER: &str = ".ludotrace-site";

/// What the user asked `site` for.
#[derive(Debug, Clone)]
pub struct SiteArgs {
    /// The directory the site goes into.
    pub out: PathBuf,
    /// Games per reading for the reports' outcomes.
    pub games: u64,
    /// Take the reports from this directory (as `report --all --out DIR` wrote them) rather
    /// than make them.
    pub reports: Option<PathBuf>,
    /// Worker threads (`None`: one per core). The site does not depend on it.
    pub threads: Option<usize>,
    /// Write into a non-empty directory that ludotrace did not make.
    pub force: bool,
    /// The corpus directory, if not the built-in corpus (named in the reports' commands).
    pub corpus: Option<PathBuf>,
}

/// Makes the site and writes it into `args.out`.
///
/// # Errors
/// Bad numbers, an `--out` that is a file or a directory of someone else's files, a file
/// that cannot be written.
pub fn site(
    out: &mut Out,
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &SiteArgs,
) -> Result<i32, Error> {
    let previous = prepare(&args.out, args.force)?;
    let made = make(exec, corpus, files, args)?;
    let dir = &args.out;
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text)
            .map_err(|e| Error::Usage(format!("{}: cannot write it: {e}", path.display())))
    };
    for sub in ["reports", "explain"] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| {
            Error::Usage(format!(
                "--out {}: cannot create it: {e}",
                dir.join(sub).display()
            ))
        })?;
    }
    for f in &made {
        write(&dir.join(&f.name), &f.text)?;
    }
    let names: BTreeSet<&str> = made.iter().map(|f| f.name.as_str()).collect();
    // Only files this command wrote before, named by plain relative paths, are removed.
    for old in previous.iter().filter(|n| !names.contains(n.as_str())) {
        let path = Path::new(old);
        if path.components().all(|c| matches!(c, Component::Normal(_))) {
            let _ = std::fs::remove_file(dir.join(path));
        }
    }
    let mut marker = String::from(
        "# Written by `ludotrace site`: the files below are its own. A new run replaces them and\n\
         # removes those it no longer makes; it writes into this directory without --force.\n",
    );
    for n in &names {
        let _ = writeln!(marker, "{n}");
    }
    write(&dir.join(MARKER), &marker)?;
    out.line(&format!(
        "wrote {} files into {}; open {} in a browser (no server needed)",
        made.len(),
        dir.display(),
        dir.join("index.html").display()
    ));
    Ok(0)
}

/// Checks that `dir` may be written, without writing anything: it is new, empty, a site
/// ludotrace made (whose files are returned), or `force` is given.
fn prepare(dir: &Path, force: bool) -> Result<Vec<String>, Error> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--out {}: that is a file; give a directory for the site (a new one, or one `ludotrace site` made)",
            dir.display()
        )));
    }
    if !dir.exists() {
        return Ok(Vec::new());
    }
    if let Ok(list) = std::fs::read_to_string(dir.join(MARKER)) {
        return Ok(list
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(str::to_owned)
            .collect());
    }
    let empty = std::fs::read_dir(dir)
        .map_err(|e| Error::Usage(format!("--out {}: cannot read it: {e}", dir.display())))?
        .next()
        .is_none();
    if empty || force {
        return Ok(Vec::new());
    }
    Err(Error::Usage(format!(
        "--out {}: the directory holds files that `ludotrace site` did not write (it has no {MARKER}); \
         give a new or empty directory, or --force to write the site's files into it (files of the same name are replaced)",
        dir.display()
    )))
}

/// The site's files, made in memory: `index.html`, a page per game and, under `reports/`,
/// every file of `report --all` at `-n`.
///
/// # Errors
/// Bad numbers (`-n` out of range).
pub fn make(
    exec: &Exec,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &SiteArgs,
) -> Result<Vec<File>, Error> {
    if let Some(dir) = &args.reports {
        let hash = crate::analysis::play::corpus_hash(files);
        let reports = read_reports(dir, corpus, &hash)?;
        let samples = samples(corpus, &hash)?;
        return Ok(pages(corpus, reports, samples));
    }
    let reports = report::make(
        exec,
        corpus,
        files,
        &ReportArgs {
            game: None,
            out: PathBuf::from("reports"),
            games: args.games,
            check: false,
            threads: args.threads,
            corpus: args.corpus.clone(),
        },
    )?;
    let samples = samples(corpus, &crate::analysis::play::corpus_hash(files))?;
    Ok(pages(corpus, reports, samples))
}

/// The reports `report --all --out dir` wrote, read back: every game's files (`<game>.md`,
/// `.html`, `.bib`, `.csl.json` and its `<game>-….svg` figures) and the index, each game's
/// report checked to be of this ludotrace and this corpus (its opening line names both).
///
/// # Errors
/// [`Error::Usage`] for a directory that cannot be read, a game without its report or
/// with one made by another ludotrace or from another corpus, or the index missing.
pub fn read_reports(dir: &Path, corpus: &Corpus, hash: &str) -> Result<Vec<File>, Error> {
    let regenerate = format!(
        "`ludotrace report --all --out {}` makes them",
        dir.display()
    );
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::Usage(format!("--reports {}: cannot read it: {e}", dir.display())))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    let ours = |name: &str| {
        name == "index.md"
            || name == "index.html"
            || corpus.games.iter().any(|g| {
                name.strip_prefix(g.id.as_str()).is_some_and(|rest| {
                    [".md", ".html", ".bib", ".csl.json"].contains(&rest)
                        || (rest.starts_with('-') && rest.ends_with(".svg"))
                })
            })
    };
    let mut files = Vec::new();
    for name in names.into_iter().filter(|n| ours(n)) {
        let path = dir.join(&name);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::Usage(format!("{}: cannot read it: {e}", path.display())))?;
        files.push(File { name, text });
    }
    let stamp = format!(
        "A report of ludotrace {}, corpus BLAKE3 `{hash}`.",
        env!("CARGO_PKG_VERSION")
    );
    for g in &corpus.games {
        let name = format!("{}.md", g.id);
        let Some(md) = files.iter().find(|f| f.name == name) else {
            return Err(Error::Usage(format!(
                "--reports {}: there is no report of {} ({name}); {regenerate}",
                dir.display(),
                g.id
            )));
        };
        if !md.text.contains(&stamp) {
            return Err(Error::Usage(format!(
                "--reports {}: {name} was made by another ludotrace or from another corpus (it                  does not say \"{stamp}\"); {regenerate} again",
                dir.display()
            )));
        }
    }
    if !files.iter().any(|f| f.name == "index.md") {
        return Err(Error::Usage(format!(
            "--reports {}: there is no index.md; {regenerate}",
            dir.display()
        )));
    }
    Ok(files)
}

/// The site's files given the report's: `index.html`, a page per game (with the game's
/// results and figures from `reports`, where they are), and the reports under `reports/`.
pub fn pages(corpus: &Corpus, reports: Vec<File>, samples: Vec<File>) -> Vec<File> {
    let mut made = vec![File {
        name: "index.html".to_owned(),
        text: index(corpus),
    }];
    for g in &corpus.games {
        made.push(File {
            name: format!("{}.html", g.id),
            text: game_page(corpus, g, &reports),
        });
    }
    made.extend(samples);
    made.extend(reports.into_iter().map(|f| {
        // A report's page leads to the site's index and to the game's page here.
        let text = match f.name.strip_suffix(".html") {
            Some("index") => report::in_site(&f.text, None),
            Some(id) => match corpus.games.iter().find(|g| g.id == id) {
                Some(g) => report::in_site(&f.text, Some((&g.id, &g.name))),
                None => f.text,
            },
            None => f.text,
        };
        File {
            name: format!("reports/{}", f.name),
            text,
        }
    }));
    made
}

/// The "¶" link to an element with the id `id`, so that a clause, an option or a point can be
/// cited by its address.
fn pilcrow(id: &str) -> String {
    format!(
        " <a class=\"para\" href=\"#{id}\" title=\"a link to this: {id}\" \
         aria-label=\"link to {id}\">¶</a>"
    )
}

/// A passage's pages as a citation gives them: `p. 346` for one, `pp. 138–139` for a range
/// (its hyphen an en dash).
fn pages_of(page: &str) -> String {
    let page = page.trim();
    if page.contains(['–', '-', ',']) {
        format!("pp. {}", page.replace('-', "–"))
    } else {
        format!("p. {page}")
    }
}

/// An id as an HTML id and URL fragment: corpus ids are words, dashes and dots already, so
/// this only guards against a space or a quote mark in a hand-written id.
fn html_id(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The site's own style, after the reports' (`report::CSS`).
const SITE_CSS: &str = "img{max-width:100%;height:auto}\
nav{font-family:Helvetica,Arial,sans-serif;font-size:.9em}\
mark{background:#fff3a8;padding:0 .05em}mark a{color:inherit;text-decoration:none}\
.text{font-style:normal}\
.pb,.fig,.el{font-family:Helvetica,Arial,sans-serif;font-size:.75em;color:#666}\
.meta{color:#555;font-size:.9em}.back{font-size:.85em;white-space:nowrap}\
section{margin:1rem 0}:target{background:#eef4ff}dl{margin:.25rem 0}dt{font-weight:bold}\
dd{margin:0 0 .25rem 1rem}ul.cites{padding-left:1.2rem}\
#search input{font-size:1rem;padding:.3rem;width:100%;max-width:24rem;box-sizing:border-box}\
figure{margin:1rem 0}@media print{#search,#results,#status,.back{display:none}\
mark{background:none;text-decoration:underline}}";

/// A page: the head (viewport, inline style, the title), then `body`. Void elements are
/// closed, so every page is well-formed XML as well as HTML.
fn page(title: &str, body: &str, script: Option<&str>) -> String {
    let script = script.map_or(String::new(), |s| format!("<script>{s}</script>\n"));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
         <title>{}</title>\n<style>{}{SITE_CSS}</style>\n</head>\n<body>\n{body}{script}</body>\n</html>\n",
        escape(title),
        report::CSS
    )
}

/// Markdown (a command's own output) as HTML, its headings moved `down` levels, `<br>`
/// closed.
fn markdown(md: &str, down: usize) -> String {
    markdown_in(md, down, "").0
}

/// [`markdown`] for a file that lives in the directory `base` (`reports/`): its relative
/// links and images are made relative to the page. Returns the HTML and the images it shows
/// (their paths as the file names them).
fn markdown_in(md: &str, down: usize, base: &str) -> (String, Vec<String>) {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html::push_html};
    let shift = |l: pulldown_cmark::HeadingLevel| {
        use pulldown_cmark::HeadingLevel::*;
        let n = (l as usize + down).min(6);
        [H1, H2, H3, H4, H5, H6][n - 1]
    };
    let rebase = |url: CowStr<'_>| -> CowStr<'static> {
        let relative =
            !url.is_empty() && !url.starts_with('#') && !url.starts_with('/') && !url.contains(':');
        if relative {
            format!("{base}{url}").into()
        } else {
            url.into_string().into()
        }
    };
    let mut images = Vec::new();
    let events: Vec<Event> = Parser::new_ext(md, Options::ENABLE_TABLES)
        .map(|e| match e {
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => Event::Start(Tag::Heading {
                level: shift(level),
                id,
                classes,
                attrs,
            }),
            Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(shift(level))),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                images.push(dest_url.to_string());
                Event::Start(Tag::Image {
                    link_type,
                    dest_url: rebase(dest_url),
                    title,
                    id,
                })
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => Event::Start(Tag::Link {
                link_type,
                dest_url: rebase(dest_url),
                title,
                id,
            }),
            e => e,
        })
        .collect();
    let mut html = String::new();
    push_html(&mut html, events.into_iter());
    (html.replace("<br>", "<br />"), images)
}

/// The game's sources as cited in the text, with their pages, by the report's CSL processor:
/// `(Davies, 1925, pp. 143–144)`.
fn source_line(corpus: &Corpus, g: &Game) -> String {
    report::in_text(corpus, g)
}

/// A work as "Author year", or its id.
fn work_short(corpus: &Corpus, work: &str) -> String {
    corpus.work(work).and_then(|w| w.csl.as_ref()).map_or_else(
        || work.to_owned(),
        |c| {
            format!(
                "{} {}",
                c.author.first().map_or("", |a| a.family.as_str()),
                c.issued
                    .date_parts
                    .first()
                    .and_then(|d| d.first())
                    .map_or(String::new(), ToString::to_string)
            )
        },
    )
}

/// The register points a game's page shows: its own, and the shared ones it addresses.
fn points_of<'c>(corpus: &'c Corpus, g: &Game) -> Vec<&'c Point> {
    corpus
        .points
        .values()
        .filter(|p| {
            p.game.as_deref() == Some(g.id.as_str())
                || g.clauses.iter().any(|c| c.addresses.contains(&p.id))
                || g.choices.iter().any(|c| c.addresses.contains(&p.id))
        })
        .collect()
}

/// The index: the games, the search box and its data.
fn index(corpus: &Corpus) -> String {
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>ludotrace: the games and their sources</h1>\n<p>Traditional board games as \
         their historical sources describe them: each game's page holds its source texts with \
         every quoted word marked, its rules clause by clause, the points the sources leave \
         open and who reads them how, and the results of its report. Made by ludotrace {}; \
         it works offline, from a folder or a USB stick.</p>",
        env!("CARGO_PKG_VERSION")
    );
    b.push_str(
        "<form id=\"search\" action=\"index.html\" method=\"get\" role=\"search\">\n\
         <label for=\"q\">Find a game (by its name or another name) or a register point (UB-18)</label><br />\n\
         <input type=\"search\" id=\"q\" name=\"q\" autocomplete=\"off\" />\n</form>\n\
         <p id=\"status\" aria-live=\"polite\"></p>\n<ol id=\"results\"></ol>\n",
    );
    b.push_str(
        "<h2>The games</h2>\n<table>\n<thead><tr><th>game</th><th>also called</th><th>source</th>\
         <th>readings</th><th>open points</th></tr></thead>\n<tbody>\n",
    );
    for g in &corpus.games {
        let _ = writeln!(
            b,
            "<tr><td><a href=\"{}.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            html_id(&g.id),
            escape(&g.name),
            escape(&g.aliases.join(", ")),
            escape(&source_line(corpus, g)),
            g.interpretations.len(),
            g.choices.len()
        );
    }
    b.push_str("</tbody>\n</table>\n");
    b.push_str(
        "<p>The reports, with the commands that make every table: \
         <a href=\"reports/index.html\">reports/index.html</a>.</p>\n",
    );
    page(
        "ludotrace: the games and their sources",
        &b,
        Some(&search_script(corpus)),
    )
}

/// The search: its data (games by id, name and other names; register points by id and
/// title, each with the page and anchor it is on), folded as [`corpus::fold_name`] folds
/// names, and the script that folds a query the same way.
fn search_script(corpus: &Corpus) -> String {
    let mut entries = Vec::new();
    for g in &corpus.games {
        let mut keys: Vec<String> = Vec::new();
        for n in g.names() {
            let k = corpus::fold_name(n);
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        entries.push(serde_json::json!({
            "kind": "game",
            "label": g.name,
            "note": g.aliases.join(", "),
            "href": format!("{}.html", html_id(&g.id)),
            "keys": keys,
        }));
    }
    for p in corpus.points.values() {
        let Some(g) = corpus
            .games
            .iter()
            .find(|g| points_of(corpus, g).iter().any(|q| std::ptr::eq(*q, p)))
        else {
            continue;
        };
        let on = match &p.game {
            Some(_) => g.name.clone(),
            None => {
                let games: Vec<&str> = corpus
                    .games
                    .iter()
                    .filter(|h| points_of(corpus, h).iter().any(|q| std::ptr::eq(*q, p)))
                    .map(|h| h.name.as_str())
                    .collect();
                format!("shared: {}", games.join(", "))
            }
        };
        entries.push(serde_json::json!({
            "kind": "point",
            "label": format!("{}: {}", p.id, p.title),
            "note": on,
            "href": format!("{}.html#{}", html_id(&g.id), html_id(&p.id)),
            "keys": [corpus::fold_name(&p.id), corpus::fold_name(&p.title)],
        }));
    }
    // `<`, `>` and `&` as JSON escapes: the literal can then neither close the script nor
    // make the page ill-formed as XML.
    let data = serde_json::to_string(&entries)
        .expect("search entries are plain JSON")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    format!("\nvar ENTRIES = {data};\n{SEARCH_JS}")
}

/// The search box's script. It avoids `<` and `&` so that the page stays well-formed XML
/// without a CDATA section.
const SEARCH_JS: &str = include_str!("site_search.js");

/// A game's page.
fn game_page(corpus: &Corpus, g: &Game, reports: &[File]) -> String {
    let points = points_of(corpus, g);
    let (quotes, anchors, all_blocks, found) = page_texts(corpus, g, &points);
    let mut b = String::new();
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let _ = writeln!(
        b,
        "<nav><a href=\"index.html\">ludotrace</a> › {}</nav>",
        escape(&g.name)
    );
    let _ = writeln!(b, "<h1>{}</h1>", escape(&g.name));
    if !g.aliases.is_empty() {
        let _ = writeln!(b, "<p>Also called: {}.</p>", escape(&g.aliases.join(", ")));
    }
    let _ = writeln!(
        b,
        "<p class=\"meta\">People: {}; observed {}; source: {}; readings: {}; open points: {}. \
         Report: <a href=\"reports/{id}.html\">page</a> · <a href=\"reports/{id}.md\">Markdown</a> · \
         <a href=\"reports/{id}.bib\">BibTeX</a> · <a href=\"reports/{id}.csl.json\">CSL-JSON</a>.</p>",
        escape(&g.people),
        g.observed,
        escape(&source_line(corpus, g)),
        g.interpretations.len(),
        g.choices.len(),
        id = html_id(&g.id),
    );
    let _ = writeln!(
        b,
        "<nav>On this page: <a href=\"#sources\">sources</a> · <a href=\"#rules\">rules</a> · \
         {}<a href=\"#choices\">open points</a> · <a href=\"#readings\">readings</a> · \
         <a href=\"#register\">register</a> · <a href=\"#samples\">sample games</a> · \
         <a href=\"#results\">results</a></nav>",
        if g.remarks.is_empty() {
            ""
        } else {
            "<a href=\"#remarks\">beyond the rules</a> · "
        }
    );

    // Sources.
    b.push_str(
        "<h2 id=\"sources\">The sources</h2>\n<p class=\"meta\">Verbatim, as the witnesses \
         give them; every quoted span is marked and links to what quotes it.</p>\n",
    );
    b.push_str(&texts_html(corpus, &anchors, &quotes, &found, &mut ids));

    // The quote list under a clause, option or point, each linking back to where it is marked.
    let first_block = |a: &str| all_blocks.iter().position(|bl| bl.anchor == a);
    let cites_html = |owner: &str, quotes: &[Quote]| -> String {
        let mine: Vec<(usize, &Quote)> = quotes
            .iter()
            .enumerate()
            .filter(|(_, q)| q.owner == owner)
            .collect();
        if mine.is_empty() {
            return String::new();
        }
        let mut s = String::from("<ul class=\"cites\">\n");
        for (qi, q) in mine {
            let at: Vec<usize> = found
                .iter()
                .filter(|(fq, ..)| *fq == qi)
                .map(|(_, fb, ..)| *fb)
                .collect();
            let place = match (at.first(), first_block(&q.cite.at)) {
                (Some(&fb), Some(first)) if fb == first => {
                    format!(" <a class=\"back\" href=\"#{}\">↑ in the text</a>", q.id)
                }
                (Some(&fb), first) => format!(
                    " <a class=\"back\" href=\"#{}\">↑ in the text of {}</a> (a witness's \
                     wording: it is not in {}'s)",
                    q.id,
                    escape(all_blocks[fb].witness),
                    escape(first.map_or("", |f| all_blocks[f].witness))
                ),
                (None, _) => {
                    " <span class=\"meta\">(not found in the texts shown)</span>".to_owned()
                }
            };
            let _ = writeln!(
                s,
                "<li>“{}” <span class=\"meta\">({}{})</span>{place}</li>",
                escape(&q.cite.quote),
                escape(&q.cite.at),
                q.cite
                    .witness
                    .as_ref()
                    .map_or(String::new(), |w| format!(", witness {}", escape(w)))
            );
        }
        s.push_str("</ul>\n");
        s
    };
    let sets = |sets: &[(String, serde_json::Value)]| -> String {
        if sets.is_empty() {
            return String::new();
        }
        let list: Vec<String> = sets
            .iter()
            .map(|(k, v)| format!("<code>{}={}</code>", escape(k), escape(&v.to_string())))
            .collect();
        format!("<p class=\"meta\">Sets {}.</p>\n", list.join(", "))
    };
    let point_links = |ids: &[String]| -> String {
        ids.iter()
            .map(|p| {
                if points.iter().any(|q| &q.id == p) {
                    format!("<a href=\"#{}\">{}</a>", html_id(p), escape(p))
                } else {
                    escape(p)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let by = |by: &[String]| -> String {
        if by.is_empty() {
            String::new()
        } else {
            format!(
                " <span class=\"meta\">(by {})</span>",
                escape(&by.join(", "))
            )
        }
    };

    // Rules.
    b.push_str("<h2 id=\"rules\">The rules, clause by clause</h2>\n");
    for c in &g.clauses {
        let owner = format!("clause-{}", html_id(&c.id));
        let _ = writeln!(
            b,
            "<section id=\"{owner}\">\n<h3>{}{}</h3>\n<p>{}{}</p>",
            escape(&c.id),
            pilcrow(&owner),
            escape(&c.says),
            by(&c.by)
        );
        b.push_str(&sets(&c.sets));
        if !c.open.is_empty() {
            let open: Vec<String> = c
                .open
                .iter()
                .map(|o| format!("<a href=\"#choice-{}\">{}</a>", html_id(o), escape(o)))
                .collect();
            let _ = writeln!(b, "<p class=\"meta\">Leaves open: {}.</p>", open.join(", "));
        }
        if !c.addresses.is_empty() {
            let _ = writeln!(
                b,
                "<p class=\"meta\">Register: {}.</p>",
                point_links(&c.addresses)
            );
        }
        b.push_str(&cites_html(&owner, &quotes));
        b.push_str("</section>\n");
    }

    remarks_html(&mut b, g, &|owner| cites_html(owner, &quotes));

    // Choices.
    b.push_str("<h2 id=\"choices\">The open points and their options</h2>\n");
    if g.choices.is_empty() {
        b.push_str("<p>None: the sources settle every rule this ruleset states.</p>\n");
    }
    for ch in &g.choices {
        let owner = format!("choice-{}", html_id(&ch.id));
        let _ = writeln!(
            b,
            "<section id=\"{owner}\">\n<h3>{}{}</h3>\n<p>{}</p>",
            escape(&ch.id),
            pilcrow(&owner),
            escape(&ch.question)
        );
        if !ch.addresses.is_empty() {
            let _ = writeln!(
                b,
                "<p class=\"meta\">Register: {}.</p>",
                point_links(&ch.addresses)
            );
        }
        b.push_str(&cites_html(&owner, &quotes));
        b.push_str("<ul>\n");
        for o in &ch.options {
            let owner = format!("option-{}-{}", html_id(&ch.id), html_id(&o.id));
            let taken: Vec<&str> = g
                .interpretations
                .iter()
                .filter(|i| i.chosen(&ch.id) == Some(o.id.as_str()))
                .map(|i| i.id.as_str())
                .collect();
            let _ = writeln!(
                b,
                "<li id=\"{owner}\"><strong>{}</strong>{}: {}{}",
                escape(&o.id),
                pilcrow(&owner),
                escape(&o.says),
                by(&o.by)
            );
            if !taken.is_empty() {
                let _ = writeln!(
                    b,
                    "<br /><span class=\"meta\">Taken by the readings {}.</span>",
                    escape(&taken.join(", "))
                );
            }
            if let Some(e) = &o.engine {
                let _ = writeln!(
                    b,
                    "<br /><span class=\"meta\">The behaviour of the engine {}.</span>",
                    escape(e)
                );
            }
            b.push_str(&sets(&o.sets));
            b.push_str(&cites_html(&owner, &quotes));
            b.push_str("</li>\n");
        }
        b.push_str("</ul>\n</section>\n");
    }

    // Readings and the matrix.
    b.push_str("<h2 id=\"readings\">The readings, and who reads each open point how</h2>\n<dl>\n");
    for i in &g.interpretations {
        let _ = writeln!(
            b,
            "<dt>{}</dt><dd>{}{}</dd>",
            escape(&i.id),
            escape(&i.title),
            by(&i.by)
        );
    }
    b.push_str("</dl>\n");
    let mut o = Out::new(Format::Markdown, None);
    crate::present::register::matrix(&mut o, corpus, g);
    let mut matrix = markdown(&o.take(), 2);
    // Each row's point leads to its entry below.
    for p in &points {
        matrix = matrix.replace(
            &format!("<td>{}</td>", escape(&p.id)),
            &format!(
                "<td><a href=\"#{}\">{}</a></td>",
                html_id(&p.id),
                escape(&p.id)
            ),
        );
    }
    b.push_str(&matrix);

    // Register.
    b.push_str("<h2 id=\"register\">The register points</h2>\n");
    for p in &points {
        let status = match p.status {
            PointStatus::Open => "open",
            PointStatus::Settled => "settled",
            PointStatus::Departed => "departed",
            PointStatus::Encoding => "encoding",
        };
        let _ = writeln!(
            b,
            "<section id=\"{}\">\n<h3>{}: {}{}</h3>\n<p class=\"meta\">{status}{}{}</p>\n<p>{}</p>",
            html_id(&p.id),
            escape(&p.id),
            escape(&p.title),
            pilcrow(&html_id(&p.id)),
            if p.game.is_none() { ", shared" } else { "" },
            p.impact.map_or(String::new(), |i| format!(
                "; impact {}{}",
                crate::present::register::impact_text(Some(i)),
                p.impact_note
                    .as_ref()
                    .map_or(String::new(), |n| format!(": {}", escape(n)))
            )),
            escape(&p.says)
        );
        b.push_str(&cites_html(&html_id(&p.id), &quotes));
        let readings = p.effective_readings(corpus);
        if !readings.is_empty() {
            b.push_str("<ul>\n");
            for r in readings {
                // A reading's id is whole (`UB-07a`); a point the same as another shows that
                // one's readings, whose ids are on that point's section when it is here too.
                let id = html_id(&r.id);
                let anchor = if ids.insert(id.clone()) {
                    format!(" id=\"{id}\"")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    b,
                    "<li{anchor}><strong>{}</strong>{}: {}{}</li>",
                    escape(&r.id),
                    if anchor.is_empty() {
                        String::new()
                    } else {
                        pilcrow(&id)
                    },
                    escape(&r.says),
                    by(&r.by)
                );
            }
            b.push_str("</ul>\n");
        }
        b.push_str("</section>\n");
    }

    // Sample games.
    b.push_str(
        "<h2 id=\"samples\">Sample games, move by move</h2>\n<p class=\"meta\">Game 0 of each \
         reading's run in the report, step by step: the board, each move and each rule it \
         applies with the words it rests on. And the first reading's game under each other \
         reading: where the two part, and the open point that parts them.</p>\n<ul>\n",
    );
    for i in &g.interpretations {
        let _ = writeln!(
            b,
            "<li><a href=\"{}\">{}</a>: {}</li>",
            sample_name(&g.id, &i.id, None),
            escape(&i.id),
            escape(&i.title)
        );
    }
    if let Some(primary) = g.interpretations.first() {
        for i in g.interpretations.iter().skip(1) {
            let _ = writeln!(
                b,
                "<li><a href=\"{}\">{} against {}</a></li>",
                sample_name(&g.id, &primary.id, Some(&i.id)),
                escape(&primary.id),
                escape(&i.id)
            );
        }
    }
    b.push_str("</ul>\n");

    // Results, from the report.
    b.push_str("<h2 id=\"results\">Results</h2>\n");
    let _ = writeln!(
        b,
        "<p>From the game's report (<a href=\"reports/{}.html\">the whole report</a>, with the \
         comparisons, the flags and the sensitivity, each under the command that makes it).</p>",
        html_id(&g.id)
    );
    let mut shown = Vec::new();
    if let Some(md) = reports.iter().find(|f| f.name == format!("{}.md", g.id)) {
        // Who wins under random play, then how each reading plays under skilled play and
        // which criteria it meets, then the exact values where a reading is solved.
        for title in [
            "Outcomes of every reading",
            crate::present::report::SELFPLAY_TITLE,
            crate::present::report::EXACT_TITLE,
        ] {
            let section = report_section(&md.text, title);
            let (html, images) = markdown_in(&section, 1, "reports/");
            b.push_str(&html);
            shown.extend(images);
        }
    }
    // The report's other figures (its section may show some already), with the alt text and
    // the caption the report gives them.
    let md = reports
        .iter()
        .find(|f| f.name == format!("{}.md", g.id))
        .map_or("", |f| f.text.as_str());
    for f in figures(corpus, g, reports)
        .into_iter()
        .filter(|f| !shown.contains(&f.name))
    {
        let (alt, caption) = figure_text(md, &f.name);
        let _ = writeln!(
            b,
            "<figure id=\"figure-{}\"><img src=\"reports/{}\" alt=\"{}\" /><figcaption>{}</figcaption></figure>",
            html_id(f.name.strip_suffix(".svg").unwrap_or(&f.name)),
            escape(&f.name),
            escape(&alt),
            escape(&caption)
        );
    }
    page(&format!("{}: ludotrace", g.name), &b, None)
}

/// The section after the rules: what the sources say about the game beyond them, each
/// remark with its kind and its quotes (`cites` gives the list of an owner's quotes, linked to
/// where they are marked in the texts). Nothing when the game has none.
fn remarks_html(b: &mut String, g: &Game, cites: &dyn Fn(&str) -> String) {
    if g.remarks.is_empty() {
        return;
    }
    b.push_str(
        "<h2 id=\"remarks\">Beyond the rules: what the sources say</h2>\n<p class=\"meta\">\
         Who plays the game, the skill it asks for, its materials, its names: the sources' \
         words, quoted and checked like the rules', each summed up in a line.</p>\n",
    );
    for r in &g.remarks {
        let owner = format!("remark-{}", html_id(&r.id));
        let _ = writeln!(
            b,
            "<section id=\"{owner}\">\n<h3>{} <span class=\"meta\">({})</span>{}</h3>\n<p>{}</p>",
            escape(&r.id),
            escape(r.kind.as_str()),
            pilcrow(&owner),
            escape(&r.says)
        );
        b.push_str(&cites(&owner));
        b.push_str("</section>\n");
    }
}

/// A figure's alt text and caption as the report's Markdown gives them (`![alt](name)`, then
/// `*caption*` in the next paragraph); its file name for both when the report has no such
/// image.
fn figure_text(md: &str, name: &str) -> (String, String) {
    let image = format!("]({name})");
    let mut lines = md.lines();
    while let Some(line) = lines.next() {
        if let Some(alt) = line
            .strip_suffix(image.as_str())
            .and_then(|l| l.strip_prefix("!["))
        {
            let caption = lines
                .find(|l| !l.trim().is_empty())
                .and_then(|l| l.strip_prefix('*')?.strip_suffix('*'))
                .unwrap_or(alt);
            return (alt.to_owned(), caption.to_owned());
        }
    }
    (name.to_owned(), name.to_owned())
}

/// A `## ` section of a report's Markdown, with its heading.
fn report_section(md: &str, title: &str) -> String {
    let head = format!("## {title}");
    let mut out = String::new();
    let mut inside = false;
    for line in md.lines() {
        if line.starts_with("## ") {
            inside = line == head;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The game's SVG figures among the report's files (`<game>-….svg`): a figure belongs to the
/// game with the longest id it begins with (`ab-c-x.svg` is `ab-c`'s, not `ab`'s).
fn figures<'r>(corpus: &Corpus, g: &Game, reports: &'r [File]) -> Vec<&'r File> {
    let owner = |name: &str| {
        corpus
            .games
            .iter()
            .filter(|h| name.starts_with(&format!("{}-", h.id)))
            .max_by_key(|h| h.id.len())
            .map(|h| h.id.clone())
    };
    reports
        .iter()
        .filter(|f| f.name.ends_with(".svg") && owner(&f.name).as_deref() == Some(g.id.as_str()))
        .collect()
}
