/**
 * The speed a user feels: each side at its defaults (no option set), in the real n8n app running
 * the executions as production does (bench/production.ts: a burst of N executions is N webhook
 * calls at once), against a service that answers every request after 20 to 500 ms, as over a real
 * network to a service that creates a run. One execution (a) with no limit, (b) limited to 40
 * requests/s and (c) to 5 requests/s, beyond which it answers 429 with Retry-After: 1; bursts of
 * executions: (d) 50 × 2 items at 5 requests/s, (e) 20 × 10 at 20 requests/s, (f) 20 × 10 with no
 * limit; (g) 20 × 25 at 100 requests/s, (h) the same after the service was busy for 5 s (every
 * request 429); a limit that moves: (j) rises from 20/s to 100/s, (k) drops from 100/s to 20/s;
 * (l) the burst of (g) twice from the same process; (nginx) Debian's nginx with `limit_req` in front
 * of the service. Every side runs with On Error → Continue, so that each item's fate shows. Every
 * run meets a service n8n has not sent to before (its own `{base_url}`), as a first burst does.
 * Every 429 is counted where it is sent, by the service or by nginx, as blind or informed
 * (bench/refusals.ts); beside Trigger Automation where a scenario says so, the AWS SDK's adaptive
 * limiter (bench/awsLimiter.ts) sends the same burst.
 */
import type { IDataObject } from 'n8n-workflow';

import type { DefaultRateLimiter } from '@smithy/util-retry';

import type { RunningNginx } from '../e2e/support/nginx';
import { startNginx } from '../e2e/support/nginx';
import { awsLimiterBurst, newLimiter } from './awsLimiter';
import { nginxRefusals } from './nginxLog';
import type { AppBurst, AppSide, Production } from './production';
import type { Counts, Receiver, ServiceSpec } from './receiver';
import { addFingerprint } from './receiver';
import type { Refusal } from './refusals';
import { countRefusals } from './refusals';
import { summarize } from './stats';
import { WEBHOOK_PATH, bodyFor, failedItem, orderItem } from './workload';

export const SERVICE_DELAY_MS = 50;
/** The targets should hold for a service that answers in anything from 20 ms to 500 ms. */
export const OTHER_DELAYS_MS = [20, 200, 500];

/** nginx in front of the service, as the issue measured it: 50 r/s, burst 10, 429, no Retry-After. */
export const NGINX_LIMIT = { ratePerSecond: 50, burst: 10, status: 429 as const };

/** The sides of a scenario: the two in the app, and the AWS SDK's limiter in the bench's process. */
export type BenchSide = AppSide | 'aws';

export interface Scenario {
	id: string;
	label: string;
	executions: number;
	items: number;
	perSecond?: number;
	/** Every request answered 429 with Retry-After: 1 for this long from the run's start. */
	busyMs?: number;
	/** The limit moves: this long from the run's start it becomes `perSecond`. */
	then?: { afterMs: number; perSecond: number };
	/** 'nginx': behind nginx (NGINX_LIMIT); 'twice': the same burst again, to the same service. */
	kind?: 'nginx' | 'twice';
	/** The answer times it runs at (default: 50, 20 and 500 ms). */
	delays?: number[];
	/** Trigger Automation only: the HTTP Request node is not what these scenarios measure. */
	nodeOnly?: boolean;
	/** The AWS SDK's adaptive limiter beside Trigger Automation, at 50 ms: manners at a limit. */
	aws?: boolean;
	/** No limit: Trigger Automation's items/s ÷ the HTTP Request node's, at least this. */
	minVsHttp?: number;
	/** Targets of a burst: every item accepted within this many seconds, in every round … */
	maxSeconds?: number;
	/** … and at most this many 429s per item (of the second burst, for 'twice'). */
	max429PerItem?: number;
}

const BURST_DELAYS = [SERVICE_DELAY_MS, 20, 500];

