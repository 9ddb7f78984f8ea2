/**
 * Retry On Fail and n8n's Retry of a failed execution, in n8n-core's engine, alone and inside n8n's
 * real Loop Over Items (Split In Batches) node: every item of every iteration creates exactly one
 * run, a retry re-sends only what the service did not accept, and every output item carries its own
 * answer.
 */
import type { ServerResponse } from 'node:http';

import type { IDataObject, INode, INodeParameters, IRun } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { manualTriggerNode, pinnedItems } from '../../../dev/baseNodes';
import type { RunOptions } from '../../../dev/engine';
import { errorOf, outputOf, retryExecution, runWorkflow } from '../../../dev/engine';
import type { ReceivedRequest } from '../../support/receiver';
import { Receiver, answer, bodyJson, specViolations } from '../../support/receiver';
import { expectNoLeak } from '../../support/leaks';
import { CREDENTIAL_TYPE, NODE_NAME, NODE_TYPE } from '../../support/workflows';

const SECRET = 'whsec_loop_test_0123456789';
const PATH = '/webhooks/cloud/auto-loop';
const LOOP = 'Loop Over Items';
/**
 * The node's Timeout: an answer held past it is a fault the test sets, never the machine's load (at
 * 400 ms, a loaded run saw an accepted item time out, and n8n's Retry On Fail send it again).
 */
const TIMEOUT_MS = 1_500;

/**
 * What the receiver does with one attempt of a message; attempts past the list are accepted. '500
 * last': a 500 once the messages of `sentBefore` have arrived, so that they were sent before the
 * failure stopped the node, whatever pace Adaptive sending has learned from the tests before.
 */
type Fault = '500' | '500 last' | 'timeout' | 'accept';
let sentBefore: string[] = [];

let receiver: Receiver;
let faults: Map<string, Fault[]>;
/** After answering this message (accepted), new connections are refused for a while. */
let refuseAfter: { message: string; forMs: number } | undefined;

const messageOf = (request: ReceivedRequest) => String(bodyJson(request).data.message);

function respond(request: ReceivedRequest, res: ServerResponse) {
	const message = messageOf(request);
	const attempt = receiver.requests.filter((r) => messageOf(r) === message).length - 1;
	const fault = faults.get(message)?.[attempt] ?? 'accept';
	if (fault === '500') return answer(res, 500, 'busy');
	if (fault === '500 last') return whenAllArrived(() => answer(res, 500, 'busy'));
	// Held past the node's timeout: the node gives up, and the service never answers (no run).
	if (fault === 'timeout') return receiver.later(TIMEOUT_MS * 3, () => res.destroy());
	answer(res, 202, JSON.stringify({ runId: `run-${message}` }), {
		'Content-Type': 'application/json',
	});
	if (refuseAfter?.message === message) {
		const { forMs } = refuseAfter;
		refuseAfter = undefined;
		receiver.stopListening();
		receiver.later(forMs, () => void receiver.listenAgain());
	}
}

function whenAllArrived(then: () => void) {
	const arrived = new Set(receiver.requests.map(messageOf));
	if (sentBefore.every((message) => arrived.has(message))) then();
	else receiver.later(5, () => whenAllArrived(then));
}

beforeAll(async () => {
	receiver = await new Receiver().start();
});
afterAll(async () => receiver.stop());
beforeEach(() => {
	receiver.reset();
	receiver.respondWith(respond);
	faults = new Map();
	sentBefore = [];
	refuseAfter = undefined;
});

interface LoopSpec {
	messages: string[];
	batchSize: number;
	/** Trigger Automation's settings: onError, retryOnFail, maxTries, waitBetweenTries. */
	settings: Partial<INode>;
}

/** Trigger Automation sending each item's `m`, with the given node settings. */
function triggerNode(settings: Partial<INode>, options: INodeParameters = {}): INode {
	return {
		id: 'trigger',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [400, 0],
		parameters: { message: '={{ $json.m }}', options },
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Automation webhook' } },
		...settings,
	};
}

/** The credential's data: the receiver's webhook URL and the secret. */
const credentialData = () => ({
	[CREDENTIAL_TYPE]: { webhookUrl: `${receiver.url}${PATH}`, signingSecret: SECRET },
});

