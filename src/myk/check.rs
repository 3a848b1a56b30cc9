//! Every MYK rule, run on any scenario (generated or hand-edited). The generator calls `check` on
//! what it makes, so the rules cannot drift apart.

use crate::check::Violation;
use crate::myk::limits;
use crate::myk::model::{CorridorId, Map, Place, PlacedTrap, Reaction, Room, RoomId, Scenario};
use crate::myk::objects::Fit;
pub use crate::myk::reach::Reach;
use crate::tables::Tables;
use crate::tables::myk::{Installation, MykData, Placement, Route, Trap};

/// All violations of the scenario, in document order.
pub fn check(s: &Scenario, tables: &Tables) -> Vec<Violation> {
    check_graph(s, tables, None)
}

/// [`check`] with the scenario's movement graph already built (the generator's, from placing the
/// clues) and its `usage` just computed by [`usage`] (the generator's last step), so neither is
/// made twice. Only for a scenario whose `usage` nothing changed since.
pub(crate) fn check_with(s: &Scenario, tables: &Tables, reach: &Reach) -> Vec<Violation> {
    check_graph(s, tables, Some((reach, &s.usage)))
}

fn check_graph(s: &Scenario, tables: &Tables, given: Option<(&Reach, &crate::myk::model::Usage)>) -> Vec<Violation> {
    let mut v = Vec::new();
    if s.system != "myk" {
        v.push(Violation::new("scenario", "structure.system", format!("system is `{}`, expected `myk`", s.system)));
        return v;
    }
    // Court totals, limits and usage are derived: check recomputes them and never trusts the file.
    let court = limits::totals(&s.court.levels);
    if court.size == 0 {
        v.push(Violation::new("scenario", "court.size", "the court has no members"));
        return v;
    }
    if s.court.size as usize != s.court.levels.len() {
        // The levels decide the court; a size that disagrees is an edit that did not take.
        v.push(Violation::new(
            "scenario",
            "court.size",
            format!(
                "`court.size` is {} but `court.levels` lists {} levels; list one level per member",
                s.court.size,
                s.court.levels.len()
            ),
        ));
    }
    let lim = limits::limits(&court);
    if s.maps.is_empty() {
        v.push(Violation::new("scenario", "structure.maps", "the scenario has no maps"));
        return v;
    }
    for (i, m) in s.maps.iter().enumerate() {
        if m.index != i as u32 + 1 {
            v.push(Violation::new(
                format!("map {}", m.index),
                "structure.map-index",
                format!("map in position {} has index {}", i + 1, m.index),
            ));
        }
    }
    let structural_ok = s.maps.iter().all(|m| structure(m, &mut v));
    if !structural_ok {
        return v;
    }
    for m in &s.maps {
        entrances(s, m, &mut v);
        stock(s, m, &lim, tables, &mut v);
    }
    // Usage is recomputed from the scenario, never trusted from a file.
    let counted;
    let u = match given {
        Some((_, fresh)) => fresh,
        None => {
            counted = usage(s);
            &counted
        }
    };
    scenario_totals(u, &lim, &mut v);
    // One movement graph serves the reachability and clue rules.
    let built;
    let reach = match given {
        Some((r, _)) => r,
        None => {
            built = Reach::new(s, tables);
            &built
        }
    };
    movement(s, reach, &mut v);
    encounters(s, tables, &mut v);
    crate::myk::clues::check_in(s, reach, tables, &mut v);
    crate::myk::story::check(s, tables, &mut v);
    crate::myk::court::check(s, &mut v);
    crate::myk::movement::check(s, reach, &mut v);
    // A Relationship's NPC is someone the court can meet before the ruler (issue 46).
    crate::myk::weak_story::check(s, reach, &mut v);
    straight_layout(s, &mut v);
    v
}

fn here(m: &Map, r: RoomId) -> String {
    format!("map {} room {r}", m.index)
}

