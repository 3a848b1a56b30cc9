//! The MYK generator: court → maps → rulers → monsters → traps → bases → frame and clues, each
//! part on its own named dice stream, then `check` on the result (the same rules a GM's edit meets).

use std::borrow::Cow;

use arrayvec::ArrayVec;

use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::myk::check::{Reach, check_with, usage};
use crate::myk::layout::{Skeleton, layout};
use crate::myk::limits;
use crate::myk::model::*;
pub use crate::myk::params::{MykParams, court_levels};
use crate::myk::{monsters, ruler, traps, weak_points};
use crate::tables::Tables;
use crate::tables::myk::{Level, Monster, MykData, Placement, Route, Trap, TrapCategory};
use crate::tables::myk_rolls::MykRoll;
use crate::tables::roll::{Count, Row};
use crate::tables::shared::SharedStr;

/// The texts every generated scenario carries the same: made once, then shared (no allocation
/// per scenario).
struct Fixed {
    system: SharedStr,
    name: SharedStr,
    version: SharedStr,
}

static FIXED: std::sync::LazyLock<Fixed> = std::sync::LazyLock::new(|| Fixed {
    system: "myk".into(),
    name: "dungeonsmith".into(),
    version: env!("CARGO_PKG_VERSION").into(),
});

/// Generates a complete, legal scenario. Same tables + params + seed ⇒ the same scenario.
pub fn generate(tables: &Tables, params: &MykParams, seed: u64) -> Result<Scenario> {
    let mut warnings = params.validate()?;
    can_generate(tables)?;
    let root = Dice::new(seed).child("myk");
    // The generator reads the court's size and totals; the scenario keeps its own copy of the levels.
    let court = limits::totals(&params.levels);
    let lim = limits::limits(&court);
    let g = Gen::new(tables, &court, &lim);

    let (mut maps, skeletons) = map_sheets(&g, params, &root, &mut warnings)?;
    // Threats: rulers and monsters per map, then the scenario-wide trap and base budgets.
    for (i, (m, sk)) in maps.iter_mut().zip(&skeletons).enumerate() {
        g.populate(m, sk, &mut root.child_n("map/", i as u32 + 1, "/monsters"));
    }
    let mut scenario = unstocked(tables, params, seed, &court, &lim, maps, g.encounter_table());
    spend_trap_budget(&g, &mut scenario, &skeletons, &root);
    spend_base_budget(&g, &mut scenario, &root);
    // The movement graph the clues were placed on serves the final check too: nothing after the
    // frame moves a corridor, trap or entrance.
    let graph = g.frame_on_graph(&mut scenario, &mut root.child("frame"))?;
    weak_points::name_npcs(&mut scenario, tables, &mut root.child("relationship"));
    scenario.usage = usage(&scenario);
    scenario.warnings = warnings;

    // The check reads the graph and the usage just made (nothing above changes either).
    let violations = check_with(&scenario, tables, &graph);
    if let Some(first) = violations.first() {
        // The generator builds legal scenarios by construction; reaching this is a bug to report.
        return Err(Error::SelfCheck { what: format!("generated scenario (seed {seed})"), broken: first.to_string() });
    }
    Ok(scenario)
}

/// A GM's --tables folder must still hold every table the generator rolls on, and a monster it
/// can stock.
fn can_generate(tables: &Tables) -> Result<()> {
    if let Some(name) = tables.myk_rolls.missing_required() {
        return Err(Error::MissingTable { origin: tables.origin.clone(), name: name.to_string(), command: "`myk`" });
    }
    if let Some(message) = tables.story.problem() {
        return Err(Error::TableFile { file: tables.origin.clone(), message });
    }
    if !tables.myk.monsters.iter().any(|m| m.complete()) {
        return Err(Error::TableFile { file: tables.origin.clone(), message: "holds no complete MYK monster".into() });
    }
    Ok(())
}

/// Every map sheet laid out and named, its entrances linked to the next map's, with the
/// skeleton each was built on; a layout's note (once) joins the warnings.
fn map_sheets(
    g: &Gen,
    params: &MykParams,
    root: &Dice,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Map>, Vec<Skeleton>)> {
    let mut maps = Vec::with_capacity(params.maps as usize);
    let mut skeletons = Vec::with_capacity(params.maps as usize);
    for i in 1..=params.maps {
        let mut d = root.child_n("map/", i, "/layout");
        let sk = layout(&mut d, params.layout, params.rooms, i < params.maps);
        if let Some(n) = &sk.note
            && !warnings.contains(n)
        {
            warnings.push(n.clone());
        }
        maps.push(g.map_sheet(i, &sk, &mut root.child_n("map/", i, "/names"))?);
        skeletons.push(sk);
    }
    link_entrances(&mut maps, &skeletons, &mut root.child("entrances"));
    Ok((maps, skeletons))
}

