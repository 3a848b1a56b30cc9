//! Make You Kingdom dungeons: maps, corridors, entrances, stocking under the limits, rule checks.

pub mod check;
pub mod clues;
pub mod frame;
pub mod generate;
pub mod layout;
pub mod limits;
pub mod model;
pub mod monsters;
pub mod reach;
pub mod ruler;
pub mod story;
pub mod traps;
pub mod weak_points;

pub use check::check;
pub use generate::{MykParams, court_levels, generate};
pub use model::Scenario;
