/**
 * CONTRIBUTING.md's Words: each word means one thing in nodes/, credentials/ and docs/, and the
 * names it retires stay out of them. The list of retired names lives there, once; this test reads it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';

/** The backticked names after "Retired:" in CONTRIBUTING.md's Words section. */
function retiredNames(): string[] {
	const contributing = readFileSync(join(PACKAGE_DIR, 'CONTRIBUTING.md'), 'utf8');
	const section = /^## Words\n([\s\S]*?)^## /m.exec(contributing)?.[1] ?? '';
	return [...section.matchAll(/Retired: ([^.]*)\./g)].flatMap(([, names]) =>
		[...names.matchAll(/`([^`]+)`/g)].map(([, name]) => name),
	);
}

function filesUnder(dir: string, ends: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return filesUnder(path, ends);
		return path.endsWith(ends) ? [path] : [];
	});
}

describe('one word, one meaning: the names CONTRIBUTING.md retires stay retired', () => {
	const retired = retiredNames();
	const files = [
		...filesUnder(join(PACKAGE_DIR, 'nodes'), '.ts'),
		...filesUnder(join(PACKAGE_DIR, 'credentials'), '.ts'),
		...filesUnder(join(PACKAGE_DIR, 'docs'), '.md'),
	];

	it('the Words section retires names', () => {
		expect(retired).toEqual(expect.arrayContaining(['STARTS_PER_TURN', 'CredentialRefusal']));
		expect(files.length).toBeGreaterThan(30);
	});

	it('no file of nodes/, credentials/ or docs/ uses one', () => {
		const found = files.flatMap((file) => {
			const text = readFileSync(file, 'utf8');
			return retired
				.filter((name) => new RegExp(`\\b${name}\\b`).test(text))
				.map((name) => `${relative(PACKAGE_DIR, file)}: ${name}`);
		});
		expect(found).toEqual([]);
	});
});
