//! Where every area goes: rows of cells (a circle with its label to the right), and channels
//! between the rows that only gate lines use.
//!
//! - Rows start as the layout's layers ([`crate::nw3::layout()`]: gates from the Entrance, in id
//!   order or ordered by barycenter sweeps). A layout without crossings (every generated one) is
//!   kept as it is, a row per layer, at the roomiest level where that fits; if it fits at no
//!   level, a layer too wide for the page is cut into runs of neighbouring areas, a row each,
//!   and every row keeps the layout's order, so its gates still never cross ([`Rows::Stair`]).
//!   A hand-edited layout with crossings has its wide layers dealt out over rows instead.
//! - A gate joining rows more than one apart passes the rows between through a narrow cell of its
//!   own (a "dummy"), so it never runs over an area or a label; the rows, dummies included, are
//!   ordered again by barycenter sweeps.
//! - Across, each row is placed as near as it can to the mean position of its neighbours in the
//!   rows above and below (least squares under "keep the order, keep the gaps": pool adjacent
//!   violators, linear), so most gates run straight down.
//! - Down, each row is as tall as its tallest cell; each channel holds the gates' slanted pieces
//!   and grows when gates with notes cross it. Sizes come from the first [`Level`] at which the
//!   map fits the region; a map that fits at none (only hand-edited files far beyond what the
//!   generator makes) is scaled down further until it fits, so nothing ever overlaps.

use crate::nw3::layout::{Layout, layout};
use crate::nw3::model::{Area, Fortress};
use crate::render::svgkit::{Bbox, snap};

use super::furniture::{Look, badge_r, has_badge};
use super::labels::{Line, area_block, block_height, block_width};

/// Sizes for one map (mm).
#[derive(Clone, Copy, Debug)]
pub(super) struct Level {
    pub(super) name: f64,
    pub(super) info: f64,
    pub(super) r: f64,
    pub(super) number: f64,
    /// Widest label.
    pub(super) label_w: f64,
    /// Height of a channel's slanted part, before room for notes.
    pub(super) channel: f64,
    /// Gap between cells in a row.
    pub(super) gap: f64,
    /// Extra channel height when gates with notes leave a row (the tightest levels have none:
    /// their notes find room beside the lines or are listed).
    pub(super) note_room: f64,
}

/// From roomy to the smallest legible (text 2.5 mm, about 7 pt: see [`super::MIN_TEXT`]); each
/// is tried with every label width in [`LABEL_WIDTHS`] (wide labels take fewer lines but may
/// push a layer onto two rows).
/// `label_w` here is unused: each level is tried with every width.
pub(super) const LEVELS: [Level; 8] = [
    Level { name: 3.5, info: 3.0, r: 6.5, number: 5.5, label_w: 34.0, channel: 10.0, gap: 3.5, note_room: 2.5 },
    Level { name: 3.2, info: 2.8, r: 5.0, number: 4.6, label_w: 34.0, channel: 8.0, gap: 3.0, note_room: 2.5 },
    Level { name: 2.9, info: 2.6, r: 4.4, number: 4.0, label_w: 30.0, channel: 6.5, gap: 2.6, note_room: 2.5 },
    Level { name: 2.6, info: 2.5, r: 3.9, number: 3.6, label_w: 26.0, channel: 5.5, gap: 2.2, note_room: 2.5 },
    Level { name: 2.5, info: 2.5, r: 3.5, number: 3.2, label_w: 22.0, channel: 4.5, gap: 2.0, note_room: 2.5 },
    Level { name: 2.5, info: 2.5, r: 3.4, number: 3.1, label_w: 17.0, channel: 3.5, gap: 1.8, note_room: 2.5 },
    Level { name: 2.5, info: 2.5, r: 3.2, number: 3.0, label_w: 17.0, channel: 2.6, gap: 1.6, note_room: 0.0 },
    Level { name: 2.5, info: 2.5, r: 3.0, number: 2.8, label_w: 17.0, channel: 2.0, gap: 1.4, note_room: 0.0 },
];

