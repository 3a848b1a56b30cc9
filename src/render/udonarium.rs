//! Udonarium room data (`--format udonarium`): two zips that Udonarium (the open-source browser
//! tabletop) loads when one is dropped on its window.
//!
//! Udonarium has no GM-only layer: every object of a room is sent to every peer, and whatever
//! stands on a table, in the shared inventory ("common") or the graveyard is listed for all, its
//! sheet and notes readable by anyone (a private inventory is keyed by a peer id that a saved file
//! cannot know; text notes have no password in use; only cards can lie face down). So the GM's
//! material never goes into the room the players share:
//!
//! - `*-udonarium.zip`, the players' room, for the shared session: per MYK map (or per fortress)
//!   the grid plan as drawn for the players (secret corridors are rock, their doors wall) and the
//!   players' sheet, and one note with the title. No piece, no room note.
//! - `*-udonarium-gm.zip`, for the GM alone (a room of their own, in another browser tab): the plan
//!   with every room's full note beside it and every monster as a piece standing in its room, one
//!   piece per monster (HP each), each with a chat palette for its game's BCDice system
//!   (`MeikyuKingdom`, the edition the seeds translate; `NightWizard3rd`) holding its own attack,
//!   damage and checks; a room with traps or judges has a grey GM marker piece whose palette holds
//!   them (detection and removal, Danger Sense, disarm). The GM saves a piece (its sheet's save
//!   button) and drops it into the shared room when the party meets it.
//!
//! The XML is what Udonarium's classes write (`game-table`, `character` with its `chat-palette`,
//! `text-note`; every value a `<data>` element), and each picture it names is stored under the
//! SHA-256 of its bytes (Udonarium's image identifier). Pieces stand in their rooms with their
//! name tags (15 px text above the piece, as Udonarium draws them) clear of one another and of the
//! room's label. Entries are stored uncompressed with a fixed timestamp, so the bytes depend only
//! on the scenario.

use std::io::{Cursor, Write};
use std::sync::OnceLock;

use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior, Value as MjValue};
use serde::Serialize;
use sha2::{Digest, Sha256};
use svg::Node;
use svg::node::Text as TextNode;
use svg::node::element::{Circle, Element};

use crate::error::{Error, Result};
use crate::model::Paper;
use crate::myk::model::{Map, Npc, PlacedTrap, Room, Scenario};
use crate::nw3::model::{Area, Attack, Fortress, Skill, Stats};
use crate::render::fortress_view::{attack_line, stat_pairs};
use crate::render::plan::{Plan, PlanRoom};
use crate::render::text::Templates;
use crate::render::{Audience, view};
use crate::tables::Tables;
use crate::tables::myk::Activation;

/// Udonarium's grid cell in pixels.
const GRID: u32 = 50;
/// A text note's width in cells; notes stand in columns one cell apart.
pub const NOTE_W: u32 = 12;
/// The tallest note in cells: a longer text is split over several notes, so that each stands
/// whole in the table's view as Udonarium opens it.
pub const NOTE_MAX_H: u32 = 8;
/// Udonarium's table setting takes 1 to 100 cells a side (game-table-setting `maxSize`).
pub const TABLE_MAX: u32 = 100;
/// tan 50 degrees. Udonarium opens the table tilted 50 degrees (game-table `viewRotateX`), and a
/// text note stands upright on the line through its position (its face turned `rotateX(-90deg)`
/// about its bottom edge, centred across its width): seen from the opening view, a note `h` px
/// tall hides `h * TILT` px of the table behind its foot.
pub const TILT: f64 = 1.191_753_6;
/// A note's text as Udonarium sets it (text-note component): 12 px (font size 3 + 9) in a serif
/// face, taken generously at 7.2 px a character and 15 px a line; a 24 px title bar; 6 px of
/// padding and border.
const CHAR_PX: f64 = 7.2;
const LINE_PX: u32 = 15;
const TITLE_PX: u32 = 24;
const PAD_PX: u32 = 6;

/// Token colours by what a piece is, so the GM tells a hostile monster from one that will talk at
/// a glance; the legend note of the GM's room (templates/udonarium-legend.j2) names each.
pub mod colour {
    pub const HOSTILE: &str = "#a33a2c";
    pub const NEUTRAL: &str = "#2f5f8a";
    pub const FRIENDLY: &str = "#2e7d32";
    pub const RULER: &str = "#b8860b";
    pub const MARKER: &str = "#6b645a";
    pub const ENEMY: &str = "#5b3f8c";
    pub const CAST: &str = "#1f7a7a";
}

/// The token colour of a MYK monster of `reaction`.
pub fn reaction_colour(reaction: crate::myk::model::Reaction) -> &'static str {
    use crate::myk::model::Reaction;
    match reaction {
        Reaction::Hostile => colour::HOSTILE,
        Reaction::Neutral => colour::NEUTRAL,
        Reaction::Friendly => colour::FRIENDLY,
    }
}

/// The legend note of a GM room: each token colour and what it marks.
fn legend(templates: &Templates, game: &str) -> Result<(String, String)> {
    use colour::*;
    let c = serde_json::json!({
        "hostile": HOSTILE, "neutral": NEUTRAL, "friendly": FRIENDLY,
        "ruler": RULER, "marker": MARKER, "enemy": ENEMY, "cast": CAST,
    });
    let text = templates.render("udonarium-legend.j2", &serde_json::json!({ "game": game, "c": c }))?;
    Ok(("Token colours".to_string(), text))
}

/// A character piece: what Udonarium shows on its sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub name: String,
    /// Hit points, when the model knows them: a resource the GM counts down.
    pub hp: Option<u32>,
    /// Stat name and value, in sheet order.
    pub stats: Vec<(String, String)>,
    /// The stat block as one line of text.
    pub note: String,
    /// Token colour.
    pub colour: &'static str,
    /// The text on the token: the name's initials and its number ("CS3" for Crane Swarm 3), or
    /// a GM marker's room, so that pieces of one room never look alike.
    pub label: String,
    /// Chat palette lines for the game's BCDice system (a command, a space, a comment).
    pub palette: Vec<String>,
}

/// The BCDice systems: the MYK seeds translate the original 迷宮キングダム (BCDice's
/// `MeikyuKingdom`; the 2011 basic rulebook is `MeikyuKingdomBasic`).
pub const MYK_DICEBOT: &str = "MeikyuKingdom";
pub const NW3_DICEBOT: &str = "NightWizard3rd";

/// Sheet fields a judge's line reads (Udonarium puts a field's value where a palette line says
/// `{name}`): the rolling character's score, which the scenario cannot know. They start at 0;
/// the GM types the score of whoever rolls, and the line rolls with it.
pub const SEARCHER: &str = "Searcher";
pub const DISARMER: &str = "Disarmer";
pub const PC_PERCEPTION: &str = "PC Perception";
pub const PC_FINESSE: &str = "PC Finesse";

/// `name 1`, `name 2`, ... for a group of `count`; the bare name for one.
fn numbered(name: &str, count: u32) -> Vec<String> {
    if count > 1 { (1..=count).map(|i| format!("{name} {i}")).collect() } else { vec![name.to_string()] }
}

