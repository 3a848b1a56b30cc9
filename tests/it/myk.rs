//! The MYK generator and `check`, as rules: every generated dungeon is legal, and each rule catches
//! the scenario that breaks it.

use dungeonsmith::dice::Dice;
use dungeonsmith::myk::check::Reach;
use dungeonsmith::myk::model::{Layout, RoomId, Scenario};
use dungeonsmith::myk::{MykParams, check, generate};
use dungeonsmith::tables::Tables;
use std::sync::OnceLock;

pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

pub fn params(levels: Vec<u32>, maps: u32, rooms: u32, layout: Layout) -> MykParams {
    MykParams { levels, maps, rooms, layout, objective: None, ..Default::default() }
}

pub fn default_scenario(seed: u64) -> Scenario {
    generate(tables(), &params(vec![2; 4], 1, 9, Layout::Mixed), seed).expect("generates")
}

fn rules(s: &Scenario) -> Vec<&'static str> {
    check(s, tables()).into_iter().map(|v| v.rule).collect()
}

fn degree(s: &Scenario, map: usize, r: RoomId) -> usize {
    s.maps[map].corridors.iter().filter(|c| c.a == r || c.b == r).count()
}

/// Options drawn from a seed: every court size 1-12, levels 1-30, maps 1-20, rooms 3-9, each layout.
pub fn options_for(seed: u64) -> MykParams {
    let mut d = Dice::new(seed).child("test/options");
    let size = d.between(1, 12) as usize;
    let levels: Vec<u32> =
        if d.chance(1, 2) { vec![d.between(1, 12); size] } else { (0..size).map(|_| d.between(1, 30)).collect() };
    let maps = if d.chance(1, 10) { d.between(5, 20) } else { d.between(1, 4) };
    let layout = [Layout::Straight, Layout::Junction, Layout::Mixed][d.below(3) as usize];
    params(levels, maps, d.between(3, 9), layout)
}

#[test]
fn every_generated_scenario_passes_check_over_thousands_of_seeds_and_options() {
    for seed in crate::seeds(0..2500u64) {
        let p = options_for(seed);
        let s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed} {p:?}: {e}"));
        let v = check(&s, tables());
        assert!(v.is_empty(), "seed {seed} {p:?}: {v:?}");
        assert_eq!(s.maps.len() as u32, p.maps);
        for m in &s.maps {
            assert_eq!(
                m.used_rooms().count() as u32,
                p.rooms,
                "seed {seed}: map {} uses every room asked for",
                m.index
            );
            assert!(m.rooms.iter().filter(|r| r.ruler.is_some()).count() <= 1);
        }
    }
}

#[test]
fn every_map_has_a_ruler_and_a_defeat_objective_names_the_last_one() {
    for seed in 0..200 {
        let p = MykParams {
            objective: Some(dungeonsmith::myk::model::ObjectiveKind::Defeat),
            ..params(vec![3; 4], 3, 7, Layout::Junction)
        };
        let s = generate(tables(), &p, seed).unwrap();
        for m in &s.maps {
            assert!(m.rooms.iter().any(|r| r.ruler.is_some()), "seed {seed} map {} has no ruler", m.index);
        }
        let last = s.maps.last().unwrap();
        let ruler = last.rooms.iter().find_map(|r| r.ruler.as_ref()).unwrap();
        let objective = dungeonsmith::myk::frame::objective(&s);
        assert!(objective.contains(ruler.name.as_str()), "{objective}");
    }
}

#[test]
fn a_straight_layout_is_a_single_path_with_the_ruler_last() {
    for seed in crate::seeds(0..300) {
        let s = generate(tables(), &params(vec![2; 4], 1, 9, Layout::Straight), seed).unwrap();
        let m = &s.maps[0];
        assert_eq!(m.corridors.len(), 8);
        assert!(RoomId::ALL.iter().all(|&r| degree(&s, 0, r) <= 2));
        let ruler_room = m.rooms.iter().find(|r| r.ruler.is_some()).unwrap().id;
        assert_eq!(degree(&s, 0, ruler_room), 1, "seed {seed}: the ruler's room ends the path");
    }
}

