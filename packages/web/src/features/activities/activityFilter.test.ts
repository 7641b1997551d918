import { describe, expect, it } from 'vitest';
import { callFilter, filterFromParams, NO_FILTER, writeFilter } from './activityFilter.ts';

describe('activity filter', () => {
  it('reads the address, ignoring values that are not a filter', () => {
    expect(filterFromParams(new URLSearchParams('member=4&channel=x&type=login&from=2025-03-01&to=soon'))).toEqual({
      member: 4,
      channel: undefined,
      type: 'login',
      from: '2025-03-01',
      to: undefined,
    });
    expect(filterFromParams(new URLSearchParams('type=nonsense')).type).toBeUndefined();
  });

  it('writes a changed filter and goes back to page 1', () => {
    const next = writeFilter(new URLSearchParams('page=3&member=4'), { member: undefined, type: 'logout' });
    expect(next.toString()).toBe('type=logout');
    expect(writeFilter(new URLSearchParams('type=login&from=2025-03-01&tab=x'), NO_FILTER).toString()).toBe('tab=x');
  });

  it('keeps what the change does not name, even a filter the page has not drawn yet', () => {
    const afterType = writeFilter(new URLSearchParams('page=2&channel=7'), { type: 'channel_join' });
    const afterFrom = writeFilter(afterType, { from: '2025-03-01' });
    expect(writeFilter(afterFrom, { to: '2025-03-05' }).toString()).toBe(
      'channel=7&type=channel_join&from=2025-03-01&to=2025-03-05',
    );
  });

  it('asks the server from the start of the first day to the start of the day after the last', () => {
    const body = callFilter({ member: 4, from: '2025-03-01', to: '2025-03-03' });
    expect(body.userId).toBe(4);
    expect(new Date(body.from!).getDate()).toBe(1);
    expect(new Date(body.to!).getDate()).toBe(4);
    expect(new Date(body.to!).getHours()).toBe(0);
  });
});
