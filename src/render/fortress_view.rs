//! The NW3 Fortress as the templates see it: areas in map order (Entrance first, Core last), each
//! with its scene, judges and gates spelled out.

use serde::Serialize;

use crate::nw3::combat::danger_sense;
use crate::nw3::model::{
    Area, AreaKind, Attack, EnemyGroup, Event, EventKind, Fortress, GateKind, Object, Opener, Skill, Stats, Trap,
};
use crate::nw3::opener::opener_words;
use crate::nw3::rules::{AMBUSH_BONUS, BAD_STATUSES, DANGER_SENSE, DANGER_SENSE_DEFAULT, LOGIC_REMOVAL_PRANA};
use crate::tables::nw3::Rank;
use crate::tables::nw3_combat::AttackKind;

#[derive(Serialize)]
pub struct FortressView {
    pub title: String,
    pub seed: u64,
    pub program: String,
    pub tables_version: String,
    /// The regenerate line ([`super::regen`]): the seed command, or `render FILE.json`.
    pub command: String,
    /// No seed command gives this fortress back: the booklet says it was edited by hand.
    pub edited: bool,
    pub paper: String,
    pub width_mm: f64,
    pub height_mm: f64,
    pub party: String,
    /// The PC every stat block is measured against, and where its numbers come from.
    pub party_model: String,
    pub trailer: String,
    pub ruler: RulerView,
    pub logic: Vec<crate::nw3::model::Logic>,
    pub entrance_condition: String,
    pub core: crate::nw3::model::Core,
    pub judges: Vec<(String, String)>,
    /// Prana a PC pays to shed one Logic.
    pub logic_prana: u32,
    pub areas: Vec<AreaView>,
    pub climax: String,
    /// Running the Climax: when the Core's guards fight, whether the Ruler lets the party go,
    /// how the Core breaks (none in files made before they were planned).
    pub climax_rules: Vec<String>,
    pub svg: String,
    pub players_svg: String,
    pub svg_file: String,
    pub players_svg_file: String,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
    /// The Bad Statuses the fortress's texts name, in the rules' order (the glossary's entries).
    pub bad_statuses: Vec<&'static str>,
    /// The episode around the Dive (none in files of format 2 and older).
    pub episode: Option<EpisodeView>,
}

/// The episode as the booklet prints it, phase by phase.
#[derive(Serialize)]
pub struct EpisodeView {
    pub town: String,
    pub victim: String,
    pub former: String,
    pub life: String,
    pub wish: String,
    pub place_reason: String,
    pub victim_reason: String,
    /// "Keyword: \"Evening Star\" — the name of ..." or "Item: ... — found ...", or empty.
    pub entrance_thing: String,
    pub handouts: Vec<HandoutView>,
    pub opening: Vec<SceneView>,
    /// The Middle Phase scenes in play order (empty in files made before them).
    pub middle: Vec<MiddleView>,
    pub legwork: Vec<LegworkView>,
    pub climax_setting: String,
    pub ruler_line: String,
    pub tactics: Vec<String>,
    pub endings: Vec<EndingView>,
}

#[derive(Serialize)]
pub struct HandoutView {
    /// "PC 1".
    pub pc: String,
    pub hook: String,
    pub connection: String,
    pub who: String,
    /// "a character of the setting" or "an NPC of this episode".
    pub kind: String,
}

#[derive(Serialize)]
pub struct SceneView {
    pub title: String,
    pub plants: String,
    pub text: String,
    /// "PC 2" for a PC's Opening scene, else empty.
    pub pc: String,
    /// The Connection met (a PC's scene), else empty.
    pub npc: String,
    pub party: bool,
    pub at: String,
    pub says: String,
    pub knows: String,
}

/// A Middle Phase scene: a Master Scene (`text`) or a legwork item played as a scene (`judge`,
/// what it `gives`), and whether it leads on to the Dive.
#[derive(Serialize)]
pub struct MiddleView {
    /// "Master Scene" or "Legwork".
    pub kind: String,
    pub title: String,
    pub text: String,
    pub judge: String,
    pub gives: String,
    pub onward: bool,
}

#[derive(Serialize)]
pub struct LegworkView {
    pub title: String,
    /// "Knowledge judge, difficulty 13".
    pub judge: String,
    pub connection: String,
    pub text: String,
    pub reveals: String,
}

#[derive(Serialize)]
pub struct EndingView {
    pub way: String,
    pub text: String,
    pub xp: u32,
}

