//! Clues a court can find (seed 003 l.5157-5177; weak points l.6797): what each clue reveals, where
//! it may lie, how it is learned, and the rules `check` enforces. The generator places clues with
//! the same functions, so the two cannot drift apart.
//!
//! - A clue lies in a used room the court can reach from the entrance without passing what it
//!   reveals: never behind its own secret door or trapped corridor, never in the room it reveals
//!   (so never in the ruler's own room when it reveals the ruler).
//! - Every weak point of every ruler is named by a clue found on that ruler's map (the book asks
//!   the GM to plant information about the weakness).
//! - The method fits the room: a conversation needs monsters to talk to, eliminating a threat
//!   needs a threat (monsters, a trap or a base); searching and puzzles fit anywhere.
//! - 2-4 clues per scenario (the book's advice), plus one for each ruler with weak points.

pub mod text;

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{
    AdjustmentKind, Clue, ClueMethod, CorridorId, Map, ObjectiveKind, Place, Reaction, Reveals, Room, RoomId, Ruler,
    Scenario,
};
use crate::myk::reach::Reach;
use crate::tables::Tables;

/// The weak points of a ruler, by name. Every clue rule reads weak points through this one
/// function, so a change in how rulers record them touches only this place.
pub fn weak_points(ruler: &Ruler) -> Vec<&str> {
    weak_point_names(ruler).collect()
}

/// [`weak_points`] without listing them (the generator and `check` only walk them).
fn weak_point_names(ruler: &Ruler) -> impl Iterator<Item = &str> + Clone {
    ruler.adjustments.iter().filter(|a| a.kind == AdjustmentKind::WeakPoint).map(|a| a.what.as_str())
}

/// Monsters, a trap or a base: something the court can eliminate.
pub fn has_threat(r: &Room) -> bool {
    r.has_monsters() || !r.traps.is_empty() || !r.bases.is_empty()
}

/// Whether a clue can be learned this way in this room.
pub fn method_fits(r: &Room, method: ClueMethod) -> bool {
    match method {
        ClueMethod::Conversation => r.has_monsters(),
        ClueMethod::Threat => has_threat(r),
        ClueMethod::Search | ClueMethod::Puzzle => true,
    }
}

/// Whether `reveals` names a used room or an existing corridor of an existing map.
fn names_something(s: &Scenario, reveals: Reveals) -> bool {
    match reveals {
        Reveals::Room(p) => s.map(p.map).is_some_and(|m| m.room(p.room).used),
        Reveals::Corridor { map, corridor } => {
            s.map(map).is_some_and(|m| m.corridors.iter().any(|c| c.id() == corridor))
        }
    }
}

/// Every used room where a clue revealing `reveals` may lie: reachable from outside the dungeon
/// (every way the court can find) without entering the revealed room or travelling the revealed
/// corridor.
pub fn finds(s: &Scenario, tables: &Tables, reveals: Reveals) -> Vec<Place> {
    finds_in(s, &Reach::new(s, tables), reveals)
}

/// [`finds`] on a graph already built for the scenario.
fn finds_in(s: &Scenario, g: &Reach, reveals: Reveals) -> Vec<Place> {
    let seen = g.from_outside_without(reveals);
    s.maps
        .iter()
        .enumerate()
        .flat_map(|(p, m)| {
            let seen = &seen;
            m.used_rooms().filter(move |r| Reach::at(seen, p, r.id)).map(move |r| Place { map: m.index, room: r.id })
        })
        .collect()
}

/// Whether `at` is among [`finds_in`]'s places, without listing them.
fn lies_in_finds(s: &Scenario, g: &Reach, reveals: Reveals, at: Place) -> bool {
    let seen = g.from_outside_without(reveals);
    s.maps
        .iter()
        .enumerate()
        .any(|(p, m)| m.index == at.map && m.used_rooms().any(|r| r.id == at.room) && Reach::at(&seen, p, at.room))
}

/// Every clue rule, in clue order, then the scenario-wide ones.
pub fn check(s: &Scenario, tables: &Tables, v: &mut Vec<Violation>) {
    check_in(s, &Reach::new(s, tables), tables, v)
}

