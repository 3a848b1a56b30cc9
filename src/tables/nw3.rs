//! Night Wizard 3rd records (our own content, written to fit the NW3 fortress rules).
//!
//! The NW3 sources give the fortress rules (areas, gates, traps, appearance, Danger Sense) but not
//! the advanced book's random tables, so every record under `tables/nw3/` is original content.
//! A file's `[nw3]` section may hold any of the collections below; the loader merges them in file
//! order and validates the whole before any generation starts (unique names, complete text,
//! difficulty bands covering every character level, an enemy group for every level, ...).
//!
//! Trap and event values follow the judge difficulty bands by character level (CL):
//!
//! ```text
//! band(cl)  = the [[nw3.band]] whose `cl` range holds cl       (ordinary 1-3, challenging 4-7, ...)
//! base(cl)  = low + (cl - first) * (high - low) / (last - first)   (integer division; first == last: low)
//! value     = clamp(base(cl) + offset, low, high)
//! ```
//!
//! so a trap's Detection and Removal Values (and a scenario event's difficulty) climb through the
//! band as the party levels, each record keeping its own offset, and never leave the band.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
pub use crate::tables::judge::Hardness;
use crate::tables::nw3_combat::{AttackRecord, SkillRecord, StatTweak};

/// Lowest and highest character level the generator accepts.
pub const CL_MIN: u32 = 1;
pub const CL_MAX: u32 = 20;

/// An inclusive range of character levels, written `"4-7"` or `5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClRange {
    pub first: u32,
    pub last: u32,
}

impl ClRange {
    pub fn contains(self, cl: u32) -> bool {
        (self.first..=self.last).contains(&cl)
    }
}

impl fmt::Display for ClRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last { write!(f, "{}", self.first) } else { write!(f, "{}-{}", self.first, self.last) }
    }
}

impl<'de> Deserialize<'de> for ClRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            S(String),
        }
        let bad =
            |s: &str| serde::de::Error::custom(format!("character levels `{s}` are not a number or a range like 4-7"));
        let r = match Raw::deserialize(d)? {
            Raw::N(n) => ClRange { first: n, last: n },
            Raw::S(s) => {
                let (a, b) = s.split_once('-').ok_or_else(|| bad(&s))?;
                let first: u32 = a.trim().parse().map_err(|_| bad(&s))?;
                let last: u32 = b.trim().parse().map_err(|_| bad(&s))?;
                ClRange { first, last }
            }
        };
        if r.first > r.last || r.first < CL_MIN || r.last > CL_MAX {
            return Err(serde::de::Error::custom(format!(
                "character levels `{r}` must run upwards within {CL_MIN}-{CL_MAX}"
            )));
        }
        Ok(r)
    }
}

impl Serialize for ClRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A judge difficulty band ("ordinary 10-12") and the character levels it serves.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub name: String,
    pub cl: ClRange,
    pub low: u32,
    pub high: u32,
}

/// A place the Lunar Casket has twisted: an area's name and look.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    pub name: String,
    pub description: String,
}

/// The area kinds the generator may roll for an area that has no fixed role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RandomKind {
    Normal,
    Object,
    Trap,
    Event,
    Enemy,
}

impl RandomKind {
    pub const ALL: [RandomKind; 5] =
        [RandomKind::Normal, RandomKind::Object, RandomKind::Trap, RandomKind::Event, RandomKind::Enemy];

    pub fn label(self) -> &'static str {
        match self {
            RandomKind::Normal => "normal",
            RandomKind::Object => "object",
            RandomKind::Trap => "trap",
            RandomKind::Event => "event",
            RandomKind::Enemy => "enemy",
        }
    }
}

/// How often an area without a fixed role becomes this kind.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct KindWeight {
    pub kind: RandomKind,
    pub weight: u32,
}

/// What the Fortress Core looks like.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CoreRecord {
    pub name: String,
    pub description: String,
    /// The Ruler's story it belongs to (`[[theme]]` of the episode pools): a Fortress has the
    /// Core of its Ruler's theme.
    #[serde(default)]
    pub theme: String,
    /// How the party breaks it in play (absent: struck down like an object).
    #[serde(default)]
    pub breaks: BreakWay,
}

/// How a Fortress Core is broken at the table (`src/nw3/episode/core.rs` gives the numbers):
/// struck down by damage, as an object that neither dodges nor defends, or worked apart by a
/// judge of the Attribute named, one try per Major Action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakWay {
    #[default]
    Strike,
    Finesse,
    Knowledge,
    Spirit,
}

impl BreakWay {
    /// The Attribute of the judge that works it apart (`None`: it is struck down).
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            BreakWay::Strike => None,
            BreakWay::Finesse => Some("Finesse"),
            BreakWay::Knowledge => Some("Knowledge"),
            BreakWay::Spirit => Some("Spirit"),
        }
    }
}

/// A scenario event for an Event area, one record: the set-up, the judge that clears it and every
/// outcome, so a booklet never tells one event's set-up with another's ending.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventRecord {
    pub name: String,
    pub text: String,
    /// The judge that clears it (e.g. "Knowledge").
    pub judge: String,
    /// Ordinary or hard by the judge rule (`nw3::rules::judge_difficulty`); an event that opens a
    /// gate is judged ordinary whatever this says.
    pub hardness: Hardness,
    /// What the set-up promises, after `text`: when clearing it opens a gate (`stake_gate`), and
    /// when it gives its `reward` (`stake_reward`); the one that holds is drawn with the outcome.
    #[serde(default)]
    pub stake_gate: String,
    #[serde(default)]
    pub stake_reward: String,
    /// What clearing it looks like (the gate it opens, if any, is added from the fortress).
    pub success: String,
    /// What clearing it gives when it opens no gate.
    pub reward: String,
    /// What failing costs (`{cost}`: the D6 for the party's CL).
    pub failure: String,
    /// Whether and how it may be tried again.
    pub retry: String,
}

