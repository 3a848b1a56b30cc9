//! The Ruler drawn as one story (issue 47): its Emulator persona (`[[nw3.ruler]]`), its Fortress
//! Core (`[[nw3.core]]`), and the past the episode tells (former life, wish, Entrance keyword and
//! why it haunts this place) all belong to one `[[theme]]` of `tables/nw3/episode.toml`. Drawn
//! apart, they told of a fisherman who became a hotel proprietress wanting an encore; drawn from
//! the persona's theme they are one person's story.
//!
//! The same rule serves the three places that need it: the tables refuse a theme a part lacks or
//! an entry of an unknown theme ([`crate::tables::nw3_themes`]); the generator draws
//! the Core and the past from the persona's theme ([`core_for`], [`draw`]); `check` refuses an
//! episode whose stated past the legwork or the Ruler contradicts ([`check_story`]).

use crate::check::Violation;
use crate::dice::Dice;
use crate::nw3::model::Fortress;
use crate::tables::Tables;
use crate::tables::nw3::{CoreRecord, Nw3Data, RulerRecord};
use crate::tables::nw3_episode::{KeywordRecord, ThemedLine, Topic};

/// The past of one Ruler, every part from its persona's theme.
pub struct Story<'a> {
    pub theme: &'a str,
    pub life: &'a str,
    pub wish: &'a str,
    pub place_reason: &'a str,
    pub keyword: Option<&'a KeywordRecord>,
}

/// The theme of the tables' Ruler named `ruler` ("" for a name the tables do not hold).
pub fn theme_of<'a>(d: &'a Nw3Data, ruler: &str) -> &'a str {
    d.ruler(ruler).map_or("", |r| r.theme.as_str())
}

/// The entries of `pool` in `theme`; the whole pool when none is (a Ruler the tables do not
/// know has no theme, and its story is drawn as before).
fn of_theme<'a, T>(pool: &'a [T], theme: &str, theme_of: impl Fn(&T) -> &str) -> Vec<&'a T> {
    let fits: Vec<&T> = pool.iter().filter(|x| theme_of(x) == theme).collect();
    if fits.is_empty() { pool.iter().collect() } else { fits }
}

fn themed_line<'a>(dice: &mut Dice, pool: &'a [ThemedLine], theme: &str) -> &'a str {
    dice.choose(&of_theme(pool, theme, |l| l.theme.as_str())).map_or("", |l| l.text.as_str())
}

/// The past of the Ruler named `ruler`, drawn on `dice` from its theme: life, wish, place
/// reason and keyword, in that order.
pub fn draw<'a>(d: &'a Nw3Data, ruler: &str, dice: &mut Dice) -> Story<'a> {
    let e = &d.episode;
    let theme = theme_of(d, ruler);
    // A former life of the persona's sex (facts.rs), when its theme has one.
    let sex = d.ruler(ruler).and_then(crate::nw3::facts::persona_sex);
    let lives: Vec<&ThemedLine> = of_theme(&e.former_life, theme, |l| l.theme.as_str())
        .into_iter()
        .filter(|l| crate::nw3::facts::agrees(l.sex, sex))
        .collect();
    let life = match dice.choose(&lives) {
        Some(l) => l.text.as_str(),
        None => themed_line(dice, &e.former_life, theme),
    };
    let wish = themed_line(dice, &e.wish, theme);
    let place_reason = themed_line(dice, &e.place_reason, theme);
    let keyword = dice.choose(&of_theme(&e.keyword, theme, |k| k.theme.as_str())).copied();
    Story { theme, life, wish, place_reason, keyword }
}

/// The Fortress Core of `ruler`'s theme, drawn on `dice` (any Core when the tables give that
/// theme none: tables without episode pools have no themes).
pub fn core_for<'a>(d: &'a Nw3Data, ruler: &RulerRecord, dice: &mut Dice) -> Option<&'a CoreRecord> {
    dice.choose(&of_theme(&d.cores, &ruler.theme, |c| c.theme.as_str())).copied()
}

/// The Core for a kept Ruler named `ruler` where `drawn` was drawn for another: `drawn` when it
/// is of the kept Ruler's theme, else the Core of that theme at the same place in the tables
/// (no stream: a reroll's other draws stay as they were).
pub fn core_kept<'a>(d: &'a Nw3Data, ruler: &str, drawn: &'a CoreRecord) -> &'a CoreRecord {
    let theme = theme_of(d, ruler);
    if drawn.theme == theme {
        return drawn;
    }
    let fits = of_theme(&d.cores, theme, |c| c.theme.as_str());
    let at = d.cores.iter().position(|c| c.name == drawn.name).unwrap_or(0);
    fits.get(at % fits.len().max(1)).copied().unwrap_or(drawn)
}

