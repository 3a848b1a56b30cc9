//! The built-in tables' embedded form: each file's TOML value tree, written by build.rs
//! as a compact byte blob plus one string pool, read back at run time
//! with a serde deserializer that needs no text parsing.
//!
//! Why not postcard or bincode: the record types' serde impls use untagged enums, string forms
//! (`Level`, `Disarm`, dice) and skipped fields, which only a self-describing format reads back.
//! Why not JSON (the previous form): scanning and unescaping the text cost half the load. Here a
//! string is a slice of the pool (`visit_borrowed_str`), a list or table says its length up front,
//! and the tree is the TOML's own, so the records read from it equal those read from the TOML
//! (a test holds them equal).
//!
//! Layout: counts are LEB128, a string is its pool offset and length as two little-endian `u32`
//! (one read, no loop). The blob is the file count, then per file its path (a string) and its
//! value. A value is a tag byte and its payload: 0 false, 1 true, 2 integer (zigzag LEB128),
//! 3 float (8 bytes, little-endian), 4 string, 5 array (count, values), 6 table (count, then key
//! string and value for each entry).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

const FALSE: u8 = 0;
const TRUE: u8 = 1;
const INTEGER: u8 = 2;
const FLOAT: u8 = 3;
const STRING: u8 = 4;
const ARRAY: u8 = 5;
const TABLE: u8 = 6;

/// Writes named TOML files into a blob and its string pool (build time; each string once).
#[derive(Default)]
pub struct Encoder {
    pub blob: Vec<u8>,
    pub pool: String,
    seen: BTreeMap<String, (usize, usize)>,
    files: Vec<(String, toml::Value)>,
}

impl Encoder {
    /// Adds one file (its path relative to the tables folder and its parsed TOML).
    pub fn file(&mut self, path: &str, value: toml::Value) {
        self.files.push((path.to_string(), value));
    }

    /// The finished blob and pool. A TOML date or time, which no table uses, is refused.
    pub fn finish(mut self) -> Result<(Vec<u8>, String), String> {
        let files = std::mem::take(&mut self.files);
        leb(&mut self.blob, files.len() as u64);
        for (path, value) in &files {
            self.string(path)?;
            self.value(value).map_err(|e| format!("`{path}`: {e}"))?;
        }
        Ok((self.blob, self.pool))
    }

    fn string(&mut self, s: &str) -> Result<(), String> {
        let (offset, len) = *self.seen.entry(s.to_string()).or_insert_with(|| {
            let offset = self.pool.len();
            self.pool.push_str(s);
            (offset, s.len())
        });
        for n in [offset, len] {
            let n = u32::try_from(n).map_err(|_| "the tables' strings pass 4 GiB".to_string())?;
            self.blob.extend_from_slice(&n.to_le_bytes());
        }
        Ok(())
    }

    fn value(&mut self, v: &toml::Value) -> Result<(), String> {
        match v {
            toml::Value::Boolean(b) => self.blob.push(if *b { TRUE } else { FALSE }),
            toml::Value::Integer(i) => {
                self.blob.push(INTEGER);
                leb(&mut self.blob, ((i << 1) ^ (i >> 63)) as u64);
            }
            toml::Value::Float(f) => {
                self.blob.push(FLOAT);
                self.blob.extend_from_slice(&f.to_le_bytes());
            }
            toml::Value::String(s) => {
                self.blob.push(STRING);
                self.string(s)?;
            }
            toml::Value::Array(items) => {
                self.blob.push(ARRAY);
                leb(&mut self.blob, items.len() as u64);
                for item in items {
                    self.value(item)?;
                }
            }
            toml::Value::Table(t) => {
                self.blob.push(TABLE);
                leb(&mut self.blob, t.len() as u64);
                for (k, item) in t {
                    self.string(k)?;
                    self.value(item)?;
                }
            }
            toml::Value::Datetime(d) => return Err(format!("date `{d}` cannot be embedded")),
        }
        Ok(())
    }
}

