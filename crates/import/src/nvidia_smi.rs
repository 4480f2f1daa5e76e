//! `nvidia-smi --query-gpu=… --format=csv -l 1` logs.
//!
//! Traps handled: the separator is ", "; headers carry ` [unit]` and values unit suffixes
//! (`281.89 W`); both `clocks_throttle_reasons.*` and `clocks_event_reasons.*` spellings;
//! `[N/A]`, `[Not Supported]` and other sentinels become null (kept in the `errors` column);
//! timestamps are local time without a zone, so `--tz` is required; a row whose column count
//! differs from the header, or a cell that is neither a value nor a sentinel, is an error
//! naming its line (and column).

use std::path::Path;

use super::time::parse_datetime;
use super::{ImportError, ImportOptions, Imported};
use credence_run::rows::GpuSample;

/// Header name without ` [unit]`, with the older throttle prefix mapped to the event one.
fn canonical(h: &str) -> String {
    let name = h.split(" [").next().unwrap_or(h).trim().replace("clocks_throttle_reasons", "clocks_event_reasons");
    match name.as_str() {
        "clocks.sm" => "clocks.current.sm".into(),
        "clocks.mem" => "clocks.current.memory".into(),
        "clocks.gr" => "clocks.current.graphics".into(),
        "clocks.max.mem" => "clocks.max.memory".into(),
        "gpu_uuid" => "uuid".into(),
        _ => name,
    }
}

fn number(cell: &str) -> Option<f64> {
    let t = cell.trim();
    let num = t.split_whitespace().next()?;
    num.parse().ok()
}

fn sentinel(cell: &str) -> bool {
    let t = cell.trim();
    t.starts_with('[') || t == "N/A" || t.is_empty()
}

pub fn parse(path: &Path, bytes: &[u8], o: &ImportOptions) -> Result<Imported, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::new(path, None, format!("not UTF-8 text: {e}")))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines.next().ok_or_else(|| ImportError::new(path, None, "the file is empty"))?;
    let cols: Vec<String> = header.split(',').map(canonical).collect();
    let ts_col = cols
        .iter()
        .position(|c| c == "timestamp")
        .ok_or_else(|| ImportError::new(path, Some("line 1".into()), "expected a `timestamp` column in the header (query it with --query-gpu=timestamp,…)"))?;
    let Some(offset) = o.tz_offset_s else {
        return Err(ImportError::new(path, None, "nvidia-smi timestamps are local time without a zone")
            .hint("pass --tz with the UTC offset of the machine that ran nvidia-smi, e.g. --tz +02:00"));
    };
    let mut out = Imported { tool: "nvidia-smi".into(), timezone_assumed: o.tz_text.clone(), ..Default::default() };
    out.conversion.push(format!(
        "nvidia-smi timestamps are local time without a zone; converted with the UTC offset {} given by --tz",
        o.tz_text.clone().unwrap_or_default()
    ));
    let host = path.file_stem().map_or("nvidia-smi".to_string(), |s| s.to_string_lossy().into_owned());
    for (i, line) in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != cols.len() {
            return Err(ImportError::new(
                path,
                Some(format!("line {}", i + 1)),
                format!("has {} columns but the header has {}: the columns changed mid-file (or an error line was logged)", cells.len(), cols.len()),
            ));
        }
        let (ts, _) = parse_datetime(cells[ts_col], offset).ok_or_else(|| {
            ImportError::new(
                path,
                Some(format!("line {}, column timestamp", i + 1)),
                format!("expected YYYY/MM/DD HH:MM:SS.mmm; found {:?}", cells[ts_col].trim()),
            )
        })?;
        let mut row = Row { cols: &cols, cells, errors: Vec::new(), unreadable: None };
        let sample = row.sample(ts, &host);
        if let Some((column, cell, expected)) = row.unreadable {
            return Err(ImportError::new(path, Some(format!("line {}, column {column}", i + 1)), format!("expected {expected}; found {cell:?}")));
        }
        out.gpu.rows.push(sample);
    }
    out.aggregate_only = Some("an nvidia-smi log is GPU telemetry: import it together with a file that has the requests".into());
    Ok(out)
}