export const SCENARIOS: Scenario[] = [
	{
		id: 'a',
		label: 'no limit',
		executions: 1,
		items: 200,
		delays: [SERVICE_DELAY_MS, ...OTHER_DELAYS_MS],
		minVsHttp: 1.0,
	},
	{ id: 'b', label: '40 requests/s', executions: 1, items: 200, perSecond: 40 },
	{ id: 'c', label: '5 requests/s', executions: 1, items: 50, perSecond: 5, aws: true },
	{ id: 'd', label: '5 requests/s', executions: 50, items: 100, perSecond: 5 },
	{ id: 'e', label: '20 requests/s', executions: 20, items: 200, perSecond: 20, aws: true },
	{ id: 'f', label: 'no limit', executions: 20, items: 200, minVsHttp: 0.5 },
	{
		id: 'g',
		label: '100 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		aws: true,
		maxSeconds: 6.5,
		max429PerItem: 0.3,
	},
	{
		id: 'h',
		label: 'busy for 5 s, then 100 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		busyMs: 5000,
		aws: true,
		// 1.3× the ideal: 5 s busy, then 500 items at 100/s.
		maxSeconds: 13,
	},
	{
		id: 'j',
		label: '20 requests/s for 5 s, then 100 requests/s',
		executions: 20,
		items: 1000,
		perSecond: 20,
		then: { afterMs: 5000, perSecond: 100 },
		delays: [SERVICE_DELAY_MS],
		nodeOnly: true,
		aws: true,
		// 1.3× the ideal of 14 s: 100 items in the first 5 s, then 900 at 100/s.
		maxSeconds: 18,
	},
	{
		id: 'k',
		label: '100 requests/s for 2 s, then 20 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		then: { afterMs: 2000, perSecond: 20 },
		delays: [SERVICE_DELAY_MS],
		nodeOnly: true,
	},
	{
		id: 'l',
		label: '100 requests/s, the same burst twice from one process',
		executions: 20,
		items: 500,
		perSecond: 100,
		kind: 'twice',
		delays: [SERVICE_DELAY_MS],
		nodeOnly: true,
		maxSeconds: 5.5,
		max429PerItem: 0.05,
	},
	{
		id: 'nginx',
		label: `nginx limit_req ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst}, ${NGINX_LIMIT.status}, no Retry-After`,
		executions: 20,
		items: 500,
		kind: 'nginx',
		delays: [SERVICE_DELAY_MS],
		nodeOnly: true,
		aws: true,
		// 1.2× the ideal of 10 s (500 at 50/s), at most 0.3 refusals per item.
		maxSeconds: 12,
		max429PerItem: 0.3,
	},
];

export const delaysOf = (scenario: Scenario) => scenario.delays ?? BURST_DELAYS;

/**
 * The HTTP Request node beside Trigger Automation where a figure compares them, and at 50 ms to
 * show what it does against a limit; at the other answer times, Trigger Automation alone (time).
 * The AWS SDK's limiter at 50 ms where the scenario asks for it.
 */
export function sidesOf(scenario: Scenario, delayMs: number): BenchSide[] {
	const sides: BenchSide[] =
		scenario.nodeOnly || (delayMs !== SERVICE_DELAY_MS && scenario.minVsHttp === undefined)
			? ['node']
			: ['node', 'httpNode'];
	return scenario.aws && delayMs === SERVICE_DELAY_MS ? [...sides, 'aws'] : sides;
}

export interface DefaultsRun {
	seconds: number;
	itemsPerSecond: number;
	acceptedPerSecond: number;
	accepted: number;
	/** Trigger Automation: the service accepted exactly the expected bodies (each item once). */
	eachOnce: boolean;
	/** Output items that are errors, or carry a status that is not 2xx. */
	failed: number;
	/** 429s the service sent (behind nginx: nginx's refusals, from its access log). */
	tooMany: number;
	/** Of those, the ones whose request arrived before the run's first 429 was answered … */
	blind: number;
	/** … and every other: the client had been told. */
	informed: number;
	/** A limit that moves: the 429s sent after it moved. */
	tooManyAfterMove?: number;
	mostInFlight: number;
	/** When each request reached the service, ms after the first (behind nginx: the ones passed on). */
	arrivals: number[];
	/** 'twice': the second burst. */
	second?: DefaultsRun;
}

/** scenario id → answer time → side → the runs */
export type DefaultsResult = Record<
	string,
	Record<number, Partial<Record<BenchSide, DefaultsRun[]>>>
>;

/** The most arrivals within any `windowMs`. */
export function mostWithin(arrivals: number[], windowMs: number): number {
	let most = 0;
	for (let start = 0, end = 0; end < arrivals.length; end++) {
		while (arrivals[end] - arrivals[start] >= windowMs) start++;
		most = Math.max(most, end - start + 1);
	}
	return most;
}

let services = 0;

class ScenarioRunner {
	private readonly executions: IDataObject[][];
	private readonly fingerprint: number;

	constructor(
		private readonly production: Production,
		private readonly receiver: Receiver,
		private readonly scenario: Scenario,
		private readonly delayMs: number,
		private readonly nginx?: RunningNginx,
	) {
		const perExecution = scenario.items / scenario.executions;
		this.executions = Array.from({ length: scenario.executions }, (_, e) =>
			Array.from({ length: perExecution }, (_, i) => orderItem(e * perExecution + i)),
		);
		this.fingerprint = this.executions.flat().map(bodyFor).reduce(addFingerprint, 0);
	}

	private get service(): ServiceSpec {
		const { perSecond, busyMs, then } = this.scenario;
		return { delayMs: this.delayMs, perSecond, busyMs, then };
	}

