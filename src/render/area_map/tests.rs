//! Unit tests of the area map on the drawn model (the SVG itself is checked in tests/it/area_map.rs).

use super::*;
use crate::nw3::generate::{FortressParams, generate};
use crate::nw3::model::{Area, Gate};
use crate::render::regen;
use crate::render::svgkit::Bbox;
use furniture::{gate_legend_text, legend_entries};
use geometry::{disc_hits_box, dist};
use std::sync::OnceLock;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables"))
}

fn fortress(seed: u64, cl: u32, areas: u32) -> Fortress {
    generate(tables(), &FortressParams { party: 4, cl, areas, ..Default::default() }, seed).expect("generates")
}

/// A spread of fortresses: every size class, several seeds and levels.
fn cases() -> Vec<Fortress> {
    let mut v = Vec::new();
    for (i, areas) in [3u32, 4, 6, 10, 14, 18, 25, 32, 40].into_iter().enumerate() {
        for seed in 0..5u64 {
            let cl = [1, 3, 7, 14, 20][(seed as usize + i) % 5];
            v.push(fortress(seed * 7 + u64::from(areas), cl, areas));
        }
    }
    v
}

/// Whether `l` is the number printed in one of the circles.
fn is_number(l: &Label, circles: &[Disc]) -> bool {
    l.bold
        && l.text.parse::<u32>().is_ok()
        && circles.iter().any(|&(x, y, _)| (l.x - x).abs() < 0.05 && (l.y - y).abs() < 3.0)
}

/// Checks the promises every map keeps: texts apart, on the page and at least `min_text` mm;
/// circles apart; text off every circle but the number inside it; no gate line over another
/// area's circle or over any text.
fn check_map(d: &Drawn, what: &str, min_text: f64) {
    let c = &d.canvas;
    let boxes: Vec<(Bbox, &str)> = c.labels.iter().map(|l| (l.bbox(), l.text.as_str())).collect();
    for (l, (b, t)) in c.labels.iter().zip(&boxes) {
        assert!(l.size >= min_text - 1e-9, "{what}: `{t}` is {} mm", l.size);
        assert!(b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= c.w && b.y1 <= c.h, "{what}: `{t}` leaves the page: {b:?}");
    }
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            assert!(!boxes[i].0.overlaps(&boxes[j].0), "{what}: `{}` overlaps `{}`", boxes[i].1, boxes[j].1);
        }
    }
    for (i, a) in d.circles.iter().enumerate() {
        for b in &d.circles[i + 1..] {
            assert!(dist((a.0, a.1), (b.0, b.1)) >= a.2 + b.2 + 1.0, "{what}: circles {a:?} and {b:?} overlap");
        }
    }
    for l in &c.labels {
        if is_number(l, &d.circles) {
            continue;
        }
        for &(x, y, r) in &d.circles {
            assert!(!disc_hits_box((x, y, r), &l.bbox(), 0.0), "{what}: `{}` lies on the circle at ({x}, {y})", l.text);
        }
    }
    for (a, b, q) in &d.routes {
        for (j, &(x, y, r)) in d.circles.iter().enumerate() {
            if j != *a && j != *b {
                assert!(q.dist_to((x, y)) > r, "{what}: gate {a}-{b} crosses area {j}");
            }
        }
        for l in c.labels.iter().filter(|l| !is_number(l, &d.circles) && l.text != "S") {
            assert!(!q.hits_box(&l.bbox()), "{what}: gate {a}-{b} crosses `{}`", l.text);
        }
        let (pa, pb) = ((d.circles[*a].0, d.circles[*a].1), (d.circles[*b].0, d.circles[*b].1));
        let (s, e) = (q.pts[0], q.pts[q.pts.len() - 1]);
        assert!((dist(s, pa) - d.circles[*a].2).abs() < 0.3, "{what}: {s:?} not on {pa:?}");
        assert!((dist(e, pb) - d.circles[*b].2).abs() < 0.3, "{what}: {e:?} not on {pb:?}");
    }
}

#[test]
fn maps_keep_circles_text_and_gate_lines_apart_and_on_the_page() {
    for f in cases() {
        for paper in [Paper::A4, Paper::Letter] {
            let what = format!("seed {} areas {} cl {} {paper:?}", f.seed, f.areas.len(), f.party.cl);
            let d = gm_map(&f, tables(), paper);
            check_map(&d, &what, MIN_TEXT);
            assert_eq!(d.routes.len(), f.gates.len(), "{what}: every gate is drawn");
            let (players, _) = draw_players(&f, paper);
            let boxes: Vec<Bbox> = players.labels.iter().map(Label::bbox).collect();
            for (i, b) in boxes.iter().enumerate() {
                assert!(b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= players.w && b.y1 <= players.h, "{what}: players");
                assert!(boxes[i + 1..].iter().all(|o| !o.overlaps(b)), "{what}: players' text overlaps");
            }
        }
    }
}

