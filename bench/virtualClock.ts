/**
 * Many processes' Adaptive sending on a virtual clock: the package's own gate, lanes, rate and
 * quota (nodes/TriggerAutomation/sending/, compiled beside this file), for several simulated n8n
 * processes sending to one service that keeps a fixed-window quota told in every answer
 * (dev/quotaHeaders.js) or a token bucket answering 429 with Retry-After: 1. `Date.now` and the
 * timers (read by the sending when it waits, not when it loads) are replaced by a clock that
 * jumps from one event to the next, so hundreds of runs of (w4q) take seconds: a way to see where
 * a rule of the sending loses time or turns requests away before the real bench
 * (bench/manyProcesses.ts) measures it. Only this process is changed.
 *
 * `node .dev-dist/bench/virtualClock.js [--processes 4] [--executions 25] [--items 2]
 * [--per-second 5] [--window 2 | --bucket] [--late 5] [--runs 200]`: per run, as the bench counts
 * it, the time from the burst's start to the last answer, the 429s after each process's first
 * answer, and each process's share while all were sending; then their medians and extremes.
 */
import { FixedWindowQuota } from '../dev/quotaHeaders';
import { TokenBucket } from '../dev/tokenBucket';
import { readQuota } from '../nodes/TriggerAutomation/answer/rateLimitHeaders';
import { failureFromAnswer } from '../nodes/TriggerAutomation/answer/serviceAnswer';
import type { Attempt } from '../nodes/TriggerAutomation/request/attempt';
import { resendDecision } from '../nodes/TriggerAutomation/sending/resendPolicy';
import type { Outcome } from '../nodes/TriggerAutomation/sending/sending';
import { sendAdaptively } from '../nodes/TriggerAutomation/sending/sending';
import { WaitTally } from '../nodes/TriggerAutomation/sending/waitTally';
import { noneStarved, processShares } from './processShares';
import type { Refusal } from './refusals';
import { countTold } from './refusals';
import { spread, summarize } from './stats';

interface Event {
	at: number;
	order: number;
	run: () => void;
	cancelled: boolean;
}

/** The virtual clock: events in time order, each run with its promise reactions before the next. */
class Clock {
	now = 1_700_000_000_000;
	private readonly events: Event[] = [];
	private order = 0;

	at(at: number, run: () => void): Event {
		const event = { at, order: this.order++, run, cancelled: false };
		const i = this.events.findIndex((e) => e.at > at);
		this.events.splice(i === -1 ? this.events.length : i, 0, event);
		return event;
	}

	/** Runs events until `done` holds; every reaction settles between two events. */
	async runUntil(done: () => boolean): Promise<void> {
		while (this.events.length > 0 && !done()) {
			const event = this.events.shift()!;
			if (event.cancelled) continue;
			this.now = Math.max(this.now, event.at);
			event.run();
			await new Promise((settled) => setImmediate(settled));
		}
	}

	clear(): void {
		this.events.length = 0;
	}
}

const clock = new Clock();
Date.now = () => Math.floor(clock.now);
const timers = globalThis as unknown as {
	setTimeout: (run: () => void, ms?: number) => Event;
	clearTimeout: (event?: Event) => void;
};
timers.setTimeout = (run, ms = 0) => clock.at(clock.now + Math.max(1, ms), run);
timers.clearTimeout = (event) => {
	if (event) event.cancelled = true;
};

interface Model {
	processes: number;
	executions: number;
	items: number;
	perSecond: number;
	/** The quota's window in seconds; 0: a token bucket holding a second's worth. */
	windowSeconds: number;
	/** Mean of the exponential delay with which a process reads an answer, ms (plus 0.3 ms). */
	lateMs: number;
	runs: number;
}

const SERVICE_MS = 50;
const RETRIES = 5;
const EMPTY = Buffer.alloc(0);
/** What the failures' messages name of a request: the model's are never shown. */
const REQUEST = { url: 'http://model/', automationId: 'model', bodyBytes: 0, timeoutMs: 30_000 };

/** A seeded generator, so that a run can be traced again. */
let seed = 1;
function random(): number {
	seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
	return seed / 0x80000000;
}
Math.random = random;

interface Run {
	seconds: number;
	toldTurnedAway: number;
	shares: number[];
}

let services = 0;

