#!/usr/bin/env python3
"""Checks a catalog preview page (index.html) in headless Chromium over the DevTools protocol.

    scripts/preview-check.py dist/index.html [--probe TRACK_ID=SECONDS]... [--play TRACK_ID=SECONDS]...
                             [--fail-on-cue-error] [--timeout SECONDS]

Opens the page from disk (file://), collects console errors, uncaught exceptions
and failed loads, checks that every <audio src> and <img src> it references
exists on disk, then for each --probe seeks that track's <audio> to SECONDS,
waits for its 'seeked' event and reads the ring's state back from the DOM.
--play seeks to SECONDS, plays about a second, pauses and reads the state with
the audio's currentTime at that moment (the ring must follow the audio clock).

Prints one JSON object on stdout. Exit status: 0 when the page is clean, 1 on
any console error, exception, failed load, missing file, failed probe (or a
cue error with --fail-on-cue-error), 2 on bad arguments, 3 when Chromium or
python3-websocket is missing (run scripts/setup.sh).

Uses only the standard library and websocket-client (Debian: python3-websocket).
Chromium runs in its own process group, which is always killed at the end.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

# Debian's python3-websocket lives in /usr/lib/python3/dist-packages: when another
# python3 comes first on PATH (pyenv, a venv), run again with the system one.
try:
    import websocket  # websocket-client
except ImportError:
    system_python = "/usr/bin/python3"
    if (os.environ.get("PREVIEW_CHECK_REEXEC") != "1" and os.path.exists(system_python)
            and os.path.realpath(sys.executable) != os.path.realpath(system_python)):
        os.environ["PREVIEW_CHECK_REEXEC"] = "1"
        os.execv(system_python, [system_python] + sys.argv)
    sys.stderr.write("preview-check: the Python module 'websocket' (websocket-client) is not installed "
                     "for %s: run scripts/setup.sh (it installs python3-websocket and chromium)\n" % sys.executable)
    sys.exit(3)


class Timeout(Exception):
    pass


class Stopped(Exception):
    """The whole check's time limit, or a signal: ends the check, not just one probe."""


class CDP:
    """A minimal DevTools protocol client: commands by id, events queued."""

    def __init__(self, url, deadline):
        self.deadline = deadline
        # Chromium refuses websocket handshakes that carry an Origin it was not told to allow.
        self.ws = websocket.create_connection(url, timeout=self._left(), suppress_origin=True)
        self.next_id = 0
        self.events = []

    def _left(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Timeout("the check ran out of time")
        return left

    def _receive(self, limit):
        self.ws.settimeout(max(0.01, min(limit, self._left())))
        try:
            text = self.ws.recv()
        except websocket.WebSocketTimeoutException:
            return None
        return json.loads(text)

    def call(self, method, params=None, timeout=10.0):
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params or {}}))
        until = min(self.deadline, time.monotonic() + timeout)
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise Timeout("no answer to %s within %.0f s" % (method, timeout))
            message = self._receive(left)
            if message is None:
                continue
            if message.get("id") == mine:
                if "error" in message:
                    raise RuntimeError("%s failed: %s" % (method, message["error"].get("message")))
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_event(self, method, timeout):
        until = min(self.deadline, time.monotonic() + timeout)
        for i, event in enumerate(self.events):
            if event["method"] == method:
                return self.events.pop(i)
        while time.monotonic() < until:
            message = self._receive(until - time.monotonic())
            if message is None:
                continue
            if message.get("method") == method:
                return message
            if "method" in message:
                self.events.append(message)
        raise Timeout("no %s event within %.0f s" % (method, timeout))

    def drain(self, seconds):
        until = min(self.deadline, time.monotonic() + seconds)
        while time.monotonic() < until:
            message = self._receive(until - time.monotonic())
            if message is not None and "method" in message:
                self.events.append(message)

    def evaluate(self, expression, timeout=10.0):
        """Evaluates an expression (awaiting a promise) and returns its JSON value."""
        result = self.call("Runtime.evaluate", {
            "expression": expression, "awaitPromise": True, "returnByValue": True, "timeout": int(timeout * 1000),
        }, timeout=timeout + 2)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise RuntimeError("page script failed: %s" % text)
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


def problems_in(events):
    """Console errors, exceptions and failed loads among the queued events."""
    found = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") == "error":
                found.append({"kind": "log", "source": entry.get("source"), "text": entry.get("text"), "url": entry.get("url")})
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            found.append({"kind": "exception", "text": text, "line": details.get("lineNumber")})
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            parts = [a.get("value", a.get("description", "")) for a in params.get("args", [])]
            found.append({"kind": "console." + params.get("type"), "text": " ".join(str(p) for p in parts)})
    return found


