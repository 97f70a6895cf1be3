import type { SelectedEntry } from '../analysis/selection';
import type { NumberedSource } from './prompts';

/**
 * Every source the analyst may cite, numbered [S1], [S2]… in the order they were found: the calendar candidates'
 * own sources first, then what search adds. A URL is numbered once.
 */
export class SourceBook {
  readonly sources: NumberedSource[] = [];
  /** Calendar entry id -> the numbers of its sources. */
  readonly candidateSources = new Map<string, number[]>();
  private readonly byUrl = new Map<string, NumberedSource>();

  constructor(candidates: readonly SelectedEntry[]) {
    for (const { entry } of candidates) {
      const numbers: number[] = [];
      for (const source of entry.sources) {
        const numbered =
          this.byUrl.get(source.url) ??
          this.add({
            url: source.url,
            title: source.title,
            publisher: source.publisher,
            publishedAt: source.published_at ?? null,
            snippet: '',
            calendarId: entry.id,
            kind: source.kind ?? 'official',
          });
        numbers.push(numbered.number);
      }
      this.candidateSources.set(entry.id, numbers);
    }
  }

  has(url: string): boolean {
    return this.byUrl.has(url);
  }

  add(source: Omit<NumberedSource, 'number'>): NumberedSource {
    const numbered: NumberedSource = { number: this.sources.length + 1, ...source };
    this.sources.push(numbered);
    this.byUrl.set(numbered.url, numbered);
    return numbered;
  }
}
