//! A deterministic layered layout of the area map, for the renderer to draw circles and lines.
//!
//! - Layer (rank) = fewest gates from the Entrance (the appearance distance), computed from the
//!   gates, not read from the file; areas that cannot be reached go in one extra last layer.
//! - Within a layer, areas start in id order. A generated fortress is built to be drawn that way
//!   without two gates crossing (its ids run left to right along each row: see
//!   [`crate::nw3::generate`]), and when the id order is such a drawing, it is kept as it is
//!   ([`Layout::clean`]).
//! - Otherwise (a hand-edited graph) the order is a Sugiyama-style one: barycenter sweeps down
//!   and up over the area graph (petgraph, every gate whatever its kind), each layer ordered by
//!   the mean slot of its neighbours in the layer above (down) or below (up), ties by id; the
//!   order with the fewest crossings seen is kept. These sweeps are our own (a few lines on the
//!   petgraph net, deterministic by construction: integer keys, ties by id) rather than the
//!   rust-sugiyama crate, whose output we have not proved deterministic. Each sweep is linear in the gates after a sort,
//!   and counting crossings is quadratic only in the gates between two layers, so 500 areas lay
//!   out quickly. The crossings left are counted ([`Layout::crossings`], [`Layout::detours`]) for
//!   `check` to report.
//! - Coordinates are on a fixed grid in abstract units: neighbouring slots are 2 units apart and
//!   every layer is centred on the widest one, so `x = 2 × slot + (width − layer size)` and
//!   `y = 2 × layer`. Positions are whole numbers and never shared. The area map
//!   ([`crate::render::area_map`]) takes the layers and the order within them, and places the
//!   areas across by its own measure (labels, gates passing through).

use petgraph::visit::EdgeRef;
use serde::Serialize;

use crate::nw3::model::{AreaKind, Fortress};
use crate::nw3::net::Net;

/// Where one area goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub id: u32,
    pub layer: u32,
    pub slot: u32,
    pub x: u32,
    pub y: u32,
}

/// The whole map: `layers` rows, `width` slots in the widest, one placement per area (in the
/// fortress's area order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub layers: u32,
    pub width: u32,
    pub nodes: Vec<Placement>,
    /// Pairs of gates between neighbouring layers whose lines cross in this order.
    pub crossings: u32,
    /// Gates that do not join neighbouring layers (within one layer, or across several): the
    /// map draws them around, and they may cross others.
    pub detours: u32,
}

impl Layout {
    pub fn get(&self, id: u32) -> Option<&Placement> {
        self.nodes.iter().find(|p| p.id == id)
    }

    /// Whether every gate joins neighbouring layers and no two cross: the map can draw the
    /// layers as they are, one row each, with straight gates.
    pub fn clean(&self) -> bool {
        self.crossings == 0 && self.detours == 0
    }
}

const SWEEPS: usize = 4;

/// What `check` notes about a gate graph the area map cannot draw without crossings (none for
/// one it can, as every generated fortress's).
pub fn crossing_note(f: &Fortress) -> Option<String> {
    let l = layout(f);
    if l.clean() {
        return None;
    }
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    Some(format!(
        "the area map cannot draw these gates without crossings: {} between rows, and {} within a row or across rows",
        plural(l.crossings, "crossing", "crossings"),
        plural(l.detours, "gate", "gates")
    ))
}

/// Gate pairs between neighbouring ranks that cross with areas at these slots, and gates not
/// between neighbouring ranks. `edges` are (upper, lower) area pairs or same-rank pairs.
fn count_crossings(edges: &[(usize, usize)], rank: &[u32], slot: &[usize]) -> (u32, u32) {
    let mut detours = 0;
    // Gates between ranks r and r + 1, by r, as (upper slot, lower slot).
    let mut by_rank: Vec<Vec<(usize, usize)>> = Vec::new();
    for &(a, b) in edges {
        let (u, v) = if rank[a] <= rank[b] { (a, b) } else { (b, a) };
        if rank[v] != rank[u] + 1 {
            detours += 1;
            continue;
        }
        let r = rank[u] as usize;
        if by_rank.len() <= r {
            by_rank.resize(r + 1, Vec::new());
        }
        by_rank[r].push((slot[u], slot[v]));
    }
    let mut crossings = 0u32;
    for list in &mut by_rank {
        list.sort_unstable();
        for i in 0..list.len() {
            for j in i + 1..list.len() {
                // Sorted by upper end: a pair crosses when the lower ends come the other way.
                if list[i].0 < list[j].0 && list[i].1 > list[j].1 {
                    crossings += 1;
                }
            }
        }
    }
    (crossings, detours)
}

