//! Clues a court can find, Warder rooms in reachability, texts that follow the data, and the
//! layout rule: each rule holds on thousands of generated scenarios, and a hand-made scenario
//! that breaks it fails `check` (exit 1) naming the rule.

use crate::myk::{default_scenario, options_for, params, tables};
use dungeonsmith::myk::check::Reach;
use dungeonsmith::myk::clues::{finds, method_fits, weak_points};
use dungeonsmith::myk::model::{
    Adjustment, AdjustmentKind, ClueMethod, CorridorId, Layout, Place, PlacedTrap, Reveals, RoomId, Scenario,
};
use dungeonsmith::myk::{check, generate};

/// `check` on the scenario written to a file: exit 1 and the rule named in the report.
fn fails_with(s: &Scenario, rule: &str) {
    let in_process: Vec<&str> = check(s, tables()).into_iter().map(|v| v.rule).collect();
    assert!(in_process.contains(&rule), "expected `{rule}`, got {in_process:?}");
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("ds-clue-{}-{n}-{rule}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(s).expect("serialises")).expect("writes");
    let (code, out, _) = crate::run(&["check", &path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("[{rule}]")), "{out}");
}

fn ruler_place(s: &Scenario, map: usize) -> Option<Place> {
    let m = &s.maps[map];
    m.rooms.iter().find(|r| r.ruler.is_some()).map(|r| Place { map: m.index, room: r.id })
}

/// A scenario with a secret door, the door's corridor, and a room reached only through it.
fn with_secret_door() -> (Scenario, CorridorId, Place) {
    for seed in 0..500 {
        let s = default_scenario(seed);
        let Some(c) = s.maps[0].rooms.iter().flat_map(|r| &r.traps).find_map(|t| t.corridor) else { continue };
        let all = Reach::new(&s, tables()).from_outside(true);
        let without = Reach::new(&s, tables()).from_outside_without(Reveals::Corridor { map: 1, corridor: c });
        if let Some(r) = RoomId::ALL.into_iter().find(|&r| Reach::at(&all, 0, r) && !Reach::at(&without, 0, r)) {
            return (s, c, Place { map: 1, room: r });
        }
    }
    panic!("no secret door with a room behind it in 500 seeds");
}

// ---- rules on generated scenarios ----

#[test]
fn generated_clues_are_found_without_passing_what_they_reveal_and_fit_their_rooms() {
    for seed in crate::seeds(0..2000u64) {
        let p = options_for(seed);
        let s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed} {p:?}: {e}"));
        let mut with_weak = 0;
        for (pos, m) in s.maps.iter().enumerate() {
            if let Some(place) = ruler_place(&s, pos) {
                let ru = m.room(place.room).ruler.as_ref().expect("ruler");
                let weak = weak_points(ru);
                with_weak += usize::from(!weak.is_empty());
                for w in weak {
                    assert!(
                        s.clues
                            .iter()
                            .any(|c| c.at.map == m.index && c.reveals == Reveals::Room(place) && c.text.contains(w)),
                        "seed {seed}: weak point {w} of map {} has no clue on its map",
                        m.index
                    );
                }
            }
        }
        assert!((2..=4 + with_weak).contains(&s.clues.len()), "seed {seed}: {} clues", s.clues.len());
        for c in &s.clues {
            let room = s.map(c.at.map).expect("map").room(c.at.room);
            assert!(room.used, "seed {seed}: clue in an unused room");
            if c.method == ClueMethod::Conversation {
                // Someone of the cast stands in the room to be asked.
                let npc = c.npc.and_then(|n| s.cast_member(n));
                assert!(npc.is_some_and(|n| n.place == Some(c.at)), "seed {seed}: nobody to ask in {}", c.at.room);
            } else {
                assert!(method_fits(room, c.method), "seed {seed}: {:?} in {}", c.method, c.at.room);
            }
            assert_ne!(Reveals::Room(c.at), c.reveals, "seed {seed}: a clue lies in the room it reveals");
            assert!(finds(&s, tables(), c.reveals).contains(&c.at), "seed {seed}: clue behind {}", c.reveals);
        }
        let clue_rules: Vec<_> = check(&s, tables()).into_iter().filter(|v| v.rule.starts_with("clue")).collect();
        assert!(clue_rules.is_empty(), "seed {seed}: {clue_rules:?}");
    }
}

