// wasm_source.ts - finding, reading and checking the .wasm bytes before
// emscripten sees them, so that every failed load is a LaigeError that names
// the URL or the problem and the option that fixes it (docs/bundlers.md),
// never the runtime's abort text. Internal.
import { ErrorCodes, LaigeError, invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';

/** Options of loadLaige(). */
export interface LoadOptions {
  /**
   * The .wasm bytes (`laige_wasm.wasm` of this package version); when given,
   * nothing is fetched or read.
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where the .wasm is served or stored. Browsers: a URL, relative ones
   * against the page. Node: a `file:` or `http(s):` URL, or a file path
   * (relative ones against the working directory). Default: the
   * `laige_wasm.wasm` next to the package's loader (`wasm/`).
   */
  wasmUrl?: string | URL;
  /**
   * The wasm heap's size at load, in bytes: a multiple of 64 KiB from
   * 16 MiB (the default) to 2 GiB. The heap grows by itself when it is
   * full; size it for your largest scene so that it never has to. The first
   * growth detaches the heap's old ArrayBuffer, and from then on V8 (Chrome,
   * Edge, Node) checks every typed-array access of the whole page or
   * process for a detached buffer: a plain typed-array loop ran about 30%
   * slower after it here (docs/typescript.md#costs). `sim.memoryBytes`
   * says how big the heap is now.
   */
  initialMemoryBytes?: number;
}

/** @internal The heap's size at load: at least the module's built-in 16 MiB, at most the 2 GiB it may grow to. */
export const MIN_INITIAL_MEMORY = 16 * 1024 * 1024;
export const MAX_INITIAL_MEMORY = 2 * 1024 * 1024 * 1024;
const WASM_PAGE = 65536;

/** @internal Checks LoadOptions.initialMemoryBytes (before anything is read or fetched); undefined means the default. */
export function initialMemoryOf(options: LoadOptions): number | undefined {
  const v: unknown = options.initialMemoryBytes;
  if (v === undefined) return undefined;
  const where = 'loadLaige';
  const field = 'initialMemoryBytes';
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw invalid(`${where}: initialMemoryBytes must be an integer number of bytes, got ${describe(v)}`,
      typeof v === 'number' ? 'out_of_range' : 'wrong_type', { where, field, got: typeof v === 'number' ? v : typeName(v) });
  }
  if (v < MIN_INITIAL_MEMORY || v > MAX_INITIAL_MEMORY || v % WASM_PAGE !== 0) {
    throw invalid(
      `${where}: initialMemoryBytes must be a multiple of 64 KiB (65536) from 16 MiB (${MIN_INITIAL_MEMORY}) to 2 GiB (${MAX_INITIAL_MEMORY}), got ${v}`,
      'out_of_range', { where, field, got: v, min: MIN_INITIAL_MEMORY, max: MAX_INITIAL_MEMORY });
  }
  return v;
}

/** The fix a failed load suggests: the three ways to hand over the .wasm. */
const FIX = "pass loadLaige({ wasmUrl }) with the URL where laige_wasm.wasm is served, or loadLaige({ wasmBinary }) with its bytes, "
  + "or import loadLaige from '@laige/sim/embedded' (the .wasm inlined); see docs/bundlers.md";

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof p === 'object' && p !== null && typeof p.versions?.node === 'string';
}

function notFound(detail: string, fields: Record<string, string>): LaigeError {
  return new LaigeError(ErrorCodes.io_error, `loadLaige: ${detail}: ${FIX}`, 'wasm_not_found', fields);
}

/** @internal Where the bytes came from, for messages: `the file /x.wasm`, `wasmBinary`, ... */
export interface WasmBytes {
  bytes: Uint8Array;
  /** e.g. `wasmBinary`, `http://host/app/laige_wasm.wasm`, `/abs/path.wasm`. */
  source: string;
}

/** @internal Reads a file in Node (a computed specifier keeps bundlers from pulling node:fs into browser builds). */
async function readFileNode(path: string | URL, shown: string): Promise<Uint8Array> {
  const fsName = 'node:fs/promises';
  const fs = (await import(/* webpackIgnore: true */ /* @vite-ignore */ fsName)) as { readFile(p: string | URL): Promise<Uint8Array> };
  try {
    return await fs.readFile(path);
  } catch (e) {
    const code = (e as { code?: string }).code ?? String(e);
    throw notFound(`cannot read the wasm module at ${shown} (${code})`, { url: shown });
  }
}

