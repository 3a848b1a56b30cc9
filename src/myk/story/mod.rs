//! The scenario around the dungeon (seed 003 l.5095-5230, l.1480-1500, l.2395-2460, l.6286-6330):
//! the objective as data with its kind, the cast placed in rooms, clues written out, the
//! Prologue with a stake per court member, mini events, Scenario Movement and the Epilogue.
//!
//! Texts come from the story pools (`tables/myk/story.toml`), their placeholders filled here from
//! the scenario. The generator, the frame reroll and `check` all go through this module.

pub mod court;
pub mod events;
pub mod lines;

use std::borrow::Cow;

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::{
    CastRef, MonsterGroup, Npc, NpcStats, Objective, ObjectiveKind, Place, Reaction, Room, RoomId, Scenario,
};
use crate::tables::Tables;
use crate::tables::story::{StoryPools, StoryText};

pub use crate::myk::model::{Epilogue, MiniEvent, Prologue, Quarter, RulerPart, Stake, Story, Ware};

/// The phrases that leave the GM something to invent; no output may hold them.
/// (Rules the GM applies in play, as "the GM lays it on one Area" when combat starts, are no
/// deferral: what is to be invented at the table is.)
pub const DEFERRALS: [&str; 10] = [
    "the GM decides",
    "the GM fixes",
    "the GM chooses",
    "GM's choice",
    "of the GM's",
    "the GM's pick",
    "the GM picks",
    "the GM names",
    "the GM marks",
    "the GM hides",
];

/// The values every story text's placeholders are filled with; `None` keeps the placeholder as
/// written (see [`Fill::keep`]).
/// A value borrows what the scenario already holds (its names, its kingdom); only a value the
/// scenario does not hold as written (`{target_at}`, a gift) is made.
#[derive(Clone, Debug, Default)]
pub struct Fill<'a> {
    pub kingdom: Option<Cow<'a, str>>,
    pub map: Option<Cow<'a, str>>,
    pub ruler: Option<Cow<'a, str>>,
    pub target: Option<Cow<'a, str>>,
    pub target_room: Option<Cow<'a, str>>,
    pub target_at: Option<Cow<'a, str>>,
    pub patron: Option<Cow<'a, str>>,
    /// The patron's age and sex in words, from the cast ([`crate::myk::court::patron_who`]).
    pub patron_who: Option<Cow<'a, str>>,
    /// The patron's job, from the cast's role ([`crate::myk::court::patron_job`]).
    pub patron_job: Option<Cow<'a, str>>,
    pub captive: Option<Cow<'a, str>>,
    pub rival: Option<Cow<'a, str>>,
    pub rival_kingdom: Option<Cow<'a, str>>,
    pub item: Option<Cow<'a, str>>,
    pub npc: Option<Cow<'a, str>>,
    pub member: Option<Cow<'a, str>>,
    pub reward: Option<Cow<'a, str>>,
    pub gift: Option<Cow<'a, str>>,
}

impl crate::text::Values for Fill<'_> {
    fn value(&self, name: &str, _arg: Option<&str>) -> Option<Cow<'_, str>> {
        let v = match name {
            "kingdom" => &self.kingdom,
            "map" => &self.map,
            "ruler" => &self.ruler,
            "target" => &self.target,
            "target_room" => &self.target_room,
            "target_at" => &self.target_at,
            "patron" => &self.patron,
            "patron_who" => &self.patron_who,
            "patron_job" => &self.patron_job,
            "captive" => &self.captive,
            "rival" => &self.rival,
            "rival_kingdom" => &self.rival_kingdom,
            "item" => &self.item,
            "npc" => &self.npc,
            "member" => &self.member,
            "reward" => &self.reward,
            "gift" => &self.gift,
            _ => return None,
        };
        v.as_deref().map(Cow::Borrowed)
    }
}

impl<'a> Fill<'a> {
    /// The text with every slot that has a value filled by the one rule of [`crate::text::fill`]:
    /// a value goes in as it is (a map renamed "{kingdom} Hall" prints so), a value opening a
    /// sentence is raised, a slot without a value is kept as written.
    pub fn text(&self, t: &str) -> String {
        crate::text::fill(t, self)
    }

    /// [`Fill::text`] of a pool text.
    pub fn pool(&self, t: &StoryText) -> String {
        crate::text::fill(t.as_str(), self)
    }