/// A trap: Detection and Removal offsets on the difficulty band, and its effect.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TrapRecord {
    pub name: String,
    /// How hard the Detection Value is (Perception judge: Trap Identification), by the judge rule.
    pub detection: Hardness,
    /// How hard the Removal Value is (Finesse judge; Danger Sense difficulty equals it).
    pub removal: Hardness,
    /// Base dice of `{damage}` in the effect: `(damage_dice + cl / 5)D6`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_dice: Option<u32>,
    /// The effect in our words; `{damage}` is replaced by the scaled damage dice.
    pub effect: String,
}

/// Mob (one character standing for ten or more lesser enemies), Guest (a full character) or
/// Boss (the climax's foe: the Ruler, or a member a table marks so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    Mob,
    Guest,
    Boss,
}

impl Rank {
    pub fn label(self) -> &'static str {
        match self {
            Rank::Mob => "Mob",
            Rank::Guest => "Guest",
            Rank::Boss => "Boss",
        }
    }
}

/// How many of a member appear: a number, one per PC, or one per two PCs (at least one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Headcount {
    Fixed(u32),
    Rule(HeadcountRule),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HeadcountRule {
    Party,
    HalfParty,
}

impl Headcount {
    /// The number for a party of `size` PCs.
    pub fn resolve(self, size: u32) -> u32 {
        match self {
            Headcount::Fixed(n) => n,
            Headcount::Rule(HeadcountRule::Party) => size.max(1),
            Headcount::Rule(HeadcountRule::HalfParty) => (size / 2).max(1),
        }
    }
}

/// One member of an enemy group.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MemberRecord {
    pub name: String,
    pub rank: Rank,
    pub count: Headcount,
    /// SPD; enemies take initiative by Any Seven: SPD + 7.
    pub spd: u32,
    /// Its attacks (the first one's kind is its main kind).
    pub attacks: Vec<AttackRecord>,
    /// Names of its skills (`[[nw3.enemy_skill]]`).
    #[serde(default)]
    pub skills: Vec<String>,
    #[serde(default)]
    pub tweak: StatTweak,
}

/// An enemy group for Enemy areas and the Core's guardians.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyRecord {
    pub name: String,
    /// Character levels it suits.
    pub cl: ClRange,
    /// The group lies in wait: Danger Sense against it is its best Perception + 7.
    #[serde(default)]
    pub ambush: bool,
    pub description: String,
    pub members: Vec<MemberRecord>,
}

/// An object found in an Object area.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectRecord {
    pub name: String,
    pub effect: String,
    /// A Gate Release Device: working it opens one closed gate elsewhere.
    #[serde(default)]
    pub release: bool,
    /// It helps against the Ruler: the generator puts it only where the party comes before the
    /// Ruler's fight, and `check` holds every fortress to that.
    #[serde(default)]
    pub ruler_aid: bool,
}

/// The Emulator who rules the Lunar Casket.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RulerRecord {
    pub name: String,
    pub title: String,
    /// The story this persona belongs to (`[[theme]]` of the episode pools): its former life,
    /// wish, keyword, haunt and Core are drawn from the same theme.
    #[serde(default)]
    pub theme: String,
    pub spd: u32,
    /// Its attacks as a Boss (the first one's kind is its main kind).
    pub attacks: Vec<AttackRecord>,
    /// Names of its skills (`[[nw3.enemy_skill]]`).
    #[serde(default)]
    pub skills: Vec<String>,
    #[serde(default)]
    pub tweak: StatTweak,
    pub description: String,
    /// What happens when the party meets it (the Ruler encounter event).
    pub encounter: String,
    /// Its persona lets nobody leave (its encounter bars the door): it never grants the party
    /// leave, so its Dive has no retreat (seed 000 l.863-871; `src/nw3/episode/core.rs`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bars_door: bool,
}

/// A rule of the Lunar Casket in force.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LogicRecord {
    pub name: String,
    pub effect: String,
    /// Opening scenes that show this Logic's effect first, out in the town (slots of
    /// `logic_sign`): the episode's first sign of the Logic is one of its own.
    #[serde(default)]
    pub signs: Vec<SignRecord>,
}

/// A Logic's first sign: an Opening scene's title and text.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SignRecord {
    pub title: String,
    pub text: String,
}

/// What the Entrance asks of the party.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntranceKind {
    Cost,
    Keyword,
    Item,
}

impl EntranceKind {
    pub fn label(self) -> &'static str {
        match self {
            EntranceKind::Cost => "cost",
            EntranceKind::Keyword => "keyword",
            EntranceKind::Item => "item",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EntranceRecord {
    pub kind: EntranceKind,
    pub text: String,
}

/// A line of text: a motive, a title pattern or a trailer pattern.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TextRecord {
    pub text: String,
}

/// The `[nw3]` part of a table file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nw3File {
    #[serde(default)]
    pub band: Vec<Band>,
    #[serde(default)]
    pub area: Vec<Location>,
    #[serde(default)]
    pub area_kind: Vec<KindWeight>,
    #[serde(default)]
    pub core: Vec<CoreRecord>,
    #[serde(default)]
    pub event: Vec<EventRecord>,
    #[serde(default)]
    pub trap: Vec<TrapRecord>,
    #[serde(default)]
    pub enemy: Vec<EnemyRecord>,
    #[serde(default)]
    pub enemy_skill: Vec<SkillRecord>,
    #[serde(default)]
    pub object: Vec<ObjectRecord>,
    #[serde(default)]
    pub ruler: Vec<RulerRecord>,
    #[serde(default)]
    pub motive: Vec<TextRecord>,
    #[serde(default)]
    pub logic: Vec<LogicRecord>,
    #[serde(default)]
    pub entrance: Vec<EntranceRecord>,
    #[serde(default)]
    pub title: Vec<TextRecord>,
    #[serde(default)]
    pub trailer: Vec<TextRecord>,
    #[serde(default)]
    pub town: Vec<TextRecord>,
}

