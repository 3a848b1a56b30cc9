//! Make You Kingdom rerolls, locks and `--from`.
//!
//! A reroll rolls one part anew on its own stream, `Dice::new(seed).child("reroll/<path>/<n>")`,
//! with the generator's own pieces (`myk::generate::Gen`), under what the rest of the scenario
//! leaves of every limit, then runs `check` on the result. What follows the change, and nothing
//! else, changes with it:
//! - the objective (derived from the last map's ruler and room names), and the title when it was
//!   still the one the generator gave and map 1 is rolled anew;
//! - the clues, re-placed on the reroll's `clues` stream when a clue that was true has become
//!   false (what it names is gone or changed) or a clue rule breaks; a locked frame refuses that;
//! - after a frame reroll, a ruler's Relationship weak point that named an NPC no longer in the
//!   cast names one of the new cast.
//!
//! Decisions, documented in the README:
//! - a room reroll (`all` or `monsters`) keeps the room's ruler: its weak points reach into other
//!   rooms (Split Core holders, a hidden Memory Core, the Relationship NPC), so only a map reroll
//!   rolls a new ruler; in the ruler's room `monsters` rerolls the guards;
//! - monsters that hold a Split Core's cores stay when their room's monsters are rerolled, and
//!   other groups join them within the room's limit;
//! - a Teleporter or Secret Door that is the only way to a room stays when the room's traps are
//!   rerolled (without it that room could not be reached);
//! - `name` rolls the room's name and its environment line;
//! - a map reroll lays the map out anew around the rooms where its entrances are (the other maps
//!   link to them, and stay byte-identical), then names and stocks it like the generator.
//!
//! If a try breaks a rule the reroll tries again on the same stream's `retry/<k>` children; after
//! [`TRIES`] it fails and leaves the scenario unchanged.

use std::fmt;
use std::str::FromStr;

use crate::dice::Dice;
use crate::edit::PartOptions;
use crate::error::{Error, Result};
use crate::model::Reroll;
use crate::myk::check::{check, usage};
use crate::myk::generate::{Budget, Gen, MykParams, generate, normalize};
use crate::myk::layout::{Skeleton, layout};
use crate::myk::model::{CastRef, Court, Limits, Map, Npc, Place, Reaction, RoomId, Scenario};
use crate::myk::{clues, frame, limits, weak_points};
use crate::tables::Tables;
use crate::tables::myk::Placement;
use crate::tables::shared::SharedStr;

/// How many tries a reroll makes before it gives up.
pub const TRIES: u32 = 8;
/// How many layouts a map reroll draws looking for one that keeps the map's entrance rooms.
const LAYOUT_TRIES: u32 = 4000;

/// Which part of a room is rolled anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomPart {
    /// Name, monsters, traps and bases.
    All,
    Monsters,
    Traps,
    Bases,
    /// The room's name and environment.
    Name,
}

impl RoomPart {
    /// The suffix of the part's path (`None` for the whole room).
    pub fn suffix(self) -> Option<&'static str> {
        match self {
            RoomPart::All => None,
            RoomPart::Monsters => Some("monsters"),
            RoomPart::Traps => Some("traps"),
            RoomPart::Bases => Some("bases"),
            RoomPart::Name => Some("name"),
        }
    }

    /// The part named on the command line (`all` for the whole room).
    pub fn named(s: &str) -> Option<RoomPart> {
        match s {
            "all" => Some(RoomPart::All),
            "monsters" => Some(RoomPart::Monsters),
            "traps" => Some(RoomPart::Traps),
            "bases" => Some(RoomPart::Bases),
            "name" => Some(RoomPart::Name),
            _ => None,
        }
    }
}

/// A part of a MYK scenario that can be rerolled; written as in `rerolls[].part`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MykPart {
    /// `map1/B2` or `map1/B2/monsters`.
    Room { map: u32, room: RoomId, what: RoomPart },
    /// `map1`: layout, names and contents.
    Map(u32),
    /// `frame`: title, objective, hooks, cast and clues.
    Frame,
}

