import { createRequire } from 'node:module';
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
		// Engine tests start real HTTP servers and run whole workflows.
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
