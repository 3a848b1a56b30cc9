//! The court and its kingdom as the book has them: the players made their kingdom and named it
//! (seed 003 l.13-52), so a scenario calls it "your kingdom" unless the GM gives its name
//! (`--kingdom`); the court's seats are the book's six classes (l.394-430), so a stake goes to a
//! class the GM gives (`--classes`) or, without them, to a numbered member of the court; the
//! Prologue's people are the cast (l.1480-1500): its patron is a cast entry whose age, sex and
//! job the text reads through slots.
//!
//! Generation, the option checks and `check` all read the rules here.

use crate::check::Violation;
use crate::dice::Dice;
use crate::error::{Error, Result};
use crate::myk::model::{Npc, Prologue, Scenario, Stake};
use crate::myk::story::{self, Fill, PATRON};
use crate::tables::Tables;
use crate::tables::story::StoryPools;

/// What the booklet calls the players' kingdom when the GM does not name it.
pub const YOUR_KINGDOM: &str = "your kingdom";

/// The longest kingdom name `--kingdom` takes, in characters (the book's three-table names run
/// to about 30: "Constitutional Back Alley Territories").
pub const KINGDOM_MAX: usize = 60;

/// The Kingdom Name Tables (seed 003 l.19-56), in roll order.
pub const NAME_TABLES: [&str; 3] = ["myk.kingdom.name1", "myk.kingdom.name2", "myk.kingdom.name3"];

pub use crate::myk::model::Class;

/// The kingdom's name as the GM typed it, checked: 1 to [`KINGDOM_MAX`] characters of letters,
/// digits, spaces and `' - . , &` (a name is printed in every format; these need no more than
/// the escaping each format gives every text). Surrounding spaces are dropped.
pub fn kingdom_name(given: &str) -> Result<String> {
    let bad = |message: String| Error::Option { field: "kingdom", message };
    let name = given.trim();
    if name.is_empty() {
        return Err(bad("the name is empty; leave the option out for \"your kingdom\"".into()));
    }
    let n = name.chars().count();
    if n > KINGDOM_MAX {
        return Err(bad(format!("the name is {n} characters long; at most {KINGDOM_MAX}")));
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '\'' | '’' | '-' | '.' | ',' | '&');
    if let Some(c) = name.chars().find(|&c| !allowed(c)) {
        return Err(bad(format!("the name holds {c:?}; a name takes letters, digits, spaces and ' - . , &")));
    }
    Ok(name.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The classes the GM gave, one per court member, checked against the court's size and the
/// book's rule that the court has a King (l.427). None given: the court's classes are unknown.
pub fn check_classes(classes: &[Class], size: usize) -> Result<()> {
    let bad = |message: String| Error::Option { field: "classes", message };
    if classes.is_empty() {
        return Ok(());
    }
    if classes.len() != size {
        return Err(bad(format!("{} classes listed for a court of {size}; give one per member", classes.len())));
    }
    if !classes.contains(&Class::King) {
        return Err(bad("no king listed; the book's court has at least one King (seed 003 l.427)".into()));
    }
    Ok(())
}

/// `king,knight,...` as a list of classes.
pub fn parse_classes(list: &str) -> Result<Vec<Class>> {
    list.split(',').map(|c| c.parse().map_err(|message| Error::Option { field: "classes", message })).collect()
}

/// The kingdom as the scenario calls it: the GM's name, else "your kingdom".
pub fn kingdom(given: Option<&str>) -> String {
    given.map_or_else(|| YOUR_KINGDOM.to_string(), str::to_string)
}

/// A court member's seat: how a stake is headed and how its text names the member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The stake's heading: "The King", "The second Knight", "Member 2 of the court".
    pub label: String,
    /// The member in a sentence: "the King", "the second Knight", "this member".
    pub named: String,
}

const ORDINALS: [&str; 12] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
    "twelfth",
];

/// Each member's seat in court order: the class when the classes are given (a class held by two
/// members is told apart by its order, "the second Knight"), else the member's number.
pub fn seats(classes: &[Class], size: usize) -> Vec<Seat> {
    if classes.is_empty() {
        return (1..=size)
            .map(|i| Seat { label: format!("Member {i} of the court"), named: "this member".into() })
            .collect();
    }
    classes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let nth = classes[..i].iter().filter(|x| *x == c).count();
            let held = classes.iter().filter(|x| *x == c).count();
            let named = match (held, ORDINALS.get(nth)) {
                (1, _) | (_, None) => format!("the {}", c.title()),
                (_, Some(o)) => format!("the {o} {}", c.title()),
            };
            Seat { label: story::capitalise(&named), named }
        })
        .collect()
}

