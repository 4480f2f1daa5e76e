"""Helper of benches/side_by_side.sh (run with a Python that has numpy and pyarrow).

  side_by_side.py watch --metrics URL --server-pid PID --limit S --samples OUT.json [--log F] -- CMD...
      Runs CMD in a session of its own, and every 0.2 s reads the CPU time (user + system) of
      every process in that session (children that exited and were reaped are in their
      parent's cutime/cstime) and the mock-server's `mock_requests_total`. When CMD exits, its
      whole-tree CPU comes from wait4 (as GNU time reports it). A CMD still running after S
      seconds gets SIGINT, then SIGTERM 20 s later, then SIGKILL 10 s after that.

  side_by_side.py row TOOL RATE RUN_DIR SAMPLES.json SCRIPTED_TTFT_MS
      Prints one JSON row: offered and achieved rate, client CPU, TTFT error, from the tool's
      own per-request output.

  side_by_side.py table ROWS.jsonl OUT.md HEADER.md
      Prints the table and writes it as Markdown (after the text of HEADER.md).
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import numpy as np

TICK = os.sysconf("SC_CLK_TCK")


def session_cpu(sid):
    """User + system seconds of all live processes of session `sid`, with reaped children."""
    total = 0
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/stat") as f:
                s = f.read()
        except OSError:
            continue
        fields = s[s.rindex(")") + 2:].split()
        # fields[0] is state (field 3); session is field 6, utime..cstime are fields 14..17.
        if int(fields[3]) != sid:
            continue
        total += sum(int(x) for x in fields[11:15])
    return total / TICK


def machine_busy():
    """Busy CPU seconds of the whole machine (all cores), from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal: all but idle and iowait.
    return (sum(v[:8]) - v[3] - v[4]) / TICK


def pid_cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
        return sum(int(x) for x in s[s.rindex(")") + 2:].split()[11:13]) / TICK
    except (OSError, ValueError):
        return None


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def served(url):
    try:
        with urllib.request.urlopen(url, timeout=1) as r:
            for line in r.read().decode().splitlines():
                if line.startswith("mock_requests_total "):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def watch(argv):
    i = argv.index("--")
    opts = dict(zip(argv[:i:2], argv[1:i:2]))
    cmd = argv[i + 1:]
    url, limit, out = opts["--metrics"], float(opts["--limit"]), opts["--samples"]
    log = open(opts.get("--log", os.devnull), "w")
    server = int(opts["--server-pid"])
    load_before = loadavg()
    t0 = time.time()
    child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    samples, killed = [], None
    stops = [(limit, signal.SIGINT, "SIGINT"), (limit + 20, signal.SIGTERM, "SIGTERM"), (limit + 30, signal.SIGKILL, "SIGKILL")]
    rusage = None
    while True:
        pid, status, ru = os.wait4(child.pid, os.WNOHANG)
        if pid:
            rusage = ru
            break
        samples.append((time.time() - t0, session_cpu(child.pid), served(url), machine_busy(), pid_cpu(server)))
        if stops and time.time() - t0 > stops[0][0]:
            _, sig, killed = stops.pop(0)
            try:
                os.killpg(child.pid, sig)
            except ProcessLookupError:
                pass
        time.sleep(0.2)
    wall = time.time() - t0
    # Helpers left behind in the session (none expected) would hold the port or the CPU.
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    json.dump({
        "command": cmd, "exit": os.waitstatus_to_exitcode(status), "killed_with": killed, "wall_s": wall,
        "cpu_s": rusage.ru_utime + rusage.ru_stime, "user_s": rusage.ru_utime, "sys_s": rusage.ru_stime,
        "served_after": served(url), "samples": samples, "load_before": load_before, "load_after": loadavg(),
    }, open(out, "w"))


