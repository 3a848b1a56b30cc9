//! The PDF booklet's page style, read from the `pdf.toml` template (a GM overrides it with
//! `--templates DIR` like any other template; it is rendered with the paper's name first, so it
//! may differ per paper).

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::model::Paper;
use crate::render::text::Templates;

/// Margins in millimetres.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Margins {
    pub top: f32,
    pub bottom: f32,
    pub left: f32,
    pub right: f32,
}

/// Sizes in points; the header and footer texts with `{title}`, `{page}`, `{pages}` filled in.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Style {
    pub margin_mm: Margins,
    pub body_pt: f32,
    pub line_height: f32,
    /// Heading sizes for levels 1, 2, 3 (deeper levels use the last).
    pub heading_pt: Vec<f32>,
    pub table_pt: f32,
    /// Indent per list level, in points.
    pub list_indent_pt: f32,
    pub paragraph_gap_pt: f32,
    pub heading_gap_pt: f32,
    pub header_pt: f32,
    pub header: String,
    pub footer: String,
    /// Grey (0 black - 255 white) of the header, footer and table rules.
    pub grey: u8,
}

impl Style {
    /// The style the templates give for `paper`.
    pub fn load(templates: &Templates, paper: Paper) -> Result<Style> {
        let text = templates.render("pdf.toml", &serde_json::json!({ "paper": paper.label() }))?;
        // Through the tables' blob reader, not toml's deserializer: one TOML deserializer in the
        // binary (issue 36).
        let style: Style =
            crate::tables::blob::from_toml(&text, |r| Style::deserialize(r)).map_err(|(_, message)| {
                Error::Template {
                    name: "pdf.toml".into(),
                    message: message.lines().next().unwrap_or("not a page style").to_lowercase(),
                }
            })?;
        let sizes = [style.body_pt, style.table_pt, style.header_pt, style.line_height];
        let ok = sizes.iter().chain(&style.heading_pt).all(|s| s.is_finite() && *s > 0.0 && *s <= 72.0)
            && !style.heading_pt.is_empty()
            && [style.margin_mm.top, style.margin_mm.bottom, style.margin_mm.left, style.margin_mm.right]
                .iter()
                .all(|m| m.is_finite() && (0.0..=60.0).contains(m))
            && [style.list_indent_pt, style.paragraph_gap_pt, style.heading_gap_pt]
                .iter()
                .all(|g| g.is_finite() && (0.0..=72.0).contains(g));
        if !ok {
            return Err(Error::Template {
                name: "pdf.toml".into(),
                message: "sizes must be above 0 and at most 72 pt, margins 0 to 60 mm, gaps 0 to 72 pt".into(),
            });
        }
        Ok(style)
    }

    pub fn heading(&self, level: u8) -> f32 {
        let i = usize::from(level.max(1) - 1).min(self.heading_pt.len() - 1);
        self.heading_pt[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page style goes through the tables' blob reader: a broken one gets the words toml's
    /// deserializer gave it, and a good one the same numbers.
    #[test]
    fn a_page_style_reads_as_toml_read_it() {
        let good = std::fs::read_to_string("templates/pdf.toml").expect("the built-in page style");
        let good = good.replace("{{ paper }}", "a4").replace("{%", "#").replace("{{", "#");
        let read = |text: &str| crate::tables::blob::from_toml(text, |r| Style::deserialize(r)).map_err(|e| e.1);
        for text in ["body_pt = \"big\"\n".to_string(), good.replace("grey", "gray"), good.clone()] {
            let ours = read(&text).map(|s| format!("{s:?}"));
            let toml = toml::from_str::<Style>(&text).map(|s| format!("{s:?}")).map_err(|e| e.message().to_string());
            assert_eq!(ours, toml, "{text}");
        }
    }
}
