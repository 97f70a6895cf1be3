import { EngineFailure } from '../../domain/failures';
import { ITEM_STAGES_PAST_ADOPTION } from '../../domain/item-stages';
import type { ResolvedScanConfig } from '../../domain/scan-config.types';
import type { FetchPort } from '../../infra/providers/ports';
import { ProviderTransientError } from '../../infra/providers/provider-errors';
import type { CalendarEntry } from '../calendar/calendar.types';
import type { AuditorSidecar, SnapshotItem, VerificationEvidence } from '../envelope.types';
import { formatLongDate } from '../analysis/dates';
import { count, joinList } from '../analysis/text';
import {
  type CheckDetail,
  type PassName,
  type PassOutcome,
  type VerificationStatus,
  combineStatus,
  publicPass,
  realistPass,
} from '../analysis/verification';
import type { LlmRole, LlmSession } from './llm-session';
import { asEnum, asList, asObject, asText, type JsonObject, stripReferences } from './parse';
import { AUDITOR_SYSTEM, auditorPrompt, type NumberedSource, pageVerificationPrompt, REALIST_SYSTEM } from './prompts';
import { publicPage, readCitedPages } from './verify-pages';

export const AUDITOR_MAX_TOKENS = 4096;

const STATUSES = ['verified', 'unverified', 'disputed'] as const;

export interface VerifyOutcome {
  passNames: PassName[];
  auditorError?: string;
  /** Model failures of the page-based passes, by pass. */
  verifierErrors?: Partial<Record<PassName, string>>;
  /** The final QA page reads, when a verifyProvider read the cited pages. */
  pages?: { provider: string; read: number; unreachable: number; notRead: number };
  diagnostics: Array<{ item_id: string; status: SnapshotItem['verification']['status']; passes: PassOutcome[] }>;
  sidecar: AuditorSidecar;
  message: string;
}

export interface VerifyRoles {
  /** The realist pass's model: the analyst. */
  realist: LlmRole;
  /** The auditor pass's model (`medium`, see ScanEngineService.auditorFor), else the analyst. */
  auditor: LlmRole;
  /** The scan's verifyProvider. Without it the passes fall back to rules and the snippets the analysis had. */
  pages?: FetchPort;
}

/**
 * The requested passes (realist, auditor), each setting its part of every item's `verification`. With a page
 * reader (the scan's verifyProvider), the final QA stage reads the items' cited pages and both passes are model
 * reviews of that text: the realist on the analyst model, the auditor on its own. An item none of whose pages
 * could be read is `unverified` for each pass, with the reason.
 */
export async function verifyPhase(
  session: LlmSession,
  roles: VerifyRoles,
  config: ResolvedScanConfig,
  scanDate: string,
  items: SnapshotItem[],
  entryById: ReadonlyMap<string, CalendarEntry>,
  sources: readonly NumberedSource[],
): Promise<VerifyOutcome> {
  const passNames: PassName[] = [...(config.realist ? (['realist'] as const) : []), ...(config.auditor ? (['auditor'] as const) : [])];
  if (passNames.length > 0 && roles.pages && items.length > 0)
    return verifyAgainstPages(session, roles, roles.pages, passNames, scanDate, items);
  const outcomes = new Map<string, PassOutcome[]>(items.map((i) => [i.id, []]));
  if (config.realist) {
    for (const item of items) {
      const entry = entryById.get(item.id);
      outcomes
        .get(item.id)!
        .push(entry ? { ...realistPass(item, entry, scanDate), checked: RULE_CALENDAR_EVIDENCE } : webRealistPass(item, scanDate));
    }
  }
  let auditorError: string | undefined;
  if (config.auditor && items.length > 0) {
    const verdict = await session.completeJson(
      roles.auditor,
      AUDITOR_SYSTEM,
      auditorPrompt(items, sources, scanDate),
      AUDITOR_MAX_TOKENS,
      true,
    );
    const verdicts = new Map<string, { status: (typeof STATUSES)[number]; note: string }>();
    if (!verdict.value || !Array.isArray(verdict.value.items)) {
      auditorError = 'the auditor model returned no usable JSON';
    } else {
      for (const [id, found] of parseVerdicts(verdict.value)) verdicts.set(id, found);
    }
    for (const item of items) {
      const found = verdicts.get(item.id);
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
      outcomes.get(item.id)!.push({ pass: 'auditor', status, note, checks: [check], checked: SNIPPET_EVIDENCE });
    }
  }
  const settled = settle(items, outcomes, passNames, config.auditor);
  const message = !passNames.length
    ? 'No verification pass requested'
    : items.length === 0
      ? 'No item to verify'
      : `Ran the ${joinList(passNames)} pass${passNames.length > 1 ? 'es' : ''} without reading pages: ${settled.verifiedCount} of ${count(items.length, 'item')} verified`;
  return { passNames, ...(auditorError ? { auditorError } : {}), diagnostics: settled.diagnostics, sidecar: settled.sidecar, message };
}

const RULE_CALENDAR_EVIDENCE: VerificationEvidence = {
  basis: 'calendar',
  description: "Checked by rule against the item's regulatory calendar entry; no page was read",
  pages: [],
};
const RULE_WEB_EVIDENCE: VerificationEvidence = {
  basis: 'source_snippets',
  description: 'Checked by rule for date and stage plausibility; no page was read',
  pages: [],
};
const SNIPPET_EVIDENCE: VerificationEvidence = {
  basis: 'source_snippets',
  description: 'Checked against the search snippets and page excerpts the analysis had; no page was read for verification',
  pages: [],
};

