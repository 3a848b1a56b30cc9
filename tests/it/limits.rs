//! The README's "Limits": the largest scenario accepted (areas, gates, maps, characters in a name
//! or text) and what it may cost. A file past a limit is refused in one line, exit 2, nothing
//! written; the largest accepted files render in every format within the stated ceiling (measured
//! on the optimised binary in a child process: `cargo test --profile bench --locked --test it --
//! --ignored limits::`, as .ci/run does).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dungeonsmith::limits;
use serde_json::{Value, json};

use crate::run;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ds-limits-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> String {
    p.to_string_lossy().to_string()
}

/// The generated scenario of `args` (which end in `--seed N`) as JSON.
fn generated(dir: &Path, args: &[&str]) -> Value {
    let out = dir.join("gen");
    let mut all = args.to_vec();
    let o = s(&out);
    all.extend(["--format", "json", "--out", &o]);
    let (code, _, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    let file = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .unwrap();
    let v = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    std::fs::remove_dir_all(&out).unwrap();
    v
}

/// A fortress of `n` areas: copies of a generated 40-area fortress side by side (ids renumbered),
/// each copy joined to the next by a damaged gate, the gate whose zigzag once grew without bound.
fn fortress_of(dir: &Path, n: usize) -> Value {
    let mut f = generated(dir, &["fortress", "--areas", "40", "--seed", "1"]);
    let areas = f["areas"].as_array().unwrap().clone();
    let gates = f["gates"].as_array().unwrap().clone();
    let k = areas.len();
    let (mut all_areas, mut all_gates) = (Vec::new(), Vec::new());
    for c in 0..n.div_ceil(k) {
        let shift = |id: &Value| json!(id.as_u64().unwrap() as usize + c * k);
        for a in &areas {
            let mut a = a.clone();
            a["id"] = shift(&a["id"]);
            if c > 0 && (a["kind"] == "entrance" || a["kind"] == "core") {
                a["kind"] = json!("normal");
            }
            if all_areas.len() < n {
                all_areas.push(a);
            }
        }
        for g in &gates {
            let mut g = g.clone();
            g["from"] = shift(&g["from"]);
            g["to"] = shift(&g["to"]);
            if g["from"].as_u64().unwrap() as usize <= n && g["to"].as_u64().unwrap() as usize <= n {
                all_gates.push(g);
            }
        }
        if c > 0 && c * k < n {
            all_gates.push(json!({ "from": c * k, "to": c * k + 1, "kind": "damaged", "opened_by": null, "uses": 2 }));
        }
    }
    f["areas"] = Value::Array(all_areas);
    f["gates"] = Value::Array(all_gates);
    f
}

/// `f` with gates added (plain ones, each between two areas not yet joined, far apart in the
/// list so the area map cannot draw them in rows) until it has `n`.
fn with_gates(mut f: Value, n: usize) -> Value {
    let areas = f["areas"].as_array().unwrap().len();
    let gates = f["gates"].as_array_mut().unwrap();
    let mut joined: std::collections::BTreeSet<(u64, u64)> =
        gates.iter().map(|g| (g["from"].as_u64().unwrap(), g["to"].as_u64().unwrap())).collect();
    let mut step = 7;
    while gates.len() < n {
        for a in 1..=areas as u64 {
            let b = (a - 1 + step) % areas as u64 + 1;
            if gates.len() < n && a != b && joined.insert((a.min(b), a.max(b))) {
                gates.push(json!({ "from": a, "to": b, "kind": "normal", "opened_by": null, "uses": null }));
            }
        }
        step += 13;
    }
    f
}

/// Every name and title in `v` made `NAME_CHARS` long and every descriptive text `text` long
/// (wide characters, so a byte count would overstate them). Names the rules look up in the tables
/// (monsters, traps) grow too: `render --force` draws what it is given.
fn longest(v: &mut Value, key: &str, text: usize) {
    const TEXTS: [&str; 8] =
        ["description", "effect", "text", "trailer", "objective", "introduction", "resolution", "summary"];
    match v {
        Value::String(s) if matches!(key, "name" | "title") || TEXTS.contains(&key) => {
            let n = if matches!(key, "name" | "title") { limits::NAME_CHARS } else { text };
            let mut grown: String = s.chars().chain(std::iter::repeat('語')).take(n).collect();
            std::mem::swap(s, &mut grown);
        }
        Value::Array(items) => items.iter_mut().for_each(|i| longest(i, key, text)),
        Value::Object(fields) => fields.iter_mut().for_each(|(k, i)| longest(i, k, text)),
        _ => {}
    }
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string(v).unwrap()).unwrap();
    s(&p)
}

