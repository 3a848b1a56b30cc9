//! The tables built into the binary: build.rs embeds the files' TOML text and their value trees
//! as a blob (see [`super::blob`]). At run time the records are read from the blob and only the
//! indexes are built; the checks a `--tables` folder gets are run on them by the tests
//! (`the_built_in_tables_pass_every_check_a_tables_folder_gets`), not by every run.

use serde::Deserialize;

use super::blob::Reader;
use super::{TableFile, Tables};
use crate::error::{Error, Result};

include!(concat!(env!("OUT_DIR"), "/embedded_tables.rs"));
include!(concat!(env!("OUT_DIR"), "/embedded_tables_blob.rs"));

impl Tables {
    /// The tables built into the binary: records read from the blob build.rs made of them, then
    /// indexed (not checked: the tests check them).
    pub fn embedded() -> Result<Tables> {
        let blob_error =
            |file: &str, e: super::blob::BlobError| Error::TableFile { file: file.into(), message: e.to_string() };
        let mut reader = Reader::new(EMBEDDED_TABLES_BLOB, EMBEDDED_TABLES_POOL);
        let count = reader.files().map_err(|e| blob_error("embedded", e))?;
        let mut parsed = Vec::with_capacity(count);
        for _ in 0..count {
            let path = reader.path().map_err(|e| blob_error("embedded", e))?;
            let file = if super::nw3_episode::is_episode_file(path) {
                let episode =
                    super::nw3_episode::EpisodeData::deserialize(&mut reader).map_err(|e| blob_error(path, e))?;
                TableFile { episode: Some(episode), ..TableFile::default() }
            } else {
                TableFile::deserialize(&mut reader).map_err(|e| blob_error(path, e))?
            };
            parsed.push((path.to_string(), file));
        }
        Tables::from_parsed("embedded".into(), EMBEDDED_TABLES_VERSION.into(), parsed, false)
    }

    /// The tables built into the binary, parsed from their TOML text and checked as a `--tables`
    /// folder is.
    pub fn embedded_from_toml() -> Result<Tables> {
        let files: Vec<(String, String)> =
            EMBEDDED_TABLES.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        Tables::from_files("embedded".into(), &files)
    }
}
