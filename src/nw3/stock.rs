//! What stands in one area: its event, trap, enemies and objects, rolled from the NW3 tables for
//! the party. The generator stocks every area with [`stock`]; the workbench
//! ([`crate::edit::nw3`]) calls the same pieces to reroll one part of one area, so a rerolled part
//! is always something the generator could have made.
//!
//! Each piece takes the area's dice stream and the [`Used`] record of what the rest of the
//! fortress already holds, so two areas rarely hold the same trap, event, group or object (a
//! piece falls back to a used entry only when every fitting one is taken).

use crate::dice::Dice;
use crate::nw3::check::{chart_row, split_chart};
use crate::nw3::combat;
use crate::nw3::judges::fill_judges;
use crate::nw3::model::{Area, AreaKind, EnemyGroup, Event, EventKind, GateRef, Object, Trap};
use crate::nw3::rules::judge_difficulty;
use crate::tables::nw3::{Nw3Data, RulerRecord};
use crate::tables::roll::RollTable;

/// Which table entries the fortress already holds (by index into the tables' lists).
pub(crate) struct Used {
    pub traps: Vec<bool>,
    pub events: Vec<bool>,
    pub enemies: Vec<bool>,
    pub objects: Vec<bool>,
    /// The Area Event Chart results already in the fortress (by name), so a result repeats only
    /// once every row of the chart is in use.
    pub chart: Vec<String>,
}

impl Used {
    /// Nothing used yet.
    pub(crate) fn new(d: &Nw3Data) -> Used {
        Used {
            traps: vec![false; d.traps.len()],
            events: vec![false; d.events.len()],
            enemies: vec![false; d.enemies.len()],
            objects: vec![false; d.objects.len()],
            chart: Vec::new(),
        }
    }

    /// Marks what `area` holds (by name; names the tables do not know are skipped).
    pub(crate) fn mark(&mut self, d: &Nw3Data, area: &Area) {
        let set = |used: &mut Vec<bool>, i: Option<usize>| {
            if let Some(i) = i {
                used[i] = true;
            }
        };
        if let Some(t) = &area.trap {
            set(&mut self.traps, d.traps.iter().position(|r| r.name == t.name));
        }
        if let Some(e) = area.event.as_ref().filter(|e| e.kind == EventKind::Scenario) {
            set(&mut self.events, d.events.iter().position(|r| r.name == e.name));
        }
        if let Some(e) = area.event.as_ref().filter(|e| e.kind == EventKind::Chart) {
            self.chart.push(e.name.clone());
        }
        for g in &area.enemies {
            set(&mut self.enemies, d.enemies.iter().position(|r| r.name == g.name));
        }
        for o in &area.objects {
            set(&mut self.objects, d.objects.iter().position(|r| r.name == o.name));
        }
    }
}

/// Picks an index from `len` items: a random start, then the first that fits and is unused, else
/// the first that fits. Marks it used.
pub(crate) fn pick(dice: &mut Dice, used: &mut [bool], fits: impl Fn(usize) -> bool) -> Option<usize> {
    let len = used.len();
    if len == 0 {
        return None;
    }
    let start = dice.below(len as u32) as usize;
    let found = (0..len)
        .map(|k| (start + k) % len)
        .find(|&i| fits(i) && !used[i])
        .or_else(|| (0..len).map(|k| (start + k) % len).find(|&i| fits(i)))?;
    used[found] = true;
    Some(found)
}

/// A roll on the 2D6 Area Event Chart (Normal and Object areas), its judges and costs for the
/// party's character level `cl`.
pub(crate) fn chart_event(chart: &RollTable, cl: u32, dice: &mut Dice) -> Option<Event> {
    let roll = dice.nd6(2);
    let row = chart_row(chart, roll)?;
    let (name, text) = split_chart(row.result.as_deref()?);
    Some(Event {
        kind: EventKind::Chart,
        roll: Some(roll),
        name: name.to_string(),
        text: fill_judges(text, cl),
        judge: None,
        difficulty: None,
        success: String::new(),
        failure: String::new(),
        retry: String::new(),
    })
}

