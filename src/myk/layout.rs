//! Map layout: which rooms are used and how corridors join them, for the three layout styles.
//!
//! Straight: one path through the rooms, entry first, the ruler's room last.
//! Junction: a random tree grown from the entry room with at least one room of 3+ corridors.
//! Mixed: a junction tree, sometimes one extra corridor closing a loop, and one leaf room picked to
//! be reached only by special movement (the generator hides or replaces its corridor).

use crate::dice::Dice;
use crate::myk::model::{CorridorId, Layout, RoomId};

/// A map's skeleton before stocking.
#[derive(Clone, Debug)]
pub struct Skeleton {
    pub used: [bool; 9],
    pub corridors: Vec<CorridorId>,
    /// Where the court comes in (from outside or the previous map); always has an exterior wall.
    pub entry: RoomId,
    /// Where the way to the next map leaves, when there is a next map; always has an exterior wall.
    pub exit: Option<RoomId>,
    /// The ruler's room: the end of the path, or the room farthest from the entry.
    pub ruler: RoomId,
    /// A leaf room to be reached only by special movement (mixed layout), with its one corridor.
    pub special: Option<(RoomId, CorridorId)>,
    /// Set when the options asked for something the sheet cannot give (e.g. a junction of 3 rooms).
    pub note: Option<String>,
}

/// Whether a room has a wall on the sheet's edge: every room but the centre one (B2).
fn exterior(r: RoomId) -> bool {
    r.index() != 4
}

/// Lays out one map of `rooms` rooms (3-9). `needs_exit` asks for a second exterior room for the
/// way to the next map.
pub fn layout(dice: &mut Dice, style: Layout, rooms: u32, needs_exit: bool) -> Skeleton {
    let n = rooms.clamp(3, 9) as usize;
    match style {
        Layout::Straight => straight(dice, n, needs_exit),
        Layout::Junction => tree(dice, n, needs_exit, false),
        Layout::Mixed => tree(dice, n, needs_exit, true),
    }
}

fn straight(dice: &mut Dice, n: usize, needs_exit: bool) -> Skeleton {
    let starts: Vec<RoomId> = RoomId::ALL.into_iter().filter(|&r| exterior(r)).collect();
    // A self-avoiding walk of n rooms, found by randomised depth-first search (tiny grid, so cheap).
    for _ in 0..64 {
        let Some(&start) = dice.choose(&starts) else { break };
        let mut path = vec![start];
        if walk(dice, &mut path, n, needs_exit) {
            let corridors = path.windows(2).map(|w| CorridorId::new(w[0], w[1])).collect();
            let mut used = [false; 9];
            for r in &path {
                used[r.index()] = true;
            }
            let last = *path.last().unwrap_or(&start);
            return Skeleton {
                used,
                corridors,
                entry: start,
                exit: needs_exit.then_some(last),
                ruler: last,
                special: None,
                note: None,
            };
        }
    }
    // A 3x3 sheet always has a snake path from a corner, so this is never reached in practice.
    tree(dice, n, needs_exit, false)
}

fn walk(dice: &mut Dice, path: &mut Vec<RoomId>, n: usize, needs_exit: bool) -> bool {
    let here = *path.last().unwrap_or(&RoomId::ALL[0]);
    if path.len() == n {
        return !needs_exit || exterior(here);
    }
    let mut next: Vec<RoomId> = here.neighbours().filter(|r| !path.contains(r)).collect();
    dice.shuffle(&mut next);
    for r in next {
        path.push(r);
        if walk(dice, path, n, needs_exit) {
            return true;
        }
        path.pop();
    }
    false
}

/// Each room's neighbours on the sheet by index, in [`RoomId::neighbours`] order (above, left,
/// right, below): the layouts look them up in their inner loops.
const NEIGHBOURS: [&[usize]; 9] =
    [&[1, 3], &[0, 2, 4], &[1, 5], &[0, 4, 6], &[1, 3, 5, 7], &[2, 4, 8], &[3, 7], &[4, 6, 8], &[5, 7]];

/// Corridor steps from `from` to every room (usize::MAX when unreachable), over `corridors`.
pub fn distances(corridors: &[CorridorId], from: RoomId) -> [usize; 9] {
    let mut d = [usize::MAX; 9];
    d[from.index()] = 0;
    // A room is queued once at most: nine places on the stack.
    let mut queue = [from; 9];
    let (mut i, mut len) = (0, 1);
    while i < len {
        let r = queue[i];
        i += 1;
        for c in corridors.iter().filter(|c| c.touches(r)) {
            let o = c.other(r);
            if d[o.index()] == usize::MAX {
                d[o.index()] = d[r.index()] + 1;
                queue[len] = o;
                len += 1;
            }
        }
    }
    d
}

