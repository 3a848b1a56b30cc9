//! What the GM asks a Make You Kingdom scenario for (the court, maps, rooms, layout) and the ranges
//! each may take: one place, read by the generator, the command line and the workbench.

use std::ops::RangeInclusive;

use crate::error::{Error, Result};
use crate::myk::model::Layout;
use crate::options::{Input, Opt};
use crate::permalink::{Fields, bad, whole};

/// Members of the court (`--court-size`, the length of `--levels`).
pub const COURT: RangeInclusive<u32> = 1..=12;
/// A member's level (`--level`, `--levels`).
pub const LEVEL: RangeInclusive<u32> = 1..=30;
/// Map sheets (`--maps`).
pub const MAPS: RangeInclusive<u32> = 1..=20;
/// Rooms used on each 3x3 sheet (`--rooms`).
pub const ROOMS: RangeInclusive<u32> = 3..=9;
/// The court sizes the book's limit table covers; outside it the formulas still apply (a warning).
pub const BOOK_COURT: RangeInclusive<u32> = 3..=6;
/// The average levels the book's limit table covers.
pub const BOOK_AVERAGE_LEVEL: RangeInclusive<u32> = 1..=10;

/// `--court-size`: members of the court.
pub const COURT_SIZE: Opt = Opt {
    name: "court-size",
    label: "Court size",
    help: "Members of the court (PCs), {range} [default: {default}, or the length of --levels].",
    input: Input::Number { range: COURT, default: Some(4) },
    placeholder: "",
    replaces: &[],
};
/// `--level`: every member's level.
pub const LEVEL_OPT: Opt = Opt {
    name: "level",
    label: "Level",
    help: "Every member's level, {range} [default: {default}] (use --levels for a mixed court).",
    input: Input::Number { range: LEVEL, default: Some(2) },
    placeholder: "",
    replaces: &[],
};
/// `--levels`: each member's level.
pub const LEVELS: Opt = Opt {
    name: "levels",
    label: "or levels",
    help: "Each member's level, comma-separated (e.g. 2,3,2,1); sets the court size.",
    input: Input::Numbers { range: LEVEL },
    placeholder: "2,3,2,1",
    replaces: &["court-size", "level"],
};
/// `--maps`: map sheets.
pub const MAPS_OPT: Opt = Opt {
    name: "maps",
    label: "Maps",
    help: "Number of map sheets, {range}.",
    input: Input::Number { range: MAPS, default: Some(1) },
    placeholder: "",
    replaces: &[],
};
/// `--rooms`: rooms used on each map.
pub const ROOMS_OPT: Opt = Opt {
    name: "rooms",
    label: "Rooms",
    help: "Rooms used on each map, {range}.",
    input: Input::Number { range: ROOMS, default: Some(9) },
    placeholder: "",
    replaces: &[],
};
/// `--layout`: how the corridors join the rooms (the first word is the default).
pub const LAYOUT: Opt = Opt {
    name: "layout",
    label: "Layout",
    help: "How the corridors join the rooms.",
    input: Input::Choice(&["mixed", "junction", "straight"]),
    placeholder: "",
    replaces: &[],
};
/// `--objective`: the objective's kind, from the story tables.
pub const OBJECTIVE: Opt = Opt {
    name: "objective",
    label: "Objective",
    help: "The objective's kind: defeat, rescue, acquire, search, deliver, win_over or race [default: rolled].",
    input: Input::Rolled,
    placeholder: "",
    replaces: &[],
};
/// Every option of a MYK scenario, in the order the command line and the form list them.
pub const KINGDOM: Opt = Opt {
    name: "kingdom",
    label: "Kingdom",
    help: "The players' kingdom's name, as they named it [default: \"your kingdom\"; the booklet prints the book's Kingdom Name Tables].",
    input: Input::Text,
    placeholder: "your kingdom",
    replaces: &[],
};
pub const CLASSES: Opt = Opt {
    name: "classes",
    label: "Classes",
    help: "Each member's class, one per member in court order, at least one king (e.g. king,knight,vizier,ninja): king, knight, vizier, oracle, ninja or servant [default: not given; each stake goes to a numbered member].",
    input: Input::Text,
    placeholder: "king,knight,vizier,ninja",
    replaces: &[],
};
pub const OPTIONS: [Opt; 9] = [COURT_SIZE, LEVEL_OPT, LEVELS, MAPS_OPT, ROOMS_OPT, LAYOUT, OBJECTIVE, KINGDOM, CLASSES];