# Reads the page: every track's state, and every resource it references.
PAGE_STATE = r"""
(() => {
  const ringState = (track) => {
    const ring = track.querySelector(".ring");
    const label = track.querySelector(".phase-label");
    const error = track.querySelector(".cue-error");
    const audio = track.querySelector("audio");
    return {
      id: track.getAttribute("data-track-id"),
      cue_status: track.getAttribute("data-cue-status"),
      cue_error: error ? error.textContent : null,
      label: label ? label.textContent : null,
      phase_kind: ring ? ring.getAttribute("data-phase-kind") : null,
      phase_index: ring ? ring.getAttribute("data-phase-index") : null,
      section: ring ? ring.getAttribute("data-section") : null,
      progress: ring ? ring.getAttribute("data-progress") : null,
      scale: ring ? ring.getAttribute("data-scale") : null,
      transform: ring ? ring.style.transform : null,
      current_time: audio ? audio.currentTime : null,
      audio_error: audio && audio.error ? audio.error.code : null,
    };
  };
  window.__previewRingState = ringState;
  const urls = [];
  for (const el of document.querySelectorAll("audio[src], img[src], source[src], video[src], script[src], iframe[src]")) {
    urls.push({ tag: el.tagName.toLowerCase(), url: el.src });
  }
  for (const el of document.querySelectorAll("link[href]")) urls.push({ tag: "link", url: el.href });
  return {
    title: document.title,
    tracks: Array.from(document.querySelectorAll("[data-track-id]"), ringState),
    resources: urls,
  };
})()
"""

SEEK = r"""
(async () => {
  const id = %(id)s, seconds = %(seconds)s, play = %(play)s;
  const track = Array.from(document.querySelectorAll("[data-track-id]")).find((t) => t.getAttribute("data-track-id") === id);
  if (!track) throw new Error("no track with data-track-id " + JSON.stringify(id));
  const audio = track.querySelector("audio");
  if (!audio) throw new Error("track " + JSON.stringify(id) + " has no <audio>");
  const once = (name, ms) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no '" + name + "' event within " + ms + " ms (audio error: " +
      (audio.error ? audio.error.code : "none") + ")")), ms);
    audio.addEventListener(name, () => { clearTimeout(timer); resolve(); }, { once: true });
  });
  if (audio.readyState < 1) { const ready = once("loadedmetadata", 8000); audio.load(); await ready; }
  const seeked = once("seeked", 8000);
  audio.currentTime = seconds;
  await seeked;
  let played = null;
  if (play) {
    await audio.play();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const paused = once("pause", 4000);
    audio.pause();
    await paused;
    played = audio.currentTime;
  }
  // let the page's own listeners and one animation frame run
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const state = window.__previewRingState(track);
  state.requested = seconds;
  state.played_until = played;
  return state;
})()
"""


def parse_probe(text, option):
    track, sep, seconds = text.rpartition("=")
    try:
        value = float(seconds)
    except ValueError:
        value = None
    if not sep or not track or value is None or value < 0:
        raise argparse.ArgumentTypeError("%s wants TRACK_ID=SECONDS, not %r" % (option, text))
    return track, value


def file_path(url):
    parsed = urllib.parse.urlparse(url)
    return urllib.parse.unquote(parsed.path) if parsed.scheme == "file" else None


def find_chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def start_chromium(binary, profile, log):
    arguments = [
        binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
        "--user-data-dir=" + profile, "--autoplay-policy=no-user-gesture-required",
        "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--mute-audio",
        "about:blank",
    ]
    return subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def devtools_port(profile, browser, deadline):
    path = os.path.join(profile, "DevToolsActivePort")
    while time.monotonic() < deadline:
        if browser.poll() is not None:
            raise RuntimeError("chromium exited with status %s before opening DevTools" % browser.returncode)
        try:
            with open(path) as f:
                lines = f.read().split("\n")
            if len(lines) >= 2 and lines[0].strip().isdigit():
                return int(lines[0]), lines[1].strip()
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    raise Timeout("chromium wrote no %s within the time limit" % path)


def page_socket(port, deadline):
    """The page target's websocket address, from the DevTools HTTP endpoint."""
    import urllib.request
    while True:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=max(0.1, min(3, deadline - time.monotonic()))) as r:
                targets = json.load(r)
            for target in targets:
                if target.get("type") == "page" and target.get("webSocketDebuggerUrl"):
                    return target["webSocketDebuggerUrl"]
        except OSError:
            pass
        if time.monotonic() >= deadline:
            raise Timeout("chromium listed no page target")
        time.sleep(0.1)


