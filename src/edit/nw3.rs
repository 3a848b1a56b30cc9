//! Night Wizard 3rd rerolls, locks and `--from`: the agreed signatures only. The implementation is
//! another branch's (w12b); until it is merged every call says fortress rerolls are not available.

use std::fmt;
use std::str::FromStr;

use crate::edit::Reroll;
use crate::error::{Error, Result};
use crate::nw3::Fortress;
use crate::tables::Tables;

/// Which part of an area is rolled anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaPart {
    All,
    Enemies,
    Trap,
    Event,
    Objects,
}

/// A part of a Fortress that can be rerolled: `area5`, `area5/enemies`, ..., `frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nw3Part {
    Area { id: u32, what: AreaPart },
    Frame,
}

fn unavailable() -> Error {
    Error::NotImplemented { what: "rerolling a fortress in this build" }
}

impl fmt::Display for Nw3Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = |w: AreaPart| match w {
            AreaPart::All => "",
            AreaPart::Enemies => "/enemies",
            AreaPart::Trap => "/trap",
            AreaPart::Event => "/event",
            AreaPart::Objects => "/objects",
        };
        match self {
            Nw3Part::Frame => f.write_str("frame"),
            Nw3Part::Area { id, what } => write!(f, "area{id}{}", suffix(*what)),
        }
    }
}

impl FromStr for Nw3Part {
    type Err = Error;
    fn from_str(_: &str) -> Result<Self> {
        Err(unavailable())
    }
}

pub fn reroll(_tables: &Tables, _f: &mut Fortress, _part: &Nw3Part) -> Result<()> {
    Err(unavailable())
}

pub fn replay(_tables: &Tables, _f: &mut Fortress, _rerolls: &[Reroll]) -> Result<()> {
    Err(unavailable())
}

pub fn regenerate(_tables: &Tables, _from: &Fortress, _seed: u64) -> Result<Fortress> {
    Err(unavailable())
}
