export const SCANS_QUEUE = 'scans';
export const EXPORTS_QUEUE = 'exports';
export const WEBHOOKS_QUEUE = 'webhooks';
