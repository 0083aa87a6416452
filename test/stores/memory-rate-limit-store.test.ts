import t from 'tap'
import { createEngine } from '../../src/reflex/engine.js'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import { rateLimitStoreContract } from './rate-limit-store-contract.js'

rateLimitStoreContract(t, async () => ({ store: new MemoryRateLimitStore(createEngine()), close: async () => {} }))
