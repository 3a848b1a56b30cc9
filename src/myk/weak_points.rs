//! Rulers' weak points as the book gives them (seed 003 l.6791-6870): the exact level adjustment
//! (Poison 2 + poisons, Sealed 3 + sealed skills), the Weakness Table, Karma's court member,
//! Relationship's NPC, Sealed's skills and Split Core's core monsters. `check` and the generator
//! share every function here.

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{Adjustment, AdjustmentKind, CoreHolder, Limits, Map, MonsterGroup, Reaction, Room, Ruler};
use crate::myk::model::{RoomId, Scenario};
use crate::tables::Tables;
use crate::tables::myk::{Monster, MykData, WeakNeed, WeakPoint};
use crate::tables::shared::SharedStr;

/// The D66 table Poison and Anathema roll on.
pub const WEAKNESS_TABLE: &str = "myk.rulers.weaknesses";
/// Split Core spreads its power over "usually 2-7" monsters; we hold to that range.
pub const CORES: std::ops::RangeInclusive<u32> = 2..=7;
/// Sealed locks away 1-3 of the monster's skills.
pub const SEALED: std::ops::RangeInclusive<usize> = 1..=3;

/// Whether Sealed can lock a skill away: not one whose effect "cannot be prevented" (Public
/// Enemy, seed 003 l.6570), which sealing would not stop, so it would buy its levels for nothing.
pub fn sealable(tables: &Tables, label: &str) -> bool {
    tables.myk.sealable(label)
}

/// The most levels a weak point of the book's list takes off (seed 003 l.6797-6870): each at its
/// largest (Sealed with three skills; Poison with one poison, a further poison being Poison's own
/// choice): Time Limit's 8. A weak point of the GM's own may take off no more.
pub fn largest_listed(data: &MykData) -> u32 {
    let most = |w: &WeakPoint| {
        w.adjustment
            + match w.needs {
                Some(WeakNeed::Sealed) => *SEALED.end() as u32,
                Some(WeakNeed::Poisons) => 1,
                _ => 0,
            }
    };
    data.weak_points.iter().map(most).max().unwrap_or(0)
}

/// The levels a weak point takes off (negative): its fixed adjustment plus one per poison or per
/// sealed skill recorded.
pub fn levels(rec: &WeakPoint, adj: &Adjustment) -> i32 {
    let extra = match rec.needs {
        Some(WeakNeed::Poisons) => adj.weaknesses.len() as u32,
        Some(WeakNeed::Sealed) => adj.sealed.len() as u32,
        _ => 0,
    };
    -((rec.adjustment + extra) as i32)
}

/// The Weakness Table's results, in table order.
pub fn weakness_results(tables: &Tables) -> Vec<&str> {
    tables
        .roll_table(WEAKNESS_TABLE)
        .map(|t| t.rows.iter().filter_map(|r| r.result.as_deref()).collect())
        .unwrap_or_default()
}

/// Where a ruler stands, for the checks that look beyond the ruler itself.
pub struct Seat<'a> {
    pub scenario: &'a Scenario,
    pub map: &'a Map,
    pub room: &'a Room,
    pub ruler: &'a Ruler,
}

