/**
 * How a finished recording reaches the server (issue 61 item 5): tried at once, then again after each pause while
 * the failure may pass (the network, a server restarting); a refusal the server would give again stops at once.
 * The recording stays with the caller, so that "Retry" can send it again after the last pause.
 */
export const UPLOAD_RETRY_PAUSES_MS = [2000, 5000, 15_000];

export async function uploadWithRetry<T>(
  send: () => Promise<T>,
  options: {
    pausesMs?: number[];
    isFinal: (error: unknown) => boolean;
    wait?: (ms: number) => Promise<void>;
  },
): Promise<T> {
  const pauses = options.pausesMs ?? UPLOAD_RETRY_PAUSES_MS;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      const pause = pauses[attempt];
      if (pause === undefined || options.isFinal(error)) throw error;
      await wait(pause);
    }
  }
}
