//! What the players find or hear of a clue, written from the clue's own fact (issue 46; seed 003
//! l.5157-5177): the Found line of a search, a beaten threat or a solved puzzle, and the Ask and
//! Answer of a conversation come from the `[[clue_fact]]` entries of the fact's kind, filled
//! from that fact alone, so they name its room, trap, group, weak point or target and nothing else
//! the scenario holds.
//!
//! - The things that make the fact what it is (the room's id, the trap, the group, the weak
//!   points, the corridor) are written in when the clue is; the names a GM may change (the
//!   revealed room's and map's names, its ruler, the target) stay slots, filled from what the
//!   clue reveals when the booklet is made ([`fill`]).
//! - A clue leads toward the objective when it tells the target, a ruler's weak points, the
//!   ruler the objective names, or a ruler, secret door, carrying trap or trapped corridor the
//!   court cannot reach the objective without passing ([`leads`]); room contents, which Gather
//!   Information tells anyway (seed 003 l.1669), do not.
//! - `check` refuses a players' text that names a room, map, creature, trap or NPC outside its
//!   fact and the room it is found in ([`check_names`]).

use std::borrow::Cow;

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::clues::{self, Fact, Says};
use crate::myk::model::{Clue, ClueMethod, Npc, Place, PuzzleText, Reveals, RoomId, Scenario};
use crate::myk::reach::Reach;
use crate::myk::story;
use crate::tables::Tables;
use crate::tables::story::{ClueWay, FactKind, Threat};

/// The kind of fact as the pools key their entries.
pub(crate) fn kind(f: &Fact) -> FactKind {
    match &f.says {
        Says::Ruler { ruler, .. } if clues::weak_points(ruler).is_empty() => FactKind::Ruler,
        Says::Ruler { .. } => FactKind::WeakPoint,
        Says::SecretDoor { .. } => FactKind::SecretDoor,
        Says::Carries { .. } => FactKind::Teleport,
        Says::Trap { .. } => FactKind::Trap,
        Says::Base { .. } => FactKind::Base,
        Says::Monsters { .. } => FactKind::Monsters,
        Says::Safe { .. } => FactKind::Safe,
        Says::TrappedCorridor { .. } => FactKind::CorridorTrap,
        Says::Target { .. } => FactKind::Target,
    }
}

/// Whether a fact leads toward the objective (at `target`) or a ruler's weak point rather than
/// telling a room's contents.
pub(crate) fn leads(s: &Scenario, g: &Reach, f: &Fact, target: Option<Place>) -> bool {
    match &f.says {
        Says::Target { .. } => true,
        Says::Ruler { ruler, .. } => {
            !clues::weak_points(ruler).is_empty()
                || target.map(Reveals::Room) == Some(f.reveals)
                || on_the_way(s, g, f.reveals, target)
        }
        Says::SecretDoor { .. } | Says::Carries { .. } | Says::TrappedCorridor { .. } => {
            on_the_way(s, g, f.reveals, target)
        }
        _ => false,
    }
}

/// Whether the court reaches the objective's room only by passing `reveals` (and reaches it at
/// all).
fn on_the_way(s: &Scenario, g: &Reach, reveals: Reveals, target: Option<Place>) -> bool {
    let Some(t) = target else { return false };
    let Some(pos) = s.maps.iter().position(|m| m.index == t.map) else { return false };
    Reach::at(&g.from_outside(true), pos, t.room) && !Reach::at(&g.from_outside_without(reveals), pos, t.room)
}

/// Whether this clue of the scenario leads toward the objective or a weak point ([`leads`]).
pub fn clue_leads(s: &Scenario, tables: &Tables, c: &Clue) -> bool {
    let g = Reach::new(s, tables);
    clues::fact_of(s, c).is_some_and(|f| leads(s, &g, &f, s.objective_room()))
}

/// A clue's players' text as drawn: the question (a conversation's) and what is found or said.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    pub ask: String,
    pub found: String,
}