/// Writes "map N room " (or "map N corridor ") into `buf`, reusing its allocation and skipping
/// the formatting machinery, and gives its length: `check` runs on every generated scenario, and
/// each room or corridor only adds its name after it (most places are named for rules that hold).
fn write_place(buf: &mut String, map: u32, what: &str) -> usize {
    buf.clear();
    buf.push_str("map ");
    buf.push_str(itoa::Buffer::new().format(map));
    buf.push(' ');
    buf.push_str(what);
    buf.push(' ');
    buf.len()
}

/// A straight layout is one path: no room joins three or more corridors (seed 003 l.5135-5155).
fn straight_layout(s: &Scenario, v: &mut Vec<Violation>) {
    if s.params.layout != crate::myk::model::Layout::Straight {
        return;
    }
    for m in &s.maps {
        for r in m.used_rooms() {
            let n = m.corridors.iter().filter(|c| c.id().touches(r.id)).count();
            if n >= 3 {
                v.push(Violation::new(
                    here(m, r.id),
                    "layout.straight",
                    format!("`params.layout` is straight, but this room is a junction of {n} corridors"),
                ));
            }
        }
    }
}

/// Rooms, corridors and their places. Returns false when the map is too broken to check further.
fn structure(m: &Map, v: &mut Vec<Violation>) -> bool {
    let place = || format!("map {}", m.index);
    if m.rooms.len() != 9 || m.rooms.iter().zip(RoomId::ALL).any(|(r, id)| r.id != id) {
        v.push(Violation::new(place(), "structure.rooms", "a map lists its nine rooms A1..C3 in order"));
        return false;
    }
    if m.used_rooms().next().is_none() {
        v.push(Violation::new(place(), "structure.used-rooms", "the map uses no room"));
    }
    for r in m.rooms.iter().filter(|r| !r.used) {
        if !r.traps.is_empty() || !r.bases.is_empty() || r.has_monsters() {
            v.push(Violation::new(here(m, r.id), "structure.unused-room", "an unused room holds threats"));
        }
    }
    // The corridors seen so far, one bit per (first room, second room): no list to allocate.
    let mut seen = 0u128;
    for c in &m.corridors {
        let id = c.id();
        let at = || format!("map {} corridor {id}", m.index);
        if !c.a.is_adjacent(c.b) {
            v.push(Violation::new(at(), "corridor.adjacent", "corridors join orthogonally adjacent rooms only"));
        }
        let bit = 1u128 << (id.0.index() * 9 + id.1.index());
        if seen & bit != 0 {
            v.push(Violation::new(at(), "corridor.duplicate", "the corridor is listed twice"));
        }
        seen |= bit;
        if !m.room(c.a).used || !m.room(c.b).used {
            v.push(Violation::new(at(), "corridor.unused-room", "a corridor leads to an unused room"));
        }
        if let Some(d) = c.one_way
            && CorridorId::new(d.from, d.to) != id
        {
            v.push(Violation::new(at(), "corridor.one-way", format!("direction {d} is not along this corridor")));
        }
    }
    true
}

fn entrances(s: &Scenario, m: &Map, v: &mut Vec<Violation>) {
    let place = || format!("map {}", m.index);
    if m.entrances.len() > 2 {
        v.push(Violation::new(
            place(),
            "entrance.count",
            format!("{} entrances, at most 2 per map", m.entrances.len()),
        ));
    }
    if m.entrances.is_empty() {
        v.push(Violation::new(place(), "entrance.count", "the map has no entrance"));
    }
    let outside = m.entrances.iter().filter(|e| e.to.is_none()).count();
    // The dungeon is entered on its first map; any map may have a way out of its own too, within
    // its two entrances (seed 003 l.180).
    if m.index == 1 && outside == 0 {
        v.push(Violation::new(place(), "entrance.outside", "the first map has no entrance from outside"));
    }
    for e in &m.entrances {
        let at = || here(m, e.room);
        if !m.room(e.room).used {
            v.push(Violation::new(at(), "entrance.unused-room", "an entrance opens into an unused room"));
        }
        if !e.room.exterior_walls().any(|w| w == e.wall) {
            v.push(Violation::new(
                at(),
                "entrance.wall",
                format!("the {} wall of {} is not on the sheet's edge", e.wall.label(), e.room),
            ));
        }
        if let Some(to) = e.to {
            let back = s.map(to.map).is_some_and(|other| {
                other.entrances.iter().any(|b| b.room == to.room && b.to == Some(Place { map: m.index, room: e.room }))
            });
            if to.map == m.index || !back {
                v.push(Violation::new(
                    at(),
                    "entrance.link",
                    format!("the entrance to map {} room {} has no matching entrance leading back", to.map, to.room),
                ));
            }
        }
    }
}

