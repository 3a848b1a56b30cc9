//! NW3 enemy combat data and Danger Sense, as rules: every enemy and the Ruler carry a stat block
//! from the documented formula, a Boss's Body follows the book's advice and its defence stays
//! below the party's attack + 5, Danger Sense difficulties follow the book, and each broken rule
//! is reported under its own id.

use std::sync::OnceLock;

use dungeonsmith::nw3::combat::{FIGHT_ROUNDS, PartyModel, boss_body, danger_sense, model_pc, ruler_block};
use dungeonsmith::nw3::{Fortress, FortressParams, check, generate};
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3::Rank;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

fn rules(f: &Fortress) -> Vec<&'static str> {
    check(f, tables()).into_iter().map(|v| v.rule).collect()
}

/// A fortress with enemies (an ambushing group among them when `ambush`) and a trap.
fn fortress_with(ambush: bool) -> Fortress {
    (0..500u64)
        .map(|seed| generate(tables(), &FortressParams { areas: 30, ..Default::default() }, seed).expect("generates"))
        .find(|f| {
            f.areas.iter().any(|a| a.trap.is_some())
                && f.areas.iter().any(|a| a.enemies.iter().any(|g| g.ambush == ambush))
        })
        .expect("some seed has both")
}

/// Index of an area holding a group with this ambush flag.
fn enemy_area(f: &Fortress, ambush: bool) -> usize {
    f.areas.iter().position(|a| a.enemies.iter().any(|g| g.ambush == ambush)).expect("an enemy area")
}

#[test]
fn generated_enemies_and_ruler_carry_full_stat_blocks() {
    for (seed, party, cl) in [(7, 4, 3), (1, 1, 1), (2, 8, 20), (3, 6, 12)] {
        let f = generate(tables(), &FortressParams { party, cl, areas: 25, ..Default::default() }, seed).unwrap();
        assert!(check(&f, tables()).is_empty());
        let members = f.areas.iter().flat_map(|a| &a.enemies).flat_map(|g| &g.members);
        for m in members {
            let s = m.stats.expect("a stat block");
            assert!(s.body > 0 && !m.attacks.is_empty(), "{}", m.name);
            assert!(m.attacks.iter().all(|a| a.accuracy > 0 && a.damage > 0), "{}", m.name);
        }
        assert!(f.ruler.stats.is_some_and(|s| s.body > 0) && !f.ruler.attacks.is_empty() && !f.ruler.skills.is_empty());
        assert!(f.areas.iter().flat_map(|a| &a.enemies).all(|g| !g.description.is_empty()));
    }
}

#[test]
fn an_enemy_without_a_stat_block_fails_enemy_body() {
    let mut f = fortress_with(false);
    let i = enemy_area(&f, false);
    let g = f.areas[i].enemies.iter().position(|g| !g.ambush).unwrap();
    f.areas[i].enemies[g].members[0].stats = None;
    assert_eq!(rules(&f), vec!["enemy.body"]);
    let mut f = fortress_with(false);
    f.areas[i].enemies[g].members[0].stats.as_mut().unwrap().body = 0;
    assert!(rules(&f).contains(&"enemy.body"));
    let mut f = fortress_with(false);
    f.ruler.stats = None;
    let v = check(&f, tables());
    assert_eq!((v.len(), v[0].rule, v[0].place.as_str()), (1, "enemy.body", "ruler"));
}

#[test]
fn an_enemy_without_an_attack_fails_enemy_attack() {
    let mut f = fortress_with(false);
    let i = enemy_area(&f, false);
    f.areas[i].enemies[0].members[0].attacks.clear();
    assert_eq!(rules(&f), vec!["enemy.attack"]);
    let mut f = fortress_with(false);
    f.ruler.attacks.clear();
    assert_eq!(rules(&f), vec!["enemy.attack"]);
}

