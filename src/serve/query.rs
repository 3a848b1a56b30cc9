//! The permalink: everything that makes a workbench scenario, in the URL's query string. The
//! options carry the CLI's option names (`court-size`, `levels`, `cl`, ...), so an error names the
//! same thing in both; the edit history is one `op` per edit, in order, replayed from the seed.

use crate::document::{Game, Params};
use crate::model::Paper;
use crate::myk::model::Layout;
use crate::myk::{MykParams, court_levels};
use crate::nw3::FortressParams;

use super::error::ServeError;

/// One edit of the history. Paths are the edit API's (`map1/B2/monsters`, `area5`, `frame`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Reroll a part (`reroll:map1/B2/traps`).
    Reroll(String),
    /// Lock a room, a map, an area or the frame (`lock:map1/B2`).
    Lock(String),
    Unlock(String),
    /// Give a room, map, area or the scenario (`frame`) a name of the GM's (`rename:map1/B2:Hall`).
    Rename(String, String),
    /// Roll everything unlocked anew from another seed (`regen:77`).
    Regenerate(u64),
}

impl Op {
    fn parse(text: &str) -> Result<Op, ServeError> {
        let bad = || {
            ServeError::BadRequest(format!(
                "edit `{text}`: expected `reroll:PART`, `lock:PART`, `unlock:PART`, `rename:PART:NAME` or `regen:SEED`"
            ))
        };
        let (verb, rest) = text.split_once(':').ok_or_else(bad)?;
        if rest.is_empty() {
            return Err(bad());
        }
        Ok(match verb {
            "reroll" => Op::Reroll(rest.to_string()),
            "lock" => Op::Lock(rest.to_string()),
            "unlock" => Op::Unlock(rest.to_string()),
            "rename" => {
                let (part, name) = rest.split_once(':').ok_or_else(bad)?;
                Op::Rename(part.to_string(), name.to_string())
            }
            "regen" => Op::Regenerate(parse_seed("regen", rest)?),
            _ => return Err(bad()),
        })
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Op::Reroll(p) => write!(f, "reroll:{p}"),
            Op::Lock(p) => write!(f, "lock:{p}"),
            Op::Unlock(p) => write!(f, "unlock:{p}"),
            Op::Rename(p, n) => write!(f, "rename:{p}:{n}"),
            Op::Regenerate(seed) => write!(f, "regen:{seed}"),
        }
    }
}

/// A whole workbench request: game and options, seed, paper, and the edits in order.
#[derive(Clone, Debug)]
pub struct Request {
    pub params: Params,
    pub seed: u64,
    pub paper: Paper,
    pub ops: Vec<Op>,
}

fn parse_seed(field: &str, text: &str) -> Result<u64, ServeError> {
    text.trim().parse::<u64>().map_err(|_| {
        ServeError::BadRequest(format!("`{field}`: `{text}` is not a seed (a whole number from 0 to {})", u64::MAX))
    })
}

fn parse_u32(field: &str, text: &str) -> Result<u32, ServeError> {
    text.trim().parse::<u32>().map_err(|_| ServeError::BadRequest(format!("`{field}`: `{text}` is not a whole number")))
}

/// The most edits one permalink replays: each is replayed on every request, so a runaway URL is
/// refused rather than left to keep the server busy.
const MAX_OPS: usize = 1000;

/// The query's pairs in order (as axum's `Query<Vec<(String, String)>>` hands them over).
pub type Pairs = [(String, String)];

/// The fields a query may hold; any other is refused.
const KNOWN: [&str; 17] = [
    "game",
    "seed",
    "paper",
    "op",
    "court-size",
    "level",
    "levels",
    "maps",
    "rooms",
    "layout",
    "objective",
    "party",
    "cl",
    "areas",
    "party-attack",
    "party-defence",
    "party-hp",
];

/// A query's fields by name; a field given twice counts by its last value (a form resubmitted
/// with an edited URL appends rather than replaces).
struct Fields<'a>(&'a Pairs);

