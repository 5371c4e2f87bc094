#!/usr/bin/env python3
"""An open-loop load generator (what wrk2 does; Debian has only wrk): sends
POST requests at a fixed rate over a fixed number of keep-alive connections,
whatever the server's pace, and measures each request's latency from the
moment it was due, not from the moment a connection was free to send it, so
that a server falling behind shows in the latency (no coordinated omission).

    /usr/bin/python3 Benchmarks/serve/open_loop.py URL PICTURE --rate R [--seconds 10] [--connections 8]

URL is the full address, e.g. http://127.0.0.1:8080/v1/classify. Prints one
line: RESULT {"rate": R, "sent": N, "completed": N, "non_200": N,
"achieved_rate": X, "p50_ms": ..., "p90_ms": ..., "p99_ms": ..., "max_ms": ...}.
Standard library only.
"""

import argparse
import asyncio
import json
import time
from urllib.parse import urlsplit


async def read_response(reader):
    """The status code of one HTTP/1.1 response, its body read off the stream."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    return status, headers.get("connection", "").lower() == "close"


def percentile(ordered, q):
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(url, body, content_type, rate, seconds, connections):
    parts = urlsplit(url)
    host, port = parts.hostname, parts.port or 80
    request = (f"POST {parts.path or '/'}{'?' + parts.query if parts.query else ''} HTTP/1.1\r\n"
               f"Host: {host}:{port}\r\nContent-Type: {content_type}\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    due = asyncio.Queue()
    latencies, failures = [], [0]
    total = int(rate * seconds)

    async def worker():
        reader = writer = None
        while True:
            scheduled = await due.get()
            if scheduled is None:
                break
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(host, port)
                writer.write(request)
                status, close = await read_response(reader)
                if close:
                    writer.close()
                    reader = writer = None
            except (OSError, asyncio.IncompleteReadError, ValueError):
                status = 0
                if writer is not None:
                    writer.close()
                reader = writer = None
            latencies.append(time.perf_counter() - scheduled)
            if status != 200:
                failures[0] += 1
        if writer is not None:
            writer.close()

    workers = [asyncio.create_task(worker()) for _ in range(connections)]
    start = time.perf_counter()
    for i in range(total):
        scheduled = start + i / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        due.put_nowait(scheduled)
    for _ in workers:
        due.put_nowait(None)
    await asyncio.gather(*workers)
    elapsed = time.perf_counter() - start
    ordered = sorted(latencies)
    return {
        "rate": rate, "sent": total, "completed": len(latencies), "non_200": failures[0],
        "achieved_rate": round(len(latencies) / elapsed, 1),
        "p50_ms": round(percentile(ordered, 0.50) * 1e3, 3),
        "p90_ms": round(percentile(ordered, 0.90) * 1e3, 3),
        "p99_ms": round(percentile(ordered, 0.99) * 1e3, 3),
        "max_ms": round(ordered[-1] * 1e3, 3) if ordered else None,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("picture")
    parser.add_argument("--rate", type=float, required=True, help="requests per second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    with open(args.picture, "rb") as f:
        body = f.read()
    content_type = "image/jpeg" if args.picture.lower().endswith((".jpg", ".jpeg")) else "image/png"
    result = asyncio.run(run(args.url, body, content_type, args.rate, args.seconds, args.connections))
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
