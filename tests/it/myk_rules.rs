//! The book's rules that must hold in every room of every generated and rerolled scenario
//! (issue 24), each tested by its own reading of the scenario rather than by `check`: a Secret
//! Door's room stays enterable, a trap that needs a bearer has one, Self-destruction sits on a
//! ruler's map, Dead Angle names monsters of the scenario, no trap moves the court into or out of
//! a Warder's room, and in several maps a clue tells where the objective's target is. The
//! thousands-of-seeds version is `scale::` (ignored, run optimised by CI).

use dungeonsmith::dice::Dice;
use dungeonsmith::myk::model::{Reveals, Scenario};
use dungeonsmith::myk::reach::Reach;
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::myk::Route;
use proptest::prelude::*;

/// The first book rule the scenario breaks, named, or `None`.
pub fn broken_book_rule(s: &Scenario, tables: &Tables) -> Option<String> {
    let route = |name: &str| tables.myk.trap(name).and_then(|r| r.route);
    let described =
        |name: &str| {
            s.maps.iter().flat_map(|m| &m.rooms).any(|r| {
                r.monsters.iter().any(|g| g.name == name) || r.ruler.as_ref().is_some_and(|ru| ru.name == name)
            }) || s.encounters.rows.iter().flat_map(|r| &r.groups).any(|g| g.name == name)
        };
    // The clues lead to the objective: in several maps, one tells where its target is (the room
    // the objective names; in a file without one, the last map's ruler).
    let last_ruler = s.maps.last().and_then(|m| {
        m.rooms.iter().find(|r| r.ruler.is_some()).map(|r| dungeonsmith::myk::model::Place { map: m.index, room: r.id })
    });
    if s.maps.len() > 1
        && let Some(goal) = s.objective.at.or(last_ruler)
        && !s.clues.iter().any(|c| c.reveals == Reveals::Room(goal))
    {
        return Some(format!("no clue reveals map {} room {}, the objective's target", goal.map, goal.room));
    }
    for (p, m) in s.maps.iter().enumerate() {
        let warded = |id| m.room(id).traps.iter().any(|t| route(&t.name) == Some(Route::Warded));
        let has_ruler = m.rooms.iter().any(|r| r.ruler.is_some());
        for r in m.used_rooms() {
            let at = format!("map {} room {}", m.index, r.id);
            for t in &r.traps {
                let rec = tables.myk.trap(&t.name).expect("a generated trap is in the tables");
                if let Some(c) = t.corridor {
                    let without = Reach::without(s, tables, Reveals::Corridor { map: m.index, corridor: c });
                    if !Reach::at(&without.from_outside(true), p, r.id) {
                        return Some(format!("{at}: the Secret Door's corridor {c} is the room's only way in"));
                    }
                }
                let on_monster = t.object.as_deref() == Some("monster");
                if (rec.bearer || on_monster) && r.monsters.is_empty() && r.ruler.is_none() {
                    return Some(format!("{at}: `{}` sits on a creature, but the room has none", t.name));
                }
                if t.object.as_deref() == Some("ruler's spoils") && !has_ruler {
                    return Some(format!("{at}: `{}` on a ruler's spoils, but the map has no ruler", t.name));
                }
                if t.name.as_ref() == "Dead Angle"
                    && (t.monsters.is_empty() || !t.monsters.iter().all(|g| described(&g.name)))
                {
                    return Some(format!("{at}: Dead Angle names no monster of the scenario"));
                }
                if let Some(d) = t.destination
                    && (warded(r.id) || (d.map == m.index && warded(d.room)))
                {
                    return Some(format!("{at}: `{}` moves the court past a Warder", t.name));
                }
            }
        }
        for c in &m.corridors {
            if let Some(t) = &c.trap
                && let Some(d) = t.destination
                && d.map == m.index
                && warded(d.room)
            {
                return Some(format!("map {} corridor {}: `{}` leads into a Warder's room", m.index, c.id(), t.name));
            }
        }
    }
    None
}

