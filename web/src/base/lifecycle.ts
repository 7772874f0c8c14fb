// lifecycle.ts - the one dispose / [Symbol.dispose] / detach lifecycle of
// the objects bound to a world (a game loop, a replay recorder, a rollback
// session): disposing one frees its core object and unbinds it from its
// world; disposing the world detaches (frees) every object still bound to it.
/// <reference lib="esnext.disposable" preserve="true" />

// Symbol.dispose for runtimes that lack it (older browsers): the symbol TS
// and Node use for `using` (world.ts installs the same one).
if (typeof (Symbol as { dispose?: symbol }).dispose !== 'symbol') {
  Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('nodejs.dispose') });
}

/** @internal What a world keeps of an object bound to it: detached when the world is disposed. */
export interface Detachable {
  /** @internal Frees the core object (idempotent); the world is dying or the object is being disposed. */
  _detach(): void;
}

/**
 * An object bound to one world: `dispose()` (or `using`) frees it and leaves
 * the world as it is; disposing the world frees it too. Idempotent.
 */
export abstract class WorldBound implements Disposable {
  #boundTo: Set<Detachable> | null = null;

  /** @internal Binds it to `dependents` (its world's): the last step of a successful construction. */
  protected bind(dependents: Set<Detachable>): void {
    this.#boundTo = dependents;
    dependents.add(this);
  }

  /**
   * Frees it (the world stays, at the state it has). Idempotent. Refused
   * (`dispose_inside_call`) inside one of its own calls: a frame of a loop,
   * a step of a recorder, an advance of a session.
   */
  dispose(): void {
    this._refuseDispose();
    this._detach();
    this.#boundTo?.delete(this);
  }

  /** dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** @internal Throws when disposing now is refused (one of its own calls is on the stack). */
  protected abstract _refuseDispose(): void;

  /** @internal Frees the core object; idempotent. */
  abstract _detach(): void;
}
