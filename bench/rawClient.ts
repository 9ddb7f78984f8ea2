/**
 * The baseline: a plain node:http client sending the same body bytes, each signed just before
 * sending with bare node:crypto, `c` requests in flight (a sliding window). Every request
 * gets a new agent and so a new TCP connection, as n8n's request helper does: no node can reuse
 * connections, so a keep-alive client would measure what no node can reach.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';

function post(agent: Agent, url: URL, secret: string, body: Buffer): Promise<number> {
	const t = Date.now();
	const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
	const headers = {
		'Content-Type': 'application/json',
		'Content-Length': body.length,
		'X-Service-Signature': `t=${t},v1=${v1}`,
	};
	return new Promise((resolve, reject) => {
		const req = request(url, { agent, method: 'POST', headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => {
				JSON.parse(Buffer.concat(chunks).toString('utf8'));
				resolve(res.statusCode ?? 0);
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** Sends every body once; returns how many were answered 202. */
export async function runRawClient(url: URL, secret: string, bodies: Buffer[], c: number) {
	let next = 0;
	let accepted = 0;
	const worker = async () => {
		while (next < bodies.length) {
			const agent = new Agent({ keepAlive: false });
			try {
				if ((await post(agent, url, secret, bodies[next++])) === 202) accepted++;
			} finally {
				agent.destroy();
			}
		}
	};
	await Promise.all(Array.from({ length: c }, worker));
	return accepted;
}
