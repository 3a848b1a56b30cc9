//! The Fortress scenario: the JSON contract between generate, check and render.
//!
//! Field names are stable (tests and other tools read them); every struct denies unknown fields,
//! so a typo in a hand-edited file is an error naming the field. Areas and gates are referred to
//! by area id; a gate is named "gate FROM-TO" in messages.

use serde::{Deserialize, Serialize};

use crate::nw3::params::FortressParams;
use crate::tables::nw3::{EntranceKind, Rank};
use crate::tables::nw3_combat::{AttackKind, Reach, Target, Timing};

/// The game system tag; always `"nw3"` for a Fortress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    Nw3,
}

/// A generated (or hand-edited) Night Wizard 3rd Fortress for a Dive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fortress {
    pub system: System,
    /// The file format version ([`crate::model::FILE_FORMAT`] when written by this program).
    pub format: u32,
    pub seed: u64,
    pub generator: Generator,
    pub params: FortressParams,
    /// The paper the maps were made for; `render` keeps it (files without it are A4).
    #[serde(default)]
    pub paper: crate::model::Paper,
    pub party: Party,
    pub title: String,
    /// The handout's trailer line.
    pub trailer: String,
    pub ruler: Ruler,
    /// The Lunar Casket Logics in force (one or two).
    pub logic: Vec<Logic>,
    pub entrance_condition: EntranceCondition,
    /// What the Fortress Core looks like (it stands in the Core area).
    pub core: Core,
    /// In id order; ids are 1..=n for generated fortresses (Entrance 1, Core n).
    pub areas: Vec<Area>,
    /// Sorted by (from, to).
    pub gates: Vec<Gate>,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Kept as it is when the rest is rolled anew (`--from`): title, trailer, ruler, logic.
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub frame_locked: bool,
    /// Every reroll made since generation, in order (replayed after generating from the seed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rerolls: Vec<crate::model::Reroll>,
    /// The episode around the Dive (handouts, opening scenes, legwork, climax, endings). Files
    /// of format 2 and older have none and load without one; part of the frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub episode: Option<Episode>,
}

/// The episode the seeds build around a Dive (seed 000 l.466-560): Preplay (the trailer is the
/// fortress's `trailer`; one Handout per PC), the Opening Phase scenes, the Middle Phase legwork,
/// the Climax and the After Phase endings, with the Ruler's past that ties them together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Episode {
    /// The town or district where it happens.
    pub town: String,
    /// The first victim (an Innocent caught in the Casket).
    pub victim: String,
    pub past: Past,
    /// The Entrance keyword (a keyword Entrance speaks it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<Keyword>,
    /// The Entrance item (an item Entrance asks for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<EntranceItem>,
    /// One per PC, in PC order.
    pub handouts: Vec<Handout>,
    pub opening: Vec<Scene>,
    pub legwork: Vec<Legwork>,
    pub climax: Climax,
    pub endings: Vec<Ending>,
    /// The victim's place in the area where they are held (files before it have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captive: Option<Captive>,
    /// The Middle Phase scenes in play order (files before them have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub middle: Vec<MiddleScene>,
}

/// Where the victim is held and the text that area prints: who, why, what freeing them takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Captive {
    pub area: u32,
    pub text: String,
}

/// Who the Ruler was before it became an Emulator, and why it does what it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Past {
    /// Its former name (a person's name).
    pub former: String,
    pub life: String,
    pub wish: String,
    pub place_reason: String,
    pub victim_reason: String,
    /// The story its persona, Core and past are drawn from (`[[theme]]` of the episode pools);
    /// empty in files written before the Ruler had one story.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub theme: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyword {
    pub word: String,
    pub origin: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntranceItem {
    pub name: String,
    /// Where and how it is found.
    #[serde(rename = "where")]
    pub where_found: String,
}

/// One PC's part of the Episode Handout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handout {
    /// 1 for "PC 1".
    pub pc: u32,
    pub hook: String,
    pub connection: Connection,
}

/// An Episode Connection (an NPC of the episode, or one the seeds name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Connection {
    pub name: String,
    pub who: String,
    #[serde(default)]
    pub setting: bool,
}

