import { malformed } from '../http/provider-http';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (the standard alphabet, whitespace ignored): Buffer.from alone would skip any junk silently. */
export function decodeBase64Image(provider: string, value: unknown, field: string): Buffer {
  if (typeof value !== 'string') throw malformed(provider, `missing ${field}`);
  const compact = value.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 === 1 || !BASE64.test(compact)) {
    throw malformed(provider, `${field} is not base64`);
  }
  return Buffer.from(compact, 'base64');
}

/** Default per-request timeout of the image adapters: a detailed page takes the vendors a minute or more. */
export const IMAGE_TIMEOUT_MS = 180_000;
