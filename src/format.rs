//! The scenario file's format version, and the upgrades that let older files load.
//!
//! Every scenario JSON carries `"format": N` right after `"system"`. Files written before the field
//! existed (dungeonsmith 0.1.0 as first released) are format 1. On read, a file's JSON is upgraded
//! step by step to [`CURRENT`] before it is parsed into the typed model, so each change to the
//! model that older files cannot satisfy adds one step here; a file newer than this program is
//! refused with one line naming its version.

use serde_json::Value;

/// The format this program writes, for both systems (defined with the model both games' files
/// share, which the generators stamp on what they write).
pub use crate::model::FILE_FORMAT as CURRENT;

/// The first format whose NW3 derived numbers (enemy stat blocks and the rest `fix` computes)
/// follow this program's formulas. A fortress of an older format has them recomputed on read
/// ([`crate::fix::nw3::rederive`]), so `check` never fails it only because a formula changed.
/// Raise it with [`CURRENT`] whenever a derived number's formula changes.
pub const NW3_FORMULAS: u32 = 3;

/// The one note printed when an older fortress's derived numbers were recomputed on read.
pub fn rederived_note(file: &str, version: u32) -> String {
    format!(
        "{file}: note: written in format {version}, before this version's formulas; its derived numbers \
         (stat blocks, initiatives, trap values, difficulties, Danger Sense) are recomputed from the tables \
         as `fix` does (run `fix` to save them)"
    )
}

/// Upgrades a parsed scenario document in place to [`CURRENT`], or says why it cannot.
/// Returns the version the file had.
pub fn upgrade(system: &str, doc: &mut Value) -> Result<u32, String> {
    let version = match doc.get("format") {
        None => 1,
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 && n <= u64::from(u32::MAX) => n as u32,
            _ => return Err(format!("`format` must be a whole number from 1 to {CURRENT}, found {v}")),
        },
    };
    if version > CURRENT {
        return Err(format!(
            "format {version} is newer than this dungeonsmith reads (format {CURRENT} and older); \
             use a newer dungeonsmith"
        ));
    }
    let mut v = version;
    while v < CURRENT {
        match (system, v) {
            ("myk", 1) => myk_1_to_2(doc)?,
            ("nw3", 1) => nw3_1_to_2(doc),
            ("myk", 2) => myk_2_to_3(doc),
            ("nw3", 2) => nw3_2_to_3(doc),
            ("myk", 3) => myk_3_to_4(doc),
            // Format 4 changed nothing of a fortress: its files only take the new number.
            ("nw3", 3) => {}
            // Format 5 (issue 45): a fortress's texts keep their slots and are filled when read;
            // an older file's texts were stored filled, hold no slot and read as they are. A MYK
            // file's story texts kept their slots already.
            ("nw3" | "myk", 4) => {}
            ("myk", 5) => myk_5_to_6(doc),
            // Format 6 added optional fields only to a fortress (the episode's finale, the Ruler's
            // theme, the held victim): absent, they read as before.
            ("nw3", 5) => {}
            ("myk", 6) => myk_6_to_7(doc),
            ("nw3", 6) => nw3_6_to_7(doc),
            _ => return Err(format!("no upgrade from format {v} for system `{system}`")),
        }
        v += 1;
    }
    if system == "nw3" {
        bad_status_words(doc);
    }
    set_format(doc, CURRENT);
    Ok(version)
}

/// Skill texts written before the tables named Bad Statuses as words carry the rules' marking,
/// `{BS: Rigor}`, `{BS: Poison (2)}`: each is rewritten to the bare name, as the tables now give
/// it, so `check` finds the file's skills equal to the tables'. Files without the marking are
/// left as they are (the step holds for every format, so no version bump is needed for it).
fn bad_status_words(doc: &mut Value) {
    match doc {
        Value::String(s) if s.contains("{BS: ") => {
            let mut out = String::with_capacity(s.len());
            let mut rest = s.as_str();
            while let Some(i) = rest.find("{BS: ") {
                out.push_str(&rest[..i]);
                let inner = &rest[i + 5..];
                match inner.find('}') {
                    Some(e) => {
                        out.push_str(&inner[..e]);
                        rest = &inner[e + 1..];
                    }
                    None => {
                        out.push_str(&rest[i..]);
                        rest = "";
                    }
                }
            }
            out.push_str(rest);
            *s = out;
        }
        Value::Array(a) => a.iter_mut().for_each(bad_status_words),
        Value::Object(o) => o.values_mut().for_each(bad_status_words),
        _ => {}
    }
}

