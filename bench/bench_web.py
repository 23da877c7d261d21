"""How long the web page takes, as a player sees it, in a real headless Chromium.

Two figures, each over several generated photos (held-out artwork style) at phone size:

* photo -> score: from choosing the photo to the score being shown (browser-side shrink
  to 3000 px, upload, recognition, first scoring, rendering);
* correction -> score: from picking another face for a tile to the new score shown.

Run (prints the medians and the 95th percentiles)::

    python bench/bench_web.py --photos 8 --size 4000x3000
"""

from __future__ import annotations

import argparse
import io
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: import the checkout's packages (datasets/)
    sys.path.insert(0, str(ROOT))

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def _photos(count: int, size: tuple[int, int], folder: Path) -> list[Path]:
    """Phone-size JPEGs: scenes drawn at 1600x1200 and enlarged (drawing at 12 MP is slow)."""
    from PIL import Image

    from datasets.scenes import generate_scene

    paths = []
    for i in range(count):
        scene = generate_scene(100 + i, size=(1600, 1200))
        big = Image.fromarray(scene.image).resize(size, Image.Resampling.BILINEAR)
        buf = io.BytesIO()
        big.save(buf, "JPEG", quality=90)
        path = folder / f"photo_{i}.jpg"
        path.write_bytes(buf.getvalue())
        paths.append(path)
    return paths


def _serve() -> tuple[str, object]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config("api.app:create_app", factory=True, host="127.0.0.1",
                                           port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=8, help="photos to upload (one each)")
    parser.add_argument("--size", default="4000x3000", help="photo size, WxH")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))

    from playwright.sync_api import sync_playwright

    base, server = _serve()
    upload: list[float] = []
    correct: list[float] = []
    states: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        photos = _photos(args.photos, (width, height), Path(tmp))
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(60_000)
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready=true]")
        done = "#score[data-state=valid], #score[data-state=invalid], #error:not([hidden])"
        for path in photos:
            page.evaluate("document.getElementById('score').dataset.state = 'pending'")
            start = time.perf_counter()
            page.locator("#photo-file").set_input_files(str(path))
            page.wait_for_selector(done)
            upload.append(time.perf_counter() - start)
            state = page.locator("#score").get_attribute("data-state") or "error"
            states[state] = states.get(state, 0) + 1
            if page.locator("#groups .tile[data-id]").count() == 0:
                continue
            start = time.perf_counter()
            page.locator("#groups .tile[data-id]").first.click()
            page.locator("#palette .tile[data-code='1f']").click()
            page.wait_for_function("document.getElementById('score').dataset.state !== 'pending'")
            correct.append(time.perf_counter() - start)
        browser.close()
    server.should_exit = True  # type: ignore[attr-defined]

    print(f"web page, headless Chromium, {args.photos} photos of {width}x{height} (JPEG q90)")
    print(f"  photo -> score shown:      median {statistics.median(upload):.2f} s, "
          f"p95 {_p95(upload):.2f} s")
    if correct:
        print(f"  correction -> new score:   median {statistics.median(correct) * 1000:.0f} ms, "
              f"p95 {_p95(correct) * 1000:.0f} ms")
    print(f"  first verdicts: {states}")
    print(f"reproduce: python bench/bench_web.py --photos {args.photos} --size {args.size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