    /// Every placeholder that names a part of the scenario kept as it is, so the stored text is
    /// filled when it is printed, from the scenario as it then stands (a renamed room, map or
    /// NPC never leaves it stale). Only what the scenario does not hold elsewhere (`{member}`,
    /// `{reward}`, `{gift}`) is filled when the text is written.
    pub fn keep() -> Fill<'static> {
        Fill::default()
    }

    /// [`Fill::of`] with `{npc}` standing for `npc`.
    pub fn with_npc(s: &'a Scenario, npc: &'a str) -> Fill<'a> {
        Fill { npc: Some(npc.into()), ..Fill::of(s) }
    }

    /// [`Fill::of`] with `{map}` naming map `index` (a mini event's own map, not the objective's).
    pub fn on_map(s: &'a Scenario, index: u32) -> Fill<'a> {
        let f = Fill::of(s);
        match s.map(index) {
            Some(m) => Fill { map: Some(m.name.as_str().into()), ..f },
            None => f,
        }
    }

    /// The values as the scenario stands (its objective, map, ruler, cast and kingdom); the
    /// placeholders it has no value for (`{npc}`, `{member}`, `{gift}`) are filled with nothing.
    pub fn of(s: &'a Scenario) -> Fill<'a> {
        let o = &s.objective;
        let map = objective_map(s);
        let room = o.at.and_then(|p| map.map(|m| m.room(p.room)));
        let npc_of = |role: &str| {
            s.cast.iter().find(|c| c.role.as_str().starts_with(role)).map_or("", |c| c.name.as_str()).into()
        };
        let story = s.story.as_ref();
        let patron = s.cast.iter().find(|c| c.role.as_str().starts_with(PATRON));
        let given = |v: Option<&'a String>| Some(v.map_or("", String::as_str).into());
        Fill {
            kingdom: Some(story.map_or(crate::myk::court::YOUR_KINGDOM, |x| x.kingdom.as_str()).into()),
            map: Some(map.map_or("", |m| m.name.as_str()).into()),
            ruler: Some(ruler_name(s).into()),
            target: Some(s.objective_target().into()),
            target_room: Some(room.map_or("", |r| r.name.as_str()).into()),
            target_at: Some(o.at.map(|p| format!("map {}, room {}", p.map, p.room)).unwrap_or_default().into()),
            patron: Some(npc_of(PATRON)),
            patron_who: Some(patron.map_or_else(String::new, crate::myk::court::patron_who).into()),
            patron_job: Some(patron.map_or("", crate::myk::court::patron_job).into()),
            captive: Some(npc_of(CAPTIVE)),
            rival: Some(npc_of(RIVAL)),
            rival_kingdom: given(o.rival_kingdom.as_ref()),
            item: given(o.item.as_ref()),
            npc: Some("".into()),
            member: Some("".into()),
            reward: given(story.and_then(|x| x.epilogue.reward.get(1))),
            gift: Some("".into()),
        }
    }
}

/// The map the objective stands on (the last map when it names none).
fn objective_map(s: &Scenario) -> Option<&crate::myk::model::Map> {
    s.objective.at.and_then(|p| s.map(p.map)).or(s.maps.last())
}

/// The ruler of the objective's map (its strongest group when it has none): `{ruler}`.
pub(crate) fn ruler_name(s: &Scenario) -> &str {
    let map = objective_map(s);
    map.and_then(|m| m.rooms.iter().find_map(|r| r.ruler.as_ref()))
        .map(|r| r.name.as_str())
        .unwrap_or_else(|| threat_name(map.map(|m| m.rooms.as_slice()).unwrap_or_default()))
}

/// The strongest monster group of the rooms, or "the monsters" when there is none.
fn threat_name(rooms: &[Room]) -> &str {
    rooms.iter().flat_map(|r| &r.monsters).max_by_key(|g| g.level).map_or("the monsters", |g| g.name.as_str())
}

/// The cast's parts (each NPC's `role` starts with one).
pub const PATRON: &str = "patron";
pub const CAPTIVE: &str = "captive";
pub const RECIPIENT: &str = "recipient";
pub const RIVAL: &str = "rival";
pub const INFORMANT: &str = "informant";
pub const MERCHANT: &str = "merchant";

/// Where the objective's target may stand: a used room, not the first map's way in (a clue must
/// be findable without entering it).
fn target_rooms(s: &Scenario, map: usize) -> Vec<RoomId> {
    let m = &s.maps[map];
    let entry = (map == 0).then(|| m.entrances.iter().find(|e| e.to.is_none()).map(|e| e.room)).flatten();
    m.used_rooms().map(|r| r.id).filter(|&r| Some(r) != entry).collect()
}

/// The objective kind: the one asked for, else one at random among those the dungeon allows.
pub fn pick_kind(s: &Scenario, asked: Option<ObjectiveKind>, d: &mut Dice) -> ObjectiveKind {
    if let Some(k) = asked {
        return k;
    }
    let has_monster = s.maps.iter().flat_map(|m| m.used_rooms()).any(|r| r.has_monsters());
    let kinds: Vec<ObjectiveKind> = ObjectiveKind::ALL
        .into_iter()
        .filter(|k| has_monster || !matches!(k, ObjectiveKind::Defeat | ObjectiveKind::WinOver))
        .collect();
    *d.choose(&kinds).unwrap_or(&ObjectiveKind::Rescue)
}

/// A room of the objective map whose monsters or ruler stand there, preferring `want`.
fn room_with(s: &Scenario, map: usize, want: impl Fn(&Room) -> bool, d: &mut Dice) -> Option<RoomId> {
    let allowed = target_rooms(s, map);
    let m = &s.maps[map];
    d.choose_from(|| allowed.iter().copied().filter(|&r| want(m.room(r))))
}

/// The objective's place and target for `kind`, on the last map (any map for a kind that needs
/// something the last map lacks). Returns the objective without its text, and the NPC it needs
/// (placed in its room), if any: the caller adds it to the cast and points `npc` at it.
pub fn place_objective(
    s: &Scenario,
    kind: ObjectiveKind,
    tables: &Tables,
    new_npc: &mut dyn FnMut(&mut Dice) -> Npc,
    d: &mut Dice,
) -> (Objective, Option<Npc>) {
    let last = s.maps.len() - 1;
    let map_index = s.maps[last].index;
    let mut o = Objective { kind, ..Objective::legacy() };
    let at = |room: RoomId| Some(Place { map: map_index, room });
    let any_room = |d: &mut Dice| d.choose(&target_rooms(s, last)).copied();
    let mut npc = None;
    match kind {
        ObjectiveKind::Defeat | ObjectiveKind::Search | ObjectiveKind::WinOver => {
            let (room, name) = threat_target(s, kind, d);
            o.at = room;
            o.target = name;
        }
        ObjectiveKind::Rescue | ObjectiveKind::Deliver => {
            // A captive among guards; a recipient where the court must go.
            let room = room_with(s, last, |r| r.monsters.iter().any(|g| g.reaction == Reaction::Hostile), d)
                .or_else(|| any_room(d));
            let mut n = new_npc(&mut d.child("npc"));
            n.role = if kind == ObjectiveKind::Rescue { CAPTIVE } else { RECIPIENT }.into();
            n.place = room.and_then(at);
            o.at = n.place;
            // A rescue's target is its captive, named from the cast when printed
            // ([`Scenario::objective_target`]); `o.npc` is set where the NPC joins the cast.
            if kind != ObjectiveKind::Rescue {
                let item = pick_item(tables, false, d);
                o.target = item.clone();
                o.item = Some(item);
            }
            npc = Some(n);
        }
        ObjectiveKind::Acquire => {
            let room = room_with(s, last, Room::has_monsters, d).or_else(|| any_room(d));
            let item = pick_item(tables, true, d);
            o.at = room.and_then(at);
            o.target = item.clone();
            o.item = Some(item);
        }
        ObjectiveKind::Race => {
            let goal = s.maps[last].rooms.iter().find(|r| r.ruler.is_some()).map(|r| r.id).or_else(|| any_room(d));
            let mut n = new_npc(&mut d.child("npc"));
            n.role = RIVAL.into();
            let elsewhere = target_rooms(s, last).into_iter().filter(|&r| Some(r) != goal).collect::<Vec<_>>();
            n.place = d.choose(&elsewhere).copied().or(goal).and_then(at);
            o.at = goal.and_then(at);
            o.rival_kingdom = Some(["the Kingdom of ", n.name.as_str()].concat());
            o.target = o.rival_kingdom.clone().unwrap_or_default();
            npc = Some(n);
        }
    }
    (o, npc)
}

/// Defeat: the last map's ruler (else its strongest group); search: a base, trap or group of the
/// last map; win over: a group that is not hostile (any map), else the last map's ruler.
fn threat_target(s: &Scenario, kind: ObjectiveKind, d: &mut Dice) -> (Option<Place>, String) {
    let last = s.maps.len() - 1;
    let allowed = |i: usize| target_rooms(s, i);
    let place = |i: usize, room: RoomId| Some(Place { map: s.maps[i].index, room });
    let ruler_of = |i: usize| {
        let m = &s.maps[i];
        allowed(i)
            .into_iter()
            .find_map(|r| m.room(r).ruler.as_ref().map(|ru| (place(i, r), ru.name.as_str().to_owned())))
    };
    let group_in = |i: usize, f: &dyn Fn(&MonsterGroup) -> bool, d: &mut Dice| {
        let m = &s.maps[i];
        d.choose_from(|| {
            allowed(i).into_iter().flat_map(move |r| m.room(r).monsters.iter().filter(|g| f(g)).map(move |g| (r, g)))
        })
        .map(|(r, g)| (place(i, r), g.name.as_str().to_owned()))
    };
    let found = match kind {
        ObjectiveKind::Search => {
            let m = &s.maps[last];
            let causes = || {
                allowed(last).into_iter().flat_map(move |r| {
                    let room = m.room(r);
                    let bases = room.bases.iter().map(|b| b.name.as_str());
                    let traps = room.traps.iter().map(|t| t.name.as_str());
                    let groups = room.monsters.iter().map(|g| g.name.as_str());
                    bases.chain(traps).chain(groups).map(move |n| (r, n))
                })
            };
            // The name is copied once picked, not for every cause the two passes walk.
            d.choose_from(causes).map(|(r, n)| (place(last, r), n.to_string())).or_else(|| ruler_of(last))
        }
        ObjectiveKind::WinOver => (0..s.maps.len())
            .rev()
            .find_map(|i| group_in(i, &|g: &MonsterGroup| g.reaction != Reaction::Hostile, d))
            .or_else(|| ruler_of(last)),
        _ => None,
    };
    found
        .or_else(|| ruler_of(last))
        .or_else(|| group_in(last, &|_| true, d))
        .unwrap_or_else(|| (None, threat_name(&s.maps[last].rooms).to_string()))
}

/// A named item from the item tables: a Rare Item for a treasure, a Common Item otherwise.
pub fn pick_item(tables: &Tables, rare: bool, d: &mut Dice) -> String {
    item_name(tables, rare, d).to_string()
}

/// [`pick_item`]'s name as the tables hold it (for a text that copies it anyway).
fn item_name<'t>(tables: &'t Tables, rare: bool, d: &mut Dice) -> &'t str {
    let items = &tables.items.items;
    // One draw on the list of that rarity made at load.
    pick(items, tables.items.of_rarity(rare), d).or_else(|| d.choose(items)).map_or("", |i| i.name.as_str())
}

