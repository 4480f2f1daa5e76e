"""A straightforward numpy/scipy version of credence analyze's core statistics, for a speed
ratio. Reads requests.parquet, computes TTFT/TPOT/E2E/service per request, type-7 percentiles
with scipy's order-statistic intervals (quantile_test), BCa intervals of the means (9999
resamples), and a stationary-bootstrap interval of throughput (arch, 9999 resamples).
No steady-state detection, no dependence handling: it does strictly less than credence.

Usage: python3 benches/numpy_baseline.py RUN_DIR
"""
import sys
import time

import numpy as np
import pyarrow.parquet as pq
from scipy import stats

t0 = time.time()
t = pq.read_table(sys.argv[1] + "/requests.parquet", columns=[
    "scheduled_ns", "sent_ns", "first_token_ns", "end_ns", "output_tokens", "status"]).to_pandas()
ok = (t.status == "ok").to_numpy()
ns = lambda c: t[c].astype("int64").to_numpy()
sent, first, end, sched = ns("sent_ns"), ns("first_token_ns"), ns("end_ns"), ns("scheduled_ns")
out = t.output_tokens.to_numpy(dtype=float)
metrics = {
    "ttft": (first - sent)[ok] / 1e6,
    "e2e": (end - sent)[ok] / 1e6,
    "service": (end - sched)[ok] / 1e6,
    "tpot": ((end - first) / 1e6 / np.maximum(out - 1, 1))[ok & (out > 1)],
}
rng = np.random.default_rng(0)
for name, x in metrics.items():
    for p in (0.5, 0.9, 0.99, 0.999):
        q = np.percentile(x, 100 * p)
        ci = stats.quantile_test(x, q=q, p=p).confidence_interval(0.95)
    res = stats.bootstrap((x,), np.mean, n_resamples=9999, method="BCa", batch=20, random_state=rng)
    print(name, np.percentile(x, 50), res.confidence_interval)
from arch.bootstrap import StationaryBootstrap, optimal_block_length
counts = np.bincount(((end[ok] - sent.min()) // 1_000_000_000).astype(int)).astype(float)
b = optimal_block_length(counts)["stationary"].iloc[0]
sb = StationaryBootstrap(b, counts, seed=1)
print("throughput", counts.mean(), sb.conf_int(np.mean, reps=9999, method="percentile").ravel())
print(f"elapsed {time.time() - t0:.2f} s")
