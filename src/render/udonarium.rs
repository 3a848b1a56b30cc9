//! Udonarium room data (`--format udonarium`): a zip that Udonarium (the open-source browser
//! tabletop) loads when it is dropped on its window.
//!
//! The zip holds `data.xml`, a `<room>` in the XML that Udonarium's classes write (`game-table`,
//! `character`, `text-note`; every value a `<data>` element), and each picture it names, stored
//! under the SHA-256 of its bytes (Udonarium's image identifier) with its extension. Per MYK map
//! (or per fortress) there are two tables: the grid plan with the room key beside it, and the
//! players' sheet. Each monster group, ruler or enemy is a character piece standing in its room,
//! with HP as a resource and its stat block in its data elements; each room or area has a text
//! note. Entries are stored uncompressed with a fixed timestamp, so the bytes depend only on the
//! scenario.

use std::io::{Cursor, Write};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::model::Paper;
use crate::myk::model::{Room, Scenario};
use crate::nw3::model::{Area, Attack, Fortress, Skill, Stats};
use crate::render::fortress_view::{attack_line, stat_pairs};
use crate::render::plan::{Plan, PlanRoom};
use crate::render::text::Templates;
use crate::render::{Copy, view};
use crate::tables::Tables;

/// Udonarium's grid cell in pixels.
const GRID: u32 = 50;
/// Size of a text note in cells, and the gap between notes.
const NOTE_W: u32 = 12;
const NOTE_H: u32 = 5;

/// A character piece: what Udonarium shows on its sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub name: String,
    /// Hit points, when the model knows them: a resource the GM counts down.
    pub hp: Option<u32>,
    /// Stat name and value, in sheet order.
    pub stats: Vec<(String, String)>,
    /// The stat block as one line of text.
    pub note: String,
    /// Token colour.
    pub colour: &'static str,
}

/// The pieces of one MYK room: the ruler, then each monster group (one piece per group).
pub fn myk_pieces(room: &Room, view: &view::RoomView, tables: &Tables) -> Vec<Piece> {
    let mut out = Vec::new();
    if let (Some(r), Some(rv)) = (&room.ruler, &view.ruler) {
        let rec = tables.myk.monster(&r.name);
        // Extra HP bought for the ruler: level x 5 per step.
        let extra: u32 = r.adjustments.iter().filter(|a| a.what == "hp").map(|a| a.times * r.level * 5).sum();
        let mut stats = vec![
            ("Level".to_string(), r.level.to_string()),
            ("Effective level".to_string(), r.effective_level.to_string()),
            ("Category".to_string(), rv.category.clone()),
        ];
        // The final stat line (increases applied) when the file has it, else the bestiary's.
        match &r.stats {
            Some(fin) => stats.extend([
                ("Warfare".to_string(), fin.warfare.to_string()),
                ("Range".to_string(), fin.range.to_string()),
                ("Damage".to_string(), fin.damage.to_string()),
                ("Defense".to_string(), fin.defense.to_string()),
            ]),
            None => stats.extend(record_stats(rec)),
        }
        out.push(Piece {
            name: r.name.as_str().to_owned(),
            hp: r.stats.as_ref().map(|x| x.hp).or_else(|| rec.and_then(|m| m.hp).map(|hp| hp + extra)),
            stats,
            note: format!("Ruler. {}. Skills: {}.", rv.stats, rv.skills),
            colour: "#b8860b",
        });
    }
    for (m, mv) in room.monsters.iter().zip(&view.monsters) {
        let rec = tables.myk.monster(&m.name);
        let mut stats = vec![
            ("Count".to_string(), m.count.to_string()),
            ("Reaction".to_string(), m.reaction.label().to_string()),
            ("Level".to_string(), m.level.to_string()),
            ("Effective level".to_string(), m.effective_level.to_string()),
            ("Category".to_string(), mv.category.clone()),
        ];
        stats.extend(record_stats(rec));
        out.push(Piece {
            name: if m.count > 1 { format!("{} x{}", m.name, m.count) } else { m.name.as_str().to_owned() },
            hp: rec.and_then(|r| r.hp),
            stats,
            note: format!("{}. Skills: {}.", mv.stats, mv.skills),
            colour: "#a33a2c",
        });
    }
    out
}

