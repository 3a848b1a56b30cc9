//! The shape of the source itself, read from `src/`: modules that use each other in a circle, long
//! functions and a thick command line are caught here rather than in review.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest function the project allows, signature to closing brace.
const MAX_FUNCTION_LINES: usize = 80;
/// The command line is an adapter over the library: it stays short.
const MAX_CLI_LINES: usize = 500;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below `dir`, in name order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("src is readable").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// The module path of a file (`myk::generate` for `src/myk/generate.rs`, `` for `lib.rs`).
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).expect("a file under src");
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The file's code without its test module and comment lines (doc links are not dependencies).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// A `use` tree with its braces expanded into whole paths (`a::{b, c::d}` -> `a::b`, `a::c::d`).
fn expand(tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else { return vec![tree.to_string()] };
    let close = tree.rfind('}').expect("balanced braces in a use");
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close]);
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for ch in inner.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    parts.push(cur);
    parts.iter().filter(|p| !p.is_empty()).flat_map(|p| expand(p)).map(|p| format!("{prefix}{p}")).collect()
}

/// Every `crate::` or `super::` path the code names: in `use` lines and written inline.
fn paths_in(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let tail = &rest[i + 4..];
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_')
            && let Some(end) = tail.find(';')
        {
            let tree: String = tail[..end].chars().filter(|c| !c.is_whitespace()).collect();
            if tree.starts_with("crate::") || tree.starts_with("super::") {
                paths.extend(expand(&tree));
            }
        }
        rest = tail;
    }
    for start in ["crate::", "super::"] {
        for (i, _) in code.match_indices(start) {
            if code[..i].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let end =
                code[i..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).map_or(code.len(), |e| i + e);
            paths.push(code[i..end].trim_end_matches(':').to_string());
        }
    }
    paths
}

/// The module a path lands in: the longest prefix that is a module of the crate.
fn target(from: &[String], path: &str, modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut segs: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = if segs[0] == "crate" {
        segs.remove(0);
        Vec::new()
    } else {
        // `super` in `a/b.rs` is `a`; in `a/b/mod.rs` (module `a::b`) also `a`.
        let mut base = from.to_vec();
        while segs.first() == Some(&"super") {
            segs.remove(0);
            base.pop();
        }
        base
    };
    base.extend(segs.iter().map(|s| s.to_string()));
    (0..=base.len()).rev().map(|k| base[..k].to_vec()).find(|m| modules.contains(m))
}

/// The crate's module graph: module -> the modules its code names.
fn module_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = rust_files(&src());
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let mut graph = BTreeMap::new();
    for f in &files {
        let from = module_of(f);
        let code = code_of(&std::fs::read_to_string(f).expect("a source file is readable"));
        let to: BTreeSet<Vec<String>> = paths_in(&code)
            .iter()
            .filter_map(|p| target(&from, p, &modules))
            .filter(|m| *m != from && !from.starts_with(m))
            .collect();
        graph.entry(from).or_insert_with(BTreeSet::new).extend(to);
    }
    graph
}

/// A module reached again from itself, as the path that goes round; `None` when there is none.
fn find_circle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    fn visit(
        m: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        done: &mut BTreeSet<Vec<String>>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == m) {
            let mut circle: Vec<String> = stack[i..].iter().map(|s| s.join("::")).collect();
            circle.push(m.join("::"));
            return Some(circle);
        }
        if !done.insert(m.clone()) {
            return None;
        }
        stack.push(m.clone());
        for next in graph.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, graph, done, stack) {
                return Some(c);
            }
        }
        stack.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &mut done, &mut Vec::new()))
}

#[test]
fn no_two_modules_use_each_other_in_a_circle() {
    let graph = module_graph();
    // The reader must see the crate: these edges are known to exist.
    let generate = vec!["myk".to_string(), "generate".to_string()];
    assert!(graph[&generate].contains(&vec!["myk".to_string(), "check".to_string()]), "{:?}", graph[&generate]);
    if let Some(circle) = find_circle(&graph) {
        panic!("module circle: {}", circle.join(" -> "));
    }
}

/// The module graph at the level of folders and top files under `src/` (`myk`, `tables`, `format`):
/// each module stands for its top-level module, and an edge inside one is dropped.
fn folder_graph(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let top = |m: &Vec<String>| m.first().map(|s| vec![s.clone()]);
    let mut folders: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (from, to) in graph {
        let Some(from) = top(from) else { continue };
        let to: Vec<Vec<String>> = to.iter().filter_map(top).filter(|t| *t != from).collect();
        folders.entry(from).or_default().extend(to);
    }
    folders
}

#[test]
fn no_two_folders_use_each_other_in_a_circle() {
    let folders = folder_graph(&module_graph());
    // The reader must see the crate: the games read the tables.
    let m = |s: &str| vec![s.to_string()];
    assert!(folders[&m("myk")].contains(&m("tables")), "{:?}", folders[&m("myk")]);
    if let Some(circle) = find_circle(&folders) {
        panic!("folder circle: {}", circle.join(" -> "));
    }
}

