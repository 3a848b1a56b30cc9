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
                    let without =
                        Reach::new(s, tables).from_outside_without(Reveals::Corridor { map: m.index, corridor: c });
                    if !Reach::at(&without, p, r.id) {
                        return Some(format!("{at}: the Secret Door's corridor {c} is the room's only way in"));
                    }
                }
                let object = t.object.as_deref().unwrap_or_default().to_ascii_lowercase();
                let on_monster = object == "monster" || object.ends_with(" monster");
                if (rec.bearer || on_monster) && r.monsters.is_empty() && r.ruler.is_none() {
                    return Some(format!("{at}: `{}` sits on a creature, but the room has none", t.name));
                }
                let of_kind = |n: &str| {
                    tables
                        .myk
                        .monster(n)
                        .is_some_and(|m| object == format!("{} monster", m.category.label().to_ascii_lowercase()))
                };
                if object.ends_with(" monster")
                    && !r.monsters.iter().any(|g| of_kind(&g.name))
                    && !r.ruler.as_ref().is_some_and(|ru| of_kind(&ru.name))
                {
                    return Some(format!("{at}: `{}` sits on a {object}, but the room has none", t.name));
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
        ..Default::default()
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
        choice: None,
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
        ..Default::default()
    };
    for seed in 0..500 {
        let mut s = dungeonsmith::myk::generate(tables, &p, seed).unwrap();
        for m in &mut s.maps {
            m.rooms.iter_mut().for_each(|r| r.traps.clear());
            m.corridors.iter_mut().for_each(|c| (c.trap, c.one_way) = (None, None));
        }
        // A clue that told of a trap cleared here no longer holds (`clue.fact`).
        let told: Vec<bool> = s.clues.iter().map(|c| dungeonsmith::myk::clues::tells_truth(&s, c)).collect();
        let mut keep = told.into_iter();
        s.clues.retain(|_| keep.next().unwrap_or(true));
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
fn the_encounter_table_is_compared_whenever_its_tables_are_known_and_an_unknown_tag_is_a_warning_naming_it() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |_| true);
    let mut edited = s0.clone();
    let row = edited.encounters.rows.iter().position(|r| !r.groups.is_empty()).unwrap();
    edited.encounters.rows[row].groups[0].count += 1;
    // The built-in tables are known even when another folder is in use: the rows are compared.
    assert_eq!(edited.generator.tables.as_str(), dungeonsmith::tables::EMBEDDED_TABLES_VERSION);
    assert!(rules(&edited).contains(&"encounters.table"));
    // A hand edit that also changes the tag: a warning naming the tag and the row that differs.
    edited.generator.tables = "0123456789ab".into();
    let v = dungeonsmith::myk::check(&edited, tables);
    let w: Vec<_> = v.iter().filter(|v| v.rule == "encounters.tables-unknown").collect();
    assert_eq!(w.len(), 1, "{v:?}");
    assert!(!w[0].is_error(), "{}", w[0]);
    assert!(w[0].message.contains("`0123456789ab`") && w[0].message.contains(&format!("row {}", row + 1)), "{}", w[0]);
    // Unedited rows under an unknown tag: still the warning, saying they match.
    let mut tag_only = s0.clone();
    tag_only.generator.tables = "0123456789ab".into();
    let v = dungeonsmith::myk::check(&tag_only, tables);
    assert!(v.iter().any(|v| v.rule == "encounters.tables-unknown" && v.message.contains("match")), "{v:?}");
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
fn a_search_clues_difficulty_is_a_number_court_size_plus_7_whatever_its_wording() {
    use dungeonsmith::myk::model::ClueMethod;
    let s0 = bare(1, |s| {
        s.clues.iter().any(|c| c.method == ClueMethod::Search) && s.clues.iter().any(|c| c.method != ClueMethod::Search)
    });
    let want = s0.court.size + 7;
    let search = s0.clues.iter().position(|c| c.method == ClueMethod::Search).unwrap();
    let other = s0.clues.iter().position(|c| c.method != ClueMethod::Search).unwrap();
    // Generated: the number is recorded (seed 003 l.1925).
    assert!(s0.clues.iter().all(|c| c.difficulty == (c.method == ClueMethod::Search).then_some(want)));
    let broken = |edit: &dyn Fn(&mut Scenario)| {
        let mut s = s0.clone();
        edit(&mut s);
        rules(&s).contains(&"clue.search-difficulty")
    };
    assert!(broken(&|s| s.clues[search].difficulty = Some(want + 1)), "another number");
    // No number (a method changed by hand): the book's number holds, and `fix` writes it.
    assert!(!broken(&|s| s.clues[search].difficulty = None), "no number");
    // Wordings the old check read past: every number they name is compared.
    assert!(broken(&|s| s.clues[search].how = "a search, difficulty of 9".into()));
    assert!(broken(&|s| s.clues[search].how = "Wit or Quest / 9".into()));
    assert!(broken(&|s| s.clues[other].difficulty = Some(want)), "a difficulty on another method");
    // A wording of the GM's own without another number is theirs to choose.
    assert!(!broken(&|s| s.clues[search].how = "search under the loose flagstone".into()));
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
        s.clues.len() >= 2
            && s.maps[0].rooms.iter().all(|r| r.ruler.as_ref().is_none_or(|ru| ru.adjustments.is_empty()))
    });
    while s.clues.len() < 5 {
        let extra = s.clues[0].clone();
        s.clues.push(extra);
    }
    let v = dungeonsmith::myk::check(&s, crate::myk::tables());
    assert_eq!(v.iter().map(|v| (v.rule, v.severity)).collect::<Vec<_>>(), vec![("clues.count", Severity::Warning)]);
}

