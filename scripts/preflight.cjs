// Before `npm start` and `npm test`: one clear sentence when something the command needs is missing, instead
// of the first missing API's error deep in a module ("does not provide an export named 'registerHooks'",
// "Map.groupBy is not a function"), or a browser, media server or TURN server missing half-way through the tests.
// CommonJS and nothing newer than Node.js 12 on purpose, so that an old Node.js can run it and say so.
const fs = require('node:fs');
const path = require('node:path');

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `Talkgroup needs Node.js 24 or newer, and this is Node.js ${process.version}: install it (README, "Node.js 24"), then run the command again.`,
  );
  process.exit(1);
}

const onPath = (command) =>
  (process.env.PATH || '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));

if (process.argv.includes('--test')) {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    console.error(
      `npm test runs browser tests in Chromium, which is not at ${chromium}: install it (apt-get install chromium) or set CHROMIUM_PATH to its executable.`,
    );
    process.exit(1);
  }
  const missing = ['janus', 'janus-pp-rec', 'turnserver'].filter((command) => !onPath(command));
  if (missing.length > 0) {
    console.error(
      `npm test starts its own media server and TURN server, and ${missing.join(', ')} cannot be found: install Debian's packages (apt-get install janus janus-tools coturn), then run it again.`,
    );
    process.exit(1);
  }
  if (!onPath('baresip')) {
    console.error(
      "npm test calls channels from a SIP phone, Debian's baresip, which cannot be found: install it (apt-get install baresip), then run it again.",
    );
    process.exit(1);
  }
  if (!onPath('gpsbabel')) {
    console.error(
      'npm test reads the trail exports back with GPSBabel, which cannot be found: install it (apt-get install gpsbabel), then run it again.',
    );
    process.exit(1);
  }
}