/// The combat stats of a bestiary record, as far as it knows them.
fn record_stats(rec: Option<&crate::tables::myk::Monster>) -> Vec<(String, String)> {
    let Some(m) = rec else { return Vec::new() };
    [
        ("Warfare", m.warfare.map(|v| v.to_string())),
        ("Range", m.range.map(|v| v.to_string())),
        ("Damage", m.damage.as_ref().map(|d| d.to_string())),
        ("Defense", m.defense.map(|v| v.to_string())),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k.to_string(), v?)))
    .collect()
}

/// The pieces of one NW3 area: one per enemy line of each group, and the Ruler in its own area.
/// Body is the HP resource; the other combat stats, attacks and skills go on the sheet.
pub fn nw3_pieces(f: &Fortress, area: &Area) -> Vec<Piece> {
    let mut out = Vec::new();
    if f.ruler.area == area.id {
        let r = &f.ruler;
        let mut stats = vec![("Title".to_string(), r.title.clone()), ("Rank".to_string(), "Boss".to_string())];
        stats.extend(combat_stats(r.stats.as_ref(), r.spd, r.initiative));
        out.push(Piece {
            name: r.name.clone(),
            hp: r.stats.map(|x| x.body),
            stats,
            note: nw3_note(&r.name, "Boss", &stat_pairs(r.stats.as_ref(), r.spd, r.initiative), &r.attacks, &r.skills),
            colour: "#b8860b",
        });
    }
    for g in &area.enemies {
        for e in &g.members {
            let name = if e.count > 1 { format!("{} x{}", e.name, e.count) } else { e.name.clone() };
            let mut stats = vec![
                ("Group".to_string(), g.name.clone()),
                ("Rank".to_string(), e.rank.label().to_string()),
                ("Count".to_string(), e.count.to_string()),
            ];
            stats.extend(combat_stats(e.stats.as_ref(), e.spd, e.initiative));
            out.push(Piece {
                name,
                hp: e.stats.map(|x| x.body),
                stats,
                note: nw3_note(
                    &e.name,
                    e.rank.label(),
                    &stat_pairs(e.stats.as_ref(), e.spd, e.initiative),
                    &e.attacks,
                    &e.skills,
                ),
                colour: "#5b3f8c",
            });
        }
    }
    out
}

/// An NW3 stat block's numbers in sheet order, less Body (the HP resource).
fn combat_stats(s: Option<&Stats>, spd: u32, initiative: u32) -> Vec<(String, String)> {
    stat_pairs(s, spd, initiative).into_iter().filter(|(k, _)| k != "Body").collect()
}

/// The whole stat block as one text: stats, attacks and skills.
fn nw3_note(name: &str, rank: &str, pairs: &[(String, String)], attacks: &[Attack], skills: &[Skill]) -> String {
    let line: Vec<String> = pairs.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut n = format!("{name} ({rank}): {}.", line.join(" / "));
    for a in attacks {
        n.push_str(&format!("\nAttack: {}", attack_line(a)));
    }
    for k in skills {
        n.push_str(&format!("\nSkill: {}: {}", k.name, k.effect));
    }
    n
}

// ---------------------------------------------------------------------------------------------
// The room document.

/// A picture in the zip: its SHA-256 (Udonarium's identifier) and PNG bytes.
struct Image {
    hash: String,
    bytes: Vec<u8>,
}

/// Builds `data.xml` and collects the pictures it names.
#[derive(Default)]
struct RoomDoc {
    xml: String,
    images: Vec<Image>,
    tables: usize,
    /// Each token drawn so far (its SVG) and its picture's identifier: pieces alike (a ruler and
    /// its kin, groups with the same initials) share one drawing.
    tokens: Vec<(String, String)>,
}