#[test]
fn over_default_seeds_no_secret_door_clue_is_behind_its_door_and_every_weak_point_has_a_clue() {
    let (mut door_clues, mut weak) = (0, 0);
    for seed in 1..=200 {
        let s = default_scenario(seed);
        for c in &s.clues {
            if let Reveals::Corridor { corridor, .. } = c.reveals {
                let behind = Reach::new(&s, tables()).from_outside_without(c.reveals);
                assert!(Reach::at(&behind, 0, c.at.room), "seed {seed}: clue to {corridor} lies behind it");
                door_clues += 1;
            }
        }
        if let Some(place) = ruler_place(&s, 0) {
            let ru = s.maps[0].room(place.room).ruler.as_ref().expect("ruler");
            for w in weak_points(ru) {
                weak += 1;
                assert!(s.clues.iter().any(|c| c.text.contains(w) && c.at != place), "seed {seed}: {w}");
            }
        }
    }
    assert!(door_clues > 20 && weak > 20, "{door_clues} corridor clues, {weak} weak points");
}

#[test]
fn the_issues_seed_110_finds_every_clue_in_front_of_what_it_reveals() {
    let s = default_scenario(110);
    for c in &s.clues {
        assert!(finds(&s, tables(), c.reveals).contains(&c.at), "{c:?}");
    }
    assert!(check(&s, tables()).is_empty());
}

#[test]
fn every_court_gets_a_ruler_when_any_monster_fits_even_at_level_30() {
    for level in [1, 7, 15, 22, 30] {
        for seed in 0..10 {
            let p = dungeonsmith::myk::MykParams {
                objective: Some(dungeonsmith::myk::model::ObjectiveKind::Defeat),
                ..params(vec![level; 4], 2, 9, Layout::Mixed)
            };
            let s = generate(tables(), &p, seed).expect("generates");
            for m in &s.maps {
                assert!(m.rooms.iter().any(|r| r.ruler.is_some()), "level {level} seed {seed} map {}", m.index);
            }
            let last = s.maps.last().and_then(|m| m.rooms.iter().find_map(|r| r.ruler.as_ref())).expect("a ruler");
            assert_eq!(s.objective.target, last.name.as_str(), "level {level} seed {seed}");
        }
    }
}

#[test]
fn generated_straight_layouts_have_no_junction() {
    for seed in 0..200 {
        let s = generate(tables(), &params(vec![3; 4], 2, 9, Layout::Straight), seed).expect("generates");
        assert!(!check(&s, tables()).iter().any(|v| v.rule == "layout.straight"));
    }
}

// ---- hand-made scenarios: each fails `check` with its rule ----

#[test]
fn a_clue_never_lies_behind_its_own_secret_door() {
    let (mut s, c, behind) = with_secret_door();
    s.clues[0].reveals = Reveals::Corridor { map: 1, corridor: c };
    s.clues[0].at = behind;
    s.clues[0].method = ClueMethod::Search;
    fails_with(&s, "clue.behind");
}

#[test]
fn a_clue_never_lies_in_the_rulers_room_when_it_reveals_the_ruler() {
    let mut s = default_scenario(110);
    let ruler = ruler_place(&s, 0).expect("a ruler");
    s.clues[0].reveals = Reveals::Room(ruler);
    s.clues[0].at = ruler;
    s.clues[0].method = ClueMethod::Search;
    fails_with(&s, "clue.behind");
}