/// Every way the episode's stated past breaks the Ruler's story, appended to `v`:
///
/// | rule | what it checks |
/// | --- | --- |
/// | `episode.former` | the legwork on the Ruler states its former name and former life as the episode has them |
/// | `episode.theme` | the persona, Core, former life, wish, keyword and place reason are of one theme (files that record it) |
pub fn check_story(f: &Fortress, tables: &Tables, v: &mut Vec<Violation>) {
    if f.episode.is_none() {
        return;
    }
    former_stated(&crate::nw3::text::filled(f), v);
    theme_kept(f, &tables.nw3, v);
}

/// The legwork item on the Ruler names who it was and what it did, as the episode says.
fn former_stated(filled: &Fortress, v: &mut Vec<Violation>) {
    let Some(e) = &filled.episode else { return };
    let past = &e.past;
    for (i, l) in e.legwork.iter().enumerate().filter(|(_, l)| l.topic == Topic::Ruler) {
        // The reasons it quotes may name the former self too; who it was is stated outside them.
        let mut own = l.reveals.clone();
        for reason in [&past.place_reason, &past.victim_reason].into_iter().filter(|r| !r.is_empty()) {
            own = own.replace(reason.as_str(), "");
        }
        let missing = if !past.former.is_empty() && !own.contains(past.former.as_str()) {
            format!("its former name `{}`", past.former)
        } else if !past.life.is_empty() && !own.contains(past.life.as_str()) {
            format!("its former life `{}`", past.life)
        } else {
            continue;
        };
        let m = format!(
            "`{}` states another past of {} than the episode's: it never says {missing}",
            l.title, filled.ruler.name
        );
        v.push(Violation::new(format!("legwork {}", i + 1), "episode.former", m));
    }
}

/// The theme that holds `text` in `pool` when `theme` does not: the part belongs to another
/// Ruler's story (a text no entry holds is the GM's own, and fits as far as tables can tell).
fn other_theme<'a, T>(
    pool: &'a [T],
    theme: &str,
    holds: impl Fn(&T) -> bool,
    theme_of: impl Fn(&T) -> &str,
) -> Option<&'a str> {
    let owners: Vec<&T> = pool.iter().filter(|x| holds(x)).collect();
    if owners.iter().any(|x| theme_of(x) == theme) {
        return None;
    }
    owners.first().map(|x| theme_of(x))
}

/// The persona, Core and past parts of a file that records its theme are all of that theme.
fn theme_kept(f: &Fortress, d: &Nw3Data, v: &mut Vec<Violation>) {
    let Some(e) = &f.episode else { return };
    let theme = e.past.theme.as_str();
    if theme.is_empty() {
        return; // written before the Ruler had one story
    }
    let mut refuse = |place: &str, what: String, other: &str| {
        let m = format!("{what} belongs to the story `{other}`, not to the episode's `{theme}`");
        v.push(Violation::new(place.to_string(), "episode.theme", m));
    };
    if let Some(r) = d.ruler(&f.ruler.name).filter(|r| r.theme != theme) {
        refuse("ruler", format!("the Ruler {}", r.name), &r.theme);
    }
    if let Some(c) = d.core(&f.core.name).filter(|c| c.theme != theme) {
        refuse("core", format!("the Fortress Core {}", c.name), &c.theme);
    }
    let pools = &d.episode;
    let lines = [("former life", &pools.former_life, &e.past.life), ("wish", &pools.wish, &e.past.wish)];
    let lines = lines.into_iter().chain([("place reason", &pools.place_reason, &e.past.place_reason)]);
    for (what, pool, text) in lines {
        if let Some(other) = other_theme(pool, theme, |l| l.text == *text, |l| l.theme.as_str()) {
            refuse("episode", format!("the Ruler's {what} `{}`", crate::tables::nw3_episode::short(text)), other);
        }
    }
    if let Some(k) = &e.keyword
        && let Some(other) = other_theme(&pools.keyword, theme, |x| x.word == k.word, |x| x.theme.as_str())
    {
        refuse("entrance", format!("the keyword \"{}\"", k.word), other);
    }
}
