//! MYK map sheets as print-ready SVG, one page per map: the GM's copy (rooms, corridors, threats,
//! legend) and the players' copy (the bare grid with the entrances, for the court's mapper).
//!
//! Units are millimetres (`viewBox` = paper size, so 1 unit = 1 mm). Every coordinate is snapped to
//! a 0.1 mm grid and written by [`mm`], so the bytes are stable; the canvas writes attributes in
//! sorted order and escapes all text.
//!
//! Text never overlaps: widths are measured with DejaVu Sans advance widths (the first font asked
//! for, and wider than the Arial/Helvetica fallbacks), every label is fitted to the box it owns
//! (wrapped, then shortened with an ellipsis), and the layout keeps the boxes apart.

use svg::node::element::{Line, Path, Pattern, Rectangle, Title};

use crate::model::Paper;
use crate::myk::model::{
    Corridor, CorridorId, Entrance, Map, ObjectiveKind, Place, PlacedTrap, Room, RoomId, Ruler, Scenario, Wall,
};
use crate::render::Audience;
use crate::render::svgkit::{
    ASCENT, Canvas, DESCENT, GREY, INK, Pen, Turn, WHITE, ellipsize, fit_line, fits, icon_crown, icon_pawn, icon_trap,
    mm, snap, txt, width, wrap, wrap_words, xml_chars,
};
#[cfg(test)]
use crate::render::svgkit::{Bbox, Label};
use crate::tables::Tables;
use crate::tables::myk::Route;

/// Page margins and the band around the grid that holds entrances and their labels.
const MARGIN: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 8.0;
const BAND: f64 = 12.0;
/// Gap between rooms (where corridors are drawn) and the corridor band's thickness.
const GAP: f64 = 12.0;
const CORRIDOR: f64 = 8.0;
/// The rock between the rooms: a light grey that prints on any laser printer and stays apart from
/// the white floor on screen, so only rooms and the corridors cut through it read as open ground.
/// It reaches `ROCK_RIM` past the outer walls, so an entrance is a gap cut through it.
const ROCK: &str = "#d4d4d4";
const ROCK_RIM: f64 = 3.0;
/// A corridor trap's badge on its corridor: small enough to leave floor on both sides of it.
const BADGE: f64 = 5.0;

/// Text sizes (mm): room names stay at 3.5 mm or more.
const ID_SIZE: f64 = 5.0;
const NAME_SIZE: f64 = 3.5;
const LINE_SIZE: f64 = 3.0;
const SMALL: f64 = 2.6;
const FOOT: f64 = 2.4;

impl Canvas {
    fn hatch_id(&self) -> String {
        format!("{}-hatch", self.id)
    }

    /// The hatch pattern that marks unused rooms.
    fn hatch(&self) -> Pattern {
        Pattern::new()
            .set("id", self.hatch_id())
            .set("patternUnits", "userSpaceOnUse")
            .set("width", "2")
            .set("height", "2")
            .set("patternTransform", "rotate(45)")
            .add(Rectangle::new().set("width", "2").set("height", "2").set("fill", WHITE))
            .add(
                Line::new()
                    .set("x1", "0")
                    .set("y1", "0")
                    .set("x2", "0")
                    .set("y2", "2")
                    .set("stroke", "#999")
                    .set("stroke-width", "0.4"),
            )
    }
}

// ---------------------------------------------------------------------------------------------
// Icons, drawn as shapes so they print the same with any font. `s` is the icon's size in mm.

fn icon_base(c: &mut Canvas, x: f64, y: f64, s: f64) {
    c.line(x + s * 0.2, y, x + s * 0.2, y - s, Pen(INK, 0.35, None));
    c.poly(&[(x + s * 0.2, y - s), (x + s * 0.95, y - s * 0.75), (x + s * 0.2, y - s * 0.5)], INK, None);
}

fn icon_clue(c: &mut Canvas, cx: f64, cy: f64, s: f64) {
    let r = s * 0.3;
    let (ox, oy) = (cx - s * 0.12, cy - s * 0.12);
    c.circle(ox, oy, r, WHITE, Some((INK, 0.35)));
    let k = r * std::f64::consts::FRAC_1_SQRT_2;
    c.line(ox + k, oy + k, cx + s * 0.45, cy + s * 0.45, Pen(INK, 0.6, None));
}

/// The objective's star (a five-pointed star centred on `(cx, cy)`).
fn icon_star(c: &mut Canvas, cx: f64, cy: f64, s: f64) {
    let (ro, ri) = (s * 0.5, s * 0.2);
    let pts: Vec<(f64, f64)> = (0..10)
        .map(|i| {
            let a = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
            let r = if i % 2 == 0 { ro } else { ri };
            (cx + r * a.cos(), cy + 0.05 * s + r * a.sin())
        })
        .collect();
    c.poly(&pts, INK, None);
}

/// A cast NPC: an outlined figure (a monster's pawn is filled), so the two read apart.
fn icon_person(c: &mut Canvas, x: f64, y: f64, s: f64) {
    c.circle(x + s / 2.0, y - s * 0.74, s * 0.2, WHITE, Some((INK, 0.3)));
    c.poly(
        &[(x + s * 0.15, y), (x + s * 0.3, y - s * 0.45), (x + s * 0.7, y - s * 0.45), (x + s * 0.85, y)],
        WHITE,
        Some((INK, 0.3)),
    );
}

/// A mini event: an exclamation mark in a circle, drawn as shapes.
fn icon_event(c: &mut Canvas, x: f64, y: f64, s: f64) {
    let (cx, cy, r) = (x + s / 2.0, y - s / 2.0, s * 0.46);
    c.circle(cx, cy, r, WHITE, Some((INK, 0.3)));
    c.line(cx, cy - r * 0.6, cx, cy + r * 0.15, Pen(INK, 0.4, None));
    c.circle(cx, cy + r * 0.45, 0.2, INK, None);
}

/// A ruler's hidden core: a diamond.
fn icon_core(c: &mut Canvas, x: f64, y: f64, s: f64) {
    let (cx, cy, h, w) = (x + s / 2.0, y - s / 2.0, s * 0.5, s * 0.34);
    c.poly(&[(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], INK, None);
}

/// The race's clock: an hourglass.
fn icon_clock(c: &mut Canvas, x: f64, y: f64, s: f64) {
    let (l, r, t) = (x + s * 0.2, x + s * 0.8, y - s);
    c.poly(&[(l, t), (r, t), (x + s / 2.0, y - s / 2.0)], WHITE, Some((INK, 0.3)));
    c.poly(&[(x + s / 2.0, y - s / 2.0), (r, y), (l, y)], INK, Some((INK, 0.3)));
}

/// The objective room's frame: a second wall just inside the room's own, clear of its text
/// (which starts at the room's padding).
fn objective_frame(c: &mut Canvas, x: f64, y: f64, r: f64) {
    let k = 1.0;
    let frame = Rectangle::new()
        .set("x", mm(x + k))
        .set("y", mm(y + k))
        .set("width", mm(r - 2.0 * k))
        .set("height", mm(r - 2.0 * k))
        .set("fill", "none");
    c.add(Pen(INK, 0.5, None).on(frame));
}

/// A corridor-trap badge: a warning triangle with the trap's number.
fn badge(c: &mut Canvas, cx: f64, cy: f64, n: usize, s: f64) {
    let h = s * 0.9;
    c.poly(
        &[(cx - s / 2.0, cy + h * 0.45), (cx, cy - h * 0.55), (cx + s / 2.0, cy + h * 0.45)],
        WHITE,
        Some((INK, 0.3)),
    );
    let size = s * 0.36;
    txt(cx, cy + h * 0.38, size, n.to_string()).bold().middle().put(c);
}

/// An arrow from `(x0, y0)` to `(x1, y1)` (axis-aligned): shaft and head, filled or outlined.
fn arrow(c: &mut Canvas, x0: f64, y0: f64, x1: f64, y1: f64, filled: bool) {
    let len = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
    let (ux, uy) = ((x1 - x0) / len, (y1 - y0) / len);
    let (px, py) = (-uy, ux);
    let (shaft, head, hl) = (0.9, 2.4, 2.8_f64.min(len * 0.6));
    let (bx, by) = (x1 - ux * hl, y1 - uy * hl);
    let pts = [
        (x0 + px * shaft, y0 + py * shaft),
        (bx + px * shaft, by + py * shaft),
        (bx + px * head, by + py * head),
        (x1, y1),
        (bx - px * head, by - py * head),
        (bx - px * shaft, by - py * shaft),
        (x0 - px * shaft, y0 - py * shaft),
    ];
    c.poly(&pts, if filled { INK } else { WHITE }, Some((INK, 0.35)));
}

// ---------------------------------------------------------------------------------------------
// Corridors.

/// How a corridor is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Look {
    hidden: bool,
    locked: bool,
    closed: bool,
    /// +1: travel towards the second room (right / down), -1: towards the first.
    one_way: i8,
    trap: Option<usize>,
}

