/**
 * The tests' receiver: a real server on 127.0.0.1 (plain HTTP or TLS) that records every request it
 * fully received, byte for byte, with what it answered, and answers as the test says: accept, refuse,
 * answer late or never, trickle, break the connection (per request, or per connection before
 * anything is read). Every answer closes its connection, so each request arrives on a new
 * connection and a connection-level fault hits exactly one request.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';

import {
	VerificationError,
	receivedSignatureHeader,
	verifySignature,
} from '../../dev/verifySignature';

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
	receivedAt: number;
	/** The status sent, or 'closed' when the connection ended without a complete answer. */
	answer?: number | 'closed';
	/** The Retry-After header sent with the answer, if any. */
	retryAfter?: string;
	/** Body bytes written so far, for an answer written in chunks (largeAnswer). */
	bytesSent?: number;
}

export type Responder = (
	request: ReceivedRequest,
	res: ServerResponse,
	req: IncomingMessage,
) => void | Promise<void>;

export type ConnectionFault = (socket: Socket) => void;

export interface Tls {
	key: string;
	cert: string;
}

export function writable(res: ServerResponse): boolean {
	return !res.destroyed && !res.writableEnded && !res.socket?.destroyed;
}

export function answer(
	res: ServerResponse,
	status: number,
	body = '',
	headers: Record<string, string> = {},
) {
	if (!writable(res)) return;
	res.writeHead(status, headers);
	res.end(body);
}

/**
 * `status` with a text body of `bytes` bytes, written in 64 KiB chunks as the client reads them
 * (never held whole); `request.bytesSent` counts what was written, up to the connection's close.
 */
export function writeLargeAnswer(
	request: ReceivedRequest,
	res: ServerResponse,
	status: number,
	bytes: number,
): void {
	const chunk = Buffer.alloc(64 * 1024, 'x');
	request.bytesSent = 0;
	res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Length': String(bytes) });
	const write = () => {
		while (request.bytesSent! < bytes && writable(res)) {
			const piece = chunk.subarray(0, Math.min(chunk.length, bytes - request.bytesSent!));
			request.bytesSent! += piece.length;
			if (!res.write(piece)) return void res.once('drain', write);
		}
		if (request.bytesSent === bytes) res.end();
	};
	write();
}

/** What the receiver does unless told otherwise: 202 with a run id of its own. */
export const acceptWithJson: Responder = (request, res) =>
	answer(res, 202, JSON.stringify({ runId: `run-${request.receivedAt}` }), {
		'Content-Type': 'application/json',
	});

/** A busy service: 503 to every request, so a correctly signed one is refused while still valid. */
export const answerBusy: Responder = (_request, res) =>
	answer(res, 503, '{"error":"busy","message":"Try again later."}', {
		'Content-Type': 'application/json',
	});

/**
 * A slow answer: 200 at once, then the body one space every `everyMs`, ended after `forMs` (never,
 * by default: then an idle timeout never fires, only a deadline for the whole answer ends it). It
 * stops when the connection closes; a client hanging up is recorded as the answer 'closed'.
 */
export function trickle({
	everyMs,
	forMs = Infinity,
}: {
	everyMs: number;
	forMs?: number;
}): Responder {
	return (_request, res) => {
		res.writeHead(200, { 'Content-Type': 'application/json' });
		let sent = 0;
		const drip = () => {
			if (!writable(res)) return;
			if (sent >= forMs) return void res.end();
			sent += everyMs;
			res.write(' ');
		};
		drip();
		const timer = setInterval(drip, everyMs);
		res.on('close', () => clearInterval(timer));
	};
}

/** Connection faults. */
export const resetConnection: ConnectionFault = (socket) => socket.resetAndDestroy();

export class Receiver {
	readonly requests: ReceivedRequest[] = [];
	connections = 0;
	url = '';
	private server?: Server;
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly defaultResponder: Responder;
	private responder: Responder;
	private connectionFaults: ConnectionFault[] = [];
	private readonly tls?: Tls;

	/** `respond`: how it answers until told otherwise, and again after `reset`. */
	constructor(options: { respond?: Responder; tls?: Tls } = {}) {
		this.defaultResponder = options.respond ?? acceptWithJson;
		this.responder = this.defaultResponder;
		this.tls = options.tls;
	}

	respondWith(responder: Responder): void {
		this.responder = responder;
	}

	/** The next connection accepted gets `fault` instead of being served. */
	faultNextConnection(fault: ConnectionFault): void {
		this.connectionFaults.push(fault);
	}

