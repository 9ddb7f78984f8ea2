/**
 * Lanes of Sending → Adaptive's rate limiter driven by a test that holds the clock (vitest's fake timers):
 * requests it answers itself, each on a service of its own.
 */
import { afterEach, beforeEach, vi } from 'vitest';

import { ExecutionLane } from '../../nodes/TriggerAutomation/sending/executionLane';
import type { Attempt } from '../../nodes/TriggerAutomation/request/attempt';
import { rateLimited } from './failures';

/** Every test of the file holds the clock (vitest's fake timers), from a fixed time. */
export function holdTheClock() {
	beforeEach(() => {
		vi.useFakeTimers({ now: 1_000_000 });
	});
	afterEach(() => {
		vi.useRealTimers();
	});
}

let services = 0;
/** A service of its own for each test: a limiter is kept while its executions send. */
export const newService = () => `http://service-${++services}.test`;

export const accepted: Attempt = {
	accepted: { statusCode: 202, headers: {}, body: Buffer.alloc(0) },
	signedAt: undefined,
};
export const refused = (afterMs?: number): Attempt => ({ failure: rateLimited(afterMs) });
/** Accepted, its answer telling `remaining` requests until `resetInMs` from now. */
export const acceptedTelling = (remaining: number, resetInMs: number): Attempt => ({
	...accepted,
	quota: { remaining, resetAt: Date.now() + resetInMs, header: 'X-RateLimit-Remaining' },
});

/**
 * A request through `lane` (a re-send: `afterMs`), logged as `label` when its turn comes; the test
 * answers it with `answer`.
 */
export function request(lane: ExecutionLane, log: string[], label: string, afterMs?: number) {
	let answer: (attempt: Attempt) => void = () => undefined;
	const done = lane.attempt(async () => {
		log.push(label);
		return await new Promise<Attempt>((resolve) => (answer = resolve));
	}, afterMs);
	return { done, answer: (attempt: Attempt) => answer(attempt) };
}

/** Lets the promises already resolved run on, firing no timer. */
export const microtasks = async () => {
	for (let k = 0; k < 10; k++) await Promise.resolve();
};

/** The lane's first request, turned away with `afterMs` (Retry-After). */
export async function turnedAway(lane: ExecutionLane, afterMs: number) {
	const first = request(lane, [], 'first');
	await microtasks();
	first.answer(refused(afterMs));
	await first.done;
}