/// What the GM asked for, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct MykParams {
    pub levels: Vec<u32>,
    pub maps: u32,
    pub rooms: u32,
    pub layout: Layout,
    /// The objective kind the GM asked for (`--objective`); `None`: one at random.
    pub objective: Option<crate::myk::model::ObjectiveKind>,
    /// The players' kingdom's name (`--kingdom`); `None`: "your kingdom" (the players named it).
    pub kingdom: Option<String>,
    /// Each member's class (`--classes`), one per member; empty: not given.
    pub classes: Vec<crate::myk::court::Class>,
}

impl Default for MykParams {
    /// The command line's defaults: a court of 4 at level 2, one map of 9 rooms, mixed.
    fn default() -> MykParams {
        MykParams {
            levels: vec![2; 4],
            maps: 1,
            rooms: 9,
            layout: Layout::Mixed,
            objective: None,
            kingdom: None,
            classes: Vec::new(),
        }
    }
}

/// The court's levels as the options give them: `levels`, one per member, or `court_size` members
/// (default 4) all at `level` (default 2). The command line and the workbench both read their
/// options through here; range errors name the field (`court_size`), each front end spells it.
pub fn court_levels(court_size: Option<u32>, level: Option<u32>, levels: Option<&[u32]>) -> Result<Vec<u32>> {
    let levels = match levels {
        Some(levels) => {
            // Blame `levels` itself, not the `level`/`court_size` it stands for.
            if let Some(&l) = levels.iter().find(|l| !LEVEL.contains(*l)) {
                return Err(Error::range("levels", &LEVEL, "", l));
            }
            if levels.len() > *COURT.end() as usize {
                let count = u32::try_from(levels.len()).unwrap_or(u32::MAX);
                return Err(Error::range("levels", &COURT, " levels", count));
            }
            if let Some(size) = court_size
                && size as usize != levels.len()
            {
                return Err(Error::Option {
                    field: "court_size",
                    message: format!("{size} does not match the {} levels listed", levels.len()),
                });
            }
            levels.to_vec()
        }
        None => {
            // Checked before the vector is made, so a huge size is refused rather than allocated.
            let size = court_size.unwrap_or(const { COURT_SIZE.number_default() });
            if !COURT.contains(&size) {
                return Err(Error::range("court_size", &COURT, "", size));
            }
            vec![level.unwrap_or(const { LEVEL_OPT.number_default() }); size as usize]
        }
    };
    if court_size == Some(0) {
        return Err(Error::range("court_size", &COURT, "", 0));
    }
    Ok(levels)
}

impl MykParams {
    /// Checks the options; returns warnings for values the book does not cover.
    pub fn validate(&self) -> Result<Vec<String>> {
        let size = self.levels.len() as u32;
        if !COURT.contains(&size) {
            return Err(Error::range("court_size", &COURT, "", size));
        }
        if let Some(&l) = self.levels.iter().find(|l| !LEVEL.contains(*l)) {
            return Err(Error::range("level", &LEVEL, "", l));
        }
        if !MAPS.contains(&self.maps) {
            return Err(Error::range("maps", &MAPS, "", self.maps));
        }
        if !ROOMS.contains(&self.rooms) {
            return Err(Error::range("rooms", &ROOMS, "", self.rooms));
        }
        if let Some(k) = &self.kingdom {
            crate::myk::court::kingdom_name(k)?;
        }
        crate::myk::court::check_classes(&self.classes, self.levels.len())?;
        let mut warnings = Vec::new();
        // The court's average level, without building a court (and copying its levels) to drop.
        let average_level = self.levels.iter().sum::<u32>() / size;
        if !BOOK_COURT.contains(&size) {
            warnings
                .push(format!("court size {size} is outside the book's table (3-6); the limit formulas still apply"));
        }
        if !BOOK_AVERAGE_LEVEL.contains(&average_level) {
            warnings.push(format!(
                "average level {average_level} is outside the book's table (1-10); the limit formulas still apply"
            ));
        }
        Ok(warnings)
    }
}

