//! The room key's texts for rulers, monster groups, Gate Keepers and bases: every number worked
//! out (final stats with their increases, weak-point adjustments, effective levels, production
//! capacity) so the GM never needs the book for them.

use serde::Serialize;

use crate::myk::model::{Adjustment, AdjustmentKind, Map, MonsterGroup, PlacedTrap, Ruler, Scenario};
use crate::myk::ruler::{HALVES_HP, HP_PER_LEVEL_STEP, final_stats, stat_of};
use crate::tables::Tables;
use crate::tables::myk::{Base, Monster, Stat, WeakNeed};
use crate::tables::shared::SharedStr;

#[derive(Serialize)]
pub struct RulerView {
    pub name: SharedStr,
    pub level: u32,
    pub effective_level: u32,
    pub category: String,
    /// The final stat line, each raised stat followed by its base value and increase (the
    /// increase's levels are in `adjustments`: each is said once).
    pub stats: String,
    pub skills: String,
    pub materials: String,
    /// Which Treasure Table the ruler rolls on when defeated.
    pub treasure: String,
    pub adjustments: Vec<AdjustmentView>,
    /// How far the ruler's bestiary level goes past the court's ruler limit (none: within it).
    pub danger: Option<String>,
}

#[derive(Serialize)]
pub struct AdjustmentView {
    pub what: String,
    pub levels: String,
    pub summary: String,
    /// The choice the weak point asked for, in full (court member, NPC, weaknesses, sealed skills,
    /// core holders).
    pub detail: Option<String>,
}

fn personality(rec: &Monster) -> &'static str {
    rec.personality.map_or("?", |p| p.label())
}

/// "Warfare 9 (base 7 +2) / Range 1 / ..." from the bestiary record and the ruler's increases.
fn stat_line(rec: &Monster, ru: &Ruler) -> String {
    let Some(fin) = ru.stats.clone().or_else(|| final_stats(rec, ru)) else {
        return "stats unknown in the bestiary".into();
    };
    let steps = |stat: Stat| -> u32 {
        ru.adjustments
            .iter()
            .filter(|a| a.kind == AdjustmentKind::Increase && stat_of(&a.what) == Some(stat))
            .map(|a| a.times)
            .sum()
    };
    let n = |v: Option<u32>| v.map_or("?".to_string(), |x| x.to_string());
    let part = |label: &str, now: String, base: String, inc: Option<String>| match inc {
        Some(i) => format!("{label} {now} (base {base} {i})"),
        None => format!("{label} {now}"),
    };
    let plus = |stat: Stat| (steps(stat) > 0).then(|| format!("+{}", steps(stat)));
    let halved = ru.adjustments.iter().any(|a| a.kind == AdjustmentKind::WeakPoint && a.what == HALVES_HP);
    let hp_inc = match (steps(Stat::Hp), halved) {
        (0, false) => None,
        (k, h) => {
            let add = (k > 0).then(|| format!("+{}", k * ru.level * HP_PER_LEVEL_STEP));
            let half = h.then(|| format!("halved by {HALVES_HP}"));
            Some([add, half].into_iter().flatten().collect::<Vec<_>>().join(", "))
        }
    };
    format!(
        "{} / {} / {} / {} / {} / {}",
        part("Warfare", fin.warfare.to_string(), n(rec.warfare), plus(Stat::Warfare)),
        part("Range", fin.range.to_string(), n(rec.range), plus(Stat::Range)),
        part(
            "Damage",
            fin.damage.to_string(),
            rec.damage.map_or("?".into(), |d| d.to_string()),
            (steps(Stat::Damage) > 0).then(|| format!("+{}D6", steps(Stat::Damage)))
        ),
        part("Defense", fin.defense.to_string(), n(rec.defense), plus(Stat::Defense)),
        part("HP", fin.hp.to_string(), n(rec.hp), hp_inc),
        personality(rec)
    )
}

