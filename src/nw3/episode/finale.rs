//! One finale, decided from the fortress before any text is drawn (seed 000 l.863-881): where the
//! Ruler makes its stand, where the Fortress Core lies, whether the Core is fought for beside the
//! Ruler, only after it, or may be broken first, and which of the ways a Dive ends the gates and
//! the Ruler allow, in the book's order (the Ruler defeated, the Core broken, the Ruler's leave;
//! then the party's fall).
//!
//! The finale is a function of the fortress as it stands ([`plan`]): generation draws the Climax
//! and the endings from pool entries whose claims ([`Claim`]) hold in it, and `check` holds the
//! stored texts to it again, so a hand edit of a gate or the Ruler's area that breaks a claim is
//! refused. The sentences that state the finale itself (where the Core lies, what freeing the
//! victim takes, what became of the victim) are slots filled when read ([`said`]), so they follow
//! the gates as they stand.

use std::collections::BTreeSet;

use crate::dice::Dice;
use crate::nw3::episode::core::Leave;
use crate::nw3::model::{Climax, Ending, Episode, Fortress, Gate, GateKind, Opener};
use crate::tables::nw3_episode::{ClimaxRecord, EpisodeData, Way};

pub use crate::tables::nw3_episode::Claim;

/// Whether the Core is fought for beside the Ruler, only after it, or may be taken first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreOrder {
    /// In the Ruler's own area: struck during the Ruler's fight.
    Beside,
    /// Apart, behind a gate the Ruler's encounter opens: taken only after the Ruler falls.
    After,
    /// Apart, behind a gate that stands open while the Ruler fights: a PC may withdraw through it
    /// mid-fight (l.957-959) and break the Core beside the Ruler's fight.
    During,
    /// Apart, and a way around the Ruler reaches it.
    Either,
}

/// The finale as the fortress decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finale {
    pub ruler_area: u32,
    /// None when a hand edit left the fortress without a Core area.
    pub core_area: Option<u32>,
    pub order: CoreOrder,
    /// The Ruler's area can be reached from the Entrance.
    pub ruler_reached: bool,
    /// The party can walk back from the Ruler's area to the Entrance.
    pub way_back: bool,
    /// The Ruler may leave its Casket: its tactics do not say it never flees, and a Core holds
    /// the Casket without it (l.877-881).
    pub flees: bool,
    /// Whether and when the Ruler grants leave (its persona's, `core.rs`).
    pub leave: Leave,
    /// The ways the Dive can end, in the book's order.
    pub ways: Vec<Way>,
}

/// The words in a Ruler's tactics that say it stays to the end ([`crate::nw3::episode::tactics`]).
pub const NEVER_FLEES: &str = "never flees";

/// The finale of `f`, reading the Ruler's `tactics` for whether it may flee and its `leave` for
/// whether a retreat can happen.
pub fn plan(f: &Fortress, tactics: &[String], leave: Leave) -> Finale {
    let ruler_area = f.ruler.area;
    let core_area = f.core_area().map(|a| a.id);
    let entrance: Vec<u32> = f.entrance().map(|a| a.id).into_iter().collect();
    let inside = reach(f, &entrance, None, &BTreeSet::new());
    let around = reach(f, &entrance, Some(ruler_area), &BTreeSet::new());
    let fighting = reach(f, &entrance, Some(ruler_area), &BTreeSet::from([ruler_area]));
    let order = match core_area {
        Some(c) if c == ruler_area => CoreOrder::Beside,
        Some(c) if around.contains(&c) => CoreOrder::Either,
        Some(c) if fighting.contains(&c) => CoreOrder::During,
        _ => CoreOrder::After,
    };
    let back = reach(f, &[ruler_area], None, &inside);
    let way_back = entrance.first().is_some_and(|e| back.contains(e));
    let flees = core_area.is_some() && !tactics.iter().any(|t| t.contains(NEVER_FLEES));
    let ruler_reached = inside.contains(&ruler_area);
    let mut ways = Vec::new();
    if ruler_reached {
        ways.push(Way::RulerDefeated);
    }
    if order != CoreOrder::After {
        ways.push(Way::CoreBroken);
    }
    if leave != Leave::Barred {
        ways.push(Way::Retreat);
    }
    ways.push(Way::Fall);
    Finale { ruler_area, core_area, order, ruler_reached, way_back, flees, leave, ways }
}