#[test]
fn a_clue_behind_its_trapped_corridor_is_refused() {
    // Straight maps are one path: a clue about a corridor trap, placed past that corridor.
    for seed in 0..200 {
        let mut s = generate(tables(), &params(vec![3; 4], 1, 9, Layout::Straight), seed).expect("generates");
        let Some(c) = s.maps[0].corridors.iter().find(|c| c.trap.is_some()).map(|c| c.id()) else { continue };
        let reveals = Reveals::Corridor { map: 1, corridor: c };
        let before = finds(&s, tables(), reveals);
        let Some(past) = s.maps[0].used_rooms().map(|r| Place { map: 1, room: r.id }).find(|p| !before.contains(p))
        else {
            continue;
        };
        s.clues[0].reveals = reveals;
        s.clues[0].at = past;
        s.clues[0].method = ClueMethod::Search;
        fails_with(&s, "clue.behind");
        return;
    }
    panic!("no trapped corridor on a straight map in 200 seeds");
}

#[test]
fn every_weak_point_of_a_ruler_needs_a_clue_on_its_map() {
    let mut s = default_scenario(110);
    let ruler = ruler_place(&s, 0).expect("a ruler");
    let w = &tables().myk.weak_points[0];
    let ru = s.maps[0].rooms[ruler.room.index()].ruler.as_mut().expect("ruler");
    ru.adjustments.push(Adjustment::new(AdjustmentKind::WeakPoint, &w.name, 1, -(w.adjustment as i32)));
    ru.effective_level = (ru.effective_level as i32 - w.adjustment as i32).max(0) as u32;
    s.clues.retain(|c| !c.text.contains(w.name.as_str()));
    fails_with(&s, "clue.weak-point");
}

#[test]
fn a_clue_by_conversation_needs_monsters_to_talk_to() {
    let mut s = default_scenario(110);
    let quiet = s.maps[0].used_rooms().find(|r| !r.has_monsters()).expect("a room without monsters").id;
    s.clues[0].at = Place { map: 1, room: quiet };
    s.clues[0].reveals = Reveals::Room(ruler_place(&s, 0).expect("ruler"));
    s.clues[0].method = ClueMethod::Conversation;
    // Nobody of the cast is told to stand there either.
    s.clues[0].npc = None;
    fails_with(&s, "clue.method");
}

#[test]
fn a_clue_by_eliminating_a_threat_needs_a_threat() {
    let mut s = default_scenario(110);
    let calm = s.maps[0]
        .used_rooms()
        .find(|r| !r.has_monsters() && r.traps.is_empty() && r.bases.is_empty())
        .expect("a room without threats")
        .id;
    s.clues[0].at = Place { map: 1, room: calm };
    s.clues[0].method = ClueMethod::Threat;
    fails_with(&s, "clue.method");
}

#[test]
fn a_clue_reveals_a_used_room_or_an_existing_corridor() {
    let mut s = default_scenario(110);
    let unused = s.maps[0].rooms.iter().find(|r| !r.used).map(|r| r.id);
    s.clues[0].reveals = match unused {
        Some(r) => Reveals::Room(Place { map: 1, room: r }),
        None => Reveals::Room(Place { map: 9, room: RoomId::ALL[0] }),
    };
    fails_with(&s, "clue.reveals");
}

