//! Roll tables: dice, rows keyed by outcome or range, and what a row yields.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, DiceKind};
use crate::tables::shared::SharedStr;

/// A table rolled with 1D6, 2D6 or D66.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RollTable {
    /// Unique dotted name, e.g. `myk.traps.classic`.
    pub name: String,
    /// The book's title, e.g. "Classic Trap Table".
    pub title: String,
    /// The shorter name texts cite a family of tables by ("Rest Table" for the Wit, Charisma,
    /// Quest and Warfare Rest Tables): the player picks one, so a citation of it needs them all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cited_as: Option<String>,
    pub dice: DiceKind,
    /// When set, every `result` names a record of this collection (e.g. `trap`).
    #[serde(default)]
    pub yields: Option<Collection>,
    /// Where the table stands in the seed text, e.g. "003 l.5643".
    #[serde(default)]
    pub source: Option<String>,
    /// A short note for `tables show` (our words).
    #[serde(default)]
    pub note: Option<String>,
    pub rows: Vec<Row>,
    /// Outcome → row index + 1 (0: no row), filled by `fill_slots` so a roll is one lookup.
    #[serde(skip)]
    slots: Vec<u8>,
    /// Per row: position + 1 in `Tables::rolls` of the table its `table` names (0: none), filled
    /// when the tables are built so following a reference finds no name.
    #[serde(skip)]
    links: Vec<u32>,
}

/// The record collections a roll table can yield names from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Collection {
    Trap,
    Base,
    Monster,
    WeakPoint,
    Item,
}

impl Collection {
    pub fn label(self) -> &'static str {
        match self {
            Collection::Trap => "trap",
            Collection::Base => "base",
            Collection::Monster => "monster",
            Collection::WeakPoint => "weak point",
            Collection::Item => "item",
        }
    }
}

/// One row: the outcomes it covers and what it yields (exactly one of `result`, `table`, `groups`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// One outcome ("11", "4") or an inclusive range in table order ("2-3", "14-16").
    pub roll: String,
    /// Text, or a record name when the table `yields` a collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<SharedStr>,
    /// Roll on this other table instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Monster groups (random encounter tables).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
}

/// A monster group on a random encounter table.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub monster: SharedStr,
    pub position: Position,
    pub count: Count,
}

/// Where a group stands on the battlefield.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    Vanguard,
    Rearguard,
    Encampment,
}

impl Position {
    pub fn label(self) -> &'static str {
        match self {
            Position::Vanguard => "Vanguard",
            Position::Rearguard => "Rearguard",
            Position::Encampment => "Encampment",
        }
    }
}

/// How many monsters a group has: a number, the court's size, or half of it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum Count {
    Fixed(u32),
    Rule(CountRule),
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CountRule {
    /// As many as the court has members.
    Court,
    /// Half the court's members, rounded down, at least 1.
    HalfCourt,
}

impl Count {
    /// The number for a court of `size` members.
    pub fn resolve(self, size: u32) -> u32 {
        match self {
            Count::Fixed(n) => n,
            Count::Rule(CountRule::Court) => size.max(1),
            Count::Rule(CountRule::HalfCourt) => (size / 2).max(1),
        }
    }

    pub fn label(self) -> String {
        match self {
            Count::Fixed(n) => n.to_string(),
            Count::Rule(CountRule::Court) => "court size".into(),
            Count::Rule(CountRule::HalfCourt) => "half the court size".into(),
        }
    }
}

impl Group {
    pub fn label(&self) -> String {
        format!("{}: {} x {}", self.position.label(), self.monster, self.count.label())
    }
}

impl Row {
    /// What the row says, in one line.
    pub fn text(&self) -> String {
        if let Some(r) = &self.result {
            r.as_str().to_owned()
        } else if let Some(t) = &self.table {
            format!("roll on `{t}`")
        } else {
            self.groups.iter().map(Group::label).collect::<Vec<_>>().join("; ")
        }
    }
}

impl RollTable {
    /// The outcomes a row covers, or why it names none. Ranges follow the table's outcome order.
    pub fn outcomes_of(&self, row: &Row) -> Result<Vec<u32>, String> {
        let all = self.dice.outcomes();
        let (i, j) = self.span(&all, row)?;
        Ok(all[i..=j].to_vec())
    }

    /// Where a row's outcomes lie in `all` (the dice's outcomes in table order): the first and last
    /// index, or why the row's `roll` names none.
    fn span(&self, all: &[u32], row: &Row) -> Result<(usize, usize), String> {
        let parse = |s: &str| -> Result<usize, String> {
            let n: u32 = s.trim().parse().map_err(|_| format!("roll `{}` is not a number or range", row.roll))?;
            all.iter()
                .position(|&x| x == n)
                .ok_or_else(|| format!("roll `{}` is not an outcome of {}", row.roll, self.dice))
        };
        match row.roll.split_once('-') {
            None => parse(&row.roll).map(|i| (i, i)),
            Some((a, b)) => {
                let (i, j) = (parse(a)?, parse(b)?);
                if i > j {
                    return Err(format!("roll `{}` runs backwards", row.roll));
                }
                Ok((i, j))
            }
        }
    }

