//! The NW3 episode around a Fortress (issue 32): every fortress across the options has the five
//! phases, a Handout per PC, legwork, an opening scene, a Ruler with a past; what the Entrance
//! asks is given by the episode; hand edits that break that are caught by `check` in one line;
//! `reroll frame` rolls the episode anew, a locked frame keeps it; older files load.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use dungeonsmith::edit::nw3::{Nw3Part, regenerate, reroll};
use dungeonsmith::nw3::{EventKind, Fortress, FortressParams, check, generate};
use dungeonsmith::render::fortress_view::fortress_view;
use dungeonsmith::render::text::Templates;
use dungeonsmith::tables::Tables;
use dungeonsmith::tables::nw3::EntranceKind;
use dungeonsmith::tables::nw3_episode::ATTRIBUTES;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| Tables::embedded().expect("embedded tables load"))
}

/// The spread of issue 32: areas 3-40, party 1-8, CL 1-20.
fn params(i: u64) -> FortressParams {
    FortressParams {
        areas: 3 + (i % 38) as u32,
        party: 1 + (i % 8) as u32,
        cl: 1 + (i * 7 % 20) as u32,
        ..Default::default()
    }
}

fn fortress(i: u64) -> Fortress {
    generate(tables(), &params(i), i).expect("generates")
}

fn markdown(f: &Fortress) -> String {
    let t = Templates::load(None).expect("built-in templates");
    let v = fortress_view(f, tables(), dungeonsmith::model::Paper::A4, (String::new(), String::new()));
    t.render("fortress.md", &v).expect("renders")
}

/// Everything issue 32 asks of one fortress's episode, as a list of what is wrong.
fn episode_faults(f: &Fortress) -> Vec<String> {
    // The texts as they are read: filled from the fortress.
    let f = &dungeonsmith::nw3::text::filled(f);
    let mut bad = Vec::new();
    let Some(e) = &f.episode else { return vec!["no episode".into()] };
    let npcs: BTreeSet<&str> = e.handouts.iter().map(|h| h.connection.name.as_str()).collect();
    if e.handouts.len() != f.party.size as usize || npcs.len() != e.handouts.len() {
        bad.push(format!("{} handouts, {} Connections for {} PCs", e.handouts.len(), npcs.len(), f.party.size));
    }
    if e.legwork.len() < 2 || e.legwork.iter().any(|l| !ATTRIBUTES.contains(&l.attribute.as_str()) || l.difficulty == 0)
    {
        bad.push(format!("legwork {:?}", e.legwork.iter().map(|l| (&l.attribute, l.difficulty)).collect::<Vec<_>>()));
    }
    if e.opening.is_empty() || e.past.former.is_empty() {
        bad.push("no opening scene or no former name".into());
    }
    let spoken =
        |w: &str| e.opening.iter().any(|s| s.text.contains(w)) || e.legwork.iter().any(|l| l.reveals.contains(w));
    match f.entrance_condition.kind {
        EntranceKind::Keyword => match &e.keyword {
            Some(k) if f.entrance_condition.text.contains(&k.word) && spoken(&k.word) => {}
            _ => bad.push(format!("keyword not given: {}", f.entrance_condition.text)),
        },
        EntranceKind::Item => match &e.item {
            Some(i)
                if f.entrance_condition.text.contains(&i.name)
                    && e.opening.iter().any(|s| s.text.contains(&i.name) && s.text.contains(&i.where_found)) => {}
            _ => bad.push(format!("item not found in a scene: {}", f.entrance_condition.text)),
        },
        EntranceKind::Cost => {}
    }
    let names: BTreeSet<&str> = f.areas.iter().map(|a| a.name.as_str()).collect();
    let texts: BTreeSet<&str> = f.areas.iter().map(|a| a.description.as_str()).collect();
    if names.len() != f.areas.len() || texts.len() != f.areas.len() || f.areas.iter().any(|a| a.name.ends_with(" II")) {
        bad.push("an area name or description repeats".into());
    }
    for a in &f.areas {
        if let Some(ev) = a.event.as_ref().filter(|ev| ev.kind == EventKind::Scenario)
            && (ev.success.is_empty() || ev.failure.is_empty() || ev.retry.is_empty())
        {
            bad.push(format!("area {}: the event `{}` lacks success, failure or retry", a.id, ev.name));
        }
    }
    bad.extend(check(f, tables()).iter().map(|v| v.to_string()));
    bad
}

