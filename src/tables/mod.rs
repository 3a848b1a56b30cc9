//! Tables: TOML files under `tables/`, embedded in the binary, or a user's copy with `--tables DIR`.
//!
//! Loading validates everything before any generation starts: each roll table covers its dice
//! exactly once, every name a table yields has a record, every record is complete or says what the
//! source lost. Errors name the file, the table and the entry in one line. The built-in tables are
//! read from a blob build.rs made of them and not checked again at run time; the test
//! `the_built_in_tables_pass_every_check_a_tables_folder_gets` checks them with this same code.

pub mod blob;
mod digest;
mod embedded;
pub mod encounters;
pub mod items;
pub mod judge;
pub mod myk;
pub mod myk_rolls;
pub mod name_index;
pub mod nw3;
pub mod nw3_combat;
pub mod nw3_episode;
pub mod nw3_themes;
pub mod objective;
pub mod placeholders;
pub mod roll;
pub mod shared;
pub mod show;
pub mod skills;
pub mod slots;
pub mod story;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::dice::Dice;
use crate::error::{Error, Result};
use myk::{Base, LimitRow, Monster, MykData, RulerIncrease, RulerSkill, Trap, WeakPoint};
use roll::{Collection, RollTable, Row};
use shared::SharedStr;

pub use embedded::{EMBEDDED_TABLES, EMBEDDED_TABLES_VERSION};

/// What one table file may hold. Unknown keys are errors naming the key.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(default)]
    roll: Vec<RollTable>,
    #[serde(default)]
    trap: Vec<Trap>,
    #[serde(default)]
    base: Vec<Base>,
    #[serde(default)]
    monster: Vec<Monster>,
    #[serde(default)]
    ruler_increase: Vec<RulerIncrease>,
    #[serde(default)]
    ruler_skill: Vec<RulerSkill>,
    #[serde(default)]
    weak_point: Vec<WeakPoint>,
    #[serde(default)]
    object: Vec<myk::ObjectRecord>,
    #[serde(default)]
    limit: Vec<LimitRow>,
    #[serde(default)]
    skill: Vec<skills::Skill>,
    #[serde(default)]
    unknown_skill: Vec<skills::UnknownSkill>,
    #[serde(default)]
    item: Vec<items::Item>,
    #[serde(default)]
    citation: Vec<items::Citation>,
    #[serde(default)]
    nw3: Option<nw3::Nw3File>,
    /// A `story.toml` file's pools, read with their own schema ([`story::is_story_file`]).
    #[serde(skip)]
    story: Option<story::StoryPools>,
    /// The episode pools: the file `nw3/episode.toml`, whose sections sit at its top level, is
    /// read as [`nw3_episode::EpisodeData`] instead.
    #[serde(skip)]
    episode: Option<nw3_episode::EpisodeData>,
}

impl TableFile {
    /// A file's contents read with the schema its path calls for: the story and episode pools by
    /// their own, any other file as a `TableFile`.
    fn read<'de, D: serde::Deserializer<'de>>(path: &str, d: D) -> std::result::Result<TableFile, D::Error> {
        if story::is_story_file(path) {
            Ok(TableFile { story: Some(story::StoryPools::deserialize(d)?), ..TableFile::default() })
        } else if nw3_episode::is_episode_file(path) {
            Ok(TableFile { episode: Some(nw3_episode::EpisodeData::deserialize(d)?), ..TableFile::default() })
        } else {
            TableFile::deserialize(d)
        }
    }

    /// [`TableFile::read`] from TOML text (a user's file): parsed with its places kept, encoded
    /// as build.rs encodes the built-in tables and read by the same [`blob::Reader`], so each
    /// record type has one deserializer in the binary. An error names the line of the value or
    /// key it concerns, as toml's deserializer did, and says what was found and wanted.
    fn read_toml(path: &str, text: &str) -> Result<TableFile> {
        blob::from_toml(text, |r| TableFile::read(path, r)).map_err(|(offset, message)| Error::TableSyntax {
            file: path.to_string(),
            line: text[..offset.min(text.len())].matches('\n').count() + 1,
            message: message.lines().next().unwrap_or("invalid TOML").trim().trim_end_matches('.').to_string(),
        })
    }
}

