/**
 * The example workflows, run by the real n8n app (`n8n execute`) with n8n's own nodes and the
 * package installed as a community package, against the local simulator: each run the simulator
 * recorded was signed correctly over the bytes it received. `n8n execute` cannot start a Schedule
 * Trigger ("Missing node to start execution"), so the schedule example runs in the editor suite,
 * and the AI Agent example there too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APPS, N8nInstance } from '../dev/n8nApp';
import { AutomationServiceSimulator } from '../dev/simulator';
import type { WorkflowFile } from '../dev/exampleFiles';
import { CREDENTIAL_TYPE, credentialsOf, readExamples, workflowId } from '../dev/exampleFiles';
import { Receiver, answerBusy, trickle } from '../test/support/receiver';
import { ORDER_RUN } from '../test/support/orderExample';
import { executionOf, outputItems, storedExecutions } from './support/execution';
import { httpRequestWorkflow, itemsWorkflow } from './support/workflows';

const ID = 'e2e-automation';
const SECRET = 'e2e_secret_4f1c9a7b2d';
const WRONG_SECRET = 'e2e_secret_not_the_right_one';

for (const app of Object.values(APPS)) {
	describe(`${app.id}: workflows run by the real n8n app (n8n execute)`, () => {
		const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
		let n8n: N8nInstance;
		const examples = readExamples();

		const execute = async (workflow: WorkflowFile) =>
			await n8n.cli(['execute', `--id=${workflow.id}`, '--rawOutput']);

		const good = { id: 'e2eGoodCred00001', name: 'E2E automation webhook' };
		const wrong = { id: 'e2eWrongCred0001', name: 'E2E webhook with a wrong secret' };
		const continueOnFail = itemsWorkflow({
			id: workflowId('continueOnFail'),
			name: 'Three items, the middle one without a message',
			items: [
				{ message: 'First of three', position: 1 },
				{ message: '', position: 2 },
				{ message: 'Third of three', position: 3 },
			],
			credential: good,
			settings: { onError: 'continueRegularOutput' },
		});
		const padded = { id: 'e2ePaddedCred001', name: 'E2E webhook, secret pasted with a space' };
		const paddedSecret = itemsWorkflow({
			id: workflowId('paddedSecret'),
			name: 'Secret with surrounding whitespace',
			items: [{ message: 'Never sent', position: 1 }],
			credential: padded,
		});
		const trickling = { id: 'e2eTrickleCred01', name: 'E2E webhook that trickles its answer' };
		const trickled = itemsWorkflow({
			id: workflowId('trickled'),
			name: 'An answer that never ends, Timeout 2000 ms',
			items: [{ message: 'Answered slowly', position: 1 }],
			credential: trickling,
			options: { timeout: 2000 },
		});
		const trickler = new Receiver({ respond: trickle({ everyMs: 200 }) });
		const wrongSecret = itemsWorkflow({
			id: workflowId('wrongSecret'),
			name: 'Signed with a wrong secret',
			items: [{ message: 'Never accepted', position: 1 }],
			credential: wrong,
		});

		// A service that answers 503: the signature it refused stays valid (§5.7).
		const busy = { id: 'e2eBusyCred00001', name: 'E2E webhook of a busy service' };
		const busyService = new Receiver({ respond: answerBusy });
		let busyHttpRequest: WorkflowFile;
		const busyNode = itemsWorkflow({
			id: workflowId('nodeBusyService'),
			name: 'Trigger Automation, refused with 503',
			items: [{ message: 'Refused with 503', position: 1 }],
			credential: busy,
		});

		beforeAll(async () => {
			await simulator.start();
			await trickler.start();
			await busyService.start();
			busyHttpRequest = httpRequestWorkflow(
				workflowId('httpBusyService'),
				busyService.webhookUrl(ID),
				busy,
			);
			n8n = new N8nInstance(app);
			n8n.installPackage();
			const data = { webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET };
			await n8n.import('credentials', [
				...examples.flatMap(({ workflow }) => credentialsOf(workflow, data)),
				{ ...good, type: CREDENTIAL_TYPE, data },
				{
					...wrong,
					type: CREDENTIAL_TYPE,
					data: { ...data, signingSecret: WRONG_SECRET },
				},
				{
					...padded,
					type: CREDENTIAL_TYPE,
					data: { ...data, signingSecret: ` ${SECRET}` },
				},
				{
					...trickling,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: trickler.webhookUrl('e2e-trickle'), signingSecret: SECRET },
				},
				{
					...busy,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: busyService.webhookUrl(ID), signingSecret: SECRET },
				},
			]);
			await n8n.import('workflow', [
				...examples.map(({ file, workflow }) => ({ ...workflow, id: workflowId(file) })),
				continueOnFail,
				wrongSecret,
				paddedSecret,
				trickled,
				busyHttpRequest,
				busyNode,
			]);
		});

		afterAll(async () => {
			await simulator.stop();
			await trickler.stop();
			await busyService.stop();
			n8n?.dispose();
		});

		it('n8n loads the package from its community-nodes folder', () => {
			expect(n8n.log).not.toMatch(/Error loading package "n8n-nodes-automation-service"/);
			expect(n8n.log).not.toMatch(/Unrecognized node type/);
		});

		it('order-to-automation.json: Manual Trigger → Edit Fields → node creates one verified run with the mapped context', async () => {
			const before = simulator.runs(ID).length;
			const order = examples.find((e) => e.file === 'order-to-automation.json')!;
			const run = executionOf(await execute({ ...order.workflow, id: workflowId(order.file) }));
			expect(run.status).toBe('success');
			const runs = simulator.runs(ID);
			expect(runs).toHaveLength(before + 1);
			const recorded = runs[runs.length - 1];
			expect(recorded.message).toBe(ORDER_RUN.message);
			expect(recorded.context).toEqual(ORDER_RUN.context);
			const [item] = outputItems(run);
			expect(item.json).toMatchObject({ statusCode: 202, signedAt: recorded.signedAt });
			expect((item.json.response as { runId: string }).runId).toBe(recorded.runId);
		});

		it('On Error "Continue": the bad item becomes an error item at its index, the two good ones each create one run', async () => {
			const before = simulator.runs(ID).length;
			const run = executionOf(await execute(continueOnFail));
			expect(run.status).toBe('success');
			const runs = simulator.runs(ID).slice(before);
			expect(runs.map((r) => r.message)).toEqual(['First of three', 'Third of three']);
			expect(runs.map((r) => r.context)).toEqual([{ position: 1 }, { position: 3 }]);
			const items = outputItems(run);
			expect(items).toHaveLength(3);
			expect(items[0].json).toMatchObject({ statusCode: 202 });
			expect(items[2].json).toMatchObject({ statusCode: 202 });
			expect(items[1]).toMatchObject({
				json: { error: expect.stringMatching(/message is empty/i), details: { itemIndex: 1 } },
				pairedItem: { item: 1 },
			});
		});

		it("a wrong signing secret: the execution fails with the service's refusal, no run, the secret in no output", async () => {
			const before = simulator.runs(ID).length;
			const result = await execute(wrongSecret);
			const run = executionOf(result);
			expect(run.status).toBe('error');
			expect(simulator.runs(ID)).toHaveLength(before);
			expect(run.data.resultData.error?.message).toBe('The service rejected the signature (403)');
			expect(run.data.resultData.error?.description).toMatch(/signing secret/);
			for (const text of [result.stdout, result.stderr, n8n.log]) {
				expect(text).not.toContain(WRONG_SECRET);
				expect(text).not.toContain(SECRET);
			}
		});

		it("a refused request: n8n's HTTP Request node stores X-Service-Signature in the execution's error, and that header with the body starts a run when sent again; the node stores neither", async () => {
			const printed = {
				httpRequest: await execute(busyHttpRequest),
				node: await execute(busyNode),
			};
			expect(busyService.requests).toHaveLength(2);
			const stored = await storedExecutions(n8n);
			const [ofHttpRequest] = stored.filter((e) => e.workflowId === busyHttpRequest.id);
			const [ofNode] = stored.filter((e) => e.workflowId === busyNode.id);
			expect([ofHttpRequest?.status, ofNode?.status]).toEqual(['error', 'error']);
			const SIGNATURE = /t=\d+,v1=[0-9a-f]{64}/;

			// The HTTP Request node: its error keeps the request it sent, headers included, and the
			// body's bytes (a serialized Buffer).
			const request = ofHttpRequest.data.resultData.error?.context?.request as {
				headers: Record<string, string>;
				body: { type: 'Buffer'; data: number[] };
			};
			const signature = request.headers['X-Service-Signature'];
			expect(signature).toMatch(SIGNATURE);
			const body = Buffer.from(request.body.data).toString('utf8');
			expect(body).toBe(busyService.requests[0].body.toString('utf8'));
			expect(printed.httpRequest.stdout + printed.httpRequest.stderr).toMatch(SIGNATURE);
			// Sent again with that body within the 5 minutes, it starts a run.
			const before = simulator.runs(ID).length;
			const replay = await fetch(simulator.webhookUrl(ID), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature },
				body,
			});
			expect(replay.status).toBe(202);
			expect(simulator.runs(ID)).toHaveLength(before + 1);
			expect(simulator.runs(ID)[before].message).toBe('Sent by the HTTP Request node');

			// Trigger Automation: neither in what it stored nor in what n8n printed.
			expect(ofNode.data.resultData.error?.message).toBe(
				'The service failed to handle the request (503)',
			);
			expect(ofNode.text).not.toMatch(/x-service-signature|v1=[0-9a-f]{64}/i);
			expect(printed.node.stdout + printed.node.stderr).not.toMatch(
				/x-service-signature|v1=[0-9a-f]{64}/i,
			);
			for (const text of [ofHttpRequest.text, ofNode.text]) expect(text).not.toContain(SECRET);
		});

		it('a secret pasted with a space: the execution fails saying so, before anything is sent', async () => {
			const before = simulator.requests;
			const result = await execute(paddedSecret);
			const run = executionOf(result);
			expect(run.status).toBe('error');
			expect(simulator.requests).toBe(before);
			expect(run.data.resultData.error?.message).toMatch(/starts or ends with whitespace/);
			expect(result.stdout + result.stderr).not.toContain(SECRET);
		});

		it('Options → Timeout covers the whole answer: a body that trickles without end fails the item after it', async () => {
			const run = executionOf(await execute(trickled));
			expect(run.status).toBe('error');
			expect(run.data.resultData.error?.message).toBe('The service did not answer within 2000 ms');
			// One request, and the node hung up on it: the server would otherwise drip without end.
			expect(trickler.requests.map((request) => request.answer)).toEqual(['closed']);
		});
	});
}
