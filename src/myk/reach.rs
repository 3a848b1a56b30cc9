//! The movement graph `check` and the generator walk: a petgraph [`DiGraph`] whose nodes are
//! (map position, room) plus one node for outside the dungeon, and whose edges are the ways the
//! court can move (corridors each way, or one way; entrances between maps and to outside;
//! teleporter-like destinations). A walk follows the graph's edge lists from outside, through
//! the edges it allows, and gives the set of nodes reached.
//!
//! It is built for every generated scenario and for every special-movement trap the generator
//! tries, and walked for every clue and Secret Door, so the last few walks are kept by what they
//! left out: the generator places each clue by such a walk, and `check` asks for the same one
//! again. Every movement rule of a scenario asks one graph: none builds its own.

use arrayvec::ArrayVec;
use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::myk::model::{CorridorId, Map, Place, Reveals, RoomId, Scenario};
use crate::tables::Tables;
use crate::tables::myk::Route;

/// A set of graph nodes, one bit each: on the stack up to [`INLINE_NODES`] nodes (28 maps, more
/// than the generator's 20), on the heap beyond. A walk's answer is made for every trap that
/// moves the court, every clue and every Secret Door, and each heap set cost an allocation
/// (petgraph's own `FixedBitSet` always keeps its bits on the heap).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Nodes {
    inline: [u64; INLINE_WORDS],
    /// Every word when the set is larger than the inline words (then `inline` is unused).
    heap: Vec<u64>,
}

const INLINE_WORDS: usize = 4;
/// Nodes a set holds without a heap allocation.
pub const INLINE_NODES: usize = INLINE_WORDS * 64;

impl Nodes {
    /// An empty set for nodes `0..n`.
    pub fn with_capacity(n: usize) -> Nodes {
        let heap = if n > INLINE_NODES { vec![0; n.div_ceil(64)] } else { Vec::new() };
        Nodes { inline: [0; INLINE_WORDS], heap }
    }

    fn words(&self) -> &[u64] {
        if self.heap.is_empty() { &self.inline } else { &self.heap }
    }

    /// Node `i`'s word and its bit in that word.
    #[inline]
    fn bit(i: usize) -> (usize, u64) {
        (i / 64, 1 << (i % 64))
    }

    /// Whether node `i` is in the set (never, for a node beyond the set's size).
    pub fn contains(&self, i: usize) -> bool {
        let (word, bit) = Nodes::bit(i);
        self.words().get(word).is_some_and(|w| w & bit != 0)
    }

    /// Whether the set holds no node.
    pub fn is_empty(&self) -> bool {
        self.words().iter().all(|&w| w == 0)
    }

    fn words_mut(&mut self) -> &mut [u64] {
        if self.heap.is_empty() { &mut self.inline } else { &mut self.heap }
    }

    /// Adds node `i`, which must be below the size the set was made for.
    pub fn insert(&mut self, i: usize) {
        let (word, bit) = Nodes::bit(i);
        self.words_mut()[word] |= bit;
    }
}

/// The movement graph of a scenario.
pub struct Reach {
    maps: usize,
    /// Each map's index, by position; empty when the maps are numbered 1, 2, ... in order, as
    /// every generated scenario's are (no list to allocate then).
    indices: Vec<u32>,
    /// Every way the court can find, the plain ones flagged.
    graph: DiGraph<(), Edge, u32>,
    /// The last few walks of every way, by what each left out.
    walks: std::cell::RefCell<ArrayVec<(Option<Reveals>, Nodes), KEPT_WALKS>>,
    /// The nodes a walk has yet to leave, kept between walks (see [`Reach::walk`]).
    stack: std::cell::RefCell<Vec<NodeIndex>>,
    /// The rooms that hold a Warder (by node).
    warded_rooms: Nodes,
}

/// Walks kept per graph.
const KEPT_WALKS: usize = 8;

/// A move of the court: through a corridor (see [`via`]) or not (0), whether it is a plain
/// way (a corridor with nothing in the way, or an entrance), and whether it would be plain once
/// its Lock is opened (see [`Reach::from_outside_unlocked`]).
#[derive(Clone, Copy)]
struct Edge {
    plain: bool,
    unlocked: bool,
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

/// The movement graph as it is wired up, map by map (the edges in a fixed order: corridors,
/// then trap destinations, then entrances).
struct Wiring<'a> {
    s: &'a Scenario,
    tables: &'a Tables,
    graph: DiGraph<(), Edge, u32>,
    /// The rooms that hold a Warder (by node).
    warded_rooms: Nodes,
}

