//! Per-request metrics, derived once from `requests.parquet` and ordered by send time.
//!
//! Missing values are NaN internally (8 bytes a value, for 10-million-request runs) and never
//! reach the JSON: every statistic counts what it used.

use credence_run::Table;
use credence_run::schema::ERROR_KINDS;

/// Nanoseconds to milliseconds.
const MS: f64 = 1e6;

/// Per-request columns, in send order (request index = position in this order).
#[derive(Debug, Clone, Default)]
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
    /// Token counts (NaN when the source has none). f32 holds every count up to 2^24 (16.7
    /// million tokens) exactly, and half the memory of f64 at 100 million requests.
    pub input_tokens: Vec<f32>,
    pub output_tokens: Vec<f32>,
    /// First token minus sent (successful requests with a first token, and requests that timed
    /// out or were cancelled after their first token: the wait for it was observed).
    pub ttft_ms: Vec<f64>,
    /// First answer token (after any reasoning) minus sent. Empty when the run does not record
    /// `first_content_ns` (most sources): then the metric is absent, not missing.
    pub ttfot_ms: Vec<f64>,
    /// (end − first token) / (output tokens − 1), for more than one output token.
    pub tpot_ms: Vec<f64>,
    /// End minus sent (successful requests).
    pub e2e_ms: Vec<f64>,
    /// Gaps between consecutive chunks: `itl_offsets[i]..itl_offsets[i+1]` for request i (read
    /// through `itl_start`; empty when no request has a gap, and not kept until one has: a run
    /// without chunk times does not fill 8 bytes a request only to drop them).
    pub itl_offsets: Vec<usize>,
    pub itl_ms: Vec<f64>,
    /// Prompt tokens served from the server's prefix cache (NaN where not reported). Empty
    /// when no request reports them: the column costs nothing where it is absent.
    pub cached_tokens: Vec<f32>,
    /// The prompt's length as the load generator built it (`bench`; NaN where not recorded).
    /// Empty when no request records one.
    pub intended_input_tokens: Vec<f32>,
    /// A conversation's turn, from 1 (0 outside conversations); empty when no request has one.
    pub turn: Vec<u32>,
    /// The LoRA adapter each request named: 1 + its index in `adapter_names` (0: none); empty
    /// when no request names one.
    pub adapter: Vec<u16>,
    pub adapter_names: Vec<String>,
}

impl RequestView {
    /// Request `i` as a load generator hands it to the online monitor (a replayed run, a study).
    pub fn finished(&self, i: usize) -> credence_run::rows::Finished {
        credence_run::rows::Finished {
            sent_s: self.sent_s[i],
            end_s: self.end_s[i],
            ok: self.ok[i],
            ttft_ms: self.ttft_ms[i],
            tpot_ms: self.tpot_ms[i],
            e2e_ms: self.e2e_ms[i],
            output_tokens: self.output_tokens[i],
        }
    }

    /// Requests pushed so far (the builder's count, before times are set).
    fn sent_ns_len(&self) -> usize {
        self.ok.len()
    }

    pub fn len(&self) -> usize {
        self.sent_s.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sent_s.is_empty()
    }

    /// Where request `i`'s chunk gaps start in `itl_ms` (`i` = `len()` for the end).
    pub fn itl_start(&self, i: usize) -> usize {
        // A run without chunk times keeps no offsets (8 bytes a request).
        self.itl_offsets.get(i).copied().unwrap_or(0)
    }

    /// Builds the view from a requests table.
    pub fn from_table(t: &Table) -> RequestView {
        let mut b = RequestViewBuilder::default();
        b.push(t);
        b.finish()
    }