#[test]
fn a_weak_point_of_the_gms_own_with_its_levels_and_clue_is_a_warning() {
    use dungeonsmith::check::Severity;
    let (mut s, room) = own_weak_point(2);
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

/// A legal scenario whose map-1 ruler has a weak point of the GM's own, "Fear of Mirrors", taking
/// `levels` off (its effective level lowered to match), told by a clue; and the ruler's room index.
fn own_weak_point(levels: u32) -> (Scenario, usize) {
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
    ruler.adjustments.push(Adjustment::new(AdjustmentKind::WeakPoint, "Fear of Mirrors", 1, -(levels as i32)));
    ruler.effective_level = ruler.effective_level.saturating_sub(levels);
    let told = Reveals::Room(Place { map: 1, room: s.maps[0].rooms[room].id });
    let mut clue = s.clues.iter().find(|c| c.reveals == told).unwrap().clone();
    clue.text = format!("{} Its weak point is Fear of Mirrors.", clue.text);
    s.clues.push(clue);
    (s, room)
}

#[test]
fn a_gms_own_weak_point_takes_off_no_more_than_the_books_largest_weak_point_own_discount() {
    let tables = crate::myk::tables();
    // Time Limit's 8 is the largest the book's list gives (seed 003 l.6797-6870).
    assert_eq!(dungeonsmith::myk::weak_points::largest_listed(&tables.myk), 8);
    let (s, _) = own_weak_point(8);
    let v = dungeonsmith::myk::check(&s, tables);
    assert_eq!(dungeonsmith::check::errors(&v, false), 0, "{v:?}");
    let (s, _) = own_weak_point(9);
    assert!(rules(&s).contains(&"weak-point.own-discount"), "{:?}", rules(&s));
}

#[test]
fn split_core_needs_two_or_more_holders_weak_point_split_core() {
    use dungeonsmith::myk::model::AdjustmentKind;
    let tables = crate::myk::tables();
    let split = |s: &Scenario| {
        s.maps
            .iter()
            .flat_map(|m| &m.rooms)
            .flat_map(|r| &r.ruler)
            .any(|ru| ru.adjustments.iter().any(|a| a.what == "Split Core"))
    };
    let p = dungeonsmith::myk::MykParams {
        levels: vec![10; 6],
        maps: 1,
        rooms: 7,
        layout: dungeonsmith::myk::model::Layout::Junction,
        objective: None,
        ..Default::default()
    };
    let mut s =
        (0..3000).map(|seed| dungeonsmith::myk::generate(tables, &p, seed).unwrap()).find(split).expect("a Split Core");
    assert_eq!(dungeonsmith::check::errors(&dungeonsmith::myk::check(&s, tables), false), 0);
    let a = s.maps[0]
        .rooms
        .iter_mut()
        .flat_map(|r| r.ruler.as_mut())
        .flat_map(|ru| ru.adjustments.iter_mut())
        .find(|a| a.kind == AdjustmentKind::WeakPoint && a.what == "Split Core")
        .unwrap();
    // One holder: the book says "several" (l.6843).
    a.cores.truncate(1);
    a.cores[0].count = 1;
    assert!(rules(&s).contains(&"weak-point.split-core"), "{:?}", rules(&s));
}

#[test]
fn public_enemy_is_never_sealed_and_a_sealed_one_fails_weak_point_sealed() {
    use dungeonsmith::myk::model::{Adjustment, AdjustmentKind};
    let tables = crate::myk::tables();
    // Generated: over many rulers with Sealed, never Public Enemy (l.6570: it cannot be prevented).
    let p = dungeonsmith::myk::MykParams {
        levels: vec![12; 6],
        maps: 3,
        rooms: 7,
        layout: dungeonsmith::myk::model::Layout::Junction,
        objective: None,
        ..Default::default()
    };
    let mut sealed = 0;
    let has_public_enemy =
        |name: &str| tables.myk.monster(name).is_some_and(|m| m.skills.iter().any(|k| k.starts_with("Public Enemy")));
    let mut with_public_enemy = None;
    for seed in 0..150 {
        let s = dungeonsmith::myk::generate(tables, &p, seed).unwrap();
        if with_public_enemy.is_none()
            && s.maps.iter().flat_map(|m| &m.rooms).flat_map(|r| &r.ruler).any(|ru| has_public_enemy(&ru.name))
        {
            with_public_enemy = Some(s.clone());
        }
        for a in s.maps.iter().flat_map(|m| &m.rooms).flat_map(|r| &r.ruler).flat_map(|ru| &ru.adjustments) {
            sealed += a.sealed.len();
            assert!(!a.sealed.iter().any(|k| k.starts_with("Public Enemy")), "seed {seed}: {a:?}");
        }
    }
    assert!(sealed > 0, "no sealed skill in 150 scenarios");
    assert!(!dungeonsmith::myk::weak_points::sealable(tables, "Public Enemy (Monster)"));
    assert!(dungeonsmith::myk::weak_points::sealable(tables, "Breath (Monster)"));
    // A GM who seals it by hand: refused.
    let mut s = with_public_enemy.expect("a ruler with Public Enemy in 150 scenarios");
    let ru = s
        .maps
        .iter_mut()
        .flat_map(|m| &mut m.rooms)
        .flat_map(|r| r.ruler.as_mut())
        .find(|ru| has_public_enemy(&ru.name))
        .unwrap();
    let mut a = Adjustment::new(AdjustmentKind::WeakPoint, "Sealed", 1, -4);
    a.sealed = vec!["Public Enemy (Monster)".into()];
    ru.adjustments.push(a);
    let v = dungeonsmith::myk::check(&s, tables);
    assert!(v.iter().any(|v| v.rule == "weak-point.sealed" && v.message.contains("cannot be prevented")), "{v:?}");
}

#[test]
fn a_traps_disarm_is_its_tables_trap_disarm() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, _) = quiet_and_busy(&s0).unwrap();
    let mut s = s0.clone();
    s.maps[0].rooms[quiet.index()].traps.push(trap(tables, "Drop Ceiling", None));
    assert_eq!(rules(&s), Vec::<&str>::new());
    s.maps[0].rooms[quiet.index()].traps[0].disarm = "Quest / 5".into();
    assert!(rules(&s).contains(&"trap.disarm"), "{:?}", rules(&s));
    // Letter case is no change of rule.
    s.maps[0].rooms[quiet.index()].traps[0].disarm = "QUEST / 9".into();
    assert_eq!(rules(&s), Vec::<&str>::new());
}

