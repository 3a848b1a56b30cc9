//! A number's decimal digits written on the stack, as `Display` writes them, for the few hot
//! places that put numbers into text (dice stream names, clue sentences, SVG lengths) where
//! `core::fmt`'s machinery cost more than the digits.

/// The digits of one number (no sign, no leading zeros; "0" for zero).
pub(crate) struct Digits {
    buf: [u8; 20],
    at: usize,
}

impl Digits {
    pub(crate) fn new(n: u64) -> Digits {
        let mut d = Digits { buf: [0; 20], at: 20 };
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
        for n in [0, 7, 10, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(Digits::new(n).as_str(), n.to_string());
        }
    }
}
