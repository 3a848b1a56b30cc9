//! The command line: clap parses raw flags, they become a validated spec, then the library works.
//! `run` returns the exit code (0 ok, 1 rule violations, 2 bad input or any other error) and is
//! tested in-process.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use std::path::Path;

use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::model::{Format, Paper};
use crate::myk::MykParams;
use crate::myk::model::Layout;
use crate::output::{write_all, write_set};
use crate::render::{self, text::Templates};
use crate::tables::Tables;

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
    /// List, show and roll the random tables.
    Tables {
        #[command(subcommand)]
        action: TablesCommand,
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
        #[arg(long, value_name = "N")]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    /// A single path through the rooms; the ruler's room is last.
    Straight,
    /// Branching corridors: rooms with three or more corridors, real choices.
    Junction,
    /// Junctions, an occasional loop, and a room reached only by special movement.
    Mixed,
}

#[derive(Debug, Args)]
pub struct MykArgs {
    /// The seed; without it one is picked at random and printed.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Members of the court (PCs), 1-12 [default: 4, or the length of --levels].
    #[arg(long, value_name = "N")]
    pub court_size: Option<u32>,
    /// Every member's level, 1-30 [default: 2] (use --levels for a mixed court).
    #[arg(long, value_name = "N", conflicts_with = "levels")]
    pub level: Option<u32>,
    /// Each member's level, comma-separated (e.g. 2,3,2,1); sets the court size.
    #[arg(long, value_name = "L,L,...", value_delimiter = ',')]
    pub levels: Option<Vec<u32>>,
    /// Number of map sheets, 1-20.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub maps: u32,
    /// Rooms used on each map, 3-9.
    #[arg(long, value_name = "N", default_value_t = 9)]
    pub rooms: u32,
    /// How the corridors join the rooms.
    #[arg(long, value_enum, default_value = "mixed")]
    pub layout: LayoutArg,
    /// The objective's kind: defeat, rescue, acquire, search, deliver, win_over or race
    /// [default: rolled].
    #[arg(long, value_name = "KIND", value_parser = |s: &str| s.parse::<crate::myk::model::ObjectiveKind>())]
    pub objective: Option<crate::myk::model::ObjectiveKind>,
    /// Roll everything unlocked anew from this scenario's options, keeping its locked rooms, maps
    /// and frame exactly.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["court_size", "level", "levels", "maps", "rooms", "layout", "objective"])]
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
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Party size, 1-8.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub party: u32,
    /// Character level of the party, 1-20.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub cl: u32,
    /// Number of areas, 3-40.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub areas: u32,
    /// A PC's attack (PATK or MATK of the main attack, 0-99): every enemy is tuned to it instead
    /// of the model PC's 10 + CL.
    #[arg(long, value_name = "N")]
    pub party_attack: Option<u32>,
    /// A PC's defence (PDEF, 0-99), instead of the model PC's 5 + CL / 2.
    #[arg(long, value_name = "N")]
    pub party_defence: Option<u32>,
    /// A PC's HP (1-999), instead of the model PC's 21 + 6 x CL.
    #[arg(long, value_name = "N")]
    pub party_hp: Option<u32>,
    /// Roll everything unlocked anew from this fortress's options, keeping its locked areas (and
    /// frame) exactly.
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
    /// The frame: title, objective, hooks, cast and clues (MYK); see the README for NW3.
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

/// Runs the program on `args` (including the program name), writing to the given streams.
/// Returns the exit code.
pub fn run<I, T>(args: I, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_error(&e, stdout, stderr),
    };
    match execute(cli, stdout, stderr) {
        Ok(code) => code,
        Err(Failure::Pipe) => 0,
        Err(Failure::Error(e)) => {
            let _ = writeln!(stderr, "error: {}", crate::error::cut_quotes(&e.to_string()));
            2
        }
    }
}

