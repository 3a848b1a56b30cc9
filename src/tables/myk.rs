//! Make You Kingdom records: traps, bases, monsters, ruler options and the limit table.
//!
//! Every schema denies unknown fields, so a typo in a table file is an error naming the field.
//! A value the source text lost is left out and listed in `unknown`; such records are shown by
//! `tables show` but never stocked by the generator.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::tables::name_index::NameIndex;
use crate::tables::shared::SharedStr;

use serde::{Deserialize, Serialize};

use crate::dice::DiceExpr;

/// The six trap categories, each with its own D66 table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapCategory {
    Classic,
    Facility,
    Encounter,
    Disaster,
    Movement,
    Combat,
}

impl TrapCategory {
    pub const ALL: [TrapCategory; 6] = [
        TrapCategory::Classic,
        TrapCategory::Facility,
        TrapCategory::Encounter,
        TrapCategory::Disaster,
        TrapCategory::Movement,
        TrapCategory::Combat,
    ];

    pub fn label(self) -> &'static str {
        match self {
            TrapCategory::Classic => "Classic",
            TrapCategory::Facility => "Facility",
            TrapCategory::Encounter => "Encounter",
            TrapCategory::Disaster => "Disaster",
            TrapCategory::Movement => "Movement",
            TrapCategory::Combat => "Combat",
        }
    }

    /// The name of the category's D66 table.
    pub fn table(self) -> &'static str {
        match self {
            TrapCategory::Classic => "myk.traps.classic",
            TrapCategory::Facility => "myk.traps.facility",
            TrapCategory::Encounter => "myk.traps.encounter",
            TrapCategory::Disaster => "myk.traps.disaster",
            TrapCategory::Movement => "myk.traps.movement",
            TrapCategory::Combat => "myk.traps.combat",
        }
    }
}

/// Where a trap may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    Room,
    Corridor,
    Event,
    Area,
}

impl Placement {
    pub fn label(self) -> &'static str {
        match self {
            Placement::Room => "Room",
            Placement::Corridor => "Corridor",
            Placement::Event => "Event",
            Placement::Area => "Area",
        }
    }
}

/// When a trap takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    Passage,
    Rest,
    Discovery,
    Automatic,
    Undiscovered,
    Touch,
}

impl Activation {
    pub fn label(self) -> &'static str {
        match self {
            Activation::Passage => "Passage",
            Activation::Rest => "Rest",
            Activation::Discovery => "Discovery",
            Activation::Automatic => "Automatic",
            Activation::Undiscovered => "Undiscovered",
            Activation::Touch => "Touch",
        }
    }
}

/// A trap's level: fixed, or a range the GM picks from (e.g. Pit, 1-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Fixed(u32),
    Range(u32, u32),
}

impl Level {
    pub fn min(self) -> u32 {
        match self {
            Level::Fixed(n) | Level::Range(n, _) => n,
        }
    }
    pub fn max(self) -> u32 {
        match self {
            Level::Fixed(n) | Level::Range(_, n) => n,
        }
    }
    pub fn contains(self, n: u32) -> bool {
        (self.min()..=self.max()).contains(&n)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Fixed(n) => write!(f, "{n}"),
            Level::Range(a, b) => write!(f, "{a}-{b}"),
        }
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            S(String),
        }
        let bad = |s: &str| serde::de::Error::custom(format!("level `{s}` is not a number or a range like 1-5"));
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(Level::Fixed(n)),
            Raw::S(s) => {
                let (a, b) = s.split_once('-').ok_or_else(|| bad(&s))?;
                let a: u32 = a.trim().parse().map_err(|_| bad(&s))?;
                let b: u32 = b.trim().parse().map_err(|_| bad(&s))?;
                if a >= b {
                    return Err(bad(&s));
                }
                Ok(Level::Range(a, b))
            }
        }
    }
}

impl Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Level::Fixed(n) => s.serialize_u32(*n),
            Level::Range(..) => s.collect_str(self),
        }
    }
}

/// An ability score named in a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum Ability {
    Warfare,
    Quest,
    Wit,
    Charisma,
}

impl Ability {
    pub fn label(self) -> &'static str {
        match self {
            Ability::Warfare => "Warfare",
            Ability::Quest => "Quest",
            Ability::Wit => "Wit",
            Ability::Charisma => "Charisma",
        }
    }
}

/// How a trap is disarmed. Written in TOML as the book writes it: `"Discovery"`, `"Impossible"`,
/// `"Quest / 10"`, `"Quest / 9 + trap level"`, `"Charisma / 9 + (followers / 10)"`, or
/// `"special: <our words>"` for traps whose disarm the book describes in their text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disarm {
    Discovery,
    Impossible,
    Check { ability: Ability, difficulty: u32, plus_trap_level: bool, plus: Option<String> },
    Special(String),
}

