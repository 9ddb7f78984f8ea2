/**
 * `npm run bench`: throughput of Trigger Automation beside what a user could use instead and
 * beside the ceiling for any n8n node, where its CPU time goes, signing cost, memory, module load
 * time, one large execution, and the scenarios at the defaults in the real n8n app (needs
 * `bash e2e/install.sh n8n-2 nginx`). Prints the report and writes BENCHMARKS.md; progress goes to
 * stderr. `npm run bench -- --only g,k,nginx` runs only those parts (scenario ids, i, throughput,
 * signing, memory, load), `--rounds N` and `--delays 20,50` narrow them further: printed only.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

import type { DefaultsResult, Scenario } from './defaults';
import { NGINX_LIMIT, SCENARIOS, SERVICE_DELAY_MS, measureDefaults, warmUp } from './defaults';
import type { LargeRun } from './largeExecution';
import {
	ENGINE_NO_LIMIT_ITEMS,
	engineNoLimitRatio,
	engineNoLimitRows,
	measureEngineNoLimit,
} from './engineNoLimit';
import { LARGE_DELAY_MS, measureLargeExecution } from './largeExecution';
import { measureLoadTime } from './loadTime';
import { MEMORY_BODY_BYTES, measureMemory } from './memory';
import { engineBurstChecks, engineBurstRows, measureEngineBursts } from './engineBurst';
import { PROCESS_SCENARIOS, measureManyProcesses } from './manyProcesses';
import { manyProcessesChecks, manyProcessesSection } from './manyProcessesReport';
import { QUEUE_SCENARIO, measureQueueMode } from './queueMode';
import {
	LONG_QUOTA,
	QUOTA,
	READ_MARGIN_MS,
	measureRealLimiters,
	quotaSides,
	realCases,
	wireHeaders,
} from './realLimitersRun';
import { realChecks, realTable } from './realLimitersReport';
import { queueModeChecks, queueModeSection } from './queueModeReport';
import { APPS } from '../dev/n8nApp';
import { besideCpuBound } from './cpuBeside';
import { Production } from './production';
import { CPU_GROUPS, profileSide } from './profile';
import { Receiver } from './receiver';
import type { Check } from './scenarioReport';
import {
	arrivalsTable,
	delayTable,
	largeCheck,
	largeSection,
	mannersTable,
	scenarioChecks,
	table,
} from './scenarioReport';
import { measureSigning } from './signing';
import { elapsedMs, num, ratio, ratioMiddle, spread, summarize } from './stats';
import type { Sample, Side, ThroughputResult } from './throughput';
import { SIDES, Sides } from './throughput';
import { PACKAGE_DIR, SECRET, takeSnapshot, useSnapshot } from './workload';

const ITEMS = 1000;
const CONCURRENCIES = [1, 8, 64];
// Medians of 9: on a shared machine, medians of 5 runs of one build differed by 10% and more
// between bench runs.
const RUNS = 9;
// A scenario in the app takes seconds per run (d: 100 items at 5/s, 20 s): rounds at 50 ms; the
// other answer times check that the targets hold, in fewer rounds (the full run stays < 25 min).
const DEFAULTS_RUNS = 3;
const OTHER_RUNS = 2;
const LARGE_RUNS = 3;
const PROFILE_RUNS = 3;
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
};
/** Parts `--only` can name besides the scenario ids (a … l, nginx, w2 … w4f) and i. */
const PARTS = [
	'throughput',
	'signing',
	'memory',
	'load',
	'a-engine',
	'burst-engine',
	'real',
	QUEUE_SCENARIO.id,
];
const ENGINE_NO_LIMIT_DELAYS = [20, 50, 200, 500];
const ENGINE_NO_LIMIT_RUNS = 3;
const ENGINE_NO_LIMIT_TARGET = 1.0;
// Many processes, one service: 2 rounds of 4 scenarios take about 5 min (ideal times 20–40 s).
const MANY_PROCESSES_RUNS = 2;
/** Rounds of the limited bursts in the engine. */
const ENGINE_BURST_RUNS = 2;
// Quotas told by real limiters: 11 sides × 4 cases of about 5 s take about 4 min a round.
const REAL_RUNS = 3;
// Queue mode: the cluster's start (3 n8n processes, PostgreSQL, Redis) takes about a minute.
const QUEUE_RUNS = 2;

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

