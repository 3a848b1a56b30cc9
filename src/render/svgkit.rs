//! Shared SVG drawing kit for the printable sheets (MYK map sheets, NW3 area maps).
//!
//! Units are millimetres. Every coordinate is snapped to a 0.1 mm grid and written by `mm`, so the
//! bytes are stable. Every element is written by the `svg` crate, which writes attributes in sorted
//! order and escapes all text (the labels' text is first cleared of characters XML forbids). Widths are measured
//! with DejaVu Sans advance widths (the first font asked for, and wider than the Arial/Helvetica
//! fallbacks), so a label's `Bbox` is a safe bound for collision checks.

use std::fmt::Write as _;

use svg::node::element::{Circle, Definitions, Element, Group, Line, Path, Rectangle, Title};
use svg::node::{Blob, Text as TextNode};
use svg::{Document, Node};

use crate::render::fonts::{self, advance};

/// The only fonts asked for; no external font or image is referenced.
pub(crate) const FONT: &str = "DejaVu Sans, Arial, Helvetica, sans-serif";
pub(crate) const INK: &str = "#000";
pub(crate) const GREY: &str = "#555";
pub(crate) const WHITE: &str = "#fff";

/// A length on the 0.1 mm grid, written without float noise ("12.3", "-4", "0").
pub(crate) fn mm(v: f64) -> String {
    let mut s = String::new();
    push_mm(&mut s, v);
    s
}

/// [`mm`], appended to `out`.
pub(crate) fn push_mm(out: &mut String, v: f64) {
    let t = (v * 10.0).round() as i64;
    if t < 0 {
        out.push('-');
    }
    let a = t.unsigned_abs();
    let (whole, tenth) = (a / 10, a % 10);
    // The digits by hand: through `core::fmt` this was a tenth of a sheet.
    out.push_str(itoa::Buffer::new().format(whole));
    if tenth != 0 {
        out.push('.');
        out.push(char::from(b'0' + tenth as u8));
    }
}

/// Snaps to the 0.1 mm grid, so the layout's numbers are the written ones.
pub(crate) fn snap(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

// ---------------------------------------------------------------------------------------------
// Text measurement: the embedded faces' advance widths ([`fonts::advance`], the one measure of
// the sheets' text), summed in font units.

/// Width in mm of `text` at `size` mm.
pub(crate) fn width(text: &str, size: f64, bold: bool) -> f64 {
    units_mm(text.chars().map(|c| u64::from(advance(c, bold))).sum(), size)
}

/// A width in 1/2048 em (a whole number, so sums are exact and order-free) as mm at `size` mm.
fn units_mm(units: u64, size: f64) -> f64 {
    units as f64 * size / f64::from(fonts::UNITS_PER_EM)
}

pub(crate) fn fits(text: &str, max: f64, size: f64, bold: bool) -> bool {
    width(text, size, bold) <= max
}

/// Running widths of `chars` in 1/2048 em: entry `n` is the width of the first `n` characters.
/// Fitting reads widths from here, so fitting a long text stays linear in its length.
fn prefix_units(chars: &[char], bold: bool) -> Vec<u64> {
    let mut acc = 0;
    let mut out = Vec::with_capacity(chars.len() + 1);
    out.push(0);
    for &c in chars {
        acc += u64::from(advance(c, bold));
        out.push(acc);
    }
    out
}

/// `text`, shortened with an ellipsis to fit `max` mm ("" if not even the ellipsis fits).
pub(crate) fn ellipsize(text: &str, max: f64, size: f64, bold: bool) -> String {
    if fits(text, max, size, bold) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let widths = prefix_units(&chars, bold);
    let dots = u64::from(advance('\u{2026}', bold));
    // The longest head (trailing spaces dropped) that fits with the ellipsis; widths only grow
    // with the head, so one scan from the left finds it.
    let mut best = None;
    let mut kept = 0; // the head of `n` characters without its trailing spaces
    for n in 0..chars.len() {
        if n > 0 && !chars[n - 1].is_whitespace() {
            kept = n;
        }
        if units_mm(widths[kept] + dots, size) > max {
            break;
        }
        best = Some(kept);
    }
    match best {
        Some(m) => {
            let mut cand: String = chars[..m].iter().collect();
            cand.push('\u{2026}');
            cand
        }
        None => String::new(),
    }
}

/// Word-wraps `text` into at most `lines` lines of `max` mm; the last line is ellipsized if the
/// text does not fit. Words longer than a line are broken.
pub(crate) fn wrap(text: &str, max: f64, size: f64, bold: bool, lines: usize) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    wrap_words(&words, max, size, bold, lines)
}

