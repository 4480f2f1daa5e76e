// credence's interactive report: builds the whole page from the JSON in #credence-data.
//
// The data comes from untrusted benchmark files, so every string reaches the page through
// textContent (never innerHTML). Display strings arrive formatted and translated in `view`
// (the same View the PDF template reads); the charts are drawn with the vendored uPlot from
// the raw values in `report` (or `history`). Anything absent is skipped without a word.
//
// Reading order: self-test capture, small helpers, page sections (in the PDF's order), charts,
// then the entry point at the bottom.
'use strict';

// ---------------------------------------------------------------- self-test capture
// Installed before anything else runs, so that an error anywhere later is seen by the
// browser test (#selftest): script errors, rejected promises, console.error, and every
// request the CSP blocked (the page must make none).
const caught = [];
addEventListener('error', (e) => caught.push(`error: ${e.message || (e.target && e.target.tagName) || e.type}`), true);
addEventListener('unhandledrejection', (e) => caught.push(`unhandledrejection: ${e.reason}`));
document.addEventListener('securitypolicyviolation', (e) => caught.push(`blocked by CSP: ${e.violatedDirective} ${e.blockedURI}`));
const consoleError = console.error.bind(console);
console.error = (...args) => {
  caught.push(`console.error: ${args.map(String).join(' ')}`);
  consoleError(...args);
};

// ---------------------------------------------------------------- words
// Every word comes from the message catalog, in the page's language: the view's fixed words
// (`tpl.*`, as the PDF's), and the page's own (`html.*` for its controls, `chart.*` for the
// charts' titles and axes), which the data carries beside the view.

let WORDS = {};
let LANG = 'en';

/** A fixed word of the view (`tpl.h_findings`), or `fallback` when the view lacks it. */
function w(key, fallback) {
  return WORDS[key] ?? fallback ?? key;
}

/** The space after a label ("Conditions: run 3"), none after a full-width colon ("条件：运行 3"). */
function labelGap(label) {
  return label.endsWith('：') ? '' : ' ';
}

/** A word of the page's own controls, with `{name}` filled in from `args`. */
function ui(key, args = {}) {
  const text = WORDS[`html.${key}`] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in args ? String(args[name]) : m));
}

// ---------------------------------------------------------------- DOM helpers

