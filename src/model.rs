//! What both systems' scenarios share, below every stage that reads them (render, edit, cli,
//! serve): the paper a scenario is made for, the rerolls it records, and the output formats.

use serde::{Deserialize, Serialize};

/// The scenario file format this program writes, for both systems: the generators stamp it, and
/// `crate::format` (as its `CURRENT`) upgrades an older file to it.
pub const FILE_FORMAT: u32 = 7;

/// Paper for the printable sheets; sizes in millimetres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    /// The default, and what files written before the paper was remembered were made for.
    #[default]
    A4,
    Letter,
}

impl Paper {
    /// Every paper, in the order the help lists them.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// Width and height in millimetres, portrait.
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// As printed on a sheet ("A4").
    pub fn label(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        }
    }

    /// As given on the command line and in a permalink ("a4").
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }
}

/// Output formats, in the order a run renders and lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    Json,
    Svg,
    Md,
    Html,
    /// The area/gate graph (or the MYK movement graph) as GraphViz DOT.
    Dot,
    /// Universal VTT maps (`*.dd2vtt`) for Foundry, Owlbear Rodeo, Fantasy Grounds, Arkenforge.
    Uvtt,
    /// Udonarium room data (a zip to drop on Udonarium's window).
    Udonarium,
    /// One print-ready PDF: GM sheets, scenario text, players' sheets.
    Pdf,
}

impl Format {
    /// Every format, in the order the help lists them.
    pub const ALL: [Format; 8] = [
        Format::Json,
        Format::Svg,
        Format::Md,
        Format::Html,
        Format::Dot,
        Format::Uvtt,
        Format::Udonarium,
        Format::Pdf,
    ];

    /// As given on the command line (`--format json,svg`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Svg => "svg",
            Format::Md => "md",
            Format::Html => "html",
            Format::Dot => "dot",
            Format::Uvtt => "uvtt",
            Format::Udonarium => "udonarium",
            Format::Pdf => "pdf",
        }
    }

    /// What the format is for, as the help says it (none for the self-explanatory ones).
    pub fn help(self) -> Option<&'static str> {
        match self {
            Format::Uvtt => {
                Some("Universal VTT maps (`*.dd2vtt`) for Foundry, Owlbear Rodeo, Fantasy Grounds, Arkenforge")
            }
            Format::Dot => Some("The area/gate graph (MYK: the movement graph) as GraphViz DOT"),
            Format::Udonarium => Some("Udonarium room data (a zip to drop on Udonarium's window)"),
            Format::Pdf => Some("One print-ready PDF: GM sheets, scenario text, players' sheets"),
            Format::Json | Format::Svg | Format::Md | Format::Html => None,
        }
    }
}

/// One reroll as the scenario records it, replayed in order after generation: the part's path
/// (e.g. `map1/B2/monsters`, `area5/enemies`, `frame`) and which reroll of that part it was
/// (1 for the first), so the part's dice stream is `seed + path + n`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reroll {
    pub part: String,
    pub n: u32,
}

/// Serde helper: skip `false` flags so files without locks stay byte-identical.
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
