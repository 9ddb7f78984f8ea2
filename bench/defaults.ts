/**
 * Issue 75's scenarios at a limit, in the real n8n app running the executions as production does
 * (bench/production.ts: a burst of N executions is N webhook calls at once), Trigger Automation at
 * its defaults beside the AWS SDK's adaptive limiter (bench/awsLimiter.ts) sending the same items.
 * The service answers after 50 ms; a token bucket holding one second's worth, beyond it 429 with
 * Retry-After: 1 (c, e, g); a limit that moves (h, j, k); or Debian's nginx with `limit_req` in
 * front of it (nginx). Every side runs with On Error → Continue, so that each item's fate shows, and
 * every run meets a service n8n has not sent to before (its own `{base_url}`). The 429s are counted
 * where they are sent, by the service or in nginx's log.
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
import { summarize } from './stats';
import { WEBHOOK_PATH, bodyFor, failedItem, orderItem } from './workload';

export const SERVICE_DELAY_MS = 50;
/** nginx in front of the service, as the issue measured it: 50 r/s, burst 10, 429, no Retry-After. */
export const NGINX_LIMIT = { ratePerSecond: 50, burst: 10, status: 429 as const };

/** The sides of a scenario: Trigger Automation in the app, the AWS SDK's limiter in the bench. */
export type BenchSide = Extract<AppSide, 'node'> | 'aws';
export const BENCH_SIDES: BenchSide[] = ['node', 'aws'];

/** Issue 75's bounds on time ÷ ideal: a token bucket with Retry-After, and a limit that moves. */
export const MAX_VS_IDEAL = { bucket: 1.15, moving: 1.2 };

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
	/** Behind nginx (NGINX_LIMIT), no limit of the service's own. */
	nginx?: boolean;
	/** The time the limit itself needs for the items (the ideal): the target's yardstick. */
	idealSeconds: number;
	/** Target: the median time at most this × the ideal. */
	maxVsIdeal: number;
}

/** The scenarios; each ideal is the items ÷ the limit, over the time each limit holds. */
export const SCENARIOS: Scenario[] = [
	{
		id: 'c',
		label: 'one execution of 100 items, 5 requests/s',
		executions: 1,
		items: 100,
		perSecond: 5,
		idealSeconds: 100 / 5,
		maxVsIdeal: MAX_VS_IDEAL.bucket,
	},
	{
		id: 'e',
		label: '20 executions × 10 items, 20 requests/s',
		executions: 20,
		items: 200,
		perSecond: 20,
		idealSeconds: 200 / 20,
		maxVsIdeal: MAX_VS_IDEAL.bucket,
	},
	{
		id: 'g',
		label: '20 executions × 25 items, 100 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		idealSeconds: 500 / 100,
		maxVsIdeal: MAX_VS_IDEAL.bucket,
	},
	{
		id: 'nginx',
		label: `20 executions × 25 items, nginx limit_req ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst}, no Retry-After`,
		executions: 20,
		items: 500,
		nginx: true,
		idealSeconds: 500 / NGINX_LIMIT.ratePerSecond,
		maxVsIdeal: MAX_VS_IDEAL.bucket,
	},
	{
		id: 'h',
		label: '20 executions × 25 items, busy for 5 s, then 100 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		busyMs: 5000,
		// 5 s busy, then 500 at 100/s.
		idealSeconds: 5 + 500 / 100,
		maxVsIdeal: MAX_VS_IDEAL.moving,
	},
	{
		id: 'j',
		label: '20 executions × 50 items, 20 requests/s for 5 s, then 100 requests/s',
		executions: 20,
		items: 1000,
		perSecond: 20,
		then: { afterMs: 5000, perSecond: 100 },
		// 100 items in the first 5 s, then 900 at 100/s.
		idealSeconds: 5 + 900 / 100,
		maxVsIdeal: MAX_VS_IDEAL.moving,
	},
	{
		id: 'k',
		label: '20 executions × 25 items, 100 requests/s for 2 s, then 20 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		then: { afterMs: 2000, perSecond: 20 },
		// 200 items in the first 2 s, then 300 at 20/s.
		idealSeconds: 2 + 300 / 20,
		maxVsIdeal: MAX_VS_IDEAL.moving,
	},
];

