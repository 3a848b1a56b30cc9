//! Rendering: scenarios → artifacts in memory (JSON, SVG sheets, Markdown, HTML). Nothing here
//! touches the disk; `output` writes.

pub mod summary;