/// The entry of `pool` at a place drawn from `places` (a list made at load): the draw and the
/// entry a filtered walk over the pool made, without the walk.
fn pick<'p, T>(pool: &'p [T], places: &[u32], d: &mut Dice) -> Option<&'p T> {
    d.choose(places).and_then(|&i| pool.get(i as usize))
}

/// The materials the item tables name ("Iron", "Reagent"...), sorted, once each (listed when
/// the tables are built).
pub fn materials(tables: &Tables) -> &[String] {
    tables.items.materials()
}

/// The objective's text template for its kind from the pools.
pub fn objective_text(pools: &StoryPools, kind: ObjectiveKind, d: &mut Dice) -> String {
    pick(&pools.objective, &pools.of_kind(kind).objective, d).map(|e| e.text.as_str().to_owned()).unwrap_or_default()
}

/// A title that fits the kind, its placeholders kept: it is filled when it is read
/// ([`crate::myk::frame::filled`]), so a renamed map or ruler never leaves the title stale.
pub fn title(pools: &StoryPools, kind: ObjectiveKind, d: &mut Dice) -> String {
    pick(&pools.title, &pools.of_kind(kind).title, d).map_or_else(|| "{map}".to_owned(), |t| t.text.as_str().to_owned())
}

/// Gives an NPC a personality, a want and a line from the pools: only a line and a want that fit
/// the speaker and the objective's kind ([`lines::lines_for`]); `values` is the scenario's fill,
/// to see whether a slot would name the speaker.
pub fn dress_npc(pools: &StoryPools, n: &mut Npc, kind: &str, values: &Fill, d: &mut Dice) {
    let f = Fill::keep();
    if let Some(p) = d.choose(&pools.personality) {
        n.personality = p.name.clone();
        let open = lines::lines_for(p, &n.name, kind, values);
        n.line = d.choose(&open).map(|l| f.pool(l)).unwrap_or_default();
    }
    let wants = || pools.want.iter().filter(|w| !lines::names_self(w.text.as_str(), &n.name, values));
    n.wants = d.choose_from(wants).map(|w| f.pool(&w.text)).unwrap_or_default();
}

