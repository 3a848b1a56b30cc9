//! Gate lines, and the marks and notes on them.
//!
//! Every line leaves its circle straight down (or up) from a port of its own on the circle's
//! lower (upper) half, runs down the short stub to its channel, crosses the channel in one
//! straight slanted piece (a lane or more below the channel's top where it passes under another
//! line's start, above its bottom where it passes over another's end: see [`lanes`]), and goes straight down through any row it passes (in its own narrow
//! cell) or into the port of the circle it joins. A gate inside a row dips into the channel below
//! it in a V. So lines meet other lines only in the channels, where nothing else is drawn: no
//! line can cross a circle or a label. Ports on a circle are ordered by where their lines go, so
//! lines do not cross next to a circle.
//!
//! Marks and notes come after, each at the first free spot along its line (checked exactly
//! against every line, label, circle and note); a note that finds none is listed under the
//! legend.

use crate::render::svgkit::{ASCENT, Bbox, DESCENT, Label, snap, txt};

use super::furniture::{Look, badge_centre, badge_r, has_badge, number_box};
use super::geometry::{Disc, Poly, Pt, disc_hits_box, grow, inside};
use super::placement::{Level, Placed};
use crate::nw3::model::Fortress;

/// Ports a circle offers on its upper and lower half.
pub(super) const TOP_PORTS: usize = 4;
pub(super) const BOTTOM_PORTS: usize = 6;

/// Vertical room (mm) between two gates' slants where one passes beside the other's end: the
/// clear gap a reader needs to see two lines (the tests' 0.8 mm of paper between the inks), plus
/// the lines' width, with some to spare for a slant that is not level and for the 0.1 mm grid.
const LANE: f64 = 1.35;
/// The step (mm) between two ports on a circle's side when the side has room: the lines' width
/// and the 0.8 mm gap between their inks, with a grid step to spare.
const PORT_STEP: f64 = 1.3;
/// How far across (in radii) from the circle's centre the outermost ports sit.
const PORT_REACH: f64 = 0.85;
/// How far left (in radii) the leftmost port on a circle's upper half may sit: nearly the
/// circle's flank, as a badged circle's upper half has little room on the right, and four lines
/// coming into one need a whole step between each two (seed 4505922 at 38 areas on Letter: 0.95
/// left its 3.0 mm circle 0.05 mm short, and its lines 0.7 mm apart).
const TOP_REACH_LEFT: f64 = 0.97;
/// At most this share of a channel's height goes to lanes; the rest is the slant itself.
const LANE_SHARE: f64 = 0.85;
/// A far end this close to another line's end counts as passing beside it: nearer than two
/// neighbouring ports, the two lines would run closer than the gap.
const PASSING: f64 = 1.4;

/// The line of every placed edge, in `placed.edges` order.
pub(super) fn route(placed: &Placed, top_reach: &[f64]) -> Vec<Poly> {
    let items = &placed.items;
    let r = placed.level.r;
    let port = ports(placed, top_reach);
    let on_circle = |item: usize, dx: f64, below: bool| -> Pt {
        let cy = placed.bands[items[item].row].2;
        let dy = (r * r - dx * dx).max(0.0).sqrt();
        (items[item].x + dx, if below { cy + dy } else { cy - dy })
    };
    let crossings = crossings(placed, &port);
    let depths = lanes(placed, &crossings);
    let mut through: Vec<Vec<Pt>> = vec![Vec::new(); placed.edges.len()];
    for (c, (dt, db)) in crossings.iter().zip(depths) {
        let Some((ya, yb)) = placed.channels[c.row] else { continue };
        through[c.edge].extend([(c.x0, ya), (c.x0, ya + dt), (c.x1, yb - db), (c.x1, yb)]);
    }
    placed
        .edges
        .iter()
        .enumerate()
        .map(|(ei, e)| {
            let (u, v) = (e.chain[0], e.chain[e.chain.len() - 1]);
            let row = items[u].row;
            let Some((ya, yb)) = placed.channels[row] else { return Poly::new(Vec::new()) };
            if items[u].row == items[v].row {
                let (p, q) = (on_circle(u, port[ei][0], true), on_circle(v, port[ei][1], true));
                let mid = (p.0 + q.0) / 2.0;
                let depth = (yb - ya) * 0.75;
                return Poly::new(vec![p, (p.0, ya), (mid, ya + depth), (q.0, ya), q]);
            }
            let mut pts = vec![on_circle(u, port[ei][0], true)];
            pts.append(&mut through[ei]);
            pts.push(on_circle(v, port[ei][1], false));
            Poly::new(pts)
        })
        .collect()
}

