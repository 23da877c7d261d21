#!/usr/bin/env bash
# The README's test command: install what the tests need, then lint, type-check
# and run the whole suite. Fails on the first failing step; pytest itself fails
# (exit 5) when it collects no tests, so this never passes on an empty run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the tests use: headless Chromium (web page tests), tile sets and
# the SVG renderer (generated photos, artwork loaders), a Chinese brush font
# (procedural flower and season faces), a Latin serif (the English names read).
APT_PACKAGES=(chromium kdegames-mahjongg-data-kf5 librsvg2-bin xmahjongg fonts-arphic-ukai fonts-dejavu-core)
if [ "${#APT_PACKAGES[@]}" -gt 0 ] && command -v apt-get >/dev/null; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

python3 -m pip install -q --disable-pip-version-check -e '.[test,heif]'  # heif: the HEIC tests run
python3 -m ruff check .
python3 -m mypy
python3 -m pytest "$@"
