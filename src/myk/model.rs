//! The MYK scenario: the JSON contract between generate, check and render.
//!
//! Field names are stable (other tools read them). Every struct denies unknown fields, so a typo in a
//! hand-edited scenario is an error naming the field instead of a silently ignored edit.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Text composed for one scenario (place names, a name taken from an example list, a damage
/// expression): kept inline up to 24 bytes, where nearly every such text fits, so it costs no
/// allocation; `&str` through `Deref`, and it reads and writes in JSON exactly as a `String`.
pub use compact_str::CompactString as ShortStr;

use crate::tables::myk::{Activation, Installation, Placement, TrapCategory};
use crate::tables::shared::{SharedList, SharedStr};

/// A room of a map sheet: rows A-C top to bottom, columns 1-3 left to right; B2 is the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomId(u8);

impl RoomId {
    /// All nine rooms in sheet order A1, A2, A3, B1, ... C3.
    pub const ALL: [RoomId; 9] =
        [RoomId(0), RoomId(1), RoomId(2), RoomId(3), RoomId(4), RoomId(5), RoomId(6), RoomId(7), RoomId(8)];

    /// The room at row 0-2 (A-C), column 0-2 (1-3).
    pub fn at(row: u8, col: u8) -> Option<RoomId> {
        (row < 3 && col < 3).then_some(RoomId(row * 3 + col))
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// "A1".."C3" without allocating.
    pub fn name(self) -> &'static str {
        ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"][self.index()]
    }
    pub fn row(self) -> u8 {
        self.0 / 3
    }
    pub fn col(self) -> u8 {
        self.0 % 3
    }

    /// Rooms sharing a wall (orthogonal neighbours), in sheet order.
    pub fn neighbours(self) -> impl Iterator<Item = RoomId> {
        let (r, c) = (self.row() as i8, self.col() as i8);
        [(-1, 0), (0, -1), (0, 1), (1, 0)].into_iter().filter_map(move |(dr, dc)| {
            let (nr, nc) = (r + dr, c + dc);
            (0..3).contains(&nr).then_some(())?;
            (0..3).contains(&nc).then_some(())?;
            RoomId::at(nr as u8, nc as u8)
        })
    }

    pub fn is_adjacent(self, other: RoomId) -> bool {
        self.neighbours().any(|n| n == other)
    }

    /// The room's walls on the sheet's edge (where entrances may be).
    pub fn exterior_walls(self) -> impl Iterator<Item = Wall> {
        let (r, c) = (self.row(), self.col());
        [(Wall::North, r == 0), (Wall::West, c == 0), (Wall::East, c == 2), (Wall::South, r == 2)]
            .into_iter()
            .filter_map(|(w, ok)| ok.then_some(w))
    }
}

impl fmt::Display for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RoomId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'A'..=b'C').contains(&b[0]) && (b'1'..=b'3').contains(&b[1]) {
            Ok(RoomId((b[0] - b'A') * 3 + (b[1] - b'1')))
        } else {
            Err(format!("`{s}` is not a room (A1..C3)"))
        }
    }
}

impl Serialize for RoomId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RoomId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// A wall of a room, for entrances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wall {
    North,
    West,
    East,
    South,
}

impl Wall {
    pub fn label(self) -> &'static str {
        match self {
            Wall::North => "north",
            Wall::West => "west",
            Wall::East => "east",
            Wall::South => "south",
        }
    }
}

/// A corridor's two rooms, written "A1-A2" (lower room first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CorridorId(pub RoomId, pub RoomId);

impl CorridorId {
    pub fn new(a: RoomId, b: RoomId) -> CorridorId {
        if a <= b { CorridorId(a, b) } else { CorridorId(b, a) }
    }
    pub fn touches(self, r: RoomId) -> bool {
        self.0 == r || self.1 == r
    }
    pub fn other(self, r: RoomId) -> RoomId {
        if self.0 == r { self.1 } else { self.0 }
    }
}

impl fmt::Display for CorridorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

impl FromStr for CorridorId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (a, b) = s.split_once('-').ok_or_else(|| format!("`{s}` is not a corridor like A1-A2"))?;
        Ok(CorridorId::new(a.parse()?, b.parse()?))
    }
}

impl Serialize for CorridorId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CorridorId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// A one-way direction "A1>A2": travel only from the first room to the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction {
    pub from: RoomId,
    pub to: RoomId,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}>{}", self.from, self.to)
    }
}

