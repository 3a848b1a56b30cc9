//! Fortress generation: a graph of areas joined by gates, typed and stocked from the NW3 tables,
//! solvable by construction and confirmed by [`check`](crate::nw3::check::check).
//!
//! The shape (stream `nw3/graph`): a spine of areas from the Entrance to the Fortress Core
//! (`1 + isqrt(2n)` areas plus a little), branches hung on the spine or on other branches, never
//! deeper than the Core and at most six areas to a depth, and a few extra gates ("loops") between
//! areas whose distances from the Entrance differ by one, so that no loop shortens any route: the
//! Core stays the deepest area. Branches and loops keep degrees at four gates or fewer where they
//! can. The generator knows how the area map draws the shape (rows by depth, each row in the
//! order a depth-first walk meets it, the spine at the right end) and adds a loop only where its
//! line crosses no other gate, so every generated fortress draws without two gates crossing;
//! area ids follow that drawing (by depth, then left to right), which is how the layout finds it.
//!
//! Gates (stream `nw3/gates`), placed so the fortress is solvable by design:
//! - spine gates are normal, one-way (forward) or closed; a closed spine gate opens with the event
//!   of the area before it, or with a Gate Release Device in a branch that hangs on the spine
//!   after the last one-way gate and no later than the gate itself (its path kept normal); the
//!   gate into the Core is often closed by the Ruler encounter;
//! - branch gates are normal, closed (by the event of the area before them) or secret (revealed by
//!   that event, or by Danger Sense 15, which makes what lies behind optional);
//! - loop gates are normal, secret (Danger Sense), damaged (unusable, or 1-3 uses) or one-way;
//!   a one-way or usable damaged loop only lands where the Core can be reached again without
//!   help from behind.
//!
//! Then areas get kinds (the Entrance, the Core, the Ruler's Event area before the Core, event and
//! device areas; the rest weighted by `[[nw3.area_kind]]`, stream `nw3/kinds`), names (stream
//! `nw3/names`) and content (stream `nw3/area/ID`, pieces in `stock.rs` that the workbench also
//! rerolls with), and the fortress gets its Ruler, Logic, Entrance condition, title and trailer.
//! If the check should ever fail, the gates are re-rolled from `nw3/gates/1`, `/2`, `/3`; the
//! last resort is all-normal gates, which always passes.

use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::nw3::check::check;
use crate::nw3::combat;
use crate::nw3::model::{
    Area, AreaKind, Core, EntranceCondition, Fortress, Gate, GateKind, GateRef, Generator, Logic, Opener, Party, Ruler,
    System,
};
use crate::nw3::net::{GUARANTEED, NONE, Net, OPTIMISTIC, has};
pub use crate::nw3::params::{AREAS, CL, FortressParams, PARTY};
use crate::nw3::rules::{ANY_SEVEN, APPEARANCE_BASE, APPEARANCE_PER_GATE, DANGER_SENSE};
use crate::nw3::stock::{Stocking, Used, late_areas, stock};
use crate::tables::Tables;
use crate::tables::nw3::{AREA_EVENT_TABLE, CoreRecord, EntranceRecord, LogicRecord, Nw3Data, RandomKind, RulerRecord};
use crate::tables::roll::RollTable;

/// The most gates an area gets from the shape (loops and branches stop there).
const MAX_DEGREE: usize = 4;
/// The most areas the shape puts at one depth (one row of the area map), so that the widest row
/// fits across the page at the map's smallest text without being dealt over two rows.
const MAX_WIDTH: usize = 6;
/// Gate plans tried before falling back to all-normal gates.
const ATTEMPTS: u32 = 4;

/// Generates the fortress for a seed. The result always passes [`check`].
pub fn generate(tables: &Tables, params: &FortressParams, seed: u64) -> Result<Fortress> {
    params.validate()?;
    let d = &tables.nw3;
    if d.is_empty() {
        return Err(Error::TableFile {
            file: tables.origin.clone(),
            message: "holds no NW3 fortress content (`[nw3]` sections)".into(),
        });
    }
    let ctx = Ctx::new(tables, params, seed)?;
    let root = &ctx.root;
    let shape = Shape::build(&mut root.child("nw3/graph"), params.areas as usize);
    let common = Common::roll(d, root);
    let mut last = Vec::new();
    for attempt in 0..=ATTEMPTS {
        let plan = if attempt < ATTEMPTS {
            let name = if attempt == 0 { "nw3/gates".to_string() } else { format!("nw3/gates/{attempt}") };
            Plan::roll(&shape, &mut root.child(&name))
        } else {
            Plan::plain(&shape)
        };
        let f = assemble(&ctx, &shape, &plan, &common);
        last = check(&f, tables);
        if last.is_empty() {
            return Ok(f);
        }
    }
    let list: Vec<String> = last.iter().map(ToString::to_string).collect();
    Err(Error::SelfCheck { what: format!("generated fortress (seed {seed})"), broken: list.join("; ") })
}

/// The graph before ids: nodes in creation order (spine first: 0 is the Entrance, `spine - 1`
/// the Core), tree edges (child's edge to its parent) and loop edges.
struct Shape {
    n: usize,
    spine: usize,
    parent: Vec<Option<usize>>,
    depth: Vec<u32>,
    /// Spine index of the spine area a node hangs from (itself for spine areas).
    attach: Vec<usize>,
    /// The tree edge to a node's parent.
    up: Vec<Option<usize>>,
    edges: Vec<Edge>,
    /// Area id of each node: 1 + position in (depth, Core last, creation order).
    id: Vec<u32>,
}

