import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { compatibleCatalogueEnv, configurationHint, costCents, resolveModel, type ResolvedModel, vendorCredentials } from '../domain/vocabulary/models';
import type { ResolvedScanConfig } from '../domain/scan-config.types';
import { CalendarService } from './calendar/calendar.service';
import type { Calendar } from './calendar/calendar.types';
import { type EngineOutput, type EngineRunContext } from './engine.types';
import type { SnapshotItem } from './envelope.types';
import { composeOfflineEnvelope } from './analysis/compose';
import { selectEntriesWithStats, type SelectedEntry, type SelectionResult } from './analysis/selection';
import { analyseWithLlm, type LlmAnalysisDeps } from './llm/llm-analysis';
import type { ProviderRegistry } from '../infra/providers/provider-registry';
import { PROVIDER_REGISTRY } from '../infra/providers/providers.module';
import { isSupportedTranslationLanguage, translateEnvelope, type TranslatableEnvelope } from './translation/envelope-translator';
import { EngineFailure } from '../domain/failures';
import { runLlmCouncil } from './council/council-run';
import { councilSeating, writerFor } from './council/council-seats';
import { type CouncilLens, runOfflineCouncil } from './council/offline-council';
import { simpleRegisterPhase } from './llm/simple-register.phase';

type Lens = CouncilLens;

/**
 * The scan pipeline (../shared/spec/decisions.md section 5): plan, search, read, analyse, verify, sub-edit, translate,
 * finalise. Progress is reported at each real phase boundary and names the work done; the offline engine, which
 * reads no page and has no sub-editor, reports neither phase (docs/decisions.md "Verification page reads and honest
 * progress").
 */
