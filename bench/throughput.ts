/**
 * Measurement 1: items/s for 1,000 items through the real n8n-core engine with Trigger Automation,
 * against the raw client loop, at several concurrencies, in the same process and the same run,
 * against the same receiver. Diagnostic sides split the engine's and n8n's HTTP helper's share.
 */
import type { IRun } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import { BARE_HTTP_TYPE, DIAGNOSTIC_NODE_TYPES, PASS_THROUGH_TYPE } from './bareNodes';
import { tcpTimeouts } from './machine';
import { runRawClient } from './rawClient';
import type { ReceiverProcess } from './receiver';
import { addFingerprint } from './receiverProtocol';
import type { Summary } from './stats';
import { elapsedMs, summarize } from './stats';
import {
	SECRET,
	TARGET_NAME,
	WEBHOOK_PATH,
	bodyFor,
	orderItems,
	startNode,
	targetNode,
	triggerWorkflow,
	workflow,
} from './workload';

export type SideName = 'node' | 'raw' | 'bareN8n' | 'engineOnly' | 'rawNoKeepAlive';

export const SIDE_LABELS: Record<SideName, string> = {
	node: 'Trigger Automation node in the n8n engine',
	raw: 'raw node:http client, keep-alive',
	bareN8n: 'bare n8n node: bare HMAC + n8n helpers.httpRequest',
	engineOnly: 'engine only: Start → pass-through node, no HTTP',
	rawNoKeepAlive: 'raw node:http client, new connection per request',
};

/** Short names for table headers. */
export const SIDE_SHORT: Record<SideName, string> = {
	node: 'Trigger Automation',
	raw: 'raw client',
	bareN8n: 'bare n8n node',
	engineOnly: 'engine only',
	rawNoKeepAlive: 'raw client, no keep-alive',
};

export interface Sample {
	ms: number;
	/** The target node's own execution time as the engine recorded it. */
	nodeMs?: number;
	/** TCP connections the receiver saw. */
	connections: number;
}

export interface SideResult {
	itemsPerSecond: Summary;
	msPerItem: Summary;
	nodeMsPerItem?: Summary;
	connections: Summary;
	samples: Sample[];
}

export interface ThroughputResult {
	itemCount: number;
	runs: number;
	bodyBytes: number;
	/** TCP retransmission timeouts the kernel counted during the measurement */
	tcpTimeouts?: number;
	/** side → concurrency → result */
	sides: Partial<Record<SideName, Record<number, SideResult>>>;
}

export interface ThroughputOptions {
	itemCount: number;
	concurrencies: number[];
	runs: number;
	sides: SideName[];
	log: (line: string) => void;
}

function targetMs(run: IRun): number | undefined {
	return run.data.resultData.runData[TARGET_NAME]?.[0]?.executionTime;
}

function checkRun(run: IRun, expected: number, wantStatus: boolean): void {
	if (run.data.resultData.error) throw run.data.resultData.error;
	const output = outputOf(run, TARGET_NAME);
	if (output.length !== expected) {
		throw new Error(`The run produced ${output.length} items instead of ${expected}`);
	}
	if (wantStatus && output.some((item) => item.json.statusCode !== 202)) {
		throw new Error('Not every item was answered 202 by the receiver');
	}
}

class Sides {
	private readonly items;
	private readonly bodies: Buffer[];
	readonly bodyBytes: number;
	private readonly fingerprint: number;
	private readonly url: string;

	constructor(
		private readonly receiver: ReceiverProcess,
		itemCount: number,
	) {
		this.items = orderItems(itemCount);
		this.bodies = this.items.map(bodyFor);
		this.bodyBytes = this.bodies.reduce((sum, body) => sum + body.length, 0);
		this.fingerprint = this.bodies.reduce(addFingerprint, 0);
		this.url = `${receiver.url}${WEBHOOK_PATH}`;
	}

