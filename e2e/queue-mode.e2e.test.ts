/**
 * n8n 2.x in queue mode, for real: one main and two workers (`n8n worker`) on Redis and PostgreSQL
 * from Debian, the package installed on each as a community package. Production webhooks start
 * several executions at once; each splits its items, loops over them with n8n's Loop Over Items and
 * triggers one run per item, with Retry On Fail on and failures injected into first attempts.
 * Every item must create exactly one run, and both workers must have run executions. Then n8n's
 * Retry of a failed execution, asked of the main through the REST API, runs on a worker, which has
 * only the saved execution to know what the service accepted: again one run per item. A burst of
 * executions of Trigger Automation at its defaults meets a simulator limited to a few requests/s:
 * every item is accepted exactly once, no execution fails. And a manual run (the editor's Execute
 * Workflow), with and without Preview Only, runs where n8n puts it.
 * The whole suite runs twice: with n8n 2.x's default, manual executions on the main, and with
 * OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true (n8n 3.0's behaviour), manual executions on workers.
 * Alone: `npm run test:queue` (after `bash e2e/install.sh`).
 */
import type { ServerResponse } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { WorkflowFile } from '../dev/exampleFiles';
import { CREDENTIAL_TYPE, workflowId } from '../dev/exampleFiles';
import { APPS, N8nInstance, packPackage, setUpOwner } from '../dev/n8nApp';
import { NODE_TYPE } from '../dev/packageNames';
import { AutomationServiceSimulator } from '../dev/simulator';
import type { ReceivedRequest } from '../test/support/receiver';
import { Receiver, answer, bodyJson, specViolations } from '../test/support/receiver';
import { QueueServices } from './support/queueServices';
import { Rest } from './support/rest';
import { itemsWorkflow, webhookItemsWorkflow, webhookNode } from './support/workflows';

const SECRET = 'queue_mode_secret_8d2f6a';
const PATH = '/webhooks/cloud/auto-queue';
const EXECUTIONS_PER_WORKFLOW = 8;
const ITEMS_PER_EXECUTION = 20;
const BATCH = 5;
const TIMEOUT_MS = 1500;
const CREDENTIAL = { id: 'queueCredential1', name: 'Queue-mode automation webhook' };
/** Webhook → Split Out → Trigger Automation at its defaults, for n8n's Retry. */
const RETRY_WORKFLOW = workflowId('queueRetry');
const RETRY_ITEMS = 5;
/** The item of the "retry" flow that the service answers 500 the first time. */
const RETRY_FAILING = 2;

/**
 * The burst: this many webhook calls at once, each an execution of this many items, of Webhook →
 * Split Out → Trigger Automation at its defaults (Adaptive sending, Retries When Not Accepted 5, On
 * Error: stop), at a simulator that accepts PER_SECOND requests/s and answers the rest 429 with
 * Retry-After: 1. 48 items at 5/s: about ten seconds at best, and far more than one second's worth
 * at once, so both workers' windows meet 429s.
 */
const BURST_CALLS = 24;
const BURST_ITEMS = 2;
const PER_SECOND = 5;
const BURST_WORKFLOW = workflowId('queueBurst');
const BURST_AUTOMATION = { id: 'auto-burst', secret: 'queue_burst_secret_4c1e7b' };
const BURST_CREDENTIAL = { id: 'queueBurstCredential1', name: 'Queue-mode burst automation' };
/** Manual Trigger → Items → Split Out → Trigger Automation, sending and Preview Only. */
const MANUAL_WORKFLOW = workflowId('queueManual');
const PREVIEW_WORKFLOW = workflowId('queuePreview');
const MANUAL_AUTOMATION = { id: 'auto-manual', secret: 'queue_manual_secret_9a3d20' };
const MANUAL_CREDENTIAL = { id: 'queueManualCredential1', name: 'Queue-mode manual automation' };
const MANUAL_ITEMS = [0, 1, 2].map((position) => ({ message: `manual-${position}`, position }));

