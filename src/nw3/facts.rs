//! The episode's facts that many texts tell, each decided once (issue 47, the GM's count of
//! places to reconcile): who the victim is and that there is one, what draws each PC in, the
//! sex of the Ruler's former self, the first sign of the Logic in force and what an event's
//! set-up promises. Each is one fact of the plan or of a table record, and every text that
//! tells it is drawn or checked against that fact:
//!
//! - the victim: one named person (`{victim}`); no stored text outside the finale speaks of
//!   several victims or of a "first" one ([`victim_count`]);
//! - a Handout's hook names the victim, the Fortress's place, the Ruler or the Core, so it gives
//!   the PC a reason to act in this episode ([`validate_hooks`] at load, [`empty_hooks`]);
//! - the former self's sex: the persona's (read from its own description and encounter), which
//!   the former life and the former name are drawn to agree with ([`persona_sex`],
//!   [`two_names`]);
//! - the Logic's first sign: one of the signs its own record writes ([`logic_sign`]);
//! - an event's set-up: the stake of what clearing it does, a gate or its reward
//!   (`events::setup_text`).
//!
//! `check` runs the same rules ([`problems`]).

use crate::dice::Dice;
use crate::nw3::model::{EventKind, Fortress};
use crate::tables::nw3::{Nw3Data, RulerRecord, SignRecord};
use crate::tables::nw3_episode::{EpisodeData, Plant, Sex};

pub use crate::tables::nw3_episode::{HOOK_TIES, validate_hooks};

/// Words that tell of more than the one victim (or of a first of several): no text outside the
/// finale may use them, since the plan has one victim.
pub const MANY_VICTIMS: [&str; 6] =
    ["victims", "first victim", "vanishings", "the missing of", "three people", "others who were taken"];

/// The sex a Ruler's persona tells of by the pronouns of its own description and encounter
/// ("He screens ...", "A woman in mourning black ..."); `None` for an "it" or for both.
pub fn persona_sex(r: &RulerRecord) -> Option<Sex> {
    let (mut he, mut she) = (0, 0);
    for word in r.description.split(|c: char| !c.is_alphabetic()).chain(r.encounter.split(|c: char| !c.is_alphabetic()))
    {
        match word.to_lowercase().as_str() {
            "he" | "him" | "his" | "himself" | "man" => he += 1,
            "she" | "her" | "hers" | "herself" | "woman" | "girl" => she += 1,
            _ => {}
        }
    }
    match (he > 0, she > 0) {
        (true, false) => Some(Sex::Male),
        (false, true) => Some(Sex::Female),
        _ => None,
    }
}

/// Whether a part of sex `part` may stand beside a fact of sex `fact` (either unknown fits).
pub fn agrees(part: Option<Sex>, fact: Option<Sex>) -> bool {
    part.is_none() || fact.is_none() || part == fact
}

/// The sex the Ruler's former self is: its persona's, else its former life's.
pub fn former_sex(d: &Nw3Data, ruler: &str, life: &str) -> Option<Sex> {
    d.ruler(ruler).and_then(persona_sex).or_else(|| life_sex(&d.episode, life))
}

/// The sex the former life `life` tells of, if the pool's entry records one.
fn life_sex(e: &EpisodeData, life: &str) -> Option<Sex> {
    e.former_life.iter().find(|l| l.text == life).and_then(|l| l.sex)
}

/// The sex of the given name that opens `name`, if the pool records one.
fn name_sex(e: &EpisodeData, name: &str) -> Option<Sex> {
    let given = name.split_whitespace().next()?;
    e.given_name.iter().find(|g| g.text == given).and_then(|g| g.sex)
}

/// The Ruler's former name, of sex `sex` (any when `None`), and the victim's, each a given and a
/// family name, different (the pools hold at least two of each, one of either sex or none).
pub fn two_names(e: &EpisodeData, sex: Option<Sex>, dice: &mut Dice) -> (String, String) {
    let fits: Vec<usize> = (0..e.given_name.len()).filter(|&i| agrees(e.given_name[i].sex, sex)).collect();
    let fits = if fits.is_empty() { (0..e.given_name.len()).collect() } else { fits };
    let former = fits[dice.below(fits.len() as u32) as usize];
    let others: Vec<usize> = (0..e.given_name.len()).filter(|&i| i != former).collect();
    let victim = others[dice.below(others.len() as u32) as usize];
    let families = dice.deal(e.family_name.len(), 2);
    let name = |g: usize, f: usize| format!("{} {}", e.given_name[g].text, e.family_name[f].text);
    (name(former, families[0]), name(victim, families[1 % families.len()]))
}

/// The first sign of the Logic in force first, drawn on `dice` from its record's own signs:
/// the scene's title and text, when the tables write any.
pub fn logic_sign<'a>(d: &'a Nw3Data, f: &Fortress, dice: &mut Dice) -> Option<&'a SignRecord> {
    dice.choose(&d.logic(&f.logic.first()?.name)?.signs)
}

/// Every handout whose hook, as filled (`filled`: [`crate::nw3::text::filled`]; older files
/// stored their texts filled), names none of the episode's ties: the victim, the Entrance's
/// place, the Ruler or the Core. Its PC and the hook.
pub fn empty_hooks(filled: &Fortress) -> Vec<(u32, String)> {
    let Some(e) = &filled.episode else { return vec![] };
    let place = filled.entrance().map_or("", |a| a.name.as_str());
    let ties = [e.victim.as_str(), place, filled.ruler.name.as_str(), filled.core.name.as_str()];
    e.handouts
        .iter()
        .filter(|h| !ties.iter().any(|t| !t.trim().is_empty() && h.hook.contains(t)))
        .map(|h| (h.pc, h.hook.clone()))
        .collect()
}

