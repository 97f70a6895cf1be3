/** What a snapshot is: a scan's own result, a council's composite, or one council seat's view. */
export const SNAPSHOT_KINDS = ['standard', 'council_composite', 'council_seat'] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];