interface Options {
	/** Parts and scenario ids to run (all when undefined: a full run, which writes BENCHMARKS.md). */
	only?: Set<string>;
	rounds?: number;
	delays?: number[];
}

const USAGE =
	'usage: npm run bench [-- --only g,k,nginx,w2,w4,w2f,w4f,queue,i,a-engine,burst-engine,real,throughput,signing,memory,load] [--rounds N] [--delays 20,50]';

function parseArgs(argv: string[]): Options {
	const options: Options = {};
	const list = (value: string | undefined) => {
		if (!value) throw new Error(USAGE);
		return value.split(',').map((part) => part.trim());
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--only') options.only = new Set(list(argv[++i]));
		else if (arg === '--rounds') options.rounds = Number(argv[++i]);
		else if (arg === '--delays') options.delays = list(argv[++i]).map(Number);
		else throw new Error(`${arg}?\n${USAGE}`);
	}
	const known = new Set([
		...PARTS,
		'i',
		...SCENARIOS.map((scenario) => scenario.id),
		...PROCESS_SCENARIOS.map((scenario) => scenario.id),
	]);
	for (const part of options.only ?? []) {
		if (!known.has(part)) throw new Error(`No part "${part}": ${[...known].join(', ')}`);
	}
	if (options.rounds !== undefined && !(options.rounds >= 1)) throw new Error(USAGE);
	if (options.delays?.some((delay) => !(delay >= 0))) throw new Error(USAGE);
	return options;
}

interface Part {
	checks: Check[];
	section: string;
}