impl Disarm {
    /// The difficulty for a trap of `level`, when the check has a fixed part we can compute.
    pub fn difficulty(&self, level: u32) -> Option<u32> {
        match self {
            Disarm::Check { difficulty, plus_trap_level, .. } => {
                Some(difficulty + if *plus_trap_level { level } else { 0 })
            }
            _ => None,
        }
    }
}

impl Disarm {
    /// The disarm as written (what `Display` writes), without the formatting machinery for the
    /// one-word forms most traps have; made once per trap at load, shared by every trap placed.
    pub fn text(&self) -> SharedStr {
        match self {
            Disarm::Discovery => "Discovery".into(),
            Disarm::Impossible => "Impossible".into(),
            _ => self.to_string().into(),
        }
    }
}

impl fmt::Display for Disarm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Disarm::Discovery => f.write_str("Discovery"),
            Disarm::Impossible => f.write_str("Impossible"),
            Disarm::Check { ability, difficulty, plus_trap_level, plus } => {
                write!(f, "{} / {difficulty}", ability.label())?;
                if *plus_trap_level {
                    f.write_str(" + trap level")?;
                }
                if let Some(p) = plus {
                    write!(f, " + {p}")?;
                }
                Ok(())
            }
            Disarm::Special(s) => write!(f, "special: {s}"),
        }
    }
}

impl FromStr for Disarm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        match t {
            "Discovery" => return Ok(Disarm::Discovery),
            "Impossible" => return Ok(Disarm::Impossible),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("special:") {
            let rest = rest.trim();
            if rest.is_empty() {
                return Err("disarm `special:` needs a description".into());
            }
            return Ok(Disarm::Special(rest.to_string()));
        }
        let bad =
            || format!("disarm `{s}` is not Discovery, Impossible, `Ability / N [+ trap level]` or `special: ...`");
        let (ability, rest) = t.split_once('/').ok_or_else(bad)?;
        let ability = match ability.trim() {
            "Warfare" => Ability::Warfare,
            "Quest" => Ability::Quest,
            "Wit" => Ability::Wit,
            "Charisma" => Ability::Charisma,
            _ => return Err(bad()),
        };
        let mut parts = rest.split('+').map(str::trim);
        let difficulty: u32 = parts.next().and_then(|n| n.parse().ok()).ok_or_else(bad)?;
        let mut plus_trap_level = false;
        let mut plus = Vec::new();
        for p in parts {
            if p.eq_ignore_ascii_case("trap level") {
                plus_trap_level = true;
            } else if p.is_empty() {
                return Err(bad());
            } else {
                plus.push(p.to_string());
            }
        }
        let plus = if plus.is_empty() { None } else { Some(plus.join(" + ")) };
        Ok(Disarm::Check { ability, difficulty, plus_trap_level, plus })
    }
}

impl<'de> Deserialize<'de> for Disarm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

impl Serialize for Disarm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What a trap does to movement through the map; the generator and `check` read it for
/// reachability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// A corridor of the room is hidden and unusable until the trap is discovered (Secret Door).
    Hidden,
    /// A corridor is unusable until the trap is disarmed by its check (Lock).
    Locked,
    /// A corridor may be used in one direction only (Moving Floor).
    OneWay,
    /// The court is moved to a chosen room (Teleporter); records its destination.
    Teleport,
    /// Travelling the corridor leads to a chosen room instead, while undiscovered (Illusion Road).
    Redirect,
    /// The corridor can never be crossed (Infinite Corridor): as if it were not there.
    Closed,
    /// The trap's room is entered and left only by its corridors (Warder): no teleport or
    /// redirect leads into it, no teleport out of it.
    Warded,
}

impl Route {
    /// Every route, in declaration order.
    pub const ALL: [Route; 7] =
        [Route::Hidden, Route::Locked, Route::OneWay, Route::Teleport, Route::Redirect, Route::Closed, Route::Warded];
}

