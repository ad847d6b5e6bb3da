// Runs the report viewer's unit tests alone (the root `npm test` runs them too once tests/web/run.mjs
// also looks into sub-folders): bundled with esbuild, run by node's test runner.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = mkdtempSync(path.join(tmpdir(), 'atrium-reports-tests-'));
const tests = readdirSync(here).filter((f) => f.endsWith('.test.ts')).sort();
try {
  await build({
    entryPoints: tests.map((f) => path.join(here, f)),
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    jsx: 'automatic',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const files = tests.map((f) => path.join(out, f.replace(/\.ts$/, '.mjs')));
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
