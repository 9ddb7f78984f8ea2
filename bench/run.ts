/**
 * `npm run bench`: issue 75's targets, side by side in one run, beside their anchors (n8n's HTTP
 * Request node, a bare n8n node, the AWS SDK's adaptive limiter, nginx, real rate limiters), and
 * the checks of throughput, signing, memory and load time. Prints the report and, on a full run,
 * writes BENCHMARKS.md; progress goes to stderr. Scenarios in the real n8n app and queue mode need
 * `bash e2e/install.sh n8n-2 nginx` (queue mode: the queue-mode suite's services). `--only` runs
 * some parts, `--rounds N` and `--delays 20,50` narrow them: printed only (USAGE below).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

import { APPS } from '../dev/n8nApp';
import type { Scenario } from './defaults';
import { NGINX_LIMIT, SCENARIOS, SERVICE_DELAY_MS, measureDefaults, warmUp } from './defaults';
import {
	ENGINE_NO_LIMIT_ITEMS,
	engineNoLimitRatio,
	engineNoLimitRows,
	measureEngineNoLimit,
} from './engineNoLimit';
import type { LargeRun } from './largeExecution';
import {
	LARGE_DELAY_MS,
	LARGE_ITEMS,
	WARM_UP_ITEMS,
	largeFingerprint,
	measureLargeExecution,
} from './largeExecution';
import { measureLoadTime } from './loadTime';
import { MEMORY_BODY_BYTES, measureMemory } from './memory';
import { PROCESS_SCENARIOS, measureManyProcesses } from './manyProcesses';
import { manyProcessesChecks, manyProcessesSection } from './manyProcessesReport';
import { Production } from './production';
import { QUEUE_SCENARIO, measureQueueMode } from './queueMode';
import { queueModeChecks, queueModeSection } from './queueModeReport';
import {
	LONG_QUOTA,
	QUOTA,
	READ_MARGIN_MS,
	measureRealLimiters,
	quotaSides,
	realCases,
	wireHeaders,
} from './realLimitersRun';
import { REAL_TARGET, realChecks, realTable } from './realLimitersReport';
import { Receiver } from './receiver';
import type { Check } from './scenarioReport';
import { largeCheck, largeSection, scenarioChecks, scenarioTable, table } from './scenarioReport';
import { measureSigning } from './signing';
import { elapsedMs, num, ratio, ratioMiddle, spread, summarize } from './stats';
import type { Side, ThroughputResult } from './throughput';
import { SIDES, Sides } from './throughput';
import { PACKAGE_DIR, SECRET, takeSnapshot, useSnapshot } from './workload';

/**
 * Rounds of each part on a full run; `--rounds N` sets them all. Every target is the median of at
 * least 3 rounds (issue 75); throughput, memory and load time take 9 short runs: on a shared
 * machine, medians of 5 runs of one build differed by 10% and more between bench runs.
 */
const ROUNDS = {
	engine: 3,
	large: 3,
	scenarios: 3,
	processes: 3,
	queue: 3,
	// 11 sides × 4 cases of about 5 s: some 4 min a round.
	real: 3,
	short: 9,
};
// Throughput: items per run, and the concurrencies (Items per Batch) compared.
const ITEMS = 1000;
const CONCURRENCIES = [1, 8, 64];
// Many short alternating blocks: a burst of other work lands on both sides alike.
const SIGNING_PAIRS = 101;
const SIGNING_BLOCK_MS = 10;
const ENGINE_SIDES: Side[] = ['node', 'httpNode', 'diy', 'bare'];
/** Checks kept from before issue 75 (not among its targets, not retired by it). */
const TARGET = {
	bare: 0.9,
	httpNode: 1.0,
	signing: 0.95,
	memory: 2,
	loadMs: 5,
};
/** Issue 75, no limit: Trigger Automation at least 1.0× the HTTP Request node at these answer times. */
const ENGINE_NO_LIMIT_DELAYS = [20, 50, 200];
const ENGINE_NO_LIMIT_TARGET = 1.0;