/** An element with attributes (`class` and the like; functions become listeners) and children
 *  (strings become text nodes; null and false are skipped). */
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (typeof v === 'function') e.addEventListener(k, v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c != null && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** Text with `code` spans (a command, an option) set as <code>, without the backticks. */
function prose(s) {
  const f = document.createDocumentFragment();
  String(s ?? '').split('`').forEach((part, i) => f.append(i % 2 ? h('code', null, part) : part));
  return f;
}

/** A table with a header row (none when `header` is null); `cell(value, column)` may turn a
 *  cell's string into a node. Wrapped so that a wide table scrolls instead of the page. */
function table(header, rows, cell = (v) => prose(v), cls) {
  const t = h('table', { class: cls });
  if (header) t.append(h('thead', null, h('tr', null, header.map((x) => h('th', null, x)))));
  t.append(h('tbody', null, rows.map((r) => h('tr', null, r.map((v, i) => h('td', null, cell(v, i)))))));
  return h('div', { class: 'table-wrap' }, t);
}

/** A two-column table whose first column names each row (no header, as in the PDF). */
function rowTable(rows, value = (v) => prose(v)) {
  return table(null, rows, (v, i) => (i === 0 ? h('strong', null, v) : value(v)), 'rows');
}

/** A check's status word, coloured by its name (PASS, WARN, FAIL, NOT_CHECKED). */
function status(s) {
  return h('span', { class: `status status-${s}` }, w(`tpl.status_${s}`, s));
}

/** The credibility badge: `Credibility: HIGH`. */
function gradeBadge(g) {
  return h('span', { class: `grade grade-${g}` }, w('tpl.credibility_badge', 'Credibility: ') + w(`tpl.grade_${g}`, g));
}

function para(text, cls) {
  return text ? h('p', { class: cls }, prose(text)) : null;
}

/** The page's sections, in order, for the table of contents. */
const sections = [];

/** A top-level section with its heading, appended to the page and listed in the contents. */
function section(id, title, ...children) {
  const s = h('section', { id }, h('h2', null, title), ...children);
  sections.push([id, title]);
  document.getElementById('report').append(s);
  return s;
}

function sub(title, ...children) {
  return [h('h3', null, title), ...children];
}

// ---------------------------------------------------------------- numbers

/** A tick or legend number without float noise or trailing zeros: 50, not 50.0. */
function num(v) {
  if (v == null || !Number.isFinite(v)) return '';
  const r = Number(v.toPrecision(10));
  return Math.abs(r) >= 10000 ? r.toLocaleString('en-US', { maximumFractionDigits: 2 }) : String(r);
}

/** A value for a legend or tooltip: four significant digits. */
function short(v) {
  return v == null || !Number.isFinite(v) ? '–' : num(Number(v.toPrecision(4)));
}

/** A round step for about `n` ticks over `span` (1, 2 or 5 times a power of ten). */
function niceStep(span, n) {
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/** The smallest and largest finite value of the arrays (null when there is none). */
function extent(...arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) {
    for (const v of a) {
      if (v != null && Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/** Whether a latency axis should be logarithmic: positive values spanning a decade (as the PDF). */
function wantsLog(...arrays) {
  const positive = arrays.map((a) => a.map((v) => (v > 0 ? v : null)));
  const e = extent(...positive);
  return !!e && e[1] / e[0] >= 10;
}

// ---------------------------------------------------------------- report: page 1

function header(v) {
  const root = document.getElementById('report');
  root.append(h('header', null, h('h1', null, v.title), para(v.subtitle, 'subtitle'), h('nav', { id: 'contents', 'aria-label': ui('contents') })));
}

/** A run's page 1: the grade and the statement first (the first sentence decides), then the
 *  headline numbers and the named checks. */
function runLead(v) {
  document.getElementById('report').append(
    h('div', { class: 'lead' },
      h('div', { class: 'verdict', 'data-grade': v.grade }, gradeBadge(v.grade), h('p', { class: 'statement' }, prose(v.statement))),
      para(v.grade_rule, 'note'),
      v.headline.length ? rowTable(v.headline) : null,
      v.check_sets.map(checkSet)),
  );
}

/** A comparison leads with its verdict: the headline, the table, the gates, the credibility. */
function comparisonLead(v) {
  const c = v.comparison;
  const verdictTable = table(c.table_header, c.table.map((x) => [x.metric, x.base, x.cand, x.change, x.tolerance, x]), (x, i) => {
    if (i === 0) return h('strong', null, x);
    if (i === 5) return h('span', { class: `verdict-word v-${x.verdict}` }, x.verdict_word);
    return x;
  });
  document.getElementById('report').append(
    h('div', { class: 'lead' },
      h('div', { class: `headline v-${c.headline_verdict}` }, prose(c.headline)),
      para(c.clean_sentence),
      verdictTable,
      para(c.table_note, 'note'),
      para(c.gates_line),
      h('div', { class: 'verdict', 'data-grade': v.grade }, gradeBadge(v.grade), h('p', null, prose(c.credibility))),
      h('ul', null, c.arms.map((a) => h('li', null, prose(a))))),
  );
}

/** A sweep leads with what its curve says, the curve, and a row per step. */
function sweepLead(v, r) {
  const sw = v.sweep;
  const cols = [w('tpl.col_offered'), w('tpl.col_achieved'), 'TTFT P50 ms', 'TTFT P99 ms', 'TPOT P50 ms', 'E2E P99 ms', w('tpl.col_errors_pct'), w('tpl.col_grade')];
  const chart = h('div', { class: 'chart-slot' });
  const c = v.capacity;
  document.getElementById('report').append(
    h('div', { class: 'lead' },
      c ? h('div', { class: 'headline' }, prose(c.headline)) : null,
      c ? table(c.head, c.rows) : null,
      h('div', { class: 'headline' }, prose(sw.summary)),
      chart,
      table(cols, sw.rows),
      para(w('tpl.sweep_note', ''), 'note'),
      h('div', { class: 'verdict', 'data-grade': v.grade }, gradeBadge(v.grade), h('p', { class: 'statement' }, prose(v.statement))),
      para(v.grade_rule, 'note')),
  );
  slot(chart, () => sweepChart(chart, r));
}

/** Two capacity searches compared: the change with its verdict, then a row per search. */
function capacityLead(v) {
  const c = v.capacity;
  document.getElementById('report').append(
    h('div', { class: 'lead' },
      h('div', { class: 'headline' }, prose(c.headline)),
      table(c.head, c.rows),
      para(v.subtitle, 'note'),
      h('div', { class: 'verdict', 'data-grade': v.grade }, gradeBadge(v.grade), h('p', { class: 'statement' }, prose(v.statement))),
      para(v.grade_rule, 'note')),
  );
}

/** One set of named checks (a comparison has one per arm). */
function checkSet(set) {
  return h('div', { class: 'checks' },
    h('h3', null, set.title),
    para(set.statement),
    table([w('tpl.col_check'), w('tpl.col_status'), w('tpl.col_reason')], set.checks, (x, i) => (i === 0 ? h('code', null, x) : i === 1 ? status(x) : prose(x))));
}

// ---------------------------------------------------------------- report: the other sections

function telemetrySection(t, audit) {
  const cols = ['GPU', w('tpl.col_what'), 'UTC', w('tpl.col_seconds'), w('tpl.col_duration'), w('tpl.col_evidence')];
  const s = section('telemetry', w('tpl.h_gpu_telemetry'),
    para(t.summary),
    h('p', null, h('strong', null, w('tpl.under_load', 'Under load: ')), labelGap(w('tpl.under_load', ' ')), prose(t.load_rule)),
    sub(w('tpl.h_episodes'), para(t.episodes_note), t.episodes.length ? table(cols, t.episodes) : null),
    sub(w('tpl.h_set_aside'), t.set_aside.length ? table(['GPU', w('tpl.col_why')], t.set_aside) : para(w('tpl.none_all_loaded'))),
    sub(w('tpl.h_clock_stability'), para(t.stability_note),
      t.stability.length ? table(['GPU', w('tpl.col_loaded'), w('tpl.col_sm_clock'), 'CV', w('tpl.col_below_highest'), w('tpl.col_below_90'), w('tpl.col_verdict')], t.stability) : null),
    para(t.unreadable));
  const gpus = (audit && audit.gpus) || [];
  // Every GPU's panels share one time axis: the whole capture.
  const span = extent(...gpus.map((g) => (g.timeline && g.timeline.t_s) || []), [0]);
  t.gpus.forEach((g, i) => {
    const box = h('div', { class: 'chart-grid' });
    s.append(h('h3', null, g.title), para(`${g.state} ${g.captured}`), box);
    if (gpus[i]) slot(box, () => telemetryCharts(box, audit, gpus[i], span));
  });
  if (gpus.length) s.append(para(ui('zoom_hint'), 'note'));
}

function auditSection(a) {
  const cols = [w('tpl.col_claim'), w('tpl.col_tool'), w('tpl.col_recomputed'), w('tpl.col_reproduction'), w('tpl.col_credence'), w('tpl.col_reason')];
  section('audit', w('tpl.h_audit'),
    para(a.summary),
    table(cols, a.claims, (x, i) => (i === 0 ? h('code', { class: 'breakable' }, x) : prose(x))),
    a.facts.length ? table([w('tpl.col_fact'), w('tpl.col_status'), w('tpl.col_reason')], a.facts, (x, i) => (i === 0 ? h('code', null, x) : i === 1 ? status(x) : prose(x))) : null);
}

function metricsSection(v) {
  const cols = [w('tpl.col_metric'), 'P50', 'P90', 'P99', 'P99.9', 'n'];
  section('metrics', w('tpl.h_key_metrics'),
    para(v.metrics_note, 'note'),
    v.metric_tables.map((t) => sub(t.title, table(cols, t.rows))),
    v.rates.length ? table([w('tpl.col_rate'), w('tpl.col_estimate')], v.rates) : null);
}

function conditionsSection(c, i) {
  const cols = [w('tpl.cond_col_metric'), 'P50', 'P90', 'P99', 'P99.9', 'n'];
  const contrast = [w('tpl.cond_col_cause'), w('tpl.cond_col_metric'), w('tpl.cond_col_inside'), w('tpl.cond_col_outside'), w('tpl.cond_col_inside_outside')];
  section(`conditions-${i}`, `${w('tpl.h_conditions')}${labelGap(w('tpl.h_conditions'))}${c.title}`,
    para(c.note, 'note'),
    c.tables.map((t) => sub(t.title, para(t.note), table(cols, t.rows))),
    c.contrast.length ? sub(w('tpl.cond_h_contrast'), table(contrast, c.contrast)) : null);
}

function findingsSection(v) {
  const row = (key, value) => [w(key), value];
  section('findings', w('tpl.h_findings'),
    v.findings.length ? null : h('p', null, prose(v.findings_none)),
    v.findings.map((f) => sub(f.title, rowTable([
      row('tpl.row_cause', h('code', null, f.cause)),
      row('tpl.row_link', f.strength),
      row('tpl.row_episodes', f.episodes),
      row('tpl.row_effect', f.effect),
      row('tpl.row_evidence', h('ul', null, f.evidence.map((e) => h('li', null, prose(e))))),
      row('tpl.row_action', prose(f.action)),
    ], (x) => (x instanceof Node ? x : prose(x))))),
    v.unexplained.length ? sub(w('tpl.h_unexplained'), h('ul', null, v.unexplained.map((u) => h('li', null, prose(u))))) : null,
    para(v.not_checked, 'note'));
}

function comparisonDetails(c, data) {
  const forest = h('div', { class: 'chart-slot' });
  const mono = (x) => h('code', null, x);
  section('comparison', w('tpl.h_comparison_details'),
    para(c.summary),
    forest,
    c.notes.length ? sub(w('tpl.h_decide'), h('ul', null, c.notes.map((n) => h('li', null, prose(n))))) : null,
    sub(w('tpl.h_gates'), table([w('tpl.col_gate'), w('tpl.col_status'), w('tpl.col_reason')], c.gates, (x, i) => (i === 0 ? mono(x) : i === 1 ? status(x) : prose(x)))),
    sub(w('tpl.h_what_changed'), c.what_changed.length
      ? table([w('tpl.col_key'), w('tpl.col_base'), w('tpl.col_candidate')], c.what_changed, mono)
      : para(w('tpl.nothing_differs'))),
    c.by_adapter.length
      ? sub(w('tpl.h_by_adapter'), [para(c.by_adapter_note, 'note'),
          table([w('tpl.col_adapter'), ...c.table_header.slice(0, 4), c.table_header[5]], c.by_adapter, (x, i) => (i === 0 ? mono(x) : x))])
      : null,
    c.environment_changed.length
      ? sub(w('tpl.h_environment_changed'), table([w('tpl.md_col_environment'), w('tpl.col_base'), w('tpl.col_candidate')], c.environment_changed, (x) => x))
      : null);
  if (data) slot(forest, () => forestPlot(forest, c, data));
}

function appendix(v) {
  const mono = (x) => h('code', null, x);
  section('appendix', w('tpl.h_appendix'),
    sub(w('tpl.h_environment'), v.environment.map((e) => [h('h4', null, e.title), table([w('tpl.col_item'), w('tpl.col_value')], e.rows, (x, i) => (i === 0 ? mono(x) : prose(x)))])),
    sub(w('tpl.h_provenance'), table([w('tpl.col_item'), w('tpl.col_value')], v.provenance, (x, i) => (i === 0 ? x : mono(x)))),
    v.files.length ? table([w('tpl.col_run'), w('tpl.col_file'), w('tpl.col_bytes'), 'sha256'], v.files, (x, i) => (i === 2 ? x : h('code', { class: 'breakable' }, x))) : null,
    sub(w('tpl.h_methodology'), table([w('tpl.col_term'), w('tpl.col_definition')], v.methodology)));
  if (v.footer) document.getElementById('report').append(h('footer', null, v.footer));
}

/** The table of contents: a link per section, filled in once every section exists. */
function contents() {
  const nav = document.getElementById('contents');
  if (nav) nav.append(...sections.map(([id, title]) => h('a', { href: `#${id}` }, title)));
}

// ---------------------------------------------------------------- report: the run's charts

/** Which run the charts show first: a comparison's first candidate run, a sweep's top step,
 *  else the first run (as the PDF). */
function focusRun(r) {
  if (r.comparison && r.runs[r.comparison.base_runs.length]) return r.comparison.base_runs.length;
  const steps = r.sweep && r.sweep.steps;
  if (steps && steps.length && r.runs[steps[steps.length - 1].run]) return steps[steps.length - 1].run;
  return 0;
}

/** A run's name in the picker: its id, with its arm or its offered rate. */
function runName(r, i) {
  const id = r.runs[i].run && r.runs[i].run.run_id;
  if (r.comparison) return `${id} (${i < r.comparison.base_runs.length ? ui('base') : ui('candidate')})`;
  const step = r.sweep && r.sweep.steps.find((s) => s.run === i);
  return step ? `${id} (${num(step.offered_per_s)} ${w('chart.requests_axis', 'requests/s')})` : id;
}

/** The timelines and distributions sections, with a run picker when there are several runs. */
function runCharts(v, r) {
  const runs = r.runs || [];
  if (!runs.length || !runs.some((a) => a.timeseries && a.timeseries.windows && a.timeseries.windows.length)) return;
  let current = focusRun(r);
  const timelines = h('div', { class: 'chart-slot' });
  const distributions = h('div', { class: 'chart-grid' });
  const pick = () => (runs.length > 1
    ? h('label', { class: 'picker' }, `${ui('run')} `, h('select', { change: (e) => { current = Number(e.target.value); redrawCharts(); } },
      runs.map((_, i) => h('option', { value: i, selected: i === current }, runName(r, i)))))
    : null);
  section('timelines', w('tpl.h_timelines'), para(v.timeline_note, 'note'), pick(), timelines);
  slot(timelines, () => timelineCharts(timelines, runs[current]));
  if (runs.some((a) => a.distributions && Object.keys(a.distributions).length)) {
    section('distributions', w('tpl.h_distributions'), para(w('tpl.distributions_note', ''), 'note'), distributions);
    slot(distributions, () => distributionCharts(distributions, runs[current]));
  }
}

// ---------------------------------------------------------------- history

function buildHistory(v, hist) {
  const cpCols = ['history-col-metric', 'history-col-from-run', 'history-col-before', 'history-col-after', 'history-col-change', 'history-col-tolerance', 'history-col-verdict', 'history-col-p'].map((k) => w(k));
  const driftCols = ['history-col-metric', 'history-col-configuration', 'history-col-runs', 'history-col-slope', 'history-col-direction', 'history-col-p-mk'].map((k) => w(k));
  const breakCols = ['history-col-from-run', 'history-col-from', 'history-col-to', 'history-col-fingerprint'].map((k) => w(k));
  header(v);
  document.getElementById('report').append(h('div', { class: 'lead' },
    h('div', { class: `headline ${v.regression ? 'v-regression' : 'v-improvement'}` }, prose(v.newest)),
    para(v.method, 'note')));
  const trends = h('div', { class: 'chart-slot' });
  section('trends', w('history-h-trends'), para(ui('zoom_hint'), 'note'), trends);
  if (hist) slot(trends, () => historyCharts(trends, hist));
  // The verdict's key (the ninth cell) gives the verdict word its colour.
  const cpRows = v.change_points.map((c) => [...c.slice(0, 6), { word: c[6], key: c[8] }, c[7]]);
  section('change-points', w('history-h-change-points'), cpRows.length
    ? table(cpCols, cpRows, (x, i) => (i === 6 ? h('span', { class: `verdict-text v-${x.key}` }, x.word) : x))
    : para(w('history-no-change-points')));
  section('drift', w('history-h-drift'), v.drift.length ? table(driftCols, v.drift) : para(v.no_drift));
  if (v.breaks.length) section('breaks', w('history-h-breaks'), para(w('history-breaks-note')), table(breakCols, v.breaks));
  section('runs', w('history-h-runs'), para(v.runs_note, 'note'), table(v.run_header, v.runs));
  if (v.footer) document.getElementById('report').append(h('footer', null, v.footer));
}

/** `ttft_p50` → `P50 TTFT`; the throughputs and the error rate by name. */
function historyLabel(m) {
  const p = /^(\w+)_p(\d+)$/.exec(m);
  if (p) return `P${p[2].length > 2 ? `${p[2].slice(0, 2)}.${p[2].slice(2)}` : p[2]} ${p[1].toUpperCase()}`;
  return ui(m);
}

function historyUnit(m) {
  return { output_tokens_per_s: 'tokens/s', requests_per_s: 'requests/s', error_rate: '%' }[m] || 'ms';
}

// ---------------------------------------------------------------- chart infrastructure

/** Every live chart, for resizing, redrawing and the self-test: `{u}` (uPlot) or `{svg}`, with
 *  the `box` it sits in. */
let charts = [];
/** Containers and the functions that draw their charts: all are redrawn together when the
 *  colour scheme, the printed page or the chosen run changes. */
const slots = [];
/** Zoom groups by name (see zoomGroup), rebuilt with the charts. */
let groups = new Map();
/** Colours and font read from the CSS variables (report.css), once per drawing. */
let T = null;
/** Which shaded spans the reader switched off, by key: kept across redraws. */
const hidden = new Set();

function slot(el, draw) {
  slots.push({ el, draw });
}

function theme() {
  const style = getComputedStyle(document.documentElement);
  const v = (name) => style.getPropertyValue(name).trim();
  return {
    fg: v('--fg'), muted: v('--muted'), grid: v('--grid'), font: v('--font'),
    series: [1, 2, 3, 4, 5, 6].map((i) => v(`--c${i}`)),
    dropped: v('--band-dropped'), episode: v('--band-episode'), mark: v('--mark'), markBand: v('--mark-band'),
    level: v('--level'), low: v('--low'), bad: v('--regression'),
  };
}

/** Destroys every chart and draws each slot again (new colours, sizes or run). */
function redrawCharts() {
  for (const c of charts) if (c.u) c.u.destroy();
  charts = [];
  groups = new Map();
  T = theme();
  for (const s of slots) {
    s.el.replaceChildren();
    // One chart's failure must not take the others down; the self-test still reports it.
    try {
      s.draw();
    } catch (e) {
      caught.push(`chart: ${e && e.stack ? e.stack : e}`);
    }
  }
}

/** A box for one chart inside `parent`. */
function chartBox(parent, cls = 'chart') {
  const box = h('div', { class: cls });
  parent.append(box);
  return box;
}

/** The width a chart gets in `box`: its CSS width, or a printed page's. */
function widthOf(box) {
  if (document.documentElement.classList.contains('printing')) return box.closest('.chart-grid') ? 330 : 680;
  return Math.max(260, Math.floor(box.getBoundingClientRect().width || 800));
}

/** Charts on one x axis (the timelines, or the runs of a history): a drag-zoom on any of them
 *  sets the same x range on all (uPlot's setScale hook), a double-click resets all to `full`. */
function zoomGroup(key, full) {
  if (groups.has(key)) return groups.get(key);
  const g = { key, full, cur: full, members: [] };
  g.follow = (u, scale) => {
    if (scale !== 'x' || u.scales.x.min == null) return;
    const { min, max } = u.scales.x;
    g.cur = [min, max];
    // The others follow in their own commit; equal ranges stop the echo.
    for (const o of g.members) if (o !== u && (o.scales.x.min !== min || o.scales.x.max !== max)) o.setScale('x', { min, max });
  };
  g.add = (u) => {
    g.members.push(u);
    u.setScale('x', { min: g.cur[0], max: g.cur[1] });
  };
  g.reset = () => g.members.forEach((m) => m.setScale('x', { min: g.full[0], max: g.full[1] }));
  groups.set(key, g);
  return g;
}

/** Ticks of a log axis: 1, 2 and 5 times each power of ten inside [min, max], or every digit
 *  when that gives too few, or powers of ten alone when the axis is short. (uPlot's own log
 *  ticks start at the axis minimum: an axis from 15 ms would read 15, 105, 1050.) */
function logSplits(u, i, min, max) {
  const pick = (mantissas) => {
    const out = [];
    for (let e = Math.floor(Math.log10(min)); 10 ** e <= max; e += 1) {
      for (const m of mantissas) {
        const v = Number((m * 10 ** e).toPrecision(12));
        if (v >= min && v <= max) out.push(v);
      }
    }
    return out;
  };
  // Room for a label every 60 px across, every 24 px up.
  const room = Math.max(2, Math.floor((i === 0 ? u.bbox.width / 60 : u.bbox.height / 24) / devicePixelRatio));
  for (const set of [[1, 2, 5], [1, 2, 3, 4, 5, 6, 7, 8, 9]]) {
    const splits = pick(set);
    if (splits.length >= 3 && splits.length <= room) return splits;
  }
  const decades = pick([1]);
  const every = Math.ceil(decades.length / room);
  return decades.filter((v, k) => k % every === 0);
}

function axis(label, scale, log, extra) {
  return {
    scale, label, stroke: T.fg, font: `12px ${T.font}`, labelFont: `12px ${T.font}`,
    grid: { stroke: T.grid, width: 1 }, ticks: { stroke: T.grid, width: 1 },
    values: (u, splits) => splits.map(num),
    // uPlot's log filter would blank ticks it did not choose itself.
    ...(log ? { splits: logSplits, filter: (u, splits) => splits } : {}),
    ...extra,
  };
}

/** The identity range: a zoomed x range stays what the reader selected (uPlot would widen a
 *  log axis to whole decades). */
const asGiven = (u, lo, hi) => [lo, hi];

/**
 * A uPlot chart in `box`.
 * spec: title, x (ascending), xLabel, yLabel, series [{label, values, color, dash, points}],
 *       logX, logY, group (zoomGroup), plugins, yRange, xIncrs, height.
 */
function plot(box, spec) {
  const series = spec.series.map((s, i) => ({
    label: s.label,
    stroke: s.color || T.series[i % T.series.length],
    width: s.width ?? 1.5,
    dash: s.dash,
    spanGaps: false,
    // Points alone (a scatter) unless the series also asks for its line.
    paths: s.points && !s.line ? () => null : undefined,
    points: s.points ? { show: true, size: s.points, width: 0, fill: s.color || T.series[i % T.series.length] } : { show: false },
    value: (u, v) => short(v),
  }));
  const g = spec.group;
  const opts = {
    title: spec.title,
    width: widthOf(box),
    height: spec.height || 220,
    scales: {
      x: { time: false, distr: spec.logX ? 3 : 1, range: spec.xRange || asGiven },
      y: { distr: spec.logY ? 3 : 1, ...(spec.yRange ? { range: spec.yRange } : {}) },
    },
    // A fixed y-axis width keeps stacked timelines aligned on one time axis.
    axes: [axis(spec.xLabel, 'x', spec.logX, spec.xIncrs ? { incrs: spec.xIncrs } : {}), axis(spec.yLabel, 'y', spec.logY, { size: 64 })],
    series: [{ label: spec.xLabel, value: (u, v) => short(v) }, ...series],
    cursor: g ? { sync: { key: g.key }, bind: { dblclick: () => () => { g.reset(); return null; } } } : {},
    hooks: g ? { setScale: [g.follow] } : {},
    plugins: spec.plugins || [],
  };
  const u = new uPlot(opts, [spec.x, ...spec.series.map((s) => s.values)], box);
  charts.push({ u, box, group: g });
  if (g) g.add(u);
  return u;
}

/** Whether a chart's first series has a value to draw. */
function hasData(spec) {
  return spec.series.length > 0 && spec.series[0].values.some((v) => v != null && Number.isFinite(v));
}

/** Shades vertical spans behind the lines: `spans()` gives [{from, to, color}] at draw time,
 *  so a checkbox only needs a redraw. */
function shade(spans) {
  return {
    hooks: {
      drawClear: (u) => {
        const { ctx, bbox } = u;
        ctx.save();
        for (const s of spans()) {
          const a = Math.max(bbox.left, u.valToPos(s.from, 'x', true));
          const b = Math.min(bbox.left + bbox.width, u.valToPos(s.to, 'x', true));
          if (b <= a) continue;
          ctx.fillStyle = s.color;
          ctx.fillRect(a, bbox.top, b - a, bbox.height);
        }
        ctx.restore();
      },
    },
  };
}

/** A dashed vertical line at each x of `lines()`, in `color`. */
function vlines(lines, color) {
  return {
    hooks: {
      draw: (u) => {
        const { ctx, bbox } = u;
        ctx.save();
        ctx.strokeStyle = color;
        ctx.lineWidth = 2 * devicePixelRatio;
        ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
        for (const x of lines()) {
          const px = Math.round(u.valToPos(x, 'x', true));
          if (px < bbox.left || px > bbox.left + bbox.width) continue;
          ctx.beginPath();
          ctx.moveTo(px, bbox.top);
          ctx.lineTo(px, bbox.top + bbox.height);
          ctx.stroke();
        }
        ctx.restore();
      },
    },
  };
}

/** `{gpu}: {what}`-style words filled in. */
function fillWords(text, args) {
  return text.replace(/\{\s*\$?(\w+)\s*\}/g, (m, k) => (k in args ? args[k] : m));
}

// ---------------------------------------------------------------- timelines

/** The spans shaded on a run's timelines: the dropped warmup and ramp-down in grey, each
 *  finding's episodes in red (drift has none to shade, as in the PDF). */
function runBands(a, xMax) {
  const bands = [];
  const s = a.steady_state;
  if (s) {
    const spans = [];
    if (s.start_s > 0) spans.push([0, s.start_s]);
    if (s.end_s < xMax) spans.push([s.end_s, xMax]);
    if (spans.length) bands.push({ key: 'dropped', label: ui('dropped'), spans, color: T.dropped });
  }
  // The view's findings are every run's, in order: this run's start after the earlier runs'.
  const runs = DATA.report.runs;
  let offset = 0;
  for (const r of runs) {
    if (r === a) break;
    offset += (r.findings || []).length;
  }
  (a.findings || []).forEach((f, j) => {
    const eps = (f.episodes || []).filter((e) => e.end_s > e.start_s);
    if (f.cause === 'drift' || !eps.length) return;
    const title = (DATA.view.findings[offset + j] || f).title;
    const when = eps.map((e) => `${Math.round(e.start_s)}–${Math.round(e.end_s)} s`).join(', ');
    bands.push({ key: `finding-${j}-${f.cause}`, label: `${title} (${when})`, spans: eps.map((e) => [e.start_s, e.end_s]), color: T.episode });
  });
  return bands;
}

/** A checkbox per band; switching one redraws the timelines without rebuilding them. */
function bandToggles(bands, group) {
  if (!bands.length) return null;
  return h('div', { class: 'toggles' }, `${ui('shade')}: `, bands.map((b) => h('label', null,
    h('input', {
      type: 'checkbox', checked: !hidden.has(b.key),
      change: (e) => {
        if (e.target.checked) hidden.delete(b.key);
        else hidden.add(b.key);
        group.members.forEach((u) => u.redraw(false));
      },
    }),
    h('span', { class: 'swatch', style: `background:${b.color}` }), b.label)));
}

/** A column of the time series: `f(row)` per window. */
function column(rows, f) {
  return rows.map((r) => {
    const v = f(r);
    return v == null || !Number.isFinite(v) ? null : v;
  });
}

/** The charts of the request time series, one per quantity (as the PDF's timelines). */
function windowSpecs(a) {
  const ts = a.timeseries;
  const rows = ts.windows;
  const win = ts.window_s || 1;
  // Each window's value is drawn at its middle.
  const x = rows.map((r) => r.start_s + win / 2);
  const t = (k, fb) => w(`chart.${k}`, fb);
  const rate = (f) => column(rows, (r) => (f(r) == null ? null : f(r) / win));
  const specs = [];
  const throughput = [
    { label: t('completed', 'completed req/s'), values: rate((r) => r.completed) },
    { label: t('sent', 'sent req/s (achieved)'), values: rate((r) => r.achieved) },
  ];
  if (rows.some((r) => r.offered != null)) throughput.push({ label: t('offered', 'scheduled req/s (offered)'), values: rate((r) => r.offered), dash: [6, 4] });
  specs.push({ title: t('throughput', 'Throughput'), yLabel: t('requests_axis', 'requests/s'), x, series: throughput });
  for (const m of ['ttft', 'tpot', 'e2e']) {
    const p50 = column(rows, (r) => r[`${m}_p50_ms`]);
    const p99 = column(rows, (r) => r[`${m}_p99_ms`]);
    specs.push({ title: t(`latency_${m}`, `${m.toUpperCase()} per window`), yLabel: 'ms', x, series: [{ label: 'P50', values: p50 }, { label: 'P99', values: p99 }], logY: wantsLog(p50, p99) });
  }
  specs.push({ title: t('concurrency', 'Concurrency'), yLabel: t('concurrency_axis', 'requests in flight'), x, series: [{ label: t('concurrency_mean', 'mean in flight'), values: column(rows, (r) => r.concurrency) }] });
  return specs;
}

function shortGpu(label) {
  return String(label).split(' (')[0];
}

/** Lines of several devices on one x axis: uPlot.join aligns their sample times (a device
 *  without a sample at a time gets a gap that the line spans). */
function joined(items, time, value, label) {
  const tables = items.map((it) => [time(it), value(it)]).filter(([t, v]) => t && v && t.length === v.length && v.some((y) => y != null));
  if (!tables.length) return null;
  const data = tables.length === 1 ? tables[0] : uPlot.join(tables);
  return { x: data[0], series: data.slice(1).map((values, i) => ({ label: label(items[i], i), values })) };
}

/** A dashed reference level across a chart (a rated maximum, a limit). */
function level(x, value, label) {
  return { label, values: x.map(() => value), dash: [6, 4], color: T.muted };
}

/** GPU and load-generator timelines of a run (each only when captured). */
function telemetrySpecs(a) {
  const tl = a.telemetry || {};
  const gpus = tl.gpus || [];
  const hosts = tl.hosts || [];
  const t = (k, fb) => w(`chart.${k}`, fb);
  const specs = [];
  const gpu = (field, title, unit, extra, scale = 1) => {
    const j = joined(gpus, (g) => g.t_s, (g) => (scale === 1 ? g[field] : (g[field] || []).map((v) => (v == null ? null : v * scale))), (g) => shortGpu(g.label));
    if (!j) return;
    if (extra) j.series.push(...extra(j.x).filter(Boolean));
    specs.push({ title, yLabel: unit, x: j.x, series: j.series });
  };
  const maxClock = Math.max(...gpus.map((g) => g.sm_clock_max_mhz ?? -Infinity));
  const slowdown = Math.min(...gpus.map((g) => g.slowdown_c ?? Infinity));
  gpu('sm_clock_mhz', t('gpu_clock', 'GPU SM clock'), 'MHz', (x) => [Number.isFinite(maxClock) && level(x, maxClock, t('maximum', 'maximum'))]);
  gpu('temp_c', t('gpu_temperature', 'GPU temperature'), '°C', (x) => [Number.isFinite(slowdown) && level(x, slowdown, t('slowdown', 'slowdown'))]);
  gpu('power_w', t('gpu_power', 'GPU power'), 'W', (x) => {
    // The first GPU's limit, as the PDF draws it, on the joined times.
    const lim = joined(gpus.slice(0, 1), (g) => g.t_s, (g) => g.power_limit_w, () => '');
    return [lim && lim.x.length === x.length && { label: t('limit', 'limit'), values: lim.series[0].values, dash: [6, 4], color: T.muted }];
  });
  gpu('util_pct', t('gpu_utilization', 'GPU utilization'), '%');
  gpu('memory_used_share', t('gpu_memory', 'GPU memory used'), t('gpu_memory_axis', '% of total'), null, 100);
  const host = (field, title, unit, label = (hst) => hst.host) => {
    const j = joined(hosts, (hst) => hst.t_s, (hst) => hst[field], label);
    if (j) specs.push({ title, yLabel: unit, x: j.x, series: j.series });
  };
  host('lg_cpu_pct', t('client_cpu', 'Load-generator CPU'), t('client_cpu_axis', '% of one core'));
  host('send_lag_p99_ms', t('client_lag', 'Load-generator send lag'), 'ms');
  host('retransmits_per_s', t('retransmits', 'TCP retransmits'), t('segments_axis', 'segments/s'));
  return specs;
}

/** A run's timelines: one chart per quantity on one time axis, zoomed together, with the
 *  warmup cut and the episodes shaded (each switchable), then the per-request scatter. */
function timelineCharts(el, a) {
  const rows = (a.timeseries && a.timeseries.windows) || [];
  const win = (a.timeseries && a.timeseries.window_s) || 1;
  const xMax = Math.max(rows.length ? rows[rows.length - 1].start_s + win : 0, (a.steady_state && a.steady_state.end_s) || 0, 1);
  const specs = [...windowSpecs(a), ...telemetrySpecs(a)].filter(hasData);
  const scatter = a.scatter && a.scatter.send_s && a.scatter.send_s.length ? a.scatter : null;
  const span = extent([0, xMax], ...specs.map((s) => [s.x[0], s.x[s.x.length - 1]]), scatter ? [scatter.send_s[0], scatter.send_s[scatter.send_s.length - 1]] : []);
  const group = zoomGroup('timeline', span);
  const bands = runBands(a, xMax);
  const shading = shade(() => bands.filter((b) => !hidden.has(b.key)).flatMap((b) => b.spans.map(([from, to]) => ({ from, to, color: b.color }))));
  el.append(h('div', { class: 'chart-tools' }, bandToggles(bands, group),
    h('span', { class: 'note' }, ui('zoom_hint'), ' '), h('button', { type: 'button', click: () => group.reset() }, ui('reset'))));
  for (const s of specs) plot(chartBox(el), { ...s, xLabel: w('chart.seconds', 'seconds from the first send'), group, plugins: [shading] });
  if (scatter) scatterChart(el, scatter, group, shading);
}

// ---------------------------------------------------------------- per-request scatter

/** The per-request scatter: send time against TTFT or E2E, coloured by outcome or phase,
 *  on the timelines' time axis. The controls redraw only this chart. */
function scatterChart(el, raw, group, shading) {
  const sc = bySendTime(raw);
  const state = { metric: sc.ttft_ms ? 'ttft_ms' : 'e2e_ms', by: sc.phase ? 'phase' : 'status' };
  const box = h('div', { class: 'chart' });
  const select = (key, options) => h('select', { change: (e) => { state[key] = e.target.value; draw(); } },
    options.map(([value, label]) => h('option', { value, selected: state[key] === value }, label)));
  const metrics = [['ttft_ms', 'TTFT'], ['e2e_ms', 'E2E']].filter(([k]) => sc[k]);
  const colours = [['status', ui('status')], ...(sc.phase ? [['phase', ui('phase')]] : [])];
  el.append(h('h3', null, ui('scatter')),
    h('div', { class: 'chart-tools' },
      h('label', null, `${ui('metric')} `, select('metric', metrics)), ' ',
      h('label', null, `${ui('color_by')} `, select('by', colours))),
    sc.total > sc.send_s.length ? para(ui('scatter_note', { shown: sc.send_s.length, total: sc.total }), 'note') : null,
    box);
  function draw() {
    const old = charts.find((c) => c.box === box);
    if (old) {
      old.u.destroy();
      charts = charts.filter((c) => c !== old);
      group.members.splice(group.members.indexOf(old.u), 1);
    }
    box.replaceChildren();
    const y = sc[state.metric];
    plot(box, {
      title: metrics.find(([k]) => k === state.metric)[1], x: sc.send_s, xLabel: w('chart.seconds', 'seconds from the first send'),
      yLabel: wantsLog(y) ? w('chart.ms_log', 'ms (log scale)') : 'ms', logY: wantsLog(y), group, plugins: [shading], height: 280,
      series: scatterClasses(sc, state.by).map((c) => ({ label: c.label, color: c.color, points: 4, values: y.map((v, i) => (c.test(i) && v > 0 ? v : null)) })),
    });
  }
  draw();
}

/** The scatter in send order (uPlot needs ascending x); copied only when it is not already. */
function bySendTime(sc) {
  const t = sc.send_s;
  if (t.every((v, i) => i === 0 || t[i - 1] <= v)) return sc;
  const order = t.map((_, i) => i).sort((a, b) => t[a] - t[b]);
  const out = { ...sc };
  for (const k of ['send_s', 'ttft_ms', 'e2e_ms', 'ok', 'phase']) if (Array.isArray(sc[k])) out[k] = order.map((i) => sc[k][i]);
  return out;
}

/** The scatter's colour classes: succeeded and failed, or warmup, steady and episode. */
function scatterClasses(sc, by) {
  if (by === 'status' || !sc.phase) {
    return [
      { label: ui('ok'), color: T.series[0], test: (i) => sc.ok == null || sc.ok[i] !== false },
      { label: ui('error'), color: T.bad, test: (i) => sc.ok != null && sc.ok[i] === false },
    ];
  }
  const known = ['warmup', 'steady', 'episode'];
  const colours = { warmup: T.muted, steady: T.series[0], episode: T.bad, other: T.series[3] };
  return [...known, 'other']
    .filter((p) => sc.phase.some((x) => (known.includes(x) ? x : 'other') === p))
    .map((p) => ({ label: ui(p), color: colours[p], test: (i) => (known.includes(sc.phase[i]) ? sc.phase[i] : 'other') === p }));
}

// ---------------------------------------------------------------- distributions

/** Each latency's CDF from its quantile grid, with P50, P90 and P99 marked and their
 *  intervals drawn as a band (open to the right when the interval has no upper bound). */
function distributionCharts(el, a) {
  const dists = a.distributions || {};
  for (const m of ['ttft', 'tpot', 'itl', 'e2e']) {
    const q = ((dists[m] && dists[m].quantiles) || []).filter((p) => p[1] > 0);
    if (q.length < 2) continue;
    const x = q.map((p) => p[1]);
    const lo = x[0] * 0.9;
    const hi = x[x.length - 1] * 1.1;
    const logX = hi / lo >= 10;
    const marks = ['p50', 'p90', 'p99'].map((k) => ({ k, e: a.metrics && a.metrics[m] && a.metrics[m][k] })).filter((p) => p.e && p.e.estimate != null);
    plot(chartBox(el), {
      title: w(`chart.cdf_${m}`, `${m.toUpperCase()} CDF`),
      x, xLabel: logX ? w('chart.ms_log', 'ms (log scale)') : 'ms', yLabel: w(m === 'itl' ? 'chart.cdf_y_itl' : 'chart.cdf_y', '% of requests'),
      logX, xRange: () => [lo, hi], yRange: () => [0, 100],
      series: [{ label: w(`chart.cdf_${m}`, 'CDF'), values: q.map((p) => p[0] * 100), width: 2 }],
      plugins: [percentileMarks(marks)],
    });
  }
}

/** Vertical lines at the estimates with their labels, over a band for each interval. */
function percentileMarks(marks) {
  return {
    hooks: {
      draw: (u) => {
        const { ctx, bbox } = u;
        const px = (v) => Math.min(bbox.left + bbox.width, Math.max(bbox.left, u.valToPos(v, 'x', true)));
        const dpr = devicePixelRatio;
        ctx.save();
        for (const { k, e } of marks) {
          if (e.ci_low != null) {
            const a = px(e.ci_low);
            const b = e.ci_high != null ? px(e.ci_high) : bbox.left + bbox.width;
            ctx.fillStyle = T.markBand;
            ctx.fillRect(a, bbox.top, Math.max(b - a, dpr), bbox.height);
          }
          const x = Math.round(px(e.estimate));
          ctx.strokeStyle = T.mark;
          ctx.lineWidth = dpr;
          ctx.beginPath();
          ctx.moveTo(x, bbox.top);
          ctx.lineTo(x, bbox.top + bbox.height);
          ctx.stroke();
          ctx.fillStyle = T.mark;
          ctx.font = `${11 * dpr}px ${T.font}`;
          ctx.fillText(k.toUpperCase(), x + 3 * dpr, bbox.top + (k === 'p50' ? 12 : k === 'p90' ? 26 : 40) * dpr);
        }
        ctx.restore();
      },
    },
  };
}

// ---------------------------------------------------------------- sweep, telemetry audit

/** A sweep's curve: TTFT and E2E P50 and P99 against the achieved rate of each step. */
function sweepChart(el, r) {
  const steps = (r.sweep.steps || []).map((s) => r.runs[s.run]).filter((a) => a && a.throughput && a.throughput.requests_per_s.estimate != null);
  steps.sort((p, q) => p.throughput.requests_per_s.estimate - q.throughput.requests_per_s.estimate);
  if (steps.length < 1) return;
  const get = (m, p) => steps.map((a) => (a.metrics[m] && a.metrics[m][p] ? a.metrics[m][p].estimate : null));
  const series = [
    { label: 'TTFT P50', values: get('ttft', 'p50') },
    { label: 'TTFT P99', values: get('ttft', 'p99') },
    { label: 'E2E P50', values: get('e2e', 'p50'), dash: [6, 4] },
    { label: 'E2E P99', values: get('e2e', 'p99'), dash: [6, 4] },
  ].map((x) => ({ ...x, points: 6, line: true, width: 2 }));
  plot(chartBox(el), {
    title: w('chart.sweep', 'Latency against achieved throughput'), x: steps.map((a) => a.throughput.requests_per_s.estimate),
    xLabel: w('chart.achieved_axis', 'achieved requests/s'), yLabel: 'ms', xRange: (u, lo, hi) => [0, hi * 1.05], logY: wantsLog(...series.map((s) => s.values)), series,
  });
}

/** One GPU's panels of a telemetry-only audit, its episodes shaded, all GPUs zoomed together. */
function telemetryCharts(el, audit, g, span) {
  const tl = g.timeline || {};
  const x = tl.t_s || [];
  if (!x.length) return;
  const t = (k, fb) => w(`chart.${k}`, fb);
  const of = (k, fb) => fillWords(t('of_gpu', '{gpu}: {what}'), { gpu: shortGpu(g.gpu), what: t(k, fb) });
  const group = zoomGroup('telemetry', span);
  const eps = (audit.episodes || []).filter((e) => e.gpu === g.gpu);
  const shading = shade(() => eps.map((e) => ({ from: e.start_s, to: e.end_s, color: T.episode })));
  const specs = [
    { title: of('sm_clock', 'SM clock'), yLabel: 'MHz', series: [{ label: t('sm_clock', 'SM clock'), values: tl.sm_clock_mhz || [] }, tl.sm_clock_max_mhz != null && level(x, tl.sm_clock_max_mhz, t('rated_maximum', 'rated maximum'))] },
    { title: of('power', 'power'), yLabel: 'W', series: [{ label: t('power', 'power'), values: tl.power_w || [] }, tl.power_limit_w && { label: t('limit', 'limit'), values: tl.power_limit_w, dash: [6, 4], color: T.muted }] },
    { title: of('temperature', 'temperature'), yLabel: '°C', series: [{ label: 'GPU', values: tl.temp_c || [] }] },
    { title: of('utilization', 'utilization'), yLabel: '%', series: [{ label: t('utilization', 'utilization'), values: tl.util_pct || [] }, audit.load_threshold_pct != null && level(x, audit.load_threshold_pct, t('under_load', 'under-load threshold'))] },
  ];
  for (const s of specs) {
    const spec = { ...s, x, series: s.series.filter(Boolean) };
    if (hasData(spec)) plot(chartBox(el), { ...spec, xLabel: t('seconds_sample', 'seconds from the first sample'), group, plugins: [shading] });
  }
}

// ---------------------------------------------------------------- comparison forest plot

const METRIC_ORDER = ['ttft_p50', 'ttft_p99', 'tpot_p50', 'tpot_p99', 'e2e_p50', 'e2e_p99', 'output_tokens_per_s', 'requests_per_s', 'error_rate'];
const SVG = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text != null) e.textContent = text;
  return e;
}

/** Relative change (candidate / base − 1) per metric with its 95 % interval, the tolerance
 *  ±τ shaded, coloured by verdict. Inline SVG: its colours are CSS, so it follows the theme
 *  and prints without a redraw. The error rate (an absolute change) is left out, as in the PDF. */
function forestPlot(el, view, c) {
  const keys = [...METRIC_ORDER.filter((k) => k in c.metrics), ...Object.keys(c.metrics).filter((k) => !METRIC_ORDER.includes(k))];
  // The view's verdict table lists the metrics in this same order, with their words.
  const label = new Map(keys.map((k, i) => [k, (view.table[i] && view.table[i].metric) || k]));
  const rows = keys.filter((k) => k !== 'error_rate').map((k) => ({ k, m: c.metrics[k] }))
    .filter(({ m }) => m.change && [m.change.estimate, m.change.ci_low, m.change.ci_high].every(Number.isFinite));
  if (!rows.length) return;
  const ext = Math.max(1, ...rows.map(({ m }) => Math.max(Math.abs(m.change.ci_low), Math.abs(m.change.ci_high), m.tolerance || 0) * 100)) * 1.15;
  const [W, left, right, top, rowH] = [900, 200, 24, 12, 30];
  const H = top + rowH * rows.length + 46;
  const X = (v) => left + ((v + ext) / (2 * ext)) * (W - left - right);
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'forest', role: 'img' });
  svg.append(svgEl('title', null, w('chart.forest', 'Relative change with 95 % intervals')));
  const step = niceStep(2 * ext, 8);
  const bottom = top + rowH * rows.length;
  // Ticks by index, so that 0 is exactly 0 whatever the step's float error.
  for (let i = Math.ceil(-ext / step); i * step <= ext; i += 1) {
    const v = i * step;
    svg.append(svgEl('line', { x1: X(v), x2: X(v), y1: top, y2: bottom, class: i === 0 ? 'zero' : 'gridline' }));
    svg.append(svgEl('text', { x: X(v), y: bottom + 16, 'text-anchor': 'middle', class: 'tick' }, `${v > 0 ? '+' : v < 0 ? '−' : ''}${num(Math.abs(v))} %`));
  }
  svg.append(svgEl('text', { x: (left + W - right) / 2, y: bottom + 36, 'text-anchor': 'middle', class: 'axis-label' }, `${w('chart.change', 'change')} (%)`));
  rows.forEach(({ k, m }, i) => {
    const y = top + rowH * i + rowH / 2;
    const tau = (m.tolerance || 0) * 100;
    const [est, lo, hi] = [m.change.estimate, m.change.ci_low, m.change.ci_high].map((v) => v * 100);
    const row = svgEl('g', { class: `row v-${m.verdict}` });
    row.append(svgEl('title', null, `${label.get(k)}: ${est > 0 ? '+' : ''}${short(est)} % [${short(lo)}, ${short(hi)}], τ ±${short(tau)} %`));
    if (tau > 0) row.append(svgEl('rect', { x: X(-tau), y: y - rowH * 0.4, width: X(tau) - X(-tau), height: rowH * 0.8, class: 'tol' }));
    row.append(svgEl('line', { x1: X(lo), x2: X(hi), y1: y, y2: y, class: 'ci' }));
    row.append(svgEl('circle', { cx: X(est), cy: y, r: 5, class: 'est' }));
    row.append(svgEl('text', { x: left - 10, y: y + 4, 'text-anchor': 'end', class: 'name' }, label.get(k)));
    svg.append(row);
  });
  el.append(h('figure', { class: 'chart' }, h('figcaption', null, w('chart.forest', '')), svg));
  charts.push({ svg, box: el });
}

// ---------------------------------------------------------------- history trends

/** Each metric's runs in series order: the estimate with its interval (LOW runs grey), the
 *  segment levels between change points, the change points as dashed red lines and every
 *  other configuration after a break shaded; all metrics zoom together over the runs. */
function historyCharts(el, hist) {
  const runs = hist.runs || [];
  if (!runs.length) return;
  const group = zoomGroup('history', [-0.5, runs.length - 0.5]);
  const x = runs.map((r) => r.index);
  const starts = [...(hist.breaks || []).map((b) => b.index - 0.5), runs.length - 0.5];
  const breaks = [];
  for (let i = 0; i + 1 < starts.length; i += 2) breaks.push({ from: starts[i], to: starts[i + 1], color: T.dropped });
  for (const m of hist.metrics || []) {
    const scale = m === 'error_rate' ? 100 : 1;
    const val = (r) => r.values && r.values[m];
    const at = (r, f) => (val(r) && val(r)[f] != null ? val(r)[f] * scale : null);
    const est = runs.map((r) => at(r, 'estimate'));
    if (!est.some((v) => v != null)) continue;
    const low = runs.map((r) => r.grade === 'LOW');
    const lo = runs.map((r, i) => at(r, 'ci_low') ?? est[i]);
    const hi = runs.map((r, i) => at(r, 'ci_high') ?? est[i]);
    const [yMin, yMax] = extent(lo, hi);
    const pad = Math.max((yMax - yMin) * 0.08, Math.abs(yMax) * 0.01, 1e-9);
    const cps = (hist.change_points || []).filter((c) => c.metric === m);
    const levels = [];
    for (const c of cps) {
      for (const seg of [c.before, c.after]) {
        if (!levels.some((l) => l.a === seg.first_index && l.z === seg.last_index)) levels.push({ a: seg.first_index, z: seg.last_index, y: seg.estimate * scale });
      }
    }
    plot(chartBox(el), {
      title: fillWords(w('history-chart-caption'), { metric: historyLabel(m) }), x, xLabel: w('history-chart-x'), yLabel: historyUnit(m),
      xIncrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000], yRange: () => [yMin - pad, yMax + pad], group, height: 240,
      series: [
        { label: ui('estimate'), values: est.map((v, i) => (low[i] ? null : v)), points: 7 },
        { label: ui('low'), values: est.map((v, i) => (low[i] ? v : null)), points: 7, color: T.low },
      ],
      plugins: [shade(() => breaks), whiskers(lo, hi, low), segmentLevels(levels), vlines(() => cps.map((c) => c.index - 0.5), T.bad)],
    });
  }
}