/// Lays out the areas of a fortress: ranks from the Entrance, rows in id order, untangled by
/// barycenter sweeps only when that order is not already a drawing without crossings.
pub fn layout(f: &Fortress) -> Layout {
    let n = f.areas.len();
    if n == 0 {
        return Layout { layers: 0, width: 0, nodes: Vec::new(), crossings: 0, detours: 0 };
    }
    let g = Layered::of(f);
    let mut rows = g.rows_by_id(f);
    let mut slot = vec![0usize; n];
    renumber(&rows, &mut slot);
    let mut best = count_crossings(&g.edges, &g.rank, &slot);
    if best.0 > 0 || best.1 > 0 {
        best = g.untangle(f, &mut rows, &mut slot, best);
    }
    let width = rows.iter().map(Vec::len).max().unwrap_or(0) as u32;
    let nodes = (0..n)
        .map(|i| {
            let layer = g.rank[i];
            let len = rows[layer as usize].len() as u32;
            let s = slot[i] as u32;
            Placement { id: f.areas[i].id, layer, slot: s, x: 2 * s + (width - len), y: 2 * layer }
        })
        .collect();
    Layout { layers: g.layers, width, nodes, crossings: best.0, detours: best.1 }
}

/// The area graph as the layout sees it, by area position: ranks, and neighbours over every
/// gate whatever its kind (a one-way or secret gate is still a line on the map).
struct Layered {
    /// Fewest gates from the Entrance; unreachable areas one past the deepest.
    rank: Vec<u32>,
    layers: u32,
    adj: Vec<Vec<usize>>,
    /// Each gate once, as the graph's forward step.
    edges: Vec<(usize, usize)>,
}

impl Layered {
    fn of(f: &Fortress) -> Layered {
        let n = f.areas.len();
        let net = Net::new(f);
        let start = f.areas.iter().position(|a| a.kind == AreaKind::Entrance).unwrap_or(0);
        let dist = net.distances(start);
        let deepest = dist.iter().flatten().copied().max().unwrap_or(0);
        let rank: Vec<u32> = dist.iter().map(|d| d.unwrap_or(deepest + 1)).collect();
        let layers = rank.iter().copied().max().unwrap_or(0) + 1;
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut edges: Vec<(usize, usize)> = Vec::with_capacity(net.arcs.len());
        for e in net.graph.edge_references().filter(|e| !e.weight().back) {
            let (a, b) = (e.source().index(), e.target().index());
            adj[a].push(b);
            adj[b].push(a);
            edges.push((a, b));
        }
        Layered { rank, layers, adj, edges }
    }

    /// The rows with each in id order (ties by position), which is how a generated fortress
    /// draws without crossings.
    fn rows_by_id(&self, f: &Fortress) -> Vec<Vec<usize>> {
        let mut rows: Vec<Vec<usize>> = vec![Vec::new(); self.layers as usize];
        let mut by_id: Vec<usize> = (0..f.areas.len()).collect();
        by_id.sort_by_key(|&i| (f.areas[i].id, i));
        for i in by_id {
            rows[self.rank[i] as usize].push(i);
        }
        rows
    }

    /// Barycenter sweeps down and up, [`SWEEPS`] times, keeping the order with the fewest
    /// crossings seen (the first such, so ties keep the earlier order); leaves `rows` and `slot`
    /// at that order and returns its (crossings, detours).
    fn untangle(&self, f: &Fortress, rows: &mut [Vec<usize>], slot: &mut [usize], mut best: (u32, u32)) -> (u32, u32) {
        let mut best_rows = rows.to_vec();
        for _ in 0..SWEEPS {
            for l in 1..rows.len() {
                self.sort_row(f, &mut rows[l], l as u32 - 1, slot);
                renumber(&rows[l..=l], slot);
            }
            for l in (0..rows.len().saturating_sub(1)).rev() {
                self.sort_row(f, &mut rows[l], l as u32 + 1, slot);
                renumber(&rows[l..=l], slot);
            }
            let now = count_crossings(&self.edges, &self.rank, slot);
            if now.0 < best.0 {
                best = now;
                best_rows.clone_from_slice(rows);
            }
        }
        rows.clone_from_slice(&best_rows);
        renumber(rows, slot);
        best
    }

    /// Orders `row` by the mean slot of each area's neighbours in layer `reference`, ties by id.
    /// The mean is kept in thousandths of a slot (integers, so the order is the same everywhere);
    /// an area without neighbours there keeps its own place.
    fn sort_row(&self, f: &Fortress, row: &mut Vec<usize>, reference: u32, slot: &[usize]) {
        let key = |i: usize| -> u64 {
            let (sum, count) = self.adj[i]
                .iter()
                .filter(|&&j| self.rank[j] == reference)
                .fold((0u64, 0u64), |(s, c), &j| (s + slot[j] as u64, c + 1));
            (sum * 1000).checked_div(count).unwrap_or(slot[i] as u64 * 1000)
        };
        let mut keyed: Vec<(u64, u32, usize)> = row.iter().map(|&i| (key(i), f.areas[i].id, i)).collect();
        keyed.sort_unstable();
        row.clear();
        row.extend(keyed.into_iter().map(|k| k.2));
    }
}

