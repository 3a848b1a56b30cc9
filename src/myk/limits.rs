//! The threat-placement limits (seed 003 l.5183-5213), one implementation for generator and check.
//! S = court size, A = average level (total / size, rounded down), T = total level.

use crate::myk::model::{Court, Limits, Reaction};

/// A court from its members' levels.
pub fn court(levels: &[u32]) -> Court {
    Court { levels: levels.to_vec(), ..totals(levels) }
}

/// The court's size and totals without a copy of its levels (`levels` empty): all the limits
/// and the generator read, so neither copies the list.
pub fn totals(levels: &[u32]) -> Court {
    let size = levels.len() as u32;
    let total: u32 = levels.iter().sum();
    Court { size, levels: Vec::new(), average_level: total.checked_div(size).unwrap_or(0), total_level: total }
}

/// Every limit for a court.
pub fn limits(court: &Court) -> Limits {
    let (s, a, t) = (court.size, court.average_level, court.total_level);
    Limits {
        traps_number: 3 * s + a,
        traps_total_level: 10 * a,
        traps_per_corridor: 1,
        bases_total_level: a,
        rooms_with_monsters: a + 2,
        monster_level: a + 4,
        room_total_neutral: 3 * s + t,
        room_total_hostile: 2 * s + t,
        room_total_friendly: 4 * s + t,
        ruler_level: a + 7,
        ruler_room_others: a + 4,
        ruler_room_total: 4 * s + t,
        search_difficulty: s + 7,
    }
}

impl Limits {
    /// The total monster level one room may hold, for the reaction of its monsters.
    pub fn room_total(&self, reaction: Reaction) -> u32 {
        match reaction {
            Reaction::Neutral => self.room_total_neutral,
            Reaction::Hostile => self.room_total_hostile,
            Reaction::Friendly => self.room_total_friendly,
        }
    }

    /// The one rule for a room's total monster level, for generator and `check` alike: the ruler's
    /// room holds 4S + T whatever its guards' reaction (hostile guards beside a ruler do not drop it
    /// to 2S + T; NOTES.md); any other room takes the strictest limit among its monsters' reactions.
    /// Returns the limit and its formula, or `None` for a room without monsters.
    pub fn room_cap(&self, has_ruler: bool, reactions: impl Iterator<Item = Reaction>) -> Option<(u32, &'static str)> {
        if has_ruler {
            return Some((self.ruler_room_total, "4S + T"));
        }
        reactions.min_by_key(|&r| self.room_total(r)).map(|r| {
            let formula = match r {
                Reaction::Hostile => "2S + T",
                Reaction::Neutral => "3S + T",
                Reaction::Friendly => "4S + T",
            };
            (self.room_total(r), formula)
        })
    }
}

/// The random encounter table for the court's average level (1-6), resolved for its size.
pub fn encounter_table(tables: &crate::tables::Tables, court: &Court) -> crate::myk::model::EncounterTable {
    let level = court.average_level.clamp(1, 6);
    crate::myk::model::EncounterTable { level, rows: tables.encounter_rows(level, court.size) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_level_rounds_down() {
        let c = court(&[2, 3, 2, 1]);
        assert_eq!((c.size, c.total_level, c.average_level), (4, 8, 2));
        let c = court(&[3, 3, 4]);
        assert_eq!(c.average_level, 3);
    }

    #[test]
    fn a_level_1_court_of_3_matches_the_books_first_row() {
        let l = limits(&court(&[1, 1, 1]));
        assert_eq!((l.room_total_neutral, l.room_total_hostile, l.room_total_friendly), (12, 9, 15));
        assert_eq!((l.monster_level, l.rooms_with_monsters), (5, 3));
        assert_eq!((l.ruler_room_total, l.ruler_room_others, l.ruler_level), (15, 5, 8));
        assert_eq!((l.traps_number, l.traps_total_level, l.bases_total_level), (10, 10, 1));
        assert_eq!(l.search_difficulty, 10);
    }
}