export interface DefaultsRun {
	seconds: number;
	accepted: number;
	/** The service accepted exactly the expected bodies (each item once) and no output item failed. */
	eachOnce: boolean;
	/** Output items that are errors, or carry a status that is not 2xx. */
	failed: number;
	/** 429s the service sent (behind nginx: nginx's refusals, from its access log). */
	tooMany: number;
	/** TCP connections open at once at the service (behind nginx: its upstream connections). */
	mostInFlight: number;
}

/** scenario id → answer time → side → the runs */
export type DefaultsResult = Record<
	string,
	Record<number, Partial<Record<BenchSide, DefaultsRun[]>>>
>;

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

	/** One run of `side`, to a service of its own. */
	async once(side: BenchSide): Promise<DefaultsRun> {
		const url = `${this.nginx?.url ?? this.receiver.url}/service-${++services}${WEBHOOK_PATH}`;
		let send: () => Promise<AppBurst>;
		if (side === 'node') {
			await this.production.pointNodeAt(url);
			send = () => this.production.burst('node', this.executions);
		} else {
			const limiter: DefaultRateLimiter = newLimiter();
			send = () => awsLimiterBurst(url, this.executions, limiter);
		}
		await this.receiver.take(this.service);
		const logBefore = this.nginx?.accessLog().length ?? 0;
		const { seconds, output } = await send();
		const got: Counts = await this.receiver.take();
		if (got.rejected !== 0)
			throw new Error(`${side}: ${got.rejected} requests failed verification`);
		if (output.length !== this.scenario.items) {
			throw new Error(`${side}: ${output.length} output items, not ${this.scenario.items}`);
		}
		const failed = output.filter(failedItem).length;
		return {
			seconds,
			accepted: got.accepted,
			eachOnce:
				failed === 0 &&
				got.accepted === this.scenario.items &&
				got.fingerprint === this.fingerprint,
			failed,
			tooMany: this.nginx
				? nginxRefusals(this.nginx.accessLog().slice(logBefore), NGINX_LIMIT.status).length
				: got.refusals.length,
			mostInFlight: got.peakOpen,
		};
	}
}

/** One unmeasured run of each side (n8n loads a node's class on first use, JIT); no limit. */
export async function warmUp(production: Production, receiver: Receiver): Promise<void> {
	const runner = new ScenarioRunner(
		production,
		receiver,
		{ ...SCENARIOS[0], perSecond: undefined, items: 20 },
		0,
	);
	for (const side of BENCH_SIDES) await runner.once(side);
}

/** Each scenario at each answer time, its sides in rotated rounds. */
export async function measureDefaults(
	production: Production,
	receiver: Receiver,
	rounds: number,
	scenarios: Scenario[],
	delays: number[],
): Promise<DefaultsResult> {
	const result: DefaultsResult = {};
	for (const scenario of scenarios) {
		for (const delayMs of delays) {
			const nginx = scenario.nginx
				? await startNginx({ upstream: receiver.url, ...NGINX_LIMIT, accessLog: true })
				: undefined;
			const runner = new ScenarioRunner(production, receiver, scenario, delayMs, nginx);
			const bySide: Partial<Record<BenchSide, DefaultsRun[]>> = {};
			try {
				for (let round = 0; round < rounds; round++) {
					const shift = round % BENCH_SIDES.length;
					const order = [...BENCH_SIDES.slice(shift), ...BENCH_SIDES.slice(0, shift)];
					for (const side of order) (bySide[side] ??= []).push(await runner.once(side));
				}
			} finally {
				await nginx?.stop();
			}
			for (const side of BENCH_SIDES) {
				const of = (f: (r: DefaultsRun) => number) => summarize(bySide[side]!.map(f)).median;
				process.stderr.write(
					`  ${delayMs} ms (${scenario.id}) ${side}: ${of((r) => r.seconds).toFixed(1)} s ` +
						`(ideal ${scenario.idealSeconds} s), ${of((r) => r.accepted)} accepted, ` +
						`${of((r) => r.failed)} failed, ${of((r) => r.tooMany)} 429s\n`,
				);
			}
			(result[scenario.id] ??= {})[delayMs] = bySide;
		}
	}
	return result;
}