/// The scenario around its populated maps, before traps, bases and the frame (title, cast,
/// clues) are added and the usage is counted.
fn unstocked(
    tables: &Tables,
    params: &MykParams,
    seed: u64,
    court: &Court,
    lim: &Limits,
    maps: Vec<Map>,
    encounters: EncounterTable,
) -> Scenario {
    Scenario {
        system: FIXED.system.clone(),
        format: crate::model::FILE_FORMAT,
        seed,
        generator: GeneratorInfo {
            name: FIXED.name.clone(),
            version: FIXED.version.clone(),
            tables: tables.version.clone(),
        },
        params: Params {
            court_size: court.size,
            levels: params.levels.clone(),
            maps: params.maps,
            rooms: params.rooms,
            layout: params.layout,
            paper: Default::default(),
            objective: params.objective,
            // The name as the option check gives it back (spaces trimmed and single).
            kingdom: params.kingdom.as_deref().map(|k| crate::myk::court::kingdom_name(k).unwrap_or_else(|_| k.into())),
            classes: params.classes.clone(),
        },
        court: limits::court(&params.levels),
        title: String::new(),
        objective: Objective::legacy(),
        introduction: SharedStr::default(),
        resolution: String::new(),
        cast: Vec::new(),
        clues: Vec::new(),
        story: None,
        maps,
        encounters,
        limits: lim.clone(),
        usage: Usage::default(),
        warnings: Vec::new(),
        notes: String::new(),
        frame_locked: false,
        rerolls: Vec::new(),
    }
}

/// Spends the scenario-wide trap limits: special movement's traps first (a map's layout may
/// depend on them), then each map an even share of what is left, the later maps getting what the
/// earlier ones did not spend.
fn spend_trap_budget(g: &Gen, scenario: &mut Scenario, skeletons: &[Skeleton], root: &Dice) {
    let mut budget = Budget { number: g.lim.traps_number, levels: g.lim.traps_total_level };
    for (i, sk) in skeletons.iter().enumerate() {
        if let Some(sp) = sk.special {
            g.special_movement(scenario, i, sp, &mut budget, &mut root.child_n("map/", i as u32 + 1, "/special"));
        }
    }
    let maps_n = scenario.maps.len() as u32;
    for i in 0..scenario.maps.len() {
        let left = maps_n - i as u32;
        let share = Budget { number: budget.number / left, levels: budget.levels / left };
        let spent = g.traps(scenario, i, share, &mut root.child_n("map/", i as u32 + 1, "/traps"));
        budget.number -= spent.number;
        budget.levels -= spent.levels;
    }
}

/// Spends the bases' total level limit map by map, each its share of what is left (rounded up).
fn spend_base_budget(g: &Gen, scenario: &mut Scenario, root: &Dice) {
    let maps_n = scenario.maps.len() as u32;
    let mut base_levels = g.lim.bases_total_level;
    for i in 0..scenario.maps.len() {
        let left = maps_n - i as u32;
        let share = base_levels.div_ceil(left);
        base_levels -= g.bases(&mut scenario.maps[i], share, &mut root.child_n("map/", i as u32 + 1, "/bases"));
    }
}

/// Recomputes what is derived from the rest (court totals, limits, usage) after a GM's edit (the
/// objective's text is filled from the scenario when it is read).
pub fn normalize(s: &mut Scenario) {
    s.court = limits::court(&s.court.levels);
    s.limits = limits::limits(&s.court);
    s.usage = usage(s);
    // A race read from an older file gains the arrival its map gives.
    crate::myk::goal::fill_arrival(s);
}

/// What is left of the scenario-wide trap limits (number, total level).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub(crate) number: u32,
    pub(crate) levels: u32,
}

/// The generator's pieces, callable one part at a time (the workbench's rerolls use them too).
pub(crate) struct Gen<'a> {
    tables: &'a Tables,
    /// The random encounter table for the court's level.
    encounters: MykRoll,
    court: &'a Court,
    lim: &'a Limits,
}

impl<'a> Gen<'a> {
    pub(crate) fn new(tables: &'a Tables, court: &'a Court, lim: &'a Limits) -> Gen<'a> {
        Gen { tables, court, lim, encounters: MykRoll::encounters(court.average_level) }
    }

    /// A table's row (following references), the table found when the tables were built.
    /// (`None` when a table is missing: the generator reports missing required tables up front.)
    fn roll_row(&self, table: MykRoll, d: &mut Dice) -> Option<&'a Row> {
        let tables: &'a Tables = self.tables;
        tables.roll_found(tables.myk_table(table)?, d)
    }

    /// A rolled row's text as [`Tables::roll_text`] gives it, shared with the tables when the row
    /// holds plain text (the scenario keeps it as it is).
    fn roll(&self, table: MykRoll, d: &mut Dice) -> SharedStr {
        match self.roll_row(table, d) {
            Some(Row { result: Some(r), .. }) => r.clone(),
            Some(row) => row.text().into(),
            None => SharedStr::default(),
        }
    }

