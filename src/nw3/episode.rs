//! The episode around a Fortress (seed 000 l.466-560), rolled from the pools of
//! `tables/nw3/episode.toml` once the fortress stands: the Ruler's past, the Entrance keyword or
//! item (and the Entrance text that asks for it), the trailer, one Handout per PC, the Opening
//! Phase scenes that plant what the Dive needs, the Middle Phase legwork, the Climax and the
//! After Phase endings. Everything is drawn on one stream (`nw3/episode` for a generated
//! fortress), in the order of this file, so the episode is a function of the fortress and that
//! stream.
//!
//! Each text is filled from [`Vars`] in one pass; a placeholder the pools may not use stays as
//! written (the table loader refuses those).

use crate::dice::Dice;
use crate::nw3::model::{
    Area, Climax, Connection, Ending, EntranceItem, Episode, EventKind, Fortress, GateKind, Handout, Keyword, Legwork,
    Opener, Past, Scene,
};
use crate::nw3::opener::opener_words;
use crate::tables::nw3::{EntranceKind, Nw3Data};
use crate::tables::nw3_combat::{AttackKind, Target, Timing};
use crate::tables::nw3_episode::{EpisodeData, Line, OutcomeKind, Plant, Topic, Way};

/// The values the placeholders stand for.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    pub town: String,
    pub place: String,
    pub core: String,
    pub ruler: String,
    pub former: String,
    pub wish: String,
    pub keyword: String,
    pub item: String,
    pub victim: String,
    pub npc: String,
    pub pc: String,
    pub place_where: String,
}

impl Vars {
    /// `text` with every placeholder filled, in one pass.
    pub fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 64);
        let mut rest = text;
        while let Some(i) = rest.find('{') {
            out.push_str(&rest[..i]);
            rest = &rest[i..];
            let end = rest.find('}').map_or(rest.len(), |e| e + 1);
            match self.value(&rest[..end]) {
                Some(v) => out.push_str(v),
                None => out.push_str(&rest[..end]),
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }

    fn value(&self, placeholder: &str) -> Option<&str> {
        Some(match placeholder {
            "{town}" => &self.town,
            "{place}" => &self.place,
            "{core}" => &self.core,
            "{ruler}" => &self.ruler,
            "{former}" => &self.former,
            "{wish}" => &self.wish,
            "{keyword}" => &self.keyword,
            "{item}" => &self.item,
            "{victim}" => &self.victim,
            "{npc}" => &self.npc,
            "{pc}" => &self.pc,
            "{where}" => &self.place_where,
            _ => return None,
        })
    }
}

/// A line from a pool (the pools are validated non-empty before a generator runs).
fn line<'a>(dice: &mut Dice, pool: &'a [Line]) -> &'a str {
    dice.choose(pool).map_or("", |l| l.text.as_str())
}

/// Indexes `0..len` in a shuffled order, dealt round and round (a pool repeats only when spent).
struct Deal {
    order: Vec<usize>,
    next: usize,
}

impl Deal {
    fn new(dice: &mut Dice, len: usize) -> Deal {
        let mut order: Vec<usize> = (0..len).collect();
        dice.shuffle(&mut order);
        Deal { order, next: 0 }
    }

    fn take(&mut self) -> usize {
        let i = self.order[self.next % self.order.len().max(1)];
        self.next += 1;
        i
    }
}

