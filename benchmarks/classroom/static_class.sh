#!/usr/bin/env bash
# A handout of benchmarks/classroom/lesson.txt (20 sentences, the two shipped word models) served by
# `python -m http.server` and then by nginx, each under benchmarks/classroom/static_load.py: 1,000
# students over 20 s fetching every file. Prints one JSON line per server.
#
#   benchmarks/classroom/static_class.sh [STUDENTS] [OVER_S]
set -euo pipefail
cd "$(dirname "$0")/../.."
STUDENTS=${1:-1000}
OVER=${2:-20}
run=$(mktemp -d /tmp/attnviz-static.XXXXXX)
chmod 755 "$run"  # nginx workers (nobody, when started as root) read the site
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$run"; }
trap cleanup EXIT
python -m attnviz handout benchmarks/classroom/lesson.txt --out "$run/site" \
    --models checkpoints/bahdanau-words.safetensors checkpoints/luong-words.safetensors
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

python -m http.server 8700 --bind 127.0.0.1 --directory "$run/site" >"$run/http.log" 2>&1 &
pids+=("$!")
sleep 1
echo "python -m http.server:"
python benchmarks/classroom/static_load.py --url http://127.0.0.1:8700 --folder "$run/site" \
    --students "$STUDENTS" --over "$OVER"

mkdir -p "$run/nginx/tmp"
cat >"$run/nginx/nginx.conf" <<CONF
worker_processes auto;
pid nginx.pid;
events { worker_connections 4096; }
http {
    access_log off;
    include /etc/nginx/mime.types;
    client_body_temp_path tmp/body; proxy_temp_path tmp/proxy; fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi; scgi_temp_path tmp/scgi;
    sendfile on;
    server { listen 127.0.0.1:8701; root $run/site; }
}
CONF
"$NGINX" -e "$run/nginx/error.log" -p "$run/nginx" -c "$run/nginx/nginx.conf" -g 'daemon off;' &
pids+=("$!")
sleep 1
echo "nginx:"
python benchmarks/classroom/static_load.py --url http://127.0.0.1:8701 --folder "$run/site" \
    --students "$STUDENTS" --over "$OVER"
