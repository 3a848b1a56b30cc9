//! The booklet's text pages, typeset: the Markdown the booklet templates write is read into
//! blocks ([`markdown`]), each block is shaped and broken into lines by parley (the linebender
//! paragraph layout: real shaping, Unicode line breaking, bold and italic faces), and the lines
//! are paginated here and drawn as glyphs on krilla pages (text stays text, in the embedded
//! DejaVu Sans faces, subset into the file).
//!
//! Why parley and not typst: typst typesets better but adds some 300 crates and minutes to a
//! fresh build; parley adds about twenty on top of the krilla the PDF already used. Parley stays at
//! 0.10, the release that reads fonts with the same skrifa/read-fonts as krilla 0.8: 0.12 brought a
//! second copy of both, 22 s of a fresh 2-core build (issue 36). Pagination is
//! ours (parley lays out paragraphs, not pages): a heading stays with what follows it, a section
//! (a heading and its text: a room key, an area, a stat block) moves whole to the next page when
//! it fits on one, a list item stays with its nested items, a table breaks only between rows and repeats its header
//! row atop each page it runs on to.
//! Every step is linear in the text.

pub mod markdown;
pub mod style;

use std::sync::Arc;

use krilla::geom::{PathBuilder, Point};
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use parley::fontique::{Blob, Collection, CollectionOptions, SourceCache};
use parley::{
    Alignment, AlignmentOptions, FontContext, FontFamily, FontStyle, FontWeight, Layout, LayoutContext, LineHeight,
    PositionedLayoutItem, StyleProperty,
};

use markdown::{Block, Rich};
pub use style::Style;

use crate::render::fonts::{FACES, FAMILY};

/// Points per millimetre.
pub const PT: f32 = 72.0 / 25.4;
/// Padding inside a table cell, in points.
const CELL_PAD: f32 = 3.0;
/// A table of at most this many body rows never splits over two pages.
pub const SMALL_TABLE: usize = 12;
/// Lines of a paragraph that must follow a heading on its page (a heading never ends a page).
const LINES_AFTER_HEADING: usize = 2;
/// The fewest lines a page holds before a new-page break (the page before a map sheet), unless
/// the text before it cannot be moved (see [`paginate`]).
pub const MIN_LINES_BEFORE_BREAK: usize = 4;

/// The fonts, as parley and krilla each see them.
pub struct Fonts {
    fcx: FontContext,
    lcx: LayoutContext<()>,
    pdf: Vec<(usize, Font)>,
}

impl Fonts {
    /// Only the embedded faces: no system font can change a line break.
    pub fn new() -> Fonts {
        let mut collection = Collection::new(CollectionOptions { shared: false, system_fonts: false });
        let mut pdf = Vec::new();
        for face in FACES {
            collection.register_fonts(Blob::new(Arc::new(face)), None);
            if let Some(f) = Font::new(face.into(), 0) {
                pdf.push((face.as_ptr() as usize, f));
            }
        }
        Fonts { fcx: FontContext { collection, source_cache: SourceCache::default() }, lcx: LayoutContext::new(), pdf }
    }

    fn pdf_font(&self, data: &[u8]) -> Option<Font> {
        self.pdf.iter().find(|(p, _)| *p == data.as_ptr() as usize).map(|(_, f)| f.clone())
    }

    /// `rich` shaped at `size` and broken into lines at most `width` wide.
    fn layout(&mut self, rich: &Rich, size: f32, line_height: f32, bold: bool, width: f32, end: bool) -> Layout<()> {
        let mut b = self.lcx.ranged_builder(&mut self.fcx, &rich.text, 1.0, false);
        b.push_default(StyleProperty::FontFamily(FontFamily::named(FAMILY)));
        b.push_default(StyleProperty::FontSize(size));
        b.push_default(StyleProperty::LineHeight(LineHeight::FontSizeRelative(line_height)));
        if bold {
            b.push_default(StyleProperty::FontWeight(FontWeight::BOLD));
        }
        for r in &rich.bold {
            b.push(StyleProperty::FontWeight(FontWeight::BOLD), r.clone());
        }
        for r in &rich.italic {
            b.push(StyleProperty::FontStyle(FontStyle::Italic), r.clone());
        }
        let mut layout = b.build(&rich.text);
        layout.break_all_lines(Some(width.max(1.0)));
        layout.align(if end { Alignment::End } else { Alignment::Start }, AlignmentOptions::default());
        layout
    }
}

impl Default for Fonts {
    fn default() -> Self {
        Fonts::new()
    }
}

/// A laid-out text: its layout, its text, and the top of each line (plus the bottom).
struct Text {
    layout: Layout<()>,
    text: String,
    tops: Vec<f32>,
}

impl Text {
    fn new(layout: Layout<()>, text: String) -> Text {
        let mut tops = vec![0.0];
        for line in layout.lines() {
            let last = *tops.last().unwrap_or(&0.0);
            tops.push(last + line.metrics().line_height);
        }
        Text { layout, text, tops }
    }

    fn height(&self) -> f32 {
        *self.tops.last().unwrap_or(&0.0)
    }

    fn lines(&self) -> usize {
        self.tops.len() - 1
    }

    /// The width of the laid-out text: its longest line's advance.
    fn width(&self) -> f32 {
        self.layout.width()
    }
}

