#!/usr/bin/env python3
"""Regenerate every file under assets/ from scratch, deterministically.

    python3 scripts/make-assets.py            # writes assets/beds, assets/cues, assets/voice (clips and transcripts)
                                              # and the localized clips: voice/de/ (spoken), voice/en/ (links to voice/)
    python3 scripts/make-assets.py --check    # also prints what soxi reads back

Needs:
  * Python 3.8+ (standard library only: math, random with fixed seeds, struct, wave).
  * oggenc   (Debian: vorbis-tools)  to encode the Ogg Vorbis beds (fixed stream serial).
  * flac     (Debian: flac)          to encode the FLAC bed; falls back to sox when absent.
  * espeak-ng (Debian: espeak-ng)    to speak the voice prompts.
  * optional: soxi (Debian: sox libsox-fmt-all) for --check.

    apt-get install -y sox libsox-fmt-all vorbis-tools flac espeak-ng

All sound is synthesized here with seeded random generators; the external tools only
encode (oggenc, flac) or speak (espeak-ng). Same tool versions, same bytes.
Every file is normalized to a -3 dBFS sample peak and has its DC removed.
"""

import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSETS = os.path.join(ROOT, "assets")
PEAK = 10 ** (-3.0 / 20.0)          # -3 dBFS
TWO_PI = 2.0 * math.pi


# ---------------------------------------------------------------- small DSP kit

def one_pole_lp_coef(fc, sr):
    return 1.0 - math.exp(-TWO_PI * fc / sr)


def lowpass(x, fc, sr):
    a = one_pole_lp_coef(fc, sr)
    y = 0.0
    out = [0.0] * len(x)
    for i, v in enumerate(x):
        y += a * (v - y)
        out[i] = y
    return out


def highpass(x, fc, sr):
    a = one_pole_lp_coef(fc, sr)
    y = 0.0
    out = [0.0] * len(x)
    for i, v in enumerate(x):
        y += a * (v - y)
        out[i] = v - y
    return out


def biquad_bandpass(x, fc, q, sr):
    """RBJ band-pass (0 dB peak gain)."""
    w0 = TWO_PI * fc / sr
    alpha = math.sin(w0) / (2.0 * q)
    a0 = 1.0 + alpha
    b0, b2 = alpha / a0, -alpha / a0
    a1, a2 = -2.0 * math.cos(w0) / a0, (1.0 - alpha) / a0
    x1 = x2 = y1 = y2 = 0.0
    out = [0.0] * len(x)
    for i, v in enumerate(x):
        y = b0 * v + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1 = x1, v
        y2, y1 = y1, y
        out[i] = y
    return out


def white(rng, n):
    r = rng.random
    return [2.0 * r() - 1.0 for _ in range(n)]


def pink(rng, n):
    """Paul Kellet's economy pink-noise filter over white noise."""
    r = rng.random
    b0 = b1 = b2 = 0.0
    out = [0.0] * n
    for i in range(n):
        w = 2.0 * r() - 1.0
        b0 = 0.99765 * b0 + w * 0.0990460
        b1 = 0.96300 * b1 + w * 0.2965164
        b2 = 0.57000 * b2 + w * 1.0526913
        out[i] = (b0 + b1 + b2 + w * 0.1848) * 0.2
    return out


def brown(rng, n, sr):
    """Leaky-integrated white noise with the DC (below ~15 Hz) taken out."""
    r = rng.random
    y = 0.0
    raw = [0.0] * n
    for i in range(n):
        y = 0.998 * y + 0.06 * (2.0 * r() - 1.0)
        raw[i] = y
    return highpass(raw, 15.0, sr)


def loop_blend(x, n):
    """x holds n + X samples; fold the extra X tail over the head (equal power),
    so that x[n-1] runs straight on into the result's sample 0: a seamless loop."""
    extra = len(x) - n
    out = x[:n]
    for i in range(extra):
        t = (i + 0.5) / extra
        out[i] = x[i] * math.sin(0.5 * math.pi * t) + x[n + i] * math.cos(0.5 * math.pi * t)
    return out


def remove_dc(chans):
    for c in chans:
        m = sum(c) / len(c)
        for i in range(len(c)):
            c[i] -= m


def normalize(chans, peak=PEAK):
    remove_dc(chans)
    top = max(max(abs(v) for v in c) for c in chans)
    g = peak / top
    return [[v * g for v in c] for c in chans]