@Injectable()
export class ScanEngineService {
  private readonly credentials: Record<string, string | undefined>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
    private readonly calendars: CalendarService,
  ) {
    this.credentials = {
      ...vendorCredentials((vendor) => config.providers[vendor].apiKey),
      ...compatibleCatalogueEnv(config.openaiCompatible),
    };
  }

  async run(ctx: EngineRunContext): Promise<EngineOutput> {
    const analyst = this.resolve(ctx.config.model ?? 'large', 'model');
    if (ctx.config.searchModel) this.resolve(ctx.config.searchModel, 'searchModel');
    const price = analyst.model.id;
    let phases = 0;
    let translationCents = 0;
    const cost = () => costCents(price, { phases }, this.credentials) + translationCents;
    // The offline council's reports: the demo pause (OFFLINE_STEP_MS) follows a report, so no message covers it.
    const step = async (phase: string, percent: number, message: string) => {
      phases++;
      await ctx.advance(phase, percent, message, cost());
      if (phase !== 'finalise') await ctx.pace();
    };
    const translate = async (envelope: Record<string, unknown>) => {
      const result = await this.translate(envelope, ctx.config);
      translationCents += result.costCents;
      return result.message;
    };
    const calendar = this.loadedCalendar();
    const { config } = ctx;

    const plan = `Planning: ${config.jurisdictions.length} jurisdiction(s) x ${config.areas.length} area(s) over ${config.horizon} months`;
    phases++;
    await ctx.advance('plan', 5, plan, cost());
    if (config.engine === 'council') return this.runCouncil(ctx, calendar, step, translate, cost);
    if (analyst.provider !== 'offline') return this.runLlm(ctx, analyst, calendar, translate, cost);
    await ctx.pace();
    return this.runOffline(ctx, calendar, translate, cost, () => phases++);
  }

  /**
   * The offline engine works from the calendar alone: it selects, composes (items, trends, prose, the rule-built
   * briefing and the verification passes, all in one pure step) and translates. Each report follows the work it
   * names, with its real counts; there is no page read or sub-editor offline, so neither is reported. The demo
   * pause (OFFLINE_STEP_MS) comes after a report, between phases, and no message counts it as work.
   */
  private async runOffline(
    ctx: EngineRunContext,
    calendar: Calendar,
    translate: (envelope: Record<string, unknown>) => Promise<string>,
    cost: () => number,
    countPhase: () => void,
  ): Promise<EngineOutput> {
    const { config } = ctx;
    const report = async (phase: string, percent: number, message: string) => {
      countPhase();
      await ctx.advance(phase, percent, message, cost());
      if (phase !== 'finalise') await ctx.pace();
    };
    const { selected, matched, matchedCount } = this.search(calendar, config, ctx.scanDate);
    await report('search', 20, `Matched ${matchedCount} calendar instrument(s) within the horizon, kept ${selected.length}`);
    const envelope = this.compose(selected, matched, matchedCount, calendar, ctx, 'impact');
    const items = envelope.items as SnapshotItem[];
    await report('analyse', 55, `Composed ${items.length} item(s) into ${(envelope.trends as unknown[]).length} trend(s)`);
    await report('verify', 70, offlineVerifyMessage(config, items));
    await report('translate', 90, await translate(envelope));
    await report('finalise', 97, 'Finalised the snapshot');
    return { snapshots: [{ kind: 'standard', title: titleOf(config, ctx.scanDate), envelope }], costCents: cost() };
  }

  /**
   * A configured real provider analyses the calendar candidates and what search finds (guardrails drop anything
   * ungrounded, outside the window or outside the request); the calendar still anchors stable item ids.
   */
  private async runLlm(
    ctx: EngineRunContext,
    analyst: ResolvedModel,
    calendar: Calendar,
    translate: (envelope: Record<string, unknown>) => Promise<string>,
    planCost: () => number,
  ): Promise<EngineOutput> {
    const { config } = ctx;
    let llmCents = 0;
    const analystRole = { provider: analyst.provider, port: this.providers.llm(analyst.provider)!, modelId: analyst.model.id, vendorModel: analyst.model.model_id };
    const deps: LlmAnalysisDeps = {
      analyst: analystRole,
      writer: writerFor(analystRole, this.credentials, (provider) => this.providers.llm(provider)),
      ...this.searchFor(config),
      fetch: this.providers.fetch(config.fetchProvider ?? 'fetch-a'),
      verifyFetch: this.providers.fetch(config.verifyProvider),
      ...(config.auditor ? this.auditorFor(analyst) : {}),
      catalogue: this.credentials,
    };
    const percents = { search: 20, read: 35, analyse: 55, verify: 70, 'sub-edit': 80 } as const;
    const { envelope, costCents: analysisCents } = await analyseWithLlm(
      deps,
      {
        config: { ...config, realist: runsRealist(config) },
        scanDate: ctx.scanDate,
        candidates: this.search(calendar, config, ctx.scanDate).selected,
        calendarVersion: calendar.version,
      },
      {
        phase: async (name, message, costSoFar) => {
          llmCents = costSoFar;
          await ctx.advance(name, percents[name], message, planCost() + llmCents);
        },
      },
    );
    llmCents = analysisCents;
    const total = () => planCost() + llmCents;
    const simple = await simpleRegisterPhase(deps.writer ?? deps.analyst, envelope, this.credentials);
    llmCents += simple.costCents;
    await ctx.advance('sub-edit', 85, simple.message, total());
    await ctx.advance('translate', 90, await translate(envelope), total());
    await ctx.advance('finalise', 97, 'Finalised the snapshot', total());
    return { snapshots: [{ kind: 'standard', title: titleOf(config, ctx.scanDate), envelope }], costCents: total() };
  }

  /** v4.5-beta chooses its search backend (search-a: perplexity, search-b: gemini); other engines use a configured searchModel or perplexity. */
  private searchFor(config: ResolvedScanConfig): Pick<LlmAnalysisDeps, 'search'> {
    const requested = config.searchModel ? resolveModel(config.searchModel, this.credentials) : null;
    const provider =
      requested?.configured && requested.provider !== 'offline'
        ? requested.provider
        : config.searchProvider === 'search-b'
          ? 'gemini'
          : 'perplexity';
    const port = this.providers.search(provider);
    if (!port) return {};
    const model =
      requested?.provider === provider
        ? requested.model
        : resolveModel(provider === 'perplexity' ? 'perplexity-sonar' : 'gemini-seeker', this.credentials)?.model;
    return { search: { port, modelId: model?.id, vendorModel: model?.model_id } };
  }

  /** The auditor model is `medium` (../shared/spec/decisions.md C1): the medium tier of the analyst's provider when it has one. */
  private auditorFor(analyst: ResolvedModel): Pick<LlmAnalysisDeps, 'auditor'> {
    const own = resolveModel(`${analyst.provider}-medium`, this.credentials);
    // A self-hosted endpoint need not map medium.
    const medium = own?.configured ? own : resolveModel('medium', this.credentials);
    const port = medium && medium.provider !== 'offline' ? this.providers.llm(medium.provider) : null;
    return port && medium ? { auditor: { port, modelId: medium.model.id, vendorModel: medium.model.model_id } } : {};
  }

  /**
   * Two analyst seats in parallel, a deterministic merge, and a writer composing one briefing: on the configured LLM
   * vendors (council/council-run.ts), else the offline calendar council (council/offline-council.ts).
   */
  private async runCouncil(
    ctx: EngineRunContext,
    calendar: Calendar,
    step: (phase: string, percent: number, message: string) => Promise<void>,
    translate: (envelope: Record<string, unknown>) => Promise<string>,
    cost: () => number,
  ): Promise<EngineOutput> {
    const { config } = ctx;
    const { selected, matched, matchedCount } = this.search(calendar, config, ctx.scanDate);
    const title = (suffix: string) => titleOf(config, ctx.scanDate, suffix);
    const seating = councilSeating(this.credentials, (provider) => this.providers.llm(provider));
    if (!seating) {
      await ctx.pace();
      const compose = (entries: SelectedEntry[], lens: Lens) => this.compose(entries, matched, matchedCount, calendar, ctx, lens);
      return runOfflineCouncil({ ctx, selected, step, translate, cost, compose, title });
    }
    const shared = { ...this.searchFor(config), fetch: this.providers.fetch(config.fetchProvider ?? 'fetch-a'), catalogue: this.credentials };
    return runLlmCouncil({
      ctx,
      seating,
      shared,
      config,
      candidates: selected,
      calendarVersion: calendar.version,
      translate,
      planCost: cost,
      title,
    });
  }

  private resolve(modelOrTier: string, field: string): ResolvedModel {
    const resolved = resolveModel(modelOrTier, this.credentials);
    if (!resolved) throw new EngineFailure(`${field} "${modelOrTier}" is not a known model`);
    if (!resolved.configured) {
      throw new EngineFailure(
        `${field} "${modelOrTier}" belongs to provider ${resolved.provider}, which is not configured on this deployment (${configurationHint(resolved.provider)})`,
      );
    }
    if (resolved.provider !== 'offline' && !this.providers.llm(resolved.provider)) {
      throw new EngineFailure(`${field} "${modelOrTier}" (${resolved.provider}) has no analysis adapter`);
    }
    return resolved;
  }

  /** The calendar instruments the scan covers, capped, and how many matched before the cap. */
  private search(calendar: Calendar, config: ResolvedScanConfig, scanDate: string): SelectionResult {
    return selectEntriesWithStats(calendar, {
      jurisdictions: config.jurisdictions,
      areas: config.areas,
      horizonMonths: config.horizon,
      scanDate,
    });
  }

  private compose(
    selected: SelectedEntry[],
    matched: SelectedEntry[],
    matchedCount: number,
    calendar: Calendar,
    ctx: EngineRunContext,
    lens: Lens,
  ): Record<string, unknown> {
    const kept = new Set(selected.map(({ entry }) => entry.id));
    const { config } = ctx;
    const composed = composeOfflineEnvelope(selected, calendar, {
      jurisdictions: config.jurisdictions,
      areas: config.areas,
      horizonMonths: config.horizon,
      scanDate: ctx.scanDate,
      engine: config.engine,
      realist: runsRealist(config),
      auditor: config.auditor,
      calendarVersion: calendar.version,
      matchedCount,
      beyondCap: matched.filter(({ entry }) => !kept.has(entry.id)),
    });
    const { plain, ...envelope } = composed as unknown as Record<string, unknown> & { plain: Record<string, string> };
    return { ...envelope, translations: {}, _plain: plain, _meta: { ...(envelope._meta as object), lens } };
  }

  /**
   * Translates the envelope's prose into each requested language through the translation port. Unsupported
   * codes and a missing provider produce no translation, and `_meta.translation` says so.
   */
  private async translate(envelope: Record<string, unknown>, config: ResolvedScanConfig): Promise<{ message: string; costCents: number }> {
    const requested = config.translationLanguages;
    const port = this.providers.translation();
    const produced: string[] = [];
    const skipped: Record<string, string> = {};
    let characters = 0;
    const translations: Record<string, unknown> = {};
    for (const language of requested) {
      if (!isSupportedTranslationLanguage(language)) skipped[language] = 'unsupported language';
      else if (!port) skipped[language] = 'no translation provider is configured on this deployment';
      else {
        const result = await translateEnvelope(envelope as unknown as TranslatableEnvelope, language, port);
        translations[language] = result.translation;
        characters += result.characters;
        if (result.translation.complete) produced.push(language);
        else skipped[language] = 'the provider returned an incomplete translation';
      }
    }
    envelope.translations = translations;
    envelope._meta = {
      ...(envelope._meta as object),
      translation: { requested, produced, ...(Object.keys(skipped).length ? { skipped } : {}), provider: port?.provider ?? null },
    };
    const costCents = characters ? costCentsOfCharacters(characters) : 0;
    if (!requested.length) return { message: 'No translation requested', costCents };
    return {
      message: `Translated into ${produced.join(', ') || 'no language'}${Object.keys(skipped).length ? `; skipped ${Object.keys(skipped).join(', ')}` : ''}`,
      costCents,
    };
  }

  private loadedCalendar(): Calendar {
    return this.calendars.get();
  }
}

