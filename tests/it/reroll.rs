//! The workbench for Make You Kingdom: reroll one part on its own stream, replay the reroll list,
//! lock parts and regenerate the rest (`myk --from`), and the `reroll` command.

use dungeonsmith::dice::Dice;
use dungeonsmith::edit::myk::{MykPart, RoomPart, regenerate, replay, reroll};
use dungeonsmith::model::Reroll;
use dungeonsmith::myk::model::{Layout, RoomId, Scenario};
use dungeonsmith::myk::{check, generate};
use serde_json::Value;

use crate::myk::{default_scenario, params, tables};
use crate::run;

const PARTS: [RoomPart; 5] = [RoomPart::All, RoomPart::Monsters, RoomPart::Traps, RoomPart::Bases, RoomPart::Name];

/// Options for the property tests: courts of 1-6 at levels 1-10, 1-3 maps, every layout.
fn options(seed: u64) -> dungeonsmith::myk::MykParams {
    let mut d = Dice::new(seed).child("test/reroll-options");
    let size = d.between(1, 6) as usize;
    let levels = vec![d.between(1, 10); size];
    let layout = [Layout::Straight, Layout::Junction, Layout::Mixed][d.below(3) as usize];
    params(levels, d.between(1, 3), d.between(3, 9), layout)
}

/// A part of `s` picked by the dice: mostly a room part, sometimes a whole map or the frame.
pub fn some_part(s: &Scenario, d: &mut Dice) -> MykPart {
    let m = &s.maps[d.below(s.maps.len() as u32) as usize];
    match d.below(10) {
        0 => MykPart::Frame,
        1 => MykPart::Map(m.index),
        _ => {
            let used: Vec<RoomId> = m.used_rooms().map(|r| r.id).collect();
            let room = used[d.below(used.len() as u32) as usize];
            MykPart::Room { map: m.index, room, what: PARTS[d.below(5) as usize] }
        }
    }
}

/// The scenario's JSON without what `part` rolls and what follows it (clues, objective, usage,
/// the reroll record; the title after map 1; Relationship NPCs after the frame).
pub fn outside(s: &Scenario, part: &MykPart) -> Value {
    let mut v = serde_json::to_value(s).expect("serialises");
    let o = v.as_object_mut().expect("an object");
    // The objective, the clues and the cast (who tells a clue, where an NPC stands) follow what
    // a reroll changes.
    for k in ["usage", "objective", "clues", "cast", "rerolls"] {
        o.remove(k);
    }
    // A mini event of the rerolled map stays only where a room still fits it (no ruler, no
    // hostile group): `story::events::repair` moves it to another room of its map, or drops it.
    let rolled_map = match *part {
        MykPart::Frame => None,
        MykPart::Map(i) => Some(i),
        MykPart::Room { map, .. } => Some(map),
    };
    if let (Some(i), Some(events)) = (rolled_map, v.pointer_mut("/story/mini_events").and_then(Value::as_array_mut)) {
        events.retain(|e| e["at"]["map"] != serde_json::json!(i));
    }
    let o = v.as_object_mut().expect("an object");
    match *part {
        MykPart::Frame => {
            for k in ["title", "introduction", "resolution", "story"] {
                o.remove(k);
            }
            for m in o["maps"].as_array_mut().expect("maps") {
                for r in m["rooms"].as_array_mut().expect("rooms") {
                    if let Some(adj) = r.pointer_mut("/ruler/adjustments").and_then(Value::as_array_mut) {
                        for a in adj {
                            a.as_object_mut().expect("adjustment").remove("npc");
                        }
                    }
                }
            }
        }
        MykPart::Map(i) => {
            if i == 1 {
                o.remove("title");
            }
            let m = &mut o["maps"][i as usize - 1];
            *m = serde_json::json!({ "index": m["index"], "entrances": m["entrances"] });
        }
        MykPart::Room { map, room, what } => {
            let r = o["maps"][map as usize - 1]["rooms"][room.index()].as_object_mut().expect("room");
            let gone: &[&str] = match what {
                RoomPart::All => &["name", "environment", "monsters", "traps", "bases"],
                RoomPart::Monsters => &["monsters"],
                RoomPart::Traps => &["traps"],
                RoomPart::Bases => &["bases"],
                RoomPart::Name => &["name", "environment"],
            };
            for k in gone {
                r.remove(*k);
            }
        }
    }
    v
}