/// Important-NPC numbers for a fighter: the court's average level at most, with the stat line of
/// a complete bestiary monster of that level or the nearest below.
pub fn fighter(tables: &Tables, average_level: u32, d: &mut Dice) -> Option<NpcStats> {
    let data = &tables.myk;
    // The strongest level at or below the average that a stockable monster (each has a level)
    // stands at, from the counts per level made at load, not a walk over the bestiary.
    let cap = average_level.max(1).min(data.top_stock_level());
    let best = (0..=cap).rev().find(|&l| data.stock_at_level(l) > 0)?;
    // One of that level at weight 1 each: the same draw, and the same monster in file order, as
    // a choice among the bestiary filtered to the level.
    let m = crate::myk::monsters::pick_by_level(data, d, best..=best, |_| 1, &[])?;
    Some(NpcStats {
        level: best,
        as_monster: m.name.clone(),
        stats: crate::myk::model::RulerStats {
            warfare: m.warfare?,
            range: m.range?,
            damage: compact_str::format_compact!("{}", m.damage?),
            defense: m.defense?,
            hp: m.hp?,
        },
    })
}

/// The threat a room's threat clue is won from, in the order `clues::threat_how` names it.
pub(crate) fn threat_kind(r: &crate::myk::model::Room) -> crate::tables::story::Threat {
    use crate::tables::story::Threat;
    if r.ruler.is_some() || !r.monsters.is_empty() {
        Threat::Monster
    } else if !r.traps.is_empty() {
        Threat::Trap
    } else if !r.bases.is_empty() {
        Threat::Base
    } else {
        Threat::Monster
    }
}

/// A new NPC whose name no one of the cast has (a name rolled again; a second of a name is "the
/// Younger"), so a clue or the objective names one NPC.
pub fn unique_npc(s: &Scenario, new_npc: &mut dyn FnMut(&mut Dice) -> Npc, d: &mut Dice) -> Npc {
    let taken = |n: &Npc| s.cast.iter().any(|c| c.name == n.name);
    let mut n = new_npc(d);
    for _ in 0..8 {
        if !taken(&n) {
            return n;
        }
        n = new_npc(d);
    }
    if taken(&n) {
        n.name = [n.name.as_str(), " the Younger"].concat().into();
    }
    n
}

/// Gives every NPC a personality, a want and a line, and Important-NPC numbers: every NPC the
/// scenario names is an Important NPC (seed 003 l.2973; the unnamed are Extras), so whoever the
/// court ends up fighting beside or against (a captive in a guarded room, an informant among
/// monsters, the rival) has a stat line in the booklet.
pub fn dress_cast(s: &mut Scenario, tables: &Tables, d: &mut Dice) {
    dress_cast_from(s, tables, 0, d);
}

/// [`dress_cast`] for the NPCs from index `first` on: those a clue reroll added (informants
/// placed by [`write_clues`]) are dressed by the same rule, on the same `npc/<k>` streams, as the
/// NPCs the generator makes, so every named NPC has its stat line however it joined the cast.
pub fn dress_cast_from(s: &mut Scenario, tables: &Tables, first: usize, d: &mut Dice) {
    let average = s.court.average_level;
    let kind = s.objective.kind.name();
    for k in first..s.cast.len() {
        // The NPC's own stream: its words first, then its numbers, so the words stay as they were.
        let mut nd = d.child_n("npc/", k as u32 + 1, "");
        let mut n = s.cast[k].clone();
        dress_npc(&tables.story, &mut n, kind, &Fill::of(s), &mut nd);
        n.fights = fighter(tables, average, &mut nd);
        s.cast[k] = n;
    }
}