impl fmt::Display for MykPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MykPart::Frame => f.write_str("frame"),
            MykPart::Map(m) => write!(f, "map{m}"),
            MykPart::Room { map, room, what } => match what.suffix() {
                None => write!(f, "map{map}/{room}"),
                Some(s) => write!(f, "map{map}/{room}/{s}"),
            },
        }
    }
}

impl FromStr for MykPart {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let bad = || Error::Edit {
            what: format!("part `{s}`"),
            message: "expected `frame`, `mapN`, `mapN/B2` or `mapN/B2/monsters|traps|bases|name`".into(),
        };
        if s == "frame" {
            return Ok(MykPart::Frame);
        }
        let mut it = s.split('/');
        let map: u32 = it.next().and_then(|m| m.strip_prefix("map")).and_then(|n| n.parse().ok()).ok_or_else(bad)?;
        if map == 0 {
            return Err(bad());
        }
        let Some(room) = it.next() else { return Ok(MykPart::Map(map)) };
        let room: RoomId = room.parse().map_err(|_| bad())?;
        let what = match it.next() {
            None => RoomPart::All,
            Some(p) => RoomPart::named(p).filter(|w| *w != RoomPart::All).ok_or_else(bad)?,
        };
        if it.next().is_some() {
            return Err(bad());
        }
        Ok(MykPart::Room { map, room, what })
    }
}

/// The MYK part the reroll options name; invalid combinations name the option at fault.
pub fn part_from_options(args: &PartOptions) -> Result<MykPart> {
    let file = args.file;
    if args.area.is_some() {
        return Err(Error::Option {
            field: "area",
            message: format!("`{file}` is a Make You Kingdom scenario: its parts are maps, their rooms and the frame"),
        });
    }
    let part = args.part;
    match (args.map, args.room, args.frame) {
        (None, Some(_), _) => Err(Error::Option { field: "room", message: "needs the map the room is on".into() }),
        (Some(_), _, true) => {
            Err(Error::Option { field: "frame", message: "rerolls the frame alone, not a map with it".into() })
        }
        (None, None, false) => Err(Error::Option {
            field: "map",
            message: format!("say what to reroll in `{file}`: a map, a room on a map, or the frame"),
        }),
        (None, None, true) | (Some(_), None, false) => {
            if let Some(p) = part.filter(|p| *p != "all") {
                let what = if args.frame { "the frame" } else { "a whole map" };
                return Err(Error::Option {
                    field: "part",
                    message: format!("`{p}` is a part of a room; {what} is rerolled whole (name a room for its parts)"),
                });
            }
            Ok(if args.frame { MykPart::Frame } else { MykPart::Map(args.map.unwrap_or(1)) })
        }
        (Some(map), Some(room), false) => {
            let room = room.parse().map_err(|message| Error::Option { field: "room", message })?;
            let what = match part {
                None => RoomPart::All,
                Some(p) => RoomPart::named(p).ok_or_else(|| Error::Option {
                    field: "part",
                    message: format!(
                        "`{p}` is not a part of a Make You Kingdom room; use monsters, traps, bases, name or all"
                    ),
                })?,
            };
            Ok(MykPart::Room { map, room, what })
        }
    }
}

