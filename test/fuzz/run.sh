#!/usr/bin/env bash
# Schema-driven fuzz of the orchestrator and the reflex layer: schemathesis generates requests from
# openapi.yaml (valid ones, and ones that break the document on purpose) and checks every answer
# against the document: no 5xx, documented status codes, content types, headers and bodies.
# The checks and their limits: docs/security.md, "Fuzzing".
#
#   test/fuzz/run.sh [--examples 20] [--seed N] [--no-build]
#
# Both services run as `npm start` runs them (node dist/main.js, one process), with AUTH=required
# and every rate limit off; the fuzz sends a random ADMIN_TOKEN, then a viewer's API key. With DATABASE_URL and REDIS_URL set they
# use those (a database the fuzz may fill with tasks, keys and documents); otherwise PGlite in a
# temporary directory and the in-process cache. --no-build skips `npm run build:ts` (CI has just
# built). Schemathesis is installed from PyPI at the pinned version into FUZZ_VENV (default: a
# temporary directory). Ports: FUZZ_PORT (orchestrator, default 18500) and the one after it.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

SCHEMATHESIS_VERSION=4.32.5
examples=20; seed=""; build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --examples) examples=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d /tmp/ganglion-fuzz.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

venv=${FUZZ_VENV:-$work/venv}
if ! "$venv/bin/st" --version 2>/dev/null | grep -qF "version $SCHEMATHESIS_VERSION"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

[ "$build" = 1 ] && npm run --silent build:ts

port=${FUZZ_PORT:-18500}
reflex_port=$((port + 1))
token="fuzz-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
HOST=127.0.0.1 PORT=$port REFLEX_PORT=$reflex_port DATA_DIR="$work/data" LOG_LEVEL=ERROR \
  AUTH=required ADMIN_TOKEN="$token" \
  RATE_LIMIT_PER_IP=0 RATE_LIMIT_READS_PER_IP=0 RATE_LIMIT_PER_USER=0 RATE_LIMIT_READS_PER_USER=0 \
  node dist/main.js >"$work/server.log" 2>&1 &
pid=$!
up() { curl -sf -o /dev/null "http://127.0.0.1:$1/api/v1/health"; }
for _ in $(seq 1 120); do up "$port" && up "$reflex_port" && break; sleep 0.5; done
if ! up "$port" || ! up "$reflex_port"; then
  echo "the services did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
fi

# One worker: CPython 3.11.7 (the image's python3) can fail schemathesis's generation with "AST constructor
# recursion depth mismatch" when two threads parse at once.
fuzz() { # $1: the bearer credential, $2: examples per operation, $3: base URL, then the operations to select
  local credential=$1 n=$2 url=$3
  shift 3
  (cd "$work" && PYTHONPATH="$repo/test/fuzz" "$venv/bin/st" --config-file "$repo/test/fuzz/schemathesis.toml" \
    run "$repo/openapi.yaml" --url "$url" -H "Authorization: Bearer $credential" \
    --max-examples "$n" --workers 1 ${seed:+--seed "$seed"} --no-color "$@")
}
both() { # $1: who, $2: the bearer credential, $3: examples per operation
  echo "== orchestrator (port $port) as $1"
  fuzz "$2" "$3" "http://127.0.0.1:$port" --exclude-tag reflex --exclude-tag arm || status=1
  echo "== reflex layer (port $reflex_port) as $1"
  fuzz "$2" "$3" "http://127.0.0.1:$reflex_port" --include-tag reflex --include-tag common || status=1
}

status=0
both admin "$token" "$examples"
# A viewer of another tenant reaches the 403 answers (writes, admin routes, X-Tenant); a fifth of
# the examples, since most of its requests end there.
viewer=$(curl -sf -H "Authorization: Bearer $token" -H 'content-type: application/json' \
  -d '{"tenant":"fuzz","role":"viewer","name":"fuzz viewer","rate_limit":0,"read_rate_limit":0}' \
  "http://127.0.0.1:$port/api/v1/api-keys" | sed -nE 's/.*"key":"([^"]+)".*/\1/p')
if [ -n "$viewer" ]; then
  both viewer "$viewer" $(( (examples + 4) / 5 ))
else
  echo "creating the viewer's API key failed" >&2
  status=1
fi

if ! kill -0 "$pid" 2>/dev/null; then
  echo "the services exited during the fuzz:" >&2
  status=1
fi
if [ "$status" != 0 ]; then
  echo "== server log (errors)" >&2
  tail -n 50 "$work/server.log" >&2
fi
exit "$status"
