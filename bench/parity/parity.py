#!/usr/bin/env python3
"""Differential harness: the same `aiperf profile` command lines through upstream AIPerf 0.13 and aiperf-java,
against the same server, and their export files compared key by key.

    bench/parity/run.sh                       # installs upstream if needed, builds ours, runs every case
    bench/parity/run.sh --only chat-stream-conc --servers mock

It writes bench/parity/RESULTS.md (the headline, a summary per command line and every row that is not equal) and
the full table of every row to bench/parity/out/rows.tsv (out/ also keeps both tools' artifacts).

Comparisons:
  files      the set of files each tool wrote (logs/ aside)
  JSON       every top-level key; a metric block's unit and statistic names; non-timing values exactly
             (counts, token counts), timing values (units in ms, sec, or per second, and the load-shape metrics)
             within a tolerance; values that depend on the prompt text each tool generated (server-side prompt
             token counts, bytes sent) within a looser one, marked as such; other blocks by their key paths
  CSV        each section's header, the order of its rows (first column), and the values of non-timing rows,
             including how numbers are printed
  JSONL      record count, the record keys (top level, metadata, metrics), the per-record ISL and OSL multisets
  inputs.json  its shape: top-level keys, the number of sessions, the keys of a payload
Timing tolerance: a value v against upstream's u is within when |v-u| <= max(ABS, REL*|u|), ABS 5 ms for ms values
(the mock's ITL, the granularity of what both measure) and REL 0.35; p50 is compared, not avg (upstream's first
requests wait on its worker processes' start, which pulls its mean and max up).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import fnmatch
import re
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = HERE / "out"

REL_TOL = 0.35
ABS_TOL_MS = 5.0
CONTENT_REL_TOL = 0.30

# Metrics whose value depends on timing although their unit is a count (load shape over time).
TIMING_BY_NAME_PREFIX = ("effective_", "active_", "tokens_in_flight")
# Values that depend on the prompt text each tool generates (the corpora differ): the server's count of the prompt,
# what that makes of the client/server difference, the server's prompt-cache hits (the prompts' shared prefixes), and
# bytes on the wire.
CONTENT_DEPENDENT = {
    "usage_prompt_tokens", "usage_total_tokens", "usage_prompt_tokens_diff_pct", "usage_discrepancy_count",
    "total_usage_prompt_tokens", "total_usage_total_tokens", "http_req_data_sent", "http_req_data_received",
    "usage_prompt_cache_read_tokens", "total_usage_prompt_cache_read_tokens", "overall_usage_prompt_cache_read_pct",
}
STATS = ("avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "std", "count")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- servers

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except Exception:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} within {timeout}s")


class Server:
    def __init__(self, name: str, cmd: list[str], port: int, model: str, health: str):
        self.name, self.cmd, self.port, self.model = name, cmd, port, model
        self.url = f"http://127.0.0.1:{port}"
        self.health = self.url + health
        self.proc = None

    def __enter__(self):
        logf = open(OUT / f"server-{self.name}.log", "w")
        self.proc = subprocess.Popen(self.cmd, stdout=logf, stderr=subprocess.STDOUT)
        wait_http(self.health, 120)
        return self

    def __exit__(self, *exc):
        if self.proc:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def make_server(name: str, jar: Path) -> Server:
    port = free_port()
    if name == "mock":
        return Server(name, ["java", "-jar", str(jar), "mock-server", "--port", str(port), "--ttft", "20",
                             "--itl", "5"], port, "mock-model", "/health")
    if name == "llama":
        home = Path(os.environ.get("LLAMA_SERVER_DIR", Path.home() / ".cache" / "llama-server"))
        binary = home / "llama.cpp" / "build" / "bin" / "llama-server"
        model = home / "models" / "tiny-random-llama-64x2.gguf"
        if not binary.exists() or not model.exists():
            raise RuntimeError(f"llama-server not built under {home} (see ../shared/tools/llama-server/)")
        return Server(name, [str(binary), "-m", str(model), "--host", "127.0.0.1", "--port", str(port), "-c", "8192",
                             "-np", "4", "-t", "1", "--no-webui", "--metrics"], port, "tiny-random-llama-64x2",
                      "/health")
    raise ValueError(name)


# ---------------------------------------------------------------- inputs

def write_inputs(data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    words = ("the quick brown fox jumps over the lazy dog while a benchmark counts every token it sends "
             "and every token that comes back").split()
    with open(data / "single_turn.jsonl", "w") as f:
        for i in range(8):
            text = " ".join(words[(i + j) % len(words)] for j in range(12 + 3 * i))
            f.write(json.dumps({"text": text, "output_length": 8}) + "\n")
    with open(data / "multi_turn.jsonl", "w") as f:
        for s in range(3):
            turns = [{"text": " ".join(words[(s + t + j) % len(words)] for j in range(10 + t)), "max_tokens": 6}
                     for t in range(3)]
            f.write(json.dumps({"session_id": f"s{s}", "turns": turns}) + "\n")
    with open(data / "mooncake.jsonl", "w") as f:
        for i in range(8):  # one 512-token block of its own each (upstream refuses a block id seen at two sizes)
            f.write(json.dumps({"timestamp": i * 50, "input_length": 40 + 8 * i, "output_length": 6,
                                "hash_ids": [i]}) + "\n")


# ---------------------------------------------------------------- running

def tiktoken_cache(jar_dir: Path, venv: Path) -> Path:
    """Upstream's builtin tokenizer is tiktoken's o200k_base, which tiktoken downloads on first use. The machine
    cannot; jtokkit (Maven Central, aiperf-java's dependency) ships the same file, byte for byte (tiktoken checks its
    sha256), so it is placed where tiktoken's cache looks for it."""
    cache = OUT / "tiktoken-cache"
    cache.mkdir(parents=True, exist_ok=True)
    key = subprocess.run([str(venv / "bin" / "python"), "-c",
                          "import hashlib; from aiperf.common.tokenizer import _TIKTOKEN_ENCODING_URLS as U; "
                          "print(hashlib.sha1(U['o200k_base'].encode()).hexdigest())"],
                         check=True, capture_output=True, text=True).stdout.strip()
    target = cache / key
    if not target.exists():
        jars = sorted((Path.home() / ".m2" / "repository" / "com" / "knuddels" / "jtokkit").glob("*/jtokkit-*.jar"))
        if not jars:
            raise RuntimeError("jtokkit's jar is not in ~/.m2 (build aiperf-java first)")
        import zipfile
        with zipfile.ZipFile(jars[-1]) as z:
            target.write_bytes(z.read("com/knuddels/jtokkit/o200k_base.tiktoken"))
    return cache


