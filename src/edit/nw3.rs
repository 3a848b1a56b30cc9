//! The NW3 workbench: reroll one part of a Fortress on its own dice stream, replay the recorded
//! rerolls, and roll everything unlocked anew (`fortress --from`).
//!
//! A reroll draws from `Dice::new(seed).child("reroll/<part>/<n>")`, where `n` is one more than the
//! number of earlier rerolls of the same part, and appends `{part, n}` to `rerolls`; the same seed,
//! options and reroll list therefore give the same bytes. Every reroll is drawn with the pieces the
//! generator stocks areas with ([`crate::nw3::stock`]), so the new part is something the generator
//! could have made, and the result must pass [`check`] (a reroll that would add a violation is an
//! error and the fortress is left unchanged).
//!
//! What each part holds (and what follows it):
//! - `areaN/enemies` (Enemy areas and the Fortress Core): a new group whose CL range holds the
//!   party's character level, with the combat stat blocks for the party. The GM's notes on the old
//!   groups stay with the new groups in order (notes beyond the new groups join the last one, and
//!   join the area's notes when a whole-area reroll leaves no group).
//! - `areaN/trap` (Trap areas): a new trap, Detection and Removal on the party's CL band.
//! - `areaN/event`: a Normal or Object area rolls the 2D6 Area Event Chart again (moved on to a
//!   result the fortress does not hold, while there is one); an Event area draws a new scenario
//!   event, with what success and failure of its judge do. Gates name the area
//!   whose event opens or reveals them, not the event, and every scenario event can be cleared, so
//!   those gates keep working. The Ruler encounter is not an area part: it follows the `frame`.
//! - `areaN/objects` (Object areas and the Core): a Gate Release Device stays where it is (the
//!   closed gate it opens lies outside the part); the other objects are rolled anew.
//! - `areaN`: the whole area: its kind, name and description, and all its contents. The kind is
//!   kept where the rest of the fortress depends on it (the Entrance, the Core, the Ruler's area,
//!   an Event area whose event opens or reveals a gate, an Object area holding a release device)
//!   and otherwise drawn from the area-kind weights; the name is a location no other area uses.
//!   The Entrance holds nothing and its name is the fortress's place in the title, so `area1`
//!   (the Entrance) is refused.
//! - `frame`: the title and trailer, the Ruler (motive and stat block; the encounter event in the
//!   Ruler's area follows), the Lunar Casket Logics, the entrance condition and the Fortress Core
//!   (name and description). When the Ruler's area is locked the Ruler stays.
//!
//! In every case the area's Danger Sense difficulty follows its contents; the gates, area ids,
//! appearance difficulties and optional marks never change, nor does anything outside the part.
//! The GM's notes on the area are kept. A locked area or the locked frame refuses with one line.
//!
//! [`replay`] applies recorded rerolls without looking at locks: the record is history, made
//! before any lock that may have been set since.
//!
//! [`regenerate`] (`fortress --from FILE --seed N`) with no lock at all is a fresh [`generate`].
//! With only the frame locked it is a fresh generate with the frame put back (the Entrance keeps
//! its name, which the title names). With any area locked, the gate graph and the area kinds are
//! kept (a locked area's content may open a gate or depend on where it stands); locked areas are
//! kept exactly and every unlocked area gets a new name and contents from the new seed, on the
//! generator's own streams (the GM's notes on them stay: the area is the same place in the graph);
//! the frame is rolled anew unless locked. A fresh fortress has fresh areas, without notes. If the locked parts cannot be
//! part of a legal fortress (a hand-edited locked area that breaks a rule, a locked Ruler's area
//! whose encounter is not the locked frame's Ruler), one line names the lock.

use crate::nw3::net::Net;
use std::fmt;
use std::str::FromStr;

use crate::check::Violation;
use crate::dice::Dice;
use crate::edit::PartOptions;
use crate::error::{Error, Result};
use crate::model::Reroll;
use crate::nw3::check::check;
use crate::nw3::combat;
use crate::nw3::generate::{Common, NUMERALS, frame, generate};
use crate::nw3::model::{Area, AreaKind, EnemyGroup, EventKind, Fortress, GateRef, Generator, Opener};
use crate::nw3::stock::{self, Stocking, Used};
use crate::tables::Tables;
use crate::tables::nw3::{AREA_EVENT_TABLE, Nw3Data, RandomKind};

