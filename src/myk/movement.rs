//! Scenario Movement planned on the map (seed 003 l.6286-6330): the book gives the Quarter's
//! actions to a single NPC, who moves only "to another room connected to it by a corridor",
//! and whose violence is best prevented by a check or spaced "once every 2-4 Quarters" (l.6308).
//!
//! The plan is data: who acts (the objective map's ruler, the guards holding the objective's
//! NPC, or the searched-for target itself), where it starts, whether it moves and toward what;
//! the first Quarter is the first the court can reach the actor's map, the last the Quarter the
//! longest route through the dungeon needs. Each entry is drawn from the pool only when the claims
//! it makes (`actor`, `kinds`, `needs`) hold on the map. The generator and `check` read the one
//! corridor rule ([`corridor_between`]) and the one rule of the court's time ([`court_quarters`]).

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{Map, ObjectiveKind, Place, Quarter, Reaction, RoomId, Scenario};
use crate::myk::reach::Reach;
use crate::tables::Tables;
use crate::tables::myk::{Route, TrapCategory};
use crate::tables::story::{Actor, Movement, Need, StoryPools, fits};

/// The fewest and most Quarters between two harmful actions (violence, influence, a changed
/// environment): the book's "once every 2-4 Quarters" (seed 003 l.6308).
pub const HARM_GAP: (u32, u32) = (2, 4);

/// The HP a hostage starts the Movement with. The book gives a hostage no numbers; twelve
/// takes three or four of the guards' 1D6 blows, so a court that comes straight finds the
/// hostage hurt, not dead.
pub const HOSTAGE_HP: u32 = 12;

/// The actions that harm (spaced by [`HARM_GAP`]); the book restricts influence "in a manner
/// similar to Violence" (l.6318).
const HARM: [&str; 3] = ["violence", "influence", "environment"];

/// The attributes a prevention check may name: the Ability Scores and the Kingdom Attributes
/// (seed 003 l.148-166, l.519-528).
const ATTRIBUTES: [&str; 8] =
    ["Quest", "Wit", "Charisma", "Warfare", "Lifestyle Level", "Culture Level", "Order Level", "Military Level"];

/// The plan of the Movement: who acts, from where, whether it moves, and its Quarters.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub actor: Actor,
    /// The actor's name as the entries' `who`.
    pub who: String,
    pub start: Place,
    /// Whether the actor moves at all (an actor standing on the objective holds it).
    pub moves: bool,
    /// A move goes only nearer the objective's room (deliver and acquire: the villain comes for
    /// the thing the court carries or seeks).
    pub approach: bool,
    /// The first Quarter the court can stand on the actor's map.
    pub first: u32,
    /// The Quarter the longest route needs: the last Quarter the court can first enter a room
    /// (at least a race's arrival).
    pub last: u32,
}

/// The court's fewest Quarters to each room, by [`Reach::node`]: every way of the movement graph,
/// one Quarter per room entered, a Movement trap in a corridor (seed 003 l.6055-6105: each makes
/// at least one more Quarter pass) one Quarter more.
pub fn court_quarters(s: &Scenario, reach: &Reach) -> Vec<Option<u32>> {
    reach.quarters_from_outside(|p, c| {
        let trap = s.maps.get(p).and_then(|m| m.corridors.iter().find(|x| x.id() == c)).and_then(|x| x.trap.as_ref());
        u32::from(trap.is_some_and(|t| t.category == TrapCategory::Movement))
    })
}

/// The first Quarter the court can stand in a room of the map at position `map_pos`.
pub fn map_first(q: &[Option<u32>], map_pos: usize) -> Option<u32> {
    RoomId::ALL.iter().filter_map(|&r| q.get(Reach::node(map_pos, r)).copied().flatten()).min()
}

/// Whether a corridor of map `m` joins rooms `a` and `b` (either way round): the one rule a move
/// is held to.
pub fn corridor_between(m: &Map, a: RoomId, b: RoomId) -> bool {
    m.corridors.iter().any(|c| (c.a == a && c.b == b) || (c.a == b && c.b == a))
}

