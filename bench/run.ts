/**
 * `npm run bench`: throughput of Trigger Automation beside what a user could use instead and
 * beside the ceiling for any n8n node, where its CPU time goes, signing cost, memory and module
 * load time. Prints the report and writes BENCHMARKS.md; progress goes to stderr.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

import type { DefaultsResult, DefaultsRun } from './defaults';
import {
	DEFAULT_SIDES,
	OTHER_DELAYS_MS,
	SCENARIOS,
	SERVICE_DELAY_MS,
	measureDefaults,
} from './defaults';
import { measureLoadTime } from './loadTime';
import { MEMORY_BODY_BYTES, measureMemory } from './memory';
import { CPU_GROUPS, profileSide } from './profile';
import { Receiver } from './receiver';
import { measureSigning } from './signing';
import { elapsedMs, num, ratio, ratioMiddle, spread, summarize } from './stats';
import type { Sample, Side, ThroughputResult } from './throughput';
import { SIDES, Sides } from './throughput';
import { MAX_IN_FLIGHT } from '../nodes/TriggerAutomation/sending/serviceGate';
import type { EngineSide } from './workload';
import { PACKAGE_DIR, SECRET, takeSnapshot, useSnapshot } from './workload';

const ITEMS = 1000;
const CONCURRENCIES = [1, 8, 64];
// Medians of 9: on a shared machine, medians of 5 runs of one build differed by 10% and more
// between bench runs.
const RUNS = 9;
// Each scenario at the defaults takes seconds per run (scenario c: 50 items at 5/s).
const DEFAULTS_RUNS = 5;
const PROFILE_RUNS = 3;
// The other answer times check the targets, not the sides' figures: fewer rounds, two sides.
const OTHER_DELAYS_RUNS = 3;
const OTHER_DELAYS_SIDES: EngineSide[] = ['node', 'httpNode'];
// Many short alternating blocks: a burst of other work lands on both sides alike.
const SIGNING_PAIRS = 101;
const SIGNING_BLOCK_MS = 10;
const ENGINE_SIDES: Side[] = ['node', 'httpNode', 'diy', 'bare'];
const TARGET = {
	bare: 0.9,
	httpNode: 1.0,
	signing: 0.95,
	memory: 2,
	loadMs: 5,
	/** (a): Trigger Automation's items/s ÷ the HTTP Request node's, both at their defaults. */
	defaultsVsHttp: 0.5,
	/** (b): accepted items/s against a service limited to 40 requests/s. */
	limitedPerSecond: 32,
	/** (d), (e): accepted/s of a burst of executions, as a share of the service's limit. */
	burstShareOfLimit: 0.8,
};

const log = (line: string) => process.stderr.write(`${line}\n`);
const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();

/** CPU-seconds the hypervisor gave to other machines (steal) since boot. */
function stealSeconds(): number {
	return Number(readFileSync('/proc/stat', 'utf8').split(/\s+/)[8]) / 100;
}

/** At each concurrency, per-run ratio of items/s (or of CPU time per item, b ÷ a), side a ÷ side b. */
function perRun(t: ThroughputResult, a: Side, b: Side, of: 'ms' | 'cpuUs' = 'ms') {
	return CONCURRENCIES.map((c) => summarize(t[a]![c].map((s, i) => t[b]![c][i][of] / s[of])));
}

interface Check {
	id: string;
	label: string;
	result: string;
	target: string;
	met: boolean;
}

