/**
 * The compatibility run's results file (e2e/compat/results.json) and what the docs show of it: the
 * README's minimum line and docs/install.md's table, each between markers. `npm run
 * test:compat` writes both; test/repository/compatibilityTable.test.ts fails when either differs from the results.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as prettier from 'prettier';

import { PACKAGE_DIR } from '../../dev/packageDir';

export const RESULTS_FILE = join(PACKAGE_DIR, 'e2e', 'compat', 'results.json');
export const README_FILE = join(PACKAGE_DIR, 'README.md');
export const COMPATIBILITY_FILE = join(PACKAGE_DIR, 'docs', 'install.md');

/** What the run checks in each version, in the table's order, with the table's column heads
 * (docs/install.md, What is checked, says what each means). */
export const CHECKS = {
	install: 'Installs',
	loads: 'Loads',
	order: 'Order example',
	wrongSecret: 'Wrong secret',
	timeout: 'Timeout',
	nodesPanel: 'Nodes panel',
	aiTool: 'AI tool',
	httpCredential: 'HTTP Request credential',
} as const;

export type CheckName = keyof typeof CHECKS;

/** `pass`; `fail` with why; `n/a` where the version lacks the feature (why); `skipped` after a failure. */
export interface Outcome {
	status: 'pass' | 'fail' | 'n/a' | 'skipped';
	note?: string;
}

export interface VersionResult {
	n8n: string;
	/** The Node.js version it ran on. */
	node: string;
	/** The day of the run, YYYY-MM-DD. */
	date: string;
	/** The package version checked. */
	package: string;
	installSeconds?: number;
	checks: Record<CheckName, Outcome>;
}

export function readResults(): VersionResult[] {
	return JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as VersionResult[];
}

export function supported(result: VersionResult): boolean {
	return Object.values(result.checks).every((o) => o.status === 'pass' || o.status === 'n/a');
}

function compareVersions(a: string, b: string): number {
	const pa = a.split('.').map(Number);
	const pb = b.split('.').map(Number);
	for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
	return 0;
}

/** Newest first. */
export function sortResults(results: VersionResult[]): VersionResult[] {
	return [...results].sort((a, b) => compareVersions(b.n8n, a.n8n));
}

/**
 * The oldest version of a major that passed, provided every version checked from it upwards passed
 * too (a failure above it would make "n8n ≥ it" untrue).
 */
export function minimumOf(results: VersionResult[], major: number): string | undefined {
	let minimum: string | undefined;
	for (const result of sortResults(results).filter((r) => r.n8n.startsWith(`${major}.`))) {
		if (!supported(result)) break;
		minimum = result.n8n;
	}
	return minimum;
}

const MARK = { pass: 'yes', fail: '**no**', 'n/a': 'n/a', skipped: '–' } as const;

/** The line near the top of the README naming the oldest supported versions. */
export function renderMinimum(results: VersionResult[]): string {
	const two = minimumOf(results, 2);
	const one = minimumOf(results, 1);
	const parts = [two && `n8n ≥ ${two} (2.x)`, one && `n8n ≥ ${one} (1.x)`].filter(Boolean);
	return `**Needs ${parts.join(' or ')}**, on the Node.js that n8n version supports (every version tested and what was checked: [docs/install.md](docs/install.md#compatibility)).`;
}

/** The Compatibility table: one row per version checked, then why each failure failed. */
export function renderTable(results: VersionResult[]): string {
	const names = Object.keys(CHECKS) as CheckName[];
	const rows = [
		['n8n', 'Node.js', ...names.map((name) => CHECKS[name]), 'Result', 'Run on'],
		['---', '---', ...names.map(() => '---'), '---', '---'],
	];
	const notes: string[] = [];
	for (const result of sortResults(results)) {
		const cells = names.map((name) => {
			const outcome = result.checks[name];
			if (!outcome.note || outcome.status === 'pass') return MARK[outcome.status];
			notes.push(`n8n ${result.n8n}, ${CHECKS[name]}: ${outcome.note}`);
			return `${MARK[outcome.status]} (${notes.length})`;
		});
		rows.push([
			result.n8n,
			result.node,
			...cells,
			supported(result) ? 'supported' : '**not supported**',
			result.date,
		]);
	}
	const table = rows.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
	const list = notes.map((note, index) => `${index + 1}. ${note}`).join('\n');
	return list ? `${table}\n\n${list}` : table;
}

/** Each block rendered from the results: the file it stands in, its markers, what renders it. */
export const BLOCKS = {
	minimum: {
		file: README_FILE,
		markers: ['<!-- compat:minimum -->', '<!-- /compat:minimum -->'],
		render: renderMinimum,
	},
	table: {
		file: COMPATIBILITY_FILE,
		markers: ['<!-- compat:table -->', '<!-- /compat:table -->'],
		render: renderTable,
	},
} as const;

/** The files that show results; `npm run test:compat` renders each. */
export const RENDERED_FILES = [...new Set(Object.values(BLOCKS).map((block) => block.file))];

/** The text between a pair of markers, or undefined when the file lacks them. */
export function between(
	text: string,
	[open, close]: readonly [string, string],
): string | undefined {
	const start = text.indexOf(open);
	const end = text.indexOf(close);
	if (start === -1 || end < start) return undefined;
	return text.slice(start + open.length, end).trim();
}

/** `text`, the content of `file`, with its blocks rendered from `results`, laid out by prettier. */
export async function withResults(
	file: string,
	text: string,
	results: VersionResult[],
): Promise<string> {
	let rendered = text;
	for (const { markers, render } of Object.values(BLOCKS).filter((block) => block.file === file)) {
		const [open, close] = markers;
		const start = rendered.indexOf(open);
		const end = rendered.indexOf(close);
		if (start === -1 || end < start) throw new Error(`${file} lacks ${open} … ${close}`);
		rendered = `${rendered.slice(0, start + open.length)}\n\n${render(results)}\n\n${rendered.slice(end)}`;
	}
	const options = await prettier.resolveConfig(file);
	return await prettier.format(rendered, { ...options, filepath: file });
}