/// [`check`] on a movement graph already built for the scenario.
pub fn check_in(s: &Scenario, g: &Reach, tables: &Tables, v: &mut Vec<Violation>) {
    let search = crate::myk::limits::limits(&crate::myk::limits::totals(&s.court.levels)).search_difficulty;
    // "clue N", written into one buffer: most clues break no rule, and their names were made anew
    // (a `format!` and an allocation each) for the violations that never came.
    let mut at = String::with_capacity(16);
    let names = crate::myk::clues::text::every_name(s);
    for (i, c) in s.clues.iter().enumerate() {
        at.clear();
        at.push_str("clue ");
        at.push_str(itoa::Buffer::new().format(i + 1));
        check_clue(s, g, c, &names, tables, &at, search, v);
    }
    let rulers_with_weak_points = weak_points_told(s, v);
    // The clues lead to the objective (seed 003 l.5159): in a dungeon of several maps one tells
    // where the ruler the objective names is.
    if s.maps.len() > 1
        && s.objective.at.is_none()
        && let Some(goal) = s.objective_room()
        && !s.clues.iter().any(|c| c.reveals == Reveals::Room(goal))
    {
        v.push(Violation::advice(
            "scenario",
            "clue.objective",
            format!("no clue reveals map {} room {}, where the ruler the objective names is", goal.map, goal.room),
        ));
    }
    let most = 4 + rulers_with_weak_points;
    if !(2..=most).contains(&s.clues.len()) {
        // "Typically" 2-4 (seed 003 l.5161): advice, not a rule.
        v.push(Violation::advice(
            "scenario",
            "clues.count",
            format!("{} clues, expected 2-{most} (2-4, plus one per ruler with weak points)", s.clues.len()),
        ));
    }
}

/// One clue: it lies in a used room, is learned in a way the room allows (at the book's search
/// difficulty), reveals something that exists, and can be found without passing what it reveals.
#[allow(clippy::too_many_arguments)] // the clue, what it is checked against, and where it is told
fn check_clue(
    s: &Scenario,
    g: &Reach,
    c: &Clue,
    names: &[&str],
    tables: &Tables,
    at: &str,
    search: u32,
    v: &mut Vec<Violation>,
) {
    let Some(room) = s.map(c.at.map).map(|m| m.room(c.at.room)).filter(|r| r.used) else {
        v.push(Violation::new(at, "clue.place", format!("map {} room {} is not a used room", c.at.map, c.at.room)));
        return;
    };
    // A cast NPC told where to stand is someone to talk to (`story::check` sees that they do).
    let npc_talks = c.method == ClueMethod::Conversation && c.npc.is_some();
    if !npc_talks && !method_fits(room, c.method) {
        let why = match c.method {
            ClueMethod::Conversation => "there are no monsters to talk to",
            _ => "there is no threat to eliminate",
        };
        v.push(Violation::new(
            at,
            "clue.method",
            format!("learned by {} in map {} room {}, but {why}", c.method.label(), c.at.map, c.at.room),
        ));
    }
    search_difficulty(c, search, at, v);
    if !names_something(s, c.reveals) {
        v.push(Violation::new(
            at,
            "clue.reveals",
            format!("it reveals {}, which is not a used room or a corridor of the scenario", c.reveals),
        ));
        return;
    }
    fact_holds(s, c, at, v);
    crate::myk::clues::text::check_names(s, c, names, tables, at, v);
    if !lies_in_finds(s, g, c.reveals, c.at) {
        v.push(Violation::new(
            at,
            "clue.behind",
            format!(
                "it lies in map {} room {}, which the court reaches only by passing what it reveals ({})",
                c.at.map, c.at.room, c.reveals
            ),
        ));
    }
}

/// A clue in the generator's words says something the dungeon holds: its trap is in its room,
/// its group holds it, its corridor carries its trap, its ruler has its weak points (a text of
/// the GM's own is theirs to keep true). One line naming what does not hold.
fn fact_holds(s: &Scenario, c: &Clue, at: &str, v: &mut Vec<Violation>) {
    let Some(kind) = fact_kind(&c.text) else { return };
    // What the clue claims, not its exact words: an older file's wording, or a line the GM
    // added, still holds while its trap, group, base, destination and weak points do.
    // A target's place holds where the objective stands (an objective of an older file, which
    // names no place, contradicts none).
    let holds = if kind == 8 {
        s.objective.at.is_none_or(|p| Reveals::Room(p) == c.reveals)
    } else {
        let (rulers, rest) = facts(s);
        rulers
            .iter()
            .chain(&rest)
            .filter(|f| f.reveals == c.reveals && fact_kind(&f.text()) == Some(kind))
            .any(|f| claims_hold(f, &c.text))
    };
    if holds {
        return;
    }
    let place = match c.reveals {
        Reveals::Room(p) => format!("map {} room {}", p.map, p.room),
        Reveals::Corridor { map, corridor } => {
            format!("map {map} corridor {}-{}", corridor.0.name(), corridor.1.name())
        }
    };
    let why = match kind {
        0 => "the ruler there or its weak points are not as it says",
        1 => "no trap there hides that corridor",
        2 => "no trap there carries the court where it says",
        3 => "the room does not hold that trap",
        4 => "the corridor does not carry that trap",
        5 => "the room does not hold that base",
        6 => "that group does not hold the room",
        7 => "the room is not free of threats",
        _ => "the objective's target is not there",
    };
    v.push(Violation::new(
        at,
        "clue.fact",
        format!("it says “{}”, but in {place} {why}", crate::myk::clues::text::clue_text(s, c)),
    ));
}