impl Serialize for Direction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Direction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let (a, b) = s.split_once('>').ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not like A1>A2")))?;
        Ok(Direction {
            from: a.parse().map_err(serde::de::Error::custom)?,
            to: b.parse().map_err(serde::de::Error::custom)?,
        })
    }
}

/// A room on a given map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub map: u32,
    pub room: RoomId,
}

/// How monsters greet the court; it sets the room's total-level limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    Hostile,
    Neutral,
    Friendly,
}

impl Reaction {
    pub fn label(self) -> &'static str {
        match self {
            Reaction::Hostile => "hostile",
            Reaction::Neutral => "neutral",
            Reaction::Friendly => "friendly",
        }
    }
}

/// How a clue is learned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClueMethod {
    /// A successful search check in the room (difficulty court size + 7).
    Search,
    /// Defeating or driving off the room's threat.
    Threat,
    /// Talking to someone in the room.
    Conversation,
    /// Solving the room's puzzle.
    Puzzle,
}

impl ClueMethod {
    pub fn label(self) -> &'static str {
        match self {
            ClueMethod::Search => "search",
            ClueMethod::Threat => "eliminating the threat",
            ClueMethod::Conversation => "conversation",
            ClueMethod::Puzzle => "puzzle",
        }
    }
}

/// Layout styles of the corridors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    Straight,
    Junction,
    Mixed,
}

impl Layout {
    pub fn label(self) -> &'static str {
        match self {
            Layout::Straight => "straight",
            Layout::Junction => "junction",
            Layout::Mixed => "mixed",
        }
    }
}

/// The whole scenario document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub system: SharedStr,
    /// The file format version ([`crate::model::FILE_FORMAT`] when written by this program).
    pub format: u32,
    pub seed: u64,
    pub generator: GeneratorInfo,
    pub params: Params,
    pub court: Court,
    pub title: String,
    /// What the court sets out to do, as data: its kind and what it names (format 3; a format-2
    /// file's text reads as the defeat kind).
    pub objective: Objective,
    /// The hook, with placeholders `{ruler}`, `{map}` and `{npc}` filled at render time from the
    /// scenario as it stands, so renaming or removing what they name never leaves the text stale.
    pub introduction: SharedStr,
    /// Success and failure, with the same placeholders as `introduction`.
    pub resolution: String,
    pub cast: Vec<Npc>,
    pub clues: Vec<Clue>,
    /// Prologue, stakes, the ruler's part, mini events, Scenario Movement and Epilogue (absent in
    /// files made before format 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub story: Option<Story>,
    pub maps: Vec<Map>,
    /// The random encounter table for the court's level, resolved for its size (for play).
    pub encounters: EncounterTable,
    pub limits: Limits,
    pub usage: Usage,
    /// Notes for the GM, e.g. options outside the book's range.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Kept as it is when the rest is rolled anew (`--from`): title, objective, hooks, cast, clues.
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub frame_locked: bool,
    /// Every reroll made since generation, in order (replayed after generating from the seed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolls: Vec<crate::model::Reroll>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorInfo {
    pub name: SharedStr,
    pub version: SharedStr,
    pub tables: SharedStr,
}

/// The options the scenario was generated with (enough to regenerate it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Params {
    pub court_size: u32,
    pub levels: Vec<u32>,
    pub maps: u32,
    pub rooms: u32,
    pub layout: Layout,
    /// The paper the sheets were made for; `render` keeps it (files without it are A4).
    #[serde(default)]
    pub paper: crate::model::Paper,
    /// The objective kind asked for with `--objective` (absent: rolled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<ObjectiveKind>,
    /// The players' kingdom as `--kingdom` named it (absent: "your kingdom").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kingdom: Option<String>,
    /// Each member's class as `--classes` gave them (absent: not given).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<Class>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Court {
    pub size: u32,
    pub levels: Vec<u32>,
    /// Total / size, rounded down.
    pub average_level: u32,
    pub total_level: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Npc {
    pub name: ShortStr,
    pub role: SharedStr,
    pub age: SharedStr,
    pub sex: SharedStr,
    pub traits: Vec<SharedStr>,
    /// A simple personality from the story pools (its meaning is in the booklet's glossary).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub personality: String,
    /// Where the NPC is: a room of a map; absent for one who stays in the kingdom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
    /// What the NPC wants.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub wants: String,
    /// A line the NPC says, in the voice of the personality.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub line: String,
    /// An NPC who fights: Important-NPC level and stats (level at most the court's average).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fights: Option<NpcStats>,
}

