import { pdfLinks, pdfText, pdfTextSizes, squash } from '../../../../test/support/inspect-artefact';
import { hardSnapshot, input, realisticSnapshot, sampleDrift, wideSnapshot, zhSnapshot, ZH_TITLES } from '../../../../test/fixtures/snapshots';
import type { SnapshotItem } from '../../../engine/envelope.types';
import { calendarCoverageLine, calendarGroups, calendarMilestones, calendarPriority, renderComplianceCalendar } from './compliance-calendar.renderer';

const item = (id: string, key_date: string | null, precision: SnapshotItem['key_date_precision'] = 'day'): SnapshotItem =>
  ({ id, title: id, key_date, key_date_precision: precision, date_confidence: 'expected' }) as unknown as SnapshotItem;

describe('compliance calendar (internal-calendar)', () => {
  it('groups by month; a date known only as a period gets its own group after the months it spans; undated last', () => {
    const groups = calendarGroups([
      item('undated', null),
      item('h2', '2026-12-31', 'half'),
      item('dec-31', '2026-12-31'),
      item('dec-01', '2026-12-01'),
      item('jan', '2027-01-09'),
      item('q1', '2027-03-31', 'quarter'),
    ]);
    expect(groups.map((group) => [group.label, group.items.map((i) => i.id)])).toEqual([
      ['December 2026', ['dec-01', 'dec-31']],
      ['H2 2026 (date not fixed)', ['h2']],
      ['January 2027', ['jan']],
      ['Q1 2027 (date not fixed)', ['q1']],
      ['Date not set', ['undated']],
    ]);
  });

  it('fits a realistic scan on one page: every item with its date, milestone, impact, confidence and linked source', async () => {
    const snapshot = realisticSnapshot();
    const out = await renderComplianceCalendar({ ...input(snapshot), drift: sampleDrift(snapshot) });
    expect(out).toMatchObject({ mime: 'application/pdf', filename: 'regulatory-horizon-eu-uk-2026-11-22-calendar.pdf' });
    const parsed = await pdfText(out.bytes);
    expect(parsed.pages).toBe(1);
    const flat = squash(parsed.text);
    for (const entry of snapshot.data.items) {
      expect(flat).toContain(squash(`[${entry.jurisdiction}] ${entry.title}`));
      expect(flat).toContain(squash(entry.milestone!));
      expect(flat).toContain(squash(`${entry.impact === 'high' ? 'High' : entry.impact === 'medium' ? 'Medium' : 'Low'} impact`));
    }
    const links = new Set(pdfLinks(out.bytes));
    for (const entry of snapshot.data.items) expect(links.has(entry.citations[0]!.url)).toBe(true);
    expect(parsed.text).toContain('Since the scan of 3 Nov 2026');
    expect(parsed.text).toContain('Offline scan of the curated regulatory calendar');
  });

  it('is one page set in 7 pt or more, whatever the snapshot, and says how many more milestones the PDF report holds', async () => {
    for (const snapshot of [hardSnapshot(), wideSnapshot()]) {
      const out = await renderComplianceCalendar(input(snapshot));
      const parsed = await pdfText(out.bytes);
      expect(parsed.pages).toBe(1);
      expect(parsed.text).not.toContain('…');
      // Every item shown is shown with its whole title.
      for (const item of snapshot.data.items) {
        const head = squash(`[${item.jurisdiction}] ${item.title}`);
        if (squash(parsed.text).includes(head.slice(0, 40))) expect(squash(parsed.text)).toContain(head);
      }
      const smallest = Math.min(...pdfTextSizes(out.bytes).map((run) => run.size));
      expect(smallest).toBeGreaterThanOrEqual(6.99);
      const total = calendarMilestones(snapshot.data.items).length;
      const more = /(\d+)of(\d+)upcomingmilestonesofthe(\d+)items;\+(\d+)moreinthePDFreport\./.exec(squash(parsed.text));
      expect(more).not.toBeNull();
      expect(Number(more![2])).toBe(total);
      expect(Number(more![1]) + Number(more![4])).toBe(total);
      expect(squash(parsed.text)).toContain(squash(calendarCoverageLine(Number(more![1]), total, snapshot.data.items.length)));
    }
  });

  it('spans the whole horizon: its quarters take turns for room, so the page reaches the last year; undated entries come last', async () => {
    const wide = wideSnapshot();
    const ordered = calendarPriority(calendarMilestones(wide.data.items));
    const firstYears = new Set(ordered.slice(0, 8).map((entry) => entry.key_date.slice(0, 4)));
    expect(firstYears.size).toBeGreaterThanOrEqual(3);
    const hard = calendarPriority(calendarMilestones(hardSnapshot().data.items));
    const firstUndated = hard.findIndex((entry) => !/^\d{4}-\d{2}-\d{2}/.test(entry.key_date ?? ''));
    expect(firstUndated).toBeGreaterThan(0);
    expect(hard.slice(firstUndated).every((entry) => !/^\d{4}-\d{2}-\d{2}/.test(entry.key_date ?? ''))).toBe(true);
    const parsed = await pdfText((await renderComplianceCalendar(input(wide))).bytes);
    expect(parsed.text).toMatch(/(January|February|March|April|May|June|July|August|September|October|November|December) 2029|(Q[1-4]|H[12]) 2029|2029 \(date not fixed\)/);
  });

  it('prints Chinese titles and says when it is not in the language asked for', async () => {
    const zh = await pdfText((await renderComplianceCalendar(input(zhSnapshot(), {}, 'zh'))).bytes);
    for (const title of ZH_TITLES) expect(squash(zh.text)).toContain(squash(title));
    const fallback = await pdfText((await renderComplianceCalendar(input(realisticSnapshot(), { targetLanguage: 'ja' }, 'en'))).bytes);
    expect(squash(fallback.text)).toContain(squash('Requested in Japanese; this snapshot has no Japanese translation, so this artefact is in English.'));
  });
});
