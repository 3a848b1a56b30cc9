//! The episode around a Fortress (seed 000 l.466-560), rolled from the pools of
//! `tables/nw3/episode.toml` once the fortress stands: the Ruler's past, the Entrance keyword or
//! item (and the Entrance text that asks for it), the trailer, one Handout per PC, the Opening
//! Phase scenes that plant what the Dive needs, the Middle Phase legwork, the Climax and the
//! After Phase endings. Everything is drawn on one stream (`nw3/episode` for a generated
//! fortress), in the order of this file, so the episode is a function of the fortress and that
//! stream.
//!
//! Every text is stored as its pool wrote it, slots and all, and filled when it is read
//! ([`crate::nw3::text::filled`]), so a renamed area or NPC never leaves a sentence stale; the
//! facts this module writes itself (what a legwork item reveals) name the fortress's parts by
//! typed slots (`{area:7}`, `{npc:2}`).

pub mod core;
pub mod finale;
pub mod scenes;

use crate::dice::Dice;
use crate::nw3::model::{
    Connection, EntranceItem, Episode, Fortress, GateKind, Handout, Keyword, Legwork, Past, Scene,
};
use crate::nw3::rules::{judge_difficulty, legwork_hardness};
use crate::tables::nw3::{EntranceKind, Nw3Data};
use crate::tables::nw3_combat::{AttackKind, Target, Timing};
use crate::tables::nw3_episode::{EpisodeData, KeywordRecord, Line, Plant, Topic};

/// A line from a pool (the pools are validated non-empty before a generator runs).
fn line<'a>(dice: &mut Dice, pool: &'a [Line]) -> &'a str {
    dice.choose(pool).map_or("", |l| l.text.as_str())
}

/// `want` indexes below `len` dealt by [`Dice::deal`], then round and round (a pool repeats
/// only when spent).
struct Deal {
    order: Vec<usize>,
    next: usize,
}

impl Deal {
    fn new(dice: &mut Dice, len: usize, want: usize) -> Deal {
        Deal { order: dice.deal(len, want), next: 0 }
    }

    fn take(&mut self) -> usize {
        let i = self.order[self.next % self.order.len().max(1)];
        self.next += 1;
        i
    }
}

/// The episode of fortress `f` on `dice`, or `None` when the tables hold no episode pools. Sets
/// the fortress's trailer and its Entrance text (read from `entrance_pattern`, the record as the
/// tables give it), both with their slots, as every text of the episode.
pub fn roll_episode(d: &Nw3Data, f: &mut Fortress, entrance_pattern: &str, dice: &mut Dice) -> Option<Episode> {
    let e = &d.episode;
    if e.is_empty() {
        return None;
    }
    let town = dice.choose(&d.towns).map_or_else(|| "the city".to_string(), |t| t.text.clone());
    // The Ruler's life, wish, haunt and keyword are one story, its persona's (ruler_story.rs);
    // its former name is of the sex the persona and the life tell (facts.rs).
    let story = crate::nw3::ruler_story::draw(d, &f.ruler.name, dice);
    let sex = crate::nw3::facts::former_sex(d, &f.ruler.name, story.life);
    let (former, victim) = crate::nw3::facts::two_names(e, sex, dice);
    let past = Past {
        former,
        life: story.life.into(),
        wish: story.wish.into(),
        place_reason: story.place_reason.into(),
        victim_reason: line(dice, &e.victim_reason).into(),
        theme: story.theme.into(),
    };
    let (keyword, item) = entrance_thing(e, story.keyword, f.entrance_condition.kind, dice);
    f.entrance_condition.text = entrance_pattern.to_string();
    let handouts = handouts(e, f.party.size, dice);
    f.trailer = [&e.trailer_open, &e.trailer_turn, &e.trailer_close]
        .iter()
        .map(|pool| line(dice, pool))
        .collect::<Vec<_>>()
        .join(" ");
    let opening = opening(d, f, dice);
    let legwork = legwork(d, f, &handouts, dice);
    // The finale is decided before its texts are drawn, and each follows it.
    let leave = core::leave_of(d, f);
    let tactics = tactics(f, leave);
    let fin = crate::nw3::finale::plan(f, &tactics, leave);
    let mut climax = crate::nw3::finale::climax(e, &fin, tactics, dice);
    core::plan_climax(d, f, &fin, &mut climax);
    let endings = crate::nw3::finale::endings(e, &fin, dice);
    let captive = Some(crate::nw3::finale::captive(&fin));
    let mut episode = Episode {
        town,
        victim,
        past,
        keyword,
        item,
        handouts,
        opening,
        legwork,
        climax,
        endings,
        captive,
        middle: vec![],
    };
    // The scenes around the handouts, planned from all of the above (drawn last).
    scenes::plan(e, &mut episode, dice);
    Some(episode)
}