#[derive(Serialize)]
pub struct RulerView {
    pub name: String,
    pub title: String,
    pub description: String,
    pub motive: String,
    pub initiative: String,
    pub area: u32,
    /// Its stat block as a Boss (printed in the climax).
    pub block: FighterView,
}

/// An enemy group as the booklet prints it.
#[derive(Serialize)]
pub struct GroupView {
    pub name: String,
    pub description: String,
    /// "Lies in ambush: Danger Sense 12 (best Perception 5 + 7)", or empty.
    pub ambush: String,
    pub members: Vec<FighterView>,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
}

/// One enemy's full stat block.
#[derive(Serialize)]
pub struct FighterView {
    /// "2 Stray Dog Mobs".
    pub name: String,
    /// "Mob — each one character standing for ten or more".
    pub rank: String,
    /// (label, value) in the book's order: PACC ... Perception, SPD, initiative.
    pub stats: Vec<(String, String)>,
    pub attacks: Vec<String>,
    pub skills: Vec<String>,
}

#[derive(Serialize)]
pub struct AreaView {
    pub id: u32,
    pub name: String,
    pub kind: String,
    pub appearance: u32,
    pub optional: bool,
    pub description: String,
    pub event: Option<String>,
    pub event_text: Option<String>,
    pub event_judge: Option<String>,
    /// What success and failure of the event's judge do, and whether it may be tried again
    /// (empty: not said, as in older files).
    pub event_success: String,
    pub event_failure: String,
    pub event_retry: String,
    /// The Ruler is met here (its stat block is printed in the climax).
    pub ruler: bool,
    pub trap: Option<String>,
    /// The trap's name and its effect apart, for the booklets to set the name alone in bold.
    pub trap_parts: Option<(String, String)>,
    pub trap_judges: Option<String>,
    /// "Danger Sense 12 (the default)".
    pub danger_sense: String,
    pub enemies: Vec<GroupView>,
    pub objects: Vec<String>,
    /// Each object's name and what it does apart (as [`AreaView::trap_parts`]).
    pub object_parts: Vec<(String, String)>,
    pub gates: Vec<String>,
    /// The GM's own notes from the file (empty: none).
    pub notes: String,
    /// The victim held here: who, why, what freeing them takes (empty: none held here).
    pub captive: String,
    /// In the Core's area: how the Core breaks and when its guards fight (empty elsewhere).
    pub core_note: String,
}

/// The PC the enemies' numbers assume, in the booklet: the GM's stated numbers, or the model's.
fn party_model(p: &crate::nw3::FortressParams) -> String {
    let m = crate::nw3::combat::PartyModel::of(p).pc;
    let given = p.party_attack.is_some() || p.party_defence.is_some() || p.party_hp.is_some();
    let whose = if given {
        "the party's attack, defence and HP as the GM gave them (the rest from the model PC)"
    } else {
        "the model PC of this CL; give your party's own with --party-attack, --party-defence and --party-hp"
    };
    format!(
        "a PC with attack {}, defence {}, HP {}, accuracy {} and evasion {}: {whose}",
        m.attack, m.defence, m.body, m.accuracy, m.evasion
    )
}

fn gate_text(f: &Fortress, here: u32, g: &crate::nw3::model::Gate) -> Option<String> {
    let other = if g.from == here {
        g.to
    } else if g.to == here {
        g.from
    } else {
        return None;
    };
    let name = f.area(other).map(|a| a.name.as_str()).unwrap_or("?");
    let how = match g.kind {
        GateKind::Normal => String::new(),
        GateKind::OneWay if g.from == here => " — one-way, out only".into(),
        GateKind::OneWay => " — one-way, in only (cannot be used from here)".into(),
        GateKind::Secret => {
            let by = g.opened_by.map_or_else(|| "Danger Sense 15".into(), |o| opener_words(f, o).deed);
            format!(" — secret; to find it: {by}")
        }
        GateKind::Closed => {
            let by = g.opened_by.map_or_else(|| "nothing known".into(), |o| opener_words(f, o).deed);
            format!(" — closed; to open it: {by}")
        }
        GateKind::Damaged => match g.uses {
            Some(n) => format!(" — damaged: {n} more pass{}", if n == 1 { "" } else { "es" }),
            None => " — damaged: unusable".into(),
        },
    };
    Some(format!("to area {other} ({name}){how}"))
}

