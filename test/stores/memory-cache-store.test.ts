import { CacheTier } from '@ganglion/reflex'
import t from 'tap'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { CONTRACT_MAX_ENTRY_BYTES, cacheStoreContract } from './cache-store-contract.js'

cacheStoreContract(t, async () => ({
  store: new MemoryCacheStore(new CacheTier({ maxBytes: CONTRACT_MAX_ENTRY_BYTES })),
  close: async () => {},
}))
