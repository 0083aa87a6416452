import t from 'tap'

import { API_KEY, CARD, EMAIL, guard, INJECTION } from './guardian-fixture.js'

t.test('no event of any kind, from scrub or screen, contains a matched value', async (t) => {
  const secrets = [EMAIL, CARD, CARD.replaceAll(' ', ''), API_KEY, 'hunter2']
  const deps = {
    // the key itself is an address: paths in events are redacted too
    s1: { [EMAIL]: { text: `${INJECTION} Mail ${EMAIL}` } },
    s2: { stdout: `card ${CARD} token ${API_KEY} password=hunter2` },
  }
  const runs = [
    await guard({ tool: 'scrub', deps, constraints: { output_policy: { blocked_terms: ['token'] } } }),
    await guard({ tool: 'scrub', input: { text: `card ${CARD}, ${EMAIL}` } }),
    await guard({ tool: 'screen', deps }),
  ]
  const events = runs.flatMap((r) => r.events)
  t.ok(events.some((e) => e.type === 'guardrail.pii_redacted'))
  t.ok(events.some((e) => e.type === 'guardrail.injection'))
  t.ok(events.some((e) => e.type === 'guardrail.policy'))
  const text = JSON.stringify(events)
  for (const secret of secrets) t.notOk(text.includes(secret), `no ${secret.slice(0, 4)}…`)
  t.notMatch(text, /ignore all previous/i)
  const scrubbed = JSON.stringify(runs[0]!.output)
  for (const secret of [CARD, API_KEY, 'hunter2']) t.notOk(scrubbed.includes(secret), 'nor in the scrubbed output')
})
