/**
 * Items/s for the same items through every side, at each concurrency, side by side in one process
 * against one receiver. Each run is checked: the receiver must have verified every request and
 * received exactly the expected bodies (byte count and fingerprint). The receiver also says how many
 * TCP connections each run used and the most it had open at once.
 */
import type { IDataObject } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import { runRawClient } from './rawClient';
import type { Receiver } from './receiver';
import { addFingerprint } from './receiver';
import { elapsedMs, summarize } from './stats';
import type { EngineSide } from './workload';
import { LAST_NODE, SECRET, WEBHOOK_PATH, bodyFor, orderItem, sideWorkflow } from './workload';

export type Side = EngineSide | 'raw';

export const SIDES: Record<Side, string> = {
	node: 'Trigger Automation (this package)',
	httpNode: "n8n's HTTP Request node, this credential, JSON body",
	diy: 'do-it-yourself: Edit Fields → Crypto HMAC → HTTP Request raw body',
	bare: 'bare n8n node: node:crypto HMAC + helpers.httpRequest',
	raw: 'raw node:http client, new agent (connection) per request',
};

export interface Sample {
	ms: number;
	/** CPU time of this process (all its threads) per item, µs: time the hypervisor takes is not in it. */
	cpuUs: number;
	connections: number;
	open: number;
}

/** side → concurrency → one sample per run */
export type ThroughputResult = Partial<Record<Side, Record<number, Sample[]>>>;

export class Sides {
	private readonly items: IDataObject[];
	private readonly bodies: Buffer[];
	private readonly fingerprint: number;
	readonly totalBodyBytes: number;

	constructor(
		private readonly receiver: Receiver,
		readonly count: number,
	) {
		this.items = Array.from({ length: count }, (_, i) => orderItem(i));
		this.bodies = this.items.map(bodyFor);
		this.totalBodyBytes = this.bodies.reduce((sum, body) => sum + body.length, 0);
		this.fingerprint = this.bodies.reduce(addFingerprint, 0);
	}

	async once(side: Side, c: number): Promise<Sample> {
		global.gc?.();
		await this.receiver.take();
		const start = process.hrtime.bigint();
		const cpuStart = process.cpuUsage();
		await this.send(side, c);
		const ms = elapsedMs(start);
		const cpu = process.cpuUsage(cpuStart);
		const got = await this.receiver.take();
		if (got.accepted !== this.count || got.rejected !== 0) {
			throw new Error(`${side} at ${c}: ${got.accepted} verified, ${got.rejected} rejected`);
		}
		if (got.bodyBytes !== this.totalBodyBytes || got.fingerprint !== this.fingerprint) {
			throw new Error(`${side} at ${c}: the receiver did not get the expected bodies`);
		}
		const cpuUs = (cpu.user + cpu.system) / this.count;
		return { ms, cpuUs, connections: got.connections, open: got.peakOpen };
	}

	/**
	 * Each group of sides in rotated rounds, after one warm-up run of each (JIT, the engine's lazy
	 * modules). A ratio compares runs of one round, so a group holds only the sides compared: the
	 * n8n sides together, the raw client after them.
	 */
	async measure(groups: Side[][], concurrencies: number[], runs: number) {
		const result: ThroughputResult = {};
		for (const c of concurrencies) {
			for (const group of groups) {
				for (const side of group) await this.once(side, c);
				const samples = new Map<Side, Sample[]>(group.map((side) => [side, []]));
				for (let run = 0; run < runs; run++) {
					// Rotated, so that no side always runs first or last.
					const order = [...group.slice(run % group.length), ...group.slice(0, run % group.length)];
					for (const side of order) samples.get(side)!.push(await this.once(side, c));
				}
				for (const [side, list] of samples) {
					(result[side] ??= {})[c] = list;
					const perSecond = summarize(list.map((s) => this.count / (s.ms / 1000))).median;
					process.stderr.write(`  c=${c} ${side}: ${perSecond.toFixed(0)} items/s\n`);
				}
			}
		}
		return result;
	}

	private async send(side: Side, c: number): Promise<void> {
		if (side === 'raw') {
			const url = new URL(WEBHOOK_PATH, this.receiver.url);
			const ok = await runRawClient(url, SECRET, this.bodies, c);
			if (ok !== this.count) throw new Error(`raw client: ${ok} answered 202`);
			return;
		}
		const run = await runWorkflow(sideWorkflow(side, this.items, c, this.receiver.url));
		if (run.data.resultData.error) throw run.data.resultData.error;
		const out = outputOf(run, LAST_NODE).length;
		if (out !== this.count) throw new Error(`${side} at ${c}: ${out} output items`);
	}
}