#[test]
fn three_hundred_fortresses_each_hold_a_whole_episode_that_gives_what_the_entrance_asks() {
    let mut kinds = BTreeSet::new();
    for i in 0..300 {
        let f = fortress(i);
        kinds.insert(f.entrance_condition.kind.label());
        let faults = episode_faults(&f);
        assert!(faults.is_empty(), "seed {i} {:?}: {faults:?}", params(i));
    }
    assert_eq!(kinds.len(), 3, "every kind of Entrance condition comes up: {kinds:?}");
}

#[test]
fn the_booklet_names_the_five_phases_and_says_hp_and_mp_never_body_or_mind() {
    for i in (0..300).step_by(25) {
        let f = fortress(i);
        let md = markdown(&f);
        for phase in ["## Preplay", "## Opening Phase", "## Middle Phase", "## Climax Phase", "## After Phase"] {
            assert!(md.contains(&format!("{phase}\n")), "seed {i}: no `{phase}`");
        }
        let handouts = md.matches(": Episode Handout for PC ").count();
        assert_eq!(handouts, f.party.size as usize, "seed {i}: one player handout per PC");
        for word in ["Body", "Mind"] {
            assert!(!md.split(|c: char| !c.is_alphanumeric()).any(|w| w == word), "seed {i}: `{word}` in the text");
        }
        assert!(md.contains("| HP ") || md.contains("· HP "), "seed {i}: stat blocks say HP");
    }
}

/// The fortress written to a file, edited, and checked by the program: (exit code, stdout).
fn check_edited(f: &Fortress, tag: &str, edit: impl Fn(&mut serde_json::Value)) -> (i32, String) {
    let mut v = serde_json::to_value(f).unwrap();
    edit(&mut v);
    let path = std::env::temp_dir().join(format!("ds-episode-{tag}-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, out, err) = crate::run(&["check", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    (code, format!("{out}{err}"))
}

/// The lines of a `check` report that name a broken rule.
fn broken(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.contains("episode.")).collect()
}

/// A handout's hook names its Connection by slot (issue 45): a hand edit of the Connection's name
/// renames it in the hook and the legwork too, and `check` finds nothing to reconcile.
#[test]
fn a_hand_edit_of_a_connections_name_renames_it_in_its_hook_and_legwork() {
    let f = fortress(11);
    let name = f.episode.as_ref().unwrap().handouts[0].connection.name.clone();
    let (code, out) =
        check_edited(&f, "npc", |v| v["episode"]["handouts"][0]["connection"]["name"] = "Nobody Known".into());
    assert_eq!(code, 0, "{out}");
    let mut g = f.clone();
    g.episode.as_mut().unwrap().handouts[0].connection.name = "Nobody Known".into();
    let md = markdown(&dungeonsmith::nw3::text::filled(&g));
    assert!(md.contains("Nobody Known") && !md.contains(&name), "the old name is left in the booklet");
}

/// A stored text whose slot names an area the fortress lacks is one line of `check`.
#[test]
fn a_text_naming_an_area_that_is_not_there_is_caught_in_one_line() {
    let f = fortress(11);
    let (code, out) =
        check_edited(&f, "slot", |v| v["episode"]["endings"][0]["text"] = "They flee to {area:99}.".into());
    assert_eq!(code, 1, "{out}");
    let lines = broken(&out);
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains("{area:99}") && lines[0].contains("ending 1"), "{out}");
}

#[test]
fn a_hand_edit_that_removes_the_scene_holding_the_keyword_is_caught_in_one_line() {
    let f = (0..200)
        .map(fortress)
        .find(|f| f.entrance_condition.kind == EntranceKind::Keyword)
        .expect("a keyword Entrance");
    let word = f.episode.as_ref().unwrap().keyword.as_ref().unwrap().word.clone();
    let (code, out) = check_edited(&f, "keyword", |v| {
        let e = &mut v["episode"];
        // PC 1's scene stays (its Connection met), but neither its event nor its Connection says
        // the keyword any more (the legwork's saying it does not plant it).
        for s in e["opening"].as_array_mut().unwrap().iter_mut().filter(|s| s["plants"] == "keyword") {
            s["text"] = "".into();
            s["says"] = "{npc} shrugs.".into();
        }
    });
    assert_eq!(code, 1, "{out}");
    let lines = broken(&out);
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains(&word) && lines[0].contains("episode.keyword"), "{out}");
}

#[test]
fn a_hand_edit_that_removes_the_item_scene_is_caught_in_one_line() {
    let f = (0..200).map(fortress).find(|f| f.entrance_condition.kind == EntranceKind::Item).expect("an item Entrance");
    let (code, out) = check_edited(&f, "item", |v| {
        for s in v["episode"]["opening"].as_array_mut().unwrap().iter_mut().filter(|s| s["plants"] == "item") {
            s["text"] = "".into();
            s["says"] = "{npc} shrugs.".into();
        }
    });
    assert_eq!(code, 1, "{out}");
    let lines = broken(&out);
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains("episode.item"), "{out}");
}

