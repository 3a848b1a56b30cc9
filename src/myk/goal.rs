//! The objective's timing and rules that the room keys print: a race's arrival Quarter, derived
//! from the map, and its check. The generator, `normalize` (so `fix` and `render`) and `check`
//! all go through here, so the arrival has one rule.

use crate::check::Violation;
use crate::myk::model::{ObjectiveKind, Place, Scenario};

/// Quarters a race leaves the court beyond the fewest rooms it must enter to reach the goal:
/// one for a fight, one for a trap or a lock on the way (see tables/myk/NOTES.md).
pub const RACE_SLACK: u32 = 2;

/// The fewest rooms the court enters from the way in from outside (the first map's outside
/// entrance, entered in Quarter 1) to `goal`, one room per Quarter (seed 003 l.1737), crossing
/// maps by their entrances. Corridors count both ways: a lock or a one-way floor costs time, not
/// the way. `None` when the goal cannot be reached at all.
pub fn rooms_to(s: &Scenario, goal: Place) -> Option<u32> {
    let pos = |index: u32| s.maps.iter().position(|m| m.index == index);
    let node = |map: usize, room: crate::myk::model::RoomId| map * 9 + room.index();
    let start = s.maps.first()?.entrances.iter().find(|e| e.to.is_none())?.room;
    let target = node(pos(goal.map)?, goal.room);
    let mut dist: Vec<Option<u32>> = vec![None; s.maps.len() * 9];
    dist[node(0, start)] = Some(1);
    let mut queue = std::collections::VecDeque::from([(0usize, start)]);
    while let Some((mi, r)) = queue.pop_front() {
        let here = dist[node(mi, r)].unwrap_or(1);
        if node(mi, r) == target {
            return Some(here);
        }
        let m = &s.maps[mi];
        let along = m.corridors.iter().filter(|c| c.a == r || c.b == r).map(|c| (mi, c.id().other(r)));
        let across =
            m.entrances.iter().filter(|e| e.room == r).filter_map(|e| e.to).filter_map(|p| Some((pos(p.map)?, p.room)));
        for (mj, next) in along.chain(across).collect::<Vec<_>>() {
            if dist[node(mj, next)].is_none() {
                dist[node(mj, next)] = Some(here + 1);
                queue.push_back((mj, next));
            }
        }
    }
    None
}

/// A race's arrival as the map gives it: the court's fewest rooms to the goal plus
/// [`RACE_SLACK`], so a court that goes straight there wins with time to spare. `None` for any
/// other kind, or a goal the map does not reach. The generator makes the Scenario Movement at
/// least this long.
pub fn race_quarters(s: &Scenario) -> Option<u32> {
    let o = &s.objective;
    if o.kind != ObjectiveKind::Race {
        return None;
    }
    rooms_to(s, o.at?).map(|n| n + RACE_SLACK)
}

/// The Scenario Movement's last Quarter (none without a story).
fn last_quarter(s: &Scenario) -> Option<u32> {
    s.story.as_ref().and_then(|st| st.movement.iter().map(|q| q.quarter).max())
}

/// [`race_quarters`] within the Scenario Movement's Quarters (an older file's Movement may be
/// shorter than the way: the rival then arrives in its last Quarter).
pub fn derived_arrival(s: &Scenario) -> Option<u32> {
    let n = race_quarters(s)?;
    Some(last_quarter(s).map_or(n, |last| n.min(last.max(1))))
}

/// The Quarter at whose end the rival's court reaches the goal: the file's own, else derived.
pub fn arrival(s: &Scenario) -> Option<u32> {
    if s.objective.kind != ObjectiveKind::Race {
        return None;
    }
    s.objective.arrives.or_else(|| derived_arrival(s))
}

/// Gives a race objective without an arrival (a file older than format 4) the derived one.
pub fn fill_arrival(s: &mut Scenario) {
    if s.objective.kind == ObjectiveKind::Race && s.objective.arrives.is_none() {
        s.objective.arrives = derived_arrival(s);
    }
}

/// The arrival's rules: only a race has one, and it falls within the Scenario Movement.
pub fn check(s: &Scenario, v: &mut Vec<Violation>) {
    let Some(n) = s.objective.arrives else { return };
    if s.objective.kind != ObjectiveKind::Race {
        v.push(Violation::new(
            "objective",
            "objective.arrives",
            format!(
                "only a race objective has an arrival Quarter; this {} objective names {n}",
                s.objective.kind.name()
            ),
        ));
        return;
    }
    let last = last_quarter(s).unwrap_or(n);
    if n == 0 || n > last {
        v.push(Violation::new(
            "objective",
            "objective.arrives",
            format!(
                "the rival's court arrives at the end of Quarter {n}, outside the Scenario Movement's Quarters 1-{last}"
            ),
        ));
    }
}
