//! Corridor routing and compaction on the plan's grid, for the fortress plan.
//!
//! Every cell has an owner: rock (0), an area, or one corridor. A corridor is a 4-connected path
//! of cells found by A* (a step costs 2, a turn 1 more, so corridors run straight) under one
//! rule that makes the map truthful by construction: **a corridor cell touches, even diagonally,
//! nothing but rock and its own corridor**, except its first cell, which may touch its own
//! starting area (and meets it across one edge: the door), and its last cell, likewise its
//! goal area. So two corridors never share or touch floor, a corridor never grazes a third area,
//! and it opens onto each of its two areas through exactly one door. Corridors that cannot be
//! routed this way (a graph that cannot be drawn without crossings, or areas walled in by
//! earlier corridors) are not forced through another's floor: the caller retries on a roomier
//! grid and, last, gives such a gate a *stub* at each end — a one-cell alcove behind the door,
//! labelled with the area it leads to, where the GM moves the tokens across (as VTT stairs).
//! Nothing here is a general graph-drawing library: no crate routes orthogonal corridors with a
//! clearance on an occupancy grid, and the search is forty lines.
//!
//! Compaction then deletes every row that holds no area cell and where each corridor only runs
//! straight across (from the row above to the row below), when the rows on either side of it
//! would not bring two owners' floor together, even diagonally; and the same for columns, again
//! until nothing more goes. So every adjacency survives exactly, areas keep their size, and
//! the empty rock between lanes goes. Both routers (this one and [`super::channel`]) share it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A rectangle of cells: x, y, w, h.
pub type Rect = (u32, u32, u32, u32);

/// The occupancy grid.
#[derive(Clone, Debug)]
pub struct Grid {
    pub w: u32,
    pub h: u32,
    pub owner: Vec<u32>,
    /// Each area's rectangle; area `i` is owner `i + 1`.
    pub areas: Vec<Rect>,
    /// Floor cells in each cell's 3x3 neighbourhood: 0 where a corridor may pass.
    near: Vec<u16>,
}

const DIRS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

impl Grid {
    pub fn new(w: u32, h: u32, areas: Vec<Rect>) -> Grid {
        let mut g = Grid { w, h, owner: vec![0; (w * h) as usize], areas, near: vec![0; (w * h) as usize] };
        for (i, &(x, y, aw, ah)) in g.areas.clone().iter().enumerate() {
            let cells: Vec<usize> =
                (y..y + ah).flat_map(|yy| (x..x + aw).map(move |xx| (xx, yy))).map(|(xx, yy)| g.at(xx, yy)).collect();
            g.claim(&cells, i as u32 + 1);
        }
        g
    }

    /// Whether a corridor may pass through `c`: rock inside the rim with only rock around it.
    fn free(&self, c: usize) -> bool {
        let (x, y) = self.xy(c);
        self.near[c] == 0 && x >= 1 && y >= 1 && x + 1 < self.w && y + 1 < self.h
    }

    pub fn at(&self, x: u32, y: u32) -> usize {
        (y * self.w + x) as usize
    }

    fn xy(&self, c: usize) -> (u32, u32) {
        (c as u32 % self.w, c as u32 / self.w)
    }

    /// The cell one step from `c` in direction `d`, if inside the grid's rock rim.
    fn step(&self, c: usize, d: (i64, i64)) -> Option<usize> {
        let (x, y) = self.xy(c);
        let (nx, ny) = (i64::from(x) + d.0, i64::from(y) + d.1);
        (nx >= 1 && ny >= 1 && nx < i64::from(self.w) - 1 && ny < i64::from(self.h) - 1)
            .then(|| self.at(nx as u32, ny as u32))
    }

