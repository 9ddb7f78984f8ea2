/**
 * Where a side's CPU time goes: this file, run as a child under --cpu-prof, sends runs + 1
 * (warm-up) rounds of the items through one side; the parent then charges every sample to the
 * innermost frame that belongs to a group below (so node:crypto called by the credential counts
 * as the package's, a socket write started by axios as n8n's HTTP helper). By hand:
 *   node --cpu-prof .dev-dist/bench/profile.js node 1 4
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Receiver } from './receiver';
import type { Side } from './throughput';
import { Sides } from './throughput';
import { SECRET, useSnapshot } from './workload';

const SOCKETS = 'Node.js sockets and HTTP parsing';
/** Start-up, then the groups in report order, each with the scripts it owns; the first match wins. */
const OWNERS: Array<[string, RegExp?]> = [
	['startup', /node:internal\/modules\/|node:internal\/main\//],
	['package code (node + credential)', /\/bench-package\/dist\//],
	['bare node code', /\/bench\/bareNodes\.js/],
	[
		'n8n HTTP helper (axios, per-request agent)',
		/node_modules\/(axios|proxy-from-env|follow-redirects|form-data|@n8n\/backend-network)\//,
	],
	[
		'n8n engine and helpers (n8n-core, n8n-workflow)',
		/node_modules\/(n8n-core|n8n-workflow|@n8n)\//,
	],
	[SOCKETS, /^node:(net|_http_|http$|internal\/(stream_base_commons|http|net))/],
	['garbage collection'],
	['other'],
];
export const CPU_GROUPS = OWNERS.slice(1).map(([group]) => group);

/** µs of CPU per item by group; start-up and idle time are in no group, so left out. */
function breakdown(profile: Profiler.Profile, items: number): Record<string, number> {
	const { samples = [], timeDeltas = [] } = profile;
	const selfUs = new Map<number, number>();
	samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (timeDeltas[i] ?? 0)));
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const totals: Record<string, number> = Object.fromEntries(CPU_GROUPS.map((g) => [g, 0]));
	// Top down: a frame of no group of its own is charged to the group of its innermost caller.
	const visit = (id: number, inherited: string) => {
		const { callFrame, children = [] } = byId.get(id)!;
		const name = callFrame.functionName;
		let group = OWNERS.find(([, pattern]) => pattern?.test(callFrame.url))?.[0] ?? inherited;
		if (name === 'writev') group = SOCKETS;
		if (name === '(idle)' || name === '(program)') group = 'idle';
		if (name === '(garbage collector)') group = 'garbage collection';
		if (group in totals) totals[group] += (selfUs.get(id) ?? 0) / items;
		for (const child of children) visit(child, group);
	};
	visit(profile.nodes[0].id, 'other');
	return totals;
}

export function profileSide(side: Side, c: number, runs: number, items: number) {
	const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-'));
	try {
		const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
		const args = [...flags, __filename, side, ...[c, runs, items].map(String)];
		execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
		const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
		const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profiler.Profile;
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
			const perSecond = Math.round((items / (await sides.once(side, c)).ms) * 1000);
			process.stderr.write(`  profile ${side} c=${c}: ${perSecond} items/s\n`);
		}
	} finally {
		receiver.stop();
	}
}

if (require.main === module) {
	const [side, c, runs, items] = process.argv.slice(2);
	void child(side as Side, Number(c), Number(runs), Number(items));
}
