/**
 * Child process: the minimal webhook receiver both sides of the throughput comparison send to. It
 * verifies every request as the service would (spec §5: HMAC-SHA256 of `<t>.<body>` with the
 * secret, 5-minute validity), answers 202 with a small JSON body, and counts what it saw. It runs
 * in its own process so that on a 2-core machine the client side keeps one core to itself.
 * Verification uses node:crypto directly, not the package's signing module.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ReceiverCounts, ReceiverReply, ReceiverRequest } from './receiverProtocol';
import { addFingerprint } from './receiverProtocol';

const secret = process.argv[2];
const TOLERANCE_MS = 5 * 60 * 1000;
const HEADER = /^t=(\d+),v1=([0-9a-f]{64})$/;
const ACCEPTED = Buffer.from('{"accepted":true}');

function zero(): ReceiverCounts {
	return { accepted: 0, rejected: 0, bodyBytes: 0, fingerprint: 0, connections: 0 };
}

let counts = zero();

function verified(req: IncomingMessage, body: Buffer): boolean {
	const header = req.headers['x-service-signature'];
	const match = typeof header === 'string' ? HEADER.exec(header) : null;
	if (!match || req.method !== 'POST') return false;
	const timestamp = Number(match[1]);
	if (Math.abs(Date.now() - timestamp) >= TOLERANCE_MS) return false;
	const expected = createHmac('sha256', secret).update(`${match[1]}.`).update(body).digest();
	return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}

function handle(req: IncomingMessage, res: ServerResponse): void {
	const chunks: Buffer[] = [];
	req.on('data', (chunk: Buffer) => chunks.push(chunk));
	req.on('end', () => {
		const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
		counts.bodyBytes += body.length;
		counts.fingerprint = addFingerprint(counts.fingerprint, body);
		if (verified(req, body)) {
			counts.accepted++;
			res.writeHead(202, { 'Content-Type': 'application/json', 'Content-Length': ACCEPTED.length });
			res.end(ACCEPTED);
		} else {
			counts.rejected++;
			res.writeHead(403, { 'Content-Length': 0 });
			res.end();
		}
	});
}

const server = createServer(handle);
server.keepAliveTimeout = 60_000;
server.on('connection', () => counts.connections++);
server.listen(0, '127.0.0.1', () => {
	const { port } = server.address() as AddressInfo;
	const reply: ReceiverReply = { type: 'ready', url: `http://127.0.0.1:${port}` };
	process.send?.(reply);
});

process.on('message', (message: ReceiverRequest) => {
	if (message.type === 'take') {
		// Counts since the last take: one phase of the benchmark.
		const reply: ReceiverReply = { type: 'counts', id: message.id, counts };
		counts = zero();
		process.send?.(reply);
	} else if (message.type === 'stop') {
		server.closeAllConnections();
		server.close(() => process.exit(0));
	}
});

// The bench is gone (finished or crashed): do not linger.
process.on('disconnect', () => process.exit(0));
