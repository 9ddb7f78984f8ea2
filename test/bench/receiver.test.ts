/**
 * The bench's receiver (bench/receiver.ts) notes when each refused request arrived and when its 429
 * was answered, on its own clock (what bench/refusals.ts counts a quota's 429s by): scripted orders
 * of arrivals against the real server on 127.0.0.1, every request refused (a service busy for the
 * whole test). A request arrives when its connection is accepted, or on a connection used before,
 * when its headers are read; the test waits for the server to have accepted
 * a connection, or read a request's headers (Expect: 100-continue: it answers 100 Continue then),
 * before it lets anything else happen. It also notes whose each accepted request was.
 */
import type { ClientRequest } from 'node:http';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { addFingerprint, bodyHash, receiverService } from '../../bench/receiver';
import type { Refusal } from '../../bench/refusals';
import { buildSignatureHeader } from '../../credentials/common/signature';

const SECRET = 'whsec_receiver_test';
const BODY = Buffer.from('{"data":{"message":"m","context":{}}}');
const service = receiverService(SECRET, { delayMs: 0, busyMs: 3_600_000 });
let port = 0;

beforeAll(async () => {
	await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
	port = (service.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => service.server.close(() => resolve())));

const headers = () => ({
	'Content-Type': 'application/json',
	'Content-Length': BODY.length,
	'X-Service-Signature': buildSignatureHeader(SECRET, BODY),
});

/** A request whose headers the server has read; `send` sends its body and resolves its status. */
async function arrived(agent: Agent | false = false): Promise<{ send: () => Promise<number> }> {
	let req!: ClientRequest;
	const status = new Promise<number>((resolve, reject) => {
		const options = { host: '127.0.0.1', port, method: 'POST', agent };
		req = request({ ...options, headers: { ...headers(), Expect: '100-continue' } }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
	});
	req.flushHeaders();
	await new Promise((resolve) => req.once('continue', resolve));
	return {
		send: () => {
			req.end(BODY);
			return status;
		},
	};
}

const sent = async (agent: Agent | false = false) => (await arrived(agent)).send();

/** A connection the server has accepted; `send` writes a request on it, resolves its status. */
async function accepted(): Promise<{ send: () => Promise<number> }> {
	const isAccepted = new Promise((resolve) => service.server.once('connection', resolve));
	const socket = connect(port, '127.0.0.1');
	await isAccepted;
	const answer = new Promise<number>((resolve, reject) => {
		let text = '';
		socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
		socket.on('end', () => resolve(Number(text.split(' ')[1])));
		socket.on('error', reject);
	});
	return {
		send: () => {
			const head = Object.entries({ ...headers(), Host: `127.0.0.1:${port}`, Connection: 'close' })
				.map(([name, value]) => `${name}: ${value}\r\n`)
				.join('');
			socket.write(`POST /hook HTTP/1.1\r\n${head}\r\n`);
			socket.write(BODY);
			return answer;
		},
	};
}

/** The run's 429s whose request arrived by the time its first 429 was answered, and the others. */
function byFirstAnswer(refusals: Refusal[]) {
	const firstAnswered = refusals.reduce((first, r) => Math.min(first, r.answeredMs), Infinity);
	const before = refusals.filter((r) => r.arrivedMs <= firstAnswered).length;
	return { before, after: refusals.length - before };
}

describe('when a refused request arrived, on the receiver’s clock', () => {
	it('a request that arrived before the run’s first 429 was answered counts before it, however late its own 429', async () => {
		service.take();
		const first = await arrived();
		const early = await arrived();
		expect(await first.send()).toBe(429);
		// Arrived before the first 429 was written, refused after it: still before it.
		expect(await early.send()).toBe(429);
		expect(await sent()).toBe(429);
		expect(await sent()).toBe(429);
		const got = service.take();
		expect(got.tooMany).toBe(4);
		expect(byFirstAnswer(got.refusals)).toEqual({ before: 2, after: 2 });
	});

	it('a request arrived when its connection was accepted, though its headers were read after the first 429', async () => {
		service.take();
		const connected = await accepted();
		expect(await sent()).toBe(429);
		expect(await connected.send()).toBe(429);
		expect(byFirstAnswer(service.take().refusals)).toEqual({ before: 2, after: 0 });
	});

	it('on a connection that served a request before, a request arrived when its headers were read', async () => {
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		try {
			service.take();
			expect(await sent(agent)).toBe(429);
			expect(await sent(agent)).toBe(429);
			const got = service.take();
			expect(got.connections).toBe(1);
			expect(byFirstAnswer(got.refusals)).toEqual({ before: 1, after: 1 });
		} finally {
			agent.destroy();
		}
	});

	it('each run starts afresh: its first 429 counts from its own first answer, whatever the runs before it saw', async () => {
		service.take();
		expect(await sent()).toBe(429);
		expect(await sent()).toBe(429);
		expect(byFirstAnswer(service.take().refusals)).toEqual({ before: 1, after: 1 });
		expect(await sent()).toBe(429);
		expect(byFirstAnswer(service.take().refusals)).toEqual({ before: 1, after: 0 });
	});
});

describe('whose each accepted request was', () => {
	it('each accepted request is noted with its path and its body’s hash, and the fingerprint is the sum of those hashes', async () => {
		const post = (path: string, body: Buffer) =>
			new Promise<number>((resolve, reject) => {
				const signed = { ...headers(), 'Content-Length': body.length };
				signed['X-Service-Signature'] = buildSignatureHeader(SECRET, body);
				const options = { host: '127.0.0.1', port, path, method: 'POST', agent: false };
				const req = request({ ...options, headers: signed }, (res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode ?? 0));
				});
				req.on('error', reject);
				req.end(body);
			});
		const other = Buffer.from('{"data":{"message":"other","context":{}}}');
		service.take({ delayMs: 0 });
		try {
			expect(await post('/many-1/process-1/hook', BODY)).toBe(202);
			expect(await post('/many-1/process-2/hook', other)).toBe(202);
			const got = service.take();
			expect(got.admitted.map(({ path, hash }) => ({ path, hash }))).toEqual([
				{ path: '/many-1/process-1/hook', hash: bodyHash(BODY) },
				{ path: '/many-1/process-2/hook', hash: bodyHash(other) },
			]);
			expect(got.admitted[0].atMs).toBeLessThanOrEqual(got.admitted[1].atMs);
			expect(got.fingerprint).toBe([BODY, other].reduce(addFingerprint, 0));
		} finally {
			service.take({ delayMs: 0, busyMs: 3_600_000 });
		}
	});
});

