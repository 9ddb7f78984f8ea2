/**
 * What the simulator answers, told as it happens in the terminal of `npm run dev` and `npm start --
 * --serve`: each run it creates and each request it refuses, with the reason it found. At most one
 * line a second: what comes within the second is summed into the next line, so that a burst of 429s
 * stays readable and a run that waits on the service does not look like a hang. A line shows the
 * automation, a run's message (shortened) and a refusal's reason; never a secret or a signature.
 */
import type { BusySpell, SimulatorAnswer } from './simulator';

/** The time, and a timer: real by default, the test's own in a test. */
export interface LogClock {
	now(): number;
	/** Calls `fn` once, `ms` from now; returns what cancels it. */
	after(ms: number, fn: () => void): () => void;
}

export const REAL_CLOCK: LogClock = {
	now: () => Date.now(),
	after: (ms, fn) => {
		const timer = setTimeout(fn, ms);
		return () => clearTimeout(timer);
	},
};

/** How much of a run's message a line shows. */
const MESSAGE_WIDTH = 60;

interface Runs {
	kind: 'run';
	count: number;
	automations: Set<string>;
	/** The message of the first run, shown when it is the only one. */
	message: string;
}

/** Credential tests' HEAD probes: answered 405, which tells the test the URL answers. */
interface Probes {
	kind: 'probe';
	status: number;
	count: number;
}

interface Refusals {
	kind: 'refused';
	status: number;
	retryAfter?: string;
	count: number;
	reasons: Map<string, number>;
}

/**
 * Text from a request on one line, without control characters (a terminal would act on an escape
 * sequence), and cut to `width`.
 */
function oneLine(text: string, width: number): string {
	// eslint-disable-next-line no-control-regex
	const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
	return flat.length > width ? `${flat.slice(0, width - 1).trimEnd()}…` : flat;
}

function requests(count: number): string {
	return `${count} request${count === 1 ? '' : 's'}`;
}

function told(tally: Runs | Probes | Refusals): string {
	if (tally.kind === 'probe') {
		const probes =
			tally.count === 1 ? "a credential test's probe" : `${tally.count} credential test probes`;
		return `answered ${probes} (HEAD) with ${tally.status}: the URL answers, no run`;
	}
	if (tally.kind === 'run') {
		const ids = [...tally.automations].map((id) => oneLine(id, MESSAGE_WIDTH)).join(', ');
		const automation = `automation${tally.automations.size === 1 ? '' : 's'} ${ids}`;
		return tally.count === 1
			? `run created for ${automation}: “${oneLine(tally.message, MESSAGE_WIDTH)}”`
			: `created ${tally.count} runs for ${automation}`;
	}
	const { status, retryAfter, count, reasons } = tally;
	const verb = status === 429 ? 'turned away' : status >= 500 ? 'failed' : 'refused';
	const why =
		reasons.size === 1
			? [...reasons.keys()][0]
			: [...reasons].map(([reason, n]) => `${reason}: ${n}`).join(', ');
	const after = retryAfter === undefined ? '' : `, Retry-After: ${retryAfter}`;
	return `${verb} ${requests(count)} with ${status}${after} (${oneLine(why, 200)})`;
}

export class SimulatorLog {
	/** What is not told yet, in the order it first came. */
	private readonly pending = new Map<string, Runs | Probes | Refusals>();
	private cancelTimer: (() => void) | undefined;
	/** When the last line was printed. */
	private printedAt = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly print: (line: string) => void,
		private readonly clock: LogClock = REAL_CLOCK,
		private readonly intervalMs = 1000,
	) {}

	/** One answer of the simulator: told at once, or with the others of its second. */
	answered(answer: SimulatorAnswer): void {
		this.add(answer);
		if (this.cancelTimer) return;
		const dueIn = this.printedAt + this.intervalMs - this.clock.now();
		if (dueIn <= 0) return this.flush();
		this.cancelTimer = this.clock.after(dueIn, () => this.flush());
	}

	/**
	 * A busy spell beginning or over, on a line of its own at once (after what came before it): the
	 * person trying the busy example reads when it is over and how to meet another.
	 */
	spell(spell: BusySpell): void {
		this.flush();
		const text =
			spell.kind === 'began'
				? `busy spell began: every request is turned away with 429 for ${spell.forMs / 1000} s`
				: `busy spell over: requests are accepted. The first after ${spell.quietMs / 1000} s without any starts the next spell`;
		this.print(`${this.time()} Simulator: ${text}`);
	}

	/** Prints what is left untold (at a stop too). */
	flush(): void {
		this.cancelTimer?.();
		this.cancelTimer = undefined;
		if (this.pending.size === 0) return;
		this.print(`${this.time()} Simulator: ${[...this.pending.values()].map(told).join('; ')}`);
		this.pending.clear();
		this.printedAt = this.clock.now();
	}

	private time(): string {
		return new Date(this.clock.now()).toTimeString().slice(0, 8);
	}

	private add(answer: SimulatorAnswer): void {
		if (answer.kind === 'probe') {
			const key = `probe ${answer.status}`;
			const probes = this.pending.get(key) as Probes | undefined;
			if (probes) probes.count++;
			else this.pending.set(key, { kind: 'probe', status: answer.status, count: 1 });
			return;
		}
		if (answer.kind === 'run') {
			const runs = this.pending.get('run') as Runs | undefined;
			if (runs) {
				runs.count++;
				runs.automations.add(answer.run.automationId);
			} else {
				this.pending.set('run', {
					kind: 'run',
					count: 1,
					automations: new Set([answer.run.automationId]),
					message: answer.run.message,
				});
			}
			return;
		}
		const key = `${answer.status} ${answer.retryAfter ?? ''}`;
		let refusals = this.pending.get(key) as Refusals | undefined;
		if (!refusals) {
			refusals = {
				kind: 'refused',
				status: answer.status,
				...(answer.retryAfter === undefined ? {} : { retryAfter: answer.retryAfter }),
				count: 0,
				reasons: new Map(),
			};
			this.pending.set(key, refusals);
		}
		refusals.count++;
		refusals.reasons.set(answer.reason, (refusals.reasons.get(answer.reason) ?? 0) + 1);
	}
}
