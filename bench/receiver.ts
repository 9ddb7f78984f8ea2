/**
 * The webhook receiver every side sends to, in a child process of its own (so that on a 2-core
 * machine the client keeps a core). It verifies each request as the service does, with the
 * simulator's verification (dev/verifySignature.ts), answers 202 with a small JSON body (after a
 * delay and within a rate limit, when it plays a service: ServiceSpec), and counts requests, the
 * 429s it sends, accepted body bytes, a fingerprint of those bodies, TCP connections and the most
 * connections open at once (every n8n side and the raw client use a connection per request, so for
 * them this is the most requests in flight together), and when each accepted request was admitted,
 * with its path and its body's hash (whose it was, of several processes). It records when each
 * request arrives, and for each 429 when its request arrived and when the 429 was written, so that
 * blind and informed 429s (bench/refusals.ts) are told apart on the service's clock: the bench's
 * 429s and arrival times are what the service saw, not what the client believes it sent.
 *
 * A 429's request arrived when its connection was accepted (on a connection that served a request
 * before, when its headers were read). Its headers are read later than they reached the machine:
 * one event loop reads the requests of a burst one by one, writing each one's 429 before reading
 * the next, so by read time every request but the first would look told. The connections of a
 * burst are accepted together as they come, before any of their requests is read, and with a
 * connection per request a client connects only once it has chosen to send.
 */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { QuotaSpec } from '../dev/quotaHeaders';
import { FixedWindowQuota } from '../dev/quotaHeaders';
import { TokenBucket } from '../dev/tokenBucket';
import { receivedSignatureHeader, verifySignature } from '../dev/verifySignature';
import type { Refusal } from './refusals';

/** A 32-bit hash of a body (a piece of md5). */
export const bodyHash = (body: Buffer): number =>
	createHash('md5').update(body).digest().readUInt32LE(0);

/** Order-independent fingerprint of a set of bodies: sum of a hash of each, modulo 2^32. */
export function addFingerprint(sum: number, body: Buffer): number {
	return (sum + bodyHash(body)) % 2 ** 32;
}

/** A request the service accepted: its path, its body's hash, when it was admitted. */
export interface Admission {
	path: string;
	hash: number;
	/** ms after the run's start (`take`). */
	atMs: number;
}

/** How the receiver behaves as a service: answer after `delayMs`; beyond `perSecond`, 429. */
export interface ServiceSpec {
	delayMs: number;
	/** A token bucket holding one second's worth; an empty bucket answers 429 with Retry-After: 1. */
	perSecond?: number;
	/** From each run's start (`take`), every request is answered 429 (Retry-After: 1) this long. */
	busyMs?: number;
	/** A limit that moves: `afterMs` from the run's start it becomes `perSecond`. */
	then?: { afterMs: number; perSecond: number };
	/**
	 * Instead of a bucket: a fixed-window quota told on every answer (dev/quotaHeaders.js), beyond
	 * it 429 with Retry-After until the window ends.
	 */
	quota?: QuotaSpec;
}

const zero = () => ({
	accepted: 0,
	rejected: 0,
	tooMany: 0,
	bodyBytes: 0,
	fingerprint: 0,
	connections: 0,
	peakOpen: 0,
	/** When each request arrived (its headers read), ms after the run's start (`take`). */
	arrivals: [] as number[],
	/** Each 429: when its request arrived and when the 429 was written, ms after the run's start. */
	refusals: [] as Refusal[],
	/** Every accepted request, as it was admitted (before its answer time). */
	admitted: [] as Admission[],
	/** Per path: when its first answer (202 or 429) was written, ms after the run's start. */
	firstAnswered: {} as Record<string, number>,
});
export type Counts = ReturnType<typeof zero>;

/**
 * The service itself, in the calling process: its HTTP server (not yet listening) and `take`, which
 * returns what it counted since the previous take and starts a new run (as `next` when given).
 */
