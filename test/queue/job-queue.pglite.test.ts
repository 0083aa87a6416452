// The job queue on PGlite (in memory) through pg-boss's fromPglite adapter. Always runs.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { jobQueueBehaviour } from './job-queue-behaviour.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
await jobQueueBehaviour(t, sql, 'pgboss')
