/**
 * Many n8n processes, one service: 2 or 4 processes (bench/burstProcess.ts), each running n8n-core's
 * engine with its own burst of executions started at once, all sending Trigger Automation's
 * requests at its defaults to one service (the receiver: 50 ms answers, a token bucket holding one
 * second's worth, 429 with Retry-After: 1 beyond it), started together once every process is ready
 * (bench/together.ts). Each process learns the service's limit alone, as queue-mode workers do. Per
 * run: time from the start to the last execution's end beside the ideal (items ÷ limit), the 429s,
 * every item accepted once.
 */
import type { IDataObject } from 'n8n-workflow';

import { SERVICE_DELAY_MS } from './defaults';
import type { BurstDone } from './burstProcess';
import { BurstProcess } from './burstProcess';
import type { Receiver } from './receiver';
import { addFingerprint } from './receiver';
import { elapsedMs } from './stats';
import { startTogether } from './together';
import { bodyFor, orderItem } from './workload';

export interface ProcessesScenario {
	id: string;
	processes: number;
	/** Per process. */
	executions: number;
	itemsPerExecution: number;
	perSecond: number;
}

/** Issue 75's shapes: 2 and 4 processes at 5/s (few items each) and at 50/s (many). */
export const PROCESS_SCENARIOS: ProcessesScenario[] = [
	{ id: 'w2', processes: 2, executions: 25, itemsPerExecution: 2, perSecond: 5 },
	{ id: 'w4', processes: 4, executions: 25, itemsPerExecution: 2, perSecond: 5 },
	{ id: 'w2f', processes: 2, executions: 20, itemsPerExecution: 25, perSecond: 50 },
	{ id: 'w4f', processes: 4, executions: 20, itemsPerExecution: 25, perSecond: 50 },
];

/** Issue 75: the median time at most 1.15× the ideal, with 2 or 4 processes and in queue mode. */
export const MAX_VS_IDEAL_PROCESSES = 1.15;

export const totalItems = (s: ProcessesScenario) =>
	s.processes * s.executions * s.itemsPerExecution;
export const idealSeconds = (s: ProcessesScenario) => totalItems(s) / s.perSecond;

/** One round of several processes (or queue-mode workers) at one limit, as the service counted it. */
export interface SharedLimitRun {
	seconds: number;
	eachOnce: boolean;
	failed: number;
	tooMany: number;
}

let services = 0;

/** One run: fresh `{base_url}`s, every process's burst started together. */
async function once(
	scenario: ProcessesScenario,
	receiver: Receiver,
	processes: BurstProcess[],
): Promise<SharedLimitRun> {
	const { executions, itemsPerExecution: perExecution } = scenario;
	const byProcess = processes.map((_, p) =>
		Array.from({ length: executions }, (_, e) =>
			Array.from({ length: perExecution }, (_, i) =>
				orderItem((p * executions + e) * perExecution + i),
			),
		),
	);
	const fingerprint = byProcess.flat(2).map(bodyFor).reduce(addFingerprint, 0);
	const service = `${receiver.url}/many-${++services}`;
	let started = 0n;
	const done: BurstDone[] = await startTogether(
		processes.map((proc, p) => ({
			ready: proc.prepare(`${service}/process-${p + 1}`, byProcess[p] as IDataObject[][]),
			go: () => proc.go(),
		})),
		async () => {
			await receiver.take({ delayMs: SERVICE_DELAY_MS, perSecond: scenario.perSecond });
			started = process.hrtime.bigint();
		},
	);
	const seconds = elapsedMs(started) / 1000;
	const got = await receiver.take({ delayMs: SERVICE_DELAY_MS });
	if (got.rejected !== 0) throw new Error(`(${scenario.id}): ${got.rejected} failed verification`);
	const items = totalItems(scenario);
	const output = done.reduce((sum, d) => sum + d.output, 0);
	if (output !== items) throw new Error(`(${scenario.id}): ${output} output items, not ${items}`);
	return {
		seconds,
		eachOnce: got.accepted === items && got.fingerprint === fingerprint,
		failed: done.reduce((sum, d) => sum + d.failed, 0),
		tooMany: got.refusals.length,
	};
}

/** scenario id → its runs */
export type ManyProcessesResult = Record<string, SharedLimitRun[]>;

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
		const runs: SharedLimitRun[] = (result[scenario.id] = []);
		try {
			for (let round = 0; round < rounds; round++) {
				const run = await once(scenario, receiver, processes);
				runs.push(run);
				process.stderr.write(
					`  (${scenario.id}) ${run.seconds.toFixed(1)} s (ideal ${idealSeconds(scenario)} s), ` +
						`${run.tooMany} 429s` +
						`${run.eachOnce && run.failed === 0 ? '' : ', NOT every item accepted once'}\n`,
				);
			}
		} finally {
			await Promise.all(processes.map((proc) => proc.stop()));
		}
	}
	return result;
}
