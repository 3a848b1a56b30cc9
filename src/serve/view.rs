//! What the page draws for one scenario: the library's workbench view of it (sheets with click
//! targets, parts, limits, `check`), plus what is the workbench's own: the permalink, the edit
//! history and the downloads.

use serde::Serialize;

use crate::document::Document;
use crate::tables::Tables;
use crate::workbench::{Limit, Part, Sheet};

use super::query::Request;

#[derive(Serialize)]
pub struct PageView {
    /// The canonical permalink query (without `?`).
    pub query: String,
    pub game: &'static str,
    pub seed: u64,
    pub title: String,
    pub sheets: Vec<Sheet>,
    pub parts: Vec<Part>,
    pub limits: Vec<Limit>,
    /// One line per rule violation (`check`); empty: every rule and limit holds.
    pub check: Vec<String>,
    /// The files a download offers (the CLI's names), then the zip of them all.
    pub files: Vec<String>,
    pub zip: String,
    /// The edit history, one line each, as in the query.
    pub ops: Vec<String>,
}

/// The page's view of `doc` (made from `req`); `files` are the downloadable artifacts' names.
pub fn page(tables: &Tables, req: &Request, doc: &Document, files: Vec<String>, zip: String) -> PageView {
    let v = doc.workbench(tables);
    PageView {
        query: req.query(),
        game: doc.game().command(),
        seed: v.seed,
        title: v.title,
        sheets: v.sheets,
        parts: v.parts,
        limits: v.limits,
        check: v.check,
        files,
        zip,
        ops: req.ops.iter().map(ToString::to_string).collect(),
    }
}
