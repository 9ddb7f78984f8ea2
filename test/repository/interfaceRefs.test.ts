/**
 * Every "§N" or "§N.M" in the repository's code, tests and docs points at a section of the service's
 * interface document that docs/reference.md lists (a heading or a table row starting with it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';

const INTERFACE = 'docs/reference.md';
const REFERENCE = /§\s?(\d+(?:\.\d+)?)(?:\s?[–-]\s?(\d+(?:\.\d+)?))?/g;

const read = (file: string) => readFileSync(join(PACKAGE_DIR, file), 'utf8');

const sections = new Set(
	[...read(INTERFACE).matchAll(/^(?:#{2,3}|\|) §(\d+(?:\.\d+)?) /gm)].map((match) => match[1]),
);

const files = execFileSync('git', ['ls-files', '*.ts', '*.md', '*.mjs', '*.mts', '*.json'], {
	cwd: PACKAGE_DIR,
	encoding: 'utf8',
})
	.split('\n')
	.filter((file) => file !== '' && !file.includes('package-lock.json'));

describe('§ references resolve to the table in docs/reference.md', () => {
	it('docs/reference.md numbers the sections §1–§9, and §5 its rules §5.1–§5.9', () => {
		for (let n = 1; n <= 9; n++) expect(sections).toContain(String(n));
		for (let n = 1; n <= 9; n++) expect(sections).toContain(`5.${n}`);
	});

	it('every reference in code, tests and docs names a section that exists', () => {
		const dangling: string[] = [];
		let count = 0;
		for (const file of files) {
			for (const match of read(file).matchAll(REFERENCE)) {
				for (const section of [match[1], match[2]].filter(Boolean)) {
					count++;
					if (!sections.has(section)) dangling.push(`${file}: §${section}`);
				}
			}
		}
		// The scan finds the references (the tests and the fault matrix cite dozens).
		expect(count).toBeGreaterThan(20);
		expect(dangling).toEqual([]);
	});
});
