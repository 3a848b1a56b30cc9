//! Rule violations, shared by both systems: the generators run the same checks as `check`.
//!
//! What the books forbid is an error; what they only advise (a usual number, a limit the GM may
//! break) is a warning with its own rule id: printed, exit 0, an error under `check --strict`.
//! The generators keep to both.

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
    /// An error (the book forbids it) or a warning (the book advises otherwise).
    pub severity: Severity,
}

/// How binding a rule is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The book forbids it.
    Error,
    /// The book advises otherwise, or states a usual range the GM may leave.
    Warning,
}

impl Violation {
    pub fn new(place: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Self {
        Violation { place: place.into(), rule, message: message.into(), severity: Severity::Error }
    }

    /// A departure from the book's advice: a warning, not an error.
    pub fn advice(place: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Self {
        Violation { severity: Severity::Warning, ..Violation::new(place, rule, message) }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// How many of `v` count as errors: every error, and the warnings too when `strict`.
pub fn errors(v: &[Violation], strict: bool) -> usize {
    v.iter().filter(|x| strict || x.is_error()).count()
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        write!(f, "{}: {} [{}]", self.place, self.message, self.rule)
    }
}
