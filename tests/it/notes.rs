//! GM notes: an optional `notes` text on the scenario, each map, room and monster group (MYK) and
//! on the fortress, each area and enemy group (NW3), kept through `check` and `render` and printed,
//! escaped, in the booklets.

use std::path::{Path, PathBuf};

use dungeonsmith::myk::model::Scenario;
use dungeonsmith::nw3::{Fortress, FortressParams, generate};

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-notes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A note naming where it sits, with the characters that must be escaped in HTML and Markdown.
fn note(at: &str) -> String {
    format!("{at} & <script>alert(1)</script> ok")
}

/// The note as it must appear in the booklet: `&`, `<` and `>` as entities, never raw.
fn escaped(at: &str) -> String {
    format!("{at} &amp; &lt;script&gt;alert(1)")
}

/// Checks and renders `json` into `out`, asserting both succeed.
fn check_and_render(json: &Path, out: &Path) {
    let (code, stdout, err) = run(&["check", json.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}{err}");
    let (code, _, err) = run(&["render", json.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
}

/// The text of every element of the Udonarium room that `render --format udonarium` writes.
fn udonarium_texts(json: &Path, out: &Path, zip_name: &str) -> Vec<String> {
    let (code, _, err) =
        run(&["render", json.to_str().unwrap(), "--format", "udonarium", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(out.join(zip_name)).unwrap();
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name("data.xml").expect("data.xml"), &mut xml).expect("utf-8");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed xml");
    doc.descendants().filter_map(|n| n.text()).map(str::to_string).collect()
}

fn assert_printed(text: &str, what: &str, places: &[&str]) {
    assert!(!text.contains("<script>"), "a raw <script> reached the {what}");
    for at in places {
        assert!(text.contains(&escaped(at)), "the {at} note is missing or unescaped in the {what}");
    }
}

#[test]
fn myk_notes_at_every_level_survive_check_and_render_and_are_printed_escaped() {
    let d = temp("myk");
    let mut s = crate::myk::default_scenario(42);
    s.notes = note("scenario note");
    s.maps[0].notes = note("map note");
    let r = s.maps[0].rooms.iter().position(|r| r.used && !r.monsters.is_empty()).expect("a room with monsters");
    s.maps[0].rooms[r].notes = note("room note");
    s.maps[0].rooms[r].monsters[0].notes = note("group note");
    let json = d.join("in.json");
    std::fs::write(&json, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    let out = d.join("out");
    check_and_render(&json, &out);

    let back: Scenario = serde_json::from_str(&read(&out.join("myk-42.json"))).unwrap();
    assert_eq!(back.notes, s.notes);
    assert_eq!(back.maps[0].notes, s.maps[0].notes);
    assert_eq!(back.maps[0].rooms[r].notes, s.maps[0].rooms[r].notes);
    assert_eq!(back.maps[0].rooms[r].monsters[0].notes, s.maps[0].rooms[r].monsters[0].notes);
    let places = ["scenario note", "map note", "room note", "group note"];
    let md = read(&out.join("myk-42.md"));
    assert!(md.contains("## GM notes"), "the scenario's notes have a heading");
    assert_printed(&md, "markdown", &places);
    assert_printed(&read(&out.join("myk-42.html")), "html", &places);
    let texts = udonarium_texts(&json, &d.join("udon"), "myk-42-udonarium-gm.zip");
    assert!(texts.iter().any(|t| t.contains(&note("room note"))), "the room note is in its Udonarium note");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn nw3_notes_on_fortress_area_and_enemy_group_survive_check_and_render_and_are_printed_escaped() {
    let d = temp("nw3");
    let mut f = generate(crate::myk::tables(), &FortressParams::default(), 7).unwrap();
    f.notes = note("fortress note");
    let a = f.areas.iter().position(|a| !a.enemies.is_empty()).expect("an area with enemies");
    f.areas[a].notes = note("area note");
    f.areas[a].enemies[0].notes = note("enemy group note");
    let json = d.join("in.json");
    std::fs::write(&json, f.to_json()).unwrap();
    let out = d.join("out");
    check_and_render(&json, &out);

    let back = Fortress::from_json(&read(&out.join("fortress-7.json"))).unwrap();
    assert_eq!(back.notes, f.notes);
    assert_eq!(back.areas[a].notes, f.areas[a].notes);
    assert_eq!(back.areas[a].enemies[0].notes, f.areas[a].enemies[0].notes);
    let places = ["fortress note", "area note", "enemy group note"];
    let md = read(&out.join("fortress-7.md"));
    assert!(md.contains("## GM notes"), "the fortress's notes have a heading");
    assert_printed(&md, "markdown", &places);
    assert_printed(&read(&out.join("fortress-7.html")), "html", &places);
    let texts = udonarium_texts(&json, &d.join("udon"), "fortress-7-udonarium-gm.zip");
    assert!(texts.iter().any(|t| t.contains(&note("area note"))), "the area note is in its Udonarium note");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn empty_notes_are_left_out_of_the_json_and_the_booklet() {
    let s = crate::myk::default_scenario(42);
    let json = serde_json::to_string_pretty(&s).unwrap();
    assert!(!json.contains("\"notes\""), "no notes written when there are none");
    let f = generate(crate::myk::tables(), &FortressParams::default(), 7).unwrap();
    assert!(!f.to_json().contains("\"notes\""), "no notes written when there are none");
    let d = temp("none");
    let (code, _, err) = run(&["myk", "--seed", "42", "--format", "md", "--out", d.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!read(&d.join("myk-42.md")).contains("GM notes"));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_misspelt_notes_field_on_a_room_is_refused_naming_the_field() {
    let d = temp("typo");
    let s = crate::myk::default_scenario(42);
    let mut v = serde_json::to_value(&s).unwrap();
    v["maps"][0]["rooms"][0]["note"] = serde_json::json!("a typo");
    let json = d.join("in.json");
    std::fs::write(&json, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, _, err) = run(&["check", json.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown field `note`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&d).ok();
}
