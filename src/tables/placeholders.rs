//! The placeholders table texts may hold (`{map}`, `{ruler}`, ...): a scenario fills them in;
//! `tables show` and `tables roll` print the text as written and say what each one stands for.

/// Each placeholder and what fills it in a scenario.
const MEANINGS: [(&str, &str); 8] = [
    ("{map}", "the map's name"),
    ("{room}", "a room's name"),
    ("{ruler}", "the ruler's name"),
    ("{kingdom}", "the court's kingdom"),
    ("{npc}", "the first cast member's name"),
    ("{place}", "the fortress's place name"),
    ("{core}", "the Fortress Core's name"),
    ("{damage}", "the trap's damage dice, raised with the party's CL"),
];

/// One line saying what the placeholders in `text` stand for, or None if it holds none.
pub fn explain(text: &str) -> Option<String> {
    let used: Vec<String> =
        MEANINGS.iter().filter(|(p, _)| text.contains(p)).map(|(p, m)| format!("{p} is {m}")).collect();
    (!used.is_empty()).then(|| format!("(filled in when a scenario is made: {})", used.join("; ")))
}
