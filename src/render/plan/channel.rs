//! Channel routing for a fortress the area map draws clean: every gate joins neighbouring layers
//! and no two gates cross (every generated fortress, and any hand-edited one of that shape).
//!
//! The areas stand in rows, one per layer, in the layout's order; between two rows runs a
//! *channel*, and each gate between them is a corridor of three straight pieces: down from a door
//! on the upper area's bottom wall to a *track* (a row of the channel), along the track, and down
//! to a door on the lower area's top wall. Because the gates do not cross, their doors come in the
//! same order along both rows, and the corridors can be nested like the banks of a river ("river
//! routing"): a pair of corridors that would touch on one track gets two, the one that must turn
//! first above. The tracks are a longest path over those above/below constraints, two rows
//! apart, so a channel is as low as its corridors allow: one row when every corridor runs
//! straight down.
//!
//! No A* search, no retries, no stubs: the result follows the area map's drawing, one
//! corridor per gate, the shortest way. The corridors keep [`super::route`]'s clearance rule
//! (each touches only rock and itself, and its two areas at its doors); the grid is checked for
//! it before use, and a layout that breaks it (it does not happen for a clean drawing; the test
//! says so) falls back to the general router. An area with more doors on one wall than fit two
//! cells apart is made wider.
//!
//! Written here because no crate routes orthogonal corridors in channels with a clearance; the
//! algorithm is the textbook one for planar two-row nets.

use super::route::{Grid, Rect};

/// A corridor: its cells from the upper area's door to the lower area's, its owner on the grid,
/// its areas (upper, lower) and whether it is secret.
pub type Corridor = (Vec<usize>, u32, [u32; 2], bool);

/// One gate in a channel: top door column `a`, bottom door column `b`, and its track.
#[derive(Clone, Copy, Debug)]
struct Net {
    gate: usize,
    a: u32,
    b: u32,
    track: u32,
}

impl Net {
    fn straight(&self) -> bool {
        self.a == self.b
    }

    /// The net's cells in a channel of `bottom + 1` rows (row 0 below the upper area, row
    /// `bottom` above the lower), its horizontal piece on `row`.
    fn cells(&self, row: u32, bottom: u32) -> Vec<(u32, u32)> {
        if self.straight() {
            return (0..=bottom).map(|y| (self.a, y)).collect();
        }
        let mut out: Vec<(u32, u32)> = (0..row).map(|y| (self.a, y)).collect();
        let step: i64 = if self.b > self.a { 1 } else { -1 };
        let mut x = i64::from(self.a);
        loop {
            out.push((x as u32, row));
            if x == i64::from(self.b) {
                break;
            }
            x += step;
        }
        out.extend((row + 1..=bottom).map(|y| (self.b, y)));
        out
    }
}

/// Whether two cell sets come within one cell of each other (diagonals included).
fn touch(p: &[(u32, u32)], q: &[(u32, u32)]) -> bool {
    p.iter().any(|&(x, y)| q.iter().any(|&(u, v)| x.abs_diff(u) <= 1 && y.abs_diff(v) <= 1))
}

