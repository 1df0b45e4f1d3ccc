// Bundles the pages' code: <outdir>/lab.js and lab.css for a lesson page (its lab panel, Check buttons, quizzes,
// idle-stop note, Copy buttons), <outdir>/catalog.js for the catalog, <outdir>/host-terminal.js and .css for a
// workshop host's terminal view, and <outdir>/workshop-*.js for the workshop pages and banner, each with a brotli
// copy beside it (<name>.br) (the Maven build passes target/classes/META-INF/resources/app, served at /app/).
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: npm run build -- <output directory>');
  process.exit(2);
}

await esbuild.build({
  entryPoints: {
    lab: 'src/lab.js',
    catalog: 'src/page/catalog.js',
    'host-terminal': 'src/host-terminal.js',
    // The workshop pages: one small entry each, sharing the API wrapper and el() with the learner's pages.
    'workshop-banner': 'src/workshop/event-banner.js',
    'workshop-dashboard': 'src/workshop/dashboard.js',
    'workshop-projector': 'src/workshop/projector.js',
    'workshop-events': 'src/workshop/events.js',
    'workshop-join': 'src/workshop/join.js',
    'workshop-setup': 'src/workshop/setup.js',
    'workshop-sign-in': 'src/workshop/sign-in.js',
  },
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  minify: true,
  sourcemap: 'linked',
  outdir,
  logLevel: 'warning',
});
// Brotli copies made once here, at the best quality (too slow to do per request): the server sends lab.js.br for
// lab.js to browsers that accept br (web/PrecompressedAssets), gzip otherwise. Node's zlib has brotli built in.
for (const name of readdirSync(outdir)) {
  if (!/\.(js|css)$/.test(name)) continue;
  const file = join(outdir, name);
  writeFileSync(`${file}.br`, brotliCompressSync(readFileSync(file), {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  }));
}
console.log(`tclab web bundle written to ${outdir}`);
