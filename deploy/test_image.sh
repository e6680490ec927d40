#!/usr/bin/env bash
# Build the Dockerfile's image on this machine, start it, and check it: the HEALTHCHECK passes,
# torch is the CPU build (torch.version.cuda is None), the app runs as uid 1000, the page
# answers. Prints the build time, the seconds to healthy and the image size; removes the
# container (and the local index server) on exit, keeps the image.
#
#   deploy/test_image.sh                              # podman (or docker), registry base
#   LOCAL_BASE=1 TORCH_WHEEL=/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl \
#     ENGINE_OPTS="--runtime runc" \
#     LIMIT_OPTS="--ulimit nofile=20000:20000 --ulimit nproc=32768:32768" \
#     nice -n 19 ionice -c3 deploy/test_image.sh      # the machine docs/deploy.md describes
#
# The build context is the committed tree (git archive HEAD), so edits not committed stay out.
# For a machine that reaches package registries but no container registry or PyTorch's index:
#   LOCAL_BASE=1     make the base with debootstrap instead of pulling python:3.11-slim: Debian
#                    bookworm (minbase) with python3 3.11, python3-venv, python3-dev (Python.h,
#                    which eflomal's build needs) and python-is-python3, plus this machine's
#                    /usr/local/share/ca-certificates (a TLS-intercepting egress); imported and
#                    tagged python:3.11-slim, so the Dockerfile's FROM resolves to it locally.
#                    Root, debootstrap and http://deb.debian.org (or MIRROR) needed.
#   TORCH_WHEEL=F    serve F (torch 2.13.0+cpu) and its dependencies (pip download, from PyPI)
#                    as a simple index on 127.0.0.1:INDEX_PORT, passed as the build ARG
#                    TORCH_INDEX; the build then uses the host's network (--network host).
# Other settings: ENGINE (podman or docker; the first found), TAG (localhost/attnviz:test),
# PORT (8599, on 127.0.0.1), INDEX_PORT (8598), WORK (a temporary folder), ENGINE_OPTS (before
# the subcommand, e.g. "--runtime runc" where crun refuses hybrid cgroups), LIMIT_OPTS (ulimits
# for build and run, where the defaults exceed what the caller may set), HEALTH_WAIT (300 s).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
ENGINE=${ENGINE:-$(command -v podman >/dev/null && echo podman || echo docker)}
TAG=${TAG:-localhost/attnviz:test}
PORT=${PORT:-8599}
INDEX_PORT=${INDEX_PORT:-8598}
HEALTH_WAIT=${HEALTH_WAIT:-300}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
LOCAL_BASE=${LOCAL_BASE:-0}
TORCH_WHEEL=${TORCH_WHEEL:-}
read -r -a ENGINE_OPTS <<<"${ENGINE_OPTS:-}"
read -r -a LIMIT_OPTS <<<"${LIMIT_OPTS:-}"
WORK=${WORK:-$(mktemp -d /var/tmp/attnviz-image.XXXXXX)}
NAME=attnviz-test-$$
INDEX_PID=

