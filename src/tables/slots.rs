//! Which slots each kind of pool text binds, for both games: the one table the loaders check a
//! pool against (a slot its kind does not bind is refused at load, naming file, entry and slot)
//! and the pools' NOTES list. See [`crate::text`] for what a slot is.

use crate::text::SlotSet;

/// What every MYK story text can name: the scenario as it stands when a booklet is made.
const MYK_COMMON: &[&str] = &[
    "kingdom",
    "map",
    "ruler",
    "target",
    "target_room",
    "target_at",
    "patron",
    "captive",
    "rival",
    "rival_kingdom",
    "item",
    "reward",
];

const fn set(kind: &'static str, names: &'static [&'static str]) -> SlotSet {
    SlotSet { kind, names, extra: &[] }
}

/// A set of the common names and `extra`, the ones only this kind binds.
const fn with(kind: &'static str, names: &'static [&'static str], extra: &'static [&'static str]) -> SlotSet {
    SlotSet { kind, names, extra }
}

/// The MYK story pools (`tables/myk/story.toml`), by the name of their `[[section]]`.
pub const MYK: &[SlotSet] = &[
    set("title", MYK_COMMON),
    set("objective", MYK_COMMON),
    with("prologue", MYK_COMMON, &["patron_who", "patron_job"]),
    with("stake", MYK_COMMON, &["member"]),
    with("personality", MYK_COMMON, &["npc"]),
    set("want", MYK_COMMON),
    set("ruler_motive", MYK_COMMON),
    set("ruler_line", MYK_COMMON),
    set("clue_search", MYK_COMMON),
    set("clue_threat", MYK_COMMON),
    with("clue_talk", MYK_COMMON, &["npc", "gift"]),
    with("clue_condition", MYK_COMMON, &["npc", "gift"]),
    set("puzzle", &[]),
    // A clue's players' text names its own fact's things only (issue 46): the revealed room (its
    // id `room`, `room_name`) and map, and what the fact says stands there: each kind exactly
    // the names its fact's own line names (`clues::Fact::text`).
    set("clue_fact.ruler", &["room", "map", "ruler"]),
    // `weak_tell`: what the weak points mean for this ruler, in the players' words (`myk::weak_story`).
    set("clue_fact.weak_point", &["room", "map", "ruler", "weak_points", "weak_tell"]),
    set("clue_fact.secret_door", &["room", "corridor"]),
    set("clue_fact.teleport", &["room", "trap", "object", "to"]),
    set("clue_fact.trap", &["room", "room_name", "trap"]),
    set("clue_fact.base", &["room", "room_name", "base"]),
    set("clue_fact.monsters", &["room", "room_name", "monsters"]),
    set("clue_fact.safe", &["room", "room_name"]),
    set("clue_fact.corridor_trap", &["corridor", "trap"]),
    set("clue_fact.target", &["room", "room_name", "map", "target"]),
    set("mini_event", MYK_COMMON),
    set("movement", MYK_COMMON),
    set("success", MYK_COMMON),
    set("failure", MYK_COMMON),
    set("change", MYK_COMMON),
    set("farewell", MYK_COMMON),
    set("retry", MYK_COMMON),
];

/// What every NW3 episode text can name: the fortress and its episode as they stand.
const NW3_ALL: &[&str] =
    &["town", "place", "core", "ruler", "former", "wish", "keyword", "item", "victim", "npc", "pc", "where"];

/// An Entrance item's "where found", which is itself `{where}`.
const NW3_WHERE: &[&str] =
    &["town", "place", "core", "ruler", "former", "wish", "keyword", "item", "victim", "npc", "pc"];

/// The NW3 episode pools (`tables/nw3/episode.toml`), by section (`section.field` where one
/// field of a section differs). A text that is itself a slot's value (a name part, a wish, a
/// keyword, an item's or a Connection's name) names no slot: a value is never filled again.
pub const NW3: &[SlotSet] = &[
    set("trailer_open", NW3_ALL),
    set("trailer_turn", NW3_ALL),
    set("trailer_close", NW3_ALL),
    set("hook", NW3_ALL),
    set("connection", NW3_ALL),
    set("former_life", NW3_ALL),
    set("place_reason", NW3_ALL),
    set("victim_reason", NW3_ALL),
    set("ruler_line", NW3_ALL),
    set("keyword", NW3_ALL),
    set("item", NW3_WHERE),
    set("opening", NW3_ALL),
    // A Logic's first sign (`[[nw3.logic]]` `sign`), an Opening scene of its own.
    set("logic_sign", NW3_ALL),
    set("legwork", NW3_ALL),
    set("scene_place", NW3_ALL),
    set("scene_says", NW3_ALL),
    set("scene_party", NW3_ALL),
    set("master_scene", NW3_ALL),
    // The Ruler's area, where the finale sets the Climax.
    with("climax", NW3_ALL, &["lair"]),
    with("ending", NW3_ALL, &["lair"]),
    set("given_name", &[]),
    set("family_name", &[]),
    set("wish", &[]),
    set("area_adjective", &[]),
    set("area_noun", &[]),
    set("area_detail", &[]),
    set("connection.name", &[]),
    set("keyword.word", &[]),
    set("item.name", &[]),
];

/// The slot set of pool kind `kind` in `sets` (a kind not listed binds nothing).
pub fn of(sets: &'static [SlotSet], kind: &str) -> &'static SlotSet {
    const NONE: SlotSet = SlotSet { kind: "unlisted", names: &[], extra: &[] };
    sets.iter().find(|s| s.kind == kind).unwrap_or(&NONE)
}

/// The slot list as the pools' NOTES print it: one line per kind, `- kind: a, b, c`.
pub fn notes_lines(sets: &[SlotSet]) -> Vec<String> {
    sets.iter()
        .map(|s| {
            let all: Vec<&str> = s.names.iter().chain(s.extra).copied().collect();
            let names = if all.is_empty() { "(none)".to_string() } else { all.join(", ") };
            format!("- `{}`: {names}", s.kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `notes` between `<!-- slots:GAME -->` and its end marker.
    fn listed(notes: &str, game: &str) -> Vec<String> {
        let open = format!("<!-- slots:{game} -->\n");
        let start = notes.find(&open).map(|i| i + open.len()).expect("the NOTES list the slots");
        let end = notes[start..].find("<!-- /slots:").map(|i| start + i).expect("the list ends");
        notes[start..end].lines().map(str::to_string).collect()
    }

    /// The pools' NOTES say which slots each kind may name, as this table has them.
    #[test]
    fn the_notes_list_each_kinds_slots_as_the_table_has_them() {
        assert_eq!(listed(include_str!("../../tables/myk/NOTES.md"), "myk"), notes_lines(MYK));
        assert_eq!(listed(include_str!("../../tables/nw3/NOTES.md"), "nw3"), notes_lines(NW3));
    }
}
