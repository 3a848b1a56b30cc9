//! The MYK scenario pools (`tables/myk/story.toml`, schema in the plan's `myk-story.md`): titles,
//! objectives, prologues, stakes, personalities, wants, ruler motives and lines, clue texts,
//! puzzles, mini events, Scenario Movement, success, failure, change, farewell and retry texts.
//!
//! The file's keys are all top-level arrays, so it is read as its own schema (a file named
//! `story.toml`), not as a part of the general table file. Every entry denies unknown fields.

use serde::Deserialize;

/// Every pool, merged over the story files (normally one).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoryPools {
    /// Each objective kind's name as a GM reads it (the workbench's objective picker); a kind
    /// without one shows its own name, so a tables folder from before the picker still works.
    #[serde(default)]
    pub objective_kind: Vec<KindLabel>,
    #[serde(default)]
    pub title: Vec<Title>,
    #[serde(default)]
    pub objective: Vec<KindText>,
    #[serde(default)]
    pub prologue: Vec<Prologue>,
    #[serde(default)]
    pub stake: Vec<Text>,
    #[serde(default)]
    pub personality: Vec<Personality>,
    #[serde(default)]
    pub want: Vec<Text>,
    #[serde(default)]
    pub ruler_motive: Vec<Text>,
    #[serde(default)]
    pub ruler_line: Vec<Text>,
    #[serde(default)]
    pub clue_search: Vec<Text>,
    #[serde(default)]
    pub clue_threat: Vec<ThreatText>,
    #[serde(default)]
    pub clue_talk: Vec<Talk>,
    #[serde(default)]
    pub clue_condition: Vec<Condition>,
    /// The players' text of a clue, keyed by the kind of fact it tells (issue 46).
    #[serde(default)]
    pub clue_fact: Vec<ClueFact>,
    #[serde(default)]
    pub puzzle: Vec<Puzzle>,
    #[serde(default)]
    pub mini_event: Vec<MiniEvent>,
    #[serde(default)]
    pub movement: Vec<Movement>,
    #[serde(default)]
    pub success: Vec<KindText>,
    #[serde(default)]
    pub failure: Vec<KindText>,
    #[serde(default)]
    pub change: Vec<Text>,
    #[serde(default)]
    pub farewell: Vec<Text>,
    #[serde(default)]
    pub retry: Vec<Text>,
    /// The lists the generator picks from, made at the first pick (see [`Picks`]).
    #[serde(skip)]
    picks: PickCache,
}

/// Each objective kind's entries of the pools a kind limits (title, objective, prologue,
/// success, failure), as places in those pools in file order, and each Scenario Movement entry's
/// action as a number (the place of the first entry with that action). A pick is then one draw
/// on a list: the same draw (`below(count)`) and the same entry as the filtered walk it
/// replaces, which ran over the whole pool twice and compared a string per entry.
#[derive(Clone, Debug, Default)]
struct Picks {
    kinds: Vec<KindLists>,
    movement_action: Vec<u32>,
}

/// One objective kind's entries of the kind-limited pools (see [`StoryPools::of_kind`]).
#[derive(Clone, Debug, Default)]
pub struct KindLists {
    pub title: Vec<u32>,
    pub objective: Vec<u32>,
    pub prologue: Vec<u32>,
    pub success: Vec<u32>,
    pub failure: Vec<u32>,
}

/// The pick lists, made once. They print the same made or not, so two loads of the same pools
/// print alike whichever of them has picked.
#[derive(Clone, Default)]
struct PickCache(std::sync::OnceLock<Picks>);

impl std::fmt::Debug for PickCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PickCache")
    }
}

impl Picks {
    fn of(p: &StoryPools) -> Picks {
        let places = |hits: &mut dyn Iterator<Item = bool>| (0u32..).zip(hits).filter(|x| x.1).map(|x| x.0).collect();
        let kinds = crate::tables::objective::ObjectiveKind::ALL
            .iter()
            .map(|k| {
                let k = k.name();
                let of = |list: &[KindText]| places(&mut list.iter().map(|e| e.kind == k));
                KindLists {
                    title: places(&mut p.title.iter().map(|t| fits(&t.kinds, k))),
                    objective: of(&p.objective),
                    prologue: places(&mut p.prologue.iter().map(|e| fits(&e.kinds, k))),
                    success: of(&p.success),
                    failure: of(&p.failure),
                }
            })
            .collect();
        let movement_action = (0u32..)
            .zip(&p.movement)
            .map(|(k, e)| p.movement.iter().position(|x| x.action == e.action).map_or(k, |i| i as u32))
            .collect();
        Picks { kinds, movement_action }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub text: StoryText,
}

/// What a threat clue's text speaks of: a beaten monster, a disarmed trap or a wrecked base, so a
/// clue behind a trap never reads "when the monster flees".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Threat {
    Monster,
    Trap,
    Base,
}