/// A chart event whose result the fortress does not hold yet: the roll, moved on to the next
/// higher result (round from 12 to 2) while the rolled one is taken and another is free, so a
/// result repeats only when every row is in use. Records it in `used`.
pub(crate) fn fresh_chart_event(chart: &RollTable, cl: u32, dice: &mut Dice, used: &mut Vec<String>) -> Option<Event> {
    let rolled = chart_event(chart, cl, dice)?;
    let first = rolled.roll.unwrap_or(2);
    let pick = (0..11)
        .map(|k| 2 + (first - 2 + k) % 11)
        .filter_map(|roll| {
            let (name, text) = split_chart(chart_row(chart, roll)?.result.as_deref()?);
            Some((roll, name, text))
        })
        .find(|(_, name, _)| !used.iter().any(|u| u == name));
    let event = match pick {
        Some((roll, name, text)) => {
            Event { roll: Some(roll), name: name.into(), text: fill_judges(text, cl), ..rolled }
        }
        None => rolled,
    };
    used.push(event.name.clone());
    Some(event)
}

/// An enemy group for the party's character level (a group whose CL range holds it), with every
/// member's stat block for the party.
pub(crate) fn enemy_group(
    d: &Nw3Data,
    cl: u32,
    party: u32,
    foes: combat::PartyModel,
    dice: &mut Dice,
    used: &mut [bool],
) -> Option<EnemyGroup> {
    let i = pick(dice, used, |i| d.enemies[i].cl.contains(cl))?;
    let r = &d.enemies[i];
    Some(EnemyGroup {
        name: r.name.clone(),
        description: r.description.clone(),
        ambush: r.ambush,
        members: r.members.iter().map(|m| combat::enemy(d, m, m.count.resolve(party), foes)).collect(),
        notes: String::new(),
    })
}

fn object(d: &Nw3Data, i: usize, opens: Option<GateRef>) -> Object {
    Object { name: d.objects[i].name.clone(), effect: d.objects[i].effect.clone(), opens }
}

/// The objects of an Object area or the Core. An Object area holding the Gate Release Device of
/// `device` keeps it first and may hold one more object; another Object area holds one object;
/// the Core holds one a third of the time. An area reached only after the Ruler's fight (`late`)
/// gets nothing that helps against the Ruler.
pub(crate) fn objects(
    d: &Nw3Data,
    kind: AreaKind,
    device: Option<GateRef>,
    late: bool,
    dice: &mut Dice,
    used: &mut [bool],
) -> Vec<Object> {
    let mut out = Vec::new();
    // What helps against the Ruler only where the party comes before the fight.
    let plain = |i: usize| !(d.objects[i].release || (late && d.objects[i].ruler_aid));
    match (kind, device) {
        (AreaKind::Object, Some(r)) => {
            let release = d.objects.iter().position(|o| o.release).expect("validated: a release device");
            out.push(object(d, release, Some(r)));
            if dice.chance(1, 3)
                && let Some(i) = pick(dice, used, plain)
            {
                out.push(object(d, i, None));
            }
        }
        (AreaKind::Object, None) => out.extend(pick(dice, used, plain).map(|i| object(d, i, None))),
        (AreaKind::Core, _) => {
            if dice.chance(1, 3)
                && let Some(i) = pick(dice, used, plain)
            {
                out.push(object(d, i, None));
            }
        }
        _ => {}
    }
    out
}

/// A Trap area's trap, with Detection and Removal for the party's character level.
pub(crate) fn trap(d: &Nw3Data, cl: u32, dice: &mut Dice, used: &mut [bool]) -> Option<Trap> {
    let i = pick(dice, used, |_| true)?;
    let t = &d.traps[i];
    Some(Trap {
        name: t.name.clone(),
        detection: judge_difficulty(cl, t.detection),
        removal: judge_difficulty(cl, t.removal),
        effect: Nw3Data::trap_effect(t, cl),
    })
}

