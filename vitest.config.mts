import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
	resolve: {
		// One n8n-workflow, as in n8n: the CommonJS build that n8n-core and the built node load.
		alias: { 'n8n-workflow': require.resolve('n8n-workflow') },
	},
	test: {
		include: ['test/**/*.test.ts'],
		// The JSON report lets CI print a plain "N passed, N failed" line.
		reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
		// Engine tests start real HTTP servers and run whole workflows, mostly waiting on them: two
		// files at once even on two cores (vitest's default there is one) took the suite from about
		// 160 s to 98 s, at 0.94 of a core.
		maxWorkers: Math.max(2, availableParallelism() - 1),
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
