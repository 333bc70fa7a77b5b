//! The rule-parameter vocabularies of the engine families.
//!
//! A family (sowing, custodial, stick-race, spiral-race) is one rules engine that plays one or
//! more games (`crate::registry` ties each to its engine); its
//! parameter struct says, field by field, every way the sources and their readers let a game
//! of that family differ. Each parameter is either a **rule parameter** (something the sources
//! speak about: every interpretation must set it exactly once) or an **engine-behaviour
//! parameter** (a cap, a forced pass, an engine quirk: it has a default and is set only by
//! readings that emulate an engine). The corpus validator checks `sets:` blocks against these
//! tables; `bind` turns an interpretation's settings into the typed struct.
//!
//! These types are plain data. They derive serde and schemars because they *are* the typed
//! values of the YAML `sets:` blocks, but they do no I/O.
//!
//! This module owns the vocabulary's plumbing too: the [`Family`] enum and its ids, the
//! [`FamilyParams`] trait every parameter struct implements, and the dispatch from a family
//! to its parameter struct ([`Family::visit_params`]), so that the corpus can check a `sets:`
//! block without knowing any engine.
//!
//! Architecture Invariant: `family` imports nothing else of the crate. The engines (`games`)
//! build on it, and `registry` ties each family to its engine from above; a module that
//! `family` imported would sit below the engines and could not know them.

pub mod custodial;
pub mod sowing;
pub mod spiral_race;
pub mod stick_race;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Declares every family's vocabulary once: the [`Family`] enum, each family's id, and the
/// dispatch to its parameter struct. The registry's `families!` list pairs the same families
/// with their engines; its `match` over [`Family`] must be exhaustive, so a family added here
/// and not there does not compile.
macro_rules! vocabularies {
    ($( $(#[doc = $doc:literal])* $family:ident $id:literal = $params:ty; )*) => {
        /// An engine family.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
        #[serde(rename_all = "kebab-case")]
        pub enum Family {
            $( $(#[doc = $doc])* $family, )*
        }

        impl Family {
            /// Every family, in a stable order.
            pub const ALL: &'static [Family] = &[$(Family::$family),*];

            /// The id used in rulesets.
            pub fn id(self) -> &'static str {
                match self {
                    $( Family::$family => $id, )*
                }
            }

            /// Hands the family's parameter struct to `visitor`.
            pub fn visit_params<V: ParamsVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $( Family::$family => visitor.visit::<$params>(), )*
                }
            }
        }
    };
}

vocabularies! {
    /// Two-row mancala: Um el-Bagara, Um el Tuweisat, Um el Banât, Li'b al-'Aqil.
    Sowing "sowing" = sowing::SowingParams;
    /// Placement and custodial capture on a square board: Seega.
    Custodial "custodial" = custodial::CustodialParams;
    /// Counters racing along tracks by casting sticks, eating what they catch: Sijat El Taba.
    StickRace "stick-race" = stick_race::StickRaceParams;
    /// Mothers to the well and back along a spiral by casting sticks, and the hyena: Li'b
    /// el-Merafib.
    SpiralRace "spiral-race" = spiral_race::SpiralRaceParams;
}

/// A family's parameter struct, as `family_params!` declares it.
// `'static` so that a check can compare a family's struct with the one an engine takes by
// type (`TypeId`): every parameter struct is plain owned data.
pub trait FamilyParams: Sized + Clone + std::fmt::Debug + 'static {
    /// The all-optional struct of a `sets:` block (the published schema).
    type Sets: schemars::JsonSchema;
    /// The parameter table, rule parameters first.
    const PARAMS: &'static [ParamInfo];
    /// The default value of every engine parameter, as JSON.
    fn engine_defaults() -> Map<String, Value>;
    /// Checks one `name: value` assignment.
    ///
    /// # Errors
    /// A message naming the parameter and what it accepts, or listing the valid names.
    fn check_value(name: &str, value: &Value) -> Result<(), String>;
    /// The complete struct from a map holding every parameter.
    ///
    /// # Errors
    /// The serde message, if a value is missing or mistyped.
    fn from_values(values: &Map<String, Value>) -> Result<Self, String>;
    /// Why a game under these parameters can never end, in words for users (which
    /// parameters, why, what would make it finishable), or `None` when no rule of the
    /// family's static check proves it. A rule over parameter values, never over readings:
    /// each family's `cannot_end` function, which `bind` asks before building an engine.
    fn cannot_end(&self) -> Option<String>;
}

