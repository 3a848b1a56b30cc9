//! The MYK booklet's play aids, joined from the tables: the effect of every skill the scenario's
//! monsters know, the treasure each group yields and the Treasure Tables that serves, the
//! Negotiation Table and the random encounter monsters with their stat lines.

use serde::Serialize;

use crate::myk::model::Scenario;
use crate::tables::Tables;
use crate::tables::myk::Monster;
use crate::tables::roll::RollTable;
use crate::tables::shared::SharedStr;
use crate::tables::skills::SkillRef;

/// One skill in "Skills in this scenario".
#[derive(Serialize)]
pub struct SkillView {
    pub label: String,
    pub timing: String,
    pub target: Option<String>,
    pub check: Option<String>,
    /// The effect in our words, or why it is unknown.
    pub effect: String,
    pub known: bool,
    /// The scenario's monsters that know it.
    pub users: String,
}

/// A printed roll table: title, dice, rows.
#[derive(Serialize)]
pub struct TableView {
    pub name: String,
    pub title: String,
    pub dice: String,
    /// When and how the table is rolled, for the tables printed because a text cites them (the
    /// booklet's own sections say it for the others).
    pub note: Option<String>,
    pub rows: Vec<RowView>,
}

#[derive(Serialize)]
pub struct RowView {
    pub roll: String,
    pub text: String,
}

/// A monster of the random encounter table with its stat line.
#[derive(Serialize)]
pub struct EncounterMonsterView {
    pub name: SharedStr,
    pub category: String,
    pub level: u32,
    pub stats: String,
    pub skills: String,
    pub materials: String,
    /// The Treasure Table for one of them (a group's summed levels: see the Treasure section).
    pub treasure: String,
}

/// Every monster the scenario puts in front of the court, once, by name: room monsters, rulers,
/// and the monsters of its random encounter table (only those with known stats).
pub fn scenario_monsters<'a>(s: &Scenario, tables: &'a Tables) -> Vec<&'a Monster> {
    let mut names: Vec<&str> = Vec::new();
    for r in s.maps.iter().flat_map(|m| &m.rooms) {
        names.extend(r.monsters.iter().map(|g| g.name.as_str()));
        names.extend(r.ruler.iter().map(|ru| ru.name.as_str()));
    }
    names.extend(s.encounters.rows.iter().flat_map(|r| &r.groups).map(|g| g.name.as_str()));
    names.sort_unstable();
    names.dedup();
    names.into_iter().filter_map(|n| tables.myk.monster(n)).filter(|m| m.complete() || placed(s, &m.name)).collect()
}

/// True when a room (not just the encounter table) holds this monster.
fn placed(s: &Scenario, name: &str) -> bool {
    s.maps
        .iter()
        .flat_map(|m| &m.rooms)
        .any(|r| r.monsters.iter().any(|g| g.name == name) || r.ruler.as_ref().is_some_and(|ru| ru.name == name))
}

/// Every skill of every monster in the scenario, once, sorted by label (ignoring case).
pub fn skills(s: &Scenario, tables: &Tables) -> Vec<SkillView> {
    let monsters = scenario_monsters(s, tables);
    let mut labels: Vec<&str> = monsters.iter().flat_map(|m| &m.skills).map(|s| s.as_str()).collect();
    labels.sort_unstable_by_key(|l| (l.to_lowercase(), *l));
    labels.dedup();
    labels
        .into_iter()
        .map(|label| {
            let users: Vec<&str> =
                monsters.iter().filter(|m| m.skills.iter().any(|x| x == label)).map(|m| m.name.as_str()).collect();
            let users = users.join(", ");
            match tables.myk.skills.for_label(label) {
                Some(SkillRef::Known(k)) => SkillView {
                    label: label.to_string(),
                    timing: k.timing.clone(),
                    // "See Below" points into the book's text; the effect already says it.
                    target: k.target.clone().filter(|t| t != "See Below"),
                    check: k.check.clone().filter(|c| c != "See Below"),
                    effect: k.effect.clone(),
                    known: true,
                    users,
                },
                Some(SkillRef::Unknown(u)) => SkillView {
                    label: label.to_string(),
                    timing: "unknown".into(),
                    target: None,
                    check: None,
                    effect: format!("Effect lost in the source ({}); rule it as you see fit.", short(&u.reason)),
                    known: false,
                    users,
                },
                None => SkillView {
                    label: label.to_string(),
                    timing: "unknown".into(),
                    target: None,
                    check: None,
                    effect: "No record in these tables.".into(),
                    known: false,
                    users,
                },
            }
        })
        .collect()
}

