/**
 * `npm run bench`: throughput of Trigger Automation beside what a user could use instead and
 * beside the ceiling for any n8n node, where its CPU time goes, signing cost, memory and module
 * load time. Prints the report and writes BENCHMARKS.md; progress goes to stderr.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

import { measureLoadTime } from './loadTime';
import { MEMORY_BODY_BYTES, measureMemory } from './memory';
import { CPU_GROUPS, profileSide } from './profile';
import { Receiver } from './receiver';
import { measureSigning } from './signing';
import type { Summary } from './stats';
import { elapsedMs, num, ratio, ratioMiddle, spread, summarize } from './stats';
import type { Side, ThroughputResult } from './throughput';
import { SIDES, Sides, measureThroughput } from './throughput';
import { PACKAGE_DIR, SECRET, takeSnapshot, useSnapshot } from './workload';

const ITEMS = 1000;
const CONCURRENCIES = [1, 8, 64];
const RUNS = 5;
const PROFILE_RUNS = 3;
// Many short alternating blocks: a burst of other work lands on both sides alike.
const SIGNING_PAIRS = 101;
const SIGNING_BLOCK_MS = 10;
const ORDER: Side[] = ['node', 'httpNode', 'diy', 'bare', 'rawNoKeepAlive', 'raw'];
const TARGET = { bare: 0.95, httpNode: 1.0, signing: 0.95, memory: 2, loadMs: 5 };

const log = (line: string) => process.stderr.write(`${line}\n`);
const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();

/** CPU-seconds the hypervisor gave to other machines (steal) since boot. */
function stealSeconds(): number {
	return Number(readFileSync('/proc/stat', 'utf8').split(/\s+/)[8]) / 100;
}

