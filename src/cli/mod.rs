//! The command line: clap parses raw flags, they become a validated spec, then the library works.
//! `run` returns the exit code (0 ok, 1 rule violations, 2 bad input or any other error) and is
//! tested in-process.

use std::io::{self, Write};
use std::path::Path;

use clap::Parser;

mod args;
pub mod memory;
pub use args::*;

use crate::dice::Dice;
use crate::document::{Document, Game, Params, Part};
use crate::edit::PartOptions;
use crate::error::{Error, Result};
use crate::output::{write_all, write_set};
use crate::render::text::Templates;
use crate::tables::Tables;

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
            let _ = writeln!(stderr, "error: {}", crate::error::cut_quotes(&e.line_for(crate::error::flag)));
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
/// lines below (the missing arguments, the valid values, the option meant by a typo); a value our
/// own parser refused in the wording of every range error (`--seed` must be ..., got -1).
fn clap_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = e.render().to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("error: invalid arguments").to_string();
    let suggested =
        [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand].into_iter().find_map(|k| match e.get(k) {
            Some(ContextValue::String(s)) => Some(s.clone()),
            Some(ContextValue::Strings(s)) => s.first().cloned(),
            _ => None,
        });
    if let Some(meant) = suggested {
        return format!("{first}; did you mean `{meant}`?");
    }
    // Our parser's own words name the value in backticks, where every message's quotes are cut
    // (clap's first line quotes it whole, in single quotes: 100,000 characters of a bad
    // `--objective` came back in full).
    let ours = std::error::Error::source(e).map(ToString::to_string);
    if let (ErrorKind::ValueValidation, Some(ContextValue::String(arg)), Some(why)) =
        (e.kind(), e.get(ContextKind::InvalidArg), ours)
    {
        let flag = arg.split_whitespace().next().unwrap_or(arg);
        return if why.starts_with("must be ") {
            format!("error: `{flag}` {why}")
        } else {
            format!("error: `{flag}`: {why}")
        };
    }
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
            Failure::Error(Error::write_io("standard output", e))
        }
    }
}

type Outcome = std::result::Result<i32, Failure>;

