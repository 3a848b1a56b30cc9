//! The movement graph `check` and the generator walk: nodes are (map position, room) plus one
//! node for outside the dungeon; a walk gives the set of nodes the court can reach.
//!
//! It is built for every generated scenario and for every special-movement trap the generator
//! tries, and walked for every clue, so it keeps to a few allocations per graph and none per
//! walk: node sets are bits (inline up to 256 nodes, 28 maps; a longer hand-made scenario spills
//! to the heap), and the plain ways are the flagged subset of every way rather than a second graph.

use crate::myk::model::{CorridorId, Place, Reveals, RoomId, Scenario};
use crate::tables::Tables;
use crate::tables::myk::Route;

/// The movement graph of a scenario.
pub struct Reach {
    maps: usize,
    /// Each map's index, by position; empty when the maps are numbered 1, 2, ... in order, as
    /// every generated scenario's are (no list to allocate then).
    indices: Vec<u32>,
    /// Every way the court can find, the plain ones flagged.
    full: Adj<Edge>,
    /// What walks of `full` never pass (set by [`Reach::without`]).
    blocked: Option<Reveals>,
    /// Walks of every way already made on a graph of one word, by what they left out: the
    /// generator places each clue by such a walk, and `check` asks for the same one again.
    walks: std::cell::RefCell<Walks>,
}

/// A few walks' node sets (one word each), by what each left out.
#[derive(Default)]
struct Walks {
    keys: [Option<Reveals>; 8],
    sets: [u64; 8],
    len: usize,
}

impl Walks {
    fn find(&self, blocked: Option<Reveals>) -> Option<u64> {
        self.keys[..self.len].iter().position(|&k| k == blocked).map(|i| self.sets[i])
    }

    /// Keeps a walk while there is room (the first few are the ones asked again).
    fn keep(&mut self, blocked: Option<Reveals>, set: u64) {
        if self.len < self.keys.len() {
            self.keys[self.len] = blocked;
            self.sets[self.len] = set;
            self.len += 1;
        }
    }
}

/// A set of graph nodes, one bit each.
#[derive(Clone, Debug)]
pub struct Nodes {
    small: [u64; 4],
    /// The bits when there are more than 256 nodes (empty otherwise).
    big: Vec<u64>,
}

impl Nodes {
    fn empty(n: usize) -> Nodes {
        let big = if n <= 256 { Vec::new() } else { vec![0; n.div_ceil(64)] };
        Nodes { small: [0; 4], big }
    }

    fn words(&self) -> &[u64] {
        if self.big.is_empty() { &self.small } else { &self.big }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        if self.big.is_empty() { &mut self.small } else { &mut self.big }
    }

    /// Whether node `x` is in the set.
    pub fn contains(&self, x: usize) -> bool {
        self.words().get(x / 64).is_some_and(|w| (w >> (x % 64)) & 1 == 1)
    }

    /// Adds `x`; true when it was not there yet.
    fn insert(&mut self, x: usize) -> bool {
        match self.words_mut().get_mut(x / 64) {
            Some(w) => {
                let bit = 1u64 << (x % 64);
                let new = *w & bit == 0;
                *w |= bit;
                new
            }
            None => false,
        }
    }

    /// Takes out the lowest node.
    fn pop(&mut self) -> Option<usize> {
        for (i, w) in self.words_mut().iter_mut().enumerate() {
            if *w != 0 {
                let b = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(i * 64 + b);
            }
        }
        None
    }
}

/// Each node's out-edges in one flat list (`items[at[x]..at[x + 1]]`, in the order they were
/// added): two allocations per graph instead of one per node.
struct Adj<E> {
    at: Vec<u32>,
    items: Vec<E>,
}

impl<E: Copy> Adj<E> {
    /// A stable counting sort of `(from, edge)` pairs by `from`, the pairs given twice by an
    /// iterator (counted, then placed), so a caller need not collect them first.
    fn sorted(n: usize, pairs: impl Iterator<Item = (usize, E)> + Clone) -> Adj<E> {
        let mut at = vec![0u32; n + 1];
        let mut len = 0;
        for (x, _) in pairs.clone() {
            at[x + 1] += 1;
            len += 1;
        }
        for i in 0..n {
            at[i + 1] += at[i];
        }
        // Every slot is overwritten below; the first edge only fills the list to its length.
        let mut items: Vec<E> = pairs.clone().next().map_or_else(Vec::new, |p| vec![p.1; len]);
        // `at[x]` serves as x's cursor: it ends where x's edges end, the start of x + 1's...
        for (x, e) in pairs {
            items[at[x] as usize] = e;
            at[x] += 1;
        }
        // ...so each start moves back one node.
        for i in (1..=n).rev() {
            at[i] = at[i - 1];
        }
        at[0] = 0;
        Adj { at, items }
    }

    fn len(&self) -> usize {
        self.at.len() - 1
    }

    fn of(&self, x: usize) -> &[E] {
        &self.items[self.at[x] as usize..self.at[x + 1] as usize]
    }
}

