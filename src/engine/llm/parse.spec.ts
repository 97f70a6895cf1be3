import { asIsoDate, extractJsonObject, rewriteSourceReferences, sourceNumbers, stripReferences } from './parse';

describe('llm parse helpers', () => {
  it('extracts the outermost JSON object from fences, prose and think blocks', () => {
    expect(extractJsonObject('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(extractJsonObject('Sure! {"a": {"b": "}"}} hope that helps')).toEqual({ a: { b: '}' } });
    expect(extractJsonObject('<think>{"no": 1</think>\n{"ok": true}')).toEqual({ ok: true });
    expect(extractJsonObject('[1, 2]')).toBeNull();
    expect(extractJsonObject('{"broken": ')).toBeNull();
    expect(extractJsonObject('')).toBeNull();
  });

  it('reads source numbers and dates leniently', () => {
    expect(sourceNumbers([1, 'S2', '[S3]', 'x', 0, 2])).toEqual([1, 2, 3]);
    expect(sourceNumbers('S4')).toEqual([4]);
    expect(asIsoDate('2027-02-30')).toBeUndefined();
    expect(asIsoDate('2027-02-28T00:00:00Z')).toBe('2027-02-28');
  });

  it('rewrites and strips references', () => {
    const ids = new Map([
      [1, 10],
      [2, 11],
    ]);
    expect(rewriteSourceReferences('A [S1]. B [S2; S9]. C [S9]. D [[cite:4]].', (n) => ids.get(n))).toBe(
      'A [[cite:10]]. B [[cite:11]]. C. D.',
    );
    expect(stripReferences('A [S1], b [[cite:3]].')).toBe('A, b.');
  });
});