/// Generates case `i` (options spread as in `scale::`, at most `maps` maps), then rerolls one part;
/// the first broken book rule of either.
pub fn case(tables: &Tables, i: u64, maps: u32) -> Option<String> {
    let mut p = crate::scale::myk_params(i);
    p.maps = p.maps.min(maps);
    let mut s = match dungeonsmith::myk::generate(tables, &p, i) {
        Ok(s) => s,
        Err(e) => return Some(format!("seed {i} {p:?}: {e}")),
    };
    if let Some(e) = broken_book_rule(&s, tables) {
        return Some(format!("seed {i} {p:?}: {e}"));
    }
    let part = crate::reroll::some_part(&s, &mut Dice::new(i).child("rules/reroll"));
    if dungeonsmith::edit::myk::reroll(tables, &mut s, &part).is_ok()
        && let Some(e) = broken_book_rule(&s, tables)
    {
        return Some(format!("seed {i} {p:?}, reroll `{part}`: {e}"));
    }
    None
}

#[test]
fn the_issue_seed_keeps_its_secret_door_room_enterable() {
    // myk --seed 1 --court-size 8 --level 6 --maps 4 --rooms 7 --layout junction: map 2, B2.
    let tables = crate::myk::tables();
    let p = dungeonsmith::myk::MykParams {
        levels: vec![6; 8],
        maps: 4,
        rooms: 7,
        layout: dungeonsmith::myk::model::Layout::Junction,
        objective: None,
    };
    let s = dungeonsmith::myk::generate(tables, &p, 1).unwrap();
    assert_eq!(broken_book_rule(&s, tables), None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn generated_and_rerolled_scenarios_keep_the_rules_that_need_a_bearer_a_way_in_or_named_monsters(i in 0u64..1_000_000) {
        let failure = case(crate::myk::tables(), i, 3);
        prop_assert!(failure.is_none(), "{}", failure.unwrap_or_default());
    }
}

// ---- One hand-made scenario per rule: each broken rule fails `check` with its id, each edit the
// ---- book allows passes. Built from a generated junction dungeon with its traps taken out, so
// ---- the one edit is all that differs.

use dungeonsmith::myk::model::{Corridor, Entrance, Place, PlacedTrap, RoomId};

/// A trap of the tables, placed as the book gives it (Event traps on `object`).
fn trap(tables: &Tables, name: &str, object: Option<&str>) -> PlacedTrap {
    let rec = tables.myk.trap(name).expect("a trap of the tables");
    let level = match rec.level {
        dungeonsmith::tables::myk::Level::Fixed(n) => n,
        dungeonsmith::tables::myk::Level::Range(a, _) => a,
    };
    PlacedTrap {
        name: rec.name.clone(),
        category: rec.category,
        level,
        placement: rec.placement,
        activation: rec.activation,
        disarm: rec.disarm_text.clone(),
        object: object.map(Into::into),
        converted: false,
        corridor: None,
        destination: None,
        summary: rec.summary.clone(),
        monsters: Vec::new(),
    }
}

/// A legal dungeon of `maps` maps for a court of six at level 10 (room in every limit), with no
/// traps; the first seed from 0 where `want` holds.
fn bare(maps: u32, want: impl Fn(&Scenario) -> bool) -> Scenario {
    let tables = crate::myk::tables();
    let p = dungeonsmith::myk::MykParams {
        levels: vec![10; 6],
        maps,
        rooms: 7,
        layout: dungeonsmith::myk::model::Layout::Junction,
        objective: None,
    };
    for seed in 0..500 {
        let mut s = dungeonsmith::myk::generate(tables, &p, seed).unwrap();
        for m in &mut s.maps {
            m.rooms.iter_mut().for_each(|r| r.traps.clear());
            m.corridors.iter_mut().for_each(|c| (c.trap, c.one_way) = (None, None));
        }
        if want(&s) && dungeonsmith::myk::check(&s, tables).is_empty() {
            return s;
        }
    }
    panic!("no seed below 500 gives the scenario wanted");
}

fn rules(s: &Scenario) -> Vec<&'static str> {
    dungeonsmith::myk::check(s, crate::myk::tables()).iter().map(|v| v.rule).collect()
}

fn corridors_of(s: &Scenario, map: usize, r: RoomId) -> Vec<&Corridor> {
    s.maps[map].corridors.iter().filter(|c| c.id().touches(r)).collect()
}