use crate::render::svgkit::xml_escape as esc;

/// XML escaping for attribute values: line breaks too, which a parser would otherwise turn into
/// spaces.
fn attr(s: &str) -> String {
    esc(s).replace('\n', "&#10;").replace('\t', "&#9;")
}

fn data(name: &str, value: &str) -> String {
    format!("<data name=\"{}\">{}</data>", attr(name), esc(value))
}

impl RoomDoc {
    /// Adds a picture (once) and returns its identifier.
    fn image(&mut self, bytes: Vec<u8>) -> String {
        let hash: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        if !self.images.iter().any(|i| i.hash == hash) {
            self.images.push(Image { hash: hash.clone(), bytes });
        }
        hash
    }

    /// A table `w` x `h` cells with `image` as its surface; the first one added is shown.
    fn table(&mut self, name: &str, w: u32, h: u32, image: &str, grid: bool) {
        let selected = self.tables == 0;
        self.tables += 1;
        self.xml += &format!(
            "  <game-table name=\"{}\" width=\"{w}\" height=\"{h}\" gridSize=\"{GRID}\" imageIdentifier=\"{image}\" backgroundImageIdentifier=\"imageIdentifier\" backgroundFilterType=\"\" selected=\"{selected}\" gridType=\"{}\" gridColor=\"#00000033\"></game-table>\n",
            attr(name),
            if grid { 0 } else { -1 },
        );
    }

    /// A character piece at cell (x, y) on the table, or in the shared inventory.
    fn character(&mut self, p: &Piece, at: Option<(u32, u32)>) -> Result<()> {
        let svg = token_svg(p);
        let image = match self.tokens.iter().find(|(s, _)| *s == svg) {
            Some((_, id)) => id.clone(),
            None => {
                let id = self.image(crate::render::raster::png(&svg, 100, "token")?);
                self.tokens.push((svg, id.clone()));
                id
            }
        };
        let (place, x, y) = match at {
            Some((x, y)) => ("table", x * GRID, y * GRID),
            None => ("common", 0, 0),
        };
        let mut detail = String::new();
        if let Some(hp) = p.hp {
            detail += &format!(
                "        <data name=\"Resources\"><data type=\"numberResource\" currentValue=\"{hp}\" name=\"HP\">{hp}</data></data>\n"
            );
        }
        let stats: String = p.stats.iter().map(|(k, v)| data(k, v)).collect();
        detail += &format!("        <data name=\"Stats\">{stats}</data>\n");
        detail += &format!(
            "        <data name=\"Notes\"><data type=\"note\" name=\"Stat block\">{}</data></data>\n",
            esc(&p.note)
        );
        self.xml += &format!(
            "  <character location.name=\"{place}\" location.x=\"{x}\" location.y=\"{y}\" posZ=\"0\" rotate=\"0\" roll=\"0\">\n    <data name=\"character\">\n      <data name=\"image\"><data type=\"image\" name=\"imageIdentifier\">{image}</data></data>\n      <data name=\"common\">{}{}</data>\n      <data name=\"detail\">\n{detail}      </data>\n    </data>\n  </character>\n",
            data("name", &p.name),
            data("size", "1"),
        );
        Ok(())
    }

    /// A text note at cell (x, y).
    fn note(&mut self, title: &str, text: &str, x: u32, y: u32) {
        let (value, text) = (attr(text.trim()), esc(text.trim()));
        self.xml += &format!(
            "  <text-note rotate=\"0\" zindex=\"0\" password=\"\" location.name=\"table\" location.x=\"{}\" location.y=\"{}\" posZ=\"0\">\n    <data name=\"text-note\">\n      <data name=\"image\"><data type=\"image\" name=\"imageIdentifier\"></data></data>\n      <data name=\"common\">{}{}{}{}<data type=\"note\" currentValue=\"{value}\" name=\"text\">{text}</data></data>\n      <data name=\"detail\"></data>\n    </data>\n  </text-note>\n",
            x * GRID,
            y * GRID,
            data("width", &NOTE_W.to_string()),
            data("height", &(NOTE_H - 1).to_string()),
            data("fontsize", "3"),
            data("title", title),
        );
    }

