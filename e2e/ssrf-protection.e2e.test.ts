/**
 * n8n 2.41.1 with SSRF protection on (N8N_SSRF_PROTECTION_ENABLED=true): the webhook on 127.0.0.1 is
 * a private address, and n8n refuses the request before sending it. A run fails with n8n's message
 * and its advice (the allowlist) and says nothing was sent, and the simulator receives nothing; the
 * credential dialog's test shows n8n's refusal. With 127.0.0.1 allowlisted
 * (N8N_SSRF_ALLOWED_IP_RANGES) the same run starts a run.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { WorkflowFile } from '../dev/exampleFiles';
import { CREDENTIAL_TYPE } from '../dev/exampleFiles';
import { APPS, N8nInstance, setUpOwner } from '../dev/n8nApp';
import { AutomationServiceSimulator } from '../dev/simulator';
import { NOTHING_SENT } from '../nodes/TriggerAutomation/answer/failure';
import { ORDER_RUN } from '../test/support/orderExample';
import type { Editor } from './support/editor';
import { credentialTestFailure, openCredential, openEditor, signIn } from './support/editor';
import { executeWorkflow } from './support/execution';
import { importOrderExample } from './support/workflows';

const ID = 'ssrf-automation';
const SECRET = 'ssrf_e2e_secret_5d1a7c';
const PROTECTED = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
const BLOCKED = 'The request was blocked because it resolves to a restricted IP address';
/** The start of n8n's description: which address, and the allowlist as the way out. */
const N8N_ADVICE = /^The target 127\.0\.0\.1 is not allowed\..*allowlist/;

describe('n8n-2 with N8N_SSRF_PROTECTION_ENABLED=true: a webhook on 127.0.0.1 is refused before sending', () => {
	const app = APPS['n8n-2'];
	const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
	let n8n: N8nInstance;
	let order: WorkflowFile & { id: string };

	beforeAll(async () => {
		await simulator.start();
		n8n = new N8nInstance(app, { env: PROTECTED });
		n8n.installPackage();
		order = await importOrderExample(n8n, {
			webhookUrl: simulator.webhookUrl(ID),
			signingSecret: SECRET,
		});
	});

	afterAll(async () => {
		await n8n?.stop();
		await simulator.stop();
		n8n?.dispose();
	});

	it("n8n execute: the order example fails with n8n's message and advice, says nothing was sent, and the simulator receives nothing", async () => {
		const run = await executeWorkflow(n8n, order.id);
		expect(run.status).toBe('error');
		const error = run.data.resultData.error;
		expect(error?.message).toBe(BLOCKED);
		expect(error?.description).toMatch(N8N_ADVICE);
		expect(error?.description).toContain(NOTHING_SENT);
		expect(error?.description).toMatch(/Failure code: `n8n_refused`\.$/);
		expect(simulator.requests).toBe(0);
	});

	it('with 127.0.0.1 allowlisted (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32), the same run starts one run', async () => {
		const allowlisted = new N8nInstance(app, {
			userFolder: n8n.userFolder,
			env: { ...PROTECTED, N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' },
		});
		const run = await executeWorkflow(allowlisted, order.id);
		expect(run.status).toBe('success');
		expect(simulator.runs(ID).map((recorded) => recorded.message)).toEqual([ORDER_RUN.message]);
	});

	describe('the editor, in headless Chromium', () => {
		let editor: Editor;

		beforeAll(async () => {
			await n8n.start();
			await setUpOwner(n8n);
			editor = await openEditor(n8n);
			await signIn(editor.page, n8n);
		});

		afterEach(async ({ task }) => {
			if (task.result?.state === 'fail' && editor) await editor.screenshot('failed-ssrf');
		});

		afterAll(async () => {
			await editor?.close();
		});

		it("the credential dialog's test fails with n8n's refusal and its allowlist advice, and sends nothing", async () => {
			const before = simulator.requests;
			const { credentials } = order.nodes.find((node) => node.credentials)!;
			await openCredential(editor.page, n8n, credentials![CREDENTIAL_TYPE].name);
			const shown = await credentialTestFailure(editor.page, new RegExp(BLOCKED));
			await editor.screenshot('credential-test-ssrf-blocked');
			expect(shown).toMatch(new RegExp(`^${BLOCKED}\\. The target 127\\.0\\.0\\.1 .*allowlist`));
			expect(simulator.requests).toBe(before);
		});
	});
});
