//! The area map as the party can walk it: which gates are passable with what the party has found,
//! reachability as a fixpoint over found release devices and cleared events (a worklist: each
//! area is expanded once, and a gate waiting on a key is looked at again when its key area is
//! reached), and fewest-gates distances (breadth first). Shared by the generator, `check` and the layout, so they cannot drift apart.
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
    /// For each area, the arcs to look at once it is reached: those touching it and those it is
    /// the key of, as `watch[watch_at[i]..watch_at[i + 1]]` (one flat list, few allocations).
    watch_at: Vec<u32>,
    watch: Vec<u32>,
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
        let mut net =
            Net { n, by_id, arcs: Vec::with_capacity(f.gates.len()), watch_at: Vec::new(), watch: Vec::new() };
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
        net.index_watch();
        Some(net)
    }

    /// Fills `watch`: a counting sort of (area, arc) pairs by area.
    fn index_watch(&mut self) {
        let watched = |arc: &Arc| [Some(arc.a), Some(arc.b), arc.key.filter(|&k| k != arc.a && k != arc.b)];
        let mut at = vec![0u32; self.n + 1];
        for arc in &self.arcs {
            for x in watched(arc).into_iter().flatten() {
                at[x + 1] += 1;
            }
        }
        for i in 0..self.n {
            at[i + 1] += at[i];
        }
        let mut fill = at.clone();
        let mut watch = vec![0u32; at[self.n] as usize];
        for (i, arc) in self.arcs.iter().enumerate() {
            for x in watched(arc).into_iter().flatten() {
                watch[fill[x] as usize] = i as u32;
                fill[x] += 1;
            }
        }
        self.watch_at = at;
        self.watch = watch;
    }

    /// The arcs to look at when area `x` is reached.
    fn watched(&self, x: usize) -> impl Iterator<Item = &Arc> {
        self.watch[self.watch_at[x] as usize..self.watch_at[x + 1] as usize].iter().map(|&i| &self.arcs[i as usize])
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
        // A set is only added to, and a gate only opens when its key joins the set, so expanding each
        // area once (looking at the gates it touches or opens) reaches the same least fixpoint as
        // sweeping every gate until nothing changes.
        let mut seen = bit(start);
        let mut pending = seen;
        while pending != 0 {
            let x = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            for arc in self.watched(x) {
                let (fwd, back) = Net::passable(arc, seen | held, mode);
                if fwd && has(seen, arc.a) && !has(seen | blocked, arc.b) {
                    seen |= bit(arc.b);
                    pending |= bit(arc.b);
                }
                if back && has(seen, arc.b) && !has(seen | blocked, arc.a) {
                    seen |= bit(arc.a);
                    pending |= bit(arc.a);
                }
            }
        }
        seen
    }

    /// Fewest gates from `start` to each area, over every gate that can ever be passed (one-way
    /// gates forward only, damaged gates only with uses left, closed and secret gates as opened).
    pub fn distances(&self, start: usize) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.n];
        if start >= self.n {
            return dist;
        }
        dist[start] = Some(0);
        // Breadth first: areas leave the queue in order of distance.
        let mut queue = vec![start];
        let mut head = 0;
        while let Some(&x) = queue.get(head) {
            head += 1;
            let d = dist[x].unwrap_or(0) + 1;
            for arc in self.watched(x) {
                let (fwd, back) = match arc.kind {
                    GateKind::OneWay => (true, false),
                    GateKind::Damaged if arc.uses.is_none_or(|u| u == 0) => (false, false),
                    _ => (true, true),
                };
                for (from, to, open) in [(arc.a, arc.b, fwd), (arc.b, arc.a, back)] {
                    if open && from == x && dist[to].is_none() {
                        dist[to] = Some(d);
                        queue.push(to);
                    }
                }
            }
        }
        dist
    }
}
