//! What every map page carries besides the areas and gates: the title block, the footer that
//! regenerates the map, the legend, and the symbols (circles, badges, gate lines and marks).

use svg::node::element::{Circle, Path};

use crate::model::Paper;
use crate::nw3::model::{Area, AreaKind, EventKind, Fortress, Gate, GateKind, Opener};
use crate::nw3::opener::opener_words;
use crate::render::Audience;
use crate::render::svgkit::{
    ASCENT, Bbox, Canvas, INK, Pen, WHITE, ellipsize, icon_crown, icon_pawn, icon_trap, mm, snap, txt, width,
    wrap_words,
};

use super::geometry::{Disc, Poly, Pt, disc_hits_box};
use super::labels::{VICTIM, cap};
use super::{FOOT, FOOT_STEP, GATE_W, LEGEND_COLS, LEGEND_STEP, LEGEND_TEXT, MARGIN, MIN_TEXT, NOTE_STEP, TOP};

// ---------------------------------------------------------------------------------------------
// Page furniture.

/// The footer's lines: what the map is, then the program, tables and `command` that regenerates it
/// (the regenerate line, [`crate::render::regen`]; wrapped, never cut). The players' copy leaves
/// out the seed and command (they would give the map away).
pub(super) fn footer(f: &Fortress, command: &str, paper: Paper, copy: Audience) -> Vec<String> {
    let inner = paper.size_mm().0 - 2.0 * MARGIN;
    let g = &f.generator;
    let p = &f.params;
    let (tail, words): (String, Vec<String>) = match copy {
        Audience::Gm => (
            format!(
                " \u{00b7} seed {} \u{00b7} party {}, CL {}, {} areas \u{00b7} {} \u{00b7} GM copy",
                f.seed,
                p.party,
                p.cl,
                p.areas,
                paper.label()
            ),
            format!("{} {} \u{00b7} tables {} \u{00b7}", cap(&g.name), cap(&g.version), cap(&g.tables))
                .split_whitespace()
                .map(str::to_string)
                .chain([command.to_string()])
                .collect(),
        ),
        Audience::Players => (
            format!(" \u{00b7} players' copy \u{00b7} {}", paper.label()),
            format!("{} {}", cap(&g.name), cap(&g.version)).split_whitespace().map(str::to_string).collect(),
        ),
    };
    let head = ellipsize(&cap(&f.title), inner - width(&tail, FOOT, false), FOOT, false);
    let mut lines = vec![format!("{head}{tail}")];
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    lines.extend(wrap_words(&words, inner, FOOT, false, 3));
    lines
}

pub(super) fn footer_height(lines: usize) -> f64 {
    6.8 + lines.saturating_sub(1) as f64 * FOOT_STEP
}

pub(super) fn draw_footer(c: &mut Canvas, lines: &[String], top: f64) {
    c.line(MARGIN, top + 1.0, c.w - MARGIN, top + 1.0, Pen(INK, 0.3, None));
    for (i, line) in lines.iter().enumerate() {
        let t = txt(MARGIN, top + 2.4 + ASCENT * FOOT + i as f64 * FOOT_STEP, FOOT, line.clone());
        if i == 0 { t.put(c) } else { t.grey().put(c) }
    }
}

/// Title, subtitle and the rule under them.
pub(super) fn draw_head(c: &mut Canvas, title: &str, sub: &str, right: &str) {
    let inner = c.w - 2.0 * MARGIN;
    txt(MARGIN, TOP + ASCENT * 6.0, 6.0, ellipsize(&cap(title), inner, 6.0, true)).bold().put(c);
    let right_w = width(right, 3.2, false);
    txt(c.w - MARGIN, TOP + 12.5, 3.2, right.to_string()).end().put(c);
    txt(MARGIN, TOP + 12.5, 3.6, ellipsize(sub, inner - right_w - 4.0, 3.6, false)).put(c);
    c.line(MARGIN, TOP + 15.5, c.w - MARGIN, TOP + 15.5, Pen(INK, 0.5, None));
}

// ---------------------------------------------------------------------------------------------
// Areas.

/// How an area looks: its kind, or the Ruler's encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Look {
    Kind(AreaKind),
    Ruler,
}

