// Vitest: the TypeScript API tests (tests/ts), run against the built package
// (dist/ + wasm/), which is what users import. `npm run build` first.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/ts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120000,
    hookTimeout: 60000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