/// An Opening Phase scene and what it plants for the Dive: one PC's (`pc`), where they meet
/// their Connection, what the Connection says and knows (`src/nw3/episode/scenes.rs`), or the
/// scene that brings the party together (`party`). Files made before the scenes were planned hold
/// neither (`pc` 0, the new texts empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub title: String,
    pub plants: crate::tables::nw3_episode::Plant,
    pub text: String,
    /// The PC whose Opening this is (1 for PC 1; 0: no one PC's).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pc: u32,
    /// The scene that brings the party together.
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub party: bool,
    /// Where in the town it happens.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub at: String,
    /// What the PC's Connection says (a PC's scene), or why the party meets (the party's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub says: String,
    /// What the Connection knows: the legwork its help gives +2 to (a PC's scene), or which facts
    /// join the party (the party's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub knows: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A Middle Phase scene, in play order: a Master Scene (the GM's, `text`) or the legwork item of
/// `legwork`'s topic played as a scene; `onward` marks the one that leads on to the Dive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MiddleScene {
    pub title: String,
    /// The Master Scene's text (empty for a legwork scene: the item says it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// The legwork item it plays (its topic: one item per topic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legwork: Option<crate::tables::nw3_episode::Topic>,
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub onward: bool,
}

/// A Middle Phase Information Gathering item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Legwork {
    pub topic: crate::tables::nw3_episode::Topic,
    pub title: String,
    /// The Attribute of the judge.
    pub attribute: String,
    pub difficulty: u32,
    /// The Connection whose help gives +2 to the judge.
    pub connection: String,
    pub text: String,
    /// The concrete fact a success reveals.
    pub reveals: String,
}

/// The Ruler's scene at the Core.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Climax {
    pub setting: String,
    /// What the Ruler says when met.
    pub line: String,
    /// How it fights, round by round, from its skills and attacks.
    pub tactics: Vec<String>,
    /// The area the scene is set in: the Ruler's (0 in files before it: not said).
    #[serde(default)]
    pub area: u32,
    /// What the scene's pool entry claims about the finale (see [`crate::nw3::finale::Claim`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<crate::nw3::finale::Claim>,
    /// Whether and when the Ruler grants leave (files before it: unsaid).
    #[serde(default, skip_serializing_if = "Leave::is_unsaid")]
    pub leave: Leave,
    /// How the party breaks the Core (files before it: none said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<CoreBreak>,
    /// When the Core's guards fight (none: nobody guards it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guards: Option<Guards>,
}

/// An After Phase ending for one way the Dive can end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub way: crate::tables::nw3_episode::Way,
    pub text: String,
    /// XP each player gets.
    pub xp: u32,
    /// What the ending's pool entry claims about the finale (see [`crate::nw3::finale::Claim`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<crate::nw3::finale::Claim>,
}

/// Which program and tables made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generator {
    pub name: String,
    pub version: String,
    /// The tables version (digest of every table file).
    pub tables: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Party {
    pub size: u32,
    /// Character level.
    pub cl: u32,
}

/// The Emulator who raised the Casket; met in an Event area (`area`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruler {
    pub name: String,
    pub title: String,
    pub description: String,
    pub motive: String,
    pub spd: u32,
    /// Any Seven: SPD + 7.
    pub initiative: u32,
    /// The area of the Ruler encounter.
    pub area: u32,
    /// It fights as a Boss: stat block, attacks and skills (see [`Enemy`]).
    #[serde(default)]
    pub stats: Option<Stats>,
    #[serde(default)]
    pub attacks: Vec<Attack>,
    #[serde(default)]
    pub skills: Vec<Skill>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Logic {
    pub name: String,
    /// From the tables by name (`fix` fills it in).
    #[serde(default)]
    pub effect: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntranceCondition {
    pub kind: EntranceKind,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Core {
    pub name: String,
    pub description: String,
}

/// The kinds of area on an Area Map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaKind {
    Entrance,
    Normal,
    Object,
    Trap,
    Event,
    Enemy,
    Core,
}

impl AreaKind {
    /// How the book names it.
    pub fn label(self) -> &'static str {
        match self {
            AreaKind::Entrance => "Entrance Area",
            AreaKind::Normal => "Normal Area",
            AreaKind::Object => "Object Area",
            AreaKind::Trap => "Trap Area",
            AreaKind::Event => "Event Area",
            AreaKind::Enemy => "Enemy Area",
            AreaKind::Core => "Fortress Core Area",
        }
    }
}

