/**
 * `npm run dev` (dev/dev.js) answers --help and a flag error, and in a checkout that lacks what it
 * needs says which command to run, before anything is built. The checkout here is a copy of what
 * dev/dev.js reads (the manifest, dev/, credentials/, the apps' manifests), without node_modules
 * or without the app: whatever answers there cannot have built or started anything.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { FLAGS, USAGE, devOptions } from '../../dev/devCli';
import { PACKAGE_DIR } from '../../dev/packageDir';
import { BUSY_QUIET_MS } from '../../dev/simulator';

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
		expect(devOptions([])).toMatchObject({ appId: 'n8n-2', port: 5678, restoreExamples: false });
		expect(devOptions(['--n8n', '1', '--restore-examples', '--port', '5700'])).toMatchObject({
			appId: 'n8n-1',
			port: 5700,
			restoreExamples: true,
		});
	});

	it('a rate limit, a busy spell and another data folder only when asked for', () => {
		expect(devOptions([])).toMatchObject({
			dir: undefined,
			perSecond: undefined,
			busySeconds: undefined,
		});
		expect(
			devOptions(['--per-second', '5', '--busy', '20', '--dir', '/tmp/dev-b', '--port', '5700']),
		).toEqual({
			help: false,
			appId: 'n8n-2',
			port: 5700,
			restoreExamples: false,
			dir: '/tmp/dev-b',
			perSecond: 5,
			busySeconds: 20,
		});
	});

	it.each([
		[['--busy', 'soon'], /^--busy must be a number above 0, got "soon"/],
		[['--per-second', '0'], /^--per-second must be a number above 0/],
		[['--per-second', '1.5'], /^--per-second must be a whole number/],
		[['--port', '65535'], /^--port must be a port number below 65535/],
		[['--n8n', '3'], /^--n8n must be 1 or 2, got "3"/],
		[['--port'], /'--port <value>' argument missing/],
		[['--restore-example'], /^unknown flag --restore-example$/],
		[['-x'], /^unknown flag -x$/],
		[['5700'], /^unexpected argument 5700: dev takes flags only$/],
	])('%j is an error naming the flag', (args, message) => {
		expect(() => devOptions(args)).toThrow(message);
	});

	it('npm run dev says so before building anything, points at --help, and exits 2', () => {
		const run = npmRunDev(checkout({ nodeModules: true }), ['--busy', '0']);
		expect(run.status).toBe(2);
		expect(run.output).toContain('npm run dev: --busy must be a number above 0, got "0"');
		expect(run.output).toContain('npm run dev -- --help lists the flags.');
		expect(run.built).toBe(false);
	});

	it('an unknown flag is named as unknown, with --help to list them, exit 2, nothing built', () => {
		const run = npmRunDev(checkout({ nodeModules: true }), ['--per-secnd', '5']);
		expect(run).toEqual({
			status: 2,
			output: 'npm run dev: unknown flag --per-secnd. npm run dev -- --help lists the flags.\n',
			built: false,
		});
	});
});

describe('npm run dev -- --help', () => {
	it.each([['--help'], ['-h']])(
		'%s prints the usage and exits 0, building nothing, even without node_modules',
		(flag) => {
			const run = npmRunDev(checkout({ nodeModules: false }), [flag]);
			expect(run).toEqual({ status: 0, output: `${USAGE}\n`, built: false });
		},
	);

	it("--busy's usage says a spell begins again after the simulator's quiet while", () => {
		expect(USAGE.replace(/\s+/g, ' ')).toContain(
			`and again from the first after ${BUSY_QUIET_MS / 1000} s without any`,
		);
	});

	it('the usage has a line for every flag npm run dev takes, and the example commands', () => {
		const flagLines = USAGE.split('\n').filter((line) => /^ {2}(-\w, )?--[\w-]+/.test(line));
		expect(flagLines.map((line) => /--([\w-]+)/.exec(line)![1]).sort()).toEqual(
			Object.keys(FLAGS).sort(),
		);
		// Each flag the usage lists is one devOptions takes (an unknown one would throw).
		for (const line of flagLines) {
			const [flag, value] = line.trim().replace(/^-h, /, '').split(/\s+/);
			const example = {
				'<1|2>': '1',
				'<n>': '5700',
				'<folder>': '/tmp/d',
				'<seconds>': '2',
				'<n>/<seconds>': '20/30',
				'<form>': 'x-ratelimit',
			};
			const args = value.startsWith('<') ? [flag, example[value as keyof typeof example]] : [flag];
			// --quota-headers says how the quota of --quota is told: alone it is an error.
			if (flag === '--quota-headers') args.push('--quota', '20/30');
			expect(() => devOptions(args), line).not.toThrow();
		}
		const examples = USAGE.split('\n').filter((line) => line.startsWith('  npm run dev'));
		expect(examples.length).toBeGreaterThanOrEqual(5);
		for (const example of examples) {
			const args = example
				.split(/\s{2,}/)[1]
				.split(' ')
				.slice(4);
			expect(() => devOptions(args), example).not.toThrow();
		}
	});
});