/// Which part of an area to reroll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaPart {
    /// Kind (where free), name, description and every content.
    All,
    Enemies,
    Trap,
    Event,
    Objects,
}

/// Each area part and its name in a path (`area5/enemies`) and in `--part`: written once here.
const AREA_PARTS: [(AreaPart, &str); 5] = [
    (AreaPart::All, "all"),
    (AreaPart::Enemies, "enemies"),
    (AreaPart::Trap, "trap"),
    (AreaPart::Event, "event"),
    (AreaPart::Objects, "objects"),
];

impl AreaPart {
    /// The part of this name (`all` for the whole area).
    pub fn named(name: &str) -> Option<AreaPart> {
        AREA_PARTS.iter().find(|(_, n)| *n == name).map(|(p, _)| *p)
    }

    /// The part's name (`all` for the whole area).
    pub fn name(self) -> &'static str {
        AREA_PARTS.iter().find(|(p, _)| *p == self).map_or("all", |(_, n)| n)
    }
}

/// A part of a Fortress, written as a path: `area5`, `area5/enemies`, `area5/trap`, `area5/event`,
/// `area5/objects`, `frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nw3Part {
    Area { id: u32, what: AreaPart },
    Frame,
}

const PARTS: &str = "`areaN`, `areaN/enemies`, `areaN/trap`, `areaN/event`, `areaN/objects` or `frame`";

impl FromStr for Nw3Part {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let bad = || Error::Edit { what: format!("reroll `{s}`"), message: format!("not a fortress part ({PARTS})") };
        if s == "frame" {
            return Ok(Nw3Part::Frame);
        }
        let rest = s.strip_prefix("area").ok_or_else(bad)?;
        let (num, what) = match rest.split_once('/') {
            Some((num, what)) => (num, Some(what)),
            None => (rest, None),
        };
        // Digits only, no leading zero: the recorded path is the one `Display` prints.
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.starts_with('0') {
            return Err(bad());
        }
        let id: u32 = num.parse().map_err(|_| bad())?;
        let what = AreaPart::named(what.unwrap_or("all")).ok_or_else(bad)?;
        Ok(Nw3Part::Area { id, what })
    }
}

impl fmt::Display for Nw3Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Nw3Part::Frame => f.write_str("frame"),
            Nw3Part::Area { id, what } => {
                write!(f, "area{id}")?;
                match what {
                    AreaPart::All => Ok(()),
                    part => write!(f, "/{}", part.name()),
                }
            }
        }
    }
}

/// The NW3 part the reroll options name; invalid combinations name the option at fault.
pub fn part_from_options(args: &PartOptions) -> Result<Nw3Part> {
    let file = args.file;
    if let Some(field) = [(args.map.is_some(), "map"), (args.room.is_some(), "room")]
        .into_iter()
        .find_map(|(given, f)| given.then_some(f))
    {
        return Err(Error::Option {
            field,
            message: format!("`{file}` is a Night Wizard fortress: its parts are areas and the frame"),
        });
    }
    let part = args.part;
    match (args.area, args.frame) {
        (Some(_), true) => {
            Err(Error::Option { field: "frame", message: "rerolls the frame alone, not an area with it".into() })
        }
        (None, false) => Err(Error::Option {
            field: "area",
            message: format!("say what to reroll in `{file}`: an area or the frame"),
        }),
        (None, true) => match part.filter(|p| *p != "all") {
            Some(p) => Err(Error::Option {
                field: "part",
                message: format!("`{p}` is a part of an area; the frame is rerolled whole"),
            }),
            None => Ok(Nw3Part::Frame),
        },
        (Some(id), false) => {
            let p = part.unwrap_or("all");
            let what = AreaPart::named(p).ok_or_else(|| {
                let names: Vec<&str> = AREA_PARTS.iter().skip(1).map(|(_, n)| *n).collect();
                Error::Option {
                    field: "part",
                    message: format!("`{p}` is not a part of a Night Wizard area; use {} or all", names.join(", ")),
                }
            })?;
            Ok(Nw3Part::Area { id, what })
        }
    }
}

fn refuse(part: &Nw3Part, message: impl Into<String>) -> Error {
    Error::Edit { what: format!("reroll `{part}`"), message: message.into() }
}