/// Draws the players' text of `clue` from the entries of its fact's kind that fit its method,
/// the threat of the room it is found in (`threat`) and the objective's kind; `None` for a clue
/// whose fact the scenario does not hold or a pool with no fitting entry.
/// An entry drawn for an earlier clue of the scenario (its place in `used`) is drawn again only
/// when no other fits.
pub(crate) fn draw(
    s: &Scenario,
    tables: &Tables,
    clue: &Clue,
    threat: Option<Threat>,
    used: &mut Vec<usize>,
    d: &mut Dice,
) -> Option<Drawn> {
    let fact = clues::fact_of(s, clue)?;
    let kind = kind(&fact);
    let way = match clue.method {
        ClueMethod::Search => ClueWay::Search,
        ClueMethod::Threat => ClueWay::Threat,
        ClueMethod::Conversation => ClueWay::Talk,
        ClueMethod::Puzzle => ClueWay::Puzzle,
    };
    let objective = s.objective.kind.name();
    let fits = |fresh: bool| {
        let used = &*used;
        tables.story.clue_fact.iter().enumerate().filter(move |(i, e)| {
            e.fact == kind
                && e.methods.contains(&way)
                && crate::tables::story::fits(&e.kinds, objective)
                && (e.threat.is_none() || (way == ClueWay::Threat && e.threat == threat))
                && !(fresh && used.contains(i))
        })
    };
    let (i, e) = d.choose_from(|| fits(true)).or_else(|| d.choose_from(|| fits(false)))?;
    used.push(i);
    let mut told = Told::of(&fact);
    if let (Says::Ruler { room, ruler }, Some(m)) = (&fact.says, s.map(fact.reveals.map())) {
        told.weak_tell = Some(crate::myk::weak_story::tell(s, m, m.room(*room), ruler, tables));
    }
    Some(Drawn {
        ask: e.ask.as_ref().map(|a| crate::text::fill(a, &told)).unwrap_or_default(),
        found: crate::text::fill(&e.text, &told),
    })
}

/// The values a clue's players' text is written with: the fact's own things. The names a GM
/// may change are kept as slots ([`fill`] fills them when the booklet is made).
struct Told<'s> {
    room: Option<RoomId>,
    trap: Option<&'s str>,
    object: Option<&'s str>,
    to: Option<RoomId>,
    base: Option<&'s str>,
    monsters: Option<String>,
    weak_points: Option<String>,
    /// What the weak points mean for this ruler, in the players' words (`weak_story::tell`).
    weak_tell: Option<String>,
    corridor: Option<String>,
}

impl<'s> Told<'s> {
    fn of(f: &Fact<'s>) -> Told<'s> {
        let mut t = Told {
            room: None,
            trap: None,
            object: None,
            to: None,
            base: None,
            monsters: None,
            weak_points: None,
            weak_tell: None,
            corridor: None,
        };
        let corridor = |c: crate::myk::model::CorridorId| [c.0.name(), "-", c.1.name()].concat();
        match &f.says {
            Says::Ruler { room, ruler } => {
                t.room = Some(*room);
                t.weak_points = Some(and_list(&clues::weak_points(ruler)));
            }
            Says::SecretDoor { room, corridor: c } => {
                t.room = Some(*room);
                t.corridor = Some(corridor(*c));
            }
            Says::Carries { trap, on, room, to } => {
                (t.room, t.trap, t.object, t.to) = (Some(*room), Some(*trap), Some(*on), Some(*to));
            }
            Says::Trap { room, trap, .. } => (t.room, t.trap) = (Some(*room), Some(*trap)),
            Says::Base { room, base } => (t.room, t.base) = (Some(*room), Some(*base)),
            Says::Monsters { room, monster, count } => {
                t.room = Some(*room);
                t.monsters = Some(crate::text::count((*count).into(), monster));
            }
            Says::Safe { room } | Says::Target { room, .. } => t.room = Some(*room),
            Says::TrappedCorridor { corridor: c, trap, .. } => (t.corridor, t.trap) = (Some(corridor(*c)), Some(*trap)),
        }
        t
    }
}

impl crate::text::Values for Told<'_> {
    fn value(&self, name: &str, _arg: Option<&str>) -> Option<Cow<'_, str>> {
        let v: &str = match name {
            "room" => self.room?.name(),
            "to" => self.to?.name(),
            "trap" => self.trap?,
            "object" => self.object?,
            "base" => self.base?,
            "monsters" => self.monsters.as_deref()?,
            "weak_points" => self.weak_points.as_deref()?,
            "weak_tell" => self.weak_tell.as_deref()?,
            "corridor" => self.corridor.as_deref()?,
            _ => return None,
        };
        Some(v.into())
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => [rest.join(", ").as_str(), " and ", last].concat(),
    }
}

