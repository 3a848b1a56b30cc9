//! NW3 Fortress area maps as print-ready SVG: the GM's copy (every area and gate, in rows from
//! the Entrance at the top to the Fortress Core at the bottom, with a legend and a footer that
//! regenerates it) and the players' copy (the title, the trailer, the Entrance and room to draw
//! the fortress and take notes).
//!
//! Conventions are the MYK sheets' ([`crate::render::sheet`], shared through
//! [`crate::render::svgkit`]): 1 unit = 1 mm, every number on a 0.1 mm grid, DejaVu Sans widths,
//! user text escaped by the SVG writer (`svgel`), ids prefixed per sheet.
//!
//! The GM's map keeps three promises, by construction and checked by tests on the SVG itself:
//! no gate line crosses a circle other than its own two, an area's label or a note; no two texts
//! overlap; everything stays on the page. How:
//! 1. [`placement`]: each area is a cell (circle, label to its right) in a row; rows are the
//!    layout's layers, a layer too wide for the page cut into runs over several rows (in the
//!    layout's order, so no gates cross); a gate that passes a row gets a narrow cell of its
//!    own there. Between rows run channels that hold
//!    only gate lines. Sizes come from the roomiest level at which the map fits; text is never
//!    smaller than [`MIN_TEXT`] for anything the generator makes.
//! 2. [`routing`]: each gate leaves its circle vertically from a port of its own, crosses each
//!    channel in one straight slanted piece (started a lane lower, or ended a lane higher, where
//!    it passes another line's end, so shallow lines do not run along each other) and passes rows
//!    in its own cell. Lines cross only in channels, and on a generated fortress's map not at
//!    all: its layout is drawn in its own order (a row per layer, or a wide layer's runs), and
//!    the generator built it so that no two gates cross (a test counts the crossings on the SVG
//!    of thousands of maps); a hand-edited graph gets the layout's fewest crossings, and
//!    `check` says how many remain.
//! 3. Marks ("S", arrow, bars, cross) and notes ("event in 4", "Danger Sense 15", "×2") go at the
//!    first spot along the line that is free of every other line, label, circle and note; a note
//!    with no free spot, and a gate beyond the ports a circle offers (hand-edited files only),
//!    is listed under the legend instead ("gate 3–4 (closed): event in 3").
//!
//! Everything is linear or n log n in the areas and gates (each mark and note checks every line
//! once per spot tried), and user text is cut to [`labels::MAX_CHARS`] before it is measured, so
//! any file renders quickly.

mod furniture;
mod geometry;
mod labels;
mod placement;
mod players;
mod routing;

use crate::model::Paper;
use crate::nw3::layout::layout;
use crate::nw3::model::{AreaKind, Fortress, GateKind};
use crate::render::Audience;
use crate::render::svgkit::{Anchor, Bbox, Canvas, Label, mm, xml_chars};
use crate::tables::Tables;
use svg::node::element::{Circle, Title};

use furniture::{
    Look, draw_circle, draw_footer, draw_gate_line, draw_head, draw_legend, draw_mark, entrance_arrow, footer,
    footer_height, gate_note, has_badge, kind_word, legend_height, mark_half, notes_that_fit,
};
use geometry::{Disc, Poly, Pt, union};
use labels::{block_height, cap, stack};
use placement::{Placed, label_x, place};
use players::draw_players;
use routing::{BOTTOM_PORTS, Board, TOP_PORTS, channel_needs, fallback_mark, mark_and_note, route, top_reach};

/// Page margins (mm) and the title block's height.
const MARGIN: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 8.0;
const HEAD: f64 = 17.0;
/// No text on the map is smaller than this font size (mm): 2.5 mm is about 7 pt, a cap height of
/// 1.8 mm, the size of a printed footnote; the map shrinks its circles, labels and channels to
/// fit a big fortress on the page, but not its text below this. Only a hand-edited file far
/// beyond the generator's 40 areas is drawn smaller (see [`placement`]).
pub const MIN_TEXT: f64 = 2.5;
/// Footer and legend text.
const FOOT: f64 = 2.5;
const FOOT_STEP: f64 = 3.4;
const LEGEND_TEXT: f64 = 2.6;
const LEGEND_STEP: f64 = 4.4;
const LEGEND_COLS: usize = 3;
const NOTE_STEP: f64 = 3.6;
/// At most this many rows of notes listed under the legend; the rest point to the booklet.
const MAX_NOTE_ROWS: usize = 8;
/// Gate line width.
const GATE_W: f64 = 0.4;

