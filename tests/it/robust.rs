//! Issue 50's repros for `fix`, the PDF typesetter, an old file's upgrade, the fortress's area
//! ids and the command line's slips, each as a test: exit 0 with its output, or exit 2 with one
//! line and nothing written.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ds-robust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> String {
    p.to_string_lossy().to_string()
}

/// A generated scenario's JSON (`args` after the command, seed 11), parsed.
fn generated(dir: &Path, command: &str, args: &[&str]) -> Value {
    generated_from(dir, command, "11", args)
}

/// A generated scenario's JSON (`args` after the command, seed `seed`), parsed.
fn generated_from(dir: &Path, command: &str, seed: &str, args: &[&str]) -> Value {
    let out = dir.join("gen");
    let mut a = vec![command, "--seed", seed, "--format", "json", "--out"];
    let o = s(&out);
    a.push(&o);
    a.extend_from_slice(args);
    let (code, _, err) = run(&a);
    assert_eq!(code, 0, "{a:?}: {err}");
    let prefix = if command == "myk" { "myk" } else { "fortress" };
    let v = serde_json::from_str(&std::fs::read_to_string(out.join(format!("{prefix}-{seed}.json"))).unwrap()).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
    v
}

/// Writes `v` to `dir/case.json` and gives its path.
fn write(dir: &Path, v: &Value) -> String {
    let file = dir.join("case.json");
    std::fs::write(&file, serde_json::to_string_pretty(v).unwrap()).unwrap();
    s(&file)
}

/// A refusal: exit 2, one line on stderr saying `says`, nothing on stdout.
fn refused(args: &[&str], says: &str) -> String {
    let (code, out, err) = run(args);
    assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    err
}