/// A clue's text (its fact, Found, Ask, Answer or condition) with its slots filled as the
/// scenario stands: `{room_name}`, `{map}` and `{ruler}` from what the clue reveals ("the
/// ruler" where none waits there), `{target}` the objective's; any other slot (an older file's
/// `{target_room}`, a GM's `{npc}`) as the story fills it.
pub fn fill(s: &Scenario, clue: &Clue, text: &str) -> String {
    let map = s.map(clue.reveals.map());
    let room = match (map, clue.reveals) {
        (Some(m), Reveals::Room(p)) => Some(m.room(p.room)),
        _ => None,
    };
    let shown = Shown {
        target: s.objective_target(),
        ruler: room.and_then(|r| r.ruler.as_ref()).map_or("the ruler", |r| r.name.as_str()),
        room_name: room.map_or("", |r| r.name.as_str()),
        map: map.map_or("dungeon", |m| m.name.as_str()),
        bond: crate::myk::weak_story::bond(s, clue.reveals).unwrap_or("the one it is bound to"),
        rest: crate::myk::story::Fill::with_npc(s, s.npc_name(clue.npc).unwrap_or_default()),
    };
    crate::text::fill(text, &shown)
}

/// The values [`fill`] fills a clue's text with.
struct Shown<'s> {
    target: &'s str,
    ruler: &'s str,
    room_name: &'s str,
    map: &'s str,
    /// The NPC a Relationship of the revealed ruler names (`weak_story::bond`).
    bond: &'s str,
    rest: crate::myk::story::Fill<'s>,
}

impl crate::text::Values for Shown<'_> {
    fn value(&self, name: &str, arg: Option<&str>) -> Option<Cow<'_, str>> {
        let v = match name {
            "target" => self.target,
            "ruler" => self.ruler,
            "room_name" => self.room_name,
            "map" => self.map,
            "bond" => self.bond,
            _ => return self.rest.value(name, arg),
        };
        Some(v.into())
    }
}

/// What the players get of a clue, as the booklet prints it: the Found line or Answer, the
/// question and the condition (the empty ones left out).
pub fn players_texts(s: &Scenario, c: &Clue) -> Vec<String> {
    [&c.found, &c.ask, &c.condition].into_iter().filter(|t| !t.is_empty()).map(|t| fill(s, c, t)).collect()
}

/// The names a clue's fact names: those its own line (the clue's text, filled) mentions, by the
/// one rule of [`mentions`]. A text of the GM's own is its own fact.
pub fn fact_names(s: &Scenario, c: &Clue, tables: &Tables) -> Vec<String> {
    fact_names_among(s, c, &every_name(s), tables)
}

/// [`fact_names`] with the scenario's names ([`every_name`]) listed once by the caller: a check
/// of every clue listed them two times a clue, a tenth of a default scenario's generation.
fn fact_names_among(s: &Scenario, c: &Clue, names: &[&str], tables: &Tables) -> Vec<String> {
    let mut found = mentions(&fill(s, c, &c.text), names);
    // A ruler's Relationship is a fact of the ruler: the NPC it is bound to is part of it.
    found.extend(crate::myk::weak_story::bond(s, c.reveals).map(str::to_owned));
    // So is what its weak points are told through (`{weak_tell}`): the Common Item it shuns may
    // share its name with a trap or a monster elsewhere ("Full Course").
    if let Reveals::Room(p) = c.reveals
        && let Some(m) = s.map(p.map)
        && let Some(ruler) = m.room(p.room).ruler.as_ref()
    {
        found.extend(mentions(&crate::myk::weak_story::tell(s, m, m.room(p.room), ruler, tables), names));
    }
    found
}

/// A room's id and name, whoever and whatever stands in it.
fn push_room<'s>(s: &'s Scenario, p: Place, out: &mut Vec<&'s str>) {
    let Some(r) = s.map(p.map).map(|m| m.room(p.room)) else { return };
    out.extend([r.id.name(), r.name.as_str()]);
    out.extend(r.ruler.iter().map(|x| x.name.as_str()));
    out.extend(r.monsters.iter().map(|g| g.name.as_str()));
    out.extend(r.traps.iter().map(|t| t.name.as_str()));
    out.extend(r.bases.iter().map(|b| b.name.as_str()));
    out.extend(s.cast.iter().filter(|n| n.place == Some(p)).map(|n| n.name.as_str()));
}

/// Every name of the scenario a clue's text could mention: maps, rooms, creatures, rulers,
/// traps, the cast and the target, longest first (so "Rust Pond" is not also "Pond").
pub(crate) fn every_name(s: &Scenario) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for m in &s.maps {
        out.push(&m.name);
        for r in m.used_rooms() {
            out.push(&r.name);
            out.extend(r.ruler.iter().map(|x| x.name.as_str()));
            out.extend(r.monsters.iter().map(|g| g.name.as_str()));
            out.extend(r.traps.iter().map(|t| t.name.as_str()));
        }
        out.extend(m.corridors.iter().filter_map(|c| c.trap.as_ref()).map(|t| t.name.as_str()));
    }
    out.extend(s.cast.iter().map(|n| n.name.as_str()));
    out.push(s.objective_target());
    out.retain(|n| n.len() > 2);
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out.dedup();
    out
}