/// Whether what `text` claims of the fact's kind holds for fact `f`: it names the fact's trap,
/// base, group or destination, and only weak points the ruler has.
fn claims_hold(f: &Fact, text: &str) -> bool {
    match &f.says {
        Says::Ruler { ruler, .. } => {
            claimed_weak_points(text).iter().all(|w| weak_point_names(ruler).any(|x| x.eq_ignore_ascii_case(w)))
        }
        Says::Carries { trap, to, .. } => text.contains(trap) && text.contains(to.name()),
        Says::Trap { trap, .. } | Says::TrappedCorridor { trap, .. } => text.contains(trap),
        Says::Base { base, .. } => text.contains(base),
        // "4 Medicine Men": the group as its fact line counts it, or its name.
        Says::Monsters { monster, count, .. } => {
            contains_ignoring_case(text, monster) || text.contains(&crate::text::count((*count).into(), monster))
        }
        Says::SecretDoor { .. } | Says::Safe { .. } | Says::Target { .. } => true,
    }
}

/// The weak points a ruler's line names ("its weak point is X", "its weak points are X, Y and
/// Z", in any letter case), up to the sentence's end.
fn claimed_weak_points(text: &str) -> Vec<&str> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for marker in ["weak point is ", "weak points are "] {
        let mut from = 0;
        while let Some(i) = lower[from..].find(marker).map(|i| from + i + marker.len()) {
            let end = text[i..].find('.').map_or(text.len(), |e| i + e);
            out.extend(
                text[i..end].split(", ").flat_map(|w| w.split(" and ")).map(str::trim).filter(|w| !w.is_empty()),
            );
            from = end;
        }
    }
    out
}

/// Every weak point of every ruler is named by a clue on its map that reveals the ruler's room.
/// Returns how many rulers have weak points (each may add a clue to the usual count).
fn weak_points_told(s: &Scenario, v: &mut Vec<Violation>) -> usize {
    let mut rulers_with_weak_points = 0;
    for m in &s.maps {
        for r in m.rooms.iter() {
            let Some(ru) = &r.ruler else { continue };
            let mut weak = weak_point_names(ru).peekable();
            if weak.peek().is_some() {
                rulers_with_weak_points += 1;
            }
            let ruler_room = Reveals::Room(Place { map: m.index, room: r.id });
            for w in weak {
                let told = s
                    .clues
                    .iter()
                    .any(|c| c.at.map == m.index && c.reveals == ruler_room && contains_ignoring_case(&c.text, w));
                if !told {
                    v.push(Violation::new(
                        format!("map {} room {}", m.index, r.id),
                        "clue.weak-point",
                        format!(
                            "no clue on map {} reveals this room and names the weak point `{w}` of {}",
                            m.index, ru.name
                        ),
                    ));
                }
            }
        }
    }
    rulers_with_weak_points
}

/// A Search clue's difficulty is the book's court size + 7 (seed 003 l.1925): the number it
/// records, if any, and every number its wording names ("difficulty of 9", "Wit or Quest / 9"); no other method
/// records one.
fn search_difficulty(c: &Clue, search: u32, at: &str, v: &mut Vec<Violation>) {
    let bad = |msg: String| Violation::new(at, "clue.search-difficulty", msg);
    let book = "a search is always court size + 7";
    if c.method != ClueMethod::Search {
        if let Some(n) = c.difficulty {
            v.push(bad(format!("only a Search clue has a difficulty, but this {} clue records {n}", c.method.label())));
        }
        return;
    }
    // None (a clue a GM turned into a Search by hand) is the book's number: `fix` writes it.
    if let Some(n) = c.difficulty.filter(|&n| n != search) {
        v.push(bad(format!("the search is difficulty {n}, but {book} = {search} (seed 003 l.1925)")));
    }
    if let Some(n) = numbers(&c.how).find(|&n| n != search) {
        v.push(bad(format!("its wording names {n}, but {book} = {search} (seed 003 l.1925)")));
    }
}