/// An enemy's numbers in stat-block order (also the Udonarium sheet's).
pub(crate) fn stat_pairs(s: Option<&Stats>, spd: u32, initiative: u32) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = match s {
        Some(s) => [
            ("PACC", s.pacc),
            ("PATK", s.patk),
            ("PDEF", s.pdef),
            ("MACC", s.macc),
            ("MATK", s.matk),
            ("MDEF", s.mdef),
            ("EVA", s.eva),
            ("HP", s.body),
            ("MP", s.mind),
            ("Perception", s.perception),
        ]
        .into_iter()
        .map(|(k, n)| (k.to_string(), n.to_string()))
        .collect(),
        None => vec![("Stats".into(), "missing".into())],
    };
    v.push(("SPD".into(), spd.to_string()));
    v.push(("Initiative".into(), initiative.to_string()));
    v
}

/// An attack's line, each number with what makes it: "hit 2D6+11 (PACC 12 + attack -1)" when the
/// stat block is known, so the GM sees the attack's own modifier is already in the number.
pub(crate) fn attack_line(a: &Attack, stats: Option<&Stats>) -> String {
    let (def, acc, atk) = match a.kind {
        AttackKind::Physical => ("PDEF", "PACC", "PATK"),
        AttackKind::Magical => ("MDEF", "MACC", "MATK"),
    };
    let stat = |s: &Stats| match a.kind {
        AttackKind::Physical => (s.pacc, s.patk),
        AttackKind::Magical => (s.macc, s.matk),
    };
    let made = |total: u32, name: &str, base: Option<u32>| match base {
        Some(b) if b == total => format!("2D6+{total} ({name} {b})"),
        Some(b) => format!("2D6+{total} ({name} {b} + attack {:+})", i64::from(total) - i64::from(b)),
        None => format!("2D6+{total}"),
    };
    let (hit_base, dmg_base) = stats.map(stat).unzip();
    format!(
        "{} — {}, range {}, {}: hit {} vs the target's 2D6+EVA; damage {} minus the target's 2D6+{def}",
        a.name,
        a.kind.label(),
        a.range.label(),
        a.target.label(),
        made(a.accuracy, acc, hit_base),
        made(a.damage, atk, dmg_base)
    )
}

fn skill_line(k: &Skill) -> String {
    format!("{} ({}): {}", k.name, k.timing.label(), k.effect)
}

fn fighter_view(
    name: String,
    rank: Rank,
    stats: Option<&Stats>,
    spd: u32,
    initiative: u32,
    attacks: &[Attack],
    skills: &[Skill],
) -> FighterView {
    let rank = match rank {
        Rank::Mob => "Mob — one character standing for ten or more foes".to_string(),
        Rank::Guest => "Guest".to_string(),
        Rank::Boss => "Boss".to_string(),
    };
    FighterView {
        name,
        rank,
        stats: stat_pairs(stats, spd, initiative),
        attacks: attacks.iter().map(|a| attack_line(a, stats)).collect(),
        skills: skills.iter().map(skill_line).collect(),
    }
}

