//! NW3 area maps (SVG): they parse, render with the shipped fonts at the paper's size, keep their
//! text apart and on the page, escape user text, and are byte-stable.

use std::sync::OnceLock;

use dungeonsmith::model::Paper;
use dungeonsmith::nw3::model::{Area, AreaKind, Gate, GateKind};
use dungeonsmith::nw3::{Fortress, FortressParams, generate};
use dungeonsmith::render::Audience;
use dungeonsmith::render::area_map::{fortress_map, fortress_workbench_map};
use dungeonsmith::tables::Tables;

use crate::sheet::{assert_text_fits, attr, dark_pixels, parse, render, targets, text_boxes};

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

/// A generated fortress with its texts filled, as the renderers hand it to the map.
fn fortress(seed: u64, cl: u32, areas: u32) -> Fortress {
    let f = generate(tables(), &FortressParams { party: 4, cl, areas, ..Default::default() }, seed).expect("generates");
    dungeonsmith::nw3::text::filled(&f)
}

/// The program and tables versions blanked, so snapshots change only when the map does.
fn golden(mut f: Fortress) -> Fortress {
    f.generator.version = "[version]".into();
    f.generator.tables = "[tables]".into();
    f
}

/// A spread of fortresses: 3, 10, 25 and 40 areas, several seeds and character levels.
fn cases() -> Vec<Fortress> {
    let mut v = Vec::new();
    for (i, areas) in [3u32, 10, 25, 40].into_iter().enumerate() {
        for (j, seed) in [1u64, 42, 2024].into_iter().enumerate() {
            let cl = [1, 3, 8, 15, 20][(i + j) % 5];
            v.push(fortress(seed, cl, areas));
        }
    }
    v
}

#[test]
fn every_map_parses_and_renders_non_blank_at_the_papers_size() {
    for f in cases() {
        for paper in [Paper::A4, Paper::Letter] {
            for copy in [Audience::Gm, Audience::Players] {
                let svg = fortress_map(&f, tables(), paper, copy);
                let what = format!("seed {} areas {} cl {} {paper:?} {copy:?}", f.seed, f.areas.len(), f.party.cl);
                assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{what}");
                assert!(!svg.contains("<image") && !svg.contains("@import") && !svg.contains("href"), "{what}");
                assert!(!svg.contains("@font-face") && !svg.contains("http://www.w3.org/1999/xlink"), "{what}");
                let tree = parse(&svg);
                let (w, h) = paper.size_mm();
                let px = 96.0 / 25.4;
                assert!((tree.size().width() - w as f32 * px).abs() < 0.5, "{what}: width");
                assert!((tree.size().height() - h as f32 * px).abs() < 0.5, "{what}: height");
                let pix = render(&tree, paper, 1.0);
                let expect = match paper {
                    Paper::A4 => (210, 297),
                    Paper::Letter => (216, 279),
                };
                assert_eq!((pix.width(), pix.height()), expect, "{what}");
                // The players' copy is mostly room to write in, and a 3-area map mostly paper.
                let least = if copy == Audience::Gm { 300 } else { 250 };
                assert!(dark_pixels(&pix) > least, "{what}: blank ({} dark pixels)", dark_pixels(&pix));
                // Text was laid out with the shipped fonts (no font: no glyphs, empty boxes).
                let boxes = text_boxes(&tree);
                assert!(boxes.len() > 5, "{what}");
                for (x0, y0, x1, y1, t) in &boxes {
                    assert!(x1 > x0 && y1 > y0, "{what}: `{t}` has no glyphs");
                }
                if copy == Audience::Gm {
                    // Every area's number is drawn.
                    for a in &f.areas {
                        assert!(boxes.iter().any(|b| b.4 == a.id.to_string()), "{what}: no area {}", a.id);
                    }
                }
            }
        }
    }
}

#[test]
fn rendered_text_never_overlaps_and_stays_on_the_page() {
    for f in cases() {
        for paper in [Paper::A4, Paper::Letter] {
            for copy in [Audience::Gm, Audience::Players] {
                let tree = parse(&fortress_map(&f, tables(), paper, copy));
                let what = format!("seed {} areas {} {paper:?} {copy:?}", f.seed, f.areas.len());
                assert_text_fits(&tree, paper, &what);
            }
        }
    }
}

