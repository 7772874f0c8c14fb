// esbuild with its file loader for .wasm (--loader:.wasm=file): the import
// is the URL of the copied file, handed to loadLaige as wasmUrl.
import { loadLaige } from '@laige/sim';
import wasmUrl from '@laige/sim/laige_wasm.wasm';
import { publish, runApp } from './app.js';
publish(runApp(loadLaige, { wasmUrl: new URL(wasmUrl, import.meta.url) }));