#[test]
fn a_junction_layout_offers_a_choice() {
    for seed in crate::seeds(0..300) {
        let s = generate(tables(), &params(vec![2; 4], 1, 6, Layout::Junction), seed).unwrap();
        assert!(RoomId::ALL.iter().any(|&r| degree(&s, 0, r) >= 3), "seed {seed}: no room with 3+ corridors");
    }
}

#[test]
fn a_mixed_layout_has_a_room_reached_only_by_special_movement_and_the_ruler_by_a_normal_route() {
    let mut teleports = 0;
    for seed in crate::seeds(0..300) {
        let s = default_scenario(seed);
        let g = Reach::new(&s, tables());
        let (all, normal) = (g.from_outside(true), g.from_outside(false));
        let special: Vec<RoomId> = s.maps[0]
            .used_rooms()
            .map(|r| r.id)
            .filter(|&r| Reach::at(&all, 0, r) && !Reach::at(&normal, 0, r))
            .collect();
        assert!(!special.is_empty(), "seed {seed}: every room is reachable by plain corridors");
        // A normal route: plain corridors, and a Lock the court disarms (seed 003 l.6045).
        let mut unlocked = s.clone();
        for c in &mut unlocked.maps[0].corridors {
            if c.trap.as_ref().is_some_and(|t| t.name.as_ref() == "Lock") {
                c.trap = None;
            }
        }
        let ruler = s.maps[0].rooms.iter().find(|r| r.ruler.is_some()).unwrap().id;
        assert!(Reach::at(&Reach::new(&unlocked, tables()).from_outside(false), 0, ruler), "seed {seed}");
        teleports += s.maps[0].rooms.iter().flat_map(|r| &r.traps).filter(|t| t.destination.is_some()).count();
    }
    assert!(teleports > 0, "no teleporter in 300 mixed dungeons");
}

#[test]
fn the_same_seed_gives_byte_identical_json() {
    let a = serde_json::to_string_pretty(&default_scenario(42)).unwrap();
    let b = serde_json::to_string_pretty(&default_scenario(42)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, serde_json::to_string_pretty(&default_scenario(43)).unwrap());
}

#[test]
fn the_default_scenario_for_seed_42_is_golden() {
    insta::assert_snapshot!("myk_seed_42_json", serde_json::to_string_pretty(&default_scenario(42)).unwrap());
}

#[test]
fn json_round_trips_losslessly() {
    for seed in 0..50 {
        let s = default_scenario(seed);
        let json = serde_json::to_string(&s).unwrap();
        let back: Scenario = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
    }
}

#[test]
fn a_typo_in_a_hand_edited_scenario_is_an_error_naming_the_field() {
    let json = serde_json::to_string(&default_scenario(1)).unwrap().replacen("\"objective\"", "\"objectiv\"", 1);
    let e = serde_json::from_str::<Scenario>(&json).unwrap_err().to_string();
    assert!(e.contains("objectiv"), "{e}");
}

#[test]
fn traps_stay_within_3s_plus_a_in_number_and_10a_in_level() {
    for seed in crate::seeds(0..300) {
        let s = generate(tables(), &params(vec![1; 3], 3, 9, Layout::Mixed), seed).unwrap();
        assert!(s.usage.traps_number <= 3 * 3 + 1);
        assert!(s.usage.traps_total_level <= 10);
        assert!(s.usage.bases_total_level <= 1);
    }
}

#[test]
fn outside_the_books_range_the_formulas_apply_with_a_warning() {
    let s = generate(tables(), &params(vec![15; 8], 1, 9, Layout::Mixed), 5).unwrap();
    assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    assert_eq!(s.limits.ruler_level, 22);
    assert!(check(&s, tables()).is_empty());
}

// ---- hand-made invalid scenarios: each fails with the rule it breaks ----

fn first_monster_room(s: &Scenario) -> usize {
    s.maps[0].rooms.iter().position(|r| !r.monsters.is_empty() && r.ruler.is_none()).expect("a monster room")
}

