// Plain Node 20: the package as installed, no bundler.
import { loadLaige } from '@laige/sim';
import { runApp } from './app.js';
console.log(JSON.stringify(await runApp(loadLaige)));
