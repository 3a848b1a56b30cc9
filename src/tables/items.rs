//! Make You Kingdom items (the four Common Item tables and the two Rare Item tables) and the
//! citations that tie a result's words ("1 random Recovery Item", "a Random Word Table") to the
//! roll tables and item records they send the GM to.
//!
//! Every schema denies unknown fields, so a typo in a table file is an error naming the field.
//! Effects are our own summaries; names, numbers and dice are the book's.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::tables::myk::Level;
use crate::tables::name_index::NameIndex;
use crate::tables::shared::SharedStr;

/// The six item categories, each with its own table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemCategory {
    Arms,
    Lifestyle,
    Recovery,
    Exploration,
    RareArms,
    RareGeneral,
}

impl ItemCategory {
    pub fn label(self) -> &'static str {
        match self {
            ItemCategory::Arms => "Arms Item",
            ItemCategory::Lifestyle => "Lifestyle Item",
            ItemCategory::Recovery => "Recovery Item",
            ItemCategory::Exploration => "Exploration Item",
            ItemCategory::RareArms => "Rare Arms Item",
            ItemCategory::RareGeneral => "Rare General Item",
        }
    }

    /// Rare Items print their Cost in brackets (the book's mark for a price no shop asks).
    pub fn rare(self) -> bool {
        matches!(self, ItemCategory::RareArms | ItemCategory::RareGeneral)
    }
}

/// When an item is used (the book's "Type").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemType {
    Equipable,
    Assist,
    Plan,
    Support,
    Interrupt,
    Permanent,
    /// The book's "See Below": the effect says when.
    SeeBelow,
}

impl ItemType {
    pub fn label(self) -> &'static str {
        match self {
            ItemType::Equipable => "Equipable",
            ItemType::Assist => "Assist",
            ItemType::Plan => "Plan",
            ItemType::Support => "Support",
            ItemType::Interrupt => "Interrupt",
            ItemType::Permanent => "Permanent",
            ItemType::SeeBelow => "see the effect",
        }
    }
}

/// An item's Cost in MG: a number, or `"-"` where the book prints none (Love).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    Mg(u32),
    None,
}

impl<'de> Deserialize<'de> for Cost {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(Cost::Mg(n)),
            Raw::S(s) if s.trim() == "-" => Ok(Cost::None),
            Raw::S(s) => Err(serde::de::Error::custom(format!("cost `{s}` is not a number or \"-\""))),
        }
    }
}

impl Serialize for Cost {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cost::Mg(n) => s.serialize_u32(*n),
            Cost::None => s.serialize_str("-"),
        }
    }
}

/// An item's Level: a range it can be raised through, or `"none"` (it has no Level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemLevel {
    Range(Level),
    None,
}

impl<'de> Deserialize<'de> for ItemLevel {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if s.trim() == "none" {
            return Ok(ItemLevel::None);
        }
        let bad = || serde::de::Error::custom(format!("level `{s}` is not a range like 0-10 or \"none\""));
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b.trim().parse().map_err(|_| bad())?;
        if a >= b {
            return Err(bad());
        }
        Ok(ItemLevel::Range(Level::Range(a, b)))
    }
}

impl Serialize for ItemLevel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for ItemLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ItemLevel::Range(l) => write!(f, "{l}"),
            ItemLevel::None => f.write_str("none"),
        }
    }
}

/// Melee or ranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    Melee,
    Ranged,
}

/// The weapon line of an item that is one.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub kind: WeaponKind,
    pub range: u32,
    /// As printed: "1D6", "2D6-2", "3", "Special".
    pub damage: String,
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            WeaponKind::Melee => "Melee weapon",
            WeaponKind::Ranged => "Ranged weapon",
        };
        write!(f, "{kind}, range {}, damage {}", self.range, self.damage)
    }
}

/// An item of the rulebook.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub name: SharedStr,
    pub category: ItemCategory,
    pub cost: Cost,
    #[serde(rename = "type")]
    pub kind: ItemType,
    /// As the book writes it: "Self", "Court", "Individual", "See Below"...
    pub target: String,
    /// "None", or the check as the book writes it ("Quest / 9").
    pub check: String,
    pub level: ItemLevel,
    /// What crafting it takes ("Iron x 3"); empty when it cannot be crafted.
    #[serde(default)]
    pub materials: Vec<String>,
    /// False for the items the book says cannot be crafted.
    #[serde(default = "yes")]
    pub craftable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<Weapon>,
    /// A Star Fragment's Light.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<u32>,
    /// The effect, in our own words.
    pub effect: String,
    /// Where it stands in seed 003, e.g. "l.4290".
    pub source: String,
}

