use ludotrace::games::{Rules, Status};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

#[test]
fn explore() {
    let corpus = ludotrace::corpus::load(&ludotrace::corpus::CorpusFiles::embedded())
        .corpus
        .unwrap();
    for game in &corpus.games {
        for interp in &game.interpretations {
            let bound = ludotrace::bind::bind(game, interp, &serde_json::Map::new()).unwrap();
            let ludotrace::bind::Engine::Sowing(rules) = &bound.engine;
            let mut lens = vec![];
            let mut unfinished = 0;
            let mut ends = std::collections::BTreeMap::new();
            let mut mv = Vec::new();
            for g in 0..200u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(g);
                let mut s = rules.initial();
                loop {
                    match rules.status(&s) {
                        Status::Over => {
                            *ends
                                .entry(format!("{:?}", rules.outcome(&s).unwrap().end))
                                .or_insert(0) += 1;
                            lens.push(rules.plies(&s));
                            break;
                        }
                        Status::Chance => {
                            let w = rules.chance_outcomes(&s);
                            let k = rng.random_range(0..w.len());
                            rules.apply_chance(&mut s, k, &mut ludotrace::games::NoEvents);
                        }
                        Status::ToMove(_) => {
                            rules.legal_moves(&s, &mut mv);
                            let m = mv[rng.random_range(0..mv.len())];
                            rules.apply(&mut s, m, &mut ludotrace::games::NoEvents);
                        }
                    }
                    if rules.plies(&s) >= 20000 {
                        unfinished += 1;
                        break;
                    }
                }
            }
            lens.sort();
            println!(
                "{} {} unfinished={} median={} p90={} max={} {:?}",
                game.id,
                interp.id,
                unfinished,
                lens.get(lens.len() / 2).copied().unwrap_or(0),
                lens.get(lens.len() * 9 / 10).copied().unwrap_or(0),
                lens.last().copied().unwrap_or(0),
                ends
            );
        }
    }
}
