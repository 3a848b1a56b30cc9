//! A ruler's weak points as the story tells them (seed 003 l.6797: the GM plants what the players
//! can learn of a weakness, and an NPC the ruler is bound to must be someone they can meet).
//!
//! - [`tell`] says what each weak point means for this ruler in the players' words: the thing
//!   it shuns or that hurts it, the member it knows from a past life, the skills it has lost, the
//!   object its core lies in; never the rule's keyword ("Anathema"). A clue's Found line or
//!   Answer says it through the `{weak_tell}` slot.
//! - A Relationship's NPC is named through the `{bond}` slot (filled when the booklet is made,
//!   as the cast then stands), and is someone the court can meet before the ruler: an NPC of
//!   the kingdom or one standing in a room the court reaches without passing the ruler's room
//!   ([`meetable`]). The generator picks among them ([`bond_npc`]), `check` refuses the rest
//!   ([`check`]).

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{Adjustment, AdjustmentKind, CastRef, Map, Place, Reveals, Room, Ruler, Scenario};
use crate::myk::named::Named;
use crate::myk::reach::Reach;
use crate::tables::Tables;
use crate::tables::myk::WeakNeed;

/// What the players can learn of `ruler`'s weak points (in room `room` of `map`), one clause
/// each, joined by "; "; empty for a ruler without any. A Relationship's NPC stays the slot
/// `{bond}`.
pub fn tell(s: &Scenario, map: &Map, room: &Room, ruler: &Ruler, tables: &Tables) -> String {
    let weak = ruler.adjustments.iter().filter(|a| a.kind == AdjustmentKind::WeakPoint);
    weak.map(|a| clause(s, map, room, a, tables)).collect::<Vec<_>>().join("; ")
}

/// One weak point's clause, a fact of this ruler.
fn clause(s: &Scenario, map: &Map, room: &Room, a: &Adjustment, tables: &Tables) -> String {
    let named = |r: &Room| Named::new(s, map, r, tables);
    let need = tables.myk.weak_point(&a.what).and_then(|w| w.needs);
    match (a.what.as_str(), need) {
        (_, Some(WeakNeed::Member)) => format!(
            "it knows the court's PC no. {} from a life before this one, and that one's blows hurt it most",
            a.member.unwrap_or(1)
        ),
        (_, Some(WeakNeed::Npc)) => "it loses heart whenever {bond} stands on the same battlefield".into(),
        (_, Some(WeakNeed::Poisons)) => {
            format!("it is hurt worse than by any blade by {}, or by whoever brings such a thing against it", things(a, &named(room)))
        }
        (_, Some(WeakNeed::Weakness)) => format!(
            "it shrinks from {} and from anyone who comes at it with such a thing, and strikes only when nothing else is in reach",
            things(a, &named(room))
        ),
        (_, Some(WeakNeed::Hideout)) => {
            let item = a
                .hidden_in
                .map(|r| crate::text::with_article(&named(map.room(r)).items("core", 1, false).concat()))
                .unwrap_or_else(|| "something".into());
            if a.what == "Memory Core" {
                format!("its mind is kept outside its body, in {item} hidden elsewhere in this place; break it and it forgets all its tricks")
            } else {
                format!("half of its life is kept in {item} hidden elsewhere in this place; break it and it is that much easier to fell")
            }
        }
        (_, Some(WeakNeed::Cores)) => "its strength is shared out among some of its own servants here; with all of them gone it may fall at one blow".into(),
        (_, Some(WeakNeed::Sealed)) => {
            // "Rush (Melee)": the skill's name, without the bestiary's kind.
            let skills: Vec<&str> = a.sealed.iter().map(|k| k.split(" (").next().unwrap_or(k)).collect();
            format!("it has lost the use of {}", and_list(&skills))
        }
        ("Celestial Body", None) => "what waits there is only a shadow of the true being, with half its strength".into(),
        ("Time Limit", None) => "it cannot hold its shape for long once a fight starts, and fades if the court lasts a few rounds".into(),
        (other, _) => format!("it has a weak spot its own servants call {other}"),
    }
}

/// The things of a Poison's or Anathema's Weakness Table results, in the players' words, with the
/// Common Item or Material named as the ruler's block names it (the same pick).
fn things(a: &Adjustment, named: &Named) -> String {
    let words: Vec<String> = a
        .weaknesses
        .iter()
        .enumerate()
        .map(|(k, w)| {
            if w.starts_with("A specific Common Item") {
                crate::text::with_article(&named.items(&format!("weakness/{k}"), 1, false).concat())
            } else if w.starts_with("A specific Material") {
                named.material(&format!("weakness/{k}"))
            } else {
                thing(w)
            }
        })
        .collect();
    and_list(&words)
}