/// The whole numbers a text names, in order ("Wit or Quest / 9" names 9).
pub fn numbers_in(text: &str) -> Vec<u32> {
    numbers(text).collect()
}

/// [`numbers_in`] without listing them, read bytewise: each run of ASCII digits (a digit is one
/// byte in UTF-8, and no byte of another character is one), skipping a run too long for a `u32`.
/// `check` reads every Search clue's wording, and splitting it by characters parsed an empty
/// word between every two letters.
fn numbers(text: &str) -> impl Iterator<Item = u32> + '_ {
    text.as_bytes()
        .split(|b| !b.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .filter_map(|w| std::str::from_utf8(w).ok()?.parse().ok())
}

/// Whether `text` names `word` in any letter case (as lower-casing both would tell), without
/// lower-cased copies for the ASCII texts the tables hold.
fn contains_ignoring_case(text: &str, word: &str) -> bool {
    if text.is_ascii() && word.is_ascii() {
        // A window is compared whole only where its first letter matches (most do not).
        let (text, word) = (text.as_bytes(), word.as_bytes());
        let Some(first) = word.first() else { return true };
        text.windows(word.len()).any(|w| w[0].eq_ignore_ascii_case(first) && w.eq_ignore_ascii_case(word))
    } else {
        text.to_lowercase().contains(&word.to_lowercase())
    }
}

/// The table a puzzle clue's `how` is rolled on.
pub const PUZZLE_TABLE: &str = "myk.frame.puzzle";

/// How a clue of this method is learned, for a court whose search difficulty is `search`; `None`
/// for a puzzle, whose text is rolled on [`PUZZLE_TABLE`].
pub fn how(method: ClueMethod, search: u32) -> Option<String> {
    match method {
        ClueMethod::Search => {
            Some(["search check in the room, difficulty ", itoa::Buffer::new().format(search)].concat())
        }
        ClueMethod::Threat => Some("defeat or drive off the room's threat".to_string()),
        ClueMethod::Conversation => Some("talk with the room's monsters (negotiation or a Charisma check)".to_string()),
        ClueMethod::Puzzle => None,
    }
}

/// How this clue is learned in its room, in words that fit what stands there: the search at the
/// court's difficulty, the named threat to defeat, disarm or destroy, the NPC to ask and the
/// condition, the puzzle written out; `None` for a puzzle without its text (a file's own).
pub fn how_for(s: &Scenario, c: &Clue, search: u32) -> Option<String> {
    let room = s.map(c.at.map).map(|m| m.room(c.at.room));
    match c.method {
        ClueMethod::Threat => room.map(threat_how).or_else(|| how(c.method, search)),
        // `{npc}` is filled when the clue is printed, from the cast as it then stands.
        ClueMethod::Conversation => match &c.npc {
            Some(_) if c.condition.is_empty() => Some("ask {npc}".to_owned()),
            Some(_) => Some(["ask {npc} (", &c.condition, ")"].concat()),
            None => how(c.method, search),
        },
        ClueMethod::Puzzle => c.puzzle.as_ref().map(|_| PUZZLE_HOW.to_string()),
        ClueMethod::Search => how(c.method, search),
    }
}

/// A puzzle clue's `how` when the puzzle is written out beside it.
pub const PUZZLE_HOW: &str = "solve the puzzle written out below";

/// What eliminating the room's threat means there: defeat or win over its monsters, else disarm
/// its trap, else destroy its base.
pub fn threat_how(r: &Room) -> String {
    if let Some(ru) = &r.ruler {
        return ["defeat ", &ru.name, " or drive it off"].concat();
    }
    if let Some(g) = r.monsters.first() {
        let verb = if g.reaction == Reaction::Hostile { "defeat or drive off the " } else { "defeat or win over the " };
        return [verb, &g.name].concat();
    }
    if let Some(t) = r.traps.first() {
        return ["disarm the ", &t.name].concat();
    }
    if let Some(b) = r.bases.first() {
        return ["destroy the ", &b.name].concat();
    }
    "defeat or drive off the room's threat".into()
}