/// Every weak-point rule for one ruler.
pub fn check(seat: &Seat, tables: &Tables, at: &str, v: &mut Vec<Violation>) {
    let data = &tables.myk;
    let mut seen: Vec<&str> = Vec::new();
    for a in &seat.ruler.adjustments {
        let has_details = a.member.is_some()
            || a.npc.is_some()
            || !a.weaknesses.is_empty()
            || !a.sealed.is_empty()
            || !a.cores.is_empty();
        if a.kind != AdjustmentKind::WeakPoint {
            if has_details {
                v.push(Violation::new(
                    at,
                    "ruler.adjustment",
                    format!("`{}` is not a weak point but records weak-point details", a.what),
                ));
            }
            continue;
        }
        if seen.contains(&a.what.as_str()) {
            v.push(Violation::new(
                at,
                "weak-point.repeated",
                format!("weak point `{}` is given twice; a ruler has each weak point once", a.what),
            ));
        }
        seen.push(&a.what);
        let Some(rec) = data.weak_point(&a.what) else {
            own(data, a, at, v);
            continue;
        };
        let want = levels(rec, a);
        if a.levels != want {
            let how = match rec.needs {
                Some(WeakNeed::Poisons) => format!(" ({} + {} poison(s))", rec.adjustment, a.weaknesses.len()),
                Some(WeakNeed::Sealed) => format!(" ({} + {} sealed skill(s))", rec.adjustment, a.sealed.len()),
                _ => String::new(),
            };
            v.push(Violation::new(
                at,
                "weak-point.adjustment",
                format!("weak point `{}` adjusts the level by {want}{how}, not {}", a.what, a.levels),
            ));
        }
        if a.times != 1 {
            v.push(Violation::new(at, "weak-point.adjustment", format!("weak point `{}` counts once", a.what)));
        }
        details(seat, tables, rec, a, at, v);
    }
}

/// A weak point of the GM's own: what the rules need of it is the levels it takes off the ruler
/// (they count toward its effective level, at most the book's largest) and a clue naming it
/// (checked with the others); the rest is the GM's.
fn own(data: &MykData, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let (name, off, most) = (&a.what, -a.levels, largest_listed(data));
    v.push(if a.levels >= 0 || a.times != 1 {
        let why = "a weak point of the GM's own takes levels off (`levels` below 0, `times` 1)";
        Violation::new(at, "weak-point.unknown", format!("weak point `{name}` is not in the tables; {why}"))
    } else if off > most as i32 {
        let why = format!("the book's weak points take at most {most} (seed 003 l.6797)");
        Violation::new(
            at,
            "weak-point.own-discount",
            format!("weak point `{name}` is the GM's own, taking {off} levels off; {why}"),
        )
    } else {
        let msg = format!("weak point `{name}` is the GM's own (not in the tables), taking {off} levels off");
        Violation::advice(at, "weak-point.own", msg)
    });
}

/// The choice each weak point asks for, and no other detail.
fn details(seat: &Seat, tables: &Tables, rec: &WeakPoint, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let need = rec.needs;
    stray_details(need, a, at, v);
    match need {
        None => {}
        Some(WeakNeed::Member) => karma(seat, a, at, v),
        Some(WeakNeed::Npc) => relationship(seat, a, at, v),
        Some(WeakNeed::Poisons | WeakNeed::Weakness) => weaknesses(tables, need, a, at, v),
        Some(WeakNeed::Sealed) => sealed(seat, tables, a, at, v),
        Some(WeakNeed::Cores) => cores(seat, a, at, v),
        Some(WeakNeed::Hideout) => hideout(seat, a, at, v),
    }
}

/// A detail field filled in for a weak point that does not ask for it.
fn stray_details(need: Option<WeakNeed>, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let stray = [
        ("member", a.member.is_some() && need != Some(WeakNeed::Member)),
        ("npc", a.npc.is_some() && need != Some(WeakNeed::Npc)),
        ("weaknesses", !a.weaknesses.is_empty() && !matches!(need, Some(WeakNeed::Poisons | WeakNeed::Weakness))),
        ("sealed", !a.sealed.is_empty() && need != Some(WeakNeed::Sealed)),
        ("cores", !a.cores.is_empty() && need != Some(WeakNeed::Cores)),
        ("hidden_in", a.hidden_in.is_some() && need != Some(WeakNeed::Hideout)),
    ];
    for (field, _) in stray.into_iter().filter(|s| s.1) {
        let message = format!("weak point `{}` does not take `{field}`", a.what);
        v.push(Violation::new(at, "weak-point.detail", message));
    }
}

