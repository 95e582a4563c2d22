#!/usr/bin/env python3
"""Top frames per thread from a JFR recording's method samples: jdk.ExecutionSample (a thread running Java) and
jdk.NativeMethodSample (a thread in native code: system calls such as read, write and epoll_wait, marked
[native]), and inclusive counts of the engine's own frames.

Usage: jfr_top.py RECORDING.jfr [TOP]
"""
import collections
import json
import subprocess
import sys

rec, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 15
events = json.loads(subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample,jdk.NativeMethodSample",
                                    rec], check=True, capture_output=True, text=True).stdout)["recording"]["events"]
by_thread = collections.defaultdict(list)
for e in events:
    v = e["values"]
    frames = [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"]
              for f in (v.get("stackTrace") or {}).get("frames", [])]
    if frames:
        if e["type"] == "jdk.NativeMethodSample":
            frames[0] += " [native]"
        by_thread[(v.get("sampledThread") or {}).get("javaName") or "?"].append(frames)
total = sum(len(s) for s in by_thread.values())
print(f"samples: {total}; by thread: " + ", ".join(f"{t} {len(s)}" for t, s in
                                                   sorted(by_thread.items(), key=lambda kv: -len(kv[1]))))
for thread, stacks in sorted(by_thread.items(), key=lambda kv: -len(kv[1])):
    if len(stacks) < max(5, total // 100):
        continue
    self_ = collections.Counter(s[0] for s in stacks)
    incl = collections.Counter(f for s in stacks for f in set(s) if f.startswith("io.aiperf"))
    print(f"== {thread}: top frames (self, of {len(stacks)} samples)")
    for f, n in self_.most_common(top):
        print(f"  {n:5d} {100.0 * n / len(stacks):5.1f}%  {f}")
    print(f"== {thread}: inclusive (engine frames)")
    for f, n in incl.most_common(top):
        print(f"  {n:5d} {100.0 * n / len(stacks):5.1f}%  {f}")