/// Rerolls `part` on its own stream (see the module docs); appends the reroll to `f.rerolls`.
/// Fails, leaving `f` unchanged, when the part is locked, does not exist in this fortress, or no
/// legal result exists.
pub fn reroll(tables: &Tables, f: &mut Fortress, part: &Nw3Part) -> Result<()> {
    match *part {
        Nw3Part::Frame if f.frame_locked => {
            return Err(refuse(part, "the frame is locked (`frame_locked`); unlock it to reroll"));
        }
        Nw3Part::Area { id, .. } if f.area(id).is_some_and(|a| a.locked) => {
            return Err(refuse(part, format!("area {id} is locked; unlock it to reroll")));
        }
        _ => {}
    }
    let n = next_n(f, part);
    apply(tables, f, part, n)
}

/// The NW3 content a reroll draws from (tables given with `--tables` may lack it).
fn require_content(tables: &Tables) -> Result<()> {
    if tables.nw3.is_empty() {
        return Err(Error::TableFile {
            file: tables.origin.clone(),
            message: "holds no NW3 fortress content (`[nw3]` sections)".into(),
        });
    }
    Ok(())
}

/// Replays a reroll list in order (on a freshly generated fortress: what `fortress --seed N` plus
/// the recorded rerolls gives). Locks are not consulted; each entry's `n` must be the count of
/// that part's rerolls so far plus one.
pub fn replay(tables: &Tables, f: &mut Fortress, rerolls: &[Reroll]) -> Result<()> {
    for r in rerolls {
        let part: Nw3Part = r.part.parse()?;
        let n = next_n(f, &part);
        if r.n != n {
            return Err(refuse(&part, format!("recorded as reroll {} of this part, but it is reroll {n}", r.n)));
        }
        apply(tables, f, &part, n)?;
    }
    Ok(())
}

/// One more than the rerolls of the same part recorded so far.
fn next_n(f: &Fortress, part: &Nw3Part) -> u32 {
    let path = part.to_string();
    let earlier = f.rerolls.iter().filter(|r| r.part.parse::<Nw3Part>().is_ok_and(|p| p.to_string() == path)).count();
    u32::try_from(earlier).unwrap_or(u32::MAX).saturating_add(1)
}

/// Rerolls the part on stream `n` into a copy, checks it, and only then replaces `f`.
fn apply(tables: &Tables, f: &mut Fortress, part: &Nw3Part, n: u32) -> Result<()> {
    require_content(tables)?;
    let path = part.to_string();
    let mut dice = Dice::new(f.seed).child(&format!("reroll/{path}/{n}"));
    let mut g = f.clone();
    match *part {
        Nw3Part::Frame => reroll_frame(tables, &mut g, &dice),
        Nw3Part::Area { id, what } => reroll_area(tables, &mut g, part, id, what, &mut dice)?,
    }
    // The Climax calls the Core's guards as they now are.
    crate::nw3::episode::core::sync(&mut g);
    let after = check(&g, tables);
    if !after.is_empty()
        && let Some(v) = new_violation(&check(f, tables), &after)
    {
        return Err(refuse(part, format!("no legal result: {v}")));
    }
    g.rerolls.push(Reroll { part: path, n });
    *f = g;
    Ok(())
}

/// The first violation of `after` that `before` did not have (a hand-edited fortress may break
/// rules of its own that a reroll elsewhere neither causes nor mends).
fn new_violation<'a>(before: &[Violation], after: &'a [Violation]) -> Option<&'a Violation> {
    after.iter().find(|v| !before.contains(v))
}

/// The stocking context for the fortress's party.
fn stocking<'t>(tables: &'t Tables, f: &Fortress) -> Result<Stocking<'t>> {
    let ids: Vec<u32> = f.areas.iter().map(|a| a.id).collect();
    let before = f.entrance().and_then(|e| Net::new(f).before_ruler(e.id, f.ruler.area));
    Ok(Stocking {
        d: &tables.nw3,
        chart: tables.require(AREA_EVENT_TABLE)?,
        cl: f.params.cl,
        party: f.params.party,
        foes: crate::nw3::combat::PartyModel::of(&f.params),
        late: stock::late_areas(&ids, before.as_ref()),
    })
}

/// What the whole fortress holds (the area being rerolled included, so a reroll prefers
/// something new).
fn used_by(d: &Nw3Data, f: &Fortress) -> Used {
    let mut used = Used::new(d);
    for a in &f.areas {
        used.mark(d, a);
    }
    used
}

/// The closed gate whose release device stands in area `id`, from the gates.
fn device_of(f: &Fortress, id: u32) -> Option<GateRef> {
    f.gates.iter().find(|g| g.opened_by == Some(Opener::Device(id))).map(|g| g.gate_ref())
}

