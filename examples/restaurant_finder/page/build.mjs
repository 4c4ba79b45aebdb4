// `npm run build`: bundles each renderer version into dist/ with esbuild.
import { build } from 'esbuild';

const here = new URL('.', import.meta.url).pathname;
for (const name of ['a2ui-v0_9', 'a2ui-v0_8']) {
  const result = await build({
    absWorkingDir: here,
    entryPoints: [`src/${name}.js`],
    outfile: `dist/${name}.js`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const bytes = Object.values(result.metafile.outputs)
    .filter((o) => o.entryPoint)
    .reduce((sum, o) => sum + o.bytes, 0);
  console.log(`dist/${name}.js: ${(bytes / 1024).toFixed(0)} KiB`);
}