/** Issue 76: BENCHMARKS.md at most this size. */
const MAX_REPORT_KB = 25;

/** Parts `--only` can name besides the scenario ids (c, e, g, nginx, h, j, k, w2 … w4f). */
const PARTS = [
	'a-engine',
	'i',
	'real',
	QUEUE_SCENARIO.id,
	'throughput',
	'signing',
	'memory',
	'load',
];

const USAGE = `usage: npm run bench [-- --only PARTS] [--rounds N] [--delays MS,MS]
  --only    comma-separated: a-engine, i, ${SCENARIOS.map((s) => s.id).join(', ')}, ${PROCESS_SCENARIOS.map((s) => s.id).join(', ')}, queue, real, throughput, signing, memory, load
  --rounds  rounds (runs) of every part named, instead of each part's own
  --delays  answer times (ms) of a-engine (default ${ENGINE_NO_LIMIT_DELAYS.join(',')}) and the scenarios (default ${SERVICE_DELAY_MS})
A run with --only, --rounds or --delays prints its report; only a full run writes BENCHMARKS.md.`;

const log = (line: string) => process.stderr.write(`${line}\n`);
const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();

/** CPU-seconds the hypervisor gave to other machines (steal) since boot. */
function stealSeconds(): number {
	return Number(readFileSync('/proc/stat', 'utf8').split(/\s+/)[8]) / 100;
}

/** At each concurrency, per-run ratio of items/s, side a ÷ side b. */
function perRun(t: ThroughputResult, a: Side, b: Side) {
	return CONCURRENCIES.map((c) => summarize(t[a]![c].map((s, i) => t[b]![c][i].ms / s.ms)));
}

interface Options {
	/** Parts and scenario ids to run (all when undefined). */
	only?: Set<string>;
	rounds?: number;
	delays?: number[];
}

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
		else if (arg === '--help' || arg === '-h') {
			process.stdout.write(`${USAGE}\n`);
			process.exit(0);
		} else throw new Error(`${arg}?\n${USAGE}`);
	}
	const known = new Set([
		...PARTS,
		...SCENARIOS.map((scenario) => scenario.id),
		...PROCESS_SCENARIOS.map((scenario) => scenario.id),
	]);
	for (const part of options.only ?? []) {
		if (!known.has(part)) throw new Error(`No part "${part}"\n${USAGE}`);
	}
	if (options.rounds !== undefined && !(options.rounds >= 1)) throw new Error(USAGE);
	if (options.delays?.some((delay) => !(delay >= 0))) throw new Error(USAGE);
	return options;
}

interface Part {
	/** Issue 75's targets, or the checks kept from before it. */
	kind: 'target' | 'other';
	checks: Check[];
	section: string;
	/** The rounds it ran, for the report's head ("(i) 3"). */
	rounds: string;
}

/** No limit, in n8n-core's engine: Trigger Automation ÷ the HTTP Request node at each answer time. */
async function engineNoLimitPart(options: Options): Promise<Part> {
	log('(a) no limit, in the engine');
	const receiver = await Receiver.start(SECRET);
	const delays = options.delays ?? ENGINE_NO_LIMIT_DELAYS;
	const rounds = options.rounds ?? ROUNDS.engine;
	const result = await measureEngineNoLimit(receiver, delays, rounds).finally(() =>
		receiver.stop(),
	);
	const checks = delays.map((delayMs) => {
		const vs = engineNoLimitRatio(result, delayMs);
		return {
			label: `(a) no limit, one execution of ${ENGINE_NO_LIMIT_ITEMS} items, ${delayMs} ms answers: items/s, Trigger Automation ÷ HTTP Request node`,
			result: ratio(vs),
			target: `≥ ${ENGINE_NO_LIMIT_TARGET.toFixed(1)}×`,
			met: vs.median >= ENGINE_NO_LIMIT_TARGET,
			eachOnce: true, // measureEngineNoLimit throws on an item not accepted or failed
		};
	});
	const head = ['Answers', 'Trigger Automation, items/s', 'HTTP Request node, items/s', 'ratio'];
	return {
		kind: 'target',
		checks,
		rounds: `a-engine ${rounds}`,
		section: `## No limit: beside the HTTP Request node

n8n-core's engine in the bench's process (dev/engine.ts, credentials in memory), one execution of ${ENGINE_NO_LIMIT_ITEMS} items, both nodes at their defaults, On Error → Continue, a new \`{base_url}\` per run; every item accepted, none failed. In the real app the HTTP Request node decrypts its credential from the database for every item in turn, which alone keeps it far behind; here the ratio shows what Trigger Automation's sending costs where nothing limits it. ${rounds} round${rounds === 1 ? '' : 's'} per answer time (alternating order) after one unmeasured run of each.

${table(head, engineNoLimitRows(result))}
`,
	};
}

