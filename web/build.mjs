// Builds the browser workspace into dist/: one JavaScript and one CSS bundle
// with content-hashed names under dist/assets/, and dist/index.html that
// loads them. The Go package in web.go embeds dist/.
//
//   node build.mjs           production bundle (minified, no source maps)
//   node build.mjs --dev     same, unminified, with linked source maps
//   node build.mjs --tests   bundles test/*.test.ts into dist-test/ for `node --test`
import * as esbuild from 'esbuild';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const args = new Set(process.argv.slice(2));

if (args.has('--tests')) {
  await buildTests();
} else {
  await buildApp(args.has('--dev'));
}

/** Bundles the app and writes index.html naming the hashed outputs. */
async function buildApp(dev) {
  await cleanDist();
  const result = await esbuild.build({
    absWorkingDir: here,
    entryPoints: { app: 'src/main.ts', style: 'src/styles/app.css' },
    bundle: true,
    format: 'esm',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    legalComments: 'none',
    outdir: dist,
    entryNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => path.relative(dist, path.join(here, p)));
  const js = outputs.find((p) => p.startsWith('assets/app-') && p.endsWith('.js'));
  const css = outputs.find((p) => p.startsWith('assets/style-') && p.endsWith('.css'));
  if (!js || !css) throw new Error(`build: missing outputs in ${outputs.join(', ')}`);
  await writeFile(path.join(dist, 'index.html'), indexHTML(js, css));
  const sizes = Object.entries(result.metafile.outputs)
    .filter(([p]) => !p.endsWith('.map'))
    .map(([p, o]) => `${path.basename(p)} ${(o.bytes / 1024).toFixed(0)} KiB`);
  console.log(`web: built ${sizes.join(', ')}`);
}

/** Removes the previous build, keeping the committed placeholder. */
async function cleanDist() {
  await mkdir(dist, { recursive: true });
  for (const name of await readdir(dist)) {
    if (name !== '.gitkeep') await rm(path.join(dist, name), { recursive: true, force: true });
  }
}

/** The page shell: the app renders everything inside #app. */
function indexHTML(js, css) {
  const icon =
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E" +
    "%3Crect width='32' height='32' rx='7' fill='%231f2a44'/%3E" +
    "%3Cpath d='M8 11h16M8 21h16' stroke='%2360a5fa' stroke-width='3' stroke-linecap='round'/%3E" +
    "%3Ccircle cx='16' cy='11' r='3.5' fill='%23f97316'/%3E%3Ccircle cx='16' cy='21' r='3.5' fill='%23f97316'/%3E%3C/svg%3E";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>racecase</title>
<meta name="description" content="racecase: debug real concurrency incidents in a browser workspace.">
<link rel="icon" href="${icon}">
<link rel="stylesheet" href="/${css}">
<script type="module" src="/${js}"></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<div id="app"><p class="boot">Loading racecase…</p></div>
<noscript><p class="boot">racecase needs JavaScript to run the workspace.</p></noscript>
</body>
</html>
`;
}

/** Bundles each test/*.test.ts into dist-test/ as an ES module for node --test. */
async function buildTests() {
  const out = path.join(here, 'dist-test');
  await rm(out, { recursive: true, force: true });
  const tests = (await readdir(path.join(here, 'test'))).filter((f) => f.endsWith('.test.ts'));
  await esbuild.build({
    absWorkingDir: here,
    entryPoints: tests.map((f) => `test/${f}`),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: out,
    outExtension: { '.js': '.mjs' },
    packages: 'external',
    logLevel: 'warning',
  });
}
