// quickstart.mjs PAGE TARBALL WORKDIR - follows a quickstart page literally,
// as a newcomer would, in the empty folder WORKDIR: every marked block of the
// page, in page order, is run or written as it stands.
//
//   <!-- run: DIR [expect: NAME] -->    a sh block, run by bash in WORKDIR/DIR
//                                       (`.`: WORKDIR itself); with expect,
//                                       its output must contain the lines of
//                                       the `<!-- output: NAME -->` block
//   <!-- serve: DIR expect: NAME -->    a sh block that starts a web server:
//                                       run in the background until it prints
//                                       its http://localhost:PORT/ URL, which
//                                       is opened in headless chromium; the
//                                       console must show NAME's lines, and
//                                       any console error, page error, failed
//                                       request, HTTP error or missing icon
//                                       (/favicon.ico when the page names
//                                       none) fails it
//   <!-- file: DIR/PATH -->             a block written to WORKDIR/DIR/PATH
//   <!-- snippet: NAME file: DIR/PATH -->  the same, for a snippet
//
// DIR `laige-sim` is the reader's clone of this repository. Its blocks build
// the package and the library, which the test command has already done, so
// each of their lines must be one this script knows, and it stands in for
// it: `npm ci && npm run build` and `cmake --preset native-release && cmake
// --build --preset native-release` check the builds exist, `npm pack`
// copies TARBALL (the test command's pack of this tree) into
// WORKDIR/laige-sim/, and `cmake --install build/native-release ...` runs
// as written in the repository. Any other line in the clone fails the test,
// so the page and this script cannot drift apart silently.
//
// Every command runs with HOME=WORKDIR/home (a fresh machine's home), the
// caller's npm cache (packages come from the registry once, then from the
// cache), and no npm_* variables of an enclosing `npm run`.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/harness.mjs';

const [pageArg, tarballArg, workArg] = process.argv.slice(2);
if (!pageArg || !tarballArg || !workArg) {
  console.error('usage: node tests/docs/quickstart.mjs PAGE TARBALL WORKDIR');
  process.exit(2);
}
const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const page = resolve(pageArg);
const where = (line) => `${relative(repo, page)}:${line}`;
const tarball = resolve(tarballArg);
const work = resolve(workArg);
mkdirSync(join(work, 'home'), { recursive: true });

