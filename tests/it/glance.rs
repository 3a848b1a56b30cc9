//! The booklet at a glance (issue 33): each number said once and shown with what makes it.

use std::path::PathBuf;

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-glance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temp folder");
    d
}

/// Generates into `dir` and returns the written file with extension `ext`.
fn written(dir: &std::path::Path, args: &[&str], stem: &str, ext: &str) -> String {
    let d = dir.to_str().expect("a UTF-8 path");
    let mut all = args.to_vec();
    all.extend(["--out", d]);
    let (code, _, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).expect("written")
}

/// A ruler's stat increase shows in its stat line (as "base +N") and once as an adjustment with
/// its levels, never a second time in a line of its own.
#[test]
fn a_rulers_stat_increase_is_printed_once() {
    let dir = temp("increase");
    let mut seen = 0;
    for seed in 1..=30u64 {
        let s = seed.to_string();
        let args = ["myk", "--seed", &s, "--level", "10", "--format", "md,html"];
        let md = written(&dir, &args, &format!("myk-{seed}"), "md");
        let html = written(&dir, &args, &format!("myk-{seed}"), "html");
        // The ruler's room: from its heading to the next (an item elsewhere may read "Defense +3").
        let room = |text: &str, start: &str, end: &str| -> String {
            let at = text.find("Ruler:").expect("a ruler");
            let from = text[..at].rfind(start).unwrap_or(0);
            let to = text[at..].find(end).map_or(text.len(), |e| at + e);
            text[from..to].to_string()
        };
        let (md_room, html_room) = (room(&md, "\n### ", "\n### "), room(&html, "<h3", "<h3"));
        for line in md_room.lines().filter(|l| l.contains(" (stat increase)")) {
            let what = line.trim().trim_start_matches("- ").split(" (stat increase)").next().expect("a head");
            seen += 1;
            assert_eq!(
                md_room.matches(what).count(),
                1,
                "seed {seed}: `{what}` is said more than once in the Markdown"
            );
            assert_eq!(html_room.matches(what).count(), 1, "seed {seed}: `{what}` is said more than once in the HTML");
        }
        assert!(!md.contains("Increases") && !html.contains("Increases"), "seed {seed}: a separate increases line");
    }
    assert!(seen > 3, "the seeds hold stat increases ({seen})");
}

/// An NW3 attack's hit and damage numbers show the stat they come from and the attack's own
/// modifier, and add up: "hit 2D6+11 (PACC 12 + attack -1)".
#[test]
fn an_nw3_attack_line_shows_how_its_numbers_are_made() {
    let dir = temp("attack");
    let mut modified = 0;
    for (seed, areas) in [(4711u64, 10u32), (321, 30), (55, 40)] {
        let (s, a) = (seed.to_string(), areas.to_string());
        let md = written(
            &dir,
            &["fortress", "--seed", &s, "--areas", &a, "--format", "md"],
            &format!("fortress-{seed}"),
            "md",
        );
        for (word, stats) in [("hit 2D6+", ["PACC", "MACC"]), ("damage 2D6+", ["PATK", "MATK"])] {
            for part in md.split(word).skip(1) {
                let total: i64 = part.split(' ').next().and_then(|n| n.parse().ok()).expect("a number");
                let made = part.split_once(" (").map(|p| p.1).and_then(|r| r.split_once(')')).map(|r| r.0);
                let made =
                    made.unwrap_or_else(|| panic!("seed {seed}: `{word}{total}` says nothing of how it is made"));
                let mut it = made.split(' ');
                let (stat, base) = (it.next().expect("a stat"), it.next().and_then(|n| n.parse::<i64>().ok()));
                assert!(stats.contains(&stat), "seed {seed}: `{made}` names its stat");
                let tweak = match (it.next(), it.next(), it.next()) {
                    (Some("+"), Some("attack"), Some(k)) => k.parse::<i64>().expect("a modifier"),
                    (None, ..) => 0,
                    other => panic!("seed {seed}: `{made}` reads oddly: {other:?}"),
                };
                modified += usize::from(tweak != 0);
                assert_eq!(
                    base.expect("the stat's value") + tweak,
                    total,
                    "seed {seed}: `{word}{total} ({made})` adds up"
                );
            }
        }
    }
    assert!(modified > 0, "the seeds hold an attack with its own modifier");
}

