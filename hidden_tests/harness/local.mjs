// Runs a suite on this host with bare Node, without Docker: for harness development
// and as the baseline the container benchmark is compared with.
//
//   node local.mjs visible <repoDir>
//   node local.mjs hidden [--no-reduction | --sleep-sets] [--only <tests.json>] <repoDir> <suite.mjs> [<fault-model.json>]
//
// Prints the results JSON on stdout. --no-reduction explores every order, the
// equivalent ones included (explorer.mjs): for comparing with the reduction on;
// --sleep-sets uses sleep sets without source sets, for the benchmark.
// --only runs just the scenarios that hold a test the file lists (a JSON array of
// names, as only-tests.json in a container's payload).

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runHidden } from './hidden.mjs';
import { runVisible } from './visible.mjs';

const args = process.argv.slice(2);
const reduction = args.includes('--no-reduction') ? false : args.includes('--sleep-sets') ? 'sleep-sets' : true;
const onlyAt = args.indexOf('--only');
const onlyFile = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : null;
const [suiteKind, repo, suiteFile, faultModelFile] = args.filter((a) => a !== '--no-reduction' && a !== '--sleep-sets');
if (!['visible', 'hidden'].includes(suiteKind) || !repo || (suiteKind === 'hidden' && !suiteFile) || (onlyAt >= 0 && !onlyFile)) {
  process.stderr.write('usage: node local.mjs visible <repoDir> | hidden [--no-reduction | --sleep-sets] [--only <tests.json>] <repoDir> <suite.mjs> [<fault-model.json>]\n');
  process.exit(2);
}
const repoDir = path.resolve(repo);
const outputLimitBytes = 1 << 20;
const results = suiteKind === 'visible'
  ? await runVisible({ repoDir, outputLimitBytes })
  : await runHidden({
    suite: (await import(pathToFileURL(path.resolve(suiteFile)).href)).default,
    faultModel: faultModelFile ? JSON.parse(fs.readFileSync(faultModelFile, 'utf8')) : null,
    repoDir, sandbox: true, outputLimitBytes, reduction, only: onlyFile ? JSON.parse(fs.readFileSync(onlyFile, 'utf8')) : null,
  });
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
