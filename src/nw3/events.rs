//! A scenario event's judge and outcomes, all from its own record (issue 47): its difficulty by
//! the judge rule (ordinary when it opens a gate, which may be the only way onward), what success
//! shows (the record's scene, then the gates it opens by their kind, or its reward), failure and
//! a second try. The generator, the workbench, `fix` and `check` all use these, so an event never
//! borrows another's outcome. Apart from the stocking (`stock`) because `check` reads it too and
//! the stocking reads `check`'s chart helpers (no module circle).

use crate::nw3::judges::fill_judges;
use crate::nw3::model::{Event, EventKind, Fortress, Gate, GateKind, Opener};
use crate::nw3::rules::{Hardness, judge_difficulty};
use crate::tables::nw3::{EventRecord, Nw3Data};

/// The gates that clearing the event of area `id` opens or reveals.
pub(crate) fn gates_opened_by(gates: &[Gate], id: u32) -> Vec<&Gate> {
    gates.iter().filter(|g| g.opened_by == Some(Opener::Event(id))).collect()
}

/// A scenario event's hardness: its record's, but ordinary when clearing it opens a gate, which
/// may be the only way onward.
pub(crate) fn event_hardness(r: &EventRecord, opens: &[&Gate]) -> Hardness {
    if opens.is_empty() { r.hardness } else { Hardness::Ordinary }
}

/// What success, failure and a second try of a scenario event mean, all from its own record `r`:
/// success is the record's scene and then the gates it opens (`opens`, named by their kind), or
/// the record's reward when it opens none; costs are filled for the party's level `cl`.
pub(crate) fn outcome_texts(r: &EventRecord, cl: u32, opens: &[&Gate]) -> (String, String, String) {
    let then = if opens.is_empty() {
        fill_judges(&r.reward, cl)
    } else {
        let each: Vec<String> = opens
            .iter()
            .map(|g| match g.kind {
                GateKind::Secret => {
                    format!("the Secret Gate {} shows itself and can be used for the rest of the Dive", g.label())
                }
                GateKind::Closed => format!("the Closed Gate {} opens and stays open", g.label()),
                k => format!("the {} {} can be used", k.label(), g.label()),
            })
            .collect();
        let joined = each.join("; ");
        let mut first = joined.chars();
        first.next().map_or(String::new(), |c| c.to_uppercase().chain(first).collect::<String>() + ".")
    };
    (format!("{} {then}", r.success), fill_judges(&r.failure, cl), fill_judges(&r.retry, cl))
}

/// A scenario event's set-up: the record's scene, then the stake of what clearing it does (the
/// way onward when `opens_gate`, else its reward), so the set-up never promises what the
/// success does not give. Just the scene for a record that writes no stakes.
pub(crate) fn setup_text(r: &EventRecord, opens_gate: bool) -> String {
    let stake = if opens_gate { &r.stake_gate } else { &r.stake_reward };
    if stake.trim().is_empty() { r.text.clone() } else { format!("{} {stake}", r.text) }
}

/// Sets a scenario event's set-up, difficulty and outcome texts from its own record.
pub(crate) fn set_outcome(e: &mut Event, r: &EventRecord, cl: u32, opens: &[&Gate]) {
    e.text = setup_text(r, !opens.is_empty());
    e.difficulty = Some(judge_difficulty(cl, event_hardness(r, opens)));
    (e.success, e.failure, e.retry) = outcome_texts(r, cl, opens);
}

/// Every scenario event's difficulty by the judge rule, and its outcome texts from its own
/// record: always when `rewrite` (what `fix` does, as for every text the tables give by name: the
/// gates an event opens may have changed by hand, and its success must name them), else only
/// where it has none (the upgrade of an older file keeps the texts it holds).
pub(crate) fn settle_events(d: &Nw3Data, f: &mut Fortress, rewrite: bool) {
    let cl = f.params.cl;
    for a in &mut f.areas {
        let Some(e) = a.event.as_mut().filter(|e| e.kind == EventKind::Scenario) else { continue };
        let Some(r) = d.event(&e.name) else { continue };
        let opens = gates_opened_by(&f.gates, a.id);
        if rewrite || (e.success.is_empty() && e.failure.is_empty() && e.retry.is_empty()) {
            set_outcome(e, r, cl, &opens);
        } else {
            e.difficulty = Some(judge_difficulty(cl, event_hardness(r, &opens)));
        }
    }
}

/// The difficulty and outcomes of the scenario event of area `pos` alone (a workbench reroll of
/// the area or its event), by the same rule as [`event_outcomes`].
pub(crate) fn area_outcome(d: &Nw3Data, f: &mut Fortress, pos: usize) {
    let cl = f.params.cl;
    let a = &mut f.areas[pos];
    let Some(e) = a.event.as_mut().filter(|e| e.kind == EventKind::Scenario) else { return };
    let Some(r) = d.event(&e.name) else { return };
    let opens = gates_opened_by(&f.gates, a.id);
    set_outcome(e, r, cl, &opens);
}

/// Gives every scenario event of the fortress (but those of locked areas, kept exactly by
/// `fortress --from`) its difficulty and outcomes from its own record, now that the gates it
/// opens are known. No dice: the record decides it all.
pub fn event_outcomes(d: &Nw3Data, f: &mut Fortress) {
    let cl = f.params.cl;
    for a in f.areas.iter_mut().filter(|a| !a.locked) {
        let Some(e) = a.event.as_mut().filter(|e| e.kind == EventKind::Scenario) else { continue };
        let Some(r) = d.event(&e.name) else { continue };
        let opens = gates_opened_by(&f.gates, a.id);
        set_outcome(e, r, cl, &opens);
    }
}