describe('a quota told in every answer', () => {
	it('each answer tells the quota left; beyond it 429 with Retry-After to the window’s end; each path’s first answer is noted', async () => {
		const post = (path: string) =>
			new Promise<{ status: number; told: string | undefined; retryAfter: string | undefined }>(
				(resolve, reject) => {
					const options = { host: '127.0.0.1', port, path, method: 'POST', agent: false };
					const req = request({ ...options, headers: headers() }, (res) => {
						res.resume();
						res.on('end', () =>
							resolve({
								status: res.statusCode ?? 0,
								told: res.headers.ratelimit as string | undefined,
								retryAfter: res.headers['retry-after'] as string | undefined,
							}),
						);
					});
					req.on('error', reject);
					req.end(BODY);
				},
			);
		service.take({ delayMs: 0, quota: { limit: 2, windowSeconds: 60, form: 'draft' } });
		try {
			const answers = [await post('/q/process-1/hook'), await post('/q/process-2/hook')];
			answers.push(await post('/q/process-2/hook'));
			expect(answers.map(({ status, told }) => [status, told])).toEqual([
				[202, '"default";r=1;t=60'],
				[202, '"default";r=0;t=60'],
				[429, '"default";r=0;t=60'],
			]);
			expect(answers[2].retryAfter).toBe('60');
			const got = service.take();
			expect(Object.keys(got.firstAnswered)).toEqual(['/q/process-1/hook', '/q/process-2/hook']);
			expect(got.refusals.map(({ path }) => path)).toEqual(['/q/process-2/hook']);
		} finally {
			service.take({ delayMs: 0, busyMs: 3_600_000 });
		}
	});
});