/// Sets `"format"`; writers re-serialise through the typed model, which fixes the key order.
fn set_format(doc: &mut Value, version: u32) {
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("format".into(), Value::from(version));
    }
}

/// Format 1 → 2 for MYK. Format 2 added `format` itself and each clue's `reveals`: it is read from
/// the clue's text (a corridor "A1-B1", else a "room B1"; the map is the one whose corridor, ruler or
/// trap the text names, else the clue's own). A clue whose text names neither is dropped, so the file
/// still loads; `check` then says whether enough clues are left.
/// - Rulers' `stats` (final stat line), groups' `common_items`/`rare_items`/`relationship`, traps'
///   `monsters` and weak-point details are serde defaults (absent = none); `render` computes a missing
///   ruler stat line from the bestiary by name (`myk::ruler::normalize`).
fn myk_1_to_2(doc: &mut Value) -> Result<(), String> {
    let sheets = Sheets::read(doc.get("maps"));
    let Some(clues) = doc.get_mut("clues").and_then(Value::as_array_mut) else { return Ok(()) };
    let mut spent = 0u64;
    let mut refused = None;
    let mut i = 0;
    clues.retain_mut(|clue| {
        i += 1;
        if refused.is_some() {
            return true;
        }
        let text = clue.get("text").and_then(Value::as_str).unwrap_or_default().to_string();
        let own = clue.pointer("/at/map").and_then(Value::as_u64).unwrap_or(1);
        let reveals = match sheets.infer_reveals(&text, own, &mut spent) {
            Ok(Some(r)) => r,
            Ok(None) => return false,
            Err(why) => {
                refused = Some(format!("`clues[{}]`: {why}", i - 1));
                return true;
            }
        };
        if let Some(obj) = clue.as_object_mut() {
            obj.insert("reveals".into(), reveals);
        }
        true
    });
    refused.map_or(Ok(()), Err)
}

/// Format 2 → 3 for MYK: the objective became data (`kind`, `text`, `at`, `target`...) and a
/// Search clue states its difficulty as a number. Cast NPCs' places, clues' written-out parts and
/// the `story` are serde defaults (absent = none).
fn myk_2_to_3(doc: &mut Value) {
    myk_objective_2_to_3(doc);
    myk_search_difficulty_2_to_3(doc);
}

/// Format 3 → 4 for MYK: a race objective states the Quarter the rival's court arrives
/// (`objective.arrives`). It is derived from the map (the fewest rooms from the way in to the
/// goal, [`crate::myk::goal::derived_arrival`]), which needs the typed scenario: an older file
/// gains it when read (`normalize`), and `fix` saves it. Nothing in the JSON changes here.
fn myk_3_to_4(_doc: &mut Value) {}

/// A format-2 objective, a text derived from the last map's ruler, reads as the defeat kind with an
/// empty text, which the program reads as that same derived text.
fn myk_objective_2_to_3(doc: &mut Value) {
    if let Some(obj) = doc.as_object_mut()
        && !obj.get("objective").is_some_and(Value::is_object)
    {
        obj.insert("objective".into(), serde_json::json!({ "kind": "defeat", "text": "", "target": "" }));
    }
}

/// Room names "A1".."C3" at byte `i` of `t`.
fn room_at(t: &[u8], i: usize) -> Option<String> {
    let (a, b) = (*t.get(i)?, *t.get(i + 1)?);
    let alone = |j: Option<&u8>| j.is_none_or(|c| !c.is_ascii_alphanumeric());
    ((b'A'..=b'C').contains(&a) && (b'1'..=b'3').contains(&b) && alone(t.get(i + 2)) && (i == 0 || alone(t.get(i - 1))))
        .then(|| format!("{}{}", a as char, b as char))
}

/// What the format 1 → 2 inference needs of the maps, read once: each map's `index` and its
/// corridors, and for each room name ("B2") the distinct ruler and trap names held there on any
/// map with the maps (positions) that hold each. A clue is then one lookup per corridor and
/// one search of its text per distinct name, however many maps repeat a name.
struct Sheets {
    index: Vec<u64>,
    corridors: Vec<std::collections::BTreeSet<String>>,
    names: std::collections::BTreeMap<String, std::collections::BTreeMap<String, Vec<usize>>>,
}

/// A corridor's id with its rooms in order ("A1-B1").
fn corridor_id(x: &str, y: &str) -> String {
    if x <= y { format!("{x}-{y}") } else { format!("{y}-{x}") }
}

