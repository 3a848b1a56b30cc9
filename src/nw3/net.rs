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
    /// Ids are exactly 1..=n in order (as generated): an id's position is the id minus one.
    dense: bool,
    /// For each area, the arcs to look at once it is reached: those touching it and those it is
    /// the key of, as `watch[watch_at[i]..watch_at[i + 1]]` (one flat list, few allocations).
    watch_at: Vec<u32>,
    watch: Vec<u32>,
    /// Each arc (same index) as the compact [`Link`] `reach` walks.
    links: Vec<Link>,
    /// Per area and mode ([`Link::mode_index`]): the areas its gates lead to outright, with no key
    /// (so `reach` takes them all in one step).
    open_from: Vec<[Set; 4]>,
    /// Per area, the arcs it watches that are secret or closed (they may wait for a key), as
    /// `keyed[keyed_at[i]..keyed_at[i + 1]]`.
    keyed_at: Vec<u32>,
    keyed: Vec<u32>,
}

/// An arc as [`Net::reach`] needs it: its ends, its key as a set, and for each way of moving
/// which directions are open outright (`FWD`, `BACK`) or once the key is held (`KEYED`), worked
/// out once when the net is built instead of on every look.
#[derive(Clone, Copy, Debug)]
struct Link {
    a: u32,
    b: u32,
    gate: u32,
    key: Set,
    /// Indexed by [`Link::mode_index`].
    open: [u8; 4],
}

const FWD: u8 = 1;
const BACK: u8 = 2;
const KEYED: u8 = 4;

impl Link {
    fn new(arc: &Arc) -> Link {
        let mut open = [0u8; 4];
        for (m, o) in open.iter_mut().enumerate() {
            let (sense, damaged) = (m & 1 == 1, m & 2 == 2);
            *o = match arc.kind {
                GateKind::Normal => FWD | BACK,
                GateKind::OneWay => FWD,
                GateKind::Secret if arc.sense && sense => FWD | BACK,
                GateKind::Secret | GateKind::Closed => KEYED,
                GateKind::Damaged if damaged && arc.uses.is_some_and(|u| u > 0) => FWD | BACK,
                GateKind::Damaged => 0,
            };
        }
        Link { a: arc.a as u32, b: arc.b as u32, gate: arc.gate as u32, key: arc.key.map_or(0, bit), open }
    }

    /// 0..=3 (masked, so indexing `open` needs no bounds check).
    fn mode_index(mode: Mode) -> usize {
        (usize::from(mode.sense) | usize::from(mode.damaged) << 1) & 3
    }
}

impl Net {
    /// `None` when the fortress has more than [`MAX_AREAS`] areas.
    pub fn new(f: &Fortress) -> Option<Net> {
        let n = f.areas.len();
        if n > MAX_AREAS {
            return None;
        }
        let dense = f.areas.iter().enumerate().all(|(i, a)| a.id as usize == i + 1);
        let mut by_id: Vec<(u32, usize)> = Vec::new();
        if !dense {
            by_id = f.areas.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
            by_id.sort_unstable();
            by_id.dedup_by_key(|p| p.0);
        }
        let mut net = Net {
            n,
            by_id,
            arcs: Vec::with_capacity(f.gates.len()),
            dense,
            watch_at: Vec::new(),
            watch: Vec::new(),
            links: Vec::new(),
            open_from: Vec::new(),
            keyed_at: Vec::new(),
            keyed: Vec::new(),
        };
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
        self.links = self.arcs.iter().map(Link::new).collect();
        let mut open_from = vec![[0; 4]; self.n];
        for l in &self.links {
            for (m, o) in l.open.iter().enumerate() {
                if o & FWD != 0 {
                    open_from[l.a as usize][m] |= bit(l.b as usize);
                }
                if o & BACK != 0 {
                    open_from[l.b as usize][m] |= bit(l.a as usize);
                }
            }
        }
        let mut keyed_at = vec![0u32; self.n + 1];
        let mut keyed = Vec::new();
        for x in 0..self.n {
            let waits = |&&i: &&u32| matches!(self.arcs[i as usize].kind, GateKind::Secret | GateKind::Closed);
            keyed.extend(watch[at[x] as usize..at[x + 1] as usize].iter().filter(waits));
            keyed_at[x + 1] = keyed.len() as u32;
        }
        self.open_from = open_from;
        self.keyed_at = keyed_at;
        self.keyed = keyed;
        self.watch_at = at;
        self.watch = watch;
    }