    /// Appends row `i` of the table, except its times since the first send (see `finish`).
    fn push_request(&mut self, c: &Columns<'_>, i: usize) {
        let ok = str_at(c.status, i) == Some("ok");
        let (s, e) = (c.sent[i], c.end[i]);
        let out = c.out_tok[i].map_or(f64::NAN, f64::from);
        self.ok.push(ok);
        self.error_kind.push(str_at(c.kind, i).and_then(|k| ERROR_KINDS.iter().position(|x| *x == k)).map(|p| p as u8));
        self.warmup_declared.push(str_at(c.phase, i) == Some("warmup"));
        self.input_tokens.push(c.in_tok[i].map_or(f32::NAN, |n| n as f32));
        self.output_tokens.push(c.out_tok[i].map_or(f32::NAN, |n| n as f32));
        let e2e = if ok { diff_ms(e, s) } else { f64::NAN };
        // A request that timed out after its first token waited for it like any other; other
        // failures (a 5xx, a refused connection) say nothing about the server's latency.
        let censorable = !ok && str_at(c.kind, i).is_some_and(is_censoring_kind);
        let ttft = if ok || censorable { diff_ms(c.first[i], s) } else { f64::NAN };
        let tpot = if ok && out > 1.0 { diff_ms(e, c.first[i]) / (out - 1.0) } else { f64::NAN };
        self.e2e_ms.push(e2e);
        self.ttft_ms.push(ttft);
        if c.any_first_content {
            self.ttfot_ms.push(if ok { diff_ms(c.first_content[i], s) } else { f64::NAN });
        }
        self.tpot_ms.push(tpot);
        if ok && let Some(list) = c.chunks.and_then(|l| l.get(i)).filter(|l| l.len() >= 2) {
            if self.itl_offsets.is_empty() {
                // The first request with a gap: every request before it starts (and ends) at 0.
                self.itl_offsets = Vec::with_capacity(self.ok.capacity() + 1);
                self.itl_offsets.resize(self.ok.len(), 0);
            }
            self.itl_ms.extend(list.windows(2).map(|w| (w[1] - w[0]) as f64 / MS));
        }
        if !self.itl_offsets.is_empty() {
            self.itl_offsets.push(self.itl_ms.len());
        }
    }

    /// Puts the requests in `order` (indices into the current order), one column at a time so
    /// that a large view is never held twice.
    fn reorder(&mut self, order: &[usize]) {
        fn permuted<T: Copy>(v: &mut Vec<T>, order: &[usize]) {
            if !v.is_empty() {
                let old = std::mem::take(v);
                *v = order.iter().map(|&i| old[i]).collect();
            }
        }
        permuted(&mut self.input_tokens, order);
        permuted(&mut self.output_tokens, order);
        permuted(&mut self.cached_tokens, order);
        permuted(&mut self.intended_input_tokens, order);
        permuted(&mut self.turn, order);
        permuted(&mut self.adapter, order);
        for column in [&mut self.ttft_ms, &mut self.ttfot_ms, &mut self.tpot_ms] {
            permuted(column, order);
        }
        permuted(&mut self.e2e_ms, order);
        permuted(&mut self.ok, order);
        permuted(&mut self.warmup_declared, order);
        permuted(&mut self.error_kind, order);
        if self.itl_offsets.is_empty() {
            return;
        }
        let (offsets, gaps) = (std::mem::take(&mut self.itl_offsets), std::mem::take(&mut self.itl_ms));
        self.itl_offsets = Vec::with_capacity(order.len() + 1);
        self.itl_offsets.push(0);
        self.itl_ms = Vec::with_capacity(gaps.len());
        for &i in order {
            self.itl_ms.extend_from_slice(&gaps[offsets[i]..offsets[i + 1]]);
            self.itl_offsets.push(self.itl_ms.len());
        }
    }

    /// Sent minus scheduled, ms; NaN without both times.
    pub fn send_lag_ms(&self, i: usize) -> f64 {
        span_ms(self.scheduled_s[i], self.sent_s[i])
    }

    /// End minus *scheduled*, ms: latency including any delay of the send itself (successful
    /// requests; NaN for the others).
    pub fn service_ms(&self, i: usize) -> f64 {
        if self.ok[i] { span_ms(self.scheduled_s[i], self.end_s[i]) } else { f64::NAN }
    }

