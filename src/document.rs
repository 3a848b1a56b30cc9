//! One scenario document over the games: the library decides "which game" here, once, so the
//! command line and the workbench call one type and hold no game-specific logic.
//!
//! Adding a game: its folder (model, generate, check, fix, edit, render) and one variant in each of
//! [`Game`], [`Params`], [`Part`] and [`Document`] below; every `match` on the game is in this file.

use std::path::Path;

use crate::check::Violation;
use crate::edit::PartOptions;
use crate::edit::myk::MykPart;
use crate::edit::nw3::Nw3Part;
use crate::error::{Error, Result};
use crate::model::{Format, Paper};
use crate::myk::{MykParams, Scenario};
use crate::nw3::{Fortress, FortressParams};
use crate::output::Artifact;
use crate::permalink::Fields;
use crate::render::booklet::Reference;
use crate::render::text::Templates;
use crate::tables::Tables;

/// Which game a document, its parameters or a part path belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Myk,
    Nw3,
}

impl Game {
    /// Every game, in the order help texts list them.
    pub const ALL: [Game; 2] = [Game::Myk, Game::Nw3];

    /// The `system` field of its files (everywhere else the game goes by [`Game::command`]).
    pub fn name(self) -> &'static str {
        match self {
            Game::Myk => "myk",
            Game::Nw3 => "nw3",
        }
    }

    /// The start of every file name a render of it writes (`myk-7.json`, `fortress-7.svg`).
    pub fn file_prefix(self) -> &'static str {
        match self {
            Game::Myk => "myk",
            Game::Nw3 => "fortress",
        }
    }

    /// What one of its files is, in a sentence (`... is a Night Wizard fortress`).
    pub fn kind(self) -> &'static str {
        match self {
            Game::Myk => "a Make You Kingdom scenario",
            Game::Nw3 => "a Night Wizard fortress",
        }
    }

    /// The command that generates it (`myk`, `fortress`).
    pub fn command(self) -> &'static str {
        match self {
            Game::Myk => "myk",
            Game::Nw3 => "fortress",
        }
    }

    /// The game whose `system` name this is.
    pub fn named(name: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The game the workbench's `game` field names: its command (`myk`, `fortress`), or its files'
    /// `system` name (`nw3`: permalinks from before the workbench called it `fortress`).
    pub fn called(name: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.command() == name || g.name() == name)
    }

    /// The workbench permalink's fields for this game's options.
    pub fn query_fields(self) -> Vec<&'static str> {
        crate::options::names(self.options())
    }

    /// This game's options, each declared once ([`crate::options`]).
    pub fn options(self) -> &'static [crate::options::Opt] {
        match self {
            Game::Myk => &crate::myk::params::OPTIONS,
            Game::Nw3 => &crate::nw3::params::OPTIONS,
        }
    }

    /// This game's options as a workbench permalink gives them (the inverse of
    /// [`Params::query_pairs`]), under the command line's rules.
    pub fn params_from_query(self, fields: &Fields) -> Result<Params> {
        Ok(match self {
            Game::Myk => Params::Myk(MykParams::from_query(fields)?),
            Game::Nw3 => Params::Nw3(FortressParams::from_query(fields)?),
        })
    }

    /// A part path of this game (`map1/B2/monsters`, `area5/enemies`, `frame`).
    pub fn part(self, path: &str) -> Result<Part> {
        Ok(match self {
            Game::Myk => Part::Myk(path.parse()?),
            Game::Nw3 => Part::Nw3(path.parse()?),
        })
    }
}

/// What the GM asks a game's generator for (each game's own validated params type).
#[derive(Clone, Debug)]
pub enum Params {
    Myk(MykParams),
    Nw3(FortressParams),
}

impl Params {
    pub fn game(&self) -> Game {
        match self {
            Params::Myk(_) => Game::Myk,
            Params::Nw3(_) => Game::Nw3,
        }
    }

