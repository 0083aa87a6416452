// The TaskStore contract on PGlite (in memory), the embedded default. Always runs.
import t from 'tap';
import { openSql } from '../../src/stores/open-sql.js';
import { SqlTaskStore } from '../../src/stores/sql-task-store.js';
import { taskStoreContract } from './task-store-contract.js';

await taskStoreContract(t, async () => {
  const sql = await openSql({ dataDir: 'memory://' });
  return { store: new SqlTaskStore(sql), sql, close: () => sql.close() };
});
