/**
 * What bench:media measured (run.ts), printed as a table or, with --json, as one JSON object: the rows of each
 * plane and size, the lossy downlinks, the late entries and Janus's mixer pairs.
 */

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  return sorted[Math.floor(rank)] + (sorted[Math.ceil(rank)] - sorted[Math.floor(rank)]) * (rank - Math.floor(rank));
}

export const round = (value: number, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

export interface Row {
  plane: string;
  listeners: number;
  connected: number;
  heard: string;
  janusCores: number;
  janusRssMb: number;
  uplinkKbps: number;
  p50: number;
  p95: number;
  bareP50: number;
  /** Press to the first crowd listener's level (a 1 ms poll), and the bare pair's alike. */
  crowdP50: number;
  barePolledP50: number;
  /** Where the time goes (p50): press to the talker's track enabled (the grant back), to the listener's RTP level. */
  enabledP50: number;
  rtpP50: number;
  packetP50: number;
}

export interface LossRow {
  lossPercent: number;
  /** What the relays really dropped. */
  droppedPercent: number;
  listeners: number;
  transmissions: number;
  /** Listener-transmissions heard, of all. */
  heard: number;
  of: number;
}

export interface LateRow {
  plane: string;
  /** From join_room to the first sound played, ms. */
  values: number[];
  /** Where the time goes, each from join_room (ms): see LateMarks. */
  steps: Record<LateStep, number[]>;
  missed: number;
}

/** A late entry's moments (epoch ms in the page): join_room sent, then each step, then the first sound. */
export const LATE_STEPS = ['asked', 'described', 'connected', 'packet'] as const;
export type LateStep = (typeof LATE_STEPS)[number];
export type LateMarks = { joinAt: number; soundAt: number } & Partial<Record<LateStep, number>>;

export interface MediaResults {
  asJson: boolean;
  pairsOnly: boolean;
  /** The load average (1 min) at each step of the run. */
  loads: number[];
  /** Janus's scheduling (real-time or ordinary). */
  scheduling: string | undefined;
  rows: Row[];
  lossRows: LossRow[];
  lateRows: LateRow[];
  janusPairs: Record<string, number[]> | undefined;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
/** Millicores of Janus per listener beyond the plane's first size. */
function perListener(rows: Row[], row: Row): number {
  const base = rows.find((other) => other.plane === row.plane && other.listeners === 0);
  return base && row.listeners > 0 ? ((row.janusCores - base.janusCores) / row.listeners) * 1000 : Number.NaN;
}

export function printReport(results: MediaResults): void {
  const { asJson, pairsOnly, loads, scheduling, rows, lossRows, lateRows, janusPairs } = results;
  if (asJson) {
    console.log(
      JSON.stringify(
        {
          load: loads.map((load) => round(load)),
          janusScheduling: scheduling,
          sizes: rows.map((row) => ({
            plane: row.plane,
            listeners: row.listeners,
            connected: row.connected,
            heard: row.heard,
            p50: round(row.p50),
            p95: round(row.p95),
            bareP50: round(row.bareP50),
            ratio: round(row.p50 / row.bareP50, 2),
            crowdP50: round(row.crowdP50),
            crowdRatio: round(row.crowdP50 / row.barePolledP50, 2),
            enabledP50: round(row.enabledP50),
            rtpP50: round(row.rtpP50),
            packetP50: round(row.packetP50),
            janusCores: round(row.janusCores, 3),
            janusMillicoresPerListener: round(perListener(rows, row), 2),
            janusRssMb: round(row.janusRssMb),
            uplinkKbps: round(row.uplinkKbps),
          })),
          loss: lossRows.map((row) => ({ ...row, droppedPercent: round(row.droppedPercent) })),
          lateEntry: lateRows.map((row) => ({
            plane: row.plane,
            p50: round(percentile(row.values, 50)),
            p95: round(percentile(row.values, 95)),
            n: row.values.length,
            missed: row.missed,
            stepsP50: Object.fromEntries(LATE_STEPS.map((step) => [step, round(percentile(row.steps[step], 50))])),
          })),
          ...(janusPairs
            ? {
                janusPairs: Object.fromEntries(
                  Object.entries(janusPairs).map(([name, values]) => [name, round(percentile(values, 50))]),
                ),
              }
            : {}),
        },
        null,
        2,
      ),
    );
  } else {
    if (janusPairs) {
      console.log('\nPress (unmute, then track enabled) to sound, through one mixer room, a 1 ms poll of the level');
      const floor = percentile(janusPairs['bare pair'], 50);
      for (const [name, values] of Object.entries(janusPairs))
        console.log(
          `${name.padEnd(42)} n=${String(values.length).padStart(3)}  p50 ${fixed(percentile(values, 50)).padStart(6)} ms` +
            `  p95 ${fixed(percentile(values, 95)).padStart(6)} ms  ratio to the bare pair ${fixed(percentile(values, 50) / floor, 2)}`,
        );
    }
    if (!pairsOnly) printRows(results);
  }
}

function printRows(results: MediaResults): void {
  const { rows, lossRows, lateRows, loads, scheduling } = results;
  console.log('\nOne talker, N listeners: through Janus (Debian 1.1.2) and on the mesh, one 2-core machine, loopback');
  console.log(`load average (1 min) during the run: ${loads.map((load) => load.toFixed(1)).join(' → ')}`);
  console.log(`Janus's scheduling: ${scheduling} (--janus-ordinary: as any process)`);
  console.log(
    `${'plane'.padEnd(26)}${'N'.padStart(5)}${'up'.padStart(6)}${'heard'.padStart(9)}${'Janus cores'.padStart(13)}` +
      `${'per listener'.padStart(14)}${'Janus RSS'.padStart(11)}${'per listener'.padStart(14)}${'uplink'.padStart(13)}` +
      `${'p50'.padStart(9)}${'p95'.padStart(9)}${'bare p50'.padStart(10)}${'ratio'.padStart(7)}` +
      `${'crowd p50'.padStart(11)}${'ratio'.padStart(7)}`,
  );
  for (const row of rows) {
    const base = rows.find((other) => other.plane === row.plane && other.listeners === 0);
    const extra = row.listeners > 0 && base ? row.listeners : Number.NaN;
    console.log(
      `${row.plane.padEnd(26)}${String(row.listeners).padStart(5)}${String(row.connected).padStart(6)}` +
        `${row.heard.padStart(9)}${fixed(row.janusCores, 3).padStart(13)}` +
        `${`${fixed(perListener(rows, row), 2)} mc`.padStart(14)}` +
        `${`${fixed(row.janusRssMb)} MB`.padStart(11)}` +
        `${`${fixed(base ? ((row.janusRssMb - base.janusRssMb) / extra) * 1024 : Number.NaN, 0)} KB`.padStart(14)}` +
        `${`${fixed(row.uplinkKbps)} kbit/s`.padStart(13)}${`${fixed(row.p50)} ms`.padStart(9)}` +
        `${`${fixed(row.p95)} ms`.padStart(9)}${`${fixed(row.bareP50)} ms`.padStart(10)}` +
        `${fixed(row.p50 / row.bareP50, 2).padStart(7)}` +
        `${`${fixed(row.crowdP50)} ms`.padStart(11)}${fixed(row.crowdP50 / row.barePolledP50, 2).padStart(7)}`,
    );
  }
  console.log(
    "\nWhere the time goes (p50 from the press): the talker's track enabled (its grant), the listener's first " +
      'packet (its receive time), its RTP level (the mesh: the audio-level extension), the sound',
  );
  for (const row of rows)
    console.log(
      `${row.plane.padEnd(26)}${String(row.listeners).padStart(5)}  enabled ${fixed(row.enabledP50).padStart(6)} ms` +
        `  first packet ${fixed(row.packetP50).padStart(6)} ms  RTP level ${fixed(row.rtpP50).padStart(6)} ms  sound ${fixed(row.p50).padStart(6)} ms`,
    );
  console.log(
    'Goals: the talker uplink does not grow with N; listeners per core; press-to-sound p50 within 1.2x the bare ' +
      'pair at 0 and 10 listeners, 1.3x at 100. "up": listeners connected (on the mesh, to each talking page: the ' +
      'talker and the other app page); mc: millicores of Janus per listener beyond N = 0; p50/p95: press to the ' +
      'sound at the app listener (a talking page); crowd p50: press to the first crowd listener hearing it (a 1 ms ' +
      'poll), ratio to the bare pair as polled (the crowd runs in an idle-class browser, on what CPU is left, ' +
      'unless --crowd-beside).',
  );
  if (lossRows.length > 0) {
    console.log(
      "\nLossy downlinks (a relay drops the media server's packets to each listener at random), Opus in-band FEC",
    );
    for (const row of lossRows)
      console.log(
        `loss ${String(row.lossPercent).padStart(3)} % (dropped ${fixed(row.droppedPercent)} %): ${row.heard} of ${row.of} ` +
          `listener-transmissions heard (${row.listeners} listeners, ${row.transmissions} transmissions)`,
      );
  }
  if (lateRows.length > 0) {
    console.log('\nLate entry: a page joins while someone talks; join_room to the first sound it plays (goal: 350 ms)');
    for (const row of lateRows)
      console.log(
        `${row.plane.padEnd(8)} p50 ${fixed(percentile(row.values, 50)).padStart(6)} ms  p95 ${fixed(percentile(row.values, 95)).padStart(6)} ms` +
          `  n=${row.values.length}${row.missed ? `, ${row.missed} not heard within 10 s` : ''}` +
          `  (p50 from join_room: asked ${fixed(percentile(row.steps.asked, 50))}, the other side's description ` +
          `${fixed(percentile(row.steps.described, 50))}, connected ` +
          `${fixed(percentile(row.steps.connected, 50))}, first packet ${fixed(percentile(row.steps.packet, 50))} ms)`,
      );
  }
}
