import { type Activity, GetAllUsers, GetUsersPage, type ResponseOf, type User } from '@talkgroup/protocol';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callKey } from '../../api/queries.ts';
import { ACTIVITY_PATCH_MS, gatherActivities, patchLatestActivities, withLatestActivities } from './directory.ts';

const user = (id: number, activities: Activity[] = []): User =>
  ({
    id,
    firstName: `First${id}`,
    lastName: `Last${id}`,
    identifier: `user${id}@example.org`,
    pseudo: '',
    mapRight: false,
    createdAt: '2025-03-01T10:00:00.000Z',
    channels: [],
    userActivities: activities,
  }) as unknown as User;

let nextId = 1;
const activity = (userId: number | null, type: Activity['type'] = 'login'): Activity => ({
  id: nextId++,
  type,
  createdAt: '2025-03-04T13:05:00.000Z',
  user: userId === null ? null : { id: userId, firstName: 'F', lastName: 'L', display_name: '' },
  channel: null,
});

const answer = (users: User[]): ResponseOf<typeof GetAllUsers> => ({ success: true, res: users });

describe("the users list's live activity", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("shows each user's latest activity and leaves the other rows as they were", () => {
    const quiet = user(2, [activity(2, 'logout')]);
    const data = answer([user(1), quiet]);
    const joined = activity(1, 'channel_join');
    const patched = withLatestActivities(data, new Map([[1, joined]]));
    expect(patched?.res[0].userActivities).toEqual([joined]);
    // An untouched row keeps its object, so the table does not re-render it.
    expect(patched?.res[1]).toBe(quiet);
    // The cached answer itself is not mutated.
    expect(data.res[0].userActivities).toEqual([]);
  });

  it('leaves an answer that is not there yet alone', () => {
    expect(withLatestActivities(undefined, new Map([[1, activity(1)]]))).toBeUndefined();
  });

  it('gathers the activities of a moment into one flush, keeping the last one of each user', () => {
    const flush = vi.fn();
    const gatherer = gatherActivities(flush);
    const first = activity(1, 'login');
    const second = activity(1, 'channel_talk');
    const other = activity(2, 'channel_join');
    gatherer.add(first);
    gatherer.add(other);
    gatherer.add(second);
    gatherer.add(activity(null));
    vi.advanceTimersByTime(ACTIVITY_PATCH_MS - 1);
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(flush).toHaveBeenCalledTimes(1);
    expect([...flush.mock.calls[0][0].entries()]).toEqual([
      [1, second],
      [2, other],
    ]);

    // The next activity starts a new moment with only itself.
    const later = activity(3, 'logout');
    gatherer.add(later);
    vi.advanceTimersByTime(ACTIVITY_PATCH_MS);
    expect(flush).toHaveBeenCalledTimes(2);
    expect([...flush.mock.calls[1][0].entries()]).toEqual([[3, later]]);
  });

  it('drops what is waiting once the list is gone', () => {
    const flush = vi.fn();
    const gatherer = gatherActivities(flush);
    gatherer.add(activity(1));
    gatherer.cancel();
    vi.advanceTimersByTime(ACTIVITY_PATCH_MS * 2);
    expect(flush).not.toHaveBeenCalled();
  });

  it('patches every cached users list of the query client', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(callKey(GetAllUsers, {}), answer([user(1), user(2)]));
    const talk = activity(2, 'channel_talk');
    const gatherer = gatherActivities((latest) => patchLatestActivities(queryClient, latest));
    gatherer.add(talk);
    vi.advanceTimersByTime(ACTIVITY_PATCH_MS);
    const cached = queryClient.getQueryData<ResponseOf<typeof GetAllUsers>>(callKey(GetAllUsers, {}));
    expect(cached?.res.map((row) => row.userActivities)).toEqual([[], [talk]]);
  });

  it('patches the pages of a users table paged on the server, their counts kept', () => {
    const queryClient = new QueryClient();
    const body = { start: 0, limit: 2, sort: 'createdAt', direction: 'desc' } as const;
    queryClient.setQueryData(callKey(GetUsersPage, body), {
      success: true,
      res: { users: [user(1), user(2)], totalRecords: 9000 },
    });
    const talk = activity(1, 'channel_talk');
    patchLatestActivities(queryClient, new Map([[1, talk]]));
    const cached = queryClient.getQueryData<ResponseOf<typeof GetUsersPage>>(callKey(GetUsersPage, body));
    expect(cached?.res.totalRecords).toBe(9000);
    expect(cached?.res.users.map((row) => row.userActivities)).toEqual([[talk], []]);
  });
});
