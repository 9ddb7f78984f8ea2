/**
 * Behind Debian's real nginx (e2e/support/nginx.ts), which limits the rate with `limit_req` in front
 * of a service that answers in 50 ms, several executions at once, the node at its defaults (On
 * Error → Continue, to see every item's end). nginx refuses the way it is told:
 * - `limit_req_status 429`: every item is accepted exactly once;
 * - 503 with `add_header Retry-After 1 always`: the same (a 503 with Retry-After is a push-back);
 * - its default 503: every item ends accepted or `may_have_run` with the proxy hint naming nginx,
 *   and none is accepted twice.
 * Once in n8n's engine (dev/engine.ts, the built package), once in the real n8n 2.x app; there also
 * a service answering 300 MB (no proxy): the item is accepted with its first 1 MiB, and the node
 * stops reading.
 */
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { outputOf, runWorkflow } from '../dev/engine';
import { CREDENTIAL_TYPE, workflowId } from '../dev/exampleFiles';
import { APPS } from '../dev/n8nApp';
import { MAX_ANSWER_BYTES } from '../nodes/TriggerAutomation/answer/response';
import { Receiver, answer, bodyJson, writeLargeAnswer } from '../test/support/receiver';
import { NODE_NAME, triggerWorkflow } from '../test/support/workflows';
import { AppUnderTest } from './support/appUnderTest';
import type { NginxOptions, RunningNginx } from './support/nginx';
import { startNginx } from './support/nginx';
import type { Rest } from './support/rest';
import { itemsWorkflow } from './support/workflows';

const SECRET = 'e2e_proxy_secret_7b3e91';
const AUTOMATION = 'e2e-proxy';
const EXECUTIONS = 4;
const ITEMS = 15;
/** nginx lets 20 requests a second through, 5 more at once: far fewer than 60 items sent at once. */
const LIMIT = { ratePerSecond: 20, burst: 5, nodelay: true } as const;

const ALL_ONCE = 'every item accepted exactly once';
const SOME_REFUSED = 'every item accepted or may_have_run with the proxy hint, none twice';

const SCENARIOS: Array<{
	name: string;
	nginx: Omit<NginxOptions, 'upstream'>;
	allAccepted: boolean;
}> = [
	{ name: 'limit_req_status 429', nginx: { ...LIMIT, status: 429 }, allAccepted: true },
	{
		name: '503 with add_header Retry-After 1 always',
		nginx: { ...LIMIT, retryAfterSeconds: 1 },
		allAccepted: true,
	},
	{ name: "nginx's default 503", nginx: { ...LIMIT }, allAccepted: false },
];

const message = (execution: number, item: number) => `e${execution}-i${item}`;
const LARGE_ANSWER_BYTES = 300 * 1000 * 1000;

/** A service answering 202 after 50 ms, counting each message it accepted. */
function service(receiver: Receiver) {
	receiver.respondWith((request, res) => {
		const { message: m } = bodyJson(request).data as { message: string };
		setTimeout(
			() =>
				answer(res, 202, JSON.stringify({ runId: `run-${m}` }), {
					'Content-Type': 'application/json',
				}),
			50,
		);
	});
}

/** The service behind one nginx per scenario: started and stopped in one place each. */
function limitedService() {
	const receiver = new Receiver();
	const proxies: RunningNginx[] = [];
	return {
		receiver,
		proxies,
		async start() {
			await receiver.start();
			service(receiver);
			for (const scenario of SCENARIOS) {
				proxies.push(await startNginx({ upstream: receiver.url, ...scenario.nginx }));
			}
		},
		async stop() {
			await Promise.all(proxies.map(async (proxy) => await proxy.stop()));
			await receiver.stop();
		},
	};
}

/** Each scenario with its index and the rule its test proves. */
const CASES = SCENARIOS.map((scenario, index) => ({
	...scenario,
	index,
	rule: scenario.allAccepted ? ALL_ONCE : SOME_REFUSED,
}));

function acceptedMessages(receiver: Receiver, path: string): string[] {
	return receiver.requests
		.filter((request) => request.path === path)
		.map((request) => String((bodyJson(request).data as { message: string }).message));
}

