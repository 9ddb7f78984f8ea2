/**
 * The real queue mode behind nginx: n8n's main and two workers (`n8n worker`) on Redis and
 * PostgreSQL from Debian (e2e/support/queueServices.ts, as the queue-mode suite runs them), the
 * package installed on each (bench/production.ts). A burst of executions is N calls of the main's
 * production webhook at once; the main enqueues them and the workers run them, each worker's
 * Trigger Automation learning the service's limit alone. In front of the service (the receiver,
 * 50 ms answers, no limit of its own) Debian's nginx with `limit_req` as in (nginx): 50 r/s,
 * burst 10, 429, no Retry-After; its refusals are counted in its access log (bench/nginxLog.ts).
 * Which worker ran which execution is in the workers' logs.
 */
import type { RunningNginx } from '../e2e/support/nginx';
import { startNginx } from '../e2e/support/nginx';
import { QueueServices } from '../e2e/support/queueServices';
import { NGINX_LIMIT, SERVICE_DELAY_MS } from './defaults';
import type { SharedLimitRun } from './manyProcesses';
import { nginxRefusals } from './nginxLog';
import { Production } from './production';
import { Receiver, addFingerprint } from './receiver';
import { SECRET, WEBHOOK_PATH, bodyFor, failedItem, orderItem } from './workload';

export const QUEUE_SCENARIO = {
	id: 'queue',
	executions: 20,
	itemsPerExecution: 25,
	workers: 2,
	/** n8n's default: every execution of the burst runs at once on the two workers. */
	concurrency: 10,
};
export const QUEUE_ITEMS = QUEUE_SCENARIO.executions * QUEUE_SCENARIO.itemsPerExecution;
export const QUEUE_IDEAL_SECONDS = QUEUE_ITEMS / NGINX_LIMIT.ratePerSecond;

export interface QueueRun extends SharedLimitRun {
	/** Per worker: the executions it ran. */
	executions: number[];
}

export interface QueueResult {
	version: string;
	runs: QueueRun[];
}

/** Executions a worker's log says it started, in `log`. */
const startedIn = (log: string) =>
	[...log.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]);

let services = 0;

async function once(
	production: Production,
	receiver: Receiver,
	nginx: RunningNginx,
	executions: ReturnType<typeof orderItem>[][],
	fingerprint: number,
): Promise<QueueRun> {
	await production.pointNodeAt(`${nginx.url}/queue-${++services}${WEBHOOK_PATH}`);
	await receiver.take({ delayMs: SERVICE_DELAY_MS });
	const logBefore = nginx.accessLog().length;
	const workerLogBefore = production.workers.map((worker) => worker.log.length);
	const { seconds, output } = await production.burst('node', executions);
	const got = await receiver.take();
	if (got.rejected !== 0) throw new Error(`(queue): ${got.rejected} failed verification`);
	if (output.length !== QUEUE_ITEMS) throw new Error(`(queue): ${output.length} output items`);
	const refusals = nginxRefusals(nginx.accessLog().slice(logBefore), NGINX_LIMIT.status);
	const ran = production.workers.map((worker, w) =>
		startedIn(worker.log.slice(workerLogBefore[w])),
	);
	return {
		seconds,
		eachOnce: got.accepted === QUEUE_ITEMS && got.fingerprint === fingerprint,
		failed: output.filter(failedItem).length,
		tooMany: refusals.length,
		executions: ran.map((ids) => ids.length),
	};
}

/** The cluster up, one unmeasured burst straight to the receiver, then `rounds` bursts. */
export async function measureQueueMode(rounds: number): Promise<QueueResult> {
	const queue = await new QueueServices().start();
	let receiver: Receiver | undefined;
	let nginx: RunningNginx | undefined;
	let production: Production | undefined;
	try {
		receiver = await Receiver.start(SECRET, { delayMs: SERVICE_DELAY_MS });
		nginx = await startNginx({ upstream: receiver.url, ...NGINX_LIMIT, accessLog: true });
		const { workers, concurrency } = QUEUE_SCENARIO;
		production = await Production.start(receiver.url, { env: queue.n8nEnv, workers, concurrency });
		const { executions: count, itemsPerExecution } = QUEUE_SCENARIO;
		const executions = Array.from({ length: count }, (_, e) =>
			Array.from({ length: itemsPerExecution }, (_, i) => orderItem(e * itemsPerExecution + i)),
		);
		const fingerprint = executions.flat().map(bodyFor).reduce(addFingerprint, 0);
		// Warm-up (n8n loads the node's class on first use, JIT): no limit, every worker.
		await production.pointNodeAt(`${receiver.url}/queue-warm-up${WEBHOOK_PATH}`);
		await production.burst(
			'node',
			executions.map((items) => items.slice(0, 1)),
		);
		const runs: QueueRun[] = [];
		for (let round = 0; round < rounds; round++) {
			const run = await once(production, receiver, nginx, executions, fingerprint);
			runs.push(run);
			process.stderr.write(
				`  (queue) ${run.seconds.toFixed(1)} s (ideal ${QUEUE_IDEAL_SECONDS} s), ` +
					`${run.tooMany} refusals, executions per worker ${run.executions.join(' ')}` +
					`${run.eachOnce && run.failed === 0 ? '' : ', NOT every item accepted once'}\n`,
			);
		}
		return { version: production.version, runs };
	} finally {
		await production?.stop();
		await nginx?.stop();
		receiver?.stop();
		await queue.stop();
	}
}
