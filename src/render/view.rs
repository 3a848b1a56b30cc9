//! The MYK scenario as the templates see it: every name joined with its table record, every
//! difficulty computed, so templates only lay things out.

use serde::Serialize;

use crate::myk::check::usage;
use crate::myk::limits;
use crate::myk::model::{Limits, Map, MonsterGroup, Place, PlacedBase, Reaction, Room, Scenario, Usage};
use crate::tables::Tables;
use crate::tables::myk::{Personality, Route};
use crate::tables::shared::SharedStr;

#[derive(Serialize)]
pub struct MykView {
    pub title: String,
    pub seed: u64,
    pub program: String,
    pub tables_version: String,
    /// The regenerate line ([`super::regen`]): the seed command, or `render FILE.json`.
    pub command: String,
    /// No seed command gives this scenario back: the booklet says it was edited by hand.
    pub edited: bool,
    pub paper: String,
    /// Page size for the print CSS, in millimetres.
    pub width_mm: f64,
    pub height_mm: f64,
    pub objective: String,
    pub introduction: String,
    pub resolution: String,
    /// The book's parts in order (Prologue, Objective, Cast, Clues, Mini events, Scenario
    /// Movement, Epilogue), for every format alike.
    pub story: Vec<super::myk_story::Section>,
    pub court: CourtView,
    pub cast: Vec<crate::myk::model::Npc>,
    pub clues: Vec<ClueView>,
    pub limits: Vec<LimitView>,
    pub difficulties: Vec<Difficulty>,
    pub encounters: EncountersView,
    pub maps: Vec<MapView>,
    pub warnings: Vec<String>,
    /// Where the book's tables let a threat past the court's limits, and by how much (one line
    /// each, for the summary under the limits).
    pub dangers: Vec<String>,
    /// Every skill of every monster in the scenario, once, sorted ("Skills in this scenario").
    pub skills: Vec<super::myk_play::SkillView>,
    /// The Treasure Tables the scenario's monsters and rulers roll on.
    pub treasure_tables: Vec<super::myk_play::TableView>,
    pub negotiation: Option<super::myk_play::TableView>,
    /// The book's tables the booklet's texts cite and print nowhere else (Birth, Weakness...).
    pub cited_tables: Vec<super::myk_play::TableView>,
    /// The item and word tables (and items) those results send the GM to, and no other.
    pub items: super::myk_items::ItemTablesView,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
    /// The monster personalities the booklet's texts name, which its glossary defines (and no
    /// others): [`named_personalities`].
    pub personalities: Vec<&'static str>,
}

#[derive(Serialize)]
pub struct CourtView {
    pub size: u32,
    pub levels: String,
    pub average_level: u32,
    pub total_level: u32,
}

#[derive(Serialize)]
pub struct ClueView {
    pub number: usize,
    pub text: String,
    pub map: u32,
    pub room: String,
    pub room_name: String,
    pub method: String,
    pub how: String,
}

#[derive(Serialize)]
pub struct LimitView {
    pub what: &'static str,
    pub formula: &'static str,
    pub scope: &'static str,
    pub limit: u32,
    pub used: String,
}

#[derive(Serialize)]
pub struct Difficulty {
    pub what: String,
    pub value: String,
}

#[derive(Serialize)]
pub struct EncountersView {
    pub level: u32,
    pub rows: Vec<EncounterRowView>,
    /// Each monster of the table with its stat line.
    pub monsters: Vec<super::myk_play::EncounterMonsterView>,
}

#[derive(Serialize)]
pub struct EncounterRowView {
    pub roll: u32,
    pub text: String,
    /// How far the row goes past the court's limits (none: within them).
    pub danger: Option<String>,
}

#[derive(Serialize)]
pub struct MapView {
    pub index: u32,
    pub count: usize,
    pub name: String,
    pub svg_file: String,
    pub players_svg_file: String,
    /// The GM sheet inline (HTML only; marked safe by the renderer).
    pub svg: String,
    pub players_svg: String,
    pub rooms: Vec<RoomView>,
    pub unused: Vec<String>,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
}