/** Each run's interval as a vertical line through its estimate. */
function whiskers(lo, hi, low) {
  return {
    hooks: {
      drawSeries: (u, si) => {
        if (si !== 1) return;
        const { ctx } = u;
        ctx.save();
        ctx.lineWidth = devicePixelRatio;
        lo.forEach((l, i) => {
          if (l == null || hi[i] == null || hi[i] === l) return;
          const x = Math.round(u.valToPos(u.data[0][i], 'x', true));
          ctx.strokeStyle = low[i] ? T.low : T.series[0];
          ctx.beginPath();
          ctx.moveTo(x, u.valToPos(l, 'y', true));
          ctx.lineTo(x, u.valToPos(hi[i], 'y', true));
          ctx.stroke();
        });
        ctx.restore();
      },
    },
  };
}

/** The level of each segment between change points, as a horizontal line over its runs. */
function segmentLevels(levels) {
  return {
    hooks: {
      draw: (u) => {
        const { ctx } = u;
        ctx.save();
        ctx.strokeStyle = T.level;
        ctx.lineWidth = 2 * devicePixelRatio;
        for (const l of levels) {
          const y = u.valToPos(l.y, 'y', true);
          ctx.beginPath();
          ctx.moveTo(u.valToPos(l.a - 0.4, 'x', true), y);
          ctx.lineTo(u.valToPos(l.z + 0.4, 'x', true), y);
          ctx.stroke();
        }
        ctx.restore();
      },
    },
  };
}

