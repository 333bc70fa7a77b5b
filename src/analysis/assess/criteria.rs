//! The criteria of `assess`'s verdicts: a metric and one rule each ([`Criterion`], [`Rule`]),
//! the defaults and the YAML file a user may give (read through the corpus's YAML door, each
//! criterion checked as it is read so that a bad one is reported at its line), and the
//! [`Verdict`] of a criterion on a figure's interval.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::figures::{Figure, Metric, fmt_num};
use crate::analysis::Error;

/// The criteria applied when no file is given, as a criteria file states them.
pub const DEFAULT_CRITERIA: &str = "\
# ludotrace assess: the default criteria (see guide/assess.md).
criteria:
  - metric: finished
    at_least: 0.95
  - metric: first-mover-advantage
    within: 0.10
  - metric: draws
    at_most: 0.20
  - metric: median-turns
    between: [10, 1000]
";

/// One criterion: a metric and the values that satisfy it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "RawCriterion")]
pub struct Criterion {
    /// The metric.
    pub metric: Metric,
    /// What satisfies it.
    #[serde(flatten)]
    pub rule: Rule,
}

/// The values that satisfy a criterion.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The value is at least this.
    AtLeast(f64),
    /// The value is at most this.
    AtMost(f64),
    /// The value lies within this distance of nothing (`-w` to `w`).
    Within(f64),
    /// The value lies between these two, both included.
    Between([f64; 2]),
}

impl Rule {
    /// The range of values that satisfy it.
    fn range(self) -> (f64, f64) {
        match self {
            Rule::AtLeast(t) => (t, f64::INFINITY),
            Rule::AtMost(t) => (f64::NEG_INFINITY, t),
            Rule::Within(w) => (-w, w),
            Rule::Between([a, b]) => (a, b),
        }
    }

    /// In words: `at least 95 %`, `within ±10 points`, `between 10 and 1000`.
    pub fn words(self, share: bool) -> String {
        let v = |x: f64| {
            if share {
                format!("{} %", fmt_num(x * 100.0))
            } else {
                fmt_num(x)
            }
        };
        match self {
            Rule::AtLeast(t) => format!("at least {}", v(t)),
            Rule::AtMost(t) => format!("at most {}", v(t)),
            Rule::Within(w) if share => format!("within ±{} points", fmt_num(w * 100.0)),
            Rule::Within(w) => format!("within ±{}", fmt_num(w)),
            Rule::Between([a, b]) => format!("between {} and {}", v(a), v(b)),
        }
    }
}

impl Criterion {
    /// The verdict on a figure: met where its whole interval satisfies the rule, failed
    /// where none of it does, uncertain where it straddles; unknown without a figure.
    pub fn judge(&self, f: &Figure) -> Verdict {
        let (Some(lo), Some(hi)) = (f.lo, f.hi.or(f.value.map(|_| f64::INFINITY))) else {
            return Verdict::Unknown;
        };
        if f.value.is_none() || f.note.is_some() {
            return Verdict::Unknown;
        }
        let (a, b) = self.rule.range();
        if lo >= a && hi <= b {
            Verdict::Met
        } else if hi < a || lo > b {
            Verdict::Failed
        } else {
            Verdict::Uncertain
        }
    }
}

/// A criterion's verdict on one reading at one strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The whole interval satisfies it.
    Met,
    /// No part of the interval does.
    Failed,
    /// The interval straddles its threshold: more games may decide it.
    Uncertain,
    /// The metric has no figure (it cannot inform this reading, or no game gave one).
    Unknown,
}

impl Verdict {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::Failed => "failed",
            Verdict::Uncertain => "uncertain",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A criteria file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CriteriaFile {
    criteria: Vec<Criterion>,
}

/// One criterion as written: a metric and exactly one rule. Checked as it is read
/// ([`Criterion`]'s `try_from`), so that a bad one is reported at its place in the file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawCriterion {
    metric: Metric,
    #[serde(default)]
    at_least: Option<f64>,
    #[serde(default)]
    at_most: Option<f64>,
    #[serde(default)]
    within: Option<f64>,
    #[serde(default)]
    between: Option<[f64; 2]>,
}

