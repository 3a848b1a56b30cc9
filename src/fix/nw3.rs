//! `fix` for Night Wizard 3rd: every derived field of a Fortress, recomputed from what the GM
//! chose, by the functions the generator and `check` use.

use crate::error::Result;
use crate::fix::{not_among, unknown};
use crate::nw3::check::{chart_row, split_chart};
use crate::nw3::combat;
use crate::nw3::model::{Area, EnemyGroup, Event, EventKind, Fortress, GateKind, GateRef, Opener};
use crate::nw3::rules::{ANY_SEVEN, DANGER_SENSE, Hardness, judge_difficulty, legwork_hardness};
use crate::tables::Tables;
use crate::tables::nw3::{AREA_EVENT_TABLE, Nw3Data, RulerRecord};

/// Fills in every derived field of `f` in place. Errors name the first field holding a name the
/// tables do not know; `f` is then partly fixed, so callers write nothing.
///
/// The party's size and level are read from `params` (the generator's options); `params.areas`
/// follows the areas listed. A member's `count` of 0 (or none given) takes the tables' count for
/// the party; any other count is the GM's. Text that comes from the tables by name (trap effects,
/// event texts, descriptions) is rewritten from them: the GM's own words go in `notes`.
pub fn fix(f: &mut Fortress, tables: &Tables) -> Result<()> {
    let d = &tables.nw3;
    let cl = f.params.cl;
    f.params.areas = u32::try_from(f.areas.len()).unwrap_or(u32::MAX);

    let Some(rr) = d.ruler(&f.ruler.name) else {
        return Err(unknown("ruler.name".into(), "Ruler", &f.ruler.name, d.rulers.iter().map(|r| r.name.as_str())));
    };
    let foes = combat::PartyModel::of(&f.params);
    fix_ruler(f, d, rr, foes);
    for (i, l) in f.logic.iter_mut().enumerate() {
        let Some(rec) = d.logic(&l.name) else {
            let known = d.logics.iter().map(|r| r.name.as_str());
            return Err(unknown(format!("logic[{i}].name"), "Logic", &l.name, known));
        };
        l.effect = rec.effect.clone();
    }
    let Some(core) = d.core(&f.core.name) else {
        return Err(unknown(
            "core.name".into(),
            "Fortress Core",
            &f.core.name,
            d.cores.iter().map(|r| r.name.as_str()),
        ));
    };
    f.core.description = core.description.clone();

    for (ai, a) in f.areas.iter_mut().enumerate() {
        let at = format!("areas[{ai}]");
        if let Some(e) = a.event.as_mut() {
            event(e, tables, rr, cl, &at)?;
        }
        if let Some(t) = a.trap.as_mut() {
            let Some(rec) = d.trap(&t.name) else {
                return Err(unknown(
                    format!("{at}.trap.name"),
                    "trap",
                    &t.name,
                    d.traps.iter().map(|r| r.name.as_str()),
                ));
            };
            trap_values(t, rec, cl);
        }
        for (gi, g) in a.enemies.iter_mut().enumerate() {
            group(g, d, foes, &format!("{at}.enemies[{gi}]"))?;
        }
        for (oi, o) in a.objects.iter_mut().enumerate() {
            let Some(rec) = d.object(&o.name) else {
                let known = d.objects.iter().map(|r| r.name.as_str());
                return Err(unknown(format!("{at}.objects[{oi}].name"), "object", &o.name, known));
            };
            o.effect = rec.effect.clone();
            if !rec.release {
                o.opens = None;
            }
        }
    }

    gates(f);
    devices(f, d);
    crate::nw3::events::settle_events(d, f, true);
    legwork_difficulties(f);
    // The Ruler is met where its encounter is (when exactly one area holds it).
    let mut met = f.areas.iter().filter(|a| a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler));
    if let (Some(a), None) = (met.next(), met.next()) {
        f.ruler.area = a.id;
    }
    for a in &mut f.areas {
        a.danger_sense = Some(combat::danger_sense(a).0);
    }
    // Appearance difficulties and optional areas, with the reachability code `check` uses.
    crate::nw3::generate::derive_paths(f);
    Ok(())
}

/// The Ruler's record data, initiative and Boss stat block.
fn fix_ruler(f: &mut Fortress, d: &Nw3Data, rr: &RulerRecord, foes: combat::PartyModel) {
    let r = &mut f.ruler;
    r.title = rr.title.clone();
    r.description = rr.description.clone();
    ruler_numbers(r, d, rr, foes);
}