/// A roll table and the file it came from.
#[derive(Clone, Debug)]
pub struct Located<T> {
    pub file: String,
    pub item: T,
}

/// Every table and record, validated.
#[derive(Clone, Debug)]
pub struct Tables {
    /// A digest of every file's path and bytes: the "tables version" printed on every output
    /// (shared: every generated scenario records it).
    pub version: SharedStr,
    /// Where the tables came from: "embedded" or the folder given.
    pub origin: String,
    pub rolls: Vec<Located<RollTable>>,
    roll_index: name_index::NameIndex,
    pub myk: MykData,
    /// The MYK generator's tables and the records their rows name, resolved at load.
    pub myk_rolls: myk_rolls::MykRolls,
    /// MYK items and the result words that cite item and word tables.
    pub items: items::ItemData,
    pub nw3: nw3::Nw3Data,
    /// The MYK scenario pools (story files merged in path order).
    pub story: story::StoryPools,
}

/// One rolled step: the table, the outcome, the row.
#[derive(Clone, Debug)]
pub struct Step<'a> {
    pub table: &'a RollTable,
    pub outcome: u32,
    pub row: &'a Row,
}

impl Tables {
    /// The random encounter table for a court of average level `level` (1-6; 6 above that) and
    /// `size` members, resolved for its size: made once per level and size, then shared.
    pub fn encounter_rows(&self, level: u32, size: u32) -> shared::SharedList<encounters::ResolvedRow> {
        self.myk.encounter_rows(myk_rolls::MykRoll::encounters(level).name(), level, size)
    }

    /// Every `*.toml` below `dir`, in path order, instead of the embedded tables.
    pub fn from_dir(dir: &Path) -> Result<Tables> {
        let meta = fs::metadata(dir).map_err(|e| Error::tables_dir_io(dir, e))?;
        if !meta.is_dir() {
            return Err(Error::tables_dir_refused(dir, "not a folder"));
        }
        let mut paths = Vec::new();
        walk(dir, &mut paths)?;
        paths.sort();
        if paths.is_empty() {
            return Err(Error::tables_dir_refused(dir, "it holds no .toml files"));
        }
        let mut files = Vec::new();
        for p in paths {
            let rel = p.strip_prefix(dir).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            let text = crate::input::read_text(&p, crate::input::TEXT_LIMIT)?;
            files.push((rel, text));
        }
        Tables::from_files(dir.display().to_string(), &files)
    }

    /// Embedded tables, or the folder when one is given.
    pub fn load(dir: Option<&Path>) -> Result<Tables> {
        match dir {
            Some(d) => Tables::from_dir(d),
            None => Tables::embedded(),
        }
    }