/// A move of the court: to a node, through a corridor (see [`via`]) or not (0), and whether it
/// is a plain way (a corridor with nothing in the way, or an entrance). Small, as the graph is
/// built for every special-movement trap the generator tries.
#[derive(Clone, Copy)]
struct Edge {
    to: u32,
    plain: bool,
    via: usize,
}

/// A corridor of the map at position `map_pos` as one number (never 0), for [`Edge::via`].
fn via(map_pos: usize, c: CorridorId) -> usize {
    1 + map_pos * 81 + c.0.index() * 9 + c.1.index()
}

/// The corridors a map's Secret Doors hide, one bit per (first room, second room) as written.
fn hidden_bit(c: CorridorId) -> u128 {
    1u128 << (c.0.index() * 9 + c.1.index())
}

impl Reach {
    fn node(map_pos: usize, r: RoomId) -> usize {
        map_pos * 9 + r.index()
    }
    fn outside(&self) -> usize {
        self.maps * 9
    }

    /// Builds the graph. The full graph allows every way the court can find (secret doors once
    /// found, locks once disarmed, teleporters, illusion roads — a found Illusion Road is walked
    /// as a plain corridor); the plain ways are corridors with nothing in the way and entrances.
    /// A Warder's room (seed 003 l.6083) is entered and left only by corridors: no teleport
    /// leads into or out of it, no Illusion Road into it.
    pub fn new(s: &Scenario, tables: &Tables) -> Reach {
        Reach::build(s, tables)
    }

    /// The graph whose `from_outside(true)` never passes what a clue reveals (see
    /// [`Reach::from_outside_without`]).
    pub fn without(s: &Scenario, tables: &Tables, blocked: Reveals) -> Reach {
        Reach { blocked: Some(blocked), ..Reach::build(s, tables) }
    }

    fn build(s: &Scenario, tables: &Tables) -> Reach {
        let n = s.maps.len() * 9 + 1;
        let mut full: Vec<(usize, Edge)> = Vec::with_capacity(n * 4);
        let pos_of = |index: u32| s.maps.iter().position(|m| m.index == index);
        let route_of = |t: &crate::myk::model::PlacedTrap| tables.myk.trap(&t.name).and_then(|r| r.route);
        // Which rooms hold a Warder: each trap's record is looked up once.
        let mut warded_rooms = Nodes::empty(n);
        for (p, m) in s.maps.iter().enumerate() {
            // By the room's place in the list (A1..C3 in a well-formed map).
            for (i, r) in m.rooms.iter().take(9).enumerate() {
                if r.traps.iter().any(|t| route_of(t) == Some(Route::Warded)) {
                    warded_rooms.insert(p * 9 + i);
                }
            }
        }
        let warded = |p: Place| pos_of(p.map).is_some_and(|q| warded_rooms.contains(Reach::node(q, p.room)));
        for (p, m) in s.maps.iter().enumerate() {
            let hidden = m
                .rooms
                .iter()
                .flat_map(|r| r.traps.iter())
                .filter_map(|t| t.corridor)
                .fold(0, |h, c| h | hidden_bit(c));
            for c in &m.corridors {
                let route = c.trap.as_ref().and_then(route_of);
                if route == Some(Route::Closed) {
                    continue;
                }
                let via = via(p, c.id());
                let (a, b) = (Reach::node(p, c.a), Reach::node(p, c.b));
                let (both, one);
                let dirs: &[(usize, usize)] = match c.one_way {
                    Some(d) => {
                        one = [(Reach::node(p, d.from), Reach::node(p, d.to))];
                        &one
                    }
                    None => {
                        both = [(a, b), (b, a)];
                        &both
                    }
                };
                let plain = hidden & hidden_bit(c.id()) == 0 && !matches!(route, Some(Route::Locked | Route::Redirect));
                for &(x, y) in dirs {
                    full.push((x, Edge { to: y as u32, via, plain }));
                }
                if let (Some(Route::Redirect), Some(d)) = (route, c.trap.as_ref().and_then(|t| t.destination))
                    && let Some(dp) = pos_of(d.map)
                    && !warded(d)
                {
                    let to = Reach::node(dp, d.room) as u32;
                    full.push((a, Edge { to, via, plain: false }));
                    full.push((b, Edge { to, via, plain: false }));
                }
            }
            for r in &m.rooms {
                let from_warded = warded(Place { map: m.index, room: r.id });
                for t in &r.traps {
                    if let Some(d) = t.destination
                        && let Some(dp) = pos_of(d.map)
                        && !from_warded
                        && !warded(d)
                    {
                        let to = Reach::node(dp, d.room) as u32;
                        full.push((Reach::node(p, r.id), Edge { to, via: 0, plain: false }));
                    }
                }
            }
            for e in &m.entrances {
                let here = Reach::node(p, e.room);
                let there = match e.to {
                    None => Some(n - 1),
                    Some(to) => pos_of(to.map).map(|q| Reach::node(q, to.room)),
                };
                if let Some(t) = there {
                    full.push((here, Edge { to: t as u32, via: 0, plain: true }));
                    full.push((t, Edge { to: here as u32, via: 0, plain: true }));
                }
            }
        }
        Reach {
            maps: s.maps.len(),
            indices: if s.maps.iter().enumerate().all(|(p, m)| m.index as usize == p + 1) {
                Vec::new()
            } else {
                s.maps.iter().map(|m| m.index).collect()
            },
            full: Adj::sorted(n, full.iter().copied()),
            blocked: None,
            walks: Default::default(),
        }
    }