/// A corridor band from `a` to `b` along x (`horizontal`) or y, centred on `mid` across, `t` thick:
/// white floor from door to door (it blanks the room walls it meets), its walls, its route mark
/// and its trap's badge. With both, the mark moves to the first half and the badge to the second,
/// so each keeps floor around it.
fn band(c: &mut Canvas, horizontal: bool, a: f64, b: f64, mid: f64, t: f64, look: Look) {
    let dash = look.hidden.then_some("1.2 0.8");
    let (w, half) = (0.4, t / 2.0);
    if horizontal {
        c.rect(a - 0.6, mid - half, b - a + 1.2, t, WHITE, None);
        c.line(a - 0.3, mid - half, b + 0.3, mid - half, Pen(INK, w, dash));
        c.line(a - 0.3, mid + half, b + 0.3, mid + half, Pen(INK, w, dash));
    } else {
        c.rect(mid - half, a - 0.6, t, b - a + 1.2, WHITE, None);
        c.line(mid - half, a - 0.3, mid - half, b + 0.3, Pen(INK, w, dash));
        c.line(mid + half, a - 0.3, mid + half, b + 0.3, Pen(INK, w, dash));
    }
    let marked = look.closed || look.locked || look.one_way != 0;
    let (mark_at, badge_at) = match (marked, look.trap.is_some()) {
        (true, true) => (-(b - a) * 0.22, (b - a) * 0.24),
        _ => (0.0, 0.0),
    };
    let m = (a + b) / 2.0 + mark_at;
    // (along, across) -> page point, along measured from the route mark's place.
    let p = |along: f64, across: f64| if horizontal { (m + along, mid + across) } else { (mid + across, m + along) };
    // The marks shrink a little when they share the corridor with a badge.
    let t = if look.trap.is_some() && marked { t * 0.8 } else { t };
    if look.closed {
        let k = t * 0.38;
        let (x0, y0) = p(-k, -k);
        let (x1, y1) = p(k, k);
        c.line(x0, y0, x1, y1, Pen(INK, 0.6, None));
        let (x0, y0) = p(-k, k);
        let (x1, y1) = p(k, -k);
        c.line(x0, y0, x1, y1, Pen(INK, 0.6, None));
    }
    if look.one_way != 0 {
        let d = f64::from(look.one_way);
        let k = t * 0.3;
        let pts = [p(d * k, 0.0), p(-d * k, -k), p(-d * k * 0.4, 0.0), p(-d * k, k)];
        c.poly(&pts, INK, None);
    }
    if look.locked {
        padlock(c, p(0.0, 0.0), t);
    }
    if let Some(n) = look.trap {
        let (x, y) = p(badge_at - mark_at, 0.0);
        badge(c, x, y, n, BADGE.min(t * 0.7));
    }
}

/// A padlock centred on `(cx, cy)` for a corridor `t` thick: shackle and body.
fn padlock(c: &mut Canvas, (cx, cy): (f64, f64), t: f64) {
    let (bw, bh) = (t * 0.42, t * 0.34);
    let r = bw * 0.3;
    let top = cy - bh * 0.2;
    let d = format!(
        "M{} {} V{} A{} {} 0 0 1 {} {} V{}",
        mm(cx - r),
        mm(top),
        mm(top - r * 0.8),
        mm(r),
        mm(r),
        mm(cx + r),
        mm(top - r * 0.8),
        mm(top)
    );
    c.add(Path::new().set("d", d).set("fill", "none").set("stroke", INK).set("stroke-width", "0.4"));
    c.rect(cx - bw / 2.0, top, bw, bh, INK, None);
}

/// The look of every corridor, from its trap's route and the room traps that hide it.
fn corridor_look(map: &Map, k: &Corridor, tables: &Tables, trap_no: Option<usize>) -> Look {
    let route = k.trap.as_ref().and_then(|t| tables.myk.trap(&t.name)).and_then(|t| t.route);
    let hidden = map.rooms.iter().flat_map(|r| &r.traps).any(|t| t.corridor == Some(k.id()));
    let id = k.id();
    let one_way = match k.one_way {
        Some(d) if d.from == id.0 => 1,
        Some(_) => -1,
        None => 0,
    };
    Look { hidden, locked: route == Some(Route::Locked), closed: route == Some(Route::Closed), one_way, trap: trap_no }
}

/// Where a moved court lands, from a room on `here`: "B3" or "map 2 B3".
fn dest(here: u32, p: Place) -> String {
    if p.map == here { p.room.to_string() } else { format!("map {} {}", p.map, p.room) }
}

/// The line for a corridor trap in the list: name and what it does to movement.
fn corridor_trap_text(map: &Map, k: &Corridor, t: &PlacedTrap, tables: &Tables) -> String {
    let route = tables.myk.trap(&t.name).and_then(|r| r.route);
    let what = match (route, t.destination, k.one_way) {
        (Some(Route::Closed), _, _) => " (impassable)".to_string(),
        (_, _, Some(d)) => format!(" (one-way {}\u{2192}{})", d.from, d.to),
        (_, Some(p), _) => format!(" \u{2192} {}", dest(map.index, p)),
        _ => String::new(),
    };
    format!("{} {}{what}", k.id(), t.name)
}

// ---------------------------------------------------------------------------------------------
// Page layout.

/// The grid's place on the page.
struct Grid {
    x: f64,
    y: f64,
    room: f64,
}

impl Grid {
    fn side(&self) -> f64 {
        self.room * 3.0 + GAP * 2.0
    }
    fn origin(&self, r: RoomId) -> (f64, f64) {
        (self.x + f64::from(r.col()) * (self.room + GAP), self.y + f64::from(r.row()) * (self.room + GAP))
    }
}

/// Heights of the blocks around the grid.
const HEAD: f64 = 19.0;
const LEGEND_ROWS: usize = 7;
const LEGEND_STEP: f64 = 5.2;
const LIST_STEP: f64 = 4.4;
const LIST_COLS: usize = 3;

fn legend_height(traps: usize) -> f64 {
    let list = if traps == 0 { 0.0 } else { 6.0 + traps.div_ceil(LIST_COLS) as f64 * LIST_STEP };
    6.0 + LEGEND_ROWS as f64 * LEGEND_STEP + list
}

