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

#[test]
fn every_range_error_has_one_wording_naming_the_option() {
    let cases: [(&[&str], &str); 12] = [
        (&["fortress", "--areas", "0"], "`--areas` must be 3 to 40, got 0"),
        (&["fortress", "--party", "9"], "`--party` must be 1 to 8, got 9"),
        (&["fortress", "--cl", "21"], "`--cl` must be 1 to 20, got 21"),
        (&["fortress", "--party-attack", "100"], "`--party-attack` must be 0 to 99, got 100"),
        (&["fortress", "--party-defence", "100"], "`--party-defence` must be 0 to 99, got 100"),
        (&["fortress", "--party-hp", "0"], "`--party-hp` must be 1 to 999, got 0"),
        (&["myk", "--maps", "0"], "`--maps` must be 1 to 20, got 0"),
        (&["myk", "--rooms", "2"], "`--rooms` must be 3 to 9, got 2"),
        (&["myk", "--level", "0"], "`--level` must be 1 to 30, got 0"),
        (&["myk", "--court-size", "13"], "`--court-size` must be 1 to 12, got 13"),
        (&["myk", "--levels", "2,0"], "`--levels` must be 1 to 30, got 0"),
        (&["myk", "--levels", "2,2,2,2,2,2,2,2,2,2,2,2,2"], "`--levels` must be 1 to 12 levels, got 13"),
    ];
    for (args, line) in cases {
        let (code, out, err) = run(args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert_eq!(err, format!("error: {line}\n"), "{args:?}");
    }
}
