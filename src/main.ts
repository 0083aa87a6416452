/**
 * `npm start`: every service in one process on embedded defaults (reflex layer on REFLEX_PORT,
 * orchestrator on PORT, PGlite under DATA_DIR, no Redis unless REDIS_URL is set).
 */
import { run } from './cli/run.js'

await run({ reflex: true, orchestrator: true })
