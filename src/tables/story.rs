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
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Personality {
    pub name: String,
    pub meaning: String,
    pub lines: Vec<StoryText>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Talk {
    pub ask: StoryText,
    pub text: StoryText,
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
}

/// The placeholders a story text may hold, without braces; a [`Slot`] names one by its place
/// here (the order of `myk::story::Fill`'s values).
pub const PLACEHOLDERS: [&str; 15] = [
    "kingdom",
    "map",
    "ruler",
    "target",
    "target_room",
    "target_at",
    "patron",
    "captive",
    "rival",
    "rival_kingdom",
    "item",
    "npc",
    "member",
    "reward",
    "gift",
];

/// One placeholder in a text: `text[open..=close]` reads `{name}`, `name` a place in
/// [`PLACEHOLDERS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub open: usize,
    pub close: usize,
    pub name: u8,
}

/// The placeholders of `t` in text order, by the one rule every fill follows: a `{` opens a
/// placeholder that the next `}` closes, unless another `{` comes first (then the first is text
/// and a placeholder may open at the second); a `{` never closed is text; a name that is no
/// placeholder is text.
pub fn slots(t: &str) -> impl Iterator<Item = Slot> + '_ {
    let b = t.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        // `str::find` of one byte searches a word at a time, not a byte at a time.
        while let Some(open) = t[at..].find('{').map(|i| at + i) {
            // An unclosed `{` holds no placeholder: the rest is text.
            let close = b[open + 1..].iter().position(|&c| c == b'}' || c == b'{').map(|i| open + 1 + i)?;
            if b[close] == b'{' {
                // "{a{map}}": the first brace is text; a placeholder may open at the second.
                at = close;
                continue;
            }
            at = close + 1;
            let name = PLACEHOLDERS.iter().position(|&p| p == &t[open + 1..close]);
            if let Some(name) = name.and_then(|n| u8::try_from(n).ok()) {
                return Some(Slot { open, close, name });
            }
        }
        None
    })
}

/// A pool text as the file writes it, with its placeholders found once: a scenario fills some
/// 37 pool texts, and each fill then copies pieces instead of walking the text for braces and
/// looking each name up. They are found at the text's first fill, not when the tables are read:
/// finding them in all 1,700 texts at every load cost more (1.8 M instructions, a fifth of the
/// load) than a one-scenario run saves. The file's form is the plain string.
#[derive(Clone, Deserialize)]
#[serde(from = "String")]
pub struct StoryText {
    text: String,
    slots: std::sync::OnceLock<Vec<Slot>>,
}

impl From<String> for StoryText {
    fn from(text: String) -> StoryText {
        StoryText { text, slots: std::sync::OnceLock::new() }
    }
}

/// Printed as its text: two loads of the same pools print alike, whichever has filled a text.
impl std::fmt::Debug for StoryText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.text, f)
    }
}

impl StoryText {
    /// The text as written, placeholders and all.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Its placeholders in text order (what [`slots`] finds in it), found at the first call.
    pub fn slots(&self) -> &[Slot] {
        self.slots.get_or_init(|| slots(&self.text).collect())
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
