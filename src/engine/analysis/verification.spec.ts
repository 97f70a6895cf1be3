import type { SnapshotItem } from '../envelope.types';
import { keyDate, makeCalendar, makeEntry } from '../../../test/fixtures/calendar.fixture';
import { analyseOffline, composeOfflineEnvelope } from './compose';
import { selectEntries } from './selection';
import { auditorPass, combineStatus, realistPass } from './verification';

const SCAN = '2026-11-22';

function itemFor(entryOverrides: Parameters<typeof makeEntry>[0]) {
  const entry = makeEntry(entryOverrides);
  const result = analyseOffline(makeCalendar([entry]), {
    jurisdictions: [entry.jurisdiction],
    areas: entry.areas,
    horizonMonths: 36,
    scanDate: SCAN,
    engine: 'v4',
    realist: true,
    auditor: true,
  });
  return { entry, result, item: result.items[0] };
}

describe('offline verification passes', () => {
  it('a confirmed future date of an adopted instrument with https calendar sources is verified by both passes', () => {
    const { item, result } = itemFor({ id: 'eu-ok', stage: 'adopted', milestones: [keyDate('2027-07-10', 'confirmed')] });
    expect(item.verification.status).toBe('verified');
    expect(item.verification.passes.map((p) => [p.pass, p.status])).toEqual([
      ['realist', 'verified'],
      ['auditor', 'verified'],
    ]);
    expect(result.auditor).toEqual({ ran: true, passes: ['realist', 'auditor'], verified_count: 1, flagged_item_ids: [] });
  });

  it('a speculative date is unverified by the realist, with a note', () => {
    const { item } = itemFor({ id: 'eu-spec', milestones: [keyDate('2027-07-10', 'speculative')] });
    const realist = item.verification.passes.find((p) => p.pass === 'realist');
    expect(realist?.status).toBe('unverified');
    expect(realist?.note).toMatch(/estimate/);
    expect(item.verification.status).toBe('unverified');
  });

  it('an expected date is verified for an adopted instrument but unverified for a proposal', () => {
    expect(
      itemFor({ id: 'eu-exp-adopted', stage: 'adopted', milestones: [keyDate('2027-07-10', 'expected')] }).item.verification.status,
    ).toBe('verified');
    const proposal = itemFor({ id: 'eu-exp-proposed', stage: 'proposed', milestones: [keyDate('2027-07-10', 'expected')] }).item;
    expect(proposal.verification.passes[0]).toMatchObject({ pass: 'realist', status: 'unverified' });
  });

  it('flags a confirmed application date for a proposal as implausible (unverified)', () => {
    const { item } = itemFor({ id: 'eu-odd', stage: 'proposed', milestones: [keyDate('2027-07-10', 'confirmed', 'Rules apply')] });
    expect(item.verification.passes[0].status).toBe('unverified');
    expect(item.verification.passes[0].note).toMatch(/application date/);
  });

  it('a stale calendar entry is unverified by the realist', () => {
    const { item } = itemFor({ id: 'eu-stale', reviewed_on: '2025-01-01' });
    expect(item.verification.passes[0].status).toBe('unverified');
    expect(item.verification.passes[0].note).toMatch(/last checked/);
  });

  it('a non-https source is disputed by the auditor and flagged in the sidecar', () => {
    const { item, result } = itemFor({
      id: 'eu-http',
      sources: [{ url: 'http://www.example.gov/page', title: 'Page', publisher: 'Gov' }],
    });
    const auditor = item.verification.passes.find((p) => p.pass === 'auditor');
    expect(auditor?.status).toBe('disputed');
    expect(auditor?.note).toMatch(/not an https address/);
    expect(item.verification.status).toBe('disputed');
    expect(result.auditor.flagged_item_ids).toEqual(['eu-http']);
    expect(result.auditor.verified_count).toBe(0);
  });

  it('the auditor disputes citations and dates that are not in the calendar entry it checks against', () => {
    const { entry, item } = itemFor({ id: 'eu-check' });
    const tampered: SnapshotItem = { ...item, citations: [{ ...item.citations[0], url: 'https://elsewhere.example/x' }] };
    expect(auditorPass(tampered, entry).status).toBe('disputed');
    const wrongDate: SnapshotItem = { ...item, key_date: '2027-02-02' };
    expect(auditorPass(wrongDate, entry).status).toBe('disputed');
    expect(realistPass(wrongDate, entry, SCAN).status).toBe('disputed');
    const overstated: SnapshotItem = { ...item, date_confidence: 'confirmed' };
    const speculativeEntry = { ...entry, milestones: [keyDate(item.key_date, 'speculative')] };
    expect(auditorPass(overstated, speculativeEntry).status).toBe('disputed');
    expect(realistPass(overstated, speculativeEntry, SCAN).status).toBe('disputed');
    expect(auditorPass({ ...item, citations: [] }, entry).status).toBe('disputed');
    expect(auditorPass(item, undefined).status).toBe('disputed');
    expect(realistPass(item, undefined, SCAN).status).toBe('disputed');
  });

  it('the realist disputes a key date that has passed at the scan date', () => {
    const { entry, item } = itemFor({ id: 'eu-late', milestones: [keyDate('2027-01-15')] });
    expect(realistPass(item, entry, '2027-02-01').status).toBe('disputed');
    expect(realistPass(item, entry, '2027-02-01').checks.find((c) => c.check === 'key_date_upcoming')?.outcome).toBe('disputed');
  });

  it('checks against the calendar it is given: an entry whose sources changed is disputed', () => {
    const original = makeEntry({ id: 'eu-moved' });
    const refreshed = makeEntry({ id: 'eu-moved', sources: [{ url: 'https://new.example.eu/page', title: 'New', publisher: 'EUR-Lex' }] });
    const ctx = {
      jurisdictions: ['EU'],
      areas: ['AML / KYC'],
      horizonMonths: 12,
      scanDate: SCAN,
      engine: 'v4',
      realist: false,
      auditor: true,
    };
    const selected = analyseOffline(makeCalendar([original]), ctx);
    expect(selected.items[0].verification.status).toBe('verified');
    // Compose the same selection against the refreshed calendar.
    const sel = selectEntries(makeCalendar([original]), ctx);
    const recheck = composeOfflineEnvelope(sel, makeCalendar([refreshed]), { ...ctx, calendarVersion: 'x' });
    expect(recheck.items[0].verification.status).toBe('disputed');
    expect(recheck.auditor.flagged_item_ids).toEqual(['eu-moved']);
  });

  it('combineStatus: disputed wins, all verified -> verified, none ran -> unverified', () => {
    expect(combineStatus([])).toBe('unverified');
    expect(combineStatus([{ status: 'verified' }, { status: 'verified' }])).toBe('verified');
    expect(combineStatus([{ status: 'verified' }, { status: 'unverified' }])).toBe('unverified');
    expect(combineStatus([{ status: 'unverified' }, { status: 'disputed' }])).toBe('disputed');
  });

  it('only the requested passes run; with none, items are unverified with no passes and the sidecar says so', () => {
    const entry = makeEntry({ id: 'eu-none' });
    const base = { jurisdictions: ['EU'], areas: ['AML / KYC'], horizonMonths: 12, scanDate: SCAN, engine: 'v4' };
    const none = analyseOffline(makeCalendar([entry]), { ...base, realist: false, auditor: false });
    expect(none.items[0].verification).toEqual({ status: 'unverified', passes: [] });
    expect(none.auditor).toEqual({ ran: false, passes: [], verified_count: 0, flagged_item_ids: [] });
    expect(none._auditor_private.items).toEqual([]);

    const realistOnly = analyseOffline(makeCalendar([entry]), { ...base, realist: true, auditor: false });
    expect(realistOnly.items[0].verification.passes.map((p) => p.pass)).toEqual(['realist']);
    expect(realistOnly.auditor).toMatchObject({ ran: false, passes: ['realist'], flagged_item_ids: [] });

    const auditorOnly = analyseOffline(makeCalendar([entry]), { ...base, realist: false, auditor: true });
    expect(auditorOnly.items[0].verification.passes.map((p) => p.pass)).toEqual(['auditor']);
    expect(auditorOnly.auditor).toMatchObject({ ran: true, passes: ['auditor'], verified_count: 1 });
  });

  it('keeps per-check diagnostics private: only {pass, status, note, checked} reach the item, checked saying no page was read', () => {
    const { item, result } = itemFor({ id: 'eu-private' });
    for (const pass of item.verification.passes) {
      expect(Object.keys(pass).sort()).toEqual(['checked', 'note', 'pass', 'status']);
      expect(pass.checked).toEqual({
        basis: 'calendar',
        description: "Checked against the regulatory calendar's own entries and sources (offline; no page was read)",
        pages: [],
      });
    }
    expect(Object.keys(result.auditor).sort()).toEqual(['flagged_item_ids', 'passes', 'ran', 'verified_count']);
    const diag = result._auditor_private.items[0];
    expect(diag.item_id).toBe('eu-private');
    expect(diag.passes.map((p) => p.pass)).toEqual(['realist', 'auditor']);
    expect(diag.passes.every((p) => p.checks.length > 0)).toBe(true);
  });
});
