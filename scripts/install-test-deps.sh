#!/usr/bin/env bash
# Everything the tests need: the Python packages, and Debian's Chromium for the browser test
# (driven by Playwright through /usr/bin/chromium; Playwright downloads no browser of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
pip install -r requirements-dev.txt
if [ ! -x /usr/bin/chromium ]; then
    sudo=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium
fi
