//! Rendering: scenarios → artifacts in memory (JSON, SVG sheets, Markdown, HTML). Nothing here
//! touches the disk; `output` writes.

pub mod area_map;
pub mod dot;
pub mod fortress_view;
pub mod myk_items;
pub mod myk_play;
pub mod pdf;
pub mod plan;
pub mod raster;
pub mod sheet;
pub mod summary;
pub mod svgkit;

/// Which copy of a map sheet: everything for the GM, or the bare grid for the players' mapper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copy {
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
use crate::model::{Format, Paper};
use crate::myk::model::{Map, Scenario};
use crate::output::Artifact;
use crate::tables::Tables;
use text::Templates;

/// How to render: which formats, on which paper, with which templates.
pub struct RenderOptions<'a> {
    pub formats: &'a [Format],
    pub paper: Paper,
    pub templates: &'a Templates,
}

/// The scenario as pretty JSON with a final newline (the file a GM edits).
pub fn json<T: serde::Serialize>(s: &T) -> Result<String> {
    serde_json::to_string_pretty(s)
        .map(|j| j + "\n")
        .map_err(|e| Error::Scenario { file: "scenario".into(), message: format!("cannot write JSON: {e}") })
}

/// Every chosen format of a MYK scenario, as files in memory, in a fixed order.
pub fn render_myk(
    s: &Scenario,
    tables: &Tables,
    opts: &RenderOptions,
    sheet: &(dyn Fn(&Scenario, &Map, &Tables, Paper, Copy) -> String + Sync),
) -> Result<Vec<Artifact>> {
    let seed = s.seed;
    let mut out = Vec::new();
    let wants = |f: Format| opts.formats.contains(&f);
    let MykDrafts { json, svgs, mut view, md } = myk_drafts(s, tables, opts, sheet)?;
    if let Some(j) = json {
        out.push(Artifact::new(format!("myk-{seed}.json"), j?));
    }
    let md = md?;
    if wants(Format::Svg) {
        for (m, (gm, players)) in s.maps.iter().zip(&svgs) {
            out.push(Artifact::new(format!("myk-{seed}-map{}.svg", m.index), gm.clone()));
            out.push(Artifact::new(format!("myk-{seed}-map{}-players.svg", m.index), players.clone()));
        }
    }
    // One view serves Markdown, HTML and the PDF's text: HTML's differs only in the inline
    // sheets, set just before it renders; the PDF's text is the Markdown.
    if wants(Format::Md) {
        out.push(Artifact::new(format!("myk-{seed}.md"), md.clone()));
    }
    if let Some(v) = view.as_mut().filter(|_| wants(Format::Html)) {
        for (mv, (gm, players)) in v.maps.iter_mut().zip(&svgs) {
            mv.svg = strip_prolog(gm);
            mv.players_svg = strip_prolog(players);
        }
        out.push(Artifact::new(format!("myk-{seed}.html"), opts.templates.render("myk.html", v)?));
    }
    if wants(Format::Dot) {
        out.push(Artifact::new(format!("myk-{seed}.dot"), dot::myk_dot(s, tables)));
    }
    out.extend(run_all(myk_heavy_jobs(s, tables, opts, &svgs, &md))?);
    Ok(out)
}

/// What the light MYK formats are made from: the JSON (if wanted), every map's (GM, players)
/// sheets (if any format shows them), the view (if a template needs it) and the Markdown (empty
/// unless wanted, for itself or the PDF).
struct MykDrafts {
    json: Option<Result<String>>,
    svgs: Vec<(String, String)>,
    view: Option<view::MykView>,
    md: Result<String>,
}