/// Karma names a member of the court.
fn karma(seat: &Seat, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let size = seat.scenario.court.levels.len() as u32;
    match a.member {
        Some(m) if (1..=size).contains(&m) => {}
        Some(m) => v.push(Violation::new(
            at,
            "weak-point.karma",
            format!("Karma names court member {m}, but the court has members 1-{size}"),
        )),
        None => v.push(Violation::new(at, "weak-point.karma", "Karma must name a court member (`member`)")),
    }
}

/// Relationship names an NPC of the scenario's cast.
fn relationship(seat: &Seat, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    match a.npc {
        Some(n) if seat.scenario.cast_member(n).is_some() => {}
        Some(n) => v.push(Violation::new(
            at,
            "weak-point.relationship",
            format!("Relationship names cast member {}, and the cast has {}", n.0, seat.scenario.cast.len()),
        )),
        None => {
            v.push(Violation::new(at, "weak-point.relationship", "Relationship must name an NPC of the cast (`npc`)"))
        }
    }
}

/// Weakness takes exactly one result of the Weakness Table, Poisons at least one; none twice.
fn weaknesses(tables: &Tables, need: Option<WeakNeed>, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let name = &a.what;
    let table = weakness_results(tables);
    let n = a.weaknesses.len();
    if need == Some(WeakNeed::Weakness) && n != 1 {
        v.push(Violation::new(
            at,
            "weak-point.weakness",
            format!("`{name}` takes exactly one Weakness Table result, not {n}"),
        ));
    }
    if n == 0 && need == Some(WeakNeed::Poisons) {
        v.push(Violation::new(
            at,
            "weak-point.weakness",
            format!("`{name}` needs at least one poison from the Weakness Table (`weaknesses`)"),
        ));
    }
    for (i, w) in a.weaknesses.iter().enumerate() {
        if !table.contains(&w.as_str()) {
            v.push(Violation::new(at, "weak-point.weakness", format!("`{w}` is not a result of the Weakness Table")));
        }
        if a.weaknesses[..i].contains(w) {
            v.push(Violation::new(at, "weak-point.weakness", format!("`{w}` is listed twice")));
        }
    }
}

/// Sealed locks 1-3 different skills the ruler really has.
fn sealed(seat: &Seat, tables: &Tables, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let skills = tables.myk.monster(&seat.ruler.name).map(|m| m.skills.as_slice()).unwrap_or_default();
    if !SEALED.contains(&a.sealed.len()) {
        v.push(Violation::new(
            at,
            "weak-point.sealed",
            format!("Sealed locks 1-3 of the ruler's skills, not {}", a.sealed.len()),
        ));
    }
    for (i, s) in a.sealed.iter().enumerate() {
        if !skills.contains(s) {
            v.push(Violation::new(at, "weak-point.sealed", format!("`{s}` is not a skill of {}", seat.ruler.name)));
        } else if !sealable(tables, s) {
            v.push(Violation::new(
                at,
                "weak-point.sealed",
                format!("`{s}` cannot be prevented and overrides every other rule (seed 003 l.6570): sealing it takes nothing away"),
            ));
        }
        if a.sealed[..i].contains(s) {
            v.push(Violation::new(at, "weak-point.sealed", format!("`{s}` is sealed twice")));
        }
    }
}

/// A hidden core lies in a used room of the ruler's map other than the ruler's own.
fn hideout(seat: &Seat, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let name = &a.what;
    match a.hidden_in {
        Some(r) if r != seat.room.id && seat.map.room(r).used => {}
        Some(r) => v.push(Violation::new(
            at,
            "weak-point.hideout",
            format!("`{name}` hides its core in room {r}, which is the ruler's own room or unused"),
        )),
        None => v.push(Violation::new(
            at,
            "weak-point.hideout",
            format!("`{name}` must name the room of the ruler's map where its core lies (`hidden_in`)"),
        )),
    }
}