/// The grid as large as the page allows once the title, legend and footer have their room. The
/// players' copy uses the GM's geometry so the two sheets line up.
fn grid(paper: Paper, corridor_traps: usize, footer_h: f64) -> Grid {
    let (w, h) = paper.size_mm();
    let avail_w = w - 2.0 * MARGIN - 2.0 * BAND;
    let footer_top = h - BOTTOM - footer_h;
    let avail_h = footer_top - 5.0 - legend_height(corridor_traps) - (TOP + HEAD) - 2.0 * BAND;
    let side = avail_w.min(avail_h);
    let room = ((side - 2.0 * GAP) * 10.0 / 3.0).floor() / 10.0;
    let side = room * 3.0 + 2.0 * GAP;
    let x = snap((w - side) / 2.0);
    let spare = (avail_h - side).max(0.0);
    let y = snap(TOP + HEAD + BAND + spare / 2.0);
    Grid { x, y, room }
}

/// The map sheet of `map` as a standalone SVG document (1 unit = 1 mm), for the GM or the players.
pub fn myk_sheet(s: &Scenario, map: &Map, tables: &Tables, paper: Paper, copy: Audience) -> String {
    finish(s, map, draw(s, map, tables, paper, copy, false), copy)
}

/// The GM's sheet of `map` as the web workbench shows it: the same drawing with a click target
/// over every room (`data-room="map1/B2"`), placed as the room is drawn. Only the workbench asks
/// for it; the files never carry targets, so their bytes stay as they are.
pub fn myk_workbench_sheet(s: &Scenario, map: &Map, tables: &Tables, paper: Paper) -> String {
    finish(s, map, draw(s, map, tables, paper, Audience::Gm, true), Audience::Gm)
}

fn finish(s: &Scenario, map: &Map, c: Canvas, copy: Audience) -> String {
    let title = match copy {
        Audience::Gm => format!("{} \u{2014} map {}: {} (GM)", s.title, map.index, map.name),
        Audience::Players => format!("{} \u{2014} map {} (players)", map.name, map.index),
    };
    let hatch = c.hatch();
    c.finish(&title, vec![Box::new(hatch)])
}

/// The workbench's click target over a room of the GM's copy: the room's box, its part path, a
/// class for a locked or unused room, and a tooltip naming it.
fn room_target(c: &mut Canvas, map: &Map, room: &Room, (x, y, r): (f64, f64, f64)) {
    let mut class = String::from("ds-hook");
    if room.locked || map.locked {
        class.push_str(" ds-locked");
    }
    if !room.used {
        class.push_str(" ds-unused");
    }
    let name =
        if room.used { format!("{} {}", room.id.name(), room.name) } else { format!("{} (unused)", room.id.name()) };
    let lock = if room.locked { " (locked)" } else { "" };
    let target = Rectangle::new()
        .set("class", class)
        .set("data-room", format!("map{}/{}", map.index, room.id.name()))
        .set("x", mm(x))
        .set("y", mm(y))
        .set("width", mm(r))
        .set("height", mm(r))
        .set("fill", "transparent")
        .add(Title::new(xml_chars(&format!("{name}{lock}"))));
    c.target(target);
}

/// Corridor traps of the map in corridor order, numbered from 1.
fn numbered_traps(map: &Map) -> Vec<(CorridorId, usize)> {
    let mut ks: Vec<&Corridor> = map.corridors.iter().filter(|k| k.trap.is_some()).collect();
    ks.sort_by_key(|k| k.id());
    ks.iter().enumerate().map(|(i, k)| (k.id(), i + 1)).collect()
}

/// One map sheet: the title block, the 3x3 grid (the GM's copy with everything in it, the
/// players' with bare rooms and faint corridor guides), the legend or the players' key, and the
/// footer that regenerates it.
fn draw(s: &Scenario, map: &Map, tables: &Tables, paper: Paper, copy: Audience, targets: bool) -> Canvas {
    let (w, h) = paper.size_mm();
    let tag = match copy {
        Audience::Gm => "gm",
        Audience::Players => "pl",
    };
    let mut c = Canvas::new(w, h, format!("m{}-{tag}", map.index));
    if targets {
        c.targets = Some(String::new());
    }
    let numbers = numbered_traps(map);
    let command = crate::render::regen::myk(s, tables, paper).command;
    // The GM's footer sets the geometry of both copies, so they line up.
    let footer_h = footer_height(footer(s, map, &command, paper, Audience::Gm).len());
    let g = grid(paper, numbers.len(), footer_h);
    let gm = copy == Audience::Gm;
    draw_title(&mut c, s, map, gm);

    // Rock, rooms on it, then corridors cut through it, then entrances over the walls.
    let rim = g.side() + 2.0 * ROCK_RIM;
    c.rect(g.x - ROCK_RIM, g.y - ROCK_RIM, rim, rim, ROCK, None);
    for room in &map.rooms {
        let (x, y) = g.origin(room.id);
        let r = g.room;
        if gm {
            draw_gm_room(&mut c, s, map, room.id, x, y, r);
            room_target(&mut c, map, room, (x, y, r));
        } else {
            c.rect(x, y, r, r, WHITE, Some(Pen(INK, 0.6, None)));
            txt(x + 1.5, y + 1.2 + ASCENT * 3.2, 3.2, room.id.to_string()).bold().grey().put(&mut c);
        }
    }
    if gm {
        draw_corridors(&mut c, map, tables, &g, &numbers);
    } else {
        draw_corridor_guides(&mut c, &g);
    }
    for e in &map.entrances {
        draw_entrance(&mut c, &g, e, copy);
    }

    // Below the grid: the legend (and corridor traps), or the players' key and notes.
    let footer_top = h - BOTTOM - footer_h;
    if gm {
        draw_legend(&mut c, map, tables, footer_top - 2.0 - legend_height(numbers.len()), &numbers);
    } else {
        draw_players_key(&mut c, g.y + g.side() + BAND + 2.0, footer_top);
    }

    // Footer: everything needed to regenerate the sheet.
    c.line(MARGIN, footer_top + 1.0, w - MARGIN, footer_top + 1.0, Pen(INK, 0.3, None));
    for (i, line) in footer(s, map, &command, paper, copy).into_iter().enumerate() {
        let t = txt(MARGIN, footer_top + 1.8 + ASCENT * FOOT + 0.6 + i as f64 * FOOT_STEP, FOOT, line);
        if i == 0 { t.put(&mut c) } else { t.grey().put(&mut c) }
    }
    c
}

/// The title block: the scenario's title (the GM's) or the map's name (the players', who must
/// not learn the title's secrets), which map of how many, and for the GM the court and the
/// search difficulty; a rule under it.
fn draw_title(c: &mut Canvas, s: &Scenario, map: &Map, gm: bool) {
    let w = c.w;
    let of = s.maps.len();
    let inner = w - 2.0 * MARGIN;
    let right = if gm {
        format!(
            "GM copy \u{00b7} court of {}, average level {} \u{00b7} search {}",
            s.court.size, s.court.average_level, s.limits.search_difficulty
        )
    } else {
        "players' copy".to_string()
    };
    let big = if gm { s.title.clone() } else { map.name.to_string() };
    txt(MARGIN, TOP + 0.95 * 6.0, 6.0, ellipsize(&big, inner, 6.0, true)).bold().put(c);
    let right_w = width(&right, 3.2, false);
    txt(w - MARGIN, TOP + 13.0, 3.2, right.clone()).end().put(c);
    let sub = if gm {
        format!("Map {} of {} \u{00b7} {}", map.index, of, map.name)
    } else {
        format!("Map {} of {}", map.index, of)
    };
    txt(MARGIN, TOP + 13.0, 4.0, ellipsize(&sub, inner - right_w - 4.0, 4.0, false)).put(c);
    c.line(MARGIN, TOP + 16.5, w - MARGIN, TOP + 16.5, Pen(INK, 0.5, None));
}

