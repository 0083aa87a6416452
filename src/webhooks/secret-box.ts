/**
 * How signing secrets are kept (docs/webhooks.md, "Secrets"). A secret signs every delivery, so it
 * must be read back and cannot be stored as a hash. With WEBHOOK_SECRET_KEY set it is sealed with
 * AES-256-GCM under a key derived from that value (`v1:<iv>:<tag>:<ciphertext>`, base64url): a copy
 * of the database alone does not give the secrets away. Without it the secret is stored as
 * `plain:<secret>`, protected only by access to the database.
 *
 * ```ts
 * const box = secretBox(process.env.WEBHOOK_SECRET_KEY)
 * const stored = box.seal('whsec_…')   // 'v1:…' or 'plain:whsec_…'
 * box.open(stored)                      // 'whsec_…'
 * ```
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

export interface SecretBox {
  seal(secret: string): string
  /** @throws Error when the stored value was sealed under another key, or is not a stored secret. */
  open(stored: string): string
}

const PLAIN = 'plain:'
const SEALED = 'v1:'

export function secretBox(key: string | undefined): SecretBox {
  const aesKey = key === undefined ? undefined : Buffer.from(hkdfSync('sha256', key, 'ganglion', 'webhook signing secrets', 32))
  return {
    seal(secret) {
      if (aesKey === undefined) return `${PLAIN}${secret}`
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv)
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      return `${SEALED}${[iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join(':')}`
    },
    open(stored) {
      if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length)
      if (!stored.startsWith(SEALED)) throw new Error('not a stored webhook secret')
      if (aesKey === undefined) throw new Error('a sealed webhook secret needs WEBHOOK_SECRET_KEY to be read')
      const [iv, tag, ciphertext] = stored
        .slice(SEALED.length)
        .split(':')
        .map((part) => Buffer.from(part, 'base64url'))
      if (iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('a sealed webhook secret is malformed')
      const decipher = createDecipheriv('aes-256-gcm', aesKey, iv)
      decipher.setAuthTag(tag)
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8')
    },
  }
}
