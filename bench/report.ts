/** The markdown report: summary table, details per measurement, findings, how to reproduce. */
import type { CpuBreakdown, CpuGroup } from './cpuProfile';
import { CPU_GROUPS } from './cpuProfile';
import type { LoadTimeResult } from './loadTime';
import type { MachineFacts } from './machine';
import type { MemoryResult } from './memory';
import type { SigningRow } from './signing';
import type { Summary } from './stats';
import { mebibytes, num, ratio, spread, summarize, verdict } from './stats';
import { TARGETS } from './targets';
import type { SideName, SideResult, ThroughputResult } from './throughput';
import { SIDE_LABELS, SIDE_SHORT } from './throughput';

export interface BenchResults {
	facts: MachineFacts;
	/** Seconds the bench took, after the build */
	durationS: number;
	throughput: ThroughputResult;
	cpu: CpuBreakdown[];
	signing: SigningRow[];
	memory: MemoryResult;
	load: LoadTimeResult;
}

function table(header: string[], rows: string[][]): string {
	const lines = [header, header.map(() => '---'), ...rows];
	return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function side(result: ThroughputResult, name: SideName, concurrency: number): SideResult {
	const found = result.sides[name]?.[concurrency];
	if (!found) throw new Error(`No ${name} result at concurrency ${concurrency}`);
	return found;
}

/** Throughput of a ÷ throughput of b, per run index (the sides of one index ran back to back). */
function pairedRatio(a: SideResult, b: SideResult): Summary {
	return summarize(a.samples.map((sample, run) => b.samples[run].ms / sample.ms));
}

function sideRatio(t: ThroughputResult, a: SideName, b: SideName, concurrency: number): Summary {
	return pairedRatio(side(t, a, concurrency), side(t, b, concurrency));
}

function concurrencies(result: ThroughputResult): number[] {
	return Object.keys(result.sides.node ?? {}).map(Number);
}

function ratioCell(summary: Summary): string {
	return `${ratio(summary.median)} (${summary.min.toFixed(2)}–${summary.max.toFixed(2)})`;
}

/** "a / b / c" of one value per concurrency. */
function perConcurrency(t: ThroughputResult, value: (c: number) => string): string {
	return concurrencies(t).map(value).join(' / ');
}

function summaryTable(r: BenchResults): string {
	const rows: string[][] = [];
	for (const c of concurrencies(r.throughput)) {
		const q = sideRatio(r.throughput, 'node', 'raw', c);
		rows.push([
			`Throughput at concurrency ${c}: node ÷ raw client`,
			ratioCell(q),
			`≥ ${TARGETS.throughputRatio}×`,
			verdict(q.median >= TARGETS.throughputRatio),
		]);
	}
	if (r.throughput.sides.bareN8n) {
		const t = r.throughput;
		rows.push([
			`Throughput at concurrency ${concurrencies(t).join(' / ')}: node ÷ bare n8n node ` +
				'(diagnostic: the part the package controls)',
			perConcurrency(t, (c) => ratio(sideRatio(t, 'node', 'bareN8n', c).median)),
			'—',
			'—',
		]);
	}
	for (const row of r.signing) {
		rows.push([
			`Signing, ${row.label} ${row.kind} body: computeSignature ÷ bare createHmac`,
			ratioCell(row.ratio),
			`≥ ${TARGETS.signingRatio}×`,
			verdict(row.ratio.median >= TARGETS.signingRatio),
		]);
	}
	const m = r.memory;
	rows.push([
		`Memory: peak RSS growth for one item with a ${mebibytes(m.bodyBytes)} body`,
		`${ratioCell(m.multiple)} the body, ${mebibytes(m.growth.median)}`,
		`≤ ${TARGETS.memoryMultiple}×`,
		verdict(m.multiple.median <= TARGETS.memoryMultiple),
	]);
	rows.push([
		'Load time, n8n-workflow already loaded',
		spread(r.load.warm, 2, ' ms'),
		`≤ ${TARGETS.loadMs} ms`,
		verdict(r.load.warm.median <= TARGETS.loadMs),
	]);
	rows.push([
		'Load time, cold (includes loading n8n-workflow)',
		spread(r.load.cold, 0, ' ms'),
		'—',
		'—',
	]);
	return table(['Measurement', 'Result: median (min–max)', 'Target', 'Status'], rows);
}

function throughputTable(t: ThroughputResult): string {
	const rows = concurrencies(t).map((c) => {
		const node = side(t, 'node', c);
		const raw = side(t, 'raw', c);
		return [
			String(c),
			spread(node.itemsPerSecond),
			spread(raw.itemsPerSecond),
			ratioCell(sideRatio(t, 'node', 'raw', c)),
			node.nodeMsPerItem ? node.nodeMsPerItem.median.toFixed(3) : '–',
			`${num(node.connections.median)} / ${num(raw.connections.median)}`,
		];
	});
	return table(
		[
			'Concurrency',
			'Trigger Automation in the engine, items/s',
			'Raw client (keep-alive), items/s',
			'Node ÷ raw',
			"Node's own execution, ms/item",
			'TCP connections, node / raw',
		],
		rows,
	);
}

function diagnosticsTable(t: ThroughputResult): string {
	const names: SideName[] = ['engineOnly', 'bareN8n', 'node', 'rawNoKeepAlive', 'raw'];
	const present = names.filter((name) => t.sides[name]);
	const rows = present.map((name) => [
		SIDE_LABELS[name],
		...concurrencies(t).map((c) => {
			const s = side(t, name, c);
			return `${num(s.itemsPerSecond.median)}/s, ${s.msPerItem.median.toFixed(3)} ms/item`;
		}),
	]);
	const pairs: Array<[SideName, SideName]> = [
		['node', 'bareN8n'],
		['bareN8n', 'raw'],
		['rawNoKeepAlive', 'raw'],
	];
	for (const [a, b] of pairs) {
		if (!t.sides[a] || !t.sides[b]) continue;
		rows.push([
			`**${SIDE_SHORT[a]} ÷ ${SIDE_SHORT[b]}**`,
			...concurrencies(t).map((c) => ratioCell(sideRatio(t, a, b, c))),
		]);
	}
	return table(['Side (medians)', ...concurrencies(t).map((c) => `concurrency ${c}`)], rows);
}

function cpuTable(cpu: CpuBreakdown[]): string {
	const rows = CPU_GROUPS.map((group) => [
		group,
		...cpu.map((b) => (b.perItemUs[group] >= 0.5 ? num(b.perItemUs[group]) : '–')),
	]);
	rows.push(['**total CPU per item**', ...cpu.map((b) => `**${num(b.totalPerItemUs)}**`)]);
	const header = cpu.map((b) => `${SIDE_SHORT[b.side]}, concurrency ${b.concurrency}`);
	return table(['µs of CPU per item in the client process', ...header], rows);
}

function signingTable(rows: SigningRow[]): string {
	return table(
		['Body', 'computeSignature, MB/s', 'bare createHmac, MB/s', 'computeSignature ÷ bare'],
		rows.map((row) => [
			`${row.label} ${row.kind}`,
			spread(row.helper),
			spread(row.bare),
			ratioCell(row.ratio),
		]),
	);
}

function mib(summary: Summary): string {
	const scale = (value: number) => value / 2 ** 20;
	return spread(
		{ ...summary, median: scale(summary.median), min: scale(summary.min), max: scale(summary.max) },
		1,
		' MiB',
	);
}

function memorySection(m: MemoryResult): string {
	return [
		table(
			['Quantity', 'Median (min–max)'],
			[
				['Body sent', `${num(m.bodyBytes)} bytes`],
				['Peak RSS growth over the baseline', mib(m.growth)],
				['… as a multiple of the body', ratioCell(m.multiple)],
				['Peak RSS growth seen by the 1 ms sampler alone', mib(m.sampledGrowth)],
				['Peak V8 heap growth (sampled)', mib(m.heapGrowth)],
				['Peak external memory (Buffer) growth (sampled)', mib(m.externalGrowth)],
				['Samples taken during the run', spread(m.samples)],
				['Duration of the run', spread(m.ms, 0, ' ms')],
			],
		),
		'',
		"Peak RSS is the larger of the kernel's high-water mark (VmHWM, reset through " +
			'/proc/self/clear_refs right after the baseline' +
			(m.kernelAvailable ? '' : '; not available in every run here') +
			') and the sampled peak. The sampler cannot run while JavaScript runs synchronously ' +
			'(JSON.stringify of the body, for one), hence the kernel mark. The baseline is taken after ' +
			'a warm-up run and after the 10 MB item has been built and garbage collected: in n8n the ' +
			'item arrives from the previous node, so the growth is what the engine, the node, the ' +
			'credential and the HTTP client add on top of it. The node holds the body twice while ' +
			'sending it: as the JSON text it serializes (V8 heap) and as the Buffer that is signed and ' +
			'sent (external memory). The heap and external figures are sampled peaks of ' +
			'process.memoryUsage(), reported for where the memory goes; the target is on RSS.',
	].join('\n');
}

function loadSection(l: LoadTimeResult): string {
	return table(
		['Case (fresh process each run)', 'Median (min–max)'],
		[
			['require node + credential, n8n-workflow already loaded', spread(l.warm, 2, ' ms')],
			['require node + credential, cold (loads n8n-workflow too)', spread(l.cold, 1, ' ms')],
			['require n8n-workflow alone (in the warm runs)', spread(l.peer, 1, ' ms')],
			['instantiate TriggerAutomation + ServiceWebhookSecretApi', spread(l.instantiate, 3, ' ms')],
		],
	);
}

function cpuOf(cpu: CpuBreakdown[], name: SideName): CpuBreakdown | undefined {
	return cpu.find((b) => b.side === name);
}

function us(b: CpuBreakdown, groups: CpuGroup[]): number {
	return groups.reduce((sum, group) => sum + b.perItemUs[group], 0);
}

function throughputFindings(r: BenchResults): string[] {
	const t = r.throughput;
	const cs = concurrencies(t);
	const missed = cs.filter((c) => sideRatio(t, 'node', 'raw', c).median < TARGETS.throughputRatio);
	if (missed.length === 0) return ['All throughput targets were met in this run.'];
	const ratios = (a: SideName, b: SideName) =>
		perConcurrency(t, (c) => ratio(sideRatio(t, a, b, c).median));
	const microseconds = (name: SideName, decimals: number) =>
		perConcurrency(t, (c) => `${num(side(t, name, c).msPerItem.median * 1000, decimals)} µs`);
	const lines = [
		`**The throughput target was missed at concurrency ${missed.join(', ')}.** In this run:`,
		'',
	];
	if (t.sides.engineOnly) {
		lines.push(
			"- The n8n engine's own per-item cost is small: Start → pass-through node with the same " +
				`items took ${microseconds('engineOnly', 1)} per item (concurrency ${cs.join(' / ')}), ` +
				`against ${microseconds('raw', 0)} per item for the whole request of the raw client.`,
		);
	}
	if (t.sides.bareN8n) {
		lines.push(
			"- The cost is n8n's outbound HTTP helper. A bare n8n node that only signs the body with " +
				'node:crypto and sends it with `helpers.httpRequest` reaches ' +
				`${ratios('bareN8n', 'raw')} of the raw client. A community node has to send ` +
				"through this helper: n8n's lint rule " +
				'`@n8n/community-nodes/no-restricted-imports` allows no import of node:http, and the ' +
				"helper is what applies n8n's proxy, SSRF and TLS settings.",
			`- Trigger Automation reaches ${ratios('node', 'bareN8n')} of that bare n8n node.`,
		);
	}
	const conns = perConcurrency(t, (c) => num(side(t, 'node', c).connections.median));
	let connectionLine =
		`- The receiver counted ${conns} TCP connections for the ${num(t.itemCount)} requests of the ` +
		"node: n8n's helper opens a new connection for every request. In @n8n/backend-network " +
		'(axios/request.js → axios/utils.js `setAxiosAgents` → node-agents.js `buildNodeAgents`) ' +
		'every request gets a new http.Agent, so no connection is ever reused, whatever options the ' +
		'node passes.';
	if (t.sides.rawNoKeepAlive) {
		connectionLine +=
			' What that alone costs shows in the raw client without keep-alive: ' +
			`${ratios('rawNoKeepAlive', 'raw')} of the keep-alive client.`;
	}
	lines.push(connectionLine);
	const node = cpuOf(r.cpu, 'node');
	const bare = cpuOf(r.cpu, 'bareN8n');
	if (node && bare) {
		const http: CpuGroup[] = [
			'n8n HTTP helper (axios, per-request agent)',
			'Node.js sockets and HTTP parsing',
		];
		const engine: CpuGroup = 'n8n engine and helpers (n8n-core, n8n-workflow)';
		lines.push(
			'- CPU per item at concurrency 1 (profile above): the node ' +
				`${num(node.totalPerItemUs)} µs, the bare n8n node ${num(bare.totalPerItemUs)} µs. ` +
				`n8n's HTTP helper with the sockets under it takes ${num(us(node, http))} µs of the ` +
				`node's and ${num(us(bare, http))} µs of the bare node's; the package's own code ` +
				`${num(node.perItemUs['package code (node + credential)'])} µs (the bare node's code: ` +
				`${num(bare.perItemUs['diagnostic node code'])} µs for the same JSON.stringify and ` +
				'HMAC), and the n8n-core calls it makes (parameters, credentials, request helper) ' +
				`${num(node.perItemUs[engine])} µs against ${num(bare.perItemUs[engine])} µs.`,
		);
	}
	lines.push(
		'',
		'So ≥ 0.9× a keep-alive raw client cannot be reached by a node that sends through n8n: ' +
			'even a node doing nothing but send stays far below it. Closing the gap needs connection ' +
			"reuse in n8n's helper (an agent shared per target and TLS/proxy options instead of one " +
			'per request) and a lighter path than axios — changes in n8n, not in this package. What ' +
			'the package itself adds is the difference to the bare n8n node above.',
	);
	return lines;
}

function throughputMethod(t: ThroughputResult): string {
	const bodyBytes = num(t.bodyBytes / t.itemCount);
	return [
		`${num(t.itemCount)} items (order-like JSON, ${bodyBytes}-byte bodies on average),`,
		"Context = All Input Fields, through n8n-core's `WorkflowExecute` with the package loaded",
		'from dist/ by `PackageDirectoryLoader` (dev/engine.ts), workflow Start → Trigger',
		'Automation.',
		'Concurrency N = Batching with batch size N and interval 0 (1 = batch size 1); each batch',
		'starts when the previous one has finished. The raw client is a node:http loop with a',
		'keep-alive agent and N workers (a sliding window), sending the same body bytes, each signed',
		'just before sending with bare node:crypto. Both send to the same receiver: a separate',
		'process on 127.0.0.1 that verifies every signature (HMAC and 5-minute window) and answers',
		'202; after every run the bench checks that it verified all items and received exactly the',
		'expected bodies (byte count and a fingerprint of every body). Items/s is over the whole',
		'workflow run, engine included; "node\'s own execution" is the execution time the engine',
		'recorded for the node. Each concurrency starts with an untimed warm-up run of every side.',
	].join(' ');
}

/** How much of the machine other processes used while the bench ran. */
function cpuAccount(f: MachineFacts): string {
	if (!f.cpu) return '';
	const others = Math.max(0, f.cpu.machineS - f.cpu.benchS);
	const share = others / (f.cpu.wallS * f.cores);
	const text =
		` During the run the bench and its child processes used ${num(f.cpu.benchS)} CPU-s, other ` +
		`processes on the machine ${num(others)} CPU-s (${num(share * 100)} % of the machine's ` +
		`${f.cores} cores over the ${num(f.cpu.wallS)} s).`;
	return share > 0.1
		? `${text} **Other work took a noticeable share of the CPU: expect the spreads to be wider ` +
				'than on a quiet machine.**'
		: text;
}

export function renderReport(r: BenchResults): string {
	const f = r.facts;
	const t = r.throughput;
	const source = f.uncommittedSource
		? ' plus uncommitted changes in nodes/ or credentials/ (the working tree at the time)'
		: '';
	return [
		'# Benchmarks',
		'',
		`Run ${f.date}: ${f.cpuModel}, ${f.cores} cores, ${mebibytes(f.totalMemoryBytes, 0)} RAM, ` +
			`${f.os}, Node.js ${f.node}. Package built from commit ${f.commit}${source}. ` +
			`1-minute load average ${f.loadStart.toFixed(2)} at the start and ` +
			`${(f.loadEnd ?? Number.NaN).toFixed(2)} at the end. The bench took ${num(r.durationS)} s ` +
			`after the build.${cpuAccount(f)}`,
		'',
		'Reproduce with `npm run bench`: it builds dist/ and the bench (tsconfig.dev.json), runs ' +
			'.dev-dist/bench/run.js, prints this report and rewrites BENCHMARKS.md. The bench first ' +
			'copies package.json and the fresh dist/ to .dev-dist/bench-package/ and every phase loads ' +
			'that copy, so all figures are of one build. Every figure is ' +
			`the median of ${t.runs} runs with the spread (min–max) in brackets unless it says ` +
			'otherwise; a ratio is taken per run (the compared sides ran back to back) and then its ' +
			'median is reported. Only 127.0.0.1 is used.',
		'',
		'## Summary',
		'',
		summaryTable(r),
		'',
		'## 1. Throughput',
		'',
		throughputMethod(t),
		'',
		throughputTable(t),
		'',
		t.tcpTimeouts === undefined
			? ''
			: `TCP retransmission timeouts counted by the kernel during the throughput runs: ` +
				`${num(t.tcpTimeouts)} (each would stall a connection by about a second).`,
		'',
		'### Where the time goes',
		'',
		'Diagnostic sides in the same run, against the same receiver: the engine alone (Start → a ' +
			'node that returns its input, no HTTP), a bare n8n node (signs the same bytes with ' +
			"node:crypto and sends them with n8n's `helpers.httpRequest`, batched the same way), and " +
			"the raw client without keep-alive (a new TCP connection per request, as n8n's helper " +
			'makes).',
		'',
		diagnosticsTable(t),
		'',
		`CPU profile of the client process (\`--cpu-prof\`, bench/profile.ts in a child process, ` +
			`${num(r.cpu[0]?.items ?? 0)} items per side including a warm-up run; start-up, module ` +
			'loading and idle time left out). Each sample is charged to the innermost frame that ' +
			'belongs to a group, so node:crypto called by the credential counts as package code and a ' +
			'socket write started by axios as the HTTP helper.',
		'',
		cpuTable(r.cpu),
		'',
		...throughputFindings(r),
		'',
		'## 2. Signing cost',
		'',
		'`computeSignature(secret, body, t)` from credentials/common/signature (its built dist/ copy) ' +
			"against the leanest bare form, `createHmac('sha256', secret).update(`${t}.`).update(body)" +
			".digest('hex')` (no copy of the body), for text bodies and for the Buffer bodies the " +
			'credential signs: the ratio is the helper\'s own overhead. MB = 10^6 bytes. Per body, ' +
			`${r.signing[0]?.ratio.runs ?? 0} alternating pairs of blocks (helper, bare), each signing ` +
			'for at least 100 ms with a fresh timestamp per signature; medians and spreads are over ' +
			'the blocks, the ratio is taken per pair.',
		'',
		signingTable(r.signing),
		'',
		'## 3. Memory',
		'',
		`One item whose context serializes to a ${mebibytes(r.memory.bodyBytes)} body, Context = All ` +
			'Input Fields, through the engine and the node to the receiver, in a fresh child process ' +
			`per run (${r.memory.growth.runs} runs).`,
		'',
		memorySection(r.memory),
		'',
		'## 4. Load time',
		'',
		'`require` of dist/nodes/TriggerAutomation/TriggerAutomation.node.js and ' +
			'dist/credentials/ServiceWebhookSecretApi.credentials.js in a fresh process ' +
			`(${r.load.warm.runs} processes per case). n8n-workflow is a peer dependency that n8n has ` +
			'already loaded when it loads a community package, so the first row is the one that counts.',
		'',
		loadSection(r.load),
		'',
	].join('\n');
}