const costCentsOfCharacters = (characters: number) => costCents('deepl-translate', { characters });

/** The v4.5 engines are verifier-aware (spec rule 2): they always run the realist pass; v4 only when asked. */
function runsRealist(config: ResolvedScanConfig): boolean {
  return config.realist || config.engine === 'v4.5-alpha' || config.engine === 'v4.5-beta';
}

/** What the offline passes did: they compare items with the calendar's own entries and sources, and read no page. */
function offlineVerifyMessage(config: ResolvedScanConfig, items: readonly SnapshotItem[]): string {
  const passes = [runsRealist(config) && 'realist', config.auditor && 'auditor'].filter((p): p is string => !!p);
  if (!passes.length) return 'No verification pass requested';
  const counted = (status: string) => items.filter((i) => i.verification.status === status).length;
  return (
    `Checked ${items.length} item(s) with the ${passes.join(' and ')} pass${passes.length > 1 ? 'es' : ''} against the regulatory ` +
    `calendar's own entries and sources (offline; no page was read): ${counted('verified')} verified, ${counted('unverified')} unverified, ` +
    `${counted('disputed')} disputed`
  );
}

/** The snapshots.title column; titles of any configuration fit it, shortened on purpose rather than cut by the database. */
export const SNAPSHOT_TITLE_MAX_LENGTH = 300;
const TITLE_HEAD = 'Regulatory horizon: ';

