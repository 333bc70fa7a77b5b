//! The list of every published format, as `ludotrace schema` prints it: the corpus files'
//! schemas, each engine family's `sets:` block, every command's JSON output, the units'
//! files and the results store's SQL. The one place that names them all, so that no printer
//! needs another's types.
//!
//! **Architecture Invariant:** every JSON output and file format is versioned
//! (`schema_version`, or a format name and `version`) and listed here; a field is only ever
//! added under one version (`tests/schema_contract.rs` checks every command's output
//! against the schema listed here).

use serde_json::Value;

use crate::analysis::OUTPUT_SCHEMA_VERSION;
use crate::corpus;
use crate::family::Family;
use crate::present::register::{PointOutput, PointsOutput, ReadingsOutput};
use crate::present::show::{ListOutput, ShowOutput};
use crate::present::sources::{CheckOutput, CollateOutput, SourcesOutput};

/// The schema of an output format: how the type is serialized (schemars' default describes
/// how it is deserialized, which would make every field required, even one that is absent
/// when empty).
fn output_schema<T: schemars::JsonSchema>() -> schemars::Schema {
    schemars::generate::SchemaSettings::default()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}

/// The JSON Schemas of every published format.
pub fn schema() -> Value {
    let mut formats = serde_json::Map::new();
    let mut put = |name: &str, s: schemars::Schema| {
        formats.insert(name.to_owned(), s.to_value());
    };
    for (name, schema) in corpus::schemas() {
        put(&format!("{name}-file"), schema);
    }
    for f in Family::ALL {
        put(&format!("ruleset-sets/{}", f.id()), f.sets_schema());
    }
    put("output/list", output_schema::<ListOutput>());
    put("output/show", output_schema::<ShowOutput>());
    put("output/sources", output_schema::<SourcesOutput>());
    put("output/show-readings", output_schema::<ReadingsOutput>());
    put("output/point", output_schema::<PointOutput>());
    put("output/points", output_schema::<PointsOutput>());
    put("output/collate", output_schema::<CollateOutput>());
    put("output/check", output_schema::<CheckOutput>());
    put(
        "output/run",
        output_schema::<crate::analysis::play::RunOutput>(),
    );
    put(
        "output/diff",
        output_schema::<crate::analysis::diff::DiffOutput>(),
    );
    put(
        "output/diff-against",
        output_schema::<crate::analysis::diff::DiffAgainstOutput>(),
    );
    put(
        "output/flags",
        output_schema::<crate::analysis::flags::FlagsOutput>(),
    );
    put(
        "output/flags-all",
        output_schema::<crate::analysis::flags::FlagsAllOutput>(),
    );
    put(
        "output/run-all",
        output_schema::<crate::analysis::play::RunAllOutput>(),
    );
    put(
        "output/ladder",
        output_schema::<crate::analysis::ladder::Ladder>(),
    );
    put(
        "output/assess",
        output_schema::<crate::analysis::assess::Assessment>(),
    );
    put(
        "output/explain",
        output_schema::<crate::analysis::explain::ExplainOutput>(),
    );
    put(
        "output/solve",
        output_schema::<crate::analysis::solve::SolveOutput>(),
    );
    put(
        "output/replay",
        output_schema::<crate::ludii::replay::Report>(),
    );
    put(
        "output/store",
        output_schema::<crate::exec::housekeeping::StoreSummary>(),
    );
    put(
        "output/store-export",
        output_schema::<crate::exec::housekeeping::StoreExport>(),
    );
    put(
        "output/store-prune",
        output_schema::<crate::exec::housekeeping::PruneReport>(),
    );
    put(
        "units/plan",
        output_schema::<crate::exec::units::PlanFile>(),
    );
    put(
        "units/partial",
        output_schema::<crate::exec::units::PartialFile>(),
    );
    serde_json::json!({
        "schema_version": OUTPUT_SCHEMA_VERSION,
        "formats": formats,
        "store": {
            "schema_version": crate::exec::store::STORE_SCHEMA_VERSION,
            "description": "The results store (SQLite): a task's key once in `tasks`, one \
                row per range of consecutive games of a task in `blocks`, one per game in \
                `games` with --store-games, the ranges commands asked for in `runs` (linked \
                to their rows by `run_blocks`), the view `results` summing each run's rows. \
                Columns are only ever added under one schema_version (meta.schema_version).",
            "sql": crate::exec::store::SCHEMA,
        },
        "units": {
            "version": crate::exec::units::UNITS_VERSION,
            "description": "`ludotrace plan` writes units/plan (format ludotrace-plan); \
                `work` and `run --shard` write units/partial (format ludotrace-partial); \
                fields are only ever added under one version.",
        },
    })
}