/// The GM's corridors as floor cut through the rock from door to door, drawn as their look says
/// (open, one-way, secret...), each corridor trap's numbered badge on its own corridor (the legend
/// lists them).
fn draw_corridors(c: &mut Canvas, map: &Map, tables: &Tables, g: &Grid, numbers: &[(CorridorId, usize)]) {
    for k in &map.corridors {
        let no = numbers.iter().find(|(id, _)| *id == k.id()).map(|(_, n)| *n);
        let look = corridor_look(map, k, tables, no);
        let id = k.id();
        let (x, y) = g.origin(id.0);
        let r = g.room;
        if id.0.row() == id.1.row() {
            band(c, true, x + r, x + r + GAP, y + r / 2.0, CORRIDOR, look);
        } else {
            band(c, false, y + r, y + r + GAP, x + r / 2.0, CORRIDOR, look);
        }
    }
}

/// The players' sheet: faint guides where corridors may be, all twelve alike (so they give
/// nothing away), for the mapper to ink over.
fn draw_corridor_guides(c: &mut Canvas, g: &Grid) {
    for a in RoomId::ALL {
        for b in a.neighbours().filter(|b| *b > a) {
            let (x, y) = g.origin(a);
            let r = g.room;
            if a.row() == b.row() {
                c.line(x + r + 1.0, y + r / 2.0, x + r + GAP - 1.0, y + r / 2.0, Pen("#999", 0.3, Some("0.5 1")));
            } else {
                c.line(x + r / 2.0, y + r + 1.0, x + r / 2.0, y + r + GAP - 1.0, Pen("#999", 0.3, Some("0.5 1")));
            }
        }
    }
}

const FOOT_STEP: f64 = 3.3;

/// The footer's lines: what the sheet is, then the program, tables and `command` that regenerates
/// it (the regenerate line, [`crate::render::regen`]; wrapped, never cut: a long `--levels` list
/// takes a third line).
fn footer(s: &Scenario, map: &Map, command: &str, paper: Paper, copy: Audience) -> Vec<String> {
    let inner = paper.size_mm().0 - 2.0 * MARGIN;
    let of = s.maps.len();
    let (name, tail, rest) = match copy {
        Audience::Gm => {
            let g = &s.generator;
            (
                s.title.as_str(),
                format!(
                    " \u{00b7} map {} of {of} \u{00b7} seed {} \u{00b7} {} \u{00b7} GM copy",
                    map.index,
                    s.seed,
                    paper.label()
                ),
                (format!("{} {} \u{00b7} tables {} \u{00b7}", g.name, g.version, g.tables), command.to_string()),
            )
        }
        Audience::Players => (
            map.name.as_str(),
            format!(" \u{00b7} map {} of {of} \u{00b7} players' copy", map.index),
            (format!("{} {}", s.generator.name, s.generator.version), String::new()),
        ),
    };
    let head = ellipsize(name, inner - width(&tail, FOOT, false), FOOT, false);
    let mut lines = vec![format!("{head}{tail}")];
    // The command is one word: it moves to a line of its own rather than break.
    let mut words: Vec<&str> = rest.0.split_whitespace().collect();
    if !rest.1.is_empty() {
        words.push(&rest.1);
    }
    lines.extend(wrap_words(&words, inner, FOOT, false, 2));
    lines
}

/// Height of the footer block for `lines` lines.
fn footer_height(lines: usize) -> f64 {
    6.7 + lines.saturating_sub(1) as f64 * FOOT_STEP
}

/// What a room line starts with: a threat's icon, a story mark's, or none.
#[derive(Clone, Copy, PartialEq)]
enum Icon {
    Ruler,
    Monster,
    Base,
    Trap,
    Objective,
    Person,
    Event,
    Core,
    Clock,
    None,
}

/// Draws `icon` with its bottom-left at `(x, y)`, `s` mm tall.
fn room_icon(c: &mut Canvas, icon: Icon, x: f64, y: f64, s: f64) {
    match icon {
        Icon::Ruler => icon_crown(c, x, y, s),
        Icon::Monster => icon_pawn(c, x, y, s),
        Icon::Base => icon_base(c, x, y, s),
        Icon::Trap => icon_trap(c, x, y, s),
        Icon::Objective => icon_star(c, x + s / 2.0, y - s / 2.0, s * 1.1),
        Icon::Person => icon_person(c, x, y, s),
        Icon::Event => icon_event(c, x, y, s),
        Icon::Core => icon_core(c, x, y, s),
        Icon::Clock => icon_clock(c, x, y, s),
        Icon::None => {}
    }
}

/// A room on the GM's sheet: its id and clue mark, its name, then a line per threat (ruler,
/// monsters, bases, traps) with an icon, as many as fit; an unused room is hatched.
fn draw_gm_room(c: &mut Canvas, s: &Scenario, map: &Map, id: RoomId, x: f64, y: f64, r: f64) {
    let room = map.room(id);
    let pad = 1.8;
    let id_base = y + pad + ASCENT * ID_SIZE;
    if !room.used {
        draw_unused_room(c, id, x, y, r, pad, id_base);
        return;
    }
    c.rect(x, y, r, r, WHITE, Some(Pen(INK, 0.6, None)));
    txt(x + pad, id_base, ID_SIZE, id.to_string()).bold().put(c);
    let here = Place { map: map.index, room: id };
    if s.objective.at == Some(here) {
        objective_frame(c, x, y, r);
        icon_star(c, x + pad + width(id.name(), ID_SIZE, true) + 2.6, id_base - ID_SIZE * 0.4, 3.6);
    }
    let clues = s.clues.iter().filter(|k| k.at.map == map.index && k.at.room == id).count();
    if clues > 0 {
        icon_clue(c, x + r - pad - 2.2, y + pad + 2.2, 4.4);
        if clues > 1 {
            txt(x + r - pad - 5.2, id_base, LINE_SIZE, format!("{clues}\u{00d7}")).end().put(c);
        }
    }

    // The name: up to two lines under the id.
    let text_w = r - 2.0 * pad;
    let name_step = NAME_SIZE * 1.22;
    let mut yb = id_base + DESCENT * ID_SIZE + 0.6 + ASCENT * NAME_SIZE;
    let name = wrap(&room.name, text_w, NAME_SIZE, false, 2);
    for line in &name {
        txt(x + pad, yb, NAME_SIZE, line.clone()).put(c);
        yb += name_step;
    }
    if !name.is_empty() {
        c.line(
            x + pad,
            yb - name_step + DESCENT * NAME_SIZE + 0.7,
            x + r - pad,
            yb - name_step + DESCENT * NAME_SIZE + 0.7,
            Pen(GREY, 0.2, None),
        );
    }

    // Threat lines: icon + short text, from under the name's rule to the room's bottom.
    let icon_w = 3.0;
    let line_w = text_w - icon_w - 0.8;
    let step = LINE_SIZE * 1.25;
    let first = if name.is_empty() { yb } else { yb - name_step + DESCENT * NAME_SIZE + 1.4 + ASCENT * LINE_SIZE };
    let bottom = y + r - pad;
    let cap = ((bottom - (first - ASCENT * LINE_SIZE)) / step).floor().max(0.0) as usize;
    let mut entries = story_entries(s, map, room);
    entries.extend(threat_entries(map, room));
    let blocks = room_blocks(&entries, line_w, cap);
    let mut yb = first;
    for (icon, lines) in blocks {
        room_icon(c, icon, x + pad + 0.1, yb + 0.1, 2.6);
        for line in lines {
            txt(x + pad + icon_w + 0.8, yb, LINE_SIZE, line).put(c);
            yb += step;
        }
    }
}

