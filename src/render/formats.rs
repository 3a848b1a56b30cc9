//! The table of formats, in the spirit of mdBook's `Renderer`: each format is one entry that says
//! what it makes of each game's scenario, and [`render`] walks the table once. What several formats
//! share (the sheets, the Markdown, the view) is drafted first, once, then every entry draws on it.
//!
//! Adding a format: one entry in [`FORMATS`] (and its `Format` variant in `crate::model`).

use std::sync::Mutex;

use crate::error::Result;
use crate::model::{Format, Paper};
use crate::myk::model::Scenario;
use crate::nw3::model::Fortress;
use crate::output::Artifact;
use crate::tables::Tables;

use super::text::Templates;
use super::view::MykView;
use super::{Audience, RenderOptions, dot, fortress_view, json, pdf, plan, sheet, strip_prolog, udonarium, uvtt, view};

/// The scenario being rendered, of either game.
#[derive(Clone, Copy)]
pub enum Subject<'a> {
    Myk(&'a Scenario),
    Nw3(&'a Fortress),
}

impl<'a> Subject<'a> {
    /// The one place the paper is read: the scenario's own (`--paper` has set it already).
    fn paper(self) -> Paper {
        match self {
            Subject::Myk(s) => s.params.paper,
            Subject::Nw3(f) => f.paper,
        }
    }

    /// The start of every file's name (`myk-7`, `fortress-7`).
    fn stem(self) -> String {
        match self {
            Subject::Myk(s) => format!("myk-{}", s.seed),
            Subject::Nw3(f) => format!("fortress-{}", f.seed),
        }
    }

    fn title(self) -> &'a str {
        match self {
            Subject::Myk(s) => &s.title,
            Subject::Nw3(f) => &f.title,
        }
    }

    /// The file name (without `.svg`) of each sheet [`Subject::sheets`] draws, in its order.
    fn sheet_files(self) -> Vec<String> {
        match self {
            Subject::Myk(s) => s.maps.iter().map(|m| format!("myk-{}-map{}", s.seed, m.index)).collect(),
            Subject::Nw3(f) => vec![format!("fortress-{}", f.seed)],
        }
    }

    /// Every sheet the scenario prints: each MYK map, or the fortress's area map.
    fn sheets(self, tables: &Tables) -> Vec<Sheet> {
        let paper = self.paper();
        let mut files = self.sheet_files().into_iter();
        match self {
            Subject::Myk(s) => s
                .maps
                .iter()
                .map(|m| Sheet {
                    file: files.next().unwrap_or_default(),
                    gm_label: format!("Map {}: {} (GM)", m.index, m.name),
                    key: format!("Map {} of {}:", m.index, s.maps.len()),
                    players_label: format!("Map {}: {} (players)", m.index, m.name),
                    gm: sheet::myk_sheet(s, m, tables, paper, Audience::Gm),
                    players: sheet::myk_sheet(s, m, tables, paper, Audience::Players),
                })
                .collect(),
            Subject::Nw3(f) => vec![Sheet {
                file: files.next().unwrap_or_default(),
                gm_label: "Area map (GM)".into(),
                key: "Areas".into(),
                players_label: "Area map (players' handout)".into(),
                gm: super::area_map::fortress_map(f, tables, paper, Audience::Gm),
                players: super::area_map::fortress_map(f, tables, paper, Audience::Players),
            }],
        }
    }

    fn html_template(self) -> &'static str {
        match self {
            Subject::Myk(_) => "myk.html",
            Subject::Nw3(_) => "fortress.html",
        }
    }
}

/// One printed sheet in both copies, with its file name (without `.svg`) and its PDF labels.
pub struct Sheet {
    file: String,
    gm_label: String,
    players_label: String,
    /// How the heading of the sheet's key in the booklet starts (the PDF prints the sheet right
    /// before it).
    key: String,
    gm: String,
    players: String,
}

/// What the formats share, drafted once per render.
pub struct Drafts<'a> {
    subject: Subject<'a>,
    tables: &'a Tables,
    templates: &'a Templates,
    stem: String,
    sheets: Vec<Sheet>,
    /// The Markdown (empty unless Markdown or the PDF wants it).
    md: String,
    /// The MYK view the Markdown was made from, kept for the HTML (which only adds the sheets).
    view: Mutex<Option<MykView>>,
}

/// One format: what it makes, the names of the files it makes (known without making them), and
/// whether it is heavy enough to run on a thread of its own.
pub struct Entry {
    pub format: Format,
    heavy: bool,
    make: fn(&Drafts) -> Result<Vec<Artifact>>,
    names: fn(Subject) -> Vec<String>,
}

/// Every format, in the order a render gives its files: the light ones in turn, then the heavy
/// ones (pictures, deflate) at once.
pub const FORMATS: [Entry; 8] = [
    Entry { format: Format::Json, heavy: false, make: make_json, names: names_json },
    Entry { format: Format::Svg, heavy: false, make: make_svg, names: names_svg },
    Entry { format: Format::Md, heavy: false, make: make_md, names: names_md },
    Entry { format: Format::Html, heavy: false, make: make_html, names: names_html },
    Entry { format: Format::Dot, heavy: false, make: make_dot, names: names_dot },
    Entry { format: Format::Uvtt, heavy: true, make: make_uvtt, names: names_uvtt },
    Entry { format: Format::Pdf, heavy: true, make: make_pdf, names: names_pdf },
    Entry { format: Format::Udonarium, heavy: true, make: make_udonarium, names: names_udonarium },
];