/// The Bad Statuses named (as whole words) in the texts of the fortress's skills, traps, events,
/// objects and Logic.
fn bad_statuses(f: &Fortress) -> Vec<&'static str> {
    let skills = f.areas.iter().flat_map(|a| &a.enemies).flat_map(|g| &g.members).flat_map(|m| &m.skills);
    let mut texts: Vec<&str> = skills.chain(&f.ruler.skills).map(|k| k.effect.as_str()).collect();
    for a in &f.areas {
        texts.extend(a.trap.as_ref().map(|t| t.effect.as_str()));
        texts.extend(a.event.as_ref().map(|e| e.text.as_str()));
        texts.extend(a.objects.iter().map(|o| o.effect.as_str()));
    }
    texts.extend(f.logic.iter().map(|l| l.effect.as_str()));
    let named = |name: &str| {
        texts.iter().any(|t| {
            t.match_indices(name).any(|(i, _)| {
                let before = t[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
                let after = t[i + name.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
                before && after
            })
        })
    };
    BAD_STATUSES.into_iter().filter(|b| named(b)).collect()
}

/// Builds the view; `svg` is the (GM, players) map for inlining in HTML.
pub fn fortress_view(
    f: &Fortress,
    tables: &crate::tables::Tables,
    paper: crate::model::Paper,
    svg: (String, String),
) -> FortressView {
    // Areas in the order a party meets them: by appearance difficulty (gates from the Entrance), then id.
    let mut order: Vec<&Area> = f.areas.iter().collect();
    order.sort_by_key(|a| (a.kind == AreaKind::Core, a.appearance_difficulty, a.id));
    let regen = super::regen::fortress(f, tables, paper);
    FortressView {
        title: f.title.clone(),
        seed: f.seed,
        program: format!("{} {}", f.generator.name, f.generator.version),
        tables_version: f.generator.tables.clone(),
        command: regen.command,
        edited: regen.edited,
        paper: paper.label().into(),
        width_mm: paper.size_mm().0,
        height_mm: paper.size_mm().1,
        party: format!("{} characters of CL {}", f.party.size, f.party.cl),
        party_model: party_model(&f.params),
        trailer: f.trailer.clone(),
        notes: f.notes.clone(),
        bad_statuses: bad_statuses(f),
        ruler: ruler_view(f),
        logic: f.logic.clone(),
        entrance_condition: format!("{} — {}", f.entrance_condition.kind.label(), f.entrance_condition.text),
        core: f.core.clone(),
        judges: judges(),
        logic_prana: LOGIC_REMOVAL_PRANA,
        areas: order.iter().map(|a| area_view(f, a)).collect(),
        climax: crate::nw3::finale::headline(f),
        climax_rules: crate::nw3::episode::core::lines(f, &crate::nw3::finale::of(f)),
        svg: svg.0,
        players_svg: svg.1,
        svg_file: format!("fortress-{}.svg", f.seed),
        players_svg_file: format!("fortress-{}-players.svg", f.seed),
        episode: f.episode.as_ref().map(episode_view),
    }
}

fn scene_view(e: &crate::nw3::model::Episode, s: &crate::nw3::model::Scene) -> SceneView {
    let handout = e.handouts.iter().find(|h| h.pc == s.pc && s.pc != 0);
    SceneView {
        title: s.title.clone(),
        plants: s.plants.label().into(),
        text: s.text.clone(),
        pc: handout.map_or_else(String::new, |h| format!("PC {}", h.pc)),
        npc: handout.map_or_else(String::new, |h| h.connection.name.clone()),
        party: s.party,
        at: s.at.clone(),
        says: s.says.clone(),
        knows: s.knows.clone(),
    }
}

/// A Middle Phase scene as printed; a legwork scene whose item the episode no longer has is left
/// out (`check` reports it).
fn middle_view(e: &crate::nw3::model::Episode, m: &crate::nw3::model::MiddleScene) -> Option<MiddleView> {
    let Some(topic) = m.legwork else {
        return Some(MiddleView {
            kind: "Master Scene".into(),
            title: m.title.clone(),
            text: m.text.clone(),
            judge: String::new(),
            gives: String::new(),
            onward: m.onward,
        });
    };
    let l = e.legwork.iter().find(|l| l.topic == topic)?;
    Some(MiddleView {
        kind: "Legwork".into(),
        title: l.title.clone(),
        text: String::new(),
        judge: format!("{} {} (+2 with {})", l.attribute, l.difficulty, l.connection),
        gives: l.reveals.clone(),
        onward: m.onward,
    })
}

/// The episode's parts with their labels spelled out.
fn episode_view(e: &crate::nw3::model::Episode) -> EpisodeView {
    let entrance_thing = match (&e.keyword, &e.item) {
        (Some(k), _) => format!("the keyword \"{}\" ({})", k.word, k.origin),
        (None, Some(i)) => format!("the {}, found {}", i.name, i.where_found),
        (None, None) => String::new(),
    };
    EpisodeView {
        town: e.town.clone(),
        victim: e.victim.clone(),
        former: e.past.former.clone(),
        life: e.past.life.clone(),
        wish: e.past.wish.clone(),
        place_reason: e.past.place_reason.clone(),
        victim_reason: e.past.victim_reason.clone(),
        entrance_thing,
        handouts: e
            .handouts
            .iter()
            .map(|h| HandoutView {
                pc: format!("PC {}", h.pc),
                hook: h.hook.clone(),
                connection: h.connection.name.clone(),
                who: h.connection.who.clone(),
                kind: if h.connection.setting { "a character of the setting" } else { "an NPC of this episode" }.into(),
            })
            .collect(),
        opening: e.opening.iter().map(|s| scene_view(e, s)).collect(),
        middle: e.middle.iter().filter_map(|m| middle_view(e, m)).collect(),
        legwork: e
            .legwork
            .iter()
            .map(|l| LegworkView {
                title: l.title.clone(),
                judge: format!("{} judge, difficulty {}", l.attribute, l.difficulty),
                connection: l.connection.clone(),
                text: l.text.clone(),
                reveals: l.reveals.clone(),
            })
            .collect(),
        climax_setting: e.climax.setting.clone(),
        ruler_line: e.climax.line.clone(),
        tactics: e.climax.tactics.clone(),
        endings: e
            .endings
            .iter()
            .map(|x| EndingView { way: x.way.label().into(), text: x.text.clone(), xp: x.xp })
            .collect(),
    }
}

/// The Ruler as the climax prints it: who it is, why it fights, and its stat block as a Boss.
fn ruler_view(f: &Fortress) -> RulerView {
    let r = &f.ruler;
    RulerView {
        name: r.name.clone(),
        title: r.title.clone(),
        description: r.description.clone(),
        motive: r.motive.clone(),
        initiative: format!("SPD {}; initiative by Any Seven = {}", r.spd, r.initiative),
        area: r.area,
        block: fighter_view(r.name.clone(), Rank::Boss, r.stats.as_ref(), r.spd, r.initiative, &r.attacks, &r.skills),
    }
}

/// The GM's judge crib: every roll the fortress asks for and where its difficulty comes from. The
/// same for every fortress (the per-area numbers are printed with each area).
fn judges() -> Vec<(String, String)> {
    vec![
        (
            "Appearance (a PC outside joins the current area)".into(),
            "8 + 2 per gate from the Entrance (listed per area)".into(),
        ),
        (
            "Danger Sense (listed per area)".into(),
            format!(
                "{DANGER_SENSE_DEFAULT} by default; an ambusher's Perception + {AMBUSH_BONUS}; {DANGER_SENSE} \
                 to find a secret gate; a trap's Removal Value"
            ),
        ),
        ("Trap Identification (a Perception judge: 2D6 + Awareness)".into(), "the trap's Detection Value".into()),
        ("Trap Removal (Finesse judge)".into(), "the trap's Removal Value".into()),
        (
            "Attack (enemy or PC)".into(),
            "hit: 2D6 + PACC/MACC vs 2D6 + EVA (ties hit); damage: 2D6 + PATK/MATK minus 2D6 + PDEF/MDEF".into(),
        ),
        ("Judges".into(), "2D6 + modifier ≥ difficulty; GM critical on 10, fumble on 5".into()),
        (
            "Strength, Finesse, Awareness, Knowledge, Spirit or Luck judge (events, legwork)".into(),
            "the PC rolls 2D6 + that Attribute (plus skills and items); a Perception judge is an Awareness \
             judge; legwork: +2 with the Connection named"
                .into(),
        ),
        ("Dodge (against an attack)".into(), "the defender rolls 2D6 + EVA against the Hit Check".into()),
        ("Enemy initiative".into(), "Any Seven: SPD + 7".into()),
        (
            "Difficulty bands".into(),
            "0-9 simple, 10-12 ordinary, 13-15 challenging, 16-20 hard, 21-30 expert, 31+ master".into(),
        ),
    ]
}

/// One area as the booklet prints it: its scene, the judges it asks for, its enemies and its gates.
fn area_view(f: &Fortress, a: &Area) -> AreaView {
    AreaView {
        id: a.id,
        name: a.name.clone(),
        kind: a.kind.label().into(),
        appearance: a.appearance_difficulty,
        optional: a.optional,
        description: a.description.clone(),
        event: a.event.as_ref().map(event_title),
        event_text: a.event.as_ref().map(|e| e.text.clone()),
        ruler: a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler),
        event_judge: a.event.as_ref().and_then(event_judge),
        event_success: a.event.as_ref().map(|e| e.success.clone()).unwrap_or_default(),
        event_failure: a.event.as_ref().map(|e| e.failure.clone()).unwrap_or_default(),
        event_retry: a.event.as_ref().map(|e| e.retry.clone()).unwrap_or_default(),
        trap: a.trap.as_ref().map(|t| format!("{}: {}", t.name, t.effect)),
        trap_parts: a.trap.as_ref().map(|t| (t.name.clone(), t.effect.clone())),
        trap_judges: a.trap.as_ref().map(trap_judges),
        danger_sense: danger_sense_line(f, a),
        enemies: a.enemies.iter().map(group_view).collect(),
        objects: a.objects.iter().map(object_line).collect(),
        object_parts: a.objects.iter().map(|o| (o.name.clone(), object_effect(o))).collect(),
        gates: f.gates.iter().filter_map(|g| gate_text(f, a.id, g)).collect(),
        notes: a.notes.clone(),
        captive: f
            .episode
            .as_ref()
            .and_then(|e| e.captive.as_ref())
            .filter(|c| c.area == a.id)
            .map_or_else(String::new, |c| c.text.clone()),
        core_note: crate::nw3::episode::core::area_note(f, a.id),
    }
}

