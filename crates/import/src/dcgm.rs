//! dcgm-exporter Prometheus text scrapes saved to a file.
//!
//! Sample times come from the exposition's optional timestamp (epoch ms after the value) or
//! from a `# scrape_time <epoch seconds | ISO 8601>` comment before each scrape. DCGM's blank
//! sentinels (INT64 ≥ 0x7ffffffffffffff0, INT32 ≥ 0x7ffffff0, FP64 140737488355328.0) become
//! null. Both old and new field names are read; label names match case-insensitively.

use std::collections::BTreeMap;
use std::path::Path;

use super::time::parse_datetime;
use super::{ImportError, ImportOptions, Imported};
use credence_run::rows::GpuSample;

/// DCGM's blank values (no sample, `dcgm_structs.h`): each type's blank and the three codes
/// after it (not found, not supported, not permissioned) for int64 (from 0x7ffffffffffffff0),
/// fp64 (2^47) and int32 (0x7ffffff0); and anything not finite. No telemetry field reaches
/// these magnitudes.
fn blank(v: f64) -> bool {
    const FP64_BLANK: f64 = 140_737_488_355_328.0;
    const INT32_BLANK: f64 = 2_147_483_632.0;
    v >= 0x7fff_ffff_ffff_fff0_i64 as f64 || (FP64_BLANK..=FP64_BLANK + 3.0).contains(&v) || (INT32_BLANK..=INT32_BLANK + 3.0).contains(&v) || !v.is_finite()
}

/// One exposition line: metric name, labels, value and timestamp (ns), when it has one.
type Sample = (String, BTreeMap<String, String>, f64, Option<i64>);

/// `name{a="b",...} value [ts]` → (name, labels, value, ts).
fn sample(line: &str) -> Option<Sample> {
    let (name, rest) = match line.find('{') {
        Some(i) => (&line[..i], &line[i..]),
        None => line.split_once(' ')?,
    };
    let (labels, tail) = if rest.starts_with('{') {
        let end = rest.find('}')?;
        let mut m = BTreeMap::new();
        for part in rest[1..end].split("\",") {
            if let Some((k, v)) = part.split_once("=\"") {
                m.insert(k.trim().to_ascii_lowercase(), v.trim_end_matches('"').to_string());
            }
        }
        (m, &rest[end + 1..])
    } else {
        (BTreeMap::new(), rest)
    };
    let mut it = tail.split_whitespace();
    let value: f64 = it.next()?.parse().ok()?;
    // A timestamp, when present, is integer milliseconds that fit in i64 nanoseconds (years
    // 1677 to 2262); anything else makes the line no sample, rather than a sample at the
    // scrape's time.
    let ts = match it.next() {
        Some(t) => Some(t.parse::<i64>().ok()?.checked_mul(1_000_000)?),
        None => None,
    };
    Some((name.trim().to_string(), labels, value, ts))
}

pub fn parse(path: &Path, bytes: &[u8], o: &ImportOptions) -> Result<Imported, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::new(path, None, format!("not UTF-8 text: {e}")))?;
    let mut scrape_ts: Option<i64> = None;
    // (ts, uuid) → sample under construction.
    let mut acc: BTreeMap<(i64, String), GpuSample> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if let Some(t) = l.strip_prefix("# scrape_time ") {
            scrape_ts = Some(scrape_time(path, i, t.trim(), o)?);
            continue;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let Some((name, labels, value, ts)) = sample(l) else {
            return Err(ImportError::new(path, Some(format!("line {}", i + 1)), "not a Prometheus sample line (name{labels} value [timestamp])"));
        };
        let Some(ts) = ts.or(scrape_ts) else {
            return Err(ImportError::new(path, Some(format!("line {}", i + 1)), "the sample has no time")
                .hint("save each scrape with a `# scrape_time <epoch seconds>` line before it, or keep the exporter's timestamps"));
        };
        let uuid = labels.get("uuid").cloned().unwrap_or_else(|| format!("gpu-{}", labels.get("gpu").cloned().unwrap_or_default()));
        let s = acc.entry((ts, uuid.clone())).or_insert_with(|| GpuSample {
            ts_ns: ts,
            host: labels.get("hostname").cloned().unwrap_or_else(|| "dcgm".into()),
            gpu_index: labels.get("gpu").and_then(|g| g.parse().ok()).unwrap_or(0),
            gpu_uuid: uuid,
            source: "dcgm",
            ..Default::default()
        });
        set_field(s, &name, (!blank(value)).then_some(value));
    }
    let mut out = Imported { tool: "dcgm-exporter".into(), ..Default::default() };
    out.gpu.rows = acc.into_values().collect();
    out.conversion.push("dcgm-exporter sample times from the exposition timestamps or the file's scrape_time comments (epoch)".into());
    out.aggregate_only = Some("a DCGM scrape file is GPU telemetry: import it together with a file that has the requests".into());
    Ok(out)
}

