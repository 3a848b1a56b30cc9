//! What the page draws for one scenario: the library's workbench view of it (sheets with click
//! targets, parts, limits, `check`), plus what is the workbench's own: the permalink, the edit
//! history and the downloads.

use serde::Serialize;

use crate::document::Document;
use crate::tables::Tables;
use crate::workbench::View;

use super::query::Request;

#[derive(Serialize)]
pub struct PageView {
    /// The canonical permalink query (without `?`).
    pub query: String,
    pub game: &'static str,
    /// The library's view (seed, title, sheets, parts, limits, check), its fields at this level.
    #[serde(flatten)]
    pub view: View,
    /// The files a download offers (the CLI's names), then the zip of them all.
    pub files: Vec<String>,
    pub zip: String,
    /// The edit history, one line each, as in the query.
    pub ops: Vec<String>,
    /// Why the last edit changed nothing (a reroll the limits hold back, a lock already set).
    pub note: Option<String>,
}

/// The page's view of `doc` (made from `req`); `files` are the downloadable artifacts' names.
pub fn page(
    tables: &Tables,
    req: &Request,
    doc: &Document,
    files: Vec<String>,
    zip: String,
    note: Option<String>,
) -> PageView {
    PageView {
        query: req.query(),
        game: doc.game().command(),
        view: doc.workbench(tables),
        files,
        zip,
        ops: req.ops.iter().map(ToString::to_string).collect(),
        note,
    }
}