/// The first clause of a reason, without a leading line reference ("l.7743: ..."), for a one-line
/// note.
fn short(reason: &str) -> &str {
    let mut r = reason.trim();
    if let Some(rest) = r.strip_prefix("l.")
        && let Some((num, after)) = rest.split_once(':')
        && num.chars().all(|c| c.is_ascii_digit() || c == '-')
    {
        r = after.trim();
    }
    r.split(['.', ';']).next().unwrap_or(r).trim()
}

/// A Treasure Table and the levels it serves: one monster's level, or a group's summed levels.
struct TreasureBand<'a> {
    table: &'a RollTable,
    individual: (u32, u32),
    total: (u32, u32),
}

/// Reads "Individual Level 6-10 / Total Levels 10-15" (or "21+ / 31+") from a table's title.
fn band(t: &RollTable) -> Option<TreasureBand<'_>> {
    fn range(s: &str) -> Option<(u32, u32)> {
        let s = s.trim();
        if let Some(a) = s.strip_suffix('+') {
            return Some((a.trim().parse().ok()?, u32::MAX));
        }
        let (a, b) = s.split_once('-')?;
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    }
    let rest = t.title.split_once("Individual Level")?.1;
    let (ind, tot) = rest.split_once('/')?;
    let tot = tot.trim().strip_prefix("Total Levels")?;
    Some(TreasureBand { table: t, individual: range(ind)?, total: range(tot)? })
}

/// The Treasure Tables of the tables (`myk.treasure.*`), in file order.
fn bands(tables: &Tables) -> Vec<TreasureBand<'_>> {
    tables.rolls.iter().map(|l| &l.item).filter(|t| t.name.starts_with("myk.treasure.")).filter_map(band).collect()
}

fn within(level: u32, (a, b): (u32, u32)) -> bool {
    (a..=b).contains(&level)
}

/// A short name for a Treasure Table in the room key: "Level 6-10".
fn short_title(b: &TreasureBand<'_>, total: bool) -> String {
    let (a, z) = if total { b.total } else { b.individual };
    let what = if total { "Total" } else { "Level" };
    if z == u32::MAX { format!("{what} {a}+") } else { format!("{what} {a}-{z}") }
}

/// How a group of `count` monsters of `level` yields treasure, naming the tables by their short
/// titles (printed in full under "Treasure").
pub fn treasure_line(tables: &Tables, level: u32, count: u32) -> String {
    let bands = bands(tables);
    let Some(one) = bands.iter().find(|b| within(level, b.individual)) else { return String::new() };
    if count <= 1 {
        return format!("1D6 on the {} Treasure Table", short_title(one, false));
    }
    let sum = level * count;
    match bands.iter().find(|b| within(sum, b.total)) {
        Some(all) => format!(
            "1D6 each on the {} Treasure Table, or (declared first) 1D6 once on the {} table for all {count} (total level {sum})",
            short_title(one, false),
            short_title(all, true)
        ),
        None => format!("1D6 each on the {} Treasure Table", short_title(one, false)),
    }
}

/// The Treasure Tables the scenario's monsters and rulers can roll on (placed ones and those of
/// its random encounter table), in table order.
pub fn treasure_tables(s: &Scenario, tables: &Tables) -> Vec<TableView> {
    let mut wanted: Vec<(u32, u32)> = Vec::new(); // (level, count)
    for r in s.maps.iter().flat_map(|m| &m.rooms) {
        wanted.extend(r.monsters.iter().map(|g| (g.level, g.count)));
        wanted.extend(r.ruler.iter().map(|ru| (ru.level, 1)));
    }
    for g in s.encounters.rows.iter().flat_map(|r| &r.groups) {
        if let Some(level) = tables.myk.monster(&g.name).filter(|m| m.complete()).and_then(|m| m.level) {
            wanted.push((level, g.count));
        }
    }
    bands(tables)
        .into_iter()
        .filter(|b| wanted.iter().any(|&(l, n)| within(l, b.individual) || (n > 1 && within(l * n, b.total))))
        .map(|b| table_view(b.table))
        .collect()
}