/// A MYK monster's own rolls: attack (2MK + Warfare), damage.
fn myk_palette(name: &str, warfare: Option<u32>, range: Option<u32>, damage: Option<String>) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(w) = warfare {
        let range = range.map(|r| format!(", range {r}")).unwrap_or_default();
        v.push(format!("2MK+{w} {name}: attack (Warfare {w}{range})"));
    }
    match damage {
        // A fixed damage is no roll: the line says it.
        Some(d) if d.contains('D') => v.push(format!("{d} {name}: damage")),
        Some(d) => v.push(format!("{name}: damage {d}")),
        None => {}
    }
    v
}

/// The pieces of one MYK room: the ruler, then each monster group (one piece per group).
pub fn myk_pieces(room: &Room, view: &view::RoomView, tables: &Tables) -> Vec<Piece> {
    let mut out = Vec::new();
    if let (Some(r), Some(rv)) = (&room.ruler, &view.ruler) {
        let rec = tables.myk.monster(&r.name);
        // Extra HP bought for the ruler: level x 5 per step.
        let extra: u32 = r.adjustments.iter().filter(|a| a.what == "hp").map(|a| a.times * r.level * 5).sum();
        let mut stats = vec![
            ("Level".to_string(), r.level.to_string()),
            ("Effective level".to_string(), r.effective_level.to_string()),
            ("Category".to_string(), rv.category.clone()),
        ];
        // The final stat line (increases applied) when the file has it, else the bestiary's.
        match &r.stats {
            Some(fin) => stats.extend([
                ("Warfare".to_string(), fin.warfare.to_string()),
                ("Range".to_string(), fin.range.to_string()),
                ("Damage".to_string(), fin.damage.to_string()),
                ("Defense".to_string(), fin.defense.to_string()),
            ]),
            None => stats.extend(record_stats(rec)),
        }
        let (warfare, range, damage) = match &r.stats {
            Some(fin) => (Some(fin.warfare), Some(fin.range), Some(fin.damage.to_string())),
            None => (
                rec.and_then(|m| m.warfare),
                rec.and_then(|m| m.range),
                rec.and_then(|m| m.damage.map(|d| d.to_string())),
            ),
        };
        out.push(Piece {
            name: r.name.as_str().to_owned(),
            hp: r.stats.as_ref().map(|x| x.hp).or_else(|| rec.and_then(|m| m.hp).map(|hp| hp + extra)),
            stats,
            note: format!("Ruler. {}. Skills: {}.", rv.stats, rv.skills),
            colour: colour::RULER,
            label: token_label(r.name.as_str()),
            palette: myk_palette(r.name.as_str(), warfare, range, damage),
        });
    }
    for (m, mv) in room.monsters.iter().zip(&view.monsters) {
        let rec = tables.myk.monster(&m.name);
        // Each piece is one monster: the sheet names its group, not a count it does not have.
        let group = (m.count > 1).then(|| ("Group".to_string(), crate::text::count(m.count.into(), &m.name)));
        let mut stats: Vec<(String, String)> = group.into_iter().collect();
        stats.extend([
            ("Reaction".to_string(), m.reaction.label().to_string()),
            ("Level".to_string(), m.level.to_string()),
            ("Effective level".to_string(), m.effective_level.to_string()),
            ("Category".to_string(), mv.category.clone()),
        ]);
        stats.extend(record_stats(rec));
        for name in numbered(m.name.as_str(), m.count) {
            let mut palette = myk_palette(
                &name,
                rec.and_then(|r| r.warfare),
                rec.and_then(|r| r.range),
                rec.and_then(|r| r.damage.map(|d| d.to_string())),
            );
            if m.reaction != crate::myk::model::Reaction::Hostile {
                palette.push(format!("NT {name}: negotiation table ({})", m.reaction.label()));
            }
            out.push(Piece {
                label: token_label(&name),
                name,
                hp: rec.and_then(|r| r.hp),
                stats: stats.clone(),
                note: format!("{}. Skills: {}.", mv.stats, mv.skills),
                colour: reaction_colour(m.reaction),
                palette,
            });
        }
    }
    out
}

/// The GM's marker for a MYK room's traps, those in the room and in the corridors the booklet
/// lists under it: for each, the Search that finds it and the check that disarms it as BCDice
/// commands, and what sets it off. None for a room without traps.
pub fn myk_marker(map: &Map, room: &Room, view: &view::RoomView, tables: &Tables, court: u32) -> Option<Piece> {
    let corridors = map.corridors.iter().filter(|c| c.a == room.id);
    let traps: Vec<(&PlacedTrap, String)> = room
        .traps
        .iter()
        .map(|t| (t, format!("room {}", room.id)))
        .chain(corridors.filter_map(|c| Some((c.trap.as_ref()?, format!("corridor {}", c.id())))))
        .collect();
    if traps.is_empty() {
        return None;
    }
    let mut palette = Vec::new();
    for (t, place) in &traps {
        palette.extend(myk_trap_lines(t, place, tables, court));
    }
    let names: Vec<&str> = traps.iter().map(|(t, _)| t.name.as_str()).collect();
    Some(Piece {
        name: format!("GM {}", room.id),
        label: room.id.to_string(),
        hp: None,
        stats: vec![
            ("Traps".to_string(), names.join(", ")),
            (SEARCHER.to_string(), "0".to_string()),
            (DISARMER.to_string(), "0".to_string()),
        ],
        note: view.traps.iter().map(|t| format!("{}: {}", t.name, t.summary)).collect::<Vec<_>>().join("\n"),
        colour: colour::MARKER,
        palette,
    })
}

/// One MYK trap's palette lines (seed 003 l.5537-5605): `2MK+{Searcher}>=N`, the searcher's
/// own Wit or Quest read from the marker's sheet (BCDice's `MeikyuKingdom` rolls `2MK+3>=11`
/// with its absolute success and failure), and the same for the disarmer's ability. Three judges have no roll, and
/// their lines are text that says why: a combat (Area) trap is laid on the battlefield by the
/// GM and never searched for nor disarmed; Discovery, Impossible and the traps whose text
/// describes their own removal are not checks; and a difficulty the scenario cannot know (the
/// kingdom's followers) would roll against a wrong number, for BCDice drops `+ x` after `>=N`.
fn myk_trap_lines(t: &PlacedTrap, place: &str, tables: &Tables, court: u32) -> Vec<String> {
    use crate::tables::myk::{Disarm, Placement};
    let name = t.name.as_str();
    let mut v = Vec::new();
    let search = crate::myk::traps::search_difficulty(court);
    let target = match (&t.placement, &t.object) {
        (Placement::Area, _) => None,
        (Placement::Event, Some(o)) => Some(format!("the {o} in {place}")),
        _ => Some(place.to_string()),
    };
    match target {
        Some(at) => v.push(format!(
            "2MK+{{{SEARCHER}}}>={search} {name}: find it (Search {at}; Wit or Quest; court {court} + 7)"
        )),
        None => v.push(format!("{name}: a combat trap, laid on one Area when combat starts; no Search finds it")),
    }
    let rec = tables.myk.trap(name);
    match rec.and_then(|r| crate::myk::traps::disarm_check(r, t)) {
        Some((ability, n, None)) => {
            v.push(format!("2MK+{{{DISARMER}}}>={n} {name}: disarm ({} check, Camp step)", ability.label()))
        }
        Some((ability, n, Some(plus))) => v.push(format!(
            "{name}: disarm ({} check, difficulty {n} + {plus}; the kingdom's number, not the scenario's)",
            ability.label()
        )),
        None => v.push(match rec.map(|r| &r.disarm) {
            Some(Disarm::Discovery) => format!("{name}: disarmed when found"),
            Some(Disarm::Impossible) => format!("{name}: no check disarms it (only a skill or an item)"),
            Some(Disarm::Special(how)) => format!("{name}: disarm: {how}"),
            _ => format!("{name}: disarm {}", t.disarm),
        }),
    }
    v.push(format!("{name}: {}", goes_off(t.activation)));
    v
}

