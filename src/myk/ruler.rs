//! A map's ruler (seed 003 l.6689-6785): picking one under A + 7, its ruler skills and stat
//! increases, its final stat line, and the rules `check` holds it to. Weak points live in
//! `weak_points.rs`; both modules serve the generator and `check` alike.

use compact_str::ToCompactString;

use crate::check::Violation;
use crate::dice::{Dice, DiceExpr};
use crate::myk::model::{Adjustment, AdjustmentKind, Court, Limits, Ruler, RulerStats, Scenario};
use crate::myk::weak_points::{self, Seat};
use crate::tables::Tables;
use crate::tables::myk::{Monster, MykData, Stat, WeakNeed};

/// HP a ruler gains per HP step: five times its level (l.6715).
pub const HP_PER_LEVEL_STEP: u32 = 5;
/// The weak point whose shadow form halves the printed HP.
pub const HALVES_HP: &str = "Celestial Body";

/// The stat's name as the scenario writes it.
pub fn stat_name(stat: Stat) -> &'static str {
    match stat {
        Stat::Warfare => "warfare",
        Stat::Range => "range",
        Stat::Damage => "damage",
        Stat::Defense => "defense",
        Stat::Hp => "hp",
    }
}

/// The stat a scenario's `what` names, if any.
pub fn stat_of(what: &str) -> Option<Stat> {
    [Stat::Warfare, Stat::Range, Stat::Damage, Stat::Defense, Stat::Hp].into_iter().find(|&s| stat_name(s) == what)
}

/// Steps of each stat's increase the ruler takes (saturating: a hand-edited file may hold any
/// number, and `fix` and `check` must not overflow on it).
fn steps(ru: &Ruler, stat: Stat) -> u32 {
    ru.adjustments
        .iter()
        .filter(|a| a.kind == AdjustmentKind::Increase && stat_of(&a.what) == Some(stat))
        .fold(0u32, |n, a| n.saturating_add(a.times))
}

/// The ruler's final stat line: the bestiary's stats plus every increase (+1 Warfare, +1 Range,
/// +1D6 Damage, +1 Defense, +level x 5 HP per step), HP halved (rounded up) for Celestial Body.
/// `None` when the bestiary lacks a stat.
pub fn final_stats(rec: &Monster, ru: &Ruler) -> Option<RulerStats> {
    let damage = rec.damage?;
    let extra_dice = steps(ru, Stat::Damage);
    let damage = if extra_dice == 0 {
        damage.to_compact_string()
    } else if damage.sides == 6 || damage.count == 0 {
        DiceExpr { count: damage.count.saturating_add(extra_dice), sides: 6, modifier: damage.modifier }
            .to_compact_string()
    } else {
        compact_str::format_compact!("{damage}+{extra_dice}D6")
    };
    let mut hp = rec.hp?.saturating_add(steps(ru, Stat::Hp).saturating_mul(ru.level).saturating_mul(HP_PER_LEVEL_STEP));
    if ru.adjustments.iter().any(|a| a.kind == AdjustmentKind::WeakPoint && a.what == HALVES_HP) {
        hp = hp.div_ceil(2);
    }
    Some(RulerStats {
        warfare: rec.warfare?.saturating_add(steps(ru, Stat::Warfare)),
        range: rec.range?.saturating_add(steps(ru, Stat::Range)),
        damage,
        defense: rec.defense?.saturating_add(steps(ru, Stat::Defense)),
        hp,
    })
}

/// The ruler's level plus every adjustment: what its `effective_level` must be.
pub fn adjusted_level(ru: &Ruler) -> i64 {
    ru.level as i64 + ru.adjustments.iter().map(|a| a.levels as i64).sum::<i64>()
}

/// The levels an adjustment adds by the tables: a ruler skill's levels, a stat increase's levels
/// per step times its steps, a weak point's (negative) adjustment. `None` when the tables do not
/// know what it names.
pub fn adjustment_levels(a: &Adjustment, tables: &Tables) -> Option<i32> {
    let data = &tables.myk;
    match a.kind {
        AdjustmentKind::Skill => data.ruler_skill(&a.what).map(|sk| sk.levels as i32),
        AdjustmentKind::Increase => stat_of(&a.what)
            .and_then(|st| data.ruler_increases.iter().find(|i| i.stat == st))
            .map(|inc| i32::try_from(inc.levels.saturating_mul(a.times)).unwrap_or(i32::MAX)),
        AdjustmentKind::WeakPoint => data.weak_point(&a.what).map(|rec| weak_points::levels(rec, a)),
    }
}