/// One stake per seat, each a different entry of the pool (repeating only when the pool is
/// smaller than the court): the draw [`crate::myk::story`] always made, addressed to the seats.
pub fn stakes(pools: &StoryPools, classes: &[Class], size: usize, f: &Fill, d: &mut Dice) -> Vec<Stake> {
    let order = d.deal(pools.stake.len(), size);
    let seats = seats(classes, size);
    let mut f = f.clone();
    seats
        .iter()
        .enumerate()
        .filter_map(|(i, seat)| {
            let e = &pools.stake[*order.get(i % order.len().max(1))?];
            f.member = Some(seat.named.as_str().into());
            Some(Stake { member: seat.label.clone(), text: story::capitalised(f.pool(&e.text)) })
        })
        .collect()
}

/// `fix` after a hand edit of the court's size: a stake per member again. Extra stakes (a member
/// removed) are dropped from the end; a member added gets a stake of the pool addressed to its
/// seat, drawn from the scenario's seed. Classes that no longer count the court are dropped (the
/// GM gives them again), and the stakes already written keep their seats. A court whose stakes
/// already count it is left as it is.
pub fn fit_stakes(s: &mut Scenario, tables: &Tables) {
    let size = s.court.levels.len();
    if !s.params.classes.is_empty() && s.params.classes.len() != size {
        s.params.classes.clear();
    }
    let Some(st) = s.story.as_mut() else { return };
    if st.stakes.len() == size {
        return;
    }
    st.stakes.truncate(size);
    let pool = &tables.story.stake;
    let order = Dice::new(s.seed).child("fix/stakes").deal(pool.len(), size);
    let seats = seats(&s.params.classes, size);
    let mut f = Fill::keep();
    for i in st.stakes.len()..size {
        let (Some(seat), Some(e)) = (seats.get(i), order.get(i).and_then(|&k| pool.get(k))) else { break };
        f.member = Some(seat.named.as_str().into());
        st.stakes.push(Stake { member: seat.label.clone(), text: story::capitalised(f.pool(&e.text)) });
    }
}

/// The Prologue drawn at `places` of the prologue pool, its patron made the cast's: the patron's
/// role takes the entry's job, so the text's `{patron_job}` and `{patron_who}` read the cast
/// entry. Texts keep their slots (filled when printed).
pub fn prologue(s: &mut Scenario, pools: &StoryPools, places: &[u32], f: &Fill, d: &mut Dice) -> Prologue {
    let Some(p) = d.choose(places).and_then(|&i| pools.prologue.get(i as usize)) else {
        return Prologue {
            form: "appeal".into(),
            who: String::new(),
            problem: String::new(),
            offer: String::new(),
            before_cast: false,
        };
    };
    if let Some(n) = s.cast.iter_mut().find(|n| n.role.as_str().starts_with(PATRON)) {
        n.role = patron_role(&p.job).into();
    }
    Prologue {
        form: p.form.clone(),
        who: f.pool(&p.who),
        problem: f.pool(&p.problem),
        offer: f.pool(&p.offer),
        before_cast: false,
    }
}

/// The patron's role as the cast prints it: "patron: a cooper from the lower ward".
pub fn patron_role(job: &str) -> String {
    if job.is_empty() { PATRON.to_string() } else { [PATRON, ": ", job].concat() }
}

/// `{patron_job}`: the job the patron's role names after "patron: " (what the patron is when
/// the role names none).
pub fn patron_job(n: &Npc) -> &str {
    n.role.as_str().strip_prefix(PATRON).and_then(|r| r.strip_prefix(": ")).unwrap_or("the court's patron")
}

/// `{patron_who}`: the cast entry's sex and age as the book's Sex and Age Tables give them
/// (l.5282, l.5291), in words that fit any being a patron may be: "male, elderly, 60-99".
pub fn patron_who(n: &Npc) -> String {
    let (age, sex) = (n.age.as_str().trim(), n.sex.as_str().trim());
    // "Elderly (60-99)" reads "elderly, 60-99".
    let age = match age.split_once(" (") {
        Some((band, range)) => [band, ", ", range.trim_end_matches(')')].concat(),
        None => age.to_string(),
    };
    [sex, ", ", &age].concat().to_lowercase()
}

