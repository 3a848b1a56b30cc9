//! The command line as a user meets it: exit codes, one-line errors, reproducible rolls.

use crate::run;

#[test]
fn a_d66_roll_with_a_seed_prints_the_same_line_every_time() {
    let first = run(&["tables", "roll", "myk.names.basic", "--seed", "7"]);
    assert_eq!(first.0, 0, "{}", first.2);
    assert_eq!(first.1, "myk.names.basic D66 36 -> Crystal\n");
    assert_eq!(run(&["tables", "roll", "myk.names.basic", "--seed", "7"]), first);
}

#[test]
fn different_seeds_can_give_different_lines() {
    let lines: std::collections::BTreeSet<String> =
        (0..20).map(|s| run(&["tables", "roll", "myk.names.basic", "--seed", &s.to_string()]).1).collect();
    assert!(lines.len() > 5, "only {} distinct results in 20 seeds", lines.len());
}

#[test]
fn a_roll_without_a_seed_announces_the_seed_it_picked() {
    let (code, out, err) = run(&["tables", "roll", "myk.names.flair"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("myk.names.flair 1D6 "), "{out}");
    let seed = err.trim().strip_prefix("seed ").and_then(|s| s.split_whitespace().next()).expect("seed announced");
    let again = run(&["tables", "roll", "myk.names.flair", "--seed", seed]);
    assert_eq!(again.1, out);
}

#[test]
fn tables_list_shows_every_table() {
    let (code, out, _) = run(&["tables", "list"]);
    assert_eq!(code, 0);
    for name in ["myk.names.flair", "myk.names.place", "myk.names.basic", "myk.names.man_made"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name} missing from\n{out}");
    }
}

#[test]
fn tables_show_prints_the_rows() {
    let (code, out, _) = run(&["tables", "show", "myk.names.flair"]);
    assert_eq!(code, 0);
    assert!(out.contains("1-2  roll on `myk.names.basic`"), "{out}");
}

#[test]
fn an_unknown_table_is_one_line_and_status_2() {
    let (code, out, err) = run(&["tables", "roll", "no.such.table", "--seed", "1"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, "error: unknown table `no.such.table` (`dungeonsmith tables list` shows them all)\n");
}

#[test]
fn a_malformed_seed_is_one_line_and_status_2() {
    let (code, _, err) = run(&["tables", "roll", "myk.names.basic", "--seed", "seven"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--seed"), "{err}");
}

#[test]
fn an_unreadable_tables_folder_is_one_line_and_status_2() {
    let (code, _, err) = run(&["--tables", "/no/such/dir", "tables", "list"]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: cannot read tables folder `/no/such/dir`: no such file or folder\n");
}

#[test]
fn a_broken_table_file_names_file_and_line() {
    let dir = std::env::temp_dir().join(format!("dungeonsmith-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.toml"), "[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"D66\nrows = []\n").unwrap();
    let (code, _, err) = run(&["--tables", dir.to_str().unwrap(), "tables", "list"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: `bad.toml` line 4: "), "{err}");
}

#[test]
fn help_reads_as_a_list_of_commands() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    for cmd in ["myk", "fortress", "check", "render", "tables"] {
        assert!(out.contains(&format!("  {cmd}")), "{cmd} missing from help:\n{out}");
    }
}

#[test]
fn a_tables_folder_missing_what_myk_needs_says_which_table() {
    let dir = std::env::temp_dir().join(format!("dungeonsmith-partial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("only.toml"),
        "[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"1D6\"\nrows = [{roll = \"1-6\", result = \"a\"}]\n",
    )
    .unwrap();
    let (code, out, err) = run(&["--tables", dir.to_str().unwrap(), "myk", "--seed", "1", "--out", "/nonexistent"]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no table `myk.names.flair`, which `myk` needs"), "{err}");
}

/// Files written before the `format` field existed (format 1) still load, check and render.
#[test]
fn format_1_files_load_and_upgrade_on_read() {
    for file in ["tests/data/format1/myk-42.json", "tests/data/format1/fortress-7.json"] {
        let (code, out, err) = crate::run(&["check", file]);
        assert_eq!(code, 0, "{file}: {out}{err}");
        let dir = std::env::temp_dir().join(format!("ds-format1-{}", std::process::id()));
        let dir_s = dir.to_string_lossy().to_string();
        let (code, _, err) = crate::run(&["render", file, "--out", &dir_s, "--format", "json"]);
        assert_eq!(code, 0, "{file}: {err}");
        let name = std::path::Path::new(file).file_name().expect("file name");
        let written = std::fs::read_to_string(dir.join(name)).expect("re-rendered json");
        let current = format!("\"format\": {}", dungeonsmith::format::CURRENT);
        assert!(written.contains(&current), "{file} re-rendered without the current format");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A file from a newer dungeonsmith is refused with one line naming its version.
#[test]
fn a_newer_format_is_refused_naming_the_version() {
    let text = std::fs::read_to_string("tests/data/format1/myk-42.json").expect("fixture");
    let text = text.replacen("\"system\": \"myk\",", "\"system\": \"myk\",\n  \"format\": 99,", 1);
    let path = std::env::temp_dir().join(format!("ds-format99-{}.json", std::process::id()));
    std::fs::write(&path, text).expect("write fixture");
    let (code, _, err) = crate::run(&["check", &path.to_string_lossy()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("format 99"), "{err}");
}