def load_window(w):
    """The samples from the first one that saw the server's counter move to the first one at
    its final value: the part of the run when requests were being served, without start-up
    and teardown. CPU per request and cores use this window."""
    s = [x for x in w["samples"] if x[2] is not None]
    if len(s) < 3:
        return None
    base = s[0][2]
    final = max(x[2] for x in s)
    moving = [k for k, x in enumerate(s) if x[2] > base]
    if not moving:
        return None
    a = max(moving[0] - 1, 0)
    b = next(k for k, x in enumerate(s) if x[2] == final)
    (ta, ca, na, ma, sa), (tb, cb, nb, mb, sb) = s[a], s[b]
    if tb <= ta or nb <= na:
        return None
    server = sb - sa if sa is not None and sb is not None else None
    # What the rest of the machine (other sessions, this harness) used meanwhile, in cores.
    others = (mb - ma - (cb - ca) - (server or 0)) / (tb - ta)
    return {"seconds": tb - ta, "cpu_s": cb - ca, "served": nb - na, "server_cores": server and server / (tb - ta),
            "others_cores": others}


def pct(x, q):
    return float(np.percentile(x, q)) if len(x) else None


def read_credence(d):
    import pyarrow.parquet as pq
    t = pq.read_table(os.path.join(d, "requests.parquet"), columns=["scheduled_ns", "sent_ns", "first_token_ns", "status"])
    # Timestamp columns: read as integer nanoseconds.
    sent = t.column("sent_ns").cast("int64").to_pylist()
    first = t.column("first_token_ns").cast("int64").to_pylist()
    sched = t.column("scheduled_ns").cast("int64").to_pylist()
    status = t.column("status").to_pylist()
    sends = np.array([s for s in sent if s is not None], dtype=np.float64) / 1e9
    ok = [i for i, st in enumerate(status) if st == "ok"]
    ttft = np.array([(first[i] - sent[i]) / 1e6 for i in ok if first[i] is not None and sent[i] is not None])
    lag = np.array([(a - b) / 1e6 for a, b in zip(sent, sched) if a is not None and b is not None])
    return sends, len(ok), len(status) - len(ok), ttft, lag


def read_aiperf(d):
    sends, ttft, lag, ok, bad = [], [], [], 0, 0
    path = os.path.join(d, "profile_export.jsonl")
    if not os.path.exists(path):
        return np.array([]), 0, 0, np.array([]), np.array([])
    for line in open(path):
        r = json.loads(line)
        md = r.get("metadata", {})
        if md.get("benchmark_phase", "profiling") != "profiling":
            continue
        if md.get("request_start_ns"):
            sends.append(md["request_start_ns"] / 1e9)
            # The timing manager issues a credit at the request's scheduled time; a worker
            # that is behind sends it later.
            if md.get("credit_issued_ns"):
                lag.append((md["request_start_ns"] - md["credit_issued_ns"]) / 1e6)
        if r.get("error"):
            bad += 1
            continue
        ok += 1
        t = r.get("metrics", {}).get("time_to_first_token")
        if t:
            ttft.append(t["value"] * {"ms": 1, "ns": 1e-6, "us": 1e-3, "s": 1e3}[t.get("unit", "ms")])
    return np.array(sends), ok, bad, np.array(ttft), np.array(lag)


def read_guidellm(d):
    path = os.path.join(d, "benchmarks.json")
    if not os.path.exists(path):
        return np.array([]), 0, 0, np.array([]), np.array([])
    b = json.load(open(path))["benchmarks"][0]["requests"]
    every = b["successful"] + b["errored"] + b["incomplete"]
    sends = np.array([r["request_start_time"] for r in every if r.get("request_start_time")])
    ttft = np.array([r["time_to_first_token_ms"] for r in b["successful"] if r.get("time_to_first_token_ms") is not None])
    # Constant profile: targeted_start is the scheduled epoch time (see fixtures/peers/README.md
    # for the Poisson start-up bug that makes it unusable there).
    lag = np.array([(r["info"]["timings"]["request_start"] - r["info"]["timings"]["targeted_start"]) * 1e3 for r in every
                    if r["info"]["timings"].get("request_start") and (r["info"]["timings"].get("targeted_start") or 0) > 1e9])
    return sends, len(b["successful"]), len(b["errored"]) + len(b["incomplete"]), ttft, lag