async function throughputPart(): Promise<Part> {
	log('throughput');
	const receiver = await Receiver.start(SECRET);
	const sides = new Sides(receiver, ITEMS);
	const groups = [ENGINE_SIDES, ['raw' as const]];
	const t = await sides.measure(groups, CONCURRENCIES, RUNS).finally(() => receiver.stop());
	log('CPU profiles at concurrency 1');
	const profile = (side: Side) => profileSide(side, 1, PROFILE_RUNS, ITEMS);
	const cpu = { node: profile('node'), bare: profile('bare') };

	const checks: Check[] = [];
	const add = (label: string, result: string, target = '—', met?: boolean) =>
		checks.push({ label, result, target, met });
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
	const short = (side: Side) => SIDES[side].split(':')[0];
	const cs = CONCURRENCIES.map((c) => `concurrency ${c}`);
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
		? `\nWhere Trigger Automation ÷ bare node is below ${TARGET.bare}×: the profile charges ${num((100 * ownMore) / total('node'))}% of Trigger Automation's CPU per item to what it does beyond the bare node (Options → Timeout, parameters read per item, the credential call, the answer parsed into the output item). Its answer is read as a stream, kept up to 1 MiB, where the bare node has n8n read it whole: that costs in n8n's HTTP helper and sockets (a scratch copy of 6bf9b2c reading answers whole: CPU per item, bare ÷ Trigger Automation, 0.87× against 0.74–0.75×, one run each on a quiet machine; reading the stream by events instead of an async iterator gained nothing). The min–max of the per-run ratios above shows how far runs of one round differ on this machine.\n`
		: '';
	return {
		checks,
		section: `## Throughput

${ITEMS} order-like items (${num(sides.totalBodyBytes / ITEMS)}-byte JSON bodies on average) through n8n-core's \`WorkflowExecute\`, the package loaded from dist/ by n8n's \`PackageDirectoryLoader\` (dev/engine.ts), Start (Manual Trigger, items pinned) → the side. Concurrency N = batching with batch size N, interval 0. Every side sends the same body bytes, signed just before sending, to one receiver in a process of its own that verifies every signature; after every run the bench checks it verified all ${ITEMS} requests and got exactly the expected bodies. Items/s is over the whole workflow run; CPU = CPU time of the bench process per item (the receiver's is not in it); conn. = TCP connections the receiver saw, and the most open at once (with a connection per request: the most requests in flight). The n8n sides ran in rotated rounds of their own, and the raw client after them: a round holds only the sides its ratios compare, so the runs compared are close in time.

${table(['Side', ...cs], sideRows)}

${table(['Ratio per run (CPU: above 1.0× means Trigger Automation used less)', ...cs], ratioRows)}

n8n's request helper (@n8n/backend-network) builds a new http.Agent for every request, so every node opens one connection per item; the raw client does the same on purpose. The bare n8n node signs with node:crypto and sends with \`helpers.httpRequest\`, batched the same way, with the execution's Stop signal that n8n gives every request made with a credential: the least any node can do for this job. It skips what the package cannot: a node with a credential goes through \`httpRequestWithAuthentication\` and the credential's \`authenticate\`, and the bare node neither honours Options → Timeout nor parses the answer into its output.

n8n's HTTP Request node does not bound the requests in flight: with Batch Interval 0 it starts every item's request at once, whatever Items per Batch says (up to ${num(Math.max(...CONCURRENCIES.flatMap((c) => t.httpNode![c].map((s) => s.open))))} of its connections open together), so its columns, and the do-it-yourself workflow's, differ only by noise. Trigger Automation here runs with Sending → Fixed Batches (Batching set, as in these workflows) and keeps to Items per Batch.

### Where the CPU time goes

\`--cpu-prof\` of a child process sending ${PROFILE_RUNS + 1} × ${ITEMS} items at concurrency 1 (start-up and idle left out); each sample is charged to the innermost frame of a group, so node:crypto called by the credential counts as package code. µs of CPU per item; the package and its engine calls take ${num(ownMore)} µs per item more than the bare node, and the other groups do the same work on both sides.

${table(['Group', 'Trigger Automation', 'bare n8n node'], cpuRows)}
${bareNote}`,
	};
}

function signingPart(): Part {
	log('signing');
	const signing = measureSigning(SIGNING_PAIRS, SIGNING_BLOCK_MS);
	return {
		checks: signing.map((s) => ({
			label: `Signing, ${s.label} body: computeSignature ÷ bare createHmac`,
			result: ratioMiddle(s.ratio),
			target: `≥ ${TARGET.signing}×`,
			met: s.ratio.median >= TARGET.signing,
		})),
		section: `## Signing

computeSignature (the shipped dist/ build) against \`\` createHmac('sha256', secret).update(\`\${t}.\`).update(body).digest('hex') \`\` on Buffer bodies (1 KB = 1,024 bytes), ${SIGNING_PAIRS} alternating pairs of ${SIGNING_BLOCK_MS} ms blocks (at least one signature each), a fresh timestamp per signature; MB/s = 10^6 bytes/s, median of the blocks; the ratio is taken per pair.

${table(
	['Body', 'computeSignature, MB/s', 'bare createHmac, MB/s', 'ratio'],
	signing.map((s) => [s.label, num(s.helper.median), num(s.bare.median), ratioMiddle(s.ratio)]),
)}

`,
	};
}