#[test]
fn a_stat_block_off_the_formula_fails_enemy_stats() {
    let mut f = fortress_with(false);
    let i = enemy_area(&f, false);
    let g = f.areas[i].enemies.iter().position(|g| !g.ambush).unwrap();
    f.areas[i].enemies[g].members[0].stats.as_mut().unwrap().patk += 1;
    let v = check(&f, tables());
    assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), vec!["enemy.stats"]);
    assert!(v[0].message.contains("the tables give"), "{}", v[0].message);
    let mut f = fortress_with(false);
    f.areas[i].enemies[g].members[0].attacks[0].damage += 2;
    assert_eq!(rules(&f), vec!["enemy.stats"]);
    let mut f = fortress_with(false);
    f.ruler.skills.pop();
    assert_eq!(rules(&f), vec!["enemy.stats"]);
    let mut f = fortress_with(false);
    f.ruler.skills[0].effect.push('!');
    assert_eq!(rules(&f), vec!["enemy.stats"]);
    let mut f = fortress_with(false);
    let paper = f.areas.iter_mut().flat_map(|a| &mut a.enemies).flat_map(|g| &mut g.members);
    if let Some(k) = paper.flat_map(|m| &mut m.skills).find(|k| k.effect.contains("1D6")) {
        // A `{rating}` filled with the wrong number.
        k.effect = k.effect.replacen("1D6", "2D6", 1);
        assert_eq!(rules(&f), vec!["enemy.stats"]);
    }
}

#[test]
fn a_boss_defence_five_above_the_party_attack_fails_enemy_defence() {
    let f = fortress_with(false);
    let attack = model_pc(f.params.cl).attack;
    let mut g = f.clone();
    g.ruler.stats.as_mut().unwrap().pdef = attack + 5;
    let r = rules(&g);
    assert!(r.contains(&"enemy.defence") && r.contains(&"enemy.stats"), "{r:?}");
    let mut g = f.clone();
    g.ruler.stats.as_mut().unwrap().mdef = attack + 4;
    assert_eq!(rules(&g), vec!["enemy.stats"], "4 above is still allowed by the book");
}

#[test]
fn an_ambush_flag_the_tables_do_not_give_fails_enemy_ambush() {
    let mut f = fortress_with(false);
    let i = enemy_area(&f, false);
    let g = f.areas[i].enemies.iter().position(|g| !g.ambush).unwrap();
    f.areas[i].enemies[g].ambush = true;
    let r = rules(&f);
    assert!(r.contains(&"enemy.ambush"), "{r:?}");
}

#[test]
fn danger_sense_is_the_trap_removal_value_in_a_trap_area() {
    let mut f = fortress_with(true);
    let t = f.areas.iter().position(|a| a.trap.is_some()).unwrap();
    let removal = f.areas[t].trap.as_ref().unwrap().removal;
    assert_eq!(f.areas[t].danger_sense, Some(removal));
    f.areas[t].danger_sense = Some(12);
    if removal != 12 {
        assert_eq!(rules(&f), vec!["danger-sense.difficulty"]);
    }
    f.areas[t].danger_sense = Some(removal + 1);
    let v = check(&f, tables());
    assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), vec!["danger-sense.difficulty"]);
    assert!(v[0].message.contains("Removal Value"), "{}", v[0].message);
}

#[test]
fn danger_sense_against_an_ambush_is_the_best_perception_plus_7() {
    let mut f = fortress_with(true);
    let i = enemy_area(&f, true);
    let best = f.areas[i]
        .enemies
        .iter()
        .filter(|g| g.ambush)
        .flat_map(|g| &g.members)
        .map(|m| m.stats.unwrap().perception)
        .max()
        .unwrap();
    assert_eq!(f.areas[i].danger_sense, Some(best + 7));
    f.areas[i].danger_sense = Some(best + 6);
    let v = check(&f, tables());
    assert_eq!(v.iter().map(|v| v.rule).collect::<Vec<_>>(), vec!["danger-sense.difficulty"]);
    assert!(v[0].message.contains("Perception + 7"), "{}", v[0].message);
}

#[test]
fn danger_sense_is_12_where_nothing_sets_it_and_must_be_given() {
    let mut f = fortress_with(true);
    let i = f.areas.iter().position(|a| a.trap.is_none() && a.enemies.is_empty()).unwrap();
    assert_eq!(f.areas[i].danger_sense, Some(12));
    assert_eq!(danger_sense(&f.areas[i]).0, 12);
    f.areas[i].danger_sense = Some(15);
    assert_eq!(rules(&f), vec!["danger-sense.difficulty"]);
    f.areas[i].danger_sense = None;
    assert_eq!(rules(&f), vec!["danger-sense.difficulty"]);
}