/// Label widths to try at each level (mm), widest first, none wider than the level's own.
const LABEL_WIDTHS: [f64; 5] = [34.0, 30.0, 26.0, 22.0, 18.0];

impl Level {
    fn scaled(self, k: f64) -> Level {
        Level {
            name: self.name * k,
            info: self.info * k,
            r: self.r * k,
            number: self.number * k,
            label_w: self.label_w,
            channel: self.channel * k,
            gap: self.gap * k,
            note_room: 0.0,
        }
    }
}

/// Vertical stub between a row and the slanted part of a channel (mm).
pub(super) const STUB: f64 = 0.8;
/// Room above the first row, for the arrow into the Entrance.
const TOP_PAD: f64 = 6.0;
/// The tallest a channel's slanted part grows when the page has room to spare.
const MAX_CHANNEL: f64 = 22.0;
const SWEEPS: usize = 4;

/// One cell in a row: an area or a gate passing through.
#[derive(Clone, Debug)]
pub(super) struct Item {
    /// The area (index in the fortress), or `None` for a gate passing through.
    pub(super) area: Option<usize>,
    pub(super) row: usize,
    /// Centre of the circle (or the passing line) across.
    pub(super) x: f64,
    /// Extent to the left and right of `x`.
    pub(super) left: f64,
    pub(super) right: f64,
}

/// A gate as drawn: the items it passes, from the upper end down.
#[derive(Clone, Debug)]
pub(super) struct Edge {
    /// Index in `Fortress::gates`.
    pub(super) gate: usize,
    /// Items from the upper area through its dummies to the lower area; two items in one row
    /// for a gate inside a row.
    pub(super) chain: Vec<usize>,
}

/// The placed map.
pub(super) struct Placed {
    pub(super) level: Level,
    pub(super) items: Vec<Item>,
    pub(super) edges: Vec<Edge>,
    /// Per row: the band's top and bottom, and the circles' centre line.
    pub(super) bands: Vec<(f64, f64, f64)>,
    /// Per row: the slanted part of the channel below it (top, bottom), if any.
    pub(super) channels: Vec<Option<(f64, f64)>>,
    /// Per area: the item, and the label's lines and characters cut from its name.
    pub(super) item_of: Vec<usize>,
    pub(super) blocks: Vec<(Vec<Line>, usize)>,
}

impl Placed {
    /// Every area at the region's corner, no gates: only for a map nothing else can place.
    fn empty(level: Level, n: usize) -> Placed {
        let items = (0..n).map(|a| Item { area: Some(a), row: 0, x: 0.0, left: 0.0, right: 0.0 }).collect();
        Placed {
            level,
            items,
            edges: Vec::new(),
            bands: vec![(0.0, 0.0, 0.0)],
            channels: vec![None],
            item_of: (0..n).collect(),
            blocks: vec![(Vec::new(), 0); n],
        }
    }

    pub(super) fn centre(&self, area: usize) -> (f64, f64) {
        let it = &self.items[self.item_of[area]];
        (it.x, self.bands[it.row].2)
    }
}

/// The label's left edge for an area at `cx`: clear of the circle and its badge.
pub(super) fn label_x(cx: f64, r: f64, badged: bool) -> f64 {
    // The badge sits on the rim at the upper right, or (to clear a wide number) at most its own
    // radius further out.
    let rb = badge_r(r);
    let badge_right = if badged { cx + (r + rb) * std::f64::consts::FRAC_1_SQRT_2 + rb + 0.6 } else { cx };
    (cx + r + 1.0).max(badge_right)
}

/// How tall (mm) each of a placed map's `rows` channels must be for the lines through it (the
/// routing knows: [`super::channel_room`]); the rows are placed down the page only after that.
pub(super) type Needs = fn(&Fortress, &Placed, usize) -> Vec<f64>;

