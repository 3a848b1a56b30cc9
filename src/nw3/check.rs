//! Every rule a Fortress obeys, for generated and hand-edited scenarios alike. The generator runs
//! this same check and never returns a fortress that fails it.
//!
//! Rules (the `rule` of each [`Violation`]):
//!
//! | rule | what it checks |
//! | --- | --- |
//! | `params.range` | party 1-8, character level 1-20, areas 3-40 |
//! | `params.mismatch` | `params` agree with `party` and the number of areas |
//! | `area.id.duplicate` | area ids are unique |
//! | `fortress.entrance`, `fortress.core` | exactly one Entrance and one Fortress Core area |
//! | `gate.endpoint`, `gate.self`, `gate.duplicate` | gates join two different existing areas, one gate per pair |
//! | `gate.fields` | `opened_by` only on secret and closed gates, `uses` only on damaged gates |
//! | `gate.secret.reveal` | a secret gate is revealed by its own area's event or by Danger Sense 15 |
//! | `gate.closed.opener` | a closed gate names the event or Gate Release Device (in another area) that opens it |
//! | `gate.closed.release-behind-gate` | that opener can be reached without passing the gate itself |
//! | `gate.closed.opener-unreachable` | that opener can be reached at all |
//! | `gate.damaged.uses` | a damaged gate is unusable (`uses` null) or has at least one use |
//! | `solve.core-unreachable` | the Core is reachable from the Entrance with only what is found on the way |
//! | `area.unreachable` | every area can be reached |
//! | `area.optional` | areas reached only through Danger Sense secret gates, and only those, are marked optional |
//! | `gate.one-way.strands` | after any one-way gate the Core can still be reached |
//! | `gate.damaged.strands` | no sequence of moves within a damaged gate's uses leaves the party where the Core cannot be reached |
//! | `area.appearance` | appearance difficulty = 8 + 2 × fewest gates from the Entrance |
//! | `area.content` | each kind holds what it should (a Trap area a trap, an Enemy area enemies, ...) |
//! | `object.release` | a Gate Release Device names a closed gate that it opens, and stands in an Object area |
//! | `trap.unknown`, `trap.values` | traps exist in the tables; Detection/Removal follow the judge rule (`rules::judge_difficulty`) |
//! | `enemy.unknown`, `enemy.members`, `enemy.count`, `enemy.initiative` | groups from the tables, each member one of its record's (rank, SPD) once, a count of 1 or more (the tables' count for the party is the generator's; a GM may change it), SPD + 7 |
//! | `object.unknown`, `core.unknown`, `ruler.unknown`, `logic.unknown` | names exist in the tables |
//! | `event.chart`, `event.unknown`, `event.difficulty`, `event.ruler` | events match the chart, the tables and the Ruler; a scenario event's difficulty follows the judge rule, ordinary when it opens a gate |
//! | `event.own-outcome` | a scenario event's success, failure and retry are its own record's, naming the gates it opens by their kind |
//! | `ruler.initiative`, `ruler.area` | the Ruler's SPD + 7; its encounter is an Event area with the Ruler event |
//! | `logic.count`, `logic.duplicate` | one or two different Logics |
//! | `enemy.body`, `enemy.attack`, `enemy.stats`, `enemy.defence`, `enemy.ambush`, `danger-sense.difficulty` | enemy combat data and Danger Sense (see `check_combat.rs`) |
//! | `episode.*`, `event.outcome` | the episode's Handouts, Entrance keyword or item, opening, legwork and endings point at what exists (see `check_episode.rs`) |
//! | `episode.former`, `episode.theme` | the legwork states the Ruler's past as the episode has it; persona, Core and past are one story (see `ruler_story.rs`) |
//!
//! How the party moves (see `net.rs`): closed gates open once their event area or device area has
//! been visited; secret gates count as found when their event is cleared, never on a Danger Sense
//! judge alone (that may fail); a damaged gate with uses left can be passed, its uses counted as
//! the party walks: no sequence of crossings within them may leave the party where the Core cannot
//! be reached (other damaged gates not counted on); after a one-way gate the Core must be
//! reachable again without any damaged gate. The items held after such a gate are only those in areas every route to it
//! passes through.

use crate::check::Violation;
use crate::dice::DiceKind;
use crate::nw3::model::{Area, AreaKind, Enemy, EnemyGroup, Event, EventKind, Fortress, Gate, GateKind, Opener, Trap};
use crate::nw3::net::{GUARANTEED, Link, Mode, NONE, Net, OPTIMISTIC, Rows, STRANDED, Set, Without, has};
use crate::nw3::params::{AREAS, CL, PARTY};
use crate::tables::Tables;
use crate::tables::nw3::{AREA_EVENT_TABLE, EnemyRecord, Nw3Data};
use crate::tables::roll::{RollTable, Row};

use crate::nw3::events;
pub use crate::nw3::rules::DANGER_SENSE;
use crate::nw3::rules::{ANY_SEVEN, APPEARANCE_BASE, APPEARANCE_PER_GATE, judge_difficulty};

/// Every broken rule of the fortress, in a stable order (empty when it is sound).
pub fn check(f: &Fortress, tables: &Tables) -> Vec<Violation> {
    let mut v = Vec::new();
    check_params(f, &mut v);
    let by_id = ById::new(f);
    let sound = check_structure(f, &by_id, &mut v);
    check_gates(f, &by_id, tables, &mut v);
    check_content(f, tables, &mut v);
    crate::nw3::check_combat::check_combat(f, tables, &mut v);
    crate::nw3::check_episode::check_episode(&crate::nw3::text::filled(f), &mut v);
    crate::nw3::check_episode::check_slots(f, &mut v);
    crate::nw3::ruler_story::check_story(f, tables, &mut v);
    crate::nw3::check_episode::check_facts(f, tables, &mut v);
    crate::nw3::check_episode::check_finale(f, &mut v);
    if sound {
        let net = Net::new(f);
        check_paths(f, &net, &mut v);
        check_ruler_aids(f, tables, &net, &mut v);
    }
    v
}