/** Start (pinned items) → Loop Over Items → (loop) Trigger Automation → back to Loop Over Items. */
function loopWorkflow({ messages, batchSize, settings }: LoopSpec): RunOptions {
	const trigger = triggerNode(settings, { timeout: TIMEOUT_MS });
	const back = [{ node: LOOP, type: 'main' as const, index: 0 }];
	return {
		workflow: {
			nodes: [
				manualTriggerNode('Start'),
				{
					id: 'loop',
					name: LOOP,
					type: 'n8n-nodes-base.splitInBatches',
					typeVersion: 3,
					position: [200, 0],
					parameters: { batchSize, options: {} },
				},
				trigger,
			],
			connections: {
				Start: { main: [[{ node: LOOP, type: 'main', index: 0 }]] },
				// Output 0 is "done", output 1 is "loop".
				[LOOP]: { main: [[], [{ node: NODE_NAME, type: 'main', index: 0 }]] },
				// The error output (On Error: Continue (using error output)) loops back too.
				[NODE_NAME]: { main: [back, back] },
			},
		},
		pinData: { Start: pinnedItems(messages.map((m) => ({ m }))) },
		credentials: credentialData(),
	};
}

async function runLoop(spec: LoopSpec): Promise<IRun> {
	const run = await runWorkflow(loopWorkflow(spec));
	for (const request of receiver.requests)
		expect(specViolations(request, SECRET, PATH)).toEqual([]);
	expectNoLeak(SECRET, { run }, receiver.requests);
	return run;
}

/** How many requests for each message arrived, and how many the receiver accepted (created runs). */
function tally() {
	const received: Record<string, number> = {};
	const accepted: Record<string, number> = {};
	for (const request of receiver.requests) {
		const message = messageOf(request);
		received[message] = (received[message] ?? 0) + 1;
		if (request.answer === 202) accepted[message] = (accepted[message] ?? 0) + 1;
	}
	return { received, accepted };
}

const once = (messages: string[]) => Object.fromEntries(messages.map((m) => [m, 1]));

/** Each run (iteration) of the node: its answered items as [message, runId], and its errors. */
function iterations(run: IRun, messages = MESSAGES, batchSize = 2) {
	const runs = run.data.resultData.runData[NODE_NAME] ?? [];
	return runs.map((_, runIndex) => {
		const batch = messages.slice(runIndex * batchSize, (runIndex + 1) * batchSize);
		const answered = outputOf(run, NODE_NAME, 0, runIndex).map((item) => {
			const { item: index } = item.pairedItem as { item: number };
			if (item.json.error !== undefined) return [batch[index], 'error'];
			return [batch[index], (item.json.response as IDataObject).runId];
		});
		const errors = outputOf(run, NODE_NAME, 1, runIndex).map((item) => {
			const { item: index } = item.pairedItem as { item: number };
			return [batch[index], 'error'];
		});
		return [...answered, ...errors];
	});
}

/** What the node keeps in its context of the execution (n8n saves it with the execution). */
const keptInExecution = (run: IRun) =>
	run.data.executionData?.contextData[`node:${NODE_NAME}`] ?? {};
/** The execution a failed run's pass was kept for (what a Retry of it names). */
const keptExecution = (run: IRun) =>
	(
		(keptInExecution(run) as IDataObject).acceptedItemsByPass as Record<
			string,
			{ execution: string }
		>
	)['0'].execution;
const hintsOf = (run: IRun) => run.data.resultData.runData[NODE_NAME][0].hints ?? [];

const MESSAGES = ['a1', 'a2', 'b1', 'b2', 'c1', 'c2'];
const ownAnswers = (messages: string[]) => messages.map((m) => [m, `run-${m}`]);
const EVERY_ITEM_ITS_OWN_ANSWER = [
	ownAnswers(['a1', 'a2']),
	ownAnswers(['b1', 'b2']),
	ownAnswers(['c1', 'c2']),
];
/** Six items, a1 … c2, in three iterations of two. */
const runPairs = (settings: Partial<INode>) =>
	runLoop({ messages: MESSAGES, batchSize: 2, settings });
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 50 };