/// The introduction (the Prologue in one paragraph) and the resolution (success and failure), for
/// the outputs that print the frame's two texts.
pub fn hooks(s: &Scenario) -> (crate::tables::shared::SharedStr, String) {
    let Some(st) = &s.story else { return (Default::default(), String::new()) };
    let p = &st.prologue;
    // The non-empty parts capitalised and joined by spaces, written into one string.
    let parts = [p.who.as_str(), p.problem.as_str(), p.offer.as_str()];
    let mut intro = String::with_capacity(parts.iter().map(|t| t.len() + 1).sum());
    for t in parts.into_iter().filter(|t| !t.is_empty()) {
        if !intro.is_empty() {
            intro.push(' ');
        }
        push_capitalised(&mut intro, t);
    }
    let e = &st.epilogue;
    (intro.into(), ["Success: ", &e.success, " Failure: ", &e.failure].concat())
}

/// A cast NPC in room `at` to talk to, placing a new informant there if none stands there yet
/// (the patron and rival never; they have their own parts).
pub(crate) fn informant_at(
    s: &mut Scenario,
    at: Place,
    new_npc: &mut dyn FnMut(&mut Dice) -> Npc,
    d: &mut Dice,
) -> CastRef {
    let here = s.cast.iter().position(|c| c.place == Some(at) && !c.role.as_str().starts_with(RIVAL));
    if let Some(k) = here {
        return CastRef::at(k);
    }
    let mut n = unique_npc(s, new_npc, &mut d.child("informant"));
    n.role = INFORMANT.into();
    n.place = Some(at);
    s.cast.push(n);
    CastRef::at(s.cast.len() - 1)
}

/// The Prologue, one stake per court member, the ruler's part, mini events, movement and the
/// Epilogue.
pub fn write_story(s: &mut Scenario, tables: &Tables, d: &mut Dice) -> Story {
    let pools = &tables.story;
    let kind = pools.of_kind(s.objective.kind);
    let mut f = Fill::keep();
    let reward_item = item_name(tables, true, &mut d.child("reward"));
    let mut rd = d.child("reward-material");
    let material = rd.choose(materials(tables)).map_or("Iron", String::as_str);
    let amount = rd.between(2, 6);
    // The rewards written once: `{reward}` borrows the second, the epilogue then keeps both.
    let reward = vec![
        ["1 ", reward_item, " (a Rare Item)"].concat(),
        [itoa::Buffer::new().format(amount), " ", material].concat(),
    ];
    f.reward = Some(reward[1].as_str().into());
    // The kingdom, the Prologue's people and the stakes' seats as the book has them.
    let kingdom = crate::myk::court::kingdom(s.params.kingdom.as_deref());
    let prologue = crate::myk::court::prologue(s, pools, &kind.prologue, &f, &mut d.child("prologue"));
    let size = s.court.levels.len();
    let stakes = crate::myk::court::stakes(pools, &s.params.classes, size, &f, &mut d.child("stakes"));
    let ruler = {
        let mut rd = d.child("ruler");
        let p = rd.choose(&pools.personality).map(|p| p.name.clone()).unwrap_or_default();
        Some(RulerPart {
            name: ruler_name(s).to_string(),
            personality: p,
            motive: rd.choose(&pools.ruler_motive).map(|t| f.pool(&t.text)).unwrap_or_default(),
            line: rd.choose(&pools.ruler_line).map(|t| f.pool(&t.text)).unwrap_or_default(),
        })
    };
    let mini_events = mini_events(s, tables, &f, &mut d.child("mini-events"));
    // Planned on the map; a race's Movement reaches the Quarter the rival's court arrives in.
    let movement = crate::myk::movement::write(s, tables, ruler_name(s), &f, &mut d.child("movement"));
    let mut ed = d.child("epilogue");
    let pick_kind = |list: &[crate::tables::story::KindText], places: &[u32], ed: &mut Dice| {
        pick(list, places, ed).map(|e| f.pool(&e.text)).unwrap_or_default()
    };
    let epilogue = Epilogue {
        success: pick_kind(&pools.success, &kind.success, &mut ed),
        failure: pick_kind(&pools.failure, &kind.failure, &mut ed),
        change: ed.choose(&pools.change).map(|t| f.pool(&t.text)).unwrap_or_default(),
        farewell: ed.choose(&pools.farewell).map(|t| f.pool(&t.text)).unwrap_or_default(),
        retry: ed.choose(&pools.retry).map(|t| f.pool(&t.text)).unwrap_or_default(),
        // Last: the fills above borrow it.
        reward,
    };
    Story { kingdom, prologue, stakes, ruler, mini_events, movement, epilogue }
}

/// The text with every sentence after the first opening in upper case: a filled value ("the
/// Treasurer") that follows ". ", "! " or "? " is raised where it stands (ASCII letters, the only
/// ones the pools and tables open names with). A name with stops of its own ("V.I.P.") ends no
/// sentence. The text is returned as it is when nothing opens in lower case.
pub fn sentence_capitals(mut t: String) -> String {
    let b = t.as_bytes();
    let ends_sentence = |i: usize| {
        // The word the stop closes: an inner stop makes it an abbreviation or a name like V.I.P.
        let word_start = b[..i].iter().rposition(|&c| c == b' ').map_or(0, |p| p + 1);
        !b[word_start..i].contains(&b'.')
    };
    // A jump from stop to stop (`position` over the bytes is a tight loop; the windows of three
    // bytes this replaces cost ten times as much), listing the letters to raise.
    let mut opens = Vec::new();
    let mut from = 0;
    while let Some(stop) = b[from..].iter().position(|&c| matches!(c, b'.' | b'!' | b'?')).map(|p| from + p) {
        if b.get(stop + 1) == Some(&b' ') && b.get(stop + 2).is_some_and(u8::is_ascii_lowercase) && ends_sentence(stop)
        {
            opens.push(stop + 2);
        }
        from = stop + 1;
    }
    for i in opens {
        t[i..i + 1].make_ascii_uppercase();
    }
    t
}