#[test]
fn the_folder_graph_joins_the_files_of_a_folder() {
    let m = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let graph = BTreeMap::from([
        (m(&["a", "x"]), BTreeSet::from([m(&["b", "y"]), m(&["a", "z"])])),
        (m(&["b", "w"]), BTreeSet::from([m(&["a"])])),
        (m(&[]), BTreeSet::from([m(&["a"])])),
    ]);
    let folders = folder_graph(&graph);
    assert_eq!(folders[&m(&["a"])], BTreeSet::from([m(&["b"])]));
    assert_eq!(find_circle(&folders), Some(vec!["a".into(), "b".into(), "a".into()]));
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let m = |s: &str| vec![s.to_string()];
    let graph = BTreeMap::from([
        (m("a"), BTreeSet::from([m("b")])),
        (m("b"), BTreeSet::from([m("c")])),
        (m("c"), BTreeSet::from([m("a")])),
    ]);
    assert_eq!(find_circle(&graph), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
}

/// Each function's name and length in lines, signature to closing brace (braces in strings, char
/// literals and comments do not count).
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let Some(at) = t.find("fn ") else { continue };
        let head = &t[..at];
        let is_fn = head
            .split_whitespace()
            .all(|w| matches!(w, "pub" | "const" | "async" | "unsafe" | "extern") || w.starts_with("pub("));
        if !is_fn || t.starts_with("//") {
            continue;
        }
        let name: String = t[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if let Some(len) = body_length(&lines[i..]) {
            out.push((name, len));
        }
    }
    out
}

/// Lines from the signature to the brace closing the body; `None` for a declaration without body.
fn body_length(lines: &[&str]) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for (n, line) in lines.iter().enumerate() {
        let mut chars = line.chars().peekable();
        let mut in_str = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' if in_str => {
                    chars.next();
                }
                '"' => in_str = !in_str,
                '/' if !in_str && chars.peek() == Some(&'/') => break,
                '\'' if !in_str => {
                    // A char literal ('{', '\n'); a lifetime has no closing quote right after.
                    let mut look = chars.clone();
                    let first = look.next();
                    let lit = if first == Some('\\') { look.nth(1) == Some('\'') } else { look.next() == Some('\'') };
                    if lit {
                        chars = look;
                    }
                }
                '{' if !in_str => {
                    depth += 1;
                    opened = true;
                }
                '}' if !in_str => {
                    depth -= 1;
                    if opened && depth == 0 {
                        return Some(n + 1);
                    }
                }
                ';' if !in_str && !opened && depth == 0 => return None,
                _ => {}
            }
        }
    }
    None
}

#[test]
fn no_function_is_longer_than_a_screen() {
    let mut long = Vec::new();
    for f in rust_files(&src()) {
        let text = std::fs::read_to_string(&f).expect("a source file is readable");
        for (name, len) in function_lengths(&text) {
            if len > MAX_FUNCTION_LINES {
                long.push(format!("{}: fn {name} ({len} lines)", f.display()));
            }
        }
    }
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_function_measure_counts_signature_to_closing_brace() {
    let text = "fn a() {\n    let s = \"}\";\n    let c = '{';\n}\n\npub(crate) fn b<'x>(v: &'x str) -> &'x str;\n";
    assert_eq!(function_lengths(text), vec![("a".to_string(), 4)]);
}

#[test]
fn the_command_line_stays_a_thin_adapter() {
    let lines = std::fs::read_to_string(src().join("cli/mod.rs")).expect("cli/mod.rs is readable").lines().count();
    assert!(lines < MAX_CLI_LINES, "cli/mod.rs has {lines} lines; at most {MAX_CLI_LINES}");
}

/// The command line's argument types, one subcommand per game (clap's derive): the only front-end
/// file that may name a game's own module, to hand its options to that game's params type.
const GAME_ARGUMENTS: &str = "cli/args.rs";

/// The front ends' files (`cli/`, `serve/`) but their argument types, as (path under `src/`, code).
fn front_end_code() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["cli", "serve"] {
        for f in rust_files(&src().join(dir)) {
            let rel = f.strip_prefix(src()).expect("under src").to_string_lossy().replace('\\', "/");
            if rel != GAME_ARGUMENTS {
                out.push((rel, code_of(&std::fs::read_to_string(&f).expect("a source file is readable"))));
            }
        }
    }
    out
}

/// The paths of `code` that name a game's own module (`crate::myk::…`, `crate::nw3::…`, the edit
/// API's `crate::edit::nw3`).
fn game_modules_named(code: &str) -> Vec<String> {
    paths_in(code).into_iter().filter(|p| p.split("::").any(|seg| seg == "myk" || seg == "nw3")).collect()
}

