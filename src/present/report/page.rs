//! A report's Markdown as a self-contained HTML page an author can cite and print: every
//! heading, clause, remark, open point and option with a stable id and a "¶" link to it, a
//! table of contents, a link back to the index of the reports, URLs and DOIs as links, each
//! figure inline as a `<figure>` whose SVG carries its title and description, and the
//! Highwire Press `citation_*` metadata in the head, so that a reference manager (Zotero's
//! "Embedded Metadata") captures the report as a report, with its authors, date, institution
//! and references, rather than as a bare web page.
//!
//! The ids are the site's (`clause-ID`, `remark-ID`, `choice-ID`, `option-CHOICE-ID`), so a
//! fragment that cites a rule on a game's site page cites it on its report too. Nothing here
//! depends on the time or the machine: the date is the release year, as the citations have it.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::Figure;
use crate::corpus::Game;
use crate::present::html::escape;

/// What the page's head says of it: its title, who made it and when, and what it cites.
pub(super) struct Meta<'a> {
    /// The document's title (`Um el Banât`, `ludotrace reports`).
    pub title: &'a str,
    /// The game the report is of (none for the index): its clauses, remarks and open points
    /// get their ids from it.
    pub game: Option<&'a Game>,
    /// The corpus hash, printed as the report's number.
    pub hash: &'a str,
    /// The bibliography, one reference a line, as the report prints it.
    pub references: Vec<String>,
}

/// Who the reports are by, for the reference managers: the project, as `CITATION.cff` names
/// its authors.
pub(super) const AUTHOR: &str = "The ludotrace authors";

/// The opening tag of the navigation at the top of every report page; the site adds its own
/// links after it ([`in_site`]).
const TOP_NAV: &str = "<nav class=\"top\" aria-label=\"Reports\">";

/// A report (or the index) as a self-contained page: the Markdown rendered (tables
/// included), the style inline, no script and no outside request; void elements closed
/// (`<br />`) so that the page is well-formed XML too.
pub(super) fn html(meta: &Meta, markdown: &str, figures: &[Figure]) -> String {
    let events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    let events = figures_in(events, figures);
    let (events, toc) = anchored(events, meta.game);
    let events = linked(events);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    // Markdown table cells break lines with `<br>` (raw HTML, passed through).
    let body = body.replace("<br>", "<br />");
    // The contents go before the first section, after the title and the opening lines.
    let body = match (toc.is_empty(), body.find("<h2")) {
        (false, Some(at)) => format!("{}{toc}{}", &body[..at], &body[at..]),
        _ => body,
    };
    let nav = if meta.game.is_some() {
        format!("{TOP_NAV}<a href=\"index.html\">All the reports</a></nav>\n")
    } else {
        format!("{TOP_NAV}</nav>\n")
    };
    let title = escape(meta.title);
    let page_title = if meta.game.is_some() {
        format!("{title}: a ludotrace report")
    } else {
        title.clone()
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
         <title>{page_title}</title>\n{}<style>{}</style>\n</head>\n<body>\n{nav}{body}</body>\n</html>\n",
        citation_meta(meta, &page_title),
        super::CSS
    )
}

/// The Highwire Press tags (Google Scholar's, which Zotero, Mendeley and EndNote read):
/// `citation_technical_report_institution` makes the item a report.
fn citation_meta(meta: &Meta, page_title: &str) -> String {
    let mut tags = vec![
        ("citation_title", page_title.to_owned()),
        ("citation_author", escape(AUTHOR)),
        ("citation_publication_date", {
            let (y, m, d) = crate::present::cite::RELEASE_DATE;
            format!("{y}/{m:02}/{d:02}")
        }),
        (
            "citation_technical_report_institution",
            "ludotrace".to_owned(),
        ),
        (
            "citation_technical_report_number",
            escape(&format!(
                "ludotrace {}, corpus BLAKE3 {}",
                env!("CARGO_PKG_VERSION"),
                meta.hash
            )),
        ),
        ("citation_language", "en".to_owned()),
    ];
    if let Some(g) = meta.game {
        tags.push((
            "citation_keywords",
            escape(&format!(
                "{}; traditional board games; rules; historical sources",
                g.name
            )),
        ));
    }
    for r in &meta.references {
        tags.push(("citation_reference", escape(r)));
    }
    tags.iter()
        .map(|(name, content)| format!("<meta name=\"{name}\" content=\"{content}\" />\n"))
        .collect()
}