/// A roll table as printed rows.
pub fn table_view(t: &RollTable) -> TableView {
    TableView {
        name: t.name.clone(),
        title: t.title.clone(),
        dice: t.dice.label().to_string(),
        note: None,
        rows: t.rows.iter().map(|r| RowView { roll: r.roll.clone(), text: r.text() }).collect(),
    }
}

/// The Negotiation Table, when the tables hold it.
pub fn negotiation(tables: &Tables) -> Option<TableView> {
    tables.roll_table("myk.negotiation").map(table_view)
}

/// The book's roll tables the booklet's texts cite by title ("roll on the Birth Table", "a
/// Weakness Table item") or by the name of their family ("a Rest Table roll": all four Rest
/// Tables, as the player picks one) and print nowhere else (`printed`: titles the booklet already
/// carries), by title, each with its note, so each table a result, trap or weak point sends the
/// GM to is in the booklet; and, in turn, the tables those printed rows cite (the Market Table a
/// Wandering Table row rolls on), until no new one is cited.
pub fn cited_tables(text: &str, printed: &[&str], tables: &Tables) -> Vec<TableView> {
    let candidates: Vec<&RollTable> = tables
        .rolls
        .iter()
        .map(|r| &r.item)
        .filter(|t| t.name.starts_with("myk.") && t.title.ends_with(" Table"))
        .filter(|t| !printed.contains(&t.title.as_str()))
        .collect();
    let cited = |t: &RollTable, text: &str| {
        text.contains(t.title.as_str()) || t.cited_as.as_deref().is_some_and(|c| text.contains(c))
    };
    let mut found: Vec<&RollTable> = Vec::new();
    let mut text = text.to_string();
    loop {
        let before = found.len();
        for &t in &candidates {
            // Once per title: two files may hold tables of one title.
            if cited(t, &text) && !found.iter().any(|f| f.title == t.title) {
                found.push(t);
            }
        }
        if found.len() == before {
            break;
        }
        // The rows just added may cite further tables: scan only them on the next pass.
        let added = &found[before..];
        let notes = added.iter().filter_map(|t| t.note.clone());
        text = added.iter().flat_map(|t| &t.rows).map(|r| r.text()).chain(notes).collect::<Vec<_>>().join("\n");
    }
    // By title, a family under its shared name in the book's order (Wit, Charisma, Quest, Warfare).
    let key = |t: &RollTable| {
        (t.cited_as.clone().unwrap_or_else(|| t.title.clone()), candidates.iter().position(|c| c.title == t.title))
    };
    found.sort_by_key(|t| key(t));
    found
        .into_iter()
        .map(|t| with_trap_effects(TableView { note: t.note.clone(), ..table_view(t) }, t, tables))
        .collect()
}

/// A table that yields traps (the Disaster Trap Table a Happening row rolls on) prints each trap
/// with its effect: a trap rolled in play sits in no room, so no room key tells the GM what it does.
fn with_trap_effects(mut view: TableView, t: &RollTable, tables: &Tables) -> TableView {
    if t.yields == Some(crate::tables::roll::Collection::Trap) {
        for row in &mut view.rows {
            if let Some(trap) = tables.myk.trap(&row.text) {
                row.text = format!("{}: {}", row.text, trap.summary);
            }
        }
    }
    view
}

/// Every monster of the scenario's random encounter table with known stats, once, in table order.
pub fn encounter_monsters(s: &Scenario, tables: &Tables) -> Vec<EncounterMonsterView> {
    let mut out: Vec<EncounterMonsterView> = Vec::new();
    for g in s.encounters.rows.iter().flat_map(|r| &r.groups) {
        let Some(m) = tables.myk.monster(&g.name).filter(|m| m.complete()) else { continue };
        if out.iter().any(|x| x.name == m.name) {
            continue;
        }
        out.push(EncounterMonsterView {
            name: m.name.clone(),
            category: m.category.label().into(),
            level: m.level.unwrap_or(0),
            stats: stat_line(m),
            skills: m.skills.join(", "),
            materials: m.materials.join(", "),
            treasure: treasure_line(tables, m.level.unwrap_or(0), 1),
        });
    }
    out
}