/// The names and room ids (after "room", "rooms" or "corridor", capitalised or not) that `text`
/// mentions. A name
/// counts at a word's start, whole or with a plural ending; each mention is masked once found,
/// so a longer name hides the shorter names inside it.
pub fn mentions(text: &str, names: &[&str]) -> Vec<String> {
    let mut t = text.to_string();
    let mut found = Vec::new();
    for &n in names {
        let mut from = 0;
        let mut hit = false;
        while let Some(i) = crate::text::find_at(&t, n, from) {
            let end = i + n.len();
            let before = t[..i].chars().next_back().is_none_or(|c| !c.is_ascii_alphabetic());
            let tail = t[end..].trim_start_matches("es").trim_start_matches('s');
            let after = t[end..].chars().next().is_none_or(|c| !c.is_ascii_lowercase())
                || tail.chars().next().is_none_or(|c| !c.is_ascii_alphabetic());
            if before && after {
                hit = true;
                t.replace_range(i..end, &" ".repeat(n.len()));
            }
            from = end;
        }
        if hit {
            found.push(n.to_string());
        }
    }
    for word in ["room ", "rooms ", "corridor ", "Room ", "Rooms ", "Corridor "] {
        let mut from = 0;
        while let Some(i) = crate::text::find_at(&t, word, from) {
            from = i + word.len();
            let rest = &t[from..];
            found.extend(room_id(rest).map(str::to_string));
            if let Some(second) = rest.get(2..).and_then(|r| r.strip_prefix('-')) {
                found.extend(room_id(second).map(str::to_string));
            }
        }
    }
    found
}

/// The room id ("A1" to "C3") that `text` opens with, if it does as a word of its own.
fn room_id(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    let id = b.len() >= 2 && (b'A'..=b'C').contains(&b[0]) && (b'1'..=b'3').contains(&b[1]);
    (id && b.get(2).is_none_or(|c| !c.is_ascii_alphanumeric())).then(|| &text[..2])
}

/// What the clue's players' texts name that is outside its fact and the room it is found in
/// (its map, its name and id, whoever and whatever stands there).
pub fn names_outside(s: &Scenario, c: &Clue, tables: &Tables) -> Vec<String> {
    names_outside_among(s, c, &every_name(s), tables)
}

