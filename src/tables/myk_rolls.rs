//! The roll tables the MYK generator rolls on, and the trap and base records their rows name,
//! found by name once when the tables are built (embedded or `--tables DIR`), so a roll during
//! generation is an index, never a name hashed and compared.
//!
//! A table a GM's folder lacks resolves to nothing: the generator reports the first missing
//! required table by name (as it always did), and an optional one rolls as before (no row).

use crate::tables::Located;
use crate::tables::myk::{MykData, TrapCategory};
use crate::tables::name_index::NameIndex;
use crate::tables::roll::RollTable;

/// A roll table the MYK generator rolls on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MykRoll {
    Flair,
    Place,
    Basic,
    Environment,
    Bases,
    NpcName,
    NpcAge,
    NpcSex,
    FrameRole,
    Introduction,
    Success,
    Failure,
    Puzzle,
    NpcPersonality,
    NpcAppearance,
    NpcAbility,
    NpcSpecialTrait,
    /// The trap table of a category, in [`TrapCategory::ALL`] order.
    Traps(usize),
    /// The random encounter table for average level 1-6, by level - 1.
    Encounters(usize),
}

/// Every table the MYK generator must find, in the order a missing one is reported.
const REQUIRED: [MykRoll; 21] = [
    MykRoll::Flair,
    MykRoll::Place,
    MykRoll::Basic,
    MykRoll::Environment,
    MykRoll::Traps(0),
    MykRoll::Traps(1),
    MykRoll::Traps(2),
    MykRoll::Traps(3),
    MykRoll::Traps(4),
    MykRoll::Traps(5),
    MykRoll::Bases,
    MykRoll::Encounters(0),
    MykRoll::NpcName,
    MykRoll::NpcAge,
    MykRoll::NpcSex,
    MykRoll::FrameRole,
    MykRoll::Introduction,
    MykRoll::Success,
    MykRoll::Failure,
    MykRoll::Puzzle,
    MykRoll::NpcPersonality,
];

/// The random encounter tables by the court's average level (1-6; 6 above that).
const ENCOUNTER_TABLES: [&str; 6] = [
    "myk.encounters.level1",
    "myk.encounters.level2",
    "myk.encounters.level3",
    "myk.encounters.level4",
    "myk.encounters.level5",
    "myk.encounters.level6",
];

/// How many slots [`MykRoll::slot`] spans.
const SLOTS: usize = 17 + 6 + 6;

impl MykRoll {
    /// The table's name in the table files.
    pub fn name(self) -> &'static str {
        match self {
            MykRoll::Flair => "myk.names.flair",
            MykRoll::Place => "myk.names.place",
            MykRoll::Basic => "myk.names.basic",
            MykRoll::Environment => "myk.environment",
            MykRoll::Bases => "myk.bases",
            MykRoll::NpcName => "myk.npc.name",
            MykRoll::NpcAge => "myk.npc.age",
            MykRoll::NpcSex => "myk.npc.sex",
            MykRoll::FrameRole => "myk.frame.role",
            MykRoll::Introduction => "myk.frame.introduction",
            MykRoll::Success => "myk.frame.success",
            MykRoll::Failure => "myk.frame.failure",
            MykRoll::Puzzle => "myk.frame.puzzle",
            MykRoll::NpcPersonality => "myk.npc.personality",
            MykRoll::NpcAppearance => "myk.npc.appearance",
            MykRoll::NpcAbility => "myk.npc.ability",
            MykRoll::NpcSpecialTrait => "myk.npc.special_trait",
            MykRoll::Traps(i) => TrapCategory::ALL[i.min(5)].table(),
            MykRoll::Encounters(i) => ENCOUNTER_TABLES[i.min(5)],
        }
    }

    /// The trap table of a category.
    pub fn traps(category: TrapCategory) -> MykRoll {
        MykRoll::Traps(TrapCategory::ALL.iter().position(|&c| c == category).unwrap_or(0))
    }

    /// The random encounter table for a court of average level `level` (1-6; 6 above that).
    pub fn encounters(level: u32) -> MykRoll {
        MykRoll::Encounters(level.clamp(1, 6) as usize - 1)
    }

    fn slot(self) -> usize {
        match self {
            MykRoll::Traps(i) => 17 + i.min(5),
            MykRoll::Encounters(i) => 23 + i.min(5),
            MykRoll::Flair => 0,
            MykRoll::Place => 1,
            MykRoll::Basic => 2,
            MykRoll::Environment => 3,
            MykRoll::Bases => 4,
            MykRoll::NpcName => 5,
            MykRoll::NpcAge => 6,
            MykRoll::NpcSex => 7,
            MykRoll::FrameRole => 8,
            MykRoll::Introduction => 9,
            MykRoll::Success => 10,
            MykRoll::Failure => 11,
            MykRoll::Puzzle => 12,
            MykRoll::NpcPersonality => 13,
            MykRoll::NpcAppearance => 14,
            MykRoll::NpcAbility => 15,
            MykRoll::NpcSpecialTrait => 16,
        }
    }

    fn all() -> impl Iterator<Item = MykRoll> {
        const PLAIN: [MykRoll; 17] = [
            MykRoll::Flair,
            MykRoll::Place,
            MykRoll::Basic,
            MykRoll::Environment,
            MykRoll::Bases,
            MykRoll::NpcName,
            MykRoll::NpcAge,
            MykRoll::NpcSex,
            MykRoll::FrameRole,
            MykRoll::Introduction,
            MykRoll::Success,
            MykRoll::Failure,
            MykRoll::Puzzle,
            MykRoll::NpcPersonality,
            MykRoll::NpcAppearance,
            MykRoll::NpcAbility,
            MykRoll::NpcSpecialTrait,
        ];
        PLAIN.into_iter().chain((0..6).map(MykRoll::Traps)).chain((0..6).map(MykRoll::Encounters))
    }
}