/// The Ruler's SPD, initiative and Boss stat block for the party.
fn ruler_numbers(r: &mut crate::nw3::model::Ruler, d: &Nw3Data, rr: &RulerRecord, foes: combat::PartyModel) {
    r.spd = rr.spd;
    r.initiative = rr.spd.saturating_add(ANY_SEVEN);
    let b = combat::ruler_block(d, rr, foes);
    (r.stats, r.attacks, r.skills) = (Some(b.stats), b.attacks, b.skills);
}

/// A trap's Detection and Removal Values and effect for the party's level.
fn trap_values(t: &mut crate::nw3::model::Trap, rec: &crate::tables::nw3::TrapRecord, cl: u32) {
    t.detection = crate::nw3::rules::judge_difficulty(cl, rec.detection);
    t.removal = crate::nw3::rules::judge_difficulty(cl, rec.removal);
    t.effect = Nw3Data::trap_effect(rec, cl);
}

/// A member of a group, rebuilt from its record for the party (rank, SPD, initiative, stat
/// block), keeping the GM's count; a count of 0 takes the tables' count for the party.
fn member(
    m: &mut crate::nw3::model::Enemy,
    rm: &crate::tables::nw3::MemberRecord,
    d: &Nw3Data,
    foes: combat::PartyModel,
) {
    let count = if m.count == 0 { rm.count.resolve(foes.size) } else { m.count };
    *m = combat::enemy(d, rm, count, foes);
}

/// Every number a Fortress derives by formula from its tables (the Ruler's and each known
/// enemy's stat block and initiative, trap values, scenario events' and legwork difficulties,
/// Danger Sense), recomputed by the functions `fix` uses, for the names the tables know; a GM's
/// own enemy or event keeps its numbers, and no text the GM wrote changes. Run on reading a file
/// of an older format, whose formulas may have been others (issue 24 changed the enemy stat
/// blocks; issue 47 the judge difficulties).
pub fn rederive(f: &mut Fortress, tables: &Tables) {
    let d = &tables.nw3;
    let cl = f.params.cl;
    let foes = combat::PartyModel::of(&f.params);
    if let Some(rr) = d.ruler(&f.ruler.name) {
        ruler_numbers(&mut f.ruler, d, rr, foes);
    }
    for a in &mut f.areas {
        if let Some(t) = a.trap.as_mut()
            && let Some(rec) = d.trap(&t.name)
        {
            trap_values(t, rec, cl);
        }
        for g in &mut a.enemies {
            let Some(rec) = d.enemy(&g.name) else { continue };
            for m in &mut g.members {
                if let Some(rm) = rec.members.iter().find(|rm| rm.name == m.name) {
                    member(m, rm, d, foes);
                }
            }
        }
        a.danger_sense = Some(combat::danger_sense(a).0);
    }
    crate::nw3::events::settle_events(d, f, false);
    legwork_difficulties(f);
}

/// Each legwork item's difficulty by the judge rule at the party's CL: the hardness its number
/// shows (hard at or above the rule's hard number, else ordinary), but ordinary whatever it shows
/// where its topic is the way onward (`rules::legwork_hardness`). An older file's band numbers
/// and a hand-edited one so come back to the rule.
fn legwork_difficulties(f: &mut Fortress) {
    let cl = f.params.cl;
    let Some(e) = f.episode.as_mut() else { return };
    let hard = judge_difficulty(cl, Hardness::Hard);
    for l in &mut e.legwork {
        let shown = if l.difficulty >= hard { Hardness::Hard } else { Hardness::Ordinary };
        l.difficulty = judge_difficulty(cl, legwork_hardness(l.topic, Some(shown)));
    }
}

