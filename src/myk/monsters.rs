//! Monster equipment and relationships (seed 003 l.6493-6507): what they add to a group's
//! effective level, how many items a monster may carry, and the generator's occasional gifts, all
//! inside the placement limits. `check` and the generator share these functions.

use crate::check::Violation;
use crate::dice::Dice;
use crate::myk::model::MonsterGroup;
use crate::tables::myk::{Monster, MonsterCategory, MykData};

/// Levels one common item adds for the placement limits.
pub const COMMON_ITEM_LEVELS: u32 = 1;
/// Levels one rare item adds.
pub const RARE_ITEM_LEVELS: u32 = 3;
/// Relationship points that add one level.
pub const RELATIONSHIP_POINTS_PER_LEVEL: u32 = 2;

/// The level each monster of the group counts as: its level, +1 per common item, +3 per rare
/// item, +1 per 2 relationship points (odd points round down: a half step adds nothing).
pub fn effective_level(g: &MonsterGroup) -> u32 {
    // Saturating: a hand-edited file may hold any number (`check` and `fix` never overflow).
    g.level
        .saturating_add(g.common_items.saturating_mul(COMMON_ITEM_LEVELS))
        .saturating_add(g.rare_items.saturating_mul(RARE_ITEM_LEVELS))
        .saturating_add(g.relationship / RELATIONSHIP_POINTS_PER_LEVEL)
}

/// How many items one monster may equip: Human monsters 3, every other kind 2 (l.6497).
pub fn item_slots(category: MonsterCategory) -> u32 {
    if category == MonsterCategory::Human { 3 } else { 2 }
}

/// The group's items and effective level, checked against the bestiary record.
pub fn check_group(g: &MonsterGroup, data: &MykData, at: &str, v: &mut Vec<Violation>) {
    check_group_of(g, data.monster(&g.name), at, v);
}

/// [`check_group`] with the group's bestiary record already looked up by its name (`None`: not
/// in the bestiary), so a caller that needed it too does not look it up twice.
pub fn check_group_of(g: &MonsterGroup, rec: Option<&Monster>, at: &str, v: &mut Vec<Violation>) {
    let want = effective_level(g);
    if g.effective_level != want {
        v.push(Violation::new(
            at,
            "monster.effective-level",
            format!(
                "`{}` has effective level {}, should be {want} (level {} + {} + 3 x {} rare + {} / 2)",
                g.name,
                g.effective_level,
                g.level,
                crate::text::count(g.common_items.into(), "common item"),
                g.rare_items,
                crate::text::count(g.relationship.into(), "relationship point")
            ),
        ));
    }
    if let Some(rec) = rec {
        let slots = item_slots(rec.category);
        if g.common_items + g.rare_items > slots {
            v.push(Violation::new(
                at,
                "monster.items",
                format!(
                    "`{}` carries {} items each; a {} monster may equip {slots}",
                    g.name,
                    g.common_items + g.rare_items,
                    rec.category.label()
                ),
            ));
        }
    }
}

/// A bestiary monster for a room's group: a stockable monster of level 1 to `cap` and at most
/// `left`, not in `chosen`, weighted `8 - |level - a|` (at least 1), so monsters near the court's
/// level are likelier. The same pick as [`Dice::weighted_iter`] over the filtered bestiary in file
/// order (one `below(total)` draw, then a walk in order), but the total is summed per level and
/// the walk reads a compact list of levels: it runs several times for every generated room.
pub fn pick_for_group<'a>(
    data: &'a MykData,
    d: &mut Dice,
    cap: u32,
    left: u32,
    a: i64,
    chosen: &[&Monster],
) -> Option<&'a Monster> {
    let top = cap.min(left);
    let weight = |l: u32| {
        if l >= 1 && l <= top {
            let gap = (i64::from(l) - a).unsigned_abs().min(7) as u32;
            8 - gap
        } else {
            0
        }
    };
    pick_by_level(data, d, 1..=top, weight, chosen)
}

/// The weighted pick both the room groups and the ruler make: one `below(total)` draw over the
/// stockable monsters of `levels` (weight `weight(level)`, zero outside `levels`; those in
/// `chosen` left out), read as a walk in file order would read it: the monster whose span of
/// the running weight holds the draw. The running weight before the k-th monster is summed per
/// level from counts made at load, so the monster is found by bisection, not by a walk.
pub(crate) fn pick_by_level<'a>(
    data: &'a MykData,
    d: &mut Dice,
    levels: std::ops::RangeInclusive<u32>,
    weight: impl Fn(u32) -> u32,
    chosen: &[&Monster],
) -> Option<&'a Monster> {
    let mut total: u32 = levels.clone().map(|l| data.stock_at_level(l) * weight(l)).sum();
    // Chosen monsters come from this pool: each one that would fit again is taken out.
    for c in chosen {
        total -= weight(c.level.unwrap_or(0));
    }
    if total == 0 {
        return None;
    }
    let x = d.below(total);
    find(data, x, levels, weight, chosen)
}