/// True when a gate opens or is revealed by the event of area `id`.
fn opens_gate(f: &Fortress, id: u32) -> bool {
    f.gates.iter().any(|g| g.opened_by == Some(Opener::Event(id)))
}

/// Keeps the GM's notes on the old enemy groups: the new groups take them in order, notes left
/// over join the last group, and when the area holds no group any more they join the area's notes.
fn carry_group_notes(old: &[EnemyGroup], a: &mut Area) {
    for (i, g) in old.iter().enumerate() {
        if g.notes.is_empty() {
            continue;
        }
        let target = match a.enemies.len().checked_sub(1) {
            Some(last) => &mut a.enemies[i.min(last)].notes,
            None => &mut a.notes,
        };
        if !target.is_empty() {
            target.push('\n');
        }
        target.push_str(&g.notes);
    }
}

fn reroll_area(
    tables: &Tables,
    f: &mut Fortress,
    part: &Nw3Part,
    id: u32,
    what: AreaPart,
    dice: &mut Dice,
) -> Result<()> {
    let d = &tables.nw3;
    let s = stocking(tables, f)?;
    let Some(pos) = f.areas.iter().position(|a| a.id == id) else {
        return Err(refuse(part, format!("the fortress has no area {id}")));
    };
    let mut used = used_by(d, f);
    let kind = f.areas[pos].kind;
    let label = kind.label();
    let is_ruler_area = f.ruler.area == id && f.areas[pos].event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler);
    match what {
        AreaPart::Enemies => {
            if !matches!(kind, AreaKind::Enemy | AreaKind::Core) {
                return Err(refuse(part, format!("area {id} ({label}) holds no enemies")));
            }
            let a = &mut f.areas[pos];
            let groups = stock::enemy_group(d, s.cl, s.party, s.foes, dice, &mut used.enemies).into_iter().collect();
            let old = std::mem::replace(&mut a.enemies, groups);
            carry_group_notes(&old, a);
        }
        AreaPart::Trap => {
            if kind != AreaKind::Trap {
                return Err(refuse(part, format!("area {id} ({label}) holds no trap")));
            }
            f.areas[pos].trap = stock::trap(d, s.cl, dice, &mut used.traps);
        }
        AreaPart::Event => {
            if kind == AreaKind::Event && is_ruler_area {
                return Err(refuse(
                    part,
                    format!("area {id} holds the Ruler encounter, which follows the Ruler (reroll `frame`)"),
                ));
            }
            if !reroll_event(&s, &mut f.areas[pos], dice, &mut used) {
                return Err(refuse(part, format!("area {id} ({label}) holds no event")));
            }
        }
        AreaPart::Objects => {
            if !matches!(kind, AreaKind::Object | AreaKind::Core) {
                return Err(refuse(part, format!("area {id} ({label}) holds no objects")));
            }
            let device = if kind == AreaKind::Object { device_of(f, id) } else { None };
            let late = s.late.binary_search(&id).is_ok();
            f.areas[pos].objects = stock::objects(d, kind, device, late, dice, &mut used.objects);
        }
        AreaPart::All => {
            if kind == AreaKind::Entrance {
                return Err(refuse(
                    part,
                    format!(
                        "area {id} is the Entrance, which holds nothing to reroll (its name is the fortress's place)"
                    ),
                ));
            }
            reroll_whole_area(&s, f, pos, is_ruler_area, dice, &mut used);
        }
    }
    if matches!(what, AreaPart::Event | AreaPart::All) {
        crate::nw3::events::area_outcome(d, f, pos);
    }
    let a = &mut f.areas[pos];
    a.danger_sense = Some(combat::danger_sense(a).0);
    Ok(())
}

/// A new event for an area that holds one by its kind: a chart event (one the fortress does not
/// hold yet, while the chart has one) or a scenario event. False for a kind that holds no event.
fn reroll_event(s: &Stocking, a: &mut Area, dice: &mut Dice, used: &mut Used) -> bool {
    match a.kind {
        AreaKind::Normal | AreaKind::Object => {
            // `used` holds this area's own result too, so the new one differs while the chart
            // has a result the fortress does not hold.
            a.event = stock::fresh_chart_event(s.chart, s.cl, dice, &mut used.chart);
        }
        AreaKind::Event => a.event = stock::scenario_event(s.d, s.cl, dice, &mut used.events),
        _ => return false,
    }
    true
}