/// Fills in the final stat line of every ruler that lacks one (files from before it was recorded).
pub fn normalize(s: &mut Scenario, tables: &Tables) {
    for r in s.maps.iter_mut().flat_map(|m| m.rooms.iter_mut()) {
        if let Some(ru) = r.ruler.as_mut()
            && ru.stats.is_none()
        {
            ru.stats = tables.myk.monster(&ru.name).and_then(|rec| final_stats(rec, ru));
        }
    }
}

/// Every rule for one ruler: its record, adjustments, final stats, weak points and limit.
pub fn check(seat: &Seat, lim: &Limits, tables: &Tables, at: &str, v: &mut Vec<Violation>) {
    let ru = seat.ruler;
    let rec = tables.myk.monster(&ru.name);
    match rec {
        None => v.push(Violation::new(at, "ruler.unknown", format!("ruler `{}` is not in the bestiary", ru.name))),
        Some(rec) if rec.level != Some(ru.level) => v.push(Violation::new(
            at,
            "ruler.level",
            format!("ruler `{}` has level {}, the bestiary says otherwise", ru.name, ru.level),
        )),
        _ => {}
    }
    adjustments(ru, &tables.myk, at, v);
    weak_points::check(seat, tables, at, v);
    if let (Some(stats), Some(rec)) = (&ru.stats, rec) {
        match final_stats(rec, ru) {
            Some(want) if &want == stats => {}
            Some(want) => v.push(Violation::new(
                at,
                "ruler.stats",
                format!(
                    "`{}` should read Warfare {} / Range {} / Damage {} / Defense {} / HP {} with its increases",
                    ru.name, want.warfare, want.range, want.damage, want.defense, want.hp
                ),
            )),
            None => v.push(Violation::new(
                at,
                "ruler.stats",
                format!("`{}` has unknown stats in the bestiary; it cannot carry a stat line", ru.name),
            )),
        }
    }
    let sum = adjusted_level(ru);
    if sum != ru.effective_level as i64 {
        v.push(Violation::new(
            at,
            "ruler.effective-level",
            format!("effective level {} should be {sum} (level + adjustments)", ru.effective_level),
        ));
    }
    if ru.effective_level > lim.ruler_level {
        v.push(Violation::new(
            at,
            "ruler.level-limit",
            format!("ruler `{}` is effective level {}, limit {} (A + 7)", ru.name, ru.effective_level, lim.ruler_level),
        ));
    }
}

/// The ruler's skills (each once, at its table's levels and minimum level) and stat increases
/// (at their table's cost per time); weak points are `weak_points::check`'s.
fn adjustments(ru: &Ruler, data: &MykData, at: &str, v: &mut Vec<Violation>) {
    let mut skills: Vec<&str> = Vec::new();
    for a in &ru.adjustments {
        let bad = |msg: String| Violation::new(at, "ruler.adjustment", msg);
        match a.kind {
            AdjustmentKind::Skill => {
                if skills.contains(&a.what.as_str()) {
                    v.push(bad(format!("ruler skill `{}` is learned twice", a.what)));
                }
                skills.push(&a.what);
                match data.ruler_skill(&a.what) {
                    None => v.push(bad(format!("ruler skill `{}` is not in the tables", a.what))),
                    Some(sk) => {
                        if a.levels != sk.levels as i32 {
                            v.push(bad(format!(
                                "ruler skill `{}` adds {} levels, not {}",
                                a.what, sk.levels, a.levels
                            )));
                        }
                        if ru.level < sk.min_level {
                            v.push(bad(format!("ruler skill `{}` needs a ruler of level {}+", a.what, sk.min_level)));
                        }
                    }
                }
            }
            AdjustmentKind::WeakPoint => {}
            AdjustmentKind::Increase => {
                match stat_of(&a.what).and_then(|st| data.ruler_increases.iter().find(|i| i.stat == st)) {
                    None => v.push(bad(format!("`{}` is not a stat a ruler can raise", a.what))),
                    Some(inc)
                        if a.times == 0
                            || a.levels != i32::try_from(inc.levels.saturating_mul(a.times)).unwrap_or(i32::MAX) =>
                    {
                        v.push(bad(format!(
                            "{} x {} costs {} levels, not {}",
                            a.times,
                            a.what,
                            inc.levels.saturating_mul(a.times),
                            a.levels
                        )))
                    }
                    _ => {}
                }
            }
        }
    }
}