/// Rerolls `part` on the stream `Dice::new(s.seed).child("reroll/<path>/<n>")`, where `n` is one
/// more than the number of earlier rerolls of the same path; appends `Reroll {part, n}` to
/// `s.rerolls`. Fails, leaving `s` unchanged, if the part is locked or no legal result is found.
/// The result passes `check`.
pub fn reroll(tables: &Tables, s: &mut Scenario, part: &MykPart) -> Result<()> {
    let path = part.to_string();
    let fail = |message: String| Error::Edit { what: format!("reroll `{path}`"), message };
    if let Some(lock) = lock_on(s, part) {
        return Err(fail(lock));
    }
    if let Some(missing) = missing(s, part) {
        return Err(fail(missing));
    }
    // A scenario that already breaks a rule cannot be told apart from a reroll that breaks one.
    if let Some(v) = check(s, tables).first() {
        return Err(fail(format!("the scenario breaks a rule already (fix it first): {v}")));
    }
    let n = s.rerolls.iter().filter(|r| r.part == path).count() as u32 + 1;
    let d = Dice::new(s.seed).child(&format!("reroll/{path}/{n}"));
    let court = limits::court(&s.court.levels);
    let lim = limits::limits(&court);
    let ctx = Ctx { g: Gen::new(tables, &court, &lim), tables, court: &court, lim: &lim };
    let mut last = String::new();
    for k in 0..TRIES {
        let mut dk = if k == 0 { d.clone() } else { d.child(&format!("retry/{k}")) };
        let mut t = s.clone();
        strip(&ctx, &mut t, part);
        let rolled = roll(&ctx, &mut t, part, &mut dk).and_then(|()| {
            keep_group_notes(s, &mut t);
            follow(&ctx, s, &mut t, &mut dk.child("clues"))
        });
        match rolled.and_then(|()| legal(&t, tables)) {
            Ok(()) => {
                t.rerolls.push(Reroll { part: path, n });
                *s = t;
                return Ok(());
            }
            Err(why) => last = why,
        }
    }
    Err(fail(format!("no legal result in {TRIES} tries ({last})")))
}

/// Why a reroll of `part` left `s` as it was, in one line: a room whose monsters cannot come back
/// because its map already has as many rooms with monsters as the limit allows (A + 2), else the
/// new roll drew what was there.
pub fn why_unchanged(s: &Scenario, part: &MykPart) -> String {
    if let MykPart::Room { map, room, what: RoomPart::Monsters | RoomPart::All } = *part
        && let Some(m) = s.map(map)
        && !m.room(room).has_monsters()
    {
        let busy = m.rooms.iter().filter(|r| r.has_monsters()).count() as u32;
        let limit = s.limits.rooms_with_monsters;
        if busy >= limit {
            return format!(
                "map {map} already has {busy} rooms with monsters, its limit (A + 2 = {limit}), so {room} stays \
                 without; reroll a room that has monsters, or the whole map {map}"
            );
        }
    }
    crate::edit::SAME_ROLL.to_string()
}

/// Replays a reroll list in order (what `myk --seed N` and the recorded rerolls give). Each entry's
/// `n` must be the one the replay reaches, so a list that was edited out of order is refused.
pub fn replay(tables: &Tables, s: &mut Scenario, rerolls: &[Reroll]) -> Result<()> {
    for r in rerolls {
        let part: MykPart = r.part.parse()?;
        let n = s.rerolls.iter().filter(|x| x.part == r.part).count() as u32 + 1;
        if n != r.n {
            return Err(Error::Edit {
                what: format!("replay of `{}`", r.part),
                message: format!("recorded as reroll {} of that part, but it is reroll {n} in this list", r.n),
            });
        }
        reroll(tables, s, &part)?;
    }
    Ok(())
}

