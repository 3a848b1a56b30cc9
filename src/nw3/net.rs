//! The area map as a graph the party walks: a petgraph [`DiGraph`] with one node per area and,
//! per gate, a step each way (`a → b` and `b → a`); which steps are open depends on the gate's
//! kind, on the way of moving ([`Mode`]) and on what the party holds. Shared by the generator,
//! `check`, reroll, fix and the layout, so they cannot drift apart.
//!
//! - Reachability is the key-gated least fixpoint written on top of the graph's adjacency: a
//!   worklist expands each reached area once over its outgoing steps, and a gate waiting on a key
//!   is looked at again when its key area is reached (found release devices, cleared events).
//! - Fewest-gates distances are a breadth-first search over the [`EdgeFiltered`] view of the
//!   steps that can ever be passed.
//!
//! Areas are numbered by their position in `Fortress::areas` (node `i` is area `i`); sets of
//! areas are [`FixedBitSet`]s, so any number of areas is analysed.

use fixedbitset::FixedBitSet;
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{EdgeFiltered, EdgeRef};

use crate::nw3::model::{Fortress, Gate, GateKind, Opener};

/// A set of areas (by position).
pub(crate) type Set = FixedBitSet;

/// The empty set (nothing held).
pub(crate) const NONE: Set = FixedBitSet::new();

/// The set of one area.
#[cfg(test)]
pub(crate) fn bit(i: usize) -> Set {
    let mut s = FixedBitSet::with_capacity(i + 1);
    s.insert(i);
    s
}

pub(crate) fn has(s: &Set, i: usize) -> bool {
    s.contains(i)
}

/// A set of positions per area, as rows of 64-bit words in one buffer: the scenarios of
/// [`Net::reach_each`], where a row is combined with others a word at a time.
#[derive(Clone, Debug)]
pub(crate) struct Rows {
    words: usize,
    width: usize,
    bits: Vec<u64>,
}

impl Rows {
    fn new(n: usize, width: usize) -> Rows {
        let words = width.div_ceil(64);
        Rows { words, width, bits: vec![0; n * words] }
    }

    fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }

    fn insert(&mut self, i: usize, j: usize) {
        self.bits[i * self.words + j / 64] |= 1 << (j % 64);
    }

    /// Every position of the row.
    fn fill(&mut self, i: usize) {
        for j in 0..self.width {
            self.insert(i, j);
        }
    }

    /// Takes `other`'s row `i` out of row `i`.
    fn remove_row(&mut self, i: usize, other: &Rows) {
        let r = i * self.words..(i + 1) * self.words;
        for (a, b) in self.bits[r.clone()].iter_mut().zip(&other.bits[r]) {
            *a &= !b;
        }
    }

    /// Adds `more` to row `i`; whether that added anything.
    fn add_to(&mut self, i: usize, more: &[u64]) -> bool {
        let mut grew = false;
        for (a, &b) in self.bits[i * self.words..(i + 1) * self.words].iter_mut().zip(more) {
            grew |= b & !*a != 0;
            *a |= b;
        }
        grew
    }

    /// Whether row `i` holds position `j`.
    pub fn contains(&self, i: usize, j: usize) -> bool {
        j < self.width && self.row(i)[j / 64] & (1 << (j % 64)) != 0
    }
}

/// One gate whose two areas exist.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
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

/// A "what if" of [`Net::reach_each`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Without {
    /// The party never enters this area (by position), as [`Mode::blocked`].
    Area(usize),
    /// This gate (by its index in `Fortress::gates`) is not there, as [`Mode::skip`].
    Gate(usize),
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

/// One direction of a gate: the arc (index in [`Net::arcs`]) and whether it runs from `b` to `a`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub arc: u32,
    pub back: bool,
}

/// Whether a step is open: outright, once its key is held, or not at all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Open,
    Keyed,
    Shut,
}

impl Link {
    /// How the step `back` (from `b` to `a`) or forward passes for a way of moving.
    fn pass(&self, back: bool, mode: Mode) -> Pass {
        if mode.skip == Some(self.gate) {
            return Pass::Shut;
        }
        if mode.force_open == Some(self.gate) {
            return Pass::Open;
        }
        match self.kind {
            GateKind::Normal => Pass::Open,
            GateKind::OneWay if back => Pass::Shut,
            GateKind::OneWay => Pass::Open,
            GateKind::Secret if self.sense && mode.sense => Pass::Open,
            GateKind::Secret | GateKind::Closed => Pass::Keyed,
            GateKind::Damaged if mode.damaged && self.uses.is_some_and(|u| u > 0) => Pass::Open,
            GateKind::Damaged => Pass::Shut,
        }
    }

