//! The routes: the page and its assets (embedded), the scenario as the page draws it, downloads
//! and the booklet to print. Every handler rebuilds the scenario from the query (the permalink),
//! so the server keeps no session: two tabs, or two machines, with one URL see one scenario.

use std::io::{Cursor, Write};
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::dice::fresh_seed;
use crate::document::Document;
use crate::model::Format;
use crate::output::{Artifact, REFERENCE_SUFFIX};
use crate::render::booklet::Reference;

use super::AppState;
use super::error::ServeError;
use super::query::Request;
use super::scenario::{build, build_noted};
use super::view::{PageView, page};

const INDEX: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

pub async fn index(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], index_page(&state.tables))
}

/// The page with each game's options and the booklet's reference choice, from their one
/// declaration.
pub(super) fn index_page(tables: &crate::tables::Tables) -> String {
    INDEX
        .replace(super::form::GAME_OPTIONS, &super::form::game_options(tables))
        .replace(super::form::REFERENCE_OPTION, &super::form::reference_option())
}

pub async fn app_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS)
}

pub async fn app_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS)
}

pub async fn not_found() -> ServeError {
    ServeError::NotFound("no such page; the workbench is at `/`".into())
}

type Pairs = Query<Vec<(String, String)>>;

/// Runs `work` with the shared state on the workbench's blocking pool ([`super::guard::Pool::run`]),
/// off the async workers; a panic there is a one-line 500 (the pool's thread reports it), so one
/// bad request never takes the server down.
async fn on_pool<T: Send + 'static>(
    state: Arc<AppState>,
    work: impl FnOnce(&AppState) -> Result<T, ServeError> + Send + 'static,
) -> Result<T, ServeError> {
    let st = state.clone();
    state
        .pool
        .run(move || {
            st.builds.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            work(&st)
        })
        .await
}

/// Every file a download offers, rendered as the CLI renders it (the booklet's reference where
/// the request puts it).
fn artifacts(state: &AppState, doc: &Document, req: &Request) -> Result<Vec<Artifact>, ServeError> {
    super::guard::checkpoint()?;
    let files = doc.render_with(&state.tables, &OFFERED, &state.templates, req.reference)?;
    // A render past the budget stops before the zip copies every file once more.
    super::guard::checkpoint()?;
    Ok(files)
}

/// The formats a download offers.
const OFFERED: [Format; 4] = [Format::Json, Format::Svg, Format::Md, Format::Html];

/// The name of the zip with every file: the scenario's own seed, as the files inside it are named
/// (after a `regen` edit, the new seed's, as the command line names them).
fn zip_name(doc: &Document) -> String {
    format!("{}.zip", doc.stem())
}

/// Every file in one zip, stored with a fixed date so the same scenario gives the same bytes.
fn zip_all(files: &[Artifact]) -> Result<Vec<u8>, ServeError> {
    let fail = |e: zip::result::ZipError| ServeError::Internal(format!("cannot write the zip: {e}"));
    let mut z = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for a in files {
        z.start_file(a.name.as_str(), opts).map_err(fail)?;
        z.write_all(&a.bytes).map_err(|e| ServeError::Internal(format!("cannot write the zip: {e}")))?;
    }
    Ok(z.finish().map_err(fail)?.into_inner())
}

/// The scenario as the page draws it (JSON).
pub async fn scenario(State(state): State<Arc<AppState>>, Query(pairs): Pairs) -> Result<Json<PageView>, ServeError> {
    on_pool(state, move |st| {
        let req = Request::parse(&pairs, fresh_seed)?;
        let (doc, note) = build_noted(&st.tables, &req)?;
        super::guard::checkpoint()?;
        // The names only: rendering every file to list them cost most of the request.
        let files = doc.file_names(&OFFERED, req.reference);
        Ok(Json(page(&st.tables, &req, &doc, files, zip_name(&doc), note)))
    })
    .await
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("md") => "text/markdown; charset=utf-8",
        Some("html") => "text/html; charset=utf-8",
        Some("zip") => "application/zip",
        _ => "application/octet-stream",
    }
}

/// One file of the scenario, or all of them as a zip, as an attachment.
pub async fn download(
    State(state): State<Arc<AppState>>,
    Path(file): Path<String>,
    Query(pairs): Pairs,
) -> Result<Response, ServeError> {
    on_pool(state, move |st| download_file(st, &file, &pairs)).await
}

fn download_file(state: &AppState, file: &str, pairs: &[(String, String)]) -> Result<Response, ServeError> {
    let req = Request::parse(pairs, fresh_seed)?;
    let doc = build(&state.tables, &req)?;
    let files = artifacts(state, &doc, &req)?;
    let bytes = if file == zip_name(&doc) {
        zip_all(&files)?
    } else {
        match files.into_iter().find(|a| a.name == file) {
            Some(a) => a.bytes,
            None => {
                let shown = crate::error::cut(file);
                return Err(ServeError::NotFound(format!("no file `{shown}` in this scenario")));
            }
        }
    };
    let disposition = format!("attachment; filename=\"{file}\"");
    Ok(([(header::CONTENT_TYPE, content_type(file).to_string()), (header::CONTENT_DISPOSITION, disposition)], bytes)
        .into_response())
}

/// The HTML booklet, shown in the browser to print: the booklet file the CLI writes, so with
/// `reference=separate` part one alone. Part one is what the GM runs the table from, and printing
/// the reference is a choice of its own (many keep the rulebook at hand), so the page shows part
/// one and offers part two apart: at [`reference`], and among the downloads.
pub async fn booklet(State(state): State<Arc<AppState>>, Query(pairs): Pairs) -> Result<Response, ServeError> {
    on_pool(state, move |st| {
        let req = Request::parse(&pairs, fresh_seed)?;
        let doc = build(&st.tables, &req)?;
        let stem = doc.stem();
        let html = html_file(artifacts(st, &doc, &req)?, &format!("{stem}.html"))?;
        // Part one cites part two by its file name, a link that works when the two files lie side
        // by side; here each is at an address of its own, which carries the permalink.
        let reference = format!("{stem}{REFERENCE_SUFFIX}.html");
        let at = format!("/reference?{}", req.query().replace('&', "&amp;"));
        let html = String::from_utf8_lossy(&html).replace(&format!("href=\"{reference}"), &format!("href=\"{at}"));
        Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
    })
    .await
}

/// Part two of a booklet whose permalink writes it apart (`reference=separate`), shown in the
/// browser to print; any other choice has no such file, which the answer says.
pub async fn reference(State(state): State<Arc<AppState>>, Query(pairs): Pairs) -> Result<Response, ServeError> {
    on_pool(state, move |st| {
        let req = Request::parse(&pairs, fresh_seed)?;
        if req.reference != Reference::Separate {
            return Err(ServeError::NotFound(format!(
                "the booklet's reference is not a file of its own with `reference={}`; `reference=separate` makes it one",
                req.reference.name()
            )));
        }
        let doc = build(&st.tables, &req)?;
        let html = html_file(artifacts(st, &doc, &req)?, &format!("{}{REFERENCE_SUFFIX}.html", doc.stem()))?;
        Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
    })
    .await
}

/// The bytes of the rendered file called `name`.
fn html_file(files: Vec<Artifact>, name: &str) -> Result<Vec<u8>, ServeError> {
    files
        .into_iter()
        .find(|a| a.name == name)
        .map(|a| a.bytes)
        .ok_or_else(|| ServeError::Internal(format!("the booklet file `{name}` was not rendered")))
}