    /// Rock, inside the rim, with only rock and the owners in `allow` among its 8 neighbours.
    fn clear(&self, c: usize, allow: &[u32]) -> bool {
        let (x, y) = self.xy(c);
        if self.owner[c] != 0 || x == 0 || y == 0 || x + 1 >= self.w || y + 1 >= self.h {
            return false;
        }
        (y - 1..=y + 1).all(|yy| {
            (x - 1..=x + 1).all(|xx| {
                let o = self.owner[self.at(xx, yy)];
                o == 0 || allow.contains(&o)
            })
        })
    }

    /// The neighbour of `c` (4-way) owned by `o`, as the direction from it to `c`.
    fn touches(&self, c: usize, o: u32) -> Option<usize> {
        (0..4).find(|&d| self.step_any(c, DIRS[d]).is_some_and(|n| self.owner[n] == o)).map(|d| (d + 2) % 4)
    }

    fn step_any(&self, c: usize, d: (i64, i64)) -> Option<usize> {
        let (x, y) = self.xy(c);
        let (nx, ny) = (i64::from(x) + d.0, i64::from(y) + d.1);
        (nx >= 0 && ny >= 0 && nx < i64::from(self.w) && ny < i64::from(self.h)).then(|| self.at(nx as u32, ny as u32))
    }

    /// The cells where a corridor may meet area `a` (owner), each with its outward direction;
    /// `also` may be touched as well (the other end, for a one-cell corridor).
    pub fn doorsteps(&self, a: u32, also: &[u32]) -> Vec<(usize, usize)> {
        let (x, y, w, h) = self.areas[a as usize - 1];
        let mut allow = vec![a];
        allow.extend_from_slice(also);
        let mut ring = Vec::new();
        for xx in x..x + w {
            ring.push((xx, y.wrapping_sub(1)));
            ring.push((xx, y + h));
        }
        for yy in y..y + h {
            ring.push((x.wrapping_sub(1), yy));
            ring.push((x + w, yy));
        }
        ring.into_iter()
            .filter(|&(cx, cy)| cx < self.w && cy < self.h)
            .map(|(cx, cy)| self.at(cx, cy))
            .filter(|&c| self.clear(c, &allow))
            .filter_map(|c| self.touches(c, a).map(|d| (c, d)))
            .collect()
    }

    /// The shortest corridor (fewest steps, then fewest turns) from area `a` to area `b`, first
    /// cell at `a`, last at `b`, by the clearance rule in the module doc.
    pub fn route(&self, a: u32, b: u32) -> Option<Vec<usize>> {
        let (bx, by, bw, bh) = self.areas[b as usize - 1];
        // Only the ring around `b` may hold a goal: the cheap test first.
        let goal = |c: usize| {
            let (x, y) = self.xy(c);
            x + 1 >= bx
                && x <= bx + bw
                && y + 1 >= by
                && y <= by + bh
                && self.clear(c, &[b])
                && self.touches(c, b).is_some()
        };
        let h = |c: usize| {
            let (x, y) = self.xy(c);
            let dx = if x + 1 < bx { bx - 1 - x } else { x.saturating_sub(bx + bw) };
            let dy = if y + 1 < by { by - 1 - y } else { y.saturating_sub(by + bh) };
            2 * (dx + dy)
        };
        let n = self.owner.len() * 4;
        let mut best = vec![u32::MAX; n];
        let mut from = vec![u32::MAX; n];
        let mut heap = BinaryHeap::new();
        for (c, d) in self.doorsteps(a, &[b]) {
            if self.touches(c, b).is_some() {
                return Some(vec![c]);
            }
            let s = c * 4 + d;
            best[s] = 0;
            heap.push(Reverse((h(c), 0u32, s)));
        }
        while let Some(Reverse((_, g, s))) = heap.pop() {
            if g > best[s] {
                continue;
            }
            let (c, d) = (s / 4, s % 4);
            if goal(c) {
                let mut path = vec![c];
                let mut at = s;
                while from[at] != u32::MAX {
                    at = from[at] as usize;
                    path.push(at / 4);
                }
                path.reverse();
                return Some(path);
            }
            for (nd, dir) in DIRS.iter().enumerate() {
                let Some(nc) = self.step(c, *dir) else { continue };
                if !(self.free(nc) || goal(nc)) {
                    continue;
                }
                let ng = g + 2 + u32::from(nd != d);
                let ns = nc * 4 + nd;
                if ng < best[ns] {
                    best[ns] = ng;
                    from[ns] = s as u32;
                    heap.push(Reverse((ng + h(nc), ng, ns)));
                }
            }
        }
        None
    }

