//! The booklet's Markdown read into blocks for the typesetter (pulldown-cmark, with its tables):
//! headings, paragraphs, list items with their depth and marker, tables. Backslash escapes and
//! entities come back as the characters the GM typed; soft line breaks are spaces.

use std::ops::Range;

use pulldown_cmark::{Alignment, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Text with bold and italic runs (byte ranges into `text`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rich {
    pub text: String,
    pub bold: Vec<Range<usize>>,
    pub italic: Vec<Range<usize>>,
}

/// One block of the booklet.
#[derive(Debug, PartialEq)]
pub enum Block {
    /// Level 1-6.
    Heading(u8, Rich),
    /// A paragraph; in a list, `depth` (1 = top-level item) and its marker ("•", "3.") on the
    /// item's first paragraph.
    Para {
        depth: u8,
        marker: Option<String>,
        text: Rich,
    },
    Table {
        right: Vec<bool>,
        head: Vec<Rich>,
        rows: Vec<Vec<Rich>>,
    },
    /// A thematic break (`---`): what follows starts a new page (a player's handout).
    PageBreak,
}

/// A table being read: right-aligned columns, head, rows.
type TableParts = (Vec<bool>, Vec<Rich>, Vec<Vec<Rich>>);

#[derive(Default)]
struct Reader {
    blocks: Vec<Block>,
    cur: Rich,
    bold_from: Vec<usize>,
    italic_from: Vec<usize>,
    /// Open lists: the next number of an ordered one.
    lists: Vec<Option<u64>>,
    marker: Option<String>,
    heading: Option<u8>,
    table: Option<TableParts>,
    row: Vec<Rich>,
    in_head: bool,
}

impl Reader {
    fn flush(&mut self) {
        let text = std::mem::take(&mut self.cur);
        if let Some(level) = self.heading {
            self.blocks.push(Block::Heading(level, text));
            return;
        }
        if text.text.trim().is_empty() && self.marker.is_none() {
            return;
        }
        let depth = self.lists.len() as u8;
        self.blocks.push(Block::Para { depth, marker: self.marker.take(), text });
    }

    fn push_text(&mut self, s: &str) {
        self.cur.text.push_str(s);
    }
}

/// The blocks of `md`, in order.
pub fn blocks(md: &str) -> Vec<Block> {
    let mut r = Reader::default();
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        // Each event is one of three kinds; a reader of each kind says whether it took it.
        let _ = r.block(&ev) || r.table(&ev) || r.inline(&ev);
    }
    r.flush();
    r.blocks
}

impl Reader {
    /// Headings, paragraphs and lists: where a block ends and what it is.
    fn block(&mut self, ev: &Event) -> bool {
        match ev {
            Event::Start(Tag::Heading { level, .. }) => {
                self.flush();
                self.heading = Some(match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    HeadingLevel::H4 => 4,
                    HeadingLevel::H5 => 5,
                    HeadingLevel::H6 => 6,
                });
            }
            Event::End(TagEnd::Heading(_)) => {
                self.flush();
                self.heading = None;
            }
            // A list item's later paragraph starts fresh; its first keeps the marker.
            Event::Start(Tag::Paragraph) if !self.cur.text.is_empty() => self.flush(),
            Event::End(TagEnd::Paragraph) => self.flush(),
            Event::Start(Tag::List(start)) => {
                if !self.cur.text.is_empty() || self.marker.is_some() {
                    self.flush();
                }
                self.lists.push(*start);
            }
            Event::End(TagEnd::List(_)) => {
                self.lists.pop();
            }
            Event::Start(Tag::Item) => {
                if !self.cur.text.is_empty() {
                    self.flush();
                }
                self.marker = Some(match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => "\u{2022}".into(),
                });
            }
            Event::End(TagEnd::Item) if !self.cur.text.is_empty() || self.marker.is_some() => self.flush(),
            // A GM's own template may hold other blocks: each is a paragraph of its text.
            Event::Start(Tag::CodeBlock(_) | Tag::BlockQuote(_))
            | Event::End(TagEnd::CodeBlock | TagEnd::BlockQuote(_)) => self.flush(),
            Event::Rule => {
                self.flush();
                self.blocks.push(Block::PageBreak);
            }
            _ => return false,
        }
        true
    }

    /// Tables: the header row, the body rows and which columns align right.
    fn table(&mut self, ev: &Event) -> bool {
        match ev {
            Event::Start(Tag::Table(aligns)) => {
                self.flush();
                let right = aligns.iter().map(|a| *a == Alignment::Right).collect();
                self.table = Some((right, Vec::new(), Vec::new()));
            }
            Event::End(TagEnd::Table) => {
                if let Some((right, head, rows)) = self.table.take() {
                    self.blocks.push(Block::Table { right, head, rows });
                }
            }
            Event::Start(Tag::TableHead) => self.in_head = true,
            Event::End(TagEnd::TableHead) => {
                self.in_head = false;
                if let Some(t) = self.table.as_mut() {
                    t.1 = std::mem::take(&mut self.row);
                }
            }
            Event::End(TagEnd::TableRow) => {
                if let Some(t) = self.table.as_mut() {
                    t.2.push(std::mem::take(&mut self.row));
                }
            }
            Event::End(TagEnd::TableCell) => {
                let cell = std::mem::take(&mut self.cur);
                self.row.push(cell);
            }
            _ => return false,
        }
        true
    }

    /// Text and its bold and italic spans.
    fn inline(&mut self, ev: &Event) -> bool {
        match ev {
            Event::Start(Tag::Strong) => self.bold_from.push(self.cur.text.len()),
            Event::End(TagEnd::Strong) => {
                if let Some(s) = self.bold_from.pop() {
                    let e = self.cur.text.len();
                    self.cur.bold.push(s..e);
                }
            }
            Event::Start(Tag::Emphasis) => self.italic_from.push(self.cur.text.len()),
            Event::End(TagEnd::Emphasis) => {
                if let Some(s) = self.italic_from.pop() {
                    let e = self.cur.text.len();
                    self.cur.italic.push(s..e);
                }
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => self.push_text(t),
            Event::SoftBreak | Event::HardBreak => self.push_text(" "),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_reads_back_as_blocks_with_every_escaped_character_kept() {
        let md = "# T\\*i\\`t\\\\le\n\npara *it* **bold**\nwrapped\n\n- a\n  - b\n\n| x | y |\n| --- | ---: |\n| a\\|b | &lt;c&gt; |\n";
        let b = blocks(md);
        assert_eq!(b[0], Block::Heading(1, Rich { text: "T*i`t\\le".into(), ..Rich::default() }));
        let Block::Para { text, .. } = &b[1] else { panic!("{:?}", b[1]) };
        assert_eq!(text.text, "para it bold wrapped");
        assert_eq!(
            (text.italic.len(), text.italic[0].clone(), text.bold.len(), text.bold[0].clone()),
            (1, 5..7, 1, 8..12)
        );
        assert!(
            matches!(&b[2], Block::Para { depth: 1, marker: Some(m), text } if m == "\u{2022}" && text.text == "a")
        );
        assert!(matches!(&b[3], Block::Para { depth: 2, text, .. } if text.text == "b"));
        let Block::Table { right, head, rows } = &b[4] else { panic!("{:?}", b[4]) };
        assert_eq!(right, &[false, true]);
        assert_eq!(head[1].text, "y");
        assert_eq!((rows[0][0].text.as_str(), rows[0][1].text.as_str()), ("a|b", "<c>"));
    }
}