#[test]
fn fix_reroll_and_from_refuse_a_map_of_fewer_than_nine_rooms_in_one_line() {
    let d = temp("nine");
    let mut v = generated(&d, "myk", &["--maps", "2"]);
    let rooms = v["maps"][0]["rooms"].as_array_mut().unwrap();
    rooms.truncate(6);
    let file = write(&d, &v);
    let before = std::fs::read(&file).unwrap();
    let says = "map 1 does not list its nine rooms A1..C3 in order";
    refused(&["fix", &file], says);
    assert_eq!(std::fs::read(&file).unwrap(), before, "fix in place left the file as it was");
    let fixed = d.join("fixed.json");
    refused(&["fix", &file, "--out", &s(&fixed)], says);
    assert!(!fixed.exists());
    let out = d.join("out");
    refused(&["reroll", &file, "--frame", "--out", &s(&out)], says);
    refused(&["reroll", &file, "--map", "2", "--out", &s(&out)], says);
    refused(&["myk", "--from", &file, "--seed", "3", "--out", &s(&out)], says);
    assert!(!out.exists(), "nothing written");
    // `check` still names the rule.
    let (code, out_text, _) = run(&["check", &file]);
    assert_eq!(code, 1);
    assert!(out_text.contains("structure.rooms"), "{out_text}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_pdf_of_a_paragraph_past_64_kib_is_typeset_whole() {
    let d = temp("pdf");
    let mut v = generated(&d, "myk", &[]);
    // One cast member with 33 traits of 2,000 characters: within every limit, 66 KB in one paragraph.
    let trait_text = "a trait of many words said at length ".repeat(60)[..2000].to_string();
    v["cast"][0]["traits"] = json!(vec![trait_text; 33]);
    let file = write(&d, &v);
    let out = d.join("out");
    let (code, printed, err) = run(&["render", "--force", &file, "--format", "pdf", "--out", &s(&out)]);
    assert_eq!(code, 0, "{err}");
    let pdf = printed.lines().find(|l| l.ends_with(".pdf")).expect("a PDF written");
    let bytes = std::fs::read(pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF"), "a PDF");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn fix_writes_nothing_past_the_text_limit_from_a_weak_point_listed_200_times() {
    let d = temp("weak");
    // Seed 5's ruler has one weak point (Split Core), which a clue tells: listed 200 times more,
    // the clue `fix` tells anew is 2,456 characters long.
    let mut v = generated_from(&d, "myk", "5", &[]);
    let ruler = v["maps"][0]["rooms"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find_map(|r| r.get_mut("ruler").filter(|x| x.is_object()))
        .expect("a ruler");
    let adj = ruler["adjustments"].as_array_mut().unwrap();
    let weak = adj.iter().find(|a| a["kind"] == "weak_point").expect("a weak point").clone();
    adj.extend(std::iter::repeat_n(weak, 200));
    let file = write(&d, &v);
    let before = std::fs::read(&file).unwrap();
    let err = refused(&["fix", &file], "`fix` would write a file no command reads; nothing written");
    assert!(err.contains("characters; at most 2000 characters in a text"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn fix_writes_nothing_past_the_count_limit_from_200_court_levels() {
    let d = temp("court");
    let mut v = generated(&d, "myk", &[]);
    v["court"]["levels"] = json!(vec![3; 200]);
    v["params"]["levels"] = json!(vec![3; 200]);
    v["params"]["court_size"] = json!(200);
    let file = write(&d, &v);
    let before = std::fs::read(&file).unwrap();
    let err = refused(&["fix", &file], "`fix` would write a file no command reads; nothing written");
    assert!(err.contains("at most 100 (a count multiplies what is drawn)"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

/// The format-1 file of issue 50: `maps` copies of the shipped format-1 map, whose room B1 holds
/// `traps` traps named by `name(i)`, and 1,000 clues of 2,000 characters naming room B1 (the old
/// upgrade searched every clue's text for every trap name of every map: 48 s at 10 maps).
fn format_1_file(d: &Path, maps: u32, traps: usize, name: impl Fn(u32, usize) -> String) -> String {
    let text = std::fs::read_to_string("tests/data/format1/myk-42.json").unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    assert!(v.get("format").is_none(), "a format-1 file");
    let map = v["maps"][0].clone();
    let trap = map["rooms"][3]["traps"][0].clone();
    let mut all = Vec::new();
    for m in 1..=maps {
        let mut map = map.clone();
        map["index"] = json!(m);
        map["rooms"][3]["traps"] = (0..traps)
            .map(|i| {
                let mut t = trap.clone();
                t["name"] = json!(name(m, i));
                t
            })
            .collect();
        all.push(map);
    }
    v["maps"] = json!(all);
    v["params"]["maps"] = json!(maps);
    let clue = v["clues"][0].clone();
    let said = format!("The ruler waits in room B1. {}", "Nothing here names a trap at all. ".repeat(60));
    v["clues"] = (0..1000)
        .map(|i| {
            let mut c = clue.clone();
            c["text"] = json!(said[..2000].to_string());
            c["at"]["map"] = json!(i % maps + 1);
            c
        })
        .collect();
    let file = d.join("old.json");
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    s(&file)
}

#[test]
fn a_format_1_file_of_10_maps_upgrades_with_each_trap_name_searched_once() {
    let d = temp("format1");
    // 10 maps of 1,000 traps of one name: the old upgrade made 10 million searches of 2,000
    // characters; now each distinct name is searched once a clue.
    let file = format_1_file(&d, 10, 1000, |_, _| "Pitfall".into());
    let (code, out, err) = run(&["check", &file]);
    assert_eq!(code, 1, "read, upgraded and checked: {err}");
    assert!(out.contains(" violations"), "{out}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_format_1_file_past_the_upgrade_limit_is_refused_in_one_line() {
    let d = temp("format1-limit");
    // 10 maps of 1,000 traps of distinct names: 10,000 names for each of 1,000 clues.
    let file = format_1_file(&d, 10, 1000, |m, i| format!("Trap {m}-{i}"));
    refused(&["check", &file], "a format-1 file's clues and trap names are too many to upgrade");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_fortress_with_repeated_area_ids_is_refused_naming_the_id() {
    let d = temp("ids");
    let mut v = generated(&d, "fortress", &["--areas", "40"]);
    // 80 areas with 27 distinct ids, as the 82 KB file.
    let areas = v["areas"].as_array().unwrap().clone();
    let mut all: Vec<Value> = areas.iter().chain(&areas).cloned().collect();
    for (i, a) in all.iter_mut().enumerate() {
        a["id"] = json!(i % 27 + 1);
    }
    v["areas"] = json!(all);
    let file = write(&d, &v);
    let out = d.join("out");
    for args in [
        vec!["render", "--force", &file, "--format", "uvtt", "--out", &s(&out)],
        vec!["render", "--force", &file, "--format", "udonarium", "--out", &s(&out)],
        vec!["check", &file],
        vec!["fix", &file],
    ] {
        refused(&args, "`areas[27].id`: area id 1 is used twice (also `areas[0]`); area ids are unique");
    }
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn the_readme_names_the_format_this_version_writes() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let says = format!("writes format {}.", dungeonsmith::format::CURRENT);
    assert!(readme.contains(&says), "the README's Files section says `{says}`");
}

#[test]
fn a_bad_objective_is_quoted_cut_as_every_option_is() {
    let long = "x".repeat(100_000);
    let err = refused(&["myk", "--objective", &long, "--out", "/nonexistent"], "--objective");
    assert!(err.len() < 1000, "cut: {} bytes", err.len());
    assert!(err.contains("(100000 characters)"), "{err}");
}

#[test]
fn out_naming_a_file_is_refused_naming_the_option() {
    let d = temp("out-file");
    let file = d.join("notes.txt");
    std::fs::write(&file, "a GM's notes").unwrap();
    refused(&["myk", "--seed", "1", "--out", &s(&file)], "`--out`");
    let err = refused(&["myk", "--seed", "1", "--out", &s(&file.join("sub"))], "is a file, not a folder");
    assert!(!err.contains("os error"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a GM's notes");
    std::fs::remove_dir_all(&d).ok();
}