describe('Loop Over Items → Trigger Automation with Retry On Fail: each item sent until accepted, then never again', () => {
	it('On Error: Continue, an item that is not first in its batch fails: the next iteration still sends every item', async () => {
		// n8n does not retry here (the first output item is fine): a2 ends as an error item.
		faults.set('a2', ['500', '500', '500']);
		const run = await runPairs({ ...RETRY, onError: 'continueRegularOutput' });
		expect(run.status).toBe('success');
		const { received, accepted } = tally();
		expect(received).toEqual({ ...once(MESSAGES), a2: 1 });
		expect(accepted).toEqual(once(MESSAGES.filter((m) => m !== 'a2')));
		expect(iterations(run)).toEqual([
			[
				['a1', 'run-a1'],
				['a2', 'error'],
			],
			ownAnswers(['b1', 'b2']),
			ownAnswers(['c1', 'c2']),
		]);
	});

	it('On Error: Continue, the first item fails with a 500 in the second iteration: the retry re-sends only it', async () => {
		faults.set('b1', ['500']);
		const run = await runPairs({ ...RETRY, onError: 'continueRegularOutput' });
		expect(run.status).toBe('success');
		const { received, accepted } = tally();
		expect(received).toEqual({ ...once(MESSAGES), b1: 2 });
		expect(accepted).toEqual(once(MESSAGES));
		expect(iterations(run)).toEqual(EVERY_ITEM_ITS_OWN_ANSWER);
	});

	it('On Error: Stop Workflow, a timeout in the first iteration and a 500 in the third: each retry re-sends only the failed item', async () => {
		faults.set('a2', ['timeout']);
		faults.set('c2', ['500', '500']);
		const run = await runPairs(RETRY);
		expect(run.status).toBe('success');
		const { received, accepted } = tally();
		expect(received).toEqual({ ...once(MESSAGES), a2: 2, c2: 3 });
		expect(accepted).toEqual(once(MESSAGES));
		expect(iterations(run)).toEqual(EVERY_ITEM_ITS_OWN_ANSWER);
	});

	it('On Error: Stop Workflow, connection refused during the second iteration: the retry sends its items once the service is back', async () => {
		// After a2 is accepted the port is closed: b1 is refused, and n8n's retry (after 300 ms) sends it.
		refuseAfter = { message: 'a2', forMs: 150 };
		const run = await runPairs({ ...RETRY, waitBetweenTries: 300 });
		expect(run.status).toBe('success');
		const { received, accepted } = tally();
		// The refused attempt never reached the receiver.
		expect(received).toEqual(once(MESSAGES));
		expect(accepted).toEqual(once(MESSAGES));
		expect(iterations(run)).toEqual(EVERY_ITEM_ITS_OWN_ANSWER);
	});

	it('On Error: Continue (using error output), a 500 in every try of the second item: it goes to the error output, the other iterations are untouched', async () => {
		faults.set('b2', ['500', '500', '500']);
		faults.set('c1', ['timeout']);
		const run = await runPairs({ ...RETRY, onError: 'continueErrorOutput' });
		expect(run.status).toBe('success');
		const { received, accepted } = tally();
		expect(received).toEqual({ ...once(MESSAGES), c1: 2 });
		expect(accepted).toEqual(once(MESSAGES.filter((m) => m !== 'b2')));
		expect(iterations(run)).toEqual([
			ownAnswers(['a1', 'a2']),
			[
				['b1', 'run-b1'],
				['b2', 'error'],
			],
			ownAnswers(['c1', 'c2']),
		]);
	});

	it('all tries fail: the workflow stops, and running it again (a new execution) sends every item again', async () => {
		faults.set('b1', ['500', '500', '500']);
		const failed = await runPairs(RETRY);
		expect(failed.status).toBe('error');
		// b2 was in flight with b1's first try (Adaptive sending), accepted, and passed on by the retries.
		expect(tally().received).toEqual({ a1: 1, a2: 1, b1: 3, b2: 1 });

		receiver.reset();
		receiver.respondWith(respond);
		faults = new Map();
		const again = await runPairs(RETRY);
		expect(again.status).toBe('success');
		expect(tally().accepted).toEqual(once(MESSAGES));
	});

	it('once a retry has succeeded, nothing is left in the execution', async () => {
		faults.set('a1', ['500']);
		const run = await runPairs({ ...RETRY, onError: 'continueRegularOutput' });
		expect(run.status).toBe('success');
		expect(tally().received).toEqual({ ...once(MESSAGES), a1: 2 });
		expect(keptInExecution(run)).toEqual({});
	});
});