/// [`wrap`] over given words (a word may hold spaces that must not break, e.g. "(lv 14)").
pub(crate) fn wrap_words(words: &[&str], max: f64, size: f64, bold: bool, lines: usize) -> Vec<String> {
    if lines == 0 {
        return Vec::new();
    }
    let space = u64::from(advance(' ', bold));
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut cur_units = 0;
    for &word in words {
        let chars: Vec<char> = word.chars().collect();
        let widths = prefix_units(&chars, bold);
        let word_units = widths[chars.len()];
        let cand_units = if cur.is_empty() { word_units } else { cur_units + space + word_units };
        if units_mm(cand_units, size) <= max {
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
            cur_units = cand_units;
            continue;
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        // Break a word that is longer than a whole line: each piece is the longest head that
        // fits (at least one character, at most all but one; one each when `max` leaves no room).
        let mut start = 0;
        while start < chars.len() && units_mm(widths[chars.len()] - widths[start], size) > max {
            let rest = chars.len() - start;
            let mut n = 1;
            while n + 1 < rest && units_mm(widths[start + n + 1] - widths[start], size) <= max {
                n += 1;
            }
            out.push(chars[start..start + n].iter().collect());
            start += n;
        }
        cur = chars[start..].iter().collect();
        cur_units = widths[chars.len()] - widths[start];
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    if out.len() > lines {
        let tail = out[lines - 1..].join(" ");
        out.truncate(lines - 1);
        // Force the ellipsis: the line is cut short even when what is left would fit.
        let mut last = ellipsize(&tail, max, size, bold);
        if last == tail {
            last = ellipsize(&format!("{tail}\u{2026}"), max, size, bold);
        }
        out.push(last);
    }
    out.retain(|l| !l.is_empty());
    out
}

/// The first of `cands` (head, kept tail) that fits, else the last with its head shortened.
pub(crate) fn fit_line(cands: &[(String, String)], max: f64, size: f64) -> String {
    for (head, tail) in cands {
        let s = format!("{head}{tail}");
        if fits(&s, max, size, false) {
            return s;
        }
    }
    let (head, tail) = cands.last().cloned().unwrap_or_default();
    let room = max - width(&tail, size, false);
    let head = ellipsize(&head, room, size, false);
    if head.is_empty() {
        ellipsize(&format!("{}{tail}", cands[0].0), max, size, false)
    } else {
        format!("{head}{tail}")
    }
}

/// `text` without the characters XML 1.0 forbids (control characters other than tab and line
/// breaks, U+FFFE, U+FFFF): a hand-edited name may hold them, and one would make the SVG unreadable.
pub(crate) fn xml_chars(text: &str) -> String {
    text.chars()
        .filter(|&c| !matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}'))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Labels and the canvas.

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// Text direction: along the page, or turned to run up (west edge) or down (east edge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Turn {
    None,
    Up,
    Down,
}

/// One line of text at a baseline point, with what is needed to know the box it covers.
#[derive(Clone, Debug)]
pub(crate) struct Label {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) size: f64,
    pub(crate) bold: bool,
    pub(crate) anchor: Anchor,
    pub(crate) turn: Turn,
    pub(crate) grey: bool,
    /// A white outline under the glyphs, so a line passing behind the text leaves it readable.
    pub(crate) halo: bool,
    pub(crate) text: String,
}

/// An axis-aligned box: left, top, right, bottom (mm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bbox {
    pub(crate) x0: f64,
    pub(crate) y0: f64,
    pub(crate) x1: f64,
    pub(crate) y1: f64,
}

impl Bbox {
    pub(crate) fn overlaps(&self, o: &Bbox) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// DejaVu Sans ascent and descent (0.928 and 0.236 em), rounded up.
pub(crate) const ASCENT: f64 = 0.95;
pub(crate) const DESCENT: f64 = 0.25;

impl Label {
    pub(crate) fn bbox(&self) -> Bbox {
        let w = width(&self.text, self.size, self.bold);
        let (u0, u1) = match self.anchor {
            Anchor::Start => (0.0, w),
            Anchor::Middle => (-w / 2.0, w / 2.0),
            Anchor::End => (-w, 0.0),
        };
        let (a, d) = (ASCENT * self.size, DESCENT * self.size);
        match self.turn {
            Turn::None => Bbox { x0: self.x + u0, y0: self.y - a, x1: self.x + u1, y1: self.y + d },
            Turn::Up => Bbox { x0: self.x - a, y0: self.y - u1, x1: self.x + d, y1: self.y - u0 },
            Turn::Down => Bbox { x0: self.x - d, y0: self.y + u0, x1: self.x + a, y1: self.y + u1 },
        }
    }

