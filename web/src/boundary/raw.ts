// raw.ts - instantiating the wasm module and the view of its memory that
// every other file reads through. Internal.
import createLaigeModule from '../../wasm/laige_wasm.mjs';
import type { LaigeRawModule, LaigeModuleOptions } from '../../wasm/laige_wasm.mjs';
import { ErrorCodes, LaigeError } from '../base/errors.js';
import { type WasmBytes, compileWasm, incompatibleWasm } from './wasm_source.js';
import { type WasmIo, plainFunctions } from './exports.gen.js';

/** @internal */
export type { LaigeRawModule } from '../../wasm/laige_wasm.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * @internal Instantiates the raw module from checked bytes (wasm_source.ts).
 * The runtime never fetches anything itself: instantiateWasm hands it the
 * compiled module, and locateFile keeps its own URL logic (which would read
 * import.meta.url) out of the way. A runtime abort while starting becomes a
 * LaigeError too.
 */
export async function instantiate(wasm: WasmBytes, initialMemory?: number): Promise<LaigeRawModule> {
  const compiled = await compileWasm(wasm);
  let fail: (e: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => { fail = reject; });
  const moduleOptions: LaigeModuleOptions = {
    locateFile: (path: string) => path,
    instantiateWasm(imports, receive) {
      // receive() throws when the exports are not this build's (a .wasm of another version).
      WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled))
        .catch((e: unknown) => fail(incompatibleWasm(wasm.source, e)));
      return {};
    },
    onAbort: (what: unknown) => fail(new LaigeError(ErrorCodes.unknown,
      `loadLaige: the wasm runtime stopped while starting (${String(what)})`, 'wasm_aborted', { source: wasm.source })),
  };
  // The runtime creates the memory (the module imports it) at this size (LoadOptions.initialMemoryBytes).
  if (initialMemory !== undefined) moduleOptions.INITIAL_MEMORY = initialMemory;
  return Promise.race([createLaigeModule(moduleOptions), failed]);
}

/**
 * @internal The wasm export behind `Module[name]`. emscripten 3.1.6 defines
 * each export as a stub that looks the minified export up in Module.asm and
 * forwards with `.apply` on every call made through a saved reference; the
 * stub's source names that export, so take the function itself from
 * Module.asm (a direct JS-to-wasm call). Falls back to the stub when the
 * glue looks different (a newer emscripten): slower, same results.
 */
export function directExport(module: LaigeRawModule, name: string): (...args: number[]) => number {
  const m = module as unknown as Record<string, unknown> & { asm?: Record<string, unknown> };
  const stub = m[name];
  if (typeof stub !== 'function') throw new Error(`@laige/sim: the wasm module lacks ${name} (rebuild wasm/)`);
  const key = /Module\["asm"\]\["([\w$]+)"\]/.exec(Function.prototype.toString.call(stub))?.[1];
  const f = key !== undefined ? m.asm?.[key] : undefined;
  return (typeof f === 'function' ? f : stub) as (...args: number[]) => number;
}

/**
 * @internal `o`, switched back to fast properties. An object given ~100
 * properties by computed-key stores drops to dictionary mode in V8 (past
 * 12 out-of-object fields), and then every `raw.worldAdd(...)` is a hash
 * lookup and a call V8 cannot inline (measured: a JS-to-wasm call of
 * isValid 11-17 ns instead of 5). Making an object a prototype migrates it
 * to fast mode with constant-tracked properties; no code generation needed.
 */
export function withFastProperties<T extends object>(o: T): T {
  function Holder(): void {}
  Holder.prototype = o;
  return o;
}

/**
 * @internal The module plus views of its memory. Memory growth replaces the
 * ArrayBuffer and detaches every view, so the views are re-derived through
 * sync() after every call that may allocate; nothing hands out long-lived
 * views (docs/typescript.md).
 */