    /// Where request `i`'s latencies are right-censored: it timed out or was cancelled, so
    /// every latency it did not reach is longer than its elapsed time (sent → failure, ms).
    /// `None` for any other request, or one without both times.
    pub fn censored_at_ms(&self, i: usize) -> Option<f64> {
        let kind = self.error_kind[i].map(RequestView::kind_name)?;
        let elapsed = span_ms(self.sent_s[i], self.end_s[i]);
        (!self.ok[i] && is_censoring_kind(kind) && elapsed >= 0.0).then_some(elapsed)
    }

    /// Request `i`'s TTFT censoring time: it ended (timed out, cancelled) before its first token.
    pub fn ttft_censored_ms(&self, i: usize) -> Option<f64> {
        self.censored_at_ms(i).filter(|_| self.ttft_ms[i].is_nan())
    }

    /// Request `i`'s E2E censoring time: it timed out or was cancelled before its end. TPOT
    /// has none: a request without tokens has no TPOT to hide, and one that timed out
    /// mid-stream is left out of TPOT (its last gaps are unknown, not long).
    pub fn e2e_censored_ms(&self, i: usize) -> Option<f64> {
        self.censored_at_ms(i)
    }

    /// Output tokens over end-to-end time (successful requests with at least one token).
    pub fn tokens_per_s(&self, i: usize) -> f64 {
        let (out, e2e) = (f64::from(self.output_tokens[i]), self.e2e_ms[i]);
        if self.ok[i] && e2e > 0.0 && out >= 1.0 { out / (e2e / 1e3) } else { f64::NAN }
    }

    /// Error kind names, for display.
    pub fn kind_name(k: u8) -> &'static str {
        ERROR_KINDS.get(k as usize).copied().unwrap_or("other")
    }
}

/// Whether a failure of this kind ends a wait rather than a request: a timeout, or a
/// cancellation by the load generator (the end of the run, a stop). Its latencies are
/// right-censored at the elapsed time, not absent.
pub fn is_censoring_kind(kind: &str) -> bool {
    matches!(kind, "timeout" | "cancelled")
}

/// The columns of `requests.parquet` that the view and the error examples read: a large run is
/// loaded with only these (`run::read::read_batches`).
pub const VIEW_COLUMNS: [&str; 16] = [
    "sent_ns",
    "end_ns",
    "first_token_ns",
    "first_content_ns",
    "scheduled_ns",
    "status",
    "error_kind",
    "error_message",
    "phase",
    "output_tokens",
    "input_tokens",
    "chunk_ns",
    "cached_tokens",
    "intended_input_tokens",
    "turn",
    "adapter",
];

/// A view built batch by batch from a requests table read in file order. Times since the first
/// send wait for `finish`, which knows the first send and the send order.
#[derive(Default)]
pub struct RequestViewBuilder {
    rows: RequestView,
    /// Raw epoch-ns times, `NO_TIME` when missing.
    sent_ns: Vec<i64>,
    end_ns: Vec<i64>,
    scheduled_ns: Vec<i64>,
    /// Whether any request recorded its first answer token (else TTFOT is absent, not missing).
    any_first_content: bool,
}

/// A missing time in the builder's raw columns.
const NO_TIME: i64 = i64::MIN;

impl RequestViewBuilder {
    /// Room for `rows` requests, before the first push: a view grown by doubling would copy
    /// every column several times and hold up to twice its size.
    pub fn reserve(&mut self, rows: usize) {
        let r = &mut self.rows;
        for column in [&mut r.ttft_ms, &mut r.tpot_ms, &mut r.e2e_ms] {
            column.reserve_exact(rows);
        }
        r.input_tokens.reserve_exact(rows);
        r.output_tokens.reserve_exact(rows);
        r.ok.reserve_exact(rows);
        r.warmup_declared.reserve_exact(rows);
        r.error_kind.reserve_exact(rows);
        for raw in [&mut self.sent_ns, &mut self.end_ns, &mut self.scheduled_ns] {
            raw.reserve_exact(rows);
        }
    }