/// An area anew: its kind (unless something else depends on it: the Core, the Ruler's area, a
/// gate it opens or a device that opens one of its gates), its name, and what it holds, the
/// GM's group notes carried over. The Ruler's area holds only the encounter, which follows the
/// frame, so only its kind and name change.
fn reroll_whole_area(
    s: &Stocking,
    f: &mut Fortress,
    pos: usize,
    is_ruler_area: bool,
    dice: &mut Dice,
    used: &mut Used,
) {
    let (id, kind) = (f.areas[pos].id, f.areas[pos].kind);
    let pinned = kind == AreaKind::Core || is_ruler_area || opens_gate(f, id) || device_of(f, id).is_some();
    let new_kind = if pinned { kind } else { random_kind(s.d, dice) };
    let (name, description) = fresh_name(s.d, f, pos, dice);
    let device = device_of(f, id);
    let a = &mut f.areas[pos];
    (a.kind, a.name, a.description) = (new_kind, name, description);
    if !is_ruler_area {
        let old_groups = std::mem::take(&mut a.enemies);
        (a.event, a.trap, a.objects) = (None, None, Vec::new());
        stock::stock(s, a, device, None, dice, used);
        carry_group_notes(&old_groups, a);
    }
}

/// An area kind drawn from the tables' weights, as the generator draws kinds for free areas.
fn random_kind(d: &Nw3Data, dice: &mut Dice) -> AreaKind {
    match dice.weighted(&d.area_kinds, |k| k.weight).map_or(RandomKind::Normal, |k| k.kind) {
        RandomKind::Normal => AreaKind::Normal,
        RandomKind::Object => AreaKind::Object,
        RandomKind::Trap => AreaKind::Trap,
        RandomKind::Event => AreaKind::Event,
        RandomKind::Enemy => AreaKind::Enemy,
    }
}

/// A location name (and its description) that no other area of `f` bears and that differs from
/// the area's own; when every location is taken, the first numbered form (" II", ...) that is
/// free.
fn fresh_name(d: &Nw3Data, f: &Fortress, pos: usize, dice: &mut Dice) -> (String, String) {
    let taken = |name: &str| f.areas.iter().any(|a| a.name == name);
    if let Some(c) = crate::nw3::episode::area_names(&d.episode, f.areas.len() * 2 + 1, dice) {
        let described = |text: &str| f.areas.iter().any(|a| a.description == text);
        if let Some(pick) = c.iter().find(|(n, t)| !taken(n) && !described(t)) {
            return pick.clone();
        }
    }
    let free: Vec<usize> = (0..d.areas.len()).filter(|&i| !taken(&d.areas[i].name)).collect();
    if let Some(&i) = dice.choose(&free) {
        return (d.areas[i].name.clone(), d.areas[i].description.clone());
    }
    let Some(loc) = dice.choose(&d.areas) else {
        return (f.areas[pos].name.clone(), f.areas[pos].description.clone());
    };
    let name = NUMERALS[1..]
        .iter()
        .map(|n| format!("{}{n}", loc.name))
        .find(|n| !taken(n))
        .unwrap_or_else(|| format!("{} {}", loc.name, f.areas[pos].id));
    (name, loc.description.clone())
}

/// Rolls the frame anew on `dice` (the generator's frame streams below it). The Ruler stays when
/// its area is locked; its encounter event follows a new Ruler.
fn reroll_frame(tables: &Tables, f: &mut Fortress, dice: &Dice) {
    let d = &tables.nw3;
    let common = Common::roll(d, dice);
    let keep_ruler = f.area(f.ruler.area).is_some_and(|a| a.locked);
    put_frame(d, f, &common, keep_ruler);
    f.episode = crate::nw3::episode::roll_episode(d, f, &common.entrance.text, &mut dice.child("nw3/episode"));
}

