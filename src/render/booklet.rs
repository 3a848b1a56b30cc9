//! The booklet in two parts (issue 48). Part one is the scenario in the order it is run; part two
//! is the reference it cites (tables, skills, items, glossary, the fortress rules) behind a
//! divider: in the same file (`--reference appendix`), in a file of its own beside the booklet
//! (`separate`), or left out (`none`). Here: the option, what a booklet template is told on top of
//! its game's view (which part it writes, the play time), each MYK room's own entries (its clues,
//! cast and mini events in full, from the same builders as the story's sections), the play-time
//! estimate, and the page citations the PDF fills in.

use serde::Serialize;

use crate::myk::model::{Place, Reaction, Scenario};
use crate::nw3::model::{AreaKind, Fortress};
use crate::render::myk_story::{self, Entry};
use crate::tables::Tables;

/// Where part two (the reference) goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reference {
    /// After part one, in the same file, behind a divider.
    #[default]
    Appendix,
    /// A file of its own beside the booklet (`…-reference.md`, `.html`, `.pdf`).
    Separate,
    /// Left out: the GM has the rulebook at hand.
    None,
}

impl Reference {
    /// Every choice, in the order the help lists them.
    pub const ALL: [Reference; 3] = [Reference::Appendix, Reference::Separate, Reference::None];

    /// As given on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Reference::Appendix => "appendix",
            Reference::Separate => "separate",
            Reference::None => "none",
        }
    }

    /// What it does, for the help.
    pub fn help(self) -> &'static str {
        match self {
            Reference::Appendix => "part two after part one, in the same file, behind a divider",
            Reference::Separate => "part two in a file of its own beside the booklet (`-reference`)",
            Reference::None => "no part two: the booklet is the scenario alone",
        }
    }

    /// The booklet files this choice makes, each with the parts it holds and the end of its
    /// name (before the extension): the booklet first.
    pub fn files(self) -> &'static [(Part, &'static str)] {
        match self {
            Reference::Appendix => &[(Part::Both, "")],
            Reference::Separate => &[(Part::One, ""), (Part::Two, REFERENCE_SUFFIX)],
            Reference::None => &[(Part::One, "")],
        }
    }
}

pub use crate::output::REFERENCE_SUFFIX;

/// The divider heading that opens part two (the PDF cites its page).
pub const DIVIDER: &str = "Part two: Reference";

/// Which parts one booklet file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    Both,
    One,
    Two,
}

/// What a booklet template is given: its game's view, and on top of it which part it writes.
#[derive(Serialize)]
pub struct Context<'a, V: Serialize> {
    #[serde(flatten)]
    pub view: &'a V,
    /// "both", "one" (the scenario) or "two" (the reference alone).
    pub part: Part,
    /// Part two's own file name when it is one (`separate`), for part one to point at.
    pub reference_file: String,
    /// The handouts are drawn as cut-out cards on pages of their own (the PDF), so the text
    /// leaves them out.
    pub handout_cards: bool,
    /// The cut-out card pages as SVG, for the HTML to inline (empty elsewhere).
    pub handout_pages: Vec<String>,
    pub play_time: PlayTime,
}

impl<'a, V: Serialize> Context<'a, V> {
    /// The context of the file holding `part` of a booklet whose files are named from `stem`
    /// and end in `ext`, with `reference` choosing where part two goes.
    pub fn new(view: &'a V, part: Part, reference: Reference, stem: &str, ext: &str, play_time: PlayTime) -> Self {
        let reference_file = match reference {
            Reference::Separate => format!("{stem}{REFERENCE_SUFFIX}.{ext}"),
            _ => String::new(),
        };
        Context { view, part, reference_file, handout_cards: false, handout_pages: Vec::new(), play_time }
    }
}

