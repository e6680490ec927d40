#!/usr/bin/env bash
# Dashboard replicas on this machine's loopback ports behind Debian's nginx, balanced with the
# sticky cookie of deploy/nginx.conf; with --load, a class of benchmarks/classroom/class_load.py through
# nginx, after which everything stops.
#
#   deploy/run_replicas.sh                           # serve on http://127.0.0.1:8500 until Ctrl-C
#   deploy/run_replicas.sh --address 0.0.0.0 --replicas auto   # a class on the local network
#   deploy/run_replicas.sh --load [class_load.py options]    # e.g. --sessions 200, --sweep ...
#   deploy/run_replicas.sh --replicas 1 --load ...           # the same through one replica
#
# --address ADDR: where nginx listens (127.0.0.1, this machine only, by default; 0.0.0.0 for
# every network the machine is on). It prints the address students open: for 0.0.0.0, this
# machine's address on its local network. The replicas always listen on loopback only.
# --replicas N, or auto: one per core (nproc), as many as the memory available holds at
# REPLICA_MB each (a dashboard replica holds about 1,000 MB once its models are loaded, its
# decoding process, attnviz_ui/serving/decoder_process.py, about 420 MB of it), at least one. It prints the URL once nginx and every replica answer and each replica has drawn its
# first page (deploy/warm_up.py); Ctrl-C (or SIGTERM) stops the
# replicas and nginx and removes the temporary folder.
#
# Environment: REPLICAS (2; --replicas overrides it), ADDRESS (127.0.0.1; --address overrides
# it), REPLICA_MB (1400), PROXY_PORT (8500),
# FIRST_PORT (8501: replicas on FIRST_PORT, FIRST_PORT+1, ...), APP (dashboard.py;
# benchmarks/classroom/minimal_app.py for the floor), ATTNVIZ_CHECKPOINTS (checkpoints/),
# ATTNVIZ_DECODERS (1: decoding processes per replica, docs/deploy.md). Installs nginx with
# apt-get if it is missing. nginx runs from a temporary folder as the user who starts it (its
# workers as nobody where that is root); its config is deploy/nginx.conf with these ports written
# in.
set -euo pipefail
cd "$(dirname "$0")/.."
REPLICAS=${REPLICAS:-2}
ADDRESS=${ADDRESS:-127.0.0.1}
REPLICA_MB=${REPLICA_MB:-1400}
while [ $# -gt 0 ]; do
    case "$1" in
        --replicas) REPLICAS=$2; shift 2 ;;
        --replicas=*) REPLICAS=${1#--replicas=}; shift ;;
        --address) ADDRESS=$2; shift 2 ;;
        --address=*) ADDRESS=${1#--address=}; shift ;;
        *) break ;;  # --load and class_load.py's options
    esac
done
if [ "$REPLICAS" = auto ]; then
    cores=$(nproc)
    fits=$(awk -v mb="$REPLICA_MB" '/^MemAvailable:/ {print int($2 / 1024 / mb)}' /proc/meminfo)
    REPLICAS=$(( cores < fits ? cores : fits ))
    REPLICAS=$(( REPLICAS > 0 ? REPLICAS : 1 ))
    echo "--replicas auto: $REPLICAS ($cores cores, memory for $fits at $REPLICA_MB MB each)"
fi
case "$REPLICAS" in
    ''|*[!0-9]*|0) echo "--replicas: a positive number or auto, not '$REPLICAS'" >&2; exit 2 ;;
esac
PROXY_PORT=${PROXY_PORT:-8500}
FIRST_PORT=${FIRST_PORT:-8501}
APP=${APP:-dashboard.py}
OPENING="He bought a red car and a small house."  # what minimal_app.py opens on, as the dashboard

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    sudo=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends nginx
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# Every port free before anything starts: a server already on one (another class, a run not yet
# stopped) would answer the health checks below in place of ours. A port whose last connections
# are still in TIME_WAIT (a class just stopped) is free: nginx and streamlit bind with
# SO_REUSEADDR, and so does this check.
python - "$ADDRESS" "$PROXY_PORT" $(seq "$FIRST_PORT" $((FIRST_PORT + REPLICAS - 1))) <<'PY' || exit 2
import errno, socket, sys
address, proxy, *replicas = sys.argv[1:]
for host, port in [(address, proxy), *(("127.0.0.1", p) for p in replicas)]:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, int(port)))
        except OSError as e:
            if isinstance(e, socket.gaierror) or e.errno == errno.EADDRNOTAVAIL:
                sys.exit(f"--address {host}: not an address of this machine")
            sys.exit(f"port {port} is in use on {host} (another class still running?): "
                     "stop it, or set PROXY_PORT and FIRST_PORT")
PY