/// "area 7", formatted only when a violation is reported.
#[derive(Clone, Copy)]
struct AreaAt(u32);

impl From<AreaAt> for String {
    fn from(a: AreaAt) -> String {
        format!("area {}", a.0)
    }
}

fn area_place(id: u32) -> AreaAt {
    AreaAt(id)
}

/// "gate 3-7", formatted only when a violation is reported.
#[derive(Clone, Copy)]
struct GateAt(u32, u32);

impl From<GateAt> for String {
    fn from(g: GateAt) -> String {
        format!("gate {}-{}", g.0, g.1)
    }
}

/// "3-7" in messages.
#[derive(Clone, Copy)]
struct Label(u32, u32);

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

fn gate_place(g: &Gate) -> GateAt {
    GateAt(g.from, g.to)
}

fn find(f: &Fortress, id: u32) -> Option<&Area> {
    f.areas.iter().find(|a| a.id == id)
}

/// Area positions sorted by id, for the lookups of the per-gate rules without a scan per gate (a
/// duplicated id finds its first area, as [`find`] does).
struct ById(Vec<(u32, usize)>);

impl ById {
    fn new(f: &Fortress) -> ById {
        let mut v: Vec<(u32, usize)> = f.areas.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
        v.sort_unstable();
        ById(v)
    }

    fn find<'f>(&self, f: &'f Fortress, id: u32) -> Option<&'f Area> {
        let k = self.0.partition_point(|p| p.0 < id);
        self.0.get(k).filter(|p| p.0 == id).map(|p| &f.areas[p.1])
    }
}

fn check_params(f: &Fortress, v: &mut Vec<Violation>) {
    let p = &f.params;
    for (name, value, range) in [("party", p.party, PARTY), ("cl", p.cl, CL), ("areas", p.areas, AREAS)] {
        if !range.contains(&value) {
            v.push(Violation::new(
                "params",
                "params.range",
                format!("{name} is {value}, outside {}-{}", range.start(), range.end()),
            ));
        }
    }
    if f.party.size != p.party || f.party.cl != p.cl {
        v.push(Violation::new(
            "params",
            "params.mismatch",
            format!("party is {} PCs at CL {}, but params say {} at CL {}", f.party.size, f.party.cl, p.party, p.cl),
        ));
    }
    if usize::try_from(p.areas).ok() != Some(f.areas.len()) {
        v.push(Violation::new(
            "params",
            "params.mismatch",
            format!("params ask for {} areas, the fortress has {}", p.areas, f.areas.len()),
        ));
    }
}

/// Ids, Entrance, Core and gate endpoints. False when the graph cannot be analysed.
fn check_structure(f: &Fortress, by_id: &ById, v: &mut Vec<Violation>) -> bool {
    let mut sound = true;
    let mut last = None;
    for w in by_id.0.windows(2).map(|w| [w[0].0, w[1].0]) {
        if w[0] == w[1] && last != Some(w[0]) {
            v.push(Violation::new(area_place(w[0]), "area.id.duplicate", format!("area id {} is used twice", w[0])));
            last = Some(w[0]);
            sound = false;
        }
    }
    for (kind, rule, what) in
        [(AreaKind::Entrance, "fortress.entrance", "Entrance"), (AreaKind::Core, "fortress.core", "Fortress Core")]
    {
        let n = f.areas.iter().filter(|a| a.kind == kind).count();
        if n != 1 {
            v.push(Violation::new(
                "fortress",
                rule,
                format!("a fortress has exactly one {what} area, this one has {n}"),
            ));
            sound = false;
        }
    }
    // A gate repeats a pair when an earlier gate joins the same two areas (sorted once, not
    // searched per gate).
    let pair = |g: &Gate| (g.from.min(g.to), g.from.max(g.to));
    let mut pairs: Vec<((u32, u32), usize)> = f.gates.iter().enumerate().map(|(i, g)| (pair(g), i)).collect();
    pairs.sort_unstable();
    let mut repeats = vec![false; f.gates.len()];
    for w in pairs.windows(2) {
        if w[0].0 == w[1].0 {
            repeats[w[1].1] = true;
        }
    }
    for (i, g) in f.gates.iter().enumerate() {
        for id in [g.from, g.to] {
            if by_id.find(f, id).is_none() {
                v.push(Violation::new(
                    gate_place(g),
                    "gate.endpoint",
                    format!("gate {} leads to area {id}, which does not exist", g.label()),
                ));
                sound = false;
            }
        }
        if g.from == g.to {
            v.push(Violation::new(
                gate_place(g),
                "gate.self",
                format!("gate {} joins area {} to itself", g.label(), g.from),
            ));
        }
        let pair = pair(g);
        if repeats[i] {
            v.push(Violation::new(
                gate_place(g),
                "gate.duplicate",
                format!("areas {} and {} are joined by more than one gate", pair.0, pair.1),
            ));
        }
    }
    sound
}

/// True when the area holds an event that can be cleared to open or reveal a gate.
fn clearable(a: &Area) -> bool {
    a.kind == AreaKind::Event
        && a.event.as_ref().is_some_and(|e| matches!(e.kind, EventKind::Scenario | EventKind::Ruler))
}

fn is_release(d: &Nw3Data, name: &str) -> bool {
    d.object(name).is_some_and(|o| o.release)
}