/// Sets the frame from `common`, keeping the Ruler when `keep_ruler`; the title names the
/// Entrance as the place.
fn put_frame(d: &Nw3Data, f: &mut Fortress, common: &Common, keep_ruler: bool) {
    let fr = frame(d, common, crate::nw3::combat::PartyModel::of(&f.params), f.ruler.area);
    if keep_ruler {
        f.title = common.title.to_string();
        f.trailer = common.trailer.to_string();
    } else {
        f.title = fr.title;
        f.trailer = fr.trailer;
        f.ruler = fr.ruler;
        let ruler_area = f.ruler.area;
        if let Some(a) = f.areas.iter_mut().find(|a| a.id == ruler_area)
            && a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler)
        {
            a.event = Some(stock::ruler_event(common.ruler));
        }
    }
    f.logic = fr.logic;
    f.entrance_condition = fr.entrance_condition;
    f.core = fr.core;
    if keep_ruler {
        // A kept Ruler keeps its story: the Core is of its theme.
        let c = crate::nw3::ruler_story::core_kept(d, &f.ruler.name, common.core);
        f.core = crate::nw3::model::Core { name: c.name.clone(), description: c.description.clone() };
    }
}

/// Rolls everything unlocked anew from `seed` with the options of `from`, keeping locked areas
/// and the locked frame exactly (see the module docs for what a lock keeps of the graph).
pub fn regenerate(tables: &Tables, from: &Fortress, seed: u64) -> Result<Fortress> {
    let any_area = from.areas.iter().any(|a| a.locked);
    let mut f = if any_area {
        keep_graph(tables, from, seed)?
    } else {
        let mut f = generate(tables, &from.params, seed)?;
        if from.frame_locked {
            put_back_frame(tables, from, &mut f)?;
        }
        f
    };
    f.paper = from.paper;
    f.notes = from.notes.clone();
    f.frame_locked = from.frame_locked;
    let v = check(&f, tables);
    if let Some(v) = v.first() {
        return Err(Error::Edit { what: "regenerate the fortress".into(), message: blame(from, v) });
    }
    Ok(f)
}

/// The lock a violation of the regenerated fortress comes from, in one line.
fn blame(from: &Fortress, v: &Violation) -> String {
    let area = v.place.strip_prefix("area ").and_then(|n| n.parse::<u32>().ok());
    match area.and_then(|id| from.area(id)).filter(|a| a.locked) {
        Some(a) => format!("locked area {} (`{}`) cannot be kept: {v}", a.id, a.name),
        None if from.frame_locked => format!("the locked frame cannot be kept: {v}"),
        None => match from.areas.iter().find(|a| a.locked) {
            Some(a) => format!("the locks (first: area {}) cannot be kept: {v}", a.id),
            None => format!("the new fortress breaks a rule: {v}"),
        },
    }
}

/// A fresh fortress with the locked frame of `from` put back: its Ruler met in the new Ruler's
/// area, and the Entrance named as the kept title names it (an area that drew that name takes the
/// Entrance's new one).
fn put_back_frame(tables: &Tables, from: &Fortress, f: &mut Fortress) -> Result<()> {
    let d = &tables.nw3;
    let record = d.ruler(&from.ruler.name).ok_or_else(|| Error::Edit {
        what: "regenerate the fortress".into(),
        message: format!("the locked frame's Ruler `{}` is not in the NW3 tables", from.ruler.name),
    })?;
    let area = f.ruler.area;
    f.title = from.title.clone();
    f.trailer = from.trailer.clone();
    f.ruler = from.ruler.clone();
    f.ruler.area = area;
    f.logic = from.logic.clone();
    f.entrance_condition = from.entrance_condition.clone();
    f.core = from.core.clone();
    f.episode = from.episode.clone();
    // What the legwork reveals is the new fortress's (its gates, its Core's area).
    crate::nw3::episode::reveal_anew(f);
    if let Some(a) = f.areas.iter_mut().find(|a| a.id == area) {
        a.event = Some(stock::ruler_event(record));
    }
    // The finale is the new fortress's too (where the Ruler stands, what its gates allow).
    crate::nw3::finale::follow(&d.episode, f, &mut crate::dice::Dice::new(f.seed).child("nw3/finale"));
    if let (Some(old), Some(e)) = (from.entrance(), f.areas.iter().position(|a| a.kind == AreaKind::Entrance)) {
        let new = (f.areas[e].name.clone(), f.areas[e].description.clone());
        if let Some(other) = f.areas.iter().position(|a| a.name == old.name) {
            (f.areas[other].name, f.areas[other].description) = new;
        }
        (f.areas[e].name, f.areas[e].description) = (old.name.clone(), old.description.clone());
    }
    Ok(())
}

