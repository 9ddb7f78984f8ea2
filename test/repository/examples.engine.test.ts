import { createRequire } from 'node:module';
import * as workflowPackage from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BASE_NODE_NAMES, loadBaseNodes } from '../../dev/baseNodes';
import { PACKAGE_DIR, outputOf, runWorkflow } from '../../dev/engine';
import { FROM_AI_SAMPLES, loadExamples, prepareExample } from '../../dev/examples';
import { AutomationServiceSimulator } from '../../dev/simulator';
import { Receiver, answer, bodyJson } from '../support/receiver';
import { ORDER_RUN } from '../support/orderExample';

const SECRET = 'examples_secret_5b0f6a8e';
const ID = 'example-automation';
const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });

beforeAll(async () => {
	await simulator.start();
});
afterAll(async () => simulator.stop());

const examples = loadExamples();

describe('every workflow in examples/ runs in the n8n engine and creates its run', () => {
	it('there are examples: one from fields, one on a schedule, one for an AI Agent, one for MCP clients', () => {
		expect(examples.map((e) => e.file)).toEqual([
			'ai-agent-tool.json',
			'daily-report-schedule.json',
			'mcp-server-tool.json',
			'order-to-automation.json',
			'route-failures-by-code.json',
		]);
	});

	for (const example of examples) {
		it(`${example.file}: one accepted trigger, one recorded run with the expected message`, async () => {
			const before = simulator.runs(ID).length;
			const prepared = prepareExample(example, {
				webhookUrl: simulator.webhookUrl(ID),
				signingSecret: SECRET,
			});
			const run = await runWorkflow(prepared.options);
			expect(run.status).toBe('success');
			const [item] = outputOf(run, prepared.nodeName);
			expect(item.json.statusCode).toBe(202);
			const runs = simulator.runs(ID);
			expect(runs).toHaveLength(before + 1);
			const recorded = runs[runs.length - 1];
			expect((item.json.response as { runId: string }).runId).toBe(recorded.runId);
			expect(item.json.signedAt).toBe(recorded.signedAt);

			if (example.file === 'order-to-automation.json') {
				expect(recorded.message).toBe(ORDER_RUN.message);
				expect(recorded.context).toEqual(ORDER_RUN.context);
			} else if (example.file === 'daily-report-schedule.json') {
				expect(recorded.message).toMatch(/^Write the daily sales report for \d{4}-\d{2}-\d{2} /);
				expect(recorded.context).toMatchObject({ requestedBy: 'n8n schedule' });
				// What n8n's Schedule Trigger emits when run by hand, not a stand-in's item.
				const schedule = example.nodes.find((n) => n.type === 'n8n-nodes-base.scheduleTrigger')!;
				expect(Object.keys(outputOf(run, schedule.name)[0].json)).toEqual(
					expect.arrayContaining(['timestamp', 'Readable date', 'Day of week', 'Timezone']),
				);
			} else if (example.file === 'route-failures-by-code.json') {
				expect(recorded.message).toBe('Check order 1043 for Grace Hopper.');
				expect(recorded.context).toEqual({ orderId: 1043, customer: 'Grace Hopper' });
				// Its other orders ask the simulator to fail (below): one run only.
			} else {
				expect(prepared.mode).toBe('tool rehearsal');
				expect(recorded.message).toBe(FROM_AI_SAMPLES.message);
				expect(recorded.context).toEqual(FROM_AI_SAMPLES.context);
			}
		});
	}

	it("n8n's own nodes are n8n-nodes-base's classes, on the engine's one n8n-workflow", async () => {
		const nodes = await loadBaseNodes(PACKAGE_DIR);
		const base = createRequire(require.resolve('n8n-nodes-base/package.json'));
		const known = base('./dist/known/nodes.json') as Record<string, Record<string, string>>;
		for (const name of BASE_NODE_NAMES) {
			const file = base.resolve(`./${known[name].sourcePath}`);
			const exported = (base(file) as Record<string, new () => unknown>)[known[name].className];
			expect(nodes[`n8n-nodes-base.${name}`]).toBeInstanceOf(exported);
			// A second copy would break n8n-core's instanceof checks on node errors.
			expect(createRequire(file)('n8n-workflow').Workflow).toBe(workflowPackage.Workflow);
		}
	});

	it('route-failures-by-code.json as shipped, against the simulator: its orders land in three failure branches, each by its code, and the hint says what was turned away', async () => {
		const example = examples.find((e) => e.file === 'route-failures-by-code.json')!;
		const prepared = prepareExample(example, {
			webhookUrl: simulator.webhookUrl(ID),
			signingSecret: SECRET,
		});
		const before = simulator.runs(ID).length;
		const tooMany = simulator.tooMany;
		const run = await runWorkflow(prepared.options);
		expect(run.status).toBe('success');
		expect(simulator.runs(ID).length - before).toBe(1);
		const branches = {
			'Wait, then run it again': ['rate_limited', 1],
			'Alert: check the credential': ['signature_rejected', 2],
			'Fix and run again': ['body_rejected', 3],
		} as const;
		for (const [branch, [code, itemIndex]] of Object.entries(branches)) {
			const items = outputOf(run, branch);
			expect(items).toHaveLength(1);
			expect(items[0].json.details).toMatchObject({ code, itemIndex });
		}
		expect(outputOf(run, 'Ask a human: check the run history')).toEqual([]);
		// Retries When Not Accepted is 2 in the example: the first 429 and two more at least.
		const turnedAway = simulator.tooMany - tooMany;
		expect(turnedAway).toBeGreaterThanOrEqual(3);
		const hints = run.data.resultData.runData[prepared.nodeName][0].hints ?? [];
		expect(hints[0].message).toMatch(
			new RegExp(
				`^The service turned away ${turnedAway} requests without creating a run; the node waited \\d+ s in all and sent ${turnedAway - 1} of them again\\. 1 of 4 items was accepted, once; 3 failed`,
			),
		);
		// The sticky note says how, naming each order's simulated failure and its branch.
		const note = example.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')!;
		for (const [branch, [code]] of Object.entries(branches)) {
			expect(note.parameters.content).toContain(`\`${code}\``);
			expect(note.parameters.content).toContain(`*${branch}*`);
		}
	});

	it.each([
		['rate_limited', 'Wait, then run it again', 429, { 'Retry-After': '120' }],
		['signature_rejected', 'Alert: check the credential', 401, {}],
		['may_have_run', 'Ask a human: check the run history', 500, {}],
		['service_refused', 'Fix and run again', 405, {}],
	])(
		'route-failures-by-code.json sends an item that fails with %s to "%s"',
		async (code, branch, status, headers) => {
			const receiver = await new Receiver().start();
			try {
				receiver.respondWith((_request, res) => answer(res, status, 'no', headers));
				const example = examples.find((e) => e.file === 'route-failures-by-code.json')!;
				const prepared = prepareExample(example, {
					webhookUrl: `${receiver.url}/webhooks/cloud/${ID}`,
					signingSecret: SECRET,
				});
				const run = await runWorkflow(prepared.options);
				expect(run.status).toBe('success');
				const ends = example.nodes.filter(
					(n) => n.type === 'n8n-nodes-base.set' && n.name !== 'Orders',
				);
				const reached = ends.filter((n) => outputOf(run, n.name).length > 0).map((n) => n.name);
				expect(reached).toEqual([branch]);
				// Every order meets the same answer here: all four in that branch.
				const items = outputOf(run, branch);
				expect(items.map((item) => (item.json.details as { code: string }).code)).toEqual(
					Array(4).fill(code),
				);
				// Each order sent once at most (a 429 asking for 120 s stops the rest unsent).
				const sent = receiver.requests.map((r) => bodyJson(r).data.context);
				expect(new Set(sent.map((c) => JSON.stringify(c))).size).toBe(sent.length);
				expect(sent.length).toBeGreaterThanOrEqual(1);
				if (status !== 429) expect(sent).toHaveLength(4);
			} finally {
				await receiver.stop();
			}
		},
	);

	it.each([
		['ai-agent-tool.json', 'AI Agent'],
		['mcp-server-tool.json', 'MCP Server Trigger'],
	])(
		'%s gives %s the tool variant of this node, Message and Context from $fromAI',
		(file, root) => {
			const example = examples.find((e) => e.file === file)!;
			const tool = example.nodes.find((n) => n.type.endsWith('.triggerAutomationTool'))!;
			expect(tool.parameters.message).toMatch(/\$fromAI\('message'/);
			expect(tool.parameters.contextJson).toMatch(/\$fromAI\('context'/);
			expect(example.connections[tool.name].ai_tool[0]?.[0].node).toBe(root);
		},
	);
});