impl Look {
    pub(super) fn of(f: &Fortress, a: &Area) -> Look {
        let ruler = a.kind == AreaKind::Event
            && (a.id == f.ruler.area || a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler));
        if ruler { Look::Ruler } else { Look::Kind(a.kind) }
    }

    /// The short word on the map.
    pub(super) fn word(self) -> &'static str {
        match self {
            Look::Ruler => "Ruler",
            Look::Kind(k) => match k {
                AreaKind::Entrance => "Entrance",
                AreaKind::Normal => "Normal",
                AreaKind::Object => "Object",
                AreaKind::Trap => "Trap",
                AreaKind::Event => "Event",
                AreaKind::Enemy => "Enemy",
                AreaKind::Core => "Core",
            },
        }
    }

    pub(super) fn legend(self) -> &'static str {
        match self {
            Look::Ruler => "Event Area (the Ruler)",
            Look::Kind(k) => k.label(),
        }
    }
}

pub(super) fn icon_star(c: &mut Canvas, cx: f64, cy: f64, s: f64) {
    let (ro, ri) = (s * 0.5, s * 0.2);
    let pts: Vec<Pt> = (0..10)
        .map(|i| {
            let a = std::f64::consts::PI * (f64::from(i) / 5.0 - 0.5);
            let r = if i % 2 == 0 { ro } else { ri };
            (cx + r * a.cos(), cy + 0.05 * s + r * a.sin())
        })
        .collect();
    c.poly(&pts, INK, None);
}

pub(super) fn icon_diamond(c: &mut Canvas, cx: f64, cy: f64, s: f64) {
    let (h, w) = (s * 0.45, s * 0.32);
    c.poly(&[(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)], INK, None);
}

/// The kind's icon in a small white disc at (bx, by).
pub(super) fn badge(c: &mut Canvas, look: Look, bx: f64, by: f64, rb: f64) {
    c.circle(bx, by, rb, WHITE, Some((INK, 0.3)));
    let s = rb * 1.2;
    match look {
        Look::Ruler => icon_crown(c, bx - s / 2.0, by + s * 0.4, s),
        Look::Kind(AreaKind::Trap) => icon_trap(c, bx - s / 2.0, by + s * 0.42, s),
        Look::Kind(AreaKind::Enemy) => icon_pawn(c, bx - s / 2.0, by + s * 0.5, s),
        Look::Kind(AreaKind::Event) => icon_star(c, bx, by, s * 1.1),
        Look::Kind(AreaKind::Object) => icon_diamond(c, bx, by, s),
        Look::Kind(_) => {}
    }
}

pub(super) fn has_badge(look: Look) -> bool {
    !matches!(look, Look::Kind(AreaKind::Entrance | AreaKind::Normal | AreaKind::Core))
}

/// A filled arrowhead with its tip at `tip`, pointing along `dir` (a unit vector).
pub(super) fn arrowhead(c: &mut Canvas, tip: Pt, dir: Pt, len: f64, half: f64) {
    let base = (tip.0 - dir.0 * len, tip.1 - dir.1 * len);
    let n = (-dir.1, dir.0);
    c.poly(&[tip, (base.0 + n.0 * half, base.1 + n.1 * half), (base.0 - n.0 * half, base.1 - n.1 * half)], INK, None);
}

/// The arrow into the Entrance from outside: from `len` mm above the circle down to it.
pub(super) fn entrance_arrow(c: &mut Canvas, cx: f64, top: f64, len: f64) {
    c.line(cx, top - len, cx, top - 1.6, Pen(INK, 0.5, None));
    arrowhead(c, (cx, top - 0.4), (0.0, 1.0), 1.8, 1.1);
}