/// One data row, read by column name; sentinels read as null, noted in `errors`. A cell that
/// is neither a value nor a sentinel is kept in `unreadable` (column, cell, what was expected)
/// and fails the import, so that nothing is read as missing silently.
struct Row<'a> {
    cols: &'a [String],
    cells: Vec<&'a str>,
    errors: Vec<String>,
    unreadable: Option<(String, String, &'static str)>,
}

impl Row<'_> {
    /// The trimmed cell of a column, if the log has that column.
    fn cell(&self, name: &str) -> Option<&str> {
        self.cols.iter().position(|c| c == name).map(|j| self.cells[j].trim())
    }

    /// A numeric cell without its unit; a sentinel is noted and reads as null.
    fn num(&mut self, name: &str) -> Option<f64> {
        let c = self.cell(name)?;
        if sentinel(c) {
            let e = format!("{name}:{c}");
            self.errors.push(e);
            return None;
        }
        let value = number(c);
        if value.is_none() && self.unreadable.is_none() {
            self.unreadable = Some((name.to_string(), c.to_string(), "a number, optionally with its unit (281.89 W), or a sentinel such as [N/A]"));
        }
        value
    }

    /// The active clock-event-reasons bitmask (`0x…` hex); a sentinel is noted and reads as null.
    fn reasons(&mut self) -> Option<u64> {
        let name = "clocks_event_reasons.active";
        let c = self.cell(name)?;
        if sentinel(c) {
            self.errors.push(format!("{name}:{c}"));
            return None;
        }
        let value = u64::from_str_radix(c.trim_start_matches("0x").trim_start_matches("0X"), 16).ok();
        if value.is_none() && self.unreadable.is_none() {
            self.unreadable = Some((name.to_string(), c.to_string(), "a hexadecimal bitmask such as 0x0000000000000004"));
        }
        value
    }

    /// The row as a GPU sample taken at `ts`.
    fn sample(&mut self, ts: i64, host: &str) -> GpuSample {
        let reasons = self.reasons();
        let index = self.num("index").map_or(0, |x| x as u32);
        let sample = GpuSample {
            ts_ns: ts,
            host: host.to_string(),
            gpu_index: index,
            gpu_uuid: self.cell("uuid").filter(|u| !sentinel(u)).map_or_else(|| format!("index-{index}"), String::from),
            source: "nvidia-smi",
            sm_clock_mhz: self.num("clocks.current.sm").map(|x| x as u32),
            sm_clock_max_mhz: self.num("clocks.max.sm").map(|x| x as u32),
            mem_clock_mhz: self.num("clocks.current.memory").map(|x| x as u32),
            mem_clock_max_mhz: self.num("clocks.max.memory").map(|x| x as u32),
            clocks_event_reasons: reasons,
            temp_gpu_c: self.num("temperature.gpu"),
            temp_mem_c: self.num("temperature.memory"),
            power_w: self.num("power.draw").or_else(|| self.num("power.draw.average")),
            power_limit_w: self.num("power.limit"),
            enforced_power_limit_w: self.num("enforced.power.limit"),
            util_gpu_pct: self.num("utilization.gpu"),
            util_mem_pct: self.num("utilization.memory"),
            mem_used_bytes: self.num("memory.used").map(|m| (m * 1_048_576.0) as u64),
            mem_total_bytes: self.num("memory.total").map(|m| (m * 1_048_576.0) as u64),
            pstate: self.cell("pstate").and_then(|p| p.trim_start_matches('P').parse().ok()),
            viol_power_ns: self.num("clocks_event_reasons_counters.sw_power_cap").map(|us| (us * 1e3) as u64),
            viol_thermal_ns: self.num("clocks_event_reasons_counters.sw_thermal_slowdown").map(|us| (us * 1e3) as u64),
            errors: None,
            ..Default::default()
        };
        GpuSample { errors: (!self.errors.is_empty()).then(|| self.errors.join(";")), ..sample }
    }
}