/// The text with its first letter upper-case (a sentence opening with a placeholder).
pub fn capitalise(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    push_capitalised(&mut out, t);
    out
}

/// [`capitalise`] of a text already owned: an ASCII first letter is raised where it stands.
pub(crate) fn capitalised(mut t: String) -> String {
    match t.as_bytes().first() {
        Some(b) if b.is_ascii() => {
            t[..1].make_ascii_uppercase();
            t
        }
        _ => capitalise(&t),
    }
}

/// Appends `t` with its first letter upper-case (the letter's upper case written, then the rest
/// as it stands: no string built a character at a time).
fn push_capitalised(out: &mut String, t: &str) {
    let mut c = t.chars();
    if let Some(first) = c.next() {
        out.extend(first.to_uppercase());
        out.push_str(c.as_str());
    }
}

/// One mini event per map that has a room it can happen in ([`events::fits`]); a shop lists named items at their Cost.
fn mini_events(s: &Scenario, tables: &Tables, f: &Fill, d: &mut Dice) -> Vec<MiniEvent> {
    let pools = &tables.story.mini_event;
    let order = d.deal(pools.len(), s.maps.len());
    let mut out = Vec::with_capacity(s.maps.len());
    for (i, m) in s.maps.iter().enumerate() {
        let Some(e) = order.get(i % order.len().max(1)).map(|&k| &pools[k]) else { break };
        // Only where an event can happen: no ruler, no hostile group (`events::fits`).
        let Some(room) = d.choose_from(|| events::rooms(m)) else { continue };
        let wares = if e.kind == "shop" { wares(tables, d) } else { Vec::new() };
        out.push(MiniEvent {
            at: Place { map: m.index, room },
            kind: e.kind.clone(),
            title: f.pool(&e.title),
            text: f.pool(&e.text),
            outcome: f.pool(&e.outcome),
            wares,
        });
    }
    out
}

/// Three Common Items at their Cost (no Rare Item: the book prints theirs in brackets, not for sale).
fn wares(tables: &Tables, d: &mut Dice) -> Vec<Ware> {
    // One draw each on the list of sellable items made at load; names copied only for the
    // wares kept.
    let items = &tables.items.items;
    let mut out: Vec<Ware> = Vec::with_capacity(3);
    for _ in 0..6 {
        if out.len() == 3 {
            break;
        }
        let Some(&(i, cost)) = d.choose(tables.items.sellable()) else { continue };
        let item = items.get(i as usize).map_or("", |x| x.name.as_str());
        if !out.iter().any(|w| w.item == item) {
            out.push(Ware { item: item.to_string(), cost });
        }
    }
    out
}

/// Keeps the story standing on the dungeon after a change to it (a reroll): an objective whose
/// target is gone names the same kind of target anew, and an NPC whose room is no longer used
/// moves to a used room of the same map (the objective's NPC to the objective's room). The cast
/// keeps its names, so weak points and clues that name NPCs still find them. Returns whether
/// anything moved.
pub fn repair(s: &mut Scenario, tables: &Tables, d: &mut Dice) -> bool {
    let mut v = Vec::new();
    if !s.objective.text.is_empty() || s.objective.at.is_some() {
        objective_rules(s, tables, &mut v);
    }
    let mut moved = false;
    if v.iter().any(|x| matches!(x.rule, "objective.place" | "objective.target")) {
        let kind = s.objective.kind;
        match kind {
            ObjectiveKind::Defeat | ObjectiveKind::Search | ObjectiveKind::WinOver => {
                let (at, target) = threat_target(s, kind, d);
                s.objective.at = at;
                s.objective.target = target;
            }
            _ => {
                let last = s.maps.len() - 1;
                let ruler_room = s.maps[last].rooms.iter().find(|r| r.ruler.is_some()).map(|r| r.id);
                let room = if kind == ObjectiveKind::Race { ruler_room } else { None };
                let room = room.or_else(|| d.choose(&target_rooms(s, last)).copied());
                s.objective.at = room.map(|room| Place { map: s.maps[last].index, room });
            }
        }
        moved = true;
    }
    let goal = s.objective.at;
    let (who, kind) = (s.objective.npc, s.objective.kind);
    for k in 0..s.cast.len() {
        let n = &s.cast[k];
        let objective_npc = who == Some(CastRef::at(k)) && kind != ObjectiveKind::Race;
        let used = |p: Place| s.map(p.map).is_some_and(|m| m.room(p.room).used);
        let place = match n.place {
            _ if objective_npc && n.place != goal => goal,
            Some(p) if !used(p) => {
                let m = s.map(p.map).or(s.maps.last());
                m.and_then(|m| d.choose_from(|| m.used_rooms().map(|r| Place { map: m.index, room: r.id })))
            }
            other => other,
        };
        if place != s.cast[k].place {
            s.cast[k].place = place;
            moved = true;
        }
    }
    // A mini event the change left among hostile monsters or in a ruler's room moves to a room
    // of its map where it can happen; that is no loss of the frame's story, so it is not counted.
    events::repair(s, &mut d.child("mini-events"));
    moved
}

