#!/usr/bin/env python3
"""The table of bench/peers.sh: every tool at every point, the ratios and the goals of issue 45.

  peers_report.py RESULTS.jsonl --started T --commit C --cores N --load-before L --load-after L --versions V
                  [--scale S] [--json OUT.json]          prints the markdown
  peers_report.py --insert TABLE.md bench/RESULTS.md     puts it at the top of RESULTS.md (between markers,
                                                         replacing the previous table)

Each line of RESULTS.jsonl names a tool, a point and the directory of its run (DIR.proc.json from proctree.py,
DIR.log, the tool's own exports in DIR/, DIR.stamps with the cadence server's stamps). Figures:
  req/s        the tool's own figure (wrk: Requests/sec)
  CPU/1k       CPU-seconds of the tool's whole process tree per 1,000 completed requests, the whole run; "from 1st"
               leaves out what the tree spent before the server saw its first request (start-up, tokenizer,
               data), where the server stamps it (cadence, mock)
  timing error the tool's TTFT (or per-request ITL) percentile minus the same percentile of the server's own: TTFT
               is the server's first send minus its arrival stamp of the request, ITL (last send - first send) /
               (sends - 1) per request, the definition AIPerf, GuideLLM and inference-perf (TPOT) all report
  first req    command to the server's stamp of the first request (any POST: a peer's probe of the endpoint
               counts); report: command to the tool's exit
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

PY_PEERS = ("upstream", "guidellm", "inference-perf")
NAMES = {"aiperf-java": "aiperf-java", "upstream": "AIPerf 0.13.0", "guidellm": "GuideLLM 0.8.1",
         "inference-perf": "inference-perf 0.7.0", "wrk": "wrk"}
START, END = "<!-- peers-table:start -->", "<!-- peers-table:end -->"


def pct(values, p):
    v = sorted(values)
    if not v:
        return None
    k = (len(v) - 1) * p / 100.0
    f = int(k)
    c = min(f + 1, len(v) - 1)
    return v[f] + (v[c] - v[f]) * (k - f)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def server_truth(stamps_path):
    """Per request: TTFT (first send - arrival) and ITL ((last - first) / (n - 1)), ms, from the server's stamps."""
    reqs = {}
    try:
        with open(stamps_path) as f:
            for line in f:
                rid, i, t = line.split()
                reqs.setdefault(rid, {})[int(i)] = int(t)
    except OSError:
        return None
    ttft, itl = [], []
    for s in reqs.values():
        if -1 in s and 0 in s:
            ttft.append((s[0] - s[-1]) / 1e6)
        sends = sorted(i for i in s if i >= 0)
        if len(sends) > 1:
            itl.append((s[sends[-1]] - s[sends[0]]) / 1e6 / (len(sends) - 1))
    return {"ttft": ttft, "itl": itl}


def aiperf_like(d):
    s = load(os.path.join(d, "profile_export_aiperf.json"))
    if not s:
        return None
    g = lambda k, f="avg": (s.get(k) or {}).get(f)
    ok = g("request_count") or 0
    err = g("error_request_count") or 0
    return {"rps": g("request_throughput"), "ok": ok, "failed": err,
            "ttft": (g("time_to_first_token", "p50"), g("time_to_first_token", "p99")),
            "itl": (g("inter_token_latency", "p50"), g("inter_token_latency", "p99")),
            "out_tokens": g("total_osl") or g("output_token_count", "sum")}


def guidellm(d):
    s = load(os.path.join(d, "benchmarks.json"))
    if not s or not s.get("benchmarks"):
        return None
    b = s["benchmarks"][0]
    m = b["metrics"]
    tot = m["request_totals"]
    st = b.get("scheduler_state", {})
    dur = (st.get("end_requests_time") or 0) - (st.get("start_requests_time") or 0)
    q = lambda k: (m[k]["successful"]["percentiles"].get("p50"), m[k]["successful"]["percentiles"].get("p99")) \
        if m.get(k, {}).get("successful", {}).get("count") else (None, None)
    ok = tot.get("successful", 0)
    return {"rps": ok / dur if dur > 0 else m["requests_per_second"]["successful"].get("mean"), "ok": ok,
            "failed": tot.get("errored", 0) + tot.get("incomplete", 0),
            "ttft": q("time_to_first_token_ms"), "itl": q("inter_token_latency_ms"),
            "out_tokens": m["output_token_count"]["successful"].get("total_sum")}