#[derive(Serialize)]
pub struct RoomView {
    pub id: String,
    pub name: String,
    pub environment: SharedStr,
    pub exits: Vec<String>,
    pub traps: Vec<TrapView>,
    pub bases: Vec<BaseView>,
    pub monsters: Vec<MonsterView>,
    pub ruler: Option<RulerView>,
    /// Where the room's fighters stand when a fight starts, by area (`myk::battlefield`).
    pub battlefield: Option<String>,
    pub clues: Vec<usize>,
    /// A ruler's Memory or Soul Core hidden in this room.
    pub hidden_core: Option<String>,
    /// Cast NPCs standing here, and the mini events that happen here (by title).
    pub people: Vec<String>,
    pub events: Vec<String>,
    /// What happens here, each in full as the story's sections print it: the cast NPCs standing
    /// here, the clues found here, the mini events ([`super::booklet::room_key`]).
    pub key: Vec<super::myk_story::Entry>,
    /// What this room has to do with the objective, when it is the objective's room.
    pub objective: Option<String>,
    pub empty: bool,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
}

#[derive(Serialize)]
pub struct TrapView {
    pub name: SharedStr,
    pub category: String,
    pub level: u32,
    pub placement: String,
    pub activation: String,
    pub disarm: String,
    pub object: Option<SharedStr>,
    pub note: Option<String>,
    pub summary: SharedStr,
    pub location: String,
    /// A Gate Keeper's monsters, with their stat lines.
    pub ambush: Option<String>,
}

#[derive(Serialize)]
pub struct BaseView {
    pub name: SharedStr,
    pub level: u32,
    pub timing: String,
    pub installation: String,
    pub hp: u32,
    /// The fee, or what each use costs.
    pub cost: String,
    pub defense: u32,
    pub rewards: String,
    pub supplemental: Option<u32>,
    pub war_machine: bool,
    pub summary: SharedStr,
    /// How production capacity builds up and is spent on this base.
    pub production: String,
}

#[derive(Serialize)]
pub struct MonsterView {
    pub name: SharedStr,
    pub count: u32,
    pub reaction: String,
    pub level: u32,
    pub effective_level: u32,
    pub category: String,
    pub stats: String,
    pub skills: String,
    pub materials: String,
    /// Which Treasure Table(s) the group rolls on when defeated.
    pub treasure: String,
    /// Items and relationship points the group carries, with the effective level they make.
    pub gear: Option<String>,
    /// Split Core holders among the group.
    pub core: Option<String>,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
    /// How far the group goes past the court's limits (only a hand edit places one so).
    pub danger: Option<String>,
}

pub use crate::render::threats::{AdjustmentView, RulerView};

fn trap_view(t: &crate::myk::model::PlacedTrap, tables: &Tables, location: String) -> TrapView {
    let rec = tables.myk.trap(&t.name);
    let mut note = Vec::new();
    if t.converted {
        note.push("a Room trap set as an Event trap (+3 level)".to_string());
    }
    if let Some(c) = t.corridor {
        note.push(format!("hides the corridor {c} until discovered"));
    }
    if let Some(Place { room, .. }) = t.destination {
        note.push(format!("sends the court to room {room}"));
    }
    if t.placement == crate::tables::myk::Placement::Area {
        note.push(
            "when combat starts here, the GM lays it on one Area of the battlefield; one combat trap per Area".into(),
        );
    }
    if rec.and_then(|r| r.route) == Some(Route::Locked) {
        note.push("the corridor is closed until this is disarmed".into());
    }
    TrapView {
        name: t.name.clone(),
        category: t.category.label().into(),
        level: t.level,
        placement: t.placement.label().into(),
        activation: t.activation.label().into(),
        disarm: super::threats::disarm_text(rec, t),
        object: t.object.clone(),
        note: (!note.is_empty()).then(|| note.join("; ")),
        summary: if let Some(c) = &t.choice {
            c.clone()
        } else if t.summary.is_empty() {
            rec.map(|r| r.summary.clone()).unwrap_or_default()
        } else {
            t.summary.clone()
        },
        location,
        ambush: crate::render::threats::ambush(t, tables),
    }
}

