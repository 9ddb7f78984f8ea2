import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';
import type { VersionResult } from '../../e2e/compat/compatibilityTable';
import {
	BLOCKS,
	CHECKS,
	COMPATIBILITY_FILE,
	README_FILE,
	RENDERED_FILES,
	between,
	minimumOf,
	readResults,
	renderMinimum,
	renderTable,
	withResults,
} from '../../e2e/compat/compatibilityTable';

const pass = { status: 'pass' } as const;

function result(n8n: string, failing?: keyof typeof CHECKS): VersionResult {
	const checks = Object.fromEntries(
		Object.keys(CHECKS).map((name) => [name, pass]),
	) as VersionResult['checks'];
	if (failing) checks[failing] = { status: 'fail', note: 'why it failed' };
	return { n8n, node: '20.20.2', date: '2026-11-25', package: '0.1.0', checks };
}

describe('the docs and the compatibility results cannot drift', () => {
	it('the README holds the minimum line, docs/install.md the table', () => {
		const readme = readFileSync(README_FILE, 'utf8');
		expect(between(readme, BLOCKS.minimum.markers)).toBe(renderMinimum(readResults()));
		expect(between(readme, BLOCKS.table.markers)).toBeUndefined();
		expect(between(readFileSync(COMPATIBILITY_FILE, 'utf8'), BLOCKS.table.markers)).toBeDefined();
		expect(RENDERED_FILES).toEqual([README_FILE, COMPATIBILITY_FILE]);
	});

	it.each(RENDERED_FILES.map((file) => [relative(PACKAGE_DIR, file), file]))(
		'%s is what the results file renders, laid out as written',
		async (_, file) => {
			const text = readFileSync(file, 'utf8');
			expect(await withResults(file, text, readResults())).toBe(text);
		},
	);

	it('every version the results file holds was checked for every check', () => {
		for (const entry of readResults()) {
			expect(Object.keys(entry.checks).sort()).toEqual(Object.keys(CHECKS).sort());
		}
	});
});

describe('the minimum of a major', () => {
	it('is the oldest version that passed when every newer one passed too', () => {
		expect(minimumOf([result('1.100.1'), result('1.85.3'), result('1.82.3', 'loads')], 1)).toBe(
			'1.85.3',
		);
	});

	it('stops at a failure: an older pass below a failing version is not claimed', () => {
		expect(minimumOf([result('1.100.1'), result('1.90.0', 'order'), result('1.85.3')], 1)).toBe(
			'1.100.1',
		);
	});

	it('is undefined when the newest version checked fails', () => {
		expect(minimumOf([result('2.41.1', 'nodesPanel'), result('2.0.3')], 2)).toBeUndefined();
	});

	it('counts only its own major', () => {
		expect(minimumOf([result('2.0.3'), result('1.85.3')], 2)).toBe('2.0.3');
	});
});

describe('the table', () => {
	it('lists newest first and numbers each failure with its reason below', () => {
		const table = renderTable([result('1.82.3', 'loads'), result('2.0.3')]);
		const rows = table
			.split('\n')
			.filter((line) => line.startsWith('| 2') || line.startsWith('| 1'));
		expect(rows.map((row) => row.split(' | ')[0])).toEqual(['| 2.0.3', '| 1.82.3']);
		expect(rows[1]).toContain('**no** (1)');
		expect(rows[1]).toContain('**not supported**');
		expect(table).toContain('1. n8n 1.82.3, Loads: why it failed');
	});
});
