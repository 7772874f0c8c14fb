import { loadLaige } from '@laige/sim/scenarios';
import { publish, runApp } from './app.js';
publish(runApp(loadLaige));
