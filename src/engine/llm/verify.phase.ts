import { ITEM_STAGES_PAST_ADOPTION } from '../../domain/item-stages';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { CalendarEntry } from '../calendar/calendar.types';
import type { AuditorSidecar, SnapshotItem } from '../envelope.types';
import { formatLongDate } from '../analysis/dates';
import { count, joinList } from '../analysis/text';
import { type CheckDetail, type PassName, type PassOutcome, combineStatus, publicPass, realistPass } from '../analysis/verification';
import type { LlmRole, LlmSession } from './llm-session';
import { asEnum, asObject, asText, stripReferences } from './parse';
import { AUDITOR_SYSTEM, auditorPrompt, type NumberedSource } from './prompts';

export const AUDITOR_MAX_TOKENS = 4096;

const STATUSES = ['verified', 'unverified', 'disputed'] as const;

export interface VerifyOutcome {
  passNames: PassName[];
  auditorError?: string;
  diagnostics: Array<{ item_id: string; status: SnapshotItem['verification']['status']; passes: PassOutcome[] }>;
  sidecar: AuditorSidecar;
  message: string;
}

/**
 * The requested passes: realist (by rule: calendar items against their entry, web items on plausibility) and
 * auditor (a model reviews every item against the numbered sources). Sets each item's `verification`.
 */
export async function verifyPhase(
  session: LlmSession,
  auditor: LlmRole,
  config: ResolvedScanConfig,
  scanDate: string,
  items: SnapshotItem[],
  entryById: ReadonlyMap<string, CalendarEntry>,
  sources: readonly NumberedSource[],
): Promise<VerifyOutcome> {
  const passNames: PassName[] = [...(config.realist ? (['realist'] as const) : []), ...(config.auditor ? (['auditor'] as const) : [])];
  const outcomes = new Map<string, PassOutcome[]>(items.map((i) => [i.id, []]));
  if (config.realist) {
    for (const item of items) {
      const entry = entryById.get(item.id);
      outcomes.get(item.id)!.push(entry ? realistPass(item, entry, scanDate) : webRealistPass(item, scanDate));
    }
  }
  let auditorError: string | undefined;
  if (config.auditor && items.length > 0) {
    const verdict = await session.completeJson(auditor, AUDITOR_SYSTEM, auditorPrompt(items, sources, scanDate), AUDITOR_MAX_TOKENS, true);
    const verdicts = new Map<string, { status: (typeof STATUSES)[number]; note: string }>();
    if (!verdict.value || !Array.isArray(verdict.value.items)) {
      auditorError = 'the auditor model returned no usable JSON';
    } else {
      for (const entry of verdict.value.items) {
        const record = asObject(entry);
        const id = asText(record?.id);
        const status = asEnum(record?.status, STATUSES);
        if (id && status && !verdicts.has(id)) verdicts.set(id, { status, note: stripReferences(asText(record?.note) ?? '') });
      }
    }
    for (const item of items) {
      const found = verdicts.get(item.id);
      // Passed dates are disputed whatever the model says (the guardrails already drop them).
      const status = found?.status ?? 'unverified';
      const note = found
        ? found.note || `The auditor marked the item ${found.status}.`
        : auditorError
          ? 'The auditor pass could not check this item.'
          : 'The auditor returned no verdict for this item.';
      const check: CheckDetail = {
        check: found ? 'llm_source_review' : 'llm_no_verdict',
        outcome: status === 'verified' ? 'ok' : status,
        detail: note,
      };
      outcomes.get(item.id)!.push({ pass: 'auditor', status, note, checks: [check] });
    }
  }
  const diagnostics: VerifyOutcome['diagnostics'] = [];
  const flagged: string[] = [];
  for (const item of items) {
    const passes = outcomes.get(item.id) ?? [];
    item.verification = { status: combineStatus(passes), passes: passes.map(publicPass) };
    if (passes.some((p) => p.pass === 'auditor' && p.status !== 'verified')) flagged.push(item.id);
    if (passes.length > 0) diagnostics.push({ item_id: item.id, status: item.verification.status, passes });
  }
  const verifiedCount = items.filter((i) => i.verification.status === 'verified').length;
  const sidecar: AuditorSidecar = { ran: config.auditor, passes: passNames, verified_count: verifiedCount, flagged_item_ids: flagged };
  const message = passNames.length
    ? `Ran the ${joinList(passNames)} pass${passNames.length > 1 ? 'es' : ''}: ${verifiedCount} of ${count(items.length, 'item')} verified`
    : 'No verification pass requested';
  return { passNames, ...(auditorError ? { auditorError } : {}), diagnostics, sidecar, message };
}

/** Realist pass for an item with no calendar entry: date and stage plausibility by rule. */
export function webRealistPass(item: SnapshotItem, scanDate: string): PassOutcome {
  const checks: CheckDetail[] = [];
  const when = formatLongDate(item.key_date);
  checks.push(
    item.key_date < scanDate
      ? { check: 'key_date_upcoming', outcome: 'disputed', detail: `Key date ${when} had already passed on the scan date.` }
      : { check: 'key_date_upcoming', outcome: 'ok', detail: `Key date ${when} is on or after the scan date.` },
  );
  if (item.date_confidence === 'speculative') {
    checks.push({ check: 'date_firmness', outcome: 'unverified', detail: `The ${when} date is an estimate.` });
  } else if (item.date_confidence === 'expected' && !ITEM_STAGES_PAST_ADOPTION.has(item.stage)) {
    checks.push({
      check: 'date_firmness',
      outcome: 'unverified',
      detail: `The ${when} date is planned for an instrument still at the ${item.stage.replace('_', ' ')} stage and may slip.`,
    });
  } else if (item.date_confidence === 'confirmed' && !ITEM_STAGES_PAST_ADOPTION.has(item.stage)) {
    checks.push({
      check: 'stage_plausible',
      outcome: 'unverified',
      detail: `A confirmed date for an instrument that is still ${item.stage.replace('_', ' ')} needs checking.`,
    });
  } else {
    checks.push({ check: 'date_firmness', outcome: 'ok', detail: `The ${when} date is ${item.date_confidence}.` });
  }
  checks.push({
    check: 'calendar_corroboration',
    outcome: 'unverified',
    detail: 'The instrument is not in the curated calendar; it rests on web sources only.',
  });
  const status = checks.some((c) => c.outcome === 'disputed')
    ? 'disputed'
    : checks.some((c) => c.outcome === 'unverified')
      ? 'unverified'
      : 'verified';
  const note = checks
    .filter((c) => c.outcome === status)
    .map((c) => c.detail)
    .join(' ');
  return { pass: 'realist', status, note, checks };
}
