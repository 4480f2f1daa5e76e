//! `nvidia-smi dmon` logs with a date and time column (`-o DT`): space-aligned, the two `#`
//! header lines repeat, `-` marks an unsupported field. Times are local without a zone (`--tz`).
//! Any other cell that is not a number is an error naming its line and column.

use std::path::Path;

use super::time::parse_datetime;
use super::{ImportError, ImportOptions, Imported};
use credence_run::rows::GpuSample;

pub fn parse(path: &Path, bytes: &[u8], o: &ImportOptions) -> Result<Imported, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::new(path, None, format!("not UTF-8 text: {e}")))?;
    let mut cols: Vec<String> = Vec::new();
    let mut out = Imported { tool: "nvidia-smi dmon".into(), timezone_assumed: o.tz_text.clone(), ..Default::default() };
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        if let Some(h) = l.strip_prefix('#') {
            // The first `#` line of each pair names the columns; the second gives units.
            let names: Vec<String> = h.split_whitespace().map(|s| s.to_ascii_lowercase()).collect();
            if names.iter().any(|n| n == "gpu") {
                cols = names;
            }
            continue;
        }
        if cols.is_empty() {
            return Err(ImportError::new(path, Some(format!("line {}", i + 1)), "a data line before the `# gpu …` header"));
        }
        out.gpu.rows.push(sample(path, i + 1, l, &cols, o)?);
    }
    out.conversion.push(format!("dmon Date/Time are local time; converted with UTC offset {}", o.tz_text.clone().unwrap_or_default()));
    out.aggregate_only = Some("a dmon log is GPU telemetry: import it together with a file that has the requests".into());
    Ok(out)
}

/// One data line (`line_no`, 1-based) as a GPU sample, its cells named by the header `cols`.
fn sample(path: &Path, line_no: usize, l: &str, cols: &[String], o: &ImportOptions) -> Result<GpuSample, ImportError> {
    let cells: Vec<&str> = l.split_whitespace().collect();
    if cells.len() != cols.len() {
        return Err(ImportError::new(path, Some(format!("line {line_no}")), format!("has {} fields but the header has {}", cells.len(), cols.len())));
    }
    if let Some((j, cell)) = cells.iter().enumerate().find(|(j, c)| !matches!(cols[*j].as_str(), "date" | "time") && **c != "-" && c.parse::<f64>().is_err()) {
        return Err(ImportError::new(
            path,
            Some(format!("line {line_no}, column {}", cols[j])),
            format!("expected a number or `-` (unsupported); found {cell:?}"),
        ));
    }
    let get = |name: &str| cols.iter().position(|c| c == name).map(|j| cells[j]).filter(|c| *c != "-");
    let (Some(date), Some(time)) = (get("date"), get("time")) else {
        return Err(ImportError::new(path, Some(format!("line {line_no}")), "no Date and Time columns")
            .hint("record dmon with -o DT so that every line carries its time"));
    };
    let Some(off) = o.tz_offset_s else {
        return Err(ImportError::new(path, None, "dmon times are local time without a zone").hint("pass --tz with the UTC offset, e.g. --tz +02:00"));
    };
    let ts = parse_datetime(&format!("{date} {time}"), off)
        .map(|x| x.0)
        .ok_or_else(|| ImportError::new(path, Some(format!("line {line_no}")), format!("expected YYYYMMDD HH:MM:SS; found {date} {time}")))?;
    let num = |n: &str| get(n).and_then(|c| c.parse::<f64>().ok());
    let idx = num("gpu").map_or(0, |x| x as u32);
    Ok(GpuSample {
        ts_ns: ts,
        host: path.file_stem().map_or("dmon".into(), |s| s.to_string_lossy().into_owned()),
        gpu_index: idx,
        gpu_uuid: format!("index-{idx}"),
        source: "nvidia-smi",
        sm_clock_mhz: num("pclk").map(|x| x as u32),
        mem_clock_mhz: num("mclk").map(|x| x as u32),
        temp_gpu_c: num("gtemp"),
        temp_mem_c: num("mtemp"),
        power_w: num("pwr"),
        util_gpu_pct: num("sm"),
        util_mem_pct: num("mem"),
        ..Default::default()
    })
}
