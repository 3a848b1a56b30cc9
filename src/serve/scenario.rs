//! A workbench request made into a scenario: generate from the seed, then replay the edit history
//! in order. Same request, same scenario, on any machine: that is what makes the URL a permalink.

use crate::myk::Scenario;
use crate::myk::model::RoomId;
use crate::nw3::Fortress;
use crate::tables::Tables;

use super::edits;
use super::error::ServeError;
use super::query::{Game, Op, Request};

/// A built scenario of either game.
pub enum Built {
    Myk(Box<Scenario>),
    Nw3(Box<Fortress>),
}

/// The longest name the workbench gives a room, map, area or scenario (a sheet shortens long names
/// anyway; this keeps a hand-made URL from growing the document without bound).
const MAX_NAME: usize = 200;

/// Generates the request's scenario and replays its edits; an edit that fails names itself.
pub fn build(tables: &Tables, req: &Request) -> Result<Built, ServeError> {
    let mut built = match &req.game {
        Game::Myk(p) => {
            let mut s = crate::myk::generate(tables, p, req.seed)?;
            s.params.paper = req.paper;
            Built::Myk(Box::new(s))
        }
        Game::Nw3(p) => {
            let mut f = crate::nw3::generate(tables, p, req.seed)?;
            f.paper = req.paper;
            Built::Nw3(Box::new(f))
        }
    };
    for (i, op) in req.ops.iter().enumerate() {
        apply(tables, &mut built, op).map_err(|e| {
            let say = |m: String| format!("edit {} `{op}`: {m}", i + 1);
            match e {
                ServeError::BadRequest(m) => ServeError::BadRequest(say(m)),
                ServeError::Refused(m) => ServeError::Refused(say(m)),
                ServeError::NotFound(m) => ServeError::NotFound(say(m)),
                ServeError::Forbidden(m) => ServeError::Forbidden(say(m)),
                ServeError::Busy(m) => ServeError::Busy(say(m)),
                ServeError::Internal(m) => ServeError::Internal(say(m)),
            }
        })?;
    }
    Ok(built)
}

/// What a lock or a rename points at.
enum Target {
    Frame,
    Map(usize),
    Room(usize, RoomId),
    Area(usize),
}

fn target(built: &Built, path: &str) -> Result<Target, ServeError> {
    if path == "frame" {
        return Ok(Target::Frame);
    }
    let unknown = |what: &str| ServeError::BadRequest(format!("unknown {what} `{path}`"));
    match built {
        Built::Myk(s) => {
            let (map, room) = match path.split_once('/') {
                Some((m, r)) => (m, Some(r)),
                None => (path, None),
            };
            let n: u32 = map.strip_prefix("map").and_then(|n| n.parse().ok()).ok_or_else(|| unknown("part"))?;
            let m = s
                .maps
                .iter()
                .position(|m| m.index == n)
                .ok_or_else(|| ServeError::BadRequest(format!("unknown map `{map}`")))?;
            match room {
                None => Ok(Target::Map(m)),
                Some(r) => {
                    let id: RoomId = r.parse().map_err(|_| unknown("room"))?;
                    Ok(Target::Room(m, id))
                }
            }
        }
        Built::Nw3(f) => {
            let id: u32 = path.strip_prefix("area").and_then(|n| n.parse().ok()).ok_or_else(|| unknown("part"))?;
            let a = f.areas.iter().position(|a| a.id == id).ok_or_else(|| unknown("area"))?;
            Ok(Target::Area(a))
        }
    }
}

fn apply(tables: &Tables, built: &mut Built, op: &Op) -> Result<(), ServeError> {
    match op {
        Op::Reroll(path) => {
            // A map, room or area the scenario does not have is a bad request, not a refusal.
            let base: Vec<&str> = path.split('/').collect();
            let depth = if matches!(built, Built::Myk(_)) { 2 } else { 1 };
            target(built, &base[..base.len().min(depth)].join("/"))?;
            match built {
                Built::Myk(s) => edits::myk_reroll(tables, s, path),
                Built::Nw3(f) => edits::nw3_reroll(tables, f, path),
            }
        }
        Op::Regenerate(seed) => {
            *built = match built {
                Built::Myk(s) => Built::Myk(Box::new(edits::myk_regenerate(tables, s, *seed)?)),
                Built::Nw3(f) => Built::Nw3(Box::new(edits::nw3_regenerate(tables, f, *seed)?)),
            };
            Ok(())
        }
        Op::Lock(path) | Op::Unlock(path) => {
            let on = matches!(op, Op::Lock(_));
            let t = target(built, path)?;
            match (built, t) {
                (Built::Myk(s), Target::Frame) => s.frame_locked = on,
                (Built::Myk(s), Target::Map(m)) => s.maps[m].locked = on,
                (Built::Myk(s), Target::Room(m, r)) => {
                    let room = &mut s.maps[m].rooms[r.index()];
                    if on && !room.used {
                        return Err(ServeError::Refused(format!(
                            "room `{path}` is not used on its map; nothing to lock"
                        )));
                    }
                    room.locked = on;
                }
                (Built::Nw3(f), Target::Frame) => f.frame_locked = on,
                (Built::Nw3(f), Target::Area(a)) => f.areas[a].locked = on,
                _ => return Err(ServeError::BadRequest(format!("unknown part `{path}`"))),
            }
            Ok(())
        }
        Op::Rename(path, name) => {
            let name = name.trim();
            if name.is_empty() {
                return Err(ServeError::BadRequest("a name cannot be empty".into()));
            }
            if name.chars().count() > MAX_NAME {
                return Err(ServeError::BadRequest(format!("a name is at most {MAX_NAME} characters")));
            }
            let t = target(built, path)?;
            match (built, t) {
                (Built::Myk(s), t) => {
                    match t {
                        Target::Frame => s.title = name.to_string(),
                        Target::Map(m) => s.maps[m].name = name.into(),
                        Target::Room(m, r) => {
                            let room = &mut s.maps[m].rooms[r.index()];
                            if !room.used {
                                return Err(ServeError::Refused(format!("room `{path}` is not used on its map")));
                            }
                            room.name = name.into();
                        }
                        Target::Area(_) => return Err(ServeError::BadRequest(format!("unknown part `{path}`"))),
                    }
                    // The objective quotes room and map names: derived again, as `render` does.
                    crate::myk::generate::normalize(s);
                }
                (Built::Nw3(f), Target::Frame) => f.title = name.to_string(),
                (Built::Nw3(f), Target::Area(a)) => f.areas[a].name = name.to_string(),
                _ => return Err(ServeError::BadRequest(format!("unknown part `{path}`"))),
            }
            Ok(())
        }
    }
}