fn yes() -> bool {
    true
}

impl Item {
    /// The Cost as printed: "3", a Rare Item's "(3)", or "-".
    pub fn cost_text(&self) -> String {
        match (self.cost, self.category.rare()) {
            (Cost::Mg(n), false) => n.to_string(),
            (Cost::Mg(n), true) => format!("({n})"),
            (Cost::None, _) => "-".into(),
        }
    }

    /// The Materials as one phrase.
    pub fn materials_text(&self) -> String {
        if self.craftable { self.materials.join(", ") } else { "cannot be crafted".into() }
    }

    /// Why the record is incomplete, naming the field, or `None` when it is whole.
    pub fn problem(&self) -> Option<String> {
        for (field, value) in
            [("target", &self.target), ("check", &self.check), ("effect", &self.effect), ("source", &self.source)]
        {
            if value.trim().is_empty() {
                return Some(format!("has no `{field}`"));
            }
        }
        if self.craftable == self.materials.is_empty() {
            return Some(if self.craftable {
                "has no `materials`; set `craftable = false` if it cannot be crafted".into()
            } else {
                "lists `materials` but says `craftable = false`".into()
            });
        }
        if let Some(w) = &self.weapon
            && w.damage.trim().is_empty()
        {
            return Some("has a `weapon` with no `damage`".into());
        }
        None
    }
}

/// Words in a result that send the GM to tables or items: `phrase` as written in a Treasure or
/// Negotiation result, and the roll tables and item records it names.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Citation {
    pub phrase: String,
    #[serde(default)]
    pub tables: Vec<String>,
    #[serde(default)]
    pub items: Vec<String>,
    /// The table file it came from (set at load, for errors).
    #[serde(skip)]
    pub file: String,
}

/// The Materials `items` name, sorted, once each: a crafting line's Material without its count
/// ("Iron 2", "Meat x the number of people in the Court"). Lines that name no one Material are
/// left out: "Every Material" (ten of each), and Monster Citizens, which a recipe spends but which
/// are Citizens, not Materials. The story draws a reward, a gift or a skill's Material from this
/// list, so each entry must read as a Material after a count ("3 Iron").
fn materials_of(items: &[Item]) -> Vec<String> {
    let mut out: Vec<String> = items
        .iter()
        .flat_map(|i| &i.materials)
        .map(|m| material_of(m).to_string())
        .filter(|m| !m.is_empty() && !m.contains('(') && m != "Every Material" && !m.contains("Citizen"))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A crafting line's Material: the words before a multiplier (" x ...") or a trailing count.
fn material_of(line: &str) -> &str {
    let head = line.split(" x ").next().unwrap_or(line);
    head.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ' || c == 'x')
}

/// Every item and citation, with a name index for the look-ups.
#[derive(Clone, Debug, Default)]
pub struct ItemData {
    pub items: Vec<Item>,
    pub citations: Vec<Citation>,
    index: NameIndex,
    /// The materials the items name, made with the index: the story draws from them twice per
    /// scenario, and listing them then cost more than the rest of its text.
    materials: Vec<String>,
    /// The items the story draws from, made with the index (see [`ItemPicks`]).
    picks: ItemPicks,
}

/// The items' places in `items` for the story's picks, in file order, so a pick is one draw on
/// a list: the same draw (`below(count)`) and the same item as the filtered walk over every
/// item it replaces, which ran twice per pick.
#[derive(Clone, Debug, Default)]
struct ItemPicks {
    rare: Vec<u32>,
    common: Vec<u32>,
    /// A Common Item a shop sells (not Rare Arms) with its Cost in Mg.
    sellable: Vec<(u32, u32)>,
}

impl ItemPicks {
    fn of(items: &[Item]) -> ItemPicks {
        let mut p = ItemPicks::default();
        for (i, item) in (0u32..).zip(items) {
            if item.category.rare() {
                p.rare.push(i);
            } else {
                p.common.push(i);
            }
            let sold = !item.category.rare() && item.category != ItemCategory::RareArms;
            if let (true, Cost::Mg(n)) = (sold, item.cost) {
                p.sellable.push((i, n));
            }
        }
        p
    }
}

impl ItemData {
    /// Builds the name index (the first record of a name wins; validation refuses repeats).
    pub fn index(&mut self) {
        self.index = NameIndex::new(self.items.iter().map(|t| t.name.as_str()));
        self.materials = materials_of(&self.items);
        self.picks = ItemPicks::of(&self.items);
    }

    /// The places in `items` of the Rare Items (`rare`) or the Common Items, in file order.
    pub fn of_rarity(&self, rare: bool) -> &[u32] {
        if rare { &self.picks.rare } else { &self.picks.common }
    }

    /// The Common Items a shop sells, as places in `items` with their Cost in Mg, in file order.
    pub fn sellable(&self) -> &[(u32, u32)] {
        &self.picks.sellable
    }

    /// The materials the items name ("Iron", "Reagent"...), sorted, once each.
    pub fn materials(&self) -> &[String] {
        &self.materials
    }

    pub fn item(&self, name: &str) -> Option<&Item> {
        self.index.get(name, |i| self.items[i].name.as_str()).map(|i| &self.items[i])
    }

    /// What `text` cites, in the order of `self.citations`: the tables, then the items. Longer
    /// phrases are matched first and their words used up, so "Rare Arms Item" never also counts
    /// as "Arms Item". A phrase matches whole words only.
    pub fn cited_by<'a>(&'a self, text: &str) -> (Vec<&'a str>, Vec<&'a str>) {
        let mut order: Vec<usize> = (0..self.citations.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.citations[i].phrase.len()));
        let mut left = text.to_string();
        let mut hit = vec![false; self.citations.len()];
        for i in order {
            let phrase = self.citations[i].phrase.as_str();
            while let Some(at) = find_word(&left, phrase) {
                hit[i] = true;
                left.replace_range(at..at + phrase.len(), &" ".repeat(phrase.len()));
            }
        }
        let cited = || self.citations.iter().zip(&hit).filter(|(_, h)| **h).map(|(c, _)| c);
        let tables = cited().flat_map(|c| c.tables.iter().map(String::as_str)).collect();
        let items = cited().flat_map(|c| c.items.iter().map(String::as_str)).collect();
        (tables, items)
    }
}

