#!/usr/bin/env python3
"""Chunk-stamp fidelity: a client's stamp of each content event against the server's own send stamp.

  fidelity.py --server STAMPS (--ref CLIENT_STAMPS | --engine-jsonl profile_export.jsonl) [--wave N]

Prints one JSON object: the client-side delay of every event (client stamp minus server send stamp: what the
client adds, whatever the server's own jitter), the inter-chunk latencies the client saw, and the share of zero
gaps (two events stamped alike although the server sent them more than 0.5 ms apart). With --wave N it also
gives the cold-start bias: the first N requests' first-event delay minus that of the rest (P6).
Engine event times are rebuilt from each record: request_start_ns + time_to_first_token, then the
inter_chunk_latency values in turn.
"""
import argparse
import json
import statistics


def pct(values, p):
    """NumPy's default (linear) percentile."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100.0
    f = int(k)
    c = min(f + 1, len(v) - 1)
    return v[f] + (v[c] - v[f]) * (k - f)


def read_stamps(path):
    out = {}
    with open(path) as f:
        for line in f:
            rid, i, t = line.split()
            out.setdefault(rid, {})[int(i)] = int(t)
    return out


def engine_events(path):
    out, starts = {}, {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            m = r["metrics"]
            if r.get("error") or "time_to_first_token" not in m:
                continue
            rid = r["metadata"]["x_request_id"]
            start = r["metadata"]["request_start_ns"]
            t = start + m["time_to_first_token"]["value"] * 1e6
            events = {0: t}
            icl = m.get("inter_chunk_latency", {}).get("value", [])
            for i, gap in enumerate(icl, start=1):
                t += gap * 1e6
                events[i] = t
            out[rid] = events
            starts[rid] = start
    return out, starts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--server", required=True)
    p.add_argument("--ref")
    p.add_argument("--engine-jsonl")
    p.add_argument("--wave", type=int, default=0)
    a = p.parse_args()
    server = read_stamps(a.server)
    if a.ref:
        client, starts = read_stamps(a.ref), None
    else:
        client, starts = engine_events(a.engine_jsonl)
    delays, icl, pairs, zero = [], [], 0, 0
    first_delay = {}
    for rid, events in client.items():
        sent = server.get(rid)
        if not sent:
            continue
        for i in sorted(events):
            if i in sent:
                delays.append((events[i] - sent[i]) / 1e3)
                if i == 0:
                    first_delay[rid] = (events[i] - sent[i]) / 1e3
            if i - 1 in events:
                gap = (events[i] - events[i - 1]) / 1e6
                icl.append(gap)
                if i in sent and i - 1 in sent and sent[i] - sent[i - 1] > 500_000:
                    pairs += 1
                    if abs(gap) < 1e-6:
                        zero += 1
    result = {
        "events": len(delays),
        "delay_p50_us": round(pct(delays, 50), 1),
        "delay_p99_us": round(pct(delays, 99), 1),
        "delay_max_us": round(max(delays), 1) if delays else None,
        "icl_p50_ms": round(pct(icl, 50), 3),
        "icl_p99_ms": round(pct(icl, 99), 3),
        "icl_max_ms": round(max(icl), 3) if icl else None,
        "zero_gap_share_pct": round(100.0 * zero / pairs, 2) if pairs else 0.0,
    }
    if a.wave and starts:
        order = sorted((s, rid) for rid, s in starts.items() if rid in first_delay)
        wave = [first_delay[rid] for _, rid in order[:a.wave]]
        rest = [first_delay[rid] for _, rid in order[a.wave:]]
        if wave and rest:
            result["first_wave_delay_us"] = round(statistics.median(wave), 1)
            result["steady_delay_us"] = round(statistics.median(rest), 1)
            result["cold_start_bias_ms"] = round((statistics.median(wave) - statistics.median(rest)) / 1e3, 3)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
