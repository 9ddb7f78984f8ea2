import { createRequire } from 'node:module';
import * as workflowPackage from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BASE_NODE_NAMES, loadBaseNodes } from '../../dev/baseNodes';
import { PACKAGE_DIR, outputOf, runWorkflow } from '../../dev/engine';
import { FROM_AI_SAMPLES, loadExamples, prepareExample } from '../../dev/examples';
import { AutomationServiceSimulator } from '../../dev/simulator';
import { Receiver, answer } from '../support/receiver';
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
					(n) => n.type === 'n8n-nodes-base.set' && n.name !== 'Order',
				);
				const reached = ends.filter((n) => outputOf(run, n.name).length > 0).map((n) => n.name);
				expect(reached).toEqual([branch]);
				const [item] = outputOf(run, branch);
				expect(item.json.details).toMatchObject({ code, itemIndex: 0 });
				expect(receiver.requests).toHaveLength(1);
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
