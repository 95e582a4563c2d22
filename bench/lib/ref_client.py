#!/usr/bin/env python3
"""A minimal streaming client, the reference for chunk-stamp fidelity: one thread and one blocking socket per
stream, each read stamped (time.time_ns()) as it returns, nothing else on the reading thread. Writes
"request_id index recv_ns" per content event to --out.

Usage: ref_client.py --port P --concurrency C --requests-per-stream N --out FILE
"""
import argparse
import socket
import threading
import time

BODY = b'{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'


def stream(port, worker, count, out, lock):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    rows = []
    for r in range(count):
        rid = "ref-%d-%d" % (worker, r)
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"X-Request-ID: " + rid.encode() + b"\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY)
        buf = b""
        index = 0
        done = False
        while not (done and buf.endswith(b"0\r\n\r\n")):
            data = s.recv(65536)
            now = time.time_ns()
            if not data:
                return
            buf += data
            # Every content event that completed in this read carries this read's stamp.
            while b"\n\n" in buf:
                ev, buf = buf.split(b"\n\n", 1)
                if b'"content"' in ev:
                    rows.append((rid, index, now))
                    index += 1
                elif b"[DONE]" in ev:
                    done = True
    s.close()
    with lock:
        out.extend(rows)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--concurrency", type=int, required=True)
    p.add_argument("--requests-per-stream", type=int, default=4)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    rows, lock = [], threading.Lock()
    threads = [threading.Thread(target=stream, args=(a.port, w, a.requests_per_stream, rows, lock))
               for w in range(a.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(a.out, "w") as f:
        for rid, i, t in rows:
            f.write("%s %d %d\n" % (rid, i, t))


if __name__ == "__main__":
    main()
