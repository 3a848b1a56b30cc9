//! Make You Kingdom dungeons: maps, corridors, entrances, stocking under the limits, rule checks.

pub mod battlefield;
pub mod check;
pub mod clues;
pub mod danger;
pub mod frame;
pub mod generate;
pub mod goal;
pub mod layout;
pub mod limits;
pub mod model;
pub mod monsters;
pub mod movement;
pub mod objects;
pub mod params;
pub mod reach;
pub mod ruler;
pub mod story;
// The court's seats, stakes and Prologue people: a part of the story, named as `myk::court`.
pub use story::court;
pub mod named;
pub mod traps;
pub mod weak_points;
pub mod weak_story;

pub use check::check;
pub use generate::generate;
pub use model::Scenario;
pub use params::{MykParams, court_levels};
