import { defineConfig } from 'vitest/config';

// The end-to-end suite: the real n8n app (e2e/.apps) and its editor in headless Chromium.
export default defineConfig({
	test: {
		include: ['e2e/**/*.e2e.test.ts'],
		// One n8n instance per file at a time: two cores.
		fileParallelism: false,
		reporters: ['default', ['json', { outputFile: 'test-results/e2e.json' }]],
		testTimeout: 120_000,
		hookTimeout: 300_000,
	},
});