    /// The arcs to look at when area `x` is reached.
    fn watched(&self, x: usize) -> impl Iterator<Item = &Arc> {
        self.watch[self.watch_at[x] as usize..self.watch_at[x + 1] as usize].iter().map(|&i| &self.arcs[i as usize])
    }

    /// The position of the area with this id.
    pub fn index(&self, id: u32) -> Option<usize> {
        if self.dense {
            return (id as usize).checked_sub(1).filter(|&i| i < self.n);
        }
        self.by_id.binary_search_by_key(&id, |p| p.0).ok().map(|i| self.by_id[i].1)
    }

    /// Every area the party can reach from `start`, holding the keys of the areas in `held` and
    /// collecting more on the way (a least fixpoint: each newly reached area may open gates).
    pub fn reach(&self, start: usize, held: Set, mode: Mode) -> Set {
        self.reach_until(start, held, mode, None)
    }

    /// Whether the party reaches `target` from `start` (as [`Net::reach`], but it stops as soon as
    /// `target` is reached).
    pub fn reaches(&self, start: usize, held: Set, mode: Mode, target: usize) -> bool {
        has(self.reach_until(start, held, mode, Some(target)), target)
    }

    /// [`Net::reach`], stopping early once `stop` is reached (the set is then partial).
    fn reach_until(&self, start: usize, held: Set, mode: Mode, stop: Option<usize>) -> Set {
        let blocked = mode.blocked.map_or(0, bit);
        if has(blocked, start) {
            return 0;
        }
        let stop = stop.map_or(0, bit);
        let m = Link::mode_index(mode);
        // A gate that is not there, or forced open, is at most one; `u32::MAX` matches no gate.
        let skip = mode.skip.map_or(u32::MAX, |g| g as u32);
        let force = mode.force_open.map_or(u32::MAX, |g| g as u32);
        // A set is only added to, and a gate only opens when its key joins the set, so expanding each
        // area once (looking at the gates it touches or opens) reaches the same least fixpoint as
        // sweeping every gate until nothing changes.
        let mut seen = bit(start);
        let mut pending = seen;
        if skip == u32::MAX && force == u32::MAX {
            // Every gate as built: the outright ones in one step per area, then those with keys.
            while pending != 0 && seen & stop == 0 {
                let x = pending.trailing_zeros() as usize;
                pending &= pending - 1;
                let add = self.open_from[x][m] & !(seen | blocked);
                seen |= add;
                pending |= add;
                for &i in &self.keyed[self.keyed_at[x] as usize..self.keyed_at[x + 1] as usize] {
                    let l = &self.links[i as usize];
                    if l.open[m] & KEYED == 0 || (seen | held) & l.key == 0 {
                        continue;
                    }
                    let (a, b) = (bit(l.a as usize), bit(l.b as usize));
                    if seen & a != 0 && (seen | blocked) & b == 0 {
                        seen |= b;
                        pending |= b;
                    }
                    if seen & b != 0 && (seen | blocked) & a == 0 {
                        seen |= a;
                        pending |= a;
                    }
                }
            }
            return seen;
        }
        while pending != 0 && seen & stop == 0 {
            let x = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            for &i in &self.watch[self.watch_at[x] as usize..self.watch_at[x + 1] as usize] {
                let l = &self.links[i as usize];
                let open = if l.gate == skip {
                    0
                } else if l.gate == force {
                    FWD | BACK
                } else {
                    let o = l.open[m];
                    if o & KEYED != 0 && (seen | held) & l.key != 0 { FWD | BACK } else { o & (FWD | BACK) }
                };
                if open == 0 {
                    continue;
                }
                let (a, b) = (bit(l.a as usize), bit(l.b as usize));
                if open & FWD != 0 && seen & a != 0 && (seen | blocked) & b == 0 {
                    seen |= b;
                    pending |= b;
                }
                if open & BACK != 0 && seen & b != 0 && (seen | blocked) & a == 0 {
                    seen |= a;
                    pending |= a;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::nw3::generate::{FortressParams, generate};
    use crate::nw3::model::Gate;
    use crate::tables::Tables;

    /// The rule as the rulebook states it, with nothing precomputed: sweep every gate, opening
    /// what the areas reached so far hold the keys of, until a sweep adds nothing.
    fn swept(net: &Net, start: usize, held: Set, mode: Mode) -> Set {
        let blocked = mode.blocked.map_or(0, bit);
        if has(blocked, start) {
            return 0;
        }
        let mut seen = bit(start);
        loop {
            let before = seen;
            for arc in &net.arcs {
                let (fwd, back) = if mode.skip == Some(arc.gate) {
                    (false, false)
                } else if mode.force_open == Some(arc.gate) {
                    (true, true)
                } else {
                    let key = arc.key.is_some_and(|k| has(seen | held, k));
                    match arc.kind {
                        GateKind::Normal => (true, true),
                        GateKind::OneWay => (true, false),
                        GateKind::Secret => (key || (arc.sense && mode.sense), key || (arc.sense && mode.sense)),
                        GateKind::Closed => (key, key),
                        GateKind::Damaged => {
                            let r = mode.damaged && arc.uses.is_some_and(|u| u > 0);
                            (r, r)
                        }
                    }
                };
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

    /// Generated fortresses, and the same with gate kinds and openers scrambled (as a hand edit
    /// might leave them), so that keys behind their own gates, used-up damaged gates and stray
    /// openers all occur.
    fn nets() -> Vec<Net> {
        let t = Tables::embedded().expect("embedded tables");
        let kinds = [GateKind::Normal, GateKind::OneWay, GateKind::Secret, GateKind::Closed, GateKind::Damaged];
        let mut out = Vec::new();
        for seed in 0..40u64 {
            let areas = 3 + (seed * 7 % 38) as u32;
            let f = generate(&t, &FortressParams { areas, ..Default::default() }, seed).expect("generates");
            out.push(Net::new(&f).expect("small enough"));
            let mut g = f.clone();
            let mut d = Dice::new(seed);
            let n = g.areas.len() as u32;
            for gate in &mut g.gates {
                *gate = Gate {
                    kind: kinds[d.below(5) as usize],
                    opened_by: match d.below(4) {
                        0 => None,
                        1 => Some(Opener::Event(1 + d.below(n))),
                        2 => Some(Opener::Device(1 + d.below(n))),
                        _ => Some(Opener::DangerSense(15)),
                    },
                    uses: [None, Some(0), Some(1), Some(3)][d.below(4) as usize],
                    ..gate.clone()
                };
            }
            out.push(Net::new(&g).expect("small enough"));
        }
        out
    }

    #[test]
    fn reach_is_the_least_fixpoint_of_sweeping_every_gate() {
        for (i, net) in nets().iter().enumerate() {
            let mut modes = vec![GUARANTEED, OPTIMISTIC, STRANDED];
            for x in 0..net.n {
                modes.push(Mode { blocked: Some(x), ..OPTIMISTIC });
            }
            for arc in &net.arcs {
                modes.push(Mode { skip: Some(arc.gate), ..OPTIMISTIC });
                modes.push(Mode { force_open: Some(arc.gate), ..GUARANTEED });
            }
            for start in [0, net.n / 2, net.n - 1] {
                for (k, &mode) in modes.iter().enumerate() {
                    let held = if k % 3 == 0 { bit((start + k) % net.n) } else { 0 };
                    let want = swept(net, start, held, mode);
                    assert_eq!(net.reach(start, held, mode), want, "net {i} start {start} mode {mode:?}");
                    // Stopping early at a target gives the same answer for it.
                    for target in (k % 4..net.n).step_by(4) {
                        assert_eq!(net.reaches(start, held, mode, target), has(want, target), "net {i} start {start}");
                    }
                }
            }
        }
    }

    #[test]
    fn an_area_is_found_by_its_position_or_not_at_all() {
        let t = Tables::embedded().expect("embedded tables");
        let f = generate(&t, &FortressParams::default(), 3).expect("generates");
        let net = Net::new(&f).expect("small enough");
        assert_eq!((net.index(1), net.index(10), net.index(0), net.index(11)), (Some(0), Some(9), None, None));
        // Ids out of order and repeated: the first area with the id.
        let mut g = f.clone();
        g.areas.swap(0, 4);
        g.areas[7].id = 2;
        let net = Net::new(&g).expect("small enough");
        assert_eq!((net.index(5), net.index(1), net.index(2), net.index(8)), (Some(0), Some(4), Some(1), None));
    }
}
