/**
 * nginx's refusals from its access log (e2e/support/nginx.ts, ACCESS_LOG_FORMAT: `$msec
 * $request_time $status $upstream_status`). A line is logged when its answer is done, so `$msec` is
 * when the request was answered and `$msec − $request_time` when it arrived, both on nginx's clock
 * in ms. A refusal is an answer with the limit_req status that nginx gave without asking the
 * service (no upstream status: `-`).
 */
import type { Refusal } from './refusals';

/** The refusals in `log` (whole lines only), with their arrival and answer times in ms. */
export function nginxRefusals(log: string, status: number): Refusal[] {
	const refusals: Refusal[] = [];
	// The last piece is '' or a line nginx is still writing.
	for (const line of log.split('\n').slice(0, -1)) {
		const [msec, requestTime, logged, upstream] = line.trim().split(' ');
		if (Number(logged) !== status || upstream !== '-') continue;
		const answeredMs = Math.round(Number(msec) * 1000);
		refusals.push({ arrivedMs: answeredMs - Math.round(Number(requestTime) * 1000), answeredMs });
	}
	return refusals;
}
