//! Trap rules beyond placement and level, shared by the generator and `check`: a Gate Keeper names
//! the monsters it brings out (seed 003 l.6087-6091), and a room's battlefield takes one combat trap
//! per Area (l.5605).

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{Limits, Map, MonsterGroup, PlacedTrap, Reaction, Reveals, Room, Scenario};
use crate::myk::monsters;
use crate::myk::reach::Reach;
use crate::tables::myk::{MykData, ObjectTraits, Placement, Trap};
use crate::tables::shared::SharedStr;

/// Levels a Room trap gains when it is turned into an Event trap (seed 003 l.5213).
pub const CONVERSION_LEVELS: u32 = 3;

/// The trap's effect with the choice made that the book leaves to the GM: its record's `chosen`
/// text filled on `d` (rooms among `rooms`, the used rooms of its map; a bestiary monster; 1D6;
/// one of `choices`). `None`, rolling nothing, when the book leaves nothing to choose.
pub fn placed_choice(
    rec: &Trap,
    rooms: &[crate::myk::model::RoomId],
    data: &MykData,
    d: &mut Dice,
) -> Option<SharedStr> {
    let text = rec.chosen.as_ref()?;
    // A map's used rooms (at most nine) are shuffled on the stack.
    let (mut few, mut many) = ([crate::myk::model::RoomId::ALL[0]; 9], Vec::new());
    let order: &mut [crate::myk::model::RoomId] = match few.get_mut(..rooms.len()) {
        Some(f) => {
            f.copy_from_slice(rooms);
            f
        }
        None => {
            many.extend_from_slice(rooms);
            &mut many
        }
    };
    d.shuffle(order);
    let room = |k: usize| order.get(k).map_or("", |r| r.name());
    let monster = d.choose(data.stockable_positions()).map_or("", |&i| data.monsters[i].name.as_str());
    let count = d.between(1, 6).to_string();
    let choice = d.choose(&rec.choices).map_or("", |c| c.as_str());
    Some(fill_choice(text, [room(0), room(1), monster, &count, choice]).into())
}

/// The placeholders of a trap's `chosen` text, in the order they are filled.
const CHOICE_SLOTS: [&str; 5] = ["{room}", "{room2}", "{monster}", "{count}", "{choice}"];