/// When a trap of each activation goes off, for a palette line the GM reads at the table (the
/// booklet's glossary says the same at more length).
fn goes_off(a: Activation) -> &'static str {
    match a {
        Activation::Passage => "goes off when someone enters (Passage)",
        Activation::Rest => "goes off when the court rests here (Rest)",
        Activation::Discovery => "goes off when it is found (Discovery)",
        Activation::Automatic => "in force all the time (Automatic)",
        Activation::Undiscovered => "goes off when the Camp step ends unless a Search here found it (Undiscovered)",
        Activation::Touch => "goes off when its object is used or spoken to before it is found (Touch)",
    }
}

/// The combat stats of a bestiary record, as far as it knows them.
fn record_stats(rec: Option<&crate::tables::myk::Monster>) -> Vec<(String, String)> {
    let Some(m) = rec else { return Vec::new() };
    [
        ("Warfare", m.warfare.map(|v| v.to_string())),
        ("Range", m.range.map(|v| v.to_string())),
        ("Damage", m.damage.as_ref().map(|d| d.to_string())),
        ("Defense", m.defense.map(|v| v.to_string())),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k.to_string(), v?)))
    .collect()
}

/// The pieces of one NW3 area: one per enemy (a line of three is three pieces), and the Ruler
/// in its own area. HP is the resource; the other combat stats, attacks and skills go on the
/// sheet, and the rolls in the chat palette.
pub fn nw3_pieces(f: &Fortress, area: &Area) -> Vec<Piece> {
    let mut out = Vec::new();
    if f.ruler.area == area.id {
        let r = &f.ruler;
        let mut stats = vec![("Title".to_string(), r.title.clone()), ("Rank".to_string(), "Boss".to_string())];
        stats.extend(combat_stats(r.stats.as_ref(), r.spd, r.initiative));
        stats.extend(pc_perception(r.stats.as_ref()));
        out.push(Piece {
            name: r.name.clone(),
            hp: r.stats.map(|x| x.body),
            stats,
            note: nw3_note(
                &r.name,
                "Boss",
                r.stats.as_ref(),
                &stat_pairs(r.stats.as_ref(), r.spd, r.initiative),
                &r.attacks,
                &r.skills,
            ),
            colour: colour::RULER,
            label: token_label(&r.name),
            palette: nw3_palette(&r.name, r.stats.as_ref(), &r.attacks),
        });
    }
    for g in &area.enemies {
        for e in &g.members {
            let mut stats =
                vec![("Group".to_string(), g.name.clone()), ("Rank".to_string(), e.rank.label().to_string())];
            stats.extend(combat_stats(e.stats.as_ref(), e.spd, e.initiative));
            stats.extend(pc_perception(e.stats.as_ref()));
            for name in numbered(&e.name, e.count) {
                out.push(Piece {
                    palette: nw3_palette(&name, e.stats.as_ref(), &e.attacks),
                    label: token_label(&name),
                    name,
                    hp: e.stats.map(|x| x.body),
                    stats: stats.clone(),
                    note: nw3_note(
                        &e.name,
                        e.rank.label(),
                        e.stats.as_ref(),
                        &stat_pairs(e.stats.as_ref(), e.spd, e.initiative),
                        &e.attacks,
                        &e.skills,
                    ),
                    colour: colour::ENEMY,
                });
            }
        }
    }
    out
}

/// An NW3 enemy's own rolls, each an NW3 judge (`nNW`, n = the number it adds): each attack's hit
/// (its accuracy) and damage (its damage, seed 000 l.719-727: a damage roll is a judge), dodging
/// (EVA), PDEF and MDEF, and the Danger Sense against its ambush (Perception + 7, rolled on the
/// PC's Perception that the GM types in the piece's sheet).
fn nw3_palette(name: &str, s: Option<&Stats>, attacks: &[Attack]) -> Vec<String> {
    let mut v = Vec::new();
    for a in attacks {
        v.push(format!("{}NW {name}: {} hit", a.accuracy, a.name));
        v.push(format!("{}NW {name}: {} damage ({})", a.damage, a.name, a.kind.label()));
    }
    if let Some(s) = s {
        v.push(format!("{}NW {name}: dodge (EVA)", s.eva));
        v.push(format!("{}NW {name}: physical defense (PDEF)", s.pdef));
        v.push(format!("{}NW {name}: magical defense (MDEF)", s.mdef));
        v.push(format!(
            "{{{PC_PERCEPTION}}}NW>={} Danger Sense against {} ambush",
            s.perception + 7,
            crate::text::possessive(name)
        ));
    }
    v
}

/// The GM's marker for an NW3 area's judges: the trap's detection (Perception) and removal
/// (Finesse), the area's Danger Sense, and the Danger Sense (15) that finds each secret gate of
/// the area that no event reveals. None for an area without them.
pub fn nw3_marker(f: &Fortress, area: &Area) -> Option<Piece> {
    let mut palette = Vec::new();
    let mut stats = Vec::new();
    if let Some(t) = &area.trap {
        palette.push(format!("{{{PC_PERCEPTION}}}NW>={} {}: detect (Perception)", t.detection, t.name));
        palette.push(format!("{{{PC_FINESSE}}}NW>={} {}: remove (Finesse)", t.removal, t.name));
        stats.push(("Trap".to_string(), t.name.clone()));
        stats.push((PC_FINESSE.to_string(), "0".to_string()));
    }
    // The default difficulty says nothing the legend does not: only another one is marked.
    if let Some(d) = area.danger_sense.filter(|&d| d != crate::nw3::rules::DANGER_SENSE_DEFAULT) {
        palette.push(format!("{{{PC_PERCEPTION}}}NW>={d} Danger Sense in area {}", area.id));
        stats.push(("Danger Sense".to_string(), d.to_string()));
    }
    for g in f.gates.iter().filter(|g| g.from == area.id || g.to == area.id) {
        if let Some(crate::nw3::model::Opener::DangerSense(n)) = g.opened_by {
            palette.push(format!("{{{PC_PERCEPTION}}}NW>={n} Danger Sense: Secret Gate {}", g.label()));
        }
    }
    if !palette.is_empty() {
        stats.push((PC_PERCEPTION.to_string(), "0".to_string()));
    }
    (!palette.is_empty()).then(|| Piece {
        name: format!("GM {}", area.id),
        label: area.id.to_string(),
        hp: None,
        stats,
        note: area.trap.as_ref().map(|t| format!("{}: {}", t.name, t.effect)).unwrap_or_default(),
        colour: colour::MARKER,
        palette,
    })
}

/// The field the Danger Sense line of an enemy with a stat block reads.
fn pc_perception(s: Option<&Stats>) -> Option<(String, String)> {
    s.map(|_| (PC_PERCEPTION.to_string(), "0".to_string()))
}

/// An NW3 stat block's numbers in sheet order, less HP (the HP resource).
fn combat_stats(s: Option<&Stats>, spd: u32, initiative: u32) -> Vec<(String, String)> {
    stat_pairs(s, spd, initiative).into_iter().filter(|(k, _)| k != "HP").collect()
}