    /// The row for an outcome (validation guarantees exactly one).
    pub fn row_for(&self, outcome: u32) -> Option<&Row> {
        match self.slots.get(outcome as usize) {
            Some(&i) if i > 0 => self.rows.get(i as usize - 1),
            Some(_) => None,
            None if self.slots.is_empty() => {
                self.rows.iter().find(|r| self.outcomes_of(r).is_ok_and(|o| o.contains(&outcome)))
            }
            None => None,
        }
    }

    /// Rolls the table's dice: the outcome and its row.
    pub fn roll<'a>(&'a self, dice: &mut Dice) -> (u32, &'a Row) {
        let (outcome, i) = self.roll_index(dice);
        (outcome, &self.rows[i])
    }

    /// [`RollTable::roll`], giving the row's position: the same dice, the same row.
    pub fn roll_index(&self, dice: &mut Dice) -> (u32, usize) {
        loop {
            let outcome = dice.roll_kind(self.dice);
            let at = match self.slots.get(outcome as usize) {
                Some(&i) if i > 0 && (i as usize) <= self.rows.len() => Some(i as usize - 1),
                Some(_) => None,
                None if self.slots.is_empty() => {
                    self.rows.iter().position(|r| self.outcomes_of(r).is_ok_and(|o| o.contains(&outcome)))
                }
                None => None,
            };
            if let Some(i) = at {
                return (outcome, i);
            }
        }
    }

    /// The position in `Tables::rolls` of the table row `row` refers to, once resolved.
    pub fn link(&self, row: usize) -> Option<usize> {
        match self.links.get(row) {
            Some(&i) if i > 0 => Some(i as usize - 1),
            _ => None,
        }
    }

    /// Records where each row's `table` reference lies (see [`RollTable::link`]).
    pub fn set_links(&mut self, links: Vec<u32>) {
        self.links = links;
    }

    /// Checks that the rows cover every outcome of the dice exactly once, and indexes them.
    pub fn check_coverage(&mut self) -> Result<(), String> {
        let all = self.dice.outcomes();
        let mut seen: Vec<u32> = Vec::new();
        if self.rows.len() > 250 {
            return Err("a table has at most 250 rows".into());
        }
        for row in &self.rows {
            let filled = usize::from(row.result.is_some())
                + usize::from(row.table.is_some())
                + usize::from(!row.groups.is_empty());
            if filled != 1 {
                return Err(format!("row `{}` must have exactly one of `result`, `table`, `groups`", row.roll));
            }
            for o in self.outcomes_of(row)? {
                if seen.contains(&o) {
                    return Err(format!("outcome {o} is covered twice"));
                }
                seen.push(o);
            }
        }
        let missing: Vec<String> = all.iter().filter(|o| !seen.contains(o)).map(u32::to_string).collect();
        if !missing.is_empty() {
            return Err(format!(
                "no row for {} {}",
                if missing.len() == 1 { "outcome" } else { "outcomes" },
                missing.join(", ")
            ));
        }
        self.fill_slots();
        Ok(())
    }

    /// Indexes the rows by outcome, so a roll is one lookup. Alone (without `check_coverage`) only
    /// for tables already checked: the built-in ones, checked when the binary was built.
    pub fn fill_slots(&mut self) {
        let all = self.dice.outcomes();
        let mut slots = vec![0u8; 67];
        for (i, row) in self.rows.iter().enumerate() {
            let Ok((first, last)) = self.span(&all, row) else { continue };
            for &o in &all[first..=last] {
                if let Some(slot) = slots.get_mut(o as usize) {
                    *slot = i as u8 + 1;
                }
            }
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(dice: DiceKind, rolls: &[&str]) -> RollTable {
        RollTable {
            name: "t".into(),
            title: "T".into(),
            cited_as: None,
            dice,
            yields: None,
            source: None,
            note: None,
            slots: Vec::new(),
            links: Vec::new(),
            rows: rolls
                .iter()
                .map(|r| Row { roll: r.to_string(), result: Some(format!("r{r}").into()), table: None, groups: vec![] })
                .collect(),
        }
    }

    #[test]
    fn a_d66_range_follows_table_order() {
        let mut t = table(DiceKind::D66, &["11-16", "22-36", "44-66"]);
        assert_eq!(t.outcomes_of(&t.rows[1]).unwrap(), vec![22, 23, 24, 25, 26, 33, 34, 35, 36]);
        assert!(t.check_coverage().is_ok());
    }

    #[test]
    fn a_table_must_cover_every_outcome_once() {
        let mut gap = table(DiceKind::D6, &["1-2", "4-6"]);
        assert_eq!(gap.check_coverage().unwrap_err(), "no row for outcome 3");
        let mut twice = table(DiceKind::D6, &["1-3", "3-6"]);
        assert_eq!(twice.check_coverage().unwrap_err(), "outcome 3 is covered twice");
        let mut off = table(DiceKind::D66, &["17"]);
        assert_eq!(off.check_coverage().unwrap_err(), "roll `17` is not an outcome of D66");
        let mut two = table(DiceKind::TwoD6, &["2-12"]);
        assert!(two.check_coverage().is_ok());
    }

    #[test]
    fn counts_resolve_against_the_court() {
        assert_eq!(Count::Rule(CountRule::Court).resolve(5), 5);
        assert_eq!(Count::Rule(CountRule::HalfCourt).resolve(5), 2);
        assert_eq!(Count::Rule(CountRule::HalfCourt).resolve(1), 1);
        assert_eq!(Count::Fixed(1).resolve(6), 1);
    }
}
