//! MYK map sheets (SVG): they parse, render with the shipped fonts at the paper's size, keep their
//! text apart and on the page, escape user text, and are byte-stable.

use std::sync::{Arc, OnceLock};

use dungeonsmith::model::Paper;
use dungeonsmith::myk::model::Map;
use dungeonsmith::myk::model::{CorridorId, RoomId};
use dungeonsmith::myk::model::{Layout, Scenario};
use dungeonsmith::myk::{MykParams, generate};
use dungeonsmith::render::Audience;
use dungeonsmith::render::sheet::{myk_sheet, myk_workbench_sheet};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

use crate::myk::tables;

pub(crate) fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fonts");
        let mut db = usvg::fontdb::Database::new();
        for f in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"] {
            db.load_font_file(dir.join(f)).expect("font loads");
        }
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

pub(crate) fn parse(svg: &str) -> usvg::Tree {
    let opt = usvg::Options { fontdb: fonts(), ..Default::default() };
    usvg::Tree::from_str(svg, &opt).unwrap_or_else(|e| panic!("not valid SVG: {e}\n{svg}"))
}

fn scenario(seed: u64, maps: u32, rooms: u32, layout: Layout) -> Scenario {
    generate(
        tables(),
        &MykParams { levels: vec![2; 4], maps, rooms, layout, objective: None, ..Default::default() },
        seed,
    )
    .expect("generates")
}

/// The sheet rendered at `px_per_mm`.
pub(crate) fn render(tree: &usvg::Tree, paper: Paper, px_per_mm: f32) -> Pixmap {
    let (w, h) = paper.size_mm();
    let (pw, ph) = ((w as f32 * px_per_mm).round() as u32, (h as f32 * px_per_mm).round() as u32);
    let mut pix = Pixmap::new(pw, ph).expect("pixmap");
    let scale = pw as f32 / tree.size().width();
    resvg::render(tree, Transform::from_scale(scale, scale), &mut pix.as_mut());
    pix
}

pub(crate) fn dark_pixels(pix: &Pixmap) -> usize {
    pix.pixels().iter().filter(|p| p.alpha() > 0 && p.red() < 128).count()
}

