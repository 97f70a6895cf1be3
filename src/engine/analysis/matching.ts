/**
 * Resolves the free-text jurisdiction and area names of a scan request to vocabulary ids.
 *
 * Matching is case-insensitive and tolerant of whitespace, punctuation and diacritics: every name is
 * reduced to a compact key of lowercase letters and digits ("AML / KYC", "aml/kyc" and "AML-KYC" all become
 * `amlkyc`; "U.K." becomes `uk`; "Anti-Money Laundering" and "anti money laundering" both become
 * `antimoneylaundering`). Keys come from the vocabulary ids, labels and aliases
 * (src/modules/meta/vocabulary) plus the extra aliases below. A leading "the" is ignored ("the EU"), and
 * for areas a trailing plural "s" is tolerated ("Payment", "Sanction"). Unrecognised names resolve to null;
 * nothing here throws on user input.
 */
import { AREAS } from '../../domain/vocabulary/areas';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';

/** Extra jurisdiction names, by vocabulary id, on top of the vocabulary's own aliases. */
export const EXTRA_JURISDICTION_ALIASES: Readonly<Record<string, readonly string[]>> = {
  US: ['United States of America', 'U.S.A.', 'US federal', 'Federal US'],
  EU: ['E.U.', 'European Union (EU)', 'EU-27', 'EU27', 'European Economic Area', 'Eurozone', 'Euro area'],
  UK: ['U.K.', 'United Kingdom (UK)', 'England', 'England and Wales', 'Great Britain (GB)'],
  Singapore: ['Republic of Singapore'],
  'Hong Kong': ['Hongkong', 'Hong Kong, China', 'HK SAR'],
  Japan: ['Nippon'],
  Australia: ['Commonwealth of Australia'],
  Switzerland: ['Swiss Confederation', 'Schweiz', 'Suisse'],
  Canada: [],
  Brazil: ['Federative Republic of Brazil'],
  India: ['Republic of India', 'Bharat'],
  China: ['Mainland', 'PR China', 'P.R.C.'],
  'South Korea': ['Korea, Republic of', 'ROK', 'Korea (South)', 'S. Korea'],
};

/** Extra area names, by vocabulary id, on top of the vocabulary's own aliases. */
export const EXTRA_AREA_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'Banking / Prudential': [
    'Banking and Prudential',
    'Prudential Regulation',
    'Capital Requirements',
    'Basel III',
    'Basel 3.1',
    'Bank Capital',
    'Liquidity',
  ],
  'Capital Markets': [
    'Market Structure',
    'Capital Market',
    'Securities Markets',
    'Securities Regulation',
    'Market Infrastructure',
    'Asset Management',
    'Investment Funds',
  ],
  'Digital Assets / Crypto': [
    'Crypto Assets',
    'Cryptoassets',
    'Cryptocurrency',
    'Cryptocurrencies',
    'Virtual Assets',
    'Digital Assets and Crypto',
    'Tokenisation',
    'Tokenization',
    'Stablecoin',
  ],
  'AML / KYC': [
    'Anti Money Laundering',
    'Anti-Money Laundering / KYC',
    'AML and KYC',
    'AML-KYC',
    'Know Your Customer',
    'Know-Your-Customer',
    'CFT',
    'Counter-Terrorist Financing',
    'Counter Terrorist Financing',
    'Counter-Terrorism Financing',
    'AML/CTF',
    'Money Laundering',
    'Financial Crimes',
  ],
  Payments: ['Payment', 'Payment Systems', 'Open Finance', 'E-Money', 'Electronic Money', 'PSD3'],
  'Data Privacy': ['Privacy and Data Protection', 'Data Protection and Privacy', 'Personal Data'],
  'Operational Resilience': ['Op Res', 'OpRes', 'Cybersecurity', 'Cyber Security', 'Cyber Resilience', 'ICT', 'DORA'],
  'ESG / Sustainable Finance': [
    'Climate Risk',
    'Climate Disclosure',
    'Green Finance',
    'ESG and Sustainable Finance',
    'Sustainability Reporting',
  ],
  Sanctions: ['Sanctions Compliance', 'Financial Sanctions'],
  'Research Bundling / Unbundling': ['Research', 'Unbundling', 'MiFID Research', 'Research Payment Optionality'],
  'Consumer Protection': ['Consumer Protections', 'Consumer Credit', 'Retail Investor Protection', 'Investor Protection'],
};

/**
 * Compact matching key: NFKD-folded, lowercase, "&" read as "and", every character that is not a letter
 * or digit removed, and a leading "the" dropped.
 */
export function normalizeName(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .trim()
    .replace(/^the\s+/, '');
  return folded.replace(/[^\p{L}\p{N}]+/gu, '');
}

function buildIndex(
  entries: readonly { id: string; label: string; aliases: readonly string[] }[],
  extra: Readonly<Record<string, readonly string[]>>,
): Map<string, string> {
  const index = new Map<string, string>();
  for (const entry of entries) {
    const names = [entry.id, entry.label, ...entry.aliases, ...(extra[entry.id] ?? [])];
    for (const name of names) {
      const key = normalizeName(name);
      // First writer wins: the vocabulary order decides the rare ambiguous key.
      if (key && !index.has(key)) index.set(key, entry.id);
    }
  }
  return index;
}

const JURISDICTION_INDEX = buildIndex(JURISDICTIONS, EXTRA_JURISDICTION_ALIASES);
const AREA_INDEX = buildIndex(AREAS, EXTRA_AREA_ALIASES);

/** Jurisdiction id for a free-text name ("EU", "european union", "U.K."), or null when unrecognised. */
export function resolveJurisdiction(name: string): string | null {
  if (typeof name !== 'string') return null;
  const key = normalizeName(name);
  if (!key) return null;
  return JURISDICTION_INDEX.get(key) ?? null;
}

/** Area id for a free-text name ("AML/KYC", "anti money laundering", "crypto"), or null when unrecognised. */
export function resolveArea(name: string): string | null {
  if (typeof name !== 'string') return null;
  const key = normalizeName(name);
  if (!key) return null;
  const direct = AREA_INDEX.get(key);
  if (direct) return direct;
  // Plural tolerance: "Payment" / "Sanction" / "Stablecoins".
  if (key.endsWith('s')) return AREA_INDEX.get(key.slice(0, -1)) ?? null;
  return AREA_INDEX.get(`${key}s`) ?? null;
}

export interface ResolvedNames {
  /** Vocabulary ids, deduplicated, in the order of the first name that resolved to each. */
  ids: string[];
  /** Requested names that resolved to nothing, as given (deduplicated, order kept). */
  unmatched: string[];
}

function resolveMany(names: readonly string[], resolve: (name: string) => string | null): ResolvedNames {
  const ids: string[] = [];
  const unmatched: string[] = [];
  for (const name of names ?? []) {
    const id = resolve(name);
    if (id) {
      if (!ids.includes(id)) ids.push(id);
    } else if (typeof name === 'string' && !unmatched.includes(name)) {
      unmatched.push(name);
    }
  }
  return { ids, unmatched };
}

/** Resolves every requested jurisdiction name. */
export function resolveJurisdictions(names: readonly string[]): ResolvedNames {
  return resolveMany(names, resolveJurisdiction);
}

/** Resolves every requested area name. */
export function resolveAreas(names: readonly string[]): ResolvedNames {
  return resolveMany(names, resolveArea);
}
