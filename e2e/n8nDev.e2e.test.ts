/**
 * `npm run dev` (dev/n8nDev.ts) in the real n8n apps, on this offline machine: the terminal gets the
 * steps and the summary, n8n's own output goes to the log file the summary names, and n8n's own
 * settings keep its offline noise (lookups of n8n's hosts and their stack traces, deprecation notices
 * for defaults) out of that log where n8n has one. Restarted, it keeps an edit made in the editor
 * (through n8n's REST API, as the editor saves); --restore-examples puts the example back. The
 * route example, run as shipped, reaches three failure branches, and the terminal says as it
 * happens what the simulator answered: the run it created and each refusal with its reason. The
 * whole command, `npm run dev` itself, does the same in its terminal, stops cleanly on Ctrl+C
 * (SIGINT to its process group, as a terminal sends it) and on a SIGTERM to npm alone; with --help
 * it prints its usage and starts nothing.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { USAGE } from '../dev/devCli';
import { EXAMPLE_IDS, readExamples } from '../dev/exampleFiles';
import { APPS, OWNER, freePort } from '../dev/n8nApp';
import type { DevN8n } from '../dev/n8nDev';
import { DEV_SECRET, startDevN8n } from '../dev/n8nDev';
import { PACKAGE_DIR } from '../dev/packageDir';
import type { Editor } from './support/editor';
import {
	closeNode,
	openEditor,
	openNode,
	openWorkflow,
	signIn as signInEditor,
} from './support/editor';
import { Rest } from './support/rest';

const ORDER_ID = EXAMPLE_IDS['order-to-automation.json'];
const ROUTE_ID = EXAMPLE_IDS['route-failures-by-code.json'];

/** The terminal's lines of what the simulator answered ("12:00:01 Simulator: …"). */
function simulatorLines(terminal: string): string[] {
	return terminal.split('\n').filter((line) => /^\d\d:\d\d:\d\d Simulator: /.test(line));
}

/**
 * What the route example's four orders get from the simulator, each told in the terminal: one run
 * created (its message shortened), and the three failures it asks for, each with its status and
 * reason (the 429 once per attempt: the node sends it again after its Retry-After).
 */
function expectRouteExampleTold(lines: string[]): void {
	const told = lines.join('\n');
	expect(told).toMatch(
		/ Simulator: (.+; )?run created for automation dev-automation: “Check order \d+ for [^”]+”/,
	);
	expect(told).toMatch(
		/ Simulator: (.+; )?turned away \d+ requests? with 429, Retry-After: 1 \(simulated failure\)/,
	);
	expect(told).toMatch(/ Simulator: (.+; )?refused 1 request with 403 \(simulated failure\)/);
	expect(told).toMatch(/ Simulator: (.+; )?refused 1 request with 422 \(simulated failure\)/);
	// No answer is told twice: the one run, the 403 and the 422 each once in all the lines.
	expect(told.match(/run created|created \d+ runs/g)).toHaveLength(1);
	expect(told.match(/with 403/g)).toHaveLength(1);
	expect(told.match(/with 422/g)).toHaveLength(1);
}

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

		it('the route example as shipped sends its orders to three failure branches; the terminal tells, as it happens, of the run the simulator created and of each refusal, with its reason', async () => {
			printed.length = 0;
			const baseUrl = `http://127.0.0.1:${port}`;
			const rest = new Rest({ baseUrl, app }, await signIn(baseUrl));
			const execution = await rest.ended(
				await rest.runManually(ROUTE_ID, 'When clicking ‘Execute workflow’'),
			);
			expect(execution.status).toBe('success');
			const runData = execution.data.resultData.runData;
			const codesIn = (node: string, output = 0) =>
				(runData[node]?.[0]?.data?.main[output] ?? []).map(
					({ json }) => (json.details as { code?: string } | undefined)?.code,
				);
			if (app.id === 'n8n-2') {
				expect(codesIn('Wait, then run it again')).toEqual(['rate_limited']);
				expect(codesIn('Alert: check the credential')).toEqual(['signature_rejected']);
				expect(codesIn('Fix and run again')).toEqual(['body_rejected']);
			} else {
				// n8n 1.x keeps this node's error items on its regular output (docs/reference.md).
				expect(codesIn('Trigger Automation')).toEqual([
					undefined,
					'rate_limited',
					'signature_rejected',
					'body_rejected',
				]);
			}
			const [hint] = runData['Trigger Automation'][0].hints ?? [];
			expect(hint?.message).toMatch(/^The service turned away \d+ requests without creating a run/);
			// The last line comes at most a second after the last answer.
			await until('the 422 told', () => printed.join('\n').includes('with 422'), 10_000);
			expectRouteExampleTold(simulatorLines(printed.join('\n')));
		}, 120_000);

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