/// All NW3 records, in file order.
#[derive(Clone, Debug, Default)]
pub struct Nw3Data {
    pub bands: Vec<Band>,
    pub areas: Vec<Location>,
    pub area_kinds: Vec<KindWeight>,
    pub cores: Vec<CoreRecord>,
    pub events: Vec<EventRecord>,
    pub traps: Vec<TrapRecord>,
    pub enemies: Vec<EnemyRecord>,
    pub enemy_skills: Vec<SkillRecord>,
    pub objects: Vec<ObjectRecord>,
    pub rulers: Vec<RulerRecord>,
    pub motives: Vec<TextRecord>,
    pub logics: Vec<LogicRecord>,
    pub entrances: Vec<EntranceRecord>,
    pub titles: Vec<TextRecord>,
    pub trailers: Vec<TextRecord>,
    /// Towns and districts where an episode may happen (`{town}`).
    pub towns: Vec<TextRecord>,
    /// The episode pools (`nw3/episode.toml`; empty when a tables folder has none).
    pub episode: crate::tables::nw3_episode::EpisodeData,
}

/// The roll table of area events (2D6), rolled for Normal and Object areas.
pub const AREA_EVENT_TABLE: &str = "nw3.area_event";

/// Placeholders a title or trailer may use.
pub const PLACEHOLDERS: [&str; 3] = ["{place}", "{ruler}", "{core}"];

/// Largest SPD of an enemy or Ruler.
const MAX_SPD: u32 = 50;
/// Largest base damage dice of a trap.
const MAX_DICE: u32 = 20;
use crate::tables::nw3_combat::MAX_TWEAK;

/// The files (joined for a message) holding each collection that is checked as a whole.
struct Sources {
    bands: String,
    enemies: String,
    objects: String,
    area_kinds: String,
}

/// Which file each record came from, for error messages.
struct Origin<'a> {
    file: &'a str,
}

impl Origin<'_> {
    fn entry(&self, kind: &'static str, entry: &str, message: impl Into<String>) -> Error {
        Error::Entry { file: self.file.to_string(), kind, entry: entry.to_string(), message: message.into() }
    }
}

fn need_text(o: &Origin, kind: &'static str, entry: &str, field: &str, text: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(o.entry(kind, entry, format!("has no `{field}`")));
    }
    Ok(())
}

/// "Bite (physical, Close)", comma-separated.
fn attack_names(attacks: &[AttackRecord]) -> String {
    attacks
        .iter()
        .map(|a| format!("{} ({}, {})", a.name, a.kind.label(), a.range.label()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Attacks present and named, tweaks within bounds, for a member or a Ruler.
fn check_fighter(
    o: &Origin,
    kind: &'static str,
    entry: &str,
    who: &str,
    attacks: &[AttackRecord],
    tweak: &StatTweak,
) -> Result<()> {
    if attacks.is_empty() {
        return Err(o.entry(kind, entry, format!("`{who}` has no `attacks`")));
    }
    for a in attacks {
        need_text(o, kind, entry, "attacks.name", &a.name)?;
        if a.accuracy.abs() > MAX_TWEAK || a.damage.abs() > MAX_TWEAK {
            return Err(o.entry(
                kind,
                entry,
                format!("attack `{}` of `{who}` shifts accuracy or damage beyond ±{MAX_TWEAK}", a.name),
            ));
        }
    }
    if let Some((field, v)) = tweak.out_of_range() {
        return Err(o.entry(kind, entry, format!("`{who}` has `tweak.{field}` {v}, beyond ±{MAX_TWEAK}")));
    }
    Ok(())
}

/// Skill effects may use `{rating}` (1 + CL / 5) and no other placeholder.
fn check_skill_placeholders(o: &Origin, entry: &str, text: &str) -> Result<()> {
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let word = rest[start..].find('}').map(|e| &rest[start..start + e + 1]);
        match word {
            Some("{rating}") => {}
            Some(w) => {
                return Err(o.entry("NW3 enemy skill", entry, format!("uses `{w}`; only `{{rating}}` may appear")));
            }
            None => return Err(o.entry("NW3 enemy skill", entry, "has a `{` without a closing `}`")),
        }
        rest = &rest[start + 1..];
    }
    Ok(())
}

fn check_placeholders(o: &Origin, kind: &'static str, text: &str) -> Result<()> {
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').map(|e| start + e + 1);
        let Some(end) = end else {
            return Err(o.entry(kind, text, "has a `{` without a closing `}`"));
        };
        let word = &rest[start..end];
        if !PLACEHOLDERS.contains(&word) {
            return Err(o.entry(kind, text, format!("uses `{word}`; only {} may appear", PLACEHOLDERS.join(", "))));
        }
        rest = &rest[end..];
    }
    Ok(())
}

/// The names seen so far in each collection, and the file that gave each, so that a name given
/// twice (in one file or across files) is refused naming both places.
#[derive(Default)]
struct SeenNames<'a>(BTreeMap<(&'static str, String), &'a str>);

impl<'a> SeenNames<'a> {
    fn add(&mut self, o: &Origin<'a>, kind: &'static str, name: &str) -> Result<()> {
        if let Some(first) = self.0.insert((kind, name.to_string()), o.file) {
            return Err(o.entry(kind, name, super::twice_message(first, o.file)));
        }
        Ok(())
    }
}

