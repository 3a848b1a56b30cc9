//! The Universal VTT map tells the truth (issue 22): a `.dd2vtt` read back as a VTT would — its
//! `line_of_sight` walls, its `portals` and its picture — is flooded cell by cell with every
//! portal closed, and each floor region must touch exactly the portals of one gate (a corridor:
//! its two doors; a stub or an entrance: its one door) or of one area. So no region joins two
//! gates, two areas never share floor, walls close every corridor (a region that is not a room
//! or a corridor is rock in the picture), and a secret corridor is rock in the picture.
//! Many more seeds (40 fortresses of every size 3-40, 1,000 MYK scenarios):
//! `scale::thousands_of_vtt_maps_flood_into_one_region_per_area_and_per_gate`.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use dungeonsmith::render::plan::Plan;
use resvg::tiny_skia::Pixmap;
use serde_json::Value;

/// What a map must join: rooms by key, and the pairs of rooms its corridors join.
pub(crate) struct Expect {
    pub joins: Vec<(String, String)>,
    /// Corridors with one end on the map (MYK entrances).
    pub ends: usize,
}

/// A unit grid edge: ('h', x, y) lies along row line y from x to x+1; ('v', x, y) along column
/// line x from y to y+1.
type Edge = (char, i64, i64);

fn pt(v: &Value) -> (i64, i64) {
    let f = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("not a number: {v}"));
    (f("x").round() as i64, f("y").round() as i64)
}

/// The unit grid edges a straight segment covers: ('h', x, y) is the edge along row line y from
/// x to x+1; ('v', x, y) along column line x from y to y+1.
fn unit_edges(a: (i64, i64), b: (i64, i64)) -> Vec<Edge> {
    if a.1 == b.1 {
        (a.0.min(b.0)..a.0.max(b.0)).map(|x| ('h', x, a.1)).collect()
    } else {
        assert_eq!(a.0, b.0, "walls and portals run along the grid: {a:?} {b:?}");
        (a.1.min(b.1)..a.1.max(b.1)).map(|y| ('v', a.0, y)).collect()
    }
}

