/**
 * CONTRIBUTING.md's map of one accepted item's way is the code's, in the order the code runs: one
 * item runs in n8n's engine (after a warm-up item, so loading is not counted) with V8's precise
 * coverage on, for the set of files of dist/ with a function that ran; and with a breakpoint at
 * every place in those functions whose condition records its file and never pauses, for the order
 * in which each file's code first ran (every place: a function's first may be a default argument).
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

interface FunctionCoverage {
	functionName: string;
	ranges: Array<{ startOffset: number; endOffset: number; count: number }>;
}
interface ScriptCoverage {
	scriptId: string;
	url: string;
	functions: FunctionCoverage[];
}

const DIST = join(PACKAGE_DIR, 'dist');

/** The shipped file (as in the repository, .ts) a script of dist/ was built from, if it is one. */
function shipped({ url }: ScriptCoverage): string | undefined {
	if (!url.startsWith('file:') || !fileURLToPath(url).startsWith(DIST)) return undefined;
	return relative(DIST, fileURLToPath(url)).replace(/\.js$/, '.ts');
}

/** The functions of a script that ran, besides loading it (its top level). */
const ran = ({ functions }: ScriptCoverage) =>
	functions.filter(
		({ functionName, ranges }) =>
			(functionName !== '' || ranges[0].startOffset !== 0) && ranges[0].count > 0,
	);

/** `offset` in `source` as the debugger's line and column. */
function location(scriptId: string, source: string, offset: number) {
	const lines = source.slice(0, offset).split('\n');
	return { scriptId, lineNumber: lines.length - 1, columnNumber: lines.at(-1)!.length };
}

const RECORD = '__acceptedItemWay';

/** Puts a breakpoint that records its file, and never pauses, at every place of each function that ran. */
async function recordFirstRuns(session: Session, scripts: ScriptCoverage[]): Promise<void> {
	for (const script of scripts) {
		const file = shipped(script)!;
		const { scriptSource } = await session.post('Debugger.getScriptSource', {
			scriptId: script.scriptId,
		});
		for (const { ranges } of ran(script)) {
			const { locations } = await session.post('Debugger.getPossibleBreakpoints', {
				start: location(script.scriptId, scriptSource, ranges[0].startOffset),
				end: location(script.scriptId, scriptSource, ranges[0].endOffset),
				restrictToFunction: true,
			});
			for (const place of locations) {
				await session.post('Debugger.setBreakpoint', {
					location: place,
					condition: `(globalThis.${RECORD}.push(${JSON.stringify(file)}), false)`,
				});
			}
		}
	}
}

const record = globalThis as unknown as Record<typeof RECORD, string[]>;

describe("one accepted item's way", () => {
	it("the files whose code runs are CONTRIBUTING.md's map, in its order, no more, no fewer", async () => {
		const session = new Session();
		session.connect();
		record[RECORD] = [];
		try {
			await session.post('Profiler.enable');
			await session.post('Debugger.enable');
			await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
			await oneAcceptedItem();
			// Taking the coverage resets its counts: what follows is the second item's alone.
			const warmUp = (await session.post('Profiler.takePreciseCoverage')).result;
			await recordFirstRuns(
				session,
				warmUp.filter((script) => shipped(script) !== undefined && ran(script).length > 0),
			);
			await oneAcceptedItem();
			const { result } = await session.post('Profiler.takePreciseCoverage');
			const files = result.filter((script) => ran(script).length > 0).map(shipped);
			const firstRuns = [...new Set(record[RECORD])];
			const map = section(
				readFileSync(join(PACKAGE_DIR, 'CONTRIBUTING.md'), 'utf8'),
				"One accepted item's way",
			);
			const listed = [...(map ?? '').matchAll(/`((?:nodes|credentials)\/[^`]+\.ts)`/g)].map(
				(match) => match[1],
			);
			expect(new Set(listed).size).toBe(listed.length);
			expect(files.filter((file) => file !== undefined).sort()).toEqual([...listed].sort());
			expect(firstRuns).toEqual(listed);
		} finally {
			await session.post('Profiler.stopPreciseCoverage');
			await session.post('Debugger.disable');
			session.disconnect();
			delete (record as Partial<typeof record>)[RECORD];
		}
	});
});