/// The used rooms an actor in room `r` can walk to: along a corridor that exists, is not closed
/// (an Infinite Corridor) and, if one-way, runs from `r`.
fn exits(m: &Map, r: RoomId, tables: &Tables) -> Vec<RoomId> {
    let closed = |c: &crate::myk::model::Corridor| {
        c.trap.as_ref().and_then(|t| tables.myk.trap(&t.name)).and_then(|t| t.route) == Some(Route::Closed)
    };
    m.corridors
        .iter()
        .filter(|c| (c.a == r || c.b == r) && !closed(c))
        .filter(|c| c.one_way.is_none_or(|d| d.from == r))
        .map(|c| c.id().other(r))
        .filter(|&x| m.room(x).used)
        .collect()
}

/// Steps along the map's corridors from room `from` to every room (`None`: not joined).
fn steps(m: &Map, from: RoomId, tables: &Tables) -> [Option<u32>; 9] {
    let mut d = [None; 9];
    d[from.index()] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(r) = queue.pop_front() {
        let here = d[r.index()].unwrap_or(0);
        for x in exits(m, r, tables) {
            if d[x.index()].is_none() {
                d[x.index()] = Some(here + 1);
                queue.push_back(x);
            }
        }
    }
    d
}

/// Where the objective map's ruler stands (its strongest group's room when it has none).
fn ruler_place(s: &Scenario, map: &Map, name: &str) -> Option<Place> {
    let at = |r: &crate::myk::model::Room| Place { map: map.index, room: r.id };
    let rooms = || map.used_rooms();
    rooms()
        .find(|r| r.ruler.as_ref().is_some_and(|x| x.name == name))
        .or_else(|| rooms().find(|r| r.monsters.iter().any(|g| g.name == name)))
        .map(at)
        .or(s.objective.at)
}

/// The Movement's plan for the scenario as it stands (`None` without a used room to act in).
/// `ruler` is the objective map's ruler as the story names it (`{ruler}`).
pub fn plan(s: &Scenario, ruler: &str, q: &[Option<u32>]) -> Option<Plan> {
    let o = &s.objective;
    let goal = o.at;
    let map = goal.and_then(|p| s.map(p.map)).or(s.maps.last())?;
    let goal_room = goal.map(|p| map.room(p.room));
    let ruler = ruler.to_string();
    let guards = goal_room.and_then(|r| {
        r.monsters.iter().filter(|g| g.reaction == Reaction::Hostile).max_by_key(|g| g.level).map(|g| &g.name)
    });
    let quarry = goal_room.is_some_and(|r| {
        r.ruler.as_ref().is_some_and(|x| x.name == o.target) || r.monsters.iter().any(|g| g.name == o.target)
    });
    let (actor, who, start) = match (o.kind, goal) {
        (ObjectiveKind::Rescue, Some(g)) => (Actor::Jailers, guards.map_or("the guards", |n| n.as_str()).into(), g),
        (ObjectiveKind::Search, Some(g)) if quarry => (Actor::Quarry, o.target.clone(), g),
        _ => {
            let at = ruler_place(s, map, &ruler)
                .or_else(|| map.used_rooms().next().map(|r| Place { map: map.index, room: r.id }))?;
            (Actor::Ruler, ruler, at)
        }
    };
    let pos = s.maps.iter().position(|m| m.index == start.map)?;
    let first = map_first(q, pos).unwrap_or(1);
    let longest = s
        .maps
        .iter()
        .enumerate()
        .flat_map(|(p, m)| m.used_rooms().filter_map(move |r| q.get(Reach::node(p, r.id)).copied().flatten()))
        .max();
    let race = crate::myk::goal::race_quarters(s).unwrap_or(0);
    let last = longest.unwrap_or(first).max(race).max(first);
    let moves = match actor {
        Actor::Jailers => false,
        Actor::Quarry => true,
        Actor::Ruler => Some(start) != goal,
    };
    let approach = matches!(o.kind, ObjectiveKind::Deliver | ObjectiveKind::Acquire) && actor == Actor::Ruler;
    Some(Plan { actor, who, start, moves, approach, first, last })
}

/// The rooms the actor may not walk into: where a cast NPC stands, and the objective's room
/// unless the actor is the searched-for target that left it.
fn barred(s: &Scenario, plan: &Plan) -> Vec<Place> {
    let mut out: Vec<Place> = s.cast.iter().filter_map(|n| n.place).collect();
    if plan.actor != Actor::Quarry {
        out.extend(s.objective.at);
    }
    out
}