/// Where a list marker starts: right-aligned a third of the body size before its item's text at
/// `text_x`, so "12." and "1." both stand clear of it ("1. Rokea", never "1.Rokea").
fn marker_x(text_x: f32, marker: &Text, body_pt: f32) -> f32 {
    text_x - body_pt / 3.0 - marker.width()
}

/// One thing placed on a page.
enum Item {
    /// Lines of a paragraph or heading, `x` from the margin; `marker` drawn left of the first line.
    Text { x: f32, text: Box<Text>, marker: Option<Box<Text>> },
    /// A table row: cells at (x, width), the row's height; `head` rows are bold and ruled below.
    /// A body row knows its table's `header` row (an item index), to repeat it atop a page the
    /// table runs on to.
    Row { cells: Vec<(f32, f32, Text)>, height: f32, head: bool, first: bool, header: Option<usize> },
}

impl Item {
    fn height(&self) -> f32 {
        match self {
            Item::Text { text, .. } => text.height(),
            Item::Row { height, .. } => *height,
        }
    }
}

/// An item with how it sits in the flow.
struct Flow {
    item: Item,
    /// Space above it (dropped at the top of a page).
    above: f32,
    /// Kept on the same page as the next item.
    keep: bool,
    /// A heading: its level and text, for the outline; it starts a section.
    heading: Option<(u8, String)>,
    /// It starts a new page (it follows a `---` break): a section of its own.
    break_before: bool,
}

/// A paragraph at list `depth` with its `marker`, as items; the last kept with what follows when
/// `keep`. A paragraph past what parley lays out at once runs on as pieces, each starting a line
/// right below the last (no gap, no marker).
fn para(
    depth: u8,
    marker: Option<&str>,
    text: &Rich,
    keep: bool,
    style: &Style,
    fonts: &mut Fonts,
    width: f32,
) -> Vec<Flow> {
    let indent = f32::from(depth) * style.list_indent_pt;
    let mut marker = marker.map(|m| {
        let rich = Rich { text: m.to_string(), ..Rich::default() };
        let l = fonts.layout(&rich, style.body_pt, style.line_height, false, style.list_indent_pt, false);
        Box::new(Text::new(l, m.to_string()))
    });
    let mut above = if depth > 1 { style.paragraph_gap_pt * 0.3 } else { style.paragraph_gap_pt };
    let parts = pieces(text);
    let last = parts.len() - 1;
    let mut out = Vec::with_capacity(parts.len());
    for (k, part) in parts.into_iter().enumerate() {
        let layout = fonts.layout(&part, style.body_pt, style.line_height, false, width - indent, false);
        out.push(Flow {
            item: Item::Text { x: indent, text: Box::new(Text::new(layout, part.text)), marker: marker.take() },
            above,
            keep: k < last || keep,
            heading: None,
            break_before: false,
        });
        above = 0.0;
    }
    out
}

/// The blocks as items ready to paginate, for a column `width` points wide.
fn flow(blocks: &[Block], style: &Style, fonts: &mut Fonts, width: f32) -> Vec<Flow> {
    let mut out: Vec<Flow> = Vec::new();
    let mut breaks: Vec<usize> = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block {
            Block::PageBreak => breaks.push(out.len()),
            Block::Heading(level, rich) => {
                let size = style.heading(*level);
                let rich = &first_piece(rich);
                let layout = fonts.layout(rich, size, 1.2, true, width, false);
                out.push(Flow {
                    item: Item::Text { x: 0.0, text: Box::new(Text::new(layout, rich.text.clone())), marker: None },
                    above: if *level == 1 { 0.0 } else { style.heading_gap_pt },
                    keep: true,
                    heading: Some((*level, rich.text.clone())),
                    break_before: false,
                });
            }
            Block::Para { depth, marker, text } => {
                // A list item stays with the deeper items that follow it (a stat block's lines);
                // a paragraph right before a table is its caption ("**Rare Arms Items Table**"),
                // and stays with the table's header and first row.
                let deeper = matches!(blocks.get(i + 1), Some(Block::Para { depth: d, .. }) if d > depth);
                let caption = *depth == 0 && matches!(blocks.get(i + 1), Some(Block::Table { .. }));
                out.extend(para(*depth, marker.as_deref(), text, deeper || caption, style, fonts, width));
            }
            Block::Table { right, head, rows } => {
                let cols = head.len().max(rows.iter().map(Vec::len).max().unwrap_or(0));
                let widths = column_widths(head, rows, cols, style, fonts, width);
                let header = out.len();
                // A small table (a treasure or roll table) is read at one glance: it moves whole
                // to the next page rather than leave a row or two behind.
                let whole = rows.len() <= SMALL_TABLE;
                let mut first = true;
                for (r, row) in std::iter::once(head).chain(rows).enumerate() {
                    let mut x = 0.0;
                    let mut cells = Vec::new();
                    for (c, w) in widths.iter().enumerate() {
                        let rich = row.get(c).map(|r| first_piece(r).into_owned()).unwrap_or_default();
                        let end = right.get(c).copied().unwrap_or(false);
                        let l = fonts.layout(&rich, style.table_pt, 1.2, r == 0, w - 2.0 * CELL_PAD, end);
                        cells.push((x, *w, Text::new(l, rich.text)));
                        x += w;
                    }
                    let height = cells.iter().map(|c| c.2.height()).fold(0.0, f32::max) + 2.0 * CELL_PAD;
                    out.push(Flow {
                        item: Item::Row { cells, height, head: r == 0, first, header: (r > 0).then_some(header) },
                        above: if first { style.paragraph_gap_pt } else { 0.0 },
                        keep: r == 0 || (whole && r < rows.len()),
                        heading: None,
                        break_before: false,
                    });
                    first = false;
                }
            }
        }
    }
    for b in breaks {
        if let Some(f) = out.get_mut(b) {
            f.break_before = true;
        }
    }
    out
}

