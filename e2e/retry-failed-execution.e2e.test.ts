/**
 * n8n's Retry of a failed execution, for real: a production execution (an active workflow's
 * Webhook) of five items fails at the third, which the service answers 500 once; the owner retries
 * it through the REST API as the Executions list does, with the original workflow and with the
 * currently saved one, and through the public API. The retry must pass on what the service
 * accepted and send only the others: exactly one accepted request per item, every request validly
 * signed, and the retried execution's output has all five items, each with its own run, in item
 * order. A manual execution (the editor's Execute Workflow, through the same REST API) is saved by
 * default and retried the same way; executing the workflow again is a new execution, which sends
 * every item.
 */
import type { ServerResponse } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CREDENTIAL_TYPE, workflowId } from '../dev/exampleFiles';
import type { N8nInstance } from '../dev/n8nApp';
import { APPS } from '../dev/n8nApp';
import type { ReceivedRequest } from '../test/support/receiver';
import { Receiver, answer, bodyJson, specViolations } from '../test/support/receiver';
import { AppUnderTest } from './support/appUnderTest';
import type { Rest, RestExecution } from './support/rest';
import { itemsWorkflow, webhookItemsWorkflow } from './support/workflows';

const SECRET = 'e2e_retry_secret_5b7e1d';
const PATH = '/webhooks/cloud/e2e-retry';
const CREDENTIAL = { id: 'e2eRetryCred0001', name: 'E2E automation webhook for the Retry' };
const WORKFLOW = workflowId('retryFailed');
const MANUAL = workflowId('retryManual');
const ITEMS = 5;
/** The item the service answers 500 the first time: it may have created a run, n8n cannot know. */
const FAILING = 2;

const messageOf = (request: ReceivedRequest) => bodyJson(request).data.message;

/** The first output's items of the node's first pass. */
const outputOf = (execution: RestExecution) =>
	execution.data.resultData.runData['Trigger Automation']?.[0]?.data?.main[0] ?? [];

