//! The known names nearest to a mistyped one, offered in an error ("did you mean ...?"): one rule
//! for every place a name is looked up (the fix of a scenario's names, an object's kinds, `tables
//! show` and `tables roll`).

/// Names offered when a name is not known.
const SUGGESTIONS: usize = 3;

/// Up to [`SUGGESTIONS`] known names nearest to `name`: fewest single-character edits, ignoring
/// case, with names that contain it (or that it contains) first; ties keep table order. Names too
/// far off to be a typo (more edits than half the longer name) are not offered.
pub fn nearest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let want = name.to_lowercase();
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (i, k) in known.enumerate() {
        if scored.iter().any(|s| s.2 == k) {
            continue;
        }
        let low = k.to_lowercase();
        let contains = !want.is_empty() && (low.contains(&want) || want.contains(&low));
        let d = if contains { 0 } else { strsim::levenshtein(&want, &low) };
        let longer = want.chars().count().max(low.chars().count());
        if contains || d * 2 <= longer {
            scored.push((d, i, k));
        }
    }
    scored.sort_by_key(|&(d, i, _)| (d, i));
    scored.into_iter().take(SUGGESTIONS).map(|(_, _, k)| k).collect()
}

/// ` (did you mean `a`, `b` or `c`?)`-style hint for `name` among `known`; empty when none is near.
pub fn hint<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> String {
    match nearest(name, known).as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        [rest @ .., last] => format!(
            "; did you mean {} or `{last}`?",
            rest.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_names_come_first_and_far_names_are_not_offered() {
        let known = ["Goblin", "Hobgoblin", "Slime", "Goblin Rider"];
        assert_eq!(nearest("goblim", known.into_iter())[0], "Goblin");
        assert_eq!(nearest("goblin", known.into_iter()), ["Goblin", "Hobgoblin", "Goblin Rider"]);
        assert!(nearest("Dragon", known.into_iter()).is_empty());
    }
}
