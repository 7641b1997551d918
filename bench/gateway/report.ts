/** What bench:gateway measured (run.ts), printed as a table or, with --json, as one JSON object. */
import { percentile, round } from '../media/report.ts';
import type { LoadRow } from './load.ts';

export interface GatewayResults {
  asJson: boolean;
  /** The load average (1 min) at the start, after the presses and after the calls. */
  loads: number[];
  scheduling: string | undefined;
  presses: number;
  missed: number;
  figures: {
    pageToPage: number[];
    pagePacket: number[];
    starToPage: number[];
    grantToPage: number[];
    pageToGateway: number[];
  };
  load:
    | { rows: LoadRow[]; established: number; failures: string[]; retried: string[]; setupSeconds: number }
    | undefined;
}

const LABELS: Record<keyof GatewayResults['figures'], string> = {
  pageToPage: 'page to page (the baseline)',
  pagePacket: "page to page, the listener's 1st packet",
  starToPage: 'gateway to page, from its *',
  grantToPage: 'gateway to page, from the grant',
  pageToGateway: 'page to gateway (at the relay)',
};

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

/** Each state's cost beyond idle, per call. */
function perCall(rows: LoadRow[], row: LoadRow) {
  const idle = rows[0];
  const calls = row.calls || Number.NaN;
  return {
    janusMillicores: ((row.janusCores - idle.janusCores) / calls) * 1000,
    janusKb: ((row.janusRssMb - idle.janusRssMb) / calls) * 1024,
    serverMillicores: ((row.serverCores - idle.serverCores) / calls) * 1000,
    serverKb: ((row.serverRssMb - idle.serverRssMb) / calls) * 1024,
  };
}

export function printReport(results: GatewayResults): void {
  const { figures, load } = results;
  const baseline = percentile(figures.pageToPage, 50);
  const latency = Object.entries(figures).map(([name, values]) => ({
    name,
    n: values.length,
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    ratio: percentile(values, 50) / baseline,
  }));
  if (results.asJson) {
    console.log(
      JSON.stringify(
        {
          load: results.loads.map((value) => round(value)),
          janusScheduling: results.scheduling,
          missed: results.missed,
          pressToSound: Object.fromEntries(
            latency.map((row) => [
              row.name,
              { n: row.n, p50: round(row.p50), p90: round(row.p90), ratio: round(row.ratio, 2) },
            ]),
          ),
          calls: load && {
            established: load.established,
            setupSeconds: round(load.setupSeconds),
            failures: load.failures,
            retried: load.retried,
            states: load.rows.map((row) => ({
              state: row.state,
              calls: row.calls,
              talking: row.talking,
              janusCores: round(row.janusCores, 3),
              janusRssMb: round(row.janusRssMb),
              serverCores: round(row.serverCores, 3),
              serverRssMb: round(row.serverRssMb),
              phonesCores: round(row.phonesCores, 3),
              perCall: Object.fromEntries(Object.entries(perCall(load.rows, row)).map(([k, v]) => [k, round(v, 1)])),
            })),
          },
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    '\nSIP gateways through Janus (Debian 1.1.2), baresip as the gateway (PCMU), loopback, one 2-core machine',
  );
  console.log(`load average (1 min): ${results.loads.map((value) => value.toFixed(1)).join(' → ')}`);
  console.log(`Janus's scheduling: ${results.scheduling}`);
  console.log(
    `\nPress-to-sound, ${results.presses} presses of each kind taken in turn${results.missed ? `, ${results.missed} not heard` : ''}`,
  );
  for (const row of latency)
    console.log(
      `${LABELS[row.name as keyof typeof LABELS].padEnd(40)} n=${String(row.n).padStart(3)}` +
        `  p50 ${fixed(row.p50).padStart(6)} ms  p90 ${fixed(row.p90).padStart(6)} ms  ratio to page to page ${fixed(row.ratio, 2)}`,
    );
  if (!load) return;
  console.log(
    `\n${load.established} gateway calls at once (baresip, PCMU, a 1 kHz tone each), set up in ${fixed(load.setupSeconds)} s` +
      (load.retried.length
        ? `; ${load.retried.length} started on a second try (${[...new Set(load.retried)].join('; ')})`
        : '') +
      (load.failures.length ? `; ${load.failures.length} failed: ${[...new Set(load.failures)].join('; ')}` : ''),
  );
  console.log(
    `${'state'.padEnd(32)}${'calls'.padStart(6)}${'talking'.padStart(8)}${'Janus cores'.padStart(13)}${'RSS'.padStart(10)}` +
      `${'per call'.padStart(11)}${'server cores'.padStart(14)}${'RSS'.padStart(10)}${'per call'.padStart(11)}${'phones'.padStart(9)}`,
  );
  for (const row of load.rows) {
    const each = perCall(load.rows, row);
    console.log(
      `${row.state.padEnd(32)}${String(row.calls).padStart(6)}${String(row.talking).padStart(8)}` +
        `${fixed(row.janusCores, 3).padStart(13)}${`${fixed(row.janusRssMb)} MB`.padStart(10)}` +
        `${`${fixed(each.janusMillicores, 2)} mc`.padStart(11)}${fixed(row.serverCores, 3).padStart(14)}` +
        `${`${fixed(row.serverRssMb)} MB`.padStart(10)}${`${fixed(each.serverMillicores, 2)} mc`.padStart(11)}` +
        `${fixed(row.phonesCores, 2).padStart(9)}`,
    );
  }
  const last = load.rows.at(-1);
  if (last) {
    const each = perCall(load.rows, last);
    console.log(
      `memory per call (with talkers, beyond idle): Janus ${fixed(each.janusKb, 0)} KB, server ${fixed(each.serverKb, 0)} KB`,
    );
  }
  console.log(
    'cores: CPU seconds per second (user + system, /proc/<pid>/stat) over the window; mc: millicores per call ' +
      'beyond idle; the server: a process of its own, as `npm start` runs it; phones: the baresip processes ' +
      'together (the load generator, not the server).',
  );
}
