/**
 * A service on the test receiver for the sending tests: it answers after a latency, may limit the
 * rate (a token bucket holding one second's worth, then 429 with Retry-After: 1), and counts what
 * it did: runs created, 429s, requests in flight when each arrived.
 */
import { TokenBucket } from '../../dev/tokenBucket';
import type { ReceivedRequest, Receiver, Responder } from './receiver';
import { bodyJson } from './receiver';

export const wait = async (ms: number) => await new Promise((done) => setTimeout(done, ms));
export const messageOf = (request: ReceivedRequest) => String(bodyJson(request).data.message);
/** How often each string occurs in the list. */
export const count = (list: string[]) =>
	list.reduce<Record<string, number>>((tally, m) => ({ ...tally, [m]: (tally[m] ?? 0) + 1 }), {});

export interface ServiceSpec {
	/** How long the service takes to answer the k-th request it admits. */
	latencyMs: (k: number) => number;
	/** Token bucket holding one second's worth: beyond it, 429 with Retry-After: 1. */
	perSecond?: number;
	/** A status other than 202 for some messages. */
	statusFor?: (message: string) => number;
	/**
	 * For this long after its first request, every request meets 429 with Retry-After: 1, as when
	 * another n8n process (a queue-mode worker) takes every request the rate limit lets through.
	 */
	busyMs?: number;
}

export function limitedService(
	receiver: Receiver,
	{ latencyMs, perSecond, statusFor, busyMs = 0 }: ServiceSpec,
) {
	let firstAt: number | undefined;
	const bucket = perSecond === undefined ? undefined : new TokenBucket(perSecond);
	let inFlight = 0;
	const seen = {
		runs: [] as string[],
		tooMany: 0,
		/** How often each message was turned away with 429. */
		turnedAway: new Map<string, number>(),
		/** When each 429 was answered (ms since the epoch). */
		tooManyAt: [] as number[],
		inFlightAtArrival: [] as number[],
		/** When each run was created (ms since the epoch), by message. */
		ranAt: new Map<string, number>(),
	};
	const responder: Responder = async (request, res) => {
		const message = messageOf(request);
		firstAt ??= Date.now();
		const busy = Date.now() - firstAt < busyMs;
		if (busy || (bucket && !bucket.admit())) {
			seen.tooMany++;
			seen.tooManyAt.push(Date.now());
			seen.turnedAway.set(message, (seen.turnedAway.get(message) ?? 0) + 1);
			res.writeHead(429, { 'Retry-After': '1' }).end();
			return;
		}
		inFlight++;
		seen.inFlightAtArrival.push(inFlight);
		await wait(latencyMs(seen.inFlightAtArrival.length - 1));
		inFlight--;
		const status = statusFor?.(message) ?? 202;
		if (status === 202) {
			seen.runs.push(message);
			seen.ranAt.set(message, Date.now());
		}
		res.writeHead(status, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ runId: `run-${message}` }));
	};
	receiver.respondWith(responder);
	return seen;
}