/// A threat clue's text and the threat it fits (absent: any).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreatText {
    pub text: StoryText,
    #[serde(default)]
    pub threat: Option<Threat>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Title {
    pub text: StoryText,
    #[serde(default)]
    pub kinds: Vec<String>,
}

/// An objective kind (`defeat`, `win_over`, ...) and the words a GM picks it by.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindLabel {
    pub kind: String,
    pub label: String,
}

/// A text for one objective kind (objective, success, failure).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindText {
    pub kind: String,
    pub text: StoryText,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prologue {
    pub form: String,
    #[serde(default)]
    pub kinds: Vec<String>,
    pub who: StoryText,
    pub problem: StoryText,
    pub offer: StoryText,
    /// The patron's job as this Prologue presents them ("a cooper from the lower ward"): the
    /// cast's patron takes it as their role, and `{patron_job}` reads it from there.
    #[serde(default)]
    pub job: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Personality {
    pub name: String,
    pub meaning: String,
    pub lines: Vec<StoryText>,
    /// Lines that fit only some objective kinds ("No hurry" is no line for a race).
    #[serde(default)]
    pub kind_lines: Vec<KindLine>,
}

/// A personality's line for the objective kinds it names.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindLine {
    pub text: StoryText,
    pub kinds: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Talk {
    pub ask: StoryText,
    pub text: StoryText,
}

/// The kind of fact a clue tells (`clues::facts`), as a `[[clue_fact]]` entry declares it: the
/// entry is drawn only for a clue of that kind, and may name only that kind's slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// Where a ruler without weak points waits.
    Ruler,
    /// Where a ruler waits and its weak points (the text names `{weak_points}`).
    WeakPoint,
    SecretDoor,
    /// A trap that carries the court to another room.
    Teleport,
    Trap,
    Base,
    Monsters,
    Safe,
    CorridorTrap,
    /// Where the objective's target is.
    Target,
}

impl FactKind {
    /// The slot-table kind of its texts (`clue_fact.trap`...; see [`crate::tables::slots::MYK`]).
    pub fn section(self) -> &'static str {
        match self {
            FactKind::Ruler => "clue_fact.ruler",
            FactKind::WeakPoint => "clue_fact.weak_point",
            FactKind::SecretDoor => "clue_fact.secret_door",
            FactKind::Teleport => "clue_fact.teleport",
            FactKind::Trap => "clue_fact.trap",
            FactKind::Base => "clue_fact.base",
            FactKind::Monsters => "clue_fact.monsters",
            FactKind::Safe => "clue_fact.safe",
            FactKind::CorridorTrap => "clue_fact.corridor_trap",
            FactKind::Target => "clue_fact.target",
        }
    }
}

/// How a `[[clue_fact]]` text may be learned: a find (search, behind a threat, behind a solved
/// puzzle) or an answer (talk, with its `ask`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClueWay {
    Search,
    Threat,
    Talk,
    Puzzle,
}

/// The players' text of a clue for one kind of fact: what a search turns up, a beaten threat
/// leaves, a solved puzzle opens, or an NPC answers to `ask`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClueFact {
    pub fact: FactKind,
    pub methods: Vec<ClueWay>,
    /// A threat text that speaks of one kind of threat (absent: any).
    #[serde(default)]
    pub threat: Option<Threat>,
    /// The question a talk text answers.
    #[serde(default)]
    pub ask: Option<StoryText>,
    /// Objective kinds a target text fits (absent: any).
    #[serde(default)]
    pub kinds: Vec<String>,
    pub text: StoryText,
}

