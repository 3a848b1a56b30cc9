//! Rendering: scenarios → artifacts in memory (JSON, SVG sheets, Markdown, HTML). Nothing here
//! touches the disk; `output` writes.

pub mod area_map;
pub mod booklet;
pub mod dot;
pub mod fonts;
pub mod formats;
pub mod fortress_view;
pub mod handout_cards;
pub mod myk_goal;
pub mod myk_items;
pub mod myk_named;
pub mod myk_play;
pub mod myk_story;
pub mod pdf;
pub mod plan;
pub mod raster;
pub mod regen;
pub mod sheet;
pub mod summary;
pub mod svgkit;

/// Which copy of a map sheet: everything for the GM, or the bare grid for the players' mapper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Gm,
    Players,
}

pub mod text;
pub mod threats;
pub mod typeset;
pub mod udonarium;
pub mod uvtt;
pub mod view;

use crate::error::{Error, Result};
use crate::model::Format;
use crate::myk::model::Scenario;
use crate::output::Artifact;
use crate::tables::Tables;
use text::Templates;

/// How to render: which formats, with which templates, and where the booklet's reference (part
/// two) goes (the paper is the scenario's own).
pub struct RenderOptions<'a> {
    pub formats: &'a [Format],
    pub templates: &'a Templates,
    pub reference: booklet::Reference,
}

/// The scenario as pretty JSON with a final newline (the file a GM edits).
pub fn json<T: serde::Serialize>(s: &T) -> Result<String> {
    serde_json::to_string_pretty(s).map(|j| j + "\n").map_err(|source| Error::Json { source })
}

/// Every chosen format of a MYK scenario, as files in memory, in a fixed order.
pub fn render_myk(s: &Scenario, tables: &Tables, opts: &RenderOptions) -> Result<Vec<Artifact>> {
    let std::borrow::Cow::Owned(read) = crate::myk::frame::filled(s) else {
        return formats::render(formats::Subject::Myk(s), tables, opts);
    };
    // As a fortress's: the JSON keeps the title's slots, every other format reads it filled.
    let mut out = Vec::new();
    if opts.formats.contains(&crate::model::Format::Json) {
        out.push(Artifact::new(format!("myk-{}.json", s.seed), json(s)?));
    }
    let rest: Vec<crate::model::Format> =
        opts.formats.iter().copied().filter(|&x| x != crate::model::Format::Json).collect();
    if !rest.is_empty() {
        out.extend(formats::render(formats::Subject::Myk(&read), tables, &RenderOptions { formats: &rest, ..*opts })?);
    }
    Ok(out)
}

/// Every chosen format of a Fortress, as files in memory, in a fixed order.
pub fn render_fortress(
    f: &crate::nw3::model::Fortress,
    tables: &Tables,
    opts: &RenderOptions,
) -> Result<Vec<Artifact>> {
    // The JSON keeps the texts' slots (the file a GM edits); every other format reads them
    // filled from the fortress as it stands. JSON is the first format of the table, so its file
    // stays first.
    let mut out = Vec::new();
    if opts.formats.contains(&crate::model::Format::Json) {
        out.push(Artifact::new(format!("fortress-{}.json", f.seed), json(f)?));
    }
    let rest: Vec<crate::model::Format> =
        opts.formats.iter().copied().filter(|&x| x != crate::model::Format::Json).collect();
    if rest.is_empty() {
        return Ok(out);
    }
    let read = crate::nw3::text::filled(f);
    out.extend(formats::render(formats::Subject::Nw3(&read), tables, &RenderOptions { formats: &rest, ..*opts })?);
    Ok(out)
}

/// A piece of rendering that can run on a thread of its own.
type Job<'a> = Box<dyn FnOnce() -> Result<Vec<Artifact>> + Send + 'a>;

/// Runs `jobs` at once, each on its own thread (the first on this one), and gives their files
/// back in the jobs' order; the first error in that order wins, as if they had run one by one.
/// The threads count into this one's memory meter (a workbench request's budget).
fn run_all(mut jobs: Vec<Job>) -> Result<Vec<Artifact>> {
    if jobs.len() <= 1 {
        return jobs.pop().map_or(Ok(Vec::new()), |job| job());
    }
    let first = jobs.remove(0);
    let results: Vec<Result<Vec<Artifact>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs.into_iter().map(|job| scope.spawn(crate::meter::carried(job))).collect();
        let mut results = vec![first()];
        // A panic on a thread goes on unwinding here, as it would have without the thread.
        results.extend(handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))));
        results
    });
    let mut out = Vec::new();
    for r in results {
        out.extend(r?);
    }
    Ok(out)
}

/// An SVG document without its XML declaration, for inlining in HTML.
fn strip_prolog(svg: &str) -> String {
    match svg.find("<svg") {
        Some(i) => svg[i..].to_string(),
        None => svg.to_string(),
    }
}