#[derive(Clone, Copy)]
struct Edge {
    /// The end nearer the Entrance (parent, or the shallower end of a loop).
    a: usize,
    b: usize,
    tree: bool,
}

impl Shape {
    /// Grows the shape on `dice` (stream `nw3/graph`): the spine's length, then the branches,
    /// then the loops, and the ids from the drawing; the draws come in that order.
    fn build(dice: &mut Dice, n: usize) -> Shape {
        let spine = spine_length(dice, n);
        let core = spine - 1;
        let mut t = Tree::spine(n, spine);
        t.hang_branches(dice, spine);
        let pos = drawing_order(&t.parent, spine);
        Shape::add_loops(dice, &mut t.edges, &mut t.degree, (&t.parent, &t.depth, &pos), core);
        let id = ids_by_drawing(&t.depth, &pos);
        let Tree { parent, depth, attach, up, edges, .. } = t;
        Shape { n, spine, parent, depth, attach, up, edges, id }
    }

    /// Loops: extra gates between areas one row apart (no shortcut: the Core stays deepest),
    /// each only where its line crosses no gate already drawn between the two rows, so the
    /// drawing in `pos` order stays free of crossings. The pairs are listed afresh after each
    /// loop (a loop fills up its ends and bars the pairs whose lines it would cross).
    fn add_loops(
        dice: &mut Dice,
        edges: &mut Vec<Edge>,
        degree: &mut [usize],
        (parent, depth, pos): (&[Option<usize>], &[u32], &[usize]),
        core: usize,
    ) {
        let n = parent.len();
        let loops = n / 5 + dice.below(2) as usize;
        // Nodes by depth, in index order, so that the pairs come in (x, y) order as a scan of
        // every pair would list them, but only pairs one row apart are looked at.
        let rows = depth.iter().map(|&d| d as usize + 1).max().unwrap_or(0);
        let mut by_depth: Vec<Vec<usize>> = vec![Vec::new(); rows + 1];
        for (i, &d) in depth.iter().enumerate() {
            by_depth[d as usize].push(i);
        }
        // The gates between each row and the next, by the upper row (a loop joins its row to
        // the next one too, so it joins its row's list when it is drawn).
        let mut between: Vec<Vec<(usize, usize)>> = vec![Vec::new(); rows + 1];
        for e in edges.iter() {
            if depth[e.b] == depth[e.a] + 1 {
                between[depth[e.a] as usize].push((e.a, e.b));
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for _ in 0..loops {
            pairs.clear();
            let free = |x: usize| x != core && degree[x] < MAX_DEGREE;
            for x in (0..n).filter(|&x| free(x)) {
                let d = depth[x] as usize;
                for &y in by_depth[d + 1].iter().filter(|&&y| free(y) && parent[y] != Some(x)) {
                    // Between two rows, lines cross exactly when their ends come in opposite
                    // orders; lines sharing an end leave it from ports ordered the same way.
                    let crosses =
                        between[d].iter().any(|&(a, b)| a != x && b != y && (pos[a] < pos[x]) != (pos[b] < pos[y]));
                    let doubled = between[d].contains(&(x, y));
                    if !crosses && !doubled {
                        pairs.push((x, y));
                    }
                }
            }
            let Some(&(a, b)) = dice.choose(&pairs) else { break };
            between[depth[a] as usize].push((a, b));
            edges.push(Edge { a, b, tree: false });
            degree[a] += 1;
            degree[b] += 1;
        }
    }

    fn core(&self) -> usize {
        self.spine - 1
    }

    fn ruler(&self) -> usize {
        self.spine - 2
    }
}

/// Areas on the spine, Entrance to Core: `1 + isqrt(2n)` plus a little (one draw of 0-1 and one
/// of 0 to n/10), so the route grows with the square root of the size and the other areas go
/// into branches. Three for the smallest fortresses (Entrance, the Ruler's area, the Core),
/// with no draw.
fn spine_length(dice: &mut Dice, n: usize) -> usize {
    if n <= 4 {
        3
    } else {
        let extra = dice.between(0, 1) as usize + dice.between(0, (n / 10) as u32) as usize;
        (1 + (2 * n).isqrt() + extra).clamp(3, n - 1)
    }
}

/// Ids: by depth, then left to right in the drawing (the Core, at the right end of the spine,
/// is last among its depth).
fn ids_by_drawing(depth: &[u32], pos: &[usize]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..depth.len()).collect();
    order.sort_by_key(|&i| (depth[i], pos[i]));
    let mut id = vec![0u32; depth.len()];
    for (k, &i) in order.iter().enumerate() {
        id[i] = k as u32 + 1;
    }
    id
}

/// The spanning tree of a shape while it grows, with the gates per node and the areas per depth
/// (a row of the drawing) kept by hand as nodes join; the finished shape is then asked about
/// its drawing (see `Shape::add_loops`).
struct Tree {
    /// The Core's node (`spine - 1`): nothing hangs on it, nor on a node at its depth, so no
    /// area is deeper than the Core.
    core: usize,
    degree: Vec<usize>,
    /// Areas per depth, `spine` rows (no area is deeper than the Core).
    width: Vec<usize>,
    parent: Vec<Option<usize>>,
    depth: Vec<u32>,
    attach: Vec<usize>,
    up: Vec<Option<usize>>,
    edges: Vec<Edge>,
}

impl Tree {
    /// The tree of `n` nodes with only the spine joined: nodes `0..spine` in a line.
    fn spine(n: usize, spine: usize) -> Tree {
        let mut t = Tree {
            core: spine - 1,
            degree: vec![0; n],
            width: vec![0; spine],
            parent: vec![None; n],
            depth: vec![0; n],
            attach: vec![0; n],
            up: vec![None; n],
            edges: Vec::with_capacity(n + n / 4 + 2),
        };
        t.width[0] = 1;
        for i in 1..spine {
            t.join(i, i - 1);
            t.attach[i] = i;
        }
        t
    }