/// A trap of the rulebook.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    pub name: SharedStr,
    pub category: TrapCategory,
    pub level: Level,
    pub placement: Placement,
    pub activation: Activation,
    pub disarm: Disarm,
    /// `disarm` as written, made once at load (`MykData::index`) for every trap placed from it.
    #[serde(skip)]
    pub disarm_text: SharedStr,
    /// What an Event trap may sit on (the trap's own list, or its category's list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<SharedStr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Route>,
    /// The trap brings out monsters the scenario names when it fires (Gate Keeper); the placed
    /// trap lists them, inside the limits of a hostile room.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ambush: bool,
    /// The book lets the GM choose "any number" of the monsters it brings out (Dead Angle, seed
    /// 003 l.5892): the hostile room total held to them is advice, not a rule.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_number: bool,
    /// The open ends of the book's list ("or other kind of container"): any object of one of these
    /// kinds (`tables/myk/objects.toml`) fits as well as the objects named.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<SharedStr>,
    /// The book lets the trap sit anywhere ("wherever you wish", "or other object or Item"): any
    /// object the GM names fits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_objects: bool,
    /// The trap sits on a creature with statistics that attacks (Borracho, seed 003 l.5916): its
    /// room must hold monsters or a ruler, whatever object it names.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bearer: bool,
    /// The effect, in our own words.
    pub summary: SharedStr,
    /// Where the book leaves the GM a choice on placing the trap (two rooms to swap, a false
    /// monster, a skill group, the high end): the effect with that choice made, whose `{room}`,
    /// `{room2}` (other used rooms of the map), `{monster}` (a bestiary monster), `{count}` (1D6)
    /// and `{choice}` (one of `choices`) the generator fills; the placed trap keeps the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<SharedStr>,
    /// What `{choice}` in `chosen` is drawn from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<SharedStr>,
    /// Where it stands in seed 003, e.g. "l.5658".
    pub source: String,
}

/// An object a trap may sit on and the kinds it belongs to (a box is a container), so that a
/// trap whose list ends "or other kind of container" takes every container and nothing else.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectRecord {
    pub name: SharedStr,
    pub kinds: Vec<SharedStr>,
}

/// When a base's effect can be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseTiming {
    Permanent,
    Plan,
    Assist,
    Interrupt,
}

impl BaseTiming {
    pub fn label(self) -> &'static str {
        match self {
            BaseTiming::Permanent => "Permanent",
            BaseTiming::Plan => "Plan",
            BaseTiming::Assist => "Assist",
            BaseTiming::Interrupt => "Interrupt",
        }
    }
}

/// How a base is installed: alone in its room, or as the one addition to a room with a base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Installation {
    Room,
    Addition,
}

impl Installation {
    pub fn label(self) -> &'static str {
        match self {
            Installation::Room => "Room",
            Installation::Addition => "Addition",
        }
    }
}

/// A base (monster installation).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Base {
    pub name: SharedStr,
    #[serde(default)]
    pub level: Option<u32>,
    pub timing: BaseTiming,
    pub hp: u32,
    /// Production capacity spent to use it (0 when `cost_per_use` says it).
    pub cost: u32,
    /// What each use costs when the book prints no fixed fee ("See Below"), in our words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_per_use: Option<String>,
    pub installation: Installation,
    /// Facilities the court may build here when the map becomes its territory.
    #[serde(default)]
    pub rewards: Vec<String>,
    /// Extra production capacity per quarter.
    #[serde(default)]
    pub supplemental: Option<u32>,
    #[serde(default)]
    pub war_machine: bool,
    pub summary: SharedStr,
    pub source: String,
    /// Fields the source lost (e.g. `["level"]`); such a base is never stocked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<String>,
}

impl Base {
    /// The activation cost as the booklet prints it: the fee, or what each use costs.
    pub fn cost_text(&self) -> String {
        match &self.cost_per_use {
            Some(t) => t.clone(),
            None => self.cost.to_string(),
        }
    }
}

/// Monster categories of the bestiary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MonsterCategory {
    Ogre,
    Fairy,
    Beast,
    Aberration,
    Undead,
    Human,
    Construct,
    Angel,
    DeepOne,
}

impl MonsterCategory {
    /// Every category, in the order an object's kinds are matched against them.
    pub const ALL: [MonsterCategory; 9] = [
        MonsterCategory::Ogre,
        MonsterCategory::Fairy,
        MonsterCategory::Beast,
        MonsterCategory::Aberration,
        MonsterCategory::Undead,
        MonsterCategory::Human,
        MonsterCategory::Construct,
        MonsterCategory::Angel,
        MonsterCategory::DeepOne,
    ];

    pub fn label(self) -> &'static str {
        match self {
            MonsterCategory::Ogre => "Ogre",
            MonsterCategory::Fairy => "Fairy",
            MonsterCategory::Beast => "Beast",
            MonsterCategory::Aberration => "Aberration",
            MonsterCategory::Undead => "Undead",
            MonsterCategory::Human => "Human",
            MonsterCategory::Construct => "Construct",
            MonsterCategory::Angel => "Angel",
            MonsterCategory::DeepOne => "Deep One",
        }
    }
}

/// How the GM must play a monster in combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Personality {
    Foolish,
    Steady,
    Strange,
    Cunning,
}

impl Personality {
    /// Every personality, in the book's order (the glossary's).
    pub const ALL: [Personality; 4] =
        [Personality::Foolish, Personality::Steady, Personality::Strange, Personality::Cunning];

