/**
 * The report's part for many n8n processes sending to one service (bench/manyProcesses.ts): each
 * scenario's median time beside its ideal, and a table of its rounds.
 */
import { SERVICE_DELAY_MS } from './defaults';
import type { ManyProcessesResult, ProcessesScenario } from './manyProcesses';
import { idealSeconds } from './manyProcesses';
import type { Check } from './scenarioReport';
import { table } from './scenarioReport';
import type { SharedLimit } from './sharedLimitReport';
import { SHARED_LIMIT_HEAD, sharedLimitCells, sharedLimitCheck } from './sharedLimitReport';

const sharedLimit = (s: ProcessesScenario, result: ManyProcessesResult): SharedLimit => ({
	label: `(${s.id}) ${s.processes} processes × ${s.executions} executions × ${s.itemsPerExecution} items, ${s.perSecond} requests/s`,
	runs: result[s.id],
	idealSeconds: idealSeconds(s),
});

export function manyProcessesChecks(
	scenarios: ProcessesScenario[],
	result: ManyProcessesResult,
): Check[] {
	return scenarios.map((s) => sharedLimitCheck(sharedLimit(s, result)));
}

export function manyProcessesSection(
	scenarios: ProcessesScenario[],
	result: ManyProcessesResult,
	rounds: number,
): string {
	const rows = scenarios.map((s) => {
		const shared = sharedLimit(s, result);
		return [shared.label, ...sharedLimitCells(shared)];
	});
	return `## Many n8n processes, one service

2 or 4 child processes (bench/burstProcess.ts), each running n8n-core's engine with the package loaded by n8n's loader, each starting its burst of executions at once, all started together; Trigger Automation at its defaults, each process learning the limit alone, as queue-mode workers do. One service: ${SERVICE_DELAY_MS} ms answers, a token bucket holding one second's worth, 429 with \`Retry-After: 1\` beyond it; a new \`{base_url}\` per process and run. _time_: from the start to the last execution's end; _ideal_: all items ÷ the limit. Median of ${rounds} round${rounds === 1 ? '' : 's'}, min–max in brackets.

${table(['Scenario', ...SHARED_LIMIT_HEAD], rows)}
`;
}