#[test]
fn user_text_with_markup_characters_is_escaped() {
    let mut f = fortress(42, 3, 10);
    let nasty = r#"<b>&"' Hall"#;
    f.title = format!("Title {nasty}");
    f.trailer = format!("Trailer {nasty}");
    for a in &mut f.areas {
        a.name = nasty.to_string();
    }
    for copy in [Audience::Gm, Audience::Players] {
        let svg = fortress_map(&f, tables(), Paper::A4, copy);
        assert!(!svg.contains("<b>"), "{copy:?}: raw markup in the SVG");
        assert!(svg.contains("&lt;b&gt;&amp;\"' Hall") || svg.contains("&lt;b&gt;&amp;&quot;&apos; Hall"), "{copy:?}");
        let tree = parse(&svg);
        let texts: Vec<String> = text_boxes(&tree).into_iter().map(|b| b.4).collect();
        assert!(texts.iter().any(|t| t.contains(nasty)), "{copy:?}: the text reads back as written: {texts:?}");
        assert!(texts.iter().any(|t| t == &format!("Title {nasty}")), "{copy:?}: title");
    }
}

#[test]
fn the_same_fortress_gives_byte_identical_maps() {
    for (seed, areas) in [(7, 10), (99, 40), (5, 3)] {
        let a = fortress(seed, 3, areas);
        let b = fortress(seed, 3, areas);
        for paper in [Paper::A4, Paper::Letter] {
            for copy in [Audience::Gm, Audience::Players] {
                assert_eq!(fortress_map(&a, tables(), paper, copy), fortress_map(&b, tables(), paper, copy));
            }
        }
    }
    // A re-read JSON file draws the same map as the fortress it came from.
    let f = fortress(31, 5, 25);
    let back = Fortress::from_json(&f.to_json()).unwrap();
    assert_eq!(
        fortress_map(&f, tables(), Paper::A4, Audience::Gm),
        fortress_map(&back, tables(), Paper::A4, Audience::Gm)
    );
}

/// A gate line's points (mm).
type Polyline = Vec<(f64, f64)>;

/// The gate lines (`-gate-` ids: straight pieces) and area circles (`-area-` ids) of a GM map,
/// read back from the SVG text, in mm.
fn gates_and_areas(svg: &str) -> (Vec<Polyline>, Vec<(f64, f64, f64)>) {
    let attr = |el: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        el.find(&key).map(|i| el[i + key.len()..].split('"').next().unwrap_or_default().to_string())
    };
    let num = |v: Option<String>| v.and_then(|v| v.parse::<f64>().ok()).expect("a number");
    let (mut lines, mut circles) = (Vec::new(), Vec::new());
    for el in svg.split('<').map(|e| e.split('>').next().unwrap_or_default()) {
        let id = attr(el, "id").unwrap_or_default();
        if el.starts_with("path ") && id.contains("-gate-") {
            // `M x y L x y … M x y L …`: each M starts a new piece.
            let d = attr(el, "d").expect("d");
            let mut cur: Vec<(f64, f64)> = Vec::new();
            let mut toks = d.split_whitespace().peekable();
            while let Some(t) = toks.next() {
                let (cmd, x) = t.split_at(1);
                let y: f64 = toks.next().expect("y").parse().expect("y");
                let x: f64 = x.parse().expect("x");
                if cmd == "M" && cur.len() > 1 {
                    lines.push(std::mem::take(&mut cur));
                } else if cmd == "M" {
                    cur.clear();
                }
                cur.push((x, y));
            }
            if cur.len() > 1 {
                lines.push(cur);
            }
        } else if el.starts_with("circle ") && id.contains("-area-") {
            circles.push((num(attr(el, "cx")), num(attr(el, "cy")), num(attr(el, "r"))));
        }
    }
    (lines, circles)
}

fn seg_dist(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 < 1e-12 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0) };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