/// One area (a scene) of the fortress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub id: u32,
    pub name: String,
    pub kind: AreaKind,
    /// 8 + 2 per gate on the fewest-gates path from the Entrance.
    pub appearance_difficulty: u32,
    /// Reached only through a secret gate that a Danger Sense judge must find: not needed to win.
    #[serde(default)]
    pub optional: bool,
    pub description: String,
    #[serde(default)]
    pub event: Option<Event>,
    #[serde(default)]
    pub trap: Option<Trap>,
    #[serde(default)]
    pub enemies: Vec<EnemyGroup>,
    #[serde(default)]
    pub objects: Vec<Object>,
    /// The Danger Sense difficulty here: the trap's Removal Value, an ambusher's Perception + 7,
    /// or 12 (see [`crate::nw3::combat::danger_sense`]).
    #[serde(default)]
    pub danger_sense: Option<u32>,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Kept exactly when the rest is rolled anew (`--from`).
    #[serde(default, skip_serializing_if = "crate::model::is_false")]
    pub locked: bool,
}

/// Where an area's event comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A roll on the 2D6 Area Event Chart (Normal and Object areas).
    Chart,
    /// An Event area's scenario event; clearing it may open or reveal gates.
    Scenario,
    /// The Ruler encounter (an Event area).
    Ruler,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    pub kind: EventKind,
    /// The 2D6 result, for chart events.
    #[serde(default)]
    pub roll: Option<u32>,
    pub name: String,
    /// From the tables by name (`fix` fills it in).
    #[serde(default)]
    pub text: String,
    /// The judge that clears a scenario event.
    #[serde(default)]
    pub judge: Option<String>,
    #[serde(default)]
    pub difficulty: Option<u32>,
    /// What success of the judge does (empty in older files and for events without a judge).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub success: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub failure: String,
    /// Whether and how it may be tried again.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub retry: String,
}

/// A Trap area's trap, with values for the party's character level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    pub name: String,
    /// Detection Value: difficulty of the Perception judge (Trap Identification). This and the
    /// rest come from the trap's record for the party's level: `fix` fills them in.
    #[serde(default)]
    pub detection: u32,
    /// Removal Value: difficulty of the Finesse judge; Danger Sense difficulty equals it.
    #[serde(default)]
    pub removal: u32,
    #[serde(default)]
    pub effect: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyGroup {
    pub name: String,
    /// What the GM describes (from the tables).
    #[serde(default)]
    pub description: String,
    /// The group lies in wait (Danger Sense: its best Perception + 7).
    #[serde(default)]
    pub ambush: bool,
    /// Left empty, `fix` fills in every member of the group's record at the tables' counts.
    #[serde(default)]
    pub members: Vec<Enemy>,
    /// The GM's own notes, printed in the booklet (absent or empty: none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Enemy {
    pub name: String,
    /// Rank, SPD, initiative and the combat data come from the member's record (`fix`).
    #[serde(default = "unfixed_rank")]
    pub rank: Rank,
    /// How many; 0 or absent: `fix` gives the tables' count for the party.
    #[serde(default)]
    pub count: u32,
    #[serde(default)]
    pub spd: u32,
    /// Any Seven: SPD + 7.
    #[serde(default)]
    pub initiative: u32,
    /// Combat stats for the party's level and size (null only in files that lack them; `check`
    /// then reports `enemy.body`).
    #[serde(default)]
    pub stats: Option<Stats>,
    #[serde(default)]
    pub attacks: Vec<Attack>,
    #[serde(default)]
    pub skills: Vec<Skill>,
}

/// A stand-in rank for a hand-written member; `fix` replaces it from the tables.
fn unfixed_rank() -> Rank {
    Rank::Mob
}

/// An enemy's Combat Stats (seed 000 ~l.290-380) and Perception, for one character (a Mob
/// character stands for ten or more bodies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    pub pacc: u32,
    pub patk: u32,
    pub pdef: u32,
    pub macc: u32,
    pub matk: u32,
    pub mdef: u32,
    pub eva: u32,
    /// Maximum HP.
    pub body: u32,
    /// Maximum MP.
    pub mind: u32,
    /// For its ambushes: Danger Sense against it is Perception + 7.
    pub perception: u32,
}

/// One attack: Hit Check 2D6 + `accuracy` against the target's 2D6 + EVA; on a hit, 2D6 +
/// `damage` against 2D6 + PDEF (physical) or MDEF (magical), the excess is HP damage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attack {
    pub name: String,
    pub kind: AttackKind,
    pub range: Reach,
    pub target: Target,
    pub accuracy: u32,
    pub damage: u32,
}

/// An enemy skill: when it is used and what it does (our own words).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    pub name: String,
    pub timing: Timing,
    pub effect: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Object {
    pub name: String,
    /// From the tables by name (`fix` fills it in).
    #[serde(default)]
    pub effect: String,
    /// For a Gate Release Device: the closed gate it opens.
    #[serde(default)]
    pub opens: Option<GateRef>,
}