/// The names of the files the chosen `formats` make of `subject`, in the order [`render`] gives
/// them, without making any (the workbench lists them for every change).
pub fn file_names(subject: Subject, formats: &[Format]) -> Vec<String> {
    FORMATS.iter().filter(|e| formats.contains(&e.format)).flat_map(|e| (e.names)(subject)).collect()
}

fn names_json(s: Subject) -> Vec<String> {
    vec![format!("{}.json", s.stem())]
}

fn names_svg(s: Subject) -> Vec<String> {
    s.sheet_files().iter().flat_map(|f| [format!("{f}.svg"), format!("{f}-players.svg")]).collect()
}

fn names_md(s: Subject) -> Vec<String> {
    vec![format!("{}.md", s.stem())]
}

fn names_html(s: Subject) -> Vec<String> {
    vec![format!("{}.html", s.stem())]
}

fn names_dot(s: Subject) -> Vec<String> {
    vec![format!("{}.dot", s.stem())]
}

fn names_uvtt(s: Subject) -> Vec<String> {
    s.sheet_files().iter().map(|f| format!("{f}.dd2vtt")).collect()
}

fn names_pdf(s: Subject) -> Vec<String> {
    vec![format!("{}.pdf", s.stem())]
}

fn names_udonarium(s: Subject) -> Vec<String> {
    vec![format!("{}-udonarium.zip", s.stem()), format!("{}-udonarium-gm.zip", s.stem())]
}

fn make_json(d: &Drafts) -> Result<Vec<Artifact>> {
    let text = match d.subject {
        Subject::Myk(s) => json(s)?,
        Subject::Nw3(f) => json(f)?,
    };
    Ok(vec![Artifact::new(format!("{}.json", d.stem), text)])
}

fn make_svg(d: &Drafts) -> Result<Vec<Artifact>> {
    let mut out = Vec::new();
    for s in &d.sheets {
        out.push(Artifact::new(format!("{}.svg", s.file), s.gm.clone()));
        out.push(Artifact::new(format!("{}-players.svg", s.file), s.players.clone()));
    }
    Ok(out)
}

fn make_md(d: &Drafts) -> Result<Vec<Artifact>> {
    Ok(vec![Artifact::new(format!("{}.md", d.stem), d.md.clone())])
}

/// HTML inlines the sheets into the booklet's view.
fn make_html(d: &Drafts) -> Result<Vec<Artifact>> {
    let inline: Vec<(String, String)> =
        d.sheets.iter().map(|s| (strip_prolog(&s.gm), strip_prolog(&s.players))).collect();
    let text = match d.subject {
        Subject::Myk(s) => {
            let kept = d.view.lock().unwrap_or_else(|p| p.into_inner()).take();
            let mut v = kept.unwrap_or_else(|| view::myk_view(s, d.tables, s.params.paper, &[]));
            for (mv, (gm, players)) in v.maps.iter_mut().zip(inline) {
                mv.svg = gm;
                mv.players_svg = players;
            }
            d.templates.render("myk.html", &v)?
        }
        Subject::Nw3(f) => {
            let svg = inline.into_iter().next().unwrap_or_default();
            d.templates.render("fortress.html", &fortress_view::fortress_view(f, d.tables, f.paper, svg))?
        }
    };
    Ok(vec![Artifact::new(format!("{}.html", d.stem), text)])
}

fn make_dot(d: &Drafts) -> Result<Vec<Artifact>> {
    let text = match d.subject {
        Subject::Myk(s) => dot::myk_dot(s, d.tables),
        Subject::Nw3(f) => dot::fortress_dot(f),
    };
    Ok(vec![Artifact::new(format!("{}.dot", d.stem), text)])
}

fn make_uvtt(d: &Drafts) -> Result<Vec<Artifact>> {
    let plans = match d.subject {
        Subject::Myk(s) => {
            s.maps.iter().map(|m| (format!("myk-{}-map{}.dd2vtt", s.seed, m.index), plan::myk_plan(m))).collect()
        }
        Subject::Nw3(f) => {
            let name = format!("fortress-{}.dd2vtt", f.seed);
            let p = plan::fortress_plan_checked(f, plan::AREA, &name)?;
            vec![(name, p)]
        }
    };
    plans.into_iter().map(|(name, p)| Ok(Artifact::new(name.clone(), uvtt::uvtt(&p, &name)?))).collect()
}