/// The per-gate rules, gate by gate in file order: which fields a kind may carry, then what
/// reveals a secret gate, opens a closed one, or how often a damaged one can be used.
fn check_gates(f: &Fortress, by_id: &ById, tables: &Tables, v: &mut Vec<Violation>) {
    for g in &f.gates {
        check_gate_fields(g, v);
        match g.kind {
            GateKind::Secret => check_secret_gate(f, by_id, g, v),
            GateKind::Closed => check_closed_gate(f, by_id, &tables.nw3, g, v),
            GateKind::Damaged => {
                if g.uses == Some(0) {
                    v.push(Violation::new(
                        gate_place(g),
                        "gate.damaged.uses",
                        format!(
                            "damaged gate {} has 0 uses; write `uses: null` for a gate that cannot be used",
                            Label(g.from, g.to)
                        ),
                    ));
                }
            }
            GateKind::Normal | GateKind::OneWay => {}
        }
    }
}

/// `gate.fields`: `opened_by` belongs to secret and closed gates only, `uses` to damaged ones,
/// so that an edit changing a gate's kind does not leave a field that no longer means anything.
fn check_gate_fields(g: &Gate, v: &mut Vec<Violation>) {
    let label = Label(g.from, g.to);
    let opener_ok = !matches!(g.kind, GateKind::Normal | GateKind::OneWay | GateKind::Damaged) || g.opened_by.is_none();
    if !opener_ok {
        v.push(Violation::new(
            gate_place(g),
            "gate.fields",
            format!("{} {label} cannot have `opened_by` (only secret and closed gates do)", g.kind.label()),
        ));
    }
    if g.kind != GateKind::Damaged && g.uses.is_some() {
        v.push(Violation::new(
            gate_place(g),
            "gate.fields",
            format!("{} {label} cannot have `uses` (only damaged gates do)", g.kind.label()),
        ));
    }
}

/// `gate.secret.reveal`: a secret gate is revealed by the event of an Event area at one of its
/// ends, or found by Danger Sense at the rules' difficulty; never by a device.
fn check_secret_gate(f: &Fortress, by_id: &ById, g: &Gate, v: &mut Vec<Violation>) {
    let label = Label(g.from, g.to);
    let message = match g.opened_by {
        None => format!(
            "secret gate {label} says nothing reveals it (an event in area {} or {}, or Danger Sense {DANGER_SENSE})",
            g.from, g.to
        ),
        Some(Opener::DangerSense(n)) if n != DANGER_SENSE => {
            format!("secret gate {label} is found by Danger Sense {n}; the rules set difficulty {DANGER_SENSE}")
        }
        Some(Opener::DangerSense(_)) => return,
        Some(Opener::Event(id)) if id != g.from && id != g.to => {
            format!("secret gate {label} is revealed by the event of area {id}, which is not one of its areas")
        }
        Some(Opener::Event(id)) if !by_id.find(f, id).is_some_and(clearable) => format!(
            "secret gate {label} is revealed by the event of area {id}, which is not an Event Area with an event"
        ),
        Some(Opener::Event(_)) => return,
        Some(Opener::Device(id)) => format!(
            "secret gate {label} names a release device (area {id}); a secret gate is revealed by an event or Danger Sense"
        ),
    };
    v.push(Violation::new(gate_place(g), "gate.secret.reveal", message));
}

/// `gate.closed.opener`: a closed gate opens with the event of an Event area, or with a Gate
/// Release Device that names it, standing in an area other than the gate's own two.
fn check_closed_gate(f: &Fortress, by_id: &ById, d: &Nw3Data, g: &Gate, v: &mut Vec<Violation>) {
    let label = Label(g.from, g.to);
    let mut report = |message: String| v.push(Violation::new(gate_place(g), "gate.closed.opener", message));
    match g.opened_by {
        None | Some(Opener::DangerSense(_)) => {
            report(format!("closed gate {label} does not name the event or Gate Release Device that opens it"))
        }
        Some(Opener::Event(id)) => {
            if !by_id.find(f, id).is_some_and(clearable) {
                report(format!(
                    "closed gate {label} opens with the event of area {id}, which is not an Event Area with an event"
                ));
            }
        }
        Some(Opener::Device(id)) => {
            if id == g.from || id == g.to {
                report(format!(
                    "closed gate {label} has its Gate Release Device in area {id}; the device stands in another area"
                ));
            }
            let holds = by_id
                .find(f, id)
                .is_some_and(|a| a.objects.iter().any(|o| is_release(d, &o.name) && o.opens == Some(g.gate_ref())));
            if !holds {
                report(format!(
                    "closed gate {label} opens with a Gate Release Device in area {id}, but no device there names this gate"
                ));
            }
        }
    }
}

/// The row of a chart for a roll, without allocating (numeric ranges for 1D6/2D6 tables).
pub(crate) fn chart_row(table: &RollTable, roll: u32) -> Option<&Row> {
    if table.dice == DiceKind::D66 {
        return table.row_for(roll);
    }
    table.rows.iter().find(|r| {
        // The first '-' found bytewise (ASCII, so the split falls between characters): a
        // character search here was inlined or not as the build's code units fell, a 0.7% swing
        // of the whole fortress bench.
        let (a, b) = match r.roll.as_bytes().iter().position(|&c| c == b'-') {
            Some(i) => (&r.roll[..i], &r.roll[i + 1..]),
            None => (r.roll.as_str(), r.roll.as_str()),
        };
        match (number(a), number(b)) {
            (Some(a), Some(b)) => (a..=b).contains(&roll),
            _ => false,
        }
    })
}