/// Places the areas joined by `gates` (pairs of area indices, by gate index) in `region`.
/// `noted` says which gates carry a note; `needs` gives the channels' least heights.
pub(super) fn place(
    f: &Fortress,
    gates: &[(usize, usize, usize)],
    noted: &[bool],
    region: &Bbox,
    needs: Needs,
) -> Placed {
    let l = layout(f);
    // A layout without crossings is drawn as it is, a row per layer, at the roomiest level
    // where that fits (with each row's labels as wide as it has room for, before a level is
    // given up for its height); if none, a layer too wide for the page is cut into runs on rows of their
    // own, which keeps every line in its order (no crossing). Channels roomy enough for their
    // lanes come first, at any level; only a map that fits at none that way squeezes its lanes
    // (closer than the gap a reader needs between two lines). A hand-edited layout with
    // crossings is dealt out.
    let passes: &[(Rows, bool, bool)] = if l.clean() {
        &[
            (Rows::Keep, true, false),
            (Rows::Keep, true, true),
            (Rows::Stair, true, false),
            (Rows::Stair, true, true),
            (Rows::Keep, false, true),
            (Rows::Stair, false, true),
        ]
    } else {
        &[(Rows::Deal, true, false), (Rows::Deal, false, false)]
    };
    let last = if l.clean() { Rows::Stair } else { Rows::Deal };
    for &(rows, lanes, widen) in passes {
        for level in LEVELS {
            for w in LABEL_WIDTHS {
                for budget in [0.85, 1.0] {
                    let lv = Level { label_w: w, ..level };
                    let how = How { budget, rows, lanes: lanes.then_some(needs), widen };
                    if let Some(p) = try_level(f, &l, gates, noted, region, lv, how) {
                        return p;
                    }
                }
            }
        }
    }
    // Far more than the generator ever makes: smaller still, until it fits.
    let how = How { budget: 1.0, rows: last, lanes: None, widen: false };
    let mut k = 0.96;
    loop {
        if let Some(p) = try_level(f, &l, gates, noted, region, LEVELS[LEVELS.len() - 1].scaled(k), how) {
            return p;
        }
        if k < 0.02 {
            // Cannot happen for a page-sized region, but never loop for ever: draw it as it is.
            let lv = LEVELS[LEVELS.len() - 1].scaled(k);
            let region = Bbox { x1: f64::MAX / 4.0, y1: f64::MAX / 4.0, ..*region };
            return try_level(f, &l, gates, noted, &region, lv, how)
                .unwrap_or_else(|| Placed::empty(lv, f.areas.len()));
        }
        k *= 0.96;
    }
}

/// How the layout's layers become rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rows {
    /// One row per layer, in the layout's order (or the level does not fit).
    Keep,
    /// A layer too wide for one row is cut into runs of neighbouring areas, each on a row of its
    /// own, the leftmost run on top; every row is then put in the order of the layout's
    /// crossing-free drawing, so no two lines cross (for a layout without crossings only).
    Stair,
    /// A layer too wide for one row is dealt round-robin over rows, which barycenter sweeps
    /// then order (a hand-edited layout with crossings).
    Deal,
}

/// How a level is tried: layers made into `rows`, cut or dealt over several rows when wider
/// than `budget` of the region (room is left for the gates passing through); with `lanes`, each
/// channel is at least as tall as its lanes need (or the level does not fit); with `widen`, each
/// row's labels are as wide as the row has room for (fewer lines: shorter rows).
#[derive(Clone, Copy)]
struct How {
    budget: f64,
    rows: Rows,
    lanes: Option<Needs>,
    widen: bool,
}

