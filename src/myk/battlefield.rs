//! Where a room's monsters stand when a fight starts (seed 003 l.2064-2068: "the GM places the
//! monsters as the scenario describes"). The battlefield is one line of six areas: the monsters'
//! Encampment, Rearguard and Vanguard, then the court's Vanguard, Rearguard and Encampment; an
//! attack reaches as many areas as its range (l.2148), so the two Vanguards are 1 apart.
//!
//! The rule: each group stands as far back as its range still reaches the court's Vanguard (range
//! 0 or 1: Vanguard; 2: Rearguard; 3 or more: Encampment), which is how the book's own encounter
//! tables place archers and leaders behind the front (l.2899-2966). A monster whose range the
//! source lost stands in the Vanguard.

use crate::myk::model::Room;
use crate::tables::Tables;
use crate::tables::roll::Position;

/// The area a monster with attack range `range` starts in (see the module doc).
pub fn position_for(range: Option<u32>) -> Position {
    match range {
        Some(3..) => Position::Encampment,
        Some(2) => Position::Rearguard,
        _ => Position::Vanguard,
    }
}

/// The room's fighters by area, front first: "Vanguard: 3 Goblins; Rearguard: 2 Kobold Archers;
/// Encampment: Locust Lord (ruler)". None for a room without monsters.
pub fn placement(r: &Room, tables: &Tables) -> Option<String> {
    let mut by_area: Vec<(Position, String)> = Vec::new();
    if let Some(ru) = &r.ruler {
        let range = ru.stats.as_ref().map(|s| s.range).or_else(|| {
            tables.myk.monster(&ru.name).and_then(|rec| crate::myk::ruler::final_stats(rec, ru)).map(|s| s.range)
        });
        by_area.push((position_for(range), format!("{} (ruler)", ru.name)));
    }
    for g in &r.monsters {
        let range = tables.myk.monster(&g.name).and_then(|rec| rec.range);
        by_area.push((position_for(range), crate::text::count(g.count.into(), &g.name)));
    }
    if by_area.is_empty() {
        return None;
    }
    let areas = [Position::Vanguard, Position::Rearguard, Position::Encampment];
    let parts: Vec<String> = areas
        .iter()
        .filter_map(|&a| {
            let here: Vec<&str> = by_area.iter().filter(|(p, _)| *p == a).map(|(_, n)| n.as_str()).collect();
            (!here.is_empty()).then(|| format!("{}: {}", a.label(), here.join(", ")))
        })
        .collect();
    Some(parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_stands_as_far_back_as_its_range_still_reaches_the_courts_vanguard() {
        assert_eq!(position_for(Some(0)), Position::Vanguard);
        assert_eq!(position_for(Some(1)), Position::Vanguard);
        assert_eq!(position_for(Some(2)), Position::Rearguard);
        assert_eq!(position_for(Some(3)), Position::Encampment);
        assert_eq!(position_for(Some(9)), Position::Encampment);
        assert_eq!(position_for(None), Position::Vanguard, "a range the source lost");
    }
}
