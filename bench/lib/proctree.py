#!/usr/bin/env python3
"""Runs a command and measures the whole process tree it starts, from /proc: the client cost of a benchmark tool.

  proctree.py --out RESULT.json [--timeout S] -- COMMAND ARGS...

Writes one JSON object: the command's exit code, its wall time, the start stamp (time.time_ns() just before the
fork, for the time to the first request), CPU seconds (user + system) of every process of the tree, and the peak of
the tree's summed RSS, and a timeline of the tree's CPU (stamp, seconds so far: the CPU spent before the first
request is known from the server's stamp of it). This process makes itself a child subreaper, so processes the tool orphans stay in the tree
and are reaped (and counted) here. CPU is the larger of two lower bounds: the rusage of every reaped descendant
(the kernel's own count, complete for processes that were waited for) and the sum, over every process ever seen,
of its last sampled utime + stime (for those that were not). Sampling is every 100 ms, on this process's own core
time (about 1% of a core for a tree of a dozen processes).
"""
import argparse
import ctypes
import json
import os
import resource
import signal
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def stat_of(pid):
    """(ppid, utime+stime in s, rss bytes) of a process, or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    rest = raw[raw.rindex(b")") + 2:].split()
    # fields after the command: state(0) ppid(1) ... utime(11) stime(12) ... rss(21)
    return int(rest[1]), (int(rest[11]) + int(rest[12])) / TICK, int(rest[21]) * PAGE


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--timeout", type=float, default=900)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except Exception:
        pass
    me = os.getpid()
    t0 = time.time_ns()
    m0 = time.monotonic()
    child = subprocess.Popen(cmd, start_new_session=True)
    cpu_seen, peak_rss, tree, timeline = {}, 0, {child.pid}, []
    rc = None
    while True:
        # every process whose parent chain reaches this one
        stats = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                s = stat_of(int(name))
                if s:
                    stats[int(name)] = s
        tree = set()
        for pid in stats:
            q, hops = pid, 0
            while q in stats and hops < 64:
                parent = stats[q][0]
                if parent == me:
                    tree.add(pid)
                    break
                q, hops = parent, hops + 1
        rss = 0
        for pid in tree:
            _, cpu, r = stats[pid]
            cpu_seen[pid] = max(cpu_seen.get(pid, 0.0), cpu)
            rss += r
        peak_rss = max(peak_rss, rss)
        timeline.append((time.time_ns(), round(sum(cpu_seen.values()), 3)))
        if rc is None:
            rc = child.poll()
            if rc is None and time.monotonic() - m0 > a.timeout:
                os.killpg(child.pid, signal.SIGKILL)
        if rc is not None:
            break
        time.sleep(0.1)
    wall = time.monotonic() - m0
    # reap what the tool left behind (orphans came to this subreaper), after a short grace
    deadline = time.monotonic() + 5
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            if time.monotonic() > deadline:
                for q in tree:
                    try:
                        os.kill(q, signal.SIGKILL)
                    except OSError:
                        pass
                deadline = time.monotonic() + 5
            time.sleep(0.05)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    rusage_cpu = ru.ru_utime + ru.ru_stime
    sampled_cpu = sum(cpu_seen.values())
    result = {"rc": rc, "start_ns": t0, "wall_s": round(wall, 3), "cpu_s": round(max(rusage_cpu, sampled_cpu), 3),
              "cpu_rusage_s": round(rusage_cpu, 3), "cpu_sampled_s": round(sampled_cpu, 3),
              "processes": len(cpu_seen), "peak_rss_mb": round(peak_rss / 2**20, 1),
              "timeline": timeline[::max(1, len(timeline) // 3000)]}
    with open(a.out, "w") as f:
        json.dump(result, f)
    sys.exit(0)


if __name__ == "__main__":
    main()