/// `text.trim().parse::<u32>().ok()`, reading plain digits (every roll the tables write) without
/// the general parser, since every chart event of every area is looked up this way.
fn number(text: &str) -> Option<u32> {
    let digits = text.as_bytes();
    if (1..=9).contains(&digits.len()) && digits.iter().all(u8::is_ascii_digit) {
        return Some(digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')));
    }
    text.trim().parse().ok()
}

/// A chart row's "Name: text" split in two (the whole line is the name when there is no colon).
pub(crate) fn split_chart(result: &str) -> (&str, &str) {
    // The first ": ", found bytewise (both bytes are ASCII, so the split falls between characters).
    match result.as_bytes().windows(2).position(|w| w == b": ") {
        Some(i) => (result[..i].trim(), result[i + 2..].trim()),
        None => (result.trim(), ""),
    }
}

fn check_content(f: &Fortress, tables: &Tables, v: &mut Vec<Violation>) {
    let d = &tables.nw3;
    let cl = f.params.cl;
    for a in &f.areas {
        check_area_kind(a, v);
        if let Some(e) = &a.event {
            check_event(f, a, e, tables, v);
        }
        if let Some(t) = &a.trap {
            check_trap(a, t, d, cl, v);
        }
        check_enemies(a, d, v);
        check_objects(f, a, d, v);
    }
    check_ruler_logic_core(f, d, v);
}

/// What each kind of area holds: which events, and whether a trap, enemies or objects.
fn check_area_kind(a: &Area, v: &mut Vec<Violation>) {
    let place = area_place(a.id);
    let mut content = |msg: String| v.push(Violation::new(place, "area.content", msg));
    let kind = a.kind.label();
    let ev = a.event.as_ref().map(|e| e.kind);
    match a.kind {
        AreaKind::Entrance | AreaKind::Normal | AreaKind::Object => {
            if a.kind == AreaKind::Entrance && ev.is_some() {
                content(format!("the {kind} has no event"));
            } else if ev.is_some_and(|k| k != EventKind::Chart) {
                content(format!("a {kind} may only hold an Area Event Chart event"));
            }
        }
        AreaKind::Event => {
            if !matches!(ev, Some(EventKind::Scenario | EventKind::Ruler)) {
                content(format!("an {kind} needs a scenario event or the Ruler encounter"));
            }
        }
        AreaKind::Trap | AreaKind::Enemy | AreaKind::Core => {
            if ev.is_some() {
                content(format!("a {kind} has no event"));
            }
        }
    }
    match (a.kind, a.trap.is_some()) {
        (AreaKind::Trap, false) => content(format!("a {kind} needs a trap")),
        (k, true) if k != AreaKind::Trap => content(format!("a {kind} has no trap (traps stand in Trap Areas)")),
        _ => {}
    }
    match (a.kind, a.enemies.is_empty()) {
        (AreaKind::Enemy, true) => content(format!("an {kind} needs enemies")),
        (k, false) if !matches!(k, AreaKind::Enemy | AreaKind::Core) => {
            content(format!("a {kind} has no enemies (they stand in Enemy Areas and guard the Core)"))
        }
        _ => {}
    }
    match (a.kind, a.objects.is_empty()) {
        (AreaKind::Object, true) => content(format!("an {kind} needs an object")),
        (k, false) if !matches!(k, AreaKind::Object | AreaKind::Core) => {
            content(format!("a {kind} has no objects (they stand in Object Areas)"))
        }
        _ => {}
    }
}

/// An event matches its source: the Area Event Chart's roll, the scenario event's judge and
/// difficulty at the fortress's CL, or the Ruler met here.
fn check_event(f: &Fortress, a: &Area, e: &Event, tables: &Tables, v: &mut Vec<Violation>) {
    let (d, cl, place) = (&tables.nw3, f.params.cl, area_place(a.id));
    match e.kind {
        EventKind::Chart => {
            let row = tables.roll_table(AREA_EVENT_TABLE).zip(e.roll).and_then(|(t, r)| chart_row(t, r));
            match row.and_then(|r| r.result.as_deref()) {
                None => v.push(Violation::new(
                    place,
                    "event.chart",
                    format!("chart event `{}` has no roll on the Area Event Chart (2-12)", e.name),
                )),
                Some(result) => {
                    let (name, _) = split_chart(result);
                    if name != e.name {
                        v.push(Violation::new(
                            place,
                            "event.chart",
                            format!(
                                "chart event `{}` does not match roll {} of the Area Event Chart (`{name}`)",
                                e.name,
                                e.roll.unwrap_or(0)
                            ),
                        ));
                    }
                }
            }
        }
        EventKind::Scenario => match d.event(&e.name) {
            None => {
                v.push(Violation::new(place, "event.unknown", format!("event `{}` is not in the NW3 tables", e.name)))
            }
            Some(r) => {
                let opens = events::gates_opened_by(&f.gates, a.id);
                let hardness = events::event_hardness(r, &opens);
                let want = judge_difficulty(cl, hardness);
                if e.difficulty != Some(want) || e.judge.as_deref() != Some(r.judge.as_str()) {
                    v.push(Violation::new(
                        place,
                        "event.difficulty",
                        format!(
                            "event `{}` is cleared by an {} {} judge of difficulty {want} at CL {cl} (the judge rule), not {} {}",
                            e.name,
                            hardness.label(),
                            r.judge,
                            e.judge.as_deref().unwrap_or("no judge"),
                            e.difficulty.map_or("?".into(), |w| w.to_string()),
                        ),
                    ));
                }
                let own = events::outcome_texts(r, cl, &opens);
                if !(e.success.is_empty() && e.failure.is_empty() && e.retry.is_empty())
                    && (e.success != own.0 || e.failure != own.1 || e.retry != own.2)
                {
                    v.push(Violation::new(
                        place,
                        "event.own-outcome",
                        format!(
                            "event `{}` has outcomes that are not its own entry's (or name the wrong gates)",
                            e.name
                        ),
                    ));
                }
            }
        },
        EventKind::Ruler => {
            // Named `{ruler}` (format 7, filled when read), or the Ruler's name as older files wrote it.
            if (e.name != "{ruler}" && e.name != f.ruler.name) || f.ruler.area != a.id {
                v.push(Violation::new(
                    place,
                    "event.ruler",
                    format!(
                        "the Ruler encounter here is `{}`, but the Ruler is {} met in area {}",
                        e.name, f.ruler.name, f.ruler.area
                    ),
                ));
            }
        }
    }
}

/// A trap's Detection and Removal are its record's at the fortress's CL.
fn check_trap(a: &Area, t: &Trap, d: &Nw3Data, cl: u32, v: &mut Vec<Violation>) {
    let place = area_place(a.id);
    match d.trap(&t.name) {
        None => v.push(Violation::new(place, "trap.unknown", format!("trap `{}` is not in the NW3 tables", t.name))),
        Some(r) => {
            let (det, rem) = (judge_difficulty(cl, r.detection), judge_difficulty(cl, r.removal));
            if t.detection != det || t.removal != rem {
                v.push(Violation::new(
                    place,
                    "trap.values",
                    format!(
                        "trap `{}` at CL {cl} has Detection {det} ({}) and Removal {rem} ({}) by the judge rule, not {} and {}",
                        t.name,
                        r.detection.label(),
                        r.removal.label(),
                        t.detection,
                        t.removal
                    ),
                ));
            }
        }
    }
}

/// Each enemy group is a record's, its members listed once as the record has them, with the
/// initiative Any Seven gives; a group not in the tables is the GM's own and checked for what
/// the rules say of every group.
fn check_enemies(a: &Area, d: &Nw3Data, v: &mut Vec<Violation>) {
    let place = area_place(a.id);
    for g in &a.enemies {
        match d.enemy(&g.name) {
            Some(r) => check_table_group(g, r, place, v),
            None => check_own_group(g, place, v),
        }
    }
}

/// An enemy of the GM's own (seed 000 ~l.1015-1085 leaves making enemies to the GM): accepted
/// (with advice) when its members carry rank and SPD, checked as far as the rules reach.
fn check_own_group(g: &EnemyGroup, place: AreaAt, v: &mut Vec<Violation>) {
    v.push(Violation::advice(
        place,
        "enemy.own",
        format!("enemy group `{}` is not in the NW3 tables: the GM's own, checked for counts and initiative", g.name),
    ));
    if g.members.is_empty() {
        v.push(Violation::new(place, "enemy.members", format!("enemy group `{}` has no members", g.name)));
    }
    own_members(g, place, v);
}

/// A group from the tables. The tables give a group's members and their counts for the party;
/// a GM may leave members out and change counts, but each member is one of the record's, as the
/// record has it (rank, SPD), listed once and at least one strong. Initiatives are checked
/// after every member's other rules, so their violations come last.
fn check_table_group(g: &EnemyGroup, r: &EnemyRecord, place: AreaAt, v: &mut Vec<Violation>) {
    if g.members.is_empty() {
        v.push(Violation::new(place, "enemy.members", format!("enemy group `{}` has no members", g.name)));
    }
    for (i, m) in g.members.iter().enumerate() {
        check_member_record(g, m, r, place, v);
        if g.members[..i].iter().any(|o| o.name == m.name) {
            v.push(Violation::new(
                place,
                "enemy.members",
                format!("{} is listed twice in enemy group `{}`; give one count", m.name, g.name),
            ));
        }
        if m.count == 0 {
            v.push(Violation::new(
                place,
                "enemy.count",
                format!("{} of enemy group `{}` has a count of 0; remove the member instead", m.name, g.name),
            ));
        }
    }
    for m in &g.members {
        if m.initiative != m.spd.saturating_add(ANY_SEVEN) {
            v.push(Violation::new(
                place,
                "enemy.initiative",
                format!(
                    "{} has initiative {}, but Any Seven gives SPD {} + 7 = {}",
                    m.name,
                    m.initiative,
                    m.spd,
                    m.spd.saturating_add(ANY_SEVEN)
                ),
            ));
        }
    }
}

/// `enemy.members`: member `m` of group `g` is one of record `r`'s, with the record's rank and
/// SPD.
fn check_member_record(g: &EnemyGroup, m: &Enemy, r: &EnemyRecord, place: AreaAt, v: &mut Vec<Violation>) {
    match r.members.iter().find(|rm| rm.name == m.name) {
        None => v.push(Violation::new(
            place,
            "enemy.members",
            format!(
                "`{}` is not a member of enemy group `{}` (its members: {})",
                m.name,
                g.name,
                r.members.iter().map(|rm| rm.name.as_str()).collect::<Vec<_>>().join(", ")
            ),
        )),
        Some(rm) if rm.rank != m.rank || rm.spd != m.spd => v.push(Violation::new(
            place,
            "enemy.members",
            format!(
                "{} of enemy group `{}` is a {} of SPD {} in the tables, not a {} of SPD {}",
                m.name,
                g.name,
                rm.rank.label(),
                rm.spd,
                m.rank.label(),
                m.spd
            ),
        )),
        Some(_) => {}
    }
}

/// The rules every member meets, whoever made the group: a count, and Any Seven's initiative.
fn own_members(g: &EnemyGroup, place: AreaAt, v: &mut Vec<Violation>) {
    for m in &g.members {
        if m.count == 0 {
            v.push(Violation::new(
                place,
                "enemy.count",
                format!("{} of enemy group `{}` has a count of 0", m.name, g.name),
            ));
        }
        if m.initiative != m.spd.saturating_add(ANY_SEVEN) {
            v.push(Violation::new(
                place,
                "enemy.initiative",
                format!("{} has initiative {}, but Any Seven gives SPD {} + 7", m.name, m.initiative, m.spd),
            ));
        }
    }
}

/// Objects are the tables'; a Gate Release Device stands in an Object Area and opens the closed
/// gate that names it.
fn check_objects(f: &Fortress, a: &Area, d: &Nw3Data, v: &mut Vec<Violation>) {
    let place = area_place(a.id);
    for o in &a.objects {
        let Some(r) = d.object(&o.name) else {
            v.push(Violation::new(place, "object.unknown", format!("object `{}` is not in the NW3 tables", o.name)));
            continue;
        };
        if !r.release {
            if o.opens.is_some() {
                v.push(Violation::new(
                    place,
                    "object.release",
                    format!("`{}` is not a Gate Release Device and opens no gate", o.name),
                ));
            }
            continue;
        }
        if a.kind != AreaKind::Object {
            v.push(Violation::new(
                place,
                "object.release",
                format!("`{}` stands in an Object Area, not a {}", o.name, a.kind.label()),
            ));
        }
        let Some(r) = o.opens else {
            v.push(Violation::new(place, "object.release", format!("`{}` does not name the gate it opens", o.name)));
            continue;
        };
        let ok = f
            .gates
            .iter()
            .any(|g| g.gate_ref() == r && g.kind == GateKind::Closed && g.opened_by == Some(Opener::Device(a.id)));
        if !ok {
            v.push(Violation::new(
                place,
                "object.release",
                format!(
                    "`{}` opens gate {}-{}, which is not a closed gate opened by the device in area {}",
                    o.name, r.from, r.to, a.id
                ),
            ));
        }
    }
}

/// The Ruler, the Logics, the Core, in that order.
fn check_ruler_logic_core(f: &Fortress, d: &Nw3Data, v: &mut Vec<Violation>) {
    check_ruler_record(f, d, v);
    check_ruler_encounter(f, v);
    check_logics(f, d, v);
    if d.core(&f.core.name).is_none() {
        v.push(Violation::new(
            "core",
            "core.unknown",
            format!("Fortress Core `{}` is not in the NW3 tables", f.core.name),
        ));
    }
}

/// The Ruler is the tables' (with their SPD) and takes initiative by Any Seven.
fn check_ruler_record(f: &Fortress, d: &Nw3Data, v: &mut Vec<Violation>) {
    match d.ruler(&f.ruler.name) {
        None => v.push(Violation::new(
            "ruler",
            "ruler.unknown",
            format!("Ruler `{}` is not in the NW3 tables", f.ruler.name),
        )),
        Some(r) => {
            if r.spd != f.ruler.spd {
                v.push(Violation::new(
                    "ruler",
                    "ruler.unknown",
                    format!("Ruler `{}` has SPD {} in the tables, not {}", r.name, r.spd, f.ruler.spd),
                ));
            }
        }
    }
    if f.ruler.initiative != f.ruler.spd.saturating_add(ANY_SEVEN) {
        v.push(Violation::new(
            "ruler",
            "ruler.initiative",
            format!(
                "the Ruler's initiative is {}, but Any Seven gives SPD {} + 7 = {}",
                f.ruler.initiative,
                f.ruler.spd,
                f.ruler.spd.saturating_add(ANY_SEVEN)
            ),
        ));
    }
}

/// The Ruler is met once, in the Event area its `area` names, which holds the Ruler encounter.
fn check_ruler_encounter(f: &Fortress, v: &mut Vec<Violation>) {
    let ruler_area = find(f, f.ruler.area);
    if !ruler_area
        .is_some_and(|a| a.kind == AreaKind::Event && a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler))
    {
        v.push(Violation::new(
            "ruler",
            "ruler.area",
            format!(
                "the Ruler is met in area {}, which is not an Event Area holding the Ruler encounter",
                f.ruler.area
            ),
        ));
    }
    let encounters = f.areas.iter().filter(|a| a.event.as_ref().is_some_and(|e| e.kind == EventKind::Ruler)).count();
    if encounters > 1 {
        v.push(Violation::new(
            "ruler",
            "event.ruler",
            format!("the Ruler is met in {encounters} areas; it has one encounter"),
        ));
    }
}