/// A report page made for `report` as it sits in a site's `reports/`: the top navigation
/// also leads to the site's index and to the game's page there (`game` is none for the
/// reports' index).
pub(crate) fn in_site(page: &str, game: Option<(&str, &str)>) -> String {
    let mut links = String::from("<a href=\"../index.html\">The site</a> · ");
    if let Some((id, name)) = game {
        links.push_str(&format!(
            "<a href=\"../{}.html\">{} on the site</a> · ",
            escape(id),
            escape(name)
        ));
    }
    let with = format!("{TOP_NAV}{links}");
    let page = page.replacen(TOP_NAV, &with, 1);
    // The index's navigation had nothing after the site's links.
    page.replacen(" · </nav>", "</nav>", 1)
}

/// Each figure's image (a file beside the Markdown) and the caption paragraph after it become
/// one `<figure>`: the SVG itself, which carries its title and description, then the caption.
fn figures_in<'a>(events: Vec<Event<'a>>, figures: &[Figure]) -> Vec<Event<'a>> {
    let mut out = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        let image = match (&events[i], events.get(i + 1)) {
            (Event::Start(Tag::Paragraph), Some(Event::Start(Tag::Image { dest_url, .. }))) => {
                figures.iter().find(|f| f.name == dest_url.as_ref())
            }
            _ => None,
        };
        let Some(f) = image else {
            out.push(events[i].clone());
            i += 1;
            continue;
        };
        // Past the image and its paragraph.
        let mut j = i + 2;
        while j < events.len() && !matches!(events[j], Event::End(TagEnd::Paragraph)) {
            j += 1;
        }
        j += 1;
        out.push(Event::Html(
            format!(
                "<figure class=\"figure\" id=\"{}\">{}\n",
                figure_id(&f.name),
                f.svg.trim_end()
            )
            .into(),
        ));
        // The caption: the paragraph right after, one emphasis.
        if matches!(events.get(j), Some(Event::Start(Tag::Paragraph)))
            && matches!(events.get(j + 1), Some(Event::Start(Tag::Emphasis)))
        {
            let mut k = j + 2;
            out.push(Event::Html("<figcaption>".into()));
            while k < events.len() && !matches!(events[k], Event::End(TagEnd::Emphasis)) {
                out.push(events[k].clone());
                k += 1;
            }
            out.push(Event::Html("</figcaption>".into()));
            // Past the emphasis and the paragraph's end.
            j = k + 2;
        }
        out.push(Event::Html("</figure>\n".into()));
        i = j;
    }
    out
}

/// A figure's id on the page: `figure-outcomes` for `<game>-outcomes.svg`.
fn figure_id(name: &str) -> String {
    let stem = name.strip_suffix(".svg").unwrap_or(name);
    let what = stem.rsplit('-').next().unwrap_or(stem);
    format!("figure-{}", slug(what))
}

/// An id made of a heading's words: lower case, letters and digits, words joined by `-`.
fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').to_owned();
    if s.is_empty() {
        "section".to_owned()
    } else {
        s
    }
}

/// Which part of the rules section the events are in: the items of a list there are clauses,
/// remarks or a choice's options.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Other,
    Rules,
    Remarks,
    Choices,
}

/// The "¶" link to an element, after its name.
fn pilcrow(id: &str) -> Event<'static> {
    Event::InlineHtml(
        format!(
            "<a class=\"para\" href=\"#{id}\" title=\"a link to this: {id}\" \
             aria-label=\"link to {id}\">¶</a>"
        )
        .into(),
    )
}

