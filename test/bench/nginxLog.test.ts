/**
 * nginx's refusals read from its access log (bench/nginxLog.ts) in the bench's format
 * (`$msec $request_time $status $upstream_status`, e2e/support/nginx.ts): arrival = $msec −
 * $request_time, and only nginx's own answers with the limit_req status count.
 */
import { describe, expect, it } from 'vitest';

import { ACCESS_LOG_FORMAT } from '../../e2e/support/nginx';
import { nginxRefusals } from '../../bench/nginxLog';

describe("nginx's refusals from its access log", () => {
	it('reads the fields the access log format writes, in that order', () => {
		expect(ACCESS_LOG_FORMAT).toBe('$msec $request_time $status $upstream_status');
	});

	it('a refusal arrived $request_time before its line was logged, both in ms', () => {
		const log = [
			'1764300000.250 0.000 429 -',
			'1764300000.300 0.120 202 202',
			'1764300000.410 0.003 429 -',
			'',
		].join('\n');
		expect(nginxRefusals(log, 429)).toEqual([
			{ arrivedMs: 1764300000250, answeredMs: 1764300000250 },
			{ arrivedMs: 1764300000407, answeredMs: 1764300000410 },
		]);
	});

	it("counts only nginx's own answers with the limit status, not the service's, and no line still being written", () => {
		const log = [
			'1764300000.100 0.051 429 429',
			'1764300000.200 0.000 503 -',
			'1764300000.300 0.000 429 -',
			'1764300000.400 0.000 429',
		].join('\n');
		expect(nginxRefusals(log, 429)).toEqual([
			{ arrivedMs: 1764300000300, answeredMs: 1764300000300 },
		]);
	});
});