/// Drafts the MYK formats, drawing the sheets on a thread of their own when there is text to
/// make meanwhile.
fn myk_drafts(
    s: &Scenario,
    tables: &Tables,
    opts: &RenderOptions,
    sheet: &(dyn Fn(&Scenario, &Map, &Tables, Paper, Copy) -> String + Sync),
) -> Result<MykDrafts> {
    let wants = |f: Format| opts.formats.contains(&f);
    let need_svg = wants(Format::Svg) || wants(Format::Html) || wants(Format::Pdf);
    let draw = || -> Vec<(String, String)> {
        s.maps
            .iter()
            .map(|m| (sheet(s, m, tables, opts.paper, Copy::Gm), sheet(s, m, tables, opts.paper, Copy::Players)))
            .collect()
    };
    // The sheets are drawn on a thread of their own, which then compiles the HTML template (and
    // the stylesheet it includes), while this one writes the JSON, builds the view and renders
    // the Markdown; HTML, which inlines the sheets, waits for them.
    let need_md = wants(Format::Md) || wants(Format::Pdf);
    std::thread::scope(|scope| -> Result<_> {
        let need_view = need_md || wants(Format::Html);
        // Alone, the sheets are drawn here: a thread would only wait.
        let drawing = (need_svg && need_view).then(|| {
            scope.spawn(|| {
                let svgs = draw();
                if wants(Format::Html) {
                    opts.templates.prepare("myk.html");
                    opts.templates.prepare("booklet.css");
                }
                svgs
            })
        });
        let json = if wants(Format::Json) { Some(json(s)) } else { None };
        let view = need_view.then(|| view::myk_view(s, tables, opts.paper, &[]));
        let md = match &view {
            Some(v) if need_md => opts.templates.render("myk.md", v),
            _ => Ok(String::new()),
        };
        let svgs = match drawing {
            Some(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            None if need_svg => draw(),
            None => Vec::new(),
        };
        Ok(MykDrafts { json, svgs, view, md })
    })
}

/// The heavy MYK formats (pictures, deflate), independent of each other: each a job that
/// [`run_all`] runs on a thread of its own.
fn myk_heavy_jobs<'a>(
    s: &'a Scenario,
    tables: &'a Tables,
    opts: &'a RenderOptions,
    svgs: &'a [(String, String)],
    md: &'a str,
) -> Vec<Job<'a>> {
    let seed = s.seed;
    let wants = |f: Format| opts.formats.contains(&f);
    let mut heavy: Vec<Job> = Vec::new();
    if wants(Format::Uvtt) {
        heavy.push(Box::new(move || {
            s.maps
                .iter()
                .map(|m| {
                    let name = format!("myk-{seed}-map{}.dd2vtt", m.index);
                    let bytes = uvtt::uvtt(&plan::myk_plan(m), &name)?;
                    Ok(Artifact::new(name, bytes))
                })
                .collect()
        }));
    }
    if wants(Format::Pdf) {
        heavy.push(Box::new(move || {
            let name = format!("myk-{seed}.pdf");
            let label = |m: &Map, who: &str| format!("Map {}: {} ({who})", m.index, m.name);
            let gm: Vec<pdf::Sheet> = s.maps.iter().zip(svgs).map(|(m, (g, _))| (label(m, "GM"), g.clone())).collect();
            let players: Vec<pdf::Sheet> =
                s.maps.iter().zip(svgs).map(|(m, (_, p))| (label(m, "players"), p.clone())).collect();
            let bytes = pdf::booklet(&gm, md, &players, opts.templates, opts.paper, &s.title, &name)?;
            Ok(vec![Artifact::new(name, bytes)])
        }));
    }
    if wants(Format::Udonarium) {
        heavy.push(Box::new(move || {
            let name = format!("myk-{seed}-udonarium.zip");
            let rooms = udonarium::myk(s, tables, opts.paper, opts.templates, &name)?;
            Ok(vec![
                Artifact::new(name, rooms.players),
                Artifact::new(format!("myk-{seed}-udonarium-gm.zip"), rooms.gm),
            ])
        }));
    }
    heavy
}

/// A piece of rendering that can run on a thread of its own.
type Job<'a> = Box<dyn FnOnce() -> Result<Vec<Artifact>> + Send + 'a>;

