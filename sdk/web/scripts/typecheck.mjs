#!/usr/bin/env node
/**
 * The checkout's `npm run typecheck`: `tsc --noEmit` over every web workspace that has a tsconfig.json (the JS
 * SDK, the host and each plugin's remote, as the root package.json's workspaces list them), each with its own
 * tsconfig, so that a remote is checked as it is built. Two at a time at most; every workspace is checked and
 * its errors printed together, and the exit code is 1 when any has an error. tsc keeps what it learnt in
 * node_modules/.cache/atrium-typecheck (incremental), so a second run checks only what changed.
 *
 *   node sdk/web/scripts/typecheck.mjs                   # every workspace
 *   node sdk/web/scripts/typecheck.mjs web-host reports  # only the named ones (a folder, or its last part)
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const ROOT = process.cwd();
const TSC = createRequire(path.join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'atrium-typecheck');

function workspaces() {
  const { workspaces: patterns = [] } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(path.join(ROOT, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${parent}/${d.name}`)
      .sort();
  });
  return dirs.filter((dir) => existsSync(path.join(ROOT, dir, 'tsconfig.json')));
}

function check(dir) {
  return new Promise((resolve) => {
    const started = Date.now();
    const buildInfo = path.join(CACHE, `${dir.replace(/[\\/]/g, '+')}.tsbuildinfo`);
    const args = [TSC, '-p', `${dir}/tsconfig.json`, '--noEmit', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', buildInfo];
    const child = spawn(process.execPath, args, { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { out += chunk; });
    child.on('close', (code) => resolve({ dir, code, out, seconds: (Date.now() - started) / 1000 }));
  });
}

const only = process.argv.slice(2).map((a) => a.replace(/\/+$/, ''));
const dirs = workspaces().filter((dir) => !only.length || only.some((a) => dir === a || dir.endsWith(`/${a}`)));
if (!dirs.length) {
  console.error(`typecheck: no workspace with a tsconfig.json matches ${only.join(' ')}`);
  process.exit(2);
}
const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const jobs = Math.max(1, Math.min(2, cores));
const queue = [...dirs];
const results = [];
await Promise.all(Array.from({ length: jobs }, async () => {
  while (queue.length) {
    const result = await check(queue.shift());
    const errors = (result.out.match(/error TS\d+/g) || []).length;
    console.log(`typecheck: ${result.dir} ${result.code === 0 ? 'ok' : `${errors} error(s)`} in ${result.seconds.toFixed(1)} s`);
    results.push({ ...result, errors });
  }
}));
const failed = results.filter((r) => r.code !== 0).sort((a, b) => a.dir.localeCompare(b.dir));
for (const r of failed) process.stdout.write(`\n${r.dir}:\n${r.out.trim() || `tsc exited with ${r.code}`}\n`);
if (failed.length) {
  const total = failed.reduce((n, r) => n + r.errors, 0);
  console.log(`\ntypecheck: ${total} error(s) in ${failed.map((r) => r.dir).join(', ')}`);
  process.exitCode = 1;
} else {
  console.log(`typecheck: ${results.length} workspaces, no error`);
}
