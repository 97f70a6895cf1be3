import { loadCalendar } from '../../engine/calendar/calendar.loader';
import { calendarWarmUpSnapshot, warmUpWorkerRenderers } from './renderer-warm-up';

describe('renderer warm-up at worker start', () => {
  const calendar = loadCalendar();

  it('renders every calendar instrument due in the next three years, uncapped, so real reports find their words shaped', () => {
    const snapshot = calendarWarmUpSnapshot(calendar, '2026-11-24');
    expect(snapshot.data.items.length).toBeGreaterThan(40);
    expect(snapshot.data._meta).toMatchObject({ capped: false });
  });

  it('renders every in-process type without a snapshot of the caller', async () => {
    await expect(warmUpWorkerRenderers(calendar, '2026-11-24')).resolves.toBeUndefined();
  }, 60_000);
});
