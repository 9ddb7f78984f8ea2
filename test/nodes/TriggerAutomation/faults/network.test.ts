/**
 * The fault half of the fault matrix (test/support/faultMatrix/): a receiver on 127.0.0.1 that
 * refuses, resets, stalls, trickles, redirects, rejects and rate-limits, a local DNS that fails,
 * a self-signed TLS certificate, and stopping the workflow. All traffic stays on this machine:
 * host names resolve in-process (test/support/localDns.ts).
 */
// First: it sets the log level n8n reads when its logger is first made.
import { startCapture, stopCapture } from '../../../support/capture';

import dns from 'node:dns';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { outputOf, startWorkflow } from '../../../../dev/engine';
import type { MatrixCase } from '../../../support/faultMatrix';
import { CASES, INPUT_GROUPS, SECRET } from '../../../support/faultMatrix';
import type { ReceivedRequest, Responder } from '../../../support/receiver';
import { answer, specViolations } from '../../../support/receiver';
import { expectNoLeak } from '../../../support/leaks';
import { lookups } from '../../../support/localDns';
import type { Harness } from '../../../support/matrixRunner';
import {
	MODES,
	expectCaseOutcome,
	expectCleanRun,
	itemOf,
	opensslAvailable,
	runCase,
	startHarness,
	stopHarness,
	workflowFor,
} from '../../../support/matrixRunner';
import { NODE_NAME } from '../../../support/workflows';

let harness: Harness;
beforeAll(async () => {
	harness = await startHarness(true);
});
afterAll(async () => stopHarness(harness));

const byId = (id: string): MatrixCase => CASES.find((c) => c.id === id)!;

for (const c of CASES.filter((x) => !INPUT_GROUPS.includes(x.group) && !x.custom)) {
	describe(`${c.group}: ${c.rule} [${c.id}]`, () => {
		for (const { mode, label } of MODES) {
			// Without openssl there is no certificate to test with.
			it.skipIf(c.tls === true && !opensslAvailable())(label, async () => {
				const result = await runCase(c, mode, harness);
				expectCleanRun(c, result);
				expectCaseOutcome(c, mode, result);
				if (c.id === 'refused-then-accepted') {
					// Four signings: items 0 and 2 once, item 1 twice (the refused attempt never left).
					expect(result.authenticateCalls).toBe(4);
				}
				if (c.id.startsWith('redirect-')) {
					expect(result.requests.filter((r) => r.path !== '/webhooks/cloud/auto-7')).toEqual([]);
				}
			});
		}
	});
}

/** Runs a case's workflow and stops it (n8n's Stop) once `received` requests have arrived. */
async function runAndStop(
	c: MatrixCase,
	settings: IDataObject,
	responder: Responder,
	received: number,
) {
	const { options, receiver } = workflowFor(c, harness, settings);
	receiver.reset();
	receiver.respondWith(responder);
	startCapture();
	const started = await startWorkflow(options);
	while (receiver.requests.length < received) await new Promise((tick) => setTimeout(tick, 5));
	const stoppedAt = Date.now();
	started.promise.cancel();
	const run = await started.promise;
	const logged = stopCapture();
	return { run, stoppedAt, logged, receiver };
}

function expectConforming(requests: ReceivedRequest[]) {
	for (const request of requests)
		expect(specViolations(request, SECRET, '/webhooks/cloud/auto-7')).toEqual([]);
}

describe('Stopping and retrying', () => {
	for (const { mode, label } of MODES.slice(0, 2)) {
		it(`${byId('stopped-mid-batch').rule} [stopped-mid-batch] (${label})`, async () => {
			const c: MatrixCase = {
				...byId('stopped-mid-batch'),
				parameters: { options: { batching: { batch: { batchSize: 2, batchInterval: 0 } } } },
			};
			// Every answer is held back: the batch is in flight when the workflow is stopped.
			const { run, logged, receiver } = await runAndStop(
				c,
				mode === 'stop' ? {} : { onError: mode },
				(_request, res) => harness.http.later(5_000, () => answer(res, 202, '{}')),
				2,
			);
			expect(run.status).toBe('canceled');
			expect(run.data.resultData.error?.message).toBe('The execution was cancelled manually');
			// Items 0 and 1 were in flight and are aborted; item 2 is never sent.
			await new Promise((settle) => setTimeout(settle, 150));
			expect(receiver.requests.map(itemOf).sort()).toEqual([0, 1]);
			expect(receiver.requests.map((r) => r.answer)).toEqual(['closed', 'closed']);
			expect(outputOf(run, NODE_NAME)).toEqual([]);
			expectConforming(receiver.requests);
			expectNoLeak(SECRET, { run, logged }, receiver.requests);
		});
	}

	it(`${byId('stopped-during-retry-wait').rule} [stopped-during-retry-wait]`, async () => {
		const c: MatrixCase = {
			...byId('stopped-during-retry-wait'),
			parameters: { options: { retries: 2 } },
		};
		const { run, stoppedAt, logged, receiver } = await runAndStop(
			c,
			{ onError: 'continueRegularOutput' },
			(_request, res) => answer(res, 429, '', { 'Retry-After': '30' }),
			1,
		);
		const took = Date.now() - stoppedAt;
		expect(run.status).toBe('canceled');
		expect(took).toBeLessThan(1_000);
		await new Promise((settle) => setTimeout(settle, 150));
		// Item 0 got its 429 and was not re-sent; items 1 and 2 were never sent.
		expect(receiver.requests.map(itemOf)).toEqual([0]);
		expectConforming(receiver.requests);
		expectNoLeak(SECRET, { run, logged }, receiver.requests);
	});

	it(`${byId('retry-on-fail-keeps-accepted').rule} [retry-on-fail-keeps-accepted]`, async () => {
		const c: MatrixCase = {
			...byId('retry-on-fail-keeps-accepted'),
			custom: false,
			fault: {
				kind: 'answers',
				list: [{ status: 500 }, { status: 202, body: '{"runId":"second"}' }],
			},
		};
		const result = await runCase(c, 'stop', harness, {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 10,
		});
		expect(result.run!.status).toBe('success');
		// Item 0 once (its first answer is passed on), item 1 twice, item 2 once.
		expect(result.requests.map(itemOf)).toEqual([0, 1, 1, 2]);
		const output = outputOf(result.run!, NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.statusCode).toBe(202);
		expect(new Set(result.requests.map((r) => r.headers['x-service-signature'])).size).toBe(4);
		expectConforming(result.requests);
		expectNoLeak(SECRET, { run: result.run, logged: result.logged }, result.requests);
	});
});

describe('no DNS query leaves the machine', () => {
	it('every host name is answered in-process, and resolvers that would ask a DNS server throw', () => {
		expect(() => dns.resolve4('example.com', () => {})).toThrow(/resolve names locally only/);
		expect(lookups).toContain('svc.invalid');
		expect(lookups).toContain('nowhere.invalid');
	});
});
