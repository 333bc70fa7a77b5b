//! The registry of engine families: each family is one [`GameFamily`] impl (its parameter
//! vocabulary, its engine and how one is built from the other) and one line of the
//! `families!` list below, which writes the only `match` over families that reaches an
//! engine. (The vocabulary's own dispatch, from a family to its parameter struct, is
//! `family`'s: the corpus checks a `sets:` block without any engine.)
//!
//! Everything that must work for any family (binding a reading, `run`, `replay`, the
//! playthroughs, the benchmark) is written once as an [`EngineVisitor`] (or a
//! [`FamilyVisitor`] where no engine is built yet) and handed the family's concrete types, so
//! the engines stay monomorphic and fast, and a wrong pairing (an engine with another
//! family's events, say) does not compile.
//!
//! Architecture Invariant: `games` knows nothing of this module; the registry ties a
//! family's vocabulary (`family`) to its engine (`games`), and Ludii's adapter (`ludii`) to
//! both, from outside them. None of `family`, `games` or `ludii` imports it, so the graph is
//! family ← games ← ludii ← registry, without a cycle.

use crate::family::Family;
use crate::family::custodial::CustodialParams;
use crate::family::sowing::SowingParams;
use crate::family::spiral_race::SpiralRaceParams;
use crate::family::stick_race::StickRaceParams;
use crate::games::Rules;
use crate::games::custodial::{Custodial, CustodialError};
use crate::games::sowing::{Sowing, SowingError};
use crate::games::spiral_race::{SpiralRace, SpiralRaceError};
use crate::games::stick_race::{StickRace, StickRaceError};
use crate::ludii::replay;

// Visitors written against [`GameFamily`] name `F::Params`' trait beside it: it is `family`'s,
// re-exported so that one import serves them.
pub use crate::family::FamilyParams;

/// One engine family: its vocabulary, its engine, and how the engine is built.
pub trait GameFamily: 'static {
    /// Which family.
    const FAMILY: Family;
    /// The parameters a reading sets.
    type Params: FamilyParams;
    /// The engine.
    type Rules: Rules + Clone + std::fmt::Debug + Send;
    /// Why the engine refuses a set of parameters.
    type Error: std::error::Error + Send + Sync + 'static;
    /// Builds the engine, refusing combinations it cannot play.
    ///
    /// # Errors
    /// The engine's own error, naming the parameters at fault.
    fn build(params: &Self::Params) -> Result<Self::Rules, Self::Error>;
    /// The engine as the family-erased [`Engine`].
    fn wrap(rules: Self::Rules) -> Engine;
    /// Replays Ludii's recorded games through the engine with the family's Ludii adapter
    /// (`crate::ludii::replay`), or `None` where Ludii has no such game to record.
    fn ludii_replay(
        rules: &Self::Rules,
        game: &str,
        interpretation: &str,
        playouts: &[(usize, replay::Playout)],
    ) -> Option<Result<replay::Report, replay::ParseError>>;
}

/// Work to do with a family's types, before any engine is built.
pub trait FamilyVisitor {
    /// What it gives.
    type Output;
    /// Does it for family `F`.
    fn visit<F: GameFamily>(self) -> Self::Output;
}

/// Work to do with a built engine of any family, written once.
pub trait EngineVisitor {
    /// What it gives.
    type Output;
    /// Does it with the engine of family `F`.
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output;
}

