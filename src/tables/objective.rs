//! The kinds of objective a MYK scenario has: plain data, defined here because the story tables
//! hold a list per kind (`story::StoryPools::of_kind`); the game (`crate::myk::model`) re-exports
//! it, so the tables name nothing of the game.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The kinds of objective (seed 003 l.5105: defeating, searching, acquiring, or anything else).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectiveKind {
    Defeat,
    Rescue,
    Acquire,
    Search,
    Deliver,
    WinOver,
    Race,
}

impl ObjectiveKind {
    pub const ALL: [ObjectiveKind; 7] = [
        ObjectiveKind::Defeat,
        ObjectiveKind::Rescue,
        ObjectiveKind::Acquire,
        ObjectiveKind::Search,
        ObjectiveKind::Deliver,
        ObjectiveKind::WinOver,
        ObjectiveKind::Race,
    ];

    /// The name in files, tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ObjectiveKind::Defeat => "defeat",
            ObjectiveKind::Rescue => "rescue",
            ObjectiveKind::Acquire => "acquire",
            ObjectiveKind::Search => "search",
            ObjectiveKind::Deliver => "deliver",
            ObjectiveKind::WinOver => "win_over",
            ObjectiveKind::Race => "race",
        }
    }
}

impl FromStr for ObjectiveKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.replace('-', "_");
        ObjectiveKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<&str> = ObjectiveKind::ALL.iter().map(|k| k.name()).collect();
            format!("`{s}` is not an objective kind ({})", names.join(", "))
        })
    }
}