impl Sheets {
    fn read(maps: Option<&Value>) -> Sheets {
        let maps = maps.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let mut sheets = Sheets { index: Vec::new(), corridors: Vec::new(), names: Default::default() };
        for (pos, m) in maps.iter().enumerate() {
            sheets.index.push(m.get("index").and_then(Value::as_u64).unwrap_or(0));
            let cs = m.get("corridors").and_then(Value::as_array).into_iter().flatten();
            let ids = cs.map(|c| corridor_id(c["a"].as_str().unwrap_or(""), c["b"].as_str().unwrap_or("")));
            sheets.corridors.push(ids.collect());
            let mut seen = std::collections::BTreeSet::new();
            for r in m.get("rooms").and_then(Value::as_array).into_iter().flatten() {
                let Some(id) = r.get("id").and_then(Value::as_str) else { continue };
                // The first room of an id is the one the inference reads, as it always was.
                if !seen.insert(id) {
                    continue;
                }
                let ruler = r.pointer("/ruler/name").and_then(Value::as_str);
                let traps = r.get("traps").and_then(Value::as_array).into_iter().flatten();
                let traps = traps.filter_map(|x| x.get("name").and_then(Value::as_str));
                let here = sheets.names.entry(id.to_string()).or_default();
                for n in ruler.into_iter().chain(traps) {
                    let holders = here.entry(n.to_string()).or_default();
                    if holders.last() != Some(&pos) {
                        holders.push(pos);
                    }
                }
            }
        }
        sheets
    }

    /// Of the maps (positions) in `found`, the one the clue means: the first whose index is the
    /// clue's own, else the first in order; `own` when none.
    fn pick(&self, found: impl Iterator<Item = usize> + Clone, own: u64) -> u64 {
        let index = |p: usize| self.index.get(p).copied().unwrap_or(0);
        found.clone().map(index).find(|&i| i == own).or_else(|| found.map(index).next()).unwrap_or(own)
    }

    /// What a format-1 clue of text `text` on map `own` reveals: the corridor it names ("A1-B1",
    /// on the map that has it), else the room it names ("room B1", on the map whose room holds
    /// the ruler or trap the text names); `None` when it names neither. `spent` counts the bytes
    /// compared, and past [`crate::limits::UPGRADE_BYTES`] the file is refused.
    fn infer_reveals(&self, text: &str, own: u64, spent: &mut u64) -> Result<Option<Value>, String> {
        let t = text.as_bytes();
        for i in 0..t.len() {
            if let (Some(a), Some(b'-'), Some(b)) = (room_at(t, i), t.get(i + 2), room_at(t, i + 3)) {
                let id = corridor_id(&a, &b);
                let map = self.pick((0..self.corridors.len()).filter(|&p| self.corridors[p].contains(&id)), own);
                return Ok(Some(serde_json::json!({ "map": map, "corridor": id })));
            }
        }
        let Some(room) = text.find("room ").and_then(|i| room_at(t, i + 5)) else { return Ok(None) };
        let mut found: Vec<usize> = Vec::new();
        for (name, holders) in self.names.get(&room).into_iter().flatten() {
            *spent += (t.len() + name.len()) as u64;
            if *spent > crate::limits::UPGRADE_BYTES {
                return Err(format!(
                    "a format-1 file's clues and trap names are too many to upgrade (more than {} MiB \
                     compared to infer what the clues reveal; the README's \"Limits\")",
                    crate::limits::UPGRADE_BYTES >> 20
                ));
            }
            if text.contains(name.as_str()) {
                found.extend(holders);
            }
        }
        found.sort_unstable();
        let map = self.pick(found.into_iter(), own);
        Ok(Some(serde_json::json!({ "map": map, "room": room })))
    }
}

/// Format 1 → 2 for NW3. Format-1 fortresses have no enemy stat blocks, group descriptions,
/// ambushes or Danger Sense difficulties; those fields parse as empty, and the loader then fills
/// them from the tables by enemy name and the party in `params`
/// ([`crate::nw3::combat::fill_from_tables`]), which needs the tables this step has not got.
fn nw3_1_to_2(_doc: &mut Value) {}

/// A format-2 Search clue's difficulty, stated in words, read once into its `difficulty`: the
/// number its `how` names, else (a wording without a number left the book's value in force) the
/// court size + 7; `check` then compares it.
fn myk_search_difficulty_2_to_3(doc: &mut Value) {
    let size = doc.pointer("/court/levels").and_then(Value::as_array).map_or(0, Vec::len) as u64;
    let Some(clues) = doc.get_mut("clues").and_then(Value::as_array_mut) else { return };
    for clue in clues {
        let Some(obj) = clue.as_object_mut() else { continue };
        if obj.get("method").and_then(Value::as_str) != Some("search") || obj.contains_key("difficulty") {
            continue;
        }
        let how = obj.get("how").and_then(Value::as_str).unwrap_or_default();
        let stated = crate::myk::clues::numbers_in(how).first().copied().map(u64::from);
        obj.insert("difficulty".into(), Value::from(stated.unwrap_or(size + 7)));
    }
}

