/**
 * One execution's lane in Sending → Adaptive's rate limiter, with a clock the test holds (vitest's fake
 * timers): its re-sends before its new items, Stop letting its waiting items go.
 */
import { describe, expect, it, vi } from 'vitest';

import { ExecutionLane } from '../../../../nodes/TriggerAutomation/sending/executionLane';
import { holdTheClock, newService, request, turnedAway } from '../../../support/limiterLanes';

holdTheClock();

describe('ExecutionLane', () => {
	it("a re-send waits its time, then goes before the execution's new items", async () => {
		const lane = new ExecutionLane(newService(), undefined);
		await turnedAway(lane, 1000);
		const log: string[] = [];
		request(lane, log, 're-send', 1000);
		request(lane, log, 'new 1');
		request(lane, log, 'new 2');
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toEqual(['re-send']);
		await vi.advanceTimersByTimeAsync(2000);
		expect(log).toEqual(['re-send', 'new 1', 'new 2']);
		lane.close();
	});

	it('Stop lets the waiting items of its execution go unsent at once; the other execution keeps its turn', async () => {
		const service = newService();
		const stop = new AbortController();
		const stopped = new ExecutionLane(service, stop.signal);
		const other = new ExecutionLane(service, undefined);
		await turnedAway(stopped, 1000);
		const log: string[] = [];
		const waiting = [request(stopped, log, 'stopped'), request(stopped, log, 'stopped', 1000)];
		request(other, log, 'other');
		stop.abort();
		expect(await Promise.all(waiting.map(async ({ done }) => await done))).toEqual([
			undefined,
			undefined,
		]);
		stopped.close();
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toEqual(['other']);
		other.close();
	});
});
