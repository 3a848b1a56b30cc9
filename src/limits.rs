//! The largest scenario dungeonsmith accepts, in one place. Every scenario file read (`check`,
//! `render`, `reroll`, `fix`, `--from`) is held to these limits before anything is built or
//! drawn, so no accepted input costs more than the ceiling the README's "Limits" section states
//! (measured by the `limits::` tests). Each limit is far above anything the generators make or a
//! GM types: the generators make at most 20 maps and 40 areas, names under 60 characters and text
//! under 200.
//!
//! The check walks the parsed JSON document rather than the typed model, so one walk covers every
//! field of both systems (and of every format version) and names the field at fault by its path.

use serde_json::Value;

/// Most areas in a fortress (the area map is drawn for up to this many).
pub const AREAS: usize = 500;
/// Most gates in a fortress (four per area at the most areas).
pub const GATES: usize = 2000;
/// Most maps in a Make You Kingdom scenario (twice the generator's `--maps` maximum).
pub const MAPS: usize = 40;
/// Most entries in any other list (enemies, clues, skills, warnings...).
pub const LIST: usize = 1000;
/// Most characters in a name or title (`name`, `title`): a name is printed on one line.
pub const NAME_CHARS: usize = 200;
/// Most characters in any other text (descriptions, effects, the trailer...).
pub const TEXT_CHARS: usize = 2000;

/// Most of any one count (`count`: monsters in a group, members of an enemy; `uses` of a damaged
/// gate; items each monster carries; the party): the generators make at most 9. A count
/// multiplies what is drawn (one Udonarium piece per monster), so it is bounded before any work.
pub const COUNT: u64 = 100;
/// Most monsters and members in a scenario, every `count` added up (one piece each on the
/// Udonarium table): the generators make under 400 at 20 maps.
pub const MONSTERS: u64 = 2000;

/// Most bytes a format-1 Make You Kingdom file's upgrade compares while it infers what its clues
/// reveal (each clue's text against the distinct trap and ruler names of the room it names,
/// `crate::format`): a file dungeonsmith 0.1.0 wrote needs well under a million, and this many
/// take a fraction of a second. Past it the file is refused in one line rather than searched for
/// minutes (issue 50: 10 maps of long clues and many traps took 48 s).
pub const UPGRADE_BYTES: u64 = 64 << 20;

/// The numbers that multiply what a render draws, each at most `COUNT`.
const MULTIPLIERS: [&str; 5] = ["count", "uses", "common_items", "rare_items", "party"];

/// The first limit `doc` exceeds, as the message's text (e.g. "`areas`: 501 entries; at most
/// 500"), or `None` when it is within every limit.
pub fn exceeded(doc: &Value) -> Option<String> {
    let mut path = String::new();
    let mut monsters = 0;
    walk(doc, "", &mut path, 0, &mut monsters)
}

/// The message for number `n` under `key` at `path`, when it passes a count limit; `monsters`
/// adds up the counts met so far.
fn number(n: &serde_json::Number, key: &str, path: &str, monsters: &mut u64) -> Option<String> {
    if !MULTIPLIERS.contains(&key) {
        return None;
    }
    // A count past u64 (or a fraction) is refused by its size here, its type later.
    let big = n.as_f64().is_some_and(|f| f > COUNT as f64);
    if big {
        return Some(format!("`{path}`: {n}; at most {COUNT} (a count multiplies what is drawn)"));
    }
    if key == "count" {
        *monsters += n.as_u64().unwrap_or(0);
        if *monsters > MONSTERS {
            return Some(format!(
                "`{path}`: the counts add up to {monsters} here; at most {MONSTERS} monsters and members in a scenario"
            ));
        }
    }
    None
}

/// The most entries the list under `key` may hold.
fn list_limit(key: &str, depth: usize) -> (usize, &'static str) {
    match (key, depth) {
        ("areas", 1) => (AREAS, "areas in a fortress"),
        ("gates", 1) => (GATES, "gates in a fortress"),
        ("maps", 1) => (MAPS, "maps in a scenario"),
        _ => (LIST, "entries in a list"),
    }
}

