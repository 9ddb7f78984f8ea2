/**
 * A real HTTP receiver on 127.0.0.1 for the tests. It records every request byte for byte and
 * checks it against the spec on its own — with node:crypto directly, not with the package's
 * signing module — so a mistake shared by signer and verifier cannot hide.
 */
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
	receivedAt: number;
}

export type Responder = (
	request: ReceivedRequest,
	res: ServerResponse,
	req: IncomingMessage,
) => void | Promise<void>;

export const acceptWithJson: Responder = (request, res) => {
	const text = JSON.stringify({ runId: `run-${request.receivedAt}`, accepted: true });
	res.writeHead(202, { 'Content-Type': 'application/json' });
	res.end(text);
};

/** Reads a request to its end, then hands it on as recorded: a request is counted once complete. */
export function recordRequest(
	req: IncomingMessage,
	onRecorded: (request: ReceivedRequest) => void,
): void {
	const chunks: Buffer[] = [];
	req.on('data', (chunk: Buffer) => chunks.push(chunk));
	req.on('end', () =>
		onRecorded({
			method: req.method ?? '',
			path: req.url ?? '',
			headers: req.headers,
			body: Buffer.concat(chunks),
			receivedAt: Date.now(),
		}),
	);
}

export class Receiver {
	readonly requests: ReceivedRequest[] = [];
	private server?: Server;
	private readonly sockets = new Set<Socket>();
	url = '';

	constructor(private responder: Responder = acceptWithJson) {}

	respondWith(responder: Responder): void {
		this.responder = responder;
	}

	async start(): Promise<this> {
		this.server = createServer((req, res) =>
			recordRequest(req, (request) => {
				this.requests.push(request);
				void this.responder(request, res, req);
			}),
		);
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((ready) => this.server!.listen(0, '127.0.0.1', ready));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async stop(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
	}
}

/**
 * Every way a request breaks the spec, checked independently of the package. Empty = conforming.
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
	const header = request.headers['x-service-signature'];
	const match = typeof header === 'string' ? /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) : null;
	if (!match) {
		problems.push(`signature header format: ${String(header)}`);
		return problems;
	}
	const [, t, v1] = match;
	const expected = createHmac('sha256', secret)
		.update(Buffer.concat([Buffer.from(`${t}.`, 'utf8'), request.body]))
		.digest('hex');
	if (expected !== v1) problems.push('HMAC does not match the received bytes');
	const age = now - Number(t);
	if (age < -5_000 || age >= 300_000) problems.push(`timestamp ${t} is ${age} ms old`);
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