impl ClueFact {
    /// Why the entry cannot be drawn as it stands, or `None`.
    fn problem(&self) -> Option<String> {
        if self.methods.is_empty() {
            return Some("lists no `methods`".into());
        }
        if self.methods.contains(&ClueWay::Talk) != self.ask.is_some() {
            return Some("needs an `ask` exactly when its `methods` hold `talk`".into());
        }
        // A weak point's clue is how the court learns it: the text must say it, as a fact of the
        // ruler (`{weak_tell}`) or, in a GM's own pool, by name (`{weak_points}`).
        let says = |s: crate::text::Slot| s.name == "weak_tell" || s.name == "weak_points";
        if self.fact == FactKind::WeakPoint && !crate::text::slots(&self.text).any(says) {
            return Some("tells a weak point but does not say it (`{weak_tell}`)".into());
        }
        None
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub kind: String,
    pub text: StoryText,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    pub text: String,
    pub answer: String,
    pub hints: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MiniEvent {
    pub kind: String,
    pub title: StoryText,
    pub text: StoryText,
    pub outcome: StoryText,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub action: String,
    pub text: StoryText,
    pub prevent: StoryText,
    /// Who acts (see [`Actor`]).
    #[serde(default)]
    pub actor: Actor,
    /// The objective kinds the entry is written for (empty: any kind).
    #[serde(default)]
    pub kinds: Vec<String>,
    /// What the map must hold for the entry to be drawn (see [`Need`]).
    #[serde(default)]
    pub needs: Vec<Need>,
}

/// Who a Scenario Movement entry has act (the book gives the action to a single NPC, seed 003
/// l.6296): the objective map's ruler, the guards who hold the objective's NPC in its room, or
/// the searched-for target itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Actor {
    #[default]
    Ruler,
    Jailers,
    Quarry,
}

/// A claim a Scenario Movement entry's text makes about the map; the entry is drawn only where
/// it holds (`crate::myk::movement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Need {
    /// The room left has two corridors or more ("out of the other door").
    TwoExits,
    /// The move ends nearer to the objective's room.
    TowardGoal,
    /// The move ends farther from the objective's room.
    AwayFromGoal,
    /// The move ends nearer to the map's way in.
    TowardEntry,
    /// The move ends farther from the map's way in.
    AwayFromEntry,
    /// The actor stands in the objective's room.
    AtGoal,
}

/// A pool text as the file writes it, slots and all ([`crate::text`]); its slots are checked
/// against its kind's when the tables load ([`StoryPools::check_slots`]).
#[derive(Clone, Deserialize)]
#[serde(from = "String")]
pub struct StoryText {
    text: String,
}

impl From<String> for StoryText {
    fn from(text: String) -> StoryText {
        StoryText { text }
    }
}

/// Printed as its text.
impl std::fmt::Debug for StoryText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.text, f)
    }
}

impl StoryText {
    /// The text as written, slots and all.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl std::ops::Deref for StoryText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

/// Whether an entry limited to `kinds` fits the objective kind `kind` (no list: any kind).
pub fn fits(kinds: &[String], kind: &str) -> bool {
    kinds.is_empty() || kinds.iter().any(|k| k == kind)
}

/// The file name the story pools are read from, in any folder of the tables.
pub const FILE_NAME: &str = "story.toml";

/// Whether a table file (path relative to the tables folder) holds story pools.
pub fn is_story_file(path: &str) -> bool {
    path == FILE_NAME || path.ends_with(&["/", FILE_NAME].concat())
}

impl StoryPools {
    /// Adds another file's pools after these.
    pub fn extend(&mut self, o: StoryPools) {
        self.objective_kind.extend(o.objective_kind);
        self.title.extend(o.title);
        self.objective.extend(o.objective);
        self.prologue.extend(o.prologue);
        self.stake.extend(o.stake);
        self.personality.extend(o.personality);
        self.want.extend(o.want);
        self.ruler_motive.extend(o.ruler_motive);
        self.ruler_line.extend(o.ruler_line);
        self.clue_search.extend(o.clue_search);
        self.clue_threat.extend(o.clue_threat);
        self.clue_talk.extend(o.clue_talk);
        self.clue_condition.extend(o.clue_condition);
        self.clue_fact.extend(o.clue_fact);
        self.puzzle.extend(o.puzzle);
        self.mini_event.extend(o.mini_event);
        self.movement.extend(o.movement);
        self.success.extend(o.success);
        self.failure.extend(o.failure);
        self.change.extend(o.change);
        self.farewell.extend(o.farewell);
        self.retry.extend(o.retry);
        // Lists made before this file's entries joined would miss them.
        self.picks = PickCache::default();
    }