/// "Event (2D6 = 7) — name": where the event came from (the chart's roll, the scenario, the Ruler),
/// then its name.
fn event_title(e: &Event) -> String {
    let tag = match e.kind {
        EventKind::Chart => e.roll.map_or("Event".to_string(), |r| format!("Event (2D6 = {r})")),
        EventKind::Scenario => "Scenario event".into(),
        EventKind::Ruler => "The Ruler".into(),
    };
    format!("{tag} — {}", e.name)
}

/// The judge an event asks for, if any; a judge without a difficulty is the GM's call.
fn event_judge(e: &Event) -> Option<String> {
    match (&e.judge, e.difficulty) {
        (Some(j), Some(d)) => Some(format!("{j} judge, difficulty {d}")),
        (Some(j), None) => Some(format!("{j} judge")),
        _ => None,
    }
}

/// A trap's two judges and what happens when they fail, spelled out so the GM need not look them up.
fn trap_judges(t: &Trap) -> String {
    format!(
        "Detection Value {} (Perception judge, Trap Identification); Removal Value {} (Finesse judge; \
         Danger Sense at {}); if nobody identifies it, it goes off; a fumbled removal sets it off on the \
         one trying; left in place, it may reset and go off again whenever the area is entered",
        t.detection, t.removal, t.removal
    )
}

