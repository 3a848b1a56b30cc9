//! The workbench form's game options, written from each game's one declaration of its options
//! ([`crate::options`]): a row per option with its range and hint, in a block the page shows for
//! that game only. The page's script reads the fields from here (`data-game`, `data-replaces`)
//! rather than listing them itself.

use std::fmt::Write;

use crate::document::Game;
use crate::options::{Input, Opt};
use crate::render::booklet::Reference;
use crate::render::svgkit::xml_escape;
use crate::tables::Tables;

/// Where the page takes the game options' blocks.
pub const GAME_OPTIONS: &str = "<!-- game options -->";

/// Every game's block of option rows.
pub fn game_options(tables: &Tables) -> String {
    let mut html = String::new();
    for game in Game::ALL {
        let g = game.command();
        let _ = writeln!(html, "<div class=\"{g}-only\" data-game=\"{g}\">");
        for o in game.options() {
            let _ = writeln!(
                html,
                "  <div class=\"row\"><label for=\"{}\">{}</label>{}</div>",
                o.name,
                o.label,
                field(o, tables)
            );
        }
        html.push_str("</div>\n");
    }
    html
}

/// Where the page takes the booklet's reference choice.
pub const REFERENCE_OPTION: &str = "<!-- reference option -->";

/// The form's row choosing where the booklet's part two goes: the command line's words and help
/// ([`Reference::ALL`]), the default first, so the form, `--reference` and the permalink agree.
pub fn reference_option() -> String {
    let options: String = Reference::ALL
        .iter()
        .map(|r| format!("<option value=\"{0}\" title=\"{1}\">{0}</option>", r.name(), xml_escape(r.help())))
        .collect();
    format!(
        "<div class=\"row\"><label for=\"reference\">Reference</label><select id=\"reference\" name=\"reference\" \
         title=\"where the booklet's part two (tables, skills, items, glossary, rules) goes\">{options}</select></div>"
    )
}

/// The input or select of one option.
fn field(o: &Opt, tables: &Tables) -> String {
    let n = o.name;
    let mut attrs = format!("id=\"{n}\" name=\"{n}\"");
    if !o.placeholder.is_empty() {
        let _ = write!(attrs, " placeholder=\"{}\"", o.placeholder);
    }
    if !o.replaces.is_empty() {
        let _ = write!(attrs, " data-replaces=\"{}\"", o.replaces.join(" "));
    }
    match &o.input {
        Input::Number { range, .. } => {
            format!("<input {attrs} type=\"number\" min=\"{}\" max=\"{}\">", range.start(), range.end())
        }
        Input::Numbers { .. } | Input::Text => format!("<input {attrs}>"),
        Input::Choice(words) => {
            let options: String = words.iter().map(|w| format!("<option>{w}</option>")).collect();
            format!("<select {attrs}>{options}</select>")
        }
        Input::Rolled => {
            // Labelled from the story tables, so a kind added there shows in the picker.
            let options: String = crate::workbench::objective_choices(tables)
                .into_iter()
                .map(|(value, label)| format!("<option value=\"{value}\">{}</option>", xml_escape(&label)))
                .collect();
            format!("<select {attrs}><option value=\"\">any</option>{options}</select>")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The options of `game` as clap knows them: long name, help line, possible values, default.
    fn clap_options(game: Game) -> Vec<(String, String, Vec<String>, Option<String>)> {
        let cli = crate::cli::Cli::command();
        let sub = cli.find_subcommand(game.command()).expect("a subcommand per game");
        let skip =
            ["seed", "from", "reroll", "out", "format", "paper", "reference", "templates", "tables", "help", "version"];
        sub.get_arguments()
            .filter_map(|a| Some((a.get_long()?.to_string(), a)))
            .filter(|(l, _)| !skip.contains(&l.as_str()))
            .map(|(l, a)| {
                let help = a.get_help().map(ToString::to_string).unwrap_or_default();
                let values = a.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
                let default = a.get_default_values().first().map(|d| d.to_string_lossy().into_owned());
                (l, help, values, default)
            })
            .collect()
    }

    /// `name="..."` of every field in the form's block for `game`, with its `min`-`max` if any.
    fn form_fields(html: &str, game: Game) -> Vec<(String, Option<String>)> {
        let start = format!("data-game=\"{}\"", game.command());
        let block = &html[html.find(&start).expect("a block per game")..];
        let block = &block[..block.find("</div>\n</div>").expect("the block's end")];
        let attr = |tag: &str, a: &str| {
            let at = tag.find(&format!(" {a}=\""))? + a.len() + 3;
            Some(tag[at..at + tag[at..].find('"')?].to_string())
        };
        block
            .split(['<'])
            .filter(|t| t.starts_with("input ") || t.starts_with("select "))
            .map(|t| {
                let range = attr(t, "min").zip(attr(t, "max")).map(|(a, b)| format!("{a}-{b}"));
                (attr(t, "name").unwrap_or_default(), range)
            })
            .collect()
    }

    #[test]
    fn the_forms_reference_choice_offers_the_command_lines_words_its_default_first() {
        let cli = crate::cli::Cli::command();
        for game in Game::ALL {
            let sub = cli.find_subcommand(game.command()).expect("a subcommand per game");
            let arg = sub.get_arguments().find(|a| a.get_long() == Some("reference")).expect("`--reference`");
            let words: Vec<String> = arg.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
            let row = reference_option();
            let offered: Vec<&str> =
                row.split("<option value=\"").skip(1).map(|t| &t[..t.find('"').unwrap_or(0)]).collect();
            assert_eq!(offered, words, "{game:?}");
            let default = arg.get_default_values().first().map(|d| d.to_string_lossy().into_owned());
            assert_eq!(default.as_deref(), offered.first().copied(), "the default first, as the form selects it");
            let page = super::super::handlers::index_page(&Tables::load(None).unwrap());
            assert!(page.contains(&row) && !page.contains(REFERENCE_OPTION), "the page holds the row");
        }
    }

    #[test]
    fn clap_help_the_permalink_and_the_workbench_form_list_the_same_options_with_the_same_ranges() {
        let tables = Tables::load(None).unwrap();
        let html = super::super::handlers::index_page(&tables);
        for game in Game::ALL {
            let declared = game.options();
            let names: Vec<&str> = declared.iter().map(|o| o.name).collect();
            let clap = clap_options(game);
            assert_eq!(clap.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), names, "clap, {game:?}");
            assert_eq!(game.query_fields(), names, "permalink, {game:?}");
            let form = form_fields(&html, game);
            assert_eq!(form.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), names, "form, {game:?}");
            for ((o, (_, help, values, default)), (_, form_range)) in declared.iter().zip(&clap).zip(&form) {
                assert_eq!(help, &o.help_text(), "{}", o.name);
                if let Some(d) = default {
                    assert_eq!(d, &o.default_text(), "`--{}` default", o.name);
                }
                let range = o.range().map(|r| format!("{}-{}", r.start(), r.end()));
                if let (Some(r), Input::Number { .. }) = (&range, &o.input) {
                    assert!(help.contains(r.as_str()), "`--{}` help names its range {r}: {help}", o.name);
                    assert_eq!(form_range.as_ref(), Some(r), "the form's `{}` range", o.name);
                }
                if !o.choices().is_empty() {
                    let mut v = values.clone();
                    v.sort();
                    let mut c: Vec<&str> = o.choices().to_vec();
                    c.sort_unstable();
                    assert_eq!(v, c, "`--{}` values", o.name);
                }
            }
        }
    }
}
