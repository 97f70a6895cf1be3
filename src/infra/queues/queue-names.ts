export const SCANS_QUEUE = 'scans';
export const EXPORTS_QUEUE = 'exports';
