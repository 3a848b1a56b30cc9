//! The Opening and Middle Phase as scenes (seed 000 l.540-552; issue 47 item 2), planned from
//! the episode once its handouts, legwork and finale stand:
//!
//! - one Opening scene per PC, from that PC's Handout: where in the town they meet their
//!   Connection, what the Connection says (a line that points at the fact the scene plants: the
//!   Entrance keyword or item for PC 1, the victim for PC 2, where the Fortress stands for the
//!   rest) and what the Connection knows (exactly the legwork items its help gives +2 to);
//! - one scene that brings the party together (a party of two or more), where and why they meet
//!   and which fact each PC brings to it;
//! - the Middle Phase in play order: the legwork items as scenes, a Master Scene halfway, and the
//!   Entrance's legwork last, the one that leads on to the Dive.
//!
//! The scenes drawn before the plan ([`super::opening`]: the Entrance keyword or item, the victim,
//! the Logic's first sign) become what happens in PC 1's scene, PC 2's and the party's. Every
//! text keeps its slots; a PC's scene is filled as its own handout (`{pc}`, `{npc}`).

use crate::dice::Dice;
use crate::nw3::model::{Episode, Fortress, MiddleScene, Scene};
use crate::tables::nw3_episode::{EpisodeData, Plant, SaysRecord, Topic};

use super::Deal;

/// What PC `pc`'s Opening scene plants, `first` being what the Entrance asks (the keyword, the
/// item, or the trouble when it asks a price).
fn plant_of(pc: u32, first: Plant) -> Plant {
    match pc {
        1 => first,
        2 => Plant::Victim,
        _ => Plant::Place,
    }
}

/// The Opening scenes (one per PC, then the party's) and the Middle Phase list of `ep`, drawn on
/// `dice` after everything else of the episode (so the rest draws as before).
pub fn plan(e: &EpisodeData, ep: &mut Episode, dice: &mut Dice) {
    let drawn = std::mem::take(&mut ep.opening);
    let first = drawn.first().map_or(Plant::Trouble, |s| s.plants);
    // A Master Scene (the Ruler at home, no PC present) is nobody's meeting: it opens the Opening
    // Phase on its own, and the PC's or the party's scene has no drawn event.
    let (master, drawn): (Vec<Scene>, Vec<Scene>) = drawn.into_iter().partition(is_master);
    ep.opening.extend(master);
    let n = ep.handouts.len() as u32;
    let mut places = Deal::new(dice, e.scene_place.len(), n as usize);
    let mut says = SaysDeal::new(e);
    for pc in 1..=n {
        let plant = plant_of(pc, first);
        // The scene drawn for this fact, if one was (PC 1's and PC 2's).
        let event = drawn.iter().find(|s| s.plants == plant && s.plants != Plant::Logic);
        let title = match event {
            Some(s) => format!("{{pc}} and {{npc}}: {}", s.title),
            None => "{pc} and {npc}".to_string(),
        };
        ep.opening.push(Scene {
            title,
            plants: plant,
            text: event.map_or_else(String::new, |s| s.text.clone()),
            pc,
            party: false,
            at: e.scene_place.get(places.take()).map_or_else(String::new, |l| l.text.clone()),
            says: says.take(plant, dice),
            knows: knows(ep, pc),
        });
    }
    let sign = drawn.into_iter().find(|s| s.plants == Plant::Logic);
    if let Some(s) = party_scene(e, ep, sign, first, dice) {
        ep.opening.push(s);
    }
    ep.middle = middle(e, ep, dice);
}

/// The Connections' lines, dealt per fact so no two PCs' Connections say the same line while the
/// fact's pool lasts.
struct SaysDeal<'e> {
    by_plant: Vec<(Plant, Vec<&'e SaysRecord>, Option<Deal>)>,
}

