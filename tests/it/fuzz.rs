//! Fuzzing on stable Rust, one target per input a GM shares: a scenario JSON of each game
//! (mutations of generated scenarios and of a format-1 file), a `--tables` folder (mutated TOML), a
//! `--templates` folder (mutated template text) and a workbench permalink (its query fields and
//! edits, parsed and replayed through the library). proptest mutates the input structurally (a
//! value replaced by an odd one, an element repeated or dropped, a key removed, a value copied
//! from elsewhere), then the real entry point runs in-process on the result. Whatever the input:
//! no panic; exit 0, 1 or 2, and on 2 one line; output bounded; every SVG written parses as XML;
//! on failure nothing is left in the output folder.
//!
//! Each target runs a few dozen cases in the plain suite, and many more in its `..._at_length`
//! twin, ignored there and run by `.ci/run` (`--ignored fuzz::`). A fixed seed keeps CI time and
//! outcome fixed; cases found are kept in tests/data/fuzz/ and replayed by
//! `fuzz_regressions_never_panic`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
use serde_json::Value;

/// Cases per fuzz target in the plain suite (each one a full CLI run in a debug build).
const CASES: u32 = 24;
/// Cases per target in the ignored runs `.ci/run` makes: a few minutes each on two cores.
const LONG_CASES: u32 = 120;
/// Cases for the table fuzzers (each also loads and validates every table).
const TABLE_CASES: u32 = 12;
const LONG_TABLE_CASES: u32 = 60;
/// The most bytes a run may print (stdout and stderr) and write: far above any scenario's files,
/// far below what text that multiplies makes.
const OUTPUT_CEILING: u64 = 64 << 20;

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
    let (code, stdout, err) = run_caught(args);
    one_line_when_refused(args, code, &stdout, &err)?;
    let written: Vec<PathBuf> = match std::fs::read_dir(out) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    let bytes: u64 = written.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    prop_assert!(bytes <= OUTPUT_CEILING, "{args:?} wrote {bytes} bytes");
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

/// The promises of every exit: 0, 1 or 2; a refusal (2) is one line on stderr and nothing on
/// stdout; what is printed is bounded.
fn one_line_when_refused(args: &[&str], code: i32, out: &str, err: &str) -> Result<(), TestCaseError> {
    prop_assert!(matches!(code, 0..=2), "{args:?}: exit {code}: {err}");
    prop_assert!((out.len() + err.len()) as u64 <= OUTPUT_CEILING, "{args:?} printed {} bytes", out.len() + err.len());
    if code == 2 {
        prop_assert!(err.lines().count() == 1 && out.is_empty(), "{args:?}: exit 2 in more than one line: {out}{err}");
    }
    Ok(())
}

/// Generated scenarios to mutate: both systems, a few option sets; then the format-1 files of
/// each (tests/data/format1), upgraded on read. The first three are MYK, the last three NW3.
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
        // fortress-3, fortress-9, myk-1, myk-7 by name: MYK first, as the targets count them.
        names.rotate_left(2);
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/format1");
        names.insert(2, root.join("myk-42.json"));
        names.push(root.join("fortress-7.json"));
        let read = |p: &PathBuf| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        let out = names.iter().map(read).collect();
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
    let args = ["check", &f];
    let (code, stdout, err) = run_caught(&args);
    one_line_when_refused(&args, code, &stdout, &err)?;
    // `fix` into another file: never a panic; on exit 2 (bad input) nothing is written, and what
    // it writes reads back.
    let fixed = out.join("fixed.json");
    let fixed_s = fixed.to_string_lossy().to_string();
    let args = ["fix", &f, "--out", &fixed_s];
    let (code, stdout, err) = run_caught(&args);
    one_line_when_refused(&args, code, &stdout, &err)?;
    prop_assert!(code != 2 || !fixed.exists(), "fix {f} wrote a file and exited 2: {err}");
    if fixed.exists() {
        let (code, _, err) = run_caught(&["check", &fixed_s]);
        prop_assert!(code != 2, "fix {f} wrote a file `check` refuses: {err}");
    }
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

/// One scenario case: base `base` (see [`bases`]) with `edits` applied, rendered, checked, fixed.
fn scenario_case(base: usize, edits: &[(Vec<u16>, Mutation)]) -> Result<(), TestCaseError> {
    let mut doc = bases()[base].clone();
    for (path, m) in edits {
        mutate(&mut doc, path, m);
    }
    let dir = scratch("json");
    let file = dir.join("case.json");
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let result = render_and_check(&file, &dir.join("out"));
    std::fs::remove_dir_all(&dir).ok();
    result
}