/// The episode of fortress `f` on `dice`, or `None` when the tables hold no episode pools. Sets
/// the fortress's trailer and fills the Entrance text's `{keyword}` or `{item}` from the episode
/// (the Entrance text is read from `entrance_pattern`, the record as the tables give it).
pub fn roll_episode(d: &Nw3Data, f: &mut Fortress, entrance_pattern: &str, dice: &mut Dice) -> Option<Episode> {
    let e = &d.episode;
    if e.is_empty() {
        return None;
    }
    let mut v = Vars {
        town: dice.choose(&d.towns).map_or_else(|| "the city".to_string(), |t| t.text.clone()),
        place: f.entrance().map(|a| a.name.clone()).unwrap_or_default(),
        core: f.core.name.clone(),
        ruler: f.ruler.name.clone(),
        ..Vars::default()
    };
    let (former, victim) = two_names(e, dice);
    v.former = former;
    v.victim = victim.clone();
    let wish = line(dice, &e.wish).to_string();
    v.wish = wish.clone();
    let past = Past {
        former: v.former.clone(),
        life: v.fill(line(dice, &e.former_life)),
        wish,
        place_reason: v.fill(line(dice, &e.place_reason)),
        victim_reason: v.fill(line(dice, &e.victim_reason)),
    };
    let (keyword, item) = entrance_thing(e, f.entrance_condition.kind, dice, &mut v);
    f.entrance_condition.text = v.fill(entrance_pattern);
    let handouts = handouts(e, f.party.size, dice, &mut v);
    v.npc = handouts.first().map(|h| h.connection.name.clone()).unwrap_or_default();
    v.pc = "PC 1".into();
    f.trailer = [&e.trailer_open, &e.trailer_turn, &e.trailer_close]
        .iter()
        .map(|pool| v.fill(line(dice, pool)))
        .collect::<Vec<_>>()
        .join(" ");
    let opening = opening(e, f, dice, &v);
    let legwork = legwork(d, f, &handouts, dice, &v, &past);
    let climax =
        Climax { setting: v.fill(line(dice, &e.climax)), line: v.fill(line(dice, &e.ruler_line)), tactics: tactics(f) };
    let endings = endings(e, dice, &v);
    Some(Episode { town: v.town, victim, past, keyword, item, handouts, opening, legwork, climax, endings })
}

/// The Ruler's former name and the first victim's, each a given and a family name, different.
fn two_names(e: &EpisodeData, dice: &mut Dice) -> (String, String) {
    let mut given = Deal::new(dice, e.given_name.len());
    let mut family = Deal::new(dice, e.family_name.len());
    let mut name = || format!("{} {}", e.given_name[given.take()].text, e.family_name[family.take()].text);
    (name(), name())
}

/// The keyword or item the Entrance asks for (both are rolled, so the draws do not depend on
/// the Entrance kind; only the one the Entrance asks for is kept).
fn entrance_thing(
    e: &EpisodeData,
    kind: EntranceKind,
    dice: &mut Dice,
    v: &mut Vars,
) -> (Option<Keyword>, Option<EntranceItem>) {
    let k = dice.choose(&e.keyword).map(|k| Keyword { word: k.word.clone(), origin: v.fill(&k.origin) });
    let i = dice.choose(&e.item).map(|i| EntranceItem { name: i.name.clone(), where_found: v.fill(&i.where_found) });
    v.keyword = k.as_ref().map(|k| k.word.clone()).unwrap_or_default();
    v.item = i.as_ref().map(|i| i.name.clone()).unwrap_or_default();
    v.place_where = i.as_ref().map(|i| i.where_found.clone()).unwrap_or_default();
    match kind {
        EntranceKind::Keyword => (k, None),
        EntranceKind::Item => (None, i),
        EntranceKind::Cost => (None, None),
    }
}

/// One Handout per PC: a hook and a Connection, each Connection different (the pools hold at
/// least eight), hooks different while the pool lasts.
fn handouts(e: &EpisodeData, size: u32, dice: &mut Dice, v: &mut Vars) -> Vec<Handout> {
    let mut npcs = Deal::new(dice, e.connection.len());
    let mut hooks = Deal::new(dice, e.hook.len());
    (1..=size)
        .map(|pc| {
            let c = &e.connection[npcs.take()];
            v.npc = c.name.clone();
            v.pc = format!("PC {pc}");
            let hook = v.fill(&e.hook[hooks.take()].text);
            Handout {
                pc,
                hook,
                connection: Connection { name: c.name.clone(), who: v.fill(&c.who), setting: c.setting },
            }
        })
        .collect()
}

/// The Opening Phase: a scene planting the Entrance keyword or item (when the Entrance asks
/// one; the trouble otherwise), one planting the victim, and one showing the first sign of the
/// Logic, whose name and effect follow the scene.
fn opening(e: &EpisodeData, f: &Fortress, dice: &mut Dice, v: &Vars) -> Vec<Scene> {
    let first = match f.entrance_condition.kind {
        EntranceKind::Keyword => Plant::Keyword,
        EntranceKind::Item => Plant::Item,
        EntranceKind::Cost => Plant::Trouble,
    };
    let mut scenes = Vec::new();
    for plant in [first, Plant::Victim, Plant::Logic] {
        let fits: Vec<_> = e.opening.iter().filter(|o| o.plants == plant).collect();
        let Some(o) = dice.choose(&fits) else { continue };
        let mut text = v.fill(&o.text);
        if plant == Plant::Logic
            && let Some(l) = f.logic.first()
        {
            text.push_str(&format!(" The sign shows the Logic \"{}\": {}", l.name, l.effect));
        }
        scenes.push(Scene { title: v.fill(&o.title), plants: plant, text });
    }
    scenes
}