/**
 * n8n 2.x runs manual executions on the main even in queue mode, unless told to offload them to
 * workers, as n8n 3.0 always will. The main decides (it enqueues them); workers get it too, as a
 * deployment would set it on every instance. Nothing else is needed in 2.41.1: the worker runs the
 * manual execution through the same job processor and sends the editor's progress via the main.
 */
const MODES = [
	{ name: 'manual executions on the main', offload: false },
	{ name: 'manual executions offloaded to workers', offload: true },
];

/**
 * The failure injected into an attempt of an item. "Stop" workflows stop on an error, so n8n retries
 * after any failed item; "continue" ones go on, and n8n retries only when the first output item is
 * an error, so there an iteration's first item fails once (and is retried), and another item fails
 * every time: it ends as an error item without a run, and the next iterations must still send all
 * of theirs.
 */
function faultFor(flow: string, item: number, attempt: number): Fault | undefined {
	if (flow === 'retry') return item === RETRY_FAILING && attempt === 0 ? '500' : undefined;
	if (flow === 'stop') {
		if (attempt > 0) return undefined;
		if (item % 7 === 3) return '500';
		if (item % 11 === 5) return 'timeout';
		return undefined;
	}
	if (item % (2 * BATCH) === 7) return '500';
	if (attempt > 0) return undefined;
	if (item % (2 * BATCH) === 0) return '500';
	if (item % (2 * BATCH) === BATCH) return 'drop';
	return undefined;
}

/** Items that never get a run: they fail on every attempt. */
const alwaysFails = (flow: string, item: number) => faultFor(flow, item, 99) !== undefined;

/**
 * Webhook (body.items) → Split Out → Loop Over Items ⇄ Trigger Automation (Retry On Fail). Once the
 * loop is done, the Webhook answers with Loop Over Items' done output: every output item of Trigger
 * Automation, in item order.
 */
function queueWorkflow(flow: 'stop' | 'continue'): WorkflowFile {
	const back = [{ node: 'Loop Over Items', type: 'main', index: 0 }];
	return {
		id: workflowId(`queue${flow}`),
		name: `Queue mode: ${flow}`,
		nodes: [
			webhookNode(`${flow}-webhook`, `queue-${flow}`),
			{
				id: `${flow}-split`,
				name: 'One item each',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [200, 0],
				parameters: { fieldToSplitOut: 'body.items', options: {} },
			},
			{
				id: `${flow}-loop`,
				name: 'Loop Over Items',
				type: 'n8n-nodes-base.splitInBatches',
				typeVersion: 3,
				position: [400, 0],
				parameters: { batchSize: BATCH, options: {} },
			},
			{
				id: `${flow}-trigger`,
				name: 'Trigger Automation',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [600, 0],
				parameters: { message: '={{ $json.m }}', options: { timeout: TIMEOUT_MS } },
				credentials: { [CREDENTIAL_TYPE]: CREDENTIAL },
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 200,
				...(flow === 'continue' ? { onError: 'continueRegularOutput' } : {}),
			},
			{
				id: `${flow}-done`,
				name: 'All outputs',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [600, -200],
				parameters: {},
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'One item each', type: 'main', index: 0 }]] },
			'One item each': { main: [[{ node: 'Loop Over Items', type: 'main', index: 0 }]] },
			'Loop Over Items': {
				main: [
					[{ node: 'All outputs', type: 'main', index: 0 }],
					[{ node: 'Trigger Automation', type: 'main', index: 0 }],
				],
			},
			'Trigger Automation': { main: [back] },
		},
		settings: { executionOrder: 'v1' },
	};
}

const FLOWS = ['stop', 'continue'] as const;
type Fault = '500' | 'timeout' | 'drop';

