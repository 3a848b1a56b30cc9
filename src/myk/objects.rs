//! What an Event trap may sit on, by kinds of object (seed 003 l.5611-5635 and the trap texts):
//! the book names a few objects and often ends its list with a kind ("or other kind of container",
//! l.5711; "work of art that depicts a living being", l.5681; "object related to movement",
//! l.6077; "a Construct Monster", l.5924). The kinds live in `tables/myk/objects.toml`; a monster
//! of the bestiary is of the kinds "monster" and "<category> monster". `check`, `fix` and the
//! generator ask the same functions. Names compare in any letter case.

use crate::tables::myk::{MonsterCategory, MykData, Trap, category_kind};

/// The kind every creature with statistics that attacks belongs to (Horror's gruesome Monster).
pub const MONSTER: &str = crate::tables::myk::MONSTER_KIND;

/// Whether an object fits a trap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Named by the trap, of a kind it names, or any object for a trap the book lets sit anywhere.
    Fits,
    /// An object of the GM's own (in no table) on a trap whose list ends with a kind: the GM may
    /// mean one of those kinds, so a warning; the text names the nearest kinds.
    Own(String),
    /// Not what the trap sits on: the text says what it takes.
    No(String),
}

/// The kinds of the object named `name` (lower case), or `None` when no table knows it.
pub fn kinds_of(data: &MykData, name: &str) -> Option<Vec<String>> {
    let name = name.trim();
    if let Some(o) = data.object_folded(name) {
        return Some(o.kinds.iter().map(|k| k.to_ascii_lowercase()).collect());
    }
    let m = data.monster_folded(name)?;
    Some(vec![MONSTER.to_string(), category_kind(m.category)])
}

/// The bestiary category an object's kinds ask for ("construct monster" asks for a Construct).
/// A named monster is itself the creature: only a kind-only object asks.
///
/// The generator asks this for every trap it tries, so the answer is read once per name from the
/// kinds (`MykData::object_traits`), not by writing "<category> monster" out nine times.
pub fn category_needed(data: &MykData, object: &str) -> Option<MonsterCategory> {
    data.object_traits(object).category
}

/// Whether the object is a creature that must stand in the trap's room (a monster of any kind):
/// as [`kinds_of`] reads it, an object's own kinds, else a monster's (which include "monster").
pub fn is_creature(data: &MykData, object: &str) -> bool {
    data.object_traits(object).creature
}

/// Whether `object` fits the Event trap `rec`: named by it, of a kind it names (in its `objects`
/// or `kinds`), or anything when the book lets the trap sit anywhere.
pub fn fits(data: &MykData, rec: &Trap, object: &str) -> Fit {
    if rec.open_objects || (rec.objects.is_empty() && rec.kinds.is_empty()) {
        return Fit::Fits;
    }
    let listed = || rec.objects.iter().chain(&rec.kinds);
    let object = object.trim();
    if listed().any(|x| x.eq_ignore_ascii_case(object)) {
        return Fit::Fits;
    }
    let takes = takes(rec);
    match kinds_of(data, object) {
        Some(kinds) if listed().any(|x| kinds.iter().any(|k| x.eq_ignore_ascii_case(k))) => Fit::Fits,
        Some(kinds) => Fit::No(format!(
            "`{}` cannot sit on `{object}` (of the kinds: {}); it takes {takes}",
            rec.name,
            kinds.join(", ")
        )),
        None if !rec.kinds.is_empty() => Fit::Own(format!(
            "`{object}` is an object of the GM's own (in no table); `{}` takes {takes}; the nearest kinds by name: {}",
            rec.name,
            nearest_kinds(data, rec, object).join(", ")
        )),
        None => Fit::No(format!("`{}` cannot sit on `{object}`; it takes {takes}", rec.name)),
    }
}

/// What a trap takes, for a message: its objects, then "any <kind>" for each open kind.
fn takes(rec: &Trap) -> String {
    let mut parts: Vec<String> = rec.objects.iter().map(ToString::to_string).collect();
    parts.extend(rec.kinds.iter().map(|k| format!("any {k}")));
    parts.join(", ")
}

