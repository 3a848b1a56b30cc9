//! The NW3 episode pools (`tables/nw3/episode.toml`): the parts an episode around a Fortress is
//! composed from (trailer sentences, Episode Connections, hooks, the Ruler's past, the Entrance
//! keyword and item, opening scenes, legwork, climax settings, endings, area name parts and event
//! outcomes). The schema is binding for the content (`plan/nw3-episode.md`); the sections sit at
//! the top level of that one file, so the loader reads it with its own type, not [`super::TableFile`].
//!
//! Every text may use only the slots its section binds ([`crate::tables::slots::NW3`]).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The table file that holds the episode pools, relative to the tables folder.
pub const EPISODE_FILE: &str = "nw3/episode.toml";

/// Whether a table file (path relative to the tables folder) is the episode file.
pub fn is_episode_file(path: &str) -> bool {
    path == EPISODE_FILE
}

/// A line of prose.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    pub text: String,
}

/// An Episode Connection: an NPC a PC knows for this episode.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionRecord {
    pub name: String,
    /// Who they are to the PC.
    pub who: String,
    /// A character the seeds name (true) or an NPC of this episode (false).
    pub setting: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct KeywordRecord {
    /// The Ruler's story it belongs to (a `[[theme]]`).
    pub theme: String,
    pub word: String,
    /// How it ties to the Ruler's past.
    pub origin: String,
}

/// A story a Ruler is drawn from (`src/nw3/ruler_story.rs`): its persona (`[[nw3.ruler]]`),
/// Core (`[[nw3.core]]`), former life, wish, keyword and place reason all name it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ThemeRecord {
    pub name: String,
    /// What the story is, for whoever writes its entries.
    pub about: String,
}

/// A line of prose that belongs to one Ruler's story (a `[[theme]]`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ThemedLine {
    pub theme: String,
    pub text: String,
    /// The sex a former life tells of ("a fisherman", "a widow"), when it tells one: the former
    /// name and the persona must agree with it (`src/nw3/facts.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<Sex>,
}

/// A person's sex, as a name or a text tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum Sex {
    #[serde(rename = "f")]
    Female,
    #[serde(rename = "m")]
    Male,
}

/// A given name, with the sex it is given to (none for a name given to either).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NameRecord {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<Sex>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ItemRecord {
    pub name: String,
    /// Where and how it is found (`{where}` in scenes).
    #[serde(rename = "where")]
    pub where_found: String,
}

/// What an opening scene plants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Plant {
    Keyword,
    Item,
    Victim,
    Logic,
    Trouble,
    /// Where the Fortress stands (a Connection's word in a PC's Opening, `src/nw3/episode/scenes.rs`).
    Place,
}

impl Plant {
    pub fn label(self) -> &'static str {
        match self {
            Plant::Keyword => "the keyword",
            Plant::Item => "the item",
            Plant::Victim => "the victim",
            Plant::Logic => "the first sign of the Logic",
            Plant::Trouble => "the trouble",
            Plant::Place => "where the Fortress stands",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningRecord {
    pub plants: Plant,
    pub title: String,
    pub text: String,
}

/// What a PC's Connection says in their Opening scene (`[[scene_says]]`): a line that points at
/// the fact the scene plants.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SaysRecord {
    pub plants: Plant,
    pub text: String,
}

/// Where the party comes together and why (`[[scene_party]]`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PartyRecord {
    /// A place in the town, as a phrase ("the night bus shelter across from the {place}").
    pub at: String,
    pub text: String,
}

/// A Middle Phase Master Scene (`[[master_scene]]`): what the Casket does while the PCs dig.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MasterRecord {
    pub title: String,
    pub text: String,
}

/// What a legwork item is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Topic {
    Entrance,
    Ruler,
    Weakness,
    Logic,
    SecretGate,
    Core,
    Victim,
}

impl Topic {
    pub const ALL: [Topic; 7] =
        [Topic::Entrance, Topic::Ruler, Topic::Weakness, Topic::Logic, Topic::SecretGate, Topic::Core, Topic::Victim];

    pub fn label(self) -> &'static str {
        match self {
            Topic::Entrance => "entrance",
            Topic::Ruler => "ruler",
            Topic::Weakness => "weakness",
            Topic::Logic => "logic",
            Topic::SecretGate => "secret_gate",
            Topic::Core => "core",
            Topic::Victim => "victim",
        }
    }
}