/// The map at level `lv`, tried as `how` says, if it fits.
fn try_level(
    f: &Fortress,
    l: &Layout,
    gates: &[(usize, usize, usize)],
    noted: &[bool],
    region: &Bbox,
    lv: Level,
    how: How,
) -> Option<Placed> {
    let How { budget, rows: mode, lanes, widen } = how;
    let avail = region.x1 - region.x0;
    let (mut blocks, mut extents) = area_cells(f, &lv, avail);
    let area_rows = deal_rows(l, &extents, lv.gap, avail * budget, mode)?;
    let Chained { mut rows, mut items, item_of, edges, same_row, notes_in } =
        chain_gates(area_rows, &extents, gates, noted, lv.gap);
    let (up, down) = neighbours(&items, &edges);
    match mode {
        Rows::Keep => {}
        Rows::Stair => order_planar(&mut rows, &items, &edges, l),
        Rows::Deal => order_rows(&mut rows, &items, &up, &down),
    }
    if widen {
        widen_labels(f, &lv, avail, &rows, &mut items, &mut blocks, &mut extents);
    }
    // Too wide even so (the gates passing through take room too): the next level.
    if rows.iter().any(|row| row_width(row, |i| items[i].left + items[i].right, lv.gap) > avail) {
        return None;
    }
    place_across(&rows, &mut items, &up, &down, region, lv.gap);
    let band_h: Vec<f64> = rows
        .iter()
        .map(|row| row.iter().filter_map(|&i| items[i].area.map(|a| extents[a].2)).fold(2.0 * lv.r, f64::max))
        .collect();
    for it in &mut items {
        it.x = snap(it.x);
    }
    let mut placed = Placed { level: lv, items, edges, bands: Vec::new(), channels: Vec::new(), item_of, blocks };
    let needs = match lanes {
        Some(needs) => needs(f, &placed, rows.len()),
        None => vec![0.0; rows.len()],
    };
    (placed.bands, placed.channels) = place_down(&band_h, &same_row, &notes_in, &needs, &lv, region)?;
    Some(placed)
}

/// Per area at level `lv`: its label's lines (and the characters cut from its name), and its
/// cell's extent (left of the centre, right of it with the label, height).
#[allow(clippy::type_complexity)]
fn area_cells(f: &Fortress, lv: &Level, avail: f64) -> (Vec<(Vec<Line>, usize)>, Vec<(f64, f64, f64)>) {
    f.areas.iter().map(|a| area_cell(f, a, lv, lv.label_w, avail)).unzip()
}

/// One area's label lines and cell extent at level `lv` with labels at most `label_w` wide.
fn area_cell(f: &Fortress, a: &Area, lv: &Level, label_w: f64, avail: f64) -> ((Vec<Line>, usize), (f64, f64, f64)) {
    let label_w = label_w.min(avail * 0.45).max(10.0);
    let look = Look::of(f, a);
    let victim = f.victim_area().is_some_and(|v| v.id == a.id);
    let (lines, lost) = area_block(a, look.word(), victim, label_w, lv.name, lv.info);
    let right = label_x(0.0, lv.r, has_badge(look)) + block_width(&lines);
    let h = block_height(&lines).max(2.0 * lv.r);
    ((lines, lost), (lv.r, right, h))
}

/// Gives each row's labels the widest of [`LABEL_WIDTHS`] the row still fits the page with
/// (the level's own width at least): a row with room to spare takes fewer lines per label, so it
/// is shorter, and the channels get the height.
#[allow(clippy::type_complexity)]
fn widen_labels(
    f: &Fortress,
    lv: &Level,
    avail: f64,
    rows: &[Vec<usize>],
    items: &mut [Item],
    blocks: &mut [(Vec<Line>, usize)],
    extents: &mut [(f64, f64, f64)],
) {
    for row in rows {
        for w in LABEL_WIDTHS.into_iter().filter(|&w| w > lv.label_w) {
            let cells: Vec<Option<_>> =
                row.iter().map(|&i| items[i].area.map(|a| area_cell(f, &f.areas[a], lv, w, avail))).collect();
            let width = row_width(
                &(0..row.len()).collect::<Vec<usize>>(),
                |k| match &cells[k] {
                    Some((_, e)) => e.0 + e.1,
                    None => items[row[k]].left + items[row[k]].right,
                },
                lv.gap,
            );
            if width > avail {
                continue;
            }
            for (&i, cell) in row.iter().zip(cells) {
                if let (Some(a), Some((block, e))) = (items[i].area, cell) {
                    items[i].right = e.1;
                    blocks[a] = block;
                    extents[a] = e;
                }
            }
            break;
        }
    }
}

