/**
 * What an image vendor sent must be a whole PNG, JPEG or WebP file before it is stored and served: the bytes are
 * checked by structure (signature, chunks and their CRCs for PNG; markers for JPEG; the RIFF header for WebP), not
 * by the label the vendor put on them.
 */
import { crc32 } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The media type of a well-formed image, or null for anything else (truncated, corrupt, another format). */
export function sniffImage(bytes: Buffer): ImageMediaType | null {
  if (isPng(bytes)) return 'image/png';
  if (isJpeg(bytes)) return 'image/jpeg';
  if (isWebp(bytes)) return 'image/webp';
  return null;
}

function isPng(bytes: Buffer): boolean {
  if (bytes.length < 8 + 25 + 12 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  let offset = 8;
  let first = true;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return false;
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (first && (type !== 'IHDR' || length !== 13 || bytes.readUInt32BE(offset + 8) === 0 || bytes.readUInt32BE(offset + 12) === 0))
      return false;
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length)) return false;
    if (type === 'IEND') return true;
    first = false;
    offset = end;
  }
  return false;
}

function isJpeg(bytes: Buffer): boolean {
  if (bytes.length < 128 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return false;
  // The end-of-image marker, allowing a little padding after it.
  const tail = bytes.subarray(Math.max(0, bytes.length - 64));
  for (let index = tail.length - 2; index >= 0; index--) if (tail[index] === 0xff && tail[index + 1] === 0xd9) return true;
  return false;
}

function isWebp(bytes: Buffer): boolean {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return false;
  const size = bytes.readUInt32LE(4);
  // The RIFF size covers everything after its own field; an odd-sized chunk may carry one padding byte.
  return (size + 8 === bytes.length || size + 9 === bytes.length) && /^VP8[ LX]$/.test(bytes.toString('latin1', 12, 16));
}