    /// Parses and validates named file contents (path relative to the tables folder).
    pub fn from_files(origin: String, files: &[(String, String)]) -> Result<Tables> {
        let mut parsed = Vec::with_capacity(files.len());
        for (path, text) in files {
            let file = TableFile::read_toml(path, text)?;
            parsed.push((path.clone(), file));
        }
        let version = digest::version(files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        Tables::from_parsed(origin, version, parsed, true)
    }

    /// Builds the indexes of parsed table files (in path order), after validating them when
    /// `validate` (false only for the embedded tables, which the tests check with this code).
    fn from_parsed(origin: String, version: String, files: Vec<(String, TableFile)>, validate: bool) -> Result<Tables> {
        let mut rolls = Vec::new();
        let mut myk = MykData::default();
        let mut item_data = items::ItemData::default();
        let mut nw3_files = Vec::new();
        let mut story = story::StoryPools::default();
        let mut episode: Option<(String, nw3_episode::EpisodeData)> = None;
        // Record names and skill labels ("Name (Group)") with their files, for the checks' errors.
        let mut record_files: Vec<(Collection, String, String)> = Vec::new();
        let mut skill_files: Vec<(String, String)> = Vec::new();
        for (path, parsed) in files {
            if validate {
                record_names(&path, &parsed, &mut record_files, &mut skill_files);
            }
            for t in parsed.roll {
                rolls.push(Located { file: path.clone(), item: t });
            }
            myk.traps.extend(parsed.trap);
            myk.bases.extend(parsed.base);
            myk.monsters.extend(parsed.monster);
            myk.ruler_increases.extend(parsed.ruler_increase);
            myk.ruler_skills.extend(parsed.ruler_skill);
            myk.weak_points.extend(parsed.weak_point);
            myk.objects.extend(parsed.object);
            myk.limits.extend(parsed.limit);
            myk.skills.skills.extend(parsed.skill);
            myk.skills.unknown.extend(parsed.unknown_skill);
            item_data.items.extend(parsed.item);
            item_data
                .citations
                .extend(parsed.citation.into_iter().map(|c| items::Citation { file: path.clone(), ..c }));
            if let Some(p) = parsed.story {
                if validate {
                    p.check_slots(&path)?;
                    p.check_kinds(&path)?;
                }
                story.extend(p);
            }
            if let Some(n) = parsed.nw3 {
                nw3_files.push((path.clone(), n));
            }
            if let Some(e) = parsed.episode {
                episode = Some((path.clone(), e));
            }
        }
        let nw3 = nw3_data(nw3_files, episode, validate)?;
        myk.index();
        item_data.index();
        if let Some(label) = myk.skills.index().first() {
            return Err(skill_twice(label, &skill_files));
        }
        for Located { file, item } in &mut rolls {
            if validate {
                // Checks, then indexes the rows by outcome.
                item.check_coverage().map_err(|message| Error::Table {
                    file: file.clone(),
                    table: item.name.clone(),
                    message,
                })?;
            } else {
                item.fill_slots();
            }
        }
        let roll_index = name_index::NameIndex::new(rolls.iter().map(|l| l.item.name.as_str()));
        link_tables(&mut rolls, &roll_index);
        let myk_rolls = myk_rolls::MykRolls::resolve(&rolls, &roll_index, &myk);
        myk.encounters = encounters::stockable(&rolls, |n| myk.monster(n).is_some_and(Monster::complete));
        let tables =
            Tables { roll_index, version: version.into(), origin, rolls, myk, myk_rolls, items: item_data, nw3, story };
        if validate {
            tables.validate(&record_files)?;
            tables.validate_skills(&record_files, &skill_files)?;
        }
        Ok(tables)
    }

    /// Checks across all files once they are merged and indexed: record names unique, records
    /// whole, roll tables pointing only at what exists and never looping.
    fn validate(&self, record_files: &[(Collection, String, String)]) -> Result<()> {
        unique_records(record_files)?;
        // The file a record came from, for its error (records carry no file of their own).
        let file_of = |c: Collection, name: &str| {
            record_files.iter().find(|(k, n, _)| *k == c && n == name).map(|r| r.2.clone()).unwrap_or_default()
        };
        self.validate_myk_records(&file_of)?;
        self.validate_items(&file_of)?;
        self.validate_roll_rows()?;
        self.validate_no_loops()
    }

    /// Every trap has a summary; every base a level and one kind of cost; every monster its
    /// numbers, unless the record says the source lost them (`unknown`).
    fn validate_myk_records(&self, file_of: &dyn Fn(Collection, &str) -> String) -> Result<()> {
        let entry = |c: Collection, kind: &'static str, name: &str, message: String| Error::Entry {
            file: file_of(c, name),
            kind,
            entry: name.to_owned(),
            message,
        };
        for t in &self.myk.traps {
            if t.summary.trim().is_empty() {
                return Err(entry(Collection::Trap, "trap", t.name.as_str(), "has no summary".into()));
            }
        }
        if let Err((trap, object)) = self.myk.check_trap_objects() {
            let message = format!("names `{object}`, which is neither an object nor a kind of tables/myk/objects.toml");
            return Err(entry(Collection::Trap, "trap", &trap, message));
        }
        for b in &self.myk.bases {
            if b.level.is_none() && !b.unknown.iter().any(|u| u == "level") {
                let message = "has no `level`; list it in `unknown` if the source lost it".into();
                return Err(entry(Collection::Base, "base", b.name.as_str(), message));
            }
            if (b.cost == 0) != b.cost_per_use.is_some() {
                let message = "needs either a `cost` above 0 or, for a cost the book gives per use, `cost = 0` \
                               and `cost_per_use`"
                    .into();
                return Err(entry(Collection::Base, "base", b.name.as_str(), message));
            }
        }
        for m in &self.myk.monsters {
            let missing = [
                ("level", m.level.is_none()),
                ("warfare", m.warfare.is_none()),
                ("range", m.range.is_none()),
                ("damage", m.damage.is_none()),
                ("defense", m.defense.is_none()),
                ("hp", m.hp.is_none()),
                ("personality", m.personality.is_none()),
            ];
            for (field, absent) in missing {
                if absent && !m.unknown.iter().any(|u| u == field) {
                    let message = format!("has no `{field}`; list it in `unknown` if the source lost it");
                    return Err(entry(Collection::Monster, "monster", m.name.as_str(), message));
                }
            }
        }
        Ok(())
    }

