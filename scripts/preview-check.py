#!/usr/bin/env python3
"""Checks a catalog preview page (index.html) in headless Chromium over the DevTools protocol.

    scripts/preview-check.py dist/index.html [--choose TRACK_ID]... [--probe TRACK_ID=SECONDS]...
                             [--play TRACK_ID=SECONDS]... [--fail-on-cue-error] [--timeout SECONDS]

Opens the page from disk (file://), collects console errors, uncaught exceptions
and failed loads, checks that every <audio src> and <img src> it references
exists on disk, then for each --probe seeks that track's <audio> to SECONDS,
waits for its 'seeked' event and reads the ring's state back from the DOM.
--play seeks to SECONDS, plays about a second, pauses and reads the state with
the audio's currentTime at that moment (the ring must follow the audio clock).
--choose (before the probes, in the order given) picks TRACK_ID in its session's
card as a listener does: sets the picker of the rendition shown that offers it and
fires 'change', waits for the chosen audio's metadata, and reports which
renditions are shown, the chosen audio's file and duration, and its cue data's frames.

Prints one JSON object on stdout. Exit status: 0 when the page is clean, 1 on
any console error, exception, failed load, missing file, failed probe (or a
cue error with --fail-on-cue-error), 2 on bad arguments, 3 when Chromium or
python3-websocket is missing (run scripts/setup.sh).

--timeout is the whole check's time limit, and every wait (Chromium's start,
the page load, each evaluation, each probe's events) lasts at most what is left
of it; none has a shorter limit of its own. The default grows with the page:
60 s plus 0.4 s per track (a 500-track page took 41 s to load on one machine and
90 s on a loaded 2-core one), 260 s for 500 tracks. A wait that runs out is an
error that names the wait and the --timeout.

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


# The default --timeout: a base for Chromium's start and the probes, and a share per track
# for the page load (each card's <audio preload=metadata> and waveform picture).
BASE_SECONDS = 60.0
SECONDS_PER_TRACK = 0.4


def default_timeout(page_text):
    """The --timeout a page gets when none is given: 60 s plus 0.4 s per track card."""
    return BASE_SECONDS + SECONDS_PER_TRACK * page_text.count("data-track-id=")


class Deadline:
    """The end of the whole check (--timeout): every wait asks it how long it may last."""

    def __init__(self, seconds, source):
        self.seconds = seconds
        self.source = source  # how the limit was chosen, for messages
        self.started = time.monotonic()
        self.end = self.started + seconds

    def left(self):
        return self.end - time.monotonic()

    def expired(self, what):
        """The Timeout for a wait that did not end: it names the wait and the limit."""
        return Timeout("waiting for %s: nothing within --timeout %g s%s, the whole check's time limit "
                       "(%.1f s had passed); a slow page needs a larger --timeout"
                       % (what, self.seconds, self.source, time.monotonic() - self.started))


class Stopped(Exception):
    """The whole check's time limit, or a signal: ends the check, not just one probe."""


