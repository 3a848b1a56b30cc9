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

use super::booklet::{Context, Part, Reference};
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

    /// How long the scenario takes at the table, for part one of its booklet.
    fn play_time(self) -> super::booklet::PlayTime {
        match self {
            Subject::Myk(s) => super::booklet::myk_play_time(s),
            Subject::Nw3(f) => super::booklet::nw3_play_time(f),
        }
    }

    /// The booklet files' names with extension `ext`: the booklet, and part two's own file when
    /// `reference` puts it apart.
    fn booklet_names(self, reference: Reference, ext: &str) -> Vec<String> {
        let stem = self.stem();
        reference.files().iter().map(|(_, suffix)| format!("{stem}{suffix}.{ext}")).collect()
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
    reference: Reference,
    /// The Markdown files (none unless Markdown is wanted), one for each of `reference`'s files.
    md: Vec<String>,
    /// The PDF's Markdown (none unless the PDF is wanted), likewise: its page citations kept,
    /// its handouts left to the cut-out card pages.
    pdf_md: Vec<String>,
    /// The MYK view the Markdown was made from, kept for the HTML (which only adds the sheets).
    view: Mutex<Option<MykView>>,
}

/// One format: what it makes, the names of the files it makes (known without making them), and
/// whether it is heavy enough to run on a thread of its own.
pub struct Entry {
    pub format: Format,
    heavy: bool,
    make: fn(&Drafts) -> Result<Vec<Artifact>>,
    names: fn(Subject, Reference) -> Vec<String>,
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

/// The names of the files the chosen `formats` make of `subject` with part two where `reference`
/// puts it, in the order [`render`] gives them, without making any (the workbench lists them for
/// every change).
pub fn file_names(subject: Subject, formats: &[Format], reference: Reference) -> Vec<String> {
    FORMATS.iter().filter(|e| formats.contains(&e.format)).flat_map(|e| (e.names)(subject, reference)).collect()
}

fn names_json(s: Subject, _: Reference) -> Vec<String> {
    vec![format!("{}.json", s.stem())]
}

fn names_svg(s: Subject, _: Reference) -> Vec<String> {
    s.sheet_files().iter().flat_map(|f| [format!("{f}.svg"), format!("{f}-players.svg")]).collect()
}

fn names_md(s: Subject, reference: Reference) -> Vec<String> {
    s.booklet_names(reference, "md")
}

fn names_html(s: Subject, reference: Reference) -> Vec<String> {
    s.booklet_names(reference, "html")
}

fn names_dot(s: Subject, _: Reference) -> Vec<String> {
    vec![format!("{}.dot", s.stem())]
}

fn names_uvtt(s: Subject, _: Reference) -> Vec<String> {
    s.sheet_files().iter().map(|f| format!("{f}.dd2vtt")).collect()
}

fn names_pdf(s: Subject, reference: Reference) -> Vec<String> {
    s.booklet_names(reference, "pdf")
}

fn names_udonarium(s: Subject, _: Reference) -> Vec<String> {
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
    let names = d.subject.booklet_names(d.reference, "md");
    Ok(names.into_iter().zip(&d.md).map(|(name, md)| Artifact::new(name, md.clone())).collect())
}

/// HTML inlines the sheets (and an episode's handout cards) into the booklet's view.
fn make_html(d: &Drafts) -> Result<Vec<Artifact>> {
    let inline: Vec<(String, String)> =
        d.sheets.iter().map(|s| (strip_prolog(&s.gm), strip_prolog(&s.players))).collect();
    let names = d.subject.booklet_names(d.reference, "html");
    let files = d.reference.files().iter().map(|f| f.0).zip(names);
    match d.subject {
        Subject::Myk(s) => {
            let kept = d.view.lock().unwrap_or_else(|p| p.into_inner()).take();
            let mut v = kept.unwrap_or_else(|| view::myk_view(s, d.tables, s.params.paper, &[]));
            for (mv, (gm, players)) in v.maps.iter_mut().zip(inline) {
                mv.svg = gm;
                mv.players_svg = players;
            }
            files
                .map(|(part, name)| {
                    let c = d.context(&v, part, "html");
                    Ok(Artifact::new(name, d.templates.render("myk.html", &c)?))
                })
                .collect()
        }
        Subject::Nw3(f) => {
            let svg = inline.into_iter().next().unwrap_or_default();
            let v = fortress_view::fortress_view(f, d.tables, f.paper, svg);
            let cards: Vec<String> = super::handout_cards::pages(f, f.paper).iter().map(|p| strip_prolog(p)).collect();
            files
                .map(|(part, name)| {
                    let mut c = d.context(&v, part, "html");
                    if part != Part::Two {
                        c.handout_pages = cards.clone();
                    }
                    Ok(Artifact::new(name, d.templates.render("fortress.html", &c)?))
                })
                .collect()
        }
    }
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
    let gm: Vec<pdf::Sheet> = d
        .sheets
        .iter()
        .map(|s| pdf::Sheet { label: s.gm_label.clone(), svg: s.gm.clone(), key: Some(s.key.clone()) })
        .collect();
    let mut players: Vec<pdf::Sheet> = d
        .sheets
        .iter()
        .map(|s| pdf::Sheet { label: s.players_label.clone(), svg: s.players.clone(), key: None })
        .collect();
    let paper = d.subject.paper();
    // An episode's handouts follow the players' sheets, as cut-out cards four to a page.
    if let Subject::Nw3(f) = d.subject {
        for (p, svg) in super::handout_cards::pages(f, paper).into_iter().enumerate() {
            let first = p * super::handout_cards::PER_PAGE + 1;
            let label = format!("Handouts for the players (PC {first} on)");
            players.push(pdf::Sheet { label, svg, key: None });
        }
    }
    let names = d.subject.booklet_names(d.reference, "pdf");
    let mut out = Vec::new();
    for (((part, _), name), md) in d.reference.files().iter().zip(names).zip(&d.pdf_md) {
        // Part two alone is text: the sheets and cards go with the scenario.
        let (gm, players, title) = match part {
            Part::Two => (&[][..], &[][..], format!("{}: reference", d.subject.title())),
            _ => (&gm[..], &players[..], d.subject.title().to_string()),
        };
        let bytes = pdf::booklet(gm, md, players, d.templates, paper, &title, &name)?;
        out.push(Artifact::new(name, bytes));
    }
    Ok(out)
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
            // Counted into this thread's memory meter (a workbench request's budget).
            scope.spawn(crate::meter::carried(move || {
                let sheets = subject.sheets(tables);
                if wants(Format::Html) {
                    templates.prepare(subject.html_template());
                    templates.prepare("booklet.css");
                }
                sheets
            }))
        });
        let (md, view) = markdown(subject, tables, opts, wants(Format::Md), wants(Format::Pdf));
        let sheets = match drawing {
            Some(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            None if need_svg => subject.sheets(tables),
            None => Vec::new(),
        };
        let (md, pdf_md) = md?;
        Ok(Drafts {
            subject,
            tables,
            templates,
            stem: subject.stem(),
            sheets,
            reference: opts.reference,
            md,
            pdf_md,
            view: Mutex::new(view),
        })
    })
}