/// The whole stat block as one text: stats, attacks and skills.
fn nw3_note(
    name: &str,
    rank: &str,
    stats: Option<&Stats>,
    pairs: &[(String, String)],
    attacks: &[Attack],
    skills: &[Skill],
) -> String {
    let line: Vec<String> = pairs.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut n = format!("{name} ({rank}): {}.", line.join(" / "));
    for a in attacks {
        n.push_str(&format!("\nAttack: {}", attack_line(a, stats)));
    }
    for k in skills {
        n.push_str(&format!("\nSkill: {}: {}", k.name, k.effect));
    }
    n
}

// ---------------------------------------------------------------------------------------------
// The room document.

/// A picture in the zip: its SHA-256 (Udonarium's identifier) and PNG bytes.
struct Image {
    hash: String,
    bytes: Vec<u8>,
}

/// Builds `data.xml` and collects the pictures it names.
#[derive(Default)]
struct RoomDoc {
    /// What the room holds, in the order `data.xml` lists it.
    items: Vec<Item>,
    images: Vec<Image>,
    tables: usize,
    /// Each token drawn so far (its SVG) and its picture's identifier: pieces alike (a ruler and
    /// its kin, groups with the same initials) share one drawing.
    tokens: Vec<(String, String)>,
}

/// One object of the room, as `udonarium-data.xml.j2` writes it: positions in pixels.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Item {
    /// A table `w` x `h` cells of `grid` pixels with picture `image` as its surface; `grid_type`
    /// -1 hides the grid.
    Table { name: String, w: u32, h: u32, grid: u32, image: String, selected: bool, grid_type: i32 },
    /// A piece on the table or, `place` "common", in the room's inventory.
    Character {
        place: &'static str,
        x: u32,
        y: u32,
        image: String,
        name: String,
        hp: Option<u32>,
        stats: Vec<(String, String)>,
        note: String,
        dicebot: String,
        palette: String,
    },
    /// A text note `w` x `h` cells.
    Note { x: u32, y: u32, w: u32, h: u32, title: String, text: String },
}

/// The room file's shape: Udonarium's elements with `{{ }}` where values go. A template of the
/// program's own, not a GM's (`--templates` does not reach it): the file must stay what
/// Udonarium reads.
const DATA_XML: &str = include_str!("udonarium-data.xml.j2");

/// `data.xml` for `items`. Every value is escaped as the template writes it (characters XML
/// forbids dropped, `&<>"'` as entities); the `attr` filter also writes line breaks and tabs in
/// an attribute as character references, which a parser would otherwise read as spaces.
fn data_xml(items: &[Item]) -> Result<String> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    let env = ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // The built-in syntax with these switches always builds; were it refused, the defaults
        // would show in the output at once (the Udonarium tests read every line).
        if let Ok(syntax) =
            SyntaxConfig::builder().trim_blocks(true).lstrip_blocks(true).keep_trailing_newline(true).build()
        {
            env.set_syntax(syntax);
        }
        env.set_formatter(|out, _, value| {
            let text = if value.is_safe() { value.to_string() } else { esc(&value.to_string()) };
            out.write_str(&text).map_err(minijinja::Error::from)
        });
        env.add_filter("attr", |s: &str| MjValue::from_safe_string(attr(s)));
        env
    });
    let fail = |e: minijinja::Error| Error::Template { name: "udonarium-data.xml.j2".into(), message: e.to_string() };
    let ctx = minijinja::context! { items => MjValue::from(Serde(items)) };
    env.template_from_str(DATA_XML).and_then(|t| t.render(ctx)).map_err(fail)
}

use crate::render::svgkit::xml_escape as esc;

/// XML escaping for attribute values: line breaks too, which a parser would otherwise turn into
/// spaces.
fn attr(s: &str) -> String {
    esc(s).replace('\n', "&#10;").replace('\t', "&#9;")
}

impl RoomDoc {
    /// Adds a picture (once) and returns its identifier.
    fn image(&mut self, bytes: Vec<u8>) -> String {
        let hash: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        if !self.images.iter().any(|i| i.hash == hash) {
            self.images.push(Image { hash: hash.clone(), bytes });
        }
        hash
    }

    /// A table `w` x `h` cells, each `f` of ours a side, with `image` as its surface; the first
    /// one added is shown.
    fn table(&mut self, name: &str, (w, h, f): (u32, u32, u32), image: &str, grid: bool) {
        let selected = self.tables == 0;
        self.tables += 1;
        let grid_type = if grid { 0 } else { -1 };
        let (name, image) = (name.to_string(), image.to_string());
        self.items.push(Item::Table { name, w, h, grid: GRID * f, image, selected, grid_type });
    }

    /// A character piece at cell (x, y) on the table (or, None, in the room's inventory), with
    /// its chat palette for `dicebot`.
    fn character(&mut self, p: &Piece, at: Option<(u32, u32)>, dicebot: &str) -> Result<()> {
        let svg = token_svg(p);
        let image = match self.tokens.iter().find(|(s, _)| *s == svg) {
            Some((_, id)) => id.clone(),
            None => {
                let id = self.image(crate::render::raster::png(&svg, 100, "token")?);
                self.tokens.push((svg, id.clone()));
                id
            }
        };
        let (place, x, y) = match at {
            Some((x, y)) => ("table", x * GRID, y * GRID),
            None => ("common", 0, 0),
        };
        self.items.push(Item::Character {
            place,
            x,
            y,
            image,
            name: p.name.clone(),
            hp: p.hp,
            stats: p.stats.clone(),
            note: p.note.clone(),
            dicebot: dicebot.to_string(),
            palette: p.palette.join("\n"),
        });
        Ok(())
    }

    /// A text note standing as laid out.
    fn note(&mut self, n: &Placed) {
        let (title, text) = (n.title.clone(), n.text.trim().to_string());
        self.items.push(Item::Note { x: n.x, y: n.y, w: NOTE_W, h: n.h, title, text });
    }

    /// The zip: every picture (named `<sha-256>.png`), then `data.xml`.
    fn zip(self, what: &str) -> Result<Vec<u8>> {
        let fail = |source: zip::result::ZipError| Error::Zip { what: what.to_string(), source };
        let xml = data_xml(&self.items)?;
        // Room for every entry and its headers, so the zip is not copied as it grows.
        let size: usize = self.images.iter().map(|i| i.bytes.len() + 256).sum::<usize>() + xml.len() + 1024;
        let mut z = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(size)));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(0o644);
        let io = |e: std::io::Error| fail(zip::result::ZipError::Io(e));
        for i in &self.images {
            z.start_file(format!("{}.png", i.hash), opts).map_err(fail)?;
            z.write_all(&i.bytes).map_err(io)?;
        }
        z.start_file("data.xml", opts).map_err(fail)?;
        z.write_all(xml.as_bytes()).map_err(io)?;
        Ok(z.finish().map_err(fail)?.into_inner())
    }

    /// Every piece where [`stand`] puts it in its room when `on_table`; else (pieces of a later
    /// map, whose table is not shown first, as pieces do not belong to a table; the cast who
    /// stay at home) and for a room that cannot hold them, in the room's inventory, for the GM
    /// to drag out (Udonarium lists it by name: a later map's pieces under their map and room).
    fn pieces(&mut self, plan: &Plan, pieces: &[(String, Vec<Piece>)], on_table: bool, dicebot: &str) -> Result<()> {
        for (key, ps) in pieces {
            let spots = plan.room(key).filter(|_| on_table).and_then(|r| stand(r, ps));
            for (i, p) in tell_apart(ps).iter().enumerate() {
                self.character(p, spots.as_ref().map(|s| s[i]), dicebot)?;
            }
        }
        Ok(())
    }

    /// A players' sheet (its picture drawn) as a table without a grid of its own.
    fn sheet_table(&mut self, name: &str, png: Vec<u8>, paper: Paper) {
        let (w, h) = sheet_cells(paper);
        let image = self.image(png);
        self.table(name, (w, h, 1), &image, false);
    }
}

