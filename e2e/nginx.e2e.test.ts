/**
 * e2e/support/nginx.ts: Debian's nginx in front of a receiver, refusing what exceeds its
 * `limit_req` rate the way it is told (429, or its default 503; with or without Retry-After), and
 * passing the rest on. Here nginx allows 1 request/s with no burst, and ten requests arrive at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Receiver } from '../test/support/receiver';
import type { NginxOptions, RunningNginx } from './support/nginx';
import { startNginx } from './support/nginx';

const AT_ONCE = 10;

async function tenAtOnce(url: string) {
	return await Promise.all(
		Array.from({ length: AT_ONCE }, async () => {
			const response = await fetch(`${url}/webhooks/cloud/a`, { method: 'POST', body: '{}' });
			return {
				status: response.status,
				server: response.headers.get('server'),
				retryAfter: response.headers.get('retry-after'),
				body: await response.text(),
			};
		}),
	);
}

describe('e2e/support/nginx.ts: the real nginx as a rate-limiting proxy', () => {
	const receiver = new Receiver();
	let nginx: RunningNginx | undefined;

	beforeAll(async () => {
		await receiver.start();
	});
	afterEach(async () => {
		await nginx?.stop();
		nginx = undefined;
		receiver.reset();
	});
	afterAll(async () => {
		await receiver.stop();
	});

	const start = async (options: Omit<NginxOptions, 'upstream'>) =>
		(nginx = await startNginx({ upstream: receiver.url, ...options }));

	it('limit_req_status 429: one request passes, the others are refused with 429', async () => {
		const { url } = await start({ ratePerSecond: 1, burst: 0, nodelay: true, status: 429 });
		const answers = await tenAtOnce(url);
		expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
		expect(answers.filter((a) => a.status === 429)).toHaveLength(AT_ONCE - 1);
		expect(receiver.requests).toHaveLength(1);
		expect(answers.every((a) => a.server?.startsWith('nginx'))).toBe(true);
		expect(answers.every((a) => a.retryAfter === null)).toBe(true);
		expect(nginx!.errorLog()).toMatch(/limiting requests/);
	});

	it('by default nginx refuses with 503 and an HTML page, without Retry-After', async () => {
		const { url } = await start({ ratePerSecond: 1, burst: 0, nodelay: true });
		const refused = (await tenAtOnce(url)).filter((a) => a.status !== 202);
		expect(refused).toHaveLength(AT_ONCE - 1);
		expect(refused[0]).toMatchObject({ status: 503, retryAfter: null });
		expect(refused[0].body).toMatch(/<title>503 Service Temporarily Unavailable<\/title>/);
		expect(receiver.requests).toHaveLength(1);
	});

	it('add_header Retry-After 1 always: the refusals carry it', async () => {
		const { url } = await start({
			ratePerSecond: 1,
			burst: 0,
			nodelay: true,
			retryAfterSeconds: 1,
		});
		const refused = (await tenAtOnce(url)).filter((a) => a.status !== 202);
		expect(refused).toHaveLength(AT_ONCE - 1);
		expect(refused.every((a) => a.status === 503 && a.retryAfter === '1')).toBe(true);
	});

	it("a map on $upstream_status puts Retry-After on nginx's refusals only, not on the service's own 503", async () => {
		receiver.respondWith((request, res) => {
			res.writeHead(request.path === '/own-503' ? 503 : 202);
			res.end();
		});
		const { url } = await start({ ratePerSecond: 1, burst: 0, retryAfterOnRefusalsSeconds: 1 });
		const first = await fetch(`${url}/own-503`, { method: 'POST', body: '{}' });
		expect([first.status, first.headers.get('retry-after')]).toEqual([503, null]);
		const refused = await fetch(`${url}/x`, { method: 'POST', body: '{}' });
		expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '1']);
		expect(receiver.requests.map((request) => request.path)).toEqual(['/own-503']);
	});

	it('a burst without nodelay is queued and passed on at the rate, not refused', async () => {
		const { url } = await start({ ratePerSecond: 20, burst: 5 });
		const started = Date.now();
		const answers = await Promise.all(
			Array.from({ length: 6 }, () => fetch(`${url}/x`, { method: 'POST', body: '{}' })),
		);
		expect(answers.map((a) => a.status)).toEqual(Array(6).fill(202));
		// Five queued behind the first, 50 ms apart.
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
	});

	it('stop waits for nginx to exit: its port no longer answers', async () => {
		const { url, stop } = await start({ ratePerSecond: 1, burst: 0 });
		await stop();
		nginx = undefined;
		await expect(fetch(url)).rejects.toThrow();
	});
});