/// Help and version go to stdout with status 0; usage errors print clap's first line, status 2.
fn clap_error(e: &clap::Error, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = write!(stdout, "{}", e.render());
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand { 2 } else { 0 }
        }
        _ => {
            let _ = writeln!(stderr, "{}", crate::error::cut_quotes(&clap_line(e)));
            2
        }
    }
}

/// Clap's message as one line: its first line, plus what the point is when clap puts that on the
/// lines below (the missing arguments, the valid values).
fn clap_line(e: &clap::Error) -> String {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("error: invalid arguments").to_string();
    match e.kind() {
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<&str> = lines.take_while(|l| !l.starts_with("Usage:")).collect();
            format!("{first} {}", missing.join(", "))
        }
        ErrorKind::InvalidValue => match lines.find(|l| l.starts_with("[possible values:")) {
            Some(values) => {
                let values = values.trim_start_matches("[possible values:").trim_end_matches(']').trim();
                format!("{first}; use one of: {values}")
            }
            None => first,
        },
        _ => first,
    }
}

/// Why a command stopped early: a closed output pipe (not an error) or a real error.
pub enum Failure {
    Pipe,
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Error(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Pipe
        } else {
            Failure::Error(Error::Write { file: "standard output".into(), reason: e.to_string() })
        }
    }
}

type Outcome = std::result::Result<i32, Failure>;

fn execute(cli: Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Outcome {
    let tables = || -> Result<Tables> { Tables::load(cli.tables.as_deref()) };
    match &cli.command {
        Command::Tables { action } => tables_command(&tables()?, action, stdout, stderr),
        Command::Myk(args) => myk_command(&tables()?, args, stdout, stderr),
        Command::Fortress(args) => fortress_command(&tables()?, args, stdout, stderr),
        Command::Check(args) => check_command(&tables()?, args, stdout),
        Command::Render(args) => render_command(&tables()?, args, stdout, stderr),
        Command::Reroll(args) => reroll_command(&tables()?, args, stdout, stderr),
        Command::Serve(args) => {
            crate::serve::address(&args.host, args.port)?;
            crate::serve::run(tables()?, &args.host, args.port, args.open, stdout, stderr)?;
            Ok(0)
        }
        Command::Fix(args) => fix_command(&tables()?, args, stdout),
    }
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
        let params = MykParams { levels, maps: self.maps, rooms: self.rooms, layout, objective: self.objective };
        params.validate()?;
        Ok(params)
    }
}

impl OutputArgs {
    /// The formats asked for, each once, in the order a run renders them.
    fn formats(&self) -> Vec<Format> {
        let mut f = self.format.clone();
        f.sort();
        f.dedup();
        f
    }
}

/// Renders a MYK scenario in every chosen format and writes the files; one line per file.
fn write_myk(
    s: &crate::myk::Scenario,
    tables: &Tables,
    templates: &Templates,
    o: &OutputArgs,
    out: &mut dyn Write,
) -> Outcome {
    let formats = o.formats();
    let opts = render::RenderOptions { formats: &formats, paper: s.params.paper, templates };
    let artifacts = render::render_myk(s, tables, &opts, &render::sheet::myk_sheet)?;
    for path in write_set(&o.out, &format!("myk-{}", s.seed), &artifacts)? {
        writeln!(out, "{}", path.display())?;
    }
    Ok(0)
}

/// Renders a Fortress in every chosen format and writes the files; one line per file.
fn write_fortress(
    f: &crate::nw3::Fortress,
    tables: &Tables,
    templates: &Templates,
    o: &OutputArgs,
    out: &mut dyn Write,
) -> Outcome {
    let formats = o.formats();
    let opts = render::RenderOptions { formats: &formats, paper: f.paper, templates };
    let artifacts = render::render_fortress(f, tables, &opts, &render::area_map::fortress_map)?;
    for path in write_set(&o.out, &format!("fortress-{}", f.seed), &artifacts)? {
        writeln!(out, "{}", path.display())?;
    }
    Ok(0)
}