def run_tool(tool: str, argv: list[str], env: dict, log_path: Path, timeout: int) -> tuple[int, float]:
    t0 = time.monotonic()
    with open(log_path, "w") as lf:
        try:
            rc = subprocess.run(argv, env=env, stdout=lf, stderr=subprocess.STDOUT, timeout=timeout,
                                stdin=subprocess.DEVNULL).returncode
        except subprocess.TimeoutExpired:
            rc = -1
    return rc, time.monotonic() - t0


def case_argv(args: str, server: Server, data: Path, artifact: Path) -> list[str]:
    words = shlex.split(args.replace("{data}", str(data)).replace("{url}", server.url))
    builtin = "--no-builtin" not in words
    words = [w for w in words if w != "--no-builtin"]
    extra = ["-m", server.model, "--url", server.url, "--artifact-dir", str(artifact), "--ui-type", "none"]
    if builtin and "--tokenizer" not in words:
        extra += ["--tokenizer", "builtin"]
    return extra + words


# ---------------------------------------------------------------- comparing

class Rows:
    def __init__(self):
        self.rows: list[tuple[str, str, str, str, str, str, str]] = []

    def add(self, case, server, file, key, up, ours, verdict):
        self.rows.append((case, server, file, key, short(up), short(ours), verdict))


def short(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.6g}"
    s = v if isinstance(v, str) else json.dumps(v, sort_keys=True)
    s = s.replace("|", "\\|").replace("\n", " ")
    return s if len(s) <= 90 else s[:87] + "..."


