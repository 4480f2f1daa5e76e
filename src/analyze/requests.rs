//! Per-request metrics, derived once from `requests.parquet` and ordered by send time.
//!
//! Missing values are NaN internally (8 bytes a value, for 10-million-request runs) and never
//! reach the JSON: every statistic counts what it used.

use crate::run::Table;
use crate::run::schema::ERROR_KINDS;

/// Nanoseconds to milliseconds.
const MS: f64 = 1e6;

/// Per-request columns, in send order (request index = position in this order).
#[derive(Debug, Clone)]
pub struct RequestView {
    /// Epoch ns of the first send: every `_s` time is seconds from here.
    pub t0_ns: i64,
    pub sent_s: Vec<f64>,
    pub end_s: Vec<f64>,
    /// NaN when the tool had no schedule (closed loop).
    pub scheduled_s: Vec<f64>,
    pub ok: Vec<bool>,
    /// Index into `ERROR_KINDS`, for failed requests.
    pub error_kind: Vec<Option<u8>>,
    pub warmup_declared: Vec<bool>,
    pub input_tokens: Vec<f64>,
    pub output_tokens: Vec<f64>,
    /// First token minus sent (successful requests with a first token).
    pub ttft_ms: Vec<f64>,
    /// First answer token (after any reasoning) minus sent. Empty when the run does not record
    /// `first_content_ns` (most sources): then the metric is absent, not missing.
    pub ttfot_ms: Vec<f64>,
    /// (end − first token) / (output tokens − 1), for more than one output token.
    pub tpot_ms: Vec<f64>,
    /// End minus sent (successful requests).
    pub e2e_ms: Vec<f64>,
    /// End minus *scheduled*: latency including any delay of the send itself.
    pub service_ms: Vec<f64>,
    /// Sent minus scheduled.
    pub send_lag_ms: Vec<f64>,
    /// Output tokens over end-to-end time, per request.
    pub tokens_per_s: Vec<f64>,
    /// Gaps between consecutive chunks: `itl_offsets[i]..itl_offsets[i+1]` for request i.
    pub itl_offsets: Vec<usize>,
    pub itl_ms: Vec<f64>,
}

impl RequestView {
    pub fn len(&self) -> usize {
        self.sent_s.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sent_s.is_empty()
    }

    /// Builds the view from a validated requests table.
    pub fn from_table(t: &Table) -> RequestView {
        let n = t.num_rows();
        let empty_ts: Vec<Option<i64>> = vec![None; n];
        let empty_u32: Vec<Option<u32>> = vec![None; n];
        let c = Columns {
            sent: t.timestamps("sent_ns").unwrap_or(&empty_ts),
            end: t.timestamps("end_ns").unwrap_or(&empty_ts),
            first: t.timestamps("first_token_ns").unwrap_or(&empty_ts),
            first_content: t.timestamps("first_content_ns").filter(|c| c.iter().any(Option::is_some)),
            sched: t.timestamps("scheduled_ns").unwrap_or(&empty_ts),
            status: t.strings("status"),
            kind: t.strings("error_kind"),
            phase: t.strings("phase"),
            out_tok: t.u32s("output_tokens").unwrap_or(&empty_u32),
            in_tok: t.u32s("input_tokens").unwrap_or(&empty_u32),
            chunks: t.timestamp_lists("chunk_ns"),
        };
        let order = send_order(c.sent, n);
        let t0 = order.first().and_then(|&i| c.sent[i]).unwrap_or(0);
        let mut v = RequestView::with_capacity(t0, n);
        for &i in &order {
            v.push_request(&c, i);
        }
        v
    }

    /// An empty view with room for `n` requests.
    fn with_capacity(t0_ns: i64, n: usize) -> RequestView {
        RequestView {
            t0_ns,
            sent_s: Vec::with_capacity(n),
            end_s: Vec::with_capacity(n),
            scheduled_s: Vec::with_capacity(n),
            ok: Vec::with_capacity(n),
            error_kind: Vec::with_capacity(n),
            warmup_declared: Vec::with_capacity(n),
            input_tokens: Vec::with_capacity(n),
            output_tokens: Vec::with_capacity(n),
            ttft_ms: Vec::with_capacity(n),
            ttfot_ms: Vec::new(),
            tpot_ms: Vec::with_capacity(n),
            e2e_ms: Vec::with_capacity(n),
            service_ms: Vec::with_capacity(n),
            send_lag_ms: Vec::with_capacity(n),
            tokens_per_s: Vec::with_capacity(n),
            itl_offsets: vec![0],
            itl_ms: Vec::new(),
        }
    }

