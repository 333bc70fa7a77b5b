//! Helpers the test modules share: the repository root, the binary in a quiet environment,
//! a copy of the small test corpus, and running a command for its exit code and output.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `ludotrace` binary with a quiet, colourless environment and a results store of its
/// own: a new file for every command, so that no test reads another's results (a rerun that
/// took its blocks from the store would prove nothing) and none touches the user's store.
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ludotrace"));
    cmd.env("NO_COLOR", "1")
        .env("LUDOTRACE_STORE", fresh_store())
        .env_remove("XDG_DATA_HOME")
        .env_remove("LUDOTRACE_CORPUS")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

/// A path for a results store no command has used, under cargo's scratch directory for
/// tests (the stores of an earlier run of the tests are removed by the next).
pub fn fresh_store() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = DIR.get_or_init(|| {
        let all = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stores");
        let _ = std::fs::remove_dir_all(&all);
        let dir = all.join(std::process::id().to_string());
        std::fs::create_dir_all(&dir).unwrap();
        dir
    });
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    dir.join(format!("store-{n}.sqlite"))
}

/// Copies a directory tree.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A temporary copy of the small valid test corpus.
pub fn mini_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("tests/fixtures/mini"), dir.path());
    dir
}

/// Runs a command and returns (exit code, stdout, stderr).
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `ludotrace ARGS`, which must succeed, and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let (exit, out, err) = run(bin().args(args));
    assert_eq!(exit, 0, "ludotrace {args:?}: {err}");
    out
}

/// Runs `ludotrace ARGS`, which must fail as a usage or input error (exit 2, nothing on
/// stdout, no panic), and returns its stderr.
pub fn fails(args: &[&str]) -> String {
    let (exit, out, err) = run(bin().args(args));
    assert_eq!(exit, 2, "ludotrace {args:?} should fail with 2: {out}{err}");
    assert!(out.is_empty(), "nothing on stdout: {out}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Runs `ludotrace ARGS`, which must succeed with JSON on stdout, and parses it.
pub fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// Plays `games` seeded random games of `rules` for up to `plies` decisions each, checking
/// after every move that the counters (board, takings, hand, out of play) still number
/// `total`.
pub fn random_play_conserves(
    rules: &ludotrace::games::sowing::Sowing,
    total: u32,
    games: u64,
    plies: usize,
) {
    use ludotrace::games::{Rules, Status};
    use rand::{RngExt, SeedableRng};
    for seed in 0..games {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
        let mut s = rules.initial();
        let mut moves = Vec::new();
        for _ in 0..plies {
            if rules.status(&s) == Status::Over {
                break;
            }
            rules.legal_moves(&s, &mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            rules.play(&mut s, mv, &mut Vec::new()).unwrap();
            assert_eq!(s.total(), total, "seed {seed}");
        }
    }
}

/// Compares `text` with the committed golden file at `path`, or (with `LUDOTRACE_BLESS` set)
/// writes it there. Returns what is wrong: a missing file, or a unified diff, with how to
/// regenerate (`bless`, the `cargo test` filter to run blessed).
pub fn golden(path: &Path, text: &str, bless: &str) -> Option<String> {
    if std::env::var_os("LUDOTRACE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        return None;
    }
    match std::fs::read_to_string(path) {
        Err(_) => Some(format!(
            "{}: missing; run LUDOTRACE_BLESS=1 cargo test --locked {bless}",
            path.display()
        )),
        Ok(committed) if committed != text => {
            let diff = similar::TextDiff::from_lines(&committed, text)
                .unified_diff()
                .context_radius(2)
                .header("committed", "regenerated")
                .to_string();
            Some(format!(
                "{} changed (regenerate with LUDOTRACE_BLESS=1 cargo test --locked {bless} if \
                 intended):\n{diff}",
                path.display()
            ))
        }
        Ok(_) => None,
    }
}

/// Every reading of the built-in corpus, as (game, reading).
pub fn readings() -> Vec<(String, String)> {
    let corpus = ludotrace::corpus::load(&ludotrace::corpus::CorpusFiles::embedded())
        .corpus
        .expect("corpus loads");
    corpus
        .games
        .iter()
        .flat_map(|g| {
            g.interpretations
                .iter()
                .map(|i| (g.id.clone(), i.id.clone()))
        })
        .collect()
}

/// Binds `game`/`reading` from the built-in corpus and hands its engine to `visitor`.
pub fn with_engine<V: ludotrace::registry::EngineVisitor>(
    game: &str,
    reading: &str,
    visitor: V,
) -> V::Output {
    let corpus = ludotrace::corpus::load(&ludotrace::corpus::CorpusFiles::embedded())
        .corpus
        .expect("corpus loads");
    let g = corpus.game(game).expect("game");
    let interp = g.interpretation(reading).expect("reading");
    let bound = ludotrace::bind::bind(g, interp, &serde_json::Map::new()).expect("binds");
    bound.engine.visit(visitor)
}
