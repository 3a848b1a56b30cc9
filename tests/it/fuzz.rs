//! Fuzzing on stable Rust: proptest mutates generated scenario JSON and the table TOML files
//! structurally (a value replaced by an odd one, an element repeated or dropped, a key removed, a
//! value copied from elsewhere in the document), then runs the CLI in-process on the result.
//! Whatever the input: exit 0, 1 or 2 only, no panic, every SVG written parses as XML, and on
//! failure nothing is left in the output folder. A fixed case budget keeps CI time fixed; cases
//! it found are kept in tests/data/fuzz/ and replayed by `fuzz_regressions_never_panic`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
use serde_json::Value;

/// Cases per fuzz test (each one a full CLI run in a debug build).
const CASES: u32 = 256;
/// Cases for the table fuzzers (each also loads and validates every table).
const TABLE_CASES: u32 = 80;

static CASE: AtomicU64 = AtomicU64::new(0);

/// A fresh scratch folder for one case.
fn scratch(tag: &str) -> PathBuf {
    let n = CASE.fetch_add(1, Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("ds-fuzz-{tag}-{}-{n}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the CLI in-process, turning a panic into a test failure that names the arguments.
fn run_caught(args: &[&str]) -> (i32, String, String) {
    match catch_unwind(AssertUnwindSafe(|| crate::run(args))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!("dungeonsmith {args:?} panicked: {}", msg.unwrap_or_default())
        }
    }
}

/// The promises every run keeps: exit 0/1/2; on 0 every SVG parses; otherwise no file written.
pub fn assert_trustworthy(args: &[&str], out: &Path) -> Result<i32, TestCaseError> {
    let (code, _, err) = run_caught(args);
    prop_assert!(matches!(code, 0..=2), "{args:?}: exit {code}: {err}");
    let written: Vec<PathBuf> = match std::fs::read_dir(out) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    if code == 0 {
        for p in written.iter().filter(|p| p.extension().is_some_and(|e| e == "svg")) {
            let text = std::fs::read_to_string(p).unwrap();
            if let Err(e) = roxmltree::Document::parse(&text) {
                return Err(TestCaseError::fail(format!("{args:?}: {} does not parse: {e}", p.display())));
            }
        }
    } else {
        prop_assert!(written.is_empty(), "{args:?} failed (exit {code}: {err}) but left {written:?}");
    }
    Ok(code)
}

/// Generated scenarios to mutate: both systems, a few option sets.
fn bases() -> &'static Vec<Value> {
    static BASES: OnceLock<Vec<Value>> = OnceLock::new();
    BASES.get_or_init(|| {
        let dir = scratch("bases");
        let d = dir.to_string_lossy().to_string();
        let runs: [&[&str]; 4] = [
            &["myk", "--seed", "1", "--maps", "2"],
            &["myk", "--seed", "7", "--rooms", "4", "--layout", "straight", "--levels", "1,5,9"],
            &["fortress", "--seed", "3"],
            &["fortress", "--seed", "9", "--areas", "30", "--cl", "12"],
        ];
        for args in runs {
            let mut a = args.to_vec();
            a.extend(["--format", "json", "--out", &d]);
            assert_eq!(crate::run(&a).0, 0, "{a:?}");
        }
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        let out = names.iter().map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()).collect();
        std::fs::remove_dir_all(&dir).ok();
        out
    })
}

/// One structural change at a place in the document.
#[derive(Clone, Debug)]
pub enum Mutation {
    Number(i64),
    Float(f64),
    Text(String),
    Null,
    Bool(bool),
    EmptyArray,
    EmptyObject,
    /// Repeat an element of an array this many times.
    Repeat(usize),
    Drop,
    /// Copy the value found at another path here.
    CopyFrom(Vec<u16>),
}

fn numbers() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(0i64),
        Just(-1),
        Just(1),
        Just(3),
        Just(9),
        Just(12),
        Just(13),
        Just(31),
        Just(255),
        Just(1 << 32),
        Just(i64::MAX),
        -50i64..200
    ]
}