/// The slots that name a person of the cast, with the cast part each needs.
const PERSON_SLOTS: [(&str, &str); 5] = [
    ("patron", PATRON),
    ("patron_who", PATRON),
    ("patron_job", PATRON),
    ("captive", story::CAPTIVE),
    ("rival", story::RIVAL),
];

/// The court's rules: a stake per member, each to a different member, each to a seat of the
/// court's classes (the book's classes or a member's number when they are not given); the
/// Prologue's people stand in the cast, and its speaker is one of them.
pub fn check(s: &Scenario, v: &mut Vec<Violation>) {
    let Some(st) = &s.story else { return };
    let size = s.court.levels.len();
    if st.stakes.len() != size {
        v.push(Violation::new(
            "stakes",
            "stake.count",
            format!("{} stakes for a court of {size}; the book's Prologue gives each member one", st.stakes.len()),
        ));
    }
    // The court's own seats first: every generated stake names one of them, and the wider list
    // (a seat of every class, for a court whose classes are not given) is made only for a stake
    // that does not (it was a tenth of a default scenario's check).
    let own = seats(&s.params.classes, size);
    let mut wider: Option<Vec<String>> = None;
    for (i, k) in st.stakes.iter().enumerate() {
        let at = || format!("stake {}", i + 1);
        let member = k.member.trim();
        let seated = own.iter().any(|a| a.label.eq_ignore_ascii_case(member))
            || wider
                .get_or_insert_with(|| allowed_seats(&s.params.classes, size))
                .iter()
                .any(|a| a.eq_ignore_ascii_case(member));
        if !seated {
            let of = if s.params.classes.is_empty() { "the book's classes" } else { "the court's classes" };
            v.push(Violation::new(at(), "stake.seat", format!("`{}` is not a seat of {of}", k.member)));
        }
        if st.stakes[..i].iter().any(|o| o.member.trim().eq_ignore_ascii_case(k.member.trim())) {
            v.push(Violation::new(at(), "stake.member", format!("a second stake for `{}`", k.member)));
        }
    }
    prologue_people(s, v);
}

/// Every seat a stake may name: the classes' seats when given; else each member's number and
/// every seat of the book's classes a court of this size could hold.
fn allowed_seats(classes: &[Class], size: usize) -> Vec<String> {
    let mut out: Vec<String> = seats(classes, size).into_iter().map(|s| s.label).collect();
    if classes.is_empty() {
        for c in Class::ALL {
            out.extend(seats(&vec![c; size.max(1)], size.max(1)).into_iter().map(|s| s.label));
            out.push(["The ", c.title()].concat());
        }
    }
    out
}

/// The Prologue's person slots each find their cast entry, and its `who` opens on one of them.
fn prologue_people(s: &Scenario, v: &mut Vec<Violation>) {
    let Some(st) = &s.story else { return };
    let p = &st.prologue;
    for text in [&p.who, &p.problem, &p.offer] {
        for slot in crate::text::slots(text) {
            let Some((_, part)) = PERSON_SLOTS.iter().find(|(n, _)| *n == slot.name) else { continue };
            if !s.cast.iter().any(|n| n.role.as_str().starts_with(part)) {
                v.push(Violation::new(
                    "prologue",
                    "prologue.cast",
                    format!("the Prologue names `{{{}}}`, but no one of the cast is the {part}", slot.name),
                ));
            }
        }
    }
    let speaker = crate::text::slots(&p.who).next().filter(|x| x.start == 0).map(|x| x.name);
    // A Prologue written before its people were the cast's (format 5 and older) keeps its words.
    if !p.before_cast && !p.who.is_empty() && !matches!(speaker, Some("patron" | "rival" | "captive")) {
        v.push(Violation::new(
            "prologue",
            "prologue.cast",
            "the Prologue's speaker is not of the cast: `who` must open with `{patron}` (or `{rival}`, `{captive}`)"
                .to_string(),
        ));
    }
}

