#!/usr/bin/env node
/**
 * The checkout's `npm run build`: builds the web host and every web plugin's remote (the root package.json's
 * workspaces that have a `build` script), as many at a time as there are cores, each workspace skipped when
 * nothing it is built from changed since its last build. Run from the root (npm runs scripts there):
 *
 *   node sdk/web/webpack/buildWorkspaces.mjs                # every workspace with a `build` script
 *   node sdk/web/webpack/buildWorkspaces.mjs web-host       # only the named ones (a folder, or its last part)
 *   node sdk/web/webpack/buildWorkspaces.mjs --force        # build even what is unchanged (or ATRIUM_WEB_FORCE=1)
 *   node sdk/web/webpack/buildWorkspaces.mjs --jobs 1       # how many builds at once (or ATRIUM_WEB_JOBS)
 *
 * It lives beside the webpack helper so that everything the web's build needs is under sdk/web, web-host and
 * web-plugins (what the Dockerfile's web stage copies).
 *
 * Each build is the workspace's own `npm run build` (webpack in a process of its own, so the builds use the
 * cores side by side; its file-system cache stays in the workspace's node_modules/.cache/webpack). What a
 * build reads is fingerprinted: the workspace's files (not node_modules or dist), the JS SDK with its webpack
 * helper (sdk/web: package.json, src and webpack, this file left out), the root package-lock.json (every
 * package's version), the mode and Node's major version. After a build the fingerprint and the sha256 of
 * every file in its dist are written to node_modules/.cache/atrium-build.json beside the workspace's webpack
 * cache; the next run skips the workspace when the fingerprint is the same and its dist still holds exactly
 * those files. The output is what `npm run build` in the workspace writes, byte for byte: this script only
 * decides what to run and when.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = process.cwd();
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url)).split(path.sep).join('/');
const STAMP_VERSION = 1;
const MODE = 'production';
// node_modules anywhere; dist (the output) except under a src folder
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);
// what the JS SDK contributes to every build: its sources (bundled, or read by the host) and the webpack helper
const SDK_INPUTS = ['sdk/web/package.json', 'sdk/web/src', 'sdk/web/webpack'];
// a memory budget per webpack process (the host's build takes most of it)
const BYTES_PER_BUILD = 2 * 1024 ** 3;

function parseArgs(argv) {
  const opts = {
    force: process.env.ATRIUM_WEB_FORCE === '1',
    jobs: Number(process.env.ATRIUM_WEB_JOBS) || 0,
    only: [],
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--force') opts.force = true;
    else if (arg === '--jobs' || arg === '-j') opts.jobs = Number(argv[(i += 1)]);
    else if (arg.startsWith('--jobs=')) opts.jobs = Number(arg.slice('--jobs='.length));
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else opts.only.push(arg.replace(/\/+$/, ''));
  }
  if (!opts.jobs || opts.jobs < 1) {
    const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    opts.jobs = Math.max(1, Math.min(cores, Math.floor(os.totalmem() / BYTES_PER_BUILD)));
  }
  return opts;
}

/** The root package.json's workspaces (a trailing `/*` expanded) that have a `build` script. */
function workspaces() {
  const found = [];
  for (const pattern of JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces || []) {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(path.join(ROOT, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${pattern.slice(0, -2)}/${d.name}`)
          .sort()
      : [pattern];
    for (const dir of dirs) {
      const manifest = path.join(ROOT, dir, 'package.json');
      if (!existsSync(manifest)) continue;
      if (JSON.parse(readFileSync(manifest, 'utf8')).scripts?.build) found.push(dir);
    }
  }
  return found;
}

/** Every file under `top` (a file or a folder), as paths relative to ROOT, sorted; node_modules and dist left out. */
function filesUnder(top, out = []) {
  const full = path.join(ROOT, top);
  if (!existsSync(full)) return out;
  if (!statSync(full).isDirectory()) {
    out.push(top);
    return out;
  }
  for (const entry of readdirSync(full, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.isDirectory()) {
      const skipped = SKIP_DIRS.has(entry.name) && !(entry.name === 'dist' && top.includes('/src'));
      if (!skipped) filesUnder(`${top}/${entry.name}`, out);
    } else if (entry.isFile()) {
      out.push(`${top}/${entry.name}`);
    }
  }
  return out;
}

function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** The fingerprint of what the workspace's build reads. */
function fingerprint(ws, shared) {
  const hash = createHash('sha256');
  hash.update(`${STAMP_VERSION}\0${MODE}\0${process.versions.node.split('.')[0]}\0${shared}\0`);
  for (const file of filesUnder(ws)) hash.update(`${file}\0${sha256(readFileSync(path.join(ROOT, file)))}\0`);
  return hash.digest('hex');
}

function sharedFingerprint() {
  const hash = createHash('sha256');
  const files = SDK_INPUTS.flatMap((top) => filesUnder(top)).filter((file) => file !== SELF);
  for (const file of [...files, 'package-lock.json']) {
    const full = path.join(ROOT, file);
    hash.update(`${file}\0${existsSync(full) ? sha256(readFileSync(full)) : '-'}\0`);
  }
  return hash.digest('hex');
}

/** { relative path: sha256 } of every file in the workspace's dist, or null without a dist. */
function distFiles(ws) {
  const dist = path.join(ROOT, ws, 'dist');
  if (!existsSync(dist)) return null;
  const files = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dist, full).split(path.sep).join('/')] = sha256(readFileSync(full));
    }
  };
  walk(dist);
  return files;
}

const stampPath = (ws) => path.join(ROOT, ws, 'node_modules', '.cache', 'atrium-build.json');

function readStamp(ws) {
  try {
    return JSON.parse(readFileSync(stampPath(ws), 'utf8'));
  } catch {
    return null;
  }
}

function sameFiles(a, b) {
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Runs `npm run build` in the workspace, its output prefixed with the workspace's name. */
function build(ws) {
  return new Promise((resolve) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['run', 'build', '--workspace', ws], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const label = `[${ws}] `;
    const relay = (stream, to) => {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) to.write(`${label}${line}\n`);
      });
      stream.on('end', () => rest && to.write(`${label}${rest}\n`));
    };
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
    child.on('error', (err) => {
      process.stderr.write(`${label}${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(signal ? 1 : code));
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(ROOT, 'package.json'))) {
    throw new Error(`run from the workspaces' root: ${ROOT} has no package.json`);
  }
  let names = workspaces();
  if (opts.only.length) {
    const unknown = opts.only.filter((o) => !names.some((ws) => ws === o || ws.split('/').pop() === o));
    if (unknown.length) throw new Error(`no workspace with a build script: ${unknown.join(', ')}`);
    names = names.filter((ws) => opts.only.some((o) => ws === o || ws.split('/').pop() === o));
  }
  const started = Date.now();
  const shared = sharedFingerprint();
  const todo = [];
  const skipped = [];
  for (const ws of names) {
    const inputs = fingerprint(ws, shared);
    const stamp = readStamp(ws);
    if (!opts.force && stamp?.inputs === inputs && sameFiles(stamp.files, distFiles(ws))) skipped.push(ws);
    else todo.push({ ws, inputs, seconds: stamp?.seconds ?? 0 });
  }
  if (skipped.length) console.log(`web: unchanged since their last build, skipped: ${skipped.join(', ')}`);
  if (!todo.length) return;
  // the longest builds first (the last build's time; the host, then the largest sources, on a first build)
  const size = (ws) => filesUnder(`${ws}/src`).reduce((n, f) => n + statSync(path.join(ROOT, f)).size, 0);
  for (const job of todo) job.weight = job.seconds || (job.ws === 'web-host' ? 1e12 : size(job.ws) / 1e6);
  todo.sort((a, b) => b.weight - a.weight);
  const jobs = Math.min(opts.jobs, todo.length);
  console.log(`web: building ${todo.length} workspace(s), ${jobs} at a time`);

  const failed = [];
  const queue = [...todo];
  const worker = async () => {
    while (queue.length && !failed.length) {
      const job = queue.shift();
      rmSync(stampPath(job.ws), { force: true });
      const begun = Date.now();
      const code = await build(job.ws);
      const seconds = Math.round((Date.now() - begun) / 100) / 10;
      if (code !== 0) {
        failed.push(job.ws);
        console.error(`web: ${job.ws} failed (exit ${code})`);
        continue;
      }
      console.log(`web: ${job.ws} built in ${seconds} s`);
      mkdirSync(path.dirname(stampPath(job.ws)), { recursive: true });
      const stamp = { version: STAMP_VERSION, inputs: job.inputs, seconds, files: distFiles(job.ws) };
      writeFileSync(stampPath(job.ws), `${JSON.stringify(stamp, null, 1)}\n`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  if (failed.length) {
    console.error(`web: build failed: ${failed.join(', ')}`);
    process.exitCode = 1;
    return;
  }
  console.log(`web: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((err) => {
  console.error(`web: ${err.message}`);
  process.exitCode = 1;
});