async function largePart(options: Options): Promise<Part> {
	log(`(i) one execution of ${num(LARGE_ITEMS)} items at ${LARGE_DELAY_MS} ms`);
	const receiver = await Receiver.start(SECRET, { delayMs: LARGE_DELAY_MS });
	const fingerprint = largeFingerprint();
	const rounds = options.rounds ?? ROUNDS.large;
	const runs: LargeRun[] = [];
	try {
		for (let run = 0; run < rounds; run++) {
			await receiver.take();
			const measured = measureLargeExecution(receiver.url);
			const got = await receiver.take();
			if (got.rejected !== 0) throw new Error(`(i): ${got.rejected} requests failed verification`);
			const eachOnce =
				measured.failed === 0 &&
				got.accepted === WARM_UP_ITEMS + LARGE_ITEMS &&
				got.fingerprint === fingerprint;
			runs.push({ ...measured, eachOnce });
			log(
				`  (i) ${num(measured.itemsPerSecond)} items/s, peak RSS ${num(measured.peakRss / 2 ** 20)} MiB` +
					(eachOnce ? '' : ', NOT every item accepted once'),
			);
		}
	} finally {
		receiver.stop();
	}
	return {
		kind: 'target',
		checks: [largeCheck(runs)],
		rounds: `i ${rounds}`,
		section: `## No limit: one large execution\n\n${largeSection(runs)}\n`,
	};
}

