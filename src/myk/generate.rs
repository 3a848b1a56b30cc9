//! The MYK generator: court → maps → rulers → monsters → traps → bases → frame and clues, each
//! part on its own named dice stream, then `check` on the result (the same rules a GM's edit meets).

use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::myk::check::{Reach, check, usage};
use crate::myk::layout::{Skeleton, layout};
use crate::myk::limits;
use crate::myk::model::*;
use crate::tables::Tables;
use crate::tables::myk::{Level, Monster, Placement, Route, Trap, TrapCategory};
use crate::tables::roll::Count;

/// What the GM asked for, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct MykParams {
    pub levels: Vec<u32>,
    pub maps: u32,
    pub rooms: u32,
    pub layout: Layout,
}

impl MykParams {
    /// Checks the options; returns warnings for values the book does not cover.
    pub fn validate(&self) -> Result<Vec<String>> {
        let size = self.levels.len() as u32;
        if !(1..=12).contains(&size) {
            return Err(Error::Option { option: "--court-size", message: format!("{size} members; a court has 1-12") });
        }
        if let Some(l) = self.levels.iter().find(|l| !(1..=30).contains(*l)) {
            return Err(Error::Option { option: "--level", message: format!("level {l}; levels run 1-30") });
        }
        if !(1..=20).contains(&self.maps) {
            return Err(Error::Option { option: "--maps", message: format!("{} maps; use 1-20", self.maps) });
        }
        if !(3..=9).contains(&self.rooms) {
            return Err(Error::Option {
                option: "--rooms",
                message: format!("{} rooms; a 3x3 sheet uses 3-9", self.rooms),
            });
        }
        let mut warnings = Vec::new();
        let court = limits::court(&self.levels);
        if !(3..=6).contains(&size) {
            warnings
                .push(format!("court size {size} is outside the book's table (3-6); the limit formulas still apply"));
        }
        if !(1..=10).contains(&court.average_level) {
            warnings.push(format!(
                "average level {} is outside the book's table (1-10); the limit formulas still apply",
                court.average_level
            ));
        }
        Ok(warnings)
    }
}

/// Generates a complete, legal scenario. Same tables + params + seed ⇒ the same scenario.
pub fn generate(tables: &Tables, params: &MykParams, seed: u64) -> Result<Scenario> {
    let mut warnings = params.validate()?;
    // A GM's --tables folder must still hold every table the generator rolls on.
    if let Some(name) = REQUIRED.iter().find(|n| tables.roll_table(n).is_none()) {
        return Err(Error::MissingTable { origin: tables.origin.clone(), name: name.to_string(), command: "`myk`" });
    }
    if !tables.myk.monsters.iter().any(|m| m.complete()) {
        return Err(Error::TableFile { file: tables.origin.clone(), message: "holds no complete MYK monster".into() });
    }
    let root = Dice::new(seed).child("myk");
    let court = limits::court(&params.levels);
    let lim = limits::limits(&court);
    let g = Gen {
        tables,
        court: &court,
        lim: &lim,
        encounters: format!("myk.encounters.level{}", court.average_level.clamp(1, 6)),
    };

    let mut maps = Vec::with_capacity(params.maps as usize);
    let mut specials: Vec<Option<(RoomId, CorridorId)>> = Vec::new();
    let mut skeletons = Vec::new();
    for i in 1..=params.maps {
        let mut d = root.child(&format!("map/{i}/layout"));
        let sk = layout(&mut d, params.layout, params.rooms, i < params.maps);
        if let Some(n) = &sk.note
            && !warnings.contains(n)
        {
            warnings.push(n.clone());
        }
        maps.push(g.map_sheet(i, &sk, &mut root.child(&format!("map/{i}/names")))?);
        specials.push(sk.special);
        skeletons.push(sk);
    }
    link_entrances(&mut maps, &skeletons, &mut root.child("entrances"));

    // Threats: rulers and monsters per map, then the scenario-wide trap and base budgets.
    for (i, (m, sk)) in maps.iter_mut().zip(&skeletons).enumerate() {
        g.populate(m, sk, &mut root.child(&format!("map/{}/monsters", i + 1)));
    }
    let mut scenario = Scenario {
        system: "myk".into(),
        format: crate::format::CURRENT,
        seed,
        generator: GeneratorInfo {
            name: "dungeonsmith".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            tables: tables.version.clone(),
        },
        params: Params {
            court_size: court.size,
            levels: params.levels.clone(),
            maps: params.maps,
            rooms: params.rooms,
            layout: params.layout,
            paper: Default::default(),
        },
        court: court.clone(),
        title: String::new(),
        objective: String::new(),
        introduction: String::new(),
        resolution: String::new(),
        cast: Vec::new(),
        clues: Vec::new(),
        maps,
        encounters: g.encounter_table(),
        limits: lim.clone(),
        usage: usage_zero(),
        warnings: Vec::new(),
    };
    let mut budget = Budget { number: lim.traps_number, levels: lim.traps_total_level };
    for (i, special) in specials.iter().enumerate() {
        if let Some(sp) = special {
            g.special_movement(&mut scenario, i, *sp, &mut budget, &mut root.child(&format!("map/{}/special", i + 1)));
        }
    }
    let maps_n = scenario.maps.len() as u32;
    for i in 0..scenario.maps.len() {
        let left = maps_n - i as u32;
        let share = Budget { number: budget.number / left, levels: budget.levels / left };
        let spent = g.traps(&mut scenario, i, share, &mut root.child(&format!("map/{}/traps", i + 1)));
        budget.number -= spent.number;
        budget.levels -= spent.levels;
    }
    let mut base_levels = lim.bases_total_level;
    for i in 0..scenario.maps.len() {
        let left = maps_n - i as u32;
        let share = base_levels.div_ceil(left);
        base_levels -= g.bases(&mut scenario.maps[i], share, &mut root.child(&format!("map/{}/bases", i + 1)));
    }
    g.frame(&mut scenario, &mut root.child("frame"))?;
    scenario.usage = usage(&scenario);
    scenario.warnings = warnings;

    let violations = check(&scenario, tables);
    if let Some(first) = violations.first() {
        // The generator builds legal scenarios by construction; reaching this is a bug to report.
        return Err(Error::Scenario {
            file: format!("generated scenario (seed {seed})"),
            message: format!("internal error, the generator broke a rule: {first}"),
        });
    }
    Ok(scenario)
}