/// A member of the cast, by its place in the scenario's `cast` list counted from 1 (as a GM
/// counts them in the JSON, and as [`Adjustment::member`] counts the court). Texts name an NPC
/// through it, so a name edited in the cast is the name every text prints (format 7; older
/// files named the NPC, and their upgrade turns each name into its place).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CastRef(pub u32);

impl CastRef {
    /// The reference to `cast[index]`.
    pub fn at(index: usize) -> CastRef {
        CastRef(u32::try_from(index + 1).unwrap_or(u32::MAX))
    }

    /// The index into `cast` (None for 0, which names nobody).
    pub fn index(self) -> Option<usize> {
        (self.0 as usize).checked_sub(1)
    }
}

/// An Important NPC's numbers (seed 003 l.2973): a level no higher than the court's average,
/// fighting with the stat line of a bestiary monster of that level or lower.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcStats {
    pub level: u32,
    /// The bestiary monster whose stat line the NPC uses.
    pub as_monster: SharedStr,
    pub stats: RulerStats,
}

/// The kinds of objective: plain data the story tables are keyed by, defined with them.
pub use crate::tables::objective::ObjectiveKind;

/// The objective as data: its kind, the text the GM states (placeholders filled when rendered),
/// and what it names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    pub kind: ObjectiveKind,
    /// The objective's text with its placeholders (`{target}`, `{target_at}`, ...); empty in a
    /// file upgraded from format 2, which reads as the defeat text of old.
    #[serde(default)]
    pub text: String,
    /// The room where the target is (the ruler's, the captive's, the item's, the cause's...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Place>,
    /// What the objective is about: the item, the monster or ruler, the cause, the rival
    /// kingdom; empty for a rescue, whose target is its captive (`npc`), named from the cast
    /// ([`Scenario::objective_target`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub target: String,
    /// The item the objective is about (acquire, deliver), from the item tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// The cast NPC the objective is about (the captive, the one escorted, the rival's leader).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<CastRef>,
    /// The rival kingdom (race).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rival_kingdom: Option<String>,
    /// Race: the Quarter at whose end the rival's court reaches the objective's room (format 4;
    /// absent in older files, where [`crate::myk::goal::arrival`] derives it from the map).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u32>,
}

impl Objective {
    /// The objective of a file that predates kinds: defeat the last map's ruler.
    pub fn legacy() -> Objective {
        Objective {
            kind: ObjectiveKind::Defeat,
            text: String::new(),
            at: None,
            target: String::new(),
            item: None,
            npc: None,
            rival_kingdom: None,
            arrives: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clue {
    pub text: String,
    pub at: Place,
    pub method: ClueMethod,
    /// How it is learned, e.g. "search check, difficulty 11".
    pub how: String,
    /// A Search clue's difficulty as a number (court size + 7, seed 003 l.1925), so no wording of
    /// `how` can hide another value; the booklet words it from this. None for the other methods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<u32>,
    /// What the clue tells about: the court finds it without passing this room or corridor.
    pub reveals: Reveals,
    /// What the court finds or is told, written out (the search's find, the threat's leavings,
    /// the NPC's answer).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub found: String,
    /// Conversation: the cast NPC who tells it, what to ask and the condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<CastRef>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ask: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub condition: String,
    /// Puzzle: the whole puzzle, its answer and hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<PuzzleText>,
}

/// A puzzle as the GM reads it, with its answer and one or two hints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleText {
    pub text: String,
    pub answer: String,
    pub hints: Vec<String>,
}

/// What a clue reveals: a room (`{"map": 1, "room": "B1"}`) or a corridor
/// (`{"map": 1, "corridor": "A1-B1"}`) of a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RevealsFields", into = "RevealsFields")]
pub enum Reveals {
    Room(Place),
    Corridor { map: u32, corridor: CorridorId },
}

impl Reveals {
    pub fn map(self) -> u32 {
        match self {
            Reveals::Room(p) => p.map,
            Reveals::Corridor { map, .. } => map,
        }
    }
}

impl fmt::Display for Reveals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reveals::Room(p) => write!(f, "map {} room {}", p.map, p.room),
            Reveals::Corridor { map, corridor } => write!(f, "map {map} corridor {corridor}"),
        }
    }
}