impl Wiring<'_> {
    fn add(&mut self, from: usize, to: usize, e: Edge) {
        self.graph.add_edge(NodeIndex::new(from), NodeIndex::new(to), e);
    }

    /// The position of the map numbered `index`.
    fn pos_of(&self, index: u32) -> Option<usize> {
        self.s.maps.iter().position(|m| m.index == index)
    }

    fn route_of(&self, t: &crate::myk::model::PlacedTrap) -> Option<Route> {
        self.tables.myk.trap(&t.name).and_then(|r| r.route)
    }

    /// Which rooms hold a Warder: each trap's record is looked up once.
    fn find_warded_rooms(&mut self) {
        for (p, m) in self.s.maps.iter().enumerate() {
            // By the room's place in the list (A1..C3 in a well-formed map).
            for (i, r) in m.rooms.iter().take(9).enumerate() {
                if r.traps.iter().any(|t| self.route_of(t) == Some(Route::Warded)) {
                    self.warded_rooms.insert(p * 9 + i);
                }
            }
        }
    }

    fn warded(&self, p: Place) -> bool {
        self.pos_of(p.map).is_some_and(|q| self.warded_rooms.contains(Reach::node(q, p.room)))
    }

    /// Each corridor that is not closed, both ways or its one way; plain unless a Secret Door
    /// hides it or a lock or a redirect stands in it. A redirecting corridor also leads, from
    /// both ends, to its destination (unless a Warder guards it).
    fn corridors(&mut self, p: usize, m: &Map) {
        let hidden =
            m.rooms.iter().flat_map(|r| r.traps.iter()).filter_map(|t| t.corridor).fold(0, |h, c| h | hidden_bit(c));
        for c in &m.corridors {
            let route = c.trap.as_ref().and_then(|t| self.route_of(t));
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
            let found = hidden & hidden_bit(c.id()) == 0;
            let plain = found && !matches!(route, Some(Route::Locked | Route::Redirect));
            // An opened Lock leaves the corridor as it would be without the trap.
            let unlocked = plain || (found && route == Some(Route::Locked));
            for &(x, y) in dirs {
                self.add(x, y, Edge { via, plain, unlocked });
            }
            if let (Some(Route::Redirect), Some(d)) = (route, c.trap.as_ref().and_then(|t| t.destination))
                && let Some(dp) = self.pos_of(d.map)
                && !self.warded(d)
            {
                let to = Reach::node(dp, d.room);
                self.add(a, to, Edge { via, plain: false, unlocked: false });
                self.add(b, to, Edge { via, plain: false, unlocked: false });
            }
        }
    }

    /// A room trap with a destination (a teleporter) leads there, unless a Warder guards either end.
    fn destinations(&mut self, p: usize, m: &Map) {
        for r in &m.rooms {
            for t in &r.traps {
                // The room's own Warder is looked up only for a trap that leads somewhere: most
                // rooms hold none (the graph is built for every trap that moves the court).
                if let Some(d) = t.destination
                    && let Some(dp) = self.pos_of(d.map)
                    && !self.warded(Place { map: m.index, room: r.id })
                    && !self.warded(d)
                {
                    self.add(
                        Reach::node(p, r.id),
                        Reach::node(dp, d.room),
                        Edge { via: 0, plain: false, unlocked: false },
                    );
                }
            }
        }
    }

    /// Entrances join their room and the room of the other map they lead to, or `outside`.
    fn entrances(&mut self, p: usize, m: &Map, outside: usize) {
        for e in &m.entrances {
            let here = Reach::node(p, e.room);
            let there = match e.to {
                None => Some(outside),
                Some(to) => self.pos_of(to.map).map(|q| Reach::node(q, to.room)),
            };
            if let Some(t) = there {
                self.add(here, t, Edge { via: 0, plain: true, unlocked: true });
                self.add(t, here, Edge { via: 0, plain: true, unlocked: true });
            }
        }
    }
}

/// A way of [`Reach::ways`]: from node, to node, the corridor (map position, id) or `None`, plain.
pub type Way = (usize, usize, Option<(usize, CorridorId)>, bool);