    /// Appends every row of a requests table (a whole table, or one batch of it).
    pub fn push(&mut self, t: &Table) {
        let n = t.num_rows();
        let empty_ts: Vec<Option<i64>> = vec![None; n];
        let empty_u32: Vec<Option<u32>> = vec![None; n];
        let first_content = t.timestamps("first_content_ns").unwrap_or(&empty_ts);
        let batch_has_first_content = first_content.iter().any(Option::is_some);
        if batch_has_first_content && !self.any_first_content {
            // The first batch that records it: the requests before it had none.
            self.rows.ttfot_ms = vec![f64::NAN; self.rows.ttft_ms.len()];
            self.rows.ttfot_ms.reserve(self.rows.ttft_ms.capacity() - self.rows.ttft_ms.len());
        }
        self.any_first_content |= batch_has_first_content;
        let c = Columns {
            any_first_content: self.any_first_content,
            sent: t.timestamps("sent_ns").unwrap_or(&empty_ts),
            end: t.timestamps("end_ns").unwrap_or(&empty_ts),
            first: t.timestamps("first_token_ns").unwrap_or(&empty_ts),
            first_content,
            sched: t.timestamps("scheduled_ns").unwrap_or(&empty_ts),
            status: t.strings("status"),
            kind: t.strings("error_kind"),
            phase: t.strings("phase"),
            out_tok: t.u32s("output_tokens").unwrap_or(&empty_u32),
            in_tok: t.u32s("input_tokens").unwrap_or(&empty_u32),
            chunks: t.timestamp_lists("chunk_ns"),
        };
        self.push_sparse(t, n);
        for i in 0..n {
            self.rows.push_request(&c, i);
            self.sent_ns.push(c.sent[i].unwrap_or(NO_TIME));
            self.end_ns.push(c.end[i].unwrap_or(NO_TIME));
            self.scheduled_ns.push(c.sched[i].unwrap_or(NO_TIME));
        }
    }

    /// The cached tokens, intended lengths and turns of a batch: kept from the first batch that
    /// has any (the requests before it had none), absent otherwise.
    fn push_sparse(&mut self, t: &Table, n: usize) {
        let before = self.rows.sent_ns_len();
        for (name, column) in [("cached_tokens", &mut self.rows.cached_tokens), ("intended_input_tokens", &mut self.rows.intended_input_tokens)] {
            if let Some(c) = t.u32s(name).filter(|c| c.iter().any(Option::is_some) || !column.is_empty()) {
                column.resize(before, f32::NAN);
                column.extend(c.iter().map(|x| x.map_or(f32::NAN, |v| v as f32)));
            }
            if !column.is_empty() {
                column.resize(before + n, f32::NAN);
            }
        }
        if let Some(c) = t.u32s("turn").filter(|c| c.iter().any(Option::is_some) || !self.rows.turn.is_empty()) {
            self.rows.turn.resize(before, 0);
            self.rows.turn.extend(c.iter().map(|x| x.unwrap_or(0)));
        }
        if !self.rows.turn.is_empty() {
            self.rows.turn.resize(before + n, 0);
        }
        self.push_adapters(t, before, n);
    }

    /// The adapters a batch names, as indices into the names met so far.
    fn push_adapters(&mut self, t: &Table, before: usize, n: usize) {
        let Some(a) = t.strings("adapter") else {
            if !self.rows.adapter.is_empty() {
                self.rows.adapter.resize(before + n, 0);
            }
            return;
        };
        if self.rows.adapter.is_empty() && (0..n).all(|i| str_at(Some(a), i).is_none()) {
            return;
        }
        self.rows.adapter.resize(before, 0);
        for i in 0..n {
            let index = str_at(Some(a), i).map_or(0, |name| match self.rows.adapter_names.iter().position(|x| x == name) {
                Some(p) => p + 1,
                None => {
                    self.rows.adapter_names.push(name.to_string());
                    self.rows.adapter_names.len()
                }
            });
            self.rows.adapter.push(index.min(u16::MAX as usize) as u16);
        }
    }

