/**
 * Stages at which an instrument is adopted or further on: its dates are law, not plans. Firmness checks, trend
 * momentum and prose treat these alike.
 */
export const ITEM_STAGES_PAST_ADOPTION: ReadonlySet<string> = new Set(['adopted', 'in_force', 'applies']);
