/**
 * Offline verification passes. Both check an item against the calendar entry it claims to come from: no page is
 * read, and each pass records that (`checked`, CALENDAR_EVIDENCE). The LLM path reads the cited pages instead
 * (../llm/verify.phase.ts).
 *
 * Realist pass (date confidence and stage plausibility):
 *   - disputed when the entry is missing, the key date is not one of the entry's dates, the key date has
 *     passed at the scan date, the item states a firmer confidence or a different stage than the calendar;
 *   - unverified when the calendar date is speculative (our extrapolation), or expected while the
 *     instrument is still proposed / under consultation (the timetable can slip), when a proposal carries a
 *     "confirmed" application / entry-into-force date (implausible before adoption), or when the entry was
 *     last verified more than STALE_AFTER_DAYS before the scan date;
 *   - verified otherwise (e.g. a confirmed future date, or an expected date of an adopted instrument).
 *
 * Auditor pass (sources and dates): verified when the item has citations, every citation URL is one of
 * the entry's source URLs and uses https, the key date (and its confidence) is one of the entry's key dates,
 * and title, jurisdiction and regulator match the entry; disputed otherwise.
 *
 * Item status: disputed if any pass disputed, verified if every pass verified, else unverified
 * (unverified with no passes when no pass ran).
 */
import type { CalendarEntry } from '../calendar/calendar.types';
import type { SnapshotItem, VerificationEvidence, VerificationPass } from '../envelope.types';
import { daysBetween, formatLongDate } from './dates';
import { CONFIDENCE_RANK } from './selection';
import { ITEM_STAGES_PAST_ADOPTION } from '../../domain/item-stages';

export type PassName = VerificationPass['pass'];
export type VerificationStatus = VerificationPass['status'];

/** An entry verified longer ago than this before the scan date is treated as possibly out of date. */
export const STALE_AFTER_DAYS = 180;

/** One check inside a pass; kept in the private diagnostics only. */
export type CheckDetail = {
  check: string;
  /** `ok`, or the status this failed check pushes the pass to. */
  outcome: 'ok' | 'unverified' | 'disputed';
  detail: string;
};

export type PassOutcome = {
  pass: PassName;
  status: VerificationStatus;
  note: string;
  checks: CheckDetail[];
  /** What the pass checked the item against; the calendar when unset (the offline passes). */
  checked?: VerificationEvidence;
};

/** Offline passes compare an item with its calendar entry; no page is read, and the record says so. */
export const CALENDAR_EVIDENCE: VerificationEvidence = {
  basis: 'calendar',
  description: "Checked against the regulatory calendar's own entries and sources (offline; no page was read)",
  pages: [],
};

const APPLICATION_EVENT = /\b(appl(y|ies|ication)|entry into force|in force|takes effect|effective)\b/i;

function statusOf(checks: readonly CheckDetail[]): VerificationStatus {
  if (checks.some((c) => c.outcome === 'disputed')) return 'disputed';
  if (checks.some((c) => c.outcome === 'unverified')) return 'unverified';
  return 'verified';
}

function noteOf(checks: readonly CheckDetail[], okNote: string): string {
  const status = statusOf(checks);
  if (status === 'verified') return okNote;
  const worst = checks.filter((c) => c.outcome === status).map((c) => c.detail);
  return worst.join(' ');
}

function missingEntry(pass: PassName, item: SnapshotItem): PassOutcome {
  const detail = `No calendar entry with id '${item.id}'.`;
  return { pass, status: 'disputed', note: detail, checks: [{ check: 'entry_exists', outcome: 'disputed', detail }] };
}

