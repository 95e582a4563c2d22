#!/usr/bin/env python3
"""Who kept a client's reading threads from running: its wake-ups in a `perf sched timehist` listing.

  sched_who.py TIMEHIST --pid PID [--comm PREFIX] (--engine-jsonl FILE | --ref FILE) --clock-offset S
               [--threshold MS] [--cpus N]

For the threads of process PID (those whose name starts with PREFIX, if given) and their wake-ups inside the
measured window (the engine's first request start to its last end, or the reference client's first stamp to its
last; wall-clock seconds minus S, the wall clock's lead on perf's monotonic clock): the scheduling delay (woken to
running) at p50, p99 and max; then, over the wake-ups delayed by more than THRESHOLD ms, the CPU time every other
task ran inside those delays and what was left idle. A delay with a core idle is the scheduler's placement; a
delay with both cores busy is a wait for a core.
"""
import argparse
import collections
import json
import re

ROW = re.compile(r"\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\[(\d+)(?:/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)")


def rows(path):
    """(end s, cpu, name, tid, pid, wait ms, delay ms, run ms) per switch-out: the task ran [end - run, end]."""
    out = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                end, cpu, name, tid, pid, wait, delay, run = m.groups()
                out.append((float(end), int(cpu), name.strip(), int(tid), int(pid or tid), float(wait),
                            float(delay), float(run)))
    return out


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(len(v) * p / 100))] if v else float("nan")


def window(args):
    """The measured window in seconds on perf's clock."""
    if args.engine_jsonl:
        with open(args.engine_jsonl) as f:
            meta = [json.loads(line)["metadata"] for line in f]
        lo, hi = min(m["request_start_ns"] for m in meta), max(m["request_end_ns"] for m in meta)
    else:
        with open(args.ref) as f:
            stamps = [int(line.split()[2]) for line in f]
        lo, hi = min(stamps), max(stamps)
    return lo / 1e9 - args.clock_offset, hi / 1e9 - args.clock_offset


def main():
    a = argparse.ArgumentParser()
    a.add_argument("timehist")
    a.add_argument("--pid", type=int, required=True)
    a.add_argument("--comm", default="")
    a.add_argument("--engine-jsonl")
    a.add_argument("--ref")
    a.add_argument("--clock-offset", type=float, required=True)
    a.add_argument("--threshold", type=float, default=0.5)
    a.add_argument("--cpus", type=int, default=2)
    args = a.parse_args()
    lo, hi = window(args)
    everything = [r for r in rows(args.timehist) if lo - 0.1 <= r[0] <= hi + 0.1]
    mine = [r for r in everything if r[4] == args.pid and r[2].startswith(args.comm) and lo <= r[0] <= hi]
    delays = [r[6] for r in mine]
    print(f"wake-ups: {len(delays)}; scheduling delay p50 {pct(delays, 50):.3f} ms, p99 {pct(delays, 99):.3f} ms, "
          f"max {max(delays, default=float('nan')):.3f} ms")
    late = [r for r in mine if r[6] > args.threshold]
    others = collections.Counter()
    span = 0.0
    for end, _, _, _, _, _, delay, run in late:
        start, stop = end - (run + delay) / 1e3, end - run / 1e3
        span += stop - start
        for e2, _, n2, _, p2, _, _, r2 in everything:
            overlap = min(stop, e2) - max(start, e2 - r2 / 1e3)
            if overlap > 0 and not (p2 == args.pid and n2.startswith(args.comm)):
                others[re.sub(r"^(kworker|ksoftirqd|migration)/.*", r"\1", n2)] += overlap
    busy = sum(others.values())
    print(f"delayed by more than {args.threshold} ms: {len(late)}, {span * 1e3:.1f} ms in all; in those delays "
          f"the {args.cpus} cores ran:")
    for name, seconds in others.most_common(8):
        print(f"  {name:32s} {seconds * 1e3:8.1f} ms")
    print(f"  {'(idle)':32s} {max(0.0, span * args.cpus - busy) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