    /// Epoch ns of the first send (0 when no request has one): the view's `t0_ns`.
    pub fn first_send_ns(&self) -> i64 {
        self.sent_ns.iter().copied().filter(|&t| t != NO_TIME).min().unwrap_or(0)
    }

    /// The view in send order, with times in seconds since the first send.
    pub fn finish(self) -> RequestView {
        let RequestViewBuilder { mut rows, mut sent_ns, mut end_ns, mut scheduled_ns, .. } = self;
        if let Some(order) = send_order(&sent_ns) {
            rows.reorder(&order);
            for raw in [&mut sent_ns, &mut end_ns, &mut scheduled_ns] {
                let old = std::mem::take(raw);
                *raw = order.iter().map(|&i| old[i]).collect();
            }
        }
        let t0 = sent_ns.first().copied().filter(|&t| t != NO_TIME).unwrap_or(0);
        rows.t0_ns = t0;
        let secs = |raw: Vec<i64>| raw.into_iter().map(|x| if x == NO_TIME { f64::NAN } else { (x - t0) as f64 / 1e9 }).collect();
        rows.sent_s = secs(sent_ns);
        rows.end_s = secs(end_ns);
        rows.scheduled_s = secs(scheduled_ns);
        rows
    }
}

/// The requests table's columns; absent ones stand in as all-null.
struct Columns<'t> {
    /// Whether this or an earlier batch recorded a first answer token (TTFOT is kept from then).
    any_first_content: bool,
    sent: &'t [Option<i64>],
    end: &'t [Option<i64>],
    first: &'t [Option<i64>],
    first_content: &'t [Option<i64>],
    sched: &'t [Option<i64>],
    status: Option<&'t arrow_array::StringArray>,
    kind: Option<&'t arrow_array::StringArray>,
    phase: Option<&'t arrow_array::StringArray>,
    out_tok: &'t [Option<u32>],
    in_tok: &'t [Option<u32>],
    chunks: Option<&'t credence_run::TimestampLists>,
}

/// The send order, when the rows are not in it already. Most tools write requests in send
/// order; sort only when they did not (missing send times last, ties in row order).
fn send_order(sent: &[i64]) -> Option<Vec<usize>> {
    let key = |t: i64| if t == NO_TIME { i64::MAX } else { t };
    if sent.windows(2).all(|w| key(w[0]) <= key(w[1])) {
        return None;
    }
    let mut order: Vec<usize> = (0..sent.len()).collect();
    order.sort_by_key(|&i| (key(sent[i]), i));
    Some(order)
}

/// The string at row `i`, when the column exists and the value is not null.
fn str_at(a: Option<&arrow_array::StringArray>, i: usize) -> Option<&str> {
    use arrow_array::Array;
    a.and_then(|a| a.is_valid(i).then(|| a.value(i)))
}

/// `to − from` in milliseconds, from two times in seconds since the first send, computed as the
/// view's other latencies are: a difference of integer nanoseconds. These metrics are derived
/// on demand rather than stored (24 bytes a request less at the analysis's peak). The seconds
/// give back their nanoseconds exactly within 2^51 ns (26 days) of the first send, so the
/// result is the one the source's epoch nanoseconds give; beyond, within a nanosecond.
fn span_ms(from_s: f64, to_s: f64) -> f64 {
    if from_s.is_finite() && to_s.is_finite() {
        let ns = |t: f64| (t * 1e9).round() as i64;
        (ns(to_s) - ns(from_s)) as f64 / MS
    } else {
        f64::NAN
    }
}