/// The two cells either side of a unit edge.
fn sides(e: Edge) -> [(i64, i64); 2] {
    match e {
        ('h', x, y) => [(x, y - 1), (x, y)],
        (_, x, y) => [(x - 1, y), (x, y)],
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Look {
    Floor,
    Rock,
    Other,
}

/// Floods `text` (a `.dd2vtt`) and checks it against the plan's rooms and `expect`; returns the
/// number of (corridor regions, stub regions, secret regions).
pub(crate) fn flood(text: &str, plan: &Plan, expect: &Expect, what: &str) -> Result<(usize, usize, usize), String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))?;
    let (w, h) = pt(&v["resolution"]["map_size"]);
    let ppg = v["resolution"]["pixels_per_grid"].as_f64().expect("pixels_per_grid");
    let png = base64::engine::general_purpose::STANDARD.decode(v["image"].as_str().expect("image")).expect("base64");
    let pix = Pixmap::decode_png(&png).expect("a PNG");
    let look = |(x, y): (i64, i64)| {
        let c = pix.pixel(((x as f64 + 0.2) * ppg) as u32, ((y as f64 + 0.2) * ppg) as u32).expect("inside");
        match (c.red(), c.green(), c.blue()) {
            (r, g, b) if r > 200 && g > 200 && b > 190 => Look::Floor,
            (r, g, b) if (60..100).contains(&r) && (55..95).contains(&g) && (50..90).contains(&b) => Look::Rock,
            _ => Look::Other,
        }
    };
    let mut blocked: BTreeSet<Edge> = BTreeSet::new();
    for wall in v["line_of_sight"].as_array().expect("line_of_sight") {
        let p: Vec<(i64, i64)> = wall.as_array().expect("a polyline").iter().map(pt).collect();
        for s in p.windows(2) {
            blocked.extend(unit_edges(s[0], s[1]));
        }
    }
    // Each portal: its unit edges and whether it is secret.
    let mut portals: Vec<(Vec<Edge>, bool)> = Vec::new();
    for d in v["portals"].as_array().expect("portals") {
        let b: Vec<(i64, i64)> = d["bounds"].as_array().expect("bounds").iter().map(pt).collect();
        let e = unit_edges(b[0], b[1]);
        blocked.extend(e.iter().copied());
        portals.push((e, d["secret"] == Value::Bool(true)));
    }
    // Flood: region id per cell.
    let idx = |(x, y): (i64, i64)| (y * w + x) as usize;
    let mut region = vec![usize::MAX; (w * h) as usize];
    let mut regions = 0;
    for start in 0..(w * h) {
        if region[start as usize] != usize::MAX {
            continue;
        }
        let mut stack = vec![(start % w, start / w)];
        region[start as usize] = regions;
        while let Some((x, y)) = stack.pop() {
            for (nx, ny, e) in [
                (x + 1, y, ('v', x + 1, y)),
                (x - 1, y, ('v', x, y)),
                (x, y + 1, ('h', x, y + 1)),
                (x, y - 1, ('h', x, y)),
            ] {
                if nx < 0 || ny < 0 || nx >= w || ny >= h || blocked.contains(&e) || region[idx((nx, ny))] != usize::MAX
                {
                    continue;
                }
                region[idx((nx, ny))] = regions;
                stack.push((nx, ny));
            }
        }
        regions += 1;
    }
    // The rooms' regions: one each, never shared.
    let mut room_of: BTreeMap<usize, String> = BTreeMap::new();
    for r in &plan.rooms {
        let rg = region[idx((i64::from(r.x), i64::from(r.y)))];
        for y in r.y..r.y + r.h {
            for x in r.x..r.x + r.w {
                if region[idx((i64::from(x), i64::from(y)))] != rg {
                    return Err(format!("{what}: room {} is split by a wall", r.key));
                }
            }
        }
        if let Some(other) = room_of.insert(rg, r.key.clone()) {
            return Err(format!("{what}: rooms {other} and {} share floor", r.key));
        }
    }
    // Every portal joins a room to a corridor; gather each corridor region's portals.
    let mut corridor: BTreeMap<usize, Vec<(String, bool)>> = BTreeMap::new();
    for (edges, secret) in &portals {
        let [a, b] = sides(edges[0]);
        let (ra, rb) = (region[idx(a)], region[idx(b)]);
        let (room, other) = match (room_of.get(&ra), room_of.get(&rb)) {
            (Some(k), None) => (k, rb),
            (None, Some(k)) => (k, ra),
            _ => return Err(format!("{what}: a portal at {:?} does not join a room to a corridor", edges[0])),
        };
        corridor.entry(other).or_default().push((room.clone(), *secret));
    }
    let mut joins: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (a, b) in &expect.joins {
        *joins.entry((a.clone().min(b.clone()), a.clone().max(b.clone()))).or_default() += 1;
    }
    let (mut routed, mut stubs, mut secrets) = (0, 0, 0);
    for (rg, doors) in &corridor {
        let secret = doors.iter().all(|d| d.1);
        if doors.iter().any(|d| d.1) != secret {
            return Err(format!("{what}: a corridor with a secret door and an open one: {doors:?}"));
        }
        secrets += usize::from(secret);
        match doors.as_slice() {
            [_] => stubs += 1,
            [(a, _), (b, _)] => {
                let key = (a.clone().min(b.clone()), a.clone().max(b.clone()));
                match joins.get_mut(&key) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => return Err(format!("{what}: a corridor joins {a} and {b}, which no gate joins")),
                }
                routed += 1;
            }
            more => return Err(format!("{what}: one floor region touches {} doors: {more:?}", more.len())),
        }
        // What the picture shows there: floor, or rock for a secret corridor.
        let want = if secret { Look::Rock } else { Look::Floor };
        for c in (0..w * h).filter(|&c| region[c as usize] == *rg) {
            let at = (c % w, c / w);
            if look(at) != want {
                return Err(format!("{what}: cell {at:?} of a corridor joining {doors:?} looks {:?}", look(at)));
            }
        }
    }
    // Everything else the walls enclose is rock in the picture, and rooms are floor.
    for c in 0..w * h {
        let at = (c % w, c / w);
        let rg = region[c as usize];
        let want = if room_of.contains_key(&rg) {
            Look::Floor
        } else if corridor.contains_key(&rg) {
            continue;
        } else {
            Look::Rock
        };
        if look(at) != want {
            return Err(format!("{what}: cell {at:?} looks {:?}, not {want:?}", look(at)));
        }
    }
    // Every gate is there: routed, or a stub at each end.
    let left: usize = joins.values().sum();
    if stubs != 2 * left + expect.ends {
        return Err(format!("{what}: {left} joins not routed, {stubs} stubs, {} entrances", expect.ends));
    }
    Ok((routed, stubs, secrets))
}

/// The fortress's plan, its `.dd2vtt` and what it must join.
pub(crate) fn fortress_case(f: &dungeonsmith::nw3::Fortress) -> (Plan, String, Expect) {
    let plan = dungeonsmith::render::plan::fortress_plan(f);
    let text = dungeonsmith::render::uvtt::uvtt(&plan, "fortress.dd2vtt").expect("a dd2vtt");
    let joins =
        f.gates.iter().filter(|g| g.from != g.to).map(|g| (g.from.to_string(), g.to.to_string())).collect::<Vec<_>>();
    (plan, text, Expect { joins, ends: 0 })
}