#[test]
fn too_many_trap_levels_break_the_10a_limit() {
    let mut s = default_scenario(3);
    let c = s.maps[0].corridors.iter().position(|c| c.trap.is_none()).unwrap();
    let pit = dungeonsmith::myk::model::PlacedTrap {
        name: "Pit".into(),
        category: dungeonsmith::tables::myk::TrapCategory::Classic,
        level: 5,
        placement: dungeonsmith::tables::myk::Placement::Corridor,
        activation: dungeonsmith::tables::myk::Activation::Passage,
        disarm: "Discovery".into(),
        object: None,
        converted: false,
        corridor: None,
        destination: None,
        summary: Default::default(),
        choice: None,
        monsters: Vec::new(),
    };
    s.maps[0].corridors[c].trap = Some(pit.clone());
    for r in 0..9 {
        if s.maps[0].rooms[r].used {
            let mut p = pit.clone();
            p.placement = dungeonsmith::tables::myk::Placement::Room;
            s.maps[0].rooms[r].traps.push(p);
        }
    }
    let found = rules(&s);
    assert!(found.contains(&"traps.total-level"), "{found:?}");
    assert!(found.contains(&"trap.placement"), "a Corridor trap in a room: {found:?}");
}

#[test]
fn a_hostile_room_over_2s_plus_t_is_refused() {
    let mut s = default_scenario(4);
    let r = first_monster_room(&s);
    let g = &mut s.maps[0].rooms[r].monsters[0];
    g.reaction = dungeonsmith::myk::model::Reaction::Hostile;
    g.count = 40 / g.level.max(1) + 1;
    let v = check(&s, tables());
    let hit = v.iter().find(|v| v.rule == "room.total").expect("room.total violation");
    assert!(hit.message.contains("limit 16 for hostile monsters (2S + T)"), "{}", hit.message);
    assert_eq!(hit.place, format!("map 1 room {}", s.maps[0].rooms[r].id));
}

#[test]
fn a_monster_above_a_plus_4_is_refused() {
    let mut s = default_scenario(5);
    let r = first_monster_room(&s);
    s.maps[0].rooms[r].monsters[0].effective_level = 7;
    assert!(rules(&s).contains(&"monster.level-limit"));
}

#[test]
fn a_ruler_above_a_plus_7_is_refused_and_adjustments_must_add_up() {
    let mut s = default_scenario(6);
    let r = s.maps[0].rooms.iter().position(|r| r.ruler.is_some()).unwrap();
    let ruler = s.maps[0].rooms[r].ruler.as_mut().unwrap();
    ruler.adjustments.push(dungeonsmith::myk::model::Adjustment::new(
        dungeonsmith::myk::model::AdjustmentKind::Skill,
        "Purgatory",
        1,
        3,
    ));
    let found = rules(&s);
    assert!(found.contains(&"ruler.effective-level"), "{found:?}");
    let ruler = s.maps[0].rooms[r].ruler.as_mut().unwrap();
    ruler.effective_level = ruler.level + 20;
    assert!(rules(&s).contains(&"ruler.level-limit"));
}

#[test]
fn too_many_monster_rooms_on_a_map_are_refused() {
    let mut s = default_scenario(7);
    let group = s.maps[0].rooms[first_monster_room(&s)].monsters[0].clone();
    for r in s.maps[0].rooms.iter_mut().filter(|r| r.used) {
        if r.monsters.is_empty() && r.ruler.is_none() {
            let mut g = group.clone();
            g.count = 1;
            r.monsters.push(g);
        }
    }
    assert!(rules(&s).contains(&"monsters.rooms-per-map"));
}

#[test]
fn a_room_cut_off_from_the_entrance_is_unreachable() {
    let mut s = default_scenario(8);
    let ruler_room = s.maps[0].rooms.iter().find(|r| r.ruler.is_some()).unwrap().id;
    s.maps[0].corridors.retain(|c| c.a != ruler_room && c.b != ruler_room);
    for r in &mut s.maps[0].rooms {
        r.traps.retain(|t| t.destination != Some(dungeonsmith::myk::model::Place { map: 1, room: ruler_room }));
    }
    let v = check(&s, tables());
    assert!(
        v.iter().any(|v| v.rule == "reach.from-entrance" && v.place == format!("map 1 room {ruler_room}")),
        "{v:?}"
    );
}