def is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def timing_metric(name: str, unit: str | None) -> bool:
    if name.startswith(TIMING_BY_NAME_PREFIX) or name.endswith("_concurrency"):
        return True
    u = (unit or "").lower()
    return u in ("ms", "sec", "s", "ns") or "/sec" in u or u.endswith("per_sec")


def close(a, b, rel, absolute=0.0) -> bool:
    if not (is_num(a) and is_num(b)):
        return a == b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= max(absolute, rel * abs(a), 1e-9 * max(1.0, abs(a)))


def key_paths(v, prefix="") -> dict[str, str]:
    """Flattened key paths with the type of each leaf (lists by their first element)."""
    out: dict[str, str] = {}
    if isinstance(v, dict):
        for k, x in v.items():
            out.update(key_paths(x, f"{prefix}.{k}" if prefix else str(k)))
        if not v:
            out[prefix] = "{}"
    elif isinstance(v, list):
        out[prefix] = "list"
        if v and isinstance(v[0], dict):
            out.update(key_paths(v[0], prefix + "[]"))
    else:
        out[prefix] = type_name(v)
    return out


def type_name(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if is_num(v):
        return "number"
    return type(v).__name__


def compare_metric(rows: Rows, c, s, f, name, u: dict, o: dict):
    unit = u.get("unit")
    if o.get("unit") != unit:
        rows.add(c, s, f, name + ".unit", unit, o.get("unit"), "differs")
    ustats = [k for k in u if k != "unit"]
    ostats = [k for k in o if k != "unit"]
    if sorted(ustats) != sorted(ostats):
        missing = [k for k in ustats if k not in ostats]
        extra = [k for k in ostats if k not in ustats]
        rows.add(c, s, f, name + " (statistics)", ",".join(ustats), ",".join(ostats),
                 "shape differs" + (f": ours lacks {','.join(missing)}" if missing else "")
                 + (f"; ours adds {','.join(extra)}" if extra else ""))
    if timing_metric(name, unit):
        stat = "p50" if "p50" in u and "p50" in o else "avg"
        a, b = u.get(stat), o.get(stat)
        tol_abs = ABS_TOL_MS if unit == "ms" else 0.0
        if close(a, b, REL_TOL, tol_abs):
            rows.add(c, s, f, f"{name}.{stat}", a, b, "within tolerance (timing)")
        else:
            rows.add(c, s, f, f"{name}.{stat}", a, b, "outside tolerance (timing)")
        if "count" in u:
            rows.add(c, s, f, name + ".count", u.get("count"), o.get("count"),
                     "equal" if u.get("count") == o.get("count") else "differs")
        return
    content = name in CONTENT_DEPENDENT
    for stat in [k for k in ("avg", "min", "max", "sum", "count", "p50") if k in u]:
        a, b = u.get(stat), o.get(stat)
        if close(a, b, 1e-9):
            rows.add(c, s, f, f"{name}.{stat}", a, b, "equal")
        elif content and close(a, b, CONTENT_REL_TOL):
            rows.add(c, s, f, f"{name}.{stat}", a, b, "within tolerance (prompt text)")
        else:
            rows.add(c, s, f, f"{name}.{stat}", a, b, "differs (prompt text)" if content else "differs")


def compare_aggregate_json(rows: Rows, c, s, f, up: dict, ours: dict):
    for k, u in up.items():
        if k not in ours:
            rows.add(c, s, f, k, u if not isinstance(u, dict) else "{" + ",".join(list(u)[:6]) + "}", None,
                     "missing in ours")
            continue
        o = ours[k]
        if isinstance(u, dict) and "unit" in u:
            if isinstance(o, dict):
                compare_metric(rows, c, s, f, k, u, o)
            else:
                rows.add(c, s, f, k, "metric block", type_name(o), "shape differs")
        elif isinstance(u, (dict, list)):
            compare_paths(rows, c, s, f, k, u, o)
        elif k in ("benchmark_id", "start_time", "end_time", "aiperf_version"):
            rows.add(c, s, f, k, type_name(u), type_name(o), "equal (type)" if type_name(u) == type_name(o)
                     else "shape differs")
        else:
            rows.add(c, s, f, k, u, o, "equal" if u == o else "differs")
    for k in ours:
        if k not in up:
            rows.add(c, s, f, k, None, "present", "ours only")


def prefixes(paths) -> set[str]:
    out = set()
    for p in paths:
        parts = p.split(".")
        for i in range(1, len(parts) + 1):
            out.add(".".join(parts[:i]))
    return out


def compare_paths(rows: Rows, c, s, f, k, u, o):
    up, op = key_paths(u, k), key_paths(o, k)
    missing = [p for p in up if p not in op]
    typed = [p for p in up if p in op and up[p] != op[p]]
    extra = [p for p in op if p not in up]
    if not missing and not typed:
        rows.add(c, s, f, k + " (key paths)", f"{len(up)} paths", f"{len(op)} paths",
                 "equal" if not extra else f"equal shape, ours adds {len(extra)}")
    # a key ours lacks is one row, not one per leaf under it
    ours_prefixes = prefixes(op)
    reported = set()
    for p in missing:
        parts = p.split(".")
        top = next((".".join(parts[:i]) for i in range(1, len(parts) + 1)
                    if ".".join(parts[:i]) not in ours_prefixes), p)
        if top in reported:
            continue
        reported.add(top)
        leaves = sum(1 for q in missing if q == top or q.startswith(top + "."))
        rows.add(c, s, f, top, up[p] if top == p else f"{leaves} keys", None, "missing in ours")
    for p in typed:
        rows.add(c, s, f, p, up[p], op[p], "type differs")


def read_csv_sections(path: Path) -> list[list[list[str]]]:
    sections, cur = [], []
    for row in csv.reader(io.StringIO(path.read_text())):
        if not row or all(not x for x in row):
            if cur:
                sections.append(cur)
                cur = []
            continue
        cur.append(row)
    if cur:
        sections.append(cur)
    return sections


def metric_name_of(label: str) -> str:
    return label


def row_key(row: list[str], header: tuple) -> str:
    """A CSV row's name: its first column, but a comment line's field name (`# benchmark_id:` whatever the id), and
    for server metrics (every row starts with the same endpoint) the endpoint, metric and label values."""
    first = row[0]
    if first.startswith("#") and ":" in first:
        return first.split(":", 1)[0] + ":"
    if header[:1] == ("Endpoint",) and "Metric" in header:
        m = header.index("Metric")
        labels = [row[j] for j in range(len(header)) if j < len(row) and header[j] not in SERVER_METRIC_FIXED
                  and header[j] not in SERVER_METRIC_STATS and row[j]]
        return " ".join([first, row[m]] + labels)
    return first


# Server-metrics CSV columns that are not labels; of their statistics only the counts compare (the rest are timing).
SERVER_METRIC_FIXED = {"Endpoint", "Type", "Metric", "Unit", "Description", "buckets", "Key", "Value"}
SERVER_METRIC_STATS = {"avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
                       "total", "rate", "rate_avg", "rate_min", "rate_max", "rate_std", "count", "count_rate", "sum",
                       "sum_rate"} | {f"p{q}_estimate" for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)}