/// The rows of text a note `w` cells wide shows for `text`: each line wrapped at spaces (a word
/// longer than a row broken), as a `pre-wrap` text area does. Each row with whether it starts a
/// line of `text` and the row itself.
fn note_rows(text: &str, w: u32) -> Vec<(bool, String)> {
    let per = ((f64::from(w * GRID - PAD_PX) / CHAR_PX).floor() as usize).max(1);
    let mut out = Vec::new();
    for line in text.lines() {
        let mut row = String::new();
        let mut first = true;
        for word in line.split(' ') {
            let (row_n, word_n) = (row.chars().count(), word.chars().count());
            if row_n > 0 && row_n + 1 + word_n > per {
                out.push((first, std::mem::take(&mut row)));
                first = false;
            } else if row_n > 0 {
                row.push(' ');
            }
            let mut rest: Vec<char> = word.chars().collect();
            while rest.len() > per {
                out.push((first, rest.drain(..per).collect()));
                first = false;
            }
            row.extend(rest);
        }
        out.push((first, row));
    }
    out
}

/// The height in cells of a note `w` cells wide showing `text` whole (Udonarium grows a note to
/// its text; the height written is at least that, so the note is what its data says).
pub fn note_height(text: &str, w: u32) -> u32 {
    let px = TITLE_PX + PAD_PX + note_rows(text, w).len() as u32 * LINE_PX;
    px.div_ceil(GRID).max(1)
}

/// A note's text cut into parts no taller than [`NOTE_MAX_H`], at line ends where a line ends
/// within the part's last half, else at a row's end; titled "(1/3)" and so on when cut.
fn split_note(title: &str, text: &str) -> Vec<(String, String)> {
    let text = text.trim();
    let most = ((NOTE_MAX_H * GRID - TITLE_PX - PAD_PX) / LINE_PX) as usize;
    let rows = note_rows(text, NOTE_W);
    if rows.len() <= most {
        return vec![(title.to_string(), text.to_string())];
    }
    let mut parts: Vec<&[(bool, String)]> = Vec::new();
    let mut rest = rows.as_slice();
    while rest.len() > most {
        let cut = (most / 2..=most).rev().find(|&i| rest[i].0).unwrap_or(most);
        parts.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    parts.push(rest);
    let n = parts.len();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let mut t = String::new();
            for (k, (starts, row)) in part.iter().enumerate() {
                if k > 0 {
                    t.push(if *starts { '\n' } else { ' ' });
                }
                t.push_str(row);
            }
            (format!("{title} ({}/{n})", i + 1), t.trim().to_string())
        })
        .collect()
}

/// A note as it stands: its title and text, its foot's middle (x, y) in pixels, its height in
/// cells.
struct Placed {
    title: String,
    text: String,
    x: u32,
    y: u32,
    h: u32,
}

/// Notes in columns from cell column `left` down to row `rows`, each of `groups` (the scenario's
/// notes, then each map's) opening a column of its own so the GM finds a map's notes together.
/// A note's foot stands as far below the foot before as its tilted height and a cell, so seen
/// from Udonarium's opening view no note hides another. The notes, and the cells they take
/// (right edge, bottom).
fn lay_notes(left: u32, rows: u32, groups: &[Vec<(String, String)>]) -> (Vec<Placed>, (u32, u32)) {
    let mut out = Vec::new();
    let (mut col, mut bottom) = (0u32, 0u32);
    for group in groups.iter().filter(|g| !g.is_empty()) {
        let mut top = 1u32;
        for (title, text) in group {
            let h = note_height(text, NOTE_W);
            let depth = (f64::from(h) * TILT).ceil() as u32;
            if top > 1 && top + depth > rows {
                col += 1;
                top = 1;
            }
            let (x, y) = (left + col * (NOTE_W + 1) + NOTE_W / 2, top + depth);
            out.push(Placed { title: title.clone(), text: text.clone(), x: x * GRID, y: y * GRID, h });
            bottom = bottom.max(y);
            top = y + 1;
        }
        col += 1;
    }
    (out, (left + col * (NOTE_W + 1), bottom + 1))
}

/// The footprint in pixels (left, top, right, bottom) of a note Udonarium places at pixel
/// (x, y) with a size of `w` x `h` cells, as it covers the table from the opening view: centred
/// across its position, rising from it and leaning back over `h * TILT` cells.
pub fn note_footprint(x: f64, y: f64, w: f64, h: f64) -> Box2 {
    let (w, h) = (w * f64::from(GRID), h * f64::from(GRID) * TILT);
    (x - w / 2.0, y - h, x + w / 2.0, y)
}

/// A table of at least `w` x `h` cells within Udonarium's limit: its size in its own cells and
/// how many of ours each of its cells is a side (1, or more for a plan past 100 cells, whose
/// table then has a coarser grid: the same picture, the same pixels, fewer cells).
pub fn fit_table(w: u32, h: u32) -> (u32, u32, u32) {
    let f = w.max(h).div_ceil(TABLE_MAX).max(1);
    (w.div_ceil(f), h.div_ceil(f), f)
}

/// A box in pixels: left, top, right, bottom.
pub type Box2 = (f64, f64, f64, f64);

/// The name tag Udonarium draws over a piece of one cell at pixel (x, y): 15 px text with 9 px
/// padding each side, centred, 30 px above the piece's top. Its width is taken generously (9.5 px
/// a character), so a tag never runs wider than this box.
pub fn name_tag(name: &str, x: f64, y: f64) -> Box2 {
    let w = name.chars().count() as f64 * 9.5 + 18.0;
    let c = x + f64::from(GRID) / 2.0;
    (c - w / 2.0, y - 30.0, c + w / 2.0, y - 6.0)
}

/// The room's label in the plan's picture (bold, 0.8 cells high, from 0.35 cells in), in pixels.
pub fn room_label(r: &PlanRoom) -> Box2 {
    let g = f64::from(GRID);
    let (x, y) = (f64::from(r.x) * g, f64::from(r.y) * g);
    (x + 0.3 * g, y + 0.2 * g, x + 0.4 * g + r.label.chars().count() as f64 * 0.55 * g, y + 1.15 * g)
}

