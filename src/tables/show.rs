//! `tables show`: a roll table's rows, or one record, as plain text for the terminal.

use std::fmt::Write;

use crate::error::{Error, Result};
use crate::tables::Tables;
use crate::tables::skills::SkillRef;

/// The text for a table name or a record name (trap, base, monster, ruler skill, weak point,
/// skill), found whatever its case. A skill is found with or without its group in parentheses.
pub fn show(tables: &Tables, name: &str) -> Result<String> {
    let canonical = canonical(tables, name).unwrap_or(name);
    let mut s = record(tables, canonical).unwrap_or_default();
    // An item may share its name with a monster (Evil Eye): both are printed.
    if let Some(it) = tables.items.item(canonical) {
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&item(it));
    }
    for sk in tables.myk.skills.find(name) {
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(&skill(tables, sk));
    }
    if s.is_empty() {
        // Table and record names both: `zombi` is nearest the monster `Zombie`.
        let hint = crate::near::hint(name, names(tables));
        return Err(Error::UnknownTable { name: name.to_string(), hint });
    }
    Ok(s)
}

/// The name as the tables spell it: an exact match first, else the first match ignoring case.
fn canonical<'a>(tables: &'a Tables, name: &str) -> Option<&'a str> {
    let want = name.trim();
    let mut loose = None;
    for candidate in names(tables) {
        if candidate == want {
            return Some(candidate);
        }
        if loose.is_none() && candidate.eq_ignore_ascii_case(want) {
            loose = Some(candidate);
        }
    }
    loose
}

/// Every name `show` knows: the roll tables, then each kind of record.
fn names(tables: &Tables) -> impl Iterator<Item = &str> + Clone {
    let m = &tables.myk;
    let n = &tables.nw3;
    tables
        .rolls
        .iter()
        .map(|l| l.item.name.as_str())
        .chain(m.traps.iter().map(|x| x.name.as_str()))
        .chain(m.bases.iter().map(|x| x.name.as_str()))
        .chain(m.monsters.iter().map(|x| x.name.as_str()))
        .chain(m.ruler_skills.iter().map(|x| x.name.as_str()))
        .chain(m.weak_points.iter().map(|x| x.name.as_str()))
        .chain(tables.items.items.iter().map(|x| x.name.as_str()))
        .chain(n.traps.iter().map(|x| x.name.as_str()))
        .chain(n.events.iter().map(|x| x.name.as_str()))
        .chain(n.enemies.iter().map(|x| x.name.as_str()))
        .chain(n.objects.iter().map(|x| x.name.as_str()))
        .chain(n.rulers.iter().map(|x| x.name.as_str()))
        .chain(n.logics.iter().map(|x| x.name.as_str()))
        .chain(n.cores.iter().map(|x| x.name.as_str()))
}

/// A skill record: its label, timing, target and check, the effect, and the monsters that use it.
fn skill(tables: &Tables, sk: SkillRef<'_>) -> String {
    let mut s = String::new();
    let label = sk.label();
    match sk {
        SkillRef::Known(k) => {
            let mut head = format!("{label} — skill, timing {}", k.timing);
            if let Some(t) = &k.target {
                let _ = write!(head, ", target {t}");
            }
            if let Some(c) = &k.check {
                let _ = write!(head, ", check {c}");
            }
            let _ = writeln!(s, "{head}");
            let _ = writeln!(s, "{}", k.effect);
            if let Some(n) = &k.note {
                let _ = writeln!(s, "note: {n}");
            }
            let _ = writeln!(s, "source: {}", k.source);
        }
        SkillRef::Unknown(u) => {
            let _ = writeln!(s, "{label} — skill, effect unknown (lost in the source)");
            let _ = writeln!(s, "{}", u.reason);
        }
    }
    let users: Vec<&str> =
        tables.myk.monsters.iter().filter(|m| m.skills.iter().any(|s| *s == *label)).map(|m| m.name.as_str()).collect();
    if !users.is_empty() {
        let _ = writeln!(s, "used by: {}", users.join(", "));
    }
    s
}

/// An item record: category, cost, type, target, check, level, materials, weapon, effect.
fn item(it: &crate::tables::items::Item) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} — {}, cost {}, {}", it.name, it.category.label(), it.cost_text(), it.kind.label());
    let _ = writeln!(s, "target {}, check {}, level {}", it.target, it.check, it.level);
    let _ = writeln!(s, "materials: {}", it.materials_text());
    if let Some(w) = &it.weapon {
        let _ = writeln!(s, "{w}");
    }
    if let Some(l) = it.light {
        let _ = writeln!(s, "light {l}");
    }
    let _ = writeln!(s, "{}", it.effect);
    let _ = writeln!(s, "source: {}", it.source);
    s
}

/// The text of a roll table or a record named exactly `name`.
fn record(tables: &Tables, name: &str) -> Option<String> {
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
        return Some(s);
    }
    let m = &tables.myk;
    if let Some(t) = m.trap(name) {
        let _ = writeln!(s, "{} — {} trap, level {}", t.name, t.category.label(), t.level);
        let _ =
            writeln!(s, "placement {}, activation {}, disarm {}", t.placement.label(), t.activation.label(), t.disarm);
        if !t.objects.is_empty() {
            let _ = writeln!(s, "sits on: {}", t.objects.join(", "));
        }
        if !t.kinds.is_empty() {
            let _ = writeln!(s, "or any: {}", t.kinds.join(", "));
        }
        let _ = writeln!(s, "{}", t.summary);
        return Some(s);
    }
    if let Some(b) = m.base(name) {
        let level = b.level.map_or("unknown".to_string(), |l| l.to_string());
        let _ =
            writeln!(s, "{} — base, level {level}, {}, HP {}, cost {}", b.name, b.timing.label(), b.hp, b.cost_text());
        let _ =
            writeln!(s, "installation {}{}", b.installation.label(), if b.war_machine { ", war machine" } else { "" });
        if let Some(p) = b.supplemental {
            let _ = writeln!(s, "supplemental production capacity {p}");
        }
        if !b.rewards.is_empty() {
            let _ = writeln!(s, "rewards: {}", b.rewards.join(", "));
        }
        let _ = writeln!(s, "{}", b.summary);
        return Some(s);
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
        return Some(s);
    }
    if let Some(r) = m.ruler_skill(name) {
        let _ =
            writeln!(s, "{} — ruler skill, ruler level {}+, +{} levels\n{}", r.name, r.min_level, r.levels, r.summary);
        return Some(s);
    }
    if let Some(w) = m.weak_point(name) {
        let adj = w.adjustment_text();
        let _ = writeln!(s, "{} — weak point, level adjustment {adj}\n{}", w.name, w.summary);
        return Some(s);
    }
    tables.nw3.describe(name)
}