/// The MYK generator's tables by position in `Tables::rolls`, and the records their rows name.
#[derive(Clone, Debug, Default)]
pub struct MykRolls {
    /// Position + 1 of each table in `Tables::rolls` (0: not in the tables), by [`MykRoll::slot`].
    tables: Vec<u32>,
    /// Per trap category table, per row: position + 1 of the trap its `result` names (0: none).
    trap_rows: [Vec<u32>; 6],
    /// Per row of the base table: position + 1 of the base its `result` names (0: none).
    base_rows: Vec<u32>,
    /// Per random encounter table (level - 1): where each row's groups start in
    /// `encounter_monsters` (one entry more than rows)...
    encounter_starts: [Vec<u32>; 6],
    /// ...and per group, position + 1 of the monster it names (0: not in the bestiary).
    encounter_monsters: [Vec<u32>; 6],
}

impl MykRolls {
    /// Finds every table and every trap and base a row names (the first record of a name, as a
    /// look-up by name finds it).
    pub fn resolve(rolls: &[Located<RollTable>], index: &NameIndex, data: &MykData) -> MykRolls {
        let find = |name: &str| index.get(name, |i| &rolls[i].item.name);
        let mut tables = vec![0u32; SLOTS];
        for r in MykRoll::all() {
            tables[r.slot()] = find(r.name()).map_or(0, |i| i as u32 + 1);
        }
        let rows_of = |r: MykRoll, record: &dyn Fn(&str) -> Option<usize>| -> Vec<u32> {
            find(r.name()).map_or_else(Vec::new, |i| {
                rolls[i]
                    .item
                    .rows
                    .iter()
                    .map(|row| row.result.as_deref().and_then(record).map_or(0, |k| k as u32 + 1))
                    .collect()
            })
        };
        let trap_rows = std::array::from_fn(|c| rows_of(MykRoll::Traps(c), &|n| data.trap_position(n)));
        let base_rows = rows_of(MykRoll::Bases, &|n| data.base_position(n));
        let mut encounter_starts: [Vec<u32>; 6] = Default::default();
        let mut encounter_monsters: [Vec<u32>; 6] = Default::default();
        for (c, (starts, monsters)) in encounter_starts.iter_mut().zip(&mut encounter_monsters).enumerate() {
            let Some(i) = find(MykRoll::Encounters(c).name()) else { continue };
            for row in &rolls[i].item.rows {
                starts.push(monsters.len() as u32);
                monsters
                    .extend(row.groups.iter().map(|g| data.monster_position(&g.monster).map_or(0, |k| k as u32 + 1)));
            }
            starts.push(monsters.len() as u32);
        }
        MykRolls { tables, trap_rows, base_rows, encounter_starts, encounter_monsters }
    }

