//! Danger notes: where the book's own tables let a threat past what the court's limits would allow
//! a room, and by how much, so the GM is warned beside the entry and in the scenario's summary.
//!
//! The limits are the threat-placement limits of `limits.rs` (A + 4 for one monster, 3S + T for a
//! room of neutral monsters, A + 7 for the ruler). The generator and `check` hold placed monsters
//! and the ruler's effective level to them; what they do not hold is the random encounter table
//! (the book's table for the court's level, whatever it brings) and the ruler's bestiary level
//! before its weak points take levels off. A hand-edited file's placed group that breaks a limit
//! is flagged here too, beside `check`'s violation.

use crate::myk::model::{EncounterRow, Limits, MonsterGroup, Ruler, Scenario};
use crate::tables::Tables;

/// How far `value` goes over `limit`, as the note's tail ("1 over the monster limit of 6 (A + 4)").
fn over(value: u32, limit: u32, what: &str, formula: &str) -> Option<String> {
    (value > limit).then(|| format!("{} over {what} of {limit} ({formula})", value - limit))
}

/// The danger of one encounter-table row: each monster above A + 4, and the row's levels above
/// what a room of neutral monsters may hold (3S + T; encounter monsters are neutral). `None` when
/// the row stays within both.
pub fn encounter_row(row: &EncounterRow, lim: &Limits, tables: &Tables) -> Option<String> {
    let mut parts = Vec::new();
    let mut total: u32 = 0;
    for g in &row.groups {
        let Some(level) = tables.myk.monster(&g.name).and_then(|m| m.level) else { continue };
        total = total.saturating_add(level.saturating_mul(g.count));
        if let Some(o) = over(level, lim.monster_level, "the monster limit", "A + 4") {
            parts.push(format!("{} is level {level}, {o}", g.name));
        }
    }
    if let Some(o) = over(total, lim.room_total_neutral, "a neutral room's limit", "3S + T") {
        parts.push(format!("levels total {total}, {o}"));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The ruler's danger: its bestiary level (and HP) above A + 7 before its weak points bring its
/// effective level down, or its effective level above it in a hand-edited file.
pub fn ruler(ru: &Ruler, lim: &Limits) -> Option<String> {
    let hp = ru.stats.as_ref().map(|s| format!(", HP {}", s.hp)).unwrap_or_default();
    if let Some(o) = over(ru.effective_level, lim.ruler_level, "the ruler limit", "A + 7") {
        return Some(format!("{} is effective level {}{hp}, {o}", ru.name, ru.effective_level));
    }
    over(ru.level, lim.ruler_level, "the ruler limit", "A + 7").map(|o| {
        format!(
            "{} is level {}{hp} before its weak points, {o}; they bring it to effective level {}",
            ru.name, ru.level, ru.effective_level
        )
    })
}

/// A placed group's danger: its effective level above A + 4 (only a hand edit places one so).
pub fn group(g: &MonsterGroup, lim: &Limits) -> Option<String> {
    over(g.effective_level, lim.monster_level, "the monster limit", "A + 4")
        .map(|o| format!("{} is effective level {}, {o}", g.name, g.effective_level))
}

/// Every danger of the scenario, one line each, for its summary: the encounter table's rows, the
/// rulers and the placed groups, in that order.
pub fn scenario(s: &Scenario, tables: &Tables) -> Vec<String> {
    let lim = &s.limits;
    let mut out: Vec<String> = s
        .encounters
        .rows
        .iter()
        .filter_map(|r| {
            encounter_row(r, lim, tables)
                .map(|d| format!("the level-{} encounter table, roll {}: {d}", s.encounters.level, r.roll))
        })
        .collect();
    for m in &s.maps {
        for r in m.used_rooms() {
            let at = format!("map {} {}", m.index, r.id);
            out.extend(r.ruler.as_ref().and_then(|ru| ruler(ru, lim)).map(|d| format!("{at}: {d}")));
            out.extend(r.monsters.iter().filter_map(|g| group(g, lim)).map(|d| format!("{at}: {d}")));
        }
    }
    out
}