for (const app of Object.values(APPS)) {
	describe(`${app.id}: n8n's Retry of a failed execution, through the REST API`, () => {
		const receiver = new Receiver();
		const underTest = new AppUnderTest();
		let n8n: N8nInstance;
		let rest: Rest;

		/** 500 to the first request of `<prefix>-2`, 202 with a run id of its own to any other. */
		function respond(request: ReceivedRequest, res: ServerResponse) {
			const message = messageOf(request);
			const earlier = receiver.requests.filter((r) => messageOf(r) === message).length - 1;
			// In the chain test, the failing item fails in the execution and in its first Retry.
			const failures = message.startsWith('chain-') ? 2 : 1;
			if (message.endsWith(`-${FAILING}`) && earlier < failures) return answer(res, 500, 'busy');
			answer(res, 202, JSON.stringify({ runId: `run-${message}` }), {
				'Content-Type': 'application/json',
			});
		}

		/** Calls the production webhook with one item per message; n8n answers once it has ended. */
		async function callWebhook(messages: string[]): Promise<void> {
			const deadline = Date.now() + 30_000;
			// n8n registers active workflows' webhooks just after its editor answers: until then, 404
			// (and no execution).
			for (;;) {
				const response = await fetch(`${n8n.baseUrl}/webhook/e2e-retry`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ items: messages.map((m) => ({ m })) }),
				});
				await response.text();
				if (response.status !== 404 || Date.now() > deadline) return;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}

		/** The accepted requests by message. */
		function acceptedByMessage(requests = receiver.requests): Map<string, number> {
			const accepted = new Map<string, number>();
			for (const request of requests) {
				if (request.answer !== 202) continue;
				const message = messageOf(request);
				accepted.set(message, (accepted.get(message) ?? 0) + 1);
			}
			return accepted;
		}

		/**
		 * One failed production execution of five items `<prefix>-0` … `<prefix>-4`: what the service
		 * accepted of it, and the execution as n8n saved it.
		 */
		async function failedExecution(prefix: string) {
			const messages = Array.from({ length: ITEMS }, (_, item) => `${prefix}-${item}`);
			const before = receiver.requests.length;
			const known = (await rest.executions(WORKFLOW)).map((execution) => execution.id);
			await callWebhook(messages);
			const failed = await rest.endedExecution(WORKFLOW, known);
			const accepted = [...acceptedByMessage(receiver.requests.slice(before)).keys()];
			return { messages, failed, accepted, sent: receiver.requests.length };
		}

		beforeAll(async () => {
			await receiver.start();
			receiver.respondWith(respond);
			({ n8n, rest } = await underTest.start(app, {
				credentials: [
					{
						...CREDENTIAL,
						type: CREDENTIAL_TYPE,
						data: { webhookUrl: `${receiver.url}${PATH}`, signingSecret: SECRET },
					},
				],
				workflows: [
					webhookItemsWorkflow({
						id: WORKFLOW,
						name: 'Five items from a webhook',
						path: 'e2e-retry',
						credential: CREDENTIAL,
					}),
					itemsWorkflow({
						id: MANUAL,
						name: 'Five items, run from the editor',
						items: Array.from({ length: ITEMS }, (_, item) => ({ message: `manual-${item}` })),
						credential: CREDENTIAL,
					}),
				],
				active: [WORKFLOW],
			}));
		});

		afterAll(async () => {
			await underTest.stop();
			await receiver.stop();
		});

		it('"Retry with original workflow": the accepted items are passed on, only the others are sent, each item has exactly one run', async () => {
			const { messages, failed, accepted, sent } = await failedExecution('original');
			expect(failed.status).toBe('error');
			expect(failed.mode).toBe('webhook');
			// The items before the failing one were accepted, those after it perhaps (sent at once).
			expect(accepted).toEqual(expect.arrayContaining(messages.slice(0, FAILING)));
			expect(accepted).not.toContain(messages[FAILING]);
			expect(failed.data.resultData.error?.message).toBe(
				'The service failed to handle the request (500)',
			);
			const error = failed.data.resultData.error as
				| { description?: string; context?: { code?: string; itemIndex?: number } }
				| undefined;
			expect(error?.description).toContain(
				`Item ${FAILING} is the 3rd of ${ITEMS} items (n8n counts from 0). The service accepted ${accepted.length} other items: n8n's Retry of this execution passes them on without sending them again, and sends only the items not accepted, this one included. If that Retry fails too, retry it rather than this execution. Failure code: \`may_have_run\`.`,
			);
			// The code survives into the saved execution's error, in its context.
			expect(error?.context).toMatchObject({ code: 'may_have_run', itemIndex: FAILING });

			const retriedId = await rest.retry(failed.id, false);
			const retried = await rest.execution(retriedId);
			const resent = receiver.requests.slice(sent).map(messageOf);
			console.log(
				`n8n ${n8n.version}: the failed execution's service accepted ${accepted.length} of ${ITEMS} items; its retry sent ${resent.length} and ended ${retried.status}`,
			);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry', retryOf: failed.id });

			// The retry sent exactly the items the service had not accepted, the failed one included.
			expect(resent.sort()).toEqual(messages.filter((m) => !accepted.includes(m)).sort());
			const acceptedNow = acceptedByMessage();
			expect(messages.map((m) => acceptedNow.get(m))).toEqual(messages.map(() => 1));
			for (const request of receiver.requests) {
				expect(specViolations(request, SECRET, PATH)).toEqual([]);
			}
			// Every item's output is its own run, in item order, those passed on included.
			const outputs = outputOf(retried).map(({ json }) => json);
			expect(outputs.map((json) => (json.response as { runId?: string })?.runId)).toEqual(
				messages.map((m) => `run-${m}`),
			);
			expect(outputs.map((json) => json.statusCode)).toEqual(messages.map(() => 202));
			// Above its output, what a Retry cannot know of other Retries of the same execution.
			const [run] = retried.data.resultData.runData['Trigger Automation'];
			expect(run.hints?.map((hint) => hint.message)).toEqual([
				`This execution is n8n's Retry of execution ${failed.id}: if execution ${failed.id} was retried before, the items that earlier Retry accepted were sent again, as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries.`,
			]);
			// Neither the secret nor a signature in what n8n logged or saved.
			for (const text of [n8n.log, JSON.stringify([failed, retried])]) {
				expect(text).not.toContain(SECRET);
				expect(text).not.toMatch(/v1=[0-9a-f]{64}/);
			}
			// n8n marks the failed execution as retried successfully.
			expect((await rest.executions(WORKFLOW)).find((e) => e.id === failed.id)).toMatchObject({
				retrySuccessId: retriedId,
			});
		});

		it("a Retry that fails too says to retry it, not the execution it retried; the Retry's Retry sends only what no execution before it got accepted", async () => {
			const { messages, failed, accepted } = await failedExecution('chain');
			expect(failed.status).toBe('error');
			const first = await rest.execution(await rest.retry(failed.id, false));
			expect(first).toMatchObject({ status: 'error', mode: 'retry', retryOf: failed.id });
			const error = first.data.resultData.error as
				| { description?: string; context?: { code?: string } }
				| undefined;
			console.log(`n8n ${n8n.version}: the Retry's error says: ${error?.description}`);
			expect(error?.description).toContain(
				`This execution is n8n's Retry of execution ${failed.id}: if execution ${failed.id} was retried before, the items that earlier Retry accepted were sent again, as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries: this one, not ${failed.id}.`,
			);
			expect(error?.context?.code).toBe('may_have_run');
			// The original's error said so beforehand.
			expect(failed.data.resultData.error?.description).toContain(
				'If that Retry fails too, retry it rather than this execution.',
			);
			const sent = receiver.requests.length;
			const second = await rest.execution(await rest.retry(first.id, false));
			expect(second).toMatchObject({ status: 'success', retryOf: first.id });
			expect(receiver.requests.slice(sent).map(messageOf)).toEqual([messages[FAILING]]);
			const acceptedNow = acceptedByMessage();
			expect(messages.map((m) => acceptedNow.get(m))).toEqual(messages.map(() => 1));
			expect(accepted).not.toContain(messages[FAILING]);
		});

		it("the public API's Retry (POST /api/v1/executions/{id}/retry) does the same", async () => {
			const { messages, failed, accepted, sent } = await failedExecution('public');
			expect(failed.status).toBe('error');
			const retried = await rest.execution(
				await rest.publicRetry(await rest.createApiKey(), failed.id, false),
			);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry', retryOf: failed.id });
			const resent = receiver.requests.slice(sent).map(messageOf);
			expect(resent.sort()).toEqual(messages.filter((m) => !accepted.includes(m)).sort());
			const acceptedNow = acceptedByMessage();
			expect(messages.map((m) => acceptedNow.get(m))).toEqual(messages.map(() => 1));
		});

		// After the other webhook tests: it saves the workflow with another message, which n8n 1.x
		// also puts live for the production webhook (2.x only once published).
		it('"Retry with currently saved workflow", the message changed since: the accepted items are still passed on, the others sent with the saved message', async () => {
			const { messages, failed, accepted, sent } = await failedExecution('saved');
			expect(failed.status).toBe('error');
			expect(failed.data.resultData.error?.description).toContain(
				`The service accepted ${accepted.length} other items`,
			);
			// Saved as the editor's Save does: the message gets a suffix.
			await rest.saveWorkflow(WORKFLOW, (workflow) => {
				const node = workflow.nodes.find((n) => n.name === 'Trigger Automation')!;
				node.parameters = { ...(node.parameters as object), message: '={{ $json.m }} (edited)' };
			});

			const retriedId = await rest.retry(failed.id, true);
			const retried = await rest.execution(retriedId);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry', retryOf: failed.id });

			// Only the items not accepted were sent, with the saved workflow's message.
			const notAccepted = messages.filter((m) => !accepted.includes(m));
			const resent = receiver.requests.slice(sent).map(messageOf);
			expect(resent.sort()).toEqual(notAccepted.map((m) => `${m} (edited)`).sort());
			// Each item accepted exactly once, under one message or the other.
			const acceptedNow = acceptedByMessage();
			const ofItem = messages.map(
				(m) => (acceptedNow.get(m) ?? 0) + (acceptedNow.get(`${m} (edited)`) ?? 0),
			);
			expect(ofItem).toEqual(messages.map(() => 1));
			for (const request of receiver.requests) {
				expect(specViolations(request, SECRET, PATH)).toEqual([]);
			}
			const runIds = outputOf(retried).map(
				({ json }) => (json.response as { runId?: string })?.runId,
			);
			expect(runIds).toEqual(
				messages.map((m) => (accepted.includes(m) ? `run-${m}` : `run-${m} (edited)`)),
			);
		});

		it("a manual execution (the editor's Execute Workflow), saved as n8n does by default: its Retry passes the accepted items on too", async () => {
			const messages = Array.from({ length: ITEMS }, (_, item) => `manual-${item}`);
			const before = receiver.requests.length;
			const failed = await rest.ended(await rest.runManually(MANUAL));
			const sent = receiver.requests.length;
			const accepted = [...acceptedByMessage(receiver.requests.slice(before)).keys()];
			expect(failed).toMatchObject({ status: 'error', mode: 'manual' });
			expect(failed.data.resultData.error?.description).toContain(
				`The service accepted ${accepted.length} other items`,
			);

			const retried = await rest.execution(await rest.retry(failed.id, false));
			const resent = receiver.requests.slice(sent).map(messageOf);
			console.log(
				`n8n ${n8n.version}, manual: the service accepted ${accepted.length} of ${ITEMS} items; the retry (mode ${retried.mode}) sent ${resent.length} and ended ${retried.status}`,
			);
			expect(retried).toMatchObject({ status: 'success', retryOf: failed.id });
			expect(resent.sort()).toEqual(messages.filter((m) => !accepted.includes(m)).sort());
			const acceptedNow = acceptedByMessage();
			expect(messages.map((m) => acceptedNow.get(m))).toEqual(messages.map(() => 1));
			expect(
				outputOf(retried).map(({ json }) => (json.response as { runId?: string })?.runId),
			).toEqual(messages.map((m) => `run-${m}`));

			// Executing the workflow again is a new execution: it remembers nothing, every item is sent.
			const again = receiver.requests.length;
			expect(await rest.ended(await rest.runManually(MANUAL))).toMatchObject({ status: 'success' });
			expect(receiver.requests.slice(again).map(messageOf).sort()).toEqual(messages);
		});
	});
}
