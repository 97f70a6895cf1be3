/**
 * Small HTML-to-text extractor for fetched pages. Every pattern is bounded by `<` or `>` so a hostile page cannot
 * make the regular expressions backtrack: the whole pass stays linear in the page size.
 */
const DROPPED_ELEMENTS = /<(script|style|noscript|template|svg|iframe|object|canvas|select)\b[^<>]*>/gi;
const BLOCK_TAGS =
  /<\/?(p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|tr|table|thead|tbody|section|article|header|footer|main|aside|nav|blockquote|pre|figure|figcaption|form|address|details|summary)\b[^<>]*>/gi;
const CELL_TAGS = /<\/?(td|th)\b[^<>]*>/gi;
const ANY_TAG = /<\/?[a-zA-Z][^<>]*>|<![^<>]*>|<\?[^<>]*>/g;

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  sect: '§',
  para: '¶',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  deg: '°',
  times: '×',
  divide: '÷',
  shy: '',
  zwnj: '',
  zwj: '',
  thinsp: ' ',
  ensp: ' ',
  emsp: ' ',
  agrave: 'à',
  aacute: 'á',
  acirc: 'â',
  auml: 'ä',
  atilde: 'ã',
  aring: 'å',
  ccedil: 'ç',
  egrave: 'è',
  eacute: 'é',
  ecirc: 'ê',
  euml: 'ë',
  igrave: 'ì',
  iacute: 'í',
  icirc: 'î',
  iuml: 'ï',
  ntilde: 'ñ',
  ograve: 'ò',
  oacute: 'ó',
  ocirc: 'ô',
  ouml: 'ö',
  otilde: 'õ',
  oslash: 'ø',
  ugrave: 'ù',
  uacute: 'ú',
  ucirc: 'û',
  uuml: 'ü',
  szlig: 'ß',
  Agrave: 'À',
  Aacute: 'Á',
  Auml: 'Ä',
  Ccedil: 'Ç',
  Eacute: 'É',
  Egrave: 'È',
  Ouml: 'Ö',
  Uuml: 'Ü',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function removeComments(html: string): string {
  let out = '';
  let position = 0;
  for (;;) {
    const start = html.indexOf('<!--', position);
    if (start === -1) return out + html.slice(position);
    out += html.slice(position, start);
    const end = html.indexOf('-->', start + 4);
    if (end === -1) return out;
    position = end + 3;
  }
}

function removeElements(html: string): string {
  let out = '';
  let position = 0;
  const open = new RegExp(DROPPED_ELEMENTS.source, 'gi');
  for (;;) {
    open.lastIndex = position;
    const match = open.exec(html);
    if (!match) return out + html.slice(position);
    out += `${html.slice(position, match.index)} `;
    const afterOpen = match.index + match[0].length;
    if (match[0].endsWith('/>')) {
      position = afterOpen;
      continue;
    }
    const close = new RegExp(`</${match[1]}\\s*>`, 'gi');
    close.lastIndex = afterOpen;
    const closing = close.exec(html);
    if (!closing) return out;
    position = closing.index + closing[0].length;
  }
}

function inlineText(fragment: string): string {
  return decodeEntities(fragment.replace(ANY_TAG, ' '))
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

export function extractTitle(html: string): string | null {
  const open = /<title\b[^<>]*>/i.exec(html);
  if (!open) return null;
  const start = open.index + open[0].length;
  const close = /<\/title\s*>/gi;
  close.lastIndex = start;
  const closing = close.exec(html);
  const title = inlineText(html.slice(start, closing ? closing.index : Math.min(html.length, start + 1000)));
  return title === '' ? null : title;
}

export function htmlToText(html: string): { title: string | null; text: string } {
  const cleaned = removeElements(removeComments(html));
  const title = extractTitle(cleaned);
  const withoutTitle = cleaned.replace(/<title\b[^<>]*>[^<]*<\/title\s*>/gi, ' ');
  const text = decodeEntities(withoutTitle.replace(BLOCK_TAGS, '\n').replace(CELL_TAGS, ' ').replace(ANY_TAG, ''))
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
  return { title, text };
}