/// Recomputes what is derived from the rest (court totals, limits, usage) after a GM's edit.
pub fn normalize(s: &mut Scenario) {
    s.court = limits::court(&s.court.levels);
    s.limits = limits::limits(&s.court);
    s.usage = usage(s);
}

fn usage_zero() -> Usage {
    Usage {
        traps_number: 0,
        traps_total_level: 0,
        bases_total_level: 0,
        most_rooms_with_monsters: 0,
        highest_monster_level: 0,
        highest_room_total: 0,
        highest_ruler_level: 0,
    }
}

#[derive(Clone, Copy, Debug)]
struct Budget {
    number: u32,
    levels: u32,
}

struct Gen<'a> {
    tables: &'a Tables,
    /// The random encounter table for the court's level.
    encounters: String,
    court: &'a Court,
    lim: &'a Limits,
}

impl Gen<'_> {
    fn roll(&self, table: &str, d: &mut Dice) -> String {
        self.tables.roll_text(table, d).unwrap_or_default()
    }

    /// A place name: a flair word and a place word (the book's two rolls).
    fn place_name(&self, d: &mut Dice) -> String {
        let mut first = self.roll("myk.names.flair", d);
        // Rows that ask for the GM's favourite or another table: the generator takes the GM's part.
        match first.as_str() {
            "Favorite Monster" => {
                let n = self.tables.myk.stockable_count() as u32;
                let i = if n == 0 { 0 } else { d.below(n) as usize };
                first = self.tables.myk.stockable().nth(i).map(|m| m.name.clone()).unwrap_or_default();
            }
            "Favorite Trap" => first = d.choose(&self.tables.myk.traps).map(|t| t.name.clone()).unwrap_or_default(),
            "Favorite Number" => first = NUMBERS[d.below(NUMBERS.len() as u32) as usize].to_string(),
            "Roll on the Word Tables" | "Roll on the Name Tables" => first = self.roll("myk.names.basic", d),
            _ => {}
        }
        let second = self.roll("myk.names.place", d);
        if let Some(suffix) = second.strip_prefix('-') {
            format!("{first}{suffix}")
        } else {
            format!("{first} {second}")
        }
    }

    fn map_sheet(&self, index: u32, sk: &Skeleton, d: &mut Dice) -> Result<Map> {
        let name = self.place_name(d);
        let mut rooms: Vec<Room> = RoomId::ALL.iter().map(|&id| Room::empty(id)).collect();
        for r in rooms.iter_mut().filter(|r| sk.used[r.id.index()]) {
            let mut rd = d.child(r.id.name());
            r.used = true;
            r.name = self.place_name(&mut rd);
            r.environment = self.roll("myk.environment", &mut rd);
        }
        let corridors = sk.corridors.iter().map(|c| Corridor { a: c.0, b: c.1, trap: None, one_way: None }).collect();
        Ok(Map { index, name, rooms, corridors, entrances: Vec::new() })
    }

    fn complete_monster(&self, name: &str) -> Option<&Monster> {
        self.tables.myk.monster(name).filter(|m| m.complete())
    }

    /// The book's random encounter table for the court's average level (1-6; 6 above that).
    fn encounter_table(&self) -> EncounterTable {
        let level = self.court.average_level.clamp(1, 6);
        let rows = self
            .tables
            .roll_table(&self.encounters)
            .map(|t| {
                t.rows
                    .iter()
                    .flat_map(|row| {
                        let groups: Vec<EncounterGroup> = row
                            .groups
                            .iter()
                            .map(|g| EncounterGroup {
                                name: g.monster.clone(),
                                position: g.position,
                                count: g.count.resolve(self.court.size),
                            })
                            .collect();
                        t.outcomes_of(row)
                            .unwrap_or_default()
                            .into_iter()
                            .map(move |roll| EncounterRow { roll, groups: groups.clone() })
                    })
                    .collect()
            })
            .unwrap_or_default();
        EncounterTable { level, rows }
    }

    /// The ruler, guards in the ruler's room, and monster groups in other rooms (within A + 2 rooms).
    fn populate(&self, m: &mut Map, sk: &Skeleton, d: &mut Dice) {
        let a = self.court.average_level;
        let room_cap = self.lim.rooms_with_monsters as usize;
        // The ruler: a strong monster, then skills, weak points and stat increases up to A + 7.
        if let Some(ruler) = self.ruler(&mut d.child("ruler")) {
            let guard_room = self.lim.ruler_room_total.saturating_sub(ruler.effective_level);
            let room = &mut m.rooms[sk.ruler.index()];
            room.ruler = Some(ruler);
            if d.chance(2, 3) {
                let target = d.between(guard_room / 3, guard_room * 2 / 3);
                room.monsters = self.groups(d, target, a + 4, Reaction::Hostile, 2);
            }
        }
        let mut candidates: Vec<RoomId> =
            m.used_rooms().map(|r| r.id).filter(|&r| r != sk.ruler && Some(r) != sk.special.map(|s| s.0)).collect();
        d.shuffle(&mut candidates);
        let used = m.used_rooms().count();
        let want = (used * 3 / 5).clamp(1, room_cap).saturating_sub(1);
        for id in candidates.into_iter().take(want) {
            let mut rd = d.child(id.name());
            let reaction = *rd
                .weighted(&[Reaction::Hostile, Reaction::Neutral, Reaction::Friendly], |r| match r {
                    Reaction::Hostile => 5,
                    Reaction::Neutral => 3,
                    Reaction::Friendly => 2,
                })
                .unwrap_or(&Reaction::Hostile);
            let cap = self.lim.room_total(reaction);
            let target = rd.between(cap / 2, cap);
            let from_table =
                if rd.chance(1, 2) { self.encounter_groups(&mut rd, target, reaction) } else { Vec::new() };
            let groups =
                if from_table.is_empty() { self.groups(&mut rd, target, a + 4, reaction, 3) } else { from_table };
            m.rooms[id.index()].monsters = groups;
        }
    }

    /// Groups from a random encounter row, trimmed to fit `target` levels.
    fn encounter_groups(&self, d: &mut Dice, target: u32, reaction: Reaction) -> Vec<MonsterGroup> {
        let Some(table) = self.tables.roll_table(&self.encounters) else { return Vec::new() };
        let (_, row) = table.roll(d);
        let mut left = target;
        let mut out = Vec::new();
        for g in &row.groups {
            let Some(mon) = self.complete_monster(&g.monster) else { continue };
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
                None => {
                    out.push(MonsterGroup { name: mon.name.clone(), level: lvl, effective_level: lvl, count, reaction })
                }
            }
        }
        out
    }

    /// Up to `most` groups of bestiary monsters of level ≤ `cap`, totalling at most `target` levels.
    /// Monsters near the court's level are likelier.
    fn groups(&self, d: &mut Dice, target: u32, cap: u32, reaction: Reaction, most: u32) -> Vec<MonsterGroup> {
        let a = self.court.average_level as i64;
        let mut left = target;
        let mut out: Vec<MonsterGroup> = Vec::new();
        let mut chosen: Vec<&Monster> = Vec::new();
        let n = d.between(1, most);
        for _ in 0..n {
            let fits = |m: &Monster| {
                let l = m.level.unwrap_or(0);
                l >= 1 && l <= cap && l <= left && !chosen.iter().any(|c| std::ptr::eq(*c, m))
            };
            let weight = |m: &Monster| {
                let gap = (m.level.unwrap_or(0) as i64 - a).unsigned_abs() as u32;
                8u32.saturating_sub(gap.min(7))
            };
            let pool = self.tables.myk.stockable().filter(|m| fits(m));
            let Some(mon) = d.weighted_iter(pool, |m| weight(m)) else { break };
            let lvl = mon.level.unwrap_or(1);
            let most_count = (left / lvl).clamp(1, 9);
            let count = d.between(1.max(most_count / 2), most_count);
            left -= count * lvl;
            chosen.push(mon);
            out.push(MonsterGroup { name: mon.name.clone(), level: lvl, effective_level: lvl, count, reaction });
        }
        out
    }

    fn ruler(&self, d: &mut Dice) -> Option<Ruler> {
        // A + 7, but never more than the ruler's room may hold (a tiny court: 4S + T is smaller).
        let cap = self.lim.ruler_level.min(self.lim.ruler_room_total);
        let low = cap.saturating_sub(6).max(1);
        // Higher levels are likelier.
        let fits = self.tables.myk.stockable().filter(|m| m.level.is_some_and(|l| (low..=cap).contains(&l)));
        let mon = d.weighted_iter(fits, |m| m.level.unwrap_or(0).saturating_sub(low) + 1)?;
        let level = mon.level.unwrap_or(1);
        let mut adjustments = Vec::new();
        let mut eff = level as i32;
        let data = &self.tables.myk;
        if d.chance(1, 3)
            && let Some(w) = d.choose(&data.weak_points)
        {
            eff -= w.adjustment as i32;
            adjustments.push(Adjustment {
                kind: AdjustmentKind::WeakPoint,
                what: w.name.clone(),
                times: 1,
                levels: -(w.adjustment as i32),
            });
        }
        let room = |eff: i32| cap as i32 - eff;
        let skills: Vec<_> = data.ruler_skills.iter().filter(|s| s.min_level <= level).collect();
        let wanted_skills = d.below(3);
        for _ in 0..wanted_skills {
            let open: Vec<_> = skills
                .iter()
                .copied()
                .filter(|s| s.levels as i32 <= room(eff) && !adjustments.iter().any(|a| a.what == s.name))
                .collect();
            let Some(s) = d.choose(&open) else { break };
            eff += s.levels as i32;
            adjustments.push(Adjustment {
                kind: AdjustmentKind::Skill,
                what: s.name.clone(),
                times: 1,
                levels: s.levels as i32,
            });
        }
        if d.chance(1, 2) {
            let open: Vec<_> = data.ruler_increases.iter().filter(|i| i.levels as i32 <= room(eff)).collect();
            if let Some(inc) = d.choose(&open) {
                let times = d.between(1, (room(eff) as u32 / inc.levels).clamp(1, 3));
                eff += (inc.levels * times) as i32;
                let what = match inc.stat {
                    crate::tables::myk::Stat::Warfare => "warfare",
                    crate::tables::myk::Stat::Range => "range",
                    crate::tables::myk::Stat::Damage => "damage",
                    crate::tables::myk::Stat::Defense => "defense",
                    crate::tables::myk::Stat::Hp => "hp",
                };
                adjustments.push(Adjustment {
                    kind: AdjustmentKind::Increase,
                    what: what.into(),
                    times,
                    levels: (inc.levels * times) as i32,
                });
            }
        }
        // A weak point may take the level below 1 on paper; the limit only cares about the top.
        let effective_level = eff.max(0) as u32;
        if eff < 0 {
            adjustments.retain(|a| a.kind != AdjustmentKind::WeakPoint);
            return Some(Ruler { name: mon.name.clone(), level, effective_level: level, adjustments: Vec::new() });
        }
        Some(Ruler { name: mon.name.clone(), level, effective_level, adjustments })
    }

    /// Hides a leaf room behind a Secret Door, or reaches it by a Teleporter and leaves it by a
    /// Moving Floor, when the scenario's trap budget allows.
    fn special_movement(
        &self,
        s: &mut Scenario,
        i: usize,
        (leaf, corridor): (RoomId, CorridorId),
        budget: &mut Budget,
        d: &mut Dice,
    ) {
        let data = &self.tables.myk;
        let by_route = |r: Route| data.traps.iter().find(|t| t.route == Some(r));
        let parent = corridor.other(leaf);
        let teleport = (by_route(Route::Teleport), by_route(Route::OneWay));
        let use_teleport = d.chance(1, 3);
        if let (true, (Some(tp), Some(mf))) = (use_teleport, teleport) {
            let cost = tp.level.min() + mf.level.min();
            let map = &s.maps[i];
            let from: Vec<RoomId> = map.used_rooms().map(|r| r.id).filter(|&r| r != leaf).collect();
            if budget.number >= 2
                && budget.levels >= cost
                && let Some(&at) = d.choose(&from)
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
            s.maps[i].rooms[parent.index()].traps.push(t);
            budget.number -= 1;
            budget.levels -= sd.level.min();
        }
    }

    /// Rolls traps for one map within its share of the budget. Returns what it spent.
    fn traps(&self, s: &mut Scenario, i: usize, share: Budget, d: &mut Dice) -> Budget {
        let a = self.court.average_level;
        let used = s.maps[i].used_rooms().count() as u32;
        let want = d.between(used / 3 + 1, used * 2 / 3 + 2).min(share.number);
        let mut spent = Budget { number: 0, levels: 0 };
        let categories = TrapCategory::ALL;
        for _ in 0..want * 4 {
            if spent.number >= want {
                break;
            }
            let left = share.levels - spent.levels;
            let cat = categories[d.below(6) as usize];
            let Some(table) = self.tables.roll_table(cat.table()) else {
                continue;
            };
            let (_, row) = table.roll(d);
            let Some(rec) = row.result.as_deref().and_then(|n| self.tables.myk.trap(n)) else { continue };
            // A level the GM picks (e.g. Pit 1-5) is kept near the court's level.
            let level = match rec.level {
                Level::Fixed(n) => n,
                Level::Range(lo, hi) => d.between(lo, hi.min(lo.max(a)).max(lo)),
            };
            if level > left {
                continue;
            }
            let convert =
                rec.placement == Placement::Room && rec.route.is_none() && level + 3 <= left && d.chance(1, 6);
            if let Some(lvl) = self.place_trap(s, i, rec, level, convert, d) {
                spent.number += 1;
                spent.levels += lvl;
            }
        }
        spent
    }

    /// Puts one trap where its placement allows; undoes it if it would break reachability.
    /// Returns the level spent.
    fn place_trap(
        &self,
        s: &mut Scenario,
        i: usize,
        rec: &Trap,
        level: u32,
        convert: bool,
        d: &mut Dice,
    ) -> Option<u32> {
        let map = &s.maps[i];
        let rooms: Vec<RoomId> = map.used_rooms().map(|r| r.id).collect();
        let placement = if convert { Placement::Event } else { rec.placement };
        let level = if convert { level + 3 } else { level };
        let mut trap = placed(rec, level, None, convert);
        if placement == Placement::Event {
            trap.object =
                Some(d.choose(&rec.objects).cloned().unwrap_or_else(|| "an object of the GM's choice".into()));
        }
        if matches!(rec.route, Some(Route::Teleport | Route::Redirect)) {
            let &to = d.choose(&rooms)?;
            trap.destination = Some(Place { map: map.index, room: to });
        }
        let undo: Box<dyn Fn(&mut Scenario)>;
        match placement {
            Placement::Corridor => {
                let open: Vec<usize> = (0..map.corridors.len()).filter(|&c| map.corridors[c].trap.is_none()).collect();
                let &c = d.choose(&open)?;
                let corridor = &mut s.maps[i].corridors[c];
                if rec.route == Some(Route::OneWay) {
                    let (a, b) = (corridor.a, corridor.b);
                    corridor.one_way =
                        Some(if d.chance(1, 2) { Direction { from: a, to: b } } else { Direction { from: b, to: a } });
                }
                corridor.trap = Some(trap);
                undo = Box::new(move |s: &mut Scenario| {
                    s.maps[i].corridors[c].trap = None;
                    s.maps[i].corridors[c].one_way = None;
                });
            }
            Placement::Area => {
                let fighting: Vec<RoomId> = map.rooms.iter().filter(|r| r.has_monsters()).map(|r| r.id).collect();
                let &r = d.choose(&fighting)?;
                s.maps[i].rooms[r.index()].traps.push(trap);
                undo = Box::new(move |s: &mut Scenario| {
                    s.maps[i].rooms[r.index()].traps.pop();
                });
            }
            Placement::Room | Placement::Event => {
                let &r = d.choose(&rooms)?;
                if rec.route == Some(Route::Hidden) {
                    let hidden: Vec<CorridorId> =
                        map.rooms.iter().flat_map(|x| x.traps.iter()).filter_map(|t| t.corridor).collect();
                    let mine: Vec<CorridorId> = map
                        .corridors
                        .iter()
                        .map(Corridor::id)
                        .filter(|c| c.touches(r) && !hidden.contains(c))
                        .collect();
                    trap.corridor = Some(*d.choose(&mine)?);
                }
                s.maps[i].rooms[r.index()].traps.push(trap);
                undo = Box::new(move |s: &mut Scenario| {
                    s.maps[i].rooms[r.index()].traps.pop();
                });
            }
        }
        if rec.route.is_some() && !self.reachable(s) {
            undo(s);
            return None;
        }
        Some(level)
    }

    /// The reachability rules of `check`, on the scenario as it stands.
    fn reachable(&self, s: &Scenario) -> bool {
        let g = Reach::new(s, self.tables);
        let (fwd, normal, back) = (g.from_outside(true), g.from_outside(false), g.back_to_outside());
        s.maps.iter().enumerate().all(|(p, m)| {
            m.used_rooms().all(|r| {
                Reach::at(&fwd, p, r.id)
                    && Reach::at(&back, p, r.id)
                    && (r.ruler.is_none() || Reach::at(&normal, p, r.id))
            })
        })
    }

    /// Rolls bases on the 2D6 table within `share` levels. Returns the levels spent.
    fn bases(&self, m: &mut Map, share: u32, d: &mut Dice) -> u32 {
        let Some(table) = self.tables.roll_table("myk.bases") else { return 0 };
        let mut spent = 0;
        for _ in 0..6 {
            if spent >= share || !d.chance(2, 3) {
                break;
            }
            let (_, row) = table.roll(d);
            let Some(rec) = row.result.as_deref().and_then(|n| self.tables.myk.base(n)) else { continue };
            let Some(level) = rec.level.filter(|_| rec.unknown.is_empty()) else { continue };
            if level > share - spent {
                continue;
            }
            use crate::tables::myk::Installation;
            let rooms: Vec<RoomId> = m
                .used_rooms()
                .filter(|r| match rec.installation {
                    Installation::Room => r.bases.is_empty(),
                    Installation::Addition => r.bases.len() < 2,
                })
                .map(|r| r.id)
                .collect();
            // Monsters build bases: prefer their rooms.
            let Some(&r) = d.weighted(&rooms, |id| if m.room(*id).has_monsters() { 3 } else { 1 }) else { continue };
            m.rooms[r.index()].bases.push(PlacedBase { name: rec.name.clone(), level, installation: rec.installation });
            spent += level;
        }
        spent
    }

    /// Title, objective, hooks, cast and clues.
    fn frame(&self, s: &mut Scenario, d: &mut Dice) -> Result<()> {
        let last =
            s.maps.last().ok_or_else(|| Error::Scenario { file: "scenario".into(), message: "no maps".into() })?;
        let (ruler_room, ruler) = last
            .rooms
            .iter()
            .find_map(|r| r.ruler.as_ref().map(|x| (r, x.name.clone())))
            .unwrap_or((&last.rooms[0], "the ruler".into()));
        let map_name = last.name.clone();
        s.title = format!("The {} of {}", if s.maps.len() > 1 { "Depths" } else { "Conquest" }, s.maps[0].name);
        s.objective = format!(
            "Defeat {ruler}, ruler of the {map_name} (map {}, room {} \"{}\"), and make the map the kingdom's territory.",
            last.index, ruler_room.id, ruler_room.name
        );
        let n_cast = d.between(1, 3);
        for k in 0..n_cast {
            let mut nd = d.child(&format!("cast/{k}"));
            // The book names NPCs after a kind of thing and gives examples: take one example.
            let kind = self.roll("myk.npc.name", &mut nd);
            let examples: Vec<&str> = kind
                .split_once('(')
                .map(|(_, e)| e.trim_end_matches(')').split(',').map(str::trim).filter(|x| !x.is_empty()).collect())
                .unwrap_or_default();
            let name = nd.choose(&examples).map_or_else(|| kind.clone(), |e| e.to_string());
            const TRAITS: [&str; 4] =
                ["myk.npc.personality", "myk.npc.appearance", "myk.npc.ability", "myk.npc.special_trait"];
            let mut traits: Vec<String> =
                (0..2).map(|t| self.roll(TRAITS[(nd.below(4) + t) as usize % 4], &mut nd)).collect();
            // Two traits say two things: a repeat is rolled again, table by table, until it differs.
            for table in TRAITS {
                if traits[1] != traits[0] {
                    break;
                }
                traits[1] = self.roll(table, &mut nd);
            }
            s.cast.push(Npc {
                name,
                role: self.roll("myk.frame.role", &mut nd),
                age: self.roll("myk.npc.age", &mut nd),
                sex: self.roll("myk.npc.sex", &mut nd),
                traits,
            });
        }
        let npc = s.cast.first().map(|c| c.name.clone()).unwrap_or_default();
        let fill = |t: String| t.replace("{ruler}", &ruler).replace("{map}", &map_name).replace("{npc}", &npc);
        s.introduction = fill(self.roll("myk.frame.introduction", d));
        s.resolution = format!(
            "Success: {} Failure: {}",
            fill(self.roll("myk.frame.success", d)),
            fill(self.roll("myk.frame.failure", d))
        );
        s.clues = self.clues(s, &mut d.child("clues"));
        Ok(())
    }

    /// 2-4 clues, each a fact of this scenario, placed in a room with a way to learn it.
    fn clues(&self, s: &Scenario, d: &mut Dice) -> Vec<Clue> {
        let search = self.lim.search_difficulty;
        let mut facts: Vec<(String, Place)> = Vec::new();
        for m in &s.maps {
            for r in m.used_rooms() {
                if let Some(ru) = &r.ruler {
                    let weak = ru.adjustments.iter().find(|a| a.kind == AdjustmentKind::WeakPoint);
                    facts.push((
                        match weak {
                            Some(w) => format!(
                                "{} rules the {} from room {}; its weak point is {}.",
                                ru.name, m.name, r.id, w.what
                            ),
                            None => {
                                format!("{} rules the {} and waits in room {} ({}).", ru.name, m.name, r.id, r.name)
                            }
                        },
                        Place { map: m.index, room: r.id },
                    ));
                }
                for t in &r.traps {
                    if let Some(c) = t.corridor {
                        facts.push((
                            format!("A secret door in {} hides the corridor {c}.", r.name),
                            Place { map: m.index, room: r.id },
                        ));
                    }
                    if let Some(dst) = t.destination {
                        facts.push((
                            format!(
                                "The {} on the {} in room {} carries you to room {}.",
                                t.name,
                                t.object.as_deref().unwrap_or("floor"),
                                r.id,
                                dst.room
                            ),
                            Place { map: m.index, room: r.id },
                        ));
                    }
                }
            }
            for c in &m.corridors {
                if let Some(t) = &c.trap {
                    facts.push((
                        format!("The corridor {} is trapped: {} (level {}).", c.id(), t.name, t.level),
                        Place { map: m.index, room: c.a },
                    ));
                }
            }
        }
        let n = d.between(2, 4) as usize;
        let mut picked: Vec<(String, Place)> = Vec::new();
        // The ruler's fact always comes first; the rest are drawn.
        if !facts.is_empty() {
            picked.push(facts.remove(0));
        }
        d.shuffle(&mut facts);
        picked.extend(facts.into_iter().take(n.saturating_sub(picked.len())));
        let rooms: Vec<Place> =
            s.maps.iter().flat_map(|m| m.used_rooms().map(move |r| Place { map: m.index, room: r.id })).collect();
        while picked.len() < 2 {
            let at = d.choose(&rooms).copied().unwrap_or(Place { map: 1, room: RoomId::ALL[0] });
            picked.push((format!("The monsters of the {} fear the number {}.", s.maps[0].name, d.between(2, 12)), at));
        }
        picked
            .into_iter()
            .map(|(text, fact_at)| {
                // The clue is found somewhere other than the fact's own room when possible.
                let at = d.choose(&rooms).copied().filter(|p| *p != fact_at).unwrap_or(fact_at);
                let room = s.map(at.map).map(|m| m.room(at.room));
                let has_threat = room.is_some_and(|r| r.has_monsters() || !r.bases.is_empty());
                let talkers = room.is_some_and(|r| r.monsters.iter().any(|g| g.reaction != Reaction::Hostile));
                let method = match d.below(4) {
                    0 if has_threat => ClueMethod::Threat,
                    1 if talkers => ClueMethod::Conversation,
                    2 => ClueMethod::Puzzle,
                    _ => ClueMethod::Search,
                };
                let how = match method {
                    ClueMethod::Search => format!("search check in the room, difficulty {search}"),
                    ClueMethod::Threat => "defeat or drive off the room's threat".to_string(),
                    ClueMethod::Conversation => {
                        "talk with the room's monsters (negotiation or a Charisma check)".to_string()
                    }
                    ClueMethod::Puzzle => self.roll("myk.frame.puzzle", d),
                };
                Clue { text, at, method, how }
            })
            .collect()
    }
}