/// The six Attributes an Information Gathering judge may use (seed 000 l.508-514: Attributes,
/// never Combat Stats).
pub const ATTRIBUTES: [&str; 6] = ["Strength", "Finesse", "Awareness", "Knowledge", "Spirit", "Luck"];

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LegworkRecord {
    pub topic: Topic,
    pub title: String,
    pub attribute: String,
    pub text: String,
    /// How hard its judge is (optional): a topic that shows the way onward is ordinary whatever
    /// this says, the others hard unless it says ordinary (`nw3::rules::legwork_hardness`).
    #[serde(default)]
    pub hardness: Option<crate::tables::judge::Hardness>,
}

/// How the Dive can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Way {
    RulerDefeated,
    CoreBroken,
    Retreat,
    Fall,
}

impl Way {
    pub const ALL: [Way; 4] = [Way::RulerDefeated, Way::CoreBroken, Way::Retreat, Way::Fall];

    pub fn label(self) -> &'static str {
        match self {
            Way::RulerDefeated => "The Ruler defeated",
            Way::CoreBroken => "The Fortress Core broken",
            Way::Retreat => "The party retreats",
            Way::Fall => "The party falls",
        }
    }

    /// The XP each player gets (seed 000 l.556: the GM gives 5 to 10 XP after the episode; the
    /// split by ending is ours, see tables/nw3/NOTES.md).
    pub fn xp(self) -> u32 {
        match self {
            Way::RulerDefeated => 10,
            Way::CoreBroken => 8,
            Way::Retreat => 6,
            Way::Fall => 5,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EndingRecord {
    pub way: Way,
    pub text: String,
    /// What the text claims about the finale: drawn only where each claim holds.
    #[serde(default)]
    pub needs: Vec<Claim>,
}

/// A Climax scene line, set in the Ruler's area (`{lair}`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClimaxRecord {
    pub text: String,
    /// What the text claims about the finale (a Core shown in the room: `core_beside`).
    #[serde(default)]
    pub needs: Vec<Claim>,
}

/// The whole episode file (every section at the top level).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EpisodeData {
    #[serde(default)]
    pub trailer_open: Vec<Line>,
    #[serde(default)]
    pub trailer_turn: Vec<Line>,
    #[serde(default)]
    pub trailer_close: Vec<Line>,
    #[serde(default)]
    pub connection: Vec<ConnectionRecord>,
    #[serde(default)]
    pub hook: Vec<Line>,
    #[serde(default)]
    pub given_name: Vec<NameRecord>,
    #[serde(default)]
    pub family_name: Vec<Line>,
    #[serde(default)]
    pub theme: Vec<ThemeRecord>,
    #[serde(default)]
    pub former_life: Vec<ThemedLine>,
    #[serde(default)]
    pub wish: Vec<ThemedLine>,
    #[serde(default)]
    pub place_reason: Vec<ThemedLine>,
    #[serde(default)]
    pub victim_reason: Vec<Line>,
    /// What the Ruler says when met: a line with claims, drawn as the Climax scene is.
    #[serde(default)]
    pub ruler_line: Vec<ClimaxRecord>,
    #[serde(default)]
    pub keyword: Vec<KeywordRecord>,
    #[serde(default)]
    pub item: Vec<ItemRecord>,
    #[serde(default)]
    pub opening: Vec<OpeningRecord>,
    #[serde(default)]
    pub legwork: Vec<LegworkRecord>,
    #[serde(default)]
    pub climax: Vec<ClimaxRecord>,
    #[serde(default)]
    pub ending: Vec<EndingRecord>,
    #[serde(default)]
    pub scene_place: Vec<Line>,
    #[serde(default)]
    pub scene_says: Vec<SaysRecord>,
    #[serde(default)]
    pub scene_party: Vec<PartyRecord>,
    #[serde(default)]
    pub master_scene: Vec<MasterRecord>,
    #[serde(default)]
    pub area_adjective: Vec<Line>,
    #[serde(default)]
    pub area_noun: Vec<Line>,
    #[serde(default)]
    pub area_detail: Vec<Line>,
}