/// Every text node's box in mm (page coordinates) with its text.
pub(crate) fn text_boxes(tree: &usvg::Tree) -> Vec<(f32, f32, f32, f32, String)> {
    fn walk(g: &usvg::Group, mm: f32, out: &mut Vec<(f32, f32, f32, f32, String)>) {
        for n in g.children() {
            match n {
                usvg::Node::Group(g) => walk(g, mm, out),
                usvg::Node::Text(t) => {
                    let b = t.abs_bounding_box();
                    let s: String = t.chunks().iter().map(|c| c.text()).collect();
                    out.push((b.left() / mm, b.top() / mm, b.right() / mm, b.bottom() / mm, s));
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(tree.root(), 96.0 / 25.4, &mut out);
    out
}

/// A hand-edited scenario: long names with markup characters, and one room stuffed with threats.
fn stuffed() -> Scenario {
    let mut s = scenario(42, 1, 9, Layout::Mixed);
    let long = r#"Extraordinarily Long-Winded Name Of The <Most> Dreadful & "Unspeakable" Thing"#;
    s.title = long.to_string();
    s.maps[0].name = long.into();
    let trap = s.maps[0].rooms.iter().flat_map(|r| r.traps.clone()).next().expect("a trap");
    let monster = s.maps[0].rooms.iter().flat_map(|r| r.monsters.clone()).next().expect("a monster");
    for room in &mut s.maps[0].rooms {
        room.used = true;
        room.name = format!("Supercalifragilisticexpialidocious Hall of the {} Thousand Mirrors", room.id).into();
    }
    let room = &mut s.maps[0].rooms[4];
    for i in 0..12 {
        let mut t = trap.clone();
        t.name = format!("Trap number {i} with a long name").into();
        room.traps.push(t);
    }
    for i in 0..6 {
        let mut m = monster.clone();
        m.name = format!("Monster {i} of the <Deep> & Dark").into();
        m.count = 12;
        room.monsters.push(m);
    }
    s
}

/// A spread of options: each layout, several map counts, few and many rooms.
fn cases() -> Vec<Scenario> {
    let mut v = Vec::new();
    for (i, seed) in [1u64, 5, 42, 77, 123, 999, 2024, 31337].into_iter().enumerate() {
        let layout = [Layout::Mixed, Layout::Straight, Layout::Junction][i % 3];
        let (maps, rooms) = [(1, 9), (3, 9), (2, 4), (3, 7)][i % 4];
        v.push(scenario(seed, maps, rooms, layout));
    }
    v
}

#[test]
fn every_sheet_parses_and_renders_non_blank_at_the_papers_size() {
    for s in cases() {
        for map in &s.maps {
            for paper in [Paper::A4, Paper::Letter] {
                for copy in [Audience::Gm, Audience::Players] {
                    let svg = myk_sheet(&s, map, tables(), paper, copy);
                    let what = format!("seed {} map {} {paper:?} {copy:?}", s.seed, map.index);
                    assert!(!svg.contains("<image") && !svg.contains("@import") && !svg.contains("href"), "{what}");
                    let tree = parse(&svg);
                    let (w, h) = paper.size_mm();
                    let px = 96.0 / 25.4;
                    assert!((tree.size().width() - w as f32 * px).abs() < 0.5, "{what}: width");
                    assert!((tree.size().height() - h as f32 * px).abs() < 0.5, "{what}: height");
                    // 1 px/mm keeps this sweep quick in debug builds; the snapshot test renders at 4.
                    let pix = render(&tree, paper, 1.0);
                    let expect = match paper {
                        Paper::A4 => (210, 297),
                        Paper::Letter => (216, 279),
                    };
                    assert_eq!((pix.width(), pix.height()), expect, "{what}");
                    assert!(dark_pixels(&pix) > 400, "{what}: blank ({} dark pixels)", dark_pixels(&pix));
                    // Text was laid out with the shipped fonts (no font: no glyphs, empty boxes).
                    let boxes = text_boxes(&tree);
                    assert!(boxes.len() > 5, "{what}");
                    for (x0, y0, x1, y1, t) in &boxes {
                        assert!(x1 > x0 && y1 > y0, "{what}: `{t}` has no glyphs");
                    }
                }
            }
        }
    }
}

#[test]
fn rendered_text_never_overlaps_and_stays_on_the_page() {
    let mut all = cases();
    all.push(stuffed());
    all.extend((200..206).map(|seed| scenario(seed, 1 + (seed % 3) as u32, 9 - (seed % 6) as u32, Layout::Mixed)));
    for s in all {
        for map in &s.maps {
            for paper in [Paper::A4, Paper::Letter] {
                for copy in [Audience::Gm, Audience::Players] {
                    let tree = parse(&myk_sheet(&s, map, tables(), paper, copy));
                    let what = format!("seed {} map {} {paper:?} {copy:?}", s.seed, map.index);
                    assert_text_fits(&tree, paper, &what);
                }
            }
        }
    }
}

#[test]
fn user_text_with_markup_characters_is_escaped() {
    let mut s = scenario(42, 1, 9, Layout::Mixed);
    let nasty = r#"<b>&"' Hall"#;
    s.title = format!("Title {nasty}");
    s.maps[0].name = format!("Map {nasty}").into();
    for r in s.maps[0].rooms.iter_mut().filter(|r| r.used) {
        r.name = nasty.into();
        for m in &mut r.monsters {
            m.name = format!("{nasty} beast").into();
        }
    }
    let map = s.maps[0].clone();
    for copy in [Audience::Gm, Audience::Players] {
        let svg = myk_sheet(&s, &map, tables(), Paper::A4, copy);
        assert!(!svg.contains("<b>"), "{copy:?}: raw markup in the SVG");
        assert!(svg.contains("&lt;b&gt;&amp;\"' Hall"), "{copy:?}: escaped text missing");
        let tree = parse(&svg);
        let texts: Vec<String> = text_boxes(&tree).into_iter().map(|b| b.4).collect();
        assert!(texts.iter().any(|t| t.contains(nasty)), "{copy:?}: the text reads back as written: {texts:?}");
    }
}

#[test]
fn the_same_scenario_gives_byte_identical_sheets() {
    for (seed, maps) in [(42, 1), (7, 3)] {
        let a = scenario(seed, maps, 8, Layout::Mixed);
        let b = scenario(seed, maps, 8, Layout::Mixed);
        for (ma, mb) in a.maps.iter().zip(&b.maps) {
            for paper in [Paper::A4, Paper::Letter] {
                for copy in [Audience::Gm, Audience::Players] {
                    assert_eq!(myk_sheet(&a, ma, tables(), paper, copy), myk_sheet(&b, mb, tables(), paper, copy));
                }
            }
        }
    }
}

#[test]
fn sheet_seed_42_snapshots() {
    // As every renderer reads it: the stored title filled.
    let s = dungeonsmith::myk::frame::filled(&crate::myk::default_scenario(42)).into_owned();
    let gm = myk_sheet(&s, &s.maps[0], tables(), Paper::A4, Audience::Gm);
    let players = myk_sheet(&s, &s.maps[0], tables(), Paper::A4, Audience::Players);
    // Printed at 4 px/mm: an A4 page is 840 x 1188 pixels, with ink on it.
    for svg in [&gm, &players] {
        let pix = render(&parse(svg), Paper::A4, 4.0);
        assert_eq!((pix.width(), pix.height()), (840, 1188));
        assert!(dark_pixels(&pix) > 20_000);
    }
    insta::assert_snapshot!("myk_sheet_seed_42_gm", gm);
    insta::assert_snapshot!("myk_sheet_seed_42_players", players);
}

/// Every rendered text box lies on the page and no two overlap.
pub(crate) fn assert_text_fits(tree: &resvg::usvg::Tree, paper: Paper, what: &str) {
    let (w, h) = paper.size_mm();
    let b = text_boxes(tree);
    for (x0, y0, x1, y1, t) in &b {
        assert!(*x0 >= 0.0 && *y0 >= 0.0 && *x1 <= w as f32 && *y1 <= h as f32, "{what}: `{t}` leaves the page");
    }
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let (p, q) = (&b[i], &b[j]);
            let apart = p.2 <= q.0 || q.2 <= p.0 || p.3 <= q.1 || q.3 <= p.1;
            assert!(apart, "{what}: `{}` overlaps `{}`", p.4, q.4);
        }
    }
}

/// Pixels per millimetre for the pixel tests: a 0.4 mm wall is more than one pixel.
const PX: f32 = 4.0;

/// Open floor: white, as rooms and corridors are drawn (the rock is a grey).
fn is_floor(pix: &Pixmap, x: u32, y: u32) -> bool {
    let p = pix.pixel(x, y).expect("on the picture");
    p.red().min(p.green()).min(p.blue()) >= 250
}

/// Whether white floor runs from room `a` to its right or lower neighbour `b` through the gap
/// between them, staying inside the strip that holds the gap (1.5 mm into each room): a flood
/// fill from the floor just inside `a`'s wall that reaches the floor just inside `b`'s.
fn floor_joins(pix: &Pixmap, boxes: &[(RoomId, f64, f64, f64)], a: RoomId, b: RoomId) -> bool {
    let at = |r: RoomId| boxes.iter().find(|x| x.0 == r).map(|x| (x.1, x.2, x.3)).expect("a room box");
    let ((ax, ay, side), (bx, by, _)) = (at(a), at(b));
    let px = |v: f64| (v * f64::from(PX)).round() as u32;
    let across = a.row() == b.row();
    // The strip as (along0, along1, across0, across1) in pixels; along runs from a to b.
    let (l0, l1, c0, c1) =
        if across { (ax + side - 1.5, bx + 1.5, ay, ay + side) } else { (ay + side - 1.5, by + 1.5, ax, ax + side) };
    let (l0, l1, c0, c1) = (px(l0), px(l1), px(c0), px(c1));
    let xy = |l: u32, c: u32| if across { (l, c) } else { (c, l) };
    let mut seen = vec![false; ((l1 - l0 + 1) * (c1 - c0 + 1)) as usize];
    let idx = |l: u32, c: u32| ((l - l0) * (c1 - c0 + 1) + (c - c0)) as usize;
    let mut todo: Vec<(u32, u32)> = (c0..=c1)
        .map(|c| (l0, c))
        .filter(|&(l, c)| {
            let (x, y) = xy(l, c);
            is_floor(pix, x, y)
        })
        .collect();
    for &(l, c) in &todo {
        seen[idx(l, c)] = true;
    }
    while let Some((l, c)) = todo.pop() {
        if l == l1 {
            return true;
        }
        let next = [(l + 1, c), (l.wrapping_sub(1), c), (l, c + 1), (l, c.wrapping_sub(1))];
        for (nl, nc) in next {
            if nl < l0 || nl > l1 || nc < c0 || nc > c1 || seen[idx(nl, nc)] {
                continue;
            }
            seen[idx(nl, nc)] = true;
            let (x, y) = xy(nl, nc);
            if is_floor(pix, x, y) {
                todo.push((nl, nc));
            }
        }
    }
    false
}

/// The middle of the gap between neighbours `a` and `b` (where their corridor would run), in pixels.
fn gap_middle(boxes: &[(RoomId, f64, f64, f64)], a: RoomId, b: RoomId) -> (u32, u32) {
    let at = |r: RoomId| boxes.iter().find(|x| x.0 == r).map(|x| (x.1, x.2, x.3)).expect("a room box");
    let ((ax, ay, side), (bx, by, _)) = (at(a), at(b));
    let (x, y) = if a.row() == b.row() {
        ((ax + side + bx) / 2.0, ay + side / 2.0)
    } else {
        (ax + side / 2.0, (ay + side + by) / 2.0)
    };
    ((x * f64::from(PX)).round() as u32, (y * f64::from(PX)).round() as u32)
}

#[test]
fn rock_is_shaded_apart_from_floor_and_each_corridor_joins_its_two_rooms() {
    let mut all = vec![scenario(99, 1, 9, Layout::Mixed), scenario(808, 3, 9, Layout::Mixed)];
    all.push(scenario(5, 2, 5, Layout::Straight));
    let (mut joined, mut apart) = (0, 0);
    for s in &all {
        for map in &s.maps {
            let pix = render(&parse(&myk_sheet(s, map, tables(), Paper::A4, Audience::Gm)), Paper::A4, PX);
            let boxes = room_boxes(s, map);
            for a in RoomId::ALL {
                for b in a.neighbours().filter(|b| *b > a) {
                    let corridor = map.corridors.iter().any(|k| k.id() == CorridorId::new(a, b));
                    let what = format!("seed {} map {} {a}-{b}", s.seed, map.index);
                    assert_eq!(floor_joins(&pix, &boxes, a, b), corridor, "{what}: floor joins the rooms");
                    if corridor {
                        joined += 1;
                        continue;
                    }
                    apart += 1;
                    let (x, y) = gap_middle(&boxes, a, b);
                    let rock = pix.pixel(x, y).expect("on the picture");
                    assert!(!is_floor(&pix, x, y), "{what}: the rock between unconnected rooms is floor-white");
                    let (fx, fy) = boxes.iter().find(|r| r.0 == a).map(|r| (r.1, r.2)).expect("a room box");
                    // The floor just inside the room's top-left wall, past the id's left edge.
                    let floor =
                        pix.pixel(((fx + 0.8) * 4.0) as u32, ((fy + 0.8) * 4.0) as u32).expect("on the picture");
                    if map.room(a).used {
                        assert_ne!(
                            (rock.red(), rock.green(), rock.blue()),
                            (floor.red(), floor.green(), floor.blue()),
                            "{what}"
                        );
                    }
                }
            }
        }
    }
    assert!(joined > 10 && apart > 5, "the cases hold both kinds ({joined} joined, {apart} apart)");
}

/// An attribute's value in one element's text (`x="12.5"` -> `12.5`).
pub(crate) fn attr<'a>(el: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    el.find(&key).map(|i| el[i + key.len()..].split('"').next().unwrap_or_default())
}

/// The workbench's click targets of a served sheet: (value of `key`, element text) each.
pub(crate) fn targets<'a>(svg: &'a str, key: &str) -> Vec<(&'a str, &'a str)> {
    let start = svg.find("<g class=\"ds-hooks\">").expect("the workbench's copy has click targets");
    svg[start..].split('<').filter_map(|el| attr(el, key).map(|v| (v, el))).collect()
}