/// Whether the segment a–b passes through the box (Liang–Barsky).
fn seg_hits_box(a: (f64, f64), b: (f64, f64), x0: f64, y0: f64, x1: f64, y1: f64) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - x0), (dx, x1 - a.0), (-dy, a.1 - y0), (dy, y1 - a.1)] {
        if p.abs() < 1e-12 {
            if q < 0.0 {
                return false;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// The map's promises, checked on the SVG as written and laid out by resvg with the shipped
/// fonts: no gate line crosses a circle other than its own two areas', or any text (labels,
/// notes, marks, numbers); no two texts overlap and all stay on the page.
fn assert_gates_clear(svg: &str, paper: Paper, what: &str) {
    let tree = parse(svg);
    assert_text_fits(&tree, paper, what);
    let texts = text_boxes(&tree);
    let (lines, circles) = gates_and_areas(svg);
    assert!(!circles.is_empty(), "{what}: no area circles found");
    // A piece of a line belongs to the areas its first and last points touch.
    for pts in &lines {
        let touches = |p: (f64, f64)| -> Vec<usize> {
            (0..circles.len())
                .filter(|&j| {
                    (((p.0 - circles[j].0).powi(2) + (p.1 - circles[j].1).powi(2)).sqrt() - circles[j].2).abs() < 0.3
                })
                .collect()
        };
        let mut own = touches(pts[0]);
        own.extend(touches(pts[pts.len() - 1]));
        for w in pts.windows(2) {
            for (j, &(x, y, r)) in circles.iter().enumerate() {
                if !own.contains(&j) {
                    assert!(
                        seg_dist((x, y), w[0], w[1]) > r,
                        "{what}: a gate line {w:?} crosses the circle at ({x}, {y})"
                    );
                }
            }
            for (x0, y0, x1, y1, t) in &texts {
                let (x0, y0, x1, y1) = (f64::from(*x0), f64::from(*y0), f64::from(*x1), f64::from(*y1));
                assert!(!seg_hits_box(w[0], w[1], x0, y0, x1, y1), "{what}: a gate line {w:?} crosses `{t}`");
            }
        }
    }
}

/// Every size the generator makes (3-40 areas), several seeds each, both papers: no gate line
/// over a label, a note or another area's circle, no text over text.
#[test]
fn no_gate_line_crosses_a_label_a_note_or_another_area_at_any_size() {
    for areas in 3u32..=40 {
        for k in 0..3u64 {
            let seed = u64::from(areas) * 101 + k * 7919;
            let (party, cl) = (1 + (seed % 8) as u32, 1 + (seed % 20) as u32);
            let f = generate(tables(), &FortressParams { party, cl, areas, ..Default::default() }, seed)
                .expect("generates");
            for paper in [Paper::A4, Paper::Letter] {
                let what = format!("seed {seed} areas {areas} party {party} cl {cl} {paper:?}");
                assert_gates_clear(&fortress_map(&f, tables(), paper, Audience::Gm), paper, &what);
            }
        }
    }
    // The two maps of the bug report.
    for (seed, areas, party, cl, paper) in [(9, 25, 2, 20, Paper::Letter), (1, 40, 6, 12, Paper::A4)] {
        let f =
            generate(tables(), &FortressParams { party, cl, areas, ..Default::default() }, seed).expect("generates");
        assert_gates_clear(
            &fortress_map(&f, tables(), paper, Audience::Gm),
            paper,
            &format!("seed {seed} areas {areas}"),
        );
    }
}

/// Hand-edited files: a 10,000-character name, thousands of doubled gates, 64 areas in a chain;
/// each still draws without a line over text (and quickly: see benches/area_map.rs).
#[test]
fn hand_edited_giants_still_draw_without_crossings() {
    let mut f = fortress(9, 3, 10);
    f.areas[2].name = "Long ".repeat(2000);
    f.areas[3].name = "x".repeat(10_000);
    f.title = "T".repeat(10_000);
    assert_gates_clear(&fortress_map(&f, tables(), Paper::A4, Audience::Gm), Paper::A4, "long names");
    let mut f = fortress(9, 3, 3);
    let g = f.gates[0].clone();
    f.gates = vec![g; 2000];
    let svg = fortress_map(&f, tables(), Paper::A4, Audience::Gm);
    assert_gates_clear(&svg, Paper::A4, "doubled gates");
    assert!(svg.contains("not drawn (\u{00d7}"), "the gates left out are counted");
    let mut f = fortress(9, 3, 40);
    let mut extra = Vec::new();
    for i in 0..24u32 {
        let mut a = f.areas[1].clone();
        a.id = 100 + i;
        extra.push(a);
    }
    f.areas.extend(extra);
    let mut g = f.gates[0].clone();
    for i in 0..24u32 {
        g.from = if i == 0 { f.areas[0].id } else { 99 + i };
        g.to = 100 + i;
        f.gates.push(g.clone());
    }
    assert_gates_clear(&fortress_map(&f, tables(), Paper::Letter, Audience::Gm), Paper::Letter, "a long chain");
}

/// GM and players' maps of seed 7 with the default options; several can share an HTML page.
#[test]
fn area_map_seed_7_snapshots() {
    let f = golden(fortress(7, 3, 10));
    let gm = fortress_map(&f, tables(), Paper::A4, Audience::Gm);
    let players = fortress_map(&f, tables(), Paper::A4, Audience::Players);
    for (svg, least) in [(&gm, 15_000), (&players, 8_000)] {
        let pix = render(&parse(svg), Paper::A4, 4.0);
        assert_eq!((pix.width(), pix.height()), (840, 1188));
        assert!(dark_pixels(&pix) > least, "{}", dark_pixels(&pix));
    }
    // Ids are unique per sheet, so the two maps (and the MYK sheets) can be inlined in one page.
    let ids = |svg: &str| -> Vec<String> {
        svg.split(" id=\"").skip(1).map(|s| s.split('"').next().unwrap().to_string()).collect()
    };
    for id in ids(&gm) {
        assert!(!ids(&players).contains(&id), "id {id} on both maps");
    }
    insta::assert_snapshot!("area_map_seed_7_gm", gm);
    insta::assert_snapshot!("area_map_seed_7_players", players);
}

/// Each gate line of a GM map as its straight pieces (a gate's id, then its pieces), read back
/// from the SVG text.
fn gate_pieces(svg: &str) -> Vec<(String, Vec<Polyline>)> {
    let attr = |el: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        el.find(&key).map(|i| el[i + key.len()..].split('"').next().unwrap_or_default().to_string())
    };
    let mut out = Vec::new();
    for el in svg.split('<').map(|e| e.split('>').next().unwrap_or_default()) {
        let id = attr(el, "id").unwrap_or_default();
        if !(el.starts_with("path ") && id.contains("-gate-")) {
            continue;
        }
        let d = attr(el, "d").expect("d");
        let (mut pieces, mut cur): (Vec<Polyline>, Polyline) = (Vec::new(), Vec::new());
        let mut toks = d.split_whitespace();
        while let Some(t) = toks.next() {
            let (cmd, x) = t.split_at(1);
            let y: f64 = toks.next().expect("y").parse().expect("y");
            if cmd == "M" && cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            } else if cmd == "M" {
                cur.clear();
            }
            cur.push((x.parse().expect("x"), y));
        }
        if cur.len() > 1 {
            pieces.push(cur);
        }
        out.push((id, pieces));
    }
    out
}

/// Whether segments a–b and c–d cross or touch (shared end points included: two gate lines
/// never share a point, as each leaves its circle from a port of its own).
fn segments_meet(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let cross = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0);
    let (d1, d2, d3, d4) = (cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d));
    let on = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| {
        q.0 >= o.0.min(p.0) - 1e-9
            && q.0 <= o.0.max(p.0) + 1e-9
            && q.1 >= o.1.min(p.1) - 1e-9
            && q.1 <= o.1.max(p.1) + 1e-9
    };
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return true;
    }
    (d1.abs() < 1e-9 && on(c, d, a))
        || (d2.abs() < 1e-9 && on(c, d, b))
        || (d3.abs() < 1e-9 && on(a, b, c))
        || (d4.abs() < 1e-9 && on(a, b, d))
}