/// The time of the scrape that follows a `# scrape_time` comment (line `i`, 0-based), in epoch ns.
fn scrape_time(path: &Path, i: usize, t: &str, o: &ImportOptions) -> Result<i64, ImportError> {
    Ok(match t.parse::<f64>() {
        Ok(s) => (s * 1e9) as i64,
        Err(_) => parse_datetime(t, o.tz_offset_s.unwrap_or(0))
            .map(|x| x.0)
            .ok_or_else(|| ImportError::new(path, Some(format!("line {}", i + 1)), format!("scrape_time {t:?} is neither epoch seconds nor ISO 8601")))?,
    })
}

/// Sets the sample's field for one DCGM metric (old and new names); a blank value is noted in `errors`.
fn set_field(s: &mut GpuSample, name: &str, v: Option<f64>) {
    match name {
        "DCGM_FI_DEV_SM_CLOCK" => s.sm_clock_mhz = v.map(|x| x as u32),
        "DCGM_FI_DEV_MEM_CLOCK" => s.mem_clock_mhz = v.map(|x| x as u32),
        "DCGM_FI_DEV_MAX_SM_CLOCK" => s.sm_clock_max_mhz = v.map(|x| x as u32),
        "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" | "DCGM_FI_DEV_CLOCKS_EVENT_REASONS" => s.clocks_event_reasons = v.map(|x| x as u64),
        "DCGM_FI_DEV_GPU_TEMP" | "DCGM_FI_DEV_GPU_TEMP_CELSIUS" => s.temp_gpu_c = v,
        "DCGM_FI_DEV_MEMORY_TEMP" | "DCGM_FI_DEV_MEMORY_TEMP_CELSIUS" => s.temp_mem_c = v,
        "DCGM_FI_DEV_POWER_USAGE" | "DCGM_FI_DEV_BOARD_POWER_WATTS" => s.power_w = v,
        "DCGM_FI_DEV_POWER_MGMT_LIMIT" => s.power_limit_w = v,
        "DCGM_FI_DEV_ENFORCED_POWER_LIMIT" => s.enforced_power_limit_w = v,
        "DCGM_FI_DEV_GPU_UTIL" | "DCGM_FI_DEV_GPU_UTIL_RATIO" => s.util_gpu_pct = v,
        "DCGM_FI_DEV_MEM_COPY_UTIL" => s.util_mem_pct = v,
        "DCGM_FI_DEV_FB_USED" => s.mem_used_bytes = v.map(|m| (m * 1_048_576.0) as u64),
        "DCGM_FI_DEV_FB_TOTAL" => s.mem_total_bytes = v.map(|m| (m * 1_048_576.0) as u64),
        "DCGM_FI_DEV_PSTATE" | "DCGM_FI_DEV_GPU_PSTATE" => s.pstate = v.map(|x| x as u32),
        _ => {}
    }
    if v.is_none() {
        let e = s.errors.get_or_insert_with(String::new);
        if !e.is_empty() {
            e.push(';');
        }
        e.push_str(&format!("{name}:blank"));
    }
}

#[cfg(test)]
mod tests {
    use super::blank;

    #[test]
    fn every_blank_code_of_each_type_is_blank_and_real_values_are_not() {
        // INT64 blank + 2 (NOT_SUPPORTED), as dcgm-exporter's README shows it.
        assert!(blank(9_223_372_036_854_775_794.0));
        for code in 0..4 {
            assert!(blank(140_737_488_355_328.0 + code as f64), "fp64 blank + {code}");
            assert!(blank(2_147_483_632.0 + code as f64), "int32 blank + {code}");
        }
        for real in [0.0, 71.5, 1980.0, 2_147_483_631.0, 140_737_488_355_327.0] {
            assert!(!blank(real), "{real}");
        }
        assert!(blank(f64::NAN) && blank(f64::INFINITY));
    }
}
