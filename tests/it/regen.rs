//! The regenerate line (footers, booklets): the seed command only when it gives the file back,
//! `dungeonsmith render FILE.json` once the file was edited by hand.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{footer_command, run};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-regen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Writes `args` into `dir` in the formats that carry the line; panics unless it succeeds.
fn write(args: &[&str], dir: &Path) {
    let mut all = args.to_vec();
    all.extend(["--out", dir.to_str().expect("utf-8 path"), "--format", "json,svg,md,html"]);
    let (code, _, err) = run(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
}

/// The regenerate line of the sheet `svg`, the Markdown and the HTML booklet in `dir`.
fn lines(dir: &Path, stem: &str, svg: &str) -> (String, String, String) {
    let svg = read(&dir.join(svg));
    let program = ["dungeonsmith myk", "dungeonsmith fortress", "dungeonsmith render"]
        .into_iter()
        .find(|p| svg.contains(p))
        .expect("the footer has a regenerate line");
    let footer = footer_command(&svg, program);
    (footer, read(&dir.join(format!("{stem}.md"))), read(&dir.join(format!("{stem}.html"))))
}

/// Edits the JSON file at `path` with `edit` and writes it back.
fn edit(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&read(path)).expect("json");
    edit(&mut v);
    std::fs::write(path, serde_json::to_string_pretty(&v).expect("json")).expect("write");
}

/// One game's round trip: generated and rendered unedited, the footer and booklet keep the seed
/// command; edited by hand and rendered, they say `render` and that the file was edited.
fn check_round_trip(name: &str, make: &[&str], stem: &str, svg: &str, change: impl FnOnce(&mut Value)) {
    let dir = temp(name);
    let made = dir.join("made");
    write(make, &made);
    let (footer, md, html) = lines(&made, stem, svg);
    assert!(footer.starts_with(&format!("dungeonsmith {} --seed ", make[0])), "{footer}");
    assert!(md.contains(&format!("*Regenerate with:* `{footer}`")), "{md}");
    assert!(html.contains(&format!("Regenerate with <code>{footer}</code>")));
    assert!(!md.contains("Edited by hand"));

    let file = made.join(format!("{stem}.json"));
    let again = dir.join("again");
    write(&["render", file.to_str().unwrap()], &again);
    assert_eq!(lines(&again, stem, svg).0, footer, "an unedited file keeps its seed command");

    edit(&file, change);
    let edited = dir.join("edited");
    write(&["render", file.to_str().unwrap()], &edited);
    let render = format!("dungeonsmith render {stem}.json");
    let (footer, md, html) = lines(&edited, stem, svg);
    assert_eq!(footer, render);
    assert!(md.contains("Edited by hand") && md.contains(&format!("`{render}`")), "{md}");
    assert!(html.contains("Edited by hand") && html.contains(&format!("<code>{render}</code>")));
    assert!(!md.contains("Regenerate with"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_edited_myk_scenario_says_render_its_file_and_an_unedited_one_keeps_the_seed_command() {
    check_round_trip("myk", &["myk", "--seed", "42"], "myk-42", "myk-42-map1.svg", |v| {
        v["maps"][0]["rooms"][0]["name"] = "The Vault of Hands".into();
    });
}

#[test]
fn an_edited_fortress_says_render_its_file_and_an_unedited_one_keeps_the_seed_command() {
    check_round_trip("nw3", &["fortress", "--seed", "7"], "fortress-7", "fortress-7.svg", |v| {
        v["areas"][1]["name"] = "Hall of Hands".into();
    });
}

#[test]
fn a_note_added_by_hand_counts_as_an_edit() {
    check_round_trip("note", &["myk", "--seed", "5", "--paper", "letter"], "myk-5", "myk-5-map1.svg", |v| {
        v["notes"] = "Run this one at night.".into();
    });
}

#[test]
fn recorded_rerolls_keep_the_seed_command_with_its_rerolls() {
    let dir = temp("reroll");
    write(&["myk", "--seed", "9", "--reroll", "map1/B2"], &dir);
    let (footer, md, _) = lines(&dir, "myk-9", "myk-9-map1.svg");
    assert!(footer.starts_with("dungeonsmith myk --seed 9 ") && footer.ends_with(" --reroll map1/B2"), "{footer}");
    assert!(md.contains(&format!("*Regenerate with:* `{footer}`")), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}