/// What happens in the room at `at`, each in full as the story's sections print it: the clues
/// found there, the cast NPCs standing there, the mini events that happen there, and the Scenario
/// Movement's steps that start or end there (a move in both its rooms: it runs along one
/// corridor, so it passes through no other). The room key prints these in the room's own entry,
/// so the GM reads them where they happen.
pub fn room_key(s: &Scenario, tables: &Tables, at: Place) -> Vec<Entry> {
    let mut out = Vec::new();
    for n in s.cast.iter().filter(|n| n.place == Some(at)) {
        let mut e = myk_story::npc_text(s, tables, n);
        e.label = format!("Here: {} —", e.label);
        out.push(e);
    }
    for (i, c) in s.clues.iter().enumerate().filter(|(_, c)| c.at == at) {
        out.push(myk_story::clue_entry(s, i, c));
    }
    for ev in s.story.iter().flat_map(|st| &st.mini_events).filter(|e| e.at == at) {
        let mut e = myk_story::mini_event_entry(s, ev);
        e.label = format!("Mini event — {}", e.label);
        out.push(e);
    }
    out.extend(movement_here(s, at));
    out
}

/// The Scenario Movement's steps in the room at `at`, in Quarter order, each labelled with who
/// acts: the movement plan's own places (`from`, `at`), never a route worked out again.
fn movement_here(s: &Scenario, at: Place) -> Vec<Entry> {
    let Some(st) = &s.story else { return Vec::new() };
    let f = crate::myk::story::Fill::of(s);
    st.movement
        .iter()
        .filter(|q| q.at == Some(at) || q.from == Some(at))
        .map(|q| {
            let mut e = myk_story::movement_entry(s, &f, q, Some(at));
            let who = if q.who.is_empty() { String::new() } else { format!("{}, ", crate::text::capitalise(&q.who)) };
            e.label = format!("Scenario Movement — {who}{}", e.label);
            e
        })
        .collect()
}

/// How long a scenario takes at the table: the total and the sum it comes from.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayTime {
    pub minutes: u32,
    /// "About 3 h 25 min".
    pub total: String,
    /// "9 rooms × 5 min = 45 min", one a kind of thing.
    pub lines: Vec<String>,
    /// Who it is counted for: "3 players".
    pub players: String,
    /// How to split a long game: "Plan 3 sessions of about 3 h each." (empty: one evening).
    pub sessions: String,
}

/// The longest game one evening holds, in minutes; a longer one is split into sessions.
const EVENING: u32 = 240;

/// A sum of (count, what, minutes each) for `players`; a fight's minutes (`FIGHT` parts) grow
/// with the players: about half a round is the PCs' own turns, so a fight timed for four takes
/// (players + 4) / 8 of it (1 player 0.625, 8 players 1.5).
fn play_time(players: u32, parts: &[(u32, &str, &str, u32, bool)]) -> PlayTime {
    let mut minutes = 0;
    let mut lines = Vec::new();
    for &(n, one, many, base, fight) in parts.iter().filter(|p| p.0 > 0) {
        let each = if fight { (base * (players + 4)).div_ceil(8) } else { base };
        minutes += n * each;
        let what = if n == 1 { one } else { many };
        lines.push(format!("{n} {what} × {each} min = {}", clock(n * each)));
    }
    let count = minutes.div_ceil(EVENING);
    let sessions = if count > 1 {
        format!("Plan {count} sessions of about {} each.", clock((minutes / count).div_ceil(5) * 5))
    } else {
        String::new()
    };
    let players = crate::text::count(u64::from(players), "player");
    PlayTime { minutes, total: format!("About {}", clock(minutes)), lines, players, sessions }
}