/// A row's width: its cells side by side, `gap` between each two.
fn row_width(row: &[usize], cell: impl Fn(usize) -> f64, gap: f64) -> f64 {
    row.iter().map(|&i| cell(i)).sum::<f64>() + gap * row.len().saturating_sub(1) as f64
}

/// The rows of areas: each layer in the layout's order, as one row, or (wider than `budget`,
/// in mm) cut into runs ([`Rows::Stair`]) or dealt out round-robin ([`Rows::Deal`]) over as few
/// rows as keep each within it. With [`Rows::Keep`], a layer wider than that fails the level.
fn deal_rows(l: &Layout, extents: &[(f64, f64, f64)], gap: f64, budget: f64, mode: Rows) -> Option<Vec<Vec<usize>>> {
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); l.layers as usize];
    let mut nodes: Vec<(u32, u32, usize)> = l.nodes.iter().enumerate().map(|(i, p)| (p.layer, p.slot, i)).collect();
    nodes.sort_unstable();
    for (layer, _, i) in nodes {
        layers[layer as usize].push(i);
    }
    let cell = |i: usize| extents[i].0 + extents[i].1;
    let width_of = |row: &[usize]| row_width(row, cell, gap);
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for layer in layers {
        if width_of(&layer) <= budget || layer.len() < 2 {
            if !layer.is_empty() {
                rows.push(layer);
            }
            continue;
        }
        match mode {
            Rows::Keep => return None,
            Rows::Stair => rows.extend(runs(&layer, cell, gap, budget)),
            Rows::Deal => {
                let mut m = 2;
                loop {
                    let parts: Vec<Vec<usize>> =
                        (0..m).map(|k| layer.iter().copied().skip(k).step_by(m).collect::<Vec<usize>>()).collect();
                    if m >= layer.len() || parts.iter().all(|p| width_of(p) <= budget) {
                        rows.extend(parts.into_iter().filter(|p| !p.is_empty()));
                        break;
                    }
                    m += 1;
                }
            }
        }
    }
    Some(rows)
}

/// `layer` cut into as few runs of neighbouring cells as keep each within `budget` (mm), the
/// runs as even as that allows (the least widest run: a binary search over the widest a run
/// may be, each try a linear fill).
fn runs(layer: &[usize], cell: impl Fn(usize) -> f64, gap: f64, budget: f64) -> Vec<Vec<usize>> {
    let fill = |cap: f64| -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut width = 0.0;
        for &i in layer {
            match out.last_mut() {
                Some(run) if width + gap + cell(i) <= cap => {
                    run.push(i);
                    width += gap + cell(i);
                }
                _ => {
                    out.push(vec![i]);
                    width = cell(i);
                }
            }
        }
        out
    };
    let fewest = fill(budget).len();
    let (mut lo, mut hi) = (layer.iter().map(|&i| cell(i)).fold(0.0, f64::max), budget.max(0.0));
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if fill(mid).len() <= fewest { hi = mid } else { lo = mid }
    }
    fill(hi)
}

