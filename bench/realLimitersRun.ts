/**
 * Trigger Automation at its defaults against quotas told by real limiters (bench/realLimiters.ts)
 * and by the simulator's own forms (the receiver with dev/quotaHeaders.js), in three workloads of
 * 100 items: (one) one execution, (burst) 20 executions × 5 items started at once, both in
 * n8n-core's engine in the bench's process; (processes) 4 n8n processes (bench/burstProcess.ts) ×
 * 5 executions × 5 items, all started together, sharing the one quota (the limiters count per
 * client address, and all of them are 127.0.0.1). Every run meets a service started for it, at a
 * `{base_url}` no process has sent to, so that the node's state for it and the limiter's are fresh.
 */
import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import type { QuotaForm } from '../dev/quotaHeaders';
import { outputOf, runWorkflow } from '../dev/engine';
import { BurstProcess } from './burstProcess';
import { SERVICE_DELAY_MS } from './defaults';
import type { LimiterMode, QuotaService } from './realLimiters';
import { LIMITER_MODES, LimiterService } from './realLimiters';
import { Receiver, addFingerprint } from './receiver';
import { countToldAfter } from './refusals';
import { elapsedMs } from './stats';
import { startTogether } from './together';
import {
	LAST_NODE,
	SECRET,
	WEBHOOK_PATH,
	bodyFor,
	failedItem,
	orderItem,
	sideWorkflow,
} from './workload';

/** A 429 to a request sent this long after its process first read the quota counts against it. */
export const READ_MARGIN_MS = 200;

export interface Quota {
	limit: number;
	windowMs: number;
}

/** 20 per 1 s (fastify's README shows 1 s windows): 100 items take 5 s; … */
export const QUOTA: Quota = { limit: 20, windowMs: 1000 };
/** … and a longer window, for one execution: the reset told counts down over 2 s. */
export const LONG_QUOTA: Quota = { limit: 40, windowMs: 2000 };

export const WORKLOADS = {
	one: { label: 'one execution of 100 items', processes: 1, executions: 1, items: 100 },
	burst: { label: '20 executions × 5 items at once', processes: 1, executions: 20, items: 5 },
	processes: {
		label: '4 processes × 5 executions × 5 items at once',
		processes: 4,
		executions: 5,
		items: 5,
	},
} as const;
export type WorkloadId = keyof typeof WORKLOADS;

export const itemsOf = (id: WorkloadId) => {
	const w = WORKLOADS[id];
	return w.processes * w.executions * w.items;
};

/** A service that tells a quota: a real limiter in one of its modes, or a simulator form. */
export interface QuotaSide {
	id: string;
	/** The package and version, or "simulator". */
	limiter: string;
	/** Its header mode, as configured. */
	mode: string;
	start(quota: Quota): Promise<QuotaService>;
}

const SIMULATOR_FORMS: QuotaForm[] = [
	'draft',
	'draft-07',
	'ratelimit',
	'x-ratelimit',
	'x-ratelimit-seconds',
];

export function quotaSides(versions: Record<string, string>): QuotaSide[] {
	const real = (Object.keys(LIMITER_MODES) as LimiterMode[]).map((mode) => ({
		id: mode,
		limiter: `${LIMITER_MODES[mode].pkg} ${versions[LIMITER_MODES[mode].pkg]}`,
		mode: LIMITER_MODES[mode].options,
		start: (q: Quota) => LimiterService.start({ mode, ...q, delayMs: SERVICE_DELAY_MS }),
	}));
	const simulated = SIMULATOR_FORMS.map((form) => ({
		id: `sim-${form}`,
		limiter: 'simulator (dev/quotaHeaders.js)',
		mode: form,
		start: (q: Quota) =>
			Receiver.start(SECRET, {
				delayMs: SERVICE_DELAY_MS,
				quota: { limit: q.limit, windowSeconds: q.windowMs / 1000, form },
			}),
	}));
	return [...real, ...simulated];
}

export interface RealRun {
	seconds: number;
	tooMany: number;
	/** 429s to requests that came READ_MARGIN_MS or more after their process first read a quota. */
	late: number;
	/** The service accepted exactly the expected bodies and no output item failed. */
	eachOnce: boolean;
}

/** What one workload sends: per process, per execution, its items. */
function itemsFor(id: WorkloadId): IDataObject[][][] {
	const { processes, executions, items } = WORKLOADS[id];
	return Array.from({ length: processes }, (_, p) =>
		Array.from({ length: executions }, (_, e) =>
			Array.from({ length: items }, (_, i) => orderItem((p * executions + e) * items + i)),
		),
	);
}

const workflowFor = (items: IDataObject[], baseUrl: string) =>
	sideWorkflow('node', items, 'defaults', baseUrl, { onError: 'continueRegularOutput' });

let services = 0;

