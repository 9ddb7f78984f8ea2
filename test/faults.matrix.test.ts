/**
 * The fault matrix itself: docs/fault-matrix.md is exactly the table the tests run, and the checks
 * every case relies on can fail.
 *
 * After changing test/support/faultMatrix/:
 *   UPDATE_FAULT_MATRIX=1 npx vitest run test/faults.matrix.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { CASES, INPUT_GROUPS } from './support/faultMatrix';
import { renderFaultMatrix } from './support/faultMatrix/render';
import type { FaultyRequest } from './support/faultyReceiver';
import { expectNoLeak } from './support/leaks';
import { expectNoDuplicates, templateRegExp } from './support/matrixRunner';

const PAGE = join(__dirname, '..', 'docs', 'fault-matrix.md');

describe('the fault matrix in docs/fault-matrix.md', () => {
	it('is the table the fault tests run', () => {
		const rendered = renderFaultMatrix();
		if (process.env.UPDATE_FAULT_MATRIX === '1') writeFileSync(PAGE, rendered);
		expect(
			readFileSync(PAGE, 'utf8'),
			'run UPDATE_FAULT_MATRIX=1 npx vitest run test/faults.matrix.test.ts',
		).toBe(rendered);
	});

	it('tries at least 40 bad inputs and 12 faults, each case once', () => {
		const inputs = CASES.filter((c) => INPUT_GROUPS.includes(c.group));
		expect(inputs.length).toBeGreaterThanOrEqual(40);
		expect(CASES.length - inputs.length).toBeGreaterThanOrEqual(12);
		expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
		expect(new Set(CASES.map((c) => c.rule)).size).toBe(CASES.length);
	});

	it('says for every case what the spec says, or that it is silent', () => {
		for (const c of CASES) expect(c.spec, c.id).toMatch(/§|Silent/);
	});
});

describe('the checks every case relies on can fail', () => {
	const request = (message: string, t: number, answer: FaultyRequest['answer']): FaultyRequest => ({
		method: 'POST',
		path: '/webhooks/cloud/auto-7',
		headers: { 'x-service-signature': `t=${t},v1=${String(t).padStart(64, 'a')}` },
		body: Buffer.from(JSON.stringify({ data: { message } })),
		receivedAt: t,
		answer,
	});

	it('a repeat after the service answered anything but 429 is a duplicate', () => {
		expect(() =>
			expectNoDuplicates([request('item 0', 1, 202), request('item 0', 2, 202)]),
		).toThrow(/re-sent after the service answered 202/);
		expect(() =>
			expectNoDuplicates([request('item 1', 1, 'closed'), request('item 1', 2, 202)]),
		).toThrow();
		expect(() =>
			expectNoDuplicates([request('item 1', 1, 429), request('item 1', 2, 202)]),
		).not.toThrow();
	});

	it('a repeat with the same signature is a duplicate even after a 429', () => {
		expect(() =>
			expectNoDuplicates([request('item 1', 1, 429), request('item 1', 1, 202)]),
		).toThrow();
	});

	it('the secret or a sent signature anywhere in the run or the logs is a leak', () => {
		const sent = request('item 0', 1_700_000_000_000, 202);
		const signature = String(sent.headers['x-service-signature']).split('v1=')[1];
		expect(() => expectNoLeak('s3cret', { logged: ['[n8n debug] key s3cret'] })).toThrow(/secret/);
		expect(() =>
			expectNoLeak('s3cret', { extra: [new Error(`bad ${signature}`)] }, [sent]),
		).toThrow(/signature/);
		expect(() => expectNoLeak('s3cret', { logged: ['nothing to see'] }, [sent])).not.toThrow();
	});

	it('message templates match the whole text, with {host} and {any} only', () => {
		expect('Could not connect to a:1: connection refused').toMatch(
			templateRegExp('Could not connect to {host}: connection refused', 'a:1'),
		);
		expect('Could not connect to b:1: connection refused').not.toMatch(
			templateRegExp('Could not connect to {host}: connection refused', 'a:1'),
		);
		expect('x (1.2)').not.toMatch(templateRegExp('x (1x2)', ''));
	});
});
