#!/usr/bin/env python3
"""A streaming chat-completions server with a known cadence, for timing-fidelity benchmarks.

It is not the client's JVM, so its own jitter is never blamed on the client: every content event it sends is
stamped (time.time_ns(), just before the write) and the stamps are written to --stamps as
"request_id index send_ns" lines when the server gets SIGTERM or GET /flush. Each request's arrival (its head
read) is stamped as index -1, so the server's own TTFT is known for clients that send no X-Request-ID too (those
requests get an id of the server's, "srv-N"). The first request's arrival is stamped too (GET /first returns it),
for the time-to-first-request figure. GET /v1/models lists the one model "m", for clients that ask first.

Each POST answers with --tokens events: the first after --ttft-ms, the rest every --itl-ms, then [DONE]; chat
completion chunks, or text completion chunks on /v1/completions.
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
counter = [0]
MODELS = b'{"object":"list","data":[{"id":"m","object":"model","created":1,"owned_by":"bench"}]}'


def event(text, completion=False):
    if completion:  # /v1/completions: the text completion chunk
        body = json.dumps({"id": "c", "object": "text_completion", "model": "m",
                           "choices": [{"index": 0, "text": text, "finish_reason": None}]})
    else:
        body = json.dumps({"id": "c", "object": "chat.completion.chunk", "model": "m",
                           "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]})
    return ("data: " + body + "\n\n").encode()


TOKEN = None
TEXT_TOKEN = None
DONE = b"data: [DONE]\n\n"


def chunk(payload):
    return b"%x\r\n%s\r\n" % (len(payload), payload)


async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            arrived = time.time_ns()
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
                elif path.startswith("/v1/models"):
                    body = MODELS
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                             % (len(body), body))
                await writer.drain()
                continue
            if method != "POST":  # HEAD, OPTIONS: an empty answer, not a request
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
                continue
            if not first_arrival[0]:
                first_arrival[0] = arrived
            rid = headers.get("x-request-id")
            if not rid:
                counter[0] += 1
                rid = "srv-%d" % counter[0]
            stamps.append((rid, -1, arrived))
            token = TEXT_TOKEN if path.startswith("/v1/completions") else TOKEN
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            loop = asyncio.get_running_loop()
            start = loop.time()
            for i in range(args.tokens):
                due = start + (args.ttft_ms + i * args.itl_ms) / 1000.0
                delay = due - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                stamps.append((rid, i, time.time_ns()))  # just before the write
                writer.write(chunk(token))
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
    global args, TOKEN, TEXT_TOKEN
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ttft-ms", type=float, default=50)
    p.add_argument("--itl-ms", type=float, default=10)
    p.add_argument("--tokens", type=int, default=20)
    p.add_argument("--stamps", required=True)
    args = p.parse_args()
    # " tok" is one token in o200k_base (and in most BPE vocabularies), so --tokens events are --tokens tokens
    TOKEN = event(" tok")
    TEXT_TOKEN = event(" tok", completion=True)
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
