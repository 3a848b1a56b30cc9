//! `fix`: a GM edits one meaningful field of a generated scenario's JSON, `fix` fills in what the
//! rules derive from it, and `check` then accepts the scenario, or names the one rule the edit
//! really breaks. A name the tables do not know is one line naming the field, with suggestions.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dungeonsmith::fix;
use dungeonsmith::myk::model::{Layout, RoomId, Scenario};
use dungeonsmith::myk::{self, MykParams};
use dungeonsmith::nw3::{self, AreaKind, Fortress, FortressParams, GateKind};
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::myk::{Level, Placement};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::run;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

fn myk_scenario(seed: u64) -> Scenario {
    let p = MykParams {
        levels: vec![2; 4],
        maps: 1,
        rooms: 9,
        layout: Layout::Mixed,
        objective: None,
        ..Default::default()
    };
    myk::generate(tables(), &p, seed).expect("generates")
}

fn fortress(seed: u64, areas: u32) -> Fortress {
    nw3::generate(tables(), &FortressParams { areas, ..Default::default() }, seed).expect("generates")
}

/// The scenario a GM's JSON edit makes, fixed by the library.
fn fixed_myk(v: &Value) -> Scenario {
    let mut s: Scenario = serde_json::from_value(v.clone()).expect("the edited scenario parses");
    fix::myk::fix(&mut s, tables()).expect("fix fills it in");
    s
}

fn fixed_nw3(v: &Value) -> Fortress {
    let mut f: Fortress = serde_json::from_value(v.clone()).expect("the edited fortress parses");
    fix::nw3::fix(&mut f, tables()).expect("fix fills it in");
    f
}

fn myk_rules(s: &Scenario) -> Vec<&'static str> {
    myk::check(s, tables()).into_iter().map(|v| v.rule).collect()
}

fn nw3_rules(f: &Fortress) -> Vec<&'static str> {
    nw3::check(f, tables()).into_iter().map(|v| v.rule).collect()
}

fn unfixed_myk_rules(v: &Value) -> Vec<&'static str> {
    myk_rules(&serde_json::from_value(v.clone()).expect("parses"))
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-fix-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write_json(dir: &Path, v: &Value) -> PathBuf {
    let p = dir.join("scenario.json");
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap() + "\n").unwrap();
    p
}

/// `dungeonsmith fix FILE` in-process: (exit code, stdout, stderr, the file afterwards).
fn cli_fix(name: &str, v: &Value) -> (i32, String, String, String) {
    let dir = temp(name);
    let p = write_json(&dir, v);
    let (code, out, err) = run(&["fix", p.to_str().unwrap()]);
    let text = std::fs::read_to_string(&p).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (code, out, err, text)
}

/// The first room of map 1 with monster groups and no ruler, as (room id, its JSON index).
fn monster_room(s: &Scenario) -> Option<RoomId> {
    s.maps[0].rooms.iter().find(|r| r.ruler.is_none() && !r.monsters.is_empty()).map(|r| r.id)
}

// ------------------------------------------------------------------------------------------------
// MYK

#[test]
fn a_monster_swapped_by_name_takes_its_level_from_the_bestiary() {
    // A plain group (no items) swapped for a weaker stockable monster that appears nowhere else.
    let (s, room, new) = (0..200)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let r = monster_room(&s)?;
            let g = &s.maps[0].room(r).monsters[0];
            if g.common_items + g.rare_items + g.relationship > 0 {
                return None;
            }
            let new = tables().myk.stockable().find(|m| m.level.is_some_and(|l| l < g.level))?;
            Some((s, r, new.name.clone()))
        })
        .expect("a plain group above level 1");
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][room.index()]["monsters"][0]["name"] = json!(new);
    let stale = unfixed_myk_rules(&v);
    assert_eq!(stale, ["monster.level"], "before fix the level is stale");

    let fixed = fixed_myk(&v);
    let g = &fixed.maps[0].room(room).monsters[0];
    let want = tables().myk.monster(&new).and_then(|m| m.level).unwrap();
    assert_eq!((g.level, g.effective_level), (want, want));
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());

    let (code, out, err, text) = cli_fix("swap", &v);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("fixed, every rule and limit holds\n"), "{out}");
    let written: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(written, fixed, "the CLI writes what the library fixes");
}

#[test]
fn monster_counts_and_reactions_are_editable_and_a_crowded_room_breaks_its_total() {
    let s = myk_scenario(1);
    let room = monster_room(&s).expect("a monster room").index();
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][room]["monsters"][0]["count"] = json!(1);
    for g in v["maps"][0]["rooms"][room]["monsters"].as_array_mut().unwrap() {
        g["reaction"] = json!("friendly");
    }
    let fixed = fixed_myk(&v);
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());
    assert_eq!(fixed.usage, myk::check::usage(&fixed), "usage follows the counts");

    v["maps"][0]["rooms"][room]["monsters"][0]["count"] = json!(99);
    let (code, out, _, text) = cli_fix("crowded", &v);
    assert_eq!(code, 1, "a real rule break exits 1: {out}");
    assert!(out.contains("room.total") && out.ends_with("fixed, 1 violation remains\n"), "{out}");
    let written: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(myk_rules(&written), ["room.total"], "the fixed file is written all the same");
    assert_eq!(written.usage.highest_room_total, myk::check::usage(&written).highest_room_total);
}

#[test]
fn items_and_relationships_raise_the_effective_level() {
    // A plain group whose room and level leave room for one more level on each monster.
    let (s, room) = (0..200)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let r = monster_room(&s)?;
            let room = s.maps[0].room(r);
            let g = &room.monsters[0];
            let total: u32 = room.monsters.iter().map(|g| g.count * g.effective_level).sum();
            let cap = s.limits.room_total_hostile;
            let plain = g.common_items + g.rare_items + g.relationship == 0;
            (plain && g.level < s.limits.monster_level && total + g.count <= cap).then_some((s, r.index()))
        })
        .expect("a group with room for an item");
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][room]["monsters"][0]["common_items"] = json!(1);
    assert_eq!(unfixed_myk_rules(&v), ["monster.effective-level"]);
    let fixed = fixed_myk(&v);
    let g = &fixed.maps[0].rooms[room].monsters[0];
    assert_eq!(g.effective_level, g.level + 1);
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());

    // Relationship points beyond any limit: the one-monster limit is a real break.
    v["maps"][0]["rooms"][room]["monsters"][0]["relationship"] = json!(60);
    let rules = myk_rules(&fixed_myk(&v));
    assert!(
        rules.contains(&"monster.level-limit")
            && rules.iter().all(|r| *r == "monster.level-limit" || *r == "room.total"),
        "{rules:?}"
    );
}

