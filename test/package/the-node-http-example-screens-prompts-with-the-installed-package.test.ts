import t from 'tap'
import { screensPrompts, startExample } from './example-server.js'

screensPrompts(t, await startExample(t, 'node-http'))
