//! A square-grid floor plan of a dungeon, for the virtual-tabletop exports (Universal VTT,
//! Udonarium): floor cells (each owned by one room, area or corridor), the walls between floor
//! and rock, a door where each corridor meets a room, and the rooms' labels. Everything is in
//! whole grid cells, so the walls written to a file and the walls drawn in its picture are the
//! same lines by construction.
//!
//! The plan tells the truth about who joins whom: two corridors never share or touch floor, a
//! corridor meets only the two rooms it joins, each through a door, and walls close every
//! corridor. A secret corridor (a MYK Secret Door trap's, an NW3 secret gate's) is walled like
//! any other in the file but drawn as rock, its doors secret portals drawn as wall: the players'
//! picture keeps the secret until the GM opens the door.
//!
//! MYK: the 3x3 sheet becomes rooms of 8x8 cells with 4-cell gaps that the corridors (2 cells
//! wide) cross; an entrance is a short corridor to the plan's edge. The sheet's corridors join
//! neighbouring rooms only, so they cannot meet. NW3: the areas (4x4 cells, wider where a wall
//! holds more than two doors) stand in the area map's rows and order, and each gate is a 1-cell
//! corridor with a clearance from everything else: down, across and down through the channel
//! between two rows ([`channel`]) when the map draws the graph clean, else found by a search on
//! the grid, with stubs where a gate cannot pass ([`route`], which also explains the rule and the
//! compaction that removes the empty rock). The GM's view ([`Plan::svg_gm`]) draws the secret
//! corridors too.

use std::fmt::Write as _;

use svg::Document;
use svg::node::element::{Path, Rectangle, Text};

use crate::error::Result;
use crate::myk::model::{CorridorId, Map, RoomId, Wall};
use crate::nw3::model::{Fortress, GateKind};
use crate::render::svgkit::xml_chars;

/// A point on the grid lines, in cells.
pub type Pt = (u32, u32);

/// A room or area of the plan and its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRoom {
    pub label: String,
    /// What the room is called in the scenario (A1, area 3, ...): the key other exports use.
    pub key: String,
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

impl PlanRoom {
    /// The room's centre, in cells.
    pub fn centre(&self) -> (f64, f64) {
        (f64::from(self.x) + f64::from(self.w) / 2.0, f64::from(self.y) + f64::from(self.h) / 2.0)
    }
}

/// A door across an opening in a room's wall, from `a` to `b` (a straight grid line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Door {
    pub a: Pt,
    pub b: Pt,
    /// Hidden from the players: drawn as wall in the picture.
    pub secret: bool,
}

/// A straight wall between floor and rock, from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub a: Pt,
    pub b: Pt,
}

/// The plan: `w` x `h` cells, each rock (owner 0) or the floor of one room, area or corridor.
#[derive(Clone, Debug)]
pub struct Plan {
    pub w: u32,
    pub h: u32,
    owner: Vec<u32>,
    /// Owners whose floor is secret: walled in the file, drawn as rock in the picture.
    hidden: Vec<u32>,
    pub rooms: Vec<PlanRoom>,
    pub doors: Vec<Door>,
    /// Small texts in single cells (where a stub corridor leads).
    pub marks: Vec<(Pt, String)>,
    /// Gates drawn as stubs, not corridors.
    pub stubbed: usize,
    /// Stub ends that found no room beside their area.
    pub unplaced: usize,
}

/// Colours of the picture.
pub const ROCK: &str = "#4a4540";
pub const FLOOR: &str = "#f2ede2";
pub const WALL: &str = "#111111";
pub const DOOR: &str = "#9a6431";
/// The players' start view's unexplored cells: blank paper under the table's grid.
pub const UNEXPLORED: &str = "#ebe5d6";
/// A secret corridor's floor and doors in the GM's view.
pub const SECRET_FLOOR: &str = "#c9b68c";
pub const SECRET_DOOR: &str = "#b0392b";

impl Plan {
    fn new(w: u32, h: u32) -> Plan {
        Plan {
            w,
            h,
            owner: vec![0; (w * h) as usize],
            hidden: Vec::new(),
            rooms: Vec::new(),
            doors: Vec::new(),
            marks: Vec::new(),
            stubbed: 0,
            unplaced: 0,
        }
    }

    /// Marks the cells of a rectangle as the floor of `owner` (clipped to the plan).
    fn fill(&mut self, x: u32, y: u32, w: u32, h: u32, owner: u32) {
        for yy in y..(y + h).min(self.h) {
            for xx in x..(x + w).min(self.w) {
                self.owner[(yy * self.w + xx) as usize] = owner;
            }
        }
    }

