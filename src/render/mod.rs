//! Rendering: scenarios → artifacts in memory (JSON, SVG sheets, Markdown, HTML). Nothing here
//! touches the disk; `output` writes.

pub mod area_map;
pub mod fortress_view;
pub mod myk_play;
pub mod pdf;
pub mod plan;
pub mod raster;
pub mod sheet;
pub mod summary;
pub mod svgkit;

/// Paper for the printable sheets; sizes in millimetres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    /// The default, and what files written before the paper was remembered were made for.
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Width and height in millimetres, portrait.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        }
    }
}

/// Which copy of a map sheet: everything for the GM, or the bare grid for the players' mapper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copy {
    Gm,
    Players,
}

pub mod text;
pub mod threats;
pub mod udonarium;
pub mod uvtt;
pub mod view;

use crate::error::{Error, Result};
use crate::myk::model::{Map, Scenario};
use crate::output::Artifact;
use crate::tables::Tables;
use text::Templates;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    Json,
    Svg,
    Md,
    Html,
    /// Universal VTT maps (`*.dd2vtt`).
    Uvtt,
    /// Udonarium room data (a zip).
    Udonarium,
    /// One print-ready PDF.
    Pdf,
}

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
    sheet: &dyn Fn(&Scenario, &Map, &Tables, Paper, Copy) -> String,
) -> Result<Vec<Artifact>> {
    let seed = s.seed;
    let mut out = Vec::new();
    let wants = |f: Format| opts.formats.contains(&f);
    if wants(Format::Json) {
        out.push(Artifact::new(format!("myk-{seed}.json"), json(s)?));
    }
    let need_svg = wants(Format::Svg) || wants(Format::Html) || wants(Format::Pdf);
    let svgs: Vec<(String, String)> = if need_svg {
        s.maps
            .iter()
            .map(|m| (sheet(s, m, tables, opts.paper, Copy::Gm), sheet(s, m, tables, opts.paper, Copy::Players)))
            .collect()
    } else {
        Vec::new()
    };
    if wants(Format::Svg) {
        for (m, (gm, players)) in s.maps.iter().zip(&svgs) {
            out.push(Artifact::new(format!("myk-{seed}-map{}.svg", m.index), gm.clone()));
            out.push(Artifact::new(format!("myk-{seed}-map{}-players.svg", m.index), players.clone()));
        }
    }
    if wants(Format::Md) || wants(Format::Html) {
        let v = view::myk_view(s, tables, opts.paper, &[]);
        if wants(Format::Md) {
            out.push(Artifact::new(format!("myk-{seed}.md"), opts.templates.render("myk.md", &v)?));
        }
        if wants(Format::Html) {
            let inline: Vec<(String, String)> = svgs.iter().map(|(g, p)| (strip_prolog(g), strip_prolog(p))).collect();
            let v = view::myk_view(s, tables, opts.paper, &inline);
            out.push(Artifact::new(format!("myk-{seed}.html"), opts.templates.render("myk.html", &v)?));
        }
    }
    if wants(Format::Uvtt) {
        for m in &s.maps {
            let name = format!("myk-{seed}-map{}.dd2vtt", m.index);
            out.push(Artifact::new(name.clone(), uvtt::uvtt(&plan::myk_plan(m), &name)?));
        }
    }
    if wants(Format::Pdf) {
        let name = format!("myk-{seed}.pdf");
        let md = opts.templates.render("myk.md", &view::myk_view(s, tables, opts.paper, &[]))?;
        let mut pages: Vec<String> = svgs.iter().map(|(gm, _)| gm.clone()).collect();
        pages.extend(pdf::text_pages(&md, opts.paper, &format!("{} \u{00b7} seed {seed}", s.title)));
        pages.extend(svgs.iter().map(|(_, players)| players.clone()));
        out.push(Artifact::new(name.clone(), pdf::pdf(&pages, opts.paper, &s.title, &name)?));
    }
    if wants(Format::Udonarium) {
        let name = format!("myk-{seed}-udonarium.zip");
        let zip = udonarium::myk(s, tables, opts.paper, opts.templates, &name)?;
        out.push(Artifact::new(name, zip));
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
    if wants(Format::Md) {
        let v = fortress_view::fortress_view(f, opts.paper, (String::new(), String::new()));
        out.push(Artifact::new(format!("fortress-{seed}.md"), opts.templates.render("fortress.md", &v)?));
    }
    if wants(Format::Html) {
        let v = fortress_view::fortress_view(f, opts.paper, (strip_prolog(&svg.0), strip_prolog(&svg.1)));
        out.push(Artifact::new(format!("fortress-{seed}.html"), opts.templates.render("fortress.html", &v)?));
    }
    if wants(Format::Uvtt) {
        let name = format!("fortress-{seed}.dd2vtt");
        out.push(Artifact::new(name.clone(), uvtt::uvtt(&plan::fortress_plan(f), &name)?));
    }
    if wants(Format::Pdf) {
        let name = format!("fortress-{seed}.pdf");
        let v = fortress_view::fortress_view(f, opts.paper, (String::new(), String::new()));
        let md = opts.templates.render("fortress.md", &v)?;
        let mut pages = vec![svg.0.clone()];
        pages.extend(pdf::text_pages(&md, opts.paper, &format!("{} \u{00b7} seed {seed}", f.title)));
        pages.push(svg.1.clone());
        out.push(Artifact::new(name.clone(), pdf::pdf(&pages, opts.paper, &f.title, &name)?));
    }
    if wants(Format::Udonarium) {
        let name = format!("fortress-{seed}-udonarium.zip");
        let zip = udonarium::fortress(f, tables, opts.paper, opts.templates, &name)?;
        out.push(Artifact::new(name, zip));
    }
    Ok(out)
}
