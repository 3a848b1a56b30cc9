//! A deterministic layered layout of the area map, for the renderer to draw circles and lines.
//!
//! - Layer (rank) = fewest gates from the Entrance (the appearance distance), computed from the
//!   gates, not read from the file; areas that cannot be reached go in one extra last layer.
//! - Within a layer, areas start in id order; then four down-and-up barycenter sweeps order each
//!   layer by the mean slot of its neighbours in the layer above (down) or below (up), ties
//!   broken by id, to cut crossings.
//! - Coordinates are on a fixed grid in abstract units: neighbouring slots are 2 units apart and
//!   every layer is centred on the widest one, so `x = 2 × slot + (width − layer size)` and
//!   `y = 2 × layer`. Positions are whole numbers and never shared. The area map
//!   ([`crate::render::area_map`]) takes the layers and the order within them, and places the
//!   areas across by its own measure (labels, gates passing through).

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
}

impl Layout {
    pub fn get(&self, id: u32) -> Option<&Placement> {
        self.nodes.iter().find(|p| p.id == id)
    }
}

const SWEEPS: usize = 4;

/// Lays out the areas of a fortress.
pub fn layout(f: &Fortress) -> Layout {
    let n = f.areas.len();
    if n == 0 {
        return Layout { layers: 0, width: 0, nodes: Vec::new() };
    }
    let index = |id: u32| f.areas.iter().position(|a| a.id == id);
    // Ranks.
    let start = f.areas.iter().position(|a| a.kind == AreaKind::Entrance).unwrap_or(0);
    let dist = Net::new(f).distances(start);
    let deepest = dist.iter().flatten().copied().max().unwrap_or(0);
    let rank: Vec<u32> = dist.iter().map(|d| d.unwrap_or(deepest + 1)).collect();
    let layers = rank.iter().copied().max().unwrap_or(0) + 1;

    // Neighbours over every gate, whatever its kind.
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for g in &f.gates {
        if let (Some(a), Some(b)) = (index(g.from), index(g.to))
            && a != b
        {
            adj[a].push(b);
            adj[b].push(a);
        }
    }

    // Layers in id order, then barycenter sweeps.
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers as usize];
    let mut by_id: Vec<usize> = (0..n).collect();
    by_id.sort_by_key(|&i| (f.areas[i].id, i));
    for i in by_id {
        rows[rank[i] as usize].push(i);
    }
    let mut slot = vec![0usize; n];
    let renumber = |rows: &[Vec<usize>], slot: &mut [usize]| {
        for row in rows {
            for (s, &i) in row.iter().enumerate() {
                slot[i] = s;
            }
        }
    };
    renumber(&rows, &mut slot);
    let sort_row = |row: &mut Vec<usize>, reference: u32, slot: &[usize]| {
        // Barycenter in thousandths of a slot; areas without neighbours there keep their place.
        let key = |i: usize| -> u64 {
            let (sum, count) = adj[i]
                .iter()
                .filter(|&&j| rank[j] == reference)
                .fold((0u64, 0u64), |(s, c), &j| (s + slot[j] as u64, c + 1));
            (sum * 1000).checked_div(count).unwrap_or(slot[i] as u64 * 1000)
        };
        let mut keyed: Vec<(u64, u32, usize)> = row.iter().map(|&i| (key(i), f.areas[i].id, i)).collect();
        keyed.sort_unstable();
        row.clear();
        row.extend(keyed.into_iter().map(|k| k.2));
    };
    for _ in 0..SWEEPS {
        for l in 1..rows.len() {
            sort_row(&mut rows[l], l as u32 - 1, &slot);
            renumber(&rows[l..=l], &mut slot);
        }
        for l in (0..rows.len().saturating_sub(1)).rev() {
            sort_row(&mut rows[l], l as u32 + 1, &slot);
            renumber(&rows[l..=l], &mut slot);
        }
    }

    let width = rows.iter().map(Vec::len).max().unwrap_or(0) as u32;
    let nodes = (0..n)
        .map(|i| {
            let layer = rank[i];
            let len = rows[layer as usize].len() as u32;
            let s = slot[i] as u32;
            Placement { id: f.areas[i].id, layer, slot: s, x: 2 * s + (width - len), y: 2 * layer }
        })
        .collect();
    Layout { layers, width, nodes }
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
}
