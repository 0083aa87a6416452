#!/usr/bin/env bash
# Instructions a check request costs the whole reflex server (uWS, V8, our JavaScript, the addon),
# counted by callgrind: steady to a percent or two run to run, where this machine's req/s move by
# four (docs/performance.md#measuring-on-shared-machines). The service runs under callgrind with instrumentation off; after
# --warmup requests (JIT, buffers, the addon's tables) it is switched on for --requests more, and
# the counts are divided by them. Garbage collection falls in some windows and not others, so the
# figure is printed with and without V8's functions whose names say they collect (a name match:
# Scavenge, Sweep, Mark…; close enough to compare two builds, not an exact account of V8's GC).
#
#   bench/server-instructions.sh [--hit] [--warmup 6000] [--requests 5000] [--reflex-cmd "node dist/cli/main.js reflex"] [--top 0]
#
# --hit makes the HTTP bench's hit text a hit first, by a task of that goal run to completion
# (bench/seed-hit.ts), and sends it (the memoised hit path); the default sends misses. A task needs
# an orchestrator in the same process, so with --hit the default command is
# `node dist/cli/main.js start`, and an idle orchestrator shares the counted window; misses run the
# reflex layer alone. --top N also prints the N functions with the most instructions a request.
# Needs valgrind (apt-get install -y valgrind). Kernel time is not counted: compare builds, not routes.
set -euo pipefail
cd "$(dirname "$0")/.."

hit=""; warmup=6000; requests=5000; cmd=""; top=0
while [ $# -gt 0 ]; do
  case "$1" in
    --hit) hit="--hit"; shift ;;
    --warmup) warmup=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --reflex-cmd) cmd=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

if [ -z "$cmd" ]; then
  if [ -n "$hit" ]; then cmd="node dist/cli/main.js start"; else cmd="node dist/cli/main.js reflex"; fi
fi

port=18402
work=$(mktemp -d /tmp/ganglion-instr.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# valgrind names its control pipes after $USER and $HOST; callgrind_control must see the same.
export USER=${USER:-root} HOST=127.0.0.1
ctl() { callgrind_control --vgdb-prefix="$work/vgdb" "$@" >/dev/null 2>&1; }
send() { node --import @tapjs/typescript/import bench/send-checks.ts --port "$port" $hit "$@"; }

# shellcheck disable=SC2086 # the command is words
REFLEX_PORT=$port PORT=$((port + 1)) DATA_DIR="$work/data" LOG_LEVEL=ERROR NODE_ENV=production \
  RATE_LIMIT_PER_IP=0 RATE_LIMIT_READS_PER_IP=0 RATE_LIMIT_PER_USER=0 RATE_LIMIT_READS_PER_USER=0 \
  valgrind --tool=callgrind --vgdb=yes --vgdb-prefix="$work/vgdb" --instr-atstart=no \
  --callgrind-out-file="$work/out" $cmd >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/api/v1/health" && break; sleep 0.5; done
curl -sf -o /dev/null "http://127.0.0.1:$port/api/v1/health" || { cat "$work/server.log" >&2; exit 1; }

[ -n "$hit" ] && send --store

send --requests "$warmup" --from 0
ctl -i on
send --requests "$requests" --from "$warmup"
ctl -i off
ctl --dump
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""

dump=$(ls "$work"/out.* | head -n 1)
callgrind_annotate "$dump" 2>/dev/null | sed -n '/file:function/,$p' | awk -v n="$requests" -v top="$top" -v what="$([ -n "$hit" ] && echo hit || echo miss)" '
  match($0, /^ *[0-9,]+ /) {
    count = substr($0, RSTART, RLENGTH); gsub(/[ ,]/, "", count)
    name = $0; sub(/^ *[0-9,]+ +(\([ 0-9.]+%\) +)?/, "", name); sub(/ \[.*\]$/, "", name)
    total += count
    # V8'"'"'s own functions only: the addon has names such as `Marks` too.
    if (name ~ /(v8::internal|heap::base|cppgc)::/ && name ~ /Scaveng|Sweep|Mark|Evacuat|Heap::|GarbageCollect|Collector|Compactor|Remembered|SlotSet|Safepoint|RootVisitor/) gc += count
    if (top > 0 && ++rows <= top) printf "%8.0f  %s\n", count / n, substr(name, 1, 100)
  }
  END {
    printf "%s: %.1fk instructions a request (%.1fk without the collector'"'"'s functions, %.1fk in them), %d requests\n", \
      what, total / n / 1000, (total - gc) / n / 1000, gc / n / 1000, n
  }'