#[test]
fn a_typo_in_a_hand_edited_stat_block_names_the_field() {
    let f = fortress_with(false);
    let text = f.to_json().replacen("\"perception\"", "\"perseption\"", 1);
    let e = Fortress::from_json(&text).unwrap_err().to_string();
    assert!(e.contains("perseption"), "{e}");
    let text = f.to_json().replacen("\"range\": \"close\"", "\"range\": \"melee\"", 1);
    let e = Fortress::from_json(&text).unwrap_err().to_string();
    assert!(e.contains("melee"), "{e}");
}

/// The mean party damage per round against a Boss, straight from the dice (all 6^4 rolls of
/// each judge), independent of the library's integer arithmetic.
fn expected_boss_body(cl: u32, party: u32, eva: u32, pdef: u32, mdef: u32) -> f64 {
    expected_worn_down(cl, party, FIGHT_ROUNDS as f64, eva, pdef, mdef)
}

fn expected_worn_down(cl: u32, party: u32, rounds: f64, eva: u32, pdef: u32, mdef: u32) -> f64 {
    let pc = model_pc(cl);
    let def = f64::from((pdef + mdef) / 2);
    let (mut hits, mut dmg) = (0u32, 0.0f64);
    for a in 1..=6 {
        for b in 1..=6 {
            for c in 1..=6 {
                for d in 1..=6 {
                    let att = f64::from(a + b);
                    let dfn = f64::from(c + d);
                    if att + f64::from(pc.accuracy) >= dfn + f64::from(eva) {
                        hits += 1;
                    }
                    dmg += (att + f64::from(pc.attack) - dfn - def).max(0.0);
                }
            }
        }
    }
    f64::from(party) * f64::from(hits) / 1296.0 * dmg / 1296.0 * rounds
}

#[test]
fn a_boss_body_is_the_party_damage_per_round_times_the_rounds_at_the_extremes() {
    for (cl, party) in [(1, 1), (20, 8), (1, 8), (20, 1)] {
        for r in &tables().nw3.rulers {
            let b = ruler_block(&tables().nw3, r, PartyModel::model(cl, party));
            let s = b.stats;
            let want = expected_boss_body(cl, party, s.eva, s.pdef, s.mdef).ceil() as u32;
            // never below a Guest's Body, the model PC's
            assert_eq!(s.body, want.max(model_pc(cl).body), "{} at CL {cl}, party {party}", r.name);
            assert_eq!(boss_body(PartyModel::model(cl, party), s.eva, s.pdef, s.mdef).max(model_pc(cl).body), s.body);
            // Defence against the party's attack: below attack + 5, and the party can hurt it.
            let attack = model_pc(cl).attack;
            assert!(s.pdef < attack + 5 && s.mdef < attack + 5, "{} at CL {cl}", r.name);
            assert!(s.pdef < attack && s.mdef < attack, "{} at CL {cl}: the party does damage", r.name);
        }
    }
    // A Mob is worn down by one PC in 2 rounds; a Guest, built like a PC (seed 000 ~l.1027), has a
    // PC's Body.
    let d = &tables().nw3;
    for (cl, party) in [(1, 1), (20, 8)] {
        for m in d.enemies.iter().flat_map(|e| &e.members) {
            let s = dungeonsmith::nw3::combat::member_block(d, m, PartyModel::model(cl, party)).stats;
            if m.rank == Rank::Mob {
                let want = expected_worn_down(cl, 1, 2.0, s.eva, s.pdef, s.mdef).ceil() as u32;
                assert_eq!(s.body, want.max(1), "{} at CL {cl}", m.name);
            } else {
                assert_eq!(s.body, model_pc(cl).body, "{} at CL {cl}", m.name);
            }
        }
    }
    // A lone CL 1 PC faces a Boss it can bring down in about five rounds; eight CL 20 PCs face one
    // that outlasts several of their own number.
    let r = &tables().nw3.rulers[0];
    let low = ruler_block(&tables().nw3, r, PartyModel::model(1, 1)).stats.body;
    let high = ruler_block(&tables().nw3, r, PartyModel::model(20, 8)).stats.body;
    assert!((8..=40).contains(&low), "CL 1 solo Boss Body {low}");
    assert!(high > 2 * model_pc(20).body, "CL 20 party-8 Boss Body {high}");
}

