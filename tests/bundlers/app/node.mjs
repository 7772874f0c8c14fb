// Plain Node 20: the package as installed, no bundler; both module entries.
import { loadLaige } from '@laige/sim';
import { loadLaige as loadWithScenarios } from '@laige/sim/scenarios';
import { runApp } from './app.js';
console.log(JSON.stringify({ ...(await runApp(loadLaige)), withScenarios: await runApp(loadWithScenarios) }));