    pub fn label(self) -> &'static str {
        match self {
            Personality::Foolish => "Foolish",
            Personality::Steady => "Steady",
            Personality::Strange => "Strange",
            Personality::Cunning => "Cunning",
        }
    }
}

/// A monster's stat block.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    pub name: SharedStr,
    pub category: MonsterCategory,
    #[serde(default)]
    pub level: Option<u32>,
    #[serde(default)]
    pub warfare: Option<u32>,
    #[serde(default)]
    pub range: Option<u32>,
    #[serde(default)]
    pub damage: Option<DiceExpr>,
    #[serde(default)]
    pub defense: Option<u32>,
    #[serde(default)]
    pub hp: Option<u32>,
    #[serde(default)]
    pub personality: Option<Personality>,
    #[serde(default)]
    pub materials: Vec<String>,
    /// Skill names as the book prints them, e.g. `Knock Back (Melee)`.
    #[serde(default)]
    pub skills: Vec<SharedStr>,
    /// A one-line note in our own words (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub source: String,
    /// Fields the source lost; such a monster is never stocked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<String>,
}

impl Monster {
    /// True when every stat is known, so the generator may stock it.
    pub fn complete(&self) -> bool {
        self.unknown.is_empty()
            && self.level.is_some()
            && self.warfare.is_some()
            && self.range.is_some()
            && self.damage.is_some()
            && self.defense.is_some()
            && self.hp.is_some()
            && self.personality.is_some()
    }
}

/// Stats a ruler may raise, each step costing levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Warfare,
    Range,
    Damage,
    Defense,
    Hp,
}

/// One way to strengthen a ruler: `step` of `stat` costs `levels` effective levels.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RulerIncrease {
    pub stat: Stat,
    /// The step as printed, e.g. "+1 point", "+1D6", "+(level x 5) HP".
    pub step: String,
    pub levels: u32,
    pub summary: String,
    pub source: String,
}

/// A ruler skill: needs a ruler of at least `min_level`; raises its effective level by `levels`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RulerSkill {
    pub name: SharedStr,
    pub min_level: u32,
    pub levels: u32,
    pub summary: String,
    pub source: String,
}

/// A ruler weak point: lowers its effective level by `adjustment` (plus one per chosen thing
/// when `needs` is `poisons` or `sealed`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WeakPoint {
    pub name: SharedStr,
    pub adjustment: u32,
    /// What the GM must choose for it (the book's "choose" or "determine"), if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs: Option<WeakNeed>,
    pub summary: String,
    pub source: String,
}

impl WeakPoint {
    /// The adjustment as printed: "-5", or "-(2 + number of poisons)".
    pub fn adjustment_text(&self) -> String {
        match self.needs {
            Some(WeakNeed::Poisons) => format!("-({} + number of poisons)", self.adjustment),
            Some(WeakNeed::Sealed) => format!("-({} + number of sealed skills)", self.adjustment),
            _ => format!("-{}", self.adjustment),
        }
    }
}

/// The choice a weak point asks for; the scenario records it on the ruler's adjustment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeakNeed {
    /// One court member (Karma).
    Member,
    /// One NPC of the scenario (Relationship).
    Npc,
    /// One or more Weakness Table results, each adding 1 to the adjustment (Poison).
    Poisons,
    /// Exactly one Weakness Table result (Anathema).
    Weakness,
    /// 1-3 of the monster's own skills, each adding 1 to the adjustment (Sealed).
    Sealed,
    /// 2-7 other monsters on the ruler's map holding its cores (Split Core).
    Cores,
    /// A room of the ruler's map, other than its own, where its one core lies hidden (Memory Core,
    /// Soul Core).
    Hideout,
}

/// One row of the printed threat placement limit table (average level x court size).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LimitRow {
    pub average_level: u32,
    pub size: u32,
    pub monsters_total: u32,
    pub monsters_hostile: u32,
    pub monsters_friendly: u32,
    pub monster_level: u32,
    pub rooms_with_monsters: u32,
    pub ruler_room_total: u32,
    pub ruler_room_others: u32,
    pub ruler_level: u32,
    pub traps_number: u32,
    pub traps_total: u32,
    pub bases_total: u32,
}

