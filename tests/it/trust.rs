//! Trust under bad input: every command in issue 11 gives one clear line or a correct result.
//! Render never panics, input size is bounded, a run writes all or nothing, user text cannot break
//! SVG or Markdown, errors name the right file and option, and the edit loop remembers the paper.

use std::path::{Path, PathBuf};

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ds-trust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> String {
    p.to_string_lossy().to_string()
}

fn fuzz_case(name: &str) -> String {
    format!("{}/tests/data/fuzz/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .map(|r| r.map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect())
        .unwrap_or_default();
    n.sort();
    n
}

fn svgs_parse(dir: &Path) {
    for n in names(dir).iter().filter(|n| n.ends_with(".svg")) {
        let text = std::fs::read_to_string(dir.join(n)).unwrap();
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{n} does not parse: {e}"));
    }
}

/// A one-map MYK scenario JSON for `seed` with `edit` applied, written to `dir/case.json`.
fn edited(dir: &Path, seed: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let (code, _, err) = run(&["myk", "--seed", seed, "--format", "json", "--out", &s(dir)]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join(format!("myk-{seed}.json"));
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut v);
    let file = dir.join("case.json");
    std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    std::fs::remove_file(path).unwrap();
    s(&file)
}

#[test]
fn render_force_refuses_a_map_without_its_nine_rooms_in_one_line_instead_of_panicking() {
    let d = temp("nine");
    let out = d.join("out");
    let (code, _, err) = run(&["render", "--force", &fuzz_case("myk-map-with-seven-rooms.json"), "--out", &s(&out)]);
    assert_eq!(code, 1, "{err}");
    let last = err.lines().last().unwrap();
    assert!(last.contains("map 1 does not list its nine rooms A1..C3 in order"), "{err}");
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn render_force_draws_a_trapped_corridor_listed_a_hundred_times() {
    let d = temp("dup");
    let f = fuzz_case("myk-trapped-corridor-listed-101-times.json");
    let (code, _, err) = run(&["render", "--force", &f, "--out", &s(&d)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("[corridor.duplicate]"), "the violations are still listed: {err}");
    svgs_parse(&d);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn an_input_past_the_size_limit_is_refused_at_the_documented_limit() {
    let d = temp("endless");
    let f = d.join("huge.json");
    std::fs::File::create(&f).unwrap().set_len(9 << 20).unwrap();
    let (code, out, err) = run(&["check", &s(&f)]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, format!("error: cannot read `{}`: larger than 8 MiB, the most dungeonsmith reads\n", s(&f)));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_device_is_refused_by_what_it_is() {
    let (code, out, err) = run(&["check", "/dev/zero"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, "error: cannot read `/dev/zero`: a device, not a file; dungeonsmith reads regular files only\n");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_given_as_input_is_refused_at_once_instead_of_waiting_for_a_writer() {
    let d = temp("fifo");
    let fifo = d.join("scenario.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dungeonsmith"))
        .args(["check", &s(&fifo)])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.and_then(|s| s.code()), Some(2), "still waiting on the pipe after 20 s: {err}");
    assert!(err.contains("a named pipe (FIFO), not a file"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_room_name_of_ten_thousand_characters_is_refused_at_the_name_limit() {
    let d = temp("long");
    let (code, _, err) = run(&["render", &fuzz_case("myk-room-name-of-10000-characters.json"), "--out", &s(&d)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`maps[0].rooms[0].name`: 10000 characters; at most 200 characters in a name"), "{err}");
    assert!(names(&d).is_empty(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_room_name_at_the_name_limit_renders_cut_to_fit() {
    let d = temp("longest");
    let case = edited(&d, "1", |v| v["maps"][0]["rooms"][0]["name"] = "x".repeat(200).into());
    let out = d.join("out");
    let (code, _, err) = run(&["render", "--force", &case, "--out", &s(&out)]);
    assert_eq!(code, 0, "{err}");
    svgs_parse(&out);
    let sheet = std::fs::read_to_string(out.join("myk-1-map1.svg")).unwrap();
    assert!(!sheet.contains(&"x".repeat(100)), "the name is cut to the room, not drawn across the page");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_folder_in_the_way_of_one_file_fails_the_run_before_any_file_is_written() {
    let d = temp("half");
    std::fs::create_dir_all(d.join("myk-1.md")).unwrap();
    let (code, out, err) = run(&["myk", "--seed", "1", "--out", &s(&d)]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("myk-1.md`: a folder has that name"), "{err}");
    assert_eq!(names(&d), ["myk-1.md"], "no new file and no temporary file beside the old ones");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_failed_run_leaves_no_folder_it_created() {
    let d = temp("created");
    std::fs::write(d.join("file"), "x").unwrap();
    let out = d.join("new");
    std::fs::create_dir_all(out.join("myk-2.html")).unwrap();
    let (code, _, _) = run(&["myk", "--seed", "2", "--out", &s(&out)]);
    assert_eq!(code, 2);
    assert_eq!(names(&out), ["myk-2.html"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn runs_into_one_folder_at_once_all_succeed_and_leave_no_temporary_file() {
    let d = temp("together");
    let dir = s(&d);
    let codes: Vec<i32> = std::thread::scope(|sc| {
        let runs: Vec<_> = (0..6)
            .map(|_| sc.spawn(|| run(&["myk", "--seed", "4", "--format", "json,md,html", "--out", &dir]).0))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(codes, [0; 6]);
    assert_eq!(names(&d), ["myk-4.html", "myk-4.json", "myk-4.md"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn temporary_files_of_a_killed_run_are_removed_by_the_next_run() {
    let d = temp("stale");
    // No process has this id (above Linux's pid_max), as after a run killed mid-write.
    std::fs::write(d.join(".myk-5.md.99999999-0.tmp"), "half").unwrap();
    std::fs::write(d.join(".notes.tmp"), "not ours").unwrap();
    let (code, _, err) = run(&["myk", "--seed", "5", "--format", "md", "--out", &s(&d)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(&d), [".notes.tmp", "myk-5.md"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_control_character_in_a_name_never_reaches_the_svg() {
    let d = temp("control");
    let (code, _, err) = run(&["render", &fuzz_case("myk-control-character-in-names.json"), "--out", &s(&d)]);
    assert_eq!(code, 0, "{err}");
    svgs_parse(&d);
    let sheet = std::fs::read_to_string(d.join("myk-1-map1.svg")).unwrap();
    assert!(sheet.contains("badname") && !sheet.contains('\u{1}'));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn markdown_escapes_html_in_user_text() {
    let d = temp("md");
    let f = edited(&d, "6", |v| v["maps"][0]["rooms"][0]["name"] = "<script>alert(1)</script> & co".into());
    let (code, _, err) = run(&["render", &f, "--format", "md", "--out", &s(&d)]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(d.join("myk-6.md")).unwrap();
    assert!(!md.contains("<script>"), "raw HTML reached the Markdown");
    assert!(md.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"));
    std::fs::remove_dir_all(&d).ok();
}

/// A copy of the built-in tables with `file` rewritten by `edit`.
fn tables_copy(d: &Path, file: &str, edit: impl Fn(&str) -> String) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    let dst = d.join("tables");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(&src).unwrap();
            if p.is_dir() {
                stack.push(p.clone());
                std::fs::create_dir_all(dst.join(rel)).unwrap();
            } else {
                let text = std::fs::read_to_string(&p).unwrap();
                let text = if rel == Path::new(file) { edit(&text) } else { text };
                std::fs::write(dst.join(rel), text).unwrap();
            }
        }
    }
    s(&dst)
}

#[test]
fn area_kind_weights_all_zero_blame_the_file_that_holds_them() {
    let d = temp("weights");
    let t = tables_copy(&d, "nw3/areas.toml", |text| {
        text.lines().map(|l| if l.starts_with("weight = ") { "weight = 0" } else { l }).collect::<Vec<_>>().join("\n")
    });
    let (code, _, err) = run(&["--tables", &t, "fortress", "--seed", "1", "--out", &s(&d.join("out"))]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: `nw3/areas.toml`: NW3 area kind weights are all 0\n");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn render_keeps_the_paper_the_scenario_was_made_for() {
    let d = temp("paper");
    for (cmd, stem) in [("myk", "myk-8"), ("fortress", "fortress-8")] {
        let (code, _, err) = run(&[cmd, "--seed", "8", "--paper", "letter", "--format", "json", "--out", &s(&d)]);
        assert_eq!(code, 0, "{err}");
        let json = std::fs::read_to_string(d.join(format!("{stem}.json"))).unwrap();
        assert!(json.contains("\"paper\": \"letter\""), "{cmd}: the JSON remembers the paper");
        let out = d.join(format!("{cmd}-out"));
        let (code, _, err) = run(&["render", &s(&d.join(format!("{stem}.json"))), "--out", &s(&out)]);
        assert_eq!(code, 0, "{err}");
        let sheet = names(&out).into_iter().find(|n| n.ends_with(".svg") && !n.contains("players")).unwrap();
        let svg = std::fs::read_to_string(out.join(sheet)).unwrap();
        assert!(svg.contains("width=\"215.9mm\""), "{cmd}: Letter, not A4");
        let md = std::fs::read_to_string(out.join(format!("{stem}.md"))).unwrap();
        assert!(md.contains("--paper letter"), "{cmd}: the regenerate line keeps --paper letter");
        // An explicit --paper on render wins, and is remembered.
        let (code, _, _) = run(&["render", &s(&d.join(format!("{stem}.json"))), "--paper", "a4", "--out", &s(&out)]);
        assert_eq!(code, 0);
        assert!(std::fs::read_to_string(out.join(format!("{stem}.json"))).unwrap().contains("\"paper\": \"a4\""));
    }
    // A format-1 file (no paper) renders on A4.
    let f1 = format!("{}/tests/data/format1/myk-42.json", env!("CARGO_MANIFEST_DIR"));
    let out = d.join("f1");
    let (code, _, err) = run(&["render", "--force", &f1, "--format", "svg", "--out", &s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(out.join("myk-42-map1.svg")).unwrap().contains("width=\"210mm\""));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_court_size_that_disagrees_with_its_levels_fails_check() {
    let d = temp("court");
    let f = edited(&d, "9", |v| v["court"]["size"] = 12.into());
    let (code, out, _) = run(&["check", &f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("`court.size` is 12 but `court.levels` lists 4 levels"), "{out}");
    assert!(out.contains("[court.size]"));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_range_warning_is_printed_once() {
    let d = temp("warn");
    let (code, _, err) = run(&["myk", "--seed", "1", "--court-size", "1", "--format", "json", "--out", &s(&d)]);
    assert_eq!(code, 0);
    assert_eq!(err.matches("court size 1 is outside the book's table").count(), 1, "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn an_npc_never_has_the_same_trait_twice() {
    let tables = dungeonsmith::tables::Tables::load(None).unwrap();
    let params = dungeonsmith::myk::MykParams {
        levels: vec![2; 4],
        maps: 1,
        rooms: 9,
        layout: dungeonsmith::myk::model::Layout::Mixed,
        objective: None,
    };
    let mut npcs = 0;
    for seed in 1..=400 {
        let s = dungeonsmith::myk::generate(&tables, &params, seed).unwrap();
        for c in &s.cast {
            npcs += 1;
            assert_ne!(c.traits[0], c.traits[1], "seed {seed}: {}", c.name);
        }
    }
    assert!(npcs > 400);
}

#[test]
fn tables_say_what_their_placeholders_stand_for() {
    let (code, out, _) = run(&["tables", "roll", "myk.frame.introduction", "--seed", "1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "a roll is one line: {out}");
    assert!(out.contains("{map},") || out.contains("{map} "), "{out}");
    assert!(out.contains("(filled in when a scenario is made: {map} is the map's name"), "{out}");
    let (code, out, _) = run(&["tables", "show", "Shutter Guillotine"]);
    assert_eq!(code, 0);
    assert!(out.contains("{damage} is the trap's damage dice"), "{out}");
}

#[test]
fn check_without_a_file_names_the_missing_argument() {
    let (code, _, err) = run(&["check"]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: the following required arguments were not provided: <FILE>\n");
}

#[test]
fn an_unknown_layout_lists_the_valid_ones() {
    let (code, _, err) = run(&["myk", "--layout", "spiral"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'spiral'") && err.contains("use one of: straight, junction, mixed"), "{err}");
}

#[test]
fn bad_levels_blame_the_levels_option() {
    let (code, _, err) = run(&["myk", "--levels", "2,0,3"]);
    assert_eq!((code, err.as_str()), (2, "error: `--levels` must be 1 to 30, got 0\n"));
    let thirteen = ["1"; 13].join(",");
    let (code, _, err) = run(&["myk", "--levels", &thirteen]);
    assert_eq!((code, err.as_str()), (2, "error: `--levels` must be 1 to 12 levels, got 13\n"));
}

/// `Tables::from_dir(dir)` on a thread: its error line, or a failure when it is not done in 20 s.
#[cfg(unix)]
fn tables_error_within_time(dir: &Path) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(dungeonsmith::tables::Tables::from_dir(&dir).err().map(|e| e.to_string()));
    });
    let done =
        rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the tables walk is still running after 20 s");
    done.expect("the walk fails")
}

#[cfg(unix)]
#[test]
fn a_cycle_of_folder_links_in_the_tables_folder_is_named_instead_of_walked_for_ever() {
    let d = temp("cycle");
    let tables = d.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::write(tables.join("a.toml"), "").unwrap();
    std::os::unix::fs::symlink(".", tables.join("again")).unwrap();
    std::os::unix::fs::symlink(".", tables.join("more")).unwrap();
    let e = tables_error_within_time(&tables);
    let real = std::fs::canonicalize(&tables).unwrap();
    assert_eq!(
        e,
        format!(
            "cannot read tables folder `{}`: a link back to `{}`, which holds it (a cycle of links)",
            s(&tables.join("again")),
            real.display()
        )
    );
    std::fs::remove_dir_all(&d).ok();
}

#[cfg(unix)]
#[test]
fn a_linked_tables_folder_is_read_once() {
    let d = temp("linked");
    let real = d.join("real");
    std::fs::create_dir_all(&real).unwrap();
    std::fs::create_dir_all(d.join("tables")).unwrap();
    std::fs::write(real.join("bad.toml"), "[[roll]]\nname = \"t\"\ndice = \"1d2\"\n").unwrap();
    std::os::unix::fs::symlink(&real, d.join("tables/one")).unwrap();
    std::os::unix::fs::symlink(&real, d.join("tables/two")).unwrap();
    // Read twice, the file would define table `t` twice; read once, its own error is the first.
    let e = tables_error_within_time(&d.join("tables"));
    assert!(!e.contains("twice"), "{e}");
    assert!(e.contains("one/bad.toml"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn two_files_of_one_name_are_refused_before_any_file_is_written() {
    let d = temp("twins");
    let (code, _, err) = run(&["myk", "--seed", "3", "--maps", "2", "--format", "json", "--out", &s(&d)]);
    assert_eq!(code, 0, "{err}");
    let file = d.join("myk-3.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    v["maps"][1]["index"] = 1.into();
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    let out = d.join("out");
    let (code, _, err) = run(&["render", "--force", &s(&file), "--out", &s(&out)]);
    assert_eq!(code, 2, "{err}");
    let last = err.lines().last().unwrap();
    assert!(
        last.ends_with(
            "myk-3-map1-players.svg`: the run makes two files of that name (two parts share a number?); nothing written"
        ),
        "{err}"
    );
    assert!(!out.exists(), "nothing written, not even the folder");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_run_replaces_the_files_an_earlier_run_of_its_scenario_wrote_and_keeps_the_rest() {
    let d = temp("replace");
    let o = s(&d);
    assert_eq!(run(&["myk", "--seed", "1", "--maps", "3", "--out", &o]).0, 0);
    assert!(d.join("myk-1-map3.svg").exists());
    std::fs::write(d.join("myk-1-notes.txt"), "the GM's own").unwrap();
    assert_eq!(run(&["myk", "--seed", "2", "--format", "json", "--out", &o]).0, 0);
    assert_eq!(run(&["myk", "--seed", "1", "--maps", "2", "--format", "json,svg", "--out", &o]).0, 0);
    let left = names(&d);
    assert!(
        !left.iter().any(|n| n.starts_with("myk-1-map3")),
        "the third map's sheets went with the old set: {left:?}"
    );
    for kept in ["myk-1-map2.svg", "myk-1-notes.txt", "myk-2.json", "myk-1.md", "myk-1.html"] {
        assert!(
            left.contains(&kept.to_string()),
            "{kept} stays (another scenario, a format not written, the GM's file): {left:?}"
        );
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn concurrent_runs_into_one_folder_leave_the_whole_set_of_one_run() {
    let d = temp("race");
    let o = s(&d);
    let mut children: Vec<std::process::Child> = (1..=8)
        .map(|maps| {
            std::process::Command::new(env!("CARGO_BIN_EXE_dungeonsmith"))
                .args(["myk", "--seed", "1", "--maps", &maps.to_string(), "--format", "json,svg", "--out", &o])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in &mut children {
        assert!(c.wait().unwrap().success());
    }
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(d.join("myk-1.json")).unwrap()).unwrap();
    let maps = v["maps"].as_array().unwrap().len();
    let mut expected: Vec<String> = vec!["myk-1.json".into()];
    for m in 1..=maps {
        expected.push(format!("myk-1-map{m}-players.svg"));
        expected.push(format!("myk-1-map{m}.svg"));
    }
    expected.sort();
    assert_eq!(names(&d), expected, "the files of the run whose JSON is there, and no other run's");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_long_culprit_is_cut_to_a_readable_length_with_its_size() {
    let d = temp("culprit");
    let f = d.join("odd.json");
    std::fs::write(&f, format!("{{\"system\": \"{}\"}}", "q".repeat(1500))).unwrap();
    let (code, _, err) = run(&["check", &s(&f)]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.len() < 500, "{} characters: {err}", err.len());
    assert!(err.contains("unknown system `qqq") && err.contains("\u{2026} (1500 characters)`"), "{err}");
    std::fs::remove_dir_all(&d).ok();
}

#[cfg(unix)]
#[test]
fn a_link_planted_as_the_folder_lock_is_removed_and_what_it_points_at_is_untouched() {
    let d = temp("locklink");
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "the GM's notes").unwrap();
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&victim, out.join(".dungeonsmith.lock")).unwrap();
    let (code, _, err) = run(&["myk", "--seed", "1", "--format", "json", "--out", &s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the GM's notes", "never truncated, no PID written");
    assert_eq!(names(&out), ["myk-1.json"], "the link went with the lock");
    std::fs::remove_dir_all(&d).ok();
}

/// Runs the binary through `sh` after `plant` (a shell command that may name `$$`: `exec` keeps
/// the shell's process id, so `$$` is the run's own id): its exit status.
#[cfg(unix)]
fn run_after(plant: &str, args: &[&str]) -> std::process::ExitStatus {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{plant} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_dungeonsmith"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_link_planted_as_the_runs_own_temporary_file_is_removed_and_never_written_through() {
    let d = temp("tmplink");
    let victim = d.join("victim.txt");
    std::fs::write(&victim, "the GM's notes").unwrap();
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    // The run's first temporary file, for its own process id, a link to the victim.
    let plant = format!("ln -s '{}' '{}/.myk-1.json.'$$'-0.tmp'", s(&victim), s(&out));
    assert!(run_after(&plant, &["myk", "--seed", "1", "--format", "json", "--out", &s(&out)]).success());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the GM's notes", "never written through the link");
    let json = std::fs::symlink_metadata(out.join("myk-1.json")).unwrap();
    assert!(json.is_file(), "myk-1.json is a file of its own, not a link");
    assert_eq!(names(&out), ["myk-1.json"]);
    std::fs::remove_dir_all(&d).ok();
}

/// The files of `dir` with their bytes, sorted by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir).into_iter().map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap())).collect()
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs strace (ptrace): run by .ci/run"]
fn a_run_killed_at_any_rename_of_its_commit_is_completed_by_the_next_run_into_the_folder() {
    let d = temp("killed");
    let old = ["myk", "--seed", "1", "--maps", "3", "--format", "json,svg,md"];
    let new = ["myk", "--seed", "1", "--maps", "2", "--format", "json,svg,md"];
    let set = |args: &[&str], out: &Path| {
        let mut all = args.to_vec();
        let o = s(out);
        all.extend(["--out", &o]);
        assert_eq!(run(&all).0, 0, "{all:?}");
        contents(out)
    };
    let (old_set, new_set) = (set(&old, &d.join("old")), set(&new, &d.join("new")));
    // The intent record's rename, then one per file.
    for k in 1..=new_set.len() + 1 {
        let out = d.join(format!("out-{k}"));
        set(&old, &out);
        let syscalls = "rename,renameat,renameat2";
        let status = std::process::Command::new("strace")
            .args(["-qq", "-o", "/dev/null", "-e", &format!("trace={syscalls}")])
            .arg("-e")
            .arg(format!("inject={syscalls}:signal=KILL:when={k}"))
            .arg(env!("CARGO_BIN_EXE_dungeonsmith"))
            .args(new)
            .args(["--out", &s(&out)])
            .status()
            .unwrap();
        assert!(!status.success(), "killed at rename {k}");
        // The next run, of another scenario, into the folder.
        assert_eq!(run(&["myk", "--seed", "9", "--format", "json", "--out", &s(&out)]).0, 0);
        std::fs::remove_file(out.join("myk-9.json")).unwrap();
        let left = contents(&out);
        let names: Vec<&String> = left.iter().map(|(n, _)| n).collect();
        assert!(left == new_set || left == old_set, "killed at rename {k}: a mixed set {names:?}");
        assert_eq!(left == new_set, k > 1, "killed at rename {k}: the recorded commit is completed");
    }
    std::fs::remove_dir_all(&d).ok();
}

/// A `--templates` folder holding `myk.md` as `text`; the run's (code, stderr) and whether it
/// wrote anything.
fn with_gm_template(name: &str, text: &str) -> (i32, String, bool) {
    let d = temp(name);
    let t = d.join("templates");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("myk.md"), text).unwrap();
    let out = d.join("out");
    let (code, _, err) = run(&["myk", "--seed", "1", "--format", "md", "--templates", &s(&t), "--out", &s(&out)]);
    let wrote = out.exists();
    std::fs::remove_dir_all(&d).ok();
    (code, err, wrote)
}

#[test]
fn a_gm_template_that_loops_without_end_is_stopped_by_its_fuel_in_one_line() {
    let endless = "{% for a in range(10000) %}{% for b in range(10000) %}{% for c in range(10000) %}.{% endfor %}{% endfor %}{% endfor %}";
    let start = std::time::Instant::now();
    let (code, err, wrote) = with_gm_template("fuel", endless);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: template `myk.md`: it ran past 50000000 steps"), "{err}");
    assert!(!wrote, "nothing written");
    assert!(start.elapsed() < std::time::Duration::from_secs(120), "stopped, not run out");
}

#[test]
fn a_gm_template_that_writes_without_end_is_stopped_at_the_output_limit_in_one_line() {
    let flood = "{% for a in range(1000) %}{% for b in range(100) %}{{ 'x' * 1000 }}{% endfor %}{% endfor %}";
    let (code, err, wrote) = with_gm_template("flood", flood);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: template `myk.md`: its output passed 64 MiB; nothing written"), "{err}");
    assert!(!wrote, "nothing written");
}

/// A string doubled in a loop takes 40 steps and would ask for a terabyte: neither fuel nor the
/// output limit sees it, the memory bound of a run through a GM's templates does. The bound ends
/// the process, so the program runs as a child here.
#[test]
#[cfg(target_os = "linux")]
fn a_gm_template_that_builds_a_string_without_end_is_stopped_at_the_memory_limit_in_one_line() {
    let doubling = "{% set ns = namespace(s='xxxxxxxx') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}";
    let d = temp("doubling");
    let t = d.join("templates");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("myk.md"), doubling).unwrap();
    let out = d.join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_dungeonsmith"))
        .args(["myk", "--seed", "1", "--format", "md", "--templates", &s(&t), "--out", &s(&out)])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&child.stderr);
    assert_eq!(child.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: templates `") && err.contains("passed 1024 MiB of memory"), "{err}");
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

/// A run of `myk --seed 1` into a folder holding the GM's notes, `myk-1.json` of an earlier run
/// and `plant` (given the folder): it exits 2 with one line naming the record within 10 s, and
/// the folder is as it was (nothing written, the record left, the notes untouched).
fn a_planted_record_is_refused(name: &str, plant: impl FnOnce(&Path)) {
    let d = temp(name);
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "the GM's notes").unwrap();
    std::fs::write(out.join("myk-1.json"), "an earlier run's").unwrap();
    plant(&out);
    let before = contents_or_kinds(&out);
    let start = std::time::Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_dungeonsmith"))
        .args(["myk", "--seed", "1", "--format", "json", "--out", &s(&out)])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&child.stderr);
    assert!(start.elapsed() < std::time::Duration::from_secs(10), "answered at once: {err}");
    assert_eq!(child.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/.dungeonsmith.commit`") && err.contains("not a commit record dungeonsmith wrote"), "{err}");
    assert_eq!(contents_or_kinds(&out), before, "nothing written, nothing removed, the record left");
    std::fs::remove_dir_all(&d).ok();
}

/// Every entry of `dir` with its bytes (a file) or its kind (anything else), by name.
fn contents_or_kinds(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir)
        .into_iter()
        .map(|n| {
            let p = dir.join(&n);
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let bytes =
                if meta.is_file() { std::fs::read(&p).unwrap() } else { format!("{:?}", meta.file_type()).into() };
            (n, bytes)
        })
        .collect()
}

#[test]
fn a_planted_record_that_removes_a_gms_notes_is_refused_and_the_notes_stay() {
    a_planted_record_is_refused("plant-remove", |out| {
        std::fs::write(out.join(".dungeonsmith.commit"), "dungeonsmith commit 1\nremove\tnotes.txt\n").unwrap();
    });
    a_planted_record_is_refused("plant-remove2", |out| {
        let record = "dungeonsmith commit 2\tmyk-1\t00\nremove\tmyk-1-map1.svg\nremove\tnotes.txt\ncheck\t00\n";
        std::fs::write(out.join(".dungeonsmith.commit"), record).unwrap();
    });
}

#[test]
fn a_planted_record_that_renames_planted_content_over_a_file_is_refused() {
    a_planted_record_is_refused("plant-rename", |out| {
        std::fs::write(out.join(".myk-1.json.1-0.tmp"), "planted").unwrap();
        let record = "dungeonsmith commit 2\tmyk-1\t00\nrename\t.myk-1.json.1-0.tmp\tmyk-1.json\ncheck\t00\n";
        std::fs::write(out.join(".dungeonsmith.commit"), record).unwrap();
    });
}

#[test]
fn a_record_over_one_mib_is_refused_not_read_cut() {
    a_planted_record_is_refused("plant-big", |out| {
        let mut record = "dungeonsmith commit 1\n".to_string();
        while record.len() < (1 << 20) - 10 {
            record.push_str("remove\tmyk-1-map1.svg\n");
        }
        record.push_str("remove\tnotes.txt.bak\n");
        std::fs::write(out.join(".dungeonsmith.commit"), record).unwrap();
    });
}

#[test]
fn a_record_that_renames_onto_a_folder_is_refused_naming_the_record() {
    a_planted_record_is_refused("plant-folder", |out| {
        std::fs::create_dir(out.join("myk-1.md")).unwrap();
        std::fs::write(out.join(".myk-1.md.1-0.tmp"), "planted").unwrap();
        let record = "dungeonsmith commit 1\nrename\t.myk-1.md.1-0.tmp\tmyk-1.md\n";
        std::fs::write(out.join(".dungeonsmith.commit"), record).unwrap();
    });
}

#[test]
fn a_folder_under_the_records_name_is_refused_and_left() {
    a_planted_record_is_refused("plant-dir", |out| std::fs::create_dir(out.join(".dungeonsmith.commit")).unwrap());
}

#[cfg(unix)]
#[test]
fn a_link_under_the_records_name_is_refused_and_what_it_points_at_is_untouched() {
    a_planted_record_is_refused("plant-link", |out| {
        std::os::unix::fs::symlink(out.join("notes.txt"), out.join(".dungeonsmith.commit")).unwrap();
    });
}

#[cfg(unix)]
#[test]
fn a_named_pipe_under_the_records_name_is_refused_at_once_instead_of_waiting_for_a_writer() {
    a_planted_record_is_refused("plant-fifo", |out| {
        let fifo = std::ffi::CString::new(s(&out.join(".dungeonsmith.commit"))).unwrap();
        // SAFETY: mkfifo reads the path only.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    });
}

/// Fuel counts steps, not what each costs: 84 bytes looping over a 1 MB `replace` spend about
/// 11 ms a step and would run for minutes inside the fuel. The render's time limit stops it; the
/// program runs as a child (the abandoned render ends with its process).
#[test]
#[cfg_attr(debug_assertions, ignore = "the debug build's time limit is 150 s: .ci/run runs it in the bench profile")]
fn a_gm_template_whose_steps_each_cost_much_is_stopped_at_the_time_limit_in_one_line() {
    let slow = r#"{%set s="ab"*500000%}{%for i in range(99999)%}{%set t=s|replace("a","c")%}{%endfor%}"#;
    assert_eq!(slow.len(), 84);
    let d = temp("slowstep");
    let t = d.join("templates");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("myk.md"), slow).unwrap();
    let out = d.join("out");
    let start = std::time::Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_dungeonsmith"))
        .args(["myk", "--seed", "1", "--format", "md", "--templates", &s(&t), "--out", &s(&out)])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&child.stderr);
    assert_eq!(child.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let limit = dungeonsmith::render::text::TIME_LIMIT;
    assert!(err.starts_with(&format!("error: template `myk.md`: it ran past {} s", limit.as_secs())), "{err}");
    assert!(!out.exists(), "nothing written");
    // 5 s in an optimised build: within the issue's 10 s.
    assert!(start.elapsed() < limit + std::time::Duration::from_secs(10), "refused at the time limit");
    std::fs::remove_dir_all(&d).ok();
}
