/**
 * Many n8n processes, one service (issue 53, item 3): 2 or 4 processes (bench/burstProcess.ts),
 * each running n8n-core's engine with its own burst of executions started at once, all sending
 * Trigger Automation's requests at its defaults to one service (the receiver: 50 ms answers, a token
 * bucket holding one second's worth, 429 with Retry-After: 1 beyond it), started together once
 * every process is ready (bench/together.ts). Each process learns the service's limit alone, as
 * queue-mode workers do. Per run: time from the start to the last execution's end beside the
 * ideal (items ÷ limit), the 429s blind and informed (bench/refusals.ts), every item accepted once,
 * and each process's share of what the service accepted while all were still sending
 * (bench/processShares.ts). (w4q) puts a quota told in every answer in place of the bucket (item 4),
 * each process told it by one item of its own before its burst; (w4q1) the same limit as a quota
 * per second, whose reset, told in whole seconds, every answer says is within a second; (w4qf) a
 * quota of 50 per second, so that a process's requests go on while the window turns.
 */
import type { IDataObject } from 'n8n-workflow';

import type { QuotaSpec } from '../dev/quotaHeaders';

import { SERVICE_DELAY_MS } from './defaults';
import type { BurstDone } from './burstProcess';
import { BurstProcess } from './burstProcess';
import { processShares } from './processShares';
import type { Receiver } from './receiver';
import { addFingerprint } from './receiver';
import { countRefusals, countTold } from './refusals';
import { elapsedMs } from './stats';
import { startTogether } from './together';
import { WEBHOOK_PATH, bodyFor, orderItem } from './workload';

export interface ProcessesScenario {
	id: string;
	processes: number;
	/** Per process. */
	executions: number;
	itemsPerExecution: number;
	perSecond: number;
	/**
	 * The limit as a fixed-window quota of `perSecond` × windowSeconds, told on every answer
	 * (issue 53, item 4), instead of the token bucket.
	 */
	quota?: Omit<QuotaSpec, 'limit'>;
}

/** The issue's shapes: 2 and 4 processes at 5/s (few items each) and at 50/s (many); quotas told. */
export const PROCESS_SCENARIOS: ProcessesScenario[] = [
	{ id: 'w2', processes: 2, executions: 25, itemsPerExecution: 2, perSecond: 5 },
	{ id: 'w4', processes: 4, executions: 25, itemsPerExecution: 2, perSecond: 5 },
	{ id: 'w2f', processes: 2, executions: 20, itemsPerExecution: 25, perSecond: 50 },
	{ id: 'w4f', processes: 4, executions: 20, itemsPerExecution: 25, perSecond: 50 },
	{
		id: 'w4q',
		processes: 4,
		executions: 25,
		itemsPerExecution: 2,
		perSecond: 5,
		quota: { windowSeconds: 2, form: 'draft' },
	},
	{
		id: 'w4q1',
		processes: 4,
		executions: 25,
		itemsPerExecution: 2,
		perSecond: 5,
		quota: { windowSeconds: 1, form: 'draft' },
	},
	{
		id: 'w4qf',
		processes: 4,
		executions: 20,
		itemsPerExecution: 25,
		perSecond: 50,
		quota: { windowSeconds: 1, form: 'draft' },
	},
];

/** The service the scenario's receiver plays. */
const serviceOf = (s: ProcessesScenario) =>
	s.quota
		? {
				delayMs: SERVICE_DELAY_MS,
				quota: { ...s.quota, limit: s.perSecond * s.quota.windowSeconds },
			}
		: { delayMs: SERVICE_DELAY_MS, perSecond: s.perSecond };

export const PROCESS_TARGET = {
	/** Together at least 0.9× the limit: the time at most 1.15× the ideal. */
	maxTimeVsIdeal: 1.15,
	maxInformedPerItem: 0.3,
	/** A quota told: 429s after each process's first answer, per item (item 4). */
	maxToldPerItem: 0.1,
	/** Each process's share while all were sending, in equal shares. */
	share: { low: 0.5, high: 2 },
};

export const totalItems = (s: ProcessesScenario) =>
	s.processes * s.executions * s.itemsPerExecution;
export const idealSeconds = (s: ProcessesScenario) => totalItems(s) / s.perSecond;

/** One round of several processes sending to one limit, as the service counted it. */
export interface SharedLimitRun {
	seconds: number;
	eachOnce: boolean;
	failed: number;
	tooMany: number;
	blind: number;
	informed: number;
	/** Each process's share of the accepted requests while all were sending (bench/processShares). */
	shares: number[];
	/** When the first process had its last item accepted, s after the service's run started. */
	windowEndS: number;
}

export interface ProcessesRun extends SharedLimitRun {
	/** Each process's own time from its `go` to its last execution's end. */
	processSeconds: number[];
	/** A quota told: the 429s whose request came after its process's first answer. */
	told?: number;
}

