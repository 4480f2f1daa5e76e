//! The synthetic runs of the `analyze` benches: plain columns written fast (no engine
//! simulation): Poisson arrivals, log-normal TTFT / TPOT with a slow autocorrelated level, no
//! chunk lists, and a real 1-hour simulated GPU and host trace (1 Hz, 2 GPUs), repeated end to
//! end for longer runs (a soak test is the same hour, tiled in time).

use std::path::Path;

use credence::run::schema::TableKind;
use credence::run::table::{Column, Table, TimestampLists, utf8_column};
use credence::run::write::{RunData, write_run};
use credence::simulate::{Scenario, SimOptions, simulate};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const T0_NS: i64 = 1_780_315_200_000_000_000;
const HOUR_NS: i64 = 3_600_000_000_000;

/// The shape of a synthetic run.
pub struct Shape {
    pub requests: usize,
    pub duration_s: f64,
    /// The rate at which the latency level's AR(1) coefficient is 0.999 per request: the level
    /// keeps the same correlation *time* at any rate (the dense 1-hour shape's, for soak runs).
    pub level_rate_per_s: f64,
    /// Seconds of warmup at the start (the simulator's shape: 1.7× slower, decaying to 1×).
    pub warmup_s: f64,
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// The simulator's warmup slowdown at `t` seconds.
fn warmup_factor(t: f64, w: f64) -> f64 {
    if t < w { 1.0 + 0.7 * (1.0 - (t / w).powi(4)) } else { 1.0 }
}

/// The request columns: scheduled, sent, first token, end, input and output tokens.
struct Columns {
    sched: Vec<Option<i64>>,
    sent: Vec<Option<i64>>,
    first: Vec<Option<i64>>,
    end: Vec<Option<i64>>,
    inp: Vec<Option<u32>>,
    out: Vec<Option<u32>>,
}

/// The request stream of a shape, drawn in consecutive slices (so a 100-million-request run is
/// written segment by segment, never held whole): the arrival clock and the latency level carry
/// over from one slice to the next.
struct RequestStream {
    rng: ChaCha8Rng,
    rate: f64,
    phi: f64,
    sd: f64,
    warmup_s: f64,
    t: f64,
    level: f64,
}

impl RequestStream {
    fn new(shape: &Shape) -> RequestStream {
        let rate = shape.requests as f64 / shape.duration_s;
        // Per request, phi = 0.999 at the reference rate; the innovation keeps the level's SD.
        let phi = 0.999f64.powf(shape.level_rate_per_s / rate);
        let sd = 0.03 * ((1.0 - phi * phi) / (1.0 - 0.999f64 * 0.999)).sqrt();
        RequestStream { rng: ChaCha8Rng::seed_from_u64(42), rate, phi, sd, warmup_s: shape.warmup_s, t: 0.0, level: 0.0 }
    }

