#!/usr/bin/env python3
"""CPU seconds per thread name of a process, from /proc/PID/task/*/stat (user, system), printed as JSON.

Usage: thread_cpu.py PID
"""
import collections
import json
import os
import sys

pid, tick = sys.argv[1], os.sysconf("SC_CLK_TCK")
cpu = collections.defaultdict(lambda: [0.0, 0.0])
for tid in os.listdir(f"/proc/{pid}/task"):
    try:
        stat = open(f"/proc/{pid}/task/{tid}/stat").read()
    except OSError:
        continue
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2:].split()
    name = "C2 compiler" if name.startswith("C2 Compiler") else "C1 compiler" if name.startswith("C1 Compiler") \
        else "GC" if name.startswith(("GC Thread", "G1 ")) else name
    cpu[name][0] += int(fields[11]) / tick
    cpu[name][1] += int(fields[12]) / tick
print(json.dumps(cpu))
