//! The area map as the party can walk it: which gates are passable with what the party has found,
//! reachability as a fixpoint over found release devices and cleared events, and fewest-gates
//! distances. Shared by the generator, `check` and the layout, so they cannot drift apart.
//!
//! Areas are numbered by their position in `Fortress::areas`; sets of areas are `u64` bit masks,
//! so a fortress of more than [`MAX_AREAS`] areas is not analysed (`check` reports its size).

use crate::nw3::model::{Fortress, GateKind, Opener};

/// The most areas the graph analysis handles (one bit each).
pub(crate) const MAX_AREAS: usize = 64;

/// A set of areas.
pub(crate) type Set = u64;

pub(crate) fn bit(i: usize) -> Set {
    1u64 << i
}

pub(crate) fn has(s: Set, i: usize) -> bool {
    s >> i & 1 == 1
}

/// One gate whose two areas exist.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arc {
    /// Index in `Fortress::gates`.
    pub gate: usize,
    pub a: usize,
    pub b: usize,
    pub kind: GateKind,
    /// The area whose event or release device opens (or reveals) the gate.
    pub key: Option<usize>,
    /// A Danger Sense judge reveals it.
    pub sense: bool,
    pub uses: Option<u32>,
}

/// How the party is assumed to move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mode {
    /// Secret gates found by a Danger Sense judge count as found (the judge may fail, so
    /// solvability never relies on them).
    pub sense: bool,
    /// Damaged gates with uses left may be passed.
    pub damaged: bool,
    /// This gate is not there.
    pub skip: Option<usize>,
    /// This gate is open as if it were a normal gate.
    pub force_open: Option<usize>,
    /// The party never enters this area.
    pub blocked: Option<usize>,
}

/// Only what is certain: found devices, cleared events, damaged gates with uses left.
pub(crate) const GUARANTEED: Mode = Mode { sense: false, damaged: true, skip: None, force_open: None, blocked: None };
/// Also secret gates that a Danger Sense judge reveals.
pub(crate) const OPTIMISTIC: Mode = Mode { sense: true, ..GUARANTEED };
/// After a gate that may not be passed back: no damaged gate counts (each may be used up).
pub(crate) const STRANDED: Mode = Mode { damaged: false, ..GUARANTEED };

/// The passable structure of a fortress.
#[derive(Clone, Debug)]
pub(crate) struct Net {
    pub n: usize,
    /// Sorted (id, index) pairs for lookups; a duplicated id resolves to its first area.
    by_id: Vec<(u32, usize)>,
    pub arcs: Vec<Arc>,
}

impl Net {
    /// `None` when the fortress has more than [`MAX_AREAS`] areas.
    pub fn new(f: &Fortress) -> Option<Net> {
        let n = f.areas.len();
        if n > MAX_AREAS {
            return None;
        }
        let mut by_id: Vec<(u32, usize)> = f.areas.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
        if !by_id.windows(2).all(|w| w[0].0 < w[1].0) {
            by_id.sort_unstable();
            by_id.dedup_by_key(|p| p.0);
        }
        let mut net = Net { n, by_id, arcs: Vec::with_capacity(f.gates.len()) };
        for (gate, g) in f.gates.iter().enumerate() {
            let (Some(a), Some(b)) = (net.index(g.from), net.index(g.to)) else { continue };
            if a == b {
                continue;
            }
            let (key, sense) = match g.opened_by {
                Some(Opener::Event(id) | Opener::Device(id)) => (net.index(id), false),
                Some(Opener::DangerSense(_)) => (None, true),
                None => (None, false),
            };
            net.arcs.push(Arc { gate, a, b, kind: g.kind, key, sense, uses: g.uses });
        }
        Some(net)
    }

    /// The position of the area with this id.
    pub fn index(&self, id: u32) -> Option<usize> {
        self.by_id.binary_search_by_key(&id, |p| p.0).ok().map(|i| self.by_id[i].1)
    }

    /// Whether an arc can be passed forward (a→b) and backward (b→a), given the areas whose
    /// devices or events the party holds.
    fn passable(arc: &Arc, held: Set, mode: Mode) -> (bool, bool) {
        if mode.skip == Some(arc.gate) {
            return (false, false);
        }
        if mode.force_open == Some(arc.gate) {
            return (true, true);
        }
        let key = arc.key.is_some_and(|k| has(held, k));
        match arc.kind {
            GateKind::Normal => (true, true),
            GateKind::OneWay => (true, false),
            GateKind::Secret => {
                let r = key || (arc.sense && mode.sense);
                (r, r)
            }
            GateKind::Closed => (key, key),
            GateKind::Damaged => {
                let r = mode.damaged && arc.uses.is_some_and(|u| u > 0);
                (r, r)
            }
        }
    }

    /// Every area the party can reach from `start`, holding the keys of the areas in `held` and
    /// collecting more on the way (a least fixpoint: each newly reached area may open gates).
    pub fn reach(&self, start: usize, held: Set, mode: Mode) -> Set {
        let blocked = mode.blocked.map_or(0, bit);
        if has(blocked, start) {
            return 0;
        }
        let mut seen = bit(start);
        loop {
            let before = seen;
            for arc in &self.arcs {
                let (fwd, back) = Net::passable(arc, seen | held, mode);
                if fwd && has(seen, arc.a) && !has(blocked, arc.b) {
                    seen |= bit(arc.b);
                }
                if back && has(seen, arc.b) && !has(blocked, arc.a) {
                    seen |= bit(arc.a);
                }
            }
            if seen == before {
                return seen;
            }
        }
    }

    /// Fewest gates from `start` to each area, over every gate that can ever be passed (one-way
    /// gates forward only, damaged gates only with uses left, closed and secret gates as opened).
    pub fn distances(&self, start: usize) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.n];
        if start >= self.n {
            return dist;
        }
        dist[start] = Some(0);
        let mut frontier = bit(start);
        let mut seen = frontier;
        let mut d = 0;
        while frontier != 0 {
            d += 1;
            let mut next = 0;
            for arc in &self.arcs {
                let (fwd, back) = match arc.kind {
                    GateKind::OneWay => (true, false),
                    GateKind::Damaged if arc.uses.is_none_or(|u| u == 0) => (false, false),
                    _ => (true, true),
                };
                if fwd && has(frontier, arc.a) {
                    next |= bit(arc.b);
                }
                if back && has(frontier, arc.b) {
                    next |= bit(arc.a);
                }
            }
            next &= !seen;
            seen |= next;
            for (i, slot) in dist.iter_mut().enumerate() {
                if has(next, i) {
                    *slot = Some(d);
                }
            }
            frontier = next;
        }
        dist
    }
}
