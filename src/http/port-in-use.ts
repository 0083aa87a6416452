/**
 * A port another process already listens on. A service checks its ports before it opens its
 * database (so a second `npm start` never touches the first one's PGlite directory) and listens
 * exclusively after (hyper-express-internals.ts `listenExclusively`), so two services never share
 * a port and neither is left answering for the other.
 *
 * ```ts
 * await ensurePortFree(8000, '0.0.0.0') // or throws PortInUseError: "port 8000 on 0.0.0.0 is already in use …"
 * ```
 */
import { createServer } from 'node:net'

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use by another process (a Ganglion already running?): stop it or choose another port`)
  }
}

/**
 * Binds `port` on `host` and lets it go at once; PortInUseError when the bind is refused. Port 0
 * (any free port) is not checked. A node:net socket never sets SO_REUSEPORT, so the probe fails
 * against any listener, one that set it included.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, host) : err))
    probe.listen({ port, host, exclusive: true }, () => resolve())
  })
  await new Promise<void>((resolve) => probe.close(() => resolve()))
}