/// The most bytes of text laid out at once. Parley keeps a glyph cluster's place in its run as
/// 16 bits, so a run of one style past 64 KiB made it slice its text backwards and panic (issue
/// 50: a cast member of 33 traits of 2,000 characters); a quarter of that leaves room for any
/// script.
const PIECE: usize = 16 << 10;

/// `rich` cut into pieces of at most [`PIECE`] bytes, each at a space when one is near (else at a
/// character's end), with its bold and italic runs; one piece when it is short enough.
fn pieces(rich: &Rich) -> Vec<Rich> {
    let text = &rich.text;
    let mut out = Vec::new();
    let mut start = 0;
    while text.len() - start > PIECE {
        let mut end = start + PIECE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        // A space in the last eighth of the piece ends it there (the space stays with it).
        if let Some(sp) = text[start..end].rfind(' ').filter(|&sp| sp > PIECE - PIECE / 8) {
            end = start + sp + 1;
        }
        out.push(slice(rich, start..end));
        start = end;
    }
    out.push(slice(rich, start..text.len()));
    out
}

/// The part `range` of `rich`, its runs clipped to it and counted from its start.
fn slice(rich: &Rich, range: std::ops::Range<usize>) -> Rich {
    let clip = |runs: &[std::ops::Range<usize>]| -> Vec<std::ops::Range<usize>> {
        runs.iter()
            .map(|r| r.start.max(range.start)..r.end.min(range.end))
            .filter(|r| r.start < r.end)
            .map(|r| r.start - range.start..r.end - range.start)
            .collect()
    };
    Rich { text: rich.text[range.clone()].to_string(), bold: clip(&rich.bold), italic: clip(&rich.italic) }
}

/// A heading or a table cell, which are one text each: past [`PIECE`] bytes, its first piece and
/// a mark that the rest is left out (no file the generators make comes near).
fn first_piece(rich: &Rich) -> std::borrow::Cow<'_, Rich> {
    if rich.text.len() <= PIECE {
        return std::borrow::Cow::Borrowed(rich);
    }
    let mut first = pieces(rich).swap_remove(0);
    first.text.push('\u{2026}');
    std::borrow::Cow::Owned(first)
}

/// Column widths: each column gets its longest word, the rest of the width is shared in
/// proportion to how much more each would take on one line.
fn column_widths(
    head: &[Rich],
    rows: &[Vec<Rich>],
    cols: usize,
    style: &Style,
    fonts: &mut Fonts,
    width: f32,
) -> Vec<f32> {
    let mut min = vec![0.0f32; cols];
    let mut max = vec![0.0f32; cols];
    for (r, row) in std::iter::once(head).chain(rows.iter().map(Vec::as_slice)).enumerate() {
        for (c, cell) in row.iter().enumerate().take(cols) {
            let l = fonts.layout(&first_piece(cell), style.table_pt, 1.2, r == 0, f32::MAX / 4.0, false);
            let w = l.calculate_content_widths();
            min[c] = min[c].max(w.min + 2.0 * CELL_PAD);
            max[c] = max[c].max(w.max + 2.0 * CELL_PAD);
        }
    }
    let (sum_min, sum_max): (f32, f32) = (min.iter().sum(), max.iter().sum());
    if sum_max <= width {
        return max;
    }
    if sum_min >= width {
        // Too many long words: share the width by each column's need.
        return min.iter().map(|m| m / sum_min * width).collect();
    }
    let spare = width - sum_min;
    let want = sum_max - sum_min;
    min.iter().zip(&max).map(|(lo, hi)| lo + (hi - lo) / want * spare).collect()
}

/// Where an item (or some of its lines) went: the page, the top y, the line range of a text.
pub struct Placed {
    index: usize,
    y: f32,
    lines: std::ops::Range<usize>,
}

/// A heading's place, for the outline: level, text, page (0-based among the text pages), y.
pub struct Mark {
    pub level: u8,
    pub text: String,
    pub page: usize,
    pub y: f32,
}

/// The typeset text: the items, and the pages they were placed on.
pub struct Typeset {
    items: Vec<Flow>,
    /// The running header, laid out once (a long title is cut to its first line).
    header: Text,
    pub pages: Vec<Vec<Placed>>,
    pub marks: Vec<Mark>,
    /// For each anchor asked for, the text page its heading starts (`None`: no such heading).
    pub anchors: Vec<Option<usize>>,
    style: Style,
    left: f32,
}

/// Sections: from one heading to the next, so a whole section can move to the next page.
fn sections(items: &[Flow]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..items.len() {
        if items[i].break_before || (items[i].heading.is_some() && !items[i - 1].keep) {
            out.push(start..i);
            start = i;
        }
    }
    if start < items.len() {
        out.push(start..items.len());
    }
    out
}