/// The monster whose span of the running weight (in file order) holds `x`, found by bisection
/// over the per-level counts made at load.
fn find<'a>(
    data: &'a MykData,
    x: u32,
    levels: std::ops::RangeInclusive<u32>,
    weight: impl Fn(u32) -> u32,
    chosen: &[&Monster],
) -> Option<&'a Monster> {
    // Levels above the strongest stockable monster hold none: the span stops there.
    let lo = *levels.start() as usize;
    let hi = (*levels.end() as usize).min(data.stock_before(0).len().saturating_sub(1));
    if hi < lo {
        return None;
    }
    // Each level's weight and each chosen monster's place and weight, read once: the bisection
    // asks for the running weight about ten times a pick. Both lists are short (a band of levels,
    // a room's three groups), so they live on the stack when they fit: a pick is made several
    // times for every room, and two heap lists cost a third of it.
    let (mut few_weights, mut many_weights) = ([0u32; 40], Vec::new());
    let weights = stack_or_heap(&mut few_weights, &mut many_weights, (lo..=hi).map(|l| weight(l as u32)));
    let (mut few_taken, mut many_taken) = ([(0usize, 0u32); 3], Vec::new());
    let positions = chosen.iter().filter_map(|c| Some((data.stock_position(c)?, weight(c.level.unwrap_or(0)))));
    let taken = stack_or_heap(&mut few_taken, &mut many_taken, positions);
    // The running weight before the k-th stockable monster, the chosen ones left out.
    let before = |k: usize| -> u32 {
        let counts = data.stock_before(k).get(lo..=hi).unwrap_or_default();
        let all: u32 = counts.iter().zip(weights).map(|(c, w)| c * w).sum();
        let left_out: u32 = taken.iter().filter(|&&(at, _)| at < k).map(|&(_, w)| w).sum();
        all.saturating_sub(left_out)
    };
    // The first k whose running weight passes the draw; the monster is the (k - 1)th.
    let (mut lo, mut hi) = (1, data.stock_levels().len());
    if hi == 0 || before(hi) <= x {
        return None;
    }
    while lo < hi {
        let mid = (lo + hi) / 2;
        if before(mid) > x { hi = mid } else { lo = mid + 1 }
    }
    Some(data.stock(lo - 1))
}

/// The items of `items` in `few` when they fit, else in `many`.
fn stack_or_heap<'b, T: Copy>(few: &'b mut [T], many: &'b mut Vec<T>, items: impl Iterator<Item = T>) -> &'b [T] {
    let mut n = 0;
    for item in items {
        match few.get_mut(n) {
            Some(slot) if many.is_empty() => *slot = item,
            _ => {
                if many.is_empty() {
                    many.extend_from_slice(&few[..n]);
                }
                many.push(item);
            }
        }
        n += 1;
    }
    if many.is_empty() { &few[..n] } else { many }
}

/// Now and then gives one group of a room items or relationship points, when the raised level still
/// fits the one-monster limit and the room's total (`room_left` levels remain free). Returns the
/// levels it added to the room.
pub fn equip(groups: &mut [MonsterGroup], data: &MykData, monster_cap: u32, room_left: u32, d: &mut Dice) -> u32 {
    if groups.is_empty() || !d.chance(1, 5) {
        return 0;
    }
    let i = d.below(groups.len() as u32) as usize;
    let g = &mut groups[i];
    let slots = data.monster(&g.name).map_or(2, |m| item_slots(m.category));
    // (common, rare, relationship) for one monster; the cheapest gifts are the likeliest.
    let (common, rare, rel) = match d.below(6) {
        0..=2 => (1, 0, 0),
        3 => (2.min(slots), 0, 0),
        4 => (0, 1, 0),
        _ => (0, 0, 2 * d.between(1, 2)),
    };
    let before = effective_level(g);
    let mut trial = g.clone();
    trial.common_items += common;
    trial.rare_items += rare;
    trial.relationship += rel;
    let after = effective_level(&trial);
    let added = (after - before) * g.count;
    if trial.common_items + trial.rare_items > slots || after > monster_cap || added > room_left {
        return 0;
    }
    trial.effective_level = after;
    *g = trial;
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::myk::model::Reaction;

    #[test]
    fn a_short_list_is_kept_on_the_stack_and_a_long_one_on_the_heap_in_order() {
        for n in [0usize, 1, 3, 4, 9] {
            let (mut few, mut many) = ([0usize; 3], Vec::new());
            let kept = stack_or_heap(&mut few, &mut many, 0..n).to_vec();
            assert_eq!(kept, (0..n).collect::<Vec<_>>());
            assert_eq!(many.is_empty(), n <= 3, "{n} items");
        }
    }

    #[test]
    fn the_level_pick_is_the_weighted_pick_over_the_bestiary_in_file_order() {
        let t = crate::tables::Tables::embedded().expect("embedded tables load");
        let data = &t.myk;
        for seed in 0..40 {
            let (mut ours, mut plain) = (Dice::new(seed), Dice::new(seed));
            for a in 1..=12i64 {
                for top in [1, 3, 6, 10, 40] {
                    let weight = |l: u32| {
                        if l >= 1 && l <= top { 8 - (i64::from(l) - a).unsigned_abs().min(7) as u32 } else { 0 }
                    };
                    let mut chosen: Vec<&Monster> = Vec::new();
                    for _ in 0..3 {
                        let picked = pick_by_level(data, &mut ours, 1..=top, weight, &chosen);
                        let pool = data.stockable().filter(|m| !chosen.iter().any(|c| std::ptr::eq(*c, *m)));
                        let expected = plain.weighted_iter(pool, |m| weight(m.level.unwrap_or(0)));
                        assert_eq!(
                            picked.map(|m| m as *const Monster),
                            expected.map(|m| m as *const Monster),
                            "seed {seed} a {a} top {top}"
                        );
                        let Some(m) = picked else { break };
                        chosen.push(m);
                    }
                }
            }
        }
    }

    #[test]
    fn items_and_relationship_points_raise_the_effective_level_as_the_book_counts_them() {
        let mut g = MonsterGroup::plain("Goblin", 2, 3, Reaction::Hostile);
        assert_eq!(effective_level(&g), 2);
        g.common_items = 1;
        g.rare_items = 1;
        g.relationship = 5;
        assert_eq!(effective_level(&g), 2 + 1 + 3 + 2);
    }
}