    /// Generates a complete, legal scenario. Same tables + params + seed => the same document.
    pub fn generate(&self, tables: &Tables, seed: u64) -> Result<Document> {
        Ok(match self {
            Params::Myk(p) => Document::Myk(Box::new(crate::myk::generate(tables, p, seed)?)),
            Params::Nw3(p) => Document::Nw3(Box::new(crate::nw3::generate(tables, p, seed)?)),
        })
    }

    /// The params as the workbench's permalink writes them, in a fixed order.
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        match self {
            Params::Myk(p) => p.query_pairs(),
            Params::Nw3(p) => p.query_pairs(),
        }
    }
}

/// A part of a document that can be rerolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Myk(MykPart),
    Nw3(Nw3Part),
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::Myk(p) => p.fmt(f),
            Part::Nw3(p) => p.fmt(f),
        }
    }
}

/// A scenario file of either game, parsed (and upgraded to the current format).
#[derive(Clone, Debug, PartialEq)]
pub enum Document {
    Myk(Box<Scenario>),
    Nw3(Box<Fortress>),
}

/// What a lock or a rename points at.
enum Target {
    Frame,
    Map(usize),
    Room(usize, crate::myk::model::RoomId),
    Area(usize),
}

impl Document {
    pub fn game(&self) -> Game {
        match self {
            Document::Myk(_) => Game::Myk,
            Document::Nw3(_) => Game::Nw3,
        }
    }

    pub fn seed(&self) -> u64 {
        match self {
            Document::Myk(s) => s.seed,
            Document::Nw3(f) => f.seed,
        }
    }

    /// The paper its sheets are drawn on: the one place the paper lives.
    pub fn paper(&self) -> Paper {
        match self {
            Document::Myk(s) => s.params.paper,
            Document::Nw3(f) => f.paper,
        }
    }

    /// Sets the paper (`--paper`, the workbench's `paper`); it is remembered in the JSON.
    pub fn set_paper(&mut self, paper: Paper) {
        match self {
            Document::Myk(s) => s.params.paper = paper,
            Document::Nw3(f) => f.paper = paper,
        }
    }

    /// The common start of its files' names (`myk-7`, `fortress-7`).
    pub fn stem(&self) -> String {
        format!("{}-{}", self.game().file_prefix(), self.seed())
    }

    /// Reads and parses a scenario file; the `system` field says which game it is. An older file
    /// is upgraded step by step (`crate::format`); what an older NW3 file lacks (enemy stat
    /// blocks, Danger Sense) is filled from `tables`.
    pub fn read(path: &Path, tables: &Tables) -> Result<Document> {
        let file = path.display().to_string();
        let text = crate::input::read_text(path, crate::input::SCENARIO_LIMIT)?;
        Document::parse(&text, &file, tables)
    }

