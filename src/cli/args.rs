//! The command line's options as clap reads them, and how each becomes the library's validated
//! params; the commands themselves are in the parent module.

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::error::Result;
use crate::model::{Format, Paper};
use crate::myk::MykParams;
use crate::myk::model::Layout;
use crate::myk::params as P;
use crate::nw3::FortressParams;
use crate::nw3::params as F;
use crate::render::booklet::Reference;

/// Generate complete, printable dungeon scenarios for Make You Kingdom and Night Wizard 3rd
/// Edition from a seed that reproduces them exactly.
#[derive(Debug, Parser)]
#[command(name = "dungeonsmith", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// Load tables from this folder (every *.toml below it) instead of the built-in ones.
    #[arg(long, global = true, value_name = "DIR")]
    pub tables: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate a Make You Kingdom dungeon: 3x3 map sheets stocked within the threat limits.
    Myk(MykArgs),
    /// Generate a Night Wizard 3rd Fortress: areas and gates from Entrance to Fortress Core.
    Fortress(FortressArgs),
    /// Check a scenario JSON file against every rule and limit; exit 1 if anything is broken.
    Check(CheckArgs),
    /// Re-render every output format from an (edited) scenario JSON file.
    Render(RenderArgs),
    /// Roll one part of a scenario anew (a room or part of it, a map, an area, the frame) and
    /// write the scenario with its renders; the part is recorded in the file's `rerolls`.
    Reroll(RerollArgs),
    /// The GM's workbench: a local web page with live sheets, rerolls, locks and permalinks.
    Serve(ServeArgs),
    /// Fill in every number an edited scenario's rules derive (levels, stat blocks, limits,
    /// difficulties...) and write it back; then list the rules it still breaks (exit 1 if any).
    ///
    /// What you chose (names, counts, reactions, corridors, entrances, gates, area kinds, notes)
    /// is kept; what follows from it is filled in from the tables and the rules. The fixed file is
    /// written even when a rule still breaks (exit 1: resolve what is listed, then fix again); a
    /// name the tables do not know writes nothing and names the field (exit 2).
    Fix(FixArgs),
    /// List, show and roll the random tables (alone: list them).
    Tables {
        #[command(subcommand)]
        action: Option<TablesCommand>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TablesCommand {
    /// List every roll table with its dice and title.
    List,
    /// Show one table's rows (or a trap, base or monster by name).
    Show {
        /// A table name from `tables list`, or a record name such as `Pit`.
        name: String,
    },
    /// Roll a table (following any table it sends you to) and print the result.
    Roll {
        /// A table name from `tables list`.
        name: String,
        /// The seed; without it one is picked at random and printed.
        #[arg(long, value_name = "N", value_parser = seed_value, allow_negative_numbers = true)]
        seed: Option<u64>,
    },
}

/// Where and what to write.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// The folder to write into.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Formats to write, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "json,svg,md,html")]
    pub format: Vec<Format>,
    /// Paper size of the map sheets [default: a4; `render`: the paper the scenario was made for].
    #[arg(long, value_enum)]
    pub paper: Option<Paper>,
    /// Load templates from this folder; any file there replaces the built-in one of that name.
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Where the booklet's part two (the reference: tables, skills, items, glossary, the
    /// fortress rules) goes, in the md, html and pdf booklets.
    #[arg(long, value_enum, default_value = "appendix")]
    pub reference: Reference,
}

// The formats and papers are the model's (`crate::model`); the command line names them.
impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &Format::ALL
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        let v = PossibleValue::new(self.name());
        Some(match self.help() {
            Some(h) => v.help(h),
            None => v,
        })
    }
}