#[test]
fn a_trap_swapped_by_name_takes_its_category_level_and_data_from_its_record() {
    let plain = |t: &&dungeonsmith::tables::myk::Trap| t.placement == Placement::Room && t.route.is_none() && !t.ambush;
    let (s, room, new) = (0..200)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let r = s.maps[0].rooms.iter().find(|r| {
                r.traps.len() == 1 && {
                    let t = &r.traps[0];
                    !t.converted && t.placement == Placement::Room && t.corridor.is_none() && t.destination.is_none()
                }
            })?;
            let old = &r.traps[0];
            let new = tables().myk.traps.iter().filter(plain).find(|t| {
                t.name != old.name
                    && (t.category != old.category || t.activation != old.activation)
                    && matches!(t.level, Level::Fixed(l) if l <= old.level)
            })?;
            Some((s.clone(), r.id.index(), new.name.clone()))
        })
        .expect("a plain room trap");
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][room]["traps"][0]["name"] = json!(new);
    assert!(unfixed_myk_rules(&v).contains(&"trap.record"));
    let fixed = fixed_myk(&v);
    let t = &fixed.maps[0].rooms[room].traps[0];
    let rec = tables().myk.trap(&new).unwrap();
    assert_eq!((t.category, t.placement, t.activation), (rec.category, rec.placement, rec.activation));
    assert_eq!((t.disarm.to_string(), t.summary.clone()), (rec.disarm.to_string(), rec.summary.clone()));
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());
}

/// A corridor-placed trap with no special movement, of the lowest fixed level.
fn plain_corridor_trap() -> &'static dungeonsmith::tables::myk::Trap {
    let lvl = |t: &&dungeonsmith::tables::myk::Trap| match t.level {
        Level::Fixed(l) => l,
        Level::Range(a, _) => a + 100,
    };
    tables()
        .myk
        .traps
        .iter()
        .filter(|t| t.placement == Placement::Corridor && t.route.is_none() && !t.ambush)
        .min_by_key(lvl)
        .expect("a plain corridor trap")
}

#[test]
fn corridors_can_be_added_removed_trapped_and_made_one_way() {
    let rec = plain_corridor_trap();
    let Level::Fixed(trap_level) = rec.level else { panic!("fixed level") };
    for seed in 0..40 {
        let s = myk_scenario(seed);
        let m = &s.maps[0];
        let joined = |a: RoomId, b: RoomId| m.corridors.iter().any(|c| c.id() == myk::model::CorridorId::new(a, b));
        let v0 = serde_json::to_value(&s).unwrap();

        // A new corridor between two used neighbours: accepted.
        if let Some((a, b)) = m
            .used_rooms()
            .flat_map(|r| r.id.neighbours().map(move |n| (r.id, n)))
            .find(|&(a, b)| a < b && m.room(b).used && !joined(a, b))
        {
            let mut v = v0.clone();
            v["maps"][0]["corridors"].as_array_mut().unwrap().push(json!({"a": a.to_string(), "b": b.to_string()}));
            assert_eq!(myk_rules(&fixed_myk(&v)), Vec::<&str>::new(), "seed {seed}: corridor {a}-{b} added");
        }

        // One-way without a Moving Floor: refused by the rule that says so.
        let free = m.corridors.iter().position(|c| c.trap.is_none() && c.one_way.is_none()).expect("a bare corridor");
        let c = &m.corridors[free];
        // (the one-way direction is still walked, so the way back may be cut too).
        let mut v = v0.clone();
        v["maps"][0]["corridors"][free]["one_way"] = json!(format!("{}>{}", c.a, c.b));
        let rules = myk_rules(&fixed_myk(&v));
        assert_eq!(rules[0], "corridor.one-way", "seed {seed}");
        // (a Secret Door's room may lose its other way in: `trap.secret-door`).
        let cut = |r: &&str| r.starts_with("reach.") || r.starts_with("clue.") || *r == "trap.secret-door";
        assert!(rules[1..].iter().all(cut), "seed {seed}: {rules:?}");

        // A trap in a corridor, given by name only: accepted inside the trap limits.
        let u = myk::check::usage(&s);
        let fits =
            u.traps_number < s.limits.traps_number && u.traps_total_level + trap_level <= s.limits.traps_total_level;
        let mut v = v0.clone();
        v["maps"][0]["corridors"][free]["trap"] = json!({"name": rec.name});
        let rules = myk_rules(&fixed_myk(&v));
        if fits {
            assert_eq!(rules, Vec::<&str>::new(), "seed {seed}: {} in corridor {}", rec.name, c.id());
        } else {
            assert!(!rules.is_empty() && rules.iter().all(|r| r.starts_with("traps.")), "seed {seed}: {rules:?}");
        }

        // Removing the only corridor of a room no clue, trap or entrance refers to: unreachable.
        let leaf = m.used_rooms().find(|r| {
            let n = m.corridors.iter().filter(|c| c.id().touches(r.id)).count();
            n == 1
                && r.ruler.is_none()
                && !m.entrances.iter().any(|e| e.room == r.id)
                && !m.rooms.iter().flat_map(|x| &x.traps).any(|t| t.destination.is_some() || t.corridor.is_some())
                && !s.clues.iter().any(|c| c.at.room == r.id || c.reveals.to_string().contains(r.id.name()))
        });
        if let Some(r) = leaf {
            let i = m.corridors.iter().position(|c| c.id().touches(r.id)).unwrap();
            let mut v = v0.clone();
            v["maps"][0]["corridors"].as_array_mut().unwrap().remove(i);
            let rules = myk_rules(&fixed_myk(&v));
            assert!(rules.contains(&"reach.from-entrance"), "seed {seed}: {rules:?}");
            assert!(rules.iter().all(|x| *x == "reach.from-entrance" || *x == "trap.area"), "seed {seed}: {rules:?}");
        }
    }
}