export function receiverService(secret: string, first: ServiceSpec = { delayMs: 0 }) {
	const answer = Buffer.from('{"accepted":true}');
	let service = first;
	let counts = zero();
	let open = 0;
	let startedAt = 0;
	let bucket: TokenBucket | undefined;
	let quota: FixedWindowQuota | undefined;
	let moved = false;
	const start = () => {
		startedAt = performance.now();
		bucket = service.perSecond === undefined ? undefined : new TokenBucket(service.perSecond);
		quota = service.quota && new FixedWindowQuota(service.quota);
		moved = false;
	};
	start();
	const verified = (req: IncomingMessage, body: Buffer): boolean => {
		if (req.method !== 'POST') return false;
		try {
			verifySignature({ secret, header: receivedSignatureHeader(req.headers), body });
			return true;
		} catch {
			return false;
		}
	};
	/** Whether the service takes a request arriving `ms` into the run, and the headers it answers with. */
	const limit = (ms: number): { admitted: boolean; headers: Record<string, string> } => {
		if (quota) return quota.take();
		const no = refused(ms);
		return { admitted: !no, headers: no ? { 'Retry-After': '1' } : {} };
	};
	const refused = (ms: number): boolean => {
		if (ms < (service.busyMs ?? 0)) return true;
		if (service.then && !moved && ms >= service.then.afterMs) {
			moved = true;
			if (bucket) bucket.setRate(service.then.perSecond);
			else bucket = new TokenBucket(service.then.perSecond);
		}
		return bucket !== undefined && !bucket.admit();
	};
	/** When each connection not yet used by a request was accepted (performance.now()). */
	const acceptedAt = new WeakMap<Socket, number>();
	const server = createServer((req, res) => {
		const now = performance.now();
		counts.arrivals.push(Math.round((now - startedAt) * 10) / 10);
		const arrivedMs = (acceptedAt.get(req.socket) ?? now) - startedAt;
		acceptedAt.delete(req.socket);
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			if (!verified(req, body)) {
				counts.rejected++;
				res.writeHead(403, { 'Content-Length': 0 }).end();
				return;
			}
			const path = req.url ?? '';
			const told = limit(performance.now() - startedAt);
			if (!told.admitted) {
				counts.tooMany++;
				res.writeHead(429, { ...told.headers, 'Content-Length': 0 }).end();
				// After end(): a small answer is handed to the socket there, so it is written by now.
				const answeredMs = performance.now() - startedAt;
				counts.refusals.push({ arrivedMs, answeredMs, path });
				counts.firstAnswered[path] ??= answeredMs;
				return;
			}
			const atMs = Math.round((performance.now() - startedAt) * 10) / 10;
			const hash = bodyHash(body);
			counts.admitted.push({ path, hash, atMs });
			const accept = () => {
				counts.accepted++;
				counts.bodyBytes += body.length;
				counts.fingerprint = (counts.fingerprint + hash) % 2 ** 32;
				res.writeHead(202, {
					'Content-Type': 'application/json',
					'Content-Length': answer.length,
					...told.headers,
				});
				res.end(answer);
				counts.firstAnswered[path] ??= performance.now() - startedAt;
			};
			if (service.delayMs > 0) setTimeout(accept, service.delayMs);
			else accept();
		});
	});
	server.keepAliveTimeout = 60_000;
	server.on('connection', (socket: Socket) => {
		acceptedAt.set(socket, performance.now());
		counts.connections++;
		counts.peakOpen = Math.max(counts.peakOpen, ++open);
		socket.on('close', () => open--);
	});
	const take = (next?: ServiceSpec): Counts => {
		const got = counts;
		counts = zero();
		if (next) service = next;
		start();
		return got;
	};
	return { server, take };
}

function serve(secret: string, first?: ServiceSpec): void {
	const { server, take } = receiverService(secret, first);
	server.listen(0, '127.0.0.1', () => {
		const { port } = server.address() as AddressInfo;
		process.send?.({ url: `http://127.0.0.1:${port}` });
	});
	process.on('message', (next: ServiceSpec | 'take') => {
		process.send?.(take(next === 'take' ? undefined : next));
	});
	// The bench is gone (finished or crashed): do not linger.
	process.on('disconnect', () => process.exit(0));
}

export class Receiver {
	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
	) {}

	static async start(secret: string, service?: ServiceSpec): Promise<Receiver> {
		const args = ['serve', secret, ...(service ? [JSON.stringify(service)] : [])];
		const child = fork(__filename, args, { execArgv: [] });
		const url = await new Promise<string>((resolve, reject) => {
			child.once('exit', (code) => reject(new Error(`The receiver exited with code ${code}`)));
			child.once('message', (reply: { url: string }) => resolve(reply.url));
		});
		child.removeAllListeners('exit');
		return new Receiver(child, url);
	}

	/**
	 * What the receiver counted since the previous call (calls never overlap); a new run starts
	 * (a full bucket, the busy spell again), as `next` when given.
	 */
	async take(next?: ServiceSpec): Promise<Counts> {
		const reply = new Promise<Counts>((resolve) => this.child.once('message', resolve));
		this.child.send(next ?? 'take');
		return await reply;
	}

	stop(): void {
		this.child.disconnect();
	}
}

if (require.main === module && process.argv[2] === 'serve') {
	serve(
		process.argv[3],
		process.argv[4] ? (JSON.parse(process.argv[4]) as ServiceSpec) : undefined,
	);
}
