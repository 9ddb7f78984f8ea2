/**
 * `npm run dev` (dev/n8nDev.ts) in the real n8n apps, on this offline machine: the terminal gets the
 * steps and the summary, n8n's own output goes to the log file the summary names, and n8n's own
 * settings keep its offline noise (lookups of n8n's hosts and their stack traces, deprecation notices
 * for defaults) out of that log where n8n has one. Restarted, it keeps an edit made in the editor
 * (through n8n's REST API, as the editor saves); --restore-examples puts the example back.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EXAMPLE_IDS, readExamples } from '../dev/exampleFiles';
import { APPS, OWNER, freePort } from '../dev/n8nApp';
import type { DevN8n } from '../dev/n8nDev';
import { DEV_SECRET, startDevN8n } from '../dev/n8nDev';

const ORDER_ID = EXAMPLE_IDS['order-to-automation.json'];

interface StoredWorkflow {
	versionId: string;
	nodes: Array<{ name: string; type: string; onError?: string }>;
	pinData?: Record<string, unknown>;
}

/** The owner's session, as the editor's sign-in makes it. */
async function signIn(baseUrl: string): Promise<string> {
	const response = await fetch(`${baseUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
	});
	expect(response.status).toBe(200);
	return response.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.join('; ');
}

async function getWorkflow(baseUrl: string, cookie: string): Promise<StoredWorkflow> {
	const response = await fetch(`${baseUrl}/rest/workflows/${ORDER_ID}`, { headers: { cookie } });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: StoredWorkflow }).data;
}

/** The edits the issue names: On Error → Continue on Trigger Automation, and pinned data. */
async function editOrderExample(baseUrl: string, cookie: string): Promise<void> {
	const workflow = await getWorkflow(baseUrl, cookie);
	const nodes = workflow.nodes.map((node) =>
		node.name === 'Trigger Automation' ? { ...node, onError: 'continueRegularOutput' } : node,
	);
	const response = await fetch(`${baseUrl}/rest/workflows/${ORDER_ID}`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({
			versionId: workflow.versionId,
			nodes,
			pinData: { 'Trigger Automation': [{ json: { pinned: 'by the user' } }] },
		}),
	});
	expect(response.status, await response.clone().text()).toBe(200);
}

function orderEdits(workflow: StoredWorkflow) {
	return {
		onError: workflow.nodes.find((node) => node.name === 'Trigger Automation')?.onError,
		pinData: workflow.pinData?.['Trigger Automation'],
	};
}

for (const app of Object.values(APPS)) {
	describe(`${app.id}: npm run dev`, () => {
		const dataDir = mkdtempSync(join(tmpdir(), `${app.id}-dev-`));
		const printed: string[] = [];
		let dev: DevN8n | undefined;
		let log = '';
		let port: number;
		let simulatorPort: number;
		const start = async (restoreExamples = false) => {
			printed.length = 0;
			dev = await startDevN8n({
				app,
				port,
				simulatorPort,
				dataDir,
				restoreExamples,
				print: (text) => printed.push(text),
			});
			return dev;
		};

		beforeAll(async () => {
			port = await freePort();
			simulatorPort = await freePort();
			log = readFileSync((await start()).logFile, 'utf8');
		});

		afterAll(async () => {
			await dev?.stop();
			rmSync(dataDir, { recursive: true, force: true });
		});

		it("the terminal gets the steps and the summary; n8n's output goes to the log file the summary names", () => {
			const terminal = printed.join('\n');
			expect(terminal).toMatch(/^ {2}Editor: {5}http:\/\/127\.0\.0\.1:\d+$/m);
			expect(terminal).toContain(`  n8n log:    ${dev!.logFile}`);
			expect(terminal).not.toMatch(/license SDK|Task Broker|deprecat|Python|ENOTFOUND/i);
			expect(log).toMatch(/Editor is now accessible/);
			expect(log).toContain(`Successfully imported ${readExamples().length} workflows`);
		});

		it("the summary shows the simulator's webhook URL and signing secret, to put a credential back", () => {
			const terminal = printed.join('\n');
			expect(terminal).toContain(
				`  Simulator:  http://127.0.0.1:${simulatorPort}/webhooks/cloud/dev-automation (run history:`,
			);
			expect(terminal).toContain(`its signing secret: ${DEV_SECRET}`);
			expect(terminal).toContain('imported from examples/ with their credentials');
			expect(terminal).toContain('npm run dev -- --restore-examples');
		});

		it('a restart keeps an edit made in the editor; --restore-examples puts the example back', async () => {
			let cookie = await signIn(`http://127.0.0.1:${port}`);
			await editOrderExample(`http://127.0.0.1:${port}`, cookie);
			const edited = orderEdits(await getWorkflow(`http://127.0.0.1:${port}`, cookie));
			expect(edited).toEqual({
				onError: 'continueRegularOutput',
				pinData: [{ json: { pinned: 'by the user' } }],
			});

			await dev!.stop();
			await start();
			expect(printed.join('\n')).toContain('kept as you left them');
			cookie = await signIn(`http://127.0.0.1:${port}`);
			expect(orderEdits(await getWorkflow(`http://127.0.0.1:${port}`, cookie))).toEqual(edited);

			await dev!.stop();
			await start(true);
			expect(printed.join('\n')).toContain('imported from examples/ with their credentials');
			cookie = await signIn(`http://127.0.0.1:${port}`);
			expect(orderEdits(await getWorkflow(`http://127.0.0.1:${port}`, cookie))).toEqual({
				onError: undefined,
				pinData: undefined,
			});
		}, 400_000);

		it("offline, n8n's log has no lookup of n8n's hosts and no stack trace", () => {
			expect(log).not.toMatch(/ENOTFOUND|api\.n8n\.io/);
			expect(log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
		});

		if (app.id === 'n8n-2') {
			it('n8n 2.x lists only the deprecation it has no setting for: the internal task runner', () => {
				const listed = [...log.matchAll(/^ - (\w+) -> /gm)].map((match) => match[1]);
				expect(listed).toEqual(['N8N_RUNNERS_MODE']);
			});
		}
	});
}
