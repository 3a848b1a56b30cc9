//! A Ruler whose past fits (issue 47, item 3): its persona, Core, former life, wish, keyword and
//! place reason are drawn from one theme; the tables refuse a theme a part lacks and an entry of
//! an unknown theme; `check` refuses a stated past the legwork or the Ruler contradicts; a
//! persona or a Core repeats in under 5% of 300 episodes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dungeonsmith::nw3::{Fortress, FortressParams, generate};
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3_episode::ThemedLine;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

/// The spread of the issue: areas 3-40, party 1-8, CL 1-20.
fn params(i: u64) -> FortressParams {
    FortressParams {
        areas: 3 + (i % 38) as u32,
        party: 1 + (i % 8) as u32,
        cl: 1 + (i * 7 % 20) as u32,
        ..Default::default()
    }
}

/// Seeds nobody tuned the pools to (a fixed odd stride through the seed space).
fn seed(i: u64) -> u64 {
    4_700 + i * 37
}

fn fortress(i: u64) -> Fortress {
    generate(tables(), &params(i), seed(i)).expect("generates")
}

/// The theme of the pool entry holding `text`, if any.
fn theme_of_line<'a>(pool: &'a [ThemedLine], text: &str) -> Option<&'a str> {
    pool.iter().find(|l| l.text == text).map(|l| l.theme.as_str())
}

/// Each part of the fortress's Ruler with the theme its pool entry has: persona, Core, former
/// life, wish, place reason and keyword (when the Entrance asks one).
fn themes(f: &Fortress) -> Vec<(&'static str, Option<&'static str>)> {
    let d = &tables().nw3;
    let e = f.episode.as_ref().expect("an episode");
    let mut parts = vec![
        ("persona", d.ruler(&f.ruler.name).map(|r| r.theme.as_str())),
        ("core", d.core(&f.core.name).map(|c| c.theme.as_str())),
        ("former life", theme_of_line(&d.episode.former_life, &e.past.life)),
        ("wish", theme_of_line(&d.episode.wish, &e.past.wish)),
        ("place reason", theme_of_line(&d.episode.place_reason, &e.past.place_reason)),
    ];
    if let Some(k) = &e.keyword {
        parts.push(("keyword", d.episode.keyword.iter().find(|x| x.word == k.word).map(|x| x.theme.as_str())));
    }
    parts
}

fn assert_one_theme(i: u64, f: &Fortress) {
    let parts = themes(f);
    let first = parts[0].1.expect("the persona has a theme");
    assert!(!first.is_empty(), "seed {}: {} has no theme", seed(i), f.ruler.name);
    for (part, theme) in &parts {
        assert_eq!(*theme, Some(first), "seed {}: the {part} is not of {}'s theme: {parts:?}", seed(i), f.ruler.name);
    }
    assert_eq!(f.episode.as_ref().unwrap().past.theme, first, "seed {}: the episode records its theme", seed(i));
}

#[test]
fn every_rulers_persona_core_life_wish_keyword_and_place_share_one_theme_over_60_seeds() {
    let mut keywords = 0;
    for i in 0..60 {
        let f = fortress(i);
        assert_one_theme(i, &f);
        keywords += usize::from(f.episode.as_ref().unwrap().keyword.is_some());
    }
    assert!(keywords > 0, "some Entrance asks a keyword, so the keyword's theme was tested");
}

/// How often the commonest value of `names` comes up.
fn most(names: impl Iterator<Item = String>) -> (String, usize) {
    let mut n: BTreeMap<String, usize> = BTreeMap::new();
    for x in names {
        *n.entry(x).or_default() += 1;
    }
    n.into_iter().max_by_key(|(_, c)| *c).unwrap_or_default()
}

/// The measure: in 300 episodes no persona and no Core is in 5% (15) or more.
#[test]
#[ignore = "scale: 300 fortresses"]
fn full_no_persona_or_core_repeats_in_5_percent_of_300_episodes() {
    let all: Vec<Fortress> = (0..300).map(fortress).collect();
    for (i, f) in all.iter().enumerate() {
        assert_one_theme(i as u64, f);
    }
    let (persona, p) = most(all.iter().map(|f| f.ruler.name.clone()));
    let (core, c) = most(all.iter().map(|f| f.core.name.clone()));
    println!("commonest persona {persona}: {p} of 300; commonest Core {core}: {c} of 300");
    assert!(p * 20 < 300, "{persona} rules {p} of 300 episodes");
    assert!(c * 20 < 300, "{core} is the Core of {c} of 300 episodes");
}

