/**
 * The report's part for many n8n processes sending to one service (bench/manyProcesses.ts): each
 * scenario's figures beside the issue's targets (together at least 0.9× the limit, informed 429s at
 * most 0.3 per item, no process starved), and a table of its rounds.
 */
import { SERVICE_DELAY_MS } from './defaults';
import type { ManyProcessesResult, ProcessesRun, ProcessesScenario } from './manyProcesses';
import { PROCESS_TARGET, idealSeconds, totalItems } from './manyProcesses';
import type { Check } from './scenarioReport';
import { table } from './scenarioReport';
import type { SharedLimit } from './sharedLimitReport';
import { allOnce, sharedLimitCells, sharedLimitChecks, sharesCell } from './sharedLimitReport';
import { spread, summarize } from './stats';

const labelOf = (s: ProcessesScenario) =>
	`(${s.id}) ${s.processes} processes × ${s.executions} executions × ${s.itemsPerExecution} items at once, one service at ${s.perSecond} requests/s` +
	(s.quota
		? ` as a quota of ${s.perSecond * s.quota.windowSeconds} per ${s.quota.windowSeconds} s told in each answer (${s.quota.form} form)`
		: '');

/** The earliest process's own time ÷ the slowest's, in a run. */
const finishSpread = (run: ProcessesRun) =>
	Math.min(...run.processSeconds) / Math.max(...run.processSeconds);

const sharedLimit = (s: ProcessesScenario, runs: ProcessesRun[]): SharedLimit => ({
	label: labelOf(s),
	runs,
	idealSeconds: idealSeconds(s),
	items: totalItems(s),
	from: 'the start',
	refusals: '429s per item',
	who: 'process',
	allWere: 'all were',
});

export function manyProcessesChecks(
	scenarios: ProcessesScenario[],
	result: ManyProcessesResult,
): Check[] {
	return scenarios.flatMap((s) => {
		const runs = result[s.id];
		const checks = sharedLimitChecks(sharedLimit(s, runs));
		if (!s.quota) return checks;
		const told = Math.max(...runs.map((run) => run.told ?? 0));
		const items = totalItems(s);
		return [
			...checks,
			{
				label: `${labelOf(s)}: 429s after the process's first answer told the quota, per item (the most of any round)`,
				result: `${(told / items).toFixed(2)} (${told} of ${items} items)`,
				target: `≤ ${PROCESS_TARGET.maxToldPerItem}`,
				met: told / items <= PROCESS_TARGET.maxToldPerItem,
			},
		];
	});
}

export function manyProcessesSection(
	scenarios: ProcessesScenario[],
	result: ManyProcessesResult,
	rounds: number,
): string {
	const rows = scenarios.map((s) => {
		const runs = result[s.id];
		const shared = sharedLimit(s, runs);
		return [
			labelOf(s),
			...sharedLimitCells(shared),
			sharesCell(shared),
			spread(summarize(runs.map(finishSpread)), 2),
			allOnce(runs) ? 'yes' : '**no**',
		];
	});
	const head = [
		'Scenario',
		'seconds',
		'ideal',
		'÷ ideal',
		'429s (blind, informed)',
		'informed per item',
		'shares while all sent',
		'first process done ÷ last',
		'each item once',
	];
	return `## Many n8n processes, one service

Several n8n processes sending to one service at once, as queue-mode workers do, each learning the service's limit alone. Each process is a child process running n8n-core's engine with the package loaded from the bench's snapshot of dist/ by n8n's loader (dev/engine.ts, as in the engine scenarios), warmed up by one item to a service of its own; once every process has its workflows built, all are told to start at once, and each starts its burst of executions at once: Start (items pinned) → Trigger Automation at its defaults, On Error → Continue. Every process sends to a \`{base_url}\` of its own on one service (the receiver in its own process: ${SERVICE_DELAY_MS} ms answers, a token bucket holding one second's worth, beyond it 429 with \`Retry-After: 1\`), new for every run. _seconds_: from the start to the last process's last execution's end; _ideal_: all items ÷ the limit; _429s_: counted by the service, blind when the request arrived before the run's first 429 was answered (bench/refusals.ts); _shares while all sent_: each process's share of the requests the service accepted up to the moment the first process had its last item accepted, in equal shares (1×: an equal share; counted to the end every process's share is equal by construction), the lowest and highest of every process in every round, and when that moment came; _first process done ÷ last_: the process that finished first, its time ÷ the last one's. Median of ${rounds} round${rounds === 1 ? '' : 's'}, min–max in brackets; a scenario's processes are started once and run every round, each round to new \`{base_url}\`s, so each meets the service afresh.${
		scenarios.some((s) => s.quota)
			? " A scenario with a quota (issue 53, item 4) has, instead of the bucket, a fixed window told in every answer (dev/quotaHeaders.js), beyond it 429 with `Retry-After` to the window's end; each process first sends one item of its own, and its burst goes once that answer told it the quota; its check counts the 429s whose request came after its process's first answer."
			: ''
	}

${table(head, rows)}
`;
}
