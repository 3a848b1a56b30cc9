//! The scenario's texts that name its parts (objective, introduction, resolution, clues), produced from
//! the scenario as it stands, so a GM's edit (a renamed room or map, a removed ruler) never leaves
//! them stale. The generator, `normalize` and the renderers all call these functions.

use crate::myk::model::Scenario;

/// The scenario as every renderer and the workbench read it: its stored title filled from the
/// scenario as it stands (the JSON keeps the title's slots, as NW3's [`crate::nw3::text::filled`]
/// keeps a fortress's). Borrowed when the title has no slot (a file of format 6 or older, or a
/// GM's own title).
pub fn filled(s: &Scenario) -> std::borrow::Cow<'_, Scenario> {
    if !s.title.contains('{') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = s.clone();
    out.title = shown_title(s);
    std::borrow::Cow::Owned(out)
}

/// The title as it is printed: its slots filled from the scenario as it stands.
pub fn shown_title(s: &Scenario) -> String {
    crate::myk::story::Fill::of(s).text(&s.title)
}

/// The room of the objective's target ([`Scenario::objective_room`]).
pub fn objective_room(s: &Scenario) -> Option<crate::myk::model::Place> {
    s.objective_room()
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
    match s.last_ruler() {
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
    let (map, ruler) = match s.last_ruler() {
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
