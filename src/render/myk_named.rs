//! Every item a MYK booklet's part one names outright (issue 46): the objective's item, the
//! Reward's Rare Item, a shop's wares, the items a group carries, a weakness's specific Common
//! Item and a core's object. Part two prints an entry for each ([`add_to`]), so the GM never
//! meets an item whose use and effect the booklet does not give.

use super::myk_items::{ItemTablesView, ItemView};
use crate::myk::model::{AdjustmentKind, Scenario};
use crate::render::threats::Named;
use crate::tables::Tables;
use crate::tables::myk::WeakNeed;

/// The item names part one prints, once each, in the order met (objective, reward, wares, then
/// map by map and room by room).
pub fn named_items(s: &Scenario, tables: &Tables) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    out.extend(s.objective.item.iter().cloned());
    if let Some(st) = &s.story {
        // "1 Fool's Crest (a Rare Item)": the Reward names its item by the tables' name.
        for r in &st.epilogue.reward {
            out.extend(tables.items.items.iter().filter(|it| reward_names(r, &it.name)).map(|it| it.name.to_string()));
        }
        out.extend(st.mini_events.iter().flat_map(|e| &e.wares).map(|w| w.item.clone()));
    }
    for m in &s.maps {
        for r in m.used_rooms() {
            let named = Named::new(s, m, r, tables);
            for g in &r.monsters {
                // The same picks as the group's Gear line (`threats::gear`).
                out.extend(named.items(&format!("{}/common", g.name), g.common_items, false));
                out.extend(named.items(&format!("{}/rare", g.name), g.rare_items, true));
            }
            let adjustments = r.ruler.iter().flat_map(|ru| &ru.adjustments);
            for a in adjustments.filter(|a| a.kind == AdjustmentKind::WeakPoint) {
                for (k, w) in a.weaknesses.iter().enumerate() {
                    if w.starts_with("A specific Common Item") {
                        out.extend(named.items(&format!("weakness/{k}"), 1, false));
                    }
                }
                let hides = tables.myk.weak_point(&a.what).is_some_and(|w| w.needs == Some(WeakNeed::Hideout));
                if let (true, Some(h)) = (hides, a.hidden_in) {
                    out.extend(Named::new(s, m, m.room(h), tables).items("core", 1, false));
                }
            }
        }
    }
    let mut seen: Vec<String> = Vec::with_capacity(out.len());
    for n in out {
        if !n.is_empty() && !seen.contains(&n) {
            seen.push(n);
        }
    }
    seen
}

/// Whether the Reward line `line` names the item `name` as its item ("1 {name} (a Rare Item)").
fn reward_names(line: &str, name: &str) -> bool {
    line.strip_prefix("1 ").and_then(|rest| rest.strip_suffix(" (a Rare Item)")) == Some(name)
}

/// Adds to the block an entry for every item of `names` that neither one of its item tables nor
/// its list of items named outright already prints.
pub fn add_to(view: &mut ItemTablesView, tables: &Tables, names: &[String]) {
    let printed = |v: &ItemTablesView, n: &str| {
        v.items.iter().any(|i| i.name == n) || v.item_tables.iter().flat_map(|t| &t.items).any(|i| i.name == n)
    };
    for n in names {
        if printed(view, n) {
            continue;
        }
        if let Some(it) = tables.items.item(n) {
            let entry: ItemView = super::myk_items::item_view(it);
            view.items.push(entry);
        }
    }
}
