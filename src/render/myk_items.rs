//! The item and word tables a MYK booklet carries: exactly those its own Treasure, Negotiation
//! and random encounter results send the GM to ("1 random Recovery Item", "picks a Random Word
//! Table", "one Lunch or Full Course"), found through the tables' `[[citation]]` records.

use serde::Serialize;

use super::myk_play::{RowView, TableView, table_view};
use crate::tables::Tables;
use crate::tables::items::Item;
use crate::tables::roll::{Collection, RollTable};

/// One item record as the booklet prints it.
#[derive(Serialize)]
pub struct ItemView {
    /// The outcomes of its table that give it ("11, 12, 22"); empty for an item named outright.
    pub rolls: String,
    pub name: String,
    pub category: String,
    /// "3", a Rare Item's "(3)", or "-".
    pub cost: String,
    pub kind: String,
    pub target: String,
    pub check: String,
    pub level: String,
    pub materials: String,
    /// "Melee weapon, range 0, damage 1D6", for weapons.
    pub weapon: Option<String>,
    pub light: Option<u32>,
    pub effect: String,
}

/// An item table: the record of every item on it, in row order, once, each with the outcomes
/// that give it (so the table and its records print as one).
#[derive(Serialize)]
pub struct ItemTableView {
    pub name: String,
    pub title: String,
    pub dice: String,
    pub items: Vec<ItemView>,
}

/// Tables of plain words rolled with the same dice, printed side by side (the Random Word Tables).
#[derive(Serialize)]
pub struct WordGrid {
    pub dice: String,
    pub titles: Vec<String>,
    pub rows: Vec<WordRow>,
}

#[derive(Serialize)]
pub struct WordRow {
    pub roll: String,
    pub words: Vec<String>,
}

/// Everything the booklet's "Items and word tables" block prints.
#[derive(Serialize, Default)]
pub struct ItemTablesView {
    pub item_tables: Vec<ItemTableView>,
    /// Word tables sharing their rolls, side by side...
    pub word_grid: Option<WordGrid>,
    /// ...or, when they do not, one by one.
    pub word_tables: Vec<TableView>,
    /// Items a result names outright whose table the booklet does not carry.
    pub items: Vec<ItemView>,
}

impl ItemTablesView {
    pub fn is_empty(&self) -> bool {
        self.item_tables.is_empty() && self.word_grid.is_none() && self.word_tables.is_empty() && self.items.is_empty()
    }
}

/// The roll tables and item records `results` cite, and those the cited tables' own rows cite in
/// turn, until nothing new turns up: tables in the order of the tables files, items in theirs,
/// without the items a cited table already lists.
pub fn reachable<'a, S: AsRef<str>>(tables: &'a Tables, results: &[S]) -> (Vec<&'a RollTable>, Vec<&'a Item>) {
    let mut table_names: Vec<&str> = Vec::new();
    let mut item_names: Vec<&str> = Vec::new();
    let mut texts: Vec<String> = results.iter().map(|r| r.as_ref().to_string()).collect();
    while !texts.is_empty() {
        let mut next = Vec::new();
        for text in &texts {
            let (ts, is) = tables.items.cited_by(text);
            for t in ts {
                if !table_names.contains(&t) {
                    table_names.push(t);
                    if let Some(rt) = tables.roll_table(t) {
                        next.extend(rt.rows.iter().map(|r| r.text()));
                    }
                }
            }
            item_names.extend(is);
        }
        texts = next;
    }
    let found: Vec<&RollTable> =
        tables.rolls.iter().map(|l| &l.item).filter(|t| table_names.contains(&t.name.as_str())).collect();
    let listed = |name: &str| {
        found
            .iter()
            .any(|t| t.yields == Some(Collection::Item) && t.rows.iter().any(|r| r.result.as_deref() == Some(name)))
    };
    let items =
        tables.items.items.iter().filter(|it| item_names.contains(&it.name.as_str()) && !listed(&it.name)).collect();
    (found, items)
}

