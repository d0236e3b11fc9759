// Starts a real `patience serve` on a free port with a temporary database,
// and stops it again. With PATIENCE_URL set, uses that server instead (handy
// while developing the page; the tests never set it).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '../../..');
export const BINARY = path.join(REPO, 'target/debug/patience');
const START_TIMEOUT_MS = 30_000;

/** `args` are more flags for `patience serve` (e.g. `--today 2026-12-02`). */
export async function startServer(args = []) {
  if (process.env.PATIENCE_URL) return { url: process.env.PATIENCE_URL, stop: async () => {} };
  if (!fs.existsSync(BINARY)) throw new Error(`${BINARY} is missing: run cargo build -p patience-cli`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patience-e2e-'));
  const db = path.join(dir, 'test.db');
  const child = spawn(BINARY, ['serve', '--port', '0', '--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in time; stderr: ${stderr}`)), START_TIMEOUT_MS);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}: ${stderr}`)); });
  });
  child.stdout.resume();
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const hard = setTimeout(() => child.kill('SIGKILL'), 3000);
      await gone;
      clearTimeout(hard);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url, stop, db };
}