def inference_perf(d):
    s = load(os.path.join(d, "summary_lifecycle_metrics.json"))
    if not s:
        return None
    ok = s.get("successes", {}).get("count", 0)
    failed = (s.get("failures") or {}).get("count", 0)
    lat = s.get("successes", {}).get("latency", {})
    ms = lambda k: (lat[k]["median"] * 1e3, lat[k]["p99"] * 1e3) if lat.get(k) else (None, None)
    thr = s.get("successes", {}).get("throughput", {})
    out = s.get("successes", {}).get("output_tokens") or s.get("successes", {}).get("output_len") or {}
    return {"rps": thr.get("requests_per_sec"), "ok": ok, "failed": failed, "ttft": ms("time_to_first_token"),
            "itl": ms("time_per_output_token"), "out_tokens": out.get("total") if isinstance(out, dict) else None}


def wrk(log):
    try:
        text = open(log).read()
    except OSError:
        return None
    m = re.search(r"(\d+) requests in", text)
    r = re.search(r"Requests/sec:\s+([\d.]+)", text)
    if not m or not r:
        return None
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    # wrk counts a connection the server closes as a read error, also after a whole answer (llama-server closes
    # every streamed answer's connection): those are not failed requests, and are reported apart
    failed = (int(bad.group(1)) if bad else 0) + (sum(int(sock.group(i)) for i in (1, 3, 4)) if sock else 0)
    return {"rps": float(r.group(1)), "ok": int(m.group(1)) - failed, "failed": failed, "ttft": (None, None),
            "itl": (None, None), "out_tokens": None, "closes": int(sock.group(2)) if sock else 0}


def steady_cpu_per_1k(d, timeline):
    """The engine's CPU per 1,000 requests over the second half of its run (after most of the JIT's work): the
    tree's CPU between the midpoint and the last answer, over the requests that ended in between."""
    try:
        starts, ends = [], []
        with open(os.path.join(d, "profile_export.jsonl")) as fh:
            for line in fh:
                md = json.loads(line)["metadata"]
                starts.append(md["request_start_ns"])
                ends.append(md.get("request_end_ns") or md["request_start_ns"])
    except (OSError, ValueError, KeyError):
        return None
    if len(ends) < 20 or not timeline:
        return None
    t0, t1 = min(starts), max(ends)
    mid = (t0 + t1) // 2
    n = sum(1 for e in ends if mid < e <= t1)
    cpu = cpu_at(timeline, t1 + 100_000_000) - cpu_at(timeline, mid)
    return 1000.0 * cpu / n if n and t1 - mid > 1_000_000_000 else None


def cpu_at(timeline, t_ns):
    """The tree's CPU at a moment, from the sampled timeline (the last sample at or before it)."""
    best = 0.0
    for t, c in timeline or []:
        if t <= t_ns:
            best = c
        else:
            break
    return best


def fidelity(stamps, jsonl, wave):
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        outp = subprocess.run([sys.executable, os.path.join(here, "fidelity.py"), "--server", stamps, "--engine-jsonl",
                               jsonl, "--wave", str(wave)], capture_output=True, text=True, timeout=300)
        return json.loads(outp.stdout)
    except Exception:
        return None


