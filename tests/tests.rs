//! ludotrace's integration tests: one binary, one module per feature.

/// Shared helpers: the binary, temporary corpora.
mod util;

/// The skilled agents: specs, reproducible games, greedy and MCTS against random.
mod agents;
/// Li'b al-'Aqil's, Um el-Bagara's and Um el Tuweisat's readings of issue 16, on worked positions.
mod aqil_readings;
/// `ludotrace assess`: self-play metrics, criteria, their bad input.
mod assess_cmd;
/// Every class of bad corpus input, from data-driven fixtures.
mod bad_input;
/// Um el Banât's register readings made playable, each on a worked position.
mod banat_readings;
/// Li'b al-'Aqil's distribution, turned board, gift, odd relays and boards to sixty.
mod boards;
/// Censored games: counted apart, lengths by Kaplan–Meier, verdicts checked at raised limits.
mod censoring;
/// Citations in every style against the styles' specifications; one key per work.
mod citations;
/// The commands as a user runs them.
mod cli;
/// The built-in corpus: clean, witnessed, complete for the games it has.
mod corpus_content;
/// Um el Banât's daughters, pecking and the reckoning in fours.
mod daughters;
/// `ludotrace diff`: an A/A test, a known difference found, the JSON contract, threads.
mod diff_cmd;
/// Every option of every choice switched alone into a game's first reading plays.
mod each_option;
/// Proven endless play and the static "cannot end" check: refused combinations, their
/// finishable neighbours, a search that gives up counted as censored.
mod endless;
/// Engine properties over every reading, and the rules through the public API.
mod engine_props;
/// `ludotrace explain`: rules behind every application, run's very game, --against, goldens.
mod explain_cmd;
/// `ludotrace flags`: each kind on a synthetic corpus, the canonical examples, the views.
mod flags_cmd;
/// Li'b el-Merafib, the hyena game: the well, the hyena, eating, turns.
mod hyena;
/// Li'b el-Merafib's further readings: the hyena's fresh purse, degrees of defeat, endless games.
mod hyena_readings;
/// The hand-written kernels play the very same games as the engines (feature `kernels`).
#[cfg(feature = "kernels")]
mod kernels;
/// Ludii 1.0.8's recorded playouts replayed through the engines bound to its readings.
mod ludii_traces;
/// Random `--set` overrides on every reading: refused with the parameter named, or games end.
mod override_props;
/// Committed playthroughs of every reading, regenerated and diffed.
mod playthroughs;
/// The position notation: every reading's positions read back and played on the same; bad
/// positions refused with the column, the field and the form.
mod position;
/// Provenance classes on a synthetic corpus: grounded, borrowed, interpolated; flagged events.
mod provenance;
/// Ludii 1.0.8's published statistics, reproduced within sampling error.
mod reference_stats;
/// `ludotrace report`: snapshot, commands, --check, threads.
mod report_cmd;
/// `ludotrace run`: contract, determinism, formats, overrides, bad input.
mod run_cmd;
/// `run`'s shortcuts play the very games of the plain ply-by-ply loop, for every reading.
mod runner_shortcuts;
/// Every JSON output against the schema `ludotrace schema` publishes for it.
mod schema_contract;
mod seega;
/// Sijat El Taba: Ludii 1.0.8's traces, and the rules on built positions.
mod sijat;
/// `ludotrace site`: determinism, well-formed and local pages, quotes linked both ways, bad
/// input; in Chromium headless: console, links, search by URL, a phone's width.
mod site;
/// `--agents`, `--swap` and `--games auto`: lineups, results by agent, skilled play.
mod skilled_play;
/// `solve`: exact values against a plain minimax, and the built-in readings solved.
mod solve;
/// Relay sowing, relay cycles and endless replays.
mod sowing_relay;
/// `store`: what a results store holds, its export and pruning; read-only and older stores.
mod store_cmd;
/// Tables laid out to a width: golden files at 80 columns, and checks that hold for any table.
mod tables;
/// The architecture invariants, checked.
mod tidy;
/// The results store, plan, work, merge and run --shard.
mod units_cmd;
/// The step-through viewer in Chromium: keyboard, quotes landing on the source, a phone's width.
mod viewer;
