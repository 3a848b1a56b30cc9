//! A square-grid floor plan of a dungeon, for the virtual-tabletop exports (Universal VTT,
//! Udonarium): floor cells, the walls between floor and rock, a door where each corridor meets a
//! room, and the rooms' labels. Everything is in whole grid cells, so the walls written to a file
//! and the walls drawn in its picture are the same lines by construction.
//!
//! MYK: the 3x3 sheet becomes rooms of 8x8 cells with 4-cell gaps that the corridors (2 cells
//! wide) cross; an entrance is a short corridor to the plan's edge. NW3: the areas stand where the
//! area map's layered layout puts them (5x5 cells), and each gate is a 1-cell corridor routed
//! through the gaps between the layers (lanes) and between the columns, never through another
//! area; corridors may cross one another (the area map remains the authority on who joins whom).

use crate::error::Result;
use crate::myk::model::{CorridorId, Map, RoomId, Wall};
use crate::nw3::model::{Fortress, GateKind};

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

/// The plan: `w` x `h` cells.
#[derive(Clone, Debug)]
pub struct Plan {
    pub w: u32,
    pub h: u32,
    floor: Vec<bool>,
    pub rooms: Vec<PlanRoom>,
    pub doors: Vec<Door>,
}

/// Colours of the picture.
pub const ROCK: &str = "#4a4540";
pub const FLOOR: &str = "#f2ede2";
pub const WALL: &str = "#111111";
pub const DOOR: &str = "#9a6431";

impl Plan {
    fn new(w: u32, h: u32) -> Plan {
        Plan { w, h, floor: vec![false; (w * h) as usize], rooms: Vec::new(), doors: Vec::new() }
    }

    /// Marks the cells of a rectangle as floor (clipped to the plan).
    fn fill(&mut self, x: u32, y: u32, w: u32, h: u32) {
        for yy in y..(y + h).min(self.h) {
            for xx in x..(x + w).min(self.w) {
                self.floor[(yy * self.w + xx) as usize] = true;
            }
        }
    }

    /// Floor from one cell to another along a row or a column (both ends included).
    fn run(&mut self, from: Pt, to: Pt) {
        let (x0, x1) = (from.0.min(to.0), from.0.max(to.0));
        let (y0, y1) = (from.1.min(to.1), from.1.max(to.1));
        self.fill(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
    }

    fn door(&mut self, d: Door) {
        if !self.doors.iter().any(|o| o.a == d.a && o.b == d.b) {
            self.doors.push(d);
        }
    }

    /// Whether a cell is floor; cells outside the plan are rock.
    pub fn is_floor(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as u32) < self.w
            && (y as u32) < self.h
            && self.floor[(y as u32 * self.w + x as u32) as usize]
    }