/// The objective's rules: its room is a used room, what it names stands there, a clue reveals it;
/// every placed NPC stands in a used room; a conversation clue's NPC stands in the clue's room.
pub fn check(s: &Scenario, tables: &Tables, v: &mut Vec<Violation>) {
    let o = &s.objective;
    if !o.text.is_empty() || o.at.is_some() {
        objective_rules(s, tables, v);
    }
    crate::myk::goal::check(s, v);
    events::check(s, v);
    lines::check(s, v);
    for n in &s.cast {
        if let Some(p) = n.place
            && !s.map(p.map).is_some_and(|m| m.room(p.room).used)
        {
            v.push(Violation::new(
                format!("cast {}", n.name),
                "cast.place",
                format!("{} stands in map {} room {}, which is not a used room", n.name, p.map, p.room),
            ));
        }
    }
    for (i, c) in s.clues.iter().enumerate() {
        let Some(r) = c.npc else { continue };
        // The clue's label is written only for a violation (a clean check wrote it per clue).
        let at = || format!("clue {}", i + 1);
        match s.cast_member(r) {
            None => v.push(Violation::new(
                at(),
                "clue.npc",
                format!("the clue is told by cast member {}, and the cast has {}", r.0, s.cast.len()),
            )),
            Some(n) if n.place != Some(c.at) => v.push(Violation::new(
                at(),
                "clue.npc",
                format!("the clue is told by {}, who does not stand in map {} room {}", n.name, c.at.map, c.at.room),
            )),
            Some(_) => {}
        }
    }
}

