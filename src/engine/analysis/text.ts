/**
 * Small deterministic text helpers for the rule-written offline prose.
 */
import type { DateConfidence } from '../calendar/calendar.types';
import { formatPeriod, type Precision, shownPrecision } from './dates';

/** "A", "A and B", "A, B and C". */
export function joinList(parts: readonly string[], conjunction = 'and'): string {
  if (parts.length === 0) return '';
  if (parts.length === 1) return parts[0];
  return `${parts.slice(0, -1).join(', ')} ${conjunction} ${parts[parts.length - 1]}`;
}

/** "1 instrument", "3 instruments" (regular plurals, or an explicit plural form). */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** Spelled-out numbers for sentence starts and pull quotes (1-12), digits beyond. */
export function numberWord(n: number): string {
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
  return n >= 0 && n < words.length ? words[n] : String(n);
}

export function capitalise(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Kebab-case ASCII slug ("AML / KYC" -> "aml-kyc", "Hong Kong|HKMA" -> "hong-kong-hkma"). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Cuts `text` at a word boundary so that it fits `max` characters, adding "…" when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  const base = space > max / 2 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s,;:–-]+$/, '')}…`;
}

/** Removes a trailing full stop (and spaces). */
export function stripFinalStop(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

/** Ensures the text ends with sentence punctuation. */
export function ensureFinalStop(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/** Words that end in a full stop without ending a sentence ("No. 2", "Art. 5", "Inc. and"), lower-cased. */
const ABBREVIATIONS = new Set(
  'no nos art arts para paras p pp mr mrs ms dr st inc ltd co corp plc vs cf approx fig sec ch vol jan feb mar apr jun jul aug sep sept oct nov dec'.split(' '),
);
/** A full stop, "!" or "?" (with closing quotes or brackets) and the space after it; or a CJK full stop, which needs none. */
const SENTENCE_END = /([.!?]+["”’')）\]]*)(\s+)|([。！？]+["”’')）]*)/gu;

/**
 * Splits prose into sentences: after ". ", "! " or "? " followed by an upper-case letter, a digit or an opening
 * quote, and after a CJK full stop. A decimal point ("Basel 3.1", "72.5 %") is never an end, nor is the stop of
 * initials ("U.S. Treasury", "e.g. This") or of a common abbreviation ("Notice No. 2").
 */
export function sentences(text: string): string[] {
  const source = text.trim();
  const out: string[] = [];
  let start = 0;
  for (const match of source.matchAll(SENTENCE_END)) {
    const at = match.index ?? 0;
    if (match[3]) {
      out.push(source.slice(start, at + match[3].length));
      start = at + match[0].length;
      continue;
    }
    const next = source[at + match[0].length];
    if (!next || !/[\p{Lu}\d"'(“‘]/u.test(next)) continue;
    if (match[1].startsWith('.') && !/[.!?]{2,}/.test(match[1])) {
      const word = (/(\S+)$/.exec(source.slice(start, at))?.[1] ?? '').replace(/^[("'“‘]+/, '').toLowerCase();
      if (ABBREVIATIONS.has(word) || /^(?:\p{L}\.)*\p{L}$/u.test(word)) continue;
    }
    out.push(source.slice(start, at + match[1].length));
    start = at + match[0].length;
  }
  out.push(source.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

export function firstSentence(text: string): string {
  return sentences(text)[0] ?? text.trim();
}

/**
 * First words of calendar events that are ordinary words, safe to lower-case inside a sentence. Anything
 * else (acronyms, names such as "Commission", "FCA", "T+1") keeps its case.
 */
const LOWERCASE_SAFE = new Set(
  (
    'final first revised output possible end entry transposition compliance deadline legislation consultation expected ' +
    'obligations new amended general publication guidelines amendments full draft earliest rules provisional joint group ' +
    'statutory mandatory phase second measures target application next implementation interim updated rule all proposed ' +
    'monthly remaining most latest reporting commencement assessment annual amendment decision eligible applies simplified ' +
    'legislative pilot further formal delegated standards standard guidance guideline launch review adoption due limited phased ' +
    'scheduled fully wider results notice temporary extended current previous following primary certification requirements ' +
    'approval release enactment migration scope external broad higher total small targeted core prohibited supporting tranche ' +
    'transfer procedural accelerated deferred postponed comment reconsideration original passed enrolment reformed reasonable ' +
    'transparency licensing quantitative disclosure disclosures domestic strong direct ban equity listing omnibus accessibility ' +
    'manufacturers models active charges recommendation governing regimes module shared authentication metrics assurance ' +
    'responsibility framework regime dashboards scenario conduct deposit limit sandbox duty banks capital climate instant ' +
    'operational data payment sector five-year three-year two-year near-final second-wave entity-level pre-existing post-repeal ' +
    'sector-specific access-by-design unfair-terms risk-based longer-term code-of-conduct travel-rule verification-of-payee ' +
    'bond cloud consent dispatch directions companies amending circular resolutions designation start opening closing'
  ).split(/\s+/),
);

/** Lower-cases the first word of an event when it is an ordinary word, so it reads inside a sentence. */
export function eventInSentence(event: string): string {
  const text = stripFinalStop(event);
  const match = /^([A-Z][a-z]+(?:-[a-z]+)*)(\b|$)/.exec(text);
  if (match && LOWERCASE_SAFE.has(match[1].toLowerCase())) {
    return match[1].toLowerCase() + text.slice(match[1].length);
  }
  return text;
}

/** "on 10 July 2027", "expected on 10 July 2027", "estimated for 10 July 2027". */
export function datePhrase(date: string, confidence: DateConfidence, given: Precision = 'day'): string {
  const precision = shownPrecision(confidence, given);
  const period = formatPeriod(date, precision);
  const on = precision === 'day' ? 'on' : precision === 'year' ? 'during' : 'in';
  if (confidence === 'confirmed') return `${on} ${period}`;
  if (confidence === 'expected') return `expected ${on} ${period}`;
  return `estimated for ${period}`;
}

/** "on 10 July 2027" or "between H1 2026 and 10 July 2027": each end printed as precisely as it is known. */
export function periodSpan(items: readonly { key_date: string; key_date_precision?: Precision }[]): string {
  const sorted = [...items].sort((a, b) => (a.key_date < b.key_date ? -1 : a.key_date > b.key_date ? 1 : 0));
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  const firstText = formatPeriod(first.key_date, first.key_date_precision);
  const lastText = formatPeriod(last.key_date, last.key_date_precision);
  if (firstText === lastText) return `${(first.key_date_precision ?? 'day') === 'day' ? 'on' : 'in'} ${firstText}`;
  return `between ${firstText} and ${lastText}`;
}

function looksLikeAcronym(text: string): boolean {
  if (text.length > 16 || /[,;]/.test(text)) return false;
  if (!/^[A-Z][A-Za-z0-9.+/-]*(?: [A-Z0-9][A-Za-z0-9.+/-]*)?$/.test(text)) return false;
  return (text.match(/[A-Z]/g) ?? []).length >= 2;
}

/**
 * Short name of an instrument for labels: the acronym in brackets when there is one
 * ("Anti-Money Laundering Regulation (AMLR) – single rulebook" -> "AMLR"), else the part before " – "
 * ("CRR3 – Basel III output floor phase-in" -> "CRR3") or a colon ("Economic Crime and Corporate Transparency Act 2023:
 * Companies House identity verification" -> the Act), else the title without brackets.
 */
export function shortName(title: string): string {
  for (const match of title.matchAll(/\(([^()]+)\)/g)) {
    const inner = match[1].trim();
    if (looksLikeAcronym(inner)) return inner;
  }
  const withoutBrackets = (text: string) => {
    let out = text;
    for (let previous = ''; previous !== out;) {
      previous = out;
      out = out.replace(/\s*\([^()]*\)/g, '');
    }
    return out.replace(/\s+/g, ' ').trim();
  };
  const dash = title.split(/\s+[–—]\s+|:\s+/)[0];
  if (dash !== title && dash.length <= 60) return withoutBrackets(dash) || title;
  return withoutBrackets(title) || title;
}

/** A list of names, or "N <noun>s" when there are more than `max` (for titles and headlines). */
export function compactList(names: readonly string[], noun: string, max = 3): string {
  return names.length > max ? count(names.length, noun) : joinList(names);
}

/** Words of calendar theme tags that are written in capitals or as names. */
const THEME_WORDS: Readonly<Record<string, string>> = {
  aml: 'AML',
  amla: 'AMLA',
  app: 'APP',
  basel: 'Basel',
  bnpl: 'BNPL',
  bsa: 'BSA',
  carf: 'CARF',
  cbdc: 'CBDC',
  cftc: 'CFTC',
  dlt: 'DLT',
  esg: 'ESG',
  esrs: 'ESRS',
  etfs: 'ETFs',
  ics: 'ICS',
  ict: 'ICT',
  iii: 'III',
  irrbb: 'IRRBB',
  iso: 'ISO',
  issb: 'ISSB',
  mrel: 'MREL',
  mydata: 'MyData',
  nbfc: 'NBFC',
  russia: 'Russia',
  sec: 'SEC',
  sme: 'SME',
  't+1': 'T+1',
};

/** Display form of a lowercase theme tag ("cbdc" -> "CBDC", "basel iii" -> "Basel III", "crypto etfs" -> "crypto ETFs"). */
export function themeLabel(theme: string): string {
  return theme
    .split(' ')
    .map((word) =>
      word
        .split('-')
        .map((part) => THEME_WORDS[part] ?? part)
        .join('-'),
    )
    .join(' ');
}
