//! The README says what is true: its console examples run as written with the output it shows,
//! its command synopsis lists exactly the options `--help` does, and its test and install
//! commands are the ones CI runs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::CommandFactory;

fn repo_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced blocks of `text` whose info string is `lang`: (line of the fence, body lines).
fn fenced<'a>(text: &'a str, lang: &str) -> Vec<(usize, Vec<&'a str>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, bool, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((i + 1, info.trim() == lang, Vec::new())),
            (Some(_), Some(_)) => {
                if let Some((at, true, body)) = open.take() {
                    blocks.push((at, body));
                }
            }
            (Some((_, _, body)), None) => body.push(line),
            (None, None) => {}
        }
    }
    blocks
}

/// One `$ command` of a console block, with the exit status (`# exit N`, else 0) and output shown.
struct Step {
    line: usize,
    args: Vec<String>,
    exit: i32,
    shown: Vec<String>,
}

fn steps(readme: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (at, body) in fenced(readme, "console") {
        for (i, line) in body.iter().enumerate() {
            if let Some(command) = line.strip_prefix("$ ") {
                let (command, comment) = command.split_once('#').unwrap_or((command, ""));
                let exit = comment.trim().strip_prefix("exit ").map_or(0, |n| n.parse().expect("`# exit N`"));
                assert!(!command.contains(['"', '\'']), "README line {}: quote-free commands only", at + i + 1);
                let args = command.split_whitespace().map(str::to_string).collect();
                steps.push(Step { line: at + i + 1, args, exit, shown: Vec::new() });
            } else {
                steps.last_mut().expect("output after a `$` line").shown.push(line.to_string());
            }
        }
    }
    steps
}

/// `shown` matches `actual` line by line; a `...` line stands for any number of lines.
fn matches(shown: &[String], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((first, rest)) => actual.first().is_some_and(|a| a == first) && matches(rest, &actual[1..]),
    }
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

#[test]
fn every_console_example_in_the_readme_runs_as_written() {
    let readme = repo_file("README.md");
    let steps = steps(&readme);
    assert!(steps.len() >= 8, "the README shows its commands in ```console blocks");
    // One folder for the whole page, as a GM reading top-down would use it.
    let dir = scratch();
    for step in &steps {
        let (program, args) = step.args.split_first().expect("a command");
        assert_eq!(program, "dungeonsmith", "README line {}: only dungeonsmith commands run here", step.line);
        let out = Command::new(env!("CARGO_BIN_EXE_dungeonsmith"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("runs the binary");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let actual: Vec<&str> = stdout.lines().chain(stderr.lines()).collect();
        let said =
            format!("README line {}: `{}`\nstdout:\n{stdout}\nstderr:\n{stderr}", step.line, step.args.join(" "));
        assert_eq!(out.status.code(), Some(step.exit), "{said}");
        assert!(matches(&step.shown, &actual), "{said}\nthe README shows:\n{}", step.shown.join("\n"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's synopsis: each command's lines (with `OUTPUT` and the global line folded in).
fn synopsis(readme: &str) -> Vec<(String, String)> {
    let heading = readme.find("## Commands").expect("a Commands section");
    let (_, block) = fenced(&readme[heading..], "text").into_iter().next().expect("the synopsis block");
    let output = block.iter().skip_while(|l| !l.starts_with("OUTPUT:")).take_while(|l| !l.is_empty()).copied();
    let output: String = output.collect::<Vec<_>>().join(" ");
    let every = block.iter().find(|l| l.starts_with("every command:")).expect("the global options line");
    let mut commands: Vec<(String, String)> = Vec::new();
    for line in block.iter().take_while(|l| !l.is_empty()) {
        match line.strip_prefix("dungeonsmith ") {
            Some(rest) => {
                let name = rest.split_whitespace().next().unwrap_or_default().to_string();
                commands.push((name, format!("{rest} {every}")));
            }
            None => commands.last_mut().expect("a command line first").1.push_str(line),
        }
    }
    for (_, text) in &mut commands {
        if text.contains("[OUTPUT]") {
            text.push_str(&output);
        }
    }
    commands
}

fn long_options(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_synopsis_lists_exactly_the_options_of_help() {
    let readme = repo_file("README.md");
    let listed = synopsis(&readme);
    let mut cli = dungeonsmith::cli::Cli::command();
    cli.build(); // puts the global `--tables` on every command, as `--help` shows it
    let names: BTreeSet<String> = listed.iter().map(|(n, _)| n.clone()).collect();
    let real: BTreeSet<String> =
        cli.get_subcommands().map(|c| c.get_name().to_string()).filter(|n| n != "help").collect();
    assert_eq!(names, real, "the README's synopsis names every command");
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        let mut help: BTreeSet<String> = BTreeSet::new();
        let mut values: Vec<String> = Vec::new();
        for c in std::iter::once(sub).chain(sub.get_subcommands()) {
            for a in c.get_arguments().filter(|a| !["help", "version"].contains(&a.get_id().as_str())) {
                help.extend(a.get_long().map(|l| format!("--{l}")));
                values.extend(
                    a.get_possible_values().iter().filter(|v| !v.is_hide_set()).map(|v| v.get_name().to_string()),
                );
            }
        }
        let readme: String =
            listed.iter().filter(|(n, _)| n == sub.get_name()).map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(" ");
        assert_eq!(long_options(&readme), help, "`{}`: the README's options against `--help`", sub.get_name());
        for v in values {
            assert!(readme.contains(&v), "`{}`: the README's synopsis leaves out the value `{v}`", sub.get_name());
        }
        for c in sub.get_subcommands().filter(|c| c.get_name() != "help") {
            assert!(
                readme.contains(c.get_name()),
                "`{} {}` is missing from the synopsis",
                sub.get_name(),
                c.get_name()
            );
        }
    }
}

#[test]
fn the_readmes_cargo_commands_are_the_ones_ci_runs_and_build_the_locked_crates() {
    let ci = repo_file(".ci/run");
    let ci_lines: BTreeSet<&str> = ci.lines().map(str::trim).collect();
    for doc in ["README.md", "CONTRIBUTING.md"] {
        let text = repo_file(doc);
        let commands: Vec<String> = fenced(&text, "sh")
            .into_iter()
            .flat_map(|(_, body)| body.into_iter())
            .map(|l| l.split_once('#').map_or(l, |(c, _)| c).trim().to_string())
            .filter(|l| l.starts_with("cargo "))
            .collect();
        assert!(!commands.is_empty(), "{doc} shows its cargo commands in ```sh blocks");
        for c in &commands {
            // `cargo fmt` builds nothing; everything else must use the crate versions CI tested.
            let builds = !c.starts_with("cargo fmt");
            assert!(!builds || c.contains("--locked"), "{doc}: `{c}` needs --locked to build what CI tested");
            let checks = ["cargo test", "cargo clippy", "cargo fmt", "cargo bench"];
            if checks.iter().any(|k| c.starts_with(k)) {
                assert!(ci_lines.contains(c.as_str()), "{doc}: `{c}` is not what .ci/run runs");
            }
        }
    }
    assert!(repo_file("README.md").contains("cargo install --locked --path ."));
}