#[test]
fn part_paths_print_and_parse_back() {
    for text in
        ["frame", "map1", "map12", "map1/B2", "map2/C3/monsters", "map1/A1/traps", "map1/A2/bases", "map3/B1/name"]
    {
        let part: MykPart = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(part.to_string(), text);
    }
    for bad in ["", "map", "map0", "mapx/B2", "map1/D4", "map1/B2/all", "map1/B2/gold", "map1/B2/traps/x", "frames"] {
        let e = bad.parse::<MykPart>().expect_err(bad).to_string();
        assert!(e.contains(&format!("`{bad}`")) && !e.contains('\n'), "{bad}: {e}");
    }
}

#[test]
fn every_part_rerolled_stays_legal_and_everything_outside_it_is_unchanged() {
    let (mut done, mut refused) = (0, 0);
    for seed in crate::seeds(0..1500u64) {
        let p = options(seed);
        let mut s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let before = s.clone();
        let part = some_part(&s, &mut Dice::new(seed).child("test/part"));
        match reroll(tables(), &mut s, &part) {
            Ok(()) => {
                done += 1;
                let v = check(&s, tables());
                assert!(v.is_empty(), "seed {seed} {p:?} `{part}`: {:?}", v);
                assert_eq!(outside(&s, &part), outside(&before, &part), "seed {seed} {p:?}: outside `{part}`");
                assert_eq!(s.rerolls, vec![Reroll { part: part.to_string(), n: 1 }]);
            }
            Err(e) => {
                refused += 1;
                assert_eq!(s, before, "seed {seed}: a refused reroll leaves the scenario unchanged");
                assert!(!e.to_string().contains('\n'), "{e}");
            }
        }
    }
    // A refusal is legal, but rerolling is the point: nearly every request succeeds.
    assert!(refused * 50 <= done, "{refused} refused, {done} done");
}

#[test]
fn a_room_reroll_keeps_the_rooms_ruler_and_gm_notes() {
    for seed in crate::seeds(0..200u64) {
        let mut s = default_scenario(seed);
        let m = &mut s.maps[0];
        let Some(room) = m.rooms.iter().find(|r| r.ruler.is_some()).map(|r| r.id) else { continue };
        m.rooms[room.index()].notes = "the GM's own words".into();
        let ruler = m.rooms[room.index()].ruler.clone();
        for what in [RoomPart::All, RoomPart::Monsters] {
            reroll(tables(), &mut s, &MykPart::Room { map: 1, room, what }).unwrap_or_else(|e| panic!("{seed}: {e}"));
            let r = s.maps[0].room(room);
            assert_eq!(r.ruler, ruler, "seed {seed}");
            assert_eq!(r.notes, "the GM's own words");
        }
    }
}

#[test]
fn rerolling_the_same_part_again_uses_the_next_stream_and_differs() {
    let mut s = default_scenario(42);
    let room = s.maps[0].used_rooms().find(|r| r.ruler.is_none()).map(|r| r.id).expect("a room");
    let part = MykPart::Room { map: 1, room, what: RoomPart::Name };
    let mut names = vec![s.maps[0].room(room).name.clone()];
    for n in 1..=4 {
        reroll(tables(), &mut s, &part).expect("rerolls");
        assert_eq!(s.rerolls.last(), Some(&Reroll { part: "map1/".to_string() + room.name() + "/name", n }));
        names.push(s.maps[0].room(room).name.clone());
    }
    names.dedup();
    assert!(names.len() >= 3, "five rolls of a name give different names: {names:?}");
}