/// The keyword or item the Entrance asks for (the keyword is the Ruler's story's, the item is
/// rolled whatever the Entrance kind, so the draws do not depend on it; only the one the
/// Entrance asks for is kept).
fn entrance_thing(
    e: &EpisodeData,
    keyword: Option<&KeywordRecord>,
    kind: EntranceKind,
    dice: &mut Dice,
) -> (Option<Keyword>, Option<EntranceItem>) {
    let k = keyword.map(|k| Keyword { word: k.word.clone(), origin: k.origin.clone() });
    let i = dice.choose(&e.item).map(|i| EntranceItem { name: i.name.clone(), where_found: i.where_found.clone() });
    match kind {
        EntranceKind::Keyword => (k, None),
        EntranceKind::Item => (None, i),
        EntranceKind::Cost => (None, None),
    }
}

/// One Handout per PC: a hook and a Connection, each Connection different (the pools hold at
/// least eight), hooks different while the pool lasts. `{npc}` and `{pc}` in a handout's texts
/// are its own.
fn handouts(e: &EpisodeData, size: u32, dice: &mut Dice) -> Vec<Handout> {
    let mut npcs = Deal::new(dice, e.connection.len(), size as usize);
    let mut hooks = Deal::new(dice, e.hook.len(), size as usize);
    (1..=size)
        .map(|pc| {
            let c = &e.connection[npcs.take()];
            let hook = e.hook[hooks.take()].text.clone();
            Handout {
                pc,
                hook,
                connection: Connection { name: c.name.clone(), who: c.who.clone(), setting: c.setting },
            }
        })
        .collect()
}

/// The Opening Phase: a scene planting the Entrance keyword or item (when the Entrance asks
/// one; the trouble otherwise), one planting the victim, and one showing the first sign of the
/// Logic: the sign its own record writes (the pool's, drawn all the same so the stream stays,
/// for a Logic the tables give none), its name and effect following the scene.
fn opening(d: &Nw3Data, f: &Fortress, dice: &mut Dice) -> Vec<Scene> {
    let e = &d.episode;
    let first = match f.entrance_condition.kind {
        EntranceKind::Keyword => Plant::Keyword,
        EntranceKind::Item => Plant::Item,
        EntranceKind::Cost => Plant::Trouble,
    };
    let mut scenes = Vec::new();
    for plant in [first, Plant::Victim, Plant::Logic] {
        let fits: Vec<_> = e.opening.iter().filter(|o| o.plants == plant).collect();
        let Some(o) = dice.choose(&fits) else { continue };
        let (mut title, mut text) = (o.title.clone(), o.text.clone());
        if plant == Plant::Logic
            && let Some(sign) = crate::nw3::facts::logic_sign(d, f, dice)
        {
            (title, text) = (sign.title.clone(), sign.text.clone());
        }
        if plant == Plant::Logic && !f.logic.is_empty() {
            text.push_str(" The sign shows the Logic {logic:1}: {logic_effect:1}");
        }
        let plants = plant;
        scenes.push(Scene {
            title,
            plants,
            text,
            pc: 0,
            party: false,
            at: String::new(),
            says: String::new(),
            knows: String::new(),
        });
    }
    scenes
}

