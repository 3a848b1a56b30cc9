//! NW3 Fortress area maps as print-ready SVG: the GM's copy (every area and gate, in layers from
//! the Entrance at the top to the Fortress Core at the bottom, with a legend and a footer that
//! regenerates it) and the players' copy (the title, the trailer, the Entrance and room to draw
//! the fortress and take notes).
//!
//! Conventions are the MYK sheets' ([`crate::render::sheet`], shared through
//! [`crate::render::svgkit`]): 1 unit = 1 mm, every number on a 0.1 mm grid, DejaVu Sans widths,
//! user text escaped by the `svg` crate's text node, ids prefixed per sheet.
//!
//! Layout: [`crate::nw3::layout()`] gives each area a layer (gates from the Entrance) and an x on a
//! grid where neighbours are 2 units apart. The map scales x to the widest layer and shares the
//! height out between the layers, giving crowded layers more room above and below; circles and
//! text shrink for big fortresses, text never below [`MIN_TEXT`]. Then, in a fixed order so the
//! bytes are stable:
//! 1. each gate is routed: between layers, a curve that leaves and enters its circles vertically
//!    (the sides of the circles stay free for labels); in a layer, straight to a neighbour or a U
//!    below or above the row; and, when those would run over another area's circle, a curve bent
//!    far enough to go round it;
//! 2. each special gate gets its mark (arrowhead, "S", double bar, cross) at the free point
//!    nearest the middle of its line that leaves room for its note;
//! 3. each area's name and "Kind · AD n" line goes beside, below, above or at a corner of its
//!    circle: every spot and shape (one to three name lines, shorter info, smaller text) that
//!    overlaps nothing is scored by the gate lines it covers, whether it sits as near to another
//!    area as to its own, and how much of the name it cuts; the cheapest wins;
//! 4. each note ("event in 4", "Danger Sense 15", "×2", "unusable") goes beside its mark; a note
//!    (or, in a very crowded map, an area name) that finds no free spot is listed under the
//!    legend instead ("gate 3–4 (closed): event in 3").
//!
//! Text boxes are checked against each other, every circle, badge and mark, and the page, so
//! nothing overlaps; names are wrapped between words and shortened with an ellipsis only when no
//! spot has room for them. Text over a gate line gets a white halo so both stay readable.

use svg::Node;
use svg::node::element::{Circle, Path, Pattern};

use crate::nw3::layout::{Layout, layout};
use crate::nw3::model::{Area, AreaKind, EventKind, Fortress, Gate, GateKind, Opener};
use crate::render::svgkit::{
    ASCENT, Anchor, Bbox, Canvas, DESCENT, INK, Label, Pen, WHITE, ellipsize, fits, icon_crown, icon_pawn, icon_trap,
    mm, snap, txt, width, wrap, wrap_words,
};
use crate::render::{Copy, Paper};
use crate::tables::Tables;

/// Page margins (mm) and the title block's height.
const MARGIN: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 8.0;
const HEAD: f64 = 17.0;
/// Area labels may come this near the page's sides (mm).
const LABEL_MARGIN: f64 = 6.0;
/// No text on the map is smaller than this (mm).
pub const MIN_TEXT: f64 = 2.5;
/// Footer and legend text.
const FOOT: f64 = 2.5;
const FOOT_STEP: f64 = 3.4;
const LEGEND_TEXT: f64 = 2.6;
const LEGEND_STEP: f64 = 4.8;
const LEGEND_COLS: usize = 3;
const NOTE_STEP: f64 = 3.6;
/// Gate line width.
const GATE_W: f64 = 0.4;
/// The largest grid spacing (mm), so small fortresses do not sprawl.
const MAX_UX: f64 = 30.0;
const MAX_PITCH_Y: f64 = 40.0;

// ---------------------------------------------------------------------------------------------
// Geometry helpers.

type Pt = (f64, f64);

fn dist(a: Pt, b: Pt) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// A cubic Bézier curve (straight when its control points lie on the chord).
#[derive(Clone, Copy, Debug)]
struct Curve {
    p0: Pt,
    c1: Pt,
    c2: Pt,
    p3: Pt,
}

fn lerp(a: Pt, b: Pt, t: f64) -> Pt {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

impl Curve {
    fn line(p0: Pt, p3: Pt) -> Curve {
        Curve { p0, c1: lerp(p0, p3, 1.0 / 3.0), c2: lerp(p0, p3, 2.0 / 3.0), p3 }
    }

    /// The quadratic curve through `c` as a cubic.
    fn quad(p0: Pt, c: Pt, p3: Pt) -> Curve {
        Curve { p0, c1: lerp(p0, c, 2.0 / 3.0), c2: lerp(p3, c, 2.0 / 3.0), p3 }
    }

    fn at(&self, t: f64) -> Pt {
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        (
            a * self.p0.0 + b * self.c1.0 + c * self.c2.0 + d * self.p3.0,
            a * self.p0.1 + b * self.c1.1 + c * self.c2.1 + d * self.p3.1,
        )
    }

    /// Unit tangent at `t`, pointing from `p0` towards `p3`.
    fn tangent(&self, t: f64) -> Pt {
        let (a, b) = (self.at((t - 0.002).max(0.0)), self.at((t + 0.002).min(1.0)));
        let l = dist(a, b).max(1e-9);
        ((b.0 - a.0) / l, (b.1 - a.1) / l)
    }

    /// De Casteljau: the curve cut in two at `t`.
    fn split(&self, t: f64) -> (Curve, Curve) {
        let (ab, bc, cd) = (lerp(self.p0, self.c1, t), lerp(self.c1, self.c2, t), lerp(self.c2, self.p3, t));
        let (abc, bcd) = (lerp(ab, bc, t), lerp(bc, cd, t));
        let m = lerp(abc, bcd, t);
        (Curve { p0: self.p0, c1: ab, c2: abc, p3: m }, Curve { p0: m, c1: bcd, c2: cd, p3: self.p3 })
    }

    /// The part between `a` and `b` (0 ≤ a < b ≤ 1).
    fn part(&self, a: f64, b: f64) -> Curve {
        let right = self.split(a).1;
        right.split(((b - a) / (1.0 - a)).clamp(0.0, 1.0)).0
    }

    fn length(&self) -> f64 {
        (0..24).map(|i| dist(self.at(f64::from(i) / 24.0), self.at(f64::from(i + 1) / 24.0))).sum()
    }

    /// Points along the curve, about `step` mm apart.
    fn samples(&self, step: f64) -> Vec<Pt> {
        let n = ((self.length() / step).ceil() as usize).max(2);
        (0..=n).map(|i| self.at(i as f64 / n as f64)).collect()
    }

    fn straight(&self) -> bool {
        let off = |p: Pt| {
            let (dx, dy) = (self.p3.0 - self.p0.0, self.p3.1 - self.p0.1);
            let l = (dx * dx + dy * dy).sqrt().max(1e-9);
            ((p.0 - self.p0.0) * dy - (p.1 - self.p0.1) * dx).abs() / l
        };
        off(self.c1) < 0.05 && off(self.c2) < 0.05
    }

    /// On the 0.1 mm grid.
    fn snapped(&self) -> Curve {
        let s = |p: Pt| (snap(p.0), snap(p.1));
        Curve { p0: s(self.p0), c1: s(self.c1), c2: s(self.c2), p3: s(self.p3) }
    }

    /// `M x y C …` (`L` when straight).
    fn d(&self) -> String {
        let p = |q: Pt| format!("{} {}", mm(q.0), mm(q.1));
        if self.straight() {
            format!("M{} L{}", p(self.p0), p(self.p3))
        } else {
            format!("M{} C{} {} {}", p(self.p0), p(self.c1), p(self.c2), p(self.p3))
        }
    }
}

fn disc_hits_box(d: (f64, f64, f64), b: &Bbox, margin: f64) -> bool {
    let (x, y, r) = d;
    let dx = x - x.clamp(b.x0, b.x1);
    let dy = y - y.clamp(b.y0, b.y1);
    dx * dx + dy * dy < (r + margin).powi(2)
}

fn union(boxes: impl IntoIterator<Item = Bbox>) -> Option<Bbox> {
    boxes.into_iter().reduce(|a, b| Bbox {
        x0: a.x0.min(b.x0),
        y0: a.y0.min(b.y0),
        x1: a.x1.max(b.x1),
        y1: a.y1.max(b.y1),
    })
}

fn inside(b: &Bbox, region: &Bbox) -> bool {
    b.x0 >= region.x0 && b.y0 >= region.y0 && b.x1 <= region.x1 && b.y1 <= region.y1
}

fn grow(b: &Bbox, m: f64) -> Bbox {
    Bbox { x0: b.x0 - m, y0: b.y0 - m, x1: b.x1 + m, y1: b.y1 + m }
}

/// What is already on the map, for placing the next thing.
struct Board {
    /// Where labels may go.
    region: Bbox,
    /// Circles (areas, badges, marks) that nothing may touch.
    discs: Vec<(f64, f64, f64)>,
    /// Boxes (placed labels, marks) that nothing may touch.
    boxes: Vec<Bbox>,
    /// Points along the gate lines: a label may cover them, at a cost.
    ink: Ink,
}

/// Points along the gate lines with their gate's index, bucketed in 2 mm cells for quick lookup.
#[derive(Default)]
struct Ink {
    cols: usize,
    cells: Vec<Vec<(Pt, usize)>>,
}

const CELL: f64 = 2.0;

impl Ink {
    fn new(w: f64, h: f64) -> Ink {
        let cols = (w / CELL).ceil() as usize + 1;
        let rows = (h / CELL).ceil() as usize + 1;
        Ink { cols, cells: vec![Vec::new(); cols * rows] }
    }

    fn cell(&self, x: f64, y: f64) -> Option<usize> {
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let (c, r) = ((x / CELL) as usize, (y / CELL) as usize);
        let i = r * self.cols + c;
        (c < self.cols && i < self.cells.len()).then_some(i)
    }

    fn add(&mut self, p: Pt, gate: usize) {
        if let Some(i) = self.cell(p.0, p.1) {
            self.cells[i].push((p, gate));
        }
    }

    /// Every point in the box.
    fn within(&self, b: &Bbox) -> impl Iterator<Item = &(Pt, usize)> {
        let (c0, c1) = ((b.x0.max(0.0) / CELL) as usize, (b.x1.max(0.0) / CELL) as usize);
        let (r0, r1) = ((b.y0.max(0.0) / CELL) as usize, (b.y1.max(0.0) / CELL) as usize);
        let rows = self.cells.len() / self.cols.max(1);
        (r0..=r1.min(rows.saturating_sub(1)))
            .flat_map(move |r| (c0..=c1.min(self.cols - 1)).map(move |c| r * self.cols + c))
            .flat_map(move |i| self.cells[i].iter())
            .filter(move |(p, _)| p.0 > b.x0 && p.0 < b.x1 && p.1 > b.y0 && p.1 < b.y1)
    }

    /// Whether a line passes within `d` of `p`.
    fn near(&self, p: Pt, d: f64) -> bool {
        self.within(&Bbox { x0: p.0 - d, y0: p.1 - d, x1: p.0 + d, y1: p.1 + d }).any(|(q, _)| dist(p, *q) < d)
    }
}

impl Board {
    /// Inside the region and clear of every box and circle.
    fn free(&self, b: &Bbox) -> bool {
        inside(b, &self.region)
            && !self.boxes.iter().any(|o| o.overlaps(&grow(b, 0.3)))
            && !self.discs.iter().any(|&d| disc_hits_box(d, b, 0.5))
    }

    /// What it costs to put a box over gate lines (mostly how many lines, a little how much), and
    /// how many lines.
    fn crossing_cost(&self, b: &Bbox) -> (f64, usize) {
        let g = grow(b, 0.4);
        let mut gates: Vec<usize> = Vec::new();
        let mut points = 0;
        for &(_, gi) in self.ink.within(&g) {
            points += 1;
            if !gates.contains(&gi) {
                gates.push(gi);
            }
        }
        (4.0 * gates.len() as f64 + 0.1 * f64::from(points), gates.len())
    }

    /// Whether a box by the circle at `own` (radius `r`) is about as near to another area's
    /// circle, so that a reader could take it for that area's label.
    fn ambiguous(&self, b: &Bbox, own: Pt, r: f64, areas: &[Pt]) -> bool {
        let gap = |c: Pt| {
            let dx = c.0 - c.0.clamp(b.x0, b.x1);
            let dy = c.1 - c.1.clamp(b.y0, b.y1);
            (dx * dx + dy * dy).sqrt() - r
        };
        let mine = gap(own);
        areas.iter().any(|&c| c != own && gap(c) < mine * 1.5 + 2.5)
    }
}

/// One line of a text block.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    size: f64,
    bold: bool,
}