/// How many pairs of gate lines on a GM map cross (or touch), by the geometry of the SVG.
pub fn gate_crossings(svg: &str) -> usize {
    let gates = gate_pieces(svg);
    let boxes: Vec<(f64, f64, f64, f64)> = gates
        .iter()
        .map(|(_, ps)| {
            ps.iter().flatten().fold((f64::MAX, f64::MAX, f64::MIN, f64::MIN), |b, p| {
                (b.0.min(p.0), b.1.min(p.1), b.2.max(p.0), b.3.max(p.1))
            })
        })
        .collect();
    let mut count = 0;
    for i in 0..gates.len() {
        for j in i + 1..gates.len() {
            let (p, q) = (boxes[i], boxes[j]);
            if p.2 < q.0 || q.2 < p.0 || p.3 < q.1 || q.3 < p.1 {
                continue;
            }
            let meet = gates[i].1.iter().any(|a| {
                gates[j]
                    .1
                    .iter()
                    .any(|b| a.windows(2).any(|s| b.windows(2).any(|t| segments_meet(s[0], s[1], t[0], t[1]))))
            });
            count += usize::from(meet);
        }
    }
    count
}

#[test]
fn crossing_gate_lines_are_counted_by_their_geometry() {
    let svg = |paths: &[&str]| -> String {
        paths.iter().enumerate().map(|(i, d)| format!("<path id=\"m-gate-{i}\" d=\"{d}\"/>")).collect()
    };
    assert_eq!(gate_crossings(&svg(&["M0 0 L10 10", "M0 10 L10 0"])), 1, "an X");
    assert_eq!(gate_crossings(&svg(&["M0 0 L10 10", "M1 0 L11 10"])), 0, "parallel");
    assert_eq!(gate_crossings(&svg(&["M0 0 L4 4 M6 6 L10 10", "M0 10 L10 0"])), 0, "through the gap a mark leaves");
    assert_eq!(gate_crossings(&svg(&["M0 0 L10 10", "M0 10 L10 0", "M5 0 L5 10"])), 3, "three through one point");
}

