//! The NW3 players' Episode Handouts as cut-out cards, four to a page (two by two, dashed cut
//! lines), for the PDF and the printed HTML alike: one SVG page for each four PCs. A card's text
//! is wrapped to its width and set smaller until it fits, so no handout is ever cut short.

use crate::model::Paper;
use crate::nw3::model::Fortress;
use crate::render::svgkit::{Canvas, INK, Pen, WHITE, txt, wrap};

/// Cards on a page.
pub const PER_PAGE: usize = 4;
/// The page's margin around the cards, in mm.
const MARGIN: f64 = 10.0;
/// Space inside a card's border, in mm.
const PAD: f64 = 5.0;
/// The largest and smallest text sizes tried (mm of the em): 3.5 mm is about 10 pt.
const LARGEST: f64 = 3.5;
const SMALLEST: f64 = 1.6;

/// One run of a card's text: its words, bold or not, grey or not.
struct Run {
    text: String,
    bold: bool,
    grey: bool,
    /// Space before it, in ems.
    gap: f64,
}

fn run(text: impl Into<String>, bold: bool, grey: bool, gap: f64) -> Run {
    Run { text: text.into(), bold, grey, gap }
}

/// Each PC's handout, its card's runs, in PC order.
fn cards(f: &Fortress) -> Vec<Vec<Run>> {
    let Some(e) = &f.episode else { return Vec::new() };
    e.handouts
        .iter()
        .map(|h| {
            vec![
                run(format!("Episode Handout for PC {}", h.pc), true, false, 0.0),
                run(f.title.clone(), false, true, 0.2),
                run(f.trailer.clone(), false, true, 0.8),
                run("Your hook:", true, false, 0.8),
                run(h.hook.clone(), false, false, 0.2),
                run("Episode Connection:", true, false, 0.8),
                run(format!("{}: {}", h.connection.name, h.connection.who), false, false, 0.2),
            ]
        })
        .collect()
}

/// The lines a card's runs take at `size` within `width` mm, each with its run and its top gap.
fn lay_out(runs: &[Run], width: f64, size: f64) -> Vec<(usize, String, f64)> {
    let mut out = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        for (k, line) in wrap(&r.text, width, size, r.bold, usize::MAX).into_iter().enumerate() {
            out.push((i, line, if k == 0 { r.gap } else { 0.0 }));
        }
    }
    out
}

/// The card pages, one SVG document for each four handouts (none without an episode).
pub fn pages(f: &Fortress, paper: Paper) -> Vec<String> {
    let (w, h) = paper.size_mm();
    let (cw, ch) = ((w - 2.0 * MARGIN) / 2.0, (h - 2.0 * MARGIN) / 2.0);
    let all = cards(f);
    let count = all.len();
    all.chunks(PER_PAGE)
        .enumerate()
        .map(|(p, page)| {
            let first = p * PER_PAGE + 1;
            let mut c = Canvas::new(w, h, format!("handouts{}", p + 1));
            for (k, runs) in page.iter().enumerate() {
                let (x, y) = (MARGIN + (k % 2) as f64 * cw, MARGIN + (k / 2) as f64 * ch);
                card(&mut c, runs, x, y, cw, ch);
            }
            let last = first + page.len() - 1;
            txt(
                w / 2.0,
                h - MARGIN / 2.0,
                2.4,
                format!("Players' handouts {first}-{last} of {count}: cut along the dashed lines"),
            )
            .grey()
            .middle()
            .put(&mut c);
            c.finish(&format!("{}: Episode Handouts, PC {first}-{last}", f.title), Vec::new())
        })
        .collect()
}

/// One card at (x, y), `w` × `h` mm: a dashed border to cut along, the text at the largest size
/// that fits.
fn card(c: &mut Canvas, runs: &[Run], x: f64, y: f64, w: f64, h: f64) {
    c.rect(x, y, w, h, WHITE, Some(Pen(INK, 0.3, Some("2 1.5"))));
    let width = w - 2.0 * PAD;
    let height = h - 2.0 * PAD;
    let mut size = LARGEST;
    let mut lines = lay_out(runs, width, size);
    while size > SMALLEST && text_height(&lines, size) > height {
        size -= 0.1;
        lines = lay_out(runs, width, size);
    }
    let mut top = y + PAD;
    for (i, line, gap) in lines {
        top += gap * size;
        let r = &runs[i];
        // A line's baseline sits about 0.95 em below its top (the faces' ascent).
        let mut t = txt(x + PAD, top + 0.95 * size, size, line);
        if r.bold {
            t = t.bold();
        }
        if r.grey {
            t = t.grey();
        }
        t.put(c);
        top += LINE * size;
    }
}

/// Line height in ems.
const LINE: f64 = 1.25;

fn text_height(lines: &[(usize, String, f64)], size: f64) -> f64 {
    lines.iter().map(|(_, _, gap)| (gap + LINE) * size).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_handout_is_on_a_card_four_to_a_page() {
        let tables = crate::tables::Tables::embedded().expect("embedded tables");
        for party in [1, 4, 5, 8] {
            let params = crate::nw3::FortressParams { party, ..Default::default() };
            let f = crate::nw3::text::filled(&crate::nw3::generate(&tables, &params, 11).expect("generates"));
            let pages = pages(&f, Paper::A4);
            assert_eq!(pages.len(), (party as usize).div_ceil(PER_PAGE), "party of {party}");
            for pc in 1..=party {
                let on: Vec<usize> = (0..pages.len())
                    .filter(|&p| pages[p].contains(&format!(">Episode Handout for PC {pc}<")))
                    .collect();
                assert_eq!(on, [(pc as usize - 1) / PER_PAGE], "PC {pc} of {party}");
            }
        }
    }
}