/// The Kingdom Name Tables as the booklet prints them: one line per table, its rolls and words
/// (empty when a tables folder lacks them).
pub fn name_table_lines(tables: &Tables) -> Vec<String> {
    NAME_TABLES
        .iter()
        .filter_map(|n| tables.roll_table(n))
        .map(|t| {
            let rows: Vec<String> =
                t.rows.iter().map(|r| format!("{} {}", r.roll, r.result.as_ref().map_or("", |x| x.as_str()))).collect();
            format!("{} (D66): {}", t.title, rows.join(", "))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(t: &str) -> Vec<&str> {
        crate::text::slots(t).map(|s| s.name).collect()
    }

    /// Every built-in Prologue opens on its patron, described through the cast's slots, with a
    /// job for the cast; a win-over one names its target, never `{ruler}`; a search one names
    /// neither its target nor where it is.
    #[test]
    fn a_prologue_opens_on_the_cast_patron_and_names_only_what_its_kind_allows() {
        let tables = Tables::embedded().expect("embedded tables load");
        for (i, p) in tables.story.prologue.iter().enumerate() {
            let who = p.who.as_str();
            assert!(who.starts_with("{patron} ({patron_who}), {patron_job}, "), "prologue {i}: {who}");
            assert!(!p.job.is_empty() && !p.job.contains('{'), "prologue {i}: job `{}`", p.job);
            let all: Vec<&str> = [who, p.problem.as_str(), p.offer.as_str()].into_iter().flat_map(names).collect();
            if p.kinds.iter().any(|k| k == "win_over") {
                assert!(all.contains(&"target") && !all.contains(&"ruler"), "win-over prologue {i}: {all:?}");
            }
            if p.kinds.iter().any(|k| k == "search") {
                let answer = ["target", "target_room", "target_at"];
                assert!(!all.iter().any(|n| answer.contains(n)), "search prologue {i}: {all:?}");
            }
        }
    }

    /// A class held by two members is told apart by order; without classes each member is
    /// numbered; every seat is a different member.
    #[test]
    fn seats_are_the_book_classes_or_numbered_members_each_once() {
        let s = seats(&[Class::King, Class::Knight, Class::Knight, Class::Ninja], 4);
        let labels: Vec<&str> = s.iter().map(|x| x.label.as_str()).collect();
        assert_eq!(labels, ["The King", "The first Knight", "The second Knight", "The Ninja"]);
        assert_eq!(s[2].named, "the second Knight");
        let s = seats(&[], 3);
        assert_eq!(s[2].label, "Member 3 of the court");
        assert_eq!(s[0].named, "this member");
    }

    /// The option's checks: a name's length and characters, the classes' count and King.
    #[test]
    fn kingdom_and_classes_options_are_checked_with_one_line_naming_the_option() {
        assert_eq!(kingdom_name("  Free   Cat Land ").ok().as_deref(), Some("Free Cat Land"));
        assert_eq!(kingdom_name("Rock & Roll").ok().as_deref(), Some("Rock & Roll"));
        for bad in ["", "   ", "<b>Evil</b>", "A\nB", "{map}", &"x".repeat(KINGDOM_MAX + 1)] {
            let e = kingdom_name(bad).expect_err(bad).to_string();
            assert!(e.starts_with("option `kingdom`: ") && !e.contains('\n'), "{bad:?}: {e}");
        }
        assert!(check_classes(&[Class::King, Class::Ninja], 2).is_ok());
        let e = check_classes(&[Class::King], 2).expect_err("count").to_string();
        assert!(e.starts_with("option `classes`: 1 classes listed for a court of 2"), "{e}");
        let e = check_classes(&[Class::Knight, Class::Ninja], 2).expect_err("king").to_string();
        assert!(e.contains("no king"), "{e}");
        let e = parse_classes("king,chancellor").expect_err("unknown").to_string();
        assert!(e.starts_with("option `classes`: `chancellor` is not a class of the book"), "{e}");
    }

    /// The patron's words are the cast entry's: its sex and age as the tables give them.
    #[test]
    fn patron_who_reads_the_cast_entrys_sex_and_age() {
        let n = Npc {
            name: "Vex".into(),
            role: "patron: a cooper".into(),
            age: "Elderly (60-99)".into(),
            sex: "Male".into(),
            traits: Vec::new(),
            personality: String::new(),
            place: None,
            wants: String::new(),
            line: String::new(),
            fights: None,
        };
        assert_eq!(patron_who(&n), "male, elderly, 60-99");
        assert_eq!(patron_job(&n), "a cooper");
    }
}