impl Layout {
    /// The layout of this name (its `label`), as the workbench's permalink gives it.
    pub fn named(name: &str) -> Option<Layout> {
        [Layout::Straight, Layout::Junction, Layout::Mixed].into_iter().find(|l| l.label() == name)
    }

    /// The layout the GM gets without asking (the first word of [`LAYOUT`]).
    pub fn default_choice() -> Layout {
        LAYOUT.choices().first().and_then(|w| Layout::named(w)).unwrap_or(Layout::Mixed)
    }
}

impl MykParams {
    /// The params a permalink gives, under the command line's rules (court size against levels,
    /// the ranges): one truth. Range errors name the library's field (`court_size`).
    pub fn from_query(q: &Fields) -> Result<MykParams> {
        let levels = match q.given(LEVELS.name) {
            Some(v) => Some(v.split(',').map(|l| whole(LEVELS.name, l)).collect::<Result<Vec<u32>>>()?),
            None => None,
        };
        let layout = match q.one(LAYOUT.name).unwrap_or("") {
            "" => Layout::default_choice(),
            name => Layout::named(name).ok_or_else(|| {
                let words = LAYOUT.choices().join(", ");
                bad(LAYOUT.name, format!("`{name}` is not a layout; use one of: {words}"))
            })?,
        };
        let level = if levels.is_some() { None } else { q.opt_u32(LEVEL_OPT.name)? };
        let params = MykParams {
            levels: court_levels(q.opt_u32(COURT_SIZE.name)?, level, levels.as_deref())?,
            maps: q.opt_u32(MAPS_OPT.name)?.unwrap_or(const { MAPS_OPT.number_default() }),
            rooms: q.opt_u32(ROOMS_OPT.name)?.unwrap_or(const { ROOMS_OPT.number_default() }),
            layout,
            objective: q.given(OBJECTIVE.name).map(|k| k.parse().map_err(|e| bad(OBJECTIVE.name, e))).transpose()?,
            kingdom: q.given(KINGDOM.name).map(crate::myk::court::kingdom_name).transpose()?,
            classes: q.given(CLASSES.name).map(crate::myk::court::parse_classes).transpose()?.unwrap_or_default(),
        };
        params.validate()?;
        Ok(params)
    }

    /// The params as the workbench's permalink writes them: a court of one level as size and
    /// level, a mixed one as its levels.
    pub fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if self.levels.iter().all(|&l| l == self.levels[0]) {
            pairs.push((COURT_SIZE.name, self.levels.len().to_string()));
            pairs.push((LEVEL_OPT.name, self.levels[0].to_string()));
        } else {
            let ls: Vec<String> = self.levels.iter().map(u32::to_string).collect();
            pairs.push((LEVELS.name, ls.join(",")));
        }
        pairs.push((MAPS_OPT.name, self.maps.to_string()));
        pairs.push((ROOMS_OPT.name, self.rooms.to_string()));
        pairs.push((LAYOUT.name, self.layout.label().into()));
        if let Some(k) = self.objective {
            pairs.push((OBJECTIVE.name, k.name().into()));
        }
        if let Some(k) = &self.kingdom {
            pairs.push((KINGDOM.name, k.clone()));
        }
        if !self.classes.is_empty() {
            let cs: Vec<&str> = self.classes.iter().map(|c| c.name()).collect();
            pairs.push((CLASSES.name, cs.join(",")));
        }
        pairs
    }
}