/// A room of map 1 with exactly one corridor and no entrance, not holding the ruler.
fn leaf(s: &Scenario) -> Option<RoomId> {
    let m = &s.maps[0];
    m.used_rooms().map(|r| r.id).find(|&r| {
        corridors_of(s, 0, r).len() == 1 && !m.entrances.iter().any(|e| e.room == r) && m.room(r).ruler.is_none()
    })
}

#[test]
fn a_secret_door_hiding_its_rooms_only_way_in_fails_with_trap_secret_door() {
    let tables = crate::myk::tables();
    let mut s = bare(1, |s| leaf(s).is_some());
    let r = leaf(&s).unwrap();
    let c = corridors_of(&s, 0, r)[0].id();
    s.maps[0].rooms[r.index()].traps.push(PlacedTrap { corridor: Some(c), ..trap(tables, "Secret Door", None) });
    assert!(rules(&s).contains(&"trap.secret-door"), "{:?}", rules(&s));
    assert!(broken_book_rule(&s, tables).is_some());
    // On the far side the door is found from the room the court stands in: legal.
    s.maps[0].rooms[r.index()].traps.clear();
    s.maps[0].rooms[c.other(r).index()]
        .traps
        .push(PlacedTrap { corridor: Some(c), ..trap(tables, "Secret Door", None) });
    assert_eq!(rules(&s), Vec::<&str>::new());
}

/// A used room of map 1 without monsters or ruler, and one with monsters.
fn quiet_and_busy(s: &Scenario) -> Option<(RoomId, RoomId)> {
    let m = &s.maps[0];
    let quiet = m.used_rooms().find(|r| !r.has_monsters())?.id;
    let busy = m.used_rooms().find(|r| !r.monsters.is_empty() && r.ruler.is_none())?.id;
    Some((quiet, busy))
}

#[test]
fn borracho_and_horror_on_a_monster_need_a_monster_in_the_room_trap_bearer() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, busy) = quiet_and_busy(&s0).unwrap();
    for (name, object) in [("Borracho", "npc"), ("Horror", "monster")] {
        let mut s = s0.clone();
        s.maps[0].rooms[quiet.index()].traps.push(trap(tables, name, Some(object)));
        assert!(rules(&s).contains(&"trap.bearer"), "{name}: {:?}", rules(&s));
        let mut s = s0.clone();
        s.maps[0].rooms[busy.index()].traps.push(trap(tables, name, Some(object)));
        assert_eq!(rules(&s), Vec::<&str>::new(), "{name} beside monsters");
    }
    // Horror on a corpse needs no monster.
    let mut s = s0.clone();
    s.maps[0].rooms[quiet.index()].traps.push(trap(tables, "Horror", Some("corpse")));
    assert_eq!(rules(&s), Vec::<&str>::new());
}

#[test]
fn dead_angle_names_monsters_of_the_scenario_trap_gate_keeper() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, busy) = quiet_and_busy(&s0).unwrap();
    let mut s = s0.clone();
    s.maps[0].rooms[quiet.index()].traps.push(trap(tables, "Dead Angle", None));
    assert!(rules(&s).contains(&"trap.gate-keeper"), "naming none: {:?}", rules(&s));
    // Naming one monster of the scenario, one of them: allowed.
    let mut g = s0.maps[0].room(busy).monsters[0].clone();
    g.count = 1;
    g.reaction = dungeonsmith::myk::model::Reaction::Hostile;
    s.maps[0].rooms[quiet.index()].traps[0].monsters = vec![g];
    assert_eq!(rules(&s), Vec::<&str>::new());
}

#[test]
fn a_teleporter_into_or_out_of_a_warder_room_fails_with_trap_warder() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| s.maps[0].used_rooms().count() >= 3);
    let ids: Vec<RoomId> = s0.maps[0].used_rooms().map(|r| r.id).collect();
    let (warded, other) = (ids[0], ids[1]);
    let map = s0.maps[0].index;
    let mut base = s0.clone();
    base.maps[0].rooms[warded.index()].traps.push(trap(tables, "Warder", Some("door")));
    assert_eq!(rules(&base), Vec::<&str>::new(), "a Warder alone is legal");
    let tp = |to| PlacedTrap { destination: Some(Place { map, room: to }), ..trap(tables, "Teleporter", Some("door")) };
    let mut into = base.clone();
    into.maps[0].rooms[other.index()].traps.push(tp(warded));
    assert!(rules(&into).contains(&"trap.warder"), "into: {:?}", rules(&into));
    let mut out = base.clone();
    out.maps[0].rooms[warded.index()].traps.push(tp(other));
    assert!(rules(&out).contains(&"trap.warder"), "out of: {:?}", rules(&out));
}

