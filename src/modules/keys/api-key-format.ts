import { createHash } from 'node:crypto';
import { randomBase62 } from '../../common/http/request-id';

export const KEY_RANDOM_LENGTH = 32;

export function generateRawKey(prefix: string): string {
  return `${prefix}_live_${randomBase62(KEY_RANDOM_LENGTH)}`;
}

export function isWellFormedKey(token: string, prefix: string): boolean {
  return token.length === prefix.length + 6 + KEY_RANDOM_LENGTH && token.startsWith(`${prefix}_live_`) && /^[0-9A-Za-z]+$/.test(token.slice(prefix.length + 6));
}

export function hashKey(rawKey: string): string {
  return createHash('sha256').update(rawKey).digest('hex');
}

/** `rgs_live_AbCd…`: enough to tell keys apart in a listing, useless to an attacker. */
export function maskKey(rawKey: string, prefix: string): string {
  return `${rawKey.slice(0, prefix.length + 6 + 4)}…`;
}
