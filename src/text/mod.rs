//! The one text layer under both games' stories: a pool text names *slots* (`{ruler}`,
//! `{area:7}`, `{target|a}`), and [`fill`] puts the scenario's current facts in them when a
//! booklet, a sheet or the workbench is made, never earlier, so a renamed room, area or NPC is
//! renamed in every sentence that names it.
//!
//! The rules, the same for both games:
//! - **A slot** is `{name}`, `{name:arg}` (a typed reference: `{area:7}` is area 7 as it stands)
//!   or either with one filter after a bar: `{name|a}`. A name is lower-case ASCII letters,
//!   digits and `_`; an argument letters, digits, `_` and `-`. Any other `{` is text.
//! - **Filters**: `a` ("a Goblin", "an Ogre"), `poss` ("the Keeper of Seals'", "Vex's"), `cap`
//!   (first letter raised). A value that opens a sentence (the text's start, or after `. `, `! `,
//!   `? `, a line break) is raised without asking: no pool writes "Whoever" and "whoever" twice.
//! - **One pass, no refill**: a value goes in as it is. A value holding `{map}` prints `{map}`,
//!   so a GM's name, table entry or rename can never make a text grow past the sum of its parts;
//!   [`fill`] measures that sum before it builds and stops at [`MAX_FILLED`].
//! - **Known at load**: every pool kind lists the slots it binds ([`SlotSet`]); a pool entry
//!   that names another is refused when the tables load ([`unknown`]).
//!
//! Why our own expander and not minijinja (which renders the booklet templates): the pools hold
//! about 110 k words written as `{name}` by the books' own habit, a GM's tables folder too, and a
//! story text needs named values, three filters and the promise that a value is never read as a
//! template. minijinja would hold that promise, but only for texts rewritten to `{{ name }}`,
//! each compiled into a template at load (some 2,900 of them) and rendered through its engine
//! some 40 times a scenario; this module is one walk over the bytes. It does not draw anything:
//! the one deal of k entries of a pool is [`crate::dice::Dice::deal`].

use std::borrow::Cow;

/// The most bytes a filled text may hold; past it the text stops with "…". No pool text comes
/// near it (the longest filled text of 1,000 scenarios per game is under 2 KiB): it only bounds
/// what a hostile file or tables folder can make one text cost.
pub const MAX_FILLED: usize = 64 * 1024;

/// A filter on a slot's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// "a Goblin", "an Ogre": the indefinite article that fits the value's first sound.
    A,
    /// "Vex's", "the Keeper of Seals'": the possessive.
    Poss,
    /// The first letter raised.
    Cap,
}

impl Filter {
    fn parse(s: &str) -> Option<Filter> {
        Some(match s {
            "a" | "an" => Filter::A,
            "poss" => Filter::Poss,
            "cap" => Filter::Cap,
            _ => return None,
        })
    }
}

/// One slot of a text: `text[start..end]` reads `{name:arg|filter}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot<'t> {
    pub start: usize,
    pub end: usize,
    pub name: &'t str,
    pub arg: Option<&'t str>,
    pub filter: Option<Filter>,
}

/// What a malformed brace in a pool text is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Malformed {
    /// A `{` with no `}` after it on the same text.
    Unclosed(String),
    /// A filter this module does not know.
    Filter(String),
}

/// The slots of `t` in text order. A `{` that does not open a well-formed slot is text (a filled
/// text keeps it as written); [`check_braces`] tells a pool's loader about those.
pub fn slots(t: &str) -> impl Iterator<Item = Slot<'_>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(open) = t[at..].find('{').map(|i| at + i) {
            at = open + 1;
            if let Some(slot) = slot_at(t, open) {
                at = slot.end;
                return Some(slot);
            }
        }
        None
    })
}