async function memoryPart(): Promise<Part> {
	log('memory');
	const receiver = await Receiver.start(SECRET);
	const memory = measureMemory(receiver.url, RUNS);
	receiver.stop();
	const growth = summarize(memory.map((m) => m.growth / m.bodyBytes));
	return {
		checks: [
			{
				label: `Memory: peak RSS growth, one item with a ${num(MEMORY_BODY_BYTES / 2 ** 20)} MiB body`,
				result: `${ratio(growth)} the body`,
				target: `≤ ${TARGET.memory}×`,
				met: growth.median <= TARGET.memory,
			},
		],
		section: `## Memory

One item whose body is ${num(memory[0].bodyBytes)} bytes, Context = All Input Fields, through the engine and the node to the receiver, each run in a fresh process after a warm-up run; the item is in memory before the baseline. Peak RSS growth (the kernel's high-water mark) ${spread(summarize(memory.map((m) => m.growth / 2 ** 20)), 1, ' MiB')}, ${ratio(growth)} the body. The node holds the body as JSON text and as the signed Buffer it sends: while the text is encoded both exist, so the growth cannot fall much below 2× the body.

`,
	};
}

function loadPart(): Part {
	log('load time');
	const warm = summarize(measureLoadTime(RUNS));
	return {
		checks: [
			{
				label: 'Load time of node + credential, n8n-workflow already loaded',
				result: spread(warm, 2, ' ms'),
				target: `≤ ${TARGET.loadMs} ms`,
				met: warm.median <= TARGET.loadMs,
			},
		],
		section: `## Load time

\`require\` of the built node and credential in a fresh process: ${spread(warm, 2, ' ms')} with n8n-workflow already loaded (as in n8n), median of ${RUNS} processes.\n`,
	};
}

async function largePart(): Promise<Part> {
	log(`(i) one large execution at ${LARGE_DELAY_MS} ms`);
	const receiver = await Receiver.start(SECRET, { delayMs: LARGE_DELAY_MS });
	const runs: LargeRun[] = [];
	try {
		for (let run = 0; run < LARGE_RUNS; run++) {
			await receiver.take();
			runs.push(measureLargeExecution(receiver.url));
			const got = await receiver.take();
			if (got.rejected !== 0) throw new Error(`(i): ${got.rejected} requests failed verification`);
			log(
				`  (i) ${num(runs[run].itemsPerSecond)} items/s, peak RSS ${num(runs[run].peakRss / 2 ** 20)} MiB`,
			);
		}
	} finally {
		receiver.stop();
	}
	return {
		checks: [largeCheck(runs)],
		section: `## One large execution\n\n${largeSection(runs)}\n`,
	};
}

async function engineNoLimitPart(options: Options): Promise<Part> {
	log('(a) in the engine');
	const receiver = await Receiver.start(SECRET);
	const delays = options.delays ?? ENGINE_NO_LIMIT_DELAYS;
	const rounds = options.rounds ?? ENGINE_NO_LIMIT_RUNS;
	const result = await measureEngineNoLimit(receiver, delays, rounds).finally(() =>
		receiver.stop(),
	);
	const checks = delays.map((delayMs) => {
		const vs = engineNoLimitRatio(result, delayMs);
		return {
			label: `(a) in n8n-core's engine, ${delayMs} ms service, no limit, one execution of ${ENGINE_NO_LIMIT_ITEMS} items: Trigger Automation ÷ n8n HTTP Request node, items/s`,
			result: ratio(vs),
			target: `≥ ${ENGINE_NO_LIMIT_TARGET.toFixed(1)}×`,
			met: vs.median >= ENGINE_NO_LIMIT_TARGET,
		};
	});
	const head = ['Service', 'Trigger Automation, items/s', 'HTTP Request node, items/s', 'ratio'];
	return {
		checks,
		section: `## No limit, in the engine

(a) again in n8n-core's engine in the bench process (dev/engine.ts: credentials in memory), one execution of ${ENGINE_NO_LIMIT_ITEMS} items, both sides at their defaults with On Error → Continue, a new \`{base_url}\` per run: in the real app n8n's HTTP Request node reads its credential from n8n's database and decrypts it for every item, one item after another, before its requests go (HttpRequestV3's item loop), which alone keeps it far behind (the app's (a)); here the ratio shows what Trigger Automation's sending costs where nothing limits it. ${rounds} rounds per answer time (alternating order) after one unmeasured run of each.

${table(head, engineNoLimitRows(result))}
`,
	};
}