    /// Every node reachable from `start`; `next` says where an edge leads, or `None` to skip it.
    fn walk<E: Copy>(edges: &Adj<E>, start: usize, next: impl Fn(&E) -> Option<usize>) -> Nodes {
        let n = edges.len();
        if n <= 64 {
            // Up to seven maps: the sets are one word each.
            let (mut seen, mut todo) = (1u64 << start, 1u64 << start);
            while todo != 0 {
                let x = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                for y in edges.of(x).iter().filter_map(&next) {
                    let bit = 1u64 << (y % 64);
                    if seen & bit == 0 {
                        seen |= bit;
                        todo |= bit;
                    }
                }
            }
            return Nodes { small: [seen, 0, 0, 0], big: Vec::new() };
        }
        let mut seen = Nodes::empty(n);
        // Nodes reached whose edges are still to follow (the order does not change the set).
        let mut todo = Nodes::empty(n);
        seen.insert(start);
        todo.insert(start);
        while let Some(x) = todo.pop() {
            for y in edges.of(x).iter().filter_map(&next) {
                if seen.insert(y) {
                    todo.insert(y);
                }
            }
        }
        seen
    }

    /// Nodes reachable from outside, using every way (minus what [`Reach::without`] blocks) or
    /// plain ways only.
    pub fn from_outside(&self, full: bool) -> Nodes {
        if full {
            self.walk_full(self.blocked)
        } else {
            Reach::walk(&self.full, self.outside(), |e| e.plain.then_some(e.to as usize))
        }
    }

    /// Nodes reachable from outside by every way, never entering the revealed room nor
    /// travelling the revealed corridor (nor where it leads): what a clue about it may be behind.
    pub fn from_outside_without(&self, blocked: Reveals) -> Nodes {
        self.walk_full(Some(blocked))
    }

    fn walk_full(&self, blocked: Option<Reveals>) -> Nodes {
        let one_word = self.full.len() <= 64;
        if one_word && let Some(set) = self.walks.borrow().find(blocked) {
            return Nodes { small: [set, 0, 0, 0], big: Vec::new() };
        }
        let nodes = self.walk_full_anew(blocked);
        if one_word {
            self.walks.borrow_mut().keep(blocked, nodes.small[0]);
        }
        nodes
    }

    fn walk_full_anew(&self, blocked: Option<Reveals>) -> Nodes {
        let pos = |map: u32| {
            if self.indices.is_empty() {
                (1..=self.maps).contains(&(map as usize)).then(|| map as usize - 1)
            } else {
                self.indices.iter().position(|&i| i == map)
            }
        };
        let (room, corridor) = match blocked {
            Some(Reveals::Room(p)) => (pos(p.map).map(|q| Reach::node(q, p.room)), None),
            Some(Reveals::Corridor { map, corridor }) => (None, pos(map).map(|q| via(q, corridor))),
            None => (None, None),
        };
        Reach::walk(&self.full, self.outside(), |e| {
            let to = e.to as usize;
            let passes = Some(to) == room || Some(e.via) == corridor;
            (!passes).then_some(to)
        })
    }

    /// Nodes from which outside can be reached (using every way).
    pub fn back_to_outside(&self) -> Nodes {
        let n = self.full.len();
        if n <= 64 {
            // Up to seven maps: each node's predecessors as one word, then a walk over them.
            let mut pred = [0u64; 64];
            for x in 0..n {
                for e in self.full.of(x) {
                    pred[e.to as usize % 64] |= 1 << x;
                }
            }
            let start = 1u64 << self.outside();
            let (mut seen, mut todo) = (start, start);
            while todo != 0 {
                let x = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let new = pred[x] & !seen;
                seen |= new;
                todo |= new;
            }
            return Nodes { small: [seen, 0, 0, 0], big: Vec::new() };
        }
        // The edges reversed, grouped by where they lead, sorted straight from `full`.
        let rev = (0..n).flat_map(|x| self.full.of(x).iter().map(move |e| (e.to as usize, x)));
        Reach::walk(&Adj::sorted(n, rev), self.outside(), |&y| Some(y))
    }

    /// Whether a room of the map at position `map_pos` is in a node set.
    pub fn at(list: &Nodes, map_pos: usize, r: RoomId) -> bool {
        list.contains(Reach::node(map_pos, r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_set_holds_what_was_put_in_and_gives_it_back_lowest_first() {
        for n in [10, 256, 300] {
            let mut s = Nodes::empty(n);
            assert!(s.insert(3) && s.insert(n - 1) && !s.insert(3));
            assert!(s.contains(3) && s.contains(n - 1) && !s.contains(4) && !s.contains(n + 500));
            assert_eq!((s.pop(), s.pop(), s.pop()), (Some(3), Some(n - 1), None));
        }
    }
}
