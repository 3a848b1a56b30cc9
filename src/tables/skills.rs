//! MYK skill records: every skill a bestiary entry names ("Hoick (Melee)", "Breath (Monster)"),
//! with its timing and its effect in our own words, so the booklet never sends the GM to the book.
//!
//! Monsters write a skill as `Name (Group)`; a record holds the name and the group apart. Look-ups
//! ignore case, and a bare name finds every group that has a skill of that name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::tables::name_index::NameIndex;

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
    /// Each record's own label with what [`SkillData::for_label`] finds for it, listed at the
    /// first look-up (a run that looks up no label, as most do, never pays for the list).
    labels: LabelCache,
}

/// The label list, made at the first look-up. It prints the same made or not, so two loads of
/// the same tables print alike whichever of them has looked a label up.
#[derive(Clone, Default)]
struct LabelCache(std::sync::OnceLock<Labels>);

impl std::fmt::Debug for LabelCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LabelCache")
    }
}

/// Each record's own label (`Name (Group)` as written) with the entry the lower-cased index gives
/// it, so a monster's label written as its record writes it is found by one hash and one
/// comparison instead of two lower-cased copies and a map walk.
#[derive(Clone, Debug, Default)]
struct Labels {
    list: Vec<(String, Option<SkillSlot>)>,
    index: NameIndex,
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
        self.labels = LabelCache::default();
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
        let labels = self.labels.0.get_or_init(|| self.record_labels());
        let slot = match labels.index.get(label, |i| &labels.list[i].0) {
            Some(i) => labels.list[i].1,
            None => self.slot_for_label(label),
        };
        slot.map(|slot| self.slot(slot))
    }

    /// Every record's label with its entry, for [`SkillData::for_label`].
    fn record_labels(&self) -> Labels {
        let labels = self.skills.iter().map(Skill::label).chain(self.unknown.iter().map(UnknownSkill::label));
        let list: Vec<(String, Option<SkillSlot>)> = labels
            .map(|l| {
                let slot = self.slot_for_label(&l);
                (l, slot)
            })
            .collect();
        let index = NameIndex::new(list.iter().map(|(l, _)| l.as_str()));
        Labels { list, index }
    }

    /// [`SkillData::for_label`]'s entry, looked up in the lower-cased index.
    fn slot_for_label(&self, label: &str) -> Option<SkillSlot> {
        let (name, group) = split_label(label);
        self.index.get(&key(name, group?)).copied()
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
            labels: LabelCache::default(),
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

    /// The label look-up by a record's own label finds what the lower-cased index finds: for
    /// every label of the built-in bestiary and skill records in three letter cases, and for a
    /// record that repeats another's label in other letters (the first record wins in both).
    #[test]
    fn a_label_is_found_as_the_lower_cased_index_finds_it() {
        let same = |d: &SkillData, label: &str| {
            let fast = d.for_label(label).map(|r| r.label());
            let slow = d.slot_for_label(label).map(|slot| d.slot(slot).label());
            assert_eq!(fast, slow, "{label}");
            fast.is_some()
        };
        let mut d = data();
        d.unknown.push(UnknownSkill { name: "hoick".into(), group: "MELEE".into(), reason: "again".into() });
        d.index();
        assert!(same(&d, "hoick (MELEE)"));
        let t = crate::tables::Tables::embedded().expect("embedded tables load");
        let skills = &t.myk.skills;
        let records = skills.skills.iter().map(Skill::label).chain(skills.unknown.iter().map(UnknownSkill::label));
        let monsters = t.myk.monsters.iter().flat_map(|m| m.skills.iter().map(|l| l.to_string()));
        let mut found = 0;
        for label in records.chain(monsters) {
            for l in [label.clone(), label.to_lowercase(), label.to_uppercase()] {
                found += usize::from(same(skills, &l));
            }
        }
        assert!(found > 100, "only {found} labels found");
    }
}