// ---- Object kinds (issue 34): an open list takes its kind and nothing else, a GM's own object
// ---- is a warning naming the nearest kinds, a monster of a type must stand there, case never matters.

/// The rules `check` reports for one Event trap on `object` in room `at` of map 1 (errors and warnings).
fn rules_with(s0: &Scenario, at: RoomId, name: &str, object: &str) -> Vec<&'static str> {
    let mut s = s0.clone();
    s.maps[0].rooms[at.index()].traps.push(trap(crate::myk::tables(), name, Some(object)));
    rules(&s)
}

#[test]
fn an_open_object_list_takes_only_objects_of_its_kind_trap_object() {
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, _) = quiet_and_busy(&s0).unwrap();
    // Seed 003 l.5681 (a work of art depicting a living being), l.5711 (a container), l.6077 (an
    // object related to movement): another kind of object is refused, another of the kind taken.
    for (name, wrong, right) in
        [("Living Statue", "door", "portrait"), ("Mimic", "river", "barrel"), ("Teleporter", "corpse", "cart")]
    {
        assert!(rules_with(&s0, quiet, name, wrong).contains(&"trap.object"), "{name} on {wrong}");
        let ok = rules_with(&s0, quiet, name, right);
        assert!(!ok.contains(&"trap.object") && !ok.contains(&"trap.object-own"), "{name} on {right}: {ok:?}");
    }
}

