//! Rulers, weak points, monster gear, Gate Keepers and the ruler's room: each rule catches the
//! hand-made scenario that breaks it, and generated scenarios keep them over thousands of seeds.

use dungeonsmith::dice::Dice;
use dungeonsmith::myk::model::{
    Adjustment, AdjustmentKind, CoreHolder, Layout, MonsterGroup, Reaction, Ruler, Scenario,
};
use dungeonsmith::myk::ruler::final_stats;
use dungeonsmith::myk::{MykParams, check, generate};
use dungeonsmith::tables::myk::{Placement, WeakNeed};

use crate::myk::{default_scenario, tables};

fn rules(s: &Scenario) -> Vec<&'static str> {
    check(s, tables()).into_iter().map(|v| v.rule).collect()
}

fn ruler_room(s: &Scenario) -> usize {
    s.maps[0].rooms.iter().position(|r| r.ruler.is_some()).expect("a ruler")
}

fn ruler_mut(s: &mut Scenario) -> &mut Ruler {
    let r = ruler_room(s);
    s.maps[0].rooms[r].ruler.as_mut().expect("a ruler")
}

/// Seed 42's scenario with its ruler given exactly these adjustments (effective level and stats
/// made consistent), so only the rule under test can fail.
fn with_adjustments(adjustments: Vec<Adjustment>) -> Scenario {
    let mut s = default_scenario(42);
    let ru = ruler_mut(&mut s);
    ru.adjustments = adjustments;
    let sum: i32 = ru.level as i32 + ru.adjustments.iter().map(|a| a.levels).sum::<i32>();
    ru.effective_level = sum.max(0) as u32;
    let rec = tables().myk.monster(&ru.name).expect("ruler in bestiary").clone();
    ru.stats = final_stats(&rec, ru);
    // Every weak point needs a clue on the ruler's map that reveals its room and names it
    // (`clue.weak-point`): name them in the clue that already tells the ruler's whereabouts.
    let names: Vec<String> =
        ru.adjustments.iter().filter(|a| a.kind == AdjustmentKind::WeakPoint).map(|a| a.what.to_string()).collect();
    let room = ruler_room(&s);
    let at = dungeonsmith::myk::model::Reveals::Room(dungeonsmith::myk::model::Place {
        map: 1,
        room: s.maps[0].rooms[room].id,
    });
    if !names.is_empty() {
        let clue = s.clues.iter_mut().find(|c| c.reveals == at).expect("seed 42 has a clue to the ruler's room");
        clue.text = format!("{} Weak points: {}.", clue.text, names.join(", "));
    }
    s
}

fn weak(name: &str, levels: i32) -> Adjustment {
    Adjustment::new(AdjustmentKind::WeakPoint, name, 1, levels)
}

#[test]
fn the_unchanged_fixture_passes_check() {
    assert_eq!(rules(&with_adjustments(Vec::new())), Vec::<&str>::new());
}

