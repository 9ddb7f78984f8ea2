/**
 * examples/route-failures-by-code.json in the real n8n, as imported from the file: its Trigger
 * Automation node continues on the error output, and a Switch on `details.code` sends a failed item
 * to the branch of its failure code. As shipped, against the simulator, its four orders end four
 * ways: one run, and three failure branches (the failures its `simulateFailure` fields ask the
 * simulator for). Then a service that answers every order alike (a 429 with a Retry-After too long
 * to wait for, a 401, a 500, a 405): each time the saved execution shows the items in that code's
 * branch only; a run while that Retry-After lasts sends nothing. n8n 1.x's engine does not route
 * this node's error items (their JSON has `details`) to the error output: there the test proves
 * that they stay on the regular output with their code, as docs/reference.md says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { credentialsOf, readExamples, workflowId } from '../dev/exampleFiles';
import type { N8nInstance } from '../dev/n8nApp';
import { APPS } from '../dev/n8nApp';
import { AutomationServiceSimulator } from '../dev/simulator';
import { Receiver, answer } from '../test/support/receiver';
import { AppUnderTest } from './support/appUnderTest';
import type { Rest, RestExecution } from './support/rest';

const FILE = 'route-failures-by-code.json';
const SECRET = 'e2e_route_secret_3c9a0f';
const PATH = '/webhooks/cloud/e2e-route';
const TRIGGER = 'When clicking ‘Execute workflow’';

// The 429 last: until its Retry-After (too long to wait for) ends, every later item to the
// service fails unsent, which the last test shows.
const CASES: Array<[string, string, number, Record<string, string>]> = [
	['signature_rejected', 'Alert: check the credential', 401, {}],
	['may_have_run', 'Ask a human: check the run history', 500, {}],
	['service_refused', 'Fix and run again', 405, {}],
	['rate_limited', 'Wait, then run it again', 429, { 'Retry-After': '120' }],
];

const ORDERS = 4;

/** Those of `names` that put out items in the saved execution. */
function reached(execution: RestExecution, names: string[]) {
	const runData = execution.data.resultData.runData;
	return names.filter((name) => (runData[name]?.[0]?.data?.main[0]?.length ?? 0) > 0);
}