    /// A rolled row's text, borrowed from the tables when the row holds plain text (as
    /// [`Tables::roll_text`], without a copy for text the caller only reads).
    fn roll_ref(&self, table: MykRoll, d: &mut Dice) -> Cow<'a, str> {
        match self.roll_row(table, d) {
            Some(Row { result: Some(r), .. }) => Cow::Borrowed(r.as_str()),
            Some(row) => Cow::Owned(row.text()),
            None => Cow::Borrowed(""),
        }
    }

    /// A place name: a flair word and a place word (the book's two rolls).
    pub(crate) fn place_name(&self, d: &mut Dice) -> ShortStr {
        let flair = self.roll_ref(MykRoll::Flair, d);
        // Rows that ask for the GM's favourite or another table: the generator takes the GM's part.
        let gm: Option<Cow<'a, str>> = match flair.as_ref() {
            "Favorite Monster" => {
                let data = &self.tables.myk;
                Some(d.choose(data.stockable_positions()).map_or("", |&i| data.monsters[i].name.as_str()).into())
            }
            "Favorite Trap" => Some(d.choose(&self.tables.myk.traps).map_or("", |t| t.name.as_str()).into()),
            "Favorite Number" => Some(NUMBERS[d.below(NUMBERS.len() as u32) as usize].into()),
            "Roll on the Word Tables" | "Roll on the Name Tables" => Some(self.roll_ref(MykRoll::Basic, d)),
            _ => None,
        };
        let first = gm.unwrap_or(flair);
        let second = self.roll_ref(MykRoll::Place, d);
        // One string, the one the scenario keeps.
        let mut name = ShortStr::with_capacity(first.len() + second.len() + 1);
        name.push_str(&first);
        if let Some(suffix) = second.strip_prefix('-') {
            name.push_str(suffix);
        } else {
            name.push(' ');
            name.push_str(&second);
        }
        name
    }

    pub(crate) fn map_sheet(&self, index: u32, sk: &Skeleton, d: &mut Dice) -> Result<Map> {
        let name = self.place_name(d);
        let mut rooms: Vec<Room> = RoomId::ALL.iter().map(|&id| Room::empty(id)).collect();
        for r in rooms.iter_mut().filter(|r| sk.used[r.id.index()]) {
            r.used = true;
            self.name_room(r, &mut d.child(r.id.name()));
        }
        let corridors = sk.corridors.iter().map(|c| Corridor { a: c.0, b: c.1, trap: None, one_way: None }).collect();
        Ok(Map { index, name, rooms, corridors, entrances: Vec::new(), notes: String::new(), locked: false })
    }

    /// A used room's name and environment.
    pub(crate) fn name_room(&self, r: &mut Room, rd: &mut Dice) {
        r.name = self.place_name(rd);
        r.environment = self.roll(MykRoll::Environment, rd);
    }

    /// The book's random encounter table for the court's average level (1-6; 6 above that), with
    /// only monsters whose stats are known (filtered at load).
    fn encounter_table(&self) -> EncounterTable {
        limits::encounter_table(self.tables, self.court)
    }

    /// The ruler, guards in the ruler's room, and monster groups in other rooms (within A + 2 rooms).
    pub(crate) fn populate(&self, m: &mut Map, sk: &Skeleton, d: &mut Dice) {
        let room_cap = self.lim.rooms_with_monsters as usize;
        // The ruler: a strong monster, then skills, weak points and stat increases up to A + 7.
        let cores_fit = m.used_rooms().any(|r| r.id != sk.ruler);
        if let Some(ruler) = ruler::pick(self.tables, self.court, self.lim, cores_fit, &mut d.child("ruler")) {
            let room = &mut m.rooms[sk.ruler.index()];
            room.ruler = Some(ruler);
            self.guards(room, d);
        }
        let mut candidates =
            room_list(m.used_rooms().map(|r| r.id).filter(|&r| r != sk.ruler && Some(r) != sk.special.map(|s| s.0)));
        d.shuffle(candidates.as_mut_slice());
        let used = m.used_rooms().count();
        let want = (used * 3 / 5).clamp(1, room_cap).saturating_sub(1);
        for &id in candidates.as_slice().iter().take(want) {
            self.stock_room(&mut m.rooms[id.index()], &mut d.child(id.name()));
        }
        // Split Core: its cores go to monsters in other rooms (a small group joins if too few stand there).
        weak_points::place_cores(m, sk.ruler, self.lim, &self.tables.myk, &mut d.child("cores"));
    }

    /// Guards beside the room's ruler (two times in three), within 4S + T with the ruler.
    pub(crate) fn guards(&self, room: &mut Room, d: &mut Dice) {
        let a = self.court.average_level;
        // The one room rule: beside a ruler, 4S + T whatever the guards' reaction.
        let cap = self.lim.room_cap(true, std::iter::empty()).map_or(0, |c| c.0);
        let guard_room = cap.saturating_sub(room.ruler.as_ref().map_or(0, |r| r.effective_level));
        if d.chance(2, 3) {
            let target = d.between(guard_room / 3, guard_room * 2 / 3);
            room.monsters = self.groups(d, target, a + 4, Reaction::Hostile, 2);
            let used: u32 = room.monsters.iter().map(|g| g.count * g.effective_level).sum();
            let data = &self.tables.myk;
            monsters::equip(&mut room.monsters, data, a + 4, guard_room.saturating_sub(used), &mut d.child("equip"));
        }
    }

    /// Monster groups for a room without a ruler: a reaction, then groups from the encounter table
    /// or the bestiary within the room's limit for that reaction, then items.
    pub(crate) fn stock_room(&self, room: &mut Room, rd: &mut Dice) {
        let a = self.court.average_level;
        let reaction = *rd
            .weighted(&[Reaction::Hostile, Reaction::Neutral, Reaction::Friendly], |r| match r {
                Reaction::Hostile => 5,
                Reaction::Neutral => 3,
                Reaction::Friendly => 2,
            })
            .unwrap_or(&Reaction::Hostile);
        let cap = self.lim.room_total(reaction);
        let target = rd.between(cap / 2, cap);
        let from_table = if rd.chance(1, 2) { self.encounter_groups(rd, target, reaction) } else { Vec::new() };
        let groups = if from_table.is_empty() { self.groups(rd, target, a + 4, reaction, 3) } else { from_table };
        let used: u32 = groups.iter().map(|g| g.count * g.effective_level).sum();
        room.monsters = groups;
        monsters::equip(&mut room.monsters, &self.tables.myk, a + 4, cap.saturating_sub(used), &mut rd.child("equip"));
    }

    /// Groups from a random encounter row, trimmed to fit `target` levels.
    fn encounter_groups(&self, d: &mut Dice, target: u32, reaction: Reaction) -> Vec<MonsterGroup> {
        let Some(table) = self.tables.myk_table(self.encounters) else { return Vec::new() };
        let (_, r) = table.roll_index(d);
        let mut left = target;
        let mut out = Vec::new();
        for (k, g) in table.rows[r].groups.iter().enumerate() {
            let data = &self.tables.myk;
            let found = self.tables.myk_rolls.encounter_monster(self.encounters, r, k).map(|i| &data.monsters[i]);
            let Some(mon) = found.filter(|m| m.complete()) else { continue };
            let lvl = mon.level.unwrap_or(1).max(1);
            if lvl > self.lim.monster_level {
                continue;
            }
            let count = match g.count {
                Count::Fixed(n) => n,
                rule => rule.resolve(self.court.size),
            }
            .min(left / lvl)
            .min(9);
            if count == 0 {
                continue;
            }
            left -= count * lvl;
            // A monster standing in two positions (vanguard and rearguard) is one group in a room.
            match out.iter_mut().find(|g: &&mut MonsterGroup| g.name == mon.name) {
                Some(g) => g.count = (g.count + count).min(9),
                None => out.push(MonsterGroup::plain(&mon.name, lvl, count, reaction)),
            }
        }
        out
    }

    /// Up to `most` groups of bestiary monsters of level ≤ `cap`, totalling at most `target` levels.
    /// Monsters near the court's level are likelier.
    pub(crate) fn groups(
        &self,
        d: &mut Dice,
        target: u32,
        cap: u32,
        reaction: Reaction,
        most: u32,
    ) -> Vec<MonsterGroup> {
        assert!(most <= 3, "a room takes at most three groups");
        let a = self.court.average_level as i64;
        let mut left = target;
        let n = d.between(1, most);
        let mut out: Vec<MonsterGroup> = Vec::with_capacity(n as usize);
        // The monsters picked so far (one per group made), for the later picks to leave out.
        let mut chosen: ArrayVec<&Monster, 3> = ArrayVec::new();
        for _ in 0..n {
            let Some(mon) = monsters::pick_for_group(&self.tables.myk, d, cap, left, a, &chosen) else { break };
            let lvl = mon.level.unwrap_or(1);
            let most_count = (left / lvl).clamp(1, 9);
            let count = d.between(1.max(most_count / 2), most_count);
            left -= count * lvl;
            chosen.push(mon);
            out.push(MonsterGroup::plain(&mon.name, lvl, count, reaction));
        }
        out
    }

    /// Hides a leaf room behind a Secret Door, or reaches it by a Teleporter and leaves it by a
    /// Moving Floor, when the scenario's trap budget allows.
    pub(crate) fn special_movement(
        &self,
        s: &mut Scenario,
        i: usize,
        (leaf, corridor): (RoomId, CorridorId),
        budget: &mut Budget,
        d: &mut Dice,
    ) {
        let data = &self.tables.myk;
        let by_route = |r: Route| data.trap_by_route(r);
        let parent = corridor.other(leaf);
        let teleport = (by_route(Route::Teleport), by_route(Route::OneWay));
        let use_teleport = d.chance(1, 3);
        if let (true, (Some(tp), Some(mf))) = (use_teleport, teleport) {
            let cost = tp.level.min() + mf.level.min();
            let map = &s.maps[i];
            let from = room_list(map.used_rooms().map(|r| r.id).filter(|&r| r != leaf));
            if budget.number >= 2
                && budget.levels >= cost
                && let Some(&at) = d.choose(from.as_slice())
            {
                let object = d.choose(&tp.objects).cloned().unwrap_or_else(|| "door".into());
                let mut t = placed(tp, tp.level.min(), Some(object), false);
                t.destination = Some(Place { map: map.index, room: leaf });
                let map = &mut s.maps[i];
                map.rooms[at.index()].traps.push(t);
                if let Some(c) = map.corridors.iter_mut().find(|c| c.id() == corridor) {
                    c.trap = Some(placed(mf, mf.level.min(), None, false));
                    c.one_way = Some(Direction { from: leaf, to: parent });
                }
                budget.number -= 2;
                budget.levels -= cost;
                return;
            }
        }
        if let Some(sd) = by_route(Route::Hidden)
            && budget.number >= 1
            && budget.levels >= sd.level.min()
        {
            let mut t = placed(sd, sd.level.min(), None, false);
            t.corridor = Some(corridor);
            // The door is found from inside its room, so it stands in the room the court reaches
            // first: the parent, unless the way in from another map opens into the leaf.
            for side in [parent, leaf] {
                s.maps[i].rooms[side.index()].traps.push(t.clone());
                if self.reachable(s) {
                    budget.number -= 1;
                    budget.levels -= sd.level.min();
                    return;
                }
                s.maps[i].rooms[side.index()].traps.pop();
            }
        }
    }

    /// Rolls traps for one map within its share of the budget. Returns what it spent.
    pub(crate) fn traps(&self, s: &mut Scenario, i: usize, share: Budget, d: &mut Dice) -> Budget {
        let used = s.maps[i].used_rooms().count() as u32;
        let want = d.between(used / 3 + 1, used * 2 / 3 + 2).min(share.number);
        self.traps_in(s, i, share, want, None, d)
    }

    /// Rolls up to `want` traps for one map within `share`, only in room `only` when given (no
    /// corridor traps then). Returns what it spent.
    pub(crate) fn traps_in(
        &self,
        s: &mut Scenario,
        i: usize,
        share: Budget,
        want: u32,
        only: Option<RoomId>,
        d: &mut Dice,
    ) -> Budget {
        let a = self.court.average_level;
        let mut spent = Budget { number: 0, levels: 0 };
        let categories = TrapCategory::ALL;
        // The map's used rooms, and those a trap may go in, are the same for every try (a trap
        // never changes which rooms are used): listed once, on the stack.
        let rooms = room_list(s.maps[i].used_rooms().map(|r| r.id));
        let here = room_list(rooms.iter().copied().filter(|&r| only.is_none_or(|o| o == r)));
        let spots = Spots { rooms, here, only };
        for _ in 0..want * 4 {
            if spent.number >= want {
                break;
            }
            let left = share.levels - spent.levels;
            let c = d.below(6) as usize;
            let Some(table) = self.tables.myk_table(MykRoll::traps(categories[c])) else {
                continue;
            };
            let (_, row) = table.roll_index(d);
            let Some(k) = self.tables.myk_rolls.trap_of_row(c, row) else {
                continue;
            };
            let rec = &self.tables.myk.traps[k];
            // A level the GM picks (e.g. Pit 1-5) is kept near the court's level.
            let level = match rec.level {
                Level::Fixed(n) => n,
                Level::Range(lo, hi) => d.between(lo, hi.min(lo.max(a)).max(lo)),
            };
            if level > left {
                continue;
            }
            let convert = rec.placement == Placement::Room
                && rec.route.is_none()
                && traps::converted_level(level) <= left
                && d.chance(1, 6);
            if let Some(lvl) = self.place_trap(s, i, (k, level, convert), &spots, d) {
                spent.number += 1;
                spent.levels += lvl;
            }
        }
        spent
    }

    /// Puts the `k`th trap at `level` (turned into an Event trap when `convert`) where its
    /// placement allows, in `spots`; undoes it if it would break reachability. Returns the level
    /// spent.
    fn place_trap(
        &self,
        s: &mut Scenario,
        i: usize,
        (k, level, convert): (usize, u32, bool),
        spots: &Spots,
        d: &mut Dice,
    ) -> Option<u32> {
        let data = &self.tables.myk;
        let rec = &data.traps[k];
        let map = &s.maps[i];
        let (rooms, here, only) = (&spots.rooms, &spots.here, spots.only);
        let placement = if convert { Placement::Event } else { rec.placement };
        let level = if convert { traps::converted_level(level) } else { level };
        // The rolls in their order (object, ambushers, destination, then the spot); the trap itself
        // is built only once it has a spot. What it asks of its room is read from its object: one
        // of the record's own objects has its traits kept at load, another is read by name.
        let (object, needs) = match placement {
            Placement::Event => {
                let (object, j) = trap_object(rec, d);
                let traits = j.and_then(|j| data.trap_object_traits(k, j));
                let traits = traits.unwrap_or_else(|| data.object_traits(&object));
                let needs = traps::RoomNeeds::with(rec, Some(&object), traits);
                (Some(object), needs)
            }
            _ => (None, traps::RoomNeeds::with(rec, None, Default::default())),
        };
        let mut ambush = Vec::new();
        if rec.ambush {
            // A Gate Keeper calls monsters the scenario already describes, inside the hostile limit.
            ambush = traps::ambushers(s, self.lim, data, d);
            if ambush.is_empty() {
                return None;
            }
        }
        let mut destination = None;
        if matches!(rec.route, Some(Route::Teleport | Route::Redirect)) {
            let &to = d.choose(rooms.as_slice())?;
            destination = Some(Place { map: map.index, room: to });
        }
        // Rolls only for a trap whose record leaves a choice (so every other placement keeps its rolls).
        let choice = traps::placed_choice(rec, rooms.as_slice(), data, d);
        let trap =
            move || PlacedTrap { object, monsters: ambush, destination, choice, ..placed(rec, level, None, convert) };
        let undo = match placement {
            // A trap asked for in one room never goes in a corridor.
            Placement::Corridor if only.is_some() => return None,
            Placement::Corridor => trap_in_corridor(&mut s.maps[i], rec, trap, d)?,
            Placement::Area => trap_in_fight(&mut s.maps[i], here, trap, d)?,
            Placement::Room | Placement::Event => trap_in_room((&mut s.maps[i], data), rec, needs, here, trap, d)?,
        };
        if (rec.route.is_some() || destination.is_some()) && !self.reachable(s) {
            undo.apply(&mut s.maps[i]);
            return None;
        }
        Some(level)
    }

    /// The reachability rules of `check`, on the scenario as it stands.
    pub(crate) fn reachable(&self, s: &Scenario) -> bool {
        let mut v = Vec::new();
        crate::myk::check::movement(s, &Reach::new(s, self.tables), &mut v);
        v.is_empty()
    }

    /// Rolls bases on the 2D6 table within `share` levels. Returns the levels spent.
    fn bases(&self, m: &mut Map, share: u32, d: &mut Dice) -> u32 {
        self.bases_in(m, share, None, d)
    }

    /// Rolls bases within `share` levels, only in room `only` when given. Returns the levels spent.
    pub(crate) fn bases_in(&self, m: &mut Map, share: u32, only: Option<RoomId>, d: &mut Dice) -> u32 {
        let Some(table) = self.tables.myk_table(MykRoll::Bases) else { return 0 };
        let mut spent = 0;
        for _ in 0..6 {
            if spent >= share || !d.chance(2, 3) {
                break;
            }
            let (_, row) = table.roll_index(d);
            let Some(rec) = self.tables.myk_rolls.base_of_row(row).map(|k| &self.tables.myk.bases[k]) else { continue };
            let Some(level) = rec.level.filter(|_| rec.unknown.is_empty()) else { continue };
            if level > share - spent {
                continue;
            }
            use crate::tables::myk::Installation;
            let rooms = room_list(
                m.used_rooms()
                    .filter(|r| only.is_none_or(|o| o == r.id))
                    .filter(|r| match rec.installation {
                        Installation::Room => r.bases.is_empty(),
                        Installation::Addition => r.bases.len() < 2,
                    })
                    .map(|r| r.id),
            );
            // Monsters build bases: prefer their rooms.
            let Some(&r) = d.weighted(rooms.as_slice(), |id| if m.room(*id).has_monsters() { 3 } else { 1 }) else {
                continue;
            };
            m.rooms[r.index()].bases.push(PlacedBase { name: rec.name.clone(), level, installation: rec.installation });
            spent += level;
        }
        spent
    }

    /// Title, objective, hooks, cast and clues. The introduction and resolution keep their
    /// `{ruler}`, `{map}` and `{npc}` placeholders: renderers fill them from the scenario as it is.
    pub(crate) fn frame(&self, s: &mut Scenario, d: &mut Dice) -> Result<()> {
        self.frame_on_graph(s, d).map(|_| ())
    }

    /// Places the scenario's clues anew and writes them out (a change made them false).
    /// Informants it adds to the cast are dressed as the generator dresses its cast (personality,
    /// want, line and Important-NPC numbers); the NPCs already there keep theirs.
    pub(crate) fn clues_anew(&self, s: &mut Scenario, d: &mut Dice) {
        s.clues = crate::myk::clues::place(s, self.tables, d);
        let known = s.cast.len();
        crate::myk::clues::text::write_clues(
            s,
            self.tables,
            &mut |nd: &mut Dice| self.npc(nd),
            &mut d.child("clue-words"),
        );
        crate::myk::story::dress_cast_from(s, self.tables, known, &mut d.child("cast-words"));
    }

    /// [`Gen::frame`], giving back the movement graph the clues were placed on.
    fn frame_on_graph(&self, s: &mut Scenario, d: &mut Dice) -> Result<Reach> {
        use crate::myk::story;
        if s.maps.is_empty() {
            return Err(Error::NoMaps);
        }
        s.cast.clear();
        let mut new_npc = |nd: &mut Dice| self.npc(nd);
        let kind = story::pick_kind(s, s.params.objective, &mut d.child("objective/kind"));
        let (mut objective, target_npc) =
            story::place_objective(s, kind, self.tables, &mut new_npc, &mut d.child("objective"));
        objective.text = story::objective_text(&self.tables.story, kind, &mut d.child("objective/text"));
        if kind == ObjectiveKind::Race {
            let rival = self.place_name(&mut d.child("objective/rival-kingdom")).to_string();
            objective.target = rival.clone();
            objective.rival_kingdom = Some(rival);
        }
        s.objective = objective;
        if let Some(n) = target_npc {
            s.objective.npc = Some(crate::myk::model::CastRef::at(s.cast.len()));
            s.cast.push(n);
        }
        let mut patron = story::unique_npc(s, &mut new_npc, &mut d.child("cast/patron"));
        patron.role = story::PATRON.into();
        s.cast.push(patron);
        let graph = Reach::new(s, self.tables);
        s.clues = crate::myk::clues::place_on(s, &graph, &mut d.child("clues"));
        crate::myk::clues::text::write_clues(s, self.tables, &mut new_npc, &mut d.child("clue-words"));
        s.story = Some(story::write_story(s, self.tables, &mut d.child("story")));
        s.objective.arrives = crate::myk::goal::derived_arrival(s);
        story::dress_cast(s, self.tables, &mut d.child("cast-words"));
        s.title = story::title(&self.tables.story, kind, &mut d.child("title"));
        (s.introduction, s.resolution) = story::hooks(s);
        Ok(graph)
    }

    /// An NPC: a name (an example of the book's name kinds), a part from the role table, age,
    /// sex and two different traits.
    pub(crate) fn npc(&self, nd: &mut Dice) -> Npc {
        // The book names NPCs after a kind of thing and gives examples: take one example.
        let kind = self.roll_ref(MykRoll::NpcName, nd);
        // The examples split out once and drawn from (`choose` on them is the draw a second
        // walk over the split made).
        let examples: Vec<&str> = kind
            .split_once('(')
            .map(|(_, e)| e.trim_end_matches(')').split(',').map(str::trim).filter(|x| !x.is_empty()).collect())
            .unwrap_or_default();
        let name = nd.choose(&examples).map_or_else(|| ShortStr::from(kind.as_ref()), |&x| ShortStr::from(x));
        const TRAITS: [MykRoll; 4] =
            [MykRoll::NpcPersonality, MykRoll::NpcAppearance, MykRoll::NpcAbility, MykRoll::NpcSpecialTrait];
        let mut traits: Vec<SharedStr> =
            (0..2).map(|t| self.roll(TRAITS[(nd.below(4) + t) as usize % 4], nd)).collect();
        // Two traits say two things: a repeat is rolled again, table by table, until it differs.
        for table in TRAITS {
            if traits[1] != traits[0] {
                break;
            }
            traits[1] = self.roll(table, nd);
        }
        Npc {
            name,
            role: self.roll(MykRoll::FrameRole, nd),
            age: self.roll(MykRoll::NpcAge, nd),
            sex: self.roll(MykRoll::NpcSex, nd),
            traits,
            personality: String::new(),
            place: None,
            wants: String::new(),
            line: String::new(),
            fights: None,
        }
    }
}