/// Each room's box (room, left, top, side) as the workbench's copy of the GM sheet marks it.
fn room_boxes(s: &Scenario, map: &Map) -> Vec<(RoomId, f64, f64, f64)> {
    let svg = myk_workbench_sheet(s, map, tables(), Paper::A4);
    let num = |el: &str, name: &str| attr(el, name).and_then(|v| v.parse::<f64>().ok()).expect("a number");
    targets(&svg, "data-room")
        .into_iter()
        .map(|(path, el)| {
            let room = path.rsplit('/').next().and_then(|r| r.parse::<RoomId>().ok()).expect("a room id");
            (room, num(el, "x"), num(el, "y"), num(el, "width"))
        })
        .collect()
}

#[test]
fn the_workbench_sheet_marks_each_room_on_the_box_the_sheet_draws_it_in() {
    let mut all = vec![scenario(42, 2, 9, Layout::Mixed), scenario(5, 2, 5, Layout::Straight)];
    all[1].maps[0].rooms[4].locked = true;
    let mut unused = 0;
    for s in &all {
        for map in &s.maps {
            let file = myk_sheet(s, map, tables(), Paper::A4, Audience::Gm);
            assert!(!file.contains("data-room") && !file.contains("ds-hook"), "the file carries no targets");
            let served = myk_workbench_sheet(s, map, tables(), Paper::A4);
            let start = served.find("\n<g class=\"ds-hooks\">").expect("targets");
            let end = served[start..].find("</g>").expect("closed") + start + "</g>".len();
            assert_eq!(format!("{}{}", &served[..start], &served[end..]), file, "the same drawing under the targets");
            let marked = targets(&served, "data-room");
            assert_eq!(marked.len(), map.rooms.len(), "one target per room");
            for room in &map.rooms {
                let path = format!("map{}/{}", map.index, room.id);
                let (_, el) = *marked.iter().find(|(p, _)| *p == path).unwrap_or_else(|| panic!("{path} marked"));
                let bx = ["x", "y", "width", "height"].map(|k| attr(el, k).expect(k));
                // The room's own rectangle in the file, at the same place and size.
                let drawn = file
                    .split('<')
                    .filter(|e| e.starts_with("rect "))
                    .any(|e| ["x", "y", "width", "height"].iter().zip(&bx).all(|(k, v)| attr(e, k) == Some(*v)));
                assert!(drawn, "{path}: the target is on the drawn room {bx:?}");
                let class = attr(el, "class").expect("class");
                assert_eq!(class.contains("ds-locked"), room.locked || map.locked, "{path}: {class}");
                assert_eq!(class.contains("ds-unused"), !room.used, "{path}: {class}");
                unused += usize::from(!room.used);
            }
        }
    }
    assert!(unused > 0, "the cases hold an unused room");
}