/// A drawn map and what the tests check.
struct Drawn {
    canvas: Canvas,
    /// Every area circle (cx, cy, r).
    circles: Vec<Disc>,
    /// Every gate drawn: (from, to) as area indices, and its line.
    #[cfg_attr(not(test), allow(dead_code))]
    routes: Vec<(usize, usize, Poly)>,
    /// Area names and gate notes that went under the legend.
    listed: Vec<String>,
}

/// Which gates are drawn: (gate index, area a, area b) for every gate between two different
/// existing areas, as long as both circles have a port free on the side it leaves from; the
/// rest (only in hand-edited files) are listed.
fn drawable(f: &Fortress) -> (Vec<(usize, usize, usize)>, Vec<usize>) {
    let mut by_id: Vec<(u32, usize)> = f.areas.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
    by_id.sort_by_key(|p| p.0);
    by_id.dedup_by_key(|p| p.0);
    let index = |id: u32| by_id.binary_search_by_key(&id, |p| p.0).ok().map(|i| by_id[i].1);
    let l = layout(f);
    let rank = |i: usize| l.nodes.get(i).map_or(0, |p| p.layer);
    let (mut top, mut bottom) = (vec![0usize; f.areas.len()], vec![0usize; f.areas.len()]);
    let (mut drawn, mut left_out) = (Vec::new(), Vec::new());
    for (gi, g) in f.gates.iter().enumerate() {
        let (Some(a), Some(b)) = (index(g.from), index(g.to)) else { continue };
        if a == b {
            continue;
        }
        // A gate within a layer may end up between two rows of it: count it on both sides.
        let (ra, rb) = (rank(a), rank(b));
        let ends = [(a, ra.cmp(&rb)), (b, rb.cmp(&ra))];
        let fits = ends.iter().all(|&(i, o)| match o {
            std::cmp::Ordering::Less => bottom[i] < BOTTOM_PORTS,
            std::cmp::Ordering::Greater => top[i] < TOP_PORTS,
            std::cmp::Ordering::Equal => bottom[i] < BOTTOM_PORTS && top[i] < TOP_PORTS,
        });
        if !fits {
            left_out.push(gi);
            continue;
        }
        for (i, o) in ends {
            if o.is_le() {
                bottom[i] += 1;
            }
            if o.is_ge() {
                top[i] += 1;
            }
        }
        drawn.push((gi, a, b));
    }
    (drawn, left_out)
}