fn stock(s: &Scenario, m: &Map, lim: &crate::myk::model::Limits, tables: &Tables, v: &mut Vec<Violation>) {
    let data = &tables.myk;
    let rooms_with_monsters = m.rooms.iter().filter(|r| r.has_monsters()).count() as u32;
    if rooms_with_monsters > lim.rooms_with_monsters {
        v.push(Violation::new(
            format!("map {}", m.index),
            "monsters.rooms-per-map",
            format!("{rooms_with_monsters} rooms with monsters, limit {} (A + 2)", lim.rooms_with_monsters),
        ));
    }
    let rulers = m.rooms.iter().filter(|r| r.ruler.is_some()).count();
    if rulers > 1 {
        v.push(Violation::new(
            format!("map {}", m.index),
            "ruler.per-map",
            format!("{rulers} rulers, at most one per map"),
        ));
    }
    // Room enough for the longest place ("map 20 corridor A1-A2"): one allocation, no regrowth.
    let mut at = String::with_capacity(32);
    let prefix = write_place(&mut at, m.index, "room");
    for r in &m.rooms {
        at.truncate(prefix);
        at.push_str(r.id.name());
        for t in &r.traps {
            // One look-up by name serves every rule about the trap.
            let rec = data.trap(&t.name);
            trap(t, rec, (Some(r), None), m, data, &at, v);
            crate::myk::traps::gate_keeper_of(s, t, rec, lim, data, &at, v);
        }
        bases(r, data, &at, v);
        monsters(r, lim, data, &at, v);
        if let Some(ru) = &r.ruler {
            let seat = crate::myk::weak_points::Seat { scenario: s, map: m, room: r, ruler: ru };
            crate::myk::ruler::check(&seat, lim, tables, &at, v);
        }
        crate::myk::traps::area_traps(r, &at, v);
    }
    let prefix = write_place(&mut at, m.index, "corridor");
    for c in &m.corridors {
        let id = c.id();
        at.truncate(prefix);
        at.push_str(id.0.name());
        at.push('-');
        at.push_str(id.1.name());
        let mut moving = false;
        if let Some(t) = &c.trap {
            let rec = data.trap(&t.name);
            trap(t, rec, (None, Some(c.id())), m, data, &at, v);
            crate::myk::traps::gate_keeper_of(s, t, rec, lim, data, &at, v);
            moving = rec.is_some_and(|t| t.route == Some(Route::OneWay));
        }
        if moving != c.one_way.is_some() {
            v.push(Violation::new(
                at.as_str(),
                "corridor.one-way",
                if moving {
                    "a Moving Floor needs the corridor's `one_way` direction"
                } else {
                    "`one_way` is set without a one-way trap"
                },
            ));
        }
    }
}

/// One placed trap against its table record and where it stands: the record's data, its
/// placement and object, and what it does to corridors and the court's movement.
#[allow(clippy::too_many_arguments)]
fn trap(
    t: &crate::myk::model::PlacedTrap,
    rec: Option<&crate::tables::myk::Trap>,
    (room, corridor): (Option<&Room>, Option<CorridorId>),
    m: &Map,
    data: &MykData,
    at: &str,
    v: &mut Vec<Violation>,
) {
    let Some(rec) = rec else {
        v.push(Violation::new(at, "trap.unknown", format!("trap `{}` is not in the tables", t.name)));
        return;
    };
    let placement = trap_record(t, rec, at, v);
    trap_spot(t, rec, placement, (room, corridor), (m, data), at, v);
    trap_corridor(t, rec, room, m, at, v);
    trap_destination(t, rec, m, at, v);
}

