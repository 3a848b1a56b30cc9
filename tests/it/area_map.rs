//! NW3 area maps (SVG): they parse, render with the shipped fonts at the paper's size, keep their
//! text apart and on the page, escape user text, and are byte-stable.

use std::sync::OnceLock;

use dungeonsmith::nw3::{Fortress, FortressParams, generate};
use dungeonsmith::render::area_map::fortress_map;
use dungeonsmith::render::{Copy, Paper};
use dungeonsmith::tables::Tables;
use resvg::tiny_skia::{Pixmap, Transform};

use crate::sheet::{assert_text_fits, dark_pixels, parse, render, text_boxes};

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

fn fortress(seed: u64, cl: u32, areas: u32) -> Fortress {
    generate(tables(), &FortressParams { party: 4, cl, areas }, seed).expect("generates")
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
            for copy in [Copy::Gm, Copy::Players] {
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
                // The players' copy is mostly room to write in.
                let least = if copy == Copy::Gm { 400 } else { 250 };
                assert!(dark_pixels(&pix) > least, "{what}: blank ({} dark pixels)", dark_pixels(&pix));
                // Text was laid out with the shipped fonts (no font: no glyphs, empty boxes).
                let boxes = text_boxes(&tree);
                assert!(boxes.len() > 5, "{what}");
                for (x0, y0, x1, y1, t) in &boxes {
                    assert!(x1 > x0 && y1 > y0, "{what}: `{t}` has no glyphs");
                }
                if copy == Copy::Gm {
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
            for copy in [Copy::Gm, Copy::Players] {
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
    for copy in [Copy::Gm, Copy::Players] {
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
            for copy in [Copy::Gm, Copy::Players] {
                assert_eq!(fortress_map(&a, tables(), paper, copy), fortress_map(&b, tables(), paper, copy));
            }
        }
    }
    // A re-read JSON file draws the same map as the fortress it came from.
    let f = fortress(31, 5, 25);
    let back = Fortress::from_json(&f.to_json()).unwrap();
    assert_eq!(fortress_map(&f, tables(), Paper::A4, Copy::Gm), fortress_map(&back, tables(), Paper::A4, Copy::Gm));
}

/// GM and players' maps of seed 7 with the default options; several can share an HTML page.
#[test]
fn area_map_seed_7_snapshots() {
    let f = golden(fortress(7, 3, 10));
    let gm = fortress_map(&f, tables(), Paper::A4, Copy::Gm);
    let players = fortress_map(&f, tables(), Paper::A4, Copy::Players);
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

/// Writes PNG previews for looking at: `cargo test area_map_previews -- --ignored`, with
/// `MAP_SEED`, `MAP_AREAS`, `MAP_CL`, `MAP_PAPER=letter` and `MAP_ZOOM=x,y,w,h` (mm, at 12 px/mm)
/// to vary them. Writes area-gm.png and area-players.png (and .svg) to the temp dir.
#[test]
#[ignore = "writes preview PNGs to the temp dir"]
fn area_map_previews() {
    let env = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let f = fortress(env("MAP_SEED", 7), env("MAP_CL", 3) as u32, env("MAP_AREAS", 10) as u32);
    let paper = if std::env::var("MAP_PAPER").is_ok_and(|p| p == "letter") { Paper::Letter } else { Paper::A4 };
    let dir = std::env::temp_dir();
    let tag = std::env::var("MAP_TAG").unwrap_or_default();
    for (copy, name) in [(Copy::Gm, "gm"), (Copy::Players, "players")] {
        let svg = fortress_map(&f, tables(), paper, copy);
        std::fs::write(dir.join(format!("area-{name}{tag}.svg")), &svg).unwrap();
        let tree = parse(&svg);
        render(&tree, paper, 4.0).save_png(dir.join(format!("area-{name}{tag}.png"))).unwrap();
        if let Ok(z) = std::env::var("MAP_ZOOM") {
            let v: Vec<f32> = z.split(',').filter_map(|n| n.parse().ok()).collect();
            let k = 12.0;
            let mut pix = Pixmap::new((v[2] * k) as u32, (v[3] * k) as u32).unwrap();
            let scale = k * 25.4 / 96.0;
            let t = Transform::from_row(scale, 0.0, 0.0, scale, -v[0] * k, -v[1] * k);
            resvg::render(&tree, t, &mut pix.as_mut());
            pix.save_png(dir.join(format!("area-{name}{tag}-zoom.png"))).unwrap();
        }
    }
}