fn fortress_command(tables: &Tables, args: &FortressArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let params = crate::nw3::FortressParams {
        party: args.party,
        cl: args.cl,
        areas: args.areas,
        party_attack: args.party_attack,
        party_defence: args.party_defence,
        party_hp: args.party_hp,
    };
    params.validate()?;
    let rerolls: Vec<crate::edit::nw3::Nw3Part> = args.rerolls.iter().map(|p| p.parse()).collect::<Result<_>>()?;
    let templates = Templates::load(args.output.templates.as_deref())?;
    let seed = pick_seed(args.seed, err);
    let mut fortress = match &args.from {
        Some(file) => {
            let from = read_fortress(file, tables)?;
            let mut f = crate::edit::nw3::regenerate(tables, &from, seed)?;
            f.paper = args.output.paper.unwrap_or(from.paper);
            f
        }
        None => crate::nw3::generate(tables, &params, seed)?,
    };
    for part in &rerolls {
        crate::edit::nw3::reroll(tables, &mut fortress, part)?;
    }
    if let Some(paper) = args.output.paper {
        fortress.paper = paper;
    }
    let code = write_fortress(&fortress, tables, &templates, &args.output, out)?;
    writeln!(
        err,
        "{} (seed {seed}): {} areas, {} gates, ruler {}",
        fortress.title,
        fortress.areas.len(),
        fortress.gates.len(),
        fortress.ruler.name
    )?;
    Ok(code)
}

fn myk_command(tables: &Tables, args: &MykArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let params = args.params()?;
    let rerolls: Vec<crate::edit::myk::MykPart> = args.rerolls.iter().map(|p| p.parse()).collect::<Result<_>>()?;
    // Templates are read (once) before any work, so a bad --templates folder fails fast.
    let templates = Templates::load(args.output.templates.as_deref())?;
    let from = match &args.from {
        Some(file) => Some(read_myk(file, tables)?),
        None => None,
    };
    let seed = pick_seed(args.seed, err);
    let mut scenario = match &from {
        Some(from) => crate::edit::myk::regenerate(tables, from, seed)?,
        None => crate::myk::generate(tables, &params, seed)?,
    };
    for part in &rerolls {
        crate::edit::myk::reroll(tables, &mut scenario, part)?;
    }
    // The warnings are printed once, with the summary below.
    let paper = from.as_ref().map_or_else(Default::default, |f| f.params.paper);
    scenario.params.paper = args.output.paper.unwrap_or(paper);
    let code = write_myk(&scenario, tables, &templates, &args.output, out)?;
    write!(err, "{}", crate::render::summary::myk_summary(&scenario))?;
    Ok(code)
}

/// A scenario file of either system, parsed.
enum Loaded {
    Myk(Box<crate::myk::Scenario>),
    Nw3(Box<crate::nw3::Fortress>),
}

impl Loaded {
    /// Reads and parses a scenario file; the `system` field says which model it is. What an
    /// older NW3 file lacks (enemy stat blocks, Danger Sense) is filled from `tables`.
    fn read(path: &Path, tables: &Tables) -> Result<Loaded> {
        let file = path.display().to_string();
        let text = crate::input::read_text(path, crate::input::SCENARIO_LIMIT)?;
        let mut value: serde_json::Value = serde_json::from_str(&text).map_err(|e| json_error(&file, &e))?;
        // Held to the limits before anything is built or drawn from it.
        if let Some(problem) = crate::limits::exceeded(&value) {
            let message = format!("{problem} (the README's \"Limits\"); nothing done");
            return Err(Error::Scenario { file, message });
        }
        let system = value.get("system").and_then(|s| s.as_str()).map(str::to_string);
        if let Some(system @ ("myk" | "nw3")) = system.as_deref() {
            let version = crate::format::upgrade(system, &mut value)
                .map_err(|message| Error::Scenario { file: file.clone(), message })?;
            if version != crate::format::CURRENT {
                // An older file: parse the upgraded document (a typo still names its field).
                return match system {
                    "myk" => {
                        Ok(Loaded::Myk(serde_json::from_value(value).map_err(|e| upgraded_error(&file, version, &e))?))
                    }
                    _ => {
                        let mut f: Box<crate::nw3::Fortress> =
                            serde_json::from_value(value).map_err(|e| upgraded_error(&file, version, &e))?;
                        crate::nw3::combat::fill_from_tables(&mut f, tables);
                        Ok(Loaded::Nw3(f))
                    }
                };
            }
        }
        match system.as_deref() {
            Some("myk") => Ok(Loaded::Myk(serde_json::from_str(&text).map_err(|e| json_error(&file, &e))?)),
            Some("nw3") => Ok(Loaded::Nw3(serde_json::from_str(&text).map_err(|e| json_error(&file, &e))?)),
            Some(other) => {
                Err(Error::Scenario { file, message: format!("unknown system `{other}` (expected `myk` or `nw3`)") })
            }
            None => {
                Err(Error::Scenario { file, message: "no `system` field; is this a dungeonsmith scenario?".into() })
            }
        }
    }