    fn picks(&self) -> &Picks {
        self.picks.0.get_or_init(|| Picks::of(self))
    }

    /// The entries of the kind-limited pools that fit objective kind `kind`.
    pub fn of_kind(&self, kind: crate::tables::objective::ObjectiveKind) -> &KindLists {
        let i = crate::tables::objective::ObjectiveKind::ALL.iter().position(|&k| k == kind).unwrap_or_default();
        &self.picks().kinds[i]
    }

    /// Each Scenario Movement entry's action as a number: two entries share one when they share
    /// their action.
    pub fn movement_actions(&self) -> &[u32] {
        &self.picks().movement_action
    }

    /// The label of objective kind `kind` (its name with spaces when the pools give none).
    pub fn kind_label(&self, kind: &str) -> String {
        self.objective_kind.iter().find(|e| e.kind == kind).map_or_else(|| kind.replace('_', " "), |e| e.label.clone())
    }

    /// Every text of these pools with its section and its place in it (1 for the first entry),
    /// for the slot check.
    fn texts(&self) -> Vec<(&'static str, usize, &str)> {
        let mut v: Vec<(&'static str, usize, &str)> = Vec::new();
        let plain: [(&'static str, &[Text]); 8] = [
            ("stake", &self.stake),
            ("want", &self.want),
            ("ruler_motive", &self.ruler_motive),
            ("ruler_line", &self.ruler_line),
            ("clue_search", &self.clue_search),
            ("change", &self.change),
            ("farewell", &self.farewell),
            ("retry", &self.retry),
        ];
        for (section, list) in plain {
            v.extend(list.iter().enumerate().map(|(i, t)| (section, i + 1, t.text.as_str())));
        }
        v.extend(self.clue_threat.iter().enumerate().map(|(i, t)| ("clue_threat", i + 1, t.text.as_str())));
        v.extend(self.title.iter().enumerate().map(|(i, t)| ("title", i + 1, t.text.as_str())));
        for (section, list) in [("objective", &self.objective), ("success", &self.success), ("failure", &self.failure)]
        {
            v.extend(list.iter().enumerate().map(|(i, t)| (section, i + 1, t.text.as_str())));
        }
        for (i, p) in self.prologue.iter().enumerate() {
            v.extend([p.who.as_str(), &p.problem, &p.offer].map(|t| ("prologue", i + 1, t)));
        }
        for (i, p) in self.personality.iter().enumerate() {
            v.extend(p.lines.iter().map(|l| ("personality", i + 1, l.as_str())));
            v.extend(p.kind_lines.iter().map(|l| ("personality", i + 1, l.text.as_str())));
        }
        for (i, t) in self.clue_talk.iter().enumerate() {
            v.extend([t.ask.as_str(), &t.text].map(|t| ("clue_talk", i + 1, t)));
        }
        v.extend(self.clue_condition.iter().enumerate().map(|(i, t)| ("clue_condition", i + 1, t.text.as_str())));
        for (i, e) in self.clue_fact.iter().enumerate() {
            let section = e.fact.section();
            v.extend(e.ask.iter().map(|a| (section, i + 1, a.as_str())));
            v.push((section, i + 1, e.text.as_str()));
        }
        for (i, p) in self.puzzle.iter().enumerate() {
            v.extend([p.text.as_str(), &p.answer].map(|t| ("puzzle", i + 1, t)));
            v.extend(p.hints.iter().map(|h| ("puzzle", i + 1, h.as_str())));
        }
        for (i, e) in self.mini_event.iter().enumerate() {
            v.extend([e.title.as_str(), &e.text, &e.outcome].map(|t| ("mini_event", i + 1, t)));
        }
        for (i, e) in self.movement.iter().enumerate() {
            v.extend([e.text.as_str(), &e.prevent].map(|t| ("movement", i + 1, t)));
        }
        v
    }

    /// Refuses a text that names a slot its kind does not bind, or holds a brace that opens no
    /// slot: one line naming the file, the entry and the slot ([`crate::tables::slots::MYK`]).
    pub fn check_slots(&self, file: &str) -> Result<(), crate::error::Error> {
        for (i, e) in self.clue_fact.iter().enumerate() {
            if let Some(why) = e.problem() {
                return Err(crate::error::Error::TableFile {
                    file: file.to_string(),
                    message: format!("[[clue_fact]] entry {} (`{}`) {why}", i + 1, short(&e.text)),
                });
            }
        }
        for (section, n, text) in self.texts() {
            if let Some(why) = crate::text::unknown(text, crate::tables::slots::of(crate::tables::slots::MYK, section))
            {
                return Err(crate::error::Error::TableFile {
                    file: file.to_string(),
                    message: format!("[[{section}]] entry {n} (`{}`) {why}", short(text)),
                });
            }
        }
        Ok(())
    }

    /// Refuses an entry whose `kinds` names no objective kind (a typo would silently keep the
    /// entry out of every scenario): one line naming the file, the entry and the word.
    pub fn check_kinds(&self, file: &str) -> Result<(), crate::error::Error> {
        let mut lists: Vec<(&str, usize, &[String])> = Vec::new();
        lists.extend(self.title.iter().enumerate().map(|(i, e)| ("title", i + 1, e.kinds.as_slice())));
        lists.extend(self.prologue.iter().enumerate().map(|(i, e)| ("prologue", i + 1, e.kinds.as_slice())));
        for (i, p) in self.personality.iter().enumerate() {
            lists.extend(p.kind_lines.iter().map(|l| ("personality", i + 1, l.kinds.as_slice())));
        }
        lists.extend(self.clue_fact.iter().enumerate().map(|(i, e)| (e.fact.section(), i + 1, e.kinds.as_slice())));
        lists.extend(self.movement.iter().enumerate().map(|(i, e)| ("movement", i + 1, e.kinds.as_slice())));
        let all = crate::tables::objective::ObjectiveKind::ALL.map(|k| k.name());
        for (section, n, kinds) in lists {
            // The name exactly as `fits` compares it ("win_over", not "win-over").
            if let Some(k) = kinds.iter().find(|k| !all.contains(&k.as_str())) {
                return Err(crate::error::Error::TableFile {
                    file: file.to_string(),
                    message: format!(
                        "[[{section}]] entry {n}: `kinds` lists `{k}`, which is not an objective kind ({})",
                        all.join(", ")
                    ),
                });
            }
        }
        Ok(())
    }

    /// Why the pools cannot make a scenario (a pool the generator draws from is empty, or an
    /// objective kind has no objective text), or `None`.
    pub fn problem(&self) -> Option<String> {
        let empty = [
            ("title", self.title.is_empty()),
            ("prologue", self.prologue.is_empty()),
            ("stake", self.stake.is_empty()),
            ("personality", self.personality.is_empty()),
            ("want", self.want.is_empty()),
            ("ruler_motive", self.ruler_motive.is_empty()),
            ("ruler_line", self.ruler_line.is_empty()),
            ("clue_search", self.clue_search.is_empty()),
            ("clue_threat", self.clue_threat.is_empty()),
            ("clue_talk", self.clue_talk.is_empty()),
            ("clue_condition", self.clue_condition.is_empty()),
            ("puzzle", self.puzzle.is_empty()),
            ("mini_event", self.mini_event.is_empty()),
            ("movement", self.movement.is_empty()),
            ("change", self.change.is_empty()),
            ("farewell", self.farewell.is_empty()),
            ("retry", self.retry.is_empty()),
        ];
        if let Some((pool, _)) = empty.iter().find(|(_, e)| *e) {
            return Some(format!("the story pool `[[{pool}]]` is empty"));
        }
        if let Some(p) = self.personality.iter().find(|p| p.lines.is_empty()) {
            return Some(format!("personality `{}` has no `lines`", p.name));
        }
        // An answer of white space only, read up to its first other character (not trimmed).
        if let Some(p) = self.puzzle.iter().find(|p| p.hints.is_empty() || p.answer.chars().all(char::is_whitespace)) {
            return Some(format!("the puzzle `{}` needs an `answer` and one or two `hints`", p.text));
        }
        // The pick lists hold each kind's entries, so a kind with none is an empty list (the
        // generator checks this per scenario: no walk over the pools).
        for kind in crate::tables::objective::ObjectiveKind::ALL {
            let lists = self.of_kind(kind);
            for (pool, list) in
                [("objective", &lists.objective), ("success", &lists.success), ("failure", &lists.failure)]
            {
                if list.is_empty() {
                    return Some(format!("the story pool `[[{pool}]]` has no entry of kind `{}`", kind.name()));
                }
            }
        }
        None
    }
}

/// The first words of a text, for a message.
pub fn short(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}
