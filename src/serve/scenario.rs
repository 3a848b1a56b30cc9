//! A workbench request made into a scenario: generate from the seed, then replay the edit history
//! in order. Same request, same scenario, on any machine: that is what makes the URL a permalink.

use crate::document::Document;
use crate::tables::Tables;

use super::error::ServeError;
use super::query::{Op, Request};

/// The longest name the workbench gives a room, map, area or scenario (a sheet shortens long names
/// anyway; this keeps a hand-made URL from growing the document without bound).
const MAX_NAME: usize = 200;

/// Generates the request's scenario and replays its edits; an edit that fails names itself.
pub fn build(tables: &Tables, req: &Request) -> Result<Document, ServeError> {
    Ok(build_noted(tables, req)?.0)
}

/// [`build`], with one line saying why the last edit changed nothing, if it did not.
pub fn build_noted(tables: &Tables, req: &Request) -> Result<(Document, Option<String>), ServeError> {
    let mut doc = req.params.generate(tables, req.seed)?;
    doc.set_paper(req.paper);
    let mut note = None;
    for (i, op) in req.ops.iter().enumerate() {
        // A request answered 503, or past its memory budget, stops here rather than replaying on.
        super::guard::checkpoint()?;
        let before = (i + 1 == req.ops.len()).then(|| doc.clone());
        apply(tables, &mut doc, op).map_err(|e| {
            let say = |m: String| format!("edit {} `{op}`: {m}", i + 1);
            match e {
                ServeError::BadRequest(m) => ServeError::BadRequest(say(m)),
                ServeError::Refused(m) => ServeError::Refused(say(m)),
                ServeError::NotFound(m) => ServeError::NotFound(say(m)),
                ServeError::Forbidden(m) => ServeError::Forbidden(say(m)),
                ServeError::Busy(m) => ServeError::Busy(say(m)),
                ServeError::TooLarge(m) => ServeError::TooLarge(say(m)),
                ServeError::Internal(m) => ServeError::Internal(say(m)),
            }
        })?;
        if let Some(before) = before {
            note = unchanged(&before, &doc, op);
        }
    }
    Ok((doc, note))
}

/// Why `op` left `before` as it was (`after`), in one line; `None` when it changed something.
fn unchanged(before: &Document, after: &Document, op: &Op) -> Option<String> {
    let why = match op {
        Op::Reroll(path) => after.unchanged_by(before, &after.game().part(path).ok()?),
        Op::Lock(path) | Op::Unlock(path) if before == after => {
            let already = if matches!(op, Op::Lock(_)) { "locked already" } else { "not locked" };
            Some(format!("`{path}` is {already}"))
        }
        _ => None,
    };
    why.map(|w| format!("`{op}` changed nothing: {w}"))
}

/// A library error from an edit: a part the scenario does not have is a bad request (400), any
/// other failure an edit the scenario refuses (409).
fn edit_error(e: crate::Error) -> ServeError {
    match e {
        crate::Error::NoSuchPart(m) => ServeError::BadRequest(m),
        other => ServeError::Refused(other.to_string()),
    }
}

fn apply(tables: &Tables, doc: &mut Document, op: &Op) -> Result<(), ServeError> {
    match op {
        Op::Reroll(path) => doc.reroll_path(tables, path).map_err(edit_error),
        Op::Regenerate(seed) => {
            *doc = doc.regenerate(tables, *seed).map_err(|e| ServeError::Refused(e.to_string()))?;
            Ok(())
        }
        Op::Lock(path) => doc.lock(path, true).map_err(edit_error),
        Op::Unlock(path) => doc.lock(path, false).map_err(edit_error),
        Op::Rename(path, name) => {
            let name = name.trim();
            if name.is_empty() {
                return Err(ServeError::BadRequest("a name cannot be empty".into()));
            }
            if name.chars().count() > MAX_NAME {
                return Err(ServeError::BadRequest(format!("a name is at most {MAX_NAME} characters")));
            }
            // The scenario's texts quote names and fill `{...}` placeholders: a name of
            // placeholders would be filled again, and grow a text without bound.
            if name.contains(['{', '}']) {
                return Err(ServeError::BadRequest("a name cannot hold `{` or `}`".into()));
            }
            doc.rename(path, name).map_err(edit_error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_past_its_deadline_stops_at_the_next_edit_with_one_line() {
        let tables = Tables::embedded().unwrap();
        let mut pairs = vec![("seed".to_string(), "1".to_string())];
        pairs.extend((0..3).map(|_| ("op".to_string(), "reroll:map1/B2".to_string())));
        let req = Request::parse(&pairs, || 0).unwrap();
        let past = std::time::Instant::now();
        let meter = crate::meter::Meter::new(usize::MAX);
        match super::super::guard::within(past, meter, || build(&tables, &req)) {
            Err(ServeError::Busy(m)) => assert!(m.starts_with("the request took over 30 s and was stopped"), "{m}"),
            other => panic!("not stopped: {:?}", other.map(|_| ())),
        }
        assert!(build(&tables, &req).is_ok(), "outside the pool there is no deadline");
    }
}