/// The rows as cells: the areas' and, for every row a gate passes without stopping, a narrow
/// cell of the gate's own (so its line never runs over an area or a label).
struct Chained {
    /// Per row, its items (indices into `items`).
    rows: Vec<Vec<usize>>,
    items: Vec<Item>,
    /// Per area, its item.
    item_of: Vec<usize>,
    edges: Vec<Edge>,
    /// Per row: whether a gate joins two of its own areas (it then needs a channel below it).
    same_row: Vec<bool>,
    /// Per row: how many gates with notes leave it downwards.
    notes_in: Vec<usize>,
}

/// Turns rows of areas into rows of items and every drawn gate into an [`Edge`], adding a
/// dummy item in each row it passes (appended at the row's end; the sweeps move it).
fn chain_gates(
    mut rows: Vec<Vec<usize>>,
    extents: &[(f64, f64, f64)],
    gates: &[(usize, usize, usize)],
    noted: &[bool],
    gap: f64,
) -> Chained {
    let mut items: Vec<Item> = Vec::new();
    let mut item_of = vec![0; extents.len()];
    for (ri, row) in rows.iter_mut().enumerate() {
        for i in row.iter_mut() {
            item_of[*i] = items.len();
            items.push(Item { area: Some(*i), row: ri, x: 0.0, left: extents[*i].0, right: extents[*i].1 });
            *i = items.len() - 1;
        }
    }
    let half = (0.4 + gap * 0.5).max(0.6);
    let mut edges = Vec::with_capacity(gates.len());
    let mut same_row = vec![false; rows.len()];
    let mut notes_in = vec![0usize; rows.len()];
    for &(gi, a, b) in gates {
        let (mut u, mut v) = (item_of[a], item_of[b]);
        if items[u].row > items[v].row {
            std::mem::swap(&mut u, &mut v);
        }
        let (ru, rv) = (items[u].row, items[v].row);
        let mut chain = vec![u];
        for (r, row) in rows.iter_mut().enumerate().take(rv).skip(ru + 1) {
            items.push(Item { area: None, row: r, x: 0.0, left: half, right: half });
            row.push(items.len() - 1);
            chain.push(items.len() - 1);
        }
        chain.push(v);
        if ru == rv {
            same_row[ru] = true;
        }
        if noted.get(gi).copied().unwrap_or(false) {
            notes_in[ru] += 1;
        }
        edges.push(Edge { gate: gi, chain });
    }
    Chained { rows, items, item_of, edges, same_row, notes_in }
}

/// Neighbours of each item in the rows above and below (along the edges' chains).
fn neighbours(items: &[Item], edges: &[Edge]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    for e in edges {
        for w in e.chain.windows(2) {
            if items[w[0]].row + 1 == items[w[1]].row {
                down[w[0]].push(w[1]);
                up[w[1]].push(w[0]);
            }
        }
    }
    (up, down)
}

/// Down the page: each row's band (top, bottom, centre line) of height `band_h`, and below it a
/// channel where gates leave it (every row but the last, and a row with a gate inside it), at
/// least `needs` tall, or `None` if the rows do not fit the region's height. Spare height goes
/// to the channels (steeper lines read better), up to [`MAX_CHANNEL`].
#[allow(clippy::type_complexity)]
fn place_down(
    band_h: &[f64],
    same_row: &[bool],
    notes_in: &[usize],
    needs: &[f64],
    lv: &Level,
    region: &Bbox,
) -> Option<(Vec<(f64, f64, f64)>, Vec<Option<(f64, f64)>>)> {
    let nrows = band_h.len();
    let channel_needed = |r: usize| r + 1 < nrows || same_row[r];
    let base = |r: usize| (lv.channel + lv.note_room * notes_in[r].min(1) as f64).max(needs[r]);
    let fixed: f64 = TOP_PAD
        + band_h.iter().sum::<f64>()
        + (0..nrows).filter(|&r| channel_needed(r)).map(|r| 2.0 * STUB + base(r)).sum::<f64>();
    let avail_h = region.y1 - region.y0;
    if fixed > avail_h + 1e-9 {
        return None;
    }
    let count = (0..nrows).filter(|&r| channel_needed(r)).count();
    let extra =
        if count == 0 { 0.0 } else { ((avail_h - fixed) / count as f64).min(MAX_CHANNEL - lv.channel).max(0.0) };
    // A map that leaves room even so sits a little above the middle of the region.
    let left = (avail_h - fixed - extra * count as f64).max(0.0);
    let mut y = region.y0 + TOP_PAD + left / 3.0;
    let mut bands = Vec::with_capacity(nrows);
    let mut channels = Vec::with_capacity(nrows);
    for (r, &bh) in band_h.iter().enumerate() {
        let (top, bottom) = (snap(y), snap(y + bh));
        bands.push((top, bottom, snap((top + bottom) / 2.0)));
        y = bottom;
        if channel_needed(r) {
            let h = base(r) + extra;
            channels.push(Some((snap(y + STUB), snap(y + STUB + h))));
            y += 2.0 * STUB + h;
        } else {
            channels.push(None);
        }
    }
    Some((bands, channels))
}