def collect(results):
    rows = []
    for line in open(results):
        r = json.loads(line)
        if "skipped" in r:
            rows.append(r)
            continue
        d, t = r["dir"], r["tool"]
        proc = load(d + ".proc.json") or {}
        if t in ("aiperf-java", "upstream"):
            m = aiperf_like(d)
        elif t == "guidellm":
            m = guidellm(d)
        elif t == "inference-perf":
            m = inference_perf(d)
        else:
            m = wrk(d + ".log")
        if not m:
            tail = ""
            try:
                tail = " | ".join(l.strip() for l in open(d + ".log").read().strip().splitlines()[-2:])[:300]
            except OSError:
                pass
            r["skipped"] = "the run produced no results (exit %s): %s" % (proc.get("rc"), tail)
            rows.append(r)
            continue
        r.update(m)
        r["cpu_s"] = proc.get("cpu_s")
        r["rss_mb"] = proc.get("peak_rss_mb")
        r["wall_s"] = proc.get("wall_s")
        start = proc.get("start_ns")
        if r.get("first_request_ns") and start:
            r["first_s"] = (r["first_request_ns"] - start) / 1e9
            r["cpu_after_first_s"] = r["cpu_s"] - cpu_at(proc.get("timeline"), r["first_request_ns"])
        if t == "aiperf-java":
            r["cpu_per_1k_steady"] = steady_cpu_per_1k(d, proc.get("timeline"))
        if r["ok"]:
            r["cpu_per_1k"] = 1000.0 * r["cpu_s"] / r["ok"] if r.get("cpu_s") is not None else None
            if r.get("cpu_after_first_s") is not None:
                r["cpu_per_1k_after"] = 1000.0 * r["cpu_after_first_s"] / r["ok"]
        total = r["ok"] + r["failed"]
        r["failed_pct"] = 100.0 * r["failed"] / total if total else None
        if os.path.exists(d + ".stamps") and t != "wrk":
            truth = server_truth(d + ".stamps")
            if truth and truth["ttft"]:
                r["truth_ttft"] = (pct(truth["ttft"], 50), pct(truth["ttft"], 99))
                r["truth_itl"] = (pct(truth["itl"], 50), pct(truth["itl"], 99))
                if r["ttft"][0] is not None:
                    r["ttft_err"] = (r["ttft"][0] - r["truth_ttft"][0], r["ttft"][1] - r["truth_ttft"][1])
                if r["itl"][0] is not None:
                    r["itl_err"] = (r["itl"][0] - r["truth_itl"][0], r["itl"][1] - r["truth_itl"][1])
            if t == "aiperf-java" and os.path.exists(os.path.join(d, "profile_export.jsonl")):
                f = fidelity(d + ".stamps", os.path.join(d, "profile_export.jsonl"), r["conc"] or 1)
                if f:
                    r["fidelity"] = f
        rows.append(r)
    return rows


def f(v, fmt="%.1f", none="-"):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return none
    return fmt % v


