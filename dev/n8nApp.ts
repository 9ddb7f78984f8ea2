/**
 * The real n8n app, pinned in e2e/.apps/<id> (installed by e2e/install.sh), run with the package
 * installed the way n8n installs a community package: the packed tarball unpacked into
 * <user folder>/.n8n/nodes/node_modules/<name>, listed in .n8n/nodes/package.json. Used by the
 * end-to-end suite and by `npm run dev`. Everything listens on 127.0.0.1 only.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { notInstalled } from './devCli';
import { PACKAGE_DIR } from './packageDir';
import { PACKAGE_NAME } from './packageNames';

export interface N8nApp {
	/** Its folder in e2e/.apps: `n8n-2` and `n8n-1` for CI, `n8n-<version>` for the compatibility run. */
	id: string;
	/** The Node.js major this n8n runs on. */
	nodeMajor: number;
	/** Settings this n8n needs here beyond the common ones. */
	env: Record<string, string>;
}

export const APPS_DIR = join(PACKAGE_DIR, 'e2e', '.apps');

/**
 * An app as its folder describes it: `e2e/.apps/<id>/package.json` pins n8n and the overrides it
 * needs here (with why, under "//"), and its `n8nApp` field the Node.js major and settings it runs
 * with. One home for those facts: e2e/install.sh reads the same field.
 */
export function readApp(id: string): N8nApp {
	const manifest = JSON.parse(readFileSync(join(APPS_DIR, id, 'package.json'), 'utf8')) as {
		n8nApp: { nodeMajor: number; env?: Record<string, string> };
	};
	return { id, nodeMajor: manifest.n8nApp.nodeMajor, env: manifest.n8nApp.env ?? {} };
}

/** The two apps CI runs the end-to-end suite on. */
export const APPS = { 'n8n-2': readApp('n8n-2'), 'n8n-1': readApp('n8n-1') };

export function appDir(app: N8nApp): string {
	return join(APPS_DIR, app.id);
}

function n8nManifest(app: N8nApp): string {
	return join(appDir(app), 'node_modules', 'n8n', 'package.json');
}

/** The pinned n8n version, from the app's lockfile-backed install. */
export function appVersion(app: N8nApp): string {
	const problem = notInstalled(APPS_DIR, app.id);
	if (problem) throw new Error(problem);
	return (JSON.parse(readFileSync(n8nManifest(app), 'utf8')) as { version: string }).version;
}

const nodeBinaries = new Map<number, string>();

/**
 * A Node.js binary of the given major: this process's own when it matches, otherwise the npm
 * package node@<major>, resolved from the temp folder: outside the project, where that package's
 * install script (which fetches the binary) runs.
 */
export function nodeBinary(major: number): string {
	if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
	let binary = nodeBinaries.get(major);
	if (!binary) {
		binary = execFileSync('npx', ['-y', '-p', `node@${major}`, '-c', 'command -v node'], {
			cwd: tmpdir(),
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
		nodeBinaries.set(major, binary);
	}
	return binary;
}

const portsGiven = new Set<number>();

/**
 * A port free on 127.0.0.1, never one this process was given before: a port just closed is free
 * again at once, and two asked for in a row (n8n's and its task broker's) could be the same one.
 */
export async function freePort(): Promise<number> {
	for (;;) {
		const port = await new Promise<number>((resolve, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const { port } = server.address() as { port: number };
				server.close(() => resolve(port));
			});
		});
		if (!portsGiven.has(port)) {
			portsGiven.add(port);
			return port;
		}
	}
}

let tarball: string | undefined;

/**
 * `npm pack` of the built package (once per process): exactly what the registry would serve.
 * Without its prepack: the suites build first, and a second build would rewrite dist/ under them.
 * E2E_PACKAGE_TARBALL names a tarball packed earlier instead.
 */
export function packPackage(): string {
	tarball ??= process.env.E2E_PACKAGE_TARBALL;
	if (tarball) return tarball;
	const out = mkdtempSync(join(tmpdir(), 'n8n-pack-'));
	const name = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out], {
		cwd: PACKAGE_DIR,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	})
		.trim()
		.split('\n')
		.pop()!;
	tarball = join(out, name);
	return tarball;
}

