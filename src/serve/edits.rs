//! The edit API (`crate::edit`) as the workbench calls it: a part path from the URL parsed (a path
//! the API cannot read is a bad request, 400), then the edit made; an edit the scenario refuses
//! (a locked part, no legal result, a lock that leaves no legal scenario) is a 409.

use crate::edit::myk::MykPart;
use crate::edit::nw3::Nw3Part;
use crate::myk::Scenario;
use crate::nw3::Fortress;
use crate::tables::Tables;

use super::error::ServeError;

fn bad(e: crate::Error) -> ServeError {
    ServeError::BadRequest(e.to_string())
}

fn refused(e: crate::Error) -> ServeError {
    ServeError::Refused(e.to_string())
}

pub fn myk_reroll(tables: &Tables, s: &mut Scenario, path: &str) -> Result<(), ServeError> {
    let part: MykPart = path.parse().map_err(bad)?;
    crate::edit::myk::reroll(tables, s, &part).map_err(refused)
}

pub fn nw3_reroll(tables: &Tables, f: &mut Fortress, path: &str) -> Result<(), ServeError> {
    let part: Nw3Part = path.parse().map_err(bad)?;
    crate::edit::nw3::reroll(tables, f, &part).map_err(refused)
}

pub fn myk_regenerate(tables: &Tables, s: &Scenario, seed: u64) -> Result<Scenario, ServeError> {
    crate::edit::myk::regenerate(tables, s, seed).map_err(refused)
}

pub fn nw3_regenerate(tables: &Tables, f: &Fortress, seed: u64) -> Result<Fortress, ServeError> {
    crate::edit::nw3::regenerate(tables, f, seed).map_err(refused)
}