/// A trap record placed at `level`.
fn placed(rec: &Trap, level: u32, object: Option<String>, converted: bool) -> PlacedTrap {
    PlacedTrap {
        name: rec.name.clone(),
        category: rec.category,
        level,
        placement: if converted { Placement::Event } else { rec.placement },
        activation: rec.activation,
        disarm: rec.disarm.to_string(),
        object,
        converted,
        corridor: None,
        destination: None,
        summary: rec.summary.clone(),
    }
}

/// Entrances: the first map's way in from outside; each later map joined to the one before.
fn link_entrances(maps: &mut [Map], sk: &[Skeleton], d: &mut Dice) {
    let mut taken: Vec<Vec<Wall>> = vec![Vec::new(); maps.len()];
    let wall = |d: &mut Dice, i: usize, r: RoomId, taken: &mut Vec<Vec<Wall>>| {
        // Two entrances in one room take different walls when the room has two.
        let free: Vec<Wall> = r.exterior_walls().filter(|w| !taken[i].contains(w)).collect();
        let all: Vec<Wall> = r.exterior_walls().collect();
        let w = *d.choose(if free.is_empty() { &all } else { &free }).unwrap_or(&Wall::North);
        taken[i].push(w);
        w
    };
    let w = wall(d, 0, sk[0].entry, &mut taken);
    maps[0].entrances.push(Entrance { room: sk[0].entry, wall: w, to: None });
    for i in 1..maps.len() {
        let from = sk[i - 1].exit.unwrap_or(sk[i - 1].ruler);
        let to = sk[i].entry;
        let w1 = wall(d, i - 1, from, &mut taken);
        let w2 = wall(d, i, to, &mut taken);
        let (a, b) = (maps[i - 1].index, maps[i].index);
        maps[i - 1].entrances.push(Entrance { room: from, wall: w1, to: Some(Place { map: b, room: to }) });
        maps[i].entrances.push(Entrance { room: to, wall: w2, to: Some(Place { map: a, room: from }) });
    }
}

/// Every table the MYK generator rolls on.
const REQUIRED: [&str; 21] = [
    "myk.names.flair",
    "myk.names.place",
    "myk.names.basic",
    "myk.environment",
    "myk.traps.classic",
    "myk.traps.facility",
    "myk.traps.encounter",
    "myk.traps.disaster",
    "myk.traps.movement",
    "myk.traps.combat",
    "myk.bases",
    "myk.encounters.level1",
    "myk.npc.name",
    "myk.npc.age",
    "myk.npc.sex",
    "myk.frame.role",
    "myk.frame.introduction",
    "myk.frame.success",
    "myk.frame.failure",
    "myk.frame.puzzle",
    "myk.npc.personality",
];

const NUMBERS: [&str; 12] =
    ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve"];