/// What the map offers one move: from, to, and the distances the entries' claims read.
struct Step<'a> {
    map: &'a Map,
    from: RoomId,
    to: RoomId,
    goal: &'a [Option<u32>; 9],
    court: &'a dyn Fn(RoomId) -> Option<u32>,
    exits_here: usize,
}

/// Whether every claim of `needs` holds: for a move, on `step`; for any action, `at_goal`.
fn holds(needs: &[Need], step: Option<&Step>, at_goal: bool) -> bool {
    let nearer = |d: &[Option<u32>; 9], a: RoomId, b: RoomId| match (d[a.index()], d[b.index()]) {
        (Some(x), Some(y)) => y < x,
        _ => false,
    };
    needs.iter().all(|n| match (n, step) {
        (Need::AtGoal, _) => at_goal,
        (Need::TwoExits, Some(st)) => st.exits_here >= 2,
        (Need::TowardGoal, Some(st)) => nearer(st.goal, st.from, st.to),
        (Need::AwayFromGoal, Some(st)) => nearer(st.goal, st.to, st.from),
        (Need::TowardEntry, Some(st)) => {
            matches!(((st.court)(st.from), (st.court)(st.to)), (Some(a), Some(b)) if b < a)
        }
        (Need::AwayFromEntry, Some(st)) => {
            matches!(((st.court)(st.from), (st.court)(st.to)), (Some(a), Some(b)) if b > a)
        }
        (_, None) => false,
    }) && step.is_none_or(|st| st.map.room(st.to).used)
}

/// The rooms the actor may move to from `at`: joined by a corridor, held by no other party,
/// and, for an approach, nearer the objective's room.
fn destinations(
    map: &Map,
    at: RoomId,
    plan: &Plan,
    barred: &[Place],
    goal_steps: &[Option<u32>; 9],
    tables: &Tables,
) -> Vec<RoomId> {
    if !plan.moves {
        return Vec::new();
    }
    let nearer = |r: RoomId| matches!((goal_steps[at.index()], goal_steps[r.index()]), (Some(a), Some(b)) if b < a);
    exits(map, at, tables)
        .into_iter()
        .filter(|&r| !barred.contains(&Place { map: map.index, room: r }))
        .filter(|&r| !plan.approach || nearer(r))
        .collect()
}

/// Scenario Movement for the scenario, planned on its map: at most one entry per Quarter from
/// the plan's first Quarter to its last, harm spaced by [`HARM_GAP`], moves along corridors into
/// rooms no other party holds. Texts keep their slots (filled when printed).
/// `ruler` is `{ruler}`'s name; `f` fills the texts (keeping the slots the booklet fills).
pub fn write(s: &Scenario, tables: &Tables, ruler: &str, f: &dyn crate::text::Values, d: &mut Dice) -> Vec<Quarter> {
    let reach = Reach::new(s, tables);
    let q = court_quarters(s, &reach);
    let Some(plan) = plan(s, ruler, &q) else { return Vec::new() };
    let pools = &tables.story;
    let kind = s.objective.kind.name();
    let Some(pos) = s.maps.iter().position(|m| m.index == plan.start.map) else { return Vec::new() };
    let map = &s.maps[pos];
    let goal_steps = match s.objective.at.filter(|g| g.map == map.index) {
        Some(g) => steps(map, g.room, tables),
        None => [None; 9],
    };
    let court = |r: RoomId| q.get(Reach::node(pos, r)).copied().flatten();
    let barred = barred(s, &plan);
    let mut at = plan.start.room;
    let mut out: Vec<Quarter> = Vec::with_capacity((plan.last + 1 - plan.first) as usize);
    let mut used = vec![false; pools.movement.len()];
    let mut next_harm = plan.first + d.between(0, 1);
    let mut last_entry = None;
    let race = crate::myk::goal::race_quarters(s);
    let groups = actor_entries(pools, plan.actor, kind);
    let mut lists = Lists::default();
    for quarter in plan.first..=plan.last {
        let here = Place { map: map.index, room: at };
        let at_goal = s.objective.at == Some(here);
        let dests = destinations(map, at, &plan, &barred, &goal_steps, tables);
        let exits_here = exits(map, at, tables).len();
        let fits_entry = |e: &Movement, step: Option<&Step>| holds(&e.needs, step, at_goal);
        // The last Quarter and a race's arrival always get an entry (the arrival is printed there).
        let must = quarter == plan.last || Some(quarter) == race;
        let order = actions(quarter >= next_harm, !dests.is_empty(), must, d);
        let mut made = None;
        for action in order {
            let group = groups.iter().find(|(a, _)| *a == action).map_or(&[][..], |(_, g)| g.as_slice());
            if action == "move" {
                if dests.is_empty() {
                    continue;
                }
                let to = dests[d.below(dests.len() as u32) as usize];
                let step = Step { map, from: at, to, goal: &goal_steps, court: &court, exits_here };
                if let Some(k) =
                    draw(pools, group, &used, last_entry, kind, d, |e| fits_entry(e, Some(&step)), &mut lists)
                {
                    made = Some((k, Some(to)));
                    break;
                }
            } else if let Some(k) = draw(pools, group, &used, last_entry, kind, d, |e| fits_entry(e, None), &mut lists)
            {
                made = Some((k, None));
                break;
            }
        }
        let Some((k, to)) = made else { continue };
        let e = &pools.movement[k];
        used[k] = true;
        last_entry = Some(k);
        if HARM.contains(&e.action.as_str()) {
            next_harm = quarter + d.between(HARM_GAP.0, HARM_GAP.1);
        }
        let from = to.map(|_| here);
        if let Some(t) = to {
            at = t;
        }
        out.push(Quarter {
            quarter,
            action: e.action.clone(),
            text: crate::text::fill(e.text.as_str(), f),
            prevent: crate::text::fill(e.prevent.as_str(), f),
            who: plan.who.clone(),
            at: Some(Place { map: map.index, room: at }),
            from,
        });
    }
    out
}