/// Split Core: 2-7 monsters in other rooms of the ruler's map, each really there.
fn cores(seat: &Seat, a: &Adjustment, at: &str, v: &mut Vec<Violation>) {
    let bad = |msg: String| Violation::new(at, "weak-point.split-core", msg);
    let total: u32 = a.cores.iter().map(|c| c.count).sum();
    if total < *CORES.start() {
        // "Several cores ... divided up among several other monsters" (seed 003 l.6843).
        v.push(bad(format!("Split Core divides the ruler's power among several monsters (two or more), not {total}")));
    } else if !CORES.contains(&total) {
        // "Usually 2-7" (seed 003 l.6843): a usual range, advice only.
        v.push(Violation::advice(
            at,
            "weak-point.split-core-count",
            format!("Split Core usually spreads over 2-7 monsters, not {total}"),
        ));
    }
    for (i, c) in a.cores.iter().enumerate() {
        if c.count == 0 {
            v.push(bad(format!("core holder `{}` in room {} has a count of 0", c.monster, c.room)));
        }
        if a.cores[..i].iter().any(|x| x.room == c.room && x.monster == c.monster) {
            v.push(bad(format!("core holder `{}` in room {} is listed twice", c.monster, c.room)));
        }
        if c.room == seat.room.id {
            v.push(bad(format!("a core lies hidden away from the ruler, not in its own room {}", c.room)));
            continue;
        }
        let there: u32 = seat.map.room(c.room).monsters.iter().filter(|g| g.name == c.monster).map(|g| g.count).sum();
        if there < c.count {
            v.push(bad(format!(
                "{} core(s) on `{}` in map {} room {}, which holds {there} of them",
                c.count, c.monster, seat.map.index, c.room
            )));
        }
    }
}

// ---- the generator's side ----

/// A weak point the generator means to give, before the ruler is picked: how many levels it takes
/// off decides how strong a monster may rule.
pub struct Plan<'a> {
    pub rec: &'a WeakPoint,
    /// Poisons or sealed skills to choose (0 for the others).
    pub count: u32,
}

impl Plan<'_> {
    /// Levels taken off the ruler's effective level.
    pub fn drop(&self) -> u32 {
        self.rec.adjustment
            + if matches!(self.rec.needs, Some(WeakNeed::Poisons | WeakNeed::Sealed)) { self.count } else { 0 }
    }

    /// Whether `mon` can bear this weak point (Sealed needs that many skills of its own that can
    /// be sealed).
    pub fn fits(&self, mon: &Monster, tables: &Tables) -> bool {
        self.rec.needs != Some(WeakNeed::Sealed) || tables.myk.sealable_count(mon) >= self.count as usize
    }
}

/// Draws a weak point (a third of rulers get one). `cores_fit` says whether the ruler's map has a
/// room besides the ruler's for a core (Split Core's holders, Memory or Soul Core's hideout).
pub fn plan<'a>(data: &'a MykData, cores_fit: bool, d: &mut Dice) -> Option<Plan<'a>> {
    if !d.chance(1, 3) {
        return None;
    }
    let open: Vec<&WeakPoint> = data
        .weak_points
        .iter()
        .filter(|w| cores_fit || !matches!(w.needs, Some(WeakNeed::Cores | WeakNeed::Hideout)))
        .collect();
    let rec = *d.choose(&open)?;
    let count = match rec.needs {
        // One poison usually, sometimes two or three ("more than one thing may be poisonous").
        Some(WeakNeed::Poisons) => *d.weighted(&[1u32, 2, 3], |&n| [4, 2, 1][n as usize - 1]).unwrap_or(&1),
        Some(WeakNeed::Sealed) => d.between(1, 3),
        _ => 0,
    };
    Some(Plan { rec, count })
}