fn make_pdf(d: &Drafts) -> Result<Vec<Artifact>> {
    let name = format!("{}.pdf", d.stem);
    let gm: Vec<pdf::Sheet> = d
        .sheets
        .iter()
        .map(|s| pdf::Sheet { label: s.gm_label.clone(), svg: s.gm.clone(), key: Some(s.key.clone()) })
        .collect();
    let players: Vec<pdf::Sheet> = d
        .sheets
        .iter()
        .map(|s| pdf::Sheet { label: s.players_label.clone(), svg: s.players.clone(), key: None })
        .collect();
    let paper = d.subject.paper();
    let bytes = pdf::booklet(&gm, &d.md, &players, d.templates, paper, d.subject.title(), &name)?;
    Ok(vec![Artifact::new(name, bytes)])
}

fn make_udonarium(d: &Drafts) -> Result<Vec<Artifact>> {
    let name = format!("{}-udonarium.zip", d.stem);
    let paper = d.subject.paper();
    let rooms = match d.subject {
        Subject::Myk(s) => udonarium::myk(s, d.tables, paper, d.templates, &name)?,
        Subject::Nw3(f) => udonarium::fortress(f, d.tables, paper, d.templates, &name)?,
    };
    Ok(vec![Artifact::new(name, rooms.players), Artifact::new(format!("{}-udonarium-gm.zip", d.stem), rooms.gm)])
}

/// Every chosen format of the scenario, as files in memory, in the table's order.
pub fn render(subject: Subject, tables: &Tables, opts: &RenderOptions) -> Result<Vec<Artifact>> {
    let drafts = draft(subject, tables, opts)?;
    let chosen = FORMATS.iter().filter(|e| opts.formats.contains(&e.format));
    let mut out = Vec::new();
    let mut heavy: Vec<super::Job> = Vec::new();
    for e in chosen {
        if e.heavy {
            let d = &drafts;
            heavy.push(Box::new(move || (e.make)(d)));
        } else {
            out.extend((e.make)(&drafts)?);
        }
    }
    out.extend(super::run_all(heavy)?);
    Ok(out)
}

/// Drafts what the chosen formats share, drawing the sheets on a thread of their own when there
/// is text to make meanwhile.
fn draft<'a>(subject: Subject<'a>, tables: &'a Tables, opts: &RenderOptions<'a>) -> Result<Drafts<'a>> {
    let wants = |f: Format| opts.formats.contains(&f);
    let need_svg = wants(Format::Svg) || wants(Format::Html) || wants(Format::Pdf);
    let need_md = wants(Format::Md) || wants(Format::Pdf);
    let templates = opts.templates;
    std::thread::scope(|scope| -> Result<_> {
        // The sheets are drawn on a thread of their own, which then compiles the HTML template
        // (and the stylesheet it includes), while this one makes the Markdown; alone, the sheets
        // are drawn here: a thread would only wait.
        let drawing = (need_svg && (need_md || wants(Format::Html))).then(|| {
            scope.spawn(move || {
                let sheets = subject.sheets(tables);
                if wants(Format::Html) {
                    templates.prepare(subject.html_template());
                    templates.prepare("booklet.css");
                }
                sheets
            })
        });
        let (md, view) = markdown(subject, tables, templates, need_md, wants(Format::Html));
        let sheets = match drawing {
            Some(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            None if need_svg => subject.sheets(tables),
            None => Vec::new(),
        };
        Ok(Drafts { subject, tables, templates, stem: subject.stem(), sheets, md: md?, view: Mutex::new(view) })
    })
}

/// The Markdown (empty unless wanted) and, for MYK, the view it was made from when the HTML will
/// want it too.
fn markdown(
    subject: Subject,
    tables: &Tables,
    templates: &Templates,
    need_md: bool,
    need_html: bool,
) -> (Result<String>, Option<MykView>) {
    match subject {
        Subject::Myk(s) if need_md || need_html => {
            let v = view::myk_view(s, tables, s.params.paper, &[]);
            let md = if need_md { templates.render("myk.md", &v) } else { Ok(String::new()) };
            (md, need_html.then_some(v))
        }
        Subject::Nw3(f) if need_md => {
            let v = fortress_view::fortress_view(f, tables, f.paper, (String::new(), String::new()));
            (templates.render("fortress.md", &v), None)
        }
        _ => (Ok(String::new()), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::myk::MykParams;
    use crate::nw3::FortressParams;

    #[test]
    fn the_names_listed_without_rendering_are_the_names_render_gives() {
        let tables = Tables::embedded().expect("embedded tables");
        let templates = Templates::load(None).expect("built-in templates");
        let params = MykParams {
            levels: vec![2; 4],
            maps: 2,
            rooms: 9,
            layout: crate::myk::model::Layout::Mixed,
            objective: None,
            ..Default::default()
        };
        let myk = crate::myk::generate(&tables, &params, 3).expect("generates");
        let fortress = crate::nw3::generate(&tables, &FortressParams::default(), 3).expect("generates");
        let opts = RenderOptions { formats: &Format::ALL, templates: &templates };
        for subject in [Subject::Myk(&myk), Subject::Nw3(&fortress)] {
            let made: Vec<String> =
                render(subject, &tables, &opts).expect("renders").into_iter().map(|a| a.name).collect();
            assert_eq!(file_names(subject, &Format::ALL), made);
        }
    }
}