/** Each scenario's figure and target, (a)–(h), for a service that answers in `delayMs`. */
function scenarioChecks(defaults: DefaultsResult, delayMs: number): Check[] {
	const median = (runs: DefaultsRun[], f: (r: DefaultsRun) => number) =>
		summarize(runs.map(f)).median;
	const allAccepted = (runs: DefaultsRun[], items: number) =>
		runs.every((run) => run.accepted === items && run.failed === 0);
	const accepted = (all: boolean) => (all ? 'all accepted' : '**not all accepted**');
	const checks: Check[] = [];
	for (const scenario of SCENARIOS) {
		const runs = defaults[scenario.id];
		const { id, executions, items, perSecond } = scenario;
		const burst =
			executions === 1 ? '' : `${executions} executions × ${items / executions} items at once, `;
		const all = allAccepted(runs.node!, items);
		if (scenario.maxSeconds !== undefined) {
			const slowest = Math.max(...runs.node!.map((r) => r.seconds));
			const most429s = Math.max(...runs.node!.map((r) => r.tooMany));
			const max429s =
				scenario.max429PerItem === undefined ? Infinity : scenario.max429PerItem * items;
			checks.push({
				id,
				label: `(${id}) At the defaults, ${delayMs} ms service, ${burst}${scenario.label}: Trigger Automation, every item accepted, seconds and 429s (the most of any round)`,
				result: `${accepted(all)}, ${slowest.toFixed(1)} s, ${most429s} 429s`,
				target: `all, ≤ ${scenario.maxSeconds} s${max429s === Infinity ? '' : `, ≤ ${max429s} 429s`}`,
				met: all && slowest <= scenario.maxSeconds && most429s <= max429s,
			});
		} else if (perSecond === undefined) {
			const vsHttp = summarize(
				runs.node!.map((run, i) => run.itemsPerSecond / runs.httpNode![i].itemsPerSecond),
			);
			checks.push({
				id,
				label: `(${id}) At the defaults, ${delayMs} ms service, ${burst}no limit: Trigger Automation ÷ n8n HTTP Request node, items/s`,
				result: ratio(vsHttp),
				target: `≥ ${TARGET.defaultsVsHttp}×`,
				met: vsHttp.median >= TARGET.defaultsVsHttp,
			});
		} else if (executions === 1 && perSecond === 5) {
			checks.push({
				id,
				label: `(${id}) At the defaults, ${delayMs} ms service, ${perSecond} requests/s limit: Trigger Automation, every item accepted`,
				result: accepted(all),
				target: 'all',
				met: all,
			});
		} else {
			const single = executions === 1;
			const rate = median(runs.node!, (r) => (single ? r.itemsPerSecond : r.acceptedPerSecond));
			const floor = single ? TARGET.limitedPerSecond : TARGET.burstShareOfLimit * perSecond;
			checks.push({
				id,
				label: `(${id}) At the defaults, ${delayMs} ms service, ${burst}${perSecond} requests/s limit: Trigger Automation, every item accepted, ${single ? 'items/s' : 'accepted/s'}`,
				result: `${accepted(all)}, ${single ? num(rate) : rate.toFixed(1)}/s`,
				target: `all, ≥ ${floor}/s`,
				met: all && rate >= floor,
			});
		}
	}
	return checks;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (head: string[], rows: string[][]) =>
	[row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

async function main(): Promise<void> {
	const started = process.hrtime.bigint();
	const stealStart = stealSeconds();
	const commit = git('rev-parse', '--short', 'HEAD');
	const dirty = git('status', '--porcelain', '--', 'nodes', 'credentials') !== '';
	takeSnapshot();
	await useSnapshot();
	log('1/7 throughput');
	const receiver = await Receiver.start(SECRET);
	const sides = new Sides(receiver, ITEMS);
	const groups = [ENGINE_SIDES, ['raw' as const]];
	const t = await sides.measure(groups, CONCURRENCIES, RUNS).finally(() => receiver.stop());
	log('2/7 CPU profiles at concurrency 1');
	const profile = (side: Side) => profileSide(side, 1, PROFILE_RUNS, ITEMS);
	const cpu = { node: profile('node'), bare: profile('bare') };
	log('3/7 signing');
	const signing = measureSigning(SIGNING_PAIRS, SIGNING_BLOCK_MS);
	log('4/7 memory');
	const memoryReceiver = await Receiver.start(SECRET);
	const memory = measureMemory(memoryReceiver.url, RUNS);
	memoryReceiver.stop();
	log('5/7 load time');
	const warm = summarize(measureLoadTime(RUNS));
	log('6/7 at the defaults, on a service that answers in 50 ms');
	const defaults = await measureDefaults(DEFAULTS_RUNS);
	log(`7/7 at the defaults, on services that answer in ${OTHER_DELAYS_MS.join(' and ')} ms`);
	const otherDelays: Array<[number, DefaultsResult]> = [];
	for (const delayMs of OTHER_DELAYS_MS) {
		const result = await measureDefaults(OTHER_DELAYS_RUNS, { delayMs, sides: OTHER_DELAYS_SIDES });
		otherDelays.push([delayMs, result]);
	}
	const wallS = elapsedMs(started) / 1000;
	const stealS = stealSeconds() - stealStart;

	const growth = summarize(memory.map((m) => m.growth / m.bodyBytes));
	const cs = CONCURRENCIES.map((c) => `concurrency ${c}`);
	const summary: string[][] = [];
	const add = (label: string, result: string, target = '—', met?: boolean) =>
		summary.push([label, result, target, met === undefined ? '—' : met ? 'met' : '**missed**']);
	const versus = (name: string, b: Side, target?: number, above?: boolean) =>
		perRun(t, 'node', b).map((r, i) => {
			const label = `Throughput, concurrency ${CONCURRENCIES[i]}: Trigger Automation ÷ ${name}`;
			if (target === undefined) add(label, ratio(r));
			else if (above) add(label, ratio(r), `> ${target.toFixed(1)}×`, r.median > target);
			else add(label, ratio(r), `≥ ${target}×`, r.median >= target);
			return r;
		});
	const vsBare = versus('bare n8n node', 'bare', TARGET.bare);
	versus('n8n HTTP Request node', 'httpNode', TARGET.httpNode, true);
	versus('do-it-yourself workflow', 'diy');
	perRun(t, 'node', 'bare', 'cpuUs').forEach((r, i) => {
		const c = CONCURRENCIES[i];
		add(`CPU time per item, concurrency ${c}: bare n8n node ÷ Trigger Automation`, ratio(r));
	});
	for (const s of signing) {
		const label = `Signing, ${s.label} body: computeSignature ÷ bare createHmac`;
		add(label, ratioMiddle(s.ratio), `≥ ${TARGET.signing}×`, s.ratio.median >= TARGET.signing);
	}
	const memoryLabel = `Memory: peak RSS growth, one item with a ${num(MEMORY_BODY_BYTES / 2 ** 20)} MiB body`;
	const memoryMet = growth.median <= TARGET.memory;
	add(memoryLabel, `${ratio(growth)} the body`, `≤ ${TARGET.memory}×`, memoryMet);
	const loadLabel = 'Load time of node + credential, n8n-workflow already loaded';
	add(loadLabel, spread(warm, 2, ' ms'), `≤ ${TARGET.loadMs} ms`, warm.median <= TARGET.loadMs);
	const short = (side: Side) => SIDES[side].split(':')[0];
	for (const check of scenarioChecks(defaults, SERVICE_DELAY_MS))
		add(check.label, check.result, check.target, check.met);
	for (const [at, result] of otherDelays) {
		const checks = scenarioChecks(result, at);
		add(
			`(a)–(h) At the defaults, ${at} ms service: Trigger Automation, each scenario's target`,
			checks.map((check) => `(${check.id}) ${check.result.replace(/\*\*/g, '')}`).join('; '),
			'each as at 50 ms',
			checks.every((check) => check.met),
		);
	}
	const defaultsRows = (result: DefaultsResult, sidesRun: EngineSide[]) =>
		SCENARIOS.flatMap((scenario) =>
			sidesRun.map((side) => {
				const runs = result[scenario.id][side]!;
				const range = (f: (r: DefaultsRun) => number, digits = 0) =>
					spread(summarize(runs.map(f)), digits);
				const executions = scenario.executions === 1 ? '' : `${scenario.executions} executions, `;
				return [
					`(${scenario.id}) ${scenario.label}, ${executions}${scenario.items} items`,
					short(side),
					range((r) => r.itemsPerSecond),
					range((r) => r.accepted),
					range((r) => r.failed),
					range((r) => r.tooMany),
					range((r) => r.mostInFlight),
					range((r) => r.seconds, 1),
					range((r) => r.acceptedPerSecond, 1),
				];
			}),
		);
	const defaultsHead = [
		'Service',
		'Side',
		'items/s',
		'accepted',
		'failed',
		'429s',
		'most in flight',
		'seconds',
		'accepted/s',
	];
	const sideRows = [...ENGINE_SIDES, 'raw' as const].map((side) => [
		SIDES[side],
		...CONCURRENCIES.map((c) => {
			const of = (f: (s: Sample) => number) => summarize(t[side]![c].map(f));
			return `${spread(of((s) => ITEMS / (s.ms / 1000)))}/s, ${num(of((s) => s.cpuUs).median)} µs CPU, ${num(of((s) => s.connections).median)} conn. (≤ ${num(of((s) => s.open).max)} open)`;
		}),
	]);
	const others: Side[] = ['bare', 'httpNode', 'diy'];
	const ratioRow = (label: string, a: Side, b: Side, of?: 'cpuUs') => [
		label,
		...perRun(t, a, b, of).map(ratio),
	];
	const ratioRows = [
		...others.map((b) => ratioRow(`**Trigger Automation ÷ ${short(b)}**`, 'node', b)),
		ratioRow('bare n8n node ÷ raw client', 'bare', 'raw'),
		...others.map((b) =>
			ratioRow(`CPU per item: ${short(b)} ÷ Trigger Automation`, 'node', b, 'cpuUs'),
		),
	];
	const total = (side: 'node' | 'bare') => CPU_GROUPS.reduce((sum, g) => sum + cpu[side][g], 0);
	const cpuRows = [
		...CPU_GROUPS.map((g) => [g, num(cpu.node[g]), num(cpu.bare[g])]),
		['**total**', `**${num(total('node'))}**`, `**${num(total('bare'))}**`],
	];
	// What the package's code and its engine calls take beyond the bare node's.
	const [packageCode, bareCode, , engine] = CPU_GROUPS;
	const ownMore = cpu.node[packageCode] + cpu.node[engine] - cpu.bare[bareCode] - cpu.bare[engine];
	const bareNote = vsBare.some((r) => r.median < TARGET.bare)
		? `\nWhere Trigger Automation ÷ bare node is below ${TARGET.bare}×: the profile charges ${num((100 * ownMore) / total('node'))}% of Trigger Automation's CPU per item to what it does beyond the bare node (Options → Timeout, parameters read per item, the credential call, the answer parsed into the output item); the min–max of the per-run ratios above shows how far runs of one round differ on this machine.\n`
		: '';

	const report = `# Benchmarks

Run ${new Date().toISOString()} on ${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${num(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version}; package built from commit ${commit}${dirty ? ' with uncommitted changes in nodes/ or credentials/' : ''}. Command: \`npm run bench\` (builds dist/ and the bench, runs .dev-dist/bench/run.js, writes this file); it took ${num(wallS)} s after the build; the hypervisor gave ${num(stealS)} of the machine's ${num(cpus().length * wallS)} CPU-s to other machines (steal)${stealS > 0.05 * wallS ? ', so absolute figures are noisy: the ratios compare sides that ran back to back' : ''}.

Every figure is the median of ${RUNS} runs, min–max in brackets; a ratio is taken per run (the sides ran back to back in one round, in rotated order) and its median reported. Only 127.0.0.1 is used.

## Summary

${table(['Measurement', 'Result', 'Target', 'Status'], summary)}

## Throughput

${ITEMS} order-like items (${num(sides.totalBodyBytes / ITEMS)}-byte JSON bodies on average) through n8n-core's \`WorkflowExecute\`, the package loaded from dist/ by n8n's \`PackageDirectoryLoader\` (dev/engine.ts), Start (Manual Trigger, items pinned) → the side. Concurrency N = batching with batch size N, interval 0. Every side sends the same body bytes, signed just before sending, to one receiver in a process of its own that verifies every signature; after every run the bench checks it verified all ${ITEMS} requests and got exactly the expected bodies. Items/s is over the whole workflow run; CPU = CPU time of the bench process per item (the receiver's is not in it); conn. = TCP connections the receiver saw, and the most open at once (with a connection per request: the most requests in flight). The n8n sides ran in rotated rounds of their own, and the raw client after them: a round holds only the sides its ratios compare, so the runs compared are close in time.

${table(['Side', ...cs], sideRows)}

${table(['Ratio per run (CPU: above 1.0× means Trigger Automation used less)', ...cs], ratioRows)}

n8n's request helper (@n8n/backend-network) builds a new http.Agent for every request, so every node opens one connection per item; the raw client does the same on purpose. The bare n8n node signs with node:crypto and sends with \`helpers.httpRequest\`, batched the same way, with the execution's Stop signal that n8n gives every request made with a credential: the least any node can do for this job. It skips what the package cannot: a node with a credential goes through \`httpRequestWithAuthentication\` and the credential's \`authenticate\`, and the bare node neither honours Options → Timeout nor parses the answer into its output.

n8n's HTTP Request node does not bound the requests in flight: with Batch Interval 0 it starts every item's request at once, whatever Items per Batch says (up to ${num(Math.max(...CONCURRENCIES.flatMap((c) => t.httpNode![c].map((s) => s.open))))} of its connections open together), so its columns, and the do-it-yourself workflow's, differ only by noise. Trigger Automation here runs with Sending → Fixed Batches (Batching set, as in these workflows) and keeps to Items per Batch.

### Where the CPU time goes

\`--cpu-prof\` of a child process sending ${PROFILE_RUNS + 1} × ${ITEMS} items at concurrency 1 (start-up and idle left out); each sample is charged to the innermost frame of a group, so node:crypto called by the credential counts as package code. µs of CPU per item; the package and its engine calls take ${num(ownMore)} µs per item more than the bare node, and the other groups do the same work on both sides.

${table(['Group', 'Trigger Automation', 'bare n8n node'], cpuRows)}
${bareNote}
## At the defaults, on a service that answers in ${SERVICE_DELAY_MS} ms

The speed a user feels: every side with no option set, against a service (the receiver in its own process) that verifies each request and answers it after ${SERVICE_DELAY_MS} ms, as over a network to a service that creates a run. One execution: (a) with no limit, (b) limited to 40 requests/s and (c) to 5 requests/s (a token bucket holding one second's worth; beyond it, 429 with \`Retry-After: 1\`). Bursts of executions started together in one process, as n8n runs one per event: (d) 50 × 2 items at 5 requests/s, (e) 20 × 10 at 20 requests/s, (f) 20 × 10 with no limit; (g) 20 × 25 at 100 requests/s, and (h) the same after the service has answered every request 429 for 5 s (a deploy, a quota that resets). Every run meets a service the process has not sent to before (a \`{base_url}\` of its own), so Adaptive sending starts afresh, as on a first burst. Trigger Automation at its default, Sending → Adaptive; n8n's HTTP Request node with this credential at its defaults (every item's request at once); the bare n8n node at a fixed bound of ${MAX_IN_FLIGHT} in flight per execution (the cap of Adaptive sending). Every side runs with On Error → Continue so that each item's fate shows: _failed_ counts its error items (the bare node's: answers that are not 2xx); _429s_ and _most in flight_ are what the service saw. Median of ${DEFAULTS_RUNS} rounds (rotated order), min–max in brackets; one unmeasured run of each side first.

${table(defaultsHead, defaultsRows(defaults, DEFAULT_SIDES))}

## At the defaults, on services that answer in ${OTHER_DELAYS_MS.join(' and ')} ms

The same scenarios with Trigger Automation and the HTTP Request node only, against services that answer after ${OTHER_DELAYS_MS.join(' and ')} ms: the targets are meant for services, not for one answer time. Median of ${OTHER_DELAYS_RUNS} rounds (rotated order), min–max in brackets.

${otherDelays.map(([at, result]) => `### ${at} ms\n\n${table(defaultsHead, defaultsRows(result, OTHER_DELAYS_SIDES))}`).join('\n\n')}

## Signing

computeSignature (the shipped dist/ build) against \`\` createHmac('sha256', secret).update(\`\${t}.\`).update(body).digest('hex') \`\` on Buffer bodies (1 KB = 1,024 bytes), ${SIGNING_PAIRS} alternating pairs of ${SIGNING_BLOCK_MS} ms blocks (at least one signature each), a fresh timestamp per signature; MB/s = 10^6 bytes/s, median of the blocks; the ratio is taken per pair.

${table(
	['Body', 'computeSignature, MB/s', 'bare createHmac, MB/s', 'ratio'],
	signing.map((s) => [s.label, num(s.helper.median), num(s.bare.median), ratioMiddle(s.ratio)]),
)}

## Memory

One item whose body is ${num(memory[0].bodyBytes)} bytes, Context = All Input Fields, through the engine and the node to the receiver, each run in a fresh process after a warm-up run; the item is in memory before the baseline. Peak RSS growth (the kernel's high-water mark) ${spread(summarize(memory.map((m) => m.growth / 2 ** 20)), 1, ' MiB')}, ${ratio(growth)} the body. The node holds the body as JSON text and as the signed Buffer it sends: while the text is encoded both exist, so the growth cannot fall much below 2× the body.

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
