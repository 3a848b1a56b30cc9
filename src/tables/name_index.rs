//! Names → record positions for the hot look-ups (roll tables, traps, bases, monsters by name).
//!
//! A `BTreeMap<String, usize>` walk compares the name with a dozen keys (a `memcmp` each); here a
//! name is hashed once (eight bytes at a step, fixed by its definition: no random state, no
//! `HashMap`) into an open-addressed table of positions, then confirmed by one string comparison.
//! The hash only places entries in the index; nothing it decides reaches any output.

/// Positions of names in a table at least twice their number, by hash, probed linearly.
#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    /// Position + 1 of a name, or 0 for a free slot; the length is a power of two.
    slots: Vec<u32>,
}

impl NameIndex {
    /// Indexes names by position in the list.
    pub fn new<'a>(names: impl Iterator<Item = &'a str> + Clone) -> NameIndex {
        let n = names.clone().count();
        let mut slots = vec![0u32; (2 * n).max(8).next_power_of_two()];
        let mask = slots.len() - 1;
        // In position order: a repeated name lands after its first record, which a look-up finds
        // first (validation refuses repeats; the first record wins as it always did).
        for (i, name) in names.enumerate() {
            let mut at = hash(name.as_bytes()) as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = i as u32 + 1;
        }
        NameIndex { slots }
    }

    /// The first position whose name is `name`; `name_at` gives the name at a position (the
    /// index keeps only positions, so it holds no copy of the names).
    #[inline]
    pub fn get<'a>(&self, name: &str, name_at: impl Fn(usize) -> &'a str) -> Option<usize> {
        self.get_bytes(name.as_bytes(), name_at)
    }

    /// [`NameIndex::get`] for a name as bytes (a name folded to lower case in a buffer needs no
    /// second check that it is text: only equal bytes are found).
    // Inline: a look-up is a hash and one comparison, called from every module that reads a
    // record by name; a call across the build's code units cost as much as the look-up.
    #[inline]
    pub fn get_bytes<'a>(&self, name: &[u8], name_at: impl Fn(usize) -> &'a str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(name) as usize & mask;
        loop {
            let i = *self.slots.get(at)? as usize;
            if i == 0 {
                return None;
            }
            let found = name_at(i - 1);
            // A scenario's names share the tables' text (`SharedStr`): the same bytes at the same
            // address need no comparison.
            if (std::ptr::eq(found.as_ptr(), name.as_ptr()) && found.len() == name.len()) || found.as_bytes() == name {
                return Some(i - 1);
            }
            at = (at + 1) & mask;
        }
    }
}

/// A multiply-rotate hash over little-endian words, the last word read overlapping the one
/// before (the names are short, so a byte-serial hash would cost more than the look-up).
#[inline]
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let step = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(29);
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let n = bytes.len();
    let mut h = n as u64;
    if n >= 8 {
        let mut at = 0;
        while at + 8 < n {
            h = step(h, word(at));
            at += 8;
        }
        h = step(h, word(n - 8));
    } else {
        h = step(h, bytes.iter().enumerate().fold(0u64, |w, (k, &b)| w | u64::from(b) << (8 * k)));
    }
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_finds_its_first_record_and_an_unknown_name_none() {
        let names = ["Pit", "Arrow Trap", "Pit", "Gate Keeper"];
        let index = NameIndex::new(names.iter().copied());
        let at = |i: usize| names[i];
        assert_eq!(index.get("Pit", at), Some(0));
        assert_eq!(index.get("Arrow Trap", at), Some(1));
        assert_eq!(index.get("Gate Keeper", at), Some(3));
        assert_eq!(index.get("Pi", at), None);
        assert_eq!(index.get("", at), None);
        assert_eq!(NameIndex::default().get("Pit", at), None);
    }

    #[test]
    fn every_built_in_record_is_found_by_its_name() {
        let t = crate::tables::Tables::embedded().expect("embedded tables load");
        for (i, m) in t.myk.monsters.iter().enumerate() {
            assert!(std::ptr::eq(t.myk.monster(&m.name).expect("found"), &t.myk.monsters[i]), "{}", m.name);
        }
        for l in &t.rolls {
            assert!(std::ptr::eq(t.roll_table(&l.item.name).expect("found"), &l.item), "{}", l.item.name);
        }
        assert!(t.myk.trap("No Such Trap").is_none());
    }
}