/// Checks one file's records on their own (names unique across files, texts present, numbers in
/// range), collection by collection in the file's order, so the first fault found is the first
/// one a reader meets.
fn check_file<'a>(o: &Origin<'a>, f: &Nw3File, names: &mut SeenNames<'a>) -> Result<()> {
    for b in &f.band {
        names.add(o, "NW3 band", &b.name)?;
        if b.low > b.high {
            return Err(o.entry("NW3 band", &b.name, format!("runs backwards ({}-{})", b.low, b.high)));
        }
    }
    for a in &f.area {
        names.add(o, "NW3 area", &a.name)?;
        need_text(o, "NW3 area", &a.name, "description", &a.description)?;
    }
    for k in &f.area_kind {
        names.add(o, "NW3 area kind", k.kind.label())?;
    }
    for c in &f.core {
        names.add(o, "NW3 core", &c.name)?;
        need_text(o, "NW3 core", &c.name, "description", &c.description)?;
    }
    for e in &f.event {
        names.add(o, "NW3 event", &e.name)?;
        check_event(o, e)?;
    }
    for t in &f.trap {
        names.add(o, "NW3 trap", &t.name)?;
        check_trap(o, t)?;
    }
    for e in &f.enemy {
        names.add(o, "NW3 enemy group", &e.name)?;
        check_enemy_group(o, e)?;
    }
    for k in &f.enemy_skill {
        names.add(o, "NW3 enemy skill", &k.name)?;
        need_text(o, "NW3 enemy skill", &k.name, "effect", &k.effect)?;
        check_skill_placeholders(o, &k.name, &k.effect)?;
    }
    for x in &f.object {
        names.add(o, "NW3 object", &x.name)?;
        need_text(o, "NW3 object", &x.name, "effect", &x.effect)?;
    }
    for r in &f.ruler {
        names.add(o, "NW3 ruler", &r.name)?;
        check_ruler(o, r)?;
    }
    for m in &f.motive {
        need_text(o, "NW3 motive", &m.text, "text", &m.text)?;
    }
    for l in &f.logic {
        names.add(o, "NW3 logic", &l.name)?;
        need_text(o, "NW3 logic", &l.name, "effect", &l.effect)?;
        // Its first sign is an Opening scene, filled as every episode text.
        let slots = crate::tables::slots::of(crate::tables::slots::NW3, "logic_sign");
        for (field, text) in l.signs.iter().flat_map(|x| [("sign title", &x.title), ("sign", &x.text)]) {
            need_text(o, "NW3 logic", &l.name, field, text)?;
            if let Some(why) = crate::text::unknown(text, slots) {
                return Err(o.entry("NW3 logic", &l.name, format!("`{field}` {why}")));
            }
        }
    }
    for e in &f.entrance {
        need_text(o, "NW3 entrance condition", &e.text, "text", &e.text)?;
        check_entrance(o, e)?;
    }
    for t in &f.town {
        need_text(o, "NW3 town", &t.text, "text", &t.text)?;
    }
    for (kind, texts) in [("NW3 title", &f.title), ("NW3 trailer", &f.trailer)] {
        for t in texts {
            need_text(o, kind, &t.text, "text", &t.text)?;
            check_placeholders(o, kind, &t.text)?;
        }
    }
    Ok(())
}

/// A keyword Entrance says `{keyword}` and an item Entrance `{item}` (the episode's, which a
/// scene or legwork gives the party); no other placeholder, and a cost asks for none.
fn check_entrance(o: &Origin, e: &EntranceRecord) -> Result<()> {
    const KIND: &str = "NW3 entrance condition";
    let own = match e.kind {
        EntranceKind::Keyword => Some("{keyword}"),
        EntranceKind::Item => Some("{item}"),
        EntranceKind::Cost => None,
    };
    if let Some(p) = own
        && !e.text.contains(p)
    {
        return Err(o.entry(KIND, &e.text, format!("asks for a {} but never says `{p}`", e.kind.label())));
    }
    let mut rest = e.text.as_str();
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').map_or(rest.len(), |x| start + x + 1);
        let word = &rest[start..end];
        if Some(word) != own {
            let allowed = own.map_or("none".to_string(), |p| format!("only `{p}`"));
            return Err(o.entry(KIND, &e.text, format!("uses `{word}`; {allowed} may appear")));
        }
        rest = &rest[end..];
    }
    Ok(())
}

/// The first clause of `text` that deals damage without saying its kind (physical or magical) and
/// whether defence applies (PDEF, MDEF or none), seed 000 l.719-727; `None` when every one does.
pub fn damage_without_kind(text: &str) -> Option<&str> {
    text.split([':', ';', '.']).map(str::trim).find(|clause| {
        clause.contains(" damage")
            && !((clause.contains("physical") || clause.contains("magical"))
                && (clause.contains("PDEF") || clause.contains("MDEF") || clause.contains("no defence")))
    })
}

fn check_event(o: &Origin, e: &EventRecord) -> Result<()> {
    need_text(o, "NW3 event", &e.name, "text", &e.text)?;
    need_text(o, "NW3 event", &e.name, "judge", &e.judge)?;
    for (field, text) in [("success", &e.success), ("reward", &e.reward), ("failure", &e.failure), ("retry", &e.retry)]
    {
        need_text(o, "NW3 event", &e.name, field, text)?;
        if let Some(line) = damage_without_kind(text) {
            return Err(o.entry(
                "NW3 event",
                &e.name,
                format!("says `{line}` without physical or magical and its defence"),
            ));
        }
    }
    Ok(())
}

/// A trap's offsets stay in the difficulty bands' reach, and its effect says `{damage}` exactly
/// when it rolls damage dice (else the booklet would print a number nobody rolled, or none).
fn check_trap(o: &Origin, t: &TrapRecord) -> Result<()> {
    need_text(o, "NW3 trap", &t.name, "effect", &t.effect)?;
    if let Some(line) = damage_without_kind(&t.effect) {
        return Err(o.entry("NW3 trap", &t.name, format!("says `{line}` without physical or magical and its defence")));
    }
    match (t.effect.contains("{damage}"), t.damage_dice) {
        (true, None) => Err(o.entry("NW3 trap", &t.name, "says `{damage}` but has no `damage_dice`")),
        (false, Some(_)) => Err(o.entry("NW3 trap", &t.name, "has `damage_dice` but its effect never says `{damage}`")),
        (_, Some(n)) if !(1..=MAX_DICE).contains(&n) => {
            Err(o.entry("NW3 trap", &t.name, format!("`damage_dice` must be 1 to {MAX_DICE}")))
        }
        _ => Ok(()),
    }
}

