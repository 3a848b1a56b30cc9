//! Text on the map: fitting names into lines in time linear in their length, and the blocks of
//! lines that label an area.

use crate::nw3::model::Area;
use crate::render::svgkit::{ASCENT, Anchor, DESCENT, Label, fits, txt, width};

/// User text longer than this many characters is cut before it is laid out: no line on the map
/// holds more, and it keeps every fitting step short however long a hand-edited name is.
pub(super) const MAX_CHARS: usize = 240;

/// `text` cut to [`MAX_CHARS`] characters (with an ellipsis when cut).
pub(super) fn cap(text: &str) -> String {
    match text.char_indices().nth(MAX_CHARS) {
        Some((i, _)) => format!("{}\u{2026}", text[..i].trim_end()),
        None => text.to_string(),
    }
}

/// `text` shortened with an ellipsis to fit `max` mm, in one pass over its characters ("" if not
/// even the ellipsis fits). `force` adds the ellipsis even when the text fits.
pub(super) fn clip(text: &str, max: f64, size: f64, bold: bool, force: bool) -> String {
    if !force && fits(text, max, size, bold) {
        return text.to_string();
    }
    let room = max - width("\u{2026}", size, bold);
    if room < 0.0 {
        return String::new();
    }
    let mut used = 0.0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let mut buf = [0u8; 4];
        used += width(c.encode_utf8(&mut buf), size, bold);
        if used > room {
            break;
        }
        end = i + c.len_utf8();
    }
    format!("{}\u{2026}", text[..end].trim_end())
}

/// A name in at most `lines` lines of `max` mm, breaking only between words; a word too long
/// for a line, and whatever does not fit in the last line, is cut with an ellipsis. Returns the
/// lines and how many characters were lost. Linear in the name's length.
pub(super) fn fit_name(name: &str, max: f64, size: f64, lines: usize) -> (Vec<String>, usize) {
    let space = width(" ", size, false);
    let mut out: Vec<(String, f64)> = Vec::new();
    let mut cut = false;
    for word in name.split_whitespace() {
        let w = width(word, size, false);
        match out.last_mut() {
            Some((line, lw)) if *lw + space + w <= max => {
                line.push(' ');
                line.push_str(word);
                *lw += space + w;
            }
            _ => {
                if out.len() == lines {
                    cut = true;
                    break;
                }
                out.push((word.to_string(), w));
            }
        }
    }
    let n = out.len();
    let mut texts: Vec<String> = Vec::with_capacity(n);
    for (i, (line, lw)) in out.into_iter().enumerate() {
        let last = i + 1 == n;
        if lw > max || (last && cut) {
            texts.push(clip(&line, max, size, false, last && cut));
        } else {
            texts.push(line);
        }
    }
    texts.retain(|l| !l.is_empty() && l != "\u{2026}");
    let count = |s: &str| s.chars().filter(|c| !c.is_whitespace() && *c != '\u{2026}').count();
    let shown: usize = texts.iter().map(|l| count(l)).sum();
    (texts, count(name).saturating_sub(shown))
}

/// Space between the lines of a block (mm), beyond the font's ascent and descent.
const LINE_GAP: f64 = 0.2;

/// One line of a text block.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub(super) text: String,
    pub(super) size: f64,
    pub(super) bold: bool,
}

/// Lines stacked from `top` down, aligned on `x` by `anchor`.
pub(super) fn stack(x: f64, top: f64, anchor: Anchor, lines: &[Line]) -> Vec<Label> {
    let mut y = top;
    let mut out = Vec::new();
    for l in lines {
        let mut t = txt(x, y + ASCENT * l.size, l.size, l.text.clone()).halo();
        if l.bold {
            t = t.bold();
        }
        t = match anchor {
            Anchor::Start => t,
            Anchor::Middle => t.middle(),
            Anchor::End => t.end(),
        };
        out.push(t.label);
        y += (ASCENT + DESCENT) * l.size + LINE_GAP;
    }
    out
}

pub(super) fn block_height(lines: &[Line]) -> f64 {
    lines.iter().map(|l| (ASCENT + DESCENT) * l.size + LINE_GAP).sum::<f64>() - LINE_GAP
}

pub(super) fn block_width(lines: &[Line]) -> f64 {
    lines.iter().map(|l| width(&l.text, l.size, l.bold)).fold(0.0, f64::max)
}

/// What an area's label says of the episode: the victim is held there (the legend names them).
pub(super) const VICTIM: &str = "victim held";

/// An area's label: its name in up to three lines of `max` mm at `name` mm, then the kind and
/// appearance difficulty ("Event · AD 14 · optional"), and [`VICTIM`] where the episode's
/// victim is held, wrapped between its parts but never cut. Returns the lines and how many name
/// characters were cut.
pub(super) fn area_block(a: &Area, kind: &str, victim: bool, max: f64, name: f64, info: f64) -> (Vec<Line>, usize) {
    let (names, lost) = fit_name(&cap(&a.name), max, name, 3);
    let mut lines: Vec<Line> = names.into_iter().map(|text| Line { text, size: name, bold: false }).collect();
    let ad = format!("AD {}", a.appearance_difficulty);
    let mut parts = vec![kind, ad.as_str()];
    if a.optional {
        parts.push("optional");
    }
    if victim {
        parts.push(VICTIM);
    }
    // At the smallest sizes (name and info alike) the info may follow the name's last line.
    let mut cur = match lines.pop() {
        Some(last) if (last.size - info).abs() < 1e-9 && lost == 0 => last.text,
        Some(last) => {
            lines.push(last);
            String::new()
        }
        None => String::new(),
    };
    for (k, p) in parts.into_iter().enumerate() {
        let cand = if cur.is_empty() { p.to_string() } else { format!("{cur} \u{00b7} {p}") };
        // The kind goes on a line only with its AD.
        let need = if k == 0 { format!("{cand} \u{00b7} {ad}") } else { cand.clone() };
        if cur.is_empty() || fits(&need, max, info, false) {
            cur = cand;
        } else {
            lines.push(Line { text: std::mem::replace(&mut cur, p.to_string()), size: info, bold: false });
        }
    }
    lines.push(Line { text: cur, size: info, bold: false });
    (lines, lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_wrap_between_words_and_end_in_an_ellipsis() {
        let (lines, lost) = fit_name("Underground Car Park", 24.0, 2.5, 2);
        assert_eq!((lines, lost), (vec!["Underground Car".to_string(), "Park".to_string()], 0));
        let (lines, lost) = fit_name("Supercalifragilisticexpialidocious Hall Of Mirrors", 15.0, 2.5, 2);
        assert!(lines.iter().all(|l| fits(l, 15.0, 2.5, false)), "{lines:?}");
        assert!(lines[0].ends_with('\u{2026}') && lost > 0, "{lines:?}");
        let (lines, lost) = fit_name("A Very Long Name That Will Not Fit In Two Lines", 20.0, 2.5, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].ends_with('\u{2026}') && lost > 0, "{lines:?}");
    }

    #[test]
    fn a_name_of_any_length_is_fitted_in_one_pass() {
        let long = "x".repeat(100_000);
        let (lines, lost) = fit_name(&long, 20.0, 2.5, 3);
        assert_eq!(lines.len(), 1);
        assert!(lost > 99_000);
        let words = "ab ".repeat(50_000);
        let (lines, _) = fit_name(&words, 20.0, 2.5, 3);
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| fits(l, 20.0, 2.5, false)));
        assert_eq!(cap(&long).chars().count(), MAX_CHARS + 1);
    }
}
