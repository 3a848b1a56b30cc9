//! The numbers the NW3 rules fix (seed 000, ~l.960-1013; seed 002), shared by the generator,
//! `check` and the booklet so they cannot drift apart.

/// Danger Sense difficulty that reveals a secret gate without its event (seed 000 ~l.962).
pub const DANGER_SENSE: u32 = 15;
/// Danger Sense difficulty when nothing else sets it (seed 000 ~l.1003).
pub const DANGER_SENSE_DEFAULT: u32 = 12;
/// Added to an ambusher's Perception for the Danger Sense difficulty (seed 000 ~l.1003).
pub const AMBUSH_BONUS: u32 = 7;
/// Any Seven: an enemy's initiative is its SPD plus this (seed 001).
pub const ANY_SEVEN: u32 = 7;
/// Appearance difficulty in the Entrance area, and what each gate from it adds (seed 000 ~l.966).
pub const APPEARANCE_BASE: u32 = 8;
pub const APPEARANCE_PER_GATE: u32 = 2;
/// Prana a PC spends to stop one Logic applying to them (seed 000 ~l.1015, seed 002).
pub const LOGIC_REMOVAL_PRANA: u32 = 1;
/// The Bad Statuses of the combat rules (seed 001), as the skill and trap texts name them; the
/// booklet's glossary explains those a fortress names.
pub const BAD_STATUSES: [&str; 5] = ["Pressure", "Rigor", "Poison", "Paralysis", "Dazed"];
