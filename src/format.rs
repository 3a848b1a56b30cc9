//! The scenario file's format version, and the upgrades that let older files load.
//!
//! Every scenario JSON carries `"format": N` right after `"system"`. Files written before the field
//! existed (dungeonsmith 0.1.0 as first released) are format 1. On read, a file's JSON is upgraded
//! step by step to [`CURRENT`] before it is parsed into the typed model, so each change to the
//! model that older files cannot satisfy adds one step here; a file newer than this program is
//! refused with one line naming its version.

use serde_json::Value;

/// The format this program writes, for both systems.
pub const CURRENT: u32 = 2;

/// Upgrades a parsed scenario document in place to [`CURRENT`], or says why it cannot.
/// Returns the version the file had.
pub fn upgrade(system: &str, doc: &mut Value) -> Result<u32, String> {
    let version = match doc.get("format") {
        None => 1,
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 && n <= u64::from(u32::MAX) => n as u32,
            _ => return Err(format!("`format` must be a whole number from 1 to {CURRENT}, found {v}")),
        },
    };
    if version > CURRENT {
        return Err(format!(
            "format {version} is newer than this dungeonsmith reads (format {CURRENT} and older); \
             use a newer dungeonsmith"
        ));
    }
    let mut v = version;
    while v < CURRENT {
        match (system, v) {
            ("myk", 1) => myk_1_to_2(doc),
            ("nw3", 1) => nw3_1_to_2(doc),
            _ => return Err(format!("no upgrade from format {v} for system `{system}`")),
        }
        v += 1;
    }
    set_format(doc, CURRENT);
    Ok(version)
}

/// Sets `"format"`; writers re-serialise through the typed model, which fixes the key order.
fn set_format(doc: &mut Value, version: u32) {
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("format".into(), Value::from(version));
    }
}

/// Format 1 → 2 for MYK. Format 2 added `format` itself; later steps of this release add their
/// own fields with defaults here.
fn myk_1_to_2(_doc: &mut Value) {}

/// Format 1 → 2 for NW3. Format-1 fortresses have no enemy stat blocks, group descriptions,
/// ambushes or Danger Sense difficulties; those fields parse as empty, and the loader then fills
/// them from the tables by enemy name and the party in `params`
/// ([`crate::nw3::combat::fill_from_tables`]), which needs the tables this step has not got.
fn nw3_1_to_2(_doc: &mut Value) {}
