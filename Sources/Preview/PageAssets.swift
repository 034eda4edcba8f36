import Sidecars

/// The preview page's inline style sheet, script and content security policy.
enum PageAssets {
    /// Nothing but the page's own inline style and script, and pictures and audio beside it: no network.
    /// (`file:` as well as `'self'`: Firefox gives each file:// page an origin of its own.)
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self' file:; media-src 'self' file:"

    /// The breath envelope's line under the waveform picture (cues-v1.2 `guide`): its `viewBox` is as wide as the picture's,
    /// so x is the same fraction of the file, and `guideLineHeight` high: E = 1 at y = 1, E = 0 at y = height − 1.
    static let guideLineWidth = WaveformPicture.width
    /// The line's `viewBox` height.
    static let guideLineHeight = 20
    /// The line's points: E at the first frame of each of this many equal columns of the file, and at its end.
    static let guideLineColumns = 600

    /// The style sheet: categories side by side where they fit (a wrapping flex row, each category as wide
    /// as `data-columns` cards), a grid of cards inside each; light and dark schemes, kind colours from `PhaseStyle`.
    static let css: String = {
        var kinds = ""
        for (kind, colour) in PhaseStyle.kinds {
            kinds += ".ring[data-phase-kind=\"\(kind)\"]{--c:\(colour)}.k-\(kind){background:\(colour)}\n"
        }
        kinds += ".s-intro{background:repeating-linear-gradient(45deg,#94a3b8 0 3px,\(PhaseStyle.introColour) 3px 8px)}\n"
        kinds += ".s-outro{background:repeating-linear-gradient(-45deg,#cbd5e1 0 3px,\(PhaseStyle.outroColour) 3px 8px)}\n"
        return baseCSS + kinds
    }()

