import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

/**
 * RFC 3339 `date-time` (offset required, `T`/`Z` in either case, at most 9 fraction digits, no leap second) or a
 * plain `full-date`, which means midnight UTC. Bounded quantifiers only, so matching is linear in the input.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2})))?$/;

const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/**
 * The instant a date parameter names, or undefined when it is not one of the documented forms, names no real
 * calendar day or time (`2026-02-30`, `24:00:00`, `+24:00`), or falls outside the years 0001 to 9999 in UTC.
 * `new Date()` alone would accept ISO week and ordinal dates as Invalid Date and local times without an offset.
 */
export function parseDateTimeParam(value: string): Date | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [match[1], match[2], match[3]].map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  const [hour, minute, second] = [match[4], match[5], match[6]].map((part) => Number(part ?? 0));
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (match[9] !== undefined) {
    const [offsetHours, offsetMins] = [Number(match[10]), Number(match[11])];
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  // Date.UTC would read years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  const time = date.getTime() - offsetMinutes * 60_000;
  return time < EARLIEST || time > LATEST ? undefined : new Date(time);
}

export const dateTimeParamMessage = (name: string) =>
  `${name} must be an RFC 3339 date-time with an offset (2026-01-31T09:30:00Z, 2026-01-31T09:30:00%2B02:00) or a date (2026-01-31, midnight UTC), years 0001 to 9999`;

/**
 * Query parameter holding an instant. A valid value is rewritten to its canonical UTC form
 * (`2026-01-31T07:30:00.000Z`), so services can hand it to `new Date()`; anything else is 422 `invalid`.
 */
export function IsDateTimeParam(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? (parseDateTimeParam(value)?.toISOString() ?? value) : value)),
    ValidateBy({
      name: 'isDateTimeParam',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseDateTimeParam(value) !== undefined,
        defaultMessage: (args) => dateTimeParamMessage(args?.property ?? 'value'),
      },
    }),
  );
}