/// Orders every row as the layout's crossing-free drawing has it (for [`Rows::Stair`]): each
/// item by the slot, in the row's own layer, of the area it stands for (an area's own; a passing
/// gate's end in that layer), then by the slot of the gate's other end. A layer cut into runs
/// has its leftmost run on top: the gates from the layer above into later runs pass it on its
/// right, the gates from earlier runs down to the layer below pass the later runs on their
/// left, so every line keeps its place among the others and none cross.
fn order_planar(rows: &mut [Vec<usize>], items: &[Item], edges: &[Edge], l: &Layout) {
    let slot = |a: usize| l.nodes[a].slot;
    let layer = |a: usize| l.nodes[a].layer;
    let mut passing: Vec<Option<(usize, usize)>> = vec![None; items.len()];
    for e in edges {
        let (u, v) = (e.chain[0], e.chain[e.chain.len() - 1]);
        if let (Some(a), Some(b)) = (items[u].area, items[v].area) {
            for &d in &e.chain[1..e.chain.len() - 1] {
                passing[d] = Some((a, b));
            }
        }
    }
    for row in rows.iter_mut() {
        let Some(own) = row.iter().find_map(|&i| items[i].area).map(layer) else { continue };
        let key = |i: usize| match (items[i].area, passing[i]) {
            (Some(a), _) => (slot(a), 0, i),
            (None, Some((a, b))) if layer(a) == own => (slot(a), slot(b), i),
            (None, Some((a, b))) => (slot(b), slot(a), i),
            (None, None) => (u32::MAX, 0, i),
        };
        row.sort_by_key(|&i| key(i));
    }
}

/// Barycenter sweeps over the final rows (dummies included): each row sorted by the mean
/// position of its neighbours in the row above (going down) or below (going up), ties kept in
/// the current order.
fn order_rows(rows: &mut [Vec<usize>], items: &[Item], up: &[Vec<usize>], down: &[Vec<usize>]) {
    let mut pos = vec![0usize; items.len()];
    let renumber = |row: &[usize], pos: &mut [usize]| {
        for (s, &i) in row.iter().enumerate() {
            pos[i] = s;
        }
    };
    for row in rows.iter() {
        renumber(row, &mut pos);
    }
    let sort = |row: &mut Vec<usize>, refs: &[Vec<usize>], pos: &[usize]| {
        let mut keyed: Vec<(u64, usize, usize)> = row
            .iter()
            .map(|&i| {
                let nb = &refs[i];
                let key = if nb.is_empty() {
                    pos[i] as u64 * 1000
                } else {
                    nb.iter().map(|&j| pos[j] as u64 * 1000).sum::<u64>() / nb.len() as u64
                };
                (key, pos[i], i)
            })
            .collect();
        keyed.sort_unstable();
        row.clear();
        row.extend(keyed.into_iter().map(|k| k.2));
    };
    // Dummies start at the end of their row; the first downward sweep puts them in place.
    let n = rows.len();
    for _ in 0..SWEEPS {
        for row in rows.iter_mut().skip(1) {
            sort(row, up, &pos);
            renumber(row, &mut pos);
        }
        for row in rows.iter_mut().take(n.saturating_sub(1)).rev() {
            sort(row, down, &pos);
            renumber(row, &mut pos);
        }
    }
    // End on a downward sweep, so the Entrance's children follow it.
    for row in rows.iter_mut().skip(1) {
        sort(row, up, &pos);
        renumber(row, &mut pos);
    }
}

