// A local model writes its plan in a ```json fence or between sentences: the plan is the model's
// (source model), not silently replaced by the rule planner's.
import { readFileSync } from 'node:fs'
import t from 'tap'

import { OpenAiProvider } from '../../../src/llm/openai-provider.js'
import { replayServer } from '../../llm/fixtures/replay-server.js'
import { outline, plan } from './planner-fixture.js'

const recorded = JSON.parse(readFileSync(new URL('fixtures/plan-valid.json', import.meta.url), 'utf8'))
const json: string = recorded.choices[0].message.content
const goal = 'What caused the March outage? Summarise the incident report.'

const wrapped: Array<[string, string]> = [
  ['a ```json fence', `\`\`\`json\n${json}\n\`\`\``],
  ['prose', `Here is the plan: ${json}\nHope this helps!`],
]
for (const [how, content] of wrapped) {
  t.test(`a plan in ${how} is the model's plan`, async (t) => {
    const { url, requests } = await replayServer(t, { content })
    const { output, events } = await plan(goal, { llm: new OpenAiProvider({ baseUrl: url }), acceptance_criteria: ['names a cause'] })
    t.equal(output.source, 'model')
    t.equal(output.fallback, undefined)
    t.same(events, [], 'no fallback')
    t.same(outline(output), ['s1 retriever.search', 's2 retriever.recall', 's3 judge.validate <- s1,s2', 's4 guardian.scrub <- s3'])
    t.equal(requests.length, 1, 'read the first time')
  })
}