    /// The next `n` requests.
    fn take(&mut self, n: usize) -> Columns {
        let v = || Vec::with_capacity(n);
        let mut c = Columns { sched: v(), sent: v(), first: v(), end: v(), inp: Vec::with_capacity(n), out: Vec::with_capacity(n) };
        let rng = &mut self.rng;
        for _ in 0..n {
            self.t += -(1.0 - rng.random::<f64>()).ln() / self.rate;
            self.level = self.phi * self.level + self.sd * normal(rng);
            let (slow, level) = (warmup_factor(self.t, self.warmup_s), self.level);
            let s = T0_NS + (self.t * 1e9) as i64;
            let ttft = (slow * 35.0 * (0.35 * normal(rng) + level).exp() * 1e6) as i64;
            let o = (128.0 * (0.5 * normal(rng)).exp()).clamp(2.0, 1024.0) as u32;
            let tpot = (slow * 18.0 * (0.1 * normal(rng) + level).exp() * 1e6) as i64;
            c.sched.push(Some(s - 100_000));
            c.sent.push(Some(s));
            c.first.push(Some(s + ttft));
            c.end.push(Some(s + ttft + tpot * (o as i64 - 1)));
            c.inp.push(Some((512.0 * (0.6 * normal(rng)).exp()) as u32));
            c.out.push(Some(o));
        }
        c
    }
}

/// Requests `first..` of a stream as a requests table.
fn requests_table(c: Columns, first: usize) -> Table {
    let n = c.sent.len();
    let ids: Vec<String> = (first..first + n).map(|i| format!("r{i}")).collect();
    let mut chunks = TimestampLists::new();
    for _ in 0..n {
        chunks.push(None);
    }
    Table::from_columns(
        TableKind::Requests,
        vec![
            ("request_id", utf8_column(ids.iter().map(|s| Some(s.as_str())))),
            ("client_id", utf8_column(std::iter::repeat_n(Some("c0"), n))),
            ("client_host", utf8_column(std::iter::repeat_n(Some("loadgen-0"), n))),
            ("scheduled_ns", Column::Timestamp(c.sched)),
            ("sent_ns", Column::Timestamp(c.sent)),
            ("first_token_ns", Column::Timestamp(c.first)),
            ("end_ns", Column::Timestamp(c.end)),
            ("chunk_ns", Column::TimestampList(chunks)),
            ("input_tokens", Column::UInt32(c.inp)),
            ("output_tokens", Column::UInt32(c.out)),
            ("cached_tokens", Column::UInt32(vec![None; n])),
            ("status", utf8_column(std::iter::repeat_n(Some("ok"), n))),
            ("error_kind", utf8_column(std::iter::repeat_n(None, n))),
            ("error_message", utf8_column(std::iter::repeat_n(None, n))),
            ("http_status", Column::UInt32(vec![Some(200); n])),
            ("phase", utf8_column(std::iter::repeat_n(None, n))),
        ],
    )
    .unwrap()
}

/// `column` repeated `copies` times, timestamps shifted by an hour per copy.
fn tile_column(column: &Column, copies: usize) -> Column {
    let shifted = |k: usize, t: &Option<i64>| t.map(|t| t + k as i64 * HOUR_NS);
    match column {
        Column::Timestamp(v) => Column::Timestamp((0..copies).flat_map(|k| v.iter().map(move |t| shifted(k, t))).collect()),
        Column::UInt32(v) => Column::UInt32(v.repeat(copies)),
        Column::UInt64(v) => Column::UInt64(v.repeat(copies)),
        Column::Float64(v) => Column::Float64(v.repeat(copies)),
        Column::Utf8(s) => utf8_column((0..copies).flat_map(|_| s.iter())),
        Column::TimestampList(_) => panic!("telemetry has no list columns"),
    }
}

/// A 1-hour telemetry table repeated to cover `hours`.
fn tile(table: Option<Table>, hours: usize) -> Option<Table> {
    let t = table?;
    if hours <= 1 {
        return Some(t);
    }
    let named: Vec<(&str, Column)> = t.specs_and_columns().map(|(spec, c)| (spec.name, tile_column(c, hours))).collect();
    Some(Table::from_columns(t.kind, named).unwrap())
}

/// Runs of more requests than this are written as one segment per hour (`requests/hNNNN.parquet`,
/// the partitioned layout of docs/performance.md's "Past one machine"), generated one at a time.
const SEGMENT_ABOVE: usize = 10_000_000;

/// Writes the run of `shape` to `dir`.
pub fn generate(dir: &Path, shape: &Shape) {
    let hours = (shape.duration_s / 3600.0).ceil() as usize;
    let segments = if shape.requests > SEGMENT_ABOVE { hours.max(1) } else { 1 };
    let mut stream = RequestStream::new(shape);
    let per_segment = |k: usize| (k + 1) * shape.requests / segments - k * shape.requests / segments;
    let requests = requests_table(stream.take(per_segment(0)), 0);
    let mut o = SimOptions::new(Scenario::Steady, 1);
    o.duration_s = 3600.0;
    o.arrival = credence::simulate::ArrivalProcess::Poisson { rate: 1.0 };
    o.compute_truth = false;
    let sim = simulate(&o).unwrap();
    let mut manifest = sim.data.manifest;
    manifest.workload.rate_per_s = Some(shape.requests as f64 / shape.duration_s);
    if hours > 1 {
        manifest.workload.duration_s = Some(shape.duration_s);
    }
    let (gpu, host) = (tile(sim.data.gpu, hours), tile(sim.data.host, hours));
    write_run(dir, &RunData { manifest, requests, gpu, host, server: None, extra_files: Vec::new() }).unwrap();
    if segments == 1 {
        return;
    }
    let folder = dir.join("requests");
    std::fs::create_dir(&folder).unwrap();
    std::fs::rename(dir.join("requests.parquet"), folder.join("h0000.parquet")).unwrap();
    let mut first = per_segment(0);
    for k in 1..segments {
        let n = per_segment(k);
        requests_table(stream.take(n), first).write_parquet(&folder.join(format!("h{k:04}.parquet"))).unwrap();
        first += n;
    }
}