	/** One timed run of a side; checks that every request was received and verified. */
	async once(side: SideName, concurrency: number): Promise<Sample> {
		global.gc?.();
		await this.receiver.take();
		const start = process.hrtime.bigint();
		const nodeMs = await this.send(side, concurrency);
		const ms = elapsedMs(start);
		const counts = await this.receiver.take();
		const expected = side === 'engineOnly' ? 0 : this.items.length;
		const expectedBytes = side === 'engineOnly' ? 0 : this.bodyBytes;
		if (counts.accepted !== expected || counts.rejected !== 0) {
			throw new Error(
				`${side} at ${concurrency}: receiver verified ${counts.accepted} and rejected ` +
					`${counts.rejected} requests, expected ${expected} verified`,
			);
		}
		const expectedFingerprint = side === 'engineOnly' ? 0 : this.fingerprint;
		if (counts.bodyBytes !== expectedBytes || counts.fingerprint !== expectedFingerprint) {
			throw new Error(`${side} at ${concurrency}: the receiver did not get the expected bodies`);
		}
		return { ms, nodeMs, connections: counts.connections };
	}

	private async send(side: SideName, concurrency: number): Promise<number | undefined> {
		const count = this.items.length;
		if (side === 'raw' || side === 'rawNoKeepAlive') {
			const keepAlive = side === 'raw';
			const run = { url: this.url, secret: SECRET, bodies: this.bodies, concurrency, keepAlive };
			const accepted = await runRawClient(run);
			if (accepted !== count) throw new Error(`raw client: ${accepted} of ${count} accepted`);
			return undefined;
		}
		if (side === 'node') {
			const run = await runWorkflow(triggerWorkflow(this.items, concurrency, this.receiver.url));
			checkRun(run, count, true);
			return targetMs(run);
		}
		const type = side === 'bareN8n' ? BARE_HTTP_TYPE : PASS_THROUGH_TYPE;
		const parameters = { url: this.url, secret: SECRET, batchSize: concurrency };
		const options = workflow(startNode(this.items), targetNode(type, parameters, false), '');
		const run = await runWorkflow({ ...options, extraNodeTypes: DIAGNOSTIC_NODE_TYPES });
		checkRun(run, count, side === 'bareN8n');
		return targetMs(run);
	}
}

function summarizeSide(samples: Sample[], itemCount: number): SideResult {
	const nodeTimes = samples.flatMap((s) => (s.nodeMs === undefined ? [] : [s.nodeMs / itemCount]));
	return {
		itemsPerSecond: summarize(samples.map((s) => itemCount / (s.ms / 1000))),
		msPerItem: summarize(samples.map((s) => s.ms / itemCount)),
		nodeMsPerItem: nodeTimes.length ? summarize(nodeTimes) : undefined,
		connections: summarize(samples.map((s) => s.connections)),
		samples,
	};
}

export async function measureThroughput(
	receiver: ReceiverProcess,
	options: ThroughputOptions,
): Promise<ThroughputResult> {
	const sides = new Sides(receiver, options.itemCount);
	const timeoutsBefore = tcpTimeouts();
	const result: ThroughputResult = {
		itemCount: options.itemCount,
		runs: options.runs,
		bodyBytes: sides.bodyBytes,
		sides: {},
	};
	for (const concurrency of options.concurrencies) {
		// Warm-up: JIT, the engine's lazy modules, the receiver's first connections.
		for (const side of options.sides) await sides.once(side, concurrency);
		const samples = new Map<SideName, Sample[]>(options.sides.map((side) => [side, []]));
		for (let run = 0; run < options.runs; run++) {
			// Rotate the order so that no side always runs first or last.
			const shift = run % options.sides.length;
			const order = [...options.sides.slice(shift), ...options.sides.slice(0, shift)];
			for (const side of order) samples.get(side)!.push(await sides.once(side, concurrency));
		}
		for (const side of options.sides) {
			const summary = summarizeSide(samples.get(side)!, options.itemCount);
			(result.sides[side] ??= {})[concurrency] = summary;
			const perSecond = summary.itemsPerSecond.median.toFixed(0);
			options.log(`  concurrency ${concurrency}, ${side}: ${perSecond} items/s`);
		}
	}
	const timeoutsAfter = tcpTimeouts();
	if (timeoutsBefore !== undefined && timeoutsAfter !== undefined) {
		result.tcpTimeouts = timeoutsAfter - timeoutsBefore;
	}
	return result;
}