/// The adjustment for a planned weak point on `mon`, with what can be chosen now: Karma's court
/// member, the Weakness Table rolls, the sealed skills. Relationship's NPC ([`name_npcs`]) and Split
/// Core's holders ([`place_cores`]) are chosen once the cast and the map's monsters exist.
pub fn adjustment(plan: &Plan, mon: &Monster, court_size: u32, tables: &Tables, d: &mut Dice) -> Adjustment {
    let rec = plan.rec;
    let mut a = Adjustment::new(AdjustmentKind::WeakPoint, &rec.name, 1, 0);
    match rec.needs {
        Some(WeakNeed::Member) => a.member = Some(d.between(1, court_size.max(1))),
        Some(need @ (WeakNeed::Poisons | WeakNeed::Weakness)) => {
            let want = if need == WeakNeed::Weakness { 1 } else { plan.count };
            let table = tables.roll_table(WEAKNESS_TABLE);
            for _ in 0..want * 8 {
                if a.weaknesses.len() as u32 >= want {
                    break;
                }
                let Some(r) = table.map(|t| t.roll(d).1).and_then(|row| row.result.clone()) else { break };
                if !a.weaknesses.contains(&r) {
                    a.weaknesses.push(r);
                }
            }
        }
        Some(WeakNeed::Sealed) => {
            let mut skills: Vec<SharedStr> = mon.skills.iter().filter(|s| sealable(tables, s)).cloned().collect();
            d.shuffle(&mut skills);
            skills.truncate(plan.count as usize);
            // Printed in the bestiary's order.
            a.sealed = mon.skills.iter().filter(|s| skills.contains(s)).cloned().collect();
        }
        Some(WeakNeed::Npc | WeakNeed::Cores | WeakNeed::Hideout) | None => {}
    }
    a.levels = levels(rec, &a);
    a
}

/// Gives each Relationship weak point one NPC of the cast whom the court can meet before the
/// ruler (`weak_story::bond_npc`).
pub fn name_npcs(s: &mut Scenario, tables: &Tables, d: &mut Dice) {
    let wants = |a: &Adjustment| a.kind == AdjustmentKind::WeakPoint && a.what == "Relationship" && a.npc.is_none();
    // Most rulers have no Relationship: the movement graph is built only for one that has.
    let mut open: Vec<(usize, usize, crate::myk::model::Place)> = Vec::new();
    for (i, m) in s.maps.iter().enumerate() {
        for (j, r) in m.rooms.iter().enumerate() {
            if r.ruler.as_ref().is_some_and(|ru| ru.adjustments.iter().any(wants)) {
                open.push((i, j, crate::myk::model::Place { map: m.index, room: r.id }));
            }
        }
    }
    if open.is_empty() {
        return;
    }
    let g = crate::myk::reach::Reach::new(s, tables);
    for (i, j, at) in open {
        let npc = crate::myk::weak_story::bond_npc(s, &g, at, d);
        for a in s.maps[i].rooms[j].ruler.iter_mut().flat_map(|ru| ru.adjustments.iter_mut()) {
            if wants(a) {
                a.npc = npc;
            }
        }
    }
}

/// Memory Core, Soul Core: hides the core in another used room of the ruler's map.
fn hide_core(m: &mut Map, ruler_room: RoomId, data: &MykData, parent: &Dice) {
    let needs = |a: &Adjustment| {
        data.weak_point(&a.what).is_some_and(|w| w.needs == Some(WeakNeed::Hideout)) && a.hidden_in.is_none()
    };
    // The pick has a stream of its own: a ruler without such a weak point never reads it, so it is
    // drawn only for one that has (the same pick as always where it is used).
    if !m.room(ruler_room).ruler.as_ref().is_some_and(|ru| ru.adjustments.iter().any(needs)) {
        return;
    }
    let d = &mut parent.child("hideout");
    let pick = d.choose_from(|| m.used_rooms().map(|r| r.id).filter(|&r| r != ruler_room));
    if let Some(ru) = m.rooms[ruler_room.index()].ruler.as_mut() {
        for a in &mut ru.adjustments {
            if data.weak_point(&a.what).is_some_and(|w| w.needs == Some(WeakNeed::Hideout)) && a.hidden_in.is_none() {
                a.hidden_in = pick;
            }
        }
    }
}