    /// Joins node `child` to `parent` with a tree gate.
    fn join(&mut self, child: usize, parent: usize) {
        self.parent[child] = Some(parent);
        self.depth[child] = self.depth[parent] + 1;
        self.attach[child] = self.attach[parent];
        self.up[child] = Some(self.edges.len());
        self.edges.push(Edge { a: parent, b: child, tree: true });
        self.degree[parent] += 1;
        self.degree[child] += 1;
        self.width[self.depth[child] as usize] += 1;
    }

    /// A branch may hang on `j`: not the Core, and above the Core's depth.
    fn fits(&self, j: usize) -> bool {
        j != self.core && self.depth[j] < self.core as u32
    }

    /// The row below `j` has room (only asked of nodes that fit, whose row below exists).
    fn room(&self, j: usize) -> bool {
        self.width[self.depth[j] as usize + 1] < MAX_WIDTH
    }

    /// A branch may hang on `j` without passing the degree or width limits.
    fn open(&self, j: usize) -> bool {
        self.fits(j) && self.degree[j] < MAX_DEGREE && self.room(j)
    }

    /// Hangs nodes `spine..n` one by one, each on a node drawn from the open ones.
    fn hang_branches(&mut self, dice: &mut Dice, spine: usize) {
        // The open nodes, in node order, kept up to date as nodes join (rather than rebuilt per
        // node), so the list and hence each draw are those of a fresh scan.
        let mut open: Vec<usize> = (0..spine).filter(|&j| self.open(j)).collect();
        let mut cands: Vec<usize> = Vec::new();
        for i in spine..self.parent.len() {
            let p = if open.is_empty() {
                // Every node is full: hang it on any that fits, in a row with room if any has.
                cands.clear();
                cands.extend((0..i).filter(|&j| self.fits(j) && self.room(j)));
                if cands.is_empty() {
                    cands.extend((0..i).filter(|&j| self.fits(j)));
                }
                *dice.choose(&cands).expect("the Entrance always fits")
            } else {
                *dice.choose(&open).expect("not empty")
            };
            self.join(i, p);
            if self.degree[p] == MAX_DEGREE || !self.room(p) {
                open.retain(|&j| self.degree[j] < MAX_DEGREE && self.room(j));
            }
            if self.open(i) {
                open.push(i);
            }
        }
    }
}

/// Each node's place in its row of the drawing: rows are depths, and a row lists its nodes in
/// the order a depth-first walk from the Entrance meets them, children in creation order but the
/// spine's own child last. So a subtree's rows are contiguous and no two tree gates cross; the
/// spine (down to the Core) runs along the right end of every row.
fn drawing_order(parent: &[Option<usize>], spine: usize) -> Vec<usize> {
    let n = parent.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(i);
        }
    }
    for (p, kids) in children.iter_mut().enumerate() {
        // The spine child (node p + 1 for a spine node p) goes last; kids are in creation order.
        if p + 1 < spine && kids.first() == Some(&(p + 1)) {
            kids.rotate_left(1);
        }
    }
    let mut pos = vec![0usize; n];
    let mut next_in_row: Vec<usize> = vec![0; n];
    let mut depth = vec![0usize; n];
    let mut stack = vec![0usize];
    while let Some(x) = stack.pop() {
        pos[x] = next_in_row[depth[x]];
        next_in_row[depth[x]] += 1;
        for &c in children[x].iter().rev() {
            depth[c] = depth[x] + 1;
            stack.push(c);
        }
    }
    pos
}

/// What an area is for before it gets a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Plain,
    Entrance,
    Core,
    /// The Ruler encounter (an Event area).
    Ruler,
    /// An Event area whose event opens or reveals a gate.
    EventOpener,
    /// An Object area holding the Gate Release Device of this edge.
    Device(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    Event(usize),
    Device(usize),
    Sense,
}

/// Gate kinds and openers for a shape.
struct Plan {
    kind: Vec<GateKind>,
    open: Vec<Option<Open>>,
    uses: Vec<Option<u32>>,
    /// One-way loop drawn from `b` to `a`.
    flip: Vec<bool>,
    role: Vec<Role>,
}

impl Plan {
    fn base(s: &Shape) -> Plan {
        let mut role = vec![Role::Plain; s.n];
        role[0] = Role::Entrance;
        role[s.core()] = Role::Core;
        role[s.ruler()] = Role::Ruler;
        let m = s.edges.len();
        Plan { kind: vec![GateKind::Normal; m], open: vec![None; m], uses: vec![None; m], flip: vec![false; m], role }
    }

    /// Every gate normal: always solvable.
    fn plain(s: &Shape) -> Plan {
        Plan::base(s)
    }

    fn can_hold_event(&self, node: usize) -> bool {
        matches!(self.role[node], Role::Plain | Role::EventOpener | Role::Ruler)
    }