/// The GM's map, laid out with room for `note_rows` rows of notes under the legend.
fn draw_gm(f: &Fortress, command: &str, paper: Paper, note_rows: usize) -> Drawn {
    let (w, h) = paper.size_mm();
    let mut c = Canvas::new(w, h, format!("nw3-{}-gm", f.seed));
    draw_head(
        &mut c,
        &cap(&f.title),
        &format!("Night Wizard 3rd Edition Fortress \u{00b7} {} areas, {} gates", f.areas.len(), f.gates.len()),
        &format!("GM copy \u{00b7} party of {}, CL {}", f.party.size, f.party.cl),
    );
    let foot = footer(f, command, paper, Audience::Gm);
    let footer_top = h - BOTTOM - footer_height(foot.len());
    let legend_top = footer_top - 2.0 - legend_height(f, note_rows);
    let region = Bbox { x0: MARGIN, y0: TOP + HEAD + 1.0, x1: w - MARGIN, y1: legend_top - 2.0 };

    let (gates, left_out) = drawable(f);
    let noted: Vec<bool> = f.gates.iter().map(|g| gate_note(f, g).is_some()).collect();
    let placed = place(f, &gates, &noted, &region, channel_room);
    let badged: Vec<bool> = f.areas.iter().map(|a| has_badge(Look::of(f, a))).collect();
    let lines = route(&placed, &top_reach(f, &placed.level));
    // How far each line's ink reaches from its centre line (a damaged gate's rungs are wide).
    let reach = placed
        .edges
        .iter()
        .map(|e| if f.gates[e.gate].kind == GateKind::Damaged { 0.9 } else { GATE_W / 2.0 })
        .collect();
    let mut board = Board { region, lines, reach, boxes: Vec::new(), discs: Vec::new() };
    let areas = draw_areas(f, &placed, &badged, &mut board, &c);
    let marks = place_marks(f, &placed, &mut board);
    let listed = listed_lines(f, marks.unplaced, &left_out);

    // Gate lines first, then circles over their ends, marks, and all text on top.
    let routes = draw_gate_lines(&mut c, f, &placed, &board, &marks.holes);
    c.shapes.push_str(&areas.nodes.shapes);
    c.labels.extend(areas.nodes.labels);
    for (gi, p, tg) in marks.marks {
        let g = &f.gates[gi];
        draw_mark(&mut c, g.kind, g.uses, p, tg);
    }
    c.labels.extend(areas.labels);
    c.labels.extend(marks.note_labels);
    draw_legend(&mut c, f, legend_top, &notes_that_fit(&listed, note_rows, w));
    draw_footer(&mut c, &foot, footer_top);
    Drawn { canvas: c, circles: areas.circles, routes, listed }
}

/// The least height of each channel of a map placed at its level: room for its lanes
/// ([`routing::channel_needs`]). Handed to [`placement::place`], which does not route.
fn channel_room(f: &Fortress, placed: &Placed, rows: usize) -> Vec<f64> {
    channel_needs(placed, &top_reach(f, &placed.level), rows)
}

/// The areas as drawn: circles, badges and the Entrance's arrow on a canvas of their own (they
/// go over the gate lines' ends, which are drawn later), and the name labels.
struct AreaLayer {
    nodes: Canvas,
    circles: Vec<Disc>,
    labels: Vec<Label>,
}

/// Draws every area at its place and takes its circle, badges, label and arrow off the `board`,
/// so no mark or note is put over them.
fn draw_areas(f: &Fortress, placed: &Placed, badged: &[bool], board: &mut Board, c: &Canvas) -> AreaLayer {
    let lv = &placed.level;
    let mut nodes = Canvas::new(c.w, c.h, String::new());
    let mut circles = Vec::with_capacity(f.areas.len());
    let mut area_labels: Vec<Label> = Vec::new();
    for (i, a) in f.areas.iter().enumerate() {
        let look = Look::of(f, a);
        let (cx, cy) = placed.centre(i);
        circles.push((cx, cy, lv.r));
        board.discs.push((cx, cy, lv.r));
        let id = format!("{}-area-{i}", c.id);
        let b = draw_circle(&mut nodes, look, a.optional, (cx, cy, lv.r), Some((a.id, lv.number)), Some(id));
        board.discs.extend(b);
        let (lines, _) = &placed.blocks[i];
        let labels = stack(label_x(cx, lv.r, badged[i]), cy - block_height(lines) / 2.0, Anchor::Start, lines);
        if let Some(b) = union(labels.iter().map(Label::bbox)) {
            board.boxes.push(b);
        }
        area_labels.extend(labels);
        // The arrow comes in from above; a gate from the row above would run into it.
        if a.kind == AreaKind::Entrance && !entered_from_row_above(placed, i) {
            let len = 5.0_f64.min(lv.r * 1.4);
            entrance_arrow(&mut nodes, cx, cy - lv.r, len);
            board.boxes.push(Bbox { x0: cx - 1.2, y0: cy - lv.r - len, x1: cx + 1.2, y1: cy - lv.r });
        }
    }
    AreaLayer { nodes, circles, labels: area_labels }
}

/// Whether a gate line comes down into area `i`'s circle from another row (into its top).
fn entered_from_row_above(placed: &Placed, i: usize) -> bool {
    let item = placed.item_of[i];
    placed.edges.iter().any(|e| {
        e.chain.last() == Some(&item) && e.chain.len() > 1 && placed.items[e.chain[0]].row != placed.items[item].row
    })
}

