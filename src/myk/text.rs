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

/// A number's decimal digits, written on the stack (as `Display` writes them).
pub(crate) struct Digits {
    buf: [u8; 10],
    at: usize,
}

impl Digits {
    pub(crate) fn new(n: u32) -> Digits {
        let mut d = Digits { buf: [0; 10], at: 10 };
        let mut rest = n;
        loop {
            d.at -= 1;
            d.buf[d.at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        d
    }

    pub(crate) fn as_str(&self) -> &str {
        // ASCII digits are valid UTF-8.
        std::str::from_utf8(&self.buf[self.at..]).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_read_as_display_writes_them() {
        for n in [0, 7, 10, 99, 100, 12_345, u32::MAX] {
            assert_eq!(Digits::new(n).as_str(), n.to_string());
        }
    }

    #[test]
    fn concat_joins_in_order_in_exactly_the_room_needed() {
        let s = concat(&["Room ", "B2", " (", "x", ")."]);
        assert_eq!(s, "Room B2 (x).");
        assert_eq!(s.capacity(), s.len());
        assert_eq!(concat(&[]), "");
    }
}
