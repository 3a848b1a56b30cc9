//! The regenerate line: what every GM sheet's footer, the booklet and the workbench's sheets tell a
//! GM to type to get the scenario again.
//!
//! The seed command (`dungeonsmith myk --seed 42 ...`, with the recorded rerolls) is printed only
//! when it gives back exactly this scenario: the scenario is rebuilt from its seed, options and
//! rerolls with the tables at hand and compared with itself as JSON, the bytes of its file but its
//! program and tables record (a rebuild costs tens of microseconds). A scenario edited by hand, locked, built `--from` another
//! file or made with other tables gets `dungeonsmith render <file>.json` instead: a GM who shares
//! the seed command of an edited scenario would otherwise hand on the unedited one.

use crate::model::Paper;
use crate::myk::model::Scenario;
use crate::nw3::model::Fortress;
use crate::tables::Tables;

/// How to get this scenario's files again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regen {
    /// The command to print: the seed command, or `dungeonsmith render <file>.json`.
    pub command: String,
    /// No seed command gives the scenario back (edited by hand, locked, built `--from` another file).
    pub edited: bool,
}

impl Regen {
    fn new(seed_command: String, rebuilds: bool, file: String) -> Regen {
        if rebuilds {
            Regen { command: seed_command, edited: false }
        } else {
            Regen { command: format!("dungeonsmith render {file}"), edited: true }
        }
    }
}

/// The regenerate line of a Make You Kingdom scenario drawn on `paper`.
pub fn myk(s: &Scenario, tables: &Tables, paper: Paper) -> Regen {
    // Both read filled, as the fortress's (the renderers hand a scenario with its title filled).
    let read = crate::myk::frame::filled(s);
    let rebuilds = rebuilds(&*read, tables, || myk_rebuild(s, tables));
    Regen::new(myk_seed_command(s, paper), rebuilds, format!("myk-{}.json", s.seed))
}

/// The regenerate line of a Night Wizard 3rd Edition Fortress drawn on `paper`.
pub fn fortress(f: &Fortress, tables: &Tables, paper: Paper) -> Regen {
    // Both read filled (the renderers hand a filled fortress; filling one again changes nothing).
    let read = crate::nw3::text::filled(f);
    let rebuilds = rebuilds(&read, tables, || fortress_rebuild(f, tables));
    Regen::new(fortress_seed_command(f, paper), rebuilds, format!("fortress-{}.json", f.seed))
}

/// The command line that gives this scenario again if nothing in it was changed by hand: the seed
/// and options, then every recorded reroll in order. Whether it does is [`myk`]'s question.
pub fn myk_seed_command(s: &Scenario, paper: Paper) -> String {
    let p = &s.params;
    let court = if p.levels.iter().all(|&l| Some(&l) == p.levels.first()) {
        format!("--court-size {} --level {}", p.court_size, p.levels.first().copied().unwrap_or(1))
    } else {
        format!("--levels {}", p.levels.iter().map(u32::to_string).collect::<Vec<_>>().join(","))
    };
    let paper = if paper == Paper::Letter { " --paper letter" } else { "" };
    let rerolls: String = s.rerolls.iter().map(|r| format!(" --reroll {}", r.part)).collect();
    let objective = p.objective.map(|k| format!(" --objective {}", k.name())).unwrap_or_default();
    let court_names = myk_court_options(p);
    format!(
        "dungeonsmith myk --seed {} {court} --maps {} --rooms {} --layout {}{objective}{court_names}{paper}{rerolls}",
        s.seed,
        p.maps,
        p.rooms,
        p.layout.label()
    )
}

/// `--kingdom` and `--classes` as the scenario was made with them: a name the option takes in
/// double quotes (its characters mean nothing to a shell there), any other (a hand edit) in
/// single quotes with a `'` written `'\''`; the classes by their option names.
fn myk_court_options(p: &crate::myk::model::Params) -> String {
    let quoted = |k: &String| match crate::myk::court::kingdom_name(k) {
        Ok(_) => format!(" --kingdom \"{k}\""),
        Err(_) => format!(" --kingdom '{}'", k.replace('\'', "'\\''")),
    };
    let kingdom = p.kingdom.as_ref().map(quoted).unwrap_or_default();
    let classes: Vec<&str> = p.classes.iter().map(|c| c.name()).collect();
    let classes = if classes.is_empty() { String::new() } else { format!(" --classes {}", classes.join(",")) };
    kingdom + &classes
}