/// Rolls everything unlocked anew from `seed` (params from `from`), keeping locked rooms, maps and
/// the locked frame exactly.
///
/// With no lock on a map or room this is `myk --seed N` with `from`'s options (plus the locked
/// frame, if it is). A map with a locked room keeps its layout (used rooms, corridors and their
/// traps, entrances), its name and its ruler; its unlocked rooms are rolled as by a room reroll
/// (`all`). Other unlocked maps are laid out and stocked anew around their entrance rooms. Fails
/// with one line naming the lock that leaves no legal scenario.
pub fn regenerate(tables: &Tables, from: &Scenario, seed: u64) -> Result<Scenario> {
    let what = || format!("regenerate from seed {seed}");
    let params = MykParams {
        levels: from.court.levels.clone(),
        maps: from.params.maps,
        rooms: from.params.rooms,
        layout: from.params.layout,
        objective: from.params.objective,
        kingdom: from.params.kingdom.clone(),
        classes: from.params.classes.clone(),
    };
    let map_locks = from.maps.iter().any(|m| m.locked || m.rooms.iter().any(|r| r.locked));
    let mut s = if map_locks {
        params.validate()?;
        regenerate_around(tables, from, seed)?
    } else {
        let mut s = generate(tables, &params, seed)?;
        s.params.paper = from.params.paper;
        s.notes = from.notes.clone();
        s
    };
    if from.frame_locked {
        s.frame_locked = true;
        s.title = from.title.clone();
        s.objective = from.objective.clone();
        s.story = from.story.clone();
        s.introduction = from.introduction.clone();
        s.resolution = from.resolution.clone();
        s.clues = from.clues.clone();
        // The locked frame's cast replaces the one just generated, which relationships may name.
        let generated = std::mem::replace(&mut s.cast, from.cast.clone());
        relationships_follow(&mut s, tables, &generated, &mut Dice::new(seed).child("regenerate/relationship"));
    }
    normalize(&mut s);
    let v = check(&s, tables);
    let Some(first) = v.first() else { return Ok(s) };
    let frame_fault = v.iter().find(|x| x.rule.starts_with("clue"));
    let message = match (from.frame_locked, frame_fault) {
        (true, Some(x)) => format!("the locked frame (`frame_locked`) no longer fits: {x}"),
        _ => match blame(from, &first.place) {
            Some(lock) => format!("the lock on `{lock}` leaves no legal scenario: {first}"),
            None => format!("the locks leave no legal scenario: {first}"),
        },
    };
    Err(Error::Edit { what: what(), message })
}

/// Regenerate when maps or rooms are locked: start from `from`, strip every unlocked part, then roll
/// each on the new seed's `regenerate/<path>` stream, maps before the frame.
fn regenerate_around(tables: &Tables, from: &Scenario, seed: u64) -> Result<Scenario> {
    let court = limits::court(&from.court.levels);
    let lim = limits::limits(&court);
    let ctx = Ctx { g: Gen::new(tables, &court, &lim), tables, court: &court, lim: &lim };
    let mut s = from.clone();
    s.seed = seed;
    s.rerolls.clear();
    s.generator.version = env!("CARGO_PKG_VERSION").into();
    s.generator.tables = tables.version.clone();
    let mut parts = Vec::new();
    for m in &s.maps {
        if m.locked {
            continue;
        }
        if m.rooms.iter().any(|r| r.locked) {
            parts.extend(m.used_rooms().filter(|r| !r.locked).map(|r| MykPart::Room {
                map: m.index,
                room: r.id,
                what: RoomPart::All,
            }));
        } else {
            parts.push(MykPart::Map(m.index));
        }
    }
    // Every unlocked part is emptied first, so each one's budget sees all of them empty.
    for p in &parts {
        strip(&ctx, &mut s, p);
    }
    let root = Dice::new(seed).child("regenerate");
    for p in &parts {
        roll(&ctx, &mut s, p, &mut root.child(&p.to_string()))
            .map_err(|message| Error::Edit { what: format!("regenerate `{p}` from seed {seed}"), message })?;
    }
    keep_group_notes(from, &mut s);
    if !s.frame_locked {
        roll(&ctx, &mut s, &MykPart::Frame, &mut root.child("frame"))
            .map_err(|message| Error::Edit { what: format!("regenerate `frame` from seed {seed}"), message })?;
    }
    Ok(s)
}

/// The lock a violation at `place` ("map 1 room B2", "map 1", "scenario") falls on, else the first.
fn blame(s: &Scenario, place: &str) -> Option<String> {
    let mut locks = Vec::new();
    for m in &s.maps {
        if m.locked {
            locks.push((format!("map {}", m.index), format!("map{}", m.index)));
        }
        for r in m.rooms.iter().filter(|r| r.locked) {
            locks.push((format!("map {} room {}", m.index, r.id), format!("map{}/{}", m.index, r.id)));
        }
    }
    let hit = locks.iter().find(|(at, _)| place == at || place.starts_with(&format!("{at} ")));
    hit.or(locks.first()).map(|(_, path)| path.clone())
}