/// An area's circle, number and badge; returns the badge disc, if any.
pub(super) fn draw_circle(
    c: &mut Canvas,
    look: Look,
    optional: bool,
    (cx, cy, r): Disc,
    number: Option<(u32, f64)>,
    id: Option<String>,
) -> Option<Disc> {
    let dash = optional.then_some("1.2 0.8");
    let ring = |c: &mut Canvas, rr: f64, w: f64| {
        let mut n = Circle::new().set("cx", mm(cx)).set("cy", mm(cy)).set("r", mm(rr)).set("fill", WHITE);
        if let Some(id) = &id {
            n = n.set("id", id.clone());
        }
        n = Pen(INK, w, dash).on(n);
        c.add(n);
    };
    match look {
        // A double ring: the way in.
        Look::Kind(AreaKind::Entrance) => {
            ring(c, r, 0.4);
            c.circle(cx, cy, r - (r * 0.13).clamp(0.7, 0.9), "none", Some((INK, 0.4)));
        }
        // A heavy ring round a thin one: the goal.
        Look::Kind(AreaKind::Core) => {
            let w = snap((r * 0.16).clamp(0.6, 1.1));
            ring(c, r, w);
            c.circle(cx, cy, r - w - 0.3, "none", Some((INK, 0.3)));
        }
        _ => ring(c, r, 0.5),
    }
    let mut nb = None;
    if let Some((n, size)) = number {
        let label = txt(cx, cy + 0.36 * size, size, n.to_string()).bold().middle();
        nb = Some(number_box(cx, cy, n, size));
        label.put(c);
    }
    if !has_badge(look) {
        return None;
    }
    let rb = badge_r(r);
    let (bx, by) = badge_centre((cx, cy, r), nb);
    badge(c, look, bx, by, rb);
    Some((bx, by, rb))
}

/// Where a circle's badge goes: on the rim at the upper right, pushed out until it clears the
/// number (`nb`, its box). The gate ports ask too, to keep lines coming down clear of it.
pub(super) fn badge_centre((cx, cy, r): Disc, nb: Option<Bbox>) -> Pt {
    let rb = badge_r(r);
    let mut d = r;
    let k = std::f64::consts::FRAC_1_SQRT_2;
    while let Some(b) = nb {
        if !disc_hits_box((cx + d * k, cy - d * k, rb), &b, 0.2) || d > r + rb {
            break;
        }
        d += 0.1;
    }
    (snap(cx + d * k), snap(cy - d * k))
}

/// The box of an area's number `n` drawn at `size` in a circle centred on (cx, cy).
pub(super) fn number_box(cx: f64, cy: f64, n: u32, size: f64) -> Bbox {
    txt(cx, cy + 0.36 * size, size, n.to_string()).bold().middle().label.bbox()
}

// ---------------------------------------------------------------------------------------------
// Gates.

/// What opens a closed gate or reveals a secret one, long and short: what the party must do,
/// in the booklet's words too ([`opener_words`]). A Danger Sense judge is written one way on the
/// whole map, "DS 15" (the legend spells it out), wherever its note lands.
pub(super) fn opener_text(f: &Fortress, o: Option<Opener>) -> Option<(String, String)> {
    let w = opener_words(f, o?);
    match o {
        Some(Opener::DangerSense(_)) => Some((w.short.clone(), w.short)),
        _ => Some((w.deed, w.short)),
    }
}

/// A gate's note on the map: (long, short) forms.
pub(super) fn gate_note(f: &Fortress, g: &Gate) -> Option<(String, String)> {
    match g.kind {
        GateKind::Normal | GateKind::OneWay => None,
        GateKind::Closed | GateKind::Secret => {
            let (long, short) =
                opener_text(f, g.opened_by).unwrap_or_else(|| ("no opener".to_string(), "none".to_string()));
            // Gates one deed (an event, a device) opens are told apart on the map: "event 13 (a)",
            // "event 13 (b)". A Danger Sense judge is each gate's own, so it needs no tag.
            let same: Vec<&Gate> = f
                .gates
                .iter()
                .filter(|h| matches!(h.kind, GateKind::Closed | GateKind::Secret) && h.opened_by == g.opened_by)
                .collect();
            match same.iter().position(|h| (h.from, h.to) == (g.from, g.to)) {
                Some(i) if same.len() > 1 && matches!(g.opened_by, Some(Opener::Event(_) | Opener::Device(_))) => {
                    let tag = char::from(b'a' + (i % 26) as u8);
                    Some((format!("{long} ({tag})"), format!("{short} ({tag})")))
                }
                _ => Some((long, short)),
            }
        }
        GateKind::Damaged => Some(match g.uses {
            Some(n) => (format!("\u{00d7}{n}"), format!("\u{00d7}{n}")),
            None => ("unusable".to_string(), "unusable".to_string()),
        }),
    }
}

