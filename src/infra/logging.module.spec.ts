import { logFormat } from './logging.module';

describe('logFormat', () => {
  it.each([
    [true, undefined, 'pretty'],
    [true, 'development', 'pretty'],
    [true, 'test', 'pretty'],
    [true, 'production', 'json'],
    [false, undefined, 'json'],
    [false, 'development', 'json'],
    [false, 'production', 'json'],
    [undefined, 'development', 'json'],
  ] as const)('stdout a terminal: %s, NODE_ENV %s -> %s', (stdoutIsTty, nodeEnv, expected) => {
    expect(logFormat(stdoutIsTty, nodeEnv)).toBe(expected);
  });
});
