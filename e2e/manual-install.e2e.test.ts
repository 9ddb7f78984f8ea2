/**
 * docs/install.md's manual install where n8n refuses unverified community packages
 * (N8N_UNVERIFIED_PACKAGES_ENABLED=false, n8n 3.0's default), in n8n 2.41.1: the packed package
 * installed by the doc's own commands (its tarball in place of the registry name, npm offline);
 * n8n loads it and `n8n execute` runs the order example, which the simulator verifies. The install
 * Settings → Community Nodes makes (its REST request) is refused with n8n's message. n8n looks the
 * package up on api.n8n.io first: HTTPS_PROXY sends that to a stand-in on 127.0.0.1 that hangs up.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APPS, N8nInstance, packPackage, setUpOwner } from '../dev/n8nApp';
import { PACKAGE_NAME } from '../dev/packageNames';
import { PACKAGE_DIR } from '../dev/packageDir';
import { AutomationServiceSimulator } from '../dev/simulator';
import { ORDER_RUN } from '../test/support/orderExample';
import { executeWorkflow } from './support/execution';
import { importOrderExample } from './support/workflows';

const ID = 'manual-install';
const SECRET = 'manual_install_secret_7c2e9';

/**
 * The shell block of docs/install.md that installs the package by hand, with the registry name
 * replaced by a tarball's path (the doc says that is the same command).
 */
function manualInstallCommands(tarball: string): string {
	const doc = readFileSync(join(PACKAGE_DIR, 'docs', 'install.md'), 'utf8');
	const block = /```sh\n(mkdir -p ~\/\.n8n\/nodes[^`]*)```/.exec(doc)?.[1];
	if (!block)
		throw new Error('docs/install.md has no sh block starting with mkdir -p ~/.n8n/nodes');
	const install = new RegExp(`^(npm install(?: .*)?) ${PACKAGE_NAME}$`, 'm');
	if (!install.test(block))
		throw new Error(`no "npm install … ${PACKAGE_NAME}" line in:\n${block}`);
	return block.replace(install, `$1 ${tarball}`);
}

/** Stands for the internet: records each proxy request's first line and hangs up. */
async function startHangUp(): Promise<{ server: Server; url: string; requests: string[] }> {
	const requests: string[] = [];
	const server = createServer((socket: Socket) => {
		socket.once('data', (chunk: Buffer) => {
			requests.push(chunk.toString('latin1').split('\r\n')[0]);
			socket.destroy();
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
	const { port } = server.address() as { port: number };
	return { server, url: `http://127.0.0.1:${port}`, requests };
}

describe('n8n-2 with N8N_UNVERIFIED_PACKAGES_ENABLED=false: the manual install of docs/install.md', () => {
	const app = APPS['n8n-2'];
	const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
	let hangUp: Awaited<ReturnType<typeof startHangUp>>;
	let n8n: N8nInstance;
	let nodesDir: string;
	let orderId: string;

	beforeAll(async () => {
		await simulator.start();
		hangUp = await startHangUp();
		n8n = new N8nInstance(app, {
			env: {
				N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
				HTTPS_PROXY: hangUp.url,
				NO_PROXY: '127.0.0.1,localhost',
			},
		});
		nodesDir = join(n8n.userFolder, '.n8n', 'nodes');
		// ~ is n8n's user folder, as N8N_USER_FOLDER is for n8n; npm may not reach the registry.
		execFileSync('bash', ['-euc', manualInstallCommands(packPackage())], {
			env: { ...process.env, HOME: n8n.userFolder, npm_config_offline: 'true' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const data = { webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET };
		orderId = (await importOrderExample(n8n, data)).id;
	});

	afterAll(async () => {
		await n8n?.stop();
		await simulator.stop();
		hangUp?.server.close();
		n8n?.dispose();
	});

	it("the doc's npm command puts the package alone into n8n's nodes folder: no second n8n-workflow", () => {
		const installed = join(nodesDir, 'node_modules');
		expect(existsSync(join(installed, PACKAGE_NAME, 'dist', 'nodes'))).toBe(true);
		expect(existsSync(join(installed, 'n8n-workflow'))).toBe(false);
		const manifest = JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		};
		expect(Object.keys(manifest.dependencies)).toEqual([PACKAGE_NAME]);
	});

	it('n8n execute runs the order example with the package: one run, verified by the simulator', async () => {
		const before = simulator.runs(ID).length;
		const run = await executeWorkflow(n8n, orderId);
		expect(run.status).toBe('success');
		const runs = simulator.runs(ID);
		expect(runs).toHaveLength(before + 1);
		expect(runs[runs.length - 1].message).toBe(ORDER_RUN.message);
		expect(n8n.log).not.toMatch(/Error loading package|Unrecognized node type/);
	});

	describe('the running n8n, to its owner', () => {
		let cookie: string;

		beforeAll(async () => {
			await n8n.start();
			cookie = await setUpOwner(n8n);
		});

		it('Settings → Community Nodes\' install is refused: "Installation of unverified community packages is forbidden!"', async () => {
			const response = await fetch(`${n8n.baseUrl}/rest/community-packages`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', cookie },
				body: JSON.stringify({ name: PACKAGE_NAME }),
			});
			expect(response.status).toBe(500);
			expect(((await response.json()) as { message: string }).message).toBe(
				`Error loading package "${PACKAGE_NAME}" :Installation of unverified community packages is forbidden!`,
			);
			// n8n asked api.n8n.io about the package first: the stand-in got it, nothing left the machine.
			expect(hangUp.requests).toContain('CONNECT api.n8n.io:443 HTTP/1.1');
			// The refused install left the hand-installed package in place.
			expect(existsSync(join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'))).toBe(true);
		});

		it('Settings → Community Nodes does not list the package installed by hand', async () => {
			const response = await fetch(`${n8n.baseUrl}/rest/community-packages`, {
				headers: { cookie },
			});
			expect(response.status).toBe(200);
			expect(await response.json()).toEqual({ data: [] });
		});
	});
});
