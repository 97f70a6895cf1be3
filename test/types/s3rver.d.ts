// s3rver ships no types; the part of its programmatic API the tests use (node_modules/s3rver/README.md).
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }

  class S3rver {
    /** Koa's EventEmitter: 'event' carries an S3 event notification ({ Records: [...] }). */
    on(event: 'event', listener: (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => void): this;
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export = S3rver;
}