/** Per-run ratio of items/s (or of CPU time per item, b ÷ a), side a ÷ side b, same round. */
function perRun(t: ThroughputResult, a: Side, b: Side, c: number, of: 'ms' | 'cpuUs' = 'ms') {
	const bs = t[b]![c].samples;
	return summarize(t[a]![c].samples.map((s, i) => bs[i][of] / s[of]));
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (head: string[], rows: string[][]) =>
	[row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

async function main(): Promise<void> {
	const started = process.hrtime.bigint();
	const stealStart = stealSeconds();
	const load = [loadavg()[0]];
	const commit = git('rev-parse', '--short', 'HEAD');
	const dirty = git('status', '--porcelain', '--', 'nodes', 'credentials') !== '';
	takeSnapshot();
	await useSnapshot();
	const receiver = await Receiver.start(SECRET);
	let t: ThroughputResult;
	let bodyBytes: number;
	try {
		log('1/5 throughput');
		const sides = new Sides(receiver, ITEMS);
		bodyBytes = sides.averageBodyBytes;
		t = await measureThroughput(sides, ORDER, CONCURRENCIES, RUNS, log);
	} finally {
		receiver.stop();
	}
	log('2/5 CPU profiles at concurrency 1');
	const cpu = {
		node: profileSide('node', 1, PROFILE_RUNS, ITEMS),
		bare: profileSide('bare', 1, PROFILE_RUNS, ITEMS),
	};
	log('3/5 signing');
	const signing = measureSigning(SIGNING_PAIRS, SIGNING_BLOCK_MS);
	log('4/5 memory');
	const memoryReceiver = await Receiver.start(SECRET);
	const memory = measureMemory(memoryReceiver.url, RUNS);
	memoryReceiver.stop();
	log('5/5 load time');
	const loadTimes = measureLoadTime(RUNS);
	load.push(loadavg()[0]);
	const wallS = elapsedMs(started) / 1000;
	const stealS = stealSeconds() - stealStart;

	const vs = (b: Side, of: 'ms' | 'cpuUs' = 'ms') =>
		CONCURRENCIES.map((c) => perRun(t, 'node', b, c, of));
	const [vsBare, vsHttp, vsDiy] = [vs('bare'), vs('httpNode'), vs('diy')];
	const growth = summarize(memory.map((m) => m.growth / m.bodyBytes));
	const warm = summarize(loadTimes);
	const cs = CONCURRENCIES.map((c) => `concurrency ${c}`);
	// [measurement, result, target, met (undefined: no target)]
	const summary: string[][] = [];
	const add = (label: string, result: string, target = '—', met?: boolean) =>
		summary.push([label, result, target, met === undefined ? '—' : verdict(met)]);
	const versus: Array<[string, Summary[], string?, ((x: number) => boolean)?]> = [
		['bare n8n node', vsBare, `≥ ${TARGET.bare}×`, (x) => x >= TARGET.bare],
		[
			'n8n HTTP Request node',
			vsHttp,
			`> ${TARGET.httpNode.toFixed(1)}×`,
			(x) => x > TARGET.httpNode,
		],
		['do-it-yourself workflow', vsDiy],
	];
	for (const [name, list, target, met] of versus) {
		CONCURRENCIES.forEach((c, i) => {
			const label = `Throughput, concurrency ${c}: Trigger Automation ÷ ${name}`;
			add(label, ratio(list[i]), target, met?.(list[i].median));
		});
	}
	const cpuVsBare = vs('bare', 'cpuUs');
	CONCURRENCIES.forEach((c, i) => {
		const label = `CPU time per item, concurrency ${c}: bare n8n node ÷ Trigger Automation`;
		add(label, ratio(cpuVsBare[i]));
	});
	for (const s of signing) {
		const label = `Signing, ${s.label} body: computeSignature ÷ bare createHmac`;
		add(label, ratioMiddle(s.ratio), `≥ ${TARGET.signing}×`, s.ratio.median >= TARGET.signing);
	}
	const mib = num(MEMORY_BODY_BYTES / 2 ** 20);
	const memoryLabel = `Memory: peak RSS growth, one item with a ${mib} MiB body`;
	add(
		memoryLabel,
		`${ratio(growth)} the body`,
		`≤ ${TARGET.memory}×`,
		growth.median <= TARGET.memory,
	);
	const loadLabel = 'Load time of node + credential, n8n-workflow already loaded';
	add(loadLabel, spread(warm, 2, ' ms'), `≤ ${TARGET.loadMs} ms`, warm.median <= TARGET.loadMs);
	const sideRows = ORDER.map((side) => [
		SIDES[side],
		...CONCURRENCIES.map((c) => {
			const r = t[side]![c];
			return `${spread(r.perSecond)}/s, ${num(r.connections.median)} conn. (≤ ${num(r.open.max)} open)`;
		}),
	]);
	const ratioRow = (label: string, a: Side, b: Side, of: 'ms' | 'cpuUs' = 'ms') => [
		label,
		...CONCURRENCIES.map((c) => ratio(perRun(t, a, b, c, of))),
	];
	const ratioRows = [
		...(['bare', 'httpNode', 'diy', 'raw'] as Side[]).map((b) => {
			const name = b === 'raw' ? 'raw client, keep-alive' : SIDES[b].split(':')[0];
			return ratioRow(`**Trigger Automation ÷ ${name}**`, 'node', b);
		}),
		ratioRow('bare n8n node ÷ raw client, new connection per request', 'bare', 'rawNoKeepAlive'),
	];
	const cpuRatioRows = (['bare', 'httpNode', 'diy'] as Side[]).map((b) =>
		ratioRow(`CPU per item: ${SIDES[b].split(':')[0]} ÷ Trigger Automation`, 'node', b, 'cpuUs'),
	);
	const cpuPerItemRows = ORDER.filter((side) => side !== 'raw' && side !== 'rawNoKeepAlive').map(
		(side) => [SIDES[side], ...CONCURRENCIES.map((c) => spread(t[side]![c].cpuUs, 0, ' µs'))],
	);
	const total = (side: 'node' | 'bare') => CPU_GROUPS.reduce((sum, g) => sum + cpu[side][g], 0);
	const cpuRows = [
		...CPU_GROUPS.map((g) => [g, num(cpu.node[g]), num(cpu.bare[g])]),
		['**total**', `**${num(total('node'))}**`, `**${num(total('bare'))}**`],
	];
	const memoryMiB = summarize(memory.map((m) => m.growth / 2 ** 20));
	const missedBare = vsBare.some((s) => s.median < TARGET.bare);

	const report = `# Benchmarks

Run ${new Date().toISOString()} on ${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${num(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version}; package built from commit ${commit}${dirty ? ' with uncommitted changes in nodes/ or credentials/' : ''}. Command: \`npm run bench\` (builds dist/ and the bench, runs .dev-dist/bench/run.js, writes this file); it took ${num(wallS)} s after the build. Load average ${load[0].toFixed(2)} at the start, ${load[1].toFixed(2)} at the end; the hypervisor gave ${num(stealS)} of the machine's ${num(cpus().length * wallS)} CPU-s to other machines (steal)${stealS > 0.05 * wallS ? ', so absolute figures are noisy: the ratios compare sides that ran back to back' : ''}.

Every figure is the median of ${RUNS} runs, min–max in brackets; a ratio is taken per run (the sides ran back to back in one round, in rotated order) and its median reported. Only 127.0.0.1 is used.

## Summary

${table(['Measurement', 'Result', 'Target', 'Status'], summary)}

## Throughput

${ITEMS} order-like items (${num(bodyBytes)}-byte JSON bodies on average) through n8n-core's \`WorkflowExecute\`, the package loaded from dist/ by n8n's \`PackageDirectoryLoader\` (dev/engine.ts), Start (Manual Trigger, items pinned) → the side. Concurrency N = batching with batch size N, interval 0. Every side sends the same body bytes, signed just before sending, to one receiver in a separate process that verifies every signature and counts connections; after every run the bench checks it verified all ${ITEMS} requests and got exactly the expected bodies. Items/s is over the whole workflow run; conn. = TCP connections the receiver saw, and the most it saw open at once (for the sides with a connection per request: the most requests in flight together).

${table(['Side (items/s, TCP connections)', ...cs], sideRows)}

${table(['Ratio of items/s, per run', ...cs], ratioRows)}

CPU time of the bench process per item, all its threads (the receiver is a process of its own): what each side costs the n8n process. A ratio above 1.0× means Trigger Automation used less CPU per item.

${table(['CPU time per item', ...cs], cpuPerItemRows)}

${table(['Ratio of CPU time per item, per run', ...cs], cpuRatioRows)}

n8n's HTTP Request node does not bound the requests in flight: with Batch Interval 0 it starts every item's request at once, whatever Items per Batch says (the receiver saw up to ${num(Math.max(...CONCURRENCIES.map((c) => t.httpNode![c].open.max)))} of its connections, one per request, open together), so its columns, and those of the do-it-yourself workflow that sends with it, differ only by noise. Trigger Automation keeps to Items per Batch (one request at a time without Batching, so that runs are created in item order): at concurrency 1 it sends one at a time against the HTTP Request node's all at once.

n8n's request helper (@n8n/backend-network, used by every node) builds a new http.Agent for every request, so each n8n side opens one connection per item whatever the node passes; the raw client without keep-alive does the same on purpose, and is the fair baseline for a node. The bare n8n node signs with node:crypto and sends with \`helpers.httpRequest\`, batched the same way, with the execution's Stop signal that n8n gives every request made with a credential: the least any node can do for this job, so Trigger Automation ÷ bare node is what the package itself costs.

### Where the CPU time goes

\`--cpu-prof\` of a child process sending ${PROFILE_RUNS + 1} × ${ITEMS} items at concurrency 1 (start-up and idle left out); each sample is charged to the innermost frame of a group, so node:crypto called by the credential counts as package code. µs of CPU per item:

${table(['Group', 'Trigger Automation', 'bare n8n node'], cpuRows)}

${missedBare ? `Where Trigger Automation ÷ bare node is below ${TARGET.bare}×: the package's own code takes ${num(cpu.node[CPU_GROUPS[0]])} µs per item (body building, validation, signing through the credential, response parsing, output), against ${num(cpu.bare[CPU_GROUPS[1]])} µs for the bare node's JSON.stringify + HMAC; n8n's engine and helpers ${num(cpu.node[CPU_GROUPS[3]])} µs against ${num(cpu.bare[CPU_GROUPS[3]])} µs (the credential call and per-item parameters). Together ${num(cpu.node[CPU_GROUPS[0]] + cpu.node[CPU_GROUPS[3]] - cpu.bare[CPU_GROUPS[1]] - cpu.bare[CPU_GROUPS[3]])} µs per item more than the bare node, of ${num(total('node'))} µs of CPU per item; the other groups do the same work on both sides (n8n's HTTP helper, sockets, garbage collection) and differ between the two profiles by noise. The bare node skips what the package cannot: it signs in the node and calls \`helpers.httpRequest\`, where a node with a credential goes through \`httpRequestWithAuthentication\` and the credential's \`authenticate\` (n8n's lint rule \`no-http-request-with-manual-auth\` asks for that), and it neither honours Stop and Options → Timeout nor parses the answer into its output.` : ''}

## Signing

computeSignature (the shipped dist/ build) against \`\` createHmac('sha256', secret).update(\`\${t}.\`).update(body).digest('hex') \`\` on Buffer bodies (1 KB = 1,024 bytes), ${SIGNING_PAIRS} alternating pairs of ${SIGNING_BLOCK_MS} ms blocks (at least one signature each), a fresh timestamp per signature; MB/s = 10^6 bytes/s, median of the blocks; the ratio is taken per pair.

${table(
	['Body', 'computeSignature, MB/s', 'bare createHmac, MB/s', 'ratio'],
	signing.map((s) => [s.label, num(s.helper.median), num(s.bare.median), ratioMiddle(s.ratio)]),
)}

## Memory

One item whose body is ${num(memory[0].bodyBytes)} bytes, Context = All Input Fields, through the engine and the node to the receiver, each run in a fresh process after a warm-up run; the item is in memory before the baseline. Peak RSS growth ${spread(memoryMiB, 1, ' MiB')}, ${ratio(growth)} the body; sampled peaks: V8 heap ${spread(summarize(memory.map((m) => m.heapGrowth / 2 ** 20)), 1, ' MiB')}, external (Buffers) ${spread(summarize(memory.map((m) => m.externalGrowth / 2 ** 20)), 1, ' MiB')}. The node holds the body as JSON text (V8 heap) and as the signed Buffer it sends (external memory): while the text is encoded, both exist at once, so the growth cannot fall much below 2× the body; what is above 2× is the engine's and n8n's HTTP helper's own memory for the run.

## Load time

\`require\` of the built node and credential in a fresh process: ${spread(warm, 2, ' ms')} with n8n-workflow already loaded (as in n8n), median of ${RUNS} processes.
`;
	writeFileSync(join(PACKAGE_DIR, 'BENCHMARKS.md'), report);
	process.stdout.write(report);
	log(`bench: done in ${num(elapsedMs(started) / 1000)} s, BENCHMARKS.md written`);
}

main().catch((error: unknown) => {
	log(error instanceof Error ? (error.stack ?? error.message) : String(error));
	process.exitCode = 1;
});
