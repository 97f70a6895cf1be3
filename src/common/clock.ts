import { Injectable } from '@nestjs/common';

/** Time source of the time-dependent rules (rate-limit windows, retention), replaceable in tests. */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }
}
