//! Bibliographic data in CSL-JSON's own field names (CSL 1.0.2): the items the works of
//! `sources/` carry, their names and dates, and the item types a work may have. The loader
//! checks them (`load/biblio.rs`); `present::cite` maps them to BibTeX, CSL-JSON and text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A bibliographic item with CSL-JSON field names, as the loader has checked it: its type is
/// one of [`CSL_TYPES`], its pages a page or a range, its volume and issue numbers.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CslItem {
    /// CSL item type, one of the CSL 1.0.2 item types (`article-journal`, `book`, `webpage`,
    /// `software`, ...).
    #[serde(rename = "type")]
    pub item_type: String,
    /// Authors, family and given names.
    #[serde(default)]
    pub author: Vec<CslName>,
    /// Title of the item.
    pub title: String,
    /// A short title, by which a work without an author is cited in the text.
    #[serde(
        rename = "title-short",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub title_short: Option<String>,
    /// Journal or series title.
    #[serde(
        rename = "container-title",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub container_title: Option<String>,
    /// Volume (`8`, or roman `VIII`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// Issue number within the volume (`2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
    /// Date of issue.
    pub issued: CslDate,
    /// A page (`138`) or a page range (`137–152`, en dash or hyphen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// Publisher.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// Place of publication.
    #[serde(
        rename = "publisher-place",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub publisher_place: Option<String>,
    /// Web address.
    #[serde(rename = "URL", default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// When the web address was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accessed: Option<CslDate>,
    /// How many volumes the work has.
    #[serde(
        rename = "number-of-volumes",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub number_of_volumes: Option<String>,
    /// A free note (for example the author's full name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A person's name as CSL keeps it: family and given names apart, so that each style can
/// order and abbreviate them (`Piette, E.`, `Eric Piette`) and BibTeX reads them as a person.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CslName {
    /// Family name.
    pub family: String,
    /// Given name(s) or initials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given: Option<String>,
}

impl CslName {
    /// The name in reading order: `Eric Piette`.
    pub fn display(&self) -> String {
        match &self.given {
            Some(g) => format!("{g} {}", self.family),
            None => self.family.clone(),
        }
    }
}

/// The item types of CSL 1.0.2 (the specification's appendix, "Item Types"): the loader takes
/// no other, since a processor renders an unknown type as a generic item without saying so.
pub const CSL_TYPES: &[&str] = &[
    "article",
    "article-journal",
    "article-magazine",
    "article-newspaper",
    "bill",
    "book",
    "broadcast",
    "chapter",
    "classic",
    "collection",
    "dataset",
    "document",
    "entry",
    "entry-dictionary",
    "entry-encyclopedia",
    "event",
    "figure",
    "graphic",
    "hearing",
    "interview",
    "legal_case",
    "legislation",
    "manuscript",
    "map",
    "motion_picture",
    "musical_score",
    "pamphlet",
    "paper-conference",
    "patent",
    "performance",
    "periodical",
    "personal_communication",
    "post",
    "post-weblog",
    "regulation",
    "report",
    "review",
    "review-book",
    "software",
    "song",
    "speech",
    "standard",
    "thesis",
    "treaty",
    "webpage",
];

/// A CSL date: `date-parts: [[1925]]`. Checked as it is read: one or two dates (a range),
/// each a year from 1 to 9999 with, optionally, a month and a day (a citation processor
/// cannot render anything else).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, try_from = "RawCslDate")]
pub struct CslDate {
    /// Year, and optionally month and day.
    #[serde(rename = "date-parts")]
    pub date_parts: Vec<Vec<i32>>,
}

/// A CSL date as written, before its parts are checked.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawCslDate {
    /// Year, and optionally month and day.
    #[serde(rename = "date-parts")]
    date_parts: Vec<Vec<i32>>,
}

impl TryFrom<RawCslDate> for CslDate {
    type Error = String;

    fn try_from(raw: RawCslDate) -> Result<Self, String> {
        let well_formed = |d: &Vec<i32>| {
            matches!(d.len(), 1..=3)
                && (1..=9999).contains(&d[0])
                && d.get(1).is_none_or(|m| (1..=12).contains(m))
                && d.get(2).is_none_or(|day| (1..=31).contains(day))
        };
        if matches!(raw.date_parts.len(), 1 | 2) && raw.date_parts.iter().all(well_formed) {
            Ok(CslDate {
                date_parts: raw.date_parts,
            })
        } else {
            Err(format!(
                "date-parts must be [[YEAR]], [[YEAR, MONTH]] or [[YEAR, MONTH, DAY]] (or two \
                 such dates, a range), a year from 1 to 9999, not {:?}",
                raw.date_parts
            ))
        }
    }
}