fn exits(m: &Map, r: &Room, tables: &Tables) -> Vec<String> {
    let hidden: Vec<_> = m.rooms.iter().flat_map(|x| &x.traps).filter_map(|t| t.corridor).collect();
    let mut out = Vec::new();
    for c in m.corridors.iter().filter(|c| c.a == r.id || c.b == r.id) {
        let other = if c.a == r.id { c.b } else { c.a };
        let mut notes = Vec::new();
        if let Some(d) = c.one_way {
            notes.push(if d.from == r.id { "one-way, out only" } else { "one-way, in only" }.to_string());
        }
        if hidden.contains(&c.id()) {
            notes.push("hidden by a secret door".into());
        }
        if let Some(t) = &c.trap {
            let route = tables.myk.trap(&t.name).and_then(|x| x.route);
            notes.push(match route {
                Some(Route::Locked) => format!("locked ({})", t.name),
                Some(Route::Closed) => format!("{}: can never be crossed", t.name),
                _ => format!("trapped: {}", t.name),
            });
        }
        let other_name = &m.room(other).name;
        if notes.is_empty() {
            out.push(format!("to {other} ({other_name})"));
        } else {
            out.push(format!("to {other} ({other_name}) — {}", notes.join(", ")));
        }
    }
    for e in m.entrances.iter().filter(|e| e.room == r.id) {
        out.push(match e.to {
            None => format!("entrance on the {} wall, from outside", e.wall.label()),
            Some(p) => format!("entrance on the {} wall, to map {} room {}", e.wall.label(), p.map, p.room),
        });
    }
    out
}

/// Builds the view. `svgs` holds each map's (GM, players) sheet for inlining in HTML.
pub fn myk_view(s: &Scenario, tables: &Tables, paper: crate::model::Paper, svgs: &[(String, String)]) -> MykView {
    let court = limits::court(&s.court.levels);
    let lim = limits::limits(&court);
    let u = usage(s);
    let (sz, a) = (court.size, court.average_level);
    let limits = limit_views(s, &lim, &u);
    let difficulties = difficulties(s, &lim, sz);
    let maps = s
        .maps
        .iter()
        .enumerate()
        .map(|(i, m)| map_view(s, m, tables, svgs.get(i).cloned().unwrap_or_default()))
        .collect();
    let encounters = encounters_view(s, tables);
    let treasure_tables = super::myk_play::treasure_tables(s, tables);
    let negotiation = super::myk_play::negotiation(tables);
    let encounter_texts: Vec<String> = encounters.rows.iter().map(|r| r.text.clone()).collect();
    let mut items = super::myk_items::item_tables(
        tables,
        &super::myk_items::printed_results(&treasure_tables, negotiation.as_ref(), &encounter_texts),
    );
    // Every item part one names has its entry (issue 46).
    super::myk_named::add_to(&mut items, tables, &super::myk_named::named_items(s, tables));
    let regen = super::regen::myk(s, tables, paper);
    let mut v = MykView {
        cited_tables: Vec::new(),
        title: s.title.clone(),
        seed: s.seed,
        program: format!("{} {}", s.generator.name, s.generator.version),
        tables_version: s.generator.tables.to_string(),
        command: regen.command,
        edited: regen.edited,
        paper: paper.label().into(),
        width_mm: paper.size_mm().0,
        height_mm: paper.size_mm().1,
        // Produced from the scenario as it stands, so an edit never leaves these texts stale.
        objective: crate::myk::frame::objective(s),
        introduction: crate::myk::frame::fill(s, &s.introduction),
        resolution: crate::myk::frame::fill(s, &s.resolution),
        story: super::myk_story::sections(s, tables),
        court: CourtView {
            size: court.size,
            levels: court.levels.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            average_level: a,
            total_level: court.total_level,
        },
        cast: s.cast.clone(),
        clues: s
            .clues
            .iter()
            .enumerate()
            .map(|(i, c)| ClueView {
                number: i + 1,
                text: crate::myk::clues::text::clue_text(s, c),
                map: c.at.map,
                room: c.at.room.to_string(),
                room_name: s.map(c.at.map).map(|m| m.room(c.at.room).name.to_string()).unwrap_or_default(),
                method: c.method.label().into(),
                how: clue_how(s, c, lim.search_difficulty),
            })
            .collect(),
        limits,
        difficulties,
        encounters,
        maps,
        warnings: s.warnings.clone(),
        dangers: crate::myk::danger::scenario(s, tables),
        skills: super::myk_play::skills(s, tables),
        treasure_tables,
        negotiation,
        items,
        notes: s.notes.clone(),
        personalities: Vec::new(),
    };
    v.cited_tables = cited_in(&v, tables);
    v.personalities = named_personalities(&v);
    v
}