// ---------------------------------------------------------------- sizing, theme, print

/** Resizes the uPlot charts to their boxes when the window changes (in the next frame: a
 *  resize inside the observer's callback would loop). */
function watchSize() {
  let pending = false;
  new ResizeObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      for (const c of charts) {
        const width = widthOf(c.box);
        if (c.u && Math.abs(c.u.width - width) > 1) c.u.setSize({ width, height: c.u.height });
      }
    });
  }).observe(document.getElementById('report'));
}

/** Light and dark follow the system; a printed page is always light and page-wide: the
 *  `printing` class switches the CSS variables to light and the charts to the paper's width. */
function watchTheme() {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redrawCharts);
  addEventListener('beforeprint', () => {
    document.documentElement.classList.add('printing');
    redrawCharts();
  });
  addEventListener('afterprint', () => {
    document.documentElement.classList.remove('printing');
    redrawCharts();
  });
}

// ---------------------------------------------------------------- self-test

/** For the browser test (#selftest): counts the charts and those with data, zooms the first
 *  chart of each zoom group the way a reader does (a drag across its plot, as dispatched mouse
 *  events) and checks that the others followed, then writes the result as JSON into the pre
 *  element `credence-selftest`. */
async function selftest(interactiveMs) {
  // uPlot lays a new chart out in a later task: drag only once that has happened.
  await new Promise((r) => setTimeout(r, 100));
  const drawn = charts.filter((c) => (c.u ? c.u.data[0].length > 0 && c.u.ctx.canvas.width > 0 : c.svg.querySelector('.row') != null)).length;
  let linked = 0;
  let zoomLinked = true;
  const zooms = [];
  for (const g of groups.values()) {
    if (g.members.length < 2) continue;
    // The first chart on screen (a hidden one has no plot to drag across).
    const first = g.members.find((u) => u.over.getBoundingClientRect().width > 0);
    if (!first) continue;
    dragAcross(first.over, 0.25, 0.5);
    // uPlot commits scales in a microtask and the others follow in theirs.
    await new Promise((r) => setTimeout(r, 50));
    const { min, max } = first.scales.x;
    const [a, b] = g.full;
    zooms.push([min, max, a, b]);
    if (!(min > a && max < b)) zoomLinked = false;
    for (const u of g.members.filter((m) => m !== first)) {
      linked += 1;
      if (Math.abs(u.scales.x.min - min) > 1e-9 || Math.abs(u.scales.x.max - max) > 1e-9) zoomLinked = false;
    }
    g.reset();
  }
  await new Promise((r) => setTimeout(r, 50));
  const glyphs = await tofuCount();
  const result = { errors: caught.slice(), charts: charts.length, drawn, zoom_linked: zoomLinked, linked_charts: linked, zooms, interactive_ms: interactiveMs, glyphs };
  document.body.append(h('pre', { id: 'credence-selftest' }, JSON.stringify(result)));
}

