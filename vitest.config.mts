import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		// Engine tests start real HTTP servers and run whole workflows.
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
