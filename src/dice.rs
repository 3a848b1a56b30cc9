//! Seeded dice: the only place a random number generator is made.
//!
//! Every roll comes from `rand_chacha::ChaCha8Rng` through our own sampling below, never through
//! `rand`'s distributions, whose output has changed between minor versions. That keeps the promise
//! that a seed reproduces a scenario byte for byte, forever within a tables version.
//!
//! Sampling, documented so it can be reimplemented anywhere:
//! - `below(n)`: draw `x = next_u32()`; with `zone = (2^32 / n) * n`, reject and redraw while
//!   `x >= zone`; the result is `x / (zone / n)`. Unbiased, and it uses the high bits.
//! - a die with `s` sides is `below(s) + 1`; `nD6` sums `n` dice in order.
//! - D66 rolls two D6 in order and reads the lower die first (21 outcomes, 11..66).
//! - `choose` is `below(len)`; `weighted` draws `below(total weight)` and walks the list in order;
//!   `shuffle` is Fisher-Yates from the last index down.
//!
//! Child streams: `Dice::child("map/1/room/B2")` derives a fresh generator from the parent's
//! 32-byte seed and the child's full path (FNV-1a over the bytes, mixed by SplitMix64), so one part
//! can be re-rolled or gain an option without shifting the rolls of any other part.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded source of dice rolls with a name (its path from the root stream).
#[derive(Clone, Debug)]
pub struct Dice {
    seed: [u8; 32],
    /// FNV-1a of the full path so far: FNV-1a reads bytes one by one, so a child's hash continues
    /// from its parent's, and no path string is ever built.
    path_hash: u64,
    /// Whether the path is non-empty (a child of a named stream adds a `/` first).
    named: bool,
    rng: ChaCha8Rng,
}

/// FNV-1a fed a piece at a time, so a formatted child name is hashed without building a string.
struct PathHash {
    hash: u64,
    /// Bytes hashed so far.
    len: usize,
}

impl PathHash {
    fn push(&mut self, bytes: &[u8]) {
        self.hash = bytes.iter().fold(self.hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME));
        self.len += bytes.len();
    }
}

impl fmt::Write for PathHash {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s.as_bytes());
        Ok(())
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A fresh seed from the system's randomness, for a run given none (it announces the seed so the
/// result can be reproduced). 48 bits, so it stays short to type.
pub fn fresh_seed() -> u64 {
    rand::rng().next_u64() >> 16
}

/// FNV-1a, 64 bits: a small hash whose output is fixed by its definition (unlike std's hasher).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One draw `x` read as a number below `n` (`n` ≥ 1), or `None` when the draw is rejected: with
/// `bucket = 2^32 / n` and `zone = bucket * n`, `x < zone` gives `x / bucket` (the module's rule).
/// Computed in 32 bits (a 64-bit division costs several times a 32-bit one), and inlined so a
/// constant `n` (a die's six sides) needs no division at all; `reduce_matches_the_64_bit_rule`
/// proves it the same function.
#[inline]
fn reduce(x: u32, n: u32) -> Option<u32> {
    if n == 1 {
        // bucket = 2^32 does not fit 32 bits; every draw is accepted and reads 0.
        return Some(0);
    }
    // 2^32 / n for n ≥ 2, from (2^32 - 1) / n: one more exactly when n divides 2^32.
    let bucket = u32::MAX / n + u32::from(u32::MAX % n == n - 1);
    // bucket * n ≤ 2^32; it equals 2^32 only when n divides 2^32, and then every draw is
    // accepted (wrapping to 0 marks that case).
    let zone = bucket.wrapping_mul(n);
    (zone == 0 || x < zone).then(|| x / bucket)
}

impl Dice {
    /// The root stream for a seed.
    pub fn new(seed: u64) -> Self {
        let mut bytes = [0u8; 32];
        let mut state = seed;
        for chunk in bytes.chunks_mut(8) {
            state = splitmix64(state);
            chunk.copy_from_slice(&state.to_le_bytes());
        }
        Dice { seed: bytes, path_hash: FNV_OFFSET, named: false, rng: ChaCha8Rng::from_seed(bytes) }
    }

    /// An independent stream named `name` below this one ("map/1", then "room/B2", ...).
    /// The same parent seed and path always give the same child, however much the parent has
    /// rolled already.
    pub fn child(&self, name: &str) -> Dice {
        let mut h = self.child_hash();
        h.push(name.as_bytes());
        self.derive(h)
    }

