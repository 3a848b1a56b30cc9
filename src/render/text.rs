//! Scenario text from templates (minijinja): the defaults are embedded; any file in a GM's
//! `--templates DIR` replaces the built-in file of the same name. HTML templates autoescape, and
//! Markdown ones escape every value so it reads back as the characters it holds.

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value};
use serde::Serialize;

use crate::error::{Error, Result};

include!(concat!(env!("OUT_DIR"), "/embedded_templates.rs"));

/// A template set: the embedded defaults, with a GM's overrides on top.
pub struct Templates {
    env: Arc<Environment<'static>>,
    /// Whether a GM's folder gave any: then each render is bounded by [`TIME_LIMIT`] too.
    bounded: bool,
}

/// The most instructions one render of a set with a GM's templates may run (minijinja's fuel):
/// the built-in templates on the largest accepted scenario take a small part of it, and a GM's
/// loop that would run for hours stops in a second or two.
pub const FUEL: u64 = 50_000_000;

/// The most bytes one template's output may hold: far past the largest accepted scenario's
/// booklet, and a GM's template that would write without end stops there.
pub const OUTPUT_LIMIT: usize = 64 << 20;

/// The longest one render with a GM's templates may take. Fuel counts steps, not what a step
/// costs: an 84-byte template looping over a 1 MB `replace` spends 11 ms a step and would run
/// for minutes inside its fuel. The built-in templates on the largest accepted scenario take a
/// small part of this. A debug build (the tests) runs templates some twenty times slower, so its
/// limit is longer than the 120 s the fuel test allows itself: each of the other limits is still
/// met first on the template that tests it.
pub const TIME_LIMIT: Duration = Duration::from_secs(if cfg!(debug_assertions) { 150 } else { 5 });

impl Templates {
    /// The built-in templates, overridden file by file from `dir` when given. A GM's files are
    /// compiled here, so a broken one fails the run before any work; a built-in template is
    /// compiled when a render first asks for it, so a run compiles only what its formats use
    /// (`every_builtin_template_compiles` holds them all valid).
    pub fn load(dir: Option<&Path>) -> Result<Templates> {
        let mut files: Vec<(String, String)> = Vec::new();
        if let Some(dir) = dir {
            let entries = fs::read_dir(dir).map_err(|e| Error::read_io(dir.display(), e))?;
            let mut names: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
            names.sort();
            for p in names {
                let name = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                let text = crate::input::read_text(&p, crate::input::TEXT_LIMIT)?;
                files.push((name, text));
            }
        }
        let mut env = Environment::new();
        // A GM's template may loop for ever; the built-in ones are bounded by what they draw.
        if dir.is_some() {
            env.set_fuel(Some(FUEL));
        }
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // `{{ g.count|count(g.name) }}`: "1 Goblin", "3 Goblins" (the one text layer's plural).
        env.add_filter("count", |n: u64, noun: String| crate::text::count(n, &noun));
        env.set_auto_escape_callback(|name| {
            if name.ends_with(".html") {
                AutoEscape::Html
            } else if name.ends_with(".md") {
                AutoEscape::Custom(MARKDOWN.into())
            } else {
                AutoEscape::None
            }
        });
        env.set_formatter(|out, state, value| {
            if matches!(state.auto_escape(), AutoEscape::Custom(m) if &**m == MARKDOWN) && !value.is_safe() {
                // Markdown passes inline HTML through to whatever renders it: user text (a room
                // named `<script>`) is written with its HTML characters as entities. A string is
                // escaped where it lies (most values are), anything else as it displays.
                match value.as_str() {
                    Some(text) => write_markdown_escaped(out, text)?,
                    None => write_markdown_escaped(out, &value.to_string())?,
                }
                Ok(())
            } else {
                minijinja::escape_formatter(out, state, value)
            }
        });
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .keep_trailing_newline(true)
                .build()
                .map_err(|e| Error::Template { name: "syntax".into(), message: e.to_string() })?,
        );
        for (name, text) in files {
            env.add_template_owned(name.clone(), text).map_err(|e| Error::Template { name, message: one_line(&e) })?;
        }
        // Asked only for names no GM file holds: an added template is found before the loader.
        env.set_loader(|name| Ok(EMBEDDED_TEMPLATES.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string())));
        Ok(Templates { env: Arc::new(env), bounded: dir.is_some() })
    }

    /// Compiles template `name` now, if it is not yet, so a later `render` finds it ready (while
    /// another thread draws). A template that does not compile is left for `render` to report.
    pub fn prepare(&self, name: &str) {
        let _ = self.env.get_template(name);
    }

    /// Renders template `name` with `ctx`. Inline SVG reaches HTML through the `safe` filter; all
    /// other text is escaped in `.html` templates. With a GM's templates the render runs on a
    /// thread of its own and is refused past [`TIME_LIMIT`]: minijinja has no hook between steps
    /// to stop it, so the thread is left to run out its fuel while the run refuses (the command
    /// line's process ends with the refusal, taking the thread with it).
    pub fn render<T: Serialize>(&self, name: &str, ctx: &T) -> Result<String> {
        let ctx = Value::from(minijinja::value::Serde(ctx));
        if !self.bounded {
            return render_with(&self.env, name, ctx);
        }
        let (env, owned) = (Arc::clone(&self.env), name.to_string());
        let (tx, rx) = std::sync::mpsc::channel();
        let started = std::thread::Builder::new()
            .name(format!("template {name}"))
            .spawn(move || drop(tx.send(render_with(&env, &owned, ctx))));
        let refused = |message: String| Error::Template { name: name.to_string(), message };
        started.map_err(|e| refused(format!("cannot start its render: {e}")))?;
        match rx.recv_timeout(TIME_LIMIT) {
            Ok(rendered) => rendered,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(refused(format!(
                "it ran past {} s (a loop over a large text?); nothing written",
                TIME_LIMIT.as_secs()
            ))),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(refused("its render failed".into())),
        }
    }
}