/// Every gate's pass through each channel it crosses, from the ports' offsets `port`. Only the
/// items' positions across are used, so this also runs before the rows are placed down the page.
fn crossings(placed: &Placed, port: &[[f64; 2]]) -> Vec<Crossing> {
    let items = &placed.items;
    let mut out: Vec<Crossing> = Vec::new();
    for (ei, e) in placed.edges.iter().enumerate() {
        let (u, v) = (e.chain[0], e.chain[e.chain.len() - 1]);
        if items[u].row == items[v].row {
            continue;
        }
        let mut x = items[u].x + port[ei][0];
        for k in 0..e.chain.len() - 1 {
            let row = items[e.chain[k]].row;
            // Rows are placed down the page after this is first asked (channels still empty).
            if placed.channels.get(row).is_some_and(Option::is_none) {
                continue;
            }
            let next = if k + 2 == e.chain.len() { items[v].x + port[ei][1] } else { items[e.chain[k + 1]].x };
            out.push(Crossing { edge: ei, row, x0: x, x1: next });
            x = next;
        }
    }
    out
}

/// The height (mm) each row's channel needs so that its deepest lanes stay [`LANE`] apart: a
/// channel with many lines fanning through it grows rather than squeezing its lanes together.
pub(super) fn channel_needs(placed: &Placed, top_reach: &[f64], rows: usize) -> Vec<f64> {
    let cs = crossings(placed, &ports(placed, top_reach));
    let (top, bottom) = lane_ranks(&cs);
    let mut most = vec![0usize; rows];
    for (i, c) in cs.iter().enumerate() {
        most[c.row] = most[c.row].max(top[i] + bottom[i]);
    }
    most.iter().map(|&m| m as f64 * LANE / LANE_SHARE).collect()
}

/// Per area, how far right of its centre (mm) a line may come down into its circle at level
/// `lv`: the ports' reach, or less where the badge sits on the upper right (a line keeps the
/// gap from it).
pub(super) fn top_reach(f: &Fortress, lv: &Level) -> Vec<f64> {
    let r = lv.r;
    f.areas
        .iter()
        .map(|a| {
            if !has_badge(Look::of(f, a)) {
                return PORT_REACH * r;
            }
            let (bx, _) = badge_centre((0.0, 0.0, r), Some(number_box(0.0, 0.0, a.id, lv.number)));
            // Half the line and 0.6 mm of paper between it and the badge's edge.
            (bx - badge_r(r) - 0.2 - 0.6).clamp(0.1 * r, PORT_REACH * r)
        })
        .collect()
}

/// Port offsets across each circle, per (edge, end): end 0 is the upper (or left-listed) end.
/// Ports on a side are ordered by where their lines go, so lines do not cross by a circle.
fn ports(placed: &Placed, top_reach: &[f64]) -> Vec<[f64; 2]> {
    let items = &placed.items;
    let r = placed.level.r;
    // (edge, partner's x) per port side of each item.
    let mut top: Vec<Vec<(f64, usize)>> = vec![Vec::new(); items.len()];
    let mut bottom: Vec<Vec<(f64, usize)>> = vec![Vec::new(); items.len()];
    for (ei, e) in placed.edges.iter().enumerate() {
        let (u, v) = (e.chain[0], e.chain[e.chain.len() - 1]);
        if items[u].row == items[v].row {
            bottom[u].push((items[v].x, ei));
            bottom[v].push((items[u].x, ei));
        } else {
            bottom[u].push((items[e.chain[1]].x, ei));
            top[v].push((items[e.chain[e.chain.len() - 2]].x, ei));
        }
    }
    let mut port: Vec<[f64; 2]> = vec![[0.0; 2]; placed.edges.len()];
    let spread = |list: &mut Vec<(f64, usize)>, lo: f64, hi: f64| -> Vec<(usize, f64)> {
        list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let k = list.len();
        if k == 0 {
            return Vec::new();
        }
        // On the 0.1 mm grid, so two neighbouring ports stay a whole step apart as written.
        let grid = |v: f64| (v * 10.0 + 1e-6).floor() / 10.0;
        let step = if k == 1 { 0.0 } else { grid(PORT_STEP.max(0.4 * r).min((hi - lo) / (k - 1) as f64)) };
        let total = step * (k - 1) as f64;
        let start = snap((-total / 2.0).clamp(lo, (hi - total).max(lo)));
        list.iter().enumerate().map(|(j, &(_, e))| (e, start + step * j as f64)).collect()
    };
    for (i, it) in items.iter().enumerate() {
        let Some(a) = it.area else { continue };
        let hi_top = top_reach[a];
        for (e, dx) in spread(&mut bottom[i], -PORT_REACH * r, PORT_REACH * r) {
            let end = usize::from(placed.edges[e].chain[0] != i);
            port[e][end] = dx;
        }
        // A badge leaves the upper half little room on the right: lines may come in further left.
        for (e, dx) in spread(&mut top[i], -TOP_REACH_LEFT * r, hi_top) {
            port[e][1] = dx;
        }
    }
    port
}

