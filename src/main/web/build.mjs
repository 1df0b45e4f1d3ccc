// Bundles the pages' code: <outdir>/lab.js and lab.css for a lesson page (its lab panel, Check buttons, quizzes,
// idle-stop note, Copy buttons), <outdir>/catalog.js for the catalog, and <outdir>/host-terminal.js and .css for a
// workshop host's terminal view (the Maven build passes
// target/classes/META-INF/resources/app, served at /app/).
import * as esbuild from 'esbuild';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: npm run build -- <output directory>');
  process.exit(2);
}

await esbuild.build({
  entryPoints: { lab: 'src/lab.js', catalog: 'src/page/catalog.js', 'host-terminal': 'src/host-terminal.js' },
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  minify: true,
  sourcemap: 'linked',
  outdir,
  logLevel: 'warning',
});
console.log(`tclab web bundle written to ${outdir}`);