    fn door(&mut self, d: Door) {
        if !self.doors.iter().any(|o| o.a == d.a && o.b == d.b) {
            self.doors.push(d);
        }
    }

    fn owner_at(&self, x: i64, y: i64) -> u32 {
        if x >= 0 && y >= 0 && (x as u32) < self.w && (y as u32) < self.h {
            self.owner[(y as u32 * self.w + x as u32) as usize]
        } else {
            0
        }
    }

    /// Whether a cell is floor (secret floor included); cells outside the plan are rock.
    pub fn is_floor(&self, x: i64, y: i64) -> bool {
        self.owner_at(x, y) != 0
    }

    /// Whether a cell is floor the players see: not rock, not a secret corridor.
    pub fn is_shown(&self, x: i64, y: i64) -> bool {
        let o = self.owner_at(x, y);
        o != 0 && !self.hidden.contains(&o)
    }

    /// Every wall: the grid edges between a floor cell and a rock cell, joined into the longest
    /// straight runs (rows first, then columns). Secret corridors are walled too, so a VTT keeps
    /// tokens inside them once the GM opens their door.
    pub fn walls(&self) -> Vec<Segment> {
        self.edges(|x, y| self.is_floor(x, y))
    }

    /// The grid edges where `inside` changes, joined into straight runs.
    fn edges(&self, inside: impl Fn(i64, i64) -> bool) -> Vec<Segment> {
        self.runs(|x, y| inside(x, y - 1) != inside(x, y), |x, y| inside(x - 1, y) != inside(x, y))
    }