/// The Markdown files and the PDF's Markdown, one of each for each booklet file.
type Texts = (Vec<String>, Vec<String>);

/// The Markdown files and the PDF's Markdown (each empty unless wanted) and, for MYK, the view
/// they were made from when the HTML will want it too.
fn markdown(
    subject: Subject,
    tables: &Tables,
    opts: &RenderOptions,
    need_md: bool,
    need_pdf: bool,
) -> (Result<Texts>, Option<MykView>) {
    let need_html = opts.formats.contains(&Format::Html);
    let texts = |render: &dyn Fn(Part, &str, bool) -> Result<String>| -> Result<Texts> {
        let mut md = Vec::new();
        let mut pdf_md = Vec::new();
        for (part, _) in opts.reference.files() {
            if need_md {
                md.push(super::booklet::drop_citations(&render(*part, "md", false)?));
            }
            if need_pdf {
                pdf_md.push(render(*part, "pdf", true)?);
            }
        }
        Ok((md, pdf_md))
    };
    let (stem, reference, play_time) = (subject.stem(), opts.reference, subject.play_time());
    match subject {
        Subject::Myk(s) if need_md || need_pdf || need_html => {
            let v = view::myk_view(s, tables, s.params.paper, &[]);
            let made = texts(&|part, ext, _| {
                let c = Context::new(&v, part, reference, &stem, ext, play_time.clone());
                opts.templates.render("myk.md", &c)
            });
            (made, need_html.then_some(v))
        }
        Subject::Nw3(f) if need_md || need_pdf => {
            let v = fortress_view::fortress_view(f, tables, f.paper, (String::new(), String::new()));
            let made = texts(&|part, ext, cards| {
                let mut c = Context::new(&v, part, reference, &stem, ext, play_time.clone());
                c.handout_cards = cards;
                opts.templates.render("fortress.md", &c)
            });
            (made, None)
        }
        _ => (Ok((Vec::new(), Vec::new())), None),
    }
}

impl Drafts<'_> {
    /// The context of the booklet file holding `part`, in the format of extension `ext`.
    fn context<'v, V: serde::Serialize>(&self, view: &'v V, part: Part, ext: &str) -> Context<'v, V> {
        Context::new(view, part, self.reference, &self.stem, ext, self.subject.play_time())
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
        for reference in Reference::ALL {
            let opts = RenderOptions { formats: &Format::ALL, templates: &templates, reference };
            for subject in [Subject::Myk(&myk), Subject::Nw3(&fortress)] {
                let made: Vec<String> =
                    render(subject, &tables, &opts).expect("renders").into_iter().map(|a| a.name).collect();
                assert_eq!(file_names(subject, &Format::ALL, reference), made);
            }
        }
    }
}