/// The Middle Phase legwork: one item per topic the fortress has something to reveal for (a
/// secret gate only when there is one), each with its Attribute, its difficulty by the judge rule
/// (ordinary for a topic that shows the way onward, `rules::legwork_hardness`), the
/// Connection that gives +2 (the Handouts' Connections in turn) and the concrete fact it reveals.
fn legwork(d: &Nw3Data, f: &Fortress, handouts: &[Handout], dice: &mut Dice) -> Vec<Legwork> {
    let mut out = Vec::new();
    for topic in Topic::ALL {
        let fits: Vec<_> = d.episode.legwork.iter().filter(|l| l.topic == topic).collect();
        let Some(rec) = dice.choose(&fits) else { continue };
        let Some(reveals) = reveal(f, topic) else { continue };
        // The handouts' Connections in turn, named by slot: a renamed Connection stays one.
        let connection =
            if handouts.is_empty() { String::new() } else { format!("{{npc:{}}}", out.len() % handouts.len() + 1) };
        out.push(Legwork {
            topic,
            title: rec.title.clone(),
            attribute: rec.attribute.clone(),
            difficulty: judge_difficulty(f.params.cl, legwork_hardness(topic, rec.hardness)),
            connection,
            text: rec.text.clone(),
            reveals,
        });
    }
    out
}

/// Each legwork item's fact from the fortress as it now stands (its graph rolled anew under a
/// kept frame): an item whose topic the fortress no longer has (no secret gate) is dropped.
pub fn reveal_anew(f: &mut Fortress) {
    let Some(mut e) = f.episode.take() else { return };
    e.legwork.retain_mut(|l| match reveal(f, l.topic) {
        Some(r) => {
            l.reveals = r;
            true
        }
        None => false,
    });
    scenes::follow_legwork(&mut e);
    f.episode = Some(e);
}

/// "{area:7}": area 7 as it stands when read ("area 7 (Flooded Platform)").
fn area_slot(id: u32) -> String {
    format!("{{area:{id}}}")
}

/// The fact a legwork item of `topic` reveals, with its slots, or `None` when the fortress has
/// none to give.
fn reveal(f: &Fortress, topic: Topic) -> Option<String> {
    Some(match topic {
        Topic::Entrance => entrance_reveal(f),
        Topic::Ruler => "{ruler} was once {former}, {life}. It wants {wish}. {place_reason} {victim_reason}".into(),
        Topic::Weakness => weakness(f),
        Topic::Logic => {
            let n = f.logic.len();
            (n > 0).then(|| format!("The Logic {{logic:{n}}} holds inside: {{logic_effect:{n}}}"))?
        }
        Topic::SecretGate => {
            let g = f.gates.iter().find(|g| g.kind == GateKind::Secret)?;
            format!(
                "A secret gate joins {} and {}; to find it: {{gate:{}-{}}}.",
                area_slot(g.from),
                area_slot(g.to),
                g.from,
                g.to
            )
        }
        Topic::Core => {
            let core = f.core_area()?;
            let gates = core.appearance_difficulty.saturating_sub(8) / 2;
            format!("The {{core}} stands in {}, {gates} gates from the Entrance.", area_slot(core.id))
        }
        // Named by slot: the area is `Fortress::victim_area`'s as the fortress stands when read.
        Topic::Victim => "{victim} is held inside the Fortress by {ruler}, in {victim_area}.".into(),
    })
}

/// What the Entrance asks, and where the party gets it.
fn entrance_reveal(f: &Fortress) -> String {
    match f.entrance_condition.kind {
        EntranceKind::Keyword => "The Entrance opens to the word \"{keyword}\".".into(),
        EntranceKind::Item => "The Entrance opens for the {item}, found {where}.".into(),
        EntranceKind::Cost => "The Entrance asks a price: {entrance}".into(),
    }
}

/// Where the Ruler is open: its weaker defence, and any object in the fortress that works
/// against it.
fn weakness(f: &Fortress) -> String {
    let Some(s) = f.ruler.stats else { return "{ruler} has no weak side to find.".into() };
    let edge = match s.pdef.cmp(&s.mdef) {
        std::cmp::Ordering::Less => "physical attacks hurt it more than magical ones",
        std::cmp::Ordering::Greater => "magical attacks hurt it more than physical ones",
        std::cmp::Ordering::Equal => "neither kind of attack has the edge",
    };
    format!("{{ruler|poss}} PDEF is {} and its MDEF {}: {edge}; its EVA is {}.", s.pdef, s.mdef, s.eva)
}

