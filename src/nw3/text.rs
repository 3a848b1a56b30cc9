//! The fortress's texts as they are read: every stored text (title, trailer, Entrance, the
//! episode's handouts, scenes, legwork, Climax and endings) keeps its slots in the JSON, and is
//! filled here, from the fortress as it then stands, each time a booklet, a map, a room or the
//! workbench is made. A renamed area, Ruler, Core, victim or Connection is so renamed in every
//! sentence that names it ([`crate::text`] is the one rule of filling).
//!
//! The values: `{town}`, `{victim}`, `{former}`, `{wish}`, `{keyword}`, `{item}` from the
//! episode; `{place}` (the Entrance area's name), `{ruler}`, `{core}` from the fortress; `{npc}`
//! and `{pc}` (the text's own handout, else PC 1's); `{where}` (where the Entrance item is
//! found). Texts the generator writes itself also use typed references: `{area:7}` ("area 7
//! (Flooded Platform)"), `{victim_area}` (the area where the victim is held, the same way),
//! `{npc:2}` (PC 2's Connection), `{logic:1}` (the first Logic, quoted,
//! with its effect), `{gate:3-5}` (how the gate from 3 to 5 is opened), and the Ruler's past as
//! it reads (`{life}`, `{place_reason}`, `{victim_reason}`) and the Entrance's words
//! (`{entrance}`); the finale's own sentences (`{lair}`, `{lair_description}`, `{stand}`,
//! `{won}`, `{core_first}`, `{free}`, `{fate:WAY}`, see [`crate::nw3::finale::said`]).

use std::borrow::Cow;

use crate::nw3::model::{Episode, EventKind, Fortress};
use crate::text::{Values, fill};

/// The fortress's facts that the slots name, as it stands.
struct Facts<'f> {
    f: &'f Fortress,
    e: Option<&'f Episode>,
    /// The handout a text belongs to (index), for `{npc}` and `{pc}`.
    handout: usize,
    /// Texts filled once, from the plain facts, that other texts name.
    made: Made,
}

/// The texts other texts name, each filled once from the plain facts (never again).
#[derive(Default)]
struct Made {
    place_where: String,
    life: String,
    place_reason: String,
    victim_reason: String,
    entrance: String,
}

impl<'f> Facts<'f> {
    fn new(f: &'f Fortress) -> Facts<'f> {
        let mut facts = Facts { f, e: f.episode.as_ref(), handout: 0, made: Made::default() };
        let made = Made {
            place_where: facts
                .e
                .and_then(|e| e.item.as_ref())
                .map_or_else(String::new, |i| fill(&i.where_found, &facts)),
            life: facts.e.map_or_else(String::new, |e| fill(&e.past.life, &facts)),
            place_reason: facts.e.map_or_else(String::new, |e| fill(&e.past.place_reason, &facts)),
            victim_reason: facts.e.map_or_else(String::new, |e| fill(&e.past.victim_reason, &facts)),
            entrance: fill(&f.entrance_condition.text, &facts),
        };
        facts.made = made;
        facts
    }

    /// Logic `n` (1 for the first; the last when the GM has taken some out).
    fn logic(&self, n: &str) -> Option<&'f crate::nw3::model::Logic> {
        let n = n.parse::<usize>().ok()?.checked_sub(1)?;
        self.f.logic.get(n).or(self.f.logic.last())
    }

    fn connection(&self, i: usize) -> Option<&'f str> {
        self.e?.handouts.get(i).map(|h| h.connection.name.as_str())
    }
}

impl Values for Facts<'_> {
    fn value(&self, name: &str, arg: Option<&str>) -> Option<Cow<'_, str>> {
        let f = self.f;
        let e = self.e;
        let v: Cow<str> = match (name, arg) {
            ("place", None) => f.entrance().map_or("", |a| a.name.as_str()).into(),
            ("ruler", None) => f.ruler.name.as_str().into(),
            ("core", None) => f.core.name.as_str().into(),
            ("town", None) => e?.town.as_str().into(),
            ("victim", None) => e?.victim.as_str().into(),
            ("former", None) => e?.past.former.as_str().into(),
            ("wish", None) => e?.past.wish.as_str().into(),
            ("keyword", None) => e?.keyword.as_ref().map_or("", |k| k.word.as_str()).into(),
            ("item", None) => e?.item.as_ref().map_or("", |i| i.name.as_str()).into(),
            ("npc", None) => self.connection(self.handout).or_else(|| self.connection(0))?.into(),
            ("pc", None) => format!("PC {}", self.handout + 1).into(),
            ("npc", Some(n)) => self.connection(n.parse::<usize>().ok()?.checked_sub(1)?)?.into(),
            ("where", None) => self.made.place_where.as_str().into(),
            ("life", None) => self.made.life.as_str().into(),
            ("place_reason", None) => self.made.place_reason.as_str().into(),
            ("victim_reason", None) => self.made.victim_reason.as_str().into(),
            ("entrance", None) => self.made.entrance.as_str().into(),
            // Where the victim is held, by the one rule of it (`Fortress::victim_area`).
            ("victim_area", None) => {
                let a = f.victim_area()?;
                format!("area {} ({})", a.id, a.name).into()
            }
            ("area", Some(id)) => {
                let id: u32 = id.parse().ok()?;
                format!("area {id} ({})", f.area(id)?.name).into()
            }
            // A GM who takes Logics out (`check` warns of the count) leaves the texts readable.
            ("logic", Some(n)) => self.logic(n).map_or("\"(none)\"".into(), |l| format!("\"{}\"", l.name).into()),
            ("logic_effect", Some(n)) => {
                self.logic(n).map_or("this Casket holds no Logic.", |l| l.effect.as_str()).into()
            }
            // The finale's own sentences and the Ruler's area (the one plan of the finale).
            ("lair" | "lair_description" | "stand" | "won" | "core_first" | "free", None) | ("fate", Some(_)) => {
                crate::nw3::finale::said(f, name, arg)?.into()
            }
            ("gate", Some(ends)) => {
                let (a, b) = ends.split_once('-')?;
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                let g = f.gates.iter().find(|g| g.from == a && g.to == b)?;
                g.opened_by
                    .map_or_else(|| "Danger Sense 15".into(), |o| crate::nw3::opener::opener_words(f, o).deed.into())
            }
            _ => return None,
        };
        Some(v)
    }
}