	/** One run of `side`; a service of its own for Trigger Automation and the AWS SDK's limiter. */
	async once(side: BenchSide): Promise<DefaultsRun> {
		const base = this.nginx?.url ?? this.receiver.url;
		let send = (): Promise<AppBurst> => this.production.burst(side as AppSide, this.executions);
		if (side === 'node') {
			await this.production.pointNodeAt(`${base}/service-${++services}${WEBHOOK_PATH}`);
		} else if (side === 'aws') {
			const url = `${base}/service-${++services}${WEBHOOK_PATH}`;
			const limiter: DefaultRateLimiter = newLimiter();
			send = () => awsLimiterBurst(url, this.executions, limiter);
		}
		const run = await this.burst(side, send);
		if (this.scenario.kind === 'twice') run.second = await this.burst(side, send);
		return run;
	}

	private async burst(side: BenchSide, send: () => Promise<AppBurst>): Promise<DefaultsRun> {
		await this.receiver.take(this.service);
		const logBefore = this.nginx?.accessLog().length ?? 0;
		const { seconds, output } = await send();
		const got: Counts = await this.receiver.take();
		if (got.rejected !== 0)
			throw new Error(`${side}: ${got.rejected} requests failed verification`);
		if (output.length !== this.scenario.items) {
			throw new Error(`${side}: ${output.length} output items, not ${this.scenario.items}`);
		}
		const sorted = [...got.arrivals].sort((a, b) => a - b);
		const refusals: Refusal[] = this.nginx
			? nginxRefusals(this.nginx.accessLog().slice(logBefore), NGINX_LIMIT.status)
			: got.refusals;
		return {
			seconds,
			itemsPerSecond: this.scenario.items / seconds,
			acceptedPerSecond: got.accepted / seconds,
			accepted: got.accepted,
			eachOnce: got.accepted === this.scenario.items && got.fingerprint === this.fingerprint,
			failed: output.filter(failedItem).length,
			tooMany: refusals.length,
			...countRefusals(refusals),
			tooManyAfterMove: this.scenario.then
				? got.refusals.filter((r) => r.answeredMs >= this.scenario.then!.afterMs).length
				: undefined,
			mostInFlight: got.peakOpen,
			arrivals: sorted.map((at) => Math.round((at - sorted[0]) * 10) / 10),
		};
	}
}

/** One unmeasured run of each side (n8n loads a node's class on first use, JIT). */
export async function warmUp(production: Production, receiver: Receiver): Promise<void> {
	const runner = new ScenarioRunner(production, receiver, SCENARIOS[0], 0);
	for (const side of ['node', 'httpNode', 'aws'] as const) await runner.once(side);
}

/**
 * Each scenario at each of its answer times, its sides in rotated rounds; `only` limits both
 * (scenario ids; answer times).
 */
export async function measureDefaults(
	production: Production,
	receiver: Receiver,
	rounds: (delayMs: number) => number,
	scenarios: Scenario[] = SCENARIOS,
	delays?: number[],
): Promise<DefaultsResult> {
	const result: DefaultsResult = {};
	for (const scenario of scenarios) {
		for (const delayMs of delaysOf(scenario)) {
			if (delays && !delays.includes(delayMs)) continue;
			const nginx =
				scenario.kind === 'nginx'
					? await startNginx({ upstream: receiver.url, ...NGINX_LIMIT, accessLog: true })
					: undefined;
			const runner = new ScenarioRunner(production, receiver, scenario, delayMs, nginx);
			const sides = sidesOf(scenario, delayMs);
			const bySide: Partial<Record<BenchSide, DefaultsRun[]>> = {};
			try {
				for (let round = 0; round < rounds(delayMs); round++) {
					const shift = round % sides.length;
					const order = [...sides.slice(shift), ...sides.slice(0, shift)];
					for (const side of order) (bySide[side] ??= []).push(await runner.once(side));
				}
			} finally {
				await nginx?.stop();
			}
			for (const side of sides) {
				const of = (f: (r: DefaultsRun) => number) => summarize(bySide[side]!.map(f)).median;
				process.stderr.write(
					`  ${delayMs} ms (${scenario.id}) ${side}: ${of((r) => r.seconds).toFixed(1)} s, ` +
						`${of((r) => r.itemsPerSecond).toFixed(0)} items/s, ${of((r) => r.accepted)} accepted, ` +
						`${of((r) => r.failed)} failed, ${of((r) => r.tooMany)} 429s ` +
						`(${of((r) => r.blind)} blind, ${of((r) => r.informed)} informed), ` +
						`${of((r) => mostWithin(r.arrivals, 25))} within 25 ms` +
						(scenario.kind === 'twice'
							? `; again: ${of((r) => r.second!.seconds).toFixed(1)} s, ${of((r) => r.second!.tooMany)} 429s`
							: '') +
						'\n',
				);
			}
			(result[scenario.id] ??= {})[delayMs] = bySide;
		}
	}
	return result;
}
