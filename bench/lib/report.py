#!/usr/bin/env python3
"""Renders bench/run.sh's results (JSON lines) as a section of bench/history/runs.md, and writes them whole as JSON.

Usage: report.py RESULTS_JSONL DATE COMMIT CORES LOAD_BEFORE LOAD_AFTER VERSIONS SECS JSON_OUT
"""
import json
import sys

path, date, commit, cores, before, after, versions, secs, json_out = sys.argv[1:10]
rows = [json.loads(line) for line in open(path) if line.strip()]
by = lambda section: [r for r in rows if r["section"] == section]
json.dump({"date": date, "commit": commit, "cores": int(cores), "load_before": before, "load_after": after,
           "versions": versions, "seconds_per_run": int(secs), "results": rows}, open(json_out, "w"), indent=1)


def f(v, digits=1):
    return "-" if v is None else (f"{v:,.{digits}f}" if isinstance(v, float) else f"{v:,}")


out = [f"\n## {date} · commit {commit} · {cores} cores · load {before} before, {after} after · {secs} s per load run",
       f"Peers: {versions}.\n"]

p1 = by("P1")
if p1:
    out += ["### P1: requests/s against nginx (canned chat completion, non-streaming, loopback; each peer at its best "
            "setting, in brackets)",
            "| connections | wrk | h2load | hey | aiperf-java | engine / wrk best | engine / best peer | engine / hey |",
            "|---|---|---|---|---|---|---|---|"]

    def best(tool, conns):  # (rps, setting) of the tool's best setting, or (None, None)
        runs = [r for r in p1 if r["tool"] == tool and r["connections"] == conns and r.get("rps")]
        top = max(runs, key=lambda r: r["rps"], default=None)
        return (top["rps"], top.get("setting")) if top else (None, None)

    def shown(pair):
        return f(pair[0]) + (f" ({pair[1]})" if pair[1] else "")

    for conns in sorted({r["connections"] for r in p1}):
        w, h2, h = best("wrk", conns), best("h2load", conns), best("hey", conns)
        e = best("aiperf-java", conns)[0]
        peer = max((v for v, _ in (w, h2, h) if v), default=None)
        ratio = lambda v: f(e / v, 2) if e and v else "-"
        out.append(f"| {conns} | {shown(w)} | {shown(h2)} | {shown(h)} | {f(e)} | {ratio(w[0])} | {ratio(peer)} | "
                   f"{ratio(h[0])} |")
    settings = [f"{r['tool']} {r['setting']} at {r['connections']}: {f(r.get('rps'))}" for r in p1 if r.get("setting")]
    out.append("\nEvery setting: " + "; ".join(settings) + ".")
    out.append("")

p1s = by("P1S")
if p1s:
    out += ["### P1S: requests/s over http and https against nginx (50 connections; wrk = best of -t1 and -t2)",
            "| scheme | wrk | aiperf-java | engine / wrk | engine's protocol |", "|---|---|---|---|---|"]
    ratios = {}
    for scheme in ("http", "https"):
        got = {r["tool"]: r for r in p1s if r["scheme"] == scheme}
        w = got.get("wrk", {}).get("rps")
        e = got.get("aiperf-java", {}).get("rps")
        ratios[scheme] = e / w if e and w else None
        out.append(f"| {scheme} | {f(w)} | {f(e)} | {f(ratios[scheme], 2) if ratios[scheme] else '-'} | "
                   f"{got.get('aiperf-java', {}).get('protocol', '-')} |")
    if ratios.get("http") and ratios.get("https"):
        out.append(f"\nhttps ratio / http ratio: {ratios['https'] / ratios['http']:.2f} (target: at least 0.90)")
    out.append("")