def compare_csv(rows: Rows, c, s, f, up: Path, ours: Path, up_json: dict | None):
    us, os_ = read_csv_sections(up), read_csv_sections(ours)
    by_header_o = {tuple(sec[0]): sec for sec in os_}
    # display name -> (tag, unit) from upstream's JSON, to know which rows are timing
    for i, sec in enumerate(us):
        header = tuple(sec[0])
        osec = by_header_o.get(header)
        label = f"section {i + 1} [{','.join(header[:4])}...]"
        if osec is None:
            close_o = os_[i] if i < len(os_) else None
            rows.add(c, s, f, label + " header", ",".join(header), ",".join(close_o[0]) if close_o else None,
                     "missing in ours" if close_o is None else "header differs")
            if close_o is None:
                continue
            osec = close_o
        else:
            rows.add(c, s, f, label + " header", ",".join(header), ",".join(osec[0]), "equal")
        uorder = [row_key(r, header) for r in sec[1:]]
        oorder = [row_key(r, header) for r in osec[1:]]
        missing = [n for n in uorder if n not in oorder]
        extra = [n for n in oorder if n not in uorder]
        common_u = [n for n in uorder if n in oorder]
        common_o = [n for n in oorder if n in uorder]
        rows.add(c, s, f, label + " row order", f"{len(uorder)} rows", f"{len(oorder)} rows",
                 "equal" if uorder == oorder else
                 ("same order of common rows" if common_u == common_o else "order differs")
                 + (f"; ours lacks {len(missing)}" if missing else "") + (f"; ours adds {len(extra)}" if extra else ""))
        for n in missing:
            rows.add(c, s, f, f"row '{n}'", "present", None, "missing in ours")
        orows = {row_key(r, header): r for r in osec[1:]}
        server_metrics = header[:1] == ("Endpoint",)
        for r in sec[1:]:
            n = row_key(r, header)
            if n not in orows:
                continue
            o = orows[n]
            timing = any(t in n for t in ("(ms)", "(sec)", "/sec", "Concurrency", "Tokens In Flight"))
            content = any(t in n for t in ("Usage Prompt", "Usage Total", "Usage Discrepancy", "Data Sent",
                                            "Data Received", "prompt_tokens", "prefix_cache"))
            if "unit" in header:  # an aggregate's <tag>_<stat> rows carry their unit
                tag = n.rsplit("_", 1)[0] if n.rsplit("_", 1)[-1] in STATS else n
                unit = r[header.index("unit")] if header.index("unit") < len(r) else ""
                timing = timing_metric(tag, unit)
                content = tag in CONTENT_DEPENDENT
            if timing:
                continue
            idx = [j for j, h in enumerate(header) if h in (("total", "count", "Value") if server_metrics
                                                            else ("avg", "mean", "min", "max", "sum", "Value"))]
            uvals = [r[j] if j < len(r) else "" for j in idx]
            ovals = [o[j] if j < len(o) else "" for j in idx]
            if uvals == ovals:
                rows.add(c, s, f, f"row '{n}'", ",".join(uvals), ",".join(ovals), "equal")
                continue
            try:
                same_num = all(close(float(a), float(b), 1e-9) for a, b in zip(uvals, ovals) if a or b)
            except ValueError:
                same_num = False
            if same_num:
                rows.add(c, s, f, f"row '{n}'", ",".join(uvals), ",".join(ovals), "same value, printed differently")
            else:
                rows.add(c, s, f, f"row '{n}'", ",".join(uvals), ",".join(ovals),
                         "differs (prompt text)" if content else "differs")
    for i, sec in enumerate(os_):
        if tuple(sec[0]) not in {tuple(x[0]) for x in us}:
            if i >= len(us):
                rows.add(c, s, f, f"section {i + 1} [{','.join(sec[0][:4])}...]", None, "present", "ours only")


