//! The command line: clap parses raw flags, they become a validated spec, then the library works.
//! `run` returns the exit code (0 ok, 1 rule violations, 2 bad input or any other error) and is
//! tested in-process.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use std::path::Path;

use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::myk::MykParams;
use crate::myk::model::Layout;
use crate::output::write_all;
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum Format {
    Json,
    Svg,
    Md,
    Html,
    /// Universal VTT maps (`*.dd2vtt`) for Foundry, Owlbear Rodeo, Fantasy Grounds, Arkenforge.
    Uvtt,
    /// Udonarium room data (a zip to drop on Udonarium's window).
    Udonarium,
    /// One print-ready PDF: GM sheets, scenario text, players' sheets.
    Pdf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Paper {
    A4,
    Letter,
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
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The scenario JSON file (generated or hand-edited).
    pub file: PathBuf,
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
            let _ = writeln!(stderr, "error: {e}");
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
            let _ = writeln!(stderr, "{}", clap_line(e));
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
    }
}

impl MykArgs {
    /// The validated generator parameters these options ask for.
    pub fn params(&self) -> Result<MykParams> {
        let levels = match (&self.levels, self.level) {
            (Some(levels), _) => {
                // Blame `--levels` itself, not the `--level`/`--court-size` it stands for.
                if let Some(l) = levels.iter().find(|l| !(1..=30).contains(*l)) {
                    return Err(Error::Option { option: "--levels", message: format!("level {l}; levels run 1-30") });
                }
                if levels.len() > 12 {
                    return Err(Error::Option {
                        option: "--levels",
                        message: format!("{} levels; a court has 1-12 members", levels.len()),
                    });
                }
                if let Some(size) = self.court_size
                    && size as usize != levels.len()
                {
                    return Err(Error::Option {
                        option: "--court-size",
                        message: format!("{size} does not match the {} levels given with `--levels`", levels.len()),
                    });
                }
                levels.clone()
            }
            (None, level) => vec![level.unwrap_or(2); self.court_size.unwrap_or(4) as usize],
        };
        if levels.len() > 12 || self.court_size == Some(0) {
            return Err(Error::Option {
                option: "--court-size",
                message: format!("{}; a court has 1-12 members", levels.len()),
            });
        }
        let layout = match self.layout {
            LayoutArg::Straight => Layout::Straight,
            LayoutArg::Junction => Layout::Junction,
            LayoutArg::Mixed => Layout::Mixed,
        };
        let params = MykParams { levels, maps: self.maps, rooms: self.rooms, layout };
        params.validate()?;
        Ok(params)
    }
}

impl OutputArgs {
    fn formats(&self) -> Vec<render::Format> {
        let mut f: Vec<render::Format> = self
            .format
            .iter()
            .map(|f| match f {
                Format::Json => render::Format::Json,
                Format::Svg => render::Format::Svg,
                Format::Md => render::Format::Md,
                Format::Html => render::Format::Html,
                Format::Uvtt => render::Format::Uvtt,
                Format::Udonarium => render::Format::Udonarium,
                Format::Pdf => render::Format::Pdf,
            })
            .collect();
        f.sort();
        f.dedup();
        f
    }
    /// The paper asked for, if any (a scenario remembers its own; see `render_command`).
    fn paper(&self) -> Option<render::Paper> {
        self.paper.map(|p| match p {
            Paper::A4 => render::Paper::A4,
            Paper::Letter => render::Paper::Letter,
        })
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
    for path in write_all(&o.out, &artifacts)? {
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
    for path in write_all(&o.out, &artifacts)? {
        writeln!(out, "{}", path.display())?;
    }
    Ok(0)
}

fn fortress_command(tables: &Tables, args: &FortressArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let params = crate::nw3::FortressParams { party: args.party, cl: args.cl, areas: args.areas };
    params.validate()?;
    let templates = Templates::load(args.output.templates.as_deref())?;
    let seed = pick_seed(args.seed, err);
    let mut fortress = crate::nw3::generate(tables, &params, seed)?;
    fortress.paper = args.output.paper().unwrap_or_default();
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
    // Templates are read (once) before any work, so a bad --templates folder fails fast.
    let templates = Templates::load(args.output.templates.as_deref())?;
    let seed = pick_seed(args.seed, err);
    let mut scenario = crate::myk::generate(tables, &params, seed)?;
    // The warnings are printed once, with the summary below.
    scenario.params.paper = args.output.paper().unwrap_or_default();
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
    if !violations.is_empty() && !args.force {
        let file = args.file.display();
        writeln!(err, "{file}: {} violation(s); nothing written (use --force to render anyway)", violations.len())?;
        return Ok(1);
    }
    if let Some(problem) = loaded.undrawable() {
        let file = args.file.display();
        writeln!(err, "{file}: {problem}; nothing written (even --force cannot draw it)")?;
        return Ok(1);
    }
    // `--paper` overrides the paper the scenario was made for, and is remembered in the JSON.
    let paper = args.output.paper();
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
    let violations = Loaded::read(&args.file, tables)?.check(tables);
    let file = args.file.display();
    if violations.is_empty() {
        writeln!(out, "{file}: ok, every rule and limit holds")?;
        return Ok(0);
    }
    for v in &violations {
        writeln!(out, "{v}")?;
    }
    writeln!(out, "{file}: {} violation(s)", violations.len())?;
    Ok(1)
}

/// A seed from the option, or a fresh one announced on stderr so the result can be reproduced.
pub fn pick_seed(seed: Option<u64>, stderr: &mut dyn Write) -> u64 {
    seed.unwrap_or_else(|| {
        use rand::Rng;
        let s = rand::rng().next_u64() >> 16;
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
                "{} tables; records: {} traps, {} bases, {} monsters, {} ruler skills, {} weak points (tables version {})",
                tables.rolls.len(),
                tables.myk.traps.len(),
                tables.myk.bases.len(),
                tables.myk.monsters.len(),
                tables.myk.ruler_skills.len(),
                tables.myk.weak_points.len(),
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
            let result = steps.last().map(|s| s.row.text()).unwrap_or_default();
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
