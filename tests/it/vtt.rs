//! Universal VTT exports (`*.dd2vtt`): the fields importers read, and walls and doors that line up
//! with what the picture draws.

use std::path::{Path, PathBuf};

use base64::Engine;
use resvg::tiny_skia::Pixmap;
use serde_json::Value;

use crate::run;

pub(crate) fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dungeonsmith-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn point(v: &Value) -> (f64, f64) {
    (num(&v["x"]), num(&v["y"]))
}

/// The pixel under grid point `p` (clamped into the picture).
fn pixel(pix: &Pixmap, ppg: f64, p: (f64, f64)) -> (u8, u8, u8) {
    let x = ((p.0 * ppg).floor() as u32).min(pix.width() - 1);
    let y = ((p.1 * ppg).floor() as u32).min(pix.height() - 1);
    let c = pix.pixel(x, y).expect("inside");
    (c.red(), c.green(), c.blue())
}

fn is_wall(c: (u8, u8, u8)) -> bool {
    c.0 < 60 && c.1 < 60 && c.2 < 60
}

fn is_rock(c: (u8, u8, u8)) -> bool {
    (60..100).contains(&c.0) && (55..95).contains(&c.1) && (50..90).contains(&c.2)
}

fn is_floor(c: (u8, u8, u8)) -> bool {
    c.0 > 200 && c.1 > 200 && c.2 > 190
}

fn is_door(c: (u8, u8, u8)) -> bool {
    c.0 > 120 && c.0 > c.1 + 30 && c.1 > c.2 + 30
}

