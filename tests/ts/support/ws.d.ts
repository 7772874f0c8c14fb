// The part of the `ws` package's client the tests use (the package ships no
// types and @types/ws is not a dependency).
declare module 'ws' {
  export class WebSocket {
    constructor(url: string);
    on(event: 'message', listener: (data: Buffer | string) => void): this;
    once(event: 'open', listener: () => void): this;
    once(event: 'error', listener: (error: Error) => void): this;
    once(event: 'close', listener: (code: number) => void): this;
    send(data: string): void;
    close(): void;
    /** Stops reading the socket (the peer's data then waits in the kernel and in its sender). */
    pause(): void;
    resume(): void;
  }
}