/** "Regulatory horizon: EU, UK · Payments · 12 months (2026-11-23)", long lists summarised as "… and 18 more". */
export function titleOf(config: ResolvedScanConfig, scanDate: string, suffix = ''): string {
  const tail = ` · ${config.horizon} months (${scanDate})${suffix}`;
  const room = Math.floor((SNAPSHOT_TITLE_MAX_LENGTH - TITLE_HEAD.length - tail.length - ' · '.length) / 2);
  return `${TITLE_HEAD}${nameList(config.jurisdictions, room)} · ${nameList(config.areas, room)}${tail}`;
}

function nameList(names: readonly string[], room: number): string {
  const all = names.join(', ');
  if (all.length <= room) return all;
  const kept: string[] = [];
  for (const name of names) {
    const candidate = [...kept, name].join(', ');
    if (candidate.length + ` and ${names.length - kept.length - 1} more`.length > room) break;
    kept.push(name);
  }
  const more = ` and ${names.length - Math.max(kept.length, 1)} more`;
  if (kept.length > 0) return `${kept.join(', ')}${more}`;
  // Even the first name alone is too long: shorten it at a word where possible.
  const cut = names[0].slice(0, Math.max(1, room - more.length - 1)).replace(/\s+\S*$/, '');
  return `${cut}…${names.length > 1 ? more : ''}`;
}
