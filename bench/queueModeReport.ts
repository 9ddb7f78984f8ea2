/**
 * The report's part for the real queue mode behind nginx (bench/queueMode.ts): the median time
 * beside the ideal, and how the workers split the burst's executions.
 */
import { NGINX_LIMIT, SERVICE_DELAY_MS } from './defaults';
import type { QueueResult, QueueRun } from './queueMode';
import { QUEUE_IDEAL_SECONDS, QUEUE_SCENARIO } from './queueMode';
import type { Check } from './scenarioReport';
import { table } from './scenarioReport';
import type { SharedLimit } from './sharedLimitReport';
import { SHARED_LIMIT_HEAD, sharedLimitCells, sharedLimitCheck } from './sharedLimitReport';

const { id, workers, executions, itemsPerExecution, concurrency } = QUEUE_SCENARIO;

const sharedLimit = (runs: QueueRun[]): SharedLimit => ({
	label: `(${id}) queue mode, main + ${workers} workers, ${executions} executions × ${itemsPerExecution} items, nginx ${NGINX_LIMIT.ratePerSecond} r/s`,
	runs,
	idealSeconds: QUEUE_IDEAL_SECONDS,
});

export function queueModeChecks({ runs }: QueueResult): Check[] {
	return [sharedLimitCheck(sharedLimit(runs))];
}

export function queueModeSection({ version, runs }: QueueResult): string {
	const shared = sharedLimit(runs);
	const row = [
		shared.label,
		...sharedLimitCells(shared),
		runs.map((r) => r.executions.join('/')).join(', '),
	];
	return `## Queue mode behind nginx

n8n ${version}'s main and ${workers} workers (\`--concurrency=${concurrency}\`) on Redis and PostgreSQL (e2e/support/queueServices.ts), the package installed on each; a burst is ${executions} calls of the main's production webhook at once (Webhook → Split Out → Trigger Automation at its defaults, On Error → Continue), each worker learning the limit alone. In front of the ${SERVICE_DELAY_MS} ms service, nginx \`limit_req\` ${NGINX_LIMIT.ratePerSecond} r/s, burst ${NGINX_LIMIT.burst}, status ${NGINX_LIMIT.status}, no Retry-After; its refusals counted in its log. _time_: from the first webhook call to the last answer; _ideal_: items ÷ nginx's rate. Median of ${runs.length} round${runs.length === 1 ? '' : 's'}, min–max in brackets.

${table(['Scenario', ...SHARED_LIMIT_HEAD, 'executions per worker, each round'], [row])}
`;
}