/// Format 2 → 3 for NW3. Format 3 marks the change of the enemy stat-block formulas (issue 24:
/// the loader recomputes an older file's derived numbers from the tables,
/// [`crate::fix::nw3::rederive`], saying so once on stderr) and added the `episode` (handouts, opening scenes, legwork, climax,
/// endings) and each scenario event's `success`, `failure` and `retry`. An older file reads as a
/// fortress without an episode (all three are serde defaults): its Entrance text was written
/// without the episode's keyword or item, so an episode rolled now could not match it. `reroll
/// frame` gives it one. See tables/nw3/NOTES.md.
/// Events judged by "Perception" are judged by its Attribute, Awareness, as the tables now name it.
fn nw3_2_to_3(doc: &mut Value) {
    let Some(areas) = doc.get_mut("areas").and_then(Value::as_array_mut) else { return };
    for judge in areas.iter_mut().filter_map(|a| a.pointer_mut("/event/judge")) {
        if judge.as_str() == Some("Perception") {
            *judge = Value::from("Awareness");
        }
    }
}

/// Format 5 → 6 for MYK (issue 46): the Prologue's people are the cast's, and stakes go to the
/// book's classes or to numbered members. An older Prologue is marked `before_cast`. A
/// stake of an older file addressed to a seat the book does not have ("The Treasurer") is
/// readdressed to its member by number, as a court whose classes are not given is; its text is
/// kept.
fn myk_5_to_6(doc: &mut Value) {
    // Its Prologue was written before the Prologue's people were the cast's: kept as it is.
    if let Some(p) = doc.pointer_mut("/story/prologue").and_then(Value::as_object_mut) {
        p.insert("before_cast".into(), Value::Bool(true));
    }
    let Some(stakes) = doc.pointer_mut("/story/stakes").and_then(Value::as_array_mut) else { return };
    let size = stakes.len();
    let seats = crate::myk::court::seats(&[], size);
    let book: Vec<String> = crate::myk::court::Class::ALL.iter().map(|c| ["The ", c.title()].concat()).collect();
    for (stake, seat) in stakes.iter_mut().zip(seats) {
        let Some(member) = stake.get("member").and_then(Value::as_str) else { continue };
        let known = book.iter().any(|b| b.eq_ignore_ascii_case(member.trim())) || member.starts_with("Member ");
        if !known && let Some(obj) = stake.as_object_mut() {
            obj.insert("member".into(), Value::from(seat.label));
        }
    }
}

/// Format 7 (issue 45): texts name an NPC by its place in the cast (`"npc": 2`, counted from 1)
/// rather than by a copy of its name, so a name edited in the cast is printed everywhere. Each
/// reference of an older file (the objective's, a conversation clue's, a Relationship weak
/// point's) becomes the place of the first cast member of that name; a name the cast lacks is
/// dropped (`check` said so of the older file too). A rescue's target, a copy of its captive's
/// name, is emptied (it is read from the cast), and a conversation clue's "ask NAME" reads
/// "ask {npc}". A title stored filled holds no slot and reads as it is.
fn myk_6_to_7(doc: &mut Value) {
    let names: Vec<String> = doc
        .get("cast")
        .and_then(Value::as_array)
        .map(|c| c.iter().map(|n| n.get("name").and_then(Value::as_str).unwrap_or_default().to_string()).collect())
        .unwrap_or_default();
    // The reference at `obj[key]`, a name, made a place; returns the name it had.
    let point = |obj: &mut serde_json::Map<String, Value>, key: &str| -> Option<String> {
        let name = obj.get(key)?.as_str()?.to_string();
        match names.iter().position(|n| *n == name) {
            Some(k) => obj.insert(key.into(), Value::from(k + 1)),
            None => obj.remove(key),
        };
        Some(name)
    };
    if let Some(o) = doc.get_mut("objective").and_then(Value::as_object_mut) {
        let name = point(o, "npc");
        let rescue = o.get("kind").and_then(Value::as_str) == Some("rescue");
        if rescue && name.is_some() && o.get("target").and_then(Value::as_str) == name.as_deref() {
            o.insert("target".into(), Value::from(""));
        }
    }
    for clue in doc.get_mut("clues").and_then(Value::as_array_mut).into_iter().flatten() {
        let Some(c) = clue.as_object_mut() else { continue };
        let Some(name) = point(c, "npc") else { continue };
        let asked = ["ask ", &name].concat();
        if let Some(how) = c.get("how").and_then(Value::as_str).and_then(|h| h.strip_prefix(asked.as_str())) {
            let how = ["ask {npc}", how].concat();
            c.insert("how".into(), Value::from(how));
        }
    }
    let rooms = doc.get_mut("maps").and_then(Value::as_array_mut).into_iter().flatten();
    let rooms = rooms.filter_map(|m| m.get_mut("rooms").and_then(Value::as_array_mut)).flatten();
    for room in rooms {
        let adjustments = room.pointer_mut("/ruler/adjustments").and_then(Value::as_array_mut);
        for a in adjustments.into_iter().flatten().filter_map(Value::as_object_mut) {
            point(a, "npc");
        }
    }
}