/// Lays `md` out on pages of `size` (points) with `style`; `title` fills the running header.
pub fn typeset(md: &str, title: &str, size: (f32, f32), style: &Style, fonts: &mut Fonts) -> Typeset {
    typeset_at(md, title, size, style, fonts, &[])
}

/// The index of the first heading after item `from` whose text starts with `prefix`.
fn find_heading(items: &[Flow], from: usize, prefix: &str) -> Option<usize> {
    (from..items.len()).find(|&i| items[i].heading.as_ref().is_some_and(|(_, t)| t.starts_with(prefix)))
}

/// [`typeset`], with each heading that starts with one of `anchors` (in order) on a new page, so
/// the PDF can put a map sheet right before the key that it draws ([`Typeset::anchors`]).
pub fn typeset_at(
    md: &str,
    title: &str,
    size: (f32, f32),
    style: &Style,
    fonts: &mut Fonts,
    anchors: &[String],
) -> Typeset {
    let m = &style.margin_mm;
    let (left, top, bottom) = (m.left * PT, m.top * PT, size.1 - m.bottom * PT);
    let width = (size.0 - (m.left + m.right) * PT).max(36.0);
    let mut items = flow(&markdown::blocks(md), style, fonts, width);
    let mut from = 0;
    let at: Vec<Option<usize>> = anchors
        .iter()
        .map(|a| {
            let i = find_heading(&items, from, a)?;
            from = i + 1;
            items[i].break_before = true;
            Some(i)
        })
        .collect();
    let mut pager = Pager { pages: vec![Vec::new()], marks: Vec::new(), y: top, top, bottom };
    paginate(&mut pager, &items);
    let Pager { mut pages, marks, .. } = pager;
    if pages.last().is_some_and(Vec::is_empty) && pages.len() > 1 {
        pages.pop();
    }
    let anchors =
        at.iter().map(|i| i.and_then(|i| pages.iter().position(|p| p.first().is_some_and(|f| f.index == i)))).collect();
    let head = Rich { text: style.header.replace("{title}", title), ..Rich::default() };
    let header = Text::new(fonts.layout(&head, style.header_pt, 1.2, false, width, false), head.text);
    Typeset { items, pages, marks, anchors, style: style.clone(), left, header }
}

/// Lays the sections out page by page. A page that a new-page break (a map sheet's key, a
/// handout) would leave holding fewer than [`MIN_LINES_BEFORE_BREAK`] lines (the end of a section
/// that ran on) is not left so: the sections since the last one that started part-way down the
/// page before go to a new page together, when they fit on one, so that page reads as a page
/// rather than a stray line or two before a sheet.
fn paginate(pager: &mut Pager, items: &[Flow]) {
    let secs = sections(items);
    let body = (pager.bottom - pager.top).max(36.0);
    let mut starts: Vec<Snapshot> = Vec::with_capacity(secs.len());
    let mut moved = vec![false; secs.len()];
    let mut k = 0;
    while k < secs.len() {
        let sec = secs[k].clone();
        if items[sec.start].break_before && !pager.fresh() {
            let page = pager.pages.len() - 1;
            let short = pager.lines_on(page) < MIN_LINES_BEFORE_BREAK && page > 0;
            // The latest section that began part-way down the page before this one.
            let back = (0..k)
                .rev()
                .take_while(|&j| starts[j].page + 1 >= page)
                .find(|&j| starts[j].page + 1 == page && !starts[j].fresh && secs[j].start + 1 < sec.start);
            if let Some(j) = back.filter(|&j| short && !moved[j] && span(&(secs[j].start..sec.start), items) <= body) {
                pager.restore(&starts[j]);
                starts.truncate(j);
                moved[j] = true;
                pager.next_page();
                k = j;
                continue;
            }
            pager.next_page();
        }
        starts.push(pager.snapshot());
        pager.section(items, sec);
        k += 1;
    }
}

/// Where the pages stood when a section began, to lay it out again from there.
struct Snapshot {
    page: usize,
    placed: usize,
    marks: usize,
    y: f32,
    /// Nothing was on its page yet.
    fresh: bool,
}

/// The height of a unit's headings and what must stand with them: the item after the last
/// heading, or its first lines when it is a long paragraph.
fn lead_height(items: &[Flow], unit: std::ops::Range<usize>) -> f32 {
    let mut h = 0.0;
    for (k, f) in items[unit].iter().enumerate() {
        h += if k == 0 { 0.0 } else { f.above };
        match &f.item {
            Item::Text { text, .. } if f.heading.is_none() => {
                return h + text.tops[text.lines().min(LINES_AFTER_HEADING)];
            }
            _ if f.heading.is_none() => return h + f.item.height(),
            _ => h += f.item.height(),
        }
    }
    h
}

/// The height of items `r` stacked, with the space above each but the first.
fn span(r: &std::ops::Range<usize>, items: &[Flow]) -> f32 {
    items[r.clone()].iter().enumerate().map(|(k, f)| f.item.height() + if k == 0 { 0.0 } else { f.above }).sum()
}

/// The pages as they fill, top to bottom: what went on each, the headings' places, and where
/// the next item goes.
struct Pager {
    pages: Vec<Vec<Placed>>,
    marks: Vec<Mark>,
    y: f32,
    /// The body's top and bottom on every page.
    top: f32,
    bottom: f32,
}

impl Pager {
    fn snapshot(&self) -> Snapshot {
        let page = self.pages.len() - 1;
        let placed = self.pages[page].len();
        Snapshot { page, placed, marks: self.marks.len(), y: self.y, fresh: placed == 0 }
    }

