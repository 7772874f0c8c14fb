// reentrancy.ts - what is on the stack, in one place. JavaScript runs inside
// a call on a world in several ways: an `each`/`eachChunk` callback, a
// system's `run`, a loop's `input`/`onTick`, the timing clock, a replay's
// `setup`, and a log handler (a record can be emitted by almost any call).
// While such a call is on the stack, two kinds of calls would break it:
//
// - a tick (runSystems, GameLoop.frame/step, ReplayRecorder.step,
//   ScenarioRun.step) of a world the call is running on: it would run
//   systems over storage the outer call is walking, or inside the outer tick;
// - the disposal of the world, loop, recorder or scenario run the call is
//   running on: it would free memory under the running call.
//
// Both are refused with a LaigeError invalid_argument (reasons
// `tick_inside_callback` and `dispose_inside_call`) before anything changes;
// nothing is deferred. docs/typescript.md#callbacks-and-re-entrancy.
//
// A log handler is the strictest case: the record was emitted in the
// middle of a core call, of any world of the module, that is still working
// on that world's storage. One rule holds there: every call that ticks,
// walks, changes or disposes a world is refused with
// `call_inside_log_handler` (refuseInsideLog), before it does anything;
// reads are allowed. Each such call tests `logHandlers.depth` first (one
// load on the hot path); the ticks do it in refuseTickInside.
// tests/ts/log_handler_calls.test.ts holds every public call to that rule.
import { invalid } from './errors.js';

/** What JavaScript can be running inside a call on a world. */
export type CallbackKind = 'each' | 'eachChunk' | 'system' | 'input' | 'onTick' | 'clock' | 'setup' | 'onLog' | 'combine' | 'onConfirmed' | 'defer' | 'observer' | 'onResimulated' | 'eachCascade';

/**
 * @internal The calls with user code on the stack of one world, innermost
 * last. Pushed and popped in try/finally by every place that calls user
 * code (no allocation once the array has grown to its depth).
 */
export class CallStack {
  readonly #kinds: CallbackKind[] = [];
  #depth = 0;

  /** True while any callback runs inside a call on this world. */
  get busy(): boolean {
    return this.#depth !== 0;
  }

  /** The innermost callback kind, or undefined. */
  get innermost(): CallbackKind | undefined {
    return this.#depth === 0 ? undefined : this.#kinds[this.#depth - 1];
  }

  /** Enters a callback of `kind`; pair with leave() in a finally. */
  enter(kind: CallbackKind): void {
    this.#kinds[this.#depth++] = kind;
  }

  /** Leaves the innermost callback. */
  leave(): void {
    if (this.#depth > 0) this.#depth--;
  }
}

/**
 * @internal Module-wide: log handlers running now. A record can be emitted
 * from inside almost any call of any world of the module, so while a
 * handler runs every world counts as being on the stack.
 */
export const logHandlers = { depth: 0 };

/** @internal The callback that makes `stack` busy, or the log handler, or undefined. */
export function activeCallback(stack: CallStack | null): CallbackKind | undefined {
  return stack?.innermost ?? (logHandlers.depth !== 0 ? 'onLog' : undefined);
}

const CALLBACK_WORDS: Readonly<Record<CallbackKind, string>> = {
  each: 'an each callback', eachChunk: 'an eachChunk callback', system: "a system's run",
  input: "a GameLoop's input callback", onTick: "a GameLoop's onTick callback", clock: 'the timing clock',
  setup: "a replay's setup", onLog: 'a log handler', combine: "a rollback session's combine function",
  onConfirmed: "a rollback session's onConfirmed callback", defer: 'a World.defer callback',
  observer: 'an observer', onResimulated: "a rollback session's onResimulated callback", eachCascade: 'an eachCascade callback',
};

/** What can be disposed while in use (the `object` field of dispose_inside_call), in words. */
export type DisposableObject = 'World' | 'ScenarioRun' | 'GameLoop' | 'ReplayRecorder' | 'RollbackSession' | 'ReplayPlayer';
const OBJECT_WORDS: Readonly<Record<DisposableObject, string>> = {
  World: 'world', ScenarioRun: 'scenario run', GameLoop: 'game loop', ReplayRecorder: 'replay recorder', RollbackSession: 'rollback session',
  ReplayPlayer: 'replay player',
};

/**
 * @internal Throws `tick_inside_callback` when a tick of the world behind
 * `stack` may not start now (a callback runs inside a call on it, or a log
 * handler runs). `running` adds the tick itself (a C++ tick that has no JS
 * frame of its own on the stack, e.g. a replay run between two systems).
 */
export function refuseTickInside(where: string, stack: CallStack | null, running = false): void {
  if (logHandlers.depth !== 0) refuseInsideLog(where); // the log handler's own rule comes first
  const kind = activeCallback(stack) ?? (running ? 'system' : undefined);
  if (kind === undefined) return;
  throw invalid(`${where}: a tick cannot run inside ${CALLBACK_WORDS[kind]} on the same world; return first and run it after the call (docs/typescript.md#callbacks-and-re-entrancy)`,
    'tick_inside_callback', { call: where, callback: kind });
}

/**
 * @internal Throws `dispose_inside_call` when `object` is in use by a call
 * on the stack (`kind`, from activeCallback or the object's own flag).
 */
export function refuseDisposeInside(where: string, object: DisposableObject, kind: CallbackKind | undefined): void {
  if (kind === undefined) return;
  throw invalid(`${where}: the ${OBJECT_WORDS[object]} is in use by a call that is still running (called from ${CALLBACK_WORDS[kind]}); dispose it after that call returns (docs/typescript.md#callbacks-and-re-entrancy)`,
    'dispose_inside_call', { call: where, object, callback: kind });
}

/**
 * @internal Throws `restore_inside_callback` when the world behind `stack`
 * may not be restored now: a callback runs inside a call on it, or a tick
 * of it is running (`running`: a game loop's frame, a rollback session's
 * advance, a replay between two systems). A restore there would replace
 * the state the outer call is walking or ticking.
 */
export function refuseRestoreInside(where: string, stack: CallStack, running: boolean): void {
  const kind = stack.innermost ?? (running ? 'system' : undefined);
  if (kind === undefined) return;
  throw invalid(`${where}: a world cannot be restored inside ${CALLBACK_WORDS[kind]} on it: the call that runs the callback is still walking or ticking the state; restore after it returns, between ticks (docs/typescript.md#callbacks-and-re-entrancy)`,
    'restore_inside_callback', { call: where, callback: kind });
}

/**
 * @internal Throws `call_inside_log_handler` for a call that ticks, walks,
 * changes or disposes a world (the rule at the top of this file) made from
 * a log handler: the record was emitted in the middle of a core call that
 * is still working on that storage. Callers test `logHandlers.depth` first
 * (one load on the hot path).
 */
export function refuseInsideLog(where: string): never {
  throw invalid(`${where}: a log handler runs in the middle of the core call that logged, so it cannot change or walk a world; keep the record and act after the call returns (docs/typescript.md#callbacks-and-re-entrancy)`,
    'call_inside_log_handler', { call: where, callback: 'onLog' });
}

/** @internal Runs fn with `kind` on `stack`. */
export function within<T>(stack: CallStack, kind: CallbackKind, fn: () => T): T {
  stack.enter(kind);
  try {
    return fn();
  } finally {
    stack.leave();
  }
}