/** Runs the workload against `service`; seconds, and the output items (failed ones counted). */
async function send(
	id: WorkloadId,
	service: QuotaService,
	processes: BurstProcess[],
): Promise<{ seconds: number; output: number; failed: number }> {
	const byProcess = itemsFor(id);
	const base = `${service.url}/real-${++services}`;
	if (id !== 'processes') {
		const started = process.hrtime.bigint();
		const runs = await Promise.all(
			byProcess[0].map((items) => runWorkflow(workflowFor(items, base))),
		);
		const output = runs.flatMap((run) => outputOf(run, LAST_NODE));
		const failed = output.filter((item) => failedItem(item.json)).length;
		return { seconds: elapsedMs(started) / 1000, output: output.length, failed };
	}
	let started = 0n;
	const done = await startTogether(
		processes.map((proc, p) => ({
			ready: proc.prepare(`${base}/process-${p + 1}`, byProcess[p]),
			go: () => proc.go(),
		})),
		() => (started = process.hrtime.bigint()),
	);
	return {
		seconds: elapsedMs(started) / 1000,
		output: done.reduce((sum, d) => sum + d.output, 0),
		failed: done.reduce((sum, d) => sum + d.failed, 0),
	};
}

/** One run: a fresh service for `side` with `quota`, the workload sent, what the service counted. */
export async function realRun(
	side: QuotaSide,
	quota: Quota,
	id: WorkloadId,
	processes: BurstProcess[],
): Promise<RealRun> {
	const service = await side.start(quota);
	try {
		await service.take();
		const { seconds, output, failed } = await send(id, service, processes);
		const got = await service.take();
		const items = itemsOf(id);
		const fingerprint = itemsFor(id).flat(2).map(bodyFor).reduce(addFingerprint, 0);
		return {
			seconds,
			tooMany: got.refusals.length,
			late: countToldAfter(got.refusals, got.firstAnswered, READ_MARGIN_MS),
			eachOnce:
				output === items &&
				failed === 0 &&
				got.accepted === items &&
				got.fingerprint === fingerprint,
		};
	} finally {
		service.stop();
	}
}

/** The processes of (processes), loaded and warmed up against a service with no limit. */
export async function startProcesses(): Promise<BurstProcess[]> {
	const warm = await Receiver.start(SECRET, { delayMs: SERVICE_DELAY_MS });
	try {
		return await Promise.all(
			Array.from({ length: WORKLOADS.processes.processes }, (_, p) =>
				BurstProcess.start(`${warm.url}/warm-up-${p + 1}`),
			),
		);
	} finally {
		warm.stop();
	}
}

/** A cell of the part: which side, which quota, which workload. */
export interface RealCase {
	side: QuotaSide;
	quota: Quota;
	workload: WorkloadId;
}

/** Every side in every workload at QUOTA, and one execution at LONG_QUOTA. */
export function realCases(sides: QuotaSide[]): RealCase[] {
	return sides.flatMap((side) => [
		...(Object.keys(WORKLOADS) as WorkloadId[]).map((workload) => ({
			side,
			quota: QUOTA,
			workload,
		})),
		{ side, quota: LONG_QUOTA, workload: 'one' as const },
	]);
}

/** `rounds` rounds, each running every case once in order; each case's runs, in the cases' order. */
export async function measureRealLimiters(
	cases: RealCase[],
	rounds: number,
	log: (line: string) => void,
): Promise<RealRun[][]> {
	const result: RealRun[][] = cases.map(() => []);
	const processes = await startProcesses();
	try {
		// One run unmeasured: the first in a fresh process sent its burst slower (JIT, the engine cold).
		if (cases.length > 0)
			await realRun(cases[0].side, cases[0].quota, cases[0].workload, processes);
		for (let round = 0; round < rounds; round++) {
			for (const [i, c] of cases.entries()) {
				const run = await realRun(c.side, c.quota, c.workload, processes);
				result[i].push(run);
				log(
					`  (real) ${c.side.id}, ${c.quota.limit}/${c.quota.windowMs / 1000} s, ${c.workload}: ` +
						`${run.seconds.toFixed(2)} s, ${run.tooMany} 429s, ${run.late} late` +
						(run.eachOnce ? '' : ', NOT every item accepted once'),
				);
			}
		}
	} finally {
		await Promise.all(processes.map((proc) => proc.stop()));
	}
	return result;
}

/**
 * The headers `side` sends, as a client reads them: a service with a quota of 1 per second, two
 * signed requests; the rate-limit headers and Retry-After of the answer that admitted the first
 * and of the one that refused the second.
 */
export async function wireHeaders(side: QuotaSide): Promise<{ admitted: string; refused: string }> {
	const service = await side.start({ limit: 1, windowMs: 1000 });
	try {
		const post = async () => {
			const body = bodyFor(orderItem(0));
			const t = Date.now();
			const v1 = createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex');
			const res = await fetch(`${service.url}/wire${WEBHOOK_PATH}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', 'X-Service-Signature': `t=${t},v1=${v1}` },
				body,
			});
			await res.arrayBuffer();
			const told = [...res.headers].filter(([name]) => /ratelimit|retry-after/i.test(name));
			return `${res.status}: ${told.map(([name, value]) => `\`${name}: ${value}\``).join(', ')}`;
		};
		return { admitted: await post(), refused: await post() };
	} finally {
		service.stop();
	}
}