/// The half size of a gate's mark (its box is the point ± this).
pub(super) fn mark_half(kind: GateKind, uses: Option<u32>) -> f64 {
    match kind {
        GateKind::Normal => 0.0,
        GateKind::OneWay => 1.5,
        GateKind::Secret => 2.0,
        GateKind::Closed => 2.1,
        GateKind::Damaged => {
            if uses.is_none() {
                1.3
            } else {
                0.0
            }
        }
    }
}

/// The most zigs in a damaged gate's line (a whole A4 page's width of them).
const ZIGS: f64 = 400.0;

/// The gate's line along `q`, broken round the marks in `holes`; `id` names it in the SVG.
/// Millimetres over which a damaged gate's zigzag grows to its full width at each end.
const ZIGZAG_TAPER: f64 = 3.0;
/// How near a damaged gate's zigzag comes to any other line's centre (mm): the 0.8 mm of paper
/// the map keeps between two gates' ink, plus both lines' half widths, plus what writing the
/// points on the 0.1 mm grid may take off.
const ZIGZAG_CLEAR: f64 = 1.35;

/// A gate's line along `q`, with gaps at `holes` (its mark). A damaged gate's zigzag narrows
/// where another of the map's lines (`near`) runs close, so its ink never meets theirs.
pub(super) fn draw_gate_line(
    c: &mut Canvas,
    kind: GateKind,
    q: &Poly,
    holes: &[(Pt, f64)],
    near: &[&Poly],
    id: Option<String>,
) {
    let dash = match kind {
        GateKind::Secret => Some("1.4 1"),
        _ => None,
    };
    let mut p = if kind == GateKind::Damaged {
        // A zigzag along the line, straight for the first and last millimetre and growing to its
        // full width over the next few, so that it keeps clear of the lines beside it where
        // they all come together at a circle.
        let len = q.length();
        // A zig every 0.9 mm, but never more than ZIGS: a line drawn absurdly long (a layout gone
        // wrong) costs no more than one across a page.
        let n = (((len - 2.0) / 0.9).floor().clamp(2.0, ZIGS) as usize).max(2);
        let mut pts = vec![q.at(0.0).0];
        for i in 0..=n {
            let s = 1.0 + (len - 2.0) * i as f64 / n as f64;
            let (p, tg) = q.at(s);
            let taper = ((s.min(len - s) - 1.0) / ZIGZAG_TAPER).clamp(0.0, 1.0);
            let room = near.iter().map(|l| l.dist_to(p)).fold(f64::INFINITY, f64::min) - ZIGZAG_CLEAR;
            let full = (0.7 * taper).min(room.max(0.0));
            let amp = if i == 0 || i == n {
                0.0
            } else if i % 2 == 0 {
                full
            } else {
                -full
            };
            pts.push((p.0 - tg.1 * amp, p.1 + tg.0 * amp));
        }
        pts.push(q.at(len).0);
        let zig = Poly::new(pts);
        Path::new().set("d", zig.d(holes)).set("fill", "none").set("stroke-linejoin", "round")
    } else {
        Path::new().set("d", q.d(holes)).set("fill", "none")
    };
    if let Some(id) = id {
        p = p.set("id", id);
    }
    c.add(Pen(INK, GATE_W, dash).on(p));
}

/// The gate's mark at `p`, with the curve's direction `tg` there.
pub(super) fn draw_mark(c: &mut Canvas, kind: GateKind, uses: Option<u32>, p: Pt, tg: Pt) {
    let n = (-tg.1, tg.0);
    match kind {
        GateKind::Normal => {}
        GateKind::OneWay => {
            arrowhead(c, (p.0 + tg.0 * 1.5, p.1 + tg.1 * 1.5), tg, 3.0, 1.4);
        }
        GateKind::Secret => {
            c.circle(p.0, p.1, 1.9, WHITE, Some((INK, 0.3)));
            txt(p.0, p.1 + 0.36 * MIN_TEXT, MIN_TEXT, "S").bold().middle().put(c);
        }
        GateKind::Closed => {
            let k = 2.0;
            for off in [-0.55, 0.55] {
                let (ox, oy) = (p.0 + tg.0 * off, p.1 + tg.1 * off);
                c.line(ox - n.0 * k, oy - n.1 * k, ox + n.0 * k, oy + n.1 * k, Pen(INK, 0.6, None));
            }
        }
        GateKind::Damaged => {
            if uses.is_none() {
                // A cross: it cannot be used at all.
                c.circle(p.0, p.1, 1.3, WHITE, None);
                let k = 0.9;
                c.line(p.0 - k, p.1 - k, p.0 + k, p.1 + k, Pen(INK, 0.5, None));
                c.line(p.0 - k, p.1 + k, p.0 + k, p.1 - k, Pen(INK, 0.5, None));
            }
        }
    }
}