export class Mem {
  /** The module's functions copied onto a plain object: the emscripten Module is a dictionary-mode object with hundreds of properties, and every lookup on it costs. */
  readonly raw: LaigeRawModule;
  /** The emscripten Module itself (HEAP views, hooks). */
  readonly module: LaigeRawModule;
  u8!: Uint8Array;
  i8!: Int8Array;
  u16!: Uint16Array;
  i16!: Int16Array;
  u32!: Uint32Array;
  i32!: Int32Array;
  f32!: Float32Array;
  f64!: Float64Array;
  #epoch = 0;
  /**
   * Bumped when the views are re-derived (memory grew) and when World.add
   * writes a component value: the each loops (row_loop.ts) compare it around
   * the callback to know that their snapshots are stale. Every bump is
   * mirrored into the words at `epochWords`, which the generated loops read
   * through a heap view they already hold: one typed-array load per row
   * instead of a load from this object and a view's length (a view detached
   * by a growth reads undefined there, so that one test catches both).
   */
  get epoch(): number {
    return this.#epoch;
  }
  set epoch(v: number) {
    this.#epoch = v;
    const w = this.epochWords;
    if (w === 0) return; // (the constructor's first reload)
    this.f64[w >>> 3] = v;
    this.u32[(w + 8) >>> 2] = v >>> 0; // read as u32 and as i32
    // Read as f32: always a normal finite float (no NaN, no denormal), distinct for 2^31 bumps in a row.
    this.u32[(w + 12) >>> 2] = 0x00800000 + (v % 0x7e000000);
  }
  /** 16 bytes, 8-aligned: the epoch as f64 (byte 0), u32 (byte 8), a normal f32 (byte 12); see `epoch`. */
  readonly epochWords: number = 0;
  /** 256 bytes, 8-aligned: out-parameters of single calls. */
  readonly out: number;
  /** 64 KiB: component values, id lists, input payloads of single calls. */
  readonly scratch: number;
  readonly scratchSize = 65536;
  /** Cursor table of iterations: 256 archetypes x (3 + 32) u32. */
  readonly cursors: number;
  readonly cursorsSize = 256 * 35 * 4;

  /** The two buffers string arguments are written into: address, capacity, length of the last string. */
  readonly #strings = [{ address: 0, capacity: 0, length: 0 }, { address: 0, capacity: 0, length: 0 }];

  /**
   * String arguments in, text / bytes / JSON results out (web/bindings/json_out.h):
   * a result slot is {address, length} of bytes that stay valid only until
   * the next call into the module, so each is copied out at once.
   */
  readonly #io: WasmIo = {
    put: (s: string, buffer: number): number => {
      const bytes = encoder.encode(s);
      const b = this.#strings[buffer]!;
      if (bytes.length > b.capacity) {
        if (b.address !== 0) this.raw._free(b.address);
        b.capacity = Math.max(bytes.length, 256);
        b.address = this.raw._malloc(b.capacity);
        this.sync();
      }
      this.u8.set(bytes, b.address);
      b.length = bytes.length;
      return b.address;
    },
    length: (buffer: number): number => this.#strings[buffer]!.length,
    text: (slot: number): string => decoder.decode(this.#slot(slot)),
    bytes: (slot: number): Uint8Array => this.#slot(slot).slice(),
    json: (slot: number): unknown => JSON.parse(decoder.decode(this.#slot(slot))),
  };

  /** The bytes a result slot names (a view: copy before the next call). */
  #slot(slot: number): Uint8Array {
    this.sync();
    const address = this.u32[slot >>> 2]!;
    return this.u8.subarray(address, address + this.u32[(slot >>> 2) + 1]!);
  }

  constructor(module: LaigeRawModule) {
    this.module = module;
    const fast: Record<string, unknown> = {};
    for (const key of Object.keys(module)) {
      const v = (module as unknown as Record<string, unknown>)[key];
      if (typeof v === 'function') fast[key] = v;
    }
    // Every function is a wasm export, called straight (web/boundary.json;
    // exports.gen.ts converts arguments and results through `io`).
    Object.assign(fast, plainFunctions((name, optional) => {
      if (optional && typeof (module as unknown as Record<string, unknown>)[name] !== 'function') return undefined;
      return directExport(module, name);
    }, this.#io));
    this.raw = withFastProperties(fast) as unknown as LaigeRawModule;
    this.reload();
    this.out = this.raw._malloc(256);
    this.scratch = this.raw._malloc(this.scratchSize);
    this.cursors = this.raw._malloc(this.cursorsSize);
    this.epochWords = this.raw._malloc(16);
    this.reload();
  }

  /** Re-derives the views when memory grew (cheap when it did not). */
  sync(): void {
    // Growth detaches the old ArrayBuffer: its views read as length 0.
    if (this.u8.length === 0) this.reload();
  }

  reload(): void {
    const r = this.module;
    this.u8 = r.HEAPU8;
    this.i8 = r.HEAP8;
    this.u16 = r.HEAPU16;
    this.i16 = r.HEAP16;
    this.u32 = r.HEAPU32;
    this.i32 = r.HEAP32;
    this.f32 = r.HEAPF32;
    this.f64 = r.HEAPF64;
    this.epoch++; // after the views: the words are written through them
  }

  /** The u64 at `ptr` ((lo, hi) u32 pair) as a bigint. */
  u64At(ptr: number): bigint {
    return (BigInt(this.u32[(ptr >>> 2) + 1]!) << 32n) | BigInt(this.u32[ptr >>> 2]!);
  }

  /** Copies `bytes` into wasm memory at a fresh allocation (caller frees). */
  copyIn(bytes: Uint8Array): number {
    const p = this.raw._malloc(Math.max(bytes.length, 1));
    this.sync();
    this.u8.set(bytes, p);
    return p;
  }
}
