/**
 * `ganglion keys create | list | revoke` over HTTP (`/api/v1/api-keys`, an admin's credential),
 * used when `--url` or GANGLION_URL names a service; keys.ts does the same directly on the
 * database for the first key of a deployment. Same options, same output.
 */
import type { ApiKeyRecord } from '../stores/api-key-store.js'
import { clientOf, type GlobalOptions, handle, printJson } from './command.js'
import { type CreateOptions, createRequest, type ListOptions, table } from './keys.js'

const PAGE = 100

export function createKeyHttp(opts: CreateOptions & GlobalOptions): Promise<void> {
  const req = createRequest(opts)
  if (req === undefined) return Promise.resolve()
  return handle(async () => {
    const api = clientOf(opts)
    const created = await api.request<ApiKeyRecord & { key: string }>('POST', '/api/v1/api-keys', req)
    if (opts.json) return printJson(created)
    process.stderr.write(
      `Created API key ${created.id}: role ${created.role} in tenant ${created.tenant} (${JSON.stringify(created.name)}).\n` +
        'This is the only time the key is shown; only a hash of its secret is stored. Keep it now:\n\n',
    )
    process.stdout.write(`${created.key}\n`)
    process.stderr.write(
      `\nUse it with: GANGLION_URL=${api.url} GANGLION_API_KEY=<key> ganglion tasks list\n` +
        `Revoke it with: ganglion keys revoke ${created.id} --url ${api.url}\n`,
    )
  })
}

export function listKeysHttp(opts: ListOptions & GlobalOptions): Promise<void> {
  return handle(async () => {
    const api = clientOf(opts)
    const all: ApiKeyRecord[] = []
    for (let page = 1; ; page++) {
      const query = new URLSearchParams({ page: String(page), page_size: String(PAGE), order: 'asc' })
      if (opts.tenant !== undefined) query.set('tenant', opts.tenant)
      const res = await api.request<{ data: ApiKeyRecord[]; pagination: { total_pages: number } }>('GET', `/api/v1/api-keys?${query}`)
      all.push(...res.data)
      if (res.data.length === 0 || page >= res.pagination.total_pages) break
    }
    if (opts.json) return printJson(all)
    if (all.length === 0) {
      process.stderr.write(opts.tenant === undefined ? 'No API keys.\n' : `No API keys in tenant ${opts.tenant}.\n`)
      return
    }
    process.stdout.write(table(all))
  })
}

export function revokeKeyHttp(id: string, opts: GlobalOptions): Promise<void> {
  return handle(async () => {
    const record = await clientOf(opts).request<ApiKeyRecord>('DELETE', `/api/v1/api-keys/${encodeURIComponent(id)}`)
    if (opts.json) return printJson(record)
    process.stdout.write(`Revoked API key ${record.id} (${record.role} in tenant ${record.tenant}) at ${record.revoked_at}\n`)
  })
}