#[test]
fn replaying_the_reroll_list_on_the_same_seed_gives_the_same_bytes() {
    for seed in crate::seeds(0..150u64) {
        let p = options(seed);
        let mut s = generate(tables(), &p, seed).expect("generates");
        let mut d = Dice::new(seed).child("test/replay");
        for _ in 0..4 {
            let part = some_part(&s, &mut d);
            // Each step goes through the file, as a GM's session would.
            let mut back: Scenario = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
            let _ = reroll(tables(), &mut back, &part);
            s = back;
        }
        let mut fresh = generate(tables(), &p, seed).expect("generates");
        replay(tables(), &mut fresh, &s.rerolls).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(serde_json::to_string_pretty(&fresh).unwrap(), serde_json::to_string_pretty(&s).unwrap());
    }
}

#[test]
fn a_replay_list_out_of_order_is_refused() {
    let mut s = default_scenario(3);
    let list = [Reroll { part: "frame".into(), n: 2 }];
    let e = replay(tables(), &mut s, &list).expect_err("n 2 without n 1").to_string();
    assert!(e.contains("`frame`") && e.contains("reroll 1"), "{e}");
}

/// Sets a lock on a scenario (given a room of its first map).
type Lock = fn(&mut Scenario, RoomId);

#[test]
fn locked_parts_refuse_a_reroll_naming_the_lock() {
    let s = default_scenario(7);
    let room = s.maps[0].used_rooms().next().map(|r| r.id).expect("a room");
    let cases: [(Lock, MykPart, &str); 4] = [
        (
            |s, r| s.maps[0].rooms[r.index()].locked = true,
            MykPart::Room { map: 1, room, what: RoomPart::Traps },
            "locked",
        ),
        (|s, _| s.maps[0].locked = true, MykPart::Room { map: 1, room, what: RoomPart::All }, "map 1 is locked"),
        (|s, r| s.maps[0].rooms[r.index()].locked = true, MykPart::Map(1), "of map 1 is locked"),
        (|s, _| s.frame_locked = true, MykPart::Frame, "`frame_locked`"),
    ];
    for (lock, part, says) in cases {
        let mut t = s.clone();
        lock(&mut t, room);
        let before = t.clone();
        let e = reroll(tables(), &mut t, &part).expect_err("locked").to_string();
        assert!(e.starts_with(&format!("reroll `{part}`: ")) && e.contains(says) && !e.contains('\n'), "{e}");
        assert_eq!(t, before);
    }
}

#[test]
fn a_reroll_of_an_unused_room_or_a_missing_map_is_refused() {
    let s = generate(tables(), &params(vec![2; 4], 1, 3, Layout::Straight), 5).expect("generates");
    let unused = s.maps[0].rooms.iter().find(|r| !r.used).map(|r| r.id).expect("an unused room");
    for (part, says) in
        [(MykPart::Room { map: 1, room: unused, what: RoomPart::All }, "is not used"), (MykPart::Map(2), "no map 2")]
    {
        let e = reroll(tables(), &mut s.clone(), &part).expect_err("refused").to_string();
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn regenerate_keeps_locked_rooms_maps_and_frame_exactly_and_rolls_the_rest() {
    for seed in 0..60u64 {
        let p = options(seed);
        let mut from = generate(tables(), &p, seed).expect("generates");
        let mut d = Dice::new(seed).child("test/locks");
        let mi = d.below(from.maps.len() as u32) as usize;
        let used: Vec<RoomId> = from.maps[mi].used_rooms().map(|r| r.id).collect();
        let room = used[d.below(used.len() as u32) as usize];
        from.maps[mi].rooms[room.index()].locked = true;
        let lock_map = from.maps.len() > 1 && d.chance(1, 2);
        let other = (mi + 1) % from.maps.len();
        if lock_map {
            from.maps[other].locked = true;
        }
        from.frame_locked = d.chance(1, 3);
        let new_seed = seed + 10_000;
        match regenerate(tables(), &from, new_seed) {
            Ok(s) => {
                assert!(check(&s, tables()).is_empty(), "seed {seed}");
                assert_eq!(s.seed, new_seed);
                assert_eq!(bonds_named(&s, &s.maps[mi]), bonds_named(&from, &from.maps[mi]), "seed {seed}: the bond");
                let (kept, was) = (unbound(&s.maps[mi]), unbound(&from.maps[mi]));
                assert_eq!(kept.rooms[room.index()], was.rooms[room.index()], "seed {seed}");
                if lock_map {
                    assert_eq!(bonds_named(&s, &s.maps[other]), bonds_named(&from, &from.maps[other]), "seed {seed}");
                    assert_eq!(unbound(&s.maps[other]), unbound(&from.maps[other]), "seed {seed}");
                }
                if from.frame_locked {
                    assert_eq!((&s.title, &s.cast, &s.clues), (&from.title, &from.cast, &from.clues));
                    assert_eq!((&s.introduction, &s.resolution), (&from.introduction, &from.resolution));
                }
                let unlocked_changed = s
                    .maps
                    .iter()
                    .zip(&from.maps)
                    .any(|(a, b)| a.rooms.iter().zip(&b.rooms).any(|(x, y)| !x.locked && !b.locked && x != y));
                assert!(unlocked_changed || s.cast != from.cast, "seed {seed}: a new seed rolls something anew");
            }
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("lock") && !e.contains('\n'), "seed {seed}: {e}");
            }
        }
    }
}