async function oneRun(model: Model): Promise<Run> {
	const quota =
		model.windowSeconds > 0
			? new FixedWindowQuota(
					{
						limit: model.perSecond * model.windowSeconds,
						windowSeconds: model.windowSeconds,
						form: 'draft',
					},
					() => clock.now,
				)
			: undefined;
	// The bench's receiver keeps the same bucket (bench/receiver.ts); it reads the virtual clock.
	const bucket = new TokenBucket(model.perSecond);
	const take = () =>
		quota?.take() ??
		(bucket.admit()
			? { admitted: true, headers: {} }
			: { admitted: false, headers: { 'Retry-After': '1' } });
	// As the receiver records them, by process: its first answer, its accepted, its 429s.
	const firstAnswered: Record<string, number> = {};
	const acceptedMs: number[][] = Array.from({ length: model.processes }, () => []);
	const refusals: Refusal[] = [];
	const send = (proc: number) => async () =>
		await new Promise<Attempt>((resolve) => {
			clock.at(clock.now + 0.2, () => {
				const answer = take();
				const writtenAt = clock.now + (answer.admitted ? SERVICE_MS : 0.1);
				if (answer.admitted) acceptedMs[proc].push(clock.now);
				else refusals.push({ arrivedMs: clock.now, answeredMs: writtenAt, path: String(proc) });
				firstAnswered[proc] ??= writtenAt;
				const readAt = writtenAt + 0.3 - Math.log(1 - random()) * model.lateMs;
				clock.at(readAt, () => {
					// Read as the node reads a real answer (request/attempt.ts).
					const { headers } = answer;
					const response = { statusCode: answer.admitted ? 202 : 429, headers, body: EMPTY };
					const failure = failureFromAnswer(response, REQUEST);
					const told = { quota: readQuota(headers, Date.now()) };
					resolve(failure ? { failure, ...told } : { accepted: response, signedAt: 0, ...told });
				});
			});
		});
	const execution = async (proc: number, url: string, count: number): Promise<Outcome[]> =>
		await sendAdaptively({
			service: url,
			count,
			stop: undefined,
			tally: new WaitTally(),
			halt: () => false,
			send: async (itemIndex, pace) => {
				let tries = { resent: 0, spent: 0 };
				let seen = pace.accepted;
				let afterMs: number | undefined;
				for (;;) {
					const sent = await pace.attempt(send(proc), afterMs);
					if (!sent || 'accepted' in sent) return { itemIndex, json: {} };
					const decision = resendDecision(sent.failure, tries, RETRIES, pace.accepted !== seen);
					[seen, tries] = [pace.accepted, decision.tries];
					if (!decision.resend) return { itemIndex, error: decision.why };
					afterMs = decision.afterMs;
				}
			},
		});
	const urls = Array.from({ length: model.processes }, (_, p) => `http://model/${++services}/${p}`);
	if (quota) {
		// As the bench: each process is told the quota by one item of its own before its burst.
		let told = 0;
		urls.forEach((url, p) =>
			clock.at(clock.now + random() * 2, () => void execution(p, url, 1).then(() => told++)),
		);
		await clock.runUntil(() => told === model.processes);
		clock.now += 300;
	}
	const start = clock.now;
	const ends: number[] = [];
	let failed = 0;
	urls.forEach((url, p) => {
		let left = model.executions;
		for (let e = 0; e < model.executions; e++) {
			clock.at(start + random() * 3, () => {
				void execution(p, url, model.items).then((outcomes) => {
					failed += outcomes.filter((outcome) => 'error' in outcome).length;
					if (--left === 0) ends[p] = clock.now;
				});
			});
		}
	});
	await clock.runUntil(() => ends.filter((end) => end !== undefined).length === model.processes);
	clock.clear();
	if (failed > 0) throw new Error(`${failed} items failed`);
	return {
		seconds: (Math.max(...ends) - start) / 1000,
		toldTurnedAway: countTold(refusals, firstAnswered),
		shares: processShares(acceptedMs).shares,
	};
}

function option(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : Number(process.argv[at + 1]);
}

async function main(): Promise<void> {
	const model: Model = {
		processes: option('processes', 4),
		executions: option('executions', 25),
		items: option('items', 2),
		perSecond: option('per-second', 5),
		windowSeconds: process.argv.includes('--bucket') ? 0 : option('window', 2),
		lateMs: option('late', 5),
		runs: option('runs', 200),
	};
	const runs: Run[] = [];
	for (let r = 0; r < model.runs; r++) {
		seed = 1000 + r * 7919;
		runs.push(await oneRun(model));
	}
	const seconds = summarize(runs.map((run) => run.seconds));
	const told = summarize(runs.map((run) => run.toldTurnedAway));
	const uneven = runs.filter((run) => !noneStarved(run.shares));
	const ideal = (model.processes * model.executions * model.items) / model.perSecond;
	process.stdout.write(
		`${model.runs} runs, ideal ${ideal} s: median ${spread(seconds, 1, ' s')}; ` +
			`429s after the process's first answer: median ${spread(told)}; ` +
			`${uneven.length} runs with a share outside 0.5–2\n`,
	);
}

void main();