/// A copy of the built-in tables folder with the episode file edited.
fn tables_with_episode(tag: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    let dir = std::env::temp_dir().join(format!("ds-ruler-story-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&src, &dir);
    let file = dir.join("nw3/episode.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, edit(&text)).unwrap();
    dir
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

/// `tables list` with the `--tables` folder: (exit code, stderr).
fn load(dir: &Path) -> (i32, String) {
    let (code, _, err) = crate::run(&["--tables", dir.to_str().unwrap(), "tables", "list"]);
    std::fs::remove_dir_all(dir).ok();
    (code, err)
}

#[test]
fn a_pool_entry_of_an_unknown_theme_is_refused_in_one_line_naming_file_and_entry() {
    let dir = tables_with_episode("unknown", |t| {
        format!("{t}\n[[wish]]\ntheme = \"submarine\"\ntext = \"a periscope that sees the morning\"\n")
    });
    let (code, err) = load(&dir);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("`nw3/episode.toml`") && err.contains("[[wish]] `a periscope") && err.contains("`submarine`"),
        "{err}"
    );
}

#[test]
fn a_theme_with_no_entry_for_a_part_is_refused_in_one_line_naming_the_theme_and_part() {
    // A new theme with everything in the episode file but a keyword.
    let dir = tables_with_episode("no-keyword", |t| {
        let mut s = format!("{t}\n[[theme]]\nname = \"quarry\"\nabout = \"a stone quarry\"\n");
        for section in ["former_life", "wish", "place_reason"] {
            s.push_str(&format!("\n[[{section}]]\ntheme = \"quarry\"\ntext = \"a quarryman\"\n"));
        }
        s
    });
    let (code, err) = load(&dir);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("`nw3/episode.toml`") && err.contains("`quarry`") && err.contains("[[keyword]]"), "{err}");
}

#[test]
fn a_theme_no_persona_or_core_belongs_to_is_refused_naming_the_episode_file() {
    let dir = tables_with_episode("no-persona", |t| {
        let mut s = format!("{t}\n[[theme]]\nname = \"quarry\"\nabout = \"a stone quarry\"\n");
        for section in ["former_life", "wish", "place_reason"] {
            s.push_str(&format!("\n[[{section}]]\ntheme = \"quarry\"\ntext = \"a quarryman\"\n"));
        }
        s.push_str("\n[[keyword]]\ntheme = \"quarry\"\nword = \"Blast\"\norigin = \"what {former} shouted\"\n");
        s
    });
    let (code, err) = load(&dir);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("`nw3/episode.toml`") && err.contains("`quarry`") && err.contains("[[nw3.ruler]]"), "{err}");
}

#[test]
fn a_persona_of_an_undeclared_theme_is_refused_naming_its_file_and_name() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    let dir = std::env::temp_dir().join(format!("ds-ruler-story-persona-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&src, &dir);
    let file = dir.join("nw3/rulers.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("theme = \"cinema\"", "theme = \"cinemaa\"", 1)).unwrap();
    let (code, err) = load(&dir);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("`nw3/rulers.toml`") && err.contains("`Count Ebonreel`") && err.contains("`cinemaa`"),
        "{err}"
    );
}

/// The fortress written to a file, edited, and checked by the program: (exit code, output).
fn check_edited(f: &Fortress, tag: &str, edit: impl Fn(&mut serde_json::Value)) -> (i32, String) {
    let mut v = serde_json::to_value(f).unwrap();
    edit(&mut v);
    let path = std::env::temp_dir().join(format!("ds-ruler-story-{tag}-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, out, err) = crate::run(&["check", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    (code, format!("{out}{err}"))
}

fn ruler_legwork(v: &serde_json::Value) -> usize {
    let legwork = v["episode"]["legwork"].as_array().unwrap();
    legwork.iter().position(|l| l["topic"] == "ruler").expect("a legwork item on the Ruler")
}

#[test]
fn check_refuses_a_legwork_fact_that_states_another_former_name_in_one_line() {
    let f = fortress(3);
    assert_eq!(check_edited(&f, "clean", |_| {}).0, 0, "the generated episode passes");
    let (code, out) = check_edited(&f, "former", |v| {
        let i = ruler_legwork(v);
        v["episode"]["legwork"][i]["reveals"] =
            "{ruler} was once Somebody Else, {life}. It wants {wish}. {place_reason} {victim_reason}".into();
    });
    assert_ne!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("episode.former")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    let former = &f.episode.as_ref().unwrap().past.former;
    assert!(lines[0].contains(&format!("`{former}`")), "{out}");
}

#[test]
fn check_refuses_a_former_life_of_another_rulers_story_in_one_line() {
    let f = fortress(5);
    let d = &tables().nw3;
    let theme = &f.episode.as_ref().unwrap().past.theme;
    let other = d.episode.former_life.iter().find(|l| &l.theme != theme).expect("another theme's life");
    let (code, out) = check_edited(&f, "life", |v| v["episode"]["past"]["life"] = other.text.clone().into());
    assert_ne!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("episode.theme")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains(&format!("`{}`", other.theme)) && lines[0].contains("former life"), "{out}");
}