fn walk(v: &Value, key: &str, path: &mut String, depth: usize, monsters: &mut u64) -> Option<String> {
    match v {
        Value::Number(n) => number(n, key, path, monsters),
        Value::String(s) => {
            let (most, what) = if matches!(key, "name" | "title") {
                (NAME_CHARS, "characters in a name")
            } else {
                (TEXT_CHARS, "characters in a text")
            };
            // Bytes bound characters from above: most strings need no count.
            if s.len() > most {
                let n = s.chars().count();
                if n > most {
                    return Some(format!("`{path}`: {n} characters; at most {most} {what}"));
                }
            }
            None
        }
        Value::Array(items) => {
            let (most, what) = list_limit(key, depth);
            if items.len() > most {
                return Some(format!("`{path}`: {} entries; at most {most} {what}", items.len()));
            }
            let len = path.len();
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                let found = walk(item, key, path, depth + 1, monsters);
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        Value::Object(fields) => {
            let len = path.len();
            for (k, item) in fields {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                let found = walk(item, k, path, depth + 1, monsters);
                path.truncate(len);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_fortress_of_more_areas_than_the_limit_is_named() {
        let areas: Vec<Value> = (0..=AREAS).map(|i| json!({ "id": i })).collect();
        let m = exceeded(&json!({ "system": "nw3", "areas": areas })).unwrap();
        assert_eq!(m, "`areas`: 501 entries; at most 500 areas in a fortress");
        let areas: Vec<Value> = (0..AREAS).map(|i| json!({ "id": i })).collect();
        assert_eq!(exceeded(&json!({ "areas": areas })), None);
    }

    #[test]
    fn a_count_past_the_count_limit_is_named_before_any_work() {
        let m = exceeded(&json!({ "enemies": [{ "count": 2 }, { "count": 2147483647u64 }] })).unwrap();
        assert_eq!(m, "`enemies[1].count`: 2147483647; at most 100 (a count multiplies what is drawn)");
        let m = exceeded(&json!({ "gates": [{ "uses": 101 }] })).unwrap();
        assert!(m.starts_with("`gates[0].uses`: 101; at most 100"), "{m}");
        assert_eq!(exceeded(&json!({ "gates": [{ "uses": 100, "count": 100 }] })), None);
    }

    #[test]
    fn counts_that_add_up_past_the_monster_limit_are_named_where_they_pass_it() {
        let groups: Vec<Value> = (0..21).map(|_| json!({ "count": 100 })).collect();
        let m = exceeded(&json!({ "rooms": groups })).unwrap();
        assert_eq!(
            m,
            "`rooms[20].count`: the counts add up to 2100 here; at most 2000 monsters and members in a scenario"
        );
        let groups: Vec<Value> = (0..20).map(|_| json!({ "count": 100 })).collect();
        assert_eq!(exceeded(&json!({ "rooms": groups })), None);
    }

    #[test]
    fn a_long_name_deep_in_the_document_is_named_by_its_path() {
        let long = "é".repeat(NAME_CHARS + 1);
        let m = exceeded(&json!({ "maps": [{ "rooms": [{}, { "name": long }] }] })).unwrap();
        assert_eq!(m, "`maps[0].rooms[1].name`: 201 characters; at most 200 characters in a name");
        // A text field may be longer than a name, up to its own limit.
        let text = "x".repeat(TEXT_CHARS);
        assert_eq!(exceeded(&json!({ "trailer": text, "title": "é".repeat(NAME_CHARS) })), None);
        let m = exceeded(&json!({ "trailer": "x".repeat(TEXT_CHARS + 1) })).unwrap();
        assert!(m.starts_with("`trailer`: 2001 characters"), "{m}");
    }
}
