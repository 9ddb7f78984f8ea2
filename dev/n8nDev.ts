/**
 * `npm run dev` (through dev/dev.js): the pinned real n8n (e2e/.apps, installed by
 * `bash e2e/install.sh n8n-2`) with the freshly built package installed as a community package,
 * the simulator, and on first start the example workflows with a credential for each pointing at
 * the simulator. Running it again (while one runs or not) rebuilds, stops the running one and
 * starts anew with the same database: what the user changed (workflows, credentials, executions)
 * stays; the examples are imported again only with --restore-examples. Its flags and example
 * commands: `npm run dev -- --help` (dev/devCli.js).
 *
 * n8n's own output goes to a log file beside its data, which the summary names; the terminal keeps
 * the steps, the summary and what the simulator answers (dev/simulatorLog.ts).
 */
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { USAGE, devOptions } from './devCli';
import type { N8nApp } from './n8nApp';
import { APPS, N8nInstance, OWNER, appDir, appVersion, setUpOwner } from './n8nApp';
import { PACKAGE_DIR } from './packageDir';
import { PACKAGE_NAME } from './packageNames';
import type { QuotaSpec } from './quotaHeaders';
import { AutomationServiceSimulator, DEV_SECRET, failureLines, failureOptions } from './simulator';
import { SimulatorLog } from './simulatorLog';
import { credentialsOf, readExamples, workflowId } from './exampleFiles';

const AUTOMATION = 'dev-automation';
// The simulator's own secret: it stands for a real one only on this machine, so the summary shows
// it (a user who changed the credential can put it back).
export { DEV_SECRET };
// Beside n8n's data: the webhook URL the examples' credentials were imported with.
const IMPORTED_FILE = 'examples-imported.json';

/** `npm run dev`'s flags (dev/devCli.js, which dev/dev.js checks before the build). */
function options(argv: string[]) {
	const { appId, dir, ...rest } = devOptions(argv);
	return { app: APPS[appId], dir: resolve(dir ?? join(PACKAGE_DIR, '.dev-n8n')), ...rest };
}