def stop(browser):
    if browser is None or browser.poll() is not None:
        return
    try:
        os.killpg(browser.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        browser.wait(timeout=3)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(browser.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        browser.wait(timeout=3)


def main():
    parser = argparse.ArgumentParser(description="Check a Cadence catalog preview page in headless Chromium.")
    parser.add_argument("page", help="the preview page (index.html)")
    parser.add_argument("--probe", action="append", default=[], metavar="TRACK_ID=SECONDS",
                        type=lambda t: parse_probe(t, "--probe"), help="seek a track and read its ring")
    parser.add_argument("--play", action="append", default=[], metavar="TRACK_ID=SECONDS",
                        type=lambda t: parse_probe(t, "--play"), help="seek, play about a second, pause, read the ring")
    parser.add_argument("--fail-on-cue-error", action="store_true", help="a track showing a cue sheet problem fails the check")
    parser.add_argument("--timeout", type=float, default=45.0, help="the whole check's time limit in seconds (default 45)")
    args = parser.parse_args()

    page = os.path.abspath(args.page)
    if not os.path.isfile(page):
        parser.error("no page at %s" % page)
    binary = find_chromium()
    if binary is None:
        sys.stderr.write("preview-check: chromium is not installed (or not on PATH): run scripts/setup.sh\n")
        return 3

    started = time.monotonic()
    deadline = started + max(5.0, args.timeout)
    report = {"ok": False, "page": page, "chromium": binary, "errors": [], "missing_files": [], "network": [],
              "probes": [], "tracks": []}
    profile = tempfile.mkdtemp(prefix="preview-check-")
    log_path = os.path.join(profile, "chromium.log")
    browser = client = None

    def out_of_time(signum, frame):
        raise Stopped("the check took longer than %.0f s" % args.timeout)

    def terminated(signum, frame):
        raise Stopped("stopped by signal %d" % signum)

    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, terminated)  # so that `finally` still stops Chromium
    signal.alarm(int(args.timeout) + 5)  # a last resort: every wait below has its own deadline
    try:
        with open(log_path, "wb") as log:
            browser = start_chromium(binary, profile, log)
        port, _ = devtools_port(profile, browser, min(deadline, time.monotonic() + 20))
        client = CDP(page_socket(port, min(deadline, time.monotonic() + 10)), deadline)
        client.call("Runtime.enable")
        client.call("Log.enable")
        client.call("Page.enable")
        url = "file://" + urllib.parse.quote(page)
        report["url"] = url
        navigation = client.call("Page.navigate", {"url": url})
        if navigation.get("errorText"):
            raise RuntimeError("navigation to %s failed: %s" % (url, navigation["errorText"]))
        client.wait_event("Page.loadEventFired", 15)

        state = client.evaluate(PAGE_STATE)
        for resource in state["resources"]:
            path = file_path(resource["url"])
            if path is None:
                report["network"].append(resource)
            elif not os.path.isfile(path):
                report["missing_files"].append({"tag": resource["tag"], "path": path})

        for option, items in (("probe", args.probe), ("play", args.play)):
            for track, seconds in items:
                expression = SEEK % {"id": json.dumps(track), "seconds": repr(seconds), "play": "true" if option == "play" else "false"}
                try:
                    result = client.evaluate(expression, timeout=15)
                    result["mode"] = option
                except (RuntimeError, Timeout) as error:
                    result = {"id": track, "requested": seconds, "mode": option, "error": str(error)}
                report["probes"].append(result)

        client.drain(0.3)
        report["tracks"] = client.evaluate(PAGE_STATE)["tracks"]
        report["title"] = state["title"]
        report["errors"] = problems_in(client.events)
    except (Stopped, Timeout, RuntimeError, OSError, websocket.WebSocketException) as error:
        report["errors"].append({"kind": "check", "text": "%s: %s" % (type(error).__name__, error)})
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # clean up even when signalled twice
        if client is not None:
            client.close()
        stop(browser)
        try:
            with open(log_path, "rb") as f:
                tail = f.read()[-2000:].decode("utf-8", "replace")
        except OSError:
            tail = ""
        shutil.rmtree(profile, ignore_errors=True)

    cue_errors = [t for t in report["tracks"] if t.get("cue_error")]
    failed_probes = [p for p in report["probes"] if p.get("error")]
    report["ok"] = not (report["errors"] or report["missing_files"] or report["network"] or failed_probes
                        or (args.fail_on_cue_error and cue_errors))
    if not report["ok"] and any(e["kind"] == "check" for e in report["errors"]):
        report["chromium_log_tail"] = tail
    report["elapsed"] = round(time.monotonic() - started, 2)
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