/// The gate marks and notes placed on the map.
struct GateMarks {
    /// (gate index, point, direction) of every mark drawn on a line.
    marks: Vec<(usize, Pt, Pt)>,
    /// Per edge: the gaps its line leaves under a secret or damaged gate's mark, so the mark reads.
    holes: Vec<Vec<(Pt, f64)>>,
    note_labels: Vec<Label>,
    /// The notes that found no free spot: ((from, to), line) for the list under the legend.
    unplaced: Vec<((u32, u32), String)>,
}

/// Puts each special gate's mark and note at the first free spot along its line, noted gates
/// first (they need the most room), then arrows; what does not fit is listed instead.
fn place_marks(f: &Fortress, placed: &Placed, board: &mut Board) -> GateMarks {
    let mut out = GateMarks {
        marks: Vec::new(),
        holes: vec![Vec::new(); placed.edges.len()],
        note_labels: Vec::new(),
        unplaced: Vec::new(),
    };
    for e in mark_order(f, placed) {
        let gi = placed.edges[e].gate;
        let g = &f.gates[gi];
        let m = mark_half(g.kind, g.uses);
        let note = gate_note(f, g);
        let found = mark_and_note(board, e, m, note.as_ref(), placed.level.info);
        let (at, note_label) = match found {
            Some(mk) => (Some((mk.at, mk.dir)), mk.note),
            // No free spot: an arrow or bars still go on the line; an "S" (text) does not.
            None if matches!(g.kind, GateKind::OneWay | GateKind::Closed) => (fallback_mark(&board.lines[e]), None),
            None => (None, None),
        };
        if let Some((p, tg)) = at
            && m > 0.0
        {
            board.discs.push((p.0, p.1, m));
            if matches!(g.kind, GateKind::Secret | GateKind::Damaged) {
                out.holes[e].push((p, m + 0.1));
            }
            out.marks.push((gi, p, tg));
        }
        match (note, note_label) {
            (Some(_), Some(lb)) => {
                board.boxes.push(lb.bbox());
                out.note_labels.push(lb);
            }
            (Some(n), None) => out
                .unplaced
                .push(((g.from, g.to), format!("gate {}\u{2013}{} ({}): {}", g.from, g.to, kind_word(g.kind), n.0))),
            _ => {}
        }
    }
    out
}

/// The edges that carry a mark, in the order they get a spot: closed, secret, damaged (those
/// with notes, which need the most room), then one-way; by gate within a kind.
fn mark_order(f: &Fortress, placed: &Placed) -> Vec<usize> {
    let kind = |e: usize| f.gates[placed.edges[e].gate].kind;
    let mut order: Vec<usize> = (0..placed.edges.len()).filter(|&e| kind(e) != GateKind::Normal).collect();
    order.sort_by_key(|&e| {
        let rank = match kind(e) {
            GateKind::Closed => 0,
            GateKind::Secret => 1,
            GateKind::Damaged => 2,
            GateKind::OneWay | GateKind::Normal => 3,
        };
        (rank, placed.edges[e].gate)
    });
    order
}

/// The lines under the legend: notes with no room on the map and the gates not drawn at all, by
/// gate; identical lines (doubled gates in a hand-edited file) once, with a count.
fn listed_lines(f: &Fortress, mut notes: Vec<((u32, u32), String)>, left_out: &[usize]) -> Vec<String> {
    for &gi in left_out {
        let g = &f.gates[gi];
        let n = gate_note(f, g).map(|n| format!(": {}", n.0)).unwrap_or_default();
        notes.push(((g.from, g.to), format!("gate {}\u{2013}{} ({}) not drawn{n}", g.from, g.to, kind_word(g.kind))));
    }
    notes.sort();
    let mut listed: Vec<String> = Vec::new();
    let mut run = 0;
    for (k, (_, t)) in notes.iter().enumerate() {
        run += 1;
        if notes.get(k + 1).is_none_or(|(_, next)| next != t) {
            listed.push(if run > 1 { format!("{t} (\u{00d7}{run})") } else { t.clone() });
            run = 0;
        }
    }
    listed
}