/// An unused room: hatched, dashed, "unused" in the middle and its id on white so the hatching
/// does not run through the text.
fn draw_unused_room(c: &mut Canvas, id: RoomId, x: f64, y: f64, r: f64, pad: f64, id_base: f64) {
    c.rect(x, y, r, r, &format!("url(#{})", c.hatch_id()), Some(Pen(GREY, 0.4, Some("2 1.2"))));
    let (uw, uh) = (width("unused", NAME_SIZE, false) + 3.0, NAME_SIZE * 1.2 + 1.6);
    c.rect(x + (r - uw) / 2.0, y + (r - uh) / 2.0, uw, uh, WHITE, None);
    txt(x + r / 2.0, y + r / 2.0 + NAME_SIZE * 0.35, NAME_SIZE, "unused").middle().grey().put(c);
    let (iw, ih) = (width(&id.to_string(), ID_SIZE, true) + 1.6, ID_SIZE * 1.2);
    c.rect(x + pad - 0.8, id_base - ASCENT * ID_SIZE - 0.3, iw, ih, WHITE, None);
    txt(x + pad, id_base, ID_SIZE, id.to_string()).bold().grey().put(c);
}

/// A ruler's level as the sheet prints it: the effective level (what the court faces, its
/// adjustments counted) marked "eff." when it differs from the bestiary's, which the legend
/// says; a file not yet fixed (no effective level) prints the bestiary's.
fn ruler_level(ru: &Ruler) -> String {
    if ru.effective_level != 0 && ru.effective_level != ru.level {
        format!("eff. lv {}", ru.effective_level)
    } else {
        format!("lv {}", ru.level)
    }
}

/// The word for a cast member's part on the sheet: the part their role starts with (informant,
/// captive, recipient, rival), else the role as written.
fn role_word(role: &str) -> &str {
    use crate::myk::story::{CAPTIVE, INFORMANT, RECIPIENT, RIVAL};
    [INFORMANT, CAPTIVE, RECIPIENT, RIVAL].into_iter().find(|r| role.starts_with(r)).unwrap_or(role)
}

/// The objective as its room's line says it: the verb of its kind and what it names.
fn objective_line(s: &Scenario) -> Vec<(String, String)> {
    let o = &s.objective;
    let verb = match o.kind {
        ObjectiveKind::Defeat => "defeat",
        ObjectiveKind::Rescue => "rescue",
        ObjectiveKind::Acquire => "take",
        ObjectiveKind::Search => "find",
        ObjectiveKind::Deliver => "deliver",
        ObjectiveKind::WinOver => "win over",
        ObjectiveKind::Race => "reach first",
    };
    let what = match o.kind {
        ObjectiveKind::Race => String::new(),
        _ => o.item.clone().filter(|i| !i.is_empty()).unwrap_or_else(|| o.target.clone()),
    };
    let short = (format!("Objective: {verb}"), String::new());
    if what.is_empty() { vec![short] } else { vec![(format!("Objective: {verb} {what}"), String::new()), short] }
}

/// The story's marks in a room, in the order the sheet lists them: the objective (and a race's
/// arrival), the cast NPCs who stand there by role, the mini events by title, and the hidden core
/// of a ruler of the map.
fn story_entries(s: &Scenario, map: &Map, room: &Room) -> Vec<(Icon, Vec<(String, String)>)> {
    let here = Place { map: map.index, room: room.id };
    let mut entries: Vec<(Icon, Vec<(String, String)>)> = Vec::new();
    if s.objective.at == Some(here) {
        entries.push((Icon::Objective, objective_line(s)));
        if let Some(q) = crate::myk::goal::arrival(s) {
            let long = (format!("rival arrives end of Quarter {q}"), String::new());
            entries.push((Icon::Clock, vec![long, (format!("rival in Q{q}"), String::new())]));
        }
    }
    for n in s.cast.iter().filter(|n| n.place == Some(here)) {
        entries.push((Icon::Person, vec![(n.name.to_string(), format!(" ({})", role_word(&n.role)))]));
    }
    for title in crate::render::myk_story::events_in(s, here) {
        entries.push((Icon::Event, vec![(title, String::new())]));
    }
    for ru in map.rooms.iter().filter_map(|r| r.ruler.as_ref()) {
        for a in ru.adjustments.iter().filter(|a| a.hidden_in == Some(room.id)) {
            let long = (format!("core of {} ({})", ru.name, a.what), String::new());
            entries.push((Icon::Core, vec![long, (format!("core of {}", ru.name), String::new())]));
        }
    }
    entries
}

/// One entry per threat of a room, in the order the sheet lists them (ruler, monsters, bases,
/// traps): its icon and (head, kept tail) candidates, most detailed first, for
/// [`room_blocks`] to choose from as room allows.
fn threat_entries(map: &Map, room: &Room) -> Vec<(Icon, Vec<(String, String)>)> {
    let mut entries: Vec<(Icon, Vec<(String, String)>)> = Vec::new();
    if let Some(ru) = &room.ruler {
        let (name, level) = (ru.name.as_str().to_owned(), ruler_level(ru));
        // The crown says "ruler" when the line is short of room; the level is never cut.
        entries.push((Icon::Ruler, vec![(name.clone(), format!(" (ruler, {level})")), (name, format!(" ({level})"))]));
    }
    for m in &room.monsters {
        entries.push((
            Icon::Monster,
            // A lone monster reads by its name alone: "×1" counts nothing.
            vec![(
                m.name.as_str().to_owned(),
                match m.count {
                    1 => format!(" ({})", m.reaction.label()),
                    n => format!(" \u{00d7}{n} ({})", m.reaction.label()),
                },
            )],
        ));
    }
    for b in &room.bases {
        entries.push((Icon::Base, vec![(b.name.as_str().to_owned(), String::new())]));
    }
    for (i, t) in room.traps.iter().enumerate() {
        // The same trap twice reads "Gray Rose ×2".
        let same = |u: &&PlacedTrap| {
            u.name == t.name && u.object == t.object && u.corridor == t.corridor && u.destination == t.destination
        };
        if room.traps[..i].iter().any(|u| same(&u)) {
            continue;
        }
        let n = room.traps.iter().filter(|u| same(u)).count();
        let times = if n > 1 { format!(" \u{00d7}{n}") } else { String::new() };
        let tail = t.destination.map(|p| format!(" \u{2192} {}", dest(map.index, p))).unwrap_or_default();
        let tail = format!("{times}{tail}");
        let mut cands = Vec::new();
        if let Some(k) = t.corridor {
            cands.push((format!("{} ({k})", t.name), tail.clone()));
        }
        if let Some(o) = &t.object {
            cands.push((format!("{} (on {o})", t.name), tail.clone()));
        }
        cands.push((t.name.as_str().to_owned(), tail));
        entries.push((Icon::Trap, cands));
    }
    entries
}

