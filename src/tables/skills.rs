//! MYK skill records: every skill a bestiary entry names ("Hoick (Melee)", "Breath (Monster)"),
//! with its timing and its effect in our own words, so the booklet never sends the GM to the book.
//!
//! Monsters write a skill as `Name (Group)`; a record holds the name and the group apart. Look-ups
//! ignore case, and a bare name finds every group that has a skill of that name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One skill: name and group as the book prints them, the rest summarised.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    pub name: String,
    /// The skill's type in the book: Monster, Melee, Class, Astrology...
    pub group: String,
    /// Permanent, Support, Assist, Interrupt...
    pub timing: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// What it does, in our own words.
    pub effect: String,
    /// Where it stands in seed 003, e.g. "l.6639".
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The book says its effect cannot be prevented and overrides every other rule (Public
    /// Enemy, seed 003 l.6570): no weak point seals it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cannot_be_prevented: bool,
}

impl Skill {
    /// `Name (Group)`, the way monsters name it.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.group)
    }
}

/// A skill a monster names whose effect no source gives; listed, never invented.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UnknownSkill {
    pub name: String,
    pub group: String,
    pub reason: String,
}

impl UnknownSkill {
    pub fn label(&self) -> String {
        format!("{} ({})", self.name, self.group)
    }
}

/// What a look-up found: a record, or an entry saying why there is none.
#[derive(Clone, Copy, Debug)]
pub enum SkillRef<'a> {
    Known(&'a Skill),
    Unknown(&'a UnknownSkill),
}

impl SkillRef<'_> {
    pub fn label(&self) -> String {
        match self {
            SkillRef::Known(s) => s.label(),
            SkillRef::Unknown(u) => u.label(),
        }
    }
}

/// Splits `Hoick (Melee)` into (`Hoick`, Some(`Melee`)); a bare name has no group.
pub fn split_label(label: &str) -> (&str, Option<&str>) {
    let t = label.trim();
    if let Some(body) = t.strip_suffix(')')
        && let Some(open) = body.rfind(" (")
    {
        return (body[..open].trim(), Some(body[open + 2..].trim()));
    }
    (t, None)
}

fn key(name: &str, group: &str) -> (String, String) {
    (name.trim().to_lowercase(), group.trim().to_lowercase())
}

/// The skill records and the unknown entries, indexed by lower-cased (name, group).
#[derive(Clone, Debug, Default)]
pub struct SkillData {
    pub skills: Vec<Skill>,
    pub unknown: Vec<UnknownSkill>,
    index: BTreeMap<(String, String), SkillSlot>,
}

#[derive(Clone, Copy, Debug)]
enum SkillSlot {
    Known(usize),
    Unknown(usize),
}

impl SkillData {
    /// Builds the index. Returns the labels defined more than once (records and unknowns together).
    pub fn index(&mut self) -> Vec<String> {
        let mut twice = Vec::new();
        self.index.clear();
        let known = self.skills.iter().enumerate().map(|(i, s)| (key(&s.name, &s.group), SkillSlot::Known(i)));
        let unknown = self.unknown.iter().enumerate().map(|(i, s)| (key(&s.name, &s.group), SkillSlot::Unknown(i)));
        let entries: Vec<_> = known.chain(unknown).collect();
        let mut again = Vec::new();
        for (k, slot) in entries {
            match self.index.entry(k) {
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(slot);
                }
                std::collections::btree_map::Entry::Occupied(_) => again.push(slot),
            }
        }
        twice.extend(again.into_iter().map(|slot| self.slot(slot).label()));
        twice
    }

    fn slot(&self, slot: SkillSlot) -> SkillRef<'_> {
        match slot {
            SkillSlot::Known(i) => SkillRef::Known(&self.skills[i]),
            SkillSlot::Unknown(i) => SkillRef::Unknown(&self.unknown[i]),
        }
    }

    /// The entry for a name with or without its group, any case. A bare name finds every group's
    /// skill of that name, in group order.
    pub fn find(&self, label: &str) -> Vec<SkillRef<'_>> {
        let (name, group) = split_label(label);
        if let Some(g) = group
            && let Some(&slot) = self.index.get(&key(name, g))
        {
            return vec![self.slot(slot)];
        }
        // "Hoick" or a parenthesised part that is not a group: match the whole text as a name too.
        let whole = label.trim().to_lowercase();
        let bare = name.to_lowercase();
        self.index
            .iter()
            .filter(|((n, _), _)| (group.is_none() && *n == bare) || *n == whole)
            .map(|(_, &slot)| self.slot(slot))
            .collect()
    }

    /// The entry for a monster's `Name (Group)`, exactly one or none.
    pub fn for_label(&self, label: &str) -> Option<SkillRef<'_>> {
        let (name, group) = split_label(label);
        self.index.get(&key(name, group?)).map(|&slot| self.slot(slot))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> SkillData {
        let mut d = SkillData {
            skills: vec![
                Skill {
                    name: "Hoick".into(),
                    group: "Melee".into(),
                    timing: "Support".into(),
                    target: None,
                    check: None,
                    effect: "moves a foe".into(),
                    source: "l.1".into(),
                    note: None,
                    cannot_be_prevented: false,
                },
                Skill {
                    name: "Analyze".into(),
                    group: "Science".into(),
                    timing: "Interrupt".into(),
                    target: None,
                    check: None,
                    effect: "cancels a skill".into(),
                    source: "l.2".into(),
                    note: None,
                    cannot_be_prevented: false,
                },
            ],
            unknown: vec![UnknownSkill { name: "Analyze".into(), group: "Monster".into(), reason: "lost".into() }],
            index: BTreeMap::new(),
        };
        assert!(d.index().is_empty());
        d
    }

    #[test]
    fn a_label_splits_into_name_and_group() {
        assert_eq!(split_label("Hoick (Melee)"), ("Hoick", Some("Melee")));
        assert_eq!(split_label(" Hoick "), ("Hoick", None));
        assert_eq!(split_label("Command XX (Monster)"), ("Command XX", Some("Monster")));
    }

    #[test]
    fn a_skill_is_found_in_any_case_with_or_without_its_group() {
        let d = data();
        for q in ["Hoick", "hoick", "HOICK (melee)", "hoick (Melee)"] {
            let found = d.find(q);
            assert_eq!(found.len(), 1, "{q}");
            assert_eq!(found[0].label(), "Hoick (Melee)");
        }
        let both: Vec<String> = d.find("analyze").iter().map(SkillRef::label).collect();
        assert_eq!(both, ["Analyze (Monster)", "Analyze (Science)"]);
        assert!(d.find("Hoick (Ranged)").is_empty());
    }

    #[test]
    fn the_same_skill_twice_is_reported() {
        let mut d = data();
        d.unknown.push(UnknownSkill { name: "hoick".into(), group: "MELEE".into(), reason: "again".into() });
        assert_eq!(d.index(), ["hoick (MELEE)"]);
    }
}