    /// [`Document::read`] on text already read; `file` names it in errors.
    pub fn parse(text: &str, file: &str, tables: &Tables) -> Result<Document> {
        let file_name = || file.to_string();
        let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| json_error(file, e))?;
        // Held to the limits before anything is built or drawn from it.
        if let Some(problem) = crate::limits::exceeded(&value) {
            return Err(Error::ScenarioLimit { file: file_name(), problem });
        }
        let system = value.get("system").and_then(|s| s.as_str()).map(str::to_string);
        let game = match system {
            Some(name) => match Game::named(&name) {
                Some(game) => game,
                None => return Err(Error::UnknownSystem { file: file_name(), system: name }),
            },
            None => return Err(Error::NoSystem { file: file_name() }),
        };
        let version = crate::format::upgrade(game.name(), &mut value)
            .map_err(|message| Error::ScenarioFormat { file: file_name(), message })?;
        if version == crate::format::CURRENT {
            // A current file is parsed from its text, so an error names its line and column.
            let document = Document::from_text(game, text).map_err(|e| json_error(file, e))?;
            return document
                .ids_unique()
                .map_err(|message| Error::RepeatedId { file: file_name(), message })
                .map(|()| document);
        }
        // An older file: its upgraded document written out and read as a current file's text is
        // (one deserializer per model type in the binary, not a second one for `Value`). A typo
        // still names its field; not its line, which would be the upgraded text's.
        let upgraded_text = value.to_string();
        let document = Document::from_text(game, &upgraded_text).map_err(|e| upgraded_error(file, version, e))?;
        document.ids_unique().map_err(|message| Error::RepeatedId { file: file_name(), message })?;
        Ok(match document {
            Document::Nw3(mut f) => {
                crate::nw3::combat::fill_from_tables(&mut f, tables);
                if version < crate::format::NW3_FORMULAS {
                    // Made under older formulas: the derived numbers are today's, said once.
                    crate::fix::nw3::rederive(&mut f, tables);
                    eprintln!("{}", crate::format::rederived_note(file, version));
                }
                Document::Nw3(f)
            }
            myk => myk,
        })
    }

    /// Refuses a fortress that gives two areas one id, naming the id: every later step (the rules,
    /// the area map, the VTT and Udonarium plans) finds an area by its id, and a repeated one made
    /// some of them search for minutes (issue 50: 80 areas of 27 ids, 66 s of CPU for a VTT
    /// render). `check` names the same rule (`area.id.duplicate`) for a fortress built in memory.
    fn ids_unique(&self) -> std::result::Result<(), String> {
        let Document::Nw3(f) = self else { return Ok(()) };
        let mut ids: Vec<(u32, usize)> = f.areas.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
        ids.sort_unstable();
        match ids.windows(2).find(|w| w[0].0 == w[1].0) {
            Some(w) => Err(format!(
                "`areas[{}].id`: area id {} is used twice (also `areas[{}]`); area ids are unique; nothing done",
                w[1].1, w[0].0, w[0].1
            )),
            None => Ok(()),
        }
    }

    /// A document of `game` from its JSON text in the current format.
    fn from_text(game: Game, text: &str) -> serde_json::Result<Document> {
        Ok(match game {
            Game::Myk => Document::Myk(serde_json::from_str(text)?),
            Game::Nw3 => Document::Nw3(serde_json::from_str(text)?),
        })
    }

    /// Every rule violation (the generators' own checks).
    pub fn check(&self, tables: &Tables) -> Vec<Violation> {
        match self {
            Document::Myk(s) => crate::myk::check(s, tables),
            Document::Nw3(f) => crate::nw3::check(f, tables),
        }
    }

    /// What `check` says beside the rules: a hand-edited gate graph the area map cannot draw
    /// without crossings, and the like.
    pub fn notes(&self) -> Vec<String> {
        match self {
            Document::Myk(_) => Vec::new(),
            Document::Nw3(f) => crate::nw3::layout::crossing_note(f).into_iter().collect(),
        }
    }

    /// Why the renderer cannot draw this scenario at all, if it cannot: a shape no rule fix-up
    /// gives meaning to (the sheet has exactly nine rooms, A1..C3, in order).
    pub fn undrawable(&self) -> Option<String> {
        match self {
            Document::Myk(s) => s.maps.iter().find_map(|m| {
                let in_order = m.rooms.len() == 9 && m.rooms.iter().enumerate().all(|(i, r)| r.id.index() == i);
                (!in_order).then(|| format!("map {} does not list its nine rooms A1..C3 in order", m.index))
            }),
            Document::Nw3(_) => None,
        }
    }

    /// Refuses a document whose shape no edit gives meaning to (see [`Document::undrawable`]):
    /// `fix`, a reroll and a regenerate index a map's rooms by their place on the sheet, so a map
    /// that does not list its nine rooms is named in one line (`check` reports it as a rule)
    /// before any of them starts. `what` names the work refused.
    pub fn workable(&self, what: &str) -> Result<()> {
        match self.undrawable() {
            Some(problem) => Err(Error::Refused(format!("{problem}; {what} cannot work on it; nothing written"))),
            None => Ok(()),
        }
    }

    /// Fills in every number the rules derive (`crate::fix`).
    pub fn fix(&mut self, tables: &Tables) -> Result<()> {
        self.workable("`fix`")?;
        match self {
            Document::Myk(s) => crate::fix::myk::fix(s, tables),
            Document::Nw3(f) => crate::fix::nw3::fix(f, tables),
        }
    }

    /// What a file read from disk gains before it is drawn again: the derived texts (the
    /// objective quotes room and map names) and, in older MYK files, the ruler's final stat line.
    pub fn normalize(&mut self, tables: &Tables) {
        if let Document::Myk(s) = self {
            crate::myk::generate::normalize(s);
            crate::myk::ruler::normalize(s, tables);
        }
    }

    /// What a reroll before rendering needs of a file read from disk: as `render` writes it, an
    /// older file's ruler gains its final stat line (the derived texts follow the reroll).
    pub fn normalize_ruler(&mut self, tables: &Tables) {
        if let Document::Myk(s) = self {
            crate::myk::ruler::normalize(s, tables);
        }
    }

    /// The part the `reroll` options name in this document; a wrong combination names the option.
    pub fn part_from_options(&self, o: &PartOptions) -> Result<Part> {
        Ok(match self {
            Document::Myk(_) => Part::Myk(crate::edit::myk::part_from_options(o)?),
            Document::Nw3(_) => Part::Nw3(crate::edit::nw3::part_from_options(o)?),
        })
    }

    /// Rerolls `part` (recorded in the file's `rerolls`); a part of another game is refused.
    pub fn reroll(&mut self, tables: &Tables, part: &Part) -> Result<()> {
        self.workable("a reroll")?;
        match (self, part) {
            (Document::Myk(s), Part::Myk(p)) => crate::edit::myk::reroll(tables, s, p),
            (Document::Nw3(f), Part::Nw3(p)) => crate::edit::nw3::reroll(tables, f, p),
            (doc, part) => Err(Error::Edit {
                what: format!("reroll `{part}`"),
                message: format!("not a part of {}", doc.game().kind()),
            }),
        }
    }

    /// Why a reroll of `part` that turned this document back into `before` (its reroll record
    /// aside) changed nothing, in one line; `None` when it changed something.
    pub fn unchanged_by(&self, before: &Document, part: &Part) -> Option<String> {
        match (self, before, part) {
            (Document::Myk(s), Document::Myk(b), Part::Myk(p)) => {
                let same = Scenario { rerolls: b.rerolls.clone(), ..(**s).clone() } == **b;
                same.then(|| crate::edit::myk::why_unchanged(s, p))
            }
            (Document::Nw3(f), Document::Nw3(b), Part::Nw3(_)) => {
                let same = Fortress { rerolls: b.rerolls.clone(), ..(**f).clone() } == **b;
                same.then(|| crate::edit::SAME_ROLL.to_string())
            }
            _ => None,
        }
    }

    /// Rerolls the part at `path` (the workbench's): a path naming nothing in this document is
    /// [`Error::NoSuchPart`]; an edit the document refuses is the edit's own error.
    pub fn reroll_path(&mut self, tables: &Tables, path: &str) -> Result<()> {
        // A map, room or area the scenario does not have is named before the path's syntax.
        let base: Vec<&str> = path.split('/').collect();
        let depth = if self.game() == Game::Myk { 2 } else { 1 };
        self.target(&base[..base.len().min(depth)].join("/"))?;
        let part = self.game().part(path).map_err(|e| Error::NoSuchPart(e.to_string()))?;
        self.reroll(tables, &part)
    }

    /// Rolls everything unlocked anew from `seed`, keeping the locked parts exactly.
    pub fn regenerate(&self, tables: &Tables, seed: u64) -> Result<Document> {
        self.workable("a regenerate")?;
        Ok(match self {
            Document::Myk(s) => Document::Myk(Box::new(crate::edit::myk::regenerate(tables, s, seed)?)),
            Document::Nw3(f) => Document::Nw3(Box::new(crate::edit::nw3::regenerate(tables, f, seed)?)),
        })
    }

    fn target(&self, path: &str) -> Result<Target> {
        if path == "frame" {
            return Ok(Target::Frame);
        }
        let unknown = |what: &str| Error::NoSuchPart(format!("unknown {what} `{path}`"));
        match self {
            Document::Myk(s) => {
                let (map, room) = match path.split_once('/') {
                    Some((m, r)) => (m, Some(r)),
                    None => (path, None),
                };
                let n: u32 = map.strip_prefix("map").and_then(|n| n.parse().ok()).ok_or_else(|| unknown("part"))?;
                let m = s
                    .maps
                    .iter()
                    .position(|m| m.index == n)
                    .ok_or_else(|| Error::NoSuchPart(format!("unknown map `{map}`")))?;
                match room {
                    None => Ok(Target::Map(m)),
                    Some(r) => Ok(Target::Room(m, r.parse().map_err(|_| unknown("room"))?)),
                }
            }
            Document::Nw3(f) => {
                let id: u32 = path.strip_prefix("area").and_then(|n| n.parse().ok()).ok_or_else(|| unknown("part"))?;
                let a = f.areas.iter().position(|a| a.id == id).ok_or_else(|| unknown("area"))?;
                Ok(Target::Area(a))
            }
        }
    }

    /// Locks (or unlocks) the frame, a map, a room or an area: a regenerate keeps it exactly.
    pub fn lock(&mut self, path: &str, on: bool) -> Result<()> {
        let t = self.target(path)?;
        match (self, t) {
            (Document::Myk(s), Target::Frame) => s.frame_locked = on,
            (Document::Myk(s), Target::Map(m)) => s.maps[m].locked = on,
            (Document::Myk(s), Target::Room(m, r)) => {
                let room = room_mut(s, m, r, path)?;
                if on && !room.used {
                    return Err(Error::Refused(format!("room `{path}` is not used on its map; nothing to lock")));
                }
                room.locked = on;
            }
            (Document::Nw3(f), Target::Frame) => f.frame_locked = on,
            (Document::Nw3(f), Target::Area(a)) => f.areas[a].locked = on,
            _ => return Err(Error::NoSuchPart(format!("unknown part `{path}`"))),
        }
        Ok(())
    }

    /// Gives the frame (the title), a map, a room or an area a name of the GM's.
    pub fn rename(&mut self, path: &str, name: &str) -> Result<()> {
        let t = self.target(path)?;
        match (self, t) {
            (Document::Myk(s), t) => {
                match t {
                    Target::Frame => s.title = name.to_string(),
                    Target::Map(m) => s.maps[m].name = name.into(),
                    Target::Room(m, r) => {
                        let room = room_mut(s, m, r, path)?;
                        if !room.used {
                            return Err(Error::Refused(format!("room `{path}` is not used on its map")));
                        }
                        room.name = name.into();
                    }
                    Target::Area(_) => return Err(Error::NoSuchPart(format!("unknown part `{path}`"))),
                }
                // The objective quotes room and map names: derived again, as `render` does.
                crate::myk::generate::normalize(s);
            }
            (Document::Nw3(f), Target::Frame) => f.title = name.to_string(),
            (Document::Nw3(f), Target::Area(a)) => f.areas[a].name = name.to_string(),
            _ => return Err(Error::NoSuchPart(format!("unknown part `{path}`"))),
        }
        Ok(())
    }

    /// The document as pretty JSON with a final newline (the file a GM edits).
    pub fn json(&self) -> Result<String> {
        match self {
            Document::Myk(s) => crate::render::json(s.as_ref()),
            Document::Nw3(f) => crate::render::json(f.as_ref()),
        }
    }

    /// The names of the files [`Document::render_with`] makes in `formats` with part two where
    /// `reference` puts it, in its order, without making any.
    pub fn file_names(&self, formats: &[Format], reference: Reference) -> Vec<String> {
        use crate::render::formats::{Subject, file_names};
        match self {
            Document::Myk(s) => file_names(Subject::Myk(s), formats, reference),
            Document::Nw3(f) => file_names(Subject::Nw3(f), formats, reference),
        }
    }

    /// Every chosen format, as files in memory, in a fixed order, on the document's paper, with
    /// the booklet's reference in an appendix.
    pub fn render(&self, tables: &Tables, formats: &[Format], templates: &Templates) -> Result<Vec<Artifact>> {
        self.render_with(tables, formats, templates, Reference::default())
    }

    /// [`Document::render`], with the booklet's reference (part two) where `reference` puts it.
    pub fn render_with(
        &self,
        tables: &Tables,
        formats: &[Format],
        templates: &Templates,
        reference: Reference,
    ) -> Result<Vec<Artifact>> {
        let opts = crate::render::RenderOptions { formats, templates, reference };
        match self {
            Document::Myk(s) => crate::render::render_myk(s, tables, &opts),
            Document::Nw3(f) => crate::render::render_fortress(f, tables, &opts),
        }
    }

    /// What the web workbench shows of it: sheets with click targets, parts, limits, `check`.
    pub fn workbench(&self, tables: &Tables) -> crate::workbench::View {
        match self {
            Document::Myk(s) => crate::workbench::myk(s, tables),
            Document::Nw3(f) => crate::workbench::fortress(f, tables),
        }
    }

    /// What a generate run says on stderr when it is done (warnings included; for MYK, a danger
    /// line for each threat the book's tables let past the court's limits, read from `tables`).
    pub fn summary(&self, tables: &Tables) -> String {
        match self {
            Document::Myk(s) => {
                crate::render::summary::myk_summary(s) + &crate::render::summary::myk_danger_lines(s, tables)
            }
            // The title as every renderer prints it: stored with its slots, filled here.
            Document::Nw3(f) => format!(
                "{} (seed {}): {} areas, {} gates, ruler {}\n",
                crate::nw3::text::filled(f).title,
                f.seed,
                f.areas.len(),
                f.gates.len(),
                f.ruler.name
            ),
        }
    }
}