/// The generator's pieces and the limits of this court.
struct Ctx<'a> {
    g: Gen<'a>,
    tables: &'a Tables,
    court: &'a Court,
    lim: &'a Limits,
}

/// Why the part may not be rerolled because of a lock, naming the lock.
fn lock_on(s: &Scenario, part: &MykPart) -> Option<String> {
    match *part {
        MykPart::Frame => s.frame_locked.then(|| "the frame is locked (`frame_locked` is true)".to_string()),
        MykPart::Map(i) => {
            let m = s.map(i)?;
            if m.locked {
                return Some(format!("map {i} is locked (`locked` is true on map {i})"));
            }
            m.rooms
                .iter()
                .find(|r| r.locked)
                .map(|r| format!("room {} of map {i} is locked (`locked` is true on map {i} room {})", r.id, r.id))
        }
        MykPart::Room { map, room, .. } => {
            let m = s.map(map)?;
            if m.locked {
                return Some(format!("map {map} is locked (`locked` is true on map {map})"));
            }
            m.room(room)
                .locked
                .then(|| format!("room {room} of map {map} is locked (`locked` is true on map {map} room {room})"))
        }
    }
}

/// Why the part does not exist in this scenario, if it does not.
fn missing(s: &Scenario, part: &MykPart) -> Option<String> {
    let (MykPart::Map(i) | MykPart::Room { map: i, .. }) = *part else {
        return s.maps.is_empty().then(|| "the scenario has no map".into());
    };
    let Some(m) = s.map(i) else { return Some(format!("the scenario has no map {i}")) };
    if m.rooms.len() != 9 {
        return Some(format!("map {i} does not list its nine rooms A1..C3"));
    }
    match *part {
        MykPart::Room { room, .. } if !m.room(room).used => Some(format!("room {room} of map {i} is not used")),
        _ => None,
    }
}

/// The scenario position of map `index` (checked by `missing`).
fn pos(s: &Scenario, index: u32) -> usize {
    s.maps.iter().position(|m| m.index == index).unwrap_or(0)
}

/// Empties what the part will roll anew, so budgets see it empty.
fn strip(ctx: &Ctx, s: &mut Scenario, part: &MykPart) {
    match *part {
        // The frame is emptied by `roll`, which needs the old cast.
        MykPart::Frame => {}
        MykPart::Map(index) => {
            let i = pos(s, index);
            for r in &mut s.maps[i].rooms {
                r.traps.clear();
                r.bases.clear();
                r.monsters.clear();
                r.ruler = None;
            }
            for c in &mut s.maps[i].corridors {
                c.trap = None;
                c.one_way = None;
            }
        }
        MykPart::Room { map, room, what } => {
            let i = pos(s, map);
            let all = what == RoomPart::All;
            if all || what == RoomPart::Monsters {
                let mut keep = core_holders(&s.maps[i], room);
                keep.extend(called_from_elsewhere(s, i, room, what == RoomPart::All));
                s.maps[i].rooms[room.index()].monsters.retain(|g| keep.contains(&g.name));
            }
            if all || what == RoomPart::Traps {
                strip_traps(ctx, s, i, room);
            }
            if all || what == RoomPart::Bases {
                s.maps[i].rooms[room.index()].bases.clear();
            }
        }
    }
}

/// The monsters of `room` that hold cores of the map's ruler (Split Core).
fn core_holders(m: &Map, room: RoomId) -> Vec<SharedStr> {
    m.rooms
        .iter()
        .filter_map(|r| r.ruler.as_ref())
        .flat_map(|ru| &ru.adjustments)
        .flat_map(|a| &a.cores)
        .filter(|h| h.room == room)
        .map(|h| h.monster.clone())
        .collect()
}

