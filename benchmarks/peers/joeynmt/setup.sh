#!/usr/bin/env bash
# JoeyNMT 2.3.0 in a virtual environment of its own, never the project's (JoeyNMT pins an old
# protobuf and brings tensorboard, pylint, datasets and more):
#   benchmarks/peers/joeynmt/setup.sh [VENV]        # default: $JOEYNMT_VENV or ~/venv-joeynmt
# torch is installed first, pinned to the project's 2.13.0: an unpinned torch pulls the CUDA
# build and gigabytes of CUDA packages. Where pip has no CPU wheel of it at hand (a local
# wheel folder or cache), give PIP_ARGS, e.g. an --index-url of CPU-only torch builds.
set -euo pipefail
venv=${1:-${JOEYNMT_VENV:-$HOME/venv-joeynmt}}
python3 -m venv "$venv"
# shellcheck disable=SC2086  # PIP_ARGS is several words on purpose
"$venv/bin/pip" install ${PIP_ARGS:-} torch==2.13.0
# importlib_metadata: joeynmt.helpers imports it, but the package does not declare it.
"$venv/bin/pip" install joeynmt==2.3.0 importlib_metadata
"$venv/bin/python" -c "import joeynmt.training, torch; print('joeynmt', joeynmt.__version__, 'torch', torch.__version__)"
