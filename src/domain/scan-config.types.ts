/** A scan configuration after validation, with every default resolved (stored with the scan and the snapshot). */
export interface ResolvedScanConfig {
  jurisdictions: string[];
  areas: string[];
  horizon: 3 | 6 | 12 | 18 | 24 | 36;
  engine: 'v4' | 'v4.5-alpha' | 'v4.5-beta' | 'council';
  /** The model id or tier shorthand as requested (null: the engine's default tier `large`). */
  model: string | null;
  searchModel: string | null;
  verificationMode: 'in-analyst' | null;
  realist: boolean;
  auditor: boolean;
  auditorModel: 'medium';
  /** Only for engine v4.5-beta; null otherwise. */
  fetchProvider: 'fetch-a' | 'fetch-b' | null;
  searchProvider: 'search-a' | 'search-b' | null;
  verifyProvider: 'fetch-a' | 'fetch-b';
  translationLanguages: string[];
}

/** Deployment defaults the resolution needs (../shared/spec/decisions.md C1, C2). */
export interface ScanConfigDefaults {
  defaultFetchProvider: 'fetch-a' | 'fetch-b';
  defaultSearchProvider: 'search-a' | 'search-b';
  defaultVerifyProvider: 'fetch-a' | 'fetch-b';
  defaultAuditorModel: string;
}