async function manyProcessesPart(options: Options, wants: (part: string) => boolean) {
	const scenarios = PROCESS_SCENARIOS.filter((scenario) => wants(scenario.id));
	log(`many processes, one service: ${scenarios.map((s) => s.id).join(', ')}`);
	const rounds = options.rounds ?? MANY_PROCESSES_RUNS;
	const receiver = await Receiver.start(SECRET);
	const result = await measureManyProcesses(receiver, scenarios, rounds).finally(() =>
		receiver.stop(),
	);
	return {
		checks: manyProcessesChecks(scenarios, result),
		section: manyProcessesSection(scenarios, result, rounds),
	};
}

/** The limited bursts in n8n-core's engine, every execution at once. */
async function engineBurstPart(options: Options): Promise<Part> {
	// (l)'s second burst is the app's; (nginx) is behind nginx: both have their own parts.
	const scenarios = SCENARIOS.filter(
		(scenario) =>
			scenario.executions > 1 &&
			scenario.kind === undefined &&
			(scenario.perSecond ?? scenario.busyMs) !== undefined,
	);
	log(`the bursts ${scenarios.map((s) => s.id).join(', ')} in the engine, at once`);
	const rounds = options.rounds ?? ENGINE_BURST_RUNS;
	const receiver = await Receiver.start(SECRET);
	let quiet, beside;
	try {
		quiet = await measureEngineBursts(receiver, scenarios, rounds);
		log('the same, a CPU-bound process beside');
		beside = await besideCpuBound(() => measureEngineBursts(receiver, scenarios, rounds));
	} finally {
		receiver.stop();
	}
	const head = ['Scenario', 'seconds', '429s (blind, informed)', 'informed per item (worst)'];
	return {
		checks: [
			...engineBurstChecks(scenarios, quiet),
			...engineBurstChecks(scenarios, beside, ', a CPU-bound process beside'),
		],
		section: `
### The limited bursts in the engine, all at once

Trigger Automation at its defaults in n8n-core's engine in the bench's process (dev/engine.ts), every execution of the burst started in one tick, to a \`{base_url}\` new each round; the same receiver, ${SERVICE_DELAY_MS} ms answers, 429 with \`Retry-After: 1\` beyond the limit. 429s blind and informed as above. Median of ${rounds} rounds (min–max).

${table(head, engineBurstRows(scenarios, quiet))}

The same, with other work on the machine: a Node process spinning a loop with no I/O beside (bench/cpuBeside.ts), one of the ${cpus().length} cores busy, so the bench process, the receiver and it share the rest.

${table(head, engineBurstRows(scenarios, beside))}
`,
	};
}