/// Draws every routed gate line (with gaps under its marks) and returns each as (area, area,
/// line) for the tests. A damaged gate's zigzag is told the other lines, to narrow near them.
fn draw_gate_lines(
    c: &mut Canvas,
    f: &Fortress,
    placed: &Placed,
    board: &Board,
    holes: &[Vec<(Pt, f64)>],
) -> Vec<(usize, usize, Poly)> {
    let mut routes = Vec::new();
    for (e, edge) in placed.edges.iter().enumerate() {
        let g = &f.gates[edge.gate];
        let id = format!("{}-gate-{}", c.id, edge.gate);
        let near: Vec<&Poly> = if g.kind == GateKind::Damaged {
            board.lines.iter().enumerate().filter(|&(o, _)| o != e).map(|(_, l)| l).collect()
        } else {
            Vec::new()
        };
        draw_gate_line(c, g.kind, &board.lines[e], &holes[e], &near, Some(id));
        let (u, v) = (edge.chain[0], edge.chain[edge.chain.len() - 1]);
        let (a, b) = (placed.items[u].area.unwrap_or(0), placed.items[v].area.unwrap_or(0));
        routes.push((a, b, board.lines[e].clone()));
    }
    routes
}

/// Draws the GM's map, listing under the legend the gate notes that found no room on the map.
fn gm_map(f: &Fortress, tables: &Tables, paper: Paper) -> Drawn {
    let command = crate::render::regen::fortress(f, tables, paper).command;
    // Room under the legend only grows, so this settles; a map that still wants more after a few
    // rounds shows what fits and points to the booklet.
    let mut rows = 0;
    let mut d = draw_gm(f, &command, paper, rows);
    for _ in 0..4 {
        let want = furniture::note_rows(&d.listed, paper.size_mm().0).min(MAX_NOTE_ROWS);
        if want <= rows {
            break;
        }
        rows = want;
        d = draw_gm(f, &command, paper, rows);
    }
    d
}

/// The GM's area map as the web workbench shows it: the same drawing with a click target over
/// every area circle (`data-area="5"`), on the circles the map was drawn with. Only the workbench
/// asks for it; the files never carry targets, so their bytes stay as they are.
pub fn fortress_workbench_map(f: &Fortress, tables: &Tables, paper: Paper) -> String {
    let mut d = gm_map(f, tables, paper);
    d.canvas.targets = Some(String::new());
    for (a, &(cx, cy, r)) in f.areas.iter().zip(&d.circles) {
        let class = if a.locked { "ds-hook ds-locked" } else { "ds-hook" };
        let lock = if a.locked { " (locked)" } else { "" };
        let target = Circle::new()
            .set("class", class)
            .set("data-area", a.id.to_string())
            .set("cx", mm(cx))
            .set("cy", mm(cy))
            // A little past the ring, so its ink is inside the target too.
            .set("r", mm(r + 0.8))
            .set("fill", "transparent")
            .add(Title::new(xml_chars(&format!("area {} {}{lock}", a.id, a.name))));
        d.canvas.target(target);
    }
    d.canvas.finish(&format!("{} \u{2014} area map (GM)", cap(&f.title)), Vec::new())
}

/// The area map of a fortress as a standalone SVG document (1 unit = 1 mm): for the GM, every
/// area and gate with a legend and a footer; for the players, the title, the trailer, the Entrance
/// and room for their own map and notes. Same fortress and paper, same bytes.
///
/// Everything the map shows is in the fortress (so an edited JSON file draws as written); `tables`
/// only decide the footer's regenerate line (whether the seed command gives this fortress back).
pub fn fortress_map(f: &Fortress, tables: &Tables, paper: Paper, copy: Audience) -> String {
    match copy {
        Audience::Gm => {
            let title = format!("{} \u{2014} area map (GM)", cap(&f.title));
            gm_map(f, tables, paper).canvas.finish(&title, Vec::new())
        }
        Audience::Players => {
            let title = format!("{} \u{2014} area map (players)", cap(&f.title));
            let (c, defs) = draw_players(f, paper);
            c.finish(&title, defs)
        }
    }
}

#[cfg(test)]
mod tests;