/// All MYK records, in file order, with name indexes (built by `index`) for the hot lookups.
#[derive(Clone, Debug, Default)]
pub struct MykData {
    pub traps: Vec<Trap>,
    pub bases: Vec<Base>,
    pub monsters: Vec<Monster>,
    pub ruler_increases: Vec<RulerIncrease>,
    pub ruler_skills: Vec<RulerSkill>,
    pub weak_points: Vec<WeakPoint>,
    /// The objects traps sit on, with their kinds.
    pub objects: Vec<ObjectRecord>,
    pub limits: Vec<LimitRow>,
    /// Skill records and the skills no source describes.
    pub skills: crate::tables::skills::SkillData,
    /// The random encounter tables with only stockable monsters, by table name (built at load).
    pub encounters: BTreeMap<String, Vec<crate::tables::encounters::EncounterRow>>,
    trap_index: NameIndex,
    base_index: NameIndex,
    monster_index: NameIndex,
    /// Monsters with every stat known (the only ones the generator stocks), in file order.
    stockable: Vec<usize>,
    /// Each stockable monster's level, in the same order (a compact list the weighted picks walk).
    stock_levels: Vec<u32>,
    /// How many stockable monsters stand at each level (index = level), so a pick's total weight
    /// is summed over levels rather than over the whole bestiary.
    stock_per_level: Vec<u32>,
    /// For each k, how many of the first k stockable monsters stand at each level 0..=top
    /// (`k * (top + 1) + level`), so a weighted pick finds its monster by bisection instead of a
    /// walk over the bestiary.
    stock_prefix: Vec<u32>,
    /// The encounter tables resolved per court (see [`crate::tables::Tables::encounter_rows`]).
    resolved_encounters: crate::tables::encounters::ResolvedCache,
    /// Object and monster names in lower case (see [`MykData::object_folded`]).
    folded: FoldedCache,
    /// Per route (in [`Route::ALL`]'s order), the position of the first trap with it.
    first_by_route: [Option<usize>; 7],
    /// Per monster (position in `monsters`), how many of its skills Sealed can lock away, made at
    /// the first Sealed pick (a ruler pick walks every stockable monster's skills otherwise).
    sealable: SealableCache,
}

/// [`MykData::sealable_count`]'s counts, made at the first look-up; prints the same made or not.
#[derive(Clone, Default)]
struct SealableCache(std::sync::OnceLock<Vec<u32>>);

impl fmt::Debug for SealableCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SealableCache")
    }
}

/// [`Folded`], made at the first look-up (a run that matches no trap object never pays for it).
/// It prints the same made or not, so two loads of the same tables print alike.
#[derive(Clone, Default)]
struct FoldedCache(std::sync::OnceLock<Folded>);

impl fmt::Debug for FoldedCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FoldedCache")
    }
}

/// The kind every creature with statistics that attacks belongs to (Horror's gruesome Monster);
/// a monster of the bestiary is of the kinds "monster" and "<category> monster".
pub const MONSTER_KIND: &str = "monster";

/// What an object a trap sits on asks of the trap's room, read from its name and kinds
/// (`myk::objects` says the rules): whether it is a creature that must stand there, and the
/// bestiary category a kind-only object asks for ("construct monster" a Construct).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ObjectTraits {
    pub creature: bool,
    pub category: Option<MonsterCategory>,
}

/// Every object and monster name in lower case, each with the first object and the first monster
/// of that name in any letter case: an Event trap's object is matched against both lists by
/// every trap the generator tries and `check` reads, which walked both lists each time.
#[derive(Clone, Debug, Default)]
struct Folded {
    keys: Vec<String>,
    /// (first object, first monster) by key, as positions in `objects` and `monsters`.
    first: Vec<(Option<usize>, Option<usize>)>,
    /// Each key's traits, read from its kinds once (the generator asks for every trap it tries).
    traits: Vec<ObjectTraits>,
    /// Per trap (position in `traps`), the traits of each object it lists, in list order: a
    /// trap placed on one of its own objects needs no look-up by name.
    trap_objects: Vec<Vec<ObjectTraits>>,
    index: NameIndex,
}

impl Folded {
    fn of(data: &MykData) -> Folded {
        let mut slot: BTreeMap<String, usize> = BTreeMap::new();
        let mut f = Folded::default();
        let names = data.objects.iter().map(|o| (o.name.as_str(), true));
        for (i, (name, object)) in
            names.enumerate().chain(data.monsters.iter().map(|m| (m.name.as_str(), false)).enumerate())
        {
            let key = name.to_ascii_lowercase();
            let k = *slot.entry(key.clone()).or_insert_with(|| {
                f.keys.push(key);
                f.first.push((None, None));
                f.keys.len() - 1
            });
            let first = if object { &mut f.first[k].0 } else { &mut f.first[k].1 };
            first.get_or_insert(i);
        }
        f.index = NameIndex::new(f.keys.iter().map(String::as_str));
        f.traits = (0..f.keys.len()).map(|k| f.traits_of(data, k)).collect();
        f.trap_objects = data.traps.iter().map(|t| t.objects.iter().map(|o| f.traits_by_name(o)).collect()).collect();
        f
    }

