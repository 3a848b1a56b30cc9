//! A print-ready PDF without a browser (`--format pdf`): the scenario text in reading order, each
//! GM sheet on the page right before the key it draws (map 1, map 1's rooms, map 2, ...), then the
//! players' sheets, on the chosen paper, with a nested outline (bookmarks): the title, its parts,
//! their rooms or areas, and the sheets.
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
use crate::render::typeset::{Fonts, Mark, PT, Style, typeset_at};

/// A sheet page: its bookmark label, its SVG document and, for a GM sheet, the start of the
/// heading of the key it goes before (`None`: before the text, as a sheet with no key).
pub struct Sheet {
    pub label: String,
    pub svg: String,
    pub key: Option<String>,
}

/// One page of the file, in order.
#[derive(Clone, Copy, PartialEq)]
enum Page {
    Gm(usize),
    Text(usize),
    Players(usize),
}

/// The pages in reading order: each GM sheet before the text page its key starts on (a sheet
/// whose key is not in the text goes first), the players' sheets last.
fn order(gm: &[Sheet], anchors: &[Option<usize>], text_pages: usize, players: usize) -> Vec<Page> {
    let at = |i: usize| anchors.get(i).copied().flatten();
    let mut out: Vec<Page> = (0..gm.len()).filter(|&i| at(i).is_none()).map(Page::Gm).collect();
    for p in 0..text_pages {
        out.extend((0..gm.len()).filter(|&i| at(i) == Some(p)).map(Page::Gm));
        out.push(Page::Text(p));
    }
    out.extend((0..players).map(Page::Players));
    out
}

/// The booklet PDF: the typeset text `md` with the GM sheets at their keys, the players' sheets.
pub fn booklet(
    gm: &[Sheet],
    md: &str,
    players: &[Sheet],
    templates: &Templates,
    paper: Paper,
    title: &str,
    what: &str,
) -> Result<Vec<u8>> {
    let fail = |message: String| Error::Pdf { what: what.to_string(), message };
    let style = Style::load(templates, paper)?;
    let (w, h) = paper.size_mm();
    let size_pt = ((w as f32) * PT, (h as f32) * PT);
    let size = Size::from_wh(size_pt.0, size_pt.1).ok_or_else(|| fail("bad paper size".into()))?;
    let mut fonts = Fonts::new();
    let keys: Vec<String> = gm.iter().map(|s| s.key.clone().unwrap_or_default()).collect();
    let mut text = typeset_at(md, title, size_pt, &style, &mut fonts, &keys);
    // A sheet with no key asks for no anchor (an empty prefix would match the first heading).
    for (a, s) in text.anchors.iter_mut().zip(gm) {
        if s.key.is_none() {
            *a = None;
        }
    }
    let pages = order(gm, &text.anchors, text.pages.len(), players.len());
    let opt = usvg::Options { fontdb: crate::render::raster::fonts(), ..Default::default() };
    let mut doc = Document::new();
    doc.set_metadata(Metadata::new().title(title.to_string()).creator("dungeonsmith".to_string()));
    let sheet = |doc: &mut Document, svg: &str| -> Result<()> {
        let tree = usvg::Tree::from_str(svg, &opt).map_err(|source| Error::Draw {
            what: what.into(),
            doing: "a page",
            source,
        })?;
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface.draw_svg(&tree, size, SvgSettings::default()).ok_or_else(|| fail("cannot draw a page".into()))?;
        surface.finish();
        page.finish();
        Ok(())
    };
    for (n, p) in pages.iter().enumerate() {
        match *p {
            Page::Gm(i) => sheet(&mut doc, &gm[i].svg)?,
            Page::Players(i) => sheet(&mut doc, &players[i].svg)?,
            Page::Text(i) => {
                let mut page = doc.start_page_with(PageSettings::new(size));
                let mut surface = page.surface();
                text.draw(&mut surface, &mut fonts, i, size_pt, n + 1, pages.len());
                surface.finish();
                page.finish();
            }
        }
    }
    doc.set_outline(outline(gm, &text.marks, players, &pages));
    doc.finish().map_err(|e| fail(format!("cannot write the PDF: {e:?}")))
}

/// Bookmarks nested as the booklet reads: the title (level 1) holds its parts (level 2), each
/// part its rooms or areas (level 3) and so on; the GM sheets and the players' sheets are two
/// groups under the title, each sheet pointing at its page.
fn outline(gm: &[Sheet], marks: &[Mark], players: &[Sheet], pages: &[Page]) -> Outline {
    let file_page = |p: Page| pages.iter().position(|q| *q == p).unwrap_or(0);
    let at = |page: usize, y: f32| XyzDestination::new(page, Point::from_xy(0.0, y));
    let group = |label: &str, sheets: &[Sheet], page: &dyn Fn(usize) -> Page| {
        let mut node = OutlineNode::new(label.to_string(), at(file_page(page(0)), 0.0));
        for (i, s) in sheets.iter().enumerate() {
            node.push_child(OutlineNode::new(s.label.clone(), at(file_page(page(i)), 0.0)));
        }
        node
    };
    let mut entries: Vec<(u8, OutlineNode)> = marks
        .iter()
        .map(|m| (m.level, OutlineNode::new(m.text.clone(), at(file_page(Page::Text(m.page)), m.y))))
        .collect();
    // The sheets' groups sit one level under the title (level 2), or at the top without one.
    let title = entries.iter().position(|e| e.0 == 1);
    if !gm.is_empty() {
        entries.insert(title.map_or(0, |t| t + 1), (2, group("Maps (GM sheets)", gm, &Page::Gm)));
    }
    if !players.is_empty() {
        entries.push((2, group("Players' sheets", players, &Page::Players)));
    }
    let mut out = Outline::new();
    for node in nest(entries) {
        out.push_child(node);
    }
    out
}

/// Nodes with their levels, nested: each under the nearest node before it of a lower level.
fn nest(entries: Vec<(u8, OutlineNode)>) -> Vec<OutlineNode> {
    let mut roots = Vec::new();
    let mut stack: Vec<(u8, OutlineNode)> = Vec::new();
    let close = |stack: &mut Vec<(u8, OutlineNode)>, roots: &mut Vec<OutlineNode>| {
        if let Some((_, node)) = stack.pop() {
            match stack.last_mut() {
                Some((_, parent)) => parent.push_child(node),
                None => roots.push(node),
            }
        }
    };
    for (level, node) in entries {
        while stack.last().is_some_and(|(l, _)| *l >= level) {
            close(&mut stack, &mut roots);
        }
        stack.push((level, node));
    }
    while !stack.is_empty() {
        close(&mut stack, &mut roots);
    }
    roots
}