fn overlap(a: Box2, b: Box2) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Cells for the pieces of one room: each piece inside the room, below its label row, with its
/// name tag inside the room's width; no piece or tag touching another's or the room's label.
/// None when they do not fit.
pub fn stand(room: &PlanRoom, pieces: &[Piece]) -> Option<Vec<(u32, u32)>> {
    let g = f64::from(GRID);
    let (left, right) = (f64::from(room.x) * g, f64::from(room.x + room.w) * g);
    let mut taken: Vec<Box2> = vec![room_label(room)];
    let mut out = Vec::new();
    for p in pieces {
        let spot = (room.y + 1..room.y + room.h).flat_map(|y| (room.x..room.x + room.w).map(move |x| (x, y))).find(
            |&(x, y)| {
                let (px, py) = (f64::from(x) * g, f64::from(y) * g);
                let body = (px, py, px + g, py + g);
                let tag = name_tag(&p.name, px, py);
                tag.0 >= left && tag.2 <= right && !taken.iter().any(|t| overlap(*t, body) || overlap(*t, tag))
            },
        )?;
        let (px, py) = (f64::from(spot.0) * g, f64::from(spot.1) * g);
        taken.push((px, py, px + g, py + g));
        taken.push(name_tag(&p.name, px, py));
        out.push(spot);
    }
    Some(out)
}

/// A players' sheet's size in cells: 1 cm each, the paper's width.
fn sheet_cells(paper: Paper) -> (u32, u32) {
    let (w_mm, h_mm) = paper.size_mm();
    let w = (w_mm / 10.0).round() as u32;
    (w, (h_mm / 10.0 * f64::from(w) / (w_mm / 10.0)).round() as u32)
}

/// A piece's token text: the initials of its name's first two words, and the number a piece of
/// a group carries ("Crane Swarm 3" is "CS3"), so that a group's pieces are told apart on the
/// table as on their name tags.
pub fn token_label(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let number = match words.as_slice() {
        [_, .., last] if last.chars().all(|c| c.is_ascii_digit()) => Some(*last),
        _ => None,
    };
    let initials: String =
        words[..words.len() - usize::from(number.is_some())].iter().filter_map(|w| w.chars().next()).take(2).collect();
    initials + number.unwrap_or("")
}

/// The pieces of one room with labels no two of them share: where two names give the same
/// label (Minotaur 1 and Minotragos 1 are both "M1"), each takes its first letter and the first
/// letter where the names part ("Ma1", "Mr1"); pieces still alike take their place in the room.
fn tell_apart(ps: &[Piece]) -> Vec<Piece> {
    let mut out = ps.to_vec();
    let base = |p: &Piece| -> String {
        let number = p.name.rsplit_once(' ').filter(|(_, n)| n.chars().all(|c| c.is_ascii_digit()));
        number.map_or(p.name.clone(), |(b, _)| b.to_string())
    };
    for (i, p) in ps.iter().enumerate() {
        let others: Vec<String> =
            ps.iter().enumerate().filter(|(j, q)| *j != i && q.label == p.label).map(|(_, q)| base(q)).collect();
        let Some(other) = others.iter().find(|o| **o != base(p)) else { continue };
        let mine = base(p);
        let part = mine.chars().zip(other.chars().chain(std::iter::repeat(' '))).find(|(a, b)| a != b);
        let number = out[i].label.trim_start_matches(|c: char| !c.is_ascii_digit()).to_string();
        if let (Some(first), Some((c, _))) = (mine.chars().next(), part) {
            out[i].label = format!("{first}{}{number}", c.to_lowercase());
        }
    }
    for i in 0..out.len() {
        if out[..i].iter().any(|q| q.label == out[i].label) {
            out[i].label = format!("{}{}", out[i].label, i + 1);
        }
    }
    out
}

/// A round token with the piece's label, as SVG (drawn 100 pixels wide); a longer label is set
/// smaller to stay inside the circle. Only its picture leaves the program (and its text keys the
/// drawings pieces share), so the crate's layout of the document is free.
fn token_svg(p: &Piece) -> String {
    let size = match p.label.chars().count() {
        0..=2 => 40,
        3 => 32,
        _ => 26,
    };
    let circle = Circle::new()
        .set("cx", 50)
        .set("cy", 50)
        .set("r", 46)
        .set("fill", p.colour)
        .set("stroke", "#111111")
        .set("stroke-width", 5);
    // A plain element with the crate's text node, as svgkit's labels: the text hugs its tags.
    let mut text = Element::new("text");
    for (k, v) in [("x", "50"), ("text-anchor", "middle"), ("font-family", "DejaVu Sans"), ("font-weight", "bold")] {
        text.assign(k, v);
    }
    text.assign("y", 50 + size * 7 / 20);
    text.assign("font-size", size);
    text.assign("fill", "#ffffff");
    text.append(TextNode::new(crate::render::svgkit::xml_chars(&p.label)));
    svg::Document::new()
        .set("width", 100)
        .set("height", 100)
        .set("viewBox", "0 0 100 100")
        .add(circle)
        .add(text)
        .to_string()
}

/// The two zips of an export: the players' room and the GM's (see the module doc).
pub struct Rooms {
    pub players: Vec<u8>,
    pub gm: Vec<u8>,
}

/// Draws every `(svg, width)`, in order, a thread each (they are deflate-bound) but only as many
/// at once as the machine has cores: each holds its whole picture until it is encoded, and a
/// 40-map scenario's 120 pictures at once took 1.4 GB.
fn draw_all(jobs: &[(String, u32)], what: &str) -> Result<Vec<Vec<u8>>> {
    let at_once = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8);
    let mut out = Vec::with_capacity(jobs.len());
    for batch in jobs.chunks(at_once) {
        let drawn: Result<Vec<Vec<u8>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .map(|(svg, w)| scope.spawn(crate::meter::carried(move || crate::render::raster::png(svg, *w, what))))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
        });
        out.extend(drawn?);
    }
    Ok(out)
}

/// One map (or the fortress) in both rooms: the players get the plan as far as they know it
/// (the grid and the entrance) and their sheet; the GM gets the plan and every piece.
struct Part<'a> {
    name: String,
    plan: &'a Plan,
    /// The plan reduced to what the players know before they go in ([`Plan::start`]).
    start: Plan,
    pieces: Vec<(String, Vec<Piece>)>,
    sheet_name: String,
    sheet: String,
    /// The first map: its pieces stand on the table.
    first: bool,
}

/// The notes of one room laid out once for all its tables (Udonarium shows every note on
/// whichever table is shown, and every table's corner is the same point), and the size every
/// table of the room takes: the largest plan and the notes' columns beside it.
struct Layout {
    notes: Vec<Placed>,
    /// The table in its own cells, and how many of ours each is a side.
    table: (u32, u32, u32),
}

impl Layout {
    fn new(plans: &[&Plan], groups: &[Vec<(String, String)>]) -> Layout {
        let left = plans.iter().map(|p| p.w).max().unwrap_or(1) + 1;
        let high = plans.iter().map(|p| p.h).max().unwrap_or(1);
        let (notes, (right, bottom)) = lay_notes(left, high.max(TABLE_MAX - 1), groups);
        let (w, h) = (right.max(left), bottom.max(high));
        Layout { notes, table: fit_table(w, h) }
    }

    /// The picture's size in our cells (the table's, in whole cells of its own) and the
    /// pixels it gives each of our cells.
    fn picture(&self) -> ((u32, u32), u32) {
        let (w, h, f) = self.table;
        ((w * f, h * f), GRID / f)
    }
}

/// Both rooms of a scenario: its parts (a map each, or the fortress), the GM's notes and the
/// players' by group (see [`lay_notes`]), and the pieces that stand on no map (the cast who
/// stay at home, the Connections).
struct Export<'a> {
    parts: Vec<Part<'a>>,
    gm_notes: Vec<Vec<(String, String)>>,
    players_notes: Vec<Vec<(String, String)>>,
    loose: Vec<Piece>,
}

