//! Row builders for producers (importers, collectors, the load generator): they push plain rows,
//! these turn them into the tables `schemas/` defines (so every producer writes the published layout).

use crate::schema::TableKind;
use crate::table::{Column, Table, TimestampLists, utf8_column};

/// One request as a format reports it; times are epoch ns.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub id: String,
    pub scheduled_ns: Option<i64>,
    pub sent_ns: i64,
    /// Arrival of the response's first byte, where the source records it.
    pub first_byte_ns: Option<i64>,
    pub first_token_ns: Option<i64>,
    /// Arrival of the first answer token (not reasoning), where the source tells them apart.
    pub first_content_ns: Option<i64>,
    pub end_ns: i64,
    pub chunk_ns: Option<Vec<i64>>,
    pub input_tokens: Option<u32>,
    pub output_tokens: Option<u32>,
    /// The reasoning share of `output_tokens`, where the source reports it.
    pub reasoning_tokens: Option<u32>,
    pub cached_tokens: Option<u32>,
    /// The prompt's length as the load generator built it (words, or tokens with a tokenizer).
    pub intended_input_tokens: Option<u32>,
    /// A conversation's session number and turn (from 1), for multi-turn workloads.
    pub session: Option<u32>,
    pub turn: Option<u32>,
    /// The LoRA adapter the request named as its model (`bench --lora`).
    pub adapter: Option<String>,
    /// A hash of the prompt as sent (16 hex digits), so that runs can be matched prompt for prompt.
    pub prompt_hash: Option<String>,
    pub ok: bool,
    /// One of the schema's error kinds.
    pub error_kind: Option<&'static str>,
    pub error_message: Option<String>,
    pub http_status: Option<u32>,
    /// `warmup`, `measure` or `cooldown`, when the tool declares phases.
    pub phase: Option<&'static str>,
    /// Set by an importer when the source record breaks the contract in a way the row's times
    /// cannot show (a non-finite gap, an unparseable time): the field and what was wrong.
    pub invalid_source: Option<String>,
}

/// 2000-01-01 in epoch ns: an absolute time before it is a unit or origin mistake.
pub const YEAR_2000_NS: i64 = 946_684_800_000_000_000;
/// 2200-01-01 in epoch ns: an absolute time after it is a unit mistake or an overflow.
const YEAR_2200_NS: i64 = 7_258_118_400_000_000_000;
/// No request lasts a week: a longer span is an overflow or a unit mistake.
const WEEK_NS: i64 = 7 * 86_400 * 1_000_000_000;

impl Request {
    /// Why this row's send time cannot place it on a wall clock (before 2000 or after 2200):
    /// such a row cannot be kept, as it would stretch the run.
    pub fn misplaced(&self) -> Option<String> {
        (!(YEAR_2000_NS..YEAR_2200_NS).contains(&self.sent_ns))
            .then(|| format!("sent time {} ns since the epoch is not a date between 2000 and 2200 (a unit or clock-origin mistake)", self.sent_ns))
    }

    /// Why this row breaks the requests contract that `validate` enforces, if it does:
    /// sent ≤ first byte ≤ first token ≤ end, chunk times inside the span and in order, and
    /// a span under a week.
    /// Differences saturate: a damaged source can put a time anywhere on the i64 clock.
    pub fn contract_violation(&self) -> Option<String> {
        if let Some(why) = &self.invalid_source {
            return Some(why.clone());
        }
        let (s, e) = (self.sent_ns, self.end_ns);
        let ms = |ns: i64| format!("{:.3} ms", ns as f64 / 1e6);
        if e < s {
            return Some(format!("end is {} before sent", ms(s.saturating_sub(e))));
        }
        if e.saturating_sub(s) > WEEK_NS {
            return Some(format!("the request lasts {:.0} days (an overflow or a unit mistake)", e.saturating_sub(s) as f64 / 86_400e9));
        }
        if let Some(ft) = self.first_token_ns
            && !(s..=e).contains(&ft)
        {
            return Some(format!("first token at {} after sent, outside the request's span of {}", ms(ft.saturating_sub(s)), ms(e.saturating_sub(s))));
        }
        if let Some(fb) = self.first_byte_ns
            && (!(s..=e).contains(&fb) || self.first_token_ns.is_some_and(|ft| ft < fb))
        {
            return Some(format!("first byte at {} after sent, outside the span or after the first token", ms(fb.saturating_sub(s))));
        }
        let chunks = self.chunk_ns.as_deref().unwrap_or(&[]);
        if let Some(k) = chunks.windows(2).position(|w| w[1] < w[0]) {
            return Some(format!("chunk {} arrives {} before chunk {} (a negative gap)", k + 1, ms(chunks[k].saturating_sub(chunks[k + 1])), k));
        }
        if let Some(k) = chunks.iter().position(|&c| !(s..=e).contains(&c)) {
            return Some(format!("chunk {k} at {} after sent, outside the request's span of {}", ms(chunks[k].saturating_sub(s)), ms(e.saturating_sub(s))));
        }
        None
    }