/// What a fact's text tells about, from the words of its template in [`facts`] (`None` for a
/// text of the GM's own).
fn fact_kind(text: &str) -> Option<u8> {
    const MARKERS: [&str; 9] = [
        " rules ", // also an older file's " rules the {map}"
        "A secret door in room ",
        " carries you to room ",
        " hides a trap: ",
        " is trapped: ",
        "The monsters keep a ",
        " hold room ",
        "Nothing lies in wait in room ",
        " is to be found in room ",
    ];
    // A target's place, as told since its wording follows the objective's kind (see
    // `target_says`); the older wording above is the same kind of fact.
    if text.contains(TARGET_MARKER) {
        return Some(8);
    }
    // "1 Goblin holds room B2" is the monsters' fact as "3 Goblins hold room B2" is.
    if text.contains(" holds room ") {
        return Some(6);
    }
    MARKERS.iter().position(|m| text.contains(m)).map(|i| i as u8)
}

/// Each clue's text told anew from the scenario as it stands, where an edit made it stale: a
/// clue that tells a fact of the generator's (a ruler's weak points, a room's trap, monsters or
/// base) gets that fact's current text, when what it reveals holds exactly one fact of its kind.
/// A text that still matches, or that is the GM's own, is kept (`None`).
pub fn retold(s: &Scenario) -> Vec<Option<String>> {
    let (rulers, rest) = facts(s);
    let all: Vec<(Reveals, String)> = rulers.iter().chain(&rest).map(|f| (f.reveals, f.text())).collect();
    s.clues
        .iter()
        .map(|c| {
            let here: Vec<&String> = all.iter().filter(|f| f.0 == c.reveals).map(|f| &f.1).collect();
            if here.iter().any(|&t| *t == c.text) {
                return None;
            }
            let kind = fact_kind(&c.text)?;
            match here.iter().filter(|t| fact_kind(t) == Some(kind)).collect::<Vec<_>>().as_slice() {
                [one] => Some((**one).clone()),
                _ => None,
            }
        })
        .collect()
}

/// Something true about the scenario that a clue can tell, and what it reveals. Names of what it
/// reveals stay placeholders (`{ruler}`, `{map}`, `{room_name}`; see `text::clue_text`), so a
/// renamed room or ruler never leaves the clue stale. The text is written only for a fact a
/// clue tells (the generator draws a few of many).
pub(crate) struct Fact<'s> {
    pub(crate) says: Says<'s>,
    pub(crate) reveals: Reveals,
    /// A ruler's weak points: the clue must be placed (on the ruler's map).
    required: bool,
    ruler: bool,
}

/// What a fact says, in the room `room` (or of the corridor): the parts its text is made of.
pub(crate) enum Says<'s> {
    Ruler {
        room: RoomId,
        ruler: &'s Ruler,
    },
    SecretDoor {
        room: RoomId,
        corridor: CorridorId,
    },
    Carries {
        trap: &'s str,
        on: &'s str,
        room: RoomId,
        to: RoomId,
    },
    Trap {
        room: RoomId,
        trap: &'s str,
        level: u32,
    },
    Base {
        room: RoomId,
        base: &'s str,
    },
    Monsters {
        room: RoomId,
        monster: &'s str,
        count: u32,
    },
    Safe {
        room: RoomId,
    },
    TrappedCorridor {
        corridor: CorridorId,
        trap: &'s str,
        level: u32,
    },
    /// Where the objective's target is (in words that fit the objective's kind).
    Target {
        room: RoomId,
        map: u32,
        kind: ObjectiveKind,
    },
}

impl Fact<'_> {
    /// The fact's text, as a clue tells it.
    pub(crate) fn text(&self) -> String {
        match &self.says {
            Says::Ruler { room, ruler } => ruler_says(*room, ruler),
            Says::SecretDoor { room, corridor } => [
                "A secret door in room ",
                room.name(),
                " hides the corridor ",
                corridor.0.name(),
                "-",
                corridor.1.name(),
                ".",
            ]
            .concat(),
            Says::Carries { trap, on, room, to } => {
                ["The ", trap, " on the ", on, " in room ", room.name(), " carries you to room ", to.name(), "."]
                    .concat()
            }
            Says::Trap { room, trap, level } => [
                "Room ",
                room.name(),
                " ({room_name}) hides a trap: ",
                trap,
                " (level ",
                itoa::Buffer::new().format(*level),
                ").",
            ]
            .concat(),
            Says::Base { room, base } => {
                ["The monsters keep a ", base, " in room ", room.name(), " ({room_name})."].concat()
            }
            Says::Monsters { room, monster, count } => {
                let holds = if *count == 1 { " holds room " } else { " hold room " };
                [&crate::text::count((*count).into(), monster), holds, room.name(), " ({room_name})."].concat()
            }
            Says::Safe { room } => {
                ["Nothing lies in wait in room ", room.name(), " ({room_name}): a safe place to camp."].concat()
            }
            Says::Target { room, map, kind } => target_says(*room, *map, *kind),
            Says::TrappedCorridor { corridor, trap, level } => [
                "The corridor ",
                corridor.0.name(),
                "-",
                corridor.1.name(),
                " is trapped: ",
                trap,
                " (level ",
                itoa::Buffer::new().format(*level),
                ").",
            ]
            .concat(),
        }
    }
}