/// The block's view for a scenario whose printed results are `results`.
pub fn item_tables(tables: &Tables, results: &[String]) -> ItemTablesView {
    let (found, items) = reachable(tables, results);
    let (item_tables, words): (Vec<&RollTable>, Vec<&RollTable>) =
        found.into_iter().partition(|t| t.yields == Some(Collection::Item));
    let item_tables = item_tables
        .into_iter()
        .map(|t| {
            let mut names: Vec<&str> = Vec::new();
            for r in &t.rows {
                if let Some(n) = r.result.as_deref()
                    && !names.contains(&n)
                {
                    names.push(n);
                }
            }
            let rolls = |n: &str| {
                let mut out: Vec<&str> = Vec::new();
                for r in t.rows.iter().filter(|r| r.result.as_deref() == Some(n)) {
                    out.push(&r.roll);
                }
                out.join(", ")
            };
            ItemTableView {
                name: t.name.clone(),
                title: t.title.clone(),
                dice: t.dice.label().to_string(),
                items: names
                    .into_iter()
                    .filter_map(|n| tables.items.item(n))
                    .map(|it| ItemView { rolls: rolls(&it.name), ..item_view(it) })
                    .collect(),
            }
        })
        .collect();
    let (word_grid, word_tables) = match grid(&words) {
        Some(g) => (Some(g), Vec::new()),
        None => (None, words.into_iter().map(table_view).collect()),
    };
    ItemTablesView { item_tables, word_grid, word_tables, items: items.into_iter().map(item_view).collect() }
}

/// Two or more tables with the same dice and the same roll column, side by side.
fn grid(words: &[&RollTable]) -> Option<WordGrid> {
    let first = words.first()?;
    let same = |t: &&RollTable| {
        t.dice == first.dice
            && t.rows.len() == first.rows.len()
            && t.rows.iter().zip(&first.rows).all(|(a, b)| a.roll == b.roll)
    };
    if words.len() < 2 || !words.iter().all(same) {
        return None;
    }
    Some(WordGrid {
        dice: first.dice.label().to_string(),
        titles: words.iter().map(|t| t.title.clone()).collect(),
        rows: first
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| WordRow { roll: r.roll.clone(), words: words.iter().map(|t| t.rows[i].text()).collect() })
            .collect(),
    })
}

/// One item's entry as the block prints it.
pub(crate) fn item_view(it: &Item) -> ItemView {
    ItemView {
        rolls: String::new(),
        name: it.name.to_string(),
        category: it.category.label().into(),
        cost: it.cost_text(),
        kind: it.kind.label().into(),
        target: it.target.clone(),
        check: it.check.clone(),
        level: it.level.to_string(),
        materials: it.materials_text(),
        weapon: it.weapon.as_ref().map(ToString::to_string),
        light: it.light,
        effect: it.effect.clone(),
    }
}

/// Every result a scenario's booklet prints that may cite a table: the Treasure Tables' and the
/// Negotiation Table's rows, and the random encounter rows.
pub fn printed_results(treasure: &[TableView], negotiation: Option<&TableView>, encounters: &[String]) -> Vec<String> {
    let rows = |t: &TableView| t.rows.iter().map(|r: &RowView| r.text.clone()).collect::<Vec<_>>();
    let mut out: Vec<String> = treasure.iter().flat_map(rows).collect();
    out.extend(negotiation.map(rows).unwrap_or_default());
    out.extend(encounters.iter().cloned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(tables: &Tables, results: &[&str]) -> (Vec<String>, Vec<String>) {
        let (t, i) = reachable(tables, results);
        (t.iter().map(|t| t.name.clone()).collect(), i.iter().map(|i| i.name.to_string()).collect())
    }

    #[test]
    fn a_result_reaches_the_tables_its_words_name_and_no_other() {
        let t = Tables::embedded().expect("built-in tables");
        assert_eq!(names(&t, &["1 random Recovery Item"]).0, vec!["myk.items.recovery"]);
        assert_eq!(names(&t, &["Nothing", "3 Materials"]), (vec![], vec![]));
        let (tables, _) = names(&t, &["the court's representative picks a Random Word Table and rolls D66 on it"]);
        assert_eq!(tables, vec!["myk.words.1", "myk.words.2", "myk.words.3", "myk.words.4"]);
    }

    #[test]
    fn an_item_named_outright_is_printed_alone_unless_its_table_is_there() {
        let t = Tables::embedded().expect("built-in tables");
        assert_eq!(names(&t, &["Lunch"]), (vec![], vec!["Lunch".to_string()]));
        let (tables, items) = names(&t, &["Lunch", "one Lunch or Full Course", "1 random Recovery Item"]);
        assert_eq!((tables, items), (vec!["myk.items.recovery".to_string()], vec![]));
    }

    #[test]
    fn the_word_tables_print_side_by_side() {
        let t = Tables::embedded().expect("built-in tables");
        let v = item_tables(&t, &["a Random Word Table".to_string()]);
        let g = v.word_grid.expect("a grid");
        assert_eq!((g.titles.len(), g.rows.len()), (4, 21));
        assert_eq!(g.rows[0].words, vec!["Magic", "Science", "Children", "The Elderly"]);
        assert!(v.word_tables.is_empty() && v.item_tables.is_empty());
    }
}