    /// The traits of key `k`: a creature when it is "monster", or an object of the kind
    /// "monster", or (no object of that name) a monster; a category only for an object no monster
    /// shares the name of (a named monster is itself the creature).
    fn traits_of(&self, data: &MykData, k: usize) -> ObjectTraits {
        let (object, monster) = self.first[k];
        let kinds = object.map(|i| &data.objects[i].kinds);
        let creature = self.keys[k] == MONSTER_KIND
            || kinds.map_or(monster.is_some(), |ks| ks.iter().any(|x| x.eq_ignore_ascii_case(MONSTER_KIND)));
        let category = match (monster, kinds) {
            (None, Some(ks)) => MonsterCategory::ALL.into_iter().find(|&c| ks.iter().any(|x| is_category_kind(x, c))),
            _ => None,
        };
        ObjectTraits { creature, category }
    }

    /// The traits of the object named `name` (trimmed, any letter case); an unknown name is a
    /// creature only when it is "monster".
    fn traits_by_name(&self, name: &str) -> ObjectTraits {
        let name = name.trim();
        match self.key(name) {
            Some(k) => self.traits[k],
            None => ObjectTraits { creature: name.eq_ignore_ascii_case(MONSTER_KIND), category: None },
        }
    }

    /// The entry of the name `name` in any letter case.
    fn get(&self, name: &str) -> Option<(Option<usize>, Option<usize>)> {
        self.key(name).map(|k| self.first[k])
    }

    /// The key of the name `name` in any letter case.
    fn key(&self, name: &str) -> Option<usize> {
        // Names are short: folded on the stack, a long one on the heap.
        let mut buf = [0u8; 64];
        let long;
        let key = match buf.get_mut(..name.len()) {
            Some(b) => {
                b.copy_from_slice(name.as_bytes());
                b.make_ascii_lowercase();
                &*b
            }
            None => {
                long = name.to_ascii_lowercase();
                long.as_bytes()
            }
        };
        self.index.get_bytes(key, |i| &self.keys[i])
    }
}

/// The kind a monster of category `c` is of besides "monster": "construct monster".
pub fn category_kind(c: MonsterCategory) -> String {
    format!("{} {MONSTER_KIND}", c.label().to_ascii_lowercase())
}

/// Whether `kind` is [`category_kind`] of `c` in any letter case, without writing it out.
fn is_category_kind(kind: &str, c: MonsterCategory) -> bool {
    let (label, k) = (c.label().as_bytes(), kind.as_bytes());
    k.len() == label.len() + 1 + MONSTER_KIND.len()
        && k[..label.len()].eq_ignore_ascii_case(label)
        && k[label.len()] == b' '
        && k[label.len() + 1..].eq_ignore_ascii_case(MONSTER_KIND.as_bytes())
}

impl MykData {
    /// Builds the name indexes (the first record of a name wins; validation refuses duplicates).
    pub fn index(&mut self) {
        for t in &mut self.traps {
            t.disarm_text = t.disarm.text();
        }
        self.trap_index = NameIndex::new(self.traps.iter().map(|t| t.name.as_str()));
        self.base_index = NameIndex::new(self.bases.iter().map(|t| t.name.as_str()));
        self.monster_index = NameIndex::new(self.monsters.iter().map(|t| t.name.as_str()));
        self.folded = FoldedCache::default();
        self.sealable = SealableCache::default();
        self.first_by_route = Route::ALL.map(|r| self.traps.iter().position(|t| t.route == Some(r)));
        self.stockable = (0..self.monsters.len()).filter(|&i| self.monsters[i].complete()).collect();
        self.stock_levels = self.stockable.iter().map(|&i| self.monsters[i].level.unwrap_or(0)).collect();
        let top = self.stock_levels.iter().copied().max().unwrap_or(0) as usize;
        self.stock_per_level = vec![0; top + 1];
        for &l in &self.stock_levels {
            self.stock_per_level[l as usize] += 1;
        }
        let width = top + 1;
        self.stock_prefix = vec![0; width * (self.stock_levels.len() + 1)];
        for (k, &l) in self.stock_levels.iter().enumerate() {
            let (done, next) = self.stock_prefix.split_at_mut((k + 1) * width);
            next[..width].copy_from_slice(&done[k * width..]);
            next[l as usize] += 1;
        }
    }