#[test]
fn karma_written_as_minus_5_is_refused_by_check_with_exit_1() {
    let mut k = weak("Karma", -5);
    k.member = Some(1);
    let s = with_adjustments(vec![k]);
    assert!(rules(&s).contains(&"weak-point.adjustment"), "{:?}", rules(&s));
    let path = std::env::temp_dir().join(format!("ds-karma-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    let (code, out, _) = crate::run(&["check", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 1);
    assert!(out.contains("weak-point.adjustment") && out.contains("by -2"), "{out}");
}

#[test]
fn poison_adjusts_by_2_plus_the_number_of_poisons() {
    let mut p = weak("Poison", -2);
    p.weaknesses = vec!["Silver".into(), "Alcohol".into()];
    assert!(rules(&with_adjustments(vec![p.clone()])).contains(&"weak-point.adjustment"));
    p.levels = -4;
    assert_eq!(rules(&with_adjustments(vec![p])), Vec::<&str>::new());
}

#[test]
fn sealed_adjusts_by_3_plus_sealed_skills_of_the_rulers_own() {
    let s = default_scenario(42);
    let name = s.maps[0].rooms[ruler_room(&s)].ruler.as_ref().unwrap().name.clone();
    let skills = tables().myk.monster(&name).unwrap().skills.clone();
    let mut a = weak("Sealed", -3);
    a.sealed = vec![skills[0].clone()];
    assert!(rules(&with_adjustments(vec![a.clone()])).contains(&"weak-point.adjustment"));
    a.levels = -4;
    assert_eq!(rules(&with_adjustments(vec![a.clone()])), Vec::<&str>::new());
    a.sealed = vec!["Flying (Monster)".into()];
    if !skills.contains(&a.sealed[0]) {
        assert!(rules(&with_adjustments(vec![a.clone()])).contains(&"weak-point.sealed"));
    }
    a.sealed = Vec::new();
    a.levels = -3;
    assert!(rules(&with_adjustments(vec![a])).contains(&"weak-point.sealed"), "Sealed locks 1-3 skills");
}

#[test]
fn the_same_weak_point_twice_is_refused() {
    let mut k = weak("Karma", -2);
    k.member = Some(1);
    let found = rules(&with_adjustments(vec![k.clone(), k]));
    assert!(found.contains(&"weak-point.repeated"), "{found:?}");
}

#[test]
fn an_unknown_weak_point_is_the_gms_own_with_a_warning_and_refused_without_the_levels_it_takes_off() {
    assert!(rules(&with_adjustments(vec![weak("Glass Jaw", -4)])).contains(&"weak-point.own"));
    assert!(rules(&with_adjustments(vec![weak("Glass Jaw", 0)])).contains(&"weak-point.unknown"));
}

#[test]
fn karma_names_a_member_of_the_court() {
    let mut k = weak("Karma", -2);
    assert!(rules(&with_adjustments(vec![k.clone()])).contains(&"weak-point.karma"), "no member named");
    k.member = Some(5);
    assert!(rules(&with_adjustments(vec![k])).contains(&"weak-point.karma"), "a court of 4 has no member 5");
}

#[test]
fn relationship_names_an_npc_of_the_cast() {
    let mut r = weak("Relationship", -2);
    let s = default_scenario(42);
    r.npc = Some(dungeonsmith::myk::model::CastRef::at(s.cast.len()));
    assert!(rules(&with_adjustments(vec![r.clone()])).contains(&"weak-point.relationship"), "past the cast");
    r.npc = Some(dungeonsmith::myk::model::CastRef(0));
    assert!(rules(&with_adjustments(vec![r.clone()])).contains(&"weak-point.relationship"), "member 0 is nobody");
    // One the court can meet before the ruler (`weak-point.bond-place`): waiting in the kingdom,
    // and not the rival.
    let home = s
        .cast
        .iter()
        .position(|n| n.place.is_none() && !n.role.as_str().starts_with(dungeonsmith::myk::story::RIVAL))
        .expect("seed 42's cast has someone waiting in the kingdom");
    r.npc = Some(dungeonsmith::myk::model::CastRef::at(home));
    assert_eq!(rules(&with_adjustments(vec![r])), Vec::<&str>::new());
}

#[test]
fn poison_and_anathema_take_weakness_table_results() {
    let mut p = weak("Poison", -3);
    p.weaknesses = vec!["Garlic".into()];
    assert!(rules(&with_adjustments(vec![p])).contains(&"weak-point.weakness"), "not a table result");
    let mut a = weak("Anathema", -5);
    a.weaknesses = vec!["Silver".into(), "A key".into()];
    assert!(rules(&with_adjustments(vec![a])).contains(&"weak-point.weakness"), "Anathema takes one");
}

#[test]
fn a_detail_the_weak_point_does_not_take_is_refused() {
    let mut t = weak("Time Limit", -8);
    t.member = Some(1);
    assert!(rules(&with_adjustments(vec![t])).contains(&"weak-point.detail"));
}

#[test]
fn split_core_holders_are_monsters_in_other_rooms_of_the_rulers_map() {
    let s = default_scenario(42);
    let rr = s.maps[0].rooms[ruler_room(&s)].id;
    let other = s.maps[0].rooms.iter().find(|r| r.id != rr && !r.monsters.is_empty()).expect("a monster room");
    let g = &other.monsters[0];
    let mut a = weak("Split Core", -6);
    a.cores = vec![CoreHolder { room: other.id, monster: g.name.clone(), count: g.count.min(2) }];
    if g.count < 2 {
        a.cores[0].count = 1;
        let extra = s.maps[0].rooms.iter().find(|r| r.id != rr && r.id != other.id && !r.monsters.is_empty());
        let e = extra.expect("a second monster room");
        a.cores.push(CoreHolder { room: e.id, monster: e.monsters[0].name.clone(), count: 1 });
    }
    assert_eq!(rules(&with_adjustments(vec![a.clone()])), Vec::<&str>::new());
    let mut wrong = a.clone();
    wrong.cores[0].count = 40;
    assert!(rules(&with_adjustments(vec![wrong])).contains(&"weak-point.split-core"), "more holders than stand there");
    let mut inside = a;
    inside.cores[0].room = rr;
    assert!(rules(&with_adjustments(vec![inside])).contains(&"weak-point.split-core"), "a core in the ruler's room");
}

#[test]
fn a_memory_or_soul_core_lies_in_another_used_room_of_the_rulers_map() {
    let s = default_scenario(42);
    let rr = s.maps[0].rooms[ruler_room(&s)].id;
    let other = s.maps[0].used_rooms().find(|r| r.id != rr).unwrap().id;
    let mut a = weak("Soul Core", -5);
    assert!(rules(&with_adjustments(vec![a.clone()])).contains(&"weak-point.hideout"), "no room named");
    a.hidden_in = Some(rr);
    assert!(rules(&with_adjustments(vec![a.clone()])).contains(&"weak-point.hideout"), "the ruler's own room");
    a.hidden_in = Some(other);
    assert_eq!(rules(&with_adjustments(vec![a])), Vec::<&str>::new());
}

#[test]
fn the_rulers_final_stats_include_its_increases() {
    let inc = Adjustment::new(AdjustmentKind::Increase, "hp", 2, 4);
    let mut s = with_adjustments(vec![inc]);
    let ru = ruler_mut(&mut s);
    let rec = tables().myk.monster(&ru.name).unwrap();
    let stats = ru.stats.clone().unwrap();
    assert_eq!(stats.hp, rec.hp.unwrap() + 2 * ru.level * 5, "two HP steps of level x 5");
    ru.stats.as_mut().unwrap().hp = rec.hp.unwrap();
    assert!(rules(&s).contains(&"ruler.stats"), "the base HP alone is the wrong stat line");
}

#[test]
fn a_ruler_skill_learned_twice_is_refused() {
    let sk = Adjustment::new(AdjustmentKind::Skill, "Terror", 1, 3);
    assert!(rules(&with_adjustments(vec![sk.clone(), sk])).contains(&"ruler.adjustment"));
}

fn monster_room(s: &Scenario) -> usize {
    s.maps[0].rooms.iter().position(|r| !r.monsters.is_empty() && r.ruler.is_none()).expect("a monster room")
}

#[test]
fn items_and_relationships_must_be_counted_in_the_effective_level() {
    let mut s = default_scenario(42);
    let r = monster_room(&s);
    let g = &mut s.maps[0].rooms[r].monsters[0];
    g.count = 1;
    g.common_items = 1;
    g.effective_level = g.level;
    assert!(rules(&s).contains(&"monster.effective-level"), "the item is not counted");
    let g = &mut s.maps[0].rooms[r].monsters[0];
    g.relationship = 2;
    g.effective_level = g.level + 2;
    assert_eq!(rules(&s), Vec::<&str>::new());
    let g = &mut s.maps[0].rooms[r].monsters[0];
    g.common_items = 2;
    g.rare_items = 2;
    g.effective_level = g.level + 2 + 6 + 1;
    assert!(rules(&s).contains(&"monster.items"), "more items than a monster may equip");
}

fn gate_keeper(monsters: Vec<MonsterGroup>) -> dungeonsmith::myk::model::PlacedTrap {
    crate::myk::placed_trap("Gate Keeper", 5, monsters)
}

#[test]
fn a_gate_keeper_names_described_monsters_inside_the_hostile_limit() {
    let mut s = default_scenario(42);
    let c = s.maps[0].corridors.iter().position(|c| c.trap.is_none()).expect("a free corridor");
    s.maps[0].corridors[c].trap = Some(gate_keeper(Vec::new()));
    assert!(rules(&s).contains(&"trap.gate-keeper"), "it must name its monsters");
    let g = s.maps[0].rooms[monster_room(&s)].monsters[0].clone();
    let one = MonsterGroup::plain(&g.name, g.level, 1, Reaction::Hostile);
    s.maps[0].corridors[c].trap = Some(gate_keeper(vec![one.clone()]));
    let found: Vec<_> = check(&s, tables()).into_iter().filter(|v| v.rule == "trap.gate-keeper").collect();
    assert!(found.is_empty(), "{found:?}");
    let mut many = one.clone();
    many.count = 40;
    s.maps[0].corridors[c].trap = Some(gate_keeper(vec![many]));
    assert!(rules(&s).contains(&"trap.gate-keeper"), "over 2S + T");
    let stranger = MonsterGroup::plain("Dragon", 15, 1, Reaction::Hostile);
    s.maps[0].corridors[c].trap = Some(gate_keeper(vec![stranger]));
    assert!(rules(&s).contains(&"trap.gate-keeper"), "a monster the scenario never describes");
}

#[test]
fn a_battlefield_takes_one_combat_trap_per_area() {
    let mut s = default_scenario(42);
    let r = monster_room(&s);
    let rec = tables().myk.traps.iter().find(|t| t.placement == Placement::Area).expect("a combat trap");
    let level = rec.level.min();
    let mut t = gate_keeper(Vec::new());
    t.name = rec.name.clone();
    t.category = rec.category;
    t.level = level;
    t.placement = rec.placement;
    t.activation = rec.activation;
    t.disarm = rec.disarm.to_string().into();
    s.maps[0].rooms[r].traps = vec![t; 7];
    assert!(rules(&s).contains(&"trap.area-count"), "{:?}", rules(&s));
}

#[test]
fn hostile_guards_in_the_rulers_room_are_held_to_4s_plus_t_not_2s_plus_t() {
    let mut s = default_scenario(42);
    let r = ruler_room(&s);
    let lim = s.limits.clone();
    let ruler_eff = s.maps[0].rooms[r].ruler.as_ref().unwrap().effective_level;
    // Level-1 hostile guards filling the room past 2S + T but within 4S + T.
    let guard = tables().myk.stockable().find(|m| m.level == Some(1)).expect("a level-1 monster");
    let fill = lim.room_total_hostile + 1 - ruler_eff.min(lim.room_total_hostile);
    let mut groups = Vec::new();
    let mut left = fill;
    while left > 0 {
        let n = left.min(9);
        groups.push(MonsterGroup::plain(&guard.name, 1, n, Reaction::Hostile));
        left -= n;
    }
    s.maps[0].rooms[r].monsters = groups.clone();
    assert!(ruler_eff + fill > lim.room_total_hostile && ruler_eff + fill <= lim.ruler_room_total);
    assert!(!rules(&s).contains(&"ruler-room.total"), "{:?}", rules(&s));
    groups.push(MonsterGroup::plain(&guard.name, 1, 9, Reaction::Hostile));
    groups.push(MonsterGroup::plain(&guard.name, 1, 9, Reaction::Hostile));
    groups.push(MonsterGroup::plain(&guard.name, 1, 9, Reaction::Hostile));
    s.maps[0].rooms[r].monsters = groups;
    assert!(rules(&s).contains(&"ruler-room.total"), "past 4S + T");
}

// ---- generated scenarios keep the rules ----

/// Courts of every size and level the book covers, one map; weak points show up in about a third.
fn options_for(seed: u64) -> MykParams {
    let mut d = Dice::new(seed).child("test/ruler-options");
    let size = d.between(3, 6) as usize;
    let levels = vec![d.between(1, 10); size];
    MykParams { levels, maps: 1, rooms: d.between(5, 9), layout: Layout::Mixed, objective: None, ..Default::default() }
}

#[test]
fn generated_weak_points_carry_their_choices_and_exact_adjustments() {
    let mut seen: Vec<dungeonsmith::tables::shared::SharedStr> = Vec::new();
    let (mut several_poisons, mut stronger, mut gear, mut gate_keepers) = (0, 0, 0, 0);
    for seed in crate::seeds(0..2000u64) {
        let p = options_for(seed);
        let s = generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let m = &s.maps[0];
        for room in m.used_rooms() {
            gear += room.monsters.iter().filter(|g| g.effective_level > g.level).count();
            for g in &room.monsters {
                let want = g.level + g.common_items + 3 * g.rare_items + g.relationship / 2;
                assert_eq!(g.effective_level, want, "seed {seed}: {g:?}");
            }
        }
        gate_keepers += m.corridors.iter().filter(|c| c.trap.as_ref().is_some_and(|t| !t.monsters.is_empty())).count();
        let Some(room) = m.rooms.iter().find(|r| r.ruler.is_some()) else { continue };
        let ru = room.ruler.as_ref().unwrap();
        let rec = tables().myk.monster(&ru.name).unwrap();
        assert_eq!(ru.stats, final_stats(rec, ru), "seed {seed}: the stat line is the final one");
        let weak: Vec<&Adjustment> = ru.adjustments.iter().filter(|a| a.kind == AdjustmentKind::WeakPoint).collect();
        assert!(weak.len() <= 1, "seed {seed}");
        if ru.level > s.limits.ruler_level {
            assert_eq!(weak.len(), 1, "seed {seed}: only a weak point lets a level-{} monster rule", ru.level);
            stronger += 1;
        }
        for a in weak {
            let w = tables().myk.weak_point(&a.what).unwrap();
            let extra = match w.needs {
                Some(WeakNeed::Poisons) => {
                    assert!(!a.weaknesses.is_empty());
                    several_poisons += usize::from(a.weaknesses.len() > 1);
                    a.weaknesses.len() as i32
                }
                Some(WeakNeed::Sealed) => {
                    assert!((1..=3).contains(&a.sealed.len()));
                    assert!(a.sealed.iter().all(|x| rec.skills.contains(x)), "seed {seed}: sealed {:?}", a.sealed);
                    a.sealed.len() as i32
                }
                Some(WeakNeed::Weakness) => {
                    assert_eq!(a.weaknesses.len(), 1);
                    0
                }
                Some(WeakNeed::Member) => {
                    assert!((1..=s.court.size).contains(&a.member.unwrap()));
                    0
                }
                Some(WeakNeed::Npc) => {
                    assert!(a.npc.and_then(|n| s.cast_member(n)).is_some(), "seed {seed}");
                    0
                }
                Some(WeakNeed::Cores) => {
                    let n: u32 = a.cores.iter().map(|c| c.count).sum();
                    assert!((2..=7).contains(&n), "seed {seed}: {n} cores");
                    for c in &a.cores {
                        assert_ne!(c.room, room.id);
                        let there: u32 =
                            m.room(c.room).monsters.iter().filter(|g| g.name == c.monster).map(|g| g.count).sum();
                        assert!(there >= c.count, "seed {seed}: core holders {c:?}");
                    }
                    0
                }
                Some(WeakNeed::Hideout) => {
                    let r = a.hidden_in.expect("a hidden core's room");
                    assert!(r != room.id && m.room(r).used, "seed {seed}: core hidden in {r}");
                    0
                }
                None => 0,
            };
            assert_eq!(a.levels, -(w.adjustment as i32 + extra), "seed {seed}: {}", a.what);
            if !seen.contains(&a.what) {
                seen.push(a.what.clone());
            }
        }
        assert!(check(&s, tables()).is_empty(), "seed {seed}");
    }
    // What must come up somewhere needs every seed: the `_in_full` twin's.
    if crate::full() {
        assert_eq!(seen.len(), tables().myk.weak_points.len(), "every weak point is given somewhere: {seen:?}");
        assert!(several_poisons > 0, "some ruler has more than one poison");
        assert!(stronger > 0, "a weak point sometimes lets a monster above A + 7 rule");
        assert!(gear > 0, "some groups carry items or relationship points");
        assert!(gate_keepers > 0, "a Gate Keeper is placed somewhere, naming its monsters");
    }
}

#[test]
fn a_format_1_ruler_gets_its_final_stat_line_on_render() {
    let dir = std::env::temp_dir().join(format!("ds-f1-stats-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().to_string();
    let (code, _, err) = crate::run(&["render", "tests/data/format1/myk-42.json", "--out", &dir_s, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let s: Scenario = serde_json::from_str(&std::fs::read_to_string(dir.join("myk-42.json")).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let ru = s.maps[0].rooms.iter().find_map(|r| r.ruler.as_ref()).unwrap();
    let stats = ru.stats.as_ref().expect("stats filled in");
    let rec = tables().myk.monster(&ru.name).unwrap();
    assert_eq!(stats.defense, rec.defense.unwrap() + 1, "the file's +1 Defense is in the line");
}

#[test]
fn tables_show_prints_poison_and_sealed_with_their_variable_adjustment() {
    let (code, out, _) = crate::run(&["tables", "show", "Poison"]);
    assert_eq!(code, 0);
    assert!(out.contains("level adjustment -(2 + number of poisons)"), "{out}");
    let (_, out, _) = crate::run(&["tables", "show", "Sealed"]);
    assert!(out.contains("-(3 + number of sealed skills)"), "{out}");
    let (_, out, _) = crate::run(&["tables", "show", "Karma"]);
    assert!(out.contains("level adjustment -2\n"), "{out}");
}

#[test]
fn weak_point_details_on_a_ruler_skill_are_refused() {
    let mut sk = Adjustment::new(AdjustmentKind::Skill, "Terror", 1, 3);
    sk.weaknesses = vec!["Silver".into()];
    assert!(rules(&with_adjustments(vec![sk])).contains(&"ruler.adjustment"));
}

crate::in_full! {
    generated_weak_points_carry_their_choices_and_exact_adjustments => generated_weak_points_carry_their_choices_and_exact_adjustments_in_full,
}
