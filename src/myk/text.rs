//! Text joined from pieces without `format!`: the generator writes a few sentences per scenario
//! (clues, title, objective), and `format!` spent more time in its machinery, and in growing its
//! string, than in the text. Each sentence is one allocation of exactly its length; the words are
//! the same as the `format!` they replace (the golden tests hold every byte).

/// The pieces, joined, in a string of exactly their length.
pub(crate) fn concat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concat_joins_in_order_in_exactly_the_room_needed() {
        let s = concat(&["Room ", "B2", " (", "x", ")."]);
        assert_eq!(s, "Room B2 (x).");
        assert_eq!(s.capacity(), s.len());
        assert_eq!(concat(&[]), "");
    }
}