/** Stops the dev n8n a previous `npm run dev` left running (its pid is kept beside its data). */
async function stopPrevious(pidFile: string): Promise<void> {
	if (!existsSync(pidFile)) return;
	const pid = Number(readFileSync(pidFile, 'utf8'));
	rmSync(pidFile);
	try {
		process.kill(pid, 'SIGTERM');
	} catch {
		return; // Not running any more.
	}
	console.log(`Stopping the running dev n8n (pid ${pid}) …`);
	for (let waited = 0; waited < 30_000; waited += 250) {
		try {
			process.kill(pid, 0);
		} catch {
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * n8n's own settings against the noise it makes on an offline machine, where it has one:
 * - n8n 2.x's MCP registry module fetches a list of MCP servers from api.n8n.io at start, which
 *   offline ends in two stack traces; n8n's N8N_DISABLED_MODULES turns it off (an n8n without that
 *   module refuses the name, so only where it exists);
 * - n8n 2.x lists as deprecated the settings left at defaults it will change: they are set here to
 *   today's defaults, and WEBHOOK_URL is left out, as n8n derives the same URL from N8N_HOST and
 *   N8N_PORT.
 * n8n offers none for the rest (internal task runner mode deprecated, no Python runner without its
 * venv, the license SDK's lines): that stays in the log file.
 */
function quietSettings(app: N8nApp): Record<string, string | undefined> {
	const settings: Record<string, string | undefined> = {};
	if (existsSync(join(appDir(app), 'node_modules', 'n8n', 'dist', 'modules', 'mcp-registry'))) {
		settings.N8N_DISABLED_MODULES = 'mcp-registry';
	}
	if (Number(appVersion(app).split('.')[0]) >= 2) {
		Object.assign(settings, {
			WEBHOOK_URL: undefined,
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			N8N_RUNNERS_TASK_TIMEOUT: '300',
			N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(2 * 1024 ** 3),
			N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '5000',
		});
	}
	return settings;
}

export interface DevN8n {
	/** Where n8n's own output goes. */
	logFile: string;
	/** The running n8n (its editor at `baseUrl`). */
	n8n: N8nInstance;
	stop(): Promise<void>;
}

/**
 * The dev n8n in `dataDir`: the package installed, the simulator, the examples imported with their
 * credentials, n8n started. `print` gets the steps and the summary; n8n's output goes to the log.
 */
export async function startDevN8n(options: {
	app: N8nApp;
	port: number;
	/** Default: the port after n8n's. */
	simulatorPort?: number;
	dataDir: string;
	/** Import the examples and their credentials even into an existing database (overwriting them). */
	restoreExamples?: boolean;
	/** The simulator's rate limit (requests per second), busy spell and quota. */
	perSecond?: number;
	busySeconds?: number;
	quota?: QuotaSpec;
	print: (text: string) => void;
	/** Aborting it while n8n starts stops what was started; the promise then rejects. */
	signal?: AbortSignal;
}): Promise<DevN8n> {
	const { app, port, dataDir, print, perSecond, busySeconds, quota, signal } = options;
	mkdirSync(dataDir, { recursive: true });
	// What the simulator answers shows here as it happens: each run, each refusal and its reason.
	const answers = new SimulatorLog(print);
	const simulator = new AutomationServiceSimulator({
		automations: [{ id: AUTOMATION, secret: DEV_SECRET }],
		...failureOptions({ perSecond, busySeconds, quota }),
		onAnswered: (answer) => answers.answered(answer),
		onBusySpell: (spell) => answers.spell(spell),
	});
	await simulator.start(options.simulatorPort ?? port + 1);
	const logFile = join(dataDir, 'n8n.log');
	// The last run's log is kept beside the new one: it tells what happened before this start.
	if (existsSync(logFile)) renameSync(logFile, join(dataDir, 'n8n.previous.log'));
	writeFileSync(logFile, '');
	const n8n = new N8nInstance(app, {
		userFolder: dataDir,
		port,
		env: quietSettings(app),
		onLog: (line) => appendFileSync(logFile, `${line}\n`),
	});
	let stopping: Promise<void> | undefined;
	const stop = () =>
		(stopping ??= (async () => {
			await n8n.stop();
			await simulator.stop();
			answers.flush();
		})());
	signal?.addEventListener('abort', () => void stop(), { once: true });
	try {
		if (signal?.aborted) throw new Error('stopped while starting');
		const fresh = !existsSync(join(dataDir, '.n8n', 'database.sqlite'));
		n8n.installPackage();
		const webhookUrl = simulator.webhookUrl(AUTOMATION);
		const examples = readExamples();
		const importedFile = join(dataDir, IMPORTED_FILE);
		const restore = fresh || options.restoreExamples === true || !existsSync(importedFile);
		// Only when asked (or on first start): an import overwrites the user's edits of the examples.
		if (restore) {
			const data = { webhookUrl, signingSecret: DEV_SECRET };
			await n8n.import(
				'credentials',
				examples.flatMap(({ workflow }) => credentialsOf(workflow, data)),
			);
			await n8n.import(
				'workflow',
				examples.map(({ file, workflow }) => ({ ...workflow, id: workflowId(file) })),
			);
			writeFileSync(importedFile, JSON.stringify({ webhookUrl }));
		}
		const importedUrl = (JSON.parse(readFileSync(importedFile, 'utf8')) as { webhookUrl: string })
			.webhookUrl;
		// What the import commands printed comes first in the log.
		appendFileSync(logFile, n8n.log);
		print(`Starting n8n ${n8n.version} (its output: ${relative(process.cwd(), logFile)}) …`);
		await n8n.start();
		if (signal?.aborted) throw new Error('stopped while starting');
		if (fresh) await setUpOwner(n8n);
		const indent = ' '.repeat(14);
		const lines = [
			'',
			`n8n ${n8n.version} (${app.id}) with ${PACKAGE_NAME} from this checkout`,
			`  Editor:     ${n8n.baseUrl}`,
			`  Sign in:    ${OWNER.email} / ${OWNER.password}`,
			`  Workflows:  ${examples.map((e) => e.workflow.name).join('; ')}`,
			indent +
				(restore
					? 'imported from examples/ with their credentials'
					: 'kept as you left them, with your credentials and executions'),
			`  Simulator:  ${webhookUrl} (run history: ${simulator.baseUrl}/automations/${AUTOMATION}/runs)`,
			`${indent}its signing secret: ${DEV_SECRET} (a Service Webhook Secret credential takes both)`,
			...failureLines({ perSecond, busySeconds, quota }).map(
				([label, text]) => `${indent}${label.toLowerCase()}: ${text}`,
			),
			// A restart on another port moves the simulator; kept credentials still name the old one.
			...(importedUrl === webhookUrl
				? []
				: [
						`${indent}the examples' credentials still name ${importedUrl}: put the URL above in them`,
					]),
			'  AI Agent:   its OpenAI Chat Model needs your own OpenAI credential (red warning until then)',
			`  Data:       ${dataDir}`,
			`  n8n log:    ${logFile}`,
			'After a change: npm run dev (rebuilds, restarts this one, keeps your edits). Ctrl+C stops.',
			'The examples and their credentials as in examples/ again: npm run dev -- --restore-examples',
			busySeconds === undefined
				? 'Below, as it happens: each run the simulator creates, each request it refuses and why.'
				: 'Below, as it happens: each run the simulator creates, each request it refuses and why, and when a busy spell begins and is over.',
		];
		print(lines.join('\n'));
	} catch (error) {
		await stop();
		throw error;
	}
	return { logFile, n8n, stop };
}

async function main(): Promise<void> {
	const { help, app, port, restoreExamples, dir, perSecond, busySeconds, quota } = options(
		process.argv.slice(2),
	);
	// dev/dev.js answers --help before the build; this is for the built script run by hand.
	if (help) return console.log(USAGE);
	const pidFile = join(dir, 'dev.pid');
	mkdirSync(dir, { recursive: true });
	await stopPrevious(pidFile);
	writeFileSync(pidFile, String(process.pid));
	const removePidFile = () => {
		if (existsSync(pidFile) && readFileSync(pidFile, 'utf8') === String(process.pid))
			rmSync(pidFile);
	};
	const aborted = new AbortController();
	let stopping = false;
	const stop = async (signal: NodeJS.Signals) => {
		// One Ctrl+C arrives more than once: the terminal signals every process of the group, and npm
		// and dev/launch.js forward theirs. Each must not end this process before n8n has stopped.
		if (stopping) return;
		stopping = true;
		// Not after the terminal closed (SIGHUP): nothing reads this any more.
		if (signal !== 'SIGHUP') console.log('Stopping n8n and the simulator …');
		aborted.abort();
		// What started stops itself when aborted; what is running is stopped here.
		const dev = await running.catch(() => undefined);
		await dev?.stop();
		removePidFile();
		if (signal !== 'SIGHUP') console.log('Stopped.');
		process.exit(0);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => void stop(signal));
	}
	// Before any signal can be handled: the handlers run from the event loop, after this line.
	const running = startDevN8n({
		app,
		port,
		dataDir: join(dir, app.id),
		restoreExamples,
		perSecond,
		busySeconds,
		quota,
		print: (text) => console.log(text),
		signal: aborted.signal,
	});
	try {
		await running;
	} catch (error) {
		// Stopped while starting: stop() ends the process.
		if (stopping) return;
		removePidFile();
		throw error;
	}
}

// Run as `npm run dev`; imported by its end-to-end test.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === __filename) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
