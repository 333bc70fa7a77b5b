//! The `perfect` agent's tables for the commands that seat it: each reading solved once per
//! process ([`table_for`]), a command's refusal where a reading is not solved
//! ([`check_perfect`], with `solve`'s reason), and the lineup handed to the playouts with its
//! table ([`seated`]).
//!
//! This sits apart from the `solve` command's module so that the one place that plays a
//! reading's games (`play`) can seat `perfect` without importing a command.

use crate::analysis::Error;
use crate::bind;
use crate::games::Rules;
use crate::registry::{EngineVisitor, GameFamily};
use crate::solve::DEFAULT_MAX_STATES;

/// The readings solved for the `perfect` agent in this process, by engine, parameter values
/// and start: a table is a function of these alone, so a command that plays a reading in
/// several arms, rounds or games solves it once.
type Solved_ =
    std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<crate::solve::Table>>>;
static SOLVED: std::sync::LazyLock<Solved_> = std::sync::LazyLock::new(Default::default);

/// The reading of `rules` (bound with `values`) solved from `from` (or its start), for the
/// `perfect` agent: from this process's tables where it was solved before.
///
/// # Errors
/// Why the reading is not solved: [`crate::games::Rules::position_decides`]'s reason, or a
/// [`crate::solve::SolveError`] (chance after the start, more than [`DEFAULT_MAX_STATES`] positions).
pub(crate) fn table_for<R: Rules>(
    rules: &R,
    values: &serde_json::Map<String, serde_json::Value>,
    from: Option<&R::State>,
) -> Result<std::sync::Arc<crate::solve::Table>, String> {
    rules.position_decides()?;
    let start = from.cloned().unwrap_or_else(|| rules.initial());
    let id = format!(
        "{} {} {}",
        std::any::type_name::<R>(),
        serde_json::Value::Object(values.clone()),
        crate::solve::key(rules, &start)
    );
    if let Some(t) = SOLVED.lock().expect("solved tables").get(&id) {
        return Ok(t.clone());
    }
    let table = std::sync::Arc::new(
        crate::solve::Table::from(rules, &start, DEFAULT_MAX_STATES).map_err(|e| e.to_string())?,
    );
    SOLVED
        .lock()
        .expect("solved tables")
        .insert(id, table.clone());
    Ok(table)
}

/// `lineup` ready to play `rules`: with the reading solved where it seats `perfect`.
///
/// # Panics
/// If the reading cannot be solved: every command asks [`check_perfect`] first.
pub(crate) fn seated<'a, R: Rules>(
    lineup: &'a crate::agents::Lineup,
    rules: &R,
    values: &serde_json::Map<String, serde_json::Value>,
    from: Option<&R::State>,
) -> std::borrow::Cow<'a, crate::agents::Lineup> {
    if !lineup.names_perfect() {
        return std::borrow::Cow::Borrowed(lineup);
    }
    let table = table_for(rules, values, from)
        .expect("the command checked that the reading is solved (check_perfect)");
    std::borrow::Cow::Owned(lineup.with_table(table))
}

/// Refuses `perfect` where the reading (from `position`, where one is given and reads) is not
/// solved, with the reason; solves it otherwise, for the games to come.
///
/// # Errors
/// A usage error naming the reading and why `solve` cannot solve it.
pub(crate) fn check_perfect(
    lineup: &crate::agents::Lineup,
    bound: &bind::Bound,
    reading: &str,
    position: Option<&str>,
) -> Result<(), Error> {
    if !lineup.names_perfect() {
        return Ok(());
    }
    bound
        .engine
        .visit(CheckPerfect {
            values: &bound.values,
            position,
        })
        .map_err(|why| {
            Error::Usage(format!(
                "--agents perfect plays best play from the reading solved, and {reading} is \
                 not solved: {why}"
            ))
        })
}

/// Solves a reading for `perfect`, from a position where one is given.
struct CheckPerfect<'a> {
    values: &'a serde_json::Map<String, serde_json::Value>,
    position: Option<&'a str>,
}

impl EngineVisitor for CheckPerfect<'_> {
    type Output = Result<(), String>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
        // A position that does not read is the command's to report, in its own words.
        let from = self.position.and_then(|p| rules.parse_position(p).ok());
        table_for(rules, self.values, from.as_ref()).map(|_| ())
    }
}
