/**
 * The report's part for the real queue mode behind nginx (bench/queueMode.ts): time beside the
 * ideal, informed refusals per item and each worker's share against issue 53's targets, and how
 * the workers split the burst's executions.
 */
import { NGINX_LIMIT, SERVICE_DELAY_MS } from './defaults';
import type { QueueResult, QueueRun } from './queueMode';
import { QUEUE_IDEAL_SECONDS, QUEUE_ITEMS, QUEUE_SCENARIO } from './queueMode';
import type { Check } from './scenarioReport';
import { table } from './scenarioReport';
import type { SharedLimit } from './sharedLimitReport';
import { allOnce, sharedLimitCells, sharedLimitChecks, sharesCell } from './sharedLimitReport';

const { id, workers, executions, itemsPerExecution, concurrency } = QUEUE_SCENARIO;
const LABEL = `(${id}) queue mode, main + ${workers} workers, ${executions} executions × ${itemsPerExecution} items at once, nginx limit_req ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst}`;

/** The worker whose last execution ended first: that end ÷ the last worker's. */
const firstDone = (run: QueueRun) => Math.min(...run.lastEndS) / Math.max(...run.lastEndS);

const sharedLimit = (runs: QueueRun[]): SharedLimit => ({
	label: LABEL,
	runs,
	idealSeconds: QUEUE_IDEAL_SECONDS,
	items: QUEUE_ITEMS,
	from: 'the first webhook call',
	refusals: "refusals per item, nginx's log",
	who: 'worker',
	allWere: 'both were',
	sharesNote: `executions per worker ${runs.map((r) => r.executions.join('/')).join(', ')}; the worker done first, its last execution's end ÷ the other's ${Math.min(...runs.map(firstDone)).toFixed(2)} (the least)`,
});

export function queueModeChecks({ runs }: QueueResult): Check[] {
	return sharedLimitChecks(sharedLimit(runs));
}

export function queueModeSection({ version, runs }: QueueResult): string {
	const shared = sharedLimit(runs);
	const row = [
		LABEL,
		...sharedLimitCells(shared),
		runs.map((r) => r.executions.join('/')).join(', '),
		sharesCell(shared),
		runs.map((r) => r.lastEndS.map((s) => `${s.toFixed(1)} s`).join(' / ')).join('; '),
		allOnce(runs) ? 'yes' : '**no**',
	];
	const head = [
		'Scenario',
		'seconds',
		'ideal',
		'÷ ideal',
		'refusals (blind, informed)',
		'informed per item',
		'executions per worker, each round',
		'shares while both sent',
		"each worker's last execution ended, each round",
		'each item once',
	];
	return `## Queue mode behind nginx

The real queue mode: n8n ${version}'s main and ${workers} workers (\`n8n worker --concurrency=${concurrency}\`, so every execution of the burst runs at once) on Redis and PostgreSQL from Debian (e2e/support/queueServices.ts, as the queue-mode suite runs them), the package installed on each from a tarball of the bench's snapshot. A burst is ${executions} calls of the main's production webhook at once (Webhook → Split Out → Trigger Automation at its defaults, On Error → Continue); the main enqueues each execution and a worker runs it, each worker learning the service's limit alone. In front of the service (the receiver, ${SERVICE_DELAY_MS} ms answers, no limit of its own), Debian's nginx with \`limit_req\` ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst} (no nodelay), \`limit_req_status ${NGINX_LIMIT.status}\`, no Retry-After, as in (nginx); its refusals are counted in its access log, blind when the request arrived by the time nginx answered its first refusal of the run. Before every run the credential names a \`{base_url}\` n8n has not sent to. _seconds_: from the first webhook call to the last answer; _ideal_: items ÷ nginx's rate; which worker ran which execution from the workers' logs, when each ended from PostgreSQL (s after the burst's first execution started); _shares while both sent_: each worker's share of the requests the service accepted up to the moment the first worker had its last item accepted, in equal shares, the lowest and highest of both workers in every round (whose each accepted request was: the receiver notes its body's hash, n8n's REST API gives each execution's items). Median of ${runs.length} round${runs.length === 1 ? '' : 's'}, min–max in brackets, after one unmeasured burst of one item per execution.

${table(head, [row])}
`;
}
