/** Offline analysis engine: selection, composition and the simple register from the regulatory calendar. */
export { resolveArea, resolveAreas, resolveJurisdiction, resolveJurisdictions, normalizeName, type ResolvedNames } from './matching';
export {
  MAX_SELECTED_ITEMS,
  selectEntries,
  selectEntriesWithStats,
  windowEnd,
  type SelectedEntry,
  type SelectionCriteria,
  type SelectionResult,
} from './selection';
export {
  analyseOffline,
  composeOfflineEnvelope,
  keyDateClause,
  MAX_PRIORITIES,
  type AuditorPrivateDiagnostics,
  type ComposeContext,
  type OfflineAnalysis,
  type OfflineMeta,
  type OfflineRunContext,
} from './compose';
export { MAX_TRENDS, buildTrends, trendMomentum } from './trends';
export { auditorPass, combineStatus, realistPass, STALE_AFTER_DAYS, type PassOutcome, type CheckDetail } from './verification';
export { toSimpleRegister, type SimpleRegister, type SimpleRegisterSource } from './simple-register';
export { addMonths } from './dates';