/// Beside every encounter-table row, and every ruler, that goes past what the court's limits allow
/// a room, the booklet says so and by how much; within the limits it says nothing; the summary
/// under the limits lists each one.
#[test]
fn a_danger_note_stands_beside_every_threat_over_the_courts_limits() {
    use dungeonsmith::myk::MykParams;
    use dungeonsmith::myk::model::Layout;
    let t = dungeonsmith::tables::Tables::embedded().expect("embedded tables");
    let dir = temp("danger");
    let (mut rows_over, mut rulers_over) = (0, 0);
    for (seed, level) in [(1u64, 2u32), (2, 2), (3, 1), (4, 3), (5, 10), (6, 6), (7, 12), (8, 4)] {
        let p = MykParams {
            levels: vec![level; 4],
            maps: 1,
            rooms: 9,
            layout: Layout::Mixed,
            objective: None,
            ..Default::default()
        };
        let s = dungeonsmith::myk::generate(&t, &p, seed).expect("generates");
        let (sd, lv) = (seed.to_string(), level.to_string());
        let md = written(&dir, &["myk", "--seed", &sd, "--level", &lv, "--format", "md"], &format!("myk-{seed}"), "md");
        let lim = &s.limits;
        let table = md.split("### Random encounter table").nth(1).expect("the encounter table");
        for row in s.encounters.rows.iter() {
            let levels: Vec<(u32, u32)> = row
                .groups
                .iter()
                .filter_map(|g| t.myk.monster(&g.name).and_then(|m| m.level).map(|l| (l, g.count)))
                .collect();
            let top = levels.iter().map(|x| x.0).max().unwrap_or(0);
            let total: u32 = levels.iter().map(|(l, n)| l * n).sum();
            let over = top > lim.monster_level || total > lim.room_total_neutral;
            rows_over += usize::from(over);
            let line = table.lines().find(|l| l.starts_with(&format!("| {} |", row.roll))).expect("the row");
            assert_eq!(line.contains("**danger:**"), over, "seed {seed} roll {}: {line}", row.roll);
            if top > lim.monster_level {
                let by = format!(
                    "is level {top}, {} over the monster limit of {}",
                    top - lim.monster_level,
                    lim.monster_level
                );
                assert!(line.contains(&by), "seed {seed}: `{by}` in {line}");
            }
            let summary = format!("encounter table, roll {}:", row.roll);
            assert_eq!(md.contains(&summary), over, "seed {seed}: the summary lists roll {}", row.roll);
        }
        for ru in s.maps.iter().flat_map(|m| &m.rooms).filter_map(|r| r.ruler.as_ref()) {
            let over = ru.level > lim.ruler_level;
            rulers_over += usize::from(over);
            let note = format!("**Danger:** {} is level {}", ru.name, ru.level);
            assert_eq!(
                md.contains(&note),
                over,
                "seed {seed}: ruler {} level {} limit {}",
                ru.name,
                ru.level,
                lim.ruler_level
            );
            if over {
                assert!(md.contains(&format!(
                    "{} over the ruler limit of {}",
                    ru.level - lim.ruler_level,
                    lim.ruler_level
                )));
            }
        }
    }
    assert!(rows_over > 2 && rulers_over > 0, "the seeds go over the limits ({rows_over} rows, {rulers_over} rulers)");
}

/// Every capitalised "X Table" name in `text`: the run of capitalised words (or numbers and
/// ranges such as "1-5") before "Table".
fn table_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || "*|()[],.;:\"".contains(c)).collect();
    for (i, w) in words.iter().enumerate() {
        if *w != "Table" {
            continue;
        }
        let mut start = i;
        while start > 0 {
            let p = words[start - 1];
            let capital = p.chars().next().is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            if p.is_empty() || !capital {
                break;
            }
            start -= 1;
        }
        if start < i {
            out.push(words[start..=i].join(" "));
        }
    }
    out
}

/// Whether `md` defines table `name`: a heading, a table row or a bold label holding it (a
/// heading may drop the word "Table": "### Negotiation").
fn defines_table(md: &str, name: &str) -> bool {
    // "Level 1-5 Treasure Table" is printed as "Treasure Table: Individual Level 1-5 / Total
    // Levels 1-9", "Total 10-15 ..." by its total.
    if let Some(range) = name.strip_suffix(" Treasure Table") {
        let key = match range.split_once(' ') {
            Some(("Level", r)) => format!("Individual Level {r} "),
            Some(("Total", r)) => format!("Total Levels {r} "),
            _ => range.to_string(),
        };
        return md.lines().any(|l| l.starts_with("**Treasure Table:") && l.contains(&key));
    }
    let short = name.trim_end_matches(" Table");
    md.lines().any(|l| {
        let l = l.trim_start();
        // Headings may be in sentence case ("### Random encounter table (level 2, 1D6)").
        let heading = l.to_lowercase();
        (l.starts_with('#') && (heading.contains(&name.to_lowercase()) || l.trim_start_matches('#').trim() == short))
            || (l.starts_with('|') && l.contains(name))
            || l.contains(&format!("**{name}"))
    })
}

