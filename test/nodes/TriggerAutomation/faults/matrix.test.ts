/**
 * The fault matrix itself: docs/testing.md's summary of it is generated from the cases the tests
 * run, and the checks every case relies on can fail.
 *
 * After changing test/support/faultMatrix/:
 *   UPDATE_FAULT_MATRIX=1 npx vitest run test/nodes/TriggerAutomation/faults/matrix.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../../../dev/packageDir';
import { FAILURE_CODES } from '../../../../nodes/TriggerAutomation/answer/failure';
import { CASES, INPUT_GROUPS } from '../../../support/faultMatrix';
import { MARKERS, renderFaultMatrix } from '../../../support/faultMatrix/render';
import type { ReceivedRequest } from '../../../support/receiver';
import { specViolations } from '../../../support/receiver';
import { SECRET, T, VECTORS } from '../../../support/signatureVectors';
import { expectNoLeak } from '../../../support/leaks';
import { expectNoDuplicates, templateRegExp } from '../../../support/matrixRunner';

const PAGE = join(PACKAGE_DIR, 'docs', 'testing.md');

describe("the fault matrix's summary in docs/testing.md", () => {
	it('is the one the cases the fault tests run render', () => {
		const rendered = renderFaultMatrix();
		const page = readFileSync(PAGE, 'utf8');
		const [from, to] = [page.indexOf(MARKERS[0]), page.indexOf(MARKERS[1])];
		expect(from).toBeGreaterThan(-1);
		expect(to).toBeGreaterThan(from);
		const kept = page.slice(from, to + MARKERS[1].length);
		if (process.env.UPDATE_FAULT_MATRIX === '1') writeFileSync(PAGE, page.replace(kept, rendered));
		expect(
			process.env.UPDATE_FAULT_MATRIX === '1' ? rendered : kept,
			'run UPDATE_FAULT_MATRIX=1 npx vitest run test/nodes/TriggerAutomation/faults/matrix.test.ts',
		).toBe(rendered);
	});

	it('counts every case once, by group', () => {
		const counts = [...renderFaultMatrix().matchAll(/^\| (?!Group|All|---)[^|]+\| (\d+) \|/gm)];
		expect(counts.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(CASES.length);
		expect(counts.length).toBe(new Set(CASES.map((c) => c.group)).size);
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

describe('the failure codes', () => {
	const errors = CASES.filter((c) => c.expect.kind === 'error' && !c.custom);

	it('every failing case names its code', () => {
		for (const c of errors) expect(c.expect.kind === 'error' && c.expect.code, c.id).toBeTruthy();
	});

	it("every code is some case's, and every case's code is a code", () => {
		const made = new Set(errors.map((c) => (c.expect.kind === 'error' ? c.expect.code : '')));
		expect([...made].sort()).toEqual([...FAILURE_CODES].sort());
	});

	it("reference.md's Errors table lists exactly the codes, each once", () => {
		const page = readFileSync(join(PACKAGE_DIR, 'docs', 'reference.md'), 'utf8');
		const section = page.slice(
			page.indexOf('\n## Errors'),
			page.indexOf('\n## ', page.indexOf('\n## Errors') + 1),
		);
		const listed = [...section.matchAll(/^\| `([a-z0-9_]+)` +\|/gm)].map((match) => match[1]);
		expect(listed.sort()).toEqual([...FAILURE_CODES].sort());
	});
});

describe('the checks every case relies on can fail', () => {
	const request = (
		message: string,
		t: number,
		answer: ReceivedRequest['answer'],
	): ReceivedRequest => ({
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

	it('a request signed otherwise than the spec says breaks it: the bytes, the key, the time, the form', () => {
		const [{ body, hex }] = VECTORS;
		const path = '/webhooks/cloud/auto-7';
		const signed = (header: string, bytes = body): ReceivedRequest => ({
			method: 'POST',
			path,
			headers: { 'content-type': 'application/json', 'x-service-signature': header },
			body: Buffer.from(bytes),
			receivedAt: T,
		});
		const good = signed(`t=${T},v1=${hex}`);
		expect(specViolations(good, SECRET, path, T + 1000)).toEqual([]);
		for (const [request, secret, now, problem] of [
			[signed(`t=${T},v1=${hex}`, `${body} `), SECRET, T, /signature mismatch/],
			[good, 'another_secret', T, /signature mismatch/],
			[good, SECRET, T + 300_000, /signature expired/],
			[good, SECRET, T - 60_000, /ahead of the clock/],
			[signed(`v1=${hex},t=${T}`), SECRET, T, /signature header format/],
		] as const) {
			expect(specViolations(request, secret, path, now).join('; ')).toMatch(problem);
		}
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