    /// Why the renderer cannot draw this scenario at all, if it cannot: a shape no rule fix-up
    /// gives meaning to (the sheet has exactly nine rooms, A1..C3, in order).
    fn undrawable(&self) -> Option<String> {
        match self {
            Loaded::Myk(s) => s.maps.iter().find_map(|m| {
                let in_order = m.rooms.len() == 9 && m.rooms.iter().enumerate().all(|(i, r)| r.id.index() == i);
                (!in_order).then(|| format!("map {} does not list its nine rooms A1..C3 in order", m.index))
            }),
            Loaded::Nw3(_) => None,
        }
    }

    /// Every rule violation (the generators' own checks).
    fn check(&self, tables: &Tables) -> Vec<crate::check::Violation> {
        match self {
            Loaded::Myk(s) => crate::myk::check(s, tables),
            Loaded::Nw3(f) => crate::nw3::check(f, tables),
        }
    }
}

fn render_command(tables: &Tables, args: &RenderArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let loaded = Loaded::read(&args.file, tables)?;
    let violations = loaded.check(tables);
    for v in &violations {
        writeln!(err, "{v}")?;
    }
    let errors = crate::check::errors(&violations, false);
    if errors > 0 && !args.force {
        let file = args.file.display();
        writeln!(err, "{file}: {errors} violation(s); nothing written (use --force to render anyway)")?;
        return Ok(1);
    }
    if let Some(problem) = loaded.undrawable() {
        let file = args.file.display();
        writeln!(err, "{file}: {problem}; nothing written (even --force cannot draw it)")?;
        return Ok(1);
    }
    // `--paper` overrides the paper the scenario was made for, and is remembered in the JSON.
    let paper = args.output.paper;
    let templates = Templates::load(args.output.templates.as_deref())?;
    match loaded {
        Loaded::Myk(mut s) => {
            crate::myk::generate::normalize(&mut s);
            // Older files lack the ruler's final stat line: computed from the bestiary by name.
            crate::myk::ruler::normalize(&mut s, tables);
            s.params.paper = paper.unwrap_or(s.params.paper);
            write_myk(&s, tables, &templates, &args.output, out)
        }
        Loaded::Nw3(mut f) => {
            f.paper = paper.unwrap_or(f.paper);
            write_fortress(&f, tables, &templates, &args.output, out)
        }
    }
}

/// Reads a scenario file that must be a Make You Kingdom one (for `myk --from`).
fn read_myk(file: &Path, tables: &Tables) -> Result<crate::myk::Scenario> {
    match Loaded::read(file, tables)? {
        Loaded::Myk(s) => Ok(*s),
        Loaded::Nw3(_) => Err(Error::Option {
            option: "--from",
            message: format!("`{}` is a Night Wizard fortress; use `fortress --from`", file.display()),
        }),
    }
}