#[test]
fn the_front_ends_name_no_game_module_and_pick_a_game_in_one_adapter_call_each() {
    let mut named = Vec::new();
    let mut variants = BTreeMap::new();
    for (file, code) in front_end_code() {
        named.extend(game_modules_named(&code).into_iter().map(|p| format!("{file}: {p}")));
        // A game's variant of the library's types (`Params::Myk`, `Document::Nw3`, ...).
        for ty in ["Game", "Params", "Part", "Document"] {
            for game in ["Myk", "Nw3"] {
                let n = code.matches(&format!("{ty}::{game}")).count();
                *variants.entry(game).or_insert(0) += n;
            }
        }
    }
    assert!(named.is_empty(), "game modules named outside {GAME_ARGUMENTS}:\n{}", named.join("\n"));
    for (game, n) in variants {
        assert!(n <= 1, "{game}: {n} places pick the game in cli/ and serve/; one adapter call each");
    }
}

#[test]
fn the_game_module_finder_sees_use_lines_and_inline_paths() {
    let code =
        "use crate::myk::{MykParams, model::Layout};\nuse crate::document::Game;\nfn f() { crate::nw3::generate(); }\n";
    let named = game_modules_named(code);
    for p in ["crate::myk::MykParams", "crate::myk::model::Layout", "crate::nw3::generate"] {
        assert!(named.iter().any(|n| n == p), "{p} in {named:?}");
    }
    assert!(!named.iter().any(|n| n.contains("document")), "{named:?}");
}

/// Library files allowed to write a flag: the regenerate line a booklet prints, and `error::flag`,
/// the one function that spells a field as the command line's flag.
const WRITES_A_COMMAND_LINE: &[&str] = &["render/regen.rs", "error.rs"];

#[test]
fn library_errors_name_fields_in_the_librarys_words_and_the_front_ends_spell_them_as_flags() {
    let mut flags = Vec::new();
    for f in rust_files(&src()) {
        let rel = f.strip_prefix(src()).expect("under src").to_string_lossy().replace('\\', "/");
        let front_end = rel.starts_with("cli/") || rel.starts_with("serve/") || rel == "main.rs";
        if front_end || rel.ends_with("/tests.rs") || WRITES_A_COMMAND_LINE.contains(&rel.as_str()) {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&f).expect("a source file is readable"));
        for (n, line) in code.lines().enumerate() {
            // A flag inside a string: "`--map N`" or "--court-size".
            if line.contains("\"--") || line.contains("`--") {
                flags.push(format!("{rel}: {}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        flags.is_empty(),
        "library code names command-line flags (use a field and Error::line_for):\n{}",
        flags.join("\n")
    );
}

/// The names of the crates under `[dependencies]` in `Cargo.toml`, as code names them (`hyper-util`
/// is `hyper_util`).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside
            && !line.starts_with('#')
            && let Some((name, _)) = line.split_once('=')
        {
            out.push(name.trim().replace('-', "_"));
        }
    }
    out
}

/// Whether `code` names the crate `krate` in a path (`krate::x`, `use krate`, `extern crate krate`),
/// as a whole word (`svg::` is not named by `usvg::`).
fn names_crate(code: &str, krate: &str) -> bool {
    let whole = |i: usize| code[..i].chars().last().is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
    let path = format!("{krate}::");
    let used = |prefix: &str| {
        let at = format!("{prefix}{krate}");
        code.match_indices(&at)
            .any(|(i, _)| whole(i) && code[i + at.len()..].starts_with(|c: char| !(c.is_alphanumeric() || c == '_')))
    };
    code.match_indices(&path).any(|(i, _)| whole(i)) || used("use ") || used("extern crate ")
}

#[test]
fn every_dependency_is_named_by_the_code_in_src() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml is readable");
    let deps = dependencies(&manifest);
    assert!(deps.iter().any(|d| d == "hyper_util"), "the reader must see the dependencies: {deps:?}");
    let code: String = rust_files(&src())
        .iter()
        .map(|f| code_of(&std::fs::read_to_string(f).expect("a source file is readable")))
        .collect::<Vec<_>>()
        .join("\n");
    let unused: Vec<&String> = deps.iter().filter(|d| !names_crate(&code, d)).collect();
    assert!(unused.is_empty(), "[dependencies] no code in src/ names (remove them): {unused:?}");
}

#[test]
fn the_dependency_finder_reads_names_and_whole_paths() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nhyper-util = \"1\"\n# note\nsvg = { version = \"1\" }\n\
                    [dev-dependencies]\nproptest = \"1\"\n";
    assert_eq!(dependencies(manifest), ["hyper_util", "svg"]);
    assert!(names_crate("use hyper_util::rt;", "hyper_util"));
    assert!(names_crate("let t = usvg::Tree::new(); svg::write(t);", "svg"));
    assert!(!names_crate("let t = usvg::Tree::new();", "svg"));
    assert!(!names_crate("use crate::svgkit::X;", "svg"));
    assert!(names_crate("extern crate libc;", "libc"));
}