/// A Weakness Table result in the players' words: the bracket dropped, "A specific song" as "one
/// particular song", a common noun in lower case.
fn thing(result: &str) -> String {
    let head = result.split(" (").next().unwrap_or(result).trim();
    match head {
        "Cross" => return "the sign of the cross".into(),
        "An Affection Score towards you of 3+" => return "anyone who has grown fond of it".into(),
        "Someone who spills your blood" => return "whoever has drawn its blood".into(),
        _ => {}
    }
    if let Some(rest) = head.strip_prefix("A specific ") {
        return ["one particular ", rest].concat();
    }
    let mut c = head.chars();
    match (c.next(), c.next()) {
        // "Silver", "Cats": a common noun; "A key", "A strong star fragment" read as they are.
        (Some(f), Some(second)) if second.is_lowercase() && f != 'A' => {
            [f.to_lowercase().to_string().as_str(), &head[f.len_utf8()..]].concat()
        }
        (Some('A'), _) => ["a", &head[1..]].concat(),
        _ => head.to_string(),
    }
}

/// "a", "a and b", "a, b and c".
fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            [rest.join(", ").as_str(), " and ", last.as_ref()].concat()
        }
    }
}

/// The NPC a Relationship of the ruler in the revealed room names, for `{bond}`: its name as
/// the cast now stands.
pub fn bond(s: &Scenario, reveals: Reveals) -> Option<&str> {
    let Reveals::Room(p) = reveals else { return None };
    let ru = s.map(p.map)?.room(p.room).ruler.as_ref()?;
    let npc = ru.adjustments.iter().find_map(|a| (a.kind == AdjustmentKind::WeakPoint).then_some(a.npc).flatten())?;
    s.cast_member(npc).map(|n| n.name.as_str())
}

/// Whether the cast member `k` can be met before the ruler at `ruler`: not the rival, and in
/// the kingdom or in a room the court reaches without entering the ruler's room.
pub fn meetable(s: &Scenario, g: &Reach, k: usize, ruler: Place) -> bool {
    let Some(n) = s.cast.get(k) else { return false };
    if n.role.as_str().starts_with(crate::myk::story::RIVAL) {
        return false;
    }
    let Some(p) = n.place else { return true };
    let Some(pos) = s.maps.iter().position(|m| m.index == p.map) else { return false };
    p != ruler && Reach::at(&g.from_outside_without(Reveals::Room(ruler)), pos, p.room)
}

/// The NPC for a Relationship of the ruler at `ruler`: one of the cast the court can meet before
/// the ruler ([`meetable`]), drawn; `None` when the cast has none.
pub fn bond_npc(s: &Scenario, g: &Reach, ruler: Place, d: &mut Dice) -> Option<CastRef> {
    let open: Vec<usize> = (0..s.cast.len()).filter(|&k| meetable(s, g, k, ruler)).collect();
    d.choose(&open).map(|&k| CastRef::at(k))
}

/// `check`'s rule: a Relationship's NPC can be met before the ruler. One line per ruler.
pub fn check(s: &Scenario, g: &Reach, v: &mut Vec<Violation>) {
    for m in &s.maps {
        for r in m.rooms.iter().filter(|r| r.used) {
            let Some(ru) = &r.ruler else { continue };
            let here = Place { map: m.index, room: r.id };
            for a in ru.adjustments.iter().filter(|a| a.kind == AdjustmentKind::WeakPoint) {
                let Some(k) = a.npc.and_then(|n| n.index()) else { continue };
                let Some(n) = s.cast.get(k) else { continue };
                if !meetable(s, g, k, here) {
                    v.push(Violation::new(
                        format!("map {} room {}", m.index, r.id),
                        "weak-point.bond-place",
                        format!(
                            "{} is bound to {}, who stands where the court cannot meet them before the ruler (in its room, beyond it, or as the rival)",
                            ru.name, n.name
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::thing;

    /// A Weakness Table result reads as a thing the players can find, not as the table's row.
    #[test]
    fn a_weakness_is_told_as_a_thing_not_as_the_tables_row() {
        assert_eq!(thing("Women (a specific sex)"), "women");
        assert_eq!(thing("A specific song"), "one particular song");
        assert_eq!(thing("Silver"), "silver");
        assert_eq!(thing("A key"), "a key");
        assert_eq!(thing("Cross (a specific holy symbol)"), "the sign of the cross");
        assert_eq!(thing("A strong star fragment"), "a strong star fragment");
    }
}