impl ValueEnum for Paper {
    fn value_variants<'a>() -> &'a [Self] {
        &Paper::ALL
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for Reference {
    fn value_variants<'a>() -> &'a [Self] {
        &Reference::ALL
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.help()))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// A single path through the rooms; the ruler's room is last.
    Straight,
    /// Branching corridors: rooms with three or more corridors, real choices.
    Junction,
    /// Junctions, an occasional loop, and a room reached only by special movement.
    Mixed,
}

impl LayoutArg {
    fn of(layout: Layout) -> LayoutArg {
        match layout {
            Layout::Straight => LayoutArg::Straight,
            Layout::Junction => LayoutArg::Junction,
            Layout::Mixed => LayoutArg::Mixed,
        }
    }
}

/// A seed as typed. Negative numbers reach here (not clap's "unexpected argument `-1`") so that
/// the error says what a seed is.
fn seed_value(text: &str) -> std::result::Result<u64, String> {
    text.trim().parse().map_err(|_| format!("must be a number 0 to {}, got {text}", u64::MAX))
}

#[derive(Debug, Args)]
pub struct MykArgs {
    /// The seed; without it one is picked at random and printed.
    #[arg(long, value_name = "N", value_parser = seed_value, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    // The options' names, help and defaults are declared once, in `myk::params`.
    #[arg(long = P::COURT_SIZE.name, value_name = "N", help = P::COURT_SIZE.help_text())]
    pub court_size: Option<u32>,
    #[arg(long = P::LEVEL_OPT.name, value_name = "N", conflicts_with = "levels", help = P::LEVEL_OPT.help_text())]
    pub level: Option<u32>,
    #[arg(long = P::LEVELS.name, value_name = "L,L,...", value_delimiter = ',', help = P::LEVELS.help_text())]
    pub levels: Option<Vec<u32>>,
    #[arg(long = P::MAPS_OPT.name, value_name = "N", default_value_t = const { P::MAPS_OPT.number_default() }, help = P::MAPS_OPT.help_text())]
    pub maps: u32,
    #[arg(long = P::ROOMS_OPT.name, value_name = "N", default_value_t = const { P::ROOMS_OPT.number_default() }, help = P::ROOMS_OPT.help_text())]
    pub rooms: u32,
    #[arg(long = P::LAYOUT.name, value_enum, default_value_t = LayoutArg::of(Layout::default_choice()), help = P::LAYOUT.help_text())]
    pub layout: LayoutArg,
    #[arg(long = P::OBJECTIVE.name, value_name = "KIND", value_parser = |s: &str| s.parse::<crate::myk::model::ObjectiveKind>(), help = P::OBJECTIVE.help_text())]
    pub objective: Option<crate::myk::model::ObjectiveKind>,
    #[arg(long = P::KINGDOM.name, value_name = "NAME", help = P::KINGDOM.help_text())]
    pub kingdom: Option<String>,
    #[arg(long = P::CLASSES.name, value_name = "C,C,...", help = P::CLASSES.help_text())]
    pub classes: Option<String>,
    /// Roll everything unlocked anew from this scenario's options, keeping its locked rooms, maps
    /// and frame exactly. A locked room also keeps its map's name, layout (rooms, corridors and
    /// their traps, entrances) and ruler: only that map's other rooms are stocked anew.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["court_size", "level", "levels", "maps", "rooms", "layout", "objective", "kingdom", "classes"])]
    pub from: Option<PathBuf>,
    /// After generating, reroll this part (e.g. `map1/B2/monsters`, `map1`, `frame`); repeat for
    /// more, in order. The same seed, options and list give the same scenario.
    #[arg(long = "reroll", value_name = "PART")]
    pub rerolls: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct FortressArgs {
    /// The seed; without it one is picked at random and printed.
    #[arg(long, value_name = "N", value_parser = seed_value, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    // The options' names, help and defaults are declared once, in `nw3::params`.
    #[arg(long = F::PARTY_OPT.name, value_name = "N", default_value_t = const { F::PARTY_OPT.number_default() }, help = F::PARTY_OPT.help_text())]
    pub party: u32,
    #[arg(long = F::CL_OPT.name, value_name = "N", default_value_t = const { F::CL_OPT.number_default() }, help = F::CL_OPT.help_text())]
    pub cl: u32,
    #[arg(long = F::AREAS_OPT.name, value_name = "N", default_value_t = const { F::AREAS_OPT.number_default() }, help = F::AREAS_OPT.help_text())]
    pub areas: u32,
    #[arg(long = F::PARTY_ATTACK.name, value_name = "N", help = F::PARTY_ATTACK.help_text())]
    pub party_attack: Option<u32>,
    #[arg(long = F::PARTY_DEFENCE.name, value_name = "N", help = F::PARTY_DEFENCE.help_text())]
    pub party_defence: Option<u32>,
    #[arg(long = F::PARTY_HP_OPT.name, value_name = "N", help = F::PARTY_HP_OPT.help_text())]
    pub party_hp: Option<u32>,
    /// Roll everything unlocked anew from this fortress's options, keeping its locked areas (and
    /// frame) exactly. A locked area also keeps the graph (every area's place, kind and gates):
    /// only the other areas are named and stocked anew.
    #[arg(
        long,
        value_name = "FILE.json",
        conflicts_with_all = ["party", "cl", "areas", "party_attack", "party_defence", "party_hp"]
    )]
    pub from: Option<PathBuf>,
    /// After generating, reroll this part (e.g. `area5/enemies`, `area5`, `frame`); repeat for
    /// more, in order. The same seed, options and list give the same fortress.
    #[arg(long = "reroll", value_name = "PART")]
    pub rerolls: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct RerollArgs {
    /// The scenario JSON file.
    pub file: PathBuf,
    /// Make You Kingdom: the map (1 for the first); alone, the whole map is rolled anew.
    #[arg(long, value_name = "N")]
    pub map: Option<u32>,
    /// Make You Kingdom: a room of that map, A1..C3.
    #[arg(long, value_name = "ROOM")]
    pub room: Option<String>,
    /// Night Wizard 3rd: the area's id.
    #[arg(long, value_name = "N")]
    pub area: Option<u32>,
    /// The frame: title, objective, hooks, cast and clues (MYK); title, trailer, Ruler, Lunar Casket
    /// Logics, entrance condition and Fortress Core (NW3).
    #[arg(long)]
    pub frame: bool,
    /// Which part: a MYK room's monsters|traps|bases|name, an NW3 area's enemies|trap|event|objects,
    /// or all of it [default: all].
    #[arg(long, value_name = "PART")]
    pub part: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on.
    #[arg(long, value_name = "N", default_value_t = 8470)]
    pub port: u16,
    /// The address to listen on; only this machine can reach the default.
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the desktop's browser (best effort).
    #[arg(long)]
    pub open: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The scenario JSON file (generated or hand-edited).
    pub file: PathBuf,
    /// Treat warnings (departures from the book's advice) as errors: exit 1 on any.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The scenario JSON file (generated or hand-edited).
    pub file: PathBuf,
    /// Render even if the scenario breaks rules (the violations are still listed).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct FixArgs {
    /// The scenario JSON file (generated or hand-edited); rewritten in place unless `--out` is given.
    pub file: PathBuf,
    /// Write the fixed scenario to this file instead.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl MykArgs {
    /// The validated generator parameters these options ask for.
    pub fn params(&self) -> Result<MykParams> {
        let levels = crate::myk::court_levels(self.court_size, self.level, self.levels.as_deref())?;
        let layout = match self.layout {
            LayoutArg::Straight => Layout::Straight,
            LayoutArg::Junction => Layout::Junction,
            LayoutArg::Mixed => Layout::Mixed,
        };
        let kingdom = self.kingdom.as_deref().map(crate::myk::court::kingdom_name).transpose()?;
        let classes = self.classes.as_deref().map(crate::myk::court::parse_classes).transpose()?.unwrap_or_default();
        let params = MykParams {
            levels,
            maps: self.maps,
            rooms: self.rooms,
            layout,
            objective: self.objective,
            kingdom,
            classes,
        };
        params.validate()?;
        Ok(params)
    }
}

impl OutputArgs {
    /// The formats asked for, each once, in the order a run renders them.
    pub(super) fn formats(&self) -> Vec<Format> {
        let mut f = self.format.clone();
        f.sort();
        f.dedup();
        f
    }
}

impl FortressArgs {
    /// The validated generator parameters these options ask for.
    pub fn params(&self) -> Result<FortressParams> {
        let params = FortressParams {
            party: self.party,
            cl: self.cl,
            areas: self.areas,
            party_attack: self.party_attack,
            party_defence: self.party_defence,
            party_hp: self.party_hp,
        };
        params.validate()?;
        Ok(params)
    }
}