/// What a ruler fact says: where the ruler waits, and its weak points named ("a, b and c").
fn ruler_says(room: RoomId, ruler: &Ruler) -> String {
    let weak = weak_point_names(ruler);
    match weak.clone().count() {
        0 => ["{ruler} rules {map} and waits in room ", room.name(), " ({room_name})."].concat(),
        1 => [
            "{ruler} rules {map} from room ",
            room.name(),
            "; its weak point is ",
            weak.clone().next().unwrap_or_default(),
            ".",
        ]
        .concat(),
        n => {
            let mut s = ["{ruler} rules {map} from room ", room.name(), "; its weak points are "].concat();
            for (i, w) in weak.enumerate() {
                if i + 1 == n {
                    s.push_str(" and ");
                } else if i > 0 {
                    s.push_str(", ");
                }
                s.push_str(w);
            }
            s.push('.');
            s
        }
    }
}

fn room_fact<'s>(m: &Map, r: &Room, says: Says<'s>) -> Fact<'s> {
    Fact { says, reveals: Reveals::Room(Place { map: m.index, room: r.id }), required: false, ruler: false }
}

/// Every fact of the scenario a clue could tell: rulers first (in map order), then the rest.
fn facts(s: &Scenario) -> (Vec<Fact<'_>>, Vec<Fact<'_>>) {
    // Sized once: a room tells of each trap and base and of its monsters or its safety, a corridor
    // of its trap; `rest` has room for the rulers too, which `place_on` moves into it.
    let rooms = || s.maps.iter().flat_map(|m| m.used_rooms());
    let n_rulers = rooms().filter(|r| r.ruler.is_some()).count();
    let n_rest = rooms().map(|r| r.traps.len() + r.bases.len() + 1).sum::<usize>()
        + s.maps.iter().flat_map(|m| &m.corridors).filter(|c| c.trap.is_some()).count();
    let mut rulers = Vec::with_capacity(n_rulers);
    let mut rest = Vec::with_capacity(n_rest + n_rulers);
    for m in &s.maps {
        for r in m.used_rooms() {
            let room = r.id;
            if let Some(ru) = &r.ruler {
                let required = weak_point_names(ru).next().is_some();
                rulers.push(Fact { required, ruler: true, ..room_fact(m, r, Says::Ruler { room, ruler: ru }) });
            }
            for t in &r.traps {
                if let Some(c) = t.corridor {
                    rest.push(Fact {
                        says: Says::SecretDoor { room, corridor: c },
                        reveals: Reveals::Corridor { map: m.index, corridor: c },
                        required: false,
                        ruler: false,
                    });
                } else if let Some(dst) = t.destination {
                    let on = t.object.as_deref().unwrap_or("floor");
                    rest.push(room_fact(m, r, Says::Carries { trap: &t.name, on, room, to: dst.room }));
                } else {
                    rest.push(room_fact(m, r, Says::Trap { room, trap: &t.name, level: t.level }));
                }
            }
            for b in &r.bases {
                rest.push(room_fact(m, r, Says::Base { room, base: &b.name }));
            }
            if r.ruler.is_none()
                && let Some(g) = r.monsters.first()
            {
                rest.push(room_fact(m, r, Says::Monsters { room, monster: &g.name, count: g.count }));
            }
            if !has_threat(r) {
                rest.push(room_fact(m, r, Says::Safe { room }));
            }
        }
        for c in &m.corridors {
            if let Some(t) = &c.trap {
                rest.push(Fact {
                    says: Says::TrappedCorridor { corridor: c.id(), trap: &t.name, level: t.level },
                    reveals: Reveals::Corridor { map: m.index, corridor: c.id() },
                    required: false,
                    ruler: false,
                });
            }
        }
    }
    // The objective's target (not a ruler it names): its place is a fact too, told after the
    // rulers so the objective's clue tells it.
    if let Some(p) = s.objective.at
        && !s.objective.text.is_empty()
        && s.map(p.map).is_some_and(|m| m.room(p.room).used)
    {
        rulers.push(Fact {
            says: Says::Target { room: p.room, map: p.map, kind: s.objective.kind },
            reveals: Reveals::Room(p),
            required: false,
            ruler: true,
        });
    }
    (rulers, rest)
}

