//! Night Wizard 3rd Fortresses: area/gate graph, gates, population, solvability.
//!
//! [`generate`](generate::generate) builds a [`Fortress`] from the tables, options and a seed;
//! [`check`](check::check) lists every rule it breaks (the generator runs the same check);
//! [`layout`](layout::layout) places the areas on a grid for the area map.

pub mod check;
mod check_combat;
mod check_episode;
pub mod combat;
pub mod episode;
// The one finale of an episode, decided before its texts: a part of the episode, named as
// `nw3::finale`.
pub use episode::finale;
pub(crate) mod events;
// The facts many texts tell (the victim, hooks, the former self's sex, the Logic's sign, an
// event's stake), each decided once.
pub mod facts;
pub mod generate;
pub mod judges;
pub mod layout;
pub mod model;
pub(crate) mod net;
pub mod opener;
pub mod params;
pub mod ruler_story;
pub mod rules;
pub(crate) mod stock;
pub mod text;

pub use check::check;
pub use events::event_outcomes;
pub use generate::{FortressParams, generate};
pub use layout::{Layout, Placement, layout};
pub use model::{
    Area, AreaKind, Attack, Core, Enemy, EnemyGroup, EntranceCondition, Episode, Event, EventKind, Fortress, Gate,
    GateKind, GateRef, Generator, Logic, Object, Opener, Party, Ruler, Skill, Stats, System, Trap,
};