/// A random spanning tree of `n` rooms grown from an exterior entry, tried up to 48 times for
/// one with a junction (a room with three corridors); `mixed` also sets one leaf apart as the
/// special-movement room and may add a loop. The first try stands in if none has a junction.
fn tree(dice: &mut Dice, n: usize, needs_exit: bool, mixed: bool) -> Skeleton {
    let mut exteriors = [RoomId::ALL[0]; 9];
    let mut len = 0;
    for r in RoomId::ALL.into_iter().filter(|&r| exterior(r)) {
        exteriors[len] = r;
        len += 1;
    }
    let starts = &exteriors[..len];
    let mut best: Option<Skeleton> = None;
    for attempt in 0..48 {
        let Some(&entry) = dice.choose(starts) else { break };
        let Grown { used, inside_at, grown, mut corridors, degrees, dist } = grow(dice, entry, n);
        let inside = &inside_at[..grown];
        let has_junction = inside.iter().any(|&r| degrees[r.index()] >= 3);
        let far = |pred: &dyn Fn(RoomId) -> bool| {
            inside.iter().copied().filter(|&r| pred(r)).max_by_key(|r| (dist[r.index()], std::cmp::Reverse(*r)))
        };
        // Mixed: one leaf (not the entry) becomes the special-movement room.
        let mut leaves = [entry; 9];
        let mut n_leaves = 0;
        for &r in inside.iter().filter(|&&r| r != entry && degrees[r.index()] == 1) {
            leaves[n_leaves] = r;
            n_leaves += 1;
        }
        let special_room = if mixed && n >= 4 { dice.choose(&leaves[..n_leaves]).copied() } else { None };
        let ordinary = |r: RoomId| Some(r) != special_room;
        let exit = if needs_exit { far(&|r| exterior(r) && ordinary(r) && (r != entry || n == 1)) } else { None };
        let Some(ruler) = far(&ordinary) else { continue };
        if needs_exit && exit.is_none() {
            continue;
        }
        let special = special_room.and_then(|s| corridors.iter().copied().find(|c| c.touches(s)).map(|c| (s, c)));
        if mixed {
            add_loop(dice, inside, &used, &mut corridors, special);
        }
        let skeleton = Skeleton { used, corridors, entry, exit, ruler, special, note: None };
        if has_junction || n < 4 {
            return skeleton;
        }
        if attempt == 0 {
            best = Some(skeleton);
        }
    }
    let mut s = best.unwrap_or_else(|| straight(dice, n, needs_exit));
    s.note = Some(format!("{n} rooms gave no junction in 48 tries; the map is laid out as a branch-free tree"));
    s
}

/// A tree as grown: everything on the stack (at most nine rooms), since most tries are thrown away.
struct Grown {
    used: [bool; 9],
    /// The rooms in the order they joined; the first `grown` are set.
    inside_at: [RoomId; 9],
    grown: usize,
    corridors: Vec<CorridorId>,
    /// Each room's corridor count (the tree's corridors are all distinct).
    degrees: [usize; 9],
    /// Each room's corridor steps from the entry: in a tree, its depth, known as it joins.
    dist: [usize; 9],
}

/// Grows a tree of up to `n` rooms from `entry`, one corridor to an unused neighbour at a time,
/// preferring rooms that already have two corridors, so junctions form.
fn grow(dice: &mut Dice, entry: RoomId, n: usize) -> Grown {
    let mut t = Grown {
        used: [false; 9],
        inside_at: [entry; 9],
        grown: 1,
        corridors: Vec::with_capacity(n),
        degrees: [0usize; 9],
        dist: [usize::MAX; 9],
    };
    t.used[entry.index()] = true;
    t.dist[entry.index()] = 0;
    while t.grown < n {
        // Frontier corridors from a used room to an unused neighbour. At most 9 rooms x 4 neighbours.
        let mut frontier = [(entry, entry); 36];
        let mut len = 0;
        for &r in &t.inside_at[..t.grown] {
            for &o in NEIGHBOURS[r.index()].iter().filter(|&&o| !t.used[o]) {
                frontier[len] = (r, RoomId::ALL[o]);
                len += 1;
            }
        }
        let Some(&(from, to)) = dice.weighted(&frontier[..len], |(r, _)| if t.degrees[r.index()] == 2 { 4 } else { 2 })
        else {
            break;
        };
        t.used[to.index()] = true;
        t.inside_at[t.grown] = to;
        t.grown += 1;
        t.corridors.push(CorridorId::new(from, to));
        t.degrees[from.index()] += 1;
        t.degrees[to.index()] += 1;
        t.dist[to.index()] = t.dist[from.index()] + 1;
    }
    t
}