fn texts() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("x".repeat(3000)),
        Just("wide ".repeat(400)),
        Just("bad\u{1}name\u{1b}".to_string()),
        Just("<script>alert(1)</script> & \"q\" 'a'".to_string()),
        Just("A1".to_string()),
        Just("C3".to_string()),
        Just("A1-A2".to_string()),
        Just("B2-B3".to_string()),
        Just("north".to_string()),
        Just("hidden".to_string()),
        Just("D9".to_string()),
        Just("\u{fffe}\u{2026}漢字🜲".to_string()),
        "[ -~]{0,12}",
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        numbers().prop_map(Mutation::Number),
        prop_oneof![Just(f64::MAX), Just(-0.5), Just(1e-300), Just(2.5)].prop_map(Mutation::Float),
        texts().prop_map(Mutation::Text),
        Just(Mutation::Null),
        any::<bool>().prop_map(Mutation::Bool),
        Just(Mutation::EmptyArray),
        Just(Mutation::EmptyObject),
        prop_oneof![1usize..4, Just(100), Just(400)].prop_map(Mutation::Repeat),
        Just(Mutation::Drop),
        prop::collection::vec(any::<u16>(), 0..7).prop_map(Mutation::CopyFrom),
    ]
}

/// Walks `path` (each step picks a child modulo the count) as far as it goes.
fn walk<'a>(v: &'a mut Value, path: &[u16]) -> &'a mut Value {
    let Some((&step, rest)) = path.split_first() else { return v };
    let n = match v {
        Value::Array(a) => a.len(),
        Value::Object(o) => o.len(),
        _ => 0,
    };
    if n == 0 {
        return v;
    }
    let i = step as usize % n;
    match v {
        Value::Array(a) => walk(&mut a[i], rest),
        Value::Object(o) => walk(o.values_mut().nth(i).unwrap(), rest),
        _ => unreachable!(),
    }
}

/// Applies `m` at `path`: to the value there, or for Repeat/Drop to the array or object holding it.
fn mutate(doc: &mut Value, path: &[u16], m: &Mutation) {
    let copied = match m {
        Mutation::CopyFrom(from) => Some(walk(&mut doc.clone(), from).clone()),
        _ => None,
    };
    let (parent_path, last) = match path.split_last() {
        Some((l, p)) => (p, Some(*l)),
        None => (path, None),
    };
    match m {
        Mutation::Repeat(_) | Mutation::Drop if last.is_some() => {
            let k = if let Mutation::Repeat(k) = m { *k } else { 0 };
            let parent = walk(doc, parent_path);
            let l = last.unwrap_or(0) as usize;
            match parent {
                Value::Array(a) if !a.is_empty() => {
                    let i = l % a.len();
                    if k > 0 {
                        let item = a[i].clone();
                        a.extend(std::iter::repeat_n(item, k));
                    } else {
                        a.remove(i);
                    }
                }
                Value::Object(o) if !o.is_empty() => {
                    let key = o.keys().nth(l % o.len()).unwrap().clone();
                    if matches!(m, Mutation::Drop) {
                        o.remove(&key);
                    } else if let Some(Value::Array(a)) = o.get_mut(&key)
                        && let Some(first) = a.first().cloned()
                    {
                        a.extend(std::iter::repeat_n(first, k));
                    }
                }
                _ => {}
            }
        }
        _ => {
            let target = walk(doc, path);
            *target = match m {
                Mutation::Number(n) => Value::from(*n),
                Mutation::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
                Mutation::Text(t) => Value::from(t.clone()),
                Mutation::Null => Value::Null,
                Mutation::Bool(b) => Value::from(*b),
                Mutation::EmptyArray => Value::Array(Vec::new()),
                Mutation::EmptyObject => Value::Object(Default::default()),
                Mutation::CopyFrom(_) => copied.unwrap_or(Value::Null),
                Mutation::Repeat(_) | Mutation::Drop => Value::Null,
            };
        }
    }
}

/// Runs `render --force` and `check` on a scenario file and keeps every promise.
pub fn render_and_check(file: &Path, out: &Path) -> Result<(), TestCaseError> {
    let (f, o) = (file.to_string_lossy().to_string(), out.to_string_lossy().to_string());
    assert_trustworthy(&["render", "--force", &f, "--out", &o], out)?;
    let (code, _, err) = run_caught(&["check", &f]);
    prop_assert!(matches!(code, 0..=2), "check {f}: exit {code}: {err}");
    // `fix` into another file: never a panic; on exit 2 (bad input) nothing is written.
    let fixed = out.join("fixed.json");
    let (code, _, err) = run_caught(&["fix", &f, "--out", &fixed.to_string_lossy()]);
    prop_assert!(matches!(code, 0..=2), "fix {f}: exit {code}: {err}");
    prop_assert!(code != 2 || !fixed.exists(), "fix {f} wrote a file and exited 2: {err}");
    Ok(())
}