    /// The random encounter table `table` for a court of average level `level` (1-6; 6 above
    /// that) and `size` members, resolved for its size: made once per level and size, then
    /// shared. ([`crate::tables::Tables::encounter_rows`] names the table.)
    pub(crate) fn encounter_rows(
        &self,
        table: &str,
        level: u32,
        size: u32,
    ) -> crate::tables::shared::SharedList<crate::tables::encounters::ResolvedRow> {
        let level = level.clamp(1, 6);
        let build = || crate::tables::encounters::resolve(self.encounters.get(table).map(Vec::as_slice), size);
        let cell =
            self.resolved_encounters.get(level as usize - 1).and_then(|l| l.get((size as usize).wrapping_sub(1)));
        match cell {
            Some(cell) => cell.get_or_init(build).clone(),
            // A hand-made court outside the generator's sizes: resolved each time.
            None => build(),
        }
    }

    /// How many of the first `k` stockable monsters stand at each level (index = level, up to
    /// the highest stockable level).
    pub fn stock_before(&self, k: usize) -> &[u32] {
        let width = self.stock_per_level.len();
        self.stock_prefix.get(k * width..(k + 1) * width).unwrap_or_default()
    }

    /// Where `m` (a record of these tables) stands among the stockable monsters.
    pub fn stock_position(&self, m: &Monster) -> Option<usize> {
        self.stockable.binary_search(&self.record_position(m)?).ok()
    }

    /// Where `m` stands in `monsters` when it is one of these records (by its address,
    /// confirmed by identity).
    fn record_position(&self, m: &Monster) -> Option<usize> {
        let size = std::mem::size_of::<Monster>().max(1);
        let offset = (m as *const Monster as usize).wrapping_sub(self.monsters.as_ptr() as usize);
        let i = offset / size;
        let mine = offset.is_multiple_of(size) && self.monsters.get(i).is_some_and(|x| std::ptr::eq(x, m));
        mine.then_some(i)
    }

    /// The first trap (in file order) whose route is `route`: special movement places these
    /// on every map, found at load rather than by a walk of the traps.
    pub fn trap_by_route(&self, route: Route) -> Option<&Trap> {
        let at = Route::ALL.iter().position(|&r| r == route)?;
        self.first_by_route[at].map(|i| &self.traps[i])
    }

    /// Whether Sealed can lock the skill labelled `label` away: not one whose effect "cannot be
    /// prevented" (Public Enemy, seed 003 l.6570), which sealing would not stop.
    pub fn sealable(&self, label: &str) -> bool {
        !matches!(self.skills.for_label(label), Some(crate::tables::skills::SkillRef::Known(s)) if s.cannot_be_prevented)
    }

    /// How many of `m`'s skills Sealed can lock away ([`MykData::sealable`]); counted once per
    /// record of these tables, each time for a monster from elsewhere.
    pub fn sealable_count(&self, m: &Monster) -> usize {
        let count = |m: &Monster| m.skills.iter().filter(|s| self.sealable(s)).count();
        match self.record_position(m) {
            Some(i) => {
                let counts = self.sealable.0.get_or_init(|| self.monsters.iter().map(|m| count(m) as u32).collect());
                counts[i] as usize
            }
            None => count(m),
        }
    }

    /// The stockable monsters' levels, in stockable order.
    pub fn stock_levels(&self) -> &[u32] {
        &self.stock_levels
    }

    /// The highest level of a stockable monster (0 when there is none).
    pub fn top_stock_level(&self) -> u32 {
        self.stock_per_level.len().saturating_sub(1) as u32
    }

    /// How many stockable monsters stand at `level`.
    pub fn stock_at_level(&self, level: u32) -> u32 {
        self.stock_per_level.get(level as usize).copied().unwrap_or(0)
    }

    /// The `i`th stockable monster.
    pub fn stock(&self, i: usize) -> &Monster {
        &self.monsters[self.stockable[i]]
    }

    /// Monsters the generator may stock (every stat known), in file order.
    pub fn stockable(&self) -> impl Iterator<Item = &Monster> + Clone {
        self.stockable.iter().map(|&i| &self.monsters[i])
    }

    /// Where the stockable monsters stand in `monsters`, in file order: a pick among them is
    /// `choose` on this list (the draw `choose_from` over [`MykData::stockable`] makes).
    pub fn stockable_positions(&self) -> &[usize] {
        &self.stockable
    }