/// Positions across: each row as near as it can be to where its neighbours want it.
fn place_across(
    rows: &[Vec<usize>],
    items: &mut [Item],
    up: &[Vec<usize>],
    down: &[Vec<usize>],
    region: &Bbox,
    gap: f64,
) {
    let centre = (region.x0 + region.x1) / 2.0;
    // Start spread evenly.
    for row in rows {
        let w = region.x1 - region.x0;
        let desired: Vec<f64> = (0..row.len()).map(|k| region.x0 + w * (k as f64 + 0.5) / row.len() as f64).collect();
        fit_row(row, items, &desired, region, gap);
    }
    let mean = |items: &[Item], nb: &[usize], own: f64| {
        if nb.is_empty() { own } else { nb.iter().map(|&j| items[j].x).sum::<f64>() / nb.len() as f64 }
    };
    for pass in 0..4 {
        let order: Vec<usize> = if pass % 2 == 0 { (0..rows.len()).collect() } else { (0..rows.len()).rev().collect() };
        for r in order {
            let row = &rows[r];
            let desired: Vec<f64> = row
                .iter()
                .map(|&i| {
                    let both: Vec<usize> = up[i].iter().chain(&down[i]).copied().collect();
                    let nb: &[usize] = if pass < 2 { if pass == 0 { &up[i] } else { &down[i] } } else { &both };
                    mean(items, nb, items[i].x)
                })
                .collect();
            fit_row(row, items, &desired, region, gap);
        }
    }
    // A map narrower than the region sits in its middle.
    let (lo, hi) = items
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), it| (lo.min(it.x - it.left), hi.max(it.x + it.right)));
    if lo.is_finite() {
        let shift = centre - (lo + hi) / 2.0;
        let shift = shift.min(region.x1 - hi).max(region.x0 - lo);
        for it in items.iter_mut() {
            it.x += shift;
        }
    }
}

/// Least squares positions for one row: as near `desired` as keeping the order, the gaps and the
/// region allow (pool adjacent violators over positions shifted by the room each item needs).
fn fit_row(row: &[usize], items: &mut [Item], desired: &[f64], region: &Bbox, gap: f64) {
    if row.is_empty() {
        return;
    }
    // Offsets: item k must be at least c[k] right of item 0.
    let mut c = vec![0.0; row.len()];
    for k in 1..row.len() {
        let (a, b) = (&items[row[k - 1]], &items[row[k]]);
        c[k] = c[k - 1] + a.right + gap + b.left;
    }
    // Blocks of (sum, count) whose means rise.
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for k in 0..row.len() {
        let mut cur = (desired[k] - c[k], 1.0, 1usize);
        while let Some(&(s, n, m)) = blocks.last() {
            if s / n >= cur.0 / cur.1 {
                blocks.pop();
                cur = (cur.0 + s, cur.1 + n, cur.2 + m);
            } else {
                break;
            }
        }
        blocks.push(cur);
    }
    let lo = region.x0 + items[row[0]].left;
    let last = row[row.len() - 1];
    let hi = region.x1 - items[last].right - c[row.len() - 1];
    let mut k = 0;
    for (s, n, m) in blocks {
        let y = (s / n).min(hi).max(lo);
        for _ in 0..m {
            items[row[k]].x = y + c[k];
            k += 1;
        }
    }
}