// --- The page: its marked blocks, in order -----------------------------------
const marker = /^<!--\s*(run|serve|file|snippet|output):\s*(.*?)\s*-->\s*$/;
/** A page this script cannot follow: says why and stops. */
function refuse(message) {
  console.log(`  FAIL ${message}`);
  process.exit(1);
}
const steps = [];
const outputs = new Map();
{
  const lines = readFileSync(page, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = marker.exec(lines[i]);
    if (!m) continue;
    const open = /^(```+|~~~+)/.exec(lines[i + 1] ?? '');
    if (!open) refuse(`${where(i + 1)}: the ${m[1]} marker is not followed by a fenced block`);
    let j = i + 2;
    while (j < lines.length && !lines[j].startsWith(open[1])) j++;
    const body = lines.slice(i + 2, j).join('\n') + '\n';
    const [kind, args] = [m[1], m[2]];
    const line = i + 1;
    if (kind === 'output') outputs.set(args, body);
    else if (kind === 'file') steps.push({ kind: 'file', path: args, body, line });
    else if (kind === 'snippet') {
      const file = /\bfile:\s*(\S+)/.exec(args);
      if (file) steps.push({ kind: 'file', path: file[1], body, line });
    } else {
      const a = /^(\S+)(?:\s+expect:\s*(\S+))?$/.exec(args);
      if (!a) refuse(`${where(line)}: '${args}': want DIR [expect: NAME]`);
      if (kind === 'serve' && a[2] === undefined) refuse(`${where(line)}: a serve block needs expect: NAME`);
      steps.push({ kind, dir: a[1], expect: a[2], body, line });
    }
    i = j;
  }
}
// A page followed literally checks every output it shows, and every program
// it shows is a file the reader writes.
for (const s of steps) {
  if (s.expect !== undefined && !outputs.has(s.expect)) refuse(`${where(s.line)}: no <!-- output: ${s.expect} --> block`);
}
for (const name of outputs.keys()) {
  if (!steps.some((s) => s.expect === name)) refuse(`${relative(repo, page)}: output '${name}' is not checked by any <!-- run: DIR expect: ${name} --> or serve block`);
}
{
  const text = readFileSync(page, 'utf8');
  for (const m of text.matchAll(/^<!--\s*snippet:\s*(\S+)(.*?)-->/gm)) {
    if (!/\bfile:/.test(m[2])) refuse(`${relative(repo, page)}: snippet '${m[1]}' says no file: PATH, so the reader cannot know where it goes`);
  }
}

// --- The environment of a fresh machine ---------------------------------------
const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
Object.assign(env, {
  HOME: join(work, 'home'), npm_config_cache: npmCache, npm_config_prefer_offline: 'true',
  npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false',
});

const expectedLines = (name) => outputs.get(name).split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
/** The first expected line missing from `actual` (in order), or null. */
function missingLine(name, actual) {
  const lines = actual.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const line of expectedLines(name)) {
    const found = lines.indexOf(line, at);
    if (found < 0) return line;
    at = found + 1;
  }
  return null;
}

// --- The clone's lines: what the test command already did ---------------------
const built = (files, how) => () => {
  const missing = files.filter((f) => !existsSync(join(repo, f)));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run ${how} first`);
  return 'built by the test command';
};
const standIns = [
  [/^npm ci && npm run build$/, built(['dist/index.js', 'wasm/laige_wasm.mjs', 'wasm/laige_wasm.wasm'], 'npm run build')],
  [/^npm pack$/, () => {
    copyFileSync(tarball, join(work, 'laige-sim', basename(tarball)));
    return `the test command's pack, ${basename(tarball)}`;
  }],
  [/^cmake --preset native-release && cmake --build --preset native-release$/,
    built(['build/native-release/cmake_install.cmake'], 'bash scripts/build.sh native-release')],
  [/^cmake --install build\/native-release( |$)/, (cmd) => {
    const r = spawnSync('bash', ['-eo', 'pipefail', '-c', cmd], { cwd: repo, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`exit status ${r.status}\n${r.stdout}${r.stderr}`);
    return 'run as written, in the repository';
  }],
];

function runInClone(step) {
  mkdirSync(join(work, 'laige-sim'), { recursive: true });
  step.body.split('\n').forEach((raw, k) => {
    const cmd = raw.replace(/\s+#.*$/, '').trim();
    if (cmd === '' || cmd.startsWith('#')) return;
    const standIn = standIns.find(([re]) => re.test(cmd));
    if (!standIn) {
      throw new Error(`${where(step.line + 2 + k)}: '${cmd}' runs in the clone, and tests/docs/quickstart.mjs has no stand-in for it`);
    }
    console.log(`  clone: ${cmd}  (${standIn[1](cmd)})`);
  });
}

function run(step) {
  const cwd = join(work, step.dir);
  const r = spawnSync('bash', ['-eo', 'pipefail', '-c', step.body], { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const out = `${r.stdout}${r.stderr}`;
  if (r.status !== 0) throw new Error(`exit status ${r.status}:\n${out}`);
  if (step.expect !== undefined) {
    const missing = missingLine(step.expect, r.stdout);
    if (missing !== null) throw new Error(`missing output line ${JSON.stringify(missing)}; it printed:\n${out}`);
  }
}

// --- A server the page starts, and the page it serves --------------------------
const stripAnsi = (t) => t.replace(/\x1b\[[0-9;]*m/g, '');
let chromium = null;  // one browser for every served page, a fresh tab each

async function serve(step) {
  const child = spawn('bash', ['-eo', 'pipefail', '-c', step.body], { cwd: join(work, step.dir), env, detached: true });
  const exited = new Promise((ok) => child.on('exit', ok));
  try {
    return await openServed(step, child);
  } finally {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
    await exited;
  }
}

async function openServed(step, child) {
  let log = '';
  const url = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no http://localhost URL printed within 180 s:\n${log}`)), 180_000);
    const take = (chunk) => {
      log += chunk;
      const m = /https?:\/\/(?:localhost|127\.0\.0\.1):\d+\/\S*/.exec(stripAnsi(log));
      if (m) { clearTimeout(timer); ok(m[0]); }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`the server exited (status ${code}) before printing its URL:\n${log}`)); });
  });
  const problems = [];
  const printed = [];
  chromium ??= await launchBrowser('chromium');
  const p = await chromium.browser.newPage();
  try {
    p.on('console', (m) => {
      printed.push(m.text());
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
    p.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    await p.goto(url, { waitUntil: 'load' });
    const deadline = Date.now() + 60_000;
    while (problems.length === 0 && missingLine(step.expect, printed.join('\n')) !== null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));  // poll the console lines
    }
    // Headless chromium does not ask for the tab's icon; a browser with a
    // window does, and logs a 404 when the page names no icon and the server
    // has no /favicon.ico. Ask for it the way the browser would.
    const icon = await p.evaluate(async () => {
      const link = document.querySelector('link[rel~="icon"]');
      const href = link ? link.href : new URL('/favicon.ico', location.href).href;
      try {
        const r = await fetch(href);
        return { href, status: r.status, type: r.headers.get('content-type') ?? '' };
      } catch (e) { return { href, status: 0, type: String(e) }; }
    });
    if (icon.status < 200 || icon.status >= 400 || icon.type.startsWith('text/html')) {
      problems.push(`the page's icon ${icon.href.slice(0, 80)} answers ${icon.status} ${icon.type}`);
    }
  } finally {
    await p.close();
  }
  const missing = missingLine(step.expect, printed.join('\n'));
  if (missing !== null) problems.push(`the console never showed ${JSON.stringify(missing)}`);
  if (problems.length > 0) throw new Error(`${url}:\n  ${problems.join('\n  ')}\nconsole:\n  ${printed.join('\n  ')}\nserver:\n${log}`);
  return url;
}

// --- Follow the page ------------------------------------------------------------
let failed = 0;
const started = Date.now();
for (const step of steps) {
  const commands = () => step.body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l !== '').join(' ; ');
  const what = step.kind === 'file' ? `file ${step.path}` : `${step.kind} in ${step.dir}: ${commands()}`;
  const stepStart = Date.now();
  try {
    if (step.kind === 'file') {
      mkdirSync(dirname(join(work, step.path)), { recursive: true });
      writeFileSync(join(work, step.path), step.body);
    } else if (step.dir === 'laige-sim') {
      if (step.kind !== 'run') throw new Error('nothing is served from the clone');
      runInClone(step);
    } else if (step.kind === 'run') {
      run(step);
    } else {
      await serve(step);
    }
    const secs = step.kind === 'file' ? '' : ` [${Math.round((Date.now() - stepStart) / 1000)} s]`;
    console.log(`  ok   ${where(step.line)} ${what}${step.expect ? ` (prints ${step.expect})` : ''}${secs}`);
  } catch (e) {
    console.log(`  FAIL ${where(step.line)} ${what}\n${e.message}`);
    failed++;
    break;  // a newcomer stops at the first step that fails, and so do we
  }
}
await chromium?.close();
console.log(`quickstart: ${steps.length - failed} of ${steps.length} steps in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(failed === 0 ? 0 : 1);
