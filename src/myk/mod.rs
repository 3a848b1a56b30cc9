//! Make You Kingdom dungeons: maps, corridors, entrances, stocking under the limits, rule checks.