/// Checks one `.dd2vtt` document: the fields Dungeondraft writes, the picture's size, every wall
/// drawn where it is declared, every door drawn across an opening between two floor cells.
/// Returns (walls, doors, secret doors).
pub(crate) fn check_uvtt(text: &str, what: &str) -> (usize, usize, usize) {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
    assert_eq!(num(&v["format"]), 0.3, "{what}");
    let res = &v["resolution"];
    assert_eq!(point(&res["map_origin"]), (0.0, 0.0), "{what}");
    let (w, h) = point(&res["map_size"]);
    let ppg = num(&res["pixels_per_grid"]);
    assert!(w >= 10.0 && h >= 10.0 && ppg >= 50.0, "{what}: {w}x{h} cells at {ppg}");
    assert!(v["lights"].as_array().is_some(), "{what}: lights");
    let png = base64::engine::general_purpose::STANDARD.decode(v["image"].as_str().expect("image")).expect("base64");
    let pix = Pixmap::decode_png(&png).expect("a PNG");
    assert_eq!((pix.width() as f64, pix.height() as f64), (w * ppg, h * ppg), "{what}: picture size");

    let walls = v["line_of_sight"].as_array().expect("line_of_sight");
    assert!(!walls.is_empty(), "{what}: no walls");
    for wall in walls {
        let pts: Vec<(f64, f64)> = wall.as_array().expect("a polyline").iter().map(point).collect();
        assert!(pts.len() >= 2, "{what}: wall {wall}");
        for seg in pts.windows(2) {
            let (a, b) = (seg[0], seg[1]);
            assert!(a.0 == b.0 || a.1 == b.1, "{what}: walls run along the grid: {wall}");
            let len = (b.0 - a.0).abs() + (b.1 - a.1).abs();
            let steps = (len * 4.0) as usize;
            for i in 0..=steps {
                let t = i as f64 / steps as f64;
                let p = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
                // Drawn, or the wall of a secret corridor: rock on both sides in the picture.
                let (l, r) = if a.1 == b.1 {
                    ((p.0, p.1 - 0.3), (p.0, p.1 + 0.3))
                } else {
                    ((p.0 - 0.3, p.1), (p.0 + 0.3, p.1))
                };
                assert!(
                    is_wall(pixel(&pix, ppg, p)) || (is_rock(pixel(&pix, ppg, l)) && is_rock(pixel(&pix, ppg, r))),
                    "{what}: wall {wall} not drawn at {p:?}: {:?}",
                    pixel(&pix, ppg, p)
                );
            }
        }
    }

    let portals = v["portals"].as_array().expect("portals");
    let mut secret = 0;
    for d in portals {
        let b: Vec<(f64, f64)> = d["bounds"].as_array().expect("bounds").iter().map(point).collect();
        assert_eq!(b.len(), 2, "{what}: {d}");
        let pos = point(&d["position"]);
        assert_eq!(pos, ((b[0].0 + b[1].0) / 2.0, (b[0].1 + b[1].1) / 2.0), "{what}: door centre {d}");
        assert_eq!(d["closed"], Value::Bool(true), "{what}: {d}");
        assert_eq!(d["freestanding"], Value::Bool(false), "{what}: {d}");
        assert!(d["rotation"].is_number(), "{what}: {d}");
        let hidden = d["secret"] == Value::Bool(true);
        secret += usize::from(hidden);
        let horizontal = b[0].1 == b[1].1;
        for t in [0.3, 0.5, 0.7] {
            let p = (b[0].0 + (b[1].0 - b[0].0) * t, b[0].1 + (b[1].1 - b[0].1) * t);
            let c = pixel(&pix, ppg, p);
            if hidden {
                assert!(is_wall(c), "{what}: secret door {d} must look like wall at {p:?}: {c:?}");
            } else {
                assert!(is_door(c), "{what}: door {d} not drawn at {p:?}: {c:?}");
            }
            // Floor on both sides: the door closes an opening (behind a secret door, the rock
            // the players see until it opens).
            let (before, after) =
                if horizontal { ((p.0, p.1 - 0.3), (p.0, p.1 + 0.3)) } else { ((p.0 - 0.3, p.1), (p.0 + 0.3, p.1)) };
            let (before, after) = (pixel(&pix, ppg, before), pixel(&pix, ppg, after));
            let open = if hidden {
                (is_floor(before) && is_rock(after)) || (is_rock(before) && is_floor(after))
            } else {
                is_floor(before) && is_floor(after)
            };
            assert!(open, "{what}: door {d} is not in an opening: {before:?} {after:?}");
        }
    }
    (walls.len(), portals.len(), secret)
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("out dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

#[test]
fn myk_uvtt_walls_and_doors_line_up_with_the_drawn_map() {
    let dir = temp("uvtt-myk");
    let (code, out, err) =
        run(&["myk", "--seed", "42", "--maps", "2", "--format", "uvtt", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let maps = files(&dir, "dd2vtt");
    assert_eq!(maps.len(), 2, "{out}");
    assert!(out.contains("myk-42-map1.dd2vtt") && out.contains("myk-42-map2.dd2vtt"), "{out}");
    for m in &maps {
        let (walls, doors, _) = check_uvtt(&std::fs::read_to_string(m).unwrap(), &m.display().to_string());
        assert!(walls >= 4 && doors >= 2, "{}: {walls} walls, {doors} doors", m.display());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_secret_door_is_closed_marked_and_drawn_as_wall() {
    // Some seed hides a corridor behind a Secret Door trap; its doors are marked secret.
    let mut found = false;
    for seed in 0..60u64 {
        let dir = temp(&format!("uvtt-secret-{seed}"));
        let (code, _, err) =
            run(&["myk", "--seed", &seed.to_string(), "--format", "json,uvtt", "--out", dir.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let json = std::fs::read_to_string(dir.join(format!("myk-{seed}.json"))).unwrap();
        let hidden = json.contains("\"corridor\": \"");
        let text = std::fs::read_to_string(dir.join(format!("myk-{seed}-map1.dd2vtt"))).unwrap();
        let (_, _, secret) = check_uvtt(&text, &format!("seed {seed}"));
        assert_eq!(hidden, secret > 0, "seed {seed}: a hidden corridor has secret doors, and only then");
        std::fs::remove_dir_all(&dir).ok();
        if hidden {
            found = true;
            break;
        }
    }
    assert!(found, "no seed in 0..60 hides a corridor");
}

#[test]
fn fortress_uvtt_walls_and_doors_line_up_with_the_drawn_map() {
    for (seed, areas) in [(7u64, "10"), (3, "18"), (11, "5")] {
        let dir = temp(&format!("uvtt-nw3-{seed}"));
        let (code, _, err) = run(&[
            "fortress",
            "--seed",
            &seed.to_string(),
            "--areas",
            areas,
            "--format",
            "json,uvtt",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(dir.join(format!("fortress-{seed}.dd2vtt"))).unwrap();
        let f: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("fortress-{seed}.json"))).unwrap()).unwrap();
        let gates = f["gates"].as_array().unwrap();
        let secret_gates = gates.iter().filter(|g| g["kind"] == "secret").count();
        let (_, doors, secret) = check_uvtt(&text, &format!("fortress seed {seed}"));
        assert!(doors >= gates.len(), "seed {seed}: {doors} doors for {} gates", gates.len());
        assert!(secret >= secret_gates, "seed {seed}: {secret} secret doors for {secret_gates} secret gates");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Every file of the given formats, by name, from a run into a fresh folder.
fn outputs(tag: &str, args: &[&str]) -> Vec<(String, Vec<u8>)> {
    let dir = temp(tag);
    let mut full: Vec<&str> = args.to_vec();
    let d = dir.to_str().unwrap().to_string();
    full.extend(["--out", &d]);
    let (code, _, err) = run(&full);
    assert_eq!(code, 0, "{err}");
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap())
        })
        .collect();
    v.sort();
    std::fs::remove_dir_all(&dir).ok();
    v
}

/// The export formats this module's tests cover.
pub(crate) const EXPORTS: &str = "uvtt,udonarium,pdf";

#[test]
fn exports_are_byte_identical_per_seed_and_from_render() {
    for (cmd, seed, stem) in [("myk", "42", "myk-42"), ("fortress", "7", "fortress-7")] {
        let formats = format!("json,{EXPORTS}");
        let a = outputs(&format!("same-a-{cmd}"), &[cmd, "--seed", seed, "--format", &formats]);
        let b = outputs(&format!("same-b-{cmd}"), &[cmd, "--seed", seed, "--format", &formats]);
        assert!(a.len() >= 2, "{cmd}: {:?}", a.iter().map(|x| &x.0).collect::<Vec<_>>());
        assert!(a == b, "{cmd}: two runs with seed {seed} differ");
        // `render FILE.json` writes the same exports.
        let dir = temp(&format!("same-json-{cmd}"));
        std::fs::create_dir_all(&dir).unwrap();
        let json = dir.join(format!("{stem}.json"));
        std::fs::write(&json, &a.iter().find(|x| x.0.ends_with(".json")).unwrap().1).unwrap();
        let r = outputs(&format!("same-r-{cmd}"), &["render", json.to_str().unwrap(), "--format", EXPORTS]);
        let exported: Vec<&(String, Vec<u8>)> = a.iter().filter(|x| !x.0.ends_with(".json")).collect();
        assert_eq!(r.iter().collect::<Vec<_>>(), exported, "{cmd}: render FILE.json differs");
        std::fs::remove_dir_all(&dir).ok();
    }
}