    /// [`Dice::child`] with a formatted name (`d.child_fmt(format_args!("map/{i}/layout"))`): the
    /// same stream as `d.child(&format!(...))`, without building the string.
    pub fn child_fmt(&self, name: fmt::Arguments<'_>) -> Dice {
        let mut h = self.child_hash();
        // Writing into a hash cannot fail.
        let _ = fmt::Write::write_fmt(&mut h, name);
        self.derive(h)
    }

    /// [`Dice::child`] named `{before}{n}{after}` (`d.child_n("map/", 2, "/traps")`): the same
    /// stream as `d.child(&format!("{before}{n}{after}"))`, without the formatting machinery
    /// (the generator names a stream per map part).
    pub fn child_n(&self, before: &str, n: u32, after: &str) -> Dice {
        let mut h = self.child_hash();
        h.push(before.as_bytes());
        h.push(itoa::Buffer::new().format(n).as_bytes());
        h.push(after.as_bytes());
        self.derive(h)
    }

    /// The hash of this stream's path and the separator a child's name follows.
    fn child_hash(&self) -> PathHash {
        let mut h = PathHash { hash: self.path_hash, len: 0 };
        if self.named {
            h.push(b"/");
        }
        h
    }

    /// The child whose full path hashes to `h`.
    fn derive(&self, h: PathHash) -> Dice {
        let named = h.len > 0;
        let tag = h.hash;
        let mut bytes = [0u8; 32];
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut parent = [0u8; 8];
            parent.copy_from_slice(&self.seed[i * 8..i * 8 + 8]);
            let word = splitmix64(u64::from_le_bytes(parent) ^ splitmix64(tag.wrapping_add(i as u64)));
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        Dice { seed: bytes, path_hash: tag, named, rng: ChaCha8Rng::from_seed(bytes) }
    }

    /// A uniform number in `0..n` (`n` must be at least 1).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0) has no outcome");
        loop {
            if let Some(v) = reduce(self.rng.next_u32(), n) {
                return v;
            }
        }
    }

    /// A uniform number in `lo..=hi`.
    #[inline]
    pub fn between(&mut self, lo: u32, hi: u32) -> u32 {
        debug_assert!(lo <= hi);
        lo + self.below(hi - lo + 1)
    }

    /// One die with `sides` sides: 1..=sides.
    #[inline]
    pub fn die(&mut self, sides: u32) -> u32 {
        self.below(sides) + 1
    }

    /// 1D6.
    #[inline]
    pub fn d6(&mut self) -> u32 {
        self.die(6)
    }

    /// nD6, summed.
    #[inline]
    pub fn nd6(&mut self, n: u32) -> u32 {
        (0..n).map(|_| self.d6()).sum()
    }

    /// 2D6 as the two dice, in the order rolled (for doubles: 1-1 fails, 6-6 succeeds).
    #[inline]
    pub fn two_d6(&mut self) -> (u32, u32) {
        (self.d6(), self.d6())
    }

    /// D66: two D6 read lower die first, so 21 outcomes from 11 to 66.
    #[inline]
    pub fn d66(&mut self) -> u32 {
        let (a, b) = self.two_d6();
        a.min(b) * 10 + a.max(b)
    }

    /// Two D6 read in order, the first die as tens: 36 outcomes from 11 to 66 (the Rare Item
    /// tables' "Roll 1, Roll 2").
    #[inline]
    pub fn d6d6(&mut self) -> u32 {
        let (a, b) = self.two_d6();
        a * 10 + b
    }

    /// Rolls a dice expression such as `2D6+1`.
    pub fn roll(&mut self, expr: &DiceExpr) -> i32 {
        let dice: u32 = (0..expr.count).map(|_| self.die(expr.sides)).sum();
        dice as i32 + expr.modifier
    }

    /// Rolls the dice of a roll table and returns the outcome read as the table reads it.
    #[inline]
    pub fn roll_kind(&mut self, kind: DiceKind) -> u32 {
        match kind {
            DiceKind::D6 => self.d6(),
            DiceKind::TwoD6 => self.nd6(2),
            DiceKind::D66 => self.d66(),
            DiceKind::D6D6 => self.d6d6(),
        }
    }

    /// A uniform pick, `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let i = self.below(u32::try_from(items.len()).unwrap_or(u32::MAX)) as usize;
        items.get(i)
    }

    /// [`Dice::choose`] over the items `items()` yields, without listing them: the same draw (one
    /// `below(count)`), the same pick.
    pub fn choose_from<T, I: Iterator<Item = T>>(&mut self, items: impl Fn() -> I) -> Option<T> {
        let n = items().count();
        if n == 0 {
            return None;
        }
        let i = self.below(u32::try_from(n).unwrap_or(u32::MAX)) as usize;
        items().nth(i)
    }

    /// A pick weighted by `weight(item)`, walking the list in order; `None` when all weights are 0.
    pub fn weighted<'a, T>(&mut self, items: &'a [T], weight: impl Fn(&T) -> u32) -> Option<&'a T> {
        self.weighted_iter(items.iter(), |t| weight(t))
    }

    /// The same pick over any re-iterable sequence, in two passes and without building a list
    /// (for hot paths that filter a large pool).
    pub fn weighted_iter<I>(&mut self, items: I, weight: impl Fn(&I::Item) -> u32) -> Option<I::Item>
    where
        I: Iterator + Clone,
    {
        let total: u32 = items.clone().map(|i| weight(&i)).sum();
        if total == 0 {
            return None;
        }
        let mut x = self.below(total);
        for item in items {
            let w = weight(&item);
            if x < w {
                return Some(item);
            }
            x -= w;
        }
        None
    }

    /// Fisher-Yates, from the last index down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(u32::try_from(i + 1).unwrap_or(u32::MAX)) as usize;
            items.swap(i, j);
        }
    }

    /// `k` different places below `n` (all `n` when `k >= n`), in the order drawn: the first `k`
    /// steps of a Fisher-Yates shuffle from the front, so a pool of 355 entries that gives two
    /// costs two draws, not 354. Every pool a story deals from goes through it.
    pub fn deal(&mut self, n: usize, k: usize) -> Vec<usize> {
        let k = k.min(n);
        let mut order: Vec<usize> = (0..n).collect();
        for i in 0..k {
            let left = u32::try_from(n - i).unwrap_or(u32::MAX);
            let j = i + self.below(left) as usize;
            order.swap(i, j);
        }
        order.truncate(k);
        order
    }

    /// True with probability `num / den`.
    #[inline]
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }
}

