//! NW3 fortress area maps as SVG (being written).

#[cfg(test)]
mod tests {
    use crate::nw3::generate::{FortressParams, generate};
    use crate::nw3::layout::layout;
    use crate::tables::Tables;

    #[test]
    fn survey() {
        let t = Tables::embedded().unwrap();
        for areas in [3u32, 5, 10, 15, 20, 25, 30, 35, 40] {
            let mut maxw = 0;
            let mut maxl = 0;
            let mut minl = 99;
            let mut same = 0;
            let mut sameskip = 0;
            let mut skip = 0;
            let mut maxname = 0;
            let mut crosses = 0;
            let mut kinds = std::collections::BTreeMap::new();
            for seed in 0..200 {
                let f = generate(&t, &FortressParams { areas, party: 4, cl: 3 }, seed).unwrap();
                let l = layout(&f);
                maxw = maxw.max(l.width);
                maxl = maxl.max(l.layers);
                minl = minl.min(l.layers);
                for a in &f.areas {
                    maxname = maxname.max(a.name.len());
                }
                for g in &f.gates {
                    *kinds.entry(format!("{:?}", g.kind)).or_insert(0) += 1;
                }
                for g in &f.gates {
                    let a = l.get(g.from).unwrap();
                    let b = l.get(g.to).unwrap();
                    if a.layer == b.layer {
                        same += 1;
                        if a.slot.abs_diff(b.slot) > 1 {
                            sameskip += 1;
                        }
                    }
                    if a.layer.abs_diff(b.layer) > 1 {
                        skip += 1;
                    }
                    // a straight line passing near another node?
                    for p in &l.nodes {
                        if p.id == g.from || p.id == g.to {
                            continue;
                        }
                        let (x0, y0, x1, y1) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64);
                        let (px, py) = (p.x as f64, p.y as f64);
                        let (dx, dy) = (x1 - x0, y1 - y0);
                        let tt = ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy);
                        if tt <= 0.0 || tt >= 1.0 {
                            continue;
                        }
                        let d = ((x0 + tt * dx - px).powi(2) + (y0 + tt * dy - py).powi(2)).sqrt();
                        if d < 0.7 {
                            crosses += 1;
                        }
                    }
                }
            }
            println!("kinds {:?}", kinds);
            println!(
                "areas {areas}: layers {minl}..{maxl} width {maxw} same-layer {same} same-skip {sameskip} layer-skip {skip} near-node {crosses} maxname {maxname}"
            );
        }
    }
}

/// Placeholder until the area map lands.
pub fn fortress_map(
    f: &crate::nw3::model::Fortress,
    _: &crate::tables::Tables,
    _: crate::render::Paper,
    _: crate::render::Copy,
) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 210 297\"><text x=\"10\" y=\"20\">{}</text></svg>",
        f.areas.len()
    )
}