/// Sets each area's slot to its place in its row.
fn renumber(rows: &[Vec<usize>], slot: &mut [usize]) {
    for row in rows {
        for (s, &i) in row.iter().enumerate() {
            slot[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nw3::generate::{FortressParams, generate};
    use crate::tables::Tables;

    #[test]
    fn no_two_areas_share_a_position_and_the_core_is_deepest() {
        let t = Tables::embedded().unwrap();
        for areas in [3, 4, 7, 10, 18, 29, 40] {
            for seed in 0..25 {
                let f = generate(&t, &FortressParams { areas, ..Default::default() }, seed).unwrap();
                let l = layout(&f);
                assert_eq!(l.nodes.len(), f.areas.len());
                let mut spots: Vec<(u32, u32)> = l.nodes.iter().map(|p| (p.x, p.y)).collect();
                spots.sort_unstable();
                spots.dedup();
                assert_eq!(spots.len(), f.areas.len(), "seed {seed} areas {areas}: shared position");
                let core = l.get(f.core_area().unwrap().id).unwrap();
                assert_eq!(core.layer, l.layers - 1, "seed {seed} areas {areas}: Core not in the last layer");
                let entrance = l.get(f.entrance().unwrap().id).unwrap();
                assert_eq!(entrance.layer, 0);
                for p in &l.nodes {
                    assert_eq!(p.y, 2 * p.layer);
                    assert!(p.x <= 2 * (l.width - 1), "x {} beyond width {}", p.x, l.width);
                    let a = f.area(p.id).unwrap();
                    assert_eq!(a.appearance_difficulty, 8 + 2 * p.layer, "layer is the appearance distance");
                }
            }
        }
    }

    #[test]
    fn the_layout_is_deterministic_and_ordered_by_barycenter() {
        let t = Tables::embedded().unwrap();
        let f = generate(&t, &FortressParams::default(), 7).unwrap();
        assert_eq!(layout(&f), layout(&f));
        // A hand-made diamond: 1 -> 2, 1 -> 3, 3 -> 4, 2 -> 5: the children keep their parents' order.
        let mut g = f.clone();
        g.areas.truncate(5);
        for (i, a) in g.areas.iter_mut().enumerate() {
            a.id = i as u32 + 1;
        }
        g.areas[0].kind = AreaKind::Entrance;
        let gate = |from, to| crate::nw3::model::Gate {
            from,
            to,
            kind: crate::nw3::model::GateKind::Normal,
            opened_by: None,
            uses: None,
        };
        g.gates = vec![gate(1, 2), gate(1, 3), gate(3, 4), gate(2, 5)];
        let l = layout(&g);
        let slot = |id| l.get(id).unwrap().slot;
        assert_eq!((l.layers, l.width), (3, 2));
        assert!(slot(2) < slot(3));
        assert!(slot(5) < slot(4), "area 5 hangs under area 2, so it goes left of 4");
        assert_eq!(l.get(1).unwrap().x, 1, "a lone area is centred");
    }

    #[test]
    fn generated_fortresses_are_laid_out_clean_in_id_order() {
        let t = Tables::embedded().unwrap();
        for areas in 3..=40 {
            for seed in 0..6 {
                let f = generate(&t, &FortressParams { areas, ..Default::default() }, seed).unwrap();
                let l = layout(&f);
                assert!(l.clean(), "seed {seed} areas {areas}: {} crossings, {} detours", l.crossings, l.detours);
                assert!(crossing_note(&f).is_none());
                // Kept as numbered: slots rise with ids along each layer.
                for p in &l.nodes {
                    for q in l.nodes.iter().filter(|q| q.layer == p.layer && q.id > p.id) {
                        assert!(q.slot > p.slot, "seed {seed} areas {areas}: {} before {}", q.id, p.id);
                    }
                }
            }
        }
    }

    #[test]
    fn a_hand_edited_graph_that_must_cross_is_swept_and_its_crossings_noted() {
        let t = Tables::embedded().unwrap();
        let mut f = generate(&t, &FortressParams { areas: 7, ..Default::default() }, 7).unwrap();
        for (i, a) in f.areas.iter_mut().enumerate() {
            a.id = i as u32 + 1;
            a.kind = if i == 0 { AreaKind::Entrance } else { AreaKind::Normal };
        }
        let gate = |from, to| crate::nw3::model::Gate {
            from,
            to,
            kind: crate::nw3::model::GateKind::Normal,
            opened_by: None,
            uses: None,
        };
        // 2, 3, 4 each joined to each of 5, 6, 7: K(3,3) between two layers crosses at least once
        // however it is ordered; 5-4 and 7-2 also cross in id order, which the sweeps undo.
        f.gates = vec![gate(1, 2), gate(1, 3), gate(1, 4)];
        for a in 2..=4 {
            for b in 5..=7 {
                f.gates.push(gate(a, b));
            }
        }
        let l = layout(&f);
        assert_eq!((l.crossings > 0, l.detours), (true, 0));
        assert!(l.crossings <= 9, "no worse than id order");
        assert_eq!(layout(&f), l, "deterministic");
        let note = crossing_note(&f).expect("a note");
        assert!(note.contains(&format!("{} crossing", l.crossings)), "{note}");
        // A gate inside a layer is a detour.
        f.gates.push(gate(5, 6));
        assert_eq!(layout(&f).detours, 1);
    }
}
