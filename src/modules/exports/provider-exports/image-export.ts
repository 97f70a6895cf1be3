/**
 * Image exports drawn by the vendors: imagegen-a-infographic by the OpenAI Images API (gpt-image-1),
 * imagegen-b-infographic by Gemini's image model (gemini-2.5-flash-image), with the deployment's own keys
 * (OPENAI_API_KEY / GEMINI_API_KEY and their base URLs). A plan comes first (image-plan.ts): imagegen-a's plan is
 * written by its `planModel` option, imagegen-b's by the `medium` tier (the spec gives B no planModel option).
 * Plan models resolve like scan models (resolveModel: a tier takes the first configured provider in
 * TIER_PROVIDER_PREFERENCE); `medium5` is the medium tier of the GPT-5 family, OpenAI's GPT-5 mini, the same
 * vendor as imagegen-a's image model. A reply holding no JSON gets one reminder (LlmSession.completeJson); a plan
 * model that resolves offline, or a plan with nothing left after its checks, gives way to the plan laid out from
 * the snapshot without a model (snapshotImagePlan), and the image is still drawn.
 *
 * When the type's vendor has no key, the exports processor draws the page with the local SVG renderer instead
 * (image.renderer.ts) and the export says so (`rendered_by: offline`).
 *
 * Cost: the plan model's tokens at MODEL_PRICES plus the image's tokens at IMAGE_MODEL_PRICES, rounded up to
 * whole cents. Rate limits, 5xx answers, timeouts and network errors are retried here (VENDOR_ATTEMPTS in all,
 * with a short back-off); a vendor still failing after that fails the export with the vendor's error (no charge).
 * Bytes that are not a whole PNG, JPEG or WebP fail it too.
 */
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config';
import {
  compatibleCatalogueEnv,
  IMAGE_MODEL_PRICES,
  IMAGE_MODELS,
  modelPrice,
  priceCents,
  resolveModel,
  type ResolvedModel,
  vendorCredentials,
} from '../../../domain/vocabulary/models';
import { LlmSession } from '../../../engine/llm/llm-session';
import { sleep } from '../../../infra/providers/http/abortable-sleep';
import type { ImageGenerationRequest } from '../../../infra/providers/ports';
import { ProviderFailure, ProviderTransientError } from '../../../infra/providers/provider-errors';
import type { ProviderRegistry } from '../../../infra/providers/provider-registry';
import { PROVIDER_REGISTRY } from '../../../infra/providers/providers.module';
import { DEFAULT_STYLE_SLUGS, findVisualStyle, type ImagegenArtifactType, type ImagegenProvider } from '../export-types/image-styles';
import { artefactFilename } from '../renderers/artefact-filename';
import type { RenderInput } from '../renderers/types';
import { sniffImage } from './image-bytes';
import { imagePrompt, PLAN_SYSTEM, planPrompt, planSources, snapshotImagePlan, validateImagePlan, type ImagePlan } from './image-plan';
import type { ProviderExportResult } from './provider-export.types';
import { resultMediaType } from './result-media-type';

export type ImageVendor = keyof typeof IMAGE_MODELS;

/** Who draws each image export type when its key is configured. */
export const IMAGE_EXPORT_VENDORS: Readonly<Record<ImagegenProvider, ImageVendor>> = {
  'imagegen-a-infographic': 'openai',
  'imagegen-b-infographic': 'gemini',
};

/** imagegen-b has no planModel option: its plans are written by this tier. */
export const IMAGEGEN_B_PLAN_MODEL = 'medium';
/** `planModel: medium5`: the medium tier of the GPT-5 family (GPT-5 mini), whatever else is configured. */
export const MEDIUM5_PLAN_MODEL = 'openai-medium';
/** Output budget of a plan reply (reasoning models spend part of it thinking). */
export const PLAN_MAX_TOKENS = 6000;
/** Attempts at one vendor call (plan or image) before the export fails. */
export const VENDOR_ATTEMPTS = 3;
const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 5000;
/** Most output tokens one image is billed: a high-quality 1024x1536 gpt-image-1 page; one gemini-2.5-flash-image image. */
const IMAGE_MAX_OUTPUT_TOKENS: Readonly<Record<ImageVendor, number>> = { openai: 6240, gemini: 1290 };

const PAGES: Readonly<Record<ImagegenArtifactType, { page: string; aspectRatio: ImageGenerationRequest['aspectRatio']; suffix: string }>> =
  {
    'tearsheet-detailed': { page: 'detailed regulatory tearsheet page (A4 portrait)', aspectRatio: '2:3', suffix: 'tearsheet' },
    'infographic-custom': { page: 'regulatory horizon infographic (4:5 portrait)', aspectRatio: '4:5', suffix: 'infographic' },
  };

export function isImageExport(provider: string): provider is ImagegenProvider {
  return Object.hasOwn(IMAGE_EXPORT_VENDORS, provider);
}

export interface ImageExportResult extends ProviderExportResult {
  /** Which vendor drew the image. */
  renderedBy: ImageVendor;
}

/** Whole cents, rounded up (to a millionth first, so float noise never tips an exact amount up a cent). */
function wholeCents(cents: number): number {
  return Math.max(0, Math.ceil(Math.round(cents * 1e6) / 1e6));
}

function retryable(error: unknown): error is ProviderTransientError {
  return error instanceof ProviderTransientError;
}

/** Runs one vendor call, retrying transient failures; the last one becomes a permanent ProviderFailure. */
async function withRetries<T>(what: string, provider: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!retryable(error)) throw error;
      if (attempt >= VENDOR_ATTEMPTS) {
        throw new ProviderFailure(`${what} kept failing (${attempt} attempts): ${error.message}`, provider, error.status);
      }
      await sleep(Math.min(RETRY_MAX_MS, error.retryAfterMs ?? RETRY_BASE_MS * 2 ** (attempt - 1)), signal);
    }
  }
}

