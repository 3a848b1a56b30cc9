//! `fix` for Make You Kingdom: every derived field of a scenario, recomputed from what the GM
//! chose, by the functions the generator and `check` use. Clue texts that tell a generated fact
//! (a ruler's weak points, a room's trap or monsters) are told anew from the scenario as it is.

use crate::dice::Dice;
use crate::error::Result;
use crate::fix::unknown;
use crate::myk::model::ClueMethod;
use crate::myk::model::{AdjustmentKind, MonsterGroup, PlacedBase, PlacedTrap, Ruler, Scenario};
use crate::myk::{clues, generate, limits, monsters, ruler, traps};
use crate::tables::Tables;
use crate::tables::myk::{MykData, Placement};

/// Fills in every derived field of `s` in place. Errors name the first field holding a name the
/// tables do not know; `s` is then partly fixed, so callers write nothing (the CLI writes only a
/// scenario fixed whole).
pub fn fix(s: &mut Scenario, tables: &Tables) -> Result<()> {
    let data = &tables.myk;
    s.court = limits::court(&s.court.levels);
    // A stake per member of the court as it now stands (a member added or removed by hand).
    crate::myk::court::fit_stakes(s, tables);
    for (mi, m) in s.maps.iter_mut().enumerate() {
        for r in m.rooms.iter_mut() {
            let at = format!("maps[{mi}].rooms[{}]", r.id);
            for (i, g) in r.monsters.iter_mut().enumerate() {
                group(g, data, &format!("{at}.monsters[{i}]"))?;
            }
            for (i, t) in r.traps.iter_mut().enumerate() {
                trap(t, data, &format!("{at}.traps[{i}]"))?;
            }
            for (i, b) in r.bases.iter_mut().enumerate() {
                base(b, data, &format!("{at}.bases[{i}]"))?;
            }
            if let Some(ru) = r.ruler.as_mut() {
                fix_ruler(ru, tables, &format!("{at}.ruler"))?;
            }
        }
        for (i, c) in m.corridors.iter_mut().enumerate() {
            if let Some(t) = c.trap.as_mut() {
                trap(t, data, &format!("maps[{mi}].corridors[{i}].trap"))?;
            }
        }
    }
    s.encounters = crate::myk::limits::encounter_table(tables, &s.court);
    let retold = clues::retold(s);
    for (c, text) in s.clues.iter_mut().zip(retold) {
        if let Some(text) = text {
            c.text = text;
        }
    }
    clue_hows(s, tables);
    // Court totals, limits, usage and the objective, as `render` recomputes them.
    generate::normalize(s);
    Ok(())
}

/// A monster group's level from the bestiary, its effective level from items and relationships.
fn group(g: &mut MonsterGroup, data: &MykData, at: &str) -> Result<()> {
    let Some(rec) = data.monster(&g.name) else {
        return Err(unknown(format!("{at}.name"), "monster", &g.name, data.monsters.iter().map(|m| m.name.as_str())));
    };
    if let Some(level) = rec.level {
        g.level = level;
    }
    g.effective_level = monsters::effective_level(g);
    Ok(())
}

/// A trap's record data by its name (category, placement, activation, disarm, summary), its level
/// (fixed, or kept inside the record's range; +3 as an Event trap) and a Gate Keeper's monsters.
/// Only a Room trap can be turned into an Event trap, so `converted` is dropped for any other.
fn trap(t: &mut PlacedTrap, data: &MykData, at: &str) -> Result<()> {
    let Some(rec) = data.trap(&t.name) else {
        return Err(unknown(format!("{at}.name"), "trap", &t.name, data.traps.iter().map(|r| r.name.as_str())));
    };
    let converted = t.converted && rec.placement == Placement::Room;
    let level = traps::level_for(rec, converted, t.level);
    let p = generate::placed(rec, level, None, converted);
    t.category = p.category;
    t.level = p.level;
    t.placement = p.placement;
    t.activation = p.activation;
    t.disarm = p.disarm;
    t.converted = p.converted;
    t.summary = p.summary;
    for (i, g) in t.monsters.iter_mut().enumerate() {
        group(g, data, &format!("{at}.monsters[{i}]"))?;
    }
    Ok(())
}

/// A base's level and installation from its record.
fn base(b: &mut PlacedBase, data: &MykData, at: &str) -> Result<()> {
    let Some(rec) = data.base(&b.name) else {
        return Err(unknown(format!("{at}.name"), "base", &b.name, data.bases.iter().map(|r| r.name.as_str())));
    };
    if let Some(level) = rec.level {
        b.level = level;
    }
    b.installation = rec.installation;
    Ok(())
}

/// A ruler's level from the bestiary, each adjustment's levels from the tables, its effective
/// level (never below 0) and its final stat line.
fn fix_ruler(ru: &mut Ruler, tables: &Tables, at: &str) -> Result<()> {
    let data = &tables.myk;
    let Some(rec) = data.monster(&ru.name) else {
        return Err(unknown(format!("{at}.name"), "monster", &ru.name, data.monsters.iter().map(|m| m.name.as_str())));
    };
    if let Some(level) = rec.level {
        ru.level = level;
    }
    for (i, a) in ru.adjustments.iter_mut().enumerate() {
        let Some(levels) = ruler::adjustment_levels(a, tables) else {
            // A weak point of the GM's own keeps the levels the GM gave it (check warns of it).
            if a.kind == AdjustmentKind::WeakPoint && a.levels < 0 {
                continue;
            }
            let field = format!("{at}.adjustments[{i}].what");
            return Err(match a.kind {
                AdjustmentKind::Skill => {
                    unknown(field, "ruler skill", &a.what, data.ruler_skills.iter().map(|s| s.name.as_str()))
                }
                AdjustmentKind::Increase => unknown(
                    field,
                    "stat increase",
                    &a.what,
                    data.ruler_increases.iter().map(|i| ruler::stat_name(i.stat)),
                ),
                AdjustmentKind::WeakPoint => {
                    unknown(field, "weak point", &a.what, data.weak_points.iter().map(|w| w.name.as_str()))
                }
            });
        };
        a.levels = levels;
    }
    ru.effective_level = u32::try_from(ruler::adjusted_level(ru).max(0)).unwrap_or(u32::MAX);
    ru.stats = ruler::final_stats(rec, ru);
    Ok(())
}

/// Each clue's `how` for its method, its room and the court's search difficulty. A puzzle clue
/// without its puzzle written out (a method changed to a puzzle, or an older file) gets a whole
/// puzzle from the story pools, on a stream of the scenario's seed and the clue's position, so
/// `fix` repeats.
fn clue_hows(s: &mut Scenario, tables: &Tables) {
    let search = limits::limits(&s.court).search_difficulty;
    let seed = s.seed;
    for i in 0..s.clues.len() {
        s.clues[i].difficulty = (s.clues[i].method == ClueMethod::Search).then_some(search);
        if s.clues[i].method == ClueMethod::Puzzle && s.clues[i].puzzle.is_none() {
            let mut d = Dice::new(seed).child("fix/clue").child(&i.to_string());
            s.clues[i].puzzle = d.choose(&tables.story.puzzle).map(|p| crate::myk::model::PuzzleText {
                text: p.text.clone(),
                answer: p.answer.clone(),
                hints: p.hints.clone(),
            });
        }
        if let Some(how) = clues::how_for(s, &s.clues[i], search) {
            s.clues[i].how = how;
        }
    }
}