/// Reads a scenario file that must be a Night Wizard one (for `fortress --from`).
fn read_fortress(file: &Path, tables: &Tables) -> Result<crate::nw3::Fortress> {
    match Loaded::read(file, tables)? {
        Loaded::Nw3(f) => Ok(*f),
        Loaded::Myk(_) => Err(Error::Option {
            option: "--from",
            message: format!("`{}` is a Make You Kingdom scenario; use `myk --from`", file.display()),
        }),
    }
}

/// `reroll FILE.json (--map N [--room B2] | --area N | --frame) [--part P]`: the part from the
/// options, checked against the file's system, then rerolled and written with its renders.
fn reroll_command(tables: &Tables, args: &RerollArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let loaded = Loaded::read(&args.file, tables)?;
    let templates = Templates::load(args.output.templates.as_deref())?;
    let paper = args.output.paper;
    match loaded {
        Loaded::Myk(mut s) => {
            let part = myk_part(args)?;
            // As `render` writes it: an older file's ruler gains its final stat line.
            crate::myk::ruler::normalize(&mut s, tables);
            crate::edit::myk::reroll(tables, &mut s, &part)?;
            s.params.paper = paper.unwrap_or(s.params.paper);
            let code = write_myk(&s, tables, &templates, &args.output, out)?;
            writeln!(err, "rerolled `{part}` of {}", args.file.display())?;
            Ok(code)
        }
        Loaded::Nw3(mut f) => {
            let part = nw3_part(args)?;
            crate::edit::nw3::reroll(tables, &mut f, &part)?;
            f.paper = paper.unwrap_or(f.paper);
            let code = write_fortress(&f, tables, &templates, &args.output, out)?;
            writeln!(err, "rerolled `{part}` of {}", args.file.display())?;
            Ok(code)
        }
    }
}

/// The MYK part the reroll options name; invalid combinations name the option at fault.
fn myk_part(args: &RerollArgs) -> Result<crate::edit::myk::MykPart> {
    use crate::edit::myk::{MykPart, RoomPart};
    let file = args.file.display();
    if args.area.is_some() {
        return Err(Error::Option {
            option: "--area",
            message: format!("`{file}` is a Make You Kingdom scenario; use `--map N [--room B2]` or `--frame`"),
        });
    }
    let part = args.part.as_deref();
    match (args.map, &args.room, args.frame) {
        (None, Some(_), _) => {
            Err(Error::Option { option: "--room", message: "needs `--map N`, the map the room is on".into() })
        }
        (Some(_), _, true) => {
            Err(Error::Option { option: "--frame", message: "rerolls the frame; leave out `--map`".into() })
        }
        (None, None, false) => Err(Error::Option {
            option: "--map",
            message: format!("say what to reroll in `{file}`: `--map N [--room B2]` or `--frame`"),
        }),
        (None, None, true) | (Some(_), None, false) => {
            if let Some(p) = part.filter(|p| *p != "all") {
                let what = if args.frame { "the frame" } else { "a whole map" };
                return Err(Error::Option {
                    option: "--part",
                    message: format!(
                        "`{p}` is a part of a room; {what} is rerolled whole (use `--room` for a room's parts)"
                    ),
                });
            }
            Ok(if args.frame { MykPart::Frame } else { MykPart::Map(args.map.unwrap_or(1)) })
        }
        (Some(map), Some(room), false) => {
            let room = room.parse().map_err(|message| Error::Option { option: "--room", message })?;
            let what = match part {
                None => RoomPart::All,
                Some(p) => RoomPart::named(p).ok_or_else(|| Error::Option {
                    option: "--part",
                    message: format!(
                        "`{p}` is not a part of a Make You Kingdom room; use monsters, traps, bases, name or all"
                    ),
                })?,
            };
            Ok(MykPart::Room { map, room, what })
        }
    }
}

