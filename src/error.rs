//! Errors: each variant carries the file, table, entry or option at fault and prints one line.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong outside rule checking (which reports violations, not errors).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `source` keeps the system's error when there is one (`reason` is its one-line wording);
    /// none when dungeonsmith itself refused (not a folder, no tables in it).
    #[error("cannot read tables folder `{}`: {reason}", path.display())]
    TablesDir { path: PathBuf, reason: String, source: Option<io::Error> },

    #[error("cannot read `{file}`: {reason}")]
    ReadFile { file: String, reason: String, source: Option<io::Error> },

    #[error("`{file}` line {line}: {message}")]
    TableSyntax { file: String, line: usize, message: String },

    #[error("`{file}`: {message}")]
    TableFile { file: String, message: String },

    #[error("`{file}`: table `{table}`: {message}")]
    Table { file: String, table: String, message: String },

    #[error("`{file}`: {kind} `{entry}`: {message}")]
    Entry { file: String, kind: &'static str, entry: String, message: String },

    #[error("unknown table `{name}` (`dungeonsmith tables list` shows them all)")]
    UnknownTable { name: String },

    #[error("the tables ({origin}) have no table `{name}`, which {command} needs")]
    MissingTable { origin: String, name: String, command: &'static str },

    #[error("unknown template `{name}`")]
    UnknownTemplate { name: String },

    #[error("template `{name}`: {message}")]
    Template { name: String, message: String },

    /// An option or a combination of options that cannot be used. `field` is the library's name
    /// (`court_size`, `map`, `frame`); the front end spells it as its users type it
    /// ([`Error::line_for`]: `--court-size` on the command line), so the message names no flag.
    #[error("option `{field}`: {message}")]
    Option { field: &'static str, message: String },

    /// A number outside what a rule allows. `field` is the library's name (`areas`, `court_size`);
    /// the command line and the workbench name it as their users type it ([`Error::line_for`]).
    #[error("`{field}` must be {range}, got {got}")]
    Range { field: &'static str, range: String, got: String },

    /// A scenario file that is not JSON, or whose JSON is not a scenario of today's format: where
    /// the reader stopped (`message` is serde_json's words without its place, which
    /// `line` and `column` give).
    #[error("`{file}`: line {line} column {column}: {message}")]
    ScenarioJson { file: String, line: usize, column: usize, message: String, source: serde_json::Error },

    /// A scenario file of an older format whose upgraded document does not read as today's model
    /// (no line: it would be the upgraded text's).
    #[error("`{file}`: (format {version}, upgraded on read) {message}")]
    ScenarioUpgraded { file: String, version: u32, message: String, source: serde_json::Error },

    /// A scenario file past one of the README's limits (`problem` names the field and the limit),
    /// refused before anything is built from it.
    #[error("`{file}`: {problem} (the README's \"Limits\"); nothing done")]
    ScenarioLimit { file: String, problem: String },

    /// A scenario file without a `system` field.
    #[error("`{file}`: no `system` field; is this a dungeonsmith scenario?")]
    NoSystem { file: String },

    /// A scenario file whose `system` is not a game of this program.
    #[error("`{file}`: unknown system `{system}` (expected `myk` or `nw3`)")]
    UnknownSystem { file: String, system: String },

    /// A scenario file that names two parts by one id (two areas `7`): refused when read, since
    /// every later step finds a part by its id.
    #[error("`{file}`: {message}")]
    RepeatedId { file: String, message: String },

    /// A scenario file whose `format` this program cannot upgrade (`message`: why, from
    /// `crate::format::upgrade`).
    #[error("`{file}`: {message}")]
    ScenarioFormat { file: String, message: String },

    /// `fix` would write `file` past one of the README's limits (`problem` names it): a file no
    /// command reads, so nothing is written.
    #[error("`{file}`: {problem}; `fix` would write a file no command reads; nothing written")]
    FixPastLimits { file: String, problem: String },

    /// A command cannot work on the scenario read from `file` (`source` says why).
    #[error("`{file}`: {source}")]
    InFile { file: String, source: Box<Error> },

    /// `fix` could not fill in the scenario file `file` (a name the tables do not know).
    #[error("`{file}`: {source}")]
    Fix { file: String, source: Box<Error> },

    /// A generated scenario that fails its own check: a bug of the generator (`broken` lists what
    /// it broke), reported rather than written.
    #[error("`{what}`: internal error, the generator broke its own rules: {broken}")]
    SelfCheck { what: String, broken: String },

    /// A MYK scenario with no maps reached a stage that places things on them.
    #[error("the scenario has no maps")]
    NoMaps,

    /// A scenario could not be written as JSON (a model that serde refuses: a bug).
    #[error("`scenario`: cannot write JSON: {source}")]
    Json { source: serde_json::Error },

    /// An SVG (of the file or picture `what`) that the drawing library cannot read; `doing` says
    /// what was being drawn ("the picture", "a page").
    #[error("`{what}`: cannot draw {doing}: {source}")]
    Draw { what: String, doing: &'static str, source: resvg::usvg::Error },

    /// A picture (for the file `what`) too large to allocate, refused before it is drawn.
    #[error("`{what}`: a {width}x{height} picture is too large to draw")]
    PictureTooLarge { what: String, width: u32, height: u32 },

    /// A picture (for the file `what`) that the PNG encoder refused.
    #[error("`{what}`: cannot encode the picture: {source}")]
    Png { what: String, source: png::EncodingError },

    /// The PDF writer refused the booklet `what` (`message` says at which step; the writer's own
    /// error has no error type to keep as a source).
    #[error("`{what}`: {message}")]
    Pdf { what: String, message: String },

    /// The Udonarium zip `what` could not be built.
    #[error("`{what}`: cannot build the zip: {source}")]
    Zip { what: String, source: zip::result::ZipError },

    /// A fortress plan (for the file `what`) whose corridor search would pass `limit` steps,
    /// refused before any corridor is routed.
    #[error(
        "`{what}`: the plan of {areas} areas and {gates} gates, which the area map cannot draw in rows, is too \
         large to lay out ({work} steps of corridor search; at most {limit}); the area map (`svg`, `pdf`) draws it"
    )]
    PlanTooLarge { what: String, areas: usize, gates: usize, work: u64, limit: u64 },

    /// A reroll or regenerate that cannot be done: `what` names the request (`reroll `map1/B2``).
    #[error("{what}: {message}")]
    Edit { what: String, message: String },

    /// A named field whose value cannot be used: a field of a scenario that `fix` cannot fill in
    /// (a name the tables do not know), or a permalink field that is not what it must be.
    #[error("`{field}`: {message}")]
    Field { field: String, message: String },

    #[error("cannot write `{file}`: {reason}")]
    Write { file: String, reason: String, source: Option<io::Error> },

    /// The workbench's server failed to start or to run (`action`: "start", "serve").
    #[error("the workbench cannot {action}: {reason}")]
    Serve { action: &'static str, reason: String, source: io::Error },

    /// A part path that names nothing in this scenario (a request to correct, not a refusal).
    #[error("{0}")]
    NoSuchPart(String),

    /// An edit of an existing part that the scenario refuses as it stands (a room its map does
    /// not use).
    #[error("{0}")]
    Refused(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// `file` could not be read: the system's error, kept as the source.
    pub fn read_io(file: impl std::fmt::Display, e: io::Error) -> Error {
        Error::ReadFile { file: file.to_string(), reason: io_reason(&e), source: Some(e) }
    }

    /// `file` is refused for a reason of dungeonsmith's own (too large, not UTF-8, a FIFO).
    pub fn read_refused(file: impl std::fmt::Display, reason: impl Into<String>) -> Error {
        Error::ReadFile { file: file.to_string(), reason: reason.into(), source: None }
    }

    /// `file` could not be written: the system's error, kept as the source.
    pub fn write_io(file: impl std::fmt::Display, e: io::Error) -> Error {
        Error::Write { file: file.to_string(), reason: io_reason(&e), source: Some(e) }
    }

    /// `file` is not written for a reason of dungeonsmith's own (a folder in the way).
    pub fn write_refused(file: impl std::fmt::Display, reason: impl Into<String>) -> Error {
        Error::Write { file: file.to_string(), reason: reason.into(), source: None }
    }

    /// The tables folder `path` could not be read: the system's error, kept as the source.
    pub fn tables_dir_io(path: impl Into<PathBuf>, e: io::Error) -> Error {
        Error::TablesDir { path: path.into(), reason: io_reason(&e), source: Some(e) }
    }

    /// The tables folder `path` is refused for a reason of dungeonsmith's own.
    pub fn tables_dir_refused(path: impl Into<PathBuf>, reason: impl Into<String>) -> Error {
        Error::TablesDir { path: path.into(), reason: reason.into(), source: None }
    }

    /// `field` must lie in `range`: the one wording of every range error ("`areas` must be 3 to
    /// 40, got 0"); `unit` follows the range when the number counts something ("1 to 12 levels").
    pub fn range(field: &'static str, range: &std::ops::RangeInclusive<u32>, unit: &str, got: u32) -> Error {
        Error::Range { field, range: format!("{} to {}{unit}", range.start(), range.end()), got: got.to_string() }
    }

    /// The error's line for a user who types a field as `spell` spells it: a range or option
    /// error names the field so (`--court-size` on the command line, `court-size` in the
    /// workbench's query).
    pub fn line_for(&self, spell: impl Fn(&str) -> String) -> String {
        match self {
            Error::Range { field, range, got } => format!("`{}` must be {range}, got {got}", spell(field)),
            Error::Option { field, message } => format!("option `{}`: {message}", spell(field)),
            e => e.to_string(),
        }
    }
}

/// A system error in the one wording every message uses: lowercase, as the rest of the line, and
/// the two a GM meets most in plain words ("no such file or folder" rather than the OS's
/// "No such file or directory (os error 2)").
pub fn io_reason(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or folder".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string().to_lowercase(),
    }
}

/// A library field as a command-line option: `court_size` -> `--court-size`.
pub fn flag(field: &str) -> String {
    format!("--{}", field.replace('_', "-"))
}

/// A library field as a workbench query field: `court_size` -> `court-size`.
pub fn query_field(field: &str) -> String {
    field.replace('_', "-")
}

/// Names offered when a name is not among those known ([`nearest`]).
const SUGGESTIONS: usize = 3;

/// Up to [`SUGGESTIONS`] known names nearest to `name`: fewest single-character edits, ignoring
/// case, with names that contain it (or that it contains) first; ties keep table order. Names too
/// far off to be a typo (more edits than half the longer name) are not offered.
pub fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let want = name.to_lowercase();
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (i, k) in known.enumerate() {
        if scored.iter().any(|s| s.2 == k) {
            continue;
        }
        let low = k.to_lowercase();
        let contains = !want.is_empty() && (low.contains(&want) || want.contains(&low));
        let d = if contains { 0 } else { strsim::levenshtein(&want, &low) };
        let longer = want.chars().count().max(low.chars().count());
        if contains || d * 2 <= longer {
            scored.push((d, i, k));
        }
    }
    scored.sort_by_key(|&(d, i, _)| (d, i));
    scored.into_iter().take(SUGGESTIONS).map(|(_, _, k)| k).collect()
}

/// The longest value a message quotes whole; a longer one is cut, with its size.
pub const QUOTE_CHARS: usize = 200;

/// `value` as a message quotes it: whole when short, else its start, a mark and its size
/// (`aaaa… (100000 characters)`), so one line stays one readable line.
pub fn cut(value: &str) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(QUOTE_CHARS) {
        None => value.into(),
        Some(_) => {
            let keep: String = value.chars().take(QUOTE_CHARS - 40).collect();
            format!("{keep}\u{2026} ({} characters)", value.chars().count()).into()
        }
    }
}

/// `line` with every quoted value in it (between backticks or double quotes) longer than
/// `QUOTE_CHARS` cut as `cut` cuts it: what every error line goes through before it is shown.
pub fn cut_quotes(line: &str) -> std::borrow::Cow<'_, str> {
    if line.len() <= QUOTE_CHARS {
        return line.into();
    }
    let mut out = String::with_capacity(QUOTE_CHARS * 2);
    let mut rest = line;
    while let Some(open) = rest.find(['`', '"']) {
        let mark = &rest[open..open + 1];
        let Some(len) = rest[open + 1..].find(mark) else { break };
        out.push_str(&rest[..=open]);
        out.push_str(&cut(&rest[open + 1..open + 1 + len]));
        out.push_str(mark);
        rest = &rest[open + len + 2..];
    }
    out.push_str(&cut(rest));
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_system_error_is_kept_as_the_source_and_worded_in_one_lowercase_line() {
        let missing = std::env::temp_dir().join("dungeonsmith-no-such-file-here.json");
        let e = crate::input::read_text(&missing, 1 << 20).expect_err("the file does not exist");
        assert_eq!(e.to_string(), format!("cannot read `{}`: no such file or folder", missing.display()));
        let source = std::error::Error::source(&e).expect("the io::Error is kept");
        let io = source.downcast_ref::<io::Error>().expect("an io::Error");
        assert_eq!(io.kind(), io::ErrorKind::NotFound);

        let refused = Error::write_refused("out/x.svg", "a folder has that name");
        assert!(std::error::Error::source(&refused).is_none(), "a refusal of our own has no system cause");
    }

    #[test]
    fn a_library_option_error_names_the_field_and_each_front_end_spells_it_its_own_way() {
        let e = Error::Option { field: "court_size", message: "4 does not match the 3 levels listed".into() };
        assert_eq!(e.to_string(), "option `court_size`: 4 does not match the 3 levels listed");
        assert_eq!(e.line_for(flag), "option `--court-size`: 4 does not match the 3 levels listed");
        assert_eq!(e.line_for(query_field), "option `court-size`: 4 does not match the 3 levels listed");
    }

    #[test]
    fn a_scenario_file_error_says_what_failed_and_keeps_the_parsers_error() {
        let tables = crate::tables::Tables::embedded().expect("embedded tables");
        let parse = |text: &str| crate::document::Document::parse(text, "x.json", &tables).map(|_| ()).unwrap_err();
        let e = parse("{\"system\": ");
        assert!(matches!(e, Error::ScenarioJson { line: 1, column: 11, .. }), "{e:?}");
        assert!(std::error::Error::source(&e).is_some_and(|s| s.is::<serde_json::Error>()), "{e:?}");
        assert!(matches!(parse("{\"system\": \"dnd\"}"), Error::UnknownSystem { system, .. } if system == "dnd"));
        assert!(matches!(parse("{}"), Error::NoSystem { file } if file == "x.json"));
        assert!(matches!(parse("{\"system\": \"myk\", \"format\": 99}"), Error::ScenarioFormat { .. }));

        let fix = Error::Fix { file: "x.json".into(), source: Box::new(Error::NoMaps) };
        assert_eq!(fix.to_string(), "`x.json`: the scenario has no maps");
        assert_eq!(
            std::error::Error::source(&fix).map(ToString::to_string).as_deref(),
            Some("the scenario has no maps")
        );
    }

    #[test]
    fn the_nearest_names_come_first_and_far_names_are_not_offered() {
        let known = ["Goblin", "Hobgoblin", "Slime", "Goblin Rider"];
        assert_eq!(nearest("goblim", known.into_iter())[0], "Goblin");
        assert_eq!(nearest("goblin", known.into_iter()), ["Goblin", "Hobgoblin", "Goblin Rider"]);
        assert!(nearest("Dragon", known.into_iter()).is_empty());
    }

    #[test]
    fn a_long_quoted_value_is_cut_with_its_size_and_the_line_kept() {
        let long = "x".repeat(100_000);
        let line = format!("option `--levels`: `{long}` is not a number; see \"{long}\"");
        let shown = cut_quotes(&line);
        assert!(shown.len() < 600, "{}", shown.len());
        assert!(shown.starts_with("option `--levels`: `xxxx"), "{shown}");
        assert!(shown.contains("\u{2026} (100000 characters)` is not a number; see \"xxx"), "{shown}");
        assert_eq!(cut_quotes("a `short` line"), "a `short` line");
    }
}
