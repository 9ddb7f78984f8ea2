/**
 * An anchor side for manners at a limit: the AWS SDK's own adaptive limiter, `DefaultRateLimiter`
 * from @smithy/util-retry (the SDK's `adaptive` retry mode: no limit until the first throttle, then
 * a token bucket whose rate follows CUBIC), driving the same signed requests Trigger Automation
 * sends. It runs in the bench's process, outside n8n: a burst of N executions is N lists of items
 * started at once, each sending all its items together, one limiter for them all (one SDK client
 * shared by the process, as Adaptive sending is shared by the executions of an n8n process).
 *
 * As the SDK's AdaptiveRetryStrategy uses it: `getSendToken()` before every request (re-sends
 * too), `updateClientSendingRate({ errorType: 'THROTTLING' })` after a 429 (the retry error info
 * the SDK builds for a throttle), `updateClientSendingRate({})` after a success (its
 * recordSuccess). A 429 is re-sent after its Retry-After, or 1 s without one (the SDK's throttling
 * delay base), until accepted; a connection per request, as n8n's request helper opens.
 */
import { request } from 'node:http';
import { DefaultRateLimiter } from '@smithy/util-retry';
import type { IDataObject } from 'n8n-workflow';

import type * as Signature from '../credentials/common/signature';
import type { AppBurst } from './production';
import { elapsedMs } from './stats';
import { BUILT_SIGNATURE, SECRET, bodyFor } from './workload';

/** Without a Retry-After: the SDK's throttling delay base (Retry.throttlingDelay()). */
const NO_RETRY_AFTER_MS = 1000;

interface Answer {
	status: number;
	retryAfterMs?: number;
}

function post(url: URL, body: Buffer, sign: typeof Signature.buildSignatureHeader) {
	const headers = {
		'Content-Type': 'application/json',
		'Content-Length': body.length,
		'X-Service-Signature': sign(SECRET, body),
	};
	return new Promise<Answer>((resolve, reject) => {
		const req = request(url, { agent: false, method: 'POST', headers }, (res) => {
			res.resume();
			res.on('end', () => {
				const seconds = Number(res.headers['retry-after']);
				const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
				resolve({ status: res.statusCode ?? 0, retryAfterMs });
			});
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** A limiter as the SDK makes one per client: a new one meets a service afresh. */
export const newLimiter = () => new DefaultRateLimiter();

/** One burst: every execution's items sent at once through `limiter`; one output item each. */
export async function awsLimiterBurst(
	webhookUrl: string,
	executions: IDataObject[][],
	limiter: DefaultRateLimiter,
): Promise<AppBurst> {
	const { buildSignatureHeader } = require(BUILT_SIGNATURE) as typeof Signature;
	const url = new URL(webhookUrl);
	const send = async (item: IDataObject): Promise<IDataObject> => {
		const body = bodyFor(item);
		for (;;) {
			await limiter.getSendToken();
			let answer: Answer;
			try {
				answer = await post(url, body, buildSignatureHeader);
			} catch (error) {
				return { error: (error as Error).message };
			}
			if (answer.status !== 429) {
				limiter.updateClientSendingRate({});
				return { statusCode: answer.status };
			}
			limiter.updateClientSendingRate({ errorType: 'THROTTLING' });
			const waitMs = answer.retryAfterMs ?? NO_RETRY_AFTER_MS;
			await new Promise((resolve) => setTimeout(resolve, waitMs));
		}
	};
	const started = process.hrtime.bigint();
	const outputs = await Promise.all(executions.map((items) => Promise.all(items.map(send))));
	return { seconds: elapsedMs(started) / 1000, output: outputs.flat() };
}