/// A gate named by its two areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateRef {
    pub from: u32,
    pub to: u32,
}

/// The kinds of gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GateKind {
    /// Passable both ways.
    Normal,
    /// Passable from `from` to `to` only.
    OneWay,
    /// Hidden until revealed by an event or a Danger Sense judge (`opened_by`).
    Secret,
    /// Shut until an event is cleared or a Gate Release Device is worked (`opened_by`).
    Closed,
    /// Broken: unusable (`uses` null) or usable `uses` times in all.
    Damaged,
}

impl GateKind {
    pub fn label(self) -> &'static str {
        match self {
            GateKind::Normal => "Gate",
            GateKind::OneWay => "One-Way Gate",
            GateKind::Secret => "Secret Gate",
            GateKind::Closed => "Closed Gate",
            GateKind::Damaged => "Damaged Gate",
        }
    }
}

/// What opens a closed gate or reveals a secret one. JSON: `{"event": 4}`, `{"device": 6}`,
/// `{"danger_sense": 15}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opener {
    /// Clearing the event of this area.
    Event(u32),
    /// Working the Gate Release Device in this area.
    Device(u32),
    /// A Danger Sense judge of this difficulty (15 by the rules), for secret gates.
    DangerSense(u32),
}

/// A gate between two areas.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    pub from: u32,
    pub to: u32,
    pub kind: GateKind,
    #[serde(default)]
    pub opened_by: Option<Opener>,
    /// Damaged gates: how many passes are left (null: unusable).
    #[serde(default)]
    pub uses: Option<u32>,
}

impl Gate {
    /// "3-7": how messages name the gate.
    pub fn label(&self) -> String {
        format!("{}-{}", self.from, self.to)
    }

    pub fn gate_ref(&self) -> GateRef {
        GateRef { from: self.from, to: self.to }
    }
}

impl Fortress {
    pub fn area(&self, id: u32) -> Option<&Area> {
        self.areas.iter().find(|a| a.id == id)
    }

    /// The Entrance area (the first one, if a hand-edited file has several).
    pub fn entrance(&self) -> Option<&Area> {
        self.areas.iter().find(|a| a.kind == AreaKind::Entrance)
    }

    /// The Fortress Core area (the first one, if a hand-edited file has several).
    pub fn core_area(&self) -> Option<&Area> {
        self.areas.iter().find(|a| a.kind == AreaKind::Core)
    }

    /// The area where the episode's first victim is held: the Ruler's (the episode's legwork
    /// says so: "... is held inside the Fortress by the Ruler, in area N"). None without an
    /// episode, or when a hand-edited Ruler stands in no area of the fortress.
    pub fn victim_area(&self) -> Option<&Area> {
        self.episode.as_ref()?;
        self.area(self.ruler.area)
    }

    /// Parses a fortress from JSON; field errors name the field and line.
    pub fn from_json(text: &str) -> serde_json::Result<Fortress> {
        serde_json::from_str(text)
    }

    /// Pretty JSON with a final newline (the `.json` artifact).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a fortress always serializes");
        s.push('\n');
        s
    }
}

// The Climax's plan of the Core, the Ruler's leave and the Core's guards: its data here, its
// rules in `nw3::episode::core`.

/// How the party breaks this fortress's Core, with the numbers for its party.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreBreak {
    pub way: crate::tables::nw3::BreakWay,
    /// The judge's difficulty (0 for a Core that is struck down).
    #[serde(default)]
    pub difficulty: u32,
    /// The HP of damage (struck down) or the successes (worked apart) it takes.
    pub takes: u32,
}

/// Whether and when the Ruler grants the party leave to go (the third way out, l.868).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leave {
    /// Files made before the leave was planned: a retreat with leave is allowed, as it was.
    #[default]
    Unsaid,
    /// Its persona lets nobody go: no retreat.
    Barred,
    /// It offers leave once its HP is this or less.
    Offered(u32),
}

impl Leave {
    pub fn is_unsaid(&self) -> bool {
        *self == Leave::Unsaid
    }
}

/// Who guards the Core and when they fight: the enemy groups of the Core's area, named from the
/// area when read (a fact stated once: rerolling them leaves the beat as it is).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guards {
    /// The Core's area.
    pub area: u32,
    /// The Climax round they fight from: 1 with the Core in the Ruler's room, else
    /// [`crate::nw3::episode::core::GUARDS_ROUND`].
    pub round: u32,
}