/// The objective's own rules (see [`check`]).
fn objective_rules(s: &Scenario, tables: &Tables, v: &mut Vec<Violation>) {
    let o = &s.objective;
    let kind = o.kind.name();
    let Some(at) = o.at else {
        v.push(Violation::new("objective", "objective.place", format!("the {kind} objective names no room (`at`)")));
        return;
    };
    let Some(room) = s.map(at.map).map(|m| m.room(at.room)).filter(|r| r.used) else {
        v.push(Violation::new(
            "objective",
            "objective.place",
            format!("the objective's room, map {} room {}, is not a used room", at.map, at.room),
        ));
        return;
    };
    let here = |name: &str| {
        room.ruler.as_ref().is_some_and(|r| r.name == name)
            || room.monsters.iter().any(|g| g.name == name)
            || room.traps.iter().any(|t| t.name == name)
            || room.bases.iter().any(|b| b.name == name)
    };
    let missing = match o.kind {
        ObjectiveKind::Defeat | ObjectiveKind::Search | ObjectiveKind::WinOver => {
            (!here(&o.target)).then(|| format!("{} is not in map {} room {}", o.target, at.map, at.room))
        }
        ObjectiveKind::Rescue | ObjectiveKind::Deliver | ObjectiveKind::Race => {
            match o.npc.and_then(|r| s.cast_member(r)) {
                None => Some(match o.npc {
                    Some(r) => format!("the objective names cast member {}, and the cast has {}", r.0, s.cast.len()),
                    None => "the objective names no one of the cast (`npc`)".to_owned(),
                }),
                Some(n) if o.kind != ObjectiveKind::Race && n.place != Some(at) => {
                    Some(format!("{} does not stand in map {} room {}", n.name, at.map, at.room))
                }
                Some(_) => None,
            }
        }
        ObjectiveKind::Acquire => None,
    };
    let bad_item = o.item.as_deref().filter(|i| tables.items.item(i).is_none());
    if let Some(m) = missing {
        v.push(Violation::new("objective", "objective.target", m));
    }
    if let Some(i) = bad_item {
        v.push(Violation::new("objective", "objective.item", format!("{i} is not an item of the item tables")));
    }
    if !s.clues.iter().any(|c| c.reveals == crate::myk::model::Reveals::Room(at)) {
        v.push(Violation::new(
            "objective",
            "objective.clue",
            format!("no clue reveals map {} room {}, where the objective's target is", at.map, at.room),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text of the built-in pools that is filled from its placeholders found once.
    fn pool_texts(p: &StoryPools) -> Vec<&StoryText> {
        let mut t: Vec<&StoryText> = p.title.iter().map(|x| &x.text).collect();
        t.extend(p.objective.iter().chain(&p.success).chain(&p.failure).map(|x| &x.text));
        t.extend(p.prologue.iter().flat_map(|x| [&x.who, &x.problem, &x.offer]));
        t.extend(p.personality.iter().flat_map(|x| &x.lines));
        let plain = [&p.stake, &p.want, &p.ruler_motive, &p.ruler_line, &p.clue_search, &p.change, &p.farewell];
        t.extend(plain.into_iter().chain([&p.retry]).flatten().map(|x| &x.text));
        t.extend(p.clue_threat.iter().map(|x| &x.text));
        t.extend(p.clue_talk.iter().flat_map(|x| [&x.ask, &x.text]));
        t.extend(p.clue_condition.iter().map(|x| &x.text));
        t.extend(p.mini_event.iter().flat_map(|x| [&x.title, &x.text, &x.outcome]));
        t.extend(p.movement.iter().flat_map(|x| [&x.text, &x.prevent]));
        t
    }

    /// The entry [`pick`] makes on `places` and the one a filtered walk over `pool` made, from
    /// the same dice, for 40 seeds: the same entry, and the dice left alike.
    fn same_pick<T>(name: &str, pool: &[T], places: &[u32], fit: impl Fn(&T) -> bool) {
        for seed in 0..40 {
            let (mut a, mut b) = (Dice::new(seed), Dice::new(seed));
            let walk = a.choose_from(|| pool.iter().enumerate().filter(|x| fit(x.1))).map(|x| x.0);
            let list = pick(pool, places, &mut b).and_then(|e| pool.iter().position(|x| std::ptr::eq(x, e)));
            assert_eq!(walk, list, "{name}, seed {seed}");
            assert_eq!(a.below(1 << 30), b.below(1 << 30), "{name}, seed {seed}: the dice part ways");
        }
    }

    /// A pick on a list made at load is the pick the filtered walk over the pool made: the same
    /// entry, and the dice left where the walk left them (so every later draw is the same).
    #[test]
    fn a_pick_on_a_list_made_at_load_is_the_filtered_walks_pick() {
        use crate::tables::items::{Cost, ItemCategory};
        use crate::tables::story::fits;
        let tables = Tables::embedded().expect("embedded tables load");
        let (p, items) = (&tables.story, &tables.items);
        for kind in ObjectiveKind::ALL {
            let (k, l) = (kind.name(), p.of_kind(kind));
            same_pick("title", &p.title, &l.title, |t| fits(&t.kinds, k));
            same_pick("prologue", &p.prologue, &l.prologue, |t| fits(&t.kinds, k));
            same_pick("objective", &p.objective, &l.objective, |e| e.kind == k);
            same_pick("success", &p.success, &l.success, |e| e.kind == k);
            same_pick("failure", &p.failure, &l.failure, |e| e.kind == k);
        }
        for rare in [false, true] {
            same_pick("items", &items.items, items.of_rarity(rare), |i| i.category.rare() == rare);
        }
        let sold: Vec<u32> = items.sellable().iter().map(|x| x.0).collect();
        let sellable = |i: &crate::tables::items::Item| {
            !i.category.rare() && i.category != ItemCategory::RareArms && matches!(i.cost, Cost::Mg(_))
        };
        same_pick("wares", &items.items, &sold, sellable);
        assert!(items.sellable().iter().all(|&(i, n)| items.items[i as usize].cost == Cost::Mg(n)));
        let actions = p.movement_actions();
        for (a, x) in p.movement.iter().enumerate() {
            for (b, y) in p.movement.iter().enumerate() {
                assert_eq!(actions[a] == actions[b], x.action == y.action, "movement {a} and {b}");
            }
        }
    }

    fn given(v: &str) -> Option<Cow<'static, str>> {
        Some(v.to_string().into())
    }

    /// Every value given, each its own name in capitals (so a raised first letter shows).
    fn every_value() -> Fill<'static> {
        Fill {
            kingdom: given("KINGDOM"),
            map: given("MAP"),
            ruler: given("RULER"),
            target: given("TARGET"),
            target_room: given("TARGET_ROOM"),
            target_at: given("TARGET_AT"),
            patron: given("PATRON"),
            patron_who: given("PATRON_WHO"),
            patron_job: given("PATRON_JOB"),
            captive: given("CAPTIVE"),
            rival: given("RIVAL"),
            rival_kingdom: given("RIVAL_KINGDOM"),
            item: given("ITEM"),
            npc: given("NPC"),
            member: given("MEMBER"),
            reward: given("REWARD"),
            gift: given("GIFT"),
        }
    }

    /// Each slot's name finds its own value, for every slot a MYK pool kind binds (a clue's
    /// fact texts are filled from the clue's fact instead, by `clue_text::fill`).
    #[test]
    fn each_slot_is_filled_with_its_own_value() {
        let f = every_value();
        for set in crate::tables::slots::MYK.iter().filter(|s| !s.kind.starts_with("clue_fact.")) {
            for name in set.names.iter().chain(set.extra) {
                assert_eq!(f.text(&["{", name, "}"].concat()), name.to_ascii_uppercase(), "{name}");
            }
        }
    }

    /// With every slot kept ([`Fill::keep`]), a pool text is stored as written; with every value
    /// given, no slot of any built-in pool text is left unfilled.
    #[test]
    fn every_slot_of_the_built_in_pools_is_kept_or_filled() {
        let tables = Tables::embedded().expect("embedded tables load");
        let all = pool_texts(&tables.story);
        assert!(all.len() > 500, "only {} pool texts", all.len());
        let (keep, every) = (Fill::keep(), every_value());
        for t in all {
            assert_eq!(keep.pool(t), t.as_str());
            let filled = every.pool(t);
            assert!(crate::text::slots(&filled).next().is_none(), "{} -> {filled}", t.as_str());
        }
    }

    /// A value that holds a slot is written as it stands, never filled again: a map renamed
    /// "{kingdom} Hall" prints so, and a value naming itself cannot make a text grow.
    #[test]
    fn a_value_is_written_as_it_stands() {
        let f =
            Fill { kingdom: given("Avalon"), map: given("{kingdom} Hall"), gift: given("{map}{map}"), ..Fill::keep() };
        assert_eq!(f.text("To {map}."), "To {kingdom} Hall.");
        assert_eq!(f.text("Bring {gift}"), "Bring {map}{map}");
        let f = Fill { map: given("Ant Hill"), ..Fill::keep() };
        assert_eq!(f.text("{a{map}}"), "{aAnt Hill}");
        assert_eq!(f.text("{unknown} {map"), "{unknown} {map");
    }
}
