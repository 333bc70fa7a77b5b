//! A work's bibliographic fields, checked before they reach a citation: the CSL item type
//! against the CSL 1.0.2 vocabulary, pages as a page or a range of pages, volume, issue and
//! number of volumes as numbers. A citation processor renders whatever it is given (an
//! unknown type as a generic item, "one-thirty-eight" as a page), so these are load errors,
//! each at the place it was written with its own code (`csl-type`, `csl-pages`,
//! `csl-number`).

use super::Validator;
use crate::corpus::diag::Place;
use crate::corpus::model::{CSL_TYPES, CslItem};
use crate::corpus::raw::{self, Sp};

impl Validator<'_> {
    /// The checked item, with every problem of its fields reported.
    pub(super) fn csl(&mut self, path: &str, raw: &raw::Csl) -> CslItem {
        let t = &raw.item_type;
        if !CSL_TYPES.contains(&t.value.as_str()) {
            let near = nearest(&t.value, CSL_TYPES)
                .map_or(String::new(), |n| format!(" (did you mean `{n}`?)"));
            self.diags.push(
                Place::at(path, &t.referenced),
                "csl-type",
                format!(
                    "type: `{}` is not a CSL 1.0.2 item type{near}; the types are {}",
                    t.value,
                    CSL_TYPES.join(", ")
                ),
            );
        }
        if let Some(p) = &raw.page {
            self.pages(path, p, "page");
        }
        for (field, value) in [
            ("volume", &raw.volume),
            ("issue", &raw.issue),
            ("number-of-volumes", &raw.number_of_volumes),
        ] {
            let Some(v) = value else { continue };
            let roman_ok = field != "number-of-volumes";
            if !(is_number(&v.value) || roman_ok && is_roman(&v.value)) {
                self.diags.push(
                    Place::at(path, &v.referenced),
                    "csl-number",
                    format!(
                        "{field}: `{}` is not a number; write it in figures (`8`){}",
                        v.value,
                        if roman_ok {
                            " or as a roman numeral (`VIII`)"
                        } else {
                            ""
                        }
                    ),
                );
            }
        }
        CslItem {
            item_type: t.value.clone(),
            author: raw.author.clone(),
            title: raw.title.clone(),
            title_short: raw.title_short.clone(),
            container_title: raw.container_title.clone(),
            volume: raw.volume.as_ref().map(|v| v.value.clone()),
            issue: raw.issue.as_ref().map(|v| v.value.clone()),
            issued: raw.issued.clone(),
            page: raw.page.as_ref().map(|v| v.value.clone()),
            publisher: raw.publisher.clone(),
            publisher_place: raw.publisher_place.clone(),
            url: raw.url.clone(),
            accessed: raw.accessed.clone(),
            number_of_volumes: raw.number_of_volumes.as_ref().map(|v| v.value.clone()),
            note: raw.note.clone(),
        }
    }

    /// A page or a page range (a work's `page:`, a passage's `page:`): one page in figures or
    /// roman numerals, or two joined by an en dash or a hyphen, the second not before the first.
    pub(super) fn pages(&mut self, path: &str, page: &Sp<String>, field: &str) {
        if !is_page_range(&page.value) {
            self.diags.push(
                Place::at(path, &page.referenced),
                "csl-pages",
                format!(
                    "{field}: `{}` is not a page or a page range; write one page in figures \
                     (`138`) or a range (`138–139`, en dash or hyphen), first page first",
                    page.value
                ),
            );
        }
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.len() <= 6 && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0')
}

fn is_roman(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 12
        && (s.bytes().all(|b| b"IVXLCDM".contains(&b))
            || s.bytes().all(|b| b"ivxlcdm".contains(&b)))
}

/// `138`, `138–139`, `138-139`, `xii`, `xii–xiv`; a range of figures must not run backwards.
pub(crate) fn is_page_range(s: &str) -> bool {
    let parts: Vec<&str> = s.split(['–', '-']).collect();
    let page = |p: &str| is_number(p) || is_roman(p);
    match parts[..] {
        [one] => page(one),
        [a, b] => {
            page(a)
                && page(b)
                && match (a.parse::<u32>(), b.parse::<u32>()) {
                    (Ok(x), Ok(y)) => x < y,
                    (Err(_), Err(_)) => true,
                    _ => false,
                }
        }
        _ => false,
    }
}

/// The word of `words` closest to `s` by edit distance, if it is close (a slip, not another
/// word); `journal-article` written for `article-journal` counts as close, its parts swapped.
fn nearest<'a>(s: &str, words: &[&'a str]) -> Option<&'a str> {
    let swapped: String = s.rsplit('-').collect::<Vec<_>>().join("-");
    let d = |a: &str, b: &str| {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let cur = row[j + 1];
                row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
                prev = cur;
            }
        }
        row[b.len()]
    };
    words
        .iter()
        .map(|w| (d(s, w).min(d(&swapped, w)), *w))
        .min()
        .filter(|(dist, _)| *dist <= 3)
        .map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_a_page_or_a_forward_range() {
        for ok in ["138", "138–139", "138-139", "xii", "XII–XIV", "346"] {
            assert!(is_page_range(ok), "{ok}");
        }
        for bad in [
            "one-thirty-eight",
            "",
            "139–138",
            "138–",
            "0",
            "138–139–140",
            "p. 138",
            "12a",
        ] {
            assert!(!is_page_range(bad), "{bad}");
        }
    }

    #[test]
    fn a_misspelt_type_is_matched_to_the_one_meant() {
        assert_eq!(nearest("web-page", CSL_TYPES), Some("webpage"));
        assert_eq!(
            nearest("artcle-journal", CSL_TYPES),
            Some("article-journal")
        );
        assert_eq!(
            nearest("journal-artcle", CSL_TYPES),
            Some("article-journal")
        );
        assert_eq!(nearest("encyclopaedia", CSL_TYPES), None);
    }
}