fn check_enemy_group(o: &Origin, e: &EnemyRecord) -> Result<()> {
    const KIND: &str = "NW3 enemy group";
    need_text(o, KIND, &e.name, "description", &e.description)?;
    if e.members.is_empty() {
        return Err(o.entry(KIND, &e.name, "has no members"));
    }
    for m in &e.members {
        need_text(o, KIND, &e.name, "members.name", &m.name)?;
        if m.spd > MAX_SPD {
            return Err(o.entry(KIND, &e.name, format!("member `{}` has SPD {}, above {MAX_SPD}", m.name, m.spd)));
        }
        if m.count == Headcount::Fixed(0) {
            return Err(o.entry(KIND, &e.name, format!("member `{}` has count 0", m.name)));
        }
        check_fighter(o, KIND, &e.name, &m.name, &m.attacks, &m.tweak)?;
    }
    Ok(())
}

fn check_ruler(o: &Origin, r: &RulerRecord) -> Result<()> {
    need_text(o, "NW3 ruler", &r.name, "title", &r.title)?;
    need_text(o, "NW3 ruler", &r.name, "description", &r.description)?;
    need_text(o, "NW3 ruler", &r.name, "encounter", &r.encounter)?;
    if r.spd > MAX_SPD {
        return Err(o.entry("NW3 ruler", &r.name, format!("SPD {} is above {MAX_SPD}", r.spd)));
    }
    check_fighter(o, "NW3 ruler", &r.name, &r.name, &r.attacks, &r.tweak)
}

impl Sources {
    /// Which files hold the records a whole-collection error is about, so it names them (none:
    /// the last file, where the missing records would go).
    fn of(files: &[(String, Nw3File)]) -> Sources {
        let last_file = files.last().map(|(p, _)| p.as_str()).unwrap_or_default();
        let holders = |has: &dyn Fn(&Nw3File) -> bool| -> String {
            let named: Vec<&str> = files.iter().filter(|(_, f)| has(f)).map(|(p, _)| p.as_str()).collect();
            if named.is_empty() { last_file.to_string() } else { named.join("`, `") }
        };
        Sources {
            bands: holders(&|f| !f.band.is_empty()),
            enemies: holders(&|f| !f.enemy.is_empty()),
            objects: holders(&|f| !f.object.is_empty()),
            area_kinds: holders(&|f| !f.area_kind.is_empty()),
        }
    }
}

impl Nw3Data {
    /// Merges and validates the `[nw3]` sections of the table files (path, section), in path
    /// order. No section at all is fine (a tables folder without NW3 content); once any NW3
    /// content is present, every collection the generator needs must be there. Without `validate`
    /// (the built-in tables, checked by this code when the binary was built) only merges.
    pub fn from_files(files: Vec<(String, Nw3File)>, validate: bool) -> Result<Nw3Data> {
        if !validate || files.is_empty() {
            return Ok(Nw3Data::merge(files));
        }
        let mut names = SeenNames::default();
        for (file, f) in &files {
            check_file(&Origin { file }, f, &mut names)?;
        }
        let sources = Sources::of(&files);
        let last_file = files.last().map(|(p, _)| p.clone()).unwrap_or_default();
        let d = Nw3Data::merge(files);
        d.validate_whole(&last_file, &sources)?;
        Ok(d)
    }

    /// All files' records, collection by collection, in path order.
    fn merge(files: Vec<(String, Nw3File)>) -> Nw3Data {
        let mut d = Nw3Data::default();
        for (_, f) in files {
            d.bands.extend(f.band);
            d.areas.extend(f.area);
            d.area_kinds.extend(f.area_kind);
            d.cores.extend(f.core);
            d.events.extend(f.event);
            d.traps.extend(f.trap);
            d.enemies.extend(f.enemy);
            d.enemy_skills.extend(f.enemy_skill);
            d.objects.extend(f.object);
            d.rulers.extend(f.ruler);
            d.motives.extend(f.motive);
            d.logics.extend(f.logic);
            d.entrances.extend(f.entrance);
            d.titles.extend(f.title);
            d.trailers.extend(f.trailer);
            d.towns.extend(f.town);
        }
        d
    }

