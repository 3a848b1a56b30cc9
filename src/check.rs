//! Rule violations, shared by both systems: the generators run the same checks as `check`.

use std::fmt;

/// One broken rule: where it is, which rule, and what the limit or expectation was.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    /// Where: "map 1 room B2", "map 2 corridor A1-A2", "area 7", "scenario".
    pub place: String,
    /// A short stable rule id, e.g. "traps.total-level", "gate.closed.release-behind-gate".
    pub rule: &'static str,
    /// What is wrong, with the numbers: "trap levels total 23, limit 20 (10A)".
    pub message: String,
}

impl Violation {
    pub fn new(place: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Self {
        Violation { place: place.into(), rule, message: message.into() }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.place, self.message, self.rule)
    }
}