/// An event by its name: a chart event's roll and text from the Area Event Chart, a scenario
/// event's text, judge and difficulty for the party's level, the Ruler encounter from the Ruler.
fn event(e: &mut Event, tables: &Tables, rr: &RulerRecord, cl: u32, at: &str) -> Result<()> {
    let d = &tables.nw3;
    match e.kind {
        EventKind::Chart => {
            let Some(chart) = tables.roll_table(AREA_EVENT_TABLE) else { return Ok(()) };
            fn named(row: &crate::tables::roll::Row) -> Option<(&str, &str)> {
                row.result.as_deref().map(split_chart)
            }
            let Some(row) = chart.rows.iter().find(|row| named(row).is_some_and(|(n, _)| n == e.name)) else {
                let known = chart.rows.iter().filter_map(|row| named(row).map(|(n, _)| n));
                return Err(unknown(format!("{at}.event.name"), "Area Event Chart event", &e.name, known));
            };
            // The roll stays when it lands on this row, else the row's first number.
            let lands = e.roll.and_then(|r| chart_row(chart, r)).is_some_and(|r| std::ptr::eq(r, row));
            if !lands {
                let first = row.roll.split('-').next().and_then(|n| n.trim().parse().ok());
                e.roll = first.or(e.roll);
            }
            if let Some((_, text)) = named(row) {
                e.text = crate::nw3::judges::fill_judges(text, cl);
            }
        }
        EventKind::Scenario => {
            let Some(rec) = d.event(&e.name) else {
                return Err(unknown(
                    format!("{at}.event.name"),
                    "event",
                    &e.name,
                    d.events.iter().map(|r| r.name.as_str()),
                ));
            };
            e.text = rec.text.clone();
            e.judge = Some(rec.judge.clone());
        }
        EventKind::Ruler => {
            // Named after the Ruler as it stands (format 7), as the generator names it.
            e.name = crate::nw3::stock::ruler_event(rr).name;
            e.text = rr.encounter.clone();
        }
    }
    Ok(())
}

/// An enemy group's record data; its members by name, each with rank, SPD, initiative and stat
/// block for the party (all of the record's members at the tables' counts when none of them is
/// listed: a group added with its name only, or swapped for another by name).
fn group(g: &mut EnemyGroup, d: &Nw3Data, foes: combat::PartyModel, at: &str) -> Result<()> {
    let party = foes.size;
    let Some(rec) = d.enemy(&g.name) else {
        return Err(unknown(format!("{at}.name"), "enemy group", &g.name, d.enemies.iter().map(|r| r.name.as_str())));
    };
    g.description = rec.description.clone();
    g.ambush = rec.ambush;
    // No member listed, or none of the record's (the group was swapped by name): all of them.
    let own = |name: &str| rec.members.iter().any(|rm| rm.name == name);
    if !g.members.iter().any(|m| own(&m.name)) {
        g.members = rec.members.iter().map(|rm| combat::enemy(d, rm, rm.count.resolve(party), foes)).collect();
        return Ok(());
    }
    for (mi, m) in g.members.iter_mut().enumerate() {
        let Some(rm) = rec.members.iter().find(|rm| rm.name == m.name) else {
            return Err(not_among(
                format!("{at}.members[{mi}].name"),
                "member",
                &m.name,
                &format!("one of enemy group `{}`", rec.name),
                rec.members.iter().map(|rm| rm.name.as_str()),
            ));
        };
        member(m, rm, d, foes);
    }
    Ok(())
}

/// Gates: only secret and closed gates take `opened_by`, only damaged gates `uses`; a secret gate
/// that names no opener (or another Danger Sense difficulty) is found by Danger Sense 15; sorted
/// by (from, to) as generated.
fn gates(f: &mut Fortress) {
    for g in &mut f.gates {
        match g.kind {
            GateKind::Normal | GateKind::OneWay | GateKind::Damaged => g.opened_by = None,
            GateKind::Secret => {
                if matches!(g.opened_by, None | Some(Opener::DangerSense(_))) {
                    g.opened_by = Some(Opener::DangerSense(DANGER_SENSE));
                }
            }
            GateKind::Closed => {}
        }
        if g.kind != GateKind::Damaged {
            g.uses = None;
        }
    }
    f.gates.sort_by_key(|g| (g.from, g.to));
}

/// A Gate Release Device names the closed gate its area opens: one that no longer names such a
/// gate (the gate was reversed, or another gate now opens by this device) is pointed at the first
/// closed gate opened by its area's device that no other device there names.
fn devices(f: &mut Fortress, d: &Nw3Data) {
    for ai in 0..f.areas.len() {
        let id = f.areas[ai].id;
        let opened: Vec<GateRef> = f
            .gates
            .iter()
            .filter(|g| g.kind == GateKind::Closed && g.opened_by == Some(Opener::Device(id)))
            .map(|g| g.gate_ref())
            .collect();
        let area: &mut Area = &mut f.areas[ai];
        let is_device = |name: &str| d.object(name).is_some_and(|o| o.release);
        for oi in 0..area.objects.len() {
            if !is_device(&area.objects[oi].name) || area.objects[oi].opens.is_some_and(|r| opened.contains(&r)) {
                continue;
            }
            let taken: Vec<GateRef> = area.objects.iter().filter_map(|o| o.opens).collect();
            if let Some(&free) = opened.iter().find(|r| !taken.contains(r)) {
                area.objects[oi].opens = Some(free);
            }
        }
    }
}