/// How far a topic's difficulty sits from the band's base (harder to learn who the Ruler was
/// and where it is weak than where its keystone lies).
fn topic_offset(t: Topic) -> i32 {
    match t {
        Topic::Entrance | Topic::Logic | Topic::Core => 0,
        Topic::Ruler | Topic::SecretGate => 1,
        Topic::Weakness => 2,
        Topic::Victim => -1,
    }
}

/// The Middle Phase legwork: one item per topic the fortress has something to reveal for (a
/// secret gate only when there is one), each with its Attribute, difficulty on the CL band, the
/// Connection that gives +2 (the Handouts' Connections in turn) and the concrete fact it reveals.
fn legwork(d: &Nw3Data, f: &Fortress, handouts: &[Handout], dice: &mut Dice, v: &Vars, past: &Past) -> Vec<Legwork> {
    let mut out = Vec::new();
    for topic in Topic::ALL {
        let fits: Vec<_> = d.episode.legwork.iter().filter(|l| l.topic == topic).collect();
        let Some(rec) = dice.choose(&fits) else { continue };
        let Some(reveals) = reveal(f, topic, v, past) else { continue };
        let connection = handouts.get(out.len() % handouts.len().max(1)).map(|h| h.connection.name.clone());
        out.push(Legwork {
            topic,
            title: v.fill(&rec.title),
            attribute: rec.attribute.clone(),
            difficulty: d.value(f.party.cl, topic_offset(topic) + rec.offset).unwrap_or(10),
            connection: connection.unwrap_or_default(),
            text: v.fill(&rec.text),
            reveals,
        });
    }
    out
}

/// "area 7 (Flooded Platform)".
fn area_label(f: &Fortress, id: u32) -> String {
    format!("area {id} ({})", f.area(id).map_or("?", |a| a.name.as_str()))
}

/// The fact a legwork item of `topic` reveals, or `None` when the fortress has none to give.
fn reveal(f: &Fortress, topic: Topic, v: &Vars, past: &Past) -> Option<String> {
    let r = &f.ruler;
    Some(match topic {
        Topic::Entrance => entrance_reveal(f, v),
        Topic::Ruler => format!(
            "{} was once {}, {}. It wants {}. {} {}",
            r.name, past.former, past.life, past.wish, past.place_reason, past.victim_reason
        ),
        Topic::Weakness => weakness(f),
        Topic::Logic => {
            let l = f.logic.last()?;
            format!("The Logic \"{}\" holds inside: {}", l.name, l.effect)
        }
        Topic::SecretGate => {
            let g = f.gates.iter().find(|g| g.kind == GateKind::Secret)?;
            let how = g.opened_by.map_or_else(|| "Danger Sense 15".to_string(), |o| opener_words(f, o).deed);
            format!("A secret gate joins {} and {}; to find it: {how}.", area_label(f, g.from), area_label(f, g.to))
        }
        Topic::Core => {
            let core = f.core_area()?;
            let gates = core.appearance_difficulty.saturating_sub(8) / 2;
            format!("The {} stands in {}, {gates} gates from the Entrance.", f.core.name, area_label(f, core.id))
        }
        Topic::Victim => {
            format!("{} is held inside the Fortress by {}, in {}.", v.victim, r.name, area_label(f, r.area))
        }
    })
}

/// What the Entrance asks, and where the party gets it.
fn entrance_reveal(f: &Fortress, v: &Vars) -> String {
    match f.entrance_condition.kind {
        EntranceKind::Keyword => format!("The Entrance opens to the word \"{}\".", v.keyword),
        EntranceKind::Item => format!("The Entrance opens for the {}, found {}.", v.item, v.place_where),
        EntranceKind::Cost => format!("The Entrance asks a price: {}", f.entrance_condition.text),
    }
}