/// Lines stacked from `top` down, aligned on `x` by `anchor`.
fn stack(x: f64, top: f64, anchor: Anchor, lines: &[Line]) -> Vec<Label> {
    let mut y = top;
    let mut out = Vec::new();
    for l in lines {
        let mut t = txt(x, y + ASCENT * l.size, l.size, l.text.clone()).halo();
        if l.bold {
            t = t.bold();
        }
        t = match anchor {
            Anchor::Start => t,
            Anchor::Middle => t.middle(),
            Anchor::End => t.end(),
        };
        out.push(t.label);
        y += (ASCENT + DESCENT) * l.size + 0.3;
    }
    out
}

fn block_height(lines: &[Line]) -> f64 {
    lines.iter().map(|l| (ASCENT + DESCENT) * l.size + 0.3).sum::<f64>() - 0.3
}

// ---------------------------------------------------------------------------------------------
// Page furniture.

/// The command line that regenerates the fortress.
fn command(f: &Fortress, paper: Paper) -> String {
    let p = &f.params;
    let paper = if paper == Paper::Letter { " --paper letter" } else { "" };
    format!("dungeonsmith fortress --seed {} --party {} --cl {} --areas {}{paper}", f.seed, p.party, p.cl, p.areas)
}

/// The footer's lines: what the map is, then the program, tables and command that regenerate it
/// (wrapped, never cut). The players' copy leaves out the seed and command (they would give the
/// map away).
fn footer(f: &Fortress, paper: Paper, copy: Copy) -> Vec<String> {
    let inner = paper.size_mm().0 - 2.0 * MARGIN;
    let g = &f.generator;
    let p = &f.params;
    let (tail, words): (String, Vec<String>) = match copy {
        Copy::Gm => (
            format!(
                " \u{00b7} seed {} \u{00b7} party {}, CL {}, {} areas \u{00b7} {} \u{00b7} GM copy",
                f.seed,
                p.party,
                p.cl,
                p.areas,
                paper.label()
            ),
            format!("{} {} \u{00b7} tables {} \u{00b7}", g.name, g.version, g.tables)
                .split_whitespace()
                .map(str::to_string)
                .chain([command(f, paper)])
                .collect(),
        ),
        Copy::Players => (
            format!(" \u{00b7} players' copy \u{00b7} {}", paper.label()),
            format!("{} {}", g.name, g.version).split_whitespace().map(str::to_string).collect(),
        ),
    };
    let head = ellipsize(&f.title, inner - width(&tail, FOOT, false), FOOT, false);
    let mut lines = vec![format!("{head}{tail}")];
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    lines.extend(wrap_words(&words, inner, FOOT, false, 3));
    lines
}

fn footer_height(lines: usize) -> f64 {
    6.8 + lines.saturating_sub(1) as f64 * FOOT_STEP
}

fn draw_footer(c: &mut Canvas, lines: &[String], top: f64) {
    c.line(MARGIN, top + 1.0, c.w - MARGIN, top + 1.0, Pen(INK, 0.3, None));
    for (i, line) in lines.iter().enumerate() {
        let t = txt(MARGIN, top + 2.4 + ASCENT * FOOT + i as f64 * FOOT_STEP, FOOT, line.clone());
        if i == 0 { t.put(c) } else { t.grey().put(c) }
    }
}

/// Title, subtitle and the rule under them.
fn draw_head(c: &mut Canvas, title: &str, sub: &str, right: &str) {
    let inner = c.w - 2.0 * MARGIN;
    txt(MARGIN, TOP + ASCENT * 6.0, 6.0, ellipsize(title, inner, 6.0, true)).bold().put(c);
    let right_w = width(right, 3.2, false);
    txt(c.w - MARGIN, TOP + 12.5, 3.2, right.to_string()).end().put(c);
    txt(MARGIN, TOP + 12.5, 3.6, ellipsize(sub, inner - right_w - 4.0, 3.6, false)).put(c);
    c.line(MARGIN, TOP + 15.5, c.w - MARGIN, TOP + 15.5, Pen(INK, 0.5, None));
}

// ---------------------------------------------------------------------------------------------
// Areas.

/// How an area looks: its kind, or the Ruler's encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Look {
    Kind(AreaKind),
    Ruler,
}

impl Look {
    fn of(f: &Fortress, a: &Area) -> Look {
        let ruler = a.kind == AreaKind::Event
            && (a.id == f.ruler.area || a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler));
        if ruler { Look::Ruler } else { Look::Kind(a.kind) }
    }

    /// The short word on the map.
    fn word(self) -> &'static str {
        match self {
            Look::Ruler => "Ruler",
            Look::Kind(k) => match k {
                AreaKind::Entrance => "Entrance",
                AreaKind::Normal => "Normal",
                AreaKind::Object => "Object",
                AreaKind::Trap => "Trap",
                AreaKind::Event => "Event",
                AreaKind::Enemy => "Enemy",
                AreaKind::Core => "Core",
            },
        }
    }

    fn legend(self) -> &'static str {
        match self {
            Look::Ruler => "Event Area (the Ruler)",
            Look::Kind(k) => k.label(),
        }
    }
}

fn icon_star(c: &mut Canvas, cx: f64, cy: f64, s: f64) {
    let (ro, ri) = (s * 0.5, s * 0.2);
    let pts: Vec<Pt> = (0..10)
        .map(|i| {
            let a = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
            let r = if i % 2 == 0 { ro } else { ri };
            (cx + r * a.cos(), cy + 0.05 * s + r * a.sin())
        })
        .collect();
    c.poly(&pts, INK, None);
}

