// load.ts - loadLaige() of the entry '@laige/sim': the .wasm is the file
// next to the loader. The `new URL('../wasm/laige_wasm.wasm', import.meta.url)`
// below is written literally on purpose: Vite, webpack 5 and Rollup (with an
// import-meta-assets plugin) see it, copy the .wasm into the build and rewrite
// the URL; Node reads the file it names. esbuild copies nothing: there, use
// '@laige/sim/embedded' or serve the file and pass wasmUrl (docs/bundlers.md).
import { type Laige, loadLaigeFrom } from './laige.js';
import { type LoadOptions, readWasm } from './boundary/wasm_source.js';

/**
 * Loads the wasm module: by default the `laige_wasm.wasm` of this package
 * (read from disk in Node, fetched in browsers, copied by bundlers that
 * understand `new URL(..., import.meta.url)`). `wasmUrl` names another
 * place, `wasmBinary` hands over the bytes.
 *
 * Errors (LaigeError): `wasm_not_found` (nothing at the URL or path; the
 * message names it), `wasm_invalid` (the bytes are no wasm binary, e.g. an
 * HTML 404 page), `wasm_incompatible` (a .wasm of another version),
 * `wrong_type`, `wasm_url_invalid`.
 */
export async function loadLaige(options: LoadOptions = {}): Promise<Laige> {
  return loadLaigeFrom(options, () => readWasm(new URL('../wasm/laige_wasm.wasm', import.meta.url)));
}