/// Every text of the episode outside the finale (the Climax and the endings are the finale's)
/// that tells of more than one victim, as filled: where it is and the words.
pub fn victim_count(filled: &Fortress) -> Vec<(String, &'static str)> {
    let Some(e) = &filled.episode else { return vec![] };
    let mut texts: Vec<(String, &str)> = vec![("the trailer".into(), filled.trailer.as_str())];
    for (what, t) in [
        ("the Ruler's former life", &e.past.life),
        ("the Ruler's place reason", &e.past.place_reason),
        ("the Ruler's victim reason", &e.past.victim_reason),
    ] {
        texts.push((what.into(), t.as_str()));
    }
    for h in &e.handouts {
        texts.push((format!("handout {}'s hook", h.pc), h.hook.as_str()));
        texts.push((format!("handout {}'s Connection", h.pc), h.connection.who.as_str()));
    }
    for (i, s) in e.opening.iter().enumerate() {
        texts.push((format!("opening scene {}", i + 1), s.text.as_str()));
        texts.push((format!("opening scene {}'s words", i + 1), s.says.as_str()));
    }
    for (i, m) in e.middle.iter().enumerate() {
        texts.push((format!("middle scene {}", i + 1), m.text.as_str()));
    }
    for (i, l) in e.legwork.iter().enumerate() {
        texts.push((format!("legwork {}", i + 1), l.text.as_str()));
    }
    let mut out = Vec::new();
    for (place, t) in texts {
        let low = t.to_lowercase();
        if let Some(w) = MANY_VICTIMS.iter().find(|w| low.contains(*w)) {
            out.push((place, *w));
        }
    }
    out
}

/// Every way `f` breaks the rules of this module: (place, rule, message). `filled` is `f` with
/// its texts filled ([`crate::nw3::text::filled`]).
pub fn problems(f: &Fortress, filled: &Fortress, d: &Nw3Data) -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    let Some(e) = &f.episode else { return out };
    for (pc, hook) in empty_hooks(filled) {
        let m = format!(
            "the hook names no person, place or stake of the episode (the victim, the Fortress's place, the Ruler or the Core): \"{hook}\""
        );
        out.push((format!("handout {pc}"), "episode.hook", m));
    }
    for (place, w) in victim_count(filled) {
        let m = format!("{place} speaks of more than the episode's one victim (\"{w}\")");
        out.push(("episode".into(), "episode.victim-count", m));
    }
    let sex = former_sex(d, &f.ruler.name, &e.past.life);
    let named = name_sex(&d.episode, &e.past.former);
    if !agrees(named, sex) {
        let m = format!(
            "the former name `{}` is of the other sex than {} as its persona and former life tell it",
            e.past.former, f.ruler.name
        );
        out.push(("episode".into(), "episode.former-sex", m));
    }
    if let Some(life) = life_sex(&d.episode, &e.past.life)
        && let Some(p) = d.ruler(&f.ruler.name).and_then(persona_sex)
        && life != p
    {
        let m = format!("the former life `{}` is of the other sex than the persona {}", e.past.life, f.ruler.name);
        out.push(("episode".into(), "episode.former-sex", m));
    }
    logic_sign_problems(f, d, &mut out);
    event_setups(f, d, &mut out);
    out
}

/// The Opening scene that shows the Logic's first sign shows none of a Logic the Casket does
/// not hold (a scene drawn from the general pool, as older files have, shows no Logic's own).
fn logic_sign_problems(f: &Fortress, d: &Nw3Data, out: &mut Vec<(String, &'static str, String)>) {
    let Some(e) = &f.episode else { return };
    if f.logic.is_empty() {
        return; // no Logic in force is `logic.count`'s to report
    }
    let others = d.logics.iter().filter(|l| !f.logic.iter().any(|x| x.name == l.name));
    for (l, sign) in others.flat_map(|l| l.signs.iter().map(move |x| (l, x))) {
        if let Some(i) = e.opening.iter().position(|s| s.plants == Plant::Logic && s.text.contains(sign.text.as_str()))
        {
            let m = format!("the scene shows the sign of the Logic \"{}\", which this Casket does not hold", l.name);
            out.push((format!("opening scene {}", i + 1), "episode.logic-sign", m));
        }
    }
}

/// A scenario event's set-up promises what clearing it does: not the stake of opening a gate
/// when it opens none, nor its reward's when it opens one.
fn event_setups(f: &Fortress, d: &Nw3Data, out: &mut Vec<(String, &'static str, String)>) {
    for a in &f.areas {
        let Some(ev) = a.event.as_ref().filter(|e| e.kind == EventKind::Scenario) else { continue };
        let Some(r) = d.event(&ev.name) else { continue };
        let opens = crate::nw3::events::gates_opened_by(&f.gates, a.id);
        let other = crate::nw3::events::setup_text(r, opens.is_empty());
        if other != r.text && ev.text == other {
            let gives = if opens.is_empty() { "gives its reward" } else { "opens a gate" };
            let m = format!("the set-up of `{}` promises what the event does not give: clearing it {gives}", ev.name);
            out.push((format!("area {}", a.id), "event.setup", m));
        }
    }
}