/// Chooses Split Core's 2-7 core holders among the monsters in the other rooms of the ruler's map;
/// when fewer than two stand there, first puts a small hostile group in an empty room, inside the
/// room and map limits. Returns false when no holders could be found.
pub fn place_cores(m: &mut Map, ruler_room: RoomId, lim: &Limits, data: &MykData, d: &mut Dice) -> bool {
    hide_core(m, ruler_room, data, d);
    let wants_cores = |m: &Map| {
        m.room(ruler_room).ruler.as_ref().is_some_and(|ru| {
            ru.adjustments.iter().any(|a| data.weak_point(&a.what).is_some_and(|w| w.needs == Some(WeakNeed::Cores)))
        })
    };
    if !wants_cores(m) {
        return true;
    }
    let outside = |m: &Map| -> u32 {
        m.rooms.iter().filter(|r| r.id != ruler_room).flat_map(|r| &r.monsters).map(|g| g.count).sum()
    };
    if outside(m) < *CORES.start() {
        let busy = m.rooms.iter().filter(|r| r.has_monsters()).count() as u32;
        let empty: Vec<RoomId> =
            m.used_rooms().filter(|r| r.id != ruler_room && !r.has_monsters()).map(|r| r.id).collect();
        let cap = lim.room_total(Reaction::Hostile);
        let most = lim.monster_level.min(cap / 2);
        let pool = data.stockable().filter(|x| x.level.is_some_and(|l| (1..=most).contains(&l)));
        if busy < lim.rooms_with_monsters
            && let Some(&room) = d.choose(&empty)
            && let Some(mon) = d.weighted_iter(pool, |x| most + 1 - x.level.unwrap_or(most))
        {
            let lvl = mon.level.unwrap_or(1);
            let count = d.between(2, (cap / lvl).clamp(2, 7));
            m.rooms[room.index()].monsters.push(MonsterGroup::plain(&mon.name, lvl, count, Reaction::Hostile));
        }
    }
    let mut pool: Vec<(RoomId, SharedStr)> = Vec::new();
    for r in m.rooms.iter().filter(|r| r.id != ruler_room) {
        for g in &r.monsters {
            pool.extend((0..g.count).map(|_| (r.id, g.name.clone())));
        }
    }
    if (pool.len() as u32) < *CORES.start() {
        return false;
    }
    d.shuffle(&mut pool);
    let n = d.between(*CORES.start(), (pool.len() as u32).min(*CORES.end())) as usize;
    let mut holders: Vec<CoreHolder> = Vec::new();
    for (room, monster) in pool.into_iter().take(n) {
        match holders.iter_mut().find(|h| h.room == room && h.monster == monster) {
            Some(h) => h.count += 1,
            None => holders.push(CoreHolder { room, monster, count: 1 }),
        }
    }
    holders.sort_by(|a, b| (a.room, &a.monster).cmp(&(b.room, &b.monster)));
    if let Some(ru) = m.rooms[ruler_room.index()].ruler.as_mut()
        && let Some(a) = ru
            .adjustments
            .iter_mut()
            .find(|a| data.weak_point(&a.what).is_some_and(|w| w.needs == Some(WeakNeed::Cores)))
    {
        a.cores = holders;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sealed's fit reads each monster's count of sealable skills, kept at the first pick: the
    /// count a walk of its skills makes, for a record of the tables and a copy from elsewhere.
    #[test]
    fn a_monsters_sealable_skills_kept_at_load_are_those_its_skills_count() {
        let tables = Tables::embedded().expect("embedded tables load");
        let data = &tables.myk;
        let mut some = 0;
        for m in &data.monsters {
            let walked = m.skills.iter().filter(|s| sealable(&tables, s)).count();
            assert_eq!(data.sealable_count(m), walked, "{}", m.name);
            assert_eq!(data.sealable_count(&m.clone()), walked, "a copy of {}", m.name);
            some += usize::from(walked > 0 && walked < m.skills.len());
        }
        // Some monster has a skill Sealed cannot lock beside one it can, so the rule is exercised.
        assert!(some > 0);
    }
}