    /// Checks across files: every collection present, bands covering every level once, an enemy
    /// group for every level, a release device and another object.
    fn validate_whole(&self, file: &str, sources: &Sources) -> Result<()> {
        let err = |message: String| Error::TableFile { file: file.to_string(), message };
        let err_in = |file: &str, message: String| Error::TableFile { file: file.to_string(), message };
        let counts = [
            ("[[nw3.band]]", self.bands.len(), 1),
            ("[[nw3.area]]", self.areas.len(), 1),
            ("[[nw3.area_kind]]", self.area_kinds.len(), 1),
            ("[[nw3.core]]", self.cores.len(), 1),
            ("[[nw3.event]]", self.events.len(), 1),
            ("[[nw3.trap]]", self.traps.len(), 1),
            ("[[nw3.enemy]]", self.enemies.len(), 1),
            ("[[nw3.object]]", self.objects.len(), 2),
            ("[[nw3.ruler]]", self.rulers.len(), 1),
            ("[[nw3.motive]]", self.motives.len(), 1),
            ("[[nw3.logic]]", self.logics.len(), 2),
            ("[[nw3.entrance]]", self.entrances.len(), 1),
            ("[[nw3.title]]", self.titles.len(), 1),
            ("[[nw3.trailer]]", self.trailers.len(), 1),
        ];
        for (what, n, min) in counts {
            if n < min {
                return Err(err(format!(
                    "NW3 tables need at least {min} {what} record{} (found {n})",
                    if min == 1 { "" } else { "s" }
                )));
            }
        }
        for cl in CL_MIN..=CL_MAX {
            let n = self.bands.iter().filter(|b| b.cl.contains(cl)).count();
            if n != 1 {
                return Err(err_in(
                    &sources.bands,
                    format!(
                        "character level {cl} is in {n} difficulty bands; every level {CL_MIN}-{CL_MAX} needs exactly one"
                    ),
                ));
            }
            if !self.enemies.iter().any(|e| e.cl.contains(cl)) {
                return Err(err_in(&sources.enemies, format!("no NW3 enemy group suits character level {cl}")));
            }
        }
        let skill_names = self.enemies.iter().flat_map(|e| e.members.iter().map(move |m| (&e.name, &m.skills)));
        let ruler_skills = self.rulers.iter().map(|r| (&r.name, &r.skills));
        for (who, skills) in skill_names.chain(ruler_skills) {
            if let Some(s) = skills.iter().find(|s| self.enemy_skill(s).is_none()) {
                return Err(err(format!("`{who}` names the enemy skill `{s}`, which no [[nw3.enemy_skill]] defines")));
            }
        }
        let members = self.enemies.iter().flat_map(|e| e.members.iter().map(|m| (&m.name, &m.attacks, &m.skills)));
        for (who, attacks, skills) in members.chain(self.rulers.iter().map(|r| (&r.name, &r.attacks, &r.skills))) {
            let named: Vec<(&str, &str)> = skills
                .iter()
                .filter_map(|s| self.enemy_skill(s))
                .map(|k| (k.name.as_str(), k.effect.as_str()))
                .collect();
            let kinds: Vec<_> = attacks.iter().map(|a| a.kind).collect();
            if let Some(why) = crate::tables::nw3_combat::skill_conflict(&named, &kinds) {
                return Err(err(format!("`{who}`'s skills do not fit it: {why}")));
            }
        }
        if !self.objects.iter().any(|o| o.release) {
            return Err(err_in(&sources.objects, "NW3 objects need a Gate Release Device (`release = true`)".into()));
        }
        if !self.objects.iter().any(|o| !o.release) {
            return Err(err_in(
                &sources.objects,
                "NW3 objects need at least one object that is not a release device".into(),
            ));
        }
        if self.area_kinds.iter().map(|k| k.weight).sum::<u32>() == 0 {
            return Err(err_in(&sources.area_kinds, "NW3 area kind weights are all 0".into()));
        }
        Ok(())
    }

    /// True when no NW3 content was loaded.
    pub fn is_empty(&self) -> bool {
        self.bands.is_empty() && self.areas.is_empty() && self.traps.is_empty() && self.rulers.is_empty()
    }

    /// The difficulty band for a character level.
    pub fn band(&self, cl: u32) -> Option<&Band> {
        self.bands.iter().find(|b| b.cl.contains(cl))
    }

    /// A trap's Detection or Removal Value, or an event's difficulty, for a character level:
    /// `clamp(base(cl) + offset, low, high)` on the level's band (see the module docs).
    pub fn value(&self, cl: u32, offset: i32) -> Option<u32> {
        let b = self.band(cl)?;
        let span = b.cl.last - b.cl.first;
        let base = b.low + ((cl - b.cl.first) * (b.high - b.low)).checked_div(span).unwrap_or(0);
        let v = (i64::from(base) + i64::from(offset)).clamp(i64::from(b.low), i64::from(b.high));
        u32::try_from(v).ok()
    }

    /// A trap's effect with `{damage}` filled in for a character level: `(damage_dice + cl / 5)D6`.
    pub fn trap_effect(trap: &TrapRecord, cl: u32) -> String {
        match trap.damage_dice {
            Some(d) => trap.effect.replace("{damage}", &format!("{}D6", d + cl / 5)),
            None => trap.effect.clone(),
        }
    }

    /// A record as plain text for `tables show NAME` (trap, event, enemy group, object, Ruler,
    /// Logic or Fortress Core), `None` when no NW3 record has that name.
    pub fn describe(&self, name: &str) -> Option<String> {
        use std::fmt::Write;
        let mut s = String::new();
        if let Some(t) = self.trap(name) {
            let _ =
                writeln!(s, "{} — NW3 trap, {} Detection, {} Removal", t.name, t.detection.label(), t.removal.label());
            let _ = writeln!(s, "values at CL 1 / 5 / 10 / 15 / 20:");
            for cl in [1, 5, 10, 15, 20] {
                let v = |h| crate::tables::judge::judge_difficulty(cl, h);
                let _ = writeln!(s, "  CL {cl:>2}: Detection {}, Removal {}", v(t.detection), v(t.removal));
            }
            let _ = writeln!(s, "{}", t.effect);
        } else if let Some(e) = self.event(name) {
            let _ = writeln!(s, "{} — NW3 event, cleared by a {} {} judge", e.name, e.hardness.label(), e.judge);
            let _ = writeln!(s, "{}", e.text);
            let _ = writeln!(s, "Success: {} (no gate: {})", e.success, e.reward);
            let _ = writeln!(s, "Failure: {}\nRetry: {}", e.failure, e.retry);
        } else if let Some(e) = self.enemy(name) {
            let _ = writeln!(s, "{} — NW3 enemy group for CL {}", e.name, e.cl);
            for m in &e.members {
                let count = match m.count {
                    Headcount::Fixed(n) => n.to_string(),
                    Headcount::Rule(HeadcountRule::Party) => "one per PC".into(),
                    Headcount::Rule(HeadcountRule::HalfParty) => "one per two PCs".into(),
                };
                let _ = writeln!(
                    s,
                    "  {} {}: {count}, SPD {}, initiative {} (Any Seven)",
                    m.rank.label(),
                    m.name,
                    m.spd,
                    m.spd + 7
                );
                let _ = writeln!(s, "    attacks: {}; skills: {}", attack_names(&m.attacks), m.skills.join(", "));
            }
            if e.ambush {
                let _ = writeln!(s, "Lies in ambush (Danger Sense: best Perception + 7).");
            }
            let _ = writeln!(s, "{}", e.description);
        } else if let Some(o) = self.object(name) {
            let what = if o.release { "NW3 object (Gate Release Device)" } else { "NW3 object" };
            let _ = writeln!(s, "{} — {what}", o.name);
            let _ = writeln!(s, "{}", o.effect);
        } else if let Some(r) = self.ruler(name) {
            let _ = writeln!(s, "{} — {}, SPD {}, initiative {} (Any Seven)", r.name, r.title, r.spd, r.spd + 7);
            let _ = writeln!(s, "{}", r.description);
            let _ = writeln!(s, "Encounter: {}", r.encounter);
            let _ =
                writeln!(s, "Fights as a Boss; attacks: {}; skills: {}", attack_names(&r.attacks), r.skills.join(", "));
        } else if let Some(k) = self.enemy_skill(name) {
            let _ = writeln!(s, "{} — NW3 enemy skill ({})", k.name, k.timing.label());
            let _ = writeln!(s, "{}", k.effect);
        } else if let Some(l) = self.logic(name) {
            let _ = writeln!(s, "{} — Lunar Casket Logic", l.name);
            let _ = writeln!(s, "{}", l.effect);
        } else if let Some(c) = self.core(name) {
            let _ = writeln!(s, "{} — Fortress Core", c.name);
            let _ = writeln!(s, "{}", c.description);
        } else {
            return None;
        }
        Some(s)
    }

