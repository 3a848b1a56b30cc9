//! `tables show`: a roll table's rows, or one record, as plain text for the terminal.

use std::fmt::Write;

use crate::error::{Error, Result};
use crate::tables::Tables;

/// The text for a table name or a record name (trap, base, monster, ruler skill, weak point).
pub fn show(tables: &Tables, name: &str) -> Result<String> {
    let mut s = String::new();
    if let Some(t) = tables.roll_table(name) {
        let _ = writeln!(s, "{} — {} ({})", t.name, t.title, t.dice);
        if let Some(src) = &t.source {
            let _ = writeln!(s, "source: {src}");
        }
        if let Some(n) = &t.note {
            let _ = writeln!(s, "{n}");
        }
        for row in &t.rows {
            let _ = writeln!(s, "{:>6}  {}", row.roll, row.text());
        }
        return Ok(s);
    }
    let m = &tables.myk;
    if let Some(t) = m.trap(name) {
        let _ = writeln!(s, "{} — {} trap, level {}", t.name, t.category.label(), t.level);
        let _ =
            writeln!(s, "placement {}, activation {}, disarm {}", t.placement.label(), t.activation.label(), t.disarm);
        if !t.objects.is_empty() {
            let _ = writeln!(s, "sits on: {}", t.objects.join(", "));
        }
        let _ = writeln!(s, "{}", t.summary);
        return Ok(s);
    }
    if let Some(b) = m.base(name) {
        let level = b.level.map_or("unknown".to_string(), |l| l.to_string());
        let _ = writeln!(s, "{} — base, level {level}, {}, HP {}, cost {}", b.name, b.timing.label(), b.hp, b.cost);
        let _ =
            writeln!(s, "installation {}{}", b.installation.label(), if b.war_machine { ", war machine" } else { "" });
        if let Some(p) = b.supplemental {
            let _ = writeln!(s, "supplemental production capacity {p}");
        }
        if !b.rewards.is_empty() {
            let _ = writeln!(s, "rewards: {}", b.rewards.join(", "));
        }
        let _ = writeln!(s, "{}", b.summary);
        return Ok(s);
    }
    if let Some(x) = m.monster(name) {
        let opt = |v: Option<u32>| v.map_or("?".to_string(), |n| n.to_string());
        let _ = writeln!(s, "{} — {}, level {}", x.name, x.category.label(), opt(x.level));
        let _ = writeln!(
            s,
            "Warfare {} Range {} Damage {} Defense {} HP {} Personality {}",
            opt(x.warfare),
            opt(x.range),
            x.damage.map_or("?".to_string(), |d| d.to_string()),
            opt(x.defense),
            opt(x.hp),
            x.personality.map_or("?", |p| p.label())
        );
        if !x.materials.is_empty() {
            let _ = writeln!(s, "materials: {}", x.materials.join(", "));
        }
        if !x.skills.is_empty() {
            let _ = writeln!(s, "skills: {}", x.skills.join("; "));
        }
        if !x.unknown.is_empty() {
            let _ = writeln!(s, "unknown (lost in the source): {}", x.unknown.join(", "));
        }
        return Ok(s);
    }
    if let Some(r) = m.ruler_skill(name) {
        let _ =
            writeln!(s, "{} — ruler skill, ruler level {}+, +{} levels\n{}", r.name, r.min_level, r.levels, r.summary);
        return Ok(s);
    }
    if let Some(w) = m.weak_point(name) {
        let adj = w.adjustment_text();
        let _ = writeln!(s, "{} — weak point, level adjustment {adj}\n{}", w.name, w.summary);
        return Ok(s);
    }
    if let Some(text) = tables.nw3.describe(name) {
        return Ok(text);
    }
    Err(Error::UnknownTable { name: name.to_string() })
}