/// The dice a roll table is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum DiceKind {
    /// One six-sided die: 1..6.
    #[serde(rename = "1D6")]
    D6,
    /// Two dice summed: 2..12.
    #[serde(rename = "2D6")]
    TwoD6,
    /// Two dice read lower die first: 11..66, 21 outcomes.
    #[serde(rename = "D66")]
    D66,
    /// Two dice read in order, the first as tens: 11..66, 36 outcomes.
    #[serde(rename = "D6D6")]
    D6D6,
}

impl DiceKind {
    /// Every outcome in table order.
    pub fn outcomes(self) -> Vec<u32> {
        match self {
            DiceKind::D6 => (1..=6).collect(),
            DiceKind::TwoD6 => (2..=12).collect(),
            DiceKind::D66 => (1..=6).flat_map(|lo| (lo..=6).map(move |hi| lo * 10 + hi)).collect(),
            DiceKind::D6D6 => (1..=6).flat_map(|a| (1..=6).map(move |b| a * 10 + b)).collect(),
        }
    }

    /// How the book writes it.
    pub fn label(self) -> &'static str {
        match self {
            DiceKind::D6 => "1D6",
            DiceKind::TwoD6 => "2D6",
            DiceKind::D66 => "D66",
            DiceKind::D6D6 => "D6D6",
        }
    }
}

impl fmt::Display for DiceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A dice expression `xDy+z`: `3`, `1D6`, `2D6+1`, `1D6 - 2` (spaces and case do not matter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceExpr {
    pub count: u32,
    pub sides: u32,
    pub modifier: i32,
}

impl DiceExpr {
    /// The smallest and largest results.
    pub fn range(&self) -> (i32, i32) {
        let n = self.count as i32;
        (n + self.modifier, n * self.sides as i32 + self.modifier)
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.modifier);
        }
        write!(f, "{}D{}", self.count, self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

impl FromStr for DiceExpr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("`{s}` is not a dice expression like 2D6+1");
        let text: String = s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_uppercase();
        if text.is_empty() {
            return Err(bad());
        }
        let (dice, modifier) = match text.find(['+', '-']) {
            Some(0) => ("", text.as_str()),
            Some(i) => (&text[..i], &text[i..]),
            None => (text.as_str(), ""),
        };
        let modifier: i32 = if modifier.is_empty() { 0 } else { modifier.parse().map_err(|_| bad())? };
        if dice.is_empty() {
            return Ok(DiceExpr { count: 0, sides: 6, modifier });
        }
        match dice.split_once('D') {
            None => {
                if !modifier_free(&text) {
                    return Err(bad());
                }
                let n: i32 = dice.parse().map_err(|_| bad())?;
                Ok(DiceExpr { count: 0, sides: 6, modifier: n })
            }
            Some((count, sides)) => {
                let count: u32 = if count.is_empty() { 1 } else { count.parse().map_err(|_| bad())? };
                let sides: u32 = sides.parse().map_err(|_| bad())?;
                if count == 0 || count > 100 || !(2..=100).contains(&sides) {
                    return Err(bad());
                }
                Ok(DiceExpr { count, sides, modifier })
            }
        }
    }
}