    /// Back to where `s` was taken: what was placed since is taken off.
    fn restore(&mut self, s: &Snapshot) {
        self.pages.truncate(s.page + 1);
        self.pages[s.page].truncate(s.placed);
        self.marks.truncate(s.marks);
        self.y = s.y;
    }

    /// The lines of text (a table row counts as one) on page `page`.
    fn lines_on(&self, page: usize) -> usize {
        self.pages[page].iter().map(|p| p.lines.len().max(1)).sum()
    }

    /// Nothing is on the current page yet (space above the next item is then dropped).
    fn fresh(&self) -> bool {
        self.pages.last().is_some_and(Vec::is_empty)
    }

    fn next_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = self.top;
    }

    fn put(&mut self, index: usize, lines: std::ops::Range<usize>) {
        self.pages.last_mut().expect("a page").push(Placed { index, y: self.y, lines });
    }

    /// A section moves whole to the next page when it does not fit on this one but fits on a
    /// page of its own; otherwise its units go one after another.
    fn section(&mut self, items: &[Flow], sec: std::ops::Range<usize>) {
        let body = (self.bottom - self.top).max(36.0);
        let h = span(&sec, items);
        let room = self.bottom - self.y - items[sec.start].above;
        if h > room && h <= body && !self.fresh() {
            self.next_page();
        }
        let mut i = sec.start;
        while i < sec.end {
            // The unit: this item and those it keeps with.
            let mut j = i;
            while j + 1 < sec.end && items[j].keep {
                j += 1;
            }
            self.unit(items, i..j + 1, body);
            i = j + 1;
        }
    }

    /// Items kept together: on the next page when they do not fit on this one but fit on a page.
    /// A unit taller than a page starts on the next page too when its headings and the first
    /// lines after them would not fit on this one (a heading never ends a page).
    fn unit(&mut self, items: &[Flow], unit: std::ops::Range<usize>, body: f32) {
        let fresh = self.fresh();
        let above = if fresh { 0.0 } else { items[unit.start].above };
        let h = span(&unit, items);
        let lead = lead_height(items, unit.clone());
        let fits = |h: f32| self.y + above + h <= self.bottom;
        if !fresh && ((!fits(h) && h <= body) || !fits(lead)) {
            self.next_page();
        }
        for k in unit {
            self.y += if self.fresh() { 0.0 } else { items[k].above };
            if let Some((level, text)) = &items[k].heading {
                self.marks.push(Mark { level: *level, text: text.clone(), page: self.pages.len() - 1, y: self.y });
            }
            match &items[k].item {
                Item::Text { text, .. } => self.text(k, text),
                Item::Row { height, header, .. } => self.row(items, k, *height, *header),
            }
        }
    }

    /// A text's lines, running on one page after another when it is taller than what is left.
    fn text(&mut self, k: usize, text: &Text) {
        let mut from = 0;
        while from < text.lines() {
            let mut to = from;
            while to < text.lines() && self.y + text.tops[to + 1] - text.tops[from] <= self.bottom {
                to += 1;
            }
            if to == from {
                if self.fresh() {
                    to = from + 1; // a line taller than the page: alone on it
                } else {
                    self.next_page();
                    continue;
                }
            }
            self.put(k, from..to);
            self.y += text.tops[to] - text.tops[from];
            from = to;
            if from < text.lines() {
                self.next_page();
            }
        }
    }

    /// A table row, whole: on the next page when it does not fit. A body row that starts a page
    /// has its table's header row repeated above it, so every page of a long table says what its
    /// columns are (as the HTML booklet's `thead` does).
    fn row(&mut self, items: &[Flow], k: usize, height: f32, header: Option<usize>) {
        if self.y + height > self.bottom && !self.fresh() {
            self.next_page();
        }
        if let Some(h) = header.filter(|_| self.fresh()) {
            self.put(h, 0..0);
            self.y += items[h].item.height();
        }
        self.put(k, 0..0);
        self.y += height;
    }
}

fn grey(v: u8) -> krilla::color::rgb::Color {
    krilla::color::rgb::Color::new(v, v, v)
}

fn stroke(surface: &mut Surface, width: f32, shade: u8, points: &[(f32, f32)]) {
    let mut pb = PathBuilder::new();
    for (i, (x, y)) in points.iter().enumerate() {
        if i == 0 {
            pb.move_to(*x, *y);
        } else {
            pb.line_to(*x, *y);
        }
    }
    if let Some(path) = pb.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke { paint: grey(shade).into(), width, ..Stroke::default() }));
        surface.draw_path(&path);
        surface.set_stroke(None);
    }
}