impl<'e> SaysDeal<'e> {
    fn new(e: &'e EpisodeData) -> SaysDeal<'e> {
        let plants = [Plant::Keyword, Plant::Item, Plant::Victim, Plant::Trouble, Plant::Place];
        let by_plant =
            plants.into_iter().map(|p| (p, e.scene_says.iter().filter(|x| x.plants == p).collect(), None)).collect();
        SaysDeal { by_plant }
    }

    /// A line for `plant` (each fact's pool is shuffled when first asked, on `dice`).
    fn take(&mut self, plant: Plant, dice: &mut Dice) -> String {
        let Some((_, pool, deal)) = self.by_plant.iter_mut().find(|(p, _, _)| *p == plant) else {
            return String::new();
        };
        if pool.is_empty() {
            return String::new();
        }
        let d = deal.get_or_insert_with(|| Deal::new(dice, pool.len(), pool.len()));
        pool[d.take()].text.clone()
    }
}

/// The scenes after the legwork changed under them (an item dropped when the fortress rolled anew
/// has no secret gate): no Middle Phase scene plays a dropped item, the last legwork scene leads
/// on to the Dive, and each Connection knows what it now helps with. A file made before the scenes
/// were planned is left as it is.
pub fn follow_legwork(ep: &mut Episode) {
    if !planned(ep) {
        return;
    }
    let topics: Vec<Topic> = ep.legwork.iter().map(|l| l.topic).collect();
    ep.middle.retain(|m| m.legwork.is_none_or(|t| topics.contains(&t)));
    if !ep.middle.iter().any(|m| m.onward)
        && let Some(last) = ep.middle.iter_mut().rev().find(|m| m.legwork.is_some())
    {
        last.onward = true;
    }
    let known: Vec<(u32, String)> = ep.opening.iter().filter(|s| s.pc != 0).map(|s| (s.pc, knows(ep, s.pc))).collect();
    for (pc, k) in known {
        if let Some(s) = ep.opening.iter_mut().find(|s| s.pc == pc) {
            s.knows = k;
        }
    }
}

/// What a Connection who helps with a legwork item of `topic` knows, as a phrase.
fn topic_knowledge(topic: Topic) -> &'static str {
    match topic {
        Topic::Entrance => "what the Entrance of the {place} asks",
        Topic::Ruler => "who {ruler} was before the Casket",
        Topic::Weakness => "where {ruler} can be hurt",
        Topic::Logic => "how the law inside the Casket works",
        Topic::SecretGate => "a hidden way inside the Fortress",
        Topic::Core => "where the {core} stands",
        Topic::Victim => "where {victim} is held",
    }
}

/// What PC `pc`'s Connection knows: the legwork items its help gives +2 to (the legwork names it
/// by the slot `{npc:N}`), or that it has no lead of its own.
fn knows(ep: &Episode, pc: u32) -> String {
    let slot = format!("{{npc:{pc}}}");
    let items: Vec<_> = ep.legwork.iter().filter(|l| l.connection == slot).collect();
    if items.is_empty() {
        return "{npc} has no lead for the Middle Phase beyond these words.".into();
    }
    let what: Vec<&str> = items.iter().map(|l| topic_knowledge(l.topic)).collect();
    let titles: Vec<String> = items.iter().map(|l| format!("\u{201c}{}\u{201d}", l.title)).collect();
    let (it, gains) = if items.len() == 1 { ("the legwork", "gains") } else { ("the legwork items", "each gain") };
    format!(
        "{{npc}} knows something of {}: with {{npc|poss}} help, {it} {} {gains} +2.",
        join(&what),
        join_owned(&titles)
    )
}

