import { RateLimiter } from '@ganglion/reflex'
import t from 'tap'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import { rateLimitStoreContract } from './rate-limit-store-contract.js'

rateLimitStoreContract(t, async () => ({ store: new MemoryRateLimitStore(new RateLimiter()), close: async () => {} }))