/// The trap's category, activation, placement and level are its record's (a Room trap converted
/// to an Event trap is an Event trap 3 levels higher). Returns the placement it must have.
fn trap_record(t: &PlacedTrap, rec: &Trap, at: &str, v: &mut Vec<Violation>) -> Placement {
    let name = &t.name;
    if rec.category != t.category || rec.activation != t.activation {
        v.push(Violation::new(
            at,
            "trap.record",
            format!("`{name}` does not match its table entry (category or activation)"),
        ));
    }
    let expected_placement = if t.converted { Placement::Event } else { rec.placement };
    if t.converted && rec.placement != Placement::Room {
        v.push(Violation::new(
            at,
            "trap.conversion",
            format!("only Room traps become Event traps; `{name}` is a {} trap", rec.placement.label()),
        ));
    }
    if t.placement != expected_placement {
        v.push(Violation::new(
            at,
            "trap.placement",
            format!("`{name}` is placed as {}, its table says {}", t.placement.label(), expected_placement.label()),
        ));
    }
    // The disarm is the table's (seed 003 l.5585-5601): how the court removes the trap is no choice.
    // The table's own text (every generated trap's) needs no trimming or case folding.
    if t.disarm != rec.disarm_text && !t.disarm.trim().eq_ignore_ascii_case(rec.disarm_text.trim()) {
        v.push(Violation::new(
            at,
            "trap.disarm",
            format!("`{name}` is disarmed by `{}`, its table says `{}`", t.disarm, rec.disarm_text),
        ));
    }
    let ok_level = crate::myk::traps::level_for(rec, t.converted, t.level) == t.level;
    if !ok_level {
        let want = if t.converted {
            format!("{} + {}", rec.level, crate::myk::traps::CONVERSION_LEVELS)
        } else {
            rec.level.to_string()
        };
        v.push(Violation::new(at, "trap.level", format!("`{name}` has level {}, its table says {want}", t.level)));
    }
    expected_placement
}

/// The trap stands where its placement allows (a combat trap where monsters fight), an Event
/// trap sits on an object its record allows, and the room holds what the trap needs.
#[allow(clippy::too_many_arguments)]
fn trap_spot(
    t: &PlacedTrap,
    rec: &Trap,
    placement: Placement,
    (room, corridor): (Option<&Room>, Option<CorridorId>),
    (m, data): (&Map, &MykData),
    at: &str,
    v: &mut Vec<Violation>,
) {
    let name = &t.name;
    match (placement, room, corridor) {
        (Placement::Corridor, _, Some(_)) | (Placement::Room | Placement::Event, Some(_), _) => {}
        // An Event trap whose objects include a corridor (Guillotine, seed 003 l.5729) stands in one.
        (Placement::Event, None, Some(_)) if in_corridor_allowed(rec) => {}
        (Placement::Area, Some(r), _) => {
            if !r.has_monsters() {
                v.push(Violation::new(
                    at,
                    "trap.area",
                    format!("`{name}` is a combat (Area) trap in a room without monsters"),
                ));
            }
        }
        (p, _, _) => {
            let place = if corridor.is_some() { "a corridor" } else { "a room" };
            v.push(Violation::new(
                at,
                "trap.placement",
                format!("`{name}` ({} placement) cannot stand in {place}", p.label()),
            ));
        }
    }
    if placement == Placement::Event {
        match &t.object {
            None => v.push(Violation::new(at, "trap.object", format!("Event trap `{name}` names no object"))),
            Some(o) => match crate::myk::objects::fits(data, rec, o) {
                Fit::Fits => {}
                Fit::Own(why) => v.push(Violation::advice(at, "trap.object-own", why)),
                Fit::No(why) => v.push(Violation::new(at, "trap.object", why)),
            },
        }
    }
    if let Some(r) = room
        && let Some((rule, msg)) = crate::myk::traps::fits_room(rec, t.object.as_deref(), r, m, data)
    {
        v.push(Violation::new(at, rule, msg));
    }
}

