// bundlers.test.mjs APP_DIR OUT_DIR - builds the tiny app (app/) against the
// installed tarball in APP_DIR/node_modules with esbuild, webpack 5, Rollup
// and Vite, loads each build in headless chromium and checks the page
// computed the known hashes: the app's own world hash as plain Node 20
// computes it and, through '@laige/sim/scenarios' (webpack), `hello` tick 60
// as native laige-detcheck wrote it (tests/golden/hello.txt); the module of
// '@laige/sim' holds no scenario. No bundler gets configuration beyond entry and output, except
// Rollup, which cannot resolve node_modules or emit `new URL` assets without
// plugins (@rollup/plugin-node-resolve, @web/rollup-plugin-import-meta-assets).
// esbuild copies no `new URL` assets: it is built with @laige/sim/embedded,
// with its file loader for the .wasm (the documented wasmUrl recipe), and
// with the default entry and nothing else, where the page must show the
// LaigeError wasm_not_found that names the option to use.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, serveStatic } from '../e2e/harness.mjs';

const [appDir, outRoot] = process.argv.slice(2).map((p) => resolve(p));
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const golden = readFileSync(join(root, 'tests/golden/hello.txt'), 'utf8').split('\n')[60].split(' ')[1];

function page(dir, script, module) {
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"></head><body>`
    + `<script${module ? ' type="module"' : ''} src="./${script}"></script></body></html>\n`);
}

const esbuild = await import('esbuild');
const builds = {
  async 'esbuild (@laige/sim/embedded)'(out) {
    await esbuild.build({ absWorkingDir: appDir, entryPoints: ['embedded.js'], bundle: true, format: 'esm', outdir: out, logLevel: 'warning' });
    page(out, 'embedded.js', true);
  },
  async 'esbuild (file loader + wasmUrl)'(out) {
    await esbuild.build({ absWorkingDir: appDir, entryPoints: ['esbuild-file.js'], bundle: true, format: 'esm', outdir: out,
      loader: { '.wasm': 'file' }, logLevel: 'warning' });
    page(out, 'esbuild-file.js', true);
  },
  async 'esbuild (default entry, nothing copied: the error)'(out) {
    await esbuild.build({ absWorkingDir: appDir, entryPoints: ['default.js'], bundle: true, format: 'esm', outdir: out, logLevel: 'error' });
    page(out, 'default.js', true);
  },
  async 'webpack 5'(out) {
    await webpackBuild('./default.js', out, {});
  },
  async 'webpack 5 (@laige/sim/scenarios)'(out) {
    // docs/bundlers.md#webpacks-size-hint: the module with the scenarios is above the 244 KiB default hint.
    await webpackBuild('./scenarios.js', out, { performance: { maxAssetSize: 300 * 1024 } });
  },
  async 'rollup'(out) {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const { importMetaAssets } = await import('@web/rollup-plugin-import-meta-assets');
    const warnings = [];
    const bundle = await rollup({ input: join(appDir, 'default.js'), plugins: [nodeResolve(), importMetaAssets()], onwarn: (w) => warnings.push(w.message) });
    await bundle.write({ dir: out, format: 'es' });
    await bundle.close();
    if (warnings.length > 0) throw new Error(`rollup warnings:\n${warnings.join('\n')}`);
    page(out, 'default.js', true);
  },
  async 'vite'(out) {
    const { build } = await import('vite');
    // base './': the build is served from a subfolder (/vite/) of the test server.
    await build({ root: appDir, configFile: false, base: './', logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  },
};

async function webpackBuild(entry, out, extra) {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((ok, fail) => webpack({ mode: 'production', context: appDir, entry,
    output: { path: out, filename: 'main.js' }, ...extra }, (e, s) => (e ? fail(e) : ok(s))));
  if (stats.hasErrors() || stats.hasWarnings()) throw new Error(stats.toString({ all: false, errors: true, warnings: true }));
  page(out, 'main.js', false);
}

const node = JSON.parse(execFileSync(process.execPath, ['node.mjs'], { cwd: appDir, encoding: 'utf8' }));
let failed = 0;
const report = (ok, line) => { console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`); if (!ok) failed++; };
report(node.hello60 === null && node.scenarios === 0 && node.withScenarios.hello60 === golden && node.withScenarios.world === node.world,
  `node 20 (no bundler): world ${node.world}; '@laige/sim' ${node.scenarios} scenarios; '@laige/sim/scenarios' hello@60 ${node.withScenarios.hello60} (native ${golden}), world ${node.withScenarios.world}`);

// One server for every build (outRoot/<build>/): chromium keeps its
// connections alive, so a server per build would not close until the end.
mkdirSync(outRoot, { recursive: true });
const server = await serveStatic(outRoot);
const chromium = await launchBrowser('chromium');
try {
  for (const [name, make] of Object.entries(builds)) {
    const slug = name.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '');
    const out = join(outRoot, slug);
    mkdirSync(out, { recursive: true });
    try {
      await make(out);
    } catch (e) {
      report(false, `${name}: build failed: ${e.message}`);
      continue;
    }
    const tab = await chromium.browser.newPage();
    try {
      await tab.goto(`${server.url}${slug}/`, { waitUntil: 'load' });
      await tab.waitForFunction(() => window.__result || window.__error, { timeout: 60_000 });
      const { result, error } = await tab.evaluate(() => ({ result: window.__result ?? null, error: window.__error ?? null }));
      if (name.includes('the error')) {
        report(error?.name === 'LaigeError' && error.reason === 'wasm_not_found' && /wasmUrl/.test(error.message)
          && /@laige\/sim\/embedded/.test(error.message) && !/Aborted/.test(error.message),
          `${name}: ${error ? `${error.reason}: ${error.message.split('\n')[0]}` : `loaded (${JSON.stringify(result)})`}`);
      } else if (error) {
        report(false, `${name}: ${error.name} ${error.reason}: ${error.message}`);
      } else {
        const expected = name.includes('scenarios') ? golden : null;
        report(result.hello60 === expected && result.world === node.world, `${name}: hello@60 ${result.hello60} (expected ${expected}), world ${result.world}`);
      }
    } catch (e) {
      report(false, `${name}: ${e.message}`);
    } finally {
      await tab.close();
    }
  }
} finally {
  await chromium.close();
  await server.close();
}
console.log(failed === 0 ? 'bundlers: all builds load and compute the known hashes' : `bundlers: ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
