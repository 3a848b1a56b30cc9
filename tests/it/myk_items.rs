//! The booklet carries every item and word table its own results send the GM to, and no other:
//! checked against the Treasure, Negotiation and encounter text the booklet prints, read with the
//! book's wording (independent of the tables' `[[citation]]` records the renderer uses).

use dungeonsmith::dice::Dice;
use dungeonsmith::model::Paper;
use dungeonsmith::myk::model::{Layout, Scenario};
use dungeonsmith::myk::{MykParams, generate};
use dungeonsmith::render::text::Templates;
use dungeonsmith::render::view;

use crate::myk::tables;

fn templates() -> &'static Templates {
    static T: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
    T.get_or_init(|| Templates::load(None).expect("embedded templates load"))
}

/// Courts of average level 1-30 (so every Treasure Table turns up), 1-2 maps.
fn scenario_for(seed: u64) -> Scenario {
    let mut d = Dice::new(seed).child("test/items-options");
    let size = d.between(1, 6) as usize;
    let level = if d.chance(1, 2) { d.between(1, 6) } else { d.between(7, 30) };
    let p = MykParams {
        levels: vec![level; size],
        maps: d.between(1, 2),
        rooms: d.between(3, 9),
        layout: Layout::Mixed,
        objective: None,
        ..Default::default()
    };
    generate(tables(), &p, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// The text of the Markdown between `### from` and the next `### ` heading.
fn section<'a>(md: &'a str, from: &str) -> &'a str {
    let Some(start) = md.find(&format!("\n### {from}")) else { return "" };
    let rest = &md[start + 1..];
    let end = rest[4..].find("\n### ").map_or(rest.len(), |e| e + 4);
    &rest[..end]
}

/// The caption of the items named outright.
const NAMED: &str = "Items named in the scenario";

/// What the book's wording in `text` sends the GM to, as the booklet's headings name it.
fn expected(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let plain_arms = text.match_indices("Arms Item").any(|(i, _)| !text[..i].ends_with("Rare "));
    let common = text.contains("Common Item category");
    let any_rare = text.contains("Rare Item the court picks");
    if plain_arms || common {
        out.push("Arms Items Table");
    }
    if common {
        out.push("Exploration Items Table");
        out.push("Lifestyle Items Table");
    }
    if text.contains("Rare Arms Item") || any_rare {
        out.push("Rare Arms Items Table");
    }
    if text.contains("Rare General Item") || any_rare {
        out.push("Rare General Items Table");
    }
    if text.contains("Recovery Item") || common {
        out.push("Recovery Items Table");
    }
    if text.contains("Random Word Table") {
        out.push("Random Word Tables");
    }
    let recovery = out.contains(&"Recovery Items Table");
    if !recovery && (text.contains("Lunch") || text.contains("Full Course")) {
        out.push(NAMED);
    }
    out.sort_unstable();
    out
}