/// Monsters of `room` that a Gate Keeper calls and that appear nowhere else (a Gate Keeper calls
/// described monsters), so they stay; with `own_traps_go`, the room's own Gate Keepers do not count.
fn called_from_elsewhere(s: &Scenario, i: usize, room: RoomId, own_traps_go: bool) -> Vec<SharedStr> {
    let here = &s.maps[i].rooms[room.index()];
    let mut called = Vec::new();
    for (p, m) in s.maps.iter().enumerate() {
        let rooms = m.rooms.iter().filter(|r| !(own_traps_go && p == i && r.id == room)).flat_map(|r| &r.traps);
        for t in rooms.chain(m.corridors.iter().filter_map(|c| c.trap.as_ref())) {
            called.extend(t.monsters.iter().map(|g| g.name.clone()));
        }
    }
    let elsewhere = |name: &str| {
        s.maps.iter().enumerate().flat_map(|(p, m)| m.rooms.iter().map(move |r| (p, r))).any(|(p, r)| {
            let other = !(p == i && r.id == room);
            (other && r.monsters.iter().any(|g| g.name == name)) || r.ruler.as_ref().is_some_and(|ru| ru.name == name)
        }) || s.encounters.rows.iter().flat_map(|r| &r.groups).any(|g| g.name == name)
    };
    here.monsters.iter().map(|g| g.name.clone()).filter(|n| called.contains(n) && !elsewhere(n)).collect()
}

/// Removes the room's traps, except a Teleporter or Secret Door without which a room could not be
/// reached.
fn strip_traps(ctx: &Ctx, s: &mut Scenario, i: usize, room: RoomId) {
    let old = std::mem::take(&mut s.maps[i].rooms[room.index()].traps);
    if ctx.g.reachable(s) {
        return;
    }
    s.maps[i].rooms[room.index()].traps =
        old.into_iter().filter(|t| t.destination.is_some() || t.corridor.is_some()).collect();
}

/// What the rest of the scenario leaves of the trap limits.
fn trap_budget(lim: &Limits, s: &Scenario) -> Budget {
    let u = usage(s);
    Budget {
        number: lim.traps_number.saturating_sub(u.traps_number),
        levels: lim.traps_total_level.saturating_sub(u.traps_total_level),
    }
}

/// What the rest of the scenario leaves of the base level limit.
fn base_budget(lim: &Limits, s: &Scenario) -> u32 {
    lim.bases_total_level.saturating_sub(usage(s).bases_total_level)
}

/// Rolls the (stripped) part anew.
fn roll(ctx: &Ctx, s: &mut Scenario, part: &MykPart, d: &mut Dice) -> std::result::Result<(), String> {
    match *part {
        MykPart::Frame => {
            let old = std::mem::take(&mut s.cast);
            s.clues.clear();
            ctx.g.frame(s, d).map_err(|e| e.to_string())?;
            relationships_follow(s, ctx.tables, &old, &mut d.child("relationship"));
            Ok(())
        }
        MykPart::Map(index) => roll_map(ctx, s, pos(s, index), d),
        MykPart::Room { map, room, what } => {
            let i = pos(s, map);
            let all = what == RoomPart::All;
            if all || what == RoomPart::Name {
                ctx.g.name_room(&mut s.maps[i].rooms[room.index()], &mut d.child("name"));
            }
            if all || what == RoomPart::Monsters {
                roll_monsters(ctx, s, i, room, &mut d.child("monsters"));
            }
            if all || what == RoomPart::Traps {
                let left = trap_budget(ctx.lim, s);
                let mut td = d.child("traps");
                let want = td.between(0, 2).min(left.number);
                ctx.g.traps_in(s, i, left, want, Some(room), &mut td);
            }
            if all || what == RoomPart::Bases {
                let left = base_budget(ctx.lim, s);
                ctx.g.bases_in(&mut s.maps[i], left, Some(room), &mut d.child("bases"));
            }
            Ok(())
        }
    }
}

