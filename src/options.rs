//! A game option as the GM sets it, declared once per option (name, range, help, default) in each
//! game's params module ([`crate::myk::params::OPTIONS`], [`crate::nw3::params::OPTIONS`]). That
//! declaration feeds the command line's help and defaults, the permalink's field names and
//! defaults, and the workbench's form (which the page's script reads), so the three cannot drift.

use std::ops::RangeInclusive;

/// What values an option takes.
#[derive(Clone, Debug)]
pub enum Input {
    /// A whole number in the range; `default`: the value when the option is absent (`None`: the
    /// option stays absent, e.g. the model PC's own number).
    Number { range: RangeInclusive<u32>, default: Option<u32> },
    /// Comma-separated whole numbers, each in the range (a mixed court's levels).
    Numbers { range: RangeInclusive<u32> },
    /// One of these words; the first is the default.
    Choice(&'static [&'static str]),
    /// One of the words the tables give at run time (the objective kinds); absent: rolled.
    Rolled,
    /// Free text the option's own parser checks (a kingdom's name, a list of classes); absent:
    /// the option's default, which its help line says.
    Text,
}

/// One option of a game.
#[derive(Clone, Debug)]
pub struct Opt {
    /// The command line's long option without `--`, and the permalink's field (`court-size`).
    pub name: &'static str,
    /// The workbench form's label.
    pub label: &'static str,
    /// The help line; `{range}` and `{default}` stand for the declared range and default.
    pub help: &'static str,
    pub input: Input,
    /// The form's hint in a blank field (`model`: the model PC's number applies).
    pub placeholder: &'static str,
    /// Options this one replaces when given (`levels` sets the court size and every level).
    pub replaces: &'static [&'static str],
}

impl Opt {
    /// The help line with its range and default written in.
    pub fn help_text(&self) -> String {
        let range = self.range().map(|r| format!("{}-{}", r.start(), r.end())).unwrap_or_default();
        self.help.replace("{range}", &range).replace("{default}", &self.default_text())
    }

    /// The range of a number, or of each number of a list.
    pub fn range(&self) -> Option<&RangeInclusive<u32>> {
        match &self.input {
            Input::Number { range, .. } | Input::Numbers { range } => Some(range),
            Input::Choice(_) | Input::Rolled | Input::Text => None,
        }
    }

    /// The default as typed (empty when the option has none).
    pub fn default_text(&self) -> String {
        match &self.input {
            Input::Number { default: Some(d), .. } => d.to_string(),
            Input::Choice(words) => words.first().map_or_else(String::new, |w| (*w).to_string()),
            _ => String::new(),
        }
    }

    /// The default of a number option that has one. Called in constants, so an option declared
    /// without one fails the build rather than a run.
    pub const fn number_default(&self) -> u32 {
        match self.input {
            Input::Number { default: Some(d), .. } => d,
            _ => panic!("not a number option with a default"),
        }
    }

    /// The words of a choice (empty for any other option).
    pub fn choices(&self) -> &'static [&'static str] {
        match self.input {
            Input::Choice(words) => words,
            _ => &[],
        }
    }
}

/// The permalink field names of `options`, in their order.
pub fn names(options: &[Opt]) -> Vec<&'static str> {
    options.iter().map(|o| o.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_line_writes_in_the_declared_range_and_default() {
        let o = Opt {
            name: "x",
            label: "X",
            help: "Things, {range} [default: {default}].",
            input: Input::Number { range: 3..=9, default: Some(4) },
            placeholder: "",
            replaces: &[],
        };
        assert_eq!(o.help_text(), "Things, 3-9 [default: 4].");
    }
}