/// "Danger Sense 12 (the default)", then the difficulty of finding each secret gate of the area
/// that Danger Sense opens: all the area's Danger Sense judges in one line.
fn danger_sense_line(f: &Fortress, a: &Area) -> String {
    // A stored number (the generator's or the GM's) wins; the reason label is always the rule's.
    let (n, why) = a.danger_sense.map_or_else(|| danger_sense(a), |n| (n, danger_sense(a).1));
    let mut line = format!("Danger Sense {n} ({})", why.label());
    for g in &f.gates {
        let other = if g.from == a.id { g.to } else { g.from };
        if let (GateKind::Secret, Some(Opener::DangerSense(d)), true) =
            (g.kind, g.opened_by, g.from == a.id || g.to == a.id)
        {
            line.push_str(&format!("; {d} to find the secret gate to area {other}"));
        }
    }
    line
}

/// An enemy group: its members' stat blocks and, for an ambusher, the judge that spots it.
fn group_view(g: &EnemyGroup) -> GroupView {
    let members = g
        .members
        .iter()
        .map(|m| {
            let name = crate::text::count(m.count.into(), &m.name);
            fighter_view(name, m.rank, m.stats.as_ref(), m.spd, m.initiative, &m.attacks, &m.skills)
        })
        .collect();
    GroupView {
        name: g.name.clone(),
        description: g.description.clone(),
        ambush: if g.ambush { ambush_line(g) } else { String::new() },
        members,
        notes: g.notes.clone(),
    }
}

/// An ambush is spotted by Danger Sense against the group's sharpest member (best Perception).
fn ambush_line(g: &EnemyGroup) -> String {
    let best = g.members.iter().filter_map(|m| m.stats.map(|s| s.perception)).max().unwrap_or(0);
    format!(
        "Lies in ambush: each PC present makes a Danger Sense judge, difficulty {} (best \
         Perception {best} + {AMBUSH_BONUS}); those who fail are caught off guard (our suggestion: \
         -3 to their Count in the first round)",
        best + AMBUSH_BONUS
    )
}

/// An object and its effect; a Gate Release Device also names the gate it opens.
fn object_line(o: &Object) -> String {
    format!("{}: {}", o.name, object_effect(o))
}

/// What an object does, and the gate it opens.
fn object_effect(o: &Object) -> String {
    match o.opens {
        Some(g) => format!("{} (opens the gate {}-{})", o.effect, g.from, g.to),
        None => o.effect.clone(),
    }
}