impl TryFrom<RawCriterion> for Criterion {
    type Error = String;

    fn try_from(c: RawCriterion) -> Result<Self, String> {
        let name = c.metric.name();
        let rules: Vec<Rule> = [
            c.at_least.map(Rule::AtLeast),
            c.at_most.map(Rule::AtMost),
            c.within.map(Rule::Within),
            c.between.map(Rule::Between),
        ]
        .into_iter()
        .flatten()
        .collect();
        let rule = match rules.as_slice() {
            [r] => *r,
            [] => {
                return Err(format!(
                    "the criterion on {name} has no rule: give one of at_least, at_most, \
                     within or between"
                ));
            }
            _ => {
                return Err(format!(
                    "the criterion on {name} has two rules: give one of at_least, at_most, \
                     within or between"
                ));
            }
        };
        let (lo, hi) = c.metric.bounds();
        let fits = |x: f64| x.is_finite() && x >= lo && x <= hi;
        let possible = match rule {
            Rule::AtLeast(t) | Rule::AtMost(t) => fits(t),
            Rule::Within(w) => w >= 0.0 && fits(w),
            Rule::Between([x, y]) => fits(x) && fits(y) && x <= y,
        };
        if !possible {
            let range = if hi.is_infinite() {
                format!("{lo} or more")
            } else {
                format!("{lo} to {hi}")
            };
            return Err(format!(
                "an impossible threshold for {name}, which takes values from {range}{}",
                match rule {
                    Rule::Between(_) => " (`between` gives the smaller bound first)",
                    Rule::Within(_) => " (`within` is a distance, 0 or more)",
                    _ => "",
                }
            ));
        }
        Ok(Criterion {
            metric: c.metric,
            rule,
        })
    }
}

/// The criteria of a verdict, read from a file or the defaults ([`DEFAULT_CRITERIA`]).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Criteria {
    /// The file they were read from, as given; absent for the defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The criteria, in the file's order.
    pub list: Vec<Criterion>,
}

impl Criteria {
    /// The defaults.
    pub fn defaults() -> Self {
        Criteria {
            file: None,
            ..Self::parse("default", DEFAULT_CRITERIA).expect("the default criteria parse")
        }
    }

    /// Reads a criteria file's text (`path` names it in messages).
    ///
    /// # Errors
    /// [`Error::Input`] naming the file, the line and column, and what was expected: bad
    /// YAML, an unknown key or metric (the valid names listed), a criterion with no rule
    /// or with two, a threshold the metric can never take.
    pub fn parse(path: &str, text: &str) -> Result<Self, Error> {
        let mut diags = crate::corpus::diag::Diagnostics::default();
        let Some(file) = crate::corpus::load::parse_yaml::<CriteriaFile>(path, text, &mut diags)
        else {
            // The loader's codes name what a corpus file does wrong; a criteria file's own
            // checks get their own.
            let list: Vec<String> = diags
                .into_sorted()
                .into_iter()
                .map(|mut d| {
                    if d.message.starts_with("unknown variant") {
                        d.code = "unknown-metric";
                        d.message = d.message.replacen("unknown variant", "unknown metric", 1);
                    } else if d.message.starts_with("an impossible threshold") {
                        d.code = "impossible-threshold";
                    } else if d.message.starts_with("the criterion on") {
                        d.code = "criterion-rule";
                    }
                    d.to_string()
                })
                .collect();
            return Err(Error::Input(list.join("\n")));
        };
        if file.criteria.is_empty() {
            return Err(Error::Input(format!(
                "{path}: `criteria` lists no criterion: give at least one, each a `metric` \
                 ({}) with one of at_least, at_most, within or between",
                Metric::names()
            )));
        }
        let list = file.criteria;
        Ok(Criteria {
            file: Some(path.to_owned()),
            list,
        })
    }
}