pub(super) fn legend_entries(f: &Fortress) -> (Vec<Look>, bool, Vec<GateKind>) {
    let mut looks: Vec<Look> = f.areas.iter().map(|a| Look::of(f, a)).collect();
    looks.sort();
    looks.dedup();
    let optional = f.areas.iter().any(|a| a.optional);
    let mut gates: Vec<GateKind> = f.gates.iter().map(|g| g.kind).collect();
    gates.sort();
    gates.dedup();
    (looks, optional, gates)
}

pub(super) fn legend_rows(f: &Fortress) -> usize {
    let (looks, optional, gates) = legend_entries(f);
    (looks.len() + usize::from(optional) + gates.len()).div_ceil(LEGEND_COLS)
}

/// The legend's height with `note_rows` rows of notes under it.
pub(super) fn legend_height(f: &Fortress, note_rows: usize) -> f64 {
    let notes_h = if note_rows == 0 { 0.0 } else { 1.5 + note_rows as f64 * NOTE_STEP };
    6.0 + legend_rows(f) as f64 * LEGEND_STEP + notes_h
}

/// Where each listed note goes under the legend: (row, column, columns spanned). Notes run in
/// order along rows of [`LEGEND_COLS`] columns; a note wider than a column spans as many as it
/// needs (a note never cut short while the page's width holds it), and one that would not fit the
/// rest of its row starts the next.
pub(super) fn note_slots(notes: &[String], paper_w: f64) -> Vec<(usize, usize, usize)> {
    let col_w = (paper_w - 2.0 * MARGIN) / LEGEND_COLS as f64;
    let (mut row, mut col) = (0, 0);
    notes
        .iter()
        .map(|note| {
            let span = ((width(&cap(note), LEGEND_TEXT, false) + 2.0) / col_w).ceil() as usize;
            let span = span.clamp(1, LEGEND_COLS);
            if col + span > LEGEND_COLS {
                (row, col) = (row + 1, 0);
            }
            let slot = (row, col, span);
            col += span;
            slot
        })
        .collect()
}

/// Rows that `notes` take under the legend.
pub(super) fn note_rows(notes: &[String], paper_w: f64) -> usize {
    note_slots(notes, paper_w).last().map_or(0, |&(row, _, _)| row + 1)
}

/// The notes shown in `rows` rows: all of them if they fit, else as many as fit with a last line
/// that sends the GM to the booklet for the rest.
pub(super) fn notes_that_fit(listed: &[String], rows: usize, paper_w: f64) -> Vec<String> {
    if note_rows(listed, paper_w) <= rows {
        return listed.to_vec();
    }
    (0..listed.len())
        .rev()
        .map(|k| {
            let mut v = listed[..k].to_vec();
            v.push(format!("+ {} more: see the booklet", listed.len() - k));
            v
        })
        .find(|v| (1..=rows).contains(&note_rows(v, paper_w)))
        .unwrap_or_default()
}

pub(super) fn gate_legend_text(k: GateKind) -> &'static str {
    match k {
        GateKind::Normal => "gate (both ways)",
        GateKind::OneWay => "one-way gate (along the arrow)",
        GateKind::Secret => "secret gate (note: what reveals it)",
        GateKind::Closed => "closed gate (note: what opens it)",
        GateKind::Damaged => "damaged gate (\u{00d7}n: uses left)",
    }
}

