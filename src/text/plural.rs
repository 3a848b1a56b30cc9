//! The plural of a name as the booklets count it ("2 Assassins of XLVII", "3 Medicine Men",
//! "2 Cup Men"): the spelling rules on the head noun, which is the last word before " of " ("X of
//! Y" counts its X) or else the last word; the "-man" words take "-men" except the few that are
//! not compounds of "man" (Human, Shaman); a word already plural ("Men", "Children") stays.

/// Words ending in "man" that are not compounds of "man" and so take a plain "s".
const MANS: [&str; 12] = [
    "human", "shaman", "talisman", "caiman", "cayman", "hanuman", "german", "ottoman", "roman", "doberman", "brahman",
    "dolman",
];

/// Words ending in "men" that are singular and so are no plural already.
const SINGULAR_MEN: [&str; 14] = [
    "omen", "amen", "specimen", "abdomen", "regimen", "stamen", "acumen", "bremen", "hymen", "semen", "yemen", "lumen",
    "cognomen", "gravamen",
];

/// Irregular plurals by whole word (either letter case of the first letter).
const IRREGULAR: [(&str, &str); 5] =
    [("child", "children"), ("person", "people"), ("foot", "feet"), ("tooth", "teeth"), ("mouse", "mice")];

/// Words already plural: counted as they are.
const ALREADY: [&str; 6] = ["men", "women", "children", "people", "feet", "teeth"];

/// Nouns that are the same in the plural.
const SAME: [&str; 3] = ["sheep", "fish", "deer"];

/// The plural of `noun` (see the module's rules).
pub fn plural(noun: &str) -> String {
    // "Assassin of XLVII": the head before the first " of " takes the plural, the rest stays.
    if let Some(i) = noun.find(" of ")
        && i > 0
    {
        return [plural(&noun[..i]).as_str(), &noun[i..]].concat();
    }
    let (head, last) = match noun.rfind(' ') {
        Some(i) => noun.split_at(i + 1),
        None => ("", noun),
    };
    [head, &word(last)].concat()
}

/// The plural of one word.
fn word(last: &str) -> String {
    let lower = last.to_ascii_lowercase();
    let ends = |e: &str| lower.ends_with(e);
    if ALREADY.contains(&lower.as_str()) || SAME.iter().any(|s| ends(s)) || men_compound(&lower) {
        return last.to_string();
    }
    if let Some((s, p)) = IRREGULAR.iter().find(|(s, _)| ends(s)) {
        return keep_case(last, s.len(), p);
    }
    if ends("man") && !MANS.contains(&lower.as_str()) {
        // Man, Woman, Bagman, Snowman: the "a" becomes an "e" where it stands.
        let a = last.len() - 2;
        return [&last[..a], "e", &last[a + 1..]].concat();
    }
    if ["s", "x", "z", "ch", "sh"].iter().any(|e| ends(e)) {
        [last, "es"].concat()
    } else if lower.len() > 1 && ends("y") && !lower[..lower.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']) {
        [&last[..last.len() - 1], "ies"].concat()
    } else if ends("lf") {
        // Wolf, Elf, Werewolf.
        [&last[..last.len() - 1], "ves"].concat()
    } else {
        [last, "s"].concat()
    }
}

/// Whether `lower` is the plural of a "-man" compound ("bagmen", "snowmen"): it ends in "men",
/// is no singular "-men" word, and its singular is no "-mans" word.
fn men_compound(lower: &str) -> bool {
    lower.len() > 3
        && lower.ends_with("men")
        && !SINGULAR_MEN.contains(&lower)
        && !MANS.contains(&[&lower[..lower.len() - 2], "an"].concat().as_str())
}

/// `word` with its last `cut` bytes replaced by `tail`, the first letter's case kept when the
/// replaced part began the word ("Child" -> "Children").
fn keep_case(word: &str, cut: usize, tail: &str) -> String {
    let stem = &word[..word.len() - cut];
    if stem.is_empty() && word.starts_with(|c: char| c.is_ascii_uppercase()) {
        crate::text::capitalise(tail)
    } else {
        [stem, tail].concat()
    }
}

#[cfg(test)]
mod tests {
    use super::plural;
    use crate::text::count;

    /// "X of Y" counts its X: the head noun before " of " takes the plural.
    #[test]
    fn the_plural_of_x_of_y_pluralises_the_head_noun() {
        assert_eq!(plural("Assassin of XLVII"), "Assassins of XLVII");
        assert_eq!(plural("Lord of the Flies"), "Lords of the Flies");
        assert_eq!(plural("Ball of Red Stitches"), "Balls of Red Stitches");
        assert_eq!(plural("Angel of Death"), "Angels of Death");
        assert_eq!(count(2, "Hourglass of Red Sand"), "2 Hourglasses of Red Sand");
        assert_eq!(count(1, "Assassin of XLVII"), "1 Assassin of XLVII");
    }

    /// The "-man" words take "-men"; those that are no compound of "man" take "s"; a word
    /// already plural is counted as it is.
    #[test]
    fn the_plural_of_a_man_word_is_men_and_a_plural_stays() {
        assert_eq!(plural("Medicine Man"), "Medicine Men");
        assert_eq!(plural("Lizard Man"), "Lizard Men");
        assert_eq!(plural("Bagman"), "Bagmen");
        assert_eq!(plural("Woman"), "Women");
        assert_eq!(plural("Cup Men"), "Cup Men");
        assert_eq!(plural("Snowmen"), "Snowmen");
        assert_eq!(plural("Human"), "Humans");
        assert_eq!(plural("Hanuman"), "Hanumans");
        assert_eq!(plural("Shaman"), "Shamans");
        assert_eq!(plural("Bremen"), "Bremens");
        assert_eq!(plural("Omen"), "Omens");
        assert_eq!(plural("Child"), "Children");
        assert_eq!(plural("Children"), "Children");
        assert_eq!(plural("Fish"), "Fish");
        assert_eq!(count(2, "Cup Men"), "2 Cup Men");
    }
}
