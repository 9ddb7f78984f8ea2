/**
 * `npm run dev` (dev/dev.js) in a checkout that lacks what it needs says which command to run and
 * exits 1 before anything is built. The checkout here is a copy of what dev/dev.js reads (the
 * manifest, dev/, credentials/, the apps' manifests), without node_modules or without the app.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { devOptions } from '../dev/devCli';
import { PACKAGE_DIR } from '../dev/packageDir';

const copies: string[] = [];

function checkout(options: { nodeModules: boolean }): string {
	const dir = mkdtempSync(join(tmpdir(), 'dev-checkout-'));
	copies.push(dir);
	for (const path of ['package.json', 'dev', 'credentials']) {
		cpSync(join(PACKAGE_DIR, path), join(dir, path), { recursive: true });
	}
	for (const app of ['n8n-2', 'n8n-1']) {
		const manifest = join('e2e', '.apps', app, 'package.json');
		cpSync(join(PACKAGE_DIR, manifest), join(dir, manifest));
	}
	if (options.nodeModules)
		symlinkSync(join(PACKAGE_DIR, 'node_modules'), join(dir, 'node_modules'));
	return dir;
}

function npmRunDev(dir: string, args: string[] = []) {
	const result = spawnSync('npm', ['run', 'dev', '--silent', '--', ...args], {
		cwd: dir,
		encoding: 'utf8',
		timeout: 20_000,
	});
	return {
		status: result.status,
		output: result.stdout + result.stderr,
		built: existsSync(join(dir, 'dist')) || existsSync(join(dir, '.dev-dist')),
	};
}

afterEach(() => {
	for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm run dev says what to install before building anything', () => {
	it('without node_modules: npm ci, then the app, exit 1, nothing built', () => {
		const run = npmRunDev(checkout({ nodeModules: false }));
		expect(run.status).toBe(1);
		expect(run.output).toContain('this checkout has no node_modules yet');
		expect(run.output).toMatch(/^ {2}npm ci --ignore-scripts --legacy-peer-deps /m);
		expect(run.output).toMatch(/^ {2}bash e2e\/install\.sh n8n-2 /m);
		expect(run.built).toBe(false);
	});

	it.each([
		[[], 'n8n-2'],
		[['--n8n', '1'], 'n8n-1'],
	])(
		'without the app (%j): the install command for that app, exit 1, nothing built',
		(args, app) => {
			const run = npmRunDev(checkout({ nodeModules: true }), args);
			expect(run.status).toBe(1);
			expect(run.output).toContain(
				`npm run dev: n8n is not installed in e2e/.apps/${app}: run bash e2e/install.sh ${app} once`,
			);
			expect(run.built).toBe(false);
		},
	);
});

describe("npm run dev's flags", () => {
	it('keeps the examples as the user left them unless --restore-examples is given', () => {
		expect(devOptions([])).toEqual({ appId: 'n8n-2', port: 5678, restoreExamples: false });
		expect(devOptions(['--n8n', '1', '--restore-examples', '--port', '5700'])).toEqual({
			appId: 'n8n-1',
			port: 5700,
			restoreExamples: true,
		});
	});
});
