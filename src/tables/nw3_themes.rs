//! The Ruler's story as the tables must hold it (issue 47, item 3): every themed pool entry and
//! every persona and Core names a declared `[[theme]]`, and each theme has every part. Checked at
//! load, with the tables; the drawing and `check` live in [`crate::nw3::ruler_story`].

use crate::error::{Error, Result};
use crate::tables::nw3_episode::{EpisodeData, ThemedLine};

/// Every themed entry of the episode pools names a declared `[[theme]]`, and every theme has a
/// former life, a wish, a keyword and a place reason.
pub fn validate_pools(e: &EpisodeData, err: &dyn Fn(String) -> Error) -> Result<()> {
    if e.theme.is_empty() {
        return Err(err("the episode pools need at least 1 [[theme]] (found 0)".into()));
    }
    let declared = |t: &str| e.theme.iter().any(|x| x.name == t);
    for (i, t) in e.theme.iter().enumerate() {
        if e.theme[..i].iter().any(|x| x.name == t.name) {
            return Err(err(format!("the [[theme]] `{}` is declared twice", t.name)));
        }
    }
    let unknown = |section: &str, entry: &str, theme: &str| {
        err(format!(
            "[[{section}]] `{}` has the theme `{theme}`, which no [[theme]] declares",
            super::nw3_episode::short(entry)
        ))
    };
    for (section, list) in e.themed() {
        if let Some(l) = list.iter().find(|l| !declared(&l.theme)) {
            return Err(unknown(section, &l.text, &l.theme));
        }
    }
    if let Some(k) = e.keyword.iter().find(|k| !declared(&k.theme)) {
        return Err(unknown("keyword", &k.word, &k.theme));
    }
    for t in &e.theme {
        let has = |list: &[ThemedLine]| list.iter().any(|l| l.theme == t.name);
        let parts = e.themed().map(|(section, list)| (section, has(list)));
        let keyword = ("keyword", e.keyword.iter().any(|k| k.theme == t.name));
        if let Some((section, _)) = parts.into_iter().chain([keyword]).find(|(_, has)| !has) {
            return Err(err(format!("the [[theme]] `{}` has no [[{section}]] entry", t.name)));
        }
    }
    Ok(())
}

/// A persona or Core of another table file, with the theme it names.
pub struct Themed {
    pub(crate) file: String,
    pub(crate) section: &'static str,
    pub(crate) name: String,
    pub(crate) theme: String,
}

/// Every persona and Core names a theme of the episode pools (in `episode_file`), and every
/// theme has a persona and a Core.
pub fn validate_records(e: &EpisodeData, episode_file: &str, records: &[Themed]) -> Result<()> {
    validate_pools(e, &|message| Error::TableFile { file: episode_file.to_string(), message })?;
    if let Some(r) = records.iter().find(|r| !e.theme.iter().any(|t| t.name == r.theme)) {
        let message = if r.theme.is_empty() {
            format!("[[{}]] `{}` has no `theme` (one of the [[theme]]s of `{episode_file}`)", r.section, r.name)
        } else {
            format!(
                "[[{}]] `{}` has the theme `{}`, which no [[theme]] of `{episode_file}` declares",
                r.section, r.name, r.theme
            )
        };
        return Err(Error::TableFile { file: r.file.clone(), message });
    }
    for t in &e.theme {
        for section in ["nw3.ruler", "nw3.core"] {
            if !records.iter().any(|r| r.section == section && r.theme == t.name) {
                let message = format!("the [[theme]] `{}` has no [[{section}]] entry", t.name);
                return Err(Error::TableFile { file: episode_file.to_string(), message });
            }
        }
    }
    Ok(())
}