run=$(mktemp -d /tmp/attnviz-replicas.XXXXXX)
mkdir -p "$run/tmp"
# Started by root, nginx runs its workers as nobody, and they write the responses they buffer
# (a large file to a slow client) in the folders nginx makes for them under tmp/: the folders
# above, root's alone as mktemp made the first, must let them through. Nothing in them can be
# listed, and the files written from here on are root's alone.
if [ "$(id -u)" = 0 ]; then
    chmod 711 "$run" "$run/tmp"
    umask 077
fi
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One cookie secret for every replica, so that what one signs (the XSRF cookie) another accepts
# should a visitor ever move.
secret=$(python -c 'import secrets; print(secrets.token_hex(16))')
ports=()
for i in $(seq 0 $((REPLICAS - 1))); do
    port=$((FIRST_PORT + i))
    ports+=("$port")
    STREAMLIT_SERVER_COOKIE_SECRET=$secret python -m streamlit run "$APP" \
        --server.headless true --server.address 127.0.0.1 --server.port "$port" \
        --browser.gatherUsageStats false -- "$OPENING" >"$run/replica-$port.log" 2>&1 &
    pids+=("$!")
done
replica_pids=$(IFS=,; echo "${pids[*]}")
warm=$(printf 'http://127.0.0.1:%s,' "${ports[@]}")  # class_load warms each replica directly

# deploy/nginx.conf, its `# replica` lines replaced by ours, listening on PROXY_PORT.
awk -v ports="${ports[*]}" '
    /# replica$/ {
        if (!done) {
            n = split(ports, p, " ")
            for (i = 1; i <= n; i++) print "        server 127.0.0.1:" p[i] ";  # replica"
            done = 1
        }
        next
    }
    { print }' deploy/nginx.conf |
    sed "s/listen 127\.0\.0\.1:8500;/listen $ADDRESS:$PROXY_PORT;/" >"$run/nginx.conf"
cp deploy/proxy_headers.conf "$run/"
"$NGINX" -e "$run/error.log" -p "$run" -c "$run/nginx.conf" -g 'daemon off;' &
pids+=("$!")

# nginx as this machine reaches it: on loopback where it listens on every address
local=$([ "$ADDRESS" = 0.0.0.0 ] && echo 127.0.0.1 || echo "$ADDRESS")
python - "$local:$PROXY_PORT" $(printf '127.0.0.1:%s ' "${ports[@]}") <<'PY'
import sys, time, urllib.request
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
for where in sys.argv[2:] + sys.argv[1:2]:  # each replica, then nginx in front of them
    for _ in range(480):
        try:
            opener.open(f"http://{where}/_stcore/health", timeout=2)
            break
        except OSError:
            time.sleep(0.25)
    else:
        sys.exit(f"nothing answers on {where}")
PY
# Each replica's first page, before any student's: a new server imports its libraries, starts
# its decoding process and loads the models on its first page (deploy/warm_up.py).
python deploy/warm_up.py $(printf 'http://127.0.0.1:%s ' "${ports[@]}") ||
    echo "a replica did not finish its first page; the first students may wait for it" >&2
for pid in "${pids[@]}"; do  # ours answered, not something that took a port meanwhile
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "a replica or nginx stopped before the class began; its log:" >&2
        tail -n 5 "$run"/*.log >&2
        exit 1
    fi
done
echo "nginx on http://$local:$PROXY_PORT in front of ${REPLICAS} replica(s) of $APP" \
    "on ports ${ports[*]} (pids $replica_pids); logs in $run"
# The address students type: this machine's on the network its default route leaves by (no
# packet is sent), where nginx listens on every address; else the one it listens on.
shown=$ADDRESS
if [ "$ADDRESS" = 0.0.0.0 ]; then
    shown=$(python -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    s.connect(("192.0.2.1", 9)); print(s.getsockname()[0])
except OSError:
    print(socket.gethostbyname(socket.gethostname()))')
fi
case "$shown" in
    127.*) echo "This machine opens http://$shown:$PROXY_PORT; for students on the local" \
        "network, start with --address 0.0.0.0 (Ctrl-C stops it all)" ;;
    *) echo "Students open http://$shown:$PROXY_PORT (Ctrl-C stops it all)" ;;
esac

if [ "${1:-}" = "--load" ]; then
    shift
    page=$([ "$(basename "$APP")" = minimal_app.py ] && echo minimal || echo dashboard)
    python benchmarks/classroom/class_load.py --page "$page" --url "http://$local:$PROXY_PORT" \
        --pids "$replica_pids" --warm "$warm" "$@"
else
    # Until Ctrl-C. A shell started with SIGINT ignored (`run_replicas.sh &` in a script) can keep
    # no trap for it: stop that one with SIGTERM.
    wait
fi