/// The Logics: the tables' or the GM's own (which must then say what it does), each listed once.
/// The book lets the GM adopt, change or write Logics (seed 000 ~l.1011): one or two is its
/// usual number, advice only.
fn check_logics(f: &Fortress, d: &Nw3Data, v: &mut Vec<Violation>) {
    if !(1..=2).contains(&f.logic.len()) {
        v.push(Violation::advice(
            "logic",
            "logic.count",
            format!("{} Lunar Casket Logics are in force; a fortress usually has one or two", f.logic.len()),
        ));
    }
    for (i, l) in f.logic.iter().enumerate() {
        if d.logic(&l.name).is_none() {
            if l.effect.trim().is_empty() {
                v.push(Violation::new(
                    "logic",
                    "logic.unknown",
                    format!("Logic `{}` is not in the NW3 tables; a Logic of the GM's own states its `effect`", l.name),
                ));
            } else {
                v.push(Violation::advice(
                    "logic",
                    "logic.own",
                    format!("Logic `{}` is the GM's own (not in the NW3 tables)", l.name),
                ));
            }
        }
        if f.logic[..i].iter().any(|o| o.name == l.name) {
            v.push(Violation::new("logic", "logic.duplicate", format!("Logic `{}` is listed twice", l.name)));
        }
    }
}

