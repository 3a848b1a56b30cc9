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
use toml::Spanned;
use toml::de::{DeTable, DeValue};

const FALSE: u8 = 0;
const TRUE: u8 = 1;
const INTEGER: u8 = 2;
const FLOAT: u8 = 3;
const STRING: u8 = 4;
const ARRAY: u8 = 5;
const TABLE: u8 = 6;

/// Writes TOML documents into a blob and its string pool: at build time the
/// built-in tables ([`Encoder::files`], [`Encoder::file`]), at run time one file of a user's
/// tables folder ([`Encoder::marked`], [`Encoder::document`]), so both are read by the one
/// [`Reader`] and each table type has one deserializer compiled, not one per format.
#[derive(Default)]
pub struct Encoder {
    pub blob: Vec<u8>,
    pub pool: String,
    seen: BTreeMap<String, (usize, usize)>,
    /// With [`Encoder::marked`]: where in the text each value and key the blob holds starts, by
    /// its blob position (ascending), so a [`Reader`]'s error can name its line.
    marks: Option<Vec<(usize, usize)>>,
}

/// A TOML value the blob cannot hold (a date or time, which no table uses; a number beyond 64
/// bits), with where it starts in the text.
#[derive(Debug)]
pub struct Unencodable {
    pub at: usize,
    pub message: String,
}

/// Where the values and keys of one marked document start in its text (see [`Reader::mark`]).
pub struct Marks(Vec<(usize, usize)>);

impl Marks {
    /// The text offset of the value or key that starts at blob position `mark` (or of the one
    /// before it, should the mark fall inside a value).
    pub fn text_offset(&self, mark: usize) -> usize {
        let i = self.0.partition_point(|&(at, _)| at <= mark);
        i.checked_sub(1).map_or(0, |i| self.0[i].1)
    }
}

impl Encoder {
    /// An encoder that remembers where each value came from ([`Encoder::document`]).
    /// `text_len`, the document's length, sizes the blob and pool once (neither outgrows it much).
    pub fn marked(text_len: usize) -> Encoder {
        Encoder {
            blob: Vec::with_capacity(text_len),
            pool: String::with_capacity(text_len),
            marks: Some(Vec::with_capacity(text_len / 8)),
            ..Encoder::default()
        }
    }

    /// Starts a blob of `count` files (build time), each then added with [`Encoder::file`].
    pub fn files(&mut self, count: usize) {
        leb(&mut self.blob, count as u64);
    }

    /// Adds one file: its path relative to the tables folder and its parsed TOML.
    pub fn file(&mut self, path: &str, table: &Spanned<DeTable<'_>>) -> Result<(), String> {
        self.string(path);
        self.table(table).map_err(|e| format!("`{path}`: {}", e.message))
    }

    /// One document alone (no count or path), with its marks: a user's table file.
    pub fn document(mut self, table: &Spanned<DeTable<'_>>) -> Result<(Vec<u8>, String, Marks), Unencodable> {
        self.table(table)?;
        Ok((self.blob, self.pool, Marks(self.marks.unwrap_or_default())))
    }

    /// The finished blob and pool.
    pub fn finish(self) -> (Vec<u8>, String) {
        (self.blob, self.pool)
    }

    fn mark(&mut self, at: usize) {
        if let Some(marks) = &mut self.marks {
            marks.push((self.blob.len(), at));
        }
    }

    fn string(&mut self, s: &str) {
        // Each string once for the built-in blob, which ships in the binary; a user's file is
        // read once and dropped, and looking every string up cost more than the pool saves.
        let found = if self.marks.is_some() { None } else { self.seen.get(s).copied() };
        let (offset, len) = match found {
            Some(found) => found,
            None if self.marks.is_some() => {
                let at = (self.pool.len(), s.len());
                self.pool.push_str(s);
                at
            }
            None => {
                let at = (self.pool.len(), s.len());
                self.pool.push_str(s);
                self.seen.insert(s.to_string(), at);
                at
            }
        };
        // A pool past 4 GiB cannot be (a user's file is read only up to the input limit); were it,
        // the reader would find the string outside the pool: an error, not a wrong string.
        for n in [offset, len] {
            self.blob.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
        }
    }

    fn table(&mut self, t: &Spanned<DeTable<'_>>) -> Result<(), Unencodable> {
        self.mark(t.span().start);
        self.entries(t.get_ref())
    }