fn edits() -> impl Strategy<Value = Vec<(Vec<u16>, Mutation)>> {
    prop::collection::vec((prop::collection::vec(any::<u16>(), 0..7), mutation()), 1..4)
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn mutated_myk_scenarios_never_panic_and_every_svg_parses(base in 0usize..3, edits in edits()) {
        scenario_case(base, &edits)?;
    }

    #[test]
    fn mutated_fortress_scenarios_never_panic_and_every_svg_parses(base in 3usize..6, edits in edits()) {
        scenario_case(base, &edits)?;
    }
}

proptest! {
    #![proptest_config(config(LONG_CASES))]

    #[test]
    #[ignore = "minutes: run by .ci/run (--ignored fuzz::)"]
    fn mutated_myk_scenarios_never_panic_at_length(base in 0usize..3, edits in edits()) {
        scenario_case(base, &edits)?;
    }

    #[test]
    #[ignore = "minutes: run by .ci/run (--ignored fuzz::)"]
    fn mutated_fortress_scenarios_never_panic_at_length(base in 3usize..6, edits in edits()) {
        scenario_case(base, &edits)?;
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

/// One tables case: table file `file` mutated at `path`, the rest as shipped, then a generation.
fn tables_case(file: prop::sample::Index, path: &[u16], m: &Mutation, fortress: bool) -> Result<(), TestCaseError> {
    let files = table_files();
    let which = file.index(files.len());
    let Some(changed) = mutate_toml(&files[which].1, path, m) else { return Ok(()) };
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
    result.map(|_| ())
}

proptest! {
    #![proptest_config(config(TABLE_CASES))]

    #[test]
    fn mutated_tables_never_panic_and_every_svg_parses(
        file in any::<prop::sample::Index>(),
        path in prop::collection::vec(any::<u16>(), 0..8),
        m in mutation(),
        fortress in any::<bool>(),
    ) {
        tables_case(file, &path, &m, fortress)?;
    }
}

proptest! {
    #![proptest_config(config(LONG_TABLE_CASES))]

    #[test]
    #[ignore = "minutes: run by .ci/run (--ignored fuzz::)"]
    fn mutated_tables_never_panic_at_length(
        file in any::<prop::sample::Index>(),
        path in prop::collection::vec(any::<u16>(), 0..8),
        m in mutation(),
        fortress in any::<bool>(),
    ) {
        tables_case(file, &path, &m, fortress)?;
    }
}

/// The shipped template files, (name, text).
fn template_files() -> &'static Vec<(String, String)> {
    static FILES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let mut out: Vec<(String, String)> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(&p).unwrap()))
            .collect();
        out.sort();
        out
    })
}

/// One change to a template's text.
#[derive(Clone, Debug)]
pub enum TextEdit {
    /// Insert this text at a place.
    Insert(String),
    /// Remove up to this many bytes from a place.
    Remove(usize),
    /// Repeat what lies from a place up to this many bytes on, this many times.
    Repeat(usize, usize),
}

/// Template syntax, good and broken: what a GM's edit or a hostile file puts in a template.
fn template_snippets() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("{{".to_string()),
        Just("{% if %}".to_string()),
        Just("{% endfor %}".to_string()),
        Just("{{ no_such_thing }}".to_string()),
        Just("{{ s.title }}{{ s.maps | length }}".to_string()),
        Just("{{ s | tojson }}".to_string()),
        Just("{% for i in range(100) %}{% for j in range(100) %}x{% endfor %}{% endfor %}".to_string()),
        Just("{{ 'x' * 100000 }}".to_string()),
        Just("{% include 'myk.md' %}".to_string()),
        Just("{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}".to_string()),
        Just("{{ 1 / 0 }}".to_string()),
        Just("<script>alert(1)</script>".to_string()),
        Just("\u{0}\u{1b}[31m".to_string()),
        "[ -~]{0,16}",
    ]
}

fn text_edit() -> impl Strategy<Value = TextEdit> {
    prop_oneof![
        template_snippets().prop_map(TextEdit::Insert),
        (1usize..400).prop_map(TextEdit::Remove),
        (1usize..200, prop_oneof![Just(2usize), Just(10), Just(100)]).prop_map(|(n, k)| TextEdit::Repeat(n, k)),
    ]
}

