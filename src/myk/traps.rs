//! Trap rules beyond placement and level, shared by the generator and `check`: a Gate Keeper names
//! the monsters it brings out (seed 003 l.6087-6091), and a room's battlefield takes one combat trap
//! per Area (l.5605).

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{Limits, MonsterGroup, PlacedTrap, Reaction, Room, Scenario};
use crate::myk::monsters;
use crate::tables::myk::{MykData, Placement, Trap};

/// Levels a Room trap gains when it is turned into an Event trap (seed 003 l.5213).
pub const CONVERSION_LEVELS: u32 = 3;

/// The level a placed trap of this record counts as: its fixed level, or `wanted` kept inside its
/// level range; +3 when a Room trap became an Event trap. `check` compares, `fix` fills it in.
pub fn level_for(rec: &crate::tables::myk::Trap, converted: bool, wanted: u32) -> u32 {
    let bonus = if converted { CONVERSION_LEVELS } else { 0 };
    match rec.level {
        crate::tables::myk::Level::Fixed(n) => n + bonus,
        crate::tables::myk::Level::Range(a, b) => wanted.clamp(a + bonus, b + bonus),
    }
}

/// Areas of the battlefield: Encampment, Rearguard and Vanguard on each side.
pub const BATTLEFIELD_AREAS: usize = 6;

/// The limit on the monsters an ambush brings out: they attack as one hostile group, so the
/// hostile room total (2S + T) and the one-monster limit (A + 4) hold for them.
pub fn ambush_cap(lim: &Limits) -> u32 {
    lim.room_total(Reaction::Hostile)
}

/// Whether a monster is one the scenario describes: stocked in a room, ruling one, or on the
/// random encounter table.
fn described(s: &Scenario, name: &str) -> bool {
    s.maps
        .iter()
        .flat_map(|m| &m.rooms)
        .any(|r| r.monsters.iter().any(|g| g.name == name) || r.ruler.as_ref().is_some_and(|ru| ru.name == name))
        || s.encounters.rows.iter().flat_map(|r| &r.groups).any(|g| g.name == name)
}

/// A Gate Keeper names its monsters, all described elsewhere in the scenario and inside the limits;
/// no other trap names any.
pub fn gate_keeper(s: &Scenario, t: &PlacedTrap, lim: &Limits, data: &MykData, at: &str, v: &mut Vec<Violation>) {
    gate_keeper_of(s, t, data.trap(&t.name), lim, data, at, v);
}

/// [`gate_keeper`] with the trap's record already looked up by its name (`None`: not in the
/// tables), so `check` looks each trap up once.
pub fn gate_keeper_of(
    s: &Scenario,
    t: &PlacedTrap,
    rec: Option<&Trap>,
    lim: &Limits,
    data: &MykData,
    at: &str,
    v: &mut Vec<Violation>,
) {
    let ambush = rec.is_some_and(|r| r.ambush);
    let bad = |msg: String| Violation::new(at, "trap.gate-keeper", msg);
    if !ambush {
        if !t.monsters.is_empty() {
            v.push(bad(format!("`{}` brings out no monsters, but names some", t.name)));
        }
        return;
    }
    if t.monsters.is_empty() {
        v.push(bad(format!("`{}` must name the monsters that appear (`monsters`)", t.name)));
    }
    let mut total = 0u32;
    for g in &t.monsters {
        let rec = data.monster(&g.name);
        match rec {
            None => v.push(bad(format!("`{}` is not in the bestiary", g.name))),
            Some(rec) if rec.level != Some(g.level) => {
                v.push(bad(format!("`{}` has level {}, the bestiary says otherwise", g.name, g.level)))
            }
            _ => {}
        }
        if !described(s, &g.name) {
            v.push(bad(format!(
                "`{}` appears nowhere else in the scenario; a Gate Keeper calls described monsters",
                g.name
            )));
        }
        if g.count == 0 {
            v.push(bad(format!("`{}` has a count of 0", g.name)));
        }
        monsters::check_group_of(g, rec, at, v);
        if g.effective_level > lim.monster_level {
            v.push(bad(format!(
                "`{}` is effective level {}, limit {} (A + 4)",
                g.name, g.effective_level, lim.monster_level
            )));
        }
        total = total.saturating_add(g.count.saturating_mul(g.effective_level));
    }
    if total > ambush_cap(lim) {
        v.push(bad(format!("the ambush totals {total} levels, limit {} (2S + T, hostile)", ambush_cap(lim))));
    }
}

/// One combat trap per battlefield Area: a room holds at most as many Area traps as there are Areas.
pub fn area_traps(r: &Room, at: &str, v: &mut Vec<Violation>) {
    let n = r.traps.iter().filter(|t| t.placement == Placement::Area).count();
    if n > BATTLEFIELD_AREAS {
        v.push(Violation::new(
            at,
            "trap.area-count",
            format!("{n} combat traps, but the battlefield has {BATTLEFIELD_AREAS} Areas and takes one per Area"),
        ));
    }
}

/// Whether another combat trap fits the room's battlefield.
pub fn area_free(r: &Room) -> bool {
    r.traps.iter().filter(|t| t.placement == Placement::Area).count() < BATTLEFIELD_AREAS
}

/// The monsters a new Gate Keeper brings out: one kind the scenario already stocks (else one from
/// its encounter table), as many as the hostile limit allows. Empty when the scenario has none.
pub fn ambushers(s: &Scenario, lim: &Limits, data: &MykData, d: &mut Dice) -> Vec<MonsterGroup> {
    let mut names: Vec<&str> = Vec::new();
    for g in s.maps.iter().flat_map(|m| &m.rooms).flat_map(|r| &r.monsters) {
        if !names.contains(&g.name.as_str()) {
            names.push(&g.name);
        }
    }
    if names.is_empty() {
        for g in s.encounters.rows.iter().flat_map(|r| &r.groups) {
            if !names.contains(&g.name.as_str()) {
                names.push(&g.name);
            }
        }
    }
    let cap = ambush_cap(lim);
    let fits: Vec<(&str, u32)> = names
        .into_iter()
        .filter_map(|n| {
            let m = data.monster(n).filter(|m| m.complete())?;
            let l = m.level.filter(|&l| l >= 1 && l <= lim.monster_level && l <= cap)?;
            Some((n, l))
        })
        .collect();
    let Some(&(name, level)) = d.choose(&fits) else { return Vec::new() };
    let most = (cap / level).clamp(1, 9);
    let count = d.between(1.max(most / 2), most);
    vec![MonsterGroup::plain(name, level, count, Reaction::Hostile)]
}