/// The kinds of the known objects whose names are nearest to `object`, else the trap's own kinds.
fn nearest_kinds(data: &MykData, rec: &Trap, object: &str) -> Vec<String> {
    let names = data.objects.iter().map(|o| o.name.as_str());
    let mut kinds: Vec<String> = Vec::new();
    // Each word of the object's name too: a "golden casket" is near a "casket".
    let words = std::iter::once(object).chain(object.split_whitespace().filter(|w| w.len() > 2));
    for w in words {
        for n in crate::error::nearest(w, names.clone()) {
            for k in kinds_of(data, n).unwrap_or_default() {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
    }
    if kinds.is_empty() {
        kinds = rec.kinds.iter().map(|k| k.to_ascii_lowercase()).collect();
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::Tables;

    /// The reading `category_needed` replaced: the object's kinds listed in lower case, compared
    /// with each category's kind written out.
    fn by_kind_list(data: &MykData, object: &str) -> Option<MonsterCategory> {
        let kinds = kinds_of(data, object)?;
        if data.monsters.iter().any(|m| m.name.eq_ignore_ascii_case(object.trim())) {
            return None;
        }
        MonsterCategory::ALL.into_iter().find(|&c| kinds.contains(&category_kind(c)))
    }

    #[test]
    fn the_category_an_object_asks_for_is_read_as_its_kind_list_says() {
        let tables = Tables::embedded().expect("embedded tables load");
        let data = &tables.myk;
        let names =
            data.objects.iter().map(|o| o.name.to_string()).chain(data.monsters.iter().map(|m| m.name.to_string()));
        let mut asked = 0;
        for name in names.chain(["construct monster".to_string(), "nothing known".to_string()]) {
            for form in [name.clone(), name.to_uppercase(), format!("  {name} ")] {
                let expected = by_kind_list(data, &form);
                asked += usize::from(expected.is_some());
                assert_eq!(category_needed(data, &form), expected, "{form}");
            }
        }
        // The tables hold objects that ask for a category, so the comparison reaches that branch.
        assert!(asked > 0);
    }

    /// The folded look-ups find the record a walk of its list in file order finds, in any letter
    /// case, and `is_creature` reads an object as its written-out kinds say.
    #[test]
    fn an_object_or_monster_is_found_by_name_in_any_letter_case_as_a_walk_of_its_list_finds_it() {
        let tables = Tables::embedded().expect("embedded tables load");
        let data = &tables.myk;
        let names =
            data.objects.iter().map(|o| o.name.to_string()).chain(data.monsters.iter().map(|m| m.name.to_string()));
        let (mut creatures, mut forms) = (0, 0);
        for name in names.chain(["MONSTER".to_string(), "nothing known".to_string(), "x".repeat(70)]) {
            for form in [name.clone(), name.to_uppercase(), format!("  {name} ")] {
                let key = form.trim();
                let object = data.objects.iter().find(|o| o.name.eq_ignore_ascii_case(key));
                let monster = data.monsters.iter().find(|m| m.name.eq_ignore_ascii_case(key));
                assert!(opt_eq(data.object_folded(key), object), "{form}");
                assert!(opt_eq(data.monster_folded(key), monster), "{form}");
                let kinds = match (object, monster) {
                    (Some(o), _) => Some(o.kinds.iter().map(|k| k.to_ascii_lowercase()).collect()),
                    (None, Some(m)) => Some(vec![MONSTER.to_string(), category_kind(m.category)]),
                    (None, None) => None,
                };
                assert_eq!(kinds_of(data, &form), kinds, "{form}");
                let creature = key.eq_ignore_ascii_case(MONSTER)
                    || kinds.is_some_and(|k: Vec<String>| k.iter().any(|k| k == MONSTER));
                assert_eq!(is_creature(data, &form), creature, "{form}");
                creatures += usize::from(creature);
                forms += 1;
            }
        }
        // Both answers occur, so neither branch goes untested.
        assert!(creatures > 0 && creatures < forms);
    }

    /// The traits kept per trap object are the ones its name has, read by name.
    #[test]
    fn a_trap_objects_traits_read_at_load_are_those_its_name_has() {
        let tables = Tables::embedded().expect("embedded tables load");
        let data = &tables.myk;
        let (mut objects, mut creatures) = (0, 0);
        for (k, t) in data.traps.iter().enumerate() {
            for (j, o) in t.objects.iter().enumerate() {
                let kept = data.trap_object_traits(k, j).expect("every object of every trap is kept");
                assert_eq!(kept.creature, is_creature(data, o), "{} on {o}", t.name);
                assert_eq!(kept.category, category_needed(data, o), "{} on {o}", t.name);
                objects += 1;
                creatures += usize::from(kept.creature);
            }
            assert_eq!(data.trap_object_traits(k, t.objects.len()), None);
        }
        // The tables' traps sit on creatures and on things, so both answers are compared.
        assert!(creatures > 0 && creatures < objects);
    }

    /// The same record (by address) or both none.
    fn opt_eq<T>(a: Option<&T>, b: Option<&T>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}