p2 = by("P2")
if p2:
    out += ["### P2: open-loop accuracy against nginx",
            "| pattern | target req/s | achieved | achieved % | missed | lag p99 ms | schedule CV | send CV | pool wait p99 ms | "
            "connects in the window (waited for) | client limited by | engine's verdict |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in p2:
        verdict = ", ".join(f"{k} {v}" for k, v in r["verdict"].items() if v)
        limited = ", ".join(r.get("client_limited_by") or []) or ("nothing" if "client_limited_by" in r else "-")
        out.append(f"| {r['pattern']} | {f(r['target'], 0)} | {f(r['achieved'], 0)} | {f(r['achieved_pct'], 2)} | "
                   f"{f(r['missed'])} | {f(r['lag_p99_ms'], 3)} | {f(r['schedule_cv'], 3)} | {f(r['send_cv'], 3)} | "
                   f"{f(r.get('pool_wait_p99_ms'), 3)} | {f(r.get('connects_opened'))} ({f(r.get('connects_waited'))}) | "
                   f"{limited} | {verdict} |")
    out.append("(CV of the inter-arrival times: 0 for constant, 1 for Poisson; schedule = intended times, send = "
               "actual writes.)\n")

p3 = by("P3")
if p3:
    out += ["### P3: chunk-stamp fidelity (server with a known cadence, 50 ms to the first token, then 20 ms; at "
            "1,024 streams 200 ms and 200 ms, which the Python server can keep, engine only; each event's client "
            "stamp minus the server's own send stamp)",
            "| streams | client | events | delay p50 us | delay p99 us | delay max us | ICL p50 ms | ICL p99 ms | ICL max ms | zero gaps % |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(p3, key=lambda r: (r["streams"], r["client"])):
        out.append(f"| {r['streams']} | {r['client']} | {f(r['events'])} | {f(r['delay_p50_us'])} | {f(r['delay_p99_us'])} | "
                   f"{f(r['delay_max_us'])} | {f(r['icl_p50_ms'], 3)} | {f(r['icl_p99_ms'], 3)} | {f(r['icl_max_ms'], 3)} | "
                   f"{f(r['zero_gap_share_pct'], 2)} |")
    for r in by("P3T"):
        itl = f" ITL p50 {f(r['itl_p50_ms'], 3)} ms, p99 {f(r['itl_p99_ms'], 3)} ms (truth {r['itl_truth_ms']} ms)." \
            if "itl_p50_ms" in r else ""
        h = r.get("health") or {}
        health = (f" The engine's own client_health: timer wake-ups late by {f(h.get('wakeup_delay_p99_ms'), 3)} ms at "
                  f"p99, {f(h.get('record_queue_waits'))} waits on the record queue.") if h else ""
        out.append(f"\nTTFT p50 at {r['streams']} streams: {f(r['ttft_p50_ms'], 3)} ms (server's target "
                   f"{r['ttft_truth_ms']} ms; the difference is the server's own lateness plus the client delay).{itl}"
                   f"{health}")
    out.append("")

for r in by("P4"):
    out += ["### P4: 10,000 concurrent streams in -Xmx1g (server: first token after 1 s, then 1 per s, 5 tokens)",
            "| requests | errors | heap after GC, max | RSS max | CPU s per 1,000 events | pool wait p99 ms | connect p99 ms | TTFT p50 / p99 ms (truth 1,000) |",
            "|---|---|---|---|---|---|---|---|",
            f"| {f(r['requests'], 0)} | {f(r['errors'], 0)} | {r['heap_after_gc_max_mb']} MB | {r['rss_max_mb']} MB | "
            f"{r['cpu_s_per_1000_events']} | {f(r['pool_wait_p99_ms'], 3)} | {f(r['connect_p99_ms'], 3)} | "
            f"{f(r['ttft_p50_ms'], 1)} / {f(r['ttft_p99_ms'], 1)} |"]
for r in by("P4F"):
    out.append(f"\nClient delay per event at 10,000 streams: p50 {f(r['delay_p50_us'])} us, p99 {f(r['delay_p99_us'])} us, "
               f"max {f(r['delay_max_us'])} us over {f(r['events'])} events.\n")

for r in by("P5"):
    out += ["### P5 and P6: start-up",
            f"- process start to the first request on the wire, bin/aiperf"
            f"{' with its class-data archive' if r.get('archive_used') else ' (no class-data archive was recorded)'}: "
            f"{r['first_request_ms']} ms (target: under 1,000 ms); `java -jar`: {r.get('java_jar_first_request_ms', '-')} ms "
            f"(medians of three runs)",
            f"- wall time of a one-request run (20 tokens, 50 ms + 19 x 20 ms of server time): "
            f"{r['one_request_wall_ms']} ms (bin/aiperf), {r.get('java_jar_one_request_wall_ms', '-')} ms (`java -jar`)"]
for r in by("P6"):
    out.append(f"- cold-start bias (4 streams, no warmup, median first-event client delay of the first wave minus "
               f"the rest): {r.get('cold_start_bias_ms')} ms (first wave {r.get('first_wave_delay_us')} us, steady "
               f"{r.get('steady_delay_us')} us; target: under 1 ms)")
if by("J"):
    out += ["\n### J: JMH microbenchmarks (one fork, 3 x 1 s warmup, 5 x 1 s measured, -prof gc)",
            "| benchmark | params | ns per op | +- | bytes allocated per op |", "|---|---|---|---|---|"]
    for r in by("J"):
        params = ", ".join(f"{k}={v}" for k, v in r["params"].items())
        out.append(f"| {r['benchmark']} | {params} | {f(r['ns'])} | {f(r['ns_error'])} | {f(r['alloc_bytes'])} |")
    out.append("(an op is one SSE event for ResponsePathBenchmark, one finished request for RecordPathBenchmark, "
               "one whole run of `values` for StatisticsBenchmark)")
print("\n".join(out))