/// A stockable monster of level `lo..=hi`, weighted `level - lo + 1`: the same draw and walk as
/// [`Dice::weighted_iter`] over the bestiary filtered to the band, in file order.
fn pick_in_band<'a>(data: &'a MykData, d: &mut Dice, lo: u32, hi: u32) -> Option<&'a Monster> {
    let weight = |l: u32| if (lo..=hi).contains(&l) { l.saturating_sub(lo) + 1 } else { 0 };
    let top = data.top_stock_level().min(hi);
    crate::myk::monsters::pick_by_level(data, d, lo..=top, weight, &[])
}

/// Picks a ruler: a weak point first (it lets a monster up to its adjustment stronger rule), then
/// the monster by its level after the weak point, then ruler skills and stat increases up to
/// A + 7 (never more than the ruler's room may hold). `cores_fit`: whether a core (Split Core's
/// holders, Memory or Soul Core's hideout) can lie in another room of the map.
pub fn pick(tables: &Tables, court: &Court, lim: &Limits, cores_fit: bool, d: &mut Dice) -> Option<Ruler> {
    let data: &MykData = &tables.myk;
    let cap = lim.ruler_level.min(lim.ruler_room_total);
    // The six levels below the cap; when the bestiary has nothing that high (a court of level 30
    // may take an A + 7 = 37 ruler, above every monster), the six below the strongest that fits.
    let (mut low, mut top) = (cap.saturating_sub(6).max(1), cap);
    // Whether any stockable monster (every one has a level) stands in the band, from the counts
    // per level made at load.
    let in_band = (low..=top.min(data.top_stock_level())).any(|l| data.stock_at_level(l) > 0);
    if !in_band {
        top = data.stockable().filter_map(|m| m.level).filter(|&l| l <= cap).max()?;
        low = top.saturating_sub(6).max(1);
    }
    let plan = weak_points::plan(data, cores_fit, &mut d.child("weak-point"));
    let drop = plan.as_ref().map_or(0, |p| p.drop());
    // By level after the weak point; higher levels are likelier.
    let fits = |m: &&Monster| {
        m.level.is_some_and(|l| (low + drop..=top + drop).contains(&l))
            && plan.as_ref().is_none_or(|p| p.fits(m, tables))
    };
    let weight = |m: &&Monster| m.level.unwrap_or(0).saturating_sub(low + drop) + 1;
    // Only a Sealed weak point asks more of a monster than its level.
    let by_level = plan.as_ref().is_none_or(|p| p.rec.needs != Some(WeakNeed::Sealed));
    let first = if by_level {
        pick_in_band(data, d, low + drop, top + drop)
    } else {
        // The Sealed test reads the monster's skills: listed once, not once for the total and
        // again for the walk.
        let pool: Vec<&Monster> = data.stockable().filter(fits).collect();
        d.weighted_iter(pool.iter().copied(), weight)
    };
    let (mon, plan) = match first {
        Some(mon) => (mon, plan),
        // No monster that strong: rule without the weak point.
        None => (pick_in_band(data, d, low, top)?, None),
    };
    let level = mon.level.unwrap_or(1);
    let mut adjustments = Vec::new();
    let mut eff = level as i32;
    if let Some(p) = &plan {
        let a = weak_points::adjustment(p, mon, court.size, tables, &mut d.child("weak-point/details"));
        eff += a.levels;
        adjustments.push(a);
    }
    let room = |eff: i32| cap as i32 - eff;
    let wanted_skills = d.below(3);
    for _ in 0..wanted_skills {
        let open = || {
            data.ruler_skills.iter().filter(|s| {
                s.min_level <= level
                    && s.levels as i32 <= room(eff)
                    && !adjustments.iter().any(|a: &Adjustment| a.what == s.name)
            })
        };
        let Some(s) = d.choose_from(open) else { break };
        eff += s.levels as i32;
        adjustments.push(Adjustment::new(AdjustmentKind::Skill, &s.name, 1, s.levels as i32));
    }
    if d.chance(1, 2) {
        let open = || data.ruler_increases.iter().filter(|i| i.levels as i32 <= room(eff));
        if let Some(inc) = d.choose_from(open) {
            let times = d.between(1, (room(eff) as u32 / inc.levels).clamp(1, 3));
            eff += (inc.levels * times) as i32;
            adjustments.push(Adjustment::new(
                AdjustmentKind::Increase,
                stat_name(inc.stat),
                times,
                (inc.levels * times) as i32,
            ));
        }
    }
    let mut ruler =
        Ruler { name: mon.name.clone(), level, effective_level: eff.max(0) as u32, adjustments, stats: None };
    ruler.stats = final_stats(mon, &ruler);
    Some(ruler)
}
