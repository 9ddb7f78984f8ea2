/**
 * Where a throughput side's CPU time goes: runs profile.ts under --cpu-prof in a child process and
 * sorts every sample by the code that owns it, walking its stack from the leaf up to the first
 * frame that belongs to one of the groups below (so node:crypto called from the credential counts
 * as the package's, a socket write started by axios counts as n8n's HTTP helper).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { benchScript } from './paths';
import { ITEM_COUNT } from './targets';
import type { SideName } from './throughput';

export const CPU_GROUPS = [
	'package code (node + credential)',
	'diagnostic node code',
	'n8n HTTP helper (axios, per-request agent)',
	'n8n engine and helpers (n8n-core, n8n-workflow)',
	'Node.js sockets and HTTP parsing',
	'garbage collection',
	'other',
] as const;

export type CpuGroup = (typeof CPU_GROUPS)[number];

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string };
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

export interface CpuBreakdown {
	side: SideName;
	concurrency: number;
	items: number;
	/** µs of CPU per item, by group (startup and idle left out) */
	perItemUs: Record<CpuGroup, number>;
	totalPerItemUs: number;
}

const OWNERS: Array<[RegExp, CpuGroup | 'startup']> = [
	[/node:internal\/modules\/|node:internal\/main\//, 'startup'],
	[/\/dist\/(nodes|credentials)\//, 'package code (node + credential)'],
	[/\/bench\/bareNodes\.js/, 'diagnostic node code'],
	[
		/node_modules\/(axios|proxy-from-env|follow-redirects|form-data)\//,
		'n8n HTTP helper (axios, per-request agent)',
	],
	[/node_modules\/(@n8n\/)?backend-network\//, 'n8n HTTP helper (axios, per-request agent)'],
	[
		/node_modules\/(n8n-core|n8n-workflow|@n8n)\//,
		'n8n engine and helpers (n8n-core, n8n-workflow)',
	],
];

const NODE_NET = /^node:(net|_http_|http$|internal\/(stream_base_commons|http|net))/;

function owner(stack: ProfileNode[]): CpuGroup | 'startup' | 'idle' {
	const leaf = stack[0].callFrame.functionName;
	if (leaf === '(idle)' || leaf === '(program)') return 'idle';
	if (leaf === '(garbage collector)') return 'garbage collection';
	for (const frame of stack) {
		for (const [pattern, group] of OWNERS) if (pattern.test(frame.callFrame.url)) return group;
	}
	if (
		stack.some(
			(frame) => NODE_NET.test(frame.callFrame.url) || frame.callFrame.functionName === 'writev',
		)
	) {
		return 'Node.js sockets and HTTP parsing';
	}
	return 'other';
}

function breakdown(profile: Profile, items: number): Record<CpuGroup, number> {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const totals = Object.fromEntries(CPU_GROUPS.map((group) => [group, 0])) as Record<
		CpuGroup,
		number
	>;
	const ownerOf = new Map<number, ReturnType<typeof owner>>();
	profile.samples.forEach((id, index) => {
		let group = ownerOf.get(id);
		if (group === undefined) {
			const stack: ProfileNode[] = [];
			for (
				let current: number | undefined = id;
				current !== undefined;
				current = parent.get(current)
			) {
				stack.push(byId.get(current)!);
			}
			group = owner(stack);
			ownerOf.set(id, group);
		}
		if (group !== 'idle' && group !== 'startup') totals[group] += profile.timeDeltas[index] ?? 0;
	});
	for (const group of CPU_GROUPS) totals[group] /= items;
	return totals;
}

/** Profiles `runs` + 1 warm-up runs of ITEM_COUNT items of one side at one concurrency. */
export function profileSide(side: SideName, concurrency: number, runs: number): CpuBreakdown {
	const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-'));
	try {
		execFileSync(
			process.execPath,
			[
				'--cpu-prof',
				`--cpu-prof-dir=${dir}`,
				benchScript('profile'),
				side,
				String(concurrency),
				String(runs),
			],
			{ stdio: 'ignore' },
		);
		const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
		const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
		const items = (runs + 1) * ITEM_COUNT;
		const perItemUs = breakdown(profile, items);
		const totalPerItemUs = CPU_GROUPS.reduce((sum, group) => sum + perItemUs[group], 0);
		return { side, concurrency, items, perItemUs, totalPerItemUs };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
