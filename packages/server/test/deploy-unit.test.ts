/**
 * deploy/systemd/talkgroup.service (issue 57): the service manager restarts a server that dies anyway, and not
 * one stopped cleanly. The unit is checked by systemd's own verifier where systemd is installed, and read here
 * for what the restart rests on: `Restart=on-failure` restarts after a crash (a signal, or a status other than
 * 0) and the server exits 0 on SIGTERM (process.test.ts), so a stop is not taken for a failure.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const UNIT = new URL('../../../deploy/systemd/talkgroup.service', import.meta.url);

/** The unit's settings by section: the last value of each key (as systemd reads a key set twice). */
function readUnit(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1];
      sections[section] = {};
      continue;
    }
    const at = line.indexOf('=');
    sections[section][line.slice(0, at)] = line.slice(at + 1);
  }
  return sections;
}

const systemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('the systemd unit', () => {
  const unit = readUnit(readFileSync(UNIT, 'utf8'));

  it('restarts the server after a crash, not after a clean stop, and stops it with SIGTERM', () => {
    expect(unit.Service).toMatchObject({
      Restart: 'on-failure',
      KillSignal: 'SIGTERM',
      ExecStart: '/usr/bin/env npm start',
      WorkingDirectory: '/opt/talkgroup',
      User: 'talkgroup',
    });
    expect(Number.parseInt(unit.Service.RestartSec, 10)).toBeGreaterThan(0);
    // Past the server's own 10 s for a clean stop (main.ts), then SIGKILL.
    expect(Number.parseInt(unit.Service.TimeoutStopSec, 10)).toBeGreaterThan(10);
    expect(unit.Unit.StartLimitBurst).toBeDefined();
    expect(unit.Install.WantedBy).toBe('multi-user.target');
  });

  it.skipIf(!systemdAnalyze)("passes systemd's own verifier", () => {
    expect(() => execFileSync('systemd-analyze', ['verify', UNIT.pathname], { stdio: 'pipe' })).not.toThrow();
  });
});
