/**
 * One turn of the event loop (issue 57): a long piece of work cut into short ones awaits this between them, so that
 * what waits meanwhile (a press for the floor, a socket's event, a timer) runs before the next piece. A microtask
 * would not do: `setImmediate` comes after the loop's I/O and timers.
 */
export const loopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