    fn set_event(&mut self, node: usize) {
        if self.role[node] == Role::Plain {
            self.role[node] = Role::EventOpener;
        }
    }

    /// Rolls every gate on stream `dice`, in a fixed order that the draws depend on: the spine
    /// from the Entrance down, then the branches, then the loops. Each stage reads what the
    /// earlier ones settled (devices keep their paths normal; loops land only where the spine
    /// and branches let a party reach the Core again).
    fn roll(s: &Shape, dice: &mut Dice) -> Plan {
        let mut p = Plan::base(s);
        let forced = p.roll_spine(s, dice);
        p.roll_branches(s, dice, &forced);
        let lands = p.safe_landings(s);
        p.roll_loops(s, dice, &lands);
        p
    }

    /// Spine gates, from the Entrance down. Returns, per edge, whether the gate must stay normal
    /// (it lies on the way from the spine to a Gate Release Device, which must be reachable).
    fn roll_spine(&mut self, s: &Shape, dice: &mut Dice) -> Vec<bool> {
        let mut forced = vec![false; s.edges.len()];
        let mut cands: Vec<usize> = Vec::with_capacity(s.n);
        // The spine index of the last one-way gate's far end: a party cannot walk back above it,
        // so a device for a later closed gate must hang at or below it.
        let mut landing = 0;
        for i in 0..s.spine - 1 {
            let e = s.up[i + 1].expect("spine areas after the Entrance have a parent");
            let into_core = i + 1 == s.core();
            match spine_gate_kind(dice.below(100), into_core) {
                GateKind::OneWay => {
                    self.kind[e] = GateKind::OneWay;
                    landing = i + 1;
                }
                GateKind::Closed if into_core => {
                    // The Ruler's encounter, just before the Core, opens the way in.
                    self.kind[e] = GateKind::Closed;
                    self.open[e] = Some(Open::Event(s.ruler()));
                }
                GateKind::Closed => {
                    self.device_spots(s, landing..=i, &mut cands);
                    // The gate out of the Entrance has no event to open it: a device or nothing.
                    let device = !cands.is_empty() && (i == 0 || dice.chance(2, 3));
                    if device {
                        let x = *dice.choose(&cands).expect("not empty");
                        self.place_device(s, e, x, &mut forced);
                    } else if i > 0 && self.can_hold_event(i) {
                        self.close_by_event(e, i);
                    }
                }
                _ => {}
            }
        }
        forced
    }

    /// Fills `cands` with the plain branch areas that hang on the spine within `spine` (between
    /// the last landing and a closed gate), in node order: where a device for it may go.
    fn device_spots(&self, s: &Shape, spine: std::ops::RangeInclusive<usize>, cands: &mut Vec<usize>) {
        cands.clear();
        cands.extend((s.spine..s.n).filter(|&x| self.role[x] == Role::Plain && spine.contains(&s.attach[x])));
    }

    /// Closes spine gate `e` with a device in area `x`, and forces the branch gates from the
    /// spine down to `x` to stay normal so the device can always be fetched.
    fn place_device(&mut self, s: &Shape, e: usize, x: usize, forced: &mut [bool]) {
        self.role[x] = Role::Device(e);
        self.kind[e] = GateKind::Closed;
        self.open[e] = Some(Open::Device(x));
        let mut y = x;
        while y >= s.spine {
            forced[s.up[y].expect("branch")] = true;
            y = s.parent[y].expect("branch");
        }
    }

    /// Closes gate `e` with the event of area `node` (which becomes an Event area if plain).
    fn close_by_event(&mut self, e: usize, node: usize) {
        self.set_event(node);
        self.kind[e] = GateKind::Closed;
        self.open[e] = Some(Open::Event(node));
    }

    /// Branch gates, in node order, except those `forced` normal: mostly normal, some closed by
    /// the event of the area before them, the rest secret.
    fn roll_branches(&mut self, s: &Shape, dice: &mut Dice, forced: &[bool]) {
        for c in s.spine..s.n {
            let e = s.up[c].expect("branch areas have a parent");
            if forced[e] {
                continue;
            }
            let par = s.parent[c].expect("branch areas have a parent");
            match dice.below(100) {
                0..62 => {}
                62..77 => {
                    if self.can_hold_event(par) {
                        self.close_by_event(e, par);
                    }
                }
                _ => self.hide_branch_gate(e, par, dice),
            }
        }
    }

    /// Makes branch gate `e` secret: revealed by the event of `par` if it has (or now gets) one,
    /// else only by Danger Sense, which makes what lies behind optional. The Entrance never gets
    /// an event.
    fn hide_branch_gate(&mut self, e: usize, par: usize, dice: &mut Dice) {
        self.kind[e] = GateKind::Secret;
        let has_event = matches!(self.role[par], Role::EventOpener | Role::Ruler);
        let make_event = self.role[par] == Role::Plain && par != 0 && dice.chance(1, 2);
        if has_event || make_event {
            self.set_event(par);
            self.open[e] = Some(Open::Event(par));
        } else {
            self.open[e] = Some(Open::Sense);
        }
    }