/// The most connections a party needs (one per PC, each different).
const PARTY_MAX: usize = 8;

impl EpisodeData {
    /// True when the tables hold no episode pools (a tables folder without `nw3/episode.toml`).
    pub fn is_empty(&self) -> bool {
        self.trailer_open.is_empty() && self.connection.is_empty() && self.opening.is_empty()
    }

    /// The sections of one-line texts that belong to a Ruler's story.
    pub fn themed(&self) -> [(&'static str, &[ThemedLine]); 3] {
        [("former_life", &self.former_life), ("wish", &self.wish), ("place_reason", &self.place_reason)]
    }

    /// Every text of the file with the section it is in, for the placeholder check.
    fn texts(&self) -> Vec<(&'static str, &str)> {
        let mut v: Vec<(&'static str, &str)> = Vec::new();
        let lines: [(&'static str, &Vec<Line>); 10] = [
            ("trailer_open", &self.trailer_open),
            ("trailer_turn", &self.trailer_turn),
            ("trailer_close", &self.trailer_close),
            ("hook", &self.hook),
            ("family_name", &self.family_name),
            ("victim_reason", &self.victim_reason),
            ("scene_place", &self.scene_place),
            ("area_adjective", &self.area_adjective),
            ("area_noun", &self.area_noun),
            ("area_detail", &self.area_detail),
        ];
        for (section, list) in lines {
            v.extend(list.iter().map(|l| (section, l.text.as_str())));
        }
        v.extend(self.given_name.iter().map(|n| ("given_name", n.text.as_str())));
        for (section, list) in self.themed() {
            v.extend(list.iter().map(|l| (section, l.text.as_str())));
        }
        for c in &self.connection {
            v.extend([("connection.name", c.name.as_str()), ("connection", c.who.as_str())]);
        }
        for k in &self.keyword {
            v.extend([("keyword.word", k.word.as_str()), ("keyword", k.origin.as_str())]);
        }
        for i in &self.item {
            v.extend([("item.name", i.name.as_str()), ("item", i.where_found.as_str())]);
        }
        for o in &self.opening {
            v.extend([("opening", o.title.as_str()), ("opening", o.text.as_str())]);
        }
        for l in &self.legwork {
            v.extend([("legwork", l.title.as_str()), ("legwork", l.text.as_str())]);
        }
        v.extend(self.scene_says.iter().map(|x| ("scene_says", x.text.as_str())));
        for x in &self.scene_party {
            v.extend([("scene_party", x.at.as_str()), ("scene_party", x.text.as_str())]);
        }
        for x in &self.master_scene {
            v.extend([("master_scene", x.title.as_str()), ("master_scene", x.text.as_str())]);
        }
        v.extend(self.climax.iter().map(|c| ("climax", c.text.as_str())));
        v.extend(self.ruler_line.iter().map(|c| ("ruler_line", c.text.as_str())));
        v.extend(self.ending.iter().map(|e| ("ending", e.text.as_str())));
        v
    }

    /// Checks the pools a generator needs: texts present, placeholders known, an Attribute on
    /// every legwork item, an opening scene for each thing a scene must plant, an ending for each
    /// way, enough connections for a party of eight, and scenes that name what they plant.
    pub fn validate(&self, file: &str) -> Result<()> {
        let err = |message: String| Error::TableFile { file: file.to_string(), message };
        for (section, text) in self.texts() {
            if text.trim().is_empty() {
                return Err(err(format!("[[{section}]] has an empty text")));
            }
            if let Some(why) = crate::text::unknown(text, crate::tables::slots::of(crate::tables::slots::NW3, section))
            {
                let table = section.split('.').next().unwrap_or(section);
                return Err(err(format!("[[{table}]] `{}` {why}", short(text))));
            }
        }
        let counts = [
            ("trailer_open", self.trailer_open.len(), 1),
            ("trailer_turn", self.trailer_turn.len(), 1),
            ("trailer_close", self.trailer_close.len(), 1),
            ("connection", self.connection.len(), PARTY_MAX),
            ("hook", self.hook.len(), 1),
            ("given_name", self.given_name.len(), 2),
            ("family_name", self.family_name.len(), 2),
            ("former_life", self.former_life.len(), 1),
            ("wish", self.wish.len(), 1),
            ("place_reason", self.place_reason.len(), 1),
            ("victim_reason", self.victim_reason.len(), 1),
            ("ruler_line", self.ruler_line.len(), 1),
            ("keyword", self.keyword.len(), 1),
            ("item", self.item.len(), 1),
            ("climax", self.climax.len(), 1),
            ("area_adjective", self.area_adjective.len(), 1),
            ("area_noun", self.area_noun.len(), 1),
            ("area_detail", self.area_detail.len(), 2),
        ];
        for (section, n, min) in counts {
            if n < min {
                return Err(err(format!("the episode pools need at least {min} [[{section}]] (found {n})")));
            }
        }
        // The themes are checked with the persona and Core records (`tables::nw3_themes`).
        self.validate_kinds(&err)
    }

    /// Each opening kind, legwork topic, ending way and outcome kind present, and each record
    /// consistent with its kind.
    fn validate_kinds(&self, err: &dyn Fn(String) -> Error) -> Result<()> {
        for plant in [Plant::Keyword, Plant::Item, Plant::Victim, Plant::Logic] {
            if !self.opening.iter().any(|o| o.plants == plant) {
                return Err(err(format!("the episode pools need an [[opening]] that plants {}", plant.label())));
            }
        }
        for o in &self.opening {
            let needs: &[&str] = match o.plants {
                Plant::Keyword => &["{keyword}"],
                Plant::Item => &["{item}", "{where}"],
                Plant::Victim => &["{victim}"],
                Plant::Place => &["{place}"],
                Plant::Logic | Plant::Trouble => &[],
            };
            if let Some(p) = needs.iter().find(|p| !o.text.contains(**p)) {
                return Err(err(format!("[[opening]] `{}` plants {} but never says `{p}`", o.title, o.plants.label())));
            }
        }
        for l in &self.legwork {
            if !ATTRIBUTES.contains(&l.attribute.as_str()) {
                return Err(err(format!(
                    "[[legwork]] `{}` is judged by `{}`, not an Attribute ({})",
                    l.title,
                    l.attribute,
                    ATTRIBUTES.join(", ")
                )));
            }
        }
        for topic in [Topic::Entrance, Topic::Ruler, Topic::Core] {
            if !self.legwork.iter().any(|l| l.topic == topic) {
                return Err(err(format!("the episode pools need a [[legwork]] item on `{}`", topic.label())));
            }
        }
        for way in Way::ALL {
            if !self.ending.iter().any(|e| e.way == way) {
                return Err(err(format!("the episode pools need an [[ending]] for `{}`", way.label())));
            }
        }
        validate_finale_pools(self).map_err(err)?;
        validate_hooks(&self.hook).map_err(err)?;
        self.validate_scene_pools(err)?;
        self.validate_connection_names(err)
    }

    /// The scene pools the planned Opening and Middle Phase draw from (`src/nw3/episode/scenes.rs`):
    /// a meeting place for each PC of a party of eight, a Connection's line for each fact a PC's
    /// scene can plant that says it, a party scene and a Master Scene.
    fn validate_scene_pools(&self, err: &dyn Fn(String) -> Error) -> Result<()> {
        let counts = [
            ("scene_place", self.scene_place.len(), PARTY_MAX),
            ("scene_party", self.scene_party.len(), 1),
            ("master_scene", self.master_scene.len(), 1),
        ];
        for (section, n, min) in counts {
            if n < min {
                return Err(err(format!("the episode pools need at least {min} [[{section}]] (found {n})")));
            }
        }
        for plant in [Plant::Keyword, Plant::Item, Plant::Victim, Plant::Trouble, Plant::Place] {
            if !self.scene_says.iter().any(|x| x.plants == plant) {
                return Err(err(format!("the episode pools need a [[scene_says]] that plants {}", plant.label())));
            }
        }
        for x in &self.scene_says {
            let needs: &[&str] = match x.plants {
                Plant::Keyword => &["keyword", "npc"],
                Plant::Item => &["item", "npc"],
                Plant::Victim => &["victim", "npc"],
                Plant::Place | Plant::Trouble => &["place", "npc"],
                Plant::Logic => &["npc"],
            };
            // A slot with a filter (`{victim|poss}`) says it too.
            let said: Vec<&str> = crate::text::slots(&x.text).map(|s| s.name).collect();
            if let Some(p) = needs.iter().find(|p| !said.contains(*p)) {
                let m =
                    format!("[[scene_says]] `{}` plants {} but never says `{{{p}}}`", short(&x.text), x.plants.label());
                return Err(err(m));
            }
        }
        Ok(())
    }

    /// The victim and the Ruler's former self are named from `given_name` and `family_name`; a
    /// Connection those pools could also name would make two people of one name in a handout.
    fn validate_connection_names(&self, err: &dyn Fn(String) -> Error) -> Result<()> {
        for c in self.connection.iter().filter(|c| !c.setting) {
            let mut words = c.name.split_whitespace();
            if let (Some(given), Some(family), None) = (words.next(), words.next(), words.next())
                && self.given_name.iter().any(|t| t.text == given)
                && self.family_name.iter().any(|t| t.text == family)
            {
                return Err(err(format!(
                    "[[connection]] `{}` is a name the [[given_name]] and [[family_name]] pools can also give a victim; \
                     change one of its names",
                    c.name
                )));
            }
        }
        Ok(())
    }
}

/// The first words of a text, for a message.
pub(crate) fn short(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// The slots a hook may name to tie the PC to this episode: a person, a place or a stake.
pub const HOOK_TIES: [&str; 4] = ["victim", "place", "ruler", "core"];

/// Every `[[hook]]` names one of [`HOOK_TIES`]: a hook that names only the PC's Connection and
/// the town gives the PC no reason to act.
pub fn validate_hooks(hooks: &[Line]) -> Result<(), String> {
    for h in hooks {
        if !crate::text::slots(&h.text).any(|s| HOOK_TIES.contains(&s.name)) {
            return Err(format!(
                "[[hook]] `{}` names no person, place or stake of the episode (one of {})",
                short(&h.text),
                HOOK_TIES.map(|t| format!("{{{t}}}")).join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in tables with the episode file's text changed.
    fn with_episode(edit: impl Fn(&str) -> String) -> Result<crate::tables::Tables> {
        let files: Vec<(String, String)> = crate::tables::EMBEDDED_TABLES
            .iter()
            .map(|(p, t)| (p.to_string(), if *p == EPISODE_FILE { edit(t) } else { t.to_string() }))
            .collect();
        crate::tables::Tables::from_files("test".into(), &files)
    }

    #[test]
    fn the_episode_file_loads_by_its_own_schema() {
        let t = with_episode(str::to_string).expect("the built-in episode pools load");
        assert!(!t.nw3.episode.is_empty());
        assert_eq!(
            t.nw3.episode.connection.len(),
            crate::tables::Tables::embedded().unwrap().nw3.episode.connection.len()
        );
    }

    #[test]
    fn an_episode_text_with_an_unknown_placeholder_is_refused_naming_the_section() {
        let e =
            with_episode(|t| format!("{t}\n[[hook]]\ntext = \"{{npc}} meets {{moon}}\"\n")).unwrap_err().to_string();
        assert!(e.contains("nw3/episode.toml") && e.contains("[[hook]]") && e.contains("{moon}"), "{e}");
    }

    #[test]
    fn an_opening_that_plants_the_item_must_say_where_it_is_found() {
        let e = with_episode(|t| {
            format!("{t}\n[[opening]]\nplants = \"item\"\ntitle = \"Lost\"\ntext = \"The {{item}} lies somewhere.\"\n")
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("`Lost`") && e.contains("{where}"), "{e}");
    }

    #[test]
    fn a_connection_line_that_never_says_its_fact_is_refused() {
        let e = with_episode(|t| format!("{t}\n[[scene_says]]\nplants = \"victim\"\ntext = \"{{npc}} shrugs.\"\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("[[scene_says]]") && e.contains("{victim}"), "{e}");
        // A slot with a filter says its fact too.
        let line = "{npc} holds {victim|poss} keys.";
        assert!(with_episode(|t| format!("{t}\n[[scene_says]]\nplants = \"victim\"\ntext = \"{line}\"\n")).is_ok());
    }

    #[test]
    fn a_legwork_item_judged_by_a_combat_stat_is_refused() {
        let e = with_episode(|t| {
            format!("{t}\n[[legwork]]\ntopic = \"core\"\ntitle = \"Dodge it\"\nattribute = \"EVA\"\ntext = \"x\"\n")
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("`EVA`") && e.contains("not an Attribute"), "{e}");
    }

    #[test]
    fn a_connection_the_name_pools_could_also_make_is_refused() {
        let e = with_episode(|t| {
            let given = "[[given_name]]\ntext = \"Zzgiven\"\n";
            let family = "[[family_name]]\ntext = \"Zzfamily\"\n";
            format!(
                "{t}\n{given}\n{family}\n[[connection]]\nname = \"Zzgiven Zzfamily\"\nwho = \"x\"\nsetting = false\n"
            )
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("`Zzgiven Zzfamily`") && e.contains("[[given_name]]"), "{e}");
    }

    #[test]
    fn an_unknown_episode_section_is_an_error_naming_it() {
        let e = with_episode(|t| format!("{t}\n[[trailer_middle]]\ntext = \"x\"\n")).unwrap_err().to_string();
        assert!(e.contains("trailer_middle"), "{e}");
    }

    #[test]
    fn the_xp_of_each_ending_stays_in_the_seeds_range_of_5_to_10() {
        for w in Way::ALL {
            assert!((5..=10).contains(&w.xp()), "{w:?}");
        }
    }
}

/// What a Climax or ending text asserts about the finale; an entry is drawn only when each of
/// its claims holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// The Core stands in the Ruler's own area (the text shows them together).
    CoreBeside,
    /// The Core lies in another area than the Ruler's.
    CoreApart,
    /// The Core can be broken before the Ruler falls.
    CoreFirst,
    /// The Ruler grants the party leave to go (the third way out, l.868).
    RulerLeave,
    /// The Ruler lets nobody go (its persona bars the door): it grants no leave.
    BarsDoor,
    /// The party can walk back from the Ruler's area to the Entrance.
    WayBack,
    /// The Ruler leaves its Casket (its tactics must allow it, and a Core must hold the Casket).
    RulerFlees,
}

impl Claim {
    pub fn label(self) -> &'static str {
        match self {
            Claim::CoreBeside => "core_beside",
            Claim::CoreApart => "core_apart",
            Claim::CoreFirst => "core_first",
            Claim::RulerLeave => "ruler_leave",
            Claim::BarsDoor => "bars_door",
            Claim::WayBack => "way_back",
            Claim::RulerFlees => "ruler_flees",
        }
    }
}

/// The pool rules the finale relies on: a retreat entry says the Ruler gave its leave, a Climax
/// entry that shows the Core in the room claims `core_beside`, and every finale finds a Climax
/// entry and an entry for each way (one that claims nothing beyond the Ruler's leave).
pub fn validate_finale_pools(e: &EpisodeData) -> Result<(), String> {
    for x in &e.ending {
        if x.way == Way::Retreat && !x.needs.contains(&Claim::RulerLeave) {
            return Err(format!(
                "[[ending]] `{}` retreats without `needs = [\"ruler_leave\"]` (the Ruler's leave is the only way out, seed 000 l.863-871)",
                short(&x.text)
            ));
        }
    }
    if let Some(c) = e.climax.iter().find(|c| c.text.contains("{core}") && !c.needs.contains(&Claim::CoreBeside)) {
        return Err(format!(
            "[[climax]] `{}` shows the {{core}} in the Ruler's area without `needs = [\"core_beside\"]`",
            short(&c.text)
        ));
    }
    if !e.climax.iter().any(|c| c.needs.is_empty()) {
        return Err("the episode pools need a [[climax]] that claims nothing (`needs` empty), for every finale".into());
    }
    if !e.ruler_line.is_empty() && !e.ruler_line.iter().any(|c| c.needs.is_empty()) {
        return Err(
            "the episode pools need a [[ruler_line]] that claims nothing (`needs` empty), for every Ruler".into()
        );
    }
    for way in Way::ALL {
        if !e.ending.iter().any(|x| x.way == way && x.needs.iter().all(|&c| c == Claim::RulerLeave)) {
            return Err(format!(
                "the episode pools need an [[ending]] for `{}` that claims nothing beyond the Ruler's leave",
                way.label()
            ));
        }
    }
    Ok(())
}