/// What helps against the Ruler (objects marked `ruler_aid`) lies where the party surely comes
/// before the Ruler's fight, not behind it (nor behind a gate the Ruler's defeat opens).
fn check_ruler_aids(f: &Fortress, tables: &Tables, net: &Net, v: &mut Vec<Violation>) {
    let aid = |name: &str| tables.nw3.objects.iter().any(|o| o.ruler_aid && o.name == name);
    let Some(e) = f.entrance() else { return };
    let Some(before) = net.before_ruler(e.id, f.ruler.area) else { return };
    for (i, a) in f.areas.iter().enumerate() {
        for o in a.objects.iter().filter(|o| aid(&o.name)) {
            if !has(&before, i) {
                v.push(Violation::new(
                    area_place(a.id),
                    "object.ruler-aid-late",
                    format!(
                        "area {} holds the {}, which helps against the Ruler, but the party surely reaches it only after the Ruler's fight (area {})",
                        a.id, o.name, f.ruler.area
                    ),
                ));
            }
        }
    }
}

/// Where the path rules look from: the Entrance and the Core (by position), and what the party
/// reaches from the Entrance surely and with luck.
struct Paths {
    e: usize,
    c: usize,
    sure: Set,
    maybe: Set,
}

fn check_paths(f: &Fortress, net: &Net, v: &mut Vec<Violation>) {
    let (Some(e), Some(c)) = (
        f.areas.iter().position(|a| a.kind == AreaKind::Entrance),
        f.areas.iter().position(|a| a.kind == AreaKind::Core),
    ) else {
        return;
    };
    let p = Paths { e, c, sure: net.reach(e, &NONE, GUARANTEED), maybe: net.reach(e, &NONE, OPTIMISTIC) };
    check_reached(f, &p, v);
    check_appearance(f, net, e, v);
    let what_ifs = WhatIfs::ask(net, e);
    check_closed_gates(f, net, &what_ifs, e, v);
    check_strands(f, net, &what_ifs, &p, v);
}

