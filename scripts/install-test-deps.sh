#!/usr/bin/env bash
# Everything the tests need: the Python packages, what building eflomal needs (a C compiler, make
# and Python's headers: pip builds its C program and Cython extension from source), Debian's
# Chromium for the browser test (driven by Playwright through /usr/bin/chromium; Playwright
# downloads no browser of its own) and Debian's Noto CJK fonts, with which Chromium (kaleido's
# PNG and SVG export, and the browser) draws Chinese characters instead of empty boxes.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=()
if ! command -v cc >/dev/null || ! command -v make >/dev/null; then
    packages+=(build-essential)
fi
if ! python -c 'import os, sys, sysconfig
sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    packages+=(python3-dev)  # the headers of Debian's python3; another Python brings its own
fi
if [ ! -x /usr/bin/chromium ]; then
    packages+=(chromium)
fi
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
    packages+=(fonts-noto-cjk)
fi
if [ "${#packages[@]}" -gt 0 ]; then
    sudo=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
fi
pip install -r requirements-dev.txt
