//! A plain-text summary of a MYK scenario for the terminal.

use std::fmt::Write;

use crate::myk::model::Scenario;

/// A few lines per map: rooms with their threats, then the limits used.
pub fn myk_summary(s: &Scenario) -> String {
    let mut o = String::new();
    let c = &s.court;
    let _ = writeln!(o, "{} (seed {})", crate::myk::frame::shown_title(s), s.seed);
    let _ = writeln!(
        o,
        "court of {} (levels {}), average level {}, total {}; {} map(s), {} layout",
        c.size,
        c.levels.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
        c.average_level,
        c.total_level,
        s.maps.len(),
        s.params.layout.label()
    );
    let _ = writeln!(o, "objective ({}): {}", s.objective.kind.name(), crate::myk::frame::objective(s));
    for m in &s.maps {
        let _ = writeln!(o, "map {}: {}", m.index, m.name);
        for r in m.used_rooms() {
            let mut parts = Vec::new();
            if let Some(ru) = &r.ruler {
                parts.push(format!("RULER {} (lv {}, eff {})", ru.name, ru.level, ru.effective_level));
            }
            for g in &r.monsters {
                parts.push(format!(
                    "{} lv{} {}",
                    crate::text::count(g.count.into(), &g.name),
                    g.level,
                    g.reaction.label()
                ));
            }
            for t in &r.traps {
                parts.push(format!("trap {} lv{}", t.name, t.level));
            }
            for b in &r.bases {
                parts.push(format!("base {} lv{}", b.name, b.level));
            }
            let _ = writeln!(o, "  {} {:<28} {}", r.id, r.name, parts.join("; "));
        }
        let corridors: Vec<String> = m
            .corridors
            .iter()
            .map(|k| match (&k.trap, k.one_way) {
                (Some(t), Some(d)) => format!("{} [{} {d}]", k.id(), t.name),
                (Some(t), None) => format!("{} [{}]", k.id(), t.name),
                _ => k.id().to_string(),
            })
            .collect();
        let _ = writeln!(o, "  corridors: {}", corridors.join(", "));
        let entrances: Vec<String> = m
            .entrances
            .iter()
            .map(|e| match e.to {
                None => format!("{} {} (from outside)", e.room, e.wall.label()),
                Some(p) => format!("{} {} (to map {}, {})", e.room, e.wall.label(), p.map, p.room),
            })
            .collect();
        let _ = writeln!(o, "  entrances: {}", entrances.join(", "));
    }
    let (u, l) = (&s.usage, &s.limits);
    let _ = writeln!(
        o,
        "traps {}/{} (levels {}/{}), bases levels {}/{}, ruler level {}/{}",
        u.traps_number,
        l.traps_number,
        u.traps_total_level,
        l.traps_total_level,
        u.bases_total_level,
        l.bases_total_level,
        u.highest_ruler_level,
        l.ruler_level
    );
    for w in &s.warnings {
        let _ = writeln!(o, "warning: {w}");
    }
    o
}

/// The line before the summary's danger lines, saying what they mean.
pub const DANGER_MEANS: &str = "dangers below: threats the book's own tables let past the court's limits \
(a roll on the encounter table in play, or a ruler before its weak points take levels off); every placed \
monster keeps the limits, and the booklet marks each beside its entry\n";

/// The summary's danger lines ("danger: the level-2 encounter table, roll 2: Wight is level 7, 1
/// over the monster limit of 6 (A + 4)"), one per threat the book's tables let past the court's
/// limits; for the command to print under [`myk_summary`] (which has no tables to read levels
/// from).
pub fn myk_danger_lines(s: &Scenario, tables: &crate::tables::Tables) -> String {
    let mut o = String::new();
    let dangers = crate::myk::danger::scenario(s, tables);
    if !dangers.is_empty() {
        // A first run's reader sees these before any booklet: say what they are, once.
        o.push_str(DANGER_MEANS);
    }
    for d in dangers {
        let _ = writeln!(o, "danger: {d}");
    }
    o
}
