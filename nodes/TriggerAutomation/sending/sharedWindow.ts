/**
 * Options → Sending → Adaptive: one congestion window per service in this n8n process (the main
 * instance, or each queue-mode worker), shared by every execution of the node that sends to it.
 * n8n runs production executions at the same time (one per event), and a window per execution
 * would let each start its own burst into a service its neighbours are already filling; shared,
 * what one execution learns (the window, a Retry-After) holds for all.
 *
 * "The same service" is the webhook URL's `{base_url}`: the automations of one service share its
 * capacity and, as far as anyone can tell (the interface shows no rate limits), its limits. Sharing
 * too much costs speed for a while; sharing too little costs items their retries.
 *
 * Free slots go first to re-sends, the items turned away most often first (the one closest to
 * running out of Retries When Not Accepted), then round-robin between the executions (lanes) with a
 * new item waiting, so an execution of one item is not stuck behind one of 10,000. Waiting for a slot
 * costs no retry: only an attempt the service turned away does. Once the service has asked to wait,
 * requests also start no faster than it accepted them (ratePacer.ts).
 *
 * The one exception: the first request after a pause goes to the re-send turned away least often.
 * It is the request most likely to be turned away again (another queue-mode worker that waited as
 * long may have taken the service's every free request), and sent by the item turned away most often
 * it would cost that same item a retry at every pause until it has none left.
 */
import { sleep } from 'n8n-workflow';

import { CongestionWindow } from './congestionWindow';
import { RatePacer } from './ratePacer';

/**
 * A window no execution has used for this long is forgotten: after a minute without a request, a
 * per-second or per-minute rate limit has filled up again, and the service is best met afresh.
 */
export const IDLE_MS = 60_000;

/** One execution's place in the window, as the window sees it (executionLane.ts). */
export interface Lane {
	/** A new item of this execution waits for its first slot. */
	readonly waiting: boolean;
	/** A slot for the first new item waiting. */
	grantNext(): void;
	/** A slot for one of this execution's items, which `wake` lets go. */
	grant(wake: () => void): void;
}

export class ServiceWindow {
	readonly window = new CongestionWindow();
	readonly rate = new RatePacer();
	inFlight = 0;
	lanes = 0;
	lastActive = Date.now();
	private pausedUntil = 0;
	/** The next request is the first after a pause. */
	private probing = false;
	/** The pause now running is one the service asked for, this long. */
	private askedMs = 0;
	/** Lanes with a new item waiting, in turn order. */
	private readonly ready: Lane[] = [];
	/** Items waiting to be sent again, most often turned away first, then in the order they came. */
	private readonly resends: Resend[] = [];
	/** Ends the pause's wake-up timer once no execution is left to wake. */
	private timer: AbortController | undefined;

	/** No request starts for `ms`: the service `asked` for it, or an item waits before a re-send. */
	pauseFor(ms: number, asked = false): void {
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
		if (ms > 0) this.probing = true;
		if (asked) this.askedMs = Math.max(this.askedMs, ms);
	}

	/** An execution joins; if none was sending, the time without any is no rate the service set. */
	join(): void {
		if (this.lanes++ === 0 && this.inFlight === 0) this.rate.restart(Date.now());
	}

	enqueue(lane: Lane): void {
		if (!this.ready.includes(lane)) this.ready.push(lane);
		this.dispatch();
	}

	enqueueResend(resend: Resend): void {
		let at = this.resends.length;
		while (at > 0 && this.resends[at - 1].times < resend.times) at--;
		this.resends.splice(at, 0, resend);
		this.dispatch();
	}

	/** A stopped or finished lane's re-sends, taken out of the queue. */
	dropResends(lane: Lane): Resend[] {
		const dropped = this.resends.filter((resend) => resend.lane === lane);
		for (const resend of dropped) this.resends.splice(this.resends.indexOf(resend), 1);
		return dropped;
	}

	leave(lane: Lane): void {
		const at = this.ready.indexOf(lane);
		if (at !== -1) this.ready.splice(at, 1);
		if (--this.lanes === 0) {
			this.timer?.abort();
			this.timer = undefined;
		}
		this.lastActive = Date.now();
		this.dispatch();
	}

	/** Gives free slots to waiting items: re-sends first, then new items lane after lane. */
	dispatch(): void {
		const now = Date.now();
		if (now < this.pausedUntil) {
			if (this.ready.length > 0 || this.resends.length > 0) this.wakeAt(this.pausedUntil - now);
			return;
		}
		if (this.askedMs > 0) {
			this.rate.resumed(now, this.askedMs);
			this.askedMs = 0;
		}
		while (this.inFlight < this.window.limit && this.resends.length > 0) {
			if (!this.mayStart(now)) return;
			// After a pause, the first of those turned away least often (the queue is ordered by
			// `times`, descending); then the queue's order.
			const fewest = this.resends[this.resends.length - 1].times;
			const at = this.probing ? this.resends.findIndex((resend) => resend.times === fewest) : 0;
			this.probing = false;
			const [{ lane, wake }] = this.resends.splice(at, 1);
			lane.grant(wake);
		}
		while (this.inFlight < this.window.limit && this.ready.length > 0) {
			const lane = this.ready[0];
			if (!lane.waiting) {
				this.ready.shift();
				continue;
			}
			if (!this.mayStart(now)) return;
			this.ready.shift();
			lane.grantNext();
			if (lane.waiting) this.ready.push(lane);
		}
	}

	/** Whether the rate lets a request start now; if not, dispatches again when it does. */
	private mayStart(now: number): boolean {
		const ms = this.rate.waitMs(now);
		if (ms > 0) this.wakeAt(ms);
		return ms === 0;
	}

	private wakeAt(ms: number): void {
		if (this.timer) return;
		const timer = (this.timer = new AbortController());
		void sleep(ms, timer.signal).then(
			() => {
				this.timer = undefined;
				this.dispatch();
			},
			() => undefined,
		);
	}
}

export interface Resend {
	lane: Lane;
	/** How often the service has turned this item away. */
	times: number;
	wake: () => void;
}

const windows = new Map<string, ServiceWindow>();

/** The service's window, after forgetting those idle past IDLE_MS (their number stays small). */
export function windowFor(serviceUrl: string): ServiceWindow {
	const now = Date.now();
	for (const [url, idle] of windows) {
		if (idle.lanes === 0 && idle.inFlight === 0 && now - idle.lastActive > IDLE_MS) {
			windows.delete(url);
		}
	}
	let shared = windows.get(serviceUrl);
	if (!shared) windows.set(serviceUrl, (shared = new ServiceWindow()));
	return shared;
}