@Injectable()
export class ImageExportRunner {
  private readonly credentials: Record<string, string | undefined>;

  constructor(
    @Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // The catalogue as scans see it: a self-hosted endpoint plans for the tiers it maps, priced by its settings.
    this.credentials = {
      ...vendorCredentials((vendor) => config.providers[vendor].apiKey),
      ...compatibleCatalogueEnv(config.openaiCompatible),
    };
  }

  /** An image export type whose vendor draws it on this deployment: AI-generated work, in the account's export lane. */
  drawsWithVendor(provider: string): boolean {
    return isImageExport(provider) && this.configured(provider);
  }

  /** Whether the vendor of this image export type has a key (otherwise the local renderer draws it). */
  configured(provider: ImagegenProvider): boolean {
    return this.providers.image(IMAGE_EXPORT_VENDORS[provider]) !== null;
  }

  /** The model that writes the plan: imagegen-a's `planModel` option, imagegen-b's fixed tier. */
  planModel(provider: ImagegenProvider, options: Record<string, string>): ResolvedModel | null {
    const requested = provider === 'imagegen-a-infographic' ? (options.planModel ?? 'medium') : IMAGEGEN_B_PLAN_MODEL;
    return resolveModel(requested === 'medium5' ? MEDIUM5_PLAN_MODEL : requested, this.credentials);
  }

  /** The most the export can cost (the budget hold): two plan replies at full length, the largest image. */
  maxCostCents(provider: ImagegenProvider, artifactType: ImagegenArtifactType, input: RenderInput): number {
    const { planText } = this.prompts(provider, artifactType, input);
    const model = this.planModel(provider, input.options);
    const planPrice = model && model.provider !== 'offline' ? modelPrice(model.model.id, this.credentials) : undefined;
    const planInput = Math.ceil((PLAN_SYSTEM.length + planText.length) / 3);
    const plan = planPrice ? priceCents(planPrice, { inputTokens: 2 * planInput + PLAN_MAX_TOKENS, outputTokens: 2 * PLAN_MAX_TOKENS }) : 0;
    const vendor = IMAGE_EXPORT_VENDORS[provider];
    const imageInput = Math.ceil((planText.length + 2000) / 3);
    const image = priceCents(IMAGE_MODEL_PRICES[IMAGE_MODELS[vendor].id]!, {
      inputTokens: imageInput,
      outputTokens: IMAGE_MAX_OUTPUT_TOKENS[vendor],
    });
    return wholeCents(plan + image);
  }

  async run(
    provider: ImagegenProvider,
    artifactType: ImagegenArtifactType,
    input: RenderInput,
    signal?: AbortSignal,
  ): Promise<ImageExportResult> {
    const vendor = IMAGE_EXPORT_VENDORS[provider];
    const port = this.providers.image(vendor);
    if (!port) throw new ProviderFailure(`${vendor}: image generation is not configured`, vendor, null);
    const { sources, style, planText } = this.prompts(provider, artifactType, input);
    const session = new LlmSession(signal, this.credentials);
    const plan = (await this.writePlan(provider, input, planText, sources, session)) ?? snapshotImagePlan(input.snapshot, sources);

    const page = PAGES[artifactType];
    const model = IMAGE_MODELS[vendor];
    const request = { model: model.model_id, prompt: imagePrompt(plan, page.page, style, input.locale), aspectRatio: page.aspectRatio };
    const image = await withRetries(`${vendor} image model ${model.model_id}`, vendor, () => port.generate(request, signal), signal);
    const sniffed = sniffImage(image.bytes);
    if (!sniffed) {
      throw new ProviderFailure(`${vendor} returned ${image.bytes.length} bytes that are not a PNG, JPEG or WebP image`, vendor, null);
    }
    const type = resultMediaType(vendor, { provider, artifactType }, [sniffed]);
    const cost = session.cost + priceCents(IMAGE_MODEL_PRICES[model.id]!, image.usage);
    return {
      bytes: image.bytes,
      mime: type.mime,
      filename: artefactFilename(input.snapshot, type.extension, `${page.suffix}-${style.slug}`),
      costCents: wholeCents(cost),
      renderedBy: vendor,
    };
  }

  private prompts(provider: ImagegenProvider, artifactType: ImagegenArtifactType, input: RenderInput) {
    const fallback = DEFAULT_STYLE_SLUGS[provider][artifactType];
    const style = findVisualStyle(input.options.styleSlug ?? fallback) ?? findVisualStyle(fallback)!;
    const sources = planSources(input.snapshot);
    return { style, sources, planText: planPrompt(sources, PAGES[artifactType].page, style, input.locale) };
  }

  /** The plan model's checked plan; null when no model is configured for it or nothing it wrote survives the checks. */
  private async writePlan(
    provider: ImagegenProvider,
    input: RenderInput,
    prompt: string,
    sources: ReturnType<typeof planSources>,
    session: LlmSession,
  ): Promise<ImagePlan | null> {
    const resolved = this.planModel(provider, input.options);
    const port = resolved && resolved.provider !== 'offline' ? this.providers.llm(resolved.provider) : null;
    if (!resolved || !port) return null;
    const role = { port, modelId: resolved.model.id, vendorModel: resolved.model.model_id };
    const { value } = await withRetries(
      `${resolved.provider} plan model ${resolved.model.model_id}`,
      resolved.provider,
      () => session.completeJson(role, PLAN_SYSTEM, prompt, PLAN_MAX_TOKENS, true),
      session.signal,
    );
    return validateImagePlan(value, sources).plan;
  }
}
