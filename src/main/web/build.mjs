// Bundles the lab page code into <outdir>/lab.js and <outdir>/lab.css, and a workshop host's terminal view into
// <outdir>/host-terminal.js and .css (the Maven build passes
// target/classes/META-INF/resources/app, served at /app/).
import * as esbuild from 'esbuild';

const outdir = process.argv[2];
if (!outdir) {
  console.error('usage: npm run build -- <output directory>');
  process.exit(2);
}

await esbuild.build({
  entryPoints: { lab: 'src/lab.js', 'host-terminal': 'src/host-terminal.js' },
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  minify: true,
  sourcemap: 'linked',
  outdir,
  logLevel: 'warning',
});
console.log(`tclab web bundle written to ${outdir}`);