/// "a", "a and b", "a, b and c".
fn join(parts: &[&str]) -> String {
    match parts {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What the PCs in `pcs` got from their scenes (each planted `plant`), as the party scene lists it.
fn brought(pcs: &[u32], plant: Plant) -> String {
    let what = match plant {
        Plant::Keyword => "the words \u{201c}{keyword}\u{201d}",
        Plant::Item => "word of the {item}",
        Plant::Victim => "the name {victim}",
        Plant::Trouble => "what is wrong at the {place}",
        Plant::Place | Plant::Logic => "the {place} as the place to look",
    };
    let who: Vec<String> = pcs.iter().map(|pc| format!("PC {pc}")).collect();
    let from: Vec<String> = pcs.iter().map(|pc| format!("{{npc:{pc}}}")).collect();
    let verb = if pcs.len() == 1 { "brings" } else { "bring" };
    format!("{} {verb} {what} (from {})", join_owned(&who), join_owned(&from))
}

fn join_owned(parts: &[String]) -> String {
    join(&parts.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Whether a drawn scene is a Master Scene: the Ruler seen at home, with no PC there.
fn is_master(s: &Scene) -> bool {
    s.title.starts_with("Master Scene") || s.text.starts_with("A Master Scene")
}

/// The scene that brings the party together: the Logic's first sign (`sign`, unless it was a
/// Master Scene), seen where the PCs meet, with why they meet and which fact each brings. A
/// party of one has no one to meet: the sign is their second scene.
fn party_scene(e: &EpisodeData, ep: &Episode, sign: Option<Scene>, first: Plant, dice: &mut Dice) -> Option<Scene> {
    let n = ep.handouts.len() as u32;
    if n < 2 {
        return sign;
    }
    let Some(p) = dice.choose(&e.scene_party) else { return sign };
    // Without a sign of its own, the party's scene plants where the Fortress stands.
    let sign = sign.unwrap_or_else(|| Scene {
        title: "Together at the {place}".into(),
        plants: Plant::Place,
        text: String::new(),
        pc: 0,
        party: false,
        at: String::new(),
        says: String::new(),
        knows: String::new(),
    });
    // The PCs who planted the same fact are named together, in PC order.
    let mut groups: Vec<(Plant, Vec<u32>)> = Vec::new();
    for pc in 1..=n {
        let plant = plant_of(pc, first);
        match groups.iter_mut().find(|(p, _)| *p == plant) {
            Some((_, pcs)) => pcs.push(pc),
            None => groups.push((plant, vec![pc])),
        }
    }
    let each: Vec<String> = groups.iter().map(|(plant, pcs)| brought(pcs, *plant)).collect();
    let knows = format!("Every lead ends at the {{place}} in {{town}}: {}.", join_owned(&each));
    Some(Scene { party: true, at: p.at.clone(), says: p.text.clone(), knows, ..sign })
}

/// The Middle Phase in play order: the legwork items but the Entrance's, a Master Scene after
/// half of them, then the Entrance's item, which leads on to the Dive (the last item when a hand
/// edit left none on the Entrance).
fn middle(e: &EpisodeData, ep: &Episode, dice: &mut Dice) -> Vec<MiddleScene> {
    let scene = |t: Topic| MiddleScene { title: String::new(), text: String::new(), legwork: Some(t), onward: false };
    let mut out: Vec<MiddleScene> =
        ep.legwork.iter().filter(|l| l.topic != Topic::Entrance).map(|l| scene(l.topic)).collect();
    if let Some(m) = dice.choose(&e.master_scene) {
        let at = out.len().div_ceil(2);
        out.insert(at, MiddleScene { title: m.title.clone(), text: m.text.clone(), legwork: None, onward: false });
    }
    if ep.legwork.iter().any(|l| l.topic == Topic::Entrance) {
        out.push(scene(Topic::Entrance));
    }
    if let Some(last) = out.iter_mut().rev().find(|m| m.legwork.is_some()) {
        last.onward = true;
    }
    out
}

/// Every stored word of scene `s`.
pub fn words(s: &Scene) -> String {
    [&s.title, &s.text, &s.at, &s.says, &s.knows].map(String::as_str).join(" ")
}

/// The words of scene `s` that can plant a fact: not what the Connection knows, nor the party's
/// list of what each PC brings (it only repeats what the PCs' scenes planted).
pub fn planting_words(s: &Scene) -> String {
    [&s.title, &s.text, &s.at, &s.says].map(String::as_str).join(" ")
}

/// Whether the episode's Opening is planned (one scene per PC): files made before hold none, and
/// keep the older rules only.
pub fn planned(e: &Episode) -> bool {
    !e.middle.is_empty() || e.opening.iter().any(|s| s.pc != 0 || s.party)
}

/// What `check` refuses of the planned scenes of `f` (read filled: names as printed), each as
/// (place, rule, message): a PC without an Opening scene or whose scene never names their
/// Connection (`episode.opening-pc`); a scene for a PC the party lacks, a "PC n" no PC is, a
/// Middle Phase scene playing a legwork item the episode lacks (`episode.scenes`).
pub fn problems(f: &Fortress) -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    let Some(e) = f.episode.as_ref().filter(|e| planned(e)) else { return out };
    let size = f.party.size;
    for h in &e.handouts {
        let name = h.connection.name.trim();
        match e.opening.iter().find(|s| s.pc == h.pc) {
            None => out.push(("episode".into(), "episode.opening-pc", format!("PC {} has no Opening scene", h.pc))),
            Some(s) if !name.is_empty() && !words(s).contains(name) => out.push((
                format!("PC {}'s Opening scene", h.pc),
                "episode.opening-pc",
                format!("the scene never names PC {}'s Connection `{name}`", h.pc),
            )),
            Some(_) => {}
        }
    }
    for (i, s) in e.opening.iter().enumerate() {
        let place = format!("opening scene {}", i + 1);
        if s.pc > size {
            out.push((place.clone(), "episode.scenes", format!("the scene is PC {}'s; the party has {size}", s.pc)));
        }
        if let Some(n) = pcs_named(&words(s)).into_iter().find(|&n| n == 0 || n > size) {
            out.push((place, "episode.scenes", format!("the scene names `PC {n}`; the party has {size}")));
        }
    }
    for (i, m) in e.middle.iter().enumerate() {
        if let Some(t) = m.legwork.filter(|t| !e.legwork.iter().any(|l| l.topic == *t)) {
            let msg = format!("the scene plays the legwork on `{}`, which the episode lacks", t.label());
            out.push((format!("middle scene {}", i + 1), "episode.scenes", msg));
        }
        if m.legwork.is_none() && m.text.trim().is_empty() {
            let msg = "the scene is neither a Master Scene with a text nor a legwork item".to_string();
            out.push((format!("middle scene {}", i + 1), "episode.scenes", msg));
        }
    }
    out
}

/// Every number n a text names as "PC n" (not a cost such as "each PC 2 MP", where an
/// upper-case unit follows the number).
fn pcs_named(text: &str) -> Vec<u32> {
    text.match_indices("PC ")
        .filter_map(|(i, _)| {
            let rest = &text[i + 3..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let next = rest[digits.len()..].trim_start_matches(' ');
            let unit = next.len() < rest.len() - digits.len()
                && next.chars().take_while(char::is_ascii_alphabetic).count() >= 2
                && next.chars().take_while(char::is_ascii_alphabetic).all(|c| c.is_ascii_uppercase());
            if unit { None } else { digits.parse().ok() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pc_number_is_read_wherever_a_text_names_it() {
        assert_eq!(pcs_named("PC 1 brings it (from PC 12), not PCs"), vec![1, 12]);
        assert_eq!(pcs_named("passing costs each PC 2 MP; PC 3 pays"), vec![3]);
    }

    #[test]
    fn the_facts_are_planted_one_per_pc_the_entrance_first() {
        let plants: Vec<Plant> = (1..=4).map(|pc| plant_of(pc, Plant::Item)).collect();
        assert_eq!(plants, [Plant::Item, Plant::Victim, Plant::Place, Plant::Place]);
    }
}