def pair(v, fmt="%+.2f"):
    if not v or v[0] is None:
        return "-"
    return "%s / %s" % (fmt % v[0], fmt % v[1])


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def render(rows, a):
    points = []
    for r in rows:
        if r["point"] not in points:
            points.append(r["point"])
    by = {(r["point"], r["tool"]): r for r in rows}
    out = []
    out.append("## Against the peers: the latest run of `bench/peers.sh`")
    out.append("")
    out.append("%s, commit %s, %s cores, load average %s before and %s after (1, 5, 15 min; the machine is shared, "
               "so only the ratios inside this one run count). %s. Requests per point x%s." % (
                   a.started, a.commit, a.cores, a.load_before, a.load_after, a.versions, a.scale))
    out.append("")
    out.append("Points: **cadence** = the timing server (50 ms to the first token, then 20 ms; 20 tokens; stamps its "
               "own sends), streaming; **mock** = the engine's mock (`--fast`, no latency), non-streaming, 16 tokens; "
               "**llama** = llama-server, tiny 64x2 model, streaming, 16 tokens. c = concurrency, rate = each tool's "
               "open loop (requests/s). inference-perf sends `/v1/completions` (its random data has no chat form); "
               "the others `/v1/chat/completions`. wrk's closes: connections the server closed after an answer "
               "(llama-server closes each streamed answer's), which wrk counts as read errors; not failures.")
    out.append("")
    out.append("| point | tool | req/s | CPU-s / 1k req (from 1st req) | peak RSS MB | TTFT err p50 / p99 ms | "
               "ITL err p50 / p99 ms | failed | first req s | report s | requests / out tokens |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for p in points:
        for t in NAMES:
            r = by.get((p, t))
            if not r:
                continue
            if "skipped" in r:
                out.append("| %s | %s | cannot: %s |  |  |  |  |  |  |  |  |" % (p, NAMES[t], r["skipped"].replace("|", "/")))
                continue
            cpu = f(r.get("cpu_per_1k"), "%.2f")
            if r.get("cpu_per_1k_after") is not None:
                cpu += " (%.2f)" % r["cpu_per_1k_after"]
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |" % (
                p, NAMES[t], f(r.get("rps")), cpu, f(r.get("rss_mb"), "%.0f"), pair(r.get("ttft_err")),
                pair(r.get("itl_err")), f(r.get("failed_pct"), "%.1f%%"), f(r.get("first_s"), "%.2f"),
                f(r.get("wall_s"), "%.1f"), f(r.get("ok"), "%d"), f(r.get("out_tokens"), "%.0f")
                + (" (%d closes)" % r["closes"] if r.get("closes") else "")))
    out.append("")
    # --- ratios and goals
    out.append("Ratios (x = the other tool's figure divided by ours, so above 1 is ours ahead; wrk: ours divided by "
               "wrk's, ours over the second half of its run, after most of the JIT's work, where the run is long "
               "enough, else from the first request; tokens are not compared on llama, whose random text each "
               "client tokenizes again):")
    out.append("")
    out.append("| point | CPU/req vs AIPerf, whole run (from 1st req) (goal >= 5x) | vs best Python peer | vs wrk (goal <= 1.5x) | "
               "TTFT p99 error: ours / AIPerf / best peer | requests, tokens = AIPerf |")
    out.append("|---|---|---|---|---|---|")
    goals = {"cpu5": [], "err_up": [], "counts": [], "cpu_best": [], "err_best": [], "wrk": []}
    for p in points:
        ours = by.get((p, "aiperf-java"))
        if not ours or "skipped" in ours:
            continue
        up = by.get((p, "upstream"))
        up = up if up and "skipped" not in up else None
        peers = [by.get((p, t)) for t in PY_PEERS]
        peers = [x for x in peers if x and "skipped" not in x and x.get("cpu_per_1k")]
        best_cpu = min(peers, key=lambda x: x["cpu_per_1k"]) if peers else None
        errp = [x for x in peers if x.get("ttft_err")]
        best_err = min(errp, key=lambda x: abs(x["ttft_err"][1])) if errp else None
        c_up = ratio(up.get("cpu_per_1k"), ours.get("cpu_per_1k")) if up else None
        c_up_after = ratio(up.get("cpu_per_1k_after"), ours.get("cpu_per_1k_after")) if up else None
        c_best = ratio(best_cpu["cpu_per_1k"], ours.get("cpu_per_1k")) if best_cpu else None
        w = by.get((p, "wrk"))
        c_wrk = None
        if w and "skipped" not in w and w.get("ok"):
            ours_cpu = ours.get("cpu_per_1k_steady") or ours.get("cpu_per_1k_after") or ours.get("cpu_per_1k")
            c_wrk = ratio(ours_cpu, w.get("cpu_per_1k"))
        e_ours = abs(ours["ttft_err"][1]) if ours.get("ttft_err") else None
        e_up = abs(up["ttft_err"][1]) if up and up.get("ttft_err") else None
        e_best = abs(best_err["ttft_err"][1]) if best_err else None
        counts = None
        if up:
            # llama's answers are random text, tokenized again by the client: only the requests are compared there
            counts = ours.get("ok") == up.get("ok") and (
                p.startswith("llama") or ours.get("out_tokens") is None or up.get("out_tokens") is None
                or abs(ours["out_tokens"] - up["out_tokens"]) <= 0.005 * max(1, up["out_tokens"]))
        if c_up is not None:
            goals["cpu5"].append((p, c_up, c_up >= 5))
        if c_best is not None:
            goals["cpu_best"].append((p, c_best, c_best > 1))
        if c_wrk is not None:
            goals["wrk"].append((p, c_wrk, c_wrk <= 1.5))
        if e_ours is not None and e_up is not None:
            goals["err_up"].append((p, e_up / e_ours if e_ours else float("inf"), e_ours < e_up))
        if e_ours is not None and e_best is not None:
            goals["err_best"].append((p, e_best / e_ours if e_ours else float("inf"), e_ours < e_best))
        if counts is not None:
            goals["counts"].append((p, None, counts))
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            p, f(c_up, "%.2fx") + ("" if c_up_after is None else " (%.2fx)" % c_up_after), (f(c_best, "%.2fx") + " (%s)" % NAMES[best_cpu["tool"]]) if best_cpu else "-",
            f(c_wrk, "%.2fx"),
            "%s / %s / %s" % (f(e_ours, "%.2f"), f(e_up, "%.2f"),
                              (f(e_best, "%.2f") + " (%s)" % NAMES[best_err["tool"]]) if best_err else "-"),
            "-" if counts is None else ("yes" if counts else "no: %s/%s requests, %s/%s tokens" % (
                ours.get("ok"), up.get("ok"), f(ours.get("out_tokens"), "%.0f"), f(up.get("out_tokens"), "%.0f")))))
    out.append("")
    # cold start and first request
    c1 = by.get(("cadence-c64", "aiperf-java")) or by.get(("cadence-c1", "aiperf-java"))
    bias = c1.get("fidelity", {}).get("cold_start_bias_ms") if c1 and "skipped" not in c1 else None
    firsts = [r.get("first_s") for r in rows if r.get("tool") == "aiperf-java" and r.get("first_s") is not None]
    out.append("Goals of issue 45, item 3, in this run:")
    out.append("")

    def verdict(name, items, fmt):
        if not items:
            return "- %s: not measured in this run" % name
        met = all(x[2] for x in items)
        detail = ", ".join("%s %s%s" % (p, fmt % v if v is not None else "yes" if ok else "no", "" if ok else " (not met)")
                           for p, v, ok in items)
        return "- %s: **%s** (%s)" % (name, "met" if met else "not met", detail)
    out.append(verdict("5x fewer CPU-seconds per request than upstream AIPerf at every point", goals["cpu5"], "%.2fx"))
    out.append(verdict("lower p99 TTFT error than upstream AIPerf at every timed point", goals["err_up"], "%.1fx"))
    out.append(verdict("equal request and token counts with upstream AIPerf", goals["counts"], "%s"))
    out.append(verdict("ahead of the best Python peer on CPU per request", goals["cpu_best"], "%.2fx"))
    out.append(verdict("ahead of the best Python peer on p99 TTFT error", goals["err_best"], "%.1fx"))
    out.append(verdict("client CPU per request within 1.5x of wrk's", goals["wrk"], "%.2fx"))
    if bias is not None:
        out.append("- cold-start bias under 1 ms: **%s** (%.3f ms: median client delay of the first wave minus the "
                   "rest, against the server's send stamps, cadence-c64, no warmup)" % ("met" if abs(bias) < 1 else "not met", bias))
    else:
        out.append("- cold-start bias under 1 ms: not measured in this run")
    if firsts:
        out.append("- first request within 0.5 s of the command: **%s** (%s s, `bin/aiperf` with its class-data "
                   "archive, at each point the server stamps)" % ("met" if max(firsts) <= 0.5 else "not met",
                                                                 ", ".join("%.2f" % x for x in firsts)))
    return "\n".join(out) + "\n", goals


def insert(table_path, results_md):
    table = open(table_path).read().rstrip("\n")
    text = open(results_md).read()
    block = "%s\n%s\n%s\n" % (START, table, END)
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        text = head + block + "\n" + tail.lstrip("\n")
    else:
        first = text.find("\n## ")
        text = (text[:first + 1] + block + "\n" + text[first + 1:]) if first >= 0 else text + "\n" + block
    with open(results_md, "w") as fh:
        fh.write(text)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--insert":
        insert(sys.argv[2], sys.argv[3])
        return
    p = argparse.ArgumentParser()
    p.add_argument("results")
    p.add_argument("--started", default="?")
    p.add_argument("--commit", default="?")
    p.add_argument("--cores", default="?")
    p.add_argument("--load-before", default="?")
    p.add_argument("--load-after", default="?")
    p.add_argument("--versions", default="")
    p.add_argument("--scale", default="1")
    p.add_argument("--json")
    a = p.parse_args()
    rows = collect(a.results)
    text, goals = render(rows, a)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rows": rows, "goals": goals}, fh, indent=1, default=str)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