/// The bold captions (`**Title (dice)**` on a line of their own) of the items block, titles
/// without their dice.
fn printed(md: &str) -> Vec<String> {
    let mut out: Vec<String> = section(md, "Items and word tables")
        .lines()
        .filter_map(|l| l.strip_prefix("**").and_then(|l| l.strip_suffix("**")))
        .map(|h| h.split(" (").next().unwrap_or(h).to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn every_item_and_word_table_the_results_name_is_in_the_booklet_and_no_other() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in crate::seeds(0..80u64) {
        let s = scenario_for(seed);
        let v = view::myk_view(&s, tables(), Paper::A4, &[]);
        let md = templates().render("myk.md", &v).expect("renders");
        let results =
            [section(&md, "Treasure"), section(&md, "Negotiation"), section(&md, "Random encounter table")].concat();
        let mut want = expected(&results);
        // An item part one names outright (the Reward's, a shop's, a group's gear) whose table
        // the booklet does not carry has its own entry (issue 46).
        let named = dungeonsmith::render::myk_named::named_items(&s, tables());
        if !want.contains(&NAMED) && v.items.items.iter().any(|i| named.contains(&i.name)) {
            want.push(NAMED);
            want.sort_unstable();
        }
        assert_eq!(printed(&md), want, "seed {seed}");
        let html = templates().render("myk.html", &v).expect("renders");
        for title in &want {
            assert!(html.contains(&format!("<caption>{title}")), "seed {seed}: {title} not in the HTML");
        }
        seen.extend(want);
    }
    // The seeds reach every table at least once, so the test compares something for each.
    for t in ["Arms Items Table", "Rare Arms Items Table", "Rare General Items Table", "Recovery Items Table"] {
        assert!(seen.contains(t), "no seed reached {t}: {seen:?}");
    }
}

#[test]
fn an_item_the_booklet_prints_has_its_record_in_tables_show() {
    let s = scenario_for(3);
    let v = view::myk_view(&s, tables(), Paper::A4, &[]);
    let mut names: Vec<&str> = v.items.item_tables.iter().flat_map(|t| &t.items).map(|i| i.name.as_str()).collect();
    names.extend(v.items.items.iter().map(|i| i.name.as_str()));
    assert!(!names.is_empty());
    for name in names {
        let text = dungeonsmith::tables::show::show(tables(), name).expect("a record");
        let it = tables().items.item(name).expect("an item");
        assert!(text.contains(&format!("{name} — {}, cost {}", it.category.label(), it.cost_text())), "{text}");
        assert!(text.contains(&it.effect), "{text}");
    }
}

/// Who picks, in the book's Treasure and Negotiation rows the booklet prints, is the court: no
/// row leaves a pick to the reader ("your pick", "of your choice"), who is the GM. (An item's own
/// effect may say "your": there it is the owner's.)
#[test]
fn no_treasure_or_negotiation_row_leaves_a_pick_to_the_reader() {
    const READER_PICKS: [&str; 5] = ["your pick", "your choice", "you pick", "you choose", "of your own"];
    let printed = tables()
        .rolls
        .iter()
        .map(|r| &r.item)
        .filter(|t| t.name.starts_with("myk.treasure.") || t.name == "myk.negotiation");
    let mut rows = 0;
    for t in printed {
        for r in &t.rows {
            let text = r.result.as_deref().unwrap_or_default();
            rows += 1;
            assert!(!READER_PICKS.iter().any(|p| text.contains(p)), "{} row {}: `{text}`", t.title, r.roll);
        }
    }
    assert!(rows >= 35, "{rows} rows read");
    let md = (0..40u64)
        .map(|seed| templates().render("myk.md", &view::myk_view(&scenario_for(seed), tables(), Paper::A4, &[])))
        .find_map(|md| md.ok().filter(|m| m.contains("Materials field")))
        .expect("a booklet printing a Materials row");
    assert!(md.contains("from the monster's Materials field, the court picking which"));
}

/// A reward, a conversation's gift and a skill's random Material are drawn from the Materials the
/// item recipes name; each must be one of the book's ten, the Market Table's results (003 l.2471),
/// so "3 Iron" never prints as "6 Every Material" or "2 Meat x the number of people in the Court".
#[test]
fn the_materials_a_story_draws_are_the_market_tables_materials() {
    let t = tables();
    let market = t.roll_table("myk.market").expect("the Market Table");
    let mut book: Vec<&str> = market.rows.iter().filter_map(|r| r.result.as_deref()).filter(|r| *r != "None").collect();
    book.sort_unstable();
    let drawn: Vec<&str> = t.items.materials().iter().map(String::as_str).collect();
    assert_eq!(drawn, book);
}

crate::in_full! {
    every_item_and_word_table_the_results_name_is_in_the_booklet_and_no_other => every_item_and_word_table_the_results_name_is_in_the_booklet_and_no_other_in_full,
}