class CDP:
    """A minimal DevTools protocol client: commands by id, events queued."""

    def __init__(self, url, deadline):
        self.deadline = deadline
        if deadline.left() <= 0:
            raise deadline.expired("the connection to Chromium's DevTools")
        # Chromium refuses websocket handshakes that carry an Origin it was not told to allow.
        self.ws = websocket.create_connection(url, timeout=deadline.left(), suppress_origin=True)
        self.next_id = 0
        self.events = []

    def _receive(self, limit):
        self.ws.settimeout(max(0.01, limit))
        try:
            text = self.ws.recv()
        except websocket.WebSocketTimeoutException:
            return None
        return json.loads(text)

    def call(self, method, params=None, what=None):
        """Sends a command and waits for its answer until the deadline; `what` names the wait in a timeout."""
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params or {}}))
        while True:
            left = self.deadline.left()
            if left <= 0:
                raise self.deadline.expired(what or "an answer to %s" % method)
            message = self._receive(left)
            if message is None:
                continue
            if message.get("id") == mine:
                if "error" in message:
                    raise RuntimeError("%s failed: %s" % (method, message["error"].get("message")))
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_event(self, method, what):
        """Waits for an event until the deadline; `what` names the wait in a timeout."""
        for i, event in enumerate(self.events):
            if event["method"] == method:
                return self.events.pop(i)
        while self.deadline.left() > 0:
            message = self._receive(self.deadline.left())
            if message is None:
                continue
            if message.get("method") == method:
                return message
            if "method" in message:
                self.events.append(message)
        raise self.deadline.expired(what)

    def drain(self, seconds):
        """Collects events for `seconds` (a moment for late console messages), within the deadline."""
        until = min(self.deadline.end, time.monotonic() + seconds)
        while time.monotonic() < until:
            message = self._receive(until - time.monotonic())
            if message is not None and "method" in message:
                self.events.append(message)

    def evaluate(self, expression, what):
        """Evaluates an expression (awaiting a promise) until the deadline and returns its JSON value."""
        result = self.call("Runtime.evaluate", {
            "expression": expression, "awaitPromise": True, "returnByValue": True,
            "timeout": max(1, int(self.deadline.left() * 1000)),
        }, what=what)
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
    const prompt = track.querySelector(".prompt-text");
    const error = track.querySelector(".cue-error");
    const audio = track.querySelector("audio");
    const line = track.querySelector(".guide-line polyline");
    return {
      id: track.getAttribute("data-track-id"),
      cue_status: track.getAttribute("data-cue-status"),
      cue_error: error ? error.textContent : null,
      label: label ? label.textContent : null,
      prompt: prompt ? prompt.textContent : null,
      phase_kind: ring ? ring.getAttribute("data-phase-kind") : null,
      phase_index: ring ? ring.getAttribute("data-phase-index") : null,
      section: ring ? ring.getAttribute("data-section") : null,
      progress: ring ? ring.getAttribute("data-progress") : null,
      scale: ring ? ring.getAttribute("data-scale") : null,
      transform: ring ? ring.style.transform : null,
      guide: ring ? ring.getAttribute("data-guide") : null,
      guide_line: line ? line.getAttribute("points") : null,
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
  const id = %(id)s, seconds = %(seconds)s, play = %(play)s, ms = %(ms)d;
  const track = Array.from(document.querySelectorAll("[data-track-id]")).find((t) => t.getAttribute("data-track-id") === id);
  if (!track) throw new Error("no track with data-track-id " + JSON.stringify(id));
  const audio = track.querySelector("audio");
  if (!audio) throw new Error("track " + JSON.stringify(id) + " has no <audio>");
  // each event may take what is left of --timeout (ms, less a margin for the answer to come back)
  const once = (name) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no '" + name + "' event within the " + ms + " ms left of --timeout (audio error: " +
      (audio.error ? audio.error.code : "none") + ")")), ms);
    audio.addEventListener(name, () => { clearTimeout(timer); resolve(); }, { once: true });
  });
  if (audio.readyState < 1) { const ready = once("loadedmetadata"); audio.load(); await ready; }
  const seeked = once("seeked");
  audio.currentTime = seconds;
  await seeked;
  let played = null;
  if (play) {
    await audio.play();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const paused = once("pause");
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


CHOOSE = r"""
(async () => {
  const id = %(id)s, ms = %(ms)d;
  const track = Array.from(document.querySelectorAll("[data-track-id]")).find((t) => t.getAttribute("data-track-id") === id);
  if (!track) throw new Error("no track with data-track-id " + JSON.stringify(id));
  const session = track.closest(".session");
  if (!session) throw new Error("track " + JSON.stringify(id) + " is in no session card");
  const cards = () => Array.from(session.querySelectorAll(".track[data-track-id]"));
  const before = cards().find((t) => !t.hidden);
  if (!before) throw new Error("the card of session " + JSON.stringify(session.getAttribute("data-session-id")) + " shows no rendition");
  const select = Array.from(before.querySelectorAll(".pickers select")).find((s) => Array.from(s.options).some((o) => o.value === id));
  if (!select) throw new Error("no picker of the rendition shown (" + before.getAttribute("data-track-id") + ") offers " + JSON.stringify(id));
  select.value = id;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  const shown = cards().filter((t) => !t.hidden);
  const chosen = shown.length === 1 ? shown[0] : null;
  const audio = chosen ? chosen.querySelector("audio") : null;
  if (audio && audio.readyState < 1) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no 'loadedmetadata' event within the " + ms + " ms left of --timeout (audio error: " +
        (audio.error ? audio.error.code : "none") + ")")), ms);
      audio.addEventListener("loadedmetadata", () => { clearTimeout(timer); resolve(); }, { once: true });
      if (audio.networkState === HTMLMediaElement.NETWORK_EMPTY || audio.networkState === HTMLMediaElement.NETWORK_IDLE) audio.load();
    });
  }
  const block = chosen ? chosen.querySelector("script.cue-data") : null;
  const data = block ? JSON.parse(block.textContent) : null;
  const title = chosen ? chosen.querySelector("h3") : null;
  const src = audio ? (audio.currentSrc || audio.src) : "";
  return {
    id,
    from: before.getAttribute("data-track-id"),
    picker: select.className,
    shown: shown.map((t) => t.getAttribute("data-track-id")),
    chosen: session.getAttribute("data-chosen"),
    title: title ? title.textContent : null,
    audio_file: src ? decodeURIComponent(new URL(src).pathname.split("/").pop()) : null,
    audio_duration: audio ? audio.duration : null,
    cue_frames: data ? data.frames : null,
    cue_sample_rate: data ? data.sample_rate : null,
  };
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
    while deadline.left() > 0:
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
    raise deadline.expired("Chromium to start (its %s)" % path)


def page_socket(port, deadline):
    """The page target's websocket address, from the DevTools HTTP endpoint."""
    import urllib.request
    while True:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=max(0.1, min(3, deadline.left()))) as r:
                targets = json.load(r)
            for target in targets:
                if target.get("type") == "page" and target.get("webSocketDebuggerUrl"):
                    return target["webSocketDebuggerUrl"]
        except OSError:
            pass
        if deadline.left() <= 0:
            raise deadline.expired("a page target in Chromium's DevTools list")
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
    parser.add_argument("--choose", action="append", default=[], metavar="TRACK_ID",
                        help="pick a rendition in its session's card (before the probes, in order)")
    parser.add_argument("--fail-on-cue-error", action="store_true", help="a track showing a cue sheet problem fails the check")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="the whole check's time limit; every wait lasts at most what is left of it "
                             "(default: 60 s plus 0.4 s per track on the page)")
    args = parser.parse_args()

    page = os.path.abspath(args.page)
    if not os.path.isfile(page):
        parser.error("no page at %s" % page)
    if args.timeout is not None and not args.timeout > 0:
        parser.error("--timeout wants a number of seconds above 0, not %g" % args.timeout)
    if args.timeout is None:
        with open(page, encoding="utf-8", errors="replace") as f:
            limit, source = default_timeout(f.read()), " (the default for this page)"
    else:
        limit, source = args.timeout, ""
    binary = find_chromium()
    if binary is None:
        sys.stderr.write("preview-check: chromium is not installed (or not on PATH): run scripts/setup.sh\n")
        return 3

    deadline = Deadline(limit, source)
    started = deadline.started
    report = {"ok": False, "page": page, "chromium": binary, "timeout": limit, "errors": [], "missing_files": [],
              "network": [], "chosen": [], "probes": [], "tracks": []}
    profile = tempfile.mkdtemp(prefix="preview-check-")
    log_path = os.path.join(profile, "chromium.log")
    browser = client = None

    def out_of_time(signum, frame):
        raise Stopped("the check took longer than --timeout %g s%s and a wait did not end" % (limit, source))

    def terminated(signum, frame):
        raise Stopped("stopped by signal %d" % signum)

    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, terminated)  # so that `finally` still stops Chromium
    signal.alarm(int(limit) + 5)  # a last resort: every wait below ends at the deadline
    try:
        with open(log_path, "wb") as log:
            browser = start_chromium(binary, profile, log)
        port, _ = devtools_port(profile, browser, deadline)
        client = CDP(page_socket(port, deadline), deadline)
        client.call("Runtime.enable")
        client.call("Log.enable")
        client.call("Page.enable")
        url = "file://" + urllib.parse.quote(page)
        report["url"] = url
        navigation = client.call("Page.navigate", {"url": url}, what="the navigation to the page (Page.navigate)")
        if navigation.get("errorText"):
            raise RuntimeError("navigation to %s failed: %s" % (url, navigation["errorText"]))
        client.wait_event("Page.loadEventFired", what="the page to load (Page.loadEventFired)")

        state = client.evaluate(PAGE_STATE, what="the page's tracks and resources (Runtime.evaluate)")
        for resource in state["resources"]:
            path = file_path(resource["url"])
            if path is None:
                report["network"].append(resource)
            elif not os.path.isfile(path):
                report["missing_files"].append({"tag": resource["tag"], "path": path})

        for track in args.choose:
            ms = max(100, int((deadline.left() - 1.0) * 1000))
            try:
                result = client.evaluate(CHOOSE % {"id": json.dumps(track), "ms": ms}, what="--choose %s (Runtime.evaluate)" % track)
            except (RuntimeError, Timeout) as error:
                result = {"id": track, "error": str(error)}
            report["chosen"].append(result)

        for option, items in (("probe", args.probe), ("play", args.play)):
            for track, seconds in items:
                # the page's own timers end a little before the deadline, so their message (which event,
                # the audio's error) comes back rather than a bare timeout
                ms = max(100, int((deadline.left() - 1.0) * 1000))
                expression = SEEK % {"id": json.dumps(track), "seconds": repr(seconds), "ms": ms,
                                     "play": "true" if option == "play" else "false"}
                try:
                    result = client.evaluate(expression, what="--%s %s=%g (Runtime.evaluate)" % (option, track, seconds))
                    result["mode"] = option
                except (RuntimeError, Timeout) as error:
                    result = {"id": track, "requested": seconds, "mode": option, "error": str(error)}
                report["probes"].append(result)

        client.drain(0.3)
        report["tracks"] = client.evaluate(PAGE_STATE, what="the tracks' final state (Runtime.evaluate)")["tracks"]
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
    failed_probes = [p for p in report["probes"] + report["chosen"] if p.get("error")]
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
