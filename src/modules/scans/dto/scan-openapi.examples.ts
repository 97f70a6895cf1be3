import type { ProblemExample } from '../../../common/openapi/api-problems.decorator';

/**
 * Request and problem examples of the scan operations. Each request example succeeds as it is against a fresh
 * account on the offline engine (test/openapi-contract.e2e-spec.ts sends every one), so "Try it out" works.
 */
export const SCAN_CONFIG_EXAMPLES = {
  minimal: {
    summary: 'Required fields only: engine v4, no verification passes',
    value: { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 },
  },
  verified: {
    summary: 'Realist and auditor passes (verificationMode needs an explicit engine)',
    value: { jurisdictions: ['EU'], areas: ['Payments'], horizon: 6, engine: 'v4', verificationMode: 'in-analyst' },
  },
  providers: {
    summary: 'Engine v4.5-beta with its own search and page-fetch backends',
    value: {
      jurisdictions: ['UK', 'Singapore'],
      areas: ['Data Privacy', 'Operational Resilience'],
      horizon: 24,
      engine: 'v4.5-beta',
      model: 'medium',
      fetchProvider: 'fetch-a',
      searchProvider: 'search-a',
    },
  },
  translated: {
    summary: 'With translations (produced when the deployment has a translation provider; see _meta.translation)',
    value: { jurisdictions: ['EU'], areas: ['ESG / Sustainable Finance'], horizon: 18, translationLanguages: ['fr', 'de'] },
  },
};

export const SCAN_ESTIMATE_EXAMPLES = {
  minimal: {
    summary: 'Counts and horizon (engine v4 assumed)',
    value: { jurisdictions: ['EU', 'UK'], areas: ['AML / KYC', 'Payments'], horizon: 12 },
  },
  engine_and_providers: {
    summary: 'Another engine, with provider hints',
    value: {
      jurisdictions: ['US'],
      areas: ['Capital Markets'],
      horizon: 6,
      engine: 'v4.5-alpha',
      analystProvider: 'anthropic',
      seekerProvider: 'perplexity',
    },
  },
};

const invalidHorizon = {
  code: 'validation_error',
  summary: 'A field is missing or invalid; `errors[]` lists every one with its path and field code.',
  detail: 'The request has invalid fields; see errors',
  errors: [{ path: 'horizon', code: 'invalid', message: 'horizon must be one of 3, 6, 12, 18, 24, 36 (months), not 5.' }],
} satisfies ProblemExample;

const engineDeprecated = {
  code: 'validation_error',
  name: 'engine_deprecated',
  summary: 'A retired engine (v1, v2, v3, admiral).',
  detail: 'The request has invalid fields; see errors',
  errors: [{ path: 'engine', code: 'engine_deprecated', message: 'Engine v3 is retired; use v4, v4.5-alpha or v4.5-beta.' }],
} satisfies ProblemExample;

export const SCAN_CONFIG_PROBLEMS: ProblemExample[] = [
  invalidHorizon,
  engineDeprecated,
  {
    code: 'validation_error',
    name: 'incompatible',
    summary: 'A field valid only with another setting (fetchProvider without engine v4.5-beta, realist without an explicit engine).',
    detail: 'The request has invalid fields; see errors',
    errors: [{ path: 'fetchProvider', code: 'incompatible', message: 'fetchProvider is only valid with engine v4.5-beta, not v4.' }],
  },
  {
    code: 'validation_error',
    name: 'small_model_blocked_on_verifier',
    summary: 'model `small` on a verifier-aware config (v4.5-alpha, v4.5-beta, or v4 with a verification pass).',
    detail: 'The request has invalid fields; see errors',
    errors: [
      {
        path: 'model',
        code: 'small_model_blocked_on_verifier',
        message:
          'model small is a small model, which cannot run a verifier-aware config (engine v4.5-alpha); choose medium, large or large48.',
      },
    ],
  },
  {
    code: 'validation_error',
    name: 'invalid_mode',
    summary: 'The `mode` query parameter is neither sync nor async.',
    detail: 'The request has invalid fields; see errors',
    errors: [{ path: 'mode', code: 'invalid', message: 'mode must be sync or async' }],
  },
  {
    code: 'council_model_fixed',
    summary: 'Engine council with a model other than `large`.',
    detail: "Engine council uses fixed analyst models; omit model or set it to large (got 'medium').",
  },
  {
    code: 'budget_exhausted',
    summary: "The account's budget pool cannot cover the scan's expected cost.",
    detail: 'The budget pool has 20 cents remaining; this scan needs 50 cents',
  },
  {
    code: 'engine_unavailable',
    summary: 'The engine is valid but not enabled on this deployment (ENABLED_ENGINES).',
    detail: 'Engine council is not loaded in this deployment (enabled: v4, v4.5-alpha, v4.5-beta)',
  },
];

export const SCAN_ESTIMATE_PROBLEMS: ProblemExample[] = [
  {
    ...invalidHorizon,
    errors: [{ path: 'jurisdictions', code: 'required', message: 'jurisdictions is required: a list of 1 to 100 names.' }],
  },
  engineDeprecated,
];

const scanNotFound = (summary: string): ProblemExample => ({
  code: 'not_found',
  summary,
  detail: 'Scan 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f not found',
});

export const SCAN_NOT_FOUND = scanNotFound(
  "No scan with this id in your account (another account's scans count as missing; so does a malformed id).",
);

export const SCAN_STREAM_PROBLEMS: ProblemExample[] = [
  scanNotFound('No scan with this id in your account.'),
  {
    code: 'rate_limit_exceeded',
    summary:
      'This API key already has as many streams open as it may (the `streams` bucket); close one or retry after Retry-After seconds.',
    detail: 'Rate limit exceeded for the streams bucket: at most 20 open scan streams per API key; close one or retry after 5 s',
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  },
  {
    code: 'transient_error',
    name: 'stream_capacity',
    summary: 'This server holds as many streams as it can, or is shutting down; retry after Retry-After seconds (reconnects resume).',
    detail: 'This server holds as many scan streams as it can; retry shortly',
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  },
];

export const SCAN_CANCEL_PROBLEMS: ProblemExample[] = [
  scanNotFound('No scan with this id in your account.'),
  {
    code: 'invalid_state',
    summary: 'The scan already finished (completed, failed or cancelled); nothing changed.',
    detail: 'Scan 5f0c7a1e-2b3d-4c5e-8f90-1a2b3c4d5e6f is already completed and cannot be cancelled',
  },
];