    /// The `<text>` element. A plain element rather than the crate's `Text`, which writes its
    /// content on lines of its own (`<text>\nA1\n</text>`); the content is the crate's text node,
    /// which hugs its tags (`<text ...>A1</text>`) and is escaped by the crate.
    pub(crate) fn node(&self) -> Element {
        let mut t = Element::new("text");
        t.assign("x", mm(self.x));
        t.assign("y", mm(self.y));
        t.assign("font-size", mm(self.size));
        if self.bold {
            t.assign("font-weight", "bold");
        }
        match self.anchor {
            Anchor::Start => {}
            Anchor::Middle => t.assign("text-anchor", "middle"),
            Anchor::End => t.assign("text-anchor", "end"),
        }
        match self.turn {
            Turn::None => {}
            Turn::Up => t.assign("transform", format!("rotate(-90 {} {})", mm(self.x), mm(self.y))),
            Turn::Down => t.assign("transform", format!("rotate(90 {} {})", mm(self.x), mm(self.y))),
        }
        if self.grey {
            t.assign("fill", GREY);
        }
        if self.halo {
            t.assign("stroke", WHITE);
            t.assign("stroke-width", "0.8");
            t.assign("stroke-linejoin", "round");
            t.assign("paint-order", "stroke");
        }
        t.append(TextNode::new(xml_chars(&self.text)));
        t
    }
}

/// A stroke: colour, width (mm) and an optional dash pattern.
#[derive(Clone, Copy)]
pub(crate) struct Pen(pub(crate) &'static str, pub(crate) f64, pub(crate) Option<&'static str>);

impl Pen {
    pub(crate) fn on<T: Node>(self, mut n: T) -> T {
        n.assign("stroke", self.0);
        n.assign("stroke-width", mm(self.1));
        if let Some(d) = self.2 {
            n.assign("stroke-dasharray", d);
        }
        n
    }
}

/// Shapes (drawn first, in order) and labels (drawn on top).
pub(crate) struct Canvas {
    pub(crate) w: f64,
    pub(crate) h: f64,
    /// Prefix for ids, unique per sheet so several sheets can be inlined in one HTML page.
    pub(crate) id: String,
    /// The shapes as the `svg` crate wrote them so far, each on a line of its own (a newline
    /// before each): written as added, so a sheet never holds thousands of element trees at once.
    pub(crate) shapes: String,
    pub(crate) labels: Vec<Label>,
    /// The workbench's click targets, one per room or area (`data-room`, `data-area`), written by
    /// the renderer as it draws each one, so the workbench never redoes the layout. `None` for
    /// the files: they never carry targets, so their bytes stay as they are.
    pub(crate) targets: Option<String>,
}

/// Builder for a label; `put` adds it to the canvas.
pub(crate) struct Txt {
    pub(crate) label: Label,
}

impl Txt {
    pub(crate) fn bold(mut self) -> Txt {
        self.label.bold = true;
        self
    }
    pub(crate) fn grey(mut self) -> Txt {
        self.label.grey = true;
        self
    }
    pub(crate) fn middle(mut self) -> Txt {
        self.label.anchor = Anchor::Middle;
        self
    }
    pub(crate) fn end(mut self) -> Txt {
        self.label.anchor = Anchor::End;
        self
    }
    pub(crate) fn halo(mut self) -> Txt {
        self.label.halo = true;
        self
    }
    pub(crate) fn turn(mut self, t: Turn) -> Txt {
        self.label.turn = t;
        self
    }
    pub(crate) fn put(self, c: &mut Canvas) {
        if !self.label.text.is_empty() {
            c.labels.push(self.label);
        }
    }
}

pub(crate) fn txt(x: f64, y: f64, size: f64, text: impl Into<String>) -> Txt {
    Txt {
        label: Label {
            x: snap(x),
            y: snap(y),
            size,
            bold: false,
            anchor: Anchor::Start,
            turn: Turn::None,
            grey: false,
            halo: false,
            text: text.into(),
        },
    }
}

impl Canvas {
    /// An empty page of `w` x `h` mm whose ids start with `id`, without click targets.
    pub(crate) fn new(w: f64, h: f64, id: String) -> Canvas {
        Canvas { w, h, id, shapes: String::new(), labels: Vec::new(), targets: None }
    }

    /// Writes a click target, on top of everything, when this canvas takes them (the workbench's
    /// copy); a file's canvas drops it.
    pub(crate) fn target<T: Node>(&mut self, n: T) {
        if let Some(t) = &mut self.targets {
            put(t, &n);
        }
    }

    /// Writes a shape after the ones before it.
    pub(crate) fn add<T: Node>(&mut self, n: T) {
        put(&mut self.shapes, &n);
    }