fn both(export: Export, paper: Paper, dicebot: &str, what: &str) -> Result<Rooms> {
    let (mut players, mut gm) = (RoomDoc::default(), RoomDoc::default());
    let plans: Vec<&Plan> = export.parts.iter().map(|p| p.plan).collect();
    let (gm_lay, players_lay) = (Layout::new(&plans, &export.gm_notes), Layout::new(&plans, &export.players_notes));
    let ((gm_size, gm_ppg), (pl_size, pl_ppg)) = (gm_lay.picture(), players_lay.picture());
    let mut jobs = Vec::new();
    for part in &export.parts {
        jobs.push((part.start.svg_unexplored_in(pl_ppg, pl_size), pl_size.0 * pl_ppg));
        jobs.push((part.plan.svg_gm_in(gm_ppg, gm_size), gm_size.0 * gm_ppg));
        jobs.push((part.sheet.clone(), sheet_cells(paper).0 * GRID));
    }
    let mut pics = draw_all(&jobs, what)?.into_iter();
    for part in &export.parts {
        let mut next = || pics.next().unwrap_or_default();
        let image = players.image(next());
        players.table(&part.name, players_lay.table, &image, true);
        let image = gm.image(next());
        gm.table(&part.name, gm_lay.table, &image, true);
        gm.pieces(part.plan, &part.pieces, part.first, dicebot)?;
        players.sheet_table(&part.sheet_name, next(), paper);
    }
    for p in &export.loose {
        gm.character(p, None, dicebot)?;
    }
    for (doc, lay) in [(&mut players, &players_lay), (&mut gm, &gm_lay)] {
        for n in &lay.notes {
            doc.note(n);
        }
    }
    Ok(Rooms { players: players.zip(what)?, gm: gm.zip(what)? })
}

/// Names no two pieces share. A later map's pieces carry their map and room ("M2 B3 Goblin 1",
/// its trap marker "M2 B3 GM"), so that the GM, who finds them in the inventory Udonarium sorts
/// by name, sees which to put out where; on the first map (or in the fortress) a name two
/// pieces share takes its place (`place` of the room's key: "B3 Goblin 1", "Area 7 Ghoul 1");
/// any still alike are numbered ("#2").
fn name_pieces(maps: &mut [Vec<(String, Vec<Piece>)>], indices: &[u32], place: impl Fn(&str) -> String) {
    for (pieces, m) in maps.iter_mut().zip(indices).skip(1) {
        for (key, ps) in pieces.iter_mut() {
            for p in ps.iter_mut() {
                let bare = if p.name == format!("GM {key}") { "GM".to_string() } else { p.name.clone() };
                p.name = format!("M{m} {key} {bare}");
            }
        }
    }
    if let Some(first) = maps.first_mut() {
        let names: Vec<String> = first.iter().flat_map(|(_, ps)| ps.iter().map(|p| p.name.clone())).collect();
        for (key, ps) in first.iter_mut() {
            for p in ps.iter_mut() {
                if names.iter().filter(|n| **n == p.name).count() > 1 {
                    p.name = format!("{} {}", place(key.as_str()), p.name);
                }
            }
        }
    }
    number_alike(maps.iter_mut().flatten().flat_map(|(_, ps)| ps.iter_mut()));
}

/// The second and later pieces of one name numbered ("Goblin 1 #2").
fn number_alike<'a>(pieces: impl Iterator<Item = &'a mut Piece>) {
    let mut seen: Vec<String> = Vec::new();
    for p in pieces {
        let n = seen.iter().filter(|s| **s == p.name).count();
        seen.push(p.name.clone());
        if n > 0 {
            p.name = format!("{} #{}", p.name, n + 1);
            seen.push(p.name.clone());
        }
    }
}

