/// <reference lib="esnext.disposable" preserve="true" />
// embedded.ts - the entry '@laige/sim/embedded': the whole API of
// '@laige/sim', with loadLaige() taking the .wasm from a module the build
// generated (wasm/laige_wasm.base64.mjs, the .wasm as base64) instead of a
// file next to the loader. For setups that cannot serve or copy files:
// esbuild, single-file bundles, workers without a base URL. Costs ~270 KB of
// JavaScript (~105 KB gzip) in the bundle.
import base64 from '../wasm/laige_wasm.base64.mjs';
import { type Laige, loadLaigeFrom } from './laige.js';
import type { LoadOptions } from './boundary/wasm_source.js';

export * from './index.js';

function decodeBase64(text: string): Uint8Array {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/**
 * Loads the wasm module inlined in this entry (nothing is fetched or read);
 * `wasmUrl` or `wasmBinary` still take precedence. Errors as loadLaige of
 * '@laige/sim'.
 */
export async function loadLaige(options: LoadOptions = {}): Promise<Laige> {
  return loadLaigeFrom(options, async () => ({ bytes: decodeBase64(base64), source: '@laige/sim/embedded' }));
}
