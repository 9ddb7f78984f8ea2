/**
 * The compatibility run, `npm run test:compat [-- <app> …]`: for each n8n app in e2e/.apps (each a
 * pinned n8n version with its lockfile, overrides and Node.js major), install it (e2e/install.sh),
 * install the packed package as a community package, and check with the real app what a user meets
 * (see CHECKS). Prints one line per version, writes e2e/compat/results.json and renders the README's
 * minimum line and docs/install.md's table from it. Exits 1 when a version at or above the
 * minimum the README stated before the run is not supported.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { CREDENTIAL_TYPE, readExamples, workflowId } from '../../dev/exampleFiles';
import type { N8nApp } from '../../dev/n8nApp';
import {
	APPS_DIR,
	N8nInstance,
	nodeBinary,
	packPackage,
	readApp,
	setUpOwner,
} from '../../dev/n8nApp';
import { PACKAGE_DIR } from '../../dev/packageDir';
import { NODE_TYPE, PACKAGE_NAME, TOOL_TYPE } from '../../dev/packageNames';
import { AutomationServiceSimulator } from '../../dev/simulator';
import { Receiver, trickle } from '../../test/support/receiver';
import type { Editor } from '../support/editor';
import {
	openEditor,
	openNode,
	openNodesPanel,
	openWorkflow,
	predefinedCredentialType,
	searchNodesPanel,
	signIn,
} from '../support/editor';
import { executionOf, outputItems } from '../support/execution';
import { httpRequestWorkflow, itemsWorkflow } from '../support/workflows';
import type { CheckName, Outcome, VersionResult } from './compatibilityTable';
import {
	CHECKS,
	RENDERED_FILES,
	RESULTS_FILE,
	minimumOf,
	readResults,
	supported,
	withResults,
} from './compatibilityTable';

const ID = 'compat-automation';
const SECRET = 'compat_secret_5b8e1d3a';
const WRONG_SECRET = 'compat_secret_not_the_right_one';
const GOOD = { id: 'compatGoodCred01', name: 'Compat automation webhook' };
const WRONG = { id: 'compatWrongCred1', name: 'Compat webhook, wrong secret' };
const HTTP_CREDENTIAL = { id: 'compatHttpCred01', name: 'Compat webhook for HTTP Request' };
const TRICKLING = { id: 'compatTrickleCrd', name: 'Compat webhook that trickles its answer' };
const ORDER_FILE = 'order-to-automation.json';
const ORDER = workflowId(ORDER_FILE);
const WRONG_FLOW = workflowId('compatBadSecret');
const HTTP = workflowId('compatHttpNode');
const TRICKLED = workflowId('compatTrickled');
const CREDENTIAL_LABEL = 'Service Webhook Secret';

/** An error in one line: its first, and its last when it carries a log (as n8n's start does). */
function reason(error: unknown): string {
	const lines = String((error as Error)?.message ?? error)
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean);
	const text = lines.length > 1 ? `${lines[0]} … ${lines[lines.length - 1]}` : (lines[0] ?? '');
	return text.slice(0, 240);
}

/**
 * Installs the app, and Chromium for the editor checks, with e2e/install.sh; the reason it could not,
 * or its time in seconds.
 */
function install(app: N8nApp): { seconds: number } | { problem: string } {
	const started = Date.now();
	const result = spawnSync('bash', [join(PACKAGE_DIR, 'e2e', 'install.sh'), app.id, 'chromium'], {
		encoding: 'utf8',
	});
	if (result.status === 0) return { seconds: Math.round((Date.now() - started) / 1000) };
	const log = `${result.stdout}\n${result.stderr}`;
	const lines = log.split('\n');
	const npmError =
		lines.find((line) => /npm error notarget No matching/i.test(line)) ??
		lines.find((line) => /npm error (code|404)/i.test(line));
	return { problem: (npmError ?? log.trim().split('\n').pop() ?? 'install failed').trim() };
}

