//! Crash-safe tables: rows are written as sealed Parquet segments in a folder named after the
//! table (`gpu/seg-000001.parquet`; readers treat the folder as one table). A segment is written to a `.tmp` name and renamed,
//! so a reader never sees half a file; `kill -9` loses at most the rows since the last seal.

use std::path::{Path, PathBuf};

use credence_run::Table;

pub struct SegmentWriter {
    dir: PathBuf,
    next: u32,
    pub sealed: u32,
}

impl SegmentWriter {
    /// Creates `run/<table>/` as a folder of segments.
    pub fn create(run: &Path, table: &str) -> std::io::Result<SegmentWriter> {
        let dir = run.join(table);
        std::fs::create_dir_all(&dir)?;
        Ok(SegmentWriter { dir, next: 1, sealed: 0 })
    }

    /// Seals `table` as the next segment (nothing for an empty table).
    pub fn seal(&mut self, table: &Table) -> Result<(), String> {
        if table.num_rows() == 0 {
            return Ok(());
        }
        let name = format!("seg-{:06}.parquet", self.next);
        let tmp = self.dir.join(format!("{name}.tmp"));
        table.write_parquet(&tmp).map_err(|e| e.to_string())?;
        std::fs::rename(&tmp, self.dir.join(&name)).map_err(|e| format!("{}: {e}", self.dir.join(&name).display()))?;
        self.next += 1;
        self.sealed += 1;
        Ok(())
    }
}