/// Every wording of a target's place holds this (and no other fact's does).
const TARGET_MARKER: &str = " ({room_name}) on map ";

/// Where the objective's target is, as a clue tells it for the objective's kind: where the
/// captive is held, the item kept, where an item must go, where the rival is heading.
fn target_says(room: RoomId, map: u32, kind: ObjectiveKind) -> String {
    let (before, after) = match kind {
        ObjectiveKind::Defeat => ("{target} waits in room ", ""),
        ObjectiveKind::Rescue => ("{target} is held in room ", ""),
        ObjectiveKind::Acquire => ("{target} is kept in room ", ""),
        ObjectiveKind::Search => ("The trouble, {target}, comes from room ", ""),
        ObjectiveKind::Deliver => ("{target} must be brought to room ", ""),
        ObjectiveKind::WinOver => ("{target}, whom the court must win over, can be found in room ", ""),
        ObjectiveKind::Race => ("{target} is heading for room ", ""),
    };
    [before, room.name(), TARGET_MARKER, itoa::Buffer::new().format(map), " ({map})", after, "."].concat()
}

/// Whether the clue still tells something true of the scenario as it stands: one of the facts the
/// generator would draw clues from has the clue's text and reveals the same thing. A reroll uses it
/// to see which clues its change made false (those follow the change).
pub fn tells_truth(s: &Scenario, clue: &Clue) -> bool {
    let (rulers, rest) = facts(s);
    rulers.iter().chain(&rest).any(|f| f.reveals == clue.reveals && f.text() == clue.text)
}

/// The fact a clue tells as the scenario stands: the one that reveals what the clue reveals in
/// the clue's own words; `None` for a text of the GM's own or one the scenario no longer holds.
pub(crate) fn fact_of<'s>(s: &'s Scenario, clue: &Clue) -> Option<Fact<'s>> {
    let (rulers, rest) = facts(s);
    rulers.into_iter().chain(rest).find(|f| f.reveals == clue.reveals && f.text() == clue.text)
}

/// Places the scenario's clues: one for each ruler with weak points (on its map), the last
/// ruler's whereabouts, then other facts drawn at random, 2-4 in all where the weak points leave
/// room. Each lies where [`finds`] allows, on the map of what it reveals, by a method that fits.
pub fn place(s: &Scenario, tables: &Tables, d: &mut Dice) -> Vec<Clue> {
    place_on(s, &Reach::new(s, tables), d)
}

/// [`place`] on a movement graph already built for the scenario.
pub(crate) fn place_on(s: &Scenario, g: &Reach, d: &mut Dice) -> Vec<Clue> {
    let search = crate::myk::limits::limits(&s.court).search_difficulty;
    let n = d.between(2, 4) as usize;
    let goal = s.objective_room().map(Reveals::Room);
    let (mut leading, mut other) = (0usize, 0usize);
    let mut out = Vec::with_capacity(n + 2);
    for (fact, leads) in ordered_facts(s, g, goal, d) {
        if !fact.required && out.len() >= n {
            continue;
        }
        if !leads && other >= leading {
            continue;
        }
        // Two clues of one room or corridor tell the court nothing new (a defeat's target is
        // its ruler: one clue says where it waits).
        if !fact.required && out.iter().any(|c: &Clue| c.reveals == fact.reveals) {
            continue;
        }
        let Some(at) = spot(s, g, &fact, &out, goal, d) else { continue };
        let Some(room) = s.map(at.map).map(|m| m.room(at.room)) else { continue };
        if leads {
            leading += 1;
        } else {
            other += 1;
        }
        out.push(new_clue(&fact, at, room, search, d));
    }
    out
}