fn increase_text(a: &Adjustment, level: u32) -> String {
    let t = a.times;
    match stat_of(&a.what) {
        Some(Stat::Warfare) => format!("Warfare +{t}"),
        Some(Stat::Range) => format!("Range +{t}"),
        Some(Stat::Damage) => format!("Damage +{t}D6"),
        Some(Stat::Defense) => format!("Defense +{t}"),
        Some(Stat::Hp) => {
            let steps = crate::text::count(t.into(), "step");
            format!("HP +{} ({steps} of level {level} x {})", t * level * HP_PER_LEVEL_STEP, HP_PER_LEVEL_STEP)
        }
        None => a.what.as_str().to_owned(),
    }
}

/// The room the ruler stands in (its map's first room if the ruler is not found).
fn ruler_room<'m>(map: &'m Map, ru: &Ruler) -> &'m crate::myk::model::Room {
    map.rooms.iter().find(|r| r.ruler.as_ref().is_some_and(|x| x.name == ru.name)).unwrap_or(&map.rooms[0])
}

/// Weakness Table results with the specific thing named where the table leaves a kind: a Common
/// Item or a Material from the item tables; the other results name their thing already.
fn specific(weaknesses: &[SharedStr], named: &Named) -> String {
    weaknesses
        .iter()
        .enumerate()
        .map(|(k, w)| {
            if w.starts_with("A specific Common Item") {
                let item = named.items(&format!("weakness/{k}"), 1, false).join("");
                format!("{w}: {item}")
            } else if w.starts_with("A specific Material") {
                format!("{w}: {}", named.material(&format!("weakness/{k}")))
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The weak point's choice, spelled out for play.
fn weak_detail(a: &Adjustment, ru: &Ruler, s: &Scenario, map: &Map, tables: &Tables) -> Option<String> {
    if a.what == HALVES_HP {
        return Some("The HP in the stat line is already halved.".into());
    }
    let need = tables.myk.weak_point(&a.what).and_then(|w| w.needs)?;
    // "Adjustment 2 + 3 poisons = 5.": the fixed part plus one per chosen item.
    let sum = |n: usize, what: &str| {
        let fixed = tables.myk.weak_point(&a.what).map_or(0, |w| w.adjustment);
        format!("Adjustment {fixed} + {} = {}.", crate::text::count(n as u64, what), -a.levels)
    };
    Some(match need {
        WeakNeed::Member => {
            let m = a.member?;
            let level = s.court.levels.get(m as usize - 1).map_or("?".into(), |l| l.to_string());
            format!(
                "Tied to the court's PC no. {m} (counting in the court's list order; level {level}): that PC deals +1D6 damage to it."
            )
        }
        WeakNeed::Npc => {
            let npc = s.cast_member(a.npc?)?;
            let (n, role) = (npc.name.as_str(), format!(", {}", npc.role));
            format!("Bound to {n}{role}: while {n} is on the battlefield, the ruler is Cursed.")
        }
        WeakNeed::Poisons => format!(
            "Poisons: {}. {}",
            specific(&a.weaknesses, &Named::new(s, map, ruler_room(map, ru), tables)),
            sum(a.weaknesses.len(), "poison")
        ),
        WeakNeed::Weakness => {
            format!("It shuns: {}.", specific(&a.weaknesses, &Named::new(s, map, ruler_room(map, ru), tables)))
        }
        WeakNeed::Sealed => {
            format!("Sealed skills (unusable): {}. {}", a.sealed.join(", "), sum(a.sealed.len(), "sealed skill"))
        }
        WeakNeed::Hideout => {
            let r = a.hidden_in?;
            format!(
                "The core lies hidden in room {r} ({}) in the form of {}, which the court can find and destroy.",
                map.room(r).name,
                crate::text::with_article(&Named::new(s, map, map.room(r), tables).items("core", 1, false).join(""))
            )
        }
        WeakNeed::Cores => {
            let holders: Vec<String> = a
                .cores
                .iter()
                .map(|c| {
                    format!(
                        "{} in room {} ({})",
                        crate::text::count(c.count.into(), &c.monster),
                        c.room,
                        map.room(c.room).name
                    )
                })
                .collect();
            let total: u32 = a.cores.iter().map(|c| c.count).sum();
            format!(
                "{total} cores, held by {}. Once every holder is destroyed, the ruler rolls Quest against {}: success, it takes 6D6 damage; failure, it dies.",
                holders.join("; "),
                7 + ru.level
            )
        }
    })
}

/// The ruler's block for the room key.
pub fn ruler_view(ru: &Ruler, s: &Scenario, map: &Map, tables: &Tables) -> RulerView {
    let data = &tables.myk;
    let rec = data.monster(&ru.name);
    let sealed: Vec<&SharedStr> = ru.adjustments.iter().flat_map(|a| &a.sealed).collect();
    let skills = rec.map_or(String::new(), |x| {
        x.skills
            .iter()
            .map(|sk| if sealed.contains(&sk) { format!("{sk} [sealed]") } else { sk.as_str().to_owned() })
            .collect::<Vec<_>>()
            .join(", ")
    });
    RulerView {
        danger: crate::myk::danger::ruler(ru, &s.limits),
        name: ru.name.clone(),
        level: ru.level,
        effective_level: ru.effective_level,
        category: rec.map_or("", |x| x.category.label()).into(),
        stats: rec.map(|r| stat_line(r, ru)).unwrap_or_default(),
        skills,
        materials: rec.map(|x| x.materials.join(", ")).unwrap_or_default(),
        treasure: crate::render::myk_play::treasure_line(tables, ru.level, 1),
        adjustments: ru
            .adjustments
            .iter()
            .map(|adj| AdjustmentView {
                what: match adj.kind {
                    AdjustmentKind::Increase => format!("{} (stat increase)", increase_text(adj, ru.level)),
                    AdjustmentKind::Skill => format!("{} (ruler skill)", adj.what),
                    AdjustmentKind::WeakPoint => format!("{} (weak point)", adj.what),
                },
                // "+3 levels", "-1 level".
                levels: [
                    if adj.levels < 0 { "-" } else { "+" },
                    &crate::text::count(adj.levels.unsigned_abs().into(), "level"),
                ]
                .concat(),
                summary: match adj.kind {
                    AdjustmentKind::Increase => String::new(),
                    AdjustmentKind::Skill => data.ruler_skill(&adj.what).map(|x| x.summary.clone()).unwrap_or_default(),
                    AdjustmentKind::WeakPoint => {
                        data.weak_point(&adj.what).map(|x| x.summary.clone()).unwrap_or_default()
                    }
                },
                detail: match adj.kind {
                    AdjustmentKind::WeakPoint => weak_detail(adj, ru, s, map, tables),
                    _ => None,
                },
            })
            .collect(),
    }
}

pub use crate::myk::named::Named;

/// What a group carries, e.g. "each carries Pan (common item); effective level 3 (+1)".
pub fn gear(g: &MonsterGroup, named: &Named) -> Option<String> {
    let mut items = Vec::new();
    let key = |k: &str| format!("{}/{k}", g.name);
    if g.common_items > 0 {
        items.push(format!("{} (common)", named.items(&key("common"), g.common_items, false).join(", ")));
    }
    if g.rare_items > 0 {
        items.push(format!("{} (rare)", named.items(&key("rare"), g.rare_items, true).join(", ")));
    }
    let mut parts = Vec::new();
    if !items.is_empty() {
        parts.push(items.join(" and "));
    }
    if g.relationship > 0 {
        let feeling = if g.reaction == crate::myk::model::Reaction::Hostile { "Hostility" } else { "Affection" };
        parts.push(format!(
            "{} ({feeling} toward the court's PC no. {})",
            crate::text::count(g.relationship.into(), "relationship point"),
            named.member(&key("relationship"))
        ));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "each carries {}; effective level {} (+{})",
            parts.join(" and "),
            g.effective_level,
            g.effective_level - g.level
        )
    })
}

/// The monsters a Gate Keeper brings out, with their stat lines.
pub fn ambush(t: &PlacedTrap, tables: &Tables) -> Option<String> {
    if t.monsters.is_empty() {
        return None;
    }
    let groups: Vec<String> = t
        .monsters
        .iter()
        .map(|g| {
            let stats = tables.myk.monster(&g.name).map_or(String::new(), |m| {
                format!(
                    ": Warfare {} / Range {} / Damage {} / Defense {} / HP {} / {}",
                    m.warfare.unwrap_or(0),
                    m.range.unwrap_or(0),
                    m.damage.map_or("?".into(), |d| d.to_string()),
                    m.defense.unwrap_or(0),
                    m.hp.unwrap_or(0),
                    personality(m)
                )
            });
            format!("{} (level {}){stats}", crate::text::count(g.count.into(), &g.name), g.effective_level)
        })
        .collect();
    Some(format!("Its monsters (hostile): {}", groups.join("; ")))
}

/// A base's production capacity, as the GM tracks it.
pub fn production(rec: Option<&Base>) -> String {
    let use_cost = match rec {
        Some(b) if b.cost_per_use.is_some() => "each use spends what its activation cost says".to_string(),
        Some(b) => format!("each use spends {}", b.cost),
        None => "each use spends what its effect says".to_string(),
    };
    let extra =
        rec.and_then(|b| b.supplemental).map_or(String::new(), |n| format!(", plus {n} of its own each quarter"));
    format!(
        "Production capacity starts at 0: the GM's 1 point per quarter may be stacked here{extra}; 2D6 more if the court goes home and retries; {use_cost}"
    )
}

/// How many of a group hold cores of their map's Split Core ruler, spelled out.
pub fn core_note(g: &MonsterGroup, room: crate::myk::model::RoomId, map: &Map) -> Option<String> {
    let (ruler, n) = map.rooms.iter().filter_map(|r| r.ruler.as_ref()).find_map(|ru| {
        let n: u32 = ru
            .adjustments
            .iter()
            .flat_map(|a| &a.cores)
            .filter(|c| c.room == room && c.monster == g.name)
            .map(|c| c.count)
            .sum();
        (n > 0).then_some((ru, n))
    })?;
    let who = match (n, g.count) {
        (1, 1) => "It holds".to_string(),
        (n, c) if n == c => format!("All {n} hold one each of"),
        (1, _) => "One of them holds".to_string(),
        (n, _) => format!("{n} of them hold one each of"),
    };
    let what = if n == 1 { "a core" } else { "the cores" };
    Some(format!(
        "{who} {what} of the ruler {} (Split Core): destroy every holder to force its Quest check",
        ruler.name
    ))
}

/// The Memory or Soul Core of the map's ruler, when it lies hidden in this room.
pub fn hidden_core(room: crate::myk::model::RoomId, map: &Map) -> Option<String> {
    map.rooms.iter().filter_map(|r| r.ruler.as_ref()).find_map(|ru| {
        let a = ru.adjustments.iter().find(|a| a.hidden_in == Some(room))?;
        Some(format!(
            "The core of the ruler {} ({}) lies hidden here; the GM gives it a form the court can find and destroy",
            ru.name, a.what
        ))
    })
}

/// A trap's disarm as the room key prints it: the check and its difficulty, or how else it ends.
pub(crate) fn disarm_text(rec: Option<&crate::tables::myk::Trap>, placed: &crate::myk::model::PlacedTrap) -> String {
    if let Some((ability, n, plus)) = rec.and_then(|r| crate::myk::traps::disarm_check(r, placed)) {
        return match plus {
            Some(p) => format!("{} check, difficulty {n} + {p}", ability.label()),
            None => format!("{} check, difficulty {n}", ability.label()),
        };
    }
    match rec.map(|r| &r.disarm) {
        Some(crate::tables::myk::Disarm::Check { .. }) => "check".into(),
        Some(crate::tables::myk::Disarm::Discovery) => "by discovering it".into(),
        Some(crate::tables::myk::Disarm::Impossible) => "cannot be disarmed".into(),
        Some(crate::tables::myk::Disarm::Special(s)) => s.clone(),
        None => placed.disarm.as_str().to_owned(),
    }
}