/// A hidden-passage trap names a corridor of its own room; no other trap names a corridor.
fn trap_corridor(t: &PlacedTrap, rec: &Trap, room: Option<&Room>, m: &Map, at: &str, v: &mut Vec<Violation>) {
    let name = &t.name;
    match (rec.route, t.corridor, room) {
        (Some(Route::Hidden), Some(c), Some(r)) if !c.touches(r.id) || !m.corridors.iter().any(|x| x.id() == c) => {
            v.push(Violation::new(
                at,
                "trap.corridor",
                format!("`{name}` hides corridor {c}, which is not a corridor of this room"),
            ));
        }
        (Some(Route::Hidden), Some(_), Some(_)) => {}
        (Some(Route::Hidden), None, Some(_)) => {
            v.push(Violation::new(at, "trap.corridor", format!("`{name}` must name the corridor it hides")));
        }
        (_, Some(c), _) if rec.route != Some(Route::Hidden) => {
            v.push(Violation::new(at, "trap.corridor", format!("`{name}` does not affect a corridor, but names {c}")));
        }
        _ => {}
    }
}

/// A trap that moves the court (teleport, redirect) records where to, a used room of its own
/// map; no other trap records a destination.
fn trap_destination(t: &PlacedTrap, rec: &Trap, m: &Map, at: &str, v: &mut Vec<Violation>) {
    let name = &t.name;
    let moves = matches!(rec.route, Some(Route::Teleport | Route::Redirect));
    match (moves, t.destination) {
        (true, None) => v.push(Violation::new(
            at,
            "trap.destination",
            format!("`{name}` moves the court and must record its destination"),
        )),
        (false, Some(_)) => v.push(Violation::new(
            at,
            "trap.destination",
            format!("`{name}` does not move the court, but records a destination"),
        )),
        (true, Some(d)) if d.map != m.index || !m.room(d.room).used => v.push(Violation::new(
            at,
            "trap.destination",
            format!("`{name}` sends the court to map {} room {}, which is not a used room of this map", d.map, d.room),
        )),
        _ => {}
    }
}

/// Whether an Event trap may stand in a corridor: its objects name one.
pub(crate) fn in_corridor_allowed(rec: &crate::tables::myk::Trap) -> bool {
    rec.placement == Placement::Event && rec.objects.iter().any(|o| o.eq_ignore_ascii_case("corridor"))
}

fn bases(r: &Room, data: &crate::tables::myk::MykData, at: &str, v: &mut Vec<Violation>) {
    for b in &r.bases {
        match data.base(&b.name) {
            None => v.push(Violation::new(at, "base.unknown", format!("base `{}` is not in the tables", b.name))),
            Some(rec) => {
                if rec.level != Some(b.level) {
                    let want = rec.level.map_or("unknown".to_string(), |l| l.to_string());
                    v.push(Violation::new(
                        at,
                        "base.level",
                        format!("`{}` has level {}, its table says {want}", b.name, b.level),
                    ));
                }
                if rec.installation != b.installation {
                    v.push(Violation::new(
                        at,
                        "base.installation",
                        format!("`{}` is installed as {}", b.name, rec.installation.label()),
                    ));
                }
            }
        }
    }
    let room_bases = r.bases.iter().filter(|b| b.installation == Installation::Room).count();
    if room_bases > 1 || r.bases.len() > 2 {
        v.push(Violation::new(
            at,
            "base.installation",
            "a room holds one Room-installation base at most, plus one Addition base joining it",
        ));
    }
}

