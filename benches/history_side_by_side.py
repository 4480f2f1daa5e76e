#!/usr/bin/env python3
"""Side by side: credence history, Apache Otava and MongoDB's signal-processing-algorithms
(E-divisive) on the same per-run estimates (issue 42). Driven by history_side_by_side.sh.

  history_side_by_side.py detect otava DIR   # Otava's change points of each series, JSON on stdout
  history_side_by_side.py detect spa DIR     # signal-processing-algorithms' change points
  history_side_by_side.py table DIR OTAVA_JSON SPA_JSON

DIR holds credence's history JSON of each series (`<scenario>-<NNN>.json`, written by the
ignored test `export_simulated_series` of tests/it/history_study.rs); each run's P50 TTFT estimate
(`runs[].values.ttft_p50.estimate`) is the series all three tools search, and credence's change
points are that JSON's `change_points[].index`. Each tool runs with its defaults:
  - Otava 0.8 `otava.analysis.compute_change_points` (window 50, max p-value 0.001: the CLI's
    defaults; its E-divisive searches both ends of the right sample, then a t-test);
  - signal-processing-algorithms `e_divisive` (p-value 0.05, 100 permutations; numpy seeded 0).
"""
import json
import os
import sys

METRIC = "ttft_p50"
# The true change points of each scenario (the first run after the change) and its words.
TRUTH = {
    "none": ([], "no change"),
    "step10": ([20], "+10 % at run 20"),
    "step5": ([20], "+5 % at run 20"),
    "fix8": ([10, 20], "+8 % from run 10 to 19"),
    "drift10": ([], "0 -> +10 % drift"),
}


def series_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".json"))


def values(h):
    return [r["values"][METRIC]["estimate"] for r in h["runs"] if METRIC in r["values"]]


def detect(tool, d):
    if tool == "otava":
        from otava.analysis import compute_change_points

        def find(x):
            cps, _weak = compute_change_points(x, window_len=50, max_pvalue=0.001, min_magnitude=0.0)
            return sorted(int(c.index) for c in cps)
    else:
        import numpy as np
        from signal_processing_algorithms.energy_statistics.energy_statistics import e_divisive

        def find(x):
            np.random.seed(0)
            return sorted(int(i) for i in e_divisive(x, pvalue=0.05, permutations=100))
    out = {}
    for f in series_files(d):
        with open(os.path.join(d, f)) as fh:
            out[f] = find(values(json.load(fh)))
    json.dump(out, sys.stdout)


def near(i, cps):
    return any(abs(i - c) <= 1 for c in cps)


def table(d, otava_path, spa_path):
    tools = {"otava": json.load(open(otava_path)), "spa": json.load(open(spa_path))}
    rows, misses = {}, []
    for f in series_files(d):
        scenario = f.rsplit("-", 1)[0]
        truth, _ = TRUTH[scenario]
        with open(os.path.join(d, f)) as fh:
            h = json.load(fh)
        found = {"credence": sorted(c["index"] for c in h["change_points"] if c["metric"] == METRIC)}
        found.update({t: tools[t][f] for t in tools})
        drift = next((x for x in h["drift"] if x["metric"] == METRIC), {})
        r = rows.setdefault(scenario, {"series": 0, "low": 0, "runs": 0, "credence_drift": 0})
        r["series"] += 1
        r["runs"] += len(h["runs"])
        r["low"] += sum(1 for x in h["runs"] if x["grade"] == "LOW")
        r["credence_drift"] += drift.get("verdict") == "drift"
        for t, cps in found.items():
            c = r.setdefault(t, {"all_true": 0, "false": 0, "any": 0})
            c["all_true"] += bool(truth) and all(near(i, cps) for i in truth)
            c["false"] += sum(1 for i in cps if not near(i, truth))
            c["any"] += bool(cps)
        for t in tools:
            for i in found[t]:
                if not near(i, found["credence"]):
                    why = "credence reports this series as drift" if drift.get("verdict") == "drift" and not found["credence"] else ""
                    misses.append((scenario, f, t, i, near(i, truth), found["credence"], found[t], why))
    print("| scenario | series | LOW runs | tool | all true changes found (±1) | series with any change point | change points away from a true change | drift reported (credence) |")
    print("|---|---|---|---|---|---|---|---|")
    for scenario, (truth, words) in TRUTH.items():
        r = rows.get(scenario)
        if not r:
            continue
        for t in ["credence", "otava", "spa"]:
            c = r[t]
            found_true = f'{c["all_true"]}/{r["series"]}' if truth else "n/a"
            drift = f'{r["credence_drift"]}/{r["series"]}' if t == "credence" else ""
            print(f'| {words} | {r["series"]} | {r["low"]}/{r["runs"]} | {t} | {found_true} | {c["any"]}/{r["series"]} | {c["false"]} | {drift} |')
    print()
    print(f"Change points Otava or signal-processing-algorithms find that credence does not find within ±1 run: {len(misses)}")
    at_true = [m for m in misses if m[4]]
    drift_false = [m for m in misses if not m[4] and m[7]]
    other_false = [m for m in misses if not m[4] and not m[7]]
    print(f"- at a true change: {len(at_true)}")
    for scenario, f, t, i, true, cred, theirs, why in at_true:
        print(f"    {f}: {t} finds {i}; {t}: {theirs}; credence: {cred}{'; ' + why if why else ''}")
    print(f"- not at a true change, in a series credence reports as drift: {len(drift_false)}")
    print(f"- not at a true change, elsewhere (false alarms credence does not raise): {len(other_false)}")
    for scenario, f, t, i, true, cred, theirs, why in other_false:
        print(f"    {f}: {t} finds {i}; {t}: {theirs}; credence: {cred}")


if __name__ == "__main__":
    if sys.argv[1] == "detect":
        detect(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "table":
        table(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
