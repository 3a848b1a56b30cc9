//! What the party must do to open (or find) a gate, in words: one place for the area map's notes,
//! the booklet's gate lines and the DOT export, so they always say the same thing. An event
//! opener names the event of its area ("defeat the Ruler (area 9)" rather than "event in 9").

use crate::nw3::model::{EventKind, Fortress, Opener};

/// An opener in words: `deed` for sentences ("defeat the Ruler (area 9)"), `short` for a
/// crowded map ("Ruler 9").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenerWords {
    pub deed: String,
    pub short: String,
}

/// The words for `o` in fortress `f` (an area that is missing, or holds no event, is still named
/// by its number).
pub fn opener_words(f: &Fortress, o: Opener) -> OpenerWords {
    match o {
        Opener::Event(id) => {
            let event = f.area(id).and_then(|a| a.event.as_ref());
            match event {
                Some(e) if e.kind == EventKind::Ruler => {
                    OpenerWords { deed: format!("defeat the Ruler (area {id})"), short: format!("Ruler {id}") }
                }
                Some(e) if !e.name.is_empty() => {
                    OpenerWords { deed: format!("clear {} (area {id})", e.name), short: format!("event {id}") }
                }
                _ => OpenerWords { deed: format!("clear the event in area {id}"), short: format!("event {id}") },
            }
        }
        Opener::Device(id) => {
            OpenerWords { deed: format!("work the release device (area {id})"), short: format!("device {id}") }
        }
        Opener::DangerSense(d) => OpenerWords { deed: format!("Danger Sense {d}"), short: format!("DS {d}") },
    }
}
