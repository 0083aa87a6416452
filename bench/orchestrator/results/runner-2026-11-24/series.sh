#!/bin/bash
# One series: base, then this branch with RUNNER_CONNECTIONS 4 (default), 2, 10, each one submit.ts run.
export DATABASE_URL=postgres://postgres@127.0.0.1:5440/orch_bench
run() { (cd $1 && nice -n 10 timeout 300 node --import @tapjs/typescript/import bench/orchestrator/submit.ts --rounds 1 --duration 10 --warmup 2 --concurrency 32 --only postgres --statements $3 --json /tmp/orchb/$2.json > /tmp/orchb/$2.md 2> /tmp/orchb/$2.err); echo "$2 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg): $(grep -E '^\| postgres' /tmp/orchb/$2.md)"; }
for i in "$@"; do
  run /work/wt-orch-base s$i-base
  RUNNER_CONNECTIONS=4 run /work/wt-orch s$i-rc4
  RUNNER_CONNECTIONS=2 run /work/wt-orch s$i-rc2
  RUNNER_CONNECTIONS=10 run /work/wt-orch s$i-rc10
done