/// `a − b` in milliseconds, NaN when either is missing.
fn diff_ms(a: Option<i64>, b: Option<i64>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => (a - b) as f64 / MS,
        _ => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_run::schema::TableKind;
    use credence_run::table::{Column, TimestampLists, utf8_column};

    /// Requests sent at `sent` (ns) with chunk arrivals `chunks`, all successful.
    fn batch(sent: &[i64], chunks: &[Option<&[i64]>]) -> Table {
        let mut lists = TimestampLists::new();
        chunks.iter().for_each(|c| lists.push(*c));
        let ids: Vec<String> = sent.iter().map(|s| format!("r{s}")).collect();
        let n = sent.len();
        Table::from_columns(
            TableKind::Requests,
            vec![
                ("request_id", utf8_column(ids.iter().map(|s| Some(s.as_str())))),
                ("sent_ns", Column::Timestamp(sent.iter().map(|&s| Some(s)).collect())),
                ("first_token_ns", Column::Timestamp(sent.iter().map(|&s| Some(s + 10)).collect())),
                ("end_ns", Column::Timestamp(sent.iter().map(|&s| Some(s + 100)).collect())),
                ("chunk_ns", Column::TimestampList(lists)),
                ("status", utf8_column(std::iter::repeat_n(Some("ok"), n))),
                ("scheduled_ns", Column::Timestamp(vec![None; n])),
                ("input_tokens", Column::UInt32(vec![None; n])),
                ("output_tokens", Column::UInt32(vec![None; n])),
                ("cached_tokens", Column::UInt32(vec![None; n])),
                ("http_status", Column::UInt32(vec![None; n])),
            ]
            .into_iter()
            .chain(["client_id", "client_host", "error_kind", "error_message", "phase"].map(|c| (c, utf8_column(std::iter::repeat_n(None, n)))))
            .collect(),
        )
        .unwrap()
    }

    /// Chunk gaps are kept from the first request that has one; the requests before it (in
    /// earlier batches too) have none, and the send order moves each request's gaps with it.
    #[test]
    fn chunk_gaps_start_at_the_first_request_with_one() {
        let mut b = RequestViewBuilder::default();
        b.push(&batch(&[5_000_000, 1_000_000], &[None, Some(&[1_000_010])]));
        let without = RequestView::from_table(&batch(&[1, 2], &[None, Some(&[3])]));
        assert!(without.itl_offsets.is_empty() && without.itl_ms.is_empty(), "no gaps, no offsets");
        b.push(&batch(&[3_000_000, 2_000_000], &[Some(&[3_000_010, 3_000_020, 4_000_020]), Some(&[2_000_010, 2_500_010])]));
        let v = b.finish();
        // Send order: 1, 2, 3, 5 ms.
        let gaps: Vec<Vec<f64>> = (0..4).map(|i| v.itl_ms[v.itl_start(i)..v.itl_start(i + 1)].to_vec()).collect();
        assert_eq!(gaps, vec![vec![], vec![0.5], vec![1e-5, 1.0], vec![]]);
        assert_eq!(v.itl_offsets.len(), 5);
    }

    /// The derived latencies must equal what the stored ones would have been: the difference
    /// of the source's integer nanoseconds, bit for bit, for times up to 26 days (2^51 ns) from
    /// the first send, on either side of it.
    #[test]
    fn derived_spans_equal_the_difference_of_integer_nanoseconds() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut draw = |bits: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let magnitude = (x >> 11) % (1u64 << bits);
            if x & 1 == 0 { magnitude as i64 } else { -(magnitude as i64) }
        };
        for bits in [10, 30, 40, 45, 48, 50, 51] {
            for _ in 0..20_000 {
                let (a, b) = (draw(bits), draw(bits));
                let (a_s, b_s) = (a as f64 / 1e9, b as f64 / 1e9);
                assert_eq!(span_ms(a_s, b_s).to_bits(), diff_ms(Some(b), Some(a)).to_bits(), "{a} ns to {b} ns");
            }
        }
        assert!(span_ms(f64::NAN, 1.0).is_nan() && span_ms(1.0, f64::NAN).is_nan());
    }
}