pub(super) fn draw_legend(c: &mut Canvas, f: &Fortress, top: f64, notes: &[String]) {
    let inner = c.w - 2.0 * MARGIN;
    txt(MARGIN, top + ASCENT * 3.2, 3.2, "Legend").bold().put(c);
    let mut key = vec!["AD appearance difficulty".to_string(), "Ruler/event/device N: in area N".into()];
    if f.gates.iter().any(|g| matches!(g.opened_by, Some(Opener::DangerSense(_)))) {
        key.push("DS N: Danger Sense N".into());
    }
    if let (Some(e), Some(_)) = (&f.episode, f.victim_area()) {
        key.push(format!("{VICTIM}: {}", cap(&e.victim)));
    }
    let key = key.join(" \u{00b7} ");
    let key = ellipsize(&key, inner - 20.0, LEGEND_TEXT, false);
    txt(c.w - MARGIN, top + ASCENT * 3.2, LEGEND_TEXT, key).end().put(c);
    let (looks, optional, gates) = legend_entries(f);
    let col_w = inner / LEGEND_COLS as f64;
    let rows = legend_rows(f);
    let row0 = top + 5.0;
    let sample_w = 12.0;
    let mut i = 0;
    let slot = |i: usize| {
        let (col, row) = (i / rows, i % rows);
        (MARGIN + col as f64 * col_w, row0 + row as f64 * LEGEND_STEP + LEGEND_STEP / 2.0)
    };
    let label = |c: &mut Canvas, x: f64, cy: f64, text: &str| {
        let text = ellipsize(text, col_w - sample_w - 3.0, LEGEND_TEXT, false);
        txt(x + sample_w + 1.5, cy + LEGEND_TEXT * 0.36, LEGEND_TEXT, text).put(c);
    };
    for look in looks {
        let (x, cy) = slot(i);
        if look == Look::Kind(AreaKind::Entrance) {
            c.line(x + 1.0, cy, x + 3.4, cy, Pen(INK, 0.5, None));
            arrowhead(c, (x + 5.4, cy), (1.0, 0.0), 1.8, 1.1);
        }
        if has_badge(look) {
            // The badge alone: it is what tells these areas apart.
            badge(c, look, x + 8.0, cy, 1.9);
        } else {
            draw_circle(c, look, false, (x + 8.0, cy, 2.1), None, None);
        }
        label(c, x, cy, look.legend());
        i += 1;
    }
    if optional {
        let (x, cy) = slot(i);
        draw_circle(c, Look::Kind(AreaKind::Normal), true, (x + 8.0, cy, 2.1), None, None);
        label(c, x, cy, "optional area (dashed)");
        i += 1;
    }
    for k in gates {
        let (x, cy) = slot(i);
        let q = Poly::new(vec![(x + 1.0, cy), (x + 11.0, cy)]);
        draw_gate_line(c, k, &q, &[], &[], None);
        let uses = if k == GateKind::Damaged { Some(2) } else { None };
        draw_mark(c, k, uses, (x + 6.0, cy), (1.0, 0.0));
        label(c, x, cy, gate_legend_text(k));
        i += 1;
    }
    if notes.is_empty() {
        return;
    }
    let top = row0 + rows as f64 * LEGEND_STEP + 1.5;
    for (note, (row, col, span)) in notes.iter().zip(note_slots(notes, c.w)) {
        let x = MARGIN + col as f64 * col_w;
        let y = top + row as f64 * NOTE_STEP + ASCENT * LEGEND_TEXT;
        txt(x, y, LEGEND_TEXT, ellipsize(&cap(note), span as f64 * col_w - 2.0, LEGEND_TEXT, false)).put(c);
    }
}

/// The GM's map, laid out with room for `notes` lines of notes under the legend.
pub(super) fn kind_word(k: GateKind) -> &'static str {
    match k {
        GateKind::Normal => "normal",
        GateKind::OneWay => "one-way",
        GateKind::Secret => "secret",
        GateKind::Closed => "closed",
        GateKind::Damaged => "damaged",
    }
}

/// The radius of an area's badge.
pub(super) fn badge_r(r: f64) -> f64 {
    (r * 0.42).clamp(1.5, 2.6).min(r * 0.6)
}

#[cfg(test)]
mod zigzag_tests {
    use super::*;

    #[test]
    fn a_damaged_gate_drawn_absurdly_long_has_a_bounded_zigzag() {
        let mut c = Canvas::new(210.0, 297.0, "t".into());
        let line = Poly::new(vec![(0.0, 0.0), (9.2e17, 0.0)]);
        draw_gate_line(&mut c, GateKind::Damaged, &line, &[], &[], None);
        // About 20 bytes a point: ZIGS points, not one per 0.9 mm of 9.2e17 mm.
        assert!(c.shapes.len() < 40 * ZIGS as usize, "{} bytes", c.shapes.len());
    }
}
