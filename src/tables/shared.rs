//! Text the scenario takes from the tables (names, summaries, rolled words), shared rather than
//! copied: a scenario's monster name or trap summary points at the table's own text, so placing it
//! costs a reference count instead of an allocation, a copy and a free.
//!
//! It reads and writes exactly like a `String` (serde, `Display`, `Debug`, comparisons with `str`),
//! so the scenario JSON and everything rendered from it are unchanged.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, LazyLock};

use serde::{Deserialize, Serialize};

/// A list shared rather than copied (a table's rows that every scenario of a kind carries): a
/// `Vec<T>` through `Deref`, written and read in JSON exactly as the `Vec`; changing it through
/// `DerefMut` copies it first when it is shared (so an edit never reaches the tables).
#[derive(Clone, PartialEq)]
pub struct SharedList<T>(Arc<Vec<T>>);

impl<T> Deref for SharedList<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for SharedList<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        Arc::make_mut(&mut self.0)
    }
}

impl<T> From<Vec<T>> for SharedList<T> {
    fn from(v: Vec<T>) -> Self {
        SharedList(Arc::new(v))
    }
}

impl<T: fmt::Debug> fmt::Debug for SharedList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl<T: Serialize> Serialize for SharedList<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for SharedList<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::deserialize(d).map(SharedList::from)
    }
}

/// Immutable shared text; `&str` through `Deref`. Build one with `.into()` from `&str` or `String`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SharedStr(Arc<str>);

/// One empty text for every default (an empty `Arc<str>` would otherwise be an allocation each).
static EMPTY: LazyLock<SharedStr> = LazyLock::new(|| SharedStr(Arc::from("")));

impl SharedStr {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for SharedStr {
    fn default() -> Self {
        EMPTY.clone()
    }
}

impl Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SharedStr {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for SharedStr {
    fn from(s: &str) -> Self {
        if s.is_empty() { SharedStr::default() } else { SharedStr(Arc::from(s)) }
    }
}

impl From<String> for SharedStr {
    fn from(s: String) -> Self {
        SharedStr::from(s.as_str())
    }
}

impl From<&String> for SharedStr {
    fn from(s: &String) -> Self {
        SharedStr::from(s.as_str())
    }
}

impl From<&SharedStr> for SharedStr {
    fn from(s: &SharedStr) -> Self {
        s.clone()
    }
}

impl From<std::borrow::Cow<'_, str>> for SharedStr {
    fn from(s: std::borrow::Cow<'_, str>) -> Self {
        SharedStr::from(s.as_ref())
    }
}

impl From<SharedStr> for String {
    fn from(s: SharedStr) -> Self {
        s.as_str().to_string()
    }
}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for SharedStr {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<SharedStr> for str {
    fn eq(&self, other: &SharedStr) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<SharedStr> for &str {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<SharedStr> for String {
    fn eq(&self, other: &SharedStr) -> bool {
        *self == other.as_str()
    }
}

impl Serialize for SharedStr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SharedStr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Straight from the deserializer's `&str` into the shared text: one allocation, not a
        // `String` first.
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = SharedStr;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SharedStr, E> {
                Ok(SharedStr::from(v))
            }
        }
        d.deserialize_str(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_text_reads_and_writes_like_a_string() {
        let s: SharedStr = "Gunfish".into();
        assert_eq!(serde_json::to_string(&s).unwrap(), serde_json::to_string("Gunfish").unwrap());
        let back: SharedStr = serde_json::from_str("\"Gun\\\"fish\"").unwrap();
        assert_eq!(back, "Gun\"fish");
        assert_eq!(format!("{s} {s:?}"), format!("{} {:?}", "Gunfish", "Gunfish"));
        let owned = String::from("Gunfish");
        assert_eq!(s, "Gunfish");
        assert_eq!("Gunfish", s);
        assert_eq!(s, owned);
        assert_eq!(owned, s);
    }

    #[test]
    fn a_shared_list_reads_and_writes_like_a_vec_and_copies_on_write() {
        let a: SharedList<u32> = vec![1, 2, 3].into();
        assert_eq!(serde_json::to_string(&a).unwrap(), "[1,2,3]");
        assert_eq!(serde_json::from_str::<SharedList<u32>>("[1,2,3]").unwrap(), a);
        assert_eq!(format!("{a:?}"), "[1, 2, 3]");
        let mut b = a.clone();
        assert!(std::ptr::eq(a.as_ptr(), b.as_ptr()), "a clone shares the list");
        b[0] = 9;
        assert_eq!((a[0], b[0]), (1, 9), "an edit copies, the original stays");
    }

    #[test]
    fn a_clone_shares_the_text() {
        let s: SharedStr = String::from("Pit").into();
        let t = s.clone();
        assert!(std::ptr::eq(s.as_str(), t.as_str()));
        let (empty, a, b): (SharedStr, SharedStr, SharedStr) = (SharedStr::default(), "A".into(), "B".into());
        assert!(std::ptr::eq(empty.as_str(), SharedStr::from(String::new()).as_str()));
        assert!(empty.is_empty() && a < b);
    }
}