/** Realist pass for one item (see the module comment). */
export function realistPass(item: SnapshotItem, entry: CalendarEntry | undefined, scanDate: string): PassOutcome {
  if (!entry) return missingEntry('realist', item);
  const checks: CheckDetail[] = [];
  const push = (check: string, outcome: CheckDetail['outcome'], detail: string) => checks.push({ check, outcome, detail });
  const keyDate = entry.milestones.find((k) => k.date === item.key_date);
  const when = /^\d{4}-\d{2}-\d{2}$/.test(item.key_date) ? formatLongDate(item.key_date) : `'${item.key_date}'`;

  if (!keyDate) {
    push('key_date_known', 'disputed', `Key date ${when} is not one of the calendar dates for this instrument.`);
  } else {
    push('key_date_known', 'ok', `Key date ${when} is in the calendar (${keyDate.event}).`);
    if (item.key_date < scanDate) {
      push('key_date_upcoming', 'disputed', `Key date ${when} had already passed on the scan date.`);
    } else {
      push('key_date_upcoming', 'ok', `Key date ${when} is on or after the scan date.`);
    }
    if (CONFIDENCE_RANK[item.date_confidence] < CONFIDENCE_RANK[keyDate.confidence]) {
      push(
        'confidence_not_overstated',
        'disputed',
        `The item calls the date ${item.date_confidence}; the calendar has it as ${keyDate.confidence}.`,
      );
    } else {
      push('confidence_not_overstated', 'ok', `Date confidence ${keyDate.confidence} as in the calendar.`);
    }
    if (keyDate.confidence === 'speculative') {
      push('date_firmness', 'unverified', `The ${when} date is an estimate, not announced by the authority.`);
    } else if (keyDate.confidence === 'expected' && !ITEM_STAGES_PAST_ADOPTION.has(entry.stage)) {
      push(
        'date_firmness',
        'unverified',
        `The ${when} date is planned for an instrument still at the ${entry.stage.replace('_', ' ')} stage and may slip.`,
      );
    } else {
      push(
        'date_firmness',
        'ok',
        `The ${when} date is ${keyDate.confidence} for an instrument at the ${entry.stage.replace('_', ' ')} stage.`,
      );
    }
    if (keyDate.confidence === 'confirmed' && !ITEM_STAGES_PAST_ADOPTION.has(entry.stage) && APPLICATION_EVENT.test(keyDate.event)) {
      push(
        'stage_plausible',
        'unverified',
        `A confirmed application date for an instrument that is still ${entry.stage.replace('_', ' ')} needs checking.`,
      );
    }
  }
  if (item.stage !== entry.stage) {
    push('stage_matches', 'disputed', `The item gives the stage as ${item.stage}; the calendar has ${entry.stage}.`);
  } else {
    push('stage_matches', 'ok', `Stage ${entry.stage} as in the calendar.`);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(entry.reviewed_on) && /^\d{4}-\d{2}-\d{2}$/.test(scanDate)) {
    const age = daysBetween(entry.reviewed_on, scanDate);
    if (age > STALE_AFTER_DAYS) {
      push(
        'entry_fresh',
        'unverified',
        `The calendar entry was last checked on ${formatLongDate(entry.reviewed_on)}, ${age} days before the scan.`,
      );
    } else {
      push('entry_fresh', 'ok', `Calendar entry last checked on ${entry.reviewed_on}.`);
    }
  }
  const status = statusOf(checks);
  const okNote = keyDate
    ? `${keyDate.confidence === 'confirmed' ? 'Confirmed' : 'Announced'} date ${when}, consistent with the ${entry.stage.replace('_', ' ')} stage.`
    : '';
  return { pass: 'realist', status, note: noteOf(checks, okNote), checks };
}

/** Auditor pass for one item (see the module comment). */
export function auditorPass(item: SnapshotItem, entry: CalendarEntry | undefined): PassOutcome {
  if (!entry) return missingEntry('auditor', item);
  const checks: CheckDetail[] = [];
  const push = (check: string, ok: boolean, okDetail: string, failDetail: string) =>
    checks.push({ check, outcome: ok ? 'ok' : 'disputed', detail: ok ? okDetail : failDetail });
  const sourceUrls = new Set(entry.sources.map((s) => s.url));

  push('has_citations', item.citations.length > 0, `${item.citations.length} citation(s).`, 'The item cites no source.');
  for (const citation of item.citations) {
    push(
      `citation_${citation.id}_in_calendar`,
      sourceUrls.has(citation.url),
      `Citation ${citation.id} is a calendar source.`,
      `Citation ${citation.id} (${citation.url}) is not one of the calendar sources for this instrument.`,
    );
    let https = false;
    try {
      https = new URL(citation.url).protocol === 'https:';
    } catch {
      https = false;
    }
    push(
      `citation_${citation.id}_https`,
      https,
      `Citation ${citation.id} uses https.`,
      `Citation ${citation.id} (${citation.url}) is not an https address.`,
    );
  }
  const keyDate = entry.milestones.find((k) => k.date === item.key_date);
  push(
    'key_date_in_calendar',
    keyDate !== undefined && keyDate.confidence === item.date_confidence,
    `Key date ${item.key_date} (${item.date_confidence}) is in the calendar.`,
    keyDate
      ? `Key date ${item.key_date} is in the calendar as ${keyDate.confidence}, not ${item.date_confidence}.`
      : `Key date ${item.key_date} is not one of the calendar dates for this instrument.`,
  );
  push(
    'identity_matches',
    item.title === entry.title && item.jurisdiction === entry.jurisdiction && item.regulator === entry.regulator,
    'Title, jurisdiction and regulator match the calendar.',
    'Title, jurisdiction or regulator differ from the calendar entry.',
  );
  const status = statusOf(checks);
  const okNote =
    item.citations.length === 1
      ? "The citation is the calendar's official https source and the key date is a calendar date."
      : `All ${item.citations.length} citations are the calendar's official https sources and the key date is a calendar date.`;
  return { pass: 'auditor', status, note: noteOf(checks, okNote), checks };
}

/** Overall item status from the passes that ran. */
export function combineStatus(passes: readonly { status: VerificationStatus }[]): VerificationStatus {
  if (passes.length === 0) return 'unverified';
  if (passes.some((p) => p.status === 'disputed')) return 'disputed';
  return passes.every((p) => p.status === 'verified') ? 'verified' : 'unverified';
}

/** The public part of a pass outcome (what goes into item.verification.passes). */
export function publicPass(outcome: PassOutcome): VerificationPass {
  const checked = outcome.checked ?? CALENDAR_EVIDENCE;
  return {
    pass: outcome.pass,
    status: outcome.status,
    note: outcome.note,
    checked: { ...checked, pages: checked.pages.map((p) => ({ ...p })) },
  };
}