/// Where `needle` first occurs in `hay` at or after byte `from`: `str::find`'s answer from
/// there, found by the needle's first byte (memchr) and a compare. `str::find` builds a two-way
/// searcher at every call, which over short texts and names costs more than the search: the
/// clue check looks for some forty names in each clue line. A needle's first byte starts a
/// character, so every match is at a character boundary.
pub fn find_at(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else { return (from <= h.len()).then_some(from) };
    let mut at = from;
    while let Some(i) = h.get(at..).and_then(|rest| memchr::memchr(first, rest)) {
        let i = at + i;
        if h[i..].starts_with(n) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// The slot that opens at byte `open` (a `{`), if one does.
fn slot_at(t: &str, open: usize) -> Option<Slot<'_>> {
    let rest = &t[open + 1..];
    let close = memchr::memchr2(b'}', b'{', rest.as_bytes())?;
    if rest.as_bytes()[close] != b'}' {
        return None;
    }
    let inner = &rest[..close];
    let (head, filter) = match inner.split_once('|') {
        Some((h, f)) => (h, Some(Filter::parse(f)?)),
        None => (inner, None),
    };
    let (name, arg) = match head.split_once(':') {
        Some((n, a)) => (n, Some(a)),
        None => (head, None),
    };
    let name_ok = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && name.as_bytes()[0].is_ascii_lowercase();
    let arg_ok =
        arg.is_none_or(|a| !a.is_empty() && a.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
    (name_ok && arg_ok).then_some(Slot { start: open, end: open + 1 + close + 1, name, arg, filter })
}

/// The first brace of a pool text that is not a well-formed slot: an unclosed `{`, or a filter
/// this module does not know. Pool texts hold braces only as slots, so a loader refuses these.
pub fn check_braces(t: &str) -> Option<Malformed> {
    let mut at = 0;
    while let Some(open) = t[at..].find('{').map(|i| at + i) {
        if let Some(s) = slot_at(t, open) {
            at = s.end;
            continue;
        }
        let rest = &t[open..];
        return Some(match rest[1..].find('}') {
            Some(c) if rest[1..1 + c].contains('|') && !rest[1..1 + c].contains('{') => {
                Malformed::Filter(rest[..c + 2].to_string())
            }
            _ => Malformed::Unclosed(rest.chars().take(24).collect()),
        });
    }
    None
}

/// What a text's slots are filled with: the scenario's facts as they stand. `None` keeps the
/// slot as written (a value the caller does not give yet).
pub trait Values {
    fn value(&self, name: &str, arg: Option<&str>) -> Option<Cow<'_, str>>;
}

/// `t` with every slot that has a value filled, in one pass: the text between slots as written,
/// each value as it is (never read for slots of its own), its filter applied, raised when it
/// opens a sentence. Stops with "…" at [`MAX_FILLED`] bytes.
pub fn fill(t: &str, v: &dyn Values) -> String {
    let mut parts: Vec<(Slot, Cow<str>)> = Vec::new();
    let mut len = t.len();
    for s in slots(t) {
        if let Some(val) = v.value(s.name, s.arg) {
            // An article or a possessive adds at most three bytes.
            len = len.saturating_add(val.len() + 3);
            parts.push((s, val));
        }
    }
    let mut out = String::with_capacity(len.min(MAX_FILLED + 4));
    let mut written = 0;
    for (s, val) in &parts {
        if !push_capped(&mut out, &t[written..s.start]) {
            return out;
        }
        let opens = opens_sentence(&out);
        let piece = apply(s.filter, val, opens);
        if !push_capped(&mut out, &piece) {
            return out;
        }
        written = s.end;
    }
    push_capped(&mut out, &t[written..]);
    out
}

/// Appends `piece` while the text stays within [`MAX_FILLED`]; else cuts it there (on a
/// character boundary), appends "…" and returns false.
fn push_capped(out: &mut String, piece: &str) -> bool {
    if out.len() + piece.len() <= MAX_FILLED {
        out.push_str(piece);
        return true;
    }
    let mut cut = MAX_FILLED.saturating_sub(out.len());
    while cut > 0 && !piece.is_char_boundary(cut) {
        cut -= 1;
    }
    out.push_str(&piece[..cut]);
    out.push('…');
    false
}

/// Whether a value written after `before` opens a sentence.
fn opens_sentence(before: &str) -> bool {
    let b = before.as_bytes();
    match b {
        [] => true,
        [.., b'\n'] => true,
        [.., b'.' | b'!' | b'?', b' '] => {
            // "V.I.P. " or "St. " end no sentence: a stop inside the word before it.
            let word = &before[..before.len() - 2];
            let start = word.rfind(' ').map_or(0, |i| i + 1);
            !word[start..].contains('.') && !matches!(&word[start..], "St" | "Mr" | "Mrs" | "Dr" | "Mt")
        }
        _ => false,
    }
}

/// The value with its filter, raised when it opens a sentence.
fn apply<'v>(filter: Option<Filter>, val: &'v str, opens: bool) -> Cow<'v, str> {
    let v: Cow<str> = match filter {
        None => Cow::Borrowed(val),
        Some(Filter::A) => Cow::Owned(with_article(val)),
        Some(Filter::Poss) => Cow::Owned(possessive(val)),
        Some(Filter::Cap) => Cow::Owned(capitalise(val)),
    };
    if opens && v.chars().next().is_some_and(char::is_lowercase) { Cow::Owned(capitalise(&v)) } else { v }
}