/// How to take back a trap just placed: clear the corridor, or pop the room's last trap.
enum Undo {
    Corridor(usize),
    Room(RoomId),
}

impl Undo {
    fn apply(self, m: &mut Map) {
        match self {
            Undo::Corridor(c) => {
                m.corridors[c].trap = None;
                m.corridors[c].one_way = None;
            }
            Undo::Room(r) => {
                m.rooms[r.index()].traps.pop();
            }
        }
    }
}

/// What an event trap sits on: the creature bearing it (a trap on an attacking creature sits on
/// one of the room's monsters, seed 003 l.5916), or one of the record's objects (with its place
/// in the record's list).
fn trap_object(rec: &Trap, d: &mut Dice) -> (SharedStr, Option<usize>) {
    if rec.bearer {
        return (SharedStr::from(traps::BEARER_OBJECT), None);
    }
    match d.choose(&rec.objects) {
        Some(o) => (o.clone(), rec.objects.iter().position(|x| std::ptr::eq(x, o))),
        None => ("floor".into(), None),
    }
}

/// A corridor trap goes in a corridor without one (one trap per corridor); a one-way trap also
/// sets a direction at random.
fn trap_in_corridor(m: &mut Map, rec: &Trap, trap: impl FnOnce() -> PlacedTrap, d: &mut Dice) -> Option<Undo> {
    let c = d.choose_from(|| (0..m.corridors.len()).filter(|&c| m.corridors[c].trap.is_none()))?;
    let corridor = &mut m.corridors[c];
    if rec.route == Some(Route::OneWay) {
        let (a, b) = (corridor.a, corridor.b);
        corridor.one_way =
            Some(if d.chance(1, 2) { Direction { from: a, to: b } } else { Direction { from: b, to: a } });
    }
    corridor.trap = Some(trap());
    Some(Undo::Corridor(c))
}