/// One gate's pass through the channel below `row`: from `x0` at its top down to `x1`.
struct Crossing {
    edge: usize,
    row: usize,
    x0: f64,
    x1: f64,
}

/// How far each crossing's slant starts below its channel's top and ends above its bottom.
/// Lines that fan out of one circle (or into one) would leave it nearly along each other when
/// their slants are shallow: a line whose slant passes under another's start (or over another's
/// end) in its channel runs one lane further from that edge of the channel, so the two are a
/// lane apart where they are nearest (two straight pieces come nearest at an end of one of
/// them). Counted over the whole channel, not one circle's fan: a line deepened for its own fan
/// must not drop across a line from another circle that passes under it.
fn lanes(placed: &Placed, cs: &[Crossing]) -> Vec<(f64, f64)> {
    let (top_rank, bot_rank) = lane_ranks(cs);
    let mut most = vec![0usize; placed.channels.len()];
    for (i, c) in cs.iter().enumerate() {
        most[c.row] = most[c.row].max(top_rank[i] + bot_rank[i]);
    }
    cs.iter()
        .enumerate()
        .map(|(i, c)| {
            let h = placed.channels[c.row].map_or(0.0, |(ya, yb)| yb - ya);
            let lane = if most[c.row] == 0 { 0.0 } else { LANE.min(LANE_SHARE * h / most[c.row] as f64) };
            (top_rank[i] as f64 * lane, bot_rank[i] as f64 * lane)
        })
        .collect()
}

/// Each crossing's lane rank from its channel's top and from its bottom (see [`lanes`]).
fn lane_ranks(cs: &[Crossing]) -> (Vec<usize>, Vec<usize>) {
    use std::collections::BTreeMap;
    let (mut top_rank, mut bot_rank) = (vec![0usize; cs.len()], vec![0usize; cs.len()]);
    let mut by_row: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, c) in cs.iter().enumerate() {
        by_row.entry(c.row).or_default().push(i);
    }
    for g in by_row.values() {
        nest(g, |i| (cs[i].x0, cs[i].x1), &mut top_rank);
        nest(g, |i| (cs[i].x1, cs[i].x0), &mut bot_rank);
    }
    (top_rank, bot_rank)
}

/// Lane ranks of the lines of one fan, `ends(i)` giving a line's x at the shared item and at its
/// far end: a line heading left whose far end lies left of (or beside) the shared-end of a line
/// to its left goes a lane deeper than that line; the same to the right.
fn nest(group: &[usize], ends: impl Fn(usize) -> (f64, f64), rank: &mut [usize]) {
    let mut g = group.to_vec();
    g.sort_by(|&a, &b| ends(a).0.total_cmp(&ends(b).0).then(a.cmp(&b)));
    for (j, &line) in g.iter().enumerate() {
        let (xj, tj) = ends(line);
        if tj < xj {
            let deepest = g[..j].iter().filter(|&&i| tj < ends(i).0 + PASSING).map(|&i| rank[i] + 1).max();
            rank[line] = deepest.unwrap_or(0);
        }
    }
    for (j, &line) in g.iter().enumerate().rev() {
        let (xj, tj) = ends(line);
        if tj > xj {
            let deepest = g[j + 1..].iter().filter(|&&i| tj > ends(i).0 - PASSING).map(|&i| rank[i] + 1).max();
            rank[line] = deepest.unwrap_or(0);
        }
    }
}

/// Everything already on the map that a mark or note must keep clear of.
pub(super) struct Board {
    pub(super) region: Bbox,
    pub(super) lines: Vec<Poly>,
    /// How far each line's ink reaches beyond its path (a damaged gate's zigzag: further).
    pub(super) reach: Vec<f64>,
    pub(super) boxes: Vec<Bbox>,
    pub(super) discs: Vec<Disc>,
}

impl Board {
    /// Inside the region and clear of every line, box and circle.
    pub(super) fn free(&self, b: &Bbox) -> bool {
        inside(b, &self.region)
            && !self.boxes.iter().any(|o| o.overlaps(&grow(b, 0.3)))
            && !self.discs.iter().any(|&d| disc_hits_box(d, b, 0.4))
            && !self.lines.iter().zip(&self.reach).any(|(l, &k)| l.hits_box(&grow(b, k + 0.25)))
    }

