/**
 * Rules about one source address: landing pages, news sites, locale paths and the permanent address schemes a URL
 * may be built from without a search having shown it. Pure functions over strings; docs/calendar.md explains them.
 */

/** Path segments that name a language or an index page, not content. */
const LOCALE_SEGMENT = /^(en|eng|english|en-us|en-gb|fr|de|it|es|pt|pt-br|ja|jp|zh|zh-cn|zh-hans|zh-hant|ko|kr|csrc_en|home)$/i;
const INDEX_SEGMENT = /^(index|default|home|main|start)([._-](en|eng))?(\.(s?html?|aspx?|php|jsp|do))?$/i;
/** Last path segments of listing pages: a news room, a list of circulars, a search form, a topic hub. */
const GENERIC_SECTION =
  /^(news|newsroom|news-room|news-and-publications|news-and-media|press|press-releases|pressreleases|pressdetail|media-releases|media|publications|consultations|consultation|circulars|notifications|notices|rules-policy|rule-filings|documentation|laws-and-regulations|legislation|regulation|regulations|policy|guidance|search|buscanormas|sitemap|finma-circulars|finma-guidance|esma-news|policy-statements-and-announcements|topics|about|about-us|overview|key-topics|our-work|what-we-do|speeches|statements)$/;
/** Dynamic listing or search pages: a list/search/display/view script called without a document id. */
const LISTING_SCRIPT = /(list|search|display|view|user|results?)\.(aspx?|php|jsp|do|cfm)$/i;
/** Home pages of an organisation on a shared government portal (gov.uk, gov.br, canada.ca). */
const PORTAL_HOME: readonly [RegExp, RegExp][] = [
  [/(^|\.)gov\.uk$/, /^\/government\/organisations\/[^/]+\/?$/],
  [/(^|\.)gov\.br$/, /^\/[^/]+(\/(en|pt-br|es))?\/?$/],
  [/(^|\.)canada\.ca$/, /^\/(en|fr)\/[^/]+(\.html)?\/?$/],
];

/** Why `url` looks like a home page or a section landing page, or null when it names a document. */
export function landingPageReason(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  const segments = parsed.pathname.split('/').filter((s) => s && !LOCALE_SEGMENT.test(s));
  if (segments.every((s) => INDEX_SEGMENT.test(s)) && !parsed.search) return 'is a home page';
  const host = parsed.hostname.toLowerCase();
  if (PORTAL_HOME.some(([h, p]) => h.test(host) && p.test(parsed.pathname))) return "is an organisation's home page";
  const lastRaw = segments[segments.length - 1] ?? '';
  const last = lastRaw.toLowerCase().replace(/\.(s?html?|aspx?|php|jsp|do)$/, '');
  if (GENERIC_SECTION.test(last) && !parsed.search) return `is a generic '${last}' landing page`;
  if (LISTING_SCRIPT.test(parsed.pathname) && !parsed.search) {
    return 'is a script page without a document id (a listing or search page)';
  }
  // ECB-style section hubs end in index.en.html; a site that files each document under its own numeric id
  // (PBOC: /en/3688110/3688172/5123456/index.html) uses the same name for document pages.
  const documentId = segments.slice(0, -1).some((s) => /^\d{5,}$/.test(s) || /\d{4}[-_]?\d{2}/.test(s));
  if (/^index([._-][a-z]{2,3})*\.(s?html?|aspx?|php)$/i.test(lastRaw) && !parsed.search && !documentId) {
    return 'is a section index page';
  }
  // A short slug straight under the host (/boi, /stress-testing) is a topic hub; a long one is usually a document.
  const words = lastRaw.split(/[-_]/).filter(Boolean).length;
  if (segments.length === 1 && words <= 3 && !parsed.search && !/\d/.test(lastRaw) && !/\.(pdf|s?html?|aspx?|php)$/i.test(lastRaw)) {
    return `is a one-segment section page ('/${lastRaw}')`;
  }
  return null;
}

/**
 * Whether `url` is on one of the `allowed` places: a host (a subdomain matches too) or, on a shared government portal,
 * a host and path prefix such as `gov.br/anpd`.
 */