/// An area trap goes in a room of `here` where monsters fight and no area trap is yet.
fn trap_in_fight(m: &mut Map, here: &RoomList, trap: impl FnOnce() -> PlacedTrap, d: &mut Dice) -> Option<Undo> {
    let fighting = room_list(
        m.rooms
            .iter()
            .filter(|r| r.has_monsters() && traps::area_free(r) && here.as_slice().contains(&r.id))
            .map(|r| r.id),
    );
    let &r = d.choose(fighting.as_slice())?;
    m.rooms[r.index()].traps.push(trap());
    Some(Undo::Room(r))
}

/// A room or event trap goes in a room of `here` that holds what it needs (a bearer, a ruler's
/// spoils); a hidden-passage trap also hides one of the room's corridors not hidden yet.
fn trap_in_room(
    (m, data): (&mut Map, &MykData),
    rec: &Trap,
    needs: traps::RoomNeeds,
    here: &RoomList,
    trap: impl FnOnce() -> PlacedTrap,
    d: &mut Dice,
) -> Option<Undo> {
    // What the trap asks of a room (`needs`) is read once, then each room of `here` is tried.
    let fit = room_list(here.as_slice().iter().copied().filter(|&r| needs.unmet(m.room(r), m, data).is_none()));
    let &r = d.choose(fit.as_slice())?;
    let mut hides = None;
    if rec.route == Some(Route::Hidden) {
        let hidden: Vec<CorridorId> = m.rooms.iter().flat_map(|x| x.traps.iter()).filter_map(|t| t.corridor).collect();
        let mine: Vec<CorridorId> =
            m.corridors.iter().map(Corridor::id).filter(|c| c.touches(r) && !hidden.contains(c)).collect();
        hides = Some(*d.choose(&mine)?);
    }
    m.rooms[r.index()].traps.push(PlacedTrap { corridor: hides, ..trap() });
    Some(Undo::Room(r))
}