/// The monster personalities `v`'s texts name as words, in the book's order: a stat line's
/// "/ Strange", a skill's "become Cunning in Personality", an NPC's "Personality: Steady", a
/// cited table's row. The glossary defines exactly these, so it follows what the booklet prints
/// rather than a list kept apart from it (the template adds the one its own Bad Status names).
fn named_personalities(v: &MykView) -> Vec<&'static str> {
    let text = serde_json::to_string(v).unwrap_or_default();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    Personality::ALL
        .into_iter()
        .map(Personality::label)
        .filter(|name| {
            text.match_indices(name)
                .any(|(i, _)| !word(text[..i].chars().next_back()) && !word(text[i + name.len()..].chars().next()))
        })
        .collect()
}

/// The tables `v`'s texts cite that it does not print already (see [`super::myk_play::cited_tables`]).
fn cited_in(v: &MykView, tables: &Tables) -> Vec<super::myk_play::TableView> {
    let text = serde_json::to_string(v).unwrap_or_default();
    let mut printed: Vec<&str> = v.treasure_tables.iter().map(|t| t.title.as_str()).collect();
    printed.extend(v.negotiation.iter().map(|t| t.title.as_str()));
    printed.extend(v.items.word_tables.iter().map(|t| t.title.as_str()));
    printed.extend(v.items.item_tables.iter().map(|t| t.title.as_str()));
    printed.extend(v.items.word_grid.iter().flat_map(|g| g.titles.iter().map(String::as_str)));
    super::myk_play::cited_tables(&text, &printed, tables)
}

/// The book's limits for this court, each with what the scenario uses of it: (what, formula,
/// scope) as the book's table gives them, the limit for this court, and the use.
fn limit_views(s: &Scenario, lim: &Limits, u: &Usage) -> Vec<LimitView> {
    let row = |what, formula, scope, limit, used| LimitView { what, formula, scope, limit, used };
    let most_ruler_room = most_in_ruler_room(s);
    vec![
        row("Traps, number", "3S + A", "scenario", lim.traps_number, u.traps_number.to_string()),
        row("Traps, total level", "10A", "scenario", lim.traps_total_level, u.traps_total_level.to_string()),
        row("Traps per corridor", "1", "each corridor", 1, "1 at most".into()),
        row("Bases, total level", "A", "scenario", lim.bases_total_level, u.bases_total_level.to_string()),
        row(
            "Rooms with monsters",
            "A + 2",
            "each map",
            lim.rooms_with_monsters,
            format!("{} (busiest map)", u.most_rooms_with_monsters),
        ),
        row(
            "One monster's level",
            "A + 4",
            "everywhere but the ruler",
            lim.monster_level,
            format!("{} (highest)", u.highest_monster_level),
        ),
        row(
            "Monster levels in a room, hostile",
            "2S + T",
            "each room",
            lim.room_total_hostile,
            room_total(s, Reaction::Hostile),
        ),
        row(
            "Monster levels in a room, neutral",
            "3S + T",
            "each room",
            lim.room_total_neutral,
            room_total(s, Reaction::Neutral),
        ),
        row(
            "Monster levels in a room, friendly",
            "4S + T",
            "each room",
            lim.room_total_friendly,
            room_total(s, Reaction::Friendly),
        ),
        row(
            "Ruler's level",
            "A + 7",
            "one ruler per map",
            lim.ruler_level,
            format!("{} (highest)", u.highest_ruler_level),
        ),
        row(
            "Other monsters in the ruler's room, each",
            "A + 4",
            "ruler's room",
            lim.ruler_room_others,
            "within".into(),
        ),
        row(
            "Monster levels in the ruler's room",
            "4S + T",
            "ruler's room",
            lim.ruler_room_total,
            format!("{most_ruler_room} (highest)"),
        ),
    ]
}

/// The most monster levels in any ruler's room: the ruler's own level and its companions'.
fn most_in_ruler_room(s: &Scenario) -> u32 {
    s.maps
        .iter()
        .flat_map(|m| &m.rooms)
        .filter_map(|r| {
            r.ruler
                .as_ref()
                .map(|ru| ru.effective_level + r.monsters.iter().map(|g| g.count * g.effective_level).sum::<u32>())
        })
        .max()
        .unwrap_or(0)
}