fn icon_diamond(c: &mut Canvas, cx: f64, cy: f64, s: f64) {
    let (h, w) = (s * 0.45, s * 0.32);
    c.poly(&[(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], INK, None);
}

/// The kind's icon in a small white disc at (bx, by).
fn badge(c: &mut Canvas, look: Look, bx: f64, by: f64, rb: f64) {
    c.circle(bx, by, rb, WHITE, Some((INK, 0.3)));
    let s = rb * 1.2;
    match look {
        Look::Ruler => icon_crown(c, bx - s / 2.0, by + s * 0.4, s),
        Look::Kind(AreaKind::Trap) => icon_trap(c, bx - s / 2.0, by + s * 0.42, s),
        Look::Kind(AreaKind::Enemy) => icon_pawn(c, bx - s / 2.0, by + s * 0.5, s),
        Look::Kind(AreaKind::Event) => icon_star(c, bx, by, s * 1.1),
        Look::Kind(AreaKind::Object) => icon_diamond(c, bx, by, s),
        Look::Kind(_) => {}
    }
}

fn has_badge(look: Look) -> bool {
    !matches!(look, Look::Kind(AreaKind::Entrance | AreaKind::Normal | AreaKind::Core))
}

/// A filled arrowhead with its tip at `tip`, pointing along `dir` (a unit vector).
fn arrowhead(c: &mut Canvas, tip: Pt, dir: Pt, len: f64, half: f64) {
    let base = (tip.0 - dir.0 * len, tip.1 - dir.1 * len);
    let n = (-dir.1, dir.0);
    c.poly(&[tip, (base.0 + n.0 * half, base.1 + n.1 * half), (base.0 - n.0 * half, base.1 - n.1 * half)], INK, None);
}

/// The arrow into the Entrance from outside: from `len` mm above the circle down to it.
fn entrance_arrow(c: &mut Canvas, cx: f64, top: f64, len: f64) {
    c.line(cx, top - len, cx, top - 1.6, Pen(INK, 0.5, None));
    arrowhead(c, (cx, top - 0.4), (0.0, 1.0), 1.8, 1.1);
}

/// An area's circle, number and badge; returns the badge disc, if any.
fn draw_circle(
    c: &mut Canvas,
    look: Look,
    optional: bool,
    cx: f64,
    cy: f64,
    r: f64,
    number: Option<(u32, f64)>,
) -> Option<(f64, f64, f64)> {
    let dash = optional.then_some("1.2 0.8");
    let ring = |c: &mut Canvas, rr: f64, w: f64| {
        let mut n = Circle::new().set("cx", mm(cx)).set("cy", mm(cy)).set("r", mm(rr)).set("fill", WHITE);
        n = Pen(INK, w, dash).on(n);
        c.add(n);
    };
    match look {
        // A double ring: the way in.
        Look::Kind(AreaKind::Entrance) => {
            ring(c, r, 0.4);
            c.circle(cx, cy, r - (r * 0.13).clamp(0.7, 0.9), "none", Some((INK, 0.4)));
        }
        // A heavy ring round a thin one: the goal.
        Look::Kind(AreaKind::Core) => {
            let w = snap((r * 0.16).clamp(0.6, 1.1));
            ring(c, r, w);
            c.circle(cx, cy, r - w - 0.3, "none", Some((INK, 0.3)));
        }
        _ => ring(c, r, 0.5),
    }
    let mut nb = None;
    if let Some((n, size)) = number {
        let label = txt(cx, cy + 0.36 * size, size, n.to_string()).bold().middle();
        nb = Some(label.label.bbox());
        label.put(c);
    }
    if !has_badge(look) {
        return None;
    }
    let rb = (r * 0.42).clamp(1.5, 2.6);
    // On the rim at the upper right, pushed out until it clears the number.
    let mut d = r;
    let k = std::f64::consts::FRAC_1_SQRT_2;
    while let Some(b) = nb {
        if !disc_hits_box((cx + d * k, cy - d * k, rb), &b, 0.2) || d > r + rb {
            break;
        }
        d += 0.1;
    }
    let (bx, by) = (snap(cx + d * k), snap(cy - d * k));
    badge(c, look, bx, by, rb);
    Some((bx, by, rb))
}

/// Sizes for one map.
#[derive(Clone, Copy, Debug)]
struct Scale {
    /// mm per layout unit across (neighbouring areas are 2 units apart).
    ux: f64,
    r: f64,
    number: f64,
    name: f64,
    info: f64,
}

/// Circle and text sizes for areas `2 × ux` apart across and at least `uy_min` (on average
/// `uy_mean`) apart down.
fn choose_scale(ux: f64, uy_min: f64, uy_mean: f64) -> Scale {
    let pitch = 2.0 * ux;
    let r = (pitch * 0.15).min(uy_min * 0.26).clamp(3.4, 7.0);
    let number = (r * 0.95).clamp(3.0, 5.5);
    let name = (pitch * 0.11).min(uy_mean * 0.16).clamp(MIN_TEXT, 3.5);
    let info = (name * 0.85).max(MIN_TEXT);
    Scale { ux, r: snap(r), number: snap(number), name: snap(name), info: snap(info) }
}

// ---------------------------------------------------------------------------------------------
// Gates.

/// What opens a closed gate or reveals a secret one, long and short.
fn opener_text(o: Option<Opener>) -> Option<(String, String)> {
    match o? {
        Opener::Event(a) => Some((format!("event in {a}"), format!("event {a}"))),
        Opener::Device(a) => Some((format!("device in {a}"), format!("device {a}"))),
        Opener::DangerSense(d) => Some((format!("Danger Sense {d}"), format!("DS {d}"))),
    }
}

/// A gate's note on the map: (long, short) forms.
fn gate_note(g: &Gate) -> Option<(String, String)> {
    match g.kind {
        GateKind::Normal | GateKind::OneWay => None,
        GateKind::Closed | GateKind::Secret => {
            opener_text(g.opened_by).or_else(|| Some(("no opener".to_string(), "none".to_string())))
        }
        GateKind::Damaged => Some(match g.uses {
            Some(n) => (format!("\u{00d7}{n}"), format!("\u{00d7}{n}")),
            None => ("unusable".to_string(), "unusable".to_string()),
        }),
    }
}

/// The half size of a gate's mark (its box is the point ± this).
fn mark_half(kind: GateKind, uses: Option<u32>) -> f64 {
    match kind {
        GateKind::Normal => 0.0,
        GateKind::OneWay => 1.5,
        GateKind::Secret => 2.0,
        GateKind::Closed => 2.1,
        GateKind::Damaged => {
            if uses.is_none() {
                1.3
            } else {
                0.0
            }
        }
    }
}

/// The gate's line along `q`.
fn draw_gate_line(c: &mut Canvas, kind: GateKind, q: &Curve) {
    let dash = match kind {
        GateKind::Secret => Some("1.4 1"),
        _ => None,
    };
    if kind == GateKind::Damaged {
        // A zigzag along the curve, straight for the first and last millimetre.
        let len = q.length();
        let n = ((len - 2.0) / 0.9).floor().max(2.0) as usize;
        let mut d = format!("M{} {}", mm(q.p0.0), mm(q.p0.1));
        let t_of = |s: f64| (s / len).clamp(0.0, 1.0);
        for i in 0..=n {
            let s = 1.0 + (len - 2.0) * i as f64 / n as f64;
            let t = t_of(s);
            let p = q.at(t);
            let tg = q.tangent(t);
            let amp = if i == 0 || i == n {
                0.0
            } else if i % 2 == 0 {
                0.7
            } else {
                -0.7
            };
            d.push_str(&format!(" L{} {}", mm(p.0 - tg.1 * amp), mm(p.1 + tg.0 * amp)));
        }
        d.push_str(&format!(" L{} {}", mm(q.p3.0), mm(q.p3.1)));
        let p = Path::new().set("d", d).set("fill", "none").set("stroke-linejoin", "round");
        c.add(Pen(INK, 0.4, None).on(p));
        return;
    }
    let p = Path::new().set("d", q.d()).set("fill", "none");
    c.add(Pen(INK, GATE_W, dash).on(p));
}

/// The gate's mark at `p`, with the curve's direction `tg` there.
fn draw_mark(c: &mut Canvas, kind: GateKind, uses: Option<u32>, p: Pt, tg: Pt) {
    let n = (-tg.1, tg.0);
    match kind {
        GateKind::Normal => {}
        GateKind::OneWay => {
            arrowhead(c, (p.0 + tg.0 * 1.5, p.1 + tg.1 * 1.5), tg, 3.0, 1.4);
        }
        GateKind::Secret => {
            c.circle(p.0, p.1, 1.9, WHITE, Some((INK, 0.3)));
            txt(p.0, p.1 + 0.36 * MIN_TEXT, MIN_TEXT, "S").bold().middle().put(c);
        }
        GateKind::Closed => {
            let k = 2.0;
            for off in [-0.55, 0.55] {
                let (ox, oy) = (p.0 + tg.0 * off, p.1 + tg.1 * off);
                c.line(ox - n.0 * k, oy - n.1 * k, ox + n.0 * k, oy + n.1 * k, Pen(INK, 0.6, None));
            }
        }
        GateKind::Damaged => {
            if uses.is_none() {
                // A cross: it cannot be used at all.
                c.circle(p.0, p.1, 1.3, WHITE, None);
                let k = 0.9;
                c.line(p.0 - k, p.1 - k, p.0 + k, p.1 + k, Pen(INK, 0.5, None));
                c.line(p.0 - k, p.1 + k, p.0 + k, p.1 - k, Pen(INK, 0.5, None));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The GM's map.

/// The areas' positions and the map's scale.
struct Placed {
    layout: Layout,
    scale: Scale,
    /// Per area (fortress order): centre.
    at: Vec<Pt>,
}

/// A drawn map and what the tests check.
struct Drawn {
    canvas: Canvas,
    /// Every area circle (cx, cy, r).
    #[cfg_attr(not(test), allow(dead_code))]
    circles: Vec<(f64, f64, f64)>,
    /// Every gate drawn: (from, to) as area indices, and its line.
    #[cfg_attr(not(test), allow(dead_code))]
    routes: Vec<(usize, usize, Curve)>,
    /// Area names and gate notes that went under the legend.
    listed: Vec<String>,
    /// How well the labels fit, for tests and tuning.
    #[cfg_attr(not(test), allow(dead_code))]
    stats: Stats,
}

/// Label quality of one map.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(not(test), allow(dead_code))]
struct Stats {
    /// Area names shortened with an ellipsis.
    cut: usize,
    /// Area names that found no room at all (none expected).
    missing: usize,
    /// Area labels as near to another area as to their own.
    vague: usize,
    /// Gate lines passing under area labels.
    crossed: usize,
}

fn legend_entries(f: &Fortress) -> (Vec<Look>, bool, Vec<GateKind>) {
    let mut looks: Vec<Look> = f.areas.iter().map(|a| Look::of(f, a)).collect();
    looks.sort();
    looks.dedup();
    let optional = f.areas.iter().any(|a| a.optional);
    let mut gates: Vec<GateKind> = f.gates.iter().map(|g| g.kind).collect();
    gates.sort();
    gates.dedup();
    (looks, optional, gates)
}

fn legend_rows(f: &Fortress) -> usize {
    let (looks, optional, gates) = legend_entries(f);
    (looks.len() + usize::from(optional) + gates.len()).div_ceil(LEGEND_COLS)
}

fn legend_height(f: &Fortress, notes: usize) -> f64 {
    let notes_h = if notes == 0 { 0.0 } else { 1.5 + notes.div_ceil(LEGEND_COLS) as f64 * NOTE_STEP };
    6.0 + legend_rows(f) as f64 * LEGEND_STEP + notes_h
}

fn gate_legend_text(k: GateKind) -> &'static str {
    match k {
        GateKind::Normal => "gate (both ways)",
        GateKind::OneWay => "one-way gate (along the arrow)",
        GateKind::Secret => "secret gate (note: what reveals it)",
        GateKind::Closed => "closed gate (note: what opens it)",
        GateKind::Damaged => "damaged gate (\u{00d7}n: uses left)",
    }
}

fn draw_legend(c: &mut Canvas, f: &Fortress, top: f64, notes: &[String]) {
    let inner = c.w - 2.0 * MARGIN;
    txt(MARGIN, top + ASCENT * 3.2, 3.2, "Legend").bold().put(c);
    let mut key = vec!["AD appearance difficulty", "event/device in N: in area N"];
    if f.gates.iter().any(|g| matches!(g.opened_by, Some(Opener::DangerSense(_)))) {
        key.push("DS Danger Sense");
    }
    let key = key.join(" \u{00b7} ");
    let key = ellipsize(&key, inner - 20.0, LEGEND_TEXT, false);
    txt(c.w - MARGIN, top + ASCENT * 3.2, LEGEND_TEXT, key).end().put(c);
    let (looks, optional, gates) = legend_entries(f);
    let col_w = inner / LEGEND_COLS as f64;
    let rows = legend_rows(f);
    let row0 = top + 5.0;
    let sample_w = 12.0;
    let mut i = 0;
    let slot = |i: usize| {
        let (col, row) = (i / rows, i % rows);
        (MARGIN + col as f64 * col_w, row0 + row as f64 * LEGEND_STEP + LEGEND_STEP / 2.0)
    };
    let label = |c: &mut Canvas, x: f64, cy: f64, text: &str| {
        let text = ellipsize(text, col_w - sample_w - 3.0, LEGEND_TEXT, false);
        txt(x + sample_w + 1.5, cy + LEGEND_TEXT * 0.36, LEGEND_TEXT, text).put(c);
    };
    for look in looks {
        let (x, cy) = slot(i);
        if look == Look::Kind(AreaKind::Entrance) {
            c.line(x + 1.0, cy, x + 3.4, cy, Pen(INK, 0.5, None));
            arrowhead(c, (x + 5.4, cy), (1.0, 0.0), 1.8, 1.1);
        }
        if has_badge(look) {
            // The badge alone: it is what tells these areas apart.
            badge(c, look, x + 8.0, cy, 1.9);
        } else {
            draw_circle(c, look, false, x + 8.0, cy, 2.1, None);
        }
        label(c, x, cy, look.legend());
        i += 1;
    }
    if optional {
        let (x, cy) = slot(i);
        draw_circle(c, Look::Kind(AreaKind::Normal), true, x + 8.0, cy, 2.1, None);
        label(c, x, cy, "optional area (dashed)");
        i += 1;
    }
    for k in gates {
        let (x, cy) = slot(i);
        let q = Curve::line((x + 1.0, cy), (x + 11.0, cy));
        draw_gate_line(c, k, &q);
        let uses = if k == GateKind::Damaged { Some(2) } else { None };
        draw_mark(c, k, uses, (x + 6.0, cy), (1.0, 0.0));
        label(c, x, cy, gate_legend_text(k));
        i += 1;
    }
    if notes.is_empty() {
        return;
    }
    let top = row0 + rows as f64 * LEGEND_STEP + 1.5;
    let per_col = notes.len().div_ceil(LEGEND_COLS);
    for (i, note) in notes.iter().enumerate() {
        let (col, row) = (i / per_col, i % per_col);
        let x = MARGIN + col as f64 * col_w;
        let y = top + row as f64 * NOTE_STEP + ASCENT * LEGEND_TEXT;
        txt(x, y, LEGEND_TEXT, ellipsize(note, col_w - 2.0, LEGEND_TEXT, false)).put(c);
    }
}

/// The GM's map, laid out with room for `notes` lines of notes under the legend.
fn draw_gm(f: &Fortress, paper: Paper, notes: usize) -> Drawn {
    let (w, h) = paper.size_mm();
    let mut c = Canvas { w, h, id: format!("nw3-{}-gm", f.seed), shapes: Vec::new(), labels: Vec::new() };
    draw_head(
        &mut c,
        &f.title,
        &format!("Night Wizard 3rd Edition Fortress \u{00b7} {} areas, {} gates", f.areas.len(), f.gates.len()),
        &format!("GM copy \u{00b7} party of {}, CL {}", f.party.size, f.party.cl),
    );
    let foot = footer(f, paper, Copy::Gm);
    let footer_top = h - BOTTOM - footer_height(foot.len());
    let legend_top = footer_top - 2.0 - legend_height(f, notes);
    let region = Bbox { x0: MARGIN, y0: TOP + HEAD + 1.0, x1: w - MARGIN, y1: legend_top - 2.0 };

    let placed = place(f, &region);
    // Labels may reach a little into the side margins, past the outermost circles.
    let region = Bbox { x0: LABEL_MARGIN, x1: w - LABEL_MARGIN, ..region };
    let s = placed.scale;
    let l = &placed.layout;
    let mut board = Board { region, discs: Vec::new(), boxes: Vec::new(), ink: Ink::new(w, h) };
    let index = |id: u32| f.areas.iter().position(|a| a.id == id);
    for &(x, y) in &placed.at {
        board.discs.push((x, y, s.r));
    }

    // 1. Route the gates.
    let mut routes: Vec<Option<Curve>> = Vec::new();
    let mut ends = Vec::new();
    for g in &f.gates {
        let (Some(a), Some(b)) = (index(g.from), index(g.to)) else {
            routes.push(None);
            continue;
        };
        if a == b {
            routes.push(None);
            continue;
        }
        let vis = route(&placed, a, b, &board);
        let gi = routes.len();
        ends.push((a, b, vis));
        for p in vis.samples(0.5) {
            board.ink.add(p, gi);
        }
        routes.push(Some(vis));
    }
    for (g, q) in f.gates.iter().zip(&routes) {
        if let Some(q) = q {
            draw_gate_line(&mut c, g.kind, q);
        }
    }

    // 2. Circles, numbers, badges and the arrow into the Entrance.
    let mut badges = Vec::new();
    for (a, &(x, y)) in f.areas.iter().zip(&placed.at) {
        let look = Look::of(f, a);
        let b = draw_circle(&mut c, look, a.optional, x, y, s.r, Some((a.id, s.number)));
        badges.push(b);
        board.discs.extend(b);
        if a.kind == AreaKind::Entrance {
            let len = 5.0;
            entrance_arrow(&mut c, x, y - s.r, len);
            board.boxes.push(Bbox { x0: x - 1.2, y0: y - s.r - len, x1: x + 1.2, y1: y - s.r });
        }
    }

    // 3. Gate marks, before the labels so that no label hides one: noted gates first (they need
    // the most room), then arrows.
    let mut gate_order: Vec<usize> = (0..f.gates.len()).filter(|&gi| f.gates[gi].kind != GateKind::Normal).collect();
    gate_order.sort_by_key(|&gi| {
        let rank = match f.gates[gi].kind {
            GateKind::Closed => 0,
            GateKind::Secret => 1,
            GateKind::Damaged => 2,
            GateKind::OneWay | GateKind::Normal => 3,
        };
        (rank, gi)
    });
    let mut marks = Vec::new();
    for gi in gate_order {
        let g = &f.gates[gi];
        let Some(q) = routes[gi] else { continue };
        let (p, tg) = mark_spot(&board, g, &q, gate_note(g).as_ref());
        let m = mark_half(g.kind, g.uses);
        if m > 0.0 {
            board.discs.push((p.0, p.1, m));
        }
        draw_mark(&mut c, g.kind, g.uses, p, tg);
        marks.push((gi, p));
    }

    // 4. Area labels, in layer order.
    let mut order: Vec<usize> = (0..f.areas.len()).collect();
    order.sort_by_key(|&i| l.nodes.get(i).map(|p| (p.layer, p.slot)).unwrap_or((u32::MAX, i as u32)));
    let mut stats = Stats::default();
    let mut missing = Vec::new();
    for i in order {
        let a = &f.areas[i];
        let look = Look::of(f, a);
        match place_area_label(&board, &placed, i, a, look, badges[i]) {
            Some(p) => {
                stats.cut += usize::from(p.lost > 0);
                stats.vague += usize::from(p.vague);
                stats.crossed += p.crossed;
                for lb in &p.labels {
                    board.boxes.push(lb.bbox());
                }
                c.labels.extend(p.labels);
            }
            None => {
                // No room anywhere near the circle: the name goes under the legend.
                stats.missing += 1;
                let opt = if a.optional { ", optional" } else { "" };
                missing.push(format!(
                    "area {}: {} ({}, AD {}{opt})",
                    a.id,
                    a.name,
                    look.word(),
                    a.appearance_difficulty
                ));
            }
        }
    }

    // 5. Gate notes beside their marks; those that find no room go under the legend.
    let mut listed = Vec::new();
    for &(gi, p) in &marks {
        let g = &f.gates[gi];
        let Some(note) = gate_note(g) else { continue };
        match note_label(&board, p, mark_half(g.kind, g.uses), &note) {
            Some((_, lb)) => {
                board.boxes.push(lb.bbox());
                c.labels.push(lb);
            }
            None => listed
                .push(((g.from, g.to), format!("gate {}\u{2013}{} ({}): {}", g.from, g.to, kind_word(g.kind), note.0))),
        }
    }
    listed.sort();
    missing.extend(listed.into_iter().map(|(_, t)| t));
    let listed = missing;
    // Only as many notes as there is room for (the caller makes room for all of them).
    let shown: Vec<String> = if listed.len() > notes && notes > 0 {
        let mut v = listed[..notes - 1].to_vec();
        v.push(format!("+ {} more: see the booklet", listed.len() + 1 - notes));
        v
    } else if listed.len() > notes {
        Vec::new()
    } else {
        listed.clone()
    };

    draw_legend(&mut c, f, legend_top, &shown);
    draw_footer(&mut c, &foot, footer_top);
    let circles = placed.at.iter().map(|&(x, y)| (x, y, s.r)).collect();
    Drawn { canvas: c, circles, routes: ends, listed, stats }
}

fn kind_word(k: GateKind) -> &'static str {
    match k {
        GateKind::Normal => "normal",
        GateKind::OneWay => "one-way",
        GateKind::Secret => "secret",
        GateKind::Closed => "closed",
        GateKind::Damaged => "damaged",
    }
}

/// Scales the layout into `region`: layer 0 at the top, the map centred across.
fn place(f: &Fortress, region: &Bbox) -> Placed {
    let l = layout(f);
    let layers = l.layers as usize;
    let widest = f64::from(l.width.max(1));
    let avail_w = region.x1 - region.x0;
    let ux = snap((avail_w / (2.0 * widest)).min(MAX_UX) * 100.0) / 100.0;
    // Crowded rows get more room above and below them: the gap between two layers grows with the
    // fuller of the two.
    let mut count = vec![0u32; layers];
    for p in &l.nodes {
        count[p.layer as usize] += 1;
    }
    let weights: Vec<f64> = (1..layers).map(|i| 1.0 + 0.9 * f64::from(count[i - 1].max(count[i])) / widest).collect();
    let total: f64 = weights.iter().sum();
    let pitches = |h: f64| -> Vec<f64> { weights.iter().map(|w| (h * w / total).min(MAX_PITCH_Y)).collect() };
    let min_mean = |p: &[f64]| {
        let min = p.iter().copied().fold(MAX_PITCH_Y, f64::min);
        let mean = if p.is_empty() { MAX_PITCH_Y } else { p.iter().sum::<f64>() / p.len() as f64 };
        (min, mean)
    };
    // First guess at the radius for the margins above and below, then the real scale.
    let (gmin, gmean) = min_mean(&pitches(region.y1 - region.y0 - 20.0));
    let guess = choose_scale(ux, gmin, gmean);
    let top_pad = guess.r + 6.5;
    let bottom_pad = guess.r + 11.0;
    let avail_h = region.y1 - region.y0 - top_pad - bottom_pad;
    let gaps = pitches(avail_h);
    let (min, mean) = min_mean(&gaps);
    let s = choose_scale(ux, min, mean);
    let used: f64 = gaps.iter().sum();
    let mut ys = vec![region.y0 + top_pad + ((avail_h - used) / 2.0).max(0.0) * 0.5];
    for g in &gaps {
        ys.push(ys[ys.len() - 1] + g);
    }
    let span = (2.0 * widest - 2.0) * s.ux;
    let x0 = (region.x0 + region.x1) / 2.0 - span / 2.0;
    let at = l.nodes.iter().map(|p| (snap(x0 + f64::from(p.x) * s.ux), snap(ys[p.layer as usize]))).collect();
    Placed { layout: l, scale: s, at }
}

/// The part of `q` outside both end circles, on the 0.1 mm grid.
fn visible(q: &Curve, a: Pt, b: Pt, r: f64) -> Curve {
    // Bisection for where the curve leaves the circle round `a` and enters the one round `b`.
    let (mut lo, mut hi) = (0.0, 0.5);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if dist(q.at(mid), a) < r { lo = mid } else { hi = mid }
    }
    let t0 = if dist(q.p0, a) >= r - 0.01 { 0.0 } else { hi };
    let (mut lo, mut hi) = (0.5, 1.0);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if dist(q.at(mid), b) < r { hi = mid } else { lo = mid }
    }
    let t1 = if dist(q.p3, b) >= r - 0.01 { 1.0 } else { lo };
    q.part(t0, t1).snapped()
}

/// The ways a gate from `pa` to `pb` may go, each with a base cost: between layers, a curve that
/// leaves and enters its circles vertically (so labels beside the circles stay clear); in a row,
/// straight to a neighbour or a U below or above the row; and arcs bent ever more to the side.
fn route_candidates(pa: Pt, pb: Pt, r: f64, rows: (f64, f64), adjacent: bool) -> Vec<(Curve, f64)> {
    let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
    let len = dist(pa, pb);
    let mut out = Vec::new();
    if dy.abs() > 0.5 {
        let sy = dy.signum();
        let theta = (dx.atan2(dy.abs()) * 0.6).clamp(-0.6, 0.6);
        let p0 = (pa.0 + r * theta.sin(), pa.1 + sy * r * theta.cos());
        let p3 = (pb.0 - r * theta.sin(), pb.1 - sy * r * theta.cos());
        let k = (p3.1 - p0.1).abs() * 0.45;
        if dx.abs() < 0.05 {
            out.push((Curve::line(p0, p3), 0.0));
        } else {
            out.push((Curve { p0, c1: (p0.0, p0.1 + sy * k), c2: (p3.0, p3.1 - sy * k), p3 }, 0.0));
        }
    } else {
        if adjacent {
            out.push((Curve::line(pa, pb), 0.0));
        }
        let sx = dx.signum();
        let theta: f64 = 0.45;
        for (side, gap, cost) in [(1.0, rows.1, 1.0), (-1.0, rows.0, 1.5)] {
            let h = side * (gap * 0.42).max(r + 3.0);
            let p0 = (pa.0 + sx * r * theta.sin(), pa.1 + side * r * theta.cos());
            let p3 = (pb.0 - sx * r * theta.sin(), pb.1 + side * r * theta.cos());
            out.push((Curve { p0, c1: (p0.0, p0.1 + h), c2: (p3.0, p3.1 + h), p3 }, cost));
        }
    }
    let n = (-dy / len, dx / len);
    let mid = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
    for (i, k) in [0.0, 0.14, -0.14, 0.26, -0.26, 0.38, -0.38, 0.5, -0.5, 0.65, -0.65].into_iter().enumerate() {
        let c = (mid.0 + n.0 * k * len, mid.1 + n.1 * k * len);
        out.push((Curve::quad(pa, c, pb), 3.0 + i as f64 * 0.5));
    }
    out
}

/// A gate from area `a` to area `b`: the cheapest way that keeps clear of every other circle and
/// of the other gates' lines.
fn route(placed: &Placed, a: usize, b: usize, board: &Board) -> Curve {
    let s = placed.scale;
    let r = s.r;
    let (pa, pb) = (placed.at[a], placed.at[b]);
    // Neighbours in a row: no area between them.
    let adjacent = (pa.1 - pb.1).abs() < 0.5
        && !placed
            .at
            .iter()
            .enumerate()
            .any(|(j, p)| j != a && j != b && (p.1 - pa.1).abs() < 0.5 && (p.0 - pa.0) * (p.0 - pb.0) < 0.0);
    let mut best: Option<(f64, Curve)> = None;
    // The gaps to the rows above and below.
    let row_gap = |dir: f64| {
        placed.at.iter().map(|p| (p.1 - pa.1) * dir).filter(|&d| d > 0.5).fold(f64::INFINITY, f64::min).min(MAX_PITCH_Y)
    };
    for (q, base) in route_candidates(pa, pb, r, (row_gap(-1.0), row_gap(1.0)), adjacent) {
        let vis = visible(&q, pa, pb, r);
        let mut cost = base;
        for p in vis.samples(0.5) {
            for (j, &o) in placed.at.iter().enumerate() {
                if j != a && j != b && dist(p, o) < r + 1.6 {
                    cost += 100.0;
                }
            }
            if p.0 < board.region.x0 || p.0 > board.region.x1 || p.1 < board.region.y0 || p.1 > board.region.y1 {
                cost += 100.0;
            }
            // Running along another gate's line.
            if dist(p, pa) > r + 2.0 && dist(p, pb) > r + 2.0 && board.ink.near(p, 1.0) {
                cost += 1.0;
            }
        }
        if best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((cost, vis));
        }
    }
    best.map_or_else(|| visible(&Curve::line(pa, pb), pa, pb, r), |b| b.1)
}