/// Up to nine rooms of one map, without a heap allocation.
type RoomList = ArrayVec<RoomId, 9>;

/// The first nine of `ids` (a map has nine rooms), pushed one by one: `collect` into an
/// `ArrayVec` cost five times as much on these short lists.
fn room_list(ids: impl Iterator<Item = RoomId>) -> RoomList {
    let mut list = RoomList::new();
    for id in ids {
        if list.try_push(id).is_err() {
            break;
        }
    }
    list
}

/// Where the traps of one map may go: its used rooms, and those of them a trap may stand in
/// (`only`, when given, else all).
struct Spots {
    rooms: RoomList,
    here: RoomList,
    only: Option<RoomId>,
}

/// A trap record placed at `level`.
pub(crate) fn placed(rec: &Trap, level: u32, object: Option<SharedStr>, converted: bool) -> PlacedTrap {
    PlacedTrap {
        name: rec.name.clone(),
        category: rec.category,
        level,
        placement: if converted { Placement::Event } else { rec.placement },
        activation: rec.activation,
        disarm: rec.disarm_text.clone(),
        object,
        converted,
        corridor: None,
        destination: None,
        summary: rec.summary.clone(),
        choice: None,
        monsters: Vec::new(),
    }
}

/// Entrances: the first map's way in from outside; each later map joined to the one before.
fn link_entrances(maps: &mut [Map], sk: &[Skeleton], d: &mut Dice) {
    // The walls each map's entrances took, one bit per wall; the wall lists live on the stack, and
    // so do the bits for up to 32 maps (the generator makes at most 20).
    let (mut few, mut many) = ([0u8; 32], Vec::new());
    let taken: &mut [u8] = if maps.len() <= few.len() {
        &mut few[..maps.len()]
    } else {
        many.resize(maps.len(), 0);
        &mut many
    };
    let bit = |w: Wall| 1u8 << (w as u8);
    let wall = |d: &mut Dice, i: usize, r: RoomId, taken: &mut [u8]| {
        // Two entrances in one room take different walls when the room has two.
        let (mut all, mut free) = ([Wall::North; 4], [Wall::North; 4]);
        let (mut n_all, mut n_free) = (0, 0);
        for w in r.exterior_walls() {
            all[n_all] = w;
            n_all += 1;
            if taken[i] & bit(w) == 0 {
                free[n_free] = w;
                n_free += 1;
            }
        }
        let w = *d.choose(if n_free == 0 { &all[..n_all] } else { &free[..n_free] }).unwrap_or(&Wall::North);
        taken[i] |= bit(w);
        w
    };
    let w = wall(d, 0, sk[0].entry, taken);
    maps[0].entrances.push(Entrance { room: sk[0].entry, wall: w, to: None });
    for i in 1..maps.len() {
        let from = sk[i - 1].exit.unwrap_or(sk[i - 1].ruler);
        let to = sk[i].entry;
        let w1 = wall(d, i - 1, from, taken);
        let w2 = wall(d, i, to, taken);
        let (a, b) = (maps[i - 1].index, maps[i].index);
        maps[i - 1].entrances.push(Entrance { room: from, wall: w1, to: Some(Place { map: b, room: to }) });
        maps[i].entrances.push(Entrance { room: to, wall: w2, to: Some(Place { map: a, room: from }) });
    }
}

const NUMBERS: [&str; 12] =
    ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"];