    /// Appends row `i` of the table: its times, status, tokens and derived latencies.
    fn push_request(&mut self, c: &Columns<'_>, i: usize) {
        let t0 = self.t0_ns;
        let secs = |v: Option<i64>| v.map_or(f64::NAN, |x| (x - t0) as f64 / 1e9);
        let ok = str_at(c.status, i) == Some("ok");
        let (s, e) = (c.sent[i], c.end[i]);
        let out = c.out_tok[i].map_or(f64::NAN, f64::from);
        self.sent_s.push(secs(s));
        self.end_s.push(secs(e));
        self.scheduled_s.push(secs(c.sched[i]));
        self.ok.push(ok);
        self.error_kind.push(str_at(c.kind, i).and_then(|k| ERROR_KINDS.iter().position(|x| *x == k)).map(|p| p as u8));
        self.warmup_declared.push(str_at(c.phase, i) == Some("warmup"));
        self.input_tokens.push(c.in_tok[i].map_or(f64::NAN, f64::from));
        self.output_tokens.push(out);
        let e2e = if ok { diff_ms(e, s) } else { f64::NAN };
        let ttft = if ok { diff_ms(c.first[i], s) } else { f64::NAN };
        let tpot = if ok && out > 1.0 { diff_ms(e, c.first[i]) / (out - 1.0) } else { f64::NAN };
        self.e2e_ms.push(e2e);
        self.ttft_ms.push(ttft);
        if let Some(fc) = c.first_content {
            self.ttfot_ms.push(if ok { diff_ms(fc[i], s) } else { f64::NAN });
        }
        self.tpot_ms.push(tpot);
        self.service_ms.push(if ok { diff_ms(e, c.sched[i]) } else { f64::NAN });
        self.send_lag_ms.push(diff_ms(s, c.sched[i]));
        self.tokens_per_s.push(if ok && e2e > 0.0 && out >= 1.0 { out / (e2e / 1e3) } else { f64::NAN });
        if ok && let Some(list) = c.chunks.and_then(|l| l.get(i)) {
            self.itl_ms.extend(list.windows(2).map(|w| (w[1] - w[0]) as f64 / MS));
        }
        self.itl_offsets.push(self.itl_ms.len());
    }

    /// Error kind names, for display.
    pub fn kind_name(k: u8) -> &'static str {
        ERROR_KINDS.get(k as usize).copied().unwrap_or("other")
    }
}

/// The requests table's columns; absent ones stand in as all-null.
struct Columns<'t> {
    sent: &'t [Option<i64>],
    end: &'t [Option<i64>],
    first: &'t [Option<i64>],
    /// Present only when the run recorded at least one first answer token.
    first_content: Option<&'t [Option<i64>]>,
    sched: &'t [Option<i64>],
    status: Option<&'t arrow_array::StringArray>,
    kind: Option<&'t arrow_array::StringArray>,
    phase: Option<&'t arrow_array::StringArray>,
    out_tok: &'t [Option<u32>],
    in_tok: &'t [Option<u32>],
    chunks: Option<&'t crate::run::TimestampLists>,
}

/// Row indices in send order. Most tools write requests in send order; sort only when they did not.
fn send_order(sent: &[Option<i64>], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if !sent.windows(2).all(|w| w[0].unwrap_or(i64::MAX) <= w[1].unwrap_or(i64::MAX)) {
        order.sort_by_key(|&i| (sent[i].unwrap_or(i64::MAX), i));
    }
    order
}

/// The string at row `i`, when the column exists and the value is not null.
fn str_at(a: Option<&arrow_array::StringArray>, i: usize) -> Option<&str> {
    use arrow_array::Array;
    a.and_then(|a| a.is_valid(i).then(|| a.value(i)))
}

/// `a − b` in milliseconds, NaN when either is missing.
fn diff_ms(a: Option<i64>, b: Option<i64>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => (a - b) as f64 / MS,
        _ => f64::NAN,
    }
}