/// The finale of `f` as its stored tactics read (a fortress without an episode: as generated).
pub fn of(f: &Fortress) -> Finale {
    match &f.episode {
        Some(e) => plan(f, &e.climax.tactics, e.climax.leave),
        None => plan(f, &crate::nw3::episode::tactics(f, Leave::Unsaid), Leave::Unsaid),
    }
}

/// Every area reachable from `start` through gates a party can use while the event of `unbeaten`
/// (the Ruler's area) is not cleared: a gate it opens stays shut, and the area itself is never
/// entered unless it is in `cleared` (here: entered, its fight still on); any other closed or
/// secret gate opens once the area whose event or device opens it is reached (or is in
/// `cleared`, events already met).
fn reach(f: &Fortress, start: &[u32], unbeaten: Option<u32>, cleared: &BTreeSet<u32>) -> BTreeSet<u32> {
    let blocked = unbeaten.filter(|a| !cleared.contains(a));
    let mut seen: BTreeSet<u32> = start.iter().copied().collect();
    loop {
        let before = seen.len();
        for g in &f.gates {
            let open = |o: Opener| match o {
                Opener::Event(x) => Some(x) != unbeaten && (seen.contains(&x) || cleared.contains(&x)),
                Opener::Device(x) => Some(x) != blocked && (seen.contains(&x) || cleared.contains(&x)),
                Opener::DangerSense(_) => true,
            };
            if !usable(g, open) {
                continue;
            }
            let mut step = |a: u32, b: u32| {
                if seen.contains(&a) && Some(b) != blocked {
                    seen.insert(b);
                }
            };
            step(g.from, g.to);
            if g.kind != GateKind::OneWay {
                step(g.to, g.from);
            }
        }
        if seen.len() == before {
            return seen;
        }
    }
}

/// Whether gate `g` can be passed, `open` saying whether an opener has been worked.
fn usable(g: &Gate, open: impl Fn(Opener) -> bool) -> bool {
    match g.kind {
        GateKind::Normal | GateKind::OneWay => true,
        // A secret gate with no event of its own is found by Danger Sense 15 (l.961).
        GateKind::Secret => g.opened_by.is_none_or(open),
        GateKind::Closed => g.opened_by.is_some_and(open),
        GateKind::Damaged => g.uses.is_some_and(|u| u > 0),
    }
}

impl Finale {
    /// Whether claim `c` holds in this finale.
    pub fn holds(&self, c: Claim) -> bool {
        match c {
            Claim::CoreBeside => self.order == CoreOrder::Beside,
            Claim::CoreApart => self.order != CoreOrder::Beside,
            Claim::CoreFirst => self.order != CoreOrder::After,
            Claim::RulerLeave => self.leave != Leave::Barred,
            Claim::BarsDoor => self.leave == Leave::Barred,
            Claim::WayBack => self.way_back,
            Claim::RulerFlees => self.flees,
        }
    }

    /// Whether every claim of `needs` holds.
    pub fn allows(&self, needs: &[Claim]) -> bool {
        needs.iter().all(|&c| self.holds(c))
    }

    /// Why claim `c` does not hold, for `check`.
    fn why_not(&self, c: Claim, f: &Fortress) -> String {
        let core = self.core_area.map_or("no area".to_string(), |c| format!("area {c}"));
        let (ruler, r) = (&f.ruler.name, self.ruler_area);
        match c {
            Claim::CoreBeside => format!("it shows the Core beside {ruler}, but the Core lies in {core}, not area {r}"),
            Claim::CoreApart => format!("it puts the Core apart, but the Core lies in {ruler}'s own area {r}"),
            Claim::CoreFirst => {
                format!("it breaks the Core first, but the way to {core} opens only when {ruler} in area {r} falls")
            }
            Claim::RulerLeave => format!("it claims {ruler}'s leave, but {ruler} bars the door"),
            Claim::BarsDoor => format!("it has {ruler} bar the door, but {ruler} offers leave"),
            Claim::WayBack => {
                format!("the party walks back out, but no usable gates lead from area {r} to the Entrance")
            }
            Claim::RulerFlees => format!("{ruler} flees, but its tactics say it {NEVER_FLEES}"),
        }
    }
}

/// A Climax and endings entry's claims as they read in `check` messages.
fn claims(needs: &[Claim]) -> String {
    needs.iter().map(|c| format!("`{}`", c.label())).collect::<Vec<_>>().join(", ")
}