    /// Whether the step can ever be passed (keys assumed found), as the distances count it.
    fn ever(&self, back: bool) -> bool {
        match self.kind {
            GateKind::OneWay => !back,
            GateKind::Damaged => self.uses.is_some_and(|u| u > 0),
            _ => true,
        }
    }
}

/// The passable structure of a fortress.
#[derive(Clone, Debug)]
pub(crate) struct Net {
    pub n: usize,
    /// Sorted (id, index) pairs for lookups; a duplicated id resolves to its first area.
    by_id: Vec<(u32, usize)>,
    pub arcs: Vec<Link>,
    /// Ids are exactly 1..=n in order (as generated): an id's position is the id minus one.
    dense: bool,
    /// Node `i` is area `i`; each arc gives a forward and a backward step.
    pub graph: DiGraph<(), Step, u32>,
    /// Per area, the keyed arcs it holds the key of without touching them (looked at again when
    /// the area is reached).
    keyed_by: Vec<Vec<u32>>,
}

impl Net {
    pub fn new(f: &Fortress) -> Net {
        let ids: Vec<u32> = f.areas.iter().map(|a| a.id).collect();
        Net::of(&ids, &f.gates)
    }

    /// The net of areas with these ids (in this order) and these gates, before there is a
    /// fortress to hold them (the generator's stocking asks).
    pub fn of(ids: &[u32], gates: &[Gate]) -> Net {
        let n = ids.len();
        let dense = ids.iter().enumerate().all(|(i, &id)| id as usize == i + 1);
        let mut by_id: Vec<(u32, usize)> = Vec::new();
        if !dense {
            by_id = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
            by_id.sort_unstable();
            by_id.dedup_by_key(|p| p.0);
        }
        let mut net = Net {
            n,
            by_id,
            arcs: Vec::with_capacity(gates.len()),
            dense,
            graph: DiGraph::with_capacity(n, 2 * gates.len()),
            keyed_by: vec![Vec::new(); n],
        };
        for _ in 0..n {
            net.graph.add_node(());
        }
        for (gate, g) in gates.iter().enumerate() {
            let (Some(a), Some(b)) = (net.index(g.from), net.index(g.to)) else { continue };
            if a == b {
                continue;
            }
            let (key, sense) = match g.opened_by {
                Some(Opener::Event(id) | Opener::Device(id)) => (net.index(id), false),
                Some(Opener::DangerSense(_)) => (None, true),
                None => (None, false),
            };
            let arc = net.arcs.len() as u32;
            if let Some(k) = key.filter(|&k| k != a && k != b)
                && matches!(g.kind, GateKind::Secret | GateKind::Closed)
            {
                net.keyed_by[k].push(arc);
            }
            net.arcs.push(Link { gate, a, b, kind: g.kind, key, sense, uses: g.uses });
            net.graph.add_edge(NodeIndex::new(a), NodeIndex::new(b), Step { arc, back: false });
            net.graph.add_edge(NodeIndex::new(b), NodeIndex::new(a), Step { arc, back: true });
        }
        net
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
    pub fn reach(&self, start: usize, held: &Set, mode: Mode) -> Set {
        self.reach_until(start, held, mode, None)
    }

    /// Whether the party reaches `target` from `start` (as [`Net::reach`], but it stops as soon as
    /// `target` is reached).
    pub fn reaches(&self, start: usize, held: &Set, mode: Mode, target: usize) -> bool {
        has(&self.reach_until(start, held, mode, Some(target)), target)
    }

    /// [`Net::reach`], stopping early once `stop` is reached (the set is then partial).
    fn reach_until(&self, start: usize, held: &Set, mode: Mode, stop: Option<usize>) -> Set {
        let mut seen = FixedBitSet::with_capacity(self.n);
        if mode.blocked == Some(start) || start >= self.n {
            return seen;
        }
        let holds = |seen: &Set, k: Option<usize>| k.is_some_and(|k| seen.contains(k) || held.contains(k));
        // A set is only added to, and a gate only opens when its key joins the set, so expanding
        // each area once (its outgoing steps, then the gates it is the key of) reaches the same
        // least fixpoint as sweeping every gate until nothing changes.
        let mut todo = vec![start];
        seen.insert(start);
        let visit = |to: usize, seen: &mut Set, todo: &mut Vec<usize>| {
            if mode.blocked != Some(to) && !seen.put(to) {
                todo.push(to);
            }
        };
        while let Some(x) = todo.pop() {
            if stop.is_some_and(|s| seen.contains(s)) {
                break;
            }
            for e in self.graph.edges_directed(NodeIndex::new(x), Direction::Outgoing) {
                let step = e.weight();
                let arc = &self.arcs[step.arc as usize];
                let open = match arc.pass(step.back, mode) {
                    Pass::Open => true,
                    Pass::Keyed => holds(&seen, arc.key),
                    Pass::Shut => false,
                };
                if open {
                    visit(e.target().index(), &mut seen, &mut todo);
                }
            }
            for &i in &self.keyed_by[x] {
                let arc = &self.arcs[i as usize];
                for (from, to, back) in [(arc.a, arc.b, false), (arc.b, arc.a, true)] {
                    if seen.contains(from) && arc.pass(back, mode) == Pass::Keyed {
                        visit(to, &mut seen, &mut todo);
                    }
                }
            }
        }
        seen
    }

    /// [`Net::reach`] once for each "what if" of `asks` (an area never entered, a gate not
    /// there), all at once: for every area, the positions `j` of the asks under which the party
    /// reaches it. The what-ifs do not touch each other, so running them as the bits of one set
    /// per area reaches each one's own least fixpoint: an open step carries every what-if its
    /// near side is reached under, a keyed step those under which its key area is reached too,
    /// and no step carries a what-if that keeps its far side out or takes its gate away. One
    /// sweep of the graph instead of one per what-if (`check` asks one for every key area,
    /// closed gate and one-use damaged gate of a fortress).
    pub fn reach_each(&self, start: usize, held: &Set, asks: &[Without], mode: Mode) -> Rows {
        let mut reached = Rows::new(self.n, asks.len());
        if start >= self.n || mode.blocked == Some(start) {
            return reached;
        }
        let mut kept_out = Rows::new(self.n, asks.len());
        let mut gone = Rows::new(self.arcs.len(), asks.len());
        for (j, &ask) in asks.iter().enumerate() {
            match ask {
                Without::Area(b) if b < self.n => kept_out.insert(b, j),
                Without::Gate(g) => {
                    for (i, _) in self.arcs.iter().enumerate().filter(|(_, a)| a.gate == g) {
                        gone.insert(i, j);
                    }
                }
                Without::Area(_) => {}
            }
        }
        reached.fill(start);
        reached.remove_row(start, &kept_out);
        let mut queued = FixedBitSet::with_capacity(self.n);
        let mut todo = vec![start];
        queued.insert(start);
        let mut carried = vec![0u64; reached.words];
        while let Some(x) = todo.pop() {
            queued.set(x, false);
            for e in self.graph.edges_directed(NodeIndex::new(x), Direction::Outgoing) {
                let (step, to) = (e.weight(), e.target().index());
                let arc = &self.arcs[step.arc as usize];
                if mode.blocked == Some(to) {
                    continue;
                }
                let key = match arc.pass(step.back, mode) {
                    Pass::Open => None,
                    Pass::Keyed => match arc.key {
                        Some(k) if held.contains(k) => None,
                        Some(k) => Some(k),
                        None => continue,
                    },
                    Pass::Shut => continue,
                };
                for (w, c) in carried.iter_mut().enumerate() {
                    let keyed = key.map_or(!0, |k| reached.row(k)[w]);
                    *c = reached.row(x)[w] & keyed & !kept_out.row(to)[w] & !gone.row(step.arc as usize)[w];
                }
                if reached.add_to(to, &carried) {
                    let again = std::iter::once(to).chain(self.keyed_by[to].iter().flat_map(|&i| {
                        let arc = &self.arcs[i as usize];
                        [arc.a, arc.b]
                    }));
                    for y in again {
                        if !queued.put(y) {
                            todo.push(y);
                        }
                    }
                }
            }
        }
        reached
    }

    /// The ids of the areas the party surely reaches from `entrance` without fighting the Ruler
    /// (the Ruler's area never entered, so no gate its event opens is open): where what helps
    /// against the Ruler must lie. `None` when the Ruler's or the Entrance's area is unknown.
    pub fn before_ruler(&self, entrance: u32, ruler: u32) -> Option<Set> {
        let (e, r) = (self.index(entrance)?, self.index(ruler)?);
        Some(self.reach(e, &NONE, Mode { blocked: Some(r), ..GUARANTEED }))
    }

    /// Fewest gates from `start` to each area, over every gate that can ever be passed (one-way
    /// gates forward only, damaged gates only with uses left, closed and secret gates as opened):
    /// breadth first over the view of those steps.
    pub fn distances(&self, start: usize) -> Vec<Option<u32>> {
        let mut dist = vec![None; self.n];
        if start >= self.n {
            return dist;
        }
        let ever = EdgeFiltered::from_fn(&self.graph, |e| {
            let s = e.weight();
            self.arcs[s.arc as usize].ever(s.back)
        });
        dist[start] = Some(0);
        let mut queue = std::collections::VecDeque::from([NodeIndex::new(start)]);
        while let Some(x) = queue.pop_front() {
            let d = dist[x.index()].unwrap_or(0) + 1;
            for y in petgraph::visit::IntoNeighbors::neighbors(&ever, x) {
                if dist[y.index()].is_none() {
                    dist[y.index()] = Some(d);
                    queue.push_back(y);
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
    fn swept(net: &Net, start: usize, held: &Set, mode: Mode) -> Set {
        let mut seen = FixedBitSet::with_capacity(net.n);
        if mode.blocked == Some(start) {
            return seen;
        }
        seen.insert(start);
        loop {
            let before = seen.clone();
            for arc in &net.arcs {
                let (fwd, back) = if mode.skip == Some(arc.gate) {
                    (false, false)
                } else if mode.force_open == Some(arc.gate) {
                    (true, true)
                } else {
                    let key = arc.key.is_some_and(|k| has(&seen, k) || has(held, k));
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
                if fwd && has(&seen, arc.a) && mode.blocked != Some(arc.b) {
                    seen.insert(arc.b);
                }
                if back && has(&seen, arc.b) && mode.blocked != Some(arc.a) {
                    seen.insert(arc.a);
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
            out.push(Net::new(&f));
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
            out.push(Net::new(&g));
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
                    let held = if k % 3 == 0 { bit((start + k) % net.n) } else { NONE };
                    let want = swept(net, start, &held, mode);
                    assert_eq!(net.reach(start, &held, mode), want, "net {i} start {start} mode {mode:?}");
                    // Stopping early at a target gives the same answer for it.
                    for target in (k % 4..net.n).step_by(4) {
                        assert_eq!(
                            net.reaches(start, &held, mode, target),
                            has(&want, target),
                            "net {i} start {start}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn reaching_under_every_what_if_at_once_is_reaching_under_each_alone() {
        for (i, net) in nets().iter().enumerate() {
            let mut asks: Vec<Without> = (0..=net.n).rev().map(Without::Area).collect();
            asks.extend((0..net.arcs.len() + 1).map(Without::Gate));
            for (k, &mode) in [OPTIMISTIC, GUARANTEED, STRANDED].iter().enumerate() {
                for start in [0, net.n / 2] {
                    let held = if k == 1 { bit((start + 1) % net.n) } else { NONE };
                    let all = net.reach_each(start, &held, &asks, mode);
                    for (j, &ask) in asks.iter().enumerate() {
                        let alone = match ask {
                            Without::Area(b) => Mode { blocked: Some(b), ..mode },
                            Without::Gate(g) => Mode { skip: Some(g), ..mode },
                        };
                        let alone = net.reach(start, &held, alone);
                        for area in 0..net.n {
                            assert_eq!(
                                all.contains(area, j),
                                has(&alone, area),
                                "net {i} mode {k} start {start} {ask:?} area {area}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn an_area_is_found_by_its_position_or_not_at_all() {
        let t = Tables::embedded().expect("embedded tables");
        let f = generate(&t, &FortressParams::default(), 3).expect("generates");
        let net = Net::new(&f);
        assert_eq!((net.index(1), net.index(10), net.index(0), net.index(11)), (Some(0), Some(9), None, None));
        // Ids out of order and repeated: the first area with the id.
        let mut g = f.clone();
        g.areas.swap(0, 4);
        g.areas[7].id = 2;
        let net = Net::new(&g);
        assert_eq!((net.index(5), net.index(1), net.index(2), net.index(8)), (Some(0), Some(4), Some(1), None));
    }
}