async function verifyAgainstPages(
  session: LlmSession,
  roles: VerifyRoles,
  fetch: FetchPort,
  passNames: PassName[],
  scanDate: string,
  items: SnapshotItem[],
): Promise<VerifyOutcome> {
  const reads = await readCitedPages(fetch, items, session.signal);
  const provider = fetch.provider as VerificationEvidence['provider'];
  const pagesOf = (item: SnapshotItem) => [...new Set(item.citations.map((c) => c.url))].map((url) => reads.get(url)!);
  const readable = items.filter((item) => pagesOf(item).some((page) => page.outcome === 'read'));
  const outcomes = new Map<string, PassOutcome[]>(items.map((i) => [i.id, []]));
  const verifierErrors: Partial<Record<PassName, string>> = {};
  for (const pass of passNames) {
    const role = pass === 'realist' ? roles.realist : roles.auditor;
    let verdicts = new Map<string, Verdict>();
    if (readable.length > 0) {
      try {
        const reply = await session.completeJson(
          role,
          pass === 'realist' ? REALIST_SYSTEM : AUDITOR_SYSTEM,
          pageVerificationPrompt(pass, readable, (url) => reads.get(url), scanDate),
          AUDITOR_MAX_TOKENS,
          true,
        );
        if (reply.value && Array.isArray(reply.value.items)) verdicts = parseVerdicts(reply.value);
        else verifierErrors[pass] = `the ${pass} model returned no usable JSON`;
      } catch (error) {
        if (error instanceof ProviderTransientError || !(error instanceof EngineFailure)) throw error;
        verifierErrors[pass] = `the ${pass} model failed: ${error.message}`;
      }
    }
    for (const item of items) {
      const pages = pagesOf(item);
      const checked: VerificationEvidence = {
        basis: 'cited_pages',
        description: `Checked by the ${pass} model against the text of the item's cited pages, read through ${provider}`,
        provider,
        pages: pages.map(publicPage),
      };
      const checks: CheckDetail[] = pages.map((page) => ({
        check: 'page_read',
        outcome: page.outcome === 'read' ? 'ok' : 'unverified',
        detail: `${page.url}: ${page.detail}`,
      }));
      let status: VerificationStatus;
      let note: string;
      if (!readable.includes(item)) {
        status = 'unverified';
        note = `None of the item's cited pages could be read (${pages.map((p) => `${p.url}: ${p.detail.replace(/\.$/, '')}`).join('; ')}).`;
      } else {
        const found = verdicts.get(item.id);
        status = found?.status ?? 'unverified';
        note = found
          ? found.note || `The ${pass} model marked the item ${found.status} from its cited pages.`
          : verifierErrors[pass]
            ? `The ${pass} pass could not check this item (${verifierErrors[pass]}).`
            : `The ${pass} model returned no verdict for this item.`;
        checks.push({ check: found ? 'llm_page_review' : 'llm_no_verdict', outcome: status === 'verified' ? 'ok' : status, detail: note });
      }
      outcomes.get(item.id)!.push({ pass, status, note, checks, checked });
    }
  }
  const settled = settle(items, outcomes, passNames, passNames.includes('auditor'));
  const all = [...reads.values()];
  const read = all.filter((p) => p.outcome === 'read').length;
  const unreachable = all.filter((p) => p.outcome === 'unreachable').length;
  const notRead = all.filter((p) => p.outcome === 'not_read').length;
  const disputed = items.filter((i) => i.verification.status === 'disputed').length;
  const message =
    `Read ${read} of ${count(all.length, 'cited page')} through ${provider}` +
    `${unreachable ? ` (${unreachable} unreachable)` : ''}${notRead ? `, ${notRead} over the page limit` : ''}; ` +
    `the ${joinList(passNames)} pass${passNames.length > 1 ? 'es' : ''} checked ${count(readable.length, 'item')} against them: ` +
    `${settled.verifiedCount} of ${count(items.length, 'item')} verified, ${disputed} disputed`;
  return {
    passNames,
    ...(verifierErrors.auditor ? { auditorError: verifierErrors.auditor } : {}),
    ...(Object.keys(verifierErrors).length ? { verifierErrors } : {}),
    pages: { provider: fetch.provider, read, unreachable, notRead },
    diagnostics: settled.diagnostics,
    sidecar: settled.sidecar,
    message,
  };
}

type Verdict = { status: (typeof STATUSES)[number]; note: string };

function parseVerdicts(value: JsonObject): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const entry of asList(value.items)) {
    const record = asObject(entry);
    const id = asText(record?.id);
    const status = asEnum(record?.status, STATUSES);
    if (id && status && !verdicts.has(id)) verdicts.set(id, { status, note: stripReferences(asText(record?.note) ?? '') });
  }
  return verdicts;
}

/** Sets each item's `verification` from its pass outcomes, and builds the sidecar and diagnostics. */
function settle(items: SnapshotItem[], outcomes: Map<string, PassOutcome[]>, passNames: PassName[], auditorRan: boolean) {
  const diagnostics: VerifyOutcome['diagnostics'] = [];
  const flagged: string[] = [];
  for (const item of items) {
    const passes = outcomes.get(item.id) ?? [];
    item.verification = { status: combineStatus(passes), passes: passes.map(publicPass) };
    if (passes.some((p) => p.pass === 'auditor' && p.status !== 'verified')) flagged.push(item.id);
    if (passes.length > 0) diagnostics.push({ item_id: item.id, status: item.verification.status, passes });
  }
  const verifiedCount = items.filter((i) => i.verification.status === 'verified').length;
  const sidecar: AuditorSidecar = { ran: auditorRan, passes: passNames, verified_count: verifiedCount, flagged_item_ids: flagged };
  return { diagnostics, sidecar, verifiedCount };
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
  return { pass: 'realist', status, note, checks, checked: RULE_WEB_EVIDENCE };
}