let services = 0;

/** One run: fresh `{base_url}`s, every process's burst started together. */
async function once(
	scenario: ProcessesScenario,
	receiver: Receiver,
	processes: BurstProcess[],
): Promise<ProcessesRun> {
	const { executions, itemsPerExecution: perExecution } = scenario;
	const byProcess = processes.map((_, p) =>
		Array.from({ length: executions }, (_, e) =>
			Array.from({ length: perExecution }, (_, i) =>
				orderItem((p * executions + e) * perExecution + i),
			),
		),
	);
	// A quota told (item 4) is counted from the answer that told it: each process first sends one
	// item of its own, so that every request of its burst goes once it has been told.
	const toldFirst = scenario.quota
		? processes.map((_, p) => orderItem(totalItems(scenario) + p))
		: [];
	const fingerprint = [...byProcess.flat(2), ...toldFirst].map(bodyFor).reduce(addFingerprint, 0);
	const service = `${receiver.url}/many-${++services}`;
	const baseUrl = (p: number) => `${service}/process-${p + 1}`;
	const newRun = async () => await receiver.take(serviceOf(scenario));
	if (scenario.quota) {
		await startTogether(
			processes.map((proc, p) => ({
				ready: proc.prepare(baseUrl(p), [[toldFirst[p]]] as IDataObject[][]),
				go: () => proc.go(),
			})),
			newRun,
		);
	}
	let started = 0n;
	const done: BurstDone[] = await startTogether(
		processes.map((proc, p) => ({
			ready: proc.prepare(baseUrl(p), byProcess[p] as IDataObject[][]),
			go: () => proc.go(),
		})),
		async () => {
			if (!scenario.quota) await newRun();
			started = process.hrtime.bigint();
		},
	);
	const seconds = elapsedMs(started) / 1000;
	const got = await receiver.take({ delayMs: SERVICE_DELAY_MS });
	if (got.rejected !== 0) throw new Error(`(${scenario.id}): ${got.rejected} failed verification`);
	const items = totalItems(scenario);
	const output = done.reduce((sum, d) => sum + d.output, 0);
	if (output !== items) throw new Error(`(${scenario.id}): ${output} output items, not ${items}`);
	const { shares, windowEndMs } = processShares(
		processes.map((_, p) => {
			const path = `${baseUrl(p).slice(receiver.url.length)}${WEBHOOK_PATH}`;
			return got.admitted.filter((a) => a.path === path).map((a) => a.atMs);
		}),
	);
	return {
		seconds,
		processSeconds: done.map((d) => d.seconds),
		eachOnce: got.accepted === items + toldFirst.length && got.fingerprint === fingerprint,
		failed: done.reduce((sum, d) => sum + d.failed, 0),
		tooMany: got.refusals.length,
		...countRefusals(got.refusals),
		...(scenario.quota ? { told: countTold(got.refusals, got.firstAnswered) } : {}),
		shares,
		windowEndS: windowEndMs / 1000,
	};
}

/** scenario id → its runs */
export type ManyProcessesResult = Record<string, ProcessesRun[]>;

/** Each scenario `rounds` times, its processes started once (loaded and warmed up) for all rounds. */
export async function measureManyProcesses(
	receiver: Receiver,
	scenarios: ProcessesScenario[],
	rounds: number,
): Promise<ManyProcessesResult> {
	const result: ManyProcessesResult = {};
	for (const scenario of scenarios) {
		await receiver.take({ delayMs: SERVICE_DELAY_MS });
		const processes = await Promise.all(
			Array.from({ length: scenario.processes }, (_, p) =>
				BurstProcess.start(`${receiver.url}/warm-up-${++services}-${p + 1}`),
			),
		);
		const runs: ProcessesRun[] = (result[scenario.id] = []);
		try {
			for (let round = 0; round < rounds; round++) {
				const run = await once(scenario, receiver, processes);
				runs.push(run);
				process.stderr.write(
					`  (${scenario.id}) ${run.seconds.toFixed(1)} s (ideal ${idealSeconds(scenario)} s), ` +
						`${run.tooMany} 429s (${run.blind} blind, ${run.informed} informed` +
						`${run.told === undefined ? '' : `, ${run.told} after told`}), ` +
						`shares ${run.shares.map((s) => s.toFixed(2)).join(' ')} to ${run.windowEndS.toFixed(1)} s, ` +
						`processes ${run.processSeconds.map((s) => s.toFixed(1)).join(' ')} s` +
						`${run.eachOnce && run.failed === 0 ? '' : ', NOT every item accepted once'}\n`,
				);
			}
		} finally {
			await Promise.all(processes.map((proc) => proc.stop()));
		}
	}
	return result;
}
