/** One sample line of the Prometheus text exposition format (version 0.0.4). */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric family name -> its TYPE (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  /** Sum of the samples named `name` whose labels include every pair of `match`. */
  sum(name: string, match?: Record<string, string>): number;
  find(name: string, match?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;

/** A strict parser: any line it cannot read fails the test, so a malformed exposition cannot pass unnoticed. */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1], type[2]);
      else if (!/^# HELP \S+ /.test(line)) throw new Error(`unreadable comment line: ${line}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`unreadable sample line: ${line}`);
    const value = parseValue(match[3]);
    if (Number.isNaN(value) && match[3].toLowerCase() !== 'nan') throw new Error(`unreadable value in: ${line}`);
    samples.push({ name: match[1], labels: parseLabels(match[2] ?? '', line), value });
  }
  const find = (name: string, match: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(match).every(([key, value]) => s.labels[key] === value));
  return { samples, types, find, sum: (name, match) => find(name, match).reduce((total, s) => total + s.value, 0) };
}

function parseValue(raw: string): number {
  if (raw === '+Inf') return Infinity;
  if (raw === '-Inf') return -Infinity;
  return Number(raw);
}

function parseLabels(raw: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = raw;
  while (rest.length) {
    const pair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/.exec(rest);
    if (!pair) throw new Error(`unreadable labels in: ${line}`);
    labels[pair[1]] = pair[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(pair[0].length);
  }
  return labels;
}