impl Reach {
    /// The node of room `r` on the map at position `map_pos` (see [`Reach::place`]).
    pub fn node(map_pos: usize, r: RoomId) -> usize {
        map_pos * 9 + r.index()
    }
    fn outside(&self) -> NodeIndex {
        NodeIndex::new(self.maps * 9)
    }

    /// Builds the graph. The full graph allows every way the court can find (secret doors once
    /// found, locks once disarmed, teleporters, illusion roads — a found Illusion Road is walked
    /// as a plain corridor); the plain ways are corridors with nothing in the way and entrances.
    /// A Warder's room (seed 003 l.6083) is entered and left only by corridors: no teleport
    /// leads into or out of it, no Illusion Road into it.
    pub fn new(s: &Scenario, tables: &Tables) -> Reach {
        Reach::build(s, tables)
    }

    fn build(s: &Scenario, tables: &Tables) -> Reach {
        let n = s.maps.len() * 9 + 1;
        let mut graph: DiGraph<(), Edge, u32> = DiGraph::with_capacity(n, n * 4);
        for _ in 0..n {
            graph.add_node(());
        }
        let mut w = Wiring { s, tables, graph, warded_rooms: Nodes::with_capacity(n) };
        w.find_warded_rooms();
        for (p, m) in s.maps.iter().enumerate() {
            w.corridors(p, m);
            w.destinations(p, m);
            w.entrances(p, m, n - 1);
        }
        Reach {
            maps: s.maps.len(),
            indices: if s.maps.iter().enumerate().all(|(p, m)| m.index as usize == p + 1) {
                Vec::new()
            } else {
                s.maps.iter().map(|m| m.index).collect()
            },
            graph: w.graph,
            walks: Default::default(),
            // A walk pushes each node once at most: sized once for every walk of the graph.
            stack: std::cell::RefCell::new(Vec::with_capacity(n)),
            warded_rooms: w.warded_rooms,
        }
    }

    /// Nodes reachable from outside, using every way or plain ways only.
    pub fn from_outside(&self, full: bool) -> Nodes {
        if full { self.walk_full(None) } else { self.walk(Direction::Outgoing, |e, _| e.plain) }
    }

    /// Nodes reachable from outside by the plain ways and the corridors whose Lock the court
    /// opens (the plain ways of the scenario without its Locks): a Lock on the way to the ruler
    /// is an obstacle, not special movement.
    pub fn from_outside_unlocked(&self) -> Nodes {
        self.walk(Direction::Outgoing, |e, _| e.unlocked)
    }

    /// Every node reached from outside (or, walking `Incoming`, from which outside is reached) by
    /// the ways `open` lets through (given the way and the node it leads to). A depth-first walk
    /// over the graph's own edge lists: the set it gives is the breadth-first search's (the same
    /// nodes in another order), without a filtered view, a queue and a visit map allocated for
    /// each walk; the generator walks after every trap that moves the court.
    fn walk(&self, dir: Direction, open: impl Fn(&Edge, usize) -> bool) -> Nodes {
        let mut seen = Nodes::with_capacity(self.graph.node_count());
        // The set's words, chosen once (inline or on the heap) rather than at every edge.
        let words = seen.words_mut();
        let mut stack = self.stack.borrow_mut();
        stack.clear();
        let (word, bit) = Nodes::bit(self.outside().index());
        words[word] |= bit;
        stack.push(self.outside());
        while let Some(x) = stack.pop() {
            for e in self.graph.edges_directed(x, dir) {
                let y = if dir == Direction::Outgoing { e.target() } else { e.source() };
                let (word, bit) = Nodes::bit(y.index());
                if words[word] & bit == 0 && open(e.weight(), e.target().index()) {
                    words[word] |= bit;
                    stack.push(y);
                }
            }
        }
        seen
    }

    /// Nodes reachable from outside by every way, never entering the revealed room nor
    /// travelling the revealed corridor (nor where it leads): what a clue about it may be behind.
    pub fn from_outside_without(&self, blocked: Reveals) -> Nodes {
        self.walk_full(Some(blocked))
    }