/// The JSON shape of [`Reveals`]: a map and exactly one of a room or a corridor.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RevealsFields {
    map: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    room: Option<RoomId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    corridor: Option<CorridorId>,
}

impl TryFrom<RevealsFields> for Reveals {
    type Error = String;
    fn try_from(f: RevealsFields) -> Result<Self, Self::Error> {
        match (f.room, f.corridor) {
            (Some(room), None) => Ok(Reveals::Room(Place { map: f.map, room })),
            (None, Some(corridor)) => Ok(Reveals::Corridor { map: f.map, corridor }),
            _ => Err("`reveals` names either a `room` or a `corridor` (exactly one)".into()),
        }
    }
}

impl From<Reveals> for RevealsFields {
    fn from(r: Reveals) -> Self {
        match r {
            Reveals::Room(p) => RevealsFields { map: p.map, room: Some(p.room), corridor: None },
            Reveals::Corridor { map, corridor } => RevealsFields { map, room: None, corridor: Some(corridor) },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    pub index: u32,
    pub name: ShortStr,
    /// Always nine rooms, A1..C3 in order.
    pub rooms: Vec<Room>,
    pub corridors: Vec<Corridor>,
    pub entrances: Vec<Entrance>,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Kept exactly when the rest is rolled anew (`--from`).
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub locked: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Room {
    pub id: RoomId,
    pub used: bool,
    #[serde(default)]
    pub name: ShortStr,
    #[serde(default)]
    pub environment: SharedStr,
    #[serde(default)]
    pub traps: Vec<PlacedTrap>,
    #[serde(default)]
    pub bases: Vec<PlacedBase>,
    #[serde(default)]
    pub monsters: Vec<MonsterGroup>,
    #[serde(default)]
    pub ruler: Option<Ruler>,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Kept exactly when the rest is rolled anew (`--from`).
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub locked: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedTrap {
    pub name: SharedStr,
    /// `category` to `disarm` come from the trap's record by name: a hand-written trap may leave
    /// them out for `fix` to fill in.
    #[serde(default = "unfixed_category")]
    pub category: TrapCategory,
    /// The level counted against the limits (a Room trap turned into an Event trap is +3).
    #[serde(default)]
    pub level: u32,
    #[serde(default = "unfixed_placement")]
    pub placement: Placement,
    #[serde(default = "unfixed_activation")]
    pub activation: Activation,
    #[serde(default)]
    pub disarm: SharedStr,
    /// The object an Event trap sits on.
    #[serde(default)]
    pub object: Option<SharedStr>,
    /// True when a Room trap was turned into an Event trap (+3 level).
    #[serde(default)]
    pub converted: bool,
    /// The corridor a room trap affects (Secret Door).
    #[serde(default)]
    pub corridor: Option<CorridorId>,
    /// Where a trap that moves the court sends it (Teleporter, Illusion Road).
    #[serde(default)]
    pub destination: Option<Place>,
    #[serde(default)]
    pub summary: SharedStr,
    /// The effect with the choice made that the book leaves to the GM on placing the trap (its
    /// record's `chosen`, e.g. which two rooms trade places): printed instead of `summary`. The
    /// generator's choice, like `destination`, so `fix` keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<SharedStr>,
    /// The monsters a Gate Keeper brings out (monsters the scenario describes elsewhere).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub monsters: Vec<MonsterGroup>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedBase {
    pub name: SharedStr,
    /// `level` and `installation` come from the base's record (`fix` fills them in).
    #[serde(default)]
    pub level: u32,
    #[serde(default = "unfixed_installation")]
    pub installation: Installation,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterGroup {
    pub name: SharedStr,
    /// From the bestiary by name (`fix` fills it in).
    #[serde(default)]
    pub level: u32,
    /// The level counted against the limits (equipment and relationships raise it; `fix`).
    #[serde(default)]
    pub effective_level: u32,
    pub count: u32,
    pub reaction: Reaction,
    /// Common items each monster of the group carries (+1 effective level each).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub common_items: u32,
    /// Rare items each monster carries (+3 effective levels each).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rare_items: u32,
    /// Relationship points (Affection and Hostility) each monster holds (+1 level per 2 points).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub relationship: u32,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

/// Stand-ins for record data a hand-written trap or base leaves out; `fix` replaces them from the
/// tables by name (and `check` reports them when `fix` has not run).
fn unfixed_category() -> TrapCategory {
    TrapCategory::Classic
}
fn unfixed_placement() -> Placement {
    Placement::Room
}
fn unfixed_activation() -> Activation {
    Activation::Passage
}
fn unfixed_installation() -> Installation {
    Installation::Room
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl MonsterGroup {
    /// A group of `count` monsters of `level` with no items or relationships.
    pub fn plain(name: impl Into<SharedStr>, level: u32, count: u32, reaction: Reaction) -> MonsterGroup {
        MonsterGroup {
            name: name.into(),
            level,
            effective_level: level,
            count,
            reaction,
            common_items: 0,
            rare_items: 0,
            relationship: 0,
            notes: String::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruler {
    pub name: SharedStr,
    /// From the bestiary by name (`fix` fills it in).
    #[serde(default)]
    pub level: u32,
    /// Level plus every adjustment: what the A + 7 limit sees (`fix`).
    #[serde(default)]
    pub effective_level: u32,
    #[serde(default)]
    pub adjustments: Vec<Adjustment>,
    /// The final stat line: the bestiary's stats with every increase applied (and Celestial Body's
    /// halved HP). Absent in older files; `render` fills it in and `check` verifies it when present.
    #[serde(default)]
    pub stats: Option<RulerStats>,
}

/// A ruler's stats as printed for play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulerStats {
    pub warfare: u32,
    pub range: u32,
    pub damage: ShortStr,
    pub defense: u32,
    pub hp: u32,
}

/// One change to a ruler's effective level: a stat increase, a ruler skill or a weak point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjustment {
    pub kind: AdjustmentKind,
    /// The skill or weak point name, or the stat ("warfare", "range", "damage", "defense", "hp").
    pub what: SharedStr,
    /// How many steps of a stat increase (1 for skills and weak points).
    #[serde(default = "one")]
    pub times: u32,
    /// Levels added (negative for weak points; `fix` fills it in from the tables).
    #[serde(default)]
    pub levels: i32,
    /// Karma: the court member (1-based, in the order of `court.levels`) tied to the ruler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<u32>,
    /// Relationship: the cast NPC the ruler is bound to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub npc: Option<CastRef>,
    /// Poison, Anathema: results of the Weakness Table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weaknesses: Vec<SharedStr>,
    /// Sealed: the ruler's own skills it cannot use.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sealed: Vec<SharedStr>,
    /// Split Core: the monsters on the ruler's map that hold its cores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cores: Vec<CoreHolder>,
    /// Memory Core, Soul Core: the room of the ruler's map where the core lies hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_in: Option<RoomId>,
}

impl Adjustment {
    /// An adjustment with no weak-point details.
    pub fn new(kind: AdjustmentKind, what: impl Into<SharedStr>, times: u32, levels: i32) -> Adjustment {
        Adjustment {
            kind,
            what: what.into(),
            times,
            levels,
            member: None,
            npc: None,
            weaknesses: Vec::new(),
            sealed: Vec::new(),
            cores: Vec::new(),
            hidden_in: None,
        }
    }
}

/// Monsters of one group in a room of the ruler's map that each hold one of a Split Core's cores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreHolder {
    pub room: RoomId,
    pub monster: SharedStr,
    pub count: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentKind {
    Increase,
    Skill,
    WeakPoint,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corridor {
    pub a: RoomId,
    pub b: RoomId,
    #[serde(default)]
    pub trap: Option<PlacedTrap>,
    /// Set by a Moving Floor: travel only this way.
    #[serde(default)]
    pub one_way: Option<Direction>,
}

impl Corridor {
    pub fn id(&self) -> CorridorId {
        CorridorId::new(self.a, self.b)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrance {
    pub room: RoomId,
    pub wall: Wall,
    /// The entrance on another map it joins; `null` for the way in from outside.
    #[serde(default)]
    pub to: Option<Place>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterTable {
    /// The book's table used (court average level 1-6; higher courts use level 6).
    pub level: u32,
    /// The rows, shared with the tables (every scenario for a court of this level and size has
    /// the same); a list of rows in JSON, and an edit through `DerefMut` copies them first.
    pub rows: SharedList<EncounterRow>,
}

/// An encounter row and group as the scenario holds them: defined beside the tables, which keep
/// each table resolved for a court ([`crate::tables::Tables::encounter_rows`]).
pub use crate::tables::encounters::{ResolvedGroup as EncounterGroup, ResolvedRow as EncounterRow};

/// Every threat-placement limit for this court (from the formulas; see `limits.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    pub traps_number: u32,
    pub traps_total_level: u32,
    pub traps_per_corridor: u32,
    pub bases_total_level: u32,
    pub rooms_with_monsters: u32,
    pub monster_level: u32,
    pub room_total_neutral: u32,
    pub room_total_hostile: u32,
    pub room_total_friendly: u32,
    pub ruler_level: u32,
    pub ruler_room_others: u32,
    pub ruler_room_total: u32,
    pub search_difficulty: u32,
}

/// What the scenario uses of the scenario-wide limits (and the busiest map and room); the
/// default is nothing used.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    pub traps_number: u32,
    pub traps_total_level: u32,
    pub bases_total_level: u32,
    pub most_rooms_with_monsters: u32,
    pub highest_monster_level: u32,
    pub highest_room_total: u32,
    pub highest_ruler_level: u32,
}

impl Scenario {
    /// The last map (the objective's map) and its ruler with the ruler's room, if it has one.
    pub fn last_ruler(&self) -> Option<(&Map, Option<(&Room, &Ruler)>)> {
        let last = self.maps.last()?;
        Some((last, last.rooms.iter().find_map(|r| r.ruler.as_ref().map(|ru| (r, ru)))))
    }

    /// The room of the objective's target: the objective's own `at`, or for a file that predates
    /// objective kinds the last map's ruler, if it has one.
    pub fn objective_room(&self) -> Option<Place> {
        if let Some(at) = self.objective.at {
            return Some(at);
        }
        match self.last_ruler()? {
            (m, Some((room, _))) => Some(Place { map: m.index, room: room.id }),
            _ => None,
        }
    }

    pub fn map(&self, index: u32) -> Option<&Map> {
        self.maps.iter().find(|m| m.index == index)
    }

    /// The cast member `r` names, if it is in the cast.
    pub fn cast_member(&self, r: CastRef) -> Option<&Npc> {
        self.cast.get(r.index()?)
    }

    /// The name of the cast member `r` names (None when there is none, or it is not in the cast).
    pub fn npc_name(&self, r: Option<CastRef>) -> Option<&str> {
        r.and_then(|r| self.cast_member(r)).map(|n| n.name.as_str())
    }

    /// The first cast member named `name`.
    pub fn cast_ref(&self, name: &str) -> Option<CastRef> {
        self.cast.iter().position(|c| c.name == name).map(CastRef::at)
    }

    /// What the objective is about, by name as it stands: the captive's name for a rescue (the
    /// cast's, so an edited name follows), else the stored target.
    pub fn objective_target(&self) -> &str {
        match (self.objective.kind, self.npc_name(self.objective.npc)) {
            (ObjectiveKind::Rescue, Some(name)) => name,
            _ => &self.objective.target,
        }
    }
}

impl Map {
    pub fn room(&self, id: RoomId) -> &Room {
        &self.rooms[id.index()]
    }
    pub fn used_rooms(&self) -> impl Iterator<Item = &Room> {
        self.rooms.iter().filter(|r| r.used)
    }
}

impl Room {
    pub fn empty(id: RoomId) -> Room {
        Room {
            id,
            used: false,
            name: ShortStr::default(),
            environment: SharedStr::default(),
            traps: Vec::new(),
            bases: Vec::new(),
            monsters: Vec::new(),
            ruler: None,
            notes: String::new(),
            locked: false,
        }
    }

    pub fn has_monsters(&self) -> bool {
        !self.monsters.is_empty() || self.ruler.is_some()
    }
}

/// A class of the court (seed 003 l.394-430).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    King,
    Knight,
    Vizier,
    Oracle,
    Ninja,
    Servant,
}

impl Class {
    pub const ALL: [Class; 6] =
        [Class::King, Class::Knight, Class::Vizier, Class::Oracle, Class::Ninja, Class::Servant];

    /// The option's spelling: `king`.
    pub fn name(self) -> &'static str {
        match self {
            Class::King => "king",
            Class::Knight => "knight",
            Class::Vizier => "vizier",
            Class::Oracle => "oracle",
            Class::Ninja => "ninja",
            Class::Servant => "servant",
        }
    }

    /// The book's spelling: `King`.
    pub fn title(self) -> &'static str {
        match self {
            Class::King => "King",
            Class::Knight => "Knight",
            Class::Vizier => "Vizier",
            Class::Oracle => "Oracle",
            Class::Ninja => "Ninja",
            Class::Servant => "Servant",
        }
    }
}

impl FromStr for Class {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Class, String> {
        let t = s.trim();
        Class::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(t)).ok_or_else(|| {
            format!(
                "`{}` is not a class of the book; use one of: king, knight, vizier, oracle, ninja, servant",
                crate::error::cut(t)
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_ids_read_and_print_as_on_the_sheet() {
        let names: Vec<String> = RoomId::ALL.iter().map(|r| r.to_string()).collect();
        assert_eq!(names, ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]);
        assert_eq!("B2".parse::<RoomId>().unwrap(), RoomId::at(1, 1).unwrap());
        assert!("D1".parse::<RoomId>().is_err() && "A4".parse::<RoomId>().is_err());
    }

    #[test]
    fn corridors_join_orthogonal_neighbours_only() {
        let b2: RoomId = "B2".parse().unwrap();
        let n: Vec<String> = b2.neighbours().map(|r| r.to_string()).collect();
        assert_eq!(n, ["A2", "B1", "B3", "C2"]);
        let a1: RoomId = "A1".parse().unwrap();
        assert!(!a1.is_adjacent(b2));
        let possible: usize = RoomId::ALL.iter().map(|r| r.neighbours().filter(|n| n > r).count()).sum();
        assert_eq!(possible, 12, "a 3x3 sheet has 12 possible corridors");
        let walls: usize = RoomId::ALL.iter().map(|r| r.exterior_walls().count()).sum();
        assert_eq!(walls, 12, "a 3x3 sheet has 12 exterior walls");
        assert!(b2.exterior_walls().next().is_none());
    }

    #[test]
    fn a_corridor_id_is_written_lower_room_first() {
        let c: CorridorId = "B2-A2".parse().unwrap();
        assert_eq!(c.to_string(), "A2-B2");
    }
}

// The story's parts are data of the scenario (the generator in `myk::story` writes them).

/// Everything of the scenario's story that is not the objective, cast or clues.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Story {
    /// The court's kingdom.
    pub kingdom: String,
    pub prologue: Prologue,
    /// Why each court member cares, one each, in court order.
    pub stakes: Vec<Stake>,
    /// The objective map's ruler (or the threat standing in for one): personality, motive, line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruler: Option<RulerPart>,
    /// At least one per map, none a threat.
    pub mini_events: Vec<MiniEvent>,
    /// Scenario Movement: at most one action per Quarter, from the first Quarter the court can
    /// reach the actor's map to the last the longest route needs (`crate::myk::movement`).
    pub movement: Vec<Quarter>,
    pub epilogue: Epilogue,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prologue {
    /// "appeal", "scout" or "wanderer" (The Appeal, The Scout, The Wanderer).
    pub form: String,
    pub who: String,
    pub problem: String,
    pub offer: String,
    /// Written before the Prologue's people were the cast's (a file of format 5 or older, set by
    /// its upgrade): its speaker is kept as the GM saved it, and `check` does not ask for one of
    /// the cast.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_cast: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stake {
    pub member: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulerPart {
    pub name: String,
    pub personality: String,
    pub motive: String,
    pub line: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MiniEvent {
    pub at: Place,
    pub kind: String,
    pub title: String,
    pub text: String,
    pub outcome: String,
    /// A shop's wares: named items at the item tables' Cost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wares: Vec<Ware>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ware {
    pub item: String,
    /// The item's Cost in MG.
    pub cost: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quarter {
    pub quarter: u32,
    pub action: String,
    pub text: String,
    /// The check that prevents the action (empty: nothing to prevent, as a scene).
    pub prevent: String,
    /// Who acts (the one NPC or group the plan gives the Movement to; absent in older files).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub who: String,
    /// Where the actor stands once the action is done (a move's room of arrival).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Place>,
    /// A move's room of departure; the move runs along the corridor between it and `at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Place>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Epilogue {
    pub success: String,
    pub failure: String,
    /// The Reward: named items and materials.
    pub reward: Vec<String>,
    /// A Change in Circumstances.
    pub change: String,
    pub farewell: String,
    /// Whether and how the court may retry.
    pub retry: String,
}