/// The Climax: the scene in the Ruler's area (its name and description as slots, then a pool
/// line whose claims hold, then where the Core lies and when it is fought for), the Ruler's
/// line, and its tactics.
pub fn climax(e: &EpisodeData, fin: &Finale, tactics: Vec<String>, dice: &mut Dice) -> Climax {
    let fits: Vec<&ClimaxRecord> = e.climax.iter().filter(|c| fin.allows(&c.needs)).collect();
    let (text, mut needs) =
        dice.choose(&fits).map_or((String::new(), Vec::new()), |c| (c.text.clone(), c.needs.clone()));
    // The Ruler's line is drawn as the scene is: only where what it says holds (its leave).
    let lines: Vec<&ClimaxRecord> = e.ruler_line.iter().filter(|c| fin.allows(&c.needs)).collect();
    let line = dice.choose(&lines).map_or(String::new(), |l| {
        needs.extend(l.needs.iter().filter(|c| !needs.contains(c)).copied().collect::<Vec<_>>());
        l.text.clone()
    });
    Climax {
        setting: format!("{{lair_description}} {text}"),
        line,
        tactics,
        area: fin.ruler_area,
        needs,
        leave: fin.leave,
        core: None,
        guards: None,
    }
}

/// An ending for each way the finale allows, from the entries whose claims hold (a retreat only
/// with the Ruler's leave); each opens with what the finale makes of the Core (`{won}`,
/// `{core_first}`) and closes with what became of the victim (`{fate}`) unless it says so itself.
pub fn endings(e: &EpisodeData, fin: &Finale, dice: &mut Dice) -> Vec<Ending> {
    fin.ways
        .iter()
        .filter_map(|&way| {
            let fits: Vec<_> = e
                .ending
                .iter()
                .filter(|x| x.way == way && fin.allows(&x.needs))
                .filter(|x| way != Way::Retreat || x.needs.contains(&Claim::RulerLeave))
                .collect();
            let x = dice.choose(&fits)?;
            let lead = match way {
                Way::RulerDefeated => "{won} ",
                Way::CoreBroken => "{core_first} ",
                Way::Retreat | Way::Fall => "",
            };
            let fate = if x.text.contains("{victim}") { String::new() } else { format!(" {{fate:{}}}", way_key(way)) };
            Some(Ending { way, text: format!("{lead}{}{fate}", x.text), xp: way.xp(), needs: x.needs.clone() })
        })
        .collect()
}

/// How a way is written in a `{fate:WAY}` slot (as the pools name it).
fn way_key(way: Way) -> &'static str {
    match way {
        Way::RulerDefeated => "ruler_defeated",
        Way::CoreBroken => "core_broken",
        Way::Retreat => "retreat",
        Way::Fall => "fall",
    }
}

/// The Climax's first lines: where the Ruler stands, where the Core lies and when it is fought
/// for, and the ways this Dive can end, in the book's order.
pub fn headline(f: &Fortress) -> String {
    let fin = of(f);
    let lair = f.area(fin.ruler_area).map_or(String::new(), |a| format!(" ({})", a.name));
    let stand = said(f, "stand", None).unwrap_or_default();
    let ways: Vec<String> = fin
        .ways
        .iter()
        .map(|w| match w {
            Way::RulerDefeated => "the Ruler defeated (then the Core broken)".into(),
            Way::CoreBroken => "the Core broken first".into(),
            Way::Retreat => crate::nw3::episode::core::retreat_way(f, fin.leave),
            Way::Fall => "the party's fall".into(),
        })
        .collect();
    format!(
        "{} ({}) makes its stand in area {}{lair}. {stand} The Casket falls only when its Core breaks; this Dive can end by {}.",
        f.ruler.name,
        f.ruler.title,
        fin.ruler_area,
        ways.join(", ")
    )
}

/// The text of the area where the victim is held (the Ruler's): who, why, what freeing them takes.
pub fn captive(fin: &Finale) -> crate::nw3::model::Captive {
    crate::nw3::model::Captive {
        area: fin.ruler_area,
        text: "{victim} is held here by {ruler}. {victim_reason} {free}".into(),
    }
}

