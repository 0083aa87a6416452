import t from 'tap'
import { createEngine } from '../../src/reflex/engine.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { CONTRACT_MAX_ENTRY_BYTES, cacheStoreContract } from './cache-store-contract.js'

cacheStoreContract(t, async () => ({
  store: new MemoryCacheStore(createEngine({ cacheMaxBytes: CONTRACT_MAX_ENTRY_BYTES })),
  close: async () => {},
}))