/// The NW3 part the reroll options name; invalid combinations name the option at fault.
fn nw3_part(args: &RerollArgs) -> Result<crate::edit::nw3::Nw3Part> {
    use crate::edit::nw3::{AreaPart, Nw3Part};
    let file = args.file.display();
    if let Some(option) = [(args.map.is_some(), "--map"), (args.room.is_some(), "--room")]
        .into_iter()
        .find_map(|(given, o)| given.then_some(o))
    {
        return Err(Error::Option {
            option,
            message: format!("`{file}` is a Night Wizard fortress; use `--area N` or `--frame`"),
        });
    }
    let part = args.part.as_deref();
    match (args.area, args.frame) {
        (Some(_), true) => {
            Err(Error::Option { option: "--frame", message: "rerolls the frame; leave out `--area`".into() })
        }
        (None, false) => Err(Error::Option {
            option: "--area",
            message: format!("say what to reroll in `{file}`: `--area N` or `--frame`"),
        }),
        (None, true) => match part.filter(|p| *p != "all") {
            Some(p) => Err(Error::Option {
                option: "--part",
                message: format!("`{p}` is a part of an area; the frame is rerolled whole"),
            }),
            None => Ok(Nw3Part::Frame),
        },
        (Some(id), false) => {
            let what = match part.unwrap_or("all") {
                "all" => AreaPart::All,
                "enemies" => AreaPart::Enemies,
                "trap" => AreaPart::Trap,
                "event" => AreaPart::Event,
                "objects" => AreaPart::Objects,
                p => {
                    return Err(Error::Option {
                        option: "--part",
                        message: format!(
                            "`{p}` is not a part of a Night Wizard area; use enemies, trap, event, objects or all"
                        ),
                    });
                }
            };
            Ok(Nw3Part::Area { id, what })
        }
    }
}

/// An error in a file upgraded from an older format (no line numbers: they would be the upgraded text's).
fn upgraded_error(file: &str, version: u32, e: &serde_json::Error) -> Error {
    Error::Scenario { file: file.to_string(), message: format!("(format {version}, upgraded on read) {e}") }
}

fn json_error(file: &str, e: &serde_json::Error) -> Error {
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    Error::Scenario { file: file.to_string(), message: format!("line {} column {}: {msg}", e.line(), e.column()) }
}

fn check_command(tables: &Tables, args: &CheckArgs, out: &mut dyn Write) -> Outcome {
    let loaded = Loaded::read(&args.file, tables)?;
    let violations = loaded.check(tables);
    let file = args.file.display();
    // Not a rule: a hand-edited gate graph the area map cannot draw without crossings.
    if let Loaded::Nw3(f) = &loaded
        && let Some(note) = crate::nw3::layout::crossing_note(f)
    {
        writeln!(out, "{file}: note: {note}")?;
    }
    if violations.is_empty() {
        writeln!(out, "{file}: ok, every rule and limit holds")?;
        return Ok(0);
    }
    for v in &violations {
        writeln!(out, "{v}")?;
    }
    let errors = crate::check::errors(&violations, args.strict);
    let warnings = violations.len() - crate::check::errors(&violations, false);
    if errors == 0 {
        writeln!(out, "{file}: ok, every rule holds; {warnings} warning(s) (`--strict` makes them errors)")?;
        return Ok(0);
    }
    writeln!(out, "{file}: {errors} violation(s)")?;
    Ok(1)
}

