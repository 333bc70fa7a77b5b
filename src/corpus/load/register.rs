//! The register of open points (`rulesets/register/*.yaml`): each point's id against the
//! id scheme, its status, its lettered readings and its quotes.

use std::collections::{HashMap, HashSet};

use super::{QuoteTarget, Validator};
use crate::corpus::diag::Place;
use crate::corpus::model::*;
use crate::corpus::raw::{self, Sp};

impl Validator<'_> {
    /// Loads the register: checks each point's id, status, readings and quotes, and returns
    /// where each point is defined (for the check that every point is addressed).
    pub(super) fn register(
        &mut self,
        files: &[(String, raw::RegisterFile)],
        corpus: &mut Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> HashMap<String, Place> {
        let mut places: HashMap<String, Place> = HashMap::new();
        let mut pending_refs: Vec<(String, Sp<String>, &'static str)> = Vec::new();
        for (path, f) in files {
            self.version(path, &f.schema_version);
            let game = f.game.as_ref().map(|g| g.value.clone());
            match &f.game {
                Some(g) => {
                    self.game_id(path, g);
                    let expected = format!("rulesets/register/{}.yaml", g.value);
                    if *path != expected {
                        self.diags.push(
                            Place::at(path, &g.referenced),
                            "file-name-mismatch",
                            format!("the register of `{}` must be in `{expected}`", g.value),
                        );
                    }
                }
                None if path != "rulesets/register/general.yaml" => {
                    self.diags.push(
                        Place::file(path),
                        "missing-field",
                        "a register file other than `general.yaml` must say which game its points belong to (`game:`)",
                    );
                }
                None => {}
            }
            for pt in &f.points {
                let id = &pt.id.value;
                let here = Place::at(path, &pt.id.referenced);
                if let Some(prev) = places.get(id) {
                    self.diags.push(
                        here.clone(),
                        "duplicate-id",
                        format!("point `{id}` is already defined at {prev}"),
                    );
                    continue;
                }
                // Under an unknown game (reported above) the id scheme cannot be known.
                let known = game.as_deref().is_none_or(|g| GAME_IDS.contains(&g));
                if let Err(msg) = point_id_fits(id, pt.status, game.as_deref())
                    && known
                {
                    self.diags.push(here.clone(), "point-id", msg);
                }
                let has_readings = !pt.readings.is_empty();
                match pt.status {
                    PointStatus::Settled | PointStatus::Departed if has_readings => {
                        self.diags.push(
                            here.clone(),
                            "point-readings",
                            format!(
                                "point `{id}` is {}: it has no readings (the source's words decide it); make it `open` if it has",
                                if pt.status == PointStatus::Settled { "settled" } else { "departed" }
                            ),
                        );
                    }
                    PointStatus::Settled | PointStatus::Departed if pt.cites.is_empty() => {
                        self.diags.push(
                            here.clone(),
                            "uncited-point",
                            format!("point `{id}` must quote the words that settle it (`cites:`)"),
                        );
                    }
                    _ => {}
                }
                if let Some(same) = &pt.same_as {
                    if pt.status != PointStatus::Encoding {
                        self.diags.push(
                            Place::at(path, &same.referenced),
                            "point-same-as",
                            "`same_as` is for an encoding's note that is one of the register's points",
                        );
                    } else if has_readings {
                        self.diags.push(
                            Place::at(path, &same.referenced),
                            "point-same-as",
                            format!(
                                "point `{id}` is the same as `{}`, whose readings stand for it: give it none of its own",
                                same.value
                            ),
                        );
                    }
                    pending_refs.push((path.clone(), same.clone(), "point"));
                }
                for see in &pt.see {
                    pending_refs.push((path.clone(), see.clone(), "point"));
                }
                let mut letters = HashSet::new();
                let mut readings = Vec::new();
                for r in &pt.readings {
                    let l = &r.id.value;
                    let ok = l.len() == 1 && l.chars().all(|c| c.is_ascii_lowercase());
                    if !ok {
                        self.diags.push(
                            Place::at(path, &r.id.referenced),
                            "point-reading-id",
                            format!(
                                "reading `{l}`: a reading's id is one lower-case letter (a, b, c …)"
                            ),
                        );
                    } else if !letters.insert(l.clone()) {
                        self.diags.push(
                            Place::at(path, &r.id.referenced),
                            "duplicate-id",
                            format!("reading `{l}` appears twice in point `{id}`"),
                        );
                    }
                    readings.push(PointReading {
                        id: format!("{id}{l}"),
                        says: r.says.clone(),
                        by: self.proponents(path, &r.by, corpus),
                    });
                }
                let cites = self.cites(path, &pt.cites, corpus, targets);
                places.insert(id.clone(), here);
                corpus.points.insert(
                    id.clone(),
                    Point {
                        id: id.clone(),
                        game: game.clone(),
                        status: pt.status,
                        title: pt.title.clone(),
                        impact: pt.impact,
                        impact_note: pt.impact_note.clone(),
                        says: pt.says.clone(),
                        cites,
                        see: pt.see.iter().map(|s| s.value.clone()).collect(),
                        same_as: pt.same_as.as_ref().map(|s| s.value.clone()),
                        readings,
                        file: path.clone(),
                    },
                );
            }
        }
        for (path, r, what) in pending_refs {
            if !corpus.points.contains_key(&r.value) {
                self.dangling_point(&path, &r, corpus, what);
            }
        }
        places
    }
}

/// Checks a point id against the scheme: `UB-07` (open), `UB-S01` (settled), `UB-D01`
/// (departed) with the game's prefix; `ENC-n.k` for an encoding's notes; `G-n` and `LX-n`
/// only in `general.yaml`.
fn point_id_fits(id: &str, status: PointStatus, game: Option<&str>) -> Result<(), String> {
    let prefix = game.and_then(|g| {
        GAME_IDS
            .iter()
            .position(|x| *x == g)
            .map(|i| POINT_PREFIXES[i])
    });
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if let Some(rest) = id.strip_prefix("ENC-") {
        let ok = rest
            .split_once('.')
            .is_some_and(|(a, b)| digits(a) && digits(b));
        return match (ok, status) {
            (false, _) => Err(format!(
                "`{id}`: an encoding note's id is `ENC-<section>.<item>` (e.g. ENC-3.1)"
            )),
            (true, PointStatus::Encoding) => Ok(()),
            (true, _) => Err(format!(
                "`{id}` names an encoding's note: its status must be `encoding`"
            )),
        };
    }
    if let Some(rest) = id.strip_prefix("G-").or_else(|| id.strip_prefix("LX-")) {
        return if game.is_some() {
            Err(format!(
                "`{id}` is a point shared by several games: it belongs in rulesets/register/general.yaml"
            ))
        } else if !digits(rest) {
            Err(format!(
                "`{id}`: expected a number after the prefix (e.g. G-4, LX-1)"
            ))
        } else {
            Ok(())
        };
    }
    let Some(prefix) = prefix else {
        return Err(format!(
            "`{id}`: general.yaml holds G-n, LX-n and ENC-1.n points; a game's points belong in its own register file"
        ));
    };
    let Some(rest) = id.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
        return Err(format!(
            "`{id}`: this game's points are `{prefix}-NN` (open), `{prefix}-SNN` (settled), `{prefix}-DNN` (departed) or `ENC-n.k`"
        ));
    };
    let (want, num) = match rest.as_bytes().first() {
        Some(b'S') => (PointStatus::Settled, &rest[1..]),
        Some(b'D') => (PointStatus::Departed, &rest[1..]),
        _ => (PointStatus::Open, rest),
    };
    if !digits(num) {
        return Err(format!(
            "`{id}`: expected `{prefix}-NN`, `{prefix}-SNN` or `{prefix}-DNN`"
        ));
    }
    if want != status {
        return Err(format!(
            "`{id}`: the id says {} but the status is {}",
            status_name(want),
            status_name(status)
        ));
    }
    Ok(())
}

fn status_name(s: PointStatus) -> &'static str {
    match s {
        PointStatus::Open => "open",
        PointStatus::Settled => "settled",
        PointStatus::Departed => "departed",
        PointStatus::Encoding => "encoding",
    }
}

/// The point-id prefix of each game, in the order of [`GAME_IDS`].
const POINT_PREFIXES: [&str; 7] = ["SJ", "BG", "TW", "UB", "HY", "ST", "LA"];