#[test]
fn the_default_fortress_shows_every_name_kind_and_ad_in_full() {
    for seed in 0..30u64 {
        let f = fortress(seed, 3, 10);
        for paper in [Paper::A4, Paper::Letter] {
            let d = gm_map(&f, tables(), paper);
            assert!(d.listed.is_empty(), "seed {seed} {paper:?}: {:?}", d.listed);
            let text: Vec<&str> = d.canvas.labels.iter().map(|l| l.text.as_str()).collect();
            for a in &f.areas {
                for word in a.name.split_whitespace() {
                    assert!(
                        text.iter().any(|t| t.split_whitespace().any(|w| w == word)),
                        "seed {seed}: {} cut",
                        a.name
                    );
                }
                let info = format!("{} \u{00b7} AD {}", Look::of(&f, a).word(), a.appearance_difficulty);
                assert!(text.iter().any(|t| t.starts_with(&info)), "seed {seed}: no `{info}`");
            }
        }
    }
}

/// Every number in every attribute sits on the 0.1 mm grid.
#[test]
fn numbers_are_on_the_tenth_of_a_millimetre_grid() {
    for f in [fortress(7, 3, 10), fortress(3, 9, 40)] {
        for paper in [Paper::A4, Paper::Letter] {
            for copy in [Audience::Gm, Audience::Players] {
                let svg = fortress_map(&f, tables(), paper, copy);
                for (i, attr) in svg.split("=\"").enumerate().skip(1) {
                    let value = attr.split('"').next().unwrap_or_default();
                    if i > 0 && (value.starts_with('#') || value.starts_with("url(")) {
                        continue;
                    }
                    for num in value.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
                        if let Some((_, frac)) = num.split_once('.') {
                            assert!(frac.len() <= 1, "{paper:?} {copy:?}: `{value}` is off the grid");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_legend_shows_only_what_the_map_uses() {
    let mut f = fortress(7, 3, 10);
    for g in &mut f.gates {
        g.kind = GateKind::Normal;
        g.opened_by = None;
        g.uses = None;
    }
    for a in &mut f.areas {
        a.optional = false;
    }
    let svg = fortress_map(&f, tables(), Paper::A4, Audience::Gm);
    assert!(svg.contains("gate (both ways)"));
    for k in [GateKind::OneWay, GateKind::Secret, GateKind::Closed, GateKind::Damaged] {
        assert!(!svg.contains(gate_legend_text(k)), "{k:?} in the legend");
    }
    assert!(!svg.contains("optional area"));
    assert!(!svg.contains("Danger Sense"), "no gate needs Danger Sense, so the map never names it");
    let f = fortress(7, 3, 40);
    let svg = fortress_map(&f, tables(), Paper::A4, Audience::Gm);
    for k in legend_entries(&f).2 {
        assert!(svg.contains(&gate_legend_text(k).replace('\'', "&apos;")), "{k:?} missing from the legend");
    }
}

#[test]
fn the_footer_regenerates_the_map() {
    let f = generate(tables(), &FortressParams { party: 6, cl: 14, areas: 40, ..Default::default() }, 1234).unwrap();
    for paper in [Paper::A4, Paper::Letter] {
        let lines = footer(&f, &regen::fortress(&f, tables(), paper).command, paper, Audience::Gm);
        let all = lines.join(" ");
        assert!(lines[0].contains("seed 1234") && lines[0].contains("party 6, CL 14, 40 areas"), "{lines:?}");
        assert!(all.contains(&f.generator.version) && all.contains(&f.generator.tables), "{lines:?}");
        assert!(all.ends_with(&regen::fortress_seed_command(&f, paper)), "{lines:?}");
        assert!(!all.contains('\u{2026}'), "{lines:?}");
    }
    assert_eq!(
        regen::fortress_seed_command(&f, Paper::A4),
        "dungeonsmith fortress --seed 1234 --party 6 --cl 14 --areas 40"
    );
    assert!(regen::fortress_seed_command(&f, Paper::Letter).ends_with(" --paper letter"));
    let players = footer(&f, "", Paper::A4, Audience::Players).join(" ");
    assert!(!players.contains("1234") && !players.contains("--seed"), "{players}");
}

#[test]
fn the_players_copy_shows_only_the_entrance() {
    for (seed, areas) in [(7, 10), (3, 40)] {
        let f = fortress(seed, 3, areas);
        let svg = fortress_map(&f, tables(), Paper::A4, Audience::Players);
        let entrance = f.entrance().unwrap();
        assert!(svg.contains(&entrance.name));
        for a in f.areas.iter().filter(|a| a.kind != AreaKind::Entrance) {
            let elsewhere = entrance.name.contains(&a.name) || f.title.contains(&a.name) || f.trailer.contains(&a.name);
            assert!(elsewhere || !svg.contains(&a.name), "seed {seed}: {} on the players' copy", a.name);
        }
        assert!(!svg.contains("AD "), "appearance difficulties on the players' copy");
        assert!(!svg.contains("stroke-dasharray"), "a gate line on the players' copy");
        for d in svg.split(" d=\"").skip(1) {
            let d = d.split('"').next().unwrap();
            assert!(!d.contains('C'), "a gate curve on the players' copy: {d}");
        }
        assert!(svg.contains(&f.trailer[..20]));
    }
}

/// Hand-edited files: gates to missing areas, loops, doubled gates, long names, many areas.
#[test]
fn hand_edited_fortresses_still_draw_cleanly() {
    let mut f = fortress(5, 3, 12);
    f.areas[3].name = "Supercalifragilisticexpialidocious Hall of the Twelve Thousand Mirrors".into();
    f.areas[4].name = "<b>&\"' Hall".into();
    f.title = "A <Very> Long & \"Quoted\" Title That Goes On And On And On Past The Edge Of The Page".into();
    let g = |from, to, kind| Gate { from, to, kind, opened_by: None, uses: None };
    f.gates.push(g(2, 99, GateKind::Normal));
    f.gates.push(g(3, 3, GateKind::Normal));
    f.gates.push(g(1, 2, GateKind::Closed));
    f.gates.push(g(1, 12, GateKind::Damaged));
    let d = gm_map(&f, tables(), Paper::A4);
    check_map(&d, "edited", MIN_TEXT);
    // Sixty areas in one file (more than the generator makes).
    let mut big = fortress(9, 3, 40);
    let extra: Vec<Area> = big.areas[1..21].iter().map(|a| Area { id: a.id + 100, ..a.clone() }).collect();
    let gates: Vec<Gate> = extra.iter().map(|a| g(a.id - 100, a.id, GateKind::Normal)).collect();
    big.areas.extend(extra);
    big.gates.extend(gates);
    let d = gm_map(&big, tables(), Paper::A4);
    // More than the generator makes: smaller text is allowed, nothing else changes.
    check_map(&d, "sixty areas", 1.0);
    // No areas at all.
    let mut empty = fortress(9, 3, 3);
    empty.areas.clear();
    empty.gates.clear();
    let d = gm_map(&empty, tables(), Paper::Letter);
    check_map(&d, "empty", MIN_TEXT);
    let _ = fortress_map(&empty, tables(), Paper::A4, Audience::Players);
}

/// A gate note listed under the legend is printed whole (spanning columns as it needs), never
/// cut short with an ellipsis: "clear Bridge of Paper (are…" sends the GM to the booklet for the
/// one word that matters.
#[test]
fn notes_listed_under_the_legend_are_printed_whole() {
    let mut seen = 0;
    for f in cases().iter().chain([fortress(11, 3, 40), fortress(7, 3, 30)].iter()) {
        for paper in [Paper::A4, Paper::Letter] {
            let d = gm_map(f, tables(), paper);
            let texts: Vec<&str> = d.canvas.labels.iter().map(|l| l.text.as_str()).collect();
            let shown = furniture::notes_that_fit(&d.listed, MAX_NOTE_ROWS, paper.size_mm().0);
            for note in shown.iter().filter(|n| !n.starts_with("+ ")) {
                seen += 1;
                let whole = labels::cap(note);
                assert!(texts.contains(&whole.as_str()), "seed {} {paper:?}: `{whole}` not printed whole", f.seed);
            }
        }
    }
    assert!(seen > 0, "no case listed a note: the test saw nothing");
}

/// Which sizes the maps come out at, for tuning:
/// `cargo test --lib area_map_sizes -- --ignored --nocapture`.
#[test]
#[ignore = "prints size statistics"]
fn area_map_sizes() {
    for areas in [10u32, 18, 25, 32, 40] {
        let mut hist = std::collections::BTreeMap::new();
        let mut listed = 0;
        for seed in 0..40u64 {
            for paper in [Paper::A4, Paper::Letter] {
                let f = fortress(seed, 3, areas);
                let (gates, _) = drawable(&f);
                let (w, h) = paper.size_mm();
                let _ = w;
                let d = gm_map(&f, tables(), paper);
                listed += d.listed.len();
                let region = Bbox { x0: MARGIN, y0: TOP + HEAD + 1.0, x1: w - MARGIN, y1: h - 60.0 };
                let noted: Vec<bool> = f.gates.iter().map(|g| gate_note(&f, g).is_some()).collect();
                let p = placement::place(&f, &gates, &noted, &region, super::channel_room);
                *hist.entry(format!("{:.2}/{:.1}", p.level.name, p.level.label_w)).or_insert(0) += 1;
                if p.level.name < MIN_TEXT {
                    println!("small: seed {seed} areas {areas} {paper:?}");
                }
            }
        }
        println!("areas {areas:>2}: {hist:?} listed {listed}");
    }
}