/// The GM's map of fortress `seed` at `areas` on `paper`, and again after rerolling one area
/// whole (kind, name, contents), with the gate crossings counted on each SVG.
pub fn crossings_generated_and_rerolled(seed: u64, areas: u32, paper: Paper) -> (usize, usize) {
    use dungeonsmith::edit::nw3::{AreaPart, Nw3Part, reroll};
    let (party, cl) = (1 + (seed % 8) as u32, 1 + (seed % 20) as u32);
    let mut f =
        generate(tables(), &FortressParams { party, cl, areas, ..Default::default() }, seed).expect("generates");
    let before = gate_crossings(&fortress_map(&f, tables(), paper, Audience::Gm));
    let id = 2 + (seed % u64::from(areas - 1)) as u32;
    // An area the workbench will not reroll (the Core, an opener) is simply kept.
    let _ = reroll(tables(), &mut f, &Nw3Part::Area { id, what: AreaPart::All });
    (before, gate_crossings(&fortress_map(&f, tables(), paper, Audience::Gm)))
}

/// Generated fortresses draw without two gate lines crossing (counted on the SVG's geometry),
/// at every size 3-40, on both papers, and still after an area is rerolled. The thousands-of-
/// seeds version is `scale::generated_area_maps_never_cross_two_gates`.
#[test]
fn generated_area_maps_never_cross_two_gates() {
    for k in 0..304u64 {
        let areas = 3 + (k % 38) as u32;
        let paper = if k % 2 == 0 { Paper::A4 } else { Paper::Letter };
        let seed = k * 7919 + 1;
        let (made, rerolled) = crossings_generated_and_rerolled(seed, areas, paper);
        assert_eq!((made, rerolled), (0, 0), "seed {seed} areas {areas} {paper:?}: gate lines cross");
    }
    // Maps at 40 areas that once drew gates crossing where a layer was dealt over two rows.
    for seed in [55436, 197978, 293006] {
        for paper in [Paper::A4, Paper::Letter] {
            let (made, rerolled) = crossings_generated_and_rerolled(seed, 40, paper);
            assert_eq!((made, rerolled), (0, 0), "seed {seed} areas 40 {paper:?}: gate lines cross");
        }
    }
}

