/**
 * Everything logged while a test runs, for the leak check: n8n's own logger (at debug level, so it
 * says all it would ever say), the console, and anything written to stdout/stderr directly. Import
 * this module before dev/engine: it sets the log level n8n reads when its logger is first made.
 */
import { createRequire } from 'node:module';

process.env.N8N_LOG_LEVEL = 'debug';

// The logger n8n-core uses, from the same (CommonJS) module instances n8n-core loads.
const requireFromCore = createRequire(createRequire(import.meta.url).resolve('n8n-core'));
const backendCommon = requireFromCore('@n8n/backend-common') as {
	Logger: { prototype: { log: (level: string, message: string, metadata?: unknown) => void } };
};
const workflowCjs = requireFromCore('n8n-workflow') as {
	LoggerProxy: Record<string, (message: string, metadata?: unknown) => void>;
};

const logged: string[] = [];
let capturing = false;

function record(source: string, values: unknown[]): void {
	const seen = new WeakSet<object>();
	const text = values
		.map((value) =>
			typeof value === 'string'
				? value
				: (JSON.stringify(value, (_key, v: unknown) => {
						if (typeof v === 'bigint') return v.toString();
						if (v instanceof Error) {
							const all: Record<string, unknown> = {};
							for (const name of Object.getOwnPropertyNames(v)) all[name] = (v as never)[name];
							return all;
						}
						if (typeof v === 'object' && v !== null) {
							if (seen.has(v)) return '[circular]';
							seen.add(v);
						}
						return v;
					}) ?? String(value)),
		)
		.join(' ');
	logged.push(`[${source}] ${text}`);
}

// n8n's Logger: every level goes through Logger.prototype.log (scoped loggers too).
backendCommon.Logger.prototype.log = function (level, message, metadata) {
	record(`n8n ${level}`, [message, metadata]);
};
// LoggerProxy before n8n-core made its Logger (it then points at that Logger).
for (const level of ['error', 'warn', 'info', 'debug', 'verbose']) {
	const original = workflowCjs.LoggerProxy[level];
	workflowCjs.LoggerProxy[level] = (message, metadata) => {
		record(`n8n ${level}`, [message, metadata]);
		if (!capturing && typeof original === 'function') original(message, metadata);
	};
}

const consoleMethods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
const originals = {
	console: Object.fromEntries(consoleMethods.map((name) => [name, console[name]])),
	stdout: process.stdout.write.bind(process.stdout),
	stderr: process.stderr.write.bind(process.stderr),
};

/** Starts recording (and silencing) console, stdout and stderr; n8n's logger is always recorded. */
export function startCapture(): void {
	logged.length = 0;
	capturing = true;
	for (const name of consoleMethods) {
		console[name] = (...values: unknown[]) => record(`console.${name}`, values);
	}
	process.stdout.write = ((chunk: unknown) => {
		record('stdout', [String(chunk)]);
		return true;
	}) as typeof process.stdout.write;
	process.stderr.write = ((chunk: unknown) => {
		record('stderr', [String(chunk)]);
		return true;
	}) as typeof process.stderr.write;
}

/** Stops recording; returns everything logged since startCapture. */
export function stopCapture(): string[] {
	capturing = false;
	for (const name of consoleMethods) console[name] = originals.console[name] as never;
	process.stdout.write = originals.stdout as typeof process.stdout.write;
	process.stderr.write = originals.stderr as typeof process.stderr.write;
	return [...logged];
}
