//! A position as a picture: the board as rows of named sites, each with what it holds and
//! whose it is, and the few facts beside the board (stores, hands, banks, the throw in hand).
//!
//! Every engine draws its own position into a [`BoardView`] ([`crate::games::Rules::board`]);
//! `explain` writes it as a text diagram and its viewer as an SVG, so that neither knows any
//! family. A view is plain data: no engine type leaks into it, and it is not a way back into
//! a position (the position notation is).

/// The board as drawn: rows of sites, the top row first (the far side of the board as seat 1
/// sees it, or the last row of a grid), and the notes beside it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoardView {
    /// The rows, top first; every row has the same number of sites.
    pub rows: Vec<Vec<SiteView>>,
    /// What lies beside the board, as `name value` pairs (`taken` `3-5`, `hands` `12-10`,
    /// `throw` `4`), in a fixed order a family.
    pub notes: Vec<(String, String)>,
}

/// One site (house, cell, hollow) as drawn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SiteView {
    /// Its name in the game's notation (`a3`, `c5`), empty for a place that is not a site
    /// (the end of a spiral's last row).
    pub name: String,
    /// What it holds, short: a count of counters, a piece's letter, the pieces in a hollow;
    /// empty when it holds nothing.
    pub text: String,
    /// The seat the site or what it holds belongs to (a row's owner, a piece's player), if
    /// any: the viewer colours by it.
    pub seat: Option<u8>,
    /// Whether the rules mark the site (a daughter's house, a counter not yet released).
    pub marked: bool,
}

impl SiteView {
    /// A site.
    pub fn new(name: String, text: String, seat: Option<u8>, marked: bool) -> Self {
        SiteView {
            name,
            text,
            seat,
            marked,
        }
    }
}

impl BoardView {
    /// The view as lines of text no wider than `width` columns where the board allows it:
    /// each site its name and its contents, one column a site, the notes below. A row too
    /// wide for `width` is written in slices, each under its own names.
    pub fn lines(&self, width: usize) -> Vec<String> {
        let mut out = Vec::new();
        let cell = self
            .rows
            .iter()
            .flatten()
            .map(|s| s.name.chars().count().max(shown(s).chars().count()))
            .max()
            .unwrap_or(1)
            .max(2);
        let cols = self.rows.first().map_or(0, Vec::len);
        // One column a site and a space between: as many sites a slice as `width` holds.
        let per = (width.max(cell + 1) / (cell + 1)).max(1).min(cols.max(1));
        for start in (0..cols).step_by(per) {
            let end = (start + per).min(cols);
            for row in &self.rows {
                let names: Vec<String> = row[start..end]
                    .iter()
                    .map(|s| format!("{:>cell$}", s.name))
                    .collect();
                let held: Vec<String> = row[start..end]
                    .iter()
                    .map(|s| format!("{:>cell$}", shown(s)))
                    .collect();
                out.push(names.join(" ").trim_end().to_owned());
                out.push(held.join(" ").trim_end().to_owned());
            }
            if end < cols {
                out.push(String::new());
            }
        }
        if !self.notes.is_empty() {
            let notes: Vec<String> = self.notes.iter().map(|(k, v)| format!("{k} {v}")).collect();
            out.push(notes.join(" · "));
        }
        out
    }
}

/// What a site shows in text: its contents, a `.` when empty, a `*` after a marked one.
fn shown(s: &SiteView) -> String {
    let text = if s.text.is_empty() { "." } else { &s.text };
    if s.marked {
        format!("{text}*")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(name: &str, text: &str) -> SiteView {
        SiteView::new(name.to_owned(), text.to_owned(), None, false)
    }

    #[test]
    fn a_row_wider_than_the_width_is_cut_into_slices_under_their_names() {
        let view = BoardView {
            rows: vec![(1..=12).map(|i| site(&format!("h{i}"), "7")).collect()],
            notes: vec![("taken".to_owned(), "0-0".to_owned())],
        };
        let lines = view.lines(20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(lines[0], " h1  h2  h3  h4  h5");
        assert_eq!(lines[1], "  7   7   7   7   7");
        assert_eq!(lines.last().unwrap(), "taken 0-0");
        // Every site is written once.
        let names: usize = lines.iter().map(|l| l.matches('h').count()).sum();
        assert_eq!(names, 12);
    }

    #[test]
    fn an_empty_site_is_a_dot_and_a_marked_one_has_a_star() {
        let mut marked = site("b2", "3");
        marked.marked = true;
        let view = BoardView {
            rows: vec![vec![site("b1", ""), marked]],
            notes: vec![],
        };
        assert_eq!(view.lines(80), vec![b("b1 b2"), b(" . 3*")]);
    }

    fn b(s: &str) -> String {
        s.to_owned()
    }
}
