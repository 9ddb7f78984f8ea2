/**
 * A quota the service tells in its answers, kept by Sending → Adaptive (sending/limiter.ts), in
 * n8n-core's engine against a real service on 127.0.0.1 that keeps a fixed-window quota and tells
 * it in each header form (dev/quotaHeaders.js): executions started at once in one process, at
 * their defaults. The budget's rules with a controlled clock: limiter.test.ts.
 */
import type { IRun } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { outputOf, startWorkflow } from '../../../../dev/engine';
import type { QuotaForm, QuotaSpec } from '../../../../dev/quotaHeaders';
import { FixedWindowQuota, QUOTA_FORMS } from '../../../../dev/quotaHeaders';
import { SECRET, engineReceiver } from '../../../support/engineReceiver';
import { expectNoLeak } from '../../../support/leaks';
import { count, messageOf, wait } from '../../../support/limitedService';
import { specViolations } from '../../../support/receiver';
import { NODE_NAME, triggerWorkflow } from '../../../support/workflows';

const { receiver, webhookUrl, webhookPath } = engineReceiver();

/**
 * The service: `spec`'s quota counted as requests arrive, told on every answer; beyond it 429 with
 * Retry-After until the window ends; a run created 20 ms after a request is taken.
 */
function quotaService(spec: QuotaSpec) {
	const quota = new FixedWindowQuota(spec);
	const seen = { runs: [] as string[] };
	receiver.respondWith(async (request, res) => {
		const { admitted, headers } = quota.take();
		if (!admitted) return void res.writeHead(429, headers).end();
		await wait(20);
		const message = messageOf(request);
		seen.runs.push(message);
		res.writeHead(202, { 'Content-Type': 'application/json', ...headers });
		res.end(JSON.stringify({ runId: `run-${message}` }));
	});
	return { quota, seen };
}

/** Item `n` of execution `e` sends the message "e-n". */
const messages = (e: number, size: number) => Array.from({ length: size }, (_, n) => `${e}-${n}`);

/** Execution `e` of Start → Trigger Automation at its defaults (On Error → Continue). */
async function execution(e: number, size: number): Promise<IRun> {
	const started = await startWorkflow(
		triggerWorkflow({
			parameters: { message: '={{ $json.m }}' },
			items: messages(e, size).map((m) => ({ m })),
			settings: { onError: 'continueRegularOutput' },
			webhookUrl: webhookUrl(),
			secret: SECRET,
		}),
	);
	return await started.promise;
}

/** Executions `from`… of `size` items each, started at once; every request checked. */
async function burst(executions: number, size: number, from = 0): Promise<IRun[]> {
	const runs = await Promise.all(
		Array.from({ length: executions }, async (_, k) => await execution(from + k, size)),
	);
	for (const request of receiver.requests)
		expect(specViolations(request, SECRET, webhookPath())).toEqual([]);
	expectNoLeak(SECRET, { extra: runs }, receiver.requests);
	return runs;
}

const statuses = (run: IRun) => outputOf(run, NODE_NAME).map((item) => item.json.statusCode);
const oncePerMessage = (all: string[]) => Object.fromEntries(all.map((m) => [m, 1]));

describe.each(QUOTA_FORMS)('a quota told in the %s form is kept', (form: QuotaForm) => {
	it('15 executions × 20 items at once, 260 requests per 3 s told: no request is turned away, and every item is accepted once', async () => {
		// More than the node has in flight before the first answer (MAX_IN_FLIGHT, 256): without
		// the quota told, the 300 requests would go within the window, and 40 would meet a 429.
		const { quota, seen } = quotaService({ limit: 260, windowSeconds: 3, form });
		const runs = await burst(15, 20);
		runs.forEach((run) => expect(statuses(run)).toEqual(Array(20).fill(202)));
		expect(quota.refused).toBe(0);
		expect(count(seen.runs)).toEqual(oncePerMessage(runs.flatMap((_, e) => messages(e, 20))));
	});

	it('3 executions × 3 items at once, 5 requests per second: only requests sent before the first answer are turned away, and every item is accepted once', async () => {
		const { quota, seen } = quotaService({ limit: 5, windowSeconds: 1, form });
		const runs = await burst(3, 3);
		runs.forEach((run) => expect(statuses(run)).toEqual(Array(3).fill(202)));
		// The 9 go at once (no limit is known yet): 4 meet the 429 that tells the quota, none after.
		expect(quota.refused).toBe(4);
		expect(count(seen.runs)).toEqual(oncePerMessage(runs.flatMap((_, e) => messages(e, 3))));
	});
});