/// Where the Ruler is open: its weaker defence, and any object in the fortress that works
/// against it.
fn weakness(f: &Fortress) -> String {
    let Some(s) = f.ruler.stats else { return format!("{} has no weak side to find.", f.ruler.name) };
    let name = &f.ruler.name;
    let edge = match s.pdef.cmp(&s.mdef) {
        std::cmp::Ordering::Less => "physical attacks hurt it more than magical ones",
        std::cmp::Ordering::Greater => "magical attacks hurt it more than physical ones",
        std::cmp::Ordering::Equal => "neither kind of attack has the edge",
    };
    format!("{name}'s PDEF is {} and its MDEF {}: {edge}; its EVA is {}.", s.pdef, s.mdef, s.eva)
}

/// How the Ruler fights, round by round, from its skills' timings and its attacks.
pub fn tactics(f: &Fortress) -> Vec<String> {
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
    if let Some(hp) = r.stats.map(|s| s.body) {
        out.push(format!(
            "At {} HP or less it fights on to the end: with it falls the Casket, so it never flees.",
            hp / 2
        ));
    }
    out
}

/// An ending per way the Dive can end, with the XP each player gets.
fn endings(e: &EpisodeData, dice: &mut Dice, v: &Vars) -> Vec<Ending> {
    Way::ALL
        .iter()
        .filter_map(|&way| {
            let fits: Vec<_> = e.ending.iter().filter(|x| x.way == way).collect();
            dice.choose(&fits).map(|x| Ending { way, text: v.fill(&x.text), xp: way.xp() })
        })
        .collect()
}

/// What success, failure and a second try of each judged event mean: an event whose clearing
/// opens or reveals a gate takes a `gate` outcome, the others a `reward` or `hazard` one, each
/// different while its pool lasts. Draws one stream per fortress (`dice`), in area order.
pub fn event_outcomes(d: &Nw3Data, f: &mut Fortress, dice: &mut Dice) {
    let pool = &d.episode.event_outcome;
    if pool.is_empty() {
        return;
    }
    let opens: Vec<u32> = f
        .gates
        .iter()
        .filter_map(|g| match g.opened_by {
            Some(Opener::Event(a)) => Some(a),
            _ => None,
        })
        .collect();
    let mut decks: Vec<(OutcomeKind, Deal)> = [OutcomeKind::Gate, OutcomeKind::Reward, OutcomeKind::Hazard]
        .into_iter()
        .map(|k| (k, Deal::new(dice, pool.iter().filter(|o| o.kind == k).count())))
        .collect();
    // A locked area (kept exactly by `fortress --from`) keeps its event as it is.
    for a in f.areas.iter_mut().filter(|a| !a.locked) {
        let kind = if opens.contains(&a.id) {
            OutcomeKind::Gate
        } else if dice.chance(1, 2) {
            OutcomeKind::Reward
        } else {
            OutcomeKind::Hazard
        };
        set_outcome(pool, a, kind, &mut decks);
    }
}

/// The outcome of the scenario event of area `pos` alone, drawn on `dice` (a workbench reroll of
/// the area or its event), by the same rule as [`event_outcomes`].
pub fn area_outcome(d: &Nw3Data, f: &mut Fortress, pos: usize, dice: &mut Dice) {
    let pool = &d.episode.event_outcome;
    let id = f.areas[pos].id;
    let opens = f.gates.iter().any(|g| g.opened_by == Some(Opener::Event(id)));
    let kind = if opens {
        OutcomeKind::Gate
    } else if dice.chance(1, 2) {
        OutcomeKind::Reward
    } else {
        OutcomeKind::Hazard
    };
    let n = pool.iter().filter(|o| o.kind == kind).count();
    let mut decks = vec![(kind, Deal::new(dice, n))];
    set_outcome(pool, &mut f.areas[pos], kind, &mut decks);
}

/// Gives a scenario event of `a` the next outcome of `kind`.
fn set_outcome(
    pool: &[crate::tables::nw3_episode::OutcomeRecord],
    a: &mut Area,
    kind: OutcomeKind,
    decks: &mut [(OutcomeKind, Deal)],
) {
    let Some(e) = a.event.as_mut().filter(|e| e.kind == EventKind::Scenario) else { return };
    let Some((_, deck)) = decks.iter_mut().find(|(k, _)| *k == kind) else { return };
    let fits: Vec<_> = pool.iter().filter(|o| o.kind == kind).collect();
    if fits.is_empty() {
        return;
    }
    let o = fits[deck.take() % fits.len()];
    (e.success, e.failure, e.retry) = (o.success.clone(), o.failure.clone(), o.retry.clone());
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
    let mut first = Deal::new(dice, la);
    let second = Deal::new(dice, lb);
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
