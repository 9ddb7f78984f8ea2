import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook that answers 200 at once and then trickles its body one byte every 200 ms, without
 * end: an idle timeout never fires on it, only a deadline for the whole answer does.
 */
export async function startTrickler() {
	const state = { requests: 0, hungUpByClient: 0 };
	const server = createServer((req, res) => {
		state.requests++;
		req.resume();
		res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100000' });
		const drip = setInterval(() => res.write(' '), 200);
		res.on('close', () => {
			clearInterval(drip);
			state.hungUpByClient++;
		});
	});
	await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
	const { port } = server.address() as AddressInfo;
	return {
		state,
		url: `http://127.0.0.1:${port}/webhooks/cloud/e2e-trickle`,
		stop: () => {
			server.closeAllConnections();
			server.close();
		},
	};
}