/// [`names_outside`] with the scenario's names ([`every_name`]) listed once by the caller.
fn names_outside_among(s: &Scenario, c: &Clue, names: &[&str], tables: &Tables) -> Vec<String> {
    let fact = fact_names_among(s, c, names, tables);
    let mut here: Vec<&str> = Vec::new();
    if let Some(m) = s.map(c.at.map) {
        here.push(&m.name);
    }
    push_room(s, c.at, &mut here);
    here.extend(s.npc_name(c.npc));
    let mut out: Vec<String> = Vec::new();
    for t in players_texts(s, c) {
        for n in mentions(&t, names) {
            if !fact.contains(&n) && !here.contains(&n.as_str()) && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// Whether what the players find or are told of the clue (its Found line or Answer) names at
/// least one thing its fact names.
pub fn says_its_fact(s: &Scenario, c: &Clue, tables: &Tables) -> bool {
    let names = every_name(s);
    let own = fact_names_among(s, c, &names, tables);
    !c.found.is_empty() && mentions(&fill(s, c, &c.found), &names).iter().any(|n| own.contains(n))
}

/// `check`'s rule: a clue's players' text names nothing outside its fact and the room it is
/// found in. One line per clue, naming what it names.
/// `names` is the scenario's [`every_name`], listed once for all its clues.
pub fn check_names(s: &Scenario, c: &Clue, names: &[&str], tables: &Tables, at: &str, v: &mut Vec<Violation>) {
    let outside = names_outside_among(s, c, names, tables);
    if outside.is_empty() {
        return;
    }
    v.push(Violation::new(
        at,
        "clue.names",
        format!(
            "what the players find or hear names `{}`, outside its fact and map {} room {}, where it is found",
            outside.join("`, `"),
            c.at.map,
            c.at.room
        ),
    ));
}

/// A clue's text with its slots filled from what it reveals, as the scenario stands: `{map}`
/// (the revealed map's name), `{room_name}` (the revealed room's name), `{ruler}` (the ruler in
/// the revealed room, "the ruler" if there is none any more) and `{target}`; the one filling of
/// every clue text ([`fill`]).
pub fn clue_text(s: &Scenario, clue: &Clue) -> String {
    fill(s, clue, &clue.text)
}

/// Writes each clue out: what a search turns up, a threat leaves or a solved puzzle opens, the
/// NPC (placed in the clue's room), question, answer and condition of a conversation, the whole
/// puzzle. What the players get is written from the clue's own fact
/// ([`draw`]); the older pools serve a clue whose fact the pools have no
/// entry for (a tables folder of the GM's own).
pub fn write_clues(s: &mut Scenario, tables: &Tables, new_npc: &mut dyn FnMut(&mut Dice) -> Npc, d: &mut Dice) {
    let pools = &tables.story;
    // One set of kept placeholders for every clue; a conversation's gift is set for its own
    // texts and put back (a copy of the set per clue cost fifteen allocations).
    let mut fill = story::Fill::keep();
    let mats = story::materials(tables);
    // The entries drawn so far: two clues of a scenario read alike only when the pool is spent.
    let mut used = Vec::new();
    for k in 0..s.clues.len() {
        let mut cd = d.child_n("clue/", k as u32 + 1, "");
        let at = s.clues[k].at;
        // Only a text that speaks of what stands there: a trap is disarmed, not beaten.
        let threat = s.map(at.map).map(|m| story::threat_kind(m.room(at.room)));
        let told = draw(s, tables, &s.clues[k], threat, &mut used, &mut cd);
        match s.clues[k].method {
            ClueMethod::Search => {
                let found = told.map(|t| t.found);
                s.clues[k].found = found
                    .unwrap_or_else(|| cd.choose(&pools.clue_search).map(|t| fill.pool(&t.text)).unwrap_or_default());
            }
            ClueMethod::Threat => {
                let fits = || pools.clue_threat.iter().filter(|t| t.threat.is_none() || t.threat == threat);
                let found = told.map(|t| t.found);
                s.clues[k].found =
                    found.unwrap_or_else(|| cd.choose_from(fits).map(|t| fill.pool(&t.text)).unwrap_or_default());
            }
            ClueMethod::Conversation => {
                let name = story::informant_at(s, at, new_npc, &mut cd);
                let gift = cd.choose(mats).map_or("Iron", String::as_str);
                // The Material alone: every condition text says how much ("one unit of {gift}").
                let kept = fill.gift.replace(gift.into());
                match told {
                    Some(t) => (s.clues[k].ask, s.clues[k].found) = (t.ask, t.found),
                    None => {
                        if let Some(t) = cd.choose(&pools.clue_talk) {
                            s.clues[k].ask = fill.pool(&t.ask);
                            s.clues[k].found = fill.pool(&t.text);
                        }
                    }
                }
                // A condition names nothing of the scenario but the gift (issue 46): one that
                // names a room, ruler or map would name what the clue's fact does not.
                let plain =
                    || pools.clue_condition.iter().filter(|c| crate::text::slots(&c.text).all(|x| x.name == "gift"));
                s.clues[k].condition = cd.choose_from(plain).map(|c| fill.pool(&c.text)).unwrap_or_default();
                fill.gift = kept;
                s.clues[k].how = ["ask {npc} (", &s.clues[k].condition, ")"].concat();
                s.clues[k].npc = Some(name);
            }
            ClueMethod::Puzzle => {
                if let Some(p) = cd.choose(&pools.puzzle) {
                    s.clues[k].puzzle =
                        Some(PuzzleText { text: p.text.clone(), answer: p.answer.clone(), hints: p.hints.clone() });
                    s.clues[k].how = "solve the puzzle written out below".into();
                }
                // What solving it opens: the clue's fact, in its own words.
                s.clues[k].found = told.map(|t| t.found).unwrap_or_default();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{and_list, mentions};

    #[test]
    fn a_mention_counts_whole_names_and_plurals_longest_first() {
        let names = ["Rust Pond", "Goblin", "Pond"];
        let mut got = mentions("3 Goblins guard Rust Pond; the corridor A1-B2 and room C3 too.", &names);
        got.sort();
        assert_eq!(got, ["A1", "B2", "C3", "Goblin", "Rust Pond"]);
        assert!(mentions("Goblinoid lands", &names).is_empty());
    }

    #[test]
    fn weak_points_are_listed_with_and() {
        assert_eq!(and_list(&["Sealed"]), "Sealed");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }
}
