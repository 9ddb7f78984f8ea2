/**
 * The burst scenarios with a limit, in n8n-core's engine in the bench's own process: every
 * execution of the burst started in one tick (the app starts them one after another as its
 * webhook calls arrive), so the gate meets the whole burst at once. The service counts the 429s,
 * blind and informed (refusals.ts); the target is issue 53's: informed at most 0.1 per item.
 */
import { outputOf, runWorkflow } from '../dev/engine';
import type { Scenario } from './defaults';
import { SERVICE_DELAY_MS } from './defaults';
import type { Receiver } from './receiver';
import { MAX_INFORMED_PER_ITEM, countRefusals } from './refusals';
import type { Check } from './scenarioReport';
import { elapsedMs, num, spread, summarize } from './stats';
import { LAST_NODE, failedItem, orderItem, sideWorkflow } from './workload';

export interface EngineBurstRun {
	seconds: number;
	accepted: number;
	failed: number;
	blind: number;
	informed: number;
}

let services = 0;

/** `rounds` runs of each scenario, each to a `{base_url}` the process has not sent to. */
export async function measureEngineBursts(
	receiver: Receiver,
	scenarios: Scenario[],
	rounds: number,
): Promise<Map<string, EngineBurstRun[]>> {
	const result = new Map<string, EngineBurstRun[]>();
	for (const scenario of scenarios) {
		const runs: EngineBurstRun[] = [];
		const perExecution = scenario.items / scenario.executions;
		for (let round = 0; round < rounds; round++) {
			const url = `${receiver.url}/engine-burst-${++services}`;
			const { perSecond, busyMs, then } = scenario;
			await receiver.take({ delayMs: SERVICE_DELAY_MS, perSecond, busyMs, then });
			const started = process.hrtime.bigint();
			const executions = await Promise.all(
				Array.from({ length: scenario.executions }, (_, e) =>
					runWorkflow(
						sideWorkflow(
							'node',
							Array.from({ length: perExecution }, (_, i) => orderItem(e * perExecution + i)),
							'defaults',
							url,
							{ onError: 'continueRegularOutput' },
						),
					),
				),
			);
			const seconds = elapsedMs(started) / 1000;
			const got = await receiver.take();
			const failed = executions
				.flatMap((run) => outputOf(run, LAST_NODE))
				.filter((item) => failedItem(item.json)).length;
			runs.push({ seconds, accepted: got.accepted, failed, ...countRefusals(got.refusals) });
		}
		result.set(scenario.id, runs);
	}
	return result;
}

/** `where`: how the machine was while they ran, for the label ("" when quiet). */
export function engineBurstChecks(
	scenarios: Scenario[],
	result: Map<string, EngineBurstRun[]>,
	where = '',
): Check[] {
	return scenarios.map((scenario) => {
		const runs = result.get(scenario.id)!;
		const worst = Math.max(...runs.map((run) => run.informed / scenario.items));
		const all = runs.every((run) => run.accepted === scenario.items && run.failed === 0);
		return {
			label: `(${scenario.id}) in the engine, the burst at once${where}: every item accepted, informed 429s per item (worst round)`,
			result: `${all ? 'all' : 'not all'}, ${worst.toFixed(2)}`,
			target: `all, ≤ ${MAX_INFORMED_PER_ITEM}`,
			met: all && worst <= MAX_INFORMED_PER_ITEM,
		};
	});
}

export function engineBurstRows(
	scenarios: Scenario[],
	result: Map<string, EngineBurstRun[]>,
): string[][] {
	return scenarios.map((scenario) => {
		const runs = result.get(scenario.id)!;
		const of = (pick: (run: EngineBurstRun) => number) => summarize(runs.map(pick));
		return [
			`(${scenario.id}) ${scenario.executions} × ${scenario.items / scenario.executions}, ${scenario.label}`,
			spread(
				of((run) => run.seconds),
				1,
				' s',
			),
			`${num(of((run) => run.blind + run.informed).median)} (${num(of((run) => run.blind).median)}, ${num(of((run) => run.informed).median)})`,
			(of((run) => run.informed).max / scenario.items).toFixed(2),
		];
	});
}