/// Tracks for the nets of one channel, and how many there are, or `None` when two cannot be
/// kept apart. A straight net needs no track; `p` above `q` is tested with `p` on row 1 and `q` on
/// row 3 (what any greater distance adds is more of the same columns), sharing a track on row 1.
fn assign_tracks(nets: &mut [Net]) -> Option<u32> {
    let n = nets.len();
    // (i, j): i's track strictly above j's.
    let mut above: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (p, q) = (nets[i], nets[j]);
            if p.straight() || q.straight() {
                // A straight corridor crosses every track: nothing may come near it on any.
                let clash = touch(&p.cells(1, 4), &q.cells(3, 4)) || touch(&p.cells(3, 4), &q.cells(1, 4));
                if clash {
                    return None;
                }
                continue;
            }
            let p_over = !touch(&p.cells(1, 4), &q.cells(3, 4));
            let q_over = !touch(&q.cells(1, 4), &p.cells(3, 4));
            let same = !touch(&p.cells(1, 2), &q.cells(1, 2));
            match (p_over, q_over, same) {
                (true, true, true) => {}
                (true, _, _) => above.push((i, j)),
                (false, true, _) => above.push((j, i)),
                (false, false, _) => return None,
            }
        }
    }
    // Longest path over the "above" edges; a cycle (no order keeps them apart) never settles.
    let mut track = vec![0u32; n];
    for _ in 0..=n {
        let mut changed = false;
        for &(i, j) in &above {
            if track[j] < track[i] + 1 {
                track[j] = track[i] + 1;
                changed = true;
            }
        }
        if !changed {
            for (net, t) in nets.iter_mut().zip(&track) {
                net.track = *t;
            }
            let tracks = nets.iter().filter(|x| !x.straight()).map(|x| x.track + 1).max().unwrap_or(0);
            return Some(tracks);
        }
    }
    None
}

/// Where one door of a gate goes: the `at`-th of `doors` along a wall of `area`, which runs
/// `width` cells from column `left`.
#[derive(Clone, Copy, Debug)]
struct Wall {
    area: u32,
    at: u32,
    doors: u32,
    left: u32,
    width: u32,
}

impl Wall {
    /// The door's column when the doors are spread along the wall.
    fn spread(&self) -> u32 {
        self.left + door_offset(self.at as usize, self.doors as usize, self.width)
    }

    /// The columns the door may take, two cells from the door before it (`after`) and leaving
    /// room, two cells apart, for the doors after it.
    fn range(&self, after: Option<u32>) -> (u32, u32) {
        let lo = (self.left + 2 * self.at).max(after.map_or(0, |x| x + 2));
        (lo, self.left + self.width - 1 - 2 * (self.doors - 1 - self.at))
    }
}

/// The nets of one channel from its gates' two walls each, in order along the channel: a gate
/// whose two walls overlap gets one column for both doors (a corridor straight down) where the
/// doors already placed leave one, else each door where it spreads, as near as they allow.
fn doors(walls: &[(usize, Wall, Wall)]) -> Vec<Net> {
    let mut order: Vec<&(usize, Wall, Wall)> = walls.iter().collect();
    order.sort_by_key(|(k, top, bottom)| (top.spread(), bottom.spread(), *k));
    // The last door placed on each wall, by area and side.
    let mut last: Vec<(u32, bool, u32)> = Vec::new();
    let mut nets = Vec::with_capacity(walls.len());
    for &&(gate, top, bottom) in &order {
        let prev = |area: u32, upper: bool| last.iter().rev().find(|e| e.0 == area && e.1 == upper).map(|e| e.2);
        let (tlo, thi) = top.range(prev(top.area, true));
        let (blo, bhi) = bottom.range(prev(bottom.area, false));
        let (lo, hi) = (tlo.max(blo), thi.min(bhi));
        let (a, b) = if lo <= hi {
            let x = ((top.spread() + bottom.spread()) / 2).clamp(lo, hi);
            (x, x)
        } else {
            (top.spread().clamp(tlo, thi.max(tlo)), bottom.spread().clamp(blo, bhi.max(blo)))
        };
        last.push((top.area, true, a));
        last.push((bottom.area, false, b));
        nets.push(Net { gate, a, b, track: 0 });
    }
    nets
}

/// Door columns along one wall of `k` doors, `w` cells wide: spread out, two cells apart at least.
fn door_offset(i: usize, k: usize, w: u32) -> u32 {
    ((2 * i as u64 + 1) * u64::from(w) / (2 * k as u64)) as u32
}

/// Rock between two areas of a row, in cells.
const GAP: f64 = 1.0;