export function publishedOn(url: string, allowed: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = u.hostname.toLowerCase();
  return allowed.some((place) => {
    const [h, ...rest] = place.split('/');
    const onHost = host === h || host.endsWith(`.${h}`);
    return onHost && (rest.length === 0 || u.pathname.startsWith(`/${rest.join('/')}`));
  });
}

/** A URL reduced to what identifies the document: host without www, path without trailing slash, query. */
export function normaliseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.toLowerCase().replace(/^www\./, '')}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return url;
  }
}

/** News and crypto-media sites: never a source, official or secondary (a briefing is a law firm's or an industry body's). */
export const NEWS_HOSTS: readonly string[] = [
  'reuters.com', 'bloomberg.com', 'ft.com', 'wsj.com', 'cnbc.com', 'nytimes.com', 'forbes.com', 'economist.com',
  'coindesk.com', 'cointelegraph.com', 'theblock.co', 'decrypt.co', 'coinedition.com', 'coinnewsbyte.com',
  'people.cn', 'en.people.cn', 'chinadaily.com.cn', 'xinhuanet.com', 'news.cn', 'globaltimes.cn', 'caixinglobal.com', 'scmp.com',
  'koreaherald.com', 'koreatimes.co.kr', 'chosun.com', 'yna.co.kr', 'koreajoongangdaily.joins.com', 'businesskorea.co.kr',
  'japantimes.co.jp', 'nikkei.com', 'asahi.com', 'economictimes.indiatimes.com', 'indiatimes.com', 'livemint.com',
  'business-standard.com', 'moneycontrol.com', 'thehindu.com', 'hindustantimes.com', 'straitstimes.com',
  'businesstimes.com.sg', 'afr.com', 'smh.com.au', 'theglobeandmail.com', 'financialpost.com', 'valor.globo.com',
  'globo.com', 'swissinfo.ch', 'nzz.ch', 'finews.com', 'finews.ch', 'finextra.com', 'fintechfutures.com',
];

/** A path segment or query value naming a language other than English: the source must declare its `language`. */
const FOREIGN_LOCALE = /^(kn|hi|ko|kr|ja|jp|zh|zh-cn|zh-hans|zh-hant|zh-hk|zh-tw|tc|sc|chs|cht|pt|pt-br|de|fr|it|es|nl|sv)$/i;

/** The non-English locale a URL asks for (`/kn/`, `?lang=zh`), or null. */
export function foreignLocale(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const segment = u.pathname.split('/').find((s) => FOREIGN_LOCALE.test(s));
  if (segment) return segment.toLowerCase();
  for (const key of ['lang', 'language', 'locale', 'lng']) {
    const value = u.searchParams.get(key);
    if (value && FOREIGN_LOCALE.test(value)) return value.toLowerCase();
  }
  return null;
}

/**
 * Permanent address schemes that official registers document: a URL that follows one may be cited without a search
 * result having shown it. The review log names the scheme; the URL must match its pattern.
 */