/// New monsters for a room: the ruler's guards, or (in a room the map's A + 2 limit leaves open,
/// three times in five) groups as the generator stocks a room; core holders stay and others join
/// them. GM notes on groups that are gone pass to the new groups in order.
fn roll_monsters(ctx: &Ctx, s: &mut Scenario, i: usize, room: RoomId, d: &mut Dice) {
    let m = &s.maps[i];
    let busy = m.rooms.iter().filter(|r| r.id != room && r.has_monsters()).count() as u32;
    let r = &mut s.maps[i].rooms[room.index()];
    if !r.monsters.is_empty() {
        // Groups the rest of the scenario names stay; more of their reaction may join within the
        // room's limit (beside a ruler: 4S + T with the ruler).
        let reaction = r.monsters.iter().map(|g| g.reaction).min_by_key(|x| ctx.lim.room_total(*x));
        let reaction = reaction.unwrap_or(Reaction::Hostile);
        let used: u32 = r.monsters.iter().map(|g| g.count * g.effective_level).sum();
        let cap = match &r.ruler {
            Some(ru) => ctx.lim.ruler_room_total.saturating_sub(ru.effective_level),
            None => ctx.lim.room_total(reaction),
        };
        let room_left = cap.saturating_sub(used);
        let target = d.between(0, room_left);
        let extra = ctx.g.groups(d, target, ctx.court.average_level + 4, reaction, 2);
        let names: Vec<SharedStr> = r.monsters.iter().map(|g| g.name.clone()).collect();
        r.monsters.extend(extra.into_iter().filter(|g| !names.contains(&g.name)));
    } else if r.ruler.is_some() {
        ctx.g.guards(r, d);
    } else {
        // An Area trap needs monsters to fight: such a room always gets some.
        let must = r.traps.iter().any(|t| t.placement == Placement::Area);
        if busy < ctx.lim.rooms_with_monsters && (must || d.chance(3, 5)) {
            ctx.g.stock_room(r, d);
        }
    }
}

/// GM notes on monster groups survive a reroll: a note whose group is gone passes to a new group of
/// the same name, else to the first new group without a note, else to the room's own notes.
fn keep_group_notes(before: &Scenario, s: &mut Scenario) {
    for (old_map, map) in before.maps.iter().zip(&mut s.maps) {
        for (old, room) in old_map.rooms.iter().zip(&mut map.rooms) {
            for g in old.monsters.iter().filter(|g| !g.notes.is_empty()) {
                if room.monsters.iter().any(|n| n.name == g.name && n.notes == g.notes) {
                    continue;
                }
                let heir = room.monsters.iter().position(|n| n.name == g.name && n.notes.is_empty());
                let heir = heir.or_else(|| room.monsters.iter().position(|n| n.notes.is_empty()));
                match heir {
                    Some(k) => room.monsters[k].notes = g.notes.clone(),
                    None => {
                        if !room.notes.is_empty() {
                            room.notes.push('\n');
                        }
                        room.notes.push_str(&format!("{}: {}", g.name, g.notes));
                    }
                }
            }
        }
    }
}

/// A new map in place of map `i`: laid out around its entrance rooms, named and stocked.
fn roll_map(ctx: &Ctx, s: &mut Scenario, i: usize, d: &mut Dice) -> std::result::Result<(), String> {
    let old = s.maps[i].clone();
    let needs_exit = i + 1 < s.maps.len();
    let sk = entrance_layout(s, &old, needs_exit, &mut d.child("layout"))?;
    let mut map = ctx.g.map_sheet(old.index, &sk, &mut d.child("names")).map_err(|e| e.to_string())?;
    map.entrances = old.entrances.clone();
    map.notes = old.notes.clone();
    for (new, was) in map.rooms.iter_mut().zip(&old.rooms) {
        new.notes = was.notes.clone();
    }
    s.maps[i] = map;
    ctx.g.populate(&mut s.maps[i], &sk, &mut d.child("monsters"));
    let mut budget = trap_budget(ctx.lim, s);
    if let Some(sp) = sk.special {
        ctx.g.special_movement(s, i, sp, &mut budget, &mut d.child("special"));
    }
    ctx.g.traps(s, i, budget, &mut d.child("traps"));
    let left = base_budget(ctx.lim, s);
    ctx.g.bases_in(&mut s.maps[i], left, None, &mut d.child("bases"));
    weak_points::name_npcs(s, ctx.tables, &mut d.child("relationship"));
    Ok(())
}

