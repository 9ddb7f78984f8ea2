/**
 * A receiver on 127.0.0.1 (plain HTTP or TLS) that misbehaves on request: it records every request
 * it fully received together with what it answered, and lets a test decide per request (or per
 * connection, before anything is read) how to fail. Every answer closes the connection, so each
 * request arrives on a new connection and a connection-level fault hits exactly one request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';

import type { ReceivedRequest } from './receiver';
import { recordRequest } from './receiver';

/** A request as received, plus what the receiver did with it. */
export interface FaultyRequest extends ReceivedRequest {
	/** The status sent, or 'closed' when the connection ended without a complete answer. */
	answer?: number | 'closed';
}

export type FaultyResponder = (
	request: FaultyRequest,
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

export const acceptJson: FaultyResponder = (request, res) =>
	answer(res, 202, JSON.stringify({ runId: `run-${request.receivedAt}` }), {
		'Content-Type': 'application/json',
	});

export class FaultyReceiver {
	readonly requests: FaultyRequest[] = [];
	connections = 0;
	url = '';
	private server?: Server;
	private readonly sockets = new Set<Socket>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private responder: FaultyResponder = acceptJson;
	private connectionFaults: ConnectionFault[] = [];

	constructor(private readonly tls?: Tls) {}

	respondWith(responder: FaultyResponder): void {
		this.responder = responder;
	}

	/** The next connection accepted gets `fault` instead of being served. */
	faultNextConnection(fault: ConnectionFault): void {
		this.connectionFaults.push(fault);
	}

	reset(): void {
		this.requests.length = 0;
		this.connections = 0;
		this.connectionFaults = [];
		this.responder = acceptJson;
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
			recordRequest(req, (request: FaultyRequest) => {
				this.requests.push(request);
				res.on('finish', () => (request.answer = res.statusCode));
				res.on('close', () => (request.answer ??= 'closed'));
				void this.responder(request, res, req);
			});
		};
		const server = this.tls ? createHttpsServer(this.tls, handler) : createHttpServer(handler);
		const onSocket = (socket: Socket) => {
			this.connections++;
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
			socket.on('error', () => {});
			const fault = this.connectionFaults.shift();
			if (fault) fault(socket);
		};
		// For TLS the fault applies to the raw TCP connection, before the handshake.
		server.on('connection', onSocket);
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

	get port(): number {
		return Number(new URL(this.url).port);
	}

	async stop(): Promise<void> {
		this.reset();
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
	}
}

/** Connection faults. */
export const resetConnection: ConnectionFault = (socket) => socket.resetAndDestroy();