def read_jsonl(path: Path) -> list[dict]:
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


def compare_jsonl(rows: Rows, c, s, f, up: Path, ours: Path):
    u, o = read_jsonl(up), read_jsonl(ours)
    rows.add(c, s, f, "records", len(u), len(o), "equal" if len(u) == len(o) else "differs")

    def keys(recs, sub=None):
        ks = set()
        for r in recs:
            d = r if sub is None else r.get(sub) or {}
            if isinstance(d, dict):
                ks.update(d.keys())
        return ks

    for sub in (None, "metadata", "metrics"):
        uk, ok = keys(u, sub), keys(o, sub)
        where = "record keys" if sub is None else f"{sub} keys"
        missing = sorted(uk - ok)
        extra = sorted(ok - uk)
        rows.add(c, s, f, where, f"{len(uk)} keys", f"{len(ok)} keys",
                 "equal" if not missing and not extra else "differs")
        for k in missing:
            rows.add(c, s, f, f"{where}: {k}", "present", None, "missing in ours")
        for k in extra:
            rows.add(c, s, f, f"{where}: {k}", None, "present", "ours only")

    def values(recs, metric):
        vals = []
        for r in recs:
            m = (r.get("metrics") or {}).get(metric)
            if isinstance(m, dict):
                vals.append(m.get("value"))
        return sorted(v for v in vals if v is not None)

    for metric in ("input_sequence_length", "output_sequence_length", "output_token_count"):
        uv, ov = values(u, metric), values(o, metric)
        if uv or ov:
            rows.add(c, s, f, f"metrics.{metric} (multiset)", summarize(uv), summarize(ov),
                     "equal" if uv == ov else "differs")


