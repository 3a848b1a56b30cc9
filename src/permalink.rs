//! The workbench permalink's query fields, read one way for every game: a field given twice
//! counts by its last value (a form resubmitted with an edited URL appends rather than
//! replaces), and a blank number is absent (the default then applies). Each game reads its own
//! options through here, beside the `query_pairs` that write them, so the workbench names no game.

use crate::error::{Error, Result};

/// A query's fields by name, in the order the URL gives them.
pub struct Fields<'a>(pub &'a [(String, String)]);

impl Fields<'_> {
    /// The field's last value, if given.
    pub fn one(&self, name: &str) -> Option<&str> {
        self.0.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The field's last value unless absent or blank.
    pub fn given(&self, name: &str) -> Option<&str> {
        self.one(name).filter(|v| !v.trim().is_empty())
    }

    /// A number, or `None` when absent or blank.
    pub fn opt_u32(&self, name: &str) -> Result<Option<u32>> {
        self.given(name).map(|v| whole(name, v)).transpose()
    }
}

/// `text` as a whole number; the error names the field.
pub fn whole(field: &str, text: &str) -> Result<u32> {
    text.trim().parse::<u32>().map_err(|_| bad(field, format!("`{text}` is not a whole number")))
}

/// A field whose value cannot be used, in one line naming it.
pub fn bad(field: &str, message: String) -> Error {
    Error::Field { field: field.to_string(), message }
}