    pub(crate) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, pen: Pen) {
        let l = Line::new().set("x1", mm(x1)).set("y1", mm(y1)).set("x2", mm(x2)).set("y2", mm(y2));
        self.add(pen.on(l));
    }

    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, pen: Option<Pen>) {
        let r =
            Rectangle::new().set("x", mm(x)).set("y", mm(y)).set("width", mm(w)).set("height", mm(h)).set("fill", fill);
        match pen {
            Some(p) => self.add(p.on(r)),
            None => self.add(r),
        }
    }

    /// A closed polygon.
    pub(crate) fn poly(&mut self, pts: &[(f64, f64)], fill: &str, stroke: Option<(&str, f64)>) {
        let mut d = String::new();
        for (i, (x, y)) in pts.iter().enumerate() {
            d.push_str(if i == 0 { "M" } else { " L" });
            push_mm(&mut d, *x);
            d.push(' ');
            push_mm(&mut d, *y);
        }
        d.push_str(" Z");
        let mut p = Path::new().set("d", d).set("fill", fill);
        if let Some((s, w)) = stroke {
            p = p.set("stroke", s).set("stroke-width", mm(w)).set("stroke-linejoin", "round");
        }
        self.add(p);
    }

    pub(crate) fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str, stroke: Option<(&str, f64)>) {
        let mut c = Circle::new().set("cx", mm(cx)).set("cy", mm(cy)).set("r", mm(r)).set("fill", fill);
        if let Some((s, w)) = stroke {
            c = c.set("stroke", s).set("stroke-width", mm(w));
        }
        self.add(c);
    }

    /// The standalone document: `<title>`, `<defs>` (only when `defs` has something), then the
    /// page: a white background, the shapes in order and the labels on top.
    pub(crate) fn finish(self, title: &str, defs: Vec<Box<dyn Node>>) -> String {
        let mut body = self.shapes;
        for l in &self.labels {
            put(&mut body, &l.node());
        }
        let background = Rectangle::new().set("width", mm(self.w)).set("height", mm(self.h)).set("fill", WHITE);
        let mut page = Group::new().set("font-family", FONT).add(background);
        // The crate starts each child on a new line itself; the shapes already carry theirs.
        if let Some(written) = body.strip_prefix('\n') {
            page = page.add(Blob::new(written));
        }
        let mut doc = Document::new()
            .set("width", format!("{}mm", mm(self.w)))
            .set("height", format!("{}mm", mm(self.h)))
            .set("viewBox", format!("0 0 {} {}", mm(self.w), mm(self.h)))
            .add(Title::new(xml_chars(title)));
        if !defs.is_empty() {
            doc = doc.add(defs.into_iter().fold(Definitions::new(), Definitions::add));
        }
        doc = doc.add(page);
        // The click targets go over the page, labels included, so a click on a room's text
        // selects the room.
        if let Some(written) = self.targets.as_deref().and_then(|t| t.strip_prefix('\n')) {
            doc = doc.add(Group::new().set("class", "ds-hooks").add(Blob::new(written)));
        }
        let mut out = doc.to_string();
        out.push('\n');
        out
    }
}

/// Appends `\n` and the node as the `svg` crate writes it.
fn put(out: &mut String, n: &dyn Node) {
    // Writing into a `String` cannot fail.
    let _ = write!(out, "\n{n}");
}

// ---------------------------------------------------------------------------------------------
// Icons, drawn as shapes so they print the same with any font. `s` is the icon's size in mm.

pub(crate) fn icon_crown(c: &mut Canvas, x: f64, y: f64, s: f64) {
    // (x, y) = bottom-left.
    let pts = [
        (x, y),
        (x, y - s * 0.75),
        (x + s * 0.25, y - s * 0.4),
        (x + s * 0.5, y - s),
        (x + s * 0.75, y - s * 0.4),
        (x + s, y - s * 0.75),
        (x + s, y),
    ];
    c.poly(&pts, INK, None);
}

pub(crate) fn icon_pawn(c: &mut Canvas, x: f64, y: f64, s: f64) {
    c.circle(x + s / 2.0, y - s * 0.72, s * 0.24, INK, None);
    c.poly(
        &[(x + s * 0.12, y), (x + s * 0.35, y - s * 0.5), (x + s * 0.65, y - s * 0.5), (x + s * 0.88, y)],
        INK,
        None,
    );
}

pub(crate) fn icon_trap(c: &mut Canvas, x: f64, y: f64, s: f64) {
    c.poly(&[(x, y), (x + s / 2.0, y - s * 0.95), (x + s, y)], WHITE, Some((INK, 0.3)));
    c.line(x + s / 2.0, y - s * 0.65, x + s / 2.0, y - s * 0.32, Pen(INK, 0.35, None));
    c.circle(x + s / 2.0, y - s * 0.16, 0.2, INK, None);
}

/// Escapes text for an XML attribute value or text node where the `svg` crate does not write it
/// (Udonarium's XML, the VTT plans): the characters XML forbids
/// are dropped ([`xml_chars`]), then `&`, `<`, `>`, `"` and `'` are escaped as the crate escapes
/// attribute values (`&apos;`), so every XML file the program writes follows one rule.
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in xml_chars(s).chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}
