/**
 * The real queue mode behind nginx (issue 53, item 3): n8n's main and two workers (`n8n worker`) on
 * Redis and PostgreSQL from Debian (e2e/support/queueServices.ts, as the queue-mode suite runs
 * them), the package installed on each (bench/production.ts). A burst of executions is N calls of
 * the main's production webhook at once; the main enqueues them and the workers run them, each
 * worker's Trigger Automation learning the service's limit alone. In front of the service (the
 * receiver, 50 ms answers, no limit of its own) Debian's nginx with `limit_req` as in (nginx):
 * 50 r/s, burst 10, 429, no Retry-After; its refusals are counted in its access log
 * (bench/nginxLog.ts), blind or informed (bench/refusals.ts). Which worker ran which execution is
 * in the workers' logs, which items each execution had in n8n's REST API, and the receiver notes
 * each accepted body's hash: so each worker's share of the accepted requests while both were
 * sending (bench/processShares.ts) is counted at the service, and when each worker's last
 * execution ended, from PostgreSQL.
 */
import type { RunningNginx } from '../e2e/support/nginx';
import { startNginx } from '../e2e/support/nginx';
import { QueueServices } from '../e2e/support/queueServices';
import { NGINX_LIMIT, SERVICE_DELAY_MS } from './defaults';
import type { SharedLimitRun } from './manyProcesses';
import { nginxRefusals } from './nginxLog';
import { Production } from './production';
import { processShares } from './processShares';
import { Receiver, addFingerprint, bodyHash } from './receiver';
import { countRefusals } from './refusals';
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
	/** Per worker: the executions it ran … */
	executions: number[];
	/** … and when its last one ended, s after the first execution of the burst started. */
	lastEndS: number[];
}

export interface QueueResult {
	version: string;
	runs: QueueRun[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Executions a worker's log says it started, in `log`. */
const startedIn = (log: string) =>
	[...log.matchAll(/Worker started execution (\d+)/g)].map((match) => match[1]);

/** Start and end (epoch ms) of each execution, once PostgreSQL has every end. */
async function executionTimes(services: QueueServices, ids: string[]) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const rows = services.query(
			`select id, extract(epoch from "startedAt") * 1000, extract(epoch from "stoppedAt") * 1000 from execution_entity where id in (${ids.join(',')});`,
		);
		if (rows.length === ids.length && rows.every(([, , stopped]) => stopped !== '')) {
			return new Map(
				rows.map(([id, started, stopped]) => [id, [Number(started), Number(stopped)]]),
			);
		}
		if (Date.now() > deadline) throw new Error(`(queue) executions not ended: ${rows.length}`);
		await sleep(250);
	}
}

let services = 0;
/** orderItem(i).orderId − i */
const ORDER_ID_BASE = Number(orderItem(0).orderId);

async function once(
	production: Production,
	receiver: Receiver,
	nginx: RunningNginx,
	queue: QueueServices,
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
	const times = await executionTimes(queue, ran.flat());
	// Whose each accepted request was: its body's hash → its item → its execution → the worker.
	const workerOf = new Map<number, number>();
	for (const [w, ids] of ran.entries()) {
		for (const id of ids) {
			for (const item of await production.executionItems(id)) {
				workerOf.set(bodyHash(bodyFor(orderItem(Number(item.orderId) - ORDER_ID_BASE))), w);
			}
		}
	}
	if (got.admitted.some((a) => !workerOf.has(a.hash))) {
		throw new Error('(queue): an accepted request of no execution the workers ran');
	}
	const { shares, windowEndMs } = processShares(
		ran.map((_, w) => got.admitted.filter((a) => workerOf.get(a.hash) === w).map((a) => a.atMs)),
	);
	const firstStart = Math.min(...[...times.values()].map(([started]) => started));
	return {
		seconds,
		eachOnce: got.accepted === QUEUE_ITEMS && got.fingerprint === fingerprint,
		failed: output.filter(failedItem).length,
		tooMany: refusals.length,
		...countRefusals(refusals),
		executions: ran.map((ids) => ids.length),
		lastEndS: ran.map((ids) =>
			ids.length === 0 ? 0 : (Math.max(...ids.map((id) => times.get(id)![1])) - firstStart) / 1000,
		),
		shares,
		windowEndS: windowEndMs / 1000,
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
			const run = await once(production, receiver, nginx, queue, executions, fingerprint);
			runs.push(run);
			process.stderr.write(
				`  (queue) ${run.seconds.toFixed(1)} s (ideal ${QUEUE_IDEAL_SECONDS} s), ` +
					`${run.tooMany} refusals (${run.blind} blind, ${run.informed} informed), ` +
					`executions per worker ${run.executions.join(' ')}, ` +
					`shares ${run.shares.map((x) => x.toFixed(2)).join(' ')} to ${run.windowEndS.toFixed(1)} s, last ended at ` +
					`${run.lastEndS.map((s) => s.toFixed(1)).join(' ')} s` +
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