    /// The position of the monster group `group` of row `row` of an encounter table names.
    pub fn encounter_monster(&self, table: MykRoll, row: usize, group: usize) -> Option<usize> {
        let MykRoll::Encounters(c) = table else { return None };
        let (starts, monsters) = (self.encounter_starts.get(c)?, self.encounter_monsters.get(c)?);
        let (from, to) = (*starts.get(row)? as usize, *starts.get(row + 1)? as usize);
        if from + group >= to {
            return None;
        }
        Self::record(monsters, from + group)
    }

    /// The table's position in `Tables::rolls`, when the tables have it.
    pub fn position(&self, r: MykRoll) -> Option<usize> {
        match self.tables.get(r.slot()) {
            Some(&i) if i > 0 => Some(i as usize - 1),
            _ => None,
        }
    }

    /// The first table the generator needs that the tables lack.
    pub fn missing_required(&self) -> Option<&'static str> {
        REQUIRED.iter().find(|r| self.position(**r).is_none()).map(|r| r.name())
    }

    /// The position of the trap named by row `row` of the trap table of category index `c`.
    pub fn trap_of_row(&self, c: usize, row: usize) -> Option<usize> {
        Self::record(self.trap_rows.get(c)?, row)
    }

    /// The position of the base named by row `row` of the base table.
    pub fn base_of_row(&self, row: usize) -> Option<usize> {
        Self::record(&self.base_rows, row)
    }

    fn record(rows: &[u32], row: usize) -> Option<usize> {
        match rows.get(row) {
            Some(&k) if k > 0 => Some(k as usize - 1),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generator_table_resolves_to_the_table_of_its_name() {
        let t = crate::tables::Tables::embedded().expect("embedded tables load");
        assert_eq!(t.myk_rolls.missing_required(), None);
        for r in MykRoll::all() {
            let by_name = t.roll_table(r.name()).expect("built-in table");
            assert!(std::ptr::eq(t.myk_table(r).expect("resolved"), by_name), "{}", r.name());
        }
        assert_eq!(MykRoll::traps(TrapCategory::Combat).name(), "myk.traps.combat");
        assert_eq!(MykRoll::encounters(9).name(), "myk.encounters.level6");
    }

    #[test]
    fn a_trap_base_or_encounter_row_resolves_to_the_record_it_names() {
        let t = crate::tables::Tables::embedded().expect("embedded tables load");
        for (c, cat) in TrapCategory::ALL.iter().enumerate() {
            let table = t.roll_table(cat.table()).expect("trap table");
            for (i, row) in table.rows.iter().enumerate() {
                let by_name = row.result.as_deref().and_then(|n| t.myk.trap(n));
                let resolved = t.myk_rolls.trap_of_row(c, i).map(|k| &t.myk.traps[k]);
                assert_eq!(
                    by_name.map(|x| x as *const _),
                    resolved.map(|x| x as *const _),
                    "{} {}",
                    cat.table(),
                    row.roll
                );
            }
        }
        for level in 1..=6 {
            let r = MykRoll::encounters(level);
            let table = t.roll_table(r.name()).expect("encounter table");
            for (i, row) in table.rows.iter().enumerate() {
                for (k, g) in row.groups.iter().enumerate() {
                    let by_name = t.myk.monster(&g.monster);
                    let resolved = t.myk_rolls.encounter_monster(r, i, k).map(|m| &t.myk.monsters[m]);
                    assert_eq!(by_name.map(|x| x as *const _), resolved.map(|x| x as *const _), "{}", g.monster);
                }
                assert_eq!(t.myk_rolls.encounter_monster(r, i, row.groups.len()), None);
            }
        }
        let table = t.roll_table("myk.bases").expect("base table");
        for (i, row) in table.rows.iter().enumerate() {
            let by_name = row.result.as_deref().and_then(|n| t.myk.base(n));
            let resolved = t.myk_rolls.base_of_row(i).map(|k| &t.myk.bases[k]);
            assert_eq!(by_name.map(|x| x as *const _), resolved.map(|x| x as *const _), "{}", row.roll);
        }
    }
}
