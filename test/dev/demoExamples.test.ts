/**
 * `npm start`'s examples say which failures each means to show, and the output ends with one
 * summary line: runs created, failures shown on purpose, anything unexpected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { judge, meantFailures, runExamples, summary } from '../../dev/demoExamples';
import { loadExamples } from '../../dev/examples';
import { AutomationServiceSimulator, SIMULATED_FAILURES } from '../../dev/simulator';

const ID = 'demo-examples';
const SECRET = 'demo_examples_secret_3f1a';

describe('the failures an example means to show: what its items ask the simulator for', () => {
	it('the route example asks for the three the simulator offers, in its orders; the others for none', () => {
		const meant = Object.fromEntries(loadExamples().map((e) => [e.file, meantFailures(e)]));
		expect(meant['route-failures-by-code.json']).toEqual(Object.keys(SIMULATED_FAILURES));
		for (const [file, failures] of Object.entries(meant)) {
			if (file !== 'route-failures-by-code.json') expect(failures, file).toEqual([]);
		}
	});

	it('a value written as plain JSON is found too; the word in prose is not', () => {
		const nodes = [
			{ parameters: { jsonOutput: '{"simulateFailure": "body_rejected"}' } },
			{ parameters: { content: 'Its `simulateFailure` field asks the simulator to fail' } },
		];
		expect(meantFailures({ nodes } as never)).toEqual(['body_rejected']);
	});
});

describe('judging what an example showed against what it meant', () => {
	it('each failure shown counts against one meant failure of its code', () => {
		expect(judge('a.json', ['x', 'y', 'x'], ['x', 'x', 'y'])).toEqual({
			file: 'a.json',
			onPurpose: ['x', 'x', 'y'],
			unexpected: [],
		});
	});

	it('a failure not meant, one meant twice but shown three times, and one meant but not shown are unexpected', () => {
		expect(judge('a.json', ['x', 'y'], ['x', 'x', 'z']).unexpected).toEqual([
			'a.json: a x not meant',
			'a.json: a z not meant',
			'a.json: y meant but not shown',
		]);
	});

	it('an execution that failed is unexpected, whatever was meant', () => {
		expect(judge('a.json', ['x'], [], 'The service rejected the signature (403)')).toEqual({
			file: 'a.json',
			onPurpose: [],
			unexpected: ['a.json failed: The service rejected the signature (403)'],
		});
	});

	it('the summary counts runs and failures shown on purpose, names where, and says nothing was unexpected', () => {
		const judged = [judge('a.json', [], []), judge('b.json', ['x', 'y'], ['y', 'x'])];
		expect(summary(5, judged)).toEqual({
			line: 'Summary: 5 runs created; 2 failures shown on purpose (b.json); nothing unexpected.',
			unexpected: 0,
		});
	});

	it('the summary lists what was unexpected, and no run at all is', () => {
		expect(summary(0, [judge('a.json', [], ['z'])])).toEqual({
			line: 'Summary: 0 runs created; 0 failures shown on purpose; 2 unexpected: a.json: a z not meant; no run was created.',
			unexpected: 2,
		});
	});
});

describe('npm start runs the examples against the simulator', () => {
	const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
	const lines: string[] = [];
	let judged: Awaited<ReturnType<typeof runExamples>> = [];

	beforeAll(async () => {
		await simulator.start();
		judged = await runExamples(
			{ webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET },
			(line) => lines.push(line),
		);
	}, 60_000);
	afterAll(async () => simulator.stop());

	it('each example says what it means to show, right under its name', () => {
		const examples = loadExamples();
		for (const example of examples) {
			const meant = meantFailures(example);
			const header = lines.findIndex((line) =>
				line.startsWith(`\n▶ examples/${example.file} — ${example.name} (`),
			);
			expect(header, example.file).toBeGreaterThanOrEqual(0);
			expect(lines[header + 1]).toBe(
				meant.length === 0
					? '  Meant to show: every item accepted.'
					: `  Meant to show ${meant.length} failures, asked of the simulator by its items: ${meant.join(', ')}.`,
			);
		}
	});

	it("the route example's failures are each marked as meant; the run, as shipped, shows nothing unexpected", () => {
		const failed = lines.filter((line) => line.startsWith('  ✗ item'));
		expect(failed).toHaveLength(Object.keys(SIMULATED_FAILURES).length);
		for (const line of failed) expect(line).toMatch(/^ {2}✗ item \d \(meant\): \w+, /);
		const { line, unexpected } = summary(simulator.runs(ID).length, judged);
		expect(unexpected).toBe(0);
		expect(line).toBe(
			`Summary: ${loadExamples().length} runs created; 3 failures shown on purpose (route-failures-by-code.json); nothing unexpected.`,
		);
	});
});
