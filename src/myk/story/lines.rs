//! Which of a personality's lines (and which want) an NPC of the cast can say (issue 46): a line
//! fits its speaker when none of its slots would name the speaker (a captive asking the court
//! about `{target}`, itself; the speaker names itself as `{npc}`), and fits the objective when
//! its kind is among the line's kinds (`kind_lines`; "No hurry" is no line for a race).
//!
//! The generator draws only fitting lines ([`lines_for`]); `check` refuses a stored line or want
//! that names its own speaker through a slot ([`check`]).

use crate::check::Violation;
use crate::myk::model::Scenario;
use crate::myk::story::Fill;
use crate::tables::story::{Personality, StoryText, fits};
use crate::text::Values;

/// Whether `text` names `speaker` through one of its slots (other than `{npc}`, the speaker's
/// own), as the scenario's values fill it.
pub fn names_self(text: &str, speaker: &str, values: &Fill) -> bool {
    crate::text::slots(text)
        .filter(|s| s.name != "npc")
        .any(|s| values.value(s.name, s.arg).is_some_and(|v| !v.is_empty() && v.as_ref() == speaker))
}

/// The lines of personality `p` that `speaker` can say in an objective of kind `kind`, in pool
/// order: the plain lines, then the kind lines for `kind`, without those that name the speaker.
pub fn lines_for<'p>(p: &'p Personality, speaker: &str, kind: &str, values: &Fill) -> Vec<&'p StoryText> {
    let kind_lines = p.kind_lines.iter().filter(|l| fits(&l.kinds, kind)).map(|l| &l.text);
    p.lines.iter().chain(kind_lines).filter(|l| !names_self(l.as_str(), speaker, values)).collect()
}

/// `check`'s rule: no NPC's line or want names the NPC itself through a slot. One line per NPC.
pub fn check(s: &Scenario, v: &mut Vec<Violation>) {
    let values = Fill::of(s);
    for n in &s.cast {
        for (what, text) in [("line", &n.line), ("want", &n.wants)] {
            if names_self(text, &n.name, &values) {
                v.push(Violation::new(
                    format!("cast {}", n.name),
                    "cast.speaks-of-self",
                    format!(
                        "{}'s {what} `{text}` names {} in the third person; use `{{npc}}` or another line",
                        n.name, n.name
                    ),
                ));
            }
        }
    }
}
