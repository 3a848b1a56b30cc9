//! Plane geometry for the area map: points, polylines (the gate lines) and the exact tests that
//! keep lines off circles, labels and notes.

use crate::render::svgkit::{Bbox, mm, snap};

pub(super) type Pt = (f64, f64);

/// A disc: centre x, centre y, radius.
pub(super) type Disc = (f64, f64, f64);

pub(super) fn dist(a: Pt, b: Pt) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn lerp(a: Pt, b: Pt, t: f64) -> Pt {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

pub(super) fn disc_hits_box(d: Disc, b: &Bbox, margin: f64) -> bool {
    let (x, y, r) = d;
    let dx = x - x.clamp(b.x0, b.x1);
    let dy = y - y.clamp(b.y0, b.y1);
    dx * dx + dy * dy < (r + margin).powi(2)
}

pub(super) fn union(boxes: impl IntoIterator<Item = Bbox>) -> Option<Bbox> {
    boxes.into_iter().reduce(|a, b| Bbox {
        x0: a.x0.min(b.x0),
        y0: a.y0.min(b.y0),
        x1: a.x1.max(b.x1),
        y1: a.y1.max(b.y1),
    })
}

pub(super) fn inside(b: &Bbox, region: &Bbox) -> bool {
    b.x0 >= region.x0 && b.y0 >= region.y0 && b.x1 <= region.x1 && b.y1 <= region.y1
}

pub(super) fn grow(b: &Bbox, m: f64) -> Bbox {
    Bbox { x0: b.x0 - m, y0: b.y0 - m, x1: b.x1 + m, y1: b.y1 + m }
}

/// Distance from `p` to the segment `a`–`b`.
pub(super) fn seg_dist(p: Pt, a: Pt, b: Pt) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 < 1e-12 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0) };
    dist(p, (a.0 + t * dx, a.1 + t * dy))
}

/// Whether the segment `a`–`b` passes through the box (Liang–Barsky clipping).
pub(super) fn seg_hits_box(a: Pt, b: Pt, bx: &Bbox) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - bx.x0), (dx, bx.x1 - a.0), (-dy, a.1 - bx.y0), (dy, bx.y1 - a.1)] {
        if p.abs() < 1e-12 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// A gate's line: straight pieces through `pts`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Poly {
    pub(super) pts: Vec<Pt>,
}

impl Poly {
    pub(super) fn new(pts: Vec<Pt>) -> Poly {
        let mut out: Vec<Pt> = Vec::with_capacity(pts.len());
        for p in pts {
            let p = (snap(p.0), snap(p.1));
            if out.last().is_none_or(|&q| dist(p, q) > 0.05) {
                out.push(p);
            }
        }
        Poly { pts: out }
    }

    pub(super) fn segments(&self) -> impl Iterator<Item = (Pt, Pt)> + '_ {
        self.pts.windows(2).map(|w| (w[0], w[1]))
    }

    pub(super) fn length(&self) -> f64 {
        self.segments().map(|(a, b)| dist(a, b)).sum()
    }

    /// The point `s` mm along the line and the unit direction there.
    pub(super) fn at(&self, s: f64) -> (Pt, Pt) {
        let mut left = s.max(0.0);
        let mut last = ((0.0, 0.0), (1.0, 0.0));
        for (a, b) in self.segments() {
            let l = dist(a, b);
            let dir = ((b.0 - a.0) / l.max(1e-9), (b.1 - a.1) / l.max(1e-9));
            if left <= l {
                return (lerp(a, b, left / l.max(1e-9)), dir);
            }
            left -= l;
            last = (b, dir);
        }
        last
    }

    /// Whether any piece passes through the box.
    pub(super) fn hits_box(&self, b: &Bbox) -> bool {
        self.segments().any(|(p, q)| seg_hits_box(p, q, b))
    }

    /// The nearest the line comes to `p`.
    pub(super) fn dist_to(&self, p: Pt) -> f64 {
        self.segments().map(|(a, b)| seg_dist(p, a, b)).fold(f64::INFINITY, f64::min)
    }

    /// `M x y L x y …`, with a gap of `gap` mm around each point in `holes` (where a mark sits
    /// on the line).
    pub(super) fn d(&self, holes: &[(Pt, f64)]) -> String {
        let p = |q: Pt| format!("{} {}", mm(q.0), mm(q.1));
        let mut out = String::new();
        let mut pen_down = false;
        for (a, b) in self.segments() {
            // The parts of a–b outside every hole.
            let l = dist(a, b).max(1e-9);
            let mut cuts: Vec<(f64, f64)> = Vec::new();
            for &(c, g) in holes {
                // Where the segment enters and leaves the disc round c.
                let (dx, dy) = ((b.0 - a.0) / l, (b.1 - a.1) / l);
                let (fx, fy) = (a.0 - c.0, a.1 - c.1);
                let bq = fx * dx + fy * dy;
                let cq = fx * fx + fy * fy - g * g;
                let disc = bq * bq - cq;
                if disc > 0.0 {
                    let (t0, t1) = (-bq - disc.sqrt(), -bq + disc.sqrt());
                    if t1 > 0.0 && t0 < l {
                        cuts.push((t0.max(0.0), t1.min(l)));
                    }
                }
            }
            cuts.sort_by(|x, y| x.0.total_cmp(&y.0));
            let mut s = 0.0;
            let mut pieces: Vec<(f64, f64)> = Vec::new();
            for (c0, c1) in cuts {
                if c0 > s {
                    pieces.push((s, c0));
                }
                s = s.max(c1);
            }
            if s < l {
                pieces.push((s, l));
            }
            for (s0, s1) in pieces {
                let (q0, q1) = (lerp(a, b, s0 / l), lerp(a, b, s1 / l));
                if !(pen_down && s0 == 0.0) {
                    out.push_str(if out.is_empty() { "M" } else { " M" });
                    out.push_str(&p(q0));
                }
                out.push_str(" L");
                out.push_str(&p(q1));
                pen_down = s1 >= l;
            }
            if s >= l {
                pen_down = false;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_meets_a_box_only_where_it_passes_through_it() {
        let b = Bbox { x0: 0.0, y0: 0.0, x1: 10.0, y1: 5.0 };
        assert!(seg_hits_box((-5.0, 2.0), (15.0, 2.0), &b));
        assert!(seg_hits_box((5.0, -5.0), (5.0, 1.0), &b));
        assert!(!seg_hits_box((-5.0, 6.0), (15.0, 6.0), &b));
        assert!(!seg_hits_box((11.0, -5.0), (20.0, 10.0), &b));
        assert!(seg_hits_box((-1.0, 6.0), (1.0, 4.0), &b));
    }

    #[test]
    fn a_line_breaks_round_its_marks() {
        let p = Poly::new(vec![(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]);
        assert_eq!(p.d(&[]), "M0 0 L10 0 L10 10");
        assert_eq!(p.d(&[((5.0, 0.0), 1.0)]), "M0 0 L4 0 M6 0 L10 0 L10 10");
        assert!((p.length() - 20.0).abs() < 1e-9);
        assert_eq!(p.at(15.0).0, (10.0, 5.0));
    }
}