    /// Roll tables: unique names, and every row's table, yielded record and monsters exist.
    fn validate_roll_rows(&self) -> Result<()> {
        let mut names = BTreeMap::new();
        for Located { file, item: t } in &self.rolls {
            let err = |message: String| Error::Table { file: file.clone(), table: t.name.clone(), message };
            if let Some(first) = names.insert(t.name.as_str(), file.as_str()) {
                return Err(err(twice_message(first, file)));
            }
            for row in &t.rows {
                if let Some(target) = &row.table
                    && self.roll_table(target).is_none()
                {
                    return Err(err(format!("row `{}` refers to unknown table `{target}`", row.roll)));
                }
                if let (Some(c), Some(name)) = (t.yields, &row.result)
                    && !self.has_record(c, name)
                {
                    let article = if c.label().starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                    return Err(err(format!(
                        "row `{}` yields `{name}`, which is not {article} {} in the tables",
                        row.roll,
                        c.label()
                    )));
                }
                for g in &row.groups {
                    if self.myk.monster(&g.monster).is_none() {
                        return Err(err(format!(
                            "row `{}` names monster `{}`, which is not in the bestiary",
                            row.roll, g.monster
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// Table references must not loop, or a roll would never end: no chain of references from
    /// a table runs deeper than 8.
    fn validate_no_loops(&self) -> Result<()> {
        for Located { file, item: t } in &self.rolls {
            let mut stack = vec![(t.name.as_str(), 0usize)];
            while let Some((name, depth)) = stack.pop() {
                if depth > 8 {
                    return Err(Error::Table {
                        file: file.clone(),
                        table: t.name.clone(),
                        message: "its table references loop".into(),
                    });
                }
                if let Some(tt) = self.roll_table(name) {
                    stack.extend(tt.rows.iter().filter_map(|r| r.table.as_deref()).map(|n| (n, depth + 1)));
                }
            }
        }
        Ok(())
    }

    /// Every item record is whole; every citation has a phrase and names tables and items that
    /// exist.
    fn validate_items(&self, file_of: &dyn Fn(Collection, &str) -> String) -> Result<()> {
        for it in &self.items.items {
            if let Some(message) = it.problem() {
                return Err(Error::Entry {
                    file: file_of(Collection::Item, &it.name),
                    kind: "item",
                    entry: it.name.as_str().to_owned(),
                    message,
                });
            }
        }
        for c in &self.items.citations {
            let err = |message: String| Error::Entry {
                file: c.file.clone(),
                kind: "citation",
                entry: c.phrase.clone(),
                message,
            };
            if c.phrase.trim().is_empty() {
                return Err(err("has an empty `phrase`".into()));
            }
            if c.tables.is_empty() && c.items.is_empty() {
                return Err(err("names no `tables` or `items`".into()));
            }
            if let Some(t) = c.tables.iter().find(|t| self.roll_table(t).is_none()) {
                return Err(err(format!("names table `{t}`, which is not in the tables")));
            }
            if let Some(i) = c.items.iter().find(|i| self.items.item(i).is_none()) {
                return Err(err(format!("names item `{i}`, which is not in the tables")));
            }
        }
        Ok(())
    }

    /// Every skill a monster names has a record or an `unknown_skill` entry; every record says
    /// when it works and what it does.
    fn validate_skills(
        &self,
        record_files: &[(Collection, String, String)],
        skill_files: &[(String, String)],
    ) -> Result<()> {
        for s in &self.myk.skills.skills {
            let label = s.label();
            let file = || skill_files.iter().find(|(l, _)| *l == label).map(|r| r.1.clone()).unwrap_or_default();
            for (field, value) in [("effect", &s.effect), ("timing", &s.timing), ("source", &s.source)] {
                if value.trim().is_empty() {
                    return Err(Error::Entry {
                        file: file(),
                        kind: "skill",
                        entry: label.clone(),
                        message: format!("has no `{field}`"),
                    });
                }
            }
        }
        for m in &self.myk.monsters {
            if let Some(label) = m.skills.iter().find(|l| self.myk.skills.for_label(l).is_none()) {
                let file = record_files
                    .iter()
                    .find(|(k, n, _)| *k == Collection::Monster && *n == m.name)
                    .map(|r| r.2.clone())
                    .unwrap_or_default();
                return Err(Error::Entry {
                    file,
                    kind: "monster",
                    entry: m.name.as_str().to_owned(),
                    message: format!(
                        "names skill `{label}`, which has no `[[skill]]` record or `[[unknown_skill]]` entry"
                    ),
                });
            }
        }
        Ok(())
    }

    fn has_record(&self, c: Collection, name: &str) -> bool {
        match c {
            Collection::Trap => self.myk.trap(name).is_some(),
            Collection::Base => self.myk.base(name).is_some(),
            Collection::Monster => self.myk.monster(name).is_some(),
            Collection::WeakPoint => self.myk.weak_point(name).is_some(),
            Collection::Item => self.items.item(name).is_some(),
        }
    }

    /// A roll table by name.
    pub fn roll_table(&self, name: &str) -> Option<&RollTable> {
        self.roll_index.get(name, |i| &self.rolls[i].item.name).map(|i| &self.rolls[i].item)
    }

    /// A roll table by name, or the error a user sees.
    pub fn require(&self, name: &str) -> Result<&RollTable> {
        self.roll_table(name).ok_or_else(|| Error::UnknownTable {
            name: name.to_string(),
            hint: crate::near::hint(name, self.rolls.iter().map(|l| l.item.name.as_str())),
        })
    }

    /// A table of the MYK generator, found when the tables were built.
    pub fn myk_table(&self, r: myk_rolls::MykRoll) -> Option<&RollTable> {
        self.myk_rolls.position(r).map(|i| &self.rolls[i].item)
    }

    /// The table row `row` of `table` refers to (resolved at load; by name if it was not).
    fn next_table<'a>(&'a self, table: &'a RollTable, row: usize, name: &str) -> Result<&'a RollTable> {
        match table.link(row) {
            Some(i) => Ok(&self.rolls[i].item),
            None => self.require(name),
        }
    }

    /// Rolls a table and follows `table` rows to the end: every step in order.
    pub fn roll_chain<'a>(&'a self, name: &str, dice: &mut Dice) -> Result<Vec<Step<'a>>> {
        let mut steps = Vec::new();
        let mut table = self.require(name)?;
        loop {
            let (outcome, i) = table.roll_index(dice);
            let row = &table.rows[i];
            steps.push(Step { table, outcome, row });
            match &row.table {
                Some(next) => table = self.next_table(table, i, next)?,
                None => return Ok(steps),
            }
        }
    }

    /// Rolls a table to its final row (following references), without recording the steps.
    pub fn roll_row(&self, name: &str, dice: &mut Dice) -> Result<&Row> {
        self.roll_from(self.require(name)?, dice)
    }

    /// [`Tables::roll_row`] from a table already found.
    pub fn roll_from<'a>(&'a self, table: &'a RollTable, dice: &mut Dice) -> Result<&'a Row> {
        self.roll_through(table, dice)
            .map_err(|name| Error::UnknownTable { name: name.to_string(), hint: String::new() })
    }

    /// [`Tables::roll_from`] for a caller that reads a missing table as no row (the generator's
    /// rolls for text): the same rolls, without an error built and dropped on every roll.
    pub fn roll_found<'a>(&'a self, table: &'a RollTable, dice: &mut Dice) -> Option<&'a Row> {
        self.roll_through(table, dice).ok()
    }

    /// The final row (following `table` rows), or the name of a table a row refers to that the
    /// tables lack.
    fn roll_through<'a>(&'a self, mut table: &'a RollTable, dice: &mut Dice) -> std::result::Result<&'a Row, &'a str> {
        loop {
            let (_, i) = table.roll_index(dice);
            let row = &table.rows[i];
            match &row.table {
                Some(next) => {
                    table = match table.link(i) {
                        Some(j) => &self.rolls[j].item,
                        None => self.roll_table(next).ok_or(next.as_str())?,
                    }
                }
                None => return Ok(row),
            }
        }
    }

    /// Rolls a table to its final text (following references).
    pub fn roll_text(&self, name: &str, dice: &mut Dice) -> Result<String> {
        Ok(self.roll_row(name, dice)?.text())
    }

    /// [`Tables::roll_text`] on a table of the MYK generator, found when the tables were built.
    pub fn roll_myk_text(&self, r: myk_rolls::MykRoll, dice: &mut Dice) -> Result<String> {
        match self.myk_table(r) {
            Some(t) => Ok(self.roll_from(t, dice)?.text()),
            None => Err(Error::UnknownTable { name: r.name().to_string(), hint: String::new() }),
        }
    }
}

/// Collects every `*.toml` below `dir`. A linked folder is followed once: a link back to a folder
/// being walked (a cycle, which would otherwise be walked without end) is an error naming the link
/// and where it leads, and a folder reached a second time through another link is not read again.
fn walk(root: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let io = |path: &Path, e: std::io::Error| Error::tables_dir_io(path, e);
    let real = fs::canonicalize(root).map_err(|e| io(root, e))?;
    let mut seen = BTreeSet::from([real.clone()]);
    walk_in(root, &mut vec![real], &mut seen, out)
}

fn walk_in(
    dir: &Path,
    ancestors: &mut Vec<PathBuf>,
    seen: &mut BTreeSet<PathBuf>,
    out: &mut Vec<PathBuf>,
) -> Result<()> {
    let io = |path: &Path, e: std::io::Error| Error::tables_dir_io(path, e);
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io(dir, e))? {
        entries.push(entry.map_err(|e| io(dir, e))?.path());
    }
    entries.sort();
    for path in entries {
        if path.is_dir() {
            let real = fs::canonicalize(&path).map_err(|e| io(&path, e))?;
            if ancestors.contains(&real) {
                return Err(Error::tables_dir_refused(
                    path.clone(),
                    format!("a link back to `{}`, which holds it (a cycle of links)", real.display()),
                ));
            }
            if !seen.insert(real.clone()) {
                continue;
            }
            ancestors.push(real);
            walk_in(&path, ancestors, seen, out)?;
            ancestors.pop();
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

/// Notes which file gave each record name and skill label ("Name (Group)"), for the checks'
/// errors (the merged records do not remember their files).
fn record_names(
    path: &str,
    parsed: &TableFile,
    record_files: &mut Vec<(Collection, String, String)>,
    skill_files: &mut Vec<(String, String)>,
) {
    let mut add = |c: Collection, names: &mut dyn Iterator<Item = &str>| {
        record_files.extend(names.map(|n| (c, n.to_owned(), path.to_owned())));
    };
    add(Collection::Trap, &mut parsed.trap.iter().map(|t| t.name.as_str()));
    add(Collection::Base, &mut parsed.base.iter().map(|t| t.name.as_str()));
    add(Collection::Monster, &mut parsed.monster.iter().map(|t| t.name.as_str()));
    add(Collection::WeakPoint, &mut parsed.weak_point.iter().map(|t| t.name.as_str()));
    add(Collection::Item, &mut parsed.item.iter().map(|t| t.name.as_str()));
    skill_files.extend(parsed.skill.iter().map(|t| (t.label(), path.to_owned())));
    skill_files.extend(parsed.unknown_skill.iter().map(|t| (t.label(), path.to_owned())));
}

/// A skill label given twice: the error names the first file that gave it and the last.
fn skill_twice(label: &str, skill_files: &[(String, String)]) -> Error {
    let file_of = |(l, f): &(String, String)| (l == label).then(|| f.clone());
    let first = skill_files.iter().find_map(file_of).unwrap_or_default();
    let file = skill_files.iter().rev().find_map(file_of).unwrap_or_default();
    let message = twice_message(&first, &file);
    Error::Entry { file, kind: "skill", entry: label.to_owned(), message }
}

/// Resolves each row's table reference once, to the first table of that name (as a look-up by
/// name finds it), so a roll follows an index instead of a name.
fn link_tables(rolls: &mut [Located<RollTable>], roll_index: &name_index::NameIndex) {
    let links: Vec<Vec<u32>> = rolls
        .iter()
        .map(|l| {
            let find = |n: &str| roll_index.get(n, |i| &rolls[i].item.name);
            // Most tables refer to none: those keep an empty list (no allocation).
            if l.item.rows.iter().all(|r| r.table.is_none()) {
                return Vec::new();
            }
            l.item.rows.iter().map(|r| r.table.as_deref().and_then(find).map_or(0, |i| i as u32 + 1)).collect()
        })
        .collect();
    for (l, links) in rolls.iter_mut().zip(links) {
        l.item.set_links(links);
    }
}

/// Record names are unique within their collection (across files: the error names both).
fn unique_records(record_files: &[(Collection, String, String)]) -> Result<()> {
    let mut seen: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for (c, name, file) in record_files {
        if let Some(first) = seen.insert((c.label(), name), file) {
            return Err(Error::Entry {
                file: file.clone(),
                kind: c.label(),
                entry: name.clone(),
                message: twice_message(first, file),
            });
        }
    }
    Ok(())
}

/// "is defined twice", naming the file of the first definition (the error names the second's).
pub(crate) fn twice_message(first: &str, second: &str) -> String {
    if first == second {
        "is defined twice in this file".into()
    } else {
        format!("is defined twice: first in `{first}`")
    }
}

/// The personas and Cores of the NW3 table files (path, section), for [`nw3_themes::validate_records`].
fn themed_records(files: &[(String, nw3::Nw3File)]) -> Vec<nw3_themes::Themed> {
    let mut out = Vec::new();
    for (file, f) in files {
        let rec = |section, name: &str, theme: &str| nw3_themes::Themed {
            file: file.clone(),
            section,
            name: name.to_string(),
            theme: theme.to_string(),
        };
        out.extend(f.ruler.iter().map(|r| rec("nw3.ruler", &r.name, &r.theme)));
        out.extend(f.core.iter().map(|c| rec("nw3.core", &c.name, &c.theme)));
    }
    out
}

/// The Night Wizard data of the parsed files, with the episode pools (checked against the
/// persona and Core records' themes when `validate`).
fn nw3_data(
    files: Vec<(String, nw3::Nw3File)>,
    episode: Option<(String, nw3_episode::EpisodeData)>,
    validate: bool,
) -> Result<nw3::Nw3Data> {
    let themed = if validate { themed_records(&files) } else { Vec::new() };
    let mut nw3 = nw3::Nw3Data::from_files(files, validate)?;
    if let Some((file, e)) = episode {
        if validate {
            e.validate(&file)?;
            nw3_themes::validate_records(&e, &file, &themed)?;
        }
        nw3.episode = e;
    }
    Ok(nw3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Tables> {
        Tables::from_files("test".into(), &[("t.toml".into(), text.into())])
    }

    #[test]
    fn the_embedded_tables_load_and_validate() {
        let t = Tables::embedded().expect("embedded tables are valid");
        assert!(t.roll_table("myk.names.flair").is_some());
        assert_eq!(t.version.len(), 12);
    }

    #[test]
    fn a_broken_file_names_its_line() {
        let e = load("[[roll]]\nname = \"x\"\ntitle = \nrows = []\n").unwrap_err().to_string();
        assert!(e.starts_with("`t.toml` line 3: "), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn an_unknown_field_is_an_error_naming_it() {
        let e = load("[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"1D6\"\nrowz = []\n").unwrap_err().to_string();
        assert!(e.contains("line 5") && e.contains("rowz"), "{e}");
    }

    /// The errors toml's own deserializer gave a user's file (before issue 36 moved it onto the
    /// blob reader), as one line: held equal, line and words, for a spread of broken records.
    fn toml_error(path: &str, text: &str) -> String {
        let e = toml::from_str::<TableFile>(text).map(|_| ()).expect_err(text);
        let line = e.span().map_or(1, |s| text[..s.start].matches('\n').count() + 1);
        let message = e.message().lines().next().unwrap_or_default().trim().trim_end_matches('.').to_string();
        Error::TableSyntax { file: path.into(), line, message }.to_string()
    }

    #[test]
    fn a_schema_error_in_a_tables_folder_names_the_line_and_words_toml_gave() {
        let roll = "[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"1D6\"\nrows = [{roll = \"1-6\", result = \"a\"}]\n";
        let broken = [
            roll.replace("rows", "rowz"),
            roll.replace("title = \"X\"\n", ""),
            roll.replace("\"1D6\"", "6"),
            roll.replace("\"1D6\"", "\"1D7x\""),
            roll.replace("\"1-6\"", "[1]"),
            roll.replace("result = \"a\"", "result = \"a\", odd = true"),
            format!("{roll}[[trap]]\nname = \"Pit\"\nlevel = \"high\"\n"),
            format!("{roll}[[monster]]\nname = \"Ogre\"\nhp = \"many\"\n"),
            format!("{roll}[nw3]\nfoo = 1\n"),
            format!("{roll}\n[[bogus]]\nx = 1\n"),
        ];
        for text in &broken {
            let ours = load(text).map(|_| ()).expect_err(text).to_string();
            assert_eq!(ours, toml_error("t.toml", text), "{text}");
        }
    }

    #[test]
    fn a_table_with_a_gap_names_the_missing_outcome() {
        let e =
            load("[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"1D6\"\nrows = [{roll = \"1-5\", result = \"a\"}]\n")
                .unwrap_err()
                .to_string();
        assert_eq!(e, "`t.toml`: table `x`: no row for outcome 6");
    }

    #[test]
    fn a_yielded_name_must_exist() {
        let e = load("[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"1D6\"\nyields = \"trap\"\nrows = [{roll = \"1-6\", result = \"Nothing\"}]\n")
            .unwrap_err()
            .to_string();
        assert_eq!(e, "`t.toml`: table `x`: row `1-6` yields `Nothing`, which is not a trap in the tables");
    }

    #[test]
    fn table_references_are_followed_when_rolling() {
        let t = load(
            "[[roll]]\nname = \"a\"\ntitle = \"A\"\ndice = \"1D6\"\nrows = [{roll = \"1-6\", table = \"b\"}]\n\
             [[roll]]\nname = \"b\"\ntitle = \"B\"\ndice = \"D66\"\nrows = [{roll = \"11-66\", result = \"end\"}]\n",
        )
        .unwrap();
        let steps = t.roll_chain("a", &mut Dice::new(1)).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[1].row.text(), "end");
        assert!(matches!(t.roll_chain("zzz", &mut Dice::new(1)), Err(Error::UnknownTable { .. })));
    }

    #[test]
    fn a_reference_loop_is_refused() {
        let e =
            load("[[roll]]\nname = \"a\"\ntitle = \"A\"\ndice = \"1D6\"\nrows = [{roll = \"1-6\", table = \"a\"}]\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("loop"), "{e}");
    }

    #[test]
    fn a_missing_tables_folder_is_one_line() {
        let e = Tables::from_dir(Path::new("/no/such/folder")).unwrap_err().to_string();
        assert_eq!(e, "cannot read tables folder `/no/such/folder`: no such file or folder");
    }

    #[test]
    fn the_built_in_tables_pass_every_check_a_tables_folder_gets() {
        // The one check of the built-in tables: the binary reads them from the blob unchecked.
        if let Err(e) = Tables::embedded_from_toml() {
            panic!("the built-in tables are broken: {e}");
        }
    }

    #[test]
    fn built_in_tables_read_from_the_build_time_blob_equal_their_toml() {
        // Every record, index and the version digest: the blob changes nothing but speed, and
        // skipping the checks at run time skips nothing that builds an index.
        let fast = Tables::embedded().expect("embedded tables load from their blob");
        let toml = Tables::embedded_from_toml().expect("embedded TOML tables load");
        assert_eq!(format!("{fast:#?}"), format!("{toml:#?}"));
    }
}
