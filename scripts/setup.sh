#!/usr/bin/env bash
# Installs what Cadence needs on Debian 12: the C libraries it links (with their
# headers and pkg-config files) and the tools its tests use to cross-check output.
set -euo pipefail
packages=(
  pkg-config
  libsndfile1-dev libsamplerate0-dev libyaml-dev libebur128-dev libvorbis-dev libogg-dev libssl-dev
  libflac-dev libavcodec-dev libavformat-dev libavutil-dev libespeak-ng-dev
  flac sox ffmpeg bc time
  chromium python3 python3-jsonschema python3-yaml python3-websocket
  mp3val opus-tools vorbis-tools sndfile-programs python3-mutagen
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
