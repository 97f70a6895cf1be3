import { decodeEntities, extractTitle, htmlToText } from './html-text';

describe('htmlToText', () => {
  it('extracts the title and the visible text, without scripts, styles or comments', () => {
    const html = `<!doctype html><html><head><title>  Final&nbsp;rules &ndash; FCA </title><style>p{}</style>
      <script type="text/javascript">var x = "<p>hidden</p>";</script></head>
      <body><!-- <p>commented</p> --><h1>Policy statement</h1><p>Rules apply from <b>1&nbsp;July&nbsp;2026</b> &amp; replace PS21/3.</p>
      <table><tr><td>A</td><td>B</td></tr></table><svg><title>icon</title></svg><br/>Done &#8211; &#x2014; &unknown;</body></html>`;
    const { title, text } = htmlToText(html);
    expect(title).toBe('Final rules – FCA');
    expect(text).toBe('Policy statement\nRules apply from 1 July 2026 & replace PS21/3.\nA B\nDone – — &unknown;');
  });

  it('handles unterminated elements and a missing title', () => {
    expect(htmlToText('<p>Visible</p><script>never closed <p>gone')).toEqual({ title: null, text: 'Visible' });
    expect(extractTitle('<title>Open title')).toBe('Open title');
    expect(htmlToText('<p>a < b and c > d</p>').text).toBe('a < b and c > d');
  });

  it('stays fast on hostile input', () => {
    const hostile = '<script'.repeat(100_000) + '<p'.repeat(100_000) + '<!--'.repeat(50_000) + '&#'.repeat(100_000);
    const started = Date.now();
    htmlToText(hostile);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('decodes numeric and named entities and rejects invalid code points', () => {
    expect(decodeEntities('&lt;&gt;&quot;&#39;&eacute;&#x1F600;&#0;&#xD800;')).toBe('<>"\'é😀\uFFFD\uFFFD');
  });
});