#[test]
fn self_destruction_on_a_map_without_a_ruler_fails_with_trap_spoils() {
    let tables = crate::myk::tables();
    // Every generated map has a ruler: take map 1's away (the objective names the last map's).
    let s0 = bare(2, |_| true);
    let (bare_map, ruled) = (0, 1);
    let spoils = trap(tables, "Self-destruction", Some("ruler's spoils"));
    let mut s = s0.clone();
    s.maps[0].rooms.iter_mut().for_each(|r| r.ruler = None);
    let room = s.maps[bare_map].used_rooms().next().unwrap().id;
    s.maps[bare_map].rooms[room.index()].traps.push(spoils.clone());
    assert!(rules(&s).contains(&"trap.spoils"), "{:?}", rules(&s));
    let mut s = s0.clone();
    let room = s.maps[ruled].rooms.iter().find(|r| r.ruler.is_some()).unwrap().id;
    s.maps[ruled].rooms[room.index()].traps.push(spoils);
    assert_eq!(rules(&s), Vec::<&str>::new());
}

#[test]
fn an_encounter_table_of_another_level_count_or_monster_fails_with_encounters_table() {
    let s0 = bare(1, |_| true);
    let mut level = s0.clone();
    level.encounters.level = if level.encounters.level == 1 { 2 } else { 1 };
    assert!(rules(&level).contains(&"encounters.table"), "{:?}", rules(&level));
    let mut count = s0.clone();
    let row = count.encounters.rows.iter().position(|r| !r.groups.is_empty()).unwrap();
    count.encounters.rows[row].groups[0].count += 1;
    assert!(rules(&count).contains(&"encounters.table"), "{:?}", rules(&count));
    let mut monster = s0.clone();
    monster.encounters.rows[row].groups[0].name = "Goblin King".into();
    assert!(rules(&monster).contains(&"encounters.table"), "{:?}", rules(&monster));
}

#[test]
fn a_search_clue_of_another_difficulty_fails_with_clue_search_difficulty() {
    use dungeonsmith::myk::model::ClueMethod;
    let mut s = bare(1, |s| s.clues.iter().any(|c| c.method == ClueMethod::Search));
    let want = s.court.size + 7;
    let c = s.clues.iter_mut().find(|c| c.method == ClueMethod::Search).unwrap();
    assert!(c.how.contains(&want.to_string()));
    c.how = format!("search check in the room, difficulty {}", want + 2);
    assert!(rules(&s).contains(&"clue.search-difficulty"), "{:?}", rules(&s));
}

#[test]
fn guillotine_in_a_corridor_and_poison_needle_on_another_object_are_allowed() {
    let tables = crate::myk::tables();
    let mut s = bare(1, |s| quiet_and_busy(s).is_some());
    s.maps[0].corridors[0].trap = Some(trap(tables, "Guillotine", Some("corridor")));
    let (quiet, _) = quiet_and_busy(&s).unwrap();
    s.maps[0].rooms[quiet.index()].traps.push(trap(tables, "Poison Needle", Some("lantern")));
    assert_eq!(rules(&s), Vec::<&str>::new());
    // A trap with a closed list still refuses another object.
    s.maps[0].rooms[quiet.index()].traps.push(trap(tables, "Horror", Some("lantern")));
    assert!(rules(&s).contains(&"trap.object"), "{:?}", rules(&s));
}

/// Map 1's ruler room, when it has one corridor and no entrance.
fn lone_ruler(s: &Scenario) -> Option<RoomId> {
    let m = &s.maps[0];
    let r = m.rooms.iter().find(|r| r.ruler.is_some())?.id;
    (corridors_of(s, 0, r).len() == 1 && !m.entrances.iter().any(|e| e.room == r)).then_some(r)
}