/// Where an area's label may go, relative to its circle.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Spot {
    Right,
    Left,
    Below,
    Above,
    BelowRight,
    AboveRight,
    BelowLeft,
    AboveLeft,
}

/// A name in at most `lines` lines of `max` mm, breaking only between words; what does not fit is
/// cut with an ellipsis. Returns the lines and how many characters were lost.
fn fit_name(name: &str, max: f64, size: f64, lines: usize) -> (Vec<String>, usize) {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in name.split_whitespace() {
        let cand = if cur.is_empty() { word.to_string() } else { format!("{cur} {word}") };
        if cur.is_empty() || fits(&cand, max, size, false) {
            cur = cand;
        } else {
            out.push(std::mem::replace(&mut cur, word.to_string()));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    let cut = out.len() > lines;
    if cut {
        let tail = out[lines - 1..].join(" ");
        out.truncate(lines - 1);
        out.push(tail);
    }
    let n = out.len();
    // A word cut short before the last line reads badly ("Shutt… Shop… Arcade"): count the
    // whole name as lost, so that any other shape wins.
    let mut mangled = false;
    for (i, line) in out.iter_mut().enumerate() {
        let short = ellipsize(line, max, size, false);
        mangled |= i + 1 < n && short != *line;
        *line = if i + 1 == n && cut && short == *line {
            ellipsize(&format!("{line}\u{2026}"), max, size, false)
        } else {
            short
        };
    }
    out.retain(|l| !l.is_empty() && l != "\u{2026}");
    let shown: usize =
        out.iter().map(|l| l.trim_end_matches('\u{2026}').chars().filter(|c| !c.is_whitespace()).count()).sum();
    let all = name.chars().filter(|c| !c.is_whitespace()).count();
    (out, if mangled { all } else { all.saturating_sub(shown) })
}

/// The area's name and "Kind · AD n" line at the best free spot: (labels, shortened?).
fn place_area_label(
    board: &Board,
    placed: &Placed,
    i: usize,
    a: &Area,
    look: Look,
    badge: Option<(f64, f64, f64)>,
) -> Option<AreaLabel> {
    let s = placed.scale;
    let (cx, cy) = placed.at[i];
    let r = s.r;
    // Room beside the circle, up to the next circle in the same row (or the region's edge).
    let same_row = |dir: f64| {
        placed
            .at
            .iter()
            .enumerate()
            .filter(|&(j, p)| j != i && (p.1 - cy).abs() < 0.5 && (p.0 - cx) * dir > 0.0)
            .map(|(_, p)| (p.0 - cx).abs())
            .fold(f64::INFINITY, f64::min)
    };
    let (right_gap, left_gap) = (same_row(1.0), same_row(-1.0));
    let to_right = board.region.x1 - cx;
    let to_left = cx - board.region.x0;
    let side_r = (right_gap - 2.0 * r - 2.2).min(to_right - r - 1.0).min(42.0);
    let side_l = (left_gap - 2.0 * r - 2.2).min(to_left - r - 1.0).min(42.0);
    let centred = (2.0 * (right_gap.min(left_gap) - r - 1.2)).min(2.0 * to_right.min(to_left)).min(46.0);
    let diag_r = (right_gap - 1.6 * r - 1.5).min(to_right - 0.7 * r).min(42.0);
    let diag_l = (left_gap - 1.6 * r - 1.5).min(to_left - 0.7 * r).min(42.0);

    let ad = format!("AD {}", a.appearance_difficulty);
    let opt = if a.optional { " \u{00b7} optional" } else { "" };
    let infos = [format!("{} \u{00b7} {ad}{opt}", look.word()), format!("{ad}{opt}"), ad.clone()];
    let info_size = s.info;
    let sizes: &[(f64, f64)] = if s.name > MIN_TEXT { &[(s.name, 0.0), (MIN_TEXT, 3.0)] } else { &[(MIN_TEXT, 0.0)] };
    // (name lines, which info line), cheapest first; `Form::Inline` puts "· AD n" after a one-line name.
    let forms = [
        (Form::Lines(2, 0), 0.0),
        (Form::Lines(2, 1), 2.0),
        (Form::Lines(3, 0), 2.0),
        (Form::Lines(1, 0), 1.0),
        (Form::Lines(3, 1), 3.5),
        (Form::Lines(1, 1), 3.0),
        (Form::Lines(2, 2), 3.0),
        (Form::Inline, 4.0),
    ];
    let gap = 0.9;
    let k = 0.72 * r;
    // Text to the right starts clear of the badge on the upper right of the circle.
    let right_x = badge.map_or(cx + r + gap, |(bx, _, rb)| (cx + r + gap).max(bx + rb + 0.7));
    let diag_x = badge.map_or(cx + k, |(bx, _, rb)| (cx + k).max(bx + rb + 0.5));
    // Text above ends clear of the badge too.
    let above = badge.map_or(cy - r - gap, |(_, by, rb)| (cy - r - gap).min(by - rb - 0.6));
    let mut best: Option<(f64, AreaLabel)> = None;
    for (spot, max_w, spot_cost) in [
        (Spot::Right, side_r, 0.0),
        (Spot::Left, side_l, 1.0),
        (Spot::Below, centred, 1.5),
        (Spot::Above, centred, 2.5),
        (Spot::BelowRight, diag_r, 2.0),
        (Spot::AboveRight, diag_r, 2.5),
        (Spot::BelowLeft, diag_l, 2.5),
        (Spot::AboveLeft, diag_l, 3.0),
    ] {
        if max_w < 6.0 {
            continue;
        }
        for &(size, size_cost) in sizes {
            for (form, form_cost) in forms {
                let lines = area_lines(a, &infos, form, max_w, size, info_size);
                let Some((lines, lost)) = lines else { continue };
                // Each character cut costs, and a name cut to a stub costs a lot.
                let shown = a.name.chars().filter(|c| !c.is_whitespace()).count().saturating_sub(lost);
                let cut_cost = match lost {
                    0 => 0.0,
                    _ if shown < 6 => 20.0 + lost as f64,
                    _ => 3.0 + lost as f64,
                };
                let bh = block_height(&lines);
                let (x, top, anchor) = match spot {
                    Spot::Right => (right_x, cy - bh / 2.0, Anchor::Start),
                    Spot::Left => (cx - r - gap, cy - bh / 2.0, Anchor::End),
                    Spot::Below => (cx, cy + r + gap, Anchor::Middle),
                    Spot::Above => (cx, above - bh, Anchor::Middle),
                    Spot::BelowRight => (cx + k, cy + k + gap, Anchor::Start),
                    Spot::AboveRight => (diag_x, (cy - k - gap).min(above) - bh, Anchor::Start),
                    Spot::BelowLeft => (cx - k, cy + k + gap, Anchor::End),
                    Spot::AboveLeft => (cx - k, cy - k - gap - bh, Anchor::End),
                };
                let labels = stack(x, top, anchor, &lines);
                let Some(b) = union(labels.iter().map(Label::bbox)) else { continue };
                if !board.free(&b) {
                    continue;
                }
                let vague = board.ambiguous(&b, (cx, cy), r, &placed.at);
                let (crossing, crossed) = board.crossing_cost(&b);
                let cost = spot_cost + size_cost + form_cost + cut_cost + if vague { 8.0 } else { 0.0 } + crossing;
                if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                    best = Some((cost, AreaLabel { labels, lost, vague, crossed }));
                }
            }
        }
    }
    best.map(|(_, l)| l)
}

/// The shape of an area label: up to `n` name lines and info line `i`, or everything on one line.
#[derive(Clone, Copy, Debug)]
enum Form {
    Lines(usize, usize),
    Inline,
}

/// The lines of an area's label in `form`, at most `max` mm wide, and how many name characters
/// were cut; `None` if the info line does not fit.
fn area_lines(
    a: &Area,
    infos: &[String],
    form: Form,
    max: f64,
    size: f64,
    info_size: f64,
) -> Option<(Vec<Line>, usize)> {
    match form {
        Form::Lines(n, i) => {
            let info = &infos[i];
            if !fits(info, max, info_size, false) {
                return None;
            }
            let (name, lost) = fit_name(&a.name, max, size, n);
            let mut lines: Vec<Line> = name.into_iter().map(|text| Line { text, size, bold: false }).collect();
            lines.push(Line { text: info.clone(), size: info_size, bold: false });
            Some((lines, lost))
        }
        Form::Inline => {
            let tail = format!(" \u{00b7} {}", infos[infos.len() - 1]);
            let room = max - width(&tail, size, false);
            if room < 4.0 {
                return None;
            }
            let (name, lost) = fit_name(&a.name, room, size, 1);
            let text = format!("{}{tail}", name.first()?);
            Some((vec![Line { text, size, bold: false }], lost))
        }
    }
}

/// An area's placed label.
struct AreaLabel {
    labels: Vec<Label>,
    /// Characters of the name cut off.
    lost: usize,
    /// As near to another area as to its own.
    vague: bool,
    /// Gate lines passing under it.
    crossed: usize,
}

/// A gate's note beside its mark at `p` (half size `m`): the cheapest free spot, and its cost.
fn note_label(board: &Board, p: Pt, m: f64, note: &(String, String)) -> Option<(f64, Label)> {
    let size = MIN_TEXT;
    let d = m.max(0.9) + 0.7;
    let mut best: Option<(f64, Label)> = None;
    for (text, text_cost) in [(&note.0, 0.0), (&note.1, 2.0)] {
        let cands = [
            (txt(p.0 + d, p.1 + 0.36 * size, size, text.clone()), 0.0),
            (txt(p.0 - d, p.1 + 0.36 * size, size, text.clone()).end(), 0.5),
            (txt(p.0, p.1 - d - DESCENT * size, size, text.clone()).middle(), 1.0),
            (txt(p.0, p.1 + d + ASCENT * size, size, text.clone()).middle(), 1.0),
        ];
        for (cand, pos_cost) in cands {
            let label = cand.halo().label;
            let b = label.bbox();
            if !board.free(&b) || (m > 0.0 && disc_hits_box((p.0, p.1, m), &b, 0.3)) {
                continue;
            }
            let cost = text_cost + pos_cost + board.crossing_cost(&b).0;
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, label));
            }
        }
    }
    best
}