/// The text with its first letter upper-case.
pub fn capitalise(t: &str) -> String {
    let mut c = t.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// "a Goblin", "an Ogre", "an hour", "a unicorn", "an 8-headed hydra"; a value that already
/// opens with an article, a number word or "the" is left as it is ("the Duke", "two Goblins").
pub fn with_article(v: &str) -> String {
    let first = v.split_whitespace().next().unwrap_or("");
    let lower = first.to_ascii_lowercase();
    if matches!(lower.as_str(), "a" | "an" | "the" | "some" | "two" | "three" | "four" | "five" | "six" | "many") {
        return v.to_string();
    }
    let article = if starts_with_vowel_sound(&lower) { "an " } else { "a " };
    [article, v].concat()
}

/// Whether a word opens with a vowel sound, by spelling and the usual exceptions.
fn starts_with_vowel_sound(w: &str) -> bool {
    const VOWEL_CONSONANT: [&str; 8] = ["uni", "use", "usu", "uti", "eu", "one", "once", "ure"];
    const SILENT_H: [&str; 5] = ["hour", "honest", "honou", "honor", "heir"];
    if VOWEL_CONSONANT.iter().any(|p| w.starts_with(p)) {
        return false;
    }
    if SILENT_H.iter().any(|p| w.starts_with(p)) {
        return true;
    }
    match w.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => true,
        // A digit read aloud: 8, 11, 18, 80-89 open with a vowel.
        Some(b'8') => true,
        Some(b'1') => w.starts_with("11") || w.starts_with("18") && !w.starts_with("18-") || w == "18",
        _ => false,
    }
}

/// "Vex's", "the Keeper of Seals'", "the Twins'" — and "Boss's" for a name whose last word is
/// one of the few ending in "ss", "us" or "is" that are singular.
pub fn possessive(v: &str) -> String {
    if v.ends_with('s') && !v.ends_with("ss") && !v.ends_with("us") && !v.ends_with("is") {
        [v, "'"].concat()
    } else {
        [v, "'s"].concat()
    }
}

/// "1 Knight", "3 Knights", "1 step", "2 steps": a count with its noun, the plural by the usual
/// spelling rules (nouns ending in s, x, z, ch, sh take "es"; a consonant before y takes "ies";
/// a few irregular forms). A noun already plural-looking or a proper name with spaces takes the
/// rule on its last word.
pub fn count(n: u64, noun: &str) -> String {
    let mut out = itoa::Buffer::new().format(n).to_string();
    out.push(' ');
    out.push_str(&if n == 1 { Cow::Borrowed(noun) } else { Cow::Owned(plural(noun)) });
    out
}

/// The plural of `noun` (see [`count`]): the head noun of "X of Y" takes it, and the "-man"
/// words take "-men" ([`plural::plural`]).
pub fn plural(noun: &str) -> String {
    plural::plural(noun)
}

/// The slots one kind of pool text binds, by name (a name that takes an argument is listed
/// bare). A text of that kind that names any other is refused at load.
#[derive(Clone, Copy, Debug)]
pub struct SlotSet {
    /// The pool kind as the tables file names it (`stake`, `legwork`...).
    pub kind: &'static str,
    pub names: &'static [&'static str],
    /// Names this kind binds besides `names` (which several kinds share).
    pub extra: &'static [&'static str],
}

impl SlotSet {
    /// Whether this kind binds slot `name`.
    pub fn binds(&self, name: &str) -> bool {
        self.names.contains(&name) || self.extra.contains(&name)
    }

    /// Every name it binds, for a message.
    pub fn list(&self) -> String {
        let all: Vec<&str> = self.names.iter().chain(self.extra).copied().collect();
        if all.is_empty() { "none".to_string() } else { all.join(", ") }
    }
}

/// Why a pool text cannot be filled: a slot its kind does not bind, or a malformed brace. The
/// message names the slot and the slots the kind may use; the caller adds file and entry.
pub fn unknown(text: &str, set: &SlotSet) -> Option<String> {
    if let Some(m) = check_braces(text) {
        return Some(match m {
            Malformed::Unclosed(at) => format!("has a `{{` that opens no slot at `{at}`"),
            Malformed::Filter(s) => format!("uses an unknown filter in `{s}` (filters: a, poss, cap)"),
        });
    }
    let bad = slots(text).find(|s| !set.binds(s.name))?;
    Some(format!(
        "names the slot `{{{}}}`, which a `{}` text cannot use (its slots: {})",
        bad.name,
        set.kind,
        set.list()
    ))
}

#[cfg(test)]
mod tests;

mod plural;