/// The actions to try this Quarter, in order: a harm (in a shuffled order) once the gap since the
/// last has passed, a move in two Quarters of three where one is possible, then a scene or a
/// move in one quiet Quarter of two (a Quarter may pass with nothing to tell), always in the
/// last so the list reaches the longest route.
fn actions(harm: bool, can_move: bool, last: bool, d: &mut Dice) -> Vec<&'static str> {
    let mut order: Vec<&'static str> = Vec::with_capacity(6);
    if harm {
        let mut h = HARM.to_vec();
        d.shuffle(&mut h);
        order.extend(h);
    }
    if can_move && d.below(3) < 2 {
        order.push("move");
    }
    if last || d.chance(1, 2) {
        order.extend(["scene", "move"]);
    }
    order
}

/// Whether entry `k` is written for objective kind `kind` (tied to the objective).
/// The Movement entries `actor` may take in a scenario of objective `kind`, by action, each list
/// in the pool's order: a Quarter draws among one action's few dozen entries. (Drawing from the
/// whole pool of hundreds, filtered twice at every try, was a fifth of a scenario's generation.)
fn actor_entries<'p>(pools: &'p StoryPools, actor: Actor, kind: &str) -> Vec<(&'p str, Vec<usize>)> {
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (k, e) in pools.movement.iter().enumerate() {
        if e.actor != actor || !fits(&e.kinds, kind) {
            continue;
        }
        match groups.iter_mut().find(|(a, _)| *a == e.action.as_str()) {
            Some((_, g)) => g.push(k),
            None => groups.push((e.action.as_str(), vec![k])),
        }
    }
    groups
}

fn tied(pools: &StoryPools, k: usize, kind: &str) -> bool {
    pools.movement[k].kinds.iter().any(|x| x == kind)
}

/// An entry of `group` (one action's entries, [`actor_entries`]) that `fit` lets through: one
/// written for the objective's kind while the list has none of that action yet (so each action
/// the objective can shape is shaped once, and the rest keeps the whole pool's variety), else
/// any; an entry not yet used first, never the entry just used.
#[allow(clippy::too_many_arguments)] // the draw's inputs, and the lists it reuses
fn draw(
    pools: &StoryPools,
    group: &[usize],
    used: &[bool],
    last: Option<usize>,
    kind: &str,
    d: &mut Dice,
    fit: impl Fn(&Movement) -> bool,
    lists: &mut Lists,
) -> Option<usize> {
    let Lists { all, fresh, own } = lists;
    all.clear();
    all.extend(group.iter().copied().filter(|&k| Some(k) != last && fit(&pools.movement[k])));
    fresh.clear();
    fresh.extend(all.iter().copied().filter(|&k| !used[k]));
    let list = if fresh.is_empty() { &*all } else { &*fresh };
    let shaped = group.iter().any(|&k| used[k] && tied(pools, k, kind) && fit(&pools.movement[k]));
    // A scene changes nothing, so it is not what ties the Movement to the objective.
    own.clear();
    own.extend(list.iter().copied().filter(|&k| tied(pools, k, kind) && pools.movement[k].action != "scene"));
    let list = if !own.is_empty() && !shaped { &*own } else { list };
    d.choose(list).copied()
}