/**
 * What n8n logs when it cannot load the package: the package's own refusal of an n8n too old for it
 * (TriggerAutomation.node.ts); before that, 1.8x turned the TypeError of loading a node into "Class
 * could not be found"; other failures name the package or the node type.
 */
const LOAD_ERRORS = new RegExp(
	`${PACKAGE_NAME} needs n8n|Class could not be found|Error loading (package|node)|Unrecognized node type|Cannot find module|Unrecognized credential type`,
);

function loadProblem(log: string): string | undefined {
	return (
		log
			.split('\n')
			// Not the source line of the refusal, which n8n prints beside a stack.
			.find((line) => LOAD_ERRORS.test(line) && !line.includes('throw new'))
			?.replace(/ from: "[^"]*"/, '')
			.trim()
			.slice(0, 200)
	);
}

class VersionCheck {
	readonly checks = Object.fromEntries(
		Object.keys(CHECKS).map((name) => [name, { status: 'skipped' } as Outcome]),
	) as Record<CheckName, Outcome>;
	private readonly simulator = new AutomationServiceSimulator({
		automations: [{ id: ID, secret: SECRET }],
	});
	private n8n!: N8nInstance;
	private readonly trickler = new Receiver({ respond: trickle({ everyMs: 200 }) });
	private editor?: Editor;

	constructor(readonly app: N8nApp) {}

	private async check(name: CheckName, body: () => Promise<Outcome>): Promise<boolean> {
		try {
			this.checks[name] = await body();
		} catch (error) {
			this.checks[name] = { status: 'fail', note: reason(error) };
			await this.editor?.screenshot(`compat-${name}`).catch(() => undefined);
		}
		return this.checks[name].status !== 'fail';
	}

