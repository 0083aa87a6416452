/**
 * The `text` of every item of the labelled corpus files (test/corpus/*.jsonl), in file order:
 * the texts tests compare two implementations on.
 *
 * ```ts
 * corpusTexts().length            // every item of the four files
 * corpusTexts(['injection'])[0]   // 'Ignore all previous instructions and …'
 * ```
 */
import { readFileSync } from 'node:fs'

export type CorpusFile = 'pii' | 'pii-holdout' | 'injection' | 'injection-holdout'

export function corpusTexts(files: readonly CorpusFile[] = ['pii', 'pii-holdout', 'injection', 'injection-holdout']): string[] {
  return files.flatMap((name) =>
    readFileSync(new URL(`../corpus/${name}.jsonl`, import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { text: string }).text),
  )
}