/// A piece for a cast NPC of a MYK scenario (an informant, the captive, the rival's leader...):
/// who they are on its sheet, their line and what they want in its palette for the GM to speak,
/// and the numbers and rolls of one who fights.
pub fn npc_piece(s: &Scenario, n: &Npc) -> Piece {
    let name = n.name.to_string();
    // The line and wants with their placeholders filled, as the booklet prints them.
    let fill = crate::myk::story::Fill::with_npc(s, &n.name);
    let (line, wants) = (fill.text(&n.line), fill.text(&n.wants));
    let mut stats = vec![("Role".to_string(), n.role.to_string())];
    for (k, v) in [("Age", n.age.to_string()), ("Sex", n.sex.to_string()), ("Personality", n.personality.clone())] {
        if !v.is_empty() {
            stats.push((k.to_string(), v));
        }
    }
    if !n.traits.is_empty() {
        stats.push(("Traits".to_string(), n.traits.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")));
    }
    let mut palette = Vec::new();
    if !line.is_empty() {
        palette.push(format!("{name}: \"{line}\""));
    }
    if !wants.is_empty() {
        palette.push(format!("{name} wants {}", wants.trim_end_matches('.')));
    }
    if let Some(f) = &n.fights {
        stats.push(("Level".to_string(), f.level.to_string()));
        stats.push(("Fights as".to_string(), f.as_monster.to_string()));
        stats.push(("Defense".to_string(), f.stats.defense.to_string()));
        let st = &f.stats;
        palette.extend(myk_palette(&name, Some(st.warfare), Some(st.range), Some(st.damage.to_string())));
    }
    if palette.is_empty() {
        palette.push(format!("{name}: {}", n.role));
    }
    Piece {
        label: token_label(&name),
        // "Informant. Wants to take ...": the want is a phrase, read after its own label.
        note: if wants.is_empty() { n.role.to_string() } else { [n.role.as_str(), ". Wants ", &wants].concat() },
        hp: n.fights.as_ref().map(|f| f.stats.hp),
        name,
        stats,
        colour: colour::CAST,
        palette,
    }
}

/// The Udonarium zips of a MYK scenario.
pub fn myk(s: &Scenario, tables: &Tables, paper: Paper, templates: &Templates, what: &str) -> Result<Rooms> {
    let v = view::myk_view(s, tables, paper, &[]);
    let intro = templates.render("udonarium-myk.j2", &v)?;
    // The title may name the ruler or the objective's target, which the players learn in play;
    // their room is headed by the first map's name, which their own sheet shows.
    let heading = s.maps.first().map_or_else(|| "Make You Kingdom".to_string(), |m| m.name.to_string());
    let welcome = (
        heading.clone(),
        templates.render("udonarium-players.j2", &serde_json::json!({ "title": heading, "game": "myk" }))?,
    );
    let mut scenario_notes = split_note(&s.title, &intro);
    scenario_notes.push(legend(templates, "myk")?);
    let mut gm_notes = vec![scenario_notes];
    let plans: Vec<Plan> = s.maps.iter().map(crate::render::plan::myk_plan).collect();
    let mut pieces = Vec::new();
    for (m, mv) in s.maps.iter().zip(&v.maps) {
        let (mut notes, mut map_pieces) = (Vec::new(), Vec::new());
        for rv in &mv.rooms {
            let ctx = serde_json::json!({ "r": rv });
            // Every map's notes stand on every table: with more than one map, each says whose.
            let title = match s.maps.len() {
                1 => format!("{} {}", rv.id, rv.name),
                _ => format!("Map {} {} {}", m.index, rv.id, rv.name),
            };
            notes.extend(split_note(&title, &templates.render("udonarium-room.j2", &ctx)?));
            if let Some(r) = m.rooms.iter().find(|r| r.id.to_string() == rv.id) {
                let mut ps = myk_pieces(r, rv, tables);
                ps.extend(myk_marker(m, r, rv, tables, s.court.size));
                let here = |n: &&Npc| n.place.is_some_and(|p| p.map == m.index && p.room == r.id);
                ps.extend(s.cast.iter().filter(here).map(|n| npc_piece(s, n)));
                map_pieces.push((rv.id.clone(), ps));
            }
        }
        gm_notes.push(notes);
        pieces.push(map_pieces);
    }
    let indices: Vec<u32> = s.maps.iter().map(|m| m.index).collect();
    name_pieces(&mut pieces, &indices, str::to_string);
    // The cast who stay at home (or stand where no map is) wait in the inventory.
    let placed = |n: &Npc| {
        let room_of = |p: crate::myk::model::Place| {
            s.maps
                .iter()
                .zip(&v.maps)
                .any(|(m, mv)| m.index == p.map && mv.rooms.iter().any(|r| r.id == p.room.to_string()))
        };
        n.place.is_some_and(room_of)
    };
    let mut loose: Vec<Piece> = s.cast.iter().filter(|n| !placed(n)).map(|n| npc_piece(s, n)).collect();
    let mut all: Vec<&mut Piece> = pieces.iter_mut().flatten().flat_map(|(_, ps)| ps.iter_mut()).collect();
    all.extend(loose.iter_mut());
    number_alike(all.into_iter());
    let parts = s
        .maps
        .iter()
        .zip(&plans)
        .zip(pieces)
        .enumerate()
        .map(|(i, ((m, plan), pieces))| Part {
            name: format!("Map {}: {}", m.index, m.name),
            plan,
            start: plan.start(&[], true),
            pieces,
            sheet_name: format!("Map {}: players' sheet", m.index),
            sheet: crate::render::sheet::myk_sheet(s, m, tables, paper, Audience::Players),
            first: i == 0,
        })
        .collect();
    let export = Export { parts, gm_notes, players_notes: vec![vec![welcome]], loose };
    both(export, paper, MYK_DICEBOT, what)
}

/// The side of the GM room's areas: the smallest (from the VTT plan's) in which every area's
/// pieces stand clear of one another; the same for all, so the size tells nothing.
fn area_side(pieces: &[(String, Vec<Piece>)]) -> u32 {
    (4..=12)
        .find(|&side| {
            pieces.iter().all(|(key, ps)| {
                let r = PlanRoom { label: key.clone(), key: key.clone(), x: 0, y: 0, w: side, h: side };
                stand(&r, ps).is_some()
            })
        })
        .unwrap_or(12)
}

/// The GM room's plan of a fortress whose areas hold `pieces` (area key, pieces).
fn gm_plan(f: &Fortress, pieces: &[(String, Vec<Piece>)]) -> Plan {
    crate::render::plan::fortress_plan_sized(f, area_side(pieces))
}

/// Every area's pieces (enemies, the Ruler, the GM's marker), by area key, named so that no
/// two share a name (see [`name_pieces`]).
pub fn fortress_pieces(f: &Fortress) -> Vec<(String, Vec<Piece>)> {
    let pieces = f
        .areas
        .iter()
        .map(|a| {
            let mut ps = nw3_pieces(f, a);
            ps.extend(nw3_marker(f, a));
            (a.id.to_string(), ps)
        })
        .collect();
    let mut one = [pieces];
    name_pieces(&mut one, &[1], |key| format!("Area {key}"));
    let [pieces] = one;
    pieces
}

/// The plan the GM's room of a fortress draws (areas large enough for their pieces).
pub fn fortress_gm_plan(f: &Fortress) -> Plan {
    gm_plan(f, &fortress_pieces(f))
}

/// One note per PC's handout of an episode: the hook and the Connection.
fn handout_notes(f: &Fortress) -> Vec<(String, String)> {
    let Some(e) = &f.episode else { return Vec::new() };
    e.handouts
        .iter()
        .map(|h| {
            let c = &h.connection;
            (format!("PC {} handout", h.pc), format!("{}\nConnection: {} - {}", h.hook, c.name, c.who))
        })
        .collect()
}

/// A piece for each Connection of an episode's handouts (once each, in PC order), waiting in
/// the GM's inventory for the scene that brings them in.
fn connection_pieces(f: &Fortress) -> Vec<Piece> {
    let Some(e) = &f.episode else { return Vec::new() };
    let mut out: Vec<Piece> = Vec::new();
    for h in &e.handouts {
        let c = &h.connection;
        if let Some(p) = out.iter_mut().find(|p| p.name == c.name) {
            if let Some(pcs) = p.stats.iter_mut().find(|(k, _)| k == "Connection of") {
                pcs.1.push_str(&format!(", PC {}", h.pc));
            }
            continue;
        }
        out.push(Piece {
            name: c.name.clone(),
            hp: None,
            stats: vec![("Connection of".to_string(), format!("PC {}", h.pc)), ("Who".to_string(), c.who.clone())],
            note: c.who.clone(),
            colour: colour::CAST,
            label: token_label(&c.name),
            palette: vec![format!("{}: {}", c.name, c.who)],
        });
    }
    out
}

/// The Udonarium zips of a Fortress.
pub fn fortress(f: &Fortress, tables: &Tables, paper: Paper, templates: &Templates, what: &str) -> Result<Rooms> {
    let v = crate::render::fortress_view::fortress_view(f, tables, paper, (String::new(), String::new()));
    let mut scenario_notes = split_note(&f.title, &templates.render("udonarium-fortress.j2", &v)?);
    scenario_notes.push(legend(templates, "nw3")?);
    scenario_notes.extend(handout_notes(f));
    let welcome = (
        f.title.clone(),
        templates.render("udonarium-players.j2", &serde_json::json!({ "title": f.title, "game": "nw3" }))?,
    );
    let mut area_notes = Vec::new();
    for av in &v.areas {
        let ctx = serde_json::json!({ "a": av });
        area_notes
            .extend(split_note(&format!("{}. {}", av.id, av.name), &templates.render("udonarium-area.j2", &ctx)?));
    }
    let pieces = fortress_pieces(f);
    let plan = crate::render::plan::fortress_plan_checked(f, area_side(&pieces), what)?;
    let entrance = f.entrance().map(|a| a.id.to_string()).unwrap_or_default();
    let mut loose = connection_pieces(f);
    let mut pieces = [pieces];
    let mut all: Vec<&mut Piece> = pieces.iter_mut().flatten().flat_map(|(_, ps)| ps.iter_mut()).collect();
    all.extend(loose.iter_mut());
    number_alike(all.into_iter());
    let [pieces] = pieces;
    let part = Part {
        name: f.title.clone(),
        plan: &plan,
        start: plan.start(&[entrance.as_str()], false),
        pieces,
        sheet_name: format!("{}: players' handout", f.title),
        sheet: crate::render::area_map::fortress_map(f, tables, paper, Audience::Players),
        first: true,
    };
    let mut players_notes = vec![welcome];
    players_notes.extend(handout_notes(f));
    let export = Export {
        parts: vec![part],
        gm_notes: vec![scenario_notes, area_notes],
        players_notes: vec![players_notes],
        loose,
    };
    both(export, paper, NW3_DICEBOT, what)
}