#[test]
fn reroll_frame_rolls_the_episode_anew_while_the_fortress_stays() {
    let mut changed = 0;
    for i in 0..20 {
        let f = fortress(i);
        let mut g = f.clone();
        reroll(tables(), &mut g, &Nw3Part::Frame).expect("rerolls");
        assert!(episode_faults(&g).iter().all(|x| x.contains("area name")), "seed {i}: {:?}", episode_faults(&g));
        // The areas and gates stay; only the Ruler encounter follows the new Ruler.
        let plan = |f: &Fortress| f.areas.iter().map(|a| (a.name.clone(), a.kind, a.trap.clone())).collect::<Vec<_>>();
        assert_eq!((plan(&f), &f.gates), (plan(&g), &g.gates), "seed {i}: the fortress changed");
        changed += usize::from(f.episode != g.episode);
    }
    assert!(changed >= 19, "only {changed} of 20 frame rerolls gave a new episode");
}

#[test]
fn a_locked_frame_keeps_its_episode_when_the_rest_is_rolled_anew() {
    for i in 0..10 {
        let mut f = fortress(i);
        f.frame_locked = true;
        let g = regenerate(tables(), &f, i + 1000).expect("regenerates");
        // Every text is kept; what the legwork reveals is the new fortress's (where its Core and
        // Ruler now stand, its secret gate if it has one).
        let (mut kept, mut now) = (f.episode.clone().unwrap(), g.episode.clone().unwrap());
        let topics = |e: &dungeonsmith::nw3::model::Episode| e.legwork.iter().map(|l| l.topic).collect::<Vec<_>>();
        now.legwork.iter_mut().for_each(|l| l.reveals.clear());
        kept.legwork.retain(|l| topics(&now).contains(&l.topic));
        kept.legwork.iter_mut().for_each(|l| l.reveals.clear());
        // The scenes follow the legwork kept: a dropped item's Middle Phase scene goes, and each
        // Connection knows what it now helps with (tested in nw3_scenes).
        let now_topics = topics(&now);
        kept.middle.retain(|m| m.legwork.is_none_or(|t| now_topics.contains(&t)));
        // The finale is the new fortress's (issue 47): where the Climax and the victim are, and
        // the endings its gates allow (tested in nw3_finale).
        for e in [&mut kept, &mut now] {
            e.climax.area = 0;
            e.climax.setting.clear();
            e.climax.needs.clear();
            // The Core's guards are the new Core area's (tested in nw3_core).
            e.climax.guards = None;
            e.endings.clear();
            e.captive = None;
            e.opening.iter_mut().for_each(|s| s.knows.clear());
            e.middle.iter_mut().for_each(|m| m.onward = false);
        }
        assert_eq!(kept, now, "seed {i}");
        assert!(check(&g, tables()).is_empty(), "seed {i}: {:?}", check(&g, tables()));
    }
}