/// Each area's left column (index 1 up; 0 unused): the rows keep the layout's order, and each
/// area stands as near as the others allow to a point most of the way from its place in the
/// layout to the mean of its neighbours in the row above, then in the row below, in turn (a few
/// sweeps), so that most corridors run straight down or nearly. Positions are least-squares under the order and the spacing, found by pooling neighbours
/// that push one another (isotonic regression); integers at the end, pushed apart where
/// rounding brought two too close.
fn columns(placed: &[(u32, u32, u32)], ends: &[(u32, u32)], widths: &[u32]) -> Vec<u32> {
    let n = placed.len();
    let layers = placed.iter().map(|p| p.1).max().map_or(0, |l| l as usize + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (i, p) in placed.iter().enumerate() {
        rows[p.1 as usize].push(i + 1);
    }
    for row in &mut rows {
        row.sort_by_key(|&i| (placed[i - 1].2, i));
    }
    let w = |i: usize| f64::from(widths[i]);
    // Centres start at the layout's own positions (its units are half a slot; a slot is the
    // widest area and the gap).
    let widest = widths.iter().copied().max().unwrap_or(0);
    let half = f64::from(widest) / 2.0 + GAP / 2.0;
    let mut centre: Vec<f64> = (0..=n).map(|i| if i == 0 { 0.0 } else { f64::from(placed[i - 1].2) * half }).collect();
    for sweep in 0..SWEEPS {
        let down = sweep % 2 == 0;
        let order: Vec<usize> =
            if down { (1..layers).collect() } else { (0..layers.saturating_sub(1)).rev().collect() };
        for l in order {
            let want: Vec<f64> = rows[l]
                .iter()
                .map(|&i| {
                    let near: Vec<f64> = ends
                        .iter()
                        .filter_map(|&(u, v)| match (down, u as usize == i, v as usize == i) {
                            (true, _, true) => Some(centre[u as usize]),
                            (false, true, _) => Some(centre[v as usize]),
                            _ => None,
                        })
                        .collect();
                    let home = f64::from(placed[i - 1].2) * half;
                    if near.is_empty() {
                        centre[i]
                    } else {
                        PULL * near.iter().sum::<f64>() / near.len() as f64 + (1.0 - PULL) * home
                    }
                })
                .collect();
            let gaps: Vec<f64> = rows[l].windows(2).map(|p| (w(p[0]) + w(p[1])) / 2.0 + GAP).collect();
            for (&i, x) in rows[l].iter().zip(spaced(&want, &gaps)) {
                centre[i] = x;
            }
        }
    }
    let mut left = vec![0i64; n + 1];
    for row in &rows {
        let mut next = i64::MIN;
        for &i in row {
            left[i] = ((centre[i] - w(i) / 2.0).round() as i64).max(next);
            next = left[i] + i64::from(widths[i]) + GAP as i64;
        }
    }
    let min = left[1..].iter().copied().min().unwrap_or(1);
    left.iter().enumerate().map(|(i, &x)| if i == 0 { 0 } else { (x - min + 1) as u32 }).collect()
}

/// How far an area moves towards its neighbours' mean from its place in the layout's centred
/// rows: all the way straightens the most corridors but lets a long chain drift sideways and
/// widen the picture; 0.7 gave the smallest pictures (`examples/plan_sizes`, seeds 1-20 at 20,
/// 30 and 40 areas).
const PULL: f64 = 0.7;

/// Sweeps of [`columns`]: down, up, down, up.
const SWEEPS: usize = 4;

/// The positions nearest `want` (least squares) that keep `gaps[i]` between positions `i` and
/// `i + 1`: shifted by the running gaps, it is an isotonic regression, solved by pooling
/// adjacent violators.
fn spaced(want: &[f64], gaps: &[f64]) -> Vec<f64> {
    let mut shift = vec![0.0; want.len()];
    for (i, g) in gaps.iter().enumerate() {
        shift[i + 1] = shift[i] + g;
    }
    // Blocks of (mean, count), non-decreasing means.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for (x, s) in want.iter().zip(&shift) {
        blocks.push((x - s, 1));
        while blocks.len() > 1 && blocks[blocks.len() - 2].0 > blocks[blocks.len() - 1].0 {
            let (m2, c2) = blocks.pop().unwrap_or((0.0, 0));
            let (m1, c1) = blocks.pop().unwrap_or((0.0, 0));
            let c = c1 + c2;
            blocks.push(((m1 * c1 as f64 + m2 * c2 as f64) / c as f64, c));
        }
    }
    blocks.iter().flat_map(|&(m, c)| std::iter::repeat_n(m, c)).zip(&shift).map(|(m, s)| m + s).collect()
}