export const URL_SCHEMES: Readonly<Record<string, { register: string; pattern: RegExp }>> = {
  'eur-lex-eli': { register: 'EUR-Lex European Legislation Identifier', pattern: /^https:\/\/eur-lex\.europa\.eu\/eli\/(reg|dir|dec|reg_impl|reg_del|dir_impl|dir_del|dec_impl|dec_del|guideline|recommendation)\/\d{4}\/\d+\/oj(\/eng)?$/ },
  'eur-lex-celex': { register: 'EUR-Lex CELEX number', pattern: /^https:\/\/eur-lex\.europa\.eu\/legal-content\/EN\/(TXT|ALL)\/\?uri=CELEX(:|%3A)[0-9A-Z()]+$/ },
  'legislation.gov.uk': { register: 'legislation.gov.uk', pattern: /^https:\/\/www\.legislation\.gov\.uk\/(ukpga|uksi|ukdsi|ssi|asp|wsi|nisr)\/\d{4}\/\d+(\/contents(\/made)?|\/made)?$/ },
  'federalregister.gov': { register: 'Federal Register document number', pattern: /^https:\/\/www\.federalregister\.gov\/(d\/|documents\/\d{4}\/\d{2}\/\d{2}\/)\d{4}-\d{5}/ },
  'congress.gov': { register: 'congress.gov bill', pattern: /^https:\/\/www\.congress\.gov\/bill\/\d{2,3}(st|nd|rd|th)-congress\/(house|senate)-bill\/\d+/ },
  ecfr: { register: 'eCFR', pattern: /^https:\/\/www\.ecfr\.gov\/current\/title-\d+\/(chapter|part|section|subtitle)-/ },
  'legislation.gov.au': { register: 'Federal Register of Legislation (Australia)', pattern: /^https:\/\/www\.legislation\.gov\.au\/[CF]\d{4}[A-Z]\d{5}(\/(latest|asmade))?(\/text)?$/ },
  'fedlex-eli': { register: 'Fedlex European Legislation Identifier (Switzerland)', pattern: /^https:\/\/www\.fedlex\.admin\.ch\/eli\/(cc|oc|fga)\/\d{4}\/\d+\/(en|de|fr|it)$/ },
  'elegislation.gov.hk': { register: 'Hong Kong e-Legislation chapter', pattern: /^https:\/\/www\.elegislation\.gov\.hk\/hk\/cap\d+[A-Z]*(!en)?$/ },
  'sso.agc.gov.sg': { register: 'Singapore Statutes Online', pattern: /^https:\/\/sso\.agc\.gov\.sg\/(Act|SL|Acts-Supp|SL-Supp|Bills-Supp)\/[A-Za-z0-9-]+$/ },
  'laws-lois.justice.gc.ca': { register: 'Justice Laws Website (Canada)', pattern: /^https:\/\/laws-lois\.justice\.gc\.ca\/eng\/(acts|regulations)\/[A-Za-z0-9.-]+\/?(index\.html|page-\d+\.html)?$/ },
  'gazette.gc.ca': { register: 'Canada Gazette', pattern: /^https:\/\/(www\.)?gazette\.gc\.ca\/rp-pr\/p[12]\/\d{4}\/\d{4}-\d{2}-\d{2}\/html\/[a-z0-9-]+-eng\.html$/ },
  planalto: { register: 'Planalto (Brazilian federal legislation)', pattern: /^https:\/\/www\.planalto\.gov\.br\/ccivil_03\/_ato\d{4}-\d{4}\/\d{4}\/(lei|decreto|lcp|mpv)\/[A-Za-z0-9]+\.htm$/ },
  'bcb-normativo': { register: 'Banco Central do Brasil normative search by type and number', pattern: /^https:\/\/www\.bcb\.gov\.br\/estabilidadefinanceira\/exibenormativo\?tipo=[^&]+&numero=\d+$/ },
  'e-gov-law': { register: 'e-Gov law search (Japan) by law id', pattern: /^https:\/\/laws\.e-gov\.go\.jp\/law\/[0-9A-Z]{15}$/ },
};

/**
 * Whether `english` is the English-locale variant of `shown`: the same host and path but for one foreign locale
 * segment (`/kn/`, `/zh-cn/`) that is `en` or absent in `english`.
 */
export function isEnglishVariant(english: string, shown: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(english);
    b = new URL(shown);
  } catch {
    return false;
  }
  if (a.hostname.replace(/^www\./, '') !== b.hostname.replace(/^www\./, '') || a.search !== b.search) return false;
  const shownSegments = b.pathname.split('/');
  const index = shownSegments.findIndex((s) => FOREIGN_LOCALE.test(s));
  if (index < 0) return false;
  const withEn = [...shownSegments];
  withEn[index] = 'en';
  const without = shownSegments.filter((_, i) => i !== index);
  return a.pathname === withEn.join('/') || a.pathname === without.join('/');
}

/** The names of the schemes `url` follows (usually one). */
export function schemesOf(url: string): string[] {
  return Object.entries(URL_SCHEMES)
    .filter(([, scheme]) => scheme.pattern.test(url))
    .map(([name]) => name);
}
