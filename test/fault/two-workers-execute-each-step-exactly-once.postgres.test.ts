// Two orchestrator processes on one PostgreSQL, 200 tasks: every task completes and every step's
// executions counter is exactly 1, and no task ever had more than MAX_PARALLEL_ARMS steps running.
import t from 'tap';
import { SKIP_PG } from '../stores/pg-schema.js';
import { startWorker, stopWorker } from '../fixtures/worker-processes.js';
import { openFaultDb, pollUntil } from './fault-setup.js';

const TASKS = 200;
const MAX_PARALLEL = 2;

t.test('two workers execute each step exactly once over 200 tasks', { skip: SKIP_PG }, async (t) => {
  const db = await openFaultDb(30);
  t.teardown(() => db.close());
  const env = { ...db.workerEnv, STEP_DELAY_MS: '10', MAX_PARALLEL_ARMS: String(MAX_PARALLEL) };
  const workers = await Promise.all([startWorker('a', env), startWorker('b', env)]);
  t.teardown(() => Promise.all(workers.map((w) => stopWorker(w))));

  const began = Date.now();
  const ids = await Promise.all(Array.from({ length: TASKS },
    (_, i) => db.submit(`Search the docs and write a python script ${i} and run it`)));
  t.equal(new Set(ids).size, TASKS);
  await pollUntil('all tasks to finish', async () => {
    const { rows } = await db.sql.query<{ n: number }>(
      "select count(*)::int as n from tasks where status in ('queued', 'planning', 'running', 'cancelling')");
    return rows[0]?.n === 0;
  }, 90_000);
  t.comment(`${TASKS} tasks (${TASKS * 4} steps) in ${Date.now() - began} ms`);

  t.same(await db.statusCounts(), { completed: TASKS }, 'every task completed');
  const { rows } = await db.sql.query<{ executions: number; n: number }>(
    'select executions, count(*)::int as n from task_steps group by executions');
  t.same(rows, [{ executions: 1, n: TASKS * 4 }], 'each of the steps began exactly once');

  // Both workers took part: the step outputs do not say who ran them, the started events' order does
  // not either, so ask the processes: each prints its step count when stopped.
  const counts: string[] = [];
  for (const w of workers) {
    let out = '';
    w.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await stopWorker(w);
    counts.push(`${w.name}=${/"steps":(\d+)/.exec(out)?.[1] ?? '?'}`);
  }
  t.comment(`steps per worker: ${counts.join(' ')}`);
  t.ok(counts.every((c) => !c.endsWith('=0') && !c.endsWith('=?')), 'both workers ran steps');

  // The limit, from the stored timestamps: at no instant did a task have more than 2 steps running.
  const { rows: peak } = await db.sql.query<{ peak: number }>(
    `select coalesce(max(n), 0)::int as peak from (
       select a.task_id, a.step_id, count(*) as n
         from task_steps a join task_steps b
           on a.task_id = b.task_id and b.started_at <= a.started_at and b.completed_at > a.started_at
        group by a.task_id, a.step_id) x`);
  t.ok((peak[0]?.peak ?? 0) <= MAX_PARALLEL, `at most ${MAX_PARALLEL} steps of a task at once (peak ${peak[0]?.peak})`);
});