#[test]
fn reveals_names_a_room_or_a_corridor_never_both() {
    let s = default_scenario(110);
    let json = serde_json::to_string(&s).expect("json");
    let first = serde_json::to_string(&s.clues[0].reveals).expect("reveals");
    let both = json.replacen(&first, r#"{"map":1,"room":"A1","corridor":"A1-A2"}"#, 1);
    let e = serde_json::from_str::<Scenario>(&both).expect_err("both is refused").to_string();
    assert!(e.contains("exactly one"), "{e}");
    let typo = json.replacen(&first, r#"{"map":1,"rom":"A1"}"#, 1);
    let e = serde_json::from_str::<Scenario>(&typo).expect_err("a typo is refused").to_string();
    assert!(e.contains("rom"), "{e}");
}

#[test]
fn a_scenario_has_typically_two_to_four_clues_plus_one_per_ruler_with_weak_points_advice_strict_enforces() {
    let mut s = default_scenario(110);
    s.clues.truncate(1);
    let v = check(&s, tables());
    assert!(v.iter().any(|v| v.rule == "clues.count" && !v.is_error()), "a warning: {v:?}");
    let path = std::env::temp_dir().join(format!("ds-clue-{}-strict.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&s).expect("serialises")).expect("writes");
    let (code, out, _) = crate::run(&["check", "--strict", &path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("[clues.count]"), "{out}");
}

#[test]
fn a_straight_layout_has_no_junction() {
    let s = default_scenario(110);
    let mut s2 = s.clone();
    s2.params.layout = Layout::Straight;
    assert!(
        s.maps[0].used_rooms().any(|r| s.maps[0].corridors.iter().filter(|c| c.id().touches(r.id)).count() >= 3),
        "seed 110 has a junction"
    );
    fails_with(&s2, "layout.straight");
}

// ---- Warder ----

/// A Warder placed as the generator would (an Event trap on a Movement object).
fn warder() -> PlacedTrap {
    let rec = tables().myk.trap("Warder").expect("Warder is in the tables");
    PlacedTrap {
        name: rec.name.clone(),
        category: rec.category,
        level: 4,
        placement: rec.placement,
        activation: rec.activation,
        disarm: rec.disarm.to_string().into(),
        object: rec.objects.first().cloned(),
        converted: false,
        corridor: None,
        destination: None,
        summary: rec.summary.clone(),
        choice: None,
        monsters: Vec::new(),
    }
}

#[test]
fn a_warder_room_is_never_reached_by_teleporter() {
    // The issue's dungeon: map 1 room A3 is reached only by a Teleporter.
    let mut s = generate(tables(), &params(vec![7; 4], 2, 9, Layout::Mixed), 16).expect("generates");
    let a3: RoomId = "A3".parse().expect("room");
    let all = Reach::new(&s, tables()).from_outside(true);
    let plain = Reach::new(&s, tables()).from_outside(false);
    assert!(Reach::at(&all, 0, a3) && !Reach::at(&plain, 0, a3), "A3 is reached only by special movement");
    assert!(!s.maps[0].room(a3).traps.iter().any(|t| t.name == "Warder"), "the generator no longer wards it");
    s.maps[0].rooms[a3.index()].traps.push(warder());
    let v = check(&s, tables());
    assert!(v.iter().any(|v| v.rule == "reach.from-entrance" && v.place == "map 1 room A3"), "{v:?}");
    fails_with(&s, "reach.from-entrance");
}

#[test]
fn no_teleport_leaves_a_warder_room() {
    // Ward the room holding the Teleporter: its destination, reached only that way, is cut off.
    for seed in 0..300 {
        let mut s = default_scenario(seed);
        let Some(from) = s.maps[0].rooms.iter().position(|r| r.traps.iter().any(|t| t.destination.is_some())) else {
            continue;
        };
        s.maps[0].rooms[from].traps.push(warder());
        if check(&s, tables()).iter().any(|v| v.rule == "reach.from-entrance") {
            return;
        }
    }
    panic!("no teleporter whose destination depends on it in 300 seeds");
}

#[test]
fn generated_warders_never_guard_a_room_reached_only_by_special_movement() {
    let mut warders = 0;
    for seed in crate::seeds(0..1500u64) {
        let s = generate(tables(), &options_for(seed), seed).expect("generates");
        let plain = Reach::new(&s, tables()).from_outside(false);
        for (p, m) in s.maps.iter().enumerate() {
            for r in m.used_rooms().filter(|r| r.traps.iter().any(|t| t.name == "Warder")) {
                warders += 1;
                let teleported_in =
                    m.rooms.iter().flat_map(|x| &x.traps).any(|t| t.destination.map(|d| d.room) == Some(r.id));
                assert!(Reach::at(&plain, p, r.id) || !teleported_in, "seed {seed}: warded {} by teleporter", r.id);
            }
        }
    }
    // A Warder must come up somewhere: the `_in_full` twin's 1500 seeds.
    assert!(warders > 0 || !crate::full(), "no Warder in 1500 scenarios");
}

// ---- texts follow the data ----

fn render_md(s: &Scenario, tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ds-texts-{}-{tag}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join("edited.json");
    std::fs::write(&file, serde_json::to_string_pretty(s).expect("json")).expect("writes");
    let (code, _, err) =
        crate::run(&["render", &file.to_string_lossy(), "--out", &dir.to_string_lossy(), "--format", "md,json"]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(dir.join(format!("myk-{}.md", s.seed))).expect("markdown");
    let json = std::fs::read_to_string(dir.join(format!("myk-{}.json", s.seed))).expect("json");
    let back: Scenario = serde_json::from_str(&json).expect("parses");
    let _ = std::fs::remove_dir_all(&dir);
    let objective = dungeonsmith::myk::frame::objective(&back);
    assert!(md.contains(&objective), "the JSON objective is the rendered one");
    md
}

/// The booklet's Objective, Introduction and Resolution sections.
fn texts(md: &str) -> String {
    let start = md.find("## Objective").expect("objective section");
    let end = md.find("## The court").expect("court section");
    // The Resolution (or Epilogue) closes part one after the maps.
    let close = ["## Resolution", "## Epilogue"].iter().find_map(|h| md.find(h)).expect("a closing section");
    let reference = md.find("## Part two").unwrap_or(md.len());
    [&md[start..end], &md[close..reference]].concat()
}

#[test]
fn objective_introduction_resolution_and_clues_follow_renamed_rooms_maps_and_rulers() {
    let mut s = default_scenario(110);
    // A file from before objective kinds (format 2): its texts are derived from the dungeon.
    s.objective = dungeonsmith::myk::model::Objective::legacy();
    s.story = None;
    let ruler = ruler_place(&s, 0).expect("ruler");
    let old_map = s.maps[0].name.clone();
    let old_ruler = s.maps[0].room(ruler.room).ruler.as_ref().expect("ruler").name.clone();
    s.maps[0].name = "Renamed Hollow".into();
    s.maps[0].rooms[ruler.room.index()].name = "Throne of Edits".into();
    s.introduction = "{ruler} waits in the {map}.".into();
    let md = render_md(&s, "rename");
    assert!(md.contains("Renamed Hollow") && md.contains("Throne of Edits"), "{md}");
    let head = texts(&md);
    assert!(!head.contains(old_map.as_str()), "the old map name is stale in: {head}");
    assert!(head.contains(&format!("{old_ruler} waits in the Renamed Hollow.")), "{head}");
    let clues = &md[md.find("## Clues").expect("clues")..md.find("## Map 1").expect("map")];
    assert!(!clues.contains(old_map.as_str()), "a clue still names the old map: {clues}");
    assert!(clues.contains(&format!("{old_ruler} rules Renamed Hollow")), "{clues}");
    assert!(head.contains("\"Throne of Edits\""), "the objective names the renamed room: {head}");
}

#[test]
fn without_a_ruler_the_objective_says_so_and_names_no_one() {
    let mut s = default_scenario(110);
    // A file from before objective kinds (format 2): its texts are derived from the dungeon.
    s.objective = dungeonsmith::myk::model::Objective::legacy();
    s.story = None;
    let ruler = ruler_place(&s, 0).expect("ruler");
    let name = s.maps[0].room(ruler.room).ruler.as_ref().expect("ruler").name.clone();
    s.maps[0].rooms[ruler.room.index()].ruler = None;
    s.maps[0].rooms[ruler.room.index()].monsters.clear();
    // Combat (Area) traps need monsters to fight.
    s.maps[0].rooms[ruler.room.index()].traps.retain(|t| t.placement != dungeonsmith::tables::myk::Placement::Area);
    s.clues.retain(|c| c.reveals != Reveals::Room(ruler));
    while s.clues.len() < 2 {
        let mut c = s.clues[0].clone();
        c.method = ClueMethod::Search;
        s.clues.push(c);
    }
    s.introduction = "{ruler} sends a letter. The {map} waits.".into();
    s.resolution = "Success: {ruler} is gone. Failure: the court flees {ruler}.".into();
    let md = render_md(&s, "noruler");
    let head = texts(&md);
    assert!(!head.contains(name.as_str()), "the deleted ruler is still named: {head}");
    assert!(head.contains("No ruler holds the"), "{head}");
    assert!(head.contains("Whoever holds the") && head.contains("Success: Whoever holds the"), "{head}");
    assert!(head.contains("flees whoever holds the"), "{head}");
}

#[test]
fn generated_json_keeps_placeholders_and_the_booklet_fills_them() {
    let s = default_scenario(42);
    let view = dungeonsmith::myk::frame::fill(&s, &s.introduction);
    assert!(!view.contains('{'), "{view}");
    assert!(s.objective.text.contains('{'), "{}", s.objective.text);
    assert!(!dungeonsmith::myk::frame::objective(&s).contains('{'));
}

#[test]
fn format_1_clues_gain_what_they_reveal_from_their_text() {
    let dir = std::env::temp_dir().join(format!("ds-f1-clues-{}", std::process::id()));
    let (code, _, err) =
        crate::run(&["render", "tests/data/format1/myk-42.json", "--out", &dir.to_string_lossy(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let s: Scenario =
        serde_json::from_str(&std::fs::read_to_string(dir.join("myk-42.json")).expect("json")).expect("parses");
    let _ = std::fs::remove_dir_all(&dir);
    let reveals: Vec<String> = s.clues.iter().map(|c| c.reveals.to_string()).collect();
    assert_eq!(reveals, ["map 1 room B1", "map 1 corridor B2-C2", "map 1 corridor C1-C2", "map 1 corridor A1-B1"]);
}

#[test]
fn a_clue_lies_in_a_used_room() {
    let mut s = default_scenario(110);
    let unused = s.maps[0].rooms.iter().find(|r| !r.used).map_or(RoomId::ALL[0], |r| r.id);
    s.clues[0].at = Place { map: if s.maps[0].room(unused).used { 9 } else { 1 }, room: unused };
    fails_with(&s, "clue.place");
}

#[test]
fn a_weak_point_clue_on_another_map_does_not_count() {
    // Move every clue naming map 2's weak point onto map 1: the court would learn it elsewhere.
    for seed in 0..300 {
        let mut s = generate(tables(), &params(vec![4; 4], 2, 7, Layout::Junction), seed).expect("generates");
        let Some(place) = ruler_place(&s, 1) else { continue };
        let weak: Vec<String> = s.maps[1]
            .room(place.room)
            .ruler
            .as_ref()
            .map(|r| weak_points(r).into_iter().map(String::from).collect())
            .unwrap_or_default();
        if weak.is_empty() {
            continue;
        }
        let entry = s.maps[0].entrances.iter().find(|e| e.to.is_none()).expect("way in").room;
        for c in s.clues.iter_mut().filter(|c| weak.iter().any(|w| c.text.contains(w.as_str()))) {
            c.at = Place { map: 1, room: entry };
            c.method = ClueMethod::Search;
        }
        fails_with(&s, "clue.weak-point");
        return;
    }
    panic!("no map-2 ruler with a weak point in 300 seeds");
}

crate::in_full! {
    generated_clues_are_found_without_passing_what_they_reveal_and_fit_their_rooms => generated_clues_are_found_without_passing_what_they_reveal_and_fit_their_rooms_in_full,
    generated_warders_never_guard_a_room_reached_only_by_special_movement => generated_warders_never_guard_a_room_reached_only_by_special_movement_in_full,
}