/** For the browser test: the page's distinct hanzi (300 at most) drawn on a canvas in the
 *  page's own font list, and how many of them came out as the box of a character no font has
 *  (U+10FFFD's pixels): none where the page's fonts, embedded or installed, cover its text. */
async function tofuCount() {
  const font = `24px ${getComputedStyle(document.body).fontFamily}`;
  const hanzi = [...new Set([...document.body.innerText].filter((c) => /\p{Script=Han}/u.test(c)))].slice(0, 300);
  await document.fonts.load(font, hanzi.join(''));
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const pixels = (c) => {
    ctx.clearRect(0, 0, 32, 32);
    ctx.font = font;
    ctx.fillText(c, 2, 26);
    return ctx.getImageData(0, 0, 32, 32).data.join(',');
  };
  const tofu = pixels('\u{10FFFD}');
  return { hanzi: hanzi.length, tofu: hanzi.filter((c) => pixels(c) === tofu).length };
}

/** A mouse drag across `el` from one share of its width to another, at mid height. */
function dragAcross(el, from, to) {
  const r = el.getBoundingClientRect();
  const at = (share) => ({ clientX: r.left + r.width * share, clientY: r.top + r.height / 2, bubbles: true, view: window });
  // Entering the plot is what makes uPlot read its position again (the page grew around it).
  el.dispatchEvent(new MouseEvent('mouseenter', at(from)));
  el.dispatchEvent(new MouseEvent('mousedown', { ...at(from), button: 0, buttons: 1 }));
  // uPlot ignores a move without movement while dragging (browsers send spurious ones).
  const step = r.width * (to - from) / 2;
  el.dispatchEvent(new MouseEvent('mousemove', { ...at((from + to) / 2), buttons: 1, movementX: step }));
  el.dispatchEvent(new MouseEvent('mousemove', { ...at(to), buttons: 1, movementX: step }));
  el.dispatchEvent(new MouseEvent('mouseup', { ...at(to), button: 0, buttons: 0 }));
}