describe('the same node fed by two branches: each run sends its own items', () => {
	/** An Edit Fields node that prefixes each item's `m`. */
	const prefixer = (name: string, prefix: string, y: number): INode => ({
		id: name,
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [200, y],
		parameters: {
			assignments: {
				assignments: [{ id: 'm', name: 'm', value: `=${prefix}{{ $json.m }}`, type: 'string' }],
			},
			options: {},
		},
	});

	it('Start → two Edit Fields branches → one node with Retry On Fail: the second run sends all its items', async () => {
		// x2 fails and is not retried by n8n (the first output item is fine): it ends as an error item.
		faults.set('x2', ['500']);
		const trigger = triggerNode({ ...RETRY, onError: 'continueRegularOutput' });
		const into = { main: [[{ node: NODE_NAME, type: 'main' as const, index: 0 }]] };
		const run = await runWorkflow({
			workflow: {
				nodes: [
					manualTriggerNode('Start'),
					prefixer('A', 'x', 0),
					prefixer('B', 'y', 200),
					trigger,
				],
				connections: {
					Start: {
						main: [
							[
								{ node: 'A', type: 'main', index: 0 },
								{ node: 'B', type: 'main', index: 0 },
							],
						],
					},
					A: into,
					B: into,
				},
			},
			pinData: { Start: pinnedItems([{ m: '1' }, { m: '2' }]) },
			credentials: credentialData(),
		});
		expect(run.status).toBe('success');
		expect(tally().received).toEqual(once(['x1', 'x2', 'y1', 'y2']));
		expect(tally().accepted).toEqual(once(['x1', 'y1', 'y2']));
		const answers = [0, 1].map((runIndex) =>
			outputOf(run, NODE_NAME, 0, runIndex).map(
				(item) => (item.json.response as IDataObject | undefined)?.runId ?? 'error',
			),
		);
		expect(answers).toEqual([
			['run-x1', 'error'],
			['run-y1', 'run-y2'],
		]);
	});
});