/// A bestiary record's stat line, as the sheets and the booklet print it.
pub(super) fn stat_line(m: &crate::tables::myk::Monster) -> String {
    let n = |v: Option<u32>| v.map_or("?".to_string(), |x| x.to_string());
    let numbers = [n(m.warfare), n(m.range), m.damage.map_or("?".into(), |d| d.to_string()), n(m.defense), n(m.hp)];
    format!("{} / {}", combat_numbers(&numbers), m.personality.map_or("?", |p| p.label()))
}

/// "Warfare 7 / Range 1 / Damage 2D6 / Defense 9 / HP 30": the five combat numbers, in the
/// bestiary's order, for a monster and for an Important NPC alike (one layout of the stats).
pub(crate) fn combat_numbers([warfare, range, damage, defense, hp]: &[String; 5]) -> String {
    format!("Warfare {warfare} / Range {range} / Damage {damage} / Defense {defense} / HP {hp}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_skill_note_keeps_the_first_clause_without_the_line() {
        assert_eq!(short("l.7743: the name is cut; more"), "the name is cut");
        assert_eq!(short("lost in the scan. Later text"), "lost in the scan");
    }

    #[test]
    fn each_treasure_table_title_gives_its_level_bands() {
        let t = Tables::embedded().unwrap();
        let b = bands(&t);
        assert_eq!(b.len(), 5);
        assert_eq!((b[0].individual, b[0].total), ((1, 5), (1, 9)));
        assert_eq!((b[4].individual, b[4].total), ((21, u32::MAX), (31, u32::MAX)));
    }

    #[test]
    fn a_group_may_roll_once_on_its_summed_levels() {
        let t = Tables::embedded().unwrap();
        assert_eq!(treasure_line(&t, 3, 1), "1D6 on the Level 1-5 Treasure Table");
        let line = treasure_line(&t, 2, 7);
        assert!(
            line.contains("Level 1-5") && line.contains("Total 10-15") && line.contains("total level 14"),
            "{line}"
        );
    }

    #[test]
    fn a_family_cited_by_its_short_name_prints_all_four_tables_in_the_books_order() {
        let t = Tables::embedded().unwrap();
        let got = cited_tables("every Rest Table roll reads that number", &[], &t);
        let titles: Vec<&str> = got.iter().map(|v| v.title.as_str()).collect();
        assert_eq!(titles, ["Wit Rest Table", "Charisma Rest Table", "Quest Rest Table", "Warfare Rest Table"]);
        assert!(got.iter().all(|v| v.note.as_deref().is_some_and(|n| n.contains("Rest action"))));
    }

    #[test]
    fn a_table_a_printed_row_cites_is_printed_too() {
        let t = Tables::embedded().unwrap();
        let got = cited_tables("or a Wandering Table by 1 up or down", &[], &t);
        let titles: Vec<&str> = got.iter().map(|v| v.title.as_str()).collect();
        // The Culture row 4 rolls a Job on the Birth Table; Order rows 3 and 9 roll on the Market
        // Table, row 12 cancels a Kingdom Disaster Table roll.
        for cited in ["Birth Table", "Kingdom Disaster Table", "Market Table", "Order Wandering Table"] {
            assert!(titles.contains(&cited), "{cited} in {titles:?}");
        }
        // A table the booklet already prints is not printed twice.
        let again = cited_tables("or a Wandering Table by 1 up or down", &["Birth Table"], &t);
        assert!(again.iter().all(|v| v.title != "Birth Table"));
    }

    #[test]
    fn a_trap_rolled_in_play_is_printed_with_its_effect() {
        let t = Tables::embedded().unwrap();
        let got = cited_tables("roll a trap on the Disaster Trap Table", &[], &t);
        let disaster = got.iter().find(|v| v.title == "Disaster Trap Table").expect("the table is cited");
        for row in &disaster.rows {
            let (name, effect) = row.text.split_once(": ").unwrap_or((&row.text, ""));
            let trap = t.myk.trap(name).unwrap_or_else(|| panic!("row {} names a trap: {}", row.roll, row.text));
            assert_eq!(effect, trap.summary.as_str(), "row {}", row.roll);
        }
    }
}
