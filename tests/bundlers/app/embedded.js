import { loadLaige } from '@laige/sim/embedded';
import { publish, runApp } from './app.js';
publish(runApp(loadLaige));
