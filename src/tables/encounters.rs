//! The MYK random encounter tables as the generator and the booklet use them: the book's rows with
//! every monster whose stats the source lost taken out (Gargoyle), so such a monster never reaches
//! a scenario. The roll tables themselves stay as transcribed (`tables show` prints the book's).

use std::collections::BTreeMap;

use crate::tables::Located;
use crate::tables::myk::MykData;
use crate::tables::roll::{Group, RollTable};

/// One outcome of an encounter table and the stockable groups it brings.
#[derive(Clone, Debug, PartialEq)]
pub struct EncounterRow {
    pub roll: u32,
    pub groups: Vec<Group>,
    /// Book monsters left out because their stats are unknown.
    pub dropped: Vec<String>,
}

/// Every roll table holding monster groups, filtered to complete monsters, by table name.
pub fn stockable(rolls: &[Located<RollTable>], data: &MykData) -> BTreeMap<String, Vec<EncounterRow>> {
    let mut out = BTreeMap::new();
    for t in rolls.iter().map(|l| &l.item).filter(|t| t.rows.iter().any(|r| !r.groups.is_empty())) {
        let mut rows = Vec::new();
        for row in &t.rows {
            let (groups, dropped): (Vec<&Group>, Vec<&Group>) =
                row.groups.iter().partition(|g| data.monster(&g.monster).is_some_and(|m| m.complete()));
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