eng() { "$ENGINE" "${ENGINE_OPTS[@]}" "$@"; }
log() { echo "[$(date -u +%H:%M:%S)] $*"; }
cleanup() {
    eng rm -f "$NAME" >/dev/null 2>&1 || true
    if [ -n "$INDEX_PID" ]; then kill "$INDEX_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

log "$ENGINE: $("$ENGINE" --version); work folder $WORK"

if [ "$LOCAL_BASE" = 1 ]; then
    ROOTFS=$WORK/rootfs
    log "debootstrap bookworm into $ROOTFS"
    debootstrap --variant=minbase \
        --include=python3,python3-venv,python3-dev,python-is-python3,ca-certificates,netbase \
        bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log"
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
        chroot "$ROOTFS" update-ca-certificates >/dev/null
    fi
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s-security bookworm-security main\n' \
        "$MIRROR" "$MIRROR" "$MIRROR" >"$ROOTFS/etc/apt/sources.list"
    chroot "$ROOTFS" apt-get clean
    rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin
    tar -C "$ROOTFS" -c . | eng import --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' \
        - localhost/attnviz-base:bookworm >/dev/null
    eng tag localhost/attnviz-base:bookworm docker.io/library/python:3.11-slim
    rm -rf "$ROOTFS"
    log "base: localhost/attnviz-base:bookworm, tagged docker.io/library/python:3.11-slim"
fi

BUILD_OPTS=()
if [ "$ENGINE" = podman ]; then BUILD_OPTS+=(--format docker); fi   # OCI format drops HEALTHCHECK
if [ -n "$TORCH_WHEEL" ]; then
    INDEX=$WORK/index/simple
    mkdir -p "$WORK/dl"
    pip download --only-binary=:all: -d "$WORK/dl" "$TORCH_WHEEL" >"$WORK/pip-download.log"
    for f in "$WORK"/dl/*.whl; do
        b=$(basename "$f")
        n=$(echo "${b%%-*}" | tr 'A-Z_.' 'a-z--')   # the normalized project name
        mkdir -p "$INDEX/$n"
        mv "$f" "$INDEX/$n/"
    done
    python3 -m http.server --bind 127.0.0.1 "$INDEX_PORT" --directory "$WORK/index" \
        >"$WORK/index.log" 2>&1 &
    INDEX_PID=$!
    sleep 1
    BUILD_OPTS+=(--network host --build-arg "TORCH_INDEX=http://127.0.0.1:$INDEX_PORT/simple")
    log "torch index: http://127.0.0.1:$INDEX_PORT/simple ($(find "$INDEX" -name '*.whl' | wc -l) wheels)"
fi

mkdir -p "$WORK/ctx"
git -C "$REPO" archive HEAD | tar -x -C "$WORK/ctx"
log "build $TAG from $(git -C "$REPO" rev-parse --short HEAD)"
t0=$(date +%s)
eng build "${BUILD_OPTS[@]}" "${LIMIT_OPTS[@]}" -t "$TAG" "$WORK/ctx" >"$WORK/build.log" 2>&1 \
    || { tail -20 "$WORK/build.log"; exit 1; }
log "built in $(( $(date +%s) - t0 )) s (log: $WORK/build.log)"

t0=$(date +%s)
eng run -d --name "$NAME" "${LIMIT_OPTS[@]}" -p "127.0.0.1:$PORT:8501" "$TAG" >/dev/null
healthy() {
    if [ "$ENGINE" = podman ]; then
        eng healthcheck run "$NAME" >/dev/null 2>&1
    else
        [ "$(docker inspect -f '{{.State.Health.Status}}' "$NAME")" = healthy ]
    fi
}
until healthy; do
    if [ $(( $(date +%s) - t0 )) -gt "$HEALTH_WAIT" ]; then
        eng logs "$NAME" | tail -20
        log "FAIL: not healthy after $HEALTH_WAIT s"
        exit 1
    fi
    sleep 2
done
log "healthy $(( $(date +%s) - t0 )) s after start"

cuda=$(eng exec "$NAME" python -c "import torch; print(torch.version.cuda)")
[ "$cuda" = None ] || { log "FAIL: torch.version.cuda is $cuda"; exit 1; }
log "torch.version.cuda: $cuda"
uid=$(eng exec "$NAME" id -u)
[ "$uid" = 1000 ] || { log "FAIL: runs as uid $uid"; exit 1; }
log "id: $(eng exec "$NAME" id)"
page=$(curl -sf "http://127.0.0.1:$PORT/")
grep -q '<div id="root">' <<<"$page" || { log "FAIL: the page lacks the app's root"; exit 1; }
log "page: $(grep -o '<title>[^<]*</title>' <<<"$page")"
log "image: $TAG, $(eng image inspect -f '{{.Size}}' "$TAG") bytes"
log "OK"