for (const app of Object.values(APPS)) {
	describe(`${app.id}: ${FILE} routes a failed item by its failure code`, () => {
		const receiver = new Receiver();
		let status = 202;
		let headers: Record<string, string> = {};
		const underTest = new AppUnderTest();
		let n8n: N8nInstance;
		let rest: Rest;
		const { workflow } = readExamples().find((example) => example.file === FILE)!;
		const id = workflowId(FILE);
		// The example as shipped, its credential pointing at the simulator.
		const simulator = new AutomationServiceSimulator({
			automations: [{ id: 'e2e-route', secret: SECRET }],
		});
		const simulated = {
			...workflow,
			id: workflowId('routeSimulated'),
			nodes: workflow.nodes.map((node) =>
				node.credentials
					? {
							...node,
							credentials: {
								serviceWebhookSecretApi: { id: 'e2eRouteSimCred', name: 'Route simulator' },
							},
						}
					: node,
			),
		};

		beforeAll(async () => {
			await receiver.start();
			await simulator.start();
			receiver.respondWith((_request, res) => answer(res, status, 'no', headers));
			const data = { webhookUrl: `${receiver.url}${PATH}`, signingSecret: SECRET };
			const toSimulator = { webhookUrl: simulator.webhookUrl('e2e-route'), signingSecret: SECRET };
			({ n8n, rest } = await underTest.start(app, {
				credentials: [...credentialsOf(workflow, data), ...credentialsOf(simulated, toSimulator)],
				workflows: [{ ...workflow, id }, simulated],
			}));
		});

		afterAll(async () => {
			await underTest.stop();
			await receiver.stop();
			await simulator.stop();
		});

		it('as shipped, against the simulator: one run, and an order in each of three failure branches, by its code', async () => {
			const execution = await rest.ended(await rest.runManually(simulated.id, TRIGGER));
			expect(execution.status).toBe('success');
			expect(simulator.runs('e2e-route').map((run) => run.context)).toEqual([
				{ orderId: 1043, customer: 'Grace Hopper' },
			]);
			const runData = execution.data.resultData.runData;
			const codes = (node: string) =>
				(runData[node]?.[0]?.data?.main[0] ?? []).map(
					({ json }) => (json.details as { code?: string; itemIndex?: number } | undefined) ?? {},
				);
			if (n8n.version.startsWith('1.')) {
				expect(codes('Trigger Automation').map((d) => d.code)).toEqual([
					undefined,
					'rate_limited',
					'signature_rejected',
					'body_rejected',
				]);
				return;
			}
			expect(codes('Wait, then run it again')).toMatchObject([
				{ code: 'rate_limited', itemIndex: 1 },
			]);
			expect(codes('Alert: check the credential')).toMatchObject([
				{ code: 'signature_rejected', itemIndex: 2 },
			]);
			expect(codes('Fix and run again')).toMatchObject([{ code: 'body_rejected', itemIndex: 3 }]);
			expect(reached(execution, ['Ask a human: check the run history'])).toEqual([]);
			expect(JSON.stringify(execution)).not.toContain(SECRET);
		});

		it('accepted orders go to no failure branch', async () => {
			status = 202;
			headers = { 'Content-Type': 'application/json' };
			const execution = await rest.ended(await rest.runManually(id, TRIGGER));
			expect(execution.status).toBe('success');
			expect(
				reached(
					execution,
					CASES.map(([, name]) => name),
				),
			).toEqual([]);
			expect(reached(execution, ['Trigger Automation'])).toEqual(['Trigger Automation']);
		});

		it.each(CASES)(
			'%s goes to "%s" only (n8n 2.x; 1.x keeps it on the regular output)',
			async (code, branch, answered, answerHeaders) => {
				status = answered;
				headers = answerHeaders;
				const before = receiver.requests.length;
				const execution = await rest.ended(await rest.runManually(id, TRIGGER));
				expect(execution.status).toBe('success');
				// Every order once; after a 429 asking for 120 s, those not yet sent stay unsent.
				const sent = receiver.requests.length - before;
				if (answered === 429) expect(sent).toBeGreaterThanOrEqual(1);
				else expect(sent).toBe(ORDERS);
				const ends = CASES.map(([, name]) => name);
				const runData = execution.data.resultData.runData;
				if (n8n.version.startsWith('1.')) {
					// n8n 1.x's engine routes to the error output only an item whose JSON is `error` (and
					// `message`): the failed item, with its details, stays on the regular output.
					expect(reached(execution, ends)).toEqual([]);
					const items = runData['Trigger Automation'][0].data!.main[0];
					expect(items.map((item) => item.json.details)).toMatchObject(
						Array.from({ length: ORDERS }, (_, itemIndex) => ({ code, itemIndex })),
					);
					return;
				}
				expect(reached(execution, ends)).toEqual([branch]);
				const items = runData[branch][0].data!.main[0];
				expect(items.map((item) => item.json.details)).toMatchObject(
					Array.from({ length: ORDERS }, (_, itemIndex) => ({ code, itemIndex })),
				);
				expect(JSON.stringify(execution)).not.toContain(SECRET);
			},
		);

		it('a later run meets the service afresh: nothing of that Retry-After is kept once its execution ended, and its items are sent', async () => {
			status = 202;
			headers = { 'Content-Type': 'application/json' };
			const before = receiver.requests.length;
			const execution = await rest.ended(await rest.runManually(id, TRIGGER));
			expect(execution.status).toBe('success');
			expect(receiver.requests.length).toBe(before + ORDERS);
		});
	});
}