/// Over many MYK booklets: every Bad Status a text names and every monster personality a stat
/// line gives is in the glossary, and every table named by its capitalised name is printed (the
/// Rest, Happening and Wandering Tables too: a family of four, printed under its four titles).
#[test]
fn a_booklet_names_no_status_personality_or_table_it_does_not_give() {
    let dir = temp("names");
    let mut counted = (0, 0, 0);
    for seed in crate::seeds(1..=120u64) {
        let (s, level, maps) = (seed.to_string(), (seed % 12 + 1).to_string(), (seed % 3 + 1).to_string());
        let args = ["myk", "--seed", &s, "--level", &level, "--maps", &maps, "--format", "md"];
        let md = written(&dir, &args, &format!("myk-{seed}"), "md");
        let glossary = md.split("## Glossary").nth(1).expect("a glossary");
        let statuses = glossary.split("### Bad Statuses").nth(1).expect("the Bad Statuses");
        let personalities = glossary.split("### Monster personalities").nth(1).expect("the personalities");
        let defined = |list: &str, name: &str| {
            list.lines().any(|l| l.starts_with(&format!("- **{name}**")) || l.starts_with(&format!("- **{name} (")))
                || list.contains(&format!("({name})**"))
        };
        for part in md.split(" Bad Status").skip(1).zip(md.split(" Bad Status")) {
            let name = part.1.rsplit(' ').next().unwrap_or_default();
            if name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && name != "A" && name != "The" {
                counted.0 += 1;
                assert!(defined(statuses, name), "seed {seed}: the {name} Bad Status is not in the glossary");
            }
        }
        for line in md.lines().filter(|l| l.contains("Warfare ") && l.contains(" / HP ")) {
            let stats = line.split(" — ").nth(1).unwrap_or(line);
            let Some(p) = stats.split(" / ").nth(5).and_then(|p| p.split(|c: char| !c.is_alphabetic()).next()) else {
                continue;
            };
            counted.1 += 1;
            assert!(defined(personalities, p), "seed {seed}: the personality {p} is not in the glossary: {line}");
        }
        for name in table_names(&md) {
            if name == "Table" {
                continue;
            }
            counted.2 += 1;
            assert!(defines_table(&md, &name), "seed {seed}: the booklet names the {name} but does not print it");
        }
    }
    assert!(counted.0 > 10 && counted.1 > 100 && counted.2 > 100, "the booklets name things: {counted:?}");
}

/// The texts of every written file (and of every text file in a zip), by name.
fn texts_in(dir: &std::path::Path) -> Vec<(String, String)> {
    use std::io::Read;
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("the folder").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    for p in paths {
        let name = p.file_name().expect("a name").to_string_lossy().to_string();
        if name.ends_with(".zip") {
            let mut z = zip::ZipArchive::new(std::fs::File::open(&p).expect("readable")).expect("a zip");
            for i in 0..z.len() {
                let mut f = z.by_index(i).expect("an entry");
                let entry = f.name().expect("an entry name").to_string();
                if entry.ends_with(".xml") {
                    let mut s = String::new();
                    f.read_to_string(&mut s).expect("UTF-8");
                    out.push((format!("{name}/{entry}"), s));
                }
            }
        } else if let Ok(s) = std::fs::read_to_string(&p) {
            out.push((name, s));
        }
    }
    out
}