    fn walk_full(&self, blocked: Option<Reveals>) -> Nodes {
        if let Some((_, set)) = self.walks.borrow().iter().find(|w| w.0 == blocked) {
            return set.clone();
        }
        let nodes = self.walk_full_anew(blocked);
        let mut walks = self.walks.borrow_mut();
        if walks.len() < KEPT_WALKS {
            walks.push((blocked, nodes.clone()));
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
        self.walk(Direction::Outgoing, |e, to| Some(to) != room && Some(e.via) != corridor)
    }

    /// Nodes from which outside can be reached (using every way): a walk of the reversed graph.
    pub fn back_to_outside(&self) -> Nodes {
        self.walk(Direction::Incoming, |_, _| true)
    }

    /// Whether room `r` of the map at position `map_pos` holds a Warder (a trap whose record's
    /// route is `Warded`), as the graph was wired.
    pub fn warded(&self, map_pos: usize, r: RoomId) -> bool {
        self.warded_rooms.contains(Reach::node(map_pos, r))
    }

    /// Whether any room holds a Warder, as the graph was wired.
    pub fn has_warders(&self) -> bool {
        !self.warded_rooms.is_empty()
    }

    /// Whether a room of the map at position `map_pos` is in a node set.
    pub fn at(list: &Nodes, map_pos: usize, r: RoomId) -> bool {
        list.contains(Reach::node(map_pos, r))
    }

    /// Every way the court can move, in the graph's order: (from node, to node, the corridor it
    /// runs through as (map position, corridor) or `None` for entrances and teleports, plain).
    /// Nodes are read with [`Reach::place`]. The DOT export draws the graph from these.
    pub fn ways(&self) -> Vec<Way> {
        let corridor = |v: usize| {
            let v = v.checked_sub(1)?;
            Some((v / 81, CorridorId(RoomId::ALL[v % 81 / 9], RoomId::ALL[v % 9])))
        };
        self.graph
            .edge_references()
            .map(|e| (e.source().index(), e.target().index(), corridor(e.weight().via), e.weight().plain))
            .collect()
    }

    /// The fewest Quarters the court needs to stand in each room, by node (`None`: never):
    /// its first room from outside in Quarter 1, one room more per Quarter (seed 003 l.1737), and
    /// a way through a corridor costing `extra(map position, corridor)` Quarters beyond that (a
    /// trap that makes time pass). A shortest-path walk over every way of this graph, so a trap
    /// counts only where no quicker way round it exists.
    pub fn quarters_from_outside(&self, extra: impl Fn(usize, CorridorId) -> u32) -> Vec<Option<u32>> {
        use std::cmp::Reverse;
        let corridor = |v: usize| {
            let v = v.checked_sub(1)?;
            Some((v / 81, CorridorId(RoomId::ALL[v % 81 / 9], RoomId::ALL[v % 9])))
        };
        let mut best: Vec<Option<u32>> = vec![None; self.graph.node_count()];
        let mut heap = std::collections::BinaryHeap::from([Reverse((0u32, self.outside().index()))]);
        best[self.outside().index()] = Some(0);
        while let Some(Reverse((q, x))) = heap.pop() {
            if best[x].is_some_and(|b| b < q) {
                continue;
            }
            for e in self.graph.edges(NodeIndex::new(x)) {
                let y = e.target().index();
                let cost = 1 + corridor(e.weight().via).map_or(0, |(p, c)| extra(p, c));
                if y != self.outside().index() && best[y].is_none_or(|b| q + cost < b) {
                    best[y] = Some(q + cost);
                    heap.push(Reverse((q + cost, y)));
                }
            }
        }
        best[self.outside().index()] = None;
        best
    }

    /// What a node of [`Reach::ways`] is: a room as (map position, room), or `None` for outside.
    pub fn place(&self, node: usize) -> Option<(usize, RoomId)> {
        (node < self.maps * 9).then(|| (node / 9, RoomId::ALL[node % 9]))
    }

    /// The number of nodes: nine per map, then outside.
    pub fn nodes(&self) -> usize {
        self.maps * 9 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_set_holds_its_nodes_inline_and_beyond_the_inline_words() {
        for n in [10, INLINE_NODES, INLINE_NODES + 1, 400] {
            let mut set = Nodes::with_capacity(n);
            for i in (0..n).step_by(3) {
                set.insert(i);
            }
            for i in 0..n + 70 {
                assert_eq!(set.contains(i), i < n && i % 3 == 0, "node {i} of a set of {n}");
            }
            assert!(!set.is_empty(), "a set of {n} holding node 0");
            assert!(Nodes::with_capacity(n).is_empty(), "a new set of {n}");
        }
    }
}