fn modifier_free(text: &str) -> bool {
    !text.contains(['+', '-'])
}

impl<'de> serde::Deserialize<'de> for DiceExpr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(i64),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(DiceExpr { count: 0, sides: 6, modifier: n as i32 }),
            Raw::S(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

impl serde::Serialize for DiceExpr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(n: usize, mut roll: impl FnMut() -> u32) -> std::collections::BTreeMap<u32, usize> {
        let mut m = std::collections::BTreeMap::new();
        for _ in 0..n {
            *m.entry(roll()).or_insert(0) += 1;
        }
        m
    }

    #[test]
    fn a_fixed_seed_gives_a_fixed_sequence() {
        let mut d = Dice::new(7);
        let rolls: Vec<u32> = (0..12).map(|_| d.d6()).collect();
        assert_eq!(rolls, GOLDEN_D6_SEED_7);
        let mut d = Dice::new(7).child("map/1/room/B2");
        let rolls: Vec<u32> = (0..8).map(|_| d.d66()).collect();
        assert_eq!(rolls, GOLDEN_D66_CHILD);
    }

    const GOLDEN_D6_SEED_7: [u32; 12] = [2, 3, 4, 3, 5, 2, 6, 3, 3, 3, 4, 5];
    const GOLDEN_D66_CHILD: [u32; 8] = [35, 24, 46, 33, 56, 44, 25, 36];

    #[test]
    fn d6_reaches_every_face_evenly() {
        let mut d = Dice::new(1);
        let c = counts(60_000, || d.d6());
        assert_eq!(c.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
        for (&face, &n) in &c {
            assert!((9_400..=10_600).contains(&n), "face {face} came {n} times of 60000");
        }
    }

    #[test]
    fn two_d6_sums_follow_the_triangle() {
        let mut d = Dice::new(2);
        let c = counts(72_000, || d.nd6(2));
        assert_eq!(c.len(), 11);
        for (&sum, &n) in &c {
            let ways = 6 - (7i32 - sum as i32).unsigned_abs() as usize;
            let expected = 72_000 * ways / 36;
            let tol = expected / 8 + 100;
            assert!(n.abs_diff(expected) <= tol, "sum {sum}: {n}, expected about {expected}");
        }
    }

    #[test]
    fn d66_reads_the_lower_die_first_giving_21_outcomes() {
        let mut d = Dice::new(3);
        let c = counts(72_000, || d.d66());
        assert_eq!(c.keys().copied().collect::<Vec<_>>(), DiceKind::D66.outcomes());
        for (&v, &n) in &c {
            // doubles have one way in 36, the rest two
            let expected = if v / 10 == v % 10 { 2_000 } else { 4_000 };
            assert!(n.abs_diff(expected) <= expected / 8, "{v}: {n}, expected about {expected}");
        }
    }

    #[test]
    fn child_streams_are_independent_of_the_parents_position() {
        let root = Dice::new(99);
        let mut used = root.clone();
        for _ in 0..50 {
            used.d6();
        }
        let a: Vec<u32> = {
            let mut c = root.child("monsters");
            (0..20).map(|_| c.d6()).collect()
        };
        let b: Vec<u32> = {
            let mut c = used.child("monsters");
            (0..20).map(|_| c.d6()).collect()
        };
        assert_eq!(a, b);
        let mut other = root.child("traps");
        let c: Vec<u32> = (0..20).map(|_| other.d6()).collect();
        assert_ne!(a, c);
        // A formatted name is the same stream as the string it formats.
        let mut x = root.child("a").child_fmt(format_args!("b/{}", 7));
        let mut y = root.child("a").child("b/7");
        assert_eq!((0..20).map(|_| x.d6()).collect::<Vec<_>>(), (0..20).map(|_| y.d6()).collect::<Vec<_>>());
        // So is a numbered one, whatever the number's digits.
        for n in [0, 7, 10, 4_294_967_295] {
            let mut x = root.child("a").child_n("map/", n, "/traps");
            let mut y = root.child("a").child(&format!("map/{n}/traps"));
            assert_eq!((0..20).map(|_| x.d6()).collect::<Vec<_>>(), (0..20).map(|_| y.d6()).collect::<Vec<_>>());
        }
    }

    /// The 64-bit rule as the module documents it.
    fn reduce_64(x: u32, n: u32) -> Option<u32> {
        let bucket = (1u64 << 32) / u64::from(n);
        let zone = bucket * u64::from(n);
        (u64::from(x) < zone).then(|| (u64::from(x) / bucket) as u32)
    }

    #[test]
    fn reduce_matches_the_64_bit_rule() {
        // Every size a table or list can have, powers of two and their neighbours, the largest
        // sizes; for each, draws at both ends, around every bucket edge near the zone's end and
        // a spread of others.
        let mut sizes: Vec<u32> = (1..=300).collect();
        for k in 1..32 {
            let p = 1u32 << k;
            sizes.extend([p - 1, p, p + 1]);
        }
        sizes.extend([u32::MAX, u32::MAX - 1, u32::MAX / 2, u32::MAX / 3, 1_000_003]);
        let mut spread = Dice::new(11);
        for &n in &sizes {
            let bucket = ((1u64 << 32) / u64::from(n)) as u32;
            let zone = (u64::from(bucket) * u64::from(n)).min(u64::from(u32::MAX)) as u32;
            let mut xs = vec![0, 1, u32::MAX, u32::MAX - 1, bucket, bucket.wrapping_sub(1)];
            for edge in [zone, zone.wrapping_sub(bucket)] {
                xs.extend((0..4).map(|k| edge.wrapping_sub(2).wrapping_add(k)));
            }
            xs.extend((0..200).map(|_| spread.rng.next_u32()));
            for x in xs {
                assert_eq!(reduce(x, n), reduce_64(x, n), "x {x}, n {n}");
            }
        }
    }

    #[test]
    fn below_is_unbiased_for_awkward_sizes() {
        let mut d = Dice::new(4);
        let c = counts(70_000, || d.below(7));
        assert_eq!(c.len(), 7);
        for &n in c.values() {
            assert!(n.abs_diff(10_000) < 700);
        }
    }

    #[test]
    fn weighted_choice_follows_the_weights() {
        let mut d = Dice::new(5);
        let items = [("a", 1u32), ("b", 3), ("never", 0)];
        let mut a: u32 = 0;
        for _ in 0..40_000 {
            match d.weighted(&items, |i| i.1).map(|i| i.0) {
                Some("a") => a += 1,
                Some("b") => {}
                other => panic!("picked {other:?}"),
            }
        }
        assert!(a.abs_diff(10_000) < 600, "a picked {a} of 40000");
        assert_eq!(d.weighted(&items[2..], |i| i.1), None);
        assert_eq!(d.choose::<u8>(&[]), None);
    }

    #[test]
    fn shuffle_keeps_every_item() {
        let mut d = Dice::new(6);
        let mut v: Vec<u32> = (0..30).collect();
        d.shuffle(&mut v);
        assert_ne!(v, (0..30).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..30).collect::<Vec<_>>());
    }

    #[test]
    fn dice_expressions_parse_and_print() {
        let e: DiceExpr = "2D6+1".parse().unwrap();
        assert_eq!(e, DiceExpr { count: 2, sides: 6, modifier: 1 });
        assert_eq!(e.to_string(), "2D6+1");
        assert_eq!("1d6 - 2".parse::<DiceExpr>().unwrap().to_string(), "1D6-2");
        assert_eq!("D6".parse::<DiceExpr>().unwrap().to_string(), "1D6");
        assert_eq!("3".parse::<DiceExpr>().unwrap().to_string(), "3");
        assert_eq!("3".parse::<DiceExpr>().unwrap().range(), (3, 3));
        assert_eq!("2D6+1".parse::<DiceExpr>().unwrap().range(), (3, 13));
        for bad in ["", "D", "2D", "xD6", "1D6+", "2D1", "3+4"] {
            assert!(bad.parse::<DiceExpr>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn rolled_expressions_stay_in_range_and_reach_both_ends() {
        let mut d = Dice::new(8);
        let e: DiceExpr = "2D6+1".parse().unwrap();
        let c = counts(20_000, || d.roll(&e) as u32);
        assert_eq!(c.keys().next(), Some(&3));
        assert_eq!(c.keys().last(), Some(&13));
    }
}
