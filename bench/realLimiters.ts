/**
 * Services kept by the most used rate limiters of the npm registry (issue 75, item 3), each in a
 * child process of its own on 127.0.0.1, so that the service's time is not the node's: a
 * fixed-window quota per client address, configured as each limiter's README configures it, in
 * one of the header modes it offers. An admitted request is answered 200 with a small JSON body
 * after the answer time; a refused one as the limiter answers it (429). The service counts as the
 * receiver does (bench/receiver.ts): accepted bodies by hash, each 429 with when its request
 * arrived (its connection accepted) and when it was answered, and per path when its first answer
 * was written (the first a sender could read a quota from).
 */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import fastifyRateLimit from '@fastify/rate-limit';
import express from 'express';
import type { RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import Fastify from 'fastify';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimiterMemory } from 'rate-limiter-flexible';

import { bodyHash } from './receiver';
import type { Refusal } from './refusals';

/** Each limiter in each header mode it offers: its package and the README's options for it. */
export const LIMITER_MODES = {
	'erl-draft-6': { pkg: 'express-rate-limit', options: "standardHeaders: 'draft-6'" },
	'erl-draft-7': { pkg: 'express-rate-limit', options: "standardHeaders: 'draft-7'" },
	'erl-draft-8': { pkg: 'express-rate-limit', options: "standardHeaders: 'draft-8'" },
	'erl-legacy': {
		pkg: 'express-rate-limit',
		options: 'standardHeaders: false, legacyHeaders: true',
	},
	fastify: { pkg: '@fastify/rate-limit', options: 'defaults' },
	'fastify-draft': { pkg: '@fastify/rate-limit', options: 'enableDraftSpec: true' },
	rlf: {
		pkg: 'rate-limiter-flexible',
		options: "RateLimiterMemory; the README's headers (Retry-After on 429s)",
	},
} as const;
export type LimiterMode = keyof typeof LIMITER_MODES;

export interface LimiterSpec {
	mode: LimiterMode;
	/** Requests per window and client. */
	limit: number;
	windowMs: number;
	/** How long an admitted request takes to answer. */
	delayMs: number;
}

/** What a quota service counted since its start or its last take (the receiver's Counts has it too). */
export interface ServiceCounts {
	accepted: number;
	/** Sum of the accepted bodies' hashes modulo 2^32 (bench/receiver.ts). */
	fingerprint: number;
	refusals: Refusal[];
	firstAnswered: Record<string, number>;
}

/** A service a run sends to: a real limiter (LimiterService) or the simulator (Receiver). */
export interface QuotaService {
	readonly url: string;
	take(): Promise<ServiceCounts>;
	stop(): void;
}

const zero = (): ServiceCounts => ({
	accepted: 0,
	fingerprint: 0,
	refusals: [],
	firstAnswered: {},
});

/** The counting: `hook` it on the HTTP server, before the limiter sees a request. */
function counter() {
	let counts = zero();
	let startedAt = performance.now();
	const acceptedAt = new WeakMap<Socket, number>();
	return {
		hook(server: Server): void {
			server.on('connection', (socket: Socket) => acceptedAt.set(socket, performance.now()));
			server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
				const arrivedMs = (acceptedAt.get(req.socket) ?? performance.now()) - startedAt;
				acceptedAt.delete(req.socket);
				const path = req.url ?? '';
				res.on('finish', () => {
					const answeredMs = performance.now() - startedAt;
					counts.firstAnswered[path] ??= answeredMs;
					if (res.statusCode === 429) counts.refusals.push({ arrivedMs, answeredMs, path });
				});
			});
		},
		admit(body: Buffer): void {
			counts.accepted++;
			counts.fingerprint = (counts.fingerprint + bodyHash(body)) % 2 ** 32;
		},
		take(): ServiceCounts {
			const got = counts;
			counts = zero();
			startedAt = performance.now();
			return got;
		},
	};
}

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** rate-limiter-flexible's README: "You may want to set HTTP headers for the response". */
function flexibleLimiter({ limit, windowMs }: LimiterSpec): RequestHandler {
	const limiter = new RateLimiterMemory({ points: limit, duration: windowMs / 1000 });
	const told = (res: Response, r: RateLimiterRes) =>
		res.set({
			'X-RateLimit-Limit': String(limit),
			'X-RateLimit-Remaining': String(r.remainingPoints),
			'X-RateLimit-Reset': String(Math.ceil((Date.now() + r.msBeforeNext) / 1000)),
		});
	return (req, res, next) => {
		limiter.consume(req.ip ?? '').then(
			(r) => {
				told(res, r);
				next();
			},
			(r: RateLimiterRes) => {
				told(res, r).set('Retry-After', String(r.msBeforeNext / 1000));
				res.status(429).send('Too Many Requests');
			},
		);
	};
}

