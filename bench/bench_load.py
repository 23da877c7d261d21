"""Load benchmark of the HTTP service: N concurrent clients posting phone-size photos.

Starts ``mjlens serve``'s app under uvicorn on a free localhost port (or uses
``--url``), sends a fixed number of requests from ``--clients`` concurrent
clients, and prints throughput, median and 95th-percentile latency, the
errors, and the server's resident memory (peak, and sampled along the run so
that a leak shows as a rising series). It stops by itself: after
``--requests`` requests or ``--timeout`` seconds, whichever comes first.

Photos are generated scenes (``datasets.scenes``) at phone resolution, saved as
JPEG once under ``build/bench_load/``.

Run::

    python bench/bench_load.py --clients 8 --requests 500 --size 4032x3024
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import shlex
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere: import the checkout's packages
    sys.path.insert(0, str(ROOT))


@dataclass
class MemoryWatch:
    """Samples the RSS of a process and its children (the uvicorn workers) in a thread."""

    pid: int
    interval: float = 0.1
    peak: int = 0
    latest: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.latest = tree_rss(self.pid)
            self.peak = max(self.peak, self.latest)
            self._stop.wait(self.interval)


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants, from /proc."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                stack.extend(int(c) for c in children)
    return total


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` and its live descendants, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    stack = [pid]
    while stack:
        p = stack.pop()
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            for task in Path(f"/proc/{p}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_photos(count: int, size: tuple[int, int]) -> list[bytes]:
    """Phone-size JPEGs of generated hands, cached on disk (rendering 12 MP takes a while)."""
    folder = ROOT / "build" / "bench_load"
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for seed in range(count):
        path = folder / f"scene-{seed}-{size[0]}x{size[1]}.jpg"
        if not path.exists():
            from PIL import Image

            from datasets.scenes import generate_scene

            scene = generate_scene(1000 + seed, size=size, compress=False)
            buf = io.BytesIO()
            Image.fromarray(scene.image).save(buf, "JPEG", quality=90)
            path.write_bytes(buf.getvalue())
        photos.append(path.read_bytes())
    return photos


def start_server(port: int, workers: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "uvicorn", "api.app:create_app", "--factory",
           "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
           "--log-level", "warning"]
    return subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env})


def wait_healthy(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"the server at {url} did not become healthy in {timeout:.0f} s")


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int | str] = field(default_factory=Counter)
    memory: list[tuple[int, int]] = field(default_factory=list)
    healthz: list[float] = field(default_factory=list)


async def run_load(url: str, endpoint: str, photos: list[bytes], clients: int, total: int,
                   timeout: float, watch: MemoryWatch | None, sample_every: int) -> Results:
    results = Results()
    issued = 0
    done = 0
    deadline = time.monotonic() + timeout
    limits = httpx.Limits(max_connections=clients + 1)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:

        async def client() -> None:
            nonlocal issued, done
            while issued < total and time.monotonic() < deadline:
                n = issued
                issued += 1
                photo = photos[n % len(photos)]
                t0 = time.perf_counter()
                try:
                    r = await http.post(endpoint, files={"photo": ("hand.jpg", photo,
                                                                   "image/jpeg")})
                    status: int | str = r.status_code
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                results.latencies.append(time.perf_counter() - t0)
                results.statuses[status] += 1
                done += 1
                if watch is not None and done % sample_every == 0:
                    results.memory.append((done, watch.latest))

        async def probe_health() -> None:
            """/healthz must answer quickly while photos are being processed."""
            while done < total and time.monotonic() < deadline:
                t0 = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):
                    await http.get("/healthz")
                    results.healthz.append(time.perf_counter() - t0)
                await asyncio.sleep(0.5)

        await asyncio.gather(probe_health(), *(client() for _ in range(clients)))
    return results


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--requests", type=int, default=500, help="requests in all")
    parser.add_argument("--size", default="4032x3024", help="photo size WxH (12 MP default)")
    parser.add_argument("--photos", type=int, default=4, help="distinct photos to cycle")
    parser.add_argument("--endpoint", default="/api/v1/recognize",
                        choices=["/api/v1/recognize", "/api/v1/scan"])
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--url", default=None, help="benchmark a running server instead")
    parser.add_argument("--pid", type=int, default=None, help="its pid, to watch its memory")
    parser.add_argument("--timeout", type=float, default=900, help="stop after this long (s)")
    parser.add_argument("--warmup", type=int, default=4, help="untimed requests first")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    print(f"preparing {args.photos} photos of {width}x{height} ...", flush=True)
    photos = make_photos(args.photos, (width, height))
    server = None
    pid = args.pid
    url = args.url
    if url is None:
        port = free_port()
        server = start_server(port, args.workers, {})
        pid = server.pid
        url = f"http://127.0.0.1:{port}"
    watch = MemoryWatch(pid) if pid else None
    try:
        wait_healthy(url, 60)
        for i in range(args.warmup):  # load the model in every worker
            httpx.post(f"{url}{args.endpoint}", timeout=120,
                       files={"photo": ("hand.jpg", photos[i % len(photos)], "image/jpeg")})
        if watch is not None:
            watch.start()
            time.sleep(0.3)
        rss_start = watch.latest if watch else 0
        cpu_start = tree_cpu_seconds(pid) if pid else 0.0
        t0 = time.perf_counter()
        results = asyncio.run(run_load(url, args.endpoint, photos, args.clients, args.requests,
                                       args.timeout, watch, max(1, args.requests // 10)))
        elapsed = time.perf_counter() - t0
        cpu_used = tree_cpu_seconds(pid) - cpu_start if pid else 0.0
    finally:
        if watch is not None:
            watch.stop()
        if server is not None:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()

    n = len(results.latencies)
    ok = results.statuses.get(200, 0)
    mb = 1024 * 1024
    print(f"\n{n} requests to {args.endpoint}, {args.clients} concurrent clients, "
          f"{width}x{height} JPEG ({sum(map(len, photos)) / len(photos) / 1e6:.1f} MB avg), "
          f"{args.workers} worker(s), {os.cpu_count()} CPUs")
    print(f"  statuses:    {dict(results.statuses)}  errors: {n - ok}")
    print(f"  throughput:  {n / elapsed:.2f} requests/s over {elapsed:.1f} s")
    print(f"  latency:     median {statistics.median(results.latencies):.3f} s, "
          f"p95 {percentile(results.latencies, 0.95):.3f} s, "
          f"max {max(results.latencies):.3f} s")
    if cpu_used:
        per_request = cpu_used / max(1, n)
        print(f"  server CPU:  {per_request:.3f} CPU-s per request "
              f"(so about {(os.cpu_count() or 1) / per_request:.1f} requests/s if the server "
              "had every core to itself)")
    if results.healthz:
        print(f"  /healthz during load: median {statistics.median(results.healthz) * 1000:.0f} "
              f"ms, max {max(results.healthz) * 1000:.0f} ms ({len(results.healthz)} probes)")
    if watch is not None:
        print(f"  server RSS:  start {rss_start / mb:.0f} MiB, peak {watch.peak / mb:.0f} MiB, "
              f"end {watch.latest / mb:.0f} MiB")
        series = ", ".join(f"{d}:{m / mb:.0f}" for d, m in results.memory)
        print(f"  RSS (MiB) after N requests: {series}")
    print("\nreproduce: python " + " ".join(shlex.quote(a) for a in
                                            [str(Path(__file__).relative_to(ROOT)),
                                             *(argv if argv is not None else sys.argv[1:])]))
    return 0 if ok == n else 1


if __name__ == "__main__":
    sys.exit(main())