/// The texts of a GM sheet by room: each rendered text whose box's centre lies in a room's box
/// (as the workbench's copy marks the rooms), in the order the sheet writes them.
fn room_texts(s: &Scenario, map: &Map, paper: Paper) -> Vec<(RoomId, Vec<String>)> {
    let tree = parse(&myk_sheet(s, map, tables(), paper, Audience::Gm));
    let texts = text_boxes(&tree);
    let boxes = room_boxes_on(s, map, paper);
    boxes
        .iter()
        .map(|&(room, x, y, side)| {
            let inside = texts
                .iter()
                .filter(|(x0, y0, x1, y1, _)| {
                    let (cx, cy) = (f64::from(x0 + x1) / 2.0, f64::from(y0 + y1) / 2.0);
                    cx > x && cx < x + side && cy > y && cy < y + side
                })
                .map(|t| t.4.clone())
                .collect();
            (room, inside)
        })
        .collect()
}

/// [`room_boxes`] on any paper.
fn room_boxes_on(s: &Scenario, map: &Map, paper: Paper) -> Vec<(RoomId, f64, f64, f64)> {
    let svg = myk_workbench_sheet(s, map, tables(), paper);
    let num = |el: &str, name: &str| attr(el, name).and_then(|v| v.parse::<f64>().ok()).expect("a number");
    targets(&svg, "data-room")
        .into_iter()
        .map(|(path, el)| {
            let room = path.rsplit('/').next().and_then(|r| r.parse::<RoomId>().ok()).expect("a room id");
            (room, num(el, "x"), num(el, "y"), num(el, "width"))
        })
        .collect()
}