/// An Event area's scenario event, with its judge, difficulty and outcomes for the character
/// level as if it opened no gate (`events::event_outcomes` settles that once the gates are known).
pub(crate) fn scenario_event(d: &Nw3Data, cl: u32, dice: &mut Dice, used: &mut [bool]) -> Option<Event> {
    let i = pick(dice, used, |_| true)?;
    let r = &d.events[i];
    let mut e = Event {
        kind: EventKind::Scenario,
        roll: None,
        name: r.name.clone(),
        text: r.text.clone(),
        judge: Some(r.judge.clone()),
        difficulty: None,
        success: String::new(),
        failure: String::new(),
        retry: String::new(),
    };
    crate::nw3::events::set_outcome(&mut e, r, cl, &[]);
    Some(e)
}

/// The Ruler encounter, the event of the Ruler's area.
pub(crate) fn ruler_event(ruler: &RulerRecord) -> Event {
    Event {
        kind: EventKind::Ruler,
        roll: None,
        // Filled when read (`nw3::text::filled`): a renamed Ruler renames its encounter.
        name: "{ruler}".into(),
        text: ruler.encounter.clone(),
        judge: None,
        difficulty: None,
        success: String::new(),
        failure: String::new(),
        retry: String::new(),
    }
}

/// What the area stocking needs besides the area and its dice.
pub(crate) struct Stocking<'t> {
    pub d: &'t Nw3Data,
    pub chart: &'t RollTable,
    pub cl: u32,
    pub party: u32,
    /// The party the enemies' stat blocks are tuned to.
    pub foes: combat::PartyModel,
    /// The ids of the areas the party reaches only after the Ruler's fight (or not surely at
    /// all), sorted: see [`late_areas`].
    pub late: Vec<u32>,
}

/// The ids of the areas of `ids` outside `before` (positions as in `ids`), sorted.
pub(crate) fn late_areas(ids: &[u32], before: Option<&crate::nw3::net::Set>) -> Vec<u32> {
    let mut late: Vec<u32> =
        ids.iter().enumerate().filter(|&(i, _)| before.is_none_or(|b| !b.contains(i))).map(|(_, &id)| id).collect();
    late.sort_unstable();
    late
}

/// Fills an empty area of its kind, in the generator's order of rolls: the Ruler encounter when
/// `ruler` is given (the Ruler's Event area), the Gate Release Device of `device` in an Object
/// area, and the Danger Sense difficulty that follows from the contents.
pub(crate) fn stock(
    s: &Stocking,
    area: &mut Area,
    device: Option<GateRef>,
    ruler: Option<&RulerRecord>,
    dice: &mut Dice,
    used: &mut Used,
) {
    let Stocking { d, chart, cl, party, foes, ref late } = *s;
    let late = late.binary_search(&area.id).is_ok();
    match area.kind {
        AreaKind::Entrance => {}
        AreaKind::Normal => area.event = fresh_chart_event(chart, cl, dice, &mut used.chart),
        AreaKind::Object => {
            area.objects = objects(d, area.kind, device, late, dice, &mut used.objects);
            area.event = fresh_chart_event(chart, cl, dice, &mut used.chart);
        }
        AreaKind::Trap => area.trap = trap(d, cl, dice, &mut used.traps),
        AreaKind::Event => {
            area.event = match ruler {
                Some(r) => Some(ruler_event(r)),
                None => scenario_event(d, cl, dice, &mut used.events),
            }
        }
        AreaKind::Enemy => area.enemies.extend(enemy_group(d, cl, party, foes, dice, &mut used.enemies)),
        AreaKind::Core => {
            area.enemies.extend(enemy_group(d, cl, party, foes, dice, &mut used.enemies));
            area.objects = objects(d, area.kind, None, late, dice, &mut used.objects);
        }
    }
    area.danger_sense = Some(combat::danger_sense(area).0);
}