/// The lists [`draw`] makes at every try, kept for the next (one allocation each a scenario,
/// not three a try).
#[derive(Default)]
struct Lists {
    all: Vec<usize>,
    fresh: Vec<usize>,
    own: Vec<usize>,
}

/// The check a prevention line names, as (attribute, difficulty): "a Quest / 9 check".
pub fn prevention(text: &str) -> Option<(&'static str, u32)> {
    ATTRIBUTES.iter().find_map(|&a| {
        // The first "<attribute> / ", found without building the pattern for each attribute.
        let mut from = 0;
        let at = loop {
            let i = crate::text::find_at(text, a, from)?;
            if text[i + a.len()..].starts_with(" / ") {
                break i;
            }
            from = i + 1;
        };
        let rest = &text[at + a.len() + 3..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok().map(|n| (a, n))
    })
}

/// The Movement's rules: no Quarter 0, one action per Quarter, every move along a corridor that
/// exists, no violence in two Quarters running without a check to prevent the second, every
/// harmful action's prevention a check, and no action on a map before the court can reach it.
pub fn check(s: &Scenario, reach: &Reach, v: &mut Vec<Violation>) {
    let Some(st) = &s.story else { return };
    let list = &st.movement;
    let at = |q: &Quarter| format!("movement, Quarter {}", q.quarter);
    let mut q = None;
    for (i, e) in list.iter().enumerate() {
        if e.quarter == 0 {
            v.push(Violation::new(at(e), "movement.quarter", "an action in Quarter 0: Quarters count from 1"));
        }
        if let Some(other) = list[..i].iter().find(|x| x.quarter == e.quarter) {
            v.push(Violation::new(
                at(e),
                "movement.quarter",
                format!(
                    "two actions in Quarter {} (`{}` and `{}`): the book gives one per Quarter",
                    e.quarter, other.action, e.action
                ),
            ));
        }
        if e.action == "move"
            && let (Some(a), Some(b)) = (e.from, e.at)
            && !(a.map == b.map && s.map(a.map).is_some_and(|m| corridor_between(m, a.room, b.room)))
        {
            v.push(Violation::new(
                at(e),
                "movement.corridor",
                format!(
                    "the move from map {} room {} to map {} room {} follows no corridor of the map",
                    a.map, a.room, b.map, b.room
                ),
            ));
        }
        if HARM.contains(&e.action.as_str()) && prevention(&e.prevent).is_none() {
            v.push(Violation::new(
                at(e),
                "movement.prevent",
                format!(
                    "the {} offers no check to prevent it: write the attribute and difficulty, as `Order Level / 10`",
                    e.action
                ),
            ));
        }
        if e.action == "violence"
            && prevention(&e.prevent).is_none()
            && list.iter().any(|x| x.action == "violence" && x.quarter + 1 == e.quarter)
        {
            v.push(Violation::new(
                at(e),
                "movement.violence",
                format!("violence in Quarters {} and {} with no check to prevent the second: space it 2 Quarters apart (seed 003 l.6308)", e.quarter - 1, e.quarter),
            ));
        }
        if e.action != "influence"
            && let Some(p) = e.at
            && let Some(pos) = s.maps.iter().position(|m| m.index == p.map)
        {
            let first = map_first(q.get_or_insert_with(|| court_quarters(s, reach)), pos);
            if first.is_some_and(|f| e.quarter < f) {
                v.push(Violation::new(
                    at(e),
                    "movement.early",
                    format!(
                        "an action on map {} in Quarter {}, before Quarter {}, the first the court can reach that map",
                        p.map,
                        e.quarter,
                        first.unwrap_or(1)
                    ),
                ));
            }
        }
    }
}