// ---------------------------------------------------------------- entry point

let DATA = null;

/** Builds the page: the sections in the PDF's order, then the charts. */
function main() {
  DATA = JSON.parse(document.getElementById('credence-data').textContent);
  const v = DATA.view || {};
  WORDS = { ...(v.words || {}), ...(DATA.words || {}) };
  LANG = v.lang === 'zh' ? 'zh' : 'en';
  if (DATA.kind === 'history') {
    buildHistory(v, DATA.history);
  } else {
    const r = DATA.report || {};
    header(v);
    if (v.comparison) comparisonLead(v);
    else if (v.sweep) sweepLead(v, r);
    else if (v.capacity) capacityLead(v);
    else runLead(v);
    if (v.telemetry) telemetrySection(v.telemetry, r.telemetry);
    if (v.audit) auditSection(v.audit);
    if (v.metric_tables && v.metric_tables.length) metricsSection(v);
    (v.conditions || []).forEach(conditionsSection);
    runCharts(v, r);
    if (v.metric_tables && v.metric_tables.length) findingsSection(v);
    if (v.comparison) comparisonDetails(v.comparison, r.comparison);
    if (v.verdict_first) section('checks', w('tpl.h_checks'), v.check_sets.map(checkSet));
    appendix(v);
  }
  contents();
  redrawCharts();
  watchSize();
  watchTheme();
  const interactiveMs = performance.now();
  if (location.hash === '#selftest') selftest(interactiveMs);
  // A link to a section (`report.html#timelines`) arrived before the section existed.
  else if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

try {
  main();
} catch (e) {
  caught.push(`error: ${e && e.stack ? e.stack : e}`);
  if (location.hash === '#selftest') document.body.append(h('pre', { id: 'credence-selftest' }, JSON.stringify({ errors: caught, charts: 0, drawn: 0, zoom_linked: false, interactive_ms: performance.now() })));
  throw e;
}