/// `text` with `edit` at byte `at` (modulo its length, moved back to a character's start).
fn edit_text(text: &str, at: usize, edit: &TextEdit) -> String {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let upto = |n: usize| {
        let mut end = (at + n).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        end
    };
    match edit {
        TextEdit::Insert(t) => format!("{}{t}{}", &text[..at], &text[at..]),
        TextEdit::Remove(n) => format!("{}{}", &text[..at], &text[upto(*n)..]),
        TextEdit::Repeat(n, k) => {
            let end = upto(*n);
            format!("{}{}{}", &text[..at], text[at..end].repeat(*k), &text[end..])
        }
    }
}

/// One templates case: the shipped templates with `edits` made to file `file`, then a generation
/// of either game in the text formats.
fn templates_case(file: prop::sample::Index, edits: &[(usize, TextEdit)], fortress: bool) -> Result<(), TestCaseError> {
    let files = template_files();
    let which = file.index(files.len());
    let dir = scratch("templates");
    let templates = dir.join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    for (i, (name, text)) in files.iter().enumerate() {
        let text =
            if i == which { edits.iter().fold(text.clone(), |t, (at, e)| edit_text(&t, *at, e)) } else { text.clone() };
        std::fs::write(templates.join(name), text).unwrap();
    }
    let (t, o) = (templates.to_string_lossy().to_string(), dir.join("out").to_string_lossy().to_string());
    let command = if fortress { "fortress" } else { "myk" };
    let args = [command, "--seed", "5", "--templates", &t, "--format", "md,html", "--out", &o];
    let result = assert_trustworthy(&args, &dir.join("out"));
    std::fs::remove_dir_all(&dir).ok();
    result.map(|_| ())
}

fn template_edits() -> impl Strategy<Value = Vec<(usize, TextEdit)>> {
    prop::collection::vec((any::<usize>(), text_edit()), 1..4)
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn mutated_templates_never_panic_and_bound_their_output(
        file in any::<prop::sample::Index>(),
        edits in template_edits(),
        fortress in any::<bool>(),
    ) {
        templates_case(file, &edits, fortress)?;
    }
}

proptest! {
    #![proptest_config(config(LONG_CASES))]

    #[test]
    #[ignore = "minutes: run by .ci/run (--ignored fuzz::)"]
    fn mutated_templates_never_panic_at_length(
        file in any::<prop::sample::Index>(),
        edits in template_edits(),
        fortress in any::<bool>(),
    ) {
        templates_case(file, &edits, fortress)?;
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

/// The built-in tables, loaded once for the permalink target.
fn shipped_tables() -> &'static dungeonsmith::tables::Tables {
    static TABLES: OnceLock<dungeonsmith::tables::Tables> = OnceLock::new();
    TABLES.get_or_init(|| dungeonsmith::tables::Tables::load(None).unwrap())
}

/// A value for a permalink field: numbers in and out of range, lists, names, junk.
fn field_values() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("0".to_string()),
        Just("1".to_string()),
        Just("3".to_string()),
        Just("20".to_string()),
        Just("40".to_string()),
        Just("99999999999999999999".to_string()),
        Just("-1".to_string()),
        Just("1,5,9".to_string()),
        Just("3,3,3,3,3,3,3".to_string()),
        Just("race".to_string()),
        Just("straight".to_string()),
        Just("letter".to_string()),
        texts(),
    ]
}

/// A permalink edit (`op`): each verb over parts that exist, parts that do not and junk. Names
/// hold no `{`: a name that multiplies through the placeholders is issue 50's item 3, tested with
/// its own fix.
fn ops() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("frame"),
        Just("map1"),
        Just("map2"),
        Just("map1/B2"),
        Just("map1/A1"),
        Just("map3/C3"),
        Just("map1/B2/monsters"),
        Just("map1/B2/traps"),
        Just("map1/B2/bases"),
        Just("map1/Z9"),
        Just("area1"),
        Just("area3"),
        Just("area5/enemies"),
        Just("area40"),
        Just("mapx"),
        Just(""),
    ];
    let name = prop_oneof!["[ -z|~]{0,12}", Just("n".repeat(201)), Just("  ".to_string())];
    prop_oneof![
        part.clone().prop_map(|p| format!("reroll:{p}")),
        part.clone().prop_map(|p| format!("lock:{p}")),
        part.clone().prop_map(|p| format!("unlock:{p}")),
        (part, name).prop_map(|(p, n)| format!("rename:{p}:{n}")),
        numbers().prop_map(|n| format!("regen:{n}")),
        "[ -~]{0,10}",
    ]
}

/// A library error as the workbench shows it: one line.
fn one_line(what: &str, e: &dungeonsmith::Error) -> Result<(), TestCaseError> {
    let line = e.to_string();
    prop_assert!(!line.contains('\n') && !line.is_empty(), "{what}: {line:?}");
    Ok(())
}