#[test]
fn a_format_2_fortress_loads_without_an_episode_checks_clean_and_says_so() {
    // Files of format 2 stored their texts filled.
    let f = dungeonsmith::nw3::text::filled(&fortress(5));
    let mut v = serde_json::to_value(&f).unwrap();
    v["format"] = 2.into();
    let obj = v.as_object_mut().unwrap();
    obj.remove("episode");
    for a in v["areas"].as_array_mut().unwrap() {
        if let Some(e) = a["event"].as_object_mut() {
            for k in ["success", "failure", "retry"] {
                e.remove(k);
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("ds-episode-format2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.json");
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, out, err) = crate::run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let out_dir = dir.join("out");
    let (code, _, err) =
        crate::run(&["render", path.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--format", "md"]);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(out_dir.join("fortress-5.md")).unwrap();
    assert!(md.contains("## Opening Phase") && md.contains("holds no episode"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The players' handouts are cut-out cards, four to a page (issue 48): one card page for each
/// four PCs, each card on one page only.
#[test]
fn the_html_booklet_prints_the_players_handouts_as_cards_four_to_a_page() {
    let f = fortress(7);
    let t = Templates::load(None).expect("built-in templates");
    let opts = dungeonsmith::render::RenderOptions {
        formats: &[dungeonsmith::model::Format::Html],
        templates: &t,
        reference: Default::default(),
    };
    let files = dungeonsmith::render::render_fortress(&f, tables(), &opts).expect("renders");
    let html = String::from_utf8(files[0].bytes.clone()).expect("UTF-8");
    let pages: Vec<&str> = html.split("<section class=\"sheet handout-cards\">").skip(1).collect();
    assert_eq!(pages.len(), (f.party.size as usize).div_ceil(4), "one card page for each four PCs");
    for pc in 1..=f.party.size {
        let on = pages.iter().filter(|p| p.contains(&format!(">Episode Handout for PC {pc}<"))).count();
        assert_eq!(on, 1, "PC {pc}'s card");
    }
}

/// Each kind of episode sentence one fortress holds, as its pool wrote it: the episode's own names
/// (town, victim, the Ruler and who it was, the Connections, areas, Core, keyword, item) are
/// masked, so two episodes that tell one pool sentence about different people count as sharing it,
/// as a GM reading both would see.
fn episode_sentences(f: &Fortress) -> BTreeMap<&'static str, Vec<String>> {
    let e = f.episode.as_ref().expect("an episode");
    let mut names: Vec<&str> = vec![&e.town, &e.victim, &e.past.former, &f.ruler.name, &f.core.name];
    names.extend(e.handouts.iter().map(|h| h.connection.name.as_str()));
    names.extend(f.areas.iter().map(|a| a.name.as_str()));
    names.extend(e.keyword.iter().map(|k| k.word.as_str()));
    names.extend(e.item.iter().map(|i| i.name.as_str()));
    // Longest first, so a name inside another ("Tower" in "Drowned Bell Tower") is not masked alone.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.retain(|n| !n.is_empty());
    let mask = |t: &str| names.iter().fold(t.to_string(), |t, n| t.replace(n, "{}"));
    let mut out: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    out.insert("connections", e.handouts.iter().map(|h| h.connection.who.clone()).collect());
    out.insert("hooks", e.handouts.iter().map(|h| h.hook.clone()).collect());
    // A PC's Opening scene without a drawn event (PC 3 on) has no text of its own to repeat.
    out.insert("opening", e.opening.iter().map(|s| s.text.clone()).filter(|t| !t.is_empty()).collect());
    out.insert("legwork", e.legwork.iter().map(|l| l.text.clone()).collect());
    out.insert(
        "past",
        vec![e.past.life.clone(), e.past.wish.clone(), e.past.place_reason.clone(), e.past.victim_reason.clone()],
    );
    out.insert("climax", vec![e.climax.setting.clone(), e.climax.line.clone()]);
    out.insert("endings", e.endings.iter().map(|x| x.text.clone()).collect());
    out.insert("trailer", vec![f.trailer.clone()]);
    for texts in out.values_mut() {
        texts.iter_mut().for_each(|t| *t = mask(t));
    }
    out
}

/// "A sentence a GM reads twice in a row of episodes is a defect": over seeds 1000-1199 at the
/// default options, for each kind of episode sentence, few of the 199 pairs of consecutive
/// episodes share one (names masked, see [`episode_sentences`]). The kinds drawn once per episode
/// (opening scenes, the Ruler's past, the climax, the trailer) repeat in at most 20 pairs (10%);
/// those drawn once per PC, topic or way (connections, hooks, legwork, endings: 4, 4, about 7 and
/// 4 an episode) in at most 36 (18%). Measured when the bounds were set: connections 102, legwork
/// 114, endings 82, hooks 59, opening 33, past 25, climax 16 before the pools grew (28
/// connections, 9 legwork items a topic, 8-9 endings a way, 44 hooks, 6-9 openings a kind, 22-35
/// past entries a pool); connections 16, legwork 33, endings 18, hooks 25, opening 5, past 11,
/// climax 16 after (180, 40 a topic, 40-41 a way, 160, 29 a kind, 60-62). Legwork stays the
/// highest: seven topics each draw one of 40.
#[test]
fn consecutive_episodes_rarely_share_a_pool_sentence() {
    let mut repeats: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut last: Option<BTreeMap<&'static str, Vec<String>>> = None;
    for seed in 1000..1200u64 {
        let f = generate(tables(), &FortressParams::default(), seed).expect("generates");
        let now = episode_sentences(&f);
        if let Some(before) = &last {
            for (kind, texts) in &now {
                let shared = texts.iter().any(|t| before.get(kind).is_some_and(|b| b.contains(t)));
                *repeats.entry(kind).or_default() += u32::from(shared);
            }
        }
        last = Some(now);
    }
    eprintln!("consecutive repeats of 199 pairs: {repeats:?}");
    assert_eq!(repeats.len(), 8, "every kind counted: {repeats:?}");
    for (kind, n) in &repeats {
        let bound = if matches!(*kind, "connections" | "hooks" | "legwork" | "endings") { 36 } else { 20 };
        assert!(*n <= bound, "{kind}: {n} of 199 consecutive episodes share a sentence ({repeats:?})");
    }
}
