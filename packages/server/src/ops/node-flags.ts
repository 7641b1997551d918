/**
 * The V8 flags the server runs with: `npm start` passes them (package.json), and the benchmarks and tests
 * that start a server process use this list, so that what they measure is what is deployed.
 *
 * Measured with bench:join-storm (issue 18: 1,000 sockets in a room, RSS once the room is quiet):
 * --max-semi-space-size=2: V8 sizes the young generation to the machine, up to two 64 MB semi-spaces on a
 *   large one; a server that allocates in bursts (a thousand phones joining at a shift change) grows it there
 *   and keeps it. Even the start (modules compiled, schemas built) grows it to its cap and it stays there. At 4
 *   rather than 8 (issue 36): about 5 MB less at rest (113 MB instead of 118 in bench:memory) and 16 MB less
 *   with 1,000 phones in a room (158 MB instead of 174), settling in the same time for about 5 % more CPU. At 2
 *   rather than 4 (2026-11-26, runs back to back): 105 to 108 MB at rest instead of 110 to 113, 156 MB with
 *   1,000 phones instead of 160 to 165, settling in the same time (1.75x the bare server against 1.63x and
 *   1.82x) for 4 to 9 % more CPU in that storm.
 * --heap-growing-percent=20: after each full collection the old generation may grow by 20% before the next,
 *   instead of a factor that V8 raises up to 4x while the server is busy; without it, a smaller young
 *   generation promotes more short-lived objects and the old generation balloons.
 * Together (with a cap of 8): about 175 MB RSS instead of 300 to 390 MB, for the same time to settle and about
 * the same CPU (the young generation alone at 16 MB: about 200 to 235 MB).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=20'];