function expressService(spec: LimiterSpec, admit: (body: Buffer) => void): Server {
	const app = express();
	if (spec.mode === 'rlf') {
		app.use(flexibleLimiter(spec));
	} else {
		const legacy = spec.mode === 'erl-legacy';
		const draft = { 'erl-draft-6': 'draft-6', 'erl-draft-7': 'draft-7' } as const;
		app.use(
			rateLimit({
				windowMs: spec.windowMs,
				limit: spec.limit,
				standardHeaders: legacy ? false : (draft[spec.mode as keyof typeof draft] ?? 'draft-8'),
				legacyHeaders: legacy,
				ipv6Subnet: 56,
			}),
		);
	}
	app.use(express.raw({ type: '*/*' }));
	app.use((req, res) => {
		admit(req.body as Buffer);
		void after(spec.delayMs).then(() => res.status(200).json({ accepted: true }));
	});
	return createServer(app);
}

async function fastifyService(spec: LimiterSpec, admit: (body: Buffer) => void): Promise<Server> {
	const app = Fastify();
	await app.register(fastifyRateLimit, {
		max: spec.limit,
		timeWindow: spec.windowMs,
		...(spec.mode === 'fastify-draft' ? { enableDraftSpec: true } : {}),
	});
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
	app.post('/*', async (req) => {
		admit(req.body as Buffer);
		await after(spec.delayMs);
		return { accepted: true };
	});
	await app.ready();
	return app.server;
}

async function serve(spec: LimiterSpec): Promise<void> {
	const counts = counter();
	const server = spec.mode.startsWith('fastify')
		? await fastifyService(spec, counts.admit)
		: expressService(spec, counts.admit);
	counts.hook(server);
	server.keepAliveTimeout = 60_000;
	server.listen(0, '127.0.0.1', () => {
		const { port } = server.address() as AddressInfo;
		process.send?.({ url: `http://127.0.0.1:${port}` });
	});
	process.on('message', () => process.send?.(counts.take()));
	// The bench is gone (finished or crashed): do not linger.
	process.on('disconnect', () => process.exit(0));
}

/** The parent's handle on one limiter's service. */
export class LimiterService implements QuotaService {
	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
	) {}

	static async start(spec: LimiterSpec): Promise<LimiterService> {
		const child = fork(__filename, ['serve', JSON.stringify(spec)], { execArgv: [] });
		const url = await new Promise<string>((resolve, reject) => {
			child.once('exit', (code) => reject(new Error(`${spec.mode} exited with code ${code}`)));
			child.once('message', (reply: { url: string }) => resolve(reply.url));
		});
		child.removeAllListeners('exit');
		return new LimiterService(child, url);
	}

	/** What it counted since its start or the previous take (calls never overlap). */
	async take(): Promise<ServiceCounts> {
		const reply = new Promise<ServiceCounts>((resolve) => this.child.once('message', resolve));
		this.child.send('take');
		return await reply;
	}

	stop(): void {
		this.child.disconnect();
	}
}

if (require.main === module && process.argv[2] === 'serve') {
	serve(JSON.parse(process.argv[3]) as LimiterSpec).catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
		process.exit(1);
	});
}
