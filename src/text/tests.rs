use std::borrow::Cow;

use super::*;

/// Values from a list of (name, value) pairs; `area:N` answers "area N (Hall N)".
struct List(Vec<(&'static str, &'static str)>);

impl Values for List {
    fn value(&self, name: &str, arg: Option<&str>) -> Option<Cow<'_, str>> {
        if name == "area" {
            return arg.map(|a| Cow::Owned(format!("area {a} (Hall {a})")));
        }
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| Cow::Borrowed(*v))
    }
}

fn list(pairs: &[(&'static str, &'static str)]) -> List {
    List(pairs.to_vec())
}

#[test]
fn a_slot_is_filled_with_its_value_and_the_rest_kept() {
    let v = list(&[("ruler", "Vex"), ("map", "Rust Pond")]);
    assert_eq!(fill("Defeat {ruler} in the {map}.", &v), "Defeat Vex in the Rust Pond.");
    assert_eq!(fill("no slots { here", &v), "no slots { here");
    assert_eq!(fill("{unknown} stays", &v), "{unknown} stays");
}

#[test]
fn a_value_is_never_filled_again() {
    // A GM's rename to "{map}" prints as written: no text grows past the sum of its parts.
    let v = list(&[("map", "{map}{map}"), ("ruler", "{map}")]);
    assert_eq!(fill("{map} and {ruler}", &v), "{map}{map} and {map}");
}

#[test]
fn a_filled_text_stops_at_the_cap() {
    let big: &'static str = Box::leak("x".repeat(MAX_FILLED / 2).into_boxed_str());
    let v = list(&[("town", big)]);
    let out = fill(&"{town}".repeat(1000), &v);
    assert!(out.len() <= MAX_FILLED + 4, "{}", out.len());
    assert!(out.ends_with('…'));
}

#[test]
fn a_typed_reference_passes_its_argument() {
    let v = list(&[]);
    assert_eq!(fill("Found in {area:7}.", &v), "Found in area 7 (Hall 7).");
}

#[test]
fn a_value_opening_a_sentence_is_raised() {
    let v = list(&[("ruler", "whoever holds the Pit"), ("member", "the Treasurer")]);
    assert_eq!(fill("{ruler} waits. {member} frets", &v), "Whoever holds the Pit waits. The Treasurer frets");
    assert_eq!(fill("Ask {member}! {member}? ok", &v), "Ask the Treasurer! The Treasurer? ok");
    assert_eq!(fill("Meet St. {member}", &v), "Meet St. the Treasurer");
    assert_eq!(fill("line\n{member}", &v), "line\nThe Treasurer");
    assert_eq!(fill("ask {member}", &v), "ask the Treasurer");
    assert_eq!(fill("Success: {ruler|cap} is gone", &v), "Success: Whoever holds the Pit is gone");
}

#[test]
fn the_article_filter_fits_the_sound() {
    let v = list(&[
        ("a", "Ogre"),
        ("b", "Goblin"),
        ("c", "unicorn"),
        ("d", "hour"),
        ("e", "the Duke"),
        ("f", "8-headed hydra"),
    ]);
    assert_eq!(
        fill("{a|a}, {b|a}, {c|a}, {d|a}, {e|a}, {f|an}", &v),
        "An Ogre, a Goblin, a unicorn, an hour, the Duke, an 8-headed hydra"
    );
}

#[test]
fn the_possessive_filter_never_writes_s_apostrophe_s() {
    assert_eq!(possessive("the Keeper of Seals"), "the Keeper of Seals'");
    assert_eq!(possessive("Vex"), "Vex's");
    assert_eq!(possessive("the Boss"), "the Boss's");
    let v = list(&[("member", "the Keeper of Seals")]);
    assert_eq!(fill("It was {member|poss} idea", &v), "It was the Keeper of Seals' idea");
}

#[test]
fn a_count_names_its_noun_in_the_right_number() {
    assert_eq!(count(1, "Knight"), "1 Knight");
    assert_eq!(count(3, "Knight"), "3 Knights");
    assert_eq!(count(2, "step"), "2 steps");
    assert_eq!(count(2, "Fairy"), "2 Fairies");
    assert_eq!(count(2, "Werewolf"), "2 Werewolves");
    assert_eq!(count(2, "Giant Ox"), "2 Giant Oxes");
    assert_eq!(count(2, "Lizard Man"), "2 Lizard Men");
    assert_eq!(count(0, "level"), "0 levels");
    assert_eq!(plural("Day"), "Days");
}

#[test]
fn a_malformed_brace_is_found_for_the_loader() {
    assert_eq!(check_braces("at {town} with {npc}"), None);
    assert_eq!(check_braces("open {town"), Some(Malformed::Unclosed("{town".into())));
    assert_eq!(check_braces("{ruler|shout} now"), Some(Malformed::Filter("{ruler|shout}".into())));
    assert_eq!(check_braces("{Not a slot} here"), Some(Malformed::Unclosed("{Not a slot} here".into())));
}

#[test]
fn a_slot_its_kind_does_not_bind_is_named() {
    const SET: SlotSet = SlotSet { kind: "stake", names: &["ruler"], extra: &["member"] };
    assert_eq!(unknown("{member} fears {ruler}", &SET), None);
    let msg = unknown("{member} fears {rular}", &SET).expect("refused");
    assert!(msg.contains("`{rular}`") && msg.contains("`stake`") && msg.contains("ruler, member"), "{msg}");
}

/// `find_at` is `str::find` from a byte on: same answer for every start, needle and text,
/// multi-byte characters and misses included.
#[test]
fn find_at_answers_as_str_find_from_every_start() {
    let hay = "room A1 — the Rust Pond, rooms B2-C3; Pond pond Ponds, «Pond»";
    for needle in ["Pond", "room ", "rooms ", "—", "«", "C3", "", "absent", "Rust Pond, rooms"] {
        for from in (0..=hay.len()).filter(|&i| hay.is_char_boundary(i)) {
            let want = hay[from..].find(needle).map(|i| from + i);
            assert_eq!(super::find_at(hay, needle, from), want, "`{needle}` from {from}");
        }
    }
}