	async run(): Promise<VersionResult> {
		let installSeconds: number | undefined;
		const installed = await this.check('install', async () => {
			const outcome = install(this.app);
			if ('problem' in outcome) return { status: 'fail', note: outcome.problem };
			installSeconds = outcome.seconds;
			return { status: 'pass' };
		});
		const node = spawnSync(nodeBinary(this.app.nodeMajor), ['--version'], { encoding: 'utf8' });
		const result = (n8n: string): VersionResult => ({
			n8n,
			node: node.stdout.trim().replace(/^v/, ''),
			date: new Date().toISOString().slice(0, 10),
			package: (
				JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
					version: string;
				}
			).version,
			installSeconds,
			checks: this.checks,
		});
		if (!installed) return result(this.app.id.replace(/^n8n-/, ''));
		await this.simulator.start();
		await this.trickler.start();
		this.n8n = new N8nInstance(this.app);
		try {
			await this.checkInstance();
		} catch (error) {
			// A step between checks failed (an import, n8n's start): the first check not yet made
			// fails with it, and the rest stay skipped.
			const next = (Object.keys(CHECKS) as CheckName[]).find(
				(name) => this.checks[name].status === 'skipped',
			);
			if (next) this.checks[next] = { status: 'fail', note: reason(error) };
		} finally {
			await this.editor?.close().catch(() => undefined);
			await this.n8n.stop();
			await this.simulator.stop();
			await this.trickler.stop();
			this.n8n.dispose();
		}
		return result(this.n8n.version);
	}

	private async checkInstance(): Promise<void> {
		const { n8n, simulator } = this;
		n8n.installPackage(packPackage());
		const data = { webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET };
		const order = readExamples().find((example) => example.file === ORDER_FILE)!.workflow;
		await n8n.import('credentials', [
			...[GOOD, HTTP_CREDENTIAL].map((c) => ({ ...c, type: CREDENTIAL_TYPE, data })),
			{ ...WRONG, type: CREDENTIAL_TYPE, data: { ...data, signingSecret: WRONG_SECRET } },
			{
				...TRICKLING,
				type: CREDENTIAL_TYPE,
				data: {
					webhookUrl: this.trickler.webhookUrl('compat-trickle'),
					signingSecret: SECRET,
				},
			},
		]);
		// 2.0.x's import:workflow wants a versionId, 1.8x's an `active`; the others take both.
		await n8n.import(
			'workflow',
			[
				{ ...order, id: ORDER, nodes: order.nodes.map((node) => withCredential(node, GOOD)) },
				itemsWorkflow({
					id: WRONG_FLOW,
					name: 'Signed with a wrong secret',
					items: [{ message: 'Never accepted', position: 1 }],
					credential: WRONG,
				}),
				itemsWorkflow({
					id: TRICKLED,
					name: 'An answer that never ends, Timeout 2000 ms',
					items: [{ message: 'Answered slowly', position: 1 }],
					credential: TRICKLING,
					options: { timeout: 2000 },
				}),
				httpRequestWorkflow(HTTP, data.webhookUrl, HTTP_CREDENTIAL),
			].map((workflow) => ({ ...workflow, active: false, versionId: randomUUID() })),
		);

		const loads = await this.check('loads', async () => {
			const problem = loadProblem(n8n.log);
			return problem ? { status: 'fail', note: problem } : { status: 'pass' };
		});
		if (!loads) return;

		await this.check('order', async () => {
			const execution = executionOf(await n8n.cli(['execute', `--id=${ORDER}`, '--rawOutput']));
			const runs = simulator.runs(ID);
			// Before 1.9x, a finished execution printed status "running".
			if (
				execution.data.resultData.error ||
				!(execution.status === 'success' || execution.finished)
			) {
				throw new Error(execution.data.resultData.error?.message ?? execution.status);
			}
			if (runs.length !== 1) throw new Error(`${runs.length} runs instead of 1`);
			const item = outputItems(execution)[0]?.json;
			if ((item?.response as { runId?: string } | undefined)?.runId !== runs[0].runId) {
				throw new Error('the output item does not carry the run id');
			}
			return { status: 'pass' };
		});

		await this.check('wrongSecret', async () => {
			const before = simulator.runs(ID).length;
			const output = await n8n.cli(['execute', `--id=${WRONG_FLOW}`, '--rawOutput']);
			const execution = executionOf(output);
			const message = execution.data.resultData.error?.message;
			if (message !== 'The service rejected the signature (403)') {
				throw new Error(`the execution ended with "${message ?? execution.status}"`);
			}
			if (simulator.runs(ID).length !== before) throw new Error('a run was created');
			const leaked = [output.stdout, output.stderr, n8n.log].some(
				(text) => text.includes(SECRET) || text.includes(WRONG_SECRET),
			);
			if (leaked) throw new Error('a secret is in the output or the log');
			return { status: 'pass' };
		});

		await this.check('timeout', async () => {
			const execution = executionOf(await n8n.cli(['execute', `--id=${TRICKLED}`, '--rawOutput']));
			const message = execution.data.resultData.error?.message;
			if (message !== 'The service did not answer within 2000 ms') {
				throw new Error(`the execution ended with "${message ?? execution.status}"`);
			}
			const answers = this.trickler.requests.map((request) => request.answer);
			if (answers.length !== 1 || answers[0] !== 'closed') {
				throw new Error(`${answers.length} requests, answered ${answers.join(', ')}`);
			}
			return { status: 'pass' };
		});

		await n8n.start();
		await setUpOwner(n8n);
		this.editor = await openEditor(n8n);
		const { page } = this.editor;
		page.on('dialog', (dialog) => void dialog.accept());
		await signIn(page, n8n);
		const types = await nodeTypeNames(page, n8n);
		await this.check('loads', async () => {
			if (!types.includes(NODE_TYPE)) throw new Error(`the editor's node types lack ${NODE_TYPE}`);
			const problem = loadProblem(n8n.log);
			return problem ? { status: 'fail', note: problem } : { status: 'pass' };
		});
		await this.check('aiTool', async () => {
			if (types.includes(TOOL_TYPE)) return { status: 'pass' };
			if (!types.some((name) => /^@n8n\/n8n-nodes-langchain\.tool/.test(name))) {
				return { status: 'n/a', note: 'this n8n has no AI Agent tools' };
			}
			throw new Error(`n8n has AI Agent tools but no ${TOOL_TYPE}`);
		});

		await this.check('nodesPanel', async () => {
			await openNodesPanel(page, n8n, ORDER);
			for (const term of ['Trigger Automation', 'Automation Service']) {
				const names = await searchNodesPanel(page, term, 'Trigger Automation');
				if (!names.includes('Trigger Automation')) {
					throw new Error(`searching "${term}" lists ${names.slice(0, 5).join(', ') || 'nothing'}`);
				}
			}
			await this.editor!.screenshot('compat-nodes-panel');
			await page.keyboard.press('Escape');
			return { status: 'pass' };
		});
		await this.check('httpCredential', async () => {
			await openWorkflow(page, n8n, HTTP);
			await openNode(page, 'HTTP Request');
			const { shown, offered } = await predefinedCredentialType(page, CREDENTIAL_LABEL);
			await this.editor!.screenshot('compat-http-request-credential');
			if (shown !== CREDENTIAL_LABEL || !offered) {
				throw new Error(`Predefined Credential Type shows "${shown}", offered: ${offered}`);
			}
			return { status: 'pass' };
		});
	}
}

