//! SVG elements written straight into a `String`.
//!
//! The sheets were once built as `svg` crate nodes and written by their `Display`: a `HashMap` of
//! attributes per element, every attribute and every escape through `core::fmt` and fresh
//! strings. That was most of the instructions a sheet cost. This writer keeps that crate's
//! output byte for byte (the goldens and the outputs snapshot hold it to that):
//! - attributes are written sorted by name (setting a name twice keeps the last value);
//! - an element without children is written `<name .../>`;
//! - each child element starts on a new line, and so does the closing tag after one; text sits
//!   right against its tags (`<text x="1">A1</text>`);
//! - text escapes `&`, `<` and `>`; attribute values also escape `"` as `&quot;` and `'` as
//!   `&apos;`.

use std::borrow::Cow;

/// One element: its attributes and children, written by [`El::write`].
#[derive(Clone, Debug)]
pub(crate) struct El {
    name: &'static str,
    attrs: Vec<(&'static str, Cow<'static, str>)>,
    kids: Vec<Kid>,
}

#[derive(Clone, Debug)]
enum Kid {
    El(El),
    Text(String),
}

impl El {
    pub(crate) fn new(name: &'static str) -> El {
        El { name, attrs: Vec::new(), kids: Vec::new() }
    }

    /// Sets attribute `name` (again: the last value wins, as a map would have it).
    pub(crate) fn set(mut self, name: &'static str, value: impl Into<Cow<'static, str>>) -> El {
        self.assign(name, value);
        self
    }

    pub(crate) fn assign(&mut self, name: &'static str, value: impl Into<Cow<'static, str>>) {
        let value = value.into();
        match self.attrs.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.attrs.push((name, value)),
        }
    }

    /// Appends a child element.
    pub(crate) fn add(mut self, child: El) -> El {
        self.kids.push(Kid::El(child));
        self
    }

    /// Appends text (escaped when written).
    pub(crate) fn text(mut self, text: impl Into<String>) -> El {
        self.kids.push(Kid::Text(text.into()));
        self
    }

    /// Writes the element, its attributes sorted by name, then its children.
    pub(crate) fn write(&self, out: &mut String) {
        out.push('<');
        out.push_str(self.name);
        let mut order: Vec<&(&'static str, Cow<'static, str>)> = self.attrs.iter().collect();
        order.sort_unstable_by_key(|(n, _)| *n);
        for (name, value) in order {
            attr(out, name, value);
        }
        if self.kids.is_empty() {
            out.push_str("/>");
            return;
        }
        out.push('>');
        let mut bare = false;
        for kid in &self.kids {
            bare = matches!(kid, Kid::Text(_));
            if !bare {
                out.push('\n');
            }
            match kid {
                Kid::El(e) => e.write(out),
                Kid::Text(t) => escape_text(out, t),
            }
        }
        if !bare {
            out.push('\n');
        }
        out.push_str("</");
        out.push_str(self.name);
        out.push('>');
    }
}

/// ` name="value"`, the value escaped for an attribute.
pub(crate) fn attr(out: &mut String, name: &str, value: &str) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    escape(out, value, true);
    out.push('"');
}

/// Text content, escaped.
pub(crate) fn escape_text(out: &mut String, text: &str) {
    escape(out, text, false);
}

fn escape(out: &mut String, s: &str, quotes: bool) {
    let special = |b: u8| matches!(b, b'&' | b'<' | b'>') || (quotes && matches!(b, b'"' | b'\''));
    // Whole runs of plain text are copied at once; the special characters are all ASCII, so
    // splitting at them never cuts a character.
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !special(b) {
            continue;
        }
        out.push_str(&s[start..i]);
        out.push_str(match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&apos;",
        });
        start = i + 1;
    }
    out.push_str(&s[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(e: &El) -> String {
        let mut s = String::new();
        e.write(&mut s);
        s
    }

    #[test]
    fn attributes_are_written_sorted_and_a_second_set_replaces_the_first() {
        let e = El::new("rect").set("y", "2").set("fill", "#fff").set("x", "1").set("fill", "none");
        assert_eq!(written(&e), r##"<rect fill="none" x="1" y="2"/>"##);
    }

    #[test]
    fn child_elements_start_new_lines_and_text_hugs_its_tags() {
        let e = El::new("g").add(El::new("title").text("A & B")).add(El::new("line"));
        assert_eq!(written(&e), "<g>\n<title>A &amp; B</title>\n<line/>\n</g>");
    }

    #[test]
    fn attribute_values_escape_quotes_and_text_does_not() {
        let e = El::new("text").set("id", r#"a"b'c<&>"#).text(r#"a"b'c<&>"#);
        assert_eq!(written(&e), r#"<text id="a&quot;b&apos;c&lt;&amp;&gt;">a"b'c&lt;&amp;&gt;</text>"#);
    }
}