describe("n8n's Retry of a failed execution: the accepted items are passed on, only the others sent", () => {
	const FIVE = ['a', 'b', 'c', 'd', 'e'];

	/** Start (pinned items) → Trigger Automation, sending each item's `m`. */
	function straight(settings: Partial<INode>, options: INodeParameters = {}): RunOptions {
		return {
			workflow: {
				nodes: [
					manualTriggerNode('Start'),
					triggerNode(settings, { timeout: TIMEOUT_MS, ...options }),
				],
				connections: { Start: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
			},
			pinData: { Start: pinnedItems(FIVE.map((m) => ({ m }))) },
			credentials: credentialData(),
		};
	}

	/** The node's answers in its last pass: each item's run id, or 'error'. */
	const answers = (run: IRun, output = 0) => {
		const passes = run.data.resultData.runData[NODE_NAME] ?? [];
		return outputOf(run, NODE_NAME, output, passes.length - 1).map(
			(item) => (item.json.response as IDataObject | undefined)?.runId ?? 'error',
		);
	};
	const EVERY_RUN_ONCE = FIVE.map((m) => `run-${m}`);

	async function failThenRetry(options: RunOptions, retryWith: RunOptions = options) {
		const failed = await runWorkflow(options);
		expect(failed.status).toBe('error');
		const afterFailure = tally();
		const retried = await retryExecution(failed, retryWith);
		for (const request of receiver.requests)
			expect(specViolations(request, SECRET, PATH)).toEqual([]);
		expectNoLeak(SECRET, { run: retried, extra: [failed] }, receiver.requests);
		return { failed, afterFailure, retried };
	}

	it('Adaptive, no Retry On Fail, the third item answered 500: the Retry sends only it, and every item has one run', async () => {
		faults.set('c', ['500 last']);
		sentBefore = ['d', 'e'];
		const { failed, afterFailure, retried } = await failThenRetry(straight({}));
		expect(afterFailure.accepted).toEqual(once(['a', 'b', 'd', 'e']));
		expect(keptInExecution(failed)).not.toEqual({});
		expect(retried.status).toBe('success');
		expect(tally().received).toEqual({ ...once(FIVE), c: 2 });
		expect(tally().accepted).toEqual(once(FIVE));
		expect(answers(retried)).toEqual(EVERY_RUN_ONCE);
		expect(keptInExecution(retried)).toEqual({});
	});

	it('a Retry that fails too says to retry it, not the execution it retried; a Retry of that Retry sends only what no execution of the chain got accepted', async () => {
		faults.set('c', ['500']);
		faults.set('d', ['500']);
		const options = straight({}, { sending: 'oneAtATime' });
		// A: a and b accepted, c fails.
		const a = await runWorkflow(options);
		expect(tally().accepted).toEqual(once(['a', 'b']));
		const aError = errorOf(a, NODE_NAME);
		expect(aError?.description).not.toContain("This execution is n8n's Retry");
		// B, A's Retry: c is accepted now, d fails.
		const b = await retryExecution(a, options);
		expect(b.status).toBe('error');
		expect(tally().accepted).toEqual(once(['a', 'b', 'c']));
		const bError = errorOf(b, NODE_NAME);
		const aId = (a.data.executionData?.contextData[`node:${NODE_NAME}`] as IDataObject)
			.acceptedItemsByPass as Record<string, { execution: string }>;
		const aExecution = aId['0'].execution;
		expect(bError?.description).toContain(
			`Item 3 is the 4th of 5 items (n8n counts from 0). This execution is n8n's Retry of execution ${aExecution}: if execution ${aExecution} was retried before, the items that earlier Retry accepted were sent again, as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries: this one, not ${aExecution}.`,
		);
		expect(bError?.description).toContain('The service accepted 3 other items');
		// C, B's Retry: only d and e are sent, every item has one run.
		const c = await retryExecution(b, options);
		expect(c.status).toBe('success');
		expect(tally().accepted).toEqual(once(FIVE));
		expect(answers(c)).toEqual(EVERY_RUN_ONCE);
	});

	it('retrying an older execution of a chain sends again what its later Retry got accepted (as docs/reference.md says)', async () => {
		faults.set('c', ['500']);
		faults.set('d', ['500']);
		const options = straight({}, { sending: 'oneAtATime' });
		const a = await runWorkflow(options);
		const b = await retryExecution(a, options);
		expect(b.status).toBe('error');
		expect(tally().accepted).toEqual(once(['a', 'b', 'c']));
		// A retried a second time knows only what A had: c gets a second run.
		const again = await retryExecution(a, options);
		expect(again.status).toBe('success');
		expect(tally().accepted).toEqual({ ...once(FIVE), c: 2 });
		// What it cannot know, it says above its output, as every Retry does, failed or not.
		const aExecution = keptExecution(a);
		expect(hintsOf(again).map((hint) => hint.message)).toEqual([
			`This execution is n8n's Retry of execution ${aExecution}: if execution ${aExecution} was retried before, the items that earlier Retry accepted were sent again, as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries.`,
		]);
		expect(hintsOf(a)).toEqual([]);
	});

	it('a Retry of a Retry names every execution before it', async () => {
		faults.set('c', ['500', '500', '500']);
		const options = straight({}, { sending: 'oneAtATime' });
		const a = await runWorkflow(options);
		const b = await retryExecution(a, options);
		const c = await retryExecution(b, options);
		expect(c.status).toBe('error');
		const kept = (run: IRun) =>
			(
				(run.data.executionData?.contextData[`node:${NODE_NAME}`] as IDataObject)
					.acceptedItemsByPass as Record<string, { execution: string; retryOf: string[] }>
			)['0'];
		expect(kept(c).retryOf).toEqual([kept(a).execution, kept(b).execution]);
		expect(errorOf(c, NODE_NAME)?.description).toContain(
			`retry only the latest execution of a chain of Retries: this one, not ${kept(b).execution} (or ${kept(a).execution} before it).`,
		);
	});

	it('Retry On Fail exhausted (3 tries of the third item): the Retry gets its tries anew and sends only that item', async () => {
		faults.set('c', ['500 last', '500', '500', '500']);
		sentBefore = ['d', 'e'];
		const { afterFailure, retried } = await failThenRetry(straight(RETRY));
		expect(afterFailure.received).toEqual({ ...once(FIVE), c: 3 });
		expect(retried.status).toBe('success');
		// The Retry's first try is the fourth 500; Retry On Fail's second try is accepted.
		expect(tally().received).toEqual({ ...once(FIVE), c: 5 });
		expect(tally().accepted).toEqual(once(FIVE));
		expect(answers(retried)).toEqual(EVERY_RUN_ONCE);
		expect(keptInExecution(retried)).toEqual({});
	});

	it('One at a Time stops at the third item: the Retry passes on the first two and sends the rest', async () => {
		faults.set('c', ['timeout']);
		const { afterFailure, retried } = await failThenRetry(straight({}, { sending: 'oneAtATime' }));
		expect(afterFailure.received).toEqual(once(['a', 'b', 'c']));
		expect(retried.status).toBe('success');
		expect(tally().received).toEqual({ ...once(FIVE), c: 2 });
		expect(tally().accepted).toEqual(once(FIVE));
		expect(answers(retried)).toEqual(EVERY_RUN_ONCE);
	});

	it('Loop Over Items, the second iteration fails after every try: the Retry sends only what the failed iteration did not get accepted, then the rest', async () => {
		faults.set('b1', ['500 last', '500', '500']);
		sentBefore = ['b2'];
		const options = loopWorkflow({ messages: MESSAGES, batchSize: 2, settings: RETRY });
		const { afterFailure, retried } = await failThenRetry(options);
		expect(afterFailure.accepted).toEqual(once(['a1', 'a2', 'b2']));
		expect(retried.status).toBe('success');
		expect(tally().received).toEqual({ ...once(MESSAGES), b1: 4 });
		expect(tally().accepted).toEqual(once(MESSAGES));
		expect(iterations(retried)).toEqual(EVERY_ITEM_ITS_OWN_ANSWER);
		expect(keptInExecution(retried)).toEqual({});
	});

	it('Retry with the currently saved workflow, its message changed: the accepted items keep their runs and are not sent again', async () => {
		faults.set('c', ['500 last']);
		sentBefore = ['d', 'e'];
		const original = straight({});
		const changed = straight({});
		changed.workflow.nodes[1].parameters.message = '={{ $json.m }}!';
		const { retried } = await failThenRetry(original, changed);
		expect(retried.status).toBe('success');
		expect(tally().received).toEqual({ ...once(FIVE), 'c!': 1 });
		expect(tally().accepted).toEqual(once(['a', 'b', 'd', 'e', 'c!']));
		expect(answers(retried)).toEqual(['run-a', 'run-b', 'run-c!', 'run-d', 'run-e']);
	});

	it('Retry after the credential was pointed to another automation: every item is sent there', async () => {
		faults.set('c', ['500']);
		const original = straight({});
		const elsewhere = {
			...original,
			credentials: {
				[CREDENTIAL_TYPE]: { webhookUrl: `${receiver.url}${PATH}-other`, signingSecret: SECRET },
			},
		};
		const failed = await runWorkflow(original);
		const retried = await retryExecution(failed, elsewhere);
		expect(retried.status).toBe('success');
		const paths = receiver.requests.map((request) => request.path);
		expect(paths.filter((path) => path === `${PATH}-other`)).toHaveLength(5);
		expect(answers(retried)).toEqual(FIVE.map((m) => `run-${m}`));
	});

	it('Continue On Fail: the execution succeeds with an error item, and nothing is kept for a Retry', async () => {
		faults.set('c', ['500']);
		const run = await runWorkflow(straight({ onError: 'continueRegularOutput' }));
		expect(run.status).toBe('success');
		expect(answers(run)).toEqual(['run-a', 'run-b', 'error', 'run-d', 'run-e']);
		expect(keptInExecution(run)).toEqual({});
	});
});
