//! The edit API (`crate::edit`) as the workbench calls it: a part path from the URL parsed, the
//! library's error sorted into "cannot read this" (400) or "the scenario refuses it" (409).

use crate::myk::Scenario;
use crate::nw3::Fortress;
use crate::tables::Tables;

use super::error::ServeError;

pub fn myk_reroll(_tables: &Tables, _s: &mut Scenario, path: &str) -> Result<(), ServeError> {
    Err(ServeError::Refused(format!("rerolling `{path}` is not wired yet")))
}

pub fn nw3_reroll(_tables: &Tables, _f: &mut Fortress, path: &str) -> Result<(), ServeError> {
    Err(ServeError::Refused(format!("rerolling `{path}` is not wired yet")))
}

pub fn myk_regenerate(_tables: &Tables, _s: &Scenario, _seed: u64) -> Result<Scenario, ServeError> {
    Err(ServeError::Refused("regenerating is not wired yet".into()))
}

pub fn nw3_regenerate(_tables: &Tables, _f: &Fortress, _seed: u64) -> Result<Fortress, ServeError> {
    Err(ServeError::Refused("regenerating is not wired yet".into()))
}