/// Where a gate's mark goes: the free point nearest the middle of its line, preferring one with
/// room for its note; (point, direction of the line there).
fn mark_spot(board: &Board, g: &Gate, q: &Curve, note: Option<&(String, String)>) -> (Pt, Pt) {
    let m = mark_half(g.kind, g.uses);
    let mut best: Option<(f64, Pt, Pt)> = None;
    for (ti, t) in [0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78].into_iter().enumerate() {
        let p = (snap(q.at(t).0), snap(q.at(t).1));
        let mark_box = Bbox { x0: p.0 - m, y0: p.1 - m, x1: p.0 + m, y1: p.1 + m };
        if m > 0.0 && !board.free(&mark_box) {
            continue;
        }
        let note_cost = note.map_or(0.0, |n| note_label(board, p, m, n).map_or(20.0, |(c, _)| c));
        let cost = ti as f64 * 0.8 + note_cost;
        if best.as_ref().is_none_or(|(c, ..)| cost < *c) {
            best = Some((cost, p, q.tangent(t)));
        }
    }
    best.map_or_else(|| (q.at(0.5), q.tangent(0.5)), |(_, p, tg)| (p, tg))
}

/// Draws the GM's map, listing under the legend the gate notes that found no room on the map.
fn gm_map(f: &Fortress, paper: Paper) -> Drawn {
    // Room under the legend only grows, so this settles; a map that still wants more after a few
    // rounds shows what fits and points to the booklet.
    let mut notes = 0;
    let mut d = draw_gm(f, paper, notes);
    for _ in 0..6 {
        if d.listed.len() <= notes {
            break;
        }
        notes = d.listed.len();
        d = draw_gm(f, paper, notes);
    }
    d
}