/** The version of an installed package. */
const versionOf = (pkg: string) =>
	(
		JSON.parse(readFileSync(join(PACKAGE_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as {
			version: string;
		}
	).version;

async function realLimitersPart(options: Options): Promise<Part> {
	log('quotas told by real limiters');
	const pkgs = ['express-rate-limit', '@fastify/rate-limit', 'rate-limiter-flexible'];
	const sides = quotaSides(Object.fromEntries(pkgs.map((pkg) => [pkg, versionOf(pkg)])));
	const wire: string[][] = [];
	for (const side of sides) {
		const { admitted, refused } = await wireHeaders(side);
		wire.push([side.limiter, side.mode, admitted, refused]);
	}
	const cases = realCases(sides);
	const rounds = options.rounds ?? REAL_RUNS;
	const [loadBefore] = loadavg();
	const result = await measureRealLimiters(cases, rounds, log);
	const [loadAfter] = loadavg();
	const quota = (q: typeof QUOTA) => `${q.limit} per ${q.windowMs / 1000} s`;
	return {
		checks: realChecks(cases, result),
		section: `## Quotas told by real limiters

The most used rate limiters of the npm registry as services (bench/realLimiters.ts), each in every header mode it offers, configured as its README configures it, beside the simulator's own quota forms (dev/quotaHeaders.js in the receiver): express-rate-limit ${versionOf('express-rate-limit')} on express ${versionOf('express')} (\`rateLimit({ windowMs, limit, standardHeaders, legacyHeaders, ipv6Subnet: 56 })\`), @fastify/rate-limit ${versionOf('@fastify/rate-limit')} on fastify ${versionOf('fastify')} (\`{ max, timeWindow }\`, and \`enableDraftSpec: true\`), rate-limiter-flexible ${versionOf('rate-limiter-flexible')} (\`RateLimiterMemory({ points, duration })\` as express middleware, setting the README's \`X-RateLimit-*\` headers on every answer and its \`Retry-After: msBeforeNext / 1000\` on a 429). Each keeps a fixed window per client address, from the client's first request; every sender here is 127.0.0.1, so the 4 processes share one quota. Each runs in a child process of its own, answers an admitted request 200 with a small JSON body after ${SERVICE_DELAY_MS} ms and a refused one 429 as the limiter does; a fresh service and \`{base_url}\` for every run.

What each sends, read by a client from a service with a quota of 1 per second (the first request's answer, then the second's):

${table(['Limiter', 'Mode', 'Admitted', 'Refused'], wire)}

Trigger Automation at its defaults, On Error → Continue, 100 items in each workload: one execution, and 20 executions × 5 items started at once, in n8n-core's engine in the bench's process; 4 n8n processes (bench/burstProcess.ts) × 5 executions × 5 items, all started together. Quota ${quota(QUOTA)}; one execution also at ${quota(LONG_QUOTA)}. _Ideal_: the time the quota itself needs, items ÷ limit windows (100 items at ${quota(QUOTA)}: ${(100 / QUOTA.limit) * (QUOTA.windowMs / 1000)} s); a sender that spends each window's quota at its start ends one window less one answer time sooner, so a ratio a little below 1 is possible. _Time_: from the first execution's start to the last one's end. _429s ≥ ${READ_MARGIN_MS} ms after read_: 429s whose request reached the service (its connection accepted) ${READ_MARGIN_MS} ms or more after the service wrote the first answer (200 or 429, each telling the quota) to that process's path; counted at the service. Median of ${rounds} rounds (time: min–max); each round runs every case once, in the table's order. Load average (1 min) when the part started and ended: ${loadBefore.toFixed(2)}, ${loadAfter.toFixed(2)} on ${cpus().length} cores.

${realTable(cases, result)}
`,
	};
}

async function queueModePart(options: Options): Promise<Part> {
	log('queue mode behind nginx');
	const result = await measureQueueMode(options.rounds ?? QUEUE_RUNS);
	return { checks: queueModeChecks(result), section: queueModeSection(result) };
}

/** The scenarios at the defaults, in the real n8n app. */
async function scenariosPart(scenarios: Scenario[], options: Options): Promise<Part> {
	log(`scenarios ${scenarios.map((s) => s.id).join(', ')} in the real n8n app`);
	const receiver = await Receiver.start(SECRET);
	let production: Production | undefined;
	let result: DefaultsResult;
	let app = '';
	try {
		production = await Production.start(receiver.url);
		app = `e2e/.apps/n8n-2: n8n ${production.version} on Node.js ${APPS['n8n-2'].nodeMajor}`;
		await warmUp(production, receiver);
		const rounds = (delayMs: number) =>
			options.rounds ?? (delayMs === SERVICE_DELAY_MS ? DEFAULTS_RUNS : OTHER_RUNS);
		result = await measureDefaults(production, receiver, rounds, scenarios, options.delays);
	} finally {
		await production?.stop();
		receiver.stop();
	}
	const delays = [
		...new Set(Object.values(result).flatMap((byDelay) => Object.keys(byDelay).map(Number))),
	].sort((a, b) => (a === SERVICE_DELAY_MS ? -1 : b === SERVICE_DELAY_MS ? 1 : a - b));
	const arrivals = arrivalsTable(result);
	const manners = mannersTable(result);
	const awsVersion = versionOf('@smithy/util-retry');
	const section = `## At the defaults, in the real n8n app

The speed a user feels, where the service sees it. The real n8n app (${app}, the package installed from a tarball of this build as n8n installs a community package) runs the executions as production does: a published workflow Webhook (POST; answers with the last node's items once the execution ends) → Split Out → the side at its defaults, with On Error → Continue so that each item's fate shows; a burst of N executions is N calls of the production webhook at once, so n8n parses them, creates, runs and saves every execution in its one process, with its own timers, database (SQLite) and logging: the load a real burst meets, which n8n-core's engine alone, all executions started in one tick by the bench, does not have. Trigger Automation at its default, Sending → Adaptive; n8n's HTTP Request node with this credential at its defaults (every item's request at once), beside it at 50 ms, and at the other answer times only where a ratio needs it. The service is the receiver in its own process: it verifies each request and answers it after the answer time; a limit is a token bucket holding one second's worth, beyond it 429 with \`Retry-After: 1\`. Before every Trigger Automation run its credential is pointed at a \`{base_url}\` n8n has not sent to before (through n8n's REST API; n8n reads the credential per execution), so Adaptive sending starts afresh, as on a first burst; (l) sends its second burst to the same one. (nginx): Debian's nginx-light (e2e/support/nginx.ts) with \`limit_req\` ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst} (no nodelay), \`limit_req_status ${NGINX_LIMIT.status}\`, no Retry-After, in front of the ${SERVICE_DELAY_MS} ms service; its refusals are counted in its log. _seconds_: from the first webhook call to the last answer; _failed_: error items in the output; _429s_, _arrivals_ and _most in flight_ (TCP connections open at once; behind nginx, its kept-alive upstream connections) are what the service counted. Median of ${options.rounds ?? DEFAULTS_RUNS} rounds at ${SERVICE_DELAY_MS} ms, ${options.rounds ?? OTHER_RUNS} at the other answer times (rotated order), min–max in brackets; one unmeasured run of each side first.

${delays.map((delayMs) => `### ${delayMs} ms\n\n${delayTable(result, delayMs)}`).join('\n\n')}
${manners ? `\n### 429s: blind and informed\n\nA 429 is _blind_ when its request reached the service before the service had answered any 429 in that run: no client could have known. Every other 429 is _informed_: the client had been told. Counted on the service's clock: the receiver notes when each 429 was written and when its request arrived, that is when its connection was accepted (every side here opens a connection per request; the receiver's one event loop reads a burst's requests one by one, answering each before reading the next, so by the time its headers were read every request but the first would look told); behind nginx, its access log (\`$msec\`: answered, \`$msec − $request_time\`: arrived, whole ms; arriving in the ms the first refusal was answered counts as blind). Beside Trigger Automation, the AWS SDK's own adaptive limiter (\`DefaultRateLimiter\`, @smithy/util-retry ${awsVersion}: off until the first throttle, then CUBIC; bench/awsLimiter.ts) drives the same signed bodies: every execution's items sent at once, one limiter for the burst, \`getSendToken()\` before every request and \`updateClientSendingRate\` after every answer, a 429 marked as the SDK marks a throttle, each 429 re-sent after its Retry-After (nginx sends none: after 1 s, the SDK's throttling delay base). It runs in the bench's own process, not in n8n, so its time carries none of n8n's work per execution. ${SERVICE_DELAY_MS} ms service; medians of the rounds, each figure on its own.\n\n${manners}\n` : ''}${arrivals ? `\n### (g): when the requests reach the service\n\n20 executions × 25 items at once, Trigger Automation, ${SERVICE_DELAY_MS} ms service limited to 100 requests/s: requests arriving per 10 ms over the first second, from the first arrival; each cell is one 100 ms span, its ten 10 ms counts in order.\n\n${arrivals}\n` : ''}`;
	return { checks: scenarioChecks(result), section };
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const wants = (part: string) => options.only === undefined || options.only.has(part);
	const started = process.hrtime.bigint();
	const stealStart = stealSeconds();
	// Other work on the machine, said rather than assumed: a loaded machine makes timings noisy.
	const [loadBefore] = loadavg();
	const commit = git('rev-parse', '--short', 'HEAD');
	const dirty = git('status', '--porcelain', '--', 'nodes', 'credentials') !== '';
	takeSnapshot();
	await useSnapshot();
	const parts: Part[] = [];
	if (wants('throughput')) parts.push(await throughputPart());
	if (wants('signing')) parts.push(signingPart());
	if (wants('memory')) parts.push(await memoryPart());
	if (wants('load')) parts.push(loadPart());
	if (wants('i')) parts.push(await largePart());
	if (wants('a-engine')) parts.push(await engineNoLimitPart(options));
	if (wants('burst-engine')) parts.push(await engineBurstPart(options));
	if (wants('real')) parts.push(await realLimitersPart(options));
	if (PROCESS_SCENARIOS.some((scenario) => wants(scenario.id)))
		parts.push(await manyProcessesPart(options, wants));
	const scenarios = SCENARIOS.filter((scenario) => wants(scenario.id));
	if (scenarios.length > 0) parts.push(await scenariosPart(scenarios, options));
	if (wants(QUEUE_SCENARIO.id)) parts.push(await queueModePart(options));
	const wallS = elapsedMs(started) / 1000;
	const stealS = stealSeconds() - stealStart;

	const summary = parts
		.flatMap((part) => part.checks)
		.map((c) => [
			c.label,
			c.result,
			c.target,
			c.met === undefined ? '—' : c.met ? 'met' : '**missed**',
		]);
	const command = options.only
		? `\`npm run bench -- ${process.argv.slice(2).join(' ')}\` (a partial run: printed, BENCHMARKS.md left as it was)`
		: '`npm run bench` (builds dist/ and the bench, runs .dev-dist/bench/run.js, writes this file)';
	const report = `# Benchmarks

Run ${new Date().toISOString()} on ${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${num(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version} (the n8n app on its own Node.js, below); package built from commit ${commit}${dirty ? ' with uncommitted changes in nodes/ or credentials/' : ''}. Command: ${command}; it took ${num(wallS)} s after the build; the hypervisor gave ${num(stealS)} of the machine's ${num(cpus().length * wallS)} CPU-s to other machines (steal)${stealS > 0.05 * wallS ? ', so absolute figures are noisy: the ratios compare sides that ran back to back' : ''}. Load average (1 min) as the bench started, before its own load: ${loadBefore.toFixed(2)} on ${cpus().length} cores.

Every figure is the median of its runs, min–max in brackets; a ratio is taken per run (the sides ran back to back in one round, in rotated order) and its median reported. Only 127.0.0.1 is used.

## Summary

${table(['Measurement', 'Result', 'Target', 'Status'], summary)}

${parts.map((part) => part.section.trim()).join('\n\n')}

${readFileSync(join(PACKAGE_DIR, 'bench', 'adaptiveParts.md'), 'utf8').trim()}
`;
	if (!options.only) writeFileSync(join(PACKAGE_DIR, 'BENCHMARKS.md'), report);
	process.stdout.write(report);
	log(
		`bench: done in ${num(elapsedMs(started) / 1000)} s${options.only ? '' : ', BENCHMARKS.md written'}`,
	);
}

main().catch((error: unknown) => {
	log(error instanceof Error ? (error.stack ?? error.message) : String(error));
	process.exitCode = 1;
});