	/** Forgets what it received and what it was told: pending answers are dropped. */
	reset(): void {
		this.requests.length = 0;
		this.connections = 0;
		this.connectionFaults = [];
		this.responder = this.defaultResponder;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
	}

	/** setTimeout that the receiver cancels on reset and stop. */
	later(ms: number, fn: () => void): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fn();
		}, ms);
		this.timers.add(timer);
	}

	async start(): Promise<this> {
		const handler = (req: IncomingMessage, res: ServerResponse) => {
			res.setHeader('Connection', 'close');
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			// A request is recorded, and answered, once complete.
			req.on('end', () => {
				const request: ReceivedRequest = {
					method: req.method ?? '',
					path: req.url ?? '',
					headers: req.headers,
					body: Buffer.concat(chunks),
					receivedAt: Date.now(),
				};
				this.requests.push(request);
				res.on('finish', () => {
					request.answer = res.statusCode;
					const retryAfter = res.getHeader('retry-after');
					if (retryAfter !== undefined) request.retryAfter = String(retryAfter);
				});
				res.on('close', () => (request.answer ??= 'closed'));
				void this.responder(request, res, req);
			});
		};
		const server = this.tls ? createHttpsServer(this.tls, handler) : createHttpServer(handler);
		// For TLS a connection fault applies to the raw TCP connection, before the handshake.
		server.on('connection', (socket: Socket) => {
			this.connections++;
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
			socket.on('error', () => {});
			this.connectionFaults.shift()?.(socket);
		});
		server.on('tlsClientError', () => {});
		this.server = server;
		await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
		const { port } = server.address() as AddressInfo;
		this.url = `${this.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
		return this;
	}

	/** New connections are refused until `listenAgain`; connections already open go on. */
	stopListening(): void {
		this.server?.close();
	}

	async listenAgain(): Promise<void> {
		const server = this.server!;
		await new Promise<void>((ready) => server.listen(this.port, '127.0.0.1', ready));
	}

	/** The URL of an automation here, as the service's webhook URLs are shaped (spec §2). */
	webhookUrl(automationId: string): string {
		return `${this.url}/webhooks/cloud/${automationId}`;
	}

	get port(): number {
		return Number(new URL(this.url).port);
	}

	async stop(): Promise<void> {
		this.reset();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
	}
}

/**
 * Every way a request breaks the spec, checked independently of the package: the header as the
 * node must write it, the HMAC with dev/verifySignature.ts (computed from the spec, not with the
 * signer), the body's shape. Empty = conforming.
 */
export function specViolations(
	request: ReceivedRequest,
	secret: string,
	expectedPath: string,
	now: number = Date.now(),
): string[] {
	const problems: string[] = [];
	if (request.method !== 'POST') problems.push(`method ${request.method}`);
	if (request.path !== expectedPath) problems.push(`path ${request.path}`);
	if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
		problems.push(`content-type ${request.headers['content-type']}`);
	}
	const header = receivedSignatureHeader(request.headers);
	if (header === undefined || !/^t=\d+,v1=[0-9a-f]{64}$/.test(header)) {
		problems.push(`signature header format: ${String(header)}`);
		return problems;
	}
	try {
		const { timestamp } = verifySignature({ secret, header, body: request.body, now });
		// Sender and receiver share this machine's clock: a timestamp ahead of it is made up.
		if (timestamp - now > 5_000) problems.push(`timestamp ${timestamp} is ahead of the clock`);
	} catch (error) {
		if (!(error instanceof VerificationError)) throw error;
		problems.push(`signature ${error.code}: ${error.message}`);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(request.body.toString('utf8'));
	} catch {
		problems.push('body is not JSON');
		return problems;
	}
	const data = (parsed as { data?: Record<string, unknown> }).data;
	if (typeof data !== 'object' || data === null) problems.push('no data object');
	else {
		if (typeof data.message !== 'string') problems.push('data.message is not a string');
		const extra = Object.keys(data).filter((key) => key !== 'message' && key !== 'context');
		if (extra.length) problems.push(`unexpected keys in data: ${extra.join(',')}`);
		if (
			'context' in data &&
			(typeof data.context !== 'object' || data.context === null || Array.isArray(data.context))
		) {
			problems.push('data.context is not an object');
		}
	}
	const topKeys = Object.keys(parsed as object);
	if (topKeys.length !== 1 || topKeys[0] !== 'data')
		problems.push(`top-level keys ${topKeys.join(',')}`);
	return problems;
}

export function bodyJson(request: ReceivedRequest): {
	data: { message: string; context?: Record<string, unknown> };
} {
	return JSON.parse(request.body.toString('utf8'));
}