/// The gates as (upper, lower) areas, and each area's gates below and above it, in the order of
/// their far ends along the next row: the order of the doors along its walls.
struct Ends {
    ends: Vec<(u32, u32)>,
    below: Vec<Vec<usize>>,
    above: Vec<Vec<usize>>,
}

impl Ends {
    /// `None` when a gate does not join neighbouring layers.
    fn of(placed: &[(u32, u32, u32)], gates: &[(u32, u32, bool)]) -> Option<Ends> {
        let layer = |i: u32| placed[i as usize - 1].1;
        let half_x = |i: u32| placed[i as usize - 1].2;
        let mut ends = Vec::with_capacity(gates.len());
        for &(a, b, _) in gates {
            let (u, v) = if layer(a) < layer(b) { (a, b) } else { (b, a) };
            if layer(v) != layer(u) + 1 {
                return None;
            }
            ends.push((u, v));
        }
        let mut below: Vec<Vec<usize>> = vec![Vec::new(); placed.len() + 1];
        let mut above: Vec<Vec<usize>> = vec![Vec::new(); placed.len() + 1];
        for (k, &(u, v)) in ends.iter().enumerate() {
            below[u as usize].push(k);
            above[v as usize].push(k);
        }
        for list in below.iter_mut() {
            list.sort_by_key(|&k| (half_x(ends[k].1), ends[k].1, k));
        }
        for list in above.iter_mut() {
            list.sort_by_key(|&k| (half_x(ends[k].0), ends[k].0, k));
        }
        Some(Ends { ends, below, above })
    }

    /// Each area's width (index 1 up): `side`, or two cells a door on its busier wall.
    fn widths(&self, side: u32) -> Vec<u32> {
        let doors = |i: usize| self.below[i].len().max(self.above[i].len()) as u32;
        (0..self.below.len()).map(|i| if i == 0 { 0 } else { side.max(2 * doors(i)) }).collect()
    }

    /// Gate `k`'s door on its upper area's bottom wall (`upper`) or its lower area's top wall.
    fn wall(&self, k: usize, upper: bool, lefts: &[u32], widths: &[u32]) -> Wall {
        let (area, list) = if upper { (self.ends[k].0, &self.below) } else { (self.ends[k].1, &self.above) };
        let list = &list[area as usize];
        let at = list.iter().position(|&g| g == k).unwrap_or(0) as u32;
        Wall { area, at, doors: list.len() as u32, left: lefts[area as usize], width: widths[area as usize] }
    }
}

/// The grid and corridors of a clean layout: `placed` (id, layer, x in the layout's half units),
/// `gates` (1-based indices into `placed`, secret), areas `side` cells square (wider where doors
/// need room). `None` when a gate does not join neighbouring layers or corridors cannot be kept
/// apart.
pub fn route(placed: &[(u32, u32, u32)], gates: &[(u32, u32, bool)], side: u32) -> Option<(Grid, Vec<Corridor>)> {
    let ends = Ends::of(placed, gates)?;
    let widths = ends.widths(side);
    let lefts = columns(placed, &ends.ends, &widths);
    // The channels, top to bottom: their nets and tracks.
    let layers = placed.iter().map(|p| p.1).max().map_or(0, |l| l + 1);
    let mut channels: Vec<(Vec<Net>, u32)> = Vec::with_capacity(layers as usize);
    for l in 0..layers {
        let walls: Vec<(usize, Wall, Wall)> = (0..ends.ends.len())
            .filter(|&k| placed[ends.ends[k].0 as usize - 1].1 == l)
            .map(|k| (k, ends.wall(k, true, &lefts, &widths), ends.wall(k, false, &lefts, &widths)))
            .collect();
        let mut nets = doors(&walls);
        let tracks = assign_tracks(&mut nets)?;
        channels.push((nets, tracks));
    }
    let (grid, corridors) = dig(placed, gates, &ends.ends, &channels, (&lefts, &widths, side));
    corridors.iter().all(|c| grid.keeps_clear(&c.0, c.1, c.2)).then_some((grid, corridors))
}

