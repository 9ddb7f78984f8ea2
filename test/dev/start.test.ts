/**
 * `npm start` (dev/start.js) answers --help and every flag or AUTOMATION_SIGNING_SECRET error
 * before anything is built: no build output, dist/ untouched, nothing sent. A build takes 6 s on a
 * quiet machine and 26 s on a busy one.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';
import { Receiver } from '../support/receiver';

const BUILD_OUTPUT = /n8n-node build|Build successful|Building TypeScript/;

function npmStart(args: string[], env: Record<string, string> = {}) {
	const inherited = { ...process.env };
	delete inherited.AUTOMATION_SIGNING_SECRET;
	const builtAt = statSync(join(PACKAGE_DIR, 'dist')).mtimeMs;
	const result = spawnSync('npm', ['start', '--silent', '--', ...args], {
		cwd: PACKAGE_DIR,
		env: { ...inherited, ...env },
		encoding: 'utf8',
		timeout: 20_000,
	});
	return {
		status: result.status,
		output: result.stdout + result.stderr,
		rebuilt: statSync(join(PACKAGE_DIR, 'dist')).mtimeMs !== builtAt,
	};
}

describe('npm start reads its flags before anything is built', () => {
	const receiver = new Receiver();
	let url = '';
	beforeAll(async () => {
		await receiver.start();
		url = `${receiver.url}/webhooks/cloud/auto-start`;
	});
	afterAll(async () => receiver.stop());

	it('--help prints the usage and exits 0, without a build', () => {
		const run = npmStart(['--help']);
		expect(run.status).toBe(0);
		expect(run.output).toMatch(/^Usage: npm start/m);
		expect(run.output).not.toMatch(BUILD_OUTPUT);
		expect(run.rebuilt).toBe(false);
	});

	// The webhook URL is the receiver's, known only once it listens: {url} stands for it.
	it.each([
		[['--urll', 'x'], {}, /Unknown option '--urll'/],
		[['--port', 'abc'], {}, /--port must be a port number/],
		[['--url', 'https://svc.example/hooks/a1', '--message', 'x'], {}, /^--url: /m],
		[
			['--url', '{url}', '--message', ' '],
			{ AUTOMATION_SIGNING_SECRET: 's3' },
			/^--message is empty/m,
		],
		[['--url', '{url}', '--message', 'x'], {}, /^Set AUTOMATION_SIGNING_SECRET/m],
		[
			['--url', '{url}', '--message', 'x'],
			{ AUTOMATION_SIGNING_SECRET: ' s3cr3t-value' },
			/^AUTOMATION_SIGNING_SECRET starts or ends with whitespace/m,
		],
	])(
		'%j: exits 2 with the error and the usage, without a build, nothing sent',
		(args, env, error) => {
			const run = npmStart(
				args.map((arg) => (arg === '{url}' ? url : arg)),
				env,
			);
			expect(run.status).toBe(2);
			expect(run.output).toMatch(error);
			expect(run.output).toMatch(/^Usage: npm start/m);
			expect(run.output).not.toMatch(/Sending one trigger/);
			expect(run.output).not.toContain('s3cr3t-value');
			expect(run.output).not.toMatch(BUILD_OUTPUT);
			expect(run.rebuilt).toBe(false);
			expect(receiver.requests).toHaveLength(0);
		},
	);
});