/// The graph and kinds of `from`, locked areas as they are, every other area named and stocked
/// anew on the generator's streams for `seed`; the frame rolled anew unless locked.
fn keep_graph(tables: &Tables, from: &Fortress, seed: u64) -> Result<Fortress> {
    from.params.validate()?;
    require_content(tables)?;
    let d = &tables.nw3;
    let root = Dice::new(seed);
    let common = Common::roll(d, &root);
    let mut f = from.clone();
    f.seed = seed;
    f.rerolls.clear();
    f.generator = Generator {
        name: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
        tables: tables.version.to_string(),
    };
    let s = stocking(tables, &f)?;
    let keep_entrance_name = from.frame_locked;
    let mut used = Used::new(d);
    for a in f.areas.iter().filter(|a| a.locked) {
        used.mark(d, a);
    }
    // Names: the shuffled locations in order, skipping those a kept area bears.
    let mut taken: Vec<String> = f
        .areas
        .iter()
        .filter(|a| a.locked || (keep_entrance_name && a.kind == AreaKind::Entrance))
        .map(|a| a.name.clone())
        .collect();
    let mut next = 0usize;
    // Composed names (as the generator gives them, on its stream) when the tables have the parts.
    let composed = crate::nw3::episode::area_names(&d.episode, 3 * f.areas.len(), &mut root.child("nw3/area-names"));
    let ruler_record = d.ruler(&from.ruler.name);
    let ruler_locked = f.area(f.ruler.area).is_some_and(|a| a.locked);
    for pos in 0..f.areas.len() {
        let a = &f.areas[pos];
        if a.locked {
            continue;
        }
        let id = a.id;
        if !(keep_entrance_name && a.kind == AreaKind::Entrance) {
            let (name, description) = match &composed {
                Some(c) => next_composed(c, &mut next, &taken),
                None => next_name(d, &common.names, &mut next, &taken),
            };
            taken.push(name.clone());
            (f.areas[pos].name, f.areas[pos].description) = (name, description);
        }
        let device = device_of(&f, id);
        let is_ruler = f.ruler.area == id && f.areas[pos].kind == AreaKind::Event;
        let a = &mut f.areas[pos];
        let old_groups = std::mem::take(&mut a.enemies);
        (a.event, a.trap, a.objects) = (None, None, Vec::new());
        let mut dice = root.child(&format!("nw3/area/{id}"));
        // The Ruler's area is unlocked here, so the Ruler is the locked frame's or a new one.
        let ruler = is_ruler.then_some(if from.frame_locked { ruler_record } else { Some(common.ruler) });
        match ruler {
            Some(Some(r)) => {
                a.event = Some(stock::ruler_event(r));
                a.danger_sense = Some(combat::danger_sense(a).0);
            }
            Some(None) => {
                return Err(Error::Edit {
                    what: "regenerate the fortress".into(),
                    message: format!("the Ruler `{}` is not in the NW3 tables", from.ruler.name),
                });
            }
            None => stock::stock(&s, a, device, None, &mut dice, &mut used),
        }
        carry_group_notes(&old_groups, a);
    }
    if !from.frame_locked {
        put_frame(d, &mut f, &common, ruler_locked);
        f.episode = crate::nw3::episode::roll_episode(d, &mut f, &common.entrance.text, &mut root.child("nw3/episode"));
    }
    crate::nw3::events::event_outcomes(d, &mut f);
    Ok(f)
}

/// The next composed name of `c` that is not taken (the list holds three per area, so one is
/// always left; past its end, the area is numbered).
fn next_composed(c: &[(String, String)], next: &mut usize, taken: &[String]) -> (String, String) {
    while let Some(pick) = c.get(*next) {
        *next += 1;
        if !taken.contains(&pick.0) {
            return pick.clone();
        }
    }
    (format!("Area {next}"), String::new())
}

/// The next location of the shuffled list whose name is not taken; past the end of the list,
/// numbered forms (" II", ...) in the same order.
fn next_name(d: &Nw3Data, order: &[usize], next: &mut usize, taken: &[String]) -> (String, String) {
    let len = order.len().max(1);
    loop {
        let k = *next;
        *next += 1;
        let Some(loc) = order.get(k % len).and_then(|&i| d.areas.get(i)) else {
            return (format!("Area {k}"), String::new());
        };
        let round = k / len;
        let name = if round == 0 {
            loc.name.clone()
        } else if round < NUMERALS.len() {
            format!("{}{}", loc.name, NUMERALS[round])
        } else {
            format!("{} {}", loc.name, round + 1)
        };
        if !taken.contains(&name) {
            return (name, loc.description.clone());
        }
    }
}