    pub fn trap(&self, name: &str) -> Option<&TrapRecord> {
        self.traps.iter().find(|t| t.name == name)
    }
    pub fn event(&self, name: &str) -> Option<&EventRecord> {
        self.events.iter().find(|t| t.name == name)
    }
    pub fn enemy(&self, name: &str) -> Option<&EnemyRecord> {
        self.enemies.iter().find(|t| t.name == name)
    }
    pub fn enemy_skill(&self, name: &str) -> Option<&SkillRecord> {
        self.enemy_skills.iter().find(|t| t.name == name)
    }
    pub fn object(&self, name: &str) -> Option<&ObjectRecord> {
        self.objects.iter().find(|t| t.name == name)
    }
    pub fn ruler(&self, name: &str) -> Option<&RulerRecord> {
        self.rulers.iter().find(|t| t.name == name)
    }
    pub fn logic(&self, name: &str) -> Option<&LogicRecord> {
        self.logics.iter().find(|t| t.name == name)
    }
    pub fn core(&self, name: &str) -> Option<&CoreRecord> {
        self.cores.iter().find(|t| t.name == name)
    }
    pub fn location(&self, name: &str) -> Option<&Location> {
        self.areas.iter().find(|t| t.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::Tables;

    fn data() -> Nw3Data {
        Tables::embedded().expect("embedded tables load").nw3
    }

    #[test]
    fn the_embedded_content_is_as_rich_as_the_design_asks() {
        let d = data();
        assert!(d.areas.len() >= 20, "{} areas", d.areas.len());
        assert!(d.objects.len() >= 10, "{} objects", d.objects.len());
        assert!(d.traps.len() >= 20, "{} traps", d.traps.len());
        assert!(d.enemies.len() >= 15, "{} enemy groups", d.enemies.len());
        assert!(d.logics.len() >= 12, "{} logics", d.logics.len());
        assert!(d.rulers.len() >= 10 && d.motives.len() >= 10);
        assert!(d.entrances.len() >= 6 && d.trailers.len() >= 6 && d.titles.len() >= 6);
        assert!(d.object("Emulator Space").is_some());
        assert!(d.objects.iter().any(|o| o.release && o.name == "Gate Release Device"));
        let t = Tables::embedded().unwrap();
        let chart = t.roll_table(AREA_EVENT_TABLE).expect("area event chart");
        assert_eq!(chart.dice, crate::dice::DiceKind::TwoD6);
    }

    #[test]
    fn values_follow_the_bands_by_character_level() {
        let d = data();
        // offset 0: the band's base climbs through it
        let base: Vec<u32> = (1..=20).map(|cl| d.value(cl, 0).unwrap()).collect();
        assert_eq!(base, [10, 11, 12, 13, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28, 30]);
        // every value stays in its level's band whatever the offset
        for cl in 1..=20 {
            let b = d.band(cl).unwrap();
            for off in -5..=5 {
                let v = d.value(cl, off).unwrap();
                assert!((b.low..=b.high).contains(&v), "cl {cl} offset {off}: {v} outside {}", b.name);
            }
        }
        assert_eq!(d.band(2).unwrap().name, "ordinary");
        assert_eq!(d.band(5).unwrap().name, "challenging");
        assert_eq!(d.band(10).unwrap().name, "hard");
        assert_eq!(d.band(15).unwrap().name, "expert");
        assert_eq!(d.value(3, 2), Some(12));
        assert_eq!(d.value(21, 0), None);
    }

    #[test]
    fn records_describe_themselves_for_tables_show() {
        let d = data();
        let t = d.describe("Shutter Guillotine").unwrap();
        assert!(t.starts_with("Shutter Guillotine — NW3 trap"), "{t}");
        assert!(t.contains("CL  1: Detection 15, Removal 18"), "{t}");
        assert!(d.describe("Emulator Space").unwrap().contains("+3"));
        assert!(d.describe("Shadow Hounds").unwrap().contains("initiative 16"));
        assert!(d.describe("Law of Hunger").unwrap().contains("Lunar Casket Logic"));
        assert_eq!(d.describe("No Such Thing"), None);
    }

    #[test]
    fn trap_damage_scales_with_level() {
        let t = TrapRecord {
            name: "x".into(),
            detection: Hardness::Ordinary,
            removal: Hardness::Hard,
            damage_dice: Some(2),
            effect: "takes {damage} damage".into(),
        };
        assert_eq!(Nw3Data::trap_effect(&t, 3), "takes 2D6 damage");
        assert_eq!(Nw3Data::trap_effect(&t, 10), "takes 4D6 damage");
    }

    fn load(text: &str) -> Result<Tables> {
        Tables::from_files("test".into(), &[("nw3/t.toml".into(), text.into())])
    }

    #[test]
    fn a_duplicate_trap_names_its_file_and_entry() {
        let e = load(
            "[[nw3.trap]]\nname = \"Pit\"\ndetection = \"ordinary\"\nremoval = \"hard\"\neffect = \"falls\"\n\
             [[nw3.trap]]\nname = \"Pit\"\ndetection = \"ordinary\"\nremoval = \"hard\"\neffect = \"falls\"\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "`nw3/t.toml`: NW3 trap `Pit`: is defined twice in this file");
    }

    #[test]
    fn a_trap_defined_in_two_files_names_both() {
        let trap = "[[nw3.trap]]\nname = \"Pit\"\ndetection = \"ordinary\"\nremoval = \"hard\"\neffect = \"falls\"\n";
        let files = [("nw3/a.toml".to_string(), trap.to_string()), ("nw3/b.toml".to_string(), trap.to_string())];
        let e = Tables::from_files("test".into(), &files).unwrap_err().to_string();
        assert_eq!(e, "`nw3/b.toml`: NW3 trap `Pit`: is defined twice: first in `nw3/a.toml`");
    }

    #[test]
    fn a_damage_placeholder_needs_dice() {
        let e = load(
            "[[nw3.trap]]\nname = \"Pit\"\ndetection = \"ordinary\"\nremoval = \"ordinary\"\n\
             effect = \"takes {damage} physical damage, reduced by PDEF\"\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "`nw3/t.toml`: NW3 trap `Pit`: says `{damage}` but has no `damage_dice`");
    }

    #[test]
    fn a_damage_line_names_its_kind_and_defence() {
        let e = load(
            "[[nw3.trap]]\nname = \"Pit\"\ndetection = \"ordinary\"\nremoval = \"ordinary\"\n\
             damage_dice = 1\neffect = \"Flames: each PC takes {damage} fire damage.\"\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "`nw3/t.toml`: NW3 trap `Pit`: says `each PC takes {damage} fire damage` without physical or magical and its defence"
        );
        assert_eq!(damage_without_kind("takes 2D6 magical damage (Fire), reduced by MDEF."), None);
        assert_eq!(damage_without_kind("takes 2D6 physical damage that no defence reduces"), None);
    }

    #[test]
    fn an_unknown_placeholder_is_refused() {
        let e = load("[[nw3.title]]\ntext = \"The {moon}\"\n").unwrap_err().to_string();
        assert!(e.contains("`{moon}`"), "{e}");
    }

    #[test]
    fn incomplete_nw3_content_says_what_is_missing() {
        let e = load("[[nw3.band]]\nname = \"all\"\ncl = \"1-20\"\nlow = 10\nhigh = 30\n").unwrap_err().to_string();
        assert_eq!(e, "`nw3/t.toml`: NW3 tables need at least 1 [[nw3.area]] record (found 0)");
    }

    #[test]
    fn an_unknown_field_is_an_error() {
        let e = load("[[nw3.logic]]\nname = \"x\"\neffect = \"y\"\nefect = \"z\"\n").unwrap_err().to_string();
        assert!(e.contains("efect"), "{e}");
    }

    /// The embedded tables with one file's text changed.
    fn embedded_with(path: &str, edit: impl Fn(&str) -> String) -> Result<Tables> {
        let files: Vec<(String, String)> = crate::tables::EMBEDDED_TABLES
            .iter()
            .map(|(p, t)| (p.to_string(), if *p == path { edit(t) } else { t.to_string() }))
            .collect();
        Tables::from_files("test".into(), &files)
    }

    #[test]
    fn an_enemy_needs_attacks_and_known_skills_and_small_tweaks() {
        let no_attacks = embedded_with("nw3/enemies.toml", |t| {
            t.replacen(
                "attacks = [ { name = \"Bite\", kind = \"physical\", range = \"close\", target = \"single\" } ]",
                "attacks = []",
                1,
            )
        });
        let e = no_attacks.unwrap_err().to_string();
        assert!(e.contains("Moon-Struck Strays") && e.contains("`Stray Dog Mob` has no `attacks`"), "{e}");
        let e = embedded_with("nw3/enemies.toml", |t| t.replacen("\"Pack Hunter\"]", "\"Pack Hunterr\"]", 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`Pack Hunterr`"), "{e}");
        let e = embedded_with("nw3/enemies.toml", |t| {
            t.replacen("tweak = { perception = 2 }", "tweak = { perception = 9 }", 1)
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("`tweak.perception` 9"), "{e}");
        let e = embedded_with("nw3/enemies.toml", |t| t.replacen("range = \"close\"", "range = \"melee\"", 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("melee"), "{e}");
    }

    #[test]
    fn a_keyword_entrance_must_say_the_episodes_keyword() {
        let e =
            load("[[nw3.entrance]]\nkind = \"keyword\"\ntext = \"Speak the name it had.\"\n").unwrap_err().to_string();
        assert!(e.contains("never says `{keyword}`"), "{e}");
        let e = load("[[nw3.entrance]]\nkind = \"cost\"\ntext = \"Give up the {item}.\"\n").unwrap_err().to_string();
        assert!(e.contains("uses `{item}`; none may appear"), "{e}");
    }

    #[test]
    fn a_bad_level_range_is_refused() {
        let e = load("[[nw3.band]]\nname = \"b\"\ncl = \"7-4\"\nlow = 1\nhigh = 2\n").unwrap_err().to_string();
        assert!(e.contains("7-4"), "{e}");
    }
}