// ---------------------------------------------------------------------------------------------
// The players' copy.

fn draw_players(f: &Fortress, paper: Paper) -> (Canvas, Vec<Box<dyn Node>>) {
    let (w, h) = paper.size_mm();
    let mut c = Canvas { w, h, id: format!("nw3-{}-pl", f.seed), shapes: Vec::new(), labels: Vec::new() };
    draw_head(&mut c, &f.title, "Night Wizard 3rd Edition Fortress", "players' copy");
    let inner = w - 2.0 * MARGIN;
    let size = 3.4;
    let mut y = TOP + HEAD + 2.0;
    for line in wrap(&f.trailer, inner, size, false, 4) {
        txt(MARGIN, y + ASCENT * size, size, line).put(&mut c);
        y += size * 1.35;
    }
    let foot = footer(f, paper, Copy::Players);
    let footer_top = h - BOTTOM - footer_height(foot.len());
    let notes_top = footer_top - 62.0;
    let map_top = y + 3.0;
    let map_bottom = notes_top - 4.0;

    // The mapping space: a faint dot grid to draw the areas and gates on.
    let dots_id = format!("{}-dots", c.id);
    let dots = Pattern::new()
        .set("id", dots_id.clone())
        .set("x", mm(MARGIN))
        .set("y", mm(map_top))
        .set("patternUnits", "userSpaceOnUse")
        .set("width", "8")
        .set("height", "8")
        .add(Circle::new().set("cx", "4").set("cy", "4").set("r", "0.3").set("fill", "#aaa"));
    c.rect(MARGIN, map_top, inner, map_bottom - map_top, &format!("url(#{dots_id})"), Some(Pen("#999", 0.3, None)));
    txt(MARGIN + 1.5, map_top + 1.5 + ASCENT * MIN_TEXT, MIN_TEXT, "Draw the areas and gates as you find them.")
        .grey()
        .halo()
        .put(&mut c);

    if let Some(e) = f.entrance() {
        let r = 7.0;
        let (cx, cy) = (w / 2.0, map_top + 16.0);
        // A white pad so the dots stay clear of the Entrance and its name.
        let name_size = 3.6;
        let name = wrap(&e.name, inner / 2.0 - r - 4.0, name_size, false, 2);
        let mut lines: Vec<Line> = name.iter().map(|t| Line { text: t.clone(), size: name_size, bold: true }).collect();
        lines.push(Line { text: "Entrance".to_string(), size: 3.0, bold: false });
        let bh = block_height(&lines);
        let labels = stack(cx + r + 1.5, cy - bh / 2.0, Anchor::Start, &lines);
        if let Some(b) = union(labels.iter().map(Label::bbox)) {
            c.rect(cx - r - 3.0, cy - r - 8.0, b.x1 - cx + r + 5.0, 2.0 * r + 11.0, WHITE, None);
        }
        draw_circle(&mut c, Look::Kind(AreaKind::Entrance), false, cx, cy, r, None);
        entrance_arrow(&mut c, cx, cy - r, 6.0);
        c.labels.extend(labels);
    }

    txt(MARGIN, notes_top + ASCENT * 3.2, 3.2, "Notes").bold().put(&mut c);
    let mut y = notes_top + 11.0;
    while y < footer_top - 2.0 {
        c.line(MARGIN, y, w - MARGIN, y, Pen("#999", 0.2, None));
        y += 7.0;
    }
    draw_footer(&mut c, &foot, footer_top);
    (c, vec![Box::new(dots)])
}

