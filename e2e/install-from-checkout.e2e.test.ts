/**
 * The README's install from a checkout, for as long as the package is not on npm, in n8n 2.41.1: its
 * sh block run as written, from a fresh clone of this repository's committed state (in place of the
 * GitHub URL), with `~` as n8n's user folder. `npm ci` may reach the registry (through this machine's
 * npm cache first); the tarball `npm pack` makes there holds the built package, file for file the
 * one a release publishes, and n8n loads it from its nodes folder and runs the order example, which
 * the simulator verifies.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APPS, N8nInstance, packPackage } from '../dev/n8nApp';
import { PACKAGE_DIR } from '../dev/packageDir';
import { PACKAGE_NAME } from '../dev/packageNames';
import { AutomationServiceSimulator } from '../dev/simulator';
import { ORDER_RUN } from '../test/support/orderExample';
import { executeWorkflow } from './support/execution';
import { importOrderExample } from './support/workflows';

const ID = 'from-checkout';
const SECRET = 'from_checkout_secret_41b8d';
const VERSION = (
	JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
		version: string;
	}
).version;

/** The README's sh block that starts with `git clone`, cloning `source` instead of GitHub. */
function readmeInstallCommands(source: string): { commands: string; folder: string } {
	const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
	const block = /```sh\n(git clone [^`]*)```/.exec(readme)?.[1];
	if (!block) throw new Error('README.md has no sh block starting with git clone');
	const url = /^git clone (\S+)$/m.exec(block)![1];
	const folder = basename(url, '.git');
	return {
		commands: block.replace(`git clone ${url}`, `git clone --quiet ${source} ${folder}`),
		folder,
	};
}

/** The paths in a tarball, without npm's leading package/. */
function tarballFiles(tarball: string): string[] {
	return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => line.replace(/^package\//, ''))
		.sort();
}

describe("n8n-2: the README's install from a fresh clone (npm ci, npm pack, n8n's nodes folder)", () => {
	const app = APPS['n8n-2'];
	const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
	const workDir = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
	let n8n: N8nInstance;
	let clone: string;
	let nodesDir: string;
	let orderId: string;

	beforeAll(async () => {
		await simulator.start();
		n8n = new N8nInstance(app);
		nodesDir = join(n8n.userFolder, '.n8n', 'nodes');
		const { commands, folder } = readmeInstallCommands(PACKAGE_DIR);
		clone = join(workDir, folder);
		// npm's settings of an `npm run` around this test stay out, and so does the real ~, but not its
		// npm cache: the fresh clone's npm ci would otherwise download every package again.
		const cache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
		const env = Object.fromEntries(
			Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)),
		);
		execFileSync('bash', ['-euc', commands], {
			cwd: workDir,
			env: {
				...env,
				HOME: n8n.userFolder,
				npm_config_cache: cache,
				npm_config_prefer_offline: 'true',
			},
			stdio: ['ignore', 'pipe', 'pipe'],
			maxBuffer: 64 * 1024 * 1024,
		});
		const data = { webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET };
		orderId = (await importOrderExample(n8n, data)).id;
	}, 900_000);

	afterAll(async () => {
		await simulator.stop();
		n8n?.dispose();
		rmSync(workDir, { recursive: true, force: true });
	});

	it('the clone is of this commit, and its tarball holds dist/: the files a release publishes', () => {
		const head = (dir: string) =>
			execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
		expect(head(clone)).toBe(head(PACKAGE_DIR));
		const tarball = join(clone, `${PACKAGE_NAME}-${VERSION}.tgz`);
		const files = tarballFiles(tarball);
		expect(files).toContain('dist/nodes/TriggerAutomation/TriggerAutomation.node.js');
		expect(files).toContain('dist/credentials/ServiceWebhookSecretApi.credentials.js');
		expect(files).toEqual(tarballFiles(packPackage()));
	});

	it("npm installs the package alone into n8n's nodes folder, the tarball kept beside it", () => {
		const installed = join(nodesDir, 'node_modules');
		expect(existsSync(join(installed, PACKAGE_NAME, 'dist', 'nodes'))).toBe(true);
		expect(existsSync(join(installed, 'n8n-workflow'))).toBe(false);
		const manifest = JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		};
		expect(manifest.dependencies).toEqual({
			[PACKAGE_NAME]: `file:${PACKAGE_NAME}-${VERSION}.tgz`,
		});
		expect(existsSync(join(nodesDir, `${PACKAGE_NAME}-${VERSION}.tgz`))).toBe(true);
	});

	it('n8n loads the node and runs the order example: one run, verified by the simulator', async () => {
		const run = await executeWorkflow(n8n, orderId);
		expect(run.status).toBe('success');
		const runs = simulator.runs(ID);
		expect(runs).toHaveLength(1);
		expect(runs[0].message).toBe(ORDER_RUN.message);
		expect(n8n.log).not.toMatch(/Error loading package|Unrecognized node type/);
	});
});
