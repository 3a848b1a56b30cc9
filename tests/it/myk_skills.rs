//! MYK at the table: every skill a monster names has a record that `tables show` finds and the
//! booklet prints; groups print Materials and Treasure; the Negotiation Table is there; a monster
//! whose stats the source lost never reaches an encounter table.

use std::path::{Path, PathBuf};

use dungeonsmith::dice::Dice;
use dungeonsmith::model::Paper;
use dungeonsmith::myk::model::{EncounterGroup, Layout, Scenario};
use dungeonsmith::myk::{MykParams, generate};
use dungeonsmith::render::text::Templates;
use dungeonsmith::render::view;
use dungeonsmith::tables::roll::Position;
use dungeonsmith::tables::show::show;
use dungeonsmith::tables::skills::SkillRef;

use crate::myk::{default_scenario, tables};
use crate::run;

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::load(None).expect("embedded templates load"))
}

fn booklet(s: &Scenario, template: &str) -> String {
    let v = view::myk_view(s, tables(), Paper::A4, &[]);
    templates().render(template, &v).expect("renders")
}

/// Courts of every average level 1-12 (so every encounter table), 1-3 maps.
fn scenario_for(seed: u64) -> Scenario {
    let mut d = Dice::new(seed).child("test/skills-options");
    let size = d.between(1, 6) as usize;
    let level = d.between(1, 12);
    let p = MykParams {
        levels: vec![level; size],
        maps: d.between(1, 3),
        rooms: d.between(3, 9),
        layout: Layout::Mixed,
        objective: None,
        ..Default::default()
    };
    generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// Every monster the scenario shows the GM: room groups, rulers, encounter-table monsters.
fn monsters_of(s: &Scenario) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in s.maps.iter().flat_map(|m| &m.rooms) {
        names.extend(r.monsters.iter().map(|g| g.name.to_string()));
        names.extend(r.ruler.iter().map(|ru| ru.name.to_string()));
    }
    names.extend(s.encounters.rows.iter().flat_map(|r| &r.groups).map(|g| g.name.to_string()));
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_skill_a_monster_names_has_a_record_or_a_reason() {
    let t = tables();
    let mut labels = 0;
    for m in &t.myk.monsters {
        for label in &m.skills {
            labels += 1;
            match t.myk.skills.for_label(label) {
                Some(SkillRef::Known(k)) => {
                    assert!(!k.effect.trim().is_empty() && !k.timing.trim().is_empty(), "{label}");
                    assert_eq!(k.label(), *label, "{}: record spelled as the monster names it", m.name);
                }
                Some(SkillRef::Unknown(u)) => assert!(!u.reason.trim().is_empty(), "{label} has no reason"),
                None => panic!("{}: skill `{label}` has no record", m.name),
            }
        }
    }
    assert!(labels > 500, "the bestiary names skills ({labels})");
    // Only what the source really lost is unknown.
    assert!(t.myk.skills.unknown.len() <= 3, "{:?}", t.myk.skills.unknown);
}

#[test]
fn tables_show_finds_every_skill_in_any_case_with_or_without_its_group() {
    let t = tables();
    let labels: Vec<String> = t
        .myk
        .skills
        .skills
        .iter()
        .map(|s| (s.label(), s.name.clone()))
        .chain(t.myk.skills.unknown.iter().map(|u| (u.label(), u.name.clone())))
        .flat_map(|(label, name)| {
            [label.clone(), label.to_lowercase(), label.to_uppercase(), name.clone(), name.to_lowercase()]
                .map(|q| (label.clone(), q))
        })
        .map(|(label, q)| {
            let text = show(t, &q).unwrap_or_else(|e| panic!("`{q}`: {e}"));
            assert!(text.contains(&format!("{label} — skill")), "`{q}` shows {text}");
            label
        })
        .collect();
    assert!(labels.len() >= 5 * 270);
    // The command line, as a GM types it.
    let (code, out, err) = run(&["tables", "show", "hoick (melee)"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Hoick (Melee) — skill"), "{out}");
    let (code, out, _) = run(&["tables", "show", "Hoick"]);
    assert_eq!(code, 0);
    assert!(out.contains("Hoick (Melee)") && out.contains("used by:"), "{out}");
}

#[test]
fn tables_show_ignores_case_for_every_record_and_table() {
    let t = tables();
    let m = &t.myk;
    let names = t
        .rolls
        .iter()
        .map(|l| l.item.name.clone())
        .chain(m.traps.iter().map(|x| x.name.to_string()))
        .chain(m.bases.iter().map(|x| x.name.to_string()))
        .chain(m.monsters.iter().map(|x| x.name.to_string()))
        .chain(m.ruler_skills.iter().map(|x| x.name.to_string()))
        .chain(m.weak_points.iter().map(|x| x.name.to_string()))
        .chain(t.nw3.traps.iter().map(|x| x.name.clone()))
        .chain(t.nw3.enemies.iter().map(|x| x.name.clone()))
        .chain(t.nw3.rulers.iter().map(|x| x.name.clone()))
        .chain(t.nw3.cores.iter().map(|x| x.name.clone()));
    for name in names {
        let exact = show(t, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(show(t, &name.to_lowercase()).unwrap(), exact, "{name} in lower case");
        assert_eq!(show(t, &name.to_uppercase()).unwrap(), exact, "{name} in upper case");
    }
    let (code, out, err) = run(&["tables", "show", "halcyone"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Halcyone — Angel"), "{out}");
    let (code, _, err) = run(&["tables", "show", "no such thing"]);
    assert_eq!(code, 2);
    assert!(err.contains("`no such thing`"), "{err}");
}

#[test]
fn a_booklet_gives_the_effect_of_every_skill_of_every_monster_it_shows() {
    let t = tables();
    for seed in crate::seeds(0..150u64) {
        let s = scenario_for(seed);
        let md = booklet(&s, "myk.md");
        let skills_at = md.find("### Skills in this scenario").expect("skills section");
        let section = &md[skills_at..md.find("## Glossary").expect("glossary")];
        for name in monsters_of(&s) {
            let m = t.myk.monster(&name).unwrap();
            for label in &m.skills {
                // The Markdown writes user and table text escaped.
                let md_label = dungeonsmith::render::text::markdown_escape(label);
                let entry = format!("- **{md_label}** — ");
                assert!(section.contains(&entry), "seed {seed}: {name}'s {label} not in the skills section");
                if let Some(SkillRef::Known(k)) = t.myk.skills.for_label(label) {
                    let effect = dungeonsmith::render::text::markdown_escape(&k.effect);
                    assert!(section.contains(&effect), "seed {seed}: effect of {label} missing");
                }
            }
        }
        // Each skill once, sorted.
        let listed: Vec<&str> =
            section.lines().filter_map(|l| l.strip_prefix("- **")).filter_map(|l| l.split("** — ").next()).collect();
        let mut sorted = listed.clone();
        sorted.sort_by_key(|l| l.to_lowercase());
        sorted.dedup();
        assert_eq!(listed, sorted, "seed {seed}: skills once each, in order");
    }
    let html = booklet(&default_scenario(42), "myk.html");
    assert!(html.contains("id=\"skills\"") && html.contains("href=\"#skills\""), "the room key points to the section");
}

#[test]
fn every_group_and_ruler_prints_its_materials_and_the_treasure_tables_it_needs() {
    let t = tables();
    for seed in crate::seeds(0..150u64) {
        let s = scenario_for(seed);
        let md = booklet(&s, "myk.md");
        // Part one (the room key) ends at part two's divider, where the tables are.
        let key_end = md.find("## Part two: Reference").unwrap();
        let key = &md[..key_end];
        for r in s.maps.iter().flat_map(|m| &m.rooms) {
            for g in &r.monsters {
                let m = t.myk.monster(&g.name).unwrap();
                let line = format!("  Materials: {}. Treasure: 1D6", m.materials.join(", "));
                assert!(key.contains(&line), "seed {seed}: {} has no materials/treasure line", g.name);
            }
            if let Some(ru) = &r.ruler {
                let m = t.myk.monster(&ru.name).unwrap();
                if !m.materials.is_empty() {
                    assert!(key.contains(&format!("materials: {}", m.materials.join(", "))), "seed {seed}");
                }
                assert!(key.contains("  - Treasure: 1D6 on the Level"));
            }
        }
        // Every table a monster line names (room key or encounter list) is printed in full.
        let play = &md[key_end..];
        let printed = &md[md.find("### Treasure\n").expect("treasure section")..];
        for (individual, total) in
            [("1-5", "1-9"), ("6-10", "10-15"), ("11-15", "16-22"), ("16-20", "23-30"), ("21+", "31+")]
        {
            let title = format!("**Treasure Table: Individual Level {individual} / Total Levels {total}");
            let named = md.contains(&format!("on the Level {individual} Treasure Table"))
                || md.contains(&format!("on the Total {total} table"));
            assert!(!named || printed.contains(&title), "seed {seed}: {title} named but not printed");
        }
        assert!(play.contains("### Treasure") && play.contains("say so before rolling"), "seed {seed}");
    }
}

#[test]
fn the_booklet_prints_the_negotiation_table_exchange_and_the_encounter_trigger() {
    let s = default_scenario(42);
    let md = booklet(&s, "myk.md");
    let neg = tables().require("myk.negotiation").unwrap();
    assert!(md.contains("### Negotiation") && md.contains("takes -2 (never below 2)"));
    for row in &neg.rows {
        assert!(md.contains(&format!("| {} | {} |", row.roll, row.text())), "negotiation row {}", row.roll);
    }
    assert!(md.contains("### Exchange with friendly monsters") && md.contains("difficulty 9 + the monster's level"));
    assert!(md.contains(&format!("no more than the court's size ({})", s.court.size)));
    // Each encounter-table monster with its stat line.
    for g in s.encounters.rows.iter().flat_map(|r| &r.groups) {
        let m = tables().myk.monster(&g.name).unwrap();
        assert!(md.contains(&format!(
            "- **{}** ({}, level {}) — Warfare",
            m.name,
            m.category.label(),
            m.level.unwrap()
        )));
    }
}

#[test]
fn a_monster_with_unknown_stats_never_enters_a_generated_encounter_table() {
    let t = tables();
    // The book's level-2 table holds Gargoyle, whose stat line is lost.
    let book = t.require("myk.encounters.level2").unwrap();
    assert!(book.rows.iter().flat_map(|r| &r.groups).any(|g| g.monster == "Gargoyle"));
    let filtered = &t.myk.encounters["myk.encounters.level2"];
    assert!(filtered.iter().flat_map(|r| &r.groups).all(|g| g.monster != "Gargoyle"));
    assert!(filtered.iter().any(|r| r.dropped == ["Gargoyle"]));
    for seed in crate::seeds(0..600u64) {
        let s = scenario_for(seed);
        for g in s.encounters.rows.iter().flat_map(|r| &r.groups) {
            assert!(t.myk.monster(&g.name).is_some_and(|m| m.complete()), "seed {seed}: {} in the table", g.name);
        }
        for r in s.maps.iter().flat_map(|m| &m.rooms) {
            for g in &r.monsters {
                assert!(t.myk.monster(&g.name).unwrap().complete(), "seed {seed}: {} placed", g.name);
            }
        }
    }
}

#[test]
fn an_older_file_with_gargoyle_in_its_encounter_table_renders_without_it() {
    let mut s = default_scenario(42);
    s.encounters.rows[0].groups =
        vec![EncounterGroup { name: "Gargoyle".into(), position: Position::Vanguard, count: 4 }];
    for template in ["myk.md", "myk.html"] {
        let text = booklet(&s, template);
        assert!(!text.contains("Gargoyle"), "{template} prints Gargoyle");
        assert!(text.contains("No encounter: the court meets nothing this time"));
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

#[test]
fn a_tables_copy_missing_a_skill_record_fails_naming_the_monster_and_the_skill() {
    let dir = std::env::temp_dir().join(format!("dungeonsmith-skills-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables"), &dir);
    // Take out the record of Hoick (Melee), wherever it is.
    let mut removed = false;
    for e in std::fs::read_dir(dir.join("myk")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let blocks: Vec<&str> = text.split("[[skill]]").collect();
        if let Some(i) = blocks.iter().position(|b| b.contains("name = \"Hoick\"") && b.contains("group = \"Melee\"")) {
            let kept: Vec<&str> = blocks.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, b)| *b).collect();
            std::fs::write(&p, kept.join("[[skill]]")).unwrap();
            removed = true;
        }
    }
    assert!(removed, "Hoick (Melee) has a record to remove");
    let (code, _, err) = run(&["--tables", dir.to_str().unwrap(), "tables", "list"]);
    assert_eq!(code, 2);
    assert!(err.contains("`myk/monsters_") && err.contains("monster `") && err.contains("`Hoick (Melee)`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_treasure_tables_of_random_encounter_monsters_are_printed_too() {
    // A level-9 court uses the level-6 encounter table: Bone Dragon (level 20) and friends.
    let p = MykParams {
        levels: vec![9; 5],
        maps: 1,
        rooms: 5,
        layout: Layout::Mixed,
        objective: None,
        ..Default::default()
    };
    let s = generate(tables(), &p, 1).unwrap();
    let md = booklet(&s, "myk.md");
    assert!(md.contains("- **Bone Dragon** (Undead, level 20)") && md.contains("Treasure: 1D6 on the Level 16-20"));
    assert!(md.contains("**Treasure Table: Individual Level 16-20 / Total Levels 23-30 (1D6)**"));
}

crate::in_full! {
    a_booklet_gives_the_effect_of_every_skill_of_every_monster_it_shows => a_booklet_gives_the_effect_of_every_skill_of_every_monster_it_shows_in_full,
    every_group_and_ruler_prints_its_materials_and_the_treasure_tables_it_needs => every_group_and_ruler_prints_its_materials_and_the_treasure_tables_it_needs_in_full,
    a_monster_with_unknown_stats_never_enters_a_generated_encounter_table => a_monster_with_unknown_stats_never_enters_a_generated_encounter_table_in_full,
}