    /// The row kept as a failed one of kind `invalid_source_row`: the times that break the
    /// contract are dropped (the message keeps what was wrong), so the run still validates.
    fn into_invalid(mut self, why: String, file: &str) -> Request {
        self.error_message = Some(format!("{file}, request {}: {why}", self.id));
        self.ok = false;
        self.error_kind = Some("invalid_source_row");
        if !(0..=WEEK_NS).contains(&self.end_ns.saturating_sub(self.sent_ns)) {
            self.end_ns = self.sent_ns;
        }
        self.first_byte_ns = None;
        self.first_token_ns = None;
        self.first_content_ns = None;
        self.chunk_ns = None;
        self.invalid_source = None;
        self
    }
}

/// Chunk arrival times: the first token, then one more after each inter-chunk gap (gaps in units of `unit_ns` ns).
/// Saturating: a damaged gap (beyond i64 nanoseconds) is the importer's to flag, not an overflow.
pub fn chunk_times(first_ns: i64, gaps: impl IntoIterator<Item = f64>, unit_ns: f64) -> Vec<i64> {
    let mut t = first_ns;
    let mut c = vec![t];
    for g in gaps {
        t = t.saturating_add((g * unit_ns) as i64);
        c.push(t);
    }
    c
}

#[derive(Debug, Default)]
pub struct RequestRows {
    pub rows: Vec<Request>,
}

impl RequestRows {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn push(&mut self, r: Request) {
        self.rows.push(r);
    }

    /// Keeps every row that breaks the contract as a failed `invalid_source_row` row (its
    /// message names `file`, the request and what was wrong) and gives duplicate ids a `#n`
    /// suffix (marked the same way); returns how many rows were kept so. A row of a
    /// wall-clock run whose send time is no date cannot be placed, and is an error.
    pub fn quarantine_invalid(&mut self, file: &str, absolute: bool) -> Result<usize, String> {
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut invalid = 0;
        for r in &mut self.rows {
            if let Some(why) = r.misplaced().filter(|_| absolute) {
                return Err(format!("request {}: {why}", r.id));
            }
            let copies = seen.entry(r.id.clone()).or_insert(0);
            *copies += 1;
            let mut why = r.contract_violation();
            if *copies > 1 {
                why.get_or_insert_with(|| format!("a second record with id {:?}", crate::text::sanitize(&r.id)));
                r.id = format!("{}#{}", r.id, copies);
            }
            if let Some(why) = why {
                *r = std::mem::take(r).into_invalid(why, file);
                invalid += 1;
            }
        }
        Ok(invalid)
    }

    /// The requests table, rows in send order.
    pub fn into_table(mut self) -> Result<Table, String> {
        self.rows.sort_by_key(|r| r.sent_ns);
        let r = &self.rows;
        let mut chunks = TimestampLists::new();
        for x in r {
            chunks.push(x.chunk_ns.as_deref());
        }
        Table::from_columns(
            TableKind::Requests,
            vec![
                ("request_id", utf8_column(r.iter().map(|x| Some(x.id.as_str())))),
                ("client_id", utf8_column(r.iter().map(|_| None))),
                ("client_host", utf8_column(r.iter().map(|_| None))),
                ("scheduled_ns", Column::Timestamp(r.iter().map(|x| x.scheduled_ns).collect())),
                ("sent_ns", Column::Timestamp(r.iter().map(|x| Some(x.sent_ns)).collect())),
                ("first_byte_ns", Column::Timestamp(r.iter().map(|x| x.first_byte_ns).collect())),
                ("first_token_ns", Column::Timestamp(r.iter().map(|x| x.first_token_ns).collect())),
                ("first_content_ns", Column::Timestamp(r.iter().map(|x| x.first_content_ns).collect())),
                ("end_ns", Column::Timestamp(r.iter().map(|x| Some(x.end_ns)).collect())),
                ("chunk_ns", Column::TimestampList(chunks)),
                ("input_tokens", Column::UInt32(r.iter().map(|x| x.input_tokens).collect())),
                ("output_tokens", Column::UInt32(r.iter().map(|x| x.output_tokens).collect())),
                ("reasoning_tokens", Column::UInt32(r.iter().map(|x| x.reasoning_tokens).collect())),
                ("cached_tokens", Column::UInt32(r.iter().map(|x| x.cached_tokens).collect())),
                ("status", utf8_column(r.iter().map(|x| Some(if x.ok { "ok" } else { "error" })))),
                ("error_kind", utf8_column(r.iter().map(|x| if x.ok { None } else { Some(x.error_kind.unwrap_or("other")) }))),
                ("error_message", utf8_column(r.iter().map(|x| x.error_message.as_deref()))),
                ("http_status", Column::UInt32(r.iter().map(|x| x.http_status).collect())),
                ("phase", utf8_column(r.iter().map(|x| x.phase))),
                ("intended_input_tokens", Column::UInt32(r.iter().map(|x| x.intended_input_tokens).collect())),
                ("session", Column::UInt32(r.iter().map(|x| x.session).collect())),
                ("turn", Column::UInt32(r.iter().map(|x| x.turn).collect())),
                ("adapter", utf8_column(r.iter().map(|x| x.adapter.as_deref()))),
                ("prompt_hash", utf8_column(r.iter().map(|x| x.prompt_hash.as_deref()))),
            ],
        )
        .map_err(|e| e.to_string())
    }
}

