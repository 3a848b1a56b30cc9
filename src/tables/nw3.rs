//! Night Wizard 3rd records (our own content, written to fit the NW3 fortress rules).

use serde::Deserialize;

use crate::error::Result;

/// The `[nw3]` part of a table file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nw3File {}

/// All NW3 records, in file order.
#[derive(Clone, Debug, Default)]
pub struct Nw3Data {}

impl Nw3Data {
    pub fn from_files(_files: Vec<(String, Nw3File)>) -> Result<Nw3Data> {
        Ok(Nw3Data {})
    }
}