/// Each line of a room, and each two lines joined (an entry the sheet wrapped onto two).
fn entries(lines: &[String]) -> Vec<String> {
    let pairs = lines.windows(2).map(|w| format!("{} {}", w[0], w[1]));
    lines.iter().cloned().chain(pairs).collect()
}

/// A line as printed, shortened or not, is the start of `full` (an ellipsis ends a cut line).
fn starts(line: &str, full: &str) -> bool {
    let head = line.trim_end_matches('\u{2026}').trim_end();
    !head.is_empty() && full.starts_with(head)
}

/// 100 scenarios of mixed options (1-3 maps, every objective kind, courts of 1 to 8): each GM
/// sheet marks the objective's room (and only it), the rival's arrival in a race, every cast NPC
/// placed on the map by name and role, every mini event by title, every hidden core, and prints
/// each ruler's effective level.
#[test]
fn the_gm_sheet_marks_the_objective_the_cast_the_events_and_each_rulers_effective_level() {
    use dungeonsmith::myk::model::{ObjectiveKind, Place};
    let (mut npcs, mut events, mut adjusted) = (0, 0, 0);
    for i in 0..100u64 {
        let kind = ObjectiveKind::ALL[i as usize % ObjectiveKind::ALL.len()];
        let size = 1 + (i as usize % 8);
        let levels = (0..size).map(|k| 1 + ((i as u32 + k as u32) % 6)).collect();
        let layout = [Layout::Mixed, Layout::Straight, Layout::Junction][i as usize % 3];
        let p = MykParams {
            levels,
            maps: 1 + (i % 3) as u32,
            rooms: 9 - (i % 5) as u32,
            layout,
            objective: Some(kind),
            ..Default::default()
        };
        let s = generate(tables(), &p, 7000 + i).expect("generates");
        let paper = if i % 2 == 0 { Paper::A4 } else { Paper::Letter };
        let o = &s.objective;
        for map in &s.maps {
            let rooms = room_texts(&s, map, paper);
            for (room, lines) in &rooms {
                let here = Place { map: map.index, room: *room };
                let what = format!("seed {} ({kind:?}) map {} {room}: {lines:?}", s.seed, map.index);
                let objective = lines.iter().any(|l| l.starts_with("Objective"));
                assert_eq!(objective, o.at == Some(here), "{what}: the objective's mark");
                if o.at == Some(here)
                    && let Some(q) = dungeonsmith::myk::goal::arrival(&s)
                {
                    // Over one line or two.
                    let all = lines.join(" ");
                    let said = [format!("rival arrives end of Quarter {q}"), format!("rival in Q{q}")];
                    assert!(said.iter().any(|t| all.contains(t)), "{what}: the race's arrival (Quarter {q})");
                }
                for n in s.cast.iter().filter(|n| n.place == Some(here)) {
                    let role = ["informant", "captive", "recipient", "rival"]
                        .into_iter()
                        .find(|r| n.role.starts_with(r))
                        .unwrap_or_else(|| panic!("{what}: {} has a role the sheet names: {}", n.name, n.role));
                    let tail = format!(" ({role})");
                    let marked =
                        entries(lines).iter().any(|l| l.strip_suffix(&tail).is_some_and(|h| starts(h, &n.name)));
                    assert!(marked, "{what}: {} ({role}) marked", n.name);
                    npcs += 1;
                }
                for title in dungeonsmith::render::myk_story::events_in(&s, here) {
                    assert!(lines.iter().any(|l| starts(l, &title)), "{what}: the mini event `{title}` marked");
                    events += 1;
                }
                let r = map.room(*room);
                if let Some(ru) = &r.ruler {
                    // The effective level, said to be one when the bestiary's differs.
                    let eff = ru.effective_level != ru.level;
                    let level =
                        if eff { format!("eff. lv {})", ru.effective_level) } else { format!("lv {})", ru.level) };
                    adjusted += usize::from(eff);
                    let shown = entries(lines).iter().any(|l| l.ends_with(&level) && (eff || !l.contains("eff.")));
                    assert!(shown, "{what}: the ruler's `{level}`");
                }
                for ru in map.rooms.iter().filter_map(|r| r.ruler.as_ref()) {
                    if ru.adjustments.iter().any(|a| a.hidden_in == Some(*room)) {
                        let core = format!("core of {}", ru.name);
                        let marked = lines.iter().any(|l| l.starts_with(&core) || starts(l, &core));
                        assert!(marked, "{what}: the hidden core of {}", ru.name);
                    }
                }
            }
        }
        // Every mini event is on a map of the scenario, so each was looked for above.
        if let Some(st) = &s.story {
            assert!(st.mini_events.iter().all(|e| s.map(e.at.map).is_some()), "seed {}", s.seed);
        }
    }
    assert!(npcs > 100 && events > 100 && adjusted > 10, "{npcs} NPCs, {events} events, {adjusted} adjusted rulers");
}
