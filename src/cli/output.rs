//! Buffered output with styles, tables and JSON, honouring `--format` and `--color`.

use std::io::Write;

use anstyle::{AnsiColor, Style};
use comfy_table::{ContentArrangement, Table};

use super::Format;

/// Styles used in text output.
pub mod style {
    use super::*;
    /// Headings.
    pub const HEAD: Style = Style::new().bold();
    /// Ids.
    pub const ID: Style = AnsiColor::Cyan.on_default();
    /// Quotes of sources.
    pub const QUOTE: Style = AnsiColor::Green.on_default();
    /// Chosen options.
    pub const CHOSEN: Style = AnsiColor::Yellow.on_default().bold();
    /// Secondary text.
    pub const DIM: Style = Style::new().dimmed();
    /// Problems.
    pub const ERR: Style = AnsiColor::Red.on_default().bold();
}

/// The output buffer of one command.
pub struct Out {
    /// Requested format.
    pub format: Format,
    buf: String,
}

impl Out {
    /// A new buffer.
    pub fn new(format: Format) -> Self {
        Out {
            format,
            buf: String::new(),
        }
    }

    /// Appends text as is.
    pub fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    /// Appends a line.
    pub fn line(&mut self, s: &str) {
        self.buf.push_str(s);
        self.buf.push('\n');
    }

    /// Appends styled text (the style is removed later when colour is off).
    pub fn styled(&mut self, st: Style, s: &str) {
        self.buf.push_str(&format!("{st}{s}{st:#}"));
    }

    /// Appends pretty JSON.
    pub fn json<T: serde::Serialize>(&mut self, v: &T) {
        self.buf
            .push_str(&serde_json::to_string_pretty(v).expect("output types serialise"));
        self.buf.push('\n');
    }

    /// Appends a table: text in table format, GitHub Markdown otherwise.
    pub fn table(&mut self, header: &[&str], rows: Vec<Vec<String>>) {
        if self.format == Format::Markdown {
            self.line(&format!("| {} |", header.join(" | ")));
            self.line(&format!(
                "|{}|",
                header.iter().map(|_| "---").collect::<Vec<_>>().join("|")
            ));
            for r in rows {
                let cells: Vec<String> = r
                    .iter()
                    .map(|c| c.replace('|', "\\|").replace('\n', " "))
                    .collect();
                self.line(&format!("| {} |", cells.join(" | ")));
            }
            return;
        }
        let mut t = Table::new();
        t.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
        if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
            t.set_content_arrangement(ContentArrangement::Dynamic);
        } else {
            // Off a terminal nothing is wrapped, so that pipes and files get whole lines.
            t.force_no_tty();
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
        t.set_header(header.to_vec());
        for r in rows {
            t.add_row(r);
        }
        self.line(&t.to_string());
    }

    /// Writes the buffer to stdout (through anstream, which strips styles when colour is
    /// off). A closed pipe (`| head`) is not an error.
    pub fn flush(&mut self) -> std::io::Result<()> {
        let mut stdout = anstream::stdout().lock();
        let r = stdout
            .write_all(self.buf.as_bytes())
            .and_then(|_| stdout.flush());
        self.buf.clear();
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r,
        }
    }
}
