/**
 * The baseline: a plain node:http client loop sending the same body bytes, each signed just
 * before sending with bare node:crypto, `concurrency` requests in flight (a sliding window of
 * workers). With `keepAlive` it reuses connections as a hand-written client would.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';

export interface RawClientRun {
	url: string;
	secret: string;
	bodies: Buffer[];
	concurrency: number;
	keepAlive: boolean;
}

function post(agent: Agent, url: URL, secret: string, body: Buffer): Promise<number> {
	const t = Date.now();
	const signature = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
	return new Promise((resolve, reject) => {
		const req = request(
			{
				agent,
				host: url.hostname,
				port: url.port,
				path: url.pathname,
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': body.length,
					'X-Service-Signature': `t=${t},v1=${signature}`,
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => {
					JSON.parse(Buffer.concat(chunks).toString('utf8'));
					resolve(res.statusCode ?? 0);
				});
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

/** Sends every body once; returns how many were answered 202. */
export async function runRawClient(run: RawClientRun): Promise<number> {
	const url = new URL(run.url);
	const agent = new Agent({ keepAlive: run.keepAlive, maxSockets: run.concurrency });
	let next = 0;
	let accepted = 0;
	const worker = async () => {
		while (next < run.bodies.length) {
			const body = run.bodies[next++];
			if ((await post(agent, url, run.secret, body)) === 202) accepted++;
		}
	};
	try {
		await Promise.all(Array.from({ length: run.concurrency }, worker));
	} finally {
		agent.destroy();
	}
	return accepted;
}
