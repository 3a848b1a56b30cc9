//! The built binary itself, run as a GM runs it: its own allocator glue and its exit path
//! (`src/main.rs` ends the process without the C library's exit handlers) must not lose output
//! or change exit codes. Everything else is tested in-process through `crate::run`.

use std::path::PathBuf;
use std::process::Command;

use crate::run;

const BIN: &str = env!("CARGO_BIN_EXE_dungeonsmith");

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-binary-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("make a temporary folder");
    d
}

#[test]
fn the_binary_prints_what_the_library_prints_and_exits_with_its_code() {
    let dir = temp("same");
    let (dir_bin, dir_lib) = (dir.join("bin"), dir.join("lib"));
    let args = ["myk", "--seed", "7", "--format", "json,svg,md,html", "--out"];
    let out = Command::new(BIN).args(args).arg(&dir_bin).output().expect("the binary runs");
    let mut lib_args: Vec<&str> = args.to_vec();
    let lib_dir = dir_lib.to_string_lossy().to_string();
    lib_args.push(&lib_dir);
    let (code, stdout, stderr) = run(&lib_args);
    assert_eq!((out.status.code(), code), (Some(0), 0));
    // Piped, stdout is buffered: every file's line must still arrive.
    let printed = String::from_utf8(out.stdout).expect("utf-8 stdout");
    assert_eq!(printed.lines().count(), 5, "one line per file: {printed}");
    assert_eq!(printed.replace(&dir_bin.to_string_lossy().to_string(), "DIR"), stdout.replace(&lib_dir, "DIR"));
    assert_eq!(String::from_utf8(out.stderr).expect("utf-8 stderr"), stderr);
    for name in ["myk-7.json", "myk-7-map1.svg", "myk-7-map1-players.svg", "myk-7.md", "myk-7.html"] {
        let a = std::fs::read(dir_bin.join(name)).expect("the binary wrote the file");
        let b = std::fs::read(dir_lib.join(name)).expect("the library wrote the file");
        assert!(a == b, "{name} differs between the binary and the library");
    }
}

#[test]
fn the_binary_exits_2_on_bad_input_with_one_line() {
    let out = Command::new(BIN).args(["myk", "--court-size", "0"]).output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).expect("utf-8 stderr");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("`--court-size`"), "names the option: {err}");
}
