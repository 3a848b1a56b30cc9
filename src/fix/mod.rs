//! `fix`: after a GM's edit, fill in every number and text the rules derive from the rest of the
//! scenario, with the very functions the generator and `check` use, so that `check` afterwards
//! reports only real rule breaks (a limit exceeded, an unsolvable gate graph), never stale
//! arithmetic. A stage of its own between reading a scenario and checking it:
//!
//! - [`myk::fix`]: monster levels and effective levels, traps and bases by name, rulers' levels,
//!   adjustments, effective levels and final stats, clue `how` texts, the encounter table, court
//!   totals, limits, usage and the objective.
//! - [`nw3::fix`]: traps, events, objects, enemy groups and members, the Ruler, Logics and Core by
//!   name for the party's level and size; Danger Sense per area; appearance difficulties and
//!   optional areas from the gate graph; gates' fields their kind does not take.
//!
//! What a GM chooses (names, counts, reactions, corridors, entrances, gate kinds and openers, area
//! kinds, free text such as `notes`) is kept. A name the tables do not know is an error naming the
//! field and the nearest names the tables do know. `fix` of a generated scenario changes nothing.

pub mod myk;
pub mod nw3;

use crate::error::{Error, nearest};

/// The error for a name the tables do not know: the field, the name, and the nearest known names.
pub fn unknown<'a>(field: String, what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> Error {
    not_among(field, what, name, "in the tables", known)
}

/// The error for a name that is not among `known` (`among` says where it was looked for).
pub fn not_among<'a>(
    field: String,
    what: &str,
    name: &str,
    among: &str,
    known: impl Iterator<Item = &'a str>,
) -> Error {
    let near = nearest(name, known);
    let hint = match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        [rest @ .., last] => format!(
            "; did you mean {} or `{last}`?",
            rest.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ),
    };
    Error::Field { field, message: format!("{what} `{name}` is not {among}{hint}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_is_one_line_naming_the_field_and_suggesting() {
        let e = unknown("maps[0].rooms[B2].monsters[1].name".into(), "monster", "Goblim", ["Goblin"].into_iter());
        assert_eq!(
            e.to_string(),
            "`maps[0].rooms[B2].monsters[1].name`: monster `Goblim` is not in the tables; did you mean `Goblin`?"
        );
    }
}
