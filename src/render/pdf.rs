//! A print-ready PDF without a browser (`--format pdf`): every GM sheet, then the scenario text,
//! then the players' sheets, on the chosen paper.
//!
//! Every page is an SVG document in millimetres: the sheets are the same SVG as the `.svg` files,
//! and the text pages are laid out here from the Markdown the booklet templates write (headings,
//! paragraphs, bullets and tables, wrapped with the same DejaVu Sans widths the sheets use), so new
//! content in the templates reaches the PDF by itself. krilla-svg turns each page into PDF: maps
//! stay vector and text stays text, in the embedded DejaVu Sans (subset into the file). krilla
//! writes no dates and derives the document id from the content, so the bytes depend only on
//! the scenario.

use krilla::Document;
use krilla::geom::Size;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::usvg;

use crate::error::{Error, Result};
use crate::model::Paper;
use crate::render::svgkit::{ASCENT, width, wrap};

const MARGIN: f64 = 18.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 16.0;
const BODY: f64 = 3.3;

/// One line of a text page: where it starts, its size and weight, its text.
struct Line {
    indent: f64,
    size: f64,
    bold: bool,
    text: String,
    /// Space above the line, in mm.
    above: f64,
}

/// Markdown inline markup removed: emphasis stars, code ticks; a backslash keeps the next
/// character as it is; the entities the Markdown writer uses for user text (`&amp;`, `&lt;`,
/// `&gt;`) become their characters again.
fn plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '*' | '`' => {}
            c => out.push(c),
        }
    }
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// The Markdown text as wrapped lines for a column `max` mm wide.
fn lines(md: &str, max: f64) -> Vec<Line> {
    let mut out = Vec::new();
    let mut gap = 0.0;
    let push = |out: &mut Vec<Line>, gap: &mut f64, indent: f64, size: f64, bold: bool, text: &str, lead: &str| {
        let avail = max - indent - width(lead, size, bold);
        for (i, l) in wrap(text, avail, size, bold, usize::MAX).into_iter().enumerate() {
            let (ind, text) =
                if i == 0 { (indent, format!("{lead}{l}")) } else { (indent + width(lead, size, bold), l) };
            out.push(Line { indent: ind, size, bold, text, above: if i == 0 { *gap } else { 0.0 } });
        }
        *gap = 0.0;
    };
    for raw in md.lines() {
        let line = raw.trim_end();
        let t = line.trim_start();
        if t.is_empty() {
            gap = BODY * 0.6;
            continue;
        }
        if let Some(h) = t.strip_prefix("# ") {
            push(&mut out, &mut gap, 0.0, 6.0, true, &plain(h), "");
        } else if let Some(h) = t.strip_prefix("## ") {
            gap = gap.max(BODY * 1.2);
            push(&mut out, &mut gap, 0.0, 4.8, true, &plain(h), "");
        } else if let Some(h) = t.strip_prefix("### ") {
            gap = gap.max(BODY * 0.8);
            push(&mut out, &mut gap, 0.0, 3.9, true, &plain(h), "");
        } else if t.starts_with('|') {
            let cells: Vec<String> = t.trim_matches('|').split('|').map(|c| plain(c.trim())).collect();
            if cells.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':' || ch == ' ')) {
                continue;
            }
            push(&mut out, &mut gap, 2.0, BODY * 0.92, false, &cells.join("  \u{00b7}  "), "");
        } else if let Some(b) = t.strip_prefix("- ") {
            let depth = (line.len() - t.len()) as f64 / 2.0;
            push(&mut out, &mut gap, 2.0 + depth * 4.0, BODY, false, &plain(b), "\u{2022} ");
        } else if let Some(d) = t.strip_prefix(": ") {
            push(&mut out, &mut gap, 6.0, BODY, false, &plain(d), "");
        } else {
            push(&mut out, &mut gap, 0.0, BODY, false, &plain(t), "");
        }
    }
    out
}

use crate::render::svgkit::xml_escape as esc;

/// The Markdown laid out on as many pages as it takes, as SVG documents in millimetres.
pub fn text_pages(md: &str, paper: Paper, footer: &str) -> Vec<String> {
    let (w, h) = paper.size_mm();
    let max = w - 2.0 * MARGIN;
    let bottom = h - BOTTOM;
    let mut pages: Vec<Vec<(f64, &Line)>> = vec![Vec::new()];
    let all = lines(md, max);
    let mut y = TOP;
    for l in &all {
        let step = l.size * 1.3;
        let page = pages.last_mut().expect("a page");
        let above = if page.is_empty() { 0.0 } else { l.above };
        if !page.is_empty() && y + above + step > bottom {
            pages.push(Vec::new());
            y = TOP;
        }
        let page = pages.last_mut().expect("a page");
        if !page.is_empty() {
            y += above;
        }
        page.push((y + ASCENT * l.size, l));
        y += step;
    }
    let n = pages.len();
    pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let mut s = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>\n"
            );
            for (base, l) in page {
                let weight = if l.bold { " font-weight=\"bold\"" } else { "" };
                s += &format!(
                    "<text x=\"{:.2}\" y=\"{base:.2}\" font-size=\"{:.2}\"{weight}>{}</text>\n",
                    MARGIN + l.indent,
                    l.size,
                    esc(&l.text)
                );
            }
            s += &format!(
                "<text x=\"{MARGIN}\" y=\"{:.2}\" font-size=\"2.4\" fill=\"#555555\">{} \u{00b7} {}/{n}</text>\n</svg>\n",
                h - BOTTOM / 2.0,
                esc(footer),
                i + 1
            );
            s
        })
        .collect()
}

/// The PDF of the given pages (SVG documents the size of the paper).
pub fn pdf(pages: &[String], paper: Paper, title: &str, what: &str) -> Result<Vec<u8>> {
    let fail = |message: String| Error::Scenario { file: what.to_string(), message };
    let (w, h) = paper.size_mm();
    let pt = 72.0 / 25.4;
    let size = Size::from_wh((w * pt) as f32, (h * pt) as f32).ok_or_else(|| fail("bad paper size".into()))?;
    let opt = usvg::Options { fontdb: crate::render::raster::fonts(), ..Default::default() };
    let mut doc = Document::new();
    doc.set_metadata(Metadata::new().title(title.to_string()).creator("dungeonsmith".to_string()));
    for svg in pages {
        let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| fail(format!("cannot draw a page: {e}")))?;
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface.draw_svg(&tree, size, SvgSettings::default()).ok_or_else(|| fail("cannot draw a page".into()))?;
        surface.finish();
        page.finish();
    }
    doc.finish().map_err(|e| fail(format!("cannot write the PDF: {e:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_markup_is_stripped_and_long_text_runs_onto_more_pages() {
        assert_eq!(plain("**Ruler: a\\*b** `x`"), "Ruler: a*b x");
        let md =
            format!("# Title\n\n{}\n", "- a line of the room key that is long enough to wrap twice over\n".repeat(200));
        let pages = text_pages(&md, Paper::A4, "foot");
        assert!(pages.len() >= 3, "{} pages", pages.len());
        assert!(pages.iter().all(|p| p.contains("foot")));
    }
}
