//! Where a mini event can happen (seed 003 l.2395-2460): a shop, a festival or a deserter needs a
//! room where the court can stop and talk, so never a ruler's room and never a room a hostile
//! group holds (a shopkeeper among hostile zombies, a holiday in the ruler's hall, issue 46). The
//! generator places each event by [`fits`], a reroll moves one that no longer fits, and `check`
//! refuses the rest ([`check`]).

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{Map, MiniEvent, Place, Reaction, Room, RoomId, Scenario};

/// Whether a mini event can happen in room `r`: it is used, no ruler stands in it and no hostile
/// group holds it.
pub fn fits(r: &Room) -> bool {
    r.used && r.ruler.is_none() && !r.monsters.iter().any(|g| g.reaction == Reaction::Hostile)
}

/// The rooms of `m` a mini event can happen in, in room order.
pub fn rooms(m: &Map) -> impl Iterator<Item = RoomId> + '_ {
    m.used_rooms().filter(|r| fits(r)).map(|r| r.id)
}

/// Moves every mini event whose room no longer fits (after a reroll) to a room of its map that
/// does; one whose map has none, or is gone, is dropped. Returns whether anything changed.
pub fn repair(s: &mut Scenario, d: &mut Dice) -> bool {
    let Some(story) = s.story.as_ref() else { return false };
    let mut kept: Vec<MiniEvent> = Vec::with_capacity(story.mini_events.len());
    let mut changed = false;
    for e in &story.mini_events {
        let Some(m) = s.map(e.at.map) else {
            changed = true;
            continue;
        };
        if fits(m.room(e.at.room)) {
            kept.push(e.clone());
            continue;
        }
        changed = true;
        if let Some(room) = d.choose_from(|| rooms(m)) {
            kept.push(MiniEvent { at: Place { map: m.index, room }, ..e.clone() });
        }
    }
    if let Some(st) = s.story.as_mut() {
        st.mini_events = kept;
    }
    changed
}

/// `check`'s rules: a mini event stands in a used room of a map of the scenario, not in a
/// ruler's room and not among hostile monsters. One line each.
pub fn check(s: &Scenario, v: &mut Vec<Violation>) {
    let Some(story) = &s.story else { return };
    for (i, e) in story.mini_events.iter().enumerate() {
        let at = || format!("mini event {}", i + 1);
        let (map, room) = (e.at.map, e.at.room);
        let Some(r) = s.map(map).map(|m| m.room(room)).filter(|r| r.used) else {
            let msg =
                format!("`{}` is placed in map {map} room {room}, which is no used room of the scenario", e.title);
            v.push(Violation::new(at(), "mini-event.place", msg));
            continue;
        };
        if let Some(ru) = &r.ruler {
            let msg = format!("`{}` happens in map {map} room {room}, the room of the ruler {}", e.title, ru.name);
            v.push(Violation::new(at(), "mini-event.ruler", msg));
        }
        if let Some(g) = r.monsters.iter().find(|g| g.reaction == Reaction::Hostile) {
            let msg = format!("`{}` happens in map {map} room {room}, among the hostile {}", e.title, g.name);
            v.push(Violation::new(at(), "mini-event.hostile", msg));
        }
    }
}
