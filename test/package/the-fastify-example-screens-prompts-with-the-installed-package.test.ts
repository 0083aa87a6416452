import t from 'tap'
import { screensPrompts, startExample } from './example-server.js'

// fastify comes from npm's cache: the root package.json names the same version, so `npm ci` put it there.
screensPrompts(t, await startExample(t, 'fastify'))