/// The finale's own sentences, filled when a text is read: `stand` (where the Core lies and when
/// it is fought for), `won` and `core_first` (what the Core does in those endings), `free` (what
/// freeing the victim takes), `fate:WAY` (what became of the victim), `lair` and
/// `lair_description` (the Ruler's area). `None` for any other name.
pub fn said(f: &Fortress, name: &str, arg: Option<&str>) -> Option<String> {
    let fin = of(f);
    let lair = f.area(fin.ruler_area);
    let core = &f.core.name;
    let ruler = &f.ruler.name;
    let at = |id: u32| f.area(id).map_or(format!("area {id}"), |a| format!("area {id} ({})", a.name));
    let core_at = fin.core_area.map_or("the Core's area".to_string(), at);
    let victim = f.episode.as_ref().map_or("the victim", |e| e.victim.as_str());
    Some(match (name, arg) {
        ("lair", None) => lair?.name.clone(),
        ("lair_description", None) => lair?.description.clone(),
        ("stand", None) => match fin.order {
            CoreOrder::Beside => {
                format!("The {core} is here beside {ruler}: the party can strike at it during the fight.")
            }
            CoreOrder::After => format!(
                "The {core} is not here: it lies beyond, in {core_at}, behind a gate that opens only when {ruler} falls, so the Core is fought for after the Ruler."
            ),
            CoreOrder::Either => format!(
                "The {core} is not here: it lies in {core_at}, which another way also reaches, so the party may break it before facing {ruler} or after."
            ),
            CoreOrder::During => format!(
                "The {core} is not here: it lies in {core_at}, through a gate behind {ruler} that stands open while it fights, so a PC may withdraw through it mid-fight and break the Core beside the Ruler's fight, or the party takes it after."
            ),
        },
        ("won", None) => match fin.order {
            CoreOrder::Beside => {
                format!("{ruler} is beaten, and the party breaks the {core} beside it: only then does the Casket fall.")
            }
            _ => format!(
                "{ruler} is beaten first, and the party then breaks the {core} in {core_at}, for the Casket stands on its Core: only then does it fall."
            ),
        },
        ("core_first", None) => match fin.order {
            CoreOrder::Beside => {
                format!("In the middle of the fight the party breaks the {core}, and the Casket falls around {ruler}.")
            }
            CoreOrder::During => format!(
                "While the others hold {ruler}, a PC withdraws through the open gate to {core_at} and breaks the {core}, and the Casket falls around {ruler} with the fight unfinished."
            ),
            _ => format!(
                "The party reaches {core_at} by the way around {ruler} and breaks the {core} there, and the Casket falls around {ruler} before the two sides ever meet."
            ),
        },
        ("free", None) => format!(
            "Freeing {victim} takes the Casket's fall: {}; {victim} cannot be carried out past {ruler} while it stands.",
            match fin.order {
                CoreOrder::After => format!("{ruler} defeated and then the {core} broken in {core_at}"),
                _ => format!("the {core} broken, in {core_at}, with or without {ruler} defeated first"),
            }
        ),
        ("fate", Some(way)) => {
            let held = at(fin.ruler_area);
            match way {
                "ruler_defeated" | "core_broken" => {
                    format!("{victim} wakes free as the Casket falls, and is home by morning.")
                }
                "retreat" => format!("{victim} stays behind, still held by {ruler} in {held}."),
                "fall" => format!("{victim} stays where {ruler} holds them, in {held}, with the party's last hope."),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Where a stored text states the finale other than the fortress has it, one line each: the
/// Climax outside the Ruler's area, the Core's or the victim's area misstated, a Climax or an
/// ending whose claims do not hold, an ending the gates or the Ruler do not allow, a way the
/// finale allows with no ending. `(place, rule, message)`.
pub fn problems(f: &Fortress) -> Vec<(String, &'static str, String)> {
    let Some(e) = &f.episode else { return Vec::new() };
    let fin = plan(f, &e.climax.tactics, e.climax.leave);
    let mut out = Vec::new();
    let mut say = |place: &str, rule, m: String| out.push((place.to_string(), rule, m));
    let (ruler, r) = (&f.ruler.name, fin.ruler_area);
    if e.climax.area != 0 && e.climax.area != r {
        let m = format!("the Climax is set in area {}, but {ruler} stands in area {r}", e.climax.area);
        say("climax", "episode.climax", m);
    }
    if let Some(c) = e.climax.needs.iter().find(|&&c| !fin.holds(c)) {
        say("climax", "episode.climax", format!("the Climax scene claims {}: {}", claims(&[*c]), fin.why_not(*c, f)));
    }
    stated_areas(f, e, &fin, &mut say);
    for x in &e.endings {
        let way = x.way.label();
        if x.way == Way::Retreat && fin.leave == Leave::Barred {
            // `core::problems` names it (`episode.leave`).
            continue;
        }
        if !fin.ways.contains(&x.way) {
            say("endings", "episode.endings", format!("the ending `{way}` cannot happen: {}", never(f, &fin, x.way)));
        } else if x.way == Way::Retreat && !x.needs.contains(&Claim::RulerLeave) {
            say(
                "endings",
                "episode.endings",
                format!("the ending `{way}` leaves without the Ruler's leave (seed 000 l.863-871)"),
            );
        } else if let Some(c) = x.needs.iter().find(|&&c| !fin.holds(c)) {
            say(
                "endings",
                "episode.endings",
                format!("the ending `{way}` claims {}: {}", claims(&[*c]), fin.why_not(*c, f)),
            );
        }
    }
    for way in &fin.ways {
        if !e.endings.iter().any(|x| x.way == *way) {
            say("episode", "episode.endings", format!("no ending for `{}`", way.label()));
        }
    }
    out
}

/// Why the Dive cannot end `way` in this fortress.
fn never(f: &Fortress, fin: &Finale, way: Way) -> String {
    match way {
        Way::RulerDefeated => {
            format!("no usable gates lead from the Entrance to {} in area {}", f.ruler.name, fin.ruler_area)
        }
        Way::CoreBroken => format!(
            "the way to the Core in area {} opens only when {} in area {} falls",
            fin.core_area.unwrap_or(0),
            f.ruler.name,
            fin.ruler_area
        ),
        Way::Retreat | Way::Fall => "the finale does not allow it".into(),
    }
}

/// The Core's and the victim's areas as the legwork and the victim's area text state them,
/// against the fortress.
fn stated_areas(f: &Fortress, e: &Episode, fin: &Finale, say: &mut impl FnMut(&str, &'static str, String)) {
    use crate::tables::nw3_episode::Topic;
    let held = f.victim_area().map_or(fin.ruler_area, |a| a.id);
    for (i, l) in e.legwork.iter().enumerate() {
        let place = format!("legwork {}", i + 1);
        let stated = area_refs(&l.reveals);
        match l.topic {
            Topic::Core => {
                if let (Some(c), Some(&n)) = (fin.core_area, stated.first())
                    && n != c
                {
                    say(
                        &place,
                        "episode.core",
                        format!("the legwork puts the {} in area {n}; it lies in area {c}", f.core.name),
                    );
                }
            }
            Topic::Victim => {
                if let Some(&n) = stated.first()
                    && n != held
                {
                    say(
                        &place,
                        "episode.victim",
                        format!(
                            "the legwork holds {} in area {n}; {} holds them in area {held}",
                            e.victim, f.ruler.name
                        ),
                    );
                }
            }
            _ => {}
        }
    }
    if let Some(c) = &e.captive
        && c.area != held
    {
        let m = format!("area {}'s text holds {}, but {} holds them in area {held}", c.area, e.victim, f.ruler.name);
        say("episode", "episode.victim", m);
    }
}

/// The area ids a text names by `{area:N}` slots, in order.
fn area_refs(text: &str) -> Vec<u32> {
    crate::text::slots(text).filter(|s| s.name == "area").filter_map(|s| s.arg?.parse().ok()).collect()
}

/// A kept episode (a locked frame) set on a fortress rolled anew follows its finale: the Climax
/// and the victim move to the Ruler's new area, a Climax line whose claims no longer hold is
/// drawn anew, and so is each ending the new gates do not allow (on `dice`); an ending for a
/// way the new gates allow is drawn if the episode has none.
pub fn follow(d: &EpisodeData, f: &mut Fortress, dice: &mut Dice) {
    let Some(mut e) = f.episode.take() else { return };
    e.climax.leave = crate::nw3::episode::core::leave_again(e.climax.leave, f);
    let fin = plan(f, &e.climax.tactics, e.climax.leave);
    if e.climax.area != 0 {
        e.climax.area = fin.ruler_area;
        if !fin.allows(&e.climax.needs) {
            let fresh = climax(d, &fin, e.climax.tactics.clone(), dice);
            (e.climax.setting, e.climax.needs) = (fresh.setting, fresh.needs);
        }
        let fresh = endings(d, &fin, dice);
        let kept = std::mem::take(&mut e.endings);
        e.endings = fin
            .ways
            .iter()
            .filter_map(|w| {
                let ok = |x: &&Ending| x.way == *w && fin.allows(&x.needs);
                kept.iter().find(ok).or_else(|| fresh.iter().find(|x| x.way == *w)).cloned()
            })
            .collect();
    }
    crate::nw3::episode::core::follow(f, &fin, &mut e.climax);
    if let Some(c) = e.captive.as_mut() {
        c.area = fin.ruler_area;
    }
    f.episode = Some(e);
}