    private static let baseCSS = #"""
        :root{color-scheme:light dark;--bg:#f8fafc;--fg:#0f172a;--muted:#64748b;--card:#fff;--line:#e2e8f0;--wave:#f1f5f9;
        --err-bg:#fef2f2;--err-fg:#991b1b;--err-line:#fecaca;--head:#e11d48;
        --premium-bg:#fef3c7;--premium-fg:#92400e;--premium-line:#fcd34d;--changed-bg:#dbeafe;--changed-fg:#1d4ed8;--changed-line:#93c5fd;
        font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        @media (prefers-color-scheme:dark){:root{--bg:#0b1120;--fg:#e2e8f0;--muted:#94a3b8;--card:#111827;--line:#1f2937;--wave:#e2e8f0;
        --err-bg:#3b0d0d;--err-fg:#fecaca;--err-line:#7f1d1d;--head:#fb7185;
        --premium-bg:#422006;--premium-fg:#fcd34d;--premium-line:#a16207;--changed-bg:#172554;--changed-fg:#93c5fd;--changed-line:#3b82f6}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);line-height:1.45}
        .page-head{padding:1.5rem clamp(1rem,4vw,3rem) .25rem}
        h1{margin:0 0 .25rem;font-size:1.6rem;overflow-wrap:anywhere}
        .summary,.note,.empty{margin:0 0 .5rem;color:var(--muted)}
        .legend{list-style:none;display:flex;flex-wrap:wrap;gap:.35rem 1rem;margin:.5rem 0 0;padding:0;font-size:.85rem;color:var(--muted)}
        .legend li{display:flex;align-items:center;gap:.35rem}
        .swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:3px;border:1px solid rgba(0,0,0,.15)}
        main{padding:0 clamp(1rem,4vw,3rem) 3rem;display:flex;flex-wrap:wrap;align-items:flex-start;gap:0 1rem}
        main>.empty{flex:1 1 100%}
        .category{min-width:0;flex:1 1 20rem}
        .category[data-columns="2"]{flex:2 1 41rem}
        .category[data-columns="3"]{flex:3 1 62rem}
        .category[data-columns="4"]{flex:4 1 83rem}
        .category h2{font-size:1.05rem;margin:1.5rem 0 .6rem;padding-bottom:.3rem;border-bottom:1px solid var(--line);
        white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr));gap:1rem}
        .track{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:.8rem .9rem;display:flex;flex-direction:column;gap:.55rem;min-width:0}
        .track[data-changed="true"]{border-color:var(--changed-line);box-shadow:inset 3px 0 0 var(--changed-line)}
        .track-head{display:flex;flex-direction:column;gap:.3rem}
        .track h3{margin:0;font-size:1rem;overflow-wrap:anywhere}
        .badges{display:flex;flex-wrap:wrap;gap:.25rem;margin:0}
        .badge{font-size:.68rem;font-weight:650;letter-spacing:.03em;text-transform:uppercase;padding:.1rem .45rem;border-radius:999px;
        white-space:nowrap;border:1px solid}
        .badge.premium{background:var(--premium-bg);color:var(--premium-fg);border-color:var(--premium-line)}
        .badge.changed{background:var(--changed-bg);color:var(--changed-fg);border-color:var(--changed-line)}
        .badge.on-demand{background:transparent;color:var(--muted);border-color:var(--line)}
        .badge.draft{background:var(--err-bg);color:var(--err-fg);border-color:var(--err-line)}
        .drafted{color:var(--err-fg);font-weight:600}
        .session{display:flex;flex-direction:column;min-width:0}
        .session>.track{flex:1}
        .track[hidden]{display:none}
        .pickers{display:flex;flex-wrap:wrap;gap:.3rem .8rem;font-size:.82rem;color:var(--muted)}
        .pickers select{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.05rem .25rem;margin-left:.25rem}
        .changes{color:var(--changed-fg);font-weight:600}
        .facts{list-style:none;display:flex;flex-wrap:wrap;gap:.1rem .8rem;margin:0;padding:0;color:var(--muted);font-size:.82rem;
        font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
        .facts .length{color:var(--fg);font-weight:600}
        .stage{display:flex;flex-direction:row;align-items:center;gap:1rem;min-height:6.5rem}
        .ring-box{position:relative;width:6.5rem;height:6.5rem;flex:none}
        .ring{position:absolute;inset:0;border-radius:50%;--c:#94a3b8;transform:scale(.45);transform-origin:50% 50%;will-change:transform;
        background:radial-gradient(circle at 50% 42%,color-mix(in srgb,var(--c) 22%,transparent),color-mix(in srgb,var(--c) 60%,transparent));
        box-shadow:inset 0 0 0 3px var(--c),0 0 1.2rem color-mix(in srgb,var(--c) 35%,transparent)}
        .ring-text{display:flex;flex-direction:column;align-items:flex-start;min-width:0}
        .phase-label{font-weight:600;font-size:1.05rem;min-height:1.4em}
        .phase-detail{font-size:.85rem;color:var(--muted);font-variant-numeric:tabular-nums;min-height:1.2em}
        .prompt-text{font-style:italic;font-size:.9rem;min-height:1.3em}
        .stage>.cue-error{flex:1}
        .cue-error,.audio-error{margin:0;padding:.6rem .8rem;border-radius:10px;background:var(--err-bg);color:var(--err-fg);
        border:1px solid var(--err-line);font-size:.88rem;overflow-wrap:anywhere}
        .audio-error[hidden]{display:none}
        audio{width:100%;height:2.5rem}
        .wave{position:relative;height:3.5rem;border-radius:8px;overflow:hidden;background:var(--wave);cursor:pointer;user-select:none}
        .wave img{display:block;width:100%;height:100%}
        .no-picture{display:grid;place-items:center;height:100%;font-size:.8rem;color:#64748b}
        .wave.guided{height:4.4rem}
        .wave.guided>img,.wave.guided>.no-picture{height:calc(100% - .9rem)}
        .guide-line{display:block;width:100%;height:.9rem;border-top:1px solid var(--line)}
        .guide-line polyline{fill:none;stroke:#0284c7;stroke-width:1.5;vector-effect:non-scaling-stroke}
        .playhead{position:absolute;top:0;bottom:0;left:0;width:2px;margin-left:-1px;background:var(--head);pointer-events:none}
        code{font-size:.8em}

        """#

    /// The script: checks each track's embedded cue data, then drives its ring and playhead from `audio.currentTime`.
    static let script = #"""
        (() => {
          "use strict";
          const SMALL = 0.45, LARGE = 1;
          const LINE_WIDTH = \#(guideLineWidth), LINE_HEIGHT = \#(guideLineHeight), LINE_COLUMNS = \#(guideLineColumns);
          // recipe-v1.2 § Breath guidance: w(u) of each shape, and the guides a phase can have
          const SHAPES = { sine: (u) => (1 - Math.cos(Math.PI * u)) / 2, linear: (u) => u };
          const GUIDES = ["rise", "fall", "hold", "none"];
          // The ring's size at the end of a phase of each kind; hold and unknown kinds keep the size they start with.
          const SIZE_AFTER = { inhale: LARGE, exhale: SMALL, rest: SMALL, work: LARGE, short_break: SMALL, long_break: SMALL };
          const SECTION_TEXT = { intro: "Settle in", outro: "Done", end: "Done" };
          const own = (table, key) => Object.prototype.hasOwnProperty.call(table, key);
          const isInt = (v) => Number.isSafeInteger(v);
          const isText = (v) => typeof v === "string";
          const ease = (p) => 0.5 - 0.5 * Math.cos(Math.PI * p);
          // A whole number of seconds as m:ss, or h:mm:ss from an hour (PreviewPage.clock on the Swift side).
          const two = (v) => (v < 10 ? "0" : "") + v;
          const clock = (whole) => {
            const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
            return h > 0 ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
          };

          // The same rules as PreviewPage.problem(in:) on the Swift side; null when the data is usable.
          function problem(d) {
            if (d === null || typeof d !== "object" || Array.isArray(d)) return "the cue data is not an object";
            if (d.version !== 1) return "cue data version " + JSON.stringify(d.version) + " is not supported (this page reads version 1)";
            if (!isInt(d.sample_rate) || d.sample_rate <= 0) return "sample_rate " + JSON.stringify(d.sample_rate) + " is not a positive integer";
            if (!isInt(d.frames) || d.frames < 0) return "frames " + JSON.stringify(d.frames) + " is not a count of frames";
            if (!Array.isArray(d.sections)) return "sections is not a list";
            if (!Array.isArray(d.phases)) return "phases is not a list";
            let end = 0;
            for (let i = 0; i < d.sections.length; i++) {
              const s = d.sections[i];
              if (!Array.isArray(s) || s.length < 3 || !isText(s[0]) || !isInt(s[1]) || !isInt(s[2])) {
                return "section " + i + " is not [kind, start_frame, end_frame]";
              }
              if (s[1] < end || s[2] < s[1] || s[2] > d.frames) {
                return "section " + i + " (" + s[0] + ") [" + s[1] + ", " + s[2] + ") is out of order or outside the audio's " + d.frames + " frames";
              }
              end = s[2];
            }
            for (let i = 0; i < d.phases.length; i++) {
              const p = d.phases[i];
              if (!Array.isArray(p) || p.length < 5 || !isInt(p[0]) || !isInt(p[1]) || !isText(p[2]) || !isText(p[3]) || !isInt(p[4])) {
                return "phase " + i + " is not [start_frame, end_frame, kind, label, cycle]";
              }
              if (p[1] <= p[0]) return "phase " + i + " (" + p[2] + ") is empty or reversed: [" + p[0] + ", " + p[1] + ")";
              if (i === 0 && p[0] < 0) return "phase 0 starts at frame " + p[0] + ", before the audio";
              if (i > 0 && p[0] !== d.phases[i - 1][1]) {
                return "phase " + i + " starts at frame " + p[0] + " but phase " + (i - 1) + " ends at frame " + d.phases[i - 1][1] +
                  ": " + (p[0] > d.phases[i - 1][1] ? "a gap" : "an overlap") + " (phases must be contiguous and sorted)";
              }
              if (p[1] > d.frames) return "phase " + i + " ends at frame " + p[1] + ", after the audio's " + d.frames + " frames";
            }
            if (d.guide !== undefined) {
              const g = d.guide;
              if (g === null || typeof g !== "object" || !own(SHAPES, g.shape)) return "guide.shape " + JSON.stringify(g && g.shape) + " is not sine or linear";
              if (!Array.isArray(g.phases) || g.phases.length !== d.phases.length) return "guide.phases does not give one guide to each of the " + d.phases.length + " phases";
              for (let i = 0; i < g.phases.length; i++) {
                if (!GUIDES.includes(g.phases[i])) return "phase " + i + "'s guide " + JSON.stringify(g.phases[i]) + " is not rise, fall, hold or none";
              }
            }
            if (d.voice !== undefined) {
              if (!Array.isArray(d.voice)) return "voice is not a list";
              for (let i = 0; i < d.voice.length; i++) {
                const v = d.voice[i];
                if (!Array.isArray(v) || v.length < 3 || !isInt(v[0]) || !isInt(v[1]) || !isText(v[2]) || v[1] <= v[0]) {
                  return "voice prompt " + i + " is not [frame, end_frame, text]";
                }
                if (i > 0 && v[0] < d.voice[i - 1][1]) return "voice prompt " + i + " starts before prompt " + (i - 1) + " ends";
              }
            }
            return null;
          }

          // The text of the voice prompt sounding at the frame ("" between prompts): binary search.
          function promptAt(voice, frame) {
            if (!voice) return "";
            let lo = 0, hi = voice.length - 1;
            while (lo <= hi) {
              const m = (lo + hi) >> 1;
              if (frame < voice[m][0]) hi = m - 1;
              else if (frame >= voice[m][1]) lo = m + 1;
              else return voice[m][2];
            }
            return "";
          }

          // The breath envelope E of recipe-v1.2 § Breath guidance, as BreathEnvelope (CadenceCues) builds it: pieces
          // [start, end, a, b, moving] tiling [0, frames): the intro at 0; each phase from a (where E is) to 1 (rise),
          // to 0 (fall), a throughout (hold) or 0 throughout (none); the outro's fall from where E is to 0 over
          // min(2 s, the outro); 0 after it (or, without an outro, where the last phase left E). null without a guide.
          function envelope(d) {
            if (d.guide === undefined) return null;
            const pieces = [];
            let cursor = 0, level = 0;
            const still = (end, value) => { if (end > cursor) pieces.push([cursor, end, value, value, false]); cursor = Math.max(cursor, end); };
            d.phases.forEach((p, i) => {
              still(p[0], level);
              const a = level, g = d.guide.phases[i];
              if (g === "rise" || g === "fall") { level = g === "rise" ? 1 : 0; pieces.push([p[0], p[1], a, level, true]); }
              else if (g === "hold") pieces.push([p[0], p[1], a, a, false]);
              else { level = 0; pieces.push([p[0], p[1], 0, 0, false]); }
              cursor = p[1];
            });
            const outro = d.sections.find((s) => s[0] === "outro");
            if (outro && outro[1] < d.frames) {
              still(outro[1], level);
              const end = outro[1] + Math.min(2 * d.sample_rate, d.frames - outro[1]);
              pieces.push([outro[1], end, level, 0, true]);
              cursor = end;
              level = 0;
            }
            still(d.frames, level);
            return { w: SHAPES[d.guide.shape], pieces, after: level };
          }

          // E at a frame: the piece holding it (binary search), E = a + (b − a)·w(u) with u = (frame − start) / (end − start)
          // in a moving piece; 0 before the file, where the last piece ends after it.
          function envelopeAt(env, frame) {
            let lo = 0, hi = env.pieces.length;
            while (lo < hi) {
              const m = (lo + hi) >> 1;
              if (env.pieces[m][0] <= frame) lo = m + 1; else hi = m;
            }
            if (lo === 0) return 0;
            const p = env.pieces[lo - 1];
            if (frame >= p[1]) return env.after;
            if (!p[4]) return p[2];
            return p[2] + (p[3] - p[2]) * env.w((frame - p[0]) / (p[1] - p[0]));
          }

          // The envelope's line: E at the first frame of each of LINE_COLUMNS equal columns of the file and at its end,
          // x across the picture's width, E = 1 at the top (y = 1) and 0 at the bottom (y = LINE_HEIGHT − 1).
          function envelopeLine(env, frames) {
            const points = [];
            for (let k = 0; k <= LINE_COLUMNS; k++) {
              const e = envelopeAt(env, Math.floor((k * frames) / LINE_COLUMNS));
              points.push((k * LINE_WIDTH) / LINE_COLUMNS + "," + (1 + (LINE_HEIGHT - 2) * (1 - e)).toFixed(2));
            }
            return points.join(" ");
          }

          // The phase whose [start_frame, end_frame) holds the frame, or -1.
          function phaseAt(phases, frame) {
            let lo = 0, hi = phases.length - 1;
            while (lo <= hi) {
              const m = (lo + hi) >> 1;
              if (frame < phases[m][0]) hi = m - 1;
              else if (frame >= phases[m][1]) lo = m + 1;
              else return m;
            }
            return -1;
          }

          // The ring's state at t seconds of the audio.
          // With breath guidance (env), the ring's size is SMALL + (LARGE − SMALL)·E, E at the frame (0 past the end).
          function stateAt(d, env, sizeBefore, cycles, t) {
            const frame = Math.floor((Number.isFinite(t) ? Math.max(0, t) : 0) * d.sample_rate + 0.5);
            const state = stateAtFrame(d, sizeBefore, cycles, frame);
            state.guide = env ? (frame >= d.frames ? 0 : envelopeAt(env, frame)) : null;
            if (env) state.scale = SMALL + (LARGE - SMALL) * state.guide;
            return state;
          }

          // The ring's state at a frame; its size by the phase's kind (the page's sizes for a sheet without breath guidance).
          function stateAtFrame(d, sizeBefore, cycles, frame) {
            let section = "", sectionStart = 0, sectionEnd = 0, segmentName = "";
            if (frame >= d.frames) {
              section = "end";
            } else {
              for (const s of d.sections) {
                if (frame >= s[1] && frame < s[2]) { section = s[0]; sectionStart = s[1]; sectionEnd = s[2]; segmentName = typeof s[3] === "string" ? s[3] : ""; break; }
              }
            }
            const i = frame >= d.frames ? -1 : phaseAt(d.phases, frame);
            if (i < 0) {
              const progress = sectionEnd > sectionStart ? (frame - sectionStart) / (sectionEnd - sectionStart) : (section === "end" ? 1 : 0);
              const text = own(SECTION_TEXT, section) ? SECTION_TEXT[section] : (section ? section.charAt(0).toUpperCase() + section.slice(1) : "");
              // in a section outside the phases (the intro, the outro), the time left in it, rounded up
              const detail = sectionEnd > frame ? clock(Math.ceil((sectionEnd - frame) / d.sample_rate)) : "";
              return { frame, section, kind: "", index: -1, label: text, detail, progress, scale: SMALL };
            }
            const p = d.phases[i];
            const progress = Math.min(1, Math.max(0, (frame - p[0]) / (p[1] - p[0])));
            let scale;
            if (p[2] === "inhale") scale = SMALL + (LARGE - SMALL) * ease(progress);
            else if (p[2] === "exhale") scale = LARGE - (LARGE - SMALL) * ease(progress);
            else if (own(SIZE_AFTER, p[2])) scale = SIZE_AFTER[p[2]];
            else scale = sizeBefore[i];
            // the time left in the phase, rounded up: a countdown reads 0:01 in its last second, never 0:00
            const left = Math.ceil((p[1] - frame) / d.sample_rate);
            // a program's phase says its segment, and counts the cycles of that segment; a transition has no cycle of its own
            const ofCycles = p.length > 5 ? (cycles[p[5]] || 0) : cycles[0];
            const counted = p[2] === "transition" && p.length > 5 ? "" : "cycle " + (p[4] + 1) + (ofCycles > 1 ? " of " + ofCycles : "") + " · ";
            const detail = (segmentName ? segmentName + " · " : "") + counted + clock(left);
            return { frame, section, kind: p[2], index: i, label: p[3] || p[2], detail, progress, scale };
          }

          function showProblem(track, message) {
            track.setAttribute("data-cue-status", "error");
            const note = document.createElement("p");
            note.className = "cue-error";
            note.setAttribute("role", "alert");
            note.textContent = "Cue sheet problem: " + message;
            const stage = track.querySelector(".stage");
            if (stage) stage.replaceChildren(note); else track.prepend(note);
          }

          function setUp(track) {
            const audio = track.querySelector("audio");
            const wave = track.querySelector(".wave");
            const playhead = track.querySelector(".playhead");
            const ring = track.querySelector(".ring");
            const label = track.querySelector(".phase-label");
            const detail = track.querySelector(".phase-detail");
            const caption = track.querySelector(".prompt-text");
            const block = track.querySelector("script.cue-data");
            if (!audio) return;
            let data = null, env = null, sizeBefore = [], cycles = [0];
            if (block && ring) {
              try {
                data = JSON.parse(block.textContent);
              } catch (e) {
                showProblem(track, "the embedded cue data is not JSON (" + e.message + ")");
              }
              const bad = data === null ? null : problem(data);
              if (bad) { showProblem(track, bad); data = null; }
              if (data) {
                let size = SMALL;
                sizeBefore = data.phases.map((p) => { const before = size; if (own(SIZE_AFTER, p[2])) size = SIZE_AFTER[p[2]]; return before; });
                // whole cycles per segment (one segment without a program): a transition's cycle is past them
                for (const p of data.phases) {
                  const segment = p.length > 5 ? p[5] : 0;
                  if (p[2] !== "transition" || p.length <= 5) cycles[segment] = Math.max(cycles[segment] || 0, p[4] + 1);
                }
                env = envelope(data);
                const line = track.querySelector(".guide-line polyline");
                if (env && line) line.setAttribute("points", envelopeLine(env, data.frames));
              }
            }
            const trackDuration = Number(track.getAttribute("data-duration")) || 0;
            const duration = () => data && data.frames > 0 ? data.frames / data.sample_rate
              : (Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : trackDuration);

            let shown = null;
            function update() {
              const t = audio.currentTime;
              const total = duration();
              if (playhead && total > 0) playhead.style.left = (Math.min(1, Math.max(0, t / total)) * 100).toFixed(3) + "%";
              if (!data) return;
              const s = stateAt(data, env, sizeBefore, cycles, t);
              const progress = s.progress.toFixed(3), scale = s.scale.toFixed(3);
              const guide = s.guide === null ? "" : s.guide.toFixed(6);
              const spoken = promptAt(data.voice, s.frame);
              const key = [s.kind, s.index, s.section, progress, scale, guide, s.label, s.detail, spoken].join("\u0000");
              if (key === shown) return;
              shown = key;
              ring.setAttribute("data-phase-kind", s.kind);
              ring.setAttribute("data-phase-index", String(s.index));
              ring.setAttribute("data-section", s.section);
              ring.setAttribute("data-progress", progress);
              ring.setAttribute("data-scale", scale);
              if (guide) ring.setAttribute("data-guide", guide);
              ring.style.transform = "scale(" + scale + ")";
              if (label.textContent !== s.label) label.textContent = s.label;
              if (detail && detail.textContent !== s.detail) detail.textContent = s.detail;
              if (caption && caption.textContent !== spoken) caption.textContent = spoken;
            }

            // Follow the audio's clock: its events, and a frame loop only while it plays.
            let frameRequest = 0;
            const loop = () => {
              frameRequest = 0;
              update();
              if (!audio.paused && !audio.ended) frameRequest = requestAnimationFrame(loop);
            };
            const start = () => { if (!frameRequest) frameRequest = requestAnimationFrame(loop); };
            for (const name of ["timeupdate", "seeking", "seeked", "loadedmetadata", "durationchange", "pause", "ended", "emptied"]) {
              audio.addEventListener(name, update);
            }
            audio.addEventListener("play", start);
            audio.addEventListener("playing", start);
            audio.addEventListener("play", () => {
              for (const other of document.querySelectorAll("audio")) if (other !== audio && !other.paused) other.pause();
            });
            audio.addEventListener("error", () => {
              const note = track.querySelector(".audio-error");
              const codes = { 1: "loading was aborted", 2: "a network error", 3: "the file could not be decoded", 4: "the file or its format is not supported" };
              const code = audio.error ? audio.error.code : 0;
              if (note) { note.textContent = "Audio problem: " + (codes[code] || "the file could not be played"); note.hidden = false; }
            });
            if (wave) {
              wave.addEventListener("click", (event) => {
                const box = wave.getBoundingClientRect();
                const total = duration();
                if (box.width <= 0 || !(total > 0)) return;
                audio.currentTime = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) * total;
              });
            }
            update();
          }

          for (const track of document.querySelectorAll(".track[data-track-id]")) {
            try {
              setUp(track);
            } catch (e) {
              showProblem(track, "the preview script failed on this track (" + (e && e.message) + ")");
            }
          }

          // A session's card shows one rendition; its pickers' options name the rendition each shows (recipe-v1.2 § Sessions
          // in the catalog). Picking one pauses the rendition shown, shows the other (its title, audio, ring and captions).
          function choose(session, id) {
            let chosen = null;
            for (const track of session.querySelectorAll(".track[data-track-id]")) {
              if (track.getAttribute("data-track-id") === id) { chosen = track; continue; }
              const audio = track.querySelector("audio");
              if (audio && !audio.paused) audio.pause();
              track.hidden = true;
            }
            if (!chosen) return null;
            const audio = chosen.querySelector("audio");
            if (audio && audio.preload === "none") audio.preload = "metadata";
            chosen.hidden = false;
            session.setAttribute("data-chosen", id);
            return chosen;
          }
          window.__previewChoose = (id) => {
            for (const session of document.querySelectorAll(".session")) {
              for (const track of session.querySelectorAll(".track[data-track-id]")) {
                if (track.getAttribute("data-track-id") === id) return choose(session, id);
              }
            }
            return null;
          };
          for (const select of document.querySelectorAll(".session .pickers select")) {
            select.addEventListener("change", () => {
              const session = select.closest(".session");
              const id = select.value;
              // the picker of the card left keeps showing that card's own choice
              const own = select.querySelector("option[selected]");
              if (own) select.value = own.value;
              const chosen = session ? choose(session, id) : null;
              const same = chosen && chosen.querySelector("select." + select.className);
              if (same) same.focus();
            });
          }
        })();

        """#
}
