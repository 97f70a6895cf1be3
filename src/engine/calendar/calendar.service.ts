import { Injectable } from '@nestjs/common';
import { loadCalendar } from './calendar.loader';
import type { Calendar } from './calendar.types';

/** The regulatory calendar (data/calendar), loaded and validated once per process on first use. */
@Injectable()
export class CalendarService {
  private calendar?: Calendar;

  get(): Calendar {
    this.calendar ??= loadCalendar();
    return this.calendar;
  }
}