#[test]
fn a_moving_floor_makes_a_corridor_one_way() {
    let floor = tables()
        .myk
        .traps
        .iter()
        .find(|t| t.route == Some(dungeonsmith::tables::myk::Route::OneWay))
        .expect("a Moving Floor");
    let mut tried = 0;
    for seed in 0..60 {
        let s = myk_scenario(seed);
        let u = myk::check::usage(&s);
        let level = match floor.level {
            Level::Fixed(l) | Level::Range(l, _) => l,
        };
        if u.traps_number >= s.limits.traps_number || u.traps_total_level + level > s.limits.traps_total_level {
            continue;
        }
        // A bare corridor the court can do without: removing it breaks nothing.
        let v0 = serde_json::to_value(&s).unwrap();
        let spare = (0..s.maps[0].corridors.len()).find(|&i| {
            let c = &s.maps[0].corridors[i];
            let mut v = v0.clone();
            v["maps"][0]["corridors"].as_array_mut().unwrap().remove(i);
            c.trap.is_none() && myk_rules(&fixed_myk(&v)).is_empty()
        });
        let Some(i) = spare else { continue };
        let c = &s.maps[0].corridors[i];
        let mut v = v0.clone();
        v["maps"][0]["corridors"][i]["trap"] = json!({"name": floor.name});
        v["maps"][0]["corridors"][i]["one_way"] = json!(format!("{}>{}", c.a, c.b));
        assert_eq!(myk_rules(&fixed_myk(&v)), Vec::<&str>::new(), "seed {seed}: corridor {}", c.id());
        tried += 1;
    }
    assert!(tried > 3, "only {tried} scenarios had a spare corridor and trap budget");
}

#[test]
fn the_way_in_may_move_to_another_outer_wall_but_not_to_an_inner_one() {
    let (s, i, other) = (0..100)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let (i, e) = s.maps[0].entrances.iter().enumerate().find(|(_, e)| e.to.is_none())?;
            let other = e.room.exterior_walls().find(|w| *w != e.wall)?;
            Some((s, i, other))
        })
        .expect("an entrance in a corner room");
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["entrances"][i]["wall"] = json!(other.label());
    assert_eq!(myk_rules(&fixed_myk(&v)), Vec::<&str>::new());

    let room = s.maps[0].entrances[i].room;
    let inner = ["north", "west", "east", "south"]
        .into_iter()
        .find(|w| !room.exterior_walls().any(|x| x.label() == *w))
        .expect("a corner room has inner walls");
    v["maps"][0]["entrances"][i]["wall"] = json!(inner);
    assert_eq!(myk_rules(&fixed_myk(&v)), ["entrance.wall"]);
}

#[test]
fn a_rulers_adjustments_re_derive_its_effective_level_and_final_stats() {
    let (s, room) = (0..200)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let r = s.maps[0].rooms.iter().find(|r| {
                r.ruler.as_ref().is_some_and(|ru| {
                    ru.adjustments.iter().any(|a| a.what != "hp" && a.kind == myk::model::AdjustmentKind::Skill)
                })
            })?;
            Some((s.clone(), r.id.index()))
        })
        .expect("a ruler with a skill");
    let mut v = serde_json::to_value(&s).unwrap();
    let adj = v["maps"][0]["rooms"][room]["ruler"]["adjustments"].as_array_mut().unwrap();
    adj.retain(|a| a["kind"] != "skill");
    let fixed = fixed_myk(&v);
    let ru = fixed.maps[0].rooms[room].ruler.as_ref().unwrap();
    let old = s.maps[0].rooms[room].ruler.as_ref().unwrap();
    assert!(ru.effective_level < old.effective_level);
    assert_eq!(ru.effective_level as i64, myk::ruler::adjusted_level(ru));
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());

    // Twenty more Warfare points: the final stats show them, and A + 7 is a real break.
    let adj = v["maps"][0]["rooms"][room]["ruler"]["adjustments"].as_array_mut().unwrap();
    adj.push(json!({"kind": "increase", "what": "warfare", "times": 20}));
    let fixed = fixed_myk(&v);
    let ru = fixed.maps[0].rooms[room].ruler.as_ref().unwrap();
    let rec = tables().myk.monster(&ru.name).unwrap();
    let before = old.adjustments.iter().filter(|a| a.what == "warfare").map(|a| a.times).sum::<u32>();
    assert_eq!(ru.stats.as_ref().unwrap().warfare, rec.warfare.unwrap() + before + 20);
    let rules = myk_rules(&fixed);
    assert!(rules.contains(&"ruler.level-limit"), "{rules:?}");
    assert!(rules.iter().all(|r| *r == "ruler.level-limit" || *r == "ruler-room.total"), "{rules:?}");
}

#[test]
fn a_new_court_member_re_derives_limits_search_difficulty_and_encounters() {
    let s = (0..100)
        .map(myk_scenario)
        .find(|s| s.clues.iter().any(|c| c.method == myk::model::ClueMethod::Search))
        .expect("a search clue");
    let mut v = serde_json::to_value(&s).unwrap();
    v["court"]["levels"].as_array_mut().unwrap().push(json!(2));
    let stale = unfixed_myk_rules(&v);
    // The size disagrees, and so does each Search clue's difficulty (court size + 7 by the levels),
    // and the new member has no stake (one per member, seed 003 l.1480).
    assert_eq!(stale[0], "court.size", "{stale:?}");
    assert_eq!(stale.last(), Some(&"stake.count"), "{stale:?}");
    let middle = &stale[1..stale.len() - 1];
    assert!(middle.iter().all(|r| *r == "clue.search-difficulty") && !middle.is_empty(), "{stale:?}");
    let fixed = fixed_myk(&v);
    assert_eq!((fixed.court.size, fixed.court.total_level), (5, 10));
    assert_eq!(fixed.limits, myk::limits::limits(&fixed.court));
    let search = fixed.clues.iter().find(|c| c.method == myk::model::ClueMethod::Search).unwrap();
    assert!(search.how.ends_with("difficulty 12"), "S + 7 for five: {}", search.how);
    assert_eq!(fixed.encounters, myk::limits::encounter_table(tables(), &fixed.court));
    assert_ne!(fixed.encounters, s.encounters, "counts follow the court's size");
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());
}