fn monsters(
    r: &Room,
    lim: &crate::myk::model::Limits,
    data: &crate::tables::myk::MykData,
    at: &str,
    v: &mut Vec<Violation>,
) {
    let mut total = 0u32;
    for g in &r.monsters {
        let rec = data.monster(&g.name);
        match rec {
            None => {
                v.push(Violation::new(at, "monster.unknown", format!("monster `{}` is not in the bestiary", g.name)))
            }
            Some(rec) if rec.level != Some(g.level) => v.push(Violation::new(
                at,
                "monster.level",
                format!(
                    "`{}` has level {}, the bestiary says {}",
                    g.name,
                    g.level,
                    rec.level.map_or("unknown".into(), |l| l.to_string())
                ),
            )),
            _ => {}
        }
        if g.count == 0 {
            v.push(Violation::new(at, "monster.count", format!("`{}` has a count of 0", g.name)));
        }
        crate::myk::monsters::check_group_of(g, rec, at, v);
        let cap = lim.monster_level;
        if g.effective_level > cap {
            let rule = if r.ruler.is_some() { "ruler-room.others" } else { "monster.level-limit" };
            v.push(Violation::new(
                at,
                rule,
                format!("`{}` is effective level {}, limit {cap} (A + 4)", g.name, g.effective_level),
            ));
        }
        // Saturating: a hand-edited count or level may be any number.
        total = total.saturating_add(g.count.saturating_mul(g.effective_level));
    }
    // One limit rule for every room (`Limits::room_cap`): 4S + T beside a ruler, else by reaction.
    let total = total.saturating_add(r.ruler.as_ref().map_or(0, |ru| ru.effective_level));
    if let Some((cap, formula)) = lim.room_cap(r.ruler.is_some(), r.monsters.iter().map(|g| g.reaction))
        && total > cap
    {
        if r.ruler.is_some() {
            v.push(Violation::new(
                at,
                "ruler-room.total",
                format!("monster levels total {total} in the ruler's room, limit {cap} ({formula})"),
            ));
        } else {
            let strictest = r.monsters.iter().map(|g| g.reaction).min_by_key(|&x| lim.room_total(x));
            let label = strictest.map_or("", Reaction::label);
            v.push(Violation::new(
                at,
                "room.total",
                format!("monster levels total {total}, limit {cap} for {label} monsters ({formula})"),
            ));
        }
    }
}

fn scenario_totals(u: &crate::myk::model::Usage, lim: &crate::myk::model::Limits, v: &mut Vec<Violation>) {
    if u.traps_number > lim.traps_number {
        v.push(Violation::new(
            "scenario",
            "traps.number",
            format!("{} traps, limit {} (3S + A)", u.traps_number, lim.traps_number),
        ));
    }
    if u.traps_total_level > lim.traps_total_level {
        v.push(Violation::new(
            "scenario",
            "traps.total-level",
            format!("trap levels total {}, limit {} (10A)", u.traps_total_level, lim.traps_total_level),
        ));
    }
    if u.bases_total_level > lim.bases_total_level {
        v.push(Violation::new(
            "scenario",
            "bases.total-level",
            format!("base levels total {}, limit {} (A)", u.bases_total_level, lim.bases_total_level),
        ));
    }
}

/// What the scenario uses of each limit (recomputed, never trusted from the file), in one pass
/// over the rooms and corridors (sums saturate, so their order does not matter).
pub fn usage(s: &Scenario) -> crate::myk::model::Usage {
    let mut u = crate::myk::model::Usage::default();
    let mut traps = 0usize;
    for m in &s.maps {
        let mut with_monsters = 0u32;
        for r in &m.rooms {
            traps += r.traps.len();
            u.traps_total_level = r.traps.iter().fold(u.traps_total_level, |n, t| n.saturating_add(t.level));
            u.bases_total_level = r.bases.iter().fold(u.bases_total_level, |n, b| n.saturating_add(b.level));
            with_monsters += u32::from(r.has_monsters());
            for g in &r.monsters {
                u.highest_monster_level = u.highest_monster_level.max(g.effective_level);
            }
            match &r.ruler {
                None => {
                    let total = r
                        .monsters
                        .iter()
                        .fold(0u32, |n, g| n.saturating_add(g.count.saturating_mul(g.effective_level)));
                    u.highest_room_total = u.highest_room_total.max(total);
                }
                Some(ru) => u.highest_ruler_level = u.highest_ruler_level.max(ru.effective_level),
            }
        }
        for t in m.corridors.iter().filter_map(|c| c.trap.as_ref()) {
            traps += 1;
            u.traps_total_level = u.traps_total_level.saturating_add(t.level);
        }
        u.most_rooms_with_monsters = u.most_rooms_with_monsters.max(with_monsters);
    }
    u.traps_number = traps as u32;
    u
}