/**
 * How long a person takes between the README's busy steps, in the editor: to read the failure and
 * find the option (longer than the rest of a 20 s spell: the pace that met no spell before), and
 * to set it and run again.
 */
const READS_THE_FAILURE_MS = 25_000;
const SETS_THE_OPTION_MS = 8_000;

/**
 * The README's busy example, in n8n 2.41.1's editor in headless Chromium, as `npm run dev -- --busy
 * 20` starts it, at a person's pace: at the defaults the order's item fails with how often and over
 * how long it was turned away; the person reads that and finds Options → Retries When Not Accepted
 * (after the spell is over, the terminal saying so), sets it to 30 and executes again: a new spell
 * begins, the node waits it out, its run is created once, and the hint says how long it waited.
 */
describe("npm run dev -- --busy 20: the README's busy example, in the editor at a person's pace", () => {
	const app = APPS['n8n-2'];
	const dataDir = mkdtempSync(join(tmpdir(), 'n8n-2-dev-busy-'));
	const printed: string[] = [];
	let dev: DevN8n | undefined;
	let editor: Editor | undefined;

	beforeAll(async () => {
		dev = await startDevN8n({
			app,
			port: await freePort(),
			simulatorPort: await freePort(),
			dataDir,
			restoreExamples: false,
			busySeconds: 20,
			print: (text) => printed.push(text),
		});
		editor = await openEditor(dev.n8n);
		await signInEditor(editor.page, dev.n8n);
	}, 400_000);

	// What the page showed when the test failed, beside the other screenshots.
	afterEach(async ({ task }) => {
		if (task.result?.state === 'fail' && editor)
			await editor.screenshot('failed-busy-walk-through');
	});

	afterAll(async () => {
		await editor?.close();
		await dev?.stop();
		rmSync(dataDir, { recursive: true, force: true });
	});

	it('the failure at the defaults; a pause; Retries When Not Accepted set to 30; a pause; executed again, a new spell is waited out and the hint says how long', async () => {
		const { page } = editor!;
		const n8n = dev!.n8n;
		const terminal = () => simulatorLines(printed.join('\n')).join('\n');
		await openWorkflow(page, n8n, ORDER_ID);
		await page.getByTestId('execute-workflow-button').first().click();
		await openNode(page, 'Trigger Automation');
		// Before anything else in the panel: each run starts runs, and pinning its output avoids more.
		const notice = page.getByText(/^Each run of this node starts one automation run per item/);
		await notice.waitFor();
		const failure = page
			.getByTestId('output-panel')
			.getByText(
				/^Rate limited by the service \(429\): turned away 6 times in [4-7] s, retries spent$/,
			)
			.first();
		await failure.waitFor({ timeout: 30_000 });
		await editor!.screenshot('busy-1-failed');
		expect(terminal()).toMatch(/busy spell began: every request is turned away with 429 for 20 s/);

		await page.waitForTimeout(READS_THE_FAILURE_MS);
		expect(terminal()).toMatch(
			/busy spell over: requests are accepted\. The first after 10 s without any starts the next spell/,
		);
		// Options' "Add option": a select in n8n 2.41.1's panel.
		await page
			.getByTestId('collection-parameter-add')
			.or(page.getByTestId('collection-parameter-add-dropdown'))
			.first()
			.click();
		await page
			.getByText('Retries When Not Accepted', { exact: true })
			.locator('visible=true')
			.first()
			.click();
		const retries = page.getByTestId('parameter-input-retries').locator('input');
		await retries.fill('30');
		await retries.blur();
		await editor!.screenshot('busy-2-retries-30');
		await page.waitForTimeout(SETS_THE_OPTION_MS);
		await closeNode(page);

		await page.getByTestId('execute-workflow-button').first().click();
		await openNode(page, 'Trigger Automation');
		const hint = page
			.getByTestId('output-panel')
			.getByText(/^The service turned away \d+ requests without creating a run/);
		await hint.waitFor({ timeout: 90_000 });
		expect(await hint.innerText()).toMatch(
			/^The service turned away \d+ requests without creating a run; the node waited (19|20|21) s in all and sent them again\. The item was accepted, once\.$/,
		);
		await editor!.screenshot('busy-3-waited');
		const lines = terminal().split('\n');
		expect(lines.filter((line) => line.includes('busy spell began'))).toHaveLength(2);
		expect(lines.filter((line) => /run created|created \d+ runs/.test(line))).toHaveLength(1);
		// For the record of the run: what the terminal printed.
		console.log(`npm run dev -- --busy 20's terminal printed:\n${lines.join('\n')}`);
	}, 240_000);
});