/// One permalink case: the query's fields read as the workbench reads them, the scenario generated
/// and its edits replayed through the library, as the workbench does, then checked and rendered.
/// Each step either works or fails in one line; the document stays within the limits.
fn permalink_case(
    fortress: bool,
    fields: &[(prop::sample::Index, String)],
    ops: &[String],
) -> Result<(), TestCaseError> {
    use dungeonsmith::document::Game;
    use dungeonsmith::model::Format;
    let tables = shipped_tables();
    let game = if fortress { Game::Nw3 } else { Game::Myk };
    let names = game.query_fields();
    let mut pairs: Vec<(String, String)> =
        fields.iter().map(|(i, v)| (names[i.index(names.len())].to_string(), v.clone())).collect();
    pairs.extend(ops.iter().map(|o| ("op".to_string(), o.clone())));
    let what = format!("{pairs:?}");
    let params = match game.params_from_query(&dungeonsmith::permalink::Fields(&pairs)) {
        Ok(p) => p,
        Err(e) => return one_line(&what, &e),
    };
    let mut doc = match catch_unwind(AssertUnwindSafe(|| params.generate(tables, 5))) {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => return one_line(&what, &e),
        Err(_) => return Err(TestCaseError::fail(format!("{what}: generating panicked"))),
    };
    for op in ops {
        let Some((verb, rest)) = op.split_once(':') else { continue };
        let done = catch_unwind(AssertUnwindSafe(|| match verb {
            "reroll" => doc.reroll_path(tables, rest),
            "lock" => doc.lock(rest, true),
            "unlock" => doc.lock(rest, false),
            "rename" => match rest.split_once(':') {
                // The workbench's own rule for a name: not blank, at most 200 characters.
                Some((path, name)) if !name.trim().is_empty() && name.trim().chars().count() <= 200 => {
                    doc.rename(path, name.trim())
                }
                _ => Ok(()),
            },
            "regen" => match rest.parse::<u64>() {
                Ok(seed) => doc.regenerate(tables, seed).map(|d| doc = d),
                Err(_) => Ok(()),
            },
            _ => Ok(()),
        }));
        match done {
            Ok(Ok(())) => {}
            // The workbench stops at the first edit refused, in one line.
            Ok(Err(e)) => return one_line(&format!("{what}: {op}"), &e),
            Err(_) => return Err(TestCaseError::fail(format!("{what}: edit `{op}` panicked"))),
        }
    }
    let json = doc.json().map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    prop_assert!(json.len() as u64 <= dungeonsmith::input::SCENARIO_LIMIT, "{what}: {} bytes of JSON", json.len());
    let value: Value = serde_json::from_str(&json).unwrap();
    prop_assert_eq!(dungeonsmith::limits::exceeded(&value), None, "{}", what);
    let templates = dungeonsmith::render::text::Templates::load(None).unwrap();
    let rendered = catch_unwind(AssertUnwindSafe(|| {
        let _ = doc.check(tables);
        doc.render(tables, &[Format::Json, Format::Svg, Format::Md], &templates)
    }));
    match rendered {
        Ok(Ok(files)) => {
            let bytes: usize = files.iter().map(|f| f.bytes.len()).sum();
            prop_assert!(bytes as u64 <= OUTPUT_CEILING, "{what}: {bytes} bytes rendered");
        }
        Ok(Err(e)) => one_line(&what, &e)?,
        Err(_) => return Err(TestCaseError::fail(format!("{what}: check or render panicked"))),
    }
    Ok(())
}

fn permalink_fields() -> impl Strategy<Value = Vec<(prop::sample::Index, String)>> {
    prop::collection::vec((any::<prop::sample::Index>(), field_values()), 0..4)
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn permalinks_replayed_never_panic_and_stay_within_the_limits(
        fortress in any::<bool>(),
        fields in permalink_fields(),
        ops in prop::collection::vec(ops(), 0..6),
    ) {
        permalink_case(fortress, &fields, &ops)?;
    }
}

proptest! {
    #![proptest_config(config(LONG_CASES))]

    #[test]
    #[ignore = "minutes: run by .ci/run (--ignored fuzz::)"]
    fn permalinks_replayed_never_panic_at_length(
        fortress in any::<bool>(),
        fields in permalink_fields(),
        ops in prop::collection::vec(ops(), 0..12),
    ) {
        permalink_case(fortress, &fields, &ops)?;
    }
}