/// How the Ruler fights, round by round, from its skills' timings and its attacks, ending with
/// whether it ever lets the party go (`leave`, [`core::last_stand`]).
pub fn tactics(f: &Fortress, leave: core::Leave) -> Vec<String> {
    let r = &f.ruler;
    let named = |t: &[Timing]| -> Vec<&str> {
        r.skills.iter().filter(|k| t.contains(&k.timing)).map(|k| k.name.as_str()).collect()
    };
    let mut out = Vec::new();
    let setup = named(&[Timing::Setup, Timing::Initiative]);
    if !setup.is_empty() {
        out.push(format!("Before it acts each round: {} (Setup or Initiative Process).", setup.join(", ")));
    }
    let best = r.attacks.iter().max_by_key(|a| (a.damage, a.accuracy));
    let first = r.attacks.first();
    let aim = |kind: AttackKind| if kind == AttackKind::Physical { "PDEF" } else { "MDEF" };
    let whom = |t: Target| if t == Target::Single { "the PC" } else { "as many PCs as it can reach" };
    let minor = named(&[Timing::Minor, Timing::Move]);
    if let Some(a) = first {
        let pre = if minor.is_empty() { String::new() } else { format!("uses {}, then ", minor.join(", ")) };
        out.push(format!(
            "Round 1: {pre}attacks with {} ({}) on {} with the lowest {}.",
            a.name,
            a.kind.label(),
            whom(a.target),
            aim(a.kind)
        ));
    }
    let major = named(&[Timing::Major]);
    if let Some(a) = best {
        let skill = major.first().map_or(String::new(), |k| format!("uses {k} when it can, otherwise "));
        out.push(format!("Round 2 on: {skill}attacks with {} on the PC who hurt it most.", a.name));
    }
    let reaction = named(&[Timing::Reaction, Timing::Auto]);
    if !reaction.is_empty() {
        out.push(format!("Whenever they apply: {}.", reaction.join(", ")));
    }
    if r.stats.is_some() {
        out.push(core::last_stand(leave));
    }
    out
}

/// `n` area names and descriptions composed from the pools: an adjective and a noun, and two
/// details, each pair different within the fortress (a part repeats only when its pool is spent,
/// and then with a new partner). `None` when the tables hold no name parts.
pub fn area_names(e: &EpisodeData, n: usize, dice: &mut Dice) -> Option<Vec<(String, String)>> {
    if e.area_adjective.is_empty() || e.area_noun.is_empty() || e.area_detail.is_empty() {
        return None;
    }
    let names = pairs(dice, e.area_adjective.len(), e.area_noun.len(), n, false);
    let details = pairs(dice, e.area_detail.len(), e.area_detail.len(), n, true);
    Some(
        names
            .into_iter()
            .zip(details)
            .map(|((a, b), (x, y))| {
                let name = format!("{} {}", e.area_adjective[a].text, e.area_noun[b].text);
                let description = if x == y {
                    e.area_detail[x].text.clone()
                } else {
                    format!("{} {}", e.area_detail[x].text, e.area_detail[y].text)
                };
                (name, description)
            })
            .collect(),
    )
}

/// `n` pairs of indexes (first below `la`, second below `lb`), dealt from two shuffled orders,
/// no pair twice while untried pairs remain; `distinct` pairs never repeat an index and count
/// (x, y) and (y, x) as one.
fn pairs(dice: &mut Dice, la: usize, lb: usize, n: usize, distinct: bool) -> Vec<(usize, usize)> {
    let mut first = Deal::new(dice, la, la);
    let second = Deal::new(dice, lb, lb);
    let mut seen = std::collections::BTreeSet::new();
    let key = |a: usize, b: usize| if distinct { (a.min(b), a.max(b)) } else { (a, b) };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let start = first.next;
        first.next += 1;
        // The dealt first part with its next free partner; when it has none left, the next
        // first part that has one (so no pair repeats while any is untried).
        let found = (0..la).find_map(|k| {
            let a = first.order[(start + k) % la];
            (0..lb)
                .map(|j| second.order[(i + j) % lb])
                .find(|&b| (a != b || !distinct) && !seen.contains(&key(a, b)))
                .map(|b| (a, b))
        });
        let (a, b) = found.unwrap_or((first.order[start % la], second.order[i % lb]));
        seen.insert(key(a, b));
        out.push((a, b));
    }
    out
}