#[test]
fn a_one_way_corridor_that_strands_the_court_is_refused() {
    // Make every corridor of the ruler's room lead into it only: the court cannot get back out.
    let mut s = default_scenario(9);
    let ruler_room = s.maps[0].rooms.iter().find(|r| r.ruler.is_some()).unwrap().id;
    let mut moving = None;
    for m in &s.maps {
        for c in &m.corridors {
            if c.one_way.is_some() {
                moving = c.trap.clone();
            }
        }
    }
    let moving = moving.unwrap_or_else(|| placed_trap("Moving Floor", 1, Vec::new()));
    for c in s.maps[0].corridors.iter_mut().filter(|c| c.a == ruler_room || c.b == ruler_room) {
        let other = if c.a == ruler_room { c.b } else { c.a };
        c.trap = Some(moving.clone());
        c.one_way = Some(dungeonsmith::myk::model::Direction { from: other, to: ruler_room });
    }
    let found = rules(&s);
    assert!(found.contains(&"reach.back"), "{found:?}");
}

#[test]
fn an_entrance_on_an_inner_wall_and_a_corridor_between_distant_rooms_are_refused() {
    let mut s = default_scenario(10);
    s.maps[0].entrances[0].room = "B2".parse().unwrap();
    s.maps[0].rooms[4].used = true;
    s.maps[0].corridors.push(dungeonsmith::myk::model::Corridor {
        a: "A1".parse().unwrap(),
        b: "C3".parse().unwrap(),
        trap: None,
        one_way: None,
    });
    let found = rules(&s);
    assert!(found.contains(&"entrance.wall") && found.contains(&"corridor.adjacent"), "{found:?}");
}

#[test]
fn names_must_exist_in_the_tables() {
    let mut s = default_scenario(11);
    let r = first_monster_room(&s);
    s.maps[0].rooms[r].monsters[0].name = "Tarrasque".into();
    let v = check(&s, tables());
    assert!(v.iter().any(|v| v.rule == "monster.unknown" && v.message.contains("`Tarrasque`")), "{v:?}");
}

#[test]
fn a_room_base_must_be_alone_but_for_one_addition() {
    let mut s = default_scenario(12);
    let fort =
        tables().myk.bases.iter().find(|b| b.installation == dungeonsmith::tables::myk::Installation::Room).unwrap();
    let placed = dungeonsmith::myk::model::PlacedBase {
        name: fort.name.clone(),
        level: fort.level.unwrap(),
        installation: fort.installation,
    };
    let r = s.maps[0].rooms.iter().position(|r| r.used).unwrap();
    s.maps[0].rooms[r].bases = vec![placed.clone(), placed];
    let found = rules(&s);
    assert!(found.contains(&"base.installation"), "{found:?}");
}

/// A trap from the tables placed by hand at `level`, as hand-made test scenarios need one.
pub fn placed_trap(
    name: &str,
    level: u32,
    monsters: Vec<dungeonsmith::myk::model::MonsterGroup>,
) -> dungeonsmith::myk::model::PlacedTrap {
    let rec = tables().myk.trap(name).expect("trap in the tables");
    dungeonsmith::myk::model::PlacedTrap {
        name: rec.name.clone(),
        category: rec.category,
        level,
        placement: rec.placement,
        activation: rec.activation,
        disarm: rec.disarm.to_string().into(),
        object: None,
        converted: false,
        corridor: None,
        destination: None,
        summary: Default::default(),
        choice: None,
        monsters,
    }
}

crate::in_full! {
    every_generated_scenario_passes_check_over_thousands_of_seeds_and_options => every_generated_scenario_passes_check_over_thousands_of_seeds_and_options_in_full,
    a_straight_layout_is_a_single_path_with_the_ruler_last => a_straight_layout_is_a_single_path_with_the_ruler_last_in_full,
    a_junction_layout_offers_a_choice => a_junction_layout_offers_a_choice_in_full,
    a_mixed_layout_has_a_room_reached_only_by_special_movement_and_the_ruler_by_a_normal_route => a_mixed_layout_has_a_room_reached_only_by_special_movement_and_the_ruler_by_a_normal_route_in_full,
    traps_stay_within_3s_plus_a_in_number_and_10a_in_level => traps_stay_within_3s_plus_a_in_number_and_10a_in_level_in_full,
}
