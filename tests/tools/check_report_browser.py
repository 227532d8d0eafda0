#!/usr/bin/env python3
"""Opens tilexform's HTML reports in headless Chromium, through the DevTools
protocol over a pipe (no port, no network), with JavaScript disabled, and
checks what a person would see: the page loaded with nothing fetched but
itself, no console error, the verdict shown, and in a verify report the
outlined cells exactly the elements the two layouts place differently
(worked out again here from `layout --table`). The DOM and a screenshot of
each page are written to OUT_DIR.

usage: check_report_browser.py TILEXFORM CHROMIUM CORPUS_DIR OUT_DIR
"""
import base64
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser

TIMEOUT = 60  # seconds for one page, start to screenshot


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


class Browser:
    """One Chromium with a fresh profile, driven over --remote-debugging-pipe."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="tilexform-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # Chromium reads commands on fd 3 and writes replies on fd 4.
        # (through fresh copies: a pipe may already be fd 3 or 4, and dup2 of
        # an fd onto itself would leave it closed on exec).
        def fds():
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--user-data-dir=" + self.profile,
             "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
             "--hide-scrollbars", "--window-size=1400,1000", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # close_fds would close 3 and 4 after the dup2 above.
            preexec_fn=fds, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT

    def _read_message(self):
        while b"\0" not in self.buffer:
            if time.monotonic() > self.deadline:
                fail("Chromium did not answer in time")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                fail("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    fail(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                del self.events[i]
                return e
        while True:
            e = self._read_message()
            self.events.append(e)
            if e.get("method") == method:
                self.events.pop()
                return e

    def close(self):
        try:
            self.send("Browser.close")
        except (SystemExit, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def open_page(chromium, path, out_prefix):
    """Loads `path`; returns (DOM text, problems) and writes the DOM and a PNG."""
    url = "file://" + os.path.abspath(path)
    b = Browser(chromium)
    try:
        targets = b.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        s = b.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})[
            "sessionId"]
        for domain in ("Page", "Network", "Log", "Runtime"):
            b.send(domain + ".enable", session=s)
        b.send("Emulation.setScriptExecutionDisabled", {"value": True}, session=s)
        b.events.clear()
        b.send("Page.navigate", {"url": url}, session=s)
        b.wait_for("Page.loadEventFired")
        doc = b.send("DOM.getDocument", {"depth": 0}, session=s)["root"]
        dom = b.send("DOM.getOuterHTML", {"nodeId": doc["nodeId"]}, session=s)["outerHTML"]
        shot = b.send("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
        problems = []
        for e in b.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Network.requestWillBeSent" and p["request"]["url"] != url:
                problems.append("fetched " + p["request"]["url"])
            elif m == "Network.loadingFailed":
                problems.append("a load failed: " + p.get("errorText", ""))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                problems.append("console " + p["type"] + ": " + json.dumps(p.get("args")))
            elif m == "Runtime.exceptionThrown":
                problems.append("exception: " + json.dumps(p.get("exceptionDetails")))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                problems.append("console " + p["entry"]["level"] + ": " + p["entry"]["text"])
    finally:
        b.close()
    with open(out_prefix + ".dom.html", "w") as f:
        f.write(dom)
    png = base64.b64decode(shot)
    with open(out_prefix + ".png", "wb") as f:
        f.write(png)
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: the screenshot is not a PNG")
    width, height = struct.unpack(">II", png[16:24])
    return dom, problems, (width, height)


class Cells(HTMLParser):
    """The verdict, and every drawn cell per figure of the rendered DOM."""

    def __init__(self):
        super().__init__()
        self.verdict = None
        self.in_verdict = False
        self.figure = None
        self.cells = {}  # figure id -> {element: (owners, outlined)}
        self.sections = {}  # section id -> attributes

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "verdict":
            self.in_verdict = True
        if tag == "section":
            self.sections[a.get("id")] = a
        if tag == "figure":
            self.figure = a.get("id")
            self.cells[self.figure] = {}
        if tag == "rect" and "cell" in a.get("class", "").split():
            classes = a["class"].split()
            self.cells[self.figure][a["data-element"]] = (a["data-owners"], "differs" in classes)

    def handle_endtag(self, tag):
        if tag == "figure":
            self.figure = None

    def handle_data(self, data):
        if self.in_verdict and data.strip():
            self.verdict = data.strip()
            self.in_verdict = False


def owners_by_element(tool, attr, shape):
    run = subprocess.run([tool, "layout", "--attr", attr, "--shape", "x".join(map(str, shape)),
                          "--table", "--format", "json"], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        fail(f"layout --attr {attr}: exit {run.returncode}: {run.stderr.strip()}")
    table = json.loads(run.stdout)["table"]
    key = lambda o: json.dumps(o, sort_keys=True)
    return {",".join(map(str, r["element"])): sorted(map(key, r["owners"])) for r in table}


def check_page(chromium, path, out_prefix, want_verdict):
    dom, problems, (w, h) = open_page(chromium, path, out_prefix)
    if problems:
        fail(f"{path}: " + "; ".join(problems))
    parsed = Cells()
    parsed.feed(dom)
    if parsed.verdict != want_verdict:
        fail(f"{path}: the page shows the verdict {parsed.verdict}, expected {want_verdict}")
    print(f"{os.path.basename(path)}: loaded offline, no console error, verdict {parsed.verdict}, "
          f"screenshot {w}x{h}")
    return parsed


def main():
    tool, chromium, corpus, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    plain = os.path.join(corpus, "sm90", "vadd_b1024_w4.ttgir")
    anchor = os.path.join(corpus, "sm90", "gluon_vadd_narrow_b1024_w4.ttgir")
    report = os.path.join(out, "verify.html")
    run = subprocess.run([tool, "verify", plain, anchor, "--html", report, "--force", "--format",
                          "json"], capture_output=True, text=True)
    doc = json.loads(run.stdout)
    parsed = check_page(chromium, report, os.path.join(out, "verify"), doc["verdict"])
    if not doc["differences"]:
        fail("the verify report has no difference to look at")
    for n, d in enumerate(doc["differences"], 1):
        shape = d["plain"]["shapes"][0]
        mine = owners_by_element(tool, d["plain"]["attr"], shape)
        theirs = owners_by_element(tool, d["anchor"]["attr"], shape)
        differing = {e for e in mine if mine[e] != theirs.get(e)}
        for side in ("plain", "anchor"):
            cells = parsed.cells.get(f"difference-{n}-{side}")
            if cells is None:
                fail(f"difference {n}: no {side} picture in the page")
            if len(cells) != math.prod(shape):
                fail(f"difference {n}: the {side} picture has {len(cells)} cells, not "
                     f"{math.prod(shape)}")
            outlined = {e for e, (_, differs) in cells.items() if differs}
            if outlined != differing:
                fail(f"difference {n}: {len(outlined)} cells outlined in the {side} picture, "
                     f"{len(differing)} elements differ; e.g. "
                     f"{sorted(outlined ^ differing)[:5]}")
        print(f"difference {n}: {len(differing)} of {len(mine)} elements differ, exactly those "
              f"outlined in both pictures")

    matmul = os.path.join(corpus, "sm90", "matmul_f16_128x128x64_w4_s3.ttgir")
    report = os.path.join(out, "recover.html")
    run = subprocess.run([tool, "recover", matmul, "--html", report, "--force", "--format",
                          "json"], capture_output=True, text=True)
    doc = json.loads(run.stdout)
    parsed = check_page(chromium, report, os.path.join(out, "recover"), doc["verdict"])
    pictures = [f for f in parsed.cells if f and f.endswith("-picture") and parsed.cells[f]]
    if len(pictures) != len(doc["layouts"]):
        fail(f"the recover report draws {len(pictures)} of {len(doc['layouts'])} layouts")
    if "shared-timeline" not in open(report).read():
        fail("the recover report has no shared-memory timeline")
    print(f"recover.html: {len(pictures)} layouts drawn")


if __name__ == "__main__":
    main()
