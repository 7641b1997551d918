import { type ServerMessageCode, UPLOAD_VIDEO_PATH } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { uploadWithRetry } from './uploadWithRetry.ts';
import { isFinalRefusal } from './videoRecording.ts';

class Refused extends Error {}

/** A send that fails the first `failures` times, counting its attempts. */
function failing(failures: number, error: () => Error = () => new Error('network')) {
  const state = { attempts: 0 };
  const send = async () => {
    state.attempts += 1;
    if (state.attempts <= failures) throw error();
    return `saved after ${state.attempts}`;
  };
  return { state, send };
}

const waits: number[] = [];
const wait = async (ms: number) => {
  waits.push(ms);
};
const isFinal = (error: unknown) => error instanceof Refused;

describe('uploadWithRetry', () => {
  it('sends the recording again after a failure and resolves with the saved answer', async () => {
    waits.length = 0;
    const { state, send } = failing(1);
    await expect(uploadWithRetry(send, { pausesMs: [10, 20], isFinal, wait })).resolves.toBe('saved after 2');
    expect(state.attempts).toBe(2);
    expect(waits).toEqual([10]);
  });

  it('gives up after its last pause with the last error, for the page to offer Retry', async () => {
    waits.length = 0;
    const { state, send } = failing(5);
    await expect(uploadWithRetry(send, { pausesMs: [10, 20], isFinal, wait })).rejects.toThrow('network');
    expect(state.attempts).toBe(3);
    expect(waits).toEqual([10, 20]);
  });

  it('stops at once on a refusal the server would give again', async () => {
    waits.length = 0;
    const { state, send } = failing(5, () => new Refused('already uploaded'));
    await expect(uploadWithRetry(send, { pausesMs: [10, 20], isFinal, wait })).rejects.toThrow('already uploaded');
    expect(state.attempts).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('isFinalRefusal', () => {
  const refusal = (status: number, code?: string) =>
    new ApiError(UPLOAD_VIDEO_PATH, status, 'refused', code as ServerMessageCode | undefined);

  it('tries again after the network, a server fault, a time-out, too many requests and a stream still live', () => {
    for (const error of [
      refusal(0),
      refusal(500),
      refusal(503),
      refusal(408),
      refusal(429),
      refusal(409, 'video_still_live'),
    ])
      expect(isFinalRefusal(error), `${error.status} ${error.code}`).toBe(false);
  });

  it("stops on what the server would refuse again: too large, already uploaded, not the sender's stream", () => {
    for (const error of [refusal(413), refusal(409), refusal(404, 'video_not_found'), refusal(400)])
      expect(isFinalRefusal(error), `${error.status} ${error.code}`).toBe(true);
  });
});