describe('the wait hint after a quota told', () => {
	it.each(QUOTA_FORMS)(
		'says how long the items waited, in the %s form as in every other: 10 items against 4 per 2 s',
		async (form: QuotaForm) => {
			quotaService({ limit: 4, windowSeconds: 2, form });
			const startedAt = Date.now();
			const [run] = await burst(1, 10);
			const tookMs = Date.now() - startedAt;
			expect(statuses(run)).toEqual(Array(10).fill(202));
			const [hint] = run.data.resultData.runData[NODE_NAME][0].hints ?? [];
			const waited = /the node waited (\d+) s in all/.exec(hint?.message ?? '');
			// The last items went in the third window: they waited two windows, at most the run.
			expect(Number(waited?.[1])).toBeGreaterThanOrEqual(4);
			expect(Number(waited?.[1])).toBeLessThanOrEqual(Math.round(tookMs / 1000));
		},
	);
});

describe('a quota spent until a reset longer than the node waits', () => {
	it('fails the items not yet sent with rate_limited, before sending them, saying when the quota resets', async () => {
		// 256 go at once (MAX_IN_FLIGHT), their answers tell 4 more, then nothing until the reset.
		const { quota, seen } = quotaService({ limit: 260, windowSeconds: 3600, form: 'draft' });
		const [run] = await burst(1, 300);
		const output = outputOf(run, NODE_NAME);
		expect(output.slice(0, 260).map((item) => item.json.statusCode)).toEqual(Array(260).fill(202));
		for (const item of output.slice(260)) {
			expect(item.json.error).toMatch(
				/^Not sent: the service's quota is spent until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 36\d\d s\), longer than this node waits$/,
			);
			expect(item.json.details).toMatchObject({ code: 'rate_limited' });
		}
		expect(receiver.requests).toHaveLength(260);
		expect(count(seen.runs)).toEqual(oncePerMessage(messages(0, 260)));
		expect(quota.refused).toBe(0);
	});
});

describe('a quota two limiters share, as two queue-mode workers do', () => {
	/** Execution `e` to the `{base_url}` of side `side`, one of two on one service. */
	async function sideExecution(side: string, e: number, size: number): Promise<IRun> {
		const started = await startWorkflow(
			triggerWorkflow({
				parameters: { message: '={{ $json.m }}' },
				items: messages(e, size).map((m) => ({ m })),
				settings: { onError: 'continueRegularOutput' },
				webhookUrl: webhookUrl().replace('/webhooks/', `/${side}/webhooks/`),
				secret: SECRET,
			}),
		);
		return await started.promise;
	}

	it("two processes sharing 10 per 2 s, 3 executions × 4 items each at once: after the first contact, one window's requests cross the other's, and every item is accepted once", async () => {
		const { quota, seen } = quotaService({ limit: 10, windowSeconds: 2, form: 'draft' });
		const runs = await Promise.all(
			['a', 'b'].flatMap((side, s) =>
				[0, 1, 2].map(async (k) => await sideExecution(side, s * 3 + k, 4)),
			),
		);
		runs.forEach((run) => expect(statuses(run)).toEqual(Array(4).fill(202)));
		// At most 14 meet the 429 that tells the quota at first contact (24 at once, before any
		// answer). In the next window each, its 6 items within the 8 or 9 it was told, sends them
		// all: 4 more meet a 429. Each process knows only what it sends (docs/sending.md).
		expect(quota.refused).toBeLessThanOrEqual(18);
		expect(count(seen.runs)).toEqual(oncePerMessage(runs.flatMap((_, k) => messages(k, 4))));
		expectNoLeak(SECRET, { extra: runs }, receiver.requests);
	});
});