    /// The zip: every picture (named `<sha-256>.png`), then `data.xml`.
    fn zip(self, what: &str) -> Result<Vec<u8>> {
        let fail = |e: zip::result::ZipError| Error::Scenario {
            file: what.to_string(),
            message: format!("cannot build the zip: {e}"),
        };
        // Room for every entry and its headers, so the zip is not copied as it grows.
        let size: usize = self.images.iter().map(|i| i.bytes.len() + 256).sum::<usize>() + self.xml.len() + 1024;
        let mut z = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(size)));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .last_modified_time(zip::DateTime::default())
            .unix_permissions(0o644);
        let xml = format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<room>\n{}</room>\n", self.xml);
        let io = |e: std::io::Error| Error::Scenario {
            file: what.to_string(),
            message: format!("cannot build the zip: {e}"),
        };
        for i in &self.images {
            z.start_file(format!("{}.png", i.hash), opts).map_err(fail)?;
            z.write_all(&i.bytes).map_err(io)?;
        }
        z.start_file("data.xml", opts).map_err(fail)?;
        z.write_all(xml.as_bytes()).map_err(io)?;
        Ok(z.finish().map_err(fail)?.into_inner())
    }

    /// The plan as a table with the notes in columns beside it, and the pieces in their rooms.
    fn plan_table(
        &mut self,
        name: &str,
        plan: &Plan,
        notes: &[(String, String)],
        pieces: &[(String, Vec<Piece>)],
        on_table: bool,
        what: &str,
    ) -> Result<()> {
        let per_col = (plan.h.saturating_sub(1) / NOTE_H).max(1) as usize;
        let cols = notes.len().div_ceil(per_col) as u32;
        let extra = if cols == 0 { 0 } else { cols * (NOTE_W + 1) + 1 };
        let png = crate::render::raster::png(&plan.svg_with(GRID, extra), (plan.w + extra) * GRID, what)?;
        let image = self.image(png);
        self.table(name, plan.w + extra, plan.h, &image, true);
        for (i, (title, text)) in notes.iter().enumerate() {
            let (c, r) = ((i / per_col) as u32, (i % per_col) as u32);
            self.note(title, text, plan.w + 1 + c * (NOTE_W + 1), 1 + r * NOTE_H);
        }
        for (key, ps) in pieces {
            let room: Option<&PlanRoom> = plan.room(key);
            for (i, p) in ps.iter().enumerate() {
                let at = match room {
                    Some(r) if on_table => {
                        let (cols, i) = ((r.w - 1).max(1), i as u32);
                        Some((r.x + 1 + i % cols, r.y + 1 + (i / cols).min(r.h - 2)))
                    }
                    _ => None,
                };
                self.character(p, at)?;
            }
        }
        Ok(())
    }

    /// A players' sheet (its picture from [`sheet_png`]) as a table without a grid of its own.
    fn sheet_table(&mut self, name: &str, png: Vec<u8>, paper: Paper) {
        let (w, h) = sheet_cells(paper);
        let image = self.image(png);
        self.table(name, w, h, &image, false);
    }

    /// The plan table, and the players' sheet as a table after it; the sheet's picture is drawn on
    /// a second thread meanwhile (both are deflate-bound), the tables and images in the same order.
    fn plan_and_sheet(
        &mut self,
        (name, plan, on_table): (&str, &Plan, bool),
        notes: &[(String, String)],
        pieces: &[(String, Vec<Piece>)],
        (sheet_name, sheet): (&str, &str),
        paper: Paper,
        what: &str,
    ) -> Result<()> {
        let png = std::thread::scope(|scope| {
            let drawing = scope.spawn(|| sheet_png(sheet, paper, what));
            let planned = self.plan_table(name, plan, notes, pieces, on_table, what);
            let png = drawing.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            planned.and(png)
        })?;
        self.sheet_table(sheet_name, png, paper);
        Ok(())
    }
}