export interface CliResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

export interface InstanceOptions {
	/** Keep the user folder (database, settings) here instead of a fresh temp folder. */
	userFolder?: string;
	port?: number;
	/** Lines of n8n's own output are passed here (default: kept in `log` only). */
	onLog?: (line: string) => void;
	/** Settings over the defaults (a shared database, queue mode …); undefined leaves one unset. */
	env?: Record<string, string | undefined>;
}

/** One n8n instance: its user folder, its settings, its CLI and its server. */
export class N8nInstance {
	readonly userFolder: string;
	readonly version: string;
	port = 0;
	log = '';
	private server?: ChildProcess;
	/** Resolves once the server's output has been read to its end, not only once it exited. */
	private serverClosed?: Promise<unknown>;
	/** CLI commands running (an import), which stop() ends too. */
	private readonly commands = new Set<ChildProcess>();
	/** Set by stop(), so that a start() it interrupted before n8n was spawned spawns none. */
	private stopRequested = false;

	constructor(
		readonly app: N8nApp,
		private readonly options: InstanceOptions = {},
	) {
		this.version = appVersion(app);
		this.userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), `${app.id}-user-`));
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** Unpacks the package tarball where n8n's community-package installer puts it. */
	installPackage(tarballPath = packPackage()): void {
		const nodesDir = join(this.userFolder, '.n8n', 'nodes');
		const target = join(nodesDir, 'node_modules', PACKAGE_NAME);
		rmSync(target, { recursive: true, force: true });
		mkdirSync(target, { recursive: true });
		execFileSync('tar', ['-xzf', tarballPath, '-C', target, '--strip-components=1']);
		const version = (
			JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { version: string }
		).version;
		writeFileSync(
			join(nodesDir, 'package.json'),
			JSON.stringify({
				name: 'installed-nodes',
				private: true,
				dependencies: { [PACKAGE_NAME]: version },
			}),
		);
	}

	private async env(): Promise<NodeJS.ProcessEnv> {
		const node = nodeBinary(this.app.nodeMajor);
		return {
			PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
			HOME: process.env.HOME,
			LANG: 'C.UTF-8',
			TZ: 'UTC',
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'e2e-fixed-encryption-key-not-secret',
			DB_TYPE: 'sqlite',
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${this.port}/`,
			WEBHOOK_URL: `http://127.0.0.1:${this.port}/`,
			N8N_SECURE_COOKIE: 'false',
			// A CLI command and a server each start a task broker: give each its own port.
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			// Nothing leaves the machine: no telemetry, version checks, templates, banners.
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_DYNAMIC_BANNERS_ENABLED: 'false',
			N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
			EXTERNAL_FRONTEND_HOOKS_URLS: '',
			N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
			N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_OUTPUT: 'console',
			...this.app.env,
			...this.options.env,
		};
	}

	private n8nArgs(args: string[]): [string, string[]] {
		const bin = join(appDir(this.app), 'node_modules', 'n8n', 'bin', 'n8n');
		return [nodeBinary(this.app.nodeMajor), [bin, ...args]];
	}

	/** Runs an n8n CLI command (import:credentials, import:workflow, execute …) to its end. */
	async cli(args: string[], timeoutMs = 180_000): Promise<CliResult> {
		const [command, argv] = this.n8nArgs(args);
		const env = await this.env();
		return await new Promise((resolve, reject) => {
			const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
			this.commands.add(child);
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
			child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
			const timer = setTimeout(() => {
				child.kill('SIGKILL');
				reject(new Error(`n8n ${args.join(' ')} ran past ${timeoutMs} ms\n${stdout}\n${stderr}`));
			}, timeoutMs);
			child.on('error', reject);
			child.on('close', (code) => {
				this.commands.delete(child);
				clearTimeout(timer);
				this.log += stdout + stderr;
				resolve({ code, stdout, stderr });
			});
		});
	}

	/** Imports items (credentials or workflows) given as objects, through n8n's import commands. */
	async import(kind: 'credentials' | 'workflow', items: object[]): Promise<void> {
		const file = join(this.userFolder, `import-${kind}-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(items));
		const result = await this.cli([`import:${kind}`, `--input=${file}`]);
		rmSync(file);
		if (result.code !== 0) {
			throw new Error(
				`n8n import:${kind} failed (${result.code}):\n${result.stdout}\n${result.stderr}`,
			);
		}
	}

	/**
	 * Activates a workflow before n8n starts (its production webhooks listen once it does):
	 * `publish:workflow` in 2.x, `update:workflow` in 1.x.
	 */
	async activate(workflowId: string): Promise<void> {
		const args = this.version.startsWith('1.')
			? ['update:workflow', `--id=${workflowId}`, '--active=true']
			: ['publish:workflow', `--id=${workflowId}`];
		const result = await this.cli(args);
		if (result.code !== 0) {
			throw new Error(
				`n8n ${args[0]} failed (${result.code}):\n${result.stdout}\n${result.stderr}`,
			);
		}
	}

	/**
	 * Starts `n8n start` and resolves once the editor answers, or, given `['worker', …]`, a queue-mode
	 * worker once it is ready for jobs.
	 */
	async start(timeoutMs = 180_000, args = ['start']): Promise<void> {
		this.stopRequested = false;
		this.port = this.options.port ?? (await freePort());
		const worker = args[0] === 'worker';
		const [command, argv] = this.n8nArgs(args);
		const env = await this.env();
		if (this.stopRequested) throw new Error('n8n was stopped while starting');
		const server = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
		this.server = server;
		this.serverClosed = new Promise((resolve) => server.once('close', resolve));
		const onData = (chunk: Buffer) => {
			const text = chunk.toString('utf8');
			this.log += text;
			if (this.options.onLog)
				for (const line of text.split('\n')) if (line) this.options.onLog(line);
		};
		server.stdout!.on('data', onData);
		server.stderr!.on('data', onData);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (server.exitCode !== null) {
				throw new Error(`n8n exited with ${server.exitCode} while starting:\n${this.log}`);
			}
			if (worker && /n8n worker is now ready/.test(this.log)) return;
			if (!worker && /Editor is now accessible/.test(this.log) && (await this.healthy())) return;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		await this.stop();
		throw new Error(`n8n did not start within ${timeoutMs} ms:\n${this.log}`);
	}

	private async healthy(): Promise<boolean> {
		try {
			return (await fetch(`${this.baseUrl}/healthz`)).ok;
		} catch {
			return false;
		}
	}

	async stop(): Promise<void> {
		this.stopRequested = true;
		for (const command of this.commands) command.kill('SIGTERM');
		const server = this.server;
		this.server = undefined;
		if (!server) return;
		// 'exit' can come before the last of n8n's output is read (its "Shutting down" line when a
		// Ctrl+C reached it first): the log would lose it. 'close' comes after.
		let timer: NodeJS.Timeout | undefined;
		if (server.exitCode === null && server.signalCode === null) {
			server.kill('SIGTERM');
			timer = setTimeout(() => server.kill('SIGKILL'), 20_000);
		}
		await this.serverClosed;
		clearTimeout(timer);
	}

	/** Removes the user folder (database included) unless the caller gave its own. */
	dispose(): void {
		if (!this.options.userFolder) rmSync(this.userFolder, { recursive: true, force: true });
	}
}

export const OWNER = {
	email: 'owner@example.com',
	password: 'E2e-owner-password-1',
	firstName: 'Ada',
	lastName: 'Owner',
};

/**
 * Makes the owner of a fresh instance (what the first visit to the editor asks for). Resolves to
 * the owner's session cookie, for the REST API.
 */
export async function setUpOwner(instance: N8nInstance): Promise<string> {
	const response = await fetch(`${instance.baseUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(OWNER),
	});
	if (!response.ok) {
		throw new Error(`owner setup failed: ${response.status} ${await response.text()}`);
	}
	return response.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.join('; ');
}
