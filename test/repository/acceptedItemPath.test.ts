/**
 * CONTRIBUTING.md's map of one accepted item's way is the code's: one item runs in n8n's engine
 * with V8's precise coverage on (after a warm-up item, so loading is not counted), and the files of
 * dist/ with a function that ran are the files the map lists.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_DIR, outputOf, runWorkflow } from '../../dev/engine';
import { section } from '../support/markdown';
import { Receiver } from '../support/receiver';
import { NODE_NAME, triggerWorkflow } from '../support/workflows';

const receiver = new Receiver();
beforeAll(async () => await receiver.start());
afterAll(async () => await receiver.stop());

let services = 0;
async function oneAcceptedItem() {
	const run = await runWorkflow(
		triggerWorkflow({
			parameters: { message: 'Handle order' },
			items: [{ order: 1 }],
			webhookUrl: `${receiver.url}/path-${++services}/webhooks/cloud/auto-1`,
			secret: 'whsec_path_test_0123456789',
		}),
	);
	expect(outputOf(run, NODE_NAME)[0].json.statusCode).toBe(202);
}

/** The shipped files (as in the repository, .ts) with a function that ran, besides loading. */
function filesThatRan(result: Array<{ url: string; functions: FunctionCoverage[] }>): string[] {
	const dist = join(PACKAGE_DIR, 'dist');
	return result
		.filter(({ url }) => url.startsWith('file:') && fileURLToPath(url).startsWith(dist))
		.filter(({ functions }) =>
			functions.some(
				({ functionName, ranges }) =>
					(functionName !== '' || ranges[0].startOffset !== 0) && ranges[0].count > 0,
			),
		)
		.map(({ url }) => relative(dist, fileURLToPath(url)).replace(/\.js$/, '.ts'))
		.sort();
}

interface FunctionCoverage {
	functionName: string;
	ranges: Array<{ startOffset: number; count: number }>;
}

describe("one accepted item's way", () => {
	it("the files whose code runs are CONTRIBUTING.md's map, no more, no fewer", async () => {
		const session = new Session();
		session.connect();
		try {
			await session.post('Profiler.enable');
			await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
			await oneAcceptedItem();
			// Taking the coverage resets its counts: what follows is the second item's alone.
			await session.post('Profiler.takePreciseCoverage');
			await oneAcceptedItem();
			const { result } = await session.post('Profiler.takePreciseCoverage');
			const ran = filesThatRan(result);
			const map = section(
				readFileSync(join(PACKAGE_DIR, 'CONTRIBUTING.md'), 'utf8'),
				"One accepted item's way",
			);
			const listed = [...(map ?? '').matchAll(/`((?:nodes|credentials)\/[^`]+\.ts)`/g)].map(
				(match) => match[1],
			);
			expect(new Set(listed).size).toBe(listed.length);
			expect(ran).toEqual([...listed].sort());
		} finally {
			await session.post('Profiler.stopPreciseCoverage');
			session.disconnect();
		}
	});
});