    /// The horizontal grid edges above cell (x, y) where `across(x, y)`, and the vertical ones
    /// left of it where `down(x, y)`, joined into the longest straight runs.
    fn runs(&self, across: impl Fn(i64, i64) -> bool, down: impl Fn(i64, i64) -> bool) -> Vec<Segment> {
        let mut out = Vec::new();
        for y in 0..=self.h {
            let mut start: Option<u32> = None;
            for x in 0..=self.w {
                let wall = x < self.w && across(i64::from(x), i64::from(y));
                match (wall, start) {
                    (true, None) => start = Some(x),
                    (false, Some(s)) => {
                        out.push(Segment { a: (s, y), b: (x, y) });
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        for x in 0..=self.w {
            let mut start: Option<u32> = None;
            for y in 0..=self.h {
                let wall = y < self.h && down(i64::from(x), i64::from(y));
                match (wall, start) {
                    (true, None) => start = Some(y),
                    (false, Some(s)) => {
                        out.push(Segment { a: (x, s), b: (x, y) });
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The grid edges inside `inside`'s region (a shown cell on both sides), joined into
    /// straight runs (rows first, then columns).
    fn edges_between(&self, inside: impl Fn(i64, i64) -> bool) -> Vec<Segment> {
        let both = |a: (i64, i64), b: (i64, i64)| inside(a.0, a.1) && inside(b.0, b.1);
        self.runs(|x, y| both((x, y - 1), (x, y)), |x, y| both((x - 1, y), (x, y)))
    }

    /// The players' view as SVG (written by the `svg` crate), `ppg` pixels per grid cell: rock,
    /// floor, a faint grid, walls, doors (a secret door is drawn as wall) and the room labels.
    /// User text is escaped.
    pub fn svg(&self, ppg: u32) -> String {
        self.svg_with(ppg, 0)
    }

    /// [`Plan::svg`] with `extra` blank columns on the right (room for notes on a tabletop).
    pub fn svg_with(&self, ppg: u32, extra: u32) -> String {
        self.draw(ppg, (self.w + extra, self.h), false, ROCK)
    }

    /// The GM's view: [`Plan::svg_with`] with the secret corridors drawn in [`SECRET_FLOOR`]
    /// and walled, their doors in [`SECRET_DOOR`].
    pub fn svg_gm(&self, ppg: u32, extra: u32) -> String {
        self.draw(ppg, (self.w + extra, self.h), true, ROCK)
    }

    /// The GM's view in the top left corner of a blank picture of `size` cells (at least the
    /// plan's), the rest left for notes on a tabletop.
    pub fn svg_gm_in(&self, ppg: u32, size: (u32, u32)) -> String {
        self.draw(ppg, size, true, ROCK)
    }

    /// The players' view of a plan reduced by [`Plan::start`]: its unknown cells blank paper
    /// (the table's grid shows over them), in a picture of `size` cells.
    pub fn svg_unexplored_in(&self, ppg: u32, size: (u32, u32)) -> String {
        self.draw(ppg, size, false, UNEXPLORED)
    }

    /// The plan as the players know it before they go in: only the rooms or areas named by
    /// `keys` and, with `edges`, the entrances (the floor that reaches the plan's edge, with the
    /// door at its inner end); every other cell is rock and no other room is labelled, so the
    /// picture tells nothing of the shape beyond the entrance.
    pub fn start(&self, keys: &[&str], edges: bool) -> Plan {
        let mut kept: Vec<u32> = Vec::new();
        for x in (0..self.w).filter(|_| edges) {
            kept.extend([self.owner_at(i64::from(x), 0), self.owner_at(i64::from(x), i64::from(self.h) - 1)]);
        }
        for y in (0..self.h).filter(|_| edges) {
            kept.extend([self.owner_at(0, i64::from(y)), self.owner_at(i64::from(self.w) - 1, i64::from(y))]);
        }
        let rooms: Vec<PlanRoom> = self.rooms.iter().filter(|r| keys.contains(&r.key.as_str())).cloned().collect();
        kept.extend(rooms.iter().map(|r| self.owner_at(i64::from(r.x), i64::from(r.y))));
        kept.retain(|&o| o != 0 && !self.hidden.contains(&o));
        let mut p = Plan::new(self.w, self.h);
        for (i, o) in self.owner.iter().enumerate() {
            if kept.contains(o) {
                p.owner[i] = *o;
            }
        }
        p.rooms = rooms;
        // A door stands on a grid line: kept where a kept cell lies on either side of it.
        let beside = |d: &Door| {
            let (x, y) = (i64::from(d.a.0.min(d.b.0)), i64::from(d.a.1.min(d.b.1)));
            let (a, b) = if d.a.1 == d.b.1 { ((x, y - 1), (x, y)) } else { ((x - 1, y), (x, y)) };
            p.is_floor(a.0, a.1) || p.is_floor(b.0, b.1)
        };
        p.doors = self.doors.iter().filter(|d| !d.secret && beside(d)).copied().collect();
        p
    }

    fn draw(&self, ppg: u32, size: (u32, u32), secrets: bool, rock: &str) -> String {
        let seen = |x: i64, y: i64| if secrets { self.is_floor(x, y) } else { self.is_shown(x, y) };
        let (w, h) = (size.0.max(self.w), size.1.max(self.h));
        let mut doc = Document::new().set("width", w * ppg).set("height", h * ppg).set("viewBox", (0, 0, w, h));
        if (w, h) != (self.w, self.h) {
            doc = doc.add(Rectangle::new().set("width", w).set("height", h).set("fill", "#d9d4c8"));
        }
        doc = doc.add(Rectangle::new().set("width", self.w).set("height", self.h).set("fill", rock));
        doc = doc.add(self.floor(FLOOR, |x, y| self.is_shown(x, y)));
        if secrets {
            doc = doc.add(self.floor(SECRET_FLOOR, |x, y| self.is_floor(x, y) && !self.is_shown(x, y)));
        }
        // The grid over the floor only (the rock needs none, and a whole-picture grid was a
        // third of the drawing time), then the walls around the floor drawn (for the players a
        // secret door is wall).
        doc = doc.add(
            Path::new()
                .set("fill", "none")
                .set("stroke", "#000000")
                .set("stroke-opacity", 0.15)
                .set("stroke-width", 0.03)
                .set("d", lines(&self.edges_between(seen))),
        );
        doc = doc.add(
            Path::new()
                .set("fill", "none")
                .set("stroke", WALL)
                .set("stroke-width", 0.16)
                .set("stroke-linecap", "square")
                .set("d", lines(&self.edges(seen))),
        );
        for door in self.doors.iter().filter(|d| secrets || !d.secret) {
            doc = doc.add(door_rect(door));
        }
        let label = |x: String, y: String, size: f64, text: &str| {
            Text::new(xml_chars(text))
                .set("x", x)
                .set("y", y)
                .set("font-family", "DejaVu Sans")
                .set("font-weight", "bold")
                .set("font-size", size)
                .set("fill", "#6b645a")
        };
        for r in &self.rooms {
            let (x, y) = (f64::from(r.x) + 0.35, f64::from(r.y) + 1.05);
            doc = doc.add(label(format!("{x:.2}"), format!("{y:.2}"), 0.8, &r.label));
        }
        for ((x, y), text) in &self.marks {
            doc = doc.add(label(format!("{x}.5"), format!("{y}.62"), 0.34, text).set("text-anchor", "middle"));
        }
        doc.to_string()
    }

    /// A path filling every run of cells where `inside` holds, row by row, in `fill`.
    fn floor(&self, fill: &str, inside: impl Fn(i64, i64) -> bool) -> Path {
        let mut d = String::new();
        for y in 0..self.h {
            let mut x = 0;
            while x < self.w {
                if inside(i64::from(x), i64::from(y)) {
                    let s0 = x;
                    while x < self.w && inside(i64::from(x), i64::from(y)) {
                        x += 1;
                    }
                    let _ = write!(d, "M{s0} {y}h{}v1h-{}z", x - s0, x - s0);
                } else {
                    x += 1;
                }
            }
        }
        Path::new().set("fill", fill).set("d", d)
    }

    /// The players' view as PNG bytes, `ppg` pixels per grid cell.
    pub fn png(&self, ppg: u32, what: &str) -> Result<Vec<u8>> {
        crate::render::raster::png(&self.svg(ppg), self.w * ppg, what)
    }

    /// The room with this key (A1, area 3...).
    pub fn room(&self, key: &str) -> Option<&PlanRoom> {
        self.rooms.iter().find(|r| r.key == key)
    }
}

/// A door drawn across its opening: a thin bar, red when secret (only the GM's view draws those).
fn door_rect(door: &Door) -> Rectangle {
    let (x0, y0) = (door.a.0.min(door.b.0), door.a.1.min(door.b.1));
    let (x1, y1) = (door.a.0.max(door.b.0), door.a.1.max(door.b.1));
    let (x, y, w, h) = if y0 == y1 {
        (f64::from(x0) + 0.1, f64::from(y0) - 0.14, f64::from(x1 - x0) - 0.2, 0.28)
    } else {
        (f64::from(x0) - 0.14, f64::from(y0) + 0.1, 0.28, f64::from(y1 - y0) - 0.2)
    };
    Rectangle::new()
        .set("x", format!("{x:.2}"))
        .set("y", format!("{y:.2}"))
        .set("width", format!("{w:.2}"))
        .set("height", format!("{h:.2}"))
        .set("fill", if door.secret { SECRET_DOOR } else { DOOR })
        .set("stroke", WALL)
        .set("stroke-width", 0.05)
}

/// A path's data for straight segments.
fn lines(segments: &[Segment]) -> String {
    let mut d = String::new();
    for s in segments {
        let _ = write!(d, "M{} {}L{} {}", s.a.0, s.a.1, s.b.0, s.b.1);
    }
    d
}

mod channel;
mod route;

// ---------------------------------------------------------------------------------------------
// MYK: one plan per map sheet.

const ROOM: u32 = 8;
const GAP: u32 = 4;
const EDGE: u32 = 3;
const WIDE: u32 = 2;

fn origin(r: RoomId) -> Pt {
    (EDGE + u32::from(r.col()) * (ROOM + GAP), EDGE + u32::from(r.row()) * (ROOM + GAP))
}

/// The plan of one MYK map: used rooms, corridors (a door at both ends) and entrances (a
/// corridor to the edge of the plan, a door at the room). A corridor that a room's trap hides
/// (the Secret Door) is secret floor: walled in the file, rock in the picture, its doors secret
/// portals the GM opens once the party finds it.
pub fn myk_plan(map: &Map) -> Plan {
    let side = 2 * EDGE + 3 * ROOM + 2 * GAP;
    let mut p = Plan::new(side, side);
    let mut next = 0u32;
    let mut owner = || {
        next += 1;
        next
    };
    let touched =
        |id: RoomId| map.corridors.iter().any(|k| k.id().touches(id)) || map.entrances.iter().any(|e| e.room == id);
    for room in map.rooms.iter().filter(|r| r.used || touched(r.id)) {
        let (x, y) = origin(room.id);
        p.fill(x, y, ROOM, ROOM, owner());
        p.rooms.push(PlanRoom { label: room.id.to_string(), key: room.id.to_string(), x, y, w: ROOM, h: ROOM });
    }
    let mid = ROOM / 2 - WIDE / 2;
    let mut corridors: Vec<CorridorId> = map.corridors.iter().map(|k| k.id()).collect();
    corridors.sort();
    for id in corridors {
        let secret = map.rooms.iter().flat_map(|r| &r.traps).any(|t| t.corridor == Some(id));
        let o = owner();
        if secret {
            p.hidden.push(o);
        }
        let (ax, ay) = origin(id.0);
        let (bx, by) = origin(id.1);
        if id.0.row() == id.1.row() {
            let (x0, y0) = (ax.min(bx) + ROOM, ay + mid);
            p.fill(x0, y0, GAP, WIDE, o);
            p.door(Door { a: (x0, y0), b: (x0, y0 + WIDE), secret });
            p.door(Door { a: (x0 + GAP, y0), b: (x0 + GAP, y0 + WIDE), secret });
        } else {
            let (x0, y0) = (ax + mid, ay.min(by) + ROOM);
            p.fill(x0, y0, WIDE, GAP, o);
            p.door(Door { a: (x0, y0), b: (x0 + WIDE, y0), secret });
            p.door(Door { a: (x0, y0 + GAP), b: (x0 + WIDE, y0 + GAP), secret });
        }
    }
    for e in &map.entrances {
        let (x, y) = origin(e.room);
        let o = owner();
        let (cells, door) = match e.wall {
            Wall::North => ((x + mid, y - EDGE, WIDE, EDGE), ((x + mid, y), (x + mid + WIDE, y))),
            Wall::South => ((x + mid, y + ROOM, WIDE, EDGE), ((x + mid, y + ROOM), (x + mid + WIDE, y + ROOM))),
            Wall::West => ((x - EDGE, y + mid, EDGE, WIDE), ((x, y + mid), (x, y + mid + WIDE))),
            Wall::East => ((x + ROOM, y + mid, EDGE, WIDE), ((x + ROOM, y + mid), (x + ROOM, y + mid + WIDE))),
        };
        p.fill(cells.0, cells.1, cells.2, cells.3, o);
        p.door(Door { a: door.0, b: door.1, secret: false });
    }
    p
}

// ---------------------------------------------------------------------------------------------
// NW3: one plan per fortress.

/// An area is AREA x AREA cells.
pub const AREA: u32 = 4;
/// Free cells around each area before compaction, tried in turn until every gate routes.
const GAPS: [u32; 3] = [6, 10, 16];
/// The largest area tried when stubs find no room.
const MAX_AREA: u32 = 12;

/// The plan of a fortress: every area placed by the area map's layers and order within them,
/// every gate a corridor with a door at both areas (corridors never touch one another nor a
/// third area), the empty rock between them compacted away. A secret gate's corridor is secret
/// floor with secret doors. A fortress the area map draws clean (every generated one) is routed
/// in channels between its rows, one straight-piece corridor per gate ([`channel`]); any other
/// graph by a search on the grid ([`route`]), where a gate that cannot be routed without
/// touching another corridor gets a stub at each end, marked with the area it leads to.
pub fn fortress_plan(f: &Fortress) -> Plan {
    fortress_plan_sized(f, AREA)
}

/// [`fortress_plan`] with areas of `area` x `area` cells (Udonarium's GM room makes them large
/// enough for the pieces standing in them).
pub fn fortress_plan_sized(f: &Fortress, area: u32) -> Plan {
    plan_within(f, area, u64::MAX).unwrap_or_else(|_| Plan::new(1, 1))
}

/// The most work the search router may be set for one plan (gates routed times the cells of
/// each grid it may try, over every gap and order): a few seconds on one core. Generated
/// fortresses never meet it (the channel router draws them); a hand-edited graph the area map
/// cannot draw in rows, of hundreds of areas and thousands of gates, would take minutes.
pub const SEARCH_WORK: u64 = 400_000_000;

/// [`fortress_plan_sized`] for a file to be drawn (`what`): a plan whose search would pass
/// `SEARCH_WORK` is refused in one line before any corridor is routed.
pub fn fortress_plan_checked(f: &Fortress, area: u32, what: &str) -> crate::error::Result<Plan> {
    plan_within(f, area, SEARCH_WORK).map_err(|work| crate::error::Error::PlanTooLarge {
        what: what.to_string(),
        areas: f.areas.len(),
        gates: f.gates.len(),
        work,
        limit: SEARCH_WORK,
    })
}

/// The plan, or the work its search would take when that is past `budget`.
fn plan_within(f: &Fortress, area: u32, budget: u64) -> std::result::Result<Plan, u64> {
    let lay = crate::nw3::layout::layout(f);
    let (placed, gates) = placed_and_gates(f, &lay);
    if lay.clean()
        && let Some((grid, corridors)) = channel::route(&placed, &gates, area)
    {
        return Ok(finish(&placed, &grid, &corridors, &[], (0, 0)));
    }
    let work = search_work(&placed, gates.len(), area);
    if work > budget {
        return Err(work);
    }
    Ok(searched(&placed, &gates, area, budget))
}

/// The most work [`searched`] does at areas of `side` cells: every gate routed over each gap's
/// whole grid in each order (a route's search clears a grid's worth of state).
fn search_work(placed: &[Placed], gates: usize, side: u32) -> u64 {
    GAPS.iter()
        .map(|&gap| {
            let (w, h) = grid_size(placed, side, gap);
            3 * gates as u64 * u64::from(w) * u64::from(h)
        })
        .sum()
}

/// The rectangles of the areas on the search router's grid, and the grid's width and height.
fn grid_of(placed: &[Placed], side: u32, gap: u32) -> (Vec<route::Rect>, u32, u32) {
    let pitch = side + gap;
    let areas: Vec<route::Rect> =
        placed.iter().map(|&(_, layer, x)| (gap + x * pitch / 2, gap + layer * pitch, side, side)).collect();
    let w = areas.iter().map(|r| r.0 + side + gap).max().unwrap_or(2 * gap + side);
    let h = areas.iter().map(|r| r.1 + side + gap).max().unwrap_or(2 * gap + side);
    (areas, w, h)
}

fn grid_size(placed: &[Placed], side: u32, gap: u32) -> (u32, u32) {
    let (_, w, h) = grid_of(placed, side, gap);
    (w, h)
}

/// An area as the routers take it: id, layer, x in the layout's half units.
type Placed = (u32, u32, u32);
/// A gate as the routers take it: its ends (1-based indices into the placed areas), secret.
type GateEnds = (u32, u32, bool);

/// The areas as the routers take them, (id, layer, x in the layout's half units), and the gates
/// as (1-based index into those, the other end's, secret); a gate to itself is left out.
fn placed_and_gates(f: &Fortress, lay: &crate::nw3::layout::Layout) -> (Vec<Placed>, Vec<GateEnds>) {
    let placed: Vec<Placed> = f.areas.iter().filter_map(|a| lay.get(a.id).map(|n| (a.id, n.layer, n.x))).collect();
    let index = |id: u32| placed.iter().position(|p| p.0 == id).map(|i| i as u32 + 1);
    let gates = f
        .gates
        .iter()
        .filter(|g| g.from != g.to)
        .filter_map(|g| Some((index(g.from)?, index(g.to)?, g.kind == GateKind::Secret)))
        .collect();
    (placed, gates)
}

/// The plan of a graph the area map cannot draw clean: each gap with each routing order; the
/// first gap where some order routes every gate wins (its smallest plan), else the plan with
/// the fewest stubs.
fn searched(placed: &[(u32, u32, u32)], gates: &[(u32, u32, bool)], area: u32, budget: u64) -> Plan {
    let mut best: Option<Plan> = None;
    let key = |p: &Plan| (p.unplaced, p.stubbed, p.w * p.h);
    for &gap in &GAPS {
        for order in [Order::ShortFirst, Order::LongFirst, Order::AsWritten] {
            let p = routed(placed, gates, area, gap, order);
            if best.as_ref().is_none_or(|b| key(&p) < key(b)) {
                best = Some(p);
            }
        }
        if best.as_ref().is_some_and(|b| key(b).1 == 0) {
            break;
        }
    }
    match best {
        // An area walled in on every side has no room for a stub's door: larger areas.
        Some(b) if b.unplaced > 0 && area < MAX_AREA && search_work(placed, gates.len(), area + 1) <= budget => {
            searched(placed, gates, area + 1, budget)
        }
        b => b.unwrap_or_else(|| Plan::new(1, 1)),
    }
}

/// The order in which gates are routed: earlier corridors take the direct ways.
#[derive(Clone, Copy)]
enum Order {
    /// Shortest first: they have the fewest ways round.
    ShortFirst,
    LongFirst,
    AsWritten,
}

/// A stub: its cell, the area it opens on, the area it leads to, secret.
type Stub = (usize, u32, u32, bool);

/// One attempt at the fortress plan with `gap` free cells around each area, routing in `order`;
/// a gate that does not route gets stubs.
fn routed(placed: &[(u32, u32, u32)], gates: &[(u32, u32, bool)], side: u32, gap: u32, order_by: Order) -> Plan {
    let (areas, w, h) = grid_of(placed, side, gap);
    let mut g = route::Grid::new(w, h, areas);
    let n = placed.len() as u32;
    let mut order: Vec<usize> = (0..gates.len()).collect();
    let centre = |i: u32| {
        let r = g.areas[i as usize - 1];
        (i64::from(r.0), i64::from(r.1))
    };
    let length = |k: usize| {
        let ((ax, ay), (bx, by)) = (centre(gates[k].0), centre(gates[k].1));
        (ax - bx).abs() + (ay - by).abs()
    };
    match order_by {
        Order::ShortFirst => order.sort_by_key(|&k| (length(k), k)),
        Order::LongFirst => order.sort_by_key(|&k| (-length(k), k)),
        Order::AsWritten => {}
    }
    let mut corridors: Vec<channel::Corridor> = Vec::new();
    let mut stubs: Vec<Stub> = Vec::new();
    let (mut stubbed, mut unplaced) = (0, 0);
    for &k in &order {
        let (a, b, secret) = gates[k];
        let o = n + 1 + k as u32;
        match g.route(a, b) {
            Some(path) => {
                g.claim(&path, o);
                corridors.push((path, o, [a, b], secret));
            }
            None => {
                stubbed += 1;
                for (from, to) in [(a, b), (b, a)] {
                    match g.doorsteps(from, &[]).first() {
                        Some(&(c, _)) => {
                            g.claim(&[c], o);
                            stubs.push((c, from, to, secret));
                        }
                        None => unplaced += 1,
                    }
                }
            }
        }
    }
    finish(placed, &g, &corridors, &stubs, (stubbed, unplaced))
}

/// The plan of a routed grid: compacted, its areas labelled, a door where each corridor and
/// stub meets its area, secret corridors hidden, stubs marked with where they lead.
fn finish(
    placed: &[(u32, u32, u32)],
    g: &route::Grid,
    corridors: &[channel::Corridor],
    stubs: &[Stub],
    (stubbed, unplaced): (usize, usize),
) -> Plan {
    let (c, cell) = g.compact();
    let mut p = Plan::new(c.w, c.h);
    p.owner = c.owner.clone();
    p.stubbed = stubbed;
    p.unplaced = unplaced;
    for (i, &(x, y, w, h)) in c.areas.iter().enumerate() {
        let label = placed[i].0.to_string();
        p.rooms.push(PlanRoom { label: label.clone(), key: label, x, y, w, h });
    }
    let door = |p: &mut Plan, at: usize, area: u32, secret: bool| {
        let Some(inside) = c.door_of(at, area) else { return };
        let ((x0, y0), (x1, y1)) = (c.cell_xy(at), c.cell_xy(inside));
        let (a, b) = if y0 == y1 {
            let x = x0.max(x1);
            ((x, y0), (x, y0 + 1))
        } else {
            let y = y0.max(y1);
            ((x0, y), (x0 + 1, y))
        };
        p.door(Door { a, b, secret });
    };
    for (path, o, ends, secret) in corridors {
        if *secret {
            p.hidden.push(*o);
        }
        door(&mut p, cell(path[0]), ends[0], *secret);
        door(&mut p, cell(*path.last().unwrap_or(&path[0])), ends[1], *secret);
    }
    for &(at, from, to, secret) in stubs {
        let at = cell(at);
        if secret {
            p.hidden.push(c.owner[at]);
        } else {
            p.marks.push((c.cell_xy(at), format!("\u{2192}{}", placed[to as usize - 1].0)));
        }
        door(&mut p, at, from, secret);
    }
    p.doors.sort();
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::myk::{MykParams, generate};
    use crate::tables::Tables;

    #[test]
    fn the_gm_sees_the_secret_corridor_the_players_do_not() {
        // myk --seed 1: a Secret Door hides the A2-B2 corridor.
        let t = Tables::embedded().unwrap();
        let params = MykParams {
            levels: vec![2; 4],
            maps: 1,
            rooms: 9,
            layout: crate::myk::model::Layout::Mixed,
            objective: None,
        };
        let s = generate(&t, &params, 1).unwrap();
        let p = myk_plan(&s.maps[0]);
        assert!(p.doors.iter().any(|d| d.secret), "seed 1 has a secret corridor");
        let (players, gm) = (p.svg_with(10, 0), p.svg_gm(10, 0));
        assert!(!players.contains(SECRET_FLOOR) && !players.contains(SECRET_DOOR));
        assert!(gm.contains(SECRET_FLOOR) && gm.contains(SECRET_DOOR));
        // The corridor's middle, drawn: rock for the players, the secret floor for the GM.
        let (x, y) = (0..p.h)
            .flat_map(|y| (0..p.w).map(move |x| (x, y)))
            .find(|&(x, y)| p.is_floor(i64::from(x), i64::from(y)) && !p.is_shown(i64::from(x), i64::from(y)))
            .unwrap();
        let colour = |svg: &str| {
            let png = crate::render::raster::png(svg, p.w * 10, "plan").unwrap();
            let pix = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
            let c = pix.pixel(x * 10 + 5, y * 10 + 5).unwrap();
            format!("#{:02x}{:02x}{:02x}", c.red(), c.green(), c.blue())
        };
        assert_eq!(colour(&players), ROCK);
        assert_eq!(colour(&gm), SECRET_FLOOR);
    }

    #[test]
    fn generated_fortresses_route_every_gate_in_channels_without_a_stub() {
        let t = Tables::embedded().unwrap();
        for areas in 3..=40 {
            for seed in 1..=8 {
                let p = crate::nw3::FortressParams { areas, ..Default::default() };
                let f = crate::nw3::generate(&t, &p, seed).unwrap();
                let lay = crate::nw3::layout::layout(&f);
                let placed: Vec<(u32, u32, u32)> =
                    f.areas.iter().map(|a| lay.get(a.id).map(|n| (a.id, n.layer, n.x)).unwrap()).collect();
                let index = |id: u32| placed.iter().position(|p| p.0 == id).unwrap() as u32 + 1;
                let gates: Vec<(u32, u32, bool)> =
                    f.gates.iter().map(|g| (index(g.from), index(g.to), false)).collect();
                let (_, corridors) = channel::route(&placed, &gates, AREA)
                    .unwrap_or_else(|| panic!("seed {seed} areas {areas}: fell back to the search"));
                assert_eq!(corridors.len(), f.gates.len());
                let plan = fortress_plan(&f);
                assert_eq!((plan.stubbed, plan.marks.len()), (0, 0), "seed {seed} areas {areas}");
                assert_eq!(plan.doors.len(), 2 * f.gates.len(), "seed {seed} areas {areas}: a door at each end");
            }
        }
    }

    #[test]
    fn every_stub_of_the_search_router_finds_room_beside_its_area() {
        // Generated fortresses take the channel router; the search router is asked directly
        // here, where it still leaves gates as stubs.
        let t = Tables::embedded().unwrap();
        let mut stubbed = 0;
        for (areas, seed) in [(25, 22), (30, 7), (40, 3), (40, 5)] {
            let p = crate::nw3::FortressParams { party: 1, cl: 20, areas, ..Default::default() };
            let f = crate::nw3::generate(&t, &p, seed).unwrap();
            let (placed, gates) = placed_and_gates(&f, &crate::nw3::layout::layout(&f));
            let plan = searched(&placed, &gates, AREA, u64::MAX);
            assert_eq!(plan.unplaced, 0, "{areas} areas seed {seed}: {} stubs", plan.stubbed);
            stubbed += plan.stubbed;
        }
        assert!(stubbed > 0, "the cases exercise stubs");
    }

    #[test]
    fn every_myk_door_sits_in_a_gap_of_the_walls_between_floor_cells() {
        let t = Tables::embedded().unwrap();
        for seed in 0..30 {
            let s = generate(
                &t,
                &MykParams {
                    levels: vec![2; 4],
                    maps: 2,
                    rooms: 7,
                    layout: crate::myk::model::Layout::Mixed,
                    objective: None,
                },
                seed,
            )
            .unwrap();
            for m in &s.maps {
                let p = myk_plan(m);
                for d in &p.doors {
                    // Both sides of a door are floor, so no wall runs along it.
                    let (x, y) = (i64::from(d.a.0), i64::from(d.a.1));
                    if d.a.1 == d.b.1 {
                        assert!(p.is_floor(x, y - 1) && p.is_floor(x, y), "seed {seed} door {d:?}");
                    } else {
                        assert!(p.is_floor(x - 1, y) && p.is_floor(x, y), "seed {seed} door {d:?}");
                    }
                }
            }
        }
    }
}