fn leb(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A malformed blob: only possible if the blob and this reader disagree.
#[derive(Debug)]
pub struct BlobError(Cow<'static, str>);

impl fmt::Display for BlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BlobError {}

impl de::Error for BlobError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        BlobError(Cow::Owned(msg.to_string()))
    }

    /// Without formatting: an untagged enum (`Level`, `Count` ...) tries its variants in turn and
    /// drops this error for each that does not fit, hundreds of times per load.
    fn invalid_type(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        BlobError(Cow::Borrowed("a value of the wrong type"))
    }
}

/// Reads a blob made by [`Encoder`]: [`Reader::files`], then a path and a value per file.
pub struct Reader<'a> {
    blob: &'a [u8],
    pos: usize,
    pool: &'a str,
}

impl<'a> Reader<'a> {
    pub fn new(blob: &'a [u8], pool: &'a str) -> Reader<'a> {
        Reader { blob, pos: 0, pool }
    }

    /// How many files the blob holds (read first).
    pub fn files(&mut self) -> Result<usize, BlobError> {
        self.count()
    }

    /// The next file's path.
    pub fn path(&mut self) -> Result<&'a str, BlobError> {
        self.string()
    }

    fn byte(&mut self) -> Result<u8, BlobError> {
        let b = *self.blob.get(self.pos).ok_or(BlobError(Cow::Borrowed("the blob ends early")))?;
        self.pos += 1;
        Ok(b)
    }

    #[inline]
    fn leb(&mut self) -> Result<u64, BlobError> {
        // Nearly every count is below 128: one byte.
        if let Some(&b) = self.blob.get(self.pos)
            && b < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(b));
        }
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
            shift += 7;
            if shift > 63 {
                return Err(BlobError(Cow::Borrowed("a number runs too long")));
            }
        }
    }

    fn count(&mut self) -> Result<usize, BlobError> {
        usize::try_from(self.leb()?).map_err(|_| BlobError(Cow::Borrowed("a count is too large")))
    }

    #[inline]
    fn string(&mut self) -> Result<&'a str, BlobError> {
        let outside = || BlobError(Cow::Borrowed("a string lies outside the pool"));
        let bytes: [u8; 8] =
            self.blob.get(self.pos..self.pos + 8).and_then(|b| b.try_into().ok()).ok_or_else(outside)?;
        self.pos += 8;
        let [o0, o1, o2, o3, l0, l1, l2, l3] = bytes;
        let offset = u32::from_le_bytes([o0, o1, o2, o3]) as usize;
        let len = u32::from_le_bytes([l0, l1, l2, l3]) as usize;
        offset.checked_add(len).and_then(|end| self.pool.get(offset..end)).ok_or_else(outside)
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = BlobError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, BlobError> {
        match self.byte()? {
            FALSE => visitor.visit_bool(false),
            TRUE => visitor.visit_bool(true),
            INTEGER => {
                let z = self.leb()?;
                visitor.visit_i64(((z >> 1) as i64) ^ -((z & 1) as i64))
            }
            FLOAT => {
                let bytes =
                    self.blob.get(self.pos..self.pos + 8).ok_or(BlobError(Cow::Borrowed("the blob ends early")))?;
                self.pos += 8;
                let mut b = [0u8; 8];
                b.copy_from_slice(bytes);
                visitor.visit_f64(f64::from_le_bytes(b))
            }
            STRING => visitor.visit_borrowed_str(self.string()?),
            ARRAY => {
                let left = self.count()?;
                visitor.visit_seq(Items { reader: self, left })
            }
            TABLE => {
                let left = self.count()?;
                visitor.visit_map(Items { reader: self, left })
            }
            t => Err(BlobError(Cow::Owned(format!("unknown tag {t}")))),
        }
    }

    /// TOML has no null: a value that is there is `Some` (a missing key is the field's default).
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, BlobError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, BlobError> {
        visitor.visit_newtype_struct(self)
    }

    /// As toml reads enums: a string is a unit variant, a one-entry table a variant with its data.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, BlobError> {
        match self.blob.get(self.pos).copied() {
            Some(STRING) => {
                self.pos += 1;
                visitor.visit_enum(self.string()?.into_deserializer())
            }
            Some(TABLE) => {
                self.pos += 1;
                if self.count()? != 1 {
                    return Err(BlobError(Cow::Borrowed("an enum table holds one entry")));
                }
                visitor.visit_enum(Variant { reader: self })
            }
            _ => Err(BlobError(Cow::Borrowed("an enum is a string or a one-entry table"))),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// The entries of an array or table still to read.
struct Items<'r, 'de> {
    reader: &'r mut Reader<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = BlobError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, BlobError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = BlobError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, BlobError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let key: &'de str = self.reader.string()?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, BlobError> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// An enum written as a one-entry table: the key names the variant, the value holds its data.
struct Variant<'r, 'de> {
    reader: &'r mut Reader<'de>,
}

impl<'r, 'de> de::EnumAccess<'de> for Variant<'r, 'de> {
    type Error = BlobError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), BlobError> {
        let key: &'de str = self.reader.string()?;
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::new(key))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = BlobError;

    fn unit_variant(self) -> Result<(), BlobError> {
        de::Deserialize::deserialize(&mut *self.reader)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, BlobError> {
        seed.deserialize(&mut *self.reader)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, BlobError> {
        de::Deserializer::deserialize_seq(&mut *self.reader, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value, BlobError> {
        de::Deserializer::deserialize_map(&mut *self.reader, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Number(i64),
        Text(String),
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Plain,
        Scaled(f64),
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Record {
        name: String,
        #[serde(default)]
        note: Option<String>,
        level: Either,
        kinds: Vec<Kind>,
        flags: Vec<bool>,
        negative: i32,
    }

    fn read<T: for<'de> Deserialize<'de>>(toml_text: &str) -> Result<T, BlobError> {
        let mut enc = Encoder::default();
        enc.file("t.toml", toml::from_str(toml_text).expect("valid TOML"));
        let (blob, pool) = enc.finish().expect("encodes");
        let mut r = Reader::new(&blob, &pool);
        assert_eq!(r.files()?, 1);
        assert_eq!(r.path()?, "t.toml");
        T::deserialize(&mut r)
    }

    #[test]
    fn a_blob_reads_back_what_toml_reads() {
        let text = "name = \"Ogre \\\"big\\\" 鬼\"\nlevel = \"1-5\"\nkinds = [\"plain\", { scaled = 1.5 }]\n\
                    flags = [true, false]\nnegative = -70000\n";
        let from_blob: Record = read(text).expect("blob reads");
        let from_toml: Record = toml::from_str(text).expect("toml reads");
        assert_eq!(from_blob, from_toml);
        let numbered: Record = read(&text.replace("\"1-5\"", "3")).expect("blob reads");
        assert_eq!(numbered.level, Either::Number(3));
    }

    #[test]
    fn a_blob_refuses_an_unknown_field_as_toml_does() {
        let e = read::<Record>("name = \"x\"\nlevel = 1\nkinds = []\nflags = []\nnegative = 0\nextra = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("extra"), "{e}");
    }

    #[test]
    fn a_truncated_blob_is_an_error_not_a_panic() {
        let mut enc = Encoder::default();
        enc.file("t.toml", toml::from_str("name = \"x\"").expect("valid TOML"));
        let (blob, pool) = enc.finish().expect("encodes");
        let mut r = Reader::new(&blob[..blob.len() - 1], &pool);
        r.files().expect("count");
        r.path().expect("path");
        assert!(toml::Value::deserialize(&mut r).is_err());
    }
}