/// Draws lines `lines` of `t` with their top at (x, y).
fn draw_text(surface: &mut Surface, fonts: &Fonts, t: &Text, lines: std::ops::Range<usize>, x: f32, y: f32, shade: u8) {
    surface.set_stroke(None);
    surface.set_fill(Some(Fill { paint: grey(shade).into(), ..Fill::default() }));
    let shift = t.tops.get(lines.start).copied().unwrap_or(0.0);
    for (n, line) in t.layout.lines().enumerate() {
        if n < lines.start {
            continue;
        }
        if n >= lines.end {
            break;
        }
        for item in line.items() {
            let PositionedLayoutItem::GlyphRun(gr) = item else { continue };
            let run = gr.run();
            let size = run.font_size();
            let Some(font) = fonts.pdf_font(run.font().data.data()) else { continue };
            let base = run.text_range().start;
            // A ligature's glyph sits in its first cluster; the clusters it covers have none, and
            // their text belongs to it (so "ff" reads back as two letters).
            let mut groups: Vec<(std::ops::Range<usize>, Vec<parley::Glyph>)> = Vec::new();
            for c in run.clusters() {
                let r = c.text_range();
                let gs: Vec<parley::Glyph> = c.glyphs().collect();
                match groups.last_mut() {
                    Some(last) if gs.is_empty() => last.0.end = last.0.end.max(r.end),
                    _ => groups.push((r, gs)),
                }
            }
            let mut glyphs = Vec::new();
            for (r, gs) in groups {
                for g in gs {
                    glyphs.push(KrillaGlyph {
                        glyph_id: GlyphId::new(g.id),
                        text_range: r.start - base..r.end - base,
                        x_advance: g.advance / size,
                        x_offset: g.x / size,
                        y_offset: 0.0,
                        y_advance: 0.0,
                        location: None,
                    });
                }
            }
            let text = &t.text[run.text_range()];
            surface.draw_glyphs(
                Point::from_xy(x + gr.offset(), y + gr.baseline() - shift),
                &glyphs,
                font,
                text,
                size,
                false,
            );
        }
    }
}