/// Declares every family's engine once: the [`Engine`] enum, and the two dispatchers. The
/// families themselves, their ids and their parameter structs are declared in `family`.
macro_rules! families {
    ($( $family:ident : $marker:ident = $params:ty => $rules:ident, $error:ty
        $(, ludii $adapter:ident)?; )*) => {
        /// An engine of one family, built from a reading.
        // One engine is built per reading and run, never stored in bulk: its size does not
        // matter.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone)]
        pub enum Engine {
            $( #[doc = concat!("The ", stringify!($family), " engine.")] $family($rules), )*
        }

        $(
            #[doc = concat!("The ", stringify!($family), " family.")]
            #[derive(Debug, Clone, Copy)]
            pub struct $marker;

            impl GameFamily for $marker {
                const FAMILY: Family = Family::$family;
                type Params = $params;
                type Rules = $rules;
                type Error = $error;
                fn build(params: &$params) -> Result<$rules, $error> {
                    $rules::new(params)
                }
                fn wrap(rules: $rules) -> Engine {
                    Engine::$family(rules)
                }
                #[allow(unreachable_code, unused_variables)]
                fn ludii_replay(
                    rules: &$rules,
                    game: &str,
                    interpretation: &str,
                    playouts: &[(usize, replay::Playout)],
                ) -> Option<Result<replay::Report, replay::ParseError>> {
                    $( return Some(replay::replay(
                        &replay::$adapter(rules), game, interpretation, playouts,
                    )); )?
                    None
                }
            }
        )*

        impl Engine {
            /// Hands the engine, with its family's types, to `visitor`.
            pub fn visit<V: EngineVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( Engine::$family(rules) => visitor.visit::<$marker>(rules), )*
                }
            }

            /// The engine of family `F`, if this is one (for tests and worked examples that
            /// need one family's own API).
            pub fn get<F: GameFamily>(&self) -> Option<&F::Rules> {
                match self {
                    $( Engine::$family(rules) => (rules as &dyn std::any::Any).downcast_ref(), )*
                }
            }

            /// The engine's family.
            pub fn family(&self) -> Family {
                match self {
                    $( Engine::$family(_) => Family::$family, )*
                }
            }
        }

        impl Family {
            /// Hands the family's types to `visitor`.
            pub fn visit<V: FamilyVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $( Family::$family => visitor.visit::<$marker>(), )*
                }
            }
        }
    };
}

families! {
    Sowing: SowingFamily = SowingParams => Sowing, SowingError, ludii SowingAdapter;
    Custodial: CustodialFamily = CustodialParams => Custodial, CustodialError,
        ludii CustodialAdapter;
    StickRace: StickRaceFamily = StickRaceParams => StickRace, StickRaceError,
        ludii StickAdapter;
    SpiralRace: SpiralRaceFamily = SpiralRaceParams => SpiralRace, SpiralRaceError;
}

impl Engine {
    /// Replays Ludii's recorded games through this engine with its family's Ludii adapter;
    /// `None` where Ludii has no such game.
    pub fn ludii_replay(
        &self,
        game: &str,
        interpretation: &str,
        playouts: &[(usize, replay::Playout)],
    ) -> Option<Result<replay::Report, replay::ParseError>> {
        struct Replay<'a> {
            game: &'a str,
            interpretation: &'a str,
            playouts: &'a [(usize, replay::Playout)],
        }
        impl EngineVisitor for Replay<'_> {
            type Output = Option<Result<replay::Report, replay::ParseError>>;
            fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
                F::ludii_replay(rules, self.game, self.interpretation, self.playouts)
            }
        }
        self.visit(Replay {
            game,
            interpretation,
            playouts,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::any::TypeId;

    use super::*;
    use crate::family::ParamsVisitor;

    /// The registry names each family's parameter struct a second time, beside its engine:
    /// it must be the struct `family` declares for that family, or an engine would be built
    /// from another family's vocabulary.
    #[test]
    fn each_engine_takes_its_familys_own_parameters() {
        struct Declared;
        impl ParamsVisitor for Declared {
            type Output = TypeId;
            fn visit<P: FamilyParams>(self) -> TypeId {
                TypeId::of::<P>()
            }
        }
        struct Registered;
        impl FamilyVisitor for Registered {
            type Output = (Family, TypeId);
            fn visit<F: GameFamily>(self) -> (Family, TypeId) {
                (F::FAMILY, TypeId::of::<F::Params>())
            }
        }
        for &family in Family::ALL {
            let declared = family.visit_params(Declared);
            assert_eq!(family.visit(Registered), (family, declared), "{family}");
        }
    }
}