/** The version of an installed package. */
const versionOf = (pkg: string) =>
	(
		JSON.parse(readFileSync(join(PACKAGE_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as {
			version: string;
		}
	).version;

/** Issue 75's scenarios at a limit, in the real n8n app, beside the AWS SDK's limiter. */
async function scenariosPart(scenarios: Scenario[], options: Options): Promise<Part> {
	log(`scenarios ${scenarios.map((s) => s.id).join(', ')} in the real n8n app`);
	const rounds = options.rounds ?? ROUNDS.scenarios;
	const delays = options.delays ?? [SERVICE_DELAY_MS];
	const receiver = await Receiver.start(SECRET);
	let production: Production | undefined;
	let app = '';
	try {
		production = await Production.start(receiver.url);
		app = `n8n ${production.version} on Node.js ${APPS['n8n-2'].nodeMajor}`;
		await warmUp(production, receiver);
		const result = await measureDefaults(production, receiver, rounds, scenarios, delays);
		return {
			kind: 'target',
			checks: scenarioChecks(result),
			rounds: `scenarios ${rounds}`,
			section: `## At a limit: beside the AWS SDK limiter and nginx

The real n8n app (e2e/.apps/n8n-2: ${app}, the package installed from a tarball of this build): a published workflow Webhook → Split Out → Trigger Automation at its defaults (Sending → Adaptive), On Error → Continue; a burst of N executions is N calls of the production webhook at once. Before every run the credential names a \`{base_url}\` n8n has not sent to, so the limiter starts afresh. The service (the receiver, its own process) verifies each request and answers after ${delays.join(' or ')} ms; a limit is a token bucket holding one second's worth, beyond it 429 with \`Retry-After: 1\`; (nginx) is Debian's nginx-light with \`limit_req\` ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst} (no nodelay), status ${NGINX_LIMIT.status}, no Retry-After, its refusals counted in its log. Beside it, the AWS SDK's adaptive limiter (\`DefaultRateLimiter\` of @smithy/util-retry ${versionOf('@smithy/util-retry')}: off until the first throttle, then CUBIC; bench/awsLimiter.ts) sends the same signed items from the bench's process: each execution's items at once, one limiter for the burst, \`getSendToken()\` before every request, a 429 re-sent after its Retry-After (nginx: after 1 s). _ideal_: the time the limit itself needs (bench/defaults.ts, SCENARIOS); _time_: from the first webhook call to the last answer; _429s_ and _most in flight_ (connections open at once): counted by the service. Median of ${rounds} round${rounds === 1 ? '' : 's'} (sides in rotated order), min–max in brackets, after one unmeasured run of each side.

${scenarioTable(result)}
`,
		};
	} finally {
		await production?.stop();
		receiver.stop();
	}
}

async function manyProcessesPart(
	options: Options,
	wants: (part: string) => boolean,
): Promise<Part> {
	const scenarios = PROCESS_SCENARIOS.filter((scenario) => wants(scenario.id));
	log(`many processes, one service: ${scenarios.map((s) => s.id).join(', ')}`);
	const rounds = options.rounds ?? ROUNDS.processes;
	const receiver = await Receiver.start(SECRET);
	const result = await measureManyProcesses(receiver, scenarios, rounds).finally(() =>
		receiver.stop(),
	);
	return {
		kind: 'target',
		checks: manyProcessesChecks(scenarios, result),
		rounds: `processes ${rounds}`,
		section: manyProcessesSection(scenarios, result, rounds),
	};
}

async function queueModePart(options: Options): Promise<Part> {
	log('queue mode behind nginx');
	const rounds = options.rounds ?? ROUNDS.queue;
	const result = await measureQueueMode(rounds);
	return {
		kind: 'target',
		checks: queueModeChecks(result),
		rounds: `queue ${rounds}`,
		section: queueModeSection(result),
	};
}

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
	const rounds = options.rounds ?? ROUNDS.real;
	const result = await measureRealLimiters(cases, rounds, log);
	const quota = (q: typeof QUOTA) => `${q.limit} per ${q.windowMs / 1000} s`;
	return {
		kind: 'target',
		checks: realChecks(cases, result),
		rounds: `real ${rounds}`,
		section: `## Quotas told by real limiters

The most used rate limiters of the npm registry as services (bench/realLimiters.ts), each in every header mode it offers, configured as its README does, beside the simulator's quota forms (dev/quotaHeaders.js): express-rate-limit ${versionOf('express-rate-limit')} on express ${versionOf('express')} (\`rateLimit({ windowMs, limit, standardHeaders, legacyHeaders, ipv6Subnet: 56 })\`), @fastify/rate-limit ${versionOf('@fastify/rate-limit')} on fastify ${versionOf('fastify')} (\`{ max, timeWindow }\`, and \`enableDraftSpec: true\`), rate-limiter-flexible ${versionOf('rate-limiter-flexible')} (\`RateLimiterMemory({ points, duration })\` as express middleware with its README's \`X-RateLimit-*\` headers and \`Retry-After\`). Each keeps a fixed window per client address (all here are 127.0.0.1, so 4 processes share one quota), answers an admitted request 200 after ${SERVICE_DELAY_MS} ms and a refused one 429 as the limiter does; a fresh service and \`{base_url}\` for every run.

What each sends, with a quota of 1 per second (the first request's answer, then the second's):

${table(['Limiter', 'Mode', 'Admitted', 'Refused'], wire)}

Trigger Automation at its defaults, On Error → Continue, 100 items per workload: one execution, and 20 executions × 5 items at once, in n8n-core's engine in the bench's process; 4 n8n processes (bench/burstProcess.ts) × 5 executions × 5 items, started together. Quota ${quota(QUOTA)}; one execution also at ${quota(LONG_QUOTA)}. _Ideal_: items ÷ limit windows (100 items at ${quota(QUOTA)}: ${(100 / QUOTA.limit) * (QUOTA.windowMs / 1000)} s); spending each window's quota at its start can end a window sooner, so a ratio a little below 1 is possible. _Time_: from the first execution's start to the last one's end. _429s ≥ ${READ_MARGIN_MS} ms after read_: 429s whose request reached the service ${READ_MARGIN_MS} ms or more after the service first answered that process (telling it the quota); target ${REAL_TARGET.late} with one process, at most ${REAL_TARGET.perItemProcesses} 429s per item across 4. Each cell: time, ÷ ideal, 429s (of them ≥ ${READ_MARGIN_MS} ms after read); median of ${rounds} round${rounds === 1 ? '' : 's'}, each running every case once.

${realTable(cases, result)}
`,
	};
}

/** Items/s beside the bare n8n node, the HTTP Request node and a do-it-yourself workflow. */
async function throughputPart(options: Options): Promise<Part> {
	log('throughput');
	const runs = options.rounds ?? ROUNDS.short;
	const receiver = await Receiver.start(SECRET);
	const sides = new Sides(receiver, ITEMS);
	const t = await sides
		.measure([ENGINE_SIDES, ['raw']], CONCURRENCIES, runs)
		.finally(() => receiver.stop());
	const checks: Check[] = [];
	const versus = (name: string, b: Side, target: number, above = false) =>
		perRun(t, 'node', b).forEach((r, i) =>
			checks.push({
				label: `Throughput, Items per Batch ${CONCURRENCIES[i]}: Trigger Automation ÷ ${name}`,
				result: ratio(r),
				target: `${above ? '>' : '≥'} ${target.toFixed(1)}×`,
				met: above ? r.median > target : r.median >= target,
			}),
		);
	versus('bare n8n node', 'bare', TARGET.bare);
	versus('HTTP Request node', 'httpNode', TARGET.httpNode, true);
	const cs = CONCURRENCIES.map((c) => `Items per Batch ${c}`);
	const sideRows = [...ENGINE_SIDES, 'raw' as const].map((side) => [
		SIDES[side],
		...CONCURRENCIES.map((c) => {
			const runsAt = t[side]![c];
			const perSecond = summarize(runsAt.map((s) => ITEMS / (s.ms / 1000)));
			const cpu = summarize(runsAt.map((s) => s.cpuUs)).median;
			return `${spread(perSecond)}/s, ${num(cpu)} µs CPU, ≤ ${num(Math.max(...runsAt.map((s) => s.open)))} open`;
		}),
	]);
	const ratioRows = (['bare', 'httpNode', 'diy'] as const).map((b) => [
		`Trigger Automation ÷ ${SIDES[b].split(':')[0]}`,
		...perRun(t, 'node', b).map(ratio),
	]);
	return {
		kind: 'other',
		checks,
		rounds: `throughput ${runs}`,
		section: `## No limit: beside the bare node and the HTTP Request node

${ITEMS} order-like items (${num(sides.totalBodyBytes / ITEMS)}-byte JSON bodies on average) through n8n-core's \`WorkflowExecute\`, the package loaded from dist/ by n8n's loader (dev/engine.ts), Start (items pinned) → the side, batching with Items per Batch N, interval 0; the service answers at once. Every side sends the same body bytes, signed, to a receiver in its own process that verifies every signature and every body. The bare n8n node signs with node:crypto and sends with \`helpers.httpRequest\`: the least any node can do for this job (no credential call, no Timeout, no answer parsed). n8n's HTTP Request node starts every item's request at once whatever Items per Batch says; Trigger Automation runs with Sending → Fixed Batches here. CPU: the bench process's CPU time per item; _open_: most connections open at once. Median of ${runs} runs per side (rotated rounds), min–max in brackets; a ratio is taken per run.

${table(['Side', ...cs], sideRows)}

${table(['Ratio per run', ...cs], ratioRows)}
`,
	};
}

function signingPart(): Part {
	log('signing');
	const signing = measureSigning(SIGNING_PAIRS, SIGNING_BLOCK_MS);
	return {
		kind: 'other',
		checks: signing.map((s) => ({
			label: `Signing, ${s.label} body: computeSignature ÷ bare createHmac, MB/s`,
			result: ratioMiddle(s.ratio),
			target: `≥ ${TARGET.signing}×`,
			met: s.ratio.median >= TARGET.signing,
		})),
		rounds: `signing ${SIGNING_PAIRS} pairs`,
		section: `## Signing

computeSignature (dist/) against a bare \`createHmac('sha256', secret)\` over \`\${t}.\` and the body, ${SIGNING_PAIRS} alternating pairs of ${SIGNING_BLOCK_MS} ms blocks; MB/s, median of the blocks, the ratio per pair: ${signing.map((s) => `${s.label} ${num(s.helper.median)} ÷ ${num(s.bare.median)} MB/s`).join('; ')}.
`,
	};
}

async function memoryPart(options: Options): Promise<Part> {
	log('memory');
	const runs = options.rounds ?? ROUNDS.short;
	const receiver = await Receiver.start(SECRET);
	const memory = measureMemory(receiver.url, runs);
	receiver.stop();
	const growth = summarize(memory.map((m) => m.growth / m.bodyBytes));
	return {
		kind: 'other',
		checks: [
			{
				label: `Memory: peak RSS growth, one item with a ${num(MEMORY_BODY_BYTES / 2 ** 20)} MiB body, ÷ the body`,
				result: ratio(growth),
				target: `≤ ${TARGET.memory}×`,
				met: growth.median <= TARGET.memory,
			},
		],
		rounds: `memory ${runs}`,
		section: '',
	};
}

function loadPart(options: Options): Part {
	log('load time');
	const runs = options.rounds ?? ROUNDS.short;
	const warm = summarize(measureLoadTime(runs));
	return {
		kind: 'other',
		checks: [
			{
				label: '`require` of node + credential in a fresh process, n8n-workflow loaded',
				result: spread(warm, 2, ' ms'),
				target: `≤ ${TARGET.loadMs} ms`,
				met: warm.median <= TARGET.loadMs,
			},
		],
		rounds: `load ${runs}`,
		section: '',
	};
}

const statusOf = (c: Check) => (c.met === undefined ? '—' : c.met ? 'met' : '**missed**');
const summaryTable = (checks: Check[]) =>
	table(
		['Check', 'Result', 'Target', 'Status'],
		checks.map((c) => [c.label, c.result, c.target, statusOf(c)]),
	);

/** Issue 75's last target, over every check that counted it. */
function eachOnceCheck(checks: Check[]): Check {
	const counted = checks.filter((c) => c.eachOnce !== undefined);
	const not = counted.filter((c) => !c.eachOnce).map((c) => c.label.split(':')[0]);
	return {
		label: 'Every item accepted exactly once, in every run above',
		result: not.length ? `**not in ${not.join('; ')}**` : `yes, in all ${counted.length} checks`,
		target: 'all',
		met: not.length === 0,
	};
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const full = !options.only && options.rounds === undefined && options.delays === undefined;
	const wants = (part: string) => options.only === undefined || options.only.has(part);
	const started = process.hrtime.bigint();
	const stealStart = stealSeconds();
	// Other work on the machine, said rather than assumed: a loaded machine makes timings noisy.
	const [loadBefore] = loadavg();
	const commit = git('rev-parse', '--short', 'HEAD');
	const dirty = git('status', '--porcelain', '--', 'nodes', 'credentials') !== '';
	takeSnapshot();
	await useSnapshot();
	// In issue 75's order of targets; the checks kept from before it last.
	const parts: Part[] = [];
	/** Runs a part, logging how long it took (for estimating a full run). */
	const run = async (part: () => Part | Promise<Part>) => {
		const partStarted = process.hrtime.bigint();
		parts.push(await part());
		log(`  (${parts[parts.length - 1].rounds}: ${num(elapsedMs(partStarted) / 1000)} s)`);
	};
	if (wants('a-engine')) await run(() => engineNoLimitPart(options));
	if (wants('i')) await run(() => largePart(options));
	const scenarios = SCENARIOS.filter((scenario) => wants(scenario.id));
	if (scenarios.length > 0) await run(() => scenariosPart(scenarios, options));
	if (PROCESS_SCENARIOS.some((scenario) => wants(scenario.id)))
		await run(() => manyProcessesPart(options, wants));
	if (wants(QUEUE_SCENARIO.id)) await run(() => queueModePart(options));
	if (wants('real')) await run(() => realLimitersPart(options));
	if (wants('throughput')) await run(() => throughputPart(options));
	if (wants('signing')) await run(signingPart);
	if (wants('memory')) await run(() => memoryPart(options));
	if (wants('load')) await run(() => loadPart(options));
	const wallS = elapsedMs(started) / 1000;
	const stealS = stealSeconds() - stealStart;
	const [loadAfter] = loadavg();

	const targets = parts.filter((p) => p.kind === 'target').flatMap((p) => p.checks);
	if (targets.length > 0) targets.push(eachOnceCheck(targets));
	const others = parts.filter((p) => p.kind === 'other').flatMap((p) => p.checks);
	const missed = targets.filter((c) => c.met === false).length;
	const command = full
		? '`npm run bench` (builds dist/ and the bench, runs .dev-dist/bench/run.js, writes this file)'
		: `\`npm run bench -- ${process.argv.slice(2).join(' ')}\` (a partial run: printed, BENCHMARKS.md left as it was)`;
	const sections = parts.map((part) => part.section.trim()).filter((section) => section !== '');
	const report = `# Benchmarks

Generated by ${command}. Run ${new Date().toISOString()} on ${cpus()[0]?.model.trim()}, ${cpus().length} cores, ${num(totalmem() / 2 ** 30)} GiB RAM, Node.js ${process.version}; package built from commit ${commit}${dirty ? ' with uncommitted changes in nodes/ or credentials/' : ''}. It took ${num(wallS)} s after the build. Load average (1 min): ${loadBefore.toFixed(2)} as it started, ${loadAfter.toFixed(2)} as it ended, on ${cpus().length} cores; the hypervisor gave ${num(stealS)} of the machine's ${num(cpus().length * wallS)} CPU-s to other machines (steal). Rounds: ${parts.map((p) => p.rounds).join(', ')}. Every figure is the median of its rounds, min–max in brackets; a ratio is taken per round, the sides of a round run back to back. Only 127.0.0.1 is used.

## Summary
${
	targets.length > 0
		? `
Issue 75's targets: ${targets.length - missed} of ${targets.length} met${missed ? `, **${missed} missed**` : ''}.

${summaryTable(targets)}
`
		: ''
}${
		others.length > 0
			? `
Checks kept from before issue 75 (not among its targets):

${summaryTable(others)}
`
			: ''
	}
${sections.join('\n\n')}
`;
	if (full) writeFileSync(join(PACKAGE_DIR, 'BENCHMARKS.md'), report);
	// Issue 76: BENCHMARKS.md at most 25 KB.
	const kb = Buffer.byteLength(report) / 1024;
	if (full && kb > MAX_REPORT_KB)
		log(`bench: BENCHMARKS.md is ${kb.toFixed(1)} KB, over ${MAX_REPORT_KB} KB`);
	process.stdout.write(report);
	log(`bench: done in ${num(elapsedMs(started) / 1000)} s${full ? ', BENCHMARKS.md written' : ''}`);
}

main().catch((error: unknown) => {
	log(error instanceof Error ? (error.stack ?? error.message) : String(error));
	process.exitCode = 1;
});