#[test]
fn a_fortress_of_more_areas_than_the_limit_is_refused_in_one_line_and_nothing_is_written() {
    let d = temp("areas");
    let f = write(&d, "big.json", &fortress_of(&d, limits::AREAS + 1));
    let out = d.join("out");
    let o = s(&out);
    for args in [vec!["render", "--force", &f, "--out", &o], vec!["check", &f], vec!["fix", &f, "--out", &o]] {
        let (code, stdout, err) = run(&args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {err}");
        assert_eq!(
            err,
            format!(
                "error: `{f}`: `areas`: 501 entries; at most 500 areas in a fortress (the README's \"Limits\"); nothing done\n"
            )
        );
    }
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_title_of_a_mebibyte_is_refused_before_any_render() {
    let d = temp("title");
    let mut v = generated(&d, &["myk", "--seed", "1"]);
    v["title"] = json!("word ".repeat(1 << 18));
    let f = write(&d, "long.json", &v);
    let out = d.join("out");
    let (code, _, err) = run(&["render", "--format", "pdf", &f, "--out", &s(&out)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`title`: 1310720 characters; at most 200 characters in a name"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

/// Runs the optimised binary on `args` under a data ceiling of `CEILING_BYTES` (RLIMIT_DATA: an
/// allocation past it fails, and the run with it): its wall time and the peak resident set read
/// from `/proc/PID/status` (VmHWM) while it runs.
///
/// Why not wait4's `ru_maxrss`: Linux starts a spawned child's figure from the spawning process's
/// own peak (the exec carries the old memory's high-water mark over), and this test binary holds
/// the three largest files and runs the scale tests beside it: the figure measured the harness.
fn measured(args: &[&str]) -> (Duration, u64) {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let start = Instant::now();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_dungeonsmith"));
    command.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: CEILING_BYTES, rlim_max: CEILING_BYTES };
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut err = String::new();
        stderr.read_to_string(&mut err).unwrap();
        err
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let kib = std::fs::read_to_string(&status_file).ok().and_then(|s| {
            s.lines().find_map(|l| l.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
        });
        peak = peak.max(kib.unwrap_or(0) * 1024);
        std::thread::sleep(Duration::from_millis(2));
    };
    let took = start.elapsed();
    let err = reader.join().unwrap();
    let code = status.code();
    // Done, or refused in a clean last line (exit 2): a picture format may find the largest area
    // map too large a picture to draw, and says so. A run past the data ceiling aborts.
    let refused = code == Some(2) && err.lines().last().is_some_and(|l| l.starts_with("error: "));
    assert!(code == Some(0) || refused, "{args:?}: {status}: {err}");
    if refused {
        eprintln!("{args:?}: {}", err.lines().last().unwrap_or_default());
    }
    (took, peak)
}

/// The ceiling the README states for the largest accepted scenario, per format, on the optimised
/// binary (generous: the machine may be busy).
const CEILING_TIME: Duration = Duration::from_secs(30);
const CEILING_BYTES: u64 = 1 << 30;

/// The largest 40-map Make You Kingdom file the limits admit: every name at its limit, every
/// description `text` long, monster groups added to the rooms (copies of the scenario's own, one
/// monster each) until the counts add up to `limits::MONSTERS`, then traps (copies of its own)
/// until the file is just under the 8 MiB read limit.
fn fullest_myk(d: &Path) -> Value {
    let mut myk = generated(d, &["myk", "--maps", "20", "--seed", "1"]);
    let maps = myk["maps"].as_array().unwrap().clone();
    let mut all_maps = maps.clone();
    for (i, m) in maps.iter().enumerate() {
        let mut m = m.clone();
        m["index"] = json!(maps.len() + i + 1);
        all_maps.push(m);
    }
    assert_eq!(all_maps.len(), limits::MAPS);
    myk["maps"] = Value::Array(all_maps);
    longest(&mut myk, "", 1000);
    let rooms: Vec<(usize, usize)> = (0..limits::MAPS).flat_map(|m| (0..9).map(move |r| (m, r))).collect();
    let group = json!({ "name": "語".repeat(limits::NAME_CHARS), "level": 5, "effective_level": 5, "count": 1, "reaction": "neutral" });
    let trap = myk["maps"][0]["rooms"].as_array().unwrap().iter().find_map(|r| r["traps"].as_array()?.first().cloned());
    let mut trap = trap.expect("a trap to copy");
    trap["corridor"] = Value::Null;
    // The copies bring no monsters of their own (an Encounter trap's would count to the total).
    trap["monsters"] = json!([]);
    let size = |v: &Value| serde_json::to_string(v).unwrap().len() as u64;
    // Every count the limit adds up, wherever it stands (rooms, their traps, the encounter table).
    fn counts(v: &Value) -> u64 {
        match v {
            Value::Object(o) => {
                o.iter().map(|(k, x)| if k == "count" { x.as_u64().unwrap_or(0) } else { counts(x) }).sum()
            }
            Value::Array(a) => a.iter().map(counts).sum(),
            _ => 0,
        }
    }
    let mut monsters: u64 = counts(&myk);
    'groups: loop {
        for &(m, r) in &rooms {
            if monsters >= limits::MONSTERS {
                break 'groups;
            }
            myk["maps"][m]["rooms"][r]["monsters"].as_array_mut().unwrap().push(group.clone());
            monsters += 1;
        }
    }
    let per_trap = size(&trap) + 1;
    let mut left = dungeonsmith::input::SCENARIO_LIMIT.saturating_sub(size(&myk) + 4096);
    'traps: loop {
        for &(m, r) in &rooms {
            if left < per_trap {
                break 'traps;
            }
            myk["maps"][m]["rooms"][r]["traps"].as_array_mut().unwrap().push(trap.clone());
            left -= per_trap;
        }
    }
    myk
}

#[test]
#[ignore = "optimised build: cargo test --profile bench --locked --test it -- --ignored limits::"]
fn the_largest_accepted_scenarios_render_in_every_format_within_the_ceiling() {
    let d = temp("largest");
    let mut fortress = fortress_of(&d, limits::AREAS);
    // Descriptions of 500 characters: at 1,000 the 500 areas' texts would pass the file limit.
    longest(&mut fortress, "", 500);
    // Every gate the limits admit, most of them off the area map's rows.
    let gates = with_gates(fortress.clone(), limits::GATES);
    let myk = fullest_myk(&d);
    let files = [write(&d, "fortress.json", &fortress), write(&d, "gates.json", &gates), write(&d, "myk.json", &myk)];
    for f in &files {
        let size = std::fs::metadata(f).unwrap().len();
        assert!(size <= dungeonsmith::input::SCENARIO_LIMIT, "{f}: {size} bytes is past the read limit");
        assert_eq!(
            run(&["check", f]).2.lines().filter(|l| l.contains("Limits")).count(),
            0,
            "{f} is within every limit"
        );
        for format in ["json", "svg", "md", "html", "pdf", "uvtt", "udonarium", "dot"] {
            let out = d.join(format!("out-{format}"));
            let (took, rss) = measured(&["render", "--force", "--format", format, f, "--out", &s(&out)]);
            eprintln!("{f} ({} KiB) {format}: {took:?}, peak rss {} MB", size >> 10, rss >> 20);
            assert!(took < CEILING_TIME && rss < CEILING_BYTES, "{f} {format}: {took:?}, {rss} bytes");
            std::fs::remove_dir_all(&out).ok();
        }
    }
    std::fs::remove_dir_all(&d).ok();
}

/// The first `count` in `v`, in document order.
fn first_count(v: &mut Value) -> Option<&mut Value> {
    match v {
        Value::Object(fields) => {
            if fields.contains_key("count") {
                return fields.get_mut("count");
            }
            fields.values_mut().find_map(first_count)
        }
        Value::Array(items) => items.iter_mut().find_map(first_count),
        _ => None,
    }
}

#[test]
fn a_member_count_past_the_count_limit_is_refused_before_any_work_and_nothing_is_written() {
    let d = temp("count");
    let mut f = generated(&d, &["fortress", "--seed", "1"]);
    *first_count(&mut f).expect("a member count") = json!(i32::MAX);
    let f = write(&d, "many.json", &f);
    let out = d.join("out");
    let o = s(&out);
    let start = Instant::now();
    for args in [vec!["render", "--force", "--format", "udonarium", &f, "--out", &o], vec!["check", &f]] {
        let (code, stdout, err) = run(&args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(".count`: 2147483647; at most 100 (a count multiplies"), "{err}");
    }
    assert!(start.elapsed() < Duration::from_secs(30), "refused before the pieces are made");
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_plan_too_large_to_lay_out_is_refused_in_one_line_before_its_corridors_are_searched() {
    let d = temp("gates");
    let f = write(&d, "gates.json", &with_gates(fortress_of(&d, limits::AREAS), limits::GATES));
    let out = d.join("out");
    let start = Instant::now();
    for format in ["uvtt", "udonarium"] {
        let (code, _, err) = run(&["render", "--force", "--format", format, &f, "--out", &s(&out)]);
        assert_eq!(code, 2, "{format}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.contains(
                "the plan of 500 areas and 2000 gates, which the area map cannot draw in rows, is too large to lay out"
            ),
            "{format}: {last}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(120), "refused before the search: {:?}", start.elapsed());
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(&d).ok();
}
