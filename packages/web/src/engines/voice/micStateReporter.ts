/**
 * Reports push-to-talk changes over HTTP (updateUserMicState/), one at a time and coalesced: while a report
 * is in flight, later changes wait, and only the state current when it lands is sent next. When a report
 * lands after the state changed again, `onStale` lets the socket repeat the current state, so that a late
 * HTTP "on" never leaves the others seeing someone talk who has let go.
 */
export class MicStateReporter {
  private reporting = false;
  /** The state the server last heard over HTTP. */
  private reported = false;

  constructor(
    private readonly send: (on: boolean) => Promise<unknown>,
    private readonly current: () => boolean,
    private readonly onStale: () => void,
  ) {}

  private stopped = false;

  stop(): void {
    this.stopped = true;
  }

  async report(): Promise<void> {
    if (this.reporting) return;
    this.reporting = true;
    try {
      while (!this.stopped && this.reported !== this.current()) {
        const state = this.current();
        try {
          await this.send(state);
        } catch (error) {
          console.warn('Talkgroup: mic state not reported', error);
        }
        this.reported = state;
        // The HTTP report may have overtaken a later socket change: the socket has the last word.
        if (state !== this.current()) this.onStale();
      }
    } finally {
      this.reporting = false;
    }
  }
}