/// One GPU sample (any field may be missing).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GpuSample {
    pub ts_ns: i64,
    pub host: String,
    pub gpu_index: u32,
    pub gpu_uuid: String,
    pub source: &'static str,
    pub sm_clock_mhz: Option<u32>,
    pub sm_clock_max_mhz: Option<u32>,
    pub mem_clock_mhz: Option<u32>,
    pub mem_clock_max_mhz: Option<u32>,
    pub clocks_event_reasons: Option<u64>,
    pub temp_gpu_c: Option<f64>,
    pub temp_mem_c: Option<f64>,
    pub power_w: Option<f64>,
    pub power_limit_w: Option<f64>,
    pub enforced_power_limit_w: Option<f64>,
    pub util_gpu_pct: Option<f64>,
    pub util_mem_pct: Option<f64>,
    pub mem_used_bytes: Option<u64>,
    pub mem_total_bytes: Option<u64>,
    pub pstate: Option<u32>,
    pub viol_power_ns: Option<u64>,
    pub viol_thermal_ns: Option<u64>,
    /// How long taking the sample took (collectors).
    pub sample_us: Option<u32>,
    pub temp_slowdown_c: Option<f64>,
    pub energy_mj: Option<u64>,
    pub compute_proc_count: Option<u32>,
    pub foreign_proc_count: Option<u32>,
    pub foreign_mem_bytes: Option<u64>,
    pub errors: Option<String>,
}

#[derive(Debug, Default)]
pub struct GpuRows {
    pub rows: Vec<GpuSample>,
}

impl GpuRows {
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn extend(&mut self, other: GpuRows) {
        self.rows.extend(other.rows);
    }

    pub fn into_table(mut self) -> Result<Table, String> {
        self.rows.sort_by(|a, b| (a.host.as_str(), &a.gpu_uuid, a.ts_ns).cmp(&(b.host.as_str(), &b.gpu_uuid, b.ts_ns)));
        let r = &self.rows;
        Table::from_columns(
            TableKind::Gpu,
            vec![
                ("ts_ns", Column::Timestamp(r.iter().map(|x| Some(x.ts_ns)).collect())),
                ("host", utf8_column(r.iter().map(|x| Some(x.host.as_str())))),
                ("gpu_index", Column::UInt32(r.iter().map(|x| Some(x.gpu_index)).collect())),
                ("gpu_uuid", utf8_column(r.iter().map(|x| Some(x.gpu_uuid.as_str())))),
                ("source", utf8_column(r.iter().map(|x| Some(x.source)))),
                ("sm_clock_mhz", Column::UInt32(r.iter().map(|x| x.sm_clock_mhz).collect())),
                ("sm_clock_max_mhz", Column::UInt32(r.iter().map(|x| x.sm_clock_max_mhz).collect())),
                ("mem_clock_mhz", Column::UInt32(r.iter().map(|x| x.mem_clock_mhz).collect())),
                ("mem_clock_max_mhz", Column::UInt32(r.iter().map(|x| x.mem_clock_max_mhz).collect())),
                ("clocks_event_reasons", Column::UInt64(r.iter().map(|x| x.clocks_event_reasons).collect())),
                ("temp_gpu_c", Column::Float64(r.iter().map(|x| x.temp_gpu_c).collect())),
                ("temp_mem_c", Column::Float64(r.iter().map(|x| x.temp_mem_c).collect())),
                ("temp_slowdown_c", Column::Float64(r.iter().map(|x| x.temp_slowdown_c).collect())),
                ("power_w", Column::Float64(r.iter().map(|x| x.power_w).collect())),
                ("power_limit_w", Column::Float64(r.iter().map(|x| x.power_limit_w).collect())),
                ("enforced_power_limit_w", Column::Float64(r.iter().map(|x| x.enforced_power_limit_w).collect())),
                ("energy_mj", Column::UInt64(r.iter().map(|x| x.energy_mj).collect())),
                ("util_gpu_pct", Column::Float64(r.iter().map(|x| x.util_gpu_pct).collect())),
                ("util_mem_pct", Column::Float64(r.iter().map(|x| x.util_mem_pct).collect())),
                ("mem_used_bytes", Column::UInt64(r.iter().map(|x| x.mem_used_bytes).collect())),
                ("mem_total_bytes", Column::UInt64(r.iter().map(|x| x.mem_total_bytes).collect())),
                ("viol_power_ns", Column::UInt64(r.iter().map(|x| x.viol_power_ns).collect())),
                ("viol_thermal_ns", Column::UInt64(r.iter().map(|x| x.viol_thermal_ns).collect())),
                ("pstate", Column::UInt32(r.iter().map(|x| x.pstate).collect())),
                ("compute_proc_count", Column::UInt32(r.iter().map(|x| x.compute_proc_count).collect())),
                ("foreign_proc_count", Column::UInt32(r.iter().map(|x| x.foreign_proc_count).collect())),
                ("foreign_mem_bytes", Column::UInt64(r.iter().map(|x| x.foreign_mem_bytes).collect())),
                ("sample_us", Column::UInt32(r.iter().map(|x| x.sample_us).collect())),
                ("errors", utf8_column(r.iter().map(|x| x.errors.as_deref()))),
            ],
        )
        .map_err(|e| e.to_string())
    }
}