    fn entries(&mut self, t: &DeTable<'_>) -> Result<(), Unencodable> {
        self.blob.push(TABLE);
        leb(&mut self.blob, t.len() as u64);
        for (k, item) in t.iter() {
            self.mark(k.span().start);
            self.string(k.get_ref());
            self.value(item)?;
        }
        Ok(())
    }

    fn value(&mut self, v: &Spanned<DeValue<'_>>) -> Result<(), Unencodable> {
        let at = v.span().start;
        self.mark(at);
        let refuse = |message: String| Unencodable { at, message };
        match v.get_ref() {
            DeValue::Boolean(b) => self.blob.push(if *b { TRUE } else { FALSE }),
            DeValue::Integer(i) => {
                let n = i64::from_str_radix(i.as_str(), i.radix())
                    .map_err(|_| refuse(format!("integer `{i}` does not fit in 64 bits")))?;
                self.blob.push(INTEGER);
                leb(&mut self.blob, ((n << 1) ^ (n >> 63)) as u64);
            }
            DeValue::Float(f) => {
                // As toml reads it: an infinity only when written `inf`.
                let x = f.as_str().parse::<f64>().ok().filter(|x| x.is_finite() || f.as_str().contains("inf"));
                let x = x.ok_or_else(|| refuse(format!("number `{f}` is out of range")))?;
                self.blob.push(FLOAT);
                self.blob.extend_from_slice(&x.to_le_bytes());
            }
            DeValue::String(s) => {
                self.blob.push(STRING);
                self.string(s);
            }
            DeValue::Array(items) => {
                self.blob.push(ARRAY);
                leb(&mut self.blob, items.len() as u64);
                for item in items.iter() {
                    self.value(item)?;
                }
            }
            DeValue::Table(t) => self.entries(t)?,
            DeValue::Datetime(d) => return Err(refuse(format!("date or time `{d}`, which no table holds"))),
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

/// Reads TOML text (a user's file) with `read` through the blob, as the built-in tables are read:
/// the value, or the error's words and the text offset of the value or key it concerns.
pub fn from_toml<T>(
    text: &str,
    read: impl for<'r> FnOnce(&mut Reader<'r>) -> Result<T, BlobError>,
) -> Result<T, (usize, String)> {
    let document = DeTable::parse(text).map_err(|e| (e.span().map_or(0, |s| s.start), e.message().to_string()))?;
    let (blob, pool, marks) = Encoder::marked(text.len()).document(&document).map_err(|e| (e.at, e.message))?;
    let mut reader = Reader::new(&blob, &pool);
    explained(|| read(&mut reader)).map_err(|e| (marks.text_offset(reader.mark()), e.to_string()))
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

    /// Without formatting for the built-in tables: an untagged enum (`Level`, `Count` ...) tries
    /// its variants in turn and drops this error for each that does not fit, hundreds of times
    /// per load. A user's file ([`explained`]) gets serde's full sentence, which names the type.
    fn invalid_type(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        if EXPLAINED.get() {
            BlobError(Cow::Owned(format!("invalid type: {unexpected}, expected {expected}")))
        } else {
            BlobError(Cow::Borrowed("a value of the wrong type"))
        }
    }
}

thread_local! {
    /// Whether [`BlobError::invalid_type`] spells out what it found and wanted ([`explained`]).
    static EXPLAINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `read` with every type error spelt out as serde words it ("invalid type: string \"x\",
/// expected u32"): for a user's file, whose errors a person reads.
pub fn explained<T>(read: impl FnOnce() -> T) -> T {
    /// Restores the flag however `read` ends.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            EXPLAINED.set(self.0);
        }
    }
    let _restore = Restore(EXPLAINED.replace(true));
    read()
}

/// Reads a blob made by [`Encoder`]: [`Reader::files`], then a path and a value per file.
pub struct Reader<'a> {
    blob: &'a [u8],
    pos: usize,
    pool: &'a str,
    /// Where the value an error concerns starts ([`Reader::mark`]).
    mark: usize,
}

impl<'a> Reader<'a> {
    pub fn new(blob: &'a [u8], pool: &'a str) -> Reader<'a> {
        Reader { blob, pos: 0, pool, mark: 0 }
    }