impl Fields<'_> {
    fn one(&self, name: &str) -> Option<&str> {
        self.0.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// A number, or `None` when absent or blank (the default then applies).
    fn opt_u32(&self, name: &str) -> Result<Option<u32>, ServeError> {
        match self.one(name).filter(|v| !v.trim().is_empty()) {
            Some(v) => parse_u32(name, v).map(Some),
            None => Ok(None),
        }
    }

    fn paper(&self) -> Result<Paper, ServeError> {
        match self.one("paper").unwrap_or("") {
            "" => Ok(Paper::A4),
            name => Paper::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| {
                ServeError::BadRequest(format!("`paper`: `{name}` is not a paper; use one of: a4, letter"))
            }),
        }
    }

    /// The MYK options, under the same rules as the command line's (court size against levels,
    /// the ranges): one truth.
    fn myk(&self) -> Result<MykParams, ServeError> {
        let levels = match self.one("levels").filter(|v| !v.trim().is_empty()) {
            Some(v) => Some(v.split(',').map(|l| parse_u32("levels", l)).collect::<Result<Vec<u32>, _>>()?),
            None => None,
        };
        let layout = match self.one("layout").unwrap_or("mixed") {
            "" => Layout::Mixed,
            name => Layout::named(name).ok_or_else(|| {
                ServeError::BadRequest(format!(
                    "`layout`: `{name}` is not a layout; use one of: straight, junction, mixed"
                ))
            })?,
        };
        let bad = |e: crate::Error| ServeError::BadRequest(e.line_for(crate::error::query_field));
        let level = if levels.is_some() { None } else { self.opt_u32("level")? };
        let levels = court_levels(self.opt_u32("court-size")?, level, levels.as_deref()).map_err(bad)?;
        let params = MykParams {
            levels,
            maps: self.opt_u32("maps")?.unwrap_or(1),
            rooms: self.opt_u32("rooms")?.unwrap_or(9),
            layout,
            objective: match self.one("objective").filter(|v| !v.trim().is_empty()) {
                Some(k) => Some(k.parse().map_err(|e| ServeError::BadRequest(format!("`objective`: {e}")))?),
                None => None,
            },
        };
        params.validate().map_err(bad)?;
        Ok(params)
    }

    /// The NW3 options, each absent one at the command line's default.
    fn nw3(&self) -> Result<FortressParams, ServeError> {
        let d = FortressParams::default();
        let params = FortressParams {
            party: self.opt_u32("party")?.unwrap_or(d.party),
            cl: self.opt_u32("cl")?.unwrap_or(d.cl),
            areas: self.opt_u32("areas")?.unwrap_or(d.areas),
            party_attack: self.opt_u32("party-attack")?,
            party_defence: self.opt_u32("party-defence")?,
            party_hp: self.opt_u32("party-hp")?,
        };
        params.validate().map_err(|e| ServeError::BadRequest(e.line_for(crate::error::query_field)))?;
        Ok(params)
    }

    /// The edits to replay, in order; at most [`MAX_OPS`].
    fn ops(&self) -> Result<Vec<Op>, ServeError> {
        let ops =
            self.0.iter().filter(|(k, _)| k == "op").map(|(_, v)| Op::parse(v)).collect::<Result<Vec<Op>, _>>()?;
        if ops.len() > MAX_OPS {
            return Err(ServeError::BadRequest(format!(
                "{} edits in one permalink; at most {MAX_OPS} (download the JSON and go on from it)",
                ops.len()
            )));
        }
        Ok(ops)
    }
}

impl Request {
    /// Parses and validates a query; a missing seed is `fresh_seed`'s (the page then shows the
    /// permalink with it). Unknown fields are refused, so a typo never passes silently.
    pub fn parse(pairs: &Pairs, fresh_seed: impl FnOnce() -> u64) -> Result<Request, ServeError> {
        if let Some((k, _)) = pairs.iter().find(|(k, _)| !KNOWN.contains(&k.as_str())) {
            return Err(ServeError::BadRequest(format!("unknown field `{k}` in the query")));
        }
        let q = Fields(pairs);
        let seed = match q.one("seed").filter(|s| !s.trim().is_empty()) {
            Some(s) => parse_seed("seed", s)?,
            None => fresh_seed(),
        };
        let paper = q.paper()?;
        let name = q.one("game").unwrap_or("myk");
        let params = match Game::called(name) {
            Some(Game::Myk) => Params::Myk(q.myk()?),
            Some(Game::Nw3) => Params::Nw3(q.nw3()?),
            None => {
                return Err(ServeError::BadRequest(format!(
                    "`game`: `{name}` is not a game; use one of: myk, fortress"
                )));
            }
        };
        Ok(Request { params, seed, paper, ops: q.ops()? })
    }

    /// The canonical query string (the permalink), percent-encoded.
    pub fn query(&self) -> String {
        let mut pairs: Vec<(&str, String)> =
            vec![("game", self.params.game().command().into()), ("seed", self.seed.to_string())];
        pairs.extend(self.params.query_pairs());
        pairs.push(("paper", self.paper.name().into()));
        for op in &self.ops {
            pairs.push(("op", op.to_string()));
        }
        pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&")
    }
}

/// Percent-encodes a query value (unreserved characters, plus `,`, `:` and `/` kept readable).
fn encode(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' | b':' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