async function fetchBytes(url: URL): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url.href, { credentials: 'same-origin' });
  } catch (e) {
    throw notFound(`cannot fetch the wasm module at ${url.href} (${e instanceof Error ? e.message : String(e)})`, { url: url.href });
  }
  if (!response.ok) {
    throw notFound(`the wasm module at ${url.href} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
      { url: url.href, status: String(response.status) });
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** @internal The URL (or Node file path) `wasmUrl` names. */
function resolveWasmUrl(wasmUrl: unknown): URL | string {
  if (wasmUrl instanceof URL) return wasmUrl;
  if (typeof wasmUrl !== 'string' || wasmUrl === '') {
    throw new LaigeError(ErrorCodes.invalid_argument,
      `loadLaige: wasmUrl must be a non-empty string or a URL, got ${describe(wasmUrl)}`, 'wasm_url_invalid');
  }
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  if (typeof page === 'string') return new URL(wasmUrl, page);
  try {
    return new URL(wasmUrl);
  } catch {
    return wasmUrl; // Node: a file path
  }
}

/** @internal Reads the bytes at a URL (or Node file path). */
export async function readWasm(where: URL | string): Promise<WasmBytes> {
  if (typeof where === 'string') return { bytes: await readFileNode(where, where), source: where };
  if (where.protocol === 'file:') {
    if (!isNode()) throw notFound(`cannot read ${where.href}: file: URLs are read only under Node`, { url: where.href });
    const shown = decodeURIComponent(where.pathname);
    return { bytes: await readFileNode(where, shown), source: shown };
  }
  if (where.protocol === 'data:' || where.protocol === 'blob:' || where.protocol === 'http:' || where.protocol === 'https:') {
    return { bytes: await fetchBytes(where), source: where.protocol === 'data:' ? 'a data: URL' : where.href };
  }
  throw notFound(`cannot load the wasm module from ${where.href} (unsupported protocol ${where.protocol})`, { url: where.href });
}

/** @internal The bytes `options` name, or those of `fallback()` when they name none. */
export async function wasmBytes(options: LoadOptions, fallback: () => Promise<WasmBytes>): Promise<WasmBytes> {
  if (options.wasmBinary !== undefined) {
    const b: unknown = options.wasmBinary;
    let bytes: Uint8Array;
    if (b instanceof Uint8Array) bytes = b;
    else if (b instanceof ArrayBuffer) bytes = new Uint8Array(b);
    else {
      throw new LaigeError(ErrorCodes.invalid_argument,
        `loadLaige: wasmBinary must be an ArrayBuffer or a Uint8Array with the bytes of laige_wasm.wasm, got ${describe(b)}`,
        'wasm_invalid', { source: 'wasmBinary' });
    }
    return { bytes, source: 'wasmBinary' };
  }
  if (options.wasmUrl !== undefined) return readWasm(resolveWasmUrl(options.wasmUrl));
  return fallback();
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d];

function invalidWasm(source: string, why: string): LaigeError {
  const fix = source === 'wasmBinary'
    ? "pass the bytes of this package's wasm/laige_wasm.wasm, or import loadLaige from '@laige/sim/embedded'"
    : FIX;
  return new LaigeError(ErrorCodes.malformed_input, `loadLaige: ${source === 'wasmBinary' ? 'wasmBinary' : `the file at ${source}`} ${why}: ${fix}`,
    'wasm_invalid', { source });
}

/** @internal Compiles the bytes; LaigeError `wasm_invalid` when they are no (valid) wasm binary. */
export async function compileWasm(w: WasmBytes): Promise<WebAssembly.Module> {
  const b = w.bytes;
  if (b.length < 8 || MAGIC.some((m, i) => b[i] !== m)) {
    const head = Array.from(b.subarray(0, 16), (c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.')).join('');
    throw invalidWasm(w.source, b.length === 0 ? 'is empty, not a wasm binary'
      : `is not a wasm binary (${b.length} bytes starting with "${head}"${head.startsWith('<') ? ': an HTML page, as a server answers for a missing file' : ''})`);
  }
  try {
    return await WebAssembly.compile(b as Uint8Array<ArrayBuffer>);
  } catch (e) {
    throw invalidWasm(w.source, `is not a valid wasm binary (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** @internal A LaigeError for a module that compiles but does not fit this loader (another build's .wasm). */
export function incompatibleWasm(source: string, e: unknown): LaigeError {
  return new LaigeError(ErrorCodes.malformed_input,
    `loadLaige: the wasm module from ${source} does not fit this version of @laige/sim (${e instanceof Error ? e.message : String(e)}): `
    + "use the laige_wasm.wasm shipped with the same package version", 'wasm_incompatible', { source });
}