def summarize(vals: list) -> str:
    if not vals:
        return "none"
    cnt = Counter(vals)
    return ", ".join(f"{k}x{n}" for k, n in sorted(cnt.items())[:6]) + (" ..." if len(cnt) > 6 else "")


def compare_inputs(rows: Rows, c, s, f, up: Path, ours: Path):
    u, o = json.loads(up.read_text()), json.loads(ours.read_text())
    rows.add(c, s, f, "top-level keys", ",".join(u), ",".join(o) if isinstance(o, dict) else type_name(o),
             "equal" if isinstance(o, dict) and list(u) == list(o) else "differs")
    ud, od = u.get("data", []), (o.get("data", []) if isinstance(o, dict) else [])
    rows.add(c, s, f, "data (sessions)", len(ud), len(od), "equal" if len(ud) == len(od) else "differs")
    if ud and od:
        compare_paths(rows, c, s, f, "data[0]", ud[0], od[0])


def files_of(d: Path) -> set[str]:
    if not d.exists():
        return set()
    return {str(p.relative_to(d)) for p in d.rglob("*") if p.is_file() and "logs" not in p.relative_to(d).parts}


def compare_dirs(rows: Rows, c, s, up: Path, ours: Path):
    uf, of = files_of(up), files_of(ours)
    for name in sorted(uf | of):
        if name in uf and name not in of:
            rows.add(c, s, name, "(file)", "present", None, "missing in ours")
        elif name in of and name not in uf:
            rows.add(c, s, name, "(file)", None, "present", "ours only")
        else:
            rows.add(c, s, name, "(file)", "present", "present", "equal")
    for name in sorted(uf & of):
        pu, po = up / name, ours / name
        try:
            if name.endswith("inputs.json"):
                compare_inputs(rows, c, s, name, pu, po)
            elif name.endswith(".json") and not name.startswith("."):
                ju, jo = json.loads(pu.read_text()), json.loads(po.read_text())
                if isinstance(ju, dict) and isinstance(jo, dict):
                    compare_aggregate_json(rows, c, s, name, ju, jo)
                else:
                    rows.add(c, s, name, "(root)", type_name(ju), type_name(jo),
                             "equal" if type_name(ju) == type_name(jo) else "shape differs")
            elif name.endswith(".csv"):
                ju = None
                compare_csv(rows, c, s, name, pu, po, ju)
            elif name.endswith(".jsonl"):
                compare_jsonl(rows, c, s, name, pu, po)
        except Exception as e:  # a file one tool wrote that the other cannot parse alike
            rows.add(c, s, name, "(parse)", "-", "-", f"not compared: {type(e).__name__}: {e}"[:120])


# ---------------------------------------------------------------- main

def load_cases(path: Path) -> list[tuple[str, list[str], str]]:
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, servers, args = (x.strip() for x in line.split("|", 2))
        cases.append((name, [x.strip() for x in servers.split(",")], args))
    return cases


def load_reasons(path: Path) -> list[tuple[str, str, re.Pattern, str]]:
    """reasons.tsv: (run glob, verdict prefix, file glob, key regex, the phrase of src-docs/migrating.md)."""
    reasons = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            run, verdict, file, key, phrase = line.split("\t")
            reasons.append((run, verdict, file, re.compile(key), phrase))
    return reasons