/// Where a stored text sits, for a message: "the trailer", "handout 2's hook".
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub what: &'static str,
    /// The entry of a list it is in (1 for the first), if it is in one.
    pub n: Option<usize>,
}

impl std::fmt::Display for Place {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.n {
            Some(n) => write!(out, "{} {n}", self.what),
            None => out.write_str(self.what),
        }
    }
}

/// Calls `visit` on every stored text of `f` with its place and its handout (0 when it has
/// none of its own), in one fixed order.
fn each_text(f: &mut Fortress, mut visit: impl FnMut(Place, usize, &mut String)) {
    let at = |what, n: usize| Place { what, n: Some(n + 1) };
    let one = |what| Place { what, n: None };
    visit(one("title"), 0, &mut f.title);
    visit(one("trailer"), 0, &mut f.trailer);
    visit(one("entrance condition"), 0, &mut f.entrance_condition.text);
    // The Ruler's encounter is named after the Ruler (`{ruler}`), so a renamed Ruler is its name.
    for a in &mut f.areas {
        if let Some(ev) = a.event.as_mut().filter(|ev| ev.kind == EventKind::Ruler) {
            visit(Place { what: "name of the Ruler's event in area", n: Some(a.id as usize) }, 0, &mut ev.name);
        }
    }
    let Some(e) = f.episode.as_mut() else { return };
    for (what, t) in [
        ("Ruler's former life", &mut e.past.life),
        ("Ruler's place reason", &mut e.past.place_reason),
        ("Ruler's victim reason", &mut e.past.victim_reason),
    ] {
        visit(one(what), 0, t);
    }
    if let Some(k) = e.keyword.as_mut() {
        visit(one("keyword origin"), 0, &mut k.origin);
    }
    if let Some(i) = e.item.as_mut() {
        visit(one("Entrance item's place"), 0, &mut i.where_found);
    }
    for (n, h) in e.handouts.iter_mut().enumerate() {
        visit(at("hook of handout", n), n, &mut h.hook);
        visit(at("Connection of handout", n), n, &mut h.connection.who);
    }
    for (n, s) in e.opening.iter_mut().enumerate() {
        // A PC's Opening scene is filled as that PC's handout (`{pc}`, `{npc}`).
        let own = s.pc.saturating_sub(1) as usize;
        visit(at("title of opening scene", n), own, &mut s.title);
        visit(at("opening scene", n), own, &mut s.text);
        visit(at("place of opening scene", n), own, &mut s.at);
        visit(at("Connection's words in opening scene", n), own, &mut s.says);
        visit(at("Connection's knowledge in opening scene", n), own, &mut s.knows);
    }
    for (n, m) in e.middle.iter_mut().enumerate() {
        visit(at("title of middle scene", n), 0, &mut m.title);
        visit(at("middle scene", n), 0, &mut m.text);
    }
    for (n, l) in e.legwork.iter_mut().enumerate() {
        visit(at("title of legwork item", n), 0, &mut l.title);
        visit(at("legwork item", n), 0, &mut l.text);
        visit(at("Connection of legwork item", n), 0, &mut l.connection);
        visit(at("reveal of legwork item", n), 0, &mut l.reveals);
    }
    visit(one("Climax setting"), 0, &mut e.climax.setting);
    visit(one("Ruler's line"), 0, &mut e.climax.line);
    for (n, t) in e.endings.iter_mut().enumerate() {
        visit(at("ending", n), 0, &mut t.text);
    }
    if let Some(c) = e.captive.as_mut() {
        visit(one("victim's area text"), 0, &mut c.text);
    }
}

/// The fortress with every stored text filled from its facts as they stand: what every
/// renderer and the workbench read (files older than format 5 stored their texts filled: they
/// hold no slot and read as they are).
pub fn filled(f: &Fortress) -> Fortress {
    let mut facts = Facts::new(f);
    let mut out = f.clone();
    each_text(&mut out, |_, handout, t| {
        facts.handout = handout;
        if t.contains('{') {
            *t = fill(t, &facts);
        }
    });
    out
}

/// Every slot of a stored text that names nothing in the fortress (an unknown name, an area or
/// handout that is not there): where it is and the slot as written. `check` reports each.
pub fn unresolved(f: &Fortress) -> Vec<(Place, String)> {
    let mut facts = Facts::new(f);
    let mut out = Vec::new();
    // The walk takes `&mut` to serve `filled` too: a copy is walked.
    each_text(&mut f.clone(), |place, handout, t| {
        facts.handout = handout;
        for s in crate::text::slots(t) {
            if facts.value(s.name, s.arg).is_none() {
                out.push((place, t[s.start..s.end].to_string()));
            }
        }
    });
    out
}
