import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook whose service is busy: it answers every request 503 (and keeps its body), so a
 * correctly signed request is refused while its signature stays valid for 5 minutes.
 */
export async function startBusyService() {
	const state = { requests: 0, bodies: [] as string[] };
	const server = createServer((req, res) => {
		state.requests++;
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			state.bodies.push(Buffer.concat(chunks).toString('utf8'));
			res.writeHead(503, { 'Content-Type': 'application/json' });
			res.end('{"error":"busy","message":"Try again later."}');
		});
	});
	await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
	const { port } = server.address() as AddressInfo;
	return {
		state,
		url: (automationId: string) => `http://127.0.0.1:${port}/webhooks/cloud/${automationId}`,
		stop: () => {
			server.closeAllConnections();
			server.close();
		},
	};
}