#[test]
fn ranks_order_toughness_and_mobs_are_the_weakest() {
    let d = &tables().nw3;
    for cl in [1, 10, 20] {
        let by_rank = |rank: Rank| {
            d.enemies
                .iter()
                .flat_map(|e| &e.members)
                .filter(|m| m.rank == rank)
                .map(|m| dungeonsmith::nw3::combat::member_block(d, m, PartyModel::model(cl, 4)).stats.body)
                .max()
        };
        let (mob, guest) = (by_rank(Rank::Mob).unwrap(), by_rank(Rank::Guest).unwrap());
        assert!(mob < guest, "CL {cl}: mob Body {mob}, guest Body {guest}");
    }
}

#[test]
fn format_1_fortresses_get_stat_blocks_from_the_tables_on_read() {
    let dir = std::env::temp_dir().join(format!("ds-w10a-format1-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().to_string();
    let (code, _, err) =
        crate::run(&["render", "tests/data/format1/fortress-7.json", "--out", &dir_s, "--format", "json,md"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("fortress-7.json")).expect("re-rendered json");
    let f = Fortress::from_json(&text).expect("parses");
    assert!(check(&f, tables()).is_empty());
    assert!(f.ruler.stats.is_some());
    for a in &f.areas {
        assert!(a.danger_sense.is_some(), "area {}", a.id);
        for m in a.enemies.iter().flat_map(|g| &g.members) {
            assert!(m.stats.is_some() && !m.attacks.is_empty(), "{}", m.name);
        }
    }
    let md = std::fs::read_to_string(dir.join("fortress-7.md")).expect("markdown");
    assert!(md.contains("· HP ") && md.contains("Danger Sense"), "the booklet prints the blocks");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_booklet_prints_every_enemy_block_and_the_rulers_in_the_climax() {
    let f = generate(tables(), &FortressParams { areas: 20, ..Default::default() }, 11).unwrap();
    let dir = std::env::temp_dir().join(format!("ds-w10a-booklet-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().to_string();
    let (code, _, err) =
        crate::run(&["fortress", "--seed", "11", "--areas", "20", "--out", &dir_s, "--format", "md,html"]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(dir.join("fortress-11.md")).expect("markdown");
    let html = std::fs::read_to_string(dir.join("fortress-11.html")).expect("html");
    let _ = std::fs::remove_dir_all(&dir);
    for a in &f.areas {
        for g in &a.enemies {
            assert!(md.contains(&g.description), "{}", g.name);
            for m in &g.members {
                let s = m.stats.unwrap();
                let line = format!("PACC {} · PATK {} · PDEF {}", s.pacc, s.patk, s.pdef);
                let named = dungeonsmith::text::count(m.count.into(), &m.name);
                assert!(md.contains(&format!("**{named}**")) && md.contains(&line), "{}", m.name);
            }
        }
        assert!(md.contains(&format!("Danger Sense {}", a.danger_sense.unwrap())));
    }
    let climax = &md[md.find("## Climax").expect("a climax")..];
    assert!(climax.contains(&format!("HP {}", f.ruler.stats.unwrap().body)));
    assert!(climax.contains(&f.ruler.attacks[0].name) && climax.contains(&f.ruler.skills[0].name));
    assert!(html.contains("class=\"statblock\"") && html.contains("Fortress rules for the GM"));
    assert!(md.contains("1 Prana") && md.contains("reset"));
}

#[test]
fn the_fortress_booklet_markdown_for_seed_7_is_golden() {
    let dir = std::env::temp_dir().join(format!("ds-w10a-golden-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().to_string();
    let (code, _, err) = crate::run(&["fortress", "--seed", "7", "--out", &dir_s, "--format", "md"]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(dir.join("fortress-7.md")).expect("markdown");
    let _ = std::fs::remove_dir_all(&dir);
    // The program and tables versions change without the fortress changing.
    let (f, t) = (&tables().version, env!("CARGO_PKG_VERSION"));
    let md = md.replace(f.as_str(), "[tables]").replace(t, "[version]");
    insta::assert_snapshot!("nw3_seed_7_md", md);
}