    /// The blob position of the value or key the last error concerns: the last value or key
    /// begun, or the table or array last finished (a missing field is its table's fault). With
    /// [`Marks`] it names the line of a user's file, as toml's own deserializer would.
    pub fn mark(&self) -> usize {
        self.mark
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
        self.mark = self.pos;
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
                let start = self.mark;
                let left = self.count()?;
                visitor.visit_seq(Items { reader: self, left, start })
            }
            TABLE => {
                let start = self.mark;
                let left = self.count()?;
                visitor.visit_map(Items { reader: self, left, start })
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
        self.mark = self.pos;
        match self.blob.get(self.pos).copied() {
            Some(STRING) => {
                self.pos += 1;
                visitor.visit_enum(self.string()?.into_deserializer())
            }
            Some(TABLE) => {
                self.pos += 1;
                // toml's words, which a user's tables folder has always been told.
                match self.count()? {
                    1 => visitor.visit_enum(Variant { reader: self }),
                    0 => Err(BlobError(Cow::Borrowed("wanted exactly 1 element, found 0 elements"))),
                    _ => Err(BlobError(Cow::Borrowed("wanted exactly 1 element, more than 1 element"))),
                }
            }
            _ => Err(BlobError(Cow::Borrowed("wanted string or table"))),
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
    /// The array's or table's own blob position: the mark once it is read to its end.
    start: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = BlobError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, BlobError> {
        if self.left == 0 {
            self.reader.mark = self.start;
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
            self.reader.mark = self.start;
            return Ok(None);
        }
        self.left -= 1;
        self.reader.mark = self.reader.pos;
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
        self.reader.mark = self.reader.pos;
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
        enc.files(1);
        enc.file("t.toml", &DeTable::parse(toml_text).expect("valid TOML")).expect("encodes");
        let (blob, pool) = enc.finish();
        let mut r = Reader::new(&blob, &pool);
        assert_eq!(r.files()?, 1);
        assert_eq!(r.path()?, "t.toml");
        T::deserialize(&mut r)
    }

    /// A user's file read as `mod.rs` reads it: the error and the line its mark names.
    fn read_marked<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, (usize, String)> {
        from_toml(text, |r| T::deserialize(r)).map_err(|(at, e)| (text[..at].matches('\n').count() + 1, e))
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
        enc.files(1);
        enc.file("t.toml", &DeTable::parse("name = \"x\"").expect("valid TOML")).expect("encodes");
        let (blob, pool) = enc.finish();
        let mut r = Reader::new(&blob[..blob.len() - 1], &pool);
        r.files().expect("count");
        r.path().expect("path");
        assert!(toml::Value::deserialize(&mut r).is_err());
    }

    /// Each broken record, read from the blob, fails at the line toml's own deserializer names
    /// and with its words (serde's, which toml passes on).
    #[test]
    fn a_marked_blob_names_the_line_and_words_toml_gives() {
        let good = "name = \"x\"\nlevel = 1\nkinds = []\nflags = []\nnegative = 0\n";
        let broken = [
            good.replace("negative = 0", "negative = \"zero\""),
            good.replace("flags = []", "flags = [true,\n 3]"),
            good.replace("kinds = []", "kinds = [\"plain\", \"odd\"]"),
            good.replace("kinds = []", "kinds = [{ scaled = \"x\" }]"),
            good.replace("level = 1", "level = [1]"),
            good.replace("level = 1\n", ""),
            format!("{good}extra = 1\n"),
            format!("{good}[sub]\nx = 1\n"),
            good.replace("negative = 0", "negative = 99999999999"),
            good.replace("kinds = []", "kinds = [1]"),
            good.replace("kinds = []", "kinds = [{}]"),
            good.replace("kinds = []", "kinds = [{ scaled = 1.0, plain = 2 }]"),
        ];
        for text in &broken {
            let (line, message) = read_marked::<Record>(text).expect_err(text);
            let toml_error = toml::from_str::<Record>(text).expect_err(text);
            let toml_line = text[..toml_error.span().expect("toml names a place").start].matches('\n').count() + 1;
            assert_eq!((line, message.as_str()), (toml_line, toml_error.message().trim_end()), "{text}");
        }
    }

    #[test]
    fn a_value_no_table_can_hold_is_refused_at_its_place() {
        let text = "name = \"x\"\nwhen = 1979-05-27\n";
        let e =
            Encoder::marked(text.len()).document(&DeTable::parse(text).expect("valid TOML")).map(|_| ()).unwrap_err();
        assert_eq!(&text[e.at..e.at + 10], "1979-05-27");
        assert!(e.message.contains("1979-05-27"), "{}", e.message);
    }
}
