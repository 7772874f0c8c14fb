import { loadLaige } from '@laige/sim';
import { publish, runApp } from './app.js';
publish(runApp(loadLaige));