#[test]
fn a_lock_on_the_only_corridor_to_the_rulers_room_is_allowed() {
    let tables = crate::myk::tables();
    let mut s = bare(1, |s| lone_ruler(s).is_some());
    let r = lone_ruler(&s).unwrap();
    let c = s.maps[0].corridors.iter().position(|c| c.id().touches(r)).unwrap();
    s.maps[0].corridors[c].trap = Some(trap(tables, "Lock", None));
    assert_eq!(rules(&s), Vec::<&str>::new());
    // A Secret Door there still makes the ruler's room special movement only.
    s.maps[0].corridors[c].trap = None;
    let id = s.maps[0].corridors[c].id();
    s.maps[0].rooms[id.other(r).index()]
        .traps
        .push(PlacedTrap { corridor: Some(id), ..trap(tables, "Secret Door", None) });
    assert!(rules(&s).contains(&"reach.ruler"), "{:?}", rules(&s));
}

#[test]
fn a_second_map_with_its_own_way_in_from_outside_is_allowed() {
    let s0 = bare(2, |s| s.maps[1].entrances.len() == 1);
    let mut s = s0.clone();
    let m = &s.maps[1];
    let taken = m.entrances[0].room;
    let (room, wall) = m
        .used_rooms()
        .filter(|r| r.id != taken)
        .find_map(|r| r.id.exterior_walls().next().map(|w| (r.id, w)))
        .expect("a used room on the sheet's edge");
    s.maps[1].entrances.push(Entrance { room, wall, to: None });
    assert_eq!(rules(&s), Vec::<&str>::new());
    // A third entrance is too many.
    let mut three = s.clone();
    let e = three.maps[1].entrances[1].clone();
    three.maps[1].entrances.push(e);
    assert!(rules(&three).contains(&"entrance.count"), "{:?}", rules(&three));
}

#[test]
fn five_clues_are_a_warning_clues_count_not_an_error() {
    use dungeonsmith::check::Severity;
    let mut s = bare(1, |s| {
        s.clues.len() == 4
            && s.maps[0].rooms.iter().all(|r| r.ruler.as_ref().is_none_or(|ru| ru.adjustments.is_empty()))
    });
    let extra = s.clues[0].clone();
    s.clues.push(extra);
    let v = dungeonsmith::myk::check(&s, crate::myk::tables());
    assert_eq!(v.iter().map(|v| (v.rule, v.severity)).collect::<Vec<_>>(), vec![("clues.count", Severity::Warning)]);
}

#[test]
fn a_weak_point_of_the_gms_own_with_its_levels_and_clue_is_a_warning() {
    use dungeonsmith::check::Severity;
    use dungeonsmith::myk::model::{Adjustment, AdjustmentKind};
    let mut s = bare(1, |s| {
        let m = &s.maps[0];
        m.rooms.iter().any(|r| r.ruler.as_ref().is_some_and(|ru| ru.adjustments.is_empty()))
            && s.clues.len() < 4
            && s.clues.iter().any(|c| {
                m.rooms.iter().any(|r| r.ruler.is_some() && c.reveals == Reveals::Room(Place { map: 1, room: r.id }))
            })
    });
    let room = s.maps[0].rooms.iter().position(|r| r.ruler.is_some()).unwrap();
    let ruler = s.maps[0].rooms[room].ruler.as_mut().unwrap();
    ruler.adjustments.push(Adjustment::new(AdjustmentKind::WeakPoint, "Fear of Mirrors", 1, -2));
    ruler.effective_level -= 2;
    let told = Reveals::Room(Place { map: 1, room: s.maps[0].rooms[room].id });
    let mut clue = s.clues.iter().find(|c| c.reveals == told).unwrap().clone();
    clue.text = format!("{} Its weak point is Fear of Mirrors.", clue.text);
    s.clues.push(clue);
    let v = dungeonsmith::myk::check(&s, crate::myk::tables());
    assert_eq!(
        v.iter().map(|v| (v.rule, v.severity)).collect::<Vec<_>>(),
        vec![("weak-point.own", Severity::Warning)],
        "{v:?}"
    );
    // Without the levels it takes off, the rules cannot count it.
    let ruler = s.maps[0].rooms[room].ruler.as_mut().unwrap();
    ruler.adjustments.last_mut().unwrap().levels = 0;
    ruler.effective_level += 2;
    assert!(rules(&s).contains(&"weak-point.unknown"), "{:?}", rules(&s));
}
