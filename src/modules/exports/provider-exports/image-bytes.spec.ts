import { fakePng } from '../../../../test/fakes/fake-image-servers';
import { sniffImage } from './image-bytes';

describe('sniffImage', () => {
  it('recognises whole PNG, JPEG and WebP files', () => {
    expect(sniffImage(fakePng('x'))).toBe('image/png');
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
    expect(sniffImage(jpeg)).toBe('image/jpeg');
    const payload = Buffer.concat([Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(30, 7)]);
    const size = Buffer.alloc(4);
    size.writeUInt32LE(payload.length);
    expect(sniffImage(Buffer.concat([Buffer.from('RIFF', 'latin1'), size, payload]))).toBe('image/webp');
  });

  it('refuses truncated or corrupted PNGs and anything else', () => {
    const png = fakePng('x');
    expect(sniffImage(png.subarray(0, png.length - 12))).toBeNull();
    const corrupt = Buffer.from(png);
    corrupt[40] = corrupt[40]! ^ 0xff;
    expect(sniffImage(corrupt)).toBeNull();
    expect(sniffImage(Buffer.from('<html>not an image</html>'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });
});
