/**
 * Where a side's CPU time goes: this file, run as a child under --cpu-prof, sends runs + 1
 * (warm-up) rounds of the items through one side; the parent then charges every sample to the
 * innermost frame that belongs to a group below (so node:crypto called by the credential counts
 * as the package's, a socket write started by axios as n8n's HTTP helper). By hand:
 *   node --cpu-prof .dev-dist/bench/profile.js node 1 4
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Receiver } from './receiver';
import type { Side } from './throughput';
import { Sides } from './throughput';
import { SECRET, useSnapshot } from './workload';

export const CPU_GROUPS = [
	'package code (node + credential)',
	'bare node code',
	'n8n HTTP helper (axios, per-request agent)',
	'n8n engine and helpers (n8n-core, n8n-workflow)',
	'Node.js sockets and HTTP parsing',
	'garbage collection',
	'other',
] as const;
export type CpuGroup = (typeof CPU_GROUPS)[number];

const OWNERS: Array<[RegExp, CpuGroup | 'startup']> = [
	[/node:internal\/modules\/|node:internal\/main\//, 'startup'],
	[/\/bench-package\/dist\//, 'package code (node + credential)'],
	[/\/bench\/bareNodes\.js/, 'bare node code'],
	[
		/node_modules\/(axios|proxy-from-env|follow-redirects|form-data|@n8n\/backend-network)\//,
		CPU_GROUPS[2],
	],
	[/node_modules\/(n8n-core|n8n-workflow|@n8n)\//, CPU_GROUPS[3]],
	[/^node:(net|_http_|http$|internal\/(stream_base_commons|http|net))/, CPU_GROUPS[4]],
];

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

type Owner = CpuGroup | 'startup' | 'idle';

/** µs of CPU per item by group, start-up and idle time left out. */
function breakdown(profile: Profile, items: number): Record<CpuGroup, number> {
	const selfUs = new Map<number, number>();
	profile.samples.forEach((id, i) => {
		selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
	});
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const totals = Object.fromEntries(CPU_GROUPS.map((g) => [g, 0])) as Record<CpuGroup, number>;
	// Top down: a frame of no group of its own is charged to the group of its innermost caller.
	const visit = (id: number, inherited: Owner) => {
		const { callFrame, children = [] } = byId.get(id)!;
		const name = callFrame.functionName;
		let group = OWNERS.find(([pattern]) => pattern.test(callFrame.url))?.[1] ?? inherited;
		if (name === 'writev') group = CPU_GROUPS[4];
		if (name === '(idle)' || name === '(program)') group = 'idle';
		if (name === '(garbage collector)') group = 'garbage collection';
		if (group !== 'idle' && group !== 'startup') totals[group] += (selfUs.get(id) ?? 0) / items;
		for (const child of children) visit(child, group);
	};
	visit(profile.nodes[0].id, 'other');
	return totals;
}

export function profileSide(side: Side, c: number, runs: number, items: number) {
	const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-'));
	try {
		const args = [
			'--cpu-prof',
			`--cpu-prof-dir=${dir}`,
			__filename,
			side,
			...[c, runs, items].map(String),
		];
		execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
		const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
		const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
		return breakdown(profile, (runs + 1) * items);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

async function child(side: Side, c: number, runs: number, items: number): Promise<void> {
	await useSnapshot();
	const receiver = await Receiver.start(SECRET);
	try {
		const sides = new Sides(receiver, items);
		for (let run = 0; run <= runs; run++) {
			const { ms } = await sides.once(side, c);
			process.stderr.write(
				`  profile ${side} c=${c}: ${Math.round((items / ms) * 1000)} items/s\n`,
			);
		}
	} finally {
		receiver.stop();
	}
}

if (require.main === module) {
	const [side, c, runs, items] = process.argv.slice(2);
	void child(side as Side, Number(c), Number(runs), Number(items));
}
