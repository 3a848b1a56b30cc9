//! Errors: each variant carries the file, table, entry or option at fault and prints one line.

use std::path::PathBuf;

/// Everything that can go wrong outside rule checking (which reports violations, not errors).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read tables folder `{}`: {reason}", path.display())]
    TablesDir { path: PathBuf, reason: String },

    #[error("cannot read `{file}`: {reason}")]
    ReadFile { file: String, reason: String },

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

    #[error("option `{option}`: {message}")]
    Option { option: &'static str, message: String },

    #[error("`{file}`: {message}")]
    Scenario { file: String, message: String },

    /// A reroll or regenerate that cannot be done: `what` names the request (`reroll `map1/B2``).
    #[error("{what}: {message}")]
    Edit { what: String, message: String },

    /// A field of a scenario that `fix` cannot fill in (a name the tables do not know).
    #[error("`{field}`: {message}")]
    Field { field: String, message: String },

    #[error("cannot write `{file}`: {reason}")]
    Write { file: String, reason: String },

    #[error("{what} is not implemented yet")]
    NotImplemented { what: &'static str },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The longest value a message quotes whole; a longer one is cut, with its size.
pub const QUOTE_CHARS: usize = 80;

/// `value` as a message quotes it: whole when short, else its start, a mark and its size
/// (`aaaa… (100000 characters)`), so one line stays one readable line.
pub fn cut(value: &str) -> std::borrow::Cow<'_, str> {
    match value.char_indices().nth(QUOTE_CHARS) {
        None => value.into(),
        Some(_) => {
            let keep: String = value.chars().take(QUOTE_CHARS - 20).collect();
            format!("{keep}\u{2026} ({} characters)", value.chars().count()).into()
        }
    }
}