/// `text` with each of [`CHOICE_SLOTS`] replaced by its value, in one pass: a value is written
/// as it stands (a monster or choice named with braces is not read again as a placeholder) and a
/// `{` that opens no placeholder is text. With no brace in a value this is what a `replace` per
/// placeholder in turn wrote (as this did before); the one rule no longer depends on the order.
fn fill_choice(text: &str, values: [&str; 5]) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match CHOICE_SLOTS.iter().position(|p| rest.starts_with(p)) {
            Some(k) => {
                out.push_str(values[k]);
                rest = &rest[CHOICE_SLOTS[k].len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The level a Room trap of level `level` has once it is turned into an Event trap.
pub fn converted_level(level: u32) -> u32 {
    level + CONVERSION_LEVELS
}

/// The level a placed trap of this record counts as: its fixed level, or `wanted` kept inside its
/// level range; +3 when a Room trap became an Event trap. `check` compares, `fix` fills it in.
pub fn level_for(rec: &crate::tables::myk::Trap, converted: bool, wanted: u32) -> u32 {
    let bonus = if converted { CONVERSION_LEVELS } else { 0 };
    match rec.level {
        crate::tables::myk::Level::Fixed(n) => n + bonus,
        crate::tables::myk::Level::Range(a, b) => wanted.clamp(a + bonus, b + bonus),
    }
}

/// The Search that finds a room's, a corridor's or an object's traps (seed 003 l.1929): a Wit or
/// Quest check against the court's size + 7.
pub fn search_difficulty(court_size: u32) -> u32 {
    court_size + 7
}

/// A placed trap's disarm check (seed 003 l.5599): the ability, the difficulty at the trap's own
/// level (a converted trap's +3 counts against the limits, not the check), and what the book adds
/// that the scenario cannot know (Charisma / 9 + followers / 10). None when the trap is not
/// disarmed by a check.
pub fn disarm_check<'a>(
    rec: &'a crate::tables::myk::Trap,
    placed: &PlacedTrap,
) -> Option<(crate::tables::myk::Ability, u32, Option<&'a str>)> {
    match &rec.disarm {
        d @ crate::tables::myk::Disarm::Check { ability, plus, .. } => {
            let level = placed.level.saturating_sub(if placed.converted { CONVERSION_LEVELS } else { 0 });
            d.difficulty(level).map(|n| (*ability, n, plus.as_deref()))
        }
        _ => None,
    }
}

/// Areas of the battlefield: Encampment, Rearguard and Vanguard on each side.
pub const BATTLEFIELD_AREAS: usize = 6;

/// The limit on the monsters an ambush brings out: they attack as one hostile group, so the
/// hostile room total (2S + T) and the one-monster limit (A + 4) hold for them.
pub fn ambush_cap(lim: &Limits) -> u32 {
    lim.room_total(Reaction::Hostile)
}

/// Whether a monster is one the scenario describes: stocked in a room, ruling one, or on the
/// random encounter table.
fn described(s: &Scenario, name: &str) -> bool {
    s.maps
        .iter()
        .flat_map(|m| &m.rooms)
        .any(|r| r.monsters.iter().any(|g| g.name == name) || r.ruler.as_ref().is_some_and(|ru| ru.name == name))
        || s.encounters.rows.iter().flat_map(|r| &r.groups).any(|g| g.name == name)
}

/// A trap that brings out monsters names them, all described elsewhere in the scenario and inside
/// the limits: a Gate Keeper its ambushers (seed 003 l.6087-6091), a Dead Angle the monsters hidden
/// in its room (l.5892); no other trap names any.
pub fn gate_keeper(s: &Scenario, t: &PlacedTrap, lim: &Limits, data: &MykData, at: &str, v: &mut Vec<Violation>) {
    gate_keeper_of(s, t, data.trap(&t.name), lim, data, at, v);
}

/// [`gate_keeper`] with the trap's record already looked up by its name (`None`: not in the
/// tables), so `check` looks each trap up once.
pub fn gate_keeper_of(
    s: &Scenario,
    t: &PlacedTrap,
    rec: Option<&Trap>,
    lim: &Limits,
    data: &MykData,
    at: &str,
    v: &mut Vec<Violation>,
) {
    let ambush = rec.is_some_and(|r| r.ambush);
    let bad = |msg: String| Violation::new(at, "trap.gate-keeper", msg);
    if !ambush {
        if !t.monsters.is_empty() {
            v.push(bad(format!("`{}` brings out no monsters, but names some", t.name)));
        }
        return;
    }
    if t.monsters.is_empty() {
        v.push(bad(format!("`{}` must name the monsters that appear (`monsters`)", t.name)));
    }
    let mut total = 0u32;
    for g in &t.monsters {
        let rec = data.monster(&g.name);
        match rec {
            None => v.push(bad(format!("`{}` is not in the bestiary", g.name))),
            Some(rec) if rec.level != Some(g.level) => {
                v.push(bad(format!("`{}` has level {}, the bestiary says otherwise", g.name, g.level)))
            }
            _ => {}
        }
        if !described(s, &g.name) {
            v.push(bad(format!(
                "`{}` appears nowhere else in the scenario; the trap calls monsters the scenario describes",
                g.name
            )));
        }
        if g.count == 0 {
            v.push(bad(format!("`{}` has a count of 0", g.name)));
        }
        monsters::check_group_of(g, rec, at, v);
        if g.effective_level > lim.monster_level {
            v.push(bad(format!(
                "`{}` is effective level {}, limit {} (A + 4)",
                g.name, g.effective_level, lim.monster_level
            )));
        }
        total = total.saturating_add(g.count.saturating_mul(g.effective_level));
    }
    if total > ambush_cap(lim) {
        let msg = format!("the ambush totals {total} levels, limit {} (2S + T, hostile)", ambush_cap(lim));
        // "Choose any number of Monsters" (Dead Angle): the limit is our advice only.
        match rec.is_some_and(|r| r.any_number) {
            true => v.push(Violation::advice(at, "trap.ambush-total", msg)),
            false => v.push(bad(msg)),
        }
    }
}

/// One combat trap per battlefield Area: a room holds at most as many Area traps as there are Areas.
pub fn area_traps(r: &Room, at: &str, v: &mut Vec<Violation>) {
    let n = r.traps.iter().filter(|t| t.placement == Placement::Area).count();
    if n > BATTLEFIELD_AREAS {
        v.push(Violation::new(
            at,
            "trap.area-count",
            format!("{n} combat traps, but the battlefield has {BATTLEFIELD_AREAS} Areas and takes one per Area"),
        ));
    }
}

/// Whether another combat trap fits the room's battlefield.
pub fn area_free(r: &Room) -> bool {
    r.traps.iter().filter(|t| t.placement == Placement::Area).count() < BATTLEFIELD_AREAS
}

/// The monsters a new Gate Keeper brings out: one kind the scenario already stocks (else one from
/// its encounter table), as many as the hostile limit allows. Empty when the scenario has none.
pub fn ambushers(s: &Scenario, lim: &Limits, data: &MykData, d: &mut Dice) -> Vec<MonsterGroup> {
    let mut names: Vec<&str> = Vec::new();
    for g in s.maps.iter().flat_map(|m| &m.rooms).flat_map(|r| &r.monsters) {
        if !names.contains(&g.name.as_str()) {
            names.push(&g.name);
        }
    }
    if names.is_empty() {
        for g in s.encounters.rows.iter().flat_map(|r| &r.groups) {
            if !names.contains(&g.name.as_str()) {
                names.push(&g.name);
            }
        }
    }
    let cap = ambush_cap(lim);
    let fits: Vec<(&str, u32)> = names
        .into_iter()
        .filter_map(|n| {
            let m = data.monster(n).filter(|m| m.complete())?;
            let l = m.level.filter(|&l| l >= 1 && l <= lim.monster_level && l <= cap)?;
            Some((n, l))
        })
        .collect();
    let Some(&(name, level)) = d.choose(&fits) else { return Vec::new() };
    let most = (cap / level).clamp(1, 9);
    let count = d.between(1.max(most / 2), most);
    vec![MonsterGroup::plain(name, level, count, Reaction::Hostile)]
}

/// The object a trap that needs a bearer sits on in a generated scenario.
pub const BEARER_OBJECT: &str = "monster";

/// Whether the trap, sitting on `object`, needs a creature in its room: Borracho always (a
/// monster or an NPC with statistics that attacks, seed 003 l.5916), any trap set on a monster
/// of any kind (Horror's gruesome monster l.5910, Poltergeist's Construct Monster l.5924) likewise.
pub fn needs_bearer(rec: &Trap, object: Option<&str>, data: &MykData) -> bool {
    rec.bearer || object.is_some_and(|o| crate::myk::objects::is_creature(data, o))
}

/// Whether the room holds a monster (or ruler) of the bestiary category `c`.
fn holds_category(room: &Room, c: crate::tables::myk::MonsterCategory, data: &MykData) -> bool {
    let of = |name: &str| data.monster(name).is_some_and(|m| m.category == c);
    room.monsters.iter().any(|g| of(&g.name)) || room.ruler.as_ref().is_some_and(|r| of(&r.name))
}

/// Whether a trap sits on the spoils of the map's ruler (Self-destruction, l.5735).
pub fn on_spoils(object: Option<&str>) -> bool {
    object.is_some_and(|o| o.eq_ignore_ascii_case("ruler's spoils"))
}

/// Where a trap of this record on this object may stand, by what must be in the room or on the
/// map: a bearer for [`needs_bearer`], a ruler on the map for [`on_spoils`]. `None` when it fits,
/// else the rule id and why. The generator keeps to the rooms this allows; `check` reports it.
pub fn fits_room(
    rec: &Trap,
    object: Option<&str>,
    room: &Room,
    map: &Map,
    data: &MykData,
) -> Option<(&'static str, String)> {
    let unmet = RoomNeeds::of(rec, object, data).unmet(room, map, data)?;
    Some(match unmet {
        Unmet::Bearer => (
            "trap.bearer",
            format!(
                "`{}` sits on a {} that attacks, but the room has no monster or ruler",
                rec.name,
                object.unwrap_or(BEARER_OBJECT)
            ),
        ),
        Unmet::Category(c) => {
            ("trap.bearer", format!("`{}` sits on a {} Monster, but the room holds none", rec.name, c.label()))
        }
        Unmet::Spoils => {
            ("trap.spoils", format!("`{}` sits on what the ruler leaves behind, but the map has no ruler", rec.name))
        }
    })
}

/// What a trap of one record on one object asks of its room and map: [`fits_room`]'s rule, its
/// needs read once per trap (the generator tries one trap in up to nine rooms, and the needs
/// depend on the record and the object alone).
#[derive(Clone, Copy, Debug)]
pub struct RoomNeeds {
    bearer: bool,
    category: Option<crate::tables::myk::MonsterCategory>,
    spoils: bool,
}

/// The first need a room or map leaves unmet, in [`fits_room`]'s order.
#[derive(Clone, Copy, Debug)]
pub enum Unmet {
    /// The trap's object attacks, and the room has no monster or ruler.
    Bearer,
    /// The object is a monster of this bestiary category, and the room holds none.
    Category(crate::tables::myk::MonsterCategory),
    /// The trap sits on the ruler's spoils, and the map has no ruler.
    Spoils,
}

impl RoomNeeds {
    pub fn of(rec: &Trap, object: Option<&str>, data: &MykData) -> RoomNeeds {
        RoomNeeds::with(rec, object, object.map(|o| data.object_traits(o)).unwrap_or_default())
    }

    /// [`RoomNeeds::of`] with the object's traits already read (the generator keeps them per
    /// trap object): `traits` are `object`'s, or the default when there is no object.
    pub fn with(rec: &Trap, object: Option<&str>, traits: ObjectTraits) -> RoomNeeds {
        RoomNeeds { bearer: rec.bearer || traits.creature, category: traits.category, spoils: on_spoils(object) }
    }

    /// The first need `room` of `map` leaves unmet, or `None` when the trap may stand there.
    // Inline: the generator asks this for every room of every trap it tries, from another of the
    // build's code units, and the answer is most often three flags read.
    #[inline]
    pub fn unmet(&self, room: &Room, map: &Map, data: &MykData) -> Option<Unmet> {
        if self.bearer && !room.has_monsters() {
            return Some(Unmet::Bearer);
        }
        if let Some(c) = self.category
            && !holds_category(room, c, data)
        {
            return Some(Unmet::Category(c));
        }
        if self.spoils && !map.rooms.iter().any(|r| r.ruler.is_some()) {
            return Some(Unmet::Spoils);
        }
        None
    }
}

/// A Warder's room (seed 003 l.6085) is entered and left by its corridors only: no trap of the
/// map sends the court into it (Teleporter, Illusion Road), none in it sends the court out. The
/// map stands at position `map_pos`; `g`, its movement graph, knows which rooms hold a Warder
/// (it keeps them out of its teleports), so no trap's record is looked up again here.
pub fn warders(m: &Map, map_pos: usize, g: &Reach, v: &mut Vec<Violation>) {
    let warded = |r: &Room| g.warded(map_pos, r.id);
    if !m.rooms.iter().any(warded) {
        return;
    }
    let at_room = |r: &Room| format!("map {} room {}", m.index, r.id);
    let mut check = |t: &PlacedTrap, from: Option<&Room>, at: String| {
        let Some(d) = t.destination else { return };
        if from.is_some_and(warded) {
            v.push(Violation::new(
                at,
                "trap.warder",
                format!("`{}` moves the court out of a Warder's room, which only its corridors leave", t.name),
            ));
        } else if d.map == m.index && warded(m.room(d.room)) {
            v.push(Violation::new(
                at,
                "trap.warder",
                format!("`{}` sends the court into room {}, a Warder's room only its corridors enter", t.name, d.room),
            ));
        }
    };
    for r in &m.rooms {
        for t in &r.traps {
            check(t, Some(r), at_room(r));
        }
    }
    for c in &m.corridors {
        if let Some(t) = &c.trap {
            check(t, None, format!("map {} corridor {}", m.index, c.id()));
        }
    }
}

/// A Secret Door is found by searching its own room (seed 003 l.1819, l.5685), so the corridor it
/// hides cannot be the way into that room: the room must be reached from outside without it.
/// `g` is the scenario's movement graph (a walk that never travels the corridor).
pub fn secret_doors(s: &Scenario, g: &Reach, v: &mut Vec<Violation>) {
    for (p, m) in s.maps.iter().enumerate() {
        for r in m.used_rooms() {
            for c in r.traps.iter().filter_map(|t| t.corridor) {
                let hidden = Reveals::Corridor { map: m.index, corridor: c };
                let reached = g.from_outside_without(hidden);
                if !Reach::at(&reached, p, r.id) {
                    v.push(Violation::new(
                        format!("map {} room {}", m.index, r.id),
                        "trap.secret-door",
                        format!(
                            "the Secret Door is found from inside this room, but corridor {c} is the only way in: \
                             the room can never be entered"
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `replace` per placeholder in turn: what filled a chosen text before the one-pass rule.
    fn replaced(text: &str, values: [&str; 5]) -> String {
        CHOICE_SLOTS.iter().zip(values).fold(text.to_string(), |t, (p, v)| t.replace(p, v))
    }

    #[test]
    fn a_chosen_texts_placeholders_are_filled_in_one_pass_values_written_as_they_stand() {
        let tables = crate::tables::Tables::embedded().expect("embedded tables load");
        let mut texts: Vec<String> =
            tables.myk.traps.iter().filter_map(|t| t.chosen.as_deref().map(String::from)).collect();
        assert!(texts.len() > 3);
        texts.extend(["{{monster}}", "{room}{room2}{room}", "{count", "x {choice} }{", ""].map(String::from));
        // With plain values the pass writes what the replacements in turn wrote (every built-in
        // trap's text among them), so no scenario changes.
        for text in &texts {
            let values = ["A1", "B2", "Goblin", "3", "Melee"];
            assert_eq!(fill_choice(text, values), replaced(text, values), "{text}");
        }
        // A value holding a placeholder is written as it stands, whatever its place in the order.
        let values = ["A1", "B2", "{count} Slimes", "3", "{room}"];
        assert_eq!(fill_choice("{room}: {monster}, {choice}", values), "A1: {count} Slimes, {room}");
        assert_eq!(fill_choice("{{monster}} {x}", values), "{{count} Slimes} {x}");
    }
}