def fade_edges(c, sr, fade_in=0.0, fade_out=0.0):
    nin, nout = int(fade_in * sr), int(fade_out * sr)
    n = len(c)
    for i in range(nin):
        c[i] *= 0.5 - 0.5 * math.cos(math.pi * i / nin)
    for i in range(nout):
        c[n - 1 - i] *= 0.5 - 0.5 * math.cos(math.pi * i / nout)


# ---------------------------------------------------------------- file writing

def to_int16_frames(chans, seed):
    """Interleave, scale, add TPDF dither (seeded), clamp; little-endian bytes."""
    rng = random.Random(seed)
    r = rng.random
    n = len(chans[0])
    out = bytearray()
    pack = struct.Struct("<h").pack
    for i in range(n):
        for c in chans:
            s = int(math.floor(c[i] * 32767.0 + (r() - r()) + 0.5))
            out += pack(max(-32768, min(32767, s)))
    return bytes(out)


def write_wav16(path, chans, sr, seed):
    with wave.open(path, "wb") as w:
        w.setnchannels(len(chans))
        w.setsampwidth(2)
        w.setframerate(sr)
        w.writeframes(to_int16_frames(chans, seed))


def run(cmd):
    subprocess.run(cmd, check=True)


def write_ogg(path, chans, sr, seed, quality=1):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.wav")
        write_wav16(src, chans, sr, seed)
        # -s: a fixed stream serial number, so that the bytes are reproducible.
        run(["oggenc", "-Q", "-q", str(quality), "-s", str(seed), "-o", path, src])


def write_flac(path, chans, sr, seed):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.wav")
        write_wav16(src, chans, sr, seed)
        if shutil.which("flac"):
            run(["flac", "-s", "-f", "-8", "--no-padding", "-o", path, src])
        else:
            run(["sox", "--no-dither", src, "-C", "8", path])


