//! The corpus as a set of files: embedded in the binary, or read from a directory.
//!
//! Paths are relative to the corpus root and use `/`. Only this module touches the file
//! system for the corpus; everything else works on [`CorpusFiles`].

use std::fs;
use std::path::{Path, PathBuf};

/// Files larger than this are refused before parsing: no corpus file comes near it, and a
/// hostile one should not cost memory.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_corpus.rs"));
}

/// Where the files came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary.
    Embedded,
    /// A working copy on disk.
    Directory(PathBuf),
}

/// One file: its relative path and content, or why it could not be read.
#[derive(Debug, Clone)]
pub struct CorpusFile {
    /// Path relative to the corpus root.
    pub path: String,
    /// The text, or a message saying why it is unusable.
    pub content: Result<String, String>,
}

/// All files of a corpus.
#[derive(Debug, Clone)]
pub struct CorpusFiles {
    /// Where they came from.
    pub origin: Origin,
    /// YAML files and witness documents, sorted by path.
    pub files: Vec<CorpusFile>,
}

/// Why a corpus directory could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// The directory is missing.
    #[error("corpus directory {0} not found: expected a directory holding sources/ and rulesets/")]
    NotADirectory(PathBuf),
    /// The path names a file (a ruleset, say) rather than the corpus directory.
    #[error(
        "{0} is a file, not a directory: expected the corpus directory holding sources/ and rulesets/ (the directory above rulesets/, not a ruleset)"
    )]
    IsAFile(PathBuf),
    /// Neither sources/ nor rulesets/ exists in it.
    #[error("{0} is not a corpus: expected a sources/ or rulesets/ directory in it")]
    NotACorpus(PathBuf),
    /// An I/O failure while listing.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
}

impl CorpusFiles {
    /// The corpus built into the binary.
    pub fn embedded() -> Self {
        let files = embedded::FILES
            .iter()
            .map(|(path, text)| CorpusFile {
                path: (*path).to_owned(),
                content: Ok((*text).to_owned()),
            })
            .collect();
        CorpusFiles {
            origin: Origin::Embedded,
            files,
        }
    }

    /// Reads a working copy: every file under `sources/` and `rulesets/`.
    ///
    /// # Errors
    /// When the directory is missing, holds neither subdirectory, or cannot be listed.
    /// Unreadable or oversized single files are kept as entries with an error, so that the
    /// loader reports them with the other problems.
    pub fn read_dir(root: &Path) -> Result<Self, FilesError> {
        if root.is_file() {
            return Err(FilesError::IsAFile(root.to_owned()));
        }
        if !root.is_dir() {
            return Err(FilesError::NotADirectory(root.to_owned()));
        }
        let mut files = Vec::new();
        let mut any = false;
        for sub in ["sources", "rulesets"] {
            let dir = root.join(sub);
            if dir.is_dir() {
                any = true;
                collect(&dir, sub, &mut files)?;
            }
        }
        if !any {
            return Err(FilesError::NotACorpus(root.to_owned()));
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(CorpusFiles {
            origin: Origin::Directory(root.to_owned()),
            files,
        })
    }

    /// Looks a file up by relative path.
    pub fn get(&self, path: &str) -> Option<&CorpusFile> {
        self.files.iter().find(|f| f.path == path)
    }
}

fn collect(dir: &Path, rel: &str, out: &mut Vec<CorpusFile>) -> Result<(), FilesError> {
    let io = |source| FilesError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut entries: Vec<_> = fs::read_dir(dir)
        .map_err(io)?
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let rel_path = format!("{rel}/{name}");
        if path.is_dir() {
            collect(&path, &rel_path, out)?;
            continue;
        }
        let content = match fs::metadata(&path) {
            Ok(meta) if meta.len() > MAX_FILE_BYTES => Err(format!(
                "file is {} bytes; corpus files must be at most {MAX_FILE_BYTES} bytes",
                meta.len()
            )),
            Ok(_) => fs::read(&path)
                .map_err(|e| format!("cannot read: {e}"))
                .and_then(|bytes| {
                    String::from_utf8(bytes).map_err(|e| {
                        format!(
                            "not UTF-8 text (invalid byte at offset {})",
                            e.utf8_error().valid_up_to()
                        )
                    })
                }),
            Err(e) => Err(format!("cannot read: {e}")),
        };
        out.push(CorpusFile {
            path: rel_path,
            content,
        });
    }
    Ok(())
}