/** Every item's end: checks the scenario's rule on the items and what the service accepted. */
function expectEnds(
	scenario: (typeof SCENARIOS)[number],
	items: Array<{ message: string; json: IDataObject }>,
	accepted: string[],
) {
	expect(items).toHaveLength(EXECUTIONS * ITEMS);
	// Nothing accepted twice.
	expect(new Set(accepted).size).toBe(accepted.length);
	const ok = items.filter(({ json }) => json.statusCode === 202);
	// An item is accepted in its output exactly when the service accepted it.
	expect(ok.map(({ message: m }) => m).sort()).toEqual([...accepted].sort());
	for (const { json } of ok) expect(json.response).toMatchObject({ runId: expect.any(String) });
	const failed = items.filter(({ json }) => json.statusCode !== 202);
	console.log(`${scenario.name}: ${ok.length} accepted, ${failed.length} failed`);
	if (scenario.allAccepted) {
		expect(failed.map(({ json }) => json)).toEqual([]);
		return;
	}
	// nginx refused some (the test would show nothing otherwise), each ending as may_have_run
	// with the hint that names nginx.
	expect(failed.length).toBeGreaterThan(0);
	for (const { json } of failed) {
		const details = json.details as IDataObject;
		expect(details).toMatchObject({ code: 'may_have_run', httpCode: '503' });
		// Its own error page: the title names who refused; the advice says how to make it tell.
		expect(json.error).toMatch(
			/^nginx\/[\d.]+ in front of the service refused the request \(503\)$/,
		);
		expect(String(details.description)).toMatch(
			/Its limit may have refused this request \(the answer came from nginx\/[\d.]+ \(its Server header\)\)/,
		);
		expect(String(details.description)).toContain('limit_req_status 429');
		expect(String(details.description)).not.toMatch(/<html|‹html/);
	}
}

/** Items behind nginx's 429 with no retries: some failed, each telling nginx's page by its title. */
function expectTitled(items: IDataObject[], accepted: string[]) {
	const failed = items.filter((json) => json.statusCode !== 202);
	expect(failed.length).toBeGreaterThan(0);
	expect(items.length - failed.length).toBe(accepted.length);
	for (const json of failed) {
		const details = json.details as IDataObject;
		expect(details).toMatchObject({ code: 'rate_limited', httpCode: '429' });
		expect(String(details.description)).toContain(
			'The answer was an HTML page titled “429 Too Many Requests”.',
		);
		expect(String(details.description)).not.toMatch(/<html|‹html/);
	}
}

describe("n8n's engine behind the real nginx, limiting the rate", () => {
	const { receiver, proxies, start, stop } = limitedService();
	beforeAll(start);
	afterAll(stop);

	it.each(CASES)('$name: $rule', async (scenario) => {
		const path = `/s${scenario.index}/webhooks/cloud/${AUTOMATION}`;
		const webhookUrl = `${proxies[scenario.index].url}${path}`;
		const runs = await Promise.all(
			Array.from(
				{ length: EXECUTIONS },
				async (_, e) =>
					await runWorkflow(
						triggerWorkflow({
							items: Array.from({ length: ITEMS }, (__, i) => ({ m: message(e, i) })),
							parameters: { message: '={{ $json.m }}' },
							settings: { onError: 'continueRegularOutput' },
							webhookUrl,
							secret: SECRET,
						}),
					),
			),
		);
		const items = runs.flatMap((run, e) =>
			outputOf(run, NODE_NAME).map(({ json }, i) => ({ message: message(e, i), json })),
		);
		expectEnds(scenario, items, acceptedMessages(receiver, path));
	});

	it("limit_req_status 429, Retries When Not Accepted 0: an item nginx turned away fails rate_limited, nginx's page told by its title", async () => {
		// A {base_url} this process has not sent to: its first burst meets nginx's limit.
		const path = `/fresh/webhooks/cloud/${AUTOMATION}`;
		const run = await runWorkflow(
			triggerWorkflow({
				items: Array.from({ length: ITEMS }, (_, i) => ({ m: `fresh-${i}` })),
				parameters: { message: '={{ $json.m }}', options: { retries: 0 } },
				settings: { onError: 'continueRegularOutput' },
				webhookUrl: `${proxies[0].url}${path}`,
				secret: SECRET,
			}),
		);
		const items = outputOf(run, NODE_NAME).map(({ json }) => json);
		expectTitled(items, acceptedMessages(receiver, path));
	});
});

