// Fixture harness for runnerimage's tests: prints what the image holds.
import { greeting } from './lib/greeting.mjs';
import fs from 'node:fs';

console.log(JSON.stringify({
  greeting,
  suite: process.argv[2],
  uid: process.getuid(),
  cwd: process.cwd(),
  home: process.env.HOME,
  harness: fs.readdirSync('/opt/racecase').sort(),
  tmpMode: (fs.statSync('/tmp').mode & 0o7777).toString(8),
}));
