/**
 * examples/route-failures-by-code.json in the real n8n, as imported from the file: its Trigger
 * Automation node continues on the error output, and a Switch on `details.code` sends a failed item
 * to the branch of its failure code. The service answers each run differently (a 429 with a
 * Retry-After too long to wait for, a 401, a 500, a 405), and each time the saved execution shows
 * the item in that code's branch only; a run while that Retry-After lasts sends nothing. n8n 1.x's
 * engine does not route this node's error items (their JSON has `details`) to the error output:
 * there the test proves that they stay on the regular output with their code, as
 * docs/reference.md says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { credentialsOf, readExamples, workflowId } from '../dev/exampleFiles';
import { APPS, N8nInstance, setUpOwner } from '../dev/n8nApp';
import { Receiver, answer } from '../test/support/receiver';
import type { RestExecution } from './support/rest';
import { Rest } from './support/rest';

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
		let n8n: N8nInstance;
		let rest: Rest;
		const { workflow } = readExamples().find((example) => example.file === FILE)!;
		const id = workflowId(FILE);

		beforeAll(async () => {
			await receiver.start();
			receiver.respondWith((_request, res) => answer(res, status, 'no', headers));
			n8n = new N8nInstance(app);
			n8n.installPackage();
			const data = { webhookUrl: `${receiver.url}${PATH}`, signingSecret: SECRET };
			await n8n.import('credentials', credentialsOf(workflow, data));
			await n8n.import('workflow', [{ ...workflow, id }]);
			await n8n.start();
			rest = new Rest(n8n, await setUpOwner(n8n));
		});

		afterAll(async () => {
			await n8n?.stop();
			n8n?.dispose();
			await receiver.stop();
		});

		it('an accepted item goes to no failure branch', async () => {
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
				expect(receiver.requests.length - before).toBe(1);
				const ends = CASES.map(([, name]) => name);
				const runData = execution.data.resultData.runData;
				if (n8n.version.startsWith('1.')) {
					// n8n 1.x's engine routes to the error output only an item whose JSON is `error` (and
					// `message`): the failed item, with its details, stays on the regular output.
					expect(reached(execution, ends)).toEqual([]);
					const [item] = runData['Trigger Automation'][0].data!.main[0];
					expect(item.json.details).toMatchObject({ code, itemIndex: 0 });
					return;
				}
				expect(reached(execution, ends)).toEqual([branch]);
				const [item] = runData[branch][0].data!.main[0];
				expect(item.json.details).toMatchObject({ code, itemIndex: 0 });
				expect(JSON.stringify(execution)).not.toContain(SECRET);
			},
		);

		it('until that Retry-After ends, a run sends nothing: its item fails unsent, as rate_limited', async () => {
			status = 202;
			headers = { 'Content-Type': 'application/json' };
			const before = receiver.requests.length;
			const execution = await rest.ended(await rest.runManually(id, TRIGGER));
			expect(execution.status).toBe('success');
			expect(receiver.requests.length).toBe(before);
			// n8n 1.x keeps the failed item on the regular output (above).
			const node = n8n.version.startsWith('1.') ? 'Trigger Automation' : 'Wait, then run it again';
			const [item] = execution.data.resultData.runData[node][0].data!.main[0];
			expect(item.json.details).toMatchObject({ code: 'rate_limited', itemIndex: 0 });
			expect(item.json.error).toMatch(
				/^Not sent: the service asked to wait \d+ s more \(Retry-After\)/,
			);
		});
	});
}