/** The processes of a process group (npm's, with everything it started). */
function groupMembers(pgid: number): string[] {
	return execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' })
		.split('\n')
		.map((line) => line.trim().split(/\s+/))
		.filter(([pid, group]) => Number(group) === pgid && Number(pid) !== pgid)
		.map((fields) => fields.join(' '));
}

/** Whether nothing listens on the port (a connection is refused). */
function portFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(false);
		});
		socket.once('error', () => resolve(true));
	});
}

/** A free port whose next one is free too: npm run dev's simulator takes the next one. */
async function freePortPair(): Promise<number> {
	for (;;) {
		const port = await freePort();
		if (port < 65535 && (await portFree(port + 1))) return port;
	}
}

/** Polls until `check` holds; a generous deadline, so a slow machine only takes longer. */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 90_000) {
	const deadline = Date.now() + ms;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** n8n's line when a Ctrl+C stops it: n8n reads the terminal's SIGINT or npm run dev's SIGTERM. */
const SHUTTING_DOWN = /Received SIG(INT|TERM)\. Shutting down/;

describe('npm run dev stops cleanly', () => {
	const dir = mkdtempSync(join(tmpdir(), 'npm-run-dev-'));
	const logFile = join(dir, 'n8n-2', 'n8n.log');
	let npm: ChildProcess | undefined;
	let output = '';
	let port: number;

	/**
	 * `npm run dev` in a process group of its own, as a terminal runs a command; resolves once up.
	 * On ports free just before: other suites on this machine take free ports too.
	 */
	async function npmRunDev(): Promise<ChildProcess> {
		port = await freePortPair();
		output = '';
		const child = spawn(
			'npm',
			['run', 'dev', '--silent', '--', '--dir', dir, '--port', String(port)],
			{ cwd: PACKAGE_DIR, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
		);
		npm = child;
		child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		await until(
			'the summary',
			() => {
				if (child.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`);
				return /^ {2}Editor: /m.test(output);
			},
			400_000,
		);
		return child;
	}

	/** After the signal: npm ends, and with it every process it started; the ports are free. */
	async function expectStopped(child: ChildProcess): Promise<void> {
		await until('npm exits', () => child.exitCode !== null || child.signalCode !== null);
		await until('no process of the group is left', () => groupMembers(child.pid!).length === 0);
		expect(await portFree(port)).toBe(true);
		expect(await portFree(port + 1)).toBe(true);
		expect(existsSync(join(dir, 'dev.pid'))).toBe(false);
		expect(output).toContain('Stopping n8n and the simulator');
		expect(output).toContain('Stopped.');
	}

	beforeAll(async () => {
		port = await freePortPair();
	});

	afterAll(() => {
		// Only if a test failed half-way: the group this suite started, nothing else.
		if (npm?.pid !== undefined && groupMembers(npm.pid).length > 0) {
			process.kill(-npm.pid, 'SIGKILL');
		}
		rmSync(dir, { recursive: true, force: true });
	});

	it('executing the route example there, its terminal shows the run created and each refusal with its reason, as it happens', async () => {
		const child = await npmRunDev();
		expect(output).toContain(
			'Below, as it happens: each run the simulator creates, each request it refuses and why.',
		);
		expect(simulatorLines(output)).toEqual([]);
		const baseUrl = `http://127.0.0.1:${port}`;
		const rest = new Rest({ baseUrl, app: APPS['n8n-2'] }, await signIn(baseUrl));
		const execution = await rest.ended(
			await rest.runManually(ROUTE_ID, 'When clicking ‘Execute workflow’'),
		);
		expect(execution.status).toBe('success');
		await until('the 422 told', () => output.includes('with 422'), 10_000);
		const lines = simulatorLines(output);
		// For the record of the run: what the terminal printed.
		console.log(`npm run dev's terminal printed:\n${lines.join('\n')}`);
		expectRouteExampleTold(lines);
		process.kill(-child.pid!, 'SIGINT');
		await expectStopped(child);
	}, 600_000);

	it("Ctrl+C (SIGINT to npm's process group, twice) ends n8n and all it started, frees the port, removes the pid file, keeps the log", async () => {
		const child = await npmRunDev();
		expect(readFileSync(join(dir, 'dev.pid'), 'utf8')).toMatch(/^\d+$/);
		expect(groupMembers(child.pid!).some((args) => /n8n\/bin\/n8n start/.test(args))).toBe(true);
		// A second Ctrl+C while it stops, as the SIGINT dev/launch.js passes on does when it comes late.
		// It waits for n8n's own shutdown line: n8n listens for one SIGINT only (process.once), so a
		// second one before that line is written ends n8n at once and the line is never logged. The
		// line names the SIGINT or the SIGTERM npm run dev sends it on Ctrl+C: whichever n8n reads first.
		const secondCtrlC = (async () => {
			while (!(existsSync(logFile) && SHUTTING_DOWN.test(readFileSync(logFile, 'utf8')))) {
				if (child.exitCode !== null || child.signalCode !== null) {
					throw new Error('npm ended before n8n logged its shutdown');
				}
				await new Promise((resolve) => setTimeout(resolve, 5));
			}
			process.kill(-child.pid!, 'SIGINT');
		})();
		process.kill(-child.pid!, 'SIGINT');
		await secondCtrlC;
		await expectStopped(child);
		const log = readFileSync(logFile, 'utf8');
		expect(log).toContain('Editor is now accessible');
		expect(log).toMatch(SHUTTING_DOWN);
	}, 600_000);

	it('the next npm run dev starts; SIGTERM to npm alone (kill) stops it as cleanly, the last log kept beside the new', async () => {
		const child = await npmRunDev();
		process.kill(child.pid!, 'SIGTERM');
		await expectStopped(child);
		expect(readFileSync(logFile, 'utf8')).toMatch(/Received SIGTERM\. Shutting down/);
		expect(readFileSync(join(dir, 'n8n-2', 'n8n.previous.log'), 'utf8')).toMatch(SHUTTING_DOWN);
	}, 600_000);

	it('--help (and -h) prints the usage and exits 0, building and starting nothing', async () => {
		const built = join(PACKAGE_DIR, '.dev-dist', 'dev', 'n8nDev.js');
		const builtAt = () => (existsSync(built) ? statSync(built).mtimeMs : undefined);
		for (const flag of ['--help', '-h']) {
			const before = builtAt();
			const other = join(dir, `help${flag}`);
			const child = spawn(
				'npm',
				['run', 'dev', '--silent', '--', flag, '--dir', other, '--port', String(port)],
				{ cwd: PACKAGE_DIR, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
			);
			npm = child;
			let printed = '';
			child.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
			child.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
			const code = await new Promise((resolve) => child.on('exit', resolve));
			expect({ code, printed }).toEqual({ code: 0, printed: `${USAGE}\n` });
			expect(groupMembers(child.pid!)).toEqual([]);
			expect(existsSync(other)).toBe(false);
			expect(await portFree(port)).toBe(true);
			expect(await portFree(port + 1)).toBe(true);
			expect(builtAt()).toBe(before);
		}
	}, 60_000);
});