fn execute(cli: Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Outcome {
    let tables = || -> Result<Tables> { Tables::load(cli.tables.as_deref()) };
    match &cli.command {
        Command::Tables { action } => {
            tables_command(&tables()?, action.as_ref().unwrap_or(&TablesCommand::List), stdout, stderr)
        }
        Command::Myk(a) => {
            let tables = tables()?;
            let g = Generate {
                params: Params::Myk(a.params()?),
                seed: a.seed,
                from: a.from.as_deref(),
                rerolls: &a.rerolls,
                output: &a.output,
            };
            generate_command(&tables, g, stdout, stderr)
        }
        Command::Fortress(a) => {
            let tables = tables()?;
            let g = Generate {
                params: Params::Nw3(a.params()?),
                seed: a.seed,
                from: a.from.as_deref(),
                rerolls: &a.rerolls,
                output: &a.output,
            };
            generate_command(&tables, g, stdout, stderr)
        }
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

/// Renders the document in every chosen format and writes the files; one line per file.
fn write_document(
    doc: &Document,
    tables: &Tables,
    templates: &Templates,
    o: &OutputArgs,
    out: &mut dyn Write,
) -> Outcome {
    out_folder(&o.out)?;
    let watch = o.templates.as_deref().and_then(memory::Watch::start);
    let artifacts = doc.render(tables, &o.formats(), templates)?;
    drop(watch);
    for path in write_set(&o.out, &doc.stem(), &artifacts)? {
        writeln!(out, "{}", path.display())?;
    }
    Ok(0)
}

/// Refuses an `--out` that names a file, or a path through one, before any work: `--out` names
/// the folder the files go in (making it would only say "file exists (os error 17)").
fn out_folder(dir: &Path) -> Result<()> {
    for at in dir.ancestors().filter(|a| !a.as_os_str().is_empty()) {
        match std::fs::metadata(at) {
            Ok(m) if m.is_dir() => return Ok(()),
            Ok(_) => {
                let message =
                    format!("`{}` is a file, not a folder; `--out` names the folder the files go in", at.display());
                return Err(Error::Option { field: "out", message });
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// What `myk` and `fortress` share once their options are read: the game's params, `--from`,
/// `--reroll` and the output options.
struct Generate<'a> {
    params: Params,
    seed: Option<u64>,
    from: Option<&'a Path>,
    rerolls: &'a [String],
    output: &'a OutputArgs,
}

fn generate_command(tables: &Tables, g: Generate, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let game = g.params.game();
    let rerolls: Vec<Part> = g.rerolls.iter().map(|p| game.part(p)).collect::<Result<_>>()?;
    // Templates are read (once) before any work, so a bad --templates folder fails fast.
    let templates = Templates::load(g.output.templates.as_deref())?;
    let from = match g.from {
        Some(file) => Some(read_game(file, tables, game)?),
        None => None,
    };
    let seed = pick_seed(g.seed, err);
    let mut doc = match &from {
        Some(from) => from.regenerate(tables, seed)?,
        None => g.params.generate(tables, seed)?,
    };
    for part in &rerolls {
        doc.reroll(tables, part)?;
    }
    // `--paper` overrides the paper (of `--from`'s file, or the default).
    let paper = from.as_ref().map_or_else(Default::default, Document::paper);
    doc.set_paper(g.output.paper.unwrap_or(paper));
    let code = write_document(&doc, tables, &templates, g.output, out)?;
    // The warnings are printed once, with the summary.
    write!(err, "{}", doc.summary(tables))?;
    Ok(code)
}

/// Reads a scenario file that must be of `game` (for `myk --from`, `fortress --from`).
fn read_game(file: &Path, tables: &Tables, game: Game) -> Result<Document> {
    let doc = Document::read(file, tables)?;
    doc.workable("`--from`").map_err(|e| in_file(file, e))?;
    if doc.game() != game {
        let message = format!("`{}` is {}; use `{} --from`", file.display(), doc.game().kind(), doc.game().command());
        return Err(Error::Option { field: "from", message });
    }
    Ok(doc)
}

fn render_command(tables: &Tables, args: &RenderArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let mut doc = Document::read(&args.file, tables)?;
    let violations = doc.check(tables);
    for v in &violations {
        writeln!(err, "{v}")?;
    }
    let errors = crate::check::errors(&violations, false);
    if errors > 0 && !args.force {
        let file = args.file.display();
        writeln!(
            err,
            "{file}: {}; nothing written (use --force to render anyway)",
            crate::text::count(errors as u64, "violation")
        )?;
        return Ok(1);
    }
    if let Some(problem) = doc.undrawable() {
        let file = args.file.display();
        writeln!(err, "{file}: {problem}; nothing written (even --force cannot draw it)")?;
        return Ok(1);
    }
    let templates = Templates::load(args.output.templates.as_deref())?;
    doc.normalize(tables);
    // `--paper` overrides the paper the scenario was made for, and is remembered in the JSON.
    if let Some(paper) = args.output.paper {
        doc.set_paper(paper);
    }
    write_document(&doc, tables, &templates, &args.output, out)
}

/// `reroll FILE.json (--map N [--room B2] | --area N | --frame) [--part P]`: the part from the
/// options, checked against the file's game, then rerolled and written with its renders.
fn reroll_command(tables: &Tables, args: &RerollArgs, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let mut doc = Document::read(&args.file, tables)?;
    let templates = Templates::load(args.output.templates.as_deref())?;
    let file = args.file.display().to_string();
    let options = PartOptions {
        file: &file,
        map: args.map,
        room: args.room.as_deref(),
        area: args.area,
        frame: args.frame,
        part: args.part.as_deref(),
    };
    let part = doc.part_from_options(&options)?;
    doc.workable("a reroll").map_err(|e| in_file(&args.file, e))?;
    doc.normalize_ruler(tables);
    doc.reroll(tables, &part)?;
    if let Some(paper) = args.output.paper {
        doc.set_paper(paper);
    }
    let code = write_document(&doc, tables, &templates, &args.output, out)?;
    writeln!(err, "rerolled `{part}` of {file}")?;
    Ok(code)
}

fn check_command(tables: &Tables, args: &CheckArgs, out: &mut dyn Write) -> Outcome {
    let doc = Document::read(&args.file, tables)?;
    let violations = doc.check(tables);
    let file = args.file.display();
    // Not a rule: a hand-edited gate graph the area map cannot draw without crossings, say.
    for note in doc.notes() {
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
        writeln!(
            out,
            "{file}: ok, every rule holds; {} (`--strict` makes them errors)",
            crate::text::count(warnings as u64, "warning")
        )?;
        return Ok(0);
    }
    writeln!(out, "{file}: {}", crate::text::count(errors as u64, "violation"))?;
    Ok(1)
}

/// `fix`: reads the scenario, fills in what the rules derive (`crate::fix`), writes it (all or
/// nothing; nothing when a name is unknown), then lists what it still breaks, as `check` does. The
/// fixed file is written even then: what remains are the GM's own rule breaks to resolve.
fn fix_command(tables: &Tables, args: &FixArgs, out: &mut dyn Write) -> Outcome {
    let file = args.file.display().to_string();
    let mut doc = Document::read(&args.file, tables)?;
    doc.fix(tables).map_err(|e| Error::Fix { file: file.clone(), source: Box::new(e) })?;
    let json = doc.json()?;
    let target = args.out.as_deref().unwrap_or(&args.file);
    if let Some(problem) = past_the_limits(&json) {
        return Err(Error::FixPastLimits { file: target.display().to_string(), problem }.into());
    }
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return Err(
            Error::Option { field: "out", message: format!("`{}` is not a file name", target.display()) }.into()
        );
    };
    let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    write_all(dir, &[crate::output::Artifact::new(name, json)])?;
    let violations = doc.check(tables);
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
    let remain = if errors == 1 { "remains" } else { "remain" };
    writeln!(out, "{target}: fixed, {} {remain}", crate::text::count(errors as u64, "violation"))?;
    Ok(1)
}

/// The limit a scenario's JSON `json` passes, if it passes one: the size a scenario file is read
/// up to, then the limits every read holds it to (`crate::limits`). `fix` writes only what reads:
/// its derived texts and counts (a clue telling a weak point listed 200 times, a court of 200
/// levels' encounter counts) can pass limits its input kept.
fn past_the_limits(json: &str) -> Option<String> {
    let most = crate::input::SCENARIO_LIMIT;
    if json.len() as u64 > most {
        return Some(format!("{} bytes; at most {} MiB in a scenario file", json.len(), most >> 20));
    }
    let value: serde_json::Value = match serde_json::from_str(json) {
        Ok(v) => v,
        Err(e) => return Some(format!("the written JSON does not read back ({e})")),
    };
    crate::limits::exceeded(&value).map(|p| format!("{p} (the README's \"Limits\")"))
}

/// An error about the scenario read from `file`, naming it.
fn in_file(file: &Path, e: Error) -> Error {
    Error::InFile { file: file.display().to_string(), source: Box::new(e) }
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
