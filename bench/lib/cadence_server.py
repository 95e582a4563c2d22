#!/usr/bin/env python3
"""A streaming chat-completions server with a known cadence, for timing-fidelity benchmarks.

It is not the client's JVM, so its own jitter is never blamed on the client: every content event it sends is
stamped (time.time_ns(), just before the write) and the stamps are written to --stamps as
"request_id index send_ns" lines when the server gets SIGTERM or GET /flush. The first request's arrival is
stamped too (GET /first returns it), for the time-to-first-request figure.

Each POST answers with --tokens events: the first after --ttft-ms, the rest every --itl-ms, then [DONE].
"""
import argparse
import asyncio
import json
import signal
import sys
import time

args = None
stamps = []
first_arrival = [0]


def event(text):
    body = json.dumps({"id": "c", "object": "chat.completion.chunk", "model": "m",
                       "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})
    return ("data: " + body + "\n\n").encode()


TOKEN = None
DONE = b"data: [DONE]\n\n"


def chunk(payload):
    return b"%x\r\n%s\r\n" % (len(payload), payload)


async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            if not first_arrival[0] and head.startswith(b"POST"):
                first_arrival[0] = time.time_ns()
            lines = head.decode("latin-1").split("\r\n")
            method, path = lines[0].split(" ")[:2]
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    headers[k.strip().lower()] = v.strip()
            n = int(headers.get("content-length", "0"))
            if n:
                await reader.readexactly(n)
            if method == "GET":
                body = b""
                if path == "/flush":
                    flush()
                elif path == "/reset":
                    stamps.clear()
                    first_arrival[0] = 0
                elif path == "/first":
                    body = str(first_arrival[0]).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                await writer.drain()
                continue
            rid = headers.get("x-request-id", "?")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            loop = asyncio.get_running_loop()
            start = loop.time()
            for i in range(args.tokens):
                due = start + (args.ttft_ms + i * args.itl_ms) / 1000.0
                delay = due - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                stamps.append((rid, i, time.time_ns()))  # just before the write
                writer.write(chunk(TOKEN))
            writer.write(chunk(DONE) + b"0\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


def flush():
    with open(args.stamps, "w") as f:
        for rid, i, t in stamps:
            f.write("%s %d %d\n" % (rid, i, t))


async def main():
    global args, TOKEN
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ttft-ms", type=float, default=50)
    p.add_argument("--itl-ms", type=float, default=10)
    p.add_argument("--tokens", type=int, default=20)
    p.add_argument("--stamps", required=True)
    args = p.parse_args()
    TOKEN = event("tok ")
    server = await asyncio.start_server(handle, "127.0.0.1", args.port, backlog=4096, limit=1 << 20)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    async with server:
        await stop.wait()
    flush()


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