def row(argv):
    tool, rate, d, samples, scripted = argv[0], float(argv[1]), argv[2], argv[3], float(argv[4])
    w = json.load(open(samples))
    sends, ok, bad, ttft, lag = {"credence": read_credence, "aiperf": read_aiperf, "guidellm": read_guidellm}[tool](d)
    sends.sort()
    span = sends[-1] - sends[0] if len(sends) > 1 else 0
    win = load_window(w)
    err = ttft - scripted
    print(json.dumps({
        "tool": tool, "offered": rate,
        # Sends per second over the span of the tool's own send times.
        "achieved": (len(sends) - 1) / span if span > 0 else None,
        "sent": int(len(sends)), "ok": ok, "failed": bad,
        "exit": w["exit"], "killed_with": w["killed_with"], "wall_s": w["wall_s"],
        "cpu_total_s": w["cpu_s"],
        "window_s": win and win["seconds"], "window_cpu_s": win and win["cpu_s"], "window_served": win and win["served"],
        "cores": win and win["cpu_s"] / win["seconds"],
        "cpu_us_per_req": win and win["cpu_s"] / win["served"] * 1e6,
        "ttft_err_p50_ms": pct(err, 50), "ttft_err_p99_ms": pct(err, 99), "ttft_n": int(len(err)),
        # Send lag: actual send − scheduled send, as each tool records them.
        "lag_p50_ms": pct(lag, 50), "lag_p99_ms": pct(lag, 99),
        "server_cores": win and win["server_cores"], "others_cores": win and win["others_cores"],
        "load_before": w.get("load_before"), "load_after": w.get("load_after"),
    }))


def fmt(x, spec, none="–"):
    return none if x is None else format(x, spec)


def table(argv):
    rows = [json.loads(l) for l in open(argv[0]) if l.strip()]
    base = {r["offered"]: r for r in rows if r["tool"] == "credence"}
    head = ["tool", "offered/s", "achieved/s", "ok", "not ok", "CPU cores (load)", "CPU µs/req (load)",
            "CPU s (whole run)", "TTFT err P50 ms", "TTFT err P99 ms", "send lag P50 ms", "send lag P99 ms", "vs credence: rate", "CPU/req", "err P50", "err P99",
            "server cores", "other cores", "load avg (1 min)"]
    lines = []
    for r in rows:
        b = base.get(r["offered"])

        def ratio(k, r=r, b=b):
            if not b or r[k] is None or not b[k]:
                return "–"
            return f"{r[k] / b[k]:.2f}×" if abs(r[k] / b[k]) < 10 else f"{r[k] / b[k]:.0f}×"
        note = "" if r["exit"] == 0 and not r["killed_with"] else f" (exit {r['exit']}{', ' + r['killed_with'] if r['killed_with'] else ''})"
        lines.append([r["tool"] + note, fmt(r["offered"], ".0f"), fmt(r["achieved"], ".0f"), str(r["ok"]), str(r["failed"]),
                      fmt(r["cores"], ".2f"), fmt(r["cpu_us_per_req"], ".0f"), fmt(r["cpu_total_s"], ".1f"),
                      fmt(r["ttft_err_p50_ms"], ".2f"), fmt(r["ttft_err_p99_ms"], ".2f"),
                      fmt(r.get("lag_p50_ms"), ".2f"), fmt(r.get("lag_p99_ms"), ".2f"),
                      ratio("achieved"), ratio("cpu_us_per_req"), ratio("ttft_err_p50_ms"), ratio("ttft_err_p99_ms"),
                      fmt(r["server_cores"], ".2f"), fmt(r["others_cores"], ".2f"),
                      f"{r['load_before']:.1f} → {r['load_after']:.1f}"])
    widths = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for l in lines:
        print("  ".join(c.rjust(w) for c, w in zip(l, widths)))
    with open(argv[1], "w") as f:
        f.write(open(argv[2]).read())
        f.write("| " + " | ".join(head) + " |\n|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|\n")
        for l in lines:
            f.write("| " + " | ".join(l) + " |\n")


if __name__ == "__main__":
    {"watch": watch, "row": row, "table": table}[sys.argv[1]](sys.argv[2:])