/// The Core is surely reached, every other area at least with luck, and an area is marked
/// optional exactly when only a Danger Sense judge opens the way to it.
fn check_reached(f: &Fortress, p: &Paths, v: &mut Vec<Violation>) {
    let (eid, cid) = (f.areas[p.e].id, f.areas[p.c].id);
    if !has(&p.sure, p.c) {
        let why = if has(&p.maybe, p.c) {
            "only through a secret gate that a Danger Sense judge must find"
        } else {
            "with what the party can find on the way"
        };
        v.push(Violation::new(
            area_place(cid),
            "solve.core-unreachable",
            format!("the Fortress Core (area {cid}) cannot be reached from the Entrance (area {eid}) {why}"),
        ));
    }
    for (i, a) in f.areas.iter().enumerate() {
        let place = area_place(a.id);
        if !has(&p.maybe, i) {
            if i != p.c {
                v.push(Violation::new(
                    place,
                    "area.unreachable",
                    format!("area {} cannot be reached from the Entrance", a.id),
                ));
            }
        } else if !has(&p.sure, i) && !a.optional && i != p.c {
            v.push(Violation::new(
                place,
                "area.optional",
                format!("area {} is reached only through a secret gate found by Danger Sense; mark it optional", a.id),
            ));
        } else if a.optional && (has(&p.sure, i) || i == p.c) {
            v.push(Violation::new(
                place,
                "area.optional",
                format!("area {} is marked optional, but the party reaches it without a Danger Sense judge", a.id),
            ));
        }
    }
}

/// An area's appearance difficulty grows with its distance in gates from the Entrance.
fn check_appearance(f: &Fortress, net: &Net, e: usize, v: &mut Vec<Violation>) {
    let dist = net.distances(e);
    for (i, a) in f.areas.iter().enumerate() {
        if let Some(d) = dist[i] {
            let want = APPEARANCE_BASE + APPEARANCE_PER_GATE * d;
            if a.appearance_difficulty != want {
                v.push(Violation::new(
                    area_place(a.id),
                    "area.appearance",
                    format!(
                        "area {} has appearance difficulty {}, expected {want} (8 + 2 x {d} gates from the Entrance)",
                        a.id, a.appearance_difficulty
                    ),
                ));
            }
        }
    }
}

/// The "what ifs" the gate rules ask of the way from the Entrance (with luck): each closed or
/// one-use damaged gate taken away, each key area never entered. Answered in one sweep
/// ([`Net::reach_each`]) rather than one walk each.
struct WhatIfs {
    asks: Vec<Without>,
    reached: Rows,
}

impl WhatIfs {
    fn ask(net: &Net, e: usize) -> WhatIfs {
        let gates = net.arcs.iter().filter(|a| {
            (a.kind == GateKind::Closed && a.key.is_some())
                || (a.kind == GateKind::Damaged && a.uses.is_some_and(|u| u > 0))
        });
        let mut asks: Vec<Without> = gates.map(|a| Without::Gate(a.gate)).collect();
        let mut keys = Set::with_capacity(net.n);
        keys.extend(net.arcs.iter().filter_map(|a| a.key));
        asks.extend(keys.ones().filter(|&k| k != e).map(Without::Area));
        let reached = net.reach_each(e, &NONE, &asks, OPTIMISTIC);
        WhatIfs { asks, reached }
    }

    /// Whether the party reaches `area` under `ask` (which must have been asked).
    fn reaches(&self, ask: Without, area: usize) -> bool {
        let j = self.asks.iter().position(|&a| a == ask).expect("every closed gate, damaged gate and key is asked");
        self.reached.contains(area, j)
    }

    /// The areas whose events or devices the party surely holds on reaching each area: the key
    /// areas every route to it passes through (it is not reached with them kept out), the
    /// Entrance, and the area itself.
    fn held_on_arrival(&self, n: usize, e: usize) -> Vec<Set> {
        (0..n)
            .map(|i| {
                let mut h = Set::with_capacity(n);
                h.insert(i);
                h.insert(e);
                for (j, ask) in self.asks.iter().enumerate() {
                    if let Without::Area(k) = *ask
                        && !self.reached.contains(i, j)
                    {
                        h.insert(k);
                    }
                }
                h
            })
            .collect()
    }
}