#[test]
fn a_gms_own_object_on_an_open_list_is_a_warning_naming_the_nearest_kinds_trap_object_own() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, _) = quiet_and_busy(&s0).unwrap();
    let mut s = s0.clone();
    s.maps[0].rooms[quiet.index()].traps.push(trap(tables, "Mimic", Some("gilded casket")));
    let v = dungeonsmith::myk::check(&s, tables);
    let own: Vec<_> = v.iter().filter(|v| v.rule == "trap.object-own").collect();
    assert_eq!(own.len(), 1, "{v:?}");
    assert!(!own[0].is_error() && own[0].message.contains("container"), "{}", own[0].message);
    assert_eq!(dungeonsmith::check::errors(&v, false), 0, "{v:?}");
    // On a closed list (Horror: a corpse or a monster) the GM's own object stays an error.
    assert!(rules_with(&s0, quiet, "Horror", "gilded casket").contains(&"trap.object"));
}

#[test]
fn poltergeist_on_a_construct_monster_needs_a_construct_in_the_room_trap_bearer() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, busy) = quiet_and_busy(&s0).unwrap();
    // Seed 003 l.5924 asks for a Construct Monster: "construct" alone is no object of the book's.
    assert!(rules_with(&s0, quiet, "Poltergeist", "construct").contains(&"trap.object"));
    assert!(rules_with(&s0, quiet, "Poltergeist", "Construct Monster").contains(&"trap.bearer"));
    let busy_has_construct = s0.maps[0].room(busy).monsters.iter().any(|g| {
        tables.myk.monster(&g.name).is_some_and(|m| m.category == dungeonsmith::tables::myk::MonsterCategory::Construct)
    });
    assert!(!busy_has_construct);
    assert!(rules_with(&s0, busy, "Poltergeist", "construct monster").contains(&"trap.bearer"));
    // The same room with its group swapped for a Construct of no higher level: legal.
    let mut s = s0.clone();
    let g = &mut s.maps[0].rooms[busy.index()].monsters[0];
    let clay = tables.myk.monster("Clay Figure").expect("a Construct of the bestiary");
    assert!(clay.level.unwrap() <= g.level);
    (g.name, g.level, g.effective_level) = (clay.name.clone(), clay.level.unwrap(), clay.level.unwrap());
    assert_eq!(rules(&s), Vec::<&str>::new());
    assert_eq!(rules_with(&s, busy, "Poltergeist", "construct monster"), Vec::<&str>::new());
}

#[test]
fn object_names_compare_in_any_letter_case() {
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, busy) = quiet_and_busy(&s0).unwrap();
    // Horror on "Monster", as the book capitalises it (l.5910): taken beside monsters ...
    assert_eq!(rules_with(&s0, busy, "Horror", "Monster"), Vec::<&str>::new());
    // ... and, in any case, still needs one in the room.
    assert!(rules_with(&s0, quiet, "Horror", "MONSTER").contains(&"trap.bearer"));
    assert_eq!(rules_with(&s0, quiet, "Mimic", "Treasure Chest"), Vec::<&str>::new());
}

#[test]
fn dead_angle_over_the_hostile_total_is_advice_for_any_number_and_gate_keeper_stays_an_error() {
    let tables = crate::myk::tables();
    let s0 = bare(1, |s| quiet_and_busy(s).is_some());
    let (quiet, busy) = quiet_and_busy(&s0).unwrap();
    let mut g = s0.maps[0].room(busy).monsters[0].clone();
    g.reaction = dungeonsmith::myk::model::Reaction::Hostile;
    // Far past 2S + T: the book says "choose any number of Monsters" (seed 003 l.5892).
    g.count = 1 + s0.limits.room_total_hostile / g.effective_level.max(1);
    let mut s = s0.clone();
    s.maps[0].rooms[quiet.index()]
        .traps
        .push(dungeonsmith::myk::model::PlacedTrap { monsters: vec![g.clone()], ..trap(tables, "Dead Angle", None) });
    let v = dungeonsmith::myk::check(&s, tables);
    assert!(v.iter().any(|v| v.rule == "trap.ambush-total" && !v.is_error()), "{v:?}");
    assert_eq!(dungeonsmith::check::errors(&v, false), 0, "{v:?}");
    // The Gate Keeper's ambush keeps the limit as a rule.
    let mut s = s0.clone();
    s.maps[0].corridors[0].trap =
        Some(dungeonsmith::myk::model::PlacedTrap { monsters: vec![g], ..trap(tables, "Gate Keeper", None) });
    assert!(rules(&s).contains(&"trap.gate-keeper"), "{:?}", rules(&s));
}