/// Runs `jobs` at once, each on its own thread (the first on this one), and gives their files
/// back in the jobs' order; the first error in that order wins, as if they had run one by one.
fn run_all(mut jobs: Vec<Job>) -> Result<Vec<Artifact>> {
    if jobs.len() <= 1 {
        return jobs.pop().map_or(Ok(Vec::new()), |job| job());
    }
    let first = jobs.remove(0);
    let results: Vec<Result<Vec<Artifact>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs.into_iter().map(|job| scope.spawn(job)).collect();
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

/// Every chosen format of a Fortress, as files in memory, in a fixed order.
pub fn render_fortress(
    f: &crate::nw3::model::Fortress,
    tables: &Tables,
    opts: &RenderOptions,
    map: &dyn Fn(&crate::nw3::model::Fortress, &Tables, Paper, Copy) -> String,
) -> Result<Vec<Artifact>> {
    let seed = f.seed;
    let mut out = Vec::new();
    let wants = |x: Format| opts.formats.contains(&x);
    if wants(Format::Json) {
        out.push(Artifact::new(format!("fortress-{seed}.json"), json(f)?));
    }
    let svg = if wants(Format::Svg) || wants(Format::Html) || wants(Format::Pdf) {
        (map(f, tables, opts.paper, Copy::Gm), map(f, tables, opts.paper, Copy::Players))
    } else {
        (String::new(), String::new())
    };
    if wants(Format::Svg) {
        out.push(Artifact::new(format!("fortress-{seed}.svg"), svg.0.clone()));
        out.push(Artifact::new(format!("fortress-{seed}-players.svg"), svg.1.clone()));
    }
    let need_md = wants(Format::Md) || wants(Format::Pdf);
    let md = if need_md {
        let v = fortress_view::fortress_view(f, opts.paper, (String::new(), String::new()));
        opts.templates.render("fortress.md", &v)?
    } else {
        String::new()
    };
    if wants(Format::Md) {
        out.push(Artifact::new(format!("fortress-{seed}.md"), md.clone()));
    }
    if wants(Format::Html) {
        let v = fortress_view::fortress_view(f, opts.paper, (strip_prolog(&svg.0), strip_prolog(&svg.1)));
        out.push(Artifact::new(format!("fortress-{seed}.html"), opts.templates.render("fortress.html", &v)?));
    }
    if wants(Format::Dot) {
        out.push(Artifact::new(format!("fortress-{seed}.dot"), dot::fortress_dot(f)));
    }
    // As for MYK: the heavy formats each on a thread of their own.
    let mut heavy: Vec<Job> = Vec::new();
    if wants(Format::Uvtt) {
        heavy.push(Box::new(|| {
            let name = format!("fortress-{seed}.dd2vtt");
            let bytes = uvtt::uvtt(&plan::fortress_plan_checked(f, plan::AREA, &name)?, &name)?;
            Ok(vec![Artifact::new(name, bytes)])
        }));
    }
    if wants(Format::Pdf) {
        heavy.push(Box::new(|| {
            let name = format!("fortress-{seed}.pdf");
            let gm = [("Area map (GM)".to_string(), svg.0.clone())];
            let players = [("Area map (players' handout)".to_string(), svg.1.clone())];
            let bytes = pdf::booklet(&gm, &md, &players, opts.templates, opts.paper, &f.title, &name)?;
            Ok(vec![Artifact::new(name, bytes)])
        }));
    }
    if wants(Format::Udonarium) {
        heavy.push(Box::new(|| {
            let name = format!("fortress-{seed}-udonarium.zip");
            let rooms = udonarium::fortress(f, tables, opts.paper, opts.templates, &name)?;
            Ok(vec![
                Artifact::new(name, rooms.players),
                Artifact::new(format!("fortress-{seed}-udonarium-gm.zip"), rooms.gm),
            ])
        }));
    }
    out.extend(run_all(heavy)?);
    Ok(out)
}