/// A players' sheet's size in cells: 1 cm each, the paper's width.
fn sheet_cells(paper: Paper) -> (u32, u32) {
    let (w_mm, h_mm) = paper.size_mm();
    let w = (w_mm / 10.0).round() as u32;
    (w, (h_mm / 10.0 * f64::from(w) / (w_mm / 10.0)).round() as u32)
}

/// A players' sheet (SVG) as a picture for its table.
fn sheet_png(svg: &str, paper: Paper, what: &str) -> Result<Vec<u8>> {
    crate::render::raster::png(svg, sheet_cells(paper).0 * GRID, what)
}

/// A round token with the piece's initials, as SVG (drawn 100 pixels wide).
fn token_svg(p: &Piece) -> String {
    let initials: String = p.name.split_whitespace().filter_map(|w| w.chars().next()).take(2).collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\"><circle cx=\"50\" cy=\"50\" r=\"46\" fill=\"{}\" stroke=\"#111111\" stroke-width=\"5\"/><text x=\"50\" y=\"64\" text-anchor=\"middle\" font-family=\"DejaVu Sans\" font-weight=\"bold\" font-size=\"40\" fill=\"#ffffff\">{}</text></svg>",
        p.colour,
        esc(&initials)
    )
}

/// The Udonarium zip of a MYK scenario.
pub fn myk(s: &Scenario, tables: &Tables, paper: Paper, templates: &Templates, what: &str) -> Result<Vec<u8>> {
    let v = view::myk_view(s, tables, paper, &[]);
    let mut room = RoomDoc::default();
    let intro = templates.render("udonarium-myk.j2", &v)?;
    for (i, (m, mv)) in s.maps.iter().zip(&v.maps).enumerate() {
        let plan = crate::render::plan::myk_plan(m);
        let mut notes = Vec::new();
        if i == 0 {
            notes.push((s.title.clone(), intro.clone()));
        }
        let mut pieces = Vec::new();
        for rv in &mv.rooms {
            let ctx = serde_json::json!({ "r": rv });
            notes.push((format!("{} {}", rv.id, rv.name), templates.render("udonarium-room.j2", &ctx)?));
            if let Some(r) = m.rooms.iter().find(|r| r.id.to_string() == rv.id) {
                pieces.push((rv.id.clone(), myk_pieces(r, rv, tables)));
            }
        }
        let sheet = crate::render::sheet::myk_sheet(s, m, tables, paper, Copy::Players);
        room.plan_and_sheet(
            (&format!("Map {}: {}", m.index, m.name), &plan, i == 0),
            &notes,
            &pieces,
            (&format!("Map {}: players' sheet", m.index), &sheet),
            paper,
            what,
        )?;
    }
    room.zip(what)
}

/// The Udonarium zip of a Fortress.
pub fn fortress(f: &Fortress, tables: &Tables, paper: Paper, templates: &Templates, what: &str) -> Result<Vec<u8>> {
    let v = crate::render::fortress_view::fortress_view(f, paper, (String::new(), String::new()));
    let mut room = RoomDoc::default();
    let plan = crate::render::plan::fortress_plan(f);
    let mut notes = vec![(f.title.clone(), templates.render("udonarium-fortress.j2", &v)?)];
    let mut pieces = Vec::new();
    for av in &v.areas {
        let ctx = serde_json::json!({ "a": av });
        notes.push((format!("{}. {}", av.id, av.name), templates.render("udonarium-area.j2", &ctx)?));
        if let Some(a) = f.area(av.id) {
            pieces.push((a.id.to_string(), nw3_pieces(f, a)));
        }
    }
    let sheet = crate::render::area_map::fortress_map(f, tables, paper, Copy::Players);
    room.plan_and_sheet(
        (&f.title, &plan, true),
        &notes,
        &pieces,
        (&format!("{}: players' handout", f.title), &sheet),
        paper,
        what,
    )?;
    room.zip(what)
}