#[test]
fn a_clues_method_sets_how_it_is_learned() {
    let s = myk_scenario(3);
    let i = s.clues.iter().position(|c| c.method != myk::model::ClueMethod::Puzzle).expect("a clue");
    let mut v = serde_json::to_value(&s).unwrap();
    v["clues"][i]["method"] = json!("puzzle");
    let fixed = fixed_myk(&v);
    // The whole puzzle is written out from the story pools, and `how` sends the GM to it.
    let puzzle = fixed.clues[i].puzzle.as_ref().expect("a puzzle written out");
    assert!(tables().story.puzzle.iter().any(|p| p.text == puzzle.text && p.answer == puzzle.answer));
    assert_eq!(fixed.clues[i].how, myk::clues::PUZZLE_HOW);
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());
    v["clues"][i]["method"] = json!("search");
    assert_eq!(
        fixed_myk(&v).clues[i].how,
        format!("search check in the room, difficulty {}", s.limits.search_difficulty)
    );

    // Talking in a room nobody is in: refused.
    let empty = s.maps[0].used_rooms().find(|r| !r.has_monsters()).expect("an empty room").id;
    v["clues"][i]["method"] = json!("conversation");
    v["clues"][i]["at"] = json!({"map": 1, "room": empty.to_string()});
    let rules = myk_rules(&fixed_myk(&v));
    assert!(rules.contains(&"clue.method"), "{rules:?}");
}

