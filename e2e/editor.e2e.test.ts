/**
 * The package as a user meets it in n8n's editor, in headless Chromium: found in the nodes panel,
 * offered as an AI Agent tool, its fields, its credential dialog, its runs from the Execute button
 * with the hints above their output and the preview's mark on the canvas, its error view and n8n's
 * Retry of the failed execution from the workflow's Executions list, and its credential in n8n's
 * HTTP Request node. Screenshots go to test-results/e2e-screenshots.
 */
import type { Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { N8nInstance } from '../dev/n8nApp';
import { APPS } from '../dev/n8nApp';
import { AutomationServiceSimulator } from '../dev/simulator';
import { AppUnderTest } from './support/appUnderTest';
import type { Editor } from './support/editor';
import {
	chooseOption,
	credentialTestFailure,
	openCredential,
	openEditor,
	openNode,
	closeNode,
	openNodesPanel,
	openExecutions,
	openWorkflow,
	predefinedCredentialType,
	retryExecution,
	searchNodesPanel,
	signIn,
} from './support/editor';
import type { Rest } from './support/rest';
import { ScriptedChatModel } from './support/scriptedModel';
import { httpRequestWorkflow, itemsWorkflow } from './support/workflows';
import type { WorkflowFile } from '../dev/exampleFiles';
import {
	CREDENTIAL_TYPE,
	FROM_AI_SAMPLES,
	credentialsOf,
	readExamples,
	workflowId,
} from '../dev/exampleFiles';
import { PREVIEW_SUBTITLE } from '../nodes/TriggerAutomation/description';
import { TriggerAutomation } from '../nodes/TriggerAutomation/TriggerAutomation.node';
import { failuresHint, previewHint, retryHint } from '../nodes/TriggerAutomation/answer/nodeError';
import type { Responder } from '../test/support/receiver';
import {
	Receiver,
	acceptWithJson,
	answer,
	answerBusy,
	bodyJson,
	specViolations,
} from '../test/support/receiver';
import { ORDER_RUN } from '../test/support/orderExample';

const ID = 'editor-automation';
/** What the node's details in the nodes panel say it does. */
const NODE_DESCRIPTION = new TriggerAutomation().description.description;
const SECRET = 'e2e_editor_secret_8c2d4e';

const ORDER = workflowId('order-to-automation.json');
const SCHEDULE = workflowId('daily-report-schedule.json');
const AGENT = workflowId('ai-agent-tool.json');
// n8n 2.x saves a workflow's edits as they are made: the tests that add nodes add them to copies,
// so the examples other tests run stay as shipped.
const AGENT_TOOLS = workflowId('agentToolList');
const ADD_NODE = workflowId('orderAddNode');
const HTTP = workflowId('httpRequestNode');
const PREVIEW = workflowId('previewOnly');
const SOME_FAIL = workflowId('someItemsFail');
const RETRY = workflowId('retryInEditor');
const ROUTE = workflowId('route-failures-by-code.json');
const WAITED = workflowId('waitedInEditor');
const TURNED_AWAY = workflowId('turnedAway');

/** What the scripted chat model asks the tool to do: the agent's $fromAI values. */
const AGENT_CALL = FROM_AI_SAMPLES;
const OPENAI = { id: 'e2eOpenAiCred001', name: 'Scripted chat model on 127.0.0.1' };

/** The AI Agent example's chat model node, given the scripted model's credential. */
function withChatModelCredential(workflow: WorkflowFile): WorkflowFile {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi'
				? { ...node, credentials: { openAiApi: OPENAI } }
				: node,
		),
	};
}

/** A service that refuses the message "Busy" with 503 and accepts any other. */
const busyForBusy: Responder = (request, res, req) =>
	(bodyJson(request).data.message === 'Busy' ? answerBusy : acceptWithJson)(request, res, req);
const BY_MESSAGE = { id: 'e2eByMessageCred', name: 'Webhook answering by message' };

/** Under On Error → Continue: one item accepted, one refused with 503, one without a message. */
const someItemsFail = itemsWorkflow({
	id: SOME_FAIL,
	name: 'Three items, two of them fail',
	items: [
		{ message: 'Accepted', position: 1 },
		{ message: 'Busy', position: 2 },
		{ message: '', position: 3 },
	],
	credential: BY_MESSAGE,
	settings: { onError: 'continueRegularOutput' },
	// The 503 once, not again after a backoff.
	options: { retries: 0 },
});

