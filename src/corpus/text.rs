//! Text comparison for quotes and witnesses.
//!
//! A quote matches a passage when it occurs in it after Unicode NFC, folding every run of
//! whitespace to one space, and treating straight and curly quotation marks as equal. Nothing
//! else is forgiven: spelling, typos and punctuation must be exactly the source's, because the
//! point of a quote is that it is the source's words.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;

/// Normalises text for comparison (see the module docs).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    each_folded(text, |c, _| out.push(c));
    out
}

/// Text folded as [`fold`] folds it, with, for each byte of the folded text, the byte range
/// of `text` it comes from (a composed character, the first of a run of whitespace), so that
/// a match found in folded text can be shown in the original.
pub fn fold_mapped(text: &str) -> (String, Vec<Range<usize>>) {
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len());
    each_folded(text, |c, from| {
        out.push(c);
        map.extend(std::iter::repeat_n(from, c.len_utf8()));
    });
    (out, map)
}

/// Where `quote` first occurs in `text` when both are folded (the comparison the loader
/// checks quotes with): the byte range of `text` it covers, or `None`.
pub fn find(text: &str, quote: &str) -> Option<Range<usize>> {
    let needle = fold(quote);
    let (hay, map) = fold_mapped(text);
    if !contains_folded(&hay, &needle) {
        return None;
    }
    let at = hay.find(&needle)?;
    Some(map[at].start..map[at + needle.len() - 1].end)
}

/// The one folding: calls `emit` with each character of the folded text and the byte range
/// of `text` it comes from. Text is composed (NFC) a cluster at a time (a starter, what
/// composes with it and the combining marks after it), which is what composing the whole
/// text gives, but keeps each character's origin.
fn each_folded(text: &str, mut emit: impl FnMut(char, Range<usize>)) {
    use unicode_normalization::char::{canonical_combining_class, compose};
    let mut pending_space: Option<Range<usize>> = None;
    let mut started = false;
    let mut chars = text.char_indices().peekable();
    while let Some((start, first)) = chars.next() {
        let mut end = start + first.len_utf8();
        while let Some(&(i, next)) = chars.peek() {
            let joins = canonical_combining_class(next) != 0
                || text[start..end]
                    .nfc()
                    .last()
                    .is_some_and(|last| compose(last, next).is_some());
            if !joins {
                break;
            }
            end = i + next.len_utf8();
            chars.next();
        }
        for c in text[start..end].nfc() {
            let c = match c {
                '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{00AB}' | '\u{00BB}' => '"',
                '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
                c => c,
            };
            if c.is_whitespace() {
                if started && pending_space.is_none() {
                    pending_space = Some(start..end);
                }
                continue;
            }
            if let Some(space) = pending_space.take() {
                emit(' ', space);
            }
            started = true;
            emit(c, start..end);
        }
    }
}

/// Whether `needle` occurs in `haystack`, both already folded.
pub fn contains_folded(haystack: &str, needle: &str) -> bool {
    !needle.is_empty() && haystack.contains(needle)
}

/// The longest leading run of whole words of `needle` (folded) that occurs in `haystack`
/// (folded): used to tell an editor where a quote stops matching.
pub fn longest_matching_prefix<'a>(haystack: &str, needle: &'a str) -> &'a str {
    let mut best = "";
    let mut end = 0;
    for (i, c) in needle.char_indices() {
        if c == ' ' {
            let candidate = &needle[..i];
            if haystack.contains(candidate) {
                best = candidate;
                end = i;
            } else {
                break;
            }
        }
    }
    if end < needle.len() && haystack.contains(needle) {
        return needle;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_whitespace_quotes_and_composition() {
        assert_eq!(fold("  a\n\t b  “c” ‘d’ "), "a b \"c\" 'd'");
        assert_eq!(fold("a\u{302}"), "â");
        assert_eq!(fold(&fold("x  y")), fold("x  y"));
    }

    /// The folding of the whole text at once, as the loader first did it: the cluster-wise
    /// folding must agree with it.
    fn fold_whole(text: &str) -> String {
        let mut out = String::new();
        let mut pending_space = false;
        for c in text.nfc() {
            let c = match c {
                '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{00AB}' | '\u{00BB}' => '"',
                '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
                c => c,
            };
            if c.is_whitespace() {
                pending_space = !out.is_empty();
                continue;
            }
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
        out
    }

    #[test]
    fn folding_a_cluster_at_a_time_is_folding_the_whole_text() {
        for t in [
            "a\u{302}b",
            "e\u{301}\u{327} x",
            "\u{1100}\u{1161}\u{11A8} \u{1100}\u{1161}",
            "\u{0B47}\u{0B3E}",
            " \u{301}a  ",
        ] {
            assert_eq!(fold(t), fold_whole(t), "{t:?}");
        }
        for f in crate::corpus::CorpusFiles::embedded().files {
            let text = f.content.unwrap();
            assert_eq!(fold(&text), fold_whole(&text), "{}", f.path);
        }
    }

    #[test]
    fn finds_a_quote_in_the_original_text() {
        let text = "Um  el Ban\u{0061}\u{0302}t,\n “the game”";
        let r = find(text, "el Banât, \"the").unwrap();
        assert_eq!(&text[r], "el Ban\u{0061}\u{0302}t,\n “the");
        assert_eq!(
            find(text, "game\""),
            Some(text.len() - "game”".len()..text.len())
        );
        assert_eq!(find(text, "dog"), None);
        assert_eq!(find(text, "  "), None);
    }

    #[test]
    fn prefix_reports_where_a_quote_breaks() {
        let hay = fold("the cat sat on the mat");
        assert_eq!(
            longest_matching_prefix(&hay, "the cat sat on a mat"),
            "the cat sat on"
        );
        assert_eq!(longest_matching_prefix(&hay, "cat sat"), "cat sat");
        assert_eq!(longest_matching_prefix(&hay, "dog"), "");
    }
}
