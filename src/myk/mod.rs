//! Make You Kingdom dungeons: maps, corridors, entrances, stocking under the limits, rule checks.

pub mod check;
pub mod limits;
pub mod model;
