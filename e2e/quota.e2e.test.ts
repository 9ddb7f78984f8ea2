/**
 * A quota the service tells in its answers (sending/limiter.ts), kept in the real n8n 2.x app:
 * workflows run from n8n's REST API as the editor runs them, the node at its defaults (On Error →
 * Continue), against a service on 127.0.0.1 that keeps a fixed-window quota and tells it in each
 * header form (dev/quotaHeaders.js). The same rules in n8n-core's engine, with more executions:
 * test/nodes/TriggerAutomation/sending/quota.engine.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CREDENTIAL_TYPE, workflowId } from '../dev/exampleFiles';
import { APPS } from '../dev/n8nApp';
import type { QuotaForm, QuotaSpec } from '../dev/quotaHeaders';
import { FixedWindowQuota, QUOTA_FORMS } from '../dev/quotaHeaders';
import { count, messageOf, wait } from '../test/support/limitedService';
import { Receiver, answer } from '../test/support/receiver';
import { NODE_NAME } from '../test/support/workflows';
import { AppUnderTest } from './support/appUnderTest';
import type { Rest } from './support/rest';
import { itemsWorkflow } from './support/workflows';

const SECRET = 'e2e_quota_secret_5d2a8c';
const AUTOMATION = 'e2e-quota';

/** One `{base_url}` per case: each meets its service afresh. */
const CASES = [
	...QUOTA_FORMS.map((form) => ({
		key: form,
		form,
		name: `A quota told in the ${form} form`,
		manyItems: 3,
	})),
	{ key: 'spent', form: 'draft' as QuotaForm, name: 'A quota spent for an hour', manyItems: 300 },
].map(({ key, form, name, manyItems }, index) => {
	const credential = { id: `e2eQuotaCred000${index}`, name };
	const workflow = (size: number) =>
		itemsWorkflow({
			id: workflowId(`quota${index}n${size}`),
			name: `${name}: ${size} item${size === 1 ? '' : 's'}`,
			items: Array.from({ length: size }, (_, i) => ({ message: `i${i}`, position: i })),
			credential,
			settings: { onError: 'continueRegularOutput' },
			// Each execution's messages its own: "<execution id>-i<n>".
			perExecution: true,
		});
	return {
		form,
		credential,
		path: `/${key}/webhooks/cloud/${AUTOMATION}`,
		one: workflow(1),
		many: workflow(manyItems),
	};
});
const [SPENT] = CASES.slice(-1);

describe('n8n 2.x keeps a quota the service tells', () => {
	const app = APPS['n8n-2'];
	const receiver = new Receiver();
	/** Each case's quota, by its path, kept as its requests arrive. */
	const quotas = new Map<string, FixedWindowQuota>();
	/** The messages of the runs the service created, by path. */
	const runs = new Map<string, string[]>();
	const underTest = new AppUnderTest();
	let rest: Rest;

	/** The service at `path` keeps `spec` from now on, its runs counted afresh. */
	function keep(path: string, spec: QuotaSpec): FixedWindowQuota {
		const quota = new FixedWindowQuota(spec);
		quotas.set(path, quota);
		runs.set(path, []);
		return quota;
	}

	/** Runs `workflow` `times` at once; resolves to each execution's items, in order. */
	async function run(workflow: { id?: string }, times = 1): Promise<IDataObject[][]> {
		const ids = await Promise.all(
			Array.from({ length: times }, async () => await rest.runManually(workflow.id!)),
		);
		const executions = await Promise.all(ids.map(async (id) => await rest.ended(id, 120_000)));
		return executions.map((execution) => {
			expect(execution.status).toBe('success');
			return execution.data.resultData.runData[NODE_NAME][0].data!.main[0].map(
				({ json }) => json as IDataObject,
			);
		});
	}

	beforeAll(async () => {
		await receiver.start();
		// A run created 20 ms after a request is taken; beyond the quota, 429 with Retry-After.
		receiver.respondWith(async (request, res) => {
			const quota = quotas.get(request.path);
			if (!quota) return answer(res, 500, '{"error":"no quota for this path"}');
			const { admitted, headers } = quota.take();
			if (!admitted) return void res.writeHead(429, headers).end();
			await wait(20);
			const message = messageOf(request);
			runs.get(request.path)!.push(message);
			res.writeHead(202, { 'Content-Type': 'application/json', ...headers });
			res.end(JSON.stringify({ runId: `run-${message}` }));
		});
		({ rest } = await underTest.start(app, {
			credentials: CASES.map(({ credential, path }) => ({
				...credential,
				type: CREDENTIAL_TYPE,
				data: { webhookUrl: `${receiver.url}${path}`, signingSecret: SECRET },
			})),
			workflows: CASES.flatMap(({ one, many }) => [one, many]),
		}));
	});
	afterAll(async () => {
		await underTest.stop();
		await receiver.stop();
	});

	for (const { form, credential, path, many } of CASES.slice(0, QUOTA_FORMS.length)) {
		it(`${credential.name}: 3 executions × 3 items at once against 5 requests per second: only what went before an answer told it is turned away, every item accepted once`, async () => {
			const quota = keep(path, { limit: 5, windowSeconds: 1, form });
			const executions = await run(many, 3);
			for (const items of executions) {
				expect(items.map((item) => item.statusCode)).toEqual([202, 202, 202]);
			}
			// 9 for 5: at most the 4 over the limit, sent before any answer told the quota.
			expect(quota.refused).toBeLessThanOrEqual(4);
			const sent = executions.flatMap((items) =>
				items.map((item) => String((item.response as IDataObject).runId).replace(/^run-/, '')),
			);
			expect(sent).toHaveLength(9);
			expect(count(runs.get(path)!)).toEqual(Object.fromEntries(sent.map((m) => [m, 1])));
		});
	}

	it('a quota spent until a reset longer than the node waits: the items not yet sent fail with rate_limited, unsent, saying when it resets', async () => {
		const { form, path, many } = SPENT;
		// 256 go at once (MAX_IN_FLIGHT); their answers tell 4 more, then nothing until the reset.
		const quota = keep(path, { limit: 260, windowSeconds: 3600, form });
		const [items] = await run(many);
		expect(items.slice(0, 260).map((item) => item.statusCode)).toEqual(Array(260).fill(202));
		for (const item of items.slice(260)) {
			expect(item.error).toMatch(
				/^Not sent: the service's quota is spent until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 36\d\d s\), longer than this node waits$/,
			);
			expect(item.details).toMatchObject({ code: 'rate_limited' });
		}
		expect(receiver.requests.filter((request) => request.path === path)).toHaveLength(260);
		expect(runs.get(path)).toHaveLength(260);
		expect(quota.refused).toBe(0);
	});
});