impl Typeset {
    /// Draws text page `page` (its header and its footer, `number` of `count` in the file).
    pub fn draw(
        &self,
        surface: &mut Surface,
        fonts: &mut Fonts,
        page: usize,
        size: (f32, f32),
        number: usize,
        count: usize,
    ) {
        let s = &self.style;
        let m = &s.margin_mm;
        let right = size.0 - m.right * PT;
        let width = right - self.left;
        for p in self.pages.get(page).into_iter().flatten() {
            match &self.items[p.index].item {
                Item::Text { x, text, marker, .. } => {
                    if let Some(mk) = marker.as_ref().filter(|_| p.lines.start == 0) {
                        draw_text(surface, fonts, mk, 0..1, marker_x(self.left + x, mk, s.body_pt), p.y, 0);
                    }
                    draw_text(surface, fonts, text, p.lines.clone(), self.left + x, p.y, 0);
                }
                Item::Row { cells, height, head, first, .. } => {
                    let (x0, x1) = (self.left, self.left + cells.iter().map(|c| c.1).sum::<f32>());
                    if *first {
                        stroke(surface, 0.8, 0, &[(x0, p.y), (x1, p.y)]);
                    }
                    let (w, shade) = if *head { (0.8, 0) } else { (0.3, s.grey) };
                    stroke(surface, w, shade, &[(x0, p.y + height), (x1, p.y + height)]);
                    // Ruled columns: a thin line left of every cell and after the last.
                    stroke(surface, 0.3, s.grey, &[(x1, p.y), (x1, p.y + height)]);
                    for (cx, _, t) in cells {
                        draw_text(surface, fonts, t, 0..t.lines(), self.left + cx + CELL_PAD, p.y + CELL_PAD, 0);
                        let xl = self.left + cx;
                        stroke(surface, 0.3, s.grey, &[(xl, p.y), (xl, p.y + height)]);
                    }
                }
            }
        }
        // Running header: the title, left, over a thin rule; footer: the page, right.
        let fill = |f: &str| f.replace("{page}", &number.to_string()).replace("{pages}", &count.to_string());
        let foot = Rich { text: fill(&s.footer), ..Rich::default() };
        let fl = Text::new(fonts.layout(&foot, s.header_pt, 1.2, false, width, true), foot.text);
        let hl = &self.header;
        let hy = m.top * PT * 0.45;
        draw_text(surface, fonts, hl, 0..hl.lines().min(1), self.left, hy, s.grey);
        stroke(
            surface,
            0.3,
            s.grey,
            &[
                (self.left, hy + hl.tops.get(1).copied().unwrap_or(0.0) + 1.5),
                (right, hy + hl.tops.get(1).copied().unwrap_or(0.0) + 1.5),
            ],
        );
        draw_text(surface, fonts, &fl, 0..fl.lines().min(1), self.left, size.1 - m.bottom * PT * 0.6, s.grey);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fonts;

    /// The SVG sheets measure text from a table (`fonts::advance`); parley shaping each
    /// character from the same embedded faces at one font unit a point must give its numbers.
    #[test]
    fn the_sheet_measure_is_the_embedded_faces_advances() {
        let mut f = Fonts::new();
        let mut shaped = |c: char, bold: bool| {
            let rich = Rich { text: c.to_string(), bold: Vec::new(), italic: Vec::new() };
            f.layout(&rich, fonts::UNITS_PER_EM as f32, 1.0, bold, 1.0e6, false).full_width()
        };
        for bold in [false, true] {
            for c in ' '..='~' {
                let (drawn, measured) = (shaped(c, bold), fonts::advance(c, bold) as f32);
                assert!((drawn - measured).abs() < 0.01, "{c:?} (bold {bold}): drawn {drawn}, measured {measured}");
            }
            // Beyond ASCII the measure may be wider than the face, never narrower.
            for (c, units) in fonts::WIDE_ENOUGH {
                let drawn = shaped(c, bold);
                assert!(
                    drawn > 0.0 && drawn <= units as f32 + 0.01,
                    "{c:?} (bold {bold}): drawn {drawn}, measured {units}"
                );
            }
        }
    }

    fn style() -> Style {
        let t = crate::render::text::Templates::load(None).expect("built-in templates");
        Style::load(&t, crate::model::Paper::A4).expect("the built-in page style")
    }

    const A4: (f32, f32) = (210.0 * PT, 297.0 * PT);

    #[test]
    fn a_list_number_stands_a_gap_before_its_items_text() {
        let md: String = (1..=12).map(|i| format!("{i}. Rokea the {i}th\n")).collect();
        let st = style();
        let t = typeset(&md, "Title", A4, &st, &mut Fonts::new());
        let mut seen = 0;
        for f in &t.items {
            let Item::Text { x, marker: Some(mk), .. } = &f.item else { continue };
            seen += 1;
            let right = marker_x(*x, mk, st.body_pt) + mk.width();
            assert!(*x - right >= st.body_pt / 4.0, "`{}` ends {} pt before its text", mk.text, *x - right);
            assert!(mk.width() > 0.0, "the marker `{}` has ink", mk.text);
        }
        assert_eq!(seen, 12, "every item has its number");
    }

    #[test]
    fn a_thematic_break_starts_a_new_page_for_each_handout() {
        let handout = "### Handout\n\n- **Your hook:** short\n\n";
        let md = format!("# Title\n\nintro\n\n---\n\n{handout}---\n\n{handout}---\n\n{handout}");
        let t = typeset(&md, "Title", A4, &style(), &mut Fonts::new());
        assert_eq!(t.pages.len(), 4, "the title page and one page per handout");
        for page in &t.pages[1..] {
            assert!(t.items[page[0].index].heading.is_some(), "each handout page starts with its heading");
        }
    }

    #[test]
    fn a_section_that_fits_on_a_page_is_never_split() {
        let room = "### A1 — Room\n\n*damp*\n\n- **Goblin x3** — Warfare 3 / Range 0 / Damage 2 / Defense 8 / HP 6\n  - Skill: one\n  - Skill: two\n\n";
        let md = format!("# Title\n\n{}", room.repeat(40));
        let t = typeset(&md, "Title", A4, &style(), &mut Fonts::new());
        assert!(t.pages.len() >= 3, "{} pages", t.pages.len());
        for page in &t.pages {
            // Each page starts with a heading (a whole room), except the first (the title).
            let first = &t.items[page[0].index];
            assert!(first.heading.is_some(), "a page starts inside a room");
        }
        assert_eq!(t.marks.iter().filter(|m| m.level == 3).count(), 40, "every room is bookmarked");
    }

    #[test]
    fn a_table_run_on_over_pages_repeats_its_header_row_atop_each_page() {
        let rows: String = (1..=150).map(|i| format!("| {i} | row {i} |\n")).collect();
        let md = format!("# Title\n\n| Roll | Result |\n| ---: | --- |\n{rows}");
        let t = typeset(&md, "Title", A4, &style(), &mut Fonts::new());
        assert!(t.pages.len() >= 3, "the table runs over {} pages", t.pages.len());
        let head = t.items.iter().position(|f| matches!(f.item, Item::Row { head: true, .. })).expect("a header row");
        for (n, page) in t.pages.iter().enumerate() {
            // The first page starts with the title; every other starts with the header, then a body row.
            let first = if n == 0 { 1 } else { 0 };
            assert_eq!(page[first].index, head, "page {} starts the table with its header row", n + 1);
            assert!(matches!(t.items[page[first + 1].index].item, Item::Row { head: false, .. }));
            assert!(page.windows(2).all(|w| w[0].y < w[1].y), "page {}: rows go down the page", n + 1);
        }
        // Every body row is placed once.
        let body: Vec<usize> = t.pages.iter().flatten().map(|p| p.index).filter(|&i| i != head && i != 0).collect();
        assert_eq!(body, (head + 1..head + 151).collect::<Vec<_>>());
    }

    /// The page each item index is placed on (its first line's).
    fn page_of(t: &Typeset) -> Vec<usize> {
        let mut at = vec![usize::MAX; t.items.len()];
        for (n, page) in t.pages.iter().enumerate() {
            for p in page {
                at[p.index] = at[p.index].min(n);
            }
        }
        at
    }

    #[test]
    fn a_table_of_twelve_rows_or_fewer_never_splits_over_two_pages() {
        // Paragraphs of every length push a 6-row and a 12-row table to every place on the page.
        for filler in 0..40 {
            let para = "word ".repeat(30);
            let rows = |n: usize| (1..=n).map(|i| format!("| {i} | treasure {i} |\n")).collect::<String>();
            let md = format!(
                "# T\n\n{}\n| Roll | Result |\n| ---: | --- |\n{}\nafter\n\n| Roll | Result |\n| ---: | --- |\n{}",
                format!("{para}\n\n").repeat(filler),
                rows(6),
                rows(SMALL_TABLE)
            );
            let t = typeset(&md, "T", A4, &style(), &mut Fonts::new());
            let at = page_of(&t);
            let tables: Vec<Vec<usize>> =
                t.items.iter().enumerate().filter(|(_, f)| matches!(f.item, Item::Row { .. })).fold(
                    Vec::new(),
                    |mut acc: Vec<Vec<usize>>, (i, f)| {
                        if matches!(f.item, Item::Row { first: true, .. }) {
                            acc.push(Vec::new());
                        }
                        acc.last_mut().expect("a table").push(at[i]);
                        acc
                    },
                );
            assert_eq!(tables.len(), 2);
            for rows in tables {
                assert!(rows.iter().all(|p| *p == rows[0]), "filler {filler}: a small table split: pages {rows:?}");
            }
        }
    }

    #[test]
    fn a_heading_is_never_the_last_line_of_a_page() {
        // Each heading is followed by a paragraph longer than a page, at every height on the page.
        for filler in 0..40 {
            let md = format!(
                "# T\n\n{}### A heading\n\n{}\n\n## Next\n\n| a | b |\n| --- | --- |\n{}",
                "line\n\n".repeat(filler),
                "word ".repeat(3000),
                "| 1 | 2 |\n".repeat(30)
            );
            let t = typeset(&md, "T", A4, &style(), &mut Fonts::new());
            for (n, page) in t.pages.iter().enumerate() {
                let last = page.last().expect("a page holds something");
                assert!(t.items[last.index].heading.is_none(), "filler {filler}: page {} ends with a heading", n + 1);
            }
        }
    }

    /// A table's caption (the paragraph right before it, as the booklet's item tables have)
    /// never ends a page: at every height on the page, it stands on the page that holds the
    /// table's header row and first body row.
    #[test]
    fn a_table_caption_is_never_the_last_line_of_a_page() {
        for filler in 0..60 {
            let rows: String = (1..=36).map(|i| format!("| {i} | item {i} |\n")).collect();
            let md = format!(
                "# T\n\n{}**Rare Arms Items Table (D6D6)**\n\n| D66 | Item |\n| --- | --- |\n{rows}\nafter\n",
                "line of filler text\n\n".repeat(filler)
            );
            let t = typeset(&md, "T", A4, &style(), &mut Fonts::new());
            let at = page_of(&t);
            let caption = t
                .items
                .iter()
                .position(|f| matches!(&f.item, Item::Text { text, .. } if text.text.starts_with("Rare Arms")))
                .expect("the caption");
            assert!(matches!(t.items[caption + 1].item, Item::Row { head: true, .. }), "the table follows its caption");
            assert_eq!(at[caption], at[caption + 1], "filler {filler}: the caption is apart from the table's header");
            assert_eq!(at[caption], at[caption + 2], "filler {filler}: the caption is apart from the first row");
        }
    }

    #[test]
    fn an_anchored_heading_starts_a_page_and_says_which() {
        let room = "### A1 — Room\n\ntext\n\n";
        let md = format!(
            "# T\n\nintro\n\n## Map 1 of 2: Caves\n\n{}## Map 2 of 2: Halls\n\n{}## For play\n\nend\n",
            room.repeat(30),
            room.repeat(3)
        );
        let keys = ["Map 1 of 2:".to_string(), "Map 2 of 2:".to_string(), "Map 3".to_string()];
        let t = typeset_at(&md, "T", A4, &style(), &mut Fonts::new(), &keys);
        assert_eq!(t.anchors.len(), 3);
        for (a, key) in t.anchors.iter().zip(&keys).take(2) {
            let page = &t.pages[a.expect("found")];
            let first = t.items[page[0].index].heading.as_ref().expect("a heading starts the page");
            assert!(first.1.starts_with(key.as_str()), "{key} starts its page, not {}", first.1);
        }
        assert!(t.anchors[1] > t.anchors[0] && t.anchors[0] > Some(0), "{:?}", t.anchors);
        assert_eq!(t.anchors[2], None, "a key the text does not hold has no page");
    }

    /// However many short rooms come before a map's key, the page the sheet follows is never
    /// left with a room or two (a couple of lines): the rooms before go over with them.
    #[test]
    fn the_page_before_a_map_sheet_holds_more_than_a_stray_line_or_two() {
        let room = "### A1 — Room\n\ntext\n\n";
        let keys = ["Map 2 of 2:".to_string()];
        for n in 20..90 {
            let md = format!("# T\n\n## Map 1 of 2: Caves\n\n{}## Map 2 of 2: Halls\n\nend\n", room.repeat(n));
            let t = typeset_at(&md, "T", A4, &style(), &mut Fonts::new(), &keys);
            let at = t.anchors[0].expect("the key starts a page");
            let before = &t.pages[at - 1];
            let lines: usize = before.iter().map(|p| p.lines.len().max(1)).sum();
            assert!(lines >= MIN_LINES_BEFORE_BREAK, "{n} rooms: the page before the key holds {lines} lines");
        }
    }

    #[test]
    fn a_paragraph_taller_than_a_page_runs_on_line_by_line() {
        let md = format!("# {}\n\n{}\n", "long title ".repeat(2000), "word ".repeat(20000));
        let t = typeset(&md, "T", A4, &style(), &mut Fonts::new());
        assert!(t.pages.len() > 5, "{} pages", t.pages.len());
        let lines: usize = t.pages.iter().flatten().map(|p| p.lines.len()).sum();
        let all: usize = t
            .items
            .iter()
            .map(|f| match &f.item {
                Item::Text { text, .. } => text.lines(),
                Item::Row { .. } => 0,
            })
            .sum();
        assert_eq!(lines, all, "every line is placed once");
    }
}