/// Fits a room's entries into `cap` lines of `max` mm: one line each, a second line for entries
/// that had to be shortened while there is room; when there are too many, the traps are packed
/// onto shared lines and the rest is cut with a pointer to the booklet.
fn room_blocks(entries: &[(Icon, Vec<(String, String)>)], max: f64, cap: usize) -> Vec<(Icon, Vec<String>)> {
    let full = |cands: &[(String, String)]| format!("{}{}", cands[0].0, cands[0].1);
    if entries.len() <= cap {
        let mut spare = cap - entries.len();
        return entries
            .iter()
            .map(|(icon, cands)| {
                let one = fit_line(cands, max, LINE_SIZE);
                let (head, tail) = &cands[0];
                let mut words: Vec<&str> = head.split_whitespace().collect();
                if !tail.trim().is_empty() {
                    words.push(tail.trim());
                }
                let two = wrap_words(&words, max, LINE_SIZE, false, 2);
                // Two lines only when they keep the tail (a ruler's level) whole.
                let kept = two.last().is_some_and(|l| l.ends_with(tail.trim()));
                if one != full(cands) && two.len() == 2 && spare > 0 && kept {
                    spare -= 1;
                    (*icon, two)
                } else {
                    (*icon, vec![one])
                }
            })
            .collect();
    }
    // Too many: one line per entry, the traps packed onto shared lines; each block remembers how
    // many entries of which kind it holds, so a cut can say what is left out.
    let mut blocks: Vec<(Icon, Vec<String>, usize)> = entries
        .iter()
        .filter(|(icon, _)| *icon != Icon::Trap)
        .map(|(icon, cands)| (*icon, vec![fit_line(cands, max, LINE_SIZE)], 1))
        .collect();
    let (mut cur, mut n) = (String::new(), 0);
    for (_, cands) in entries.iter().filter(|(icon, _)| *icon == Icon::Trap) {
        let item = fit_line(&cands[cands.len() - 1..], max, LINE_SIZE);
        let joined = format!("{cur}, {item}");
        if cur.is_empty() {
            cur = item;
        } else if fits(&joined, max, LINE_SIZE, false) {
            cur = joined;
        } else {
            blocks.push((Icon::Trap, vec![std::mem::replace(&mut cur, item)], n));
            n = 0;
        }
        n += 1;
    }
    if !cur.is_empty() {
        blocks.push((Icon::Trap, vec![cur], n));
    }
    if blocks.len() > cap {
        let cut = blocks.split_off(cap.saturating_sub(1));
        let count = |k: &[Icon]| cut.iter().filter(|b| k.contains(&b.0)).map(|b| b.2).sum::<usize>();
        let story = [Icon::Objective, Icon::Person, Icon::Event, Icon::Core, Icon::Clock];
        let parts: Vec<String> = [
            (count(&story), "story mark", "story marks"),
            (count(&[Icon::Ruler, Icon::Monster]), "monster group", "monster groups"),
            (count(&[Icon::Base]), "base", "bases"),
            (count(&[Icon::Trap]), "trap", "traps"),
        ]
        .into_iter()
        .filter(|(n, ..)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
        .collect();
        let long = format!("+ {} (see booklet)", parts.join(", "));
        let line = if fits(&long, max, LINE_SIZE, false) {
            long
        } else {
            format!("+ {} more (booklet)", cut.iter().map(|b| b.2).sum::<usize>())
        };
        if cap > 0 {
            blocks.push((Icon::None, vec![ellipsize(&line, max, LINE_SIZE, false)], 0));
        }
    }
    blocks.into_iter().map(|(icon, lines, _)| (icon, lines)).collect()
}

/// An entrance: a doorway in the wall and a gap through the rock's rim, an arrow in the band (in
/// from outside: filled, pointing in; to another map: outlined, pointing out) and a label beyond
/// it. The players' copy calls a passage to another map an exit: where it leads is found by
/// going through.
fn draw_entrance(c: &mut Canvas, g: &Grid, e: &Entrance, copy: Audience) {
    let (x, y) = g.origin(e.room);
    let r = g.room;
    let (wx, wy, nx, ny): (f64, f64, f64, f64) = match e.wall {
        Wall::North => (x + r / 2.0, y, 0.0, -1.0),
        Wall::South => (x + r / 2.0, y + r, 0.0, 1.0),
        Wall::West => (x, y + r / 2.0, -1.0, 0.0),
        Wall::East => (x + r, y + r / 2.0, 1.0, 0.0),
    };
    let door = 7.0;
    let along = |d: f64| (wx + ny.abs() * d, wy + nx.abs() * d);
    let (ax, ay) = along(-door / 2.0);
    let (bx, by) = along(door / 2.0);
    // Doorway: blank the wall, then jambs.
    let (t0, t1) = (1.0, 1.6);
    c.rect(
        ax.min(bx) - nx.abs() * t0,
        ay.min(by) - ny.abs() * t0,
        (bx - ax) + nx.abs() * 2.0 * t0,
        (by - ay) + ny.abs() * 2.0 * t0,
        WHITE,
        None,
    );
    let (gx, gy) = (ax.min(bx) + nx.min(0.0) * ROCK_RIM, ay.min(by) + ny.min(0.0) * ROCK_RIM);
    c.rect(gx, gy, (bx - ax) + nx.abs() * ROCK_RIM, (by - ay) + ny.abs() * ROCK_RIM, WHITE, None);
    c.line(ax - nx * 0.3, ay - ny * 0.3, ax + nx * t1, ay + ny * t1, Pen(INK, 0.6, None));
    c.line(bx - nx * 0.3, by - ny * 0.3, bx + nx * t1, by + ny * t1, Pen(INK, 0.6, None));
    let (outer, inner) = (6.4, 0.6);
    let (ox, oy) = (wx + nx * outer, wy + ny * outer);
    let (ix, iy) = (wx + nx * inner, wy + ny * inner);
    let text = match e.to {
        None => {
            arrow(c, ox, oy, ix, iy, true);
            "from outside".to_string()
        }
        Some(p) => {
            arrow(c, ix, iy, ox, oy, false);
            match copy {
                Audience::Gm => format!("to map {}, {}", p.map, p.room),
                Audience::Players => "exit".to_string(),
            }
        }
    };
    let size = LINE_SIZE;
    let text = ellipsize(&text, r - 2.0, size, true);
    let d = 8.0;
    match e.wall {
        Wall::North => txt(wx, wy - d, size, text).middle().bold().put(c),
        Wall::South => txt(wx, wy + d + ASCENT * size, size, text).middle().bold().put(c),
        Wall::West => txt(wx - d, wy, size, text).middle().bold().turn(Turn::Up).put(c),
        Wall::East => txt(wx + d, wy, size, text).middle().bold().turn(Turn::Down).put(c),
    }
}

/// A legend entry's sample, drawn as the map draws it.
#[derive(Clone, Copy)]
enum Sample {
    Corridor(Look, f64),
    Badge,
    Arrow(bool),
    Icon(Icon),
    Clue,
    Objective,
    Unused,
    None,
}

/// Every mark a GM sheet may carry, in the legend's order (down the columns): the corridors and
/// ways, then what stands in a room, then the story's marks.
fn legend_entries() -> [(Sample, &'static str); LEGEND_ROWS * 3 - 1] {
    let look = Look::default();
    [
        (Sample::Corridor(look, 1.0), "corridor through rock (grey)"),
        (Sample::Corridor(Look { hidden: true, ..look }, 1.0), "secret corridor (Secret Door)"),
        (Sample::Corridor(Look { locked: true, ..look }, 1.3), "locked corridor (Lock)"),
        (Sample::Corridor(Look { one_way: 1, ..look }, 1.3), "one-way corridor (Moving Floor)"),
        (Sample::Corridor(Look { closed: true, ..look }, 1.3), "impassable (Infinite Corridor)"),
        (Sample::Badge, "trap in the corridor (list below)"),
        (Sample::Arrow(true), "entrance from outside"),
        (Sample::Arrow(false), "passage to another map"),
        (Sample::None, "\u{2192} B3: moves the court to B3"),
        (Sample::Unused, "unused room"),
        (Sample::Icon(Icon::Ruler), "ruler (eff. lv: with adjustments)"),
        (Sample::Icon(Icon::Monster), "monsters \u{00d7}count (reaction)"),
        (Sample::Icon(Icon::Base), "base"),
        (Sample::Icon(Icon::Trap), "trap in the room"),
        (Sample::Clue, "a clue is found here"),
        (Sample::Objective, "the objective's room"),
        (Sample::Icon(Icon::Person), "NPC of the cast (role)"),
        (Sample::Icon(Icon::Event), "mini event (title)"),
        (Sample::Icon(Icon::Core), "a ruler's hidden core"),
        (Sample::Icon(Icon::Clock), "race: the rival arrives"),
    ]
}

/// The legend: every mark used on a GM sheet, then the numbered corridor traps.
fn draw_legend(c: &mut Canvas, map: &Map, tables: &Tables, top: f64, numbers: &[(CorridorId, usize)]) {
    let inner = c.w - 2.0 * MARGIN;
    txt(MARGIN, top + ASCENT * 3.2, 3.2, "Legend").bold().put(c);
    let col_w = inner / 3.0;
    let sample_w = 12.0;
    let row0 = top + 5.2;
    for (i, (sample, text)) in legend_entries().into_iter().enumerate() {
        let (col, row) = (i / LEGEND_ROWS, i % LEGEND_ROWS);
        let x = MARGIN + col as f64 * col_w;
        let cy = row0 + row as f64 * LEGEND_STEP + LEGEND_STEP / 2.0;
        let (sx, sy) = (x, cy);
        let t = 3.4;
        match sample {
            Sample::Corridor(look, k) => {
                rock_swatch(c, sx, sy, sample_w, t);
                band(c, true, sx, sx + sample_w, sy, t * k, look);
            }
            Sample::Badge => badge(c, sx + 6.0, sy, 1, 5.0),
            Sample::Arrow(filled) => arrow(c, sx + 1.0, sy, sx + 11.0, sy, filled),
            Sample::Icon(icon) => room_icon(c, icon, sx + 4.5, sy + 1.5, 3.0),
            Sample::Clue => icon_clue(c, sx + 6.0, sy, 4.0),
            Sample::Objective => {
                let (bw, bh) = (sample_w - 2.0, 4.4);
                c.rect(sx + 1.0, sy - bh / 2.0, bw, bh, WHITE, Some(Pen(INK, 0.6, None)));
                let frame = Rectangle::new()
                    .set("x", mm(sx + 1.7))
                    .set("y", mm(sy - bh / 2.0 + 0.7))
                    .set("width", mm(bw - 1.4))
                    .set("height", mm(bh - 1.4))
                    .set("fill", "none");
                c.add(Pen(INK, 0.4, None).on(frame));
                icon_star(c, sx + 6.0, sy, 2.4);
            }
            Sample::Unused => {
                let (bw, bh) = (sample_w - 2.0, 4.0);
                c.rect(
                    sx + 1.0,
                    sy - bh / 2.0,
                    bw,
                    bh,
                    &format!("url(#{})", c.hatch_id()),
                    Some(Pen(GREY, 0.3, Some("1.5 0.8"))),
                );
            }
            Sample::None => {}
        }
        let tx = x + sample_w + 1.5;
        let text = ellipsize(text, col_w - sample_w - 3.0, SMALL, false);
        txt(tx, cy + SMALL * 0.35, SMALL, text).put(c);
    }
    if numbers.is_empty() {
        return;
    }
    let list_top = row0 + LEGEND_ROWS as f64 * LEGEND_STEP + 1.0;
    txt(MARGIN, list_top + ASCENT * 3.2, 3.2, "Corridor traps").bold().put(c);
    let rows = numbers.len().div_ceil(LIST_COLS);
    for (i, (id, n)) in numbers.iter().enumerate() {
        let Some(k) = map.corridors.iter().find(|k| k.id() == *id) else { continue };
        let Some(t) = &k.trap else { continue };
        let (col, row) = (i / rows, i % rows);
        let x = MARGIN + col as f64 * col_w;
        let cy = list_top + 5.0 + row as f64 * LIST_STEP + LIST_STEP / 2.0;
        badge(c, x + 2.5, cy, *n, 4.6);
        let text = ellipsize(&corridor_trap_text(map, k, t, tables), col_w - 8.0, SMALL, false);
        txt(x + 6.0, cy + SMALL * 0.35, SMALL, text).put(c);
    }
}

/// The rock a legend's corridor sample is cut through, as on the map.
fn rock_swatch(c: &mut Canvas, sx: f64, sy: f64, w: f64, t: f64) {
    c.rect(sx - 0.5, sy - t * 0.65 - 0.9, w + 1.0, t * 1.3 + 1.8, ROCK, None);
}

/// The players' key (entrances only) and a ruled notes area.
fn draw_players_key(c: &mut Canvas, top: f64, footer_top: f64) {
    let inner = c.w - 2.0 * MARGIN;
    let col_w = inner / 3.0;
    let cy = top + 2.5;
    arrow(c, MARGIN + 1.0, cy, MARGIN + 11.0, cy, true);
    txt(MARGIN + 13.5, cy + SMALL * 0.35, SMALL, "entrance from outside").put(c);
    arrow(c, MARGIN + col_w + 1.0, cy, MARGIN + col_w + 11.0, cy, false);
    txt(MARGIN + col_w + 13.5, cy + SMALL * 0.35, SMALL, "exit to another map").put(c);
    txt(
        MARGIN + 2.0 * col_w,
        cy + SMALL * 0.35,
        SMALL,
        ellipsize("Draw corridors as you find them.", col_w, SMALL, false),
    )
    .put(c);
    let notes = top + 8.0;
    txt(MARGIN, notes + ASCENT * 3.2, 3.2, "Notes").bold().put(c);
    let mut y = notes + 11.0;
    while y < footer_top - 4.0 {
        c.line(MARGIN, y, c.w - MARGIN, y, Pen("#999", 0.2, None));
        y += 7.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::myk::model::Layout;
    use crate::myk::{MykParams, generate};
    use std::sync::OnceLock;

    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| Tables::embedded().expect("embedded tables"))
    }

    fn scenario(seed: u64, maps: u32, rooms: u32, layout: Layout) -> Scenario {
        generate(tables(), &MykParams { levels: vec![2; 4], maps, rooms, layout, objective: None }, seed)
            .expect("generates")
    }

    /// The GM footer `draw` writes: with the regenerate line the built-in tables give.
    fn gm_footer(s: &Scenario, map: &Map, paper: Paper) -> Vec<String> {
        footer(s, map, &crate::render::regen::myk(s, tables(), paper).command, paper, Audience::Gm)
    }

    #[test]
    fn numbers_are_written_on_a_tenth_of_a_millimetre() {
        assert_eq!(mm(12.34), "12.3");
        assert_eq!(mm(12.35000001), "12.4");
        assert_eq!(mm(-0.01), "0");
        assert_eq!(mm(-4.0), "-4");
        assert_eq!(mm(215.9), "215.9");
        assert_eq!(mm(0.1 + 0.2), "0.3");
    }

    #[test]
    fn long_text_wraps_then_ends_in_an_ellipsis() {
        let lines = wrap("The Very Long Name Of A Room That Goes On", 30.0, 3.5, false, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| fits(l, 30.0, 3.5, false)), "{lines:?}");
        assert!(lines[1].ends_with('\u{2026}'), "{lines:?}");
        let one = wrap("Supercalifragilisticexpialidocious-Hall", 20.0, 3.5, false, 2);
        assert!(one.iter().all(|l| fits(l, 20.0, 3.5, false)), "{one:?}");
        assert_eq!(wrap("Short", 30.0, 3.5, false, 2), ["Short"]);
        let fitted = fit_line(&[("Mayonnaise King Pure Select".into(), " \u{00d7}2 (neutral)".into())], 30.0, 2.8);
        assert!(fitted.ends_with(" \u{00d7}2 (neutral)") && fitted.contains('\u{2026}'), "{fitted}");
        assert!(fits(&fitted, 30.0, 2.8, false));
    }

    /// Every label of every sheet stays on the page, and no two labels' boxes overlap.
    #[test]
    fn labels_never_overlap_and_stay_on_the_page() {
        let layouts = [Layout::Mixed, Layout::Straight, Layout::Junction];
        for seed in 0..60u64 {
            let (maps, rooms) = [(1, 9), (3, 9), (2, 4), (2, 7)][seed as usize % 4];
            // Every fifth court is large and mixed: more threats and a long `--levels` footer.
            let levels = if seed % 5 == 0 { (1..=12).map(|l| l + seed as u32 % 9).collect() } else { vec![2; 4] };
            let p = MykParams { levels, maps, rooms, layout: layouts[seed as usize % 3], objective: None };
            let s = generate(tables(), &p, seed).expect("generates");
            for map in &s.maps {
                for paper in [Paper::A4, Paper::Letter] {
                    for copy in [Audience::Gm, Audience::Players] {
                        let c = draw(&s, map, tables(), paper, copy, false);
                        let boxes: Vec<(Bbox, &str)> = c.labels.iter().map(|l| (l.bbox(), l.text.as_str())).collect();
                        for (b, t) in &boxes {
                            assert!(
                                b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= c.w && b.y1 <= c.h,
                                "seed {seed} map {} {paper:?} {copy:?}: `{t}` leaves the page: {b:?}",
                                map.index
                            );
                        }
                        for i in 0..boxes.len() {
                            for j in i + 1..boxes.len() {
                                assert!(
                                    !boxes[i].0.overlaps(&boxes[j].0),
                                    "seed {seed} map {} {paper:?} {copy:?}: `{}` overlaps `{}`",
                                    map.index,
                                    boxes[i].1,
                                    boxes[j].1
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// Room text stays inside its room.
    #[test]
    fn room_text_stays_inside_its_room() {
        for seed in 0..40u64 {
            let s = scenario(seed, 1, 9, Layout::Mixed);
            let map = &s.maps[0];
            for paper in [Paper::A4, Paper::Letter] {
                let g = grid(paper, numbered_traps(map).len(), footer_height(gm_footer(&s, map, paper).len()));
                let c = draw(&s, map, tables(), paper, Audience::Gm, false);
                for l in &c.labels {
                    let b = l.bbox();
                    let inside = RoomId::ALL.iter().any(|&r| {
                        let (x, y) = g.origin(r);
                        b.x0 >= x && b.y0 >= y && b.x1 <= x + g.room && b.y1 <= y + g.room
                    });
                    let touches = RoomId::ALL.iter().any(|&r| {
                        let (x, y) = g.origin(r);
                        Bbox { x0: x, y0: y, x1: x + g.room, y1: y + g.room }.overlaps(&b)
                    });
                    assert!(inside || !touches, "seed {seed} {paper:?}: `{}` spills out of its room", l.text);
                }
            }
        }
    }

    /// A hand-edited scenario: one room stuffed with threats and very long names.
    fn stuffed() -> Scenario {
        let mut s = scenario(42, 1, 9, Layout::Mixed);
        let long = "Extraordinarily Long-Winded Name Of The <Most> Dreadful & \"Unspeakable\" Thing";
        s.title = long.to_string();
        s.maps[0].name = long.into();
        let donor = s.maps[0].rooms.iter().flat_map(|r| r.traps.clone()).next().expect("a trap");
        let monster = s.maps[0].rooms.iter().flat_map(|r| r.monsters.clone()).next().expect("a monster");
        let room = &mut s.maps[0].rooms[4];
        room.used = true;
        room.name = "Supercalifragilisticexpialidocious Hall of the Twelve Thousand Mirrors".into();
        for i in 0..12 {
            let mut t = donor.clone();
            t.name = format!("Trap number {i} with a long name").into();
            t.destination = (i % 3 == 0).then_some(Place { map: 3, room: RoomId::ALL[i % 9] });
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

    #[test]
    fn a_stuffed_room_is_packed_and_cut_but_never_overflows() {
        let s = stuffed();
        let map = &s.maps[0];
        for paper in [Paper::A4, Paper::Letter] {
            let g = grid(paper, numbered_traps(map).len(), footer_height(gm_footer(&s, map, paper).len()));
            let c = draw(&s, map, tables(), paper, Audience::Gm, false);
            let (x, y) = g.origin(RoomId::ALL[4]);
            let inside: Vec<&Label> = c
                .labels
                .iter()
                .filter(|l| {
                    let b = l.bbox();
                    b.x0 >= x && b.y0 >= y && b.x1 <= x + g.room && b.y1 <= y + g.room
                })
                .collect();
            assert!(inside.iter().any(|l| l.text.contains("booklet)")), "{paper:?}: no pointer to the booklet");
            assert!(inside.iter().any(|l| l.text.contains('\u{2026}')), "{paper:?}: nothing shortened");
            let boxes: Vec<Bbox> = c.labels.iter().map(Label::bbox).collect();
            for i in 0..boxes.len() {
                assert!(boxes[i].x0 >= 0.0 && boxes[i].x1 <= c.w && boxes[i].y0 >= 0.0 && boxes[i].y1 <= c.h);
                for j in i + 1..boxes.len() {
                    assert!(!boxes[i].overlaps(&boxes[j]), "`{}` overlaps `{}`", c.labels[i].text, c.labels[j].text);
                }
            }
        }
    }

    #[test]
    fn the_footer_carries_the_whole_command_even_when_long() {
        let levels = vec![10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21];
        let p = MykParams { levels, maps: 3, rooms: 9, layout: Layout::Junction, objective: None };
        let s = generate(tables(), &p, 7).expect("generates");
        for paper in [Paper::A4, Paper::Letter] {
            let lines = gm_footer(&s, &s.maps[1], paper);
            assert!(lines.len() >= 2);
            assert!(lines[0].contains("map 2 of 3") && lines[0].contains("seed 7"), "{lines:?}");
            assert!(lines[0].contains(paper.label()), "{lines:?}");
            assert!(!lines.iter().any(|l| l.contains('\u{2026}')), "nothing cut: {lines:?}");
            assert_eq!(
                lines[1..].join(" ").split(" \u{00b7} ").last(),
                Some(crate::render::regen::myk_seed_command(&s, paper).as_str())
            );
            let c = draw(&s, &s.maps[1], tables(), paper, Audience::Gm, false);
            assert!(c.labels.iter().all(|l| l.bbox().y1 <= c.h));
        }
        assert_eq!(
            crate::render::regen::myk_seed_command(&s, Paper::Letter),
            "dungeonsmith myk --seed 7 --levels 10,11,12,13,14,15,16,17,18,19,20,21 --maps 3 --rooms 9 --layout junction --paper letter"
        );
        let s = scenario(42, 1, 9, Layout::Mixed);
        assert_eq!(
            crate::render::regen::myk_seed_command(&s, Paper::A4),
            "dungeonsmith myk --seed 42 --court-size 4 --level 2 --maps 1 --rooms 9 --layout mixed"
        );
    }

    #[test]
    fn the_players_copy_shows_no_threats_or_room_names() {
        let s = scenario(42, 1, 9, Layout::Mixed);
        let map = &s.maps[0];
        let svg = myk_sheet(&s, map, tables(), Paper::A4, Audience::Players);
        for r in map.used_rooms() {
            assert!(!svg.contains(r.name.as_str()) || r.name == map.name, "room name {} on the players' copy", r.name);
            for m in &r.monsters {
                assert!(!svg.contains(m.name.as_str()), "{} on the players' copy", m.name);
            }
        }
        assert!(svg.contains("players' copy") || svg.contains("players&apos; copy"));
        assert!(!svg.contains(&s.title));
    }
}
