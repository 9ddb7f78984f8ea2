/**
 * dev/build.sh (npm run build, and the build of every other command) writes plain text when its
 * output is not a terminal (CI, a pipe, a log file): no colour, spinner or cursor codes. The build
 * runs in a copy of what it compiles (the manifest, the TypeScript settings, credentials/), so that
 * this checkout's dist/, which other tests read, stays as it is.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';

const dir = mkdtempSync(join(tmpdir(), 'build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dev/build.sh', () => {
	it('through a pipe: each step once, as plain text, and its exit status', () => {
		for (const path of ['package.json', 'tsconfig.json', 'credentials', 'dev/build.sh']) {
			cpSync(join(PACKAGE_DIR, path), join(dir, path), { recursive: true });
		}
		symlinkSync(join(PACKAGE_DIR, 'node_modules'), join(dir, 'node_modules'));
		const env = { ...process.env };
		// Whatever the caller's terminal or CI settings: the pipe alone decides.
		for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR']) delete env[name];
		const build = (args: string[] = []) =>
			spawnSync('bash', [join(dir, 'dev', 'build.sh'), ...args], {
				env,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
				timeout: 120_000,
			});

		const run = build();
		expect(run.status).toBe(0);
		expect(run.stdout).toMatch(/Building TypeScript files\.\.\.\n.*TypeScript build successful\n/);
		expect(run.stdout).toContain('Build successful');
		expect(run.stdout + run.stderr).not.toContain('\x1b');
		expect(existsSync(join(dir, 'dist', 'credentials'))).toBe(true);

		expect(build(['--no-such-flag']).status).not.toBe(0);
	}, 150_000);
});