    /// Per node, whether a party dropped there by a one-way or used-up damaged loop can still
    /// reach the Core: the branch path up to the spine is all normal gates, and every closed
    /// spine gate below that point opens with something found below it too.
    fn safe_landings(&self, s: &Shape) -> Vec<bool> {
        let mut clear = vec![true; s.n];
        for x in s.spine..s.n {
            let (par, e) = (s.parent[x].expect("branch"), s.up[x].expect("branch"));
            clear[x] = clear[par] && self.kind[e] == GateKind::Normal;
        }
        let spine_ok: Vec<bool> = (0..s.spine)
            .map(|m| {
                (m..s.spine - 1).all(|j| {
                    let e = s.up[j + 1].expect("spine");
                    match self.open[e] {
                        Some(Open::Device(x)) => s.attach[x] >= m,
                        _ => true,
                    }
                })
            })
            .collect();
        (0..s.n).map(|x| clear[x] && spine_ok[s.attach[x]]).collect()
    }

    /// Loop gates, in edge order. A one-way or usable damaged loop only goes where `lands` says
    /// a party can still reach the Core. At most one damaged gate per area: two zigzags into one
    /// circle would run side by side, touching, on the map.
    fn roll_loops(&mut self, s: &Shape, dice: &mut Dice, lands: &[bool]) {
        let mut zigzag = vec![false; s.n];
        for (e, edge) in s.edges.iter().enumerate() {
            if edge.tree {
                continue;
            }
            let roll = dice.below(100);
            let damaged_ok = !zigzag[edge.a] && !zigzag[edge.b];
            match roll {
                0..35 => {}
                35..55 => {
                    self.kind[e] = GateKind::Secret;
                    let ev = matches!(self.role[edge.a], Role::EventOpener | Role::Ruler) && dice.chance(1, 2);
                    self.open[e] = Some(if ev { Open::Event(edge.a) } else { Open::Sense });
                }
                55..85 if !damaged_ok => {}
                55..85 => {
                    zigzag[edge.a] = true;
                    zigzag[edge.b] = true;
                    self.kind[e] = GateKind::Damaged;
                    if dice.chance(1, 2) && lands[edge.a] && lands[edge.b] {
                        self.uses[e] = Some(dice.between(1, 3));
                    }
                }
                _ => self.one_way_loop(s, e, *edge, lands),
            }
        }
    }

    /// Makes loop `e` one-way if it can land safely: forward (down a row) when its deeper end is
    /// a safe landing, else backward between two areas of one depth (flipped) if that end is.
    fn one_way_loop(&mut self, s: &Shape, e: usize, edge: Edge, lands: &[bool]) {
        if lands[edge.b] {
            self.kind[e] = GateKind::OneWay;
        } else if s.depth[edge.a] == s.depth[edge.b] && lands[edge.a] {
            self.kind[e] = GateKind::OneWay;
            self.flip[e] = true;
        }
    }
}

/// A spine gate's kind from a d100 `r` (0-99). The gate into the Core is often closed, as the
/// Ruler encounter before it can always open it; other closed spine gates need a device or an
/// event, so they are rarer there.
fn spine_gate_kind(r: u32, into_core: bool) -> GateKind {
    if into_core {
        match r {
            0..45 => GateKind::Closed,
            45..60 => GateKind::OneWay,
            _ => GateKind::Normal,
        }
    } else {
        match r {
            0..18 => GateKind::OneWay,
            18..45 => GateKind::Closed,
            _ => GateKind::Normal,
        }
    }
}

/// Fortress-wide picks that do not depend on the gate plan (the workbench rolls them again on
/// its own stream to reroll the `frame`).
pub(crate) struct Common<'t> {
    pub ruler: &'t RulerRecord,
    pub motive: &'t str,
    pub logic: Vec<&'t LogicRecord>,
    pub entrance: &'t EntranceRecord,
    pub core: &'t CoreRecord,
    pub title: &'t str,
    pub trailer: &'t str,
    /// Location index per area id - 1.
    pub names: Vec<usize>,
}

impl<'t> Common<'t> {
    pub(crate) fn roll(d: &'t Nw3Data, root: &Dice) -> Common<'t> {
        let mut r = root.child("nw3/ruler");
        let ruler = r.choose(&d.rulers).expect("validated: rulers");
        let motive = r.choose(&d.motives).expect("validated: motives").text.as_str();
        let mut l = root.child("nw3/logic");
        let count = if l.d6() >= 5 { 2 } else { 1 };
        let first = l.below(d.logics.len() as u32) as usize;
        let mut logic = vec![&d.logics[first]];
        if count == 2 {
            let second = (first + 1 + l.below(d.logics.len() as u32 - 1) as usize) % d.logics.len();
            logic.push(&d.logics[second]);
        }
        let mut e = root.child("nw3/entrance");
        // Without episode pools nothing gives a keyword or an item: only an Entrance that asks
        // neither (if the tables have one).
        let plain: Vec<&EntranceRecord> = d.entrances.iter().filter(|r| !r.text.contains('{')).collect();
        let entrance = if d.episode.is_empty() && !plain.is_empty() {
            *e.choose(&plain).expect("not empty")
        } else {
            e.choose(&d.entrances).expect("validated: entrances")
        };
        // The Core of the Ruler's own story (ruler_story.rs).
        let core = crate::nw3::ruler_story::core_for(d, ruler, &mut e).expect("validated: cores");
        let mut t = root.child("nw3/title");
        let title = t.choose(&d.titles).expect("validated: titles").text.as_str();
        let trailer = t.choose(&d.trailers).expect("validated: trailers").text.as_str();
        let mut names: Vec<usize> = (0..d.areas.len()).collect();
        root.child("nw3/names").shuffle(&mut names);
        Common { ruler, motive, logic, entrance, core, title, trailer, names }
    }
}

pub(crate) const NUMERALS: [&str; 8] = ["", " II", " III", " IV", " V", " VI", " VII", " VIII"];

/// "nw3/area/ID" without the formatting machinery.
fn area_stream(buf: &mut String, id: u32) -> &str {
    buf.clear();
    buf.push_str("nw3/area/");
    buf.push_str(itoa::Buffer::new().format(id));
    buf
}

/// Everything fixed for one generation: tables, options, seed, the root stream.
struct Ctx<'t> {
    tables: &'t Tables,
    d: &'t Nw3Data,
    chart: &'t RollTable,
    root: Dice,
    params: FortressParams,
    seed: u64,
}