/// An error in a file upgraded from an older format (no line numbers: they would be the upgraded text's).
fn upgraded_error(file: &str, version: u32, source: serde_json::Error) -> Error {
    let message = without_place(&source);
    Error::ScenarioUpgraded { file: file.to_string(), version, message, source }
}

/// Room `r` of map position `m`, found by its place on the sheet; a map read from a file that
/// does not list its nine rooms has none there, and the part is named as missing.
fn room_mut<'s>(
    s: &'s mut Scenario,
    m: usize,
    r: crate::myk::model::RoomId,
    path: &str,
) -> Result<&'s mut crate::myk::model::Room> {
    s.maps
        .get_mut(m)
        .and_then(|map| map.rooms.get_mut(r.index()))
        .filter(|room| room.id == r)
        .ok_or_else(|| Error::NoSuchPart(format!("unknown room `{path}`: its map does not list its nine rooms")))
}

/// A scenario file's JSON error, its place (line and column) apart from serde_json's words.
fn json_error(file: &str, source: serde_json::Error) -> Error {
    let message = without_place(&source);
    Error::ScenarioJson { file: file.to_string(), line: source.line(), column: source.column(), message, source }
}

/// serde_json's words without the " at line L column C" it ends with.
fn without_place(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    msg.split(" at line ").next().unwrap_or(&msg).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An older file with a mistake: the error read from its upgraded text has the words reading
    /// the upgraded value itself gave (before issue 36), and no position in the upgraded text.
    #[test]
    fn an_older_files_error_keeps_the_words_and_drops_the_upgraded_texts_place() {
        let tables = Tables::embedded().expect("embedded tables");
        let old = include_str!("../tests/data/format1/myk-42.json");
        for (from, to) in [("\"seed\": 42", "\"seed\": \"x\""), ("\"maps\": 1,", "\"maps\": \"one\",")] {
            let text = old.replacen(from, to, 1);
            let e = Document::parse(&text, "old.json", &tables).map(|_| ()).expect_err(to).to_string();
            let mut value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            crate::format::upgrade("myk", &mut value).expect("upgrades");
            let from_value = serde_json::from_value::<Scenario>(value).map(|_| ()).expect_err(to);
            assert_eq!(e, upgraded_error("old.json", 1, from_value).to_string());
            assert!(!e.contains(" line "), "{e}");
        }
    }
}