    /// A mark of half size `m` at `p` on line `own`: clear of other lines, boxes and circles.
    fn mark_free(&self, p: Pt, m: f64, own: usize) -> bool {
        let b = Bbox { x0: p.0 - m, y0: p.1 - m, x1: p.0 + m, y1: p.1 + m };
        inside(&b, &self.region)
            && !self.boxes.iter().any(|o| o.overlaps(&grow(&b, 0.3)))
            && !self.discs.iter().any(|&d| disc_hits_box(d, &b, 0.4))
            && self.lines.iter().zip(&self.reach).enumerate().all(|(i, (l, &k))| i == own || l.dist_to(p) > m + k + 0.4)
    }
}

/// Points along a line where a mark may go, best first: the middles of its longest pieces
/// (the slanted ones in the channels), then further along them.
fn mark_candidates(line: &Poly, m: f64) -> Vec<(Pt, Pt)> {
    let mut pieces: Vec<(usize, f64)> =
        line.segments().enumerate().map(|(i, (a, b))| (i, super::geometry::dist(a, b))).collect();
    pieces.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let starts: Vec<f64> = line
        .segments()
        .scan(0.0, |s, (a, b)| {
            let here = *s;
            *s += super::geometry::dist(a, b);
            Some(here)
        })
        .collect();
    let mut out = Vec::new();
    for t in [0.5, 0.3, 0.7, 0.15, 0.85] {
        for &(i, len) in &pieces {
            if len < 2.0 * m + 0.6 {
                continue;
            }
            let s = starts[i] + (len * t).clamp(m + 0.3, len - m - 0.3);
            let (p, dir) = line.at(s);
            out.push(((crate::render::svgkit::snap(p.0), crate::render::svgkit::snap(p.1)), dir));
        }
    }
    out
}

/// A note of `size` mm beside a mark of half size `m` at `p`: the labels to try, best first.
fn note_candidates(p: Pt, m: f64, size: f64, note: &(String, String)) -> Vec<Label> {
    let d = m.max(0.9) + 0.8;
    let mut out = Vec::new();
    for text in [&note.0, &note.1] {
        for dy in [0.0, -2.0, 2.0, -4.0, 4.0] {
            let y = p.1 + 0.36 * size + dy;
            out.push(txt(p.0 + d, y, size, text.clone()).halo().label);
            out.push(txt(p.0 - d, y, size, text.clone()).end().halo().label);
        }
        out.push(txt(p.0, p.1 - d - DESCENT * size, size, text.clone()).middle().halo().label);
        out.push(txt(p.0, p.1 + d + ASCENT * size, size, text.clone()).middle().halo().label);
    }
    out
}

/// A placed mark: where, the line's direction there, and the note beside it if it found room.
pub(super) struct Marked {
    pub(super) at: Pt,
    pub(super) dir: Pt,
    pub(super) note: Option<Label>,
}

/// The mark (half size `m`, 0 for none) and note of line `own`: the first mark spot with room
/// for its note, else the first free mark spot (the note is then listed), else `None`.
pub(super) fn mark_and_note(
    board: &Board,
    own: usize,
    m: f64,
    note: Option<&(String, String)>,
    size: f64,
) -> Option<Marked> {
    let line = &board.lines[own];
    let m_eff = m.max(0.8);
    let cands = mark_candidates(line, m_eff);
    let mut first_free: Option<(Pt, Pt)> = None;
    for &(p, dir) in &cands {
        if !board.mark_free(p, m_eff, own) {
            continue;
        }
        first_free.get_or_insert((p, dir));
        let Some(note) = note else { return Some(Marked { at: p, dir, note: None }) };
        for label in note_candidates(p, m, size, note) {
            let b = label.bbox();
            let mark_box = Bbox { x0: p.0 - m_eff, y0: p.1 - m_eff, x1: p.0 + m_eff, y1: p.1 + m_eff };
            if !b.overlaps(&grow(&mark_box, 0.2)) && board.free(&b) {
                return Some(Marked { at: p, dir, note: Some(label) });
            }
        }
    }
    first_free.map(|(at, dir)| Marked { at, dir, note: None })
}

/// Where a mark goes when no spot is free: the middle of the line's longest piece.
pub(super) fn fallback_mark(line: &Poly) -> Option<(Pt, Pt)> {
    mark_candidates(line, 0.0).into_iter().next()
}