/// Where `phrase` stands in `text` as whole words (no letter or digit on either side).
fn find_word(text: &str, phrase: &str) -> Option<usize> {
    if phrase.is_empty() {
        return None;
    }
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut from = 0;
    while let Some(i) = text[from..].find(phrase) {
        let at = from + i;
        let end = at + phrase.len();
        if !word(text[..at].chars().next_back()) && !word(text[end..].chars().next()) {
            return Some(at);
        }
        from = at + phrase.len().max(1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(phrases: &[(&str, &str)]) -> ItemData {
        ItemData {
            items: Vec::new(),
            citations: phrases
                .iter()
                .map(|(p, t)| Citation {
                    phrase: p.to_string(),
                    tables: vec![t.to_string()],
                    items: vec![],
                    file: String::new(),
                })
                .collect(),
            index: NameIndex::default(),
            materials: Vec::new(),
            picks: ItemPicks::default(),
        }
    }

    #[test]
    fn a_longer_phrase_uses_up_the_shorter_one_inside_it() {
        let d = data(&[("Arms Item", "arms"), ("Rare Arms Item", "rare")]);
        assert_eq!(d.cited_by("1 random Rare Arms Item").0, vec!["rare"]);
        assert_eq!(d.cited_by("1 random Arms Item, or a Rare Arms Item").0, vec!["arms", "rare"]);
    }

    #[test]
    fn a_phrase_matches_whole_words_only() {
        let d = data(&[("Map", "map")]);
        assert!(d.cited_by("Mapping the Maps").0.is_empty());
        assert_eq!(d.cited_by("a Map, drawn").0, vec!["map"]);
    }
}

#[cfg(test)]
mod loader_tests {
    use crate::tables::Tables;

    fn built_in() -> Tables {
        Tables::embedded_from_toml().expect("the built-in tables load")
    }

    /// A built-in item table's rows and distinct items.
    fn item_table_counts(t: &Tables, name: &str) -> (usize, usize) {
        let table = t.roll_table(name).expect("item table");
        let mut names: Vec<&str> = table.rows.iter().filter_map(|r| r.result.as_deref()).collect();
        names.sort_unstable();
        names.dedup();
        (table.rows.len(), names.len())
    }

    #[test]
    fn each_item_table_has_its_rows_and_items_and_every_item_is_on_its_own_table_once() {
        use super::ItemCategory::*;
        let t = built_in();
        let expected = [
            ("myk.items.arms", Arms, 21, 15),
            ("myk.items.lifestyle", Lifestyle, 21, 15),
            ("myk.items.recovery", Recovery, 21, 15),
            ("myk.items.exploration", Exploration, 21, 15),
            ("myk.items.rare_arms", RareArms, 36, 33),
            ("myk.items.rare_general", RareGeneral, 36, 33),
        ];
        for (name, category, rows, items) in expected {
            assert_eq!(item_table_counts(&t, name), (rows, items), "{name}");
            let table = t.roll_table(name).expect("item table");
            assert_eq!(table.yields, Some(crate::tables::roll::Collection::Item), "{name}");
            for row in &table.rows {
                let item = row.result.as_deref().expect("a name");
                assert_eq!(t.items.item(item).expect("a record").category, category, "{name}: {item}");
            }
            let on_table = t.items.items.iter().filter(|i| i.category == category).count();
            assert_eq!(on_table, items, "{name}: every {category:?} item is on the table");
        }
        assert_eq!(t.items.items.len(), 126);
        let potion = t.items.item("Potion").expect("Potion");
        assert_eq!((potion.cost_text(), potion.level.to_string()), ("3".to_string(), "0-10".to_string()));
        assert_eq!(t.items.item("Excalibur").expect("Excalibur").cost_text(), "(10)");
        assert_eq!(t.items.item("Love").expect("Love").cost_text(), "-");
    }

    #[test]
    fn a_rare_table_reads_its_two_dice_in_order() {
        let t = built_in();
        let table = t.roll_table("myk.items.rare_arms").expect("rare arms");
        assert_eq!(table.dice, crate::dice::DiceKind::D6D6);
        assert_eq!(table.row_for(61).and_then(|r| r.result.as_deref()), Some("Reaper"));
        assert_eq!(table.row_for(16).and_then(|r| r.result.as_deref()), Some("Scutum"));
    }

    #[test]
    fn the_four_random_word_tables_cover_d66_with_distinct_words() {
        let t = built_in();
        for n in 1..=4 {
            let table = t.roll_table(&format!("myk.words.{n}")).expect("word table");
            let mut words: Vec<&str> = table.rows.iter().filter_map(|r| r.result.as_deref()).collect();
            assert_eq!(words.len(), 21);
            words.sort_unstable();
            words.dedup();
            assert_eq!(words.len(), 21, "table {n} repeats a word");
        }
    }

    const ITEM: &str = "[[item]]\nname = \"Thing\"\ncategory = \"recovery\"\ncost = 1\ntype = \"plan\"\n\
                        target = \"Self\"\ncheck = \"None\"\nlevel = \"none\"\nmaterials = [\"Wood\"]\n\
                        effect = \"Heals.\"\nsource = \"l.1\"\n";

    fn load(text: &str) -> String {
        Tables::from_files("test".into(), &[("i.toml".into(), text.into())])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_typo_in_an_item_field_is_named() {
        let e = load(&ITEM.replace("effect =", "efect ="));
        assert!(e.contains("`i.toml`") && e.contains("efect"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn a_bad_item_value_or_a_missing_piece_is_named() {
        let e = load(&ITEM.replace("cost = 1", "cost = \"cheap\""));
        assert!(e.contains("cost `cheap`"), "{e}");
        let e = load(&ITEM.replace("level = \"none\"", "level = \"ten\""));
        assert!(e.contains("level `ten`"), "{e}");
        let e = load(&ITEM.replace("materials = [\"Wood\"]\n", ""));
        assert_eq!(e, "`i.toml`: item `Thing`: has no `materials`; set `craftable = false` if it cannot be crafted");
        let e = load(&format!("{ITEM}[[citation]]\nphrase = \"Thing\"\ntables = [\"no.such\"]\n"));
        assert_eq!(e, "`i.toml`: citation `Thing`: names table `no.such`, which is not in the tables");
        let e = load(&format!("{ITEM}{ITEM}"));
        assert_eq!(e, "`i.toml`: item `Thing`: is defined twice in this file");
    }

    #[test]
    fn an_item_table_must_name_items_that_exist() {
        let e = load(&format!(
            "{ITEM}[[roll]]\nname = \"x\"\ntitle = \"X\"\ndice = \"1D6\"\nyields = \"item\"\n\
             rows = [{{roll = \"1-5\", result = \"Thing\"}}, {{roll = \"6\", result = \"Potoin\"}}]\n"
        ));
        assert_eq!(e, "`i.toml`: table `x`: row `6` yields `Potoin`, which is not an item in the tables");
    }
}