/// The schema's error kind for a tool's error text or HTTP code.
pub fn error_kind(message: &str, http: Option<u32>) -> &'static str {
    let m = message.to_ascii_lowercase();
    match http {
        Some(c) if (400..500).contains(&c) => return "http_4xx",
        Some(c) if (500..600).contains(&c) => return "http_5xx",
        _ => {}
    }
    if m.contains("timeout") || m.contains("timed out") {
        "timeout"
    } else if m.contains("out of memory") || m.contains("oom") {
        "oom"
    } else if m.contains("refused") {
        "refused"
    } else if m.contains("cancel") {
        "cancelled"
    } else if m.contains(" 429") || m.contains("too many requests") || m.contains(" 4") && m.contains("client error") {
        "http_4xx"
    } else if m.contains(" 500") || m.contains(" 502") || m.contains(" 503") || m.contains("server error") {
        "http_5xx"
    } else {
        "other"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_781_184_000_000_000_000;

    fn ok_row(id: &str, sent: i64) -> Request {
        Request {
            id: id.into(),
            sent_ns: sent,
            first_token_ns: Some(sent + 10),
            end_ns: sent + 100,
            chunk_ns: Some(vec![sent + 10, sent + 50]),
            ok: true,
            ..Default::default()
        }
    }

    #[test]
    fn rows_that_break_the_contract_are_kept_as_failed_rows() {
        let mut rows = RequestRows::default();
        rows.push(ok_row("a", T0));
        rows.push(Request { end_ns: T0 + 5, ..ok_row("b", T0) });
        rows.push(ok_row("a", T0 + 1000));
        rows.push(Request { end_ns: i64::MAX, ..ok_row("c", T0) });
        assert_eq!(rows.quarantine_invalid("f.json", true), Ok(3));
        let r = &rows.rows;
        assert!(r[0].ok && r[0].error_kind.is_none());
        assert_eq!(r[1].error_kind, Some("invalid_source_row"));
        assert_eq!(r[1].error_message.as_deref(), Some("f.json, request b: first token at 0.000 ms after sent, outside the request's span of 0.000 ms"));
        assert_eq!((r[1].first_token_ns, r[1].chunk_ns.as_ref(), r[1].end_ns), (None, None, T0 + 5));
        assert_eq!(r[2].id, "a#2", "a duplicate id is made unique");
        assert!(r[2].error_message.as_deref().unwrap().contains("a second record with id \"a\""));
        assert_eq!(r[3].end_ns, T0, "an overflowed end is not kept: it would stretch the run");
        rows.into_table().expect("a quarantined run builds its table");
    }

    #[test]
    fn a_wall_clock_row_that_is_no_date_cannot_be_kept() {
        let mut rows = RequestRows::default();
        rows.push(ok_row("x", 5_000));
        assert!(rows.quarantine_invalid("f.json", true).unwrap_err().starts_with("request x: sent time 5000 ns"));
        assert_eq!(rows.quarantine_invalid("f.json", false), Ok(0), "a relative run starts anywhere");
    }
}

/// A finished request as a load generator hands it to an online monitor (`bench --until`):
/// seconds from the run's first send; latencies NaN where the request has none.
#[derive(Debug, Clone, Copy)]
pub struct Finished {
    pub sent_s: f64,
    pub end_s: f64,
    pub ok: bool,
    pub ttft_ms: f64,
    pub tpot_ms: f64,
    pub e2e_ms: f64,
    pub output_tokens: f32,
}
