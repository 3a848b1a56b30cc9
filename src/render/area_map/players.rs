//! The players' copy: the title, the trailer, the Entrance and room to draw the fortress and
//! take notes.

use svg::Node;
use svg::node::element::{Circle, Pattern};

use crate::model::Paper;
use crate::nw3::model::{AreaKind, Fortress};
use crate::render::Audience;
use crate::render::svgkit::{ASCENT, Anchor, Canvas, Label, Pen, WHITE, mm, txt, wrap};

use super::furniture::{Look, draw_circle, draw_footer, draw_head, entrance_arrow, footer, footer_height};
use super::geometry::union;
use super::labels::{Line, block_height, cap, stack};
use super::{BOTTOM, HEAD, MARGIN, MIN_TEXT, TOP};

// ---------------------------------------------------------------------------------------------
// The players' copy.

pub(super) fn draw_players(f: &Fortress, paper: Paper) -> (Canvas, Vec<Box<dyn Node>>) {
    let (w, h) = paper.size_mm();
    let mut c = Canvas::new(w, h, format!("nw3-{}-pl", f.seed));
    draw_head(&mut c, &cap(&f.title), "Night Wizard 3rd Edition Fortress", "players' copy");
    let inner = w - 2.0 * MARGIN;
    let size = 3.4;
    let mut y = TOP + HEAD + 2.0;
    for line in wrap(&cap(&f.trailer), inner, size, false, 4) {
        txt(MARGIN, y + ASCENT * size, size, line).put(&mut c);
        y += size * 1.35;
    }
    let foot = footer(f, "", paper, Audience::Players);
    let footer_top = h - BOTTOM - footer_height(foot.len());
    let notes_top = footer_top - 62.0;
    let map_top = y + 3.0;
    let map_bottom = notes_top - 4.0;

    // The mapping space: a faint dot grid to draw the areas and gates on.
    let dots_id = format!("{}-dots", c.id);
    let dots = Pattern::new()
        .set("id", dots_id.clone())
        .set("x", mm(MARGIN))
        .set("y", mm(map_top))
        .set("patternUnits", "userSpaceOnUse")
        .set("width", "8")
        .set("height", "8")
        .add(Circle::new().set("cx", "4").set("cy", "4").set("r", "0.3").set("fill", "#aaa"));
    c.rect(MARGIN, map_top, inner, map_bottom - map_top, &format!("url(#{dots_id})"), Some(Pen("#999", 0.3, None)));
    txt(MARGIN + 1.5, map_top + 1.5 + ASCENT * MIN_TEXT, MIN_TEXT, "Draw the areas and gates as you find them.")
        .grey()
        .halo()
        .put(&mut c);

    if let Some(e) = f.entrance() {
        let r = 7.0;
        let (cx, cy) = (w / 2.0, map_top + 16.0);
        // A white pad so the dots stay clear of the Entrance and its name.
        let name_size = 3.6;
        let name = wrap(&cap(&e.name), inner / 2.0 - r - 4.0, name_size, false, 2);
        let mut lines: Vec<Line> = name.iter().map(|t| Line { text: t.clone(), size: name_size, bold: true }).collect();
        lines.push(Line { text: "Entrance".to_string(), size: 3.0, bold: false });
        let bh = block_height(&lines);
        let labels = stack(cx + r + 1.5, cy - bh / 2.0, Anchor::Start, &lines);
        if let Some(b) = union(labels.iter().map(Label::bbox)) {
            c.rect(cx - r - 3.0, cy - r - 8.0, b.x1 - cx + r + 5.0, 2.0 * r + 11.0, WHITE, None);
        }
        draw_circle(&mut c, Look::Kind(AreaKind::Entrance), false, (cx, cy, r), None, None);
        entrance_arrow(&mut c, cx, cy - r, 6.0);
        c.labels.extend(labels);
    }

    txt(MARGIN, notes_top + ASCENT * 3.2, 3.2, "Notes").bold().put(&mut c);
    let mut y = notes_top + 11.0;
    while y < footer_top - 2.0 {
        c.line(MARGIN, y, w - MARGIN, y, Pen("#999", 0.2, None));
        y += 7.0;
    }
    draw_footer(&mut c, &foot, footer_top);
    (c, vec![Box::new(dots)])
}