def read_wav16_mono(path):
    with wave.open(path, "rb") as w:
        sr, ch, width = w.getframerate(), w.getnchannels(), w.getsampwidth()
        data = w.readframes(w.getnframes())
    assert width == 2 and ch == 1, "espeak-ng should write 16-bit mono"
    return sr, [v / 32768.0 for v in struct.unpack("<%dh" % (len(data) // 2), data)]


# ---------------------------------------------------------------- beds

def make_rain(path):
    """Rain: band-limited hiss, a low roof rumble, and thousands of droplet
    transients (tiny rising 'bubble' chirps plus ticks) scattered around the
    stereo field. The noise is folded into a seamless loop and the droplets
    wrap around the seam, so the file loops without a crossfade."""
    sr, secs, seed = 44100, 45, 1101
    n, extra, pre = sr * secs, sr * 2, sr // 2
    rng = random.Random(seed)
    total = n + extra + pre

    common_rumble = lowpass(brown(rng, total, sr), 380.0, sr)
    chans = []
    for ch in range(2):
        w = white(rng, total)
        hiss = lowpass(lowpass(highpass(w, 550.0, sr), 6500.0, sr), 9000.0, sr)
        own_rumble = lowpass(brown(rng, total, sr), 380.0, sr)
        x = [0.4 * h + 0.4 * (0.7 * a + 0.3 * b) for h, a, b in zip(hiss, common_rumble, own_rumble)]
        chans.append(loop_blend(x[pre:], n))

    # Droplets, placed modulo n (they wrap around the loop seam).
    t = 0.0
    while t < secs:
        t += rng.expovariate(55.0)           # ~55 drops a second
        start = int(t * sr) % n
        pan = rng.random()
        gl, gr = math.cos(0.5 * math.pi * pan), math.sin(0.5 * math.pi * pan)
        close = rng.random() < 0.06
        amp = math.exp(rng.uniform(math.log(0.04), math.log(0.3))) * (1.8 if close else 1.0)
        f0 = rng.uniform(900.0, 1600.0) if close else rng.uniform(1800.0, 4800.0)
        tau = rng.uniform(0.006, 0.014) if close else rng.uniform(0.0018, 0.006)
        length = int(6 * tau * sr)
        rise = rng.uniform(0.15, 0.6)        # bubble pitch rises while it rings out
        ph = 0.0
        left, right = chans
        for k in range(length):
            tk = k / sr
            f = f0 * (1.0 + rise * tk / (6 * tau))
            ph += TWO_PI * f / sr
            att = min(1.0, k / (0.0004 * sr))   # 0.4 ms attack, no click
            v = amp * att * math.exp(-tk / tau) * math.sin(ph)
            if k < 12:                            # the tick of the impact
                v += amp * 0.5 * (rng.random() - 0.5) * (1.0 - k / 12.0)
            i = (start + k) % n
            left[i] += gl * v
            right[i] += gr * v

    # The decoded Vorbis peaks come out ~0.9 dB under the PCM's (the droplet
    # transients get smeared): aim a little higher so the file lands near -3 dBFS.
    write_ogg(path, normalize(chans, 10 ** (-2.2 / 20.0)), sr, seed)


def make_ocean(path):
    """Ocean surf: a brown-noise undertow that never stops, and a pink-noise wash
    that swells with each wave (~8-10 s apart), opening up its low-pass filter as
    the wave breaks, with a little white foam at the crest. Seven waves of
    slightly different length and size fill exactly 60 s, so the swell is
    periodic and the file loops seamlessly."""
    sr, secs, seed = 44100, 60, 2202
    n, extra, pre = sr * secs, sr * 3, sr // 2
    rng = random.Random(seed)
    total = n + extra + pre

    waves = [8.5, 9.0, 8.0, 9.5, 8.5, 8.0, 8.5]      # sums to 60 s
    assert abs(sum(waves) - secs) < 1e-9
    sizes = [rng.uniform(0.7, 1.0) for _ in waves]
    pans = [rng.uniform(-0.35, 0.35) for _ in waves]
    starts = []
    acc = 0.0
    for d in waves:
        starts.append(acc)
        acc += d

    def swell(t):
        """(envelope 0..1, pan) at time t (periodic, period secs)."""
        t %= secs
        k = 0
        while k + 1 < len(waves) and starts[k + 1] <= t:
            k += 1
        x = (t - starts[k]) / waves[k]
        r = 0.42                                        # builds for 42 %, then recedes
        if x < r:
            s = 0.5 - 0.5 * math.cos(math.pi * x / r)
        else:
            s = (0.5 + 0.5 * math.cos(math.pi * (x - r) / (1.0 - r))) ** 1.6
        return sizes[k] * s, pans[k]

    # Envelope sampled every 32 frames (time runs from -pre so that frame pre is t = 0).
    block = 32
    env, pan = [], []
    for b in range(0, total, block):
        e, p = swell((b - pre) / sr)
        env.append(e)
        pan.append(p)

    undertow = lowpass(brown(rng, total, sr), 220.0, sr)
    chans = []
    for ch in range(2):
        side = -1.0 if ch == 0 else 1.0
        own_low = lowpass(brown(rng, total, sr), 220.0, sr)
        pn = pink(rng, total)
        foam = highpass(white(rng, total), 2500.0, sr)
        out = [0.0] * total
        y1 = y2 = 0.0
        for b in range(0, total, block):
            e, p = env[b // block], pan[b // block]
            g = 1.0 + side * p                              # the crest leans left or right
            fc = 350.0 + 3200.0 * e * e
            a = 1.0 - math.exp(-TWO_PI * fc / sr)
            wash_gain = (0.12 + 0.88 * e ** 1.5) * g
            foam_gain = 0.10 * e ** 3 * g
            low_gain = 0.55 + 0.45 * e
            for i in range(b, min(b + block, total)):
                y1 += a * (pn[i] - y1)                      # two-pole moving low-pass
                y2 += a * (y1 - y2)
                out[i] = (2.2 * wash_gain * y2 + foam_gain * foam[i]
                          + low_gain * (0.75 * undertow[i] + 0.25 * own_low[i]) * 1.4)
        chans.append(loop_blend(out[pre:], n))

    write_ogg(path, normalize(chans), sr, seed)


def make_forest(path):
    """Forest: soft wind (low-passed brown noise plus a breathy band around
    600 Hz, all under ~1.5 kHz) in slow gusts, and now and then a bird: trills
    of falling chirps, a two-note whistle, or a warble, all frequency-swept sines.
    The gust envelope is periodic over the file and birds wrap around the seam.
    (The wind is kept dark on purpose: broadband noise is what makes FLAC big.)"""
    sr, secs, seed = 22050, 40, 3303
    n, extra, pre = sr * secs, sr * 2, sr // 2
    rng = random.Random(seed)
    total = n + extra + pre

    phis = [rng.uniform(0, TWO_PI) for _ in range(3)]

    def gust(t):   # periods 20 s, 8 s, 40/3 s: all divide 40 s
        return (0.55 + 0.22 * math.sin(TWO_PI * t / 20.0 + phis[0])
                + 0.13 * math.sin(TWO_PI * t / 8.0 + phis[1])
                + 0.10 * math.sin(TWO_PI * t * 3.0 / 40.0 + phis[2]))

    low = lowpass(brown(rng, total, sr), 300.0, sr)
    breath = biquad_bandpass(pink(rng, total), 620.0, 0.9, sr)
    wind = [0.0] * total
    for i in range(total):
        g = gust((i - pre) / sr)
        wind[i] = 1.3 * g * low[i] + 0.9 * g * g * breath[i]
    for _ in range(3):
        wind = lowpass(wind, 1500.0, sr)
    x = loop_blend(wind[pre:], n)
    peak_wind = max(abs(v) for v in x)
    x = [v * (0.28 / peak_wind) for v in x]           # wind sits ~11 dB under the birds

    def add_note(start, dur, f_of, amp, harm=0.12):
        """A sine whose frequency follows f_of(u), u in 0..1, with a smooth envelope."""
        m = int(dur * sr)
        ph = 0.0
        for k in range(m):
            u = k / m
            ph += TWO_PI * f_of(u) / sr
            env = math.sin(math.pi * u) ** 2 if u < 0.5 else math.sin(math.pi * u) ** 1.2
            x[(start + k) % n] += amp * env * (math.sin(ph) + harm * math.sin(2.0 * ph))

    t = rng.uniform(0.5, 2.0)
    while t < secs:
        s = int(t * sr)
        amp = rng.uniform(0.18, 0.5)
        kind = rng.random()
        if kind < 0.45:                                  # trill of falling chirps
            top = rng.uniform(4000.0, 5000.0)     # 2nd harmonic stays under Nyquist
            fall = rng.uniform(1200.0, 2000.0)
            notes = rng.randint(3, 7)
            d, gap = rng.uniform(0.045, 0.075), rng.uniform(0.03, 0.055)
            for j in range(notes):
                a = amp * (0.8 + 0.2 * math.sin(math.pi * (j + 0.5) / notes))
                add_note(s + int(j * (d + gap) * sr), d,
                         lambda u, top=top, fall=fall: top - fall * u, a)
            t += notes * (d + gap)
        elif kind < 0.8:                                 # two-note whistle, "fee-bee"
            hi = rng.uniform(3600.0, 4200.0)
            lo = hi * rng.uniform(0.78, 0.86)
            d1, d2 = rng.uniform(0.22, 0.32), rng.uniform(0.28, 0.4)
            add_note(s, d1, lambda u, hi=hi: hi * (1.0 + 0.01 * u), amp, 0.05)
            add_note(s + int((d1 + 0.05) * sr), d2, lambda u, lo=lo: lo * (1.0 - 0.03 * u), amp * 0.85, 0.05)
            t += d1 + d2
        else:                                            # warble
            c = rng.uniform(2800.0, 3600.0)
            rate = rng.uniform(14.0, 22.0)
            d = rng.uniform(0.5, 0.8)
            add_note(s, d, lambda u, c=c, rate=rate, d=d: c * (1.0 + 0.1 * u)
                     + 450.0 * math.sin(TWO_PI * rate * u * d), amp * 0.7)
            t += d
        t += rng.uniform(2.0, 5.5)

    write_flac(path, normalize([x]), sr, seed)


def make_hum(path):
    """A warm drone pad on A (55-330 Hz): pairs of slightly detuned sines with a
    touch of 2nd and 3rd harmonic, the detuning mirrored between left and right
    for width, and a slow 4 s tremolo. Every frequency is a multiple of 0.5 Hz,
    so the pad repeats exactly every 2 s (tremolo every 4 s): the 4 s file is one
    whole period, loops seamlessly as is, and a longer file would only repeat
    it (at 48 kHz stereo 16-bit every second costs 192 kB). A loop crossfade
    that is a multiple of 2 s keeps every partial in phase."""
    sr, secs, seed = 48000, 4, 4404
    n = sr * secs
    rng = random.Random(seed)
    # (frequency, left detune, right detune, level), all in Hz multiples of 0.5
    voices = [
        (55.0, 0.0, 0.5, 0.40),
        (110.0, 0.5, -0.5, 1.00),
        (165.0, -0.5, 0.5, 0.55),
        (220.0, 0.5, -0.5, 0.45),
        (275.0, -0.5, 0.5, 0.16),      # the major third, two octaves up, quiet
        (330.0, 0.5, -0.5, 0.14),
    ]
    period = 2 * sr                    # half-Hz units: phase index = (2f * i) mod 2sr
    chans = []
    for ch in range(2):
        partials = []                  # (half-Hz frequency, amplitude, phase)
        for f, dl, dr, lvl in voices:
            d = dl if ch == 0 else dr
            # the unison partner is quieter: a gentle 0.5 Hz beat, not a throb; random
            # (seeded) phases keep the voices' beats from lining up
            for ff, a in ((f, 0.7), (f + d, 0.3)):
                k = int(round(2 * ff))
                phi = rng.uniform(0.0, TWO_PI)
                partials.append((k, lvl * a, phi))
                partials.append((2 * k, lvl * a * 0.10, 2 * phi))
                partials.append((3 * k, lvl * a * 0.04, 3 * phi))
        out = [0.0] * n
        trem_phase = 0.0 if ch == 0 else 0.5 * math.pi
        for i in range(n):
            s = 0.0
            for k, a, phi in partials:
                # exact phase from the frame index: no drift, exact 2 s period
                s += a * math.sin(TWO_PI * ((k * i) % period) / period + phi)
            trem = 1.0 - 0.14 * (0.5 - 0.5 * math.cos(TWO_PI * i / (4 * sr) + trem_phase))
            out[i] = s * trem
        chans.append(out)
    write_wav16(path, normalize(chans), sr, seed)


# ---------------------------------------------------------------- cues

def make_singing_bowl(path):
    """A struck singing bowl on C4: five inharmonic modes (1 : 2.76 : 5.12 : 8.02
    : 11.6), each split into a slowly beating doublet, decaying exponentially
    (higher modes faster), plus a short mallet knock. Full strength from the
    first frame: the strike is at sample 0, no leading silence."""
    sr, secs, seed = 48000, 3.0, 5505
    n = int(sr * secs)
    rng = random.Random(seed)
    f0 = 261.63
    modes = [(1.0, 1.0, 1.10, 1.3), (2.76, 0.62, 0.70, 2.1), (5.12, 0.34, 0.42, 2.9),
             (8.02, 0.16, 0.26, 3.6), (11.6, 0.08, 0.17, 4.4)]   # ratio, level, tau s, beat Hz
    out = [0.0] * n
    for ratio, lvl, tau, beat in modes:
        f = f0 * ratio
        for fd, share in ((f - beat / 2, 0.55), (f + beat / 2, 0.45)):
            w = TWO_PI * fd / sr
            for i in range(n):
                out[i] += lvl * share * math.exp(-i / (tau * sr)) * math.cos(w * i)
    knock = lowpass(white(rng, n), 3500.0, sr)
    for i in range(int(0.03 * sr)):
        out[i] += 0.5 * knock[i] * math.exp(-i / (0.004 * sr))
    for i in range(16):                 # 0.3 ms rise that starts above zero at frame 0
        out[i] *= (i + 1) / 16.0
    fade_edges(out, sr, fade_out=0.35)
    write_wav16(path, normalize([out]), sr, seed)


def make_wood_block(path):
    """A wood block: four damped, inharmonic modes around 1.1 kHz and a stick
    click, 0.25 s, starting at frame 0."""
    sr, secs, seed = 44100, 0.25, 6606
    n = int(sr * secs)
    rng = random.Random(seed)
    modes = [(1120.0, 1.0, 0.030), (2610.0, 0.45, 0.014), (4150.0, 0.22, 0.008), (6020.0, 0.12, 0.005)]
    out = [0.0] * n
    for f, lvl, tau in modes:
        w = TWO_PI * f / sr
        for i in range(n):
            out[i] += lvl * math.exp(-i / (tau * sr)) * math.sin(w * i + 0.6)
    click = highpass(white(rng, n), 1500.0, sr)
    for i in range(int(0.01 * sr)):
        out[i] += 0.6 * click[i] * math.exp(-i / (0.0008 * sr))
    for i in range(8):
        out[i] *= (i + 1) / 8.0
    fade_edges(out, sr, fade_out=0.03)
    write_wav16(path, normalize([out]), sr, seed)


# ---------------------------------------------------------------- voice

VOICE = ["-v", "en-us+f3", "-s", "118", "-p", "38", "-a", "120", "-g", "4"]
GERMAN = ["-v", "de+f3", "-s", "112", "-p", "38", "-a", "120", "-g", "4"]
THRESHOLD = 0.005                      # sox `silence 1 0.01 0.5%`: 0.5 % of full scale


def make_voice(path, text, seed, voice=VOICE):
    """espeak-ng speaks the prompt; here the low rumble and DC are filtered out,
    the top is softened, the leading (and trailing) silence trimmed so that the
    voice starts at frame 0, and the level normalized."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.wav")
        run(["espeak-ng"] + voice + ["-w", raw, text])
        sr, x = read_wav16_mono(raw)
    x = lowpass(highpass(x, 70.0, sr), 6000.0, sr)
    top = max(abs(v) for v in x)
    x = [v / top for v in x]
    first = next(i for i, v in enumerate(x) if abs(v) > THRESHOLD)
    last = max(i for i, v in enumerate(x) if abs(v) > THRESHOLD)
    tail = int(0.06 * sr)
    x = x[first:min(len(x), last + tail)]
    fade_edges(x, sr, fade_out=0.06)
    write_wav16(path, normalize([x]), sr, seed)
    # the transcript beside the clip: what a recipe's `text:` for it says
    with open(os.path.splitext(path)[0] + ".txt", "w", encoding="utf-8") as f:
        f.write(text + "\n")


def link_english(name):
    """voice/en/NAME: the English clip and its transcript, as links to voice/NAME, so that a recipe
    with `locales: [en, de]` can name `voice/{locale}/NAME` (recipe-v1.2 § Locales)."""
    def make(path):
        stem = os.path.splitext(name)[0]
        for ext in (".wav", ".txt"):
            link = os.path.splitext(path)[0] + ext
            if os.path.lexists(link):
                os.remove(link)
            os.symlink(os.path.join("..", stem + ext), link)
    return make


# ---------------------------------------------------------------- main

JOBS = [
    ("beds/rain.ogg", make_rain),
    ("beds/ocean.ogg", make_ocean),
    ("beds/forest.flac", make_forest),
    ("beds/hum.wav", make_hum),
    ("cues/singing-bowl.wav", make_singing_bowl),
    ("cues/wood-block.wav", make_wood_block),
    ("voice/breathe-in.wav", lambda p: make_voice(p, "Breathe in.", 7701)),
    ("voice/breathe-out.wav", lambda p: make_voice(p, "Breathe out.", 7702)),
    ("voice/hold.wav", lambda p: make_voice(p, "Hold.", 7703)),
    ("voice/welcome.wav", lambda p: make_voice(p, "Welcome. Settle in, and let your shoulders drop.", 7704)),
    ("voice/sleep-closing.wav", lambda p: make_voice(p, "Let the breath find its own pace now. Sleep well.", 7705)),
    ("voice/safe.wav", lambda p: make_voice(p, "You are safe here. Let's slow the breath down together.", 7706)),
    ("voice/closing.wav", lambda p: make_voice(p, "Notice how you feel. When you are ready, open your eyes.", 7707)),
    # the guided sleep session in German (recipes/meditation/guided-sleep.yml, locales: [en, de])
    ("voice/de/welcome.wav", lambda p: make_voice(p, "Willkommen. Komm zur Ruhe, und lass die Schultern sinken.", 7804, GERMAN)),
    ("voice/de/breathe-in.wav", lambda p: make_voice(p, "Einatmen.", 7801, GERMAN)),
    ("voice/de/hold.wav", lambda p: make_voice(p, "Halten.", 7803, GERMAN)),
    ("voice/de/breathe-out.wav", lambda p: make_voice(p, "Ausatmen.", 7802, GERMAN)),
    ("voice/de/sleep-closing.wav", lambda p: make_voice(p, "Lass den Atem jetzt seinen eigenen Rhythmus finden. Schlaf gut.", 7805, GERMAN)),
    ("voice/en/welcome.wav", link_english("welcome.wav")),
    ("voice/en/breathe-in.wav", link_english("breathe-in.wav")),
    ("voice/en/hold.wav", link_english("hold.wav")),
    ("voice/en/breathe-out.wav", link_english("breathe-out.wav")),
    ("voice/en/sleep-closing.wav", link_english("sleep-closing.wav")),
]


def main():
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for sub in ("beds", "cues", "voice", "voice/de", "voice/en"):
        os.makedirs(os.path.join(ASSETS, sub), exist_ok=True)
    for rel, make in JOBS:
        if only and rel not in only:
            continue
        path = os.path.join(ASSETS, rel)
        if os.path.lexists(path):
            os.remove(path)
        make(path)
        print("%-28s %9d bytes" % (rel, os.path.getsize(path)))
    if "--check" in sys.argv and shutil.which("soxi"):
        for rel, _ in JOBS:
            run(["soxi", os.path.join(ASSETS, rel)])


if __name__ == "__main__":
    main()