/// A fortress (hand-edited) of 28 areas: the Entrance opens onto 3 areas, each onto 4 more,
/// and each of those 12 onto one more: a drawing without crossings whose two lower layers are
/// too wide for one row of either paper.
fn wide_fan() -> Fortress {
    let mut f = fortress(9, 3, 3);
    let entrance = f.areas.iter().find(|a| a.kind == AreaKind::Entrance).expect("an Entrance").clone();
    let plain = f.areas.iter().find(|a| a.kind != AreaKind::Entrance).expect("an area").clone();
    let mut gate = f.gates[0].clone();
    (gate.kind, gate.opened_by, gate.uses) = (GateKind::Normal, None, None);
    f.areas = vec![Area { id: 1, ..entrance }];
    f.gates.clear();
    let parents = (0..3).map(|_| 1).chain((0..12).map(|k| 2 + k / 4)).chain(5..17);
    for (id, from) in (2u32..).zip(parents) {
        f.areas.push(Area { id, name: format!("Hall of the {id} Lanterns"), ..plain.clone() });
        f.gates.push(Gate { from, to: id, ..gate.clone() });
    }
    f
}

/// A layer too wide for one row is cut into runs of neighbouring areas on rows of their own,
/// the gates passing a run's row in the order the layout draws them: none cross, none run
/// closer than the gap, none over a label or another circle.
#[test]
fn a_layer_too_wide_for_a_row_is_cut_into_runs_whose_gates_never_cross() {
    let f = wide_fan();
    assert!(dungeonsmith::nw3::layout(&f).clean(), "the fan is drawable without crossings");
    for paper in [Paper::A4, Paper::Letter] {
        let svg = fortress_map(&f, tables(), paper, Audience::Gm);
        let (_, circles) = gates_and_areas(&svg);
        let rows = {
            let mut ys: Vec<i64> = circles.iter().map(|c| (c.1 * 10.0).round() as i64).collect();
            ys.sort_unstable();
            ys.dedup();
            ys.len()
        };
        assert!(rows >= 5, "{paper:?}: 24 areas a layer need more than one row each ({rows} rows)");
        assert_eq!(gate_crossings(&svg), 0, "{paper:?}: gate lines cross");
        assert_eq!(gates_too_close(&svg), Vec::new(), "{paper:?}: gate lines closer than the gap");
        assert_gates_clear(&svg, paper, &format!("wide fan {paper:?}"));
    }
}

#[test]
fn the_workbench_map_marks_each_area_on_the_circle_the_map_draws_it_as() {
    let mut all = vec![fortress(1, 3, 10), fortress(3, 8, 30)];
    all[0].areas[2].locked = true;
    for f in &all {
        let file = fortress_map(f, tables(), f.paper, Audience::Gm);
        assert!(!file.contains("data-area") && !file.contains("ds-hook"), "the file carries no targets");
        let served = fortress_workbench_map(f, tables(), f.paper);
        let start = served.find("\n<g class=\"ds-hooks\">").expect("targets");
        let end = served[start..].find("</g>").expect("closed") + start + "</g>".len();
        assert_eq!(format!("{}{}", &served[..start], &served[end..]), file, "the same drawing under the targets");
        let (_, circles) = gates_and_areas(&file);
        let marked = targets(&served, "data-area");
        assert_eq!(marked.len(), f.areas.len(), "one target per area");
        for ((a, &(cx, cy, r)), (id, el)) in f.areas.iter().zip(&circles).zip(&marked) {
            assert_eq!(*id, a.id.to_string());
            let num = |k: &str| attr(el, k).and_then(|v| v.parse::<f64>().ok()).expect(k);
            assert_eq!((num("cx"), num("cy")), (cx, cy), "area {id}: on its drawn circle");
            // Both radii are written on the 0.1 mm grid, so they may round apart by a tenth.
            assert!((num("r") - r - 0.8).abs() < 0.11, "area {id}: just past its ring");
            assert_eq!(attr(el, "class").expect("class").contains("ds-locked"), a.locked, "area {id}");
        }
    }
}

/// The clear space (mm) two gate lines keep between their ink, away from the circles they fan
/// into: a line must not run along another's (seed 55 at 40 areas drew the damaged gate 15-17
/// zig-zagging along 16-17). Near a circle, where lines leave from neighbouring ports, they may
/// come closer: that stretch (the stub down to the channel) is not counted.
const GATE_GAP: f64 = 0.8;
/// Gate line width (mm), as the map draws it.
const GATE_STROKE: f64 = 0.4;
/// How far from a circle's edge the lines may still be fanning into its ports.
const FAN: f64 = 1.0;