/// The facts in the order clues are made of them: the required ones (rulers with weak points, the
/// objective's ruler) first, then the rest shuffled, those that lead toward the objective or a
/// weak point before a room's contents, each with whether it leads.
fn ordered_facts<'s>(s: &'s Scenario, g: &Reach, goal: Option<Reveals>, d: &mut Dice) -> Vec<(Fact<'s>, bool)> {
    let (mut queue, mut rest) = facts(s);
    // The queue keeps the rulers with weak points (required clues), in order; the other rulers join
    // the rest, in order.
    rest.extend(queue.extract_if(.., |f| !f.required));
    // The objective's ruler: its whereabouts must be told (the clues lead to the objective), so
    // they join the queue as a required clue unless a weak-point clue already tells them.
    if let Some(goal) = goal
        && !queue.iter().any(|f| f.reveals == goal)
        && let Some(i) = rest.iter().rposition(|f| f.ruler && f.reveals == goal)
    {
        queue.push(Fact { required: true, ..rest.remove(i) });
    }
    d.shuffle(&mut rest);
    // At least half the clues lead toward the objective or a weak point (issue 46; seed 003
    // l.5159): those facts are offered first, and a fact of a room's contents, which Gather
    // Information already tells (l.1669), joins only while the leading ones keep half.
    let target = s.objective_room();
    let mut rest: Vec<(Fact, bool)> = rest
        .into_iter()
        .map(|f| {
            let leads = text::leads(s, g, &f, target);
            (f, leads)
        })
        .collect();
    rest.sort_by_key(|(_, leads)| !leads);
    queue.into_iter().map(|f| (f, true)).chain(rest).collect()
}

/// Where the clue of `fact` lies: a room of the revealed map the court reaches without passing
/// what it reveals, one that holds no clue yet first; the objective's clue may lie on an earlier
/// map when its own map offers no place.
fn spot(s: &Scenario, g: &Reach, fact: &Fact, out: &[Clue], goal: Option<Reveals>, d: &mut Dice) -> Option<Place> {
    // `choose` over the places of `finds_in` on the revealed map, without listing them.
    let seen = g.from_outside_without(fact.reveals);
    let spots = || {
        s.maps.iter().enumerate().filter(|(_, m)| m.index == fact.reveals.map()).flat_map(|(p, m)| {
            let seen = &seen;
            m.used_rooms().filter(move |r| Reach::at(seen, p, r.id)).map(move |r| Place { map: m.index, room: r.id })
        })
    };
    let anywhere = || {
        s.maps.iter().enumerate().flat_map(|(p, m)| {
            let seen = &seen;
            m.used_rooms().filter(move |r| Reach::at(seen, p, r.id)).map(move |r| Place { map: m.index, room: r.id })
        })
    };
    // Clues spread over the rooms: a room that holds none yet comes first.
    let free = || spots().filter(|p| !out.iter().any(|c: &Clue| c.at == *p));
    match d.choose_from(free).or_else(|| d.choose_from(spots)) {
        Some(at) => Some(at),
        None if Some(fact.reveals) == goal => d.choose_from(anywhere),
        None => None,
    }
}

/// The clue of `fact` found at `at`, by a method that fits the room.
fn new_clue(fact: &Fact, at: Place, room: &Room, search: u32, d: &mut Dice) -> Clue {
    // A conversation is with a cast NPC the story places in the room (`story::write_clues`).
    let method = match d.below(4) {
        0 if has_threat(room) => ClueMethod::Threat,
        1 => ClueMethod::Conversation,
        2 => ClueMethod::Puzzle,
        _ => ClueMethod::Search,
    };
    let how = match method {
        ClueMethod::Threat => threat_how(room),
        _ => how(method, search).unwrap_or_else(|| PUZZLE_HOW.into()),
    };
    let difficulty = (method == ClueMethod::Search).then_some(search);
    Clue {
        text: fact.text(),
        at,
        method,
        how,
        difficulty,
        reveals: fact.reveals,
        found: String::new(),
        npc: None,
        ask: String::new(),
        condition: String::new(),
        puzzle: None,
    }
}

#[cfg(test)]
mod tests {
    use super::{contains_ignoring_case, numbers_in};

    #[test]
    fn a_text_names_the_numbers_a_split_by_characters_finds() {
        for text in [
            "search check in the room, difficulty 11",
            "Wit or Quest / 9",
            "12 and 7, then 0042",
            "no number",
            "",
            "Ärger 3 über 4ß5",
            "too long 99999999999 but 5",
            "9",
        ] {
            let by_chars: Vec<u32> = text.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
            assert_eq!(numbers_in(text), by_chars, "{text}");
        }
    }

    #[test]
    fn a_weak_point_is_named_in_any_letter_case() {
        for (text, word) in [
            ("Its weak point is Split Core.", "split core"),
            ("ITS WEAK POINT IS KARMA", "Karma"),
            ("short", "much longer than the text"),
            ("Its weak point is Anathema.", "Poison"),
            ("Ärger über die Kärma", "KÄRMA"),
            ("anything", ""),
        ] {
            assert_eq!(
                contains_ignoring_case(text, word),
                text.to_lowercase().contains(&word.to_lowercase()),
                "{text} / {word}"
            );
        }
    }
}