/// A layout of the scenario's style whose entry room is where the map's way in is and whose exit
/// (or ruler's) room is where the way on to the next map is.
fn entrance_layout(s: &Scenario, old: &Map, needs_exit: bool, d: &mut Dice) -> std::result::Result<Skeleton, String> {
    let way_in = |to: Option<Place>| to.is_none_or(|p| p.map < old.index);
    let ins: Vec<RoomId> = old.entrances.iter().filter(|e| way_in(e.to)).map(|e| e.room).collect();
    let outs: Vec<RoomId> = old.entrances.iter().filter(|e| !way_in(e.to)).map(|e| e.room).collect();
    for _ in 0..LAYOUT_TRIES {
        let sk = layout(d, s.params.layout, s.params.rooms, needs_exit);
        let out = sk.exit.unwrap_or(sk.ruler);
        if ins.iter().all(|&r| r == sk.entry) && outs.iter().all(|&r| r == out) {
            return Ok(sk);
        }
    }
    Err(format!("no {} layout of map {} keeps its entrances where they are", s.params.layout.label(), old.index))
}

/// After the cast changed (it was `old`, which the weak points' references count in): a
/// Relationship weak point names the same person in the new cast (found by name); one whose NPC
/// is gone names one of the new cast, except a locked ruler's, whose NPC joins the cast.
fn relationships_follow(s: &mut Scenario, tables: &Tables, old: &[Npc], d: &mut Dice) {
    let cast = &mut s.cast;
    for m in &mut s.maps {
        let map_locked = m.locked;
        for r in &mut m.rooms {
            let locked = map_locked || r.locked;
            for a in r.ruler.iter_mut().flat_map(|ru| &mut ru.adjustments) {
                let Some(person) = a.npc.and_then(|x| old.get(x.index()?)) else {
                    a.npc = None;
                    continue;
                };
                a.npc = match cast.iter().position(|c| c.name == person.name) {
                    Some(k) => Some(CastRef::at(k)),
                    None if locked => {
                        cast.push(person.clone());
                        Some(CastRef::at(cast.len() - 1))
                    }
                    None => None,
                };
            }
        }
    }
    weak_points::name_npcs(s, tables, d);
}

/// What follows a change: the title (when it was the generated one), the objective and derived
/// numbers, and the clues when one that held before no longer does or a clue rule breaks.
fn follow(ctx: &Ctx, before: &Scenario, s: &mut Scenario, d: &mut Dice) -> std::result::Result<(), String> {
    if !s.frame_locked && before.title == frame::title(before) {
        s.title = frame::title(s);
    }
    normalize(s);
    // The story stands on the dungeon: an objective target or an NPC's room that the change took
    // away is named anew (a locked frame refuses that).
    if crate::myk::story::repair(s, ctx.tables, &mut d.child("story")) && before.frame_locked {
        return Err("the frame is locked (`frame_locked` is true) and the objective or the cast lost its place".into());
    }
    let went_false = s.clues.iter().position(|c| clues::tells_truth(before, c) && !clues::tells_truth(s, c));
    let broken = check(s, ctx.tables).into_iter().find(|v| v.rule.starts_with("clue"));
    if went_false.is_none() && broken.is_none() {
        return Ok(());
    }
    if s.frame_locked {
        let which = match (went_false, broken) {
            (Some(k), _) => format!("clue {} would no longer be true", k + 1),
            (None, Some(v)) => v.to_string(),
            (None, None) => String::new(),
        };
        return Err(format!("the frame is locked (`frame_locked` is true) and {which}"));
    }
    ctx.g.clues_anew(s, d);
    Ok(())
}

/// Ok when every rule holds, else the first violation.
fn legal(s: &Scenario, tables: &Tables) -> std::result::Result<(), String> {
    match check(s, tables).first() {
        None => Ok(()),
        Some(v) => Err(v.to_string()),
    }
}