/// The difficulties the GM looks up at the table.
fn difficulties(s: &Scenario, lim: &Limits, sz: u32) -> Vec<Difficulty> {
    let mut difficulties = vec![
        Difficulty {
            what: "Search check (find traps, clues)".into(),
            value: format!("{} (court size + 7)", lim.search_difficulty),
        },
        Difficulty {
            what: "Random encounter (after moving into an explored room)".into(),
            value: format!("2D6 ≤ {sz} + rooms moved + quarters spent there"),
        },
        Difficulty {
            what: "Monster ability scores (Wit, Charisma, Quest)".into(),
            value: "their level (1-9); 10 at 10-14, 11 at 15-19, +1 per 5 levels after".into(),
        },
        Difficulty {
            what: "Action checks".into(),
            value: "2D6 + ability ≥ difficulty; double 1 fails, double 6 succeeds".into(),
        },
    ];
    let bases: Vec<&crate::myk::model::PlacedBase> =
        s.maps.iter().flat_map(|m| &m.rooms).flat_map(|r| &r.bases).collect();
    if !bases.is_empty() {
        difficulties.push(Difficulty {
            what: "Attacking a base (defense / camp-step check)".into(),
            value: "7 + base level".into(),
        });
    }
    difficulties
}

/// One map: its sheets and its used rooms.
fn map_view(s: &Scenario, m: &Map, tables: &Tables, (svg, players_svg): (String, String)) -> MapView {
    let rooms = m.used_rooms().map(|r| room_view(s, m, r, tables)).collect();
    MapView {
        index: m.index,
        count: s.maps.len(),
        name: m.name.to_string(),
        svg_file: format!("myk-{}-map{}.svg", s.seed, m.index),
        players_svg_file: format!("myk-{}-map{}-players.svg", s.seed, m.index),
        svg,
        players_svg,
        rooms,
        unused: m.rooms.iter().filter(|r| !r.used).map(|r| r.id.to_string()).collect(),
        notes: m.notes.clone(),
    }
}

/// A used room as the booklet lists it: traps (its own and those in corridors leaving it),
/// bases, monsters, the ruler, clues.
fn room_view(s: &Scenario, m: &Map, r: &Room, tables: &Tables) -> RoomView {
    let mut traps: Vec<TrapView> = r.traps.iter().map(|t| trap_view(t, tables, "in the room".into())).collect();
    traps.extend(
        m.corridors
            .iter()
            .filter(|c| c.a == r.id)
            .filter_map(|c| c.trap.as_ref().map(|t| trap_view(t, tables, format!("in the corridor {}", c.id())))),
    );
    let bases = r.bases.iter().map(|b| base_view(b, &tables.myk)).collect();
    let monsters = r.monsters.iter().map(|g| monster_view(s, g, r, m, tables)).collect();
    let ruler = r.ruler.as_ref().map(|ru| crate::render::threats::ruler_view(ru, s, m, tables));
    let clues: Vec<usize> = s
        .clues
        .iter()
        .enumerate()
        .filter(|(_, c)| c.at == Place { map: m.index, room: r.id })
        .map(|(i, _)| i + 1)
        .collect();
    let hidden_core = crate::render::threats::hidden_core(r.id, m);
    let here = Place { map: m.index, room: r.id };
    let (people, events) = (super::myk_story::people_in(s, here), super::myk_story::events_in(s, here));
    let objective = super::myk_goal::room_line(s, tables, here);
    let empty = r.traps.is_empty()
        && r.bases.is_empty()
        && !r.has_monsters()
        && clues.is_empty()
        && hidden_core.is_none()
        && people.is_empty()
        && events.is_empty()
        && objective.is_none();
    RoomView {
        id: r.id.to_string(),
        name: r.name.to_string(),
        environment: r.environment.clone(),
        exits: exits(m, r, tables),
        empty: empty && traps.is_empty(),
        traps,
        bases,
        monsters,
        ruler,
        battlefield: crate::myk::battlefield::placement(r, tables),
        clues,
        hidden_core,
        people,
        events,
        key: super::booklet::room_key(s, tables, here),
        objective,
        notes: r.notes.clone(),
    }
}

