#!/usr/bin/env python3
"""Who kept a client's reading threads from running: their waits for a core in a `perf sched timehist` listing.

  sched_who.py TIMEHIST --pid PID [--comm PREFIX] (--engine-jsonl FILE | --ref FILE) --clock-offset S
               [--threshold MS] [--cpus N]

For the threads of process PID (those whose name starts with PREFIX, if given), inside the measured window (the
engine's first request start to its last end, or the reference client's first stamp to its last; wall-clock
seconds minus S, the wall clock's lead on perf's monotonic clock): how long each waited for a core once runnable
(woken or preempted), at p50, p99 and max; then, over the waits longer than THRESHOLD ms (merged where they
overlap), the CPU time every other task ran inside them, and the time the cores were idle. A wait with a core idle
is the scheduler's placement; a wait with every core busy is a wait for a core.
"""
import argparse
import bisect
import collections
import json
import os
import re

# time, [cpu], task[tid/pid] (or <idle> without brackets), wait time, sch delay, run time (ms)
ROW = re.compile(r"\s*([\d.]+)\s+\[(\d+)\]\s+(<idle>|.+?\[(\d+)(?:/(\d+))?\])\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)")


def rows(path, lo, hi):
    """(start s, end s, name, pid, delay ms) per switch-out near the window: the task ran [end - run, end]."""
    out = []
    with open(path) as f:
        for line in f:
            m = ROW.match(line)
            if not m:
                continue
            end, _, task, tid, pid, _, delay, run = m.groups()
            end = float(end)
            if lo - 1 <= end <= hi + 1:
                name = task if task == "<idle>" else task[:task.rindex("[")].strip()
                out.append((end - float(run) / 1e3, end, name, int(pid or tid or -1), float(delay)))
    return out


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


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(len(v) * p / 100))] if v else float("nan")


def merged(intervals):
    out = []
    for start, stop in sorted(intervals):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], stop)
        else:
            out.append([start, stop])
    return out


def kind(name):
    return re.sub(r"^(kworker|ksoftirqd|migration)/.*", r"\1", name)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("timehist")
    a.add_argument("--pid", type=int, required=True)
    a.add_argument("--comm", default="")
    a.add_argument("--engine-jsonl")
    a.add_argument("--ref")
    a.add_argument("--clock-offset", type=float, required=True)
    a.add_argument("--threshold", type=float, default=0.5)
    a.add_argument("--cpus", type=int, default=os.cpu_count())
    args = a.parse_args()
    lo, hi = window(args)
    everything = rows(args.timehist, lo, hi)
    mine = lambda r: r[3] == args.pid and r[2].startswith(args.comm)
    waits = [r for r in everything if mine(r) and lo <= r[1] <= hi]
    delays = [r[4] for r in waits]
    print(f"waits for a core (woken or preempted): {len(delays)}; p50 {pct(delays, 50):.3f} ms, "
          f"p99 {pct(delays, 99):.3f} ms, max {max(delays, default=float('nan')):.3f} ms")
    long_waits = merged((r[0] - r[4] / 1e3, r[0]) for r in waits if r[4] > args.threshold)
    by_start = sorted(everything)
    starts = [r[0] for r in by_start]
    ran = collections.Counter()
    for start, stop in long_waits:
        # every run that overlaps [start, stop]: runs are short, so none starts more than a second before
        for r in by_start[bisect.bisect_left(starts, start - 1):bisect.bisect_right(starts, stop)]:
            overlap = min(stop, r[1]) - max(start, r[0])
            if overlap <= 0 or mine(r):
                continue
            if r[2] == "<idle>":
                ran["(idle)"] += overlap
            elif r[3] == args.pid:
                ran[f"{r[2]} (same process)"] += overlap
            else:
                ran[kind(r[2])] += overlap
    span = sum(stop - start for start, stop in long_waits)
    print(f"waits longer than {args.threshold} ms: {sum(1 for d in delays if d > args.threshold)}, "
          f"{span * 1e3:.1f} ms in all once overlaps are merged; in them the {args.cpus} cores ran:")
    for name, seconds in sorted(ran.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {name:34s} {seconds * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