// A describe per mode (rather than describe.each, whose titles quote the name), each its own cluster.
for (const { name: mode, offload } of MODES) {
	describe(`n8n 2.x in queue mode, ${mode}: one main, two workers, Redis and PostgreSQL`, () => {
		const services = new QueueServices();
		const receiver = new Receiver();
		const simulator = new AutomationServiceSimulator({
			automations: [BURST_AUTOMATION, MANUAL_AUTOMATION],
			perSecond: PER_SECOND,
		});
		let main: N8nInstance;
		let workers: N8nInstance[] = [];
		let rest: Rest;

		const messageOf = (request: ReceivedRequest) => String(bodyJson(request).data.message);

		function respond(request: ReceivedRequest, res: ServerResponse) {
			const message = messageOf(request);
			const attempt = receiver.requests.filter((r) => messageOf(r) === message).length - 1;
			const [flow, , item] = message.split('-');
			const fault = faultFor(flow, Number(item.slice(1)), attempt);
			if (fault === '500') {
				answer(res, 500, 'busy');
			} else if (fault === 'timeout') {
				// No answer: the service never created these runs.
				receiver.later(TIMEOUT_MS * 3, () => res.destroy());
			} else if (fault === 'drop') {
				res.destroy();
			} else {
				answer(res, 202, JSON.stringify({ runId: `run-${message}` }), {
					'Content-Type': 'application/json',
				});
			}
		}

		beforeAll(async () => {
			await Promise.all([services.start(), receiver.start(), simulator.start()]);
			receiver.respondWith(respond);
			const app = APPS['n8n-2'];
			const env = {
				...services.n8nEnv,
				N8N_ENCRYPTION_KEY: 'queue-mode-key-not-secret',
				...(offload ? { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' } : {}),
			};
			const tarball = packPackage();
			main = new N8nInstance(app, { env });
			workers = [new N8nInstance(app, { env }), new N8nInstance(app, { env })];
			// Installed on every instance: a worker loads nodes from its own user folder.
			for (const instance of [main, ...workers]) instance.installPackage(tarball);
			await main.import('credentials', [
				{
					...CREDENTIAL,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: `${receiver.url}${PATH}`, signingSecret: SECRET },
				},
				...[
					{ credential: BURST_CREDENTIAL, automation: BURST_AUTOMATION },
					{ credential: MANUAL_CREDENTIAL, automation: MANUAL_AUTOMATION },
				].map(({ credential, automation }) => ({
					...credential,
					type: CREDENTIAL_TYPE,
					data: {
						webhookUrl: simulator.webhookUrl(automation.id),
						signingSecret: automation.secret,
					},
				})),
			]);
			await main.import('workflow', [
				...FLOWS.map((flow) => queueWorkflow(flow)),
				webhookItemsWorkflow({
					id: RETRY_WORKFLOW,
					name: 'Queue mode: five items for the Retry',
					path: 'queue-retry',
					credential: CREDENTIAL,
				}),
				// Only the message is mapped: the node's defaults are what a burst meets.
				webhookItemsWorkflow({
					id: BURST_WORKFLOW,
					name: 'Queue mode: a burst at a rate-limited service',
					path: 'queue-burst',
					credential: BURST_CREDENTIAL,
				}),
				itemsWorkflow({
					id: MANUAL_WORKFLOW,
					name: 'Queue mode: a manual run',
					items: MANUAL_ITEMS,
					credential: MANUAL_CREDENTIAL,
				}),
				itemsWorkflow({
					id: PREVIEW_WORKFLOW,
					name: 'Queue mode: a manual run, Preview Only',
					items: MANUAL_ITEMS,
					credential: MANUAL_CREDENTIAL,
					options: { previewOnly: true },
				}),
			]);
			const published = [...FLOWS.map((flow) => workflowId(`queue${flow}`)), RETRY_WORKFLOW];
			for (const id of [...published, BURST_WORKFLOW]) await main.activate(id);
			await main.start();
			rest = new Rest(main, await setUpOwner(main));
			await Promise.all(
				workers.map((worker) => worker.start(180_000, ['worker', '--concurrency=5'])),
			);
		});

		afterAll(async () => {
			await Promise.all([main, ...workers].map((instance) => instance?.stop()));
			for (const instance of [main, ...workers]) instance?.dispose();
			await Promise.all([receiver.stop(), simulator.stop(), services.stop()]);
		});

		/** The executions a worker's log says it started. */
		const startedBy = (worker: N8nInstance) =>
			new Set([...worker.log.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]));

		/** The executions (of one workflow, or all), once `count` of them are saved as finished. */
		async function finishedExecutions(count: number, workflow?: string): Promise<string[][]> {
			const where = workflow === undefined ? '' : ` where "workflowId" = '${workflow}'`;
			const deadline = Date.now() + 240_000;
			for (;;) {
				const rows = services.query(`select id, status from execution_entity${where} order by id;`);
				const finished = rows.filter(([, status]) => !['new', 'running'].includes(status));
				if (finished.length === count) return rows;
				if (Date.now() > deadline)
					throw new Error(`executions not finished: ${JSON.stringify(rows)}`);
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}

		it('executions started at once spread over both workers; every item creates exactly one run and outputs its own answer', async () => {
			const started = Date.now();
			// Items that must get exactly one run, and items that fail every attempt (no run, no retry).
			const expected: string[] = [];
			const failing: string[] = [];
			const calls = FLOWS.flatMap((flow) =>
				Array.from({ length: EXECUTIONS_PER_WORKFLOW }, (_, execution) => {
					const items = Array.from({ length: ITEMS_PER_EXECUTION }, (_, item) => ({
						m: `${flow}-e${execution}-i${item}`,
					}));
					expected.push(
						...items.filter((_, item) => !alwaysFails(flow, item)).map((item) => item.m),
					);
					failing.push(...items.filter((_, item) => alwaysFails(flow, item)).map((item) => item.m));
					const sent = fetch(`${main.baseUrl}/webhook/queue-${flow}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ items }),
					});
					return { flow, messages: items.map((item) => item.m), sent };
				}),
			);
			// Each output item must be its own item's outcome: the run the service created for that very
			// message, or, for an item that fails every attempt, an error item.
			const wrongOutputs: string[] = [];
			for (const { flow, messages, sent } of calls) {
				const response = await sent;
				expect(response.status).toBe(200);
				const outputs = (await response.json()) as Array<{
					error?: string;
					response?: { runId?: string };
				}>;
				expect(outputs).toHaveLength(messages.length);
				messages.forEach((message, item) => {
					const own = alwaysFails(flow, item)
						? typeof outputs[item]?.error === 'string'
						: outputs[item]?.response?.runId === `run-${message}`;
					if (!own) wrongOutputs.push(`${message}: ${JSON.stringify(outputs[item])}`);
				});
			}
			const executions = calls.length;

			// Done when every execution is saved as finished.
			const rows = await finishedExecutions(executions);
			const seconds = (Date.now() - started) / 1000;

			const ranBy = workers.map(startedBy);
			const accepted = new Map<string, number>();
			for (const request of receiver.requests) {
				expect(specViolations(request, SECRET, PATH)).toEqual([]);
				if (request.answer === 202) {
					const message = messageOf(request);
					accepted.set(message, (accepted.get(message) ?? 0) + 1);
				}
			}
			const duplicates = [...accepted].filter(([, count]) => count > 1).map(([message]) => message);
			const lost = expected.filter((message) => !accepted.has(message));
			const failedAttempts = receiver.requests.filter((r) => r.answer !== 202).length;
			const sentToFailing = failing.map(
				(message) => receiver.requests.filter((r) => messageOf(r) === message).length,
			);

			console.log(
				[
					`queue mode (${mode}): n8n ${main.version}, 1 main + ${workers.length} workers (concurrency 5 each)`,
					`items: ${expected.length + failing.length} in ${executions} executions (${FLOWS.join(', ')} × ${EXECUTIONS_PER_WORKFLOW}); ${failing.length} of them fail every attempt`,
					`executions by worker: ${ranBy.map((ids, i) => `worker ${i + 1}: ${ids.size}`).join(', ')}`,
					`execution statuses: ${JSON.stringify(countBy(rows.map(([, status]) => status)))}`,
					`requests: ${receiver.requests.length}, of them failed: ${failedAttempts}`,
					`runs created: ${[...accepted.values()].reduce((a, b) => a + b, 0)}, duplicates: ${duplicates.length}, lost: ${lost.length}`,
					`output items that are not their own item's outcome: ${wrongOutputs.length}`,
					`time from the first webhook call to the last execution saved: ${seconds.toFixed(1)} s`,
				].join('\n'),
			);

			expect(rows.map(([, status]) => status)).toEqual(Array(executions).fill('success'));
			expect(ranBy[0].size + ranBy[1].size).toBe(executions);
			expect(ranBy[0].size).toBeGreaterThan(0);
			expect(ranBy[1].size).toBeGreaterThan(0);
			expect(failedAttempts).toBeGreaterThan(0);
			expect(duplicates).toEqual([]);
			expect(lost).toEqual([]);
			expect(wrongOutputs).toEqual([]);
			expect(accepted.size).toBe(expected.length);
			// Each was sent by both tries of its iteration: the first (whose first item dropped, so n8n
			// retried) and the retry (whose first item was accepted, so n8n did not try again).
			expect(sentToFailing).toEqual(failing.map(() => 2));
		});

		it("n8n's Retry of a failed execution, asked of the main through the REST API, runs on a worker and creates exactly one run per item", async () => {
			const messages = Array.from({ length: RETRY_ITEMS }, (_, item) => `retry-e0-i${item}`);
			const before = receiver.requests.length;
			const called = await fetch(`${main.baseUrl}/webhook/queue-retry`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ items: messages.map((m) => ({ m })) }),
			});
			await called.text();
			const failed = await rest.endedExecution(RETRY_WORKFLOW, []);
			expect(failed.status).toBe('error');
			const afterFailure = receiver.requests.length;
			const acceptedFirst = receiver.requests
				.slice(before, afterFailure)
				.filter((r) => r.answer === 202)
				.map(messageOf);
			expect(acceptedFirst).not.toContain(messages[RETRY_FAILING]);
			expect(failed.data.resultData.error?.description).toContain(
				`The service accepted ${acceptedFirst.length} other item${acceptedFirst.length === 1 ? '' : 's'}: n8n's Retry of this execution passes`,
			);

			const retriedId = await rest.retry(failed.id, false);
			const retried = await rest.execution(retriedId);
			const ranOn = workers.map((worker) =>
				[...worker.log.matchAll(/Worker started execution (\d+)/g)].some((m) => m[1] === retriedId),
			);
			const resent = receiver.requests.slice(afterFailure).map(messageOf);
			console.log(
				`queue mode Retry (${mode}): the failed execution ${failed.id} had ${acceptedFirst.length} of ${RETRY_ITEMS} items accepted; its retry ${retriedId} ran on worker ${ranOn.indexOf(true) + 1}, sent ${resent.length} and ended ${retried.status}`,
			);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry', retryOf: failed.id });
			expect(ranOn.filter(Boolean)).toHaveLength(1);
			expect(resent.sort()).toEqual(messages.filter((m) => !acceptedFirst.includes(m)).sort());
			const requests = receiver.requests.slice(before);
			for (const request of requests) expect(specViolations(request, SECRET, PATH)).toEqual([]);
			const acceptedOf = (message: string) =>
				requests.filter((r) => r.answer === 202 && messageOf(r) === message).length;
			expect(messages.map(acceptedOf)).toEqual(messages.map(() => 1));
			const outputs = retried.data.resultData.runData['Trigger Automation'][0].data!.main[0];
			expect(outputs.map(({ json }) => (json.response as { runId?: string }).runId)).toEqual(
				messages.map((m) => `run-${m}`),
			);
		});

		it('a burst of executions at a service limited to a few requests/s, the node at its defaults: every item accepted once, each output its own run', async () => {
			const started = Date.now();
			const calls = Array.from({ length: BURST_CALLS }, (_, call) => {
				const messages = Array.from(
					{ length: BURST_ITEMS },
					(_, item) => `burst-c${call}-i${item}`,
				);
				const sent = fetch(`${main.baseUrl}/webhook/queue-burst`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ items: messages.map((m) => ({ m })) }),
				});
				return { messages, sent };
			});
			const answers: Array<{ status: number; text: string; messages: string[] }> = [];
			for (const { messages, sent } of calls) {
				const response = await sent;
				answers.push({ status: response.status, text: await response.text(), messages });
			}
			const rows = await finishedExecutions(BURST_CALLS, BURST_WORKFLOW);
			const seconds = (Date.now() - started) / 1000;

			const runs = simulator.runs(BURST_AUTOMATION.id);
			const runsOf = new Map<string, string[]>();
			for (const run of runs)
				runsOf.set(run.message, [...(runsOf.get(run.message) ?? []), run.runId]);
			const messages = calls.flatMap((call) => call.messages);
			const duplicates = [...runsOf]
				.filter(([, ids]) => ids.length > 1)
				.map(([message]) => message);
			const lost = messages.filter((message) => !runsOf.has(message));
			// Each output item must be its own item's run: the one the simulator created for its message.
			const notOwn: string[] = [];
			for (const { status, text, messages: sent } of answers) {
				// A failed execution (n8n answers its webhook call with 500) is in `failed` below.
				if (status !== 200) continue;
				const outputs = JSON.parse(text) as Array<{
					error?: unknown;
					response?: { runId?: string };
				}>;
				sent.forEach((message, item) => {
					const runId = outputs[item]?.response?.runId;
					if (runId === undefined || runsOf.get(message)?.[0] !== runId)
						notOwn.push(`${message}: ${JSON.stringify(outputs[item])}`);
				});
				if (outputs.length !== sent.length)
					notOwn.push(`${sent.join(', ')}: ${outputs.length} items`);
			}
			// A failed execution's error: the node's message says what the service answered.
			const failed = await Promise.all(
				rows
					.filter(([, status]) => status !== 'success')
					.map(async ([id]) => {
						const { error } = (await rest.execution(id)).data.resultData;
						return `execution ${id}: ${error?.message} ${error?.description ?? ''}`;
					}),
			);
			const ids = rows.map(([id]) => id);
			const ranBy = workers.map(startedBy).map((started) => ids.filter((id) => started.has(id)));

			console.log(
				[
					`queue mode burst (${mode}): ${messages.length} items in ${BURST_CALLS} executions (${BURST_ITEMS} each) at a service limited to ${PER_SECOND} requests/s, the node at its defaults`,
					`executions by worker: ${ranBy.map((ran, i) => `worker ${i + 1}: ${ran.length}`).join(', ')}; statuses: ${JSON.stringify(countBy(rows.map(([, status]) => status)))}`,
					`429s seen by the simulator: ${simulator.tooMany}; runs created: ${runs.length}, duplicates: ${duplicates.length}, lost: ${lost.length}; output items not their own run: ${notOwn.length}`,
					`time from the first webhook call to the last execution saved: ${seconds.toFixed(1)} s`,
					// What went wrong, if anything: the webhook's answer carries the node's error.
					...notOwn.slice(0, 3),
					...failed.slice(0, 3),
				].join('\n'),
			);

			// Each worker has its own window; the first re-send after each pause is a different item,
			// so the turn-aways of a worker whose pause ends after the other's are spread over its items
			// (docs/queue-mode.md): every item accepted once.
			expect(failed).toEqual([]);
			expect(lost).toEqual([]);
			expect(rows.map(([, status]) => status)).toEqual(rows.map(() => 'success'));
			expect(ranBy[0].length + ranBy[1].length).toBe(BURST_CALLS);
			expect(ranBy[0].length).toBeGreaterThan(0);
			expect(ranBy[1].length).toBeGreaterThan(0);
			// The limit was met, or this test proves nothing about it.
			expect(simulator.tooMany).toBeGreaterThan(0);
			expect(duplicates).toEqual([]);
			expect(notOwn).toEqual([]);
		});

		it(
			offload
				? "a manual run (the editor's Execute Workflow) runs on a worker and creates one run per item"
				: "a manual run (the editor's Execute Workflow) runs on the main and creates one run per item",
			async () => {
				const id = await rest.runManually(MANUAL_WORKFLOW);
				const execution = await rest.ended(id);
				const ranOn = workers.map((worker) => startedBy(worker).has(id));
				const runs = simulator.runs(MANUAL_AUTOMATION.id);
				const outputs = execution.data.resultData.runData['Trigger Automation']?.[0]?.data?.main[0];
				console.log(
					`queue mode manual run (${mode}): execution ${id} ran on ${ranOn.includes(true) ? `worker ${ranOn.indexOf(true) + 1}` : 'the main'}, ended ${execution.status}; runs created: ${runs.length} for ${MANUAL_ITEMS.length} items`,
				);
				expect(execution).toMatchObject({ status: 'success', mode: 'manual' });
				expect(ranOn.filter(Boolean)).toHaveLength(offload ? 1 : 0);
				expect(runs.map((run) => run.message)).toEqual(MANUAL_ITEMS.map((item) => item.message));
				expect(runs.map((run) => run.context)).toEqual(
					MANUAL_ITEMS.map((item) => ({ position: item.position })),
				);
				expect(outputs?.map(({ json }) => (json.response as { runId?: string }).runId)).toEqual(
					runs.map((run) => run.runId),
				);
			},
		);

		it(
			offload
				? 'a manual run with Preview Only runs on a worker: its items are previews, the service receives nothing'
				: 'a manual run with Preview Only runs on the main: its items are previews, the service receives nothing',
			async () => {
				const requestsBefore = simulator.requests;
				const runsBefore = simulator.runs(MANUAL_AUTOMATION.id).length;
				const id = await rest.runManually(PREVIEW_WORKFLOW);
				const execution = await rest.ended(id);
				const ranOn = workers.map((worker) => startedBy(worker).has(id));
				const outputs = execution.data.resultData.runData['Trigger Automation']?.[0]?.data?.main[0];
				const previews = (outputs ?? []).map(({ json }) => json);
				console.log(
					`queue mode Preview Only (${mode}): execution ${id} ran on ${ranOn.includes(true) ? `worker ${ranOn.indexOf(true) + 1}` : 'the main'}, ended ${execution.status}; ${previews.filter((p) => p.preview === true).length} previews, requests to the service: ${simulator.requests - requestsBefore}`,
				);
				expect(execution).toMatchObject({ status: 'success', mode: 'manual' });
				expect(ranOn.filter(Boolean)).toHaveLength(offload ? 1 : 0);
				expect(simulator.requests).toBe(requestsBefore);
				expect(simulator.runs(MANUAL_AUTOMATION.id)).toHaveLength(runsBefore);
				expect(previews).toHaveLength(MANUAL_ITEMS.length);
				previews.forEach((preview, item) => {
					expect(preview).toMatchObject({
						preview: true,
						automationId: MANUAL_AUTOMATION.id,
						url: simulator.webhookUrl(MANUAL_AUTOMATION.id),
					});
					expect(JSON.parse(String(preview.body))).toEqual({
						data: {
							message: MANUAL_ITEMS[item].message,
							context: { position: MANUAL_ITEMS[item].position },
						},
					});
					// The signature is shortened, and the secret appears nowhere.
					expect(JSON.stringify(preview)).not.toContain(MANUAL_AUTOMATION.secret);
				});
			},
		);
	});
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}
