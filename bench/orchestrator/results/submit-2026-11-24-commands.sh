#!/bin/bash
# As run on 2026-11-24: the first script ran its create decomposition and pg1/pgnr1, then was stopped (time);
# the second (below, from its #!/bin/bash line) ran pg2, pglite1 and pgnr2.
# Final A/B: the base commit (40ae1ef) and perf-submit, alternating, each submit.ts run with its own
# bare-send reference on an emptied database. Base runs its own src/ with this branch's submit.ts
# and api-server.ts (bench harness only) so both sides have the --no-runner row.
export DATABASE_URL=postgres://postgres@127.0.0.1:5440/obench_perf
run() { # tag side args...
  local tag=$1 side=$2; shift 2
  cd /tmp/perf-$side
  nice -n 10 node --import @tapjs/typescript/import bench/orchestrator/submit.ts --rounds 1 --duration 10 --warmup 2 --concurrency 32 "$@" \
    --json /tmp/perf-out/final/$tag-$side.json > /tmp/perf-out/final/$tag-$side.md 2> /tmp/perf-out/final/$tag-$side.err
}
mkdir -p /tmp/perf-out/final
# Decomposition of the create alone (no HTTP, no runner): one transaction per task, before and after
# the one-statement insert, beside bare send, on an emptied database each.
reset() { psql -q -h 127.0.0.1 -p 5440 -U postgres obench_perf -c "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()" -c "drop schema if exists pgboss cascade" -c "drop schema if exists public cascade" -c "create schema public" > /dev/null; }
bare() { # side mode
  reset; cd /tmp/perf-$1
  nice -n 10 node --import @tapjs/typescript/import bench/orchestrator/bare-send.ts --concurrency 32 --duration 10 --mode $2 >> /tmp/perf-out/final/create-decomposition.jsonl
}
for i in 1 2; do bare submit plain; bare base create; bare submit create1; bare submit create; done
for i in 1 2; do
  run pg$i base --only postgres
  run pg$i submit --only postgres
  run pgnr$i base --only postgres --no-runner
  run pgnr$i submit --only postgres --no-runner
done
run pglite1 base --only pglite
run pglite1 submit --only pglite
echo done > /tmp/perf-out/final/DONE
#!/bin/bash
export DATABASE_URL=postgres://postgres@127.0.0.1:5440/obench_perf
run() {
  local tag=$1 side=$2; shift 2
  cd /tmp/perf-$side
  nice -n 10 node --import @tapjs/typescript/import bench/orchestrator/submit.ts --rounds 1 --duration 10 --warmup 2 --concurrency 32 "$@" \
    --json /tmp/perf-out/final/$tag-$side.json > /tmp/perf-out/final/$tag-$side.md 2> /tmp/perf-out/final/$tag-$side.err
}
run pg2 base --only postgres
run pg2 submit --only postgres
run pglite1 submit --only pglite
run pglite1 base --only pglite
run pgnr2 submit --only postgres --no-runner
run pgnr2 base --only postgres --no-runner
echo done > /tmp/perf-out/final/DONE2