/// A closed gate's opener is found without passing the gate.
fn check_closed_gates(f: &Fortress, net: &Net, what_ifs: &WhatIfs, e: usize, v: &mut Vec<Violation>) {
    for arc in &net.arcs {
        if arc.kind != GateKind::Closed {
            continue;
        }
        let Some(k) = arc.key else { continue };
        if what_ifs.reaches(Without::Gate(arc.gate), k) {
            continue;
        }
        let g = &f.gates[arc.gate];
        let what = match g.opened_by {
            Some(Opener::Device(_)) => "Gate Release Device",
            _ => "event",
        };
        let kid = f.areas[k].id;
        let opened = net.reach(e, &NONE, Mode { force_open: Some(arc.gate), ..OPTIMISTIC });
        if has(&opened, k) {
            v.push(Violation::new(
                gate_place(g),
                "gate.closed.release-behind-gate",
                format!("closed gate {} opens with the {what} in area {kid}, which cannot be reached without passing the gate itself", g.label()),
            ));
        } else {
            v.push(Violation::new(
                gate_place(g),
                "gate.closed.opener-unreachable",
                format!(
                    "closed gate {} opens with the {what} in area {kid}, which cannot be reached at all",
                    g.label()
                ),
            ));
        }
    }
}

/// One-way and damaged gates must not strand the party. From the far side of each one-way
/// crossing the party can make, holding what it surely holds on reaching the near side, the Core
/// is reached without counting on any damaged gate; a damaged gate is walked use by use
/// ([`damaged_strands`]).
fn check_strands(f: &Fortress, net: &Net, what_ifs: &WhatIfs, p: &Paths, v: &mut Vec<Violation>) {
    if !net.arcs.iter().any(|a| matches!(a.kind, GateKind::OneWay | GateKind::Damaged)) {
        return;
    }
    let held = what_ifs.held_on_arrival(net.n, p.e);
    for arc in &net.arcs {
        let g = &f.gates[arc.gate];
        let stranded = match arc.kind {
            GateKind::OneWay if has(&p.maybe, arc.a) && !net.reaches(arc.b, &held[arc.a], STRANDED, p.c) => {
                let to = f.areas[arc.b].id;
                ("gate.one-way.strands", format!("one-way gate {} leaves the party in area {to}", g.label()))
            }
            GateKind::Damaged if arc.uses.is_some_and(|u| u > 0) => {
                let Some(why) = damaged_strands(f, net, arc, what_ifs, &held, p) else { continue };
                ("gate.damaged.strands", why)
            }
            _ => continue,
        };
        let (rule, what) = stranded;
        v.push(Violation::new(
            gate_place(g),
            rule,
            format!("{what}, from which the Fortress Core (area {}) cannot be reached", f.areas[p.c].id),
        ));
    }
}

/// A damaged gate counted as the party walks (seed 000 ~l.959: the GM sets its uses). The party
/// comes to a side of it reached without it, with every use left; each crossing spends one, and
/// between crossings it walks where it can without any damaged gate. The gate strands the party
/// when some sequence of moves within the uses leaves it where the Core cannot be reached even
/// with the uses left: so 2 uses into a dead end (in and back out) are legal, 1 or 3 are not.
/// `Some(why)` names the crossings and the area; `None` when no sequence strands it.
fn damaged_strands(f: &Fortress, net: &Net, arc: &Link, what_ifs: &WhatIfs, held: &[Set], p: &Paths) -> Option<String> {
    // Past a few uses only their parity changes what is reachable: fewer states, same answer.
    let uses = arc.uses.unwrap_or(0);
    let uses = if uses > 16 { 16 + uses % 2 } else { uses } as usize;
    let ends = [arc.a, arc.b];
    for start in 0..2 {
        if !has(&p.maybe, ends[start]) || !what_ifs.reaches(Without::Gate(arc.gate), ends[start]) {
            continue;
        }
        let h = &held[ends[start]];
        let reach = [net.reach(arc.a, h, STRANDED), net.reach(arc.b, h, STRANDED)];
        let core = [has(&reach[0], p.c), has(&reach[1], p.c)];
        // walk[x][y]: from end x the party walks to end y without the gate.
        let walk = |x: usize, y: usize| has(&reach[x], ends[y]);
        // can[r][x]: at end x with r uses left, the Core is still reached.
        let mut can = vec![core; uses + 1];
        for r in 1..=uses {
            for x in 0..2 {
                can[r][x] = core[x] || (0..2).any(|y| walk(x, y) && can[r - 1][1 - y]);
            }
        }
        // The states the party can be in after at least one crossing: at[r][x].
        let mut at = vec![[false; 2]; uses + 1];
        let mut now = vec![(start, uses)];
        while let Some((x, r)) = now.pop() {
            for y in (0..2).filter(|&y| r > 0 && walk(x, y)) {
                let next = (1 - y, r - 1);
                if !at[next.1][next.0] {
                    at[next.1][next.0] = true;
                    now.push(next);
                }
            }
        }
        if let Some((r, x)) =
            (0..=uses).flat_map(|r| (0..2).map(move |x| (r, x))).find(|&(r, x)| at[r][x] && !can[r][x])
        {
            return Some(format!(
                "damaged gate {} with {} use(s): after {} crossing(s) from area {} the party stands in area {} with {r} left",
                f.gates[arc.gate].label(),
                arc.uses.unwrap_or(0),
                uses - r,
                f.areas[ends[start]].id,
                f.areas[ends[x]].id
            ));
        }
    }
    None
}