describe('n8n 2.x behind the real nginx, limiting the rate', () => {
	const app = APPS['n8n-2'];
	const { receiver, proxies, start, stop } = limitedService();
	const underTest = new AppUnderTest();
	let rest: Rest;
	const workflows = SCENARIOS.map((scenario, index) => {
		const credential = { id: `e2eProxyCred000${index}`, name: `Behind nginx: ${scenario.name}` };
		const workflow = itemsWorkflow({
			id: workflowId(`proxy${index}`),
			name: `Behind nginx: ${scenario.name}`,
			items: Array.from({ length: ITEMS }, (_, i) => ({ message: `i${i}`, position: i })),
			credential,
			settings: { onError: 'continueRegularOutput' },
			perExecution: true,
		});
		return {
			credential,
			path: `/s${index}/webhooks/cloud/${AUTOMATION}`,
			workflow,
			id: workflow.id!,
		};
	});

	// Behind nginx's 429 with Retries When Not Accepted 0: what an item nginx turned away says.
	const titleCredential = { id: 'e2eProxyTitle001', name: "Behind nginx's 429, no retries" };
	const titlePath = `/title/webhooks/cloud/${AUTOMATION}`;
	const titleWorkflow = itemsWorkflow({
		id: workflowId('proxyTitle'),
		name: "Behind nginx's 429, no retries",
		items: Array.from({ length: ITEMS }, (_, i) => ({ message: `t${i}`, position: i })),
		credential: titleCredential,
		settings: { onError: 'continueRegularOutput' },
		options: { retries: 0 },
	});

	const large = new Receiver({
		respond: (request, res) => writeLargeAnswer(request, res, 202, LARGE_ANSWER_BYTES),
	});
	const largeCredential = { id: 'e2eLargeAnswer01', name: 'A service answering 300 MB' };
	const largeWorkflow = itemsWorkflow({
		id: workflowId('largeAnswer'),
		name: 'A service answering 300 MB',
		items: [{ message: 'Answered with 300 MB', position: 1 }],
		credential: largeCredential,
	});

	beforeAll(async () => {
		await start();
		await large.start();
		({ rest } = await underTest.start(app, {
			credentials: [
				...workflows.map(({ credential, path }, index) => ({
					...credential,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: `${proxies[index].url}${path}`, signingSecret: SECRET },
				})),
				{
					...titleCredential,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: `${proxies[0].url}${titlePath}`, signingSecret: SECRET },
				},
				{
					...largeCredential,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: large.webhookUrl(AUTOMATION), signingSecret: SECRET },
				},
			],
			workflows: [...workflows.map(({ workflow }) => workflow), titleWorkflow, largeWorkflow],
		}));
	});
	afterAll(async () => {
		await underTest.stop();
		await stop();
		await large.stop();
	});

	it('a 300 MB answer (no proxy): accepted, its first 1 MiB kept, the rest never read', async () => {
		const execution = await rest.ended(await rest.runManually(largeWorkflow.id!));
		expect(execution.status).toBe('success');
		const [item] = execution.data.resultData.runData[NODE_NAME][0].data!.main[0];
		expect(item.json).toMatchObject({ statusCode: 202, responseTruncated: expect.any(String) });
		expect(String(item.json.response)).toHaveLength(MAX_ANSWER_BYTES);
		const [request] = large.requests;
		console.log(`300 MB answer: the service wrote ${request.bytesSent} bytes before n8n closed`);
		expect(request.bytesSent).toBeLessThan(LARGE_ANSWER_BYTES / 10);
	});

	it("limit_req_status 429, Retries When Not Accepted 0: an item nginx turned away fails rate_limited, nginx's page told by its title", async () => {
		const execution = await rest.ended(await rest.runManually(titleWorkflow.id!), 120_000);
		expect(execution.status).toBe('success');
		const output = execution.data.resultData.runData[NODE_NAME][0].data!.main[0];
		expectTitled(
			output.map(({ json }) => json as IDataObject),
			acceptedMessages(receiver, titlePath),
		);
	});

	it.each(CASES)('$name: $rule', async (scenario) => {
		const { id, path } = workflows[scenario.index];
		const ids = await Promise.all(
			Array.from({ length: EXECUTIONS }, async () => await rest.runManually(id)),
		);
		const executions = await Promise.all(ids.map(async (id) => await rest.ended(id, 120_000)));
		const items = executions.flatMap((execution, e) => {
			expect(execution.status).toBe('success');
			const output = execution.data.resultData.runData[NODE_NAME][0].data!.main[0];
			return output.map(({ json }, i) => ({
				message: `${ids[e]}-i${i}`,
				json: json as IDataObject,
			}));
		});
		expectEnds(scenario, items, acceptedMessages(receiver, path));
	});
});