/** 500 to the first request for `failing`, 202 with a run id named after its message to any other. */
function failsOnceFor(failing: string): Responder {
	let failed = false;
	return (request, res) => {
		const { message } = bodyJson(request).data;
		if (message === failing && !failed) {
			failed = true;
			return answer(res, 500, 'busy');
		}
		answer(res, 202, JSON.stringify({ runId: `run-${message}` }), {
			'Content-Type': 'application/json',
		});
	};
}
const RETRY_CREDENTIAL = { id: 'e2eRetryEditCred', name: 'Webhook failing once for Retry-1' };

/** At the node's defaults (On Error: stop the workflow): the 500 for Retry-1 fails the execution. */
const retryInEditor = itemsWorkflow({
	id: RETRY,
	name: 'Three items, one refused once',
	items: ['Retry-0', 'Retry-1', 'Retry-2'].map((message, position) => ({ message, position })),
	credential: RETRY_CREDENTIAL,
});

/** A service that allows 2 requests a second: beyond, 429 with Retry-After: 1. */
const LIMITED = { id: 'e2eLimitedCred01', name: 'Webhook limited to 2 a second' };
const waitedInEditor = itemsWorkflow({
	id: WAITED,
	name: 'Eight items, a rate-limited service',
	items: Array.from({ length: 8 }, (_, position) => ({ message: `Wait-${position}`, position })),
	credential: LIMITED,
});

/** A service that turns every request away: 429, Retry-After: 0. */
const turnEveryoneAway: Responder = (_request, res) =>
	answer(res, 429, '{"message":"Too many requests"}', {
		'Retry-After': '0',
		'Content-Type': 'application/json',
	});
const TURNING_AWAY = { id: 'e2eTurnAwayCred1', name: 'Webhook turning every request away' };
/** One item, at the defaults but one re-send: the node stops with the 429. */
const turnedAwayInEditor = itemsWorkflow({
	id: TURNED_AWAY,
	name: 'One item, a service that turns it away',
	items: [{ message: 'Turned away', position: 1 }],
	credential: TURNING_AWAY,
	options: { retries: 1 },
});

/** The output panel's top: its header, the hint, the item count below it. */
const hintArea = (output: Locator, hint: Locator) => [
	output.getByTestId('run-data-pane-header'),
	hint,
	output.getByTestId('ndv-items-count'),
];

/** The order example with Options → Preview Only (Don't Send) on. */
function withPreviewOnly(workflow: WorkflowFile, id: string): WorkflowFile {
	return {
		...workflow,
		id,
		name: 'Order example, preview only',
		nodes: workflow.nodes.map((node) =>
			node.name === 'Trigger Automation'
				? {
						...node,
						parameters: {
							...(node.parameters as object),
							options: { previewOnly: true },
						},
					}
				: node,
		),
	};
}