/// No format prints a data structure as text (a Python-style `{'key': ...` or `[{...` dump): every
/// note, key and booklet is written from the views as sentences. The JSON file is the data itself
/// and is not written.
#[test]
fn no_format_prints_a_data_structure_as_text() {
    for (game, seed, extra) in [("fortress", "7", "--areas=10"), ("myk", "1", "--maps=2")] {
        let dir = temp(&format!("dump-{game}"));
        let d = dir.to_str().expect("a UTF-8 path");
        let (code, _, err) = run(&[game, "--seed", seed, extra, "--format", "md,html,dot,svg,udonarium", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let texts = texts_in(&dir);
        assert!(texts.iter().any(|(n, _)| n.ends_with("data.xml")), "{game}: a Udonarium room was written");
        for (name, text) in texts {
            for dump in ["{'", "[{", "': '", "{\"", "\": \""] {
                assert!(!text.contains(dump), "{game} {name} prints a data structure (`{dump}`)");
            }
        }
    }
}

/// Two gates one deed opens carry told-apart labels on the GM's area map ("event 13 (a)", "(b)"),
/// so a GM can say which label is whose.
#[test]
fn gates_one_deed_opens_are_labelled_apart_on_the_area_map() {
    use dungeonsmith::model::Paper;
    use dungeonsmith::nw3::{FortressParams, GateKind};
    use dungeonsmith::render::Audience;
    let t = dungeonsmith::tables::Tables::embedded().expect("embedded tables");
    let mut shared = 0;
    for seed in [55u64, 1, 2, 3, 4, 5] {
        let f = dungeonsmith::nw3::generate(&t, &FortressParams { areas: 40, ..Default::default() }, seed)
            .expect("generates");
        let svg = dungeonsmith::render::area_map::fortress_map(&f, &t, Paper::A4, Audience::Gm);
        let opened: Vec<_> = f
            .gates
            .iter()
            .filter(|g| matches!(g.kind, GateKind::Closed | GateKind::Secret))
            .filter_map(|g| g.opened_by)
            .collect();
        for o in &opened {
            let n = opened.iter().filter(|p| *p == o).count();
            if n > 1 && !matches!(o, dungeonsmith::nw3::model::Opener::DangerSense(_)) {
                shared += 1;
                let words = dungeonsmith::nw3::opener::opener_words(&f, *o);
                for tag in ['a', 'b'] {
                    // On the map by its gate, or in the list of notes that found no room there.
                    let (short, long) = (format!("{} ({tag})", words.short), format!("{} ({tag})", words.deed));
                    let (short, long) = (short.replace('&', "&amp;"), long.replace('&', "&amp;"));
                    assert!(svg.contains(&short) || svg.contains(&long), "seed {seed}: `{short}` on the map");
                }
            }
        }
    }
    assert!(shared > 0, "the seeds hold gates one deed opens");
}

/// The summary a `myk` run prints on the terminal lists every danger the booklet's court section
/// lists ("danger: the level-2 encounter table, roll 4: ..."), one line each (no more, no fewer),
/// after the limits line.
#[test]
fn the_terminal_summary_lists_each_danger_the_booklet_flags() {
    let dir = temp("summary-danger");
    let d = dir.to_str().expect("a UTF-8 path");
    let mut with = 0;
    for (seed, level) in [(1u64, 2u32), (2, 2), (3, 1), (4, 3), (5, 10), (6, 6), (7, 12), (8, 4)] {
        let (sd, lv) = (seed.to_string(), level.to_string());
        let (code, _, err) = run(&["myk", "--seed", &sd, "--level", &lv, "--format", "md", "--out", d]);
        assert_eq!(code, 0, "{err}");
        let md = std::fs::read_to_string(dir.join(format!("myk-{seed}.md"))).expect("written");
        let court = md.split("### Threat limits").nth(1).and_then(|c| c.split("\n## ").next()).expect("the limits");
        let booklet: Vec<String> = court
            .lines()
            .filter_map(|l| l.strip_prefix("- **Danger:** "))
            .map(|l| l.trim_end_matches('.').to_string())
            .collect();
        let said: Vec<String> = err
            .lines()
            .filter_map(|l| l.strip_prefix("danger: "))
            .map(|l| l.trim_end_matches('.').to_string())
            .collect();
        let limits = err.lines().position(|l| l.starts_with("traps ")).expect("the limits line");
        let first = err.lines().position(|l| l.starts_with("danger: "));
        assert!(first.is_none_or(|f| f > limits), "seed {seed}: the danger lines follow the limits line:\n{err}");
        for b in &booklet {
            assert!(said.contains(b), "seed {seed}: the summary lists `{b}`:\n{err}");
        }
        assert_eq!(said.len(), booklet.len(), "seed {seed}: one summary line per danger: {said:?}");
        with += usize::from(!said.is_empty());
    }
    assert!(with >= 2, "the seeds go past the court's limits ({with} of 8)");
}

crate::in_full! {
    a_booklet_names_no_status_personality_or_table_it_does_not_give => a_booklet_names_no_status_personality_or_table_it_does_not_give_in_full,
}