/// The rules of moving through the dungeon: every room reached and left, the ruler's by ordinary
/// ways, each Secret Door's room enterable, each Warder's room kept to its corridors. The
/// generator keeps every trap it places to them (`Gen::reachable`).
pub(crate) fn movement(s: &Scenario, g: &Reach, v: &mut Vec<Violation>) {
    reachability(s, g, v);
    crate::myk::traps::secret_doors(s, g, v);
    // The Warder rule is about Warders' rooms: with none in the graph, no map has one to look at
    // (the generator asks after every trap that moves the court).
    if g.has_warders() {
        for (p, m) in s.maps.iter().enumerate() {
            crate::myk::traps::warders(m, p, g, v);
        }
    }
}

/// The random encounter table is the book's for the court's average level, resolved for its size
/// (seed 003 l.2907): a table of another level, count or monster is not the court's. The rows are
/// compared with the tables the scenario names (`generator.tables`) whenever they are known (the
/// tables in use or the built-in ones); a tag naming neither is a warning that names it, with the
/// first row that differs from the tables in use.
fn encounters(s: &Scenario, tables: &Tables, v: &mut Vec<Violation>) {
    let want = crate::myk::limits::encounter_table(tables, &s.court);
    if s.encounters.level != want.level {
        v.push(Violation::new(
            "encounters",
            "encounters.table",
            format!(
                "the table is for level {}, but a court of average level {} uses level {}",
                s.encounters.level, s.court.average_level, want.level
            ),
        ));
    } else {
        // Rows are compared with the tables the scenario was made from: another version of the
        // tables (an older file, a GM's --tables) may word a row otherwise.
        let tag = s.generator.tables.as_str();
        let embedded = (tag != tables.version.as_str() && tag == crate::tables::EMBEDDED_TABLES_VERSION)
            .then(crate::tables::Tables::embedded)
            .and_then(Result::ok);
        let named = if tag == tables.version.as_str() { Some(tables) } else { embedded.as_ref() };
        let differs = |t: &Tables| {
            let want = crate::myk::limits::encounter_table(t, &s.court);
            let row = s.encounters.rows.iter().zip(want.rows.iter()).position(|(a, b)| a != b);
            let row = row
                .or((s.encounters.rows.len() != want.rows.len())
                    .then_some(want.rows.len().min(s.encounters.rows.len())));
            row.map(|i| {
                format!("row {} differs from the level {} table for a court of {}", i + 1, want.level, s.court.size)
            })
        };
        match named {
            Some(t) => {
                if let Some(which) = differs(t) {
                    let msg = format!("{which} (monsters and counts come from the table)");
                    v.push(Violation::new("encounters", "encounters.table", msg));
                }
            }
            None => {
                let rows = differs(tables)
                    .map_or("its rows match these tables".to_string(), |w| format!("in these tables {w}"));
                let msg = format!(
                    "the file names tables `{tag}`, neither these (`{}`) nor the built-in ones, so its encounter table \
                     cannot be compared with the tables it was made from; {rows}",
                    tables.version
                );
                v.push(Violation::advice("encounters", "encounters.tables-unknown", msg));
            }
        }
    }
}

fn reachability(s: &Scenario, g: &Reach, v: &mut Vec<Violation>) {
    let forward = g.from_outside(true);
    let mut normal = g.from_outside(false);
    let ruler_missed = s
        .maps
        .iter()
        .enumerate()
        .any(|(p, m)| m.used_rooms().any(|r| r.ruler.is_some() && !Reach::at(&normal, p, r.id)));
    if ruler_missed {
        // A Lock on the way to the ruler is an obstacle the court opens by its own check (seed
        // 003 l.6045), not special movement.
        normal = g.from_outside_unlocked();
    }
    let back = g.back_to_outside();
    for (p, m) in s.maps.iter().enumerate() {
        for r in m.used_rooms() {
            let at = || here(m, r.id);
            if !Reach::at(&forward, p, r.id) {
                v.push(Violation::new(at(), "reach.from-entrance", "the room cannot be reached from the entrance"));
            } else if !Reach::at(&back, p, r.id) {
                v.push(Violation::new(at(), "reach.back", "the court cannot get back to the entrance from this room"));
            }
            if r.ruler.is_some() && !Reach::at(&normal, p, r.id) {
                v.push(Violation::new(
                    at(),
                    "reach.ruler",
                    "the ruler's room is reached only through special movement",
                ));
            }
        }
    }
}
