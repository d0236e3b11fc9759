// How soon a table page shows its first card far away: Chromium's network
// throttling at a 150 ms round trip, on a first visit (empty cache) and a
// repeat visit (the same browser profile, another deal).
//
//   node bench/table/visits.mjs [--runs N] [--rtt MS] [--write]
//
// Starts `target/debug/patience serve` over a fresh database, and for each
// run opens a fresh browser context, throttles it (CDP
// Network.emulateNetworkConditions: `--rtt` latency, 10 Mbit/s down, 5 up),
// opens /play/la-belle-lucie/3 and then /play/la-belle-lucie/4 in it. The
// figure is the page's own clock (performance.now(), from the navigation's
// start) when the first card is in the page, and the requests the visit
// sent over the network (static files served from the cache not counted).
// Prints the median and the worst of N runs (default 5); with --write it
// replaces the table between `<!-- visits -->` and `<!-- /visits -->` in
// bench/table/README.md. No assertion: the figures are for reading.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { launch, open } from '../../tests/e2e/lib/browser.js';
import { REPO, startServer } from '../../tests/e2e/lib/server.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const RUNS = Number(opt('--runs', 5));
const RTT = Number(opt('--rtt', 150));

async function visit(page, cdp, deal) {
  const sentIds = new Set(), cachedIds = new Set();
  const count = (e) => { if (!e.request.url.startsWith('data:')) sentIds.add(e.requestId); };
  const cached = (e) => cachedIds.add(e.requestId);
  cdp.on('Network.requestWillBeSent', count);
  cdp.on('Network.requestServedFromCache', cached);
  await page.goto(`/play/la-belle-lucie/${deal}`, { waitUntil: 'commit' });
  await page.waitForSelector('.board .card');
  const ms = await page.evaluate(() => performance.now());
  await page.waitForLoadState('networkidle');
  cdp.off('Network.requestWillBeSent', count);
  cdp.off('Network.requestServedFromCache', cached);
  const sent = [...sentIds].filter((id) => !cachedIds.has(id)).length;
  return { ms, sent };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer();
const browser = await launch();
const first = [], repeat = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await open(browser, server.url, { width: 1366, height: 800 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: RTT, downloadThroughput: 10e6 / 8, uploadThroughput: 5e6 / 8,
    });
    first.push(await visit(page, cdp, 3));
    repeat.push(await visit(page, cdp, 4));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const row = (name, xs) => `| ${name} | ${RTT} ms | ${median(xs.map((x) => x.ms)).toFixed(0)} ms | ${Math.max(...xs.map((x) => x.ms)).toFixed(0)} ms | ${median(xs.map((x) => x.sent))} |`;
const table = [
  `${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the start, ${RUNS} runs, 10 Mbit/s down:`,
  '',
  '| visit | round trip | first card, median | first card, worst | requests sent |',
  '|---|---|---|---|---|',
  row('first (empty cache)', first),
  row('repeat (another deal)', repeat),
].join('\n');
console.log(table);
if (args.includes('--write')) {
  const file = path.join(REPO, 'bench/table/README.md');
  const text = fs.readFileSync(file, 'utf8');
  const [head, rest] = text.split('<!-- visits -->');
  const tail = rest.split('<!-- /visits -->')[1];
  fs.writeFileSync(file, `${head}<!-- visits -->\n${table}\n<!-- /visits -->${tail}`);
}