/// An occasional loop (one try in two): joins two used neighbours that have no corridor yet,
/// leaving the special-movement room alone (it is reached only by its special way).
fn add_loop(
    dice: &mut Dice,
    inside: &[RoomId],
    used: &[bool; 9],
    corridors: &mut Vec<CorridorId>,
    special: Option<(RoomId, CorridorId)>,
) {
    // A 3x3 sheet has 12 pairs of neighbours: the candidates fit on the stack.
    let entry = inside[0];
    let mut extra = [CorridorId(entry, entry); 12];
    let mut len = 0;
    for &r in inside {
        for o in NEIGHBOURS[r.index()].iter().map(|&o| RoomId::ALL[o]).filter(|o| *o > r) {
            let c = CorridorId::new(r, o);
            if used[c.0.index()]
                && used[c.1.index()]
                && !corridors.contains(&c)
                && special.is_none_or(|(s, _)| !c.touches(s))
                && len < extra.len()
            {
                extra[len] = c;
                len += 1;
            }
        }
    }
    if dice.chance(1, 2)
        && let Some(&c) = dice.choose(&extra[..len])
    {
        corridors.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degree(corridors: &[CorridorId], r: RoomId) -> usize {
        corridors.iter().filter(|c| c.touches(r)).count()
    }

    fn connected(s: &Skeleton) -> bool {
        let d = distances(&s.corridors, s.entry);
        RoomId::ALL.iter().all(|r| !s.used[r.index()] || d[r.index()] != usize::MAX)
    }

    #[test]
    fn every_room_but_the_centre_has_an_exterior_wall() {
        for r in RoomId::ALL {
            assert_eq!(exterior(r), r.exterior_walls().next().is_some(), "{r}");
        }
    }

    #[test]
    fn the_neighbour_table_is_the_sheets_in_neighbour_order() {
        for r in RoomId::ALL {
            let table: Vec<RoomId> = NEIGHBOURS[r.index()].iter().map(|&o| RoomId::ALL[o]).collect();
            assert_eq!(table, r.neighbours().collect::<Vec<_>>(), "{r}");
        }
    }

    #[test]
    fn a_straight_layout_is_one_path_ending_at_the_ruler() {
        for seed in 0..300 {
            for n in 3..=9 {
                let s = layout(&mut Dice::new(seed), Layout::Straight, n, seed % 2 == 0);
                assert_eq!(s.used.iter().filter(|u| **u).count(), n as usize);
                assert_eq!(s.corridors.len(), n as usize - 1);
                assert!(RoomId::ALL.iter().all(|&r| degree(&s.corridors, r) <= 2), "a path branches nowhere");
                assert_eq!(degree(&s.corridors, s.ruler), 1, "the ruler's room ends the path");
                assert!(connected(&s));
                assert!(exterior(s.entry));
                if let Some(e) = s.exit {
                    assert!(exterior(e));
                }
            }
        }
    }

    #[test]
    fn a_junction_layout_has_a_room_with_three_corridors() {
        for seed in 0..300 {
            for n in 4..=9 {
                let s = layout(&mut Dice::new(seed), Layout::Junction, n, false);
                assert!(RoomId::ALL.iter().any(|&r| degree(&s.corridors, r) >= 3), "seed {seed}, {n} rooms");
                assert!(connected(&s));
                assert!(s.corridors.iter().all(|c| c.0.is_adjacent(c.1)));
            }
        }
    }

    #[test]
    fn a_mixed_layout_sets_aside_a_leaf_for_special_movement() {
        for seed in 0..300 {
            let s = layout(&mut Dice::new(seed), Layout::Mixed, 9, true);
            let (room, corridor) = s.special.expect("nine rooms always have a leaf");
            assert!(corridor.touches(room));
            assert_eq!(degree(&s.corridors, room), 1);
            assert_ne!(room, s.ruler);
            assert_ne!(Some(room), s.exit);
            assert_ne!(room, s.entry);
        }
    }
}
