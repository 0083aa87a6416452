/**
 * JSON Schemas of the executor's tool inputs and outputs, for its ArmCapability: a planner reads
 * them to build a step. One branch per tool (`title` = the tool); the tool code checks the same
 * rules itself, with messages that name the field.
 *
 * ```ts
 * capability.input_schema.oneOf.find((s) => s.title === 'shell')
 * ```
 */
import type { ExecutorLimits } from './limits.js'

export function inputSchema(limits: Readonly<ExecutorLimits>): Record<string, unknown> {
  return {
    description: 'request.input; its shape depends on request.tool',
    oneOf: [
      {
        title: 'shell',
        type: 'object',
        required: ['command'],
        additionalProperties: false,
        properties: {
          command: { type: 'string', description: 'a bare command name from the allow-list (no path, no shell syntax)' },
          args: {
            type: 'array',
            items: { type: 'string' },
            maxItems: limits.shellMaxArgs,
            description: 'argv after the command, passed as is',
          },
          stdin: { type: 'string', description: `at most ${limits.shellStdinBytes} bytes` },
          timeout_ms: {
            type: 'integer',
            minimum: 1,
            description: `wall clock; default ${limits.shellTimeoutMs}, never more than the step's timeout`,
          },
          allow_nonzero_exit: { type: 'boolean', default: false, description: 'return the output of a non-zero exit instead of failing' },
        },
      },
      {
        title: 'javascript',
        type: 'object',
        additionalProperties: false,
        properties: {
          code: {
            type: 'string',
            description:
              "a script; its completion value is the result. Absent: the first dependency output { language: 'javascript', code }",
          },
          timeout_ms: { type: 'integer', minimum: 1, description: `default ${limits.jsTimeoutMs}` },
        },
      },
      {
        title: 'http_fetch',
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', format: 'uri', description: 'http(s) URL of an allow-listed host' },
          method: { enum: ['GET', 'HEAD'], default: 'GET' },
          headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'no credentials or cookies' },
          max_bytes: { type: 'integer', minimum: 1, maximum: limits.fetchMaxBytes, default: limits.fetchDefaultBytes },
        },
      },
    ],
  }
}

export function outputSchema(): Record<string, unknown> {
  return {
    description: 'the step output; its shape depends on request.tool',
    oneOf: [
      {
        title: 'shell',
        type: 'object',
        required: ['exit_code', 'stdout', 'stderr', 'truncated', 'duration_ms', 'signal'],
        properties: {
          exit_code: { type: ['integer', 'null'], description: 'null when the command was killed' },
          stdout: { type: 'string' },
          stderr: { type: 'string' },
          truncated: { type: 'boolean', description: 'output passed its cap; the command was killed' },
          duration_ms: { type: 'number' },
          signal: { type: ['string', 'null'] },
        },
      },
      {
        title: 'javascript',
        type: 'object',
        required: ['result', 'console', 'duration_ms'],
        properties: {
          result: { description: 'the completion value as JSON (undefined, functions, symbols → null; BigInt → string)' },
          console: { type: 'array', items: { type: 'string' } },
          duration_ms: { type: 'number' },
        },
      },
      {
        title: 'http_fetch',
        type: 'object',
        required: ['url', 'status', 'headers', 'body', 'truncated'],
        properties: {
          url: { type: 'string', description: 'the final URL, after redirects' },
          status: { type: 'integer' },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
          body: { type: 'string' },
          truncated: { type: 'boolean' },
        },
      },
    ],
  }
}