/// Each map's plan, `.dd2vtt` and what it must join.
pub(crate) fn myk_cases(s: &dungeonsmith::myk::Scenario) -> Vec<(Plan, String, Expect)> {
    s.maps
        .iter()
        .map(|m| {
            let plan = dungeonsmith::render::plan::myk_plan(m);
            let text = dungeonsmith::render::uvtt::uvtt(&plan, "map.dd2vtt").expect("a dd2vtt");
            let joins = m.corridors.iter().map(|k| (k.a.to_string(), k.b.to_string())).collect();
            (plan, text, Expect { joins, ends: m.entrances.len() })
        })
        .collect()
}

#[test]
fn every_fortress_size_floods_into_one_region_per_area_and_per_gate() {
    let tables = dungeonsmith::tables::Tables::load(None).unwrap();
    let mut secret = 0;
    // Every size 3-40 over hundreds of seeds: the scale test; here a spread of sizes.
    for areas in [3u32, 4, 5, 6, 8, 10, 13, 16, 20, 24, 30, 35, 40] {
        let seed = u64::from(areas);
        let p = dungeonsmith::nw3::FortressParams { party: 4, cl: 5, areas, ..Default::default() };
        let f = dungeonsmith::nw3::generate(&tables, &p, seed).unwrap();
        let (plan, text, expect) = fortress_case(&f);
        let (_, _, s) = flood(&text, &plan, &expect, &format!("fortress seed {seed}, {areas} areas"))
            .unwrap_or_else(|e| panic!("{e}"));
        secret += s;
    }
    assert!(secret > 0, "some fortress has a secret gate, drawn as rock");
}

#[test]
fn myk_maps_flood_into_one_region_per_room_and_per_corridor_and_hide_the_secret_corridor() {
    let tables = dungeonsmith::tables::Tables::load(None).unwrap();
    let mut secret = 0;
    for seed in 0..40u64 {
        let layout = [
            dungeonsmith::myk::model::Layout::Straight,
            dungeonsmith::myk::model::Layout::Junction,
            dungeonsmith::myk::model::Layout::Mixed,
        ][seed as usize % 3];
        let p = dungeonsmith::myk::MykParams {
            levels: vec![3; 4],
            maps: 1 + seed as u32 % 2,
            rooms: 5,
            layout,
            objective: None,
            ..Default::default()
        };
        let s = dungeonsmith::myk::generate(&tables, &p, seed).unwrap();
        for (i, (plan, text, expect)) in myk_cases(&s).iter().enumerate() {
            let (_, _, s) =
                flood(text, plan, expect, &format!("myk seed {seed} map {}", i + 1)).unwrap_or_else(|e| panic!("{e}"));
            secret += s;
        }
    }
    // `myk --seed 1`: the A2-B2 corridor behind a Secret Door is rock until the GM opens it.
    let dir = crate::vtt::temp("flood-myk-1");
    let (code, _, err) = crate::run(&["myk", "--seed", "1", "--format", "json,uvtt", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let s: dungeonsmith::myk::Scenario =
        serde_json::from_str(&std::fs::read_to_string(dir.join("myk-1.json")).unwrap()).unwrap();
    let (plan, _, expect) = &myk_cases(&s)[0];
    let text = std::fs::read_to_string(dir.join("myk-1-map1.dd2vtt")).unwrap();
    let (_, _, hidden) = flood(&text, plan, expect, "myk seed 1").unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).ok();
    assert!(hidden >= 1 && secret >= 1, "the Secret Door's corridor is a secret region");
}

#[test]
fn a_hand_edited_fortress_that_must_cross_floods_true_through_the_search_router() {
    let tables = dungeonsmith::tables::Tables::load(None).unwrap();
    let p = dungeonsmith::nw3::FortressParams { areas: 14, ..Default::default() };
    let f = dungeonsmith::nw3::generate(&tables, &p, 5).unwrap();
    // A GM's extra gates: the Entrance straight to the Core (across every row), the Core to the
    // area beside it (within a row), and the first and last areas of a row to each other's
    // neighbours below (crossing).
    let mut v = serde_json::to_value(&f).unwrap();
    let last = f.areas.last().unwrap().id;
    let gates = v["gates"].as_array_mut().unwrap();
    for (a, b) in [(1, last), (last, last - 1), (2, last - 2), (3, 4)] {
        gates.push(serde_json::json!({"from": a, "to": b, "kind": "normal"}));
    }
    let edited: dungeonsmith::nw3::Fortress = serde_json::from_value(v).unwrap();
    assert!(!dungeonsmith::nw3::layout::layout(&edited).clean(), "the edit cannot be drawn clean");
    let (plan, text, expect) = fortress_case(&edited);
    flood(&text, &plan, &expect, "hand-edited fortress").unwrap_or_else(|e| panic!("{e}"));
}
