//! The permalink: everything that makes a workbench scenario, in the URL's query string. The
//! options carry the CLI's option names (`court-size`, `levels`, `cl`, ...), so an error names the
//! same thing in both; the edit history is one `op` per edit, in order, replayed from the seed.

use crate::document::{Game, Params};
use crate::model::Paper;
use crate::permalink::Fields;
use crate::render::booklet::Reference;

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

/// A whole workbench request: game and options, seed, paper, where the booklet's reference goes,
/// and the edits in order.
#[derive(Clone, Debug)]
pub struct Request {
    pub params: Params,
    pub seed: u64,
    pub paper: Paper,
    /// Where the booklet's part two goes (`--reference` on the command line).
    pub reference: Reference,
    pub ops: Vec<Op>,
}

fn parse_seed(field: &str, text: &str) -> Result<u64, ServeError> {
    text.trim().parse::<u64>().map_err(|_| {
        ServeError::BadRequest(format!("`{field}`: `{text}` is not a seed (a whole number from 0 to {})", u64::MAX))
    })
}

/// The most edits one permalink replays: each is replayed on every request, so a runaway URL is
/// refused rather than left to keep the server busy.
const MAX_OPS: usize = 1000;

/// The query's pairs in order (as axum's `Query<Vec<(String, String)>>` hands them over).
pub type Pairs = [(String, String)];

/// The fields every query may hold; besides them, only the fields of the game's options
/// ([`Game::query_fields`]); any other is refused.
const COMMON: [&str; 5] = ["game", "seed", "paper", "reference", "op"];

fn paper(q: &Fields) -> Result<Paper, ServeError> {
    match q.one("paper").unwrap_or("") {
        "" => Ok(Paper::A4),
        name => Paper::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| ServeError::BadRequest(format!("`paper`: `{name}` is not a paper; use one of: a4, letter"))),
    }
}

/// Where the booklet's reference goes: the command line's words ([`Reference::ALL`]), its
/// default when absent or blank.
fn reference(q: &Fields) -> Result<Reference, ServeError> {
    let Some(name) = q.given("reference") else { return Ok(Reference::default()) };
    Reference::ALL.into_iter().find(|r| r.name() == name).ok_or_else(|| {
        let all: Vec<&str> = Reference::ALL.iter().map(|r| r.name()).collect();
        let name = crate::error::cut(name);
        ServeError::BadRequest(format!(
            "`reference`: `{name}` is not a place for the reference; use one of: {}",
            all.join(", ")
        ))
    })
}

/// The edits to replay, in order; at most [`MAX_OPS`].
fn ops(q: &Fields) -> Result<Vec<Op>, ServeError> {
    let ops = q.0.iter().filter(|(k, _)| k == "op").map(|(_, v)| Op::parse(v)).collect::<Result<Vec<Op>, _>>()?;
    if ops.len() > MAX_OPS {
        return Err(ServeError::BadRequest(format!(
            "{} edits in one permalink; at most {MAX_OPS} (download the JSON and go on from it)",
            ops.len()
        )));
    }
    Ok(ops)
}

/// The game a query names (`myk` when it names none).
fn game(q: &Fields) -> Result<Game, ServeError> {
    let name = q.one("game").unwrap_or("myk");
    Game::called(name).ok_or_else(|| {
        let all: Vec<&str> = Game::ALL.iter().map(|g| g.command()).collect();
        ServeError::BadRequest(format!("`game`: `{name}` is not a game; use one of: {}", all.join(", ")))
    })
}

impl Request {
    /// Parses and validates a query; a missing seed is `fresh_seed`'s (the page then shows the
    /// permalink with it). Unknown fields are refused, so a typo never passes silently.
    pub fn parse(pairs: &Pairs, fresh_seed: impl FnOnce() -> u64) -> Result<Request, ServeError> {
        let q = Fields(pairs);
        let game = game(&q)?;
        let known = |k: &str| COMMON.contains(&k) || game.query_fields().contains(&k);
        if let Some((k, _)) = pairs.iter().find(|(k, _)| !known(k)) {
            let shown = crate::error::cut(k);
            // Another game's option would be dropped without a word: named as such.
            return Err(ServeError::BadRequest(
                match Game::ALL.iter().find(|g| g.query_fields().contains(&k.as_str())) {
                    Some(other) => format!(
                        "field `{shown}` is an option of `game={}`, not of `game={}`",
                        other.command(),
                        game.command()
                    ),
                    None => format!("unknown field `{shown}` in the query"),
                },
            ));
        }
        let seed = match q.given("seed") {
            Some(s) => parse_seed("seed", s)?,
            None => fresh_seed(),
        };
        let paper = paper(&q)?;
        let reference = reference(&q)?;
        let params =
            game.params_from_query(&q).map_err(|e| ServeError::BadRequest(e.line_for(crate::error::query_field)))?;
        Ok(Request { params, seed, paper, reference, ops: ops(&q)? })
    }

    /// The canonical query string (the permalink), percent-encoded.
    pub fn query(&self) -> String {
        let mut pairs: Vec<(&str, String)> =
            vec![("game", self.params.game().command().into()), ("seed", self.seed.to_string())];
        pairs.extend(self.params.query_pairs());
        pairs.push(("paper", self.paper.name().into()));
        pairs.push(("reference", self.reference.name().into()));
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