/// A fixed seed, so CI runs the same cases every time and never fails by chance (found failures are
/// committed under tests/data/fuzz/); `FUZZ_SEED=n FUZZ_CASES=m cargo test --test it fuzz::`
/// explores other cases.
fn config(cases: u32) -> Config {
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let seed = env("FUZZ_SEED").unwrap_or(0x5EED);
    let cases = env("FUZZ_CASES").map_or(cases, |n| n.min(u64::from(u32::MAX)) as u32);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(crate::cases(CASES)))]

    #[test]
    fn mutated_scenarios_never_panic_and_every_svg_parses(
        base in 0usize..4,
        edits in prop::collection::vec((prop::collection::vec(any::<u16>(), 0..7), mutation()), 1..4),
    ) {
        let mut doc = bases()[base].clone();
        for (path, m) in &edits {
            mutate(&mut doc, path, m);
        }
        let dir = scratch("json");
        let file = dir.join("case.json");
        std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        let result = render_and_check(&file, &dir.join("out"));
        std::fs::remove_dir_all(&dir).ok();
        result?;
    }
}

/// The table files of the repository, (relative path, parsed TOML).
fn table_files() -> &'static Vec<(String, toml::Table)> {
    static FILES: OnceLock<Vec<(String, toml::Table)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
        let mut out = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "toml") {
                    let rel = p.strip_prefix(&root).unwrap().to_string_lossy().to_string();
                    out.push((rel, std::fs::read_to_string(&p).unwrap().parse().unwrap()));
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    })
}

/// The JSON mutations, applied to TOML through its JSON image (TOML has no null: a null drops
/// the key instead).
fn mutate_toml(t: &toml::Table, path: &[u16], m: &Mutation) -> Option<toml::Table> {
    let mut v = serde_json::to_value(t).ok()?;
    mutate(&mut v, path, m);
    fn strip_nulls(v: &mut Value) {
        match v {
            Value::Array(a) => {
                a.retain(|x| !x.is_null());
                a.iter_mut().for_each(strip_nulls);
            }
            Value::Object(o) => {
                o.retain(|_, x| !x.is_null());
                o.values_mut().for_each(strip_nulls);
            }
            _ => {}
        }
    }
    strip_nulls(&mut v);
    serde_json::from_value(v).ok()
}

proptest! {
    #![proptest_config(config(crate::cases(TABLE_CASES)))]

    #[test]
    fn mutated_tables_never_panic_and_every_svg_parses(
        file in any::<prop::sample::Index>(),
        path in prop::collection::vec(any::<u16>(), 0..8),
        m in mutation(),
        fortress in any::<bool>(),
    ) {
        let files = table_files();
        let which = file.index(files.len());
        let Some(changed) = mutate_toml(&files[which].1, &path, &m) else { return Ok(()) };
        let dir = scratch("toml");
        let tables = dir.join("tables");
        for (i, (rel, t)) in files.iter().enumerate() {
            let p = tables.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let t = if i == which { &changed } else { t };
            std::fs::write(&p, toml::to_string(t).unwrap()).unwrap();
        }
        let (t, o) = (tables.to_string_lossy().to_string(), dir.join("out").to_string_lossy().to_string());
        let command = if fortress { "fortress" } else { "myk" };
        let result = assert_trustworthy(&["--tables", &t, command, "--seed", "5", "--out", &o], &dir.join("out"));
        std::fs::remove_dir_all(&dir).ok();
        result?;
    }
}

#[test]
fn fuzz_regressions_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    assert!(!cases.is_empty());
    for case in cases {
        let dir = scratch("regression");
        let r = render_and_check(&case, &dir.join("out"));
        std::fs::remove_dir_all(&dir).ok();
        if let Err(e) = r {
            panic!("{}: {e}", case.display());
        }
    }
}

crate::in_full! {
    mutated_scenarios_never_panic_and_every_svg_parses => mutated_scenarios_never_panic_and_every_svg_parses_in_full,
    mutated_tables_never_panic_and_every_svg_parses => mutated_tables_never_panic_and_every_svg_parses_in_full,
}