def reason_of(row, reasons) -> str | None:
    run, file, key, verdict = f"{row[0]}/{row[1]}", row[2].split("/")[-1], row[3], row[6]
    for r, v, f, k, phrase in reasons:
        if fnmatch.fnmatch(run, r) and verdict.startswith(v) and fnmatch.fnmatch(file, f) and k.search(key):
            return phrase
    return None


def is_equalish(verdict: str) -> bool:
    return verdict.startswith(("equal", "within", "same value"))


def write_results(rows: Rows, runs: list[dict], path: Path, upstream_version: str):
    reasons = load_reasons(HERE / "reasons.tsv")
    not_equal = [r for r in rows.rows if not is_equalish(r[6])]
    unexplained = [r for r in not_equal if reason_of(r, reasons) is None]
    verdicts = Counter(r[6].split(":")[0].split(";")[0] for r in rows.rows)
    equalish = sum(n for v, n in verdicts.items() if v.startswith("equal") or v.startswith("within")
                   or v.startswith("same value"))
    lines = [
        "# Parity: upstream AIPerf vs aiperf-java",
        "",
        f"Generated by `bench/parity/run.sh` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}); upstream "
        f"aiperf {upstream_version} from `bench/upstream/install.sh`. How to read it and what each difference "
        "means: [src-docs/migrating.md](../../src-docs/migrating.md).",
        "",
        f"**Headline:** {len({r['case'] for r in runs})} command lines, {len(runs)} runs (command x server); "
        f"{len(rows.rows)} rows compared: {equalish} equal or within tolerance, {len(rows.rows) - equalish} not; "
        f"of those, {len(not_equal) - len(unexplained)} have their reason documented in "
        f"[src-docs/migrating.md](../../src-docs/migrating.md) (column `reason`) and **{len(unexplained)} have none**.",
        "",
        "| verdict | rows |", "|---|---|",
    ]
    for v, n in verdicts.most_common():
        lines.append(f"| {v} | {n} |")
    lines += ["", "## Runs", "",
              "| command | server | upstream exit (s) | ours exit (s) | rows | equal/within | not |", "|---|---|---|---|---|---|---|"]
    for r in runs:
        rs = [x for x in rows.rows if x[0] == r["case"] and x[1] == r["server"]]
        ok = sum(1 for x in rs if x[6].startswith(("equal", "within", "same value")))
        lines.append(f"| `{r['case']}` | {r['server']} | {r['up_rc']} ({r['up_s']:.0f}) | {r['our_rc']} "
                     f"({r['our_s']:.0f}) | {len(rs)} | {ok} | {len(rs) - ok} |")
    lines += ["", "## Command lines", "", "Each adds `-m MODEL --url URL --artifact-dir DIR --ui-type none` and "
              "`--tokenizer builtin` (except `placeholder-model`).", "", "| command | args |", "|---|---|"]
    seen = set()
    for r in runs:
        if r["case"] not in seen:
            seen.add(r["case"])
            lines.append(f"| `{r['case']}` | `{r['args']}` |")
    lines += ["", "## Rows that are not equal", "",
              "Each file and key of upstream's output that is not in ours, or differs; `ours only` rows are keys "
              "and files aiperf-java adds. A row the same in several runs (same file name, key, values and verdict) "
              "is given once, with the runs it came from (command/server). Equal rows and timing rows within "
              "tolerance are counted above; every row is in `out/rows.tsv`. What each difference means: "
              "[src-docs/migrating.md](../../src-docs/migrating.md).", "",
              "| command | file | key | upstream | ours | verdict | reason (src-docs/migrating.md) |",
              "|---|---|---|---|---|---|---|"]
    grouped: dict[tuple, list[str]] = {}
    for r in rows.rows:
        if is_equalish(r[6]):
            continue
        grouped.setdefault((r[2].split("/")[-1], r[3], r[4], r[5], r[6], reason_of(r, reasons) or "**none**"),
                           []).append(f"{r[0]}/{r[1]}")
    for (file, key, up, ours, verdict, why), where in sorted(grouped.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        runs_text = ", ".join(where) if len(where) <= 3 else f"{len(where)} runs: {', '.join(where[:3])}, ..."
        lines.append(f"| {runs_text} | {file} | {key} | {up} | {ours} | {verdict} | {why.replace('|', '/')} |")
    path.write_text("\n".join(lines) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--venv", default=os.environ.get("AIPERF_UPSTREAM_VENV",
                                                     str(Path.home() / ".cache" / "aiperf-upstream")))
    ap.add_argument("--jar", default=str(REPO / "engine" / "target" / "aiperf.jar"))
    ap.add_argument("--cases", default=str(HERE / "cases.txt"))
    ap.add_argument("--only", nargs="*", help="case names to run")
    ap.add_argument("--servers", default="mock,llama", help="which servers to use (comma list)")
    ap.add_argument("--results", default=str(HERE / "RESULTS.md"))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite RESULTS.md from out/rows.tsv and out/runs.json without running anything")
    a = ap.parse_args()
    if a.report_only:
        rows = Rows()
        with open(OUT / "rows.tsv") as f:
            next(f)
            rows.rows = [tuple(line.rstrip("\n").split("\t")) for line in f]
        saved = json.loads((OUT / "runs.json").read_text())
        write_results(rows, saved["runs"], Path(a.results), saved["version"])
        return 0

    venv, jar = Path(a.venv), Path(a.jar)
    upstream = venv / "bin" / "aiperf"
    if not upstream.exists():
        log(f"no upstream aiperf at {upstream}: run bench/upstream/install.sh")
        return 2
    version = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "import importlib.metadata as m; print(m.version('aiperf'))"],
                             capture_output=True, text=True).stdout.strip()
    OUT.mkdir(exist_ok=True)
    data = OUT / "data"
    write_inputs(data)
    env = dict(os.environ)
    env.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TIKTOKEN_CACHE_DIR": str(tiktoken_cache(jar.parent, venv)),
                "NO_COLOR": "1", "TERM": "dumb"})
    cases = [c for c in load_cases(Path(a.cases)) if not a.only or c[0] in a.only]
    wanted = a.servers.split(",")
    rows, runs = Rows(), []
    for server_name in ("mock", "llama"):
        todo = [c for c in cases if server_name in c[1] and server_name in wanted]
        if not todo:
            continue
        try:
            server = make_server(server_name, jar)
        except RuntimeError as e:
            log(f"skipping {server_name}: {e}")
            continue
        with server:
            for name, _, args in todo:
                base = OUT / "runs" / server_name / name
                shutil.rmtree(base, ignore_errors=True)
                up_dir, our_dir = base / "upstream", base / "ours"
                base.mkdir(parents=True)
                log(f"[{server_name}] {name}: upstream ...")
                up_rc, up_s = run_tool("upstream", [str(upstream), "profile"]
                                       + case_argv(args, server, data, up_dir), env, base / "upstream.log", a.timeout)
                log(f"[{server_name}] {name}: upstream exit {up_rc} in {up_s:.0f}s; ours ...")
                our_rc, our_s = run_tool("ours", ["java", "-jar", str(jar), "profile"]
                                         + case_argv(args, server, data, our_dir), env, base / "ours.log", a.timeout)
                log(f"[{server_name}] {name}: ours exit {our_rc} in {our_s:.0f}s")
                runs.append({"case": name, "server": server_name, "args": args, "up_rc": up_rc, "up_s": up_s,
                             "our_rc": our_rc, "our_s": our_s})
                rows.add(name, server_name, "(exit code)", "exit", up_rc, our_rc,
                         "equal" if up_rc == our_rc else "differs")
                compare_dirs(rows, name, server_name, up_dir, our_dir)
    (OUT / "runs.json").write_text(json.dumps({"version": version, "runs": runs}, indent=1))
    with open(OUT / "rows.tsv", "w") as f:
        f.write("command\tserver\tfile\tkey\tupstream\tours\tverdict\n")
        for r in rows.rows:
            f.write("\t".join(r) + "\n")
    write_results(rows, runs, Path(a.results), version)
    log(f"wrote {a.results} ({len(rows.rows)} rows) and {OUT / 'rows.tsv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