    /// Marks `cells` as owned by `o`.
    pub fn claim(&mut self, cells: &[usize], o: u32) {
        for &c in cells {
            if self.owner[c] == 0 {
                let (x, y) = self.xy(c);
                for yy in y.saturating_sub(1)..=(y + 1).min(self.h - 1) {
                    for xx in x.saturating_sub(1)..=(x + 1).min(self.w - 1) {
                        let at = self.at(xx, yy);
                        self.near[at] += 1;
                    }
                }
            }
            self.owner[c] = o;
        }
    }

    /// The area cell across the door of corridor cell `c` into area `a`.
    pub fn door_of(&self, c: usize, a: u32) -> Option<usize> {
        let d = self.touches(c, a)?;
        self.step_any(c, DIRS[(d + 2) % 4])
    }

    pub fn cell_xy(&self, c: usize) -> (u32, u32) {
        self.xy(c)
    }

    /// Whether corridor `cells` (owner `o`, from area `ends[0]` to area `ends[1]`) keeps the
    /// clearance rule: every cell inside the rim touches only rock and `o`, the first cell
    /// also its own first area, across an edge, and the last its second.
    pub fn keeps_clear(&self, cells: &[usize], o: u32, ends: [u32; 2]) -> bool {
        let last = cells.len().saturating_sub(1);
        let met = |c: Option<&usize>, a: u32| c.is_some_and(|&c| self.touches(c, a).is_some());
        met(cells.first(), ends[0])
            && met(cells.last(), ends[1])
            && cells.iter().enumerate().all(|(i, &c)| {
                let (x, y) = self.xy(c);
                let mut allow = vec![0, o];
                if i == 0 {
                    allow.push(ends[0]);
                }
                if i == last {
                    allow.push(ends[1]);
                }
                x >= 1
                    && y >= 1
                    && x + 1 < self.w
                    && y + 1 < self.h
                    && (y - 1..=y + 1).all(|yy| (x - 1..=x + 1).all(|xx| allow.contains(&self.owner[self.at(xx, yy)])))
            })
    }

    fn is_area(&self, o: u32) -> bool {
        o != 0 && o as usize <= self.areas.len()
    }

    /// Whether row `y` can go with row `up` (the nearest kept row above) and row `y + 1` then
    /// meeting: it holds no area cell, each of its corridor cells has its own corridor right
    /// above and below (a vertical run, which only gets shorter), and no floor of `up` would
    /// touch another owner's floor in `y + 1`, even diagonally.
    fn row_can_go(&self, up: u32, y: u32) -> bool {
        let o = |x: u32, y: u32| self.owner[self.at(x, y)];
        let passes = (0..self.w).all(|x| {
            let c = o(x, y);
            c == 0 || (!self.is_area(c) && o(x, up) == c && o(x, y + 1) == c)
        });
        passes
            && (0..self.w).all(|x| {
                let a = o(x, up);
                a == 0
                    || (x.saturating_sub(1)..=(x + 1).min(self.w - 1)).all(|xx| {
                        let b = o(xx, y + 1);
                        b == 0 || b == a
                    })
            })
    }

    /// The row index each old row maps to after deleting, top to bottom, every row that can go
    /// ([`Grid::row_can_go`]; the first and last rows stay as the rim), and the new height. A
    /// deleted row maps to the kept row above it.
    fn rows_kept(&self) -> (Vec<u32>, u32) {
        let mut map = Vec::with_capacity(self.h as usize);
        let (mut n, mut up) = (0, 0);
        for y in 0..self.h {
            if y == 0 || y + 1 == self.h || !self.row_can_go(up, y) {
                n += 1;
                up = y;
            }
            map.push(n - 1);
        }
        (map, n)
    }