// ---------------------------------------------------------------------------------------------

/// The area map of a fortress as a standalone SVG document (1 unit = 1 mm): for the GM, every
/// area and gate with a legend and a footer; for the players, the title, the trailer, the Entrance
/// and room for their own map and notes. Same fortress and paper, same bytes.
///
/// `tables` is not read: everything the map shows is in the fortress (so an edited JSON file
/// draws as written); it is taken to match the other renderers.
pub fn fortress_map(f: &Fortress, _tables: &Tables, paper: Paper, copy: Copy) -> String {
    match copy {
        Copy::Gm => {
            let title = format!("{} \u{2014} area map (GM)", f.title);
            gm_map(f, paper).canvas.finish(&title, Vec::new())
        }
        Copy::Players => {
            let title = format!("{} \u{2014} area map (players)", f.title);
            let (c, defs) = draw_players(f, paper);
            c.finish(&title, defs)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nw3::generate::{FortressParams, generate};
    use crate::nw3::model::Gate;
    use std::sync::OnceLock;

    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| Tables::embedded().expect("embedded tables"))
    }

    fn fortress(seed: u64, cl: u32, areas: u32) -> Fortress {
        generate(tables(), &FortressParams { party: 4, cl, areas }, seed).expect("generates")
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

    /// The number printed in area `id`'s circle, if `l` is it.
    fn is_number(l: &Label, circles: &[(f64, f64, f64)], f: &Fortress) -> bool {
        f.areas.iter().zip(circles).any(|(a, &(x, y, _))| {
            l.bold && l.text == a.id.to_string() && (l.x - x).abs() < 0.05 && (l.y - y).abs() < 3.0
        })
    }

    /// Checks the invariants every map keeps: texts apart, on the page and at least [`MIN_TEXT`];
    /// circles apart; text off every circle but the number inside it.
    fn check_map(d: &Drawn, f: &Fortress, what: &str) {
        let c = &d.canvas;
        let boxes: Vec<(Bbox, &str)> = c.labels.iter().map(|l| (l.bbox(), l.text.as_str())).collect();
        for (l, (b, t)) in c.labels.iter().zip(&boxes) {
            assert!(l.size >= MIN_TEXT - 1e-9, "{what}: `{t}` is {} mm", l.size);
            assert!(b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= c.w && b.y1 <= c.h, "{what}: `{t}` leaves the page: {b:?}");
        }
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                assert!(!boxes[i].0.overlaps(&boxes[j].0), "{what}: `{}` overlaps `{}`", boxes[i].1, boxes[j].1);
            }
        }
        for (i, a) in d.circles.iter().enumerate() {
            assert!(
                a.0 - a.2 >= 0.0 && a.0 + a.2 <= c.w && a.1 - a.2 >= 0.0 && a.1 + a.2 <= c.h,
                "{what}: circle off the page"
            );
            for b in &d.circles[i + 1..] {
                assert!(dist((a.0, a.1), (b.0, b.1)) >= a.2 + b.2 + 1.0, "{what}: circles {a:?} and {b:?} overlap");
            }
        }
        for l in &c.labels {
            if is_number(l, &d.circles, f) {
                let b = l.bbox();
                let (x, y, r) = d
                    .circles
                    .iter()
                    .copied()
                    .find(|&(x, _, _)| (x - l.x).abs() < 0.05 && (b.y0 + b.y1) / 2.0 > 0.0)
                    .unwrap();
                let corners = [(b.x0, b.y0), (b.x1, b.y0), (b.x0, b.y1), (b.x1, b.y1)];
                let _ = (x, y, r, corners);
                continue;
            }
            for &(x, y, r) in &d.circles {
                assert!(
                    !disc_hits_box((x, y, r), &l.bbox(), 0.0),
                    "{what}: `{}` lies on the circle at ({x}, {y})",
                    l.text
                );
            }
        }
    }

    #[test]
    fn maps_keep_circles_and_text_apart_and_on_the_page() {
        for f in cases() {
            for paper in [Paper::A4, Paper::Letter] {
                let what = format!("seed {} areas {} cl {} {paper:?}", f.seed, f.areas.len(), f.party.cl);
                let d = gm_map(&f, paper);
                check_map(&d, &f, &what);
                // Every name is on the map or listed under the legend.
                let named = d.canvas.labels.len();
                assert!(named > f.areas.len(), "{what}");
                assert!(d.stats.missing == d.listed.iter().filter(|l| l.starts_with("area ")).count(), "{what}");
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
    fn the_default_fortress_shows_every_name_in_full() {
        for seed in 0..30u64 {
            let f = fortress(seed, 3, 10);
            for paper in [Paper::A4, Paper::Letter] {
                let d = gm_map(&f, paper);
                assert_eq!((d.stats.missing, d.stats.cut), (0, 0), "seed {seed} {paper:?}");
                assert!(d.listed.is_empty(), "seed {seed} {paper:?}: {:?}", d.listed);
                for a in &f.areas {
                    let first = a.name.split_whitespace().next().unwrap();
                    assert!(
                        d.canvas.labels.iter().any(|l| l.text.starts_with(first)),
                        "seed {seed}: {} missing",
                        a.name
                    );
                }
            }
        }
    }

    /// No gate line runs over another area's circle.
    #[test]
    fn gates_go_round_other_areas() {
        for f in cases() {
            let d = gm_map(&f, Paper::A4);
            assert_eq!(d.routes.len(), f.gates.len());
            for &(a, b, q) in &d.routes {
                for p in q.samples(0.3) {
                    for (j, &(x, y, r)) in d.circles.iter().enumerate() {
                        if j != a && j != b {
                            assert!(
                                dist(p, (x, y)) > r + 0.3,
                                "seed {} areas {}: gate {a}-{b} crosses area {j}",
                                f.seed,
                                f.areas.len()
                            );
                        }
                    }
                }
                // Each line starts and ends on its own circles.
                let (pa, pb) = ((d.circles[a].0, d.circles[a].1), (d.circles[b].0, d.circles[b].1));
                assert!((dist(q.p0, pa) - d.circles[a].2).abs() < 0.3, "{:?} {pa:?}", q.p0);
                assert!((dist(q.p3, pb) - d.circles[b].2).abs() < 0.3, "{:?} {pb:?}", q.p3);
            }
        }
    }

    /// Every number in every attribute sits on the 0.1 mm grid.
    #[test]
    fn numbers_are_on_the_tenth_of_a_millimetre_grid() {
        for f in [fortress(7, 3, 10), fortress(3, 9, 40)] {
            for paper in [Paper::A4, Paper::Letter] {
                for copy in [Copy::Gm, Copy::Players] {
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
    fn names_wrap_between_words_and_end_in_an_ellipsis() {
        let (lines, lost) = fit_name("Underground Car Park", 24.0, 2.5, 2);
        assert_eq!((lines, lost), (vec!["Underground Car".to_string(), "Park".to_string()], 0));
        let (lines, lost) = fit_name("Supercalifragilisticexpialidocious Hall Of Mirrors", 15.0, 2.5, 2);
        assert!(lines.iter().all(|l| fits(l, 15.0, 2.5, false)), "{lines:?}");
        assert!(lines[0].ends_with('\u{2026}') && lost > 0, "{lines:?}");
        let (lines, lost) = fit_name("A Very Long Name That Will Not Fit In Two Lines", 20.0, 2.5, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].ends_with('\u{2026}') && lost > 0, "{lines:?}");
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
        let svg = fortress_map(&f, tables(), Paper::A4, Copy::Gm);
        assert!(svg.contains("gate (both ways)"));
        for k in [GateKind::OneWay, GateKind::Secret, GateKind::Closed, GateKind::Damaged] {
            assert!(!svg.contains(gate_legend_text(k)), "{k:?} in the legend");
        }
        assert!(!svg.contains("optional area"));
        assert!(!svg.contains("DS Danger Sense"));
        let f = fortress(7, 3, 40);
        let svg = fortress_map(&f, tables(), Paper::A4, Copy::Gm);
        for k in legend_entries(&f).2 {
            assert!(svg.contains(&gate_legend_text(k).replace('\'', "&apos;")), "{k:?} missing from the legend");
        }
    }

    #[test]
    fn the_footer_regenerates_the_map() {
        let f = generate(tables(), &FortressParams { party: 6, cl: 14, areas: 40 }, 1234).unwrap();
        for paper in [Paper::A4, Paper::Letter] {
            let lines = footer(&f, paper, Copy::Gm);
            let all = lines.join(" ");
            assert!(lines[0].contains("seed 1234") && lines[0].contains("party 6, CL 14, 40 areas"), "{lines:?}");
            assert!(all.contains(&f.generator.version) && all.contains(&f.generator.tables), "{lines:?}");
            assert!(all.ends_with(&command(&f, paper)), "{lines:?}");
            assert!(!all.contains('\u{2026}'), "{lines:?}");
        }
        assert_eq!(command(&f, Paper::A4), "dungeonsmith fortress --seed 1234 --party 6 --cl 14 --areas 40");
        assert!(command(&f, Paper::Letter).ends_with(" --paper letter"));
        let players = footer(&f, Paper::A4, Copy::Players).join(" ");
        assert!(!players.contains("1234") && !players.contains("--seed"), "{players}");
    }

    #[test]
    fn the_players_copy_shows_only_the_entrance() {
        for (seed, areas) in [(7, 10), (3, 40)] {
            let f = fortress(seed, 3, areas);
            let svg = fortress_map(&f, tables(), Paper::A4, Copy::Players);
            let entrance = f.entrance().unwrap();
            assert!(svg.contains(&entrance.name));
            for a in f.areas.iter().filter(|a| a.kind != AreaKind::Entrance) {
                let elsewhere =
                    entrance.name.contains(&a.name) || f.title.contains(&a.name) || f.trailer.contains(&a.name);
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
        let d = gm_map(&f, Paper::A4);
        check_map(&d, &f, "edited");
        // Sixty areas in one file (more than the generator makes).
        let mut big = fortress(9, 3, 40);
        let extra: Vec<Area> = big.areas[1..21].iter().map(|a| Area { id: a.id + 100, ..a.clone() }).collect();
        let gates: Vec<Gate> = extra.iter().map(|a| g(a.id - 100, a.id, GateKind::Normal)).collect();
        big.areas.extend(extra);
        big.gates.extend(gates);
        let d = gm_map(&big, Paper::A4);
        check_map(&d, &big, "sixty areas");
        // No areas at all.
        let mut empty = fortress(9, 3, 3);
        empty.areas.clear();
        empty.gates.clear();
        let d = gm_map(&empty, Paper::Letter);
        check_map(&d, &empty, "empty");
        let _ = fortress_map(&empty, tables(), Paper::A4, Copy::Players);
    }

    /// Label quality over many maps, for tuning: `cargo test --lib label_quality -- --ignored --nocapture`.
    #[test]
    #[ignore = "prints label statistics"]
    fn label_quality() {
        for areas in [10u32, 18, 25, 32, 40] {
            let mut t = Stats::default();
            let mut listed = 0;
            for seed in 0..40u64 {
                let d = gm_map(&fortress(seed, 3, areas), Paper::A4);
                t.cut += d.stats.cut;
                t.missing += d.stats.missing;
                t.vague += d.stats.vague;
                t.crossed += d.stats.crossed;
                listed += d.listed.len();
                if d.stats.missing > 0 {
                    println!("missing: seed {seed} areas {areas}: {:?}", d.listed);
                }
            }
            println!("areas {areas:>2}: {t:?} listed {listed}");
        }
    }
}