/// Every heading with an id and a "¶" link (a choice's heading with its `choice-ID`), every
/// clause, remark and option of the rules section with its id and a "¶" after its name; and
/// the table of contents (the `##` sections) as HTML.
fn anchored<'a>(events: Vec<Event<'a>>, game: Option<&Game>) -> (Vec<Event<'a>>, String) {
    let mut out = Vec::with_capacity(events.len() + 64);
    let mut used: Vec<String> = Vec::new();
    let mut unique = |id: String| -> String {
        let mut candidate = id.clone();
        let mut k = 2;
        while used.contains(&candidate) {
            candidate = format!("{id}-{k}");
            k += 1;
        }
        used.push(candidate.clone());
        candidate
    };
    let mut toc: Vec<(String, String)> = Vec::new();
    let mut part = Part::Other;
    let mut choice: Option<String> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while i < events.len() {
        match &events[i] {
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                // The heading's text, up to its end.
                let mut end = i + 1;
                let mut text = String::new();
                let mut first_code: Option<String> = None;
                while end < events.len() && !matches!(events[end], Event::End(TagEnd::Heading(_))) {
                    match &events[end] {
                        Event::Text(t) => text.push_str(t),
                        Event::Code(t) => {
                            if first_code.is_none() && text.trim().is_empty() {
                                first_code = Some(t.to_string());
                            }
                            text.push_str(t);
                        }
                        _ => {}
                    }
                    end += 1;
                }
                let level = *level;
                if level <= HeadingLevel::H3 {
                    part = Part::Other;
                    choice = None;
                }
                if level == HeadingLevel::H4 {
                    choice = None;
                    part = match text.as_str() {
                        "Rules" => Part::Rules,
                        t if t.starts_with("Remarks") => Part::Remarks,
                        "Open points" => Part::Choices,
                        _ => Part::Other,
                    };
                }
                let choice_id = match (part, level, &first_code, game) {
                    (Part::Choices, HeadingLevel::H5, Some(c), Some(g))
                        if g.choices.iter().any(|ch| &ch.id == c) =>
                    {
                        Some(c.clone())
                    }
                    _ => None,
                };
                if level == HeadingLevel::H5 && part == Part::Choices {
                    choice.clone_from(&choice_id);
                }
                let id = unique(match &choice_id {
                    Some(c) => format!("choice-{}", html_id(c)),
                    None => slug(&text),
                });
                if level == HeadingLevel::H2 {
                    toc.push((id.clone(), text.clone()));
                }
                out.push(Event::Start(Tag::Heading {
                    level,
                    id: Some(CowStr::from(id.clone())),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
                out.extend(events[i + 1..end].iter().cloned());
                out.push(pilcrow(&id));
                if let Some(e) = events.get(end) {
                    out.push(e.clone());
                }
                i = end + 1;
                continue;
            }
            Event::Start(Tag::List(_)) => depth += 1,
            Event::End(TagEnd::List(_)) => depth = depth.saturating_sub(1),
            Event::Start(Tag::Item) if depth == 1 && part != Part::Other => {
                if let (Some(g), Some(named)) = (game, item_name(&events[i + 1..], part)) {
                    let id = match part {
                        Part::Rules => g
                            .clauses
                            .iter()
                            .any(|c| c.id == named.id)
                            .then(|| format!("clause-{}", html_id(&named.id))),
                        Part::Remarks => g
                            .remarks
                            .iter()
                            .any(|r| r.id == named.id)
                            .then(|| format!("remark-{}", html_id(&named.id))),
                        Part::Choices => choice.as_ref().and_then(|c| {
                            g.choices
                                .iter()
                                .find(|ch| &ch.id == c)
                                .filter(|ch| ch.options.iter().any(|o| o.id == named.id))
                                .map(|_| format!("option-{}-{}", html_id(c), html_id(&named.id)))
                        }),
                        Part::Other => None,
                    };
                    if let Some(id) = id {
                        let id = unique(id);
                        out.push(Event::Html(format!("<li id=\"{id}\">").into()));
                        out.extend(events[i + 1..=i + 1 + named.last].iter().cloned());
                        out.push(pilcrow(&id));
                        i += named.last + 2;
                        continue;
                    }
                }
            }
            _ => {}
        }
        out.push(events[i].clone());
        i += 1;
    }
    let toc = if toc.len() < 2 {
        String::new()
    } else {
        let mut s = String::from(
            "<nav class=\"toc\" aria-label=\"Contents\">\n<p><strong>Contents</strong></p>\n<ol>\n",
        );
        for (id, text) in &toc {
            s.push_str(&format!(
                "<li><a href=\"#{id}\">{}</a></li>\n",
                escape(text)
            ));
        }
        s.push_str("</ol>\n</nav>\n");
        s
    };
    (out, toc)
}

/// The name an item of the rules section opens with: `**id**` for a clause or a remark,
/// `` `id` `` for an option; `last` is the offset of its last event (after the item's start).
struct Named {
    id: String,
    last: usize,
}

fn item_name(after: &[Event], part: Part) -> Option<Named> {
    // A loose list's item opens with a paragraph.
    if let [Event::Start(Tag::Paragraph), rest @ ..] = after {
        return item_name(rest, part).map(|n| Named {
            id: n.id,
            last: n.last + 1,
        });
    }
    match (part, after) {
        (
            Part::Rules | Part::Remarks,
            [
                Event::Start(Tag::Strong),
                Event::Text(t),
                Event::End(TagEnd::Strong),
                ..,
            ],
        ) => Some(Named {
            id: t.to_string(),
            last: 2,
        }),
        (Part::Choices, [Event::Code(t), ..]) => Some(Named {
            id: t.to_string(),
            last: 0,
        }),
        _ => None,
    }
}

/// An id as the site makes it (letters, digits, `-`, `_`, `.`; anything else `_`).
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

/// Every web address and DOI in the text (not in code, not already a link) as a link.
fn linked(events: Vec<Event>) -> Vec<Event> {
    // The parser may cut a text at `_`, `(` and the like: joined again, an address is whole.
    let mut joined: Vec<Event> = Vec::with_capacity(events.len());
    for e in events {
        if let (Event::Text(t), Some(Event::Text(before))) = (&e, joined.last_mut()) {
            *before = CowStr::from(format!("{before}{t}"));
            continue;
        }
        joined.push(e);
    }
    let events = joined;
    let mut out = Vec::with_capacity(events.len());
    let (mut in_link, mut in_code) = (0usize, false);
    for e in events {
        match &e {
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => in_link += 1,
            Event::End(TagEnd::Link | TagEnd::Image) => in_link = in_link.saturating_sub(1),
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(t) if in_link == 0 && !in_code => {
                let pieces = links_in(t);
                if pieces.iter().any(|p| p.1.is_some()) {
                    for (text, href) in pieces {
                        match href {
                            Some(h) => out.push(Event::InlineHtml(
                                format!("<a href=\"{}\">{}</a>", escape(&h), escape(&text)).into(),
                            )),
                            None => out.push(Event::Text(text.into())),
                        }
                    }
                    continue;
                }
            }
            _ => {}
        }
        out.push(e);
    }
    out
}

/// A text cut into pieces, each with the address it links to: `http(s)://…` up to a space
/// (less the punctuation that ends a sentence or closes a bracket opened before it), and
/// DOIs (`doi:10.…`, or a bare `10.NNNN/…`) to `https://doi.org/`.
pub(super) fn links_in(text: &str) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let at_word = plain.is_empty()
            || plain
                .chars()
                .last()
                .is_some_and(|c| c.is_whitespace() || matches!(c, '(' | '[' | '<' | '"' | '“'));
        let found = if at_word { address_at(rest) } else { None };
        if let Some((len, href)) = found {
            if !plain.is_empty() {
                out.push((std::mem::take(&mut plain), None));
            }
            out.push((rest[..len].to_owned(), Some(href)));
            rest = &rest[len..];
            continue;
        }
        let c = rest.chars().next().expect("not empty");
        plain.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !plain.is_empty() {
        out.push((plain, None));
    }
    out
}

/// The address `s` begins with: its length in `s` and where it leads.
fn address_at(s: &str) -> Option<(usize, String)> {
    let lower = s.get(..8).map(str::to_ascii_lowercase).unwrap_or_default();
    let is_url = lower.starts_with("https://") || lower.starts_with("http://");
    let is_doi_label = s
        .get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case("doi:10."));
    let is_bare_doi = s.starts_with("10.")
        && s[3..]
            .find('/')
            .is_some_and(|k| k >= 4 && s[3..3 + k].chars().all(|c| c.is_ascii_digit() || c == '.'));
    if !(is_url || is_doi_label || is_bare_doi) {
        return None;
    }
    let mut end = s.find(char::is_whitespace).unwrap_or(s.len());
    // Trailing punctuation belongs to the sentence; a closing bracket only if the address
    // opened none.
    loop {
        let c = s[..end].chars().last()?;
        let trim = match c {
            '.' | ',' | ';' | ':' | '!' | '?' | '"' | '”' | '\'' => true,
            ')' => s[..end].matches('(').count() < s[..end].matches(')').count(),
            ']' => s[..end].matches('[').count() < s[..end].matches(']').count(),
            _ => false,
        };
        if !trim {
            break;
        }
        end -= c.len_utf8();
    }
    let address = &s[..end];
    let href = if is_url {
        address.to_owned()
    } else if is_doi_label {
        format!("https://doi.org/{}", &address[4..])
    } else {
        format!("https://doi.org/{address}")
    };
    // A scheme alone, or a DOI with nothing after its prefix, is no address.
    let minimal = if is_url { "https://".len() } else { 8 };
    (address.len() > minimal).then_some((end, href))
}