/// `fix`: reads the scenario, fills in what the rules derive (`crate::fix`), writes it (all or
/// nothing; nothing when a name is unknown), then lists what it still breaks, as `check` does. The
/// fixed file is written even then: what remains are the GM's own rule breaks to resolve.
fn fix_command(tables: &Tables, args: &FixArgs, out: &mut dyn Write) -> Outcome {
    let file = args.file.display().to_string();
    let mut loaded = Loaded::read(&args.file, tables)?;
    let fixed = match &mut loaded {
        Loaded::Myk(s) => crate::fix::myk::fix(s, tables),
        Loaded::Nw3(f) => crate::fix::nw3::fix(f, tables),
    };
    fixed.map_err(|e| Error::Scenario { file: file.clone(), message: e.to_string() })?;
    let json = match &loaded {
        Loaded::Myk(s) => render::json(s.as_ref())?,
        Loaded::Nw3(f) => render::json(f.as_ref())?,
    };
    let target = args.out.as_deref().unwrap_or(&args.file);
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return Err(
            Error::Option { option: "--out", message: format!("`{}` is not a file name", target.display()) }.into()
        );
    };
    let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    write_all(dir, &[crate::output::Artifact::new(name, json)])?;
    let violations = loaded.check(tables);
    let target = target.display();
    writeln!(out, "{target}")?;
    for v in &violations {
        writeln!(out, "{v}")?;
    }
    let errors = crate::check::errors(&violations, false);
    if errors == 0 {
        writeln!(out, "{target}: fixed, every rule and limit holds")?;
        return Ok(0);
    }
    writeln!(out, "{target}: fixed, {errors} violation(s) remain")?;
    Ok(1)
}

/// A seed from the option, or a fresh one announced on stderr so the result can be reproduced.
pub fn pick_seed(seed: Option<u64>, stderr: &mut dyn Write) -> u64 {
    seed.unwrap_or_else(|| {
        let s = crate::dice::fresh_seed();
        let _ = writeln!(stderr, "seed {s} (pass --seed {s} to get this again)");
        s
    })
}

fn tables_command(tables: &Tables, action: &TablesCommand, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    match action {
        TablesCommand::List => {
            let width = tables.rolls.iter().map(|l| l.item.name.len()).max().unwrap_or(0);
            for l in &tables.rolls {
                writeln!(out, "{:width$}  {:3}  {}", l.item.name, l.item.dice.label(), l.item.title)?;
            }
            writeln!(
                out,
                "{} tables; records: {} traps, {} bases, {} monsters, {} ruler skills, {} weak points, {} items (tables version {})",
                tables.rolls.len(),
                tables.myk.traps.len(),
                tables.myk.bases.len(),
                tables.myk.monsters.len(),
                tables.myk.ruler_skills.len(),
                tables.myk.weak_points.len(),
                tables.items.items.len(),
                tables.version
            )?;
            let sk = &tables.myk.skills;
            writeln!(out, "{} monster skills; effect unknown (lost in the source): {}", sk.skills.len(), {
                let lost: Vec<String> = sk.unknown.iter().map(|u| u.label()).collect();
                if lost.is_empty() { "none".to_string() } else { lost.join(", ") }
            })?;
            Ok(0)
        }
        TablesCommand::Show { name } => {
            let text = crate::tables::show::show(tables, name)?;
            write!(out, "{text}")?;
            if let Some(note) = crate::tables::placeholders::explain(&text) {
                writeln!(out, "{note}")?;
            }
            Ok(0)
        }
        TablesCommand::Roll { name, seed } => {
            tables.require(name)?;
            let seed = pick_seed(*seed, err);
            let mut dice = Dice::new(seed).child("tables/roll").child(name);
            let steps = tables.roll_chain(name, &mut dice)?;
            let chain: Vec<String> =
                steps.iter().map(|s| format!("{} {} {}", s.table.name, s.table.dice.label(), s.outcome)).collect();
            let mut result = steps.last().map(|s| s.row.text()).unwrap_or_default();
            // An item drawn from an item table brings its record's gist, on the same line.
            if steps.last().is_some_and(|s| s.table.yields == Some(crate::tables::roll::Collection::Item))
                && let Some(it) = tables.items.item(&result)
            {
                result = format!("{result} ({}, cost {}): {}", it.category.label(), it.cost_text(), it.effect);
            }
            // One line, the placeholders explained at its end.
            let note = crate::tables::placeholders::explain(&result).map(|n| format!(" {n}")).unwrap_or_default();
            writeln!(out, "{} -> {result}{note}", chain.join(" -> "))?;
            Ok(0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
