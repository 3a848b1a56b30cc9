//! The MYK random encounter tables as the generator and the booklet use them: the book's rows with
//! every monster whose stats the source lost taken out (Gargoyle), so such a monster never reaches
//! a scenario. The roll tables themselves stay as transcribed (`tables show` prints the book's).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::tables::Located;
use crate::tables::roll::{Group, Position, RollTable};
use crate::tables::shared::{SharedList, SharedStr};

/// One outcome of an encounter table and the stockable groups it brings.
#[derive(Clone, Debug, PartialEq)]
pub struct EncounterRow {
    pub roll: u32,
    pub groups: Vec<Group>,
    /// Book monsters left out because their stats are unknown.
    pub dropped: Vec<String>,
}

/// Every roll table holding monster groups, filtered to the monsters `complete` accepts (those
/// with every stat known), by table name.
pub fn stockable(rolls: &[Located<RollTable>], complete: impl Fn(&str) -> bool) -> BTreeMap<String, Vec<EncounterRow>> {
    let mut out = BTreeMap::new();
    for t in rolls.iter().map(|l| &l.item).filter(|t| t.rows.iter().any(|r| !r.groups.is_empty())) {
        let mut rows = Vec::new();
        for row in &t.rows {
            let (groups, dropped): (Vec<&Group>, Vec<&Group>) = row.groups.iter().partition(|g| complete(&g.monster));
            let groups: Vec<Group> = groups.into_iter().cloned().collect();
            let mut dropped: Vec<String> = dropped.into_iter().map(|g| g.monster.as_str().to_owned()).collect();
            dropped.dedup();
            // A bad roll string is reported by coverage checking; here it simply yields no outcome.
            for roll in t.outcomes_of(row).unwrap_or_default() {
                rows.push(EncounterRow { roll, groups: groups.clone(), dropped: dropped.clone() });
            }
        }
        out.insert(t.name.clone(), rows);
    }
    out
}

/// An outcome of a random encounter table resolved for a court: the scenario's
/// `encounters.rows` entry (`myk::model::EncounterRow`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolvedRow {
    pub roll: u32,
    pub groups: Vec<ResolvedGroup>,
}

/// A group of a resolved row, its count worked out for the court's size
/// (`myk::model::EncounterGroup`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolvedGroup {
    pub name: SharedStr,
    pub position: Position,
    pub count: u32,
}

/// Courts whose encounter tables are kept once resolved: average levels 1-6 (the book's tables)
/// by sizes 1-12 (every court the generator takes).
pub const RESOLVED_LEVELS: usize = 6;
pub const RESOLVED_SIZES: usize = 12;

/// Each encounter table resolved for a court, made on first use and shared by every scenario for
/// a court of that level and size (they are all the same).
pub type ResolvedCache = [[std::sync::OnceLock<SharedList<ResolvedRow>>; RESOLVED_SIZES]; RESOLVED_LEVELS];

/// The rows of `table` (the stockable rows of a random encounter table) for a court of `size`.
pub fn resolve(table: Option<&[EncounterRow]>, size: u32) -> SharedList<ResolvedRow> {
    let rows = table.unwrap_or_default().iter().map(|row| ResolvedRow {
        roll: row.roll,
        groups: row
            .groups
            .iter()
            .map(|g| ResolvedGroup { name: g.monster.clone(), position: g.position, count: g.count.resolve(size) })
            .collect(),
    });
    SharedList::from(rows.collect::<Vec<_>>())
}
