//! The command line: the only module that knows about argv, terminals and exit codes.
//!
//! Each subcommand loads the corpus (embedded, or `--corpus DIR`), asks the library for what
//! it needs, and renders it as a table (human text), JSON (a versioned, published contract) or
//! Markdown. Data goes to stdout; diagnostics go to stderr, except for `check`, whose
//! diagnostics are its output.

mod args;
mod progress;
pub mod units;

pub use args::{CiteStyle, Cli, Command, Games, Play, StoreAction};

use std::io::Write;
use std::path::PathBuf;

use crate::corpus::{self, Corpus, CorpusFiles, Diagnostic};

pub use crate::analysis::Error;
use crate::analysis::{diff, flags, play as run};
use crate::analysis::{game_of, interpretation_of};
use crate::exec;
pub use crate::present::{Format, Out};
use crate::present::{register, report, rulebook, show as render, site};

/// Runs a parsed command line. Returns the exit code for a completed run (0, or 1 when a
/// check found problems).
///
/// # Errors
/// Any [`Error`]; `main` prints it and exits 2.
pub fn run(cli: Cli) -> Result<i32, Error> {
    cli.color.write_global();
    let mut out = Out::new(cli.format, args::table_width(cli.width));
    check_format(&cli)?;
    match &cli.command {
        Command::Completions { shell } => {
            let corpus = load(&cli)?;
            let mut cmd = completion_definition(&corpus);
            let mut buf = Vec::new();
            clap_complete::generate(*shell, &mut cmd, "ludotrace", &mut buf);
            out.raw(&String::from_utf8_lossy(&buf));
            if *shell == clap_complete::Shell::Fish {
                out.raw(&fish_game_completions(&corpus));
            }
            out.flush()?;
            return Ok(0);
        }
        Command::Schema => {
            out.json(&crate::present::schema::schema());
            out.flush()?;
            return Ok(0);
        }
        Command::Store { action } => {
            store_command(&cli, &mut out, action.as_ref())?;
            out.flush()?;
            return Ok(0);
        }
        Command::Check => {
            let files = files(&cli)?;
            let mut loaded = corpus::load(&files);
            // A reading that loads must also play: its engine may refuse a combination of
            // parameters (a cap of 0 moves, a board too small for its pieces).
            if let Some(c) = &loaded.corpus {
                for g in &c.games {
                    for i in &g.interpretations {
                        if let Err(e) = crate::bind::bind(g, i, &serde_json::Map::new()) {
                            loaded.diagnostics.push(Diagnostic {
                                place: corpus::Place::file(&g.file),
                                code: "unplayable-reading",
                                message: format!("interpretation `{}` cannot be played: {e}", i.id),
                            });
                        }
                    }
                }
            }
            let code = crate::present::sources::check(&mut out, &loaded, cli.quiet);
            out.flush()?;
            return Ok(code);
        }
        _ => {}
    }
    let corpus = load(&cli)?;
    match &cli.command {
        Command::List => render::list(&mut out, &corpus),
        Command::Show {
            game,
            readings: true,
            ..
        } => {
            let g = game_of(&corpus, game)?;
            register::matrix(&mut out, &corpus, g);
        }
        Command::Point { id: Some(id), .. } => {
            let p = register::point_of(&corpus, id)?;
            register::point(&mut out, &corpus, p);
        }
        Command::Point { id: None, game } => {
            let g = match game {
                Some(g) => Some(game_of(&corpus, g)?),
                None => None,
            };
            register::points(&mut out, &corpus, g);
        }
        Command::Sources { id: Some(id) } if corpus.point(id).is_some() => {
            // A register id typed where a source was expected: the register is part of the
            // corpus, so show the point rather than refuse.
            if let Some(p) = corpus.point(id) {
                register::point(&mut out, &corpus, p);
            }
        }
        Command::Show {
            game,
            interpretation,
            ..
        } => {
            let g = game_of(&corpus, game)?;
            let i = match interpretation {
                Some(id) => Some(interpretation_of(g, id)?),
                None => None,
            };
            match i {
                // A reading in Markdown is a rule book to print, which names the corpus it
                // was made from.
                Some(i) if out.format == Format::Markdown => {
                    let hash = run::corpus_hash(&files(&cli)?);
                    rulebook::print(&mut out, &corpus, g, i, &hash, cli.corpus.as_deref());
                }
                _ => render::show(&mut out, &corpus, g, i),
            }
        }
        Command::Sources { id } => {
            crate::present::sources::sources(&mut out, &corpus, id.as_deref())?
        }
        Command::Collate { passage } => {
            let p = corpus
                .passages
                .get(passage)
                .ok_or_else(|| Error::UnknownPassage {
                    id: passage.clone(),
                    valid: corpus
                        .passages
                        .keys()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
            crate::present::sources::collate(&mut out, p);
        }
        Command::Cite {
            game,
            style,
            tool,
            csl,
        } => {
            if csl.is_some() && !matches!(style, CiteStyle::Text) {
                return Err(Error::Usage(
                    "--csl chooses how the text is rendered: it goes with --style text, not \
                     with bibtex or csl-json (which are data)"
                        .to_owned(),
                ));
            }
            let csl = crate::present::cite::csl_style(
                csl.as_deref().unwrap_or(crate::present::cite::DEFAULT_CSL),
            )
            .map_err(|e| Error::Usage(e.to_string()))?;
            let hash = run::corpus_hash(&files(&cli)?);
            let refs = match (game, tool) {
                (Some(g), false) => {
                    crate::present::cite::references(&corpus, game_of(&corpus, g)?, &hash)
                }
                (None, true) => vec![crate::present::cite::tool(&hash)],
                _ => {
                    return Err(Error::Usage(
                        "cite takes a game id (see `ludotrace list`) or --tool, one of the two"
                            .to_owned(),
                    ));
                }
            };
            out.raw(&match style {
                CiteStyle::Text => crate::present::cite::text(&refs, &csl),
                _ => crate::present::cite::render(&refs, (*style).into()),
            });
        }
        Command::Solve {
            game,
            interpretation,
            position,
            max_states,
            rate,
            positions,
            seed,
            threads,
            set,
        } => {
            let g = game_of(&corpus, game)?;
            let reading = reading_or_first(g, interpretation.as_deref());
            let rate = match rate {
                None => None,
                Some(list) => Some(
                    list.split(',')
                        .map(|a| a.parse::<crate::agents::Agent>())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| Error::Usage(format!("--rate: {e}")))?,
                ),
            };
            let args = crate::analysis::solve::SolveArgs {
                game: g.id.clone(),
                interpretation: reading,
                set: set.clone(),
                position: position.clone(),
                max_states: *max_states,
                rate,
                positions: *positions,
                seed: *seed,
                threads: *threads,
                corpus_hash: run::corpus_hash(&files(&cli)?),
            };
            let solved = crate::analysis::solve::solve(&corpus, &args)?;
            crate::present::solve::print(&mut out, &solved);
        }
        Command::Explain {
            game,
            interpretation,
            against,
            index,
            games,
            seed,
            max_plies,
            agents,
            swap,
            plies,
            position,
            set,
        } => {
            let g = game_of(&corpus, game)?;
            let reading = reading_or_first(g, interpretation.as_deref());
            let args = crate::analysis::explain::ExplainArgs {
                game: g.id.clone(),
                interpretation: reading,
                set: set.clone(),
                seed: *seed,
                index: *index,
                games: *games,
                lineup: crate::agents::Lineup::parse(agents, *swap)
                    .map_err(|e| Error::Usage(e.to_string()))?,
                max_plies: *max_plies,
                plies: *plies,
                against: against.clone(),
                position: position.clone(),
                corpus_hash: run::corpus_hash(&files(&cli)?),
            };
            let explained = crate::analysis::explain::explain(&corpus, &args)?;
            crate::present::explain::print(&mut out, &corpus, &explained);
        }
        Command::Run {
            shard: Some(shard), ..
        } => return units::shard(&cli, *shard),
        Command::Plan {
            units,
            out: file,
            command,
        } => return units::plan(&cli, *units, file.as_deref(), command),
        Command::Work {
            plan,
            unit,
            out: file,
            threads,
        } => return units::work(&cli, plan, *unit, file.as_deref(), *threads),
        Command::Merge { files } => return units::merge(&cli, files),
        Command::Run { .. }
        | Command::Diff { .. }
        | Command::Flags { .. }
        | Command::Ladder { .. }
        | Command::Assess { .. }
        | Command::Report { .. }
        | Command::Site { .. } => {
            let files = files(&cli)?;
            // A check computes every number afresh: it neither reads nor writes the store.
            let store = match &cli.command {
                Command::Report { check: true, .. } => None,
                _ => open_store(&cli)?,
            };
            let exec = exec::Exec::new(
                exec::Mode::Play,
                run::corpus_hash(&files),
                store,
                cli.store_games,
            );
            let code = play_command(&cli, &mut out, &corpus, &files, &exec)?;
            // A store that failed mid-run leaves the results whole (a block it could not
            // give back was played): print them, then report the failure.
            out.flush()?;
            exec.finish()?;
            if let Some(store) = exec.store()
                && !cli.quiet
            {
                let (had, played) = exec.counts();
                if had > 0 {
                    anstream::eprintln!(
                        "ludotrace: {had} of {} blocks of games taken from the results store {} \
                         (--no-store plays them all)",
                        had + played,
                        store.path().display()
                    );
                }
            }
            out.flush()?;
            return Ok(code);
        }
        Command::Replay {
            game,
            interpretation,
            file,
        } => {
            let report = crate::analysis::replay::replay(&corpus, game, interpretation, file)?;
            crate::present::replay::print(&mut out, &report, file);
            out.flush()?;
            // Exit 1 when a decision diverges: a check that found a problem.
            return Ok(if report.divergences == 0 { 0 } else { 1 });
        }
        Command::Check | Command::Schema | Command::Store { .. } | Command::Completions { .. } => {
            unreachable!("handled above")
        }
    }
    out.flush()?;
    Ok(0)
}

/// Runs a command that plays games (`run`, `diff`, `flags`, `report`, `site`) through `exec`,
/// rendering into `out` (not flushed): what a plain run, a plan's units and `merge` share.
/// Returns the exit code.
///
/// # Errors
/// The command's.
pub(super) fn play_command(
    cli: &Cli,
    out: &mut Out,
    corpus: &Corpus,
    files: &CorpusFiles,
    exec: &exec::Exec,
) -> Result<i32, Error> {
    match &cli.command {
        Command::Run {
            game,
            interpretation,
            all_interpretations,
            play,
            set,
            choose,
            each_option,
            shard: _,
        } => {
            choices_are_not_parameters(game_of(corpus, game)?, set)?;
            for note in run::alias_notes(game_of(corpus, game)?, choose) {
                anstream::eprintln!("ludotrace: note: {note}");
            }
            let Games::Count(games) = play.games else {
                return Err(Error::Usage(
                    "--games auto is diff's (it plays until the difference of the first \
                     mover's win rate is known to --precision); give run a number of games"
                        .to_owned(),
                ));
            };
            let args = run::RunArgs {
                game: game.clone(),
                interpretation: interpretation.clone(),
                all: *all_interpretations,
                games,
                lineup: play.lineup()?,
                seed: play.seed,
                max_plies: play.max_plies,
                max_quiet: play.max_quiet,
                set: set.clone(),
                choose: choose.clone(),
                each_option: *each_option,
                threads: play.threads,
                corpus: cli.corpus.clone(),
            };
            let bar = progress::bar(cli.quiet, true);
            let played = if out.format == Format::Csv {
                let mut rows = crate::present::run::CsvRows::new(out);
                run::run(exec, corpus, files, &args, &bar, Some(&mut rows))?
            } else {
                run::run(exec, corpus, files, &args, &bar, None)?
            };
            crate::present::run::print(out, &played, &args);
        }
        Command::Diff {
            game,
            a,
            b,
            against,
            play,
            set,
            set_a,
            set_b,
            precision,
        } => {
            let g = game_of(corpus, game)?;
            for list in [set, set_a, set_b] {
                choices_are_not_parameters(g, list)?;
            }
            let games = match (play.games, precision) {
                (Games::Count(n), None) => diff::DiffGames::Count(n),
                (Games::Auto, p) => diff::DiffGames::Auto {
                    precision: p.unwrap_or(diff::DEFAULT_PRECISION),
                },
                (Games::Count(_), Some(_)) => {
                    return Err(Error::Usage(
                        "--precision goes with --games auto (a number of games needs none)"
                            .to_owned(),
                    ));
                }
            };
            let args = diff::DiffArgs {
                game: game.clone(),
                a: against.clone().or_else(|| a.clone()).unwrap_or_default(),
                b: if against.is_some() { None } else { b.clone() },
                against: against.is_some(),
                games,
                lineup: play.lineup()?,
                seed: play.seed,
                max_plies: play.max_plies,
                max_quiet: play.max_quiet,
                set: set.clone(),
                set_a: set_a.clone(),
                set_b: set_b.clone(),
                threads: play.threads,
                corpus: cli.corpus.clone(),
            };
            let d = diff::diff(exec, corpus, files, &args, &progress::bar(cli.quiet, false))?;
            crate::present::diff::print(out, &d, &args);
        }
        Command::Flags {
            game,
            play,
            set,
            global,
            design,
            global_games,
        } => {
            let Games::Count(games) = play.games else {
                return Err(Error::Usage(
                    "--games auto is diff's; give flags a number of games".to_owned(),
                ));
            };
            let args = flags::FlagsArgs {
                game: game.clone(),
                games,
                seed: play.seed,
                max_plies: play.max_plies,
                max_quiet: play.max_quiet,
                lineup: play.lineup()?,
                set: set.clone(),
                threads: play.threads,
                corpus: cli.corpus.clone(),
                global: global.then_some(*design),
                global_games: *global_games,
            };
            let f = flags::flags(exec, corpus, files, &args, &progress::bar(cli.quiet, false))?;
            crate::present::flags::print(out, &f, &args);
        }
        Command::Ladder {
            game,
            interpretation,
            levels,
            all_pairs,
            games,
            seed,
            max_plies,
            threads,
        } => {
            let args = crate::analysis::ladder::LadderArgs {
                game: game.clone(),
                interpretation: interpretation.clone(),
                levels: levels.clone(),
                all_pairs: *all_pairs,
                games: *games,
                seed: *seed,
                max_plies: *max_plies,
                threads: *threads,
                corpus: cli.corpus.clone(),
            };
            let bar = progress::bar(cli.quiet, true);
            let l = crate::analysis::ladder::ladder(exec, corpus, files, &args, &bar)?;
            let name = &game_of(corpus, game)?.name;
            crate::present::ladder::print(out, &l, &args, name);
        }
        Command::Assess {
            game,
            interpretations,
            all_interpretations,
            agents,
            games,
            seed,
            max_plies,
            max_quiet,
            set,
            criteria,
            by_point,
            points,
            threads,
        } => {
            let criteria = match criteria {
                Some(path) => {
                    let shown = path.display().to_string();
                    let text = std::fs::read_to_string(path).map_err(|e| {
                        Error::Input(format!("{shown}: cannot read the criteria file: {e}"))
                    })?;
                    crate::analysis::assess::Criteria::parse(&shown, &text)?
                }
                None => crate::analysis::assess::Criteria::defaults(),
            };
            let args = crate::analysis::assess::AssessArgs {
                game: game.clone(),
                interpretations: interpretations.clone(),
                all: *all_interpretations,
                agents: agents.clone(),
                games: *games,
                seed: *seed,
                max_plies: *max_plies,
                max_quiet: *max_quiet,
                set: set.clone(),
                threads: *threads,
                criteria,
                by_point: *by_point,
                points: points.clone(),
                corpus: cli.corpus.clone(),
            };
            let bar = progress::bar(cli.quiet, true);
            let a = crate::analysis::assess::assess(exec, corpus, files, &args, &bar)?;
            let name = &game_of(corpus, game)?.name;
            crate::present::assess::print(out, &a, &args, name);
        }
        Command::Report {
            game,
            all: _,
            out: dir,
            games,
            check,
            threads,
        } => {
            let args = report::ReportArgs {
                game: game.clone(),
                out: dir.clone(),
                games: *games,
                check: *check,
                threads: *threads,
                corpus: cli.corpus.clone(),
            };
            let code = report::report(out, exec, corpus, files, &args)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Site {
            out: dir,
            games,
            reports,
            threads,
            force,
        } => {
            let args = site::SiteArgs {
                out: dir.clone(),
                games: *games,
                reports: reports.clone(),
                threads: *threads,
                force: *force,
                corpus: cli.corpus.clone(),
            };
            let code = site::site(out, exec, corpus, files, &args)?;
            out.flush()?;
            return Ok(code);
        }
        _ => unreachable!("play_command is called for the commands that play"),
    }
    Ok(0)
}

/// The results store's file: `--store`/`LUDOTRACE_STORE`, else the user's data directory's;
/// none with `--no-store` (or, with a warning, where no data directory is known).
fn store_path(cli: &Cli) -> Option<PathBuf> {
    if cli.no_store {
        return None;
    }
    // (Read here rather than by clap, so that an empty variable means unset.)
    let from_env = std::env::var_os("LUDOTRACE_STORE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let path = cli
        .store
        .clone()
        .or(from_env)
        .or_else(crate::exec::store::default_path);
    if path.is_none() && !cli.quiet {
        anstream::eprintln!(
            "ludotrace: warning: no data directory (neither XDG_DATA_HOME nor HOME is set): \
             results are not stored; give --store PATH to keep them"
        );
    }
    path
}

/// The results store a command that plays uses ([`store_path`]), which keeps with each run
/// the command that asked for it. A store it may not write is used read-only, and it says so
/// once.
///
/// # Errors
/// A store that cannot be opened.
pub(super) fn open_store(cli: &Cli) -> Result<Option<crate::exec::store::Store>, Error> {
    let Some(path) = store_path(cli) else {
        return Ok(None);
    };
    let store = crate::exec::store::Store::open(&path)
        .map_err(|e| Error::Usage(format!("{e} (--no-store runs without one)")))?;
    if store.read_only() && !cli.quiet {
        anstream::eprintln!(
            "ludotrace: note: the results store {} is read-only: the games it holds are taken \
             from it, and new results are not saved",
            path.display()
        );
    }
    let line = shell_words::join(
        std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned()),
    );
    Ok(Some(store.asked_by(command_name(&cli.command), line)))
}

/// `store`: what the store holds, its results exported, or pruned.
fn store_command(cli: &Cli, out: &mut Out, action: Option<&StoreAction>) -> Result<(), Error> {
    use crate::exec::housekeeping::{self as keep, PruneFilter};
    let Some(path) = store_path(cli) else {
        return Err(Error::Usage(
            "store: no results store is named (--no-store, or no data directory); give \
             --store PATH"
                .to_owned(),
        ));
    };
    if !path.exists() {
        if action.is_none() {
            out.para(&format!(
                "no results store at {} yet: the first command that plays games makes one",
                path.display()
            ));
            return Ok(());
        }
        return Err(Error::Usage(format!(
            "no results store at {}: the first command that plays games makes one",
            path.display()
        )));
    }
    let usage = |e: crate::exec::store::StoreError| Error::Usage(e.to_string());
    let store = crate::exec::store::Store::open(&path).map_err(usage)?;
    match action {
        None => crate::present::store::summary(out, &keep::summary(&store).map_err(usage)?),
        Some(StoreAction::Export) => {
            crate::present::store::export(out, &keep::export(&store).map_err(usage)?);
        }
        Some(StoreAction::Prune {
            older_than,
            command,
            game,
        }) => {
            if older_than.is_none() && command.is_none() && game.is_none() {
                return Err(Error::Usage(
                    "store prune: say what to prune: --older-than DAYS, --command NAME or \
                     --game GAME (runs that match every one given are removed)"
                        .to_owned(),
                ));
            }
            if let Some(g) = game
                && !crate::corpus::GAME_IDS.contains(&g.as_str())
            {
                return Err(Error::Usage(format!(
                    "store prune --game: `{g}` is not a game; the games are {}",
                    crate::corpus::GAME_IDS.join(", ")
                )));
            }
            let filter = PruneFilter {
                older_than_days: *older_than,
                command: command.clone(),
                game: game.clone(),
            };
            crate::present::store::prune(out, &keep::prune(&store, &filter).map_err(usage)?);
        }
    }
    Ok(())
}

/// The reading named, or the game's first (its primary source's) where none is.
fn reading_or_first(g: &crate::corpus::Game, named: Option<&str>) -> String {
    match named {
        Some(i) => i.to_owned(),
        None => g
            .interpretations
            .first()
            .map(|i| i.id.clone())
            .unwrap_or_default(),
    }
}

pub(super) fn command_name(c: &Command) -> &'static str {
    match c {
        Command::List => "list",
        Command::Show { .. } => "show",
        Command::Point { .. } => "point",
        Command::Sources { .. } => "sources",
        Command::Collate { .. } => "collate",
        Command::Cite { .. } => "cite",
        Command::Check => "check",
        Command::Run { .. } => "run",
        Command::Diff { .. } => "diff",
        Command::Ladder { .. } => "ladder",
        Command::Assess { .. } => "assess",
        Command::Flags { .. } => "flags",
        Command::Replay { .. } => "replay",
        Command::Explain { .. } => "explain",
        Command::Solve { .. } => "solve",
        Command::Report { .. } => "report",
        Command::Site { .. } => "site",
        Command::Plan { .. } => "plan",
        Command::Work { .. } => "work",
        Command::Merge { .. } => "merge",
        Command::Schema => "schema",
        Command::Store { .. } => "store",
        Command::Completions { .. } => "completions",
    }
}

/// The formats a command produces, and a word on the others where there is a better way.
fn formats(c: &Command) -> (&'static [Format], &'static str) {
    use Format::{Csv, Html, Json, Markdown, Table};
    match c {
        Command::List
        | Command::Show { .. }
        | Command::Point { .. }
        | Command::Sources { .. }
        | Command::Collate { .. } => (&[Table, Json, Markdown], ""),
        Command::Check => (&[Table, Json], ""),
        Command::Run {
            each_option: true, ..
        } => (
            &[Table, Json, Markdown],
            " (with --each-option, one row per option: csv is one row per game)",
        ),
        Command::Run { shard: Some(_), .. } => (
            &[Table, Json],
            " (with --shard it prints partial results as JSON, for `merge`)",
        ),
        Command::Run { .. } => (&[Table, Json, Markdown, Csv], ""),
        Command::Plan { .. } => (&[Table, Json], " (a plan is JSON)"),
        Command::Work { .. } => (&[Table], " (it writes partial results, JSON, to a file)"),
        Command::Merge { .. } => (
            &[Table, Json, Markdown],
            " (the merged command's formats; per-game csv rows are not in partial results)",
        ),
        Command::Diff { .. }
        | Command::Flags { .. }
        | Command::Ladder { .. }
        | Command::Assess { .. } => (&[Table, Json, Markdown], ""),
        Command::Replay { .. } => (&[Table, Json], ""),
        Command::Explain { .. } => (&[Table, Json, Markdown, Html], ""),
        Command::Solve { .. } => (&[Table, Json, Markdown], ""),
        Command::Report { .. } => (
            &[Table],
            " (it writes Markdown, HTML, SVG, BibTeX and CSL-JSON files)",
        ),
        Command::Site { .. } => (&[Table], " (it writes HTML pages)"),
        Command::Cite { .. } => (
            &[Table],
            "; --style chooses the citation format (bibtex, csl-json for JSON, text)",
        ),
        Command::Schema => (&[Json], " (it prints the JSON Schemas)"),
        Command::Store {
            action: Some(StoreAction::Export),
        } => (&[Csv, Json], " (export writes CSV, or JSON)"),
        Command::Store { .. } => (&[Table, Json], ""),
        Command::Completions { .. } => (&[], ": it prints a shell script and takes no --format"),
    }
}

/// Refuses a `--format` the command does not produce. The default (`table`) is refused only
/// where it was asked for: `schema` prints JSON and `completions` a script without being told.
fn check_format(cli: &Cli) -> Result<(), Error> {
    let (valid, note) = formats(&cli.command);
    if valid.contains(&cli.format) || (cli.format == Format::Table && !cli.format_given) {
        return Ok(());
    }
    let name = |f: &Format| match f {
        Format::Table => "table",
        Format::Json => "json",
        Format::Markdown => "markdown",
        Format::Csv => "csv",
        Format::Html => "html",
    };
    let format = name(&cli.format);
    let valid = if valid.is_empty() {
        note.trim_start_matches(": ").to_owned()
    } else {
        format!(
            "its formats are: {}{note}",
            valid.iter().map(name).collect::<Vec<_>>().join(", ")
        )
    };
    Err(Error::FormatNotProduced {
        command: command_name(&cli.command),
        format,
        valid,
    })
}

/// The command line's definition for a completion script: the same arguments, with the ids
/// of the corpus (the built-in one, or `--corpus`) as the values a shell offers for a game,
/// a reading (of any game: a static script cannot know which game was typed) and a `--set`
/// parameter. Only the script sees these lists; parsing stays as lenient as `game_of`.
fn completion_definition(corpus: &Corpus) -> clap::Command {
    use clap::builder::PossibleValuesParser;
    let games: Vec<String> = corpus.games.iter().map(|g| g.id.clone()).collect();
    let mut readings: Vec<String> = Vec::new();
    let mut params: Vec<String> = Vec::new();
    for g in &corpus.games {
        for i in &g.interpretations {
            if !readings.contains(&i.id) {
                readings.push(i.id.clone());
            }
        }
        for p in g.family.params() {
            let set = format!("{}=", p.name);
            if !params.contains(&set) {
                params.push(set);
            }
        }
    }
    let with = |cmd: clap::Command, arg: &str, values: &[String]| {
        let values = values.to_vec();
        cmd.mut_arg(arg, |a| a.value_parser(PossibleValuesParser::new(values)))
    };
    let mut def = Cli::definition();
    for sub in ["show", "cite", "run", "replay"] {
        def = def.mut_subcommand(sub, |c| {
            let c = with(c, "game", &games);
            if sub == "cite" {
                c
            } else if sub == "run" {
                with(with(c, "interpretation", &readings), "set", &params)
            } else {
                with(c, "interpretation", &readings)
            }
        });
    }
    def
}

/// clap's fish script offers no values for positional arguments, so the game of each command
/// that takes one is added here, in the script's own idiom.
fn fish_game_completions(corpus: &Corpus) -> String {
    let games: Vec<&str> = corpus.games.iter().map(|g| g.id.as_str()).collect();
    ["show", "cite", "run", "replay"]
        .iter()
        .map(|sub| {
            // `replay` takes a trace file after the game: keep fish's file completion there.
            let no_files = if *sub == "replay" { "" } else { " -f" };
            format!(
                "complete -c ludotrace -n \"__fish_ludotrace_using_subcommand {sub}\"{no_files} -a \"{}\"\n",
                games.join(" ")
            )
        })
        .collect()
}

pub(super) fn files(cli: &Cli) -> Result<CorpusFiles, Error> {
    Ok(match &cli.corpus {
        Some(dir) if cli.corpus_from_env => CorpusFiles::read_dir(dir).map_err(Error::EnvFiles)?,
        Some(dir) => CorpusFiles::read_dir(dir)?,
        None => CorpusFiles::embedded(),
    })
}

pub(super) fn load(cli: &Cli) -> Result<Corpus, Error> {
    let files = files(cli)?;
    let loaded = corpus::load(&files);
    match loaded.corpus {
        Some(c) => Ok(c),
        None => {
            let mut err = anstream::stderr();
            for d in &loaded.diagnostics {
                let _ = writeln!(err, "{d}");
            }
            let origin = match &cli.corpus {
                Some(dir) if cli.corpus_from_env => {
                    format!(" in {}, named by LUDOTRACE_CORPUS,", dir.display())
                }
                _ => String::new(),
            };
            Err(Error::Corpus {
                problems: loaded.diagnostics,
                origin,
            })
        }
    }
}

/// `--set CHOICE=…` names an open point of the ruleset, not an engine parameter: say which
/// parameters its options set and how to take one, rather than "unknown parameter".
fn choices_are_not_parameters(g: &corpus::Game, set: &[String]) -> Result<(), Error> {
    let overrides = crate::bind::parse_overrides(set)?;
    for (name, value) in &overrides {
        if g.family.params().iter().any(|p| p.name == name) {
            continue;
        }
        let Some(choice) = g
            .choices
            .iter()
            .find(|c| corpus::fold_name(&c.id) == corpus::fold_name(name))
        else {
            continue;
        };
        let mut params: Vec<&str> = Vec::new();
        for o in &choice.options {
            for (p, _) in &o.sets {
                if !params.contains(&p.as_str()) {
                    params.push(p);
                }
            }
        }
        let sets = |o: &corpus::ChoiceOption| {
            o.sets
                .iter()
                .map(|(p, v)| format!("--set {p}={}", set_text(v)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let asked = value
            .as_str()
            .and_then(|v| choice.options.iter().find(|o| o.id.eq_ignore_ascii_case(v)));
        let how = match asked {
            Some(o) => format!(
                "To play its option `{}`, write --choose {}={} (or {})",
                o.id,
                choice.id,
                o.id,
                sets(o)
            ),
            None => format!(
                "Switch one in with --choose {}=OPTION; its options are: {}",
                choice.id,
                choice
                    .options
                    .iter()
                    .map(|o| format!("`{}` ({})", o.id, sets(o)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        return Err(Error::Usage(format!(
            "--set {name}: `{}` is a choice, not a parameter; it sets {}. {how}; or pick a reading that takes the option you want (`ludotrace show {}` marks each reading's options with -i)",
            choice.id,
            params
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
            g.id
        )));
    }
    Ok(())
}

/// A parameter value as `--set` takes it: a bare word for a string, JSON otherwise.
fn set_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}