/// A base as the booklet lists it, with its record's numbers.
fn base_view(b: &PlacedBase, data: &crate::tables::myk::MykData) -> BaseView {
    let rec = data.base(&b.name);
    BaseView {
        name: b.name.clone(),
        level: b.level,
        timing: rec.map_or("", |x| x.timing.label()).into(),
        installation: b.installation.label().into(),
        hp: rec.map_or(0, |x| x.hp),
        cost: rec.map_or_else(|| "unknown".into(), |x| x.cost_text()),
        defense: 7 + b.level,
        rewards: rec.map(|x| x.rewards.join(", ")).unwrap_or_default(),
        supplemental: rec.and_then(|x| x.supplemental),
        war_machine: rec.is_some_and(|x| x.war_machine),
        summary: rec.map(|x| x.summary.clone()).unwrap_or_default(),
        production: crate::render::threats::production(rec),
    }
}

/// A monster group as the booklet lists it, with its record's stats and what it carries.
fn monster_view(s: &Scenario, g: &MonsterGroup, r: &Room, m: &Map, tables: &Tables) -> MonsterView {
    let data = &tables.myk;
    let rec = data.monster(&g.name);
    MonsterView {
        danger: crate::myk::danger::group(g, &s.limits),
        name: g.name.clone(),
        count: g.count,
        reaction: g.reaction.label().into(),
        level: g.level,
        effective_level: g.effective_level,
        category: rec.map_or("", |x| x.category.label()).into(),
        stats: rec.map(super::myk_play::stat_line).unwrap_or_default(),
        skills: rec.map(|x| x.skills.join(", ")).unwrap_or_default(),
        materials: rec.map(|x| x.materials.join(", ")).unwrap_or_default(),
        treasure: super::myk_play::treasure_line(tables, g.level, g.count),
        gear: crate::render::threats::gear(g, &crate::render::threats::Named::new(s, m, r, tables)),
        core: crate::render::threats::core_note(g, r.id, m),
        notes: g.notes.clone(),
    }
}

/// The random encounter table as rolled for this court, and the monsters it can bring.
fn encounters_view(s: &Scenario, tables: &Tables) -> EncountersView {
    let data = &tables.myk;
    EncountersView {
        level: s.encounters.level,
        rows: s
            .encounters
            .rows
            .iter()
            .map(|r| EncounterRowView {
                roll: r.roll,
                danger: crate::myk::danger::encounter_row(r, &s.limits, tables),
                text: {
                    // A monster whose stats are unknown never reaches the table, even from an
                    // older file.
                    let groups: Vec<String> = r
                        .groups
                        .iter()
                        .filter(|g| data.monster(&g.name).is_some_and(|m| m.complete()))
                        .map(|g| format!("{}: {}", g.position.label(), crate::text::count(g.count.into(), &g.name)))
                        .collect();
                    if groups.is_empty() {
                        "No encounter: the court meets nothing this time".into()
                    } else {
                        groups.join("; ")
                    }
                },
            })
            .collect(),
        monsters: super::myk_play::encounter_monsters(s, tables),
    }
}

fn room_total(s: &Scenario, reaction: Reaction) -> String {
    let best = s
        .maps
        .iter()
        .flat_map(|m| &m.rooms)
        .filter(|r| r.ruler.is_none() && r.monsters.first().is_some_and(|g| g.reaction == reaction))
        .map(|r| r.monsters.iter().map(|g| g.count * g.effective_level).sum::<u32>())
        .max();
    best.map_or("none".into(), |b| format!("{b} (highest)"))
}

/// How a clue is learned, in words: a Search clue's from its difficulty (the number the file
/// records, else the book's `search`), so the booklet prints the number `check` compared; the
/// others as written.
fn clue_how(s: &Scenario, c: &crate::myk::model::Clue, search: u32) -> String {
    match c.method {
        crate::myk::model::ClueMethod::Search => {
            crate::myk::clues::how(c.method, c.difficulty.unwrap_or(search)).unwrap_or_default()
        }
        // `{npc}` is the cast member who tells it, as the cast now names them.
        _ => crate::myk::story::Fill::with_npc(s, s.npc_name(c.npc).unwrap_or_default())
            .text(&c.how)
            .trim_end_matches('.')
            .to_string(),
    }
}