/// Work to do with a family's parameter struct, written once for every family: what the
/// corpus needs of a vocabulary, with no engine built or known.
pub trait ParamsVisitor {
    /// What it gives.
    type Output;
    /// Does it for the parameter struct `P`.
    fn visit<P: FamilyParams>(self) -> Self::Output;
}

impl Family {
    /// The default value of every engine parameter, as JSON.
    pub fn engine_defaults(self) -> serde_json::Map<String, serde_json::Value> {
        struct Defaults;
        impl ParamsVisitor for Defaults {
            type Output = serde_json::Map<String, serde_json::Value>;
            fn visit<P: FamilyParams>(self) -> Self::Output {
                P::engine_defaults()
            }
        }
        self.visit_params(Defaults)
    }

    /// The parameter table of the family.
    pub fn params(self) -> &'static [ParamInfo] {
        struct Params;
        impl ParamsVisitor for Params {
            type Output = &'static [ParamInfo];
            fn visit<P: FamilyParams>(self) -> Self::Output {
                P::PARAMS
            }
        }
        self.visit_params(Params)
    }

    /// Checks one `name: value` assignment against the family's vocabulary.
    ///
    /// # Errors
    /// A message naming the parameter and what it accepts, or listing the valid names.
    pub fn check_value(self, name: &str, value: &serde_json::Value) -> Result<(), String> {
        struct Check<'a>(&'a str, &'a serde_json::Value);
        impl ParamsVisitor for Check<'_> {
            type Output = Result<(), String>;
            fn visit<P: FamilyParams>(self) -> Self::Output {
                P::check_value(self.0, self.1)
            }
        }
        self.visit_params(Check(name, value))
    }

    /// The JSON Schema of a `sets:` block for this family.
    pub fn sets_schema(self) -> schemars::Schema {
        struct Schema;
        impl ParamsVisitor for Schema {
            type Output = schemars::Schema;
            fn visit<P: FamilyParams>(self) -> Self::Output {
                schemars::schema_for!(P::Sets)
            }
        }
        self.visit_params(Schema)
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Whether a parameter is a rule the sources speak about or an engine behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// Set exactly once by every interpretation.
    Rule,
    /// Has a default; set only by readings that emulate an engine.
    Engine,
}

/// One entry of a family's parameter table.
#[derive(Debug, Clone, Copy)]
pub struct ParamInfo {
    /// Name as written in `sets:`.
    pub name: &'static str,
    /// Rule or engine behaviour.
    pub kind: ParamKind,
    /// What the parameter means and which values it takes.
    pub doc: &'static str,
    /// The default value as JSON text (engine parameters only).
    pub default: Option<&'static str>,
}