#[test]
fn an_unknown_monster_is_one_line_naming_the_field_and_the_nearest_names() {
    let s = myk_scenario(2);
    let room = monster_room(&s).expect("a monster room");
    let name = s.maps[0].room(room).monsters[0].name.clone();
    let typo = format!("{}x", &name[..name.len() - 1]);
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][room.index()]["monsters"][0]["name"] = json!(typo);
    let dir = temp("unknown");
    let p = write_json(&dir, &v);
    let before = std::fs::read(&p).unwrap();
    let (code, out, err) = run(&["fix", p.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    let field = format!("`maps[0].rooms[{room}].monsters[0].name`");
    assert!(err.contains(&field) && err.contains(&format!("`{typo}`")), "{err}");
    assert!(err.contains(&format!("did you mean `{name}`")), "{err}");
    assert_eq!(std::fs::read(&p).unwrap(), before, "the file is untouched");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "and nothing else is written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fix_writes_to_out_and_keeps_the_gms_notes() {
    let s = myk_scenario(4);
    let room = monster_room(&s).expect("a monster room").index();
    let mut v = serde_json::to_value(&s).unwrap();
    v["notes"] = json!("scenario note");
    v["maps"][0]["notes"] = json!("map note");
    v["maps"][0]["rooms"][room]["notes"] = json!("room note");
    v["maps"][0]["rooms"][room]["monsters"][0]["notes"] = json!("group note");
    v["maps"][0]["rooms"][room]["monsters"][0]["level"] = json!(0);
    let dir = temp("out");
    let p = write_json(&dir, &v);
    let before = std::fs::read(&p).unwrap();
    let to = dir.join("fixed.json");
    let (code, out, err) = run(&["fix", p.to_str().unwrap(), "--out", to.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(std::fs::read(&p).unwrap(), before, "--out leaves the input alone");
    let fixed: Scenario = serde_json::from_str(&std::fs::read_to_string(&to).unwrap()).unwrap();
    assert_eq!(fixed.notes, "scenario note");
    assert_eq!(fixed.maps[0].notes, "map note");
    assert_eq!(fixed.maps[0].rooms[room].notes, "room note");
    assert_eq!(fixed.maps[0].rooms[room].monsters[0].notes, "group note");
    assert_eq!(fixed.maps[0].rooms[room].monsters[0].level, s.maps[0].rooms[room].monsters[0].level);
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------------------------------------
// NW3

fn enemy_area(f: &Fortress, members: usize) -> Option<usize> {
    f.areas.iter().position(|a| a.kind == AreaKind::Enemy && a.enemies[0].members.len() >= members)
}

#[test]
fn an_enemy_count_is_the_gms_and_zero_takes_the_tables_count() {
    let f = fortress(5, 20);
    let a = enemy_area(&f, 1).expect("an enemy area");
    let mut v = serde_json::to_value(&f).unwrap();
    let old = f.areas[a].enemies[0].members[0].count;
    v["areas"][a]["enemies"][0]["members"][0]["count"] = json!(old + 5);
    let fixed = fixed_nw3(&v);
    assert_eq!(fixed.areas[a].enemies[0].members[0].count, old + 5);
    assert_eq!(nw3_rules(&fixed), Vec::<&str>::new());

    v["areas"][a]["enemies"][0]["members"][0]["count"] = json!(0);
    let unfixed: Fortress = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(nw3_rules(&unfixed), ["enemy.count"]);
    assert_eq!(fixed_nw3(&v).areas[a].enemies[0].members[0].count, old);
}

#[test]
fn enemy_members_may_be_left_out_but_not_borrowed_from_another_group() {
    let f = (0..100).map(|seed| fortress(seed, 20)).find(|f| enemy_area(f, 2).is_some()).expect("a group of two");
    let a = enemy_area(&f, 2).unwrap();
    let v0 = serde_json::to_value(&f).unwrap();
    let mut v = v0.clone();
    v["areas"][a]["enemies"][0]["members"].as_array_mut().unwrap().pop();
    assert_eq!(nw3_rules(&fixed_nw3(&v)), Vec::<&str>::new());
    let mut v = v0;

    let group = &f.areas[a].enemies[0].name;
    let foreign = tables()
        .nw3
        .enemies
        .iter()
        .filter(|r| &r.name != group)
        .flat_map(|r| &r.members)
        .find(|m| !f.areas[a].enemies[0].members.iter().any(|x| x.name == m.name))
        .unwrap();
    v["areas"][a]["enemies"][0]["members"][0]["name"] = json!(foreign.name);
    let mut bad: Fortress = serde_json::from_value(v).unwrap();
    let e = fix::nw3::fix(&mut bad, tables()).unwrap_err().to_string();
    assert!(e.starts_with(&format!("`areas[{a}].enemies[0].members[0].name`: member `{}`", foreign.name)), "{e}");
}

#[test]
fn an_area_may_change_kind_when_it_holds_what_the_kind_needs() {
    let f = fortress(6, 20);
    let a = f.areas.iter().position(|x| x.kind == AreaKind::Normal).expect("a normal area");
    let group = &tables().nw3.enemies[0].name;
    let mut v = serde_json::to_value(&f).unwrap();
    v["areas"][a]["kind"] = json!("enemy");
    v["areas"][a]["event"] = Value::Null;
    v["areas"][a]["enemies"] = json!([{"name": group}]);
    let fixed = fixed_nw3(&v);
    assert!(!fixed.areas[a].enemies[0].members.is_empty(), "the record's members are filled in");
    assert_eq!(nw3_rules(&fixed), Vec::<&str>::new());

    // A Trap Area needs a trap (and holds no chart event): refused until it has one.
    let mut v = serde_json::to_value(&f).unwrap();
    v["areas"][a]["kind"] = json!("trap");
    assert_eq!(nw3_rules(&fixed_nw3(&v)), ["area.content", "area.content"]);
    v["areas"][a]["event"] = Value::Null;
    v["areas"][a]["trap"] = json!({"name": tables().nw3.traps[0].name});
    let fixed = fixed_nw3(&v);
    assert_eq!(fixed.areas[a].danger_sense, Some(fixed.areas[a].trap.as_ref().unwrap().removal));
    assert_eq!(nw3_rules(&fixed), Vec::<&str>::new());
}

#[test]
fn a_shortcut_gate_re_derives_every_appearance_difficulty() {
    let f = fortress(7, 20);
    let (e, c) = (f.entrance().unwrap().id, f.core_area().unwrap().id);
    let mut v = serde_json::to_value(&f).unwrap();
    v["gates"].as_array_mut().unwrap().push(json!({"from": e, "to": c, "kind": "normal"}));
    let stale: Fortress = serde_json::from_value(v.clone()).unwrap();
    assert!(nw3_rules(&stale).contains(&"area.appearance"));
    let fixed = fixed_nw3(&v);
    assert_eq!(fixed.core_area().unwrap().appearance_difficulty, 10, "one gate from the Entrance");
    assert!(fixed.gates.windows(2).all(|w| (w[0].from, w[0].to) < (w[1].from, w[1].to)), "gates stay sorted");
    assert_eq!(nw3_rules(&fixed), Vec::<&str>::new());
}

/// A fortress whose Core has a single gate, a normal one, and that gate's index.
fn lone_core_gate() -> (Fortress, usize) {
    (0..300)
        .find_map(|seed| {
            let f = fortress(seed, 12);
            let c = f.core_area()?.id;
            let gates: Vec<usize> =
                (0..f.gates.len()).filter(|&i| f.gates[i].from == c || f.gates[i].to == c).collect();
            match gates.as_slice() {
                [g] if f.gates[*g].kind == GateKind::Normal => Some((f, *g)),
                _ => None,
            }
        })
        .expect("a fortress whose core has one normal gate")
}

/// The Core cannot be reached; one-way and damaged gates elsewhere then strand the party too.
fn assert_core_cut_off(f: &Fortress) {
    // The finale's endings that need the Core (`episode.endings`) fail with it; the rest is
    // the solver's.
    let rules: Vec<_> = nw3_rules(f).into_iter().filter(|r| *r != "episode.endings").collect();
    assert_eq!(rules.first(), Some(&"solve.core-unreachable"), "{rules:?}");
    assert!(rules[1..].iter().all(|r| r.ends_with(".strands")), "{rules:?}");
}

#[test]
fn gate_kinds_and_openers_are_editable_and_a_core_cut_off_is_refused() {
    let (f, g) = lone_core_gate();
    let c = f.core_area().unwrap().id;
    let other = if f.gates[g].from == c { f.gates[g].to } else { f.gates[g].from };
    let v0 = serde_json::to_value(&f).unwrap();

    // One-way into the Core: accepted. Out of it: the Core cannot be reached.
    let mut v = v0.clone();
    v["gates"][g] = json!({"from": other, "to": c, "kind": "one_way"});
    assert_eq!(nw3_rules(&fixed_nw3(&v)), Vec::<&str>::new());
    v["gates"][g] = json!({"from": c, "to": other, "kind": "one_way"});
    assert_core_cut_off(&fixed_nw3(&v));

    // Secret, with no opener named: found by Danger Sense 15, which a party may fail.
    let mut v = v0.clone();
    v["gates"][g]["kind"] = json!("secret");
    let fixed = fixed_nw3(&v);
    let gate = fixed.gates.iter().find(|x| x.from == f.gates[g].from && x.to == f.gates[g].to).unwrap();
    assert_eq!(gate.opened_by, Some(nw3::Opener::DangerSense(15)));
    assert_core_cut_off(&fixed);

    // Damaged beyond use.
    let mut v = v0.clone();
    v["gates"][g]["kind"] = json!("damaged");
    assert_core_cut_off(&fixed_nw3(&v));

    // Damaged with uses left: the last use may strand the party on either side of the Core's
    // only gate. Back to normal, the stale `uses` goes.
    v["gates"][g]["uses"] = json!(2);
    let rules = nw3_rules(&fixed_nw3(&v));
    assert!(rules.contains(&"gate.damaged.strands") && rules.iter().all(|r| r.ends_with(".strands")), "{rules:?}");
    v["gates"][g]["kind"] = json!("normal");
    let fixed = fixed_nw3(&v);
    assert!(fixed.gates.iter().all(|x| x.kind != GateKind::Normal || x.uses.is_none()));
    assert_eq!(nw3_rules(&fixed), Vec::<&str>::new());
}

#[test]
fn a_closed_gate_opens_with_an_event_found_before_it_or_is_refused() {
    let mut accepted = 0;
    for seed in crate::seeds(0..300) {
        let f = fortress(seed, 8);
        // (One-way and damaged gates would add their own needs of the closed gate.)
        if f.gates.iter().any(|g| matches!(g.kind, GateKind::OneWay | GateKind::Damaged)) {
            continue;
        }
        let area = |id: u32| f.area(id).unwrap();
        // A normal gate leading deeper from an Event Area that holds a scenario event.
        let pick = f.gates.iter().position(|g| {
            let (a, b) = (area(g.from), area(g.to));
            g.kind == GateKind::Normal
                && a.kind == AreaKind::Event
                && a.event.as_ref().is_some_and(|e| e.kind == nw3::EventKind::Scenario)
                && a.appearance_difficulty < b.appearance_difficulty
                && !a.optional
                && !b.optional
        });
        let Some(gi) = pick else { continue };
        let g = &f.gates[gi];
        let mut v = serde_json::to_value(&f).unwrap();
        v["gates"][gi]["kind"] = json!("closed");
        v["gates"][gi]["opened_by"] = json!({"event": g.from});
        assert_eq!(nw3_rules(&fixed_nw3(&v)), Vec::<&str>::new(), "seed {seed}: gate {}", g.label());
        accepted += 1;
    }
    assert!(accepted > 3, "only {accepted} fortresses had such a gate");

    // Opened by the event of the area behind it, reached through this gate alone: refused.
    let mut refused = 0;
    for seed in crate::seeds(0..100) {
        let f = fortress(seed, 20);
        let only_gate = |id: u32| {
            let gs: Vec<usize> = (0..f.gates.len()).filter(|&i| f.gates[i].from == id || f.gates[i].to == id).collect();
            (gs.len() == 1).then(|| gs[0])
        };
        let leaf = f.areas.iter().find(|a| {
            a.kind == AreaKind::Event
                && a.event.as_ref().is_some_and(|e| e.kind == nw3::EventKind::Scenario)
                && only_gate(a.id).is_some_and(|g| f.gates[g].kind == GateKind::Normal)
        });
        let Some(leaf) = leaf else { continue };
        let gi = only_gate(leaf.id).unwrap();
        let mut v = serde_json::to_value(&f).unwrap();
        v["gates"][gi]["kind"] = json!("closed");
        v["gates"][gi]["opened_by"] = json!({"event": leaf.id});
        let rules = nw3_rules(&fixed_nw3(&v));
        assert!(rules.contains(&"gate.closed.release-behind-gate"), "seed {seed}: {rules:?}");
        assert!(
            rules.iter().all(|r| *r == "gate.closed.release-behind-gate" || *r == "area.unreachable"),
            "seed {seed}: {rules:?}"
        );
        refused += 1;
    }
    assert!(refused > 0, "no fortress had an event area behind a single gate");
}

#[test]
fn an_unknown_nw3_name_names_its_field_and_the_nearest_names() {
    let f = fortress(8, 20);
    let a = f.areas.iter().position(|x| x.trap.is_some()).expect("a trap area");
    let name = f.areas[a].trap.as_ref().unwrap().name.clone();
    let mut v = serde_json::to_value(&f).unwrap();
    v["areas"][a]["trap"]["name"] = json!(name.to_lowercase() + "s");
    let mut bad: Fortress = serde_json::from_value(v.clone()).unwrap();
    let e = fix::nw3::fix(&mut bad, tables()).unwrap_err().to_string();
    assert!(e.starts_with(&format!("`areas[{a}].trap.name`: trap `")), "{e}");
    assert!(e.contains(&format!("did you mean `{name}`")), "{e}");
    let (code, out, err, text) = cli_fix("nw3-unknown", &v);
    assert_eq!((code, out.as_str(), err.lines().count()), (2, "", 1), "{err}");
    assert_eq!(text, serde_json::to_string_pretty(&v).unwrap() + "\n", "the file is untouched");
}

#[test]
fn nw3_fix_keeps_the_gms_notes() {
    let f = fortress(9, 20);
    let a = enemy_area(&f, 1).expect("an enemy area");
    let mut v = serde_json::to_value(&f).unwrap();
    v["notes"] = json!("fortress note");
    v["areas"][a]["notes"] = json!("area note");
    v["areas"][a]["enemies"][0]["notes"] = json!("group note");
    v["areas"][a]["appearance_difficulty"] = json!(99);
    let (code, out, _, text) = cli_fix("nw3-notes", &v);
    assert_eq!(code, 0, "{out}");
    let fixed: Fortress = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (fixed.notes.as_str(), fixed.areas[a].notes.as_str(), fixed.areas[a].enemies[0].notes.as_str()),
        ("fortress note", "area note", "group note")
    );
    assert_eq!(fixed.areas[a].appearance_difficulty, f.areas[a].appearance_difficulty);
}

// ------------------------------------------------------------------------------------------------
// Idempotence: `fix` changes nothing in a generated scenario.

#[test]
fn fix_of_a_generated_file_is_byte_identical() {
    let dir = temp("identical");
    for (system, args) in [("myk", vec!["myk", "--seed", "11"]), ("fortress", vec!["fortress", "--seed", "11"])] {
        let mut full = args.clone();
        full.extend(["--format", "json", "--out", dir.to_str().unwrap()]);
        assert_eq!(run(&full).0, 0);
        let p = dir.join(format!("{system}-11.json"));
        let before = std::fs::read(&p).unwrap();
        let (code, out, err) = run(&["fix", p.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
        assert_eq!(std::fs::read(&p).unwrap(), before, "{system}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(300), ..ProptestConfig::default() })]

    #[test]
    fn fix_changes_nothing_in_a_generated_myk_scenario(seed in any::<u64>()) {
        let s = myk::generate(tables(), &crate::myk::options_for(seed), seed).expect("generates");
        let mut fixed = s.clone();
        fix::myk::fix(&mut fixed, tables()).expect("fixes");
        prop_assert_eq!(serde_json::to_string(&fixed).unwrap(), serde_json::to_string(&s).unwrap());
    }

    #[test]
    fn fix_changes_nothing_in_a_generated_fortress(
        seed in any::<u64>(), areas in 3u32..=40, party in 1u32..=8, cl in 1u32..=20,
    ) {
        let f = nw3::generate(tables(), &FortressParams { areas, party, cl, ..Default::default() }, seed).expect("generates");
        let mut fixed = f.clone();
        fix::nw3::fix(&mut fixed, tables()).expect("fixes");
        prop_assert_eq!(serde_json::to_string(&fixed).unwrap(), serde_json::to_string(&f).unwrap());
    }
}

#[test]
fn huge_numbers_in_an_edit_saturate_and_are_refused_by_their_limits() {
    let (s, room) = (0..200)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let r = s.maps[0].rooms.iter().position(|r| r.ruler.is_some())?;
            Some((s, r))
        })
        .expect("a ruler");
    let mut v = serde_json::to_value(&s).unwrap();
    let adj = v["maps"][0]["rooms"][room]["ruler"]["adjustments"].as_array_mut().unwrap();
    adj.push(json!({"kind": "increase", "what": "hp", "times": u32::MAX}));
    let fixed = fixed_myk(&v);
    let rules = myk_rules(&fixed);
    assert!(rules.contains(&"ruler.level-limit"), "{rules:?}");
    if let Some(g) = monster_room(&s) {
        v["maps"][0]["rooms"][g.index()]["monsters"][0]["rare_items"] = json!(u32::MAX);
        let rules = myk_rules(&fixed_myk(&v));
        assert!(rules.contains(&"monster.items") && rules.contains(&"monster.level-limit"), "{rules:?}");
    }
}

#[test]
fn format_1_files_fix_to_the_current_format_and_pass_the_check() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/format1");
    for name in ["myk-42.json", "fortress-7.json"] {
        let dir = temp(&format!("format1-{name}"));
        let p = dir.join(name);
        std::fs::copy(data.join(name), &p).unwrap();
        let (code, out, err) = run(&["fix", p.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        assert_eq!(v["format"], json!(dungeonsmith::format::CURRENT), "{name}");
        assert_eq!(run(&["check", p.to_str().unwrap()]).0, 0, "{name}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_new_monster_group_needs_only_its_name_count_and_reaction() {
    let weakest = tables().myk.stockable().min_by_key(|m| m.level).expect("a monster");
    let level = weakest.level.unwrap();
    let (s, room) = (0..200)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            let r = monster_room(&s)?;
            let room = s.maps[0].room(r);
            let total: u32 = room.monsters.iter().map(|g| g.count * g.effective_level).sum();
            let cap =
                s.limits.room_total(room.monsters.iter().map(|g| g.reaction).min_by_key(|&x| s.limits.room_total(x))?);
            (total + level <= cap).then_some((s, r.index()))
        })
        .expect("a room with room for one more monster");
    let mut v = serde_json::to_value(&s).unwrap();
    let groups = v["maps"][0]["rooms"][room]["monsters"].as_array_mut().unwrap();
    groups.push(json!({"name": weakest.name, "count": 1, "reaction": "friendly"}));
    let fixed = fixed_myk(&v);
    let g = fixed.maps[0].rooms[room].monsters.last().unwrap();
    assert_eq!((g.level, g.effective_level), (level, level));
    assert_eq!(myk_rules(&fixed), Vec::<&str>::new());
}

// ------------------------------------------------------------------------------------------------
// Stale arithmetic: scramble every field `fix` derives, and `fix` gives back the generated file.

/// Replaces every number (and blanks every string, flips every bool) at a path `derived` accepts;
/// `noise` drives the replacement values. A path is the keys down to the value, `[]` for an index.
fn scramble(v: &mut Value, path: &mut Vec<String>, noise: &mut u64, derived: &dyn Fn(&[String]) -> bool) {
    let mut next = || {
        *noise = noise.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *noise >> 58
    };
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                path.push(k.clone());
                scramble(x, path, noise, derived);
                path.pop();
            }
        }
        Value::Array(a) => {
            for x in a.iter_mut() {
                path.push("[]".into());
                scramble(x, path, noise, derived);
                path.pop();
            }
        }
        Value::Number(_) if derived(path) => *v = json!(next()),
        Value::String(_) if derived(path) => *v = json!(""),
        Value::Bool(b) if derived(path) => *b = !*b,
        _ => {}
    }
}

fn has(path: &[String], key: &str) -> bool {
    path.iter().any(|k| k == key)
}

/// What `fix` derives in a MYK scenario (a trap's own level is the GM's inside its range, a
/// puzzle clue's text is the GM's, so neither is scrambled).
fn myk_derived(p: &[String]) -> bool {
    let last = p.last().map_or("", String::as_str);
    let first = p.first().map_or("", String::as_str);
    matches!(first, "limits" | "usage")
        || (first == "encounters" && matches!(last, "level" | "count"))
        || (first == "court" && matches!(last, "size" | "average_level" | "total_level"))
        || last == "effective_level"
        || (last == "level" && (has(p, "monsters") || has(p, "ruler") || has(p, "bases")))
        || (last == "levels" && has(p, "adjustments"))
        || (has(p, "ruler") && has(p, "stats") && last != "damage")
        || matches!(last, "summary" | "disarm")
}

/// What `fix` derives in a Fortress (an area's own description, the chart roll, gate uses, the
/// entrance condition and the episode are the GM's).
fn nw3_derived(p: &[String]) -> bool {
    let last = p.last().map_or("", String::as_str);
    if p.first().is_some_and(|k| k == "episode") {
        return false;
    }
    let in_area_itself = p.len() == 3 && p[0] == "areas";
    matches!(
        last,
        "appearance_difficulty" | "danger_sense" | "initiative" | "detection" | "removal" | "difficulty" | "spd"
    ) || has(p, "stats")
        || (has(p, "attacks") && matches!(last, "accuracy" | "damage"))
        || p == ["ruler", "area"]
        || p == ["params", "areas"]
        || (last == "optional" || last == "ambush")
        || (matches!(last, "effect" | "text" | "description") && !in_area_itself && !has(p, "entrance_condition"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::cases(100), ..ProptestConfig::default() })]

    #[test]
    fn fix_restores_every_derived_field_of_a_myk_scenario(seed in any::<u64>(), mut noise in any::<u64>()) {
        let s = myk::generate(tables(), &crate::myk::options_for(seed), seed).expect("generates");
        let mut v = serde_json::to_value(&s).unwrap();
        scramble(&mut v, &mut Vec::new(), &mut noise, &myk_derived);
        prop_assert_ne!(&v, &serde_json::to_value(&s).unwrap(), "scrambled");
        let fixed = fixed_myk(&v);
        prop_assert_eq!(myk_rules(&fixed), Vec::<&str>::new());
        prop_assert_eq!(serde_json::to_string(&fixed).unwrap(), serde_json::to_string(&s).unwrap());
    }

    #[test]
    fn fix_restores_every_derived_field_of_a_fortress(
        seed in any::<u64>(), areas in 3u32..=40, party in 1u32..=8, cl in 1u32..=20, mut noise in any::<u64>(),
    ) {
        let f = nw3::generate(tables(), &FortressParams { areas, party, cl, ..Default::default() }, seed).expect("generates");
        let mut v = serde_json::to_value(&f).unwrap();
        scramble(&mut v, &mut Vec::new(), &mut noise, &nw3_derived);
        prop_assert_ne!(&v, &serde_json::to_value(&f).unwrap(), "scrambled");
        let fixed = fixed_nw3(&v);
        prop_assert_eq!(nw3_rules(&fixed), Vec::<&str>::new());
        prop_assert_eq!(serde_json::to_string(&fixed).unwrap(), serde_json::to_string(&f).unwrap());
    }
}

#[test]
fn a_clue_about_swapped_monsters_is_told_anew() {
    let (s, ci, room) = (0..300)
        .find_map(|seed| {
            let s = myk_scenario(seed);
            s.clues.iter().enumerate().find_map(|(i, c)| {
                let myk::model::Reveals::Room(p) = c.reveals else { return None };
                let r = s.maps[0].room(p.room);
                ((c.text.contains(" hold room ") || c.text.contains(" holds room ")) && r.ruler.is_none())
                    .then(|| (s.clone(), i, p.room))
            })
        })
        .expect("a clue about a room's monsters");
    let old = s.maps[0].room(room).monsters[0].clone();
    let new = tables().myk.stockable().find(|m| m.name != old.name && m.level == Some(old.level)).unwrap();
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][room.index()]["monsters"][0]["name"] = json!(new.name);
    v["maps"][0]["rooms"][room.index()]["monsters"][0]["count"] = json!(1);
    let fixed = fixed_myk(&v);
    let text = &fixed.clues[ci].text;
    assert!(text.starts_with(&format!("1 {} holds room {room}", new.name)), "{text}");
    assert!(!text.contains(old.name.as_str()), "{text}");
    let others: Vec<_> = fixed.clues.iter().enumerate().filter(|(i, _)| *i != ci).map(|(_, c)| &c.text).collect();
    let before: Vec<_> = s.clues.iter().enumerate().filter(|(i, _)| *i != ci).map(|(_, c)| &c.text).collect();
    assert_eq!(others, before, "the other clues are untouched");
}

/// The fortress kept from the version before issue 24 (tests/data/before-issue-24/README.md).
const BEFORE_ISSUE_24: &str = "tests/data/before-issue-24/fortress-24.json";

#[test]
fn a_fortress_saved_before_a_formula_changed_passes_check_and_renders_after_the_upgrade_on_read() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(BEFORE_ISSUE_24);
    let old: Value = serde_json::from_str(&std::fs::read_to_string(&data).unwrap()).unwrap();
    assert_eq!(old["format"], json!(2));
    // `check`, as the GM runs it: passes, with one note on stderr saying the numbers were recomputed.
    let bin = env!("CARGO_BIN_EXE_dungeonsmith");
    let out = std::process::Command::new(bin).args(["check", data.to_str().unwrap()]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(err.matches("recomputed from the tables").count(), 1, "{err}");
    // `render` draws it without --force; the written file is of the current format, its numbers new.
    let dir = temp("before-issue-24");
    let (code, _, err) =
        run(&["render", data.to_str().unwrap(), "--out", dir.to_str().unwrap(), "--format", "json,md"]);
    assert_eq!(code, 0, "{err}");
    let new: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("fortress-24.json")).unwrap()).unwrap();
    assert_eq!(new["format"], json!(dungeonsmith::format::CURRENT));
    let stats = |v: &Value| v["areas"].as_array().unwrap().iter().map(|a| a["enemies"].clone()).collect::<Vec<_>>();
    assert_ne!(stats(&old), stats(&new), "the old stat blocks were recomputed");
    assert!(dir.join("fortress-24.md").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_old_numbers_in_a_current_format_file_still_fail_check() {
    // The upgrade is what makes the old file pass: marked as current, its old stat blocks are
    // the hand edits `check` must catch.
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(BEFORE_ISSUE_24)).unwrap();
    let current = format!("\"format\": {},", dungeonsmith::format::CURRENT);
    let dir = temp("before-issue-24-as-current");
    let p = dir.join("fortress-24.json");
    std::fs::write(&p, text.replacen("\"format\": 2,", &current, 1)).unwrap();
    let (code, out, err) = run(&["check", p.to_str().unwrap()]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(format!("{out}{err}").contains("enemy.stats"), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

crate::in_full! {
    fix_changes_nothing_in_a_generated_myk_scenario => fix_changes_nothing_in_a_generated_myk_scenario_in_full,
    fix_changes_nothing_in_a_generated_fortress => fix_changes_nothing_in_a_generated_fortress_in_full,
    fix_restores_every_derived_field_of_a_myk_scenario => fix_restores_every_derived_field_of_a_myk_scenario_in_full,
    fix_restores_every_derived_field_of_a_fortress => fix_restores_every_derived_field_of_a_fortress_in_full,
    a_closed_gate_opens_with_an_event_found_before_it_or_is_refused => a_closed_gate_opens_with_an_event_found_before_it_or_is_refused_in_full,
}