impl<'t> Ctx<'t> {
    fn new(tables: &'t Tables, params: &FortressParams, seed: u64) -> Result<Ctx<'t>> {
        Ok(Ctx {
            tables,
            d: &tables.nw3,
            chart: tables.require(AREA_EVENT_TABLE)?,
            root: Dice::new(seed),
            params: *params,
            seed,
        })
    }
}

/// Builds the fortress a gate plan describes: gates and areas in area ids, each area typed and
/// stocked, and the frame around them. Draws come from `nw3/kinds` (in id order) and from each
/// area's own `nw3/area/ID` stream, so an area's content does not depend on its neighbours'.
fn assemble(ctx: &Ctx, s: &Shape, plan: &Plan, common: &Common) -> Fortress {
    let node_of = s.nodes_by_id();
    let mut gates = gates_in_ids(s, plan);
    let kinds = area_kinds(ctx, plan, &node_of);
    let areas = stock_areas(ctx, s, plan, common, &node_of, &kinds, &gates);
    gates.sort_by_key(|g| (g.from, g.to));
    let mut f = fortress(ctx, common, areas, gates, s.id[s.ruler()]);
    put_episode(ctx.d, &mut f, &common.entrance.text, &ctx.root);
    f
}

impl Shape {
    /// The node of each area id (index `id - 1`).
    fn nodes_by_id(&self) -> Vec<usize> {
        let mut node_of = vec![0usize; self.n];
        for (node, &id) in self.id.iter().enumerate() {
            node_of[id as usize - 1] = node;
        }
        node_of
    }
}

/// The plan's gates in area ids, in edge order (a flipped one-way loop runs from its deeper end).
fn gates_in_ids(s: &Shape, plan: &Plan) -> Vec<Gate> {
    s.edges
        .iter()
        .enumerate()
        .map(|(e, edge)| {
            let (from, to) = if plan.flip[e] { (edge.b, edge.a) } else { (edge.a, edge.b) };
            let opened_by = plan.open[e].map(|o| match o {
                Open::Event(x) => Opener::Event(s.id[x]),
                Open::Device(x) => Opener::Device(s.id[x]),
                Open::Sense => Opener::DangerSense(DANGER_SENSE),
            });
            Gate { from: s.id[from], to: s.id[to], kind: plan.kind[e], opened_by, uses: plan.uses[e] }
        })
        .collect()
}

/// Each area's kind, by id - 1: fixed by its role, else weighted by `[[nw3.area_kind]]` on
/// stream `nw3/kinds` (one draw per plain area, in id order).
fn area_kinds(ctx: &Ctx, plan: &Plan, node_of: &[usize]) -> Vec<AreaKind> {
    let mut kinds = ctx.root.child("nw3/kinds");
    node_of
        .iter()
        .map(|&node| match plan.role[node] {
            Role::Entrance => AreaKind::Entrance,
            Role::Core => AreaKind::Core,
            Role::Ruler | Role::EventOpener => AreaKind::Event,
            Role::Device(_) => AreaKind::Object,
            Role::Plain => {
                match kinds.weighted(&ctx.d.area_kinds, |k| k.weight).map_or(RandomKind::Normal, |k| k.kind) {
                    RandomKind::Normal => AreaKind::Normal,
                    RandomKind::Object => AreaKind::Object,
                    RandomKind::Trap => AreaKind::Trap,
                    RandomKind::Event => AreaKind::Event,
                    RandomKind::Enemy => AreaKind::Enemy,
                }
            }
        })
        .collect()
}

/// Every area, in id order, named and stocked (with `stock.rs`, as the workbench rerolls) on
/// its own stream. `gates` are in edge order: a device names the gate it opens by its ends.
fn stock_areas(
    ctx: &Ctx,
    s: &Shape,
    plan: &Plan,
    common: &Common,
    node_of: &[usize],
    kinds: &[AreaKind],
    gates: &[Gate],
) -> Vec<Area> {
    let (d, params) = (ctx.d, &ctx.params);
    let device_of = |node: usize| match plan.role[node] {
        Role::Device(e) => Some(GateRef { from: gates[e].from, to: gates[e].to }),
        _ => None,
    };
    let mut used = Used::new(d);
    let composed = crate::nw3::episode::area_names(&d.episode, s.n, &mut ctx.root.child("nw3/area-names"));
    let ids: Vec<u32> = (1..=s.n as u32).collect();
    // An area reached only after the Ruler's fight holds nothing that helps against the Ruler.
    let before = Net::of(&ids, gates).before_ruler(s.id[0], s.id[s.ruler()]);
    let stocking = Stocking {
        d,
        chart: ctx.chart,
        cl: params.cl,
        party: params.party,
        foes: combat::PartyModel::of(params),
        late: late_areas(&ids, before.as_ref()),
    };
    let mut stream = String::with_capacity(16);
    let mut areas: Vec<Area> = Vec::with_capacity(s.n);
    for (pos, &node) in node_of.iter().enumerate() {
        let id = pos as u32 + 1;
        let mut area = blank_area(d, common, pos, kinds[pos]);
        if let Some((name, description)) = composed.as_ref().and_then(|c| c.get(pos)) {
            (area.name, area.description) = (name.clone(), description.clone());
        }
        let mut dice = ctx.root.child(area_stream(&mut stream, id));
        let ruler_here = (plan.role[node] == Role::Ruler).then_some(common.ruler);
        stock(&stocking, &mut area, device_of(node), ruler_here, &mut dice, &mut used);
        areas.push(area);
    }
    areas
}

/// Area `pos + 1` before stocking: named from the shuffled locations, which are dealt again
/// with a numeral ("II", "III", ...) once every location has been used.
fn blank_area(d: &Nw3Data, common: &Common, pos: usize, kind: AreaKind) -> Area {
    let loc = &d.areas[common.names[pos % common.names.len()]];
    let round = pos / common.names.len();
    let name =
        if round == 0 { loc.name.clone() } else { format!("{}{}", loc.name, NUMERALS[round.min(NUMERALS.len() - 1)]) };
    Area {
        id: pos as u32 + 1,
        name,
        kind,
        appearance_difficulty: 0,
        optional: false,
        description: loc.description.clone(),
        event: None,
        trap: None,
        enemies: Vec::new(),
        objects: Vec::new(),
        danger_sense: None,
        notes: String::new(),
        locked: false,
    }
}

/// The finished fortress around its areas and (sorted) gates: the frame named after the
/// Entrance, the generator's stamp, and the derived paths.
fn fortress(ctx: &Ctx, common: &Common, areas: Vec<Area>, gates: Vec<Gate>, ruler_area: u32) -> Fortress {
    let params = &ctx.params;
    let frame = frame(ctx.d, common, combat::PartyModel::of(params), ruler_area);
    let mut f = Fortress {
        system: System::Nw3,
        format: crate::model::FILE_FORMAT,
        seed: ctx.seed,
        generator: Generator {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
            tables: ctx.tables.version.to_string(),
        },
        params: *params,
        paper: Default::default(),
        party: Party { size: params.party, cl: params.cl },
        title: frame.title,
        trailer: frame.trailer,
        ruler: frame.ruler,
        logic: frame.logic,
        entrance_condition: frame.entrance_condition,
        core: frame.core,
        areas,
        gates,
        notes: String::new(),
        frame_locked: false,
        rerolls: Vec::new(),
        episode: None,
    };
    derive_paths(&mut f);
    f
}

/// Rolls the episode of a finished fortress (stream `nw3/episode` below `root`) and gives its
/// judged events their outcomes from their own records; `entrance` is the Entrance record's text, whose
/// `{keyword}` or `{item}` the episode fills. The workbench rolls the episode on the same
/// streams below its own (`reroll frame`, `fortress --from`).
pub(crate) fn put_episode(d: &Nw3Data, f: &mut Fortress, entrance: &str, root: &Dice) {
    f.episode = crate::nw3::episode::roll_episode(d, f, entrance, &mut root.child("nw3/episode"));
    crate::nw3::events::event_outcomes(d, f);
}

/// The fortress-wide parts (what the workbench calls the `frame`), built from the picks.
pub(crate) struct Frame {
    pub title: String,
    pub trailer: String,
    pub ruler: Ruler,
    pub logic: Vec<Logic>,
    pub entrance_condition: EntranceCondition,
    pub core: Core,
}

/// The frame from the picks: the title and trailer name `place` (the Entrance's name), the Ruler
/// and Core; the Ruler fights with its stat block for the party and is met in `ruler_area`.
pub(crate) fn frame(d: &Nw3Data, common: &Common, foes: combat::PartyModel, ruler_area: u32) -> Frame {
    let ruler = common.ruler;
    let ruler_block = combat::ruler_block(d, ruler, foes);
    Frame {
        title: common.title.to_string(),
        trailer: common.trailer.to_string(),
        ruler: Ruler {
            name: ruler.name.clone(),
            title: ruler.title.clone(),
            description: ruler.description.clone(),
            motive: common.motive.to_string(),
            spd: ruler.spd,
            initiative: ruler.spd + ANY_SEVEN,
            area: ruler_area,
            stats: Some(ruler_block.stats),
            attacks: ruler_block.attacks,
            skills: ruler_block.skills,
        },
        logic: common.logic.iter().map(|l| Logic { name: l.name.clone(), effect: l.effect.clone() }).collect(),
        entrance_condition: EntranceCondition { kind: common.entrance.kind, text: common.entrance.text.clone() },
        core: Core { name: common.core.name.clone(), description: common.core.description.clone() },
    }
}

/// Fills in what follows from the graph: appearance difficulties and optional areas, with the
/// same reachability code `check` uses.
pub fn derive_paths(f: &mut Fortress) {
    let net = Net::new(f);
    let Some(e) = f.areas.iter().position(|a| a.kind == AreaKind::Entrance) else { return };
    let dist = net.distances(e);
    let sure = net.reach(e, &NONE, GUARANTEED);
    let maybe = net.reach(e, &NONE, OPTIMISTIC);
    for (i, a) in f.areas.iter_mut().enumerate() {
        if let Some(d) = dist[i] {
            a.appearance_difficulty = APPEARANCE_BASE + APPEARANCE_PER_GATE * d;
        }
        a.optional = a.kind != AreaKind::Core && !has(&sure, i) && has(&maybe, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Tables {
        Tables::embedded().expect("embedded tables")
    }

    #[test]
    fn area_streams_are_named_by_id() {
        let mut buf = String::new();
        assert_eq!(area_stream(&mut buf, 7), "nw3/area/7");
        assert_eq!(area_stream(&mut buf, 40), "nw3/area/40");
        assert_eq!(area_stream(&mut buf, 0), "nw3/area/0");
    }

    #[test]
    fn tables_without_nw3_content_are_an_error() {
        let t = Tables::from_files("my-tables".into(), &[("t.toml".into(), String::new())]).unwrap();
        let e = generate(&t, &FortressParams::default(), 1).unwrap_err().to_string();
        assert_eq!(e, "`my-tables`: holds no NW3 fortress content (`[nw3]` sections)");
    }

    #[test]
    fn out_of_range_options_name_the_option() {
        let p = FortressParams { areas: 41, ..Default::default() };
        assert_eq!(p.validate().unwrap_err().to_string(), "`areas` must be 3 to 40, got 41");
        let p = FortressParams { party: 0, ..Default::default() };
        assert_eq!(p.validate().unwrap_err().to_string(), "`party` must be 1 to 8, got 0");
        let p = FortressParams { cl: 21, ..Default::default() };
        assert_eq!(p.validate().unwrap_err().to_string(), "`cl` must be 1 to 20, got 21");
        assert!(FortressParams::default().validate().is_ok());
    }

    #[test]
    fn the_same_seed_gives_the_same_fortress() {
        let t = tables();
        let p = FortressParams::default();
        let a = generate(&t, &p, 42).unwrap();
        let b = generate(&t, &p, 42).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, generate(&t, &p, 43).unwrap());
    }

    #[test]
    fn a_fortress_has_the_asked_areas_one_entrance_and_one_core_deepest() {
        let t = tables();
        for areas in [3, 4, 5, 10, 25, 40] {
            for seed in 0..20 {
                let f = generate(&t, &FortressParams { areas, ..Default::default() }, seed).unwrap();
                assert_eq!(f.areas.len(), areas as usize);
                assert_eq!(f.areas[0].kind, AreaKind::Entrance);
                let core = f.areas.last().unwrap();
                assert_eq!(core.kind, AreaKind::Core);
                let deepest = f.areas.iter().map(|a| a.appearance_difficulty).max().unwrap();
                assert_eq!(core.appearance_difficulty, deepest, "seed {seed} areas {areas}");
                assert!(core.appearance_difficulty >= 12, "the Core sits at least two gates in");
            }
        }
    }

    #[test]
    fn larger_fortresses_branch_and_loop() {
        let t = tables();
        let mut loops = 0;
        for seed in 0..50 {
            let f = generate(&t, &FortressParams { areas: 12, ..Default::default() }, seed).unwrap();
            // a tree has n - 1 gates; more means loops
            loops += usize::from(f.gates.len() > f.areas.len() - 1);
            let mut degree = vec![0; f.areas.len() + 1];
            for g in &f.gates {
                degree[g.from as usize] += 1;
                degree[g.to as usize] += 1;
            }
            assert!(degree.iter().any(|&d| d >= 3), "seed {seed}: no branch");
        }
        assert!(loops > 40, "only {loops} of 50 fortresses have a loop");
    }

    #[test]
    fn every_gate_kind_and_area_kind_appears() {
        let t = tables();
        let mut gate_kinds = std::collections::BTreeSet::new();
        let mut area_kinds = std::collections::BTreeSet::new();
        let mut optional = 0;
        let mut devices = 0;
        for seed in 0..100 {
            let f = generate(&t, &FortressParams::default(), seed).unwrap();
            gate_kinds.extend(f.gates.iter().map(|g| g.kind));
            area_kinds.extend(f.areas.iter().map(|a| a.kind));
            optional += f.areas.iter().filter(|a| a.optional).count();
            devices += f.gates.iter().filter(|g| matches!(g.opened_by, Some(Opener::Device(_)))).count();
        }
        assert_eq!(gate_kinds.len(), 5, "{gate_kinds:?}");
        assert_eq!(area_kinds.len(), 7, "{area_kinds:?}");
        assert!(optional > 0 && devices > 10, "optional {optional}, devices {devices}");
    }

    #[test]
    fn the_first_gate_plan_passes_the_check_in_300_fortresses() {
        let t = tables();
        let mut retries = 0;
        for seed in 0..300u64 {
            let params = FortressParams {
                areas: 3 + (seed % 38) as u32,
                party: 4,
                cl: 1 + (seed % 20) as u32,
                ..Default::default()
            };
            let ctx = Ctx::new(&t, &params, seed).unwrap();
            let shape = Shape::build(&mut ctx.root.child("nw3/graph"), params.areas as usize);
            let common = Common::roll(&t.nw3, &ctx.root);
            let plan = Plan::roll(&shape, &mut ctx.root.child("nw3/gates"));
            let f = assemble(&ctx, &shape, &plan, &common);
            let v = check(&f, &t);
            if !v.is_empty() {
                retries += 1;
                eprintln!("seed {seed}: {v:?}");
            }
        }
        assert_eq!(retries, 0, "the first gate plan failed {retries} times in 300");
    }
}