/// Renders template `name` of `env` with `ctx`, its output capped and its fuel's end named.
fn render_with(env: &Environment<'static>, name: &str, ctx: Value) -> Result<String> {
    let tmpl = env.get_template(name).map_err(|e| match e.kind() {
        minijinja::ErrorKind::TemplateNotFound => Error::UnknownTemplate { name: name.to_string() },
        _ => Error::Template { name: name.to_string(), message: one_line(&e) },
    })?;
    let mut out = Capped { bytes: Vec::new(), over: false };
    let rendered = tmpl.render_captured_to(ctx, &mut out);
    let message = match rendered {
        Ok(_) => {
            return String::from_utf8(out.bytes)
                .map_err(|e| Error::Template { name: name.into(), message: e.to_string() });
        }
        Err(_) if out.over => format!("its output passed {} MiB; nothing written", OUTPUT_LIMIT >> 20),
        Err(e) if e.kind() == minijinja::ErrorKind::OutOfFuel => {
            format!("it ran past {FUEL} steps (a loop without end?); nothing written")
        }
        Err(e) => one_line(&e),
    };
    Err(Error::Template { name: name.to_string(), message })
}

/// A template's output, refused past `OUTPUT_LIMIT` bytes (minijinja writes whole strings, so
/// what is kept stays UTF-8).
struct Capped {
    bytes: Vec<u8>,
    over: bool,
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > OUTPUT_LIMIT {
            self.over = true;
            return Err(std::io::Error::other("the output limit"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `text` as a `.md` template writes it (see [`write_markdown_escaped`]).
pub fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let _ = write_markdown_escaped(&mut out, text);
    out
}

/// The auto-escape mode of `.md` templates.
const MARKDOWN: &str = "markdown";

/// Writes `text` so that Markdown reads it back as exactly these characters: the characters that
/// start HTML become entities; inline markup (`\\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~`) is
/// backslash-escaped anywhere, and a block marker where a line begins (`# `, `- `, `+ `, `1. `,
/// `1) `, a line of `-` or `=`) gets a backslash before it, so a value never opens a heading,
/// quote, list, rule or table cell of its own (`+2` or `-5` stay as they are). The runs between
/// them are written whole (all escaped characters are ASCII, so a run never splits a character).
fn write_markdown_escaped(out: &mut impl std::fmt::Write, text: &str) -> std::fmt::Result {
    let bytes = text.as_bytes();
    // Whether the line from byte `i` on is blank or closes a block marker (a space follows).
    let ends_marker = |i: usize| bytes.get(i).is_none_or(|&b| b == b' ' || b == b'\t' || b == b'\n');
    // Whether the line from byte `i` on is only `-`, `=` or spaces (a rule or heading underline).
    let rule_line = |i: usize| bytes[i..].iter().take_while(|&&b| b != b'\n').all(|&b| matches!(b, b'-' | b'=' | b' '));
    let mut start = 0;
    // At a line's first non-space character, where block markers count.
    let mut line_start = true;
    for (i, &b) in bytes.iter().enumerate() {
        let marker = line_start
            && match b {
                b'#' => ends_marker(i + bytes[i..].iter().take_while(|&&c| c == b'#').count()),
                b'-' | b'+' => ends_marker(i + 1) || rule_line(i),
                b'=' => rule_line(i),
                b'0'..=b'9' => {
                    let n = bytes[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                    matches!(bytes.get(i + n), Some(b'.' | b')')) && ends_marker(i + n + 1)
                }
                _ => false,
            };
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'\\' => "\\\\",
            b'`' => "\\`",
            b'*' => "\\*",
            b'_' => "\\_",
            b'[' => "\\[",
            b']' => "\\]",
            b'|' => "\\|",
            b'~' => "\\~",
            _ if marker => {
                // A backslash before the marker's first character keeps it text.
                out.write_str(&text[start..i])?;
                out.write_str("\\")?;
                start = i;
                line_start = false;
                continue;
            }
            _ => {
                line_start = b == b'\n' || (line_start && b == b' ');
                continue;
            }
        };
        line_start = false;
        out.write_str(&text[start..i])?;
        out.write_str(entity)?;
        start = i + 1;
    }
    out.write_str(&text[start..])
}

fn one_line(e: &minijinja::Error) -> String {
    let mut msg = e.to_string();
    if let Some(line) = e.line() {
        msg = format!("line {line}: {msg}");
    }
    msg.lines().next().unwrap_or("template error").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_text_writes_html_characters_as_entities_and_keeps_the_rest() {
        let mut out = String::new();
        write_markdown_escaped(&mut out, "A <b> & \u{00e9}t\u{00e9} > *x*").expect("writes to a String");
        assert_eq!(out, "A &lt;b&gt; &amp; \u{00e9}t\u{00e9} &gt; \\*x\\*");
    }

    #[test]
    fn markdown_text_never_opens_markup_of_its_own() {
        let esc = |s: &str| {
            let mut out = String::new();
            write_markdown_escaped(&mut out, s).expect("writes to a String");
            out
        };
        assert_eq!(esc("a|b"), "a\\|b");
        assert_eq!(esc("# x\n> y\n- z\n12. w\n---"), "\\# x\n&gt; y\n\\- z\n\\12. w\n\\---");
        assert_eq!(esc("+2 Damage, #1, -5 to hit, 3.5"), "+2 Damage, #1, -5 to hit, 3.5");
        assert_eq!(esc("2D6+10 - 3"), "2D6+10 - 3");
        assert_eq!(esc("a\\b `c` _d_ [e]"), "a\\\\b \\`c\\` \\_d\\_ \\[e\\]");
    }

    #[test]
    fn every_builtin_template_compiles() {
        let t = Templates::load(None).expect("built-in templates load");
        for (name, _) in EMBEDDED_TEMPLATES {
            if let Err(e) = t.env.get_template(name) {
                panic!("built-in template `{name}`: {}", one_line(&e));
            }
        }
    }
}