    /// How many monsters may be stocked.
    pub fn stockable_count(&self) -> usize {
        self.stockable.len()
    }
    pub fn trap(&self, name: &str) -> Option<&Trap> {
        self.trap_position(name).map(|i| &self.traps[i])
    }
    /// Where the trap named `name` stands in `traps`.
    #[inline]
    pub fn trap_position(&self, name: &str) -> Option<usize> {
        self.trap_index.get(name, |i| &self.traps[i].name)
    }
    pub fn base(&self, name: &str) -> Option<&Base> {
        self.base_position(name).map(|i| &self.bases[i])
    }
    /// Where the base named `name` stands in `bases`.
    pub fn base_position(&self, name: &str) -> Option<usize> {
        self.base_index.get(name, |i| &self.bases[i].name)
    }
    /// The first object whose name is `name` in any (ASCII) letter case.
    pub fn object_folded(&self, name: &str) -> Option<&ObjectRecord> {
        self.folded.0.get_or_init(|| Folded::of(self)).get(name)?.0.map(|i| &self.objects[i])
    }
    /// The first monster whose name is `name` in any (ASCII) letter case.
    pub fn monster_folded(&self, name: &str) -> Option<&Monster> {
        self.folded.0.get_or_init(|| Folded::of(self)).get(name)?.1.map(|i| &self.monsters[i])
    }
    /// Every object a trap names and every kind it takes is one the object tables know: the name
    /// of an object or a kind some object has (a check of the tables' own cross-references, as a
    /// roll table's yielded names are). `Err` names the first trap and object that are not.
    pub fn check_trap_objects(&self) -> Result<(), (String, String)> {
        let known = |x: &str| {
            self.objects
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(x) || o.kinds.iter().any(|k| k.eq_ignore_ascii_case(x)))
        };
        for t in &self.traps {
            if let Some(x) = t.objects.iter().chain(&t.kinds).find(|x| !known(x)) {
                return Err((t.name.to_string(), x.to_string()));
            }
        }
        Ok(())
    }
    /// What the object named `name` (trimmed, any letter case) asks of a trap's room.
    pub fn object_traits(&self, name: &str) -> ObjectTraits {
        self.folded.0.get_or_init(|| Folded::of(self)).traits_by_name(name)
    }
    /// [`MykData::object_traits`] of the `object`th object of the `trap`th trap, read at the
    /// first look-up (`None` past either list).
    pub fn trap_object_traits(&self, trap: usize, object: usize) -> Option<ObjectTraits> {
        self.folded.0.get_or_init(|| Folded::of(self)).trap_objects.get(trap)?.get(object).copied()
    }
    #[inline]
    pub fn monster(&self, name: &str) -> Option<&Monster> {
        self.monster_position(name).map(|i| &self.monsters[i])
    }
    /// Where the monster named `name` stands in `monsters`.
    #[inline]
    pub fn monster_position(&self, name: &str) -> Option<usize> {
        self.monster_index.get(name, |i| &self.monsters[i].name)
    }
    pub fn weak_point(&self, name: &str) -> Option<&WeakPoint> {
        self.weak_points.iter().find(|w| w.name == name)
    }
    pub fn ruler_skill(&self, name: &str) -> Option<&RulerSkill> {
        self.ruler_skills.iter().find(|s| s.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trap_found_for_a_route_is_the_first_in_file_order_with_it() {
        let tables = crate::tables::Tables::embedded().expect("embedded tables load");
        let data = &tables.myk;
        let mut found = 0;
        for r in Route::ALL {
            let walked = data.traps.iter().find(|t| t.route == Some(r));
            assert_eq!(data.trap_by_route(r).map(|t| t as *const Trap), walked.map(|t| t as *const Trap), "{r:?}");
            found += usize::from(walked.is_some());
        }
        assert!(found > 0);
    }

    #[test]
    fn disarm_reads_the_books_forms() {
        assert_eq!("Discovery".parse::<Disarm>().unwrap(), Disarm::Discovery);
        let d: Disarm = "Quest / 9 + trap level".parse().unwrap();
        assert_eq!(d.difficulty(4), Some(13));
        assert_eq!(d.to_string(), "Quest / 9 + trap level");
        let d: Disarm = "Charisma / 9 + (followers / 10)".parse().unwrap();
        assert_eq!(d.difficulty(6), Some(9));
        assert_eq!(d.to_string(), "Charisma / 9 + (followers / 10)");
        assert!("Strength / 9".parse::<Disarm>().is_err());
        assert!("special:".parse::<Disarm>().is_err());
    }

    #[test]
    fn a_disarm_text_is_what_display_writes() {
        for written in ["Discovery", "Impossible", "Wit / 11", "Quest / 9 + trap level", "special: a lever"] {
            let d: Disarm = written.parse().unwrap();
            assert_eq!(d.text(), written);
            assert_eq!(d.text(), d.to_string());
        }
    }

    #[test]
    fn a_level_is_a_number_or_a_range() {
        let l: Level = toml::from_str::<toml::Table>("l = \"1-5\"").unwrap()["l"].clone().try_into().unwrap();
        assert_eq!(l, Level::Range(1, 5));
        assert!(l.contains(3) && !l.contains(6));
        let l: Level = toml::Value::Integer(3).try_into().unwrap();
        assert_eq!(l.to_string(), "3");
    }
}