    /// Every wall: the grid edges between a floor cell and a rock cell, joined into the longest
    /// straight runs (rows first, then columns).
    pub fn walls(&self) -> Vec<Segment> {
        let mut out = Vec::new();
        for y in 0..=self.h {
            let mut start: Option<u32> = None;
            for x in 0..=self.w {
                let wall = x < self.w
                    && self.is_floor(i64::from(x), i64::from(y) - 1) != self.is_floor(i64::from(x), i64::from(y));
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
                let wall = y < self.h
                    && self.is_floor(i64::from(x) - 1, i64::from(y)) != self.is_floor(i64::from(x), i64::from(y));
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

    /// The players' view as SVG, `ppg` pixels per grid cell: rock, floor, a faint grid, walls,
    /// doors (a secret door is drawn as wall) and the room labels. User text is escaped.
    pub fn svg(&self, ppg: u32) -> String {
        self.svg_with(ppg, 0)
    }

    /// [`Plan::svg`] with `extra` blank columns on the right (room for notes on a tabletop).
    pub fn svg_with(&self, ppg: u32, extra: u32) -> String {
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n",
            (self.w + extra) * ppg,
            self.h * ppg,
            self.w + extra,
            self.h
        );
        if extra > 0 {
            s += &format!("<rect x=\"{}\" width=\"{extra}\" height=\"{}\" fill=\"#d9d4c8\"/>\n", self.w, self.h);
        }
        s += &format!("<rect width=\"{}\" height=\"{}\" fill=\"{ROCK}\"/>\n", self.w, self.h);
        // Floor: one rectangle per run of floor cells in a row.
        let mut d = String::new();
        for y in 0..self.h {
            let mut x = 0;
            while x < self.w {
                if self.is_floor(i64::from(x), i64::from(y)) {
                    let s0 = x;
                    while x < self.w && self.is_floor(i64::from(x), i64::from(y)) {
                        x += 1;
                    }
                    d += &format!("M{s0} {y}h{}v1h-{}z", x - s0, x - s0);
                } else {
                    x += 1;
                }
            }
        }
        s += &format!("<path fill=\"{FLOOR}\" d=\"{d}\"/>\n");
        let mut g = String::new();
        for x in 1..self.w + extra {
            g += &format!("M{x} 0V{}", self.h);
        }
        for y in 1..self.h {
            g += &format!("M0 {y}H{}", self.w + extra);
        }
        s += &format!(
            "<path fill=\"none\" stroke=\"#000000\" stroke-opacity=\"0.15\" stroke-width=\"0.03\" d=\"{g}\"/>\n"
        );
        let mut wd = String::new();
        for w in self.walls() {
            wd += &format!("M{} {}L{} {}", w.a.0, w.a.1, w.b.0, w.b.1);
        }
        for door in self.doors.iter().filter(|d| d.secret) {
            wd += &format!("M{} {}L{} {}", door.a.0, door.a.1, door.b.0, door.b.1);
        }
        s += &format!(
            "<path fill=\"none\" stroke=\"{WALL}\" stroke-width=\"0.16\" stroke-linecap=\"square\" d=\"{wd}\"/>\n"
        );
        for door in self.doors.iter().filter(|d| !d.secret) {
            let (x0, y0) = (door.a.0.min(door.b.0), door.a.1.min(door.b.1));
            let (x1, y1) = (door.a.0.max(door.b.0), door.a.1.max(door.b.1));
            let (x, y, w, h) = if y0 == y1 {
                (f64::from(x0) + 0.1, f64::from(y0) - 0.14, f64::from(x1 - x0) - 0.2, 0.28)
            } else {
                (f64::from(x0) - 0.14, f64::from(y0) + 0.1, 0.28, f64::from(y1 - y0) - 0.2)
            };
            s += &format!(
                "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{DOOR}\" stroke=\"{WALL}\" stroke-width=\"0.05\"/>\n"
            );
        }
        for r in &self.rooms {
            s += &format!(
                "<text x=\"{:.2}\" y=\"{:.2}\" font-family=\"DejaVu Sans\" font-weight=\"bold\" font-size=\"0.8\" fill=\"#6b645a\">{}</text>\n",
                f64::from(r.x) + 0.35,
                f64::from(r.y) + 1.05,
                escape(&r.label)
            );
        }
        s += "</svg>\n";
        s
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

use crate::render::svgkit::xml_escape as escape;

// ---------------------------------------------------------------------------------------------
// MYK: one plan per map sheet.

const ROOM: u32 = 8;
const GAP: u32 = 4;
const EDGE: u32 = 3;
const WIDE: u32 = 2;

fn origin(r: RoomId) -> Pt {
    (EDGE + u32::from(r.col()) * (ROOM + GAP), EDGE + u32::from(r.row()) * (ROOM + GAP))
}

/// The plan of one MYK map: used rooms, corridors (a door at both ends, secret where a room trap
/// hides the corridor) and entrances (a corridor to the edge of the plan, a door at the room).
pub fn myk_plan(map: &Map) -> Plan {
    let side = 2 * EDGE + 3 * ROOM + 2 * GAP;
    let mut p = Plan::new(side, side);
    let touched =
        |id: RoomId| map.corridors.iter().any(|k| k.id().touches(id)) || map.entrances.iter().any(|e| e.room == id);
    for room in map.rooms.iter().filter(|r| r.used || touched(r.id)) {
        let (x, y) = origin(room.id);
        p.fill(x, y, ROOM, ROOM);
        p.rooms.push(PlanRoom { label: room.id.to_string(), key: room.id.to_string(), x, y, w: ROOM, h: ROOM });
    }
    let mid = ROOM / 2 - WIDE / 2;
    let mut corridors: Vec<CorridorId> = map.corridors.iter().map(|k| k.id()).collect();
    corridors.sort();
    for id in corridors {
        let secret = map.rooms.iter().flat_map(|r| &r.traps).any(|t| t.corridor == Some(id));
        let (ax, ay) = origin(id.0);
        let (bx, by) = origin(id.1);
        if id.0.row() == id.1.row() {
            let (x0, y0) = (ax.min(bx) + ROOM, ay + mid);
            p.fill(x0, y0, GAP, WIDE);
            p.door(Door { a: (x0, y0), b: (x0, y0 + WIDE), secret });
            p.door(Door { a: (x0 + GAP, y0), b: (x0 + GAP, y0 + WIDE), secret });
        } else {
            let (x0, y0) = (ax + mid, ay.min(by) + ROOM);
            p.fill(x0, y0, WIDE, GAP);
            p.door(Door { a: (x0, y0), b: (x0 + WIDE, y0), secret });
            p.door(Door { a: (x0, y0 + GAP), b: (x0 + WIDE, y0 + GAP), secret });
        }
    }
    for e in &map.entrances {
        let (x, y) = origin(e.room);
        match e.wall {
            Wall::North => {
                p.fill(x + mid, y - EDGE, WIDE, EDGE);
                p.door(Door { a: (x + mid, y), b: (x + mid + WIDE, y), secret: false });
            }
            Wall::South => {
                p.fill(x + mid, y + ROOM, WIDE, EDGE);
                p.door(Door { a: (x + mid, y + ROOM), b: (x + mid + WIDE, y + ROOM), secret: false });
            }
            Wall::West => {
                p.fill(x - EDGE, y + mid, EDGE, WIDE);
                p.door(Door { a: (x, y + mid), b: (x, y + mid + WIDE), secret: false });
            }
            Wall::East => {
                p.fill(x + ROOM, y + mid, EDGE, WIDE);
                p.door(Door { a: (x + ROOM, y + mid), b: (x + ROOM, y + mid + WIDE), secret: false });
            }
        }
    }
    p
}

// ---------------------------------------------------------------------------------------------
// NW3: one plan per fortress.

const AREA: u32 = 5;
/// Cells per layout unit across (areas in a layer are two units apart): three free columns
/// between any two areas, the middle one a corridor lane.
const UNIT: u32 = AREA + 3;
/// Cells per layer down: the area and a gap of seven rows with three corridor lanes.
const LAYER: u32 = 12;
const RIM: u32 = 1;

/// The plan of a fortress: every area where the area map's layout puts it, every gate a corridor
/// with a door at both areas (secret for a secret gate).
pub fn fortress_plan(f: &Fortress) -> Plan {
    let lay = crate::nw3::layout::layout(f);
    let max_x = lay.nodes.iter().map(|n| n.x).max().unwrap_or(0);
    let mut p = Plan::new(2 * RIM + UNIT * max_x + AREA, 2 * RIM + LAYER * lay.layers.max(1));
    let at = |id: u32| lay.get(id).map(|n| (RIM + UNIT * n.x, RIM + LAYER * (n.y / 2), n.y / 2));
    for a in &f.areas {
        if let Some((x, y, _)) = at(a.id) {
            p.fill(x, y, AREA, AREA);
            p.rooms.push(PlanRoom { label: a.id.to_string(), key: a.id.to_string(), x, y, w: AREA, h: AREA });
        }
    }
    // Ports on each area's top and bottom side: the middle first, then the corners, then between.
    let mut ports: Vec<(u32, bool, u32)> = Vec::new();
    let mut port = |id: u32, bottom: bool, x: u32| -> u32 {
        let n = ports.iter().filter(|(i, b, _)| *i == id && *b == bottom).count();
        ports.push((id, bottom, x));
        x + [2, 0, 4, 1, 3][n % 5]
    };
    let mut lanes: Vec<u32> = Vec::new();
    let mut lane = |layer: u32| -> u32 {
        let n = lanes.iter().filter(|l| **l == layer).count() as u32;
        lanes.push(layer);
        RIM + LAYER * layer + AREA + 1 + 2 * (n % 3)
    };
    for g in &f.gates {
        let (Some(ga), Some(gb)) = (at(g.from), at(g.to)) else { continue };
        if g.from == g.to {
            continue;
        }
        // `a` is the upper area (or the left one in the same layer).
        let ((ida, a), (idb, b)) =
            if (ga.2, ga.0) <= (gb.2, gb.0) { ((g.from, ga), (g.to, gb)) } else { ((g.to, gb), (g.from, ga)) };
        let secret = g.kind == GateKind::Secret;
        let xa = port(ida, true, a.0);
        let out = a.1 + AREA;
        p.door(Door { a: (xa, out), b: (xa + 1, out), secret });
        let l1 = lane(a.2);
        p.run((xa, out), (xa, l1));
        if b.2 == a.2 {
            let xb = port(idb, true, b.0);
            p.run((xa, l1), (xb, l1));
            p.run((xb, l1), (xb, b.1 + AREA));
            p.door(Door { a: (xb, b.1 + AREA), b: (xb + 1, b.1 + AREA), secret });
            continue;
        }
        let xb = port(idb, false, b.0);
        let last = if b.2 == a.2 + 1 {
            p.run((xa, l1), (xb, l1));
            l1
        } else {
            // Down the free column beside `b`, to a lane in the gap just above it.
            let c = b.0 + AREA + 1;
            let l2 = lane(b.2 - 1);
            p.run((xa, l1), (c, l1));
            p.run((c, l1), (c, l2));
            p.run((c, l2), (xb, l2));
            l2
        };
        p.run((xb, last), (xb, b.1 - 1));
        p.door(Door { a: (xb, b.1), b: (xb + 1, b.1), secret });
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::myk::{MykParams, generate};
    use crate::tables::Tables;

    #[test]
    fn every_myk_door_sits_in_a_gap_of_the_walls_between_floor_cells() {
        let t = Tables::embedded().unwrap();
        for seed in 0..30 {
            let s = generate(
                &t,
                &MykParams { levels: vec![2; 4], maps: 2, rooms: 7, layout: crate::myk::model::Layout::Mixed },
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
