//! Text comparison for quotes and witnesses.
//!
//! A quote matches a passage when it occurs in it after Unicode NFC, folding every run of
//! whitespace to one space, and treating straight and curly quotation marks as equal. Nothing
//! else is forgiven: spelling, typos and punctuation must be exactly the source's, because the
//! point of a quote is that it is the source's words.

use unicode_normalization::UnicodeNormalization;

/// Normalises text for comparison (see the module docs).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
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