/// The grid: each layer's areas (`lefts`, `widths`, `side` high) in a row, then its channel (two
/// rows a track and one more), and every net dug as a corridor, owner `areas + 1 + gate`.
fn dig(
    placed: &[(u32, u32, u32)],
    gates: &[(u32, u32, bool)],
    ends: &[(u32, u32)],
    channels: &[(Vec<Net>, u32)],
    (lefts, widths, side): (&[u32], &[u32], u32),
) -> (Grid, Vec<Corridor>) {
    let n = placed.len();
    let mut top = Vec::with_capacity(channels.len());
    let mut y = 1;
    for (_, tracks) in channels {
        top.push(y);
        y += side + 2 * tracks + 1;
    }
    let w = (1..=n).map(|i| lefts[i] + widths[i]).max().unwrap_or(side) + 1;
    let areas: Vec<Rect> = (1..=n).map(|i| (lefts[i], top[placed[i - 1].1 as usize], widths[i], side)).collect();
    let mut grid = Grid::new(w, y, areas);
    let mut corridors = Vec::with_capacity(ends.len());
    for ((nets, tracks), y0) in channels.iter().zip(&top) {
        for net in nets {
            let cells: Vec<usize> = net
                .cells(1 + 2 * net.track, 2 * tracks)
                .into_iter()
                .map(|(x, dy)| grid.at(x, y0 + side + dy))
                .collect();
            let owner = n as u32 + 1 + net.gate as u32;
            grid.claim(&cells, owner);
            let (u, v) = ends[net.gate];
            corridors.push((cells, owner, [u, v], gates[net.gate].2));
        }
    }
    corridors.sort_by_key(|c| c.1);
    (grid, corridors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nets_that_would_touch_on_one_track_are_nested() {
        // Two corridors heading right from neighbouring doors: the one that turns later goes
        // below, so neither crosses the other.
        let mut nets = vec![Net { gate: 0, a: 2, b: 8, track: 0 }, Net { gate: 1, a: 4, b: 10, track: 0 }];
        assert_eq!(assign_tracks(&mut nets), Some(2));
        assert!(nets[1].track < nets[0].track);
        // Far apart, they share one.
        let mut apart = vec![Net { gate: 0, a: 2, b: 4, track: 0 }, Net { gate: 1, a: 10, b: 12, track: 0 }];
        assert_eq!(assign_tracks(&mut apart), Some(1));
        // Straight down: no track at all.
        let mut straight = vec![Net { gate: 0, a: 2, b: 2, track: 0 }];
        assert_eq!(assign_tracks(&mut straight), Some(0));
    }

    #[test]
    fn crossing_nets_are_refused() {
        let mut nets = vec![Net { gate: 0, a: 2, b: 10, track: 0 }, Net { gate: 1, a: 6, b: 6, track: 0 }];
        assert_eq!(assign_tracks(&mut nets), None);
    }

    #[test]
    fn doors_along_a_wall_stand_two_cells_apart() {
        for k in 1..8usize {
            let w = 4u32.max(2 * k as u32);
            let xs: Vec<u32> = (0..k).map(|i| door_offset(i, k, w)).collect();
            assert!(xs.windows(2).all(|p| p[1] >= p[0] + 2) && xs[k - 1] < w, "{k} doors on {w}: {xs:?}");
        }
    }
}