/// The pairs of gate lines on a GM map whose ink comes closer than [`GATE_GAP`] away from every
/// circle's fan: (gate id, gate id, the clear space), measured on the SVG as written (a damaged
/// gate's zigzag as drawn).
fn gates_too_close(svg: &str) -> Vec<(String, String, f64)> {
    let gates = gate_pieces(svg);
    let (_, circles) = gates_and_areas(svg);
    let fanning =
        |p: (f64, f64)| circles.iter().any(|&(x, y, r)| ((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt() < r + FAN);
    // Points every 0.2 mm along each gate's ink, outside the fans.
    let samples: Vec<Vec<(f64, f64)>> = gates
        .iter()
        .map(|(_, pieces)| {
            let mut pts = Vec::new();
            for w in pieces.iter().flat_map(|p| p.windows(2)) {
                let len = ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt();
                let n = (len / 0.2).ceil().max(1.0) as usize;
                for k in 0..=n {
                    let t = k as f64 / n as f64;
                    let p = (w[0].0 + (w[1].0 - w[0].0) * t, w[0].1 + (w[1].1 - w[0].1) * t);
                    if !fanning(p) {
                        pts.push(p);
                    }
                }
            }
            pts
        })
        .collect();
    // The nearest line `j`'s ink comes to the points of line `i`.
    let nearest = |i: usize, j: usize| {
        samples[i]
            .iter()
            .flat_map(|&p| gates[j].1.iter().flat_map(|q| q.windows(2)).map(move |w| seg_dist(p, w[0], w[1])))
            .fold(f64::INFINITY, f64::min)
    };
    // Each gate's bounding box, grown by the gap: pairs whose boxes miss are far apart.
    let reach = GATE_GAP + GATE_STROKE;
    let boxes: Vec<(f64, f64, f64, f64)> = gates
        .iter()
        .map(|(_, ps)| {
            ps.iter().flatten().fold((f64::MAX, f64::MAX, f64::MIN, f64::MIN), |b, p| {
                (b.0.min(p.0 - reach), b.1.min(p.1 - reach), b.2.max(p.0 + reach), b.3.max(p.1 + reach))
            })
        })
        .collect();
    let mut out = Vec::new();
    for i in 0..gates.len() {
        for j in i + 1..gates.len() {
            let (p, q) = (boxes[i], boxes[j]);
            if p.2 < q.0 || q.2 < p.0 || p.3 < q.1 || q.3 < p.1 {
                continue;
            }
            let clear = nearest(i, j).min(nearest(j, i)) - GATE_STROKE;
            // Points are written on the 0.1 mm grid: two lines 1.2 mm apart leave exactly the
            // gap, which the arithmetic measures as 0.7999…
            if clear < GATE_GAP - 1e-6 {
                out.push((gates[i].0.clone(), gates[j].0.clone(), (clear * 100.0).round() / 100.0));
            }
        }
    }
    out
}

/// Gate lines keep a clear gap between them: on 100 GM maps at 40 areas (both papers) no two
/// gates' inks come closer than [`GATE_GAP`] outside the circles' fans. What holds it: lanes (a
/// line passing under another's start, or over its end, runs a lane deeper), ports a whole
/// step apart (a badged circle's upper ports shifted left, clear of the badge), channels as
/// tall as their lanes need, labels widened in rows with room to spare so that the channels get
/// the height (before any level squeezes its lanes), and a layer too wide for one row cut into
/// runs in the layout's order. (One straight slant per channel gave 1470 close pairs here, the
/// lanes alone 477, the whole-step ports and tall channels 55.) The map of the bug report (seed
/// 55, the damaged 15-17 along 16-17) is among them.
#[test]
fn gate_lines_keep_a_gap_on_maps_of_40_areas() {
    let (mut measured, mut close) = (0, Vec::new());
    for k in 0..100u64 {
        let seed = if k == 0 { 55 } else { k * 7919 + 3 };
        let (party, cl) = (1 + (seed % 8) as u32, 1 + (seed % 20) as u32);
        let f = generate(tables(), &FortressParams { party, cl, areas: 40, ..Default::default() }, seed)
            .expect("generates");
        let paper = if k % 2 == 0 { Paper::A4 } else { Paper::Letter };
        let svg = fortress_map(&f, tables(), paper, Audience::Gm);
        let pairs = gates_too_close(&svg);
        measured += gate_pieces(&svg).len();
        close.extend(pairs.into_iter().map(|p| (seed, paper, p)));
    }
    assert!(measured > 100 * 40, "every map's gates were measured ({measured})");
    assert_eq!(close, Vec::new(), "pairs of gate lines closer than {GATE_GAP} mm on 100 maps");
}

/// Every `<text>` of an SVG: its `x`, `y` and content (XML entities read back).
fn svg_texts(svg: &str) -> Vec<(f64, f64, String)> {
    let num = |el: &str, k: &str| attr(el, k).and_then(|v| v.parse::<f64>().ok()).expect("a number");
    svg.split("<text ")
        .skip(1)
        .map(|el| {
            let body = el.split_once('>').map_or("", |(_, b)| b).split("</text>").next().unwrap_or_default();
            let text = body
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
            (num(el, "x"), num(el, "y"), text)
        })
        .collect()
}

/// Over many fortresses (3 to 40 areas, both papers), the GM's map says "victim held" in the
/// label of the area where the episode holds its victim (the Ruler's) and nowhere else, and its
/// legend names the victim; the map spells a Danger Sense note one way only ("DS 15").
#[test]
fn the_gm_map_marks_where_the_victim_is_held_and_spells_danger_sense_one_way() {
    let mut marked = 0;
    for seed in 0..48u64 {
        let areas = [3u32, 6, 10, 14, 18, 25, 32, 40][seed as usize % 8];
        let f = fortress(seed * 13 + 5, 1 + (seed % 20) as u32, areas);
        let paper = if seed % 2 == 0 { Paper::A4 } else { Paper::Letter };
        let what = format!("seed {} ({areas} areas, {paper:?})", f.seed);
        let svg = fortress_map(&f, tables(), paper, Audience::Gm);
        let victim = f.victim_area().expect("a generated fortress has an episode and its Ruler's area");
        assert_eq!(victim.id, f.ruler.area, "{what}: the victim is held in the Ruler's area");
        let episode = f.episode.as_ref().expect("an episode");
        let served = fortress_workbench_map(&f, tables(), paper);
        let num = |el: &str, k: &str| attr(el, k).and_then(|v| v.parse::<f64>().ok()).expect("a number");
        let circles: Vec<(u32, f64, f64)> = targets(&served, "data-area")
            .into_iter()
            .map(|(id, el)| (id.parse().expect("an area id"), num(el, "cx"), num(el, "cy")))
            .collect();
        let texts = svg_texts(&svg);
        let legend = format!("victim held: {}", episode.victim);
        assert!(texts.iter().any(|t| t.2.contains(&legend)), "{what}: the legend says `{legend}`");
        let labels: Vec<&(f64, f64, String)> =
            texts.iter().filter(|t| t.2.split(" \u{00b7} ").any(|p| p == "victim held")).collect();
        assert_eq!(labels.len(), 1, "{what}: one area says `victim held`: {labels:?}");
        // The label belongs to the nearest circle on its left (labels stand right of circles).
        let (x, y, _) = labels[0];
        let d = |c: &&(u32, f64, f64)| (x - c.1).powi(2) + (y - c.2).powi(2);
        let owner = circles.iter().filter(|c| c.1 < *x).min_by(|a, b| d(a).total_cmp(&d(b))).map(|c| c.0);
        assert_eq!(owner, Some(victim.id), "{what}: `victim held` stands by area {}", victim.id);
        marked += 1;
        for t in &texts {
            let long = t.2.contains("Danger Sense") && !t.2.contains("DS N: Danger Sense N");
            assert!(!long, "{what}: `{}` spells Danger Sense out where the map writes `DS`", t.2);
        }
    }
    assert_eq!(marked, 48);
}
