//! The one HTML escaper of the reports and the site.
//!
//! Every attribute this crate writes is quoted with `"`, so escaping `&`, `<`, `>` and `"`
//! makes any text safe in content and in attribute values alike; an apostrophe (as in
//! "Li'b") is left as it is, as the committed reports have it.

/// `s` escaped for HTML (and SVG) content and double-quoted attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_and_quotes_are_escaped_and_apostrophes_kept() {
        assert_eq!(
            escape(r#"<a href="x">Li'b & co</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Li'b &amp; co&lt;/a&gt;"
        );
    }
}