    fn transpose(&self) -> Grid {
        let mut owner = vec![0; self.owner.len()];
        for y in 0..self.h {
            for x in 0..self.w {
                owner[(x * self.h + y) as usize] = self.owner[self.at(x, y)];
            }
        }
        let near = vec![0; owner.len()];
        Grid { w: self.h, h: self.w, owner, areas: self.areas.iter().map(|&(x, y, w, h)| (y, x, h, w)).collect(), near }
    }

    /// The grid with only the kept rows of `map` (each kept row is the first mapped to its index).
    fn drop_rows(&self, map: &[u32], n: u32) -> Grid {
        let mut owner = vec![0; (self.w * n) as usize];
        for y in 0..self.h {
            if y > 0 && map[y as usize] == map[y as usize - 1] {
                continue;
            }
            for x in 0..self.w {
                owner[(map[y as usize] * self.w + x) as usize] = self.owner[self.at(x, y)];
            }
        }
        let areas = self.areas.iter().map(|&(x, y, w, h)| (x, map[y as usize], w, h)).collect();
        let near = vec![0; owner.len()];
        Grid { w: self.w, h: n, owner, areas, near }
    }

    /// The grid with every row and column that can go deleted (rows, then columns, again until
    /// nothing more goes: a shorter corridor can free a line across), and where each old cell
    /// went.
    pub fn compact(&self) -> (Grid, impl Fn(usize) -> usize + use<>) {
        let mut rows: Vec<u32> = (0..self.h).collect();
        let mut cols: Vec<u32> = (0..self.w).collect();
        let mut g = self.clone();
        loop {
            let (map, nh) = g.rows_kept();
            let down = g.drop_rows(&map, nh).transpose();
            let (cmap, nw) = down.rows_kept();
            let next = down.drop_rows(&cmap, nw).transpose();
            rows.iter_mut().for_each(|r| *r = map[*r as usize]);
            cols.iter_mut().for_each(|c| *c = cmap[*c as usize]);
            let done = next.w == g.w && next.h == g.h;
            g = next;
            if done {
                break;
            }
        }
        let (w, nw) = (self.w, g.w);
        let cell = move |c: usize| {
            let (x, y) = (c as u32 % w, c as u32 / w);
            (rows[y as usize] * nw + cols[x as usize]) as usize
        };
        (g, cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corridor_keeps_clear_of_other_corridors_and_areas() {
        // Three areas in a row; 1-3 must go around 2 without touching it or the 1-2 corridor.
        let mut g = Grid::new(40, 20, vec![(2, 8, 5, 5), (17, 8, 5, 5), (32, 8, 5, 5)]);
        let p12 = g.route(1, 2).expect("1-2 routes");
        g.claim(&p12, 4);
        let p13 = g.route(1, 3).expect("1-3 routes around");
        for &c in &p13[1..p13.len() - 1] {
            assert!(g.clear(c, &[]), "{:?} touches something", g.cell_xy(c));
        }
    }

    #[test]
    fn compaction_keeps_every_adjacency() {
        let mut g = Grid::new(50, 30, vec![(3, 3, 5, 5), (40, 20, 5, 5)]);
        let p = g.route(1, 2).unwrap();
        g.claim(&p, 3);
        let (c, cell) = g.compact();
        assert!(c.w < g.w && c.h < g.h, "{}x{}", c.w, c.h);
        assert_eq!(c.areas[0].2, 5);
        // The corridor still touches both areas and nothing else.
        let q: Vec<usize> = p.iter().map(|&x| cell(x)).collect();
        assert!(c.touches(q[0], 1).is_some() && c.touches(*q.last().unwrap(), 2).is_some());
        assert!(c.owner.iter().filter(|&&o| o == 3).count() <= p.len());
    }
}