function withCredential(node: { credentials?: object }, credential: { id: string; name: string }) {
	return node.credentials ? { ...node, credentials: { [CREDENTIAL_TYPE]: credential } } : node;
}

/** The node types the editor loads, by name (2.x serves them to a signed-in user only). */
async function nodeTypeNames(page: Page, n8n: N8nInstance): Promise<string[]> {
	const response = await page.request.get(`${n8n.baseUrl}/types/nodes.json`);
	if (!response.ok()) throw new Error(`/types/nodes.json: ${response.status()}`);
	return ((await response.json()) as Array<{ name: string }>).map((type) => type.name);
}

function allApps(): string[] {
	return readdirSync(APPS_DIR, { withFileTypes: true })
		.filter(
			(entry) => entry.isDirectory() && existsSync(join(APPS_DIR, entry.name, 'package.json')),
		)
		.map((entry) => entry.name);
}

async function main(): Promise<void> {
	const ids = process.argv.slice(2).length > 0 ? process.argv.slice(2) : allApps();
	const earlier = existsSync(RESULTS_FILE) ? readResults() : [];
	const stated = { 1: minimumOf(earlier, 1), 2: minimumOf(earlier, 2) };
	const results = new Map(earlier.map((result) => [result.n8n, result]));
	let regressions = 0;
	for (const id of ids) {
		const started = Date.now();
		const result = await new VersionCheck(readApp(id)).run();
		results.set(result.n8n, result);
		const failed = Object.entries(result.checks)
			.filter(([, outcome]) => outcome.status === 'fail')
			.map(([name, outcome]) => `${CHECKS[name as CheckName]}: ${outcome.note ?? ''}`);
		const seconds = Math.round((Date.now() - started) / 1000);
		const install =
			result.installSeconds === undefined ? '' : `install ${result.installSeconds} s, `;
		console.log(
			`n8n ${result.n8n} on Node ${result.node}: ${
				supported(result) ? 'supported' : `NOT SUPPORTED (${failed.join('; ')})`
			} [${install}${seconds} s in all]`,
		);
		const minimum = stated[Number(result.n8n.split('.')[0]) as 1 | 2];
		const atOrAbove =
			minimum !== undefined && result.n8n.localeCompare(minimum, 'en', { numeric: true }) >= 0;
		if (atOrAbove && !supported(result)) regressions++;
	}
	const all = [...results.values()];
	writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, '\t')}\n`);
	for (const file of RENDERED_FILES) {
		writeFileSync(file, await withResults(file, readFileSync(file, 'utf8'), all));
	}
	console.log(`Results: ${RESULTS_FILE}; rendered from them: ${RENDERED_FILES.join(', ')}.`);
	if (regressions > 0) {
		console.log(`${regressions} version(s) at or above the minimum the README stated failed.`);
		process.exitCode = 1;
	}
}

void main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