/// Format 7: a fortress's Ruler encounter is named `{ruler}` (filled when read) rather than by a
/// copy of the Ruler's name; an older file's copy that still equals the Ruler's name becomes the
/// slot, one the GM changed is kept as written.
fn nw3_6_to_7(doc: &mut Value) {
    let ruler = doc.pointer("/ruler/name").and_then(Value::as_str).map(str::to_owned);
    let areas = doc.get_mut("areas").and_then(Value::as_array_mut).into_iter().flatten();
    for ev in areas.filter_map(|a| a.get_mut("event")).filter_map(Value::as_object_mut) {
        let own = ev.get("kind").and_then(Value::as_str) == Some("ruler");
        if own && ev.get("name").and_then(Value::as_str) == ruler.as_deref() {
            ev.insert("name".into(), Value::from("{ruler}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_search_clue_gets_its_difficulty_from_its_wording_or_the_court_size_plus_7() {
        let mut doc = serde_json::json!({
            "system": "myk",
            "format": 2,
            "court": { "levels": [3, 3, 3, 3, 3] },
            "clues": [
                { "method": "search", "how": "search check in the room, difficulty 9" },
                { "method": "search", "how": "search the altar" },
                { "method": "threat", "how": "defeat the threat" },
            ],
        });
        upgrade("myk", &mut doc).expect("upgrades");
        assert_eq!(doc["clues"][0]["difficulty"], 9, "read once from the text; check then compares it");
        assert_eq!(doc["clues"][1]["difficulty"], 12, "no number: the book's court size + 7");
        assert!(doc["clues"][2].get("difficulty").is_none());
        assert_eq!(doc["format"], CURRENT);
    }

    #[test]
    fn a_format_2_event_judged_by_perception_reads_as_an_awareness_judge() {
        let mut doc = serde_json::json!({
            "system": "nw3",
            "format": 2,
            "areas": [{ "event": { "judge": "Perception" } }, { "event": { "judge": "Luck" } }, { "event": null }],
        });
        upgrade("nw3", &mut doc).expect("upgrades");
        assert_eq!(doc["areas"][0]["event"]["judge"], "Awareness");
        assert_eq!(doc["areas"][1]["event"]["judge"], "Luck");
        assert_eq!(doc["format"], CURRENT);
    }

    #[test]
    fn bad_statuses_marked_in_older_files_read_as_words() {
        let mut doc = serde_json::json!({
            "system": "nw3",
            "format": 2,
            "skills": ["gains {BS: Poison (2)} and {BS: Rigor}.", "no status", "{BS: broken"],
        });
        upgrade("nw3", &mut doc).expect("upgrades");
        assert_eq!(doc["skills"], serde_json::json!(["gains Poison (2) and Rigor.", "no status", "{BS: broken"]));
    }

    #[test]
    fn a_format_6_ruler_encounter_named_after_its_ruler_reads_as_the_ruler_slot() {
        let mut doc = serde_json::json!({"format": 6, "ruler": {"name": "Mother Soup"}, "areas": [
            {"event": {"kind": "ruler", "name": "Mother Soup"}},
            {"event": {"kind": "ruler", "name": "The GM's own name"}},
            {"event": {"kind": "chart", "name": "Mother Soup"}}
        ]});
        nw3_6_to_7(&mut doc);
        let names: Vec<&str> = (0..3).filter_map(|i| doc["areas"][i]["event"]["name"].as_str()).collect();
        assert_eq!(names, ["{ruler}", "The GM's own name", "Mother Soup"]);
    }
}
