//! A print-ready PDF without a browser (`--format pdf`): every GM sheet, then the scenario text,
//! then the players' sheets, on the chosen paper, with an outline (bookmarks) for the sheets and
//! every heading of the text.
//!
//! The sheets are the same SVG as the `.svg` files, drawn by krilla-svg: maps stay vector and
//! text stays text. The text pages are typeset from the Markdown the booklet templates write
//! ([`crate::render::typeset`]), in the page style of the `pdf.toml` template. krilla embeds the
//! DejaVu Sans faces (subset), writes no dates and derives the document id from the content, so
//! the bytes depend only on the scenario.

use krilla::Document;
use krilla::destination::XyzDestination;
use krilla::geom::{Point, Size};
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::usvg;

use crate::error::{Error, Result};
use crate::model::Paper;
use crate::render::text::Templates;
use crate::render::typeset::{Fonts, PT, Style, typeset};

/// A sheet page: its bookmark label and its SVG document.
pub type Sheet = (String, String);

/// The booklet PDF: the GM sheets, the typeset text `md`, the players' sheets.
pub fn booklet(
    gm: &[Sheet],
    md: &str,
    players: &[Sheet],
    templates: &Templates,
    paper: Paper,
    title: &str,
    what: &str,
) -> Result<Vec<u8>> {
    let fail = |message: String| Error::Scenario { file: what.to_string(), message };
    let style = Style::load(templates, paper)?;
    let (w, h) = paper.size_mm();
    let size_pt = ((w as f32) * PT, (h as f32) * PT);
    let size = Size::from_wh(size_pt.0, size_pt.1).ok_or_else(|| fail("bad paper size".into()))?;
    let mut fonts = Fonts::new();
    let text = typeset(md, title, size_pt, &style, &mut fonts);
    let count = gm.len() + text.pages.len() + players.len();
    let opt = usvg::Options { fontdb: crate::render::raster::fonts(), ..Default::default() };
    let mut doc = Document::new();
    doc.set_metadata(Metadata::new().title(title.to_string()).creator("dungeonsmith".to_string()));
    let sheet = |doc: &mut Document, svg: &str| -> Result<()> {
        let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| fail(format!("cannot draw a page: {e}")))?;
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface.draw_svg(&tree, size, SvgSettings::default()).ok_or_else(|| fail("cannot draw a page".into()))?;
        surface.finish();
        page.finish();
        Ok(())
    };
    for (_, svg) in gm {
        sheet(&mut doc, svg)?;
    }
    for i in 0..text.pages.len() {
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        text.draw(&mut surface, &mut fonts, i, size_pt, gm.len() + i + 1, count);
        surface.finish();
        page.finish();
    }
    for (_, svg) in players {
        sheet(&mut doc, svg)?;
    }
    doc.set_outline(outline(gm, &text.marks, players, (gm.len(), text.pages.len())));
    doc.finish().map_err(|e| fail(format!("cannot write the PDF: {e:?}")))
}

/// Bookmarks: the GM sheets, every heading (level 1 and 2 at the top, 3 and deeper under the
/// heading before them), the players' sheets.
fn outline(gm: &[Sheet], marks: &[crate::render::typeset::Mark], players: &[Sheet], text: (usize, usize)) -> Outline {
    let first_text = text.0;
    let at = |page: usize, y: f32| XyzDestination::new(page, Point::from_xy(0.0, y));
    let mut out = Outline::new();
    let group = |label: &str, sheets: &[Sheet], from: usize| {
        let mut node = OutlineNode::new(label.to_string(), at(from, 0.0));
        for (i, (name, _)) in sheets.iter().enumerate() {
            node.push_child(OutlineNode::new(name.clone(), at(from + i, 0.0)));
        }
        node
    };
    if !gm.is_empty() {
        out.push_child(group("Maps (GM sheets)", gm, 0));
    }
    let mut top: Option<OutlineNode> = None;
    for m in marks {
        let node = OutlineNode::new(m.text.clone(), at(first_text + m.page, m.y));
        if m.level <= 2 {
            if let Some(t) = top.take() {
                out.push_child(t);
            }
            top = Some(node);
        } else {
            match top.as_mut() {
                Some(t) => t.push_child(node),
                None => out.push_child(node),
            }
        }
    }
    if let Some(t) = top {
        out.push_child(t);
    }
    if !players.is_empty() {
        out.push_child(group("Players' sheets", players, text.0 + text.1));
    }
    out
}
