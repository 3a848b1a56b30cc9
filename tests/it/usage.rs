//! The command line as a new user meets it: bare `tables`, typos, a negative seed, range errors.

use crate::run;

#[test]
fn bare_tables_lists_the_tables_and_exits_0() {
    let (code, out, err) = run(&["tables"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!((code, out), {
        let (code, out, _) = run(&["tables", "list"]);
        (code, out)
    });
}

#[test]
fn a_mistyped_option_names_the_option_meant() {
    let (code, out, err) = run(&["myk", "--sed", "42"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.trim_end().ends_with("did you mean `--seed`?"), "{err}");
    let (code, _, err) = run(&["fortress", "--area", "12"]);
    assert_eq!(code, 2);
    assert!(err.trim_end().ends_with("did you mean `--areas`?"), "{err}");
}

#[test]
fn a_negative_seed_says_what_a_seed_is() {
    for game in ["myk", "fortress"] {
        let (code, _, err) = run(&[game, "--seed", "-1"]);
        assert_eq!(code, 2);
        assert_eq!(err, format!("error: `--seed` must be a number 0 to {}, got -1\n", u64::MAX));
    }
    let (code, _, err) = run(&["tables", "roll", "myk.bases", "--seed", "x"]);
    assert_eq!(code, 2);
    assert_eq!(err, format!("error: `--seed` must be a number 0 to {}, got x\n", u64::MAX));
}
