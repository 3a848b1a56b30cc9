//! The scenario's texts that name its parts (objective, introduction, resolution, clues), produced from
//! the scenario as it stands, so a GM's edit (a renamed room or map, a removed ruler) never leaves
//! them stale. The generator, `normalize` and the renderers all call these functions.

use crate::myk::model::{Clue, Map, Reveals, Room, Ruler, Scenario};

/// The last map (the objective's map) and its ruler with the ruler's room, if it has one.
fn last_ruler(s: &Scenario) -> Option<(&Map, Option<(&Room, &Ruler)>)> {
    let last = s.maps.last()?;
    Some((last, last.rooms.iter().find_map(|r| r.ruler.as_ref().map(|ru| (r, ru)))))
}

/// The room of the objective's target: the objective's own `at`, or for a file that predates
/// objective kinds the last map's ruler, if it has one.
pub fn objective_room(s: &Scenario) -> Option<crate::myk::model::Place> {
    if let Some(at) = s.objective.at {
        return Some(at);
    }
    match last_ruler(s)? {
        (m, Some((room, _))) => Some(crate::myk::model::Place { map: m.index, room: room.id }),
        _ => None,
    }
}

/// The title the generator gives: named after the first map (a reroll of that map renames it).
pub fn title(s: &Scenario) -> String {
    let first = s.maps.first().map_or("", |m| m.name.as_str());
    ["The ", if s.maps.len() > 1 { "Depths" } else { "Conquest" }, " of ", first].concat()
}

/// The objective as the GM states it: its text with the placeholders filled from the scenario as
/// it stands; a file that predates objective kinds reads as defeating the last map's ruler.
pub fn objective(s: &Scenario) -> String {
    if s.objective.text.is_empty() {
        return legacy_objective(s);
    }
    crate::myk::story::Fill::of(s).text(&s.objective.text)
}

/// The objective of old: defeat the last map's ruler, or, when that map has none, say so.
fn legacy_objective(s: &Scenario) -> String {
    match last_ruler(s) {
        Some((m, Some((room, ruler)))) => [
            "Defeat ",
            &ruler.name,
            ", ruler of the ",
            &m.name,
            " (map ",
            itoa::Buffer::new().format(m.index),
            ", room ",
            room.id.name(),
            " \"",
            &room.name,
            "\"), and make the map the kingdom's territory.",
        ]
        .concat(),
        Some((m, None)) => [
            "No ruler holds the ",
            &m.name,
            " (map ",
            itoa::Buffer::new().format(m.index),
            "): explore its rooms, deal with whatever threatens the court there, \
             and make the map the kingdom's territory.",
        ]
        .concat(),
        None => "The scenario has no map.".into(),
    }
}

/// Fills the slots of an introduction or resolution text: `{ruler}` (the last map's ruler, or a
/// truthful stand-in when it has none), `{map}` (the last map's name), `{npc}` (the first of the
/// cast) and the story's own ([`crate::myk::story::Fill::of`]).
pub fn fill(s: &Scenario, text: &str) -> String {
    let (map, ruler) = match last_ruler(s) {
        Some((m, r)) => (m.name.as_str(), r.map(|(_, ru)| ru.name.as_str().into())),
        None => ("dungeon", None),
    };
    // The stand-in is raised where it opens a sentence, as every value is.
    let ruler = ruler.unwrap_or_else(|| ["whoever holds the ", map].concat().into());
    let npc = s.cast.first().map_or("a stranger", |c| c.name.as_str());
    let f = crate::myk::story::Fill {
        ruler: Some(ruler),
        map: Some(map.into()),
        npc: Some(npc.into()),
        ..crate::myk::story::Fill::of(s)
    };
    // An older file's resolution labels its sentences ("Success: {ruler} is gone"): the stand-in
    // opens them.
    f.text(&text.replace(": {ruler}", ": {ruler|cap}"))
}

/// A clue's text with its slots filled from what it reveals, as the scenario stands: `{map}`
/// (the revealed map's name), `{room_name}` (the revealed room's name), `{ruler}` (the ruler in
/// the revealed room, "the ruler" if there is none any more) and `{target}`.
pub fn clue_text(s: &Scenario, clue: &Clue) -> String {
    let map = s.map(clue.reveals.map());
    let room = match (map, clue.reveals) {
        (Some(m), Reveals::Room(p)) => Some(m.room(p.room)),
        _ => None,
    };
    let ruler = room.and_then(|r| r.ruler.as_ref()).map_or("the ruler", |r| r.name.as_str());
    let values = ClueValues {
        target: &s.objective.target,
        ruler,
        room_name: room.map_or("", |r| r.name.as_str()),
        map: map.map_or("dungeon", |m| m.name.as_str()),
    };
    crate::text::fill(&clue.text, &values)
}

/// The values of a clue's own text.
struct ClueValues<'s> {
    target: &'s str,
    ruler: &'s str,
    room_name: &'s str,
    map: &'s str,
}

impl crate::text::Values for ClueValues<'_> {
    fn value(&self, name: &str, _arg: Option<&str>) -> Option<std::borrow::Cow<'_, str>> {
        Some(
            match name {
                "target" => self.target,
                "ruler" => self.ruler,
                "room_name" => self.room_name,
                "map" => self.map,
                _ => return None,
            }
            .into(),
        )
    }
}