/// The command line that gives this fortress again if nothing in it was changed by hand: the seed
/// and options, then every recorded reroll in order. Whether it does is [`fortress`]'s
/// question.
pub fn fortress_seed_command(f: &Fortress, paper: Paper) -> String {
    let p = &f.params;
    let paper = if paper == Paper::Letter { " --paper letter" } else { "" };
    let rerolls: String = f.rerolls.iter().map(|r| format!(" --reroll {}", r.part)).collect();
    let own = |name: &str, v: Option<u32>| v.map_or(String::new(), |v| format!(" --{name} {v}"));
    let party =
        [own("party-attack", p.party_attack), own("party-defence", p.party_defence), own("party-hp", p.party_hp)]
            .concat();
    format!(
        "dungeonsmith fortress --seed {} --party {} --cl {} --areas {}{party}{paper}{rerolls}",
        f.seed, p.party, p.cl, p.areas
    )
}

/// What the seed command printed for `s` makes: its seed and options, then its recorded rerolls
/// (None when they do not replay: a hand-edited list, options out of range). The paper is the
/// scenario's own (the command names the paper the sheet carrying it is drawn on), and so is the
/// program and tables record: the footer prints it beside the command, which gives this scenario
/// back with that program and those tables. Its title is filled, as `s`'s is when a renderer
/// hands it over ([`crate::myk::frame::filled`]).
fn myk_rebuild(s: &Scenario, tables: &Tables) -> Option<Scenario> {
    let p = &s.params;
    let params = crate::myk::MykParams {
        levels: p.levels.clone(),
        maps: p.maps,
        rooms: p.rooms,
        layout: p.layout,
        objective: p.objective,
        kingdom: p.kingdom.clone(),
        classes: p.classes.clone(),
    };
    let mut again = crate::myk::generate(tables, &params, s.seed).ok()?;
    crate::edit::myk::replay(tables, &mut again, &s.rerolls).ok()?;
    again.params.paper = s.params.paper;
    again.generator = s.generator.clone();
    Some(crate::myk::frame::filled(&again).into_owned())
}

/// What the seed command printed for `f` makes (as [`myk_rebuild`]), its texts filled as `f`'s
/// are: every renderer reads a fortress filled ([`crate::nw3::text::filled`]).
fn fortress_rebuild(f: &Fortress, tables: &Tables) -> Option<Fortress> {
    let mut again = crate::nw3::generate(tables, &f.params, f.seed).ok()?;
    crate::edit::nw3::replay(tables, &mut again, &f.rerolls).ok()?;
    again.paper = f.paper;
    again.generator = f.generator.clone();
    Some(crate::nw3::text::filled(&again))
}

/// Whether `rebuild` (the seed command's scenario) serialises to the same file as `s`, asked once
/// per scenario and tables: every sheet's footer and the booklet ask (41 times for a 20-map
/// scenario in the workbench), and each answer replays every recorded reroll, so a permalink of
/// 1,000 rerolls replayed them 41,000 times. The answer is kept for the last few scenarios, by
/// the SHA-256 of their file and the tables' version.
fn rebuilds<T: serde::Serialize>(s: &T, tables: &Tables, rebuild: impl FnOnce() -> Option<T>) -> bool {
    use sha2::{Digest, Sha256};
    use std::sync::Mutex;
    type Seen = Vec<([u8; 32], String, bool)>;
    static SEEN: Mutex<Seen> = Mutex::new(Vec::new());
    let Ok(mine) = crate::render::json(s) else { return false };
    let hash: [u8; 32] = Sha256::digest(mine.as_bytes()).into();
    let version = tables.version.to_string();
    let known = |seen: &Seen| seen.iter().find(|(h, v, _)| *h == hash && *v == version).map(|(_, _, r)| *r);
    if let Some(answer) = SEEN.lock().ok().and_then(|seen| known(&seen)) {
        return answer;
    }
    let answer = rebuild().and_then(|again| crate::render::json(&again).ok()).is_some_and(|again| again == mine);
    if let Ok(mut seen) = SEEN.lock() {
        if seen.len() >= 8 {
            seen.remove(0);
        }
        seen.push((hash, version, answer));
    }
    answer
}