for (const app of Object.values(APPS)) {
	describe(`${app.id}: the editor, in headless Chromium`, () => {
		const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
		const model = new ScriptedChatModel(AGENT_CALL);
		const byMessage = new Receiver({ respond: busyForBusy });
		const failingOnce = new Receiver({ respond: failsOnceFor('Retry-1') });
		const limited = new AutomationServiceSimulator({
			automations: [{ id: ID, secret: SECRET }],
			perSecond: 2,
		});
		const turningAway = new Receiver({ respond: turnEveryoneAway });
		const underTest = new AppUnderTest();
		let n8n: N8nInstance;
		let rest: Rest;
		let editor: Editor;

		beforeAll(async () => {
			await simulator.start();
			await model.start();
			await byMessage.start();
			await failingOnce.start();
			await limited.start();
			await turningAway.start();
			const data = { webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET };
			const examples = readExamples();
			const http = httpRequestWorkflow(HTTP, data.webhookUrl, {
				id: 'e2eHttpCred00001',
				name: 'Webhook for HTTP Request',
			});
			const credentials = [
				...[...examples.map((e) => e.workflow), http].flatMap((w) => credentialsOf(w, data)),
				{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-e2e-not-a-key', url: model.baseUrl } },
				{
					...BY_MESSAGE,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: byMessage.webhookUrl(ID), signingSecret: SECRET },
				},
				{
					...RETRY_CREDENTIAL,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: failingOnce.webhookUrl(ID), signingSecret: SECRET },
				},
				{
					...LIMITED,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: limited.webhookUrl(ID), signingSecret: SECRET },
				},
				{
					...TURNING_AWAY,
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: turningAway.webhookUrl(ID), signingSecret: SECRET },
				},
			];
			const order = examples.find(({ file }) => file === 'order-to-automation.json')!.workflow;
			const agent = examples.find(({ file }) => file === 'ai-agent-tool.json')!.workflow;
			({ n8n, rest } = await underTest.start(app, {
				credentials,
				workflows: [
					...examples.map(({ file, workflow }) => ({
						...withChatModelCredential(workflow),
						id: workflowId(file),
					})),
					http,
					withPreviewOnly(order, PREVIEW),
					{ ...agent, id: AGENT_TOOLS },
					{ ...order, id: ADD_NODE },
					someItemsFail,
					retryInEditor,
					waitedInEditor,
					turnedAwayInEditor,
				],
			}));
			editor = await openEditor(n8n);
			// Leaving a workflow with unsaved edits asks; the tests leave without saving.
			editor.page.on('dialog', (dialog) => void dialog.accept());
			await signIn(editor.page, n8n);
		});

		// What the page showed when a test failed, beside the suite's other screenshots.
		afterEach(async ({ task }) => {
			if (task.result?.state === 'fail' && editor) {
				await editor.screenshot(`failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`);
			}
		});

		afterAll(async () => {
			await editor?.close();
			await underTest.stop();
			await simulator.stop();
			await model.stop();
			await byMessage.stop();
			await failingOnce.stop();
			await limited.stop();
			await turningAway.stop();
		});

		it("the AI Agent's tool list offers the tool variant", async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, AGENT_TOOLS);
			// Clicked while the editor still loads, 2.41.1's "+" opened "Other AI Nodes" instead of
			// "Tools" and offered the regular node there.
			await page.waitForLoadState('networkidle');
			await page
				.locator('.canvas-node-handle-non-main-input')
				.filter({ hasText: 'Tool' })
				.getByTestId('canvas-handle-plus')
				.click();
			await page.getByTestId('nodes-list-header').getByText('Tools', { exact: true }).waitFor();
			// 1.x lists it as "Trigger Automation Tool", 2.x as "Trigger Automation" in this view.
			const names = await searchNodesPanel(page, 'Trigger Automation', 'Trigger Automation Tool');
			await editor.screenshot('agent-tool-list');
			const offered = names.find((name) => name.startsWith('Trigger Automation'));
			expect(offered).toBeDefined();
			// What it adds is the tool variant: its panel asks for the description the agent reads.
			await page.getByTestId('node-creator-item-name').getByText(offered!, { exact: true }).click();
			// n8n's Tools view opens no node details: choosing it adds the tool at once.
			await page.getByTestId('ndv').waitFor();
			const toolParameters = page
				.getByTestId('parameter-input-descriptionType')
				.or(page.getByTestId('parameter-input-toolDescription'));
			await toolParameters.first().waitFor();
			await closeNode(page);
		});

		it("the nodes panel finds the node by its name and by the service's name, in the regular view", async () => {
			const { page } = editor;
			await openNodesPanel(page, n8n, ORDER);
			expect(await searchNodesPanel(page, 'Trigger Automation', 'Trigger Automation')).toContain(
				'Trigger Automation',
			);
			await editor.screenshot('nodes-panel-search');
			expect(await searchNodesPanel(page, 'Automation Service', 'Trigger Automation')).toContain(
				'Trigger Automation',
			);
			await page.keyboard.press('Escape');
		});

		it('the node\'s details in the nodes panel: what it does and "Add to workflow", with no action, no trigger bolt, no Triggers section and no "On new Automation event"; Add to workflow adds the regular node', async () => {
			const { page } = editor;
			await openNodesPanel(page, n8n, ADD_NODE);
			const onCanvas = page.getByTestId('canvas-node').filter({ hasText: 'Trigger Automation' });
			const before = await onCanvas.count();
			await searchNodesPanel(page, 'Trigger Automation', 'Trigger Automation');
			await page
				.getByTestId('node-creator-item-name')
				.getByText('Trigger Automation', { exact: true })
				.first()
				.click();
			const panel = page.getByTestId('node-creator');
			const add = panel.getByRole('button', { name: 'Add to workflow' });
			await add.waitFor();
			// The details slide in from the right: the checks and the screenshot wait until they stand still.
			await expect
				.poll(async () => {
					const x = (await add.boundingBox())?.x;
					await page.waitForTimeout(150);
					return x !== undefined && x === (await add.boundingBox())?.x;
				})
				.toBe(true);
			await editor.screenshot('nodes-panel-details');
			expect(await panel.getByText(NODE_DESCRIPTION, { exact: true }).count()).toBe(1);
			expect(await panel.getByText(/On new\s+Automation event/).count()).toBe(0);
			// n8n marks a trigger with a bolt titled "Trigger Node", and lists actions under "Triggers"
			// or "Actions"; the details show none of them.
			expect(await panel.locator('[data-icon^="bolt"], [title="Trigger Node"]').count()).toBe(0);
			expect(await panel.getByText(/^(Triggers|Actions)\b/).count()).toBe(0);
			await add.click();
			// What it adds is the regular node, with its Message field, not a trigger.
			await page.getByTestId('ndv').waitFor();
			await page.getByTestId('parameter-input-message').waitFor();
			await closeNode(page);
			expect(await onCanvas.count()).toBe(before + 1);
		});

		it("the node's and the credential's Docs links open docs/reference.md, with no #fragment", async () => {
			const { page } = editor;
			const pages =
				'https://github.com/automation-service/n8n-nodes-automation-service/blob/main/docs/';
			const docsLinks = async (page_: string) => {
				const links = page.locator(`a[href^="${pages}${page_}"]`).locator('visible=true');
				await links.first().waitFor();
				return await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')!));
			};
			await openWorkflow(page, n8n, ORDER);
			await openNode(page, 'Trigger Automation');
			const node = await docsLinks('reference.md');
			await closeNode(page);
			await openCredential(page, n8n, 'Order automation webhook');
			const credential = await docsLinks('reference.md');
			await editor.screenshot('credential-docs-link');
			await page.keyboard.press('Escape');
			// n8n appends its utm query to the node's link; after a #fragment it would land at the top.
			for (const [href, file] of [
				...node.map((href) => [href, 'reference.md']),
				...credential.map((href) => [href, 'reference.md']),
			]) {
				expect(href).not.toContain('#');
				expect(`${new URL(href).origin}${new URL(href).pathname}`).toBe(`${pages}${file}`);
			}
		});

		it('the node panel shows the fields of each Context mode', async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, ORDER);
			await openNode(page, 'Trigger Automation');
			const shown = async (mode: string) => {
				await chooseOption(page, 'contextMode', mode);
				return {
					message: await page.getByTestId('parameter-input-message').isVisible(),
					fields: await page.getByTestId('assignment-collection-contextFields').isVisible(),
					json: await page.getByTestId('parameter-input-contextJson').isVisible(),
				};
			};
			expect(await shown('None')).toEqual({ message: true, fields: false, json: false });
			expect(await shown('All Input Fields')).toEqual({
				message: true,
				fields: false,
				json: false,
			});
			expect(await shown('Selected Fields')).toEqual({ message: true, fields: true, json: false });
			expect(await shown('JSON')).toEqual({ message: true, fields: false, json: true });
			await editor.screenshot('node-panel-json-context');
		});

		it("Execute workflow on the order example: one verified run, and the node's output item shows its run id", async () => {
			const { page } = editor;
			const before = simulator.runs(ID).length;
			await openWorkflow(page, n8n, ORDER);
			await page.getByTestId('execute-workflow-button').first().click();
			await expect.poll(() => simulator.runs(ID).length, { timeout: 30_000 }).toBe(before + 1);
			const run = simulator.runs(ID)[before];
			expect(run.message).toBe(ORDER_RUN.message);
			await openNode(page, 'Trigger Automation');
			const output = page.getByTestId('output-panel');
			await output.getByText(run.runId).first().waitFor();
			await editor.screenshot('order-executed');
		});

		it("Preview Only: the node's subtitle on the canvas says nothing is sent; Execute workflow shows the signed request in its output panel, under the hint that nothing was sent, and sends nothing", async () => {
			const { page } = editor;
			const before = simulator.requests;
			await openWorkflow(page, n8n, PREVIEW);
			const node = page.getByTestId('canvas-node').filter({ hasText: 'Trigger Automation' });
			const subtitle = node.getByText(`${PREVIEW_SUBTITLE}: `);
			await subtitle.waitFor();
			expect(await subtitle.innerText()).toBe(`${PREVIEW_SUBTITLE}: Message + selected fields`);
			await editor.screenshot('preview-subtitle', node, subtitle);
			await page.getByTestId('execute-workflow-button').first().click();
			await openNode(page, 'Trigger Automation');
			const output = page.getByTestId('output-panel');
			await output.getByText('bodySha256').first().waitFor();
			await output.getByText('signingInput').first().waitFor();
			const hint = output.getByText(previewHint().message);
			await hint.waitFor();
			await editor.screenshot('preview-output');
			await editor.screenshot('preview-hint', ...hintArea(output, hint));
			expect(simulator.requests).toBe(before);
			await closeNode(page);
		});

		it('On Error → Continue with items that fail: the hint above the output says how many failed, how many may have created a run, and what to do', async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, SOME_FAIL);
			await page.getByTestId('execute-workflow-button').first().click();
			await openNode(page, 'Trigger Automation');
			const output = page.getByTestId('output-panel');
			const hint = output.getByText(failuresHint(2, 1, 3).message);
			await hint.waitFor();
			await editor.screenshot('failures-hint', ...hintArea(output, hint));
			// The item refused with 503 was sent once; the one without a message never.
			const answered = byMessage.requests.map((r) => [bodyJson(r).data.message, r.answer]);
			expect(answered.sort()).toEqual([
				['Accepted', 202],
				['Busy', 503],
			]);
			await closeNode(page);
		});

		it('a run that waited on a rate limit: the hint above the output says how many requests the service turned away, how long the node waited, and that every item was accepted once', async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, WAITED);
			await page.getByTestId('execute-workflow-button').first().click();
			await openNode(page, 'Trigger Automation');
			const output = page.getByTestId('output-panel');
			const hint = output.getByText(
				/^The service turned away \d+ requests? without creating a run/,
			);
			await hint.waitFor({ timeout: 60_000 });
			const shown = await hint.innerText();
			expect(shown).toMatch(
				new RegExp(
					`^The service turned away ${limited.tooMany} requests? without creating a run; the node waited (under 1|\\d+) s in all and sent (it|them) again\\. All 8 items were accepted, each once\\.$`,
				),
			);
			expect(limited.tooMany).toBeGreaterThan(0);
			expect(limited.runs(ID)).toHaveLength(8);
			await editor.screenshot('wait-hint', ...hintArea(output, hint));
			await closeNode(page);
		});

		it('one item the service keeps turning away (Adaptive, the default): the error view advises raising Retries When Not Accepted or running later, and names no Sending mode', async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, TURNED_AWAY);
			await page.getByTestId('execute-workflow-button').first().click();
			await openNode(page, 'Trigger Automation');
			const description = page
				.getByTestId('output-panel')
				.getByTestId('node-error-description')
				.filter({ hasText: 'Retries When Not Accepted' });
			await description.waitFor();
			const shown = await description.innerText();
			expect(shown).toMatch(
				/^Raise Options → Retries When Not Accepted \(now 1; about one per second of a busy spell\), or run this item again later, when the service is less busy: it turned this item away 2 times in (under 1|\d+) s\. The service said: Too many requests\./,
			);
			expect(shown).not.toMatch(/Sending|One at a Time|Fixed Batches|Batch/);
			expect(turningAway.requests).toHaveLength(2);
			await editor.screenshot('rate-limit-advice');
			await closeNode(page);
		});

		it('route-failures-by-code.json as shipped, against the simulator: its orders reach three failure branches, and the hint says what the service turned away', async () => {
			const { page } = editor;
			const before = simulator.runs(ID).length;
			await openWorkflow(page, n8n, ROUTE);
			await page.getByTestId('execute-workflow-button').first().click();
			await openNode(page, 'Trigger Automation');
			const output = page.getByTestId('output-panel');
			const hint = output.getByText(/^The service turned away \d+ requests without creating a run/);
			await hint.waitFor({ timeout: 60_000 });
			expect(await hint.innerText()).toMatch(
				/; the node waited \d+ s in all and sent \d+ of them again\. 1 of 4 items was accepted, once; 3 failed: their errors say why\.$/,
			);
			// Its output has two branches, no item count under the hints.
			await editor.screenshot(
				'route-example-hint',
				output.getByTestId('run-data-pane-header'),
				hint,
			);
			await closeNode(page);
			expect(simulator.runs(ID)).toHaveLength(before + 1);
			const execution = await rest.endedExecution(ROUTE, []);
			const runData = execution.data.resultData.runData;
			const branches = [
				'Wait, then run it again',
				'Alert: check the credential',
				'Fix and run again',
			];
			const reached = branches.filter(
				(name) => (runData[name]?.[0]?.data?.main[0]?.length ?? 0) > 0,
			);
			// n8n 1.x keeps this node's error items on its regular output (docs/reference.md).
			expect(reached).toEqual(n8n.version.startsWith('1.') ? [] : branches);
			await page.getByTestId('canvas-node').first().waitFor();
			await editor.screenshot('route-example-branches');
		});

		it("n8n's Retry from the Executions list after a failed run: the error view says what the Retry will do, and the Retry sends only the item that was not accepted", async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, RETRY);
			await page.getByTestId('execute-workflow-button').first().click();
			await openNode(page, 'Trigger Automation');
			const description = page
				.getByTestId('output-panel')
				.getByTestId('node-error-description')
				.filter({
					hasText: "n8n's Retry of this execution passes them on without sending them again",
				});
			await description.waitFor();
			const shown = await description.innerText();
			expect(shown).toContain(
				"The service accepted 2 other items: n8n's Retry of this execution passes them on without sending them again, and sends only the items not accepted, this one included.",
			);
			// The failure's code, shown where the editor shows no error context.
			expect(shown).toContain('Failure code: may_have_run.');
			expect(await description.locator('code', { hasText: /^may_have_run$/ }).count()).toBe(1);
			await editor.screenshot('retry-error-view');
			await closeNode(page);
			const failed = await rest.endedExecution(RETRY, []);
			expect(failed.status).toBe('error');

			await openExecutions(page);
			await retryExecution(page, failed.id);
			await page.getByText('Retry successful', { exact: true }).first().waitFor();
			const retried = await rest.endedExecution(RETRY, [failed.id]);
			expect(retried).toMatchObject({ status: 'success', retryOf: failed.id });
			// The retry, selected in the list: its preview says it succeeded.
			await page.getByTestId(`execution-details-${retried.id}`).getByRole('link').first().click();
			await page
				.getByTestId(`execution-preview-details-${retried.id}`)
				.getByTestId('execution-preview-label')
				.getByText('Succeeded', { exact: true })
				.waitFor();
			await page.waitForLoadState('networkidle');
			await editor.screenshot('retry-from-executions-list');
			// n8n 2.x shows the preview in the page (1.x in an iframe): the Retry's own output, under
			// the hint every Retry shows, what it cannot know of other Retries of the same execution.
			if (!n8n.version.startsWith('1.')) {
				await page
					.getByTestId('execution-preview-host')
					.getByTestId('canvas-node')
					.filter({ hasText: 'Trigger Automation' })
					.first()
					.dblclick();
				const output = page.getByTestId('output-panel');
				const hint = output.getByText(retryHint([failed.id]).message);
				await hint.waitFor();
				await editor.screenshot('retry-hint', ...hintArea(output, hint));
				await closeNode(page);
			}

			// The Retry passed Retry-0 and Retry-2 on and sent only Retry-1 again.
			const answered = failingOnce.requests.map((r) => [bodyJson(r).data.message, r.answer]);
			expect(answered.sort()).toEqual([
				['Retry-0', 202],
				['Retry-1', 202],
				['Retry-1', 500],
				['Retry-2', 202],
			]);
			for (const request of failingOnce.requests) {
				expect(specViolations(request, SECRET, `/webhooks/cloud/${ID}`)).toEqual([]);
			}
		});

		it('Execute workflow on the schedule example: the Schedule Trigger fires once and starts one run', async () => {
			const { page } = editor;
			const before = simulator.runs(ID).length;
			await openWorkflow(page, n8n, SCHEDULE);
			await page.getByTestId('execute-workflow-button').first().click();
			await expect.poll(() => simulator.runs(ID).length, { timeout: 30_000 }).toBe(before + 1);
			expect(simulator.runs(ID)[before].message).toMatch(
				/^Write the daily sales report for \d{4}-\d{2}-\d{2} /,
			);
		});

		it('the HTTP Request node offers the credential under Predefined Credential Type and sends a signed run with it', async () => {
			const { page } = editor;
			await openWorkflow(page, n8n, HTTP);
			await openNode(page, 'HTTP Request');
			expect(await predefinedCredentialType(page, 'Service Webhook Secret')).toEqual({
				shown: 'Service Webhook Secret',
				offered: true,
			});
			await editor.screenshot('http-request-credential-type');
			await page.keyboard.press('Escape');
			await closeNode(page);
			const before = simulator.runs(ID).length;
			await page.getByTestId('execute-workflow-button').first().click();
			await expect.poll(() => simulator.runs(ID).length, { timeout: 30_000 }).toBe(before + 1);
			expect(simulator.runs(ID)[before]).toMatchObject({
				message: 'Sent by the HTTP Request node',
				context: { via: 'httpRequest' },
			});
		});

		/** Saves a new credential from the node's panel; n8n then runs its test. */
		async function newCredential(webhookUrl: string, signingSecret: string) {
			const { page } = editor;
			await openWorkflow(page, n8n, ORDER);
			await openNode(page, 'Trigger Automation');
			await page.getByTestId('node-credentials-select').click();
			await page.getByTestId('node-credentials-select-item-new').click();
			await page.getByTestId('parameter-input-webhookUrl').locator('input').fill(webhookUrl);
			await page.getByTestId('parameter-input-signingSecret').locator('input').fill(signingSecret);
			await page.getByTestId('credential-save-button').click();
		}

		it("the credential dialog's test: OK for the service, with no run started; the form says what a pass means and that it cannot tell whether the secret is right", async () => {
			const { page } = editor;
			const before = { requests: simulator.requests, runs: simulator.runs(ID).length };
			await openCredential(page, n8n, 'Order automation webhook');
			await page.getByTestId('credentials-config-container-test-success').waitFor();
			await page
				.getByText(
					/host answered one unsigned HEAD request\. The test cannot tell whether the secret is right/,
				)
				.first()
				.waitFor();
			await editor.screenshot('credential-test-ok');
			await page.keyboard.press('Escape');
			// The test reached the service (its HEAD request) and started no run.
			expect(simulator.requests).toBeGreaterThan(before.requests);
			expect(simulator.runs(ID)).toHaveLength(before.runs);
		});

		it("the credential dialog's test fails for a URL nothing listens on, saying so", async () => {
			await newCredential('http://127.0.0.1:1/webhooks/cloud/nowhere', SECRET);
			await credentialTestFailure(
				editor.page,
				/Could not connect to 127\.0\.0\.1:1: connection refused/,
			);
			await editor.screenshot('credential-test-unreachable');
			await editor.page.keyboard.press('Escape');
		});

		it("the credential dialog's test names the whitespace in a pasted secret", async () => {
			await newCredential(simulator.webhookUrl(ID), ` ${SECRET}`);
			await credentialTestFailure(editor.page, /starts or ends with whitespace/);
			await editor.screenshot('credential-test-whitespace');
			await editor.page.keyboard.press('Escape');
		});

		it("ai-agent-tool.json: a chat message makes n8n's AI Agent call the tool, which starts one run with the $fromAI values", async () => {
			const { page } = editor;
			const before = simulator.runs(ID).length;
			await openWorkflow(page, n8n, AGENT);
			await page.getByTestId('workflow-chat-button').click();
			const input = page
				.getByTestId('chat-input')
				.locator('textarea')
				.or(page.locator('textarea[data-test-id="chat-input"]'));
			await input.first().fill('Please restock the Oslo shop with tea.');
			await input.first().press('Enter');
			await expect.poll(() => simulator.runs(ID).length, { timeout: 60_000 }).toBe(before + 1);
			const run = simulator.runs(ID)[before];
			expect({ message: run.message, context: run.context }).toEqual(AGENT_CALL);
			// The agent's reply quotes the tool's output item, which carries the run id.
			await page.getByText(run.runId).first().waitFor();
			await editor.screenshot('agent-chat');
			const offered = model.requests[0]?.tools?.map((tool) => tool.function.description);
			expect(offered?.[0]).toMatch(/^Starts a run of the operations automation/);
		});

		it('the editor reached no host but 127.0.0.1: the only calls out it tried are known ones, all refused', () => {
			// 2.x's node details look the community package up on the npm registry.
			const known = ['https://registry.npmjs.org/n8n-nodes-automation-service'];
			expect(editor.outsideRequests.filter((url) => !known.includes(url))).toEqual([]);
		});
	});
}
