//! Every published JSON output conforms to the schema `ludotrace schema` publishes for it:
//! each required property present, each value of the type the schema says, recursively
//! (objects, arrays, maps, `anyOf`/`oneOf` alternatives, `$ref`s). A small checker of the
//! parts of JSON Schema the schemas use, so that a field that is absent when empty but
//! published as required (or the reverse) fails here.

use serde_json::Value;

use crate::util::json;

/// The schema a `$ref` names (`#/$defs/Name`), or the schema itself.
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.rsplit('/').next().unwrap();
            resolve(root, &root["$defs"][name])
        }
        None => schema,
    }
}

/// The places where `value` breaks `schema`, as JSON pointers with what is wrong.
fn check(root: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let schema = resolve(root, schema);
    if schema == &Value::Bool(true) {
        return;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = schema.get(key).and_then(Value::as_array) {
            let fits = alts.iter().any(|alt| {
                let mut e = Vec::new();
                check(root, alt, value, at, &mut e);
                e.is_empty()
            });
            if !fits {
                errors.push(format!(
                    "{at}: fits none of its {key} alternatives: {value}"
                ));
            }
            return;
        }
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for s in all {
            check(root, s, value, at, errors);
        }
    }
    if let Some(c) = schema.get("const")
        && c != value
    {
        errors.push(format!("{at}: {value} is not the constant {c}"));
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array)
        && !e.contains(value)
    {
        errors.push(format!("{at}: {value} is none of {e:?}"));
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !types.is_empty() {
        let ok = types.iter().any(|t| match *t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_u64() || value.is_i64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => true,
        });
        if !ok {
            errors.push(format!("{at}: {value} is not of type {types:?}"));
            return;
        }
    }
    if let Value::Object(map) = value {
        if let Some(req) = schema.get("required").and_then(Value::as_array) {
            for r in req.iter().filter_map(Value::as_str) {
                if !map.contains_key(r) {
                    errors.push(format!("{at}: required property `{r}` is absent"));
                }
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, v) in map {
            let sub = props
                .and_then(|p| p.get(k))
                .or(schema.get("additionalProperties"));
            match sub {
                Some(Value::Bool(false)) => {
                    errors.push(format!("{at}: property `{k}` is not allowed"))
                }
                Some(s) => check(root, s, v, &format!("{at}/{k}"), errors),
                None => {}
            }
        }
    }
    if let (Value::Array(items), Some(s)) = (value, schema.get("items")) {
        for (i, v) in items.iter().enumerate() {
            check(root, s, v, &format!("{at}/{i}"), errors);
        }
    }
}

/// `args`' JSON conforms to the published schema `format`.
fn conforms(format: &str, args: &[&str]) {
    let schemas = json(&["schema"]);
    let schema = &schemas["formats"][format];
    assert!(schema.is_object(), "no schema {format}");
    let value = json(args);
    let mut errors = Vec::new();
    check(schema, schema, &value, "", &mut errors);
    assert!(
        errors.is_empty(),
        "{args:?} against {format}:\n{}",
        errors.join("\n")
    );
}

/// The checker can fail: a run's JSON is not a diff's, and a required field removed or a
/// value of the wrong type is found.
#[test]
fn the_checker_finds_what_does_not_conform() {
    let schemas = json(&["schema"]);
    let diff = &schemas["formats"]["output/diff"];
    let run = &schemas["formats"]["output/run"];
    let mut value = json(&["run", "um-el-bagara", "-n", "5", "--format", "json"]);
    let mut errors = Vec::new();
    check(diff, diff, &value, "", &mut errors);
    assert!(
        errors.iter().any(|e| e.contains("`metrics` is absent")),
        "{errors:?}"
    );
    value.as_object_mut().unwrap().remove("seed");
    value["games"] = Value::String("five".into());
    let mut errors = Vec::new();
    check(run, run, &value, "", &mut errors);
    assert!(
        errors.iter().any(|e| e.contains("`seed` is absent")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.starts_with("/games:")),
        "{errors:?}"
    );
}

#[test]
fn every_json_output_conforms_to_its_published_schema() {
    conforms("output/list", &["list", "--format", "json"]);
    conforms(
        "output/show",
        &["show", "um-el-banat", "-i", "davies", "--format", "json"],
    );
    conforms(
        "output/show-readings",
        &["show", "seega", "--readings", "--format", "json"],
    );
    conforms("output/point", &["point", "UB-18", "--format", "json"]);
    conforms("output/points", &["point", "--format", "json"]);
    conforms("output/sources", &["sources", "--format", "json"]);
    conforms(
        "output/collate",
        &["collate", "davies-1925#um-el-bagara", "--format", "json"],
    );
    conforms("output/check", &["check", "--format", "json"]);
    conforms(
        "units/plan",
        &["plan", "--units", "3", "run", "um-el-bagara", "-n", "20"],
    );
    conforms(
        "units/partial",
        &[
            "run",
            "lib-el-merafib",
            "-n",
            "20",
            "--agents",
            "greedy,random",
            "--shard",
            "1/2",
        ],
    );
    // A run without and with the optional parts: one agent, several, swapped, ranked.
    conforms(
        "output/run",
        &[
            "run",
            "um-el-bagara",
            "-i",
            "davies",
            "-n",
            "20",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/run",
        &[
            "run",
            "lib-el-merafib",
            "-i",
            "davies",
            "-n",
            "20",
            "--agents",
            "greedy,random",
            "--swap",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/run",
        &[
            "run",
            "um-el-bagara",
            "-i",
            "davies",
            "-n",
            "20",
            "--choose",
            "starter=first-seat",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/ladder",
        &[
            "ladder",
            "um-el-tuweisat",
            "--levels",
            "random,greedy,weak",
            "--all-pairs",
            "-n",
            "4",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/assess",
        &[
            "assess",
            "lib-el-merafib",
            "--all-interpretations",
            "--agents",
            "random,greedy",
            "-n",
            "6",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/run-all",
        &[
            "run",
            "seega",
            "--all-interpretations",
            "-n",
            "10",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/run-all",
        &[
            "run",
            "um-el-bagara",
            "--each-option",
            "-n",
            "10",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/diff",
        &[
            "diff",
            "um-el-bagara",
            "davies",
            "ludii",
            "-n",
            "50",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/diff",
        &[
            "diff",
            "um-el-tuweisat",
            "ludii-1.0.8",
            "ludii-intended",
            "--games",
            "auto",
            "--precision",
            "0.1",
            "--agents",
            "greedy,random",
            "--swap",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/diff-against",
        &[
            "diff",
            "lib-al-aqil",
            "--against",
            "lane",
            "-n",
            "4",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/flags",
        &[
            "flags",
            "um-el-banat",
            "-n",
            "30",
            "--max-plies",
            "3000",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/flags-all",
        &[
            "flags",
            "-n",
            "6",
            "--max-plies",
            "3000",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/explain",
        &[
            "explain",
            "seega",
            "-i",
            "davies",
            "--against",
            "ludii",
            "--plies",
            "1..40",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/solve",
        &[
            "solve",
            "um-el-tuweisat",
            "-i",
            "ludii-1.0.8",
            "--format",
            "json",
        ],
    );
    conforms(
        "output/replay",
        &[
            "replay",
            "seega",
            "-i",
            "ludii-1.0.8",
            "tests/data/ludii-traces/seega-5x5.jsonl",
            "--format",
            "json",
        ],
    );
}

/// The fields every played output opens with, in order (`swap` only with `--swap`).
const HEADER: [&str; 10] = [
    "schema_version",
    "ludotrace",
    "corpus_hash",
    "game",
    "seed",
    "games",
    "max_plies",
    "agents",
    "swap",
    "lineup",
];

/// `run`, `diff`, `diff --against` and `flags` open with the same header, field for field
/// and in the same order, published with the same schema: one declaration, not four copies
/// that can drift.
#[test]
fn every_played_output_opens_with_the_same_header() {
    let common = ["-n", "10", "--agents", "greedy,random", "--swap"];
    let outputs = [
        ("output/run", vec!["run", "um-el-bagara", "-i", "davies"]),
        (
            "output/diff",
            vec!["diff", "um-el-tuweisat", "ludii-1.0.8", "ludii-intended"],
        ),
        (
            "output/diff-against",
            vec!["diff", "um-el-tuweisat", "--against", "ludii-1.0.8"],
        ),
        ("output/flags", vec!["flags", "um-el-tuweisat"]),
    ];
    let schemas = json(&["schema"]);
    let run_schema = &schemas["formats"]["output/run"]["properties"];
    for (format, mut args) in outputs {
        args.extend(common);
        args.extend(["--format", "json"]);
        let value = json(&args);
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .take(HEADER.len())
            .collect();
        assert_eq!(keys, HEADER, "{args:?}");
        assert_eq!(value["game"], args[1], "{args:?}");
        assert_eq!(value["games"], 10, "{args:?}");
        assert_eq!(value["swap"], true, "{args:?}");
        assert_eq!(value["lineup"], serde_json::json!(["greedy", "random"]));
        let props = &schemas["formats"][format]["properties"];
        for k in HEADER {
            assert!(props[k].is_object(), "{format} publishes no `{k}`");
            assert_eq!(
                props[k], run_schema[k],
                "{format}'s `{k}` differs from run's"
            );
        }
    }
}

/// `store`, `store export` and `store prune` on a store a run filled.
#[test]
fn the_store_outputs_conform_to_their_published_schemas() {
    let store = crate::util::fresh_store();
    let with = |args: &[&str]| -> Value {
        let (code, out, err) =
            crate::util::run(crate::util::bin().env("LUDOTRACE_STORE", &store).args(args));
        assert_eq!(code, 0, "{args:?}: {err}");
        serde_json::from_str(&out).unwrap()
    };
    with(&["run", "seega", "-n", "10", "--format", "json"]);
    let schemas = json(&["schema"]);
    for (format, args) in [
        ("output/store", &["store", "--format", "json"][..]),
        (
            "output/store-export",
            &["store", "export", "--format", "json"][..],
        ),
        (
            "output/store-prune",
            &["store", "prune", "--game", "seega", "--format", "json"][..],
        ),
    ] {
        let schema = &schemas["formats"][format];
        assert!(schema.is_object(), "no schema {format}");
        let value = with(args);
        let mut errors = Vec::new();
        check(schema, schema, &value, "", &mut errors);
        assert!(errors.is_empty(), "{args:?}:\n{}", errors.join("\n"));
    }
}