#[test]
fn regenerate_without_locks_is_a_fresh_generate_with_the_files_options() {
    let from = generate(tables(), &params(vec![3, 2, 2], 2, 7, Layout::Junction), 11).expect("generates");
    let s = regenerate(tables(), &from, 12).expect("regenerates");
    assert_eq!(s, generate(tables(), &params(vec![3, 2, 2], 2, 7, Layout::Junction), 12).expect("generates"));
}

#[test]
fn a_lock_that_breaks_a_limit_makes_regenerate_fail_naming_it() {
    let mut from = default_scenario(9);
    let room = from.maps[0].used_rooms().next().map(|r| r.id).expect("a room");
    let trap = crate::myk::placed_trap("Pit", 1, Vec::new());
    let r = &mut from.maps[0].rooms[room.index()];
    r.locked = true;
    r.traps = vec![trap; 30];
    let e = regenerate(tables(), &from, 10).expect_err("30 traps break 3S + A").to_string();
    assert!(e.contains(&format!("`map1/{room}`")) && !e.contains('\n'), "{e}");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dungeonsmith-reroll-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_reroll_command_writes_the_scenario_and_renders_that_myk_reroll_and_render_reproduce() {
    let dir = temp_dir("cli");
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    let out = |p: &std::path::Path| p.display().to_string();
    let (code, _, err) = run(&["myk", "--seed", "42", "--out", &out(&a)]);
    assert_eq!(code, 0, "{err}");
    let file = a.join("myk-42.json");
    let (code, stdout, err) = run(&["reroll", &out(&file), "--map", "1", "--room", "B2", "--out", &out(&b)]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("myk-42.json") && stdout.contains("myk-42-map1.svg"), "{stdout}");
    assert!(err.contains("rerolled `map1/B2`"), "{err}");
    let rerolled = b.join("myk-42.json");
    let (code, _, err) =
        run(&["reroll", &out(&rerolled), "--map", "1", "--room", "B2", "--part", "monsters", "--out", &out(&b)]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&rerolled).unwrap();
    assert!(text.contains("\"part\": \"map1/B2/monsters\""), "the file records its rerolls");
    let (code, _, err) =
        run(&["myk", "--seed", "42", "--reroll", "map1/B2", "--reroll", "map1/B2/monsters", "--out", &out(&c)]);
    assert_eq!(code, 0, "{err}");
    for name in ["myk-42.json", "myk-42-map1.svg", "myk-42.md", "myk-42.html"] {
        assert_eq!(std::fs::read(b.join(name)).unwrap(), std::fs::read(c.join(name)).unwrap(), "{name}");
    }
    let d = dir.join("d");
    let (code, _, err) = run(&["render", &out(&rerolled), "--out", &out(&d)]);
    assert_eq!(code, 0, "{err}");
    for name in ["myk-42.json", "myk-42-map1.svg", "myk-42.md", "myk-42.html"] {
        assert_eq!(std::fs::read(b.join(name)).unwrap(), std::fs::read(d.join(name)).unwrap(), "render: {name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_reroll_options_are_one_line_and_exit_2() {
    let dir = temp_dir("bad");
    let a = dir.join("a");
    let (code, _, _) = run(&["myk", "--seed", "1", "--out", &a.display().to_string()]);
    assert_eq!(code, 0);
    let file = a.join("myk-1.json").display().to_string();
    let cases: [(&[&str], &str); 7] = [
        (&["--room", "B2"], "option `--room`"),
        (&["--map", "1", "--room", "B2", "--part", "enemies"], "`enemies`"),
        (&["--area", "3"], "option `--area`"),
        (&[], "option `--map`"),
        (&["--map", "1", "--part", "traps"], "option `--part`"),
        (&["--map", "1", "--room", "Z9"], "`Z9`"),
        (&["--map", "4"], "no map 4"),
    ];
    for (args, says) in cases {
        let mut full = vec!["reroll", file.as_str(), "--out", a.to_str().unwrap()];
        full.extend_from_slice(args);
        let (code, stdout, err) = run(&full);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says) && err.trim().lines().count() == 1, "{args:?}: {err}");
        assert!(stdout.is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn myk_from_keeps_a_locked_room_and_fortress_from_reads_only_fortresses() {
    let dir = temp_dir("from");
    let a = dir.join("a");
    let (code, _, _) = run(&["myk", "--seed", "5", "--out", &a.display().to_string()]);
    assert_eq!(code, 0);
    let file = a.join("myk-5.json");
    let mut s: Scenario = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let room = s.maps[0].used_rooms().next().map(|r| r.id).expect("a room");
    s.maps[0].rooms[room.index()].locked = true;
    std::fs::write(&file, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    let b = dir.join("b");
    let (code, _, err) = run(&["myk", "--from", file.to_str().unwrap(), "--seed", "6", "--out", b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let t: Scenario = serde_json::from_str(&std::fs::read_to_string(b.join("myk-6.json")).unwrap()).unwrap();
    assert_eq!(t.maps[0].rooms[room.index()], s.maps[0].rooms[room.index()]);
    let (code, _, err) = run(&["fortress", "--from", file.to_str().unwrap(), "--seed", "6"]);
    assert_eq!(code, 2);
    assert!(err.contains("option `--from`") && err.contains("myk --from"), "{err}");
    let (code, _, err) = run(&["myk", "--from", file.to_str().unwrap(), "--maps", "2"]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_that_already_breaks_a_rule_is_not_rerolled() {
    let mut s = default_scenario(4);
    s.court.levels = vec![2; 3];
    let before = s.clone();
    let e = reroll(tables(), &mut s, &MykPart::Frame).expect_err("court.size broken").to_string();
    assert!(e.contains("breaks a rule already") && e.contains("[court.size]"), "{e}");
    assert_eq!(s, before);
}

/// Seeds whose map 1 has a room with a Secret Door that a clue reveals: (scenario, room).
fn secret_door_clues() -> impl Iterator<Item = (Scenario, RoomId)> {
    use dungeonsmith::myk::model::Reveals;
    (0..400u64).filter_map(|seed| {
        let s = default_scenario(seed);
        let room = s.maps[0].rooms.iter().find_map(|r| {
            let c = r.traps.iter().find_map(|t| t.corridor)?;
            let told = s.clues.iter().any(|k| k.reveals == Reveals::Corridor { map: 1, corridor: c });
            told.then_some(r.id)
        })?;
        Some((s, room))
    })
}

#[test]
fn clues_about_a_secret_door_rerolled_away_are_placed_anew() {
    use dungeonsmith::myk::model::Reveals;
    let mut seen = 0;
    for (mut s, room) in secret_door_clues() {
        let part = MykPart::Room { map: 1, room, what: RoomPart::Traps };
        let Ok(()) = reroll(tables(), &mut s, &part) else { continue };
        let doors: Vec<_> = s.maps[0].rooms.iter().flat_map(|r| &r.traps).filter_map(|t| t.corridor).collect();
        for k in &s.clues {
            if let Reveals::Corridor { corridor, .. } = k.reveals {
                let trapped = s.maps[0].corridors.iter().any(|c| c.id() == corridor && c.trap.is_some());
                assert!(doors.contains(&corridor) || trapped, "a clue tells of a corridor with no secret: {k:?}");
            }
        }
        assert!(s.clues.iter().all(|k| dungeonsmith::myk::clues::tells_truth(&s, k)));
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} seeds had a secret door with a clue");
}

#[test]
fn with_the_frame_locked_a_reroll_that_would_falsify_a_clue_is_refused_naming_the_lock() {
    let mut refused = 0;
    for (mut s, room) in secret_door_clues() {
        s.frame_locked = true;
        let before = s.clone();
        match reroll(tables(), &mut s, &MykPart::Room { map: 1, room, what: RoomPart::Traps }) {
            Ok(()) => assert_eq!(s.clues, before.clues, "a locked frame keeps its clues"),
            Err(e) => {
                assert!(e.to_string().contains("`frame_locked`"), "{e}");
                assert_eq!(s, before);
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "some reroll takes a secret door away");
}

#[test]
fn the_footer_command_of_a_rerolled_scenario_gives_it_back() {
    let dir = temp_dir("footer-command");
    let first = dir.join("first");
    let (code, _, err) = run(&[
        "myk",
        "--seed",
        "42",
        "--reroll",
        "map1/B2/monsters",
        "--reroll",
        "frame",
        "--out",
        first.to_str().unwrap(),
        "--format",
        "json,svg",
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(first.join("myk-42-map1.svg")).unwrap();
    let command = crate::footer_command(&svg, "dungeonsmith myk");
    assert!(command.ends_with(" --reroll map1/B2/monsters --reroll frame"), "{command}");
    let again = dir.join("again");
    let mut args: Vec<&str> = command.split(' ').skip(1).collect();
    args.extend(["--out", again.to_str().unwrap(), "--format", "json"]);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(first.join("myk-42.json")).unwrap(), std::fs::read(again.join("myk-42.json")).unwrap());
}

#[test]
fn the_footer_command_of_a_locked_scenario_renders_its_own_file() {
    // Locked parts may have come from another file (`--from`); no seed alone gives them back.
    let mut s = default_scenario(42);
    s.maps[0].rooms[4].locked = true;
    let regen = dungeonsmith::render::regen::myk(&s, tables(), Default::default());
    assert_eq!(regen.command, "dungeonsmith render myk-42.json");
    assert!(regen.edited);
}

crate::in_full! {
    every_part_rerolled_stays_legal_and_everything_outside_it_is_unchanged => every_part_rerolled_stays_legal_and_everything_outside_it_is_unchanged_in_full,
    a_room_reroll_keeps_the_rooms_ruler_and_gm_notes => a_room_reroll_keeps_the_rooms_ruler_and_gm_notes_in_full,
    replaying_the_reroll_list_on_the_same_seed_gives_the_same_bytes => replaying_the_reroll_list_on_the_same_seed_gives_the_same_bytes_in_full,
}

/// The names of the NPCs the rulers of `m` are bound to (a locked map keeps the person, whose
/// place in a regenerated cast may differ).
fn bonds_named(s: &Scenario, m: &dungeonsmith::myk::model::Map) -> Vec<Option<String>> {
    let bonds = m.rooms.iter().flat_map(|r| &r.ruler).flat_map(|r| &r.adjustments);
    bonds.filter(|a| a.npc.is_some()).map(|a| s.npc_name(a.npc).map(str::to_owned)).collect()
}

/// `m` with its rulers' bonds cleared: what a locked map keeps byte for byte (the bond keeps its
/// person, [`bonds_named`], whose place in a regenerated cast may differ).
fn unbound(m: &dungeonsmith::myk::model::Map) -> dungeonsmith::myk::model::Map {
    let mut m = m.clone();
    m.rooms.iter_mut().flat_map(|r| &mut r.ruler).flat_map(|r| &mut r.adjustments).for_each(|a| a.npc = None);
    m
}