/// Declares a family's parameters once and derives from that single list: the complete
/// struct, the all-optional `sets:` struct (the published schema), and the parameter table.
/// Rule parameters have no default; engine parameters name theirs.
macro_rules! family_params {
    (
        $(#[$meta:meta])*
        pub struct $params:ident / $sets:ident {
            rule {
                $( $(#[doc = $rdoc:literal])* $rname:ident : $rty:ty, )*
            }
            engine {
                $( $(#[doc = $edoc:literal])* $ename:ident : $ety:ty = $edefault:expr, )*
            }
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $params {
            $( $(#[doc = $rdoc])* pub $rname: $rty, )*
            $( $(#[doc = $edoc])* pub $ename: $ety, )*
        }

        /// One `sets:` block: any subset of the family's parameters.
        #[derive(Debug, Clone, Default, serde::Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $sets {
            $( $(#[doc = $rdoc])* #[serde(default)] pub $rname: Option<$rty>, )*
            $( $(#[doc = $edoc])* #[serde(default)] pub $ename: Option<$ety>, )*
        }

        impl $params {
            /// The parameter table, rule parameters first, in declaration order.
            pub const PARAMS: &'static [$crate::family::ParamInfo] = &[
                $( $crate::family::ParamInfo {
                    name: stringify!($rname),
                    kind: $crate::family::ParamKind::Rule,
                    doc: concat!($($rdoc, "\n"),*),
                    default: None,
                }, )*
                $( $crate::family::ParamInfo {
                    name: stringify!($ename),
                    kind: $crate::family::ParamKind::Engine,
                    doc: concat!($($edoc, "\n"),*),
                    default: Some(stringify!($edefault)),
                }, )*
            ];

            /// The default value of every engine parameter, as JSON.
            pub fn engine_defaults() -> serde_json::Map<String, serde_json::Value> {
                let mut map = serde_json::Map::new();
                $(
                    let value: $ety = $edefault;
                    map.insert(
                        stringify!($ename).to_owned(),
                        serde_json::to_value(value).expect("parameter values serialise"),
                    );
                )*
                map
            }

            /// Checks one assignment: the name must be a parameter and the value its type.
            ///
            /// # Errors
            /// A message naming the parameter and its accepted values.
            pub fn check_value(name: &str, value: &serde_json::Value) -> Result<(), String> {
                // Each value against its own field type, so that `null` is refused where the
                // parameter is not optional.
                let checked = match name {
                    $( stringify!($rname) => serde_json::from_value::<$rty>(value.clone()).map(drop), )*
                    $( stringify!($ename) => serde_json::from_value::<$ety>(value.clone()).map(drop), )*
                    _ => {
                        // The nearest name within typing distance (a third of the longer
                        // word), hyphens read as the underscores the names use.
                        let typed = name.replace('-', "_");
                        let near = Self::PARAMS
                            .iter()
                            .map(|p| (strsim::damerau_levenshtein(&typed, p.name), p.name))
                            .filter(|&(d, p)| d <= (typed.len().max(p.len()) / 3).max(1))
                            .min_by_key(|&(d, _)| d)
                            .map(|(_, p)| format!(" (did you mean `{p}`?)"))
                            .unwrap_or_default();
                        return Err(format!(
                            "unknown parameter `{name}`{near}; the parameters of this family are: {}",
                            Self::PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
                        ))
                    }
                };
                checked.map_err(|e| {
                    let info = Self::PARAMS.iter().find(|p| p.name == name);
                    format!(
                        "parameter `{name}` cannot take {value}: {}. It expects: {}",
                        $crate::family::plain_type_words(&e.to_string()),
                        info.map(|p| $crate::family::doc_line(p.doc)).unwrap_or_default()
                    )
                })
            }

            /// Builds the complete struct from a map holding every parameter.
            ///
            /// # Errors
            /// The serde message, if a value is missing or mistyped (the validator checks both
            /// before calling this, so an error here is a bug in the validator).
            pub fn from_values(
                values: &serde_json::Map<String, serde_json::Value>,
            ) -> Result<Self, String> {
                serde_json::from_value(serde_json::Value::Object(values.clone()))
                    .map_err(|e| e.to_string())
            }
        }

        impl $crate::family::FamilyParams for $params {
            type Sets = $sets;
            const PARAMS: &'static [$crate::family::ParamInfo] = $params::PARAMS;
            fn engine_defaults() -> serde_json::Map<String, serde_json::Value> {
                $params::engine_defaults()
            }
            fn check_value(name: &str, value: &serde_json::Value) -> Result<(), String> {
                $params::check_value(name, value)
            }
            fn from_values(
                values: &serde_json::Map<String, serde_json::Value>,
            ) -> Result<Self, String> {
                $params::from_values(values)
            }
            fn cannot_end(&self) -> Option<String> {
                // The family module's own rule (every family that invokes this macro has one).
                cannot_end(self)
            }
        }
    };
}

pub(crate) use family_params;

/// A parameter's doc comment as one line (doc comments arrive line by line, each with the
/// space that followed `///`).
pub fn doc_line(doc: &str) -> String {
    doc.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Who moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Starter {
    /// Seat 1 always begins.
    FirstSeat,
    /// A fair lot decides (an explicit chance step).
    Lot,
}

/// An engine's cap on game length. It must give `moves` (only a move count bounds a game);
/// `turns` may be added. Neither may exceed [`Cap::MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cap {
    /// Stop once a move is made in this turn (Ludii 1.0.8: 1250 × players = 2500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    /// Stop after this many moves (Ludii 1.0.8: 10 000). Required: only a move count bounds a
    /// game, since one turn can hold any number of decisions.
    pub moves: u32,
    /// What a capped game scores as.
    pub outcome: CapOutcome,
}

impl Cap {
    /// The largest cap on turns or moves: a hundred times Ludii's default move limit.
    pub const MAX: u32 = 1_000_000;
}

/// The result of a capped game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CapOutcome {
    /// Every player not yet ranked draws (Ludii).
    Draw,
}

/// A serde message (`invalid type: string "x", expected u8`, `invalid u8`, `expected string
/// scalar`) in the words of the corpus and the command line rather than Rust's: a user who
/// sets a parameter or writes a ruleset meets these, and `u8` or `struct Cap` mean nothing
/// to them.
pub fn plain_type_words(message: &str) -> String {
    // serde_json ends a message with its place; it is kept as it is.
    let (m, at) = match message.find(" at line ") {
        Some(i) => message.split_at(i),
        None => (message, ""),
    };
    format!("{}{at}", plain_words(m))
}

fn plain_words(message: &str) -> String {
    let m = message.trim();
    let m = m.strip_prefix("invalid ").unwrap_or(m);
    if let Some(ty) = rust_type(m) {
        return format!("expected {ty}");
    }
    for kind in ["type: ", "value: "] {
        if let Some((found, expected)) = m
            .strip_prefix(kind)
            .and_then(|r| r.rsplit_once(", expected "))
        {
            return format!(
                "expected {}, found {}",
                plain_expected(expected),
                plain_found(found)
            );
        }
    }
    match m.strip_prefix("expected ") {
        Some(expected) => format!("expected {}", plain_expected(expected)),
        None => m.to_owned(),
    }
}

/// What a Rust number or truth type accepts, said plainly.
fn rust_type(ty: &str) -> Option<&'static str> {
    Some(match ty.trim() {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" | "u128" => "a whole number, 0 or more",
        "i8" | "i16" | "i32" | "i64" | "isize" | "i128" => "a whole number",
        "f32" | "f64" => "a number",
        "bool" | "a boolean" | "boolean" => "`true` or `false`",
        "char" | "a character" => "a single character",
        _ => return None,
    })
}

/// serde's `expected …` half in plain words.
fn plain_expected(expected: &str) -> String {
    let e = expected.trim();
    if let Some(ty) = rust_type(e) {
        return ty.to_owned();
    }
    match e {
        "a string" | "string" | "string scalar" | "a borrowed string" => "text".to_owned(),
        "a sequence" | "sequence" => "a list".to_owned(),
        "string or map" => "a name or a mapping".to_owned(),
        "a map" | "map" | "mapping" => "a mapping (`key: value` lines)".to_owned(),
        _ if e.starts_with("struct ") => "a mapping of named fields".to_owned(),
        _ if e.starts_with("enum ") || e.starts_with("variant ") => {
            "one of its named values".to_owned()
        }
        _ if e.starts_with("a tuple") || e.starts_with("tuple") => "a list".to_owned(),
        _ => e.to_owned(),
    }
}

/// serde's `invalid type: …` half (what was found) in plain words.
fn plain_found(found: &str) -> String {
    let f = found.trim();
    let quoted = |s: &str| s.trim_matches('`').to_owned();
    if let Some(s) = f.strip_prefix("string ") {
        return format!("the text {s}");
    }
    for number in ["integer ", "floating point ", "boolean ", "char "] {
        if let Some(v) = f.strip_prefix(number) {
            return quoted(v);
        }
    }
    match f {
        "map" => "a mapping".to_owned(),
        "sequence" => "a list".to_owned(),
        "unit value" | "null" | "unit" => "nothing (null)".to_owned(),
        _ => f.to_owned(),
    }
}

#[cfg(test)]
mod plain_words_tests {
    use super::plain_type_words;

    #[test]
    fn serde_messages_lose_their_rust_type_names() {
        for (serde, plain) in [
            ("invalid u8", "expected a whole number from 0 to 255"),
            (
                "invalid value: integer `-5`, expected u8",
                "expected a whole number from 0 to 255, found -5",
            ),
            (
                "invalid type: string \"x\", expected usize",
                "expected a whole number, 0 or more, found the text \"x\"",
            ),
            (
                "invalid type: map, expected a boolean",
                "expected `true` or `false`, found a mapping",
            ),
            ("expected string scalar", "expected text"),
            (
                "invalid type: integer `3`, expected struct Cap",
                "expected a mapping of named fields, found 3",
            ),
            ("missing field `moves`", "missing field `moves`"),
        ] {
            let got = plain_type_words(serde);
            assert_eq!(got, plain, "{serde}");
            for word in ["u8", "usize", "struct", "boolean", "scalar"] {
                assert!(
                    !got.split(|c: char| !c.is_alphanumeric()).any(|w| w == word),
                    "{got}"
                );
            }
        }
    }
}