/// "3 h 25 min", "45 min".
fn clock(minutes: u32) -> String {
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

// What each thing costs at the table, in minutes, for a group of four playing at an ordinary
// pace (fights scale with the group: [`play_time`]). MYK: a room is entered, read out and searched once (a Search check, an encounter roll):
// 5. A fight against a room's monsters runs a few rounds of the book's quick combat (one attack
// roll a side a round, Warfare against Defense): 20. The ruler's fight is longer (more HP, ruler
// skills, weak points found or not): 35. A trap is one check to notice or disarm and its effect:
// 5. A scene (a cast NPC met in a room, a mini event, a puzzle worked out) is talk with a roll or
// two: 10. The Prologue with the kingdom's preparations, and the Epilogue with the End Phase's
// rolls, take 20 each.
const MYK_ROOM: u32 = 5;
const MYK_FIGHT: u32 = 20;
const MYK_RULER: u32 = 35;
const MYK_TRAP: u32 = 5;
const MYK_SCENE: u32 = 10;
const MYK_FRAME: u32 = 20;

/// The MYK play-time estimate: rooms, fights, the rulers, traps, scenes, the frame.
pub fn myk_play_time(s: &Scenario) -> PlayTime {
    let rooms: Vec<_> = s.maps.iter().flat_map(|m| m.used_rooms()).collect();
    // A room of friendly monsters is met with an exchange (a scene), not a fight.
    let fights = rooms
        .iter()
        .filter(|r| r.ruler.is_none() && r.monsters.iter().any(|g| g.reaction != Reaction::Friendly))
        .count() as u32;
    let friendly = rooms
        .iter()
        .filter(|r| r.ruler.is_none() && !r.monsters.is_empty())
        .filter(|r| r.monsters.iter().all(|g| g.reaction == Reaction::Friendly))
        .count() as u32;
    let rulers = rooms.iter().filter(|r| r.ruler.is_some()).count() as u32;
    let traps = rooms.iter().map(|r| r.traps.len()).sum::<usize>()
        + s.maps.iter().flat_map(|m| &m.corridors).filter(|c| c.trap.is_some()).count();
    let placed = s.cast.iter().filter(|n| n.place.is_some()).count();
    let events = s.story.as_ref().map_or(0, |st| st.mini_events.len());
    let puzzles = s.clues.iter().filter(|c| c.puzzle.is_some()).count();
    let scenes = (placed + events + puzzles) as u32 + friendly;
    play_time(
        s.court.size,
        &[
            (1, "Prologue and preparations", "", MYK_FRAME, false),
            (rooms.len() as u32, "room", "rooms", MYK_ROOM, false),
            (fights, "fight", "fights", MYK_FIGHT, true),
            (rulers, "ruler's fight", "rulers' fights", MYK_RULER, true),
            (traps as u32, "trap", "traps", MYK_TRAP, false),
            (
                scenes,
                "scene (an NPC met, a mini event, a puzzle, an exchange)",
                "scenes (NPCs met, mini events, puzzles, exchanges)",
                MYK_SCENE,
                false,
            ),
            (1, "Epilogue and End Phase", "", MYK_FRAME, false),
        ],
    )
}

// NW3, for a party of four: the Preplay (trailer read, handouts dealt) 10; an Opening scene 10;
// a legwork item is one judge and what it reveals, 5; an area is a scene of its own (entered,
// described, Appearance and Danger Sense judged), 5; a fight in Round Progression (Any Seven
// initiative, hit and dodge rolls a side, Mobs and stat blocks of several members) 25; a trap
// (Detection, Removal, its effect) 5; an event with its judge 10; the Climax, a Boss with its
// skills and tactics, 45; the After Phase with its endings and XP 15.
const NW3_PREPLAY: u32 = 10;
const NW3_SCENE: u32 = 10;
const NW3_LEGWORK: u32 = 5;
const NW3_AREA: u32 = 5;
const NW3_FIGHT: u32 = 25;
const NW3_TRAP: u32 = 5;
const NW3_EVENT: u32 = 10;
const NW3_CLIMAX: u32 = 45;
const NW3_AFTER: u32 = 15;

/// The NW3 play-time estimate: the phases, the areas, their fights, traps and events.
pub fn nw3_play_time(f: &Fortress) -> PlayTime {
    let count = |p: &dyn Fn(&crate::nw3::model::Area) -> bool| f.areas.iter().filter(|a| p(a)).count() as u32;
    // The Ruler's area is the Climax's fight, counted there.
    let fights = count(&|a| !a.enemies.is_empty() && a.id != f.ruler.area);
    let traps = count(&|a| a.trap.is_some());
    let events = count(&|a| a.event.is_some() && a.kind != AreaKind::Core && a.id != f.ruler.area);
    let (scenes, legwork) = f.episode.as_ref().map_or((0, 0), |e| (e.opening.len() as u32, e.legwork.len() as u32));
    play_time(
        f.party.size,
        &[
            (1, "Preplay", "", NW3_PREPLAY, false),
            (scenes, "Opening scene", "Opening scenes", NW3_SCENE, false),
            (legwork, "legwork item", "legwork items", NW3_LEGWORK, false),
            (f.areas.len() as u32, "area", "areas", NW3_AREA, false),
            (fights, "fight", "fights", NW3_FIGHT, true),
            (traps, "trap", "traps", NW3_TRAP, false),
            (events, "event", "events", NW3_EVENT, false),
            (1, "Climax", "", NW3_CLIMAX, true),
            (1, "After Phase", "", NW3_AFTER, false),
        ],
    )
}

/// Opens and closes a page citation in the Markdown the templates write (`{{ "Treasure"|page }}`):
/// the PDF puts the page of that heading there (", p. 23"); every other reader drops it.
pub const CITE_OPEN: char = '\u{E000}';
pub const CITE_CLOSE: char = '\u{E001}';

/// `md` with each page citation replaced by ", p. N" where `page` knows the heading's page,
/// and dropped where it does not (a heading in another file, or a format without pages).
pub fn cite_pages(md: &str, page: &dyn Fn(&str) -> Option<usize>) -> String {
    if !md.contains(CITE_OPEN) {
        return md.to_string();
    }
    let mut out = String::with_capacity(md.len());
    let mut rest = md;
    while let Some(i) = rest.find(CITE_OPEN) {
        out.push_str(&rest[..i]);
        let after = &rest[i + CITE_OPEN.len_utf8()..];
        let Some(j) = after.find(CITE_CLOSE) else {
            rest = after;
            continue;
        };
        if let Some(n) = page(&after[..j]) {
            out.push_str(&format!(", p.\u{a0}{n}"));
        }
        rest = &after[j + CITE_CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// `md` without its page citations (the Markdown file: it has no pages).
pub fn drop_citations(md: &str) -> String {
    cite_pages(md, &|_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_citation_becomes_the_page_or_nothing() {
        let md = format!("see *Treasure*{CITE_OPEN}Treasure{CITE_CLOSE}; *Skills*{CITE_OPEN}Skills{CITE_CLOSE}.");
        let page = |h: &str| (h == "Treasure").then_some(12);
        assert_eq!(cite_pages(&md, &page), "see *Treasure*, p.\u{a0}12; *Skills*.");
        assert_eq!(drop_citations(&md), "see *Treasure*; *Skills*.");
    }

    #[test]
    fn play_time_sums_each_kind_at_its_cost() {
        let t = play_time(
            4,
            &[(1, "Prologue", "", 20, false), (9, "room", "rooms", 5, false), (0, "fight", "fights", 20, true)],
        );
        assert_eq!(t.minutes, 65);
        assert_eq!(t.total, "About 1 h 5 min");
        assert_eq!(t.lines, ["1 Prologue × 20 min = 20 min", "9 rooms × 5 min = 45 min"]);
        assert_eq!((t.players.as_str(), t.sessions.as_str()), ("4 players", ""));
    }

    #[test]
    fn a_fight_takes_longer_for_more_players_and_a_long_game_is_split_into_sessions() {
        let parts = [(2, "fight", "fights", 20, true), (4, "room", "rooms", 5, false)];
        let (one, four, eight) = (play_time(1, &parts), play_time(4, &parts), play_time(8, &parts));
        assert_eq!((one.minutes, four.minutes, eight.minutes), (2 * 13 + 20, 2 * 20 + 20, 2 * 30 + 20));
        assert_eq!((one.players.as_str(), eight.players.as_str()), ("1 player", "8 players"));
        let long = play_time(4, &[(1, "Climax", "", 45, true), (60, "area", "areas", 5, false)]);
        assert_eq!(long.minutes, 345);
        assert_eq!(long.sessions, "Plan 2 sessions of about 2 h 55 min each.");
    }
}
